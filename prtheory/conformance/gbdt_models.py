"""The gradient-boosting libraries' evaluation metrics, emulated in numpy from their source.

Each function here follows one library function line by line, in the same float types, on a
vector's input, without calling the library; the mechanisms of
:mod:`prtheory.conformance.external_mechanisms` take their predictions from these where a named
cause applies, and the tests compare each emulation with the installed library.

XGBoost (``src/metric/auc.cc``, ``auc.h``; ``src/data/data.cc``; ``src/learner.cc``):

* scores (``base_margin``), labels and weights are stored as float32;
* :func:`xgboost_aucpr`: ``BinaryPRAUC``: ``total_pos += w * label`` and ``total_neg += w * (1 -
  label)`` (float products, double sums), NaN when either is <= 0; ``BinaryAUC`` walks the
  scores in decreasing order (a stable sort) and at each change of score adds
  ``CalcDeltaPRAUC(fp_prev, fp, tp_prev, tp, total_pos)``: with ``h = dFP/dTP``, ``a = 1 + h``,
  ``b = (fp_prev - h tp_prev)/total_pos``, the area ``(r - r_prev - (b/a)(log(a r + b) -
  log(a r_prev + b)))/a`` (``b = 0``: ``(r - r_prev)/a``) in double; the result is capped at 1
  and printed with 17 digits after the point (``EvalOneIter``).
* :func:`xgboost_ranking_auc`: ``GroupRankingROC``: the items sorted by label, decreasing
  (stable), every pair ``i < j`` scoring 1 if ``p_i - p_j > 0`` (float32), 1/2 if ``== 0``, else
  0, over all ``n(n-1)/2`` pairs, pairs of equal labels included; a group of fewer than 3 items is
  invalid and the mean over no valid group is 0/0.
* :func:`xgboost_precision_at_k`: ``EvalPrecision``: the labels of the top ``min(k, n)`` items
  (stable sort of the float32 scores) summed and divided by ``min(k, n)``.

LightGBM (``src/io/metadata.cpp``, ``include/LightGBM/utils/common.h``,
``src/metric/binary_metric.hpp``):

* ``Metadata::SetInitScore`` stores each score through ``Common::AvoidInf(double)``: NaN becomes
  0, values >= 1e300 become 1e300 and <= -1e300 become -1e300; ``SetLabel`` and ``SetWeights``
  store float32 values through ``AvoidInf(float)`` (NaN -> 0, clamped to ±1e38);
* :func:`lightgbm_average_precision`: ``AveragePrecisionMetric::Eval``: blocks of equal score in
  decreasing order; at each block ``accum_prec = sum_actual_pos / sum_pred_pos``, ``accum +=
  cur_actual_pos * accum_prec`` (a block of zero weight first gives 0/0 = NaN, which stays);
  1 when there is no positive weight or no negative weight (``sum_actual_pos != sum_weights_``);
* :func:`lightgbm_auc`: ``AUCMetric::Eval``: ``accum += cur_neg (cur_pos/2 + sum_pos)``, divided
  by ``sum_pos (sum_weights - sum_pos)``; 1 when a class is missing.

CatBoost (``catboost/libs/metrics/metric.cpp``, ``TPRAUCMetric::Eval``, through
``catboost.utils.eval_metric``, which applies the weights):

* :func:`catboost_prauc`: labels and weights float32, scores double; the items sorted by
  increasing score (``std::sort``); ``curTp``, ``curFp`` start as the double sums of the positive
  (``target == 1``) and the other weights (``CB_ENSURE(curTp > 0, "No element of a positive
  class")``, reported as ``metric.cpp:4763`` by 1.2.10); then, from the threshold below every
  item, each point ``precision = curTp/(curTp + curFp)`` (1 at 0/0), ``recall = curTp/(curTp +
  curFn)`` adds ``(prevRecall - recall)(prevPrecision + precision)/2`` (from ``prevRecall = 1``,
  ``prevPrecision = 0``), and the border moves past the next item, subtracting its weight from
  ``curTp`` (adding it to ``curFn``) or from ``curFp``, and on past every following item while
  ``isApproxesEqual``, ``Abs(approxL - approxR) < 1e-8``, holds between neighbours; the last
  point, past every item, is (0, 1). So scores closer than 10^-8 (absolute, chained) are one
  tie, tied infinite scores never are (``inf - inf`` is NaN), and each infinite item is an
  operating point of its own, ranked in reverse input order (``std::sort`` is an insertion sort,
  which keeps the input order of equal keys, on ranges of at most 16 items).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = [
    "catboost_prauc",
    "lightgbm_auc",
    "lightgbm_average_precision",
    "lightgbm_stored",
    "xgboost_aucpr",
    "xgboost_precision_at_k",
    "xgboost_ranking_auc",
]

F32 = np.float32


def _f32(values: Any) -> np.ndarray:
    with np.errstate(over="ignore"):
        return np.asarray(values, dtype=np.float64).astype(F32)


def _xgb_columns(x: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """XGBoost's float32 scores, labels and weights (1 without weights), in input order."""
    s, y = _f32(x.y_score), _f32(x.y_true)
    w = np.ones_like(s) if x.sample_weight is None else _f32(x.sample_weight)
    return s, y, w


