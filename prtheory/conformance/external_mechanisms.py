"""Mechanisms of the gradient-boosting libraries, R's packages, river, Weka and Keras's float32
closed form.

Each mechanism names one cause, found in the library's source, and predicts what it gives only on
the vectors where that cause applies (``None`` elsewhere), so that the diagnosis of
:mod:`prtheory.conformance.mechanisms` can attribute each divergence to it and contradict it
where a result disagrees. The predictions come from the oracle on the input as the cause
transforms it, or, for a library's own arithmetic, from the emulations of
:mod:`prtheory.conformance.gbdt_models`, :mod:`prtheory.conformance.r_models`,
:mod:`prtheory.conformance.river_models`, :mod:`prtheory.conformance.keras_models` and
:mod:`prtheory.conformance.weka_models` (each checked against the installed library by the
tests). :data:`SOURCES` says where each one is in the library's code.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np

from prtheory.conformance import (
    gbdt_models,
    keras_models,
    r_models,
    river_models,
    spark_models,
    weka_models,
)
from prtheory.conformance.metrics import Alternative, Inputs, evaluate, scores_float32
from prtheory.conformance.predictions import (
    NAN,
    RAISES,
    UNDEFINED,
    Crash,
    Mechanism,
    encoded,
    scalar,
)
from prtheory.conformance.vectors_io import Vector
from prtheory.errors import InvalidInputError, UndefinedMetricError

__all__ = ["AT_ANY_SIZE", "R_INT_MAX", "SOURCES", "for_metric"]

#: the largest R integer, ``.Machine$integer.max``: a product of integers beyond it is ``NA``
R_INT_MAX = 2**31 - 1

#: where each mechanism is in the library's source or documentation
SOURCES = {
    "undefined=1": "LightGBM `src/metric/binary_metric.hpp` (`double ap = 1.0f; if (sum_actual_pos > 0.0f && sum_actual_pos != sum_weights_)`, the same in `AUCMetric`) and `src/metric/map_metric.hpp` (`(*out)[i] = 1.0f` without positives); XGBoost `src/metric/rank_metric.cc` `EvalMAPScore` (`map_gloc[g] = minus_ ? 0.0 : 1.0`).",
    "undefined=0": "river `rust_src/rolling_roc_auc.rs` `RollingROCAUC::get`: `if self.positives == 0 || total == self.positives { return 0.0; }`.",
    "nan-without-negatives": "XGBoost `src/metric/auc.cc` `BinaryPRAUC`: `if (total_pos <= 0 || total_neg <= 0) return {1.0f, 1.0f, NaN}`: NaN for an input without negatives, where every PR area is 1.",
    "dg-float64-cancellation": "XGBoost `src/metric/auc.h` `detail::CalcDeltaPRAUC`: `(pr - pr_prev - b / a * (std::log(a * pr + b) - std::log(a * pr_prev + b))) / a` in double; when a bucket changes `a r + b` by a small fraction the two terms cancel (one positive below 10^6 tied negatives: 4.9990467e-07 for the exact 4.9999967e-07), and `EvalOneIter` prints 17 digits after the point. Upstream: https://github.com/dmlc/xgboost/issues/5681 (aucpr far from other packages on unbalanced data, before the current closed form).",
    "dg-float32-cancellation": "Keras `keras/src/metrics/confusion_metrics.py` `AUC.interpolate_pr_auc`: per bucket `slope * (dtp + intercept * log(P_i / P_{i+1})) / (TP + FN)` with `P = TP + FP`, in float32; when a bucket moves `P` by a small fraction the two terms cancel: one positive below 10^6 tied negatives has the exact area 1 - 10^6 ln(1 + 10^-6) = 5.0e-7, and float32's `P` ratio 1 + 8 2^-23 gives 1 - 10^6 ln(1 + 8 2^-23) = 0.0463. Emulated by `prtheory.conformance.keras_models.float32_interpolation`.",
    "weights-float32-underflow": "Weights stored as float32 (XGBoost `MetaInfo::weights_`, CatBoost's `TVector<float>` weights): subnormal float64 weights become 0, a class loses all its weight and the area is 0/0 (NaN, or CatBoost's `No element of a positive class`).",
    "rejects-weights-beyond-float32": 'XGBoost `src/data/data.cc` `MetaInfo::SetInfoFromHost`: weights are cast to float (1e308 and 2^1000 become inf), then `CHECK(valid) << "Weights must be positive values."` rejects inf.',
    "ranking-auc=all-pairs": "XGBoost `src/metric/auc.cc` `GroupRankingROC` (used with query groups): the items sorted by label, every pair i < j counted, pairs of equal labels included, 1 if `predts[i] - predts[j] > 0` (float32; inf - inf is NaN and counts 0), 1/2 if equal; groups of fewer than 3 items are invalid (`InvalidGroupAUC`), leaving 0/0.",
    "precision@k=hits/min(k,n)": "XGBoost `src/metric/rank_metric.cc` `EvalPrecision` (`n = min(TopK, g_label.Size()); pre[g] = n_hits / n`) and CatBoost `PrecisionAt:top=k`: a list shorter than k is scored on its own length, not on k (N4).",
    "scores=clamped-to-1e300": "LightGBM `src/io/metadata.cpp` `Metadata::SetInitScore` stores `Common::AvoidInf(score)` (`include/LightGBM/utils/common.h`): NaN becomes 0, scores >= 1e300 become 1e300 and <= -1e300 become -1e300, so the largest float64 scores tie.",
    "weights=float32-clamped": "LightGBM `Metadata::SetWeights`: `weights_[i] = Common::AvoidInf(first[i])` on float32 (`label_t`) values: subnormal weights become 0, 2^1000 becomes 1e38.",
    "zero-weight-top-block": "LightGBM `AveragePrecisionMetric::Eval`: `accum_prec = sum_actual_pos / sum_pred_pos` is 0/0 = NaN when the top-scored block has no weight, and `accum += cur_actual_pos * accum_prec` keeps the NaN.",
    "ties=input-order+scores=float32": "XGBoost `src/metric/rank_metric.cc` `EvalMAPScore`: the predictions of a `DMatrix` are float32 (`base_margin` here), `p_cache->SortedIdx` ranks them with a stable sort (`common::ArgSort` with `std::greater`), so scores equal in float32 (1e308 and inf, or neighbours 2^-30 apart) tie and keep their input order; then `map_gloc[g] /= std::min(n_hits, TopK())` over every relevant item, as the oracle's AP@k.",
    "ties=input-order+scores=clamped-to-1e300": "LightGBM `src/metric/map_metric.hpp` `MapMetric::CalMapAtK`: `std::stable_sort` of the query's indices by `score[a] > score[b]`, on the scores `Metadata::SetInitScore` stored through `Common::AvoidInf` (clamped to [-1e300, 1e300]): 1.8e308, 1e308 and inf tie, in input order; `sum_ap / std::min(npos, k)`, as the oracle's AP@k.",
    "binned(numBins=1000)+first-point=spark": "Spark `mllib/src/main/scala/org/apache/spark/mllib/evaluation/BinaryClassificationMetrics.scala` `binnedCounts`: `val grouping = countsSize / numBins`; when `grouping >= 2`, `counts.mapPartitions` cuts each partition of the counts sorted by decreasing score into chunks of `grouping` consecutive scores, each one point at its last (lowest) score (\"The score of the combined point will be just the last one's score\"); `numBins` defaults to 1000 in `BinaryClassificationEvaluator` and in the `BinaryClassificationMetrics` the Python wrapper builds. `areaUnderPR` then sums trapezoids from `(0, precision of the first point)`. The kit's session holds the sorted counts in one partition; with several, each partition's chunks start at its own first score.",
    "rejects-query-over-10000-items": "LightGBM `src/metric/map_metric.hpp` needs query information and `lambdarank` checks `Number of rows ... exceeds upper limit of 10000 for a query`.",
    "rocr-aucpr": "ROCR `R/performance_measures.R` `.performance.aucpr` (ROCR 1.0-10+): `aggregate(list(fp = fp), by = list(tp = tp), min)` keeps the first point of each recall (the highest precision there), `prec[1] = 1` at (0, 0), Davis-Goadrich points inserted only where TP jumps by more than 2 and with `append(..., after = i)` at indices that ignore the points already inserted, then trapezoids in vector order; items with a non-finite score are dropped by `prediction`. The measure came with https://github.com/ipa-tys/ROCR/pull/2, which cites Davis & Goadrich (2006).",
    "infinite-scores-dropped": "ROCR `R/prediction.R` `prediction`: `finite.bool <- is.finite(predictions[[i]])` drops every item whose score is ±inf before the curve is built (and leaves one class when they were all of the other: `Number of classes is not equal to 2`).",
    "rejects-single-class": 'ROCR `prediction`: `if (length(levels) != 2) stop("Number of classes is not equal to 2...")`: an input of positives only, whose PR area is 1, is rejected.',
    "direction=auto": 'pROC `R/roc.R` `roc.default`: `direction = "auto"` (the default) takes `">"` when the median control score exceeds the median case score, and the area is then that of the reversed ranking; documented: "the direction is chosen so that the median of the cases is larger than the median of the controls". Upstream: https://github.com/xrobin/pROC/issues/11 (whether to change the default; pROC now prints the direction it chose) and https://github.com/xrobin/pROC/issues/128.',
    "mcclish-below-diagonal=NA": 'pROC `R/auc.R` `auc.roc`: with `partial.auc.correct = TRUE` and the default `allow.invalid.partial.auc.correct = FALSE`, `if (auc < min) { warning("Partial AUC correction not defined for ROC curves below the diagonal."); auc <- NA }`, `min` being the diagonal\'s area over the range (`roc.utils.min.partial.auc`); documented in `?auc`: "Note that this correction is undefined for curves below the diagonal (auc < min). Attempting to correct such an AUC will return NA with a warning." `allow.invalid.partial.auc.correct = TRUE` returns the corrected value instead.',
    "specificity-bound-rounded": "pROC `R/auc.R` `auc.roc`: the FPR bound m reaches pROC as the specificity bound `partial.auc = c(1, 1 - m)`, computed in float64; for m below 2^-54 `1 - m` is 1, the range is empty, the partial area and the diagonal's are both 0, and `(1 + ((auc - min)/(max - min)))/2` is 0/0 = NaN.",
    "tie-half-credit-truncated": 'river `rust_src/rolling_roc_auc.rs` `RollingROCAUC::get`: a negative tied with positives adds `(c + prev_c) / 2` in i64, truncated ("tied scores across classes get an integer-truncated half-credit instead of the proper Mann-Whitney 0.5", the source\'s comment).',
    "class-missing=0": "CatBoost `catboost/libs/metrics/auc.cpp` `CalcBinClassAuc`: `if (positiveSamples->empty() || negativeSamples->empty()) return 0;` (a class with items of zero weight still has samples, and gives 0/0).",
    "rejects-probability-sum": "pycm `pycm/curve.py` `__curve_validation__`: `if abs(sum(item) - 1) > 0.001: raise pycmCurveError(PROBABILITY_SUM_ERROR)` for each item's class probabilities; with `[1 - s, s]` a score of 1.8e308 gives `(1 - s) + s = 0`.",
    "statistics-overflow": "pycm `ConfusionMatrix` computes every class statistic when it is built: with weights of 1e308 the float64 totals are inf and `custom_rounder` (`pycm/utils.py`) meets `int(nan)` (ValueError); with weights up to 2^1000 `RACC_calc` (`pycm/class_funcs.py`) squares the population, `POP ** 2`, which raises OverflowError.",
    "fbeta-overflow-caught": "pycm `ConfusionMatrix.F_beta` (`pycm/cm.py`) wraps `F_calc` in `except Exception: return {}`: Python's `beta**2` raises OverflowError at beta = 1e200, and at beta = inf `(1 + inf) TP / ((1 + inf) TP + FP + inf FN)` is inf/inf; either way no value (NaN here).",
    "catboost-prauc": 'CatBoost `catboost/libs/metrics/metric.cpp` `TPRAUCMetric::Eval` (1.2.10 reports its `CB_ENSURE(curTp > 0, "No element of a positive class")` as `metric.cpp:4763`): the items sorted by increasing score, the area summed from the threshold below every item, removing items from the bottom, as trapezoids `(prevRecall - recall) * (prevPrecision + precision) / 2` from `prevRecall = 1`, `prevPrecision = 0` to the point (0, 1) past every item; the border moves on past neighbours while `isApproxesEqual` (`Abs(approxL - approxR) < 1e-8`) holds, so scores closer than 1e-8 tie and equal infinite scores do not (`inf - inf` is NaN): each is an operating point of its own, in reverse input order. Emulated by `prtheory.conformance.gbdt_models.catboost_prauc`.',
    "pos-neg-product-integer-overflow": "MLmetrics 1.1.1 `R/Classification.R` `AUC` (lines 337-339): `n_pos <- sum(y_true == 1)`, `n_neg <- sum(y_true == 0)` (sums of logicals: R integers), then `... / (n_pos * n_neg)`: R's integer product (`R_integer_times`, `src/main/arithmetic.c`) is `NA` with the warning `NAs produced by integer overflow` once it exceeds 2^31 - 1 = 2147483647 (46341 positives and 46341 negatives: 2147488281), and the area is `NA`. Upstream: https://github.com/yanyachen/MLmetrics/issues/12 (open); fixed by https://github.com/yanyachen/MLmetrics/commit/346ebf44e6836134c1f09c256270fb23301f6a1f (`as.double(sum(y_true == 1))`, in 1.1.2 on GitHub and 1.1.3 on CRAN); Debian's `r-cran-mlmetrics` is 1.1.1.",
    "pos-neg-product-underflow": "Weka `ThresholdCurve.getROCArea`: `area /= (totalNeg * totalPos)`; with subnormal weights the product underflows to 0 and the area is 0/0 = NaN.",
    "counts-by-subtraction-float64": "Weka `weka/classifiers/evaluation/ThresholdCurve.java` `getCurve` (3.9): the points run from the lowest score up, starting from `new TwoClassStats(totPos, totNeg, 0, 0)`, and at each higher score `tc.setTruePositive(tc.getTruePositive() - cumulativePos)` (likewise FP) removes the weight below it, in double: where weights lie more than 2^53 apart, `(w_small + w_big) - w_big` is 0 and a top-ranked item's weight vanishes from TP or FP; `TwoClassStats.getPrecision` is NaN where TP + FP is 0, and `getPRCArea` sums `p[i] * (r[i] - r[i + 1])`, `getROCArea` the Mann-Whitney statistic, over those points.",
}


def _valid(v: Vector) -> bool:
    return v.result in ("valid", "acceptable") and v.inputs.y_score is not None


def _oracle(metric: str, x: Inputs) -> Any:
    """The oracle's value at ``x`` (UNDEFINED where it is 0/0 or invalid)."""
    try:
        return encoded(evaluate(metric, x, Alternative("", {})))
    except (UndefinedMetricError, InvalidInputError):
        return UNDEFINED


