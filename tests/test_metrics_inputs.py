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


# ------------------------------------------------------------------------------------------
# average_precision takes what its siblings take; one message per bad input


def test_average_precision_pos_label_average_and_labels():
    # "spam" ranked first of two: AP 1; with "ham" positive, its one item ranked second: 1/2
    assert prtheory.average_precision(["spam", "ham"], [0.9, 0.1], pos_label="spam") == 1.0
    assert prtheory.average_precision(["spam", "ham"], [0.9, 0.1], pos_label="ham") == 0.5
    # label matrix: column 0 (its positive ranked 1st of 3) has AP 1
    Y = [[1, 0], [0, 1], [0, 1]]
    # column 1 ranked by score: .7 (pos), .3 (pos), .1 (neg): AP 1
    Sm = [[0.9, 0.1], [0.2, 0.7], [0.1, 0.3]]
    assert prtheory.average_precision(Y, Sm, average=None).tolist() == [1.0, 1.0]
    # column 1 ranked .8 (neg), .7 (pos), .3 (pos): AP (1/2 + 2/3)/2 = 7/12;
    # macro (1 + 7/12)/2 = 19/24
    Sm = [[0.9, 0.8], [0.2, 0.7], [0.1, 0.3]]
    assert prtheory.average_precision(Y, Sm, average="macro") == to_float(Fraction(19, 24))
    # weighted by support (1 and 2): (1 * 1 + 2 * 7/12)/3 = 13/18
    assert prtheory.average_precision(Y, Sm, average="weighted") == to_float(Fraction(13, 18))
    # multi-class one-vs-rest with labels= naming the columns (reversed order)
    got = prtheory.average_precision(
        ["b", "a", "a"], [[0.1, 0.9], [0.7, 0.2], [0.3, 0.1]], labels=["a", "b"], average=None
    )
    # class "a" (column 0, scores .1 .7 .3): positives at ranks 1, 2: AP 1; class "b": AP 1
    assert got.tolist() == [1.0, 1.0]
    assert prtheory.average_precision(Y, Sm, average="macro") == prtheory.pr_auc(Y, Sm)


def test_average_precision_sample_weight_is_keyword_only():
    with pytest.raises(TypeError):
        prtheory.average_precision([1, 0], [0.9, 0.1], [1.0, 2.0])
    # weights 1/2 on the positive ranked 2nd after a negative of weight 1/4: precision 2/3
    got = prtheory.average_precision([0, 1], [0.9, 0.1], sample_weight=[0.25, 0.5])
    assert got == to_float(Fraction(2, 3))


TWO_COLUMNS = [[0.3, 0.7], [0.6, 0.4], [0.2, 0.8]]


@pytest.mark.parametrize(
    "call",
    [
        lambda y, s: prtheory.average_precision(y, s),
        lambda y, s: prtheory.pr_auc(y, s, method="trapezoid"),
        lambda y, s: prtheory.roc_auc(y, s),
        lambda y, s: prtheory.auprg(y, s),
        lambda y, s: prtheory.fbeta_at_threshold(y, s, threshold=0.5),
        lambda y, s: prtheory.precision_recall_curve(y, s),
        lambda y, s: prtheory.roc_curve(y, s),
        lambda y, s: prtheory.prg_curve(y, s),
        lambda y, s: prtheory.precision_at_k(y, s, 1),
        lambda y, s: prtheory.r_precision(y, s),
    ],
)
def test_binary_target_with_a_two_column_score_matrix_says_pass_the_column(call):
    # averaged one-vs-rest over both columns this was a plausible wrong number
    msg = (
        r"^y_score: has shape \(3, 2\) but y_true is binary: pass the scores of the positive "
        r"class as a 1-D array, y_score\[:, 1\]"
    )
    for y in ([1, 0, 1], ["a", "b", "a"], [True, True, True]):
        with pytest.raises(InvalidInputError, match=msg):
            call(y, TWO_COLUMNS)


