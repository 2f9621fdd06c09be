"""``precision_recall_curve``, ``roc_curve`` and ``det_curve`` with scikit-learn's contract.

Each checks its input as scikit-learn 1.9 does (:mod:`prtheory.sklearn._checks`), then takes
every coordinate from :mod:`prtheory.metrics.curves` (exact counts, each ratio correctly
rounded), and returns scikit-learn's plain tuple: the same thresholds (in the scores' dtype for
the PR curve, float64 with ``inf`` first for ROC and DET), the same points kept by
``drop_intermediate``, the same warnings and values where a rate is undefined.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from prtheory.metrics import curves
from prtheory.sklearn._checks import curve_input, has_weight, warn_no_positives

__all__ = ["det_curve", "precision_recall_curve", "roc_curve"]


def precision_recall_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision-recall pairs at every threshold: ``sklearn.metrics.precision_recall_curve``.

    Precision ``TP/(TP + FP)`` and recall ``TP/pos`` at each distinct score (items of weight 0
    dropped), each the correctly rounded exact ratio; thresholds increasing, then the point
    (precision 1, recall 0) without a threshold. With no positive in ``y_true`` scikit-learn
    warns (``UserWarning``) and sets recall to 1; so does this.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; other labels than ``{0, 1}``, ``{-1, 1}`` need ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores (finite).
    pos_label : int, float, bool or str, default=None
        The positive class.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights (scikit-learn also takes negative ones; here they raise).
    drop_intermediate : bool, default=False
        Drop the points whose TP equals both neighbours'.

    Returns
    -------
    precision, recall : ndarray of shape (n_thresholds + 1,)
    thresholds : ndarray of shape (n_thresholds,)

    Examples
    --------
    >>> from prtheory.sklearn import precision_recall_curve
    >>> precision, recall, thresholds = precision_recall_curve(
    ...     [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    ... )
    >>> precision.tolist()
    [0.5, 0.6666666666666666, 0.5, 1.0, 1.0]
    >>> recall.tolist()
    [1.0, 1.0, 0.5, 0.5, 0.0]
    >>> thresholds.tolist()
    [0.1, 0.35, 0.4, 0.8]
    """
    labels, scores, weights = curve_input(
        "precision_recall_curve", y_true, y_score, pos_label, sample_weight, drop_intermediate
    )
    if not has_weight(labels, weights, True):
        warn_no_positives(stacklevel=2)
    c = curves.precision_recall_curve(
        labels,
        scores.astype(np.float64),
        sample_weight=weights,
        drop_intermediate=drop_intermediate,
        convention="sklearn",
    )
    return c.precision, c.recall, c.thresholds.astype(scores.dtype)


def roc_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Receiver operating characteristic: ``sklearn.metrics.roc_curve``.

    False and true positive rates ``FP/neg``, ``TP/pos`` from the origin (threshold ``inf``)
    through every distinct score (items of weight 0 dropped), correctly rounded;
    ``drop_intermediate`` drops the points collinear with their neighbours. A class absent
    from ``y_true`` makes its rate NaN with an ``UndefinedMetricWarning``, as in scikit-learn.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; other labels than ``{0, 1}``, ``{-1, 1}`` need ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores (finite).
    pos_label : int, float, bool or str, default=None
        The positive class.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.
    drop_intermediate : bool, default=True
        Drop the points collinear with their neighbours.

    Returns
    -------
    fpr, tpr, thresholds : ndarray

    Examples
    --------
    >>> from prtheory.sklearn import roc_curve
    >>> fpr, tpr, thresholds = roc_curve([1, 1, 2, 2], [0.1, 0.4, 0.35, 0.8], pos_label=2)
    >>> fpr.tolist(), tpr.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    >>> thresholds.tolist()
    [inf, 0.8, 0.4, 0.35, 0.1]
    """
    labels, scores, weights = curve_input(
        "roc_curve", y_true, y_score, pos_label, sample_weight, drop_intermediate
    )
    if not has_weight(labels, weights, False):
        warnings.warn(
            "No negative samples in y_true, false positive value should be meaningless",
            UndefinedMetricWarning,
            stacklevel=2,
        )
    if not has_weight(labels, weights, True):
        warnings.warn(
            "No positive samples in y_true, true positive value should be meaningless",
            UndefinedMetricWarning,
            stacklevel=2,
        )
    c = curves.roc_curve(
        labels,
        scores.astype(np.float64),
        sample_weight=weights,
        drop_intermediate=drop_intermediate,
        convention="sklearn",
    )
    return c.fpr, c.tpr, c.thresholds


def det_curve(
    y_true: Any,
    y_score: Any,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Detection error tradeoff: ``sklearn.metrics.det_curve``.

    False positive and false negative rates ``FP/neg``, ``(pos - TP)/pos`` by increasing
    threshold, from the last threshold where no negative is predicted positive (``inf`` if
    none) to the first where every positive is, correctly rounded. Raises ``ValueError`` when
    ``y_true`` has one class, as scikit-learn does.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels.
    y_score : array-like of shape (n_samples,)
        Scores (finite).
    pos_label : int, float, bool or str, default=None
        The positive class.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.
    drop_intermediate : bool, default=False
        Drop the points whose TP equals both neighbours'.

    Returns
    -------
    fpr, fnr, thresholds : ndarray

    Raises
    ------
    ValueError
        ``y_true`` with one class, or labels scikit-learn refuses.

    See Also
    --------
    prtheory.det_curve : prtheory's signature.
    roc_curve

    Examples
    --------
    >>> from prtheory.sklearn import det_curve
    >>> fpr, fnr, thresholds = det_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr.tolist(), fnr.tolist(), thresholds.tolist()
    ([0.5, 0.5, 0.0], [0.0, 0.5, 0.5], [0.35, 0.4, 0.8])
    """
    labels, scores, weights = curve_input(
        "det_curve", y_true, y_score, pos_label, sample_weight, drop_intermediate
    )
    if np.unique(np.asarray(y_true)).size != 2:
        raise ValueError(
            "Only one class is present in y_true. Detection error tradeoff curve is not "
            "defined in that case."
        )
    c = curves.det_curve(
        labels,
        scores.astype(np.float64),
        sample_weight=weights,
        drop_intermediate=drop_intermediate,
    )
    return c.fpr, c.fnr, c.thresholds
