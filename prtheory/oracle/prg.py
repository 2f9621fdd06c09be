"""Area under the Precision-Recall-Gain curve, expected F-Gain, and F-calibrated scores.

Flach & Kull (2015): with ``K = pi/(1-pi) = pos/neg``, precision gain ``precG = 1 - K FP/TP`` and
recall gain ``recG = 1 - K FN/TP`` (F5). Interpolating two contingency tables moves along the
straight PRG segment between their points (Theorem 1, F7), so the PRG curve is piecewise linear
and every area below is an exact rational.

AUPRG = integral of precG d recG over recG in [0, 1] along the curve. Two named conventions for
negative precision gain (``negative_gain``):

``"signed"``
    the plain integral, in which stretches with precG < 0 count as negative area. This is what
    the official code computes (meeliskull/prg, ``Python_package/prg/prg.py``, ``calc_auprg``:
    trapezoids ``(x_i - x_{i-1}) (y_i + y_{i-1})/2`` over every segment that starts at recG >= 0,
    with precG unclipped), and what the paper's experiments report (Figure 4: "Some models
    perform worse than random (AUPRG < 0)"). Theorem 3 (F9) holds for this area.
``"unit-square"``
    the area of the part of the curve inside the unit square, integral of max(precG, 0) d recG
    over recG in [0, 1]: the paper's definition draws the PRG curve "in the unit square (i.e.,
    negative gains are ignored)". Never negative.

Both exclude recG < 0 (the part of the ranking whose recall is below pi), which the paper ignores
too. The curve ends at the always-positive classifier (recG, precG) = (1, 0) (F6).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise

import numpy as np
from numpy.typing import ArrayLike

from prtheory._input import ExactArrayLike
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle import points as points_
from prtheory.oracle.counts import operating_points
from prtheory.oracle.curves import PRGCurve, prg_convex_hull, prg_curve, tp_run_ends
from prtheory.oracle.ratios import as_objects
from prtheory.oracle.summation import rational_sum

__all__ = [
    "NEGATIVE_GAIN_CONVENTIONS",
    "CalibratedSegment",
    "auprg",
    "expected_fg1",
    "f_calibrated_scores",
]

NEGATIVE_GAIN_CONVENTIONS = ("signed", "unit-square")


def _tables(
    y_true: ArrayLike, y_score: ExactArrayLike, sample_weight: ExactArrayLike | None
) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Counts from the empty classifier through the operating points, as Python-int arrays.

    Only the ends of each run of equal TP are kept (:func:`tp_run_ends`): every quantity here
    integrates over recall gain, a function of TP, or reads the first table of a run (the one
    that reaches recG = 0) and the table before it.
    """
    points = operating_points(y_true, y_score, sample_weight)
    if points.pos == 0:
        raise UndefinedMetricError("recall gain", "y_true has no positive weight")
    if points.neg == 0:
        raise UndefinedMetricError(
            "precision gain", "y_true has no negative weight (pi = 1, so pi/(1-pi) is undefined)"
        )
    tp, fp = np.concatenate(([0], points.tp)), np.concatenate(([0], points.fp))
    ends = tp_run_ends(tp)
    return as_objects(tp[ends]), as_objects(fp[ends]), points.pos, points.neg


def _gain_point(t: Fraction, f: Fraction, pos: int, neg: int) -> tuple[Fraction, Fraction]:
    """(recG, precG) of a table with TP = t > 0 (F5)."""
    fn, tn = pos - t, neg - f
    return points_.recall_gain(t, f, fn, tn), points_.precision_gain(t, f, fn, tn)


