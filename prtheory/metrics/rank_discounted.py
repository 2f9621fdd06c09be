"""Reciprocal rank and NDCG@k as correctly rounded float64 (claim M2).

Both discount by rank, so with tied scores they depend on the order inside a tie. The default
``ties="expected"`` is the exact mean over uniformly random orders within each tied block
(McSherry & Najork 2008), as scikit-learn's ``ndcg_score`` with ``ignore_ties=False`` computes
it for NDCG; ``"optimistic"``, ``"pessimistic"``, ``"input-order"`` and ``"trec_eval"`` (with
``doc_ids``) fix an order (:mod:`prtheory.oracle.ties`). Each value is the oracle's
(:func:`prtheory.oracle.reciprocal_rank`, :func:`prtheory.oracle.ndcg_at_k`) rounded once.
"""

from __future__ import annotations

from prtheory._labels import binary_labels
from prtheory.oracle import ndcg as oracle_ndcg
from prtheory.oracle import retrieval as oracle_retrieval
from prtheory.oracle.rounding import rounded, to_float

__all__ = ["ndcg_at_k", "reciprocal_rank"]


def reciprocal_rank(y_true, y_score, *, pos_label=None, ties="expected", doc_ids=None) -> float:
    """``1/rank`` of the first relevant item, 0 when none is relevant, correctly rounded.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary relevance labels, or labels of ``pos_label``.
    y_score : array-like of shape (n,)
        Real scores, taken exactly.
    pos_label : label or None
        The relevant class of a target that is not 0/1.
    ties : {"expected", "optimistic", "pessimistic", "input-order", "trec_eval"}
        The tie policy (default ``"expected"``).
    doc_ids : iterable of str or None
        Document ids, for ``ties="trec_eval"``.

    Returns
    -------
    float
        The correctly rounded reciprocal rank.

    Raises
    ------
    InvalidInputError
        Malformed labels or scores, or an unknown tie policy.

    See Also
    --------
    prtheory.oracle.reciprocal_rank : the exact value.
    ndcg_at_k

    Examples
    --------
    ``y = [0, 1, 1, 0]`` all tied: the first positive is at rank 1, 2 or 3 with
    probabilities 1/2, 1/3 and 1/6, so the expected RR is 1/2 + 1/6 + 1/18 = 13/18:

    >>> from prtheory import reciprocal_rank
    >>> reciprocal_rank([0, 1, 1, 0], [5, 5, 5, 5])
    0.7222222222222222
    """
    y = binary_labels(y_true, pos_label)
    return to_float(oracle_retrieval.reciprocal_rank(y, y_score, ties=ties, doc_ids=doc_ids))


def ndcg_at_k(y_true, y_score, k=None, *, ties="expected", doc_ids=None, convention=None) -> float:
    """``NDCG@k = DCG@k / IDCG@k`` with linear gains ``y_true`` (graded relevance >= 0) and
    discount ``1/log2(rank + 1)``, correctly rounded; ``k=None`` is every item.

    Undefined when every gain is 0; ``convention="sklearn"`` gives 0 there.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Gains, finite and non-negative.
    y_score : array-like of shape (n,)
        Real scores, taken exactly.
    k : int or None
        The cutoff; None is every item.
    ties : {"expected", "optimistic", "pessimistic", "input-order", "trec_eval"}
        The tie policy (default ``"expected"``).
    doc_ids : iterable of str or None
        Document ids, for ``ties="trec_eval"``.
    convention : {None, "sklearn"}
        ``"sklearn"``: 0 when every gain is 0.

    Returns
    -------
    float
        The correctly rounded NDCG@k.

    Raises
    ------
    InvalidInputError
        Malformed gains or scores, a bad ``k``, or an unknown tie policy.
    UndefinedMetricError
        Every gain 0, without ``convention="sklearn"``.

    See Also
    --------
    prtheory.oracle.ndcg_at_k : the exact value.
    reciprocal_rank

    Examples
    --------
    Gains ``[1, 0, 1]`` ranked in that order: ``DCG = 1 + 1/log2(4) = 3/2`` and
    ``IDCG = 1 + 1/log2(3)``, so NDCG = 1.5/1.6309... = 0.91972...:

    >>> from prtheory import ndcg_at_k
    >>> ndcg_at_k([1, 0, 1], [3, 2, 1])
    0.9197207891481877
    """
    return rounded(
        oracle_ndcg.ndcg_at_k,
        y_true,
        y_score,
        k,
        ties=ties,
        doc_ids=doc_ids,
        convention=convention,
    )
