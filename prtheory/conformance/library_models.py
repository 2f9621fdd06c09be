"""Mechanisms that are a library's own float arithmetic or guards, evaluated on exact counts.

Some divergences are not a different convention but a library's formula evaluated in floating
point, or its guard for 0/0. Each model here takes the oracle's exact counts of a vector (never
the implementation's output) and evaluates the library's published expression on them the way
its code does (numpy float64, or float32 for torch), so it predicts NaN, ±inf, overflow and the
exception Python raises where the library's code meets them. The models cite the source they
follow; :mod:`prtheory.conformance.mechanisms` names them and searches for the fewest that
explain an implementation's results.

* :func:`sklearn_curve_undefined` -- scikit-learn's ``precision_recall_curve`` where the curve is
  undefined: items of zero weight dropped, precision 0 where TP + FP = 0, recall 1 at every
  threshold when there is no positive weight.
* :func:`sklearn_curve_overflow` -- scikit-learn's ``precision_recall_curve`` when the float64
  cumulative weights overflow: ``cumsum`` of the weights in decreasing score order, precision
  ``tps / (tps + fps)`` and recall ``tps / tps[-1]`` in float64 (inf/inf = NaN).
* :func:`sklearn_roc_float64` -- scikit-learn's ``roc_auc_score`` (and with ``max_fpr=m``) on
  float64 cumulative weights that lose a weight or overflow: rates ``partial sum / inf = 0``, a
  small weight absorbed by the running sum, the curve cut at ``m``.
* :func:`fbeta_overflow` -- ``beta**2`` and the F-beta count formula in float64 (scikit-learn's
  ``(1 + b2) TP / (b2 (TP + FN) + TP + FP)``) or float32 (torchmetrics'
  ``(1 + b2) TP / ((1 + b2) TP + b2 FN + FP)``, 0/0 taken as 0): a prediction only where the
  float computation overflows.
* :func:`prg_odds` -- the PyPI package ``precision-recall-gain``: gains with the odds
  ``P/N`` in place of pi (``proportion_of_positives = p_count / n_count``), on scikit-learn's
  PR curve cut at full recall with (R, P) = (0, 1) appended, divisions unguarded; the area
  ``-sum(diff(rg) * pg[:-1])`` over that curve.
* :func:`sklearn_prg_clipped` -- the PyPI package ``sklearn-prg``: gains on scikit-learn's whole
  PR curve (every threshold, (R, P) = (0, 1) appended) with pi the mean label, NaN and ±inf
  replaced by 0, negative gains clipped to 0 point by point (not where the curve leaves the
  unit square), recall gain 1 wherever recall is 1; the area scikit-learn's ``auc`` over the
  points ordered by ``np.argsort(recall_gain)``.
* :func:`pyprg_undefined` -- the official PRG code (``pyprg``) where PRG is undefined: its guard
  sets precision gain 0 and recall gain 1 where TN + FN = 0; with no negatives every other
  point's recall gain is ``1 - inf`` and its area loop adds nothing.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np

from prtheory.conformance.metrics import METRICS, Inputs, counts_at_threshold
from prtheory.conformance.predictions import NAN, Crash, encoded, scalar
from prtheory.conformance.vectors_io import Vector
from prtheory.errors import InvalidInputError, UndefinedMetricError

__all__ = [
    "fbeta_overflow",
    "prg_odds",
    "pyprg_undefined",
    "sklearn_curve_overflow",
    "sklearn_curve_undefined",
    "sklearn_prg_clipped",
    "sklearn_roc_float64",
]


def _points(x: Inputs) -> Any:
    """The oracle's operating points of ``x`` (``None`` where it has none)."""
    from prtheory.oracle.counts import operating_points

    try:
        return operating_points(x.labels, x.scores, x.sample_weight)
    except (InvalidInputError, UndefinedMetricError):
        return None


