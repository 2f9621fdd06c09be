"""The compiled loop of :mod:`prtheory.ap_kernel` (imported only when numba is installed).

Module-level, calling the compiled primitives of :mod:`prtheory.floats.dd` as globals, so that
numba's on-disk cache finds it again in the next process (as :mod:`prtheory.floats._fused`).
"""

from __future__ import annotations

import math
from typing import Any

from prtheory.floats._kernels import _compiled_primitives, _jit

_P = _compiled_primitives()
add, add_fp, mul, div = _P["add"], _P["add_fp"], _P["mul"], _P["div"]


@_jit(cache=True)
def weighted_ap(order: Any, labels: Any, scores: Any, weights: Any, c: Any) -> Any:
    """AP as a double-double ``(hi, lo)`` (``(0, 0)`` when no weight is positive): the loop of
    :mod:`prtheory.ap_kernel` over the items ``order[0], order[1], ...`` (decreasing score),
    each weight scaled by ``2**c`` (exact)."""
    sh = sl = th = tl = nh = nl = gh = gl = 0.0
    n = order.size
    for j in range(n):
        i = order[j]
        w = math.ldexp(weights[i], c)
        nh, nl = add_fp(nh, nl, w)
        if labels[i]:
            th, tl = add_fp(th, tl, w)
            gh, gl = add_fp(gh, gl, w)
        if j == n - 1 or scores[order[j + 1]] != scores[i]:
            if gh > 0.0:
                qh, ql = div(th, tl, nh, nl)
                xh, xl = mul(gh, gl, qh, ql)
                sh, sl = add(sh, sl, xh, xl)
            gh = gl = 0.0
    if th == 0.0:
        return 0.0, 0.0
    return div(sh, sl, th, tl)
