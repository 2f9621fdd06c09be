"""prtheory.sklearn: scikit-learn's behaviour, the exact values.

scikit-learn's own test suite runs against the drop-in in ``tests/test_sklearn_suite.py``; here:
values with float weights and averages against the exact oracle (scikit-learn's float sums are
not the reference), the exceptions and warnings against scikit-learn itself on the same inputs,
and the documented deliberate differences.
"""

from __future__ import annotations

import itertools
import warnings
from fractions import Fraction

import numpy as np
import pytest

sk = pytest.importorskip("sklearn.metrics")

from sklearn.exceptions import UndefinedMetricWarning  # noqa: E402

from prtheory import oracle  # noqa: E402
from prtheory import sklearn as ours  # noqa: E402
from prtheory.oracle import to_float  # noqa: E402

RNG = np.random.default_rng(36)


def _data(n=40, weights="float"):
    y = RNG.integers(0, 2, n)
    y[:2] = [0, 1]
    s = np.round(RNG.random(n), 2)
    w = {"float": RNG.random(n), "wide": 10.0 ** RNG.uniform(-6, 6, n), None: None}[weights]
    return y, s, w


@pytest.mark.parametrize("weights", ["float", "wide", None])
def test_binary_values_are_the_rounded_exact_ones(weights):
    for _ in range(20):
        y, s, w = _data(weights=weights)
        assert ours.average_precision_score(y, s, sample_weight=w) == to_float(
            oracle.average_precision(y, s, w)
        )
        assert ours.roc_auc_score(y, s, sample_weight=w) == to_float(oracle.roc_auc(y, s, w))
        precision, recall, thresholds = ours.precision_recall_curve(y, s, sample_weight=w)
        c = oracle.pr_curve(y, s, w, first_point="sklearn")
        assert precision.tolist() == [to_float(v) for v in c.precision][::-1]
        assert recall.tolist() == [to_float(v) for v in c.recall][::-1]
        assert thresholds.tolist() == sorted(set(s.tolist()))


def test_macro_and_ovo_averages_are_exact():
    Y = RNG.integers(0, 2, (30, 3))
    S = np.round(RNG.random((30, 3)), 1)
    w = RNG.random(30)
    cols = [oracle.average_precision(Y[:, c], S[:, c], w) for c in range(3)]
    assert ours.average_precision_score(Y, S, sample_weight=w) == to_float(sum(cols) / 3)
    support = [sum(Fraction(v) for v in w[Y[:, c] == 1]) for c in range(3)]
    weighted = sum(a * b for a, b in zip(cols, support, strict=True)) / sum(support)
    assert ours.average_precision_score(Y, S, sample_weight=w, average="weighted") == to_float(
        weighted
    )
    # one-vs-one (Hand & Till): the mean over class pairs of the two one-vs-one AUCs
    y = np.arange(40) % 3
    P = RNG.random((40, 3))
    P /= P.sum(axis=1, keepdims=True)
    pairs = []
    for a, b in itertools.combinations(range(3), 2):
        ab = (y == a) | (y == b)
        pairs.append(
            (oracle.roc_auc(y[ab] == a, P[ab, a]) + oracle.roc_auc(y[ab] == b, P[ab, b])) / 2
        )
    assert ours.roc_auc_score(y, P, multi_class="ovo") == to_float(sum(pairs) / 3)


def test_undefined_values_warn_and_return_sklearns_value():
    with pytest.warns(UserWarning, match="No positive class found in y_true"):
        assert ours.average_precision_score([0, 0], [0.2, 0.1]) == 0.0
    with pytest.warns(UndefinedMetricWarning, match="Only one class is present"):
        assert np.isnan(ours.roc_auc_score([1, 1, 1, 1], [0.4, 0.3, 0.2, 0.1], average=None))
    with pytest.warns(UndefinedMetricWarning, match="No negative samples"):
        fpr, tpr, _ = ours.roc_curve([1, 1], [0.2, 0.1])
    assert np.isnan(fpr).all()
    assert tpr.tolist() == [0.0, 0.5, 1.0]
    with pytest.warns(UserWarning, match="recall is set to one"):
        _, recall, _ = ours.precision_recall_curve([0, 0], [0.2, 0.1])
    assert recall.tolist() == [1.0, 1.0, 0.0]


