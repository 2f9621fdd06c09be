"""Differential testing at every size: wrong-at-some-size implementations fail, correct ones pass.

The implementations are those of :mod:`prtheory._testing.adversaries`, each built on a plain
float64 implementation of its metric written from the definition. The generated inputs come from
SplitMix64, whose first outputs are checked against the published reference values. The
adversaries that are wrong on a fraction of the inputs of some sizes run under the default plan
(no budget, no ``max_n``): they test the guarantee of :mod:`prtheory.conformance.differential`.
"""

from __future__ import annotations

import numpy as np
import pytest

import prtheory
from prtheory._testing.adversaries import (
    BASES,
    CONDITIONS,
    MASKED,
    UNWEIGHTED,
    WRONG,
    ap,
    ap_positional_only,
    ap_pure_python,
    ap_ties_input_order,
    binned,
    defective,
    exact_at_kit_sizes,
    rounded_weights,
    ties_input_order,
)
from prtheory.conformance import check
from prtheory.conformance import differential as diff
from prtheory.conformance.metrics import Inputs
from prtheory.conformance.predictions import Mechanism, scalar
from prtheory.conformance.sampling import FAMILIES, draws, sample
from prtheory.conformance.vectors_io import Vector


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
    report = check(fn, "average_precision", per_decade=0, max_n=LARGE)
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


def test_the_plan_per_decade_is_the_least_that_gives_the_guarantee():
    # 0.99^m <= 10^-6 first at m = 1375: ln 10^-6 / ln 0.99 = 1374.62 (exact comparison of
    # integers: 0.99^m <= 10^-6 iff 99^m 10^6 <= 100^m)
    assert diff.PER_DECADE == 1375
    assert 99**1375 * 10**6 <= 100**1375
    assert 99**1374 * 10**6 > 100**1374
    # the bulk: 1375 inputs in every decade, the sizes inside it, interleaved decade by decade
    specs = diff.bulk_specs(1, FAMILIES, diff.PER_DECADE, None)
    assert len(specs) == 5 * 1375
    assert [s.n for s in specs[:5]] == [10, 100, 1000, 10_000, 100_000]
    for d, (lo, hi) in enumerate(diff.DECADES):
        sizes = [s.n for s in specs[d::5]]
        assert lo <= min(sizes) <= max(sizes) <= hi
    assert len({s.n for s in specs[0::5]}) == 90  # every size of 10..99 in turn
    assert len({s.seed for s in specs}) == len(specs)


# (rate 1 in every, lowest and highest size, condition): the adversaries of the guarantee, each
# wrong on at least 1 % of the inputs of some decade of sizes: 1 % of one decade, for each
# decade; 1 % above 2000 items; 2 % of 10^5 to 10^6 items; and, at every size, 1 in 50 of the
# inputs with tied scores (4 of the 8 families have ties: blocks, extremes, blocks-fraction,
# extremes-spread; 4/8 x 1/50 = 1 %) and 1 in 37 of those with a weight that is not an integer
# (3 of 8: blocks-fraction, extremes-spread, distinct-spread; 3/8 x 1/37 = 1.01 %). The default
# tier runs every defect on AP and the cheapest on the other metrics (a defect among the smallest
# sizes is met after some 100 turns of the interleaved plan, 10^5 items each turn).
RATES = [
    *[(100, lo, hi, "any", f"1%-at-{lo}-to-{hi}") for lo, hi in diff.DECADES],
    (100, 2001, 10**6, "any", "1%-above-2000"),
    (50, 10**5, 10**6, "any", "2%-at-1e5-to-1e6"),
    (50, 10, 10**6, "ties", "1%-with-ties"),
    (37, 10, 10**6, "fraction-weights", "1%-with-fraction-weights"),
]
DEFECTS = [
    pytest.param(metric, every, lo, hi, when, id=f"{metric}-{name}", marks=marks)
    for metric in BASES
    for every, lo, hi, when, name in RATES
    if not (metric in UNWEIGHTED and when == "fraction-weights")
    for marks in [
        ()
        if metric == "average_precision" or (lo == 2001 and metric not in UNWEIGHTED)
        else pytest.mark.slow
    ]
]


