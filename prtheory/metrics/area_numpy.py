"""The float-weight areas and block sums of :mod:`prtheory.metrics.area_kernel` without numba:
vectorised numpy in double-double, with a proved error bound.

The compiled kernel walks the items one by one; numpy cannot. Here every quantity is formed
from *prefix sums* of the weights in decreasing score order, computed by a blocked scan, and
from elementwise double-double operations (:mod:`prtheory.floats.dd`), with the same
definitions as the kernel (module docstring of :mod:`~prtheory.metrics.area_kernel`), written
per item instead of per block (``sum_b g_b x_b = sum_{positive i} w_i x_{b(i)}``):

* AP: ``S = sum_{positive i} w_i TP_b/N_b``, ``AP = S/P``;
* trapezoid: ``S = sum_{positive i} w_i (TP_{b-1}/N_{b-1} + TP_b/N_b)`` (the first point's
  precision in place of the first quotient where nothing is above the block), area ``S/(2P)``;
* ROC: ``S = sum_{positive i} w_i (NB_b + NBE_b)`` with ``NB_b`` and ``NBE_b`` the negative
  weight scored below block ``b`` and at or below it (suffix sums: no cancellation),
  ``AUC = S/(2PQ)``.

Prefix sums. Weights are split into *bands* of at most :data:`BAND` binades (one band unless
they span more than 900 binades: 2**±1000 weights make two), each scaled by a power of two so
its largest weight lies in [1/2, 1) (exact: no scaled weight falls below 2**-902). A band's
inclusive prefix sums come from a blocked scan: the ``n`` items in ``m`` blocks of ``B`` (``B`` about
``sqrt(n)/4``), the running sum of every block advanced one item at a time by DWPlusFP,
vectorised over the blocks (``2u**2`` per step), then each block's total added to the blocks
after it (AccurateDWPlusDW, ``3.01u**2``). All addends are non-negative, so a prefix is its
exact value times ``(1 + 3.01u**2)**(B + m + 1)`` at most: within ``3.02 (B + m + 1) u**2``.
A lower band joins the upper in the upper's scale (exact, or below 2**-1074 absolute against
an upper sum of at least 2**-902: ``2**-170`` relative) by one more AccurateDWPlusDW; bands
*separated* by at least ``log2 n + 110`` binades (2**±1000 weights) are not joined: where the
upper band holds weight the lower one's sum is below ``n 2**-(log2 n + 109) <= 2**-108`` of it,
and is left out. So every prefix sum, TP, N, P, Q and the suffix sums, is within
``theta = 3.02 (B + m + 4) u**2`` (:func:`prefix_bound`) for up to three bands.

Terms. Each sum is normalised to a framed double-double ``(h, l, e)`` (``h`` in [1/2, 1)),
quotients by DWDivDW2 (``16u**2``) on the mantissas, weights split exactly by ``frexp``, products
by DWTimesFP1 (``2u**2``): every term of AP and the trapezoid is within ``2.01 theta + 21.1u**2``,
of ROC within ``theta + 5.1u**2``. The terms are shifted to the frame of the largest (exact,
or below 2**-1074 absolute against a largest term of at least 1/4: negligible, under
``2**-1000`` relative) and added pairwise, ``D = ceil(log2 n) + 1`` levels of AccurateDWPlusDW.
The final division by ``P`` (``theta + 16u**2``) or by ``2PQ`` (``2 theta + 23u**2``) closes
the bound: the relative error is at most ``1.02 (3 theta + (3.02 D + 45) u**2)``
(:func:`relative_bound`), about ``2**-90`` at ``10**7`` items. The rounding test then decides
as for the kernel, and an undecided value takes the exact path.
"""

from __future__ import annotations

import math

import numpy as np

from prtheory.floats.dd import add, div, frexp2, mul, mul_fp

__all__ = ["BAND", "framed", "prefix_bound", "prefix_sums", "quotient", "relative_bound"]

#: The most binades one band of weights spans (scaled weights stay at or above 2**-902).
BAND = 900
#: Bands at least ``log2(n) + SEPARATED`` binades apart are *separated*: a lower band's sum is
#: then below ``2**-108`` of any non-zero sum of the band above, and is left out there.
SEPARATED = 110
U2 = 2.0**-106