def _float(value: float | Fraction | None) -> Any:
    if value is None:
        return None
    if isinstance(value, Fraction):
        return encoded(value)
    return NAN if math.isnan(value) else scalar(value)


def _f32(values: Any) -> np.ndarray:
    with np.errstate(over="ignore", under="ignore"):
        return np.asarray(values, dtype=np.float64).astype(np.float32)


def _classes(x: Inputs, w: np.ndarray) -> tuple[float, float]:
    """The positive and the negative weight, summed in float64 (inf where that overflows)."""
    y = np.asarray(x.y_true)
    with np.errstate(over="ignore"):
        return float(w[y == 1].sum()), float(w[y != 1].sum())


def _no_negatives(v: Vector) -> Any:
    if not _valid(v):
        return None
    w = np.ones(len(v.inputs.labels)) if v.inputs.sample_weight is None else v.inputs.sample_weight
    return NAN if _classes(v.inputs, np.asarray(w, dtype=np.float64))[1] == 0 else None


def _float32_underflow(v: Vector) -> Any:
    w = v.inputs.sample_weight
    if not _valid(v) or w is None:
        return None
    cast = _f32(w).astype(np.float64)
    before, after = _classes(v.inputs, np.asarray(w, np.float64)), _classes(v.inputs, cast)
    lost = any(b > 0 and a == 0 for b, a in zip(before, after, strict=True))
    return UNDEFINED if lost else None