def test_the_conditions_hold_on_the_families_the_rates_count():
    # ties: exactly the blocks and extremes families; a non-integer weight: exactly the fraction
    # and spread families (at 10 items, the smallest size drawn, and at 1000)
    for n in (10, 1000):
        for family in FAMILIES:
            s = sample(3, family, n)
            ties = CONDITIONS["ties"](s.y_score, s.sample_weight)
            assert ties == (family.scores in ("blocks", "extremes")), family
            fraction = CONDITIONS["fraction-weights"](s.y_score, s.sample_weight)
            assert fraction == (family.weights in ("fraction", "spread")), family
    assert sum(f.scores in ("blocks", "extremes") for f in FAMILIES) == 4
    assert sum(f.weights in ("fraction", "spread") for f in FAMILIES) == 3


@pytest.mark.parametrize(("metric", "every", "lo", "hi", "when"), DEFECTS)
def test_a_defect_on_a_fraction_of_inputs_fails_under_the_default_plan(metric, every, lo, hi, when):
    fn = defective(BASES[metric], every, lo, hi, when)
    report = check(fn, metric)
    d = report.differential
    assert d is not None
    assert d.worst == "wrong", d.summary()
    found = d.divergences[0]
    assert lo <= found.spec.n <= hi
    x = sample(found.spec.seed, found.spec.family, found.spec.n)
    assert CONDITIONS[when](x.y_score, x.sample_weight)
    assert not report.ok


STRUCTURAL = [binned, ties_input_order, rounded_weights]


@pytest.mark.parametrize(
    ("metric", "make"),
    [
        pytest.param(metric, make, id=f"{make.__name__}-{metric}")
        for metric in BASES
        for make in STRUCTURAL
        if not (metric in UNWEIGHTED and make is rounded_weights)  # no weights to round
    ],
)
def test_defects_of_ties_and_weights_fail_in_round_0(metric, make):
    d = check(make(BASES[metric]), metric, per_decade=0).differential
    assert d is not None
    assert d.worst == "wrong", d.summary()
    found = d.divergences[0].spec
    x = sample(found.seed, found.family, found.n)
    condition = {
        binned: found.n > 10**4,
        ties_input_order: CONDITIONS["ties"](x.y_score, x.sample_weight),
        rounded_weights: CONDITIONS["fraction-weights"](x.y_score, x.sample_weight),
    }[make]
    assert condition


@pytest.mark.parametrize("metric", list(BASES))
def test_correct_references_of_every_metric_pass_the_bulk(metric):
    # 4 x 200 inputs up to 10^4 items with no false alarm (the whole plan: the slow tier)
    report = check(BASES[metric], metric, max_n=10**4, per_decade=200)
    d = report.differential
    assert d is not None
    assert d.ok, d.summary()
    assert [m for *_, m, _ in d.bounds()] == [200] * 4 + [0]


@pytest.mark.slow
@pytest.mark.parametrize("metric", list(BASES))
def test_correct_references_of_every_metric_pass_the_whole_plan(metric):
    d = check(BASES[metric], metric).differential
    assert d is not None
    assert d.ok, d.summary()
    assert [m for *_, m, _ in d.bounds()] == [diff.PER_DECADE] * 5
    assert max(p for *_, p in d.bounds()) < diff.MISS


def test_the_ranking_bases_equal_the_oracle():
    # the bases of P@k, R-precision and AP@k (expected ties) are written from the definitions,
    # apart from prtheory.oracle.retrieval: on 2000 random tie-heavy inputs of 1 to 29 items,
    # k up to 3 past the last item, P@k and R-precision (one integer division) are the
    # oracle's value correctly rounded, AP@k within 2 ulps (a float sum of its terms)
    import math

    from prtheory.oracle import retrieval

    rng = np.random.default_rng(5)
    for _ in range(2000):
        n = int(rng.integers(1, 30))
        y, s, k = rng.integers(0, 2, n), rng.integers(0, 4, n) / 4, int(rng.integers(1, n + 4))
        assert BASES["precision_at_k"](y, s, k) == float(retrieval.precision_at_k(y, s, k))
        if y.any():
            assert BASES["r_precision"](y, s) == float(retrieval.r_precision(y, s))
            want = float(retrieval.ap_at_k(y, s, k))
            assert abs(BASES["ap_at_k"](y, s, k) - want) <= 2 * math.ulp(want)


