"""Claims X1-X3 (prtheory.theory.extras): wrong formulas are rejected, hand-derived values agree,
and the harmonic form of AP_min matches the direct sum on random counts."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from prtheory._testing.claims import claims_pass
from prtheory.theory.boyd2012 import mp_aucpr_min
from prtheory.theory.extras import (
    AP_MIN_HARMONIC,
    EXPECTED_AP,
    SERIES_COEFFICIENT,
    check_expected_ap,
    check_harmonic_form,
    check_huge_counts,
    check_series_remainder,
    derive_expected_ap,
    derive_harmonic_form,
    derive_series,
    float64_terms,
    k,
    mp_ap_min,
    n,
    neg,
    pos,
    remainder_bounds,
)
from prtheory.theory.registry import Proof, StepFailed

test_claim_passes = claims_pass("X")

# ---- deliberately wrong formulas are rejected ----------------------------------------------------

WRONG_EXPECTED_AP = pos / n  # the continuous random-guessing value pi
WRONG_COEFFICIENT = 1 / k**2
WRONG_HARMONIC = 1 - neg / pos * (sp.harmonic(pos + neg) - sp.harmonic(pos))


def test_wrong_expected_ap_is_rejected():
    with pytest.raises(StepFailed):
        derive_expected_ap(Proof(), WRONG_EXPECTED_AP)
    assert check_expected_ap(WRONG_EXPECTED_AP, max_n=6)[0] is False
    assert check_expected_ap(EXPECTED_AP, max_n=6)[0] is True


def test_wrong_series_coefficient_is_rejected():
    with pytest.raises(StepFailed):
        derive_series(Proof(), WRONG_COEFFICIENT)
    assert check_series_remainder(WRONG_COEFFICIENT)[0] is False


def test_wrong_harmonic_form_is_rejected():
    with pytest.raises(StepFailed):
        derive_harmonic_form(Proof(), WRONG_HARMONIC)
    assert check_harmonic_form(WRONG_HARMONIC, max_count=6)[0] is False


def test_huge_count_check_rejects_the_limit_without_its_correction():
    # AUCPR_min alone misses the pi/(2 pos) term of the Riemann sum
    def limit_only(n_pos: int, n_neg: int) -> mpmath.mpf:
        return mp_aucpr_min(mpmath.mpf(n_pos) / (n_pos + n_neg))

    assert check_huge_counts(limit_only)[0] is False


# ---- values derived by hand ------------------------------------------------------------------------


def test_expected_ap_by_hand():
    # pos = neg = 1: AP is 1 or 1/2 with equal chance -> 3/4
    assert EXPECTED_AP.subs({pos: 1, n: 2}) == sp.Rational(3, 4)
    # one positive among 3: AP = 1/rank, rank uniform -> (1 + 1/2 + 1/3)/3 = 11/18
    assert EXPECTED_AP.subs({pos: 1, n: 3}) == sp.Rational(11, 18)
    # every item positive: AP = 1
    assert EXPECTED_AP.subs({pos: 5, n: 5}) == 1


def test_series_first_terms_by_hand():
    # 1 + (1 - x) ln(1 - x)/x with ln(1 - x) = -x - x^2/2 - x^3/3: x/2 + x^2/6 + x^3/12 + ...
    assert [SERIES_COEFFICIENT.subs(k, j) for j in (1, 2, 3)] == [
        sp.Rational(1, 2),
        sp.Rational(1, 6),
        sp.Rational(1, 12),
    ]


def test_remainder_bounds_bracket_the_tail_at_a_moderate_skew():
    with mpmath.workdps(40):
        skew = mpmath.mpf(3) / 10
        tail = mpmath.nsum(lambda j: skew**j / (j * (j + 1)), [6, mpmath.inf])
        lo, hi = remainder_bounds(skew, 5)
        assert lo < tail < hi


def test_float64_term_count_is_minimal():
    terms = float64_terms(Fraction(1, 2))

    def rel_bound(kk: int) -> Fraction:
        return 2 * Fraction(1, 2) ** kk / ((kk + 1) * (kk + 2) * Fraction(1, 2))

    assert rel_bound(terms) <= Fraction(1, 2**53) < rel_bound(terms - 1)


def test_series_is_accurate_where_the_naive_closed_form_cancels():
    x = 1e-8
    naive = 1 + (1 - x) * math.log(1 - x) / x
    series = sum(x**j / (j * (j + 1)) for j in range(1, 6))
    with mpmath.workdps(40):
        exact = mp_aucpr_min(mpmath.mpf(x))
        # 2 ulp: x/2 dominates (the next term is 3e-9 of it); rounding x/2 and each of the four
        # additions costs at most half an ulp of the result, and the omitted tail is ~1e-50
        assert abs(series - exact) <= 2 * math.ulp(series)
        assert abs(naive - exact) > 1e-3 * exact  # the naive form has lost most of its digits


def test_ap_min_harmonic_form_for_huge_counts_approaches_aucpr_min():
    with mpmath.workdps(40):
        big = 10**12
        # AP_min(pos, pos) -> AUCPR_min(1/2) = 1 - ln 2, from above, by about (1/2)/(2 pos)
        diff = mp_ap_min(big, big) - (1 - mpmath.log(2))
        assert mpmath.almosteq(diff, mpmath.mpf(1) / (4 * big), rel_eps=1e-9)


@given(st.integers(1, 120), st.integers(0, 120))
def test_harmonic_form_matches_the_direct_sum(n_pos, n_neg):
    direct = sum((Fraction(j, j + n_neg) for j in range(1, n_pos + 1)), Fraction(0)) / n_pos
    got = AP_MIN_HARMONIC.subs({pos: n_pos, neg: n_neg})
    assert got == sp.Rational(direct.numerator, direct.denominator)


def test_series_coefficient_sum_is_one_at_skew_one():
    # telescoping: sum 1/k - 1/(k+1) = 1, the convention AUCPR_min(1) = 1
    assert sp.summation(SERIES_COEFFICIENT, (k, 1, sp.oo)) == 1
