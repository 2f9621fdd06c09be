"""AP, PR trapezoid and ROC AUC with float weights in one compiled pass (double-double, a proved
bound).

With float sample weights the exact AP (claim N2, ties grouped) has integer numerators over
``2**k`` that outgrow int64 (``k`` about 75 bits for uniform weights, thousands of bits for
weights spanning 2**-1000 .. 2**1000), and the exact path of :mod:`prtheory.oracle.counts` sums
them as Python integers; the trapezoidal areas under the PR and ROC curves likewise.
:func:`rounded` instead runs one numba loop over the items in
decreasing score order in double-double arithmetic (:mod:`prtheory.floats.dd`, the primitives of
Joldes, Muller & Popescu with their proved bounds), each quantity carrying its own binary
exponent, then the rounding test of :func:`prtheory.floats.dd.decide`. It returns ``None`` (the
caller takes the exact path) when numba is not installed or the kernel tier is off, when no
item has positive weight, and when the test cannot decide the rounding; so its result is
always the correctly rounded exact AP.

The loop: for each item, in decreasing score order (any order within tied scores), add its
weight ``w`` to the cumulative total ``N`` and to the cumulative positive weight ``TP`` and the
block's gain ``g`` (a positive) or the cumulative ``FP`` and the block's negative weight ``b``;
at the end of each block of tied scores add the block's term to ``S``, then keep ``TP`` and
``N`` as ``TP_a``, ``N_a`` (the block above the next one). ``P`` and ``Q`` are the final ``TP``
and ``FP``:

* AP (claim N2, ties grouped): term ``g (TP/N)`` for ``g > 0``; ``AP = S / P``;
* trapezoid (straight lines between the points (recall, precision), as scikit-learn's
  ``auc(recall, precision)``): term ``g (TP_a/N_a + TP/N)`` for ``g > 0``, where the first
  block (``N_a = 0``) has ``TP_a/N_a`` replaced by the first point's precision (``"sklearn"``:
  1; ``"spark"``: its own ``TP/N``; ``"none"``: no term); area ``S / (2P)``;
* ROC AUC (Mann-Whitney with ties one half, as scikit-learn's ``roc_auc_score``): term
  ``b (2 TP_a + g)`` for ``b > 0``, each negative counting the positive weight above it and
  half the tied; ``AUC = S / (2 P Q)``.

Every term and every sum is of non-negative quantities, which is what makes a relative error
bound possible without cancellation.

Frames. Each of ``N``, ``TP``, ``FP``, ``g``, ``b`` and ``S`` is a framed double-double ``(h, l, e)``, the value
``(h + l) 2**e`` (:mod:`prtheory.metrics._area_fused`). A sum starts in the frame of its first addend
(``frexp``: ``h`` in ``[1/2, 1)``); an addend is scaled into the sum's frame by ``ldexp`` (exact
unless it lands below ``2**-1022``, where it is within ``2**-1074`` absolute), and an addend of
``2**60`` or more in that frame first moves the sum into the addend's frame (the sum's words are
then within ``2**-1074`` absolute). So every non-empty weight sum has ``1/2 <= h < n 2**60``,
every precision ``TP/N`` has ``h`` in ``[2**-101, 2**101]`` (frame ``e_TP - e_N``), every term
``h`` in ``[2**-102, 2**203]`` and ``S`` has ``2**-102 <= h < 2**304`` (``n < 2**40``): no
double-double operation underflows (below ``2**-969`` a product's low word loses bits) or
overflows, whatever the weights (every finite float, subnormals included).

Error bound (``u = 2**-53``). Adding a weight costs DWPlusFP's ``2u**2`` plus at most ``2**-1074``
absolute from the scaling against a sum of at least ``1/2``: within ``3u**2`` relative. So
``TP``, ``N``, ``FP``, ``P``, ``Q`` and each ``g`` and ``b``, sums of at most ``n`` non-negative
floats starting exactly, are their exact values times ``1 + θ`` with
``|θ| <= (1 + 3u**2)**n - 1 <= 3.03 n u**2``. A framed addition (``add``, AccurateDWPlusDW,
``4u**2``, plus the scaling's ``2 * 2**-1074`` absolute against ``h >= 2**-102``) is within
``5u**2``; DWDivDW2 ``16u**2``, DWTimesDW1 ``7u**2``. Per term:

* AP: ``g``, ``TP``, ``1/N`` (three θ), one division and one product: ``3θ + 23u**2``;
* trapezoid: each precision within ``2θ + 16u**2``, their sum ``5u**2``, then ``g`` and the
  product: ``3θ + 28u**2``;
* ROC: ``TP_a`` or ``g`` (one θ), their sum ``5u**2``, ``b`` and the product: ``2θ + 12u**2``.

``S`` adds at most ``n`` non-negative terms, a factor within ``(1 + 5u**2)**n``; the result
divides by ``P`` (θ and ``16u**2``), or by ``P Q`` (two θ, ``7u**2`` and ``16u**2``); halving is
exact. All factors are positive, so the relative error is at most ``exp(x) - 1`` with ``x`` the
sum of their bounds (``1/(1 - a) <= exp(1.01 a)`` for ``a <= 0.01``): for AP
``x <= 1.01 (4 * 3.03 n + 5 n + 39) u**2``, for the trapezoid ``1.01 (17.12 n + 44) u**2``, for
ROC ``1.01 (17.12 n + 35) u**2``; with ``exp(x) - 1 <= 1.01 x`` that is at most
``(18 n + 41) u**2`` (AP, ROC) and ``(18 n + 46) u**2`` (trapezoid) (:func:`relative_bound`, for
``n < 2**40``). For ``n = 10**7``: ``2**-78``; the rounding is undecided only that close to a
midpoint. The result ``(h + l) 2**e`` is rounded at scale 1 and scaled by ``2**e``, exact unless
the value is below ``2**-1021`` (then the exact path rounds it once).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from prtheory.floats import compiled, dd
from prtheory.metrics import area_numpy

__all__ = [
    "METRICS",
    "BlockSums",
    "average_precision",
    "block_sums",
    "framed",
    "quick_decide",
    "ratio_bound",
    "relative_bound",
    "rounded",
    "rounded_ratios",
]

#: The areas :func:`rounded` computes: average precision, the trapezoid under the PR curve with
#: a named first point, the ROC AUC.
METRICS = ("ap", "trapezoid-sklearn", "trapezoid-spark", "trapezoid-none", "roc")

#: The bound is proved for fewer items than this.
MAX_ITEMS = 2**40

_KERNEL: dict[str, Any] = {}


def relative_bound(n: int, metric: str = "ap") -> float:
    """Bound on the relative error of the kernel's ``metric`` over ``n`` items (module
    docstring), at least ``2**-100`` (what :func:`prtheory.floats.dd.decide` requires).

    Parameters
    ----------
    n : int
        The items.
    metric : str
        One of :data:`METRICS` (default ``"ap"``).

    Returns
    -------
    float
        The bound, at least ``2**-100``.

    See Also
    --------
    framed

    Examples
    --------
    It grows with ``n`` and stays far below float64's ``2**-53``:

    >>> from prtheory.metrics.area_kernel import relative_bound
    >>> relative_bound(3) < relative_bound(10**6) < 2.0**-53
    True
    """
    extra = 46 if metric.startswith("trapezoid") else 41
    return max((18 * n + extra) * 2.0**-106, 2.0**-100)


def _kernels() -> Any:
    """The compiled module (imported on first use: numba only)."""
    if "fused" not in _KERNEL:
        from prtheory.metrics import _area_fused

        _KERNEL["fused"] = _area_fused
    return _KERNEL["fused"]


def _sorted(
    labels: np.ndarray, scores: np.ndarray, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The items by decreasing score (any order within ties: the sums at the end of a block do
    not depend on it), gathered once so that the kernels read them in sequence."""
    order = np.argsort(-scores)
    # one random gather: the label rides in the weight's sign bit (-0.0 for a negative of
    # weight 0); the sorted scores are the same sequence whichever permutation sorts them
    signed = np.where(labels, weights, -weights)[order]
    return ~np.signbit(signed), np.sort(scores)[::-1], np.abs(signed)


