"""The fused kernels of :mod:`prtheory.floats._kernels` (imported by it, on first use, only when
numba is installed).

Every function here is defined at module level and calls the compiled primitives of
:mod:`prtheory.floats.dd` as module globals, so that numba's on-disk cache (``cache=True``) finds
the compiled kernels again in the next process: numba keys a cached function on its source file
and, for a closure, on the pickled contents of its cells, and a compiled function pickles with
a fresh identifier in every process. numba does not notice changes in :mod:`~prtheory.floats.dd`,
:mod:`~prtheory.floats.logs` or :mod:`~prtheory.floats.constants` alone (their functions and
tables are compiled in as constants): after editing them clear the cache (``__pycache__/_fused*.nb*``)
or touch this file.

Each kernel's relative error bound is stated and derived at the kernel (or at the helpers it
names); the range of each is checked element by element, and the elements outside it, or
undecided by the rounding test :func:`decide`, are returned "to do". Where the reference path
takes a logarithm (:func:`prtheory.floats.logs.log`, within 2**-94 relative), the kernels take
:func:`log_block`'s, with a table step and a shorter series, within 2**-98 (derived there), so
every bound that assumes the former holds for the kernels too; "the operations of the reference
path" below means those, with this logarithm.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from prtheory.floats import constants, logs
from prtheory.floats.compiled import compiled_primitives, jit
from prtheory.floats.dd import dd_constant

Array = np.ndarray

_P = compiled_primitives()
two_sum, fast_two_sum, two_prod = _P["two_sum"], _P["fast_two_sum"], _P["two_prod"]
add, add_fp, mul, mul_fp, div = _P["add"], _P["add_fp"], _P["mul"], _P["mul_fp"], _P["div"]

#: Arguments and intermediates of the rational kernels stay at or above this magnitude (or are
#: exactly 0), so no product's error term underflows (that needs about 2**-969).
TINY = 2.0**-900
#: Relative error bound passed to the rounding test by the rational kernels (each derivation
#: below ends at or under 2**-96).
REL = 2.0**-90
#: The logarithmic kernels' bound: the reference path's, whose operations they repeat.
REL_LOG = constants.AUCPR_REL
#: Elements per block of the kernels that sum their series a block at a time (in L1 cache).
_BLOCK = 256


def _coefficients(coeffs: list[tuple[float, float]]) -> tuple[Array, Array]:
    """A series' double-double coefficients (highest degree first) as two arrays."""
    return np.array([c[0] for c in coeffs]), np.array([c[1] for c in coeffs])


#: Rounding test of :func:`prtheory.floats.dd.decide` at scale 1
#: (:func:`prtheory.floats.dd.decide_unscaled`, compiled).
decide = _P["decide_unscaled"]


@jit(cache=True)
def min_precision(r: Any, pi: Any, out: Any, todo: Any) -> Any:
    # pi r / ((1 - pi) + pi r): pi r exact (TwoProd, >= 2**-900), 1 - pi exact (2Sum), one
    # AccurateDWPlusDW (3u^2) and one DWDivDW2 (15u^2 + 56u^3): below 19u^2 < 2**-97
    for i in range(r.size):
        nh, nl = two_prod(pi[i], r[i])
        oh, ol = two_sum(1.0, -pi[i])
        uh, ul = add(oh, ol, nh, nl)
        qh, ql = div(nh, nl, uh, ul)
        y, undecided = decide(qh, ql, REL)
        out[i] = y
        todo[i] = undecided | (nh < TINY)


@jit(cache=True)
def gain(x: Any, pi: Any, out: Any, todo: Any) -> Any:
    # (x - pi) / ((1 - pi) x): x - pi exact (2Sum); (1 - pi) x by DWTimesFP1 (1.5u^2 + 4u^3),
    # >= 2**-953; one DWDivDW2: below 17u^2 < 2**-97. |result| <= 2**953: no overflow.
    for i in range(x.size):
        nh, nl = two_sum(x[i], -pi[i])
        oh, ol = two_sum(1.0, -pi[i])
        dh, dl = mul_fp(oh, ol, x[i])
        qh, ql = div(nh, nl, dh, dl)
        y, undecided = decide(qh, ql, REL)
        out[i] = y
        todo[i] = undecided | (x[i] < TINY) | (abs(nh) < TINY)


@jit(inline="always")
def fbeta_weight(b: Any) -> Any:
    """``swap = beta > 1``, ``c = beta^2`` (or ``(1/beta)^2`` when swapped) and ``1 + c``."""
    swap = b > 1.0
    ih, il = div(1.0, 0.0, b if swap else 1.0, 0.0)
    bh = ih if swap else b
    bl = il if swap else 0.0
    ch, cl = mul(bh, bl, bh, bl)
    oh, ol = add_fp(ch, cl, 1.0)
    return swap, ch, cl, oh, ol


