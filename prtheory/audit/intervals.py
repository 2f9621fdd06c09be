"""Intervals of reals with exact or certified end points.

Published numbers are rounded, so every check in :mod:`prtheory.papers` reasons about *sets* of
reals: the set of values that print as ``0.680``, and its image under a monotone metric. An end
point is either

* a :class:`~fractions.Fraction` (exact: rounding boxes, precision bounds, F-beta, AP_min), or
* an :class:`Approx`: a real known through an evaluator ``dps -> mpmath.mpf`` accurate to about
  ``dps`` significant digits (AUCPR_min and AUCNPR, which involve ``ln(1 - pi)``).

:func:`compare` decides the order of two end points. Two fractions compare exactly. When an
``Approx`` is involved the comparison is *certified*: both sides are evaluated at 30 digits and
the order is accepted only if the values differ by more than the sum of their error bounds;
otherwise the precision is doubled (60, 120, 240 digits). Equal values cannot be separated this
way, so :class:`UndecidedComparison` is raised. That cannot happen for the comparisons the papers
module makes: an Approx end point there is ``(x - m(pi)) / (1 - m(pi))`` or ``m(pi)`` with rational
``x`` and ``pi`` in (0, 1), which is transcendental (Lindemann: ``ln(1 - pi)`` is transcendental
for algebraic ``pi`` outside {0}), so it never equals a rational rounding boundary; rational
special cases (pi in {0, 1}, x = 1) are computed as Fractions.
"""

from __future__ import annotations

import decimal
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

import mpmath

from prtheory.oracle.rounding import exact_rational

__all__ = [
    "Approx",
    "Interval",
    "UndecidedComparison",
    "compare",
    "round_real",
    "to_mpf",
    "value_str",
]

# Precisions tried by compare(); each doubles the previous one.
_LADDER = (30, 60, 120, 240)


class UndecidedComparison(ArithmeticError):
    """Two end points agree to 240 digits: their order cannot be certified numerically.

    See Also
    --------
    compare

    Examples
    --------
    >>> from prtheory.audit.intervals import UndecidedComparison
    >>> issubclass(UndecidedComparison, Exception)
    True
    """


class Approx:
    """A real known through ``evaluate(dps) -> mpf``, relatively accurate to ~``dps`` digits.

    The evaluator must scope its own precision (the oracle functions take ``dps=``). Results are
    cached per precision. The error bound used by :func:`compare` is
    ``10**(3 - dps) * |value| + 10**(-2 * dps)``: a thousand times the working precision, which
    covers an oracle that is correct to ``dps - 1`` digits with ample margin.

    Parameters
    ----------
    evaluate : callable
        ``evaluate(dps) -> mpf``, scoping its own precision.
    label : str
        A name for the messages.

    See Also
    --------
    compare

    Examples
    --------
    ln 2 = 0.693... lies below 7/10 (see :func:`compare`):

    >>> from fractions import Fraction
    >>> import mpmath
    >>> from prtheory.audit.intervals import Approx, compare
    >>> def ln2(dps):
    ...     with mpmath.workdps(dps):
    ...         return +mpmath.log(2)
    >>> compare(Approx(ln2), Fraction(7, 10))
    -1
    """

    __slots__ = ("_cache", "_evaluate", "label")

    def __init__(self, evaluate: Callable[[int], mpmath.mpf], label: str = "") -> None:
        self._evaluate = evaluate
        self._cache: dict[int, mpmath.mpf] = {}
        self.label = label

    def at(self, dps: int) -> mpmath.mpf:
        if dps not in self._cache:
            self._cache[dps] = self._evaluate(dps)
        return self._cache[dps]

    def __float__(self) -> float:
        return float(self.at(30))

    def __repr__(self) -> str:
        return f"Approx({self.label or mpmath.nstr(self.at(30), 20)})"


Real = Fraction | Approx
#: the type of an interval's ends: Fraction (a printed value's box) or Real (a computed bound)
R = TypeVar("R", Fraction, Real)


def _as_real(x: Real | mpmath.mpf) -> Real:
    """An mpf (a value the oracle already computed) is taken at its exact binary value."""
    return exact_rational(x) if isinstance(x, mpmath.mpf) else x


