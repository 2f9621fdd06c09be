"""average= on random multi-label and multi-class data: every mode equals the oracle per class.

The reference is written from the definitions in scikit-learn's ``_average_binary_score`` with
the exact oracle per column (or row), averaged in Fractions and rounded once.
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import prtheory
from prtheory import oracle
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle import points, to_float

MODES = ["macro", "micro", "weighted", "samples", None]


def _oracle_fbeta(y, s, w, threshold=0.5):
    w = [1] * len(y) if w is None else [Fraction(x) for x in w]
    tp = sum(wi for yi, si, wi in zip(y, s, w, strict=True) if yi and si >= threshold)
    fp = sum(wi for yi, si, wi in zip(y, s, w, strict=True) if not yi and si >= threshold)
    fn = sum(wi for yi, si, wi in zip(y, s, w, strict=True) if yi and si < threshold)
    return points.fbeta(tp, fp, fn)


METRICS = {
    "ap": (
        lambda Y, S, **kw: prtheory.pr_auc(Y, S, **kw),
        lambda y, s, w: oracle.average_precision(y, s, w),
    ),
    "trapezoid": (
        lambda Y, S, **kw: prtheory.pr_auc(Y, S, method="trapezoid", **kw),
        lambda y, s, w: oracle.pr_auc(y, s, w, method="trapezoid", first_point="sklearn"),
    ),
    "roc": (
        lambda Y, S, **kw: prtheory.roc_auc(Y, S, **kw),
        lambda y, s, w: oracle.roc_auc(y, s, w),
    ),
    "fbeta": (
        lambda Y, S, **kw: prtheory.fbeta_at_threshold(Y, S, threshold=0.5, **kw),
        _oracle_fbeta,
    ),
}


def reference(exact, Y, S, w, average):
    """The average from its definition, with the oracle's exact value per column or row."""
    n, L = Y.shape
    wq = [Fraction(1)] * n if w is None else [Fraction(x) for x in w]
    if average == "micro":
        flat_w = None if w is None else np.repeat(w, L)
        return to_float(exact(Y.ravel(), S.ravel(), flat_w))
    if average == "samples":
        rows = [(wq[i], exact(Y[i], S[i], None)) for i in range(n) if wq[i]]
        return to_float(sum(a * v for a, v in rows) / sum(a for a, _ in rows))
    per_class = [exact(Y[:, c], S[:, c], w) for c in range(L)]
    if average is None:
        return [to_float(v) for v in per_class]
    if average == "macro":
        return to_float(sum(per_class) / L)
    support = [sum(wq[i] for i in range(n) if Y[i, c]) for c in range(L)]
    return to_float(sum(a * v for a, v in zip(support, per_class, strict=True)) / sum(support))


@st.composite
def multilabel(draw):
    """Label-indicator matrices in which every column and row has both classes (so every metric
    is defined in every mode), tied scores, and optional float weights."""
    n = draw(st.integers(4, 12))
    L = draw(st.integers(2, 4))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    Y = rng.random((n, L)) < 0.5
    for i in range(n):  # row i has class i % L and lacks class (i + 1) % L; n >= L covers all
        Y[i, i % L], Y[i, (i + 1) % L] = True, False
    S = np.round(rng.random((n, L)), draw(st.sampled_from([1, 2, 6])))
    w = None if draw(st.booleans()) else np.round(rng.random(n) + 0.01, 3)
    return Y, S, w


@settings(max_examples=40)
@given(multilabel(), st.sampled_from(MODES), st.sampled_from(sorted(METRICS)))
def test_every_average_equals_the_oracle(data, average, metric):
    Y, S, w = data
    fast, exact = METRICS[metric]
    got = fast(Y, S, sample_weight=w, average=average)
    want = reference(exact, Y, S, w, average)
    if average is None:
        assert isinstance(got, np.ndarray)
        assert [g.hex() for g in got.tolist()] == [x.hex() for x in want]
    else:
        assert got.hex() == want.hex()


def test_macro_is_rounded_once_not_a_mean_of_floats():
    # three classes with APs 1, 1/2 and 5/6 (worked out below); the exact macro mean is
    # (1 + 1/2 + 5/6)/3 = 7/9
    Y = np.array([[1, 0, 1], [0, 1, 0], [0, 0, 1], [1, 1, 0]])
    S = np.array([[0.9, 0.8, 0.7], [0.1, 0.9, 0.6], [0.2, 0.3, 0.8], [0.8, 0.1, 0.1]])
    # class 0: positives ranked 1st and 2nd: AP 1
    # class 1: positives at ranks 1 and 4 (0.9, 0.1): (1 + 2/4)/2 = 3/4 -- not 1/2
    # class 2: scores .7 (+), .6, .8 (+), .1: ranks 1 (+), 2 (+): AP 1
    assert prtheory.pr_auc(Y, S, average=None).tolist() == [1.0, 0.75, 1.0]
    assert prtheory.pr_auc(Y, S) == to_float(Fraction(1 + Fraction(3, 4) + 1, 3))


