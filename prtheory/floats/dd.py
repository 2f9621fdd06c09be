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
    """``s + e == a + b`` exactly, ``s = fl(a + b)`` (Knuth's 2Sum, any order of magnitude).

    Parameters
    ----------
    a, b : float or ndarray
        Floats.

    Returns
    -------
    tuple
        ``(s, e)``: ``s = fl(a + b)`` and the exact error ``e``.

    See Also
    --------
    fast_two_sum : the same when ``|a| >= |b|``, in three operations.

    Examples
    --------
    ``1 + 2**-60`` rounds to 1; the lost ``2**-60`` is the error, so ``s + e`` is exact:

    >>> from fractions import Fraction
    >>> from prtheory.floats.dd import two_sum
    >>> s, e = two_sum(1.0, 2.0**-60)
    >>> s, e == 2.0**-60, Fraction(s) + Fraction(e) == 1 + Fraction(1, 2**60)
    (1.0, True, True)
    """
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def fast_two_sum(a: Num, b: Num) -> tuple[Num, Num]:
    """``s + e == a + b`` exactly when ``|a| >= |b|`` or ``a == 0`` (Dekker's Fast2Sum).

    Parameters
    ----------
    a, b : float or ndarray
        Floats with ``|a| >= |b|`` (or ``a == 0``).

    Returns
    -------
    tuple
        ``(s, e)``: ``s = fl(a + b)`` and the exact error ``e``.

    See Also
    --------
    two_sum

    Examples
    --------
    >>> from prtheory.floats.dd import fast_two_sum
    >>> s, e = fast_two_sum(1.0, 2.0**-60)
    >>> s, e == 2.0**-60
    (1.0, True)
    """
    s = a + b
    return s, b - (s - a)


def split(a: Num) -> tuple[Num, Num]:
    """Veltkamp's splitting: ``a = hi + lo`` with ``hi`` and ``lo`` of at most 26 bits.

    Parameters
    ----------
    a : float or ndarray
        Floats (not near overflow).

    Returns
    -------
    tuple
        ``(hi, lo)`` with ``a = hi + lo`` exactly, each of at most 26 significant bits.

    See Also
    --------
    two_prod : uses it.

    Examples
    --------
    ``1 + 2**-52`` needs 53 bits: it splits into 1 and ``2**-52``:

    >>> from prtheory.floats.dd import split
    >>> hi, lo = split(1.0 + 2.0**-52)
    >>> hi, lo == 2.0**-52
    (1.0, True)
    """
    c = _SPLITTER * a
    hi = c - (c - a)
    return hi, a - hi


def two_prod(a: Num, b: Num) -> tuple[Num, Num]:
    """``p + e == a * b`` exactly (Dekker), barring overflow and an underflow of ``e``.

    Parameters
    ----------
    a, b : float or ndarray
        Floats.

    Returns
    -------
    tuple
        ``(p, e)``: ``p = fl(a b)`` and the exact error ``e``.

    See Also
    --------
    two_sum, mul

    Examples
    --------
    ``(1 + 2**-52)**2 = 1 + 2**-51 + 2**-104``: the float product drops ``2**-104``:

    >>> from prtheory.floats.dd import two_prod
    >>> p, e = two_prod(1.0 + 2.0**-52, 1.0 + 2.0**-52)
    >>> p == 1.0 + 2.0**-51, e == 2.0**-104
    (True, True)
    """
    p = a * b
    ah, al = split(a)
    bh, bl = split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def add(ah: Num, al: Num, bh: Num, bl: Num) -> tuple[Num, Num]:
    """``a + b`` for double-doubles (AccurateDWPlusDW): relative error <= 3u**2 + 13u**3.

    Parameters
    ----------
    ah, al, bh, bl : float or ndarray
        The double-doubles ``a = ah + al`` and ``b = bh + bl``.

    Returns
    -------
    tuple
        ``(h, l)``, the double-double ``a + b``.

    See Also
    --------
    add_fp, mul, div

    Examples
    --------
    ``(1 + 2**-60) + (1 + 2**-60) = 2 + 2**-59``, exactly held:

    >>> from prtheory.floats.dd import add
    >>> h, l = add(1.0, 2.0**-60, 1.0, 2.0**-60)
    >>> h, l == 2.0**-59
    (2.0, True)
    """
    s, e = two_sum(ah, bh)
    t, f = two_sum(al, bl)
    s, e = fast_two_sum(s, e + t)
    return fast_two_sum(s, e + f)


def add_fp(ah: Num, al: Num, b: Num) -> tuple[Num, Num]:
    """``a + b`` for a double-double ``a`` and a float ``b`` (DWPlusFP): error <= 2u**2.

    Parameters
    ----------
    ah, al : float or ndarray
        The double-double ``a``.
    b : float or ndarray
        A float.

    Returns
    -------
    tuple
        ``(h, l)``, the double-double ``a + b``.

    See Also
    --------
    add

    Examples
    --------
    >>> from prtheory.floats.dd import add_fp
    >>> h, l = add_fp(1.0, 2.0**-60, 1.0)
    >>> h, l == 2.0**-60
    (2.0, True)
    """
    s, e = two_sum(ah, b)
    return fast_two_sum(s, al + e)


