"""Claim B6: the minimum average precision (Theorem 3), attained only by the worst ranking."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from fractions import Fraction

import sympy as sp

from prtheory.theory.boyd2012.formulas import (
    AP_MIN_TERM,
    SOURCE,
    i,
    min_precision,
    neg,
    pos,
    worst_ranking,
)
from prtheory.theory.checks import exact_function, exhaustive
from prtheory.theory.common import name, rankings
from prtheory.theory.domain import Domain, Integer, Meaning
from prtheory.theory.notes import average_precision
from prtheory.theory.registry import Proof, claim

# ==== B6 ======================================================================================


def derive_ap_min(pf: Proof, term: sp.Expr) -> None:
    """Sum the worst ranking's precisions; prove no ranking has lower AP (``term`` in i, neg).

    Parameters
    ----------
    pf : Proof
        The recorder.
    term : sympy expression
        The i-th summand to check (Theorem 3's ``i/(i + neg)``).

    Returns
    -------
    None

    Examples
    --------
    The i-th positive of the worst ranking sits at rank ``neg + i``: precision ``i/(i + neg)``,
    not ``i/(i + neg + 1)``, whose step fails (the whole derivation, with Theorem 3's summand,
    is claim B6: ``prtheory verify B6``):

    >>> from prtheory.theory.boyd2012.ap_min import derive_ap_min
    >>> from prtheory.theory.boyd2012.formulas import i, neg
    >>> from prtheory.theory.registry import Proof, StepFailed
    >>> try:
    ...     derive_ap_min(Proof(), i / (i + neg + 1))
    ... except StepFailed as exc:
    ...     print(str(exc).split(":")[0])
    Its precision is the summand of Theorem 3
    """
    pf.given(
        "AP of an untied ranking: the mean, over the pos positives, of the precision at each one's rank",
        sp.Eq(name("AP"), sp.Sum(name("P_j"), (sp.Symbol("j"), 1, pos)) / pos),
    )
    prec_i = pf.given(
        "In the worst ranking the i-th positive sits at rank neg + i with i positives at or above it",
        sp.Eq(name("P_i"), i / (neg + i)),
    ).rhs
    pf.equal("Its precision is the summand of Theorem 3", prec_i, term)
    pf.equal(
        "Slides' route: the summand is the Theorem 1 bound at recall r_i = i/pos, pi = pos/(pos+neg)",
        min_precision(i / pos, pos / (pos + neg)),
        term,
    )
    f_ = sp.Symbol("f", nonnegative=True)
    slack = sp.Symbol("s", nonnegative=True)
    termwise = pf.equal(
        "Any ranking: its i-th positive has some number f of negatives above it, 0 <= f <= neg, "
        "and precision i/(i + f); minus the worst ranking's",
        i / (i + f_) - i / (i + neg),
        i * (neg - f_) / ((i + f_) * (i + neg)),
    )
    pf.sign(
        "which is >= 0 (f = neg - s, s >= 0): each positive's precision is least in the worst "
        "ranking, term by term",
        termwise,
        ">=",
        {neg: f_ + slack},
        how="sign with neg = f + s, s >= 0",
    )
    termwise_step = len(pf.steps)
    k = sp.Symbol("k", positive=True, integer=True)
    m = sp.Symbol("m", nonnegative=True, integer=True)
    pf.given(
        "Exchange: a positive at rank k with m positives above it (so k >= m + 1) is directly "
        "followed by a negative; swap the two. The moved positive's precision goes from",
        sp.Tuple(
            sp.Eq(name("P_{before}"), (m + 1) / k), sp.Eq(name("P_{after}"), (m + 1) / (k + 1))
        ),
    )
    pf.equal(
        "Change of that precision",
        (m + 1) / (k + 1) - (m + 1) / k,
        -(m + 1) / (k * (k + 1)),
    )
    pf.sign(
        "So the swap lowers the moved positive's term of AP by (m + 1)/(pos k (k + 1)) > 0",
        (m + 1) / (pos * k * (k + 1)),
        ">",
    )
    pf.enumerated(
        "No other positive's precision changes (those above rank k keep rank and count; those "
        "below rank k + 1 keep rank and count), so the swap changes AP by exactly "
        "-(m + 1)/(pos k (k + 1)); and it removes exactly one (positive above negative) pair",
        sp.Eq(name(r"\Delta\mathrm{AP}"), -(m + 1) / (pos * k * (k + 1))),
        _swap_facts(),
    )
    exact_change = len(pf.steps)
    pf.enumerated(
        "A ranking with no positive directly above a negative is the worst ranking",
        name(r"\text{no adjacent (positive, negative)} \iff \text{worst ranking}"),
        _no_adjacent_pair_is_worst(),
    )
    worst = sp.Sum(prec_i, (i, 1, pos)) / pos
    pf.conclude(
        "Term by term every ranking's AP is at least the worst ranking's; equivalently, the "
        "(positive above negative) pairs are a non-negative integer count that each swap lowers "
        "by one, so from any ranking finitely many swaps reach the worst ranking, each lowering "
        "AP strictly. So the worst ranking is the unique minimiser, and AP_min is the mean of its "
        "precisions",
        sp.Eq(name(r"\mathrm{AP}_{\min}"), worst),
        [termwise_step, exact_change - 1, exact_change, exact_change + 1],
    )
    lemma = len(pf.steps)
    pf.equal(
        "The worst ranking's mean precision is the mean of the Theorem 3 summands",
        worst,
        sp.Sum(term, (i, 1, pos)) / pos,
    )
    pf.establish(
        "AP_min is the mean of the summands",
        sp.Eq(name(r"\mathrm{AP}_{\min}"), sp.Sum(term, (i, 1, pos)) / pos),
        [lemma, lemma + 1],
    )


def _inversions(labels: Sequence[int]) -> int:
    """The number of (positive above negative) pairs of a ranking."""
    negatives_below, count = labels.count(0), 0
    for y in labels:
        if y:
            count += negatives_below
        else:
            negatives_below -= 1
    return count


def _swap_facts(max_total: int = 12) -> tuple[bool, str]:
    """Every adjacent (positive, negative) swap, every ranking with n <= max_total: the AP change
    is exactly -(m + 1)/(pos k (k + 1)) and the inversion count drops by one."""

    def cases() -> Iterator[tuple[tuple[int, ...], int]]:
        for n in range(2, max_total + 1):
            for n_pos in range(1, n):
                for lab in rankings(n_pos, n - n_pos):
                    for k in range(1, n):
                        if lab[k - 1] == 1 and lab[k] == 0:
                            yield lab, k

    def ok(case: tuple[tuple[int, ...], int]) -> bool:
        lab, k = case
        swapped = (*lab[: k - 1], 0, 1, *lab[k + 1 :])
        m, n_pos = sum(lab[: k - 1]), sum(lab)
        change = average_precision(swapped) - average_precision(lab)
        return (
            change == -Fraction(m + 1, n_pos * k * (k + 1))
            and _inversions(swapped) == _inversions(lab) - 1
        )

    return exhaustive(
        cases(), ok, f"every swap in every ranking with 2 <= n <= {max_total}, AP in Fractions"
    )


def _no_adjacent_pair_is_worst(max_total: int = 12) -> tuple[bool, str]:
    cases = (
        lab
        for n in range(1, max_total + 1)
        for n_pos in range(1, n + 1)
        for lab in rankings(n_pos, n - n_pos)
    )
    return exhaustive(
        cases,
        lambda lab: (
            (not any(x == 1 and y == 0 for x, y in itertools.pairwise(lab)))
            == (lab == worst_ranking(sum(lab), len(lab) - sum(lab)))
        ),
        f"every ranking with 1 <= pos <= n <= {max_total}",
    )


def check_ap_min_enumeration(term: sp.Expr, max_total: int = 12) -> tuple[bool, str]:
    """Least AP over every ranking with pos + neg <= max_total equals (1/pos) sum term, uniquely.

    ``term`` is the i-th summand, an expression in ``i``, ``pos`` and ``neg``.

    Parameters
    ----------
    term : sympy expression
        The summand.
    max_total : int
        The largest ``pos + neg``.

    Returns
    -------
    tuple of (bool, str)
        :func:`~prtheory.theory.checks.exhaustive`'s outcome.

    Examples
    --------
    ``pos + neg = n`` with ``pos >= 1``: n choices each, ``1 + 2 + 3 + 4 + 5 = 15`` cases up to
    5; ``i/(i + neg + 1)`` fails at once (one positive alone has AP 1, not 1/2):

    >>> from prtheory.theory.boyd2012.ap_min import check_ap_min_enumeration
    >>> from prtheory.theory.boyd2012.formulas import AP_MIN_TERM, i, neg
    >>> check_ap_min_enumeration(AP_MIN_TERM, max_total=5)[1].split(":")[0]
    'holds in all 15 cases'
    >>> check_ap_min_enumeration(i / (i + neg + 1), max_total=5)
    (False, 'fails at (1, 0)')
    """
    summand = exact_function((i, pos, neg), term)

    def cases() -> Iterator[tuple[int, int]]:
        for n in range(1, max_total + 1):
            for n_pos in range(1, n + 1):
                yield n_pos, n - n_pos

    def ok(case: tuple[int, int]) -> bool:
        n_pos, n_neg = case
        claimed = sum((summand(j, n_pos, n_neg) for j in range(1, n_pos + 1)), Fraction(0)) / n_pos
        aps = {lab: average_precision(lab) for lab in rankings(n_pos, n_neg)}
        least = min(aps.values())
        argmin = [lab for lab, v in aps.items() if v == least]
        return least == claimed and argmin == [worst_ranking(n_pos, n_neg)]

    return exhaustive(
        cases(),
        ok,
        f"every ranking of every (pos >= 1, neg >= 0) with pos + neg <= {max_total}, AP in Fractions: "
        "the least AP is the formula and only the worst ranking attains it",
    )


def least_ap(n_pos: int, n_neg: int) -> Fraction:
    """The least AP over every untied ranking of ``n_pos`` positives and ``n_neg`` negatives, by
    enumeration (Fractions).

    Parameters
    ----------
    n_pos, n_neg : int
        The class sizes (``n_pos >= 1``).

    Returns
    -------
    Fraction
        AP_min.

    Examples
    --------
    Two positives, one negative: ``110`` has AP 1, ``101`` ``(1 + 2/3)/2 = 5/6``, ``011``
    ``(1/2 + 2/3)/2 = 7/12``, the least:

    >>> from prtheory.theory.boyd2012.ap_min import least_ap
    >>> least_ap(2, 1)
    Fraction(7, 12)
    """
    return min(average_precision(lab) for lab in rankings(n_pos, n_neg))


def least_ap_by_ranks(n_pos: int, n_neg: int) -> Fraction:
    """The least AP over every untied ranking, exactly, without enumerating the rankings.

    AP = (1/pos) sum_i i/r_i, where r_1 < ... < r_pos are the ranks of the positives (the i-th
    positive's precision is i/r_i). A ranking is a choice of those ranks in 1..pos + neg, and the
    least sum over every choice is found by dynamic programming over (i, r_i): ``best[r]`` is the
    least sum of the first i terms with r_i <= r. No ranking is assumed to be the worst one;
    O(pos (pos + neg)) Fraction operations. Equal to :func:`least_ap` wherever both are run.

    Parameters
    ----------
    n_pos, n_neg : int
        The class sizes (``n_pos >= 1``).

    Returns
    -------
    Fraction
        AP_min.

    Examples
    --------
    As :func:`least_ap` (7/12 for 2 and 1); one positive below two negatives: 1/3; three and
    three: ``(1/4 + 2/5 + 3/6)/3 = (15 + 24 + 30)/180 = 23/60``:

    >>> from prtheory.theory.boyd2012.ap_min import least_ap, least_ap_by_ranks
    >>> least_ap_by_ranks(2, 1), least_ap_by_ranks(1, 2), least_ap_by_ranks(3, 3)
    (Fraction(7, 12), Fraction(1, 3), Fraction(23, 60))
    >>> least_ap(3, 3)
    Fraction(23, 60)
    """
    n = n_pos + n_neg
    best = [Fraction(0)] * (n + 1)  # no positive placed yet: an empty sum, at any rank
    for k in range(1, n_pos + 1):
        here: list[Fraction | None] = [None] * (n + 1)
        for r in range(k, n - (n_pos - k) + 1):  # room for the positives after the k-th
            placed = best[r - 1] + Fraction(k, r)
            previous = here[r - 1]
            here[r] = placed if previous is None or placed < previous else previous
        best = [v if v is not None else Fraction(0) for v in here]
    return best[n] / n_pos


def ap_min_meaning(n_pos: sp.Symbol, n_neg: sp.Symbol, largest: int = 400) -> Meaning:
    """AP_min as a domain :class:`~prtheory.theory.domain.Meaning`: the least AP over every
    untied ranking at the point's ``n_pos`` and ``n_neg`` (:func:`least_ap_by_ranks`, declined
    beyond ``largest`` items). The registry evaluates B6's statement with it, never with the
    formula; a claim of one's own may use it too.

    Parameters
    ----------
    n_pos, n_neg : sympy.Symbol
        The domain's variables for the class sizes.
    largest : int
        The most items evaluated (beyond: None, out of reach).

    Returns
    -------
    Meaning
        The definition.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from prtheory.theory.boyd2012.ap_min import ap_min_meaning
    >>> from prtheory.theory.boyd2012.formulas import neg, pos
    >>> meaning = ap_min_meaning(pos, neg, largest=10)
    >>> meaning.fn({pos: Fraction(2), neg: Fraction(1)})  # see least_ap
    Fraction(7, 12)
    >>> print(meaning.fn({pos: Fraction(8), neg: Fraction(8)}))  # 16 items: beyond its reach
    None
    """

    def fn(point: dict) -> Fraction | None:
        a, b = int(point[n_pos]), int(point[n_neg])
        return None if a + b > largest else least_ap_by_ranks(a, b)

    return Meaning(
        fn,
        f"the least AP over every untied ranking of {n_pos} positives and {n_neg} negatives, "
        f"in Fractions (minimised over the ranks of the positives, up to {largest} items)",
    )


@claim(
    "B6",
    source=f"{SOURCE} (000 §2.2, 001)",
    location="Theorem 3",
    title="Minimum average precision, attained only by the worst ranking",
    statement=lambda: sp.Eq(name(r"\mathrm{AP}_{\min}"), sp.Sum(AP_MIN_TERM, (i, 1, pos)) / pos),
    assumptions=("pos >= 1 positives, neg >= 0 negatives, untied scores",),
    domain=Domain(
        Integer(pos, 1),
        Integer(neg, 0),
        define={name(r"\mathrm{AP}_{\min}"): ap_min_meaning(pos, neg)},
        exhaustive=11,
        samples=20,
    ),
)
def _b6(pf: Proof) -> None:
    v11 = pf.obtain(
        "pos = neg = 1 (pi = 1/2)",
        sp.Eq(name(r"\mathrm{AP}_{\min}(1, 1)"), sp.summation(AP_MIN_TERM.subs(neg, 1), (i, 1, 1))),
        "summation",
    ).rhs
    v22 = pf.obtain(
        "pos = neg = 2 (pi = 1/2 as well)",
        sp.Eq(
            name(r"\mathrm{AP}_{\min}(2, 2)"),
            sp.summation(AP_MIN_TERM.subs(neg, 2), (i, 1, 2)) / 2,
        ),
        "summation",
    ).rhs
    pf.true(
        "Same skew, different AP_min: it depends on pos, not only on pi",
        sp.Ne(v11, v22, evaluate=False),
        "comparison",
    )
    derive_ap_min(pf, AP_MIN_TERM)
    pf.check("enumeration", "All rankings, exact", check_ap_min_enumeration(AP_MIN_TERM))
