"""Metrics of the labels a threshold predicts: F-beta at a score threshold, correctly rounded.

Predict positive iff ``score >= threshold`` (the rule of every operating point of
:mod:`prtheory.oracle.counts`), count TP, FP and FN exactly (weights as exact integers over one
denominator, :class:`prtheory._input.ExactWeights`), and round the exact
``F_beta = (1 + beta^2) TP / ((1 + beta^2) TP + FP + beta^2 FN)`` (claims F2, N1; computed by
:func:`prtheory.oracle.points.fbeta`) once.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from prtheory._input import as_float_array, as_labels, as_scores, as_weights
from prtheory._labels import target
from prtheory.metrics.averaging import averaged
from prtheory.metrics.exact import Terms
from prtheory.oracle import points

__all__ = ["fbeta_at_threshold"]


def _total(values: np.ndarray) -> int:
    """Exact sum of non-negative integers (int64 in two 31-bit limbs, or Python ints)."""
    if values.dtype == object:
        return int(sum(values.tolist()))
    return (int((values >> 31).sum()) << 31) + int((values & (2**31 - 1)).sum())


def fbeta_at_threshold(
    y_true,
    y_score,
    *,
    threshold: Any,
    beta: Any = 1,
    sample_weight=None,
    pos_label=None,
    average: str | None = "macro",
    labels=None,
    convention: str | None = None,
) -> float | np.ndarray:
    """F-beta of the classifier ``score >= threshold``, correctly rounded (F2, N1).

    Undefined when ``TP + FP + FN = 0`` (no positives and nothing predicted positive);
    ``convention="sklearn"`` gives 0, as scikit-learn's ``fbeta_score(zero_division=0)``.
    ``beta`` is any finite real > 0 (taken exactly). With a multi-label or multi-class target
    the same threshold applies to every column; ``average`` as in
    :mod:`prtheory.metrics.averaging` (``"micro"`` pools the counts of every column).

    Parameters
    ----------
    y_true : array-like of shape (n,) or (n, L)
        Binary labels, labels of ``pos_label``, or a multi-label / multi-class target.
    y_score : array-like of shape (n,) or (n, L)
        Real scores, taken exactly.
    threshold : number
        Predict positive iff ``score >= threshold``.
    beta : number
        The weight of recall, finite and > 0 (default 1).
    sample_weight : array-like of shape (n,) or None
        Finite non-negative weights, taken exactly.
    pos_label : label or None
        The positive class of a binary target that is not 0/1.
    average : {"macro", "weighted", "micro", "samples", None}
        How columns are averaged.
    labels : array-like or None
        The classes of a multi-class target.
    convention : {None, "sklearn"}
        ``"sklearn"``: 0 when ``TP + FP + FN = 0``.

    Returns
    -------
    float or ndarray
        The correctly rounded F-beta.

    Raises
    ------
    InvalidInputError
        Malformed input, ``beta`` or ``threshold``, naming the argument.
    UndefinedMetricError
        ``TP + FP + FN = 0``, without ``convention="sklearn"``.

    See Also
    --------
    prtheory.oracle.fbeta : the exact value of counts.

    Examples
    --------
    At threshold 0.85 only the positive scored 0.9 is predicted: TP = 1, FP = 0, FN = 1, so
    F1 = 2/(2 + 0 + 1) = 2/3 and F2 = 5/(5 + 0 + 4) = 5/9:

    >>> from prtheory.metrics import fbeta_at_threshold
    >>> fbeta_at_threshold([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], threshold=0.85)
    0.6666666666666666
    >>> fbeta_at_threshold([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], threshold=0.85, beta=2)
    0.5555555555555556
    """
    t_value = float(as_float_array(threshold, "threshold"))
    t = target(y_true, y_score, pos_label=pos_label, labels=labels)

    def value(y, s, w) -> Terms:
        y = as_labels(y)
        s = as_scores(s, y.size)
        predicted = s >= t_value
        exact = as_weights(w, y.size)
        ones = np.ones(y.size, dtype=np.int64) if exact is None else exact.numerators
        tp = _total(ones[y & predicted])
        fp = _total(ones[~y & predicted])
        fn = _total(ones[y & ~predicted])
        return Terms(constant=points.fbeta(tp, fp, fn, beta, convention=convention))

    return averaged(value, t, sample_weight, average, convention)
