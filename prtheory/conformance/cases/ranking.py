"""The inputs shared by every ranking metric, in groups, as data.

Each group is a tuple of :class:`~prtheory.conformance.cases.case.Case`; :func:`ranking_cases`
lists them in the order of the vector files. Two groups are built when asked for: the
1-in-10^6 skew cases (:func:`skew_case`, arrays of 10^6 items) and the seeded search
(:func:`searched_cases`, which evaluates the oracle).
"""

from __future__ import annotations

import math
import random

import numpy as np

from prtheory.conformance.cases.case import INF, MAX, SEED, Case, Group
from prtheory.conformance.metrics import Alternative, Inputs, evaluate

__all__ = [
    "BASIC",
    "DTYPES",
    "F32",
    "INVALID",
    "LOGITS",
    "N3_SCORES_A",
    "N3_SCORES_B",
    "N3_TRUTHS",
    "NONFINITE",
    "SCALE",
    "SINGLE",
    "TIES",
    "WEIGHTS",
    "WEIGHT_EXTREMES",
    "count_limit_case",
    "ranking_cases",
    "searched_cases",
    "skew_case",
    "ulps_below_one",
]

# The worked example of the notes on precision and recall (seed 003, claim N3)
N3_TRUTHS = [1, 1, 0, 0, 1, 1, 0, 0]
N3_SCORES_A = [0.95, 0.85, 0.73, 0.62, 0.48, 0.39, 0.12, 0.04]
N3_SCORES_B = [0.55, 0.59, 0.88, 0.97, 0.20, 0.09, 0.43, 0.32]


def ulps_below_one(count: int) -> list[float]:
    """The ``count`` float64 values just below 1.0, one ulp apart, in decreasing order.

    Parameters
    ----------
    count : int
        How many values.

    Returns
    -------
    list of float
        ``nextafter(1, 0)``, then each the float below the one before.

    Examples
    --------
    >>> from prtheory.conformance.cases.ranking import ulps_below_one
    >>> ulps_below_one(2) == [1.0 - 2.0**-53, 1.0 - 2.0**-52]
    True
    """
    values = [math.nextafter(1.0, 0.0)]
    for _ in range(count - 1):
        values.append(math.nextafter(values[-1], 0.0))
    return values


BASIC: tuple[Case, ...] = (
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
)

TIES: tuple[Case, ...] = (
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
    Case("a tied block of positives only", ["ties"], [1, 1, 0, 1, 0], [0.8, 0.8, 0.6, 0.4, 0.4]),
    Case(
        "a tied block of negatives only, then a mixed block",
        ["ties"],
        [0, 0, 1, 0, 1],
        [0.8, 0.8, 0.6, 0.6, 0.1],
    ),
    Case("two mixed blocks", ["ties"], [0, 1, 0, 1, 1, 0], [0.7, 0.7, 0.7, 0.3, 0.3, 0.3]),
    Case("integer scores with ties", ["ties"], [1, 0, 0, 1, 1, 0, 1], [3, 3, 2, 2, 1, 1, 0]),
)

NONFINITE: tuple[Case, ...] = (
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
    Case("-inf below the most negative float", ["nonfinite-score"], [1, 1, 0], [1.0, -MAX, -INF]),
)

SINGLE: tuple[Case, ...] = (
    Case("all positive", ["single-class"], [1, 1, 1], [0.9, 0.5, 0.1]),
    Case("all negative", ["single-class", "undefined"], [0, 0, 0], [0.9, 0.5, 0.1]),
    Case("one positive item", ["single-item"], [1], [0.5]),
    Case("one negative item", ["single-item", "single-class", "undefined"], [0], [0.5]),
)

WEIGHTS: tuple[Case, ...] = (
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
)

F32: tuple[Case, ...] = (
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
)

LOGITS: tuple[Case, ...] = (
    Case("logits in (-3, 3)", ["logits"], [1, 0, 1, 0, 1], [2.5, 1.0, -0.5, -2.0, 0.3]),
    Case(
        "large logits that saturate the sigmoid to 1.0",
        ["logits", "float32-collision"],
        [0, 1, 1, 0],
        [50.0, 40.0, 39.0, -5.0],
    ),
    Case("scores in [0, 1] except one", ["logits"], [0, 1, 1, 0], [0.9, 0.8, 1.5, 0.1]),
)

