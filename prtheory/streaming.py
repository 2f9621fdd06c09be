"""Exact streaming accumulation of ranking metrics: any split, any merge order, the same bits.

Every ranking metric with tied scores grouped (the oracle's ``ties="group"``, scikit-learn's
convention) depends on the data only through the exact positive and negative weight at each
distinct score: the operating points of :mod:`prtheory.oracle.counts` are their cumulative
sums in decreasing score order. :class:`PRAccumulator` keeps exactly that state, a sorted map
``score -> (positive weight, negative weight)``, so that

* :meth:`~PRAccumulator.update` adds a batch ``(y_true, y_score, sample_weight)``,
* :meth:`~PRAccumulator.merge` adds another accumulator's state (another worker, another shard),
* :meth:`~PRAccumulator.compute` (AP), :meth:`~PRAccumulator.pr_curve`,
  :meth:`~PRAccumulator.pr_auc` and :meth:`~PRAccumulator.roc_auc` evaluate the oracle's code on
  the accumulated operating points,

and the result equals the batch call on all the data (``prtheory.oracle.average_precision``,
``pr_curve``, ``pr_auc``, ``roc_auc``, and the correctly rounded
:func:`prtheory.average_precision` for ``exact=False``) whatever the split and the merge order:
the state is a sum of exact integers, which is associative and commutative. Memory is
proportional to the number of distinct scores, not of items.

Exact weights. Weights are held as integer numerators over one common denominator ``D``, as the
batch path does (:class:`prtheory._input.ExactWeights`). Each batch's weights come from
:func:`prtheory._input.as_weights` in lowest terms, over ``d_b``; the accumulated state is over
``D = lcm(d_b)``. That is the batch path's denominator on the concatenated weights: the batch
unit ``1/D`` is the rational gcd of 1 and every weight, and the gcd over all items is the gcd of
the per-batch gcds ``1/d_b``, which is ``1/lcm(d_b)``. So even the curve's ``tp`` and ``fp``
numerators are the batch call's. Unweighted batches are weight 1 per item; an accumulator that
saw any ``sample_weight`` is weighted, as the batch call on the concatenation would be (which
matters only to ``method="davis-goadrich-discrete"``, defined for unit weights).

Scores ``-0.0`` and ``0.0`` are one tie block (as in the batch path, where ``-0.0 == 0.0``); the
accumulator reports its threshold as ``0.0``.

Bounded memory: binning
-----------------------
``PRAccumulator(bins=t)`` with increasing thresholds ``t_1 < ... < t_k`` (or ``bins=k``, the
thresholds ``j/k``, ``j = 0..k-1``, for probabilities) maps each score ``s`` to the largest
``t_j <= s`` (``-inf`` below ``t_1``) before accumulating, so the state has at most ``k + 1``
blocks. The metrics are then exact for the binned scores, i.e. for the classifiers
``score >= t_j``; the curve and the areas are those of the binned ranking.
:meth:`~PRAccumulator.error_bound` bounds how far the AP of the unbinned data can be from it,
from the binned counts alone (:class:`BinningBound`). Derivation, for one bin with positive
weight ``p > 0`` and negative weight ``n``, and ``T``, ``N`` the positive and total weight of all
higher bins (the cumulative counts at the bin's end, and so every later term of AP, do not
depend on what happens inside the bin):

* binned, the bin is one tied block and contributes ``B = p (T + p)/(N + n + p)`` to
  ``pos * AP`` (N2, ties grouped);
* unbinned, the bin holds sub-blocks ``j`` of distinct scores, each adding
  ``g_j TP_j / N_j`` with positive weight ``g_j`` and cumulative counts ``TP_j = T + x_j``,
  ``N_j = N + x_j + y_j`` where ``x_j = g_1 + ... + g_j`` and ``0 <= y_j <= n`` is the negative
  weight of the bin seen so far;
* upper: ``TP_j/N_j <= f(x_j)`` with ``f(x) = (T + x)/(N + x)``, which increases in ``x``
  (``T <= N``), so the contribution is at most ``sum_j g_j f(p) = U = p (T + p)/(N + p)``:
  attained when the bin's positive weight is at one score above all its negatives;
* lower: ``TP_j/N_j >= h(x_j)`` with ``h(x) = (T + x)/(N + n + x)``, increasing and concave, so
  ``sum_j g_j h(x_j)`` is a right Riemann sum of ``h`` over ``[0, p]``, at least the integral
  ``int_0^p h``, which by concavity is at least the chord area
  ``L = p (h(0) + h(p))/2`` (``h(0) = 1`` when ``N + n = 0``). The infimum, ``int_0^p h``,
  is approached when the negatives lead and the positives follow at many distinct scores; the
  chord keeps the bound rational.

Summing over bins, ``AP`` of the unbinned data lies in ``[sum L/pos, sum U/pos]`` around the
binned ``sum B/pos``, and ``|AP - AP_binned| <= max(sum (U - B), sum (B - L))/pos``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from prtheory._input import as_labels, as_scores, as_weights
from prtheory.errors import InvalidInputError
from prtheory.metrics.step import rounded_step_average_precision
from prtheory.oracle.ap import no_positives, step_average_precision
from prtheory.oracle.areas import pr_auc_of_points, roc_auc_of_points
from prtheory.oracle.counts import OperatingPoints, distinct_sums
from prtheory.oracle.curves import PRCurve, pr_curve_of_points
from prtheory.oracle.summation import rational_sum

__all__ = ["BinningBound", "PRAccumulator"]

_INT64_SAFE = 2**62
_CONSOLIDATE_AT = 1 << 16  # pending blocks merged into the state once they outnumber it


@dataclass(frozen=True)
class BinningBound:
    """How far the AP of the unbinned data can be from the binned AP (module docstring).

    ``average_precision`` is the exact AP of the binned data; the AP of the data before binning
    lies in ``[low, high]``; ``bound = max(high - AP, AP - low)`` bounds the absolute error.
    All are exact rationals. ``high`` is attained by some data with these binned counts.

    Parameters
    ----------
    average_precision : Fraction
        The exact AP of the binned data.
    low, high : Fraction
        Bounds on the AP of the data before binning.

    See Also
    --------
    PRAccumulator.error_bound : computes it.

    Examples
    --------
    One positive and one negative in one bin (``bins=[0.5]``, scores 0.6 and 0.7): binned they tie,
    B = 1 (0 + 1)/(0 + 1 + 1) = 1/2; unbinned the positive may lead, U = 1 (0 + 1)/(0 + 1) = 1;
    the chord gives L = (h(0) + h(1))/2 = (0 + 1/2)/2 = 1/4 (module docstring, T = N = 0):

    >>> from prtheory.streaming import PRAccumulator
    >>> b = PRAccumulator(bins=[0.5]).update([1, 0], [0.6, 0.7]).error_bound()
    >>> b.average_precision, b.low, b.high, b.bound
    (Fraction(1, 2), Fraction(1, 4), Fraction(1, 1), Fraction(1, 2))
    """

    average_precision: Fraction
    low: Fraction
    high: Fraction

    @property
    def bound(self) -> Fraction:
        return max(self.high - self.average_precision, self.average_precision - self.low)


def _bin_thresholds(bins: Any) -> np.ndarray | None:
    """Validated increasing thresholds of ``bins`` (an int k: ``j/k`` for ``j < k``), or None."""
    if bins is None:
        return None
    if isinstance(bins, (int, np.integer)) and not isinstance(bins, (bool, np.bool_)):
        if bins < 1:
            raise InvalidInputError("bins", f"must be a positive number of bins, got {bins}")
        return np.arange(int(bins), dtype=np.float64) / int(bins)
    t = as_scores(bins, name="bins")
    if np.any(t[1:] <= t[:-1]):
        i = int(np.flatnonzero(t[1:] <= t[:-1])[0]) + 1
        raise InvalidInputError(
            "bins", f"thresholds must be strictly increasing, got {t[i]!r} at index {i}"
        )
    return t + 0.0  # -0.0 becomes 0.0


def _as_ints(x: np.ndarray, total: int) -> np.ndarray:
    """Non-negative integers bounded by ``total``: int64 below 2**62, Python ints otherwise."""
    if total >= _INT64_SAFE:
        return x if x.dtype == object else x.astype(object)
    return x.astype(np.int64) if x.dtype == object else x


def _times(x: np.ndarray, factor: int, total: int) -> np.ndarray:
    """``x * factor`` for non-negative integers whose products are bounded by ``total``.

    int64 only when both ``total`` and ``factor`` are below 2**62: a common denominator can
    grow by any factor (weights 1e-4 and 1 have one of 2**66), and numpy refuses to multiply
    an int64 array by a Python integer beyond int64 even when every element is 0."""
    if factor >= _INT64_SAFE:
        return _as_ints(x, _INT64_SAFE) * factor
    return _as_ints(x, total) * factor


def _blocks(
    scores: np.ndarray, pos: np.ndarray, neg: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Exact per-distinct-score sums, scores decreasing (``pos``/``neg`` in one safe dtype)."""
    order = np.argsort(-scores, kind="stable")
    return distinct_sums(scores[order], pos[order], neg[order])


