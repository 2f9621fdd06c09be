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
    item."""
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
    segment there)."""
    return (
        max(Fraction(t) for v, t in curve if v == f)
        if any(v == f for v, _ in curve)
        else (_on_segment_value(curve, f, 0, "left") or Fraction(0))
    )


def fp_at(curve: Sequence[Vertex], t: Fraction) -> Fraction:
    """The least FP at which the curve reaches TP = ``t`` > 0 (where it first gets there)."""
    value = _on_segment_value(curve, t, 1, "left")
    if value is None:
        raise ValueError(f"TP = {t} is not on the curve")
    return value


def pr_precision_at(curve: Sequence[Vertex], t: Fraction, side: str = "left") -> Fraction:
    """Precision in PR space at TP = ``t`` > 0 under Davis-Goadrich interpolation, from the PR
    points themselves: between consecutive points A and B the point at ``TP_A + x`` has
    precision ``(TP_A + x)/(TP_A + x + FP_A + x (FP_B - FP_A)/(TP_B - TP_A))``. ``side="left"``
    is the curve's value at ``t`` (the first point reaching it); ``"right"`` the limit from
    above."""
    for (fa, ta), (fb, tb) in itertools.pairwise(curve):
        if (side == "left" and ta < t <= tb) or (side == "right" and ta <= t < tb):
            return t / (t + fa + (t - ta) * Fraction(fb - fa, tb - ta))
    raise ValueError(f"TP = {t} is not on the curve")


def _breakpoints(*curves: Sequence[Vertex], axis: int) -> list[Fraction]:
    return sorted({Fraction(v[axis]) for c in curves for v in c})


def dominates_roc(one: Sequence[Vertex], two: Sequence[Vertex]) -> bool:
    """Curve ``one`` is on or above curve ``two`` at every FP. Between consecutive vertex FPs of
    either curve both are linear, so it suffices to compare the values at every vertex FP and the
    one-sided limits at both ends of every interval between them."""
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
    of every interval, and at recall 0+ by the order in which precision leaves 0."""
    ts = _breakpoints(one, two, axis=1)
    if _near_zero(one) < _near_zero(two):
        return False
    grid = [(t, "left") for t in ts if t > 0] + [(t, "right") for t in ts[:-1] if t > 0]
    return all(pr_precision_at(one, t, side) >= pr_precision_at(two, t, side) for t, side in grid)


def wmw(labels: Sequence[int], scores: Sequence[int]) -> Fraction:
    """The Wilcoxon-Mann-Whitney statistic: the share of (positive, negative) pairs in which the
    positive scores higher, ties counting one half."""
    pos = [s for y, s in zip(labels, scores, strict=True) if y]
    neg = [s for y, s in zip(labels, scores, strict=True) if not y]
    wins = sum(
        (Fraction(1) if a > b else Fraction(1, 2) if a == b else Fraction(0))
        for a in pos
        for b in neg
    )
    return Fraction(wins) / (len(pos) * len(neg))