def _beyond_float32(v: Vector) -> Any:
    w = v.inputs.sample_weight
    if not _valid(v) or w is None:
        return None
    return RAISES if np.isinf(_f32(w)).any() else None


def _product_underflow(v: Vector) -> Any:
    w = v.inputs.sample_weight
    if not _valid(v) or w is None:
        return None
    pos, neg = _classes(v.inputs, np.asarray(w, dtype=np.float64))
    return NAN if pos > 0 and neg > 0 and pos * neg == 0 else None


def _integer_product_overflow(v: Vector) -> Any:
    """NaN where R's integer product of the class counts, ``sum(y_true == 1) * sum(y_true ==
    0)``, exceeds :data:`R_INT_MAX` (MLmetrics' ``AUC``; R counts unweighted items)."""
    if not _valid(v) or v.inputs.sample_weight is not None:
        return None
    y = np.asarray(v.inputs.y_true)
    pos, neg = int(np.count_nonzero(y == 1)), int(np.count_nonzero(y == 0))
    return NAN if pos * neg > R_INT_MAX else None


def _emulated(fn: Callable[[Any], Any], when: Callable[[Inputs], bool]) -> Callable[[Vector], Any]:
    """A prediction from the emulation ``fn`` on the legal vectors (valid or undefined) where
    ``when`` holds."""

    def predict(v: Vector) -> Any:
        if v.result == "invalid" or v.inputs.y_score is None or not when(v.inputs):
            return None
        return _float(fn(v.inputs))

    return predict