def framed(
    labels: np.ndarray, scores: np.ndarray, weights: np.ndarray, metric: str = "ap"
) -> tuple[float, float, int] | None:
    """The kernel's ``metric`` (one of :data:`METRICS`) as a framed double-double ``(h, l, e)``,
    the value ``(h + l) 2**e``, within :func:`relative_bound` of the exact value; ``None`` when
    the kernel does not apply (no numba or tier off, no item, a class it divides by without
    weight; an area that is exactly 0, with no term, is ``(0.0, 0.0, 0)``).

    Parameters
    ----------
    labels : ndarray of bool
        Validated labels.
    scores : ndarray of float
        Validated scores.
    weights : ndarray of float
        Validated float64 weights.
    metric : str
        One of :data:`METRICS` (default ``"ap"``).

    Returns
    -------
    tuple or None
        ``(h, l, e)`` with value ``(h + l) 2**e``, or None where the kernel does not apply.

    See Also
    --------
    relative_bound, rounded

    Examples
    --------
    The AP 5/6 lies within :func:`relative_bound` of the framed value (None where the compiled
    tier is off):

    >>> from fractions import Fraction
    >>> import numpy as np
    >>> from prtheory.floats import compiled
    >>> from prtheory.metrics.area_kernel import framed, relative_bound
    >>> out = framed(np.array([True, False, True]), np.array([0.9, 0.8, 0.7]), np.ones(3))
    >>> def within(h, l, e):
    ...     value = (Fraction(h) + Fraction(l)) * Fraction(2) ** e
    ...     return abs(value - Fraction(5, 6)) <= Fraction(relative_bound(3)) * Fraction(5, 6)
    >>> within(*out) if compiled.enabled() else out is None
    True
    """
    n = labels.size
    if not compiled.enabled() or n == 0 or n >= MAX_ITEMS:
        return None
    ls, ss, ws = _sorted(labels, scores, weights)
    h, lo, e, defined = _kernels().weighted_area(ls, ss, ws, METRICS.index(metric))
    return (float(h), float(lo), int(e)) if defined else None


