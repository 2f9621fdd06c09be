"""Errors of float64 results in units in the last place, measured against exact references.

The error of a float result ``y`` for the true value ``x`` is ``|y - x| / ulp(x)``, with
``ulp`` from :func:`prtheory.oracle.rounding.ulp` (the spacing of float64 at ``x``, subnormal
spacing below 2**-1022); 0.5 is correct rounding (ties to even).

* :func:`ulp_error` -- one point, in exact rational arithmetic;
* :func:`reference_row` and :func:`ulp_errors` -- the same for millions of points: each true
  value is stored once as ``(x rounded to float64, (x - that) / ulp(x), ulp(x))`` (a reference
  table), and the errors of a whole array of results follow in float64 without rounding error
  that matters (``y`` and the rounded ``x`` are neighbouring floats; their difference is exact);
* :func:`ulp_distance` -- the number of floats between two floats (for comparing two float
  results, such as another library's value with the correctly rounded one).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from prtheory.conformance.classify import ulp_distance
from prtheory.oracle import rounding

__all__ = ["dyadic", "reference_row", "ulp_distance", "ulp_error", "ulp_errors"]

#: an exact reference value: a dyadic rational ``man 2**exp`` as ``(man, exp)``, or a Fraction
Reference = tuple[int, int] | Fraction


def ulp_error(y: float, exact: Any) -> float:
    """``|y - x| / ulp(x)`` computed exactly for ``x = exact`` (any value that
    :func:`prtheory.oracle.rounding.exact_rational` accepts: int, Fraction, float, mpf); 0 when
    ``y`` and ``x`` overflow to the same infinity, ``inf`` when only ``y`` does."""
    x = rounding.exact_rational(exact)
    if math.isinf(y):
        return 0.0 if rounding.to_float(x) == y else math.inf
    return float(abs(Fraction(y) - x) / rounding.ulp(x))


def dyadic(man: int, exp: int) -> Fraction:
    """``man 2**exp`` as an exact Fraction."""
    return Fraction(man << exp) if exp >= 0 else Fraction(man, 1 << -exp)


def _ldexp_int(v: int, k: int) -> float:
    """The float64 nearest to ``v 2**k`` (barring over- and underflow), for any size of ``v``.

    ``float(int)`` rounds correctly; 62 bits of ``|v|`` plus a sticky bit standing for every
    discarded bit decide the same rounding (ties included), and cannot overflow.
    """
    drop = max(0, abs(v).bit_length() - 62)
    kept = abs(v) >> drop | (1 if abs(v) & ((1 << drop) - 1) else 0)
    x = math.ldexp(float(kept), k + drop)  # exact scaling
    return -x if v < 0 else x


def _dyadic_row(man: int, exp: int) -> tuple[float, float, float]:
    """:func:`reference_row` of ``x = man 2**exp``: a fast path in integers for results in the
    normal range; exact ``Fraction`` arithmetic otherwise."""
    if man == 0:
        return 0.0, 0.0, 2.0**-1074
    e = abs(man).bit_length() - 1 + exp  # floor(log2 |x|)
    if -1022 <= e <= 1022:
        near = _ldexp_int(man, exp)
        nm, nd = near.as_integer_ratio()
        ne = -(nd.bit_length() - 1)  # near = nm 2**ne (nd is a power of two)
        s = e - 52  # ulp(x) = 2**s
        k = min(exp, ne)
        diff = (man << (exp - k)) - (nm << (ne - k))  # (x - near) 2**-k, exactly
        return near, _ldexp_int(diff, k - s), math.ldexp(1.0, s)
    return _fraction_row(dyadic(man, exp))


def _fraction_row(exact: Fraction) -> tuple[float, float, float]:
    near = rounding.to_float(exact)
    unit = rounding.ulp(exact)
    resid = 0.0 if math.isinf(near) else float((exact - rounding.exact_rational(near)) / unit)
    return near, resid, float(unit)


def reference_row(value: Reference) -> tuple[float, float, float]:
    """``(x rounded to float64, (x - that) / ulp(x), ulp(x))`` for the exact value ``x``
    (``(man, exp)`` for ``man 2**exp``, or a Fraction); one row of a reference table."""
    return _fraction_row(value) if isinstance(value, Fraction) else _dyadic_row(*value)


def ulp_errors(y: np.ndarray, table: np.ndarray) -> np.ndarray:
    """``|y - x| / ulp(x)`` for an array of results ``y`` and the reference table of their true
    values (rows of :func:`reference_row`); 0 where both are the same infinity, ``inf`` where
    ``y`` is NaN or infinite and ``x`` is not."""
    near, resid, unit = table.T
    with np.errstate(all="ignore"):
        err = np.abs((y - near) / unit - resid)
    both_inf = np.isinf(near) & (y == near)
    err = np.where(both_inf, 0.0, err)
    out: np.ndarray = np.where(np.isnan(err) | (np.isinf(y) & ~both_inf), np.inf, err)
    return out
