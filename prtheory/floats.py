"""Float64 closed forms of PR space, correctly rounded for every input.

Every function is vectorised: arguments are scalars or arrays that broadcast together; scalar
arguments give a Python ``float``, array arguments a float64 array. Arguments are validated by
:mod:`prtheory._input` (NaN and out-of-domain values raise
:class:`~prtheory.errors.InvalidInputError` naming the argument and the first bad index).

How the accuracy is obtained
----------------------------
The naive formula ``1 + (1-pi)*log(1-pi)/pi`` for AUCPR_min (B4) is off by 6e-5 relative at
pi = 1e-6, negative at 1e-8 and exactly 1 at 1e-17: the sum cancels, and no ``log1p`` fixes that.
Here every quantity is computed in double-double arithmetic (an unevaluated sum ``hi + lo`` of two
float64s, about 106 significant bits; Dekker's and Knuth's error-free TwoProduct and TwoSum,
which need no FMA) on cancellation-free rearrangements, then rounded once:

* AUCPR_min over [a, b] (B4, B7) is rewritten without cancellation as
  ``pi a w + ((1-pi)/pi) phi(x)`` with ``u = 1 - pi + pi a``, ``w = (b-a)/u``, ``x = pi w`` and
  ``phi(x) = x - log1p(x) >= 0``. Both terms are non-negative. For ``x <= 1/8`` the second term
  is ``pi (1-pi) w^2 psi(x)`` with the alternating series ``psi(x) = sum_k (-x)^k/(k+2)``
  (over [0, 1] this is the series X2 regrouped); for larger ``x`` a double-double logarithm
  (argument reduction to [sqrt(1/2), sqrt(2)) and the atanh series) gives ``phi``.
  ``1 - pi`` is formed exactly by TwoSum (for pi >= 1/2 it is exact anyway, by Sterbenz).
* AUCNPR (B8) uses the same rearrangement for the gap: since ``b - a - pi a w = (1-pi) w``,
  ``AUCPR_max - AUCPR_min = ((1-pi)/pi) log1p(x)``, free of cancellation even as pi -> 1. The
  numerator ``aucpr - AUCPR_min`` is formed directly or as ``(aucpr - (b - a)) + gap``, whichever
  has the smaller terms.
* AP_min (B6, X3) uses the direct sum for ``pos <= 32``; otherwise, with ``t = pos/neg``,
  ``AP_min = phi(t)/t + 1/(2(pos+neg)) + C`` from the digamma asymptotic expansion, where the
  Bernoulli correction ``C`` is below 1% of the result and cancellation-free through
  ``expm1(-2k log1p(t))``; for ``neg < 32``, ``1 - (neg/pos)(H_{pos+neg} - H_neg)`` with a table
  of ``H_0..H_31`` and the asymptotic ``H_N``.
* Rational quantities (min_precision, gains, F-beta) are one double-double expression each, with
  the arguments scaled by powers of two so that no intermediate product underflows.

Correct rounding: a fast path, a rounding test, a slow path
----------------------------------------------------------
Each fast path returns its double-double value ``v`` with a bound ``rel`` on its relative error
(see ``_DD_REL``: the per-operation bounds of Joldes, Muller and Popescu for double-double
addition, multiplication and division, times the number of operations on same-signed terms, is
below 2**-96; 2**-90 is used). Parts evaluated in float64 (the Bernoulli tails of AP_min and
H_n) and AUCNPR's numerator ``aucpr - AUCPR_min``, which cancels near the minimum, add their own
error terms element by element. The rounding test (Ziv) rounds both ends of ``v (1 -+ 2 rel)``;
where they agree, that float is the correctly rounded value, since rounding is monotone.
Where they differ -- the true value lies within ``2 rel`` of a midpoint, or exactly on one --
the element goes to the slow path: the oracle (:mod:`prtheory.oracle.closed_forms`) at its exact
value, which is an exact ``Fraction`` for the rational functions (F-beta, gains, min_precision,
and AP_min / expected AP up to 2000 terms), rounded once with ties to even, and an mpmath
evaluation at doubling precision (:func:`prtheory.oracle.rounding.rounded`) for AUCPR_min and
AUCNPR, which are transcendental for 0 < pi < 1 and so never on a boundary; AP_min with more
terms uses the digamma form at up to 2000 digits, then the exact sum. Elements outside the range
where the bounds were derived (a recall range narrower than 2**-900, F-beta with beta outside
[2**-400, 2**400]) skip the fast path. Exact zeros are formed exactly (``x - pi`` by TwoSum, a
zero factor), so a zero double-double is a true zero. For example ``aucpr_min(5e-324)``, whose
true value exceeds the midpoint between 0 and 5e-324 by a relative 1e-324, goes to the slow
path and gives 5e-324. ``python benchmarks/accuracy.py`` checks 10**6 points per function,
among them exact midpoints and subnormal cases, against rigorous Arb references
(``reports/accuracy.md``).

Conventions at the end points (documented, never NaN)
-----------------------------------------------------
* ``aucpr_min``: 0 at pi = 0 and ``b - a`` (1 over [0, 1]) at pi = 1 -- Boyd et al.'s convention
  (B5), the limits of the formula. ``a == b`` raises :class:`UndefinedMetricError`.
* ``aucnpr``: 0 at pi = 0 and 1 at pi = 1 (Boyd et al. §4, B8).
* ``precision_gain``, ``recall_gain``, ``fbeta_gain``: ``-inf`` at value 0 when pi > 0 (the
  limit); :class:`UndefinedMetricError` at pi = 1 (0/0 or division by 1 - pi = 0) and at
  value 0 with pi = 0.
* ``fbeta``: 0 at p = r = 0 (the limit of the weighted harmonic mean, and the value from counts
  with TP = 0 < FP + FN).
* ``min_precision``: :class:`UndefinedMetricError` at r = 0 with pi = 1 (0/0).
* ``ap_min`` and ``expected_random_ap``: :class:`UndefinedMetricError` when ``pos = 0``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from prtheory._input import as_count_array, as_float_array
from prtheory.errors import InvalidInputError, UndefinedMetricError

__all__ = [
    "ap_min",
    "aucnpr",
    "aucpr_min",
    "expected_random_ap",
    "fbeta",
    "fbeta_gain",
    "min_precision",
    "precision_gain",
    "recall_gain",
]

Array = np.ndarray

# ---------------------------------------------------------------------------------------------
# double-double arithmetic (Dekker 1971; Knuth TAOCP 4.2.2; Bailey's QD library)

_SPLITTER = 134217729.0  # 2**27 + 1


def _two_sum(a: Array, b: Array) -> tuple[Array, Array]:
    """``s + e == a + b`` exactly, ``s = fl(a + b)`` (Knuth)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _fast_two_sum(a: Array, b: Array) -> tuple[Array, Array]:
    """``s + e == a + b`` exactly when ``|a| >= |b|`` or ``a == 0`` (Dekker)."""
    s = a + b
    return s, b - (s - a)