def rounded(
    labels: np.ndarray, scores: np.ndarray, weights: np.ndarray, metric: str = "ap"
) -> float | None:
    """Correctly rounded ``metric`` of validated input with float64 weights, or ``None`` when
    this path does not apply or cannot decide (module docstring).

    The rounding test is :func:`prtheory.floats.dd.decide` at scale 1; scaling the float by
    ``2**e`` is exact while the result is normal.

    Parameters
    ----------
    labels : ndarray of bool
        Validated labels.
    scores : ndarray of float
        Validated scores.
    weights : ndarray of float
        Validated float64 weights.
    metric : str
        One of :data:`METRICS` (default ``"ap"``).

    Returns
    -------
    float or None
        The correctly rounded metric, or None.

    See Also
    --------
    framed, average_precision

    Examples
    --------
    Labels 1, 0, 1 ranked as given: AUROC 1/2 (one of two pairs right):

    >>> import numpy as np
    >>> from prtheory.metrics.area_kernel import rounded
    >>> rounded(np.array([True, False, True]), np.array([0.9, 0.8, 0.7]), np.ones(3), "roc")
    0.5
    """
    n = labels.size
    if compiled.enabled():
        value, bound = framed(labels, scores, weights, metric), relative_bound(n, metric)
    elif 0 < n < MAX_ITEMS:  # the vectorised numpy path, with its own bound
        value = area_numpy.framed(*_sorted(labels, scores, weights), metric)
        bound = area_numpy.relative_bound(n)
    else:
        return None
    if value is None:
        return None
    h, lo, e = value
    near, undecided = dd.decide(np.array([h]), np.array([lo]), 0, bound)
    result = math.ldexp(float(near[0]), e)
    return None if undecided[0] or (h != 0.0 and result < 2.0**-1022) else result


def average_precision(labels: np.ndarray, scores: np.ndarray, weights: np.ndarray) -> float | None:
    """:func:`rounded` average precision (claim N2, ties grouped).

    Parameters
    ----------
    labels : ndarray of bool
        Validated labels.
    scores : ndarray of float
        Validated scores.
    weights : ndarray of float
        Validated float64 weights.

    Returns
    -------
    float or None
        The correctly rounded AP, or None where this path does not apply or decide.

    See Also
    --------
    rounded
    prtheory.average_precision : the public entry point.

    Examples
    --------
    Positives at ranks 1 and 3, unit float weights: 5/6:

    >>> from fractions import Fraction
    >>> import numpy as np
    >>> from prtheory.metrics.area_kernel import average_precision
    >>> labels, scores = np.array([True, False, True]), np.array([0.9, 0.8, 0.7])
    >>> average_precision(labels, scores, np.ones(3)) == float(Fraction(5, 6))
    True
    """
    return rounded(labels, scores, weights, "ap")


