"""Correct rounding of exact and arbitrary-precision values to float64.

Two entry points:

* :func:`to_float` rounds an exact value -- ``int``, :class:`~fractions.Fraction`, ``float`` or
  an :class:`mpmath.mpf` (whose value is the dyadic rational ``man * 2**exp`` it stores) -- to the
  nearest float64, ties to even, with IEEE 754 subnormals and overflow to ``±inf``.
* :func:`rounded` gives the correctly rounded float64 of an *irrational* oracle quantity (for
  example :func:`prtheory.oracle.closed_forms.aucpr_min`) by Ziv's strategy: evaluate at a working
  precision, and if the error interval guaranteed by the oracle function straddles a rounding
  boundary, evaluate again at twice the precision.

An ``mpf`` computed at finite precision is already a rounded value; ``to_float(mpf)`` is the
correct rounding of *that* value, which is not necessarily the correct rounding of the quantity it
approximates (double rounding). Use :func:`rounded` for the latter.

Proof that :func:`_round_ratio` is correctly rounded (``n > 0``, ``d > 0`` integers, ``x = n/d``)
-------------------------------------------------------------------------------------------------
1. ``e`` is chosen with ``2**e <= x < 2**(e+1)``: ``e0 = bitlen(n) - bitlen(d)`` gives
   ``2**(e0-1) < x < 2**(e0+1)``, and one integer comparison decides between ``e0 - 1`` and
   ``e0``.
2. Every float64 in ``[2**e, 2**(e+1)]`` is an integer multiple of ``2**s`` with
   ``s = max(e - 52, -1074)`` (52 fraction bits for normal numbers; below ``2**-1022`` the
   spacing is fixed at ``2**-1074``), and every multiple ``k 2**s`` with ``k <= 2**53`` is a
   float64 (when ``e + 1 <= 1023``).
3. ``q, rem = divmod(n * 2**-s, d)`` (scaling whichever of ``n`` or ``d`` keeps the shift
   non-negative) gives ``x = (q + rem/d) 2**s`` with ``0 <= rem < d`` exactly, so the two
   neighbours of ``x`` on the grid are ``q 2**s`` and ``(q+1) 2**s``.
4. ``x`` is nearer to ``q 2**s`` iff ``2 rem < d``, nearer to ``(q+1) 2**s`` iff ``2 rem > d``,
   and a tie iff ``2 rem == d``; ties go to the even one of ``q`` and ``q + 1``. All comparisons
   are on integers, so they are exact.
5. ``q + 1`` may equal ``2**53``; ``(q+1) 2**s = 2**(e+1)`` is then the float (or, if
   ``e + 1 == 1024``, an overflow). The result ``k 2**s`` with ``k <= 2**53`` is built by
   :func:`math.ldexp`, which is exact for a representable value; if ``k 2**s >= 2**1024`` it is
   beyond the largest float plus half an ulp (``2**1024 - 2**970``), since ``k 2**s`` is a grid
   point at or above ``2**1024`` and the grid point below, ``2**1024 - 2**971``, is the largest
   float; round-to-nearest then gives ``inf``, which is what is returned.
"""

from __future__ import annotations

import inspect
import math
import numbers
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
from mpmath import libmp

from prtheory.errors import InvalidInputError

__all__ = ["exact_rational", "prec_of_dps", "rounded", "to_float", "to_float_array", "ulp"]


def _floor_log2(n: int, d: int) -> int:
    """``floor(log2(n/d))`` for integers ``n, d > 0``, exactly (step 1 of the proof)."""
    e = n.bit_length() - d.bit_length()
    # 2**e <= n/d ?  compare n with d * 2**e using non-negative shifts only
    if (n < (d << e)) if e >= 0 else ((n << -e) < d):
        e -= 1
    return e


def ulp(x: Any) -> Fraction:
    """The float64 spacing at the exact value of ``x``: ``2**(max(floor(log2|x|), -1022) - 52)``.

    This is the unit in which errors are measured: ``|y - x| / ulp(x) <= 1/2`` exactly when ``y``
    is a correct rounding of ``x`` (for ``x`` within the float64 range); ``ulp(0)`` is the
    smallest subnormal, ``2**-1074``.

    Parameters
    ----------
    x : int, Fraction, float or mpf
        A finite real number, taken exactly.

    Returns
    -------
    Fraction
        The spacing of the float64 numbers at ``|x|``, a power of two.

    Raises
    ------
    InvalidInputError
        ``x`` not finite or not a real number.

    See Also
    --------
    to_float : the rounding whose error this measures.

    Examples
    --------
    The float64 numbers in [1, 2) are ``2**-52`` apart:

    >>> from prtheory.oracle.rounding import ulp
    >>> ulp(1.0) == 2**-52
    True
    >>> ulp(0) == 2**-1074
    True
    """
    q = exact_rational(x)
    e = -1022 if q == 0 else max(_floor_log2(abs(q.numerator), q.denominator), -1022)
    return Fraction(2) ** (e - 52)


