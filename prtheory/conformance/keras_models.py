"""Keras's PR area computations, emulated in numpy float32 (no Keras needed).

``keras.metrics.AUC(curve="PR")`` counts an item as predicted positive at threshold ``t`` iff
``score > t``, at ``num_thresholds=200`` thresholds by default (``-1e-7``, ``i/199`` for ``i =
1, ..., 198`` and ``1 + 1e-7``: :data:`DEFAULT_THRESHOLDS`) or at the caller's (one below every
distinct float32 score: :func:`every_score_thresholds`), and computes in float32:

* :func:`float32_interpolation` -- ``summation_method="interpolation"`` (Keras's
  ``interpolate_pr_auc``, Davis-Goadrich in closed form per bucket), whose two terms cancel
  when a bucket moves TP + FP by a small fraction;
* :func:`float32_riemann` -- ``summation_method="minoring"``/``"majoring"``.

The adapter (:mod:`prtheory.conformance.adapters.keras_adapter`) runs Keras itself; the tests
check these emulations against it, and the conformance kit names Keras's divergences with them
(:mod:`prtheory.conformance.external_mechanisms`, :mod:`prtheory.conformance.report`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = [
    "DEFAULT_THRESHOLDS",
    "EPSILON",
    "NUM_THRESHOLDS",
    "every_score_thresholds",
    "float32_interpolation",
    "float32_riemann",
]

NUM_THRESHOLDS = 200
EPSILON = 1e-7  # keras.backend.epsilon(), which AUC adds below 0 and above 1
#: Keras's default thresholds, as float32 values (the dtype Keras compares them in)
DEFAULT_THRESHOLDS = tuple(
    float(np.float32(t))
    for t in [-EPSILON]
    + [(i + 1) / (NUM_THRESHOLDS - 1) for i in range(NUM_THRESHOLDS - 2)]
    + [1.0 + EPSILON]
)


def every_score_thresholds(s: np.ndarray) -> list[float]:
    """One threshold just below every distinct float32 score (``score > t`` then means
    ``score >= that score``), without the negative one Keras adds itself.

    Parameters
    ----------
    s : numpy.ndarray
        The scores (rounded to float32 here, as Keras compares them).

    Returns
    -------
    list of float
        The float32 number below each distinct score, increasing, the negative ones left out.

    Examples
    --------
    Float32 numbers in [1/4, 1/2) are 2**-25 apart, so the one below 0.5 is 0.5 - 2**-25; the
    one below 0.0 is negative and is left out (Keras adds -1e-7 itself):

    >>> import numpy as np
    >>> from prtheory.conformance.keras_models import every_score_thresholds
    >>> every_score_thresholds(np.array([0.5, 0.0, 0.5])) == [0.5 - 2**-25]
    True
    """
    u = np.unique(s.astype(np.float32))
    below = np.nextafter(u, np.float32(-np.inf))
    return [float(t) for t in below if t >= 0.0]


def float32_interpolation(x: Any, thresholds: Sequence[float] | None = None) -> float:
    """What Keras's ``interpolate_pr_auc`` computes, emulated in numpy float32 (no Keras needed).

    At thresholds ``t_0 < ... < t_{n-1}`` (Keras's, or one below every distinct float32 score),
    with TP, FP, FN the float32 weighted counts of ``score > t``: per bucket,
    ``dTP = TP_i - TP_{i+1}``, ``P = TP + FP``, ``slope = dTP / dP`` (0 when ``dP = 0``),
    ``intercept = TP_{i+1} - slope P_{i+1}``, and the increment
    ``slope (dTP + intercept log(P_i / P_{i+1})) / (TP_{i+1} + FN_{i+1})`` (the log ratio taken
    as 1 when either P is 0; a 0 denominator gives 0), summed. In float32 the term
    ``intercept log(P_i/P_{i+1})`` nearly cancels ``dTP`` when P changes by a small fraction: the
    exact 1 - 10^6 ln(1 + 10^-6) = 5.0e-7 of one positive below 10^6 tied negatives comes out as
    0.0463.

    Parameters
    ----------
    x : Inputs
        Labels, scores (probabilities) and optional weights.
    thresholds : sequence of float, optional
        Keras's full list of thresholds, the added ``-1e-7`` and ``1 + 1e-7`` included
        (:data:`DEFAULT_THRESHOLDS`); by default one below every distinct score.

    Returns
    -------
    float
        The float32 area, as a Python float.

    Examples
    --------
    The labels 1, 0, 0, 1 in decreasing score order. The first positive takes recall from 0 to
    1/2 at precision 1 (the precision of the bucket's end held from recall 0): 1/2. Between the
    third item and the last, TP goes from 1 to 2 while FP stays 2, so the Davis-Goadrich
    precision is ``tp / (tp + 2)`` and that bucket adds
    ``(1/2) * integral from 1 to 2 of tp / (tp + 2) dtp = (1 - 2 ln(4/3)) / 2``; in all
    1 - ln(4/3) = 0.71232. Float32 numbers in [1/2, 1) are 2**-24 apart, and a handful of
    float32 operations per bucket (a log, two divisions, the sum) keep the result within
    4 of those steps. Keras's 200 default thresholds put every score in a bucket of its own
    here, which gives the same buckets with items in them:

    >>> import math
    >>> import numpy as np
    >>> from prtheory.conformance.keras_models import DEFAULT_THRESHOLDS, float32_interpolation
    >>> from prtheory.conformance.metrics import Inputs
    >>> x = Inputs(np.array([1, 0, 0, 1]), np.array([0.8, 0.6, 0.4, 0.2]))
    >>> v = float32_interpolation(x)
    >>> abs(v - (1 - math.log(4 / 3))) < 4 * 2**-24
    True
    >>> float32_interpolation(x, DEFAULT_THRESHOLDS) == v
    True
    """
    with np.errstate(all="ignore"):  # float32 overflow and inf * 0 are part of what Keras does
        return _float32_interpolation(x, thresholds)


def _float32_interpolation(x: Any, thresholds: Sequence[float] | None) -> float:
    f32 = np.float32
    s = np.asarray(x.y_score, dtype=np.float64).astype(f32)
    y = np.asarray(x.y_true, dtype=np.float64).astype(f32)
    w = np.ones_like(s) if x.sample_weight is None else np.asarray(x.sample_weight).astype(f32)
    inner = every_score_thresholds(s) if thresholds is None else list(thresholds)[1:-1]
    t = np.array([-EPSILON, *inner, 1.0 + EPSILON], dtype=f32)
    order = np.argsort(s, kind="stable")
    s_sorted = s[order]
    k = np.searchsorted(s_sorted, t, side="right")  # items with score <= t
    pos = np.concatenate([[f32(0)], np.cumsum((y * w)[order], dtype=f32)])
    neg = np.concatenate([[f32(0)], np.cumsum(((1 - y) * w)[order], dtype=f32)])
    tp, fp, fn = pos[-1] - pos[k], neg[-1] - neg[k], pos[k]
    dtp = tp[:-1] - tp[1:]
    p = tp + fp
    dp = p[:-1] - p[1:]
    slope = np.where(dp > 0, dtp / np.maximum(dp, f32(0)), f32(0)).astype(f32)
    intercept = tp[1:] - slope * p[1:]
    ratio = np.where((p[:-1] > 0) & (p[1:] > 0), p[:-1] / np.maximum(p[1:], f32(0)), f32(1))
    num = slope * (dtp + intercept * np.log(ratio.astype(f32)))
    den = np.maximum(tp[1:] + fn[1:], f32(0))
    inc = np.where(den > 0, num / den, f32(0)).astype(f32)
    return float(inc.sum(dtype=f32))


def float32_riemann(x: Any, method: str) -> float:
    """What Keras's ``AUC(curve="PR", summation_method=method)`` computes at one threshold per
    distinct score, emulated in numpy float32: precision and recall at each threshold (0 where
    0/0), then ``sum_i (R_i - R_{i+1}) h_i`` with ``h_i`` the smaller (``minoring``) or the larger
    (``majoring``) of the two precisions of each recall step. With exact thresholds the step AP,
    ``sum_i (R_i - R_{i+1}) P_i``, lies between the two: min <= P_i <= max.

    Parameters
    ----------
    x : Inputs
        Labels, scores (probabilities) and optional weights.
    method : {"minoring", "majoring"}
        The smaller or the larger precision of each recall step.

    Returns
    -------
    float
        The float32 sum, as a Python float.

    Examples
    --------
    The labels 1, 0, 0, 1 in decreasing score order have the points (R, P) = (0, 0) above the
    top score, then (1/2, 1), (1/2, 1/2), (1/2, 1/3), (1, 1/2). Recall rises twice: from 0 to
    1/2 between the precisions 0 and 1, from 1/2 to 1 between 1/3 and 1/2. Minoring:
    1/2 * 0 + 1/2 * 1/3 = 1/6; majoring: 1/2 * 1 + 1/2 * 1/2 = 3/4, which is the step AP here
    (N2: (1/1 + 2/4) / 2). In float32, 1/3 rounds once and halving it is exact, so the minoring
    sum is 1/6 rounded to float32:

    >>> import numpy as np
    >>> from prtheory.conformance.keras_models import float32_riemann
    >>> from prtheory.conformance.metrics import Inputs
    >>> x = Inputs(np.array([1, 0, 0, 1]), np.array([0.8, 0.6, 0.4, 0.2]))
    >>> float32_riemann(x, "minoring") == float(np.float32(1 / 6))
    True
    >>> float32_riemann(x, "majoring")
    0.75
    """
    with np.errstate(all="ignore"):
        f32 = np.float32
        s = np.asarray(x.y_score, dtype=np.float64).astype(f32)
        y = np.asarray(x.y_true, dtype=np.float64).astype(f32)
        w = np.ones_like(s) if x.sample_weight is None else np.asarray(x.sample_weight).astype(f32)
        t = np.array([-EPSILON, *every_score_thresholds(s), 1.0 + EPSILON], dtype=f32)
        order = np.argsort(s, kind="stable")
        k = np.searchsorted(s[order], t, side="right")
        pos = np.concatenate([[f32(0)], np.cumsum((y * w)[order], dtype=f32)])
        neg = np.concatenate([[f32(0)], np.cumsum(((1 - y) * w)[order], dtype=f32)])
        tp, fp, fn = pos[-1] - pos[k], neg[-1] - neg[k], pos[k]
        recall = np.where(tp + fn > 0, tp / (tp + fn), f32(0)).astype(f32)
        precision = np.where(tp + fp > 0, tp / (tp + fp), f32(0)).astype(f32)
        pick = np.minimum if method == "minoring" else np.maximum
        heights = pick(precision[:-1], precision[1:])
        return float(((recall[:-1] - recall[1:]) * heights).sum(dtype=f32))