def _float_counts(pts: Any) -> tuple[np.ndarray, np.ndarray]:
    """The points' cumulative TP and FP as float64 arrays, as a library that counts in float64
    holds them (exact below 2^53)."""
    return np.asarray([float(t) for t in pts.tp]), np.asarray([float(f) for f in pts.fp])


def _curve(values: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """A curve prediction: exact coordinates encoded, floats (NaN, ±inf) as they are."""
    out: dict[str, list[Any]] = {}
    for key, vals in values.items():
        out[key] = [
            scalar(float(v)) if isinstance(v, float | np.floating) else encoded(v) for v in vals
        ]
    return out


def _float(value: float) -> Any:
    return NAN if math.isnan(value) else scalar(value)


def sklearn_curve_undefined(first_point: str) -> Callable[[Vector], Any]:
    """scikit-learn's PR curve on an undefined vector (module docstring), with ``first_point``
    ``"none"`` or ``"sklearn"`` ((0, 1) first). Source: ``sklearn/metrics/_ranking.py``,
    ``precision_recall_curve`` (``precision = where(ps != 0, tps / ps, 0)``; ``if tps[-1] ==
    0: recall = full(1.0)``) and ``confusion_matrix_at_thresholds`` (zero-weight samples are
    filtered out).

    Parameters
    ----------
    first_point : {"none", "sklearn"}
        Whether the curve starts with (recall 0, precision 1).

    Returns
    -------
    callable
        ``Vector -> prediction``: the curve on an undefined ``pr_curve`` vector, ``None``
        elsewhere.

    Examples
    --------
    Two negatives: precision 0/1 and 0/2 is 0 at both thresholds, recall 1 (no positive
    weight), after sklearn's (0, 1):

    >>> import numpy as np
    >>> from fractions import Fraction
    >>> from prtheory.conformance.library_models import sklearn_curve_undefined
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.vectors_io import Vector
    >>> x = Inputs(np.array([0, 0]), np.array([0.9, 0.5]))
    >>> v = Vector("pr_curve", 1, "", (), x, "undefined", None, {}, None)
    >>> curve = sklearn_curve_undefined("sklearn")(v)
    >>> {k: [p.float64 for p in points] for k, points in curve.items()}
    {'recall': [0.0, 1.0, 1.0], 'precision': [1.0, 0.0, 0.0]}
    """

    def predict(v: Vector) -> Any:
        x = v.inputs
        if v.result != "undefined" or x.y_score is None or v.metric != "pr_curve":
            return None
        if x.sample_weight is not None:
            keep = np.asarray([w != 0 for w in x.sample_weight])
            if not keep.any():
                return None
            x = replace(
                x,
                y_true=np.asarray(x.y_true)[keep],
                y_score=np.asarray(x.y_score)[keep],
                sample_weight=np.asarray(x.sample_weight, dtype=object)[keep],
            )
        pts = _points(x)
        if pts is None:
            return None
        tp = [int(t) for t in pts.tp]
        fp = [int(f) for f in pts.fp]
        precision = [
            Fraction(t, t + f) if t + f else Fraction(0) for t, f in zip(tp, fp, strict=True)
        ]
        recall = [Fraction(t, pts.pos) if pts.pos else Fraction(1) for t in tp]
        if first_point == "sklearn":
            precision, recall = [Fraction(1), *precision], [Fraction(0), *recall]
        return _curve({"recall": recall, "precision": precision})

    return predict


def _sklearn_counts(x: Inputs) -> tuple[np.ndarray, np.ndarray]:
    """scikit-learn's float64 cumulative TP and FP weights at each distinct score, highest
    first (``confusion_matrix_at_thresholds``: zero weights dropped, ``argsort(...,
    kind="mergesort")[::-1]``, ``cumsum`` of ``y * w`` and ``(1 - y) * w`` at the last index of
    each score); overflow gives inf."""
    w = np.asarray(x.sample_weight, dtype=np.float64)
    y = np.asarray(x.y_true, dtype=np.float64)
    s = np.asarray(x.y_score, dtype=np.float64)
    keep = w != 0
    y, s, w = y[keep], s[keep], w[keep]
    order = np.argsort(s, kind="mergesort")[::-1]
    y, s, w = y[order], s[order], w[order]
    with np.errstate(all="ignore"):  # inf - inf is NaN, nonzero: a threshold, as in sklearn
        last = np.r_[np.flatnonzero(np.diff(s)), y.size - 1]
        return np.cumsum(y * w)[last], np.cumsum((1 - y) * w)[last]


def sklearn_curve_overflow(v: Vector) -> Any:
    """scikit-learn's PR curve ((0, 1) first) on a valid weighted vector whose float64 weight
    sums overflow (module docstring); nothing where they do not. Source:
    ``sklearn/metrics/_ranking.py``, ``confusion_matrix_at_thresholds`` (``argsort(...,
    kind="mergesort")[::-1]``, cumulative sums of ``y * w`` and ``(1 - y) * w`` at the last index
    of each distinct score) and ``precision_recall_curve``.

    Parameters
    ----------
    v : Vector
        The vector.

    Returns
    -------
    dict or None
        The curve, with float coordinates where the float64 sums overflow; ``None`` where they
        do not (or for another metric or an unweighted vector).

    Examples
    --------
    A positive then a negative, each of weight 1e308: TP + FP = 2e308 overflows to inf, so the
    second point's precision is 1e308/inf = 0 where it is exactly 1/2:

    >>> import numpy as np
    >>> from fractions import Fraction
    >>> from prtheory.conformance.library_models import sklearn_curve_overflow
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.vectors_io import Vector
    >>> def vector(w):
    ...     x = Inputs(np.array([1, 0]), np.array([0.9, 0.5]), np.array([w, w]))
    ...     return Vector("pr_curve", 1, "", (), x, "valid", None, {}, None)
    >>> curve = sklearn_curve_overflow(vector(1e308))
    >>> {k: [p.float64 for p in points] for k, points in curve.items()}
    {'recall': [0.0, 1.0, 1.0], 'precision': [1.0, 1.0, 0.0]}
    >>> sklearn_curve_overflow(vector(1.0)) is None
    True
    """
    x = v.inputs
    if v.result != "valid" or x.sample_weight is None or v.metric != "pr_curve":
        return None
    tps, fps = _sklearn_counts(x)
    with np.errstate(all="ignore"):
        if np.isfinite(tps).all() and np.isfinite(fps).all() and np.isfinite(tps + fps).all():
            return None
        ps = tps + fps
        precision = np.where(ps != 0, tps / ps, 0.0)
        recall = tps / tps[-1]
    return _curve({"recall": [0.0, *recall.tolist()], "precision": [1.0, *precision.tolist()]})


def _sums_exact(x: Inputs, tps: np.ndarray, fps: np.ndarray) -> bool:
    """Whether scikit-learn's float64 cumulative weights, and their steps from one distinct
    score to the next, are the exact ones correctly rounded (and finite): a weight below half
    an ulp of the running sum leaves the sum correctly rounded but its step 0."""
    if not (np.isfinite(tps).all() and np.isfinite(fps).all()):
        return False
    keep = np.asarray(x.sample_weight, dtype=np.float64) != 0  # scikit-learn drops them
    kept = replace(
        x,
        y_true=np.asarray(x.y_true)[keep],
        y_score=np.asarray(x.y_score)[keep],
        sample_weight=np.asarray(x.sample_weight)[keep],
    )
    pts = _points(kept)  # the oracle's exact cumulative weights, one point per distinct score
    if pts is None or len(pts.tp) != len(tps):
        return True  # no exact point to compare with each of scikit-learn's: nothing predicted
    d = pts.denominator  # the exact weights are the integers tp, fp over it
    for got, exact in ((tps, pts.tp), (fps, pts.fp)):
        cum = [int(c) for c in exact]
        steps = [cum[0], *(b - a for a, b in itertools.pairwise(cum))]
        if any(float(Fraction(c, d)) != g for c, g in zip(cum, got, strict=True)):
            return False
        if any(
            float(Fraction(s, d)) != g
            for s, g in zip(steps, np.diff(got, prepend=0.0), strict=True)
        ):
            return False
    return True


def sklearn_roc_float64(v: Vector) -> Any:
    """scikit-learn's ``roc_auc_score`` (and with ``max_fpr=m``) on a valid weighted vector whose
    float64 cumulative weights are not the exact ones rounded: a weight below half an ulp of the
    running sum is lost (1e267 after 8e292), a total overflows to inf; nothing elsewhere.
    Source: ``sklearn/metrics/_ranking.py``: ``roc_curve`` (the counts of ``_sklearn_counts``,
    collinear points dropped where ``diff(fps, 2)`` and ``diff(tps, 2)`` are both 0, (0, 0)
    prepended, ``fpr = fps / fps[-1]``, ``tpr = tps / tps[-1]``), then ``_binary_roc_auc_score``:
    without ``max_fpr`` (or at 1) the trapezoid area of that curve; below 1, the point at ``m``
    interpolated with ``np.interp`` between ``searchsorted(fpr, m, "right")`` and the point
    before, the trapezoid area, and McClish's ``0.5 (1 + (A - m^2/2)/(m - m^2/2))``. With a
    class total of inf every rate before the last is ``partial sum / inf = 0`` and the last
    ``inf / inf`` is NaN.

    Parameters
    ----------
    v : Vector
        The vector (``roc_auc`` or ``partial_roc_auc``).

    Returns
    -------
    Prediction or None
        The float64 value; ``None`` where the sums are exact (or for another metric or an
        unweighted vector).

    Examples
    --------
    Positive, negative, positive, each of weight 1e308, up to FPR 1/2: the positive total
    overflows, so TPR is 1e308/inf = 0 before the last point, the area up to FPR 1/2 is 0 and
    McClish gives (1 + (0 - 1/8)/(1/2 - 1/8))/2 = 1/3 where the value is 2/3. A negative of
    2e267 below a negative of 8e292 is lost from the running sum, so the positive between them
    orders no pair: 0 where the area is 2e267/(8e292 + 2e267), about 2.4e-26:

    >>> import numpy as np
    >>> from prtheory.conformance.library_models import sklearn_roc_float64
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.vectors_io import Vector
    >>> def vector(metric, y, w, **params):
    ...     x = Inputs(np.array(y), np.array([0.3, 0.2, 0.1]), np.array(w), params)
    ...     return Vector(metric, 1, "", (), x, "valid", None, {}, None)
    >>> sklearn_roc_float64(vector("partial_roc_auc", [1, 0, 1], [1e308] * 3, max_fpr=0.5)).float64
    0.33333333333333337
    >>> sklearn_roc_float64(vector("roc_auc", [0, 1, 0], [8e292, 1e-50, 2e267])).float64
    0.0
    >>> sklearn_roc_float64(vector("roc_auc", [0, 1, 0], [1.0, 1.0, 1.0])) is None
    True
    """
    x = v.inputs
    if v.result != "valid" or x.sample_weight is None:
        return None
    if v.metric not in ("roc_auc", "partial_roc_auc"):
        return None
    tps, fps = _sklearn_counts(x)
    if _sums_exact(x, tps, fps):
        return None
    with np.errstate(all="ignore"):
        if tps.size > 2:
            keep = np.r_[True, np.logical_or(np.diff(fps, 2), np.diff(tps, 2)), True]
            tps, fps = tps[keep], fps[keep]
        tps, fps = np.r_[0.0, tps], np.r_[0.0, fps]
        fpr, tpr = fps / fps[-1], tps / tps[-1]
        m = float(x.params.get("max_fpr", 1.0))
        if m == 1:  # the whole area, as roc_auc_score without max_fpr
            return _float(float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2)))
        stop = int(np.searchsorted(fpr, m, "right"))
        cut = np.interp(m, fpr[stop - 1 : stop + 1], tpr[stop - 1 : stop + 1])
        tpr, fpr = np.append(tpr[:stop], cut), np.append(fpr[:stop], m)
        area = float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))
        return _float(0.5 * (1 + (area - 0.5 * m**2) / (m - 0.5 * m**2)))


