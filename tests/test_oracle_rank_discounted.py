"""Reciprocal rank and NDCG@k (claim M2): exact values against hand values and brute force over
every order of the tied items, and the float64 values against mpmath."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import mpmath
import pytest

import prtheory
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle.ndcg import dcg_at_k, dcg_terms, ndcg_at_k
from prtheory.oracle.retrieval import reciprocal_rank
from prtheory.oracle.rounding import prec_of_dps, to_float
from prtheory.oracle.ties import expected_first_hit
from prtheory.theory.brute import brute_expected, brute_order, tie_patterns

ORDERINGS = ("optimistic", "pessimistic", "input-order", "trec_eval")


def brute_rr(labels):
    """1/rank of the first relevant item of a ranked list, 0 if there is none."""
    return next((Fraction(1, i) for i, y in enumerate(labels, start=1) if y), Fraction(0))


def brute_gains(gains, k):
    """The gains at ranks 1..min(k, n) of a ranked list, as a tuple of Fractions."""
    return tuple(Fraction(g) for g in gains[:k])


def mean_vector(y, s, k):
    """The mean over every order within the tied blocks of the gain vector at ranks 1..k."""
    return tuple(brute_expected(y, s, lambda lab, at=at: Fraction(lab[at])) for at in range(k))


def mp_discounted(values, dps=80):
    """sum_i values[i-1] / log2(i + 1) with mpmath at ``dps`` digits, term by term."""
    with mpmath.workdps(dps):
        return mpmath.fsum(
            mpmath.mpf(v.numerator) / v.denominator / mpmath.log(i + 1, 2)
            for i, v in enumerate(values, start=1)
        )


# ---- reciprocal rank ----------------------------------------------------------------------


def test_reciprocal_rank_by_hand():
    # all four tied, positives 2 of 4: the first positive is at rank 1 w.p. 2/4, rank 2 w.p.
    # (2/4)(2/3) = 1/3, rank 3 w.p. (2/4)(1/3)(2/2) = 1/6: E = 1/2 + 1/6 + 1/18 = 13/18
    assert reciprocal_rank([0, 1, 1, 0], [5, 5, 5, 5]) == Fraction(13, 18)
    # a negative alone on top, then a tie of one positive and one negative: (1/2)(1/2 + 1/3)
    assert reciprocal_rank([0, 0, 1], [3, 2, 2]) == Fraction(5, 12)
    assert reciprocal_rank([0, 0], [1, 2]) == 0  # no relevant item: 1/inf
    assert reciprocal_rank([1, 0], [1, 2], ties="input-order") == Fraction(1, 2)
    assert reciprocal_rank([0, 1], [1, 1], ties="optimistic") == 1
    assert reciprocal_rank([0, 1], [1, 1], ties="pessimistic") == Fraction(1, 2)


@pytest.mark.parametrize(
    "n", [*range(1, 7), *[pytest.param(n, marks=pytest.mark.slow) for n in (7, 8)]]
)
def test_reciprocal_rank_against_every_order(n):
    """Every label vector and tie pattern of n items: the expectation is the mean over every
    order of the tied items, and each ordering policy is the brute-force order's RR."""
    rng = random.Random(400 + n)
    ids = [f"d{i}" for i in rng.sample(range(100), n)]
    for labels in itertools.product((0, 1), repeat=n):
        for scores in tie_patterns(n):
            perm = rng.sample(range(n), n)
            y, s = [labels[i] for i in perm], [scores[i] for i in perm]
            assert reciprocal_rank(y, s) == brute_expected(y, s, brute_rr)
            for policy in ORDERINGS:
                doc = ids if policy == "trec_eval" else None
                got = reciprocal_rank(y, s, ties=policy, doc_ids=doc)
                assert got == brute_rr(brute_order(y, s, policy, doc))


@pytest.mark.parametrize("m", [1, 2, 5, 17, 64])
def test_first_hit_binary_splitting_against_the_binomial_sum(m):
    # P(J = j) = C(m - j, p - 1)/C(m, p): the sum written with binomials, term by term
    for p in range(1, m + 1):
        for before in (0, 1, 9):
            want = sum(
                (
                    Fraction(math.comb(m - j, p - 1), math.comb(m, p) * (before + j))
                    for j in range(1, m - p + 2)
                ),
                Fraction(0),
            )
            assert expected_first_hit(before, m, p) == want


# ---- NDCG ---------------------------------------------------------------------------------


def test_dcg_terms_by_hand():
    # gains [3, 0, 1], the first two tied: the tie's mean gain 3/2 at ranks 1 and 2
    terms = dcg_terms([3, 0, 1], [2, 2, 1])
    assert terms.weights == (Fraction(3, 2), Fraction(3, 2), Fraction(1))
    assert terms.ideal == (3, 1, 0)
    assert dcg_terms([3, 0, 1], [2, 2, 1], 2).weights == (Fraction(3, 2), Fraction(3, 2))
    assert dcg_terms([3, 0, 1], [2, 2, 1], 9).ideal == (3, 1, 0)  # k > n: every item
    assert dcg_terms([True, False], [1, 2]).weights == (0, 1)  # booleans are gains 0/1
    assert dcg_terms([0.5, 1.25], [1, 2], ties="pessimistic").weights == (Fraction(5, 4), 0.5)


