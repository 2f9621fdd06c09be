"""Check an implementation of a PR metric against the vectors, from another project's tests.

::

    from prtheory.conformance import check
    report = check(my_average_precision, metric="average_precision")
    assert report.ok, report.summary()

``fn`` receives every input of a vector (``y_true``, ``y_score``, ``sample_weight`` and the
metric's parameters ``k``, ``beta``, ``threshold``, ``pi``, ``pos``, ``neg``, ``aucpr``) by
keyword, or positionally for positional-only parameters; ``names`` maps the kit's names to
``fn``'s (``names={"y_true": "target", "y_score": "preds"}``). Parameters arrive as floats/ints.
A scalar may be returned as a float, a numpy scalar or a one-element array/tensor; a curve as a
dict of arrays in decreasing-threshold order (``recall``/``precision`` or
``recall_gain``/``precision_gain``).

A vector is never counted as passing unless ``fn`` was called with all of its inputs. A vector
``fn`` cannot receive (no parameter for an input and no ``**kwargs``; ``sample_weight`` passed
through ``**kwargs`` that never reads it, i.e. the result without it is the same while the
expected values differ; longer than ``max_n``) is *skipped* with the reason, and the report is
not ``ok`` while anything is skipped that the caller did not opt out of by name
(``skip=["sample_weight"]``; ``max_n`` opts out of the longer vectors).

``conventions`` lists the conventions the implementation claims, by name (see
:mod:`prtheory.conformance.metrics`), e.g. ``["ties=input-order"]`` or
``["first-point=sklearn", "undefined=sklearn"]``; the expected value of each vector is then the
one under those conventions. ``precision="float32"`` declares a float32 implementation: ``ulps``
then counts float32 ulps (default :data:`DEFAULT_F32_ULPS`) instead of float64 ulps
(:data:`DEFAULT_ULPS`).

Besides the vectors, ``check()`` compares ``fn`` with the exact value on generated inputs of 10
to 10^6 items (:mod:`prtheory.conformance.differential`, for the metrics of
:data:`~prtheory.conformance.differential.METRICS`): round 0 of every size, then
``per_decade`` inputs in each decade of sizes (default 1375: a defect on 1 % of a decade's
inputs escapes with probability below 10^-6), all drawn from ``seed`` (printed in the
summary); ``budget`` CPU seconds cut the bulk short, and the summary states the bound reached.
A divergent input is shrunk to a small one and shown. ``differential=False`` turns it off; a
declared convention the generator's reference cannot follow leaves it not run, which is not
``ok`` unless ``skip=["differential"]``.

Every failure shows the input (inline when it has at most 12 items), the exact expected value,
the returned value, the distance in ulps and the mechanism that explains it: the smallest set of
named mechanisms (:mod:`prtheory.conformance.mechanisms`) that explains every divergent vector.
A crash inside ``fn`` is reported with the last line of its traceback.
"""

from __future__ import annotations

import inspect
import traceback
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np

from prtheory.conformance import differential as diff
from prtheory.conformance.classify import (
    DEFAULT_F32_ULPS,
    DEFAULT_ULPS,
    Outcome,
    Verdict,
    classify,
    distance,
    expected_text,
    show,
)
from prtheory.conformance.mechanisms import Diagnosis, Raised, diagnose, mechanisms
from prtheory.conformance.metrics import METRICS, Inputs, combination_base
from prtheory.conformance.predictions import marker_text
from prtheory.conformance.vectors_io import Vector, load
from prtheory.errors import InvalidInputError

__all__ = ["Case", "CheckReport", "Failure", "assert_conforms", "check", "parametrize", "vectors"]

PRECISIONS = ("float64", "float32")
_INLINE = 12  # inputs with at most this many items are shown in full


