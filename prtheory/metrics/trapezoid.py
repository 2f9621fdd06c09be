"""The area under given points by the trapezoidal rule, correctly rounded: ``auc(x, y)``.

For points ``(x_i, y_i)`` with ``x`` monotone the area is ``d sum_i (x_{i+1} - x_i)(y_i +
y_{i+1})/2`` (``d = -1`` for decreasing ``x``, so the area of a curve is positive either way),
an exact rational because every float is one. It is computed without rationals: each
difference ``x_{i+1} - x_i`` and each sum ``y_i + y_{i+1}`` is an exact double-double (2Sum),
their product the exact sum of four products, each an exact pair of floats (Dekker's 2Prod):
eight floats per segment whose sum is exactly twice the area. Halved (exactly, by a power of
two) they are added by :func:`math.fsum`, Shewchuk's exact partials with a correctly rounded
result, so the area is the float64 nearest to the exact one. The products are exact while no
operand exceeds ``2**996`` (Dekker's splitting), no product overflows and no nonzero product
lies below ``2**-969`` (where its error term would lose bits); halving is exact while no
nonzero float lies below ``2**-1021``. Points outside that range take exact rationals.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from prtheory._input import as_scores
from prtheory.errors import InvalidInputError
from prtheory.floats.dd import two_prod, two_sum
from prtheory.oracle.rounding import to_float

__all__ = ["auc"]


def _exact_parts(x: np.ndarray, y: np.ndarray) -> list[np.ndarray] | None:
    """Eight float arrays summing exactly to ``sum (x_{i+1} - x_i)(y_i + y_{i+1})/2``, or None
    where a product or the halving would not be exact (module docstring)."""
    if max(np.abs(x).max(), np.abs(y).max()) > 2.0**500:
        return None
    dx = two_sum(x[1:], -x[:-1])
    sy = two_sum(y[:-1], y[1:])
    parts: list[np.ndarray] = []
    for a in dx:
        for b in sy:
            parts.extend(two_prod(a, b))
    for p in parts[::2]:  # the products themselves; the error terms are below them
        tiny = (p != 0) & (np.abs(p) < 2.0**-960)
        if tiny.any():
            return None
    halves = [0.5 * p for p in parts]
    if any(((h != 0) & (np.abs(h) < 2.0**-1022)).any() for h in halves):
        return None
    return halves


def auc(x: Any, y: Any) -> float:
    """Area under the points ``(x, y)`` by the trapezoidal rule, correctly rounded.

    ``x`` must be monotone (non-decreasing or non-increasing; the area of a decreasing ``x`` is
    taken with its sign changed, as scikit-learn's ``auc``), both finite and of one length, at
    least 2. The result is the float64 nearest to the exact area of the given floats (module
    docstring); scikit-learn's ``auc`` sums rounded products and can be a few ulps off.

    Parameters
    ----------
    x, y : array-like of shape (n,)
        The points, ``n >= 2``.

    Returns
    -------
    float
        The correctly rounded area.

    Raises
    ------
    InvalidInputError
        ``x`` not monotone, a non-finite value, lengths that differ, or fewer than 2 points.

    See Also
    --------
    pr_auc, roc_auc

    Examples
    --------
    The ROC points (0, 0), (0, 1/2), (1, 1/2), (1, 1): trapezoids of width 0, 1 and 0, the
    middle one of height 1/2:

    >>> from prtheory import auc
    >>> auc([0, 0, 1, 1], [0, 0.5, 0.5, 1])
    0.5

    0.1 + 0.2 is not 0.3 in floats, but the area under ``y = 1`` from 0 to ``0.1 + 0.2`` is the
    exact value of that float, ``0.30000000000000004``:

    >>> auc([0.0, 0.1 + 0.2], [1.0, 1.0])
    0.30000000000000004
    """
    xs = as_scores(x, name="x")
    ys = as_scores(y, xs.size, name="y")
    if xs.size < 2:
        raise InvalidInputError("x", f"needs at least 2 points, got {xs.size}")
    for name, v in (("x", xs), ("y", ys)):
        if not np.isfinite(v).all():
            raise InvalidInputError(
                name, f"must be finite (index {int(np.argmin(np.isfinite(v)))})"
            )
    dx = np.diff(xs)
    if (dx < 0).any() and (dx > 0).any():
        raise InvalidInputError("x", "is neither increasing nor decreasing")
    sign = -1.0 if (dx < 0).any() else 1.0
    halves = _exact_parts(xs, ys)
    if halves is not None:
        return sign * math.fsum(np.concatenate(halves).tolist())
    xq, yq = [Fraction(v) for v in xs.tolist()], [Fraction(v) for v in ys.tolist()]
    twice = sum(
        ((xq[i + 1] - xq[i]) * (yq[i] + yq[i + 1]) for i in range(len(xq) - 1)), Fraction(0)
    )
    return sign * to_float(twice / 2)
