"""Skew-level closed forms of PR space: exact where rational, mpmath where not.

Rational quantities (the Theorem 1 bound, AUCPR_max, AP_min, the expected AP of a random ranking,
random-guessing AUCPR) are returned as exact :class:`~fractions.Fraction` values. Transcendental
ones (AUCPR_min, AUCNPR, the skew that has a given AUCPR_min) are returned as ``mpmath.mpf`` at
``dps`` decimal digits. Inputs may be ``int``, ``Fraction``, ``float`` (taken at its exact binary
value) or ``mpf``; nothing is rounded before the first irrational operation.

Oracle contract (what :func:`prtheory.oracle.rounding.rounded` relies on): an ``mpf`` result
``v`` returned for ``dps`` digits satisfies ``|v - x| <= 2**(1-p) |x|``, where ``x`` is the true
value and ``p = prec_of_dps(dps)`` bits. Each function works at ``p`` plus guard bits, measures
the cancellation that actually occurred (the ratio of the largest term to the result), and
recomputes at a higher working precision until the rounding errors, at most a few units in the
last place of the working precision per operation, are below ``2**-(p+4)`` of the result. The
result is then rounded once to ``p`` bits.

Undefined values raise :class:`~prtheory.errors.UndefinedMetricError`; ``convention="paper"``
substitutes Boyd et al.'s values (see :mod:`prtheory.oracle.conventions`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath
from mpmath import libmp

from prtheory._input import check_count, check_recall_range, check_skew, check_unit
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle.conventions import undefined
from prtheory.oracle.digits import shown_at_dps
from prtheory.oracle.rounding import exact_rational, prec_of_dps
from prtheory.oracle.summation import rational_sum

__all__ = [
    "EXACT_HARMONIC_LIMIT",
    "ap_min",
    "aucnpr",
    "aucpr_max",
    "aucpr_min",
    "expected_random_ap",
    "harmonic_difference",
    "min_precision",
    "random_aucpr",
    "skew_from_aucpr_min",
]

#: Above this many harmonic terms, ``exact=None`` switches from exact rationals (binary
#: splitting; the denominator has about ``terms * log2(n)`` bits) to mpmath digamma values.
EXACT_HARMONIC_LIMIT = 2_000

_MAX_PREC = 1 << 17  # working-precision ceiling (bits) for the adaptive loops


def _mpf(q: Fraction) -> mpmath.mpf:
    """``q`` rounded once to the current working precision."""
    return mpmath.mp.make_mpf(libmp.from_rational(q.numerator, q.denominator, mpmath.mp.prec, "n"))


def _final(value: Any, prec: int) -> mpmath.mpf:
    """``value`` (mpf or exact rational) rounded once to ``prec`` bits."""
    with mpmath.workprec(prec):
        return _mpf(value) if isinstance(value, Fraction) else +value


def _by_convention(
    quantity: str, reason: str, convention: str | None, paper: Fraction, prec: int
) -> mpmath.mpf:
    """Raise for an undefined value, or return the paper's value (the only convention here)."""
    return _final(undefined(quantity, reason, convention, {"paper": paper}), prec)


def _log2(x: mpmath.mpf) -> int:
    """An upper bound for log2|x| (x != 0), from the binary exponent: cheap and exact."""
    return int(mpmath.mag(x))


# ---------------------------------------------------------------------------------------------
# B1, B7, B9: rational bounds


def min_precision(r: Any, pi: Any) -> Fraction:
    """Least precision achievable at recall ``r`` and skew ``pi`` (B1, Theorem 1).

    ``pi r / (1 - pi + pi r)``, exactly.

    Parameters
    ----------
    r : int, Fraction, float or mpf
        Recall in [0, 1] (a float is taken at its exact binary value).
    pi : int, Fraction, float or mpf
        Skew, the fraction of positives, in [0, 1].

    Returns
    -------
    Fraction
        The least precision, exactly.

    Raises
    ------
    InvalidInputError
        ``r`` or ``pi`` outside [0, 1], or not a number.
    UndefinedMetricError
        At ``pi = 1`` and ``r = 0`` (0/0: every example is positive and none is predicted).

    See Also
    --------
    prtheory.min_precision : the same bound as a correctly rounded float64, vectorised.
    aucpr_min : the area under this bound.

    Examples
    --------
    By hand: ``(1/2)(1/4) / (1 - 1/2 + (1/2)(1/4)) = (1/8)/(5/8) = 1/5``.

    >>> from fractions import Fraction
    >>> from prtheory.oracle import min_precision
    >>> min_precision(Fraction(1, 4), Fraction(1, 2))
    Fraction(1, 5)
    """
    r_q = exact_rational(check_unit(r, "r"), "r")
    pi_q = exact_rational(check_skew(pi), "pi")
    den = 1 - pi_q + pi_q * r_q
    if den == 0:
        raise UndefinedMetricError("min_precision", "r = 0 at pi = 1 gives 0/0")
    return pi_q * r_q / den


