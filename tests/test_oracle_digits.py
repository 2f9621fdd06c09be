"""Oracle results print at the precision asked for, and are the same numbers as before."""

from __future__ import annotations

import pickle
from fractions import Fraction

import mpmath
import pytest

from prtheory import oracle
from prtheory.oracle.digits import Digits

Y, S = [0, 0, 1, 1, 0], [0.8, 0.8, 0.8, 0.2, 0.2]


def _one_minus_ln2(digits: int) -> str:
    # independent value: 1 - ln 2 (claim B4 at pi = 1/2) at 30 more digits, then printed
    with mpmath.workdps(digits + 30):
        return mpmath.nstr(1 - mpmath.log(2), digits)


@pytest.mark.parametrize("dps", [5, 17, 40, 100])
def test_str_gives_the_digits_asked_for(dps):
    v = oracle.aucpr_min(Fraction(1, 2), dps=dps)
    assert isinstance(v, mpmath.mpf)
    assert str(v) == _one_minus_ln2(dps)


def test_repr_round_trips_at_the_precision_of_the_value():
    v = oracle.aucpr_min(Fraction(1, 2), dps=40)
    text = repr(v)
    assert text.startswith("mpf('0.30685281944005469058276787854182343192449")
    with mpmath.workdps(40):
        assert mpmath.mpf(text[5:-2]) == v


def test_the_value_is_the_undecorated_functions_bit_for_bit():
    for fn, args, kwargs in (
        (oracle.aucpr_min, (Fraction(1, 3),), {"dps": 40}),
        (oracle.aucnpr, (Fraction(1, 2), Fraction(1, 4)), {"dps": 25}),
        (oracle.pr_auc, (Y, S), {"method": "davis-goadrich", "first_point": "spark", "dps": 30}),
        (oracle.ap_min, (10**9, 10**12), {"dps": 20}),
    ):
        shown = fn(*args, **kwargs)
        plain = fn.__wrapped__(*args, **kwargs)
        assert type(shown) is Digits
        assert type(plain) is not Digits
        assert shown._mpf_ == plain._mpf_


def test_exact_results_are_unchanged():
    assert oracle.pr_auc(Y, S, method="trapezoid", first_point="sklearn") == Fraction(31, 60)
    assert type(oracle.ap_min(2, 1)) is Fraction


def test_pickling_keeps_every_bit_and_the_digits():
    v = oracle.aucpr_min(Fraction(1, 2), dps=60)
    w = pickle.loads(pickle.dumps(v))
    assert w._mpf_ == v._mpf_
    assert str(w) == str(v)
    assert str(w) == _one_minus_ln2(60)


def test_arithmetic_gives_plain_mpf_at_the_context_precision():
    v = oracle.aucpr_min(Fraction(1, 2), dps=40)
    assert type(v + 1) is mpmath.mpf
    assert oracle.rounded(oracle.aucpr_min, Fraction(1, 2)) == 0.3068528194400547
