"""The float AP of HUGEINT blocks in x87 extended precision (prtheory.duckdb.extended): exact limb
prefix sums, one rounding per conversion, the exact sum of the rounded terms, and an interval that
holds the exact sum, checked against Python integers and the oracle."""

from __future__ import annotations

import platform
from fractions import Fraction

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")
pytest.importorskip("duckdb")

from prtheory import duckdb as pdb  # noqa: E402
from prtheory import oracle  # noqa: E402
from prtheory.duckdb import blocks as duck_blocks  # noqa: E402
from prtheory.duckdb import extended  # noqa: E402
from prtheory.oracle.rounding import to_float  # noqa: E402

pytestmark = pytest.mark.skipif(
    not extended.available(), reason="long double is not the x87 80-bit format here"
)


def _rn64(x: int) -> int:
    """``x > 0`` rounded to 64 significant bits, ties to even (by hand, on Python integers)."""
    shift = x.bit_length() - 64
    if shift <= 0:
        return x
    q, r = divmod(x, 1 << shift)
    half = 1 << (shift - 1)
    if r > half or (r == half and q & 1):
        q += 1
    return q << shift


def _exact(x: np.longdouble) -> Fraction:
    return Fraction(*x.as_integer_ratio())


def _halves(values: list[int]) -> tuple[np.ndarray, np.ndarray]:
    return (
        np.array([v >> 62 for v in values], dtype=np.int64),
        np.array([v & (2**62 - 1) for v in values], dtype=np.int64),
    )


def test_available_on_x86_64_linux():
    if platform.machine() not in ("x86_64", "AMD64"):
        pytest.skip("the x87 format is x86's")
    assert extended.available()


# values at the limb boundaries: every limb 2**32 - 1 (carries through all four), the largest
# halves (hi 2**63 - 1, lo 2**62 - 1: 2**125 - 1), single bits at each limb edge
BOUNDARY = [
    2**125 - 1,
    2**96 - 1,
    2**64 - 1,
    2**64,
    2**63 + 2**62 - 1,
    2**32 - 1,
    2**32,
    1,
    0,
    2**62,
    (2**125 - 1) // 3,
    2**95 + 2**31 + 1,
]


def test_limbs_are_the_integers():
    hi, lo = _halves(BOUNDARY)
    parts = extended.limbs(hi, lo)
    assert parts.dtype == np.int64
    assert (parts >= 0).all()
    assert (parts < 2**32).all()
    got = [sum(int(parts[j, i]) << (32 * j) for j in range(4)) for i in range(len(BOUNDARY))]
    assert got == BOUNDARY


@pytest.mark.parametrize("offset", [0, 1, 2**32 - 1, 2**64 - 1, 2**96 + 5, 2**124])
def test_cumulative_is_exact_then_rounded_once(offset):
    rng = np.random.default_rng(offset % 1000)
    # the boundary values, then random ones below 2**112, so that offset + total < 2**125
    values = [v >> 8 for v in BOUNDARY] + [
        int(x) << int(e)
        for x, e in zip(rng.integers(1, 2**62, 500), rng.integers(0, 51, 500), strict=True)
    ]
    hi, lo = _halves(values)
    got, last = extended.cumulative(extended.limbs(hi, lo), offset)
    running = offset
    for i, v in enumerate(values):
        running += v
        # one rounding: the integer rounded to 64 bits, ties to even (computed by hand)
        assert _exact(got[i]) == _rn64(running), i
    assert last == running


def test_cumulative_carries_across_every_limb():
    # 2**20 values of 2**96 - 1 (all three low limbs full) after an offset of 2**96 - 1: each
    # step carries through limbs 0..2 into limb 3
    n = 2**20
    v = 2**96 - 1
    hi, lo = _halves([v] * n)
    got, last = extended.cumulative(extended.limbs(hi, lo), v)
    assert last == (n + 1) * v
    assert _exact(got[-1]) == _rn64((n + 1) * v)
    assert _exact(got[12345]) == _rn64(12347 * v)


def test_extended_rounds_the_halves_once():
    hi, lo = _halves([v for v in BOUNDARY if v])
    got = extended.extended(hi, lo)
    assert [_exact(g) for g in got] == [_rn64(v) for v in BOUNDARY if v]


def test_exact_sum_of_long_doubles_across_exponents():
    rng = np.random.default_rng(3)
    mant = rng.random(3000).astype(np.longdouble) + np.longdouble(2.0**-60)  # 64-bit ones
    terms = np.ldexp(mant, rng.integers(-300, 300, 3000))
    want = sum((_exact(t) for t in terms), Fraction(0))
    assert extended.exact_sum(terms) == want
    assert extended.exact_sum(terms[:0]) == 0