def _always(_: Inputs) -> bool:
    return True


def _cancellation(
    emulate: Callable[[Inputs], float],
    off: Callable[[float], float],
    admits: Callable[[Inputs], bool] = _always,
) -> Callable[[Vector], Any]:
    """A Davis-Goadrich closed form that cancels: the emulation's value on the legal vectors
    ``admits`` takes, where it lies more than ``off(exact)`` from the exact area of the scores
    rounded to float32 (both libraries store float32 scores), so that the arithmetic, not the
    scores' rounding, is the cause. The emulation runs once per vector."""

    def predict(v: Vector) -> Any:
        x = v.inputs
        if v.result == "invalid" or x.y_score is None or not admits(x):
            return None
        exact = _oracle(
            "auc_davis_goadrich", replace(x, y_score=_f32(x.y_score).astype(np.float64))
        )
        got = emulate(x)
        if exact is UNDEFINED or math.isnan(got) or abs(got - exact.float64) <= off(exact.float64):
            return None
        return _float(got)

    return predict


def _keras_input(x: Inputs) -> bool:
    """Probabilities (Keras takes nothing else) and weights that float32 holds (where it does
    not, the weights' float32 overflow or underflow is the cause). The oracle's Davis-Goadrich
    area holds the first point's precision from recall 0, as Keras does."""
    s = np.asarray(x.y_score, dtype=np.float64)
    if s.size == 0 or not (np.isfinite(s).all() and s.min() >= 0.0 and s.max() <= 1.0):
        return False
    return _float32_weights_hold(x)


