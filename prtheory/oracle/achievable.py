"""The achievable PR curve of a set of points (Davis & Goadrich 2006, claims D1-D3).

For a data set with ``pos > 0`` positives and ``neg`` negatives, a PR point with recall
``r > 0`` and precision ``p > 0`` is one confusion matrix (D1): ``TP = r pos`` and
``FP = TP (1 - p)/p``. The achievable PR curve of a set of such points is their ROC convex hull
mapped back to PR space (Corollary 3.1, D3):

1. the upper convex hull, in ROC space, of the points together with the two classifiers every
   data set has, predicting nothing positive ``(FP, TP) = (0, 0)`` and everything positive
   ``(neg, pos)`` (the hull runs from one to the other; the axes may be counts rather than
   rates, since scaling an axis keeps the hull);
2. between consecutive hull vertices ``A`` and ``B`` the ROC segment, on which FP grows
   linearly with TP at the local skew ``s = (FP_B - FP_A)/(TP_B - TP_A)``; in PR space this is
   Davis & Goadrich's interpolation, precision ``t/(t + FP_A + s (t - TP_A))`` at ``TP = t``
   (D4), and from the empty classifier precision is constant at the first vertex's.

It dominates every curve built from the same points (Theorem 3.2, D2): any such curve lies on
or below the hull in ROC space, so at every recall it has at least the hull's FP, hence at most
its precision. The points strictly beneath the hull are exactly those the curve leaves out.

Coordinates are exact rationals (counts need not be integers: D&G's Figure 6 example has
``TP = 0.02 * 433``). The area is the Davis-Goadrich integral of
:func:`prtheory.oracle.areas.pr_auc` (an ``mpf`` under the oracle contract of
:mod:`prtheory.oracle.closed_forms`), computed on the counts scaled to integers by a common
denominator, which changes neither precision nor recall.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
from numpy.typing import ArrayLike

from prtheory._input import ExactArrayLike, check_unit, check_weighted_count
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle.areas import pr_auc_of_points
from prtheory.oracle.counts import OperatingPoints, operating_points
from prtheory.oracle.rounding import exact_rational

__all__ = [
    "AchievableCurve",
    "achievable_pr_curve",
    "achievable_pr_curve_of_counts",
    "achievable_pr_curve_of_ranking",
]


@dataclass(frozen=True)
class AchievableCurve:
    """An achievable PR curve: its ROC hull vertices and which input points it keeps.

    ``tp``/``fp`` are the hull vertices from ``(0, 0)`` to ``(pos, neg)`` in increasing FP (and
    non-decreasing TP) order, without collinear middle points; ``on_curve[i]`` says whether input
    point ``i`` lies on the hull (a vertex or on an edge) rather than strictly beneath it.

    Parameters
    ----------
    tp, fp : tuple of Fraction
        The hull's vertices, from (0, 0) to (pos, neg).
    pos, neg : Fraction
        The class sizes.
    on_curve : tuple of bool
        Whether each input point lies on the hull.

    See Also
    --------
    achievable_pr_curve, achievable_pr_curve_of_counts, achievable_pr_curve_of_ranking

    Examples
    --------
    See :func:`achievable_pr_curve_of_ranking`.

    >>> from prtheory.oracle.achievable import achievable_pr_curve_of_counts
    >>> achievable_pr_curve_of_counts([1], [0], pos=1, neg=1).on_curve
    (True,)
    """

    tp: tuple[Fraction, ...]
    fp: tuple[Fraction, ...]
    pos: Fraction
    neg: Fraction
    on_curve: tuple[bool, ...]

    @property
    def recall(self) -> tuple[Fraction, ...]:
        """Recall ``TP/pos`` of the vertices after the empty classifier."""
        return tuple(t / self.pos for t in self.tp[1:])

    @property
    def precision(self) -> tuple[Fraction, ...]:
        """Precision ``TP/(TP + FP)`` of the vertices after the empty classifier (TP > 0)."""
        return tuple(t / (t + f) for t, f in zip(self.tp[1:], self.fp[1:], strict=True))

    def precision_at(self, recall: Any) -> Fraction:
        """Precision of the curve at ``recall`` in (0, 1], exactly: on the hull edge that reaches
        ``TP = recall pos`` first (least FP there), ``t/(t + FP_A + s (t - TP_A))``.

        Recall 0 is no confusion matrix's PR point (D1): :class:`UndefinedMetricError`.
        """
        r = exact_rational(check_unit(recall, "recall"), "recall")
        if r == 0:
            raise UndefinedMetricError(
                "precision", "recall 0 is no point of the curve (TP = 0 leaves FP unknown, D1)"
            )
        t = r * self.pos
        j = bisect_left(self.tp, t)  # the first vertex with TP >= t; TP rises from 0 to pos
        if self.tp[j] == t:
            return t / (t + self.fp[j])
        ta, fa, tb, fb = self.tp[j - 1], self.fp[j - 1], self.tp[j], self.fp[j]
        return t / (t + fa + (fb - fa) * (t - ta) / (tb - ta))

    def area(self, dps: int = 50) -> mpmath.mpf:
        """Area under the curve over recall [0, 1] (Davis-Goadrich interpolation along every
        hull edge, from the empty classifier), an ``mpf`` under the oracle contract."""
        scale = math.lcm(*(q.denominator for q in (*self.tp, *self.fp, self.pos, self.neg)))
        tp = np.array([int(t * scale) for t in self.tp[1:]], dtype=object)
        fp = np.array([int(f * scale) for f in self.fp[1:]], dtype=object)
        points = OperatingPoints(
            thresholds=np.arange(tp.size, 0, -1, dtype=np.float64),  # vertices have no scores
            tp=tp,
            fp=fp,
            pos=int(self.pos * scale),
            neg=int(self.neg * scale),
            denominator=scale,
        )
        area: mpmath.mpf = pr_auc_of_points(
            points, method="davis-goadrich", first_point="spark", dps=dps
        )
        return area

    def roc_auc(self) -> Fraction:
        """Area under the ROC hull (trapezoids between vertices), exactly; undefined without
        negatives."""
        if self.neg == 0:
            raise UndefinedMetricError("area under the ROC curve", "there are no negatives")
        total = sum(
            (
                (f1 - f0) * (t0 + t1)
                for t0, t1, f0, f1 in zip(self.tp, self.tp[1:], self.fp, self.fp[1:], strict=False)
            ),
            Fraction(0),
        )
        return total / (2 * self.pos * self.neg)


def _class_sizes(pos: Any, neg: Any) -> tuple[Fraction, Fraction]:
    pos_q = exact_rational(check_weighted_count(pos, "pos"), "pos")
    neg_q = exact_rational(check_weighted_count(neg, "neg"), "neg")
    if pos_q == 0:
        raise UndefinedMetricError("recall", "pos = 0: there are no positives, so recall is 0/0")
    return pos_q, neg_q


def _exact_list(values: Any, name: str) -> list[Fraction]:
    if isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, np.ndarray)):
        raise InvalidInputError(name, f"must be a sequence of numbers, got {type(values).__name__}")
    out = [exact_rational(v, f"{name}[{i}]") for i, v in enumerate(values)]
    if not out:
        raise InvalidInputError(name, "must not be empty")
    return out


def _cross(o: tuple[int, int], a: tuple[int, int], b: tuple[int, int]) -> int:
    """``(a - o) x (b - o)`` on (FP, TP) pairs: > 0 for a left (counter-clockwise) turn."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _on_segment(a: tuple[int, int], b: tuple[int, int], p: tuple[int, int]) -> bool:
    return (
        _cross(a, b, p) == 0
        and min(a[0], b[0]) <= p[0] <= max(a[0], b[0])
        and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])
    )


