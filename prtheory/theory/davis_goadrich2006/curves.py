"""ROC and PR curves of small rankings, written from the definitions (claims D1-D3, D7), for the
enumerations that check the dominance theorem and its corollary.

Python lists and Fractions only; no oracle code. A ranking is ``(labels, scores)`` with ties
allowed (:func:`prtheory.theory.common.scored` makes one of a tuple of tied blocks); its ROC
curve joins the origin to the (FP, TP) counts at every distinct score threshold
(a tie block is one diagonal segment), which is also its curve in PR space under Davis &
Goadrich's interpolation (FP linear in TP along each segment).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

__all__ = [
    "dominates_pr",
    "dominates_roc",
    "fp_at",
    "pr_precision_at",
    "roc_vertices",
    "tp_at",
    "wmw",
]

Vertex = tuple[int, int]  # (FP, TP)


def roc_vertices(labels: Sequence[int], scores: Sequence[int]) -> list[Vertex]:
    """(FP, TP) from the origin through every distinct threshold ``score >= t``, counted item by
    item.

    Parameters
    ----------
    labels : sequence of int
        1 = positive.
    scores : sequence of int
        Higher ranks first; equal scores are tied.

    Returns
    -------
    list of (int, int)
        The vertices (FP, TP), from (0, 0).

    Examples
    --------
    Untied, then the same items as one tied block (a diagonal segment):

    >>> from prtheory.theory.davis_goadrich2006.curves import roc_vertices
    >>> roc_vertices([1, 0, 1, 0], [4, 3, 2, 1])
    [(0, 0), (0, 1), (1, 1), (1, 2), (2, 2)]
    >>> roc_vertices([1, 0, 1, 0], [1, 1, 1, 1])
    [(0, 0), (2, 2)]
    """
    out = [(0, 0)]
    for t in sorted(set(scores), reverse=True):
        tp = sum(1 for y, s in zip(labels, scores, strict=True) if y and s >= t)
        fp = sum(1 for y, s in zip(labels, scores, strict=True) if not y and s >= t)
        out.append((fp, tp))
    return out


def _on_segment_value(
    curve: Sequence[Vertex], x: Fraction, axis: int, side: str
) -> Fraction | None:
    """The other coordinate of the segment of ``curve`` that covers ``x`` on ``side`` ("left":
    the segment ending at or after ``x`` that starts before it; "right": the one starting at or
    before ``x`` that ends after it), evaluated at ``x``: a one-sided limit. None if none does."""
    for a, b in itertools.pairwise(curve):
        xa, xb, ya, yb = a[axis], b[axis], a[1 - axis], b[1 - axis]
        if (side == "left" and xa < x <= xb) or (side == "right" and xa <= x < xb):
            return ya + (yb - ya) * (x - xa) / (xb - xa)
    return None


def tp_at(curve: Sequence[Vertex], f: Fraction) -> Fraction:
    """The largest TP of the piecewise-linear ROC curve at FP = ``f`` (the top of a vertical
    segment there).

    Parameters
    ----------
    curve : sequence of (int, int)
        Vertices (FP, TP) (:func:`roc_vertices`).
    f : Fraction
        The FP.

    Returns
    -------
    Fraction
        TP there.

    Examples
    --------
    ``A`` rises from (1, 1) to (1, 2) at FP = 1, and is flat at TP = 1 from FP = 0 to 1:

    >>> from fractions import Fraction
    >>> from prtheory.theory.davis_goadrich2006.curves import roc_vertices, tp_at
    >>> A = roc_vertices([1, 0, 1, 0], [4, 3, 2, 1])  # positive, negative, positive, negative
    >>> B = roc_vertices([0, 1, 0, 1], [4, 3, 2, 1])  # negative, positive, negative, positive
    >>> tp_at(A, Fraction(1)), tp_at(A, Fraction(1, 2))
    (Fraction(2, 1), Fraction(1, 1))
    """
    return (
        max(Fraction(t) for v, t in curve if v == f)
        if any(v == f for v, _ in curve)
        else (_on_segment_value(curve, f, 0, "left") or Fraction(0))
    )


def fp_at(curve: Sequence[Vertex], t: Fraction) -> Fraction:
    """The least FP at which the curve reaches TP = ``t`` > 0 (where it first gets there).

    Parameters
    ----------
    curve : sequence of (int, int)
        Vertices (FP, TP).
    t : Fraction
        The TP, > 0.

    Returns
    -------
    Fraction
        FP there.

    Raises
    ------
    ValueError
        ``t`` is not on the curve.

    Examples
    --------
    ``A`` reaches TP = 2 at FP = 1 (the segment from (1, 1) to (1, 2)); ``B`` reaches
    TP = 1/2 halfway up its segment from (1, 0) to (1, 1):

    >>> from fractions import Fraction
    >>> from prtheory.theory.davis_goadrich2006.curves import fp_at, roc_vertices
    >>> A = roc_vertices([1, 0, 1, 0], [4, 3, 2, 1])  # positive, negative, positive, negative
    >>> B = roc_vertices([0, 1, 0, 1], [4, 3, 2, 1])  # negative, positive, negative, positive
    >>> fp_at(A, Fraction(2)), fp_at(B, Fraction(1, 2))
    (Fraction(1, 1), Fraction(1, 1))
    >>> fp_at(A, Fraction(3))
    Traceback (most recent call last):
    ...
    ValueError: TP = 3 is not on the curve
    """
    value = _on_segment_value(curve, t, 1, "left")
    if value is None:
        raise ValueError(f"TP = {t} is not on the curve")
    return value


def pr_precision_at(curve: Sequence[Vertex], t: Fraction, side: str = "left") -> Fraction:
    """Precision in PR space at TP = ``t`` > 0 under Davis-Goadrich interpolation, from the PR
    points themselves: between consecutive points A and B the point at ``TP_A + x`` has
    precision ``(TP_A + x)/(TP_A + x + FP_A + x (FP_B - FP_A)/(TP_B - TP_A))``. ``side="left"``
    is the curve's value at ``t`` (the first point reaching it); ``"right"`` the limit from
    above.

    Parameters
    ----------
    curve : sequence of (int, int)
        Vertices (FP, TP).
    t : Fraction
        The TP, > 0.
    side : str
        ``"left"`` or ``"right"``.

    Returns
    -------
    Fraction
        Precision there.

    Raises
    ------
    ValueError
        ``t`` is not on the curve.

    Examples
    --------
    From (FP, TP) = (0, 1) to (4, 3): at TP = 2, halfway, FP = 2 and precision
    ``2/(2 + 2) = 1/2``:

    >>> from fractions import Fraction
    >>> from prtheory.theory.davis_goadrich2006.curves import pr_precision_at
    >>> pr_precision_at([(0, 0), (0, 1), (4, 3)], Fraction(2))
    Fraction(1, 2)
    """
    for (fa, ta), (fb, tb) in itertools.pairwise(curve):
        if (side == "left" and ta < t <= tb) or (side == "right" and ta <= t < tb):
            return t / (t + fa + (t - ta) * Fraction(fb - fa, tb - ta))
    raise ValueError(f"TP = {t} is not on the curve")


def _breakpoints(*curves: Sequence[Vertex], axis: int) -> list[Fraction]:
    return sorted({Fraction(v[axis]) for c in curves for v in c})


def dominates_roc(one: Sequence[Vertex], two: Sequence[Vertex]) -> bool:
    """Curve ``one`` is on or above curve ``two`` at every FP. Between consecutive vertex FPs of
    either curve both are linear, so it suffices to compare the values at every vertex FP and the
    one-sided limits at both ends of every interval between them.

    Parameters
    ----------
    one, two : sequence of (int, int)
        Vertices (FP, TP).

    Returns
    -------
    bool
        Whether ``one`` is on or above ``two`` everywhere.

    Examples
    --------
    ``A`` ranks a positive first, ``B`` a negative: ``A`` is above ``B`` at every FP.

    >>> from fractions import Fraction
    >>> from prtheory.theory.davis_goadrich2006.curves import dominates_roc, roc_vertices
    >>> A = roc_vertices([1, 0, 1, 0], [4, 3, 2, 1])  # positive, negative, positive, negative
    >>> B = roc_vertices([0, 1, 0, 1], [4, 3, 2, 1])  # negative, positive, negative, positive
    >>> dominates_roc(A, B), dominates_roc(B, A)
    (True, False)
    """
    xs = _breakpoints(one, two, axis=0)
    if any(tp_at(one, f) < tp_at(two, f) for f in xs):
        return False
    for a, b in itertools.pairwise(xs):
        for x, side in ((a, "right"), (b, "left")):
            lo, hi = _on_segment_value(one, x, 0, side), _on_segment_value(two, x, 0, side)
            if lo is not None and hi is not None and lo < hi:
                return False
    return True


def _near_zero(curve: Sequence[Vertex]) -> tuple[int, Fraction]:
    """How precision starts at recall 0+, as an order key: from (0, 0) it is the constant
    ``TP/(TP + FP)`` of the first segment (key ``(1, constant)``); after ``f > 0`` negatives it
    is ``t/(t + f + ...)``, which tends to 0 like ``t/f`` (key ``(0, 1/f)``)."""
    for (fa, ta), (fb, tb) in itertools.pairwise(curve):
        if tb > ta:
            return (1, Fraction(tb, tb + fb)) if fa == 0 else (0, Fraction(1, fa))
    raise ValueError("the curve never gains a positive")


def dominates_pr(one: Sequence[Vertex], two: Sequence[Vertex]) -> bool:
    """Curve ``one`` has at least the precision of ``two`` at every recall > 0 (TP > 0), read in
    PR space. On an interval between consecutive vertex TPs of either curve both precisions are
    ``t/(t + a + b t)``, so their difference is ``t`` times a linear function of ``t`` over a
    positive denominator: it is compared at every vertex TP, at the one-sided limits at both ends
    of every interval, and at recall 0+ by the order in which precision leaves 0.

    Parameters
    ----------
    one, two : sequence of (int, int)
        Vertices (FP, TP).

    Returns
    -------
    bool
        Whether ``one`` has at least the precision of ``two`` at every recall > 0.

    Examples
    --------
    As in ROC space (D2): at TP = 1, ``A`` has precision 1 and ``B`` 1/2; at TP = 2, 2/3 and
    1/2.

    >>> from fractions import Fraction
    >>> from prtheory.theory.davis_goadrich2006.curves import dominates_pr, roc_vertices
    >>> A = roc_vertices([1, 0, 1, 0], [4, 3, 2, 1])  # positive, negative, positive, negative
    >>> B = roc_vertices([0, 1, 0, 1], [4, 3, 2, 1])  # negative, positive, negative, positive
    >>> dominates_pr(A, B), dominates_pr(B, A)
    (True, False)
    """
    ts = _breakpoints(one, two, axis=1)
    if _near_zero(one) < _near_zero(two):
        return False
    grid = [(t, "left") for t in ts if t > 0] + [(t, "right") for t in ts[:-1] if t > 0]
    return all(pr_precision_at(one, t, side) >= pr_precision_at(two, t, side) for t, side in grid)


def wmw(labels: Sequence[int], scores: Sequence[int]) -> Fraction:
    """The Wilcoxon-Mann-Whitney statistic: the share of (positive, negative) pairs in which the
    positive scores higher, ties counting one half.

    Parameters
    ----------
    labels : sequence of int
        1 = positive; both classes present.
    scores : sequence of int
        The scores.

    Returns
    -------
    Fraction
        The statistic.

    Examples
    --------
    Positives at 4 and 2, negatives at 3 and 1: 3 of the 4 pairs are won (not 2 against 3);
    a tie counts one half:

    >>> from prtheory.theory.davis_goadrich2006.curves import wmw
    >>> wmw([1, 0, 1, 0], [4, 3, 2, 1]), wmw([1, 0], [1, 1])
    (Fraction(3, 4), Fraction(1, 2))
    """
    pos = [s for y, s in zip(labels, scores, strict=True) if y]
    neg = [s for y, s in zip(labels, scores, strict=True) if not y]
    wins = sum(
        (Fraction(1) if a > b else Fraction(1, 2) if a == b else Fraction(0))
        for a in pos
        for b in neg
    )
    return Fraction(wins) / (len(pos) * len(neg))
