"""Logarithms and the series of ``x - log1p(x)`` in double-double (numpy reference path).

Error bounds (u = 2**-53; each double-double operation below 16u**2, :mod:`prtheory.floats.dd`):

* :func:`log` of a positive double-double ``y = z 2**e``, ``z`` in [sqrt(1/2), sqrt(2)):
  ``ln y = e ln 2 + 2 s A(s^2)`` with ``s = (z - 1)/(z + 1)``, ``|s| <= 3 - 2 sqrt 2 < 0.172``,
  ``A(t) = sum_k t^k/(2k+1)`` truncated after 22 terms (remainder below 0.0295**22 < 2**-112 of
  ``A``). ``z - 1`` is exact (Sterbenz), ``s`` costs 2Sum, AccurateDWPlusDW and DWDivDW2, ``s^2``
  DWTimesDW1, ``A`` eleven double-double Horner steps on positive terms plus a float64 tail of
  weight below 2**-54 (the tail's own error, a few u, moves ``A`` by less than 2**-104), ``2 s A``
  DWTimesDW1: together below 40 * 16u**2 < 2**-96 relative for ``2 s A``. ``e ln 2`` is a TwoProd
  plus the low word of ln 2 (below 2**-104 relative). The final sum can cancel only when ``e``
  and ``s`` have opposite signs (``e = 1``, ``z < 1``: ``|2 s A| <= 0.347`` against ``ln 2``), by a
  factor below 3: ``log`` is within 2**-94 relative.
* :func:`phi_over` ``(x - log1p(x))/x``: for ``x <= 1/8`` the alternating series
  ``psi(x) = sum_k (-x)^k/(k+2)``, 36 terms (remainder below 2**-110), whose partial sums stay
  within a factor 1.1 of ``psi >= 0.46`` (so the alternation costs nothing beyond the 36 steps,
  18 of them in double-double and a float64 tail of weight (1/8)**18 = 2**-54): below 2**-95. For
  ``x > 1/8``: ``x - log(1 + x)`` cancels by at most ``(x + log1p x)/(x - log1p x) < 34``,
  then a DWDivDW2: below 34 * 2**-94 + 2**-101 < 2**-88 relative.
"""

from __future__ import annotations

import numpy as np

from prtheory.floats.dd import add, dd_constant, div, fast_two_sum, mul, two_prod, two_sum

Array = np.ndarray


def horner(
    coeffs: list[tuple[float, float]], low: int, xh: Array, xl: Array
) -> tuple[Array, Array]:
    """``sum_k c_k x**k``, coefficients given highest degree first.

    The ``low`` lowest-degree steps run in double-double; the higher-degree tail, whose weight
    ``x**low`` is below 2**-54 wherever it is used, in plain float64 (its relative error of a
    few 2**-53 then moves the sum by less than 2**-104).

    Parameters
    ----------
    coeffs : list of (float, float)
        Double-double coefficients, highest degree first.
    low : int
        How many lowest-degree steps run in double-double.
    xh, xl : ndarray
        The double-double ``x``.

    Returns
    -------
    tuple of ndarray
        The double-double value.

    See Also
    --------
    log, phi_over

    Examples
    --------
    ``x**2 + 2 x + 3`` at x = 2 is 11:

    >>> import numpy as np
    >>> from prtheory.floats.logs import horner
    >>> h, l = horner([(1.0, 0.0), (2.0, 0.0), (3.0, 0.0)], 1, np.array([2.0]), np.array([0.0]))
    >>> h.tolist(), l.tolist()
    ([11.0], [0.0])
    """
    tail = np.full_like(xh, coeffs[0][0])
    for ch, _ in coeffs[1 : len(coeffs) - low]:
        tail = tail * xh + ch
    sh, sl = tail, np.zeros_like(xh)
    for ch, cl in coeffs[len(coeffs) - low :]:
        sh, sl = add(*mul(sh, sl, xh, xl), ch, cl)
    return sh, sl


