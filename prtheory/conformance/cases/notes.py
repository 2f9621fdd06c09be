"""What each flag of a conformance test means (:data:`NOTES`), as written into the vectors'
``notes``."""

from __future__ import annotations

from prtheory.conformance.cases.case import SEED

__all__ = ["NOTES", "TORCHMETRICS_SIGMOID"]

TORCHMETRICS_SIGMOID = (
    "https://github.com/Lightning-AI/torchmetrics/issues/1604",
    "https://github.com/Lightning-AI/torchmetrics/issues/2195",
    "https://github.com/Lightning-AI/torchmetrics/issues/2819",
)

#: flag -> (bugType, description, effect, upstream links)
NOTES: dict[str, tuple[str, str, str, tuple[str, ...]]] = {
    "basic": (
        "BASIC",
        "An ordinary input with distinct finite scores.",
        "A wrong value here is wrong for most inputs users have.",
        (),
    ),
    "ties": (
        "CONVENTION",
        "Tied scores. Grouping a tied block into one operating point, ordering it by input order, by document id (trec_eval) or optimistically all give different values.",
        "Results depend on the order of the input rows or on document ids, so the same predictions score differently after a shuffle.",
        (),
    ),
    "nonfinite-score": (
        "EDGE_CASE",
        "+inf and -inf scores are legal and rank first and last; ties between infinite scores are ties like any other. Rejecting them, or splitting their ties (inf - inf is NaN), is a divergence.",
        "Models that output log-odds saturate to ±inf; a library that rejects them stops the evaluation, one that splits their ties reports an order-dependent value.",
        (),
    ),
    "single-class": (
        "EDGE_CASE",
        "Every item has the same label. Recall (and so AP and the PR curve) is 0/0 without positives; precision gain is undefined without negatives.",
        "A per-query or per-fold average silently includes a made-up 0 or 1 for queries without relevant items.",
        ("https://github.com/scikit-learn/scikit-learn/issues/8245",),
    ),
    "single-item": (
        "EDGE_CASE",
        "A ranking of one item.",
        "Crashes or 0/0 values on the smallest input.",
        ("https://github.com/scikit-learn/scikit-learn/issues/30615",),
    ),
    "weights": (
        "BASIC",
        "Sample weights, including fractional and zero weights; floats are taken at their exact binary value.",
        "Weighted evaluations (importance weights, de-duplicated counts) come out wrong, or zero-weight rows still move the curve.",
        (),
    ),
    "extreme-skew": (
        "NUMERICAL",
        "One positive among 10^6 negatives (run-length encoded inputs), or a skew within 1e-8 of 0 or 1.",
        "Rare-event evaluations (fraud, ads, retrieval) lose all significant digits to cancellation or float32 counts.",
        (),
    ),
    "count-product-limit": (
        "NUMERICAL",
        "As many positives as negatives on either side of the point where pos * neg, the ROC area's normaliser, passes 2^31 - 1 (46341 of each: 2147488281; 46340: 2147395600).",
        "A library that multiplies the class counts as 32-bit integers returns NA or a wrong area on ordinary data sets of 10^5 items.",
        ("https://github.com/yanyachen/MLmetrics/issues/12",),
    ),
    "float32-collision": (
        "NUMERICAL",
        "Distinct float64 scores that round to the same float32, so a library that stores scores as float32 sees a tie.",
        "Nearby scores become ties: the ranking, and every metric of it, changes.",
        (),
    ),
    "logits": (
        "CONVENTION",
        "Scores outside [0, 1]. A library that applies a sigmoid to such scores changes thresholds, and saturation to 1.0 creates ties.",
        "Thresholded metrics change with the score scale; large logits all become 1.0 and tie.",
        TORCHMETRICS_SIGMOID,
    ),
    "invalid-input": (
        "MALFORMED_INPUT",
        "NaN scores, labels other than 0/1, mismatched lengths, empty input or negative weights: the result is invalid and a conforming library raises.",
        "A bug upstream (a NaN prediction, a label encoding mistake) produces a plausible number instead of an error.",
        (),
    ),
    "worst-ranking": (
        "EDGE_CASE",
        "Every negative above every positive: the points lie on the Theorem 1 bound (B2) and AP = AP_min (B6).",
        "Baselines and normalised scores (AUCNPR) built on the worst case are off.",
        (),
    ),
    "best-ranking": (
        "EDGE_CASE",
        "Every positive above every negative.",
        "A perfect ranker does not score 1.",
        (),
    ),
    "partial-bound": (
        "CONVENTION",
        "A partial ROC AUC's bound max_fpr: the area over FPR in [0, max_fpr], the segment that crosses it cut there linearly, standardised as McClish's (1 + (A - m^2/2)/(m - m^2/2))/2. Bounds at a vertex, inside a tied segment, at 1, far below every step, and outside (0, 1] (invalid).",
        "A curve cut at the last vertex before the bound instead of interpolated, an unstandardised area, or a bound outside (0, 1] accepted, changes the number a partial-AUC comparison rests on.",
        (),
    ),
    "threshold-boundary": (
        "CONVENTION",
        "A score equals the threshold: score >= t predicts it positive, score > t does not.",
        "Counts at a threshold differ from scikit-learn's precision_recall_curve at the same threshold.",
        (),
    ),
    "undefined": (
        "EDGE_CASE",
        "The metric is 0/0 for this legal input; a library may raise, return NaN, or substitute a documented convention value.",
        "Averages over queries or classes silently include a substituted 0 (or 1), biasing the mean.",
        ("https://github.com/scikit-learn/scikit-learn/issues/8245",),
    ),
    "skew-limit": (
        "NUMERICAL",
        "A skew at or near 0 or 1, where naive closed forms lose all accuracy or are defined only by convention.",
        "Closed-form baselines (AUCPR_min, AP_min) are wrong, or NaN, for very rare or very common positives.",
        (),
    ),
    "dtype": (
        "CONVENTION",
        "Scores in the dtype users pass them (params.dtype: float32 or float16 arrays and tensors, int64 scores); every value is exact in that dtype, so the expected value is that of the float64 vector.",
        "Computations carried out in the input's dtype (a float32 sigmoid saturates to 1.0 from about 17, so logits 20 and 30 tie) or integer scores rejected.",
        (),
    ),
    "graded": (
        "CONVENTION",
        "Graded relevance labels (0-3, and -1 for judged non-relevant) with params.relevant_at = 1: an item is relevant iff its label is at least 1, as in trec_eval. Result 'acceptable': a library for binary labels may refuse them.",
        "Graded judgments (TREC qrels) are counted with the wrong relevance, or -1 counts as relevant.",
        (),
    ),
    "beta-extremes": (
        "NUMERICAL",
        "F-beta at beta 1e-300, 1e19, 1e154 and 1e200, where beta^2 underflows or overflows float64, and at the limits beta = 0 (precision) and beta = inf (recall), which a library may compute or refuse (result 'acceptable').",
        "Extreme weightings return NaN, raise OverflowError, or lose the small term entirely.",
        (),
    ),
    "scale": (
        "NUMERICAL",
        "Scores that are tiny (times 1e-300, subnormal), huge (up to the largest float64), one ulp apart, or signed zeros: only their order matters, so the value is that of the same ranking at ordinary scores.",
        "A library that shifts, normalises or subtracts scores (or stores them as float32) collapses or reorders them: the value of a model changes with the units of its scores.",
        (),
    ),
    "weight-extremes": (
        "NUMERICAL",
        "Weights at the ends of float64: 1e308 (sums overflow), subnormal, spanning 2^-1000 to 2^1000, or zero on every positive (the metric is 0/0).",
        "Float sums of weights overflow to inf or lose the small weights entirely, and the result is 0, NaN or silently wrong.",
        (),
    ),
    "random-search": (
        "SEARCHED",
        f"Found by the generator's seeded search (random.Random({SEED})) for small rankings on which tie conventions disagree; pinned so the case never changes.",
        "As for ties: the value depends on a tie convention.",
        (),
    ),
}
