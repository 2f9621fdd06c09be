"""prtheory.distributed (engine-neutral pieces) against the single-machine oracle, without Spark.

A ranking is cut into blocks (one per distinct score) and the blocks into pieces at random
places; a list comprehension plays the engine. Every metric must equal the oracle's exactly,
for every cut.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from prtheory import oracle
from prtheory._input import as_weights
from prtheory.distributed import (
    FIRST,
    Piece,
    ap_terms,
    davis_goadrich,
    decode_fraction,
    dyadic_blocks,
    encode_fraction,
    evaluate,
    prefix_offsets,
    roc_terms,
    round_intervals,
    sums,
    top_terms,
    trapezoid_terms,
)
from prtheory.errors import InvalidInputError
from prtheory.oracle.rounding import prec_of_dps
from prtheory.oracle.summation import BACKENDS


def _blocks(y, s, w):
    """Exact (pos, neg) numerators per distinct score, decreasing, by plain Python."""
    ew = as_weights(w, len(y)) if w is not None else None
    nums = [1] * len(y) if ew is None else [int(v) for v in ew.numerators]
    acc: dict[float, list[int]] = {}
    for yi, si, wi in zip(y, s, nums, strict=True):
        acc.setdefault(float(si), [0, 0])[0 if yi else 1] += wi
    keys = sorted(acc, reverse=True)
    return (
        np.array([acc[k][0] for k in keys], dtype=object),
        np.array([acc[k][1] for k in keys], dtype=object),
    )


def _engine(y, s, w, cuts):
    """``run`` over the pieces cut at ``cuts`` (block indices), and the class totals."""
    pos, neg = _blocks(y, s, w)
    edges = [0, *sorted(cuts), pos.size]
    parts = [(pos[a:b], neg[a:b]) for a, b in itertools.pairwise(edges)]
    totals = [(int(p.sum()), int(p.sum() + n.sum())) for p, n in parts]
    offsets = prefix_offsets(totals)
    pieces = [Piece(p, n, *o) for (p, n), o in zip(parts, offsets, strict=True)]
    return (lambda fn: [fn(piece) for piece in pieces]), int(pos.sum()), int(neg.sum())


def _case(rng, n, weighted, zero_top=False):
    y = rng.integers(0, 2, n)
    y[0] = 1
    y[-1] = 0
    s = rng.integers(0, max(2, n // 3), n).astype(float) / 4
    w = None
    if weighted:
        w = rng.choice([0.0, 0.1, 0.5, 1.0, 3.0, 2.0**-40, 1e-3, 7.25], n)
        w[0] = 1.0  # one positive with weight
        w[-1] = 1.0
        if zero_top:  # the top-scored block has zero weight
            s[1] = s.max() + 1
            w[1] = 0.0
    return y, s, w


def _cuts(rng, blocks):
    return [rng.integers(0, blocks + 1, rng.integers(0, 5)).tolist() for _ in range(4)] + [[]]


@pytest.mark.parametrize("weighted", [False, True])
def test_ap_trapezoid_roc_equal_the_oracle_for_every_cut(weighted):
    rng = np.random.default_rng(11 + weighted)
    for n in (2, 3, 7, 40, 150):
        y, s, w = _case(rng, n, weighted, zero_top=weighted and n > 2)
        nblocks = len(set(s.tolist()))
        for cuts in _cuts(rng, nblocks):
            run, pos, neg = _engine(y, s, w, cuts)
            ap = oracle.average_precision(y, s, w)
            assert evaluate(run, ap_terms, pos, exact=True) == ap
            assert evaluate(run, ap_terms, pos, exact=False) == oracle.to_float(ap)
            heads = {"none": None, "sklearn": (1, 1), "spark": FIRST}
            for name, head in heads.items():
                want = oracle.pr_auc(y, s, w, method="trapezoid", first_point=name)
                got = evaluate(run, lambda p, h=head: trapezoid_terms(p, h), 2 * pos, True)
                assert got == want, (n, cuts, name)
            if neg:
                want = oracle.roc_auc(y, s, w)
                assert evaluate(run, roc_terms, 2 * pos * neg, exact=True) == want


def test_mllib_first_point_is_sklearn_head_when_the_top_is_empty():
    # y=[0,1,0], s=[3,2,2], w=[0,1,1]: MLlib's 3/4 (conventions.py), by hand
    y, s, w = [0, 1, 0], [3.0, 2.0, 2.0], [0.0, 1.0, 1.0]
    assert oracle.pr_auc(y, s, w, method="trapezoid", first_point="mllib") == Fraction(3, 4)
    assert oracle.pr_auc(y, s, w, method="trapezoid", first_point="spark") == Fraction(1, 2)
    run, pos, _ = _engine(y, s, w, [1])
    assert evaluate(run, lambda p: trapezoid_terms(p, (1, 1)), 2 * pos, True) == Fraction(3, 4)


@pytest.mark.parametrize("ties", ["expected", "optimistic", "pessimistic"])
def test_precision_at_k_and_r_precision_equal_the_oracle(ties):
    rng = np.random.default_rng(5)
    for n in (2, 6, 50):
        y, s, _ = _case(rng, n, False)
        for cuts in _cuts(rng, len(set(s.tolist()))):
            run, pos, _ = _engine(y, s, None, cuts)
            for k in (1, 2, n // 2 + 1, n, n + 3):
                want = oracle.precision_at_k(y, s, k, ties=ties)
                assert evaluate(run, lambda p, k=k: top_terms(p, k, ties), k, True) == want
            want = oracle.r_precision(y, s, ties=ties)
            assert evaluate(run, lambda p, r=pos: top_terms(p, r, ties), pos, True) == want


@pytest.mark.parametrize("first_point", ["none", "spark"])
def test_davis_goadrich_is_the_oracles_mpf(first_point):
    rng = np.random.default_rng(9)
    for n in (2, 30, 120):
        for weighted in (False, True):
            y, s, w = _case(rng, n, weighted, zero_top=weighted)
            want = oracle.pr_auc(y, s, w, method="davis-goadrich", first_point=first_point)
            for cuts in _cuts(rng, len(set(s.tolist()))):
                run, pos, _ = _engine(y, s, w, cuts)
                got = davis_goadrich(run, first_point, pos, prec_of_dps(50))
                assert isinstance(got, mpmath.mpf)
                assert got == want, (n, weighted, cuts)


def test_undecided_interval_falls_back_to_the_exact_sum():
    # 2**53 + 1/3 + 2/3 = 2**53 + 1; over 2**53 that is 1 + 2**-53, the midpoint between 1 and
    # 1 + 2**-52, which ties to even: 1.0. The binary digits of 1/3 and 2/3 never end, so every
    # interval straddles the midpoint and the exact pass decides.
    terms = (np.array([2**53, 1, 2], dtype=np.int64), np.array([1, 3, 3], dtype=np.int64))
    calls = []

    def run(fn):
        calls.append(fn)
        return [fn(terms)]

    assert evaluate(run, lambda t: t, 2**53, exact=False) == 1.0
    assert len(calls) == 2
    assert round_intervals([(3 * 2**53 + 2, 2, 3)], 2**53) is None
    # one term 1/4 over divisor 1 is exact at E = 2: decided at once
    assert round_intervals([(1, 2, 0)], 1) == 0.25


def _serial_spread(calls):
    """An engine's ``spread`` played by a list comprehension; records what it was given."""

    def spread(fn, items):
        calls.append(list(items))
        return [fn(item) for item in items]

    return spread


