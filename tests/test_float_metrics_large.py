"""The float64 metrics equal the exact oracle, correctly rounded, past 10^4 items too.

The conformance kit's differential tests (:mod:`prtheory.conformance.differential`) take
``prtheory``'s float metrics as their reference at every size up to 10^6 items, on the ground
that those equal the oracle's exact value rounded. The property tests check that up to 80 items,
and one test checks AP at 10^5 without weights; so a float metric wrong only on long inputs
with weights (or only on long tie blocks) would pass them, and become the reference that judges
every library. Here each float metric the differential tests use (``average_precision``,
``pr_auc(method="trapezoid")`` from each first point, ``roc_auc``, ``precision_recall_curve``)
is compared, bit for bit, with ``float()`` of the oracle's ``Fraction`` (CPython rounds a
``Fraction`` correctly) on inputs of 2 x 10^4, 10^5 and 10^6 items: long tie blocks with mixed
labels, ±0.0, ±inf and ±MAX scores, and unit, integer, uniform float and wide-ranging float
weights (2^-40 to 2^40, zeros among them). The mutants are implementations right up to 10^4
items and wrong beyond (float32 weights, ties broken in input order, 1000 score bins); each must
be caught.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import prtheory
from prtheory import oracle
from prtheory._testing.frames import wide_weights

MAX = np.finfo(np.float64).max
FIRST_POINTS = ("none", "sklearn", "spark")


def _input(n: int, distinct: int, weights: str, seed: int) -> tuple[Any, Any, Any]:
    """``n`` items on ``distinct`` score levels (long tie blocks, mixed labels), with ±0.0,
    ±inf and ±MAX among the scores, and weights of the kind named."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = rng.integers(0, distinct, n) / distinct - 0.5
    special = rng.choice(n, 12, replace=False)
    s[special] = [0.0, -0.0, 0.0, -0.0, math.inf, -math.inf, MAX, -MAX, math.inf, MAX, 0.0, -0.0]
    w = {
        "unit": None,
        "integer": rng.integers(0, 1000, n).astype(np.float64),
        "uniform": rng.random(n),
        "wide": wide_weights(rng, n),
    }[weights]
    return y, s, w


def _same(a: float, b: float) -> bool:
    return a.hex() == b.hex()


def _curve_points(fn: Callable[..., Any], y: Any, s: Any, w: Any) -> list[tuple[float, float]]:
    """(precision, recall) by decreasing threshold, without the appended (recall 0) point."""
    c = fn(y, s, sample_weight=w)
    return list(zip(c.precision[-2::-1].tolist(), c.recall[-2::-1].tolist(), strict=True))


def _exact_curve_points(y: Any, s: Any, w: Any) -> list[tuple[float, float]]:
    """The oracle's curve, items of weight 0 dropped first (the float curve's documented
    convention, scikit-learn's)."""
    if w is not None:
        kept = np.asarray(w) > 0
        y, s, w = y[kept], s[kept], w[kept]
    c = oracle.pr_curve(y, s, w)
    return [(float(c.precision[i]), float(c.recall[i])) for i in range(len(c.thresholds))]


def mismatches(
    metrics: dict[str, Callable[..., Any]], cases: list[tuple[int, int, str]]
) -> list[str]:
    """Where ``metrics`` (the float functions, keyed ``ap``, ``trapezoid``, ``roc``, ``curve``)
    differ from the correctly rounded exact value, on the inputs ``cases`` (n, distinct score
    levels, weights); stops at the first mismatch of each metric."""
    found: list[str] = []
    for name, fn in metrics.items():
        for seed, (n, distinct, weights) in enumerate(cases):
            y, s, w = _input(n, distinct, weights, seed)
            if name == "ap":
                ok = _same(fn(y, s, sample_weight=w), float(oracle.average_precision(y, s, w)))
            elif name == "roc":
                ok = _same(fn(y, s, sample_weight=w), float(oracle.roc_auc(y, s, w)))
            elif name == "trapezoid":
                ok = all(
                    _same(
                        fn(y, s, sample_weight=w, method="trapezoid", first_point=fp),
                        float(oracle.pr_auc(y, s, w, method="trapezoid", first_point=fp)),
                    )
                    for fp in FIRST_POINTS
                )
            else:
                ok = _curve_points(fn, y, s, w) == _exact_curve_points(y, s, w)
            if not ok:
                found.append(f"{name} at n={n}, {distinct} scores, {weights} weights")
                break
    return found


PRTHEORY = {
    "ap": prtheory.average_precision,
    "trapezoid": prtheory.pr_auc,
    "roc": prtheory.roc_auc,
    "curve": prtheory.precision_recall_curve,
}

CASES = [
    (20_000, 500, "unit"),
    (20_000, 500, "integer"),
    (20_000, 500, "uniform"),
    (20_000, 500, "wide"),
    (100_000, 1000, "wide"),
]


def test_float_metrics_equal_the_exact_value_past_ten_thousand_items():
    assert mismatches(PRTHEORY, CASES) == []


def test_ap_and_roc_equal_the_exact_value_at_a_million_items():
    big = {k: PRTHEORY[k] for k in ("ap", "roc")}
    assert mismatches(big, [(1_000_000, 50, "wide")]) == []


# ------------------------------------------------------------------------------------------
# mutants: right up to 10^4 items, wrong beyond


def _past(n: int, change: Callable[[Any, Any, Any], tuple[Any, Any, Any]]) -> Any:
    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        def mutant(y: Any, s: Any, sample_weight: Any = None, **kw: Any) -> Any:
            if len(y) > n:
                y, s, sample_weight = change(y, s, sample_weight)
            return fn(y, s, sample_weight=sample_weight, **kw)

        return mutant

    return wrap


def _float32_weights(y: Any, s: Any, w: Any) -> tuple[Any, Any, Any]:
    return y, s, None if w is None else np.asarray(w, np.float32).astype(np.float64)


def _input_order_ties(y: Any, s: Any, w: Any) -> tuple[Any, Any, Any]:
    order = np.lexsort((np.arange(len(s)), -np.asarray(s)))  # by score, ties in input order
    rank = np.empty(len(s))
    rank[order] = -np.arange(len(s), dtype=np.float64)
    return y, rank, w


def _binned(y: Any, s: Any, w: Any) -> tuple[Any, Any, Any]:
    return y, np.floor(np.clip(np.asarray(s), -1, 1) * 500) / 500, w


@pytest.mark.parametrize("change", [_float32_weights, _input_order_ties, _binned])
def test_a_metric_wrong_only_past_ten_thousand_items_is_caught(change):
    mutants = {name: _past(10_000, change)(fn) for name, fn in PRTHEORY.items()}
    assert mismatches(mutants, [c for c in CASES if c[0] <= 10_000] + [(5_000, 500, "wide")]) == []
    assert len(mismatches(mutants, CASES)) == len(PRTHEORY)