@pytest.mark.parametrize("n", [1, 2, 3, 4, pytest.param(5, marks=pytest.mark.slow)])
def test_dcg_terms_against_every_order(n):
    """Gains in {0, 1, 2} and every tie pattern: the expected weights are the mean over every
    order of the tied items of the gain vector, for every cutoff; orderings as brute_order."""
    rng = random.Random(500 + n)
    ids = [f"d{i}" for i in rng.sample(range(100), n)]
    for gains in itertools.product((0, 1, 2), repeat=n):
        for scores in tie_patterns(n):
            perm = rng.sample(range(n), n)
            y, s = [gains[i] for i in perm], [scores[i] for i in perm]
            for k in range(1, n + 1):
                terms = dcg_terms(y, s, k)
                assert terms.weights == mean_vector(y, s, k)
                assert terms.ideal == brute_gains(sorted(y, reverse=True), k)
            for policy in ORDERINGS:
                doc = ids if policy == "trec_eval" else None
                got = dcg_terms(y, s, ties=policy, doc_ids=doc).weights
                assert got == brute_gains(brute_order(y, s, policy, doc), n)


def test_ndcg_exact_cases():
    assert ndcg_at_k([3, 2, 1], [3, 2, 1]) == 1  # perfect ranking: weights == ideal
    assert ndcg_at_k([2, 2, 2], [1, 1, 1]) == 1  # every order is ideal
    # one gain at rank 3: DCG = 1/log2(4) = 1/2, IDCG = 1 (rank 1)
    assert ndcg_at_k([0, 0, 1], [3, 2, 1]) == Fraction(1, 2)
    assert dcg_at_k([0, 0, 1], [3, 2, 1]) == Fraction(1, 2)
    assert ndcg_at_k([0, 0, 1], [3, 2, 1], 2) == 0
    assert ndcg_at_k([0, 0], [1, 2], convention="sklearn") == 0


@pytest.mark.parametrize("dps", [15, 30, 50])
def test_ndcg_and_dcg_meet_the_oracle_contract(dps):
    """|v - x| <= 2**(1-p) |x| against mpmath at 80 digits on random graded lists with ties."""
    rng = random.Random(dps)
    p = prec_of_dps(dps)
    for _ in range(60):
        n = rng.randint(2, 30)
        y = [rng.choice((0, 0, 1, 2, Fraction(7, 3))) for _ in range(n)]
        if not any(y):
            y[0] = 1
        s = [rng.randint(0, 6) for _ in range(n)]
        k = rng.choice((None, rng.randint(1, n)))
        cut = n if k is None else k
        terms = dcg_terms(y, s, k)
        with mpmath.workdps(80):
            want_dcg = mp_discounted(terms.weights)
            want = want_dcg / mp_discounted(terms.ideal)
            for got, x in (
                (ndcg_at_k(y, s, k, dps=dps), want),
                (dcg_at_k(y, s, k, dps=dps), want_dcg),
            ):
                if isinstance(got, Fraction):
                    got = mpmath.mpf(got.numerator) / got.denominator
                assert abs(got - x) <= mpmath.mpf(2) ** (1 - p) * abs(x)
        assert len(terms.weights) == min(cut, n)


def test_float_values_are_the_correctly_rounded_ones():
    rng = random.Random(7)
    for _ in range(40):
        n = rng.randint(2, 12)
        y = [rng.choice((0, 1, 3)) for _ in range(n)]
        if not any(y):
            y[-1] = 3
        s = [rng.randint(0, 3) for _ in range(n)]
        terms = dcg_terms(y, s)
        with mpmath.workdps(60):
            want = mp_discounted(terms.weights, 60) / mp_discounted(terms.ideal, 60)
        assert prtheory.ndcg_at_k(y, s) == to_float(want)
        labels = [int(v > 0) for v in y]
        assert prtheory.reciprocal_rank(labels, s) == to_float(reciprocal_rank(labels, s))


def test_errors():
    with pytest.raises(UndefinedMetricError, match="NDCG@k is undefined"):
        ndcg_at_k([0, 0], [1, 2])
    with pytest.raises(InvalidInputError, match="y_true: must be >= 0, got -1 at index 1"):
        ndcg_at_k([1, -1], [1, 2])
    with pytest.raises(InvalidInputError, match="k: must be >= 1, got 0"):
        dcg_terms([1, 0], [1, 2], 0)
    with pytest.raises(InvalidInputError, match="ties: must be one of 'expected'"):
        ndcg_at_k([1, 0], [1, 2], ties="group")
    with pytest.raises(InvalidInputError, match="y_score: length 1 does not match"):
        ndcg_at_k([1, 0], [1])
    with pytest.raises(InvalidInputError, match="ties: must be one of 'expected'"):
        reciprocal_rank([1, 0], [1, 2], ties="group")
    with pytest.raises(InvalidInputError, match="doc_ids: required"):
        reciprocal_rank([1, 0], [1, 2], ties="trec_eval")
