"""The double-double area kernel for float weights (prtheory.metrics.area_kernel) against exact Fractions.

The references are the oracle's AP, PR trapezoid and ROC AUC (exact rationals, independent of
the kernel's floating point). Two properties per metric: the kernel's unrounded double-double is
within the proved :func:`~prtheory.metrics.area_kernel.relative_bound` of the exact value, and whatever
it decides is the correctly rounded exact value. Skipped without numba.
"""

from __future__ import annotations

import contextlib
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import prtheory
from prtheory import floats, oracle
from prtheory.errors import UndefinedMetricError
from prtheory.metrics import area_kernel, area_numpy
from prtheory.oracle import average_precision as exact_ap
from prtheory.oracle import to_float
from prtheory.oracle.counts import operating_points

pytest.importorskip("numba")


@st.composite
def weighted(draw):
    """Labels, scores with ties, and float weights over any span of binades from subnormal to
    the largest floats (zeros too)."""
    n = draw(st.integers(1, 60))
    y = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    levels = draw(st.sampled_from([2, 10, 10**9]))
    s = np.array(draw(st.lists(st.integers(0, levels), min_size=n, max_size=n)), dtype=float)
    binades = draw(st.sampled_from([1, 60, 700, 2097]))
    low = draw(st.integers(-1074, 1024 - binades))
    mant = draw(st.lists(st.floats(0.5, 1.0, exclude_max=True), min_size=n, max_size=n))
    exps = draw(st.lists(st.integers(low, low + binades - 1), min_size=n, max_size=n))
    # ldexp rounds below 2**-1022 and would overflow at 2**1024: mantissas in [1/2, 1) keep
    # every weight finite; subnormal ones are whatever ldexp gives
    w = np.ldexp(np.array(mant), np.array(exps))
    zero = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    w[zero & (np.arange(n) % 3 == 0)] = 0.0
    return y, s, w


def exact(y, s, w) -> Fraction:
    return exact_ap(y, s, sample_weight=w)


def reference(y, s, w, metric: str) -> Fraction | None:
    """The oracle's exact value of ``metric`` (None where it is undefined)."""
    try:
        if metric == "ap":
            return exact(y, s, w)
        if metric == "roc":
            return oracle.roc_auc(y, s, w)
        first = metric.split("-")[1]
        return oracle.pr_auc(y, s, w, method="trapezoid", first_point=first)
    except UndefinedMetricError:
        return None


@contextlib.contextmanager
def backend(name):
    """The compiled kernel or the vectorised numpy path, for the duration."""
    previous = floats.set_backend(name)
    try:
        yield
    finally:
        floats.set_backend(previous)


@pytest.mark.parametrize("metric", area_kernel.METRICS)
@given(data=weighted())
def test_double_double_is_within_the_proved_bound(metric, data):
    y, s, w = data
    value = area_kernel.framed(y, s, w, metric)
    ref = reference(y, s, w, metric)
    if value is None:  # a class the metric divides by has no weight
        assert ref is None or not (w[y] > 0).any() or (metric == "roc" and not (w[~y] > 0).any())
        return
    h, lo, e = value
    err = abs((Fraction(h) + Fraction(lo)) * Fraction(2) ** e - ref)
    assert err <= Fraction(area_kernel.relative_bound(y.size, metric)) * ref


@pytest.mark.parametrize("path", ["numba", "numpy"])
@pytest.mark.parametrize("metric", area_kernel.METRICS)
@given(data=weighted())
def test_what_the_kernel_decides_is_the_correctly_rounded_value(path, metric, data):
    y, s, w = data
    with backend(path):
        got = area_kernel.rounded(y, s, w, metric)
    if got is not None:
        assert got == to_float(reference(y, s, w, metric))


