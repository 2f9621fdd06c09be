"""What the float metrics accept: array libraries, pos_label, string and bool labels, columns."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import prtheory
from prtheory import oracle
from prtheory.errors import InvalidInputError
from prtheory.oracle import to_float

Y01 = [0, 1, 1, 0, 1, 0]
S = [0.9, 0.8, 0.8, 0.3, 0.2, 0.1]
# step AP by hand: t = .9: TP 0; t = .8: TP 2 of N 3 (recall 2/3, precision 2/3);
# t = .3: no gain; t = .2: TP 3 of N 5 (recall 1, precision 3/5): 2/3 * 2/3 + 1/3 * 3/5 = 29/45
AP = to_float(Fraction(29, 45))


def test_hand_value():
    assert prtheory.pr_auc(Y01, S) == AP
    assert oracle.average_precision(Y01, S) == Fraction(29, 45)


@pytest.mark.parametrize(
    ("labels", "pos_label"),
    [
        (["no", "yes", "yes", "no", "yes", "no"], "yes"),
        (np.array(["b", "a", "a", "b", "a", "b"]), "a"),
        ([False, True, True, False, True, False], None),
        ([-1, 1, 1, -1, 1, -1], None),
        ([0.0, 1.0, 1.0, 0.0, 1.0, 0.0], None),
        ([2, 7, 7, 2, 7, 2], 7),
        ([1, 0, 0, 1, 0, 1], 0),  # the positive class is 0
        ([True, False, False, True, False, True], False),
    ],
)
def test_labels_and_pos_label(labels, pos_label):
    assert prtheory.pr_auc(labels, S, pos_label=pos_label) == AP
    curve = prtheory.precision_recall_curve(labels, S, pos_label=pos_label)
    assert curve.precision.tolist() == prtheory.precision_recall_curve(Y01, S).precision.tolist()


@pytest.mark.parametrize(
    ("labels", "pos_label", "match"),
    [
        (["no", "yes"], None, r"y_true: takes the values \{'no', 'yes'\}; without pos_label"),
        ([1, 2], None, r"y_true: takes the values \{1, 2\}"),
        ([0, 1], 2, r"pos_label: 2 is not one of y_true's labels \{0, 1\}"),
        (["a", "b"], 1, r"pos_label: 1 is not one of y_true's labels \{'a', 'b'\}"),
        ([0, 1, 2], 1, "y_true: has 3 distinct labels"),
        ([0.0, float("nan")], None, r"y_true: labels must not be NaN \(index 1\)"),
        ([1, "a"], "a", "y_true: labels of different kinds cannot be compared"),
    ],
)
def test_bad_labels(labels, pos_label, match):
    with pytest.raises(InvalidInputError, match=match):
        prtheory.roc_auc(labels, [0.5] * len(labels), pos_label=pos_label)


def test_column_vectors_and_bad_containers():
    y, s = np.array(Y01)[:, None], np.array(S)[:, None]
    assert prtheory.pr_auc(y, s) == AP
    with pytest.raises(InvalidInputError, match="y_score: must be a sequence or an array"):
        prtheory.pr_auc(Y01, iter(S))
    with pytest.raises(InvalidInputError, match="y_true: must be a sequence or an array"):
        prtheory.pr_auc("010", S[:3])
    with pytest.raises(InvalidInputError, match="y_true: must not be empty"):
        prtheory.roc_auc([], [])
    with pytest.raises(InvalidInputError, match=r"y_score: must not contain NaN \(index 1\)"):
        prtheory.pr_auc(Y01, [0.1, float("nan"), 0.2, 0.3, 0.4, 0.5])
    with pytest.raises(InvalidInputError, match="y_score: length 5 does not match"):
        prtheory.pr_auc(Y01, S[:5])
    with pytest.raises(InvalidInputError, match="y_true: must be 1-D or 2-D"):
        prtheory.pr_auc(np.zeros((2, 2, 2)), S)


def test_pandas():
    pd = pytest.importorskip("pandas")
    y = pd.Series(["neg", "pos", "pos", "neg", "pos", "neg"], dtype="category")
    s = pd.Series(S, index=[10, 11, 12, 13, 14, 15])  # the index is not used
    assert prtheory.pr_auc(y, s, pos_label="pos") == AP
    assert prtheory.pr_auc(pd.Series(Y01, dtype="Int64"), s) == AP
    frame = pd.DataFrame({"a": Y01, "b": [1 - v for v in Y01]})
    scores = pd.DataFrame({"a": S, "b": [1 - v for v in S]})
    assert prtheory.pr_auc(frame, scores, average=None)[0] == AP
    with pytest.raises(InvalidInputError, match=r"y_true: missing value \(NA/None\) at index 2"):
        prtheory.pr_auc(pd.Series([0, 1, None, 1], dtype="Int64"), [0.1, 0.2, 0.3, 0.4])
    weights = pd.Series([1.0] * 6)
    assert prtheory.pr_auc(Y01, S, sample_weight=weights) == AP


def test_polars():
    pl = pytest.importorskip("polars")
    assert prtheory.pr_auc(pl.Series(Y01), pl.Series(S)) == AP
    with pytest.raises(InvalidInputError, match="missing value"):
        prtheory.pr_auc(pl.Series([0, 1, None]), [0.1, 0.2, 0.3])
    frame = pl.DataFrame({"a": Y01, "b": [1 - v for v in Y01]})
    scores = pl.DataFrame({"a": S, "b": [1 - v for v in S]})
    assert prtheory.pr_auc(frame, scores, average=None)[0] == AP
    gap = pl.DataFrame({"a": [0, 1, 1, 0], "b": [1, None, 0, 1]})
    with pytest.raises(
        InvalidInputError, match=r"y_true: missing value \(NA/None\) at index \[1, 1\]"
    ):
        prtheory.pr_auc(gap, pl.DataFrame({"a": [0.1, 0.2, 0.3, 0.4], "b": [0.4, 0.3, 0.2, 0.1]}))


def test_torch_tensors_bfloat16_and_requires_grad():
    torch = pytest.importorskip("torch")
    s16 = torch.tensor(S, dtype=torch.bfloat16, requires_grad=True)
    # bfloat16 rounds the scores; the metric ranks the exact bfloat16 values (float32 holds
    # them exactly), so the reference is the oracle on those values
    exact_scores = s16.detach().float().numpy().astype(np.float64)
    want = to_float(oracle.average_precision(Y01, exact_scores))
    y = torch.tensor(Y01)
    assert prtheory.pr_auc(y, s16) == want
    assert prtheory.roc_auc(y, s16) == to_float(oracle.roc_auc(Y01, exact_scores))
    assert prtheory.precision_recall_curve(y, s16).thresholds.tolist() == sorted(
        set(exact_scores.tolist())
    )
    s64 = torch.tensor(S, dtype=torch.float64, requires_grad=True)
    assert prtheory.pr_auc(torch.tensor(Y01, dtype=torch.bool), s64) == AP
    w = torch.ones(6, dtype=torch.bfloat16, requires_grad=True)
    assert prtheory.pr_auc(y, s64, sample_weight=w) == AP
    with pytest.raises(InvalidInputError, match="y_score: must be real"):
        prtheory.pr_auc(y, torch.tensor(S, dtype=torch.complex64))
