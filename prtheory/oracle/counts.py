"""Exact cumulative counts per operating point: the foundation of every ranking metric.

A ranking is ``(y_true, y_score, sample_weight)``. Sorting by decreasing score once and grouping
tied scores gives one *operating point* per distinct score ``t``: the classifier that predicts
positive iff ``score >= t``. At each point we keep the exact cumulative true-positive and
false-positive weight. Weights are held as integers over one common denominator (see
:class:`prtheory._input.ExactWeights`), so counts are exact integers and every ratio of counts is
an exact rational; the denominator cancels in precision and recall.

``+inf`` and ``-inf`` scores are legal: they are ordinary (largest and smallest) distinct scores.
The sort and the grouping are numpy operations; counts are ``int64`` while they provably fit
(total weight numerator below 2**63) and Python integers (``object`` arrays) otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from prtheory._input import ExactArrayLike, ExactWeights, as_labels, as_scores, as_weights

__all__ = [
    "OperatingPoints",
    "Ranking",
    "RecallSteps",
    "distinct_sums",
    "operating_points",
    "ranking",
    "recall_steps",
    "run_starts",
    "steps_of",
]

_INT64_SAFE = 2**62


def run_starts(values: np.ndarray) -> np.ndarray:
    """Where each run of equal values of the non-empty sorted ``values`` begins."""
    return np.flatnonzero(np.concatenate(([True], values[1:] != values[:-1])))


def distinct_sums(
    scores: np.ndarray, pos: np.ndarray, neg: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(scores, pos, neg)`` with one entry per distinct score of the sorted ``scores``: each
    score once, ``pos`` and ``neg`` summed over its run (exactly: int64 or Python integers, as
    given)."""
    if scores.size == 0:
        return scores, pos, neg
    starts = run_starts(scores)
    return scores[starts], np.add.reduceat(pos, starts), np.add.reduceat(neg, starts)


@dataclass(frozen=True)
class Ranking:
    """A validated ranking sorted by decreasing score (ties kept in input order).

    ``order`` is the permutation applied to the input; ``labels``, ``scores`` and ``weights``
    (integer numerators, or ``None`` for unit weights) are in sorted order; ``denominator`` is
    the common weight denominator (1 for unit weights).
    """

    order: np.ndarray
    labels: np.ndarray
    scores: np.ndarray
    weights: np.ndarray | None
    denominator: int

    @property
    def group_ends(self) -> np.ndarray:
        """Index one past the last item of each block of tied scores, in sorted order."""
        n = self.scores.size
        return np.append(np.flatnonzero(self.scores[1:] != self.scores[:-1]) + 1, n)

    def points(self) -> OperatingPoints:
        """Exact cumulative TP and FP weight at each block of tied scores."""
        ends = self.group_ends
        if self.weights is None:
            tp_all = np.cumsum(self.labels, dtype=np.int64)
            tp = tp_all[ends - 1]
            fp = ends.astype(np.int64) - tp
        else:
            tp_all = np.cumsum(np.where(self.labels, self.weights, 0))
            fp_all = np.cumsum(np.where(self.labels, 0, self.weights))
            tp, fp = tp_all[ends - 1], fp_all[ends - 1]
        return OperatingPoints(
            thresholds=self.scores[ends - 1],
            tp=tp,
            fp=fp,
            pos=int(tp[-1]),
            neg=int(fp[-1]),
            denominator=self.denominator,
        )


def ranking(
    y_true: ArrayLike, y_score: ExactArrayLike, sample_weight: ExactArrayLike | None = None
) -> Ranking:
    """Validate the inputs (one path for every metric) and sort by decreasing score.

    The sort is stable, so tied items keep their input order; tie policies that need another
    order (optimistic, pessimistic, trec_eval's document-id rule) re-order within tie blocks.
    """
    labels = as_labels(y_true)
    scores = as_scores(y_score, labels.size)
    return _sorted(labels, scores, as_weights(sample_weight, labels.size))