@jit(inline="always")
def fbeta_at(pv: Any, rv: Any, b: Any, swap: Any, ch: Any, cl: Any, oh: Any, ol: Any) -> Any:
    """F-beta of one element from :func:`fbeta_weight`'s values: the value and "to do"."""
    x = rv if swap else pv
    y = pv if swap else rv
    xyh, xyl = two_prod(x, y)
    nh, nl = mul(oh, ol, xyh, xyl)
    th, tl = mul_fp(ch, cl, x)
    dh, dl = add_fp(th, tl, y)
    qh, ql = div(nh, nl, dh, dl)
    v, undecided = decide(qh, ql, REL)
    zero = (x == 0.0) | (y == 0.0)
    outside = (b < 2.0**-100) | (b > 2.0**100) | (x < 2.0**-300) | (y < 2.0**-300)
    return 0.0 if zero else v, (undecided | outside) & ~zero


@jit(cache=True)
def fbeta(p: Any, r: Any, beta: Any, out: Any, todo: Any) -> Any:
    # F = (1 + c) x y / (c x + y) with (x, y, c) = (p, r, beta^2) for beta <= 1 and
    # (r, p, (1/beta)^2) for beta > 1, so that c <= 1. Range: 2**-100 <= beta <= 2**100,
    # p and r 0 or >= 2**-300. c: exact (TwoProd) or 1/beta by DWDivDW2 then squared by
    # DWTimesDW1: 2 (15.1u^2) + 7u^2 < 38u^2; |d ln F / d ln c| < 1 carries that to F.
    # Then DWPlusFP (2u^2), exact TwoProd, DWTimesDW1 (7u^2), DWTimesFP1 (1.5u^2), DWPlusFP
    # (2u^2, both terms positive), DWDivDW2 (15.1u^2): below 66u^2 < 2**-96.
    # When every beta is the same (a scalar beta, broadcast), c and 1 + c are formed once,
    # by the same operations: the same values.
    uniform = True
    for i in range(beta.size):
        uniform &= beta[i] == beta[0]
    if uniform and beta.size:
        b = beta[0]
        swap, ch, cl, oh, ol = fbeta_weight(b)
        for i in range(p.size):
            out[i], todo[i] = fbeta_at(p[i], r[i], b, swap, ch, cl, oh, ol)
    else:
        for i in range(p.size):
            b = beta[i]
            swap, ch, cl, oh, ol = fbeta_weight(b)
            out[i], todo[i] = fbeta_at(p[i], r[i], b, swap, ch, cl, oh, ol)


psi_h, psi_l = _coefficients(logs.PSI)
psi_dd, series_max = logs.PSI_DD, logs.SERIES_MAX
ln2_h, ln2_l, sqrt_half = logs.LN2[0], logs.LN2[1], logs.SQRT_HALF


def _log_table() -> tuple[Array, Array]:
    """``ln(1 + j/64)`` for j = -19..27 (index j + 19) as double-doubles: the nearest float and
    the nearest float to the remainder, from mpmath at 60 digits (within 2**-106 relative)."""
    import mpmath

    hi, lo = [], []
    with mpmath.workdps(60):
        for j in range(-19, 28):
            v = mpmath.log(1 + mpmath.mpf(j) / 64)
            hi.append(float(v))
            lo.append(float(v - hi[-1]))
    return np.array(hi), np.array(lo)


#: the reduced logarithm's table (log_reduce) and series A(t) = sum_{k<8} t^k/(2k+1), the
#: terms from t**4 on (weight below 2**-59) summed in float64
log_c_h, log_c_l = _log_table()
atanh_h, atanh_l = _coefficients([dd_constant(1, 2 * k + 1) for k in reversed(range(8))])
atanh_dd = 4


@jit(inline="always")
def horner_block(ch: Any, cl: Any, low: Any, xh: Any, xl: Any, rh: Any, rl: Any, m: Any) -> Any:
    """``rh[j] + rl[j] = sum_k c_k x_j**k`` for ``j < m``: for each element the very operations
    of :func:`prtheory.floats.logs.horner` (``low`` double-double steps after a float64
    tail), in the same order, but with the loop over the elements innermost, so that LLVM
    vectorises it (a single element's Horner chain is bound by the latency of its dependent
    operations)."""
    n = ch.size
    for j in range(m):
        rh[j] = ch[0]
    for k in range(1, n - low):
        c = ch[k]
        for j in range(m):
            rh[j] = rh[j] * xh[j] + c
    for j in range(m):
        rl[j] = 0.0
    for k in range(n - low, n):
        c_h, c_l = ch[k], cl[k]
        for j in range(m):
            ph, pl = mul(rh[j], rl[j], xh[j], xl[j])
            rh[j], rl[j] = add(ph, pl, c_h, c_l)


