"""F4, F5, F8: precision, recall and F-beta gain (the harmonic rescaling onto [pi, 1])."""

from __future__ import annotations

from typing import Any

import numpy as np

from prtheory._input import as_float_array
from prtheory.floats import _slow, _tiers
from prtheory.floats._args import result, undefined_at
from prtheory.floats.dd import decide, div, frexp2, mul_fp, two_sum

Array = np.ndarray

#: Relative error bound of the reference path (derivation in :func:`_reference`).
REL = 2.0**-90


def _reference(x: Array, pi: Array) -> tuple[Array, Array]:
    """``(x - pi)/((1 - pi) x)`` in double-double over the whole float64 range (``x > 0``).

    ``x - pi`` is exact (2Sum, even among subnormals) and scaled exactly to [1/2, 1); ``x`` enters
    as its mantissa; ``(1 - pi) m_x`` is DWTimesFP1 (1.5u**2 + 4u**3) and the quotient DWDivDW2
    (15u**2 + 56u**3): below 17u**2 < 2**-97 < REL. The exponents are applied once, by the
    rounding test.
    """
    nh, nl, en = frexp2(*two_sum(x, -pi))
    mx, ex = np.frexp(x)
    dh, dl = mul_fp(*two_sum(np.ones_like(pi), -pi), mx)
    return decide(*div(nh, nl, dh, dl), en - ex, REL)


def _gain(x: Any, pi: Any, name: str, quantity: str) -> Any:
    """``(x - pi)/((1 - pi) x)`` (F4 with min = pi, max = 1), correctly rounded; ``-inf`` at
    ``x = 0 < pi``; exactly 0 at ``x = pi``."""
    x = as_float_array(x, name, 0.0, 1.0)
    pi = as_float_array(pi, "pi", 0.0, 1.0)
    x, pi = np.broadcast_arrays(x, pi)
    undefined_at(pi == 1, quantity, "pi = 1 (1 - pi = 0)", x, pi)
    undefined_at((x == 0) & (pi == 0), quantity, f"{name} = 0 at pi = 0 gives 0/0", x, pi)
    out = np.full(x.shape, -np.inf)
    _tiers.evaluate("gain", (x, pi), x != 0, out, _reference, _slow.exact_gain)
    return result(out)


def precision_gain(p: Any, pi: Any) -> Any:
    """Precision gain ``(p - pi)/((1 - pi) p)`` (F5). ``-inf`` at p = 0 < pi.

    Correctly rounded for every input: the fused kernel (relative error below 2**-97 for
    ``p >= 2**-900``), the numpy reference path (below 2**-97 everywhere), the rounding test after
    each, and the exact rational where neither decides."""
    return _gain(p, pi, "p", "precision gain")


def recall_gain(r: Any, pi: Any) -> Any:
    """Recall gain ``(r - pi)/((1 - pi) r)`` (F5). ``-inf`` at r = 0 < pi. Rounding as
    :func:`precision_gain`."""
    return _gain(r, pi, "r", "recall gain")


def fbeta_gain(f: Any, pi: Any) -> Any:
    """F-beta gain ``FG_beta = (F_beta - pi)/((1 - pi) F_beta)`` (F8), from an F-beta value ``f``.
    Rounding as :func:`precision_gain`."""
    return _gain(f, pi, "f", "F-beta gain")