def test_spread_reduction_keeps_only_what_the_numerator_shares(monkeypatch):
    monkeypatch.setattr(sums, "SPREAD_MIN_BITS", 0)
    p = 101
    # 1/p**2 + (p-1)/p: N = p + (p-1) p**2 over D = p**3. The shares gcd(N, p**2) = p and
    # gcd(N, p) = p multiply to p**2 while N holds p once: the sum is (1 + (p-1) p) / p**2
    # (by hand: 10101 / 10201), which the product of the shares would overshoot.
    calls: list = []
    total = sums.combine_exact([(1, p**2), (p - 1, p)], _serial_spread(calls))
    assert total == Fraction(10101, 10201)
    assert calls == [[p**2, p]]  # largest first
    # shares that cancel completely: 1/6 + 1/3 = 1/2; and coprime pieces, nothing to share
    assert sums.combine_exact([(1, 6), (1, 3)], _serial_spread(calls)) == Fraction(1, 2)
    assert sums.combine_exact([(1, 7), (2, 9)], _serial_spread(calls)) == Fraction(23, 63)
    # pieces with nothing to add (zero numerators, the empty piece's 0/1) are not sent
    calls.clear()
    assert sums.combine_exact([(0, 1), (3, 4), (0, 1)], _serial_spread(calls)) == Fraction(3, 4)
    assert calls == [[4]]
    assert sums.combine_exact([(0, 1)], _serial_spread(calls)) == 0


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("where", ["workers", "driver"])
def test_exact_sums_of_pieces_equal_fraction_sums(monkeypatch, backend, where):
    """Random partial sums whose denominators share primes and prime powers in every pattern
    (drawn from a few small primes and a large one), added by Python's Fraction: reduced by the
    spread, or by Henrici's additions on the driver."""
    from prtheory.oracle import summation

    monkeypatch.setattr(summation, "backend", backend)
    monkeypatch.setattr(sums, "SPREAD_MIN_BITS", 0 if where == "workers" else 2**60)
    rng = np.random.default_rng(2026)
    primes = [2, 3, 5, 7, 2**61 - 1]
    for _ in range(300):
        parts = []
        for _ in range(rng.integers(1, 6)):
            d = 1
            for q in primes:
                d *= q ** int(rng.integers(0, 4))
            n = int(rng.integers(0, 50)) * int(rng.choice(primes)) ** int(rng.integers(0, 3))
            f = Fraction(n, d)  # the pieces' sums arrive reduced
            parts.append((f.numerator, f.denominator))
        calls: list = []
        got = sums.combine_exact(parts, _serial_spread(calls))
        want = sum((Fraction(n, d) for n, d in parts), Fraction(0))
        assert (got.numerator, got.denominator) == (want.numerator, want.denominator), parts
        if where == "workers":
            assert calls or all(n == 0 for n, _ in parts)
        else:
            assert not calls