@dataclass(frozen=True)
class Case:
    """One vector's verdict; ``skipped`` names what made it skipped (an input or ``max_n``).

    Examples
    --------
    The only positive ranked third has average precision 1/3 (the precision at rank 3); an
    implementation that returned 1/2 is wrong there:

    >>> import numpy as np
    >>> from fractions import Fraction
    >>> from prtheory.conformance.api import Case
    >>> from prtheory.conformance.classify import Outcome, classify
    >>> from prtheory.conformance.encoding import encode_value
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.vectors_io import Vector
    >>> x = Inputs(np.array([0, 0, 1]), np.array([3.0, 2.0, 1.0]))
    >>> third = encode_value(Fraction(1, 3))
    >>> v = Vector("average_precision", 1, "positive last", (), x, "valid", third, {}, None)
    >>> case = Case(v, classify(v, Outcome(value=0.5)), 0.5)
    >>> case.verdict.category, case.skipped
    ('wrong', None)
    """

    vector: Vector
    verdict: Verdict
    value: Any = None
    skipped: str | None = None
    error: BaseException | None = None


@dataclass(frozen=True)
class Failure:
    """A failing vector with everything a maintainer needs to act on it.

    Examples
    --------
    The only positive ranked third has average precision 1/3; 1/2 is (1/2 - 1/3)/2**-54
    = 2**54/6 = 3.0024e15 float64 ulps from it (the floats in [1/4, 1/2) are 2**-54 apart):

    >>> import numpy as np
    >>> from fractions import Fraction
    >>> from prtheory.conformance.api import Case, CheckReport
    >>> from prtheory.conformance.classify import Outcome, classify
    >>> from prtheory.conformance.encoding import encode_value
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.vectors_io import Vector
    >>> x = Inputs(np.array([0, 0, 1]), np.array([3.0, 2.0, 1.0]))
    >>> third = encode_value(Fraction(1, 3))
    >>> v = Vector("average_precision", 1, "positive last", (), x, "valid", third, {}, None)
    >>> case = Case(v, classify(v, Outcome(value=0.5)), 0.5)
    >>> print(CheckReport("average_precision", (), cases=[case]).failures[0])
    average_precision#1 (positive last): wrong
        input: y_true=[0, 0, 1], y_score=[3.0, 2.0, 1.0]
        expected: 1/3 = 0.3333333333333333
        returned: 0.5
        distance to the oracle: 3.0024e+15 ulps
    """

    case: Case
    expected: Any
    mechanism: tuple[str, Any] | None = None
    float32: bool = False

    @property
    def vector(self) -> Vector:
        """The failing vector."""
        return self.case.vector

    @property
    def verdict(self) -> Verdict:
        """Its verdict."""
        return self.case.verdict

    def __str__(self) -> str:
        v, d = self.vector, self.verdict
        want = _want(v, self.case) if self.case.value is not None else None
        if d.convention is not None:  # its distance is on the distance line, labelled
            head = f"{d.category}: agrees under {d.convention}"
        elif want is not None:
            head = d.category
        else:
            head = f"{d.category}: {d.detail}"
        lines = [f"{v.ident} ({v.comment}): {head}"]
        lines.append(f"    input: {_input_text(v)}")
        lines.append(f"    expected: {self.expected}")
        if self.case.value is not None:
            lines.append(f"    returned: {show(self.case.value)}")
        if want is not None:
            lines.append("    " + self._distances(want))
        if self.mechanism is not None:
            name, predicted = self.mechanism
            said = marker_text(predicted) or expected_text(predicted)
            lines.append(f"    mechanism: {name} (predicts {said})")
        return "\n".join(lines)

    def _distances(self, want: Any) -> str:
        """``distance to the oracle: N ulps``, and ``; closest convention: X (M ulps)`` when the
        returned value agrees with a named convention (float32 ulps under float32 precision or
        for a float32-level agreement)."""
        d = self.verdict
        dtype = np.float32 if self.float32 or d.float32 else np.float64
        unit = "float32 ulps" if dtype is np.float32 else "ulps"
        text = f"distance to the oracle: {distance(self.case.value, want, dtype):.6g} {unit}"
        alternative = self.vector.alternatives.get(d.convention) if d.convention else None
        if alternative is not None:
            near = distance(self.case.value, alternative, dtype)
            text += f"; closest convention: {d.convention} ({near:.6g} {unit})"
        return text