def _start(
    tp: np.ndarray, fp: np.ndarray, pos: int, neg: int
) -> tuple[int, tuple[Fraction, Fraction]]:
    """Index ``j`` of the first table with recG >= 0 and the table where recG first reaches 0.

    recG >= 0 iff TP >= T* = pos^2/(pos+neg). If table ``j-1`` is below T*, the recG = 0
    crossing is the interpolated table on segment ``(j-1, j)`` (Theorem 1, F7).
    """
    n = pos + neg
    j = int(np.argmax(tp * n >= pos * pos))  # the last table has TP = pos >= T*, so j exists
    t_star = Fraction(pos * pos, n)
    if tp[j] * n == pos * pos or j == 0:
        return j, (Fraction(int(tp[j])), Fraction(int(fp[j])))
    t0, t1, f0, f1 = int(tp[j - 1]), int(tp[j]), int(fp[j - 1]), int(fp[j])
    lam = (t_star - t0) / (t1 - t0)
    return j, (t_star, f0 + lam * (f1 - f0))


def _segment_terms(
    t0: np.ndarray, f0: np.ndarray, t1: np.ndarray, f1: np.ndarray, pos: int, neg: int
) -> tuple[np.ndarray, np.ndarray]:
    """Exact ``(num, den)`` of ``(recG1 - recG0)(precG0 + precG1)/2`` for TP0, TP1 > 0.

    With K = pos/neg: recG1 - recG0 = K pos dT/(T0 T1) and precG0 + precG1
    = 2 - K (F0 T1 + F1 T0)/(T0 T1), so the term is
    pos^2 dT (2 neg T0 T1 - pos (F0 T1 + F1 T0)) / (2 neg^2 T0^2 T1^2).
    """
    num = pos * pos * (t1 - t0) * (2 * neg * t0 * t1 - pos * (f0 * t1 + f1 * t0))
    den = 2 * neg * neg * (t0 * t0) * (t1 * t1)
    return num, den


def auprg(
    y_true: ArrayLike,
    y_score: ExactArrayLike,
    sample_weight: ExactArrayLike | None = None,
    *,
    negative_gain: str,
) -> Fraction:
    """Exact area under the PRG curve over recG in [0, 1] (Flach & Kull 2015, Section 3.3).

    ``negative_gain`` names what happens where precG < 0: ``"signed"`` (the official code and
    Theorem 3) or ``"unit-square"`` (clip at 0); see the module docstring. Raises
    :class:`UndefinedMetricError` when either class has zero weight.

    Computed from the contingency tables: one exact trapezoid per segment in the region
    recG >= 0 (starting at the exact recG = 0 crossing), summed by
    :func:`prtheory.oracle.summation.rational_sum`; under ``"unit-square"`` a segment on which
    precG changes sign contributes only its positive triangle
    ``(x1 - x0) y_+^2 / (2 (y_+ - y_-))``.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels.
    y_score : array-like of shape (n,)
        Real scores, taken exactly.
    sample_weight : array-like of shape (n,) or None
        Finite non-negative weights, taken exactly.
    negative_gain : {"signed", "unit-square"}
        What happens where precG < 0 (module docstring).

    Returns
    -------
    Fraction
        The AUPRG, exactly.

    Raises
    ------
    InvalidInputError
        Malformed input or an unknown ``negative_gain``.
    UndefinedMetricError
        Either class has zero weight.

    See Also
    --------
    expected_fg1 : the expected F1 gain (F9).
    prtheory.oracle.curves.prg_curve : the curve.

    Examples
    --------
    The curve of :func:`prtheory.oracle.curves.prg_curve`'s example, (recG, precG) = (0, 1),
    (0, 0), (1, 1/2), (1, 0): only (0, 0) -> (1, 1/2) has width, a trapezoid of area
    1 (0 + 1/2)/2 = 1/4; no precG is negative, so both conventions agree:

    >>> from prtheory.oracle.prg import auprg
    >>> y, s = [1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1]
    >>> auprg(y, s, negative_gain="signed"), auprg(y, s, negative_gain="unit-square")
    (Fraction(1, 4), Fraction(1, 4))
    """
    if negative_gain not in NEGATIVE_GAIN_CONVENTIONS:
        raise InvalidInputError(
            "negative_gain",
            f"must be one of {', '.join(repr(c) for c in NEGATIVE_GAIN_CONVENTIONS)}, "
            f"got {negative_gain!r}",
        )
    tp, fp, pos, neg = _tables(y_true, y_score, sample_weight)
    j, (t_star, f_star) = _start(tp, fp, pos, neg)
    # the first (possibly interpolated) segment, from the recG = 0 point to table j
    first = []
    if Fraction(int(tp[j])) != t_star:
        first.append(((t_star, f_star), (Fraction(int(tp[j])), Fraction(int(fp[j])))))
    t0, t1, f0, f1 = tp[j:-1], tp[j + 1 :], fp[j:-1], fp[j + 1 :]
    moving = t1 > t0  # vertical segments (only FP changes) have zero width
    total = Fraction(0)
    if negative_gain == "signed":
        w = np.flatnonzero(moving)
        total += rational_sum(*_segment_terms(t0[w], f0[w], t1[w], f1[w], pos, neg))
        for (ta, fa), (tb, fb) in first:
            (xa, ya), (xb, yb) = _gain_point(ta, fa, pos, neg), _gain_point(tb, fb, pos, neg)
            total += (xb - xa) * (ya + yb) / 2
        return total
    # unit square: precG >= 0  <=>  FP pos <= TP neg
    nonneg0 = f0 * pos <= t0 * neg
    nonneg1 = f1 * pos <= t1 * neg
    w = np.flatnonzero(moving & nonneg0 & nonneg1)
    total += rational_sum(*_segment_terms(t0[w], f0[w], t1[w], f1[w], pos, neg))
    mixed = [
        ((Fraction(int(t0[k])), Fraction(int(f0[k]))), (Fraction(int(t1[k])), Fraction(int(f1[k]))))
        for k in np.flatnonzero(moving & (nonneg0 != nonneg1))
    ]
    for (ta, fa), (tb, fb) in first + mixed:
        (xa, ya), (xb, yb) = _gain_point(ta, fa, pos, neg), _gain_point(tb, fb, pos, neg)
        if ya >= 0 and yb >= 0:
            total += (xb - xa) * (ya + yb) / 2
        elif ya > 0 or yb > 0:
            y_plus, y_minus = max(ya, yb), min(ya, yb)
            total += (xb - xa) * y_plus * y_plus / (2 * (y_plus - y_minus))
    return total