@jit(inline="always")
def log_reduce(m: Any, e: Any, yh: Any, yl: Any) -> Any:
    """The first half of :func:`log_block`, from ``m, e = frexp(yh)``: ``y = z 2**e`` with
    ``z = m + zl`` in [sqrt(1/2), sqrt(2)), the table point ``c = 1 + j/64`` nearest to ``m``,
    ``s = (z - c)/(z + c)`` and ``t = s**2`` (the argument of the series ``A``), as ``sh, sl,
    th, tl, e, c``. ``yl 2**-e`` is formed as ``yl (m/yh)``: ``m/yh`` is exactly ``2**-e``,
    and a product by a power of two is ``ldexp``'s correctly rounded value (no library call,
    so that blocks of it vectorise)."""
    low = m < sqrt_half
    m = 2.0 * m if low else m
    e = e - 1 if low else e
    zl = yl * (m / yh)
    c = 1.0 + math.floor((m - 1.0) * 64.0 + 0.5) / 64.0
    nh, nl = two_sum(m - c, zl)
    dh, dl = add(m, zl, c, 0.0)
    sh, sl = div(nh, nl, dh, dl)
    th, tl = mul(sh, sl, sh, sl)
    return sh, sl, th, tl, e, c


@jit(inline="always")
def log_finish(sh: Any, sl: Any, ah: Any, al: Any, e: Any, c: Any) -> Any:
    """The second half of :func:`log_block`: ``(e ln 2 + ln c) + 2 s A`` from ``s``,
    ``A(s**2)``, ``e`` and ``c``."""
    lh, ll = mul(sh, sl, ah, al)
    ef = float(e)
    kh, kl = two_prod(ef, ln2_h)
    kh, kl = fast_two_sum(kh, kl + ef * ln2_l)
    j = int((c - 1.0) * 64.0) + 19
    kh, kl = add(kh, kl, log_c_h[j], log_c_l[j])
    return add(kh, kl, 2.0 * lh, 2.0 * ll)


@jit(inline="always")
def log_block(yh: Any, yl: Any, lh: Any, ll: Any, size: Any, w: Any, we: Any) -> Any:
    """``lh[j] + ll[j] = ln(yh[j] + yl[j])`` for ``j < size``, each ``yh[j]`` in [2**-900,
    2**900], within 2**-98 relative (so within the 2**-94 of
    :func:`prtheory.floats.logs.log`, which the bounds of the callers assume), with the loops
    over the elements innermost, so that LLVM vectorises them.

    The reduction of :func:`prtheory.floats.logs.log` with a table step: ``y = z 2**e``, ``z``
    in [sqrt(1/2), sqrt(2)) (``frexp`` read off the bits: for a positive normal float, the
    biased exponent less 1022 and the significand with the exponent of 1/2, exactly
    ``math.frexp``'s result), ``c = 1 + j/64`` with ``|m - c| <= 1/128 + 2**-54`` (the rounding
    of ``64 (m - 1) + 1/2`` moves it by at most 2**-48), and ``ln y = (e ln 2 + ln c) + 2 s
    A(s**2)``, ``s = (z - c)/(z + c)``, ``A(t) = atanh(sqrt t)/sqrt t = sum_k t^k/(2k+1)``.
    ``m - c`` is exact (Sterbenz), so ``s`` costs 2Sum, AccurateDWPlusDW and DWDivDW2 (18.1u**2);
    ``|s| <= (1/128 + 2**-51)/1.406 < 2**-7.49``, ``t < 2**-14.9``: eight terms leave below
    ``t**8 < 2**-119`` of ``A``; the four lowest in double-double (``t`` by DWTimesDW1,
    43.2u**2 with ``s``'s error twice; each Horner step on positive terms 10u**2; ``t``'s error
    moves ``A`` by ``t/3`` of it), the rest a float64 tail of weight ``t**4 < 2**-59``:
    ``A`` within 41u**2, ``2 s A`` (DWTimesDW1) within 66u**2 < 2**-99.9. ``e ln 2`` (TwoProd
    and the low word) is within 2**-104, ``ln c`` (table) within 2**-106. Cancellation:
    ``|ln(z/c)| <= (1/128 + 2**-51)/0.695 < 0.0114``; for ``e = 0``, ``j = 0`` only ``2 s A``
    is nonzero; for ``e = 0``, ``j != 0``, ``z`` lies on ``c``'s side of 1 and the sum of the
    magnitudes is below 3.02 ``|ln z|`` (the worst case ``j = -1``, ``z = 1 - 1/128``:
    (0.015748 + 0.007905)/0.007843); for ``e != 0``, ``|ln z| <= 0.3466`` against ``|e| ln 2``:
    below (0.6931 + 0.3466 + 0.0228)/0.3465 < 3.07. So the three terms' errors and the two
    AccurateDWPlusDW (3u**2 of at most the sum of magnitudes) stay below
    3.1 (2**-99.9 + 2**-104) + 2**-104 < 2**-98 of ``ln y``.

    Scratch: ``w`` (7 rows of floats), ``we`` (integers), each at least ``size`` long."""
    mant, sh, sl, th, tl, ah, al = w[0], w[1], w[2], w[3], w[4], w[5], w[6]
    bits, mbits = yh.view(np.int64), mant.view(np.int64)
    for j in range(size):
        we[j] = ((bits[j] >> 52) & 0x7FF) - 1022
        mbits[j] = (bits[j] & 0xFFFFFFFFFFFFF) | 0x3FE0000000000000
    for j in range(size):  # mant[j] becomes the table point c
        sh[j], sl[j], th[j], tl[j], we[j], mant[j] = log_reduce(mant[j], we[j], yh[j], yl[j])
    horner_block(atanh_h, atanh_l, atanh_dd, th, tl, ah, al, size)
    for j in range(size):
        lh[j], ll[j] = log_finish(sh[j], sl[j], ah[j], al[j], we[j], mant[j])


