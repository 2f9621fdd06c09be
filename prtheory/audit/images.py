"""Images of rounding boxes under the monotone closed forms of PR space.

Every function here maps *sets* of inputs (intervals, see :mod:`prtheory.audit.intervals`) to the
set of outputs, using only monotonicity and the oracle's point evaluations:

* AUCPR_min(pi; a, b) is strictly increasing in pi (B5, B7), so that
* AUCNPR = (AUCPR - m) / (M - m), with m = AUCPR_min and M = b - a (B8), is increasing in AUCPR
  and decreasing in pi (d/dm of (x - m)/(M - m) is (x - M)/(M - m)^2 <= 0 since x <= M);
* F-beta = (1 + beta^2) p r / (beta^2 p + r) is increasing in p and in r (F2);
* the minimum precision pi r / (1 - pi + pi r) is increasing in r and in pi (B1).

An end of an image is attained (closed) exactly when all the input ends it comes from are.
Irrational values are :class:`~prtheory.audit.intervals.Approx` numbers evaluated by the oracle at
the precision a comparison asks for; the oracle's contract (``|v - x| <= 2**(1-p) |x|`` at ``p``
bits, see :func:`prtheory.oracle.rounding.rounded`) is far inside the error bound that
:func:`~prtheory.audit.intervals.compare` allows.
"""

from __future__ import annotations

from fractions import Fraction

from prtheory.audit.intervals import Approx, Interval, Real
from prtheory.oracle import closed_forms, points

__all__ = [
    "aucnpr_image",
    "aucnpr_real",
    "aucpr_min_real",
    "fbeta_from_pr",
    "fbeta_image",
    "implied_aucpr_min",
]

ZERO, ONE = Fraction(0), Fraction(1)


def aucpr_min_real(pi: Fraction, a: Fraction = ZERO, b: Fraction = ONE) -> Real:
    """AUCPR_min over recalls [a, b] at skew ``pi`` (B4, B7), with the B5 end-point limits.

    Rational at pi = 0 (0) and pi = 1 (b - a); an :class:`Approx` otherwise.

    Parameters
    ----------
    pi : Fraction
        The skew.
    a, b : Fraction
        The recall range (default [0, 1]).

    Returns
    -------
    Fraction or Approx
        AUCPR_min, exact at pi = 0 and 1.

    See Also
    --------
    aucnpr_real
    prtheory.oracle.aucpr_min

    Examples
    --------
    The B5 limits: 0 at pi = 0 and b - a = 1 at pi = 1:

    >>> from fractions import Fraction
    >>> from prtheory.audit.images import aucpr_min_real
    >>> aucpr_min_real(Fraction(0)), aucpr_min_real(Fraction(1))
    (Fraction(0, 1), Fraction(1, 1))
    """
    if pi == 0:
        return ZERO
    if pi == 1:
        return b - a
    return Approx(
        lambda dps: closed_forms.aucpr_min(pi, a, b, dps=dps), f"AUCPR_min({pi}; {a}, {b})"
    )


def aucnpr_real(aucpr: Fraction, pi: Fraction, a: Fraction = ZERO, b: Fraction = ONE) -> Real:
    """AUCNPR = (AUCPR - AUCPR_min)/(AUCPR_max - AUCPR_min) (B8); needs 0 <= pi < 1.

    Rational when pi = 0 (AUCPR/(b - a)) or AUCPR = b - a (exactly 1); an :class:`Approx`
    otherwise. At pi = 1 AUCNPR is undefined (the paper's convention sets it to 1, which is not
    the limit of a monotone image), so callers exclude it.

    Parameters
    ----------
    aucpr : Fraction
        The area.
    pi : Fraction
        The skew, ``0 <= pi < 1``.
    a, b : Fraction
        The recall range (default [0, 1]).

    Returns
    -------
    Fraction or Approx
        AUCNPR, exact where rational.

    See Also
    --------
    aucnpr_image, aucpr_min_real

    Examples
    --------
    At pi = 0, AUCPR_min = 0, so AUCNPR = AUCPR/(b - a):

    >>> from fractions import Fraction
    >>> from prtheory.audit.images import aucnpr_real
    >>> aucnpr_real(Fraction(1, 2), Fraction(0))
    Fraction(1, 2)
    """
    top = b - a
    if pi == 0:
        return aucpr / top
    if aucpr == top:
        return ONE
    return Approx(
        lambda dps: closed_forms.aucnpr(aucpr, pi, a, b, dps=dps),
        f"AUCNPR({aucpr}; pi={pi}; {a}, {b})",
    )


def aucnpr_image(
    aucpr: Interval, skew: Interval, a: Fraction = ZERO, b: Fraction = ONE
) -> Interval:
    """The set of AUCNPR values for AUCPR in ``aucpr`` and pi in ``skew`` (``skew.hi < 1``).

    Parameters
    ----------
    aucpr : Interval
        The AUCPR box.
    skew : Interval
        The skew box, ``skew.hi < 1``.
    a, b : Fraction
        The recall range (default [0, 1]).

    Returns
    -------
    Interval
        The AUCNPR values.

    See Also
    --------
    aucnpr_real, implied_aucpr_min

    Examples
    --------
    An AUCPR of exactly 1 (= b - a) normalises to 1 at every skew:

    >>> from fractions import Fraction
    >>> from prtheory.audit.images import aucnpr_image
    >>> from prtheory.audit.intervals import Interval
    >>> aucnpr_image(Interval(Fraction(1), Fraction(1)), Interval(Fraction(0), Fraction(1, 2)))
    Interval(lo=Fraction(1, 1), hi=Fraction(1, 1), lo_closed=True, hi_closed=True)
    """
    return Interval(
        aucnpr_real(aucpr.lo, skew.hi, a, b),
        aucnpr_real(aucpr.hi, skew.lo, a, b),
        aucpr.lo_closed and skew.hi_closed,
        aucpr.hi_closed and skew.lo_closed,
    )


