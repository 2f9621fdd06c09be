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
    """Where each run of equal values of the non-empty sorted ``values`` begins.

    Parameters
    ----------
    values : ndarray
        Sorted, non-empty.

    Returns
    -------
    ndarray of int
        The index where each run of equal values begins.

    See Also
    --------
    distinct_sums

    Examples
    --------
    >>> import numpy as np
    >>> from prtheory.oracle.counts import run_starts
    >>> run_starts(np.array([3.0, 2.0, 2.0, 1.0])).tolist()
    [0, 1, 3]
    """
    return np.flatnonzero(np.concatenate(([True], values[1:] != values[:-1])))


def distinct_sums(
    scores: np.ndarray, pos: np.ndarray, neg: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(scores, pos, neg)`` with one entry per distinct score of the sorted ``scores``: each
    score once, ``pos`` and ``neg`` summed over its run (exactly: int64 or Python integers, as
    given).

    Parameters
    ----------
    scores : ndarray of float
        Sorted scores (non-empty).
    pos, neg : ndarray of int
        Positive and negative weight per score.

    Returns
    -------
    tuple of ndarray
        ``(scores, pos, neg)`` with one entry per distinct score.

    See Also
    --------
    run_starts : where the runs begin.

    Examples
    --------
    The two items at score 2 merge: pos 1 + 0, neg 0 + 1:

    >>> import numpy as np
    >>> from prtheory.oracle.counts import distinct_sums
    >>> s, p, n = distinct_sums(np.array([3.0, 2, 2, 1]), np.array([1, 1, 0, 0]), np.array([0, 0, 1, 1]))
    >>> s.tolist(), p.tolist(), n.tolist()
    ([3.0, 2.0, 1.0], [1, 1, 0], [0, 1, 1])
    """
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

    Parameters
    ----------
    order : ndarray of int
        The permutation of the input that sorts it.
    labels : ndarray of bool
        The labels, sorted.
    scores : ndarray of float
        The scores, sorted (decreasing).
    weights : ndarray of int or None
        The weight numerators, sorted; None for unit weights.
    denominator : int
        The common weight denominator.

    See Also
    --------
    ranking : builds it.

    Examples
    --------
    See :func:`ranking`.

    >>> from prtheory.oracle.counts import ranking
    >>> ranking([1, 0], [0.1, 0.7]).labels.tolist()
    [False, True]
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

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels.
    y_score : array-like of shape (n,)
        Real scores, taken exactly.
    sample_weight : array-like of shape (n,) or None
        Finite non-negative weights, taken exactly.

    Returns
    -------
    Ranking
        The validated items sorted by decreasing score.

    Raises
    ------
    InvalidInputError
        Malformed labels, scores or weights, naming the argument.

    See Also
    --------
    recall_steps, operating_points

    Examples
    --------
    Weights 1, 2, 1/2 share the denominator 2 (numerators 2, 4, 1); sorted by score 0.9, 0.5,
    0.2 the items come in input order 1, 2, 0:

    >>> from prtheory.oracle.counts import ranking
    >>> r = ranking([1, 0, 1], [0.2, 0.9, 0.5], [1, 2, 0.5])
    >>> r.order.tolist(), r.labels.tolist(), r.weights.tolist(), r.denominator
    ([1, 2, 0], [False, True, True], [4, 1, 2], 2)
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

    Parameters
    ----------
    thresholds : ndarray of float
        The distinct scores, decreasing.
    tp, fp : ndarray of int
        Cumulative true and false positive weight numerators at each threshold.
    pos, neg : int
        Total positive and negative weight numerators.
    denominator : int
        The common weight denominator.

    See Also
    --------
    operating_points : builds it.
    RecallSteps : only the points where recall rises.

    Examples
    --------
    See :func:`operating_points`.

    >>> from prtheory.oracle.counts import operating_points
    >>> operating_points([1, 0], [0.5, 0.5]).tp.tolist()
    [1]
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
    """Sort once, group tied scores, and return exact cumulative TP and FP per threshold.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels.
    y_score : array-like of shape (n,)
        Real scores, taken exactly.
    sample_weight : array-like of shape (n,) or None
        Finite non-negative weights, taken exactly.

    Returns
    -------
    OperatingPoints
        The exact cumulative counts per distinct score.

    Raises
    ------
    InvalidInputError
        Malformed labels, scores or weights, naming the argument.

    See Also
    --------
    recall_steps : only the points where recall rises.
    ranking : the sorted items themselves.

    Examples
    --------
    ``y = [1, 0, 1, 0]``, scores 0.9, 0.8, 0.8, 0.1: at 0.9 one TP; the tied pair at 0.8 adds a TP
    and an FP (TP 2, FP 1); at 0.1 the last FP (TP 2, FP 2):

    >>> from prtheory.oracle.counts import operating_points
    >>> op = operating_points([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1])
    >>> op.thresholds.tolist(), op.tp.tolist(), op.fp.tolist(), op.pos, op.neg
    ([0.9, 0.8, 0.1], [1, 2, 2], [0, 1, 2], 2, 2)
    """
    return ranking(y_true, y_score, sample_weight).points()


@dataclass(frozen=True)
class RecallSteps:
    """The operating points at which recall increases: all that average precision needs.

    For each block of tied scores that holds positive weight (in decreasing score order on
    weighted input, increasing on unit weights: the sums AP needs do not depend on it), ``tp``
    is the cumulative true-positive weight and ``predicted`` the cumulative weight of all items
    (``TP + FP``) through the end of the block, and ``gain`` the positive weight inside the
    block. All are integer numerators over ``denominator`` (1 for unit weights); ``pos`` and
    ``neg`` are the total positive and negative weight numerators. ``before`` (only when asked
    for, else ``None``) is the cumulative weight of all items through the *preceding* operating
    point (the block of the next higher score; 0 for the top block): the vertex a trapezoid or
    an ROC segment starts from.

    Parameters
    ----------
    tp, predicted, gain : ndarray of int
        Per step: cumulative TP, cumulative TP + FP, and the positive weight gained.
    pos, neg : int
        Total positive and negative weight numerators.
    denominator : int
        The common weight denominator.
    before : ndarray of int or None
        Cumulative items through the preceding operating point, when asked for.

    See Also
    --------
    recall_steps : builds it.
    prtheory.oracle.ap.step_average_precision : the AP of the steps.

    Examples
    --------
    See :func:`recall_steps`.

    >>> from prtheory.oracle.counts import recall_steps
    >>> recall_steps([1, 0], [0.9, 0.1]).gain.tolist()
    [1]
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

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels.
    y_score : array-like of shape (n,)
        Real scores, taken exactly.
    sample_weight : array-like of shape (n,) or None
        Finite non-negative weights, taken exactly.
    before : bool
        Also return the items through the preceding operating point (default False).

    Returns
    -------
    RecallSteps
        One step per tied block holding positive weight.

    Raises
    ------
    InvalidInputError
        Malformed labels, scores or weights, naming the argument.

    See Also
    --------
    prtheory.oracle.ap.step_average_precision : the AP of the steps.
    operating_points : every distinct score, not only the steps.

    Examples
    --------
    ``y = [1, 0, 1, 0]``, scores 0.9, 0.8, 0.8, 0.1: the positive at 0.9 is a step (TP 1 of 1
    item, nothing before it) and the tied block at 0.8 another (TP 2 of 3 items, 1 before it);
    unit weights list the steps by increasing score:

    >>> from prtheory.oracle.counts import recall_steps
    >>> s = recall_steps([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1], before=True)
    >>> s.tp.tolist(), s.predicted.tolist(), s.gain.tolist(), s.before.tolist()
    ([2, 1], [3, 1], [1, 1], [1, 0])
    """
    labels = as_labels(y_true)
    scores = as_scores(y_score, labels.size)
    return steps_of(labels, scores, as_weights(sample_weight, labels.size), before=before)


def steps_of(
    labels: np.ndarray, scores: np.ndarray, w: ExactWeights | None, *, before: bool = False
) -> RecallSteps:
    """:func:`recall_steps` of validated input (:func:`~prtheory._input.as_labels`,
    :func:`~prtheory._input.as_scores`, :func:`~prtheory._input.as_weights`).

    Parameters
    ----------
    labels : ndarray of bool
        Validated labels.
    scores : ndarray of float
        Validated scores.
    w : ExactWeights or None
        Validated weights; None for unit weights.
    before : bool
        Also return the items through the preceding operating point (default False).

    Returns
    -------
    RecallSteps
        As :func:`recall_steps`.

    See Also
    --------
    recall_steps : validates, then calls this.

    Examples
    --------
    Scores 3 > 2 > 1 on ``y = [1, 0, 1]``: the steps at score 1 (TP 2 of 3 items) and at 3 (TP 1
    of 1), by increasing score:

    >>> from prtheory._input import as_labels, as_scores
    >>> from prtheory.oracle.counts import steps_of
    >>> s = steps_of(as_labels([1, 0, 1]), as_scores([3, 2, 1]), None)
    >>> s.tp.tolist(), s.predicted.tolist()
    ([2, 1], [3, 1])
    """
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