def test_two_columns_with_labels_are_a_two_class_target():
    # with labels= naming both columns, one-vs-rest over two classes is what was asked for:
    # class 0 (column 0: .3 .6 .2, positive the 2nd item) ranks it first: AP 1; class 1
    # (column 1: .7 .4 .8, positives items 1 and 3) ranks them first: AP 1
    got = prtheory.average_precision([1, 0, 1], TWO_COLUMNS, labels=[0, 1], average=None)
    assert got.tolist() == [1.0, 1.0]


def _pandas_na(kind):
    pd = pytest.importorskip("pandas")
    if kind == "y":
        return pd.Series([1, None, 0, 1], dtype="Int64"), [0.4, 0.3, 0.2, 0.1]
    return [1, 0, 0, 1], pd.Series([0.4, None, 0.2, 0.1], dtype="Float64")


def _polars_null(kind):
    pl = pytest.importorskip("polars")
    if kind == "y":
        return pl.Series([1, None, 0, 1]), [0.4, 0.3, 0.2, 0.1]
    return [1, 0, 0, 1], pl.Series([0.4, None, 0.2, 0.1])


BAD = {
    "pandas NA label": (lambda: _pandas_na("y"), "y_true: missing value (NA/None) at index 1"),
    "pandas NA score": (lambda: _pandas_na("s"), "y_score: missing value (NA/None) at index 1"),
    "polars null label": (lambda: _polars_null("y"), "y_true: missing value (NA/None) at index 1"),
    "polars null score": (lambda: _polars_null("s"), "y_score: missing value (NA/None) at index 1"),
    "None label": (
        lambda: ([1, None, 0, 1], [0.4, 0.3, 0.2, 0.1]),
        "y_true: missing value (None/NaN) at index 1",
    ),
    "NaN label": (
        lambda: ([1.0, float("nan"), 0.0, 1.0], [0.4, 0.3, 0.2, 0.1]),
        "y_true: labels must not be NaN (index 1)",
    ),
    "NaN score": (
        lambda: ([1, 0, 0, 1], [0.4, float("nan"), 0.2, 0.1]),
        "y_score: must not contain NaN (index 1)",
    ),
    "pandas NaN score": (
        lambda: ([1, 0, 0, 1], pytest.importorskip("pandas").Series([0.4, np.nan, 0.2, 0.1])),
        "y_score: must not contain NaN (index 1)",
    ),
    "lengths": (
        lambda: ([1, 0, 0, 1], [0.4, 0.3]),
        "y_score: length 2 does not match y_true's length 4",
    ),
    "mixed scores": (
        lambda: ([1, 0], [1.0, "2"]),
        "y_score: must contain real numbers, got the string '2' at index 1",
    ),
}

FLOAT_FUNCTIONS = {
    "average_precision": lambda y, s: prtheory.average_precision(y, s),
    "pr_auc": lambda y, s: prtheory.pr_auc(y, s, method="trapezoid"),
    "roc_auc": lambda y, s: prtheory.roc_auc(y, s),
    "auprg": lambda y, s: prtheory.auprg(y, s),
    "fbeta_at_threshold": lambda y, s: prtheory.fbeta_at_threshold(y, s, threshold=0.5),
    "precision_recall_curve": lambda y, s: prtheory.precision_recall_curve(y, s),
    "roc_curve": lambda y, s: prtheory.roc_curve(y, s),
    "prg_curve": lambda y, s: prtheory.prg_curve(y, s),
    "precision_at_k": lambda y, s: prtheory.precision_at_k(y, s, 1),
    "r_precision": lambda y, s: prtheory.r_precision(y, s),
    "oracle.average_precision": lambda y, s: oracle.average_precision(y, s),
}


@pytest.mark.parametrize("case", list(BAD))
def test_one_message_per_bad_input_across_functions(case):
    make, message = BAD[case]
    for name, fn in FLOAT_FUNCTIONS.items():
        y, s = make()
        with pytest.raises(InvalidInputError) as err:
            fn(y, s)
        assert str(err.value) == message, name