def _sorted(labels: np.ndarray, scores: np.ndarray, w: ExactWeights | None) -> Ranking:
    """Sort validated input by decreasing score, stably."""
    order = np.argsort(-scores, kind="stable")
    weights = None
    denominator = 1
    if w is not None:
        nums = w.numerators
        if nums.dtype != object and int(nums.max()) * nums.size >= _INT64_SAFE:
            nums = nums.astype(object)
        weights = nums[order]
        denominator = w.denominator
    return Ranking(order, labels[order], scores[order], weights, denominator)


@dataclass(frozen=True)
class OperatingPoints:
    """Exact cumulative counts at each distinct score, in decreasing score order.

    At index ``i`` the classifier predicts positive iff ``score >= thresholds[i]``; it has
    ``tp[i] / denominator`` true-positive weight and ``fp[i] / denominator`` false-positive weight.
    ``pos`` and ``neg`` are the total positive and negative weight numerators (so recall is
    ``tp[i] / pos`` and precision ``tp[i] / (tp[i] + fp[i])``, both exact rationals).
    """

    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    pos: int
    neg: int
    denominator: int

    def __len__(self) -> int:
        return self.thresholds.size

    def recall_steps(self) -> RecallSteps:
        """The points at which TP increases, as :class:`RecallSteps` (same counts, same values).

        A block adds to average precision only through its positive weight ``gain_i > 0``, so
        the steps are the points where the cumulative TP rises; ``predicted`` is TP + FP there.
        """
        tp, fp = self.tp, self.fp
        at = np.flatnonzero(np.diff(tp, prepend=0) > 0)
        tp_at = tp[at]
        return RecallSteps(
            tp_at,
            tp_at + fp[at],
            np.diff(tp_at, prepend=0),
            self.pos,
            self.neg,
            self.denominator,
        )


def operating_points(
    y_true: ArrayLike, y_score: ExactArrayLike, sample_weight: ExactArrayLike | None = None
) -> OperatingPoints:
    """Sort once, group tied scores, and return exact cumulative TP and FP per threshold."""
    return ranking(y_true, y_score, sample_weight).points()


@dataclass(frozen=True)
class RecallSteps:
    """The operating points at which recall increases: all that average precision needs.

    For each block of tied scores that holds positive weight (in decreasing score order), ``tp``
    is the cumulative true-positive weight and ``predicted`` the cumulative weight of all items
    (``TP + FP``) through the end of the block, and ``gain`` the positive weight inside the
    block. All are integer numerators over ``denominator`` (1 for unit weights); ``pos`` and
    ``neg`` are the total positive and negative weight numerators. ``before`` (only when asked
    for, else ``None``) is the cumulative weight of all items through the *preceding* operating
    point (the block of the next higher score; 0 for the top block): the vertex a trapezoid or
    an ROC segment starts from.
    """

    tp: np.ndarray
    predicted: np.ndarray
    gain: np.ndarray
    pos: int
    neg: int
    denominator: int
    before: np.ndarray | None = None

    @property
    def preceding(self) -> np.ndarray:
        """``before``, which the caller must have asked for (``recall_steps(..., before=True)``)."""
        if self.before is None:
            raise ValueError("the preceding cumulative weights were not computed (before=False)")
        return self.before

    def ap_terms(self) -> tuple[np.ndarray, np.ndarray]:
        """``(numerators, denominators)`` with ``pos * AP = sum numerators / denominators``.

        Step AP (claim N2 with tied scores grouped, as scikit-learn) is
        ``sum_i (R_i - R_{i-1}) P_i = (1/pos) sum_i gain_i tp_i / predicted_i``. The products
        ``gain_i tp_i`` are int64 when they provably fit, Python integers otherwise.
        """
        gain, tp = self.gain, self.tp
        int64 = gain.dtype != object and tp.dtype != object and gain.size > 0
        if int64 and int(gain.max()) * int(tp.max()) >= 2**63:
            gain, tp = gain.astype(object), tp.astype(object)
        return gain * tp, self.predicted


