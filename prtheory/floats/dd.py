"""Double-double arithmetic and the rounding test of the float64 layer.

A double-double is an unevaluated sum ``hi + lo`` of two float64 numbers with
``|lo| <= ulp(hi)/2``: about 106 significant bits. The primitives below are the algorithms of
Joldes, Muller & Popescu (ACM TOMS 44(2), 2017; "JMP"), with the relative error bounds proved
there (u = 2**-53, the unit roundoff of float64):

=================  ===============================  ==========================
function           JMP algorithm                    relative error bound
=================  ===============================  ==========================
``two_sum``        2Sum (Knuth)                     exact
``fast_two_sum``   Fast2Sum (Dekker)                exact if ``|a| >= |b|``
``two_prod``       2Prod by Dekker's splitting      exact
``add``            AccurateDWPlusDW (Alg. 6)        3u**2 + 13u**3
``add_fp``         DWPlusFP (Alg. 4)                2u**2
``mul``            DWTimesDW1 (Alg. 10)             7u**2
``mul_fp``         DWTimesFP1 (Alg. 7)              1.5u**2 + 4u**3
``div``            DWDivDW2 (Alg. 17)               15u**2 + 56u**3
=================  ===============================  ==========================

Every bound is below ``OP_REL = 16 u**2 = 2**-102``, the figure the error analyses of the
closed forms use per operation. The bounds hold when no intermediate overflows and none
underflows (below 2**-969 the low word of a product loses bits): each closed form keeps its
operands inside a stated range, or scales them by exact powers of two, and sends the rest to a
slower path. Dekker's splitting needs ``|a| < 2**996``.

The functions use nothing but ``+ - * /`` on their arguments, so the same code runs on numpy
arrays (the reference path) and, compiled by numba, on scalars inside the fused kernels of
:mod:`prtheory.floats._kernels`.

The rounding test (Ziv) is :func:`decide`: given an approximation ``(hi + lo) 2**e`` and a bound
``rel`` on its relative error, it returns the float64 to which every point of the error interval
rounds, or flags the element as undecided.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

Array = np.ndarray
#: a float64 array (the numpy reference path) or a float64 scalar (inside the numba kernels,
#: which compile these very functions): the primitives use only ``+ - * /`` on it
Num = Any

U = 2.0**-53
#: A bound on the relative error of every double-double operation below (``16 u**2``).
OP_REL = 2.0**-102
_SPLITTER = 134217729.0  # 2**27 + 1


def two_sum(a: Num, b: Num) -> tuple[Num, Num]:
    """``s + e == a + b`` exactly, ``s = fl(a + b)`` (Knuth's 2Sum, any order of magnitude)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def fast_two_sum(a: Num, b: Num) -> tuple[Num, Num]:
    """``s + e == a + b`` exactly when ``|a| >= |b|`` or ``a == 0`` (Dekker's Fast2Sum)."""
    s = a + b
    return s, b - (s - a)


def split(a: Num) -> tuple[Num, Num]:
    """Veltkamp's splitting: ``a = hi + lo`` with ``hi`` and ``lo`` of at most 26 bits."""
    c = _SPLITTER * a
    hi = c - (c - a)
    return hi, a - hi


def two_prod(a: Num, b: Num) -> tuple[Num, Num]:
    """``p + e == a * b`` exactly (Dekker), barring overflow and an underflow of ``e``."""
    p = a * b
    ah, al = split(a)
    bh, bl = split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def add(ah: Num, al: Num, bh: Num, bl: Num) -> tuple[Num, Num]:
    """``a + b`` for double-doubles (AccurateDWPlusDW): relative error <= 3u**2 + 13u**3."""
    s, e = two_sum(ah, bh)
    t, f = two_sum(al, bl)
    s, e = fast_two_sum(s, e + t)
    return fast_two_sum(s, e + f)


def add_fp(ah: Num, al: Num, b: Num) -> tuple[Num, Num]:
    """``a + b`` for a double-double ``a`` and a float ``b`` (DWPlusFP): error <= 2u**2."""
    s, e = two_sum(ah, b)
    return fast_two_sum(s, al + e)


def mul(ah: Num, al: Num, bh: Num, bl: Num) -> tuple[Num, Num]:
    """``a * b`` for double-doubles (DWTimesDW1): relative error <= 7u**2."""
    p, e = two_prod(ah, bh)
    return fast_two_sum(p, e + (ah * bl + al * bh))


def mul_fp(ah: Num, al: Num, b: Num) -> tuple[Num, Num]:
    """``a * b`` for a double-double ``a`` and a float ``b`` (DWTimesFP1): error <= 1.5u**2 + 4u**3."""
    ch, cl1 = two_prod(ah, b)
    th, tl1 = fast_two_sum(ch, al * b)
    return fast_two_sum(th, tl1 + cl1)


def div(ah: Num, al: Num, bh: Num, bl: Num) -> tuple[Num, Num]:
    """``a / b`` for double-doubles (DWDivDW2): relative error <= 15u**2 + 56u**3."""
    th = ah / bh
    rh, rl = mul_fp(bh, bl, th)
    delta = (ah - rh) + (al - rl)
    return fast_two_sum(th, delta / bh)


def decide_unscaled(h: Num, lo: Num, rel: Num) -> tuple[Num, Num]:
    """The rounding test of :func:`decide` at scale 1: ``(y, undecided)``. ``fl(h + t)``
    rounds ``h + t`` correctly even below 2**-1022, so no rescaling is needed (the proof is
    :func:`decide`'s)."""
    r = 2.0 * rel * abs(h)
    y_lo = h + (lo - r)
    y_hi = h + (lo + r)
    return y_lo, y_lo != y_hi


PRIMITIVES = (
    two_sum,
    fast_two_sum,
    split,
    two_prod,
    add,
    add_fp,
    mul,
    mul_fp,
    div,
    decide_unscaled,
)


# ---------------------------------------------------------------------------------------------
# numpy helpers: exact scaling, rounding once, the rounding test


def ldexp2(h: Array, lo: Array, e: Array) -> tuple[Array, Array]:
    """``(h + lo) 2**e``, exact when no result leaves the normal range."""
    return np.ldexp(h, e), np.ldexp(lo, e)


def frexp2(h: Array, lo: Array) -> tuple[Array, Array, Array]:
    """Scale a double-double to ``hi`` in [1/2, 1) (or 0): returns ``hi, lo, exponent``."""
    _, e = np.frexp(h)
    hs, ls = ldexp2(h, lo, -e)
    return hs, ls, e


def round_scaled(h: Array, lo: Array, e: Array | int = 0) -> Array:
    """The float64 nearest to ``(h + lo) 2**e`` for a normalised double-double ``h + lo``.

    In the normal range this is ``h 2**e``: ``h`` is already the rounding of ``h + lo``, and
    scaling by a power of two is exact (overflow gives ``±inf``, the correct rounding). Results
    below 2**-1022 would be rounded twice that way, so those (rare) elements are rounded once,
    exactly, in integers: ``round((h + lo) 2**(e + 1074))`` ties to even, times 2**-1074.
    """
    e = np.asarray(e)
    with np.errstate(over="ignore", under="ignore"):
        y: Array = np.ldexp(h, e)
    tiny = (h != 0) & (np.abs(y) <= 2.0**-1022)
    if np.any(tiny):
        y = np.array(y, copy=True)
        hs, ls, es = (np.broadcast_to(v, y.shape)[tiny] for v in (h, lo, e))
        y[tiny] = [
            math.ldexp(round((Fraction(a) + Fraction(b)) * Fraction(2) ** (int(k) + 1074)), -1074)
            for a, b, k in zip(hs.tolist(), ls.tolist(), es.tolist(), strict=True)
        ]
    return y


def decide(h: Array, lo: Array, e: Array | int, rel: Array | float) -> tuple[Array, Array]:
    """Correctly rounded float64 of ``x``, known only to lie within ``rel |h| 2**e`` of
    ``(h + lo) 2**e``: returns the rounding and a mask of the undecided elements.

    Proof. The ends of the interval are ``(h + lo -+ rel |h|) 2**e``. With ``r = 2 rel |h|``
    the computed ``t- = fl(lo - r)`` satisfies ``t- <= lo - r + u (|lo| + r) <= lo - rel |h|``
    (as ``|lo| <= u |h|`` and ``rel >= 2**-100 > 4u**2``), and symmetrically ``t+ >= lo + rel |h|``,
    so ``[h + t-, h + t+] 2**e`` encloses the interval. :func:`round_scaled` rounds each end once
    (``fl(h + t)`` is the correctly rounded sum of two floats); rounding is monotone, so when both
    ends round to the same float, so does ``x``. An element with ``h = 0`` is exactly 0 (each path
    forms a zero result exactly).
    """
    r = 2.0 * np.asarray(rel) * np.abs(h)
    y_lo = round_scaled(*fast_two_sum(h, lo - r), e)
    y_hi = round_scaled(*fast_two_sum(h, lo + r), e)
    return y_lo, y_lo != y_hi


def dd_constant(num: int, den: int) -> tuple[float, float]:
    """``num/den`` as a double-double: ``hi`` correctly rounded, ``lo`` the rounded remainder
    (relative error below 2**-106)."""
    q = Fraction(num, den)
    hi = num / den  # correctly rounded (CPython's int/int true division)
    return hi, float(q - Fraction(hi))
