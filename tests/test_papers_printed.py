"""Printed numbers and certified intervals (prtheory.audit.printed, prtheory.audit.intervals).

Expected sets are written down by hand from the definition of each rounding rule, and the
property test compares against :mod:`decimal`'s own rounding modes applied to the true value.
"""

from __future__ import annotations

import decimal
from fractions import Fraction as F

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from prtheory.audit.intervals import (
    Approx,
    Interval,
    UndecidedComparison,
    compare,
    round_real,
    value_str,
)
from prtheory.audit.printed import parse_printed, parse_skew
from prtheory.errors import InvalidInputError


def _ends(iv: Interval):
    return (iv.lo, iv.hi, iv.lo_closed, iv.hi_closed)


@pytest.mark.parametrize(
    ("text", "rule", "expected"),
    [
        # 0.680 with 3 decimals: midpoints 0.6795 and 0.6805
        ("0.680", "any", (F(6795, 10000), F(6805, 10000), True, True)),
        # last digit 0 is even: both midpoints round to 0.680 under half-even
        ("0.680", "half-even", (F(6795, 10000), F(6805, 10000), True, True)),
        # last digit 9 is odd: 0.6785 -> 0.678 and 0.6795 -> 0.680, so both ends open
        ("0.679", "half-even", (F(6785, 10000), F(6795, 10000), False, False)),
        ("0.680", "half-up", (F(6795, 10000), F(6805, 10000), True, False)),
        ("0.680", "half-down", (F(6795, 10000), F(6805, 10000), False, True)),
        ("0.680", "truncate", (F(68, 100), F(681, 1000), True, False)),
        # percentages: 90.8% has half-width 0.05 percentage points
        ("90.8%", "any", (F(9075, 10000), F(9085, 10000), True, True)),
        ("1", "any", (F(1, 2), F(3, 2), True, True)),
    ],
)
def test_rounding_sets_by_hand(text, rule, expected):
    assert _ends(parse_printed(text, "x").interval(rule)) == expected


def test_decimals_override_and_exact():
    # a JSON number 0.68 that was printed as 0.680
    assert _ends(parse_printed(0.68, "x", decimals=3).interval()) == (
        F(6795, 10000),
        F(6805, 10000),
        True,
        True,
    )
    assert parse_printed("0.5", "beta", decimals="exact").interval().is_point
    assert parse_skew("1:24").interval().lo == F(1, 25)
    assert parse_skew("1:24").exact


@pytest.mark.parametrize("bad", ["abc", "1e-3", "", "0.5.1", "nan", True, None, [0.5]])
def test_malformed_printed_values(bad):
    with pytest.raises(InvalidInputError, match=r"^precision: "):
        parse_printed(bad, "precision")


@pytest.mark.parametrize("bad", ["1:x", "-1:3", "0:0"])
def test_malformed_ratio(bad):
    with pytest.raises(InvalidInputError, match=r"^skew: "):
        parse_skew(bad)


def test_unknown_rounding_rule():
    with pytest.raises(InvalidInputError, match=r"^rounding: "):
        parse_printed("0.5", "x").interval("bankers")


_MODES = {
    "half-even": decimal.ROUND_HALF_EVEN,
    "half-up": decimal.ROUND_HALF_UP,
    "half-down": decimal.ROUND_HALF_DOWN,
    "truncate": decimal.ROUND_DOWN,
}


@given(
    printed=st.integers(min_value=0, max_value=1000),
    offset=st.integers(min_value=-1500, max_value=1500),
    rule=st.sampled_from(["any", *_MODES]),
)
def test_membership_matches_decimal_rounding(printed, offset, rule):
    """v is in the set of printed x iff rounding v to 3 places gives x (decimal module)."""
    x = F(printed, 1000)
    v = x + F(offset, 10**6)  # hits the midpoints x +- 0.0005 exactly for offset = +-500
    box = parse_printed(f"{printed / 1000:.3f}", "x").interval(rule)
    dv = decimal.Decimal(v.numerator) / decimal.Decimal(v.denominator)
    modes = (
        [decimal.ROUND_HALF_EVEN, decimal.ROUND_HALF_UP, decimal.ROUND_HALF_DOWN]
        if rule == "any"
        else [_MODES[rule]]
    )
    expected = any(F(dv.quantize(decimal.Decimal("0.001"), m)) == x for m in modes)
    assert box.contains(v) == expected


def _sqrt2() -> Approx:
    def ev(dps):
        with mpmath.workdps(dps):
            return mpmath.sqrt(2)

    return Approx(ev, "sqrt2")


def test_certified_compare():
    s = _sqrt2()
    assert compare(s, F(141421356237, 10**11)) == 1  # sqrt 2 = 1.41421356237309...
    assert compare(s, F(141421356238, 10**11)) == -1
    assert compare(F(1, 3), F(2, 6)) == 0
    # agrees with sqrt 2 to 60 digits: decided at the 120-digit rung
    with mpmath.workdps(80):
        close = F(int(mpmath.floor(mpmath.sqrt(2) * mpmath.mpf(10) ** 60)), 10**60)
    assert compare(s, close) == 1


def test_equal_values_are_undecided():
    half = Approx(lambda dps: mpmath.mpf(1) / 2, "half")
    with pytest.raises(UndecidedComparison):
        compare(half, F(1, 2))


def test_interval_operations():
    a = Interval(F(0), F(1), True, False)
    b = Interval(F(1), F(2))
    assert not a.meets(b)  # [0, 1) and [1, 2] share nothing
    assert Interval(F(0), F(1)).meets(b)  # [0, 1] and [1, 2] share 1
    c = Interval(F(0), F(1)).intersect(Interval(F(1, 2), F(3), False, True))
    assert _ends(c) == (F(1, 2), F(1), False, True)
    assert Interval(F(0), _sqrt2()).contains(F(14, 10))
    assert not Interval(F(0), _sqrt2()).contains(F(15, 10))
    assert str(Interval(F(6795, 10000), F(6805, 10000), True, False)) == "[0.6795, 0.6805)"


def test_round_real():
    assert round_real(F(6795, 10000), 3) == "0.680"  # midpoint, half to even
    assert round_real(F(6785, 10000), 3) == "0.678"  # midpoint, half to even
    assert round_real(_sqrt2(), 4) == "1.4142"
    assert round_real(F(2), 3) == "2.000"
    assert value_str(F(1, 8)) == "0.125"
    assert value_str(F(1, 3), 4) == "0.3333"
