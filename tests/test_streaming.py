"""The exact accumulator equals the batch oracle for every split and merge order.

Reference values are the batch calls on all the data (the oracle, tested on its own against
brute force), evaluated independently of the accumulator's state; the binning bound is checked
against the exact AP of the unbinned data and against hand-computed cases.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import prtheory
from prtheory import oracle
from prtheory._testing.frames import wide_weights
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle.counts import operating_points
from prtheory.streaming import PRAccumulator

# ------------------------------------------------------------------------------------------
# strategies


@st.composite
def datasets(draw, weighted=None):
    """Labels, scores from a small grid (so ties are common) and optional exact-typed weights."""
    n = draw(st.integers(1, 40))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    grid = draw(st.sampled_from([[0.0, 0.5, 1.0], [-np.inf, -0.0, 0.0, 0.25, np.inf], None]))
    if grid is None:
        s = draw(st.lists(st.floats(-10, 10, allow_nan=False), min_size=n, max_size=n))
    else:
        s = draw(st.lists(st.sampled_from(grid), min_size=n, max_size=n))
    kind = draw(st.sampled_from(["none", "int", "float", "fraction"]))
    if weighted is not None:
        kind = "float" if weighted else "none"
    if kind == "none":
        w = None
    elif kind == "int":
        w = draw(st.lists(st.integers(0, 5), min_size=n, max_size=n))
    elif kind == "float":
        w = draw(
            st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.5, 3.0, 1e-3]), min_size=n, max_size=n)
        )
    else:
        w = draw(
            st.lists(st.fractions(0, 3, max_denominator=7), min_size=n, max_size=n).map(
                lambda v: [abs(x) for x in v]
            )
        )
    return y, s, w


def _pieces(y, s, w, cuts):
    """The data split at the sorted cut points (empty pieces included)."""
    edges = [0, *sorted(cuts), len(y)]
    for lo, hi in itertools.pairwise(edges):
        yield y[lo:hi], s[lo:hi], None if w is None else w[lo:hi]


def _accumulate(y, s, w, cuts, order, bins=None):
    """One accumulator per piece, merged in the given order (a permutation of the pieces)."""
    accs = [PRAccumulator(bins=bins).update(*piece) for piece in _pieces(y, s, w, cuts)]
    total = PRAccumulator(bins=bins)
    for i in order:
        total.merge(accs[i % len(accs)])
    return total


split = st.lists(st.integers(0, 40), max_size=5)


# ------------------------------------------------------------------------------------------
# bit-for-bit equality with the batch call over random splits


def _same(got, want):
    """Both calls return equal values (compared by ``check``), or both raise the same error."""
    try:
        expected = want()
    except (InvalidInputError, UndefinedMetricError) as exc:
        error = exc
    else:
        return got(), expected
    with pytest.raises(type(error)) as info:
        got()
    assert str(info.value) == str(error)
    return None, None


def _assert_same_curve(got, ref):
    assert np.array_equal(got.thresholds, ref.thresholds)
    assert got.tp == ref.tp
    assert got.fp == ref.fp
    assert got.precision == ref.precision
    assert got.recall == ref.recall
    assert (got.pos, got.neg, got.first_point) == (ref.pos, ref.neg, ref.first_point)


@given(datasets(), split, st.randoms(use_true_random=False))
def test_equals_batch_over_random_splits(data, cuts, rnd):
    y, s, w = data
    cuts = [min(c, len(y)) for c in cuts]
    order = list(range(len(cuts) + 1))
    rnd.shuffle(order)
    acc = _accumulate(y, s, w, cuts, order)
    pts, want = acc.operating_points(), operating_points(y, s, w)
    assert np.array_equal(pts.thresholds, want.thresholds)
    assert pts.tp.tolist() == want.tp.tolist()
    assert pts.fp.tolist() == want.fp.tolist()
    assert (pts.pos, pts.neg, pts.denominator) == (want.pos, want.neg, want.denominator)
    if want.pos == 0:
        _same(acc.compute, lambda: oracle.average_precision(y, s, w))
        assert acc.compute(convention="sklearn") == 0
        return
    ap = acc.compute()
    assert type(ap) is F
    assert ap == oracle.average_precision(y, s, w)
    assert acc.compute(exact=False).hex() == prtheory.average_precision(y, s, sample_weight=w).hex()
    for first_point in ("none", "sklearn", "spark"):
        for convention in (None, "sklearn"):
            got, ref = _same(
                lambda fp=first_point, c=convention: acc.pr_curve(first_point=fp, convention=c),
                lambda fp=first_point, c=convention: oracle.pr_curve(
                    y, s, w, first_point=fp, convention=c
                ),
            )
            if ref is not None:
                _assert_same_curve(got, ref)
    for method, first_point in [
        ("step", None),
        ("trapezoid", "sklearn"),
        ("trapezoid", "none"),
        ("lower-trapezoid", "spark"),
    ]:
        for a in (0, F(1, 4)):
            got, ref = _same(
                lambda m=method, fp=first_point, a=a: acc.pr_auc(method=m, first_point=fp, a=a),
                lambda m=method, fp=first_point, a=a: oracle.pr_auc(
                    y, s, w, method=m, first_point=fp, a=a
                ),
            )
            assert got == ref
    got, ref = _same(acc.roc_auc, lambda: oracle.roc_auc(y, s, w))
    assert got == ref


@given(datasets(weighted=False), split)
def test_davis_goadrich_equals_batch(data, cuts):
    y, s, _ = data
    if sum(y) == 0:
        return
    cuts = [min(c, len(y)) for c in cuts]
    acc = _accumulate(y, s, None, cuts, range(len(cuts) + 1))
    for method in ("davis-goadrich", "davis-goadrich-discrete"):
        got = acc.pr_auc(method=method, first_point="spark", dps=30)
        want = oracle.pr_auc(y, s, method=method, first_point="spark", dps=30)
        assert got == want


def test_davis_goadrich_discrete_needs_unit_weights_as_in_batch():
    acc = PRAccumulator().update([1, 0], [0.5, 0.2]).update([1], [0.1], [1])
    with pytest.raises(InvalidInputError, match=r"^sample_weight: davis-goadrich-discrete"):
        acc.pr_auc(method="davis-goadrich-discrete", first_point="none")


def test_merge_order_and_self_merge():
    y, s = [1, 0, 1, 1, 0, 0, 1], [0.9, 0.8, 0.8, 0.3, 0.3, 0.1, 0.0]
    a = PRAccumulator().update(y[:3], s[:3])
    b = PRAccumulator().update(y[3:], s[3:])
    ab, ba = a.copy().merge(b), b.copy().merge(a)
    assert ab.compute() == ba.compute() == oracle.average_precision(y, s)
    doubled = ab.copy().merge(ab)  # every item twice: integer weights 2 tie with themselves
    assert doubled.compute() == oracle.average_precision(y + y, s + s)
    assert (ab.n_items, doubled.n_items) == (7, 14)


# ------------------------------------------------------------------------------------------
# memory and exactness of the state


def test_memory_is_the_number_of_distinct_scores():
    rng = np.random.default_rng(7)
    acc = PRAccumulator()
    for _ in range(50):
        acc.update(rng.integers(0, 2, 1000), rng.integers(0, 300, 1000) / 8)
    assert acc.n_items == 50_000
    assert acc.n_blocks == 300  # at most 300 distinct scores, and 50 000 draws hit every one


def test_counts_beyond_int64_stay_exact():
    # weights 2**61: the total weight 4 * 2**61 = 2**63 no longer fits int64
    big = 2**61
    y, s, w = [1, 0, 1, 0], [0.4, 0.3, 0.2, 0.1], [big, big, big, big]
    acc = PRAccumulator().update(y[:2], s[:2], w[:2]).update(y[2:], s[2:], w[2:])
    # AP = (1/2)(1/1 + 2/3) = 5/6 (weights are equal, so they cancel)
    assert acc.compute() == F(5, 6)
    assert acc.operating_points().tp.tolist() == [big, big, 2 * big, 2 * big]


def _weights(kind: str, rng: np.random.Generator, n: int) -> np.ndarray:
    """Float weights whose exact common denominator exceeds 2**63 (the batch unit ``1/D``)."""
    if kind == "1e-4":  # 1e-4 is m 2**-66 with m odd: D = 2**66
        return rng.choice([1e-4, 1.0, 0.5, 3.0], n)
    if kind == "2**-64":
        return rng.choice([2.0**-64, 1.0, 0.0], n)
    if kind == "decades":
        return 10.0 ** rng.uniform(-6, 6, n)
    return np.ldexp(rng.uniform(0.5, 1.0, n), rng.choice([-1000, 1000], n))  # 2**±1000


@pytest.mark.parametrize("kind", ["1e-4", "2**-64", "decades", "2**+-1000"])
def test_weights_with_huge_denominators_equal_batch_over_random_splits(kind):
    # Once raised OverflowError: the state was rescaled by the new common denominator's factor
    # (2**66 for 1e-4) in int64. The reference is the batch oracle on all the data.
    rng = np.random.default_rng(["1e-4", "2**-64", "decades", "2**+-1000"].index(kind))
    for _ in range(25):
        n = int(rng.integers(2, 30))
        y = rng.integers(0, 2, n)
        y[0] = 1
        s = rng.integers(0, 6, n) / 4
        w = _weights(kind, rng, n)
        w[0] = max(w[0], 1.0)  # some positive weight
        cuts = sorted(rng.integers(0, n + 1, int(rng.integers(1, 5))).tolist())
        order = rng.permutation(len(cuts) + 1).tolist()
        acc = _accumulate(y, s, w, cuts, order)
        assert acc.compute() == oracle.average_precision(y, s, w)
        assert (
            acc.compute(exact=False).hex()
            == prtheory.average_precision(y, s, sample_weight=w).hex()
        )
        assert acc.operating_points().denominator == operating_points(y, s, w).denominator
        got = acc.pr_auc(method="trapezoid", first_point="sklearn")
        assert got == oracle.pr_auc(y, s, w, method="trapezoid", first_point="sklearn")
        if (y == 0).any() and w[y == 0].sum() > 0:
            assert acc.roc_auc() == oracle.roc_auc(y, s, w)


def test_weight_denominator_is_the_batch_one():
    # weights 1/2 and 1/2 tie into a block of weight 1, but the batch unit stays 1/2
    y, s, w = [1, 1, 0], [0.5, 0.5, 0.1], [0.5, 0.5, 1.0]
    acc = PRAccumulator().update(y[:1], s[:1], w[:1]).update(y[1:], s[1:], w[1:])
    pts = acc.operating_points()
    assert (pts.denominator, pts.tp.tolist(), pts.fp.tolist()) == (2, [2, 2], [0, 2])


def test_negative_zero_ties_with_zero():
    acc = PRAccumulator().update([1, 0], [-0.0, 0.0])
    assert acc.n_blocks == 1
    # one tied block of one positive and one negative: AP = 1/2
    assert acc.compute() == F(1, 2)


# ------------------------------------------------------------------------------------------
# validation


def test_empty_batches_add_nothing_and_an_empty_accumulator_raises():
    acc = PRAccumulator().update([], [])
    with pytest.raises(InvalidInputError, match=r"^y_true: no items accumulated"):
        acc.compute()
    with pytest.raises(InvalidInputError, match=r"^sample_weight: must be empty"):
        acc.update([], [], [1.0])
    acc.update([1], [0.5]).update(np.zeros(0), np.zeros(0))
    assert (acc.compute(), acc.n_items) == (1, 1)


def test_bad_batches_raise_like_the_batch_functions():
    acc = PRAccumulator()
    with pytest.raises(InvalidInputError, match=r"^y_true: labels must be 0 or 1"):
        acc.update([2], [0.1])
    with pytest.raises(InvalidInputError, match=r"^y_score: must not contain NaN"):
        acc.update([1], [float("nan")])
    with pytest.raises(InvalidInputError, match=r"^sample_weight: must be >= 0"):
        acc.update([1], [0.1], [-1.0])
    assert acc.n_items == 0  # a rejected batch leaves no trace


def test_no_positive_weight_messages():
    acc = PRAccumulator().update([1, 0], [0.2, 0.1], [0, 1])
    with pytest.raises(UndefinedMetricError, match="sample_weight is 0 on every positive"):
        acc.compute()
    acc = PRAccumulator().update([0, 0], [0.2, 0.1])
    with pytest.raises(UndefinedMetricError, match="y_true has no positive labels"):
        acc.compute()


def test_bins_validation_and_merge_mismatch():
    with pytest.raises(InvalidInputError, match=r"^bins: must be a positive number"):
        PRAccumulator(bins=0)
    with pytest.raises(InvalidInputError, match=r"^bins: thresholds must be strictly increasing"):
        PRAccumulator(bins=[0.1, 0.1])
    with pytest.raises(InvalidInputError, match=r"^other: must use the same bins"):
        PRAccumulator(bins=4).merge(PRAccumulator(bins=5))
    with pytest.raises(InvalidInputError, match=r"^other: must use the same bins"):
        PRAccumulator().merge(PRAccumulator(bins=5))
    with pytest.raises(InvalidInputError, match=r"^other: must be a PRAccumulator"):
        PRAccumulator().merge([1])


# ------------------------------------------------------------------------------------------
# binning and its error bound


def _binned_scores(s, thresholds):
    """Each score replaced by the largest threshold <= it (-inf below all), by plain Python."""
    out = []
    for v in s:
        below = [t for t in thresholds if t <= v]
        out.append(max(below) if below else -np.inf)
    return out


@given(datasets(), split)
def test_binned_metrics_are_those_of_the_binned_scores(data, cuts):
    y, s, w = data
    cuts = [min(c, len(y)) for c in cuts]
    thresholds = [-1.0, 0.0, 0.3, 2.5]
    acc = _accumulate(y, s, w, cuts, range(len(cuts) + 1), bins=thresholds)
    binned = _binned_scores(s, thresholds)
    assert acc.n_blocks <= len(thresholds) + 1
    want = operating_points(y, binned, w)
    pts = acc.operating_points()
    assert np.array_equal(pts.thresholds, want.thresholds)
    assert (pts.tp.tolist(), pts.fp.tolist()) == (want.tp.tolist(), want.fp.tolist())
    if want.pos > 0:
        assert acc.compute() == oracle.average_precision(y, binned, w)


@given(datasets(), st.integers(1, 6))
def test_true_error_never_exceeds_the_bound(data, k):
    y, s, w = data
    s = [min(max(v, 0.0), 1.0) for v in s]  # probabilities, for bins=k
    acc = PRAccumulator(bins=k).update(y, s, w)
    if operating_points(y, s, w).pos == 0:
        return
    bound = acc.error_bound()
    true_ap = oracle.average_precision(y, s, w)
    assert bound.low <= true_ap <= bound.high
    assert abs(true_ap - bound.average_precision) <= bound.bound


def test_bound_by_hand():
    # one bin [0, inf) holding a negative at 0.6 above a positive at 0.3: tied, p = n = 1,
    # T = N = 0. B = 1 (0+1)/(0+1+1) = 1/2; U = 1 (0+1)/(0+1) = 1;
    # L = 1 (h(0) + h(1))/2 with h(x) = x/(1 + x): (0 + 1/2)/2 = 1/4.
    acc = PRAccumulator(bins=[0.0]).update([1, 0], [0.3, 0.6])
    bound = acc.error_bound()
    assert (bound.average_precision, bound.low, bound.high, bound.bound) == (
        F(1, 2),
        F(1, 4),
        F(1),
        F(1, 2),
    )
    # the true AP (negative first): 1/2, inside [1/4, 1]
    assert oracle.average_precision([1, 0], [0.3, 0.6]) == F(1, 2)


def test_upper_bound_is_attained():
    # two bins; in each the positive weight sits at one score above all the bin's negatives:
    # bin [0.5, inf): +,+ at 0.9 then - at 0.6; bin [0, 0.5): + at 0.4 then -,- at 0.1.
    y = [1, 1, 0, 1, 0, 0]
    s = [0.9, 0.9, 0.6, 0.4, 0.1, 0.1]
    acc = PRAccumulator(bins=2).update(y, s)
    # true AP = (1/3)(2 * 2/2 + 1 * 3/4) = 11/12, the upper end U
    assert oracle.average_precision(y, s) == F(11, 12)
    assert acc.error_bound().high == F(11, 12)
    # binned: (1/3)(2 * 2/3 + 1 * 3/6) = (1/3)(4/3 + 1/2) = 11/18
    assert acc.compute() == F(11, 18)


def test_unbinned_bound_is_zero():
    acc = PRAccumulator().update([1, 0, 1], [0.3, 0.2, 0.1])
    assert acc.error_bound().bound == 0


def test_many_batches_of_long_weighted_input_equal_the_oracle():
    # past 10^4 items, where a fixed-width or batched path could lose a carry: 40,000 items on
    # 2,000 scores (ties across batches), weights from 2^-40 to 2^40 with zeros, fed in 16
    # batches; the exact AP, trapezoid and ROC areas are the oracle's, the float AP its rounding
    rng = np.random.default_rng(41)
    n = 40_000
    y = (rng.random(n) < 0.3).astype(int)
    s = rng.integers(0, 2000, n) / 2000
    w = wide_weights(rng, n)
    acc = PRAccumulator()
    for part in np.array_split(np.arange(n), 16):
        acc.update(y[part], s[part], w[part])
    want = oracle.average_precision(y, s, w)
    assert acc.average_precision() == want
    assert acc.average_precision(exact=False) == float(want)
    assert acc.roc_auc() == oracle.roc_auc(y, s, w)
    trapezoid = oracle.pr_auc(y, s, w, method="trapezoid", first_point="sklearn")
    assert acc.pr_auc(method="trapezoid", first_point="sklearn") == trapezoid