def _total(nums: np.ndarray) -> int:
    """Exact sum of non-negative integer numerators (int64 or Python ints)."""
    if nums.dtype != object and nums.size and int(nums.max()) * nums.size < _INT64_SAFE:
        return int(nums.sum())
    return sum(int(v) for v in nums.tolist())


class PRAccumulator:
    """Exact per-distinct-score counts, updated in batches and merged across workers.

    ``update(y_true, y_score, sample_weight=None)`` validates like the batch functions (0/1 or
    boolean labels, real scores with ``±inf`` allowed and NaN rejected, finite non-negative
    weights); ``merge(other)`` adds another accumulator with the same ``bins``; ``reset()``
    empties it. The metrics (:meth:`compute` = :meth:`average_precision`, :meth:`pr_curve`,
    :meth:`pr_auc`, :meth:`roc_auc`, :meth:`operating_points`) equal the batch calls on all the
    data seen, bit for bit (module docstring). ``bins`` bounds memory (module docstring,
    :meth:`error_bound`).

    Parameters
    ----------
    bins : int, array-like of float or None
        None (default) keeps every distinct score; increasing thresholds, or ``k`` for the
        thresholds ``j/k``, bin the scores first (module docstring).

    Raises
    ------
    InvalidInputError
        ``bins`` not a positive count or not strictly increasing thresholds; malformed batches;
        merging accumulators with other bins.

    See Also
    --------
    prtheory.oracle.average_precision : the batch value it equals.
    BinningBound : the error bound of binning.

    Examples
    --------
    The data of ``prtheory.oracle.average_precision([1, 0, 1], [0.9, 0.8, 0.7])``
    (5/6: positives at ranks 1 and 3) in two batches:

    >>> from prtheory.streaming import PRAccumulator
    >>> acc = PRAccumulator()
    >>> acc = acc.update([1, 0], [0.9, 0.8]).update([1], [0.7])
    >>> acc.compute()
    Fraction(5, 6)
    >>> acc.compute(exact=False)
    0.8333333333333334
    """

    def __init__(self, *, bins: Any = None) -> None:
        self._thresholds = _bin_thresholds(bins)
        self.reset()

    # ---------------------------------------------------------------------------- state

    def reset(self) -> PRAccumulator:
        """Forget every item (the thresholds of ``bins`` are kept)."""
        self._den = 1
        self._total = 0
        self._scores = np.zeros(0, dtype=np.float64)
        self._pos = np.zeros(0, dtype=np.int64)
        self._neg = np.zeros(0, dtype=np.int64)
        self._pending: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self._pending_size = 0
        self._weighted = False
        self._positive_label = False
        self._items = 0
        return self

    @property
    def bins(self) -> np.ndarray | None:
        """The bin thresholds (``None`` when unbinned)."""
        return None if self._thresholds is None else self._thresholds.copy()

    @property
    def n_items(self) -> int:
        """How many items were accumulated (zero-weight items included)."""
        return self._items

    @property
    def n_blocks(self) -> int:
        """How many distinct (binned) scores the state holds: its memory, in blocks."""
        self._consolidate()
        return self._scores.size

    def _rescale(self, den: int) -> None:
        """Re-express the state over the common denominator ``den`` (a multiple of ``_den``)."""
        factor = den // self._den
        if factor == 1:
            return
        self._total *= factor
        self._pos = _times(self._pos, factor, self._total)
        self._neg = _times(self._neg, factor, self._total)
        self._pending = [
            (s, _times(p, factor, self._total), _times(n, factor, self._total))
            for s, p, n in self._pending
        ]
        self._den = den

    def _add(self, scores: np.ndarray, pos: np.ndarray, neg: np.ndarray, total: int) -> None:
        """Queue blocks already over ``_den``; merge them in once they outnumber the state."""
        self._total += total
        self._pending.append((scores, pos, neg))
        self._pending_size += scores.size
        if self._pending_size > max(self._scores.size, _CONSOLIDATE_AT):
            self._consolidate()

    def _consolidate(self) -> None:
        if not self._pending:
            return
        parts = [(self._scores, self._pos, self._neg), *self._pending]
        scores = np.concatenate([s for s, _, _ in parts])
        pos = np.concatenate([_as_ints(p, self._total) for _, p, _ in parts])
        neg = np.concatenate([_as_ints(n, self._total) for _, _, n in parts])
        self._scores, self._pos, self._neg = _blocks(scores, pos, neg)
        self._pending, self._pending_size = [], 0

    # ---------------------------------------------------------------------------- updates

    def update(self, y_true, y_score, sample_weight=None) -> PRAccumulator:
        """Add a batch of items (validated as in the batch functions); returns ``self``.

        An empty batch (``y_true`` and ``y_score`` of length 0) adds nothing.
        """
        if _is_empty(y_true) and _is_empty(y_score):
            if sample_weight is not None and not _is_empty(sample_weight):
                raise InvalidInputError("sample_weight", "must be empty for an empty batch")
            return self
        labels = as_labels(y_true)
        scores = as_scores(y_score, labels.size) + 0.0  # -0.0 becomes 0.0
        w = as_weights(sample_weight, labels.size)
        if self._thresholds is not None:
            at = np.searchsorted(self._thresholds, scores, side="right") - 1
            scores = np.where(at >= 0, self._thresholds[np.maximum(at, 0)], -np.inf)
        if w is None:
            nums, total = labels.astype(np.int64), labels.size
            den = 1
        else:
            self._weighted = True
            nums, den = w.numerators, w.denominator
            total = _total(nums)
        common = math.lcm(self._den, den)
        self._rescale(common)
        factor = common // den
        total *= factor
        bound = self._total + total
        if w is None:
            pos, neg = _times(nums, factor, bound), _times(1 - nums, factor, bound)
        else:
            nums = _times(nums, factor, bound)
            zero = np.zeros_like(nums)
            pos, neg = np.where(labels, nums, zero), np.where(labels, zero, nums)
        self._positive_label |= bool(labels.any())
        self._items += labels.size
        self._add(*_blocks(scores, pos, neg), total)
        return self

    def merge(self, other: PRAccumulator) -> PRAccumulator:
        """Add the state of ``other`` (same ``bins``), which is left unchanged; returns ``self``."""
        if not isinstance(other, PRAccumulator):
            raise InvalidInputError("other", f"must be a PRAccumulator, got {type(other).__name__}")
        mine, theirs = self._thresholds, other._thresholds
        if (mine is None or theirs is None) and mine is not theirs:
            raise InvalidInputError("other", "must use the same bins as this accumulator")
        if mine is not None and theirs is not None and not np.array_equal(mine, theirs):
            raise InvalidInputError("other", "must use the same bins as this accumulator")
        if other is self:
            other = self.copy()
        other._consolidate()
        common = math.lcm(self._den, other._den)
        self._rescale(common)
        factor = common // other._den
        total = other._total * factor
        new_total = self._total + total
        pos = _times(other._pos, factor, new_total)
        neg = _times(other._neg, factor, new_total)
        self._weighted |= other._weighted
        self._positive_label |= other._positive_label
        self._items += other._items
        self._add(other._scores, pos, neg, total)
        return self

    def copy(self) -> PRAccumulator:
        """An independent accumulator with the same state."""
        self._consolidate()
        new = PRAccumulator.__new__(PRAccumulator)
        new.__dict__.update(self.__dict__)
        new._pending = []
        new._scores, new._pos, new._neg = self._scores.copy(), self._pos.copy(), self._neg.copy()
        return new

    # ---------------------------------------------------------------------------- metrics

    def operating_points(self) -> OperatingPoints:
        """Exact cumulative TP and FP at each distinct (binned) score, decreasing.

        The same thresholds, counts and denominator as
        :func:`prtheory.oracle.counts.operating_points` on all the data.
        """
        if self._items == 0:
            raise InvalidInputError("y_true", "no items accumulated (call update() first)")
        self._consolidate()
        pos = _as_ints(self._pos, self._total)
        neg = _as_ints(self._neg, self._total)
        tp, fp = np.cumsum(pos), np.cumsum(neg)
        return OperatingPoints(
            thresholds=self._scores.copy(),
            tp=tp,
            fp=fp,
            pos=int(tp[-1]),
            neg=int(fp[-1]),
            denominator=self._den,
        )

    def average_precision(self, *, exact: bool = True, convention: str | None = None):
        """Step AP, ties grouped (N2): ``(1/pos) sum_i gain_i TP_i / (TP_i + FP_i)``.

        Exact (a Fraction) or, with ``exact=False``, its correctly rounded float64 (as
        :func:`prtheory.average_precision`). With no positive weight: UndefinedMetricError,
        or 0 with ``convention="sklearn"``.
        """
        steps = self.operating_points().recall_steps()
        if steps.pos == 0:
            value = no_positives(
                "average precision", convention, [1] if self._positive_label else None
            )
            return value if exact else float(value)
        if exact:
            return step_average_precision(steps)
        return rounded_step_average_precision(steps)

    def compute(self, *, exact: bool = True, convention: str | None = None):
        """Average precision of everything accumulated (see :meth:`average_precision`)."""
        return self.average_precision(exact=exact, convention=convention)

    def pr_curve(self, *, first_point: str = "none", convention: str | None = None) -> PRCurve:
        """The exact PR curve, as :func:`prtheory.oracle.pr_curve` on all the data."""
        return pr_curve_of_points(
            self.operating_points(), first_point=first_point, convention=convention
        )

    def pr_auc(
        self,
        *,
        method: str,
        first_point: str | None = None,
        a: Any = 0,
        b: Any = 1,
        dps: int = 50,
    ) -> Fraction | mpmath.mpf:
        """Area under the PR curve by ``method``, as :func:`prtheory.oracle.pr_auc`."""
        return pr_auc_of_points(
            self.operating_points(),
            method=method,
            first_point=first_point,
            a=a,
            b=b,
            dps=dps,
            unit_weights=not self._weighted,
        )

    def roc_auc(self) -> Fraction:
        """Exact area under the ROC curve, as :func:`prtheory.oracle.roc_auc`."""
        return roc_auc_of_points(self.operating_points())

    def error_bound(self) -> BinningBound:
        """Exact bounds on the AP of the data before binning (module docstring).

        Unbinned, the AP is exact: ``low = high = AP``. With no positive weight AP is
        undefined and this raises :class:`~prtheory.errors.UndefinedMetricError`.
        """
        ap = self.average_precision()
        if self._thresholds is None:
            return BinningBound(ap, ap, ap)
        points = self.operating_points()
        tp = np.concatenate(([0], points.tp)).astype(object)
        seen = np.concatenate(([0], points.tp + points.fp)).astype(object)
        gain = tp[1:] - tp[:-1]
        at = np.flatnonzero(gain > 0)
        p, t0, n0 = gain[at], tp[:-1][at], seen[:-1][at]
        n_bin = (seen[1:] - seen[:-1])[at] - p
        upper = rational_sum(p * (t0 + p), n0 + p)
        before = n0 + n_bin  # h(0) = T/(N + n), or 1 when N + n = 0
        empty = before == 0
        lower = rational_sum(
            np.concatenate((np.where(empty, p, p * t0), p * (t0 + p))),
            np.concatenate((np.where(empty, 2, 2 * before), 2 * (before + p))),
        )
        return BinningBound(ap, lower / points.pos, upper / points.pos)


def _is_empty(x: Any) -> bool:
    """Whether ``x`` is a sized container of length 0 (a batch with no items)."""
    try:
        return len(x) == 0
    except TypeError:
        return False