def _beta(x: Inputs) -> float | None:
    beta = x.params.get("beta")
    if beta is None:
        return None
    return math.inf if beta in ("inf", math.inf) else float(Fraction(beta))


def fbeta_overflow(dtype: Any) -> Callable[[Vector], Any]:
    """F-beta at the threshold as scikit-learn (``dtype`` float64) or torchmetrics (float32)
    computes it (module docstring): :class:`~prtheory.conformance.predictions.Crash`
    ``OverflowError`` where Python's ``beta**2`` overflows; the float result where an intermediate overflows to inf; nothing otherwise.
    Sources: ``sklearn/metrics/_classification.py``, ``precision_recall_fscore_support``
    (``beta2 = beta**2``; ``isposinf(beta)`` gives the recall); torchmetrics
    ``functional/classification/f_beta.py``, ``_fbeta_reduce`` and ``utilities/compute.py``,
    ``_safe_divide``.

    Parameters
    ----------
    dtype : numpy.float64 or numpy.float32
        scikit-learn's arithmetic (float64) or torchmetrics' (float32).

    Returns
    -------
    callable
        ``Vector -> prediction``.

    Examples
    --------
    One positive above the threshold 0.7 and one negative below: TP = 1, FP = FN = 0, F-beta
    is 1 for every beta. With beta = 1e20, beta**2 = 1e40 is finite in float64 but inf in
    float32, where (1 + b2) TP / ((1 + b2) TP + b2 FN + FP) is inf / (inf + inf * 0) = NaN;
    beta = 1e200 overflows Python's ``beta**2``:

    >>> import numpy as np
    >>> from fractions import Fraction
    >>> from prtheory.conformance.library_models import fbeta_overflow
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.vectors_io import Vector
    >>> from prtheory.conformance.predictions import NAN
    >>> def vector(beta):
    ...     x = Inputs(np.array([1, 0]), np.array([0.9, 0.5]), None,
    ...                {"threshold": Fraction(7, 10), "beta": beta})
    ...     return Vector("fbeta_at_threshold", 1, "", (), x, "valid", None, {}, None)
    >>> fbeta_overflow(np.float32)(vector(10**20)) is NAN
    True
    >>> fbeta_overflow(np.float64)(vector(10**20)) is None
    True
    >>> fbeta_overflow(np.float64)(vector(10**200))
    Crash(exception='OverflowError')
    """

    def predict(v: Vector) -> Any:
        x = v.inputs
        beta = _beta(x)
        if v.result not in ("valid", "acceptable") or beta is None or x.y_score is None:
            return None
        try:
            b2 = beta**2
        except OverflowError:
            return Crash("OverflowError")
        if dtype == np.float64 and (math.isinf(beta) or beta == 0):
            return None  # scikit-learn returns the recall (the precision) here
        tp, fp, fn = (float(c) for c in counts_at_threshold(x, strict=False))
        with np.errstate(all="ignore"):
            t, f, n = dtype(tp), dtype(fp), dtype(fn)
            num = dtype(1 + b2) * t
            # scikit-learn: beta2 * (tp + fn) + (tp + fp); torchmetrics: num + beta2 * fn + fp
            sklearn = dtype == np.float64
            den = dtype(b2) * (t + n) + (t + f) if sklearn else num + dtype(b2) * n + f
            value = num / den if den != 0 else dtype(0.0)
            finite = all(math.isfinite(float(q)) for q in (num, den, dtype(b2), dtype(1 + b2)))
        if finite:
            return None
        return _float(float(value))

    return predict