def test_a_ranking_metric_wrong_only_past_ten_thousand_items_fails_check():
    # before the ranking metrics had a reference, check() called these conforming: the
    # differential test was not run, and the stored vectors hold at most a few items
    for metric in UNWEIGHTED:
        assert check(BASES[metric], metric, per_decade=0, max_n=LARGE).differential.ok
        report = check(binned(BASES[metric]), metric, per_decade=0, max_n=LARGE)
        assert not report.ok, report.summary()
        shown = report.differential.divergences[0]
        assert shown.spec.n > 10**4
        assert shown.conventions == ()  # binning is no named convention


@pytest.mark.parametrize("fn", MASKED, ids=lambda f: f.__name__)
def test_a_rejection_does_not_hide_a_defect_of_larger_inputs(fn):
    # the run used to stop at the first divergence of any kind but float32: an AP that rejects
    # ±inf (met at 10 items) and bins above 10^4 items was reported as rejecting only, a kind
    # the gate's default --fail-on does not count
    d = check(fn, "average_precision", per_decade=0, max_n=LARGE).differential
    assert d is not None
    assert d.worst == "wrong", d.summary()
    assert d.kinds["rejected-valid"] >= 1
    wrong = next(x for x in d.divergences if x.kind == "wrong")
    assert wrong.spec.n > 10**4


def test_a_round_that_runs_out_of_cpu_is_not_run_never_a_pass(monkeypatch):
    # slow from 1000 items (a busy loop of 0.3 s per call) and binned above 10^4 items: with
    # round 0's budget spent before 10^4 items, the large inputs are "not run (time)", which
    # the gate's --fail-on time counts; the outcome is not ok
    import time

    from prtheory.conformance import runner
    from prtheory.conformance.adapters import Implementation

    slow_binned = binned(ap)

    def run(x):
        if len(x.labels) >= 1000:
            end = time.process_time() + 0.3
            while time.process_time() < end:
                pass
        return slow_binned(x.y_true, x.y_score, x.sample_weight)

    monkeypatch.setattr(runner, "ROUND0_CPU", 1.0)
    row = runner.run_differential(Implementation("slow", "slow", "average_precision", run))
    assert row.verdict.category == "timeout", row.verdict.detail
    assert not row.outcome.ok
    cut = row.outcome.round_cut
    assert cut is not None
    assert 1000 <= cut <= 10**4
    assert f"not run from {cut} items" in row.verdict.detail
    assert "cut short by its CPU budget" in row.outcome.summary()
    # without the budget the same implementation is found wrong
    monkeypatch.setattr(runner, "ROUND0_CPU", None)
    assert (
        runner.run_differential(
            Implementation("slow", "slow", "average_precision", run)
        ).verdict.category
        == "wrong"
    )


def test_a_budget_cuts_the_bulk_short_and_says_so():
    d = check(ap, "average_precision", budget=0.5, max_n=10**4).differential
    assert d is not None
    assert d.ok
    assert d.cut_short
    assert "cut short by the budget" in d.summary()
    assert 0 < sum(d.bulk.values()) < 4 * diff.PER_DECADE


def test_the_exact_at_kit_sizes_defect_shrinks_to_a_small_input():
    report = check(exact_at_kit_sizes, "average_precision", per_decade=0, max_n=1000)
    assert report.differential is not None
    # any input of more than 8 items is wrong: the shrink stops at 9
    assert len(report.differential.divergences[0].shrunk.y_true) == 9


@pytest.mark.parametrize(
    ("fn", "max_n"), [(ap, LARGE), (ap_positional_only, 1000), (ap_pure_python, 10_000)]
)
def test_correct_references_pass(fn, max_n):
    report = check(fn, "average_precision", per_decade=0, max_n=max_n)
    assert report.ok, report.summary()


@pytest.mark.slow
@pytest.mark.parametrize("fn", [ap, ap_pure_python], ids=lambda f: f.__name__)
def test_correct_references_pass_at_every_size(fn):
    report = check(fn, "average_precision", per_decade=0)
    assert report.ok, report.summary()
    assert report.differential is not None
    assert max(report.differential.samples) == 10**6