def to_mpf(x: Real | mpmath.mpf, dps: int) -> mpmath.mpf:
    """``x`` as an mpf at ``dps`` digits (a Fraction is divided at that precision).

    Parameters
    ----------
    x : Fraction, Approx or mpmath.mpf
        The value.
    dps : int
        The digits.

    Returns
    -------
    mpmath.mpf
        ``x`` at ``dps`` digits.

    See Also
    --------
    round_real

    Examples
    --------
    The value carries 20 digits (mpmath prints at its context's precision, so it is printed
    there at 20):

    >>> from fractions import Fraction
    >>> import mpmath
    >>> from prtheory.audit.intervals import to_mpf
    >>> x = to_mpf(Fraction(1, 3), 20)
    >>> with mpmath.workdps(20):
    ...     print(x)
    0.33333333333333333333
    """
    x = _as_real(x)
    if isinstance(x, Approx):
        return x.at(dps)
    with mpmath.workdps(dps):
        return mpmath.mpf(x.numerator) / x.denominator


def _error_bound(v: mpmath.mpf, dps: int, exact: bool) -> mpmath.mpf:
    with mpmath.workdps(dps + 10):
        rel = mpmath.mpf(10) ** (3 - dps) if not exact else mpmath.mpf(10) ** (1 - dps)
        return rel * abs(v) + mpmath.mpf(10) ** (-2 * dps)


def compare(a: Real, b: Real) -> int:
    """Return -1, 0 or 1 as ``a < b``, ``a == b``, ``a > b``; certified (see module docstring).

    0 is only ever returned for two Fractions; an Approx never compares equal.

    Parameters
    ----------
    a, b : Fraction or Approx
        The reals.

    Returns
    -------
    int
        -1, 0 or 1.

    Raises
    ------
    UndecidedComparison
        The ends agree to 240 digits.

    See Also
    --------
    Approx

    Examples
    --------
    >>> from fractions import Fraction
    >>> from prtheory.audit.intervals import compare
    >>> compare(Fraction(1, 3), Fraction(1, 2)), compare(Fraction(1, 2), Fraction(2, 4))
    (-1, 0)
    """
    a, b = _as_real(a), _as_real(b)
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return (a > b) - (a < b)
    for dps in _LADDER:
        va, vb = to_mpf(a, dps), to_mpf(b, dps)
        tol = _error_bound(va, dps, isinstance(a, Fraction)) + _error_bound(
            vb, dps, isinstance(b, Fraction)
        )
        with mpmath.workdps(dps + 10):
            diff = va - vb
            if diff > tol:
                return 1
            if diff < -tol:
                return -1
    raise UndecidedComparison(f"{a!r} and {b!r} agree to {_LADDER[-1]} digits")


def value_str(x: Real | mpmath.mpf, digits: int = 7) -> str:
    """A short decimal rendering: exact decimals in full when short, else ``digits`` significant.

    Parameters
    ----------
    x : Fraction, Approx or mpmath.mpf
        The value.
    digits : int
        Significant digits when not short (default 7).

    Returns
    -------
    str
        The rendering.

    See Also
    --------
    round_real

    Examples
    --------
    1/4 is the short decimal 0.25; 1/3 is shown to 7 significant digits:

    >>> from fractions import Fraction
    >>> from prtheory.audit.intervals import value_str
    >>> value_str(Fraction(1, 4)), value_str(Fraction(1, 3))
    ('0.25', '0.3333333')
    """
    x = _as_real(x)
    if isinstance(x, Fraction) and _is_decimal(x):
        s = _decimal_str(x)
        if len(s) <= digits + 3:
            return s
    return mpmath.nstr(to_mpf(x, 30), digits)


def _is_decimal(x: Fraction) -> bool:
    d = x.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return d == 1


def _decimal_str(x: Fraction) -> str:
    """Exact decimal expansion of a Fraction whose denominator is 2^a 5^b."""
    k = 0
    while (x * 10**k).denominator != 1:
        k += 1
    n = x.numerator * 10**k // x.denominator
    sign = "-" if n < 0 else ""
    digits = str(abs(n)).rjust(k + 1, "0")
    return sign + (digits[:-k] + "." + digits[-k:] if k else digits)


