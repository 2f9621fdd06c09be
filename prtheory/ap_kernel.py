"""Average precision with float weights in one compiled pass (double-double, a proved bound).

With float sample weights the exact AP (claim N2, ties grouped) has integer numerators over
``2**k`` that outgrow int64 (``k`` about 75 bits for uniform weights, thousands of bits for
weights spanning 2**-1000 .. 2**1000), and the exact path of :mod:`prtheory.oracle.counts` sums
them as Python integers. :func:`average_precision` instead runs one numba loop over the items in
decreasing score order in double-double arithmetic (:mod:`prtheory.floats.dd`, the primitives of
Joldes, Muller & Popescu with their proved bounds), each quantity carrying its own binary
exponent, then the rounding test of :func:`prtheory.floats.dd.decide`. It returns ``None`` (the
caller takes the exact path) when numba is not installed or the kernel tier is off, when no
item has positive weight, and when the test cannot decide the rounding; so its result is
always the correctly rounded exact AP.

The loop: for each item, in decreasing score order (any order within tied scores), add its
weight ``w`` to the cumulative total ``N`` and, if positive, to the cumulative positive weight
``TP`` and the block's gain ``g``; at the end of each block of tied scores with ``g > 0`` add the
term ``g (TP / N)`` (``div``, ``mul``) to ``S`` (``add``). Then ``AP = S / P`` (``div``), ``P``
the final ``TP``.

Frames. Each of ``N``, ``TP``, ``g`` and ``S`` is a framed double-double ``(h, l, e)``, the value
``(h + l) 2**e`` (:mod:`prtheory._ap_fused`). A sum starts in the frame of its first addend
(``frexp``: ``h`` in ``[1/2, 1)``); an addend is scaled into the sum's frame by ``ldexp`` (exact
unless it lands below ``2**-1022``, where it is within ``2**-1074`` absolute), and an addend of
``2**60`` or more in that frame first moves the sum into the addend's frame (the sum's words are
then within ``2**-1074`` absolute). So every non-empty weight sum has ``1/2 <= h < n 2**60``,
every precision ``TP/N`` has ``h`` in ``[2**-101, 2**101]`` (frame ``e_TP - e_N``), every term
``h`` in ``[2**-102, 2**201]`` and ``S`` has ``2**-102 <= h < 2**302`` (``n < 2**40``): no
double-double operation underflows (below ``2**-969`` a product's low word loses bits) or
overflows, whatever the weights (every finite float, subnormals included).

Error bound (``u = 2**-53``). Adding a weight costs DWPlusFP's ``2u**2`` plus at most ``2**-1074``
absolute from the scaling against a sum of at least ``1/2``: within ``3u**2`` relative. So
``TP``, ``N``, ``P`` and each ``g``, sums of at most ``n`` non-negative floats starting exactly,
are their exact values times ``1 + θ`` with ``|θ| <= (1 + 3u**2)**n - 1 <= 3.03 n u**2``. Each
term carries ``g``, ``TP`` and ``1/N`` (three such factors), DWDivDW2 (``16u**2``) and
DWTimesDW1 (``7u**2``); ``S`` adds ``m <= n`` non-negative terms by AccurateDWPlusDW (``4u**2``)
plus the scaling (``2 * 2**-1074`` absolute against ``h >= 2**-102``), within ``5u**2`` per
step; the last division adds ``1/P`` and ``16u**2``. All factors are positive, so the relative
error is at most ``exp(x) - 1`` with ``x`` the sum of their bounds (``1/(1 - a) <= exp(1.01 a)``
for ``a <= 0.01``): ``x <= 1.01 (4 * 3.03 n + 5 n + 39) u**2 <= 17.3 n u**2 + 39.4 u**2``, and
``exp(x) - 1 <= 1.01 x <= (18 n + 41) u**2`` (:func:`relative_bound`, for ``n < 2**40``). For
``n = 10**7`` that is ``2**-78``: the rounding is undecided only that close to a midpoint. The
result ``(h + l) 2**e`` is rounded at scale 1 and scaled by ``2**e``, exact unless the AP is
below ``2**-1021`` (then the exact path rounds it once).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from prtheory.floats import _kernels, dd

__all__ = ["average_precision", "double_double", "relative_bound"]

#: The bound is proved for fewer items than this.
MAX_ITEMS = 2**40

_KERNEL: dict[str, Any] = {}


def relative_bound(n: int) -> float:
    """Bound on the relative error of the kernel's AP over ``n`` items (module docstring),
    at least ``2**-100`` (what :func:`prtheory.floats.dd.decide` requires)."""
    return max((18 * n + 41) * 2.0**-106, 2.0**-100)


def _kernel() -> Any:
    if "ap" not in _KERNEL:
        from prtheory import _ap_fused  # numba only

        _KERNEL["ap"] = _ap_fused.weighted_ap
    return _KERNEL["ap"]


def double_double(
    labels: np.ndarray, scores: np.ndarray, weights: np.ndarray
) -> tuple[float, float, int] | None:
    """The kernel's AP as a framed double-double ``(h, l, e)``, the value ``(h + l) 2**e``,
    within :func:`relative_bound` of the exact AP; ``None`` when the kernel does not apply (no
    numba or tier off, no item, no positive weight)."""
    n = labels.size
    if not _kernels.enabled() or n == 0 or n >= MAX_ITEMS:
        return None
    order = np.argsort(-scores)  # block-end sums do not depend on the order within ties
    h, lo, e = _kernel()(order, labels, scores, weights)
    return None if h == 0.0 else (float(h), float(lo), int(e))


def average_precision(labels: np.ndarray, scores: np.ndarray, weights: np.ndarray) -> float | None:
    """Correctly rounded step AP of validated input with float64 weights (claim N2, ties
    grouped), or ``None`` when this path does not apply or cannot decide (module docstring).

    The rounding test is :func:`prtheory.floats.dd.decide` at scale 1; scaling the float by
    ``2**e`` is exact while the result is normal."""
    framed = double_double(labels, scores, weights)
    if framed is None:
        return None
    h, lo, e = framed
    rounded, undecided = dd.decide(np.array([h]), np.array([lo]), 0, relative_bound(labels.size))
    value = math.ldexp(float(rounded[0]), e)
    return None if undecided[0] or value < 2.0**-1022 else value