def test_a_declared_convention_is_followed_by_the_reference():
    # ties by input order: wrong under the default conventions on the generated tie blocks ...
    default = check(ap_ties_input_order, "average_precision", per_decade=0, max_n=1000)
    assert default.differential is not None
    assert default.differential.kinds.get("wrong")
    # ... and the divergence names the convention that gives its values on both inputs shown,
    # the drawn one and the shrunk one (a convention must fit both to be named)
    shown = default.differential.divergences[0]
    assert shown.conventions == ("ties=input-order",), shown.conventions
    assert "returned what the named convention `ties=input-order` gives, on both inputs" in (
        default.summary()
    )
    # ... right when declared: the reference ranks ties in input order too
    declared = check(
        ap_ties_input_order,
        "average_precision",
        ["ties=input-order"],
        per_decade=0,
        max_n=LARGE,
    )
    assert declared.ok, declared.summary()


def test_a_convention_the_reference_cannot_follow_leaves_the_test_not_run():
    report = check(ap, "average_precision", ["ties=expected"], per_decade=0, max_n=1000)
    assert report.differential is not None
    assert "ties=expected" in str(report.differential.not_run)
    assert not report.ok  # not run is not passed ...
    opted = check(
        ap, "average_precision", ["ties=expected"], per_decade=0, max_n=1000, skip=["differential"]
    )
    assert opted.differential is not None
    assert opted.differential.not_run is not None  # ... unless opted out by name


def test_an_emulation_is_asked_only_up_to_naming_max_and_names_the_shrunk_input_alone():
    # the implementation returns 1/7 wherever the first score of round 0's first drawn input of
    # 3162 items is among the scores (else the exact area): the first divergence is that input,
    # shrunk to a few items holding that score. A mechanism predicting 1/7 there, not of
    # AT_ANY_SIZE, is never asked about more than NAMING_MAX items, and is named on the shrunk
    # input alone; one predicting it only above NAMING_MAX items is never named
    families = tuple(f for f in diff.FAMILIES if f.weights == "none")
    first = next(s for s in diff.round_specs(diff.DEFAULT_SEED, families, None) if s.n == 3162)
    marker = sample(first.seed, first.family, first.n).y_score[0]

    def call(x: Inputs) -> float:
        return 1 / 7 if marker in x.scores else float(prtheory.roc_auc(x.labels, x.scores))

    asked: list[int] = []

    def predict(v: Vector):
        asked.append(len(v.inputs.labels))
        return scalar(1 / 7) if marker in v.inputs.scores else None

    emulated = Mechanism("emulated", "1/7 where the marker is", predict)
    large_only = Mechanism(
        "large-only",
        "1/7 above NAMING_MAX items",
        lambda v: scalar(1 / 7) if len(v.inputs.labels) > diff.NAMING_MAX else None,
    )
    out = diff.run("roc_auc", call, weighted=False, per_decade=0, mechanisms=[emulated, large_only])
    (d,) = out.divergences
    assert d.spec == first
    assert len(d.shrunk.labels) <= diff.NAMING_MAX
    assert asked
    assert max(asked) <= diff.NAMING_MAX
    assert (d.mechanisms, d.mechanisms_shrunk) == ((), ("emulated",))
    shown = "returned what the mechanism `emulated` predicts, on the shrunk input (the drawn one"
    assert shown in diff.describe(d)
    assert "large-only" not in diff.describe(d)


def test_a_wrong_float64_result_names_a_mechanism_computed_in_float32():
    # a float64 implementation returning 1/7 rounded to float32 (1/7 is 2.1e7 float64 ulps away,
    # about one float32 ulp): a mechanism predicting 1/7 is named "to float32 precision"; one
    # predicting 1/7 + 1/1000 is not; the same mechanism names an exact 1/7 without that
    def always(name: str, value: float) -> Mechanism:
        return Mechanism(name, name, lambda v: scalar(value))

    pool = [always("seventh", 1 / 7), always("off", 1 / 7 + 1e-3)]
    in_float32 = float(np.float32(1 / 7))
    out = diff.run("roc_auc", lambda x: in_float32, weighted=False, per_decade=0, mechanisms=pool)
    (d,) = out.divergences
    assert (d.kind, d.mechanisms, d.mechanisms_float32) == ("wrong", ("seventh",), True)
    assert "returned what the mechanism `seventh` predicts to float32 precision, on both" in (
        diff.describe(d)
    )
    out = diff.run("roc_auc", lambda x: 1 / 7, weighted=False, per_decade=0, mechanisms=pool)
    (d,) = out.divergences
    assert (d.mechanisms, d.mechanisms_float32) == (("seventh",), False)
    assert "predicts, on both inputs" in diff.describe(d)
