"""Float curves, P@k, R-precision and F-beta at a threshold against the oracle and scikit-learn."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import prtheory
from prtheory import oracle
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle import points, to_float


@st.composite
def rankings(draw, weights=True):
    n = draw(st.integers(1, 30))
    y = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    s = draw(st.lists(st.integers(0, draw(st.sampled_from([2, 6, 1000]))), min_size=n, max_size=n))
    w = None
    if weights:
        w = draw(
            st.none()
            | st.lists(st.integers(1, 5), min_size=n, max_size=n)
            | st.lists(st.floats(0.01, 100), min_size=n, max_size=n)
        )
    return y, [float(v) for v in s], w


def _rounded(ratios) -> list[float]:
    return [to_float(v) for v in ratios]


@given(rankings(), st.sampled_from(["sklearn", "spark", "none"]))
def test_pr_curve_is_the_rounded_oracle_reversed(data, first_point):
    y, s, w = data
    if not any(y):
        with pytest.raises(UndefinedMetricError):
            prtheory.precision_recall_curve(y, s, sample_weight=w)
        return
    c = oracle.pr_curve(y, s, w, first_point=first_point)
    got = prtheory.precision_recall_curve(y, s, sample_weight=w, first_point=first_point)
    assert got.precision.tolist() == _rounded(c.precision)[::-1]
    assert got.recall.tolist() == _rounded(c.recall)[::-1]
    assert got.thresholds.tolist() == sorted(set(s))
    precision, recall, thresholds = got  # unpacks like scikit-learn's tuple
    assert precision is got.precision
    assert thresholds is got.thresholds
    assert len(got) == 3
    assert got[1:] == (recall, thresholds)


@given(rankings())
def test_roc_and_prg_curves_are_the_rounded_oracle(data):
    y, s, w = data
    if all(y) or not any(y):
        with pytest.raises(UndefinedMetricError):
            prtheory.roc_curve(y, s, sample_weight=w)
        return
    c = oracle.roc_curve(y, s, w)
    fpr, tpr, thresholds = prtheory.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    assert fpr.tolist() == _rounded(c.fpr)
    assert tpr.tolist() == _rounded(c.tpr)
    assert thresholds.tolist() == [math.inf, *sorted(set(s), reverse=True)]
    g = oracle.prg_curve(y, s, w)
    got = prtheory.prg_curve(y, s, sample_weight=w)
    assert got.precision_gain.tolist() == _rounded(g.precision_gain)
    assert got.recall_gain.tolist() == _rounded(g.recall_gain)
    assert got.is_crossing.tolist() == g.is_crossing.tolist()


def test_curves_by_hand():
    y, s = [0, 0, 1, 1, 0], [0.8, 0.8, 0.8, 0.2, 0.2]
    # t = .8: TP 1, FP 2; t = .2: TP 2, FP 3 (pos 2, neg 3)
    p, r, t = prtheory.precision_recall_curve(y, s)
    assert p.tolist() == [2 / 5, 1 / 3, 1.0]
    assert r.tolist() == [1.0, 0.5, 0.0]
    assert t.tolist() == [0.2, 0.8]
    fpr, tpr, t = prtheory.roc_curve(y, s)
    assert fpr.tolist() == [0.0, 2 / 3, 1.0]
    assert tpr.tolist() == [0.0, 0.5, 1.0]
    # PRG of [1, 0, 1, 0] by [4, 3, 2, 1] (pi = 1/2, so precG = 1 - FP/TP, recG = 1 - FN/TP):
    # (TP, FP) = (1, 0): (recG, precG) = (0, 1); (1, 1): (0, 0); (2, 1): (1, 1/2); (2, 2): (1, 0)
    g = prtheory.prg_curve([1, 0, 1, 0], [4, 3, 2, 1])
    assert g.recall_gain.tolist() == [0, 0, 1, 1]
    assert g.precision_gain.tolist() == [1, 0, 0.5, 0]


sklearn = pytest.importorskip("sklearn.metrics")


@pytest.mark.parametrize("drop", [False, True])
def test_curves_equal_sklearn_bit_for_bit(drop):
    """Unit and integer weights: scikit-learn's one division per point is correctly rounded too,
    and drop_intermediate follows the same rules on exact counts."""
    rng = np.random.default_rng(2)
    y = rng.random(3000) < 0.2
    s = np.round(rng.random(3000), 2)
    for w in (None, rng.integers(1, 4, 3000)):
        ours = prtheory.precision_recall_curve(y, s, sample_weight=w, drop_intermediate=drop)
        theirs = sklearn.precision_recall_curve(y, s, sample_weight=w, drop_intermediate=drop)
        for a, b in zip(ours, theirs, strict=True):
            assert a.tolist() == b.tolist()
        ours = prtheory.roc_curve(y, s, sample_weight=w, drop_intermediate=drop)
        theirs = sklearn.roc_curve(y, s, sample_weight=w, drop_intermediate=drop)
        for a, b in zip(ours, theirs, strict=True):
            assert a.tolist() == b.tolist()
    assert sklearn.auc(*prtheory.precision_recall_curve(y, s)[1::-1]) == sklearn.auc(
        *sklearn.precision_recall_curve(y, s)[1::-1]
    )


# ------------------------------------------------------------------------------------------
# P@k, R-precision, F-beta at a threshold


@given(
    rankings(weights=False),
    st.integers(1, 40),
    st.sampled_from(["expected", "optimistic", "pessimistic", "input-order"]),
)
def test_precision_at_k_and_r_precision_are_the_rounded_oracle(data, k, ties):
    y, s, _ = data
    got = prtheory.precision_at_k(y, s, k, ties=ties)
    assert got == to_float(oracle.precision_at_k(y, s, k, ties=ties))
    if any(y):
        assert prtheory.r_precision(y, s, ties=ties) == to_float(
            oracle.r_precision(y, s, ties=ties)
        )
    else:
        with pytest.raises(UndefinedMetricError):
            prtheory.r_precision(y, s, ties=ties)


def test_precision_at_k_by_hand():
    y, s = [1, 0, 1, 1, 0], [5, 4, 4, 4, 1]
    # k = 2: item 1st (+) then one of the three tied at 4 (two positive): 1 + 2/3 expected
    assert prtheory.precision_at_k(y, s, 2) == to_float(Fraction(5, 3) / 2)
    assert prtheory.precision_at_k(y, s, 2, ties="optimistic") == 1.0
    assert prtheory.precision_at_k(y, s, 2, ties="pessimistic") == 0.5
    assert prtheory.precision_at_k(y, s, 10) == 3 / 10  # missing predictions are false (N4)
    with pytest.raises(InvalidInputError, match="k: must be >= 1"):
        prtheory.precision_at_k(y, s, 0)
    with pytest.raises(InvalidInputError, match="sample_weight: P@k and R-precision count items"):
        prtheory.precision_at_k(y, s, 2, sample_weight=[1] * 5)
    assert prtheory.precision_at_k(["a", "b", "a"], [3, 2, 1], 1, pos_label="a") == 1.0


@given(rankings(), st.sampled_from([0.5, 1, 2, 1e-3]), st.integers(0, 6))
def test_fbeta_at_threshold_from_brute_counts(data, beta, threshold):
    y, s, w = data
    wq = [1] * len(y) if w is None else [Fraction(x) for x in w]
    tp = sum(wi for yi, si, wi in zip(y, s, wq, strict=True) if yi and si >= threshold)
    fp = sum(wi for yi, si, wi in zip(y, s, wq, strict=True) if not yi and si >= threshold)
    fn = sum(wi for yi, si, wi in zip(y, s, wq, strict=True) if yi and si < threshold)
    call = lambda **kw: prtheory.fbeta_at_threshold(  # noqa: E731
        y, s, threshold=threshold, beta=beta, sample_weight=w, **kw
    )
    if tp + fp + fn == 0:
        with pytest.raises(UndefinedMetricError):
            call()
        assert call(convention="sklearn") == 0.0
        return
    assert call() == to_float(points.fbeta(tp, fp, fn, beta))


def test_fbeta_by_hand():
    # predicted positive iff score >= .5: items 0, 1, 2; TP 1, FP 2, FN 1: F1 = 2/(2 + 2 + 1)
    assert (
        prtheory.fbeta_at_threshold([0, 0, 1, 1, 0], [0.8, 0.8, 0.8, 0.2, 0.2], threshold=0.5)
        == 0.4
    )
    with pytest.raises(InvalidInputError, match="threshold: must not be NaN"):
        prtheory.fbeta_at_threshold([0, 1], [0.1, 0.2], threshold=float("nan"))


def _trapezoid(recall, precision) -> Fraction:
    """The exact area under straight lines through the points, in order."""
    pts = list(zip(recall, precision, strict=True))
    return sum(
        ((r1 - r0) * (p0 + p1) / 2 for (r0, p0), (r1, p1) in itertools.pairwise(pts)), Fraction(0)
    )


@given(rankings(weights=False), st.data())
def test_zero_weight_items_are_dropped_from_curves_as_from_areas(data, draw):
    # items of weight 0 (at the top too, where TP + FP = 0 had no precision) are dropped as
    # scikit-learn drops them: the curve is the oracle's curve of the other items, and the
    # float trapezoid is the exact area under that curve's exact points
    y, s, _ = data
    n = len(y)
    zero = draw.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    w = [0.0 if z else float(draw.draw(st.integers(1, 4))) / 4 for z in zero]
    keep = [i for i in range(n) if not zero[i]]
    yk, sk, wk = [y[i] for i in keep], [s[i] for i in keep], [w[i] for i in keep]
    if not keep or not any(yk):
        with pytest.raises(UndefinedMetricError):
            prtheory.precision_recall_curve(y, s, sample_weight=w)
        return
    c = oracle.pr_curve(yk, sk, wk, first_point="sklearn")
    got = prtheory.precision_recall_curve(y, s, sample_weight=w)
    assert got.precision.tolist() == _rounded(c.precision)[::-1]
    assert got.recall.tolist() == _rounded(c.recall)[::-1]
    assert got.thresholds.tolist() == sorted(set(sk))
    area = prtheory.pr_auc(y, s, sample_weight=w, method="trapezoid")
    assert area == to_float(_trapezoid(list(c.recall), list(c.precision)))
    if all(yk):
        return
    r = oracle.roc_curve(yk, sk, wk)
    fpr, tpr, thresholds = prtheory.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    assert fpr.tolist() == _rounded(r.fpr)
    assert tpr.tolist() == _rounded(r.tpr)
    assert thresholds.tolist() == [math.inf, *sorted(set(sk), reverse=True)]
    assert prtheory.roc_auc(y, s, sample_weight=w) == to_float(_trapezoid(list(r.fpr), list(r.tpr)))


def test_zero_weight_on_top_by_hand():
    # the top item has weight 0: before, the curve raised (precision 0/0 at its threshold)
    # while the trapezoid dropped it. Without it: .8 (pos), .7 (neg), .6 (pos): points
    # (recall, precision) (1/2, 1), (1/2, 1/2), (1, 2/3), and the first point (0, 1)
    got = prtheory.precision_recall_curve(
        [0, 1, 0, 1], [0.9, 0.8, 0.7, 0.6], sample_weight=[0, 1, 1, 1]
    )
    assert got.precision.tolist() == [2 / 3, 1 / 2, 1.0, 1.0]
    assert got.recall.tolist() == [1.0, 0.5, 0.5, 0.0]
    assert got.thresholds.tolist() == [0.6, 0.7, 0.8]
