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

#: An addend at or above ``2**JUMP`` in the sum's frame moves the sum into the addend's frame.
JUMP = 60.0


@jit(inline="always")
def add_weight(h: Any, lo: Any, e: Any, w: Any) -> Any:
    """``(h + lo) 2**e + w`` for a float ``w >= 0`` (``h = 0``: an empty sum)."""
    if w == 0.0:
        return h, lo, e
    if h == 0.0:
        m, we = math.frexp(w)
        return m, 0.0, we
    x = math.ldexp(w, -e)
    if x >= 2.0**JUMP:
        we = math.frexp(w)[1]
        h, lo, e, x = math.ldexp(h, e - we), math.ldexp(lo, e - we), we, math.ldexp(w, -we)
    h, lo = add_fp(h, lo, x)
    return h, lo, e


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
def weighted_area(order: Any, labels: Any, scores: Any, weights: Any, metric: Any) -> Any:
    """The area ``metric`` as a framed double-double and whether it is defined,
    ``(h, lo, e, defined)`` (undefined when a class it divides by has no weight): the loop of
    :mod:`prtheory.metrics.area_kernel` over the items ``order[0], order[1], ...`` (decreasing
    score)."""
    sh = slo = 0.0  # the sum of the terms
    th = tlo = nh = nlo = fh = flo = 0.0  # TP, N and FP through the current block
    ph = plo = mh = mlo = 0.0  # TP and N through the block above
    gh = glo = bh = blo = 0.0  # the block's positive and negative weight
    se = te = ne = fe = pe = me = ge = be = 0
    n = order.size
    for j in range(n):
        i = order[j]
        w = weights[i]
        nh, nlo, ne = add_weight(nh, nlo, ne, w)
        if labels[i]:
            th, tlo, te = add_weight(th, tlo, te, w)
            gh, glo, ge = add_weight(gh, glo, ge, w)
        else:
            fh, flo, fe = add_weight(fh, flo, fe, w)
            bh, blo, be = add_weight(bh, blo, be, w)
        if j < n - 1 and scores[order[j + 1]] == scores[i]:
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
