"""Exact PR, ROC and Precision-Recall-Gain curves of a ranking.

Every curve is built from :func:`prtheory.oracle.counts.operating_points`: one operating point per
distinct score ``t`` (predict positive iff ``score >= t``), with exact cumulative TP and FP weight.
Coordinates are exact :class:`~fractions.Fraction` values; no float enters after the sort.

Conventions (each one named, none implicit)
-------------------------------------------
``first_point`` of the PR curve (the point at recall 0, which no threshold reaches unless the
top-scored block holds only negatives):

* ``"none"`` -- the curve is the operating points only (the default);
* ``"sklearn"`` -- prepend (recall 0, precision 1) at threshold ``+inf``, as
  ``sklearn.metrics.precision_recall_curve`` does (it appends it after reversing), and as
  Spark's ``BinaryClassificationMetrics.pr()`` did before 2.3;
* ``"spark"`` -- prepend (recall 0, precision of the first operating point), as Spark does since
  2.3 (SPARK-21806, apache/spark pull 19038: "Prepend (0,p) to precision-recall curve not (0,1)
  where p matches lowest recall point"). This is also where Davis--Goadrich interpolation from the
  empty classifier (TP = FP = 0) starts: along that segment FP/TP is constant.

Precision at an operating point with TP + FP = 0 (possible only with zero sample weights at the
top of the ranking) is undefined: it raises unless ``convention="sklearn"`` (precision 0, as
``precision_recall_curve`` sets it).

The PRG curve (Flach & Kull 2015, claims F5, F7) adds the points where the curve crosses
recall gain 0 and precision gain 0. By Theorem 1 (F7) a linear interpolation of two contingency
tables moves along the straight PRG segment between them, so each crossing is found exactly by
interpolating the tables: recall gain is 0 where TP = pos^2/(pos+neg) (recall = pi), precision
gain is 0 where FP * pos = TP * neg (precision = pi). See :func:`prg_curve` for how this differs
from the official ``prg`` Python package.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle import points as points_
from prtheory.oracle.counts import OperatingPoints, operating_points

__all__ = [
    "FIRST_POINTS",
    "PRCurve",
    "PRGCurve",
    "ROCCurve",
    "check_first_point",
    "pr_curve",
    "prg_convex_hull",
    "prg_curve",
    "roc_curve",
]

FIRST_POINTS = ("none", "sklearn", "spark")


def check_first_point(first_point: str, allowed: tuple[str, ...] = FIRST_POINTS) -> str:
    """Validate a first-point convention name (see the module docstring)."""
    if first_point not in allowed:
        raise InvalidInputError(
            "first_point",
            f"must be one of {', '.join(repr(a) for a in allowed)}, got {first_point!r}",
        )
    return first_point


def _counts(points: OperatingPoints) -> tuple[list[int], list[int]]:
    return [int(v) for v in points.tp.tolist()], [int(v) for v in points.fp.tolist()]


def _require_positives(points: OperatingPoints, quantity: str) -> None:
    if points.pos == 0:
        raise UndefinedMetricError(quantity, "y_true has no positive weight, so recall is 0/0")


# ------------------------------------------------------------------------------------------
# PR and ROC


@dataclass(frozen=True)
class PRCurve:
    """A PR curve in decreasing-threshold (non-decreasing recall) order.

    ``thresholds[i]`` is the score threshold of point ``i`` (``+inf`` for a prepended first point),
    ``tp``/``fp`` the exact cumulative weight numerators (``None`` for a prepended point, which is
    no contingency table), ``precision``/``recall`` exact fractions, ``pos``/``neg`` the class
    weight numerators, ``first_point`` the convention used.
    """

    thresholds: np.ndarray
    tp: tuple[int | None, ...]
    fp: tuple[int | None, ...]
    precision: tuple[Fraction, ...]
    recall: tuple[Fraction, ...]
    pos: int
    neg: int
    first_point: str


def pr_curve(
    y_true, y_score, sample_weight=None, *, first_point: str = "none", convention=None
) -> PRCurve:
    """Exact precision and recall at every distinct score threshold.

    precision = TP/(TP+FP), recall = TP/pos, both exact. ``first_point`` names what sits at
    recall 0 (module docstring); ``convention="sklearn"`` sets precision 0 where TP + FP = 0.
    Raises :class:`UndefinedMetricError` when y_true has no positive weight (recall is 0/0).
    """
    check_first_point(first_point)
    points = operating_points(y_true, y_score, sample_weight)
    _require_positives(points, "recall")
    tp, fp = _counts(points)
    precision = [  # points.precision only where TP + FP = 0 (its convention handling)
        Fraction(t, t + f) if t + f else points_.precision(t, f, convention=convention)
        for t, f in zip(tp, fp, strict=True)
    ]
    recall = [Fraction(t, points.pos) for t in tp]
    thresholds = points.thresholds
    tps: list[int | None] = list(tp)
    fps: list[int | None] = list(fp)
    if first_point != "none":
        first = Fraction(1) if first_point == "sklearn" else precision[0]
        precision.insert(0, first)
        recall.insert(0, Fraction(0))
        tps.insert(0, None)
        fps.insert(0, None)
        thresholds = np.concatenate(([np.inf], thresholds))
    return PRCurve(
        thresholds,
        tuple(tps),
        tuple(fps),
        tuple(precision),
        tuple(recall),
        points.pos,
        points.neg,
        first_point,
    )


@dataclass(frozen=True)
class ROCCurve:
    """An ROC curve starting at the origin (threshold ``+inf``), then one point per threshold."""

    thresholds: np.ndarray
    fpr: tuple[Fraction, ...]
    tpr: tuple[Fraction, ...]


def roc_curve(y_true, y_score, sample_weight=None) -> ROCCurve:
    """Exact FPR = FP/neg and TPR = TP/pos at every distinct threshold, after the origin.

    The origin (0, 0) at threshold ``+inf`` is the empty classifier, as in
    ``sklearn.metrics.roc_curve(drop_intermediate=False)`` and Spark's ``roc()``. Raises
    :class:`UndefinedMetricError` when either class has zero weight.
    """
    points = operating_points(y_true, y_score, sample_weight)
    _require_positives(points, "true positive rate")
    if points.neg == 0:
        raise UndefinedMetricError(
            "false positive rate", "y_true has no negative weight, so FPR is 0/0"
        )
    tp, fp = _counts(points)
    fpr = [Fraction(0)] + [Fraction(f, points.neg) for f in fp]
    tpr = [Fraction(0)] + [Fraction(t, points.pos) for t in tp]
    return ROCCurve(np.concatenate(([np.inf], points.thresholds)), tuple(fpr), tuple(tpr))


# ------------------------------------------------------------------------------------------
# Precision-Recall-Gain


@dataclass(frozen=True)
class PRGCurve:
    """A PRG curve in decreasing-threshold order (recall gain non-decreasing).

    One point per operating point with TP > 0 (where TP = 0 the gains are -inf or 0/0 and no
    point is listed), plus the exact crossing points of recall gain 0 and precision gain 0.
    ``tp``/``fp`` are the (interpolated, for crossings) contingency counts as exact fractions;
    ``is_crossing[i]`` marks an interpolated point, whose ``thresholds[i]`` is the threshold of
    the next real operating point (the crossing lies between it and the previous one).
    ``pi`` is the skew pos/(pos+neg).
    """

    thresholds: np.ndarray
    tp: tuple[Fraction, ...]
    fp: tuple[Fraction, ...]
    precision_gain: tuple[Fraction, ...]
    recall_gain: tuple[Fraction, ...]
    is_crossing: np.ndarray
    pos: int
    neg: int

    @property
    def pi(self) -> Fraction:
        return Fraction(self.pos, self.pos + self.neg)

    def precision(self, i: int) -> Fraction:
        """Precision TP/(TP+FP) of point ``i``."""
        return self.tp[i] / (self.tp[i] + self.fp[i])

    def recall(self, i: int) -> Fraction:
        """Recall TP/pos of point ``i``."""
        return self.tp[i] / self.pos


def _gains(tp: Fraction, fp: Fraction, pos: int, neg: int) -> tuple[Fraction, Fraction]:
    """(precG, recG) of a table with TP > 0 (F5), by :mod:`prtheory.oracle.points`."""
    fn, tn = pos - tp, neg - fp
    return points_.precision_gain(tp, fp, fn, tn), points_.recall_gain(tp, fp, fn, tn)


def prg_curve(y_true, y_score, sample_weight=None) -> PRGCurve:
    """Exact Precision-Recall-Gain curve with its recG = 0 and precG = 0 crossing points.

    precG = 1 - (pi/(1-pi)) FP/TP and recG = 1 - (pi/(1-pi)) FN/TP (F5), with
    pi/(1-pi) = pos/neg. The tables run from the empty classifier (TP = FP = 0) through every
    operating point; between consecutive tables C1, C2, the interpolated table
    C(l) = (1-l) C1 + l C2 traces the straight PRG segment between them (Theorem 1, F7), so the
    crossings are exact:

    * recG = 0 where TP(l) = pos^2/(pos+neg), i.e. recall = pi;
    * precG = 0 where FP(l) pos = TP(l) neg, i.e. precision = pi.

    Differences from the official ``prg`` package (meeliskull/prg, ``Python_package/prg/prg.py``):
    it merges scores that are merely close (``np.isclose``) into one tie block, where we tie only
    equal scores; it keeps the empty classifier as a point with NaN / -inf gains, where we list
    only points with TP > 0; its crossings are computed in floating point from interpolated
    gains, ours exactly; and it adds precision-gain crossings only where recG >= 0, while we add
    every crossing (a crossing at recG < 0 is outside [0, 1] and so changes no area). Its
    ``np.alen`` calls fail on NumPy >= 1.23.

    Raises :class:`UndefinedMetricError` when either class has zero weight (pi is 0 or 1, where
    pi/(1-pi) is 0 or undefined and every gain is 0/0 or undefined).
    """
    points = operating_points(y_true, y_score, sample_weight)
    _require_positives(points, "recall gain")
    pos, neg = points.pos, points.neg
    if neg == 0:
        raise UndefinedMetricError(
            "precision gain", "y_true has no negative weight (pi = 1, so pi/(1-pi) is undefined)"
        )
    tp_list, fp_list = _counts(points)
    thresholds = points.thresholds.tolist()
    n, pos2 = pos + neg, pos * pos  # recG >= 0  <=>  TP n >= pos^2
    tp_star = Fraction(pos2, n)  # TP at which recall = pi (recG = 0)
    out_t: list[float] = []
    out_tp: list[Fraction] = []
    out_fp: list[Fraction] = []
    out_pg: list[Fraction] = []
    out_rg: list[Fraction] = []
    out_cross: list[bool] = []
    prev_tp, prev_fp = 0, 0
    for i, (t1, f1) in enumerate(zip(tp_list, fp_list, strict=True)):
        # crossings strictly inside the segment from (prev_tp, prev_fp) to (t1, f1)
        dt, df = t1 - prev_tp, f1 - prev_fp
        lams = []
        if (prev_tp * n - pos2) * (t1 * n - pos2) < 0:
            lams.append((tp_star - prev_tp) / dt)
        # g(l) = FP(l) pos - TP(l) neg is linear in l
        g0, g1 = prev_fp * pos - prev_tp * neg, f1 * pos - t1 * neg
        if g0 * g1 < 0:
            lams.append(Fraction(g0, g0 - g1))
        for lam in sorted(set(lams)):
            t, f = prev_tp + lam * dt, prev_fp + lam * df
            pg, rg = _gains(t, f, pos, neg)
            out_t.append(thresholds[i])
            out_tp.append(t)
            out_fp.append(f)
            out_pg.append(pg)
            out_rg.append(rg)
            out_cross.append(True)
        if t1 > 0:
            # F5 on integer counts, inlined for speed (same as _gains / points.precision_gain):
            # precG = (neg TP - pos FP)/(neg TP), recG = (neg TP - pos FN)/(neg TP)
            out_t.append(thresholds[i])
            out_tp.append(Fraction(t1))
            out_fp.append(Fraction(f1))
            out_pg.append(Fraction(neg * t1 - pos * f1, neg * t1))
            out_rg.append(Fraction(neg * t1 - pos * (pos - t1), neg * t1))
            out_cross.append(False)
        prev_tp, prev_fp = t1, f1
    return PRGCurve(
        np.array(out_t, dtype=np.float64),
        tuple(out_tp),
        tuple(out_fp),
        tuple(out_pg),
        tuple(out_rg),
        np.array(out_cross, dtype=bool),
        pos,
        neg,
    )


def prg_convex_hull(curve: PRGCurve) -> list[int]:
    """Indices of the upper convex hull of the curve's points with recG >= 0, left to right.

    Andrew's monotone chain on exact coordinates (x = recG, y = precG); at equal recG only the
    highest precG can be on the upper hull. Collinear middle points are dropped. The hull runs
    from the recG = 0 crossing to the highest point at recG = 1 (the always-positive classifier
    (1, 0), or above it when some threshold already has recall 1 with fewer false positives). The official package
    builds the hull from every non-NaN point, including those with recG < 0; restricting to the
    region where AUPRG is defined is this oracle's convention.
    """
    idx = [i for i, r in enumerate(curve.recall_gain) if r >= 0]
    # best point per distinct recall gain (the curve is ordered by non-decreasing recG)
    best: dict[Fraction, int] = {}
    for i in idx:
        r = curve.recall_gain[i]
        if r not in best or curve.precision_gain[i] > curve.precision_gain[best[r]]:
            best[r] = i
    ordered = [best[r] for r in sorted(best)]
    x, y = curve.recall_gain, curve.precision_gain
    hull: list[int] = []
    for i in ordered:
        while len(hull) >= 2:
            o, a = hull[-2], hull[-1]
            cross = (x[a] - x[o]) * (y[i] - y[o]) - (y[a] - y[o]) * (x[i] - x[o])
            if cross >= 0:  # a is not strictly above the chord o -> i
                hull.pop()
            else:
                break
        hull.append(i)
    return hull