# psi(x) = sum_{k>=0} (-x)^k/(k+2) for 0 <= x <= 1/8: 36 terms leave < 2**-110 relative, and
# (1/8)**18 = 2**-54 lets the terms from x**18 on be summed in float64.
PSI = [dd_constant((-1) ** k, k + 2) for k in reversed(range(36))]
PSI_DD = 18
# A(t) = sum_{k>=0} t^k/(2k+1) for 0 <= t <= (3 - 2 sqrt 2)^2 < 0.0295: 22 terms, < 2**-110;
# 0.0295**11 < 2**-55, so the terms from t**11 on are summed in float64.
ATANH = [dd_constant(1, 2 * k + 1) for k in reversed(range(22))]
ATANH_DD = 11
LN2 = (float.fromhex("0x1.62e42fefa39efp-1"), float.fromhex("0x1.abc9e3b39803fp-56"))
SQRT_HALF = 0.7071067811865476
SERIES_MAX = 0.125


def log(yh: Array, yl: Array) -> tuple[Array, Array]:
    """Natural logarithm of a positive double-double, relative error O(2**-100).

    ``y = z 2**e`` with ``z`` in [sqrt(1/2), sqrt(2)); ``ln z = 2 s A(s^2)``, ``s = (z-1)/(z+1)``,
    ``|s| <= 3 - 2 sqrt 2``; ``z - 1`` is exact (Sterbenz).

    Parameters
    ----------
    yh, yl : ndarray
        A positive double-double.

    Returns
    -------
    tuple of ndarray
        ``ln y`` as a double-double.

    See Also
    --------
    phi_over

    Examples
    --------
    ln 2 to about 100 bits, against mpmath at 40 digits:

    >>> import mpmath
    >>> import numpy as np
    >>> from prtheory.floats.logs import log
    >>> h, l = log(np.array([2.0]), np.array([0.0]))
    >>> with mpmath.workdps(40):
    ...     abs(mpmath.mpf(h[0]) + mpmath.mpf(l[0]) - mpmath.log(2)) < mpmath.mpf(2) ** -100
    True
    """
    m, e = np.frexp(yh)
    low = m < SQRT_HALF
    m = np.where(low, 2 * m, m)
    e = np.where(low, e - 1, e)
    zl = np.ldexp(yl, -e)
    nh, nl = two_sum(m - 1.0, zl)
    dh, dl = add(m, zl, 1.0, 0.0)
    sh, sl = div(nh, nl, dh, dl)
    th, tl = mul(sh, sl, sh, sl)
    ah, al = horner(ATANH, ATANH_DD, th, tl)
    lh, ll = mul(sh, sl, ah, al)
    ef = e.astype(np.float64)
    kh, kl = two_prod(ef, np.full_like(ef, LN2[0]))
    kh, kl = fast_two_sum(kh, kl + ef * LN2[1])
    return add(kh, kl, 2 * lh, 2 * ll)


def phi_over(xh: Array, xl: Array) -> tuple[Array, Array]:
    """``(x - log1p(x))/x`` for a double-double ``x > 0`` (0 < x <= 2**60 or so).

    Parameters
    ----------
    xh, xl : ndarray
        A double-double ``x > 0``.

    Returns
    -------
    tuple of ndarray
        ``(x - log1p(x))/x`` as a double-double.

    See Also
    --------
    log

    Examples
    --------
    At x = 1 it is 1 - ln 2:

    >>> import mpmath
    >>> import numpy as np
    >>> from prtheory.floats.logs import phi_over
    >>> h, l = phi_over(np.array([1.0]), np.array([0.0]))
    >>> with mpmath.workdps(40):
    ...     abs(mpmath.mpf(h[0]) + mpmath.mpf(l[0]) - (1 - mpmath.log(2))) < mpmath.mpf(2) ** -100
    True
    """
    out_h, out_l = np.empty_like(xh), np.empty_like(xh)
    small = xh <= SERIES_MAX
    if np.any(small):
        ph, pl = horner(PSI, PSI_DD, xh[small], xl[small])
        out_h[small], out_l[small] = mul(ph, pl, xh[small], xl[small])
    big = ~small
    if np.any(big):
        bh, bl = xh[big], xl[big]
        lh, ll = log(*add(bh, bl, 1.0, 0.0))
        fh, fl = add(bh, bl, -lh, -ll)
        out_h[big], out_l[big] = div(fh, fl, bh, bl)
    return out_h, out_l
