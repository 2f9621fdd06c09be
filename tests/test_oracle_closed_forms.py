"""Skew-level closed forms of the oracle (B1, B3-B11, X1-X3).

Independent references: values derived by hand, mpmath quadrature of the Theorem 1 bound,
brute-force enumeration of rankings (AP by its definition, ``prtheory.theory.brute.ir_ap``), the series X2, and the numbers printed in the papers
(checked under their printed rounding).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import pytest

from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle import closed_forms as cf
from prtheory.oracle.rounding import exact_rational, prec_of_dps
from prtheory.theory.brute import ir_ap

Q = exact_rational  # compare mpf results with Fractions exactly


def rel(x, y) -> Fraction:
    """Exact relative difference of two values (mpf, Fraction or int)."""
    return abs((Q(x) - Q(y)) / Q(y))


def bits(k: int) -> Fraction:
    return Fraction(1, 2**k)


def digits(k: int) -> Fraction:
    return Fraction(1, 10**k)


def rankings(pos: int, neg: int):
    n = pos + neg
    for where in itertools.combinations(range(n), pos):
        yield tuple(i in where for i in range(n))


# ---------------------------------------------------------------------------------------------
# B1, B3


def test_b3_table_one():
    """pos=100, neg=200 (pi = 1/3): (0.5, 0.2) is on the bound, (0.6, 0.2) is below it."""
    pi = Fraction(1, 3)
    assert cf.min_precision(Fraction(1, 2), pi) == Fraction(1, 5)
    assert cf.min_precision(Fraction(3, 5), pi) == Fraction(3, 13) > Fraction(1, 5)
    assert cf.min_precision(0.5, Fraction(1, 3)) == Fraction(1, 5)  # floats are exact binary values


def test_min_precision_edges_and_validation():
    assert cf.min_precision(1, Fraction(1, 3)) == Fraction(1, 3)
    assert cf.min_precision(0, Fraction(1, 3)) == 0
    assert cf.min_precision(Fraction(1, 7), 1) == 1
    with pytest.raises(UndefinedMetricError, match="min_precision"):
        cf.min_precision(0, 1)
    with pytest.raises(InvalidInputError, match=r"^pi: must lie in"):
        cf.min_precision(0.5, 1.5)
    with pytest.raises(InvalidInputError, match=r"^r: must be a real number, got NaN"):
        cf.min_precision(float("nan"), 0.5)


# ---------------------------------------------------------------------------------------------
# B4, B5, B7, X2


def test_b4_at_one_half_is_one_minus_ln2():
    with mpmath.workdps(70):
        expected = 1 - mpmath.log(2)
    assert rel(cf.aucpr_min(Fraction(1, 2), dps=60), expected) < bits(prec_of_dps(60) - 1)


@pytest.mark.parametrize(
    ("pi", "a", "b"),
    [("1/3", "0", "1"), ("0.008", "0", "1"), ("0.9", "0.25", "0.5"), ("1/10", "0.7", "0.71")],
)
def test_b7_equals_quadrature_of_the_bound(pi, a, b):
    """Integrate the Theorem 1 bound numerically (mpmath.quad, 40 digits) over [a, b]."""
    p, lo, hi = (Fraction(v) for v in (pi, a, b))
    with mpmath.workdps(40):
        pm = mpmath.mpf(p.numerator) / p.denominator
        area = mpmath.quad(lambda r: pm * r / (1 - pm + pm * r), [lo, hi])
    assert rel(cf.aucpr_min(p, lo, hi, dps=30), area) < digits(28)


@pytest.mark.parametrize("k", [5, 20, 60, 300])
def test_x2_series_at_tiny_skews(k):
    """AUCPR_min = sum pi^j/(j(j+1)). After six terms the remainder is below
    pi^7/(56 (1-pi)), i.e. below pi^6/(28 (1-pi)) relative to the leading term pi/2."""
    pi = Fraction(1, 10**k)
    series = sum(pi**j / (j * (j + 1)) for j in range(1, 7))
    assert rel(cf.aucpr_min(pi, dps=40), series) < pi**6 / (28 * (1 - pi)) + digits(38)


def test_b5_monotone_and_limits():
    values = [cf.aucpr_min(Fraction(i, 20)) for i in range(1, 20)]
    assert all(x < y for x, y in itertools.pairwise(values))
    assert Q(cf.aucpr_min(Fraction(1, 10**40))) < Fraction(1, 10**39)
    assert 1 - Q(cf.aucpr_min(1 - Fraction(1, 10**40))) < Fraction(1, 10**37)


def test_conventions_at_the_end_points():
    for pi in (0, 1):
        with pytest.raises(UndefinedMetricError, match="AUCPR_min is undefined"):
            cf.aucpr_min(pi)
    assert cf.aucpr_min(0, convention="paper") == 0
    assert cf.aucpr_min(1, convention="paper") == 1
    assert cf.aucpr_min(1, Fraction(1, 4), Fraction(3, 4), convention="paper") == Fraction(1, 2)
    with pytest.raises(InvalidInputError, match=r"^convention: 'sklearn' does not apply"):
        cf.aucpr_min(0, convention="sklearn")
    with pytest.raises(UndefinedMetricError, match="empty"):
        cf.aucpr_min(0.5, 0.3, 0.3)
    with pytest.raises(InvalidInputError, match="need a <= b"):
        cf.aucpr_min(0.5, 0.6, 0.3)
    assert cf.aucnpr(0.3, 0, convention="paper") == 0
    assert cf.aucnpr(0.3, 1, convention="paper") == 1
    with pytest.raises(UndefinedMetricError, match="AUCNPR"):
        cf.aucnpr(0.3, 1)


def test_oracle_contract_between_precisions():
    low, high = cf.aucpr_min(Fraction(1, 10**9), dps=30), cf.aucpr_min(Fraction(1, 10**9), dps=90)
    assert rel(low, high) <= bits(prec_of_dps(30) - 1)


# ---------------------------------------------------------------------------------------------
# B8-B11: AUCNPR and the papers' numbers


def test_b10_numbers_in_the_text():
    assert abs(Q(cf.aucpr_min(Fraction(1, 10))) - Fraction(5, 100)) < Fraction(
        5, 1000
    )  # "about 0.05"
    rise = Q(cf.aucpr_min(Fraction(1, 2))) - Q(cf.aucpr_min(Fraction(1, 100)))
    assert abs(rise - Fraction(3, 10)) < Fraction(1, 100)  # "about 0.3"
    assert round(Q(cf.aucpr_min(Fraction(1, 2))), 2) == Fraction(31, 100)  # IMDB gender [0.31, 1]
    # IMDB genre, "pi about 0.05", printed range [0.02, 1.0]. By the series X2 by hand,
    # AUCPR_min(0.05) = 0.025 + 0.000417 + 0.0000104 + ... = 0.02543, which rounds to 0.03:
    # the printed 0.02 needs a skew slightly below 0.05 (0.049 gives 0.0249).
    assert abs(Q(cf.aucpr_min(Fraction(5, 100))) - Fraction(2543, 100000)) < Fraction(1, 10**5)
    assert round(Q(cf.aucpr_min(Fraction(49, 1000))), 2) == Fraction(2, 100)


@pytest.mark.parametrize(
    ("pi", "aucpr", "low", "normalised"),
    [(Fraction(8, 1000), "0.545", "0.004", "0.543"), (Fraction(1, 2), "0.965", "0.307", "0.950")],
)
def test_b11_mammography_under_three_decimal_rounding(pi, aucpr, low, normalised):
    area = Fraction(aucpr)
    assert abs(Q(cf.aucpr_min(pi)) - Fraction(low)) <= Fraction(5, 10000)
    assert abs(Q(cf.aucnpr(area, pi)) - Fraction(normalised)) <= Fraction(5, 10000)


def test_b8_range_and_order():
    pi = Fraction(1, 5)
    assert cf.aucnpr(1, pi) == 1
    assert abs(Q(cf.aucnpr(Q(cf.aucpr_min(pi, dps=80)), pi))) < digits(60)
    values = [cf.aucnpr(Fraction(k, 10), pi) for k in range(2, 11)]
    assert all(x < y for x, y in itertools.pairwise(values))
    assert Q(cf.aucnpr(Fraction(1, 100), pi)) < 0  # below the minimum: unachievable, not clipped


def test_aucnpr_close_to_the_minimum_keeps_its_digits():
    """aucpr = AUCPR_min rounded to 30 digits: the difference is ~1e-31 and must still come out
    to 50 digits (the oracle raises its working precision for the subtraction)."""
    pi = Fraction(3, 7)
    low = cf.aucpr_min(pi, dps=120)
    near = Fraction(mpmath.nstr(low, 30))
    with mpmath.workdps(120):
        expected = (mpmath.mpf(near.numerator) / near.denominator - low) / (1 - low)
    assert rel(cf.aucnpr(near, pi, dps=50), expected) < digits(48)


def test_skew_from_aucpr_min_inverts_b4():
    for pi in (Fraction(3, 10), Fraction(1, 10**12), 1 - Fraction(1, 10**12)):
        back = cf.skew_from_aucpr_min(exact_rational(cf.aucpr_min(pi, dps=70)), dps=50)
        assert rel(back, pi) < digits(48)
    with pytest.raises(UndefinedMetricError):
        cf.skew_from_aucpr_min(0)
    assert cf.skew_from_aucpr_min(1, convention="paper") == 1


def test_b9_random_guessing_and_max():
    assert cf.random_aucpr(Fraction(1, 3)) == Fraction(1, 3)
    assert cf.aucpr_max(Fraction(1, 5), Fraction(7, 10)) == Fraction(1, 2)
    assert cf.aucpr_max() == 1


# ---------------------------------------------------------------------------------------------
# B6, X1, X3


def test_ap_min_hand_values():
    assert cf.ap_min(1, 1) == Fraction(1, 2)
    assert cf.ap_min(2, 1) == Fraction(7, 12)  # (1/2)(1/2 + 2/3)
    assert cf.ap_min(3, 0) == 1
    assert cf.harmonic_difference(0, 4) == Fraction(25, 12)


@pytest.mark.parametrize(("pos", "neg"), [(1, 3), (2, 2), (3, 4), (4, 3), (5, 2), (2, 6)])
def test_b6_ap_min_is_the_least_ap_over_all_rankings(pos, neg):
    worst = tuple([False] * neg + [True] * pos)
    assert min(ir_ap(r) for r in rankings(pos, neg)) == cf.ap_min(pos, neg)
    assert ir_ap(worst) == cf.ap_min(pos, neg)


@pytest.mark.parametrize(("pos", "neg"), [(1, 1), (1, 4), (2, 3), (3, 3), (4, 4), (6, 2), (3, 0)])
def test_x1_expected_ap_by_enumeration(pos, neg):
    all_rankings = list(rankings(pos, neg))
    mean = sum(ir_ap(r) for r in all_rankings) / len(all_rankings)
    assert cf.expected_random_ap(pos, neg) == mean


def test_x3_digamma_path_agrees_with_exact_sums():
    for pos, neg in [(3000, 10**6), (2500, 7), (2100, 10**12)]:
        exact = cf.ap_min(pos, neg, exact=True)
        approx = cf.ap_min(pos, neg, exact=False, dps=50)
        assert rel(approx, exact) <= bits(prec_of_dps(50) - 1)
    exact = cf.harmonic_difference(10**6, 10**6 + 3000, exact=True)
    approx = cf.harmonic_difference(10**6, 10**6 + 3000, exact=False)
    assert rel(approx, exact) <= bits(prec_of_dps(50) - 1)
    exact = cf.expected_random_ap(1000, 2000, exact=True)
    assert rel(cf.expected_random_ap(1000, 2000, exact=False), exact) < digits(48)


def test_ap_min_huge_counts():
    """pos = neg = n: AP_min = 1 - (H_2n - H_n) = 1 - ln 2 + 1/(4n) + O(n^-2)."""
    n = 10**12
    with mpmath.workdps(60):
        expected = 1 - mpmath.log(2) + mpmath.mpf(1) / (4 * n)
    assert abs(Q(cf.ap_min(n, n, dps=60)) - Q(expected)) < digits(24)
    assert Q(cf.ap_min(10**9, 10**12)) > 0


def test_count_validation():
    with pytest.raises(UndefinedMetricError, match="AP_min is undefined"):
        cf.ap_min(0, 5)
    with pytest.raises(InvalidInputError, match=r"^neg: must be >= 0"):
        cf.ap_min(3, -1)
    with pytest.raises(InvalidInputError, match=r"^pos: must be an integer count"):
        cf.expected_random_ap(2.5, 1)
    with pytest.raises(InvalidInputError, match=r"^n, m: need n <= m"):
        cf.harmonic_difference(5, 3)
