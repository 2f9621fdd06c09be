"""Claims X1-X3: the project's own results beyond the documents (same verdict rules).

* X1 -- the expected AP of a uniformly random ranking, in closed form;
* X2 -- the power series of AUCPR_min and a bound on its remainder (for accurate evaluation at
  skews near 0 and 1);
* X3 -- AP_min through harmonic numbers (and digamma), usable for huge class counts.

As in :mod:`prtheory.theory.boyd2012`, each derivation function (``derive_expected_ap``,
``derive_series``, ``derive_harmonic_form``) and each check function (``check_expected_ap``,
``check_series_remainder``, ``check_harmonic_form``) takes the candidate formula, so the tests can
run them on wrong variants.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import mpmath
import sympy as sp

from prtheory.theory.boyd2012 import (
    aucpr_min,
    mp_aucpr_min,
    pi,
    sum_value,
    unit_branch,
)
from prtheory.theory.checks import exhaustive
from prtheory.theory.common import name, rankings
from prtheory.theory.domain import Domain, Integer, Meaning, Real
from prtheory.theory.notes import average_precision
from prtheory.theory.registry import Proof, claim

SOURCE = "beyond the documents"

n = sp.Symbol("n", positive=True, integer=True)
k = sp.Symbol("k", positive=True, integer=True)
K = sp.Symbol("K", positive=True, integer=True)
i = sp.Symbol("i", positive=True, integer=True)
pos, neg = sp.symbols("pos neg", positive=True, integer=True)


# ==== X1 ======================================================================================
E_AP = name(r"E[\mathrm{AP}]")


def mean_ap(point: dict) -> Fraction | None:
    """E[AP] by enumeration of every ranking (None beyond 14 items).

    Parameters
    ----------
    point : dict
        The domain's point: ``n`` items, ``pos`` positives.

    Returns
    -------
    Fraction or None
        The mean AP over every ranking (None beyond 14 items).

    Examples
    --------
    One positive among 3: AP is 1, 1/2 or 1/3, mean ``11/18``:

    >>> from fractions import Fraction
    >>> from prtheory.theory.extras import mean_ap, n, pos
    >>> mean_ap({n: Fraction(3), pos: Fraction(1)})
    Fraction(11, 18)
    >>> print(mean_ap({n: Fraction(15), pos: Fraction(1)}))
    None
    """
    total, n_pos = int(point[n]), int(point[pos])
    if total > 14:
        return None
    aps = [average_precision(lab) for lab in rankings(n_pos, total - n_pos)]
    return sum(aps, Fraction(0)) / len(aps)


#: E[AP] of a uniformly random untied ranking of pos positives among n >= 2 items (X1).
EXPECTED_AP = pos / n + (1 - pos / n) * (sp.harmonic(n) - 1) / (n - 1)


def derive_expected_ap(pf: Proof, candidate: sp.Expr) -> sp.Expr:
    """Linearity of expectation over ranks and pairs of ranks; the sum must equal ``candidate``.

    Parameters
    ----------
    pf : Proof
        The recorder.
    candidate : sympy expression
        E[AP] in ``pos`` and ``n``.

    Returns
    -------
    sympy expression
        The derived E[AP].

    Examples
    --------
    X1's ``pos/n + (1 - pos/n)(H_n - 1)/(n - 1)``; at pos = 1, n = 3:
    ``1/3 + (2/3)(11/6 - 1)/2 = 1/3 + 5/18 = 11/18`` (see :func:`mean_ap`):

    >>> from prtheory.theory.extras import EXPECTED_AP, derive_expected_ap, n, pos
    >>> from prtheory.theory.registry import Proof
    >>> pf = Proof()
    >>> derived = derive_expected_ap(pf, EXPECTED_AP)
    >>> [s.verified for s in pf.steps].count(False), EXPECTED_AP.subs({pos: 1, n: 3})
    (0, 11/18)
    """
    rel = sp.IndexedBase("y")
    j = sp.Symbol("j", positive=True, integer=True)
    pf.given(
        "AP of an untied ranking with relevance y_k in {0, 1} at rank k",
        sp.Eq(
            name(r"\mathrm{AP}"), sp.Sum(rel[k] * sp.Sum(rel[j], (j, 1, k)) / k, (k, 1, n)) / pos
        ),
    )
    y = sp.Symbol("y", real=True)
    pf.true(
        "A relevance y satisfies y^2 = y exactly when y is 0 or 1",
        sp.Eq(sp.solveset(sp.Eq(y**2, y), y, sp.S.Reals), sp.FiniteSet(0, 1)),
        "solveset over the reals",
        shown=sp.Eq(
            sp.ConditionSet(y, sp.Eq(y**2, y), sp.S.Reals), sp.FiniteSet(0, 1), evaluate=False
        ),
    )
    pf.conclude(
        "So the j = k term y_k y_k is y_k, and each summand splits into a single and a sum over "
        "pairs",
        sp.Eq(rel[k] * sp.Sum(rel[j], (j, 1, k)), rel[k] + sp.Sum(rel[j] * rel[k], (j, 1, k - 1))),
        [1, len(pf.steps)],
    )
    pf.enumerated(
        "A uniformly random ranking puts a positive at any given rank with probability pos/n, and "
        "positives at two given ranks with probability pos(pos - 1)/(n(n - 1)) (each of the "
        "C(n, pos) position sets is equally likely; by symmetry no rank is special)",
        sp.Tuple(
            sp.Eq(name(r"E[y_{k}]"), pos / n),
            sp.Eq(name(r"E[y_{j} y_{k}]"), pos * (pos - 1) / (n * (n - 1))),
        ),
        _rank_probabilities(),
    )
    term = (pos / n + (k - 1) * pos * (pos - 1) / (n * (n - 1))) / k
    expected = sp.simplify(sp.summation(term, (k, 1, n)) / pos)
    pf.value(
        "By linearity of expectation, summing over k = 1..n (sympy summation)",
        sp.Sum(term, (k, 1, n)) / pos,
        candidate,
        "summation",
        computed=expected,
    )
    pf.conclude(
        "So E[AP], the expectation of the AP above over a uniformly random ranking, is that sum",
        sp.Eq(E_AP, candidate),
        [len(pf.steps) - 3, len(pf.steps)],
    )
    excess = (sp.harmonic(n) - 1) / (n - 1)
    pf.value(
        "For large n at fixed pi the excess over pi vanishes",
        sp.Limit(excess, n, sp.oo),
        0,
        "limit",
    )
    return expected


def _rank_probabilities(max_n: int = 9) -> tuple[bool, str]:
    """Over all C(n, pos) rankings: P(y_k = 1) = pos/n and P(y_j = y_k = 1) = pos(pos-1)/(n(n-1))."""

    def ok(case: tuple[int, int]) -> bool:
        n_pos, total = case
        labs = list(rankings(n_pos, total - n_pos))
        single = Fraction(n_pos, total)
        pair = Fraction(n_pos * (n_pos - 1), total * (total - 1))
        return all(
            Fraction(sum(lab[kk] for lab in labs), len(labs)) == single for kk in range(total)
        ) and all(
            Fraction(sum(lab[jj] * lab[kk] for lab in labs), len(labs)) == pair
            for jj in range(total)
            for kk in range(jj + 1, total)
        )

    cases = [(n_pos, total) for total in range(2, max_n + 1) for n_pos in range(1, total + 1)]
    return exhaustive(
        cases,
        ok,
        f"every rank and pair of ranks, every (pos, n) with 2 <= n <= {max_n}, in Fractions",
    )


def check_expected_ap(candidate: sp.Expr, max_n: int = 10) -> tuple[bool, str]:
    """Mean AP over every distinct ranking (each equally likely) equals ``candidate``, exactly.

    Parameters
    ----------
    candidate : sympy expression
        E[AP] in ``pos`` and ``n``.
    max_n : int
        The largest n.

    Returns
    -------
    tuple of (bool, str)
        :func:`~prtheory.theory.checks.exhaustive`'s outcome.

    Examples
    --------
    ``2 + 3 + 4 + 5 = 14`` pairs (pos, n) up to n = 5; ``pos/n`` fails at pos = 1, n = 2
    (E[AP] = (1 + 1/2)/2 = 3/4):

    >>> from prtheory.theory.extras import EXPECTED_AP, check_expected_ap, n, pos
    >>> check_expected_ap(EXPECTED_AP, max_n=5)[1].split(":")[0]
    'holds in all 14 cases'
    >>> check_expected_ap(pos / n, max_n=5)
    (False, 'fails at (1, 2)')
    """

    def cases():
        for total in range(2, max_n + 1):
            for n_pos in range(1, total + 1):
                yield n_pos, total

    def ok(case: tuple[int, int]) -> bool:
        n_pos, total = case
        aps = [average_precision(lab) for lab in rankings(n_pos, total - n_pos)]
        mean = sum(aps, Fraction(0)) / len(aps)
        want = candidate.subs({pos: n_pos, n: total})
        return want.is_Rational and Fraction(int(want.p), int(want.q)) == mean

    return exhaustive(
        cases(),
        ok,
        f"every (pos, n) with 2 <= n <= {max_n}: the mean of AP over all C(n, pos) rankings (a uniform "
        "ranking makes each equally likely), in Fractions",
    )


@claim(
    "X1",
    source=SOURCE,
    location="expected AP of a random ranking",
    title="Expected AP of a uniformly random ranking",
    statement=lambda: sp.Eq(E_AP, EXPECTED_AP.subs(pos, pi * n), evaluate=False),
    assumptions=(
        "n = pos + neg >= 2 items, pos >= 1 positives, untied scores; every order equally likely",
        "pi = pos/n; with n = 1 the only ranking has AP = 1",
    ),
    domain=Domain(
        Integer(n, 2),
        Integer(pos, 1, n),
        define={
            pi: pos / n,
            E_AP: Meaning(
                mean_ap,
                "the mean of AP over every distinct ranking of pos positives among n items "
                "(each equally likely), in Fractions (enumerated up to n = 14)",
            ),
        },
        exhaustive=10,
        samples=20,
    ),
    note="E[AP] = pi + (1 - pi)(H_n - 1)/(n - 1), equivalently ((pos - 1) n + neg H_n)/(n (n - 1)): "
    "a random ranking's AP exceeds the skew by about (1 - pi) ln(n)/n, so AP (unlike the "
    "continuous random-guessing AUCPR of B9) does not equal pi for random scores.",
)
def _x1(pf: Proof) -> None:
    expected = derive_expected_ap(pf, EXPECTED_AP)
    lemma = len(pf.steps) - 1
    pf.equal(
        "Equivalently",
        expected,
        ((pos - 1) * n + (n - pos) * sp.harmonic(n)) / (n * (n - 1)),
    )
    pf.establish(
        "E[AP] as sympy summed it, written with pi = pos/n",
        sp.Eq(E_AP, EXPECTED_AP.subs(pos, pi * n), evaluate=False),
        [lemma],
    )
    pf.check("enumeration", "All rankings of small data sets", check_expected_ap(EXPECTED_AP))


# ==== X2 ======================================================================================

#: The coefficient of pi^k in the series of AUCPR_min (X2).
SERIES_COEFFICIENT = 1 / (k * (k + 1))


def remainder_bounds(skew: mpmath.mpf, terms: int) -> tuple[mpmath.mpf, mpmath.mpf]:
    """Bounds on sum_{k > K} pi^k/(k(k+1)) for K = ``terms``: [first omitted term, first/(1 - pi)].

    Parameters
    ----------
    skew : mpmath.mpf
        pi.
    terms : int
        K.

    Returns
    -------
    tuple of (mpmath.mpf, mpmath.mpf)
        The lower and upper bound.

    Examples
    --------
    pi = 1/2, K = 2: ``(1/2)^3/(3 * 4) = 1/96`` and ``(1/96)/(1/2) = 1/48``:

    >>> import mpmath
    >>> from prtheory.theory.extras import remainder_bounds
    >>> low, high = remainder_bounds(mpmath.mpf(1) / 2, 2)
    >>> low == mpmath.mpf(1) / 96, high == mpmath.mpf(1) / 48
    (True, True)
    """
    first = mpmath.mpf(skew) ** (terms + 1) / ((terms + 1) * (terms + 2))
    return first, first / (1 - skew)


def derive_series(pf: Proof, coefficient: sp.Expr) -> None:
    """Expand AUCPR_min in powers of pi from the log series; ``coefficient`` is the k-th one.

    Parameters
    ----------
    pf : Proof
        The recorder.
    coefficient : sympy expression
        The k-th coefficient to check (X2's ``1/(k (k + 1))``).

    Returns
    -------
    None

    Examples
    --------
    ``1/k^2`` is not the coefficient: the first term of the series is ``pi/2``
    (``1/(1 * 2)``), not ``pi`` (the whole derivation is claim X2: ``prtheory verify X2``):

    >>> from prtheory.theory.extras import derive_series, k
    >>> from prtheory.theory.registry import Proof, StepFailed
    >>> try:
    ...     derive_series(Proof(), 1 / k**2)
    ... except StepFailed as exc:
    ...     print(str(exc).split(":")[0])
    c_{k+1} is the series coefficient a_k
    """
    j = sp.Symbol("j", positive=True, integer=True)
    sum_value(pf, "Mercator series, 0 < pi < 1", pi**j / j, (j, 1, sp.oo), -sp.log(1 - pi))
    shifted = sum_value(
        pf,
        "Multiplied by pi, with the index shifted (k = j + 1)",
        pi**k / (k - 1),
        (k, 2, sp.oo),
        -pi * sp.log(1 - pi),
    )
    tail = sum_value(
        pf, "and without its first term", pi**k / k, (k, 2, sp.oo), -sp.log(1 - pi) - pi
    )
    c_k = 1 / (k - 1) - 1 / k
    pf.equal(
        "So (1 - pi) ln(1 - pi) = -ln(1 - pi) + pi ln(1 - pi) is -pi plus a power series with "
        "coefficients c_k = 1/(k - 1) - 1/k: the two sums above, subtracted",
        shifted - tail - pi,
        (1 - pi) * sp.log(1 - pi),
        shown=sp.Eq(
            (1 - pi) * sp.log(1 - pi), -pi + sp.Sum(c_k * pi**k, (k, 2, sp.oo)), evaluate=False
        ),
    )
    split = len(pf.steps)
    pf.equal("where", c_k, 1 / (k * (k - 1)))
    pf.conclude(
        "Dividing by pi cancels the -pi against the 1 in AUCPR_min = 1 + (1 - pi) ln(1 - pi)/pi and "
        "shifts k -> k + 1: the coefficient of pi^k in AUCPR_min is c_{k+1}",
        sp.Eq(name(r"\mathrm{AUCPR}_{\min}"), sp.Sum(name("c_{k+1}") * pi**k, (k, 1, sp.oo))),
        [split, split + 1],
    )
    pf.equal(
        "c_{k+1} is the series coefficient a_k", (1 / (k * (k - 1))).subs(k, k + 1), coefficient
    )
    total = sum_value(
        pf,
        "Summing the series back (0 < pi < 1) gives the closed form",
        coefficient * pi**k,
        (k, 1, sp.oo),
        aucpr_min(pi),
    )
    summed = len(pf.steps)
    taylor = sp.series(aucpr_min(pi), pi, 0, 9).removeO()
    pf.true(
        "sympy's Taylor expansion of the closed form agrees in its first 8 coefficients",
        sp.And(
            *(
                sp.Eq(taylor.coeff(pi, kk), coefficient.subs(k, kk), evaluate=False)
                for kk in range(1, 9)
            ),
            evaluate=False,
        ),
        "series",
        shown=sp.Eq(name(r"\mathrm{AUCPR}_{\min}"), taylor + sp.O(pi**9)),
    )
    geometric = pf.obtain(
        "Tail of the geometric series (sympy summation, 0 < pi < 1)",
        sp.Eq(name(r"\sum_{k > K} \pi^k"), unit_branch(sp.summation(pi**k, (k, K + 1, sp.oo)))),
        "summation",
    ).rhs
    tail_step = len(pf.steps)
    pf.sign(
        "Every term a_k pi^k of the remainder R_K = sum_{k > K} a_k pi^k is positive, so R_K is at "
        "least its first term",
        coefficient * pi**k,
        ">",
        how="sign from the positivity assumptions (k >= 1, 0 < pi)",
    )
    shift = sp.Symbol("j", nonnegative=True, integer=True)
    pf.sign(
        "The coefficients decrease: a_{K+1} - a_{K+1+j} >= 0 for j >= 0, so each term of R_K is at "
        "most a_{K+1} pi^k",
        coefficient.subs(k, K + 1) - coefficient.subs(k, K + 1 + shift),
        ">=",
        how="sign from the assumptions K >= 1, j >= 0 (factored)",
    )
    pf.conclude(
        "So the remainder after K terms lies between its first term and a_{K+1} times the "
        "geometric tail",
        sp.And(
            sp.Le(coefficient.subs(k, K + 1) * pi ** (K + 1), name("R_K")),
            sp.Le(name("R_K"), coefficient.subs(k, K + 1) * geometric),
        ),
        [tail_step, tail_step + 1, tail_step + 2],
    )
    sum_value(
        pf,
        "At pi = 1 the series telescopes: the remainder after K terms is",
        coefficient,
        (k, K + 1, sp.oo),
        1 / (K + 1),
    )
    sum_value(pf, "and the whole sum is 1, the convention of B5", coefficient, (k, 1, sp.oo), 1)
    pf.establish(
        "The series with these coefficients sums (sympy) to the function on the left",
        sp.Eq(aucpr_min(pi), sp.Sum(coefficient * pi**k, (k, 1, sp.oo)), evaluate=False),
        [summed],
    )
    del total


def float64_terms(max_skew: Fraction = Fraction(1, 2)) -> int:
    """Fewest terms K whose remainder is below 2^-53 of AUCPR_min for every pi <= max_skew.

    AUCPR_min >= pi/2 (its first term), so the relative remainder is at most
    2 pi^K / ((K + 1)(K + 2)(1 - pi)), increasing in pi; evaluated exactly at pi = max_skew.

    Parameters
    ----------
    max_skew : Fraction
        The largest pi.

    Returns
    -------
    int
        K.

    Examples
    --------
    At pi = 1/2 the condition is ``4 * 2^-K/((K + 1)(K + 2)) <= 2^-53``, that is
    ``2^(55 - K) <= (K + 1)(K + 2)``: false at K = 43 (``4096 > 44 * 45 = 1980``), true at
    K = 44 (``2048 <= 45 * 46 = 2070``):

    >>> from prtheory.theory.extras import float64_terms
    >>> float64_terms()
    44
    """
    terms = 1
    while 2 * max_skew**terms / ((terms + 1) * (terms + 2) * (1 - max_skew)) > Fraction(1, 2**53):
        terms += 1
    return terms


def check_series_remainder(coefficient: sp.Expr, dps: int = 60) -> tuple[bool, str]:
    """mpmath: the closed form minus K terms of the series lies within the remainder bounds.

    Parameters
    ----------
    coefficient : sympy expression
        The k-th coefficient.
    dps : int
        mpmath's working precision.

    Returns
    -------
    tuple of (bool, str)
        Whether every case lies within the bounds, and the detail.

    Examples
    --------
    ``1/(k (k + 2))`` is not the series (its first term ``pi/3`` is not ``pi/2``):

    >>> from prtheory.theory.extras import SERIES_COEFFICIENT, check_series_remainder, k
    >>> check_series_remainder(SERIES_COEFFICIENT)[0]
    True
    >>> check_series_remainder(1 / (k * (k + 2)))[0]
    False
    """
    coef = sp.lambdify(k, coefficient, "mpmath")
    skews = ["1e-12", "1e-6", "0.01", "0.1", "0.3", "0.5", "0.7", "0.9", "0.99", "0.999"]
    term_counts = [1, 2, 3, 5, 10, 20, 50]
    checked = 0
    with mpmath.workdps(dps):
        slack = mpmath.mpf(10) ** (-(dps - 5))  # rounding of the partial sums at dps digits
        for s in skews:
            skew = mpmath.mpf(s)
            exact = mp_aucpr_min(skew)
            partial = mpmath.mpf(0)
            power = mpmath.mpf(1)
            for kk in range(1, max(term_counts) + 1):
                power *= skew
                partial += coef(mpmath.mpf(kk)) * power
                if kk in term_counts:
                    lo, hi = remainder_bounds(skew, kk)
                    rest = exact - partial
                    if not (lo - slack <= rest <= hi + slack):
                        return False, (
                            f"pi = {s}, K = {kk}: remainder {mpmath.nstr(rest, 8)} outside "
                            f"[{mpmath.nstr(lo, 8)}, {mpmath.nstr(hi, 8)}]"
                        )
                    checked += 1
    return True, (
        f"{checked} cases (pi from 1e-12 to 0.999, K in {term_counts}) at {dps} digits: the closed form "
        "minus K terms lies between the first omitted term and that term over (1 - pi)"
    )


@claim(
    "X2",
    source=SOURCE,
    location="series of AUCPR_min",
    title="AUCPR_min as a power series in the skew, with a remainder bound",
    statement=lambda: sp.Eq(aucpr_min(pi), sp.Sum(SERIES_COEFFICIENT * pi**k, (k, 1, sp.oo))),
    assumptions=("0 < pi < 1 (at pi = 1 the series sums to the convention 1)",),
    domain=Domain(Real(pi, 0, 1, open_lo=True, open_hi=True), samples=20),
    note="Remainder after K terms: between pi^(K+1)/((K+1)(K+2)) and that over (1 - pi). For "
    f"float64 at pi <= 1/2, K = {float64_terms()} terms leave a relative remainder below 2^-53; "
    "the closed form loses digits as pi -> 0 (1 + (1 - pi) ln(1 - pi)/pi cancels), the series does "
    "not.",
)
def _x2(pf: Proof) -> None:
    derive_series(pf, SERIES_COEFFICIENT)
    pf.check(
        "numeric",
        "Partial sums against the closed form",
        check_series_remainder(SERIES_COEFFICIENT),
    )


# ==== X3 ======================================================================================

#: AP_min in harmonic numbers (X3).
AP_MIN_HARMONIC = 1 - neg / pos * (sp.harmonic(pos + neg) - sp.harmonic(neg))


def derive_harmonic_form(pf: Proof, candidate: sp.Expr) -> None:
    """From Theorem 3's sum to harmonic numbers by induction on pos; it must equal ``candidate``.

    Parameters
    ----------
    pf : Proof
        The recorder.
    candidate : sympy expression
        AP_min in harmonic numbers (X3's ``1 - (neg/pos)(H_{pos+neg} - H_neg)``).

    Returns
    -------
    None

    Examples
    --------
    >>> from prtheory.theory.extras import AP_MIN_HARMONIC, derive_harmonic_form
    >>> from prtheory.theory.registry import Proof
    >>> pf = Proof()
    >>> derive_harmonic_form(pf, AP_MIN_HARMONIC)
    >>> len(pf.steps), [s.verified for s in pf.steps].count(False)
    (9, 0)
    """
    pf.given(
        "Theorem 3 (B6)",
        sp.Eq(name(r"\mathrm{AP}_{\min}"), sp.Sum(i / (i + neg), (i, 1, pos)) / pos),
    )
    pf.equal("Each summand", i / (i + neg), 1 - neg / (i + neg))
    h = sp.harmonic(pos + neg) - sp.harmonic(neg)
    pf.value(
        "Claim: S(pos), the sum of 1/(neg + i) over i = 1..pos, is H(pos + neg) - H(neg). At "
        "pos = 0 both sides are 0",
        name(r"H_{0 + neg} - H_{neg}"),
        0,
        "subs",
        computed=h.subs(pos, 0),
    )
    pf.equal(
        "and both grow by 1/(neg + pos) from pos - 1 to pos, so they agree for every pos (induction)",
        h - h.subs(pos, pos - 1),
        1 / (neg + pos),
    )
    induction = len(pf.steps)
    pf.conclude(
        "So, summing the summands over i = 1..pos (pos minus neg times S(pos)), and by induction "
        "on pos for S(pos)",
        sp.Eq(sp.Sum(i / (i + neg), (i, 1, pos)) / pos, 1 - neg / pos * h, evaluate=False),
        [induction - 2, induction - 1, induction],
    )
    lemma = len(pf.steps)
    pf.equal("Hence the harmonic form", 1 - neg / pos * h, candidate)
    m = sp.Symbol("m", nonnegative=True, integer=True)
    pf.value(
        "Harmonic numbers through digamma (sympy rewrite)",
        name("H_{m}"),
        sp.digamma(m + 1) + sp.EulerGamma,
        "rewrite",
        computed=sp.harmonic(m).rewrite(sp.digamma),
    )
    pf.value(
        "so the digamma form, usable for huge pos and neg, is",
        name(r"\mathrm{AP}_{\min}"),
        1 - neg / pos * (sp.digamma(pos + neg + 1) - sp.digamma(neg + 1)),
        "rewrite",
        computed=candidate.rewrite(sp.digamma),
    )
    pf.establish(
        "Theorem 3's sum in harmonic numbers",
        sp.Eq(sp.Sum(i / (i + neg), (i, 1, pos)) / pos, candidate, evaluate=False),
        [lemma, lemma + 1],
    )


def check_harmonic_form(candidate: sp.Expr, max_count: int = 25) -> tuple[bool, str]:
    """The candidate equals the direct sum (1/pos) sum i/(i+neg), exactly, for small pos and neg.

    Parameters
    ----------
    candidate : sympy expression
        AP_min in ``pos`` and ``neg``.
    max_count : int
        The largest pos and neg.

    Returns
    -------
    tuple of (bool, str)
        :func:`~prtheory.theory.checks.exhaustive`'s outcome.

    Examples
    --------
    ``5 * 6 = 30`` cases; without ``- H_neg`` the form fails at pos = neg = 1
    (``1 - (3/2) = -1/2``, not ``1/2``):

    >>> import sympy as sp
    >>> from prtheory.theory.extras import AP_MIN_HARMONIC, check_harmonic_form, neg, pos
    >>> check_harmonic_form(AP_MIN_HARMONIC, max_count=5)[1].split(":")[0]
    'holds in all 30 cases'
    >>> check_harmonic_form(1 - neg / pos * sp.harmonic(pos + neg), max_count=5)
    (False, 'fails at (1, 1)')
    """

    def ok(case: tuple[int, int]) -> bool:
        n_pos, n_neg = case
        direct = sum((Fraction(j, j + n_neg) for j in range(1, n_pos + 1)), Fraction(0)) / n_pos
        got = candidate.subs({pos: n_pos, neg: n_neg})
        return got.is_Rational and Fraction(int(got.p), int(got.q)) == direct

    cases = [(a, b) for a in range(1, max_count + 1) for b in range(0, max_count + 1)]
    return exhaustive(
        cases,
        ok,
        f"1 <= pos <= {max_count}, 0 <= neg <= {max_count}, against the direct sum in Fractions",
    )


def mp_ap_min(n_pos: int, n_neg: int) -> mpmath.mpf:
    """AP_min = 1 - (neg/pos)(psi(pos + neg + 1) - psi(neg + 1)) at the current mpmath precision.

    Parameters
    ----------
    n_pos, n_neg : int
        The class sizes.

    Returns
    -------
    mpmath.mpf
        AP_min.

    Examples
    --------
    Two positives, one negative: ``1 - (1/2)(H_3 - H_1) = 1 - (1/2)(5/6) = 7/12`` (see
    :func:`~prtheory.theory.boyd2012.ap_min.least_ap`):

    >>> import mpmath
    >>> from prtheory.theory.extras import mp_ap_min
    >>> with mpmath.workdps(30):
    ...     print(mpmath.nstr(mp_ap_min(2, 1), 25), mpmath.nstr(mpmath.mpf(7) / 12, 25))
    0.5833333333333333333333333 0.5833333333333333333333333
    """
    n_pos, n_neg = mpmath.mpf(n_pos), mpmath.mpf(n_neg)
    return 1 - n_neg / n_pos * (mpmath.digamma(n_pos + n_neg + 1) - mpmath.digamma(n_neg + 1))


def check_huge_counts(
    ap_min: Callable[[int, int], mpmath.mpf] = mp_ap_min, dps: int = 60
) -> tuple[bool, str]:
    """For huge pos, neg the digamma form matches the Euler-Maclaurin expansion of the Riemann sum.

    AP_min is the right Riemann sum (1/pos) sum_i f(i/pos) of the bound f(r) = pi r/(1 - pi + pi r)
    (B6), so AP_min = AUCPR_min + (f(1) - f(0))/(2 pos) + (f'(1) - f'(0))/(12 pos^2) + O(pos^-4),
    with f(1) = pi, f(0) = 0, f'(0) = pi/(1 - pi), f'(1) = pi (1 - pi). For pi <= 1/2 the O(pos^-4)
    term is below 1/pos^4 (its coefficient is (f'''(1) - f'''(0))/720, under 0.01 there).

    Parameters
    ----------
    ap_min : callable
        AP_min of (pos, neg) at the current mpmath precision.
    dps : int
        mpmath's working precision.

    Returns
    -------
    tuple of (bool, str)
        Whether every case agrees, and the detail.

    Examples
    --------
    The digamma form agrees; one shifted by ``10^-12`` does not (at pos = 10^9 the allowance
    is ``1/pos^4 = 10^-36``):

    >>> import mpmath
    >>> from prtheory.theory.extras import check_huge_counts, mp_ap_min
    >>> check_huge_counts()[0]
    True
    >>> check_huge_counts(lambda a, b: mp_ap_min(a, b) + mpmath.mpf(10) ** -12)[0]
    False
    """
    rows = []
    with mpmath.workdps(dps):
        for n_pos, n_neg in (
            (10**3, 10**3),
            (10**3, 9 * 10**3),
            (10**9, 9 * 10**9),
            (10**15, 10**15),
            (10**15, 9 * 10**15),
            (10**18, 3 * 10**18),
        ):
            skew = mpmath.mpf(n_pos) / (n_pos + n_neg)
            expansion = (
                mp_aucpr_min(skew)
                + skew / (2 * n_pos)
                + (skew * (1 - skew) - skew / (1 - skew)) / (12 * mpmath.mpf(n_pos) ** 2)
            )
            err = abs(ap_min(n_pos, n_neg) - expansion)
            tol = 1 / mpmath.mpf(n_pos) ** 4 + mpmath.mpf(10) ** (-(dps - 5))
            if err > tol:
                return (
                    False,
                    f"pos={n_pos}, neg={n_neg}: |difference| {mpmath.nstr(err, 5)} > {mpmath.nstr(tol, 5)}",
                )
            rows.append(f"({n_pos:.0e}, {n_neg:.0e}): {mpmath.nstr(err, 3)}")
    return True, (
        f"at {dps} digits the digamma form differs from the Euler-Maclaurin expansion by at most "
        "1/pos^4 (+ rounding) for (pos, neg) = " + ", ".join(rows)
    )


@claim(
    "X3",
    source=SOURCE,
    location="AP_min in harmonic numbers",
    title="AP_min through harmonic numbers and digamma",
    statement=lambda: sp.Eq(sp.Sum(i / (i + neg), (i, 1, pos)) / pos, AP_MIN_HARMONIC),
    assumptions=("pos >= 1, neg >= 0 integers; H(m) = 1 + 1/2 + ... + 1/m, H(0) = 0",),
    domain=Domain(Integer(pos, 1), Integer(neg, 0), exhaustive=40, samples=60),
)
def _x3(pf: Proof) -> None:
    derive_harmonic_form(pf, AP_MIN_HARMONIC)
    pf.check("exact", "Against Theorem 3's sum", check_harmonic_form(AP_MIN_HARMONIC))
    pf.check("numeric", "Huge class counts (digamma form, mpmath)", check_huge_counts())