def _hull(tp: list[Fraction], fp: list[Fraction], pos: Fraction, neg: Fraction) -> AchievableCurve:
    """Andrew's monotone chain (upper hull, left to right) on exact counts scaled to integers."""
    scale = math.lcm(*(q.denominator for q in (*tp, *fp, pos, neg)))
    pts = [(int(f * scale), int(t * scale)) for t, f in zip(tp, fp, strict=True)]
    ends = [(0, 0), (int(neg * scale), int(pos * scale))]
    hull: list[tuple[int, int]] = []
    for p in sorted(set(pts + ends)):
        while len(hull) >= 2 and _cross(hull[-2], hull[-1], p) >= 0:
            hull.pop()  # hull[-1] is not strictly above the chord hull[-2] -> p
        hull.append(p)
    xs = [x for x, _ in hull]
    on_curve = []
    for p in pts:
        j = bisect_left(xs, p[0])
        segments = [(i, i + 1) for i in (j - 1, j) if 0 <= i < len(hull) - 1]
        on_curve.append(any(_on_segment(hull[i], hull[k], p) for i, k in segments))
    return AchievableCurve(
        tuple(Fraction(y, scale) for _, y in hull),
        tuple(Fraction(x, scale) for x, _ in hull),
        pos,
        neg,
        tuple(on_curve),
    )


