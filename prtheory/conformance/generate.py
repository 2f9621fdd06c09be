"""Generate the conformance test vectors (``prtheory/conformance/vectors/*.json``) from the oracle.

Provenance
----------
Every expected value comes from :mod:`prtheory.oracle` (exact rationals, or mpmath at 60 digits
with the float64 correctly rounded by :func:`prtheory.oracle.rounded`), through the metric table
of :mod:`prtheory.conformance.metrics`; values under alternative conventions come from the same
oracle with another named option or a named input transformation. The inputs are written out
below, by hand, except the ``random-search`` group: a deterministic search driven by
``random.Random(SEED)`` (only ``random()`` is used, whose stream is stable across Python versions)
for small rankings on which tie conventions disagree.

Run ``python -m prtheory.conformance.generate`` (or ``prtheory conformance --write-vectors``) to
rewrite the files; it takes about 15 seconds of CPU time (most of it on the
10^6-item vectors). The output is deterministic: a test compares the
committed files with a fresh generation and fails when they are stale.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import mpmath
import numpy as np

from prtheory._version import __version__
from prtheory.conformance import large
from prtheory.conformance.encoding import encode_inputs, encode_value
from prtheory.conformance.metrics import METRICS, Inputs, combination_base, evaluate
from prtheory.errors import InvalidInputError, UndefinedMetricError

__all__ = ["VECTOR_DIR", "build_all", "main"]

VECTOR_DIR = Path(__file__).parent / "vectors"
SEED = 20150
INF = float("inf")
MAX = 1.7976931348623157e308  # the largest finite float64

TORCHMETRICS_SIGMOID = (
    "https://github.com/Lightning-AI/torchmetrics/issues/1604",
    "https://github.com/Lightning-AI/torchmetrics/issues/2195",
    "https://github.com/Lightning-AI/torchmetrics/issues/2819",
)

# flag -> (bugType, description, effect, upstream links)
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

ORACLE_SOURCES = ("oracle", "_input.py", "errors.py")


def oracle_digest() -> str:
    """sha256 (12 hex digits) of the source that computes expected values: ``prtheory/oracle``,
    ``_input.py`` (validation) and ``errors.py``, file by file in path order."""
    root = Path(__file__).resolve().parents[1]
    h = hashlib.sha256()
    paths: list[Path] = []
    for name in ORACLE_SOURCES:
        p = root / name
        paths += sorted(p.rglob("*.py")) if p.is_dir() else [p]
    for p in paths:
        h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:12]


def generator_version() -> str:
    return f"{__version__}+oracle.{oracle_digest()}"


@dataclass
class Case:
    comment: str
    flags: list[str]
    y_true: Any = None
    y_score: Any = None
    sample_weight: Any = None
    params: dict[str, Any] = field(default_factory=dict)
    runs: bool = False
    intent: str | None = None  # "invalid" / "undefined" / "acceptable" when meant to be
    reason: str = ""  # for "acceptable": why refusing the input is defensible

    def inputs(self) -> Inputs:
        def arr(v: Any, dtype: Any = None) -> Any:
            return None if v is None else np.asarray(v, dtype=dtype)

        params = dict(self.params)
        if "dtype" in params:  # the scores must be exact in the dtype they are passed in
            s = np.asarray(self.y_score, dtype=np.float64)
            if not np.array_equal(s.astype(params["dtype"]).astype(np.float64), s):
                raise AssertionError(f"{self.comment}: scores not exact in {params['dtype']}")
        return Inputs(
            arr(self.y_true), arr(self.y_score, np.float64), arr(self.sample_weight), params
        )

    def encoded_inputs(self) -> dict[str, Any]:
        out = (
            {}
            if self.y_true is None
            else encode_inputs(self.y_true, self.y_score, self.sample_weight, runs=self.runs)
        )
        if self.params:
            out["params"] = dict(self.params)
        return out


# ------------------------------------------------------------------------------------------
# inputs


def _skew_case(position: str, n_neg: int = 10**6) -> Case:
    """One positive among ``n_neg`` negatives tied at score 0.5; the positive above, tied, below."""
    score = {"top": 0.75, "tied": 0.5, "bottom": 0.25}[position]
    y = np.zeros(n_neg + 1, dtype=np.int64)
    s = np.full(n_neg + 1, 0.5)
    y[-1] = 1
    s[-1] = score
    flags = ["extreme-skew"] + (["ties"] if position == "tied" else [])
    return Case(
        f"1 positive among 10^6 tied negatives, positive ranked at the {position}",
        flags,
        y,
        s,
        runs=True,
    )


def _searched_cases(count: int = 4) -> list[Case]:
    """Seeded search for rankings on which group, input-order and trec_eval ties all disagree."""
    from prtheory.conformance.metrics import Alternative

    rng = random.Random(SEED)
    found: list[Case] = []
    tries = 0
    while len(found) < count:
        tries += 1
        n = 3 + int(rng.random() * 6)
        y = [int(rng.random() < 0.5) for _ in range(n)]
        s = [float(int(rng.random() * 3)) / 4 for _ in range(n)]
        if not any(y):
            continue
        x = Inputs(np.array(y), np.array(s))
        values = {
            evaluate("average_precision", x),
            evaluate("average_precision", x, Alternative("", {"ties": "input-order"})),
            evaluate("average_precision", x, Alternative("", {"ties": "trec_eval"})),
        }
        if len(values) == 3:
            found.append(
                Case(
                    f"seeded search, try {tries}: three tie policies give three APs",
                    ["ties", "random-search"],
                    y,
                    s,
                )
            )
    return found


# The worked example of the notes on precision and recall (seed 003, claim N3)
N3_TRUTHS = [1, 1, 0, 0, 1, 1, 0, 0]
N3_SCORES_A = [0.95, 0.85, 0.73, 0.62, 0.48, 0.39, 0.12, 0.04]
N3_SCORES_B = [0.55, 0.59, 0.88, 0.97, 0.20, 0.09, 0.43, 0.32]


def ranking_cases() -> list[tuple[str, list[Case]]]:
    """Inputs shared by every ranking metric, in groups."""
    basic = [
        Case(
            "distinct scores, mixed labels",
            ["basic"],
            [1, 0, 1, 1, 0, 0, 1, 0],
            [0.9, 0.8, 0.7, 0.6, 0.55, 0.5, 0.4, 0.3],
        ),
        Case("N3 worked example, scores_A (claim N3)", ["basic"], N3_TRUTHS, N3_SCORES_A),
        Case("N3 worked example, scores_B (claim N3)", ["basic"], N3_TRUTHS, N3_SCORES_B),
        Case(
            "best ranking: positives first",
            ["best-ranking"],
            [1, 1, 1, 0, 0, 0, 0, 0],
            [8, 7, 6, 5, 4, 3, 2, 1],
        ),
        Case(
            "worst ranking: negatives first (B2, B6: AP = AP_min(3, 5))",
            ["worst-ranking"],
            [0, 0, 0, 0, 0, 1, 1, 1],
            [8, 7, 6, 5, 4, 3, 2, 1],
        ),
        Case("scores given in increasing order", ["basic"], [0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4]),
    ]
    ties = [
        Case(
            "tie of a negative and a positive at the top, negative first in input order",
            ["ties"],
            [0, 1, 1, 0],
            [0.9, 0.9, 0.5, 0.2],
        ),
        Case(
            "tie of a positive and a negative at the top, positive first in input order",
            ["ties"],
            [1, 0, 1, 0],
            [0.9, 0.9, 0.5, 0.2],
        ),
        Case("every score tied", ["ties"], [0, 1, 0, 1, 1], [0.5] * 5),
        Case(
            "a tied block of positives only", ["ties"], [1, 1, 0, 1, 0], [0.8, 0.8, 0.6, 0.4, 0.4]
        ),
        Case(
            "a tied block of negatives only, then a mixed block",
            ["ties"],
            [0, 0, 1, 0, 1],
            [0.8, 0.8, 0.6, 0.6, 0.1],
        ),
        Case("two mixed blocks", ["ties"], [0, 1, 0, 1, 1, 0], [0.7, 0.7, 0.7, 0.3, 0.3, 0.3]),
        Case("integer scores with ties", ["ties"], [1, 0, 0, 1, 1, 0, 1], [3, 3, 2, 2, 1, 1, 0]),
    ]
    nonfinite = [
        Case(
            "+inf tied with +inf, negative first",
            ["nonfinite-score", "ties"],
            [0, 1, 1, 0],
            [INF, INF, 0.2, -INF],
        ),
        Case(
            "+inf tied with +inf, positive first",
            ["nonfinite-score", "ties"],
            [1, 0, 1, 0],
            [INF, INF, 0.2, -INF],
        ),
        Case(
            "-inf ties at the bottom",
            ["nonfinite-score", "ties"],
            [1, 0, 1, 0, 1],
            [0.9, 0.4, -INF, -INF, -INF],
        ),
        Case("every score +inf", ["nonfinite-score", "ties"], [0, 1, 1], [INF, INF, INF]),
        Case("untied infinities", ["nonfinite-score"], [1, 0, 1, 0], [INF, 0.5, 0.25, -INF]),
        # +inf and the largest float are two scores: mapping inf to MAX ties them (7/12)
        Case("+inf above the largest float", ["nonfinite-score"], [1, 0, 1], [INF, MAX, -1.0]),
        Case(
            "-inf below the most negative float", ["nonfinite-score"], [1, 1, 0], [1.0, -MAX, -INF]
        ),
    ]
    single = [
        Case("all positive", ["single-class"], [1, 1, 1], [0.9, 0.5, 0.1]),
        Case("all negative", ["single-class", "undefined"], [0, 0, 0], [0.9, 0.5, 0.1]),
        Case("one positive item", ["single-item"], [1], [0.5]),
        Case("one negative item", ["single-item", "single-class", "undefined"], [0], [0.5]),
    ]
    weights = [
        Case(
            "fractional weights",
            ["weights"],
            [1, 0, 1, 0, 1],
            [0.9, 0.8, 0.7, 0.6, 0.5],
            [0.5, 0.25, 2.0, 1.5, 0.125],
        ),
        Case(
            "integer weights with ties",
            ["weights", "ties"],
            [1, 0, 0, 1],
            [0.6, 0.6, 0.3, 0.3],
            [3, 1, 2, 5],
        ),
        Case(
            "a zero weight on a negative",
            ["weights"],
            [0, 1, 0, 1],
            [0.9, 0.8, 0.7, 0.6],
            [0.0, 1.0, 1.0, 1.0],
        ),
        Case(
            "weights 0.1 taken at their binary value",
            ["weights"],
            [1, 0, 1],
            [0.3, 0.2, 0.1],
            [0.1, 0.1, 0.1],
        ),
    ]
    skew = [_skew_case("top"), _skew_case("tied"), _skew_case("bottom")]
    f32 = [
        Case(
            "0.5 + 1e-12 above 0.5: distinct in float64, one float32",
            ["float32-collision"],
            [1, 0, 0],
            [0.5 + 1e-12, 0.5, 0.3],
        ),
        Case(
            "positive just below a negative in float64, equal in float32",
            ["float32-collision"],
            [0, 1, 1, 0],
            [0.1 + 2e-10, 0.1, 0.05, 0.01],
        ),
        Case(
            "large scores 2^24 + 1 and 2^24",
            ["float32-collision"],
            [0, 1, 0],
            [16777217.0, 16777216.0, 1.0],
        ),
    ]
    logits = [
        Case("logits in (-3, 3)", ["logits"], [1, 0, 1, 0, 1], [2.5, 1.0, -0.5, -2.0, 0.3]),
        Case(
            "large logits that saturate the sigmoid to 1.0",
            ["logits", "float32-collision"],
            [0, 1, 1, 0],
            [50.0, 40.0, 39.0, -5.0],
        ),
        Case("scores in [0, 1] except one", ["logits"], [0, 1, 1, 0], [0.9, 0.8, 1.5, 0.1]),
    ]
    one_below = [math.nextafter(1.0, 0.0)]
    for _ in range(4):
        one_below.append(math.nextafter(one_below[-1], 0.0))
    scale = [
        Case(
            "scores times 1e-300 (the ranking of 'distinct scores, mixed labels')",
            ["scale"],
            [1, 0, 1, 1, 0, 0, 1, 0],
            [x * 1e-300 for x in (0.9, 0.8, 0.7, 0.6, 0.55, 0.5, 0.4, 0.3)],
        ),
        Case(
            "subnormal scores",
            ["scale"],
            [1, 0, 1, 1, 0],
            [5e-324 * k for k in (9, 7, 5, 3, 1)],
        ),
        Case(
            "scores one ulp apart below 1.0",
            ["scale", "float32-collision"],
            [0, 1, 1, 0, 1],
            one_below,
        ),
        Case(
            "huge scores up to the largest float64",
            ["scale"],
            [0, 1, 1, 0],
            [1.7976931348623157e308, 1e308, 1e300, -1e308],
        ),
        Case("0.0 and -0.0 are one tied score", ["scale", "ties"], [1, 0, 1], [0.0, -0.0, -1.0]),
        # the positive on -0.0, after the negative: ranking -0.0 above 0.0 gives 5/6, not 7/12
        Case(
            "-0.0 and 0.0 are one tied score, positive on -0.0",
            ["scale", "ties"],
            [0, 1, 1],
            [0.0, -0.0, -1.0],
        ),
    ]
    as_passed = [
        Case(
            "float32 logits 20 and 30, as a model outputs them",
            ["dtype"],
            [0, 1],
            [20.0, 30.0],
            params={"dtype": "float32"},
        ),
        Case(
            "float32 probabilities",
            ["dtype"],
            [1, 0, 1, 0],
            [0.75, 0.5, 0.25, 0.125],
            params={"dtype": "float32"},
        ),
        Case(
            "float16 probabilities with a tie",
            ["dtype", "ties"],
            [1, 0, 1, 1, 0],
            [0.875, 0.5, 0.5, 0.25, 0.0625],
            params={"dtype": "float16"},
        ),
        Case(
            "boolean labels",
            ["dtype"],
            [True, False, True, True, False],
            [0.9, 0.8, 0.7, 0.6, 0.5],
        ),
        Case(
            "int64 scores (counts, votes) with ties",
            ["dtype", "ties"],
            [1, 0, 1, 0, 1],
            [7, 7, 3, 2, 2],
            params={"dtype": "int64"},
        ),
    ]
    weight_extremes = [
        Case(
            "weights of 1e308 (their sum overflows float64)",
            ["weight-extremes", "weights"],
            [1, 0, 1],
            [0.3, 0.2, 0.1],
            [1e308, 1e308, 1e308],
        ),
        Case(
            "subnormal weights",
            ["weight-extremes", "weights"],
            [1, 0, 1, 0],
            [0.4, 0.3, 0.2, 0.1],
            [5e-324, 1e-323, 1.5e-323, 5e-324],
        ),
        Case(
            "weights from 2^-1000 to 2^1000",
            ["weight-extremes", "weights"],
            [1, 0, 1, 0, 1],
            [0.9, 0.7, 0.5, 0.3, 0.1],
            [2.0**-1000, 2.0**1000, 1.0, 2.0**-500, 2.0**500],
        ),
        Case(
            "zero weight on every positive",
            ["weight-extremes", "weights", "undefined"],
            [1, 0, 1],
            [0.9, 0.5, 0.1],
            [0.0, 1.0, 0.0],
            intent="undefined",
        ),
    ]
    invalid = [
        Case("empty input", ["invalid-input"], [], [], intent="invalid"),
        Case(
            "NaN weight",
            ["invalid-input", "weights"],
            [1, 0, 1],
            [0.9, 0.5, 0.1],
            [1.0, float("nan"), 1.0],
            intent="invalid",
        ),
        Case(
            "infinite weight",
            ["invalid-input", "weights"],
            [1, 0, 1],
            [0.9, 0.5, 0.1],
            [1.0, INF, 1.0],
            intent="invalid",
        ),
        Case("NaN score", ["invalid-input"], [1, 0, 1], [0.9, float("nan"), 0.1], intent="invalid"),
        Case("label 2", ["invalid-input"], [1, 2, 0], [0.9, 0.5, 0.1], intent="invalid"),
        Case("label -1", ["invalid-input"], [1, -1, 0], [0.9, 0.5, 0.1], intent="invalid"),
        Case("lengths differ", ["invalid-input"], [1, 0, 1], [0.9, 0.5], intent="invalid"),
        Case(
            "negative weight",
            ["invalid-input", "weights"],
            [1, 0, 1],
            [0.9, 0.5, 0.1],
            [1.0, -1.0, 1.0],
            intent="invalid",
        ),
    ]
    return [
        ("basic", basic),
        ("ties", ties),
        ("nonfinite", nonfinite),
        ("single-class and single-item", single),
        ("weights", weights),
        ("extreme skew", skew),
        ("float32 collisions", f32),
        ("logits", logits),
        ("invalid input", invalid),
        ("random search", _searched_cases()),
        ("scale and ulp", scale),
        ("weight extremes", weight_extremes),
        ("dtypes as users pass them", as_passed),
    ]


def _beta_cases(y: list[int], s: list[float]) -> list[Case]:
    """F-beta far from 1: tiny and huge finite betas (the value tends to precision and to
    recall), and the limits 0 and inf themselves, which a library may compute or refuse."""
    cases = [
        Case(
            f"beta {text} at threshold 0.45",
            ["beta-extremes"],
            y,
            s,
            params={"threshold": "0.45", "beta": beta},
        )
        for text, beta in (
            ("1e-300", "1/1" + "0" * 300),
            ("1e19", "1" + "0" * 19),
            ("1e154", "1" + "0" * 154),
            ("1e200", "1" + "0" * 200),
        )
    ]
    for beta, limit, why in (
        ("0", "precision", "beta = 0 is outside F-beta's domain (beta > 0)"),
        ("inf", "recall", "beta = inf is not a finite weight"),
    ):
        cases.append(
            Case(
                f"beta {beta}: the limit is the {limit}",
                ["beta-extremes"],
                y,
                s,
                params={"threshold": "0.45", "beta": beta},
                intent="acceptable",
                reason=f"{why}; the value given is the limit as beta -> {beta}, the {limit}. "
                "Returning it or raising are both acceptable.",
            )
        )
    return cases


def threshold_cases() -> list[tuple[str, list[Case]]]:
    """Inputs for metrics at a threshold: the ranking inputs at a few thresholds and betas."""
    y = [1, 0, 1, 1, 0, 0, 1, 0]
    s = [0.9, 0.8, 0.7, 0.6, 0.5, 0.5, 0.4, 0.3]
    basic = [
        Case(f"threshold {t}, beta {b}", ["basic"], y, s, params={"threshold": repr(t), "beta": b})
        for t, b in [(0.65, "1"), (0.45, "2"), (0.45, "1/2"), (0.35, "1/3")]
    ]
    n3 = [
        Case(
            f"N3 worked example, scores_{name} at threshold 0.5 (claim N3)",
            ["basic"],
            N3_TRUTHS,
            scores,
            params={"threshold": "0.5", "beta": "1"},
        )
        for name, scores in (("A", N3_SCORES_A), ("B", N3_SCORES_B))
    ]
    boundary = [
        Case(
            "threshold equal to a score",
            ["threshold-boundary"],
            y,
            s,
            params={"threshold": "0.5", "beta": "1"},
        ),
        Case(
            "threshold equal to the top score",
            ["threshold-boundary"],
            y,
            s,
            params={"threshold": "0.9", "beta": "1"},
        ),
    ]
    edge = [
        Case(
            "threshold above every score",
            ["undefined"],
            y,
            s,
            params={"threshold": "0.95", "beta": "1"},
        ),
        Case(
            "threshold below every score", ["basic"], y, s, params={"threshold": "0.0", "beta": "1"}
        ),
        Case(
            "all negative, threshold predicts some positive",
            ["single-class"],
            [0, 0, 0],
            [0.9, 0.5, 0.1],
            params={"threshold": "0.4", "beta": "1"},
        ),
        Case(
            "all negative, nothing predicted positive",
            ["single-class", "undefined"],
            [0, 0, 0],
            [0.3, 0.2, 0.1],
            params={"threshold": "0.5", "beta": "1"},
        ),
        Case(
            "+inf and -inf scores",
            ["nonfinite-score"],
            [1, 0, 1, 0],
            [INF, INF, -INF, 0.5],
            params={"threshold": "0.5", "beta": "1"},
        ),
        Case(
            "weights",
            ["weights"],
            [1, 0, 1, 0],
            [0.9, 0.8, 0.2, 0.1],
            [0.5, 2.0, 1.0, 0.25],
            params={"threshold": "0.5", "beta": "2"},
        ),
        Case(
            "1 positive among 10^6 negatives",
            ["extreme-skew"],
            _skew_case("top").y_true,
            _skew_case("top").y_score,
            params={"threshold": "0.6", "beta": "1"},
            runs=True,
        ),
    ]
    logits = [
        Case(
            "logits: 0.3 is below 0.5, sigmoid(0.3) is above",
            ["logits"],
            [1, 1, 0, 0],
            [2.0, 0.3, -1.0, 0.2],
            params={"threshold": "0.5", "beta": "1"},
        ),
        Case(
            "logits, beta 2",
            ["logits"],
            [1, 0, 1, 0, 1],
            [2.5, 1.0, -0.5, -2.0, 0.3],
            params={"threshold": "0.5", "beta": "2"},
        ),
    ]
    invalid = [
        Case(
            "NaN score",
            ["invalid-input"],
            [1, 0, 1],
            [0.9, float("nan"), 0.1],
            params={"threshold": "0.5", "beta": "1"},
            intent="invalid",
        ),
        Case(
            "label 2",
            ["invalid-input"],
            [1, 2, 0],
            [0.9, 0.5, 0.1],
            params={"threshold": "0.5", "beta": "1"},
            intent="invalid",
        ),
    ]
    return [
        ("basic", basic),
        ("N3 worked example", n3),
        ("threshold boundary", boundary),
        ("edge cases", edge),
        ("logits", logits),
        ("invalid input", invalid),
    ]


def closed_form_cases(metric: str) -> list[tuple[str, list[Case]]]:
    if metric == "aucpr_min":
        pis = ["1/2", "1/10", "1/3", "0.008", "0.01"]
        limits = ["1e-8", "1e-17", "0.99999999", "1/1000001"]
        return [
            ("skews", [Case(f"pi = {p}", ["basic"], params={"pi": p}) for p in pis]),
            (
                "skew limits",
                [
                    Case(f"pi = {p}", ["skew-limit", "extreme-skew"], params={"pi": p})
                    for p in limits
                ],
            ),
            (
                "undefined",
                [
                    Case(f"pi = {p}", ["skew-limit", "undefined"], params={"pi": p})
                    for p in ["0", "1"]
                ],
            ),
        ]
    if metric == "ap_min":
        pairs = [(1, 1), (3, 5), (100, 200), (1, 1000000), (1000, 10), (20, 80)]
        return [
            (
                "counts",
                [
                    Case(
                        f"pos = {p}, neg = {n}",
                        ["worst-ranking"] + (["extreme-skew"] if n >= 10**6 else []),
                        params={"pos": p, "neg": n},
                    )
                    for p, n in pairs
                ],
            )
        ]
    if metric == "aucnpr":
        rows = [
            ("0.545", "0.008", "B11 mammography"),
            ("0.965", "1/2", "B11 balanced"),
            ("1/2", "1/10", "basic"),
            ("0.999", "1e-8", "extreme skew"),
        ]
        return [
            (
                "values",
                [
                    Case(
                        f"AUCPR = {a}, pi = {p} ({c})",
                        ["basic"] + (["extreme-skew"] if "e-" in p else []),
                        params={"aucpr": a, "pi": p},
                    )
                    for a, p, c in rows
                ],
            ),
            (
                "undefined",
                [
                    Case(f"pi = {p}", ["skew-limit", "undefined"], params={"aucpr": "1/2", "pi": p})
                    for p in ["0", "1"]
                ],
            ),
        ]
    raise KeyError(metric)


def retrieval_cases(with_k: bool) -> list[tuple[str, list[Case]]]:
    """The ranking inputs without sample weights (retrieval metrics count items), at k = 3, plus
    cutoffs 1, n and beyond n (N4)."""
    groups = []
    for name, cases in ranking_cases():
        # graded labels are legal for retrieval metrics: the graded group below tests them
        cases = [c for c in cases if c.comment not in ("label 2", "label -1")]
        kept = [
            Case(
                c.comment,
                c.flags,
                c.y_true,
                c.y_score,
                None,
                {**c.params, "k": 3} if with_k else dict(c.params),
                c.runs,
                c.intent,
            )
            for c in cases
            if c.sample_weight is None
        ]
        if kept:
            groups.append((name, kept))
    graded_reason = (
        "graded relevance labels: relevant iff label >= 1 (trec_eval's default relevance "
        "level; -1 is judged non-relevant); a library for binary labels may refuse them, "
        "which is acceptable"
    )
    k3 = {"k": 3} if with_k else {}
    groups.append(
        (
            "graded relevance",
            [
                Case(
                    "graded labels 0-3",
                    ["graded"],
                    [2, 0, 3, 1, 0, 2, 0, 1],
                    [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2],
                    params={**k3, "relevant_at": 1},
                    intent="acceptable",
                    reason=graded_reason,
                ),
                Case(
                    "graded labels with -1 (judged non-relevant) at the top",
                    ["graded"],
                    [-1, 1, 2, 0, 1],
                    [0.9, 0.8, 0.7, 0.6, 0.5],
                    params={**k3, "relevant_at": 1},
                    intent="acceptable",
                    reason=graded_reason,
                ),
            ],
        )
    )
    if with_k:
        y, s = [1, 0, 1, 1, 0, 0, 1, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.5, 0.4, 0.3]
        groups.append(
            (
                "cutoffs",
                [
                    Case(
                        f"k = {k}", ["basic"] + (["ties"] if k == 5 else []), y, s, params={"k": k}
                    )
                    for k in (1, 5, 8, 12)
                ],
            )
        )
    return groups


def cases_for(metric: str) -> list[tuple[str, list[Case]]]:
    kind = METRICS[metric].kind
    if kind == "closed-form":
        return closed_form_cases(metric)
    if metric == "fbeta_at_threshold":
        y, s = [1, 0, 1, 1, 0, 0, 1, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.5, 0.4, 0.3]
        return [*threshold_cases(), ("extreme beta", _beta_cases(y, s))]
    if metric.endswith("_at_threshold"):
        return threshold_cases()
    if metric in ("precision_at_k", "ap_at_k", "r_precision"):
        return retrieval_cases(metric != "r_precision")
    return ranking_cases()


# ------------------------------------------------------------------------------------------
# evaluation and output


def _encode_outcome(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: [_encode_outcome(e) for e in vals] for k, vals in v.items()}
    if isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], mpmath.mpf):
        return encode_value(v[0], v[1]).to_json()
    return encode_value(v).to_json()


def _outcome(metric: str, x: Inputs, alt: Any = None) -> tuple[str, Any]:
    try:
        return "valid", _encode_outcome(evaluate(metric, x, alt))
    except UndefinedMetricError as exc:
        return "undefined", str(exc)
    except InvalidInputError as exc:
        return "invalid", str(exc)


def build_test(metric: str, tc_id: int, case: Case) -> dict[str, Any]:
    x = case.inputs()
    result, value = _outcome(metric, x)
    acceptable = case.intent == "acceptable"
    if acceptable and result == "valid":  # a value, and a refusal would be defensible too
        result = "acceptable"
    if case.intent is not None and result != case.intent:
        raise AssertionError(
            f"{metric} #{tc_id} ({case.comment}): meant {case.intent}, oracle says {result}: {value}"
        )
    test: dict[str, Any] = {
        "tcId": tc_id,
        "comment": case.comment,
        "flags": sorted(set(case.flags)),
        "inputs": case.encoded_inputs(),
        "result": result,
    }
    if result in ("valid", "acceptable"):
        test["expected"] = value
    else:
        test["reason"] = value
    if acceptable:
        test["reason"] = case.reason
    if result != "invalid":
        alternatives: dict[str, Any] = {}
        for alt in METRICS[metric].alternatives:
            if alt.options.get("ties") == "expected" and (
                case.sample_weight is not None or case.runs
            ):
                # defined for unit weights only; over 10^6 tied items its exact value has
                # hundreds of thousands of digits
                continue
            r, v = _outcome(metric, x, alt)
            if r != "valid":
                continue
            base = combination_base(alt.name, alternatives)
            if base is not None:
                if alternatives[base] == v:
                    continue  # a combination that changes nothing beyond its first stored part
            elif result == "valid" and v == value:
                continue  # a convention that changes nothing here
            # a combination that differs from its first stored part is stored even when it
            # equals the expected value, so that one left out always equals that part
            alternatives[alt.name] = v
        if alternatives:
            test["alternatives"] = alternatives
    return test


TCID_LOCK = VECTOR_DIR / "tcids.json"


def input_key(inputs: dict[str, Any], seen: dict[str, int]) -> str:
    """A test's identity: sha256 (16 hex digits) of its encoded inputs (canonical JSON), with
    ``#n`` appended for the n-th repeat of the same inputs within one metric."""
    text = json.dumps(inputs, sort_keys=True, separators=(",", ":"), allow_nan=False)
    key = hashlib.sha256(text.encode()).hexdigest()[:16]
    seen[key] = seen.get(key, 0) + 1
    return key if seen[key] == 1 else f"{key}#{seen[key]}"