def _delta_prauc(fp_prev: float, fp: float, tp_prev: float, tp: float, total_pos: float) -> float:
    """``detail::CalcDeltaPRAUC`` (``src/metric/auc.h``), in double, with libm's ``log``."""
    pr_prev, pr = tp_prev / total_pos, tp / total_pos
    if tp == tp_prev:
        a, b = 1.0, 0.0
    else:
        h = (fp - fp_prev) / (tp - tp_prev)
        a, b = h + 1, (fp_prev - h * tp_prev) / total_pos
    if b != 0.0:
        return (pr - pr_prev - b / a * (math.log(a * pr + b) - math.log(a * pr_prev + b))) / a
    return (pr - pr_prev) / a


def _block_ends(sorted_scores: np.ndarray) -> np.ndarray:
    """Indices of the last item of each run of equal scores (in sorted order)."""
    ends: np.ndarray = np.r_[
        np.flatnonzero(sorted_scores[1:] != sorted_scores[:-1]), sorted_scores.size - 1
    ]
    return ends


def xgboost_aucpr(x: Any) -> float:
    """What XGBoost prints for ``eval_metric="aucpr"`` on ``x`` (module docstring).

    Parameters
    ----------
    x : Inputs
        The input (``y_true``, ``y_score``, ``sample_weight``).

    Returns
    -------
    float
        The area, NaN without positive or negative weight.

    Examples
    --------
    A negative above a positive: the second block goes from (TP, FP) = (0, 1) to (1, 1), h = 0,
    a = 1, b = 1, and the area is 1 - (ln 2 - ln 1) = 1 - ln 2, the integral of r/(r + 1)
    from 0 to 1 (Davis-Goadrich interpolation between the points); the other order is 1:

    >>> import numpy as np
    >>> from prtheory.conformance.gbdt_models import xgboost_aucpr
    >>> from prtheory.conformance.metrics import Inputs
    >>> import math
    >>> area = xgboost_aucpr(Inputs(np.array([0, 1]), np.array([0.9, 0.5])))
    >>> math.isclose(area, 1 - math.log(2), rel_tol=1e-15)
    True
    >>> xgboost_aucpr(Inputs(np.array([1, 0]), np.array([0.9, 0.5])))
    1.0
    """
    with np.errstate(all="ignore"):  # inf weights: inf * 0 is part of what XGBoost meets
        return _xgboost_aucpr(x)


def _xgboost_aucpr(x: Any) -> float:
    s, y, w = _xgb_columns(x)
    total_pos = float(np.sum((w * y).astype(np.float64)))
    total_neg = float(np.sum((w * (F32(1) - y)).astype(np.float64)))
    if total_pos <= 0 or total_neg <= 0 or not s.size:
        return math.nan
    order = np.argsort(-s, kind="stable")
    tp = np.cumsum((y[order] * w[order]).astype(np.float64))
    fp = np.cumsum(((F32(1) - y[order]) * w[order]).astype(np.float64))
    ends = _block_ends(s[order])
    area, tp_prev, fp_prev = 0.0, 0.0, 0.0
    for e in ends.tolist():
        area += _delta_prauc(fp_prev, float(fp[e]), tp_prev, float(tp[e]), total_pos)
        tp_prev, fp_prev = float(tp[e]), float(fp[e])
    return float(f"{min(area, 1.0):.17f}")