@jit(inline="always")
def aucpr_setup(p: Any, lo: Any, hi: Any) -> Any:
    """``1 - pi`` (exact), ``w = (b - a)/u`` with ``u = 1 - pi + pi a``, and ``x = pi w``:
    the first operations of :func:`prtheory.floats.aucpr._aucpr_min_dd`, unscaled."""
    omh, oml = two_sum(1.0, -p)
    ph, pl = two_prod(p, lo)
    uh, ul = add(omh, oml, ph, pl)
    dh, dl = two_sum(hi, -lo)
    wh, wl = div(dh, dl, uh, ul)
    xh, xl = mul(wh, wl, p, 0.0)
    return omh, oml, wh, wl, xh, xl


@jit(inline="always")
def aucpr_series(p: Any, lo: Any, hi: Any, sh: Any, sl: Any) -> Any:
    """AUCPR_min ``= pi w (a + (1 - pi) w psi(x))`` and the gap ``(1 - pi) w (1 - x psi(x))``
    for ``x <= 1/8``, from ``psi(x)`` (``sh + sl``): ``rh, rl, gh, gl``."""
    omh, oml, wh, wl, xh, xl = aucpr_setup(p, lo, hi)
    mh, ml = mul(omh, oml, wh, wl)
    th, tl = mul(mh, ml, sh, sl)
    bh, bl = add(th, tl, lo, 0.0)
    qh, ql = mul(wh, wl, p, 0.0)
    rh, rl = mul(qh, ql, bh, bl)
    zh, zl = mul(-xh, -xl, sh, sl)
    eh, el = add(1.0, 0.0, zh, zl)
    gh, gl = mul(mh, ml, eh, el)
    return rh, rl, gh, gl


@jit(inline="always")
def aucpr_logarithm(p: Any, lo: Any, hi: Any, lh: Any, ll: Any) -> Any:
    """AUCPR_min ``= ((1 - pi)/pi) (x - log1p(x)) + pi w a`` and the gap ``((1 - pi)/pi)
    log1p(x)`` for ``x > 1/8``, from ``log1p(x)`` (``lh + ll``): ``rh, rl, gh, gl``."""
    omh, oml, wh, wl, xh, xl = aucpr_setup(p, lo, hi)
    ch, cl = div(omh, oml, p, 0.0)
    fh, fl = add(xh, xl, -lh, -ll)
    th, tl = mul(ch, cl, fh, fl)
    qh, ql = mul(wh, wl, p, 0.0)
    ah, al = mul(qh, ql, lo, 0.0)
    rh, rl = add(th, tl, ah, al)
    gh, gl = mul(ch, cl, lh, ll)
    return rh, rl, gh, gl


@jit(inline="always")
def aucnpr_at(area: Any, lo: Any, hi: Any, rh: Any, rl: Any, gh: Any, gl: Any, bound: Any) -> Any:
    """AUCNPR ``(aucpr - AUCPR_min)/gap`` from AUCPR_min and the gap, both within ``bound``
    (relative, at least 16u**2): the operations of
    :func:`prtheory.floats.aucpr._aucnpr_in_range`, unscaled (the numerator ``aucpr - min``
    or ``(aucpr - (b - a)) + gap``, whichever has the smaller terms; its error ``bound`` of the
    larger term, so ``rel = 2 bound (1 + larger term/|numerator|)``). A numerator below
    2**-900 (where the division's error term could underflow), zero or without a finite
    ratio is "to do". Returns the value and "to do"."""
    dh, dl = two_sum(lo, -hi)
    oh, ol = add(area, 0.0, dh, dl)  # aucpr - (b - a), exact
    upper = abs(oh) + gh <= rh
    nh, nl = add(
        oh if upper else area,
        ol if upper else 0.0,
        gh if upper else -rh,
        gl if upper else -rl,
    )
    big = abs(oh) + gh if upper else abs(area) + rh
    ratio = big / abs(nh)
    unknown = ~(abs(nh) >= TINY) | ~(ratio < math.inf)
    rel = 0.0 if unknown else 2.0 * bound * (1.0 + ratio)
    qh, ql = div(nh, nl, gh, gl)
    y, undecided = decide(qh, ql, rel)
    return y, undecided | unknown