def _split(a: Array) -> tuple[Array, Array]:
    c = _SPLITTER * a
    hi = c - (c - a)
    return hi, a - hi


def _two_prod(a: Array, b: Array) -> tuple[Array, Array]:
    """``p + e == a * b`` exactly (Dekker), barring overflow and underflow of ``e``."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _add(ah: Array, al: Array, bh: Array, bl: Array) -> tuple[Array, Array]:
    """Double-double sum, relative error O(2**-104) (QD's IEEE-style addition)."""
    s, e = _two_sum(ah, bh)
    t, f = _two_sum(al, bl)
    s, e = _fast_two_sum(s, e + t)
    return _fast_two_sum(s, e + f)


def _mul(ah: Array, al: Array, bh: Array, bl: Array) -> tuple[Array, Array]:
    """Double-double product, relative error O(2**-104)."""
    p, e = _two_prod(ah, bh)
    return _fast_two_sum(p, e + (ah * bl + al * bh))


def _div(ah: Array, al: Array, bh: Array, bl: Array) -> tuple[Array, Array]:
    """Double-double quotient (three quotient digits), relative error O(2**-104)."""
    q1 = ah / bh
    ph, pl = _mul(bh, bl, q1, 0.0)
    rh, rl = _add(ah, al, -ph, -pl)
    q2 = rh / bh
    ph, pl = _mul(bh, bl, q2, 0.0)
    rh, rl = _add(rh, rl, -ph, -pl)
    q3 = rh / bh
    q1, q2 = _fast_two_sum(q1, q2)
    return _add(q1, q2, q3, 0.0)


def _ldexp2(h: Array, lo: Array, e: Array) -> tuple[Array, Array]:
    return np.ldexp(h, e), np.ldexp(lo, e)


def _frexp2(h: Array, lo: Array) -> tuple[Array, Array, Array]:
    """Scale a double-double to ``hi`` in [1/2, 1) (or 0): returns ``hi, lo, exponent``."""
    _, e = np.frexp(h)
    hs, ls = _ldexp2(h, lo, -e)
    return hs, ls, e


def _round(h: Array, lo: Array, e: Array | int = 0) -> Array:
    """The float64 nearest to ``(h + lo) 2**e`` for a normalised double-double ``h + lo``.

    In the normal range this is ``h 2**e``: ``h`` is already the rounding of ``h + lo``, and
    scaling by a power of two is exact (overflow gives ``±inf``, the correct rounding). Results
    below 2**-1022 would be rounded twice that way, so those (rare) elements are rounded once,
    exactly, in integers: ``round((h + lo) 2**(e + 1074))`` ties to even, times 2**-1074.
    """
    e = np.asarray(e)
    with np.errstate(over="ignore", under="ignore"):
        y = np.ldexp(h, e)
    tiny = (h != 0) & (np.abs(y) <= 2.0**-1022)
    if np.any(tiny):
        y = np.array(y, copy=True)
        hs, ls, es = (np.broadcast_to(v, y.shape)[tiny] for v in (h, lo, e))
        y[tiny] = [
            math.ldexp(round((Fraction(a) + Fraction(b)) * Fraction(2) ** (int(k) + 1074)), -1074)
            for a, b, k in zip(hs.tolist(), ls.tolist(), es.tolist(), strict=True)
        ]
    return y


# Rounding test (Ziv). Every fast path below returns, besides its double-double value
# ``v = (h + lo) 2**e``, a bound ``rel`` with ``|v - x| <= rel |h| 2**e`` for the true value ``x``.
# Each double-double operation has relative error at most 3u**2 (addition), 7u**2
# (multiplication) and 15u**2 (division), u = 2**-53 (Joldes, Muller & Popescu, ACM TOMS 44,
# 2017; the three-digit division here is at least as accurate as their DWDivDW); every path
# chains at most 40 of them on terms of one sign, and the series are truncated below 2**-110, so
# its relative error is below 40 * 15 u**2 + 2**-110 < 2**-96. ``_DD_REL = 2**-90`` keeps a factor
# of 64 of margin; ``benchmarks/accuracy.py`` measures the largest error actually reached.
# Parts evaluated in plain float64, and differences of rounded terms (AUCNPR's numerator), add
# their own, larger terms to ``rel`` element by element.
_DD_REL = 2.0**-90
#: Elements whose arguments fall outside the range where those bounds were derived (no
#: intermediate below about 2**-960, where the low word of a double-double loses bits) skip the
#: fast path.
_TINY = 2.0**-900


def _decide(h: Array, lo: Array, e: Array | int, rel: Array | float) -> tuple[Array, Array]:
    """Correctly rounded float64 of ``x``, known only to lie within ``rel |h| 2**e`` of
    ``(h + lo) 2**e``: returns the rounding and a mask of the undecided elements.

    The ends of the interval are ``(h + (lo -+ r)) 2**e`` with ``r = 2 rel |h|`` (the factor 2
    absorbs the rounding of ``lo -+ r``, at most ``2**-53 |lo -+ r| < rel |h|``, so the computed
    ends enclose the interval). ``fl(h + t)`` is the correctly rounded sum, and :func:`_round`
    rounds once (exactly in the subnormal range); rounding is monotone, so when both ends round to
    the same float, so does ``x``. An element with ``h = 0`` is exactly 0 (each fast path forms a
    zero result exactly).
    """
    r = 2.0 * np.asarray(rel) * np.abs(h)
    y_lo = _round(*_fast_two_sum(h, lo - r), e)
    y_hi = _round(*_fast_two_sum(h, lo + r), e)
    return y_lo, y_lo != y_hi


def _settle(out: Array, where: Array, y: Array, undecided: Array, slow: Any, *args: Array) -> None:
    """Store the fast results ``y`` at ``out[where]``, and ``slow(*scalars)`` at the undecided
    elements (``args`` are the full-shape arguments; ``slow`` returns the correctly rounded
    float64 from the oracle)."""
    out[where] = y
    redo = np.zeros(out.shape, dtype=bool)
    redo[where] = undecided
    _slow_fill(out, redo, slow, *args)


def _slow_fill(out: Array, redo: Array, slow: Any, *args: Array) -> None:
    for idx in map(tuple, np.argwhere(redo)):
        out[idx] = slow(*(float(a[idx]) for a in args))


def _dd_constant(num: int, den: int) -> tuple[float, float]:
    """``num/den`` as a double-double: ``hi`` correctly rounded, ``lo`` the rounded remainder."""
    hi = num / den  # correctly rounded (CPython's int/int true division)
    # remainder num/den - hi = (num - hi*den)/den, exact in integers
    m, ex = np.frexp(hi)
    mant, exp2 = int(m * 2**53), int(ex) - 53
    rem_num = num * 2 ** max(-exp2, 0) - mant * den * 2 ** max(exp2, 0)
    rem_den = den * 2 ** max(-exp2, 0)
    return hi, rem_num / rem_den


def _horner(
    coeffs: list[tuple[float, float]], low: int, xh: Array, xl: Array
) -> tuple[Array, Array]:
    """``sum_k c_k x**k``, coefficients given highest degree first.

    The ``low`` lowest-degree steps run in double-double; the higher-degree tail, whose weight
    ``x**low`` is below 2**-54 wherever it is used, in plain float64 (its relative error of a
    few 2**-53 then moves the sum by less than 2**-104).
    """
    tail = np.full_like(xh, coeffs[0][0])
    for ch, _ in coeffs[1 : len(coeffs) - low]:
        tail = tail * xh + ch
    sh, sl = tail, np.zeros_like(xh)
    for ch, cl in coeffs[len(coeffs) - low :]:
        sh, sl = _add(*_mul(sh, sl, xh, xl), ch, cl)
    return sh, sl


# psi(x) = sum_{k>=0} (-x)^k/(k+2) for 0 <= x <= 1/8: 36 terms leave < 2**-110 relative, and
# (1/8)**18 = 2**-54 lets the terms from x**18 on be summed in float64.
_PSI = [_dd_constant((-1) ** k, k + 2) for k in reversed(range(36))]
_PSI_DD = 18
# A(t) = sum_{k>=0} t^k/(2k+1) for 0 <= t <= (3 - 2 sqrt 2)^2 < 0.0295: 22 terms, < 2**-110;
# 0.0295**11 < 2**-55, so the terms from t**11 on are summed in float64.
_ATANH = [_dd_constant(1, 2 * k + 1) for k in reversed(range(22))]
_ATANH_DD = 11
_LN2 = (float.fromhex("0x1.62e42fefa39efp-1"), float.fromhex("0x1.abc9e3b39803fp-56"))
_EULER = (float.fromhex("0x1.2788cfc6fb619p-1"), float.fromhex("-0x1.6cb90701fbfabp-58"))
_SQRT_HALF = 0.7071067811865476
_SERIES_MAX = 0.125

# B_{2k}/(2k) for k = 1..6 (B2 = 1/6, B4 = -1/30, B6 = 1/42, B8 = -1/30, B10 = 5/66,
# B12 = -691/2730): the digamma / harmonic-number asymptotic coefficients. The first omitted
# term, B14/(14 x^14) = 1/(12 x^14), is below 2**-70 for x >= 32.
_BERNOULLI = [1 / 12, -1 / 120, 1 / 252, -1 / 240, 1 / 132, -691 / 32760]
_ASYMPTOTIC_MIN = 32  # use the asymptotic expansions for arguments >= this
# H_0 .. H_{31} as double-doubles, from exact fractions
_H_TABLE: list[tuple[float, float]] = []
_num, _den = 0, 1
for _j in range(_ASYMPTOTIC_MIN):
    _H_TABLE.append(_dd_constant(_num, _den))
    _num, _den = _num * (_j + 1) + _den, _den * (_j + 1)
del _num, _den, _j


def _log(yh: Array, yl: Array) -> tuple[Array, Array]:
    """Natural logarithm of a positive double-double, relative error O(2**-100).

    ``y = z 2**e`` with ``z`` in [sqrt(1/2), sqrt(2)); ``ln z = 2 s A(s^2)``, ``s = (z-1)/(z+1)``,
    ``|s| <= 3 - 2 sqrt 2``; ``z - 1`` is exact (Sterbenz).
    """
    m, e = np.frexp(yh)
    low = m < _SQRT_HALF
    m = np.where(low, 2 * m, m)
    e = np.where(low, e - 1, e)
    zl = np.ldexp(yl, -e)
    nh, nl = _two_sum(m - 1.0, zl)
    dh, dl = _add(m, zl, 1.0, 0.0)
    sh, sl = _div(nh, nl, dh, dl)
    th, tl = _mul(sh, sl, sh, sl)
    ah, al = _horner(_ATANH, _ATANH_DD, th, tl)
    lh, ll = _mul(sh, sl, ah, al)
    ef = e.astype(np.float64)
    kh, kl = _two_prod(ef, np.full_like(ef, _LN2[0]))
    kh, kl = _fast_two_sum(kh, kl + ef * _LN2[1])
    return _add(kh, kl, 2 * lh, 2 * ll)


def _phi_over(xh: Array, xl: Array) -> tuple[Array, Array]:
    """``(x - log1p(x))/x`` for a double-double ``x > 0`` (0 < x <= 2**60 or so)."""
    out_h, out_l = np.empty_like(xh), np.empty_like(xh)
    small = xh <= _SERIES_MAX
    if np.any(small):
        ph, pl = _horner(_PSI, _PSI_DD, xh[small], xl[small])
        out_h[small], out_l[small] = _mul(ph, pl, xh[small], xl[small])
    big = ~small
    if np.any(big):
        bh, bl = xh[big], xl[big]
        lh, ll = _log(*_add(bh, bl, 1.0, 0.0))
        fh, fl = _add(bh, bl, -lh, -ll)
        out_h[big], out_l[big] = _div(fh, fl, bh, bl)
    return out_h, out_l


# ---------------------------------------------------------------------------------------------
# the slow paths: the oracle, exact or at rising precision (imported on first use)


def _oracle_rounded(name: str, *args: Any) -> float:
    """Correctly rounded float64 of the oracle quantity ``name`` at exact (float) arguments:
    exact rationals are rounded once, mpmath values by Ziv's loop of
    :func:`prtheory.oracle.rounding.rounded` (AUCPR_min and AUCNPR are transcendental for
    0 < pi < 1, so they are never on a rounding boundary and the loop ends)."""
    from prtheory.oracle import closed_forms
    from prtheory.oracle.rounding import rounded

    fn = getattr(closed_forms, name)
    if name in ("ap_min", "expected_random_ap"):
        args = tuple(int(v) for v in args)
        try:
            return rounded(fn, *args, max_dps=2000)
        except ArithmeticError:  # a rational value on (or too near) a boundary: exactly
            return rounded(fn, *args, exact=True)
    return rounded(fn, *args)


def _exact_fbeta(p: float, r: float, beta: float) -> float:
    from prtheory.oracle.rounding import to_float

    p_q, r_q, b2 = Fraction(p), Fraction(r), Fraction(beta) ** 2
    den = b2 * p_q + r_q
    return 0.0 if den == 0 else to_float((1 + b2) * p_q * r_q / den)


def _exact_gain(x: float, pi: float) -> float:
    from prtheory.oracle.rounding import to_float

    x_q, pi_q = Fraction(x), Fraction(pi)
    return -math.inf if x == 0 else to_float((x_q - pi_q) / ((1 - pi_q) * x_q))


# ---------------------------------------------------------------------------------------------
# helpers for arguments and results


def _result(y: Array) -> Any:
    return float(y) if y.ndim == 0 else y


def _undefined_at(mask: Array, quantity: str, reason: str, *args: Array) -> None:
    """Raise UndefinedMetricError for the first element where ``mask`` holds."""
    if np.any(mask):
        idx = tuple(int(i) for i in np.argwhere(mask)[0])
        where = f" at index {list(idx)}" if mask.ndim else ""
        values = ", ".join(repr(float(a[idx])) for a in args)
        raise UndefinedMetricError(quantity, f"{reason}{where} ({values})")


def _recall_range(a: Any, b: Any) -> tuple[Array, Array]:
    a = as_float_array(a, "a", 0.0, 1.0)
    b = as_float_array(b, "b", 0.0, 1.0)
    a, b = np.broadcast_arrays(a, b)
    if np.any(a > b):
        idx = tuple(int(i) for i in np.argwhere(a > b)[0])
        where = f" at index {list(idx)}" if a.ndim else ""
        raise InvalidInputError("a, b", f"need a <= b, got a={a[idx]!r} > b={b[idx]!r}{where}")
    return a, b


# ---------------------------------------------------------------------------------------------
# B1


def min_precision(r: Any, pi: Any) -> Any:
    """Least achievable precision at recall ``r`` and skew ``pi`` (B1): ``pi r/(1 - pi + pi r)``.

    Undefined (raises) at ``r = 0, pi = 1``. Correctly rounded: one exact product, one
    double-double sum and one quotient (error below 2**-100, tested against ``_DD_REL``), the
    exact oracle rational where the rounding test cannot decide.
    """
    r = as_float_array(r, "r", 0.0, 1.0)
    pi = as_float_array(pi, "pi", 0.0, 1.0)
    r, pi = np.broadcast_arrays(r, pi)
    _undefined_at((r == 0) & (pi == 1), "min_precision", "r = 0 at pi = 1 gives 0/0", r, pi)
    mr, er = np.frexp(r)
    mp, ep = np.frexp(pi)
    nh, nl = _two_prod(mp, mr)
    uh, ul = _add(*_two_sum(np.ones_like(pi), -pi), *_two_prod(pi, r))  # > 0 after the check
    # three double-double operations; an underflow in pi r costs at most 2**-1074 absolute,
    # against u = 1 - pi + pi r >= 2**-53
    y, undecided = _decide(*_div(nh, nl, uh, ul), er + ep, _DD_REL)
    out = np.array(y, dtype=np.float64)
    _slow_fill(out, undecided, lambda r_, pi_: _oracle_rounded("min_precision", r_, pi_), r, pi)
    return _result(out)


# ---------------------------------------------------------------------------------------------
# B4, B5, B7, B8


Scaled = tuple[Array, Array, Array]  # (hi, lo, e): the double-double (hi + lo) 2**e


def _aucpr_min_dd(pi: Array, a: Array, b: Array) -> tuple[Scaled, Scaled]:
    """AUCPR_min over [a, b] and the gap AUCPR_max - AUCPR_min, for 0 < pi < 1 and a < b.

    With ``u = 1 - pi + pi a``, ``w = (b-a)/u`` and ``x = pi w`` (B7 rearranged):
    ``AUCPR_min = pi a w + ((1-pi)/pi) (x - log1p(x))`` and, since ``b - a - pi a w =
    (1-pi) w``, ``AUCPR_max - AUCPR_min = ((1-pi)/pi) log1p(x)``. Every term is non-negative,
    so neither value cancels. Both are returned scaled, with ``hi`` in [1/2, 1).
    """
    one = np.ones_like(pi)
    omh, oml = _two_sum(one, -pi)
    uh, ul = _add(omh, oml, *_two_prod(pi, a))
    dh, dl, ed = _frexp2(*_two_sum(b, -a))
    wh, wl = _div(dh, dl, uh, ul)  # w = (b-a)/u, scaled by 2**-ed
    with np.errstate(under="ignore"):
        xh, xl = _ldexp2(*_mul(wh, wl, pi, 0.0), ed)  # x = pi w (may underflow: harmless)
    low = [np.empty_like(pi), np.empty_like(pi), np.zeros(pi.shape, dtype=int)]
    gap = [np.empty_like(pi), np.empty_like(pi), np.zeros(pi.shape, dtype=int)]
    small = xh <= _SERIES_MAX
    if np.any(small):
        s = small
        # min = pi w [a + (1-pi) w psi(x)], gap = (1-pi) w (1 - x psi(x)); w and pi scaled
        ph, pl = _horner(_PSI, _PSI_DD, xh[s], xl[s])
        with np.errstate(under="ignore"):
            w_true = _ldexp2(wh[s], wl[s], ed[s])
        th, tl = _mul(*_mul(omh[s], oml[s], *w_true), ph, pl)
        bh, bl = _add(th, tl, a[s], 0.0)
        mp, ep = np.frexp(pi[s])
        rh, rl = _mul(*_mul(wh[s], wl[s], mp, 0.0), bh, bl)
        low[0][s], low[1][s], low[2][s] = rh, rl, ep + ed[s]
        qh, ql = _add(1.0, 0.0, *_mul(-xh[s], -xl[s], ph, pl))
        gh, gl = _mul(*_mul(omh[s], oml[s], wh[s], wl[s]), qh, ql)
        gap[0][s], gap[1][s], gap[2][s] = gh, gl, ed[s]
    big = ~small
    if np.any(big):
        s = big
        # here x > 1/8, so pi > 1/9 and b - a > 2**-56: no scaling needed
        w_h, w_l = _ldexp2(wh[s], wl[s], ed[s])
        lh, ll = _log(*_add(xh[s], xl[s], 1.0, 0.0))
        ch, cl = _div(omh[s], oml[s], pi[s], 0.0)
        th, tl = _mul(ch, cl, *_add(xh[s], xl[s], -lh, -ll))
        ah, al = _mul(*_mul(w_h, w_l, pi[s], 0.0), a[s], 0.0)
        low[0][s], low[1][s] = _add(th, tl, ah, al)
        gap[0][s], gap[1][s] = _mul(ch, cl, lh, ll)
    lh, ll, le = _frexp2(low[0], low[1])
    gh, gl, ge = _frexp2(gap[0], gap[1])
    return (lh, ll, low[2] + le), (gh, gl, gap[2] + ge)


def _skew_and_range(pi: Any, a: Any, b: Any) -> tuple[Array, Array, Array, Array]:
    pi = as_float_array(pi, "pi", 0.0, 1.0)
    a, b = _recall_range(a, b)
    pi, a, b = np.broadcast_arrays(pi, a, b)
    _undefined_at(a == b, "AUCPR_min", "the recall range [a, b] is empty", a, b)
    inner = (pi > 0) & (pi < 1)
    return pi, a, b, inner


def aucpr_min(pi: Any, a: Any = 0.0, b: Any = 1.0) -> Any:
    """Minimum AUCPR at skew ``pi`` over recalls [a, b] (B4, B7).

    ``b - a + ((1-pi)/pi) ln((pi(a-1)+1)/(pi(b-1)+1))``; over [0, 1], ``1 + (1-pi) ln(1-pi)/pi``.
    Paper convention at the end points (B5): 0 at pi = 0, ``b - a`` at pi = 1. Correctly
    rounded: the cancellation-free double-double form of the module docstring (relative error
    below ``_DD_REL``), then the rounding test; undecided elements, and ranges narrower than
    2**-900, are evaluated by the mpmath oracle at doubling precision.
    """
    pi, a, b, inner = _skew_and_range(pi, a, b)
    out = np.where(pi == 0, 0.0, b - a)
    fast = inner & (b - a >= _TINY)
    if np.any(fast):
        y, undecided = _decide(*_aucpr_min_dd(pi[fast], a[fast], b[fast])[0], _DD_REL)
        _settle(out, fast, y, undecided, _slow_aucpr_min, pi, a, b)
    _slow_fill(out, inner & ~fast, _slow_aucpr_min, pi, a, b)
    return _result(out)


def _slow_aucpr_min(pi: float, a: float, b: float) -> float:
    return _oracle_rounded("aucpr_min", pi, a, b)


def _slow_aucnpr(area: float, pi: float, a: float, b: float) -> float:
    return _oracle_rounded("aucnpr", area, pi, a, b)


def aucnpr(aucpr: Any, pi: Any, a: Any = 0.0, b: Any = 1.0) -> Any:
    """Normalised AUCPR ``(aucpr - AUCPR_min)/(AUCPR_max - AUCPR_min)`` (B8), AUCPR_max = b - a.

    AUCPR_min is kept in double-double, so the subtraction is accurate even when ``aucpr`` is
    close to the minimum. Paper convention: 0 at pi = 0, 1 at pi = 1. Correctly rounded: the
    numerator's error is ``_DD_REL`` times its larger term, so the bound passed to the rounding
    test is ``2 _DD_REL (1 + larger term / |numerator|)``; near the minimum (``aucpr`` within
    about 2**-30 of AUCPR_min, relative) the test fails and the mpmath oracle decides.
    """
    area = as_float_array(aucpr, "aucpr", 0.0, 1.0)
    pi, a, b, inner = _skew_and_range(pi, a, b)
    area, pi, a, b, inner = np.broadcast_arrays(area, pi, a, b, inner)
    out = np.where(pi == 0, 0.0, 1.0)
    fast = inner & (b - a >= _TINY)
    _slow_fill(out, inner & ~fast, _slow_aucnpr, area, pi, a, b)
    if np.any(fast):
        x, s_a, s_b = area[fast], a[fast], b[fast]
        (mh, ml, me), (gh, gl, ge) = _aucpr_min_dd(pi[fast], s_a, s_b)
        # numerator aucpr - min, either directly or as (aucpr - max) + gap, whichever has the
        # smaller terms: each way the error is about 2**-104 times the largest term
        over_h, over_l = _add(x, 0.0, *_two_sum(s_a, -s_b))  # aucpr - (b - a), exact
        with np.errstate(under="ignore"):
            upper = np.abs(over_h) + np.ldexp(gh, ge) <= np.ldexp(mh, me)
        nh, nl, ne = _plus_scaled(
            np.where(upper, over_h, x),
            np.where(upper, over_l, 0.0),
            np.where(upper, gh, -mh),
            np.where(upper, gl, -ml),
            np.where(upper, ge, me),
        )
        # The numerator's error is 2**-90 of its larger term (each term's own bound, and the
        # exact-up-to-3u**2 subtraction), which may be far more than 2**-90 of the difference
        # (aucpr close to AUCPR_min): ``rel`` is scaled by that ratio, term by term.
        with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
            big = np.where(upper, np.abs(over_h) + np.ldexp(gh, ge), np.abs(x) + np.ldexp(mh, me))
            ratio = big / np.abs(np.ldexp(nh, ne))
        unknown = (nh == 0) | ~np.isfinite(ratio)  # no relative bound: the oracle decides
        rel = np.where(unknown, 0.0, 2 * _DD_REL * (1.0 + ratio))
        y, undecided = _decide(*_div(nh, nl, gh, gl), ne - ge, rel)
        _settle(out, fast, y, undecided | unknown, _slow_aucnpr, area, pi, a, b)
    return _result(out)


def _plus_scaled(xh: Array, xl: Array, yh: Array, yl: Array, e: Array) -> Scaled:
    """``(xh + xl) + (yh + yl) 2**e`` as a scaled double-double, for ``|yh|`` in [1/2, 1).

    ``x 2**-e`` is formed by exact scaling; where it exceeds 2**900 in magnitude, ``x``
    dominates the other term by a factor above 2**899 and the sum is ``x`` to double-double
    precision (staying below 2**900 also keeps Dekker's splitting clear of overflow).
    """
    with np.errstate(over="ignore", under="ignore"):
        sh, sl = _ldexp2(xh, xl, -e)
    huge = np.abs(sh) > 2.0**900
    sh, sl = np.where(huge, 0.0, sh), np.where(huge, 0.0, sl)
    h, lo = _add(sh, sl, yh, yl)
    # the dominant x itself, scaled to [1/2, 1) too (a subnormal x would otherwise be divided
    # as it is, losing its low bits)
    xh_s, xl_s, ex = _frexp2(xh, xl)
    return np.where(huge, xh_s, h), np.where(huge, xl_s, lo), np.where(huge, ex, e)


# ---------------------------------------------------------------------------------------------
# F4, F5, F8: the harmonic rescaling onto [pi, 1]


def _gain(x: Any, pi: Any, name: str, quantity: str) -> Any:
    """``(x - pi)/((1 - pi) x)`` (F4 with min = pi, max = 1), correctly rounded: ``x - pi`` is
    exact, then a product and a quotient (error below 2**-100), the rounding test, and the exact
    rational where it cannot decide (0 exactly when ``x == pi``)."""
    x = as_float_array(x, name, 0.0, 1.0)
    pi = as_float_array(pi, "pi", 0.0, 1.0)
    x, pi = np.broadcast_arrays(x, pi)
    _undefined_at(pi == 1, quantity, "pi = 1 (1 - pi = 0)", x, pi)
    _undefined_at((x == 0) & (pi == 0), quantity, f"{name} = 0 at pi = 0 gives 0/0", x, pi)
    nh, nl, en = _frexp2(*_two_sum(x, -pi))
    mx, ex = np.frexp(x)
    mx = np.where(x == 0, 1.0, mx)
    dh, dl = _mul(*_two_sum(np.ones_like(pi), -pi), mx, 0.0)
    # x - pi is exact (TwoSum, even among subnormals) and scaled exactly; then a product and a
    # quotient of double-doubles of moderate size: relative error below 25 u**2
    y, undecided = _decide(*_div(nh, nl, dh, dl), en - ex, _DD_REL)
    out = np.where(x == 0, -np.inf, y)
    _slow_fill(out, undecided & (x != 0), _exact_gain, x, pi)
    return _result(out)


def precision_gain(p: Any, pi: Any) -> Any:
    """Precision gain ``(p - pi)/((1 - pi) p)`` (F5). ``-inf`` at p = 0 < pi."""
    return _gain(p, pi, "p", "precision gain")


def recall_gain(r: Any, pi: Any) -> Any:
    """Recall gain ``(r - pi)/((1 - pi) r)`` (F5). ``-inf`` at r = 0 < pi."""
    return _gain(r, pi, "r", "recall gain")


def fbeta_gain(f: Any, pi: Any) -> Any:
    """F-beta gain ``FG_beta = (F_beta - pi)/((1 - pi) F_beta)`` (F8), from an F-beta value ``f``."""
    return _gain(f, pi, "f", "F-beta gain")


# ---------------------------------------------------------------------------------------------
# F2


def fbeta(p: Any, r: Any, beta: Any = 1.0) -> Any:
    """F-beta ``(1 + beta^2) p r/(beta^2 p + r)`` (F2); 0 at p = r = 0 (the limit).

    For ``beta > 1`` it is evaluated as ``F_{1/beta}(r, p)``, with ``1/beta^2`` in
    double-double, so that ``beta^2`` never overflows. Correctly rounded: about ten
    double-double operations (error below 2**-98), the rounding test, and the exact rational
    where it cannot decide -- e.g. on exact midpoints, which F-beta of two floats can be.
    """
    p = as_float_array(p, "p", 0.0, 1.0)
    r = as_float_array(r, "r", 0.0, 1.0)
    beta = as_float_array(beta, "beta", 0.0, np.inf)
    if np.any(~np.isfinite(beta) | (beta == 0)):
        bad = np.argwhere(~np.isfinite(beta) | (beta == 0))[0] if beta.ndim else ()
        raise InvalidInputError("beta", f"must be finite and > 0, got {beta[tuple(bad)]!r}")
    p, r, beta = np.broadcast_arrays(p, r, beta)
    swap = beta > 1
    x, y = np.where(swap, r, p), np.where(swap, p, r)  # F = (1+c) x y/(c x + y)
    # c = beta^2 (beta <= 1) or 1/beta^2 = (1/beta)^2 (beta > 1), in double-double
    ih, il = _div(np.ones_like(beta), 0.0, np.where(swap, beta, 1.0), 0.0)
    base_h, base_l = np.where(swap, ih, beta), np.where(swap, il, 0.0)
    with np.errstate(under="ignore"):
        ch, cl = _mul(base_h, base_l, base_h, base_l)
    mx, ex = np.frexp(x)
    my, ey = np.frexp(y)
    top = np.where(x == 0, ey, np.where(y == 0, ex, np.maximum(ex, ey)))  # 0 has no exponent
    # numerator (1+c) mx my 2**(ex+ey); denominator 2**top (c mx 2**(ex-top) + my 2**(ey-top))
    nh, nl = _mul(*_add(ch, cl, 1.0, 0.0), *_two_prod(mx, my))
    with np.errstate(under="ignore"):
        dh, dl = _add(*_ldexp2(*_mul(ch, cl, mx, 0.0), ex - top), np.ldexp(my, ey - top), 0.0)
    zero = (p == 0) & (r == 0)
    dh = np.where(zero, 1.0, dh)
    # With 2**-400 <= beta <= 2**400, c >= 2**-800 and the larger denominator term is at least
    # 2**-801; an underflow in the smaller one costs 2**-1074 absolute: a handful of
    # double-double operations, far inside _DD_REL. Other betas go to the exact path.
    y, undecided = _decide(*_div(nh, nl, dh, dl), ex + ey - top, _DD_REL)
    out = np.where(zero, 0.0, y)
    extreme = (beta < 2.0**-400) | (beta > 2.0**400)
    _slow_fill(out, (undecided | extreme) & ~zero, _exact_fbeta, p, r, beta)
    return _result(out)


# ---------------------------------------------------------------------------------------------
# B6, X1, X3


def _counts(pos: Any, neg: Any, quantity: str) -> tuple[Array, Array]:
    pos = as_count_array(pos, "pos")
    neg = as_count_array(neg, "neg")
    pos, neg = np.broadcast_arrays(pos, neg)
    big = pos + neg > 2.0**53
    if np.any(big):
        idx = tuple(int(i) for i in np.argwhere(big)[0])
        where = f" at index {list(idx)}" if big.ndim else ""
        raise InvalidInputError("pos, neg", f"pos + neg must be at most 2**53{where}")
    _undefined_at(pos == 0, quantity, "there are no positives (pos = 0)", pos, neg)
    return pos, neg


def _harmonic(n: Array) -> tuple[Array, Array, Array]:
    """``H_n`` in double-double for integer-valued float64 ``n >= 0`` (exact table below 32),
    and a bound on its absolute error.

    The Bernoulli tail is summed in float64 by Horner's rule on ``1/n**2 <= 2**-10``; its error is
    below 2**-46 of the tail (a dozen roundings of terms that decrease by a factor above 100),
    which is added to the double-double part's ``_DD_REL |H_n|``.
    """
    hh, hl = np.empty_like(n), np.empty_like(n)
    err = np.zeros_like(n)
    small = n < _ASYMPTOTIC_MIN
    if np.any(small):
        idx = n[small].astype(np.int64)
        table = np.array(_H_TABLE)
        hh[small], hl[small] = table[idx, 0], table[idx, 1]
    big = ~small
    if np.any(big):
        nb = n[big]
        # H_n = ln n + gamma + 1/(2n) - sum_k B_2k/(2k n^2k); tail below 2**-60 H_n for n >= 32
        lh, ll = _log(nb, np.zeros_like(nb))
        lh, ll = _add(lh, ll, *_div(np.full_like(nb, 0.5), 0.0, nb, 0.0))
        inv2 = 1.0 / (nb * nb)
        tail = np.zeros_like(nb)
        for c in reversed(_BERNOULLI):
            tail = (tail + c) * inv2
        hh[big], hl[big] = _add(*_add(lh, ll, *_EULER), -tail, 0.0)
        err[big] = _DD_REL * hh[big] + 2.0**-46 * np.abs(tail)
    return hh, hl, err


def ap_min(pos: Any, neg: Any) -> Any:
    """Least AP of any ranking of ``pos`` positives and ``neg`` negatives (B6):
    ``(1/pos) sum_{i=1}^{pos} i/(i+neg) = 1 - (neg/pos)(H_{pos+neg} - H_neg)`` (X3).

    Counts are integer-valued up to 2**53 (e.g. 10**12); no term-by-term sum beyond 32 terms.
    Correctly rounded: each branch's bound (``_DD_REL``, plus the float64 Bernoulli tails
    element by element) feeds the rounding test; undecided elements go to the oracle (exact
    sum up to 2000 terms, digamma at up to 2000 digits beyond, then the exact sum).
    """
    pos, neg = _counts(pos, neg, "AP_min")
    out = np.empty(pos.shape)
    undecided = np.zeros(pos.shape, dtype=bool)
    few = pos <= _ASYMPTOTIC_MIN
    if np.any(few):
        P, n = pos[few], neg[few]
        sh, sl = np.zeros_like(P), np.zeros_like(P)
        for i in range(1, _ASYMPTOTIC_MIN + 1):
            on = i <= P
            th, tl = _div(np.full_like(P, float(i)), 0.0, i + n, 0.0)
            sh, sl = _add(sh, sl, np.where(on, th, 0.0), np.where(on, tl, 0.0))
        # at most 65 double-double operations on positive terms: below 1200 u**2 < 2**-95
        out[few], undecided[few] = _decide(*_div(sh, sl, P, 0.0), 0, _DD_REL)
    many = ~few & (neg >= _ASYMPTOTIC_MIN)
    if np.any(many):
        P, n = pos[many], neg[many]
        th, tl = _div(P, 0.0, n, 0.0)
        # phi(t)/t + 1/(2(n+P)) + C, C = (1/P) sum_k B_2k/(2k) n^(1-2k) expm1(-2k log1p(t)).
        # The k = 1 term is rational, -(2n + P)/(12 n (n+P)^2): double-double. The rest
        # (k >= 2) is below 1/(10 n^2) of it, so float64 is ample there.
        lp = np.log1p(P / n)
        rest_k, rest_abs = np.zeros_like(P), np.zeros_like(P)
        for k, c in reversed(list(enumerate(_BERNOULLI[1:], start=2))):
            term = c * n ** (1.0 - 2 * k) * np.expm1(-2 * k * lp)
            rest_k += term
            rest_abs += np.abs(term)
        total = _two_sum(n, P)
        den = _mul(*_mul(*total, *total), *_two_prod(n, np.full_like(n, 12.0)))
        first = _div(*_two_sum(-2 * n, -P), *den)
        half = _div(np.full_like(P, 0.5), 0.0, *total)
        corr = _add(*first, rest_k / P, 0.0)
        vh, vl = _add(*_add(*_phi_over(th, tl), *half), *corr)
        # the float64 part: each term within 2**-48 of its value (log1p, the power and expm1
        # each err by an ulp or two, and |z| / expm1(|z|) <= 1 damps the error of z = -2k lp)
        rel = _DD_REL + 2.0**-45 * rest_abs / P / np.abs(vh)
        out[many], undecided[many] = _decide(vh, vl, 0, rel)
    rest = ~few & ~many
    if np.any(rest):
        P, n = pos[rest], neg[rest]
        hh, hl, h_err = _harmonic(n + P)
        nh, nl, n_err = _harmonic(n)
        dh, dl = _mul(*_add(hh, hl, -nh, -nl), n, 0.0)
        gh, gl = _div(dh, dl, P, 0.0)
        vh, vl = _add(np.ones_like(P), 0.0, -gh, -gl)
        # the subtracted term g is at most 1 and the result at least 1/4 (AP_min >= pi/2 >= 1/4
        # here); errors: the harmonic numbers' (times n/P), and 2**-90 of 1 + g
        rel = (4 * _DD_REL + 2 * (n / P) * (h_err + n_err)) / np.abs(vh)
        out[rest], undecided[rest] = _decide(vh, vl, 0, rel)
    _slow_fill(out, undecided, _slow_ap_min, pos, neg)
    return _result(out)


def _slow_ap_min(pos: float, neg: float) -> float:
    return _oracle_rounded("ap_min", pos, neg)


def _slow_expected_random_ap(pos: float, neg: float) -> float:
    return _oracle_rounded("expected_random_ap", pos, neg)


def expected_random_ap(pos: Any, neg: Any) -> Any:
    """Expected AP of a uniformly random ranking (X1):
    ``(pos-1)/(N-1) + neg H_N/(N (N-1))`` with ``N = pos + neg``; 1 when ``neg = 0``.
    Correctly rounded as :func:`ap_min` (two non-negative terms; ``H_N``'s float64 tail adds
    its own bound).
    """
    pos, neg = _counts(pos, neg, "expected random AP")
    total = pos + neg
    nm1 = np.where(neg == 0, 1.0, total - 1)
    hh, hl, h_err = _harmonic(total)
    first = _div(pos - 1, 0.0, nm1, 0.0)
    second = _div(*_mul(hh, hl, neg, 0.0), *_two_prod(total, nm1))
    # two non-negative terms: the relative error is at most the worse of the two
    y, undecided = _decide(*_add(*first, *second), 0, 2 * _DD_REL + h_err / hh)
    out = np.where(neg == 0, 1.0, y)
    _slow_fill(out, undecided & (neg != 0), _slow_expected_random_ap, pos, neg)
    return _result(out)