def fbeta_from_pr(p: Fraction, r: Fraction, beta: Fraction | int) -> Fraction:
    """F-beta of precision ``p`` and recall ``r`` through the oracle's count form (F2).

    The counts TP = p r, FP = r (1 - p), FN = p (1 - r) have exactly this precision and recall
    (F-beta is scale-free in the counts), and (1+b^2)TP/((1+b^2)TP + FP + b^2 FN) reduces to
    (1+b^2) p r/(b^2 p + r). At p = 0 or r = 0 it is 0, the limit of the harmonic mean.

    Parameters
    ----------
    p, r : Fraction
        Precision and recall.
    beta : Fraction or int
        The weight of recall.

    Returns
    -------
    Fraction
        F-beta, exactly.

    See Also
    --------
    fbeta_image
    prtheory.oracle.fbeta_from_rates

    Examples
    --------
    p = 3/4, r = 3/5: 2 (9/20)/(27/20) = 2/3:

    >>> from fractions import Fraction
    >>> from prtheory.audit.images import fbeta_from_pr
    >>> fbeta_from_pr(Fraction(3, 4), Fraction(3, 5), 1)
    Fraction(2, 3)
    """
    return points.fbeta(p * r, r * (1 - p), p * (1 - r), beta, convention="sklearn")


def fbeta_image(precision: Interval, recall: Interval, beta: Fraction) -> Interval:
    """The set of F-beta values over a box of precisions and recalls (F2); exact.

    Parameters
    ----------
    precision, recall : Interval
        The boxes of the printed values.
    beta : Fraction
        The weight of recall.

    Returns
    -------
    Interval
        The F-beta values over the box.

    See Also
    --------
    fbeta_from_pr

    Examples
    --------
    F1 increases in both: precision in [1/2, 3/4] at recall 1/2 gives [F1(1/2, 1/2),
    F1(3/4, 1/2)] = [1/2, (3/8)/(5/8)] = [1/2, 3/5]:

    >>> from fractions import Fraction
    >>> from prtheory.audit.images import fbeta_image
    >>> from prtheory.audit.intervals import Interval
    >>> half = Interval(Fraction(1, 2), Fraction(1, 2))
    >>> print(fbeta_image(Interval(Fraction(1, 2), Fraction(3, 4)), half, Fraction(1)))
    [0.5, 0.6]
    """
    return Interval(
        fbeta_from_pr(precision.lo, recall.lo, beta),
        fbeta_from_pr(precision.hi, recall.hi, beta),
        precision.lo_closed and recall.lo_closed,
        precision.hi_closed and recall.hi_closed,
    )


def implied_aucpr_min(aucpr: Interval, aucnpr: Interval) -> Interval | None:
    """The AUCPR_min values m compatible with a printed (AUCPR, AUCNPR) pair, full recall range.

    Solving AUCNPR = (AUCPR - m)/(1 - m) for m gives m = (AUCPR - AUCNPR)/(1 - AUCNPR)
    (for AUCNPR < 1; a negative AUCNPR, an area below AUCPR_min, gives m above AUCPR),
    increasing in AUCPR and decreasing in AUCNPR, so over the box m ranges
    from m(AUCPR_lo, AUCNPR_hi) to m(AUCPR_hi, AUCNPR_lo). When the box reaches AUCNPR = 1 the
    lower end is unbounded (AUCPR = AUCNPR = 1 fits every skew). The result is intersected with
    the feasible [0, 1]; ``None`` means no skew at all fits the pair.

    Parameters
    ----------
    aucpr, aucnpr : Interval
        The boxes of the printed pair.

    Returns
    -------
    Interval or None
        The compatible AUCPR_min values, or None.

    See Also
    --------
    prtheory.audit.checks.implied_skew : the skews they mean.

    Examples
    --------
    AUCPR in [1/2, 3/5] with AUCNPR = 1/5: m = (A - 1/5)/(4/5) runs from (3/10)/(4/5) = 3/8 to
    (2/5)/(4/5) = 1/2:

    >>> from fractions import Fraction
    >>> from prtheory.audit.images import implied_aucpr_min
    >>> from prtheory.audit.intervals import Interval
    >>> m = implied_aucpr_min(Interval(Fraction(1, 2), Fraction(3, 5)), Interval(Fraction(1, 5), Fraction(1, 5)))
    >>> m.lo, m.hi
    (Fraction(3, 8), Fraction(1, 2))
    """
    x, y = aucpr.clip(ZERO, ONE), aucnpr.clip(min(ZERO, aucnpr.lo), ONE)
    if x.is_empty() or y.is_empty():
        return None
    if y.hi >= 1:
        lo, lo_closed = ZERO, True
    else:
        lo, lo_closed = (x.lo - y.hi) / (1 - y.hi), x.lo_closed and y.hi_closed
    if y.lo >= 1:
        hi, hi_closed = ONE, True
    else:
        hi, hi_closed = (x.hi - y.lo) / (1 - y.lo), x.hi_closed and y.lo_closed
    m = Interval(lo, hi, lo_closed, hi_closed).clip(ZERO, ONE)
    return None if m.is_empty() else m