def _round_ratio(n: int, d: int) -> float:
    """Nearest float64 to ``n/d`` for integers ``n >= 0``, ``d > 0`` (proof in the module doc)."""
    if n == 0:
        return 0.0
    s = max(_floor_log2(n, d) - 52, -1074)
    if s >= 0:
        q, rem = divmod(n, d << s)
        den = d << s
    else:
        q, rem = divmod(n << -s, d)
        den = d
    twice = 2 * rem
    if twice > den or (twice == den and q & 1):
        q += 1
    try:
        return math.ldexp(float(q), s)
    except OverflowError:
        return math.inf


def exact_rational(x: Any, name: str = "x") -> Fraction:
    """The exact rational value of an int, Fraction, float or finite mpmath ``mpf``.

    Floats and ``mpf`` values are dyadic rationals, converted without rounding.

    Parameters
    ----------
    x : int, Fraction, float, numpy number or mpf
        A finite real number (not a boolean).
    name : str
        The argument's name in the error message.

    Returns
    -------
    Fraction
        The value of ``x``, exactly.

    Raises
    ------
    InvalidInputError
        ``x`` infinite, NaN, a boolean or not a real number, naming ``name``.

    See Also
    --------
    to_float : the way back, correctly rounded.

    Examples
    --------
    0.1 is the float64 ``3602879701896397 / 2**55``, not 1/10:

    >>> from fractions import Fraction
    >>> from prtheory.oracle import exact_rational
    >>> exact_rational(0.1) == Fraction(3602879701896397, 2**55)
    True
    >>> exact_rational(3)
    Fraction(3, 1)
    """
    if isinstance(x, (bool, np.bool_)):
        raise InvalidInputError(name, f"must be a real number, got a boolean ({x!r})")
    if isinstance(x, Fraction):
        return x
    if isinstance(x, numbers.Integral):
        return Fraction(int(x))
    if hasattr(x, "_mpf_"):  # mpf, and mpmath constants (at the current precision)
        if not mpmath.isfinite(x):
            raise InvalidInputError(name, f"must be finite, got {x!r}")
        sign, man, exp, _ = x._mpf_
        value = Fraction(man << exp) if exp >= 0 else Fraction(man, 1 << -exp)
        return -value if sign else value
    if isinstance(x, numbers.Real):
        f = float(x)
        if not math.isfinite(f):
            raise InvalidInputError(name, f"must be finite, got {x!r}")
        return Fraction(f)
    raise InvalidInputError(name, f"must be a real number, got {type(x).__name__} ({x!r})")


def to_float(x: Any) -> float:
    """The float64 nearest to the exact value of ``x`` (round half to even).

    ``x`` is an ``int``, ``Fraction``, ``float`` (returned as is), numpy number or mpmath ``mpf``
    (rounded from the dyadic rational it holds; ``±inf`` map to ``±inf``). Results below half the
    smallest subnormal round to ``±0.0``; results at or beyond ``2**1024 - 2**970`` overflow to
    ``±inf``.

    Parameters
    ----------
    x : int, Fraction, float, numpy number or mpf
        The value to round.

    Returns
    -------
    float
        The float64 nearest ``x``, ties to even.

    Raises
    ------
    InvalidInputError
        ``x`` NaN or not a real number.

    See Also
    --------
    rounded : the same for an oracle function whose value is irrational.
    to_float_array : element-wise.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from prtheory.oracle import to_float
    >>> to_float(Fraction(11, 30))
    0.36666666666666664
    >>> to_float(Fraction(1, 2**1075))  # half the least subnormal: ties to even, 0
    0.0
    """
    if isinstance(x, float):
        if math.isnan(x):
            raise InvalidInputError("x", "must not be NaN")
        return x
    if isinstance(x, np.floating):
        return to_float(float(x))
    if isinstance(x, mpmath.mpf) and not mpmath.isfinite(x):
        if mpmath.isnan(x):
            raise InvalidInputError("x", "must not be NaN")
        return math.inf if x > 0 else -math.inf
    q = exact_rational(x)
    magnitude = _round_ratio(abs(q.numerator), q.denominator)
    return -magnitude if q < 0 else magnitude


