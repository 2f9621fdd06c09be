"""Exact PR, ROC and Precision-Recall-Gain curves of a ranking.

Every curve is built from :func:`prtheory.oracle.counts.operating_points`: one operating point per
distinct score ``t`` (predict positive iff ``score >= t``), with exact cumulative TP and FP weight.
Coordinates are exact rationals; no float enters after the sort. They are held as integer
numerator and denominator arrays (:class:`prtheory.oracle.ratios.Ratios`, read as
:class:`~fractions.Fraction` item by item, or all at once as correctly rounded float64 by
``to_float()``), so a curve of 10^6 points costs numpy operations, not 10^6 Fraction objects.

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
from math import gcd

import numpy as np
from numpy.typing import ArrayLike

from prtheory._input import ExactArrayLike
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle import points as points_
from prtheory.oracle.counts import OperatingPoints, operating_points
from prtheory.oracle.ratios import Counts, Ratios, as_objects

__all__ = [
    "FIRST_POINTS",
    "PRCurve",
    "PRGCurve",
    "ROCCurve",
    "check_first_point",
    "pr_curve",
    "pr_curve_of_points",
    "prg_convex_hull",
    "prg_curve",
    "roc_curve",
    "tp_run_ends",
]

FIRST_POINTS = ("none", "sklearn", "spark")


def check_first_point(first_point: str, allowed: tuple[str, ...] = FIRST_POINTS) -> str:
    """Validate a first-point convention name (see the module docstring).

    Parameters
    ----------
    first_point : str
        The name asked for.
    allowed : tuple of str
        The names the caller accepts.

    Returns
    -------
    str
        ``first_point``, checked.

    Raises
    ------
    InvalidInputError
        ``first_point`` not in ``allowed``.

    Examples
    --------
    >>> from prtheory.oracle.curves import check_first_point
    >>> check_first_point("spark")
    'spark'
    >>> check_first_point("x")
    Traceback (most recent call last):
    ...
    prtheory.errors.InvalidInputError: first_point: must be one of 'none', 'sklearn', 'spark', got 'x'
    """
    if first_point not in allowed:
        raise InvalidInputError(
            "first_point",
            f"must be one of {', '.join(repr(a) for a in allowed)}, got {first_point!r}",
        )
    return first_point


def tp_run_ends(tp: np.ndarray) -> np.ndarray:
    """Mask of the first and the last point of each run of equal TP (and both ends overall).

    Areas over recall (PR space) or recall gain (PRG space) integrate over TP, so between two
    points of equal TP nothing is integrated: of each run only the first point (where the last
    segment of positive width ends) and the last (where the next one starts) matter. Along a
    ranking FP is non-decreasing within a run, so these are also the run's highest and lowest
    precision.

    Parameters
    ----------
    tp : ndarray of int
        Cumulative TP along a curve.

    Returns
    -------
    ndarray of bool
        True at the first and last point of each run of equal TP.

    Examples
    --------
    The run of three 1s keeps its first and last point:

    >>> import numpy as np
    >>> from prtheory.oracle.curves import tp_run_ends
    >>> tp_run_ends(np.array([0, 1, 1, 1, 2])).tolist()
    [True, True, False, True, True]
    """
    ends = np.ones(tp.size, dtype=bool)
    ends[1:-1] = (tp[1:-1] != tp[:-2]) | (tp[1:-1] != tp[2:])
    return ends


def _require_positives(points: OperatingPoints, quantity: str) -> None:
    if points.pos == 0:
        raise UndefinedMetricError(quantity, "y_true has no positive weight, so recall is 0/0")


# ------------------------------------------------------------------------------------------
# PR and ROC


@dataclass(frozen=True)
class PRCurve:
    """A PR curve in decreasing-threshold (non-decreasing recall) order.

    ``thresholds[i]`` is the score threshold of point ``i`` (``+inf`` for a prepended first point),
    ``tp``/``fp`` the exact cumulative weight numerators as :class:`Counts` (sequences of ints
    over an integer array; ``None`` for a prepended point, which is no contingency table), ``precision``/``recall`` exact values as :class:`Ratios` (a sequence of
    Fractions held as integer arrays: ``precision.numerators``/``precision.denominators`` are
    TP and TP + FP), ``pos``/``neg`` the class weight numerators, ``first_point`` the convention
    used.

    Parameters
    ----------
    thresholds : ndarray of float
        The threshold of each point (``+inf`` for a prepended first point).
    tp, fp : Counts
        Cumulative weight numerators (``None`` for a prepended point).
    precision, recall : Ratios
        The exact coordinates.
    pos, neg : int
        The class weight numerators.
    first_point : str
        The first-point convention used.

    See Also
    --------
    pr_curve : builds it.

    Examples
    --------
    See :func:`pr_curve`.

    >>> from prtheory.oracle.curves import pr_curve
    >>> pr_curve([1, 0], [0.9, 0.1]).first_point
    'none'
    """

    thresholds: np.ndarray
    tp: Counts
    fp: Counts
    precision: Ratios
    recall: Ratios
    pos: int
    neg: int
    first_point: str


def pr_curve(
    y_true: ArrayLike,
    y_score: ExactArrayLike,
    sample_weight: ExactArrayLike | None = None,
    *,
    first_point: str = "none",
    convention: str | None = None,
) -> PRCurve:
    """Exact precision and recall at every distinct score threshold.

    precision = TP/(TP+FP), recall = TP/pos, both exact (integer arrays; a Fraction is made only
    for the items read). ``first_point`` names what sits at recall 0 (module docstring);
    ``convention="sklearn"`` sets precision 0 where TP + FP = 0. Raises
    :class:`UndefinedMetricError` when y_true has no positive weight (recall is 0/0).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels.
    y_score : array-like of shape (n,)
        Real scores, taken exactly.
    sample_weight : array-like of shape (n,) or None
        Finite non-negative weights, taken exactly.
    first_point : {"none", "sklearn", "spark"}
        What sits at recall 0 (default ``"none"``: nothing is prepended).
    convention : {None, "sklearn"}
        ``"sklearn"``: precision 0 where TP + FP = 0.

    Returns
    -------
    PRCurve
        The exact curve, thresholds decreasing.

    Raises
    ------
    InvalidInputError
        Malformed input or an unknown first point, naming the argument.
    UndefinedMetricError
        No positive weight.

    See Also
    --------
    pr_curve_of_points : the same from operating points.
    prtheory.oracle.areas.pr_auc : areas under it.
    prtheory.metrics.precision_recall_curve : the float64 curve.

    Examples
    --------
    ``y = [1, 0, 1]``, scores 0.9, 0.5, 0.1: TP/FP = 1/0, 1/1, 2/1, so precision 1, 1/2, 2/3
    and recall 1/2, 1/2, 1; ``first_point="sklearn"`` prepends (recall 0, precision 1) with no
    counts:

    >>> from prtheory.oracle.curves import pr_curve
    >>> c = pr_curve([1, 0, 1], [0.9, 0.5, 0.1])
    >>> list(c.precision), list(c.recall)
    ([Fraction(1, 1), Fraction(1, 2), Fraction(2, 3)], [Fraction(1, 2), Fraction(1, 2), Fraction(1, 1)])
    >>> c = pr_curve([1, 0, 1], [0.9, 0.5, 0.1], first_point="sklearn")
    >>> c.precision[0], c.recall[0], c.tp[0]
    (Fraction(1, 1), Fraction(0, 1), None)
    """
    check_first_point(first_point)
    points = operating_points(y_true, y_score, sample_weight)
    return pr_curve_of_points(points, first_point=first_point, convention=convention)


def pr_curve_of_points(
    points: OperatingPoints, *, first_point: str = "none", convention: str | None = None
) -> PRCurve:
    """:func:`pr_curve` of operating points however they were obtained (a ranking, or exact
    counts accumulated per distinct score by :mod:`prtheory.streaming`).

    Parameters
    ----------
    points : OperatingPoints
        Exact cumulative counts per distinct score.
    first_point : {"none", "sklearn", "spark"}
        What sits at recall 0 (default ``"none"``).
    convention : {None, "sklearn"}
        ``"sklearn"``: precision 0 where TP + FP = 0.

    Returns
    -------
    PRCurve
        The exact curve.

    Raises
    ------
    InvalidInputError
        An unknown first point.
    UndefinedMetricError
        No positive weight.

    See Also
    --------
    pr_curve

    Examples
    --------
    The operating points of :func:`pr_curve`'s example give its precisions:

    >>> from prtheory.oracle.counts import operating_points
    >>> from prtheory.oracle.curves import pr_curve_of_points
    >>> list(pr_curve_of_points(operating_points([1, 0, 1], [0.9, 0.5, 0.1])).precision)
    [Fraction(1, 1), Fraction(1, 2), Fraction(2, 3)]
    """
    check_first_point(first_point)
    _require_positives(points, "recall")
    tp, fp = points.tp, points.fp
    num, den = tp, tp + fp
    empty = np.flatnonzero(den == 0)
    if empty.size:  # points.precision handles TP + FP = 0 (raises, or its convention's value)
        value = points_.precision(0, 0, convention=convention)
        num, den = num.copy(), den.copy()
        num[empty], den[empty] = value.numerator, value.denominator
    rec_num, rec_den = tp, np.full_like(tp, points.pos)
    thresholds = points.thresholds
    if first_point != "none":
        head = (1, 1) if first_point == "sklearn" else (num[0], den[0])
        num, den = _prepend(num, head[0]), _prepend(den, head[1])
        rec_num, rec_den = _prepend(rec_num, 0), _prepend(rec_den, 1)
        thresholds = np.concatenate(([np.inf], thresholds))
    return PRCurve(
        thresholds,
        Counts(tp, none_first=first_point != "none"),
        Counts(fp, none_first=first_point != "none"),
        Ratios(num, den),
        Ratios(rec_num, rec_den),
        points.pos,
        points.neg,
        first_point,
    )


def _prepend(x: np.ndarray, value: int) -> np.ndarray:
    """``x`` with ``value`` in front, keeping its integer dtype (int64 or object)."""
    out = np.empty(x.size + 1, dtype=x.dtype)
    out[0] = value
    out[1:] = x
    return out


@dataclass(frozen=True)
class ROCCurve:
    """An ROC curve starting at the origin (threshold ``+inf``), then one point per threshold.

    ``fpr``/``tpr`` are exact :class:`Ratios` (numerators FP and TP over neg and pos).

    Parameters
    ----------
    thresholds : ndarray of float
        ``+inf`` for the origin, then each distinct score.
    fpr, tpr : Ratios
        The exact coordinates.

    See Also
    --------
    roc_curve : builds it.

    Examples
    --------
    See :func:`roc_curve`.

    >>> from prtheory.oracle.curves import roc_curve
    >>> list(roc_curve([1, 0], [0.9, 0.1]).tpr)
    [Fraction(0, 1), Fraction(1, 1), Fraction(1, 1)]
    """

    thresholds: np.ndarray
    fpr: Ratios
    tpr: Ratios


def roc_curve(
    y_true: ArrayLike, y_score: ExactArrayLike, sample_weight: ExactArrayLike | None = None
) -> ROCCurve:
    """Exact FPR = FP/neg and TPR = TP/pos at every distinct threshold, after the origin.

    The origin (0, 0) at threshold ``+inf`` is the empty classifier, as in
    ``sklearn.metrics.roc_curve(drop_intermediate=False)`` and Spark's ``roc()``. Raises
    :class:`UndefinedMetricError` when either class has zero weight.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels.
    y_score : array-like of shape (n,)
        Real scores, taken exactly.
    sample_weight : array-like of shape (n,) or None
        Finite non-negative weights, taken exactly.

    Returns
    -------
    ROCCurve
        The exact curve from the origin.

    Raises
    ------
    InvalidInputError
        Malformed input, naming the argument.
    UndefinedMetricError
        Either class has zero weight.

    See Also
    --------
    prtheory.oracle.areas.roc_auc : the area under it.
    pr_curve

    Examples
    --------
    ``y = [1, 0, 1]``, scores 0.9, 0.5, 0.1 (pos 2, neg 1): from (0, 0) to (FPR, TPR) = (0, 1/2),
    (1, 1/2), (1, 1):

    >>> from prtheory.oracle.curves import roc_curve
    >>> c = roc_curve([1, 0, 1], [0.9, 0.5, 0.1])
    >>> [str(x) for x in c.fpr], [str(x) for x in c.tpr]
    (['0', '0', '1', '1'], ['0', '1/2', '1/2', '1'])
    """
    points = operating_points(y_true, y_score, sample_weight)
    _require_positives(points, "true positive rate")
    if points.neg == 0:
        raise UndefinedMetricError(
            "false positive rate", "y_true has no negative weight, so FPR is 0/0"
        )
    fp, tp = _prepend(points.fp, 0), _prepend(points.tp, 0)
    return ROCCurve(
        np.concatenate(([np.inf], points.thresholds)),
        Ratios(fp, np.full_like(fp, points.neg)),
        Ratios(tp, np.full_like(tp, points.pos)),
    )


# ------------------------------------------------------------------------------------------
# Precision-Recall-Gain


@dataclass(frozen=True)
class PRGCurve:
    """A PRG curve in decreasing-threshold order (recall gain non-decreasing).

    One point per operating point with TP > 0 (where TP = 0 the gains are -inf or 0/0 and no
    point is listed), plus the exact crossing points of recall gain 0 and precision gain 0.
    ``tp``/``fp`` are the (interpolated, for crossings) contingency counts as exact values;
    ``is_crossing[i]`` marks an interpolated point, whose ``thresholds[i]`` is the threshold of
    the next real operating point (the crossing lies between it and the previous one).
    ``pi`` is the skew pos/(pos+neg).

    ``tp``, ``fp``, ``precision_gain`` and ``recall_gain`` are :class:`Ratios`: sequences of
    Fractions held as integer arrays. Point ``i`` is the table ``TP = a/c``, ``FP = b/c`` with
    ``a = tp.numerators[i] > 0``, ``b = fp.numerators[i]``, ``c = tp.denominators[i] > 0``
    (``c = 1`` for real operating points).

    Parameters
    ----------
    thresholds : ndarray of float
        The threshold of each point.
    tp, fp : Ratios
        The (interpolated, for crossings) counts.
    precision_gain, recall_gain : Ratios
        The exact coordinates.
    is_crossing : ndarray of bool
        Which points are interpolated crossings.
    pos, neg : int
        The class weight numerators.

    See Also
    --------
    prg_curve : builds it.
    prg_convex_hull : its upper hull.

    Examples
    --------
    See :func:`prg_curve`. With one positive above one negative (pos = neg = 1) the tables
    (TP, FP) = (1, 0), (1, 1) have recall gain 1 - FN/TP = 1; between the empty classifier and
    (1, 0) recall gain 0 is crossed at TP = pos^2/(pos + neg) = 1/2, a point put first:

    >>> from prtheory.oracle.curves import prg_curve
    >>> g = prg_curve([1, 0], [0.9, 0.1])
    >>> [str(x) for x in g.recall_gain], [str(x) for x in g.tp], g.is_crossing.tolist()
    (['0', '1', '1'], ['1/2', '1', '1'], [True, False, False])
    """

    thresholds: np.ndarray
    tp: Ratios
    fp: Ratios
    precision_gain: Ratios
    recall_gain: Ratios
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


def _fits_int64(*bounds: int) -> bool:
    return max(bounds) < 2**62


def _max(x: np.ndarray) -> int:
    """Largest magnitude in an integer array (0 when empty)."""
    return int(np.abs(x).max()) if x.size else 0


def _as_int64_if_fits(x: np.ndarray) -> np.ndarray:
    """``x`` as int64 when every value fits (a Python-int object array otherwise)."""
    if x.dtype == object and _fits_int64(_max(x)):
        return x.astype(np.int64)
    return x


def prg_curve(
    y_true: ArrayLike, y_score: ExactArrayLike, sample_weight: ExactArrayLike | None = None
) -> PRGCurve:
    """Exact Precision-Recall-Gain curve with its recG = 0 and precG = 0 crossing points.

    precG = 1 - (pi/(1-pi)) FP/TP and recG = 1 - (pi/(1-pi)) FN/TP (F5), with
    pi/(1-pi) = pos/neg. The tables run from the empty classifier (TP = FP = 0) through every
    operating point; between consecutive tables C1, C2, the interpolated table
    C(l) = (1-l) C1 + l C2 traces the straight PRG segment between them (Theorem 1, F7), so the
    crossings are exact:

    * recG = 0 where TP(l) = pos^2/(pos+neg), i.e. recall = pi;
    * precG = 0 where FP(l) pos = TP(l) neg, i.e. precision = pi.

    On integer counts, a table ``TP = a/c``, ``FP = b/c`` has precG = (neg a - pos b)/(neg a) and
    recG = (neg a - pos (pos c - a))/(neg a): every coordinate is a quotient of integer arrays,
    computed with numpy (int64 while the products provably fit) and kept as :class:`Ratios`.

    Differences from the official ``prg`` package (meeliskull/prg, ``Python_package/prg/prg.py``):
    it merges scores that are merely close (``np.isclose``) into one tie block, where we tie only
    equal scores; it keeps the empty classifier as a point with NaN / -inf gains, where we list
    only points with TP > 0; its crossings are computed in floating point from interpolated
    gains, ours exactly; and it adds precision-gain crossings only where recG >= 0, while we add
    every crossing (a crossing at recG < 0 is outside [0, 1] and so changes no area). Its
    ``np.alen`` calls fail on NumPy >= 1.23.

    Raises :class:`UndefinedMetricError` when either class has zero weight (pi is 0 or 1, where
    pi/(1-pi) is 0 or undefined and every gain is 0/0 or undefined).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels.
    y_score : array-like of shape (n,)
        Real scores, taken exactly.
    sample_weight : array-like of shape (n,) or None
        Finite non-negative weights, taken exactly.

    Returns
    -------
    PRGCurve
        The exact curve with its crossings.

    Raises
    ------
    InvalidInputError
        Malformed input, naming the argument.
    UndefinedMetricError
        Either class has zero weight.

    See Also
    --------
    prg_convex_hull, pr_curve
    prtheory.oracle.prg.auprg : the area under it.

    Examples
    --------
    ``y = [1, 0, 1, 0]``, scores 0.9 > 0.8 > 0.7 > 0.1: pos = neg = 2, so pi/(1 - pi) = 1,
    precG = 1 - FP/TP and recG = 1 - FN/TP. The tables (TP, FP) = (1, 0), (1, 1), (2, 1), (2, 2)
    give precG 1, 0, 1/2, 0 and recG 0, 0, 1, 1; both crossings (TP = 1, and FP = TP) fall on
    points, so none is added:

    >>> from prtheory.oracle.curves import prg_curve
    >>> g = prg_curve([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    >>> [str(x) for x in g.precision_gain], [str(x) for x in g.recall_gain]
    (['1', '0', '1/2', '0'], ['0', '0', '1', '1'])
    >>> bool(g.is_crossing.any())
    False
    """
    points = operating_points(y_true, y_score, sample_weight)
    _require_positives(points, "recall gain")
    pos, neg = points.pos, points.neg
    if neg == 0:
        raise UndefinedMetricError(
            "precision gain", "y_true has no negative weight (pi = 1, so pi/(1-pi) is undefined)"
        )
    n, pos2 = pos + neg, pos * pos
    # tables 0..m: the empty classifier, then the operating points; segment i ends at table i
    t, f = _prepend(points.tp, 0), _prepend(points.fp, 0)
    if t.dtype != object and not _fits_int64(n * n):
        t, f = t.astype(object), f.astype(object)
    t0, t1, f0, f1 = t[:-1], t[1:], f[:-1], f[1:]
    g = f * pos - t * neg  # precG = 0 where this linear function of the table changes sign
    g0, g1 = g[:-1], g[1:]
    seg_p = np.flatnonzero(np.sign(g0) * np.sign(g1) < 0)
    # precG crossing: l = g0/(g0 - g1), TP = (t0 (g0 - g1) + g0 dT)/(g0 - g1), FP likewise
    gp0, gp1 = g0[seg_p].astype(object), g1[seg_p].astype(object)
    flip = np.where(gp0 < 0, -1, 1).astype(object)  # so that the common denominator is > 0
    gp0, dg = gp0 * flip, (gp0 - gp1) * flip
    pa = t0[seg_p].astype(object) * dg + gp0 * (t1 - t0)[seg_p].astype(object)
    pb = f0[seg_p].astype(object) * dg + gp0 * (f1 - f0)[seg_p].astype(object)
    segs = [seg_p, np.flatnonzero(t1 > 0)]
    ranks = [np.ones(seg_p.size, dtype=np.int64), np.full(segs[1].size, 3, dtype=np.int64)]
    abc: list[tuple[np.ndarray, ...]] = [
        (pa, pb, dg),
        (t1[segs[1]], f1[segs[1]], np.ones(segs[1].size, dtype=t.dtype)),
    ]
    below = t * n < pos2  # recG < 0; the one segment where this flips holds the recG crossing
    seg_r = np.flatnonzero(below[:-1] & ~below[1:] & (t1 * n != pos2))
    for k in seg_r.tolist():
        a_t0, a_t1, a_f0, a_f1 = (int(v[k]) for v in (t0, t1, f0, f1))
        dt = a_t1 - a_t0
        lam_r = Fraction(pos2 - a_t0 * n, n * dt)
        rank_r = 0
        at = np.flatnonzero(seg_p == k)
        if at.size:
            lam_p = Fraction(int(gp0[at[0]]), int(dg[at[0]]))
            if lam_r == lam_p:  # one point, already listed as the precG crossing
                continue
            rank_r = 0 if lam_r < lam_p else 2
        ra, rc = pos2 * dt, n * dt
        rb = a_f0 * n * dt + (pos2 - a_t0 * n) * (a_f1 - a_f0)
        common = gcd(gcd(ra, rb), rc)  # smaller integers, the same table
        ra, rb, rc = ra // common, rb // common, rc // common
        segs.append(np.array([k]))
        ranks.append(np.array([rank_r]))
        abc.append(tuple(np.array([v], dtype=object) for v in (ra, rb, rc)))
    seg, rank = np.concatenate(segs), np.concatenate(ranks)
    order = np.lexsort((rank, seg))
    a, b, c = (np.concatenate([_as_int64_if_fits(x[i]) for x in abc])[order] for i in range(3))
    # |neg a - pos b| and |neg a - pos (pos c - a)| are below n max|a| + pos max|b| + pos^2 max|c|
    if not _fits_int64(n * _max(a) + pos * _max(b) + pos2 * _max(c)):
        a, b, c = a.astype(object), b.astype(object), c.astype(object)
    neg_a = neg * a
    return PRGCurve(
        points.thresholds[seg[order]],
        Ratios(a, c),
        Ratios(b, c),
        Ratios(neg_a - pos * b, neg_a),
        Ratios(neg_a - pos * (pos * c - a), neg_a),
        rank[order] != 3,
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

    Integer orientation test: with K = pos/neg, recG = 1 + K - K pos (1/TP) and
    precG = 1 - K (FP/TP), an orientation-preserving affine image (determinant K^2 pos > 0) of
    (u, v) = (1/TP, FP/TP). A table TP = a/c, FP = b/c has homogeneous coordinates (c, b, a)
    in the (u, v) plane with weight a > 0, so the sign of the usual cross product of three
    points is the sign of the 3x3 integer determinant of their (c, b, a) rows.

    Parameters
    ----------
    curve : PRGCurve
        An exact PRG curve.

    Returns
    -------
    list of int
        Indices of the hull's points, by increasing recall gain.

    See Also
    --------
    prg_curve
    prtheory.oracle.prg.auprg : the area under the curve.

    Examples
    --------
    The curve of :func:`prg_curve`'s example has (recG, precG) = (0, 1), (0, 0), (1, 1/2),
    (1, 0); of each recall gain only the highest point can be on the hull: (0, 1) and (1, 1/2):

    >>> from prtheory.oracle.curves import prg_convex_hull, prg_curve
    >>> prg_convex_hull(prg_curve([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1]))
    [0, 2]
    """
    a, c, b = curve.tp.numerators, curve.tp.denominators, curve.fp.numerators
    idx = np.flatnonzero(curve.recall_gain.numerators >= 0)  # its denominator neg a is > 0
    # points are in non-decreasing TP (so recG) order and FP is non-decreasing at equal TP, so
    # the first point of each run of equal TP has the highest precG there
    ai, ci = a[idx], c[idx]
    if ai.dtype == object or ci.dtype == object or not _fits_int64(_max(ai) * _max(ci)):
        ai, ci = as_objects(ai), as_objects(ci)
    first = np.concatenate(([True], ai[1:] * ci[:-1] != ai[:-1] * ci[1:]))
    ordered = idx[first].tolist()
    rows = {i: (int(c[i]), int(b[i]), int(a[i])) for i in ordered}
    hull: list[int] = []
    for i in ordered:
        xi, yi, wi = rows[i]
        while len(hull) >= 2:
            xo, yo, wo = rows[hull[-2]]
            xa, ya, wa = rows[hull[-1]]
            cross = xo * (ya * wi - wa * yi) - yo * (xa * wi - wa * xi) + wo * (xa * yi - ya * xi)
            if cross >= 0:  # a is not strictly above the chord o -> i
                hull.pop()
            else:
                break
        hull.append(i)
    return hull
