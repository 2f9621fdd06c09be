"""Differential testing at every size: an implementation against the oracle on generated inputs.

The fixed vectors hold at most a few distinct scores at large sizes, so a defect that appears
only above some size (scores binned into 1000 bins above 10^4 items, quantile bins above 1000
items, ties broken by input order only on long inputs, a special case for the vectors' own
sizes) passes them. Here the implementation is compared with the correctly rounded exact value
on inputs drawn by :mod:`prtheory.conformance.sampling` at the sizes :data:`SIZES` (10 to 10^6),
many distinct scores, long tie blocks with mixed labels, signed zeros, ±inf next to ±MAX, and
weights of every kind.

A *round* (:func:`round_specs`) draws every family at each size up to 1000, two families at
3162 and 10^4, and one above (rotating with the round, so that round 0 has distinct scores at
31623 items, tie blocks at 10^5 and extreme scores at 316228); its inputs are a function of the
seed and the round alone. Round 0 always runs; further rounds run while the CPU-time budget
lasts (:func:`run`), so a defect that affects a fraction ``p`` of the inputs of a size up to 1000
is missed by ``r`` rounds with probability ``(1 - p)^(r * families)``. The run stops at the first
``wrong`` input: the verdict cannot get worse, and the larger inputs would only cost time.

A result *diverges* when it is farther from the exact value than rounding explains: more than
``ulps + 2n`` ulps of the precision the implementation declares (float64 unless it declares
float32; ``ulps`` the caller's tolerance): an implementation may accumulate n counts or weights
one by one, as a ``cumsum`` does, erring by up to about n ulps of the sum. A different
definition moves the value by far more: binning 10^5 distinct scores into 1000 bins moves AP by
about 10^-4, some 10^12 float64 ulps. Each divergent input is shrunk
(:func:`shrink`): blocks of items are removed while the result still diverges, down to the
smallest failing input found within :data:`SHRINK_CALLS` calls.

The expected value under declared conventions comes from the same exact reference on the input
as the convention transforms it (:data:`TRANSFORMS`); a declared convention with no transform
here leaves the differential test not run, and says why.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from prtheory.conformance.classify import ulp_distance
from prtheory.conformance.metrics import (
    Inputs,
    scores_float32,
    sigmoid_on_logits,
    split_infinite_ties,
)
from prtheory.conformance.predictions import Raised
from prtheory.conformance.sampling import FAMILIES, Family, Sample, sample
from prtheory.errors import InvalidInputError, UndefinedMetricError

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_SEED",
    "KINDS",
    "METRICS",
    "SIZES",
    "Divergence",
    "Outcome",
    "Spec",
    "describe",
    "diverges",
    "kind_of",
    "reference",
    "round_specs",
    "run",
    "shrink",
    "unsupported_conventions",
]

#: the sizes drawn, about 10^(1 + c/2) for c = 0..10
SIZES = (10, 32, 100, 316, 1000, 3162, 10_000, 31_623, 100_000, 316_228, 1_000_000)
DEFAULT_SEED = 20260
#: CPU seconds per metric after round 0 (which always runs)
DEFAULT_BUDGET = 3.0
#: calls to the implementation a shrink may make
SHRINK_CALLS = 80
#: the kinds of divergence, most severe first; the first input of each kind is shrunk and shown
KINDS = ("wrong", "crashed", "rejected-valid", "float32")
#: metrics with an exact reference fast enough for 10^6 items
METRICS = ("average_precision",)


@dataclass(frozen=True)
class Spec:
    """One generated input: its seed, family and size (``sample(seed, family, n)``)."""

    seed: int
    family: Family
    n: int

    def text(self) -> str:
        return f"sample({self.seed}, {self.family.name}, {self.n})"


@dataclass(frozen=True)
class Divergence:
    """A divergent input (as drawn, and shrunk), with the expected and returned values."""

    spec: Spec
    expected: float
    got: Any
    distance: float
    shrunk: Inputs
    shrunk_expected: float
    shrunk_got: Any
    shrunk_distance: float
    kind: str = "wrong"


@dataclass
class Outcome:
    """What a differential run did: the seed, the samples per size, the CPU seconds, and every
    divergence (or why it could not run)."""

    metric: str
    seed: int
    rounds: int = 0
    samples: dict[int, int] = field(default_factory=dict)
    cpu_seconds: float = 0.0
    divergences: list[Divergence] = field(default_factory=list)
    #: divergent inputs by kind (:data:`KINDS`)
    kinds: dict[str, int] = field(default_factory=dict)
    not_run: str | None = None
    float32: bool = False

    @property
    def diverging(self) -> int:
        return sum(self.kinds.values())

    @property
    def worst(self) -> str | None:
        """The most severe kind of divergence found (:data:`KINDS` order), or None."""
        return next((k for k in KINDS if self.kinds.get(k)), None)

    @property
    def ok(self) -> bool:
        return self.not_run is None and not self.diverging

    def summary(self) -> str:
        """One line: seed, samples per size, CPU time, verdict; then each divergence."""
        if self.not_run is not None:
            return f"differential ({self.metric}): NOT RUN: {self.not_run}"
        sizes = ", ".join(f"{n}: {k}" for n, k in sorted(self.samples.items()))
        head = (
            f"differential ({self.metric}, seed {self.seed}): {sum(self.samples.values())} "
            f"inputs in {self.rounds} rounds ({sizes}), {self.cpu_seconds:.1f} s CPU: "
            f"{'OK' if self.ok else f'FAIL: {self.diverging} diverge ({self._kinds()})'}"
        )
        return "\n".join([head, *(describe(d, self.float32) for d in self.divergences)])

    def _kinds(self) -> str:
        return ", ".join(f"{k} {self.kinds[k]}" for k in KINDS if self.kinds.get(k))


def kind_of(got: Any, want: float, n: int, f32_ulps: int) -> str:
    """What a divergent result is: an exception (``rejected-valid`` for a ``ValueError``,
    ``crashed`` otherwise); ``float32`` for a float32 value (as float32 arithmetic returns)
    within ``f32_ulps + 2n`` float32 ulps of the exact value; else ``wrong``. A float64 value is
    never excused as float32 rounding: on 31623 distinct scores, 1000 bins move AP by about
    1e-5, which float32 rounding of 31623 terms could also explain."""
    if isinstance(got, Raised):
        return "rejected-valid" if got.deliberate else "crashed"
    value = float(got)
    is_float32 = math.isnan(value) or float(np.float32(value)) == value
    if is_float32 and distance(value, want, True) <= tolerance(n, 0, f32_ulps, True):
        return "float32"
    return "wrong"


def describe(d: Divergence, float32: bool = False) -> str:
    """A divergence as text: the input drawn, the values, and the shrunk input."""
    unit = "float32 ulps" if float32 else "ulps"
    x = d.shrunk
    inline = len(x.labels) <= 12
    shown = (
        f"y_true={x.labels.tolist()}, y_score={x.scores.tolist()}"
        + ("" if x.sample_weight is None else f", sample_weight={x.sample_weight.tolist()}")
        if inline
        else f"{len(x.labels)} items"
    )
    return (
        f"    {d.kind}: {d.spec.text()}: expected {d.expected!r}, returned {_text(d.got)} "
        f"({d.distance:.6g} {unit})\n"
        f"      shrunk to {len(x.labels)} items: {shown}: expected {d.shrunk_expected!r}, "
        f"returned {_text(d.shrunk_got)} ({d.shrunk_distance:.6g} {unit})"
    )


def _text(value: Any) -> str:
    return value.detail if isinstance(value, Raised) else repr(value)


# ------------------------------------------------------------------------------------------
# the plan


def round_specs(seed: int, r: int, families: tuple[Family, ...], max_n: int | None) -> list[Spec]:
    """The inputs of round ``r`` (module docstring), at most ``max_n`` items each; the seed of
    the ``i``-th input of a round is ``seed + 1000 r + i``."""
    out: list[Spec] = []
    for c, n in enumerate(SIZES):
        if max_n is not None and n > max_n:
            break
        for f in _families_at(c, n, r, families):
            out.append(Spec(seed + 1000 * r + len(out), f, n))
    return out


def _families_at(c: int, n: int, r: int, families: tuple[Family, ...]) -> list[Family]:
    """Every family up to 1000 items, two at 3162 and 10^4, one above, rotating with ``r``."""
    count = len(families) if n <= 1000 else (2 if n <= 10_000 else 1)
    first = r if n <= 10_000 else c - 7 + r
    return [families[(first + j) % len(families)] for j in range(min(count, len(families)))]


# ------------------------------------------------------------------------------------------
# the reference under declared conventions


def _rank_scores(order: np.ndarray) -> np.ndarray:
    """Distinct scores giving ``order`` (item indices, best first): -(position)."""
    s = np.empty(order.size, dtype=np.float64)
    s[order] = -np.arange(order.size, dtype=np.float64)
    return s


def _break_ties(key: Callable[[Inputs], np.ndarray]) -> Callable[[Inputs], Inputs]:
    """Ties broken item by item: by score (descending), then by ``key`` (ascending)."""

    def transform(x: Inputs) -> Inputs:
        s = np.asarray(x.scores, dtype=np.float64)
        order = np.lexsort((key(x), -s))
        return replace(x, y_score=_rank_scores(order))

    return transform


#: declared conventions the reference can follow, as transformations of the input
TRANSFORMS: dict[str, Callable[[Inputs], Inputs]] = {
    "ties=input-order": _break_ties(lambda x: np.arange(len(x.scores))),
    "ties=trec_eval": _break_ties(lambda x: -np.arange(len(x.scores))),
    "ties=optimistic": _break_ties(lambda x: -np.asarray(x.labels)),
    "ties=pessimistic": _break_ties(lambda x: np.asarray(x.labels)),
    "scores=float32": scores_float32,
    "sigmoid-on-logits": sigmoid_on_logits,
    "inf-ties=input-order": split_infinite_ties,
}
#: conventions that change no value of a valid input with a positive (the generated ones)
IRRELEVANT_PREFIXES = ("undefined=", "first-point=")
#: applied in this order: score transforms before the tie rule that ranks the scores
_ORDER = ("sigmoid-on-logits", "scores=float32", "inf-ties=input-order")


def unsupported_conventions(conventions: tuple[str, ...]) -> list[str]:
    """The declared conventions the reference cannot follow."""
    return [c for c in conventions if c not in TRANSFORMS and not c.startswith(IRRELEVANT_PREFIXES)]


def reference(metric: str, x: Inputs, conventions: tuple[str, ...] = ()) -> float:
    """The correctly rounded value of ``metric`` at ``x`` under ``conventions`` (raises
    :class:`~prtheory.errors.UndefinedMetricError` where it is 0/0)."""
    from prtheory import average_precision

    if metric not in METRICS:
        raise InvalidInputError("metric", f"no differential reference for {metric!r}")
    ordered = sorted(
        (c for c in conventions if c in TRANSFORMS),
        key=lambda c: _ORDER.index(c) if c in _ORDER else len(_ORDER),
    )
    for c in ordered:
        x = TRANSFORMS[c](x)
    return average_precision(x.labels, x.scores, sample_weight=x.sample_weight)


# ------------------------------------------------------------------------------------------
# comparing and shrinking


def tolerance(n: int, ulps: int, f32_ulps: int, float32: bool) -> int:
    """Ulps of rounding error allowed at ``n`` items, in the declared precision (module
    docstring)."""
    return (f32_ulps if float32 else ulps) + 2 * n


def distance(got: Any, want: float, float32: bool) -> float:
    """ulps between a returned value and the expected one (``inf`` for a non-number or
    :class:`~prtheory.conformance.predictions.Raised`)."""
    if isinstance(got, Raised):
        return math.inf
    try:
        value = float(got)
    except (TypeError, ValueError):
        return math.inf
    return ulp_distance(value, want, np.float32 if float32 else np.float64)


def diverges(distance_: float, n: int, ulps: int, f32_ulps: int, float32: bool) -> bool:
    """Farther from the exact value than rounding at ``n`` items explains."""
    return distance_ > tolerance(n, ulps, f32_ulps, float32)


def _subset(x: Inputs, keep: np.ndarray) -> Inputs:
    w = None if x.sample_weight is None else x.sample_weight[keep]
    return replace(x, y_true=x.labels[keep], y_score=x.scores[keep], sample_weight=w)


def shrink(x: Inputs, failing: Callable[[Inputs], bool], calls: int = SHRINK_CALLS) -> Inputs:
    """A smaller input that is still ``failing``: blocks of items (halves, then quarters, ...)
    are removed while the result still fails, within ``calls`` calls of ``failing``; at least
    two items are kept."""
    chunk = len(x.labels) // 2
    while chunk >= 1 and calls > 0:
        start = 0
        while start < len(x.labels) and calls > 0:
            keep = np.full(len(x.labels), True)
            keep[start : start + chunk] = False
            candidate = _subset(x, keep)
            calls -= 1
            if len(candidate.labels) >= 2 and failing(candidate):
                x = candidate
            else:
                start += chunk
        chunk = min(chunk // 2, len(x.labels) // 2)
    return x


# ------------------------------------------------------------------------------------------
# the run


@dataclass(frozen=True)
class _Judge:
    """Calls the implementation on an input and compares with the reference."""

    metric: str
    call: Callable[[Inputs], Any]
    conventions: tuple[str, ...]
    ulps: int
    f32_ulps: int
    float32: bool

    def compare(self, x: Inputs) -> tuple[float, Any, float] | None:
        """(expected, returned, distance), or ``None`` where the reference is undefined."""
        try:
            want = reference(self.metric, x, self.conventions)
        except (UndefinedMetricError, InvalidInputError):
            return None
        got = self.call(x)
        return want, got, distance(got, want, self.float32)

    def failing(self, x: Inputs, kind: str | None = None) -> bool:
        """Whether ``x`` diverges (with a result of ``kind``, when given)."""
        found = self.compare(x)
        if found is None or not self._diverges(found[2], len(x.labels)):
            return False
        return kind is None or kind_of(found[1], found[0], len(x.labels), self.f32_ulps) == kind

    def _diverges(self, d: float, n: int) -> bool:
        return diverges(d, n, self.ulps, self.f32_ulps, self.float32)

    def check(self, spec: Spec, shown: set[str]) -> tuple[str, Divergence | None] | None:
        """``None`` where ``spec``'s input agrees; else its kind (:func:`kind_of`) and, for the
        first input of a kind not in ``shown``, the shrunk :class:`Divergence`."""
        x = _inputs(sample(spec.seed, spec.family, spec.n))
        found = self.compare(x)
        if found is None or not self._diverges(found[2], spec.n):
            return None
        kind = kind_of(found[1], found[0], spec.n, self.f32_ulps)
        if kind in shown:
            return kind, None
        small = shrink(x, lambda y: self.failing(y, kind))  # a wrong input stays wrong
        again = self.compare(small)
        assert again is not None  # shrink keeps only failing inputs
        return kind, Divergence(spec, *found, small, *again, kind)


def _inputs(s: Sample) -> Inputs:
    return Inputs(s.y_true, s.y_score, s.sample_weight)


def _run_round(judge: _Judge, specs: list[Spec], out: Outcome) -> None:
    """Check ``specs`` in order into ``out``, stopping at the first ``wrong`` input (the most
    severe kind: the verdict cannot change, and the larger inputs would only cost time)."""
    for spec in specs:
        out.samples[spec.n] = out.samples.get(spec.n, 0) + 1
        found = judge.check(spec, {d.kind for d in out.divergences})
        if found is not None:
            out.kinds[found[0]] = out.kinds.get(found[0], 0) + 1
            if found[1] is not None:
                out.divergences.append(found[1])
            if found[0] == "wrong":
                return


def run(
    metric: str,
    call: Callable[[Inputs], Any],
    *,
    conventions: tuple[str, ...] = (),
    weighted: bool = True,
    seed: int = DEFAULT_SEED,
    budget: float = DEFAULT_BUDGET,
    max_n: int | None = None,
    rounds: int | None = None,
    ulps: int = 8,
    f32_ulps: int = 16,
    float32: bool = False,
) -> Outcome:
    """Compare ``call`` (an :class:`~prtheory.conformance.metrics.Inputs` -> value function that
    never raises: it returns :class:`~prtheory.conformance.predictions.Raised` instead) with
    the reference: round 0, then further
    rounds while ``budget`` CPU seconds last, or exactly ``rounds`` rounds when given (a plan
    that does not depend on the machine's speed); it stops at the first ``wrong`` input. ``weighted=False`` leaves out the weighted
    families (an implementation without sample weights)."""
    out = Outcome(metric, seed, float32=float32)
    blocked = unsupported_conventions(conventions)
    if metric not in METRICS or blocked:
        out.not_run = (
            f"no exact reference fast enough for {metric!r} at 10^6 items"
            if metric not in METRICS
            else f"no reference under the declared {blocked}"
        )
        return out
    families = tuple(f for f in FAMILIES if weighted or f.weights == "none")
    judge = _Judge(metric, call, conventions, ulps, f32_ulps, float32)
    start = time.process_time()
    while (rounds is None or out.rounds < rounds) and not out.kinds.get("wrong"):
        if rounds is None and out.rounds and time.process_time() - start > budget:
            break
        _run_round(judge, round_specs(seed, out.rounds, families, max_n), out)
        out.rounds += 1
        if out.diverging:
            break
    out.cpu_seconds = time.process_time() - start
    return out