def _float32_weights_hold(x: Inputs) -> bool:
    """No weights, or weights that float32 holds: each 0 or normal in float32, their float32
    sum finite."""
    if x.sample_weight is None:
        return True
    w = np.asarray(x.sample_weight, dtype=np.float64)
    normal = (w == 0) | (w >= np.finfo(np.float32).tiny)
    with np.errstate(over="ignore"):
        total = _f32(w).sum(dtype=np.float32)
    return bool(normal.all() and np.isfinite(total))


def _huge_scores(x: Inputs) -> bool:
    s = np.asarray(x.y_score, dtype=np.float64)
    return bool((np.abs(s) >= 1e300).any())


def _weights_changed_by_float32(x: Inputs) -> bool:
    if x.sample_weight is None:
        return False
    w = np.asarray(x.sample_weight, dtype=np.float64)
    cast = _f32(w).astype(np.float64)
    return bool(((cast == 0) & (w != 0)).any() or (np.abs(w) > 1e38).any())


def _zero_top_block(x: Inputs) -> bool:
    if x.sample_weight is None:
        return False
    s = np.asarray(x.y_score, dtype=np.float64)
    return float(np.asarray(x.sample_weight, np.float64)[s == s.max()].sum()) == 0.0


def _infinite_dropped(v: Vector) -> Any:
    s = v.inputs.y_score
    if not _valid(v) or s is None or np.isfinite(np.asarray(s, dtype=np.float64)).all():
        return None
    keep = np.isfinite(np.asarray(s, dtype=np.float64))
    x = v.inputs
    kept = replace(x, y_true=np.asarray(x.y_true)[keep], y_score=np.asarray(s)[keep])
    if len(set(np.asarray(kept.y_true).tolist())) != 2:
        return RAISES
    return _oracle(v.metric, kept)


def _single_class(v: Vector) -> Any:
    if not _valid(v) or v.inputs.sample_weight is not None:
        return None
    return RAISES if len(set(np.asarray(v.inputs.y_true).tolist())) < 2 else None


def _reversed_direction(v: Vector) -> Any:
    if not _valid(v) or v.result != "valid":
        return None
    if r_models.proc_direction(v.inputs) != ">":
        return None
    reversed_scores = replace(v.inputs, y_score=-np.asarray(v.inputs.y_score, dtype=np.float64))
    return _oracle("roc_auc", reversed_scores)


def _finite_valid(v: Vector) -> bool:
    """A valid vector whose scores are all finite."""
    if not _valid(v) or v.result != "valid":
        return False
    return bool(np.isfinite(np.asarray(v.inputs.y_score, dtype=np.float64)).all())


def _below_diagonal(v: Vector) -> Any:
    """NaN where McClish's partial ROC AUC is below 1/2 (pROC's ``NA`` below the diagonal).
    At exactly 1/2 pROC's float64 comparison ``auc < min`` can go either way, and nothing is
    predicted; nor where a score is ±inf, which pROC rejects before any area."""
    if not _finite_valid(v):
        return None
    try:
        value = evaluate("partial_roc_auc", v.inputs)
    except (UndefinedMetricError, InvalidInputError):
        return None
    return NAN if value < Fraction(1, 2) else None


def _empty_specificity_range(v: Vector) -> Any:
    """NaN where the specificity bound ``1 - max_fpr`` is 1 in float64 (pROC's empty range);
    nothing where a score is ±inf, which pROC rejects first."""
    if not _finite_valid(v):
        return None
    m = float(v.inputs.params["max_fpr"])
    return NAN if m > 0 and 1.0 - m == 1.0 else None


