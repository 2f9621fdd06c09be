"""Labels and score arrays as users pass them, turned into what the exact layer validates.

The float metrics (:mod:`prtheory.metrics`) accept what scikit-learn accepts, and more array
libraries. This module only *coerces*; the values themselves are then validated by
:mod:`prtheory._input` (NaN, lengths, weights), so the messages stay the same everywhere.

Arrays
    converted by :func:`prtheory._input.as_array`, the container conversion of every layer
    (lists, numpy, pandas, polars, torch; missing values are errors naming their index).

Binary labels (scikit-learn's ``_check_pos_label_consistency``)
    Without ``pos_label`` the labels must be booleans or numbers forming one of ``{0, 1}``,
    ``{-1, 1}``, ``{0}``, ``{1}``, ``{-1}``; the positive class is ``1`` (``True``). Any other
    label set (strings, ``{1, 2}``, ...) needs ``pos_label``. With ``pos_label`` the labels may
    be anything comparable (strings, numbers, booleans); at most two distinct values, and when
    there are two ``pos_label`` must be one of them.

A score matrix with a binary target
    A 1-D binary ``y_true`` with an ``(n, 2)`` score matrix (``clf.predict_proba(X)``) is an
    error that says to pass the positive class's column ``y_score[:, 1]``: averaged one-vs-rest
    over both columns it would give a plausible wrong number. With ``labels=`` naming both
    columns' classes it is a two-class one-vs-rest target.

Several labels at once (the targets behind ``average=``)
    * multi-label: ``y_true`` is an ``(n, L)`` indicator matrix (0/1 or booleans, ``L >= 2``)
      with an ``(n, L)`` score matrix;
    * multi-class, one-vs-rest: ``y_true`` is ``(n,)`` with a score matrix ``(n, K)``,
      ``K >= 2``; column ``k`` scores class ``labels[k]`` (default: the sorted distinct labels of
      ``y_true``, which must then number ``K``). ``pos_label`` does not apply.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from prtheory._input import as_array, as_scores, check_no_missing_labels
from prtheory.errors import InvalidInputError

__all__ = ["Target", "binary_labels", "binary_target", "target"]

_NUMERIC_BINARY = ({0, 1}, {-1, 1}, {0}, {1}, {-1})


def _same_kinds(arr: np.ndarray, name: str) -> None:
    """Reject a mixture of label kinds numpy would silently compare as strings."""
    kinds = sorted({type(v).__name__ for v in arr.flat})
    if len(kinds) > 1:
        raise InvalidInputError(
            name, f"labels of different kinds cannot be compared ({', '.join(kinds)})"
        )


def _classes(arr: np.ndarray, name: str) -> np.ndarray:
    """Sorted distinct labels; NaN labels and unorderable mixtures are errors."""
    check_no_missing_labels(arr, name)
    if arr.dtype.kind == "c":
        raise InvalidInputError(name, "labels must not be complex numbers")
    if arr.dtype.kind in "biuf" and arr.size:  # two passes instead of a sort when binary
        lo, hi = arr.min(), arr.max()
        if lo == hi:
            return arr.ravel()[:1].copy()
        if arr.dtype.kind == "b" or not ((arr != lo) & (arr != hi)).any():
            return np.array([lo, hi], dtype=arr.dtype)
    try:
        return np.unique(arr)
    except TypeError:
        _same_kinds(arr, name)
        raise InvalidInputError(
            name, "labels must be comparable (numbers, strings, booleans)"
        ) from None


def _show(values) -> str:
    return "{" + ", ".join(repr(v.item() if isinstance(v, np.generic) else v) for v in values) + "}"


def _numeric_binary(classes: np.ndarray) -> bool:
    """Whether sorted distinct labels need no ``pos_label``: booleans, or {0, 1}, {-1, 1}, ..."""
    values = classes.tolist()
    if all(isinstance(v, bool) for v in values):
        return True
    if any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in values):
        return False
    return set(values) in _NUMERIC_BINARY


def binary_labels(y_true: Any, pos_label: Any = None, name: str = "y_true") -> np.ndarray:
    """Boolean ``y_true == positive class`` of a binary target (rules in the module docstring)."""
    arr = y_true if isinstance(y_true, np.ndarray) and y_true.ndim == 1 else as_array(y_true, name)
    if arr.ndim != 1:
        raise InvalidInputError(
            name,
            f"a binary target must be 1-D, got shape {arr.shape} (a label-indicator matrix "
            "needs a score matrix of the same shape)",
        )
    classes = _classes(arr, name)
    if pos_label is None:
        if not _numeric_binary(classes):
            raise InvalidInputError(
                name,
                f"takes the values {_show(classes)}; without pos_label the labels must be "
                "booleans or one of {0, 1}, {-1, 1}: pass pos_label= to name the positive class",
            )
        return arr if arr.dtype == np.bool_ else arr == 1
    if classes.size > 2:
        raise InvalidInputError(
            name,
            f"has {classes.size} distinct labels {_show(classes[:6])}; a binary metric needs "
            "two (for one-vs-rest pass a score matrix with one column per class)",
        )
    if classes.size == 2 and not any(_same_label(c, pos_label) for c in classes.tolist()):
        raise InvalidInputError(
            "pos_label", f"{pos_label!r} is not one of y_true's labels {_show(classes)}"
        )
    if isinstance(pos_label, (str, bytes)) and arr.dtype.kind not in "OUS":
        return np.zeros(arr.size, dtype=bool)
    return np.asarray(arr == pos_label, dtype=bool)


def _same_label(a: Any, b: Any) -> bool:
    if isinstance(a, (str, bytes)) != isinstance(b, (str, bytes)):
        return False
    return bool(a == b)


@dataclass(frozen=True)
class Target:
    """Validated labels and scores of one call.

    ``labels`` is boolean: ``(n,)`` for a binary target, ``(n, L)`` (column ``c`` = "is class
    ``classes[c]``") for multi-label and one-vs-rest multi-class targets; ``scores`` is float64
    of the same shape; ``classes`` names the columns (``None`` for a binary target).
    """

    kind: str
    labels: np.ndarray
    scores: np.ndarray
    classes: tuple | None = None


def _one_column(y: np.ndarray, s: np.ndarray) -> None:
    """Refuse a score matrix beside a 1-D binary target (module docstring)."""
    if y.ndim == 1 and s.ndim == 2 and s.shape[1] == 2 and _classes(y, "y_true").size <= 2:
        raise InvalidInputError(
            "y_score",
            f"has shape {s.shape} but y_true is binary: pass the scores of the positive class "
            "as a 1-D array, y_score[:, 1] (e.g. clf.predict_proba(X)[:, 1])",
        )


def binary_target(
    y_true: Any, y_score: Any, pos_label: Any = None
) -> tuple[np.ndarray, np.ndarray]:
    """Boolean labels and float64 scores of a binary target (curves and cutoffs take no
    ``average``): a score matrix is an error."""
    y = as_array(y_true, "y_true")
    s = as_array(y_score, "y_score")
    _one_column(y, s)
    truth = binary_labels(y, pos_label)
    if s.ndim != 1:
        raise InvalidInputError("y_score", f"must be 1-D for a binary target, got shape {s.shape}")
    return truth, as_scores(s, truth.size)


def target(y_true: Any, y_score: Any, *, pos_label: Any = None, labels: Any = None) -> Target:
    """Coerce ``y_true`` and ``y_score`` into a binary, multi-label or multi-class target."""
    y = as_array(y_true, "y_true")
    s = as_array(y_score, "y_score")
    if s.ndim == 1:
        if labels is not None:
            raise InvalidInputError(
                "labels", "names the columns of a score matrix; y_score is 1-D (binary)"
            )
        truth = binary_labels(y, pos_label)
        return Target("binary", truth, as_scores(s, truth.size))
    if labels is None:
        _one_column(y, s)
    if s.shape[1] < 2:
        raise InvalidInputError("y_score", f"a score matrix needs >= 2 columns, got {s.shape}")
    if y.shape[0] != s.shape[0]:
        raise InvalidInputError("y_score", f"has {s.shape[0]} rows, y_true has {y.shape[0]}")
    columns = [as_scores(s[:, c], name=f"y_score[:, {c}]") for c in range(s.shape[1])]
    scores = np.column_stack(columns)
    if pos_label is not None and pos_label != 1:
        raise InvalidInputError(
            "pos_label",
            f"does not apply to {'label-indicator' if y.ndim == 2 else 'multi-class'} targets "
            f"(each column is its own positive class), got {pos_label!r}",
        )
    if y.ndim == 2:
        if labels is not None:
            raise InvalidInputError("labels", "does not apply to a label-indicator y_true")
        if y.shape != s.shape:
            raise InvalidInputError(
                "y_score", f"shape {s.shape} does not match y_true's shape {y.shape}"
            )
        classes = _classes(y.ravel(), "y_true")
        if not _numeric_binary(classes) or set(classes.tolist()) - {0, 1}:
            raise InvalidInputError(
                "y_true", f"a label-indicator matrix holds 0/1 or booleans, got {_show(classes)}"
            )
        truth = y if y.dtype == np.bool_ else y == 1
        return Target("multilabel", truth, scores, tuple(range(y.shape[1])))
    present = _classes(y, "y_true")
    if labels is None:
        if present.size != s.shape[1]:
            raise InvalidInputError(
                "y_score",
                f"has {s.shape[1]} columns but y_true has {present.size} distinct labels "
                f"{_show(present[:6])}; pass labels= to name each column's class",
            )
        names = present
    else:
        names = as_array(labels, "labels")
        if names.ndim != 1 or names.size != s.shape[1]:
            raise InvalidInputError(
                "labels", f"needs one class per column of y_score ({s.shape[1]}), got {names.size}"
            )
        if _classes(names, "labels").size != names.size:
            raise InvalidInputError("labels", "must be distinct")
        unknown = np.setdiff1d(present, names)
        if unknown.size:
            raise InvalidInputError(
                "y_true", f"has labels {_show(unknown[:6])} that are not in labels="
            )
    truth = y[:, None] == names[None, :]
    return Target("multiclass", np.asarray(truth, dtype=bool), scores, tuple(names.tolist()))