def _prg_package_curve(x: Inputs) -> tuple[np.ndarray, np.ndarray] | None:
    """(precision gain, recall gain) as ``precision_recall_gain.prg.precision_recall_gain_curve``
    returns them: decreasing recall, (0, 1)'s gains last."""
    pts = _points(x)
    if pts is None or pts.pos == 0 or x.sample_weight is not None:
        return None
    tps, fps = _float_counts(pts)
    with np.errstate(all="ignore"):
        precision = tps / (tps + fps)
        precision[np.isnan(precision)] = 0
        recall = tps / tps[-1]
        last = int(tps.searchsorted(tps[-1]))
        sl = slice(last, None, -1)
        precision, recall = np.r_[precision[sl], 1], np.r_[recall[sl], 0]
        odds = np.float64(tps[-1]) / np.float64(fps[-1])
        pg = (precision - odds) / ((1 - odds) * precision)
        rg = (recall - odds) / ((1 - odds) * recall)
    return pg, rg


def prg_odds(v: Vector) -> Any:
    """The ``precision-recall-gain`` package's curve (``prg_curve``: in decreasing threshold
    order up to full recall, without the appended point, as the adapter returns it) or area
    (``auprg``) on a valid vector (module docstring).

    Parameters
    ----------
    v : Vector
        The vector.

    Returns
    -------
    dict, Value or None
        The curve or the area (``None`` for another metric, or without a positive).

    Examples
    --------
    Labels 1, 1, 0, 0, 0 in score order: the curve up to full recall has the points (R, P) =
    (1/2, 1), (1, 1). With the odds 2/3 for pi, recall gain (R - 2/3)/((1 - 2/3) R) is
    (-1/6)/(1/6) = -1 at R = 1/2 (PRG with pi = 2/5 has (1/10)/(3/10) = 1/3 there) and 1 at
    R = 1; precision gain is 1 at P = 1. The float64 arithmetic of the package lands within a
    few ulps of -1; the appended point (0, 1) has recall gain -2/3 / 0 = -inf, so the area is
    inf:

    >>> import numpy as np
    >>> from fractions import Fraction
    >>> from prtheory.conformance.library_models import prg_odds
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.vectors_io import Vector
    >>> def vector(metric):
    ...     x = Inputs(np.array([1, 1, 0, 0, 0]), np.array([0.9, 0.8, 0.7, 0.6, 0.5]))
    ...     return Vector(metric, 1, "", (), x, "valid", None, {}, None)
    >>> curve = prg_odds(vector("prg_curve"))
    >>> [round(g.float64, 12) for g in curve["recall_gain"]]
    [-1.0, 1.0]
    >>> [g.float64 for g in curve["precision_gain"]], prg_odds(vector("auprg")).float64
    ([1.0, 1.0], inf)
    """
    x = v.inputs
    if v.result != "valid" or x.y_score is None or v.metric not in ("prg_curve", "auprg"):
        return None
    curve = _prg_package_curve(x)
    if curve is None:
        return None
    pg, rg = curve
    if v.metric == "prg_curve":
        return _curve({"recall_gain": list(rg[::-1][1:]), "precision_gain": list(pg[::-1][1:])})
    with np.errstate(all="ignore"):
        return _float(float(-np.sum(np.diff(rg) * pg[:-1])))


