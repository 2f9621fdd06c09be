"""Claims B1-B16 (prtheory.theory.boyd2012): the checking machinery rejects wrong formulas, the bound
and AP_min hold on random inputs, and values derived by hand agree."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from prtheory._testing.claims import claims_pass
from prtheory.theory import boyd2012 as boyd
from prtheory.theory.boyd2012 import (
    AP_MIN_TERM,
    MODIFIED_F1,
    SLIDES_ANTIDERIVATIVE,
    a,
    aucnpr_consistent,
    aucpr_min,
    aucpr_min_range,
    b,
    check_antiderivative_numeric,
    check_ap_min_enumeration,
    check_area_quadrature,
    check_bound_enumeration,
    check_modified_f1_grid,
    derive_antiderivative,
    derive_ap_min,
    derive_area,
    derive_min_precision,
    derive_modified_f1,
    i,
    implied_min_interval,
    min_precision,
    modified_f,
    mp_aucpr_min,
    neg,
    p,
    pi,
    pos,
    r,
    recall_range_sampler,
    worst_ranking,
)
from prtheory.theory.common import dg_aucpr
from prtheory.theory.notes import average_precision
from prtheory.theory.registry import REGISTRY, Proof, StepFailed

test_claim_passes = claims_pass("B")

# ---- deliberately wrong formulas are rejected, by the derivation and by the independent check ----

WRONG_AUCPR_MIN = 1 + (1 - pi) * sp.log(pi) / pi  # ln(pi) in place of ln(1 - pi)
WRONG_RANGE_SIGN = b - a + (1 - pi) / pi * sp.log((pi * (b - 1) + 1) / (pi * (a - 1) + 1))
WRONG_ANTIDERIVATIVE = (r * pi + (pi - 1) * sp.log(pi * r + 1)) / pi  # lost the -pi inside the log
WRONG_AP_TERM = i / (i + pos)  # i/(i + pos) instead of i/(i + neg)
WRONG_BOUND = pi * r / (1 + pi * r)  # a valid but loose lower bound: not tight
WRONG_F1 = (p - pi) * (1 - r)  # decreases in recall


def test_wrong_aucpr_min_is_rejected_by_integration_and_quadrature():
    with pytest.raises(StepFailed):
        derive_area(Proof(), WRONG_AUCPR_MIN)
    assert check_area_quadrature(WRONG_AUCPR_MIN)[0] is False
    derive_area(Proof(), aucpr_min(pi))  # the printed form derives


def test_wrong_sign_in_corollary_4_is_rejected():
    with pytest.raises(StepFailed):
        derive_area(Proof(), WRONG_RANGE_SIGN, a, b)
    assert check_area_quadrature(WRONG_RANGE_SIGN, a, b, recall_range_sampler)[0] is False
    assert check_area_quadrature(aucpr_min_range(a, b, pi), a, b, recall_range_sampler)[0] is True


def test_wrong_antiderivative_is_rejected_by_differentiation_both_ways():
    with pytest.raises(StepFailed):
        derive_antiderivative(Proof(), WRONG_ANTIDERIVATIVE, aucpr_min(pi))
    assert check_antiderivative_numeric(WRONG_ANTIDERIVATIVE)[0] is False
    derive_antiderivative(Proof(), SLIDES_ANTIDERIVATIVE, aucpr_min(pi))


def test_wrong_ap_min_summand_is_rejected_by_derivation_and_enumeration():
    with pytest.raises(StepFailed):
        derive_ap_min(Proof(), WRONG_AP_TERM)
    passed, detail = check_ap_min_enumeration(WRONG_AP_TERM, max_total=6)
    assert passed is False
    assert "fails at" in detail
    assert check_ap_min_enumeration(AP_MIN_TERM, max_total=6)[0] is True


def test_loose_bound_is_rejected_as_not_tight():
    with pytest.raises(StepFailed):
        derive_min_precision(Proof(), WRONG_BOUND)
    assert check_bound_enumeration(WRONG_BOUND, max_total=6)[0] is False


def test_modified_f1_that_decreases_in_recall_is_rejected():
    assert check_modified_f1_grid(WRONG_F1, n=10)[0] is False
    with pytest.raises(StepFailed):
        derive_modified_f1(Proof(), WRONG_F1)
    assert modified_f._b16_interval(WRONG_F1)[0] is False  # its r-derivative is negative
    assert check_modified_f1_grid(MODIFIED_F1, n=10)[0] is True
    assert modified_f._b16_interval(MODIFIED_F1)[0] is True


def test_printed_aucnpr_off_by_more_than_rounding_is_inconsistent():
    # Table 3, 1:2: 0.740 -> 0.680 is consistent (0.7405 gives 0.679997); 0.690 is not.
    assert aucnpr_consistent("0.740", "0.680", Fraction(1, 3))[0] is True
    assert aucnpr_consistent("0.740", "0.690", Fraction(1, 3))[0] is False
    assert aucnpr_consistent("0.740", "0.678", Fraction(1, 3))[0] is False


# ---- properties on random inputs --------------------------------------------------------------


@st.composite
def confusion_matrices(draw):
    n_pos = draw(st.integers(1, 300))
    n_neg = draw(st.integers(0, 300))
    tp = draw(st.integers(1, n_pos))
    fp = draw(st.integers(0, n_neg))
    return n_pos, n_neg, tp, fp


@given(confusion_matrices())
def test_precision_is_at_least_the_bound_with_equality_iff_all_negatives_are_false_positives(m):
    n_pos, n_neg, tp, fp = m
    prec = Fraction(tp, tp + fp)
    bound = min_precision(Fraction(tp, n_pos), Fraction(n_pos, n_pos + n_neg))
    assert prec >= bound
    assert (prec == bound) == (fp == n_neg)


@given(st.lists(st.booleans(), min_size=1, max_size=40).filter(any))
def test_ap_of_any_ranking_is_at_least_ap_min(labels):
    labels = [int(x) for x in labels]
    n_pos, n_neg = sum(labels), len(labels) - sum(labels)
    ap_min = sum((Fraction(k, k + n_neg) for k in range(1, n_pos + 1)), Fraction(0)) / n_pos
    ap = average_precision(labels)
    assert ap >= ap_min
    assert (ap == ap_min) == (tuple(labels) == worst_ranking(n_pos, n_neg))


@given(st.lists(st.booleans(), min_size=2, max_size=30).filter(lambda x: any(x) and not all(x)))
def test_davis_goadrich_area_of_any_ranking_is_at_least_aucpr_min(labels):
    labels = [int(x) for x in labels]
    with mpmath.workdps(30):
        skew = mpmath.mpf(sum(labels)) / len(labels)
        assert dg_aucpr(labels) >= mp_aucpr_min(skew) - mpmath.mpf(10) ** -25


# ---- values derived by hand ---------------------------------------------------------------------


def test_aucpr_min_at_half_is_one_minus_ln_2():
    # integral_0^1 r/(1 + r) dr = [r - ln(1 + r)]_0^1 = 1 - ln 2
    assert sp.simplify(aucpr_min(sp.Rational(1, 2)) - (1 - sp.log(2))) == 0
    with mpmath.workdps(30):
        assert mpmath.almosteq(mp_aucpr_min(mpmath.mpf(1) / 2), 1 - mpmath.log(2), 10**-28)


def test_aucpr_min_over_a_range_at_half():
    # integral_a^b r/(1 + r) dr = b - a - ln((1 + b)/(1 + a))
    half = sp.Rational(1, 2)
    lo, hi = sp.Rational(1, 5), sp.Rational(4, 5)
    by_hand = hi - lo - sp.log((1 + hi) / (1 + lo))
    assert sp.simplify(aucpr_min_range(lo, hi, half) - by_hand) == 0


def test_ap_min_small_cases_by_hand():
    assert average_precision((0, 1)) == Fraction(1, 2)  # AP_min(1, 1)
    assert (
        average_precision((0, 0, 1, 1)) == (Fraction(1, 3) + Fraction(2, 4)) / 2 == Fraction(5, 12)
    )
    term = sp.lambdify((i, neg), AP_MIN_TERM)
    assert term(1, 1) == 0.5


def test_davis_goadrich_area_by_hand():
    # (1, 0, 1): first positive adds 1/2; the second adds (1/2) int_1^2 s/(s+1) ds = (1 - ln 1.5)/2
    with mpmath.workdps(30):
        assert mpmath.almosteq(dg_aucpr((1, 0, 1)), 1 - mpmath.log(1.5) / 2, 10**-28)
        assert dg_aucpr((1, 1, 0, 0)) == 1


def test_genre_lower_end_rounds_to_003_not_002():
    value = 1 + 19 * math.log(0.95)  # AUCPR_min(0.05) = 1 + (0.95/0.05) ln 0.95, in float64
    assert 0.025 < value < 0.0255  # rounds to 0.03; the text prints 0.02
    assert not boyd.rounds_to(mpmath.mpf(value), "0.02")
    assert boyd.rounds_to(mpmath.mpf(value), "0.03")
    assert REGISTRY["B10"].verdict == "holds as corrected"


def test_table2_gender_interval_contains_the_point_value():
    lo, hi = implied_min_interval("0.509", "0.325")
    point = (Fraction("0.509") - Fraction("0.325")) / (1 - Fraction("0.325"))
    assert lo < point < hi
    assert implied_min_interval("1.000", "1.000") == (0, 1)


def test_modified_f1_is_zero_below_random_and_one_at_the_perfect_point():
    third = sp.Rational(1, 3)
    assert boyd.modified_f1(sp.Rational(1, 2), sp.Rational(1, 5), third) == 0
    assert boyd.modified_f1(1, 1, third) == 1
    # harmonic mean of r = 1/2 and (p - pi)/(1 - pi) = (2/3 - 1/3)/(2/3) = 1/2 is 1/2
    assert boyd.modified_f1(sp.Rational(1, 2), sp.Rational(2, 3), third) == sp.Rational(1, 2)


def test_least_ap_by_ranks_is_the_least_ap_over_every_enumerated_ranking():
    """The dynamic programme behind B6's domain (minimum of (1/pos) sum_i i/r_i over increasing
    ranks) against the minimum over every enumerated ranking, for every size up to 12 items; and
    by hand at pos = 2, neg = 1: the rankings 110, 101, 011 have AP 1, (1 + 2/3)/2 = 5/6 and
    (1/2 + 2/3)/2 = 7/12, so the least is 7/12."""
    from prtheory.theory.boyd2012.ap_min import least_ap, least_ap_by_ranks

    for total in range(1, 13):
        for n_pos in range(1, total + 1):
            assert least_ap_by_ranks(n_pos, total - n_pos) == least_ap(n_pos, total - n_pos)
    assert least_ap_by_ranks(2, 1) == Fraction(7, 12)
