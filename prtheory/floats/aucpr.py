"""B4, B5, B7, B8: AUCPR_min over a recall range and the normalised AUCPR, correctly rounded.

The naive formula ``1 + (1-pi)*log(1-pi)/pi`` for AUCPR_min (B4) is off by 6e-5 relative at
pi = 1e-6, negative at 1e-8 and exactly 1 at 1e-17: the sum cancels, and no ``log1p`` fixes that.
Both paths here use a cancellation-free rearrangement. With ``u = 1 - pi + pi a``,
``w = (b - a)/u`` and ``x = pi w`` (B7 rearranged),

    AUCPR_min = pi a w + ((1 - pi)/pi) phi(x),    phi(x) = x - log1p(x) >= 0,
    AUCPR_max - AUCPR_min = ((1 - pi)/pi) log1p(x)      (since b - a - pi a w = (1 - pi) w),

and every term is non-negative, so neither value cancels. For small ``x`` the second term is
``pi (1 - pi) w^2 psi(x)`` with ``psi(x) = phi(x)/x^2 = sum_k (-x)^k/(k+2)`` (over [0, 1] this is
the series X2 regrouped). ``1 - pi`` is formed exactly by 2Sum.

AUCNPR (B8) is ``(aucpr - AUCPR_min)/gap``. Its numerator cancels when ``aucpr`` is close to the
minimum; it is formed from the double-double AUCPR_min (or as ``(aucpr - (b - a)) + gap``,
whichever has the smaller terms), and its error, the bound of the larger term, is divided by the
computed numerator element by element, so that the rounding test sees the true relative bound.
Close enough to the minimum the test fails and the oracle decides.

Error bounds. Reference path (numpy, every float64 input, by exact scaling): the logarithm and
``phi`` of :mod:`prtheory.floats.logs` (``phi`` within 2**-88.8 relative), then at most ten
double-double operations on non-negative terms (16u**2 = 2**-102 each): AUCPR_min and the gap
within 2**-88.5; ``REL = 2**-86`` is used. The fused kernels of AUCPR_min and AUCNPR
(:mod:`prtheory.floats._fused`) repeat these operations element by element, without the
power-of-two scalings (exact, so the bounds are the same), inside a range where none is needed
(pi >= 2**-600, b - a >= 2**-100, and for AUCNPR a numerator of at least 2**-900), with a
table-driven logarithm within 2**-98 in place of the 2**-94 of :func:`~prtheory.floats.logs.log`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from prtheory._input import as_float_array
from prtheory.floats import _slow, _tiers
from prtheory.floats._args import result, skew_and_range
from prtheory.floats.constants import AUCPR_REL
from prtheory.floats.dd import (
    add,
    decide,
    div,
    frexp2,
    ldexp2,
    mul,
    two_prod,
    two_sum,
)
from prtheory.floats.logs import PSI, PSI_DD, SERIES_MAX, horner, log

Array = np.ndarray

#: Relative error bound of the reference path for AUCPR_min and the gap (module docstring).
REL = AUCPR_REL
#: The reference path's bounds are derived for recall ranges at least this wide (no
#: intermediate below about 2**-960, where the low word of a double-double loses bits).
TINY = 2.0**-900

Scaled = tuple[Array, Array, Array]  # (hi, lo, e): the double-double (hi + lo) 2**e


def _aucpr_min_dd(pi: Array, a: Array, b: Array) -> tuple[Scaled, Scaled]:
    """AUCPR_min over [a, b] and the gap AUCPR_max - AUCPR_min, for 0 < pi < 1 and a < b.

    With ``u = 1 - pi + pi a``, ``w = (b-a)/u`` and ``x = pi w`` (B7 rearranged):
    ``AUCPR_min = pi a w + ((1-pi)/pi) (x - log1p(x))`` and, since ``b - a - pi a w =
    (1-pi) w``, ``AUCPR_max - AUCPR_min = ((1-pi)/pi) log1p(x)``. Every term is non-negative,
    so neither value cancels. Both are returned scaled, with ``hi`` in [1/2, 1).
    """
    one = np.ones_like(pi)
    omh, oml = two_sum(one, -pi)
    uh, ul = add(omh, oml, *two_prod(pi, a))
    dh, dl, ed = frexp2(*two_sum(b, -a))
    wh, wl = div(dh, dl, uh, ul)  # w = (b-a)/u, scaled by 2**-ed
    with np.errstate(under="ignore"):
        xh, xl = ldexp2(*mul(wh, wl, pi, 0.0), ed)  # x = pi w (may underflow: harmless)
    low = [np.empty_like(pi), np.empty_like(pi), np.zeros(pi.shape, dtype=int)]
    gap = [np.empty_like(pi), np.empty_like(pi), np.zeros(pi.shape, dtype=int)]
    small = xh <= SERIES_MAX
    if np.any(small):
        s = small
        # min = pi w [a + (1-pi) w psi(x)], gap = (1-pi) w (1 - x psi(x)); w and pi scaled
        ph, pl = horner(PSI, PSI_DD, xh[s], xl[s])
        with np.errstate(under="ignore"):
            w_true = ldexp2(wh[s], wl[s], ed[s])
        th, tl = mul(*mul(omh[s], oml[s], *w_true), ph, pl)
        bh, bl = add(th, tl, a[s], 0.0)
        mp, ep = np.frexp(pi[s])
        rh, rl = mul(*mul(wh[s], wl[s], mp, 0.0), bh, bl)
        low[0][s], low[1][s], low[2][s] = rh, rl, ep + ed[s]
        qh, ql = add(1.0, 0.0, *mul(-xh[s], -xl[s], ph, pl))
        gh, gl = mul(*mul(omh[s], oml[s], wh[s], wl[s]), qh, ql)
        gap[0][s], gap[1][s], gap[2][s] = gh, gl, ed[s]
    big = ~small
    if np.any(big):
        s = big
        # here x > 1/8, so pi > 1/9 and b - a > 2**-56: no scaling needed
        w_h, w_l = ldexp2(wh[s], wl[s], ed[s])
        lh, ll = log(*add(xh[s], xl[s], 1.0, 0.0))
        ch, cl = div(omh[s], oml[s], pi[s], 0.0)
        th, tl = mul(ch, cl, *add(xh[s], xl[s], -lh, -ll))
        ah, al = mul(*mul(w_h, w_l, pi[s], 0.0), a[s], 0.0)
        low[0][s], low[1][s] = add(th, tl, ah, al)
        gap[0][s], gap[1][s] = mul(ch, cl, lh, ll)
    lh, ll, le = frexp2(low[0], low[1])
    gh, gl, ge = frexp2(gap[0], gap[1])
    return (lh, ll, low[2] + le), (gh, gl, gap[2] + ge)


def _reference_min(pi: Array, a: Array, b: Array) -> tuple[Array, Array]:
    return _tiers.within(b - a >= TINY, _min_in_range, pi, a, b)


def _min_in_range(pi: Array, a: Array, b: Array) -> tuple[Array, Array]:
    return decide(*_aucpr_min_dd(pi, a, b)[0], REL)


def _reference_aucnpr(area: Array, pi: Array, a: Array, b: Array) -> tuple[Array, Array]:
    return _tiers.within(b - a >= TINY, _aucnpr_in_range, area, pi, a, b)


def _aucnpr_in_range(area: Array, pi: Array, a: Array, b: Array) -> tuple[Array, Array]:
    (mh, ml, me), (gh, gl, ge) = _aucpr_min_dd(pi, a, b)
    # numerator aucpr - min, either directly or as (aucpr - max) + gap, whichever has the
    # smaller terms
    over_h, over_l = add(area, 0.0, *two_sum(a, -b))  # aucpr - (b - a), exact
    with np.errstate(under="ignore"):
        upper = np.abs(over_h) + np.ldexp(gh, ge) <= np.ldexp(mh, me)
    nh, nl, ne = _plus_scaled(
        np.where(upper, over_h, area),
        np.where(upper, over_l, 0.0),
        np.where(upper, gh, -mh),
        np.where(upper, gl, -ml),
        np.where(upper, ge, me),
    )
    # The numerator's error is REL of its larger term (each term's own bound, and the
    # subtraction's 3u**2), which may be far more than REL of the difference (aucpr close to
    # AUCPR_min): ``rel`` is scaled by that ratio, element by element; the gap's REL and the
    # division's 16u**2 add to it.
    with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
        big = np.where(upper, np.abs(over_h) + np.ldexp(gh, ge), np.abs(area) + np.ldexp(mh, me))
        ratio = big / np.abs(np.ldexp(nh, ne))
    unknown = (nh == 0) | ~np.isfinite(ratio)  # no relative bound: the oracle decides
    rel = np.where(unknown, 0.0, 2 * REL * (1.0 + ratio))
    y, undecided = decide(*div(nh, nl, gh, gl), ne - ge, rel)
    return y, undecided | unknown


def aucpr_min(pi: Any, a: Any = 0.0, b: Any = 1.0) -> Any:
    """Minimum AUCPR at skew ``pi`` over recalls [a, b] (B4, B7).

    ``b - a + ((1-pi)/pi) ln((pi(a-1)+1)/(pi(b-1)+1))``; over [0, 1], ``1 + (1-pi) ln(1-pi)/pi``.
    Paper convention at the end points (B5): 0 at pi = 0, ``b - a`` at pi = 1. Correctly rounded
    for every input: with numba, a table-driven fast path (:mod:`prtheory.floats._quick`,
    within 2**-72.1, for pi >= 2**-300 and b - a >= 2**-100) and then, for the elements its
    rounding test leaves, the cancellation-free form of the module docstring in the fused
    kernel (the reference path's operations without its exact scalings, for pi >= 2**-600 and
    b - a >= 2**-100) or the numpy reference path (both below 2**-88.5 relative), the rounding
    test after each, and the mpmath oracle at doubling precision where neither decides.

    Parameters
    ----------
    pi : float or array-like
        The skew, in [0, 1].
    a, b : float or array-like
        The recall range, ``0 <= a < b <= 1`` (default [0, 1]).

    Returns
    -------
    float or ndarray
        The correctly rounded AUCPR_min.

    Raises
    ------
    InvalidInputError
        ``pi``, ``a`` or ``b`` out of range.

    See Also
    --------
    aucnpr
    prtheory.oracle.aucpr_min : the value to any precision.

    Examples
    --------
    At pi = 1/2, 1 + (1/2) ln(1/2)/(1/2) = 1 - ln 2 (B4); its float64, taken from a 50-digit
    mpmath value:

    >>> import mpmath
    >>> from prtheory.floats import aucpr_min
    >>> with mpmath.workdps(50):
    ...     reference = float(1 - mpmath.log(2))
    >>> aucpr_min(0.5) == reference
    True
    """
    done = _tiers.checked("aucpr_min", (pi, a, b), _reference_min, _slow_aucpr_min)
    if done is not None:
        return done
    pi, a, b, inner = skew_and_range(pi, a, b)
    out = np.where(pi == 0, 0.0, b - a)
    _tiers.evaluate("aucpr_min", (pi, a, b), inner, out, _reference_min, _slow_aucpr_min)
    return result(out)


def _slow_aucpr_min(pi: float, a: float, b: float) -> float:
    return _slow.oracle_rounded("aucpr_min", pi, a, b)


def _slow_aucnpr(area: float, pi: float, a: float, b: float) -> float:
    return _slow.oracle_rounded("aucnpr", area, pi, a, b)


def aucnpr(aucpr: Any, pi: Any, a: Any = 0.0, b: Any = 1.0) -> Any:
    """Normalised AUCPR ``(aucpr - AUCPR_min)/(AUCPR_max - AUCPR_min)`` (B8), AUCPR_max = b - a.

    Paper convention: 0 at pi = 0, 1 at pi = 1. Correctly rounded for every input: the
    numerator's error is the bound of its larger term, so the bound passed to the rounding test
    is ``2 REL (1 + larger term / |numerator|)``, by the fast path of
    :mod:`prtheory.floats._quick` (REL = 2**-66 there), then the fused kernel (the reference
    path's operations without its scalings, module docstring) or the numpy reference path;
    near the minimum (``aucpr`` within about 2**-30 of AUCPR_min, relative) the test fails and
    the mpmath oracle decides.

    Parameters
    ----------
    aucpr : float or array-like
        An area under the PR curve.
    pi : float or array-like
        The skew, in [0, 1].
    a, b : float or array-like
        The recall range (default [0, 1]).

    Returns
    -------
    float or ndarray
        The correctly rounded AUCNPR.

    Raises
    ------
    InvalidInputError
        An argument out of range.

    See Also
    --------
    aucpr_min

    Examples
    --------
    An area of 1/2 at pi = 1/2: (1/2 - (1 - ln 2))/(1 - (1 - ln 2)) = 1 - 1/(2 ln 2); a perfect
    area of 1 normalises to 1:

    >>> import mpmath
    >>> from prtheory.floats import aucnpr
    >>> with mpmath.workdps(50):
    ...     reference = float(1 - 1 / (2 * mpmath.log(2)))
    >>> aucnpr(0.5, 0.5) == reference, aucnpr(1.0, 0.5)
    (True, 1.0)
    """
    done = _tiers.checked("aucnpr", (aucpr, pi, a, b), _reference_aucnpr, _slow_aucnpr)
    if done is not None:
        return done
    area = as_float_array(aucpr, "aucpr", 0.0, 1.0)
    pi, a, b, inner = skew_and_range(pi, a, b)
    area, pi, a, b, inner = np.broadcast_arrays(area, pi, a, b, inner)
    out = np.where(pi == 0, 0.0, 1.0)
    _tiers.evaluate("aucnpr", (area, pi, a, b), inner, out, _reference_aucnpr, _slow_aucnpr)
    return result(out)


def _plus_scaled(xh: Array, xl: Array, yh: Array, yl: Array, e: Array) -> Scaled:
    """``(xh + xl) + (yh + yl) 2**e`` as a scaled double-double, for ``|yh|`` in [1/2, 1).

    ``x 2**-e`` is formed by exact scaling; where it exceeds 2**900 in magnitude, ``x``
    dominates the other term by a factor above 2**899 and the sum is ``x`` to double-double
    precision (staying below 2**900 also keeps Dekker's splitting clear of overflow).
    """
    with np.errstate(over="ignore", under="ignore"):
        sh, sl = ldexp2(xh, xl, -e)
    huge = np.abs(sh) > 2.0**900
    sh, sl = np.where(huge, 0.0, sh), np.where(huge, 0.0, sl)
    h, lo = add(sh, sl, yh, yl)
    # the dominant x itself, scaled to [1/2, 1) too (a subnormal x would otherwise be divided
    # as it is, losing its low bits)
    xh_s, xl_s, ex = frexp2(xh, xl)
    return np.where(huge, xh_s, h), np.where(huge, xl_s, lo), np.where(huge, ex, e)