def aucpr_max(a: Any = 0, b: Any = 1) -> Fraction:
    """Largest AUCPR over recalls [a, b]: ``b - a`` (B7), exactly.

    Parameters
    ----------
    a, b : int, Fraction, float or mpf
        The recall range, ``0 <= a <= b <= 1`` (default [0, 1]).

    Returns
    -------
    Fraction
        ``b - a``: precision 1 at every recall.

    Raises
    ------
    InvalidInputError
        ``a`` or ``b`` outside [0, 1], or ``a > b``.

    See Also
    --------
    aucpr_min : the least AUCPR over the same range.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from prtheory.oracle import aucpr_max
    >>> aucpr_max(Fraction(1, 4))
    Fraction(3, 4)
    """
    a, b = check_recall_range(a, b)
    return exact_rational(b, "b") - exact_rational(a, "a")


def random_aucpr(pi: Any) -> Fraction:
    """AUCPR of random guessing at skew ``pi``: precision ``pi`` at every recall, area ``pi`` (B9).

    Parameters
    ----------
    pi : int, Fraction, float or mpf
        Skew, the fraction of positives, in [0, 1].

    Returns
    -------
    Fraction
        ``pi``, exactly (a float at its exact binary value).

    Raises
    ------
    InvalidInputError
        ``pi`` outside [0, 1], or not a number.

    See Also
    --------
    expected_random_ap : the expected AP of a random ranking of a finite sample.

    Examples
    --------
    >>> from prtheory.oracle import random_aucpr
    >>> random_aucpr(0.25)
    Fraction(1, 4)
    """
    return exact_rational(check_skew(pi), "pi")


# ---------------------------------------------------------------------------------------------
# B4, B5, B7, B8: AUCPR_min and AUCNPR


def _skew_and_range(pi: Any, a: Any, b: Any) -> tuple[Fraction, Fraction, Fraction]:
    pi = check_skew(pi)
    a, b = check_recall_range(a, b)
    pi_q, a_q, b_q = (exact_rational(v, n) for v, n in ((pi, "pi"), (a, "a"), (b, "b")))
    if a_q == b_q:
        raise UndefinedMetricError("AUCPR_min", f"the recall range [a, b] = [{a}, {b}] is empty")
    return pi_q, a_q, b_q


def _aucpr_min_mp(pi: Fraction, a: Fraction, b: Fraction, prec: int) -> mpmath.mpf:
    """AUCPR_min over [a, b] for 0 < pi < 1, a < b, with relative error <= 2**-(prec+4).

    The direct formula of B7, ``d + c ln(u/v)`` with ``d = b - a``, ``c = (1-pi)/pi``,
    ``u = 1 - pi (1-a)``, ``v = 1 - pi (1-b)``; ``u/v`` and ``u/v - 1 = -pi d / v`` are exact
    rationals, and the logarithm is taken as ``log1p(-pi d/v)`` when ``|u/v - 1| < 1/2`` and
    ``log(u/v)`` otherwise, so that it is well conditioned (condition number < 1.5) either way.
    The sum ``d + c L`` cancels (by a factor of about ``2/pi`` at small pi); the working
    precision is raised until ``2**(4-wp) (|d| + |c L|) <= 2**-(prec+8) |result|``.
    """
    d = b - a
    c = (1 - pi) / pi
    v = 1 - pi * (1 - b)
    ratio = (1 - pi * (1 - a)) / v
    x = -pi * d / v
    wp = prec + 30 + max(0, -_log2(_mpf(pi)))
    while True:
        with mpmath.workprec(wp):
            log = mpmath.log1p(_mpf(x)) if x > Fraction(-1, 2) else mpmath.log(_mpf(ratio))
            term = _mpf(c) * log
            result = _mpf(d) + term
            big = abs(_mpf(d)) + abs(term)
        if result > 0 and _log2(big) - _log2(result) + 1 <= wp - prec - 12:
            return result
        if wp > _MAX_PREC:
            raise ArithmeticError(f"AUCPR_min({pi}, {a}, {b}) needs more than {_MAX_PREC} bits")
        wp *= 2