def test_the_public_areas_take_the_kernel():
    rng = np.random.default_rng(11)
    y, s, w = rng.random(3000) < 0.3, np.round(rng.random(3000), 2), rng.random(3000)
    for first in ("sklearn", "spark", "none"):
        kernel = area_kernel.rounded(y, s, w, f"trapezoid-{first}")
        assert kernel is not None
        got = prtheory.pr_auc(y, s, sample_weight=w, method="trapezoid", first_point=first)
        assert got == kernel == to_float(reference(y, s, w, f"trapezoid-{first}"))
    assert prtheory.roc_auc(y, s, sample_weight=w) == area_kernel.rounded(y, s, w, "roc")
    assert prtheory.pr_auc(y, s, sample_weight=w) == area_kernel.rounded(y, s, w, "ap")


def test_the_kernel_decides_large_inputs_and_equals_the_exact_path():
    rng = np.random.default_rng(7)
    for n, frac in ((10**4, 0.5), (10**5, 0.01)):
        y = rng.random(n) < frac
        s = np.round(rng.random(n), 3)  # ties
        w = rng.random(n)
        got = area_kernel.average_precision(y, s, w)
        assert got is not None
        assert got == to_float(exact(y, s, w))


def test_subnormal_weights():
    # weights from 2**-1074 (subnormal) to 2**-300: each sum starts in the frame of its first
    # weight, so the subnormal ones are exact there
    y = np.array([1, 0, 1, 1, 0, 1], dtype=bool)
    s = np.array([6.0, 5.0, 4.0, 4.0, 2.0, 1.0])
    w = np.array([5e-324, 2.0**-300, 3 * 2.0**-1070, 2.0**-700, 1e-310, 2.0**-1000])
    assert area_kernel.framed(y, s, w) is not None
    assert prtheory.average_precision(y, s, sample_weight=w) == to_float(exact(y, s, w))


def test_weights_over_the_whole_float_range():
    # 2**-1074 .. 2**1023 next to each other: each sum keeps its own binary exponent
    y = np.array([0, 1, 0, 1, 1, 0, 1], dtype=bool)
    s = np.array([7.0, 6.0, 5.0, 4.0, 4.0, 2.0, 1.0])
    w = np.array([2.0**1023, 5e-324, 1.5 * 2.0**1000, 2.0**-600, 0.75, 1e308, 2.0**-1000])
    assert area_kernel.framed(y, s, w) is not None
    assert prtheory.average_precision(y, s, sample_weight=w) == to_float(exact(y, s, w))
    # the AP itself far below 2**-1022: only tiny positives behind a huge negative
    y, s, w = np.array([0, 1], dtype=bool), np.array([2.0, 1.0]), np.array([2.0**1000, 2.0**-1000])
    ref = to_float(exact(y, s, w))
    assert ref == 0.0  # the exact 2**-2000 / (1 + 2**-2000) rounds to zero
    assert area_kernel.average_precision(y, s, w) is None  # below the normal range: exact path
    assert prtheory.average_precision(y, s, sample_weight=w) == ref


def test_undecided_values_take_the_exact_path(monkeypatch):
    # a bound too wide to decide anything: every value comes from the exact path, unchanged
    rng = np.random.default_rng(3)
    y, s, w = rng.random(200) < 0.3, rng.random(200), rng.random(200)
    expected = to_float(exact(y, s, w))
    monkeypatch.setattr(area_kernel, "relative_bound", lambda n, metric: 2.0**-20)
    assert area_kernel.average_precision(y, s, w) is None
    assert prtheory.average_precision(y, s, sample_weight=w) == expected


def test_without_the_kernel_tier_the_value_is_the_same():
    rng = np.random.default_rng(4)
    y, s, w = rng.random(500) < 0.5, np.round(rng.random(500), 2), rng.random(500)
    fused = prtheory.average_precision(y, s, sample_weight=w)
    previous = floats.set_backend("numpy")
    try:
        assert area_kernel.framed(y, s, w) is None
        assert prtheory.average_precision(y, s, sample_weight=w) == fused
    finally:
        floats.set_backend(previous)