def _partial_roc_auc() -> list[Mechanism]:
    """pROC's partial AUC: NA below the diagonal, and the bound as specificity in float64."""
    return [
        _mechanism(
            "mcclish-below-diagonal=NA",
            "NA where the partial area is below the diagonal's (McClish's value < 1/2)",
            _below_diagonal,
        ),
        _mechanism(
            "specificity-bound-rounded",
            "the bound taken as specificity 1 - m in float64: 1 for m < 2^-54, an empty "
            "range, 0/0 = NaN",
            _empty_specificity_range,
        ),
    ]


def _short_list(v: Vector) -> Any:
    x = v.inputs
    if not _valid(v) or "relevant_at" in x.params or len(x.labels) >= int(x.params["k"]):
        return None
    return encoded(Fraction(int((np.asarray(x.y_true) == 1).sum()), len(x.labels)))


def _stable_sort_of(store: Callable[[Inputs], Inputs]) -> Callable[[Vector], Any]:
    """The oracle's value of the scores as ``store`` keeps them, ties in input order (a stable
    sort by decreasing score); none for a NaN score (a comparison sort's order is then
    unspecified) or a graded relevance."""

    def predict(v: Vector) -> Any:
        x = v.inputs
        if not _valid(v) or "relevant_at" in x.params:
            return None
        if np.isnan(np.asarray(x.y_score, dtype=np.float64)).any():
            return None
        try:
            value = evaluate(v.metric, store(x), Alternative("", {"ties": "input-order"}))
        except (UndefinedMetricError, InvalidInputError):
            return None
        return encoded(value)

    return predict


def _lightgbm_scores(x: Inputs) -> Inputs:
    return replace(x, y_score=gbdt_models.lightgbm_stored(x)[0])


def _spark_binned(v: Vector) -> Any:
    """The oracle's trapezoid area from ``(0, p_first)`` of the scores as MLlib's default
    binning sees them (:func:`~prtheory.conformance.spark_models.spark_bins`, one partition of
    the sorted counts, as in the kit's one-core session), where it bins: at least
    ``2 numBins`` distinct scores, none NaN."""
    x = v.inputs
    if not _valid(v):
        return None
    s = np.asarray(x.y_score, dtype=np.float64)
    if np.isnan(s).any() or np.unique(s).size < 2 * spark_models.DEFAULT_BINS:
        return None
    binned = replace(x, y_score=spark_models.spark_bins(s, spark_models.DEFAULT_BINS))
    try:
        value = evaluate(v.metric, binned, Alternative("", {"first_point": "spark"}))
    except (UndefinedMetricError, InvalidInputError):
        return None
    return encoded(value)


def _long_query(v: Vector) -> Any:
    return RAISES if _valid(v) and len(v.inputs.labels) > 10_000 else None


def _class_missing(v: Vector) -> Any:
    x = v.inputs
    if v.result != "undefined" or x.y_score is None:
        return None
    return scalar(0.0) if len(set(np.asarray(x.y_true).tolist())) < 2 else None


#: the pairwise and per-item emulations are not run on longer inputs (the 10^6-item vectors)
EMULATED_ITEMS = 10_000


def _short(x: Inputs) -> bool:
    return len(x.labels) <= EMULATED_ITEMS


