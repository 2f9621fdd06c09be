"""scikit-learn's ranking scores with its contract and the correctly rounded exact values.

``average_precision_score``, ``roc_auc_score`` (``max_fpr``, ``multi_class="ovr" | "ovo"``),
``auc``, ``label_ranking_average_precision_score`` and ``top_k_accuracy_score``. Each checks its
input as scikit-learn 1.9 does (:mod:`prtheory.sklearn._checks`) and follows its rules for
multi-label and multi-class targets (``_average_binary_score``,
``_average_multiclass_ovo_score``): the same columns, weights and warnings, and where a column
is undefined the value scikit-learn gives it (0 for AP without positives, NaN for an ROC AUC
with one class). The numbers come from :mod:`prtheory.metrics`: each column's exact value, and
every average formed exactly from the exact column values, rounded once.
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
from scipy.sparse import issparse
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.preprocessing import label_binarize
from sklearn.utils import check_array, check_consistent_length, column_or_1d
from sklearn.utils.multiclass import type_of_target

from prtheory.metrics import areas, label_ranking, trapezoid
from prtheory.metrics.exact import Terms, round_sum
from prtheory.sklearn._checks import (
    check_params,
    has_weight,
    sample_weights,
    warn_no_positives,
)

__all__ = [
    "auc",
    "average_precision_score",
    "label_ranking_average_precision_score",
    "roc_auc_score",
    "top_k_accuracy_score",
]

_AVERAGES = {"micro", "samples", "weighted", "macro"}

#: One column's value: exact Terms, or scikit-learn's stand-in for an undefined value.
Column = Terms | float
#: ``metric(labels, scores, sample_weight) -> Column`` for one binary column.
Metric = Callable[[np.ndarray, np.ndarray, Any], Column]


def _float(v: Column) -> float:
    return v if isinstance(v, float) else round_sum([(Fraction(1), v)])


def _ap_column(labels: np.ndarray, scores: np.ndarray, w: Any) -> Column:
    """One column's AP: exact, or 0.0 with scikit-learn's warning when it has no positive."""
    weights = sample_weights(w, labels.size)
    if not has_weight(labels, weights, True):
        warn_no_positives(stacklevel=4)
        return 0.0
    return areas.average_precision_terms(labels, scores, weights)


def _roc_column(max_fpr: Any) -> Metric:
    def column(labels: np.ndarray, scores: np.ndarray, w: Any) -> Column:
        """One column's ROC AUC: exact, or NaN with scikit-learn's warning for one class."""
        if np.unique(labels).size != 2:
            warnings.warn(
                "Only one class is present in y_true. ROC AUC score is not defined in that case.",
                UndefinedMetricWarning,
                stacklevel=4,
            )
            return float("nan")
        weights = sample_weights(w, labels.size)
        if weights is not None and not all(has_weight(labels, weights, c) for c in (False, True)):
            warnings.warn(
                "No negative samples in y_true, false positive value should be meaningless"
                if has_weight(labels, weights, True)
                else "No positive samples in y_true, true positive value should be meaningless",
                UndefinedMetricWarning,
                stacklevel=4,
            )
            return float("nan")
        return areas.roc_auc_terms(labels, scores, weights, max_fpr)

    return column


def _mean(values: list[Column], weights: list[Fraction] | None) -> float:
    """``np.average(values, weights=weights)`` exactly, rounded once (NaN if one is NaN)."""
    if any(isinstance(v, float) and v != v for v in values):
        return float("nan")
    if weights is None:
        weights = [Fraction(1)] * len(values)
    total = sum(weights, Fraction(0))
    if total == 0:
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    parts = [
        (w / total, Terms(constant=Fraction(v)) if isinstance(v, float) else v)
        for w, v in zip(weights, values, strict=True)
    ]
    return round_sum(parts)


def _exact_weights(w: np.ndarray | None) -> list[Fraction] | None:
    return None if w is None else [Fraction(v) for v in w.tolist()]


def _average_binary(
    metric: Metric, y_true: Any, y_score: Any, average: Any, sample_weight: Any
) -> float | np.ndarray | int:
    """scikit-learn's ``_average_binary_score`` with exact columns and an exact average."""
    y_type = type_of_target(y_true)
    if y_type not in ("binary", "multilabel-indicator"):
        raise ValueError(f"{y_type} format is not supported")
    if y_type == "binary":
        labels = column_or_1d(np.asarray(y_true)) == 1
        scores = column_or_1d(y_score)
        check_consistent_length(labels, scores, sample_weight)
        return _float(metric(labels, _scores(scores), sample_weight))
    check_consistent_length(y_true, y_score, sample_weight)
    y = check_array(y_true)
    s = check_array(y_score)
    w = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    score_w, average_w = w, None
    axis = 1
    if average == "micro":
        if score_w is not None:
            score_w = np.repeat(score_w, y.shape[1])
        y, s = y.ravel(), s.ravel()
    elif average == "weighted":
        support = (y * (1.0 if w is None else w[:, None])).sum(axis=0)
        exact = [
            sum((Fraction(v) for v in (y[:, c] * (1 if w is None else w)).tolist()), Fraction(0))
            for c in range(y.shape[1])
        ]
        if np.isclose(support.sum(), 0):
            return 0
        average_w = exact
    elif average == "samples":
        average_w, score_w, axis = _exact_weights(w), None, 0
    if y.ndim == 1:
        y, s = y.reshape(-1, 1), s.reshape(-1, 1)
    count = y.shape[axis]
    values = []
    for c in range(count):
        yc = (y[:, c] if axis == 1 else y[c, :]) == 1
        sc = s[:, c] if axis == 1 else s[c, :]
        values.append(metric(yc, _scores(sc), score_w))
    if average is None:
        return np.array([_float(v) for v in values])
    if average_w is not None:  # columns of weight 0 count as 0 (so a NaN among them does not)
        values = [0.0 if wc == 0 else v for v, wc in zip(values, average_w, strict=True)]
    return _mean(values, average_w)


