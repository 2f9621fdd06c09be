"""Correct rounding to float64 (prtheory.oracle.rounding).

Independent references: CPython's ``int / int`` true division, which is correctly rounded
(round-half-even, with subnormals and OverflowError), and ties built by construction from the
exact midpoint of two adjacent floats.
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from prtheory.errors import InvalidInputError
from prtheory.oracle.closed_forms import aucpr_min, min_precision
from prtheory.oracle.rounding import exact_rational, rounded, to_float, to_float_array, ulp

TINY = Fraction(1, 2**1200)  # far below half an ulp of any float64, but not zero


def cpython_round(q: Fraction) -> float:
    """CPython's correctly rounded int/int division; inf where it raises OverflowError."""
    try:
        return q.numerator / q.denominator
    except OverflowError:
        return math.inf if q > 0 else -math.inf


def is_even(f: float) -> bool:
    return struct.unpack("<q", struct.pack("<d", abs(f)))[0] & 1 == 0


finite_floats = st.floats(allow_nan=False, allow_infinity=False)
positive_floats = st.floats(min_value=5e-324, max_value=1.7e308, allow_nan=False)


@given(st.integers(-(2**1100), 2**1100), st.integers(1, 2**1100))
def test_fractions_agree_with_cpython_division(n, d):
    q = Fraction(n, d)
    assert to_float(q) == cpython_round(q)


@given(st.integers(1, 2**60), st.integers(-1200, 1100))
def test_scaled_integers_agree_with_cpython_division(m, e):
    q = Fraction(m) * Fraction(2) ** e
    assert to_float(q) == cpython_round(q)


@given(finite_floats)
def test_floats_round_trip(x):
    assert to_float(Fraction(x)) == x


@given(positive_floats)
def test_midpoints_round_to_even_and_nudges_to_the_near_side(f):
    nxt = math.nextafter(f, math.inf)
    if math.isinf(nxt):
        return
    mid = (Fraction(f) + Fraction(nxt)) / 2
    assert to_float(mid) == (f if is_even(f) else nxt)
    assert to_float(mid + TINY) == nxt
    assert to_float(mid - TINY) == f
    assert to_float(-mid) == -to_float(mid)  # negative values mirror


def test_subnormals_zero_and_overflow():
    smallest = Fraction(1, 2**1074)
    assert to_float(smallest) == 5e-324
    assert to_float(smallest / 2) == 0.0  # exact tie with 0: 0 is even
    assert to_float(smallest / 2 + TINY) == 5e-324
    assert to_float(3 * smallest / 2) == 2 * 5e-324  # tie between 1 and 2 units: 2 is even
    assert to_float(Fraction(0)) == 0.0
    big = Fraction(2**1024 - 2**971)  # the largest float64
    assert to_float(big) == 1.7976931348623157e308
    assert to_float(big + 2**970) == math.inf  # the tie with 2**1024 rounds to even: overflow
    assert to_float(big + 2**970 - 1) == 1.7976931348623157e308
    assert to_float(-Fraction(2**1025)) == -math.inf
    assert to_float(2**53 + 1) == 2.0**53  # ints round too (tie to even)


def test_mpf_values_and_specials():
    x = mpmath.mpf(1) / 3
    assert to_float(x) == to_float(exact_rational(x))
    with mpmath.workprec(200):
        y = mpmath.mpf(1) / 3
    assert to_float(y) == 1 / 3
    assert to_float(mpmath.inf) == math.inf
    assert to_float(mpmath.ninf) == -math.inf
    with pytest.raises(InvalidInputError, match=r"^x: must not be NaN"):
        to_float(mpmath.nan)
    with pytest.raises(InvalidInputError, match=r"^x: must not be NaN"):
        to_float(math.nan)
    with pytest.raises(InvalidInputError, match=r"^x: must be a real number"):
        to_float("0.5")
    assert list(to_float_array([Fraction(1, 3), 2])) == [1 / 3, 2.0]


def test_ulp():
    assert ulp(1) == Fraction(1, 2**52)
    assert ulp(0.75) == Fraction(1, 2**53)
    assert ulp(Fraction(1, 2**1074)) == Fraction(1, 2**1074)
    assert ulp(0) == Fraction(1, 2**1074)
    assert ulp(-2.0) == Fraction(1, 2**51)


@pytest.mark.parametrize("pi", ["0.5", "1e-20", "0.999999", "0.3"])
def test_rounded_irrational_values_match_a_300_digit_evaluation(pi):
    """Ziv's loop against the textbook formula at 300 digits (no cancellation left at that
    precision for these skews), rounded once."""
    q = Fraction(pi)
    with mpmath.workdps(300):
        p = mpmath.mpf(q.numerator) / q.denominator
        reference = 1 + (1 - p) * mpmath.log(1 - p) / p
    assert rounded(aucpr_min, q) == to_float(reference)


def test_rounded_exact_values_and_half_ln2():
    assert rounded(min_precision, Fraction(1, 2), Fraction(1, 3)) == 1 / 5  # (1/6)/(5/6)
    with mpmath.workdps(60):
        one_minus_ln2 = 1 - mpmath.log(2)
    assert rounded(aucpr_min, 0.5) == to_float(one_minus_ln2) == 0.3068528194400547


def test_rounded_gives_up_on_exact_ties():
    def midpoint(*, dps):  # the exact midpoint between 1 and its successor, as an mpf
        with mpmath.workprec(200):
            return mpmath.mpf(1) + mpmath.mpf(2) ** -53

    with pytest.raises(ArithmeticError, match="undecided"):
        rounded(midpoint, max_dps=120)
