"""Deliberately wrong implementations, and correct but unusual ones, for the conformance kit's
own tests (``tests/test_conformance_differential.py`` through ``check()``,
``tests/test_conformance_gate.py`` through ``prtheory conformance --adapter``).

Every one is built on a plain float64 implementation written from the definition, independent
of prtheory's float and exact code: :func:`ap` (N2: ``sum over distinct scores of (R_k -
R_(k-1)) P_k``), :func:`trapezoid` (straight lines between consecutive operating points),
:func:`roc` (``P(positive above negative) + P(tie)/2``), :func:`partial_roc` (McClish's partial
ROC area) and :func:`curve` (recall and precision at every distinct score); each wrong one differs from its base only where its defect says. The
four size-dependent AP defects are those of issue 41 (each passed every stored vector);
:func:`defective`, :func:`binned`, :func:`ties_input_order` and :func:`rounded_weights` make a
defect of a given rate, sizes, condition or kind out of any of the bases.
"""

from __future__ import annotations

import functools
import inspect
import math
import zlib
from types import SimpleNamespace
from typing import Any

import numpy as np

from prtheory.conformance.adapters import Implementation

__all__ = [
    "ADAPTERS",
    "BASES",
    "CONDITIONS",
    "CORRECT",
    "MASKED",
    "RARE",
    "UNWEIGHTED",
    "WRONG",
    "ap",
    "ap_at_k",
    "ap_positional_only",
    "ap_pure_python",
    "ap_ties_input_order",
    "binned",
    "binned_above_10_4",
    "curve",
    "defective",
    "exact_at_kit_sizes",
    "finite_only",
    "input_order_above_10_4",
    "partial_roc",
    "precision_at_k",
    "quantile_bins_above_1000",
    "r_precision",
    "roc",
    "rounded_weights",
    "ties_input_order",
    "trapezoid",
]


def _validate(y_true: Any, y_score: Any, sample_weight: Any) -> tuple:
    """Labels as booleans, scores and weights as float64 (weights scaled by a power of two);
    ValueError for malformed input."""
    y = np.asarray(y_true)
    s = np.asarray(y_score, dtype=np.float64)
    w = np.ones(len(s)) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    if not (len(y) == len(s) == len(w) > 0) or np.isnan(s).any():
        raise ValueError("lengths differ, no item, or a NaN score")
    if not np.isin(y, (0, 1)).all() or not (np.isfinite(w).all() and (w >= 0).all()):
        raise ValueError("a label other than 0/1, or a negative or non-finite weight")
    # scaled by a power of two (exact) where the sum overflows (1e308) or every weight is tiny
    # (subnormal weights lose their ratios in float sums); 2^-1074 beside 2^1000 stays as it is
    if w.any() and (not np.isfinite(w.sum()) or w.max() < 2.0**-500):
        w = np.ldexp(w, -np.frexp(w.max())[1])
    return y == 1, s, w


def _blocks(y_true: Any, y_score: Any, sample_weight: Any) -> tuple[np.ndarray, np.ndarray]:
    """(positive weight, negative weight) of each distinct score, scores decreasing (tied
    scores one block; inf == inf), each block summed on its own (a small block beside a huge
    running sum keeps its value); ValueError without positive weight."""
    y, s, w = _validate(y_true, y_score, sample_weight)
    order = np.argsort(-s, kind="stable")
    s, y, w = s[order], y[order], w[order]
    starts = np.r_[0, np.flatnonzero(s[1:] != s[:-1]) + 1]
    dtp, dfp = np.add.reduceat(w * y, starts), np.add.reduceat(w * ~y, starts)
    if not dtp.any():
        raise ValueError("no positive weight")
    return dtp, dfp


def _precision(tp: np.ndarray, fp: np.ndarray) -> np.ndarray:
    seen = tp + fp
    return np.divide(tp, seen, out=np.zeros_like(tp), where=seen > 0)


def ap(y_true, y_score, sample_weight=None):
    """Step AP, ties grouped: sum over distinct scores of (R_k - R_(k-1)) P_k, in float64."""
    dtp, dfp = _blocks(y_true, y_score, sample_weight)
    tp, fp = np.cumsum(dtp), np.cumsum(dfp)
    return float(np.sum(dtp / tp[-1] * _precision(tp, fp)))