def _scores(scores: np.ndarray) -> np.ndarray:
    return np.asarray(scores, dtype=np.float64)


def average_precision_score(
    y_true: Any,
    y_score: Any,
    *,
    average: Any = "macro",
    pos_label: Any = 1,
    sample_weight: Any = None,
) -> float | np.ndarray:
    """Average precision: ``sklearn.metrics.average_precision_score``, correctly rounded.

    ``AP = sum_n (R_n - R_{n-1}) P_n`` over the thresholds (claims N2, N3), the exact value
    rounded once; multi-label and multi-class targets averaged as scikit-learn averages them,
    exactly. A column without positives scores 0 with scikit-learn's warning.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_classes)
        Binary labels, a label-indicator matrix or multi-class labels.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores.
    average : {"micro", "samples", "weighted", "macro"} or None, default="macro"
        How columns are combined; ignored for a binary target.
    pos_label : int, float, bool or str, default=1
        The positive class of a binary target.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.

    Returns
    -------
    float, or ndarray with ``average=None``

    Raises
    ------
    ValueError
        A target format or ``pos_label`` scikit-learn refuses (its messages).

    See Also
    --------
    prtheory.average_precision : prtheory's signature.
    roc_auc_score

    Examples
    --------
    Positives at ranks 1 and 3 of 4 (scores 0.8 and 0.35): ``(1 + 2/3)/2 = 5/6``:

    >>> from prtheory.sklearn import average_precision_score
    >>> average_precision_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.8333333333333334
    """
    check_params(
        "average_precision_score",
        {
            "y_true": ["array-like"],
            "y_score": ["array-like"],
            "average": [_AVERAGES, "None"],
            "pos_label": ["Real", "str", "boolean"],
            "sample_weight": ["array-like", "None"],
        },
        {
            "y_true": y_true,
            "y_score": y_score,
            "average": average,
            "pos_label": pos_label,
            "sample_weight": sample_weight,
        },
    )
    if sample_weight is not None:
        sample_weight = column_or_1d(sample_weight)
    y_type = type_of_target(y_true, input_name="y_true")
    present = np.unique(np.asarray(y_true))
    if y_type == "binary":
        if present.shape[0] == 2 and pos_label not in present:
            raise ValueError(
                f"pos_label={pos_label} is not a valid label. It should be one of {present}"
            )
        labels = np.asarray(y_true) == pos_label
        y_true = labels.astype(np.int64)
    elif y_type == "multilabel-indicator" and pos_label != 1:
        raise ValueError(
            "Parameter pos_label is fixed to 1 for multilabel-indicator y_true. Do not set "
            "pos_label or set pos_label to 1."
        )
    elif y_type == "multiclass":
        if pos_label != 1:
            raise ValueError(
                "Parameter pos_label is fixed to 1 for multiclass y_true. Do not set pos_label "
                "or set pos_label to 1."
            )
        y_true = label_binarize(y_true, classes=present)
        if not np.shape(y_score) == y_true.shape:
            raise ValueError(
                "`y_score` needs to be of shape `(n_samples, n_classes)`, since `y_true` "
                f"contains multiple classes. Got `y_score.shape={np.shape(y_score)}`."
            )
    if y_type == "binary":
        return _binary_ap(y_true, y_score, sample_weight)
    return _average_binary(_ap_column, y_true, y_score, average, sample_weight)