def mul(ah: Num, al: Num, bh: Num, bl: Num) -> tuple[Num, Num]:
    """``a * b`` for double-doubles (DWTimesDW1): relative error <= 7u**2.

    Parameters
    ----------
    ah, al, bh, bl : float or ndarray
        The double-doubles ``a`` and ``b``.

    Returns
    -------
    tuple
        ``(h, l)``, the double-double ``a b``.

    See Also
    --------
    mul_fp, div

    Examples
    --------
    ``fl(1/3) = (1 - 2**-54)/3``, so 3 times it is ``1 - 2**-54``, which the pair holds as
    ``1 + (-2**-54)``:

    >>> from prtheory.floats.dd import mul
    >>> h, l = mul(3.0, 0.0, 1 / 3, 0.0)
    >>> h, l == -(2.0**-54)
    (1.0, True)
    """
    p, e = two_prod(ah, bh)
    return fast_two_sum(p, e + (ah * bl + al * bh))


def mul_fp(ah: Num, al: Num, b: Num) -> tuple[Num, Num]:
    """``a * b`` for a double-double ``a`` and a float ``b`` (DWTimesFP1): error <= 1.5u**2 + 4u**3.

    Parameters
    ----------
    ah, al : float or ndarray
        The double-double ``a``.
    b : float or ndarray
        A float.

    Returns
    -------
    tuple
        ``(h, l)``, the double-double ``a b``.

    See Also
    --------
    mul

    Examples
    --------
    >>> from prtheory.floats.dd import mul_fp
    >>> h, l = mul_fp(1.0, 2.0**-60, 2.0)
    >>> h, l == 2.0**-59
    (2.0, True)
    """
    ch, cl1 = two_prod(ah, b)
    th, tl1 = fast_two_sum(ch, al * b)
    return fast_two_sum(th, tl1 + cl1)


def div(ah: Num, al: Num, bh: Num, bl: Num) -> tuple[Num, Num]:
    """``a / b`` for double-doubles (DWDivDW2): relative error <= 15u**2 + 56u**3.

    Parameters
    ----------
    ah, al, bh, bl : float or ndarray
        The double-doubles ``a`` and ``b`` (``b`` non-zero).

    Returns
    -------
    tuple
        ``(h, l)``, the double-double ``a / b``.

    See Also
    --------
    mul, dd_constant

    Examples
    --------
    1/3 to about 106 bits: ``h + l`` is within ``2**-104`` (relative) of 1/3:

    >>> from fractions import Fraction
    >>> from prtheory.floats.dd import div
    >>> h, l = div(1.0, 0.0, 3.0, 0.0)
    >>> abs(Fraction(h) + Fraction(l) - Fraction(1, 3)) < Fraction(1, 3 * 2**104)
    True
    """
    th = ah / bh
    rh, rl = mul_fp(bh, bl, th)
    delta = (ah - rh) + (al - rl)
    return fast_two_sum(th, delta / bh)


def decide_unscaled(h: Num, lo: Num, rel: Num) -> tuple[Num, Num]:
    """The rounding test of :func:`decide` at scale 1: ``(y, undecided)``. ``fl(h + t)``
    rounds ``h + t`` correctly even below 2**-1022, so no rescaling is needed (the proof is
    :func:`decide`'s).

    Parameters
    ----------
    h, lo : float or ndarray
        A double-double approximation ``h + lo``.
    rel : float or ndarray
        Its relative error bound, at least ``2**-100``.

    Returns
    -------
    tuple
        ``(y, undecided)``: the rounding and where the bound cannot decide it.

    See Also
    --------
    decide

    Examples
    --------
    0.75 within ``2**-90`` (relative) is far from any rounding boundary:

    >>> import numpy as np
    >>> from prtheory.floats.dd import decide_unscaled
    >>> y, undecided = decide_unscaled(np.array([0.75]), np.array([0.0]), 2.0**-90)
    >>> y.tolist(), undecided.tolist()
    ([0.75], [False])
    """
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
    """``(h + lo) 2**e``, exact when no result leaves the normal range.

    Parameters
    ----------
    h, lo : ndarray
        A double-double.
    e : ndarray of int
        The exponents.

    Returns
    -------
    tuple of ndarray
        ``(h 2**e, lo 2**e)``.

    See Also
    --------
    frexp2

    Examples
    --------
    >>> import numpy as np
    >>> from prtheory.floats.dd import ldexp2
    >>> h, lo = ldexp2(np.array([0.75]), np.array([0.0]), np.array([2]))
    >>> h.tolist(), lo.tolist()
    ([3.0], [0.0])
    """
    return np.ldexp(h, e), np.ldexp(lo, e)


