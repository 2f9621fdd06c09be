"""Metrics that rank the labels of each sample, correctly rounded: LRAP and top-k accuracy.

Each sample ``i`` has a score per label (a row of ``y_score``); the metrics rank the labels of
the row and average a per-row value over the rows with weights ``w_i`` (1 when not given),
exactly, rounded once.

* **Label ranking average precision** (scikit-learn's ``label_ranking_average_precision_score``,
  Tsoumakas et al. 2010): with ``R_i`` the relevant labels of row ``i``, ``rank_ij`` the number
  of labels scored at least ``s_ij`` and ``L_ij`` the number of relevant ones among them (ties
  count at their worst rank), row ``i`` scores ``(1/|R_i|) sum_{j in R_i} L_ij / rank_ij``, or 1
  when ``R_i`` is empty or holds every label. ``LRAP = sum_i w_i lrap_i / sum_i w_i`` is a sum of
  integer quotients, rounded by :func:`prtheory.oracle.summation.round_quotient_sum`.
* **Top-k accuracy**: the weighted share of rows whose true class is among the ``k``
  best-scored classes. Tied scores at the cut are ordered as scikit-learn's
  ``top_k_accuracy_score`` orders them (a stable ascending sort, reversed: of two classes with
  equal scores the later column ranks first). A binary target with ``k = 1`` predicts the
  positive class when its score exceeds 0.5 (scores in [0, 1]) or 0, as scikit-learn does.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from prtheory._input import as_array, as_scores, as_weights, check_no_missing_labels
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle.rounding import to_float
from prtheory.oracle.summation import round_quotient_sum

__all__ = ["label_ranking_average_precision", "top_k_accuracy"]

#: Rows per chunk of the vectorised ranking (bounds the temporary arrays).
_CHUNK = 1 << 16


def _matrix_scores(y_score: Any, shape: tuple[int, ...]) -> np.ndarray:
    s = as_array(y_score, "y_score", column=False)
    if s.ndim != 2 or s.shape != shape:
        raise InvalidInputError("y_score", f"shape {s.shape} does not match y_true's shape {shape}")
    return np.column_stack([as_scores(s[:, c], name=f"y_score[:, {c}]") for c in range(s.shape[1])])


def _row_weights(sample_weight: Any, n: int) -> np.ndarray:
    """Exact integer row weights over one denominator (which cancels), all 1 without weights."""
    w = as_weights(sample_weight, n)
    return np.ones(n, dtype=np.int64) if w is None else w.numerators


def label_ranking_average_precision(
    y_true: Any, y_score: Any, *, sample_weight: Any = None
) -> float:
    """Label ranking average precision of a label-indicator matrix, correctly rounded.

    Parameters
    ----------
    y_true : array-like of shape (n, L)
        0/1 or boolean: which labels of each row are relevant.
    y_score : array-like of shape (n, L)
        Scores of each label; NaN is an error.
    sample_weight : array-like of shape (n,), optional
        Finite, non-negative row weights, held exactly.

    Returns
    -------
    float
        ``sum_i w_i lrap_i / sum_i w_i`` (module docstring), correctly rounded. Undefined
        (:class:`~prtheory.errors.UndefinedMetricError`) when every row has weight 0.

    Raises
    ------
    InvalidInputError
        Malformed matrices or weights, naming the argument.
    UndefinedMetricError
        Every row has weight 0.

    See Also
    --------
    top_k_accuracy
    prtheory.sklearn.label_ranking_average_precision_score : scikit-learn's signature.

    Examples
    --------
    Row 1: the relevant label (score 0.75) is 2nd of 3, so 1/2; row 2: the relevant label
    (score 0.1) is 3rd, so 1/3; the mean is 5/12:

    >>> from prtheory.metrics import label_ranking_average_precision
    >>> label_ranking_average_precision([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]])
    0.4166666666666667
    """
    y = as_array(y_true, "y_true", column=False)
    if y.ndim != 2:
        raise InvalidInputError(
            "y_true", f"must be a label-indicator matrix (n, L), got shape {y.shape}"
        )
    check_no_missing_labels(y, "y_true")
    if y.dtype != np.bool_:
        if y.dtype.kind not in "iuf" or ((y != 0) & (y != 1)).any():
            raise InvalidInputError("y_true", "a label-indicator matrix holds 0/1 or booleans")
        y = y == 1
    s = _matrix_scores(y_score, y.shape)
    w = _row_weights(sample_weight, y.shape[0])
    total = int(sum(w.tolist())) if w.dtype == object else int(w.sum())
    if total == 0:
        raise UndefinedMetricError("label ranking average precision", "every row has weight 0")
    nums, dens = [], []
    for start in range(0, y.shape[0], _CHUNK):
        a, b = _lrap_terms(
            y[start : start + _CHUNK], s[start : start + _CHUNK], w[start : start + _CHUNK]
        )
        nums.append(a)
        dens.append(b)
    return round_quotient_sum(np.concatenate(nums), np.concatenate(dens), total)


def _lrap_terms(y: np.ndarray, s: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(numerators, denominators)`` with ``sum_i w_i lrap_i = sum numerators/denominators``."""
    n, L = y.shape
    order = np.argsort(-s, axis=1, kind="stable")
    v = np.take_along_axis(s, order, axis=1)
    rel = np.take_along_axis(y, order, axis=1)
    # the last position of each position's tie block, in decreasing score order
    is_end = np.ones((n, L), dtype=bool)
    is_end[:, :-1] = v[:, :-1] != v[:, 1:]
    ends = np.where(is_end, np.arange(L), L)
    block_end = np.minimum.accumulate(ends[:, ::-1], axis=1)[:, ::-1]
    rank = block_end + 1  # labels scored at least this one's score
    found = np.take_along_axis(np.cumsum(rel, axis=1), block_end, axis=1)  # relevant among them
    size = rel.sum(axis=1)
    ranked = (size > 0) & (size < L)
    rows, cols = np.nonzero(rel & ranked[:, None])
    wf = w.astype(object) if w.dtype == object else w
    num = wf[rows] * found[rows, cols]
    den = size[rows] * rank[rows, cols]
    whole = np.flatnonzero(~ranked)  # empty or full rows score 1
    return np.concatenate((num, wf[whole])), np.concatenate(
        (den, np.ones(whole.size, dtype=np.int64))
    )