def _binary_ap(y_true: np.ndarray, y_score: Any, sample_weight: Any) -> float:
    """A binary target's AP by the fast path of :func:`prtheory.average_precision`."""
    from sklearn.utils import assert_all_finite

    check_consistent_length(y_true, y_score, sample_weight)
    scores = column_or_1d(y_score)
    assert_all_finite(scores)
    labels = column_or_1d(y_true) == 1
    weights = sample_weights(sample_weight, labels.size)
    if not has_weight(labels, weights, True):
        warn_no_positives(stacklevel=3)
        return 0.0
    return float(areas.average_precision(labels, _scores(scores), sample_weight=weights))


def roc_auc_score(
    y_true: Any,
    y_score: Any,
    *,
    average: Any = "macro",
    sample_weight: Any = None,
    max_fpr: Any = None,
    multi_class: str = "raise",
    labels: Any = None,
) -> float | np.ndarray:
    """Area under the ROC curve: ``sklearn.metrics.roc_auc_score``, correctly rounded.

    Binary, multi-label (``average``) and multi-class (``multi_class="ovr"``, one-vs-rest, or
    ``"ovo"``, Hand & Till's one-vs-one) targets as in scikit-learn; ``max_fpr`` gives McClish's
    standardised partial AUC. Every value is the exact one rounded once: the AUC, the partial
    area cut at ``max_fpr`` by linear interpolation and McClish's map, and the averages. A
    column with one class is NaN with scikit-learn's warning.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_classes)
        Binary or multi-class labels, or a label-indicator matrix.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores; multi-class rows are probabilities summing to 1.
    average : {"micro", "macro", "samples", "weighted"} or None, default="macro"
        How columns (or class pairs, with ``"ovo"``) are combined.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights (not with ``"ovo"``, as in scikit-learn).
    max_fpr : float in (0, 1], default=None
        The standardised partial AUC over FPR in ``[0, max_fpr]`` (binary targets).
    multi_class : {"raise", "ovr", "ovo"}, default="raise"
        How a multi-class target is scored.
    labels : array-like of shape (n_classes,), default=None
        The class of each column of a multi-class score matrix.

    Returns
    -------
    float, or ndarray with ``average=None``

    Raises
    ------
    ValueError
        A target, ``max_fpr``, ``multi_class``, ``average`` or ``labels`` scikit-learn refuses.
    NotImplementedError
        ``average=None`` with ``multi_class="ovo"``, as in scikit-learn.

    See Also
    --------
    prtheory.roc_auc : prtheory's signature.
    average_precision_score

    Examples
    --------
    >>> from prtheory.sklearn import roc_auc_score
    >>> roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    """
    check_params(
        "roc_auc_score",
        {
            "y_true": ["array-like"],
            "y_score": ["array-like"],
            "average": [{"micro", "macro", "samples", "weighted"}, "None"],
            "sample_weight": ["array-like", "None"],
            "max_fpr": [("real", 0.0, 1, "right"), "None"],
            "multi_class": [{"raise", "ovr", "ovo"}],
            "labels": ["array-like", "None"],
        },
        {
            "y_true": y_true,
            "y_score": y_score,
            "average": average,
            "sample_weight": sample_weight,
            "max_fpr": max_fpr,
            "multi_class": multi_class,
            "labels": labels,
        },
    )
    y_type = type_of_target(y_true, input_name="y_true")
    y_true = check_array(y_true, ensure_2d=False, dtype=None)
    y_score = check_array(y_score, ensure_2d=False)
    if sample_weight is not None:
        sample_weight = column_or_1d(sample_weight)
    if y_type == "multiclass" or (
        y_type == "binary" and y_score.ndim == 2 and y_score.shape[1] > 2
    ):
        if max_fpr is not None and max_fpr != 1.0:
            raise ValueError(
                "Partial AUC computation not available in multiclass setting, 'max_fpr' must be"
                f" set to `None`, received `max_fpr={max_fpr}` instead"
            )
        if multi_class == "raise":
            raise ValueError("multi_class must be in ('ovo', 'ovr')")
        return _multiclass_roc_auc(y_true, y_score, labels, multi_class, average, sample_weight)
    if y_type == "binary":
        classes = np.unique(y_true)
        y_true = label_binarize(y_true, classes=classes)[:, 0]
    return _average_binary(_roc_column(max_fpr), y_true, y_score, average, sample_weight)


