"""Correct rounding of the float64 closed forms where it is hardest: values on or next to a
midpoint between two floats, subnormal arguments and results, and the cancellation of AUCNPR
near the minimum. Every expected value is derived by hand (exact integer arithmetic on a
constructed midpoint) or from mpmath at hundreds of digits with the textbook formula.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import prtheory
from prtheory import floats as F
from prtheory._testing.ulps import reference_row, ulp_errors
from prtheory.floats.dd import decide

REL = 2.0**-90

TINY = 2.0**-1074


def _mp_aucpr_min(pi, a=0, b=1):
    pi, a, b = (mpmath.mpf(v) for v in (pi, a, b))
    return b - a + (1 - pi) / pi * mpmath.log((pi * (a - 1) + 1) / (pi * (b - 1) + 1))


def _mp_aucnpr(area, pi, a=0.0, b=1.0):
    low = _mp_aucpr_min(pi, a, b)
    return (mpmath.mpf(area) - low) / (mpmath.mpf(b) - mpmath.mpf(a) - low)


def _nearest(x: mpmath.mpf) -> float:
    """float(mpf) rounds to nearest; at 2000 digits the value is nowhere near a boundary."""
    return float(x)


def test_aucnpr_near_the_minimum_is_correctly_rounded():
    # the audit's case: aucpr a few ulp above AUCPR_min(pi), where aucpr - AUCPR_min cancels
    with mpmath.workdps(300):
        truth = _nearest(_mp_aucnpr(0.06464170455801785, 0.12383000993425952))
    assert truth == 1.3450253783837995e-17
    assert prtheory.aucnpr(0.06464170455801785, 0.12383000993425952) == truth


def test_aucnpr_with_a_subnormal_aucpr_and_a_tiny_range():
    args = (5e-324, 8.449502560311426e-288, 0.0, 6.071170944062736e-166)
    with mpmath.workdps(2000):
        truth = _nearest(_mp_aucnpr(*args))
    assert prtheory.aucnpr(*args) == truth


@pytest.mark.parametrize("k", [1, 3, 5, 2**20 + 1, 2**52 - 1])
def test_aucpr_min_at_odd_subnormal_skews_rounds_up(k):
    # AUCPR_min(pi) = pi/2 + pi**2/6 + ... (X2) > pi/2 = k 2**-1075, the midpoint between
    # (k-1)/2 and (k+1)/2 times 2**-1074: the correct rounding is the upper one
    assert prtheory.aucpr_min(k * TINY) == (k + 1) // 2 * TINY
    assert prtheory.aucpr_min(5e-324) == 5e-324


def _midpoint_fbeta_case(k: int, s: int):
    """p = (1-t)/2 2**-s, r = (1+t)/2 2**-s, t = k 2**-27 (k odd, t < 1/2): F_1 = (2**54 - k**2) 2**-(55+s).

    N = 2**54 - k**2 is odd, so for s <= 1020 F lies exactly halfway between (N-1)/2 and
    (N+1)/2 times 2**-(54+s); ties go to the even one.
    """
    t = k * 2.0**-27
    p, r = math.ldexp((1 - t) / 2, -s), math.ldexp((1 + t) / 2, -s)
    n = 2**54 - k * k
    q = (n - 1) // 2 if ((n - 1) // 2) % 2 == 0 else (n + 1) // 2
    return p, r, math.ldexp(q, -(54 + s))


@given(
    st.integers(2**19, 2**25 - 1).map(lambda j: 2 * j + 1),
    st.integers(0, 1020),
)
def test_fbeta_exactly_on_a_midpoint_rounds_to_even(k, s):
    p, r, expected = _midpoint_fbeta_case(k, s)
    assert Fraction(2) * Fraction(p) * Fraction(r) / (Fraction(p) + Fraction(r)) == Fraction(
        2**54 - k * k, 2 ** (55 + s)
    )  # the construction really is a midpoint
    assert prtheory.fbeta(p, r) == expected
    assert prtheory.fbeta(r, p) == expected


def test_fbeta_midpoints_vectorised():
    rng = np.random.default_rng(3)
    ks = 2 * rng.integers(2**19, 2**25, 500) + 1
    ss = rng.integers(0, 1021, 500)
    cases = [_midpoint_fbeta_case(int(k), int(s)) for k, s in zip(ks, ss, strict=True)]
    p, r, expected = (np.array(c) for c in zip(*cases, strict=True))
    assert np.array_equal(prtheory.fbeta(p, r), expected)


@pytest.mark.parametrize("fn", [prtheory.precision_gain, prtheory.recall_gain, F.fbeta_gain])
@pytest.mark.parametrize(("e", "j"), [(100, 0), (300, 12345), (968, 2**50 - 1)])
def test_gains_just_above_a_midpoint_round_up(fn, e, j):
    # x = 2**-e, pi = x m, m = (2j+1) 2**-54: gain = (1 - m)/(1 - pi). 1 - m is the midpoint
    # between (2**54 - 2j - 2) and (2**54 - 2j) times 2**-54, and 1/(1 - pi) > 1 pushes the value
    # above it by a relative pi <= 2**-100
    x = 2.0**-e
    pi = x * ((2 * j + 1) * 2.0**-54)
    assert fn(x, pi) == (2**54 - 2 * j) * 2.0**-54


def test_min_precision_at_odd_subnormal_skews_rounds_up():
    # pi r/(1 - pi + pi r) at r = 1/2 is pi/2 (1 + pi/2 + ...) > k 2**-1075, a midpoint
    for k in (1, 7, 2**40 + 1):
        assert prtheory.min_precision(0.5, k * TINY) == (k + 1) // 2 * TINY


def test_exact_zeros_and_exact_values():
    assert prtheory.precision_gain(0.3, 0.3) == 0.0
    assert prtheory.fbeta(0.0, 0.7) == 0.0
    assert prtheory.min_precision(0.0, 0.4) == 0.0
    assert prtheory.fbeta(0.25, 0.25, beta=3.0) == 0.25  # F of equal p and r is p


def test_the_rounding_test_flags_a_straddled_midpoint():
    one = np.array([1.0])
    # 1 + 2**-53 is the midpoint between 1 and 1 + 2**-52: any error bound leaves it undecided
    _, undecided = decide(one, np.array([2.0**-53]), 0, REL)
    assert undecided.all()
    # 2**-60 above 1 is far from it: decided, and the result is 1
    y, undecided = decide(one, np.array([2.0**-60]), 0, REL)
    assert not undecided.any()
    assert y[0] == 1.0
    # ... unless the bound is wide enough to reach the midpoint
    _, undecided = decide(one, np.array([2.0**-60]), 0, 2.0**-54)
    assert undecided.all()
    # a subnormal result: (h + lo) 2**-1100 with h + lo = 2**26 (1 + 2**-60) is 2**-1074 (1 + ...)
    y, undecided = decide(np.array([2.0**26]), np.array([2.0**-34]), -1100, REL)
    assert not undecided.any()
    assert y[0] == TINY


def test_the_report_counts_a_one_ulp_change_as_misrounded():
    # the report's verdict is y != the reference's rounding; feed it right and nudged results
    # 1/3; a subnormal midpoint 3 2**-1075 (ties to the even 2 2**-1074); a normal midpoint
    # (2**54 - 9) 2**-55, halfway between 2**53 - 5 and the even 2**53 - 4 units of 2**-54
    exact = [Fraction(1, 3), Fraction(3, 2**1075), Fraction(2**54 - 9, 2**55)]
    table = np.array([reference_row(q) for q in exact])
    right = np.array([1 / 3, 2 * TINY, (2**53 - 4) * 2.0**-54])
    assert not (right != table[:, 0]).any()
    nudged = np.nextafter(right, 1.0)
    assert (nudged != table[:, 0]).all()
    assert (ulp_errors(nudged, table) >= 0.5).all()


def test_aucnpr_a_few_ulps_above_the_minimum():
    # the audit's family: aucpr 1 to 10**8 ulp above AUCPR_min(pi), pi log-uniform; truth from
    # the textbook formula at 150 digits (the cancellation costs at most ~60 of them)
    rng = np.random.default_rng(11)
    pis = np.exp(rng.uniform(np.log(1e-6), np.log(0.999), 40))
    steps = np.floor(np.exp(rng.uniform(0, np.log(1e8), 40)))
    lows = prtheory.aucpr_min(pis)
    areas = np.array(
        [lo + s * math.ulp(lo) for lo, s in zip(lows.tolist(), steps.tolist(), strict=True)]
    )
    got = prtheory.aucnpr(areas, pis)
    with mpmath.workdps(150):
        want = [_nearest(_mp_aucnpr(a, p)) for a, p in zip(areas, pis, strict=True)]
    assert got.tolist() == want