def frexp2(h: Array, lo: Array) -> tuple[Array, Array, Array]:
    """Scale a double-double to ``hi`` in [1/2, 1) (or 0): returns ``hi, lo, exponent``.

    Parameters
    ----------
    h, lo : ndarray
        A double-double.

    Returns
    -------
    tuple of ndarray
        ``(hi, lo, exponent)`` with ``hi`` in [1/2, 1) (or 0).

    See Also
    --------
    ldexp2

    Examples
    --------
    ``3 + 2**-60 = (3/4 + 2**-62) 2**2``:

    >>> import numpy as np
    >>> from prtheory.floats.dd import frexp2
    >>> hi, lo, e = frexp2(np.array([3.0]), np.array([2.0**-60]))
    >>> hi.tolist(), lo.tolist() == [2.0**-62], e.tolist()
    ([0.75], True, [2])
    """
    _, e = np.frexp(h)
    hs, ls = ldexp2(h, lo, -e)
    return hs, ls, e


def round_scaled(h: Array, lo: Array, e: Array | int = 0) -> Array:
    """The float64 nearest to ``(h + lo) 2**e`` for a normalised double-double ``h + lo``.

    In the normal range this is ``h 2**e``: ``h`` is already the rounding of ``h + lo``, and
    scaling by a power of two is exact (overflow gives ``±inf``, the correct rounding). Results
    below 2**-1022 would be rounded twice that way, so those (rare) elements are rounded once,
    exactly, in integers: ``round((h + lo) 2**(e + 1074))`` ties to even, times 2**-1074.

    Parameters
    ----------
    h, lo : ndarray
        A normalised double-double.
    e : ndarray of int or int
        The exponents (default 0).

    Returns
    -------
    ndarray
        The float64 nearest to ``(h + lo) 2**e``.

    See Also
    --------
    decide

    Examples
    --------
    In the normal range it is ``h 2**e``; below ``2**-1022`` it rounds once: ``(1/2 + 2**-60)
    2**-1073`` is ``2**-1074 + 2**-1133``, nearest the least subnormal ``2**-1074``:

    >>> import numpy as np
    >>> from prtheory.floats.dd import round_scaled
    >>> round_scaled(np.array([0.5]), np.array([0.0]), 1).tolist()
    [1.0]
    >>> round_scaled(np.array([0.5]), np.array([2.0**-60]), -1073).tolist() == [2.0**-1074]
    True
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

    Parameters
    ----------
    h, lo : ndarray
        A double-double approximation.
    e : ndarray of int or int
        Its exponents.
    rel : ndarray or float
        Its relative error bound, at least ``2**-100``.

    Returns
    -------
    tuple of ndarray
        ``(y, undecided)``: the rounding and where the bound cannot decide it.

    See Also
    --------
    round_scaled, decide_unscaled

    Examples
    --------
    ``(3/4) 2**2 = 3`` within ``2**-90`` is decided; ``1 + 2**-53``, the midpoint between 1 and
    the next float, within ``2**-90`` could round either way, so it is undecided:

    >>> import numpy as np
    >>> from prtheory.floats.dd import decide
    >>> y, undecided = decide(np.array([0.75, 1.0]), np.array([0.0, 2.0**-53]), np.array([2, 0]), 2.0**-90)
    >>> float(y[0]), undecided.tolist()
    (3.0, [False, True])
    """
    r = 2.0 * np.asarray(rel) * np.abs(h)
    y_lo = round_scaled(*fast_two_sum(h, lo - r), e)
    y_hi = round_scaled(*fast_two_sum(h, lo + r), e)
    return y_lo, y_lo != y_hi


def dd_constant(num: int, den: int) -> tuple[float, float]:
    """``num/den`` as a double-double: ``hi`` correctly rounded, ``lo`` the rounded remainder
    (relative error below 2**-106).

    Parameters
    ----------
    num, den : int
        The rational ``num/den``, ``den > 0``.

    Returns
    -------
    tuple of float
        ``(hi, lo)``.

    See Also
    --------
    div

    Examples
    --------
    ``hi`` is ``float(Fraction(1, 3))`` and ``hi + lo`` is within ``2**-106`` (relative) of 1/3:

    >>> from fractions import Fraction
    >>> from prtheory.floats.dd import dd_constant
    >>> hi, lo = dd_constant(1, 3)
    >>> hi == float(Fraction(1, 3)), abs(Fraction(hi) + Fraction(lo) - Fraction(1, 3)) < Fraction(1, 3 * 2**106)
    (True, True)
    """
    q = Fraction(num, den)
    hi = num / den  # correctly rounded (CPython's int/int true division)
    return hi, float(q - Fraction(hi))
