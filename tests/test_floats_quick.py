"""The fast paths of AUCPR_min and AUCNPR (:mod:`prtheory.floats._quick`) against mpmath.

The fast path's bound is proved in its module docstring; these tests check the proof's
ingredients and its result independently: the tables and the cancellation factors are
recomputed with mpmath and exact rationals, the fast path's own double-doubles are compared with
mpmath at 60 digits where its error is largest (the bound must hold), and inputs whose value lies
near a rounding midpoint -- found by a search and re-measured here with mpmath, never taken from
the code under test -- must be left undecided by the fast pass when they lie inside its margin,
and must come out correctly rounded from the public functions. Skipped without numba.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from prtheory import floats as F
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle import closed_forms as cf
from prtheory.oracle.rounding import rounded

pytest.importorskip("numba")

from prtheory.floats import _quick  # numba only

#: The bound derived in the module docstring of prtheory.floats._quick (relative).
PROVED = 2.0**-72.1
RNG = np.random.default_rng(20260512)

# Inputs (pi, a, b) whose AUCPR_min lies 2**-67.5 to 2**-71 (relative) from a midpoint: beyond
# the proved bound, inside the margin that REL_FAST adds. Found by a search over 10**8 random
# points; their distances are re-measured below with mpmath.
WINDOW = [
    ("0x1.814a424e27d86p-2", "0x0.0p+0", "0x1.0p+0"),
    ("0x1.fee925729439ep-1", "0x0.0p+0", "0x1.0p+0"),
    ("0x1.e5012ef630c38p-3", "0x1.c741ad0fad093p-2", "0x1.e111c39948f94p-1"),
    ("0x1.d9b5f8014a3b7p-13", "0x0.0p+0", "0x1.0p+0"),
    ("0x1.bc48cc2aaff18p-2", "0x1.91d63e4b5a040p-7", "0x1.f1101da7fc966p-1"),
    ("0x1.4a4a0aa4e52aep-26", "0x0.0p+0", "0x1.0p+0"),
    ("0x1.00099f5b90926p-1", "0x0.0p+0", "0x1.0p+0"),
    ("0x1.69af6401584bap-2", "0x1.cb3edc81f41d8p-2", "0x1.906fc005a236ap-1"),
    ("0x1.bfb44e06fc6bcp-1", "0x0.0p+0", "0x1.0p+0"),
    ("0x1.fa53ac7cca29cp-2", "0x1.7a653e14354e0p-3", "0x1.09ad8a4c750b0p-1"),
    ("0x1.be5153c8e4088p-4", "0x0.0p+0", "0x1.0p+0"),
    ("0x1.0d87b2874ecbcp-2", "0x0.0p+0", "0x1.0p+0"),
]
# Inputs whose AUCPR_min lies closer to a midpoint than the fast path's actual error there
# (x just below 2**-8, where the float64 part of psi weighs most): rounding the fast value
# directly gives the wrong float, so only the rounding test's bound keeps them correct.
CROSSING = [
    ("0x1.9f23e85fc34a7p-8", "0x1.ab931cd2c6f2fp-3", "0x1.9bb56074e8a75p-1"),
    ("0x1.5ad0eb704c5d8p-8", "0x1.4ee8dc398cb76p-5", "0x1.3e9daa53f4919p-1"),
    ("0x1.f2deb0a1b4a3dp-9", "0x1.8deaf338e89a6p-4", "0x1.387b76a2c15b5p-1"),
    ("0x1.3eaa3701cc237p-9", "0x0.0p+0", "0x1.0p+0"),
]


def _points(rows: list[tuple[str, str, str]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    pi, a, b = (np.array([float.fromhex(r[k]) for r in rows]) for k in range(3))
    return pi, a, b


def _fast(pi: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The fast path's double-doubles: rows AUCPR_min (hi, lo) and the gap (hi, lo)."""
    out = np.empty((4, pi.size))
    _quick.values(pi, a, b, out)
    return out


def _true(pi: float, a: float, b: float) -> tuple[mpmath.mpf, mpmath.mpf]:
    """AUCPR_min and the gap ((1 - pi)/pi) log1p(x) at 60 digits (mpmath)."""
    p, lo, hi = mpmath.mpf(pi), mpmath.mpf(a), mpmath.mpf(b)
    gap = (1 - p) / p * mpmath.log1p(p * (hi - lo) / (1 - p + p * lo))
    return cf.aucpr_min(pi, a, b, dps=60), gap


