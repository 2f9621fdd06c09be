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
    """All-point interpolated AP of ``v`` (module docstring).

    Parameters
    ----------
    v : Vector
        A vector of ``average_precision``.

    Returns
    -------
    Value or None
        The exact value as a prediction; ``None`` for another metric, a vector that is not
        valid, or one without positive weight.

    Examples
    --------
    Labels 0, 1, 1, 0 in score order: the operating points (R, P) are (0, 0), (1/2, 1/2),
    (1, 2/3), (1, 1/2); the best precision at any higher recall is 2/3 at both recall steps
    of 1/2, so 1/2 * 2/3 + 1/2 * 2/3 = 2/3 (step AP: 1/2 * 1/2 + 1/2 * 2/3 = 7/12):

    >>> import numpy as np
    >>> from prtheory.conformance.ap_variants import interpolated
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.vectors_io import Vector
    >>> x = Inputs(np.array([0, 1, 1, 0]), np.array([0.9, 0.8, 0.7, 0.6]))
    >>> v = Vector("average_precision", 1, "", (), x, "valid", None, {}, None)
    >>> interpolated(v).exact
    Fraction(2, 3)
    """
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
    """PASCAL VOC 2007 11-point interpolated AP of ``v`` (module docstring).

    Parameters
    ----------
    v : Vector
        A vector of ``average_precision``.

    Returns
    -------
    Value or None
        The exact value as a prediction; ``None`` for another metric, a vector that is not
        valid, or one without positive weight.

    Examples
    --------
    Labels 1, 0, 1, 0 in score order: the points (R, P) are (1/2, 1), (1/2, 1/2), (1, 2/3),
    (1, 1/2); the six recall levels 0 to 0.5 reach precision 1, the five from 0.6 to 1 reach
    2/3: (6 * 1 + 5 * 2/3) / 11 = 28/33:

    >>> import numpy as np
    >>> from prtheory.conformance.ap_variants import interpolated_11_point
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.vectors_io import Vector
    >>> x = Inputs(np.array([1, 0, 1, 0]), np.array([0.9, 0.8, 0.7, 0.6]))
    >>> v = Vector("average_precision", 1, "", (), x, "valid", None, {}, None)
    >>> interpolated_11_point(v).exact
    Fraction(28, 33)
    """
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
    """Step AP of ``v`` times ``pos / (pos + neg)`` (module docstring).

    Parameters
    ----------
    v : Vector
        A vector of ``average_precision``.

    Returns
    -------
    Value or None
        The exact value as a prediction; ``None`` for another metric, a vector that is not
        valid, or one without positive weight.

    Examples
    --------
    Labels 1, 0, 1, 0 in score order: step AP (1 + 2/3)/2 = 5/6, times 2 positives of 4
    items: 5/12:

    >>> import numpy as np
    >>> from prtheory.conformance.ap_variants import normalised_by_items
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.vectors_io import Vector
    >>> x = Inputs(np.array([1, 0, 1, 0]), np.array([0.9, 0.8, 0.7, 0.6]))
    >>> v = Vector("average_precision", 1, "", (), x, "valid", None, {}, None)
    >>> normalised_by_items(v).exact
    Fraction(5, 12)
    """
    from prtheory.oracle.ap import average_precision

    pts = _curve(v)
    if pts is None:
        return None
    _, _, pos, neg = pts
    x = v.inputs
    ap = average_precision(x.labels, x.scores, x.sample_weight)
    return encoded(ap * Fraction(pos, pos + neg))