def load_lock(path: Path = TCID_LOCK) -> dict[str, dict[str, str]]:
    """metric -> {tcId: input key} for every test ever published (ids are never reused)."""
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def assign_ids(metric: str, keys: list[str], lock: dict[str, dict[str, str]]) -> list[int]:
    """The tcId of each key: its recorded id, or a new one above every id ever recorded for the
    metric (recorded in ``lock``). Adding, removing or reordering cases renumbers nothing."""
    recorded = lock.setdefault(metric, {})
    by_key = {key: int(tc) for tc, key in recorded.items()}
    next_id = max((int(tc) for tc in recorded), default=0) + 1
    ids = []
    for key in keys:
        if key not in by_key:
            by_key[key] = next_id
            recorded[str(next_id)] = key
            next_id += 1
        ids.append(by_key[key])
    return ids


def build_file(metric: str, lock: dict[str, dict[str, str]]) -> dict[str, Any]:
    spec = METRICS[metric]
    grouped = cases_for(metric)
    seen: dict[str, int] = {}
    keys = [input_key(c.encoded_inputs(), seen) for _, cases in grouped for c in cases]
    ids = iter(assign_ids(metric, keys, lock))
    groups = []
    used_flags: set[str] = set()
    for group_name, cases in grouped:
        tests = []
        for case in cases:
            test = build_test(metric, next(ids), case)
            used_flags.update(test["flags"])
            tests.append(test)
        groups.append({"type": f"{spec.kind}-test", "comment": group_name, "tests": tests})
    notes: dict[str, dict[str, Any]] = {}
    for f in sorted(used_flags):
        bug, description, effect, links = NOTES[f]
        notes[f] = {"bugType": bug, "description": description, "effect": effect}
        if links:
            notes[f]["links"] = list(links)
    return {
        "schema": "schema.json",
        "generator": "prtheory.conformance.generate",
        "generatorVersion": generator_version(),
        "metric": metric,
        "kind": spec.kind,
        "description": spec.description,
        "claims": list(spec.claims),
        "conventions": dict(spec.defaults),
        "alternativeConventions": [a.name for a in spec.alternatives],
        "notes": notes,
        "numberOfTests": len(keys),
        "testGroups": groups,
    }


def dumps(doc: dict[str, Any]) -> str:
    """The canonical text of a vector file (stable key order, one test per few lines)."""
    return json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def build_all(lock: dict[str, dict[str, str]] | None = None) -> dict[str, str]:
    """File name -> canonical text, for every metric, and ``tcids.json`` (the updated lock)."""
    lock = load_lock() if lock is None else lock
    out = {f"{m}.json": dumps(build_file(m, lock)) for m in METRICS}
    out[TCID_LOCK.name] = json.dumps(lock, indent=1, sort_keys=True) + "\n"
    out[large.FILE_NAME] = large.build()
    return out


def main(directory: Path = VECTOR_DIR) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in build_all(load_lock(directory / TCID_LOCK.name)).items():
        path = directory / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":  # pragma: no cover
    for p in main():
        print(p)
