"""Check an implementation of a PR metric against the vectors, from another project's tests.

::

    from prtheory.conformance import check
    report = check(my_average_precision, metric="average_precision")
    assert report.ok, report.summary()

``fn`` receives the inputs as keyword arguments it names among ``y_true``, ``y_score``,
``sample_weight`` and the metric's parameters (``k``, ``beta``, ``threshold``, ``pi``, ``pos``,
``neg``, ``aucpr``); parameters arrive as floats/ints. Curves are returned as dicts of arrays in
decreasing-threshold order (``recall``/``precision`` or ``recall_gain``/``precision_gain``).

``conventions`` lists the conventions the implementation claims, by name (see
:mod:`prtheory.conformance.metrics`), e.g. ``["ties=input-order"]`` or
``["first-point=sklearn", "undefined=sklearn"]``; the expected value of each vector is then the
one under those conventions. A result that matches another convention is reported as a failure
that names the convention it does match.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from prtheory.conformance.adapters import Implementation, Unsupported
from prtheory.conformance.classify import DEFAULT_F32_ULPS, DEFAULT_ULPS, Verdict, classify
from prtheory.conformance.metrics import METRICS, combination_base
from prtheory.conformance.runner import run_implementation
from prtheory.conformance.vectors_io import Vector, load
from prtheory.errors import InvalidInputError

__all__ = ["CheckReport", "Failure", "assert_conforms", "check", "parametrize", "vectors"]


@dataclass(frozen=True)
class Failure:
    vector: Vector
    verdict: Verdict

    def __str__(self) -> str:
        v = self.vector
        return f"{v.ident} ({v.comment}): {self.verdict.category}: {self.verdict.detail}"


@dataclass
class CheckReport:
    """Per-vector verdicts of one implementation; ``ok`` when every applicable vector passes."""

    metric: str
    conventions: tuple[str, ...]
    verdicts: list[tuple[Vector, Verdict]] = field(default_factory=list)

    @property
    def failures(self) -> list[Failure]:
        return [Failure(v, d) for v, d in self.verdicts if not _passes(v, d, self.conventions)]

    @property
    def ok(self) -> bool:
        return not self.failures

    @property
    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for _, d in self.verdicts:
            out[d.category] = out.get(d.category, 0) + 1
        return out

    def summary(self) -> str:
        lines = [
            f"{self.metric} under {list(self.conventions) or 'the default conventions'}: "
            f"{len(self.verdicts) - len(self.failures)}/{len(self.verdicts)} vectors pass"
        ]
        lines += [f"  {f}" for f in self.failures]
        return "\n".join(lines)


def _passes(v: Vector, d: Verdict, conventions: tuple[str, ...]) -> bool:
    """Pass iff the result is the value under the declared conventions (at float64 accuracy)."""
    if d.category == "unsupported":
        return True
    target = _target_name(v, conventions)
    if target is None:  # the declared conventions give the default value here
        return d.category == "agrees"
    return d.category == "convention" and not d.float32 and target in d.matches


def _canonical(names: tuple[str, ...], metric: str) -> str | None:
    """The alternative of ``metric`` whose components are exactly ``names``, if any."""
    if not names:
        return None
    want = set(names)
    for alt in METRICS[metric].alternatives:
        if set(alt.name.split("+")) == want:
            return alt.name
    return None


def _target_name(v: Vector, conventions: tuple[str, ...]) -> str | None:
    """Which stored value is expected of an implementation claiming ``conventions``.

    Alternatives are stored only where they differ from the default; the undefined-value
    convention applies to undefined vectors only, the others to defined ones.
    """
    relevant = tuple(
        c for c in conventions if c.startswith("undefined=") == (v.result == "undefined")
    )
    name = _canonical(relevant, v.metric)
    if name is None or name in v.alternatives:
        return name if name in v.alternatives else None
    # the generator leaves out a combination whose value its first stored part already gives
    return combination_base(name, v.alternatives)


def _validate_conventions(metric: str, conventions: tuple[str, ...]) -> None:
    known = {part for alt in METRICS[metric].alternatives for part in alt.name.split("+")}
    unknown = [c for c in conventions if c not in known]
    if unknown:
        raise InvalidInputError(
            "conventions", f"{unknown} are not conventions of {metric} (known: {sorted(known)})"
        )
    for kind in ("undefined=", "non-undefined"):
        group = tuple(
            c for c in conventions if c.startswith("undefined=") == (kind == "undefined=")
        )
        if group and _canonical(group, metric) is None:
            raise InvalidInputError(
                "conventions", f"{list(group)} is not a combination the vectors of {metric} name"
            )


def _caller(fn: Callable[..., Any], metric: str) -> Callable[[Any], Any]:
    try:
        names = set(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        names = {"y_true", "y_score"}

    def run(x: Any) -> Any:
        kwargs: dict[str, Any] = {}
        if x.y_true is not None:
            kwargs["y_true"], kwargs["y_score"] = x.y_true, x.y_score
        if x.sample_weight is not None:
            if "sample_weight" not in names:
                return Unsupported("the implementation takes no sample_weight")
            kwargs["sample_weight"] = x.sample_weight
        for k, value in x.params.items():
            kwargs[k] = float(value) if isinstance(value, Fraction) else value
        return fn(**{k: v for k, v in kwargs.items() if k in names or k in ("y_true", "y_score")})

    return run


def vectors(metric: str) -> list[Vector]:
    """The decoded vectors of ``metric`` (for parametrising tests)."""
    if metric not in METRICS:
        raise InvalidInputError("metric", f"unknown {metric!r}; known: {', '.join(METRICS)}")
    return list(load([metric]))


def check(
    fn: Callable[..., Any],
    metric: str = "average_precision",
    conventions: list[str] | tuple[str, ...] = (),
    *,
    ulps: int = DEFAULT_ULPS,
    f32_ulps: int = DEFAULT_F32_ULPS,
) -> CheckReport:
    """Run ``fn`` on every vector of ``metric`` and classify each result (module docstring)."""
    conventions = tuple(conventions)
    vs = vectors(metric)
    _validate_conventions(metric, conventions)
    impl = _implementation(fn, metric, conventions)
    report = CheckReport(metric, conventions)
    for v in vs:
        verdict = classify(v, run_implementation(impl, v), ulps=ulps, f32_ulps=f32_ulps)
        report.verdicts.append((v, verdict))
    return report


def _implementation(
    fn: Callable[..., Any], metric: str, conventions: tuple[str, ...]
) -> Implementation:
    name = getattr(fn, "__name__", repr(fn))
    return Implementation("user", name, metric, _caller(fn, metric), conventions)


def parametrize(metric: str) -> Any:
    """``@parametrize("average_precision")``: a pytest mark giving a test one ``vector`` per case.

    Use with :func:`assert_conforms`::

        @parametrize("average_precision")
        def test_my_ap(vector):
            assert_conforms(my_ap, vector)
    """
    import pytest

    vs = vectors(metric)
    return pytest.mark.parametrize("vector", vs, ids=[f"{v.tc_id}-{v.comment[:50]}" for v in vs])


def assert_conforms(
    fn: Callable[..., Any],
    vector: Vector,
    conventions: list[str] | tuple[str, ...] = (),
    *,
    ulps: int = DEFAULT_ULPS,
) -> Verdict:
    """Raise ``AssertionError`` (naming the convention it does match, if any) unless ``fn``'s
    result on ``vector`` is the value under ``conventions``; return the verdict otherwise."""
    conventions = tuple(conventions)
    _validate_conventions(vector.metric, conventions)
    impl = _implementation(fn, vector.metric, conventions)
    verdict = classify(vector, run_implementation(impl, vector), ulps=ulps)
    if not _passes(vector, verdict, conventions):
        raise AssertionError(str(Failure(vector, verdict)))
    return verdict