@shown_at_dps
def aucpr_min(
    pi: Any, a: Any = 0, b: Any = 1, *, dps: int = 50, convention: str | None = None
) -> mpmath.mpf:
    """Minimum AUCPR at skew ``pi`` over recalls [a, b] (B4; B7 for a sub-range).

    ``AUCPR_min = b - a + ((1-pi)/pi) ln((pi(a-1)+1)/(pi(b-1)+1))``; over [0, 1] this is
    ``1 + (1-pi) ln(1-pi)/pi`` (B4). Returned as an ``mpf`` at ``dps`` digits under the oracle
    contract (module docstring), with working precision raised as needed to beat the
    cancellation near ``pi -> 0`` (B5, X2).

    Parameters
    ----------
    pi : int, Fraction, float or mpf
        Skew, the fraction of positives, in [0, 1].
    a, b : int, Fraction, float or mpf
        The recall range, ``0 <= a < b <= 1`` (default [0, 1]).
    dps : int
        Decimal digits of the result (default 50); it prints at these digits.
    convention : {None, "paper"}
        ``"paper"`` gives the limits at ``pi = 0`` and ``pi = 1``: 0 and ``b - a`` (B5).

    Returns
    -------
    mpmath.mpf
        AUCPR_min, with relative error at most ``2**(1 - prec_of_dps(dps))``.

    Raises
    ------
    UndefinedMetricError
        At ``pi = 0`` or ``pi = 1`` without ``convention="paper"`` (0/0), and for ``a == b``.
    InvalidInputError
        An argument outside its range, or not a number.

    See Also
    --------
    prtheory.aucpr_min : the correctly rounded float64, vectorised.
    aucnpr : AUCPR normalised between this minimum and the maximum.
    skew_from_aucpr_min : the inverse over [0, 1].

    Examples
    --------
    By hand: at ``pi = 1/2`` over [0, 1], ``1 + (1/2) ln(1/2) / (1/2) = 1 - ln 2``.

    >>> from fractions import Fraction
    >>> from prtheory.oracle import aucpr_min
    >>> print(aucpr_min(Fraction(1, 2), dps=20))
    0.30685281944005469058
    >>> aucpr_min(0, convention="paper")
    mpf('0.0')
    """
    prec = prec_of_dps(dps)
    pi_q, a_q, b_q = _skew_and_range(pi, a, b)
    if pi_q in (0, 1):
        paper = Fraction(0) if pi_q == 0 else b_q - a_q
        return _by_convention(
            "AUCPR_min", f"the formula is 0/0 at pi = {pi_q}", convention, paper, prec
        )
    return _final(_aucpr_min_mp(pi_q, a_q, b_q, prec), prec)