def test_no_positive_weight_keeps_its_convention():
    y, s, w = [1, 0, 1], [3.0, 2.0, 1.0], [0.0, 0.5, 0.0]
    with pytest.raises(UndefinedMetricError):
        prtheory.average_precision(y, s, sample_weight=w)
    assert prtheory.average_precision(y, s, sample_weight=w, convention="sklearn") == 0.0


@pytest.mark.parametrize("metric", area_kernel.METRICS)
@given(data=weighted())
def test_the_numpy_path_is_within_its_proved_bound(metric, data):
    y, s, w = data
    order = np.argsort(-s)
    value = area_numpy.framed(y[order], s[order], w[order], metric)
    ref = reference(y, s, w, metric)
    if value is None:
        assert ref is None or not (w[y] > 0).any() or (metric == "roc" and not (w[~y] > 0).any())
        return
    h, lo, e = value
    err = abs((Fraction(h) + Fraction(lo)) * Fraction(2) ** e - ref)
    assert err <= Fraction(area_numpy.relative_bound(y.size)) * ref


@pytest.mark.parametrize("path", ["numba", "numpy"])
@given(data=weighted())
def test_block_sums_are_within_the_proved_bound(path, data):
    y, s, w = data
    with backend(path):
        blocks = area_kernel.block_sums(y, s, w)
    pts = operating_points(y, s, w)  # exact cumulative weights at each distinct score
    assert blocks.thresholds.tolist() == pts.thresholds.tolist()
    d = Fraction(1, pts.denominator)
    h, lo, e = blocks.tp
    for b, v in enumerate(pts.tp.tolist()):
        got = (Fraction(h[b]) + Fraction(lo[b])) * Fraction(2) ** int(e[b])
        assert abs(got - v * d) <= Fraction(blocks.rel[b]) * v * d
    h, lo, e = blocks.n
    for b, (tp, fp) in enumerate(zip(pts.tp.tolist(), pts.fp.tolist(), strict=True)):
        got = (Fraction(h[b]) + Fraction(lo[b])) * Fraction(2) ** int(e[b])
        want = (tp + fp) * d
        assert abs(got - want) <= Fraction(blocks.rel[b]) * want


@pytest.mark.parametrize("path", ["numba", "numpy"])
@given(data=weighted())
def test_the_pr_curve_of_the_kernel_is_the_rounded_oracle(path, data):
    y, s, w = data
    keep = w != 0
    if not (w[y] > 0).any():
        return
    c = oracle.pr_curve(y[keep], s[keep], w[keep], first_point="sklearn")
    with backend(path):
        got = prtheory.precision_recall_curve(y, s, sample_weight=w)
    assert got.precision.tolist() == [to_float(v) for v in c.precision][::-1]
    assert got.recall.tolist() == [to_float(v) for v in c.recall][::-1]


def test_undecided_ratios_take_the_exact_path(monkeypatch):
    # a bound too wide to decide anything: every ratio is rounded from exact counts, unchanged
    rng = np.random.default_rng(5)
    y, s, w = rng.random(300) < 0.4, np.round(rng.random(300), 1), rng.random(300)
    want = prtheory.precision_recall_curve(y, s, sample_weight=w)
    monkeypatch.setattr(area_kernel, "ratio_bound", lambda rel: np.full(np.shape(rel), 2.0**-20))
    blocks = area_kernel.block_sums(y, s, w)
    _, undecided = area_kernel.rounded_ratios(blocks.tp, blocks.rel, blocks.n, blocks.rel)
    assert undecided.all()
    with backend("numpy"):  # the numpy path rounds with ratio_bound
        got = prtheory.precision_recall_curve(y, s, sample_weight=w)
    assert got.precision.tolist() == want.precision.tolist()
    assert got.recall.tolist() == want.recall.tolist()
    # the compiled path's kernel has its bound built in: mark all its ratios undecided
    real = area_kernel.pr_points

    def undecided_everywhere(*args):
        values = real(*args)
        return (*values[:4], np.ones_like(values[4]))

    monkeypatch.setattr(area_kernel, "pr_points", undecided_everywhere)
    got = prtheory.precision_recall_curve(y, s, sample_weight=w)
    assert got.precision.tolist() == want.precision.tolist()
    assert got.recall.tolist() == want.recall.tolist()


