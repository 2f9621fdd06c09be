"""Claims M1-M2: tie-aware measures as exact expectations over the orders of tied items
(McSherry & Najork 2008; only the abstract was found, so the formulas are derived here).

Every quantity splits over the blocks of tied scores: the items above a block are fixed, and the
order inside the block is uniformly random and independent of the other blocks'. So it suffices
to derive each measure's expectation over one block of ``m`` items holding ``p`` positives, with
``N`` items of which ``T`` are positive above it. The registry's meaning of each expectation is
the mean over every placement of the block's positives
(:mod:`prtheory.theory.mcsherry_najork2008.blocks`), never the formula.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator
from fractions import Fraction

import sympy as sp

from prtheory.oracle import ndcg, retrieval
from prtheory.oracle.ap import average_precision
from prtheory.oracle.ties import expected_first_hit
from prtheory.theory.brute import brute_expected, ir_ap
from prtheory.theory.checks import exhaustive
from prtheory.theory.common import name, scored, tied_rankings
from prtheory.theory.domain import Domain, Integer, Meaning
from prtheory.theory.mcsherry_najork2008.blocks import (
    mean_ap_terms,
    mean_first_hit,
    mean_gain_at,
    mean_top_positives,
)
from prtheory.theory.registry import Proof, claim

SOURCE = "McSherry & Najork 2008 (abstract; formulas derived here)"

m = sp.Symbol("m", positive=True, integer=True)
p = sp.Symbol("p", nonnegative=True, integer=True)
N, T = sp.symbols("N T", nonnegative=True, integer=True)
k, i, j, q = sp.symbols("k i j q", positive=True, integer=True)
m1, m2 = sp.symbols("m_1 m_2", nonnegative=True, integer=True)


def _ints(point: dict, *symbols: sp.Symbol) -> list[int]:
    return [int(point[x]) for x in symbols]


def _small_rankings(max_n: int) -> Iterator[tuple[list[int], list[int]]]:
    """Every ranking with ties (:func:`prtheory.theory.common.tied_rankings`) of 1 to ``max_n``
    items with a positive, as labels and scores."""
    for n in range(1, max_n + 1):
        for n_pos in range(1, n + 1):
            yield from (scored(b) for b in tied_rankings(n_pos, n - n_pos))


# ---- M1 ---------------------------------------------------------------------------------------
E_BLOCK = name(r"E\left[\sum_{k \in \mathrm{block}} \mathrm{rel}(k) P(k)\right]")
C_M1 = (T + 1) * (m - 1) - (p - 1) * (N + 1)
#: The block's expected share of pos * AP (m >= 2): (p/(m(m-1))) ((p-1) m + C (H_{N+m} - H_N)).
M1_FORMULA = p / (m * (m - 1)) * ((p - 1) * m + C_M1 * (sp.harmonic(N + m) - sp.harmonic(N)))
#: The rank-k term after partial fractions.
M1_TERM = p / (m * (m - 1)) * ((p - 1) + C_M1 / k)
M1_BLOCK_SUM = sp.Sum(M1_TERM, (k, 1, N + m)) - sp.Sum(M1_TERM, (k, 1, N))

M1_MEANING = (
    "the mean over every placement of the block's p positives among its m positions of "
    "sum over its ranks k of rel(k) (T + its positives up to k)/k, in Fractions (m <= 14)"
)


def _m1_meaning(point: dict) -> Fraction | None:
    mm, pp, nn, tt = _ints(point, m, p, N, T)
    return mean_ap_terms(mm, pp, nn, tt)


def _expected_ap_is_the_mean_over_orders(max_n: int = 6) -> tuple[bool, str]:
    return exhaustive(
        _small_rankings(max_n),
        lambda c: (
            average_precision(c[0], c[1], ties="expected") == brute_expected(c[0], c[1], ir_ap)
        ),
        f"every ranking with ties of 1 to {max_n} items with a positive",
    )


@claim(
    "M1",
    source=SOURCE,
    location="abstract (average precision)",
    title="Tie-aware AP is the mean of AP over every order of the tied items",
    statement=lambda: sp.Eq(E_BLOCK, M1_FORMULA),
    assumptions=(
        "a block of m >= 2 tied items holding p positives, below N items of which T are "
        "positive; its order uniformly random",
        "AP = (1/pos) sum_k rel(k) P(k): blocks add up, so E[AP] is (1/pos) times the sum of "
        "the blocks' E (an untied item, m = 1, adds p (T + 1)/(N + 1))",
    ),
    domain=Domain(
        Integer(m, 2),
        Integer(p, 0, m),
        Integer(N, 0),
        Integer(T, 0, N),
        define={E_BLOCK: Meaning(_m1_meaning, M1_MEANING)},
        exhaustive=10,
        samples=40,
    ),
    note=(
        "The abstract says the tie-aware measures compute 'precisely the same performance value "
        "as ... averaging over all permutations' and do so 'as efficiently as the original, "
        "tie-oblivious measures'. Derived here for AP: the closed form per block needs one "
        "harmonic difference, so after the sort (O(n log n)) the expectation takes O(1) "
        "arithmetic operations per item (prtheory.oracle.ties.expected_top); exact rational "
        "arithmetic on the growing result costs more than O(1) per operation."
    ),
)
def _m1(pf: Proof) -> None:
    pf.given(
        "What is averaged: the block's ranks k = N + 1 .. N + m, rel(k) in {0, 1}, "
        "P(k) = (T + block positives up to k)/k",
        sp.Eq(E_BLOCK, name(r"\mathrm{mean\ over\ the\ } \binom{m}{p} \mathrm{\ placements}")),
    )
    pf.equal(
        "A given position of the block holds a positive in C(m-1, p-1) of the C(m, p) placements",
        sp.binomial(m - 1, p - 1) / sp.binomial(m, p),
        p / m,
    )
    pf.equal(
        "Two given positions both hold positives in C(m-2, p-2) of them",
        sp.binomial(m - 2, p - 2) / sp.binomial(m, p),
        p * (p - 1) / (m * (m - 1)),
    )
    pf.equal(
        "So rank k = N + r contributes ((p/m)(T + 1) + (r - 1) p (p-1)/(m(m-1)))/k on average, "
        "which splits into partial fractions",
        ((p / m) * (T + 1) + (k - N - 1) * p * (p - 1) / (m * (m - 1))) / k,
        M1_TERM,
    )
    pf.conclude(
        "By linearity of expectation over the block's ranks (given rank k positive, each of the "
        "r - 1 earlier block positions is positive with probability (p-1)/(m-1), steps 2-3), "
        "and step 4",
        sp.Eq(E_BLOCK, M1_BLOCK_SUM),
        [2, 3, 4],
    )
    pf.value("sympy sums the partial fractions", M1_BLOCK_SUM, M1_FORMULA, "summation")
    pf.establish("The block's expected share of pos * AP", sp.Eq(E_BLOCK, M1_FORMULA), [5, 6])
    pf.check(
        "enumeration",
        "The oracle's ties='expected' AP equals the mean of AP over every order of the tied items",
        _expected_ap_is_the_mean_over_orders(),
    )


# ---- M2 ---------------------------------------------------------------------------------------
E_TP = name(r"E[\mathrm{TP}_{\le j}]")
E_RR = name(r"E\left[\frac{1}{N + J}\right]")
E_G = name(r"E[g_{(i)}]")
RR_SUM = sp.Sum(sp.binomial(m - q, p - 1) / (sp.binomial(m, p) * (N + q)), (q, 1, m - p + 1))


def _m2_tp(point: dict) -> Fraction | None:
    mm, pp, jj = _ints(point, m, p, j)
    return mean_top_positives(mm, pp, jj)


def _m2_rr(point: dict) -> Fraction | None:
    mm, pp, nn = _ints(point, m, p, N)
    return mean_first_hit(mm, pp, nn)


@functools.cache
def _gain_mean(m0: int, c1: int, c2: int, at: int) -> Fraction | None:
    return mean_gain_at((0,) * m0 + (1,) * c1 + (2,) * c2, at)


def _m2_gain(point: dict) -> Fraction | None:
    mm, ii, c1, c2 = _ints(point, m, i, m1, m2)
    return _gain_mean(mm - c1 - c2, c1, c2, ii)


def _top(cut: int, scale: Fraction, labels: list[int]) -> Fraction:
    """``scale`` times the positives among the first ``cut`` labels."""
    return scale * sum(labels[:cut])


def _at(at: int, labels: list[int]) -> Fraction:
    """The label at 0-based position ``at``."""
    return Fraction(labels[at])


def _orders_agree(max_n: int = 5) -> tuple[bool, str]:
    """The oracle's expected P@k, recall@k, F1@k (through E[TP@k]), reciprocal rank and DCG
    terms against the mean over every order of the tied items."""

    def ok(case: tuple[list[int], list[int]]) -> bool:
        y, s = case
        pos = sum(y)

        def mean(of: Callable[[list[int]], Fraction]) -> Fraction:
            return brute_expected(y, s, of)

        for cut in range(1, len(y) + 1):
            tp = retrieval.precision_at_k(y, s, cut) * cut
            # TP@k, recall@k = TP/pos and F1@k = 2 TP/(k + pos), each averaged over the orders
            for scale in (Fraction(1), Fraction(1, pos), Fraction(2, cut + pos)):
                if scale * tp != mean(functools.partial(_top, cut, scale)):
                    return False
        first = mean(lambda lab: Fraction(1, lab.index(1) + 1))
        weights = ndcg.dcg_terms(y, s).weights
        return retrieval.reciprocal_rank(y, s) == first and all(
            w == mean(functools.partial(_at, at)) for at, w in enumerate(weights)
        )

    return exhaustive(
        _small_rankings(max_n), ok, f"every ranking with ties of 1 to {max_n} items with a positive"
    )


def _first_hit_matches_the_sum(max_m: int = 24) -> tuple[bool, str]:
    """The oracle's binary-splitting E[1/(N + J)] against the statement's binomial sum."""
    rng = random.Random(2008)
    cases = [
        (mm, rng.randint(1, mm), rng.randint(0, 50)) for mm in range(1, max_m + 1) for _ in range(4)
    ]
    return exhaustive(
        cases,
        lambda c: (
            expected_first_hit(c[2], c[0], c[1])
            == Fraction(str(RR_SUM.subs({m: c[0], p: c[1], N: c[2]}).doit()))
        ),
        f"{len(cases)} blocks with m <= {max_m}",
    )


@claim(
    "M2",
    source=SOURCE,
    location="abstract (precision, recall, F1, reciprocal rank, NDCG)",
    title="Tie-aware P@k, R@k, F1@k, reciprocal rank and NDCG@k are means over every order",
    statement=lambda: sp.And(
        sp.Eq(E_TP, j * p / m), sp.Eq(E_RR, RR_SUM), sp.Eq(E_G, (m1 + 2 * m2) / m), evaluate=False
    ),
    assumptions=(
        "a block of m tied items holding p >= 1 positives, in uniformly random order",
        "E[TP_<=j]: positives among its first j positions; P@k, R@k and F1@k = 2 TP/(k + pos) "
        "at a cutoff k inside the block are linear in TP, so their expectations follow",
        "E[1/(N + J)]: the reciprocal rank when the block is the first to hold a positive and "
        "its N items above are negative, J the position of its first positive",
        "E[g_(i)]: the gain at position i when the block's gains are m_1 ones and m_2 twos (the "
        "rest 0); DCG@k is linear in the gains by position and IDCG does not depend on the order",
    ),
    domain=Domain(
        Integer(m, 1),
        Integer(p, 1, m),
        Integer(j, 0, m),
        Integer(N, 0),
        Integer(i, 1, m),
        Integer(m2, 0, m),
        Integer(m1, 0, m - m2),
        define={
            E_TP: Meaning(_m2_tp, "the mean over placements of the positives among the first j"),
            E_RR: Meaning(_m2_rr, "the mean over placements of 1/(N + first positive's position)"),
            E_G: Meaning(_m2_gain, "the mean over orders of the gains of the gain at position i"),
        },
        exhaustive=5,
        samples=40,
    ),
    note=(
        "Derived, as the abstract gives no formulas. P@k, R@k and F1@k are linear in the number "
        "of positives in the top k, whose expectation is hypergeometric (T + j p/m at a cut j "
        "into the block). Reciprocal rank is not linear: it needs the distribution of the first "
        "positive's position, P(J = q) = C(m-q, p-1)/C(m, p) (prtheory.oracle.reciprocal_rank "
        "sums it exactly by binary splitting). NDCG@k is linear in the gain at each position, "
        "which is the block's mean gain, so E[NDCG@k] = E[DCG@k]/IDCG@k "
        "(prtheory.oracle.ndcg_at_k; scikit-learn's ndcg_score computes the same)."
    ),
)
def _m2(pf: Proof) -> None:
    pf.equal(
        "A given position holds a positive in C(m-1, p-1) of the C(m, p) placements",
        sp.binomial(m - 1, p - 1) / sp.binomial(m, p),
        p / m,
    )
    r = sp.Symbol("r", positive=True, integer=True)
    top = sp.Sum(p / m, (r, 1, j))
    pf.conclude("By linearity over the first j positions (step 1)", sp.Eq(E_TP, top), [1])
    pf.value("which sums to", top, j * p / m, "summation")
    pf.value(
        "The first positive is at position q in C(m-q, p-1) placements (the other p - 1 "
        "positives among the m - q positions after it): these probabilities sum to 1",
        sp.Sum(sp.binomial(m - q, p - 1), (q, 1, m - p + 1)) / sp.binomial(m, p),
        1,
        "summation (the hockey-stick identity)",
    )
    pf.conclude(
        "So the expected reciprocal rank is the sum of these probabilities over N + q (step 4)",
        sp.Eq(E_RR, RR_SUM),
        [4],
    )
    pf.value(
        "Each of the m items is at position i in (m-1)! of the m! orders",
        sp.factorial(m - 1) / sp.factorial(m),
        1 / m,
        "exact simplification",
    )
    pf.conclude(
        "So the expected gain at position i is the mean gain (m_1 + 2 m_2)/m (step 6)",
        sp.Eq(E_G, (m1 + 2 * m2) / m),
        [6],
    )
    pf.establish(
        "The three expectations",
        sp.And(
            sp.Eq(E_TP, j * p / m),
            sp.Eq(E_RR, RR_SUM),
            sp.Eq(E_G, (m1 + 2 * m2) / m),
            evaluate=False,
        ),
        [2, 3, 5, 7],
    )
    pf.check(
        "enumeration",
        "The oracle's expected P@k, R@k, F1@k, reciprocal rank and DCG terms against the mean "
        "over every order of the tied items",
        _orders_agree(),
    )
    pf.check(
        "exact",
        "The oracle's expected reciprocal rank (binary splitting) equals the binomial sum",
        _first_hit_matches_the_sum(),
    )
