"""Average precision with float weights in one compiled pass (double-double, a proved bound).

With float sample weights the exact AP (claim N2, ties grouped) has integer numerators over
``2**k`` that outgrow int64 (``k`` about 75 bits for uniform weights), and the exact path of
:mod:`prtheory.oracle.counts` sums them as Python integers. :func:`average_precision` instead
runs one numba loop over the items in decreasing score order in double-double arithmetic
(:mod:`prtheory.floats.dd`, the primitives of Joldes, Muller & Popescu with their proved
bounds), then the rounding test of :func:`prtheory.floats.dd.decide`. It returns ``None`` (the
caller takes the exact path) when numba is not installed or the kernel tier is off, when the
weights span more than :data:`MAX_BINADES` binades, when no item has positive weight, and when
the test cannot decide the rounding; so its result is always the correctly rounded exact AP.

The loop: for each item, in decreasing score order (any order within tied scores), add its
weight ``w`` (scaled by the exact power of two ``2**c``) to the cumulative total ``N``
(``add_fp``) and, if positive, to the cumulative positive weight ``TP`` and the block's gain
``g``; at the end of each block of tied scores with ``g > 0`` add the term ``g (TP / N)``
(``div``, ``mul``) to ``S`` (``add``). Then ``AP = S / P`` (``div``), ``P`` the final ``TP``.

Error bound (``u = 2**-53``; the JMP bounds hold because no quantity underflows or overflows,
see *Range*). ``TP``, ``N``, ``P`` and each ``g`` are sums of at most ``n`` non-negative floats
by DWPlusFP (relative error <= ``2u**2`` per step, the first step exact), so each is its exact
value times ``1 + θ`` with ``|θ| <= (1 + 2u**2)**n - 1 <= 2.02 n u**2``. Each term carries
``g``, ``TP`` and ``1/N`` (three such factors), DWDivDW2 (``16u**2``) and DWTimesDW1
(``7u**2``); ``S`` is a sum of ``m <= n`` non-negative terms by AccurateDWPlusDW (``4u**2`` per
step, so a factor within ``(1 + 4u**2)**n``), and the last division adds ``1/P`` and
``16u**2``. All factors are positive, so the relative error of the result is at most
``exp(x) - 1`` with ``x`` the sum of their bounds (``1/(1 - a) <= exp(1.01 a)`` for
``a <= 0.01``): ``x <= 1.01 (4 * 2.02 n + 4 n + 39) u**2 <= 12.3 n u**2 + 39.4 u**2``, and
``exp(x) - 1 <= 1.01 x <= (13 n + 41) u**2`` (:func:`relative_bound`, for ``n < 2**40``).
For ``n = 10**7`` that is ``2**-79``: the rounding is undecided only within that of a midpoint.

Range. ``c`` puts the largest weight below ``2**850``, so every sum is below ``2**890``
(``n < 2**40``), far from overflow and from the ``2**996`` limit of Dekker's splitting. If the
positive weights span ``r`` binades (``w_max < 2**r w_min``), then ``w >= 2**(849 - r)`` for
every non-zero weight, every precision ``TP/N >= w_min / (n w_max) > 2**(-r - 41)``, every
term ``g TP/N > 2**(808 - 2r)`` and ``AP > 2**(-r - 41)`` (a weighted mean of the
precisions). With ``r <= MAX_BINADES = 800`` all of them exceed ``2**-792``, far above the
``2**-969`` below which a product's low word loses bits; zero weights add nothing (exactly).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from prtheory.floats import _kernels, dd

__all__ = ["MAX_BINADES", "average_precision", "double_double", "relative_bound"]

#: The widest span of the non-zero weights (``log2(w_max / w_min)``) the kernel takes.
MAX_BINADES = 800
#: The largest weight is scaled below ``2**TOP`` (see the module's *Range*).
TOP = 850
#: The bound is proved for fewer items than this.
MAX_ITEMS = 2**40

_KERNEL: dict[str, Any] = {}


def relative_bound(n: int) -> float:
    """Bound on the relative error of the kernel's AP over ``n`` items (module docstring),
    at least ``2**-100`` (what :func:`prtheory.floats.dd.decide` requires)."""
    return max((13 * n + 41) * 2.0**-106, 2.0**-100)


def _kernel() -> Any:
    if "ap" not in _KERNEL:
        from prtheory import _ap_fused  # numba only

        _KERNEL["ap"] = _ap_fused.weighted_ap
    return _KERNEL["ap"]


def double_double(
    labels: np.ndarray, scores: np.ndarray, weights: np.ndarray
) -> tuple[float, float] | None:
    """The kernel's AP as a double-double ``(hi, lo)``, within :func:`relative_bound` of the exact
    AP, or ``None`` when the kernel does not apply (no numba or tier off, no positive weight
    in a non-empty input, weights beyond :data:`MAX_BINADES`)."""
    n = labels.size
    if not _kernels.enabled() or n == 0 or n >= MAX_ITEMS:
        return None
    nonzero = weights[weights > 0]
    if nonzero.size == 0:
        return None
    top = math.frexp(float(nonzero.max()))[1]  # w_max < 2**top
    bottom = math.frexp(float(nonzero.min()))[1] - 1  # w_min >= 2**bottom
    if top - bottom > MAX_BINADES:
        return None
    order = np.argsort(-scores)  # block-end sums do not depend on the order within ties
    hi, lo = _kernel()(order, labels, scores, weights, TOP - top)
    return None if hi == 0.0 else (float(hi), float(lo))


def average_precision(labels: np.ndarray, scores: np.ndarray, weights: np.ndarray) -> float | None:
    """Correctly rounded step AP of validated input with float64 weights (claim N2, ties
    grouped), or ``None`` when this path does not apply or cannot decide (module docstring).

    The rounding test is :func:`prtheory.floats.dd.decide` (the AP is a normal number, module
    docstring, so no rescaling is needed)."""
    dd_value = double_double(labels, scores, weights)
    if dd_value is None:
        return None
    hi, lo = dd_value
    rounded, undecided = dd.decide(np.array([hi]), np.array([lo]), 0, relative_bound(labels.size))
    return None if undecided[0] else float(rounded[0])
