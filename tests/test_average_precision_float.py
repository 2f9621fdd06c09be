"""prtheory.average_precision: the correctly rounded float64 of the exact step AP, bit for bit."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import prtheory
from prtheory._input import as_weights
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle import average_precision as exact_ap
from prtheory.oracle import summation, to_float
from prtheory.oracle.summation import rational_sum, round_quotient_sum


def same_bits(a: float, b: float) -> bool:
    return math.copysign(1, a) == math.copysign(1, b) and a.hex() == b.hex()


@st.composite
def rankings(draw):
    n = draw(st.integers(1, 80))
    y = draw(st.lists(st.booleans(), min_size=n, max_size=n).filter(any))
    levels = draw(st.sampled_from([3, 20, 10**6]))
    s = draw(
        st.lists(
            st.one_of(
                st.integers(-levels, levels).map(float),
                st.sampled_from([math.inf, -math.inf, 0.0, -0.0, 1e-300]),
            ),
            min_size=n,
            max_size=n,
        )
    )
    w = draw(
        st.none()
        | st.lists(st.integers(0, 10**6), min_size=n, max_size=n)
        | st.lists(st.floats(0, 1e6, allow_nan=False, allow_infinity=False), min_size=n, max_size=n)
    )
    if w is not None and not any(wi > 0 and yi for wi, yi in zip(w, y, strict=True)):
        w = None
    return y, s, w


@given(rankings())
@example(([0, 0, 1, 1, 0], [0.8, 0.8, 0.8, 0.2, 0.2], None))  # 11/30: sklearn gives 1 ulp more
def test_float_ap_is_correctly_rounded_exact_ap(data):
    y, s, w = data
    got = prtheory.average_precision(y, s, sample_weight=w)
    assert same_bits(got, to_float(exact_ap(y, s, sample_weight=w)))
    assert same_bits(got, float(exact_ap(y, s, sample_weight=w)))  # CPython's int/int rounding


def test_value_sklearn_rounds_differently():
    # 11/30 = 0.36666...: nearest float64 is 0x1.7777777777777p-2 (0.36666666666666664);
    # scikit-learn 1.9.1 returns 0.3666666666666667, one ulp above, from float accumulation.
    assert prtheory.average_precision([0, 0, 1, 1, 0], [0.8, 0.8, 0.8, 0.2, 0.2]) == 11 / 30
    assert (11 / 30).hex() == "0x1.7777777777777p-2"


def test_large_random_inputs_match_the_exact_value():
    rng = np.random.default_rng(11)
    for n, p, decimals in [(10**5, 0.01, None), (10**5, 0.5, None), (10**5, 0.2, 2)]:
        y = rng.random(n) < p
        s = rng.random(n) if decimals is None else np.round(rng.random(n), decimals)
        assert same_bits(prtheory.average_precision(y, s), to_float(exact_ap(y, s)))


@given(
    st.lists(st.tuples(st.integers(0, 2**40), st.integers(1, 2**45)), min_size=1, max_size=50),
    st.integers(1, 2**40),
    st.integers(1, 4),
)
def test_round_quotient_sum_against_exact(terms, divisor, digits):
    exact = sum((Fraction(a, d) for a, d in terms), Fraction(0)) / divisor
    for dtype in (np.int64, object):  # the int64 digit columns and the Python-integer digits
        nums = np.array([a for a, _ in terms], dtype=dtype)
        dens = np.array([d for _, d in terms], dtype=dtype)
        got = round_quotient_sum(nums, dens, divisor, max_digits=digits)
        assert same_bits(got, to_float(exact))


def test_round_quotient_sum_midpoints_and_fallbacks():
    # 1 + 2**-53 is the midpoint between 1 and 1 + 2**-52: ties to even gives 1.0
    assert round_quotient_sum(np.array([2**53 + 1]), np.array([1]), 2**53) == 1.0
    # 1 + 3 * 2**-53 is a midpoint too: even neighbour is 1 + 2**-51
    assert round_quotient_sum(np.array([2**53 + 3]), np.array([1]), 2**53) == 1 + 2**-51
    # a midpoint reached only through the digit expansion: (2**53 + 1)/3 * 3 / 2**53
    nums, dens = np.array([2**53 + 1] * 3), np.array([3, 3, 3])
    assert round_quotient_sum(nums, dens, 2**53) == 1.0
    # a denominator beyond 2**46 and Python-int numerators take the exact path
    big = round_quotient_sum(np.array([1, 1]), np.array([3, 2**50]), 1)
    assert big == to_float(Fraction(1, 3) + Fraction(1, 2**50))
    # the same midpoint with Python-integer terms: the zero remainders make it exact at once
    one = np.array([2**53 + 1], dtype=object)
    assert round_quotient_sum(one, np.array([1], dtype=object), 2**53) == 1.0
    obj = round_quotient_sum(np.array([2**70], dtype=object), np.array([3], dtype=object), 7)
    assert obj == to_float(Fraction(2**70, 21))
    assert round_quotient_sum(np.array([], dtype=np.int64), np.array([], dtype=np.int64), 1) == 0


@given(
    st.lists(
        st.tuples(
            st.integers(-(10**30), 10**30),
            # small denominators, and beyond summation.UNREDUCED_MIN_BITS (gmpy2's other tree)
            st.integers(1, 10**12) | st.integers(1, 2**200).map(lambda d: d << 60),
        ),
        max_size=40,
    )
)
def test_rational_sum_is_exact_in_both_backends(terms):
    """Equal to Fraction's own sum, in lowest terms, on every backend and both gmpy2 trees."""
    want = sum((Fraction(a, d) for a, d in terms), Fraction(0))
    for b in summation.BACKENDS:
        old, summation.backend = summation.backend, b
        try:
            got = rational_sum([a for a, _ in terms], [d for _, d in terms])
        finally:
            summation.backend = old
        assert got == want
        assert (got.numerator, got.denominator) == (want.numerator, want.denominator)