def _midpoint_distance(v: mpmath.mpf) -> mpmath.mpf:
    """Relative distance of ``v > 0`` to the nearest midpoint between two floats."""
    f = float(v)
    ulp = math.ulp(f)
    lower = mpmath.mpf(f) - ulp / 2 if v < f else mpmath.mpf(f) + ulp / 2
    return abs(v - lower) / v


def _hard_arguments() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Arguments over every part of the fast path, weighted to where its error is largest: x
    just below 2**-8 (``z`` near 2**-8 with ``X = 0``), the lower ends of the table intervals
    for e = 0 and 1 (where phi's terms cancel most), x next to 1 and 3 (e changes), x up to
    2**53 (pi next to 1), tiny skews and narrow recall ranges."""
    n = 300
    pis, a_s, b_s = [], [], []

    def add(pi: np.ndarray, a: np.ndarray | float = 0.0, b: np.ndarray | float = 1.0) -> None:
        pi, a, b = np.broadcast_arrays(pi, a, b)
        pis.append(pi)
        a_s.append(a)
        b_s.append(b)

    # over [0, 1], x = pi/(1 - pi): pi = x/(1 + x)
    x = np.concatenate(
        [
            2.0**-8 * (1 - RNG.uniform(0, 2.0**-6, n)),  # i = 0, z near 2**-8
            (np.arange(1, 256) + RNG.uniform(0, 2.0**-10, 255)) / 256,  # e = 0, lower ends
            1 + 2 * (np.arange(0, 256) + RNG.uniform(0, 2.0**-10, 256)) / 256,  # e = 1
            3 + RNG.uniform(-(2.0**-20), 2.0**-20, n),
            np.exp(RNG.uniform(np.log(3.0), np.log(2.0**53), n)),
        ]
    )
    add(x / (1 + x))
    add(RNG.uniform(0, 1, n))
    add(np.exp(RNG.uniform(np.log(2.0**-300), 0, n)))
    add(1 - 2.0 ** -RNG.integers(1, 54, n).astype(float))
    lo = RNG.uniform(0, 1, n)
    hi = np.minimum(lo + np.exp(RNG.uniform(np.log(2.0**-100), 0, n)), 1.0)
    add(np.exp(RNG.uniform(np.log(2.0**-300), 0, n)), lo, hi)
    add(RNG.uniform(0, 1, n), lo, hi)
    pi, a, b = (np.concatenate(v) for v in (pis, a_s, b_s))
    keep = (pi >= 2.0**-300) & (pi < 1) & (b - a >= 2.0**-100)
    return pi[keep], a[keep], b[keep]


def test_fast_path_within_its_proved_bound():
    pi, a, b = (
        np.concatenate([v, w])
        for v, w in zip(_hard_arguments(), _points(WINDOW + CROSSING), strict=True)
    )
    fast = _fast(pi, a, b)
    worst = [0.0, 0.0]
    with mpmath.workdps(60):
        for k in range(pi.size):
            for row, true in enumerate(_true(float(pi[k]), float(a[k]), float(b[k]))):
                got = mpmath.mpf(fast[2 * row, k]) + mpmath.mpf(fast[2 * row + 1, k])
                err = float(abs(got - true) / true)
                assert err <= PROVED, (row, pi[k].hex(), a[k].hex(), b[k].hex(), math.log2(err))
                worst[row] = max(worst[row], err)
    # the sample does reach the part of the bound that the float64 series takes
    assert worst[0] > 2.0**-80


def test_the_margin_leaves_points_near_midpoints_undecided():
    pi, a, b = _points(WINDOW)
    with mpmath.workdps(60):
        for k in range(pi.size):
            distance = _midpoint_distance(cf.aucpr_min(pi[k], a[k], b[k], dps=60))
            assert 2.0**-72.1 < distance < 2.0**-67, pi[k].hex()
    out, todo = np.empty(pi.size), np.empty(pi.size, np.uint8)
    _quick.fast_only(pi, pi, a, b, out, todo, False)
    assert todo.all()  # REL_FAST >= 2**-68 around each: the margin is applied
    got = F.aucpr_min(pi, a, b)
    for k in range(pi.size):
        assert got[k] == rounded(cf.aucpr_min, pi[k], a[k], b[k])


def test_points_where_the_fast_value_rounds_wrongly_come_out_right():
    pi, a, b = _points(CROSSING)
    fast = _fast(pi, a, b)
    with mpmath.workdps(60):
        for k in range(pi.size):
            want = rounded(cf.aucpr_min, pi[k], a[k], b[k])
            # the construction: the fast double-double, rounded as it is, gives another float
            assert fast[0, k] + fast[1, k] != want, pi[k].hex()
            assert F.aucpr_min(pi[k : k + 1], a[k : k + 1], b[k : k + 1])[0] == want
            assert F.aucpr_min(float(pi[k]), float(a[k]), float(b[k])) == want
    out, todo = np.empty(pi.size), np.empty(pi.size, np.uint8)
    _quick.fast_only(pi, pi, a, b, out, todo, False)
    assert todo.all()


def test_fast_pass_decides_almost_everything():
    pi = RNG.uniform(0, 1, 200_000)
    out, todo = np.empty(pi.size), np.empty(pi.size, np.uint8)
    _quick.fast_only(pi, pi, 0.0, 1.0, out, todo, False)
    assert todo.mean() < 2e-3
    # AUCNPR's bound grows with the cancellation of its numerator (aucpr - AUCPR_min): for
    # aucpr uniform in [0, 1] about 0.7% of the elements stay undecided
    area = RNG.uniform(0, 1, pi.size)
    _quick.fast_only(area, pi, 0.0, 1.0, out, todo, True)
    assert todo.mean() < 0.02


def test_tables_against_mpmath():
    r = _quick.table_r
    assert r[0] == 1.0
    with mpmath.workdps(100):
        for i in range(1, _quick.POINTS):
            assert r[i] == float(1 / (1 + (mpmath.mpf(i) + 0.5) / 256))
        for j in range(3 * _quick.POINTS):
            e, i = divmod(j, _quick.POINTS)
            ri = mpmath.mpf(r[i])
            if e < 2:
                first = mpmath.mpf(2) ** e / ri - 1
                second = first - mpmath.log(1 + first)
            else:
                first, second = 1 / ri, -mpmath.log(ri)
            for true, hi, lo in (
                (first, _quick.table_ah[j], _quick.table_al[j]),
                (second, _quick.table_bh[j], _quick.table_bl[j]),
            ):
                if true:
                    assert abs(mpmath.mpf(hi) + mpmath.mpf(lo) - true) <= 2.0**-105.9 * abs(true)
        ln2 = mpmath.mpf(_quick.ln2_h) + mpmath.mpf(_quick.ln2_l)
        assert abs(ln2 - mpmath.log(2)) <= 2.0**-95.8
        assert _quick.ln2_h == math.ldexp(round(math.ldexp(_quick.ln2_h, 42)), -42)


def test_cancellation_factors_of_the_derivation():
    # |z| <= Z on every table interval (t within 2u of its ends), phi's terms within C_PHI = 4
    # of phi (e <= 1) or 1.01 (e >= 2, where also x + K <= 2.72 phi), log1p's within C_L = 2
    u = Fraction(1, 2**53)
    worst_z, worst_phi, worst_high, worst_xk, worst_log = Fraction(0), 0.0, 0.0, 0.0, 0.0
    with mpmath.workdps(50):
        for e in [0, 1, 2, 3, 10, 53]:
            for i in range(_quick.POINTS):
                r = Fraction(float(_quick.table_r[i]))
                lower = r * (1 + Fraction(i, 256)) * (1 - 2 * u) - 1
                upper = r * (1 + Fraction(i + 1, 256)) * (1 + 2 * u) - 1
                worst_z = max(worst_z, abs(lower), abs(upper))
                if e == 0 and i == 0:
                    continue
                z = mpmath.mpf(lower.numerator) / lower.denominator  # the most negative z
                big_x = mpmath.mpf(2) ** e / mpmath.mpf(float(r)) - 1
                x = (1 + big_x) * (1 + z) - 1
                phi = x - mpmath.log1p(x)
                w = z - mpmath.log1p(z)
                k = mpmath.log1p(big_x)
                if e <= 1:
                    terms = (big_x - k) + abs(big_x * z) + w
                    worst_phi = max(worst_phi, float(terms / phi))
                else:
                    terms = abs(x - k) + abs(z) + w
                    worst_high = max(worst_high, float(terms / phi))
                    worst_xk = max(worst_xk, float((x + k) / phi))
                worst_log = max(worst_log, float((k + abs(z) + w) / mpmath.log1p(x)))
    assert worst_z <= Fraction(1, 256) * (1 + Fraction(1, 2**40))
    assert worst_phi <= 4.0
    assert worst_high <= 1.01
    assert worst_xk <= 2.72
    assert worst_log <= 2.0


def _under(backend: str, fn, *args):
    previous = F.set_backend(backend)
    try:
        return fn(*args)
    finally:
        F.set_backend(previous)


@pytest.mark.parametrize(
    ("fn", "args"),
    [
        (F.aucpr_min, (np.array([0.1, np.nan]),)),
        (F.aucpr_min, (np.array([0.1, -0.2]),)),
        (F.aucpr_min, (np.array([[0.1], [1.5]]),)),
        (F.aucpr_min, (np.array([0.1, 0.2]), 0.6, 0.2)),
        (F.aucpr_min, (np.array([0.1, 0.2]), 0.4, 0.4)),
        (F.aucpr_min, (np.array([0.1, 0.2]), np.array([0.1, 0.5]), np.array([0.3, 0.5]))),
        (F.aucpr_min, (np.array([0.1, 0.2]), np.array([0.1, np.nan]), np.array([0.3, 0.5]))),
        (F.aucpr_min, (np.array([0.1, 0.2]), -1, 1)),
        (F.aucnpr, (np.array([0.5, 1.5]), np.array([0.1, 0.2]))),
        (F.aucnpr, (np.array([0.5, np.nan]), np.array([0.1, 0.2]))),
        (F.aucnpr, (np.array([0.5, 0.6]), np.array([0.1, 2.0]))),
        (F.aucnpr, (np.array([0.5, 0.6]), np.array([0.1, 0.2]), 0.3, 0.3)),
    ],
)
def test_one_pass_route_raises_the_documented_errors(fn, args):
    # the same error and message as the numpy backend, which validates before any kernel
    with pytest.raises((InvalidInputError, UndefinedMetricError)) as expected:
        _under("numpy", fn, *args)
    with pytest.raises(type(expected.value), match=f"^{re.escape(str(expected.value))}$"):
        _under("numba", fn, *args)


def test_one_pass_route_matches_the_reference_path():
    # end points, scalar and per-element ranges, integer range ends, 2-d arrays, and
    # arguments the one-pass route leaves to the general one (mixed shapes, other dtypes)
    pi = np.concatenate([[0.0, 1.0, -0.0, 5e-324, 2.0**-300, 1 - 2.0**-53], RNG.uniform(0, 1, 500)])
    area = RNG.uniform(0, 1, pi.size)
    lo = RNG.uniform(0, 0.5, pi.size)
    hi = lo + RNG.uniform(2.0**-60, 0.5, pi.size)
    cases = [
        (F.aucpr_min, (pi,)),
        (F.aucpr_min, (pi, 0, 1)),
        (F.aucpr_min, (pi, 0.25, np.float64(0.75))),
        (F.aucpr_min, (pi, lo, hi)),
        (F.aucpr_min, (pi.reshape(2, -1), lo.reshape(2, -1), hi.reshape(2, -1))),
        (F.aucpr_min, (pi, lo[:1], hi[:1])),
        (F.aucpr_min, (pi[::2],)),
        (F.aucpr_min, (pi.astype(np.float32),)),
        (F.aucnpr, (area, pi)),
        (F.aucnpr, (area, pi, lo, hi)),
        (F.aucnpr, (0.5, pi)),
        (F.aucnpr, (area.reshape(2, -1), pi.reshape(2, -1), 0.0, 0.5)),
    ]
    for fn, args in cases:
        want = _under("numpy", fn, *args)
        got = _under("numba", fn, *args)
        assert np.asarray(got).shape == np.asarray(want).shape
        assert np.array_equal(np.asarray(got).view(np.int64), np.asarray(want).view(np.int64)), (
            fn.__name__,
            [np.shape(v) for v in args],
        )