Framed = tuple[np.ndarray, ...]


def _shape(n: int) -> tuple[int, int]:
    """``(B, m)``: items per block and blocks of the scan of ``n`` items (``B`` about
    ``sqrt(n)/4``: fewer, longer vectorised steps)."""
    rows = max(1, math.isqrt(max(n, 1)) // 4)
    return rows, -(-n // rows)


def prefix_bound(n: int) -> float:
    """``theta``, the relative error bound of every prefix sum of ``n`` items (module
    docstring).

    Parameters
    ----------
    n : int
        The items.

    Returns
    -------
    float
        ``theta``, the prefix sums' relative bound.

    See Also
    --------
    prefix_sums

    Examples
    --------
    >>> from prtheory.metrics.area_numpy import prefix_bound
    >>> prefix_bound(3) < prefix_bound(10**6) < 2.0**-90
    True
    """
    rows, blocks = _shape(n)
    return 3.02 * (rows + blocks + 4) * U2


def relative_bound(n: int) -> float:
    """The relative error bound of :func:`framed` over ``n`` items, at least ``2**-100``.

    Parameters
    ----------
    n : int
        The items.

    Returns
    -------
    float
        The bound, at least ``2**-100``.

    See Also
    --------
    framed

    Examples
    --------
    >>> from prtheory.metrics.area_numpy import relative_bound
    >>> relative_bound(3) >= 2.0**-100
    True
    """
    depth = math.ceil(math.log2(max(n, 2))) + 1
    return max(1.02 * (3 * prefix_bound(n) + (3.02 * depth + 45) * U2), 2.0**-100)


def _scan(x: np.ndarray, at: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Inclusive prefix sums of non-negative ``x`` (no sum overflowing) at the items ``at``, as
    double-doubles, by the blocked scan of the module docstring."""
    n = x.size
    rows, blocks = _shape(n)
    grid = np.zeros(rows * blocks)
    grid[:n] = x
    grid = np.ascontiguousarray(grid.reshape(blocks, rows).T)  # row j: item j of every block
    hs, ls = np.empty((rows, blocks)), np.empty((rows, blocks))
    h, lo = np.zeros(blocks), np.zeros(blocks)
    s, bb, e = np.empty(blocks), np.empty(blocks), np.empty(blocks)
    for j in range(rows):  # DWPlusFP (2Sum, then Fast2Sum), in place
        v = grid[j]
        np.add(h, v, out=s)
        np.subtract(s, h, out=bb)
        np.subtract(s, bb, out=e)
        np.subtract(h, e, out=e)
        np.subtract(v, bb, out=bb)
        np.add(e, bb, out=e)
        np.add(lo, e, out=e)
        np.add(s, e, out=h)
        np.subtract(h, s, out=bb)
        np.subtract(e, bb, out=lo)
        hs[j], ls[j] = h, lo
    # each block's total added to the blocks after it, in order (exclusive prefix of totals)
    oh, ol = np.zeros(blocks), np.zeros(blocks)
    ch = cl = 0.0
    for k in range(1, blocks):
        ch, cl = add(ch, cl, float(h[k - 1]), float(lo[k - 1]))
        oh[k], ol[k] = ch, cl
    blk = at // rows
    # item i is row i % B of block i // B: in block-major order (one transpose) the items are
    # read in sequence
    hs, ls = hs.T.reshape(-1), ls.T.reshape(-1)
    return add(hs[at], ls[at], oh[blk], ol[blk])


def prefix_sums(x: np.ndarray, at: np.ndarray, *, normalised: bool = True) -> Framed:
    """Inclusive prefix sums of non-negative finite ``x`` at the items ``at``, as framed
    double-doubles ``(h, l, e)``, each within :func:`prefix_bound` of the exact value (module
    docstring: bands, scan, joins). ``normalised``: ``h`` in [1/2, 1) (or all 0 for an empty
    sum); else ``e`` is the band's scale and ``h`` at least ``2**-902`` (or 0): enough for
    quotients, which need no normalisation.

    Parameters
    ----------
    x : ndarray of float
        Non-negative, finite.
    at : ndarray of int
        The items whose inclusive prefix sums are wanted.
    normalised : bool
        Whether ``h`` is in [1/2, 1) (default True).

    Returns
    -------
    tuple of ndarray
        Framed double-doubles ``(h, l, e)``.

    See Also
    --------
    prefix_bound, quotient

    Examples
    --------
    1, 1 + 2, 1 + 2 + 3 = 1, 3, 6 as ``(1/2) 2**1``, ``(3/4) 2**2``, ``(3/4) 2**3``:

    >>> import numpy as np
    >>> from prtheory.metrics.area_numpy import prefix_sums
    >>> h, l, e = prefix_sums(np.array([1.0, 2.0, 3.0]), np.array([0, 1, 2]))
    >>> h.tolist(), e.tolist()
    ([0.5, 0.75, 0.75], [1, 2, 3])
    """
    largest = float(x.max())
    if largest == 0:
        return np.zeros(at.size), np.zeros(at.size), np.zeros(at.size, dtype=np.int64)
    top = math.frexp(largest)[1]
    positive = x > 0
    if math.frexp(float(x[positive].min()))[1] > top - BAND:  # one band: its scan is the sum
        h, lo = _scan(np.ldexp(x, -top), at)
        scale = np.full(at.size, top)
        return _normalised(h, lo, scale) if normalised else (h, lo, scale)
    _, exps = np.frexp(x)
    tops = [top]  # each band: exponents in (top - BAND, top]
    while True:
        rest = exps[positive & (exps <= tops[-1] - BAND)]
        if rest.size == 0:
            break
        tops.append(int(rest.max()))
    members = []
    for k, top in enumerate(tops):
        mine = positive & (exps <= top)
        if k + 1 < len(tops):
            mine &= exps > top - BAND
        members.append(mine)
    gaps = [
        int(exps[members[k]].min()) - tops[k + 1] for k in range(len(tops) - 1)
    ]  # binades between a band's least weight and the next band's greatest
    if min(gaps) >= math.log2(x.size) + SEPARATED:
        return _separated(x, at, tops, members, normalised)
    bands = [
        (top, *_scan(np.ldexp(np.where(mine, x, 0.0), -top), at))
        for top, mine in zip(tops, members, strict=True)
    ]
    # every prefix in the scale of the highest band it holds weight of; the lower bands join
    # it there (module docstring)
    scale = np.full(at.size, tops[-1])
    for top, bh, _ in reversed(bands):
        scale = np.where(bh != 0, top, scale)
    h, lo = np.zeros(at.size), np.zeros(at.size)
    for top, bh, bl in bands:
        with np.errstate(under="ignore"):
            h, lo = add(h, lo, np.ldexp(bh, top - scale), np.ldexp(bl, top - scale))
    return _normalised(h, lo, scale) if normalised else (h, lo, scale)


def _separated(
    x: np.ndarray, at: np.ndarray, tops: list[int], members: list[np.ndarray], normalised: bool
) -> Framed:
    """Prefix sums of bands far apart: each prefix is the sum of the highest band it holds
    weight of, the lower bands left out (module docstring), each lower band scanned only where
    the bands above hold nothing (and only as far as those items)."""
    h, lo = _scan(np.ldexp(np.where(members[0], x, 0.0), -tops[0]), at)
    scale = np.full(at.size, tops[0])
    todo = np.flatnonzero(h == 0)
    for top, mine in zip(tops[1:], members[1:], strict=True):
        if todo.size == 0:
            break
        reach = int(at[todo].max()) + 1  # the prefix the items still to do need
        bh, bl = _scan(np.ldexp(np.where(mine[:reach], x[:reach], 0.0), -top), at[todo])
        held = bh != 0
        h[todo[held]], lo[todo[held]], scale[todo[held]] = bh[held], bl[held], top
        todo = todo[~held]
    return _normalised(h, lo, scale) if normalised else (h, lo, scale)


def _normalised(h: np.ndarray, lo: np.ndarray, scale: np.ndarray) -> Framed:
    """``(h + lo) 2**scale`` with ``h`` scaled into [1/2, 1) (exact; zeros stay 0)."""
    with np.errstate(under="ignore"):
        hs, ls, e = frexp2(h, lo)
    return hs, ls, np.where(h == 0, 0, e + scale).astype(np.int64)


def _at(v: Framed, idx: np.ndarray) -> Framed:
    return v[0][idx], v[1][idx], v[2][idx]


def quotient(a: Framed, b: Framed) -> Framed:
    """``a / b`` of framed values (``b`` non-zero), DWDivDW2 on the mantissas; 0 where ``a``
    is 0.

    Parameters
    ----------
    a, b : tuple of ndarray
        Framed values, ``b`` non-zero.

    Returns
    -------
    tuple of ndarray
        Framed ``a / b``.

    See Also
    --------
    prefix_sums

    Examples
    --------
    Each prefix sum over itself is 1:

    >>> import numpy as np
    >>> from prtheory.metrics.area_numpy import prefix_sums, quotient
    >>> s = prefix_sums(np.array([1.0, 2.0, 3.0]), np.array([0, 1, 2]))
    >>> h, l, e = quotient(s, s)
    >>> (h * 2.0**e).tolist()
    [1.0, 1.0, 1.0]
    """
    zero = a[0] == 0
    if not zero.any():
        qh, ql = div(a[0], a[1], b[0], b[1])
        return qh, ql, a[2] - b[2]
    with np.errstate(divide="ignore", invalid="ignore"):  # 0/0 where the numerator is 0
        qh, ql = div(a[0], a[1], np.where(zero, 1.0, b[0]), np.where(zero, 0.0, b[1]))
    return np.where(zero, 0.0, qh), np.where(zero, 0.0, ql), np.where(zero, 0, a[2] - b[2])


def _sum(terms: Framed) -> Framed:
    """The sum of non-negative framed terms: shifted into the frame of the largest, then added
    pairwise (module docstring)."""
    h, lo, e = terms
    nonzero = h != 0
    if not nonzero.any():
        return np.zeros(1), np.zeros(1), np.zeros(1, dtype=np.int64)
    top = int(e[nonzero].max())
    with np.errstate(under="ignore"):
        h, lo = np.ldexp(h[nonzero], e[nonzero] - top), np.ldexp(lo[nonzero], e[nonzero] - top)
    while h.size > 1:
        if h.size % 2:
            h, lo = np.append(h, 0.0), np.append(lo, 0.0)
        h, lo = add(h[0::2], lo[0::2], h[1::2], lo[1::2])
    return _normalised(h, lo, np.array([top]))


def _times_weights(v: Framed, w: np.ndarray) -> Framed:
    """``v * w`` elementwise for floats ``w >= 0`` (split exactly by ``frexp``)."""
    wm, we = np.frexp(w)
    ph, pl = mul_fp(v[0], v[1], wm)
    return ph, pl, v[2] + we


def _plus(a: Framed, b: Framed) -> Framed:
    """``a + b`` of non-negative framed values, in the frame of the larger (AccurateDWPlusDW;
    the smaller shifted, exactly or within 2**-1074 of the larger's frame)."""
    top = np.maximum(np.where(a[0] != 0, a[2], b[2]), np.where(b[0] != 0, b[2], a[2]))
    with np.errstate(under="ignore"):
        ah, al = np.ldexp(a[0], a[2] - top), np.ldexp(a[1], a[2] - top)
        bh, bl = np.ldexp(b[0], b[2] - top), np.ldexp(b[1], b[2] - top)
    h, lo = add(ah, al, bh, bl)
    return h, lo, top


def framed(
    labels: np.ndarray, scores: np.ndarray, weights: np.ndarray, metric: str
) -> tuple[float, float, int] | None:
    """The area ``metric`` (one of :data:`prtheory.metrics.area_kernel.METRICS`) of items
    sorted by decreasing score, as a framed double-double within :func:`relative_bound`;
    ``None`` when a class it divides by has no weight (module docstring).

    Parameters
    ----------
    labels : ndarray of bool
        Validated labels, sorted by decreasing score.
    scores : ndarray of float
        Validated scores, decreasing.
    weights : ndarray of float
        Validated float64 weights.
    metric : str
        One of :data:`prtheory.metrics.area_kernel.METRICS`.

    Returns
    -------
    tuple or None
        ``(h, l, e)``, or None when a class it divides by has no weight.

    See Also
    --------
    relative_bound
    prtheory.metrics.area_kernel.framed : the compiled path.

    Examples
    --------
    The AP 5/6 of labels 1, 0, 1, framed as ``(5/3) 2**-1``:

    >>> from fractions import Fraction
    >>> import numpy as np
    >>> from prtheory.metrics.area_numpy import framed, relative_bound
    >>> h, l, e = framed(np.array([True, False, True]), np.array([0.9, 0.8, 0.7]), np.ones(3), "ap")
    >>> value = (Fraction(h) + Fraction(l)) * Fraction(2) ** e
    >>> abs(value - Fraction(5, 6)) <= Fraction(relative_bound(3)) * Fraction(5, 6)
    True
    """
    n = labels.size
    last = np.array([n - 1])
    starts = np.concatenate(([True], scores[1:] != scores[:-1]))
    block = np.cumsum(starts) - 1  # each item's block
    ends = np.append(np.flatnonzero(starts[1:]), n - 1)
    pos_w = np.where(labels, weights, 0.0)
    positive = np.flatnonzero(labels & (weights > 0))
    if positive.size == 0:
        return None
    w, b = weights[positive], block[positive]
    used, inverse = np.unique(b, return_inverse=True)  # the blocks holding positive weight
    if metric == "roc":
        neg_w = np.where(labels, 0.0, weights)
        first = np.flatnonzero(starts)
        # suffix sums of the negatives: prefix sums of the reversed array, at and below each
        # used block (the item index n - 1 - k reversed)
        rev = np.concatenate((n - 1 - first[used], n - 2 - ends[used], [n - 1]))
        below_none = ends[used] == n - 1
        suffix = prefix_sums(neg_w[::-1], np.maximum(rev, 0))
        q = _at(suffix, np.array([rev.size - 1]))
        if q[0][0] == 0:
            return None
        k = used.size
        at_or_below = _at(suffix, np.arange(k))
        below = _at(suffix, np.arange(k, 2 * k))
        below = tuple(np.where(below_none, 0, v) for v in below)
        both = _plus(below, at_or_below)
        s = _sum(_times_weights(_at(both, inverse), w))
        p = prefix_sums(pos_w, last)
        pq = mul(p[0], p[1], q[0], q[1])
        ah, al = div(s[0], s[1], *pq)
        return float(ah[0]), float(al[0]), int(s[2][0] - p[2][0] - q[2][0] - 1)
    trapezoid = metric != "ap"
    above = np.where(used > 0, ends[np.maximum(used - 1, 0)], 0)
    idx = np.concatenate((ends[used], above, last)) if trapezoid else np.append(ends[used], n - 1)
    tp = prefix_sums(pos_w, idx)
    everything = prefix_sums(weights, idx)
    k = used.size
    here = quotient(_at(tp, np.arange(k)), _at(everything, np.arange(k)))
    total_p = _at(tp, np.array([idx.size - 1]))
    if not trapezoid:
        return _divided(_sum(_times_weights(_at(here, inverse), w)), total_p, 0)
    first_point = metric.split("-")[1]
    n_above = _at(everything, np.arange(k, 2 * k))
    has_above = (used > 0) & (n_above[0] != 0)
    prev = quotient(_at(tp, np.arange(k, 2 * k)), n_above)
    if first_point == "sklearn":
        head: Framed = (np.full(k, 0.5), np.zeros(k), np.ones(k, dtype=np.int64))
    else:
        head = here
    prev = tuple(np.where(has_above, p, q) for p, q in zip(prev, head, strict=True))
    both = _plus(prev, here)
    if first_point == "none":  # the first segment, from the first block's point, has no area
        both = tuple(np.where(has_above, v, 0) for v in both)
    return _divided(_sum(_times_weights(_at(both, inverse), w)), total_p, 1)


def _divided(s: Framed, p: Framed, halve: int) -> tuple[float, float, int]:
    ah, al = div(s[0], s[1], p[0], p[1])
    return float(ah[0]), float(al[0]), int(s[2][0] - p[2][0] - halve)