def achievable_pr_curve_of_counts(
    tp: ExactArrayLike, fp: ExactArrayLike, *, pos: Any, neg: Any
) -> AchievableCurve:
    """The achievable PR curve of confusion matrices given by their counts (module docstring).

    ``tp[i]`` and ``fp[i]`` are exact or float counts (rational counts are weighted counts) with
    ``0 <= tp[i] <= pos`` and ``0 <= fp[i] <= neg``; ``pos > 0``.

    Parameters
    ----------
    tp, fp : array-like
        The confusion matrices' counts, ``0 <= tp <= pos``, ``0 <= fp <= neg``.
    pos, neg : number
        The class sizes, ``pos > 0``.

    Returns
    -------
    AchievableCurve
        The hull and which points lie on it.

    Raises
    ------
    InvalidInputError
        Empty, malformed or out-of-range counts, or lengths that differ.
    UndefinedMetricError
        ``pos = 0``.

    See Also
    --------
    achievable_pr_curve : from PR points.

    Examples
    --------
    (FP, TP) = (0, 1) and (2, 2) with pos = neg = 2 are both hull vertices:

    >>> from prtheory.oracle.achievable import achievable_pr_curve_of_counts
    >>> c = achievable_pr_curve_of_counts([1, 2], [0, 2], pos=2, neg=2)
    >>> [str(t) for t in c.tp], [str(f) for f in c.fp], c.on_curve
    (['0', '1', '2'], ['0', '0', '2'], (True, True))
    """
    pos_q, neg_q = _class_sizes(pos, neg)
    tps, fps = _exact_list(tp, "tp"), _exact_list(fp, "fp")
    if len(tps) != len(fps):
        raise InvalidInputError("fp", f"length {len(fps)} does not match tp's length {len(tps)}")
    for name, values, top in (("tp", tps, pos_q), ("fp", fps, neg_q)):
        for i, v in enumerate(values):
            if not 0 <= v <= top:
                bound = "pos" if name == "tp" else "neg"
                raise InvalidInputError(
                    name, f"must be in [0, {bound}] = [0, {top}], got {v} at index {i}"
                )
    return _hull(tps, fps, pos_q, neg_q)


