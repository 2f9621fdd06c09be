"""Exact values of the float metrics, kept exact through averaging, and rounded once.

A metric's value is one of:

* :class:`Terms` -- ``constant + sum_c coefficient_c sum_i a_ci/d_ci`` with exact rational
  constant and coefficients and integer arrays ``a``, ``d`` (:class:`QuotientSum` parts). Every
  rational PR-space area is of this form with few parts (average precision: one part; the
  trapezoid: two, plus the clipped segments of a recall range as the constant). Linear
  combinations of Terms are Terms, so a macro, weighted or samples average is still exact, and
  :meth:`Terms.to_float` rounds it once with
  :func:`prtheory.oracle.summation.round_combination` (digit expansion on int64 arrays, an
  exact fallback when the interval cannot decide).
* :class:`Irrational` -- a value with logarithms (the Davis-Goadrich area), evaluated by an
  oracle function at ``dps`` digits under the oracle contract (relative error at most
  ``2**(1-p)``).

:func:`round_sum` gives the correctly rounded float64 of ``sum_c w_c value_c`` (``w_c`` exact
rationals) for any mixture of the two, by Ziv's strategy: enclose each irrational value in
``v (1 ± 2**(2-p))`` (as :func:`prtheory.oracle.rounding.rounded` does), add the exact part,
round both ends, and double the digits until they agree. An irrational sum is never on a
rounding boundary, so the loop ends. A Davis-Goadrich area without logarithms (every segment
of constant precision, e.g. one tied block) is rational and can be exactly a midpoint between
two floats; if ``max_dps`` digits cannot decide, the value is within ``2**-3000`` (relative) of
a midpoint and the float nearest the centre of the enclosure is returned: one of the two
floats nearest the value, so within 1 ulp, but not necessarily the even one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import mpmath

from prtheory.oracle.rounding import exact_rational, prec_of_dps, to_float
from prtheory.oracle.summation import QuotientSum, round_combination

__all__ = ["Irrational", "Terms", "round_sum"]


@dataclass(frozen=True)
class Terms:
    """``constant + sum(parts)``: an exact rational held as sums of integer quotients.

    Parameters
    ----------
    parts : tuple of QuotientSum
        The quotient sums.
    constant : Fraction
        The exact constant.

    See Also
    --------
    Irrational, round_sum

    Examples
    --------
    1/2 + 1 (1/3 + 1/6) = 1, held as sums and rounded once:

    >>> from fractions import Fraction
    >>> from prtheory.metrics.exact import Terms
    >>> from prtheory.oracle.summation import QuotientSum
    >>> t = Terms((QuotientSum([1, 1], [3, 6]),), Fraction(1, 2))
    >>> t.exact(), t.to_float()
    (Fraction(1, 1), 1.0)
    """

    parts: tuple[QuotientSum, ...] = ()
    constant: Fraction = Fraction(0)

    def scaled(self, c: Fraction) -> Terms:
        """``c`` times this value, exactly."""
        parts = tuple(
            QuotientSum(p.numerators, p.denominators, p.coefficient * c) for p in self.parts
        )
        return Terms(parts, self.constant * c)

    def __add__(self, other: Terms) -> Terms:
        return Terms(self.parts + other.parts, self.constant + other.constant)

    def exact(self) -> Fraction:
        """The exact value (a rational sum per part; slow for very many terms)."""
        return self.constant + sum((p.exact() for p in self.parts), Fraction(0))

    def to_float(self) -> float:
        """The correctly rounded float64 of the value."""
        return round_combination(self.parts, self.constant)


@dataclass(frozen=True)
class Irrational:
    """A value known through ``evaluate(dps)``: an ``mpf`` within ``2**(1-p)`` relative (or an
    exact ``Fraction``/``int``, when the quantity happens to be rational).

    Parameters
    ----------
    evaluate : callable
        ``evaluate(dps)``: the value to ``dps`` digits.

    See Also
    --------
    Terms, round_sum

    Examples
    --------
    See :func:`round_sum`.

    >>> from fractions import Fraction
    >>> from prtheory.metrics.exact import Irrational
    >>> Irrational(lambda dps: Fraction(1, 3)).evaluate(30)
    Fraction(1, 3)
    """

    evaluate: Callable[[int], object]


def round_sum(values: Sequence[tuple[Fraction, Terms | Irrational]], max_dps: int = 960) -> float:
    """Correctly rounded float64 of ``sum_c w_c value_c`` (module docstring).

    Parameters
    ----------
    values : sequence of (Fraction, Terms or Irrational)
        The weights ``w_c`` and values.
    max_dps : int
        The most digits an irrational value is asked for (default 960).

    Returns
    -------
    float
        The correctly rounded ``sum_c w_c value_c``.

    See Also
    --------
    Terms, Irrational

    Examples
    --------
    (1/2) ln 2 + (1/2) ln 2 = ln 2, whose float64 is ``0.6931471805599453`` (ln 2 =
    0.693147180559945309417..., and the float64 neighbours are 0.69314718055994528623 and
    0.69314718055994539725, the first the nearer):

    >>> from fractions import Fraction
    >>> import mpmath
    >>> from prtheory.metrics.exact import Irrational, round_sum
    >>> def ln2(dps):
    ...     with mpmath.workdps(dps):
    ...         return +mpmath.log(2)
    >>> round_sum([(Fraction(1, 2), Irrational(ln2)), (Fraction(1, 2), Irrational(ln2))])
    0.6931471805599453
    """
    total = Terms()
    irrational: list[tuple[Fraction, Irrational]] = []
    for w, v in values:
        if isinstance(v, Terms):
            total = total + v.scaled(w)
        else:
            irrational.append((w, v))
    if not irrational:
        return total.to_float()
    known = total.exact()
    dps = 30
    while True:
        lo = hi = known
        for w, v in irrational:
            x = v.evaluate(dps)
            centre = w * exact_rational(x)
            if isinstance(x, mpmath.mpf):
                radius = abs(centre) / (1 << (prec_of_dps(dps) - 2))
                lo, hi = lo + centre - radius, hi + centre + radius
            else:
                lo, hi = lo + centre, hi + centre
        first = to_float(lo)
        if lo == hi or first == to_float(hi):
            return first
        if dps >= max_dps:  # a rational value on a midpoint (module docstring)
            return to_float((lo + hi) / 2)
        dps = min(2 * dps, max_dps)
