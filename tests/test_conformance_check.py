"""The check() API and the classifier, on implementations written here from the definitions."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from prtheory.conformance import assert_conforms, parametrize
from prtheory.conformance import check as full_check
from prtheory.conformance.classify import Outcome, classify, ulp_distance
from prtheory.conformance.vectors_io import load
from prtheory.errors import InvalidInputError


def check(fn, *args, **kwargs):
    """check() on the stored vectors alone (generated inputs: test_conformance_differential)."""
    return full_check(fn, *args, **{"differential": False, **kwargs})


def _validated(y_true, y_score, sample_weight=None):
    y = np.asarray(y_true)
    s = np.asarray(y_score, dtype=np.float64)
    w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    if len(y) == 0 or len(y) != len(s) or len(w) != len(y):
        raise ValueError("lengths")
    if np.isnan(s).any() or not np.isin(y, [0, 1]).all() or (w < 0).any():
        raise ValueError("malformed")
    if not (y == 1).any():
        raise ValueError("AP is 0/0 without positives")
    weights = None if sample_weight is None else [Fraction(float(x)) for x in w]
    if weights is not None and not any(wi for wi, yi in zip(weights, y, strict=True) if yi == 1):
        raise ValueError("AP is 0/0 with zero weight on every positive")
    return y == 1, s, weights


def ap_grouped(y_true, y_score, sample_weight=None):
    """AP = sum over distinct thresholds of (R_k - R_{k-1}) P_k, in exact Fractions (N2).

    Weights are taken at their exact binary value; each threshold's counts are sums of them.
    """
    y, s, w = _validated(y_true, y_score, sample_weight)
    distinct = np.unique(s)[::-1]
    block = np.searchsorted(-distinct, -s)  # index of each item's threshold, highest first
    if sample_weight is None:
        tp_block = np.bincount(block[y], minlength=distinct.size).tolist()
        fp_block = np.bincount(block[~y], minlength=distinct.size).tolist()
    else:
        tp_block = [Fraction(0)] * distinct.size
        fp_block = [Fraction(0)] * distinct.size
        for b, yi, wi in zip(block.tolist(), y.tolist(), w, strict=True):
            if yi:
                tp_block[b] += wi
            else:
                fp_block[b] += wi
    pos = sum(tp_block)
    total, tp, fp = Fraction(0), 0, 0
    for gain, false in zip(tp_block, fp_block, strict=True):
        tp, fp = tp + gain, fp + false
        if gain:
            total += Fraction(gain) / pos * Fraction(tp) / (tp + fp)
    return float(total)


def ap_input_order(y_true, y_score):
    """AP over the list sorted stably by score: ties broken by input order."""
    y, s, _ = _validated(y_true, y_score)
    y = y[np.argsort(-s, kind="stable")]
    hits = np.cumsum(y)
    return float(sum(Fraction(int(hits[i]), i + 1) for i in np.flatnonzero(y)) / int(y.sum()))


def test_correct_implementation_passes():
    report = check(ap_grouped, metric="average_precision")
    assert report.ok, report.summary()
    assert report.counts["agrees"] >= 35


def test_input_order_ties_claimed_as_group_are_reported_wrong():
    report = check(ap_input_order, metric="average_precision")
    assert not report.ok
    conventions = {f.verdict.convention for f in report.failures}
    assert "ties=input-order" in conventions
    assert any("ties" in f.vector.flags for f in report.failures)


def test_input_order_ties_pass_when_claimed():
    report = check(
        ap_input_order,
        metric="average_precision",
        conventions=["ties=input-order"],
        skip=["sample_weight"],
    )
    assert report.ok, report.summary()


def test_group_ties_fail_when_input_order_is_claimed():
    report = check(ap_grouped, metric="average_precision", conventions=["ties=input-order"])
    assert not report.ok
    assert all(f.verdict.category == "agrees" for f in report.failures)


def test_float32_implementation_is_classified_float32():
    report = check(lambda y_true, y_score: float(np.float32(ap_grouped(y_true, y_score))))
    cats = report.counts
    assert cats.get("float32", 0) >= 20
    assert not report.ok


def test_sigmoid_on_logits_is_named():
    def sigmoid_ap(y_true, y_score):
        s = np.asarray(y_score, dtype=np.float64)
        if not np.all((s >= 0) & (s <= 1)):
            s = 1 / (1 + np.exp(-s))
        return ap_grouped(y_true, s)

    report = check(sigmoid_ap)
    named = {f.vector.comment: f.verdict.convention for f in report.failures}
    # both saturate: sigmoid(50), sigmoid(40), sigmoid(39) are all 1.0, and so are the sigmoids
    # of 1.8e308, 1e308 and 1e300 (a tie of a negative and two positives: 2/3, not 7/12); and
    # sigmoid(inf) = sigmoid(MAX) = 1.0, sigmoid(-MAX) = sigmoid(-inf) = 0.0: y=[1, 0, 1] on
    # [inf, MAX, -1] ties the positive with the negative (7/12, not 5/6), y=[1, 1, 0] on
    # [1, -MAX, -inf] the second positive with the negative (5/6, not 1)
    assert named == {
        "large logits that saturate the sigmoid to 1.0": "sigmoid-on-logits",
        "huge scores up to the largest float64": "sigmoid-on-logits",
        "+inf above the largest float": "sigmoid-on-logits",
        "-inf below the most negative float": "sigmoid-on-logits",
    }


def test_silently_accepted_invalid_input_is_reported():
    def lax(y_true, y_score):
        y = np.asarray(y_true)
        return ap_grouped(np.clip(y[: len(y_score)], 0, 1), np.nan_to_num(y_score))

    cats = {f.vector.comment: f.verdict.category for f in check(lax).failures}
    assert cats["NaN score"] == "accepted-invalid"
    assert cats["label 2"] == "accepted-invalid"


def test_unknown_convention_is_rejected():
    with pytest.raises(InvalidInputError, match="conventions"):
        check(ap_grouped, conventions=["ties=random"])


def test_ulp_distance():
    assert ulp_distance(1.0, np.nextafter(1.0, 2.0)) == 1
    assert ulp_distance(0.0, -0.0) == 0
    assert ulp_distance(-5e-324, 5e-324) == 2
    assert ulp_distance(1.0, float(np.float32(1.0) + np.finfo(np.float32).eps), np.float32) == 1


def test_classifier_categories_on_a_minimal_vector():
    v = next(x for x in load(["average_precision"]) if x.comment == "every score tied")  # 3/5
    assert classify(v, Outcome(value=0.6)).category == "agrees"
    assert classify(v, Outcome(value=8 / 15)).convention == "ties=input-order"
    assert classify(v, Outcome(value=float(np.float32(0.6)))).category == "float32"
    assert classify(v, Outcome(value=0.7)).category == "wrong"
    assert classify(v, Outcome(error=ValueError("no"))).category == "rejected-valid"
    assert classify(v, Outcome(error=AttributeError("np.alen"))).category == "crashed"
    bad = next(x for x in load(["average_precision"]) if x.comment == "NaN score")
    assert classify(bad, Outcome(value=0.5)).category == "accepted-invalid"
    assert classify(bad, Outcome(error=RuntimeError("nan"))).category == "agrees"


@parametrize("average_precision")
def test_pytest_helper_parametrises_over_vectors(vector):
    assert_conforms(ap_grouped, vector)


def test_pytest_helper_failure_message_has_everything_to_act_on():
    # y = [1, 0, 1, 0], s = [.9, .9, .5, .2]: grouped AP is 7/12 (the tied block has precision
    # 1/2 at recall 1/2, then 2/3 at recall 1); in input order the positive comes first:
    # (1 + 2/3)/2 = 5/6
    vector = next(
        v
        for v in load(["average_precision"])
        if v.comment.startswith("tie of a positive and a negative")
    )
    with pytest.raises(AssertionError) as info:
        assert_conforms(ap_input_order, vector)
    text = str(info.value)
    assert "input: y_true=[1, 0, 1, 0], y_score=[0.9, 0.9, 0.5, 0.2]" in text
    assert "expected: 7/12 = 0.5833333333333334" in text
    assert f"returned: {5 / 6!r}" in text
    # 5/6 - 7/12 = 1/4 = 2^-2; the ulp of numbers in [1/2, 1) is 2^-53: 2^51 ulps
    assert f"distance to the oracle: {2.0**51:.6g} ulps" in text
    # one labelled distance per line: 5/6 is the input-order value itself, 0 ulps from it
    assert "; closest convention: ties=input-order (0 ulps)" in text
    assert "ulp" not in text.splitlines()[0]
    assert text.count("ulps") == 2
    assert "mechanism: ties=" in text
    assert "(predicts 5/6 = 0.8333333333333334)" in text


def test_a_crash_is_the_users_crash_with_a_mechanism_when_one_predicts_it():
    def ap(y_true, y_score):
        if np.isinf(np.asarray(y_score, dtype=np.float64)).any():
            raise ValueError("Input contains infinity")
        return ap_grouped(y_true, y_score)

    report = check(ap, skip=["sample_weight"])
    assert report.diagnosis.chosen == ["rejects-infinite-scores"], report.summary()
    failure = next(f for f in report.failures if f.verdict.category == "rejected-valid")
    text = str(failure)
    assert "your function raised ValueError: Input contains infinity" in text
    assert "mechanism: rejects-infinite-scores (predicts an exception)" in text
