"""Labels and score arrays as users pass them, turned into what the exact layer validates.

The float metrics (:mod:`prtheory.metrics`) accept what scikit-learn accepts, and more array
libraries. This module only *coerces*; the values themselves are then validated by
:mod:`prtheory._input` (NaN, lengths, weights), so the messages stay the same everywhere.

Arrays
    lists and tuples, numpy arrays, pandas ``Series``/``DataFrame`` (a missing value, ``NA`` or
    ``None``, is an error naming its row), polars ``Series``/``DataFrame`` (nulls likewise),
    torch tensors (detached and moved to the CPU; ``bfloat16`` and any other float dtype numpy
    lacks is widened to ``float32``, which holds every such value exactly). An ``(n, 1)``
    column is an ``(n,)`` vector. Strings, bytes, iterators and generators are refused.

Binary labels (scikit-learn's ``_check_pos_label_consistency``)
    Without ``pos_label`` the labels must be booleans or numbers forming one of ``{0, 1}``,
    ``{-1, 1}``, ``{0}``, ``{1}``, ``{-1}``; the positive class is ``1`` (``True``). Any other
    label set (strings, ``{1, 2}``, ...) needs ``pos_label``. With ``pos_label`` the labels may
    be anything comparable (strings, numbers, booleans); at most two distinct values, and when
    there are two ``pos_label`` must be one of them.

Several labels at once (the targets behind ``average=``)
    * multi-label: ``y_true`` is an ``(n, L)`` indicator matrix (0/1 or booleans, ``L >= 2``)
      with an ``(n, L)`` score matrix;
    * multi-class, one-vs-rest: ``y_true`` is ``(n,)`` with a score matrix ``(n, K)``,
      ``K >= 2``; column ``k`` scores class ``labels[k]`` (default: the sorted distinct labels of
      ``y_true``, which must then number ``K``). ``pos_label`` does not apply.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from prtheory._input import as_scores
from prtheory.errors import InvalidInputError

__all__ = ["Target", "as_array", "binary_labels", "target"]

_NUMERIC_BINARY = ({0, 1}, {-1, 1}, {0}, {1}, {-1})


def _missing(mask: Any, name: str) -> None:
    """Raise on the first missing value of a pandas/polars null mask."""
    mask = np.asarray(mask, dtype=bool)
    if mask.any():
        where = np.argwhere(mask)[0].tolist()
        at = where[0] if len(where) == 1 else where
        raise InvalidInputError(name, f"missing value (NA/None) at index {at}")


def as_array(x: Any, name: str) -> np.ndarray:
    """A numpy array of ``x`` (see the module docstring), with ``(n, 1)`` made ``(n,)``.

    Only the container is converted; element values are validated by the caller.
    """
    if isinstance(x, (str, bytes)):
        raise InvalidInputError(name, f"must be a sequence or an array, got a string ({x!r})")
    if isinstance(x, Iterator):
        raise InvalidInputError(
            name, f"must be a sequence or an array, got a {type(x).__name__} (use list(...))"
        )
    module = type(x).__module__.split(".")[0]
    if module == "torch":
        x = x.detach().cpu()
        if x.is_complex():
            raise InvalidInputError(name, f"must be real, got a {x.dtype} tensor")
        if x.is_floating_point() and x.dtype not in _torch_numpy_floats():
            x = x.float()  # bfloat16 (and the float8 types) widen to float32 exactly
        arr = x.numpy()
    elif module == "pandas":
        _missing(x.isna().to_numpy(), name)
        arr = x.to_numpy()
        if arr.dtype == object and hasattr(x, "dtype") and hasattr(x.dtype, "numpy_dtype"):
            arr = arr.astype(x.dtype.numpy_dtype)  # a nullable dtype without missing values
    elif module == "polars":
        if hasattr(x, "is_null"):
            _missing(x.is_null().to_numpy(), name)
        else:  # DataFrame
            _missing(np.column_stack([c.is_null().to_numpy() for c in x.iter_columns()]), name)
        arr = x.to_numpy()
    else:
        try:
            arr = np.asarray(x)
        except (TypeError, ValueError) as exc:  # ragged nested sequences
            raise InvalidInputError(name, f"must be a 1-D or 2-D array ({exc})") from None
        if arr.dtype.kind in "US" and not isinstance(x, np.ndarray):
            _same_kinds(np.asarray(x, dtype=object), name)  # numpy would make [1, "a"] strings
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim == 0:
        raise InvalidInputError(name, "must be a 1-D sequence, got a scalar")
    if arr.ndim > 2:
        raise InvalidInputError(name, f"must be 1-D or 2-D, got shape {arr.shape}")
    if arr.shape[0] == 0:
        raise InvalidInputError(name, "must not be empty")
    return arr


def _same_kinds(arr: np.ndarray, name: str) -> None:
    kinds = sorted({type(v).__name__ for v in arr.flat})
    if len(kinds) > 1:
        raise InvalidInputError(
            name, f"labels of different kinds cannot be compared ({', '.join(kinds)})"
        )


def _torch_numpy_floats() -> tuple:
    import torch

    return (torch.float16, torch.float32, torch.float64)


def _classes(arr: np.ndarray, name: str) -> np.ndarray:
    """Sorted distinct labels; NaN labels and unorderable mixtures are errors."""
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        raise InvalidInputError(
            name, f"labels must not be NaN (index {int(np.isnan(arr).argmax())})"
        )
    if arr.dtype.kind == "c":
        raise InvalidInputError(name, "labels must not be complex numbers")
    if arr.dtype == object:
        for i, v in enumerate(arr.flat):
            if v is None or (isinstance(v, float) and v != v):
                raise InvalidInputError(name, f"missing value (None/NaN) at index {i}")
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