@dataclass(frozen=True)
class BlockSums:
    """Cumulative sums at the end of every block of tied scores, by decreasing score.

    ``thresholds[b]`` is block ``b``'s score and ``positive[b]`` whether it holds a positive
    label; ``tp`` and ``n`` (the positive and the total weight) are framed double-doubles
    ``(high, low, exponent)``
    (arrays), each within ``rel[b]`` (relative) of the exact cumulative weight: ``3.03 k u**2``
    for the ``k`` items through the block on the compiled path (module docstring: a sum of
    ``k`` non-negative floats), :func:`prtheory.metrics.area_numpy.prefix_bound` on the numpy
    path.

    Parameters
    ----------
    thresholds : ndarray of float
        Each block's score, decreasing.
    rel : ndarray of float
        Each block's relative error bound.
    positive : ndarray of bool
        Whether each block holds a positive label.
    tp, n : tuple of ndarray
        Framed double-doubles ``(high, low, exponent)`` of the cumulative positive and total
        weight.

    See Also
    --------
    block_sums : computes them.

    Examples
    --------
    See :func:`block_sums`.

    >>> import numpy as np
    >>> from prtheory.metrics.area_kernel import block_sums
    >>> block_sums(np.array([True]), np.array([0.5]), np.array([1.0])).positive.tolist()
    [True]
    """

    thresholds: np.ndarray
    rel: np.ndarray
    positive: np.ndarray
    tp: tuple[np.ndarray, ...]
    n: tuple[np.ndarray, ...]


def block_sums(labels: np.ndarray, scores: np.ndarray, weights: np.ndarray) -> BlockSums | None:
    """The :class:`BlockSums` of validated input with float64 weights, by the compiled kernel
    or, without numba, by the numpy path; ``None`` with no item or too many.

    Parameters
    ----------
    labels : ndarray of bool
        Validated labels.
    scores : ndarray of float
        Validated scores.
    weights : ndarray of float
        Validated float64 weights.

    Returns
    -------
    BlockSums or None
        The cumulative sums per block, or None with no item or too many.

    See Also
    --------
    BlockSums

    Examples
    --------
    Untied scores 0.9, 0.8, 0.7 with labels 1, 0, 1 and unit weights: cumulative TP 1, 1, 2 and
    items 1, 2, 3, framed as ``h 2**e`` with ``h`` in [1/2, 1):

    >>> import numpy as np
    >>> from prtheory.metrics.area_kernel import block_sums
    >>> b = block_sums(np.array([True, False, True]), np.array([0.9, 0.8, 0.7]), np.ones(3))
    >>> (b.tp[0] * 2.0 ** b.tp[2]).tolist(), (b.n[0] * 2.0 ** b.n[2]).tolist()
    ([1.0, 1.0, 2.0], [1.0, 2.0, 3.0])
    """
    size = labels.size
    if size == 0 or size >= MAX_ITEMS:
        return None
    ls, ss, ws = _sorted(labels, scores, weights)
    if compiled.enabled():
        ends = np.empty(size, dtype=np.int64)
        sums = np.empty((4, size))
        frames = np.empty((2, size), dtype=np.int64)
        count = _kernels().block_sums(ls, ss, ws, ends, sums, frames)
        ends, sums, frames = ends[:count], sums[:, :count], frames[:, :count]
        parts: list[tuple[np.ndarray, ...]] = [
            (sums[2 * q], sums[2 * q + 1], frames[q]) for q in range(2)
        ]
        rel = 3.03 * (ends + 1) * 2.0**-106
    else:
        ends = np.append(np.flatnonzero(ss[1:] != ss[:-1]), size - 1)
        parts = [
            area_numpy.prefix_sums(x, ends, normalised=False) for x in (np.where(ls, ws, 0.0), ws)
        ]
        rel = np.full(ends.size, area_numpy.prefix_bound(size))
    starts = np.concatenate(([0], ends[:-1] + 1))
    positive = np.add.reduceat(ls.astype(np.int64), starts) > 0
    return BlockSums(ss[ends], rel, positive, *parts)