def test_spread_waits_for_large_sums(monkeypatch):
    """Below SPREAD_MIN_BITS of unreduced denominator the driver reduces alone."""
    calls: list = []
    parts = [(1, 3**40), (1, 5**30)]  # 64 + 70 bits
    monkeypatch.setattr(sums, "SPREAD_MIN_BITS", 135)
    assert sums.combine_exact(parts, _serial_spread(calls)) == Fraction(
        3**40 + 5**30, 15**30 * 3**10
    )
    assert calls == []
    monkeypatch.setattr(sums, "SPREAD_MIN_BITS", 134)
    assert sums.combine_exact(parts, _serial_spread(calls)) == Fraction(
        3**40 + 5**30, 15**30 * 3**10
    )
    assert len(calls) == 1


def test_evaluate_passes_the_engines_spread_to_the_exact_sum(monkeypatch):
    monkeypatch.setattr(sums, "SPREAD_MIN_BITS", 0)
    rng = np.random.default_rng(3)
    y, s, w = _case(rng, 150, True)
    run, pos, _ = _engine(y, s, w, [10, 40, 90])
    calls: list = []
    ap = evaluate(run, ap_terms, pos, exact=True, spread=_serial_spread(calls))
    assert ap == oracle.average_precision(y, s, w)
    assert len(calls) == 1
    assert len(calls[0]) >= 2