_SHARED = st.sampled_from([2, 3, 5, 7, 2**61 - 1, 2**127 - 1])


@given(
    st.lists(
        st.tuples(
            st.integers(-(10**40), 10**40),
            # products of shared primes (Henrici's gcd steps: g > 1, and g2 > 1 when the sum
            # cancels a shared factor), times an arbitrary cofactor
            st.lists(_SHARED, max_size=6).map(math.prod),
            st.integers(1, 10**9),
        ),
        max_size=30,
    )
)
def test_reduced_sum_of_reduced_fractions_is_exact_in_both_backends(terms):
    """Equal to Fraction's own sum, in lowest terms: Henrici's additions keep lowest terms."""
    parts = [Fraction(a, d * c) for a, d, c in terms]  # each term in lowest terms
    want = sum(parts, Fraction(0))
    for b in summation.BACKENDS:
        old, summation.backend = summation.backend, b
        try:
            got = summation.reduced_sum(
                [f.numerator for f in parts], [f.denominator for f in parts]
            )
        finally:
            summation.backend = old
        assert (got.numerator, got.denominator) == (want.numerator, want.denominator)


@given(
    st.lists(
        st.floats(0, 1e300, allow_nan=False, allow_infinity=False)
        | st.sampled_from([0.0, 5e-324, 2.0**-1022, 0.1, 2.0**62, 2.0**62 + 2**10]),
        min_size=1,
        max_size=30,
    )
)
def test_float_weights_convert_exactly(values):
    """The vectorised float path of as_weights equals Fraction(x) item by item, lowest terms."""
    w = as_weights(np.array(values, dtype=np.float64), len(values))
    want = [Fraction(x) for x in values]
    assert [Fraction(int(v), w.denominator) for v in w.numerators] == want
    assert w.denominator == math.lcm(*(f.denominator for f in want))
    if w.numerators.dtype != object:
        assert int(w.numerators.max()) < 2**62


def test_huge_weights_go_exact():
    # weights whose products overflow int64 still give the correctly rounded value
    y, s, w = [1, 0, 1], [3, 2, 1], [2**61, 3, 2**61 - 1]
    assert same_bits(prtheory.average_precision(y, s, sample_weight=w), to_float(exact_ap(y, s, w)))


def test_no_positives():
    with pytest.raises(UndefinedMetricError, match="average precision is undefined"):
        prtheory.average_precision([0, 0], [0.2, 0.1])
    assert prtheory.average_precision([0, 0], [0.2, 0.1], convention="sklearn") == 0.0


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (([0, 1], [0.1, float("nan")]), r"y_score: must not contain NaN \(index 1\)"),
        (([0, 1, 1], [0.1, 0.2]), r"y_score: length 2 does not match y_true's length 3"),
        (([], []), r"y_true: must not be empty"),
        (([0, 1], [0.1, 0.2], [1, -2]), r"sample_weight: must be >= 0, got -2 at index 1"),
        (([0, 1], [0.1, 0.2], [1, float("nan")]), r"sample_weight: must be finite"),
        (([0, 1], ["a", "b"]), r"y_score: must contain real numbers"),
    ],
)
def test_errors_match_the_oracle(args, match):
    """One validation path: the float entry point and the oracle raise the same message
    (where their contracts agree: the float AP also takes other labels with ``pos_label``, and
    score matrices)."""
    with pytest.raises(InvalidInputError, match=match) as fast:
        prtheory.average_precision(*args[:2], sample_weight=args[2] if len(args) > 2 else None)
    with pytest.raises(InvalidInputError) as oracle:
        exact_ap(*args)
    assert str(fast.value) == str(oracle.value)


@given(
    st.lists(
        st.tuples(
            st.lists(st.tuples(st.integers(0, 2**40), st.integers(1, 2**47)), max_size=20),
            st.fractions(max_denominator=10**6).filter(bool),
        ),
        max_size=4,
    ),
    st.fractions(max_denominator=2**60),
    st.sampled_from([np.int64, object]),
)
def test_round_combination_against_exact(parts, constant, dtype):
    """Signed coefficients, a constant, int64 and Python-integer parts: the rounded exact sum."""
    exact = constant + sum(
        (c * sum((Fraction(a, d) for a, d in terms), Fraction(0)) for terms, c in parts),
        Fraction(0),
    )
    sums = [
        summation.QuotientSum(
            np.array([a for a, _ in terms], dtype=dtype),
            np.array([d for _, d in terms], dtype=dtype),
            c,
        )
        for terms, c in parts
    ]
    assert same_bits(summation.round_combination(sums, constant), to_float(exact))


def test_round_combination_cancellation_and_midpoint():
    # 1/3 - 1/3 + 2**-1074 / 2: exactly half the least subnormal, ties to even give 0.0; the
    # digit expansions of 1/3 never terminate, so the exact fallback decides
    third = summation.QuotientSum(np.array([1]), np.array([3]), Fraction(1))
    minus = summation.QuotientSum(np.array([1]), np.array([3]), Fraction(-1))
    assert summation.round_combination([third, minus], Fraction(1, 2**1075)) == 0.0
    assert summation.round_combination([third, minus], Fraction(3, 2**1075)) == 2 * 5e-324