def rounded_ratios(
    num: tuple[np.ndarray, ...],
    num_rel: np.ndarray,
    den: tuple[np.ndarray, ...],
    den_rel: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Correctly rounded ``num/den`` of framed sums within ``num_rel`` and ``den_rel`` of their
    exact values, elementwise, and the mask of the elements whose rounding the bound cannot
    decide.

    The quotient (DWDivDW2 on the mantissas, ``16 u**2``) is within
    ``1.01 (num_rel + den_rel + 16 u**2)`` (the factor 1.01 covers the products of the small
    terms, each below ``2**-60``): :func:`ratio_bound`. The rounding test is
    :func:`prtheory.floats.dd.decide`, which rounds a subnormal result once, exactly.

    Parameters
    ----------
    num : tuple of ndarray
        Framed numerators.
    num_rel : ndarray
        Their relative bounds.
    den : tuple of ndarray
        Framed denominators.
    den_rel : ndarray
        Their relative bounds.

    Returns
    -------
    tuple of ndarray
        The correctly rounded quotients and the undecided mask.

    See Also
    --------
    ratio_bound

    Examples
    --------
    Cumulative TP over cumulative items of :func:`block_sums`' example: precision 1, 1/2, 2/3:

    >>> from fractions import Fraction
    >>> import numpy as np
    >>> from prtheory.metrics.area_kernel import block_sums, rounded_ratios
    >>> b = block_sums(np.array([True, False, True]), np.array([0.9, 0.8, 0.7]), np.ones(3))
    >>> p, undecided = rounded_ratios(b.tp, b.rel, b.n, b.rel)
    >>> p.tolist() == [1.0, 0.5, float(Fraction(2, 3))], bool(undecided.any())
    (True, False)
    """
    size = num[0].size
    if compiled.enabled():
        spread = tuple(np.ascontiguousarray(np.broadcast_to(v, (size,))) for v in den)
        out = np.empty((2, size))
        frame = np.empty(size, dtype=np.int64)
        _kernels().quotients(*num, *spread, out, frame)
        h, lo = out
    else:  # numpy broadcasts a single denominator
        h, lo, frame = area_numpy.quotient(num, den)
    return quick_decide(h, lo, frame, ratio_bound(num_rel + den_rel))


def quick_decide(
    h: np.ndarray, lo: np.ndarray, e: np.ndarray, rel: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`prtheory.floats.dd.decide` for ``h >= 0``, its common case in a few passes.

    With ``r = 2 rel h``, ``fl(lo + r) >= lo + rel h`` and ``fl(lo - r) <= lo - rel h`` (the
    proof of :func:`~prtheory.floats.dd.decide`), so when ``fl(lo + r)`` is below half the gap
    from ``h`` to the next float up and ``fl(lo - r)`` above minus half the gap to the next float
    down, every value the bound allows rounds to ``h``, strictly inside its rounding interval:
    the result is ``h 2**e``, exact while it is normal. The other elements (near a rounding
    boundary, or with a result below ``2**-1021``) go through ``decide`` itself.

    Parameters
    ----------
    h, lo : ndarray
        Double-double approximations, ``h >= 0``.
    e : ndarray of int
        Their exponents.
    rel : ndarray
        Their relative error bounds.

    Returns
    -------
    tuple of ndarray
        ``(y, undecided)``.

    See Also
    --------
    prtheory.floats.dd.decide

    Examples
    --------
    ``(3/4) 2**1`` within ``2**-90`` rounds to 1.5:

    >>> import numpy as np
    >>> from prtheory.metrics.area_kernel import quick_decide
    >>> y, undecided = quick_decide(np.array([0.75]), np.array([0.0]), np.array([1]), np.array([2.0**-90]))
    >>> y.tolist(), undecided.tolist()
    ([1.5], [False])
    """
    r = 2.0 * rel * h
    with np.errstate(over="ignore", under="ignore"):
        up = np.nextafter(h, np.inf) - h
        down = h - np.nextafter(h, 0.0)
        y = np.ldexp(h, e)
    inside = (lo + r < up / 2) & (lo - r > -down / 2) & (y >= 2.0**-1021)
    rest = np.flatnonzero(~inside)
    undecided = np.zeros(h.size, dtype=bool)
    if rest.size:
        ee = np.broadcast_to(e, h.shape)[rest]
        y[rest], undecided[rest] = dd.decide(
            h[rest], lo[rest], ee, np.broadcast_to(rel, h.shape)[rest]
        )
    return y, undecided


def ratio_bound(rel: np.ndarray) -> np.ndarray:
    """The relative error bound of :func:`rounded_ratios` for quotients of sums within
    ``rel`` (numerator's and denominator's bounds added), at least ``2**-100``.

    Parameters
    ----------
    rel : ndarray
        The numerators' and denominators' bounds, added.

    Returns
    -------
    ndarray
        ``1.01 rel + 17 u**2`` (``u = 2**-53``; ``17 >= 1.01 x 16``), at least ``2**-100``.

    See Also
    --------
    rounded_ratios

    Examples
    --------
    A bound of ``10**-20`` becomes ``1.01e-20 + 17 2**-106`` (about ``1.01e-20 + 2.1e-31``);
    a tiny one is raised to ``2**-100``:

    >>> import numpy as np
    >>> from prtheory.metrics.area_kernel import ratio_bound
    >>> b = ratio_bound(np.array([1e-20, 0.0]))
    >>> bool(b[0] == 1.01 * 1e-20 + 17 * 2.0**-106), bool(b[1] == 2.0**-100)
    (True, True)
    """
    bound: np.ndarray = np.maximum(1.01 * rel + 17 * 2.0**-106, 2.0**-100)
    return bound


def pr_points(
    labels: np.ndarray, scores: np.ndarray, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """Precision and recall at every block end, by decreasing score, correctly rounded from
    the block sums: ``(precision, recall, thresholds, positive, undecided)``, ``undecided``
    marking the blocks whose ratios the bound cannot decide (the caller rounds them from exact
    counts). ``None`` with no positive weight, no item or too many.

    The compiled path rounds in the kernel (:func:`prtheory.metrics._area_fused.pr_points`)
    and leaves to :func:`rounded_ratios` only what it marks (a value below ``2**-1021``, or
    undecided); the numpy path is :func:`block_sums` and :func:`rounded_ratios`."""
    size = labels.size
    if size == 0 or size >= MAX_ITEMS:
        return None
    if not compiled.enabled():
        blocks = block_sums(labels, scores, weights)
        if blocks is None or blocks.tp[0][-1] == 0.0:
            return None
        last = tuple(v[-1:] for v in blocks.tp)
        rel = blocks.rel
        precision, undecided_p = rounded_ratios(blocks.tp, rel, blocks.n, rel)
        recall, undecided_r = rounded_ratios(blocks.tp, rel, last, rel[-1])
        return precision, recall, blocks.thresholds, blocks.positive, undecided_p | undecided_r
    ls, ss, ws = _sorted(labels, scores, weights)
    ends = np.empty(size, dtype=np.int64)
    sums = np.empty((4, size))
    frames = np.empty((2, size), dtype=np.int64)
    out = np.empty((2, size))
    todo = np.empty((2, size), dtype=np.bool_)
    positive = np.empty(size, dtype=np.bool_)
    count = _kernels().pr_points(ls, ss, ws, ends, sums, frames, out, todo, positive)
    ends, sums, frames = ends[:count], sums[:, :count], frames[:, :count]
    if sums[0, -1] == 0.0:
        return None
    precision, recall, todo = out[0, :count], out[1, :count], todo[:, :count]
    tp, n = (sums[0], sums[1], frames[0]), (sums[2], sums[3], frames[1])
    rel = 3.03 * (ends + 1) * 2.0**-106
    undecided = np.zeros(count, dtype=bool)
    for row, (values, den, den_rel) in enumerate(
        ((precision, n, rel), (recall, tuple(v[-1:] for v in tp), rel[-1]))
    ):
        at = np.flatnonzero(todo[row])
        if at.size:
            sub = tuple(v[at] for v in tp)
            den_at = den if den[0].size == 1 else tuple(v[at] for v in den)
            # precision: each block's own denominator bound; recall: the total's, for all
            den_rel_at = den_rel[at] if np.ndim(den_rel) else np.broadcast_to(den_rel, at.shape)
            values[at], still = rounded_ratios(sub, rel[at], den_at, den_rel_at)
            undecided[at[still]] = True
    return precision, recall, ss[ends], positive[:count], undecided