def _outcome(fn, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = fn(*args, **kwargs)
        except Exception as exc:  # the exception is what is compared
            return type(exc), str(exc), []
    return "value", value, sorted((type(w.message).__name__, str(w.message)) for w in caught)


BAD = [
    ("average_precision_score", ([0, 1, 2], np.array([0.1, 0.2, 0.3])), {}),
    ("average_precision_score", ([0, 1], [0.1, 0.2]), {"pos_label": 2}),
    ("average_precision_score", ([0, 1, 1], [[0.1, 0.9], [0.2, 0.8], [0.6, 0.4]]), {}),
    ("roc_auc_score", ([0, 1, 2], [[0.2, 0.3, 0.5]] * 3), {}),
    ("roc_auc_score", ([0, 1], [0.1, 0.2]), {"max_fpr": 0}),
    ("roc_auc_score", ([0, 1, 2], [[0.2, 0.3, 0.4]] * 3), {"multi_class": "ovr"}),
    ("roc_curve", (["a", "b"], [0.1, 0.2]), {}),
    ("roc_curve", ([0, 1], [0.1, np.nan]), {}),
    ("roc_curve", ([0, 1], [0.1, np.inf]), {}),
    ("roc_curve", ([0, 1], [0.1, 0.2]), {"sample_weight": [0, 0]}),
    ("precision_recall_curve", ([b"a", b"b"], [0.1, 0.2]), {"pos_label": b"a"}),
    ("det_curve", ([1, 1], [0.1, 0.2]), {}),
    ("auc", ([0, 2, 1], [1, 1, 1]), {}),
    ("auc", ([0], [1]), {}),
    ("top_k_accuracy_score", ([0, 1, 2], [0.1, 0.2, 0.3]), {}),
    ("label_ranking_average_precision_score", ([0, 1, 0], [0.25, 0.3, 0.2]), {}),
]


@pytest.mark.parametrize(
    ("name", "args", "kwargs"), BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)]
)
def test_bad_input_raises_or_warns_as_sklearn(name, args, kwargs):
    got = _outcome(getattr(ours, name), *args, **kwargs)
    want = _outcome(getattr(sk, name), *args, **kwargs)
    assert got[0] == want[0] or (
        isinstance(got[0], type) and got[0].__name__ == want[0].__name__
    ), (got, want)
    assert got[1:] == want[1:] if got[0] != "value" else got[2] == want[2]


def test_thresholds_keep_the_dtype_of_the_scores_and_results_are_tuples():
    result = ours.precision_recall_curve([0, 1, 1], [1, 3, 2])
    assert type(result) is tuple
    assert result[2].dtype == np.array([1, 3, 2]).dtype
    assert result[2].tolist() == [1, 2, 3]
    assert type(ours.roc_curve([0, 1], [0.1, 0.2])) is tuple


def test_multiclass_ap_with_a_list_of_scores_is_a_value_error():
    # scikit-learn 1.9 reads y_score.shape of the list and raises AttributeError (a crash, not a
    # behaviour it defines); the drop-in raises its ValueError for a misshaped score array
    with pytest.raises(ValueError, match="needs to be of shape"):
        ours.average_precision_score([0, 1, 2], [0.1, 0.2, 0.3])


def test_negative_weights_are_a_deliberate_error():
    with pytest.raises(ValueError, match="sample_weight: must be >= 0"):
        ours.roc_auc_score([0, 1, 1], [0.1, 0.2, 0.3], sample_weight=[1, -1, 1])