def recall_steps(
    y_true: ArrayLike,
    y_score: ExactArrayLike,
    sample_weight: ExactArrayLike | None = None,
    *,
    before: bool = False,
) -> RecallSteps:
    """Validate (the one path of :func:`ranking`) and return the steps of recall.

    Unit weights take a sort-only path: the cumulative counts at a positive score ``s`` are
    ``#{items with score >= s}`` and ``#{positives with score >= s}`` (and, with ``before``,
    ``#{items with score > s}``), found by binary search in the sorted scores, so no
    permutation array or reordered copies are built. Weighted input is sorted once and summed
    exactly only at the steps (:func:`_cumsum_at`).
    """
    labels = as_labels(y_true)
    scores = as_scores(y_score, labels.size)
    return steps_of(labels, scores, as_weights(sample_weight, labels.size), before=before)


def steps_of(
    labels: np.ndarray, scores: np.ndarray, w: ExactWeights | None, *, before: bool = False
) -> RecallSteps:
    """:func:`recall_steps` of validated input (:func:`~prtheory._input.as_labels`,
    :func:`~prtheory._input.as_scores`, :func:`~prtheory._input.as_weights`)."""
    if w is None:
        pos_scores = np.sort(scores[labels])
        n, pos = labels.size, pos_scores.size
        if pos == 0:
            empty = np.zeros(0, dtype=np.int64)
            return RecallSteps(empty, empty, empty, 0, n, 1, empty if before else None)
        first = run_starts(pos_scores)
        distinct = pos_scores[first]
        tp = pos - first
        gain = np.diff(np.append(first, pos))
        ranked = np.sort(scores)
        predicted = (n - np.searchsorted(ranked, distinct, side="left")).astype(np.int64)
        above = None
        if before:
            above = (n - np.searchsorted(ranked, distinct, side="right")).astype(np.int64)
        return RecallSteps(tp, predicted, gain, pos, n - pos, 1, above)
    return _weighted_steps(labels, scores, w, before)


def _weighted_steps(
    labels: np.ndarray, scores: np.ndarray, w: ExactWeights, before: bool
) -> RecallSteps:
    """Recall steps with exact weights: one sort (any order within ties), exact sums at steps."""
    order = np.argsort(-scores)  # the counts at block ends do not depend on the order in ties
    s, lab, wt = scores[order], labels[order], w.numerators[order]
    ends = np.append(np.flatnonzero(s[1:] != s[:-1]), s.size - 1)  # last index of each block
    hits = np.cumsum(lab & (wt > 0))[ends]  # positives of non-zero weight through each block
    blocks = np.flatnonzero(np.diff(hits, prepend=0) > 0)
    at = ends[blocks]
    pos_w = np.where(lab, wt, 0)
    tp = _cumsum_at(pos_w, at)
    total = int(_cumsum_at(wt, ends[-1:])[0])
    pos = int(tp[-1]) if tp.size else 0
    gain = np.diff(tp, prepend=0) if tp.size else tp
    above = None
    if before:  # the weight through the previous block's end; the top block has none before it
        previous = _cumsum_at(wt, ends[np.maximum(blocks - 1, 0)])
        above = np.where(blocks > 0, previous, 0) if previous.size else previous
        if previous.dtype == object:
            above = above.astype(object)
    return RecallSteps(tp, _cumsum_at(wt, at), gain, pos, total - pos, w.denominator, above)


def _cumsum_at(values: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Exact cumulative sums of non-negative integers ``values`` at the indices ``at``.

    int64 values (below ``2**62``) are summed as two 31-bit limbs, each exact in int64 for fewer
    than ``2**32`` items, so no Python-integer array is built; the result is int64 when it fits
    and Python integers otherwise. ``object`` arrays are summed as Python integers.
    """
    out: np.ndarray  # numpy types the arithmetic of untyped arrays as Any
    if values.dtype == object:
        out = np.cumsum(values)[at]
        return out
    lo = np.cumsum(values & (2**31 - 1))[at]
    hi = np.cumsum(values >> 31)[at]
    if hi.size == 0 or int(hi.max()) < 2**31:
        out = (hi << 31) + lo
    else:
        out = hi.astype(object) * 2**31 + lo.astype(object)
    return out