def _sklearn_prg_gains(x: Inputs) -> tuple[np.ndarray, np.ndarray] | None:
    """(precision gain, recall gain) as ``sklearn_prg.precision_recall_gain_curve`` computes
    them: scikit-learn's ``precision_recall_curve`` (every distinct score, decreasing recall,
    (R, P) = (0, 1) appended), each coordinate one correctly rounded division of exact counts
    as scikit-learn's; pi is ``np.mean(y_true)``, the positives over the items rounded once (the
    sum of 0/1 labels is exact). Without weights and with finite scores only (scikit-learn
    rejects ±inf first)."""
    scores = np.asarray(x.scores, dtype=np.float64)
    if x.sample_weight is not None or not np.isfinite(scores).all():
        return None
    labels = np.asarray(x.labels)
    if not np.isin(labels, (0, 1)).all():
        return None
    pos, n = int((labels == 1).sum()), len(labels)
    if pos in (0, n):  # the package's own branch (prevalence 0 or 1): every gain 0
        zeros = np.zeros(len(np.unique(scores)) + 1)  # -0.0 == 0.0: one threshold
        return zeros, zeros.copy()
    pts = _points(x)
    if pts is None:
        return None
    tps, fps = _float_counts(pts)
    precision = np.r_[(tps / (tps + fps))[::-1], 1.0]
    recall = np.r_[(tps / tps[-1])[::-1], 0.0]
    prevalence = np.float64(pos) / np.float64(n)
    with np.errstate(divide="ignore", invalid="ignore"):
        pg = (precision - prevalence) / ((1 - prevalence) * precision)
        rg = (recall - prevalence) / ((1 - prevalence) * recall)
    pg = np.clip(np.nan_to_num(pg, nan=0.0, posinf=0.0, neginf=0.0), 0, None)
    rg = np.clip(np.nan_to_num(rg, nan=0.0, posinf=0.0, neginf=0.0), 0, None)
    rg[recall == 1] = 1.0
    return pg, rg


