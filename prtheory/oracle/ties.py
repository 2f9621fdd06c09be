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
    "expected_top",
    "resolve_ties",
]

ORDERING_POLICIES = ("optimistic", "pessimistic", "input-order", "trec_eval")
TIE_POLICIES = ("group", "expected", *ORDERING_POLICIES)


def check_ties(
    ties: object, doc_ids: Iterable[str] | None, policies: tuple[str, ...] = TIE_POLICIES
) -> str:
    """Validate ``ties`` and its companion ``doc_ids`` (required by, and only by, trec_eval)."""
    policy = check_option(ties, "ties", policies)
    if policy == "trec_eval" and doc_ids is None:
        raise InvalidInputError("doc_ids", "required with ties='trec_eval'")
    if policy != "trec_eval" and doc_ids is not None:
        raise InvalidInputError("doc_ids", f"only used with ties='trec_eval', got ties={policy!r}")
    return policy


def resolve_ties(r: Ranking, ties: str, doc_ids: Iterable[str] | None = None) -> Ranking:
    """Reorder ``r`` within its tied blocks by an ordering policy (see the module docstring)."""
    if ties == "input-order":
        return r
    n = r.scores.size
    block = np.zeros(n, dtype=np.int64)
    np.cumsum(r.scores[1:] != r.scores[:-1], out=block[1:])
    if ties == "optimistic":
        secondary = ~r.labels
    elif ties == "pessimistic":
        secondary = r.labels
    elif ties == "trec_eval":
        ids = as_doc_ids(doc_ids, n)
        rank = np.empty(n, dtype=np.int64)
        rank[np.argsort(ids, kind="stable")] = np.arange(n)
        secondary = -rank[r.order]  # descending document id
    else:
        raise InvalidInputError("ties", f"{ties!r} is not an ordering policy")
    perm = np.lexsort((secondary, block))  # stable: input order breaks the remaining ties
    weights = None if r.weights is None else r.weights[perm]
    return Ranking(r.order[perm], r.labels[perm], r.scores[perm], weights, r.denominator)


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