def _want(v: Vector, case: Case) -> Any:
    return v.expected if v.result in ("valid", "acceptable") else None


def _input_text(v: Vector) -> str:
    x = v.inputs
    parts = []
    if x.y_true is not None:
        n = len(x.scores)
        if n > _INLINE:
            return f"{n} items (vector {v.ident} in prtheory/conformance/vectors/)"
        parts.append(f"y_true={np.asarray(x.y_true).tolist()}")
        parts.append(f"y_score={np.asarray(x.y_score, dtype=np.float64).tolist()}")
        if x.sample_weight is not None:
            parts.append(f"sample_weight={np.asarray(x.sample_weight).tolist()}")
    parts += [f"{k}={value}" for k, value in x.params.items()]
    return ", ".join(parts)


@dataclass
class CheckReport:
    """Per-vector verdicts of one implementation; ``ok`` when every vector passes or was skipped
    for a reason the caller opted out of.

    Examples
    --------
    One vector (the only positive ranked third: average precision 1/3) on which the
    implementation returned 1/2, and one it could not receive (it takes no weights):

    >>> import numpy as np
    >>> from fractions import Fraction
    >>> from prtheory.conformance.api import Case, CheckReport
    >>> from prtheory.conformance.classify import Outcome, classify
    >>> from prtheory.conformance.encoding import encode_value
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.vectors_io import Vector
    >>> x = Inputs(np.array([0, 0, 1]), np.array([3.0, 2.0, 1.0]))
    >>> third = encode_value(Fraction(1, 3))
    >>> v = Vector("average_precision", 1, "positive last", (), x, "valid", third, {}, None)
    >>> w = Inputs(x.y_true, x.y_score, np.array([1.0, 1.0, 2.0]))
    >>> weighted = Vector("average_precision", 2, "weighted", (), w, "valid", third, {}, None)
    >>> cases = [
    ...     Case(v, classify(v, Outcome(value=0.5)), 0.5),
    ...     Case(weighted, classify(weighted, Outcome(unsupported="sample_weight")),
    ...          skipped="sample_weight"),
    ... ]
    >>> report = CheckReport("average_precision", (), cases=cases)
    >>> report.ok, report.passed, len(report.failures), len(report.skipped)
    (False, 0, 1, 1)
    >>> print(report.summary().splitlines()[0])
    average_precision under the default conventions (float64): FAIL: 0 pass, 1 fail, 1 skipped
    of 2 vectors
    """

    metric: str
    conventions: tuple[str, ...]
    precision: str = "float64"
    opted_out: tuple[str, ...] = ()
    cases: list[Case] = field(default_factory=list)
    diagnosis: Diagnosis | None = None
    #: the differential test (``None`` where the metric has no generated inputs or it was off)
    differential: diff.Outcome | None = None

    @property
    def verdicts(self) -> list[tuple[Vector, Verdict]]:
        """Each vector with its verdict, in file order."""
        return [(c.vector, c.verdict) for c in self.cases]

    @property
    def skipped(self) -> list[Case]:
        """The vectors ``fn`` could not receive (each names why)."""
        return [c for c in self.cases if c.skipped is not None]

    @property
    def failures(self) -> list[Failure]:
        """The vectors whose result is not the value under the declared conventions."""
        attribution = self.diagnosis.attribution if self.diagnosis else {}
        return [
            Failure(
                c,
                _expected_for(c.vector, self.conventions),
                attribution.get(c.vector.ident),
                self.precision == "float32",
            )
            for c in self.cases
            if c.skipped is None and not _passes(c, self.conventions, self.precision)
        ]

    @property
    def passed(self) -> int:
        """How many vectors pass."""
        return len(self.cases) - len(self.skipped) - len(self.failures)

    @property
    def ok(self) -> bool:
        """No failure, nothing skipped that the caller did not opt out of, and the differential
        test passed (or was opted out of)."""
        return (
            not self.failures
            and all(c.skipped in self.opted_out for c in self.skipped)
            and self._differential_ok
        )

    @property
    def _differential_ok(self) -> bool:
        d = self.differential
        if d is None:
            return True
        if d.not_run is not None:
            return "differential" in self.opted_out
        return d.ok

    @property
    def counts(self) -> dict[str, int]:
        """How many vectors of each category (``agrees``, ``convention``, ``wrong``, ...)."""
        out: dict[str, int] = {}
        for c in self.cases:
            out[c.verdict.category] = out.get(c.verdict.category, 0) + 1
        return out

    def summary(self) -> str:
        """The report as text: the counts, the mechanisms found, each failure with its input,
        expected and returned values, and the differential test's outcome."""
        failures = self.failures
        head = (
            f"{self.metric} under {list(self.conventions) or 'the default conventions'} "
            f"({self.precision}): {'OK' if self.ok else 'FAIL'}: {self.passed} pass, "
            f"{len(failures)} fail, {len(self.skipped)} skipped of {len(self.cases)} vectors"
        )
        lines = [head]
        by_key: dict[str, int] = {}
        for c in self.skipped:
            key = str(c.skipped)  # a skipped case names why (never None)
            by_key[key] = by_key.get(key, 0) + 1
        for key, count in by_key.items():
            how = (
                "opted out"
                if key in self.opted_out
                else f"NOT opted out: pass skip=[{key!r}] to accept"
            )
            lines.append(f"  skipped ({key}): {count} ({how})")
        called = [c for c in self.cases if c.skipped is None and c.vector.result == "valid"]
        if called and all(c.verdict.category in ("crashed", "rejected-valid") for c in called):
            lines.append(
                f"  RAISED ON EVERY ONE of the {len(called)} valid vectors: "
                f"{called[0].verdict.detail}"
            )
        if self.diagnosis is not None and (self.diagnosis.chosen or self.diagnosis.unexplained):
            counts: dict[str, int] = {}
            for name, _ in self.diagnosis.attribution.values():
                counts[name] = counts.get(name, 0) + 1
            named = ", ".join(f"{n} ({counts.get(n, 0)} vectors)" for n in self.diagnosis.chosen)
            lines.append(
                f"  mechanisms: {named or 'none'}; unexplained: {len(self.diagnosis.unexplained)}"
            )
        lines += [f"  {f}" for f in failures]
        lines += [
            f"  skipped {c.vector.ident} ({c.vector.comment}): {c.verdict.detail}"
            for c in self.skipped
        ]
        if self.differential is not None:
            lines.append("  " + self.differential.summary())
        return "\n".join(lines)


