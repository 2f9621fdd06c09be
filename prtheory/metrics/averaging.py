"""``average=`` for multi-label and multi-class targets, as scikit-learn, with one rounding.

Follows ``sklearn.metrics._base._average_binary_score`` (scikit-learn 1.9) on the targets of
:func:`prtheory._labels.target` (a label-indicator matrix, or one-vs-rest columns of a
multi-class target). With ``L`` columns, per-column exact values ``v_c`` and exact sample weights
``w_i`` (1 when not given):

``None``
    the array of per-column values, each correctly rounded.
``"macro"``
    ``(1/L) sum_c v_c``.
``"weighted"``
    ``sum_c s_c v_c / sum_c s_c`` with support ``s_c = sum_i w_i y_ic``; columns with zero
    support have weight 0 and are not evaluated (scikit-learn sets their score to 0 before
    averaging, which is the same). No support at all: undefined (scikit-learn returns 0:
    ``convention="sklearn"``).
``"micro"``
    the binary metric of the flattened matrices, each sample weight repeated ``L`` times.
``"samples"``
    the metric of each row (its ``L`` labels ranked by their scores), averaged over the rows with
    weights ``w_i``; rows of weight 0 are not evaluated.

The average is computed exactly from the exact per-column values (:mod:`prtheory.metrics.exact`)
and rounded once, so it is the correctly rounded float64 of the exact average, not a float mean
of rounded values (which can differ by an ulp). A binary target ignores ``average``, as in
scikit-learn. An undefined column or row (no positives for AP, one class for ROC AUC, ...)
raises :class:`~prtheory.errors.UndefinedMetricError` naming it, unless the metric's
``convention`` gives it a value.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from prtheory._input import as_array, as_weights, check_option
from prtheory._labels import Target
from prtheory.errors import UndefinedMetricError
from prtheory.metrics.exact import Irrational, Terms, round_sum
from prtheory.oracle.conventions import undefined

__all__ = ["AVERAGES", "averaged", "weights_array"]

AVERAGES = ("macro", "micro", "weighted", "samples", None)

#: ``value(labels, scores, sample_weight) -> Terms | Irrational`` for one binary ranking
Value = Callable[[np.ndarray, np.ndarray, Any], "Terms | Irrational"]
#: A float path for one column: the correctly rounded value, or None to use the exact one.
Fast = Callable[[np.ndarray, np.ndarray, Any], "float | None"]


def weights_array(sample_weight: Any) -> Any:
    """Sample weights as an array (any array library, see :mod:`prtheory._labels`), or None.

    Parameters
    ----------
    sample_weight : array-like or None
        Sample weights of any array library.

    Returns
    -------
    ndarray or None
        The weights as an array.

    Examples
    --------
    >>> from prtheory.metrics.averaging import weights_array
    >>> weights_array([1, 2]).tolist(), weights_array(None)
    ([1, 2], None)
    """
    return None if sample_weight is None else as_array(sample_weight, "sample_weight")


def _check_average(average: Any) -> Any:
    if average is None:
        return None
    return check_option(average, "average", tuple(a for a in AVERAGES if a is not None))


def _of(value: Value, where: str, *args) -> Terms | Irrational:
    """``value(*args)``, an undefined result named by its column or row."""
    try:
        return value(*args)
    except UndefinedMetricError as err:
        raise UndefinedMetricError(f"{err.quantity} of {where}", err.reason) from None


def averaged(
    value: Value,
    t: Target,
    sample_weight: Any,
    average: Any,
    convention: str | None = None,
    fast: Fast | None = None,
) -> float | np.ndarray:
    """The metric ``value`` of the target ``t`` under ``average`` (module docstring).

    ``fast``, when given, is tried first wherever one column is rounded on its own (binary
    targets, ``average=None``, ``"micro"``); it returns the correctly rounded value or None.

    Parameters
    ----------
    value : callable
        The exact metric of one binary column, ``value(labels, scores, sample_weight)``.
    t : Target
        The coerced target (:func:`prtheory._labels.target`).
    sample_weight : array-like or None
        The caller's weights.
    average : {"macro", "weighted", "micro", "samples", None}
        How columns are averaged.
    convention : str or None
        Passed on where a column's value is undefined.
    fast : callable or None
        A float path for one column, tried first.

    Returns
    -------
    float or ndarray
        The correctly rounded average (one per column with ``average=None``).

    Raises
    ------
    InvalidInputError
        An unknown ``average``, or one the target does not allow.
    UndefinedMetricError
        A column's value is undefined, without a convention.

    See Also
    --------
    prtheory.metrics.exact.round_sum : the one rounding of the average.

    Examples
    --------
    Two label columns: the first ranks both positives first (AP 1); the second ranks a negative,
    then both positives (AP (1/2 + 2/3)/2 = 7/12). Their macro mean is 19/24, rounded once:

    >>> from fractions import Fraction
    >>> from prtheory._labels import target
    >>> from prtheory.metrics.areas import average_precision_terms
    >>> from prtheory.metrics.averaging import averaged
    >>> t = target([[1, 0], [0, 1], [1, 1]], [[0.9, 0.9], [0.2, 0.8], [0.3, 0.1]])
    >>> averaged(average_precision_terms, t, None, "macro") == float(Fraction(19, 24))
    True
    """
    average = _check_average(average)
    w = weights_array(sample_weight)

    def alone(where: str, y: np.ndarray, s: np.ndarray, wc: Any) -> float:
        quick = None if fast is None else fast(y, s, wc)
        if quick is not None:
            return quick
        return round_sum([(Fraction(1), _of(value, where, y, s, wc) if where else value(y, s, wc))])

    if t.kind == "binary":
        return alone("", t.labels, t.scores, w)
    n, L = t.labels.shape
    if average == "micro":
        flat_w = None if w is None else np.repeat(w, L)
        return alone("", t.labels.ravel(), t.scores.ravel(), flat_w)
    if average == "samples":
        exact = as_weights(w, n)
        rows = []
        for i in range(n):
            wi = Fraction(1) if exact is None else exact[i]
            if wi:
                rows.append((wi, _of(value, f"row {i}", t.labels[i], t.scores[i], None)))
        return _mean(rows, "samples average", "every row has sample weight 0", convention)
    columns = [(c, t.labels[:, c], t.scores[:, c]) for c in range(L)]
    classes = t.classes if t.classes is not None else tuple(range(L))  # set for matrices
    name = {c: f"class {classes[c]!r}" for c in range(L)}
    if average is None:
        return np.array([alone(name[c], y, s, w) for c, y, s in columns])
    if average == "macro":
        return round_sum([(Fraction(1, L), _of(value, name[c], y, s, w)) for c, y, s in columns])
    support = _supports(t.labels, as_weights(w, n))
    parts = [(support[c], _of(value, name[c], y, s, w)) for c, y, s in columns if support[c]]
    return _mean(parts, "weighted average", "no class has a positive label", convention)


def _mean(parts, quantity: str, reason: str, convention: str | None) -> float:
    """``sum w v / sum w`` of ``(w, v)`` pairs; undefined when there are none."""
    total = sum((w for w, _ in parts), Fraction(0))
    if not parts:
        return float(undefined(quantity, reason, convention, {"sklearn": Fraction(0)}))
    return round_sum([(w / total, v) for w, v in parts])


def _supports(labels: np.ndarray, exact) -> list[Fraction]:
    """Exact ``sum_i w_i y_ic`` per column (``w_i = 1`` without weights)."""
    if exact is None:
        return [Fraction(int(k)) for k in labels.sum(axis=0)]
    nums = exact.numerators
    return [
        Fraction(int(sum(nums[labels[:, c]].tolist())), exact.denominator)
        for c in range(labels.shape[1])
    ]