@dataclass(frozen=True)
class Interval(Generic[R]):
    """An interval of reals; each end is open or closed. ``lo <= hi`` for a non-empty interval.

    ``Interval[Fraction]`` has exact ends (the box of a printed value); ``Interval[Real]`` may
    have :class:`Approx` ends, compared only through :func:`compare`.

    Parameters
    ----------
    lo, hi : Fraction or Approx
        The ends.
    lo_closed, hi_closed : bool
        Whether each end belongs to it (default True).

    See Also
    --------
    compare

    Examples
    --------
    >>> from fractions import Fraction
    >>> from prtheory.audit.intervals import Interval
    >>> print(Interval(Fraction(1, 4), Fraction(1, 2)))
    [0.25, 0.5]
    """

    lo: R
    hi: R
    lo_closed: bool = True
    hi_closed: bool = True

    @classmethod
    def point(cls, x: R) -> Interval[R]:
        return cls(x, x)

    @property
    def is_point(self) -> bool:
        return isinstance(self.lo, Fraction) and self.lo == self.hi

    def is_empty(self) -> bool:
        c = compare(self.lo, self.hi)
        return c > 0 or (c == 0 and not (self.lo_closed and self.hi_closed))

    def contains(self, x: Real) -> bool:
        c_lo, c_hi = compare(x, self.lo), compare(x, self.hi)
        above = c_lo > 0 or (c_lo == 0 and self.lo_closed)
        below = c_hi < 0 or (c_hi == 0 and self.hi_closed)
        return above and below

    def intersect(self, other: Interval[R]) -> Interval[R]:
        """The intersection (possibly empty: test with :meth:`is_empty`)."""
        c = compare(self.lo, other.lo)
        if c > 0:
            lo, lo_closed = self.lo, self.lo_closed
        elif c < 0:
            lo, lo_closed = other.lo, other.lo_closed
        else:
            lo, lo_closed = self.lo, self.lo_closed and other.lo_closed
        c = compare(self.hi, other.hi)
        if c < 0:
            hi, hi_closed = self.hi, self.hi_closed
        elif c > 0:
            hi, hi_closed = other.hi, other.hi_closed
        else:
            hi, hi_closed = self.hi, self.hi_closed and other.hi_closed
        return Interval(lo, hi, lo_closed, hi_closed)

    def meets(self, other: Interval[R]) -> bool:
        """Whether the two intervals share a point."""
        return not self.intersect(other).is_empty()

    def clip(self, lo: R, hi: R) -> Interval[R]:
        """Intersect with the closed domain ``[lo, hi]``."""
        return self.intersect(Interval(lo, hi))

    def __str__(self) -> str:
        if self.is_point:
            return value_str(self.lo)
        left = "[" if self.lo_closed else "("
        right = "]" if self.hi_closed else ")"
        return f"{left}{value_str(self.lo)}, {value_str(self.hi)}{right}"


def round_real(x: Real | mpmath.mpf, decimals: int) -> str:
    """``x`` rounded to ``decimals`` places, as printed text; certified for irrational ``x``.

    The candidate comes from a 40-digit evaluation; it is accepted only if ``x`` provably lies in
    the closed rounding box of the candidate (for an irrational ``x`` the box's ends, which are
    rational, are never hit, so the rounding rule at midpoints does not matter). A rational ``x``
    exactly at a midpoint is rounded half to even. An mpf is rounded at its exact binary value.

    Parameters
    ----------
    x : Fraction, Approx or mpmath.mpf
        The value.
    decimals : int
        The places.

    Returns
    -------
    str
        The rounded value as text.

    Raises
    ------
    UndecidedComparison
        The rounding cannot be certified.

    See Also
    --------
    value_str

    Examples
    --------
    1/3 to 3 places is 0.333; 5/8 = 0.625 is a midpoint, rounded half to even:

    >>> from fractions import Fraction
    >>> from prtheory.audit.intervals import round_real
    >>> round_real(Fraction(1, 3), 3), round_real(Fraction(5, 8), 2)
    ('0.333', '0.62')
    """
    x = _as_real(x)
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        text = mpmath.nstr(to_mpf(x, 40), 40, strip_zeros=False, min_fixed=-100, max_fixed=100)
        if isinstance(x, Fraction) and _is_decimal(x):
            text = _decimal_str(x)
        q = decimal.Decimal(text).quantize(
            decimal.Decimal(1).scaleb(-decimals), decimal.ROUND_HALF_EVEN
        )
    half = Fraction(1, 2 * 10**decimals)
    if not Interval(Fraction(q) - half, Fraction(q) + half).contains(x):
        raise UndecidedComparison(f"cannot certify the rounding of {x!r} to {decimals} places")
    return str(q)