def trapezoid(y_true, y_score, sample_weight=None):
    """Trapezoid PR area through the operating points, none added at recall 0: sum over
    consecutive points of (R_k - R_(k-1)) (P_k + P_(k-1)) / 2 (the blocks with no weight
    skipped: they are no point)."""
    dtp, dfp = _blocks(y_true, y_score, sample_weight)
    keep = (dtp + dfp) > 0
    tp, fp = np.cumsum(dtp)[keep], np.cumsum(dfp)[keep]
    p = _precision(tp, fp)
    return float(np.sum(dtp[keep][1:] / tp[-1] * (p[1:] + p[:-1]) / 2))


def roc(y_true, y_score, sample_weight=None):
    """ROC area: sum over blocks of (dFP / N) (TP above + dTP / 2) / P, a tie counting 1/2;
    ValueError without negative weight."""
    dtp, dfp = _blocks(y_true, y_score, sample_weight)
    pos, neg = np.sum(dtp), np.sum(dfp)
    if neg == 0:
        raise ValueError("no negative weight")
    above = np.r_[0.0, np.cumsum(dtp)[:-1]]
    return float(np.sum(dfp / neg * ((above + dtp / 2) / pos)))


def partial_roc(y_true, y_score, sample_weight=None, max_fpr=1.0):
    """McClish's standardised partial ROC area up to FPR m: over each segment of the ROC polyline
    through the blocks' (FPR, TPR) from (0, 0), the part left of m (the crossing segment cut
    there linearly) adds width (y_start + y_cut) / 2; then (1 + (A - m^2/2)/(m - m^2/2))/2,
    evaluated as (m (1 - m) + A) / (m (2 - m)), a sum of two terms >= 0 that does not cancel
    where the value is near 0 (m = 1, A tiny: exactly A); ValueError without negative weight or
    for m outside (0, 1]."""
    m = float(max_fpr)
    if not 0 < m <= 1:
        raise ValueError("max_fpr must lie in (0, 1]")
    dtp, dfp = _blocks(y_true, y_score, sample_weight)
    pos, neg = np.sum(dtp), np.sum(dfp)
    if neg == 0:
        raise ValueError("no negative weight")
    # each block's own width dfp/N and rise dtp/P (not differences of running sums, which lose
    # a block far smaller than the sum before it), and the rates at its start
    width, rise = dfp / neg, dtp / pos
    start_fpr = np.r_[0.0, np.cumsum(dfp)[:-1]] / neg
    start_tpr = np.r_[0.0, np.cumsum(dtp)[:-1]] / pos
    covered = width if m == 1 else np.clip(m - start_fpr, 0.0, width)
    share = np.divide(covered, width, out=np.zeros_like(width), where=width > 0)
    area = float(np.sum(covered * (start_tpr + rise * share / 2)))
    return (m * (1 - m) + area) / (m * (2 - m))


def curve(y_true, y_score, sample_weight=None):
    """Recall and precision at each distinct score with weight, scores decreasing (a score
    whose items all have weight 0 is no threshold, as in scikit-learn's curves)."""
    dtp, dfp = _blocks(y_true, y_score, sample_weight)
    keep = dtp + dfp > 0
    tp, fp = np.cumsum(dtp)[keep], np.cumsum(dfp)[keep]
    return {"recall": tp / tp[-1], "precision": _precision(tp, fp)}


def binned_above_10_4(y_true, y_score, sample_weight=None):
    """Scores binned into 1000 equal bins of [0, 1] above 10^4 items (Spark's default)."""
    s = np.asarray(y_score, dtype=np.float64)
    if len(s) > 10**4:
        s = np.floor(np.clip(s, 0, 1) * 1000)
    return ap(y_true, s, sample_weight)


def quantile_bins_above_1000(y_true, y_score, sample_weight=None):
    """Scores replaced by their bin among 100 quantile bins above 1000 items."""
    s = np.asarray(y_score, dtype=np.float64)
    if len(s) > 1000:
        edges = np.quantile(s[np.isfinite(s)], np.linspace(0, 1, 101))
        s = np.searchsorted(edges, s).astype(np.float64)
    return ap(y_true, s, sample_weight)


