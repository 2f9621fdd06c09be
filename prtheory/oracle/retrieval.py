"""Exact retrieval metrics on a ranked list: P@k, AP@k, R-precision (claims N4, N5) and
reciprocal rank (M2).

The list is ``y_score`` sorted in decreasing order, ``y_true`` the relevance (0/1) of each item.
Conventions:

* **Fewer than k items** (``k > n``): the missing predictions count as false positives (N4), so
  ``P@k = TP(top n) / k``; AP@k sums over the ``n`` items that exist.
* **Ties at the cutoff** follow the ``ties`` policy (:mod:`prtheory.oracle.ties`). The default,
  ``"expected"``, is the exact expectation over uniformly random orders within each tied block
  (McSherry & Najork 2008); ``"optimistic"``, ``"pessimistic"``, ``"input-order"`` and
  ``"trec_eval"`` (with ``doc_ids``) fix an order. ``"group"`` does not apply: a cutoff inside a
  tied block needs an order or an expectation.
* **Unweighted**: ``k`` counts items, so sample weights are not accepted.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike

from prtheory._input import ExactArrayLike, as_labels, check_count
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle.ap import untied_precision_terms
from prtheory.oracle.counts import Ranking, ranking
from prtheory.oracle.summation import rational_sum
from prtheory.oracle.ties import (
    ORDERING_POLICIES,
    check_ties,
    expected_first_hit,
    expected_top,
    resolve_ties,
)

__all__ = ["ap_at_k", "cutoff", "precision_at_k", "r_precision", "reciprocal_rank"]

_POLICIES = ("expected", *ORDERING_POLICIES)


def cutoff(k: int, name: str = "k") -> int:
    """A cutoff ``k >= 1``: zero and negative values get the same message.

    Parameters
    ----------
    k : int
        The cutoff.
    name : str
        The argument's name in the error (default ``"k"``).

    Returns
    -------
    int
        ``k``, checked.

    Raises
    ------
    InvalidInputError
        ``k`` not an integer or below 1.

    Examples
    --------
    >>> from prtheory.oracle.retrieval import cutoff
    >>> cutoff(3)
    3
    >>> cutoff(0)
    Traceback (most recent call last):
    ...
    prtheory.errors.InvalidInputError: k: must be >= 1, got 0
    """
    if not isinstance(k, bool) and isinstance(k, numbers.Real) and k < 1:
        raise InvalidInputError(name, f"must be >= 1, got {k!r}")
    return check_count(k, name)


def _top(
    y_true: ArrayLike,
    y_score: ExactArrayLike,
    k: int,
    ties: str,
    doc_ids: Iterable[str] | None,
) -> tuple[Fraction, Fraction, int]:
    """``(E[TP in the top k], E[sum_{i<=k} rel(i) P(i)], pos)`` under the tie policy."""
    r = ranking(y_true, y_score)
    pos = int(r.labels.sum())
    cut = min(k, r.labels.size)
    if ties != "expected":
        r = resolve_ties(r, ties, doc_ids)
        top = Ranking(r.order[:cut], r.labels[:cut], r.scores[:cut], None, 1)
        nums, dens = untied_precision_terms(top)
        return Fraction(int(top.labels.sum())), rational_sum(nums, dens), pos
    pts = r.points()
    return (*expected_top(pts.tp, pts.tp + pts.fp, cut), pos)


def precision_at_k(
    y_true: ArrayLike,
    y_score: ExactArrayLike,
    k: int,
    *,
    ties: str = "expected",
    doc_ids: Iterable[str] | None = None,
) -> Fraction:
    """``P@k = TP(top k) / k`` (N4): missing predictions when ``k > n`` count as false positives.

    With ``pos < k`` positives, ``P@k <= pos/k < 1`` (N4). Defined with no positives (it is 0).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels: 0/1 or booleans.
    y_score : array-like of shape (n,)
        Real scores (``±inf`` allowed, NaN refused), taken exactly.
    k : int
        The cutoff, at least 1.
    ties : {"expected", "optimistic", "pessimistic", "trec_eval"}
        How a cutoff inside a block of tied scores counts (``"trec_eval"`` needs ``doc_ids``).
    doc_ids : iterable of str or None
        Document ids, for ``ties="trec_eval"``.

    Returns
    -------
    Fraction
        The precision of the top ``k``, exactly.

    Raises
    ------
    InvalidInputError
        Malformed labels or scores, or ``k < 1``, naming the argument.

    See Also
    --------
    r_precision : the cutoff at the number of positives.
    ap_at_k : AP restricted to the top k.

    Examples
    --------
    By hand: the top 2 are the 0.9 (positive) and one of the two tied 0.8s, positive with
    probability 1/2: ``(1 + 1/2)/2 = 3/4``; at ``k = 6`` the two missing items are false
    positives: ``2/6``.

    >>> from prtheory.oracle import precision_at_k
    >>> y, s = [1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1]
    >>> precision_at_k(y, s, 2)
    Fraction(3, 4)
    >>> precision_at_k(y, s, 2, ties="optimistic")
    Fraction(1, 1)
    >>> precision_at_k(y, s, 6)
    Fraction(1, 3)
    """
    cut = cutoff(k)
    policy = check_ties(ties, doc_ids, _POLICIES)
    tp, _, _ = _top(y_true, y_score, cut, policy, doc_ids)
    return tp / cut


def ap_at_k(
    y_true: ArrayLike,
    y_score: ExactArrayLike,
    k: int,
    *,
    ties: str = "expected",
    doc_ids: Iterable[str] | None = None,
) -> Fraction:
    """``AP@k = sum_{i<=k} P(i) rel(i) / min(k, pos)`` (N5): AP restricted to the top k.

    Not the mean of ``P@i`` (N5).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels: 0/1 or booleans.
    y_score : array-like of shape (n,)
        Real scores (``±inf`` allowed, NaN refused), taken exactly.
    k : int
        The cutoff, at least 1.
    ties : {"expected", "optimistic", "pessimistic", "trec_eval"}
        How a cutoff inside a block of tied scores counts (``"trec_eval"`` needs ``doc_ids``).
    doc_ids : iterable of str or None
        Document ids, for ``ties="trec_eval"``.

    Returns
    -------
    Fraction
        AP@k, exactly.

    Raises
    ------
    InvalidInputError
        Malformed labels or scores, or ``k < 1``, naming the argument.
    UndefinedMetricError
        No positive (``min(k, pos) = 0``).

    See Also
    --------
    precision_at_k : the precision of the top k.

    Examples
    --------
    By hand: the top 2 hold the positive at 0.9 and one of the tied 0.8s; if it is the
    positive, ``(1 + 1)/2 = 1``, else ``1/2``; expected ``3/4``.

    >>> from prtheory.oracle import ap_at_k
    >>> y, s = [1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1]
    >>> ap_at_k(y, s, 2)
    Fraction(3, 4)
    """
    cut = cutoff(k)
    policy = check_ties(ties, doc_ids, _POLICIES)
    _, total, pos = _top(y_true, y_score, cut, policy, doc_ids)
    if pos == 0:
        raise UndefinedMetricError("AP@k", "y_true has no positive labels (min(k, pos) = 0)")
    return total / min(cut, pos)


def r_precision(
    y_true: ArrayLike,
    y_score: ExactArrayLike,
    *,
    ties: str = "expected",
    doc_ids: Iterable[str] | None = None,
) -> Fraction:
    """R-precision: ``P@R`` with ``R = pos`` the number of relevant items (equals recall at R).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels: 0/1 or booleans.
    y_score : array-like of shape (n,)
        Real scores (``±inf`` allowed, NaN refused), taken exactly.
    ties : {"expected", "optimistic", "pessimistic", "trec_eval"}
        How a cutoff inside a block of tied scores counts (``"trec_eval"`` needs ``doc_ids``).
    doc_ids : iterable of str or None
        Document ids, for ``ties="trec_eval"``.

    Returns
    -------
    Fraction
        ``P@R``, exactly.

    Raises
    ------
    InvalidInputError
        Malformed labels or scores, naming the argument.
    UndefinedMetricError
        No positive (``P@0`` is 0/0).

    See Also
    --------
    precision_at_k : any cutoff.

    Examples
    --------
    Two positives, so ``R = 2``: the value of ``precision_at_k(y, s, 2)``, 3/4.

    >>> from prtheory.oracle import r_precision
    >>> y, s = [1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1]
    >>> r_precision(y, s)
    Fraction(3, 4)
    """
    ties = check_ties(ties, doc_ids, _POLICIES)
    pos = int(as_labels(y_true).sum())
    if pos == 0:
        raise UndefinedMetricError("R-precision", "y_true has no positive labels (R = 0)")
    tp, _, _ = _top(y_true, y_score, pos, ties, doc_ids)
    return tp / pos


def reciprocal_rank(
    y_true: ArrayLike,
    y_score: ExactArrayLike,
    *,
    ties: str = "expected",
    doc_ids: Iterable[str] | None = None,
) -> Fraction:
    """``RR = 1/rank`` of the first relevant item; 0 when no item is relevant (``1/inf``, as
    trec_eval's ``recip_rank`` and ranx).

    With ``ties="expected"`` (default) the exact mean over uniformly random orders within each
    tied block (McSherry & Najork 2008; claim M2): only the first block holding a positive
    matters, and :func:`prtheory.oracle.ties.expected_first_hit` gives ``E[1/(N + J)]`` in
    closed form. Example: ``y = [0, 1, 1, 0]`` all tied: the first positive is at rank 1, 2 or
    3 with probabilities 1/2, 1/3, 1/6, so ``E[RR] = 1/2 + 1/6 + 1/18 = 13/18``.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary relevance labels.
    y_score : array-like of shape (n,)
        Real scores, taken exactly.
    ties : {"expected", "optimistic", "pessimistic", "input-order", "trec_eval"}
        The tie policy (default ``"expected"``).
    doc_ids : iterable of str or None
        Document ids, for ``ties="trec_eval"``.

    Returns
    -------
    Fraction
        The reciprocal rank, exactly.

    Raises
    ------
    InvalidInputError
        Malformed labels or scores, or an unknown tie policy.

    See Also
    --------
    precision_at_k, r_precision
    prtheory.oracle.ties.expected_first_hit : the closed form behind ``ties="expected"``.

    Examples
    --------
    The docstring's case, ``y = [0, 1, 1, 0]`` all tied, ``E[RR] = 13/18``; untied with the
    first positive at rank 2, RR = 1/2:

    >>> from prtheory.oracle.retrieval import reciprocal_rank
    >>> reciprocal_rank([0, 1, 1, 0], [1, 1, 1, 1])
    Fraction(13, 18)
    >>> reciprocal_rank([0, 1, 1, 0], [4, 3, 2, 1])
    Fraction(1, 2)
    """
    policy = check_ties(ties, doc_ids, _POLICIES)
    r = ranking(y_true, y_score)
    if not r.labels.any():
        return Fraction(0)
    if policy != "expected":
        r = resolve_ties(r, policy, doc_ids)
        return Fraction(1, int(np.argmax(r.labels)) + 1)
    pts = r.points()
    b = int(np.searchsorted(pts.tp, 1))  # the first block holding a positive (TP is cumulative)
    before = 0 if b == 0 else int(pts.tp[b - 1] + pts.fp[b - 1])
    return expected_first_hit(before, int(pts.fp[b]) + int(pts.tp[b]) - before, int(pts.tp[b]))