def _multiclass_roc_auc(
    y_true: np.ndarray,
    y_score: np.ndarray,
    labels: Any,
    multi_class: str,
    average: Any,
    sample_weight: Any,
) -> float | np.ndarray | int:
    """scikit-learn's ``_multiclass_roc_auc_score`` with exact values."""
    if y_score.ndim != 2:
        raise ValueError(
            "`y_score` needs to be of shape `(n_samples, n_classes)`, since `y_true` contains "
            f"multiple classes. Got `y_score.shape={y_score.shape}`."
        )
    if not np.allclose(1, y_score.sum(axis=1)):
        raise ValueError(
            "Target scores need to be probabilities for multiclass roc_auc, i.e. they should "
            "sum up to 1.0 over classes"
        )
    options: tuple = ("macro", "weighted", None)
    if multi_class == "ovr":
        options = ("micro", *options)
    if average not in options:
        raise ValueError(f"average must be one of {options} for multiclass problems")
    if average is None and multi_class == "ovo":
        raise NotImplementedError("average=None is not implemented for multi_class='ovo'.")
    if labels is not None:
        labels = column_or_1d(labels)
        classes = np.unique(labels)
        if len(classes) != len(labels):
            raise ValueError("Parameter 'labels' must be unique")
        if not np.array_equal(classes, labels):
            raise ValueError("Parameter 'labels' must be ordered")
        if len(classes) != y_score.shape[1]:
            raise ValueError(
                f"Number of given labels, {len(classes)}, not equal to the number of columns "
                f"in 'y_score', {y_score.shape[1]}"
            )
        if len(np.setdiff1d(y_true, classes)):
            raise ValueError("'y_true' contains labels not in parameter 'labels'")
    else:
        classes = np.unique(y_true)
        if len(classes) != y_score.shape[1]:
            raise ValueError(
                "Number of classes in y_true not equal to the number of columns in 'y_score'"
            )
    if multi_class == "ovo":
        if sample_weight is not None:
            raise ValueError(
                "sample_weight is not supported for multiclass one-vs-one ROC AUC, "
                "'sample_weight' must be None in this case."
            )
        return _ovo(np.searchsorted(classes, y_true), y_score, average)
    return _average_binary(
        _roc_column(None), label_binarize(y_true, classes=classes), y_score, average, sample_weight
    )


def _ovo(encoded: np.ndarray, y_score: np.ndarray, average: Any) -> float:
    """Hand & Till's one-vs-one AUC (scikit-learn's ``_average_multiclass_ovo_score``): the mean
    over the pairs of present classes of the two one-vs-one AUCs, weighted by the pair's share
    of the samples with ``average="weighted"``; exact, rounded once."""
    present = np.unique(encoded)
    values: list[Column] = []
    weights: list[Fraction] = []
    column = _roc_column(None)
    for a, b in itertools.combinations(present.tolist(), 2):
        a_mask, b_mask = encoded == a, encoded == b
        ab = a_mask | b_mask
        pair = [column(m[ab], _scores(y_score[ab, c]), None) for m, c in ((a_mask, a), (b_mask, b))]
        if any(isinstance(v, float) for v in pair):
            values.append(float("nan"))
        else:
            values.append(pair[0].scaled(Fraction(1, 2)) + pair[1].scaled(Fraction(1, 2)))  # type: ignore[union-attr]
        weights.append(Fraction(int(ab.sum()), encoded.size))
    return _mean(values, weights if average == "weighted" else None)