@shown_at_dps
def aucnpr(
    aucpr: Any,
    pi: Any,
    a: Any = 0,
    b: Any = 1,
    *,
    dps: int = 50,
    convention: str | None = None,
) -> mpmath.mpf:
    """Normalised AUCPR ``(AUCPR - AUCPR_min)/(AUCPR_max - AUCPR_min)`` (B8).

    ``aucpr`` is taken exactly. AUCPR_min is evaluated at whatever precision makes the
    subtraction ``aucpr - AUCPR_min`` accurate (it cancels when ``aucpr`` is close to the
    minimum; the loop ends because AUCPR_min is transcendental for rational ``pi`` in (0, 1)
    and never equals a rational ``aucpr``). A value of ``aucpr`` below AUCPR_min (an unachievable
    curve) gives a negative result; it is not clipped.

    Parameters
    ----------
    aucpr : int, Fraction, float or mpf
        The area to normalise, in [0, 1], taken exactly.
    pi : int, Fraction, float or mpf
        Skew, the fraction of positives, in [0, 1].
    a, b : int, Fraction, float or mpf
        The recall range of the area, ``0 <= a < b <= 1`` (default [0, 1]).
    dps : int
        Decimal digits of the result (default 50).
    convention : {None, "paper"}
        ``"paper"`` gives 0 at ``pi = 0`` and 1 at ``pi = 1`` (Boyd et al. §4).

    Returns
    -------
    mpmath.mpf
        AUCNPR under the oracle contract; negative for an ``aucpr`` below AUCPR_min.

    Raises
    ------
    UndefinedMetricError
        At ``pi = 0`` or ``pi = 1`` without ``convention="paper"`` (AUCPR_max = AUCPR_min).
    InvalidInputError
        An argument outside its range, or not a number.

    See Also
    --------
    aucpr_min, aucpr_max : the two ends of the normalisation.
    prtheory.aucnpr : the correctly rounded float64, vectorised.

    Examples
    --------
    By hand: at ``pi = 1/2``, AUCPR_min is ``1 - ln 2``, so an area of 1/2 normalises to
    ``(1/2 - 1 + ln 2)/(1 - 1 + ln 2) = 1 - 1/(2 ln 2)``.

    >>> from fractions import Fraction
    >>> from prtheory.oracle import aucnpr
    >>> print(aucnpr(Fraction(1, 2), Fraction(1, 2), dps=20))
    0.27865247955551829632
    """
    prec = prec_of_dps(dps)
    area = exact_rational(check_unit(aucpr, "aucpr"), "aucpr")
    pi_q, a_q, b_q = _skew_and_range(pi, a, b)
    if pi_q in (0, 1):
        reason = f"AUCPR_max = AUCPR_min at pi = {pi_q}"
        return _by_convention("AUCNPR", reason, convention, Fraction(int(pi_q)), prec)
    top = b_q - a_q
    wp = prec + 20
    while True:
        low = _aucpr_min_mp(pi_q, a_q, b_q, wp)
        with mpmath.workprec(wp + 10):
            num = _mpf(area) - low
            den = _mpf(top) - low
            result = num / den
        # low has relative error <= 2**-(wp+4); num and den must each be accurate to 2**-(prec+6)
        if num != 0 and _log2(low) - min(_log2(num), _log2(den)) <= wp - prec - 12:
            return _final(result, prec)
        if wp > _MAX_PREC:
            raise ArithmeticError(f"AUCNPR({aucpr}, {pi}) needs more than {_MAX_PREC} bits")
        wp *= 2


@shown_at_dps
def skew_from_aucpr_min(value: Any, *, dps: int = 50, convention: str | None = None) -> mpmath.mpf:
    """The skew ``pi`` whose AUCPR_min over [0, 1] equals ``value`` (inverse of B4).

    AUCPR_min is strictly increasing in pi (B5) and, from the series X2,
    ``pi/2 <= AUCPR_min(pi) <= pi``; so the root lies in ``[value, min(2 value, 1)]``. Bisection
    on that bracket, with AUCPR_min evaluated 16 bits beyond the target precision, halves the
    relative bracket width each step until it is below ``2**-(p+2)``. ``value`` 0 and 1 are the
    images of pi = 0 and 1 only under the paper's convention, so they need
    ``convention="paper"``.

    Parameters
    ----------
    value : int, Fraction, float or mpf
        An AUCPR_min over [0, 1], in [0, 1].
    dps : int
        Decimal digits of the result (default 50).
    convention : {None, "paper"}
        ``"paper"`` maps 0 and 1 to the skews 0 and 1.

    Returns
    -------
    mpmath.mpf
        The skew, under the oracle contract.

    Raises
    ------
    UndefinedMetricError
        ``value`` 0 or 1 without ``convention="paper"``.
    InvalidInputError
        ``value`` outside [0, 1], or not a number.

    See Also
    --------
    aucpr_min : the function this inverts.

    Examples
    --------
    The skew whose least AUCPR is ``1 - ln 2`` is 1/2 (see :func:`aucpr_min`):

    >>> from fractions import Fraction
    >>> from prtheory.oracle import aucpr_min, skew_from_aucpr_min
    >>> skew_from_aucpr_min(aucpr_min(Fraction(1, 2), dps=30), dps=20)
    mpf('0.5')
    """
    prec = prec_of_dps(dps)
    target = exact_rational(check_unit(value, "value"), "value")
    if target in (0, 1):
        reason = f"AUCPR_min = {target} only at pi = {target}, where it is defined by convention"
        return _by_convention("skew_from_aucpr_min", reason, convention, target, prec)
    lo, hi = target, min(2 * target, Fraction(1))
    wp = prec + 16
    with mpmath.workprec(wp):
        goal = _mpf(target)
    while (hi - lo) > lo / (1 << (prec + 2)):
        mid = (lo + hi) / 2
        if _aucpr_min_mp(mid, Fraction(0), Fraction(1), wp) < goal:
            lo = mid
        else:
            hi = mid
        # keep the bracket's end points short: round them to wp bits (they stay a bracket
        # up to 2**-wp relative, far below the final tolerance)
        lo, hi = (exact_rational(_final(e, wp)) for e in (lo, hi))
    return _final((lo + hi) / 2, prec)