def xgboost_ranking_auc(x: Any) -> Fraction | float:
    """XGBoost's ``eval_metric="auc"`` of one query group (``GroupRankingROC``): a Fraction,
    or NaN for a group of fewer than 3 items.

    Parameters
    ----------
    x : Inputs
        The input (``y_true``, ``y_score``, ``sample_weight``).

    Returns
    -------
    Fraction or float
        The share of won pairs (ties 1/2), NaN for fewer than 3 items.

    Examples
    --------
    Labels 0, 1, 1 scored 0.2, 0.5, 0.9: sorted by label the scores are 0.5, 0.9, 0.2; of the
    3 pairs, (0.5, 0.9) loses (a pair of two positives, counted all the same), the two others
    win: 2/3, where the ROC area is 1:

    >>> import numpy as np
    >>> from prtheory.conformance.gbdt_models import xgboost_ranking_auc
    >>> from prtheory.conformance.metrics import Inputs
    >>> xgboost_ranking_auc(Inputs(np.array([0, 1, 1]), np.array([0.2, 0.5, 0.9])))
    Fraction(2, 3)
    >>> xgboost_ranking_auc(Inputs(np.array([0, 1]), np.array([0.2, 0.5])))
    nan
    """
    s, y, _ = _xgb_columns(x)
    n = s.size
    if n < 3:
        return math.nan
    order = np.argsort(-y, kind="stable")
    p = s[order]
    with np.errstate(invalid="ignore"):
        d = p[:, None] - p[None, :]  # float32 differences, inf - inf = NaN
    upper = np.triu(np.ones((n, n), dtype=bool), 1)
    wins = int(np.count_nonzero((d > 0) & upper))
    ties = int(np.count_nonzero((d == 0) & upper))
    return Fraction(2 * wins + ties, n * (n - 1))


def xgboost_precision_at_k(x: Any) -> Fraction:
    """XGBoost's ``pre@k`` of one group: the labels of the top ``min(k, n)`` items (stable sort
    of the float32 scores, decreasing) summed, over ``min(k, n)``.

    Parameters
    ----------
    x : Inputs
        The input (``y_true``, ``y_score``, ``sample_weight``, ``params["k"]``).

    Returns
    -------
    Fraction
        The precision at ``min(k, n)``.

    Examples
    --------
    0.9 (a positive) first, then the tie at 0.5 in input order: the negative before the
    positive, so the top 2 hold one positive:

    >>> import numpy as np
    >>> from prtheory.conformance.gbdt_models import xgboost_precision_at_k
    >>> from prtheory.conformance.metrics import Inputs
    >>> x = Inputs(np.array([0, 1, 1]), np.array([0.5, 0.5, 0.9]), None, {"k": 2})
    >>> xgboost_precision_at_k(x)
    Fraction(1, 2)
    """
    s = _f32(x.y_score)
    y = np.asarray(x.y_true).astype(np.int64)
    m = min(int(x.params["k"]), s.size)
    top = np.argsort(-s, kind="stable")[:m]
    return Fraction(int(y[top].sum()), m)


def _avoid_inf(values: np.ndarray, limit: float) -> np.ndarray:
    """``Common::AvoidInf``: NaN -> 0, clamped to [-limit, limit]."""
    clipped: np.ndarray = np.clip(
        np.nan_to_num(values, nan=0.0, posinf=limit, neginf=-limit), -limit, limit
    )
    return clipped


