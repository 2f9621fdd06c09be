"""Argument handling shared by the float64 closed forms (validation itself is in
:mod:`prtheory._input`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from prtheory._input import as_count_array, as_float_array
from prtheory.errors import InvalidInputError, UndefinedMetricError

Array = np.ndarray


def result(y: Array) -> Any:
    """A Python float for a 0-d result, the array otherwise."""
    return float(y) if y.ndim == 0 else y


def undefined_at(mask: Array, quantity: str, reason: str, *args: Array) -> None:
    """Raise UndefinedMetricError for the first element where ``mask`` holds."""
    if np.any(mask):
        idx = tuple(int(i) for i in np.argwhere(mask)[0])
        where = f" at index {list(idx)}" if mask.ndim else ""
        values = ", ".join(repr(float(a[idx])) for a in args)
        raise UndefinedMetricError(quantity, f"{reason}{where} ({values})")


def recall_range(a: Any, b: Any) -> tuple[Array, Array]:
    a = as_float_array(a, "a", 0.0, 1.0)
    b = as_float_array(b, "b", 0.0, 1.0)
    a, b = np.broadcast_arrays(a, b)
    if np.any(a > b):
        idx = tuple(int(i) for i in np.argwhere(a > b)[0])
        where = f" at index {list(idx)}" if a.ndim else ""
        raise InvalidInputError("a, b", f"need a <= b, got a={a[idx]!r} > b={b[idx]!r}{where}")
    return a, b


def skew_and_range(pi: Any, a: Any, b: Any) -> tuple[Array, Array, Array, Array]:
    """Validated, broadcast ``pi, a, b`` and the mask ``0 < pi < 1`` of the elements that need
    the formula (the end points take the paper's values)."""
    pi = as_float_array(pi, "pi", 0.0, 1.0)
    a, b = recall_range(a, b)
    pi, a, b = np.broadcast_arrays(pi, a, b)
    undefined_at(a == b, "AUCPR_min", "the recall range [a, b] is empty", a, b)
    return pi, a, b, (pi > 0) & (pi < 1)


def counts(pos: Any, neg: Any, quantity: str) -> tuple[Array, Array]:
    pos = as_count_array(pos, "pos")
    neg = as_count_array(neg, "neg")
    pos, neg = np.broadcast_arrays(pos, neg)
    # in integers: the float sum 2**53 + 1 rounds to 2**53 and would pass (each count is an
    # integer in [0, 2**53], exact in int64, and so is their sum)
    big = pos.astype(np.int64) + neg.astype(np.int64) > 2**53
    if np.any(big):
        idx = tuple(int(i) for i in np.argwhere(big)[0])
        where = f" at index {list(idx)}" if big.ndim else ""
        raise InvalidInputError("pos, neg", f"pos + neg must be at most 2**53{where}")
    undefined_at(pos == 0, quantity, "there are no positives (pos = 0)", pos, neg)
    return pos, neg