def _probability_sum(v: Vector) -> Any:
    """RAISES where ``abs((1 - s) + s - 1) > 0.001`` for some score: pycm's check of the
    probabilities ``[1 - s, s]`` the adapter passes."""
    if not _valid(v):
        return None
    s = np.asarray(v.inputs.y_score, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        off = np.abs((1.0 - s) + s - 1.0) > 0.001
    return RAISES if off.any() else None


def _statistics_overflow(v: Vector) -> Any:
    """pycm's confusion matrix statistics of huge weights: the float64 total weight overflows
    (an ``int(nan)`` ValueError), or its square does (``POP ** 2``: OverflowError)."""
    w = v.inputs.sample_weight
    if not _valid(v) or w is None:
        return None
    total = sum(np.asarray(w, dtype=np.float64).tolist())
    if math.isinf(total):
        return RAISES
    try:
        total**2
    except OverflowError:
        return Crash("OverflowError")
    return None


def _fbeta_overflow_caught(v: Vector) -> Any:
    """NaN where Python's ``beta**2`` overflows or beta is inf: pycm's ``F_beta`` catches the
    exception (or divides inf by inf) and reports no value."""
    beta = v.inputs.params.get("beta")
    if not _valid(v) or beta is None:
        return None
    if beta == math.inf:
        return NAN
    try:
        float(Fraction(beta)) ** 2
    except OverflowError:
        return NAN
    return None


def _catboost_order_known(x: Inputs) -> bool:
    """CatBoost's ``std::sort`` order is the emulation's (stable) one: no NaN score, and equal
    infinite scores (the only equal keys that stay separate points) only in inputs of at most 16
    items, which libstdc++ sorts by insertion."""
    s = np.asarray(x.y_score, dtype=np.float64)
    if np.isnan(s).any():
        return False
    infinite = s[np.isinf(s)]
    return s.size <= 16 or np.unique(infinite).size == infinite.size


def _mechanism(name: str, summary: str, predict: Callable[[Vector], Any]) -> Mechanism:
    return Mechanism(name, summary, predict)


def _weights(metric: str) -> list[Mechanism]:
    out = []
    if metric == "roc_auc":  # first: where both explain a result, this one holds in float64
        out.append(
            _mechanism(
                "pos-neg-product-underflow",
                "the normaliser pos * neg of subnormal weights underflows to 0: 0/0",
                _product_underflow,
            )
        )
    return [
        *out,
        _mechanism(
            "weights-float32-underflow",
            "weights stored as float32: a class whose weights are subnormal loses them (0/0)",
            _float32_underflow,
        ),
        _mechanism(
            "rejects-weights-beyond-float32",
            "weights stored as float32 and checked finite: 1e308 and 2^1000 are rejected",
            _beyond_float32,
        ),
    ]


def _lightgbm(metric: str) -> list[Mechanism]:
    fn = {
        "average_precision": gbdt_models.lightgbm_average_precision,
        "roc_auc": gbdt_models.lightgbm_auc,
    }[metric]
    out = [
        _mechanism(
            "scores=clamped-to-1e300",
            "scores stored through AvoidInf: clamped to [-1e300, 1e300], NaN as 0",
            _emulated(fn, _huge_scores),
        ),
        _mechanism(
            "weights=float32-clamped",
            "weights stored as float32 through AvoidInf: subnormal ones 0, huge ones 1e38",
            _emulated(fn, _weights_changed_by_float32),
        ),
    ]
    if metric == "average_precision":
        out.append(
            _mechanism(
                "zero-weight-top-block",
                "a top-scored block of zero weight: precision 0/0 = NaN, kept in the sum",
                _emulated(fn, _zero_top_block),
            )
        )
    return out


def _ap_at_k() -> list[Mechanism]:
    """The gradient-boosting libraries' ``map@k``: LightGBM's query limit, and the scores as
    XGBoost and LightGBM store them, ranked by a stable sort."""
    return [
        _mechanism(
            "rejects-query-over-10000-items", "an error for a query of 10^4+ items", _long_query
        ),
        _mechanism(
            "ties=input-order+scores=float32",
            "scores stored as float32, then a stable sort: ties (float32's among them) in "
            "input order",
            _stable_sort_of(scores_float32),
        ),
        _mechanism(
            "ties=input-order+scores=clamped-to-1e300",
            "scores stored through AvoidInf (clamped to [-1e300, 1e300]), then a stable "
            "sort: ties (the clamped scores among them) in input order",
            _stable_sort_of(_lightgbm_scores),
        ),
    ]


def _by_metric(metric: str) -> list[Mechanism]:
    """The mechanisms particular to ``metric``."""
    table: dict[str, list[Mechanism]] = {
        "auc_davis_goadrich": [
            _mechanism(
                "nan-without-negatives", "NaN for an input without negatives", _no_negatives
            ),
            _mechanism(
                "dg-float64-cancellation",
                "the Davis-Goadrich closed form in float64 cancels (XGBoost's CalcDeltaPRAUC)",
                # XGBoost sums in float64: beyond 8 float64 ulps
                _cancellation(gbdt_models.xgboost_aucpr, lambda e: 8 * math.ulp(e)),
            ),
            _mechanism(
                "dg-float32-cancellation",
                "the Davis-Goadrich closed form in float32 cancels (Keras's interpolate_pr_auc)",
                # Keras computes in float32: beyond 16 float32 ulps
                _cancellation(
                    keras_models.float32_interpolation,
                    lambda e: 16 * float(np.spacing(np.float32(e))),
                    _keras_input,
                ),
            ),
        ],
        "auc_trapezoid": [
            _mechanism(
                "rocr-aucpr",
                "ROCR's aucpr: the first point of each recall, DG points misplaced, trapezoids",
                _emulated(r_models.rocr_aucpr, _always),
            ),
            _mechanism(
                "catboost-prauc",
                "CatBoost's PRAUC: scores within 1e-8 tied, equal infinite scores not, trapezoids",
                _emulated(gbdt_models.catboost_prauc, _catboost_order_known),
            ),
            _mechanism("rejects-single-class", "an error for one class", _single_class),
            _mechanism(
                "binned(numBins=1000)+first-point=spark",
                "MLlib's default binning: from 2000 distinct scores, runs of d // 1000 "
                "consecutive scores merged into their lowest; trapezoids from (0, p_first)",
                _spark_binned,
            ),
        ],
        "roc_auc": [
            _mechanism(
                "ranking-auc=all-pairs",
                "every pair of the group counted, equal labels included (XGBoost's GroupRankingROC)",
                _emulated(gbdt_models.xgboost_ranking_auc, _short),
            ),
            _mechanism(
                "direction=auto",
                "the direction chosen from the medians: the reversed ranking's area",
                _reversed_direction,
            ),
            _mechanism("class-missing=0", "0 where one class has no item", _class_missing),
            _mechanism(
                "pos-neg-product-integer-overflow",
                "the normaliser pos * neg in R integers exceeds 2^31 - 1: NA",
                _integer_product_overflow,
            ),
            _mechanism(
                "tie-half-credit-truncated",
                "a negative tied with positives gets (c + prev_c) // 2 (river's RollingROCAUC)",
                _emulated(river_models.river_rolling_roc_auc, _always),
            ),
        ],
        "partial_roc_auc": _partial_roc_auc(),
        "fbeta_at_threshold": [
            _mechanism(
                "fbeta-overflow-caught",
                "beta**2 overflows (or beta is inf) and the value is reported as missing",
                _fbeta_overflow_caught,
            )
        ],
        "precision_at_k": [
            _mechanism("precision@k=hits/min(k,n)", "P@k over min(k, n) when n < k", _short_list)
        ],
        "ap_at_k": _ap_at_k(),
    }
    return table.get(metric, [])


def for_metric(metric: str) -> list[Mechanism]:
    """Every mechanism of this module that applies to ``metric``.

    Parameters
    ----------
    metric : str
        A metric of :data:`~prtheory.conformance.metrics.METRICS`.

    Returns
    -------
    list of Mechanism
        Its mechanisms (none for a metric no library here diverges on).

    Examples
    --------
    Positives scored 0.1, 0.2 and negatives 0.8, 0.9: the median control score 0.85 is above
    the median case score 0.15, so pROC's automatic direction reverses the ranking, whose ROC
    area is 1 (every positive above every negative) where this one's is 0:

    >>> import numpy as np
    >>> from prtheory.conformance.external_mechanisms import for_metric
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.vectors_io import Vector
    >>> [m.name for m in for_metric("precision_at_k")]
    ['precision@k=hits/min(k,n)']
    >>> direction = next(m for m in for_metric("roc_auc") if m.name == "direction=auto")
    >>> x = Inputs(np.array([1, 1, 0, 0]), np.array([0.1, 0.2, 0.8, 0.9]))
    >>> direction.predict(Vector("roc_auc", 1, "", (), x, "valid", None, {}, None)).exact
    Fraction(1, 1)
    """
    out = _by_metric(metric)
    if metric in ("average_precision", "roc_auc"):
        out += _lightgbm(metric)
    if metric in ("auc_trapezoid", "roc_auc"):
        out.append(
            _mechanism(
                "infinite-scores-dropped",
                "items with a ±inf score dropped before the curve is built",
                _infinite_dropped,
            )
        )
    if metric in ("auc_davis_goadrich", "auc_trapezoid", "roc_auc", "average_precision"):
        out += _weights(metric)
    if metric in ("average_precision", "roc_auc"):
        emulation = {
            "average_precision": weka_models.weka_prc_area,
            "roc_auc": weka_models.weka_roc_area,
        }[metric]
        out.append(
            _mechanism(
                "counts-by-subtraction-float64",
                "each point's TP and FP are the totals less the weight below it, in float64 "
                "(Weka's ThresholdCurve): weights 2^53 apart cancel",
                _emulated(emulation, weka_models.cancels),
            )
        )
    if metric in ("auc_trapezoid", "roc_auc"):
        out += [
            _mechanism(
                "rejects-probability-sum",
                "an error where 1 - score and score do not sum to 1 within 0.001",
                _probability_sum,
            ),
            _mechanism(
                "statistics-overflow",
                "the total weight, or its square, overflows float64 in the statistics",
                _statistics_overflow,
            ),
        ]
    return out


#: the mechanisms the differential test evaluates on generated inputs of every size: those whose
#: prediction needs only the class counts or the class weights (one pass over the items), and
#: MLlib's binning, which applies only from 2000 distinct scores and costs one exact area, as
#: the expected value does
AT_ANY_SIZE = frozenset(
    {
        "pos-neg-product-integer-overflow",
        "pos-neg-product-underflow",
        "binned(numBins=1000)+first-point=spark",
    }
)
