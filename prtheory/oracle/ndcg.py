"""Discounted cumulative gain at a cutoff and its normalisation, exactly (claim M2).

With the items ranked by decreasing score and ``g_i`` the gain (graded relevance, used as is:
linear gains, as scikit-learn's ``ndcg_score`` and trec_eval) of the item at rank ``i``::

    DCG@k  = sum_{i=1}^{min(k, n)} g_i / log2(i + 1),
    IDCG@k = the same sum over the gains sorted in decreasing order (the ideal ranking),
    NDCG@k = DCG@k / IDCG@k.

Ties follow the ``ties`` policy (:mod:`prtheory.oracle.ties`). The default, ``"expected"``, is
the exact mean over uniformly random orders within each tied block (McSherry & Najork 2008):
by linearity of expectation every position of a block of ``m`` items with total gain ``G``
holds the gain ``G/m`` on average, so ``E[DCG@k] = sum_i w_i / log2(i + 1)`` with ``w_i`` the
mean gain of the block that holds rank ``i``; the ideal gains do not depend on the order, so
``E[NDCG@k] = E[DCG@k] / IDCG@k``. ``"optimistic"`` puts higher gains first within a tie,
``"pessimistic"`` lower gains first; ``"input-order"`` and ``"trec_eval"`` (with ``doc_ids``)
fix an order as for the other ranking metrics. ``"group"`` does not apply.

Exact representation. The value is the finite linear form ``sum_i w_i / log2(i + 1)`` with
rational ``w_i``: :func:`dcg_terms` returns the ``w_i`` and the ideal gains by rank, exactly
(Fractions). The value is rational when every rank with a non-zero weight has ``i + 1`` a power
of two, or when the weights are proportional to the ideal gains (a perfect ranking has NDCG 1);
:func:`ndcg_at_k` and :func:`dcg_at_k` then return that exact Fraction. Otherwise they return an
``mpf`` at ``dps`` digits under the oracle contract of :mod:`prtheory.oracle.closed_forms`
(relative error at most ``2**(1-p)``, ``p = prec_of_dps(dps)``), so
:func:`prtheory.oracle.rounding.rounded` gives the correctly rounded float64.

Error bound. ``log2`` cancels in the ratio: ``NDCG = (sum w_i/ln(i+1)) / (sum g_i/ln(i+1))``.
Every term is positive, so no cancellation occurs: at ``wp`` bits each term (a rounded
rational, a logarithm within 2 units of the last place, a division) has relative error at most
``5 u``, ``u = 2**-wp``, and adding ``K`` positive terms one by one adds at most ``(K - 1) u``
of the total, so each sum is within ``(K + 5) u`` of its value and the ratio (one more
division) within ``(2K + 12) u``; DCG's factor ``ln 2`` costs 3 more units. With
``wp = p + 4 + bitlen(2K + 15)`` this is below ``2**-(p+4)``, and the final rounding to ``p``
bits keeps the total below ``2**(1-p)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import numpy as np
from mpmath import libmp

from prtheory._input import ExactArrayLike, as_gains, as_scores
from prtheory.oracle.conventions import undefined
from prtheory.oracle.counts import run_starts
from prtheory.oracle.retrieval import cutoff
from prtheory.oracle.rounding import prec_of_dps
from prtheory.oracle.ties import ORDERING_POLICIES, check_ties, tie_order

__all__ = ["DCGTerms", "dcg_at_k", "dcg_terms", "ndcg_at_k"]

_POLICIES = ("expected", *ORDERING_POLICIES)


@dataclass(frozen=True)
class DCGTerms:
    """``DCG@k = sum_i weights[i-1] / log2(i + 1)`` and ``IDCG@k`` the same sum over ``ideal``,
    exactly: ``weights`` are the (expected) gains at ranks 1 to ``min(k, n)``, ``ideal`` the
    gains of the ideal ranking there (both tuples of Fractions).

    Parameters
    ----------
    weights : tuple of Fraction
        The (expected) gains at ranks 1 to ``min(k, n)``.
    ideal : tuple of Fraction
        The ideal ranking's gains there.

    See Also
    --------
    dcg_terms : computes them.

    Examples
    --------
    See :func:`dcg_terms`.

    >>> from prtheory.oracle.ndcg import dcg_terms
    >>> dcg_terms([1, 0], [0.2, 0.9]).ideal
    (Fraction(1, 1), Fraction(0, 1))
    """

    weights: tuple[Fraction, ...]
    ideal: tuple[Fraction, ...]

    def ratio(self) -> Fraction | None:
        """``DCG/IDCG`` as a Fraction when it is rational for a reason seen in the terms (see the
        module docstring), else None. ``IDCG`` must be positive."""
        g0 = next(g for g in self.ideal if g)
        c = self.weights[self.ideal.index(g0)] / g0
        if all(w == c * g for w, g in zip(self.weights, self.ideal, strict=True)):
            return c
        num, den = _dyadic_sum(self.weights), _dyadic_sum(self.ideal)
        return None if num is None or den is None else num / den


def _dyadic_sum(values: Sequence[Fraction]) -> Fraction | None:
    """``sum_i values[i-1] / log2(i + 1)`` when every non-zero term has ``i + 1 = 2**e``."""
    total = Fraction(0)
    for i, v in enumerate(values, start=1):
        if v:
            e = (i + 1).bit_length() - 1
            if i + 1 != 1 << e:
                return None
            total += v / e
    return total


def _ranked_gains(
    y_true: ExactArrayLike,
    y_score: ExactArrayLike,
    k: int | None,
    ties: str,
    doc_ids: Iterable[str] | None,
) -> DCGTerms:
    gains = as_gains(y_true)
    nums, den = gains.numerators, gains.denominator
    scores = as_scores(y_score, nums.size)
    cut = nums.size if k is None else min(cutoff(k), nums.size)
    order = np.argsort(-scores, kind="stable")
    ranked, ranked_scores = nums[order], scores[order]
    ideal = tuple(Fraction(int(g), den) for g in sorted(nums.tolist(), reverse=True)[:cut])
    if ties != "expected":
        perm = tie_order(ranked_scores, ranked, order, ties, doc_ids)
        return DCGTerms(tuple(Fraction(int(g), den) for g in ranked[perm][:cut]), ideal)
    starts = run_starts(ranked_scores)
    sizes = np.diff(np.append(starts, nums.size))
    totals = np.add.reduceat(ranked.astype(object), starts)
    weights: list[Fraction] = []
    for total, m in zip(totals.tolist(), sizes.tolist(), strict=True):
        if len(weights) >= cut:
            break
        weights += [Fraction(int(total), int(m) * den)] * min(int(m), cut - len(weights))
    return DCGTerms(tuple(weights), ideal)


def dcg_terms(
    y_true: ExactArrayLike,
    y_score: ExactArrayLike,
    k: int | None = None,
    *,
    ties: str = "expected",
    doc_ids: Iterable[str] | None = None,
) -> DCGTerms:
    """The exact terms of ``DCG@k`` and ``IDCG@k`` (module docstring): gains ``y_true`` (finite,
    >= 0; booleans are 0/1), ranked by ``y_score``; ``k=None`` is every item.

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

    Returns
    -------
    DCGTerms
        The gains at each rank and the ideal gains.

    Raises
    ------
    InvalidInputError
        Malformed gains or scores, a bad ``k``, or an unknown tie policy.

    See Also
    --------
    dcg_at_k

    Examples
    --------
    Gains 3, 0, 1 with the first two tied, k = 2: each of ranks 1 and 2 holds (3 + 0)/2 on
    average; the ideal ranking holds 3 and 1:

    >>> from prtheory.oracle.ndcg import dcg_terms
    >>> t = dcg_terms([3, 0, 1], [2, 2, 1], 2)
    >>> [str(w) for w in t.weights], [str(w) for w in t.ideal]
    (['3/2', '3/2'], ['3', '1'])
    """
    policy = check_ties(ties, doc_ids, _POLICIES)
    return _ranked_gains(y_true, y_score, k, policy, doc_ids)


def _working_precision(terms: DCGTerms, prec: int) -> int:
    return prec + 4 + (2 * len(terms.weights) + 15).bit_length()


def _discounted(values: Sequence[Fraction]) -> mpmath.mpf:
    """``sum_i values[i-1] / ln(i + 1)`` at the working precision, term by term."""
    prec = mpmath.mp.prec
    total = mpmath.mpf(0)
    for i, v in enumerate(values, start=1):
        if v:
            term = mpmath.mp.make_mpf(libmp.from_rational(v.numerator, v.denominator, prec, "n"))
            total += term / mpmath.log(i + 1)
    return total


def _final(value: mpmath.mpf, prec: int) -> mpmath.mpf:
    with mpmath.workprec(prec):
        return +value


def dcg_at_k(
    y_true: ExactArrayLike,
    y_score: ExactArrayLike,
    k: int | None = None,
    *,
    ties: str = "expected",
    doc_ids: Iterable[str] | None = None,
    dps: int = 50,
) -> Fraction | mpmath.mpf:
    """``DCG@k = sum_{i <= k} g_i / log2(i + 1)`` (module docstring): a Fraction when rational
    as the module docstring says, else an ``mpf`` at ``dps`` digits under the oracle contract.

    Example: gains ``[3, 0, 1]`` tied at the top two ranks: ranks 1 and 2 hold 3/2 each on
    average, so ``E[DCG@2] = 3/2 + (3/2)/log2(3)``.

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
    dps : int
        Digits of an ``mpf`` result (default 50).

    Returns
    -------
    Fraction or mpmath.mpf
        Exact when every nonzero term has a rational discount, else an ``mpf``.

    Raises
    ------
    InvalidInputError
        Malformed gains or scores, a bad ``k``, or an unknown tie policy.

    See Also
    --------
    ndcg_at_k, dcg_terms

    Examples
    --------
    Gains 1, 0, 1 ranked as given: 1/log2(2) + 0 + 1/log2(4) = 3/2, rational. The docstring's
    tied example, 3/2 + (3/2)/log2(3) with log2(3) = 1.5849625007211561815..., is
    1.5 + 0.9463946303571862... = 2.4463946303571862...:

    >>> from prtheory.oracle.ndcg import dcg_at_k
    >>> dcg_at_k([1, 0, 1], [3, 2, 1])
    Fraction(3, 2)
    >>> print(dcg_at_k([3, 0, 1], [2, 2, 1], 2, dps=15))
    2.44639463035719
    """
    terms = dcg_terms(y_true, y_score, k, ties=ties, doc_ids=doc_ids)
    exact = _dyadic_sum(terms.weights)
    if exact is not None:
        return exact
    prec = prec_of_dps(dps)
    with mpmath.workprec(_working_precision(terms, prec)):
        value = _discounted(terms.weights) * mpmath.ln2
    return _final(value, prec)


def ndcg_at_k(
    y_true: ExactArrayLike,
    y_score: ExactArrayLike,
    k: int | None = None,
    *,
    ties: str = "expected",
    doc_ids: Iterable[str] | None = None,
    dps: int = 50,
    convention: str | None = None,
) -> Fraction | mpmath.mpf:
    """``NDCG@k = DCG@k / IDCG@k`` (claim M2; module docstring), exact where rational, else an
    ``mpf`` at ``dps`` digits under the oracle contract.

    Undefined when every gain is 0 (``IDCG@k = 0``): :class:`UndefinedMetricError`, or 0 with
    ``convention="sklearn"`` (scikit-learn's ``ndcg_score`` scores such a list 0).

    Example: gains ``[1, 0, 1]`` with the first two tied: the tie holds gain 1/2 at ranks 1
    and 2 on average, so ``E[DCG] = 1/2 + (1/2)/log2(3) + 1/log2(4)``; the ideal ranking puts
    the two gains at ranks 1 and 2, ``IDCG = 1 + 1/log2(3)``, so
    ``E[NDCG] = (1 + (1/2)/log2(3))/(1 + 1/log2(3))``.

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
    dps : int
        Digits of an ``mpf`` result (default 50).
    convention : {None, "sklearn"}
        ``"sklearn"``: 0 when every gain is 0.

    Returns
    -------
    Fraction or mpmath.mpf
        Exact where rational, else an ``mpf``.

    Raises
    ------
    InvalidInputError
        Malformed gains or scores, a bad ``k``, or an unknown tie policy.
    UndefinedMetricError
        Every gain 0, without ``convention="sklearn"``.

    See Also
    --------
    dcg_at_k
    prtheory.metrics.ndcg_at_k : the float64 value.

    Examples
    --------
    A ranking that puts both gains first is ideal, NDCG = 1; with no gain at all scikit-learn's
    convention gives 0:

    >>> from prtheory.oracle.ndcg import ndcg_at_k
    >>> ndcg_at_k([1, 0, 1], [1, 0, 2])
    Fraction(1, 1)
    >>> ndcg_at_k([0, 0], [1, 2], convention="sklearn")
    Fraction(0, 1)
    """
    terms = dcg_terms(y_true, y_score, k, ties=ties, doc_ids=doc_ids)
    if not any(terms.ideal):
        return undefined(
            "NDCG@k", "every gain is 0 (IDCG@k = 0)", convention, {"sklearn": Fraction(0)}
        )
    exact = terms.ratio()
    if exact is not None:
        return exact
    prec = prec_of_dps(dps)
    with mpmath.workprec(_working_precision(terms, prec)):
        value = _discounted(terms.weights) / _discounted(terms.ideal)
    return _final(value, prec)
