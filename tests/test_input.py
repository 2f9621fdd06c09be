"""The shared validation module: every bad input gives an error naming the argument."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from prtheory._input import (
    as_float_array,
    as_labels,
    as_scores,
    as_weights,
    check_beta,
    check_count,
    check_recall_range,
    check_skew,
)
from prtheory.errors import InvalidInputError


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: check_skew(1.5), r"^pi: must lie in \[0, 1\], got 1.5$"),
        (lambda: check_skew(-0.1), r"^pi: must lie in \[0, 1\]"),
        (lambda: check_skew(float("nan")), r"^pi: must be a real number, got NaN$"),
        (lambda: check_skew("0.5"), r"^pi: must be a real number, got str"),
        (lambda: check_beta(0), r"^beta: must be > 0, got 0$"),
        (lambda: check_beta(-1.0), r"^beta: must be > 0"),
        (lambda: check_beta(float("inf")), r"^beta: must be finite"),
        (lambda: check_count(-1, "pos"), r"^pos: must be >= 0, got -1$"),
        (lambda: check_count(2.5, "neg"), r"^neg: must be an integer count, got 2.5$"),
        (lambda: check_count(True, "pos"), r"^pos: .*boolean"),
        (lambda: check_recall_range(0.7, 0.2), r"^a, b: need a <= b, got a=0.7 > b=0.2$"),
        (lambda: as_labels([0, 1, 2]), r"^y_true: labels must be 0 or 1, got 2 at index 2$"),
        (lambda: as_labels([]), r"^y_true: must not be empty$"),
        (lambda: as_labels([[0, 1]]), r"^y_true: must be 1-D"),
        (lambda: as_labels(["a", "b"]), r"^y_true: must contain numbers 0/1"),
        (lambda: as_scores([0.1, np.nan], 2), r"^y_score: must not contain NaN \(index 1\)$"),
        (lambda: as_scores([0.1, 0.2], 3), r"^y_score: length 2 does not match y_true's length 3$"),
        (lambda: as_scores(["x"], 1), r"^y_score: must contain real numbers"),
        (lambda: as_weights([1.0, -2.0], 2), r"^sample_weight: must be >= 0, got -2.0 at index 1$"),
        (
            lambda: as_weights([1.0, np.inf], 2),
            r"^sample_weight: must be finite, got inf at index 1$",
        ),
        (lambda: as_weights([1.0], 2), r"^sample_weight: length 1 does not match"),
        (
            lambda: as_float_array([0.5, 2.0], "r", 0.0, 1.0),
            r"^r: must lie in \[0.0, 1.0\], got 2.0 at index \[1\]$",
        ),
        (lambda: as_float_array(np.nan, "pi", 0.0, 1.0), r"^pi: must not be NaN$"),
    ],
)
def test_bad_input_names_the_argument(call, message):
    with pytest.raises(InvalidInputError, match=message):
        call()


def test_errors_are_value_errors():
    with pytest.raises(ValueError, match="pi"):
        check_skew(2)


def test_exact_weights_keep_binary_values():
    # 0.1 is not 1/10 in binary: its exact value is 3602879701896397 / 2**55.
    w = as_weights([0.1, 0.5, 2], 3)
    assert w[0] == Fraction(3602879701896397, 2**55)
    assert w[1] == Fraction(1, 2)
    assert w[2] == 2


def test_fraction_weights_share_one_denominator():
    w = as_weights([Fraction(1, 3), Fraction(1, 6), 1], 3)
    assert w.denominator == 6
    assert [w[i] for i in range(3)] == [Fraction(1, 3), Fraction(1, 6), 1]


def test_labels_accept_bool_and_float_01():
    assert as_labels([True, False]).tolist() == [True, False]
    assert as_labels([0.0, 1.0]).tolist() == [False, True]


def test_scores_allow_infinities():
    s = as_scores([np.inf, -np.inf, 0.0], 3)
    assert s.tolist() == [np.inf, -np.inf, 0.0]