def auc(x: Any, y: Any) -> float:
    """Area under the points ``(x, y)`` by the trapezoidal rule: ``sklearn.metrics.auc``.

    The exact area of the given floats, correctly rounded (:func:`prtheory.auc`). ``x`` must
    be monotone; non-finite points give scikit-learn's own (non-finite) value.

    Parameters
    ----------
    x, y : array-like of shape (n,)
        The points, at least 2, ``x`` increasing or decreasing.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Fewer than 2 points, or ``x`` neither increasing nor decreasing (scikit-learn's messages).

    See Also
    --------
    prtheory.auc : the same with prtheory's errors.
    roc_auc_score

    Examples
    --------
    >>> from prtheory.sklearn import auc, roc_curve
    >>> fpr, tpr, _ = roc_curve([1, 1, 2, 2], [0.1, 0.4, 0.35, 0.8], pos_label=2)
    >>> auc(fpr, tpr)
    0.75
    """
    check_params("auc", {"x": ["array-like"], "y": ["array-like"]}, {"x": x, "y": y})
    check_consistent_length(x, y)
    x = column_or_1d(x)
    y = column_or_1d(y)
    if x.shape[0] < 2:
        raise ValueError(
            f"At least 2 points are needed to compute area under curve, but x.shape = {x.shape[0]}"
        )
    dx = np.diff(x)
    direction = 1
    if np.any(dx < 0):
        if np.all(dx <= 0):
            direction = -1
        else:
            raise ValueError(f"x is neither increasing nor decreasing : {x}.")
    xf, yf = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if not (np.isfinite(xf).all() and np.isfinite(yf).all()):
        return float(direction * np.trapezoid(yf, xf))
    return trapezoid.auc(xf, yf)


def label_ranking_average_precision_score(
    y_true: Any, y_score: Any, *, sample_weight: Any = None
) -> float:
    """Label ranking average precision: ``sklearn.metrics.label_ranking_average_precision_score``.

    The exact weighted mean over the samples of each sample's ranking AP, rounded once
    (:func:`prtheory.label_ranking_average_precision`).

    Parameters
    ----------
    y_true : {array-like, sparse matrix} of shape (n_samples, n_labels)
        Relevant labels (indicator matrix).
    y_score : array-like of shape (n_samples, n_labels)
        Scores of the labels.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Matrices of different shapes, or a target that is not a label-indicator matrix.

    See Also
    --------
    prtheory.label_ranking_average_precision : prtheory's signature.

    Examples
    --------
    >>> from prtheory.sklearn import label_ranking_average_precision_score
    >>> label_ranking_average_precision_score([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]])
    0.4166666666666667
    """
    check_params(
        "label_ranking_average_precision_score",
        {
            "y_true": ["array-like"],
            "y_score": ["array-like"],
            "sample_weight": ["array-like", "None"],
        },
        {
            "y_true": y_true if not issparse(y_true) else np.zeros(1),
            "y_score": y_score,
            "sample_weight": sample_weight,
        },
    )
    check_consistent_length(y_true, y_score, sample_weight)
    y_true = check_array(y_true, ensure_2d=False, accept_sparse="csr")
    y_score = check_array(y_score, ensure_2d=False)
    if y_true.shape != y_score.shape:
        raise ValueError("y_true and y_score have different shape")
    y_type = type_of_target(y_true, input_name="y_true")
    if y_type != "multilabel-indicator" and not (y_type == "binary" and y_true.ndim == 2):
        raise ValueError(f"{y_type} format is not supported")
    dense = y_true.toarray() if issparse(y_true) else np.asarray(y_true)
    if sample_weight is not None and np.sum(sample_weight) == 0:
        warnings.warn("invalid value encountered in scalar divide", RuntimeWarning, stacklevel=2)
        return float("nan")
    return label_ranking.label_ranking_average_precision(
        dense != 0, y_score, sample_weight=sample_weight
    )