def test_multiclass_one_vs_rest_with_string_labels():
    rng = np.random.default_rng(5)
    classes = np.array(["bird", "cat", "dog"])
    y = classes[rng.integers(0, 3, 60)]
    S = rng.random((60, 3))
    for average in MODES:
        if average == "samples":
            continue  # a row of a one-vs-rest target has one positive: defined, tested below
        got = prtheory.roc_auc(y, S, average=average)
        want = reference(
            METRICS["roc"][1], np.column_stack([y == c for c in classes]), S, None, average
        )
        if average is None:
            assert got.tolist() == want
        else:
            assert got == want
    # columns named explicitly (and in another order)
    order = ["dog", "bird", "cat"]
    by_name = prtheory.pr_auc(y, S[:, [2, 0, 1]], labels=order, average=None)
    assert by_name.tolist() == prtheory.pr_auc(y, S, average=None)[[2, 0, 1]].tolist()
    # samples: each row ranks its 3 classes; AP of the one positive at rank r is 1/r
    ranks = (S[np.arange(60), np.searchsorted(classes, y)][:, None] < S).sum(axis=1) + 1
    want = to_float(sum(Fraction(1, int(r)) for r in ranks) / 60)
    assert prtheory.pr_auc(y, S, average="samples") == want


def test_undefined_columns_and_rows_are_named():
    Y = np.array([[1, 0], [0, 0], [1, 0]])
    S = np.array([[0.3, 0.2], [0.1, 0.4], [0.5, 0.6]])
    with pytest.raises(UndefinedMetricError, match="average precision of class 1 is undefined"):
        prtheory.pr_auc(Y, S)
    # scikit-learn's convention gives the empty column 0; weighted skips it (support 0)
    assert prtheory.pr_auc(Y, S, convention="sklearn") == 0.5
    assert prtheory.pr_auc(Y, S, average="weighted") == 1.0
    with pytest.raises(UndefinedMetricError, match="of row 1 is undefined"):
        prtheory.pr_auc(Y, S, average="samples")
    with pytest.raises(UndefinedMetricError, match="ROC curve of class 1"):
        prtheory.roc_auc(Y, S)


def test_bad_averaging_arguments():
    Y = np.array([[1, 0], [0, 1]])
    S = np.array([[0.3, 0.2], [0.1, 0.4]])
    with pytest.raises(InvalidInputError, match="average: must be one of"):
        prtheory.pr_auc(Y, S, average="mean")
    with pytest.raises(InvalidInputError, match=r"y_score: shape \(2, 3\) does not match"):
        prtheory.pr_auc(Y, np.ones((2, 3)))
    with pytest.raises(InvalidInputError, match="pos_label: does not apply"):
        prtheory.pr_auc(Y, S, pos_label=0)
    with pytest.raises(InvalidInputError, match="has 3 columns but y_true has 2"):
        prtheory.pr_auc([0, 1], np.ones((2, 3)))
    with pytest.raises(
        InvalidInputError, match=r"y_true: has labels \{2\} that are not in labels="
    ):
        prtheory.pr_auc([0, 1, 2], np.ones((3, 2)), labels=[0, 1])
    with pytest.raises(InvalidInputError, match="label-indicator matrix holds 0/1"):
        prtheory.pr_auc(np.array([[0, 2], [1, 0]]), S)


sklearn = pytest.importorskip("sklearn.metrics")


def test_against_sklearn_averages():
    """Same definitions: scikit-learn's float results within a few ulps (8: float sums)."""
    rng = np.random.default_rng(9)
    Y = rng.random((400, 5)) < 0.3
    S = np.round(rng.random((400, 5)), 2)
    Y[0], Y[1] = True, False
    for average in ["macro", "micro", "weighted", "samples"]:
        # rows without a positive: scikit-learn warns and scores them 0, as convention="sklearn"
        ours = prtheory.pr_auc(Y, S, average=average, convention="sklearn")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            theirs = sklearn.average_precision_score(Y, S, average=average)
        assert abs(ours - theirs) <= 8 * np.spacing(ours)
    for average in ["macro", "micro", "weighted"]:
        ours, theirs = (
            prtheory.roc_auc(Y, S, average=average),
            sklearn.roc_auc_score(Y, S, average=average),
        )
        assert abs(ours - theirs) <= 8 * np.spacing(ours)
