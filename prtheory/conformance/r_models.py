"""R's ROC and PR packages, emulated from their source without R.

* :func:`rocr_points`: ROCR's ``prediction`` (``R/prediction.R``): the items with a non-finite
  score are dropped (``finite.bool <- is.finite(predictions[[i]])``), then
  ``.compute.unnormalized.roc.curve`` counts (TP, FP) at every distinct score, in decreasing
  order, after the cutoff ``Inf`` with (0, 0).
* :func:`rocr_aucpr`: ``.performance.aucpr`` (``R/performance_measures.R``): ``aggregate(list(fp
  = fp), by = list(tp = tp), min)`` keeps the least FP at each TP (the first point reaching that
  recall); precision ``tp/(fp + tp)`` with the point (0, 0) given precision 1; then, for ``i`` in
  ``seq_along(rec[-length(rec)])`` (the original length), where ``tp[i + 1] - tp[i] > 2`` the
  points ``x = 1, ..., dTP`` of Davis-Goadrich interpolation are inserted with ``append(...,
  after = i)`` into the vectors as they have grown so far, so that every insertion after the
  first lands at a position that ignores the points inserted before it; finally trapezoids
  ``0.5 (rec[i] - rec[i-1]) (prec[i] + prec[i-1])`` summed in vector order. All in double, as R.
* :func:`proc_direction`: pROC's ``roc`` with ``direction = "auto"`` (``R/roc.R``): ``"<"``
  (controls score lower) when ``median(controls) <= median(cases)``, else ``">"``, whose area is
  that of the reversed ranking, 1 - AUC.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["proc_direction", "rocr_aucpr", "rocr_points"]


def rocr_points(x: Any) -> tuple[list[int], list[int], int] | None:
    """ROCR's (TP, FP) per cutoff, the cutoff ``Inf`` first, and the number of positives, from
    the items with a finite score; None where fewer than two classes remain (ROCR stops).

    Parameters
    ----------
    x : Inputs
        The ranking (``y_true``, ``y_score``).

    Returns
    -------
    tuple or None
        ``(TP per cutoff, FP per cutoff, positives)``.

    Examples
    --------
    The inf score is dropped; then 0.9 (a positive) and the tie at 0.8 (a negative and a
    positive) are the cutoffs after (0, 0):

    >>> import numpy as np
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.r_models import rocr_points
    >>> rocr_points(Inputs(np.array([1, 0, 1, 0]), np.array([0.9, 0.8, 0.8, np.inf])))
    ([0, 1, 2], [0, 0, 1], 2)
    >>> rocr_points(Inputs(np.array([1, 0]), np.array([0.9, np.inf]))) is None
    True
    """
    s = np.asarray(x.y_score, dtype=np.float64)
    y = np.asarray(x.y_true).astype(np.int64)
    keep = np.isfinite(s)
    s, y = s[keep], y[keep]
    if len(set(y.tolist())) != 2:
        return None
    positive = max(set(y.tolist()))
    order = np.argsort(-s, kind="stable")
    tp = np.cumsum(y[order] == positive)
    fp = np.cumsum(y[order] != positive)
    last = np.r_[np.flatnonzero(s[order][1:] != s[order][:-1]), s.size - 1]
    return [0, *tp[last].tolist()], [0, *fp[last].tolist()], int(tp[-1])


def _least_fp_per_tp(tp: list[int], fp: list[int]) -> tuple[list[int], list[int]]:
    """``aggregate(list(fp = fp), by = list(tp = tp), min)``: groups sorted by TP."""
    least: dict[int, int] = {}
    for t, f in zip(tp, fp, strict=True):
        least[t] = min(f, least.get(t, f))
    keys = sorted(least)
    return keys, [least[t] for t in keys]


def _inserted(tp: list[int], fp: list[int], n_pos: int) -> tuple[list[float], list[float]]:
    """ROCR's recall and precision vectors after its Davis-Goadrich insertions."""
    rec = [t / n_pos for t in tp]
    prec = [t / (f + t) if f + t else 1.0 for t, f in zip(tp, fp, strict=True)]
    for i in range(len(tp) - 1):  # R's i - 1
        if tp[i + 1] - tp[i] > 2:
            skew = (fp[i + 1] - fp[i]) / (tp[i + 1] - tp[i])
            xs = range(1, tp[i + 1] - tp[i] + 1)
            rec[i + 1 : i + 1] = [(k + tp[i]) / n_pos for k in xs]
            prec[i + 1 : i + 1] = [(k + tp[i]) / (tp[i] + fp[i] + k + skew * k) for k in xs]
    return rec, prec


def rocr_aucpr(x: Any) -> float | None:
    """ROCR's ``performance(prediction(scores, labels), "aucpr")`` (module docstring); None
    where ROCR stops (fewer than two classes, or fewer than two points).

    Parameters
    ----------
    x : Inputs
        The ranking.

    Returns
    -------
    float or None
        The area, in float64 as R computes it.

    Examples
    --------
    Labels 1, 0, 1 in score order: (recall, precision) = (0, 1), (1/2, 1), (1, 2/3) (the
    negative's point has the same TP as the first and more FP, so it goes); no TP step exceeds
    2, so nothing is inserted. Trapezoids: 1/2 * (1 + 1)/2 + 1/2 * (1 + 2/3)/2 = 1/2 + 5/12
    = 11/12:

    >>> import numpy as np
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.r_models import rocr_aucpr
    >>> area = rocr_aucpr(Inputs(np.array([1, 0, 1]), np.array([0.9, 0.8, 0.7])))
    >>> round(area, 15) == round(11 / 12, 15)
    True
    """
    points = rocr_points(x)
    if points is None:
        return None
    tp, fp = _least_fp_per_tp(points[0], points[1])
    if len(tp) < 2:
        return None
    rec, prec = _inserted(tp, fp, points[2])
    auc = 0.0
    for i in range(1, len(rec)):
        auc = auc + 0.5 * (rec[i] - rec[i - 1]) * (prec[i] + prec[i - 1])
    return auc


def proc_direction(x: Any) -> str | None:
    """pROC's automatic direction: ``"<"`` when the median control score is at most the median
    case score (R's ``median``: the mean of the two middle values for an even count), ``">"``
    when it is above; ``None`` when a median is NaN (the middle values are -Inf and Inf), where
    R's comparison is ``NA`` and ``roc`` has no direction (pROC returns NaN for infinite scores
    before it matters).

    Parameters
    ----------
    x : Inputs
        The ranking.

    Returns
    -------
    str or None
        ``"<"``, ``">"`` or ``None``.

    Examples
    --------
    Controls 0.2, 0.4 (median 0.3) and cases 0.1, 0.9 (median 0.5): ``"<"``; the labels
    swapped: ``">"``; controls -inf and inf have the median (-inf + inf)/2 = NaN:

    >>> import numpy as np
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.r_models import proc_direction
    >>> scores = np.array([0.2, 0.4, 0.1, 0.9])
    >>> proc_direction(Inputs(np.array([0, 0, 1, 1]), scores))
    '<'
    >>> proc_direction(Inputs(np.array([1, 1, 0, 0]), scores))
    '>'
    >>> proc_direction(Inputs(np.array([0, 0, 1]), np.array([-np.inf, np.inf, 0.5]))) is None
    True
    """
    s = np.asarray(x.y_score, dtype=np.float64)
    y = np.asarray(x.y_true).astype(np.int64)
    with np.errstate(invalid="ignore"):
        controls, cases = np.median(s[y == 0]), np.median(s[y == 1])
    if np.isnan(controls) or np.isnan(cases):
        return None
    return "<" if controls <= cases else ">"
