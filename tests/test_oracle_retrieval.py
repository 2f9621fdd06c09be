"""P@k, AP@k and R-precision (claims N4, N5) against hand values and brute force."""

from __future__ import annotations

import functools
import itertools
import random
from fractions import Fraction

import pytest

from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle.retrieval import ap_at_k, precision_at_k, r_precision
from prtheory.theory.brute import brute_expected, brute_order, tie_patterns

ORDERINGS = ("optimistic", "pessimistic", "input-order", "trec_eval")


def brute_p_at_k(labels, k):
    return Fraction(sum(labels[:k]), k)  # a list shorter than k: the missing items are misses


def brute_ap_at_k(labels, k):
    pos = sum(labels)
    hits, total = 0, Fraction(0)
    for i, rel in enumerate(labels[:k], start=1):
        if rel:
            hits += 1
            total += Fraction(hits, i)
    return total / min(k, pos)


SEED_A = [0.95, 0.85, 0.73, 0.62, 0.48, 0.39, 0.12, 0.04]
TRUTHS = [1, 1, 0, 0, 1, 1, 0, 0]


def test_seed_003_values():
    # N5: top 3 of A is T,T,F: (1 + 1) / min(3, 4) = 2/3; and AP@3 is not the mean of P@i
    assert ap_at_k(TRUTHS, SEED_A, 3) == Fraction(2, 3)
    mean_p = sum((precision_at_k(TRUTHS, SEED_A, i) for i in (1, 2, 3)), Fraction(0)) / 3
    assert mean_p == Fraction(8, 9)  # (1 + 1 + 2/3)/3
    assert precision_at_k(TRUTHS, SEED_A, 3) == Fraction(2, 3)
    assert r_precision(TRUTHS, SEED_A) == Fraction(2, 4)  # top 4 = T,T,F,F
    # AP@n is AP: 49/60 (N3)
    assert ap_at_k(TRUTHS, SEED_A, 8) == Fraction(49, 60)


def test_fewer_than_k_items_and_positives():
    # N4: 8 items, 4 positives, k = 10: P@10 = 4/10 <= pos/k; missing predictions are misses
    assert precision_at_k(TRUTHS, SEED_A, 10) == Fraction(4, 10)
    assert ap_at_k(TRUTHS, SEED_A, 10) == Fraction(49, 60)  # divides by min(10, 4)
    assert precision_at_k([0, 0], [1, 2], 1) == 0  # P@k is defined with no positives


def test_ties_at_the_cutoff():
    y, s = [0, 0, 1, 1, 0], [0.8, 0.8, 0.8, 0.2, 0.2]
    # expected: 2 of the 3 tied items, 1 positive among them: 2/3 positives on average
    assert precision_at_k(y, s, 2) == Fraction(1, 3)
    # E[rel(1)P(1) + rel(2)P(2)] = (1/3)(1) + (1/3)(1/2) = 1/2, over min(2, 2)
    assert ap_at_k(y, s, 2) == Fraction(1, 4)
    assert precision_at_k(y, s, 2, ties="optimistic") == Fraction(1, 2)
    assert precision_at_k(y, s, 2, ties="pessimistic") == 0
    assert precision_at_k(y, s, 1, ties="trec_eval", doc_ids=list("abcde")) == 1  # c first


@pytest.mark.parametrize(
    "n", [*range(1, 7), *[pytest.param(n, marks=pytest.mark.slow) for n in (7, 8)]]
)
def test_against_brute_force(n):
    """Every label vector and tie pattern of n <= 6 items (n = 7, 8 in the slow tier)."""
    rng = random.Random(100 + n)
    ids = [f"doc{i}" for i in rng.sample(range(1000), n)]
    for labels in itertools.product((0, 1), repeat=n):
        for scores in tie_patterns(n):
            perm = rng.sample(range(n), n)
            y = [labels[i] for i in perm]
            s = [scores[i] for i in perm]
            k = rng.randint(1, n + 2)
            for policy in ORDERINGS:
                doc = ids if policy == "trec_eval" else None
                ranked = brute_order(y, s, policy, doc)
                assert precision_at_k(y, s, k, ties=policy, doc_ids=doc) == brute_p_at_k(ranked, k)
                if any(y):
                    got = ap_at_k(y, s, k, ties=policy, doc_ids=doc)
                    assert got == brute_ap_at_k(ranked, k)
                    got = r_precision(y, s, ties=policy, doc_ids=doc)
                    assert got == brute_p_at_k(ranked, sum(y))
            assert precision_at_k(y, s, k) == brute_expected(
                y, s, functools.partial(brute_p_at_k, k=k)
            )
            if any(y):
                assert ap_at_k(y, s, k) == brute_expected(
                    y, s, functools.partial(brute_ap_at_k, k=k)
                )
                pos = sum(y)
                assert r_precision(y, s) == brute_expected(
                    y, s, functools.partial(brute_p_at_k, k=pos)
                )


def test_undefined_and_errors():
    with pytest.raises(UndefinedMetricError, match="AP@k is undefined"):
        ap_at_k([0, 0], [1, 2], 1)
    with pytest.raises(UndefinedMetricError, match="R-precision is undefined"):
        r_precision([0, 0], [1, 2])
    with pytest.raises(InvalidInputError, match="k: must be >= 1, got 0"):
        precision_at_k([0, 1], [1, 2], 0)
    with pytest.raises(InvalidInputError, match=r"k: must be an integer count, got 2\.5"):
        ap_at_k([0, 1], [1, 2], 2.5)
    with pytest.raises(InvalidInputError, match="k: must be >= 1, got -1"):  # as k = 0
        precision_at_k([0, 1], [1, 2], -1)
    with pytest.raises(InvalidInputError, match="ties: must be one of 'expected'"):
        precision_at_k([0, 1], [1, 2], 1, ties="group")
    with pytest.raises(InvalidInputError, match="y_score: must not contain NaN"):
        precision_at_k([0, 1], [1, float("nan")], 1)
    with pytest.raises(InvalidInputError, match="y_true: labels must be 0 or 1"):
        r_precision([0, 3], [1, 2])
    with pytest.raises(InvalidInputError, match="doc_ids: length 1 does not match"):
        ap_at_k([0, 1], [1, 1], 1, ties="trec_eval", doc_ids=["a"])