def expected_fg1(
    y_true: ArrayLike, y_score: ExactArrayLike, sample_weight: ExactArrayLike | None = None
) -> Fraction:
    """Expected F1-Gain under Theorem 3 (F9), exactly.

    ``E[FG1] = (AUPRG/2 + 1/4 - pi (1 - y0^2)/4) / (1 - pi (1 - y0))`` with the signed AUPRG and
    ``y0`` the precision gain where the curve first reaches recG = 0 (the start of the path; if
    several points share recG = 0, the first has the highest precG). This is the mean of
    ``FG1 = (precG + recG)/2`` (F8 with beta = 1) when ``Delta = recG/pi - precG/(1-pi)`` is
    uniform on ``[-y0/(1-pi), 1/pi]``, Delta's range along the curve.

    Undefined when that range is a single point, ``1 - pi (1 - y0) = 0``, i.e. ``y0 = 1 - 1/pi``:
    the recG = 0 point uses every negative (FP = neg), as for the worst ranking.

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
    Fraction
        ``E[FG1]``, exactly.

    Raises
    ------
    InvalidInputError
        Malformed input, naming the argument.
    UndefinedMetricError
        Either class has zero weight, or ``1 - pi (1 - y0) = 0``.

    See Also
    --------
    auprg

    Examples
    --------
    The same curve: pi = 1/2, AUPRG = 1/4 and y0 = 1 (the point (0, 1)), so
    E = (1/8 + 1/4 - (1/2)(1 - 1)/4)/(1 - (1/2)(1 - 1)) = 3/8:

    >>> from prtheory.oracle.prg import expected_fg1
    >>> expected_fg1([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    Fraction(3, 8)
    """
    tp, fp, pos, neg = _tables(y_true, y_score, sample_weight)
    _, (t_star, f_star) = _start(tp, fp, pos, neg)
    _, y0 = _gain_point(t_star, f_star, pos, neg)
    pi = Fraction(pos, pos + neg)
    den = 1 - pi * (1 - y0)
    if den == 0:
        raise UndefinedMetricError(
            "expected FG1",
            "the curve reaches recG = 0 only after every negative (y0 = 1 - 1/pi), so Delta's "
            "range [-y0/(1-pi), 1/pi] is a single point",
        )
    area = auprg(y_true, y_score, sample_weight, negative_gain="signed")
    return (area / 2 + Fraction(1, 4) - pi * (1 - y0 * y0) / 4) / den