@jit(inline="always")
def aucpr_blocks(area: Any, pi: Any, a: Any, b: Any, out: Any, todo: Any, npr: Any) -> Any:
    """AUCPR_min (``npr`` False; ``area`` unused) or AUCNPR (``npr`` True) a block of
    elements at a time: ``x`` for the block, the elements sorted by branch (``psi``'s series
    or the logarithm) into contiguous lists, each branch's series over its list
    (:func:`horner_block`, :func:`log_block`), each element finished, the results put in
    place; every loop but the sorting runs over contiguous arrays, so that LLVM vectorises
    it. Per element, the operations of the reference path without its exact scalings
    (module docstring of :mod:`prtheory.floats.aucpr`)."""
    w, we = np.empty((7, block)), np.empty(block, np.int64)
    xh, xl = np.empty(block), np.empty(block)
    # per branch (0: series, 1: logarithm): the element's index, its arguments pi, a, b and
    # aucpr, the series' argument and sum, the result and its to-do flag
    at = np.empty((2, block), np.int64)
    arg = np.empty((2, 4, block))
    sx_h, sx_l, sr_h, sr_l = np.empty(block), np.empty(block), np.empty(block), np.empty(block)
    yh, yl, lh, ll = np.empty(block), np.empty(block), np.empty(block), np.empty(block)
    res, flag = np.empty(block), np.empty(block, np.bool_)
    for i0 in range(0, pi.size, block):
        size = min(block, pi.size - i0)
        for j in range(size):
            _, _, _, _, xh[j], xl[j] = aucpr_setup(pi[i0 + j], a[i0 + j], b[i0 + j])
        count = [0, 0]
        for j in range(size):
            i = i0 + j
            if not (pi[i] >= 2.0**-600 and pi[i] < 1.0 and b[i] - a[i] >= 2.0**-100):
                out[i] = 0.0
                todo[i] = True
                continue
            branch = 0 if xh[j] <= series_max else 1
            k = count[branch]
            count[branch] = k + 1
            at[branch, k] = i
            arg[branch, 0, k], arg[branch, 1, k], arg[branch, 2, k] = pi[i], a[i], b[i]
            arg[branch, 3, k] = area[i]
            if branch == 0:
                sx_h[k], sx_l[k] = xh[j], xl[j]
            else:
                yh[k], yl[k] = add(xh[j], xl[j], 1.0, 0.0)
        horner_block(psi_h, psi_l, psi_dd, sx_h, sx_l, sr_h, sr_l, count[0])
        log_block(yh, yl, lh, ll, count[1], w, we)
        for branch in range(2):
            p_, lo_, hi_, area_ = arg[branch, 0], arg[branch, 1], arg[branch, 2], arg[branch, 3]
            for k in range(count[branch]):
                if branch == 0:
                    rh, rl, gh, gl = aucpr_series(p_[k], lo_[k], hi_[k], sr_h[k], sr_l[k])
                else:
                    rh, rl, gh, gl = aucpr_logarithm(p_[k], lo_[k], hi_[k], lh[k], ll[k])
                if npr:
                    res[k], flag[k] = aucnpr_at(area_[k], lo_[k], hi_[k], rh, rl, gh, gl, REL_LOG)
                else:
                    res[k], flag[k] = decide(rh, rl, REL_LOG)
            for k in range(count[branch]):
                out[at[branch, k]] = res[k]
                todo[at[branch, k]] = flag[k]


@jit(cache=True)
def aucpr_min(pi: Any, a: Any, b: Any, out: Any, todo: Any) -> Any:
    # The operations of prtheory.floats.aucpr._aucpr_min_dd without its exact power-of-two
    # scalings, which the range pi >= 2**-600, b - a >= 2**-100 makes unnecessary: w >= 2**-100,
    # x = pi w >= 2**-700, and every term and result stays above 2**-860 (the smallest is
    # pi (1 - pi) w^2 psi(x) >= 2**-600 2**-53 2**-200 / 4), so no error term underflows.
    # Scaling by powers of two is exact, so the reference path's bound (2**-88.5 relative,
    # aucpr module docstring) holds unchanged: REL_LOG = 2**-86 as there. (The gap, which
    # aucpr_blocks also forms, is unused here; LLVM drops it.)
    aucpr_blocks(pi, pi, a, b, out, todo, False)