def input_order_above_10_4(y_true, y_score, sample_weight=None):
    """Tied scores ranked by input order above 10^4 items (a stable sort, then item by item)."""
    s = np.asarray(y_score, dtype=np.float64)
    if len(s) > 10**4:
        order = np.argsort(-s, kind="stable")
        s = np.empty(len(s))
        s[order] = -np.arange(len(s), dtype=np.float64)
    return ap(y_true, s, sample_weight)


def exact_at_kit_sizes(y_true, y_score, sample_weight=None):
    """Right at the stored vectors' sizes (1 to 8 and 10^6 + 1), 1e-9 too high elsewhere."""
    value = ap(y_true, y_score, sample_weight)
    return value if len(y_true) <= 8 or len(y_true) == 10**6 + 1 else value * (1 + 1e-9)


def ap_positional_only(y_true, y_score, sample_weight=None, /):
    """:func:`ap` with positional-only parameters."""
    return ap(y_true, y_score, sample_weight)


def ap_pure_python(y_true, y_score, sample_weight=None):
    """Lists and a loop: sort by score, one operating point per distinct score; NaN (a
    documented choice) without positive weight."""
    weights = [float(w) for w in _validate(y_true, y_score, sample_weight)[2]]
    items = sorted(
        zip([float(s) for s in y_score], [int(t) for t in y_true], weights, strict=True),
        key=lambda item: -item[0],
    )
    pos = math.fsum(w for _, t, w in items if t == 1)
    if pos == 0:
        return math.nan
    total = tp = fp = previous_tp = 0.0
    for i, (score, label, w) in enumerate(items):
        tp, fp = (tp + w, fp) if label == 1 else (tp, fp + w)
        if (i + 1 == len(items) or items[i + 1][0] != score) and tp + fp > 0:
            total += (tp - previous_tp) / pos * tp / (tp + fp)
            previous_tp = tp
    return total


WRONG = (binned_above_10_4, quantile_bins_above_1000, input_order_above_10_4, exact_at_kit_sizes)
CORRECT = (ap, ap_positional_only, ap_pure_python)


#: the base implementation of each metric of the differential test
def _ranked(y_true: Any, y_score: Any) -> tuple[np.ndarray, np.ndarray]:
    """Labels and scores, scores decreasing (ties kept together); ValueError for malformed
    input."""
    y, s, _ = _validate(y_true, y_score, None)
    order = np.argsort(-s, kind="stable")
    return y[order], s[order]


def _expected_tp(y: np.ndarray, s: np.ndarray, k: int) -> tuple[int, int]:
    """The expected number of positives among the top ``k`` when the block of tied scores at
    rank ``k`` is in random order, as a fraction ``(numerator, denominator)`` of integers:
    those above the block plus ``(k - above)`` of the block, each positive with probability
    (positives of the block)/(its size); ``k`` past the last item counts the missing ranks as
    negatives."""
    if k >= len(s):
        return int(np.count_nonzero(y)), 1
    at = s[k - 1]
    above = int(np.count_nonzero(s > at))
    tied = s == at
    t = int(np.count_nonzero(tied))
    return int(np.count_nonzero(y[:above])) * t + (k - above) * int(np.count_nonzero(y & tied)), t


def _cutoff(k: Any) -> int:
    if int(k) != k or k < 1:
        raise ValueError("k must be a positive integer")
    return int(k)


def precision_at_k(y_true, y_score, k):
    """P@k = TP(top k)/k (N4), a tie at the cutoff counted as expected."""
    k = _cutoff(k)
    y, s = _ranked(y_true, y_score)
    num, den = _expected_tp(y, s, k)
    return num / (den * k)  # one division of integers: correctly rounded


def r_precision(y_true, y_score):
    """P@R with R the number of positives (ValueError without one)."""
    y, s = _ranked(y_true, y_score)
    pos = int(np.count_nonzero(y))
    if pos == 0:
        raise ValueError("no positive")
    num, den = _expected_tp(y, s, pos)
    return num / (den * pos)


