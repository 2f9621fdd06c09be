"""Deliberately wrong AP implementations, and correct but unusual ones, for the conformance kit's
own tests (``tests/test_conformance_differential.py`` through ``check()``,
``tests/test_conformance_gate.py`` through ``prtheory conformance --adapter``).

Every one is built on :func:`ap`, a plain float64 step AP with tied scores grouped written from
the definition (N2: ``sum over distinct scores of (R_k - R_(k-1)) P_k``), independent of
prtheory's float and exact code, and differs from it only where its defect says. The four
size-dependent defects are those of issue 41 (each passed every stored vector).
"""

from __future__ import annotations

import math
import zlib
from types import SimpleNamespace
from typing import Any

import numpy as np

from prtheory.conformance.adapters import Implementation

__all__ = [
    "ADAPTERS",
    "CORRECT",
    "WRONG",
    "ap",
    "ap_positional_only",
    "ap_pure_python",
    "ap_ties_input_order",
    "binned_above_10_4",
    "exact_at_kit_sizes",
    "input_order_above_10_4",
    "quantile_bins_above_1000",
    "wrong_on_two_percent",
]


def _validate(y_true: Any, y_score: Any, sample_weight: Any) -> tuple:
    """Labels as booleans, scores and weights as float64 (weights scaled by a power of two);
    ValueError for malformed input."""
    y = np.asarray(y_true)
    s = np.asarray(y_score, dtype=np.float64)
    w = np.ones(len(s)) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    if not (len(y) == len(s) == len(w) > 0) or np.isnan(s).any():
        raise ValueError("lengths differ, no item, or a NaN score")
    if not np.isin(y, (0, 1)).all() or not (np.isfinite(w).all() and (w >= 0).all()):
        raise ValueError("a label other than 0/1, or a negative or non-finite weight")
    # scaled by a power of two (exact) where the sum overflows (1e308) or every weight is tiny
    # (subnormal weights lose their ratios in float sums); 2^-1074 beside 2^1000 stays as it is
    if w.any() and (not np.isfinite(w.sum()) or w.max() < 2.0**-500):
        w = np.ldexp(w, -np.frexp(w.max())[1])
    return y == 1, s, w


def ap(y_true, y_score, sample_weight=None):
    """Step AP, ties grouped: sum over distinct scores of (R_k - R_(k-1)) P_k, in float64."""
    y, s, w = _validate(y_true, y_score, sample_weight)
    order = np.argsort(-s, kind="stable")
    s, y, w = s[order], y[order], w[order]
    ends = np.r_[np.flatnonzero(s[1:] != s[:-1]), len(s) - 1]  # inf == inf: one block
    tp, fp = np.cumsum(w * y)[ends], np.cumsum(w * ~y)[ends]
    if tp[-1] == 0:
        raise ValueError("no positive weight")
    seen = tp + fp
    precision = np.divide(tp, seen, out=np.zeros_like(tp), where=seen > 0)
    return float(np.sum(np.diff(np.r_[0.0, tp]) / tp[-1] * precision))


def binned_above_10_4(y_true, y_score, sample_weight=None):
    """Scores binned into 1000 equal bins of [0, 1] above 10^4 items (Spark's default)."""
    s = np.asarray(y_score, dtype=np.float64)
    if len(s) > 10**4:
        s = np.floor(np.clip(s, 0, 1) * 1000)
    return ap(y_true, s, sample_weight)


def quantile_bins_above_1000(y_true, y_score, sample_weight=None):
    """Scores replaced by their bin among 100 quantile bins above 1000 items."""
    s = np.asarray(y_score, dtype=np.float64)
    if len(s) > 1000:
        edges = np.quantile(s[np.isfinite(s)], np.linspace(0, 1, 101))
        s = np.searchsorted(edges, s).astype(np.float64)
    return ap(y_true, s, sample_weight)


def input_order_above_10_4(y_true, y_score, sample_weight=None):
    """Tied scores ranked by input order above 10^4 items (a stable sort, then item by item)."""
    s = np.asarray(y_score, dtype=np.float64)
    if len(s) > 10**4:
        order = np.argsort(-s, kind="stable")
        s = np.empty(len(s))
        s[order] = -np.arange(len(s), dtype=np.float64)
    return ap(y_true, s, sample_weight)


def ap_ties_input_order(y_true, y_score, sample_weight=None):
    """AP with tied scores ranked by input order (a stable sort, then item by item): correct
    for an implementation that declares ``ties=input-order``."""
    s = _validate(y_true, y_score, sample_weight)[1]
    order = np.argsort(-s, kind="stable")
    ranks = np.empty(len(s))
    ranks[order] = -np.arange(len(s), dtype=np.float64)
    return ap(y_true, ranks, sample_weight)


def exact_at_kit_sizes(y_true, y_score, sample_weight=None):
    """Right at the stored vectors' sizes (1 to 8 and 10^6 + 1), 1e-9 too high elsewhere."""
    value = ap(y_true, y_score, sample_weight)
    return value if len(y_true) <= 8 or len(y_true) == 10**6 + 1 else value * (1 + 1e-9)


def wrong_on_two_percent(y_true, y_score, sample_weight=None):
    """Off by 1e-6 on the inputs whose CRC32 of the scores is 0 mod 50 (2 % of them)."""
    value = ap(y_true, y_score, sample_weight)
    crc = zlib.crc32(np.asarray(y_score, dtype=np.float64).tobytes())
    return value + 1e-6 if crc % 50 == 0 else value


def ap_positional_only(y_true, y_score, sample_weight=None, /):
    """:func:`ap` with positional-only parameters."""
    return ap(y_true, y_score, sample_weight)


def ap_pure_python(y_true, y_score, sample_weight=None):
    """Lists and a loop: sort by score, one operating point per distinct score; NaN (a
    documented choice) without positive weight."""
    weights = [float(w) for w in _validate(y_true, y_score, sample_weight)[2]]
    items = sorted(
        zip([float(s) for s in y_score], [int(t) for t in y_true], weights, strict=True),
        key=lambda item: -item[0],
    )
    pos = math.fsum(w for _, t, w in items if t == 1)
    if pos == 0:
        return math.nan
    total = tp = fp = previous_tp = 0.0
    for i, (score, label, w) in enumerate(items):
        tp, fp = (tp + w, fp) if label == 1 else (tp, fp + w)
        if (i + 1 == len(items) or items[i + 1][0] != score) and tp + fp > 0:
            total += (tp - previous_tp) / pos * tp / (tp + fp)
            previous_tp = tp
    return total


WRONG = (binned_above_10_4, quantile_bins_above_1000, input_order_above_10_4, exact_at_kit_sizes)
CORRECT = (ap, ap_positional_only, ap_pure_python)


def _adapter_of(fn: Any) -> Any:
    """A zero-argument adapter (``prtheory conformance --adapter``) running ``fn`` as AP."""

    def adapter() -> list[Implementation]:
        run = lambda x: fn(x.y_true, x.y_score, x.sample_weight)  # noqa: E731
        return [Implementation("adversary", fn.__name__, "average_precision", run)]

    return adapter


#: ``--adapter prtheory._testing.adversaries:ADAPTERS.<function name>``
ADAPTERS = SimpleNamespace(**{f.__name__: _adapter_of(f) for f in (*WRONG, *CORRECT)})