@jit(cache=True)
def aucnpr(area: Any, pi: Any, a: Any, b: Any, out: Any, todo: Any) -> Any:
    # The operations of prtheory.floats.aucpr._aucnpr_in_range without its exact scalings, in
    # the range of the aucpr_min kernel: AUCPR_min and the gap within the reference path's
    # 2**-88.5 (the gap is at least (1 - pi) w 7/8 >= 2**-154 or ((1 - pi)/pi) log(9/8),
    # and its products stay above 2**-702), the numerator's terms are added exactly or by
    # AccurateDWPlusDW (additions need no range), and a numerator below 2**-900 is "to do"
    # (aucnpr_at), so the reference path's bound 2 REL (1 + ratio) holds unchanged.
    aucpr_blocks(area, pi, a, b, out, todo, True)


rel_ap, few_max = constants.AP_MIN_REL, float(constants.ASYMPTOTIC_MIN)
table_h, table_l = _coefficients(constants.H_TABLE)
bernoulli = np.array(constants.BERNOULLI)
euler_h, euler_l = constants.EULER
block = _BLOCK


@jit(inline="always")
def harmonic_big(n: Any, lh: Any, ll: Any) -> Any:
    """:func:`prtheory.floats.apmin.harmonic` for one integer-valued ``n >= 32``, given
    ``ln n`` (``lh + ll``, by :func:`log_block`): the same operations, so the same bound on
    the absolute error of ``H_n``, but for the truncation remainder ``1/(12 n^14)``,
    bounded above by ``(1.01/12) g**7`` with ``g = fl(1/fl(n n))``: ``g`` is within 2.01u
    of ``n**-2``, the power (four products) and the constant and product add at most six
    roundings, so the computed value is at least ``(1.01/12) n**-14 (1 - 21u) >
    1/(12 n**14)`` (the reference path computes it with ``pow``, within the same margin)."""
    qh, ql = div(0.5, 0.0, n, 0.0)
    lh, ll = add(lh, ll, qh, ql)
    inv2 = 1.0 / (n * n)
    tail = 0.0
    for k in range(bernoulli.size - 1, -1, -1):
        tail = (tail + bernoulli[k]) * inv2
    sh, sl = add(lh, ll, euler_h, euler_l)
    hh, hl = add(sh, sl, -tail, 0.0)
    g2 = inv2 * inv2
    remainder = 1.01 / 12.0 * ((g2 * g2) * g2 * inv2)  # >= 1/(12 n^14)
    return hh, hl, rel_ap * hh + 2.0**-46 * abs(tail) + remainder


@jit(inline="always")
def bernoulli_rest(p: Any, n: Any) -> Any:
    """The float64 part of AP_min's digamma form for ``n >= 32``: ``C_2 = (1/p) sum_{k=2..6}
    B_2k/(2k) n^(1-2k) expm1(-2k log1p(p/n))`` and the bound ``(2**-45 sum_k |term_k| +
    n/(12 n^14)) / p`` on its error (float64 evaluation plus truncation after k = 6).

    Without libm: ``-expm1(-2k log1p(t)) = 1 - q**k`` with ``q = (n/S)**2``, ``S = n + p``
    (exact), is ``c_k = a + q c_{k-1}``, ``c_1 = a = p (2n + p)/S**2 = 1 - q``: every term
    is non-negative, so no step cancels. Relative errors (u = 2**-53, first order): ``a``
    4u (four roundings), ``q`` 3u (``n/S``, then squared), ``c_k`` at most that of
    ``c_{k-1}`` plus ``q``'s plus 2u (product and sum): ``c_6`` within 29u. The powers
    ``n^(1-2k) = n^-1 g^(k-1)``, ``g = fl(fl(1/n)^2)`` (3u), one product per step (4u each):
    ``n^-11`` within 21u. Each term (float coefficient u, two products 2u) is within 53u <
    2**-47.2 of its value, and the float64 sum and the division by ``p`` add at most 5u of
    ``sum |term_k|``: within 58u < 2**-47.1 of ``sum |term_k|``, under the 2**-45 that the
    reference path's bound allows for libm.
    The truncation term ``(1.01/12) n g**7`` (four products for the power) is within 30u
    of its value, so at least ``n/(12 n**14)``.
    """
    s = n + p
    a = p * (2.0 * n + p) / (s * s)
    r = n / s
    q = r * r
    inv = 1.0 / n
    g = inv * inv
    c = a
    w = inv
    rest_k, rest_abs = 0.0, 0.0
    for k in range(2, bernoulli.size + 1):
        c = a + q * c
        w = w * g
        term = -bernoulli[k - 1] * w * c
        rest_k += term
        rest_abs += abs(term)
    g2 = g * g
    bound = (2.0**-45 * rest_abs + 1.01 / 12.0 * n * ((g2 * g2) * g2 * g)) / p
    return rest_k / p, bound


