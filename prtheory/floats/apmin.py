"""B6, X1, X3: the least AP of a ranking and the expected AP of a random ranking.

Both are rationals of the counts; the paths here evaluate them without forming the rationals:

* AP_min (B6, X3) uses the direct sum ``(1/pos) sum_{i<=pos} i/(i+neg)`` for ``pos <= 32``;
  otherwise, with ``t = pos/neg``, ``AP_min = phi(t)/t + 1/(2(pos+neg)) + C`` from the digamma
  asymptotic expansion, where the Bernoulli correction ``C`` is below 1% of the result and
  cancellation-free through ``expm1(-2k log1p(t))``; for ``neg < 32``,
  ``1 - (neg/pos)(H_{pos+neg} - H_neg)`` with a table of ``H_0..H_31`` and the asymptotic ``H_N``.
* The expected AP (X1) is ``(pos-1)/(N-1) + neg H_N/(N (N-1))``, two non-negative terms.

Error bounds (u = 2**-53, 16u**2 = 2**-102 per double-double operation): the direct sum is at
most 65 operations on positive terms (below 2**-95); ``phi(t)/t`` is within 2**-88.8
(:mod:`prtheory.floats.logs`), and the three positive-or-small terms after it keep the sum within
2**-88 (``REL = 2**-86``); the parts evaluated in plain float64 (the Bernoulli tails of ``C``
and of ``H_n``, whose weight is below 2**-20 of the result) add their own bounds element by
element, assuming only that libm's ``log1p``, ``expm1`` and ``pow`` are within 2**-45 relative
(glibc documents 1 to 2 ulps, i.e. 2**-52). The harmonic form tracks absolute errors of ``H``.
Undecided elements go to the oracle: the exact sum up to 2000 terms, digamma at up to 2000 digits
beyond, then the exact sum.

The fused kernels (:mod:`prtheory.floats._fused`, with numba) repeat these operations element by
element, so the same bounds hold; no scaling is needed on either path, since every nonzero
double-double intermediate lies between about 2**-110 and 2**163. The differences: the
logarithm, table-driven, is within 2**-98 (the bounds here assume 2**-94); the float64 part of
the digamma form is formed without libm (``expm1(-2k log1p(t)) = q**k - 1``,
``q = (neg/(pos+neg))**2``, by a recurrence on non-negative terms), within 2**-47 per term,
under the 2**-45 that the bound allows.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from prtheory.floats import _slow, _tiers
from prtheory.floats._args import counts, result
from prtheory.floats.constants import AP_MIN_REL, ASYMPTOTIC_MIN, BERNOULLI, EULER, H_TABLE
from prtheory.floats.dd import add, decide, div, mul, two_prod, two_sum
from prtheory.floats.logs import log, phi_over

Array = np.ndarray

#: Relative error bound of the double-double parts (module docstring).
REL = AP_MIN_REL


def _truncation(x: Array) -> Array:
    """An upper bound on ``1/(12 x^14)``, the remainder of the six-term Bernoulli expansion."""
    with np.errstate(over="ignore"):
        return 1.01 / (12.0 * x**14)


def harmonic(n: Array) -> tuple[Array, Array, Array]:
    """``H_n`` in double-double for integer-valued float64 ``n >= 0`` (exact table below 32),
    and a bound on its absolute error.

    The Bernoulli tail is summed in float64 by Horner's rule on ``1/n**2 <= 2**-10``; its error is
    below 2**-46 of the tail (a dozen roundings of terms that decrease by a factor above 100).
    The bound adds it, the truncation remainder ``1/(12 n^14)`` and the double-double part's
    ``REL |H_n|``; the table entries are within 2**-105 relative.

    Parameters
    ----------
    n : ndarray of float
        Integer-valued, ``n >= 0``.

    Returns
    -------
    tuple of ndarray
        ``(hi, lo, bound)``: ``H_n`` as a double-double and a bound on its absolute error.

    See Also
    --------
    ap_min, expected_random_ap

    Examples
    --------
    H_3 = 1 + 1/2 + 1/3 = 11/6, from the table, within its bound:

    >>> from fractions import Fraction
    >>> import numpy as np
    >>> from prtheory.floats.apmin import harmonic
    >>> hi, lo, bound = harmonic(np.array([3.0]))
    >>> abs(Fraction(hi[0]) + Fraction(lo[0]) - Fraction(11, 6)) <= Fraction(bound[0])
    True
    """
    hh, hl = np.empty_like(n), np.empty_like(n)
    err = np.zeros_like(n)
    small = n < ASYMPTOTIC_MIN
    if np.any(small):
        idx = n[small].astype(np.int64)
        table = np.array(H_TABLE)
        hh[small], hl[small] = table[idx, 0], table[idx, 1]
        err[small] = 2.0**-105 * hh[small]
    big = ~small
    if np.any(big):
        nb = n[big]
        # H_n = ln n + gamma + 1/(2n) - sum_k B_2k/(2k n^2k); tail below 2**-60 H_n for n >= 32
        lh, ll = log(nb, np.zeros_like(nb))
        lh, ll = add(lh, ll, *div(np.full_like(nb, 0.5), 0.0, nb, 0.0))
        inv2 = 1.0 / (nb * nb)
        tail = np.zeros_like(nb)
        for c in reversed(BERNOULLI):
            tail = (tail + c) * inv2
        hh[big], hl[big] = add(*add(lh, ll, *EULER), -tail, 0.0)
        err[big] = REL * hh[big] + 2.0**-46 * np.abs(tail) + _truncation(nb)
    return hh, hl, err


def _reference_ap_min(pos: Array, neg: Array) -> tuple[Array, Array]:
    out = np.empty(pos.shape)
    undecided = np.zeros(pos.shape, dtype=bool)
    few = pos <= ASYMPTOTIC_MIN
    if np.any(few):
        P, n = pos[few], neg[few]
        sh, sl = np.zeros_like(P), np.zeros_like(P)
        for i in range(1, ASYMPTOTIC_MIN + 1):
            on = i <= P
            th, tl = div(np.full_like(P, float(i)), 0.0, i + n, 0.0)
            sh, sl = add(sh, sl, np.where(on, th, 0.0), np.where(on, tl, 0.0))
        # at most 65 double-double operations on positive terms: below 1200 u**2 < 2**-95
        out[few], undecided[few] = decide(*div(sh, sl, P, 0.0), 0, REL)
    many = ~few & (neg >= ASYMPTOTIC_MIN)
    if np.any(many):
        P, n = pos[many], neg[many]
        th, tl = div(P, 0.0, n, 0.0)
        # phi(t)/t + 1/(2(n+P)) + C, C = (1/P) sum_k B_2k/(2k) n^(1-2k) expm1(-2k log1p(t)).
        # The k = 1 term is rational, -(2n + P)/(12 n (n+P)^2): double-double. The rest
        # (k >= 2) is below 1/(10 n^2) of it, so float64 is ample there.
        lp = np.log1p(P / n)
        rest_k, rest_abs = np.zeros_like(P), np.zeros_like(P)
        for k, c in reversed(list(enumerate(BERNOULLI[1:], start=2))):
            term = c * n ** (1.0 - 2 * k) * np.expm1(-2 * k * lp)
            rest_k += term
            rest_abs += np.abs(term)
        total = two_sum(n, P)
        den = mul(*mul(*total, *total), *two_prod(n, np.full_like(n, 12.0)))
        first = div(*two_sum(-2 * n, -P), *den)
        half = div(np.full_like(P, 0.5), 0.0, *total)
        corr = add(*first, rest_k / P, 0.0)
        vh, vl = add(*add(*phi_over(th, tl), *half), *corr)
        # the float64 part: each term within 2**-48 of its value (log1p, the power and expm1
        # each err by an ulp or two, and |z| / expm1(|z|) <= 1 damps the error of z = -2k lp)
        # and the truncation after k = 6 moves C by less than 1/(12 P n^13)
        rel = REL + (2.0**-45 * rest_abs + n * _truncation(n)) / P / np.abs(vh)
        out[many], undecided[many] = decide(vh, vl, 0, rel)
    rest = ~few & ~many
    if np.any(rest):
        P, n = pos[rest], neg[rest]
        hh, hl, h_err = harmonic(n + P)
        nh, nl, n_err = harmonic(n)
        dh, dl = mul(*add(hh, hl, -nh, -nl), n, 0.0)
        gh, gl = div(dh, dl, P, 0.0)
        vh, vl = add(np.ones_like(P), 0.0, -gh, -gl)
        # the subtracted term g is at most 1 and the result at least 1/4 (AP_min >= pi/2 >= 1/4
        # here); errors: the harmonic numbers' (times n/P), and 2**-90 of 1 + g
        rel = (4 * REL + 2 * (n / P) * (h_err + n_err)) / np.abs(vh)
        out[rest], undecided[rest] = decide(vh, vl, 0, rel)
    return out, undecided


def ap_min(pos: Any, neg: Any) -> Any:
    """Least AP of any ranking of ``pos`` positives and ``neg`` negatives (B6):
    ``(1/pos) sum_{i=1}^{pos} i/(i+neg) = 1 - (neg/pos)(H_{pos+neg} - H_neg)`` (X3).

    Counts are integer-valued up to 2**53 (e.g. 10**12); no term-by-term sum beyond 32 terms.
    Correctly rounded for every input: each branch's bound (module docstring) feeds the rounding
    test, in the fused kernel or the numpy reference path; undecided elements go to the oracle.

    Parameters
    ----------
    pos, neg : int, float or array-like
        The counts of positives (>= 1) and negatives (>= 0), integer-valued.

    Returns
    -------
    float or ndarray
        The correctly rounded AP_min.

    Raises
    ------
    InvalidInputError
        A count not an integer-valued finite number in its range.
    UndefinedMetricError
        ``pos = 0``.

    See Also
    --------
    expected_random_ap
    prtheory.oracle.ap_min : the exact value.

    Examples
    --------
    One positive after one negative: AP = 1/2. Two of each, negatives first: (1/2)(1/3 + 2/4)
    = 5/12 = 1 - (2/2)(H_4 - H_2) (X3):

    >>> from fractions import Fraction
    >>> from prtheory.floats import ap_min
    >>> ap_min(1, 1)
    0.5
    >>> ap_min(2, 2) == float(Fraction(5, 12))
    True
    """
    pos, neg = counts(pos, neg, "AP_min")
    out = np.empty(pos.shape)
    everything = np.ones(pos.shape, dtype=bool)
    return result(
        _tiers.evaluate("ap_min", (pos, neg), everything, out, _reference_ap_min, _slow_ap_min)
    )


def _slow_ap_min(pos: float, neg: float) -> float:
    return _slow.oracle_rounded("ap_min", pos, neg)


def _slow_expected_random_ap(pos: float, neg: float) -> float:
    return _slow.oracle_rounded("expected_random_ap", pos, neg)


def _reference_expected(pos: Array, neg: Array) -> tuple[Array, Array]:
    """``(pos-1)/(N-1) + neg H_N/(N (N-1))`` for ``neg > 0``: two non-negative terms, so the
    relative error is at most the worse of the two (``H_N``'s own bound included)."""
    total = pos + neg
    hh, hl, h_err = harmonic(total)
    first = div(pos - 1, 0.0, total - 1, 0.0)
    second = div(*mul(hh, hl, neg, 0.0), *two_prod(total, total - 1))
    return decide(*add(*first, *second), 0, 2 * REL + h_err / hh)


def expected_random_ap(pos: Any, neg: Any) -> Any:
    """Expected AP of a uniformly random ranking (X1):
    ``(pos-1)/(N-1) + neg H_N/(N (N-1))`` with ``N = pos + neg``; 1 when ``neg = 0``.
    Correctly rounded as :func:`ap_min`.

    Parameters
    ----------
    pos, neg : int, float or array-like
        The counts of positives (>= 1) and negatives (>= 0), integer-valued.

    Returns
    -------
    float or ndarray
        The correctly rounded expected AP.

    Raises
    ------
    InvalidInputError
        A count not an integer-valued finite number in its range.
    UndefinedMetricError
        ``pos = 0``.

    See Also
    --------
    ap_min

    Examples
    --------
    One positive, one negative: AP 1 or 1/2 with equal chance, 3/4 = 0/1 + 1 H_2/(2 1):

    >>> from prtheory.floats import expected_random_ap
    >>> expected_random_ap(1, 1)
    0.75
    """
    pos, neg = counts(pos, neg, "expected random AP")
    out = np.ones(pos.shape)
    return result(
        _tiers.evaluate(
            "expected_random_ap",
            (pos, neg),
            neg != 0,
            out,
            _reference_expected,
            _slow_expected_random_ap,
        )
    )