# ---------------------------------------------------------------------------------------------
# B6, X1, X3: AP_min and the expected AP of a random ranking


def _harmonic_sum_exact(lo: int, hi: int) -> Fraction:
    """``sum_{j=lo}^{hi} 1/j`` exactly (a balanced-tree rational sum)."""
    return rational_sum([1] * max(hi - lo + 1, 0), range(lo, hi + 1))


@shown_at_dps
def harmonic_difference(n: int, m: int, *, exact: bool | None = None, dps: int = 50) -> Any:
    """``H_m - H_n = sum_{j=n+1}^{m} 1/j`` for integers ``0 <= n <= m``.

    Exact (``Fraction``) when ``exact`` is True, or when it is None and ``m - n`` is at most
    :data:`EXACT_HARMONIC_LIMIT`; otherwise ``psi(m+1) - psi(n+1)`` in mpmath (X3), with the
    working precision raised by the cancellation between the two digamma values.

    Parameters
    ----------
    n, m : int
        ``0 <= n <= m``.
    exact : bool or None
        True: a ``Fraction``; False: an ``mpf``; None (default): exact up to
        :data:`EXACT_HARMONIC_LIMIT` terms.
    dps : int
        Decimal digits of an ``mpf`` result (default 50).

    Returns
    -------
    Fraction or mpmath.mpf
        ``H_m - H_n``.

    Raises
    ------
    InvalidInputError
        ``n`` or ``m`` not a non-negative integer, or ``n > m``.

    See Also
    --------
    ap_min : written with this difference (X3).

    Examples
    --------
    By hand: ``H_4 - H_2 = 1/3 + 1/4 = 7/12``.

    >>> from prtheory.oracle import harmonic_difference
    >>> harmonic_difference(2, 4)
    Fraction(7, 12)
    """
    n = check_count(n, "n")
    m = check_count(m, "m")
    if m < n:
        raise InvalidInputError("n, m", f"need n <= m, got n={n} > m={m}")
    if exact or (exact is None and m - n <= EXACT_HARMONIC_LIMIT):
        return _harmonic_sum_exact(n + 1, m)
    return _final(_harmonic_difference_mp(n, m, prec_of_dps(dps) + 8), prec_of_dps(dps))


def _harmonic_difference_mp(n: int, m: int, prec: int) -> mpmath.mpf:
    """``psi(m+1) - psi(n+1)`` with relative error <= 2**-(prec+4) (m > n)."""
    wp = prec + 20
    while True:
        with mpmath.workprec(wp):
            hi = mpmath.digamma(m + 1)
            diff = hi - mpmath.digamma(n + 1)
        if diff > 0 and _log2(hi) + 1 - _log2(diff) <= wp - prec - 12:
            return diff
        wp *= 2


def _counts(pos: Any, neg: Any, quantity: str) -> tuple[int, int]:
    pos = check_count(pos, "pos")
    neg = check_count(neg, "neg")
    if pos == 0:
        raise UndefinedMetricError(quantity, "there are no positives (pos = 0)")
    return pos, neg


