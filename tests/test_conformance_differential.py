"""Differential testing at every size: wrong-at-some-size implementations fail, correct ones pass.

Every implementation here is built on ``_ap``, a plain float64 step AP with tied scores grouped
(written from the definition N2, independent of prtheory's float and exact code), and differs
from it only where its defect says. The generated inputs come from SplitMix64, whose first
outputs are checked against the published reference values.
"""

from __future__ import annotations

import math
import zlib

import numpy as np
import pytest

from prtheory.conformance import check
from prtheory.conformance import differential as diff
from prtheory.conformance.sampling import FAMILIES, draws, sample


def test_the_stream_is_splitmix64():
    # the first outputs of Vigna's splitmix64.c seeded with 1234567 (its published test values)
    assert draws(1234567, 5).tolist() == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]


def test_the_families_hold_what_they_promise():
    mx = np.finfo(np.float64).max
    for family in FAMILIES:
        s = sample(7, family, 3000)
        assert s.y_true[0] == 1
        assert s.y_true[1] == 0  # both classes, always
        if family.scores == "blocks":  # tied blocks of about 100 items with mixed labels
            levels, counts = np.unique(s.y_score, return_counts=True)
            assert len(levels) == 30
            assert counts.min() > 50
        if family.scores == "extremes":  # signed zeros and the infinities beside +-MAX
            zeros = s.y_score[s.y_score == 0]
            assert set(np.signbit(zeros)) == {True, False}
            assert {np.inf, -np.inf, mx, -mx, np.nextafter(mx, 0)} <= set(s.y_score)
        if family.weights == "spread":
            w = s.sample_weight[s.sample_weight > 0]
            assert w.min() < 2.0**-900
            assert w.max() > 2.0**900
        if family.weights == "fraction":  # not integers: rounding them changes the value
            assert (s.sample_weight % 1 != 0).mean() > 0.3
    # the same seed, family and size give the same input, bit for bit
    a, b = sample(11, FAMILIES[2], 500), sample(11, FAMILIES[2], 500)
    assert a.y_score.tobytes() == b.y_score.tobytes()


def _validate(y_true, y_score, sample_weight):
    y = np.asarray(y_true)
    s = np.asarray(y_score, dtype=np.float64)
    w = np.ones(len(s)) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    if not (len(y) == len(s) == len(w) > 0) or np.isnan(s).any():
        raise ValueError("lengths differ, no item, or a NaN score")
    if not np.isin(y, (0, 1)).all() or not (np.isfinite(w).all() and (w >= 0).all()):
        raise ValueError("a label other than 0/1, or a negative or non-finite weight")
    if w.any():  # scaled by a power of two (exact) so that sums of 1e308 do not overflow
        w = np.ldexp(w, -np.frexp(w.max())[1])
    return y == 1, s, w


def _ap(y_true, y_score, sample_weight=None):
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


# ------------------------------------------------------------------------------------------
# the four size-dependent defects of issue 41, and one wrong on a fraction of inputs


def binned_above_10_4(y_true, y_score, sample_weight=None):
    """Scores binned into 1000 equal bins of [0, 1] above 10^4 items (Spark's default)."""
    s = np.asarray(y_score, dtype=np.float64)
    if len(s) > 10**4:
        s = np.floor(np.clip(s, 0, 1) * 1000)
    return _ap(y_true, s, sample_weight)


def quantile_bins_above_1000(y_true, y_score, sample_weight=None):
    """Scores replaced by their bin among 100 quantile bins above 1000 items."""
    s = np.asarray(y_score, dtype=np.float64)
    if len(s) > 1000:
        edges = np.quantile(s[np.isfinite(s)], np.linspace(0, 1, 101))
        s = np.searchsorted(edges, s).astype(np.float64)
    return _ap(y_true, s, sample_weight)


def input_order_above_10_4(y_true, y_score, sample_weight=None):
    """Tied scores ranked by input order above 10^4 items (a stable sort, then item by item)."""
    s = np.asarray(y_score, dtype=np.float64)
    if len(s) > 10**4:
        order = np.argsort(-s, kind="stable")
        s = np.empty(len(s))
        s[order] = -np.arange(len(s), dtype=np.float64)
    return _ap(y_true, s, sample_weight)


def exact_at_kit_sizes(y_true, y_score, sample_weight=None):
    """Right at the stored vectors' sizes (1 to 8 and 10^6 + 1), 1e-9 too high elsewhere."""
    value = _ap(y_true, y_score, sample_weight)
    return value if len(y_true) <= 8 or len(y_true) == 10**6 + 1 else value * (1 + 1e-9)


def wrong_on_two_percent(y_true, y_score, sample_weight=None):
    """Off by 1e-6 on the inputs whose CRC32 of the scores is 0 mod 50 (2 % of them)."""
    value = _ap(y_true, y_score, sample_weight)
    crc = zlib.crc32(np.asarray(y_score, dtype=np.float64).tobytes())
    return value + 1e-6 if crc % 50 == 0 else value


WRONG = (binned_above_10_4, quantile_bins_above_1000, input_order_above_10_4, exact_at_kit_sizes)


# round 0 up to 10^5 items reaches each defect: distinct scores at 31623 items, tie blocks at 10^5
LARGE = 100_000


@pytest.mark.parametrize("fn", WRONG, ids=lambda f: f.__name__)
def test_size_dependent_defects_fail_check(fn):
    report = check(fn, "average_precision", budget=0.0, max_n=LARGE)
    # the stored vectors cannot see these defects ...
    assert not report.failures, report.summary()
    # ... the generated inputs do, and the failure is shrunk to a reproducible input
    assert not report.ok
    d = report.differential
    assert d is not None
    assert d.diverging, d.summary()
    shown = d.divergences[0]
    assert len(shown.shrunk.y_true) <= shown.spec.n
    assert diff.distance(shown.shrunk_got, shown.shrunk_expected, False) > 8 + 2 * len(
        shown.shrunk.y_true
    )
    assert f"seed {diff.DEFAULT_SEED}" in report.summary()


def test_a_defect_on_two_percent_of_inputs_is_found_within_the_budget():
    # round r draws 5 * 8 inputs of at most 1000 items, each wrong with probability 1/50:
    # missed by 10 rounds with probability (49/50)^400 < 3e-4
    report = check(wrong_on_two_percent, "average_precision", budget=30.0, max_n=1000)
    assert report.differential is not None
    assert report.differential.diverging


def test_the_exact_at_kit_sizes_defect_shrinks_to_a_small_input():
    report = check(exact_at_kit_sizes, "average_precision", budget=0.0, max_n=1000)
    assert report.differential is not None
    # any input of more than 8 items is wrong: the shrink stops at 9
    assert len(report.differential.divergences[0].shrunk.y_true) == 9


def ap_positional_only(y_true, y_score, sample_weight=None, /):
    return _ap(y_true, y_score, sample_weight)


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


@pytest.mark.parametrize(
    ("fn", "max_n"), [(_ap, LARGE), (ap_positional_only, 1000), (ap_pure_python, 10_000)]
)
def test_correct_references_pass(fn, max_n):
    report = check(fn, "average_precision", budget=0.0, max_n=max_n)
    assert report.ok, report.summary()


@pytest.mark.slow
@pytest.mark.parametrize("fn", [_ap, ap_pure_python], ids=lambda f: f.__name__)
def test_correct_references_pass_at_every_size(fn):
    report = check(fn, "average_precision", budget=0.0)
    assert report.ok, report.summary()
    assert report.differential is not None
    assert max(report.differential.samples) == 10**6
