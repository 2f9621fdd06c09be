"""Weka's threshold curve and its two areas, emulated in float64 from its source without Java.

Weka 3.9 ``weka/classifiers/evaluation/ThresholdCurve.java`` (the ``Evaluation`` class prints
both areas for every class):

* :func:`weka_curve`: ``getCurve(predictions, classIndex)``. The totals ``totPos`` and
  ``totNeg`` are summed in input order; the items are sorted by score, lowest first
  (``Utils.sort``); the first point is ``TwoClassStats(totPos, totNeg, 0, 0)`` (every item
  predicted positive), and at each higher distinct score the weight of the items below it is
  *subtracted*: ``tc.setTruePositive(tc.getTruePositive() - cumulativePos)``, likewise ``FP``,
  while ``FN`` and ``TN`` grow by it. Last, where the curve has not reached the classifier
  predicting nothing (``FN != totPos || TN != totNeg``), that point is appended. Each point's
  precision is ``TP / (TP + FP)`` and its recall ``TP / (TP + FN)`` (NaN where the denominator
  is 0, ``TwoClassStats``), so a point whose TP and FP cancel to 0 makes the PR area NaN.
* :func:`weka_prc_area`: ``getPRCArea``, ``area += p[i] * (r[i] - r[i + 1])`` for ``i`` from
  ``n - 2`` down to 0, NaN (``Utils.missingValue()``) where the sum is 0.
* :func:`weka_roc_area`: ``getROCArea``, ``area += cip * (cumNeg + 0.5 cin)`` over the points'
  differences of TP and FP, divided by ``totalNeg * totalPos`` (the first point's TP and FP).

In exact arithmetic the subtraction gives each point's TP; in float64, weights more than 2^53
apart cancel: ``(w_small + w_big) - w_big`` is 0, so a positive of weight 1e61 ranked first
among positives of 1e96 counts nothing. All arithmetic is Python's float, the IEEE double
arithmetic of Java.

The order of equal scores is that of Weka's quicksort, not modelled here: within a tied group
the weights are summed in another order, which can change the last bits. The emulation is
asked only where no two items share a score, or all weights are equal (:func:`order_free`),
and, as the cause of a divergence, only where the subtraction loses weight and nothing
overflows or underflows first (:func:`cancels`).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["cancels", "order_free", "weka_curve", "weka_prc_area", "weka_roc_area"]


#: labels (positive or not), scores and weights as Python floats, in input order
_Items = tuple[list[bool], list[float], list[float]]


def _items(x: Any) -> _Items:
    """Labels (positive or not), scores and weights as Python floats, in input order."""
    labels = [bool(v) for v in np.asarray(x.labels).tolist()]
    scores = [float(v) for v in np.asarray(x.y_score, dtype=np.float64).tolist()]
    if x.sample_weight is None:
        weights = [1.0] * len(labels)
    else:
        weights = [float(v) for v in np.asarray(x.sample_weight, dtype=np.float64).tolist()]
    return labels, scores, weights


def order_free(x: Any) -> bool:
    """Whether the order of equal scores cannot change the emulation's sums: no NaN score, and
    no two items share a score unless every weight is the same.

    Parameters
    ----------
    x : Inputs
        The ranking.

    Returns
    -------
    bool
        True where :func:`weka_curve` does not depend on how Weka's quicksort orders ties.

    Examples
    --------
    >>> import numpy as np
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.weka_models import order_free
    >>> tied = Inputs(np.array([1, 0, 1]), np.array([0.5, 0.5, 0.2]))
    >>> order_free(tied), order_free(Inputs(tied.y_true, tied.y_score, np.array([1.0, 2.0, 1.0])))
    (True, False)
    """
    return _order_free(_items(x))


def _order_free(items: _Items) -> bool:
    _, scores, weights = items
    if any(math.isnan(s) for s in scores):
        return False
    return len(set(scores)) == len(scores) or len(set(weights)) <= 1


def cancels(x: Any) -> bool:
    """Whether Weka's float64 counts are what changes the curve of ``x``: the order of ties
    cannot matter (:func:`order_free`), every weight, total and point is finite, the product of
    the class totals does not underflow to 0, and some point's TP or FP, or the step from one
    point to the next (the weight of the items at that score), differs from the float64 nearest
    the exact one.

    Where a total overflows or the product underflows, that is the cause (mechanisms
    ``weights-overflow``, ``pos-neg-product-underflow``), not the subtraction.

    Parameters
    ----------
    x : Inputs
        The ranking.

    Returns
    -------
    bool
        True where the subtraction loses weight.

    Examples
    --------
    A positive of 1e61 above a negative of 1e196 and a positive of 7e96 loses the top positive;
    a negative of 1e129 below the only positive and a negative of 6e179 above it: the totals are
    each correctly rounded, but the step between the first two points, 6e179 - 6e179 = 0, loses
    the lower negative; subnormal weights are summed exactly and lose nothing (their product
    underflows instead):

    >>> import numpy as np
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.weka_models import cancels
    >>> y, s = np.array([1, 0, 1]), np.array([0.9, 0.4, 0.2])
    >>> cancels(Inputs(y, s, np.array([1e61, 1e196, 7e96])))
    True
    >>> cancels(Inputs(np.array([0, 1, 0]), np.array([0.2, 0.5, 0.9]), np.array([1e129, 1.0, 6e179])))
    True
    >>> cancels(Inputs(y, s, np.array([5e-324, 1e-323, 1.5e-323])))
    False
    """
    items = _items(x)
    if not _order_free(items):
        return False
    labels, scores, weights = items
    if not all(math.isfinite(w) for w in weights):
        return False
    points = _curve(items)
    if not all(math.isfinite(v) for p in points for v in p):
        return False
    tot_pos, tot_neg = points[0][0], points[0][2]
    if tot_pos > 0 and tot_neg > 0 and tot_pos * tot_neg == 0:
        return False
    # the exact weight at or above each distinct score, from the highest down
    exact: dict[float, tuple[Fraction, Fraction]] = {}
    above_pos = above_neg = Fraction(0)
    for i in sorted(range(len(scores)), key=lambda i: scores[i], reverse=True):
        if weights[i] >= 0:
            if labels[i]:
                above_pos += Fraction(weights[i])
            else:
                above_neg += Fraction(weights[i])
        exact[scores[i]] = (above_pos, above_neg)
    thresholds = sorted(exact)
    for k, ((tp, _, fp, _), t) in enumerate(zip(points, thresholds, strict=False)):
        if (tp, fp) != (float(exact[t][0]), float(exact[t][1])):
            return True
        if k + 1 < len(thresholds):  # the weight of the items at this score alone
            step = [a - b for a, b in zip(exact[t], exact[thresholds[k + 1]], strict=True)]
            if (tp - points[k + 1][0], fp - points[k + 1][2]) != tuple(map(float, step)):
                return True
    return False


def weka_curve(x: Any) -> list[tuple[float, float, float, float]]:
    """The points (TP, FN, FP, TN) of Weka's ``ThresholdCurve.getCurve``, lowest threshold
    first, in float64 as Weka computes them.

    Parameters
    ----------
    x : Inputs
        The ranking (``y_true``, ``y_score``, optional ``sample_weight``); items of negative
        weight are skipped, as Weka does.

    Returns
    -------
    list of tuple of float
        One point per distinct score (every item at or above it predicted positive), then the
        point predicting nothing where the last one is not it.

    Examples
    --------
    A positive of weight 1e61 above a negative of 1e196 and a positive of 1e96: the total
    positive weight rounds to 7e96, so removing the lowest positive leaves no true positive
    where the exact count is 1e61:

    >>> import numpy as np
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.weka_models import weka_curve
    >>> x = Inputs(np.array([1, 0, 1]), np.array([0.9, 0.4, 0.2]), np.array([1e61, 1e196, 7e96]))
    >>> [tp for tp, fn, fp, tn in weka_curve(x)]
    [7e+96, 0.0, 0.0]
    """
    return _curve(_items(x))


def _curve(items: _Items) -> list[tuple[float, float, float, float]]:
    labels, scores, weights = items
    kept = [i for i in range(len(labels)) if weights[i] >= 0]
    tot_pos = tot_neg = 0.0
    for i in kept:
        if labels[i]:
            tot_pos += weights[i]
        else:
            tot_neg += weights[i]
    order = sorted(range(len(scores)), key=lambda i: scores[i])
    tp, fn, fp, tn = tot_pos, 0.0, tot_neg, 0.0
    points = []
    threshold = 0.0
    cum_pos = cum_neg = 0.0
    for k, i in enumerate(order):
        if k == 0 or scores[i] > threshold:
            tp, fn, fp, tn = tp - cum_pos, fn + cum_pos, fp - cum_neg, tn + cum_neg
            threshold = scores[i]
            points.append((tp, fn, fp, tn))
            cum_pos = cum_neg = 0.0
            if k == len(order) - 1:
                break
        if weights[i] < 0:
            continue
        if labels[i]:
            cum_pos += weights[i]
        else:
            cum_neg += weights[i]
    if fn != tot_pos or tn != tot_neg:
        points.append((0.0, tot_pos, 0.0, tot_neg))
    return points


def _ratio(a: float, b: float) -> float:
    """``a / (a + b)``, NaN where ``a + b`` is 0 (``TwoClassStats.getPrecision`` and
    ``getTruePositiveRate``: ``if (0 == (m_TruePos + m_FalsePos)) return Double.NaN``)."""
    total = a + b
    return math.nan if total == 0 else a / total


def weka_prc_area(x: Any) -> float:
    """Weka's ``getPRCArea``: ``sum p[i] (r[i] - r[i + 1])`` over :func:`weka_curve`, from the
    highest threshold down, NaN where the sum is 0.

    Parameters
    ----------
    x : Inputs
        The ranking.

    Returns
    -------
    float
        The "PRC Area" Weka prints.

    Examples
    --------
    The ranking of :func:`weka_curve`'s example: the top positive's step (recall 1e61/7e96 at
    precision 1, about 1.4e-36) is lost, and only the last step, recall 1 at precision
    7e96 / (7e96 + 1e196), remains:

    >>> import numpy as np
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.weka_models import weka_prc_area
    >>> x = Inputs(np.array([1, 0, 1]), np.array([0.9, 0.4, 0.2]), np.array([1e61, 1e196, 7e96]))
    >>> weka_prc_area(x) == 7e96 / (7e96 + 1e196)
    True
    """
    points = weka_curve(x)
    precision = [_ratio(tp, fp) for tp, fn, fp, tn in points]
    recall = [_ratio(tp, fn) for tp, fn, fp, tn in points]
    area = 0.0
    last = recall[-1]
    for i in range(len(points) - 2, -1, -1):
        area += precision[i] * (recall[i] - last)
        last = recall[i]
    return math.nan if area == 0 else area


def weka_roc_area(x: Any) -> float:
    """Weka's ``getROCArea``: the Mann-Whitney statistic over :func:`weka_curve`'s differences
    of TP and FP, ``sum cip (cumNeg + cin / 2)``, divided by ``totalNeg * totalPos``.

    Parameters
    ----------
    x : Inputs
        The ranking.

    Returns
    -------
    float
        The "ROC Area" Weka prints.

    Examples
    --------
    The ranking of :func:`weka_curve`'s example: the top positive's pairs are lost with its
    true positive, and the area is 0 where it is exactly 1e61 / 7e96 (about 1.4e-36):

    >>> import numpy as np
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.weka_models import weka_roc_area
    >>> x = Inputs(np.array([1, 0, 1]), np.array([0.9, 0.4, 0.2]), np.array([1e61, 1e196, 7e96]))
    >>> weka_roc_area(x)
    0.0
    """
    points = weka_curve(x)
    tps = [p[0] for p in points]
    fps = [p[2] for p in points]
    area = cum_neg = 0.0
    n = len(points)
    for i in range(n):
        if i < n - 1:
            cip, cin = tps[i] - tps[i + 1], fps[i] - fps[i + 1]
        else:
            cip, cin = tps[n - 1], fps[n - 1]
        area += cip * (cum_neg + 0.5 * cin)
        cum_neg += cin
    return _java_divide(area, fps[0] * tps[0])


def _java_divide(a: float, b: float) -> float:
    """``a / b`` in Java's double arithmetic: by 0 it is NaN (0/0, NaN/0) or an infinity."""
    if b != 0:
        return a / b
    if a == 0 or math.isnan(a):
        return math.nan
    return math.copysign(math.inf, a) * math.copysign(1.0, b)