def test_dyadic_blocks_merge_exponents_exactly():
    # score 2: 3 * 2**-2 positive and 1 * 2**1 negative; score 5: 1 * 2**0 positive
    pos, neg = dyadic_blocks([2.0, 5.0, 2.0], [-2, 0, 1], [3, 1, 0], [0, 0, 1], k=2)
    # over 2**-2: score 5 -> (4, 0); score 2 -> (3, 8)
    assert pos.tolist() == [4, 3]
    assert neg.tolist() == [0, 8]
    with pytest.raises(InvalidInputError, match="k"):
        dyadic_blocks([1.0], [-3], [1], [0], k=2)


@pytest.mark.parametrize(
    ("span", "top", "wide"),
    [(8, 2**10, False), (1100, 2**53, True), (8, 2**53, True)],
    ids=["int64", "exponents-1100-bits-apart", "sum-beyond-int64"],
)
def test_dyadic_blocks_equal_fraction_sums_in_int64_and_beyond(span, top, wide):
    # random mantissas and exponents against Fraction arithmetic. Narrow ones stay in int64;
    # exponents far apart, or 61-bit values whose sum passes 2**63, must be Python integers,
    # with no wrap-around in the blocks or in their total (Piece.cumulative sums them)
    rng = np.random.default_rng(span + top.bit_length())
    n = 400
    scores = rng.integers(0, 60, n).astype(float)
    exponents = rng.integers(-span, 1, n)
    pm = [int(v) for v in rng.integers(0, top, n, dtype=np.int64)]
    nm = [int(v) for v in rng.integers(0, top, n, dtype=np.int64)]
    k = int(-exponents.min())
    pos, neg = dyadic_blocks(scores, exponents, np.array(pm), np.array(nm), k)
    want: dict[float, list[Fraction]] = {}
    for sc, e, p, q in zip(scores.tolist(), exponents.tolist(), pm, nm, strict=True):
        block = want.setdefault(sc, [Fraction(0), Fraction(0)])
        block[0] += Fraction(p) * Fraction(2) ** int(e)
        block[1] += Fraction(q) * Fraction(2) ** int(e)
    order = sorted(want, reverse=True)
    scale = Fraction(2) ** k
    assert [Fraction(int(v)) for v in pos] == [want[sc][0] * scale for sc in order]
    assert [Fraction(int(v)) for v in neg] == [want[sc][1] * scale for sc in order]
    assert int(pos.sum()) + int(neg.sum()) == sum(sum(b) for b in want.values()) * scale
    assert (pos.dtype == object) == wide


def test_fractions_travel_as_hex_beyond_the_decimal_digit_limit():
    big = Fraction(3**10000 + 1, 2**20000)  # 4772 decimal digits in the numerator
    assert decode_fraction(encode_fraction(big)) == big
    assert decode_fraction(encode_fraction(Fraction(-3, 4))) == Fraction(-3, 4)


def test_cumulative_sums_of_large_int64_blocks_do_not_wrap():
    # four blocks of 2**61 each: their int64 sum, 2**63, wraps to a negative number, so the
    # cumulative sums must go to Python integers (by hand: 2**61, 2**62, 3 * 2**61, 2**63)
    big = np.full(4, 2**61, dtype=np.int64)
    tp, n = Piece(big, np.zeros(4, dtype=np.int64)).cumulative()
    assert tp.tolist() == [2**61, 2**62, 3 * 2**61, 2**63]
    assert n.tolist() == tp.tolist()
    # AP of four positive blocks: every precision is 1
    assert evaluate(lambda fn: [fn(Piece(big, big * 0))], ap_terms, 2**63, exact=True) == 1


def test_cumulative_under_an_offset_past_float_range():
    # int64 blocks after pieces whose weight passed 2**1024 (weights 1e308 over 2**-1074): the
    # offset must not go through float. By hand: TP = 2**1100 + 1, N = 2**1101 + 1 + 2
    from prtheory.distributed import Piece

    tp, n = Piece(np.array([1]), np.array([2]), tp=2**1100, n=2**1101).cumulative()
    assert tp.tolist() == [2**1100 + 1]
    assert n.tolist() == [2**1101 + 3]
