"""Divergences on generated inputs are named by the bins an implementation is called with, as
a stored vector's are (``prtheory.conformance.runner.call_pattern_mechanisms``)."""

from __future__ import annotations

import numpy as np

from prtheory.conformance.adapters import Implementation
from prtheory.conformance.runner import run_differential
from prtheory.oracle import average_precision

GRID = (0.0, 0.25, 0.5, 0.75)


def _binned_ap(grid):
    """AP of the scores floored to ``grid`` (each score replaced by the largest threshold not
    above it): the exact oracle on the binned scores, rounded once, so nothing but the bins
    differs from the correct AP."""

    def ap(x):
        s = np.asarray(x.y_score, dtype=np.float64)
        g = np.asarray(grid)
        idx = np.searchsorted(g, s, side="right") - 1
        binned = np.where(idx >= 0, g[np.maximum(idx, 0)], g[0] - 1.0)
        return float(average_precision(x.y_true, binned, x.sample_weight))

    return ap


def _divergence(fn, declared):
    impl = Implementation("mine", "binned AP", "average_precision", fn, binned=declared)
    row = run_differential(impl)
    assert row.verdict.category == "wrong"  # binning on 4 thresholds is wrong on most inputs
    return row.outcome.divergences[0]


def test_a_binned_implementation_is_named_by_its_bins():
    d = _divergence(_binned_ap(GRID), GRID)
    assert "binned(4 thresholds)" in d.mechanisms


def test_bins_other_than_the_declared_ones_are_not_named():
    # the same function declared with thresholds it does not use: the prediction is not its
    # result on the inputs shown, so no name
    d = _divergence(_binned_ap(GRID), (0.0, 0.3, 0.6, 0.9))
    assert not any(m.startswith("binned(") for m in d.mechanisms)
