"""Partial sums of quotient terms per piece, combined exactly and rounded once.

Each piece reduces its terms ``a_i / d_i`` (non-negative integers, ``d_i > 0``) to one of:

* :func:`exact_partial`: the exact sum as a reduced ``(numerator, denominator)``
  (:func:`prtheory.oracle.summation.rational_sum`);
* :func:`interval_partial`: integers ``(X, E, t)`` with ``X 2**-E <= S <= (X + t) 2**-E`` and
  ``E >= bits`` (or ``t = 0``, exact), from :func:`~prtheory.oracle.summation.quotient_sum_bounds`.
  A few hundred bits per piece whatever its size, and no rational arithmetic.

The driver aligns the intervals to the largest ``E`` and adds them: ``sum_j X_j 2**(E - E_j)``
and ``sum_j t_j 2**(E - E_j)`` bound the total exactly, so when both ends of
``[X, X + t] / (divisor 2**E)`` round to the same float64 that float is the correctly rounded
metric (rounding is monotone; :func:`round_intervals`). Otherwise (a value within ``2**-bits``
of a rounding boundary, or exactly on one) :func:`evaluate` asks the pieces for their exact
partial sums and rounds the exact rational.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

import numpy as np

from prtheory.oracle.rounding import to_float
from prtheory.oracle.summation import quotient_sum_bounds, rational_sum

__all__ = ["evaluate", "exact_partial", "interval_partial", "round_intervals"]

#: Default precision of the intervals: 2**-128 relative to one term's unit.
BITS = 128

Terms = tuple[np.ndarray, np.ndarray]


def exact_partial(terms: Terms) -> tuple[int, int]:
    """The exact ``sum_i a_i / d_i`` of one piece, reduced: ``(numerator, denominator)``."""
    s = rational_sum(*terms)
    return s.numerator, s.denominator


def interval_partial(terms: Terms, bits: int = BITS) -> tuple[int, int, int]:
    """Integers ``(X, E, t)``: ``X 2**-E <= sum_i a_i/d_i <= (X + t) 2**-E``, ``E >= bits`` or
    ``t = 0`` (the sum is exactly ``X 2**-E``)."""
    for x, e, t in quotient_sum_bounds(*terms):
        if t == 0 or e >= bits:
            return x, e, t
    raise AssertionError("unreachable: quotient_sum_bounds refines until exact")  # pragma: no cover


def combine_exact(partials: Iterable[tuple[int, int]]) -> Fraction:
    """The exact sum of the pieces' ``(numerator, denominator)`` partial sums."""
    pairs = list(partials)
    return rational_sum([n for n, _ in pairs], [d for _, d in pairs])


def round_intervals(partials: Iterable[tuple[int, int, int]], divisor: int) -> float | None:
    """Correctly rounded ``(sum of the pieces) / divisor`` if the intervals decide it, else None."""
    parts = list(partials)
    e = max((p[1] for p in parts), default=0)
    x = sum(p[0] << (e - p[1]) for p in parts)
    t = sum(p[2] << (e - p[1]) for p in parts)
    lo = x / (divisor << e)  # int / int true division is correctly rounded in CPython
    if t == 0 or lo == (x + t) / (divisor << e):
        return lo
    return None


def evaluate(
    run: Callable[[Callable[[Any], Any]], list],
    terms: Callable[[Any], Terms],
    divisor: int,
    exact: bool,
    bits: int = BITS,
) -> Fraction | float:
    """``(sum over the pieces of their terms) / divisor``: exact, or correctly rounded.

    ``run(fn)`` is the engine's map-and-collect: it applies ``fn`` to every piece where the piece
    lives and returns the list of results. ``terms(piece)`` gives the piece's ``(a, d)`` arrays.
    With ``exact=False`` one pass of :func:`interval_partial` usually decides the float; if not,
    a second pass collects :func:`exact_partial` and the exact rational is rounded.
    """
    if not exact:
        value = round_intervals(run(lambda piece: interval_partial(terms(piece), bits)), divisor)
        if value is not None:
            return value
    total = combine_exact(run(lambda piece: exact_partial(terms(piece)))) / divisor
    return total if exact else to_float(total)
