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
