"""Other definitions of average precision that implementations compute, as mechanisms' predictions.

Each function maps a valid vector of ``average_precision`` to the exact value (from the oracle's
operating points, :func:`prtheory.oracle.counts.operating_points`) under a definition that is not
step AP (N2), or ``None`` where it predicts nothing:

``interpolated``
    all-point interpolated AP (PASCAL VOC from 2010, COCO's per-threshold rule):
    ``sum_k (R_k - R_(k-1)) max_(j >= k) P_j`` over the operating points, precision replaced by
    the best precision at any higher recall;
``interpolated-11-point``
    PASCAL VOC 2007: ``(1/11) sum_(r in 0, 0.1, ..., 1) max {P_j : R_j >= r}`` (0 where no
    point reaches ``r``);
``normalisation=items``
    the precisions at the positives summed and divided by the number of items (the total
    weight) instead of the number of positives (the positive weight): step AP times
    ``pos / (pos + neg)``.

Operating points whose classifier is empty (TP + FP = 0, a zero-weight top block) are no points.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from prtheory.conformance.metrics import Inputs
from prtheory.conformance.predictions import encoded
from prtheory.conformance.vectors_io import Vector
from prtheory.errors import InvalidInputError, UndefinedMetricError

__all__ = ["interpolated", "interpolated_11_point", "normalised_by_items"]


def _points(x: Inputs) -> tuple[list[Fraction], list[Fraction], int, int] | None:
    """(recall, precision, pos, neg) at every non-empty operating point, highest score first;
    ``None`` where there is no positive weight or the input is not a valid ranking."""
    from prtheory.oracle.counts import operating_points

    try:
        pts = operating_points(x.labels, x.scores, x.sample_weight)
    except (UndefinedMetricError, InvalidInputError, ValueError):
        return None
    if pts.pos == 0:
        return None
    tables = [(int(t), int(f)) for t, f in zip(pts.tp, pts.fp, strict=True) if t + f > 0]
    recall = [Fraction(t, pts.pos) for t, _ in tables]
    precision = [Fraction(t, t + f) for t, f in tables]
    return recall, precision, int(pts.pos), int(pts.neg)


def _curve(v: Vector) -> tuple[list[Fraction], list[Fraction], int, int] | None:
    """The operating points of a valid ``average_precision`` vector (:func:`_points`)."""
    if v.metric != "average_precision" or v.result != "valid" or v.inputs.y_score is None:
        return None
    return _points(v.inputs)


def interpolated(v: Vector) -> Any:
    """All-point interpolated AP of ``v`` (module docstring)."""
    pts = _curve(v)
    if pts is None:
        return None
    recall, precision, _, _ = pts
    best, envelope = Fraction(0), []
    for p in reversed(precision):
        best = max(best, p)
        envelope.append(best)
    envelope.reverse()
    before, total = Fraction(0), Fraction(0)
    for r, p in zip(recall, envelope, strict=True):
        total += (r - before) * p
        before = r
    return encoded(total)


def interpolated_11_point(v: Vector) -> Any:
    """PASCAL VOC 2007 11-point interpolated AP of ``v`` (module docstring)."""
    pts = _curve(v)
    if pts is None:
        return None
    recall, precision, _, _ = pts
    total = Fraction(0)
    for i in range(11):
        reached = [p for r, p in zip(recall, precision, strict=True) if r >= Fraction(i, 10)]
        total += max(reached, default=Fraction(0))
    return encoded(total / 11)


def normalised_by_items(v: Vector) -> Any:
    """Step AP of ``v`` times ``pos / (pos + neg)`` (module docstring)."""
    from prtheory.oracle.ap import average_precision

    pts = _curve(v)
    if pts is None:
        return None
    _, _, pos, neg = pts
    x = v.inputs
    ap = average_precision(x.labels, x.scores, x.sample_weight)
    return encoded(ap * Fraction(pos, pos + neg))