@jit(inline="always")
def digamma_form(p: Any, n: Any, th: Any, tl: Any, ph: Any, pl: Any) -> Any:
    """AP_min for ``neg >= 32 < pos`` from ``t = pos/neg`` and ``phi(t)/t`` (``ph + pl``, by
    the operations of :func:`prtheory.floats.logs.phi_over`): ``phi(t)/t + 1/(2(n+p)) +
    C`` as on the reference path, with the bound ``REL_AP`` plus that of the float64 part
    (:func:`bernoulli_rest`) over the value. Returns ``vh, vl, rel``."""
    rest, rest_err = bernoulli_rest(p, n)
    nph, npl = two_sum(n, p)
    sqh, sql = mul(nph, npl, nph, npl)
    twh, twl = two_prod(n, 12.0)
    dh, dl = mul(sqh, sql, twh, twl)
    ah, al = two_sum(-2 * n, -p)
    fh, fl = div(ah, al, dh, dl)
    hh, hl = div(0.5, 0.0, nph, npl)
    ch, cl = add(fh, fl, rest, 0.0)
    qh, ql = add(ph, pl, hh, hl)
    vh, vl = add(qh, ql, ch, cl)
    return vh, vl, rel_ap + rest_err / abs(vh)


@jit(inline="always")
def harmonic_form(p: Any, n: Any, lh: Any, ll: Any) -> Any:
    """AP_min for ``neg < 32 < pos`` from ``ln(pos + neg)`` (``lh + ll``, by :func:`log_block`):
    ``1 - (n/p)(H_{n+p} - H_n)`` and its bound, as on the reference path (``H_n`` from the
    table). Returns ``vh, vl, rel``."""
    hh, hl, h_err = harmonic_big(n + p, lh, ll)
    t = int(n)
    nh, nl, n_err = table_h[t], table_l[t], 2.0**-105 * table_h[t]
    sh, sl = add(hh, hl, -nh, -nl)
    dh, dl = mul(sh, sl, n, 0.0)
    gh, gl = div(dh, dl, p, 0.0)
    vh, vl = add(1.0, 0.0, -gh, -gl)
    return vh, vl, (4 * rel_ap + 2 * (n / p) * (h_err + n_err)) / abs(vh)


@jit(cache=True)
def ap_min(pos: Any, neg: Any, out: Any, todo: Any) -> Any:
    # The operations of prtheory.floats.apmin._reference_ap_min, branch by branch (that path
    # has no scalings), so its bounds (apmin module docstring) carry over: the direct sum
    # (pos <= 32) below 2**-95 (the reference path's sum, stopped after the largest pos of the
    # block: the terms it leaves out are exact additions of 0);
    # the digamma form (neg >= 32) REL_AP plus the bound of the float64 part, computed per
    # element (bernoulli_rest: within the 2**-45 per term that the reference path allows,
    # without libm); the harmonic form (neg < 32) the harmonic numbers' absolute bounds
    # over the result (harmonic_big). Range: every valid pair (integers, pos >= 1,
    # pos + neg <= 2**53); elements with pos < 1 go to the reference path. Every nonzero
    # double-double intermediate lies between 2**-110 and 2**163 (the smallest is the k = 1
    # Bernoulli term, about 1/(6 neg^2) >= 2**-109; the largest 12 neg (neg + pos)^2), so
    # every operation's bound holds unscaled.
    # Blocks: t = pos/neg for the block, then the elements are sorted into contiguous lists
    # by branch (phi's series, phi's logarithm, the harmonic form; the direct sum) and each
    # list is evaluated with the elements innermost (the series and logarithms by
    # horner_block and log_block), so that LLVM vectorises the loops.
    w, we = np.empty((7, block)), np.empty(block, np.int64)
    xh, xl = np.empty(block), np.empty(block)
    # per branch (0: phi's series, 1: phi's logarithm, 2: harmonic): the element's index,
    # pos, neg and t = pos/neg; the result and its to-do flag
    at = np.empty((3, block), np.int64)
    arg = np.empty((3, 4, block))
    few = np.empty(block, np.int64)
    sr_h, sr_l = np.empty(block), np.empty(block)
    yh, yl, lh, ll = np.empty(block), np.empty(block), np.empty(block), np.empty(block)
    res, flag = np.empty(block), np.empty(block, np.bool_)
    for i0 in range(0, pos.size, block):
        size = min(block, pos.size - i0)
        for j in range(size):
            xh[j], xl[j] = div(pos[i0 + j], 0.0, neg[i0 + j], 0.0)
        count = [0, 0, 0]
        n_few = 0
        for j in range(size):
            i = i0 + j
            p, n = pos[i], neg[i]
            if not p > few_max:
                few[n_few] = i
                n_few += 1
                continue
            branch = 2 if n < few_max else (0 if xh[j] <= series_max else 1)
            k = count[branch]
            count[branch] = k + 1
            at[branch, k] = i
            arg[branch, 0, k], arg[branch, 1, k] = p, n
            arg[branch, 2, k], arg[branch, 3, k] = xh[j], xl[j]
            if branch == 1:
                yh[k], yl[k] = add(xh[j], xl[j], 1.0, 0.0)
        horner_block(psi_h, psi_l, psi_dd, arg[0, 2], arg[0, 3], sr_h, sr_l, count[0])
        for branch in range(3):
            if branch == 2:  # ln(pos + neg) for the harmonic form
                for k in range(count[2]):
                    yh[k], yl[k] = arg[2, 0, k] + arg[2, 1, k], 0.0
            if branch >= 1:
                log_block(yh, yl, lh, ll, count[branch], w, we)
            p_, n_, th_, tl_ = arg[branch, 0], arg[branch, 1], arg[branch, 2], arg[branch, 3]
            for k in range(count[branch]):
                if branch == 0:  # phi(t)/t = t psi(t)
                    ph, pl = mul(sr_h[k], sr_l[k], th_[k], tl_[k])
                    vh, vl, rel = digamma_form(p_[k], n_[k], th_[k], tl_[k], ph, pl)
                elif branch == 1:  # phi(t)/t = (t - log(1 + t))/t
                    fh, fl = add(th_[k], tl_[k], -lh[k], -ll[k])
                    ph, pl = div(fh, fl, th_[k], tl_[k])
                    vh, vl, rel = digamma_form(p_[k], n_[k], th_[k], tl_[k], ph, pl)
                else:
                    vh, vl, rel = harmonic_form(p_[k], n_[k], lh[k], ll[k])
                res[k], flag[k] = decide(vh, vl, rel)
            for k in range(count[branch]):
                out[at[branch, k]] = res[k]
                todo[at[branch, k]] = flag[k]
        # the direct sum (and pos < 1, outside the range): the reference path's terms
        # i/(i + neg), i = 1..32, those beyond pos replaced by an exact 0
        top = 0.0
        fp, fn = arg[0, 0], arg[0, 1]
        for k in range(n_few):
            fp[k], fn[k] = pos[few[k]], neg[few[k]]
            top = max(top, fp[k])
        for k in range(n_few):
            sr_h[k], sr_l[k] = 0.0, 0.0
        for m in range(1, int(min(top, few_max)) + 1):
            for k in range(n_few):
                th, tl = div(float(m), 0.0, m + fn[k], 0.0)
                on = m <= fp[k]
                sr_h[k], sr_l[k] = add(sr_h[k], sr_l[k], th if on else 0.0, tl if on else 0.0)
        for k in range(n_few):
            vh, vl = div(sr_h[k], sr_l[k], fp[k], 0.0)
            res[k], flag[k] = decide(vh, vl, rel_ap)
            flag[k] |= ~(fp[k] >= 1.0)
        for k in range(n_few):
            out[few[k]] = res[k]
            todo[few[k]] = flag[k]