@given(
    st.lists(
        st.tuples(
            st.floats(2.0**-60, 2.0**60),
            st.floats(-0.6, 0.6),
            st.integers(-1100, 1000),
            st.sampled_from([2.0**-100, 2.0**-80, 2.0**-60, 2.0**-53]),
        ),
        min_size=1,
        max_size=50,
    )
)
def test_quick_decide_is_decide(items):
    # lo from -0.6 to 0.6 ulps of h (near and on rounding boundaries), results from subnormal
    # to huge: the common-case shortcut gives decide's values and undecided elements
    h = np.array([v[0] for v in items])
    lo = np.array([v[1] for v in items]) * np.spacing(h)
    lo = np.where(np.abs(lo) > np.spacing(h) / 2, np.sign(lo) * np.spacing(h) / 2, lo)
    e = np.array([v[2] for v in items])
    rel = np.array([v[3] for v in items])
    got, got_undecided = area_kernel.quick_decide(h, lo, e, rel)
    want, want_undecided = floats.dd.decide(h, lo, e, rel)
    assert got_undecided.tolist() == want_undecided.tolist()
    decided = ~want_undecided
    assert got[decided].tolist() == want[decided].tolist()


@pytest.mark.parametrize("metric", area_kernel.METRICS)
@given(st.integers(2, 80), st.integers(0, 2**32 - 1))
def test_the_numpy_path_with_weights_bands_apart(metric, n, seed):
    # 2**±1000 weights: two bands 2000 binades apart, each prefix summed in the highest band
    # it holds weight of (the lower band left out there, within the bound)
    rng = np.random.default_rng(seed)
    y, s = rng.random(n) < 0.5, np.round(rng.random(n), 1)
    w = np.ldexp(rng.uniform(0.5, 1, n), rng.choice([-1000, 1000], n))
    w[rng.random(n) < 0.1] = 0.0
    order = np.argsort(-s)
    value = area_numpy.framed(y[order], s[order], w[order], metric)
    ref = reference(y, s, w, metric)
    assert (value is None) == (ref is None)
    if value is None:
        return
    h, lo, e = value
    err = abs((Fraction(h) + Fraction(lo)) * Fraction(2) ** e - ref)
    assert err <= Fraction(area_numpy.relative_bound(y.size)) * ref


def test_pr_curve_with_a_subnormal_precision_among_normal_ones():
    """The kernel leaves a subnormal ratio to the exact rounding; the other blocks' bounds stay
    theirs (a broadcast of every block's bound to the marked ones raised ValueError). By hand,
    e = 2**-1060, thresholds 0.9 > 0.8 > 0.7 > 0.6: TP = 0, e, 1 + e, 1 + e; N = 1, 1 + e,
    2 + e, 5 + e; pos = 1 + e."""
    e = Fraction(1, 2**1060)
    y, s, w = [0, 1, 1, 0], [0.9, 0.8, 0.7, 0.6], [1.0, float(e), 1.0, 3.0]
    tp = [Fraction(0), e, 1 + e, 1 + e]
    n = [Fraction(1), 1 + e, 2 + e, 5 + e]
    precision = [to_float(t / m) for t, m in zip(tp, n, strict=True)]
    recall = [to_float(t / (1 + e)) for t in tp]
    for backend in ("numba", "numpy"):
        previous = floats.set_backend(backend)
        try:
            c = prtheory.precision_recall_curve(y, s, sample_weight=w)
        finally:
            floats.set_backend(previous)
        # scikit-learn's order: thresholds increasing, then the appended (recall 0, precision 1)
        assert c.precision.tolist() == [*precision[::-1], 1.0], backend
        assert c.recall.tolist() == [*recall[::-1], 0.0], backend
