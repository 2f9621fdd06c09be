"""Exact average precision: every tie policy against independent brute force (claims N2, N3, B6).

The references are in ``prtheory.theory.brute``: written from the definitions, without numpy and
without the oracle's formulas.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle import summation
from prtheory.oracle.ap import average_precision, normalized_average_precision
from prtheory.oracle.closed_forms import ap_min
from prtheory.theory.brute import brute, brute_group, brute_order, ir_ap, tie_patterns

POLICIES = ("group", "expected", "optimistic", "pessimistic", "input-order", "trec_eval")


@pytest.fixture(params=summation.BACKENDS)
def backend(request, monkeypatch):
    monkeypatch.setattr(summation, "backend", request.param)
    return request.param


# ----------------------------------------------------------------------------------------------
# exhaustive small cases


def _exhaustive(n, rng):
    ids = [f"d{rng.randrange(10**6):06d}" for _ in range(n)]
    while len(set(ids)) < n:
        ids = [f"d{rng.randrange(10**6):06d}" for _ in range(n)]
    for labels in itertools.product((0, 1), repeat=n):
        if not any(labels):
            continue
        for scores in tie_patterns(n):
            perm = rng.sample(range(n), n)  # shuffled input: input order is not rank order
            y = [labels[i] for i in perm]
            s = [scores[i] for i in perm]
            for policy in POLICIES:
                doc = ids if policy == "trec_eval" else None
                got = average_precision(y, s, ties=policy, doc_ids=doc)
                assert got == brute(y, s, policy, doc), (y, s, policy)


@pytest.mark.parametrize("n", range(1, 7))
def test_every_policy_against_brute_force_small_n(n):
    _exhaustive(n, random.Random(n))


@pytest.mark.slow
@pytest.mark.parametrize("n", [7, 8])
def test_every_policy_against_brute_force_n7_n8(n):
    _exhaustive(n, random.Random(n))


def test_n8_every_labelling_one_random_tie_pattern_per_labelling():
    rng = random.Random(8)
    patterns = list(tie_patterns(8))
    for labels in itertools.product((0, 1), repeat=8):
        if not any(labels):
            continue
        s = rng.choice(patterns)
        for policy in ("group", "expected", "optimistic", "pessimistic"):
            assert average_precision(list(labels), s, ties=policy) == brute(list(labels), s, policy)


# ----------------------------------------------------------------------------------------------
# values computed by hand


def test_hand_values():
    # blocks {0,0,1} at .8 and {1,0} at .2: P = 1/3 then 2/5, each with recall step 1/2
    assert average_precision([0, 0, 1, 1, 0], [0.8, 0.8, 0.8, 0.2, 0.2]) == Fraction(11, 30)
    assert average_precision([0, 1], [0.9, 0.1]) == Fraction(1, 2)
    # same data, each policy by hand: optimistic 1,0,0|1,0 -> (1 + 2/4)/2
    y, s = [0, 0, 1, 1, 0], [0.8, 0.8, 0.8, 0.2, 0.2]
    assert average_precision(y, s, ties="optimistic") == Fraction(3, 4)
    assert average_precision(y, s, ties="pessimistic") == Fraction(11, 30)
    assert average_precision(y, s, ties="input-order") == Fraction(5, 12)  # (1/3 + 2/4)/2
    # trec_eval: ids a..e, descending within ties: c,b,a | e,d -> (1/1 + 2/5)/2
    assert average_precision(y, s, ties="trec_eval", doc_ids=list("abcde")) == Fraction(7, 10)
    # expected: block 1 gives (1/3)(1 + 1/2 + 1/3) = 11/18, block 2 (2/4 + 2/5)/2 = 9/20
    assert average_precision(y, s, ties="expected") == (Fraction(11, 18) + Fraction(9, 20)) / 2


def test_seed_003_worked_example():
    """N3: the scores_A / scores_B / truths table; AP(A) = 49/60 and AP(B) = 37/84 by hand.

    A ranks T,T,F,F,T,T,F,F: (1 + 1 + 3/5 + 4/6)/4 = 49/60.
    B ranks F,F,T,T,F,F,T,T: (1/3 + 2/4 + 3/7 + 4/8)/4 = 37/84.
    At threshold 0.5 both predict items 1-4 positive, so their precision and recall agree.
    """
    scores_a = [0.95, 0.85, 0.73, 0.62, 0.48, 0.39, 0.12, 0.04]
    scores_b = [0.55, 0.59, 0.88, 0.97, 0.20, 0.09, 0.43, 0.32]
    truths = [1, 1, 0, 0, 1, 1, 0, 0]
    assert average_precision(truths, scores_a) == Fraction(49, 60)
    assert average_precision(truths, scores_b) == Fraction(37, 84)
    assert [a >= 0.5 for a in scores_a] == [b >= 0.5 for b in scores_b]


def test_group_weights_equal_duplication_example():
    # weights [1,2,3,1,1]: block .8 holds TP 3 of 6 -> P = 1/2 (gain 3); block .2: 4/8 (gain 1)
    y, s = [0, 0, 1, 1, 0], [0.8, 0.8, 0.8, 0.2, 0.2]
    assert average_precision(y, s, sample_weight=[1, 2, 3, 1, 1]) == Fraction(1, 2)
    assert average_precision(y, s, sample_weight=[0.5, 1.0, 1.5, 0.5, 0.5]) == Fraction(1, 2)


def test_weighted_ordering_policy_is_one_step_per_item():
    # [neg w=1, pos w=2] untied: (1/2) * 2 * (2/3) = 2/3, not the 7/12 of three unit items
    assert average_precision([0, 1], [2, 1], sample_weight=[1, 2], ties="input-order") == Fraction(
        2, 3
    )
    assert average_precision([0, 1, 1], [2, 1, 1], ties="input-order") == Fraction(7, 12)


# ----------------------------------------------------------------------------------------------
# undefined values and conventions


def test_no_positives_raises_or_follows_sklearn():
    for policy in POLICIES:
        doc = list("abc") if policy == "trec_eval" else None
        with pytest.raises(UndefinedMetricError, match="average precision is undefined"):
            average_precision([0, 0, 0], [0.3, 0.2, 0.1], ties=policy, doc_ids=doc)
        # scikit-learn 1.9.1 returns 0.0 (with a warning) when y_true has no positives
        got = average_precision(
            [0, 0, 0], [0.3, 0.2, 0.1], ties=policy, doc_ids=doc, convention="sklearn"
        )
        assert got == 0
    with pytest.raises(UndefinedMetricError):  # all positive weight is zero
        average_precision([1, 0], [0.3, 0.2], sample_weight=[0, 1])
    with pytest.raises(InvalidInputError, match="convention"):
        average_precision([0, 0], [0.3, 0.2], convention="paper")


def test_normalized_average_precision():
    # 1 positive, 2 negatives: AP_min = 1/3 (worst ranking); positive second: AP = 1/2
    assert normalized_average_precision([0, 1, 0], [3, 2, 1]) == Fraction(1, 4)
    assert normalized_average_precision([0, 0, 1], [3, 2, 1]) == 0
    assert normalized_average_precision([1, 0, 0], [3, 2, 1]) == 1
    assert normalized_average_precision([1, 1], [3, 2]) == 1  # no negatives: B8 convention
    with pytest.raises(UndefinedMetricError):
        normalized_average_precision([0, 0], [3, 2])
    assert normalized_average_precision([0, 0], [3, 2], convention="sklearn") == 0


# ----------------------------------------------------------------------------------------------
# error paths: one validation module, one message, whatever the entry point


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"y_true": [0, 1], "y_score": [0.1, float("nan")]}, r"y_score: must not contain NaN"),
        ({"y_true": [0, 2], "y_score": [0.1, 0.2]}, r"y_true: labels must be 0 or 1, got 2"),
        ({"y_true": [0, 1], "y_score": [0.1]}, r"y_score: length 1 does not match"),
        ({"y_true": [], "y_score": []}, r"y_true: must not be empty"),
        ({"y_true": ["a", "b"], "y_score": [0.1, 0.2]}, r"y_true: must contain numbers"),
        ({"y_true": [0, 1], "y_score": ["x", "y"]}, r"y_score: must contain real numbers"),
        (
            {"y_true": [0, 1], "y_score": [0.1, 0.2], "sample_weight": [1, -1]},
            r"sample_weight: must be >= 0, got -1 at index 1",
        ),
        (
            {"y_true": [0, 1], "y_score": [0.1, 0.2], "sample_weight": [1, float("inf")]},
            r"sample_weight: must be finite",
        ),
        (
            {"y_true": [0, 1], "y_score": [0.1, 0.2], "sample_weight": [1]},
            r"sample_weight: length 1 does not match",
        ),
        ({"y_true": [0, 1], "y_score": [0.1, 0.2], "ties": "random"}, r"ties: must be one of"),
        (
            {"y_true": [0, 1], "y_score": [0.1, 0.2], "ties": "trec_eval"},
            r"doc_ids: required with ties='trec_eval'",
        ),
        (
            {"y_true": [0, 1], "y_score": [0.1, 0.2], "doc_ids": ["a", "b"]},
            r"doc_ids: only used with ties='trec_eval'",
        ),
        (
            {"y_true": [0, 1], "y_score": [0.1, 0.2], "ties": "trec_eval", "doc_ids": ["a", "a"]},
            r"doc_ids: must be distinct, 'a' repeats",
        ),
        (
            {"y_true": [0, 1], "y_score": [0.1, 0.2], "ties": "trec_eval", "doc_ids": [1, 2]},
            r"doc_ids: must contain strings, got int",
        ),
        (
            {"y_true": [0, 1], "y_score": [0.1, 0.1], "ties": "expected", "sample_weight": [1, 2]},
            r"sample_weight: ties='expected' is defined for equal weights only",
        ),
    ],
)
def test_errors_name_the_argument(kwargs, match):
    with pytest.raises(InvalidInputError, match=match):
        average_precision(**kwargs)


def test_expected_accepts_equal_weights():
    y, s = [0, 1, 1, 0], [1, 1, 0, 0]
    assert average_precision(y, s, ties="expected", sample_weight=[2.5] * 4) == average_precision(
        y, s, ties="expected"
    )


# ----------------------------------------------------------------------------------------------
# mpmath at 60 digits, from scratch


def _mp_group_ap(y, s, w):
    """Step AP summed item by item in mpmath at 60 digits (a third way of writing it)."""
    order = sorted(range(len(y)), key=lambda i: -s[i])
    with mpmath.workdps(60):
        pos = mpmath.fsum(mpmath.mpf(w[i]) for i in range(len(y)) if y[i])
        tp = pp = mpmath.mpf(0)
        total = mpmath.mpf(0)
        pending = mpmath.mpf(0)  # positive weight of the current tied block
        for k, i in enumerate(order):
            pp += w[i]
            if y[i]:
                tp += w[i]
                pending += w[i]
            if k + 1 == len(order) or s[order[k + 1]] != s[i]:
                total += pending * tp / pp
                pending = mpmath.mpf(0)
        return total / pos


def test_against_mpmath_60_digits(backend):
    rng = np.random.default_rng(60)
    for trial in range(20):
        n = int(rng.integers(2, 400))
        y = (rng.random(n) < rng.uniform(0.05, 0.6)).astype(int)
        y[0] = 1
        s = np.round(rng.normal(size=n), int(rng.integers(0, 3)))
        w = rng.uniform(0, 3, size=n) if trial % 2 else np.ones(n)
        exact = average_precision(y, s, sample_weight=w)
        ref = _mp_group_ap(y.tolist(), s.tolist(), w.tolist())
        with mpmath.workdps(60):
            # 60 digits of which a few are lost in at most n additions: require 50
            assert abs(mpmath.mpf(exact.numerator) / exact.denominator - ref) < mpmath.mpf(10) ** (
                -50
            )


# ----------------------------------------------------------------------------------------------
# properties


def labels_and_scores(max_size=40, tie_levels=6):
    return st.integers(1, max_size).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(0, 1), min_size=n, max_size=n).filter(any),
            st.lists(st.integers(-tie_levels, tie_levels), min_size=n, max_size=n),
        )
    )


@given(st.integers(1, 30), st.integers(0, 30))
def test_worst_ranking_is_ap_min(pos, neg):
    """B6: all negatives above all positives gives (1/pos) sum_i i/(i+neg)."""
    y = [0] * neg + [1] * pos
    s = list(range(pos + neg, 0, -1))
    expected = sum((Fraction(i, i + neg) for i in range(1, pos + 1)), Fraction(0)) / pos
    assert average_precision(y, s) == expected
    assert ap_min(pos, neg, exact=True) == expected


@given(labels_and_scores())
def test_pessimistic_expected_optimistic_order(data):
    y, s = data
    lo = average_precision(y, s, ties="pessimistic")
    mid = average_precision(y, s, ties="expected")
    hi = average_precision(y, s, ties="optimistic")
    assert lo <= mid <= hi
    assert lo <= average_precision(y, s, ties="input-order") <= hi


@given(labels_and_scores(max_size=60, tie_levels=10**6))
def test_untied_group_equals_ir_ap(data):
    """N2: without ties, step AP equals the mean of P@rank over the positives, for every policy."""
    y, s = data
    if len(set(s)) < len(s):
        s = list(range(len(s), 0, -1))
    values = {average_precision(y, s, ties=p) for p in POLICIES[:-1]}
    values.add(average_precision(y, s, ties="trec_eval", doc_ids=[str(i) for i in range(len(y))]))
    assert values == {brute_order_ap(y, s)}


def brute_order_ap(y, s):
    return ir_ap(brute_order(y, s, "input-order"))


@given(labels_and_scores(), st.sampled_from(POLICIES[:-1]))
def test_invariant_under_increasing_transforms(data, policy):
    y, s = data
    ref = average_precision(y, s, ties=policy)
    for f in (lambda x: 2 * x + 1, lambda x: x**3, lambda x: x - 10**9):
        assert average_precision(y, [f(x) for x in s], ties=policy) == ref


@given(labels_and_scores(max_size=25), st.data())
def test_integer_weights_equal_duplication(data, draw):
    y, s = data
    w = draw.draw(st.lists(st.integers(0, 4), min_size=len(y), max_size=len(y)))
    if not any(wi and yi for wi, yi in zip(w, y, strict=True)):
        return
    dup_y = [yi for yi, wi in zip(y, w, strict=True) for _ in range(wi)]
    dup_s = [si for si, wi in zip(s, w, strict=True) for _ in range(wi)]
    assert average_precision(y, s, sample_weight=w) == average_precision(dup_y, dup_s)
    assert average_precision(y, s, sample_weight=w) == brute_group(y, s, w)


@given(labels_and_scores(max_size=30))
def test_weights_scale_invariance(data):
    y, s = data
    w = [(i % 3) + 1 for i in range(len(y))]
    for policy in ("group", "optimistic", "pessimistic", "input-order"):
        assert average_precision(y, s, sample_weight=w, ties=policy) == average_precision(
            y, s, sample_weight=[x / 8 for x in w], ties=policy
        )


def test_large_exact_matches_between_backends():
    rng = np.random.default_rng(5)
    n = 20000
    y = rng.random(n) < 0.05
    s = rng.random(n)
    values = set()
    for b in summation.BACKENDS:
        old = summation.backend
        summation.backend = b
        try:
            values.add(average_precision(y, s))
        finally:
            summation.backend = old
    assert len(values) == 1
    # and the same value summed term by term in the obvious (slow, quadratic) way
    order = np.argsort(-s)
    tp = np.cumsum(y[order])
    terms = [Fraction(int(tp[k]), int(k) + 1) for k in np.flatnonzero(y[order])]
    assert values.pop() == sum(terms, Fraction(0)) / int(y.sum())


@pytest.mark.parametrize(("pos", "neg"), [(1, 0), (1, 1), (3, 5), (17, 40), (200, 1800)])
def test_all_tied_expected_is_random_ranking_ap(pos, neg):
    """X1: with every score tied, ties='expected' is the expected AP of a random ranking.

    Per rank k: P(positive) = pos/n and E[positives above | positive at k] = (k-1)(pos-1)/(n-1),
    so E[AP] = (1/n) sum_k (1 + (k-1)(pos-1)/(n-1))/k = (pos-1)/(n-1) + neg H_n/(n(n-1)).
    """
    n = pos + neg
    y = [1] * pos + [0] * neg
    harmonic = sum((Fraction(1, k) for k in range(1, n + 1)), Fraction(0))
    want = Fraction(1) if n == 1 else Fraction(pos - 1, n - 1) + neg * harmonic / (n * (n - 1))
    assert average_precision(y, [0.5] * n, ties="expected") == want
    if n <= 8:
        assert want == brute(y, [0.5] * n, "expected")