def sklearn_prg_clipped(v: Vector) -> Any:
    """The ``sklearn-prg`` package's curve (``prg_curve``: in decreasing threshold order, the
    appended point at recall 0 left out, as the adapter returns it) or area (``auprg``) on a
    valid or undefined vector. Source: ``sklearn_prg/metrics.py`` (sklearn-prg 0.1.3):
    ``precision_recall_gain_curve`` takes ``precision_recall_curve``, ``prevalence =
    np.mean(y_true)`` (all gains 0 when it is 0 or 1), the gains ``(x - prevalence) / ((1 -
    prevalence) x)``, ``np.nan_to_num(..., nan=0.0, posinf=0.0, neginf=0.0)``, ``np.clip(..., 0,
    None)`` and ``recall_gain[recall == 1] = 1.0``; ``average_precision_recall_gain`` sorts by
    ``np.argsort(rg)`` and returns ``auc(rg_sorted, pg_sorted)`` (trapezoids). Clipping point
    by point is not the PRG curve's restriction to the unit square (F5): a point of negative
    recall gain moves to recall gain 0 at its own precision gain instead of the curve being cut
    where it crosses recall gain 0.

    Parameters
    ----------
    v : Vector
        The vector.

    Returns
    -------
    dict, Value or None
        The curve or the area (``None`` for another metric, weights or non-finite scores; all
        gains 0 where the package finds prevalence 0 or 1).

    Examples
    --------
    Labels 1, 0, 1 with the last two tied (the adapter's example): pi = 2/3, the points (R, P)
    = (1/2, 1), (1, 2/3) have gains (RG, PG) = ((1/2 - 2/3)/((1/3)(1/2)), (1 - 2/3)/(1/3)) =
    (-1, 1) and (1, 0); clipped, (0, 1) and (1, 0). The appended point (0, 1) has RG = -inf,
    replaced by 0, and PG = 1. Ordered by RG, the trapezoids run (0, 1), (0, 1), (1, 0): area
    1/2, where AUPRG (the curve cut at RG = 0, PG = 1/2) is 1/4:

    >>> import numpy as np
    >>> from prtheory.conformance.library_models import sklearn_prg_clipped
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.vectors_io import Vector
    >>> def vector(metric):
    ...     x = Inputs(np.array([1, 0, 1]), np.array([0.9, 0.5, 0.5]))
    ...     return Vector(metric, 1, "", (), x, "valid", None, {}, None)
    >>> curve = sklearn_prg_clipped(vector("prg_curve"))
    >>> {k: [g.float64 for g in gains] for k, gains in curve.items()}
    {'recall_gain': [0.0, 1.0], 'precision_gain': [1.0, 0.0]}
    >>> sklearn_prg_clipped(vector("auprg")).float64
    0.5
    """
    x = v.inputs
    if v.result not in ("valid", "undefined") or x.y_score is None:
        return None
    if v.metric not in ("prg_curve", "auprg"):
        return None
    gains = _sklearn_prg_gains(x)
    if gains is None:
        return None
    pg, rg = gains
    if v.metric == "prg_curve":
        return _curve({"recall_gain": list(rg[::-1][1:]), "precision_gain": list(pg[::-1][1:])})
    order = np.argsort(rg)  # the package's call: the same (unstable) order of tied gains
    r, p = rg[order], pg[order]
    # scipy.integrate.trapezoid, which scikit-learn's auc calls: sum(d * (y1 + y0) / 2.0)
    return _float(float(np.sum((r[1:] - r[:-1]) * (p[1:] + p[:-1]) / 2.0)))