def to_float_array(values: Any) -> np.ndarray:
    """Element-wise :func:`to_float` of a sequence (or array of objects); returns float64.

    Parameters
    ----------
    values : sequence or array of numbers
        Values :func:`to_float` takes, in any shape.

    Returns
    -------
    numpy.ndarray
        float64, of the shape of ``values``.

    Raises
    ------
    InvalidInputError
        An element NaN or not a real number.

    See Also
    --------
    to_float : one value.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from prtheory.oracle.rounding import to_float_array
    >>> to_float_array([Fraction(1, 3), Fraction(2, 3)]).tolist()
    [0.3333333333333333, 0.6666666666666666]
    """
    flat = np.array([to_float(v) for v in values], dtype=np.float64)
    out: np.ndarray = flat.reshape(np.shape(values))  # numpy types this reshape as Any
    return out


def prec_of_dps(dps: int) -> int:
    """Working precision in bits for ``dps`` decimal digits (mpmath's own conversion).

    Parameters
    ----------
    dps : int
        Decimal digits, at least 1.

    Returns
    -------
    int
        Bits: ``round((dps + 1) log2(10))``.

    Raises
    ------
    InvalidInputError
        ``dps`` not an integer >= 1.

    See Also
    --------
    rounded : the oracle contract is stated in these bits.

    Examples
    --------
    By hand: ``(15 + 1) * 3.3219... = 53.15``, float64's 53 bits:

    >>> from prtheory.oracle import prec_of_dps
    >>> prec_of_dps(15)
    53
    """
    if isinstance(dps, bool) or not isinstance(dps, numbers.Integral) or dps < 1:
        raise InvalidInputError("dps", f"must be an integer >= 1, got {dps!r}")
    return libmp.dps_to_prec(int(dps))


def rounded(fn: Callable[..., Any], *args: Any, max_dps: int = 10_000, **kwargs: Any) -> float:
    """The correctly rounded float64 of ``fn(*args, **kwargs)``, by Ziv's strategy.

    Exact oracle functions (no ``dps`` parameter) are simply rounded with :func:`to_float`.
    Otherwise ``fn`` is an oracle function that takes ``dps=`` and keeps the oracle contract: an
    ``mpf`` result ``v`` computed at ``dps`` digits satisfies ``|v - x| <= 2**(1 - p) |x|`` with
    ``p = prec_of_dps(dps)`` and ``x`` the true value. (Exact ``int`` / ``Fraction`` results are
    simply rounded.) Then ``|x - v| <= 2**(2-p) |v|`` (for ``p >= 2``), and the interval
    ``[v - 2**(2-p)|v|, v + 2**(2-p)|v|]`` is formed exactly in rationals; when both ends round
    to the same float64, that float is the correct rounding of ``x`` (rounding is monotone).
    Otherwise the precision doubles. A value exactly on a rounding boundary (a dyadic
    midpoint) is never decided this way, so the loop stops at ``max_dps`` with an
    :class:`ArithmeticError`; irrational quantities are never on a boundary.

    Parameters
    ----------
    fn : callable
        An oracle function: exact, or taking ``dps=`` under the oracle contract.
    *args, **kwargs
        Its arguments.
    max_dps : int
        The most digits tried (default 10,000).

    Returns
    -------
    float
        The float64 nearest the true value.

    Raises
    ------
    ArithmeticError
        Undecided at ``max_dps`` digits (a value on a rounding boundary).

    See Also
    --------
    to_float : for exact values.

    Examples
    --------
    The least AUCPR at skew 1/2 is ``1 - ln 2 = 0.306852819440054690...`` (claim B4):

    >>> from fractions import Fraction
    >>> from prtheory.oracle import aucpr_min, rounded
    >>> rounded(aucpr_min, Fraction(1, 2))
    0.3068528194400547
    """
    if "dps" not in inspect.signature(fn).parameters:  # an exact (rational) oracle function
        return to_float(fn(*args, **kwargs))
    dps = 30
    while True:
        v = fn(*args, dps=dps, **kwargs)
        if not isinstance(v, mpmath.mpf):
            return to_float(v)
        if not mpmath.isfinite(v):
            return to_float(v)
        p = prec_of_dps(dps)
        centre = exact_rational(v)
        # |x - v| <= 2**(1-p)|x| implies |x - v| <= 2**(1-p)|v| / (1 - 2**(1-p)) <= 2**(2-p)|v|
        radius = abs(centre) * Fraction(1, 1 << (p - 2))
        lo, hi = to_float(centre - radius), to_float(centre + radius)
        if lo == hi:
            return lo
        if dps >= max_dps:
            raise ArithmeticError(
                f"rounding of {getattr(fn, '__name__', fn)}{args} undecided at {dps} digits "
                "(the value may be exactly halfway between two floats)"
            )
        dps = min(2 * dps, max_dps)