def lightgbm_stored(x: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """LightGBM's stored scores (float64), labels and weights (float32), through ``AvoidInf``.

    Parameters
    ----------
    x : Inputs
        The input (``y_true``, ``y_score``, ``sample_weight``).

    Returns
    -------
    tuple
        ``(scores, labels, weights)`` (weights ``None`` without them).

    Examples
    --------
    NaN becomes 0, and ±inf or 1e308 the clamp ±1e300 (weights: 1e38 in float32):

    >>> import numpy as np
    >>> from prtheory.conformance.gbdt_models import lightgbm_stored
    >>> from prtheory.conformance.metrics import Inputs
    >>> scores = np.array([np.nan, 1e308, -np.inf])
    >>> x = Inputs(np.array([1, 0, 1]), scores, np.array([1.0, 2.0, np.inf]))
    >>> scores, labels, weights = lightgbm_stored(x)
    >>> scores.tolist(), labels.tolist(), bool(weights[2] == np.float32(1e38))
    ([0.0, 1e+300, -1e+300], [1.0, 0.0, 1.0], True)
    """
    scores = _avoid_inf(np.asarray(x.y_score, dtype=np.float64), 1e300)
    labels = _avoid_inf(_f32(x.y_true), F32(1e38)).astype(F32)
    weights = None
    if x.sample_weight is not None:
        weights = _avoid_inf(_f32(x.sample_weight), F32(1e38)).astype(F32)
    return scores, labels, weights


def _lightgbm_blocks(x: Any) -> tuple[np.ndarray, np.ndarray, float]:
    """Per block of equal stored score, in decreasing order: (positive weight, negative weight)
    as LightGBM accumulates them in double, and ``sum_weights_``."""
    scores, labels, weights = lightgbm_stored(x)
    w = np.ones(scores.size, dtype=np.float64) if weights is None else weights.astype(np.float64)
    order = np.argsort(-scores, kind="stable")
    pos = np.where(labels[order] > 0, w[order], 0.0)
    neg = np.where(labels[order] <= 0, w[order], 0.0)
    starts = np.r_[0, _block_ends(scores[order])[:-1] + 1]
    total = float(scores.size) if weights is None else float(np.sum(w))
    return np.add.reduceat(pos, starts), np.add.reduceat(neg, starts), total


def lightgbm_average_precision(x: Any) -> float:
    """LightGBM's ``average_precision`` on ``x`` (module docstring).

    Parameters
    ----------
    x : Inputs
        The input (``y_true``, ``y_score``, ``sample_weight``).

    Returns
    -------
    float
        The value LightGBM reports.

    Examples
    --------
    Labels 1, 0, 1 in score order: 1 * 1 + 1 * 2/3 over 2 positives = 5/6 (step AP),
    accumulated in float64: (1 + fl(2/3))/2, one ulp below 5/6 rounded. A zero-weight top block
    gives 0/0 = NaN, which stays; one class gives 1:

    >>> import numpy as np
    >>> from prtheory.conformance.gbdt_models import lightgbm_average_precision
    >>> from prtheory.conformance.metrics import Inputs
    >>> y, s = np.array([1, 0, 1]), np.array([0.9, 0.8, 0.7])
    >>> import math
    >>> ap = lightgbm_average_precision(Inputs(y, s))
    >>> ap == (1 + 2 / 3) / 2, math.nextafter(ap, 1) == 5 / 6
    (True, True)
    >>> lightgbm_average_precision(Inputs(y, s, np.array([0.0, 1.0, 1.0])))
    nan
    >>> lightgbm_average_precision(Inputs(np.array([1, 1]), np.array([0.9, 0.8])))
    1.0
    """
    if not len(x.y_true):
        return math.nan
    pos, neg, total = _lightgbm_blocks(x)
    sum_pos = sum_pred = accum = 0.0
    with np.errstate(all="ignore"):
        for p, n in zip(pos.tolist(), neg.tolist(), strict=True):
            sum_pos += p
            sum_pred += p + n
            precision = float(np.float64(sum_pos) / np.float64(sum_pred))
            accum += p * precision
    if sum_pos > 0.0 and sum_pos != total:
        return accum / sum_pos
    return 1.0


def lightgbm_auc(x: Any) -> float:
    """LightGBM's ``auc`` on ``x`` (module docstring).

    Parameters
    ----------
    x : Inputs
        The input (``y_true``, ``y_score``, ``sample_weight``).

    Returns
    -------
    float
        The value LightGBM reports.

    Examples
    --------
    Labels 1, 0, 1, 0 scored 0.8, 0.5, 0.5, 0.2: the blocks add 0, 1 * (1/2 + 1) and 1 * 2,
    over 2 * 2: 3.5/4 = 7/8, the Mann-Whitney area with the tie counted 1/2:

    >>> import numpy as np
    >>> from prtheory.conformance.gbdt_models import lightgbm_auc
    >>> from prtheory.conformance.metrics import Inputs
    >>> lightgbm_auc(Inputs(np.array([1, 0, 1, 0]), np.array([0.8, 0.5, 0.5, 0.2])))
    0.875
    """
    if not len(x.y_true):
        return math.nan
    pos, neg, total = _lightgbm_blocks(x)
    sum_pos = accum = 0.0
    for p, n in zip(pos.tolist(), neg.tolist(), strict=True):
        accum += n * (p * 0.5 + sum_pos)
        sum_pos += p
    if sum_pos > 0.0 and sum_pos != total:
        with np.errstate(all="ignore"):
            return float(np.float64(accum) / np.float64(sum_pos * (total - sum_pos)))
    return 1.0


#: CatBoost's ``isApproxesEqual``: neighbouring scores closer than this are one tie
CATBOOST_TIE = 1e-8


def catboost_prauc(x: Any) -> float | None:
    """CatBoost's ``eval_metric(..., "PRAUC")`` on ``x`` (module docstring); None where it raises
    (no positive weight). The running sums are sequential in double, as in the loop: numpy's
    ``cumsum`` and ``subtract.accumulate`` add one term at a time.

    Parameters
    ----------
    x : Inputs
        Labels, scores and optional weights (weights as float32, as CatBoost stores them).

    Returns
    -------
    float or None
        The trapezoids' sum from the threshold below every item up to (0, 1), neighbouring
        scores closer than ``1e-8`` tied; None without positive weight.

    See Also
    --------
    xgboost_aucpr : XGBoost's area, on the same inputs.

    Examples
    --------
    y = [1, 0, 1], s = [0.9, 0.5, 0.5 + 1e-9]: the last two scores are within 1e-8, one tie, so
    the points from the lowest threshold up are (R, P) = (1, 2/3), (1/2, 1), (0, 1) and the
    area is (1/2)(2/3 + 1)/2 + (1/2)(1 + 1)/2 = 5/12 + 1/2 = 11/12; at 0.5 + 3e-8 the scores
    are apart, the point (1, 1) comes in and the area is 1:

    >>> import numpy as np
    >>> from prtheory.conformance.gbdt_models import catboost_prauc
    >>> from prtheory.conformance.metrics import Inputs
    >>> round(catboost_prauc(Inputs(np.array([1, 0, 1]), np.array([0.9, 0.5, 0.5 + 1e-9]))), 12)
    0.916666666667
    >>> catboost_prauc(Inputs(np.array([1, 0, 1]), np.array([0.9, 0.5, 0.5 + 3e-8])))
    1.0
    >>> catboost_prauc(Inputs(np.array([0, 0]), np.array([0.9, 0.5]))) is None
    True
    """
    s = np.asarray(x.y_score, dtype=np.float64)
    w = np.ones(s.size, dtype=F32) if x.sample_weight is None else _f32(x.sample_weight)
    order = np.argsort(s, kind="stable")
    s, positive, w = s[order], _f32(x.y_true)[order] == 1, w[order].astype(np.float64)
    wp, wn = np.where(positive, w, 0.0), np.where(positive, 0.0, w)
    with np.errstate(all="ignore"):
        tp0, fp0 = np.cumsum(np.r_[0.0, wp])[-1], np.cumsum(np.r_[0.0, wn])[-1]
        if not tp0 > 0:
            return None
        # the border after k items: k = 0, every k ending a run of scores within 1e-8, and n
        k = np.arange(1, s.size + 1)
        ends = k[(k == s.size) | ~(np.abs(s[k - 1] - s[np.minimum(k, s.size - 1)]) < CATBOOST_TIE)]
        at = np.r_[0, ends]
        tp = np.subtract.accumulate(np.r_[tp0, wp])[at]
        fp = np.subtract.accumulate(np.r_[fp0, wn])[at]
        fn = np.cumsum(np.r_[0.0, wp])[at]
        precision = np.where((tp == 0) & (fp == 0), 1.0, tp / (tp + fp + 0.0))
        recall = tp / (tp + fn + 0.0)
        terms = (np.r_[1.0, recall[:-1]] - recall) * (np.r_[0.0, precision[:-1]] + precision) / 2
        return float(np.cumsum(np.r_[0.0, terms])[-1])