def ap_at_k(y_true, y_score, k):
    """AP@k = sum_{i<=k} P(i) rel(i) / min(k, pos) (N5), expected over the orders of each tied
    block: at rank ``i``, the ``j``-th place of a block of ``t`` items with ``p`` positives
    after ``T`` positives above it, ``E[rel(i) TP(i)] = (p/t) (T + 1 + (j - 1)(p - 1)/(t - 1))``
    (given that place holds a positive, each other place does with probability
    ``(p - 1)/(t - 1)``)."""
    k = _cutoff(k)
    y, s = _ranked(y_true, y_score)
    pos = int(np.count_nonzero(y))
    if pos == 0:
        raise ValueError("no positive")
    starts = np.r_[0, np.flatnonzero(s[1:] != s[:-1]) + 1]
    ends = np.r_[starts[1:], len(s)]
    terms, above = [], 0
    for a, b in zip(starts.tolist(), ends.tolist(), strict=True):
        if a >= k:
            break
        t, p = b - a, int(np.count_nonzero(y[a:b]))
        if p:
            j = np.arange(1, min(b, k) - a + 1, dtype=np.float64)
            share = (p - 1) / (t - 1) if t > 1 else 0.0
            terms.append(p / t * (above + 1 + (j - 1) * share) / (a + j))
        above += p
    return math.fsum(np.concatenate(terms)) / min(k, pos) if terms else 0.0


BASES = {
    "average_precision": ap,
    "auc_trapezoid": trapezoid,
    "roc_auc": roc,
    "partial_roc_auc": partial_roc,
    "pr_curve": curve,
    "precision_at_k": precision_at_k,
    "ap_at_k": ap_at_k,
    "r_precision": r_precision,
}
#: the metrics of :data:`BASES` with no sample weights
UNWEIGHTED = ("precision_at_k", "ap_at_k", "r_precision")


def _nudged(value: Any) -> Any:
    """``value`` 1e-6 relatively too high (every precision of a curve)."""
    if isinstance(value, dict):
        return {**value, "precision": value["precision"] * (1 + 1e-6)}
    return value * (1 + 1e-6)


#: the conditions :func:`defective` can confine a defect to: any input, inputs with tied scores
#: (``-0.0`` ties ``+0.0``), inputs with a weight that is not an integer
CONDITIONS = {
    "any": lambda s, w: True,
    "ties": lambda s, w: len(np.unique(s)) < len(s),
    "fraction-weights": lambda s, w: w is not None and bool((np.asarray(w) % 1 != 0).any()),
}


def _changed(fn: Any, change: Any) -> Any:
    """``fn`` (whatever its parameters besides ``y_true``, ``y_score`` and ``sample_weight``:
    ``k``, say) called on its inputs as ``change(y_true, y_score, sample_weight)`` returns
    them; it keeps ``fn``'s signature, so ``check()`` passes it the same arguments."""

    @functools.wraps(fn)
    def wrong(*args: Any, **kwargs: Any) -> Any:
        bound = inspect.signature(fn).bind(*args, **kwargs)
        bound.apply_defaults()
        a = bound.arguments
        a["y_true"], a["y_score"], w = change(a["y_true"], a["y_score"], a.get("sample_weight"))
        if "sample_weight" in a:
            a["sample_weight"] = w
        return fn(*bound.args, **bound.kwargs)

    return wrong


def defective(fn: Any, every: int, lo: int, hi: int, when: str = "any") -> Any:
    """``fn`` made wrong (1e-6 relatively, :func:`_nudged`) on the inputs of ``lo`` to ``hi``
    items that meet the condition ``when`` (:data:`CONDITIONS`) and whose CRC32 of the scores
    is 0 mod ``every``: 1/``every`` of those inputs of each of those sizes, pseudo-randomly."""
    condition = CONDITIONS[when]

    @functools.wraps(fn)
    def wrong(*args: Any, **kwargs: Any) -> Any:
        value = fn(*args, **kwargs)
        a = inspect.signature(fn).bind(*args, **kwargs).arguments
        s = np.asarray(a["y_score"], dtype=np.float64)
        crc = zlib.crc32(s.tobytes())
        hit = lo <= len(s) <= hi and condition(s, a.get("sample_weight")) and crc % every == 0
        return _nudged(value) if hit else value

    tail = "" if when == "any" else f"_with_{when.replace('-', '_')}"
    wrong.__name__ = f"{fn.__name__}_wrong_on_1_in_{every}_of_{lo}_to_{hi}{tail}"
    return wrong


