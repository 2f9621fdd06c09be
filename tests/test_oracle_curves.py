"""PR, ROC and PRG curves: exact values by hand, brute force over small rankings, properties."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prtheory._testing.strategies import rankings
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle.curves import pr_curve, prg_convex_hull, prg_curve, roc_curve
from prtheory.oracle.ratios import Ratios
from prtheory.theory.brute import brute_counts, two_class_rankings

F = Fraction
Y = [0, 0, 1, 1, 0]
S = [0.8, 0.8, 0.8, 0.2, 0.2]


# ------------------------------------------------------------------------------------------
# PR and ROC


def test_pr_curve_by_hand():
    # thresholds .8 (TP 1, FP 2) and .2 (TP 2, FP 3); pos = 2
    c = pr_curve(Y, S)
    assert c.precision == (F(1, 3), F(2, 5))
    assert c.recall == (F(1, 2), F(1))
    assert list(c.thresholds) == [0.8, 0.2]
    assert pr_curve(Y, S, first_point="sklearn").precision[0] == 1
    spark = pr_curve(Y, S, first_point="spark")
    assert spark.precision[:2] == (F(1, 3), F(1, 3))
    assert spark.recall[0] == 0
    assert spark.thresholds[0] == np.inf
    assert spark.tp[0] is None


@pytest.mark.parametrize(
    "n", [2, 3, 4, 5, 6, *[pytest.param(n, marks=pytest.mark.slow) for n in (7, 8)]]
)
def test_pr_and_roc_curves_brute_force(n):
    """Every ranking of n <= 6 items (n = 7, 8 in the slow tier): all label vectors times every tie-block composition."""
    for y, s in two_class_rankings(n):
        pts = brute_counts(y, s)
        pos, neg = sum(y), n - sum(y)
        c = pr_curve(y, s)
        assert c.precision == tuple(F(tp, tp + fp) for tp, fp in pts)
        assert c.recall == tuple(F(tp, pos) for tp, _ in pts)
        r = roc_curve(y, s)
        assert r.tpr == (0, *(F(tp, pos) for tp, _ in pts))
        assert r.fpr == (0, *(F(fp, neg) for _, fp in pts))


def test_weighted_curve_equals_replicated_items():
    # weight 3 on an item is the same as three tied copies of it
    w = pr_curve([1, 0, 1], [3, 2, 1], sample_weight=[3, 1, 2])
    rep = pr_curve([1, 1, 1, 0, 1, 1], [3, 3, 3, 2, 1, 1])
    assert w.precision == rep.precision
    assert w.recall == rep.recall


def test_zero_weight_at_the_top_is_undefined_unless_named():
    with pytest.raises(UndefinedMetricError, match=r"^precision is undefined: .*TP \+ FP = 0"):
        pr_curve([1, 0, 1], [3, 2, 1], sample_weight=[0, 1, 1])
    c = pr_curve([1, 0, 1], [3, 2, 1], sample_weight=[0, 1, 1], convention="sklearn")
    assert c.precision == (0, 0, F(1, 2))


def test_pr_curve_matches_sklearn_exactly():
    sk = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 300)
    s = rng.integers(0, 40, 300) / 7
    precision, recall, thresholds = sk.precision_recall_curve(y, s)
    c = pr_curve(y, s, first_point="sklearn")
    # sklearn computes tp/(tp+fp) and tp/pos as one float division of exact integers: correctly
    # rounded, so it equals the rounded exact fraction bit for bit
    assert precision[::-1].tolist() == [float(p) for p in c.precision]
    assert recall[::-1].tolist() == [float(r) for r in c.recall]
    assert thresholds[::-1].tolist() == c.thresholds[1:].tolist()


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: pr_curve([0, 0], [1, 2]), UndefinedMetricError, r"^recall is undefined: y_true"),
        (lambda: pr_curve(Y, S, first_point="one"), InvalidInputError, r"^first_point: must be"),
        (lambda: pr_curve(Y, [0.1, np.nan, 0, 0, 0]), InvalidInputError, r"^y_score: .*NaN"),
        (lambda: pr_curve(Y, S[:4]), InvalidInputError, r"^y_score: length 4 does not match"),
        (lambda: pr_curve([], []), InvalidInputError, r"^y_true: must not be empty"),
        (lambda: roc_curve([1, 1], [1, 2]), UndefinedMetricError, r"^false positive rate"),
        (
            lambda: roc_curve(Y, S, [1, -1, 1, 1, 1]),
            InvalidInputError,
            r"^sample_weight: must be >= 0",
        ),
        (lambda: prg_curve([1, 1], [1, 2]), UndefinedMetricError, r"^precision gain is undefined"),
        (lambda: prg_curve([0, 0], [1, 2]), UndefinedMetricError, r"^recall gain is undefined"),
    ],
)
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


# ------------------------------------------------------------------------------------------
# PRG


def gains_from_pr(tp, fp, pos, neg):
    """Gains by the first form of Definition 1: (x - pi)/((1 - pi) x) (F5)."""
    pi = F(pos, pos + neg)
    prec, rec = F(tp, 1) / (tp + fp), F(tp, 1) / pos
    return (prec - pi) / ((1 - pi) * prec), (rec - pi) / ((1 - pi) * rec)


def test_prg_curve_by_hand():
    # y = [1, 0, 1, 0] ranked as given: tables (1,0), (1,1), (2,1), (2,2); pi = 1/2, so
    # precG = 1 - FP/TP and recG = 1 - FN/TP
    c = prg_curve([1, 0, 1, 0], [4, 3, 2, 1])
    assert c.recall_gain == (0, 0, 1, 1)
    assert c.precision_gain == (1, 0, F(1, 2), 0)
    assert not c.is_crossing.any()
    assert [c.recall_gain[i] for i in prg_convex_hull(c)] == [0, 1]


@given(rankings())
def test_prg_points_crossings_and_linearity(case):
    y, s = case
    c = prg_curve(y, s)
    pos, neg = sum(y), len(y) - sum(y)
    real = [(tp, fp) for tp, fp in brute_counts(y, s) if tp > 0]
    assert [(c.tp[i], c.fp[i]) for i in np.flatnonzero(~c.is_crossing)] == real
    for i in np.flatnonzero(~c.is_crossing):
        assert (c.precision_gain[i], c.recall_gain[i]) == gains_from_pr(c.tp[i], c.fp[i], pos, neg)
    x, g = c.recall_gain, c.precision_gain
    for i in np.flatnonzero(c.is_crossing):
        assert x[i] == 0 or g[i] == 0  # exactly, not approximately
        # Theorem 1 (F7): the interpolated table lies on the PRG segment of its neighbours
        if 0 < i < len(x) - 1:
            a, b = i - 1, i + 1
            assert (x[i] - x[a]) * (g[b] - g[a]) == (g[i] - g[a]) * (x[b] - x[a])
    # every sign change of recG or precG between consecutive points has a crossing between them
    for a in range(len(x) - 1):
        assert not (x[a] < 0 < x[a + 1])
        assert not (g[a] * g[a + 1] < 0)


@given(rankings())
def test_hull_is_on_or_above_the_curve(case):
    y, s = case
    c = prg_curve(y, s)
    hull = prg_convex_hull(c)
    hx = [c.recall_gain[i] for i in hull]
    hy = [c.precision_gain[i] for i in hull]
    assert hx[0] == 0
    assert hx[-1] == 1
    assert hy[-1] >= 0
    assert all(a < b for a, b in itertools.pairwise(hx))
    slopes = [(hy[k + 1] - hy[k]) / (hx[k + 1] - hx[k]) for k in range(len(hx) - 1)]
    assert all(a > b for a, b in itertools.pairwise(slopes))  # strictly convex
    for x, g in zip(c.recall_gain, c.precision_gain, strict=True):
        if x < 0:
            continue
        k = max(k for k in range(len(hx)) if hx[k] <= x)
        if hx[k] == x:
            assert g <= hy[k]
        else:
            assert g <= hy[k] + slopes[k] * (x - hx[k])


# ------------------------------------------------------------------------------------------
# exact values held as integer arrays


def test_ratios_read_as_fractions():
    r = Ratios(np.array([1, 2, -3]), np.array([2, 4, 9]))
    assert len(r) == 3
    assert r[0] == r[1] == F(1, 2)
    assert r[-1] == F(-1, 3)
    assert list(r) == [F(1, 2), F(1, 2), F(-1, 3)]
    assert r == (F(1, 2), F(1, 2), F(-1, 3))
    assert r != (F(1, 2), F(1, 2))
    assert r != (F(1, 2), F(1, 2), F(1, 3))
    assert r[1:] == Ratios(np.array([1, -1]), np.array([2, 3]))  # other representatives
    assert r != Ratios(np.array([1, 1, -1]), np.array([2, 2, 4]))
    with pytest.raises(TypeError):
        hash(r)


def test_ratios_to_float_is_correctly_rounded():
    # int64 beyond 2**53 and Python-int arrays take the exact path; CPython rounds int / int
    # correctly, and so does float(Fraction), the independent reference here
    rng = np.random.default_rng(3)
    small = Ratios(rng.integers(0, 2**53, 50), rng.integers(1, 2**53, 50))
    wide = Ratios(rng.integers(0, 2**62, 50), rng.integers(1, 2**62, 50))
    huge = Ratios(
        np.array([3**100 + k for k in range(20)], dtype=object),
        np.array([7**60 - k for k in range(20)], dtype=object),
    )
    for r in (small, wide, huge):
        assert r.to_float().tolist() == [float(v) for v in r]
    # 2**54 + 1 is not a float64: one float division would round it first and give 2**54
    assert Ratios(np.array([2**54 + 1]), np.array([2**54])).to_float()[0] == float(
        F(2**54 + 1, 2**54)
    )


def test_counts_of_a_curve_with_a_first_point():
    c = pr_curve(Y, S, first_point="sklearn")
    assert c.tp == (None, 1, 2)
    assert c.fp == (None, 2, 3)
    assert c.tp[-1] == 2
    assert c.tp[:2] == (None, 1)
    assert list(c.fp) == [None, 2, 3]
    assert pr_curve(Y, S).tp == (1, 2)


@settings(max_examples=40)  # each example builds four curves; 40 cover both dtypes' paths
@given(rankings(), st.lists(st.integers(1, 3), min_size=8, max_size=8))
def test_prg_curve_is_scale_invariant_beyond_int64(case, w):
    """Weights times 2**45 push the products past int64 (Python-int path); every gain, the
    crossing pattern and the hull are those of the unscaled weights, TP scales by 2**45."""
    y, s = case
    w = w[: len(y)]
    small = prg_curve(y, s, w)
    big = prg_curve(y, s, [v * 2**45 for v in w])
    assert big.tp.numerators.dtype == object or big.tp.denominators.dtype == object
    assert big.precision_gain == small.precision_gain
    assert big.recall_gain == small.recall_gain
    assert big.is_crossing.tolist() == small.is_crossing.tolist()
    assert big.tp == tuple(t * 2**45 for t in small.tp)
    assert prg_convex_hull(big) == prg_convex_hull(small)
