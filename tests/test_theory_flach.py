"""Claims F1-F13 (Flach & Kull 2015): derivations pass, wrong variants fail, exact properties.

Hand-derived values are worked out in the comments next to each assertion.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from prtheory._testing.claims import claims_pass, ids
from prtheory.theory import flach2015 as flach
from prtheory.theory.checks import exact_identity, integer_sampler, joint_sampler, rational_sampler
from prtheory.theory.common import beta, dg_aucpr, f_beta
from prtheory.theory.flach2015 import (
    A_,
    FN,
    FP,
    TP,
    expected_fg,
    f_measures,
    lam,
    pi,
    y0_,
)
from prtheory.theory.registry import REGISTRY, Proof, StepFailed

test_claim_passes = claims_pass("F")

#: Two small untied rankings (3 positives among 8 items) with hand-computed areas.
SMALL_A = (1, 0, 0, 1, 0, 0, 1, 0)
SMALL_B = (0, 0, 1, 1, 1, 0, 0, 0)


def test_verdicts():
    verdicts = {cid: REGISTRY[cid].verdict for cid in ids("F")}
    assert verdicts["F3"] == "holds as corrected"  # rec < pi loses only for beta >= 1
    assert verdicts["F12"] == "holds as corrected"  # acc_c's c is one minus the calibrated score
    assert verdicts["F13"] == "out of reach"
    assert {v for k, v in verdicts.items() if k not in ("F3", "F12", "F13")} == {"holds"}


# ---- wrong variants are rejected by the same derivation code ---------------------------------
def test_definition1_rejects_inverted_odds():
    flach.definition1_steps(Proof())  # the printed forms pass
    inverted = 1 - (1 - pi) / pi * FP / TP
    with pytest.raises(StepFailed):
        flach.definition1_steps(Proof(), precg_counts=inverted)
    with pytest.raises(StepFailed):
        flach.definition1_steps(Proof(), recg_counts=1 - (1 - pi) / pi * FN / TP)


def test_theorem1_rejects_mu_equal_lambda():
    flach.theorem1_steps(Proof())
    with pytest.raises(StepFailed):
        flach.theorem1_steps(Proof(), weight=lam)


def test_theorem1_check_rejects_mu_equal_lambda():
    """The exact check of F7 also fails for mu = lambda (it is not only the simplifier)."""
    tp1, fp1, tp2, fp2 = flach.TP1, flach.FP1, flach.TP2, flach.FP2
    tps, fps = lam * tp1 + (1 - lam) * tp2, lam * fp1 + (1 - lam) * fp2
    pg = flach.precision_gain_counts
    sampler = joint_sampler(
        integer_sampler({tp1: (1, 40), fp1: (0, 40), tp2: (1, 40), fp2: (0, 40)}),
        rational_sampler({lam: (0, 1), pi: (0, 1)}),
    )
    wrong = lam * pg(tp1, fp1) + (1 - lam) * pg(tp2, fp2)
    ok, detail = exact_identity(pg(tps, fps), wrong, sampler, n=50)
    assert not ok
    assert "differ" in detail


def test_theorem2_rejects_slope_minus_beta():
    flach.theorem2_steps(Proof())
    with pytest.raises(StepFailed):
        flach.theorem2_steps(Proof(), slope=-beta)
    with pytest.raises(StepFailed):
        flach.theorem2_steps(Proof(), weight=beta, slope=-beta)


def test_f1_rejects_wrong_count_form():
    flach.f1_steps(Proof())
    with pytest.raises(StepFailed):
        flach.f1_steps(Proof(), count_form=TP / (TP + FP + FN))


def test_theorem3_rejects_wrong_formulas():
    flach.theorem3_steps(Proof())
    with pytest.raises(StepFailed):  # the y0 = 1 special case claimed for every y0
        flach.theorem3_steps(Proof(), formula=A_ / 2 + sp.Rational(1, 4))
    with pytest.raises(StepFailed):  # sign of the pi term flipped
        flach.theorem3_steps(
            Proof(),
            formula=(A_ / 2 + sp.Rational(1, 4) + pi * (1 - y0_**2) / 4) / (1 - pi * (1 - y0_)),
        )


def test_theorem4_rejects_missing_minus_sign():
    flach.theorem4_steps(Proof())
    with pytest.raises(StepFailed):
        flach.theorem4_steps(Proof(), beta2=-flach.BETA2_PRINTED)


# ---- exact properties on random valid confusion matrices ------------------------------------
counts = st.integers(min_value=0, max_value=500)


@st.composite
def tables(draw):
    """(TP, FP, FN, TN) with TP >= 1 and both classes present."""
    tp = draw(st.integers(min_value=1, max_value=500))
    fp, fn = draw(counts), draw(counts)
    tn = draw(counts)
    if fp + tn == 0:
        tn = 1
    return tp, fp, fn, tn


def _skew(tp, fp, fn, tn):
    return Fraction(tp + fn, tp + fp + fn + tn)


def _gains_from_definition(tp, fp, fn, skew):
    """Definition 1 from precision and recall: (x - pi)/((1 - pi) x)."""
    prec, rec = Fraction(tp, tp + fp), Fraction(tp, tp + fn)
    return (prec - skew) / ((1 - skew) * prec), (rec - skew) / ((1 - skew) * rec)


@given(tables())
def test_f5_count_forms(t):
    tp, fp, fn, _tn = t
    skew = _skew(*t)
    pg, rg = _gains_from_definition(tp, fp, fn, skew)
    odds = skew / (1 - skew)
    assert pg == 1 - odds * Fraction(fp, tp)
    assert rg == 1 - odds * Fraction(fn, tp)


fractions01 = st.fractions(min_value=0, max_value=1, max_denominator=1000)


@given(tables(), st.integers(0, 500), st.integers(1, 500), fractions01)
def test_f7_linearity(t1, fp2, tp2, lam_):
    """Interpolating two tables of the same test set moves along the PRG segment with weight mu."""
    tp1, fp1, fn1, tn1 = t1
    n_pos, n_neg = tp1 + fn1, fp1 + tn1
    tp2 = min(tp2, n_pos)
    fp2 = min(fp2, n_neg)
    fn2 = n_pos - tp2  # the second table shares the class totals
    skew = Fraction(n_pos, n_pos + n_neg)
    g1 = _gains_from_definition(tp1, fp1, fn1, skew)
    g2 = _gains_from_definition(tp2, fp2, fn2, skew)
    tps = lam_ * tp1 + (1 - lam_) * tp2
    fps = lam_ * fp1 + (1 - lam_) * fp2
    fns = lam_ * fn1 + (1 - lam_) * fn2
    gs = _gains_from_definition(tps, fps, fns, skew)
    mu_ = lam_ * tp1 / tps
    assert gs[0] == mu_ * g1[0] + (1 - mu_) * g2[0]
    assert gs[1] == mu_ * g1[1] + (1 - mu_) * g2[1]


betas2 = st.fractions(min_value=Fraction(1, 100), max_value=100, max_denominator=100)


@given(tables(), betas2)
def test_f8_gain_identity(t, b2):
    tp, fp, fn, _tn = t
    skew = _skew(*t)
    pg, rg = _gains_from_definition(tp, fp, fn, skew)
    prec, rec = Fraction(tp, tp + fp), Fraction(tp, tp + fn)
    f = 1 / ((1 / (1 + b2)) / prec + (b2 / (1 + b2)) / rec)  # weighted harmonic mean (eq. 2)
    fg = (f - skew) / ((1 - skew) * f)
    assert pg + b2 * rg == (1 + b2) * fg
    assert fg == 1 - skew / (1 - skew) * (fp + b2 * fn) / ((1 + b2) * tp)


# ---- hand-derived values -------------------------------------------------------------------
def test_prg_path_and_auprg_by_hand():
    # Ranking (1, 0), pi = 1/2: rec = pi at TP = 1/2 (FP = 0) gives precG 1; then (1, 1) and the
    # always-positive (1, 0). AUPRG = 1.
    assert flach.prg_path((1, 0)) == [(0, 1), (1, 1), (1, 0)]
    assert flach.auprg((1, 0)) == 1
    # Two small rankings, pi = 3/8, odds 3/5. A = 10010010: the recG = 0 table is TP = 9/8,
    # FP = 2: precG = 1 - (3/5)(16/9) = -1/15; then (7/10, 2/5); the segment (7/10, -1/5) ->
    # (1, 1/5) has zero signed area, so AUPRG(A) = (7/10)(-1/15 + 2/5)/2 = 7/60.
    assert flach.prg_path(SMALL_A)[0] == (0, Fraction(-1, 15))
    assert flach.auprg(SMALL_A) == Fraction(7, 60)
    # B = 00111000: same start, then (7/10, 2/5) -> (1, 3/5): 7/60 + (3/10)(1/2) = 4/15.
    assert flach.auprg(SMALL_B) == Fraction(4, 15)


def test_ap_of_small_rankings_by_hand():
    # AP(A) = (1 + 2/4 + 3/7)/3 = 9/14; AP(B) = (1/3 + 2/4 + 3/5)/3 = 43/90.
    from prtheory.theory.notes import average_precision

    assert average_precision(SMALL_A) == Fraction(9, 14)
    assert average_precision(SMALL_B) == Fraction(43, 90)


def test_f13_pair_ap_by_hand():
    # The pair's positives sit at ranks A: 1-3, 10-15, 19; B: 3-9, 11, 13, 19 (10 of 24 items).
    from prtheory.theory.notes import average_precision

    def ap(ranks):
        return sum(Fraction(j, k) for j, k in enumerate(ranks, 1)) / len(ranks)

    want_a = ap([1, 2, 3, 10, 11, 12, 13, 14, 15, 19])
    want_b = ap([3, 4, 5, 6, 7, 8, 9, 11, 13, 19])
    assert average_precision(flach.RANKING_A) == want_a
    assert average_precision(flach.RANKING_B) == want_b
    assert want_a > want_b  # AUPR prefers A (F13)


def test_expected_fg1_by_hand():
    # (1, 0): Delta = 2 recG - 2 precG runs over [-2, 2]; integral of FG1 is 3/2 + 3/2 -> 3/4.
    e, area, y0, skew = expected_fg._expected_fg1_exact((1, 0))
    assert (e, area, y0, skew) == (Fraction(3, 4), 1, 1, Fraction(1, 2))
    # (0, 1, 1, 0): path (0, 0) -> (1, 1/2) -> (1, 0), AUPRG 1/4, y0 = 0; integrals 3/8 + 5/8
    # over a Delta-range of length 2 give 1/2, which eq. (5) also gives: (1/8+1/4-1/8)/(1/2).
    e, area, y0, skew = expected_fg._expected_fg1_exact((0, 1, 1, 0))
    assert (e, area, y0) == (Fraction(1, 2), Fraction(1, 4), 0)
    # (0, 1): every negative precedes the recG = 0 point, Delta is constant: no uniform law.
    e, _, y0, skew = expected_fg._expected_fg1_exact((0, 1))
    assert e is None
    assert 1 - skew * (1 - y0) == 0


def test_f3_counterexample_by_hand():
    # beta^2 = 1/4, prec = 1, rec = 9/20: (5/4)(9/20)/(1/4 + 9/20) = (9/16)/(7/10) = 45/56;
    # baseline (5/4)(1/2)/(1 + 1/8) = 5/9. The finite-sample mean of F1 for one positive, one
    # negative and q = 1/2 is (1 + 2/3 + 0 + 0)/4 = 5/12.
    f = f_beta(1, sp.Rational(9, 20)).subs(beta, sp.Rational(1, 2))
    base = flach.BASELINE.subs({beta: sp.Rational(1, 2), pi: sp.Rational(1, 2)})
    assert (f, base) == (sp.Rational(45, 56), sp.Rational(5, 9))
    assert f_measures._f1_finite_mean() == Fraction(5, 12)


def test_davis_goadrich_area_of_small_rankings_by_hand():
    # A = 10010010: positive steps from (T, F) = (0, 0), (1, 2), (2, 4):
    # (1 + (1 - 2 ln(4/3)) + (1 - 4 ln(7/6)))/3. B = 00111000: from (0, 2), (1, 2), (2, 2):
    # ((1 - 2 ln(3/2)) + (1 - 2 ln(4/3)) + (1 - 2 ln(5/4)))/3.
    import mpmath

    with mpmath.workdps(50):
        ln = mpmath.log
        want_a = (3 - 2 * ln(mpmath.mpf(4) / 3) - 4 * ln(mpmath.mpf(7) / 6)) / 3
        want_b = (
            3 - 2 * ln(mpmath.mpf(3) / 2) - 2 * ln(mpmath.mpf(4) / 3) - 2 * ln(mpmath.mpf(5) / 4)
        ) / 3
        got_a = dg_aucpr(SMALL_A)
        got_b = dg_aucpr(SMALL_B)
        # Same operations in a different order at 50 digits: agreement to 1e-45 is ample.
        assert abs(got_a - want_a) < mpmath.mpf(10) ** -45
        assert abs(got_b - want_b) < mpmath.mpf(10) ** -45