def ties_input_order(fn: Any) -> Any:
    """``fn`` with tied scores ranked by input order (a stable sort, then item by item): wrong
    only on inputs with ties."""

    def change(y_true: Any, y_score: Any, sample_weight: Any) -> tuple:
        s = _validate(y_true, y_score, sample_weight)[1]
        order = np.argsort(-s, kind="stable")
        ranks = np.empty(len(s))
        ranks[order] = -np.arange(len(s), dtype=np.float64)
        return y_true, ranks, sample_weight

    wrong = _changed(fn, change)
    wrong.__name__ = f"{fn.__name__}_ties_input_order"
    return wrong


def rounded_weights(fn: Any) -> Any:
    """``fn`` with the weights rounded to the nearest integer: wrong only on inputs with a
    weight that is not an integer."""

    def change(y_true: Any, y_score: Any, sample_weight: Any) -> tuple:
        w = None if sample_weight is None else np.rint(np.asarray(sample_weight, dtype=float))
        return y_true, y_score, w

    wrong = _changed(fn, change)
    wrong.__name__ = f"{fn.__name__}_rounded_weights"
    return wrong


def binned(fn: Any, above: int = 10**4) -> Any:
    """``fn`` on scores binned into 1000 equal bins of [0, 1] above ``above`` items."""

    def change(y_true: Any, y_score: Any, sample_weight: Any) -> tuple:
        s = np.asarray(y_score, dtype=np.float64)
        if len(s) > above:
            s = np.floor(np.clip(s, 0, 1) * 1000)
        return y_true, s, sample_weight

    wrong = _changed(fn, change)
    wrong.__name__ = f"{fn.__name__}_binned_above_{above}"
    return wrong


def finite_only(fn: Any) -> Any:
    """``fn`` raising ValueError for a ±inf score, as scikit-learn's input check does: a
    rejection met among the first generated inputs (their extreme scores), before any defect
    of ``fn`` that only larger inputs show."""

    @functools.wraps(fn)
    def wrong(*args: Any, **kwargs: Any) -> Any:
        a = inspect.signature(fn).bind(*args, **kwargs).arguments
        if np.isinf(np.asarray(a["y_score"], dtype=np.float64)).any():
            raise ValueError("Input contains infinity")
        return fn(*args, **kwargs)

    wrong.__name__ = f"{fn.__name__}_finite_only"
    return wrong


def _adapter_of(fn: Any) -> Any:
    """A zero-argument adapter (``prtheory conformance --adapter``) running ``fn`` as AP."""

    def adapter() -> list[Implementation]:
        run = lambda x: fn(x.y_true, x.y_score, x.sample_weight)  # noqa: E731
        return [Implementation("adversary", fn.__name__, "average_precision", run)]

    return adapter


#: AP with tied scores ranked by input order: correct for an implementation that declares
#: ``ties=input-order``
ap_ties_input_order = ties_input_order(ap)
#: AP wrong on 1 % of the inputs above 2000 items, on 2 % of those of 10^5 to 10^6 items, on
#: 1 in 50 of those with ties and on 1 in 37 of those with a weight that is not an integer (1 %
#: of all inputs: 4 and 3 of the 8 families): what only the bulk of the differential plan meets
RARE = (
    defective(ap, 100, 2001, 10**6),
    defective(ap, 50, 10**5, 10**6),
    defective(ap, 50, 10, 10**6, "ties"),
    defective(ap, 37, 10, 10**6, "fraction-weights"),
)
#: AP binned above 10^4 items that rejects ±inf scores: wrong, behind a rejection
MASKED = (finite_only(binned_above_10_4),)
#: ``--adapter prtheory._testing.adversaries:ADAPTERS.<function name>``
ADAPTERS = SimpleNamespace(
    **{f.__name__: _adapter_of(f) for f in (*WRONG, *CORRECT, *RARE, *MASKED)}
)
