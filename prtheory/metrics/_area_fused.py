"""The compiled loop of :mod:`prtheory.metrics.area_kernel` (imported only when numba is installed).

Module-level, calling the compiled primitives of :mod:`prtheory.floats.dd` as globals, so that
numba's on-disk cache finds it again in the next process (as :mod:`prtheory.floats._fused`).
numba keys that cache on this file alone: after editing :mod:`prtheory.floats.dd`, clear
``__pycache__/_area_fused*.nb*`` or touch this file.
A *framed* double-double ``(h, lo, e)`` stands for ``(h + lo) 2**e``; the invariants and the
error of each step are derived in :mod:`prtheory.metrics.area_kernel`.
"""

from __future__ import annotations

import math
from typing import Any

from prtheory.floats.compiled import compiled_primitives, jit

_P = compiled_primitives()
add, add_fp, mul, div = _P["add"], _P["add_fp"], _P["mul"], _P["div"]
decide = _P["decide_unscaled"]

#: An addend at or above ``2**JUMP`` in the sum's frame moves the sum into the addend's frame.
JUMP = 60.0


@jit(inline="always")
def scale_of(e: Any) -> Any:
    """``2**-e`` when it is a normal float, else 0.0 (:func:`add_weight` then uses ``ldexp``)."""
    return math.ldexp(1.0, -e) if -1022 <= -e <= 1023 else 0.0


@jit(inline="always")
def add_weight(h: Any, lo: Any, e: Any, sc: Any, w: Any) -> Any:
    """``(h + lo) 2**e + w`` for a float ``w >= 0`` (``h = 0``: an empty sum), with ``sc`` the
    frame's :func:`scale_of`: ``w sc`` is ``w 2**-e`` correctly rounded, as ``ldexp`` gives it."""
    if w == 0.0:
        return h, lo, e, sc
    if h == 0.0:
        m, we = math.frexp(w)
        return m, 0.0, we, scale_of(we)
    x = w * sc if sc != 0.0 else math.ldexp(w, -e)
    if x >= 2.0**JUMP:
        we = math.frexp(w)[1]
        h, lo, e, x = math.ldexp(h, e - we), math.ldexp(lo, e - we), we, math.ldexp(w, -we)
        sc = scale_of(e)
    h, lo = add_fp(h, lo, x)
    return h, lo, e, sc


@jit(inline="always")
def add_term(h: Any, lo: Any, e: Any, th: Any, tl: Any, te: Any) -> Any:
    """``(h + lo) 2**e + (th + tl) 2**te`` for framed double-doubles ``>= 0``."""
    if th == 0.0:
        return h, lo, e
    if h == 0.0:
        return th, tl, te
    if te - e >= JUMP:
        h, lo, e = math.ldexp(h, e - te), math.ldexp(lo, e - te), te
    h, lo = add(h, lo, math.ldexp(th, te - e), math.ldexp(tl, te - e))
    return h, lo, e


#: What :func:`weighted_area` sums: average precision, the trapezoid with first point
#: (0, 1), (0, p_first) or none, and the ROC AUC.
AP, TRAPEZOID_ONE, TRAPEZOID_FIRST, TRAPEZOID_NONE, ROC = 0, 1, 2, 3, 4


@jit(cache=True)
def weighted_area(labels: Any, scores: Any, weights: Any, metric: Any) -> Any:
    """The area ``metric`` as a framed double-double and whether it is defined,
    ``(h, lo, e, defined)`` (undefined when a class it divides by has no weight): the loop of
    :mod:`prtheory.metrics.area_kernel` over the items sorted by decreasing score (the arrays
    are in that order: reading them in sequence is what keeps the loop fast)."""
    sh = slo = 0.0  # the sum of the terms
    th = tlo = nh = nlo = fh = flo = 0.0  # TP, N and FP through the current block
    ph = plo = mh = mlo = 0.0  # TP and N through the block above
    gh = glo = bh = blo = 0.0  # the block's positive and negative weight
    se = te = ne = fe = pe = me = ge = be = 0
    tc = nc = fc = gc = bc = 0.0
    n = labels.size
    for i in range(n):
        w = weights[i]
        nh, nlo, ne, nc = add_weight(nh, nlo, ne, nc, w)
        if labels[i]:
            th, tlo, te, tc = add_weight(th, tlo, te, tc, w)
            gh, glo, ge, gc = add_weight(gh, glo, ge, gc, w)
        else:
            fh, flo, fe, fc = add_weight(fh, flo, fe, fc, w)
            bh, blo, be, bc = add_weight(bh, blo, be, bc, w)
        if i < n - 1 and scores[i + 1] == scores[i]:
            continue
        if metric == ROC:
            if bh > 0.0:  # the block's negatives: 2 TP above + g (ties count one half)
                xh, xlo, xe = add_term(2.0 * ph, 2.0 * plo, pe, gh, glo, ge)
                xh, xlo = mul(bh, blo, xh, xlo)
                sh, slo, se = add_term(sh, slo, se, xh, xlo, xe + be)
        elif gh > 0.0 and (mh > 0.0 or metric != TRAPEZOID_NONE):  # "none": no first segment
            qh, qlo = div(th, tlo, nh, nlo)
            qe = te - ne
            if metric != AP:  # a trapezoid: add the precision it starts from
                if mh > 0.0:  # the precision at the block above
                    yh, ylo = div(ph, plo, mh, mlo)
                    ye = pe - me
                elif metric == TRAPEZOID_ONE:
                    yh, ylo, ye = 1.0, 0.0, 0
                else:  # TRAPEZOID_FIRST: the first point's own precision
                    yh, ylo, ye = qh, qlo, qe
                qh, qlo, qe = add_term(qh, qlo, qe, yh, ylo, ye)
            xh, xlo = mul(gh, glo, qh, qlo)
            sh, slo, se = add_term(sh, slo, se, xh, xlo, ge + qe)
        ph, plo, pe, mh, mlo, me = th, tlo, te, nh, nlo, ne
        gh = glo = bh = blo = 0.0
    if th == 0.0 or (metric == ROC and fh == 0.0):
        return 0.0, 0.0, 0, False
    if metric == ROC:  # / (2 pos neg)
        dh, dlo = mul(th, tlo, fh, flo)
        ah, alo = div(sh, slo, dh, dlo)
        return ah, alo, se - te - fe - 1, True
    ah, alo = div(sh, slo, th, tlo)
    return ah, alo, se - te - (0 if metric == AP else 1), True