def top_k_accuracy(
    y_true: Any,
    y_score: Any,
    *,
    k: int = 2,
    labels: Any = None,
    sample_weight: Any = None,
    normalize: bool = True,
) -> float:
    """The weighted share (or, with ``normalize=False``, the weighted number) of rows whose true
    class is among the ``k`` best-scored, correctly rounded.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        The true classes.
    y_score : array-like of shape (n,) or (n, K)
        One column per class, in the order of ``labels`` (default: the sorted distinct classes
        of ``y_true``); a binary target may give the positive class's scores alone.
    k : int
        How many of the best-scored classes count as hits (``k >= 1``).
    labels : array-like of shape (K,), optional
        The class of each column, in increasing order.
    sample_weight : array-like of shape (n,), optional
        Finite, non-negative row weights, held exactly.
    normalize : bool
        The weighted share (default) or the weighted number of hits.

    Returns
    -------
    float
        ``sum_i w_i hit_i / sum_i w_i`` or ``sum_i w_i hit_i``, correctly rounded (ties as in
        the module docstring).

    Raises
    ------
    InvalidInputError
        Malformed input, ``k`` below 1, or labels that do not match the columns.
    UndefinedMetricError
        Every row has weight 0 (with ``normalize=True``).

    See Also
    --------
    label_ranking_average_precision
    prtheory.sklearn.top_k_accuracy_score : scikit-learn's signature.

    Examples
    --------
    Three classes; the true class is 2nd best in row 1, best in row 2 and last in row 3:

    >>> from prtheory.metrics import top_k_accuracy
    >>> y = [0, 1, 2]
    >>> s = [[0.3, 0.5, 0.2], [0.1, 0.6, 0.3], [0.5, 0.4, 0.1]]
    >>> top_k_accuracy(y, s, k=2)
    0.6666666666666666
    >>> top_k_accuracy(y, s, k=1, normalize=False)
    1.0
    """
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise InvalidInputError("k", f"must be an integer >= 1, got {k!r}")
    y = as_array(y_true, "y_true")
    if y.ndim != 1:
        raise InvalidInputError("y_true", f"must be 1-D class labels, got shape {y.shape}")
    check_no_missing_labels(y, "y_true")
    s = as_array(y_score, "y_score")
    classes = np.unique(y) if labels is None else as_array(labels, "labels")
    if labels is not None and (
        np.unique(classes).size != classes.size or not np.array_equal(np.unique(classes), classes)
    ):
        raise InvalidInputError("labels", "must be distinct and in increasing order")
    width = s.shape[1] if s.ndim == 2 else 2
    if classes.size != width and not (labels is None and s.ndim == 1 and classes.size <= 2):
        raise InvalidInputError(
            "y_score", f"has {width} classes' scores, but there are {classes.size} classes"
        )
    if np.setdiff1d(y, classes).size:
        raise InvalidInputError("y_true", "has labels that are not in labels=")
    if s.shape[0] != y.size:
        raise InvalidInputError("y_score", f"has {s.shape[0]} rows, y_true has {y.size}")
    encoded = np.searchsorted(classes, y)
    if s.ndim == 1:
        scores = as_scores(s, y.size)
        if k == 1:
            threshold = 0.5 if scores.min() >= 0 and scores.max() <= 1 else 0
            hits = (scores > threshold).astype(np.int64) == encoded
        else:
            hits = np.ones(y.size, dtype=bool)
    else:
        scores = np.column_stack(
            [as_scores(s[:, c], name=f"y_score[:, {c}]") for c in range(s.shape[1])]
        )
        ranked = np.argsort(scores, axis=1, kind="mergesort")[:, ::-1]
        hits = (ranked[:, :k] == encoded[:, None]).any(axis=1)
    w = as_weights(sample_weight, y.size)
    if w is None:
        got, total = Fraction(int(hits.sum())), Fraction(y.size)
    else:
        got = Fraction(int(sum(w.numerators[hits].tolist())), w.denominator)
        total = Fraction(int(sum(w.numerators.tolist())), w.denominator)
    if not normalize:
        return to_float(got)
    if total == 0:
        raise UndefinedMetricError("top-k accuracy", "every row has weight 0")
    return to_float(got / total)