@jit(cache=True)
def expected_random_ap(pos: Any, neg: Any, out: Any, todo: Any) -> Any:
    # The operations of prtheory.floats.apmin._reference_expected (no scalings there), so
    # its bound, 2 REL_AP plus H_N's absolute bound over H_N (harmonic_big), holds. Range:
    # every valid pair with neg > 0 (the others go to the reference path): N = pos + neg
    # >= 2, both terms are 0 or in [2**-106, 1], N (N - 1) <= 2**106, so nothing underflows
    # or overflows. Blocks: ln N over a block (log_block; also for N < 32, whose H_N comes
    # from the table, so that no loop branches), then the rest, branch-free.
    w, we = np.empty((7, block)), np.empty(block, np.int64)
    yh, yl, lh, ll = np.empty(block), np.zeros(block), np.empty(block), np.empty(block)
    for i0 in range(0, pos.size, block):
        size = min(block, pos.size - i0)
        for j in range(size):
            yh[j] = max(pos[i0 + j] + neg[i0 + j], 1.0)  # in log's range, used or not
        log_block(yh, yl, lh, ll, size, w, we)
        for j in range(size):
            i = i0 + j
            p, n = pos[i], neg[i]
            total = p + n
            bh, bl, b_err = harmonic_big(total, lh[j], ll[j])
            small = total < few_max
            t = int(min(max(total, 0.0), few_max - 1.0))
            hh = table_h[t] if small else bh
            hl = table_l[t] if small else bl
            h_err = 2.0**-105 * table_h[t] if small else b_err
            fh, fl = div(p - 1.0, 0.0, total - 1.0, 0.0)
            mh, ml = mul(hh, hl, n, 0.0)
            ph, pl = two_prod(total, total - 1.0)
            sh, sl = div(mh, ml, ph, pl)
            vh, vl = add(fh, fl, sh, sl)
            y, undecided = decide(vh, vl, 2 * rel_ap + h_err / hh)
            out[i] = y
            todo[i] = undecided | ~((p >= 1.0) & (n >= 1.0))


KERNELS: dict[str, Any] = {
    "min_precision": min_precision,
    "gain": gain,
    "fbeta": fbeta,
    "aucpr_min": aucpr_min,
    "aucnpr": aucnpr,
    "ap_min": ap_min,
    "expected_random_ap": expected_random_ap,
}
