"""One rule for every entry point: numbers are used at their exact value or rejected, strings are
never parsed, and every bad input gets an error naming the argument.

Expected values are by hand: AP of ``y = [0, 1]`` ranked by increasing score is 1, of the
reverse 1/2; the other metrics are compared with the same call on float64 inputs of equal
value.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import prtheory
from prtheory import oracle
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle import auprg, pr_auc, precision_at_k, roc_auc

THIRD = Fraction(1, 3)
INEXACT_SCORES = [
    [THIRD, THIRD + Fraction(1, 10**30)],  # would round to two equal floats
    [Decimal("0.1"), Decimal("0.2")],
    [2**53 + 1, 2**53],
    np.array([1, 2], dtype=np.longdouble) / 3,
]
RANKING_FUNCTIONS = [
    lambda y, s: oracle.average_precision(y, s),
    lambda y, s: prtheory.average_precision(y, s),
    lambda y, s: pr_auc(y, s, method="trapezoid", first_point="sklearn"),
    lambda y, s: precision_at_k(y, s, 1),
    lambda y, s: roc_auc(y, s),
    lambda y, s: auprg(y, s, negative_gain="signed"),
]


@pytest.mark.parametrize("fn", RANKING_FUNCTIONS)
@pytest.mark.parametrize("scores", INEXACT_SCORES, ids=["fraction", "decimal", "int", "longdouble"])
def test_scores_that_are_not_float64_are_rejected_everywhere(fn, scores):
    if isinstance(scores, np.ndarray) and np.finfo(np.longdouble).nmant <= 52:
        pytest.skip("longdouble is float64 on this platform")
    with pytest.raises(InvalidInputError, match=r"^y_score: .* is not exactly a float64"):
        fn([0, 1, 1][: len(scores)], scores)


@pytest.mark.parametrize("fn", RANKING_FUNCTIONS)
def test_exact_scores_that_are_float64_are_used_as_such(fn):
    y = [0, 1, 1]
    exact = [Fraction(1, 2), Decimal("0.25"), 2**60]
    assert fn(y, exact) == fn(y, [0.5, 0.25, float(2**60)])
    assert fn(y, np.array([*exact[:2], 4], dtype=object)) == fn(y, [0.5, 0.25, 4.0])


def test_the_audit_case_is_rejected_not_misranked():
    # AP would be 1 (the positive scores higher); rounding both to 1/3 gave 1/2
    with pytest.raises(InvalidInputError, match="y_score"):
        oracle.average_precision([0, 1], [THIRD, THIRD + Fraction(1, 10**30)])
    assert oracle.average_precision([0, 1], [0.25, 0.5]) == 1
    assert oracle.average_precision([0, 1], [0.5, 0.25]) == Fraction(1, 2)


def test_longdouble_weights_exact_or_rejected():
    if np.finfo(np.longdouble).nmant <= 52:
        pytest.skip("longdouble is float64 on this platform")
    y, s = [0, 1, 1], [3, 2, 1]
    w = np.array([1, 2, 4], dtype=np.longdouble) / 8
    assert oracle.average_precision(y, s, w) == oracle.average_precision(y, s, [1, 2, 4])
    with pytest.raises(InvalidInputError, match=r"^sample_weight: .* not exactly a float64"):
        oracle.average_precision(y, s, np.array([1, 1, 1], dtype=np.longdouble) / 3)


@pytest.mark.parametrize("scores", [["10", "9"], ["1e400", "0"], np.array(["1", "2"]), [1.0, "2"]])
def test_string_scores_are_never_parsed(scores):
    for fn in (oracle.average_precision, prtheory.average_precision):
        with pytest.raises(InvalidInputError, match=r"^y_score: must contain real numbers"):
            fn([0, 1], scores)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: prtheory.aucpr_min("0.5"), r"^pi: must be real numbers, got a string"),
        (lambda: prtheory.aucpr_min(["0.5"]), r"^pi: must contain real numbers"),
        (lambda: oracle.aucpr_min("0.5"), r"^pi: must be a real number, got str"),
        (lambda: prtheory.aucpr_min(10**400), r"^pi: 1000.* is not exactly a float64"),
        (lambda: prtheory.ap_min(10**400, 1), r"^pos: 1000.* is not exactly a float64"),
        (lambda: prtheory.ap_min(True, 3), r"^pos: must be a real number, got a boolean"),
        (lambda: prtheory.aucpr_min(THIRD), r"^pi: Fraction\(1, 3\) .*not exactly a float64"),
        (lambda: prtheory.fbeta(0.5, 0.5, beta=np.array([True])), r"^beta: .*booleans"),
        (
            lambda: oracle.average_precision((v for v in [0, 1]), [1, 2]),
            r"^y_true: must be a sequence or an array, got a generator",
        ),
        (
            lambda: prtheory.aucpr_min(iter([0.5])),
            r"^pi: must be a sequence or an array, got a list_iterator",
        ),
        (lambda: precision_at_k([0, 1], [1, 2], -1), r"^k: must be >= 1, got -1$"),
        (lambda: precision_at_k([0, 1], [1, 2], 0), r"^k: must be >= 1, got 0$"),
    ],
)
def test_bad_inputs_name_the_argument(call, message):
    with pytest.raises(InvalidInputError, match=message):
        call()


def test_exact_float_layer_arguments_are_accepted():
    assert prtheory.aucpr_min(Fraction(1, 2)) == prtheory.aucpr_min(0.5)
    assert prtheory.aucpr_min(Decimal("0.5")) == prtheory.aucpr_min(0.5)
    assert prtheory.ap_min(2**40, 3) == prtheory.ap_min(float(2**40), 3.0)


def test_zero_weight_on_every_positive_says_so():
    for fn in (oracle.average_precision, prtheory.average_precision):
        with pytest.raises(UndefinedMetricError, match="sample_weight is 0 on every positive"):
            fn([0, 1, 1], [3, 2, 1], sample_weight=[1, 0, 0])
        with pytest.raises(UndefinedMetricError, match="y_true has no positive labels"):
            fn([0, 0], [2, 1])


def test_a_tensor_that_tracks_gradients_is_read_through_detach():
    torch = pytest.importorskip("torch")
    s = torch.tensor([0.1, 0.9, 0.4], dtype=torch.float64, requires_grad=True)
    # y = 0 1 1 ranked 1, 2, 0: positives at ranks 1 and 2, AP = 1
    assert prtheory.average_precision([0, 1, 1], s) == 1.0
    assert oracle.average_precision([0, 1, 1], s) == 1
    pi = torch.tensor([0.5], dtype=torch.float64, requires_grad=True)
    assert prtheory.aucpr_min(pi)[0] == prtheory.aucpr_min(0.5)