@dataclass(frozen=True)
class CalibratedSegment:
    """One segment of the PRG convex hull's Pareto front with its F-calibrated score (F10).

    ``left``/``right`` index the :class:`~prtheory.oracle.curves.PRGCurve` points (left has the
    higher precision, lower recall); both have equal F_beta exactly at ``beta2``; ``d`` is
    ``1/(beta2 + 1)``.

    Parameters
    ----------
    left, right : int
        Indices of the segment's ends in the PRG curve.
    beta2 : Fraction
        The ``beta^2`` at which both ends have equal F-beta.
    d : Fraction
        The calibrated score ``1/(beta2 + 1)``.

    See Also
    --------
    f_calibrated_scores : computes them.

    Examples
    --------
    See :func:`f_calibrated_scores`.

    >>> from prtheory.oracle.prg import f_calibrated_scores
    >>> f_calibrated_scores([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])[1][0].left
    0
    """

    left: int
    right: int
    beta2: Fraction
    d: Fraction


def f_calibrated_scores(
    y_true: ArrayLike, y_score: ExactArrayLike, sample_weight: ExactArrayLike | None = None
) -> tuple[PRGCurve, list[CalibratedSegment]]:
    """The PRG curve and the F-calibrated score of each Pareto segment of its convex hull.

    Theorem 4 (F10): for points with prec1 > prec2 and rec1 < rec2,
    ``beta^2 = -(1/prec1 - 1/prec2)/(1/rec1 - 1/rec2)`` makes their F_beta equal, and the
    calibrated score is ``d = 1/(beta^2 + 1)
    = (1/rec1 - 1/rec2)/((1/rec1 - 1/rec2) - (1/prec1 - 1/prec2))``. Equivalently (F8) beta^2 is
    minus the slope of the segment in PRG space. Hull segments are taken from
    :func:`prtheory.oracle.curves.prg_convex_hull`; the hull's rising part (before its highest
    point), whose slope is positive, is dominated and gets no score. A flat segment
    (equal precision) gets beta^2 = 0, d = 1.

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
    tuple of (PRGCurve, list of CalibratedSegment)
        The curve and one calibrated segment per Pareto segment of its hull.

    Raises
    ------
    InvalidInputError
        Malformed input, naming the argument.
    UndefinedMetricError
        Either class has zero weight.

    See Also
    --------
    prtheory.oracle.curves.prg_convex_hull : the hull.
    auprg

    Examples
    --------
    The hull of the same curve joins point 0 (TP 1, FP 0: precision 1, recall 1/2) and point 2
    (TP 2, FP 1: precision 2/3, recall 1): beta^2 = -(1 - 3/2)/(2 - 1) = 1/2 (minus the PRG slope
    (1/2 - 1)/(1 - 0)), d = 1/(1/2 + 1) = 2/3:

    >>> from prtheory.oracle.prg import f_calibrated_scores
    >>> curve, segments = f_calibrated_scores([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    >>> segments
    [CalibratedSegment(left=0, right=2, beta2=Fraction(1, 2), d=Fraction(2, 3))]
    """
    curve = prg_curve(y_true, y_score, sample_weight)
    hull = prg_convex_hull(curve)
    segments = []
    for i1, i2 in pairwise(hull):
        p1, p2 = curve.precision(i1), curve.precision(i2)
        r1, r2 = curve.recall(i1), curve.recall(i2)
        if p1 < p2:  # rising part of the hull: dominated by its right end
            continue
        inv_r = 1 / r1 - 1 / r2
        inv_p = 1 / p1 - 1 / p2
        segments.append(CalibratedSegment(i1, i2, -inv_p / inv_r, inv_r / (inv_r - inv_p)))
    return curve, segments
