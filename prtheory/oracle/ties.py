"""Tie policies for ranking metrics: how items with equal scores are ordered or averaged.

A ranking metric that walks the list item by item (the IR form of average precision, P@k,
AP@k, R-precision) needs an order within each block of tied scores. The policies:

``"group"``
    No order: a tied block is one operating point (threshold ``score >= t``), as scikit-learn's
    ``average_precision_score`` and ``precision_recall_curve``. Only for metrics defined on
    operating points (step AP).
``"expected"``
    The exact expectation over all orderings of each tied block, uniformly at random
    (McSherry & Najork 2008), from the closed form in :func:`expected_top`.
    Defined for unit (or equal) weights.
``"optimistic"`` / ``"pessimistic"``
    Positives before (after) negatives within each block; otherwise input order. With unit
    weights these are the best and worst orderings.
``"input-order"``
    Tied items keep their input order (a stable sort), as a metric that trusts the ranked list it
    is given.
``"trec_eval"``
    trec_eval's rule (``comp_sim_docno`` in ``form_res_rels.c``): sort by score descending,
    then by document id *descending*, compared as strings (``strcmp(docno2, docno1)``). Needs
    ``doc_ids``. trec_eval stores scores as C ``float`` in some versions, which creates extra
    ties; round the scores to float32 first to reproduce that.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

import numpy as np

from prtheory._input import as_doc_ids, check_option
from prtheory.errors import InvalidInputError
from prtheory.oracle.counts import Ranking
from prtheory.oracle.summation import rational_sum

__all__ = [
    "ORDERING_POLICIES",
    "TIE_POLICIES",
    "check_ties",
    "expected_first_hit",
    "expected_top",
    "resolve_ties",
    "tie_order",
]

ORDERING_POLICIES = ("optimistic", "pessimistic", "input-order", "trec_eval")
TIE_POLICIES = ("group", "expected", *ORDERING_POLICIES)


def check_ties(
    ties: object, doc_ids: Iterable[str] | None, policies: tuple[str, ...] = TIE_POLICIES
) -> str:
    """Validate ``ties`` and its companion ``doc_ids`` (required by, and only by, trec_eval).

    Parameters
    ----------
    ties : str
        The tie policy asked for.
    doc_ids : iterable of str or None
        Document ids (required by ``"trec_eval"``, refused by the others).
    policies : tuple of str
        The policies the caller accepts.

    Returns
    -------
    str
        ``ties``, checked.

    Raises
    ------
    InvalidInputError
        An unknown policy, or ``doc_ids`` missing for, or given without, ``"trec_eval"``.

    See Also
    --------
    resolve_ties

    Examples
    --------
    >>> from prtheory.oracle.ties import check_ties
    >>> check_ties("group", None)
    'group'
    >>> check_ties("trec_eval", None)
    Traceback (most recent call last):
    ...
    prtheory.errors.InvalidInputError: doc_ids: required with ties='trec_eval'
    """
    policy = check_option(ties, "ties", policies)
    if policy == "trec_eval" and doc_ids is None:
        raise InvalidInputError("doc_ids", "required with ties='trec_eval'")
    if policy != "trec_eval" and doc_ids is not None:
        raise InvalidInputError("doc_ids", f"only used with ties='trec_eval', got ties={policy!r}")
    return policy


def resolve_ties(r: Ranking, ties: str, doc_ids: Iterable[str] | None = None) -> Ranking:
    """Reorder ``r`` within its tied blocks by an ordering policy (see the module docstring).

    Parameters
    ----------
    r : Ranking
        A ranking (:func:`prtheory.oracle.counts.ranking`).
    ties : {"optimistic", "pessimistic", "input-order", "trec_eval"}
        The ordering policy.
    doc_ids : iterable of str or None
        Document ids, for ``"trec_eval"``.

    Returns
    -------
    Ranking
        ``r`` reordered within its tied blocks.

    See Also
    --------
    tie_order : the permutation it applies.

    Examples
    --------
    All three tied: optimistic puts the two positives (input 1 and 2) first:

    >>> from prtheory.oracle.counts import ranking
    >>> from prtheory.oracle.ties import resolve_ties
    >>> r = resolve_ties(ranking([0, 1, 1], [1, 1, 1]), "optimistic")
    >>> r.order.tolist(), r.labels.tolist()
    ([1, 2, 0], [True, True, False])
    """
    if ties == "input-order":
        return r
    perm = tie_order(r.scores, r.labels, r.order, ties, doc_ids)
    weights = None if r.weights is None else r.weights[perm]
    return Ranking(r.order[perm], r.labels[perm], r.scores[perm], weights, r.denominator)


def tie_order(
    scores: np.ndarray,
    merit: np.ndarray,
    order: np.ndarray,
    ties: str,
    doc_ids: Iterable[str] | None = None,
) -> np.ndarray:
    """The permutation of items sorted by decreasing ``scores`` that orders each tied block by an
    ordering policy: ``"optimistic"`` (greater ``merit`` first: positives, or higher gains),
    ``"pessimistic"`` (lesser first), ``"trec_eval"`` (document id descending; ``order`` maps
    sorted positions to input indices) or ``"input-order"`` (the identity). Stable, so the
    sorted order breaks the remaining ties.

    Parameters
    ----------
    scores : ndarray of float
        Scores sorted decreasing.
    merit : ndarray
        Labels or gains, in the same order.
    order : ndarray of int
        Sorted positions to input indices.
    ties : {"optimistic", "pessimistic", "input-order", "trec_eval"}
        The ordering policy.
    doc_ids : iterable of str or None
        Document ids, for ``"trec_eval"``.

    Returns
    -------
    ndarray of int
        The permutation of the sorted positions.

    Raises
    ------
    InvalidInputError
        Not an ordering policy, or ``doc_ids`` malformed (naming the argument).

    See Also
    --------
    resolve_ties

    Examples
    --------
    >>> import numpy as np
    >>> from prtheory.oracle.ties import tie_order
    >>> s, merit, order = np.array([1.0, 1.0, 1.0]), np.array([0, 1, 1]), np.array([0, 1, 2])
    >>> tie_order(s, merit, order, "optimistic").tolist(), tie_order(s, merit, order, "pessimistic").tolist()
    ([1, 2, 0], [0, 1, 2])
    """
    n = scores.size
    if ties == "input-order":
        return np.arange(n)
    block = np.zeros(n, dtype=np.int64)
    np.cumsum(scores[1:] != scores[:-1], out=block[1:])
    if ties in ("optimistic", "pessimistic"):
        rank = np.unique(merit, return_inverse=True)[1].reshape(-1)  # exact for big integers too
        secondary = -rank if ties == "optimistic" else rank
    elif ties == "trec_eval":
        ids = as_doc_ids(doc_ids, n)
        by_id = np.empty(n, dtype=np.int64)
        by_id[np.argsort(ids, kind="stable")] = np.arange(n)
        secondary = -by_id[order]  # descending document id
    else:
        raise InvalidInputError("ties", f"{ties!r} is not an ordering policy")
    perm: np.ndarray = np.lexsort((secondary, block))  # stable: sorted order breaks other ties
    return perm


def expected_top(tp: np.ndarray, seen: np.ndarray, cut: int) -> tuple[Fraction, Fraction]:
    """``(E[TP in the top cut], E[sum_{i<=cut} rel(i) P(i)])`` over random orders within blocks.

    ``tp`` and ``seen`` are the cumulative positives and items at the end of each tied block
    (unit weights), in rank order. The first is hypergeometric: ``j`` of a block's ``m`` items,
    ``p`` of them positive, hold ``j p/m`` positives on average. For the second, let the block
    hold ``p`` positives among ``m`` items after ``N`` items of which ``T`` are positive, and
    ``r`` be a position inside the block. By linearity, position ``r`` is positive with
    probability ``p/m``, and given that, each of the ``r - 1`` earlier positions is positive
    with probability ``(p-1)/(m-1)``, so::

        E[rel(r) P(r)] = (p/m) (T + 1 + (r-1)(p-1)/(m-1)) / (N + r).

    Writing the numerator as ``(p-1)(N+r) + C`` with ``C = (T+1)(m-1) - (p-1)(N+1)``, the first
    ``j`` positions give::

        p/(m(m-1)) [ (p-1) j + C (H_{N+j} - H_N) ]      (m >= 2),

    and ``p (T+1)/(N+1)`` for ``m = 1``. With ``cut = n`` the second value is ``pos`` times the
    expected AP; with one block (``T = N = 0``, ``m = pos + neg``) it is claim X1's
    ``(pos-1)/(n-1) + neg H_n/(n(n-1))`` times ``pos``. Each harmonic segment is summed by
    :func:`rational_sum` on its own, so the tree works on small denominators ``N + r``.

    Parameters
    ----------
    tp, seen : ndarray of int
        Cumulative positives and items at the end of each tied block, in rank order.
    cut : int
        The cutoff.

    Returns
    -------
    tuple of Fraction
        ``E[TP in the top cut]`` and ``E[sum_{i<=cut} rel(i) P(i)]``.

    See Also
    --------
    expected_first_hit

    Examples
    --------
    One block of 4 items with 2 positives, cut 2: the top two hold 2 (2/4) = 1 positive on
    average. Of the 6 equally likely position pairs of the positives, {1,2} gives
    rel P = 1 + 1 = 2; {1,3}, {1,4} give 1; {2,3}, {2,4} give 1/2; {3,4} gives 0; the mean is
    (2 + 1 + 1 + 1/2 + 1/2)/6 = 5/6:

    >>> import numpy as np
    >>> from prtheory.oracle.ties import expected_top
    >>> expected_top(np.array([2]), np.array([4]), 2)
    (Fraction(1, 1), Fraction(5, 6))
    """
    last = int(np.searchsorted(seen, cut)) + 1  # blocks [0, last) reach rank `cut`
    tp, seen = tp[:last], seen[:last]
    p = np.diff(tp, prepend=0)
    m = np.diff(seen, prepend=0)
    t, n = tp - p, seen - m  # positives and items before each block
    j = np.minimum(m, cut - n)
    hit = p > 0
    tp_expected = sum(
        (Fraction(a, b) for a, b in zip((p * j)[hit].tolist(), m[hit].tolist(), strict=True)),
        Fraction(0),
    )
    single = hit & (m == 1)  # untied positives: the term is (T + 1)/(N + 1)
    nums: list[int] = (t[single] + 1).tolist()
    dens: list[int] = (n[single] + 1).tolist()
    for pb, mb, tb, nb, jb in zip(
        *(x[hit & (m > 1)].tolist() for x in (p, m, t, n, j)), strict=True
    ):
        c = pb * ((tb + 1) * (mb - 1) - (pb - 1) * (nb + 1))
        h = rational_sum([1] * jb, range(nb + 1, nb + jb + 1))
        nums += [pb * (pb - 1) * jb, c * h.numerator]
        dens += [mb * (mb - 1), mb * (mb - 1) * h.denominator]
    return tp_expected, rational_sum(nums, dens)


def expected_first_hit(before: int, m: int, p: int) -> Fraction:
    """``E[1/(before + J)]``: the expected reciprocal rank of the first positive (claim M2).

    The first positive lies in a tied block of ``m`` items holding ``p >= 1`` positives, after
    ``before`` items that are all negative; ``J`` is its position inside the block when the
    block is ordered uniformly at random. The positive first in the block has the other
    ``p - 1`` positives among the ``m - j`` positions after its own, so
    ``P(J = j) = C(m - j, p - 1)/C(m, p)`` for ``j = 1 .. q + 1`` (``q = m - p`` negatives), and
    consecutive probabilities have the ratio ``(q + 1 - j)/(m - j)``. Hence::

        E[1/(before + J)] = (p/m) sum_{j=1}^{q+1} [prod_{i<j} (q+1-i)/(m-i)] / (before + j).

    The sum is evaluated exactly by binary splitting (:func:`_first_hit_sum`), so its cost is
    that of a few products of the size of the result, not of ``q`` additions of binomials.

    Parameters
    ----------
    before : int
        The negatives ranked above the block.
    m : int
        The block's size.
    p : int
        The positives in the block (``p >= 1``).

    Returns
    -------
    Fraction
        ``E[1/(before + J)]``, exactly.

    See Also
    --------
    prtheory.oracle.retrieval.reciprocal_rank : its ``ties="expected"`` value.
    expected_top

    Examples
    --------
    A block of 4 items holding 2 positives, nothing before it: the first positive is at 1, 2 or 3
    with probabilities C(3,1)/C(4,2) = 1/2, C(2,1)/6 = 1/3 and C(1,1)/6 = 1/6, so
    E = 1/2 + (1/3)(1/2) + (1/6)(1/3) = 13/18:

    >>> from prtheory.oracle.ties import expected_first_hit
    >>> expected_first_hit(0, 4, 2)
    Fraction(13, 18)
    """
    q = m - p
    top, bottom = _first_hit_sum(before, q, m, 1, q + 2)[2:]
    return Fraction(p * top, m * bottom)


def _first_hit_sum(before: int, q: int, m: int, a: int, b: int) -> tuple[int, int, int, int]:
    """``(P, Q, T, QD)`` for the terms ``j`` in ``[a, b)`` of the sum in
    :func:`expected_first_hit`: ``P/Q`` is the product of the ratios ``r_i = (q+1-i)/(m-i)``
    over ``i`` in ``[a, b)`` and ``T/QD`` the partial sum ``sum_j (prod_{a<=i<j} r_i)/(before + j)``
    (``QD`` is ``Q`` times the product of the ``before + j``). Halves combine as
    ``S(a, c) = S(a, b) + (P_ab/Q_ab) S(b, c)``. The last term's ratio multiplies nothing, so it
    is taken as 0/1 (it would divide by ``m - q - 1 = p - 1``, which may be 0)."""
    if b - a == 1:
        d = before + a
        ratio = (q + 1 - a, m - a) if a <= q else (0, 1)
        return ratio[0], ratio[1], ratio[1], ratio[1] * d
    mid = (a + b) // 2
    p1, q1, t1, qd1 = _first_hit_sum(before, q, m, a, mid)
    p2, q2, t2, qd2 = _first_hit_sum(before, q, m, mid, b)
    # T_ac/QD_ac = T_ab/QD_ab + (P_ab/Q_ab) T_bc/QD_bc with QD_ac = QD_ab QD_bc
    return p1 * p2, q1 * q2, t1 * qd2 + p1 * t2 * (qd1 // q1), qd1 * qd2
