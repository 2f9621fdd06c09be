"""The correctly rounded float AP of HUGEINT blocks in one pass of x87 extended precision.

The blocks of :mod:`prtheory.duckdb.blocks` with one HUGEINT per score reach Python as
``v = hi 2**62 + lo`` (two BIGINTs, ``0 <= hi < 2**63``, ``0 <= lo < 2**62``). Turning every
``v`` into a Python integer and summing the AP terms ``gain_i TP_i / N_i`` (claim N2) as
Python-integer intervals costs a few microseconds per block; here a piece costs a few numpy
operations on fixed-width arrays:

1. *exact prefix sums* (:func:`limbs`, :func:`cumulative`): ``v`` as four int64 limbs of
   :data:`LIMB` bits (``v = sum_j l_j 2**(32 j)``, ``l_j < 2**32``), summed down the piece per
   limb (below ``2**54`` for a piece of at most ``2**20`` blocks and an offset's limb below
   ``2**32``), then the carries propagated (``c_{j+1} += c_j >> 32``, ``c_j &= 2**32 - 1``),
   so ``TP_i = A 2**64 + B`` with integers ``A = c_3 2**32 + c_2 < 2**62`` and
   ``B = c_1 2**32 + c_0 < 2**64``: each exact in a 64-bit significand.
2. *the terms in extended precision* (unit roundoff ``u = 2**-64``): ``A 2**64 + B``,
   ``hi 2**62 + lo`` (the gain) and the cumulative ``N`` each rounded once, the product
   ``gain TP`` and the quotient by ``N`` once each: ``t^_i = t_i (1+d_1)(1+d_2)(1+d_3)(1+d_4)
   / (1+d_5)`` with ``|d_j| <= u``, so
   ``t_i in [t^_i (1-u)/(1+u)**4, t^_i (1+u)/(1-u)**4]`` (:func:`bounds`). Nothing overflows
   or underflows: every integer is below ``2**126`` and at least 1.
3. *the exact sum of the rounded terms* (:func:`exact_sum`): ``t^ = M 2**(e - 64)`` with an
   integer ``M < 2**64`` (``frexp``), ``M`` split into 32-bit halves and each half summed per
   exponent ``e`` by ``bincount`` in float64 (exact: every partial sum is an integer below
   ``2**52``), then one Python integer per exponent.

The terms are non-negative, so the exact AP lies in ``[S^ (1-u)/(1+u)**4, S^ (1+u)/(1-u)**4]
/ pos`` (``S^`` the exact sum of the rounded terms over all pieces); when both ends round to the
same float64 it is the correctly rounded AP (rounding is monotone). The interval is about
``10 u = 2**-60.7`` wide relative to the AP, so it fails to decide only when the AP lies that
close to a rounding boundary (a float64 ulp is ``2**-52`` to ``2**-53`` relative, so about one
input in 200 to 400 at random); then :func:`average_precision` returns
None and the caller takes the 128-bit interval path of :mod:`prtheory.distributed.sums`.

Used only where the platform's ``long double`` is the x87 80-bit format and rounds to 64 bits
(:func:`available`: checked at run time, since the precision control can be set to 53 bits);
elsewhere the caller takes the general path.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

import numpy as np

from prtheory.duckdb.blocks import column
from prtheory.oracle.rounding import to_float

__all__ = ["available", "average_precision"]

#: Bits per limb of the exact prefix sums.
LIMB = 32
#: Blocks per step: keeps the limb sums below ``2**54`` and the ``bincount`` sums below ``2**52``.
MAX_ROWS = 2**20
_MASK = 2**LIMB - 1
#: Unit roundoff of the x87 extended format (64-bit significand, round to nearest).
U = Fraction(1, 2**64)


def available() -> bool:
    """Whether ``np.longdouble`` has a 64-bit significand and rounds to it (to nearest) now.

    Returns
    -------
    bool
        True where :func:`average_precision` may run (x87 extended precision with 64-bit
        precision control); elsewhere the 128-bit interval path of :mod:`prtheory.distributed`.

    Examples
    --------
    >>> from prtheory.duckdb import extended
    >>> isinstance(extended.available(), bool)
    True
    """
    if np.finfo(np.longdouble).nmant != 63:
        return False
    one = np.ones(1, dtype=np.longdouble)
    # 1 + 2**-63 is representable; 1 + 2**-64 is a tie (to even: 1); 1 + 3 2**-65 rounds up
    return bool(one + 2.0**-63 != one and one + 2.0**-64 == one and one + 3 * 2.0**-65 != one)


def extended(hi: np.ndarray, lo: np.ndarray) -> np.ndarray:
    """``hi 2**62 + lo`` rounded once to extended precision (``hi``, ``lo`` exact in it)."""
    return hi.astype(np.longdouble) * np.longdouble(2.0**62) + lo.astype(np.longdouble)


def limbs(hi: np.ndarray, lo: np.ndarray) -> np.ndarray:
    """The integers ``hi 2**62 + lo`` (``0 <= hi < 2**63``, ``0 <= lo < 2**62``) as a
    ``(4, n)`` int64 array of :data:`LIMB`-bit limbs, least significant first."""
    hi, lo = hi.astype(np.int64), lo.astype(np.int64)
    return np.stack(
        [lo & _MASK, (lo >> LIMB) | ((hi & 3) << (62 - LIMB)), (hi >> 2) & _MASK, hi >> 34]
    )


def _limbs_of(value: int) -> np.ndarray:
    """A non-negative Python integer below ``2**126`` as a ``(4, 1)`` limb array."""
    return np.array([[(value >> (LIMB * j)) & _MASK] for j in range(4)], dtype=np.int64)


def _value(column: np.ndarray) -> int:
    """The integer ``sum_j l_j 2**(32 j)`` of one column of limbs."""
    return sum(int(v) << (LIMB * j) for j, v in enumerate(column))


def cumulative(parts: np.ndarray, offset: int) -> tuple[np.ndarray, int]:
    """Exact ``offset + cumsum`` of the integers whose limbs are ``parts`` (at most ``2**20``
    of them, each limb below ``2**33``: no int64 overflow below ``2**29`` of them), in extended precision (one rounding each), and the
    last one as a Python integer."""
    c = np.cumsum(parts, axis=1) + _limbs_of(offset)
    for j in range(3):
        c[j + 1] += c[j] >> LIMB
        c[j] &= _MASK
    a = (c[3] << LIMB) | c[2]  # below 2**62: the total is below 2**126
    b = (c[1].astype(np.uint64) << np.uint64(LIMB)) | c[0].astype(np.uint64)
    value = a.astype(np.longdouble) * np.longdouble(2.0**64) + b.astype(np.longdouble)
    return value, _value(c[:, -1])


def exact_sum(terms: np.ndarray) -> Fraction:
    """The exact sum of non-negative finite ``np.longdouble`` values."""
    if terms.size == 0:
        return Fraction(0)
    mantissa, exponent = np.frexp(terms)
    m = np.ldexp(mantissa, 64).astype(np.uint64)  # an integer below 2**64: exact
    least = int(exponent.min())
    at = exponent - least  # the exponents span at most the format's range: a bin each
    halves = [
        np.bincount(at, weights=(m >> np.uint64(LIMB)).astype(np.float64)),
        np.bincount(at, weights=(m & np.uint64(_MASK)).astype(np.float64)),
    ]
    total = sum(
        ((int(h) << LIMB) + int(lo_)) << e for e, (h, lo_) in enumerate(zip(*halves, strict=True))
    )
    return Fraction(total) * Fraction(2) ** (least - 64)


def bounds(rounded_sum: Fraction) -> tuple[Fraction, Fraction]:
    """The exact sum of the terms given the exact sum of their rounded values (module
    docstring, step 2)."""
    return rounded_sum * (1 - U) / (1 + U) ** 4, rounded_sum * (1 + U) / (1 - U) ** 4


def average_precision(tables: Iterable[Any]) -> tuple[float | None, int, int]:
    """The correctly rounded step AP (claim N2, ties grouped) of blocks summed as one HUGEINT
    per score, if the extended-precision interval decides it (module docstring); only where
    :func:`available`.

    Parameters
    ----------
    tables : iterable of pyarrow.Table
        The pieces in decreasing score order, one row per distinct score, with the BIGINT
        columns ``p_hi``, ``p_lo``, ``n_hi``, ``n_lo``: the positive and negative weight
        ``hi 2**62 + lo`` of each score (over a common ``2**-k``).

    Returns
    -------
    tuple
        ``(AP, pos, neg)``: the float64 AP, or None if the interval does not decide it or there
        is no positive weight; and the exact class totals (over ``2**-k``).

    Examples
    --------
    By hand: a positive of weight 1 alone at the top (precision 1), then a positive and a
    negative of weight 1 tied (precision 2/3): ``AP = (1 + 2/3) / 2 = 5/6``.

    >>> import pyarrow as pa
    >>> from prtheory.duckdb import extended
    >>> t = pa.table({"p_hi": [0, 0], "p_lo": [1, 1], "n_hi": [0, 0], "n_lo": [0, 1]})
    >>> extended.average_precision([t]) if extended.available() else (5 / 6, 2, 1)
    (0.8333333333333334, 2, 1)
    """
    total = Fraction(0)
    tp = n = 0
    for whole in tables:
        for start in range(0, whole.num_rows, MAX_ROWS):
            total, tp, n = _piece(whole.slice(start, MAX_ROWS), total, tp, n)
    if tp == 0:
        return None, 0, n
    lo, hi = (to_float(b / tp) for b in bounds(total))
    return (lo if lo == hi else None), tp, n - tp


def _piece(table: Any, total: Fraction, tp: int, n: int) -> tuple[Fraction, int, int]:
    """``total`` plus the exact sum of a piece's rounded terms, and the new offsets."""
    col = {c: column(table, c) for c in ("p_hi", "p_lo", "n_hi", "n_lo")}
    gain = limbs(col["p_hi"], col["p_lo"])
    cum_tp, last_tp = cumulative(gain, tp)
    cum_n, last_n = cumulative(gain + limbs(col["n_hi"], col["n_lo"]), n)
    at = np.flatnonzero((col["p_hi"] > 0) | (col["p_lo"] > 0))
    g = extended(col["p_hi"][at], col["p_lo"][at])
    return total + exact_sum(g * cum_tp[at] / cum_n[at]), last_tp, last_n