SCALE: tuple[Case, ...] = (
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
        ulps_below_one(5),
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
)

DTYPES: tuple[Case, ...] = (
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
)

WEIGHT_EXTREMES: tuple[Case, ...] = (
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
)

INVALID: tuple[Case, ...] = (
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
)


def skew_case(position: str, n_neg: int = 10**6) -> Case:
    """One positive among ``n_neg`` negatives tied at score 0.5; the positive above, tied, below.

    Parameters
    ----------
    position : {"top", "tied", "bottom"}
        Where the positive ranks: score 0.75, 0.5 (in the negatives' tie) or 0.25.
    n_neg : int
        How many negatives.

    Returns
    -------
    Case
        Flagged ``extreme-skew`` (and ``ties`` when tied), run-length encoded.

    Examples
    --------
    >>> from prtheory.conformance.cases.ranking import skew_case
    >>> case = skew_case("tied", n_neg=3)
    >>> case.flags, case.y_true.tolist(), case.y_score.tolist()
    (['extreme-skew', 'ties'], [0, 0, 0, 1], [0.5, 0.5, 0.5, 0.5])
    """
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


def count_limit_case(per_class: int) -> Case:
    """``per_class`` positives and as many negatives: all positives but one at 0.75, the
    negatives at 0.5, the last positive at 0.25, so the ROC area is (per_class - 1)/per_class;
    at 46341 per class the product of the class counts, 46341^2 = 2147488281, is past the
    largest 32-bit integer 2^31 - 1 = 2147483647, at 46340 it is not (2147395600).

    Parameters
    ----------
    per_class : int
        Items of each class.

    Returns
    -------
    Case
        Flagged ``count-product-limit``, run-length encoded.

    Examples
    --------
    >>> from prtheory.conformance.cases.ranking import count_limit_case
    >>> case = count_limit_case(2)
    >>> case.y_true.tolist(), case.y_score.tolist()
    ([1, 0, 0, 1], [0.75, 0.5, 0.5, 0.25])
    """
    sizes = [per_class - 1, per_class, 1]
    product = per_class * per_class
    side = "past" if product > 2**31 - 1 else "within"
    return Case(
        f"{per_class} positives and {per_class} negatives: pos * neg = {product}, {side} 2^31 - 1",
        ["count-product-limit"],
        np.repeat([1, 0, 1], sizes),
        np.repeat([0.75, 0.5, 0.25], sizes),
        runs=True,
    )


def searched_cases(count: int = 4) -> list[Case]:
    """Seeded search for rankings on which group, input-order and trec_eval ties all disagree.

    Draws rankings of 3 to 8 items (scores 0, 1/4 and 1/2, so ties are common) from
    ``random.Random(SEED)`` until ``count`` of them give three different average precisions
    under the three tie conventions.

    Parameters
    ----------
    count : int
        How many rankings to find.

    Returns
    -------
    list of Case
        Flagged ``ties`` and ``random-search``; the comment names the try that found each.

    Examples
    --------
    >>> from prtheory.conformance.cases.ranking import searched_cases
    >>> searched_cases(1)[0].flags
    ['ties', 'random-search']
    """
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


def ranking_cases() -> list[Group]:
    """Inputs shared by every ranking metric, in groups, in the order of the vector files.

    Returns
    -------
    list of (str, list of Case)
        The group's name and its cases.

    Examples
    --------
    >>> from prtheory.conformance.cases.ranking import ranking_cases
    >>> [name for name, _ in ranking_cases()][:3]
    ['basic', 'ties', 'nonfinite']
    """
    return [
        ("basic", list(BASIC)),
        ("ties", list(TIES)),
        ("nonfinite", list(NONFINITE)),
        ("single-class and single-item", list(SINGLE)),
        ("weights", list(WEIGHTS)),
        ("extreme skew", [skew_case("top"), skew_case("tied"), skew_case("bottom")]),
        ("float32 collisions", list(F32)),
        ("logits", list(LOGITS)),
        ("invalid input", list(INVALID)),
        ("random search", searched_cases()),
        ("scale and ulp", list(SCALE)),
        ("weight extremes", list(WEIGHT_EXTREMES)),
        ("dtypes as users pass them", list(DTYPES)),
    ]