def achievable_pr_curve(
    recall: ExactArrayLike, precision: ExactArrayLike, *, pos: Any, neg: Any
) -> AchievableCurve:
    """The achievable PR curve of PR points of a data set with ``pos`` positives and ``neg``
    negatives (Corollary 3.1; module docstring).

    Each point needs recall > 0 (a PR point at recall 0 is no unique confusion matrix, D1) and
    precision > 0; its ``FP = r pos (1 - p)/p`` must not exceed ``neg``.

    Example (D&G's Figure 6): the single point (0.02, 1) with 433 positives and 56,164
    negatives gives the hull (0, 0) -> (FP 0, TP 8.66) -> (56164, 433); its area is about
    0.0287, where a straight line in PR space from (0.02, 1) to (1, 433/56597) gives 0.514.

    Parameters
    ----------
    recall, precision : array-like
        The PR points, recall and precision in (0, 1].
    pos, neg : number
        The data set's positives (> 0) and negatives.

    Returns
    -------
    AchievableCurve
        The hull and which points lie on it.

    Raises
    ------
    InvalidInputError
        Empty or malformed points, a point at recall or precision 0, or an FP above ``neg``.
    UndefinedMetricError
        ``pos = 0``.

    See Also
    --------
    achievable_pr_curve_of_counts : from confusion matrices.

    Examples
    --------
    Recall 1/2 at precision 1 with 2 positives is TP = 1, FP = (1/2)(2)(0)/1 = 0; the hull runs
    (0, 0) -> (FP 0, TP 1) -> (2, 2):

    >>> from fractions import Fraction
    >>> from prtheory.oracle.achievable import achievable_pr_curve
    >>> c = achievable_pr_curve([Fraction(1, 2)], [1], pos=2, neg=2)
    >>> [str(t) for t in c.tp], [str(f) for f in c.fp], c.on_curve
    (['0', '1', '2'], ['0', '0', '2'], (True,))
    """
    pos_q, neg_q = _class_sizes(pos, neg)
    rs, ps = _exact_list(recall, "recall"), _exact_list(precision, "precision")
    if len(rs) != len(ps):
        raise InvalidInputError(
            "precision", f"length {len(ps)} does not match recall's length {len(rs)}"
        )
    tps, fps = [], []
    for i, (r, p) in enumerate(zip(rs, ps, strict=True)):
        if not 0 < r <= 1:
            raise InvalidInputError("recall", f"must be in (0, 1] (D1), got {r} at index {i}")
        if not 0 < p <= 1:
            raise InvalidInputError("precision", f"must be in (0, 1], got {p} at index {i}")
        t = r * pos_q
        f = t * (1 - p) / p
        if f > neg_q:
            raise InvalidInputError(
                "precision",
                f"point {i} (recall {r}, precision {p}) needs FP = {f} > neg = {neg_q} negatives",
            )
        tps.append(t)
        fps.append(f)
    return _hull(tps, fps, pos_q, neg_q)


def achievable_pr_curve_of_ranking(
    y_true: ArrayLike, y_score: ExactArrayLike, sample_weight: ExactArrayLike | None = None
) -> AchievableCurve:
    """The achievable PR curve of a ranking's operating points (one per distinct score; see
    :mod:`prtheory.oracle.counts`): the PR analogue of its ROC convex hull.

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
    AchievableCurve
        The ROC hull of the operating points and which of them lie on it.

    Raises
    ------
    InvalidInputError
        Malformed input, naming the argument.
    UndefinedMetricError
        No positive weight.

    See Also
    --------
    achievable_pr_curve_of_counts
    prtheory.metrics.achievable_pr_auc : the float64 area.

    Examples
    --------
    ``y = [1, 0, 1, 0]`` ranked as given: (FP, TP) = (0, 1), (1, 1), (1, 2), (2, 2). The chord from
    (0, 1) to (1, 2) passes above (1, 1), which is the only point off the hull:

    >>> from prtheory.oracle.achievable import achievable_pr_curve_of_ranking
    >>> achievable_pr_curve_of_ranking([1, 0, 1, 0], [4, 3, 2, 1]).on_curve
    (True, False, True, True)
    """
    pts = operating_points(y_true, y_score, sample_weight)
    d = pts.denominator
    tp = [Fraction(int(t), d) for t in pts.tp.tolist()]
    fp = [Fraction(int(f), d) for f in pts.fp.tolist()]
    pos_q, neg_q = _class_sizes(Fraction(pts.pos, d), Fraction(pts.neg, d))
    return _hull(tp, fp, pos_q, neg_q)
