"""The metrics added for scikit-learn's ranking family, each against an independent reference.

* ``roc_auc(max_fpr=)``: McClish's standardised partial AUC from a brute-force integral of the
  ROC polyline (points counted per threshold in Python, the area cut at ``max_fpr`` by hand);
* ``det_curve``: scikit-learn's arrays bit for bit for unit weights (its counts are exact
  integers then and each rate one correctly rounded division), the rounded exact rates for
  float weights;
* ``auc``: exact Fractions of the trapezoids, on inputs that cancel and span many binades;
* ``label_ranking_average_precision``: the definition row by row in Fractions;
* ``top_k_accuracy``: Python's ``sorted`` with scikit-learn's tie rule, in Fractions.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import prtheory
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle import to_float


@st.composite
def binary(draw, weights=True):
    n = draw(st.integers(2, 25))
    y = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    s = draw(st.lists(st.integers(0, draw(st.sampled_from([3, 1000]))), min_size=n, max_size=n))
    w = None
    if weights and draw(st.booleans()):
        w = draw(st.lists(st.sampled_from([0.25, 0.5, 1.0, 3.0, 0.1]), min_size=n, max_size=n))
    return y, [float(v) for v in s], w


def _roc_points(y, s, w):
    """ROC vertices (FPR, TPR) as Fractions, counted directly at each distinct threshold."""
    w = [Fraction(1)] * len(y) if w is None else [Fraction(v) for v in w]
    pos = sum(wi for yi, wi in zip(y, w, strict=True) if yi)
    neg = sum(wi for yi, wi in zip(y, w, strict=True) if not yi)
    points = [(Fraction(0), Fraction(0))]
    for t in sorted(set(s), reverse=True):
        tp = sum(wi for yi, si, wi in zip(y, s, w, strict=True) if yi and si >= t)
        fp = sum(wi for yi, si, wi in zip(y, s, w, strict=True) if not yi and si >= t)
        points.append((fp / neg, tp / pos))
    return points


def _area_until(points, m: Fraction) -> Fraction:
    """Area under the polyline from FPR 0 to ``m`` (linear between the vertices)."""
    area = Fraction(0)
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        if x0 >= m:
            break
        if x1 <= m:
            area += (x1 - x0) * (y0 + y1) / 2
        else:
            ym = y0 + (y1 - y0) * (m - x0) / (x1 - x0)
            area += (m - x0) * (y0 + ym) / 2
    return area


@given(binary(), st.sampled_from([0.5, 0.1, 0.3, 0.75, 2.0**-10, 1.0]))
def test_partial_roc_auc_is_mcclish_of_the_brute_force_area(data, max_fpr):
    y, s, w = data
    if (
        all(y)
        or not any(y)
        or (
            w is not None
            and (0 in {sum(wi for yi, wi in zip(y, w, strict=True) if yi == c) for c in (0, 1)})
        )
    ):
        with pytest.raises(UndefinedMetricError):
            prtheory.roc_auc(y, s, sample_weight=w, max_fpr=max_fpr)
        return
    m = Fraction(max_fpr)
    area = _area_until(_roc_points(y, s, w), m)
    want = area if m == 1 else (1 + (area - m * m / 2) / (m - m * m / 2)) / 2
    assert prtheory.roc_auc(y, s, sample_weight=w, max_fpr=max_fpr) == to_float(want)


def test_partial_roc_auc_by_hand_and_bad_max_fpr():
    # a perfect ranking scores 1 and the reversed one has no area below any m < 1:
    # (1 + (0 - m^2/2)/(m - m^2/2))/2 = (1 - m/(2 - m))/2; at m = 1/2: (1 - 1/3)/2 = 1/3
    assert prtheory.roc_auc([1, 1, 0, 0], [4, 3, 2, 1], max_fpr=0.5) == 1.0
    assert prtheory.roc_auc([0, 0, 1, 1], [4, 3, 2, 1], max_fpr=0.5) == to_float(Fraction(1, 3))
    for bad in (0, -0.5, 1.5, float("nan")):
        with pytest.raises(InvalidInputError, match=r"^max_fpr: "):
            prtheory.roc_auc([1, 0], [2, 1], max_fpr=bad)


@given(binary(weights=False), st.booleans())
def test_det_curve_equals_sklearn_for_unit_weights(data, drop):
    sk = pytest.importorskip("sklearn.metrics")
    y, s, _ = data
    if all(y) or not any(y):
        with pytest.raises(UndefinedMetricError):
            prtheory.det_curve(y, s)
        return
    got = prtheory.det_curve(y, s, drop_intermediate=drop)
    want = sk.det_curve(y, s, drop_intermediate=drop)
    for a, b in zip(got, want, strict=True):
        assert a.tolist() == b.tolist()


def test_det_curve_float_weights_are_the_rounded_exact_rates():
    # scores 3 (pos, 1/10), 2 (neg, 1/4), 1 (pos, 3): pos = 31/10, neg = 1/4. Thresholds inf,
    # 3, 2, 1 have (FP, TP) (0, 0), (0, 1/10), (1/4, 1/10), (1/4, 31/10); the DET curve runs from
    # the last point with FP = 0 (threshold 3) to the first with TP = pos (threshold 1), reversed
    y, s, w = [1, 0, 1], [3.0, 2.0, 1.0], [0.1, 0.25, 3.0]
    fpr, fnr, thresholds = prtheory.det_curve(y, s, sample_weight=w)
    pos = Fraction(0.1) + Fraction(3.0)
    assert thresholds.tolist() == [1.0, 2.0, 3.0]
    assert fpr.tolist() == [1.0, 1.0, 0.0]
    missed = to_float((pos - Fraction(0.1)) / pos)  # FN/pos once only the top positive is found
    assert fnr.tolist() == [0.0, missed, missed]


def _exact_trapezoid(x, y) -> Fraction:
    xs, ys = [Fraction(v) for v in x], [Fraction(v) for v in y]
    area = sum(
        ((xs[i + 1] - xs[i]) * (ys[i] + ys[i + 1]) / 2 for i in range(len(xs) - 1)), Fraction(0)
    )
    return -area if xs[0] > xs[-1] else area


@given(
    st.integers(2, 30),
    st.integers(-600, 600),
    st.integers(-600, 600),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)
def test_auc_is_the_rounded_exact_trapezoid(n, ex, ey, decreasing, seed):
    rng = np.random.default_rng(seed)
    x = np.sort(rng.random(n)) * 2.0**ex
    if decreasing:
        x = x[::-1]
    y = rng.standard_normal(n) * 2.0**ey  # mixed signs: the sum cancels
    assert prtheory.auc(x, y) == to_float(_exact_trapezoid(x, y))


def test_auc_cancellation_and_errors():
    # the areas +1 and -(1 - 2**-60) cancel to 2**-60 exactly: a float sum gives 0 or noise
    x = [0.0, 1.0, 2.0]
    y = [1.0, 1.0 - 2.0**-52, -(1.0 - 2.0**-52) + 2.0**-52]
    assert prtheory.auc(x, y) == to_float(_exact_trapezoid(x, y))
    assert prtheory.auc([0.0, 0.1 + 0.2], [1.0, 1.0]) == 0.1 + 0.2
    with pytest.raises(InvalidInputError, match=r"^x: is neither increasing nor decreasing"):
        prtheory.auc([0, 2, 1], [1, 1, 1])
    with pytest.raises(InvalidInputError, match=r"^x: needs at least 2 points"):
        prtheory.auc([0], [1])
    with pytest.raises(InvalidInputError, match=r"^y: must be finite"):
        prtheory.auc([0, 1], [1, float("inf")])
    with pytest.raises(InvalidInputError, match=r"^x: must not contain NaN"):
        prtheory.auc([0, float("nan")], [1, 1])


def _lrap(Y, S, w) -> Fraction:
    """The definition, row by row: relevant labels, their max-ranks, in Fractions."""
    w = [Fraction(1)] * len(Y) if w is None else [Fraction(v) for v in w]
    total, value = sum(w), Fraction(0)
    for row, scores, wi in zip(Y, S, w, strict=True):
        rel = [j for j, v in enumerate(row) if v]
        if not rel or len(rel) == len(row):
            value += wi
            continue
        terms = []
        for j in rel:
            rank = sum(1 for v in scores if v >= scores[j])
            found = sum(1 for k in rel if scores[k] >= scores[j])
            terms.append(Fraction(found, rank))
        value += wi * sum(terms) / len(rel)
    return value / total


@given(st.integers(1, 12), st.integers(1, 6), st.booleans(), st.integers(0, 2**32 - 1))
def test_lrap_is_the_rounded_definition(n, L, weighted, seed):
    rng = np.random.default_rng(seed)
    Y = rng.integers(0, 2, (n, L))
    S = rng.integers(0, 4, (n, L)) / 4
    w = rng.choice([0.5, 1.0, 0.1, 2.0], n) if weighted else None
    got = prtheory.label_ranking_average_precision(Y, S, sample_weight=w)
    assert got == to_float(_lrap(Y.tolist(), S.tolist(), None if w is None else w.tolist()))


def test_lrap_by_hand_and_errors():
    # row 1: the relevant label (0.75) is 2nd of 3: 1/2; row 2: (0.1) is 3rd: 1/3; mean 5/12
    got = prtheory.label_ranking_average_precision(
        [[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]]
    )
    assert got == to_float(Fraction(5, 12))
    with pytest.raises(UndefinedMetricError):
        prtheory.label_ranking_average_precision([[1, 0]], [[0.5, 0.2]], sample_weight=[0.0])
    with pytest.raises(InvalidInputError, match=r"^y_true: must be a label-indicator matrix"):
        prtheory.label_ranking_average_precision([1, 0], [0.5, 0.2])


def _top_k(y, S, k, w) -> Fraction:
    """Hits by Python's sorted: scores descending, ties to the later column (scikit-learn)."""
    classes = sorted(set(y))
    w = [Fraction(1)] * len(y) if w is None else [Fraction(v) for v in w]
    hit = Fraction(0)
    for yi, row, wi in zip(y, S, w, strict=True):
        order = sorted(range(len(row)), key=lambda c, row=row: (-row[c], -c))
        if classes.index(yi) in order[:k]:
            hit += wi
    return hit / sum(w)


@given(
    st.integers(3, 15),
    st.integers(3, 5),
    st.integers(1, 3),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)
def test_top_k_is_the_rounded_sorted_count(n, K, k, weighted, seed):
    rng = np.random.default_rng(seed)
    y = list(range(K)) + rng.integers(0, K, n - K if n > K else 0).tolist()
    S = (rng.integers(0, 3, (len(y), K)) / 2).tolist()
    w = rng.choice([0.5, 1.0, 0.1], len(y)).tolist() if weighted else None
    assert prtheory.top_k_accuracy(y, S, k=k, sample_weight=w) == to_float(_top_k(y, S, k, w))
