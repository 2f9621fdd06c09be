"""Exact average precision under every named tie policy, and its normalisation by AP_min.

Two definitions, equal for untied scores (claim N2):

* step AP on operating points (``ties="group"``, scikit-learn's ``average_precision_score``)::

      AP = sum_i (R_i - R_{i-1}) P_i = (1/pos) sum_i gain_i tp_i / (tp_i + fp_i)

  over the blocks of tied scores, where ``gain_i`` is the positive weight inside block ``i``;
* IR AP on a total order (every other policy): the mean of the precision at the rank of each
  relevant item, ``(1/pos) sum_k rel(k) P(k)``. With weights, an item is a step of its own:
  ``AP = (1/pos) sum_k w_k rel(k) TP_k / N_k`` with cumulative weights ``TP_k`` and ``N_k``
  through rank ``k`` (zero-weight items contribute nothing). This is the step AP of the ordered
  list with every item its own operating point (scikit-learn's value if the scores were made
  distinct in that order), and it is invariant under scaling all weights. It is *not* the AP of
  the list with each item repeated ``w_k`` times: copies are distinct ranks with distinct
  precisions (under ``"group"`` they are tied and grouped, so there integer weights do equal
  duplication). For ``"expected"`` the weighted expectation over orderings is not a sum of
  per-rank terms, so that policy accepts equal weights only.

Results are exact :class:`~fractions.Fraction` values summed by
:func:`prtheory.oracle.summation.rational_sum` (binary splitting), fast enough for 10^7 items.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from prtheory._input import ExactArrayLike, as_labels
from prtheory.errors import InvalidInputError
from prtheory.oracle.closed_forms import ap_min
from prtheory.oracle.conventions import undefined
from prtheory.oracle.counts import Ranking, RecallSteps, ranking, recall_steps
from prtheory.oracle.summation import rational_sum
from prtheory.oracle.ties import check_ties, expected_top, resolve_ties

__all__ = [
    "average_precision",
    "normalized_average_precision",
    "step_average_precision",
    "untied_precision_terms",
]


def no_positives(quantity: str, convention: str | None, y_true: Any = None) -> Fraction:
    """AP-type quantities with no positive weight: raise, or scikit-learn's value 0.

    The message says which it is: no positive labels, or (when ``y_true`` is given and has
    some) positives that all carry sample weight 0. scikit-learn 1.9 warns "No positive class
    found in y_true, recall is set to one for all thresholds" and returns 0.0 (precision is 0 at
    every threshold).
    """
    if y_true is not None and as_labels(y_true).any():
        reason = "sample_weight is 0 on every positive label (recall is 0/0 at every threshold)"
    else:
        reason = "y_true has no positive labels (recall is 0/0 at every threshold)"
    return undefined(quantity, reason, convention, {"sklearn": Fraction(0)})


def untied_precision_terms(r: Ranking) -> tuple[np.ndarray, np.ndarray]:
    """``(nums, dens)`` with ``sum_k w_k rel(k) TP_k / N_k = sum nums/dens`` in the order of ``r``.

    Parameters
    ----------
    r : Ranking
        A ranking (:func:`prtheory.oracle.counts.ranking`), read in its order, ties unbroken.

    Returns
    -------
    tuple of ndarray
        ``(nums, dens)``: one term ``nums[j]/dens[j]`` per positive, not reduced.

    See Also
    --------
    step_average_precision : the same sum over tied groups.

    Examples
    --------
    Scores 3 > 2 > 1 on ``y = [1, 0, 1]``: the positives sit at ranks 1 and 3 with 1 and 2
    positives up to them, so the terms are 1/1 and 2/3 (and AP = (1 + 2/3)/2 = 5/6):

    >>> from prtheory.oracle.ap import untied_precision_terms
    >>> from prtheory.oracle.counts import ranking
    >>> nums, dens = untied_precision_terms(ranking([1, 0, 1], [3, 2, 1]))
    >>> nums.tolist(), dens.tolist()
    ([1, 2], [1, 3])
    """
    if r.weights is None:
        tp = np.cumsum(r.labels, dtype=np.int64)
        at = np.flatnonzero(r.labels)
        return tp[at], at + 1
    w = r.weights
    tp = np.cumsum(np.where(r.labels, w, 0))
    seen = np.cumsum(w)
    at = np.flatnonzero(r.labels & (w > 0))
    nums = w[at] * tp[at] if w.dtype == object else w[at].astype(object) * tp[at].astype(object)
    return nums, seen[at]


def step_average_precision(steps: RecallSteps) -> Fraction:
    """Step AP of recall steps with ``pos > 0``: ``(1/pos) sum_i gain_i tp_i / predicted_i`` (N2).

    The one exact evaluation behind ``average_precision(..., ties="group")`` and every source of
    :class:`RecallSteps` (a ranking, or counts accumulated per distinct score).

    Parameters
    ----------
    steps : RecallSteps
        The operating points' steps (:func:`prtheory.oracle.counts.recall_steps`), with
        ``pos > 0``.

    Returns
    -------
    Fraction
        The step AP, exactly.

    See Also
    --------
    average_precision : the same from labels and scores (``ties="group"``).
    prtheory.oracle.counts.recall_steps : the steps of a scored sample.

    Examples
    --------
    ``y = [1, 0, 1]`` with the last two scores tied: two steps, the first gaining 1 of 2 positives
    at precision 1/1, the second the other at precision 2/3; AP = (1/2)(1) + (1/2)(2/3) = 5/6:

    >>> from prtheory.oracle.ap import step_average_precision
    >>> from prtheory.oracle.counts import recall_steps
    >>> step_average_precision(recall_steps([1, 0, 1], [0.9, 0.5, 0.5]))
    Fraction(5, 6)
    """
    nums, dens = steps.ap_terms()
    return rational_sum(nums, dens) / steps.pos


def _equal_weights(r: Ranking, ties: str) -> None:
    if r.weights is not None and not np.all(r.weights == r.weights[0]):
        raise InvalidInputError(
            "sample_weight",
            f"ties={ties!r} is defined for equal weights only (the expectation over orderings of "
            "a weighted tied block is not a sum of per-rank terms)",
        )


def average_precision(
    y_true: ArrayLike,
    y_score: ExactArrayLike,
    sample_weight: ExactArrayLike | None = None,
    *,
    ties: str = "group",
    doc_ids: Iterable[str] | None = None,
    convention: str | None = None,
) -> Fraction:
    """Exact average precision (claims N2, N3, B6) under the tie policy ``ties``.

    ``ties`` is one of ``"group"`` (default; step AP over operating points, as scikit-learn),
    ``"expected"``, ``"optimistic"``, ``"pessimistic"``, ``"input-order"`` or ``"trec_eval"``
    (needs ``doc_ids``); see :mod:`prtheory.oracle.ties`. With no positive weight AP is 0/0:
    :class:`~prtheory.errors.UndefinedMetricError`, or 0 with ``convention="sklearn"``.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels: 0/1 or booleans.
    y_score : array-like of shape (n,)
        Real scores (``±inf`` allowed, NaN refused), taken exactly.
    sample_weight : array-like of shape (n,) or None
        Finite non-negative weights, taken exactly (a float at its binary value).
    ties : {"group", "expected", "optimistic", "pessimistic", "input-order", "trec_eval"}
        The tie policy (default ``"group"``, scikit-learn's).
    doc_ids : iterable of str or None
        Document ids, for ``ties="trec_eval"``.
    convention : {None, "sklearn"}
        ``"sklearn"``: 0 when there is no positive weight.

    Returns
    -------
    Fraction
        The AP, exactly.

    Raises
    ------
    InvalidInputError
        Malformed labels, scores or weights, naming the argument.
    UndefinedMetricError
        No positive weight, without ``convention="sklearn"``.

    See Also
    --------
    prtheory.average_precision : the correctly rounded float64, at scikit-learn's speed.
    normalized_average_precision : AP rescaled by its least value.

    Examples
    --------
    Tied scores form one operating point under ``"group"``; ``"expected"`` averages
    the orders of the tie. ``y = [1, 0, 1]`` with the last two scores tied: grouped, the
    points are (1/2, 1) and (1, 2/3), so AP = 1/2 + (1/2)(2/3) = 5/6; over the two orders of the
    tie the positive is 2nd or 3rd, AP = (1 + 1)/2 = 1 or (1 + 2/3)/2 = 5/6, expected 11/12:

    >>> from prtheory.oracle import average_precision
    >>> average_precision([1, 0, 1], [0.9, 0.5, 0.5])
    Fraction(5, 6)
    >>> average_precision([1, 0, 1], [0.9, 0.5, 0.5], ties="expected")
    Fraction(11, 12)
    """
    ties = check_ties(ties, doc_ids)
    if ties == "group":
        steps = recall_steps(y_true, y_score, sample_weight)
        if steps.pos == 0:
            return no_positives("average precision", convention, y_true)
        return step_average_precision(steps)
    r = ranking(y_true, y_score, sample_weight)
    pos = int(r.weights[r.labels].sum()) if r.weights is not None else int(r.labels.sum())
    if ties == "expected":
        _equal_weights(r, ties)
        if pos == 0:
            return no_positives("average precision", convention, y_true)
        pts = Ranking(r.order, r.labels, r.scores, None, 1).points()
        n = r.labels.size
        return expected_top(pts.tp, pts.tp + pts.fp, n)[1] / int(r.labels.sum())
    r = resolve_ties(r, ties, doc_ids)
    if pos == 0:
        return no_positives("average precision", convention, y_true)
    nums, dens = untied_precision_terms(r)
    return rational_sum(nums, dens) / pos


def normalized_average_precision(
    y_true: ArrayLike,
    y_score: ExactArrayLike,
    *,
    ties: str = "group",
    doc_ids: Iterable[str] | None = None,
    convention: str | None = None,
) -> Fraction:
    """AP rescaled by its least possible value: ``(AP - AP_min) / (1 - AP_min)`` (B6, B8).

    The AP analogue of AUCNPR: ``AP_min(pos, neg) = (1/pos) sum_{i<=pos} i/(i+neg)`` is the AP of
    the worst ranking (B6), so the result lies in [0, 1], with 0 for the worst ranking and 1 for a
    perfect one. Unweighted (AP_min of weighted items depends on their order, not only on the
    totals). With no negatives every ranking has AP = AP_min = 1; the value is 1 (the
    convention of B8 at pi = 1). With no positives AP is undefined (see
    :func:`average_precision`; ``convention="sklearn"`` gives 0, B8's value at pi = 0).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels: 0/1 or booleans.
    y_score : array-like of shape (n,)
        Real scores (``±inf`` allowed, NaN refused), taken exactly.
    ties, doc_ids, convention
        As :func:`average_precision`.

    Returns
    -------
    Fraction
        ``(AP - AP_min) / (1 - AP_min)``, exactly.

    Raises
    ------
    InvalidInputError
        Malformed labels or scores, naming the argument.
    UndefinedMetricError
        No positive, without ``convention="sklearn"``.

    See Also
    --------
    prtheory.oracle.ap_min : the least AP of the counts.
    prtheory.oracle.aucnpr : the same normalisation of AUCPR.

    Examples
    --------
    By hand: AP is 5/6 (see :func:`average_precision`); two positives and one negative have
    ``AP_min = (1/2)(1/2 + 2/3) = 7/12``, so ``(5/6 - 7/12)/(1 - 7/12) = 3/5``.

    >>> from prtheory.oracle import normalized_average_precision
    >>> normalized_average_precision([1, 0, 1], [0.9, 0.5, 0.5])
    Fraction(3, 5)
    """
    ap = average_precision(y_true, y_score, ties=ties, doc_ids=doc_ids, convention=convention)
    labels = as_labels(y_true)
    pos = int(labels.sum())
    if pos == 0:
        return ap
    if pos == labels.size:
        return Fraction(1)
    low: Fraction = ap_min(pos, labels.size - pos, exact=True)
    return (ap - low) / (1 - low)