def _passes(c: Case, conventions: tuple[str, ...], precision: str = "float64") -> bool:
    """Pass iff ``fn`` was called with every input and returned the value under the declared
    conventions (at the declared precision's accuracy)."""
    v, d = c.vector, c.verdict
    if c.skipped is not None:
        return False
    f32_ok = precision == "float32"
    target = _target_name(v, conventions)
    if target is None:  # the declared conventions give the default value here
        return d.category == "agrees" or (f32_ok and d.category == "float32")
    return d.category == "convention" and (f32_ok or not d.float32) and target in d.matches


def _expected_for(v: Vector, conventions: tuple[str, ...]) -> str:
    target = _target_name(v, conventions)
    if target is not None:
        return f"{expected_text(v.alternatives[target])} (under {target})"
    if v.result == "invalid":
        return f"an exception (invalid input: {v.reason})"
    if v.result == "undefined":
        return f"an exception or NaN (undefined: {v.reason})"
    return expected_text(v.expected)


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


@dataclass(frozen=True)
class _Call:
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    through_var_kw: frozenset[str]


@dataclass(frozen=True)
class _Skip:
    key: str
    reason: str


# parameters a metric's vectors carry but its definition does not read (shared with F-beta)
_UNREAD = {"precision_at_threshold": {"beta"}, "recall_at_threshold": {"beta"}}


