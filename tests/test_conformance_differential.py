"""Differential testing at every size: wrong-at-some-size implementations fail, correct ones pass.

The implementations are those of :mod:`prtheory._testing.adversaries`, each built on a plain
float64 step AP written from the definition. The generated inputs come from SplitMix64, whose
first outputs are checked against the published reference values.
"""

from __future__ import annotations

import numpy as np
import pytest

from prtheory._testing.adversaries import (
    WRONG,
    ap,
    ap_positional_only,
    ap_pure_python,
    ap_ties_input_order,
    exact_at_kit_sizes,
    wrong_on_two_percent,
)
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


@pytest.mark.parametrize(
    ("fn", "max_n"), [(ap, LARGE), (ap_positional_only, 1000), (ap_pure_python, 10_000)]
)
def test_correct_references_pass(fn, max_n):
    report = check(fn, "average_precision", budget=0.0, max_n=max_n)
    assert report.ok, report.summary()


@pytest.mark.slow
@pytest.mark.parametrize("fn", [ap, ap_pure_python], ids=lambda f: f.__name__)
def test_correct_references_pass_at_every_size(fn):
    report = check(fn, "average_precision", budget=0.0)
    assert report.ok, report.summary()
    assert report.differential is not None
    assert max(report.differential.samples) == 10**6


def test_a_declared_convention_is_followed_by_the_reference():
    # ties by input order: wrong under the default conventions on the generated tie blocks ...
    default = check(ap_ties_input_order, "average_precision", budget=0.0, max_n=1000)
    assert default.differential is not None
    assert default.differential.kinds.get("wrong")
    # ... right when declared: the reference ranks ties in input order too
    declared = check(
        ap_ties_input_order,
        "average_precision",
        ["ties=input-order"],
        budget=0.0,
        max_n=LARGE,
    )
    assert declared.ok, declared.summary()


def test_a_convention_the_reference_cannot_follow_leaves_the_test_not_run():
    report = check(ap, "average_precision", ["ties=expected"], budget=0.0, max_n=1000)
    assert report.differential is not None
    assert "ties=expected" in str(report.differential.not_run)
    assert not report.ok  # not run is not passed ...
    opted = check(
        ap, "average_precision", ["ties=expected"], budget=0.0, max_n=1000, skip=["differential"]
    )
    assert opted.differential is not None
    assert opted.differential.not_run is not None  # ... unless opted out by name
