"""Exact point metrics from counts (F1, F2, F4-F6, F8, B16) and their conventions.

Independent references: values worked by hand, the identities of the papers (checked exactly in
rationals, so an identity either holds or the test fails), and scikit-learn where installed.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle import points as pt
from prtheory.oracle.rounding import to_float

counts = st.integers(0, 10**6)
positive = st.integers(1, 10**6)
weights = st.fractions(min_value=0, max_value=1000, max_denominator=10**6)
betas = st.fractions(min_value=Fraction(1, 100), max_value=100, max_denominator=1000)


def test_hand_worked_matrix():
    """TP=3, FP=1, FN=2, TN=10: pos=5, neg=11, pi=5/16, prec=3/4, rec=3/5."""
    assert pt.precision(3, 1) == Fraction(3, 4)
    assert pt.recall(3, 2) == Fraction(3, 5)
    assert pt.fbeta(3, 1, 2) == Fraction(2, 3)  # 2*3/(2*3 + 1 + 2)
    assert pt.fbeta(3, 1, 2, beta=2) == Fraction(5, 8)  # 15/(15 + 1 + 8)
    assert pt.precision_gain(3, 1, 2, 10) == Fraction(28, 33)  # 1 - (5/11)(1/3)
    assert pt.recall_gain(3, 1, 2, 10) == Fraction(23, 33)  # 1 - (5/11)(2/3)
    assert pt.fbeta_gain(3, 1, 2, 10, beta=2) == Fraction(8, 11)  # 1 - (5/11)(9/15)
    # B16: 2 (p - pi) r / (p - pi + (1 - pi) r) = 2 (7/16)(3/5) / (7/16 + (11/16)(3/5)) = 21/34
    assert pt.modified_f1(3, 1, 2, 10) == Fraction(21, 34)


def test_g1_models():
    """Seed 004: model A (TN=90, FP=10, FN=1, TP=99) and B (TN=91, FP=9, FN=3, TP=97)."""
    assert round(to_float(pt.precision(99, 10)), 3) == 0.908
    assert round(to_float(pt.recall(99, 1)), 3) == 0.990
    assert round(to_float(pt.precision(97, 9)), 3) == 0.915
    assert round(to_float(pt.recall(97, 3)), 3) == 0.970


@given(positive, counts, counts)
def test_f1_forms_agree(tp, fp, fn):
    p, r = pt.precision(tp, fp), pt.recall(tp, fn)
    f1 = pt.fbeta(tp, fp, fn)
    assert f1 == 2 / (1 / p + 1 / r) == 2 * p * r / (p + r) == tp / (tp + Fraction(fp + fn, 2))
    # F1 is the accuracy of the table whose TN is replaced by TP
    assert f1 == Fraction(2 * tp, 2 * tp + fp + fn)


@given(positive, counts, counts, betas)
def test_f2_weighted_harmonic_mean(tp, fp, fn, beta):
    p, r, b2 = pt.precision(tp, fp), pt.recall(tp, fn), beta**2
    expected = 1 / ((1 / (1 + b2)) / p + (b2 / (1 + b2)) / r)
    assert pt.fbeta(tp, fp, fn, beta) == expected == pt.fbeta_from_rates(p, r, beta)


@given(positive, counts, counts, positive, betas)
def test_f8_gains_are_linear(tp, fp, fn, tn, beta):
    pg, rg = pt.precision_gain(tp, fp, fn, tn), pt.recall_gain(tp, fp, fn, tn)
    assert pg + beta**2 * rg == (1 + beta**2) * pt.fbeta_gain(tp, fp, fn, tn, beta)


@given(weights, weights, weights, weights)
def test_weighted_counts_and_f4_forms(tp, fp, fn, tn):
    """Fraction counts work; the gain is the harmonic rescaling of F4 in both printed forms."""
    if tp == 0 or fp + tn == 0:
        return
    pi = (tp + fn) / (tp + fp + fn + tn)
    prec = pt.precision(tp, fp)
    first = (1 / prec - 1 / pi) / (1 - 1 / pi)
    second = (prec - pi) / ((1 - pi) * prec)
    assert pt.precision_gain(tp, fp, fn, tn) == first == second == pt.gain(prec, pi)


def test_f6_always_positive_classifier():
    """Predict everything positive: TP = pos, FP = neg, FN = TN = 0 -> (recG, precG) = (1, 0)."""
    for pos, neg in [(1, 9), (5, 5), (7, 1)]:
        assert pt.recall_gain(pos, neg, 0, 0) == 1
        assert pt.precision_gain(pos, neg, 0, 0) == 0
    assert pt.gain(Fraction(1, 3), Fraction(1, 3)) == 0


@given(positive, counts, counts, counts)
def test_b16_modified_f1(tp, fp, fn, tn):
    pi = Fraction(tp + fn, tp + fp + fn + tn)
    p, r = pt.precision(tp, fp), pt.recall(tp, fn)
    value = pt.modified_f1(tp, fp, fn, tn)
    if p <= pi:
        assert value == 0
    else:
        normalised = (p - pi) / (1 - pi)
        assert value == 2 / (1 / r + 1 / normalised)  # harmonic mean of r and normalised p


def test_undefined_values_and_sklearn_convention():
    with pytest.raises(UndefinedMetricError, match="precision is undefined"):
        pt.precision(0, 0)
    with pytest.raises(UndefinedMetricError, match="recall is undefined"):
        pt.recall(0, 0)
    with pytest.raises(UndefinedMetricError, match="F-beta is undefined"):
        pt.fbeta(0, 0, 0)
    assert pt.precision(0, 0, convention="sklearn") == 0
    assert pt.recall(0, 0, convention="sklearn") == 0
    assert pt.fbeta(0, 0, 0, convention="sklearn") == 0
    assert pt.fbeta(0, 3, 2) == 0  # defined: TP = 0 < FP + FN
    assert pt.fbeta_from_rates(0, 0) == 0
    with pytest.raises(
        InvalidInputError, match=r"^convention: 'paper' does not apply to precision"
    ):
        pt.precision(0, 0, convention="paper")
    with pytest.raises(UndefinedMetricError, match="precision gain"):
        pt.precision_gain(3, 0, 2, 0)  # no negatives
    with pytest.raises(UndefinedMetricError, match="precision"):
        pt.precision_gain(0, 0, 2, 5)  # precision undefined
    with pytest.raises(UndefinedMetricError, match="recall gain"):
        pt.recall_gain(0, 1, 2, 5)  # TP = 0: -inf
    with pytest.raises(UndefinedMetricError, match="modified F1"):
        pt.modified_f1(0, 1, 0, 5)


def test_count_validation():
    with pytest.raises(InvalidInputError, match=r"^fp: must be >= 0"):
        pt.precision(1, -1)
    with pytest.raises(InvalidInputError, match=r"^tp: must be a real number, got NaN"):
        pt.precision(float("nan"), 1)
    with pytest.raises(InvalidInputError, match=r"^tn: must be finite"):
        pt.precision_gain(1, 1, 1, float("inf"))
    with pytest.raises(InvalidInputError, match=r"^tp: must be a real number, got a boolean"):
        pt.recall(True, 1)
    with pytest.raises(InvalidInputError, match=r"^beta: must be > 0"):
        pt.fbeta(1, 1, 1, beta=0)
    assert pt.precision(0.5, 1.5) == Fraction(1, 4)  # weighted float counts, taken exactly


def test_against_scikit_learn():
    metrics = pytest.importorskip("sklearn.metrics")
    for tp, fp, fn, tn in [(3, 1, 2, 10), (50, 7, 13, 400), (1, 0, 9, 2), (0, 4, 3, 1)]:
        y_true = [1] * tp + [0] * fp + [1] * fn + [0] * tn
        y_pred = [1] * tp + [1] * fp + [0] * fn + [0] * tn
        # CPython's int/int division is correctly rounded, and so is to_float: for precision and
        # recall scikit-learn divides integer-valued floats once, so the results are identical.
        assert metrics.precision_score(y_true, y_pred, zero_division=0) == to_float(
            pt.precision(tp, fp, convention="sklearn")
        )
        assert metrics.recall_score(y_true, y_pred, zero_division=0) == to_float(
            pt.recall(tp, fn, convention="sklearn")
        )
        # F-beta takes several float operations in scikit-learn: allow 4 ulps of 1.
        ours = to_float(pt.fbeta(tp, fp, fn, 2, convention="sklearn"))
        theirs = metrics.fbeta_score(y_true, y_pred, beta=2, zero_division=0)
        assert abs(ours - theirs) <= 4 * 2.0**-52