def pyprg_undefined(v: Vector) -> Any:
    """The official PRG code on a vector without negatives (pi = 1) or without positives, as
    the adapter reads it (the points with TP > 0, crossing points left out; ``auprg``:
    ``calc_auprg``). Source: ``prg/prg.py``: ``precision_gain`` (``1 - (n_pos/n_neg) *
    (fp/tp)``, set to 0 where ``tn + fn == 0``), ``recall_gain`` (``1 - (n_pos/n_neg) *
    (fn/tp)``, set to 1 there), ``calc_auprg`` (adds only segments starting at a recall gain
    >= 0, of which the crossing point it inserts before the last point at recall gain 0 has
    height (0 + 0)/2 here).

    Parameters
    ----------
    v : Vector
        The vector.

    Returns
    -------
    dict, Value or None
        The curve or the area where the vector has no negatives (the area 0) or no positives;
        ``None`` elsewhere.

    Examples
    --------
    Two positives, no negative: pos/neg = 2/0 = inf. At the first point (TP 1, FN 1) recall
    gain is 1 - inf * 1 = -inf and precision gain 1 - inf * 0 = NaN; at the last (TN + FN = 0)
    the guard sets 0 and 1. The area is 0:

    >>> import numpy as np
    >>> from fractions import Fraction
    >>> from prtheory.conformance.library_models import pyprg_undefined
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.vectors_io import Vector
    >>> def vector(metric):
    ...     x = Inputs(np.array([1, 1]), np.array([0.9, 0.5]))
    ...     return Vector(metric, 1, "", (), x, "undefined", None, {}, None)
    >>> curve = pyprg_undefined(vector("prg_curve"))
    >>> {k: [g.float64 for g in gains] for k, gains in curve.items()}
    {'recall_gain': [-inf, 1.0], 'precision_gain': [nan, 0.0]}
    >>> pyprg_undefined(vector("auprg")).float64
    0.0
    """
    x = v.inputs
    kind = METRICS[v.metric].kind
    if v.result != "undefined" or x.y_score is None or v.metric not in ("prg_curve", "auprg"):
        return None
    pts = _points(x)
    if pts is None or x.sample_weight is not None or (pts.pos > 0 and pts.neg > 0):
        return None
    if pts.neg == 0 and kind == "scalar":
        return scalar(0.0)
    if kind == "scalar":
        return None
    tp, fp = _float_counts(pts)
    fn, tn = pts.pos - tp, pts.neg - fp
    with np.errstate(all="ignore"):
        ratio = np.float64(pts.pos) / np.float64(pts.neg)
        pg = 1.0 - ratio * (fp / tp)
        rg = 1.0 - ratio * (fn / tp)
    pg[tn + fn == 0], rg[tn + fn == 0] = 0.0, 1.0
    keep = tp > 0
    return _curve({"recall_gain": list(rg[keep]), "precision_gain": list(pg[keep])})