def test_bounds_hold_the_exact_sum_of_the_terms():
    # the exact sum of gain TP / N over random blocks lies in the interval built from the rounded
    # terms; the interval is needed (U = 0, a mutant, would leave it a point off the exact sum)
    rng = np.random.default_rng(11)
    pos = [
        int(x) << int(e)
        for x, e in zip(rng.integers(0, 2**53, 2000), rng.integers(0, 60, 2000), strict=True)
    ]
    neg = [
        int(x) << int(e)
        for x, e in zip(rng.integers(0, 2**53, 2000), rng.integers(0, 60, 2000), strict=True)
    ]
    table = pa.table({**dict(zip(("p_hi", "p_lo"), _halves(pos), strict=True)),
                      **dict(zip(("n_hi", "n_lo"), _halves(neg), strict=True))})  # fmt: skip
    _, tp_total, neg_total = extended.average_precision([table])
    assert (tp_total, neg_total) == (sum(pos), sum(neg))
    exact = Fraction(0)
    tp = n = 0
    for p, q in zip(pos, neg, strict=True):
        tp, n = tp + p, n + p + q
        if p:
            exact += Fraction(p * tp, n)
    pieces = [table.slice(0, 700), table.slice(700)]  # the offset carried between pieces
    rounded = Fraction(0)
    tp = n = 0
    for t in pieces:
        cols = {c: duck_blocks.column(t, c) for c in t.column_names}
        gain = extended.limbs(cols["p_hi"], cols["p_lo"])
        cum_tp, tp2 = extended.cumulative(gain, tp)
        cum_n, n2 = extended.cumulative(gain + extended.limbs(cols["n_hi"], cols["n_lo"]), n)
        at = np.flatnonzero((cols["p_hi"] > 0) | (cols["p_lo"] > 0))
        g = extended.extended(cols["p_hi"][at], cols["p_lo"][at])
        rounded += extended.exact_sum(g * cum_tp[at] / cum_n[at])
        tp, n = tp2, n2
    lo, hi = extended.bounds(rounded)
    assert lo <= exact <= hi
    assert rounded != exact  # the rounding is real, so a zero-width interval would miss
    value, _, _ = extended.average_precision(pieces)
    assert value == to_float(exact / sum(pos))


@pytest.mark.parametrize(
    ("low", "high"),
    [(2.0**-60, 1.0), (2.0**60, 2.0**61), (0.5, 1.0), (2.0**-960, 2.0**-940)],
)
def test_float_ap_is_the_oracle_s_rounded(monkeypatch, low, high):
    # tied scores, float weights summed as one HUGEINT per score, pieces of 7 blocks
    monkeypatch.setattr(duck_blocks, "PIECE_ROWS", 7)
    rng = np.random.default_rng(5)
    n = 400
    y = rng.integers(0, 2, n)
    s = rng.integers(0, 60, n).astype(float)
    w = np.exp2(rng.uniform(np.log2(low), np.log2(high), n)) * (1 + rng.random(n) * 2**-1)
    w[:3] = low, high, 0.0
    t = pa.table({"label": y, "score": s, "weight": w})
    from prtheory.duckdb.source import open_source

    with open_source(t) as src:
        assert not duck_blocks.blocks(src, "label", "score", "weight").per_exponent
    assert pdb.average_precision(t, weight="weight") == to_float(oracle.average_precision(y, s, w))


def test_undecided_interval_takes_the_general_path(monkeypatch):
    # an interval too wide to decide (U = 2**-8) must fall back, with the totals of the stream
    monkeypatch.setattr(extended, "U", Fraction(1, 2**8))
    y, s, w = [1, 0, 1, 0, 1], [0.9, 0.8, 0.8, 0.3, 0.1], [0.1, 0.7, 0.25, 3.0, 1.5]
    t = pa.table({"label": y, "score": s, "weight": w})
    assert pdb.average_precision(t, weight="weight") == to_float(oracle.average_precision(y, s, w))


def test_no_positive_weight_keeps_the_convention():
    t = pa.table({"label": [0, 1], "score": [0.9, 0.1], "weight": [0.5, 0.0]})
    assert pdb.average_precision(t, weight="weight", convention="sklearn") == 0.0
    with pytest.raises(Exception, match="positive"):
        pdb.average_precision(t, weight="weight")


def test_sums_near_2_125_fit_the_halves():
    # three positive rows of 2**124 - 2**71 at one score sum past 2**125: the high half would
    # not fit a BIGINT under one HUGEINT, so these weights go per exponent. By hand: one block,
    # all positive, precision 1: AP = 1; a negative of weight 1 below it changes nothing
    w = 2.0**124 - 2.0**71
    t = pa.table({"label": [1, 1, 1, 0], "score": [1.0, 1.0, 1.0, 0.5], "weight": [w, w, w, 1.0]})
    assert pdb.average_precision(t, weight="weight", exact=True) == 1
    assert pdb.average_precision(t, weight="weight") == 1.0
    t = pa.table({"label": [1, 1, 1], "score": [1.0, 1.0, 1.0], "weight": [w, w, w]})
    assert pdb.average_precision(t, weight="weight") == 1.0


def test_weights_from_the_least_subnormal_to_1e308_take_the_exponent_path():
    # 5e-324 .. 1e308 span some 2100 bits: no HUGEINT holds them, so the extended path is not
    # taken and the float is still the oracle's exact AP rounded
    y = [1, 0, 1, 0, 1, 1, 0]
    s = [0.9, 0.9, 0.7, 0.5, 0.5, 0.2, 0.1]
    w = [5e-324, 1e308, 3.0, 2.0**-1000, 1e308, 0.1, 5e-324]
    t = pa.table({"label": y, "score": s, "weight": w})
    from prtheory.duckdb.source import open_source

    with open_source(t) as src:
        assert duck_blocks.blocks(src, "label", "score", "weight").per_exponent
    want = oracle.average_precision(y, s, w)
    assert pdb.average_precision(t, weight="weight", exact=True) == want
    assert pdb.average_precision(t, weight="weight") == to_float(want)