def top_k_accuracy_score(
    y_true: Any,
    y_score: Any,
    *,
    k: int = 2,
    normalize: bool = True,
    sample_weight: Any = None,
    labels: Any = None,
) -> float:
    """Top-k accuracy: ``sklearn.metrics.top_k_accuracy_score``, correctly rounded.

    The weighted share (or number, ``normalize=False``) of samples whose true class is among
    the ``k`` best-scored, ties ordered as scikit-learn orders them
    (:func:`prtheory.top_k_accuracy`), exactly, rounded once.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The true classes.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores (the positive class's alone for a binary target).
    k : int, default=2
        How many best-scored classes count.
    normalize : bool, default=True
        The share (default) or the number of hits.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.
    labels : array-like of shape (n_classes,), default=None
        The classes of the columns, in increasing order.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        A target type, ``k``, score shape or ``labels`` scikit-learn refuses (its messages).

    See Also
    --------
    prtheory.top_k_accuracy : prtheory's signature.

    Examples
    --------
    >>> from prtheory.sklearn import top_k_accuracy_score
    >>> y = [0, 1, 2, 2]
    >>> s = [[0.5, 0.2, 0.2], [0.3, 0.4, 0.2], [0.2, 0.4, 0.3], [0.7, 0.2, 0.1]]
    >>> top_k_accuracy_score(y, s, k=2)
    0.75
    """
    check_params(
        "top_k_accuracy_score",
        {
            "y_true": ["array-like"],
            "y_score": ["array-like"],
            "k": [("int", 1, None, "left")],
            "normalize": ["boolean"],
            "sample_weight": ["array-like", "None"],
            "labels": ["array-like", "None"],
        },
        {
            "y_true": y_true,
            "y_score": y_score,
            "k": k,
            "normalize": normalize,
            "sample_weight": sample_weight,
            "labels": labels,
        },
    )
    y_true = check_array(y_true, ensure_2d=False, dtype=None)
    y_true = column_or_1d(y_true)
    y_type = type_of_target(y_true, input_name="y_true")
    if y_type == "binary" and labels is not None and len(labels) > 2:
        y_type = "multiclass"
    if y_type not in {"binary", "multiclass"}:
        raise ValueError(f"y type must be 'binary' or 'multiclass', got '{y_type}' instead.")
    y_score = check_array(y_score, ensure_2d=False)
    if y_type == "binary":
        if y_score.ndim == 2 and y_score.shape[1] != 1:
            raise ValueError(
                "`y_true` is binary while y_score is 2d with"
                f" {y_score.shape[1]} classes. If `y_true` does not contain all the"
                " labels, `labels` must be provided."
            )
        y_score = column_or_1d(y_score)
    elif y_score.ndim != 2:
        raise ValueError(
            "`y_score` needs to be of shape `(n_samples, n_classes)`, since `y_true` contains "
            f"multiple classes. Got `y_score.shape={y_score.shape}`."
        )
    check_consistent_length(y_true, y_score, sample_weight)
    n_score = y_score.shape[1] if y_score.ndim == 2 else 2
    if labels is None:
        classes = np.unique(y_true)
        if len(classes) != n_score:
            raise ValueError(
                f"Number of classes in 'y_true' ({len(classes)}) not equal to the number of "
                f"classes in 'y_score' ({n_score}).You can provide a list of all known classes "
                "by assigning it to the `labels` parameter."
            )
    else:
        labels = column_or_1d(labels)
        classes = np.unique(labels)
        if len(classes) != len(labels):
            raise ValueError("Parameter 'labels' must be unique.")
        if not np.array_equal(classes, labels):
            raise ValueError("Parameter 'labels' must be ordered.")
        if len(classes) != n_score:
            raise ValueError(
                f"Number of given labels ({len(classes)}) not equal to the number of classes "
                f"in 'y_score' ({n_score})."
            )
        if len(np.setdiff1d(y_true, classes)):
            raise ValueError("'y_true' contains labels not in parameter 'labels'.")
    if k >= len(classes):
        warnings.warn(
            f"'k' ({k}) greater than or equal to 'n_classes' ({len(classes)}) will result in a "
            "perfect score and is therefore meaningless.",
            UndefinedMetricWarning,
            stacklevel=2,
        )
    if sample_weight is not None:
        sample_weight = np.asarray(sample_weight)
        if normalize and np.sum(sample_weight) == 0:
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    return label_ranking.top_k_accuracy(
        y_true, y_score, k=k, labels=classes, sample_weight=sample_weight, normalize=normalize
    )
