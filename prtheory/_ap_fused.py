"""The compiled loop of :mod:`prtheory.ap_kernel` (imported only when numba is installed).

Module-level, calling the compiled primitives of :mod:`prtheory.floats.dd` as globals, so that
numba's on-disk cache finds it again in the next process (as :mod:`prtheory.floats._fused`).
A *framed* double-double ``(h, lo, e)`` stands for ``(h + lo) 2**e``; the invariants and the
error of each step are derived in :mod:`prtheory.ap_kernel`.
"""

from __future__ import annotations

import math
from typing import Any

from prtheory.floats._kernels import _compiled_primitives, _jit

_P = _compiled_primitives()
add, add_fp, mul, div = _P["add"], _P["add_fp"], _P["mul"], _P["div"]

#: An addend at or above ``2**JUMP`` in the sum's frame moves the sum into the addend's frame.
JUMP = 60.0


@_jit(inline="always")
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


@_jit(inline="always")
def add_term(h: Any, lo: Any, e: Any, th: Any, tl: Any, te: Any) -> Any:
    """``(h + lo) 2**e + (th + tl) 2**te`` for framed double-doubles ``>= 0``."""
    if h == 0.0:
        return th, tl, te
    if te - e >= JUMP:
        h, lo, e = math.ldexp(h, e - te), math.ldexp(lo, e - te), te
    h, lo = add(h, lo, math.ldexp(th, te - e), math.ldexp(tl, te - e))
    return h, lo, e


@_jit(cache=True)
def weighted_ap(order: Any, labels: Any, scores: Any, weights: Any) -> Any:
    """AP as a framed double-double ``(h, lo, e)`` (``h = 0`` when no weight is positive): the
    loop of :mod:`prtheory.ap_kernel` over the items ``order[0], order[1], ...`` (decreasing
    score)."""
    sh = sl = th = tl = nh = nl = gh = gl = 0.0
    se = te = ne = ge = 0
    n = order.size
    for j in range(n):
        i = order[j]
        w = weights[i]
        nh, nl, ne = add_weight(nh, nl, ne, w)
        if labels[i]:
            th, tl, te = add_weight(th, tl, te, w)
            gh, gl, ge = add_weight(gh, gl, ge, w)
        if j == n - 1 or scores[order[j + 1]] != scores[i]:
            if gh > 0.0:
                qh, ql = div(th, tl, nh, nl)
                xh, xl = mul(gh, gl, qh, ql)
                sh, sl, se = add_term(sh, sl, se, xh, xl, ge + te - ne)
            gh = gl = 0.0
    if th == 0.0:
        return 0.0, 0.0, 0
    ah, al = div(sh, sl, th, tl)
    return ah, al, se - te