def _inputs(x: Any, metric: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if x.y_true is not None:
        out["y_true"], out["y_score"] = x.y_true, x.y_score
    if x.sample_weight is not None:
        out["sample_weight"] = x.sample_weight
    for k, value in x.params.items():
        if k == "dtype":  # how users pass the scores, not an argument
            out["y_score"] = np.asarray(x.y_score, dtype=np.float64).astype(value)
        elif k == "relevant_at":  # graded labels: the vector's semantics, not an argument
            continue
        elif k not in _UNREAD.get(metric, ()):
            out[k] = float(value) if isinstance(value, Fraction) else value
    return out


class _Receiver:
    """How ``fn`` receives a vector's inputs (its signature, after ``names``)."""

    def __init__(self, fn: Callable[..., Any], names: dict[str, str]) -> None:
        self.fn = fn
        self.names = names
        try:
            self.sig: inspect.Signature | None = inspect.signature(fn)
        except (TypeError, ValueError):  # no signature to read: pass everything by keyword
            self.sig = None
        self.params = dict(self.sig.parameters) if self.sig else {}
        self.var_kw = self.sig is None or any(
            p.kind is inspect.Parameter.VAR_KEYWORD for p in self.params.values()
        )

    def plan(self, x: Any, metric: str) -> _Call | _Skip:
        positional: dict[int, Any] = {}
        kwargs: dict[str, Any] = {}
        through: set[str] = set()
        order = list(self.params)
        for key, value in _inputs(x, metric).items():
            target = self.names.get(key, key)
            p = self.params.get(target)
            if p is None or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                if not self.var_kw:
                    return _Skip(key, f"the function has no parameter {target!r} to receive {key}")
                kwargs[target] = value
                through.add(key)
            elif p.kind is p.POSITIONAL_ONLY:
                positional[order.index(target)] = value
            else:
                kwargs[target] = value
        return _Call(tuple(positional[i] for i in sorted(positional)), kwargs, frozenset(through))

    def call(self, c: _Call) -> Outcome:
        with warnings.catch_warnings(record=True), np.errstate(all="ignore"):
            warnings.simplefilter("always")
            try:
                return Outcome(value=_normalise(self.fn(*c.args, **c.kwargs)))
            except Exception as exc:  # the user's failure is a result to classify
                return Outcome(error=exc)


def _normalise(value: Any) -> Any:
    """A float for numpy/torch scalars and one-element arrays; curves as dicts of arrays."""
    if isinstance(value, dict):
        return {k: np.asarray(_array(a), dtype=np.float64) for k, a in value.items()}
    arr = _array(value)
    if isinstance(arr, np.ndarray | np.generic) and np.size(arr) == 1:
        return float(np.asarray(arr, dtype=np.float64).reshape(-1)[0])
    return arr


def _array(value: Any) -> Any:
    if hasattr(value, "detach"):  # a torch tensor
        return value.detach().cpu().numpy()
    return value


def _last_line(err: BaseException) -> str:
    frames = traceback.extract_tb(err.__traceback__)
    if not frames:
        return ""
    f = frames[-1]
    return f'; last traceback line: File "{f.filename}", line {f.lineno}, in {f.name}: {f.line}'


def _run_case(r: _Receiver, v: Vector, *, max_n: int | None, ulps: int, f32_ulps: int) -> Case:
    x = v.inputs
    if max_n is not None and x.y_score is not None and len(x.y_score) > max_n:
        return Case(v, Verdict("skipped", f"{len(x.y_score)} items > max_n={max_n}"), None, "max_n")
    plan = r.plan(x, v.metric)
    if isinstance(plan, _Skip):
        return Case(v, Verdict("skipped", plan.reason), None, plan.key)
    if r.sig is not None:
        try:
            r.sig.bind(*plan.args, **plan.kwargs)
        except TypeError as exc:
            detail = (
                f"cannot be called with this vector's inputs {sorted(_inputs(x, v.metric))}: {exc}"
            )
            return Case(v, Verdict("crashed", detail), None, None, exc)
    outcome = r.call(plan)
    unread = "sample_weight" in plan.through_var_kw and outcome.value is not None
    if unread and _weights_unread(r, v, plan, outcome.value):
        reason = (
            "sample_weight went into **kwargs and was never read: the result is the same "
            "without it, while the expected values differ (weights-ignored)"
        )
        return Case(v, Verdict("skipped", reason), outcome.value, "sample_weight")
    verdict = classify(v, outcome, ulps=ulps, f32_ulps=f32_ulps)
    if outcome.error is not None:
        detail = f"your function {verdict.detail}{_last_line(outcome.error)}"
        verdict = replace(verdict, detail=detail)
    return Case(v, verdict, outcome.value, None, outcome.error)


def _plain(want: Any) -> Any:
    if isinstance(want, dict):
        return {k: np.array([x.float64 for x in vals]) for k, vals in want.items()}
    return want.float64


def _weights_unread(r: _Receiver, v: Vector, plan: _Call, value: Any) -> bool:
    """Weights that reached ``**kwargs`` and changed nothing although they change the value."""
    from prtheory.conformance.mechanisms import unweighted

    if v.result != "valid":
        return False
    unw = unweighted(v)
    if unw is None or distance(_plain(unw), v.expected, np.float64) == 0:
        return False  # these weights do not change the value: nothing to tell
    target = r.names.get("sample_weight", "sample_weight")
    rest = {k: a for k, a in plan.kwargs.items() if k != target}
    without = r.call(_Call(plan.args, rest, plan.through_var_kw)).value
    return without is not None and distance(value, _plain_result(without), np.float64) == 0


def _plain_result(value: Any) -> Any:
    """A returned value in the form :func:`~prtheory.conformance.classify.distance` expects of a wanted one."""
    from prtheory.conformance.encoding import decode_outcome, encode_value

    if isinstance(value, dict):
        return {
            k: [decode_outcome(encode_value(float(x)).to_json()) for x in a]
            for k, a in value.items()
        }
    return decode_outcome(encode_value(float(value)).to_json())


def vectors(metric: str) -> list[Vector]:
    """The decoded vectors of ``metric`` (for parametrising tests).

    Parameters
    ----------
    metric : str
        A vector file's metric (``average_precision``, ``pr_curve``, ``precision_at_k``, ...).

    Returns
    -------
    list of Vector
        In tcId order.

    Raises
    ------
    InvalidInputError
        For an unknown metric.

    Examples
    --------
    >>> from prtheory.conformance import vectors
    >>> v = vectors("average_precision")[0]
    >>> v.inputs.y_true.tolist(), v.result
    ([1, 0, 1, 1, 0, 0, 1, 0], 'valid')
    """
    if metric not in METRICS:
        raise InvalidInputError("metric", f"unknown {metric!r}; known: {', '.join(METRICS)}")
    return list(load([metric]))


def _tolerances(precision: str, ulps: int | None) -> tuple[int, int]:
    """(float64 ulps, float32 ulps) for the declared precision."""
    if precision not in PRECISIONS:
        raise InvalidInputError("precision", f"{precision!r} is not one of {PRECISIONS}")
    if precision == "float32":
        return DEFAULT_ULPS, DEFAULT_F32_ULPS if ulps is None else ulps
    return (DEFAULT_ULPS if ulps is None else ulps), DEFAULT_F32_ULPS


def check(
    fn: Callable[..., Any],
    metric: str = "average_precision",
    conventions: list[str] | tuple[str, ...] = (),
    *,
    ulps: int | None = None,
    precision: str = "float64",
    names: dict[str, str] | None = None,
    skip: list[str] | tuple[str, ...] = (),
    max_n: int | None = None,
    differential: bool = True,
    seed: int = diff.DEFAULT_SEED,
    per_decade: int = diff.PER_DECADE,
    budget: float | None = None,
) -> CheckReport:
    """Run ``fn`` on every vector of ``metric``, classify each result, diagnose the divergences
    by the fewest named mechanisms, then run the differential test (module docstring).

    Parameters
    ----------
    fn : callable
        The implementation: receives the vector's inputs by keyword (``names`` renames them).
    metric : str
        The vector file to run.
    conventions : sequence of str
        The conventions ``fn`` claims (:mod:`prtheory.conformance.metrics`).
    ulps, precision, names, skip, max_n, differential, seed, per_decade, budget
        The tolerance, ``fn``'s precision and parameter names, what may be skipped, and the
        differential test's options, as the module docstring describes them.

    Returns
    -------
    CheckReport
        ``ok``, the verdicts, the failures (each with its mechanism) and ``summary()``.

    Examples
    --------
    An average precision that breaks ties by input order (a stable sort) where the vectors
    group tied scores: on ``y_true = [1, 0, 1, 0]`` with scores ``[0.9, 0.9, 0.5, 0.2]`` it
    gives (1/1 + 2/3) / 2 = 5/6, the grouped tie 7/12.

    >>> import numpy as np
    >>> from prtheory.conformance import check
    >>> def ap(y_true, y_score):
    ...     order = np.argsort(-np.asarray(y_score, dtype=float), kind="stable")
    ...     y = np.asarray(y_true)[order]
    ...     ranks = np.flatnonzero(y) + 1
    ...     return float(np.mean(np.arange(1, len(ranks) + 1) / ranks))
    >>> report = check(ap, "average_precision", differential=False, skip=["sample_weight"])
    >>> report.ok
    False
    >>> report.diagnosis.chosen  # no validation either: a NaN score, a label 2 give numbers
    ['ties=input-order', 'no-input-validation']
    """
    conventions = tuple(conventions)
    vs = vectors(metric)
    _validate_conventions(metric, conventions)
    ulps64, ulps32 = _tolerances(precision, ulps)
    r = _Receiver(fn, dict(names or {}))
    opted = tuple(skip) + (("max_n",) if max_n is not None else ())
    report = CheckReport(metric, conventions, precision, opted)
    report.cases = [_run_case(r, v, max_n=max_n, ulps=ulps64, f32_ulps=ulps32) for v in vs]
    report.diagnosis = _diagnose(report, ulps64, ulps32)
    if differential and metric in diff.METRICS:
        report.differential = diff.run(
            metric,
            _differential_call(r, metric),
            conventions=conventions,
            weighted=_receives_weights(r, metric) and "sample_weight" not in skip,
            seed=seed,
            per_decade=per_decade,
            budget=budget,
            max_n=max_n,
            ulps=ulps64,
            f32_ulps=ulps32,
            float32=precision == "float32",
            mechanisms=mechanisms(metric),
        )
    return report


def _differential_call(r: _Receiver, metric: str) -> Callable[[Inputs], Any]:
    """``fn`` on a generated input: its value, or :class:`Raised` (never raises)."""

    def call(x: Inputs) -> Any:
        plan = r.plan(x, metric)
        if isinstance(plan, _Skip):
            return Raised(f"cannot be called: {plan.reason}", False)
        outcome = r.call(plan)
        if outcome.error is not None:
            err = outcome.error
            return Raised(f"raised {type(err).__name__}: {err}"[:200], isinstance(err, ValueError))
        return outcome.value

    return call


def _receives_weights(r: _Receiver, metric: str) -> bool:
    """Whether ``fn`` has a parameter (or ``**kwargs``) for ``sample_weight``."""
    one = np.ones(2)
    return isinstance(r.plan(Inputs(one, one, one), metric), _Call)


def _diagnose(report: CheckReport, ulps: int, f32_ulps: int) -> Diagnosis:
    failing = {f.vector.ident for f in report.failures}
    divergent, agreeing = [], []
    for c in report.cases:
        if c.value is not None:
            got: Any = c.value
        elif c.error is not None:
            got = Raised(c.verdict.detail, isinstance(c.error, ValueError))
        else:
            continue
        if c.vector.ident in failing or c.skipped == "sample_weight":
            divergent.append((c.vector, got))
        elif c.skipped is None:
            agreeing.append((c.vector, got))
    return diagnose(
        report.metric,
        divergent,
        agreeing,
        ulps=ulps,
        f32_ulps=f32_ulps,
        float32=report.precision == "float32",
        prefer=report.conventions,
    )


def parametrize(metric: str) -> Any:
    """``@parametrize("average_precision")``: a pytest mark giving a test one ``vector`` per case.

    Use with :func:`assert_conforms`::

        @parametrize("average_precision")
        def test_my_ap(vector):
            assert_conforms(my_ap, vector)

    Parameters
    ----------
    metric : str
        The vector file.

    Returns
    -------
    pytest.MarkDecorator
        ``pytest.mark.parametrize("vector", ...)``, each id ``tcId-comment``.

    Examples
    --------
    >>> from prtheory.conformance import parametrize
    >>> parametrize("average_precision").args[0]
    'vector'
    """
    import pytest

    vs = vectors(metric)
    return pytest.mark.parametrize("vector", vs, ids=[f"{v.tc_id}-{v.comment[:50]}" for v in vs])


def assert_conforms(
    fn: Callable[..., Any],
    vector: Vector,
    conventions: list[str] | tuple[str, ...] = (),
    *,
    ulps: int | None = None,
    precision: str = "float64",
    names: dict[str, str] | None = None,
) -> Verdict:
    """Raise ``AssertionError`` (with the input, expected and returned values, the ulp distance
    and the mechanism that explains the result) unless ``fn``'s result on ``vector`` is the
    value under ``conventions``; skip the test (``pytest.skip``, with the reason) when ``fn``
    cannot receive the vector; return the verdict otherwise. pytest shows the failure at the
    caller's line: this function's own frame is hidden from the traceback.

    Parameters
    ----------
    fn : callable
        The implementation.
    vector : Vector
        One vector (:func:`vectors`, :func:`parametrize`).
    conventions, ulps, precision, names
        As for :func:`check`.

    Returns
    -------
    Verdict
        The vector's verdict, when it passes.

    Raises
    ------
    AssertionError
        When it fails, with the input, the expected and returned values and the mechanism.

    Examples
    --------
    >>> import prtheory
    >>> from prtheory.conformance import assert_conforms, vectors
    >>> assert_conforms(prtheory.average_precision, vectors("average_precision")[0]).category
    'agrees'
    >>> assert_conforms(lambda y_true, y_score: 0.5, vectors("average_precision")[0])
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    AssertionError: average_precision#1 (distinct scores, mixed labels): wrong...
    """
    __tracebackhide__ = True
    import pytest

    conventions = tuple(conventions)
    _validate_conventions(vector.metric, conventions)
    ulps64, ulps32 = _tolerances(precision, ulps)
    case = _run_case(
        _Receiver(fn, dict(names or {})), vector, max_n=None, ulps=ulps64, f32_ulps=ulps32
    )
    if case.skipped is not None:
        pytest.skip(f"{vector.ident} skipped: {case.verdict.detail}")
    report = CheckReport(vector.metric, conventions, precision, (), [case])
    report.diagnosis = _diagnose(report, ulps64, ulps32)
    if report.failures:
        raise AssertionError(str(report.failures[0]))
    return case.verdict
