"""Claims G1-G8 (weighted Pythagorean means): derivations, wrong variants, hand values."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from prtheory._testing.claims import claims_pass, ids
from prtheory.theory import gandenberger2019 as means
from prtheory.theory.common import P, R, beta, f_beta
from prtheory.theory.gandenberger2019 import gamma
from prtheory.theory.registry import REGISTRY, Proof, StepFailed

test_claim_passes = claims_pass("G")


def test_verdicts():
    corrected = {cid for cid in ids("G") if REGISTRY[cid].verdict == "holds as corrected"}
    assert corrected == {"G1", "G3", "G5"}
    assert "90/(99+10)" in REGISTRY["G1"].note
    assert "91/(91+9)" in REGISTRY["G1"].note


def test_g3_rejects_slope_minus_gamma():
    means.arithmetic_slope_steps(Proof())
    with pytest.raises(StepFailed):
        means.arithmetic_slope_steps(Proof(), slope=-gamma)


def test_g5_rejects_wrong_slopes():
    means.harmonic_tradeoff_steps(Proof())
    with pytest.raises(StepFailed):  # the reciprocal (units of recall per unit of precision)
        means.harmonic_tradeoff_steps(Proof(), slope=-(R**2) / (beta**2 * P**2))
    with pytest.raises(StepFailed):  # beta instead of beta^2
        means.harmonic_tradeoff_steps(Proof(), slope=-beta * P**2 / R**2)


def test_g1_values_by_hand():
    # A: P = 99/(99+10) = 99/109 = 0.90826 -> 90.8%; the printed 90/109 = 0.8257 -> 82.6%.
    # B: P = 97/(97+9) = 97/106 = 0.91509 -> 91.5%; the printed 91/100 -> 91.0%.
    assert means._pct(Fraction(99, 109)) == Fraction("90.8")
    assert means._pct(Fraction(90, 109)) == Fraction("82.6")
    assert means._pct(Fraction(97, 106)) == Fraction("91.5")
    assert means._pct(Fraction(91, 100)) == Fraction("91.0")


def test_g2_difference_by_hand():
    # (99/109 - 97/106) + (99/100 - 97/100) = -79/11554 + 1/50 = 7604/577700 = 1901/144425;
    # half of it, 1901/288850, is the difference of the arithmetic means.
    d = (Fraction(99, 109) + Fraction(99, 100)) / 2 - (Fraction(97, 106) + Fraction(97, 100)) / 2
    assert d == Fraction(1901, 288850)


def test_g6_threshold_by_hand():
    # Preferring recall at (P, R) = (0.9, 0.36) means beta^2 P^2 > R^2, i.e. beta > 0.36/0.9 = 0.4.
    f = f_beta(P, R)
    ratio = sp.diff(f, R) / sp.diff(f, P)
    at = {P: sp.Rational(9, 10), R: sp.Rational(9, 25)}
    assert ratio.subs(at).subs(beta, sp.Rational(2, 5)) == 1
    assert ratio.subs(at).subs(beta, sp.Rational(3, 10)) < 1 < ratio.subs(at).subs(beta, 1)


def test_g4_harmonic_is_f_beta_exactly():
    # gamma = 1/4 (beta = 2), P = 1/2, R = 1/3: ((1/4)*2 + 3)/(5/4) = 14/5 -> H = 5/14;
    # F_2 = 5 * (1/6)/(4/2 + 1/3) = (5/6)/(7/3) = 5/14.
    h = means.harmonic(sp.Rational(1, 2), sp.Rational(1, 3), sp.Rational(1, 4))
    assert h == sp.Rational(5, 14) == f_beta(sp.Rational(1, 2), sp.Rational(1, 3), 2)


positive = st.fractions(min_value=Fraction(1, 1000), max_value=1, max_denominator=1000)


@given(positive, positive)
def test_g8_equal_weights_on_squares(a, b):
    """With P = a^2, R = b^2 every mean is rational: H <= G <= A, equality iff P = R."""
    p, r = a * a, b * b
    am, gm, hm = (p + r) / 2, a * b, 2 * p * r / (p + r)
    assert hm <= gm <= am
    assert (hm == am) == (p == r)