@jit(cache=True)
def block_sums(labels: Any, scores: Any, weights: Any, ends: Any, sums: Any, frames: Any) -> Any:
    """Cumulative TP and N at the end of every block of tied scores (items sorted by
    decreasing score), as framed double-doubles: block ``b`` ends at item ``ends[b]``; rows
    ``2q`` and ``2q + 1`` of ``sums`` hold the high and low words of quantity ``q`` (TP, N) and
    ``frames[q]`` its exponent. Returns the number of blocks."""
    th = tlo = nh = nlo = 0.0
    te = ne = 0
    tc = nc = 0.0
    n = labels.size
    b = 0
    for i in range(n):
        w = weights[i]
        nh, nlo, ne, nc = add_weight(nh, nlo, ne, nc, w)
        if labels[i]:
            th, tlo, te, tc = add_weight(th, tlo, te, tc, w)
        if i < n - 1 and scores[i + 1] == scores[i]:
            continue
        ends[b] = i
        sums[0, b], sums[1, b], frames[0, b] = th, tlo, te
        sums[2, b], sums[3, b], frames[1, b] = nh, nlo, ne
        b += 1
    return b


@jit(cache=True)
def quotients(nh: Any, nlo: Any, ne: Any, dh: Any, dlo: Any, de: Any, out: Any, frame: Any) -> None:
    """``out[0] + out[1]`` times ``2**frame`` is ``(nh + nlo) 2**ne / ((dh + dlo) 2**de)``
    (DWDivDW2, elementwise; a zero numerator gives an exact 0)."""
    for i in range(nh.size):
        if nh[i] == 0.0:
            out[0, i] = out[1, i] = 0.0
            frame[i] = 0
        else:
            out[0, i], out[1, i] = div(nh[i], nlo[i], dh[i], dlo[i])
            frame[i] = ne[i] - de[i]


@jit(inline="always")
def rounded_quotient(nh: Any, nlo: Any, dh: Any, dlo: Any, rel: Any, scale: Any, e: Any) -> Any:
    """``(value, to do)``: the correctly rounded ``(nh + nlo) / (dh + dlo)`` times ``2**e`` of
    framed sums within ``rel`` of their quotient (``scale`` is ``2**e`` when that is a normal
    float, else 0); *to do* where the test cannot decide or the value is below ``2**-1021``
    (scaling the rounded mantissa would round twice)."""
    if nh == 0.0:
        return 0.0, False
    qh, qlo = div(nh, nlo, dh, dlo)
    y, undecided = decide(qh, qlo, rel)
    value = y * scale if scale != 0.0 else math.ldexp(y, e)
    return value, undecided or value < 2.0**-1021


@jit(cache=True)
def pr_points(
    labels: Any,
    scores: Any,
    weights: Any,
    ends: Any,
    sums: Any,
    frames: Any,
    out: Any,
    todo: Any,
    positive: Any,
) -> Any:
    """Precision ``TP/N`` and recall ``TP/P`` at the end of every block of tied scores, rounded
    (:func:`rounded_quotient`, with the bound of :func:`prtheory.metrics.area_kernel.ratio_bound`
    for sums of ``k`` items within ``3.03 k u**2``): rows 0 and 1 of ``out``; ``todo`` marks
    the values left to the caller, ``positive`` the blocks that hold a positive label. The
    block sums are kept in ``sums``/``frames`` as by :func:`block_sums`. Returns the number of
    blocks."""
    count = block_sums(labels, scores, weights, ends, sums, frames)
    u2 = 2.0**-106
    ph, plo, pe = sums[0, count - 1], sums[1, count - 1], frames[0, count - 1]
    total = labels.size
    start = 0
    scale_p = scale_r = 0.0
    last_p = last_r = 1 << 30  # the exponent whose 2**e the scale holds
    for b in range(count):
        end = ends[b]
        found = False
        for i in range(start, end + 1):
            found = found or labels[i]
        positive[b] = found
        start = end + 1
        k = end + 1.0
        rel_p = max(1.01 * (6.06 * k * u2) + 17.0 * u2, 2.0**-100)
        rel_r = max(1.01 * (3.03 * (k + total) * u2) + 17.0 * u2, 2.0**-100)
        th, tlo, te = sums[0, b], sums[1, b], frames[0, b]
        ep, er = te - frames[1, b], te - pe
        if ep != last_p:
            scale_p, last_p = scale_of(-ep), ep
        if er != last_r:
            scale_r, last_r = scale_of(-er), er
        out[0, b], todo[0, b] = rounded_quotient(
            th, tlo, sums[2, b], sums[3, b], rel_p, scale_p, ep
        )
        out[1, b], todo[1, b] = rounded_quotient(th, tlo, ph, plo, rel_r, scale_r, er)
    return count