@shown_at_dps
def ap_min(pos: Any, neg: Any, *, exact: bool | None = None, dps: int = 50) -> Any:
    """Least average precision of any ranking of ``pos`` positives and ``neg`` negatives (B6).

    ``AP_min = (1/pos) sum_{i=1}^{pos} i/(i+neg) = 1 - (neg/pos)(H_{pos+neg} - H_neg)`` (X3).
    Returned as an exact ``Fraction`` when ``exact`` is True, or when it is None and
    ``pos <= EXACT_HARMONIC_LIMIT``; otherwise as an ``mpf`` at ``dps`` digits, through
    :func:`harmonic_difference` (digamma), with the working precision raised by the cancellation
    in ``1 - (neg/pos) (...)``, about ``log2(2 neg/(pos+1))`` bits.

    Parameters
    ----------
    pos, neg : int
        The numbers of positives and negatives (non-negative integers).
    exact : bool or None
        True: a ``Fraction``; False: an ``mpf``; None (default): exact up to
        :data:`EXACT_HARMONIC_LIMIT` positives.
    dps : int
        Decimal digits of an ``mpf`` result (default 50).

    Returns
    -------
    Fraction or mpmath.mpf
        The AP of the ranking with every negative first.

    Raises
    ------
    UndefinedMetricError
        ``pos = 0`` (no positive: AP is 0/0).
    InvalidInputError
        A count that is not a non-negative integer.

    See Also
    --------
    prtheory.ap_min : the correctly rounded float64, vectorised.
    expected_random_ap : the AP expected of a random ranking.

    Examples
    --------
    By hand: the ranking ``- - + +`` has precisions 1/3 and 2/4 at its positives, so
    ``AP_min = (1/3 + 1/2)/2 = 5/12``.

    >>> from prtheory.oracle import ap_min
    >>> ap_min(2, 2)
    Fraction(5, 12)
    """
    pos, neg = _counts(pos, neg, "AP_min")
    if exact or (exact is None and pos <= EXACT_HARMONIC_LIMIT):
        return 1 - Fraction(neg, pos) * _harmonic_sum_exact(neg + 1, neg + pos)
    prec = prec_of_dps(dps)
    wp = prec + 20
    while True:
        diff = _harmonic_difference_mp(neg, neg + pos, wp)
        with mpmath.workprec(wp):
            result = 1 - neg * diff / pos
        if result > 0 and 1 - _log2(result) <= wp - prec - 12:
            return _final(result, prec)
        wp *= 2


@shown_at_dps
def expected_random_ap(pos: Any, neg: Any, *, exact: bool | None = None, dps: int = 50) -> Any:
    """Expected AP of a uniformly random ranking of ``pos`` positives and ``neg`` negatives (X1).

    With ``N = pos + neg``: a positive at rank ``k`` has precision ``(1 + #positives above)/k``,
    and given that rank the other ``pos - 1`` positives fill the other ``N - 1`` ranks uniformly,
    so ``E[#positives above] = (k-1)(pos-1)/(N-1)``. Averaging over ``k`` (each rank holds a
    positive with probability ``pos/N``)::

        E[AP] = (1/N) sum_k [1/k + (pos-1)(k-1)/((N-1) k)]
              = (pos-1)/(N-1) + neg H_N / (N (N-1))          (N >= 2),

    and 1 when ``neg = 0``. Both terms are non-negative, so there is no cancellation. Exact
    ``Fraction`` when ``exact`` is True, or when None and ``N <= EXACT_HARMONIC_LIMIT``;
    otherwise an ``mpf`` from ``H_N = psi(N+1) + gamma``.

    Parameters
    ----------
    pos, neg : int
        The numbers of positives and negatives (non-negative integers).
    exact : bool or None
        True: a ``Fraction``; False: an ``mpf``; None (default): exact up to
        :data:`EXACT_HARMONIC_LIMIT` items.
    dps : int
        Decimal digits of an ``mpf`` result (default 50).

    Returns
    -------
    Fraction or mpmath.mpf
        The expected AP over the ``(pos + neg)!`` rankings, equally likely.

    Raises
    ------
    UndefinedMetricError
        ``pos = 0`` (no positive: AP is 0/0).
    InvalidInputError
        A count that is not a non-negative integer.

    See Also
    --------
    ap_min : the least AP of the same counts.
    random_aucpr : the skew, the limit for many items.

    Examples
    --------
    By hand: one positive and one negative, the positive first (AP 1) or second (AP 1/2) with
    equal probability: ``E[AP] = 3/4``.

    >>> from prtheory.oracle import expected_random_ap
    >>> expected_random_ap(1, 1)
    Fraction(3, 4)
    """
    pos, neg = _counts(pos, neg, "expected random AP")
    if neg == 0:
        return Fraction(1)
    total = pos + neg
    if exact or (exact is None and total <= EXACT_HARMONIC_LIMIT):
        h = _harmonic_sum_exact(1, total)
        return Fraction(pos - 1, total - 1) + neg * h / (total * (total - 1))
    prec = prec_of_dps(dps)
    with mpmath.workprec(prec + 20):
        h = mpmath.digamma(total + 1) + mpmath.euler
        result = mpmath.mpf(pos - 1) / (total - 1) + neg * h / (mpmath.mpf(total) * (total - 1))
    return _final(result, prec)
