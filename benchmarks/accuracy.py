"""Accuracy of the float64 layer (prtheory.floats) against the oracle at 50 digits.

For each function, a deterministic sample of at least 10**6 argument tuples (log-spaced down to
1e-300, skews up to 1 - 2**-53, edge values such as powers of two and the branch switch points,
and random interior points) is evaluated by ``prtheory.floats`` and by a reference evaluator. The
error of each float result ``y`` is measured in units in the last place of the true value ``x``:
``|y - x| / ulp(x)`` (``prtheory.oracle.rounding.ulp``); 0.5 is the best possible. The naive
textbook formula for AUCPR_min is measured on the same sample for comparison.

Reference values. The project's oracle (``prtheory.oracle``: exact ``Fraction`` arithmetic, and
mpmath at 50 digits with cancellation-aware working precision) costs 20-500 microseconds per
point, too slow for 10**7 points on a shared 2-core machine. So every point is evaluated with the
same direct formulas in Arb ball arithmetic (python-flint), at a working precision raised until
the ball's relative radius is below 2**-160 -- a rigorous enclosure of the true value, to about
48 digits -- and the first ``--check`` points of every sample are also evaluated by the mpmath
oracle itself; the report gives the largest relative difference between the two, which must be
below 2**-150 (the run fails otherwise). Arb and mpmath share no code.

The reference results are cached under ``$PRTHEORY_CACHE`` (default
``~/.cache/prtheory/accuracy``), keyed by the sample's bytes and the source of the evaluators, so
re-running after a change to ``floats.py`` alone takes seconds.

Usage::

    python benchmarks/accuracy.py                 # 10**6 points per function -> reports/accuracy.md
    python benchmarks/accuracy.py --n 20000 --out /tmp/accuracy.md --workers 2

The report records the SHA-256 of ``prtheory/floats.py``, of the sampling code below and of the
oracle modules; ``tests/test_floats.py`` fails when the committed report no longer matches them.
The run time on the machine described in the report is recorded too.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import platform
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from multiprocessing import Pool
from pathlib import Path

import mpmath
import numpy as np

try:  # only the reference evaluation needs python-flint (extra 'bench'); tests import the sampler
    import flint
    from flint import arb
except ImportError:  # pragma: no cover
    flint = arb = None

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from prtheory import floats  # noqa: E402
from prtheory.oracle import closed_forms, points, rounding  # noqa: E402

N_DEFAULT = 1_000_000
SEED = 20120628
DPS = 50
REPORT = ROOT / "reports" / "accuracy.md"
ORACLE_FILES = (
    "prtheory/oracle/closed_forms.py",
    "prtheory/oracle/points.py",
    "prtheory/oracle/rounding.py",
)

# ---------------------------------------------------------------------------------------------
# sampling (everything from here to the end of the section is hashed into the report)


def _loguniform(rng: np.random.Generator, lo: float, hi: float, n: int) -> np.ndarray:
    return np.exp(rng.uniform(np.log(lo), np.log(hi), n))


def _edge_skews() -> np.ndarray:
    powers = [2.0**-j for j in range(1, 1075)]
    near_one = [1 - 2.0**-j for j in range(1, 54)]
    special = [1e-300, 1e-17, 1e-12, 1e-8, 1e-6, 0.1, 0.125, 1 / 9, 0.2, 0.25, 0.5, 0.75, 0.9]
    special += [1 - 1e-12, 1 - 1e-8, 5e-324, 2.0**-1022, 3 * 2.0**-1074]
    base = np.array(powers + near_one + special)
    return np.unique(np.concatenate([base, np.nextafter(base, 0), np.nextafter(base, 1)]))


def _skews(rng: np.random.Generator, n: int) -> np.ndarray:
    """Skews in (0, 1): edges, log-spaced to 1e-300 and to 1 - 2**-53, and uniform."""
    edges = _edge_skews()
    edges = edges[(edges > 0) & (edges < 1)]
    k = (n - edges.size) // 5
    parts = [
        edges,
        _loguniform(rng, 1e-300, 1e-12, k),
        _loguniform(rng, 1e-12, 0.5, k),
        1 - _loguniform(rng, 2.0**-53, 1e-12, k),
        1 - _loguniform(rng, 1e-12, 0.5, k),
        rng.uniform(0, 1, n - edges.size - 4 * k),
    ]
    pi = np.concatenate(parts)[:n]
    pi = np.where((pi <= 0) | (pi >= 1), 0.5, pi)
    return rng.permutation(pi)


def _unit(rng: np.random.Generator, n: int) -> np.ndarray:
    """Values in (0, 1]: half log-spaced from 1e-300, half uniform, a few 1s."""
    x = np.concatenate([_loguniform(rng, 1e-300, 1.0, n // 2), rng.uniform(0, 1, n - n // 2)])
    x[rng.integers(0, n, n // 100)] = 1.0
    return rng.permutation(np.where(x == 0, 0.5, x))


def _ranges(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Recall ranges: 80% [0, 1]; 20% random a < b, the width log-spaced from 1e-15."""
    a, b = np.zeros(n), np.ones(n)
    sub = rng.uniform(0, 1, n) < 0.2
    m = int(sub.sum())
    lo = rng.uniform(0, 1, m) * (rng.uniform(0, 1, m) < 0.8)
    hi = np.minimum(1.0, lo + (1 - lo) * _loguniform(rng, 1e-15, 1.0, m))
    hi = np.where(hi > lo, hi, 1.0)
    a[sub], b[sub] = lo, hi
    return a, b


def _counts(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(pos, neg): a third with pos <= 64, a third with neg <= 64, a third log-spaced to 1e12."""
    k = n // 3
    pos = np.floor(_loguniform(rng, 1, 1e12, n))
    neg = np.floor(_loguniform(rng, 1, 1e12, n)) - 1
    pos[:k] = rng.integers(1, 65, k)
    neg[k : 2 * k] = rng.integers(0, 65, k)
    order = rng.permutation(n)
    return pos[order], neg[order]


def _sample_aucpr_min(rng: np.random.Generator, n: int) -> tuple[np.ndarray, ...]:
    pi = _skews(rng, n)
    a, b = _ranges(rng, n)
    return pi, a, b


def _sample_aucnpr(rng: np.random.Generator, n: int) -> tuple[np.ndarray, ...]:
    pi, a, b = _sample_aucpr_min(rng, n)
    low = floats.aucpr_min(pi, a, b)
    u = rng.uniform(0, 1, n)
    area = low + (b - a - low) * u
    near = rng.uniform(0, 1, n) < 0.1  # just above (or below) the minimum
    area[near] = low[near] * (1 + rng.integers(-4, 2**20, int(near.sum())) * 2.0**-52)
    return np.clip(area, 0, 1), pi, a, b


def _sample_min_precision(rng: np.random.Generator, n: int) -> tuple[np.ndarray, ...]:
    return _unit(rng, n), _skews(rng, n)


def _sample_gain(rng: np.random.Generator, n: int) -> tuple[np.ndarray, ...]:
    return _unit(rng, n), _skews(rng, n)


def _sample_fbeta(rng: np.random.Generator, n: int) -> tuple[np.ndarray, ...]:
    beta = _loguniform(rng, 1e-3, 1e3, n)
    beta[rng.uniform(0, 1, n) < 0.2] = 1.0
    return _unit(rng, n), _unit(rng, n), beta


def _sample_counts(rng: np.random.Generator, n: int) -> tuple[np.ndarray, ...]:
    return _counts(rng, n)


# Hard cases: the last hundredth of each sample (where a construction is known). A true value within
# 2**-100 (relative) of a rounding boundary cannot be found by chance; these are built so that it
# is -- exactly on a midpoint (F-beta) or within about 2**-900 of one (the others, where a
# subnormal or tiny argument contributes a midpoint-valued leading term plus a tiny excess) --
# or so that an argument or the result is subnormal.


def _odd_subnormals(rng: np.random.Generator, n: int) -> np.ndarray:
    """Odd multiples of 2**-1074 (half of each is a midpoint of the subnormal grid)."""
    return (2 * rng.integers(0, 2**51, n) + 1) * 2.0**-1074


def _subnormals(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.integers(1, 2**52, n) * 2.0**-1074


def _hard_fbeta(rng: np.random.Generator, n: int) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    # p = (1-t)/2, r = (1+t)/2 (times 2**-s), t = k 2**-27, k odd: F_1 = 2**-s (2**54 - k**2)/2**55,
    # an odd multiple of half the spacing, i.e. exactly a midpoint, for s <= 1020
    k = 2 * rng.integers(2**19, 2**25, n) + 1  # t < 1/2, so F_1 is in (3/8, 1/2)
    t = k * 2.0**-27
    s = rng.integers(0, 1047, n)
    p, r = np.ldexp((1 - t) / 2, -s), np.ldexp((1 + t) / 2, -s)
    swap = rng.uniform(0, 1, n) < 0.5
    p, r = np.where(swap, r, p), np.where(swap, p, r)
    kind = np.where(s <= 1020, "exact midpoint", "subnormal result, fine dyadic")
    return (p, r, np.ones(n)), kind


def _hard_gain(rng: np.random.Generator, n: int) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    # x = 2**-e, pi = x m, m = (2j+1) 2**-54: gain = (1 - m)/(1 - pi), and 1 - m is a midpoint
    # below 1, pi <= 2**-100 the relative excess
    h = n // 2
    x = np.ldexp(1.0, -rng.integers(100, 969, h))
    pi = x * ((2 * rng.integers(0, 2**50, h) + 1) * 2.0**-54)
    xs, ps = _subnormals(rng, n - h), _subnormals(rng, n - h)
    kind = np.array(["within 2**-100 of a midpoint"] * h + ["subnormal x and pi"] * (n - h))
    return (np.concatenate([x, xs]), np.concatenate([pi, ps])), kind


def _hard_min_precision(
    rng: np.random.Generator, n: int
) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    # r = 1/2, pi an odd multiple of 2**-1074: pi r (1 + pi/2 + ...) is a midpoint plus 2**-1000
    h = n // 2
    r = np.concatenate([np.full(h, 0.5), _unit(rng, n - h)])
    pi = np.concatenate([_odd_subnormals(rng, h), _subnormals(rng, n - h)])
    kind = np.array(["within 2**-1000 of a midpoint"] * h + ["subnormal pi"] * (n - h))
    return (r, pi), kind


def _hard_aucpr_min(rng: np.random.Generator, n: int) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    # pi odd subnormal over [0, 1]: pi/2 + pi**2/6 + ..., a midpoint plus 2**-1000
    h = n // 2
    pi = np.concatenate([_odd_subnormals(rng, h), _subnormals(rng, n - h)])
    a, b = _ranges(rng, n)
    a[:h], b[:h] = 0.0, 1.0
    kind = np.array(["within 2**-1000 of a midpoint"] * h + ["subnormal pi, any range"] * (n - h))
    return (pi, a, b), kind


def _hard_aucnpr(rng: np.random.Generator, n: int) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    # aucpr subnormal, pi odd subnormal over [0, 1]: aucpr - pi/2 + O(2**-2000), a midpoint
    # plus a tiny excess; then subnormal aucpr with tiny pi and tiny ranges
    h = n // 2
    area = _subnormals(rng, n)
    pi = np.concatenate([_odd_subnormals(rng, h), _loguniform(rng, 1e-320, 1e-200, n - h)])
    a, b = np.zeros(n), np.ones(n)
    b[h:] = _loguniform(rng, 1e-300, 1.0, n - h)
    kind = np.array(["within 2**-900 of a midpoint"] * h + ["subnormal aucpr, tiny pi"] * (n - h))
    return (area, pi, a, b), kind


def _oracle_ap_min(pos: float, neg: float) -> object:
    return closed_forms.ap_min(int(pos), int(neg), exact=pos <= 64, dps=DPS)


def _oracle_expected_ap(pos: float, neg: float) -> object:
    return closed_forms.expected_random_ap(int(pos), int(neg), exact=pos + neg <= 64, dps=DPS)


def _oracle_aucpr_min(pi: float, a: float, b: float) -> object:
    return closed_forms.aucpr_min(pi, a, b, dps=DPS)


def _oracle_aucnpr(area: float, pi: float, a: float, b: float) -> object:
    return closed_forms.aucnpr(area, pi, a, b, dps=DPS)


def _naive_aucpr_min(pi: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The textbook float64 evaluation of B7 (B4 over [0, 1]), for comparison."""
    with np.errstate(all="ignore"):
        return b - a + ((1 - pi) / pi) * np.log((pi * (a - 1) + 1) / (pi * (b - 1) + 1))


# Arb evaluations of the defining formulas (arguments are exact float64 values, converted to
# exact balls; every operation's rounding is tracked in the ball's radius).


def _arb_aucpr_min(pi: arb, a: arb, b: arb) -> arb:
    d, v = b - a, 1 - pi * (1 - b)
    x = -pi * d / v
    log = x.log1p() if x > -0.5 else ((1 - pi * (1 - a)) / v).log()
    return d + (1 - pi) / pi * log


def _arb_aucnpr(area: arb, pi: arb, a: arb, b: arb) -> arb:
    low = _arb_aucpr_min(pi, a, b)
    return (area - low) / (b - a - low)


def _arb_min_precision(r: arb, pi: arb) -> arb:
    return pi * r / (1 - pi + pi * r)


def _arb_gain(x: arb, pi: arb) -> arb:
    return (x - pi) / ((1 - pi) * x)


def _arb_fbeta(p: arb, r: arb, beta: arb) -> arb:
    b2 = beta * beta
    return (1 + b2) * p * r / (b2 * p + r)


def _arb_ap_min(pos: arb, neg: arb) -> arb:
    return 1 - neg / pos * ((neg + pos + 1).digamma() - (neg + 1).digamma())


def _arb_expected_ap(pos: arb, neg: arb) -> arb:
    if neg == 0:
        return arb(1)
    total = pos + neg
    harmonic = (total + 1).digamma() + arb.const_euler()
    return (pos - 1) / (total - 1) + neg * harmonic / (total * (total - 1))


# name -> (float64 function, sampler, mpmath/exact oracle, Arb evaluator, ulp bound, skew index)
CASES: dict[str, tuple[Callable, Callable, Callable, Callable, float, int | None]] = {
    "aucpr_min": (floats.aucpr_min, _sample_aucpr_min, _oracle_aucpr_min, _arb_aucpr_min, 0.5, 0),
    "min_precision": (
        floats.min_precision,
        _sample_min_precision,
        closed_forms.min_precision,
        _arb_min_precision,
        0.5,
        1,
    ),
    "precision_gain": (floats.precision_gain, _sample_gain, points.gain, _arb_gain, 0.5, 1),
    "recall_gain": (floats.recall_gain, _sample_gain, points.gain, _arb_gain, 0.5, 1),
    "fbeta": (floats.fbeta, _sample_fbeta, points.fbeta_from_rates, _arb_fbeta, 0.5, None),
    "fbeta_gain": (floats.fbeta_gain, _sample_gain, points.gain, _arb_gain, 0.5, 1),
    "aucnpr": (floats.aucnpr, _sample_aucnpr, _oracle_aucnpr, _arb_aucnpr, 0.5, 1),
    "ap_min": (floats.ap_min, _sample_counts, _oracle_ap_min, _arb_ap_min, 0.5, None),
    "expected_random_ap": (
        floats.expected_random_ap,
        _sample_counts,
        _oracle_expected_ap,
        _arb_expected_ap,
        0.5,
        None,
    ),
}
NAIVE = ("aucpr_min (naive formula)", _naive_aucpr_min, "aucpr_min")
HARD: dict[str, Callable] = {
    "aucpr_min": _hard_aucpr_min,
    "min_precision": _hard_min_precision,
    "precision_gain": _hard_gain,
    "recall_gain": _hard_gain,
    "fbeta": _hard_fbeta,
    "fbeta_gain": _hard_gain,
    "aucnpr": _hard_aucnpr,
}
HARD_SHARE = 100  # the last n // HARD_SHARE points of a sample are hard cases
#: Functions whose value is rational: a reference ball that still straddles a rounding boundary
#: at 2**14 bits is decided by the exact oracle (the value may be exactly a midpoint).
RATIONAL = ("min_precision", "precision_gain", "recall_gain", "fbeta", "fbeta_gain")


def _split(name: str, n: int) -> tuple[int, int]:
    hard = n // HARD_SHARE if name in HARD else 0
    return n - hard, hard


def sample(name: str, n: int) -> tuple[np.ndarray, ...]:
    """The argument arrays of ``name``'s sample of size ``n`` (deterministic)."""
    rng = np.random.default_rng([SEED, list(CASES).index(name)])
    main, hard = _split(name, n)
    args = CASES[name][1](rng, main)
    if not hard:
        return args
    extra, _ = HARD[name](rng, hard)
    return tuple(np.concatenate([u, v]) for u, v in zip(args, extra, strict=True))


def sample_kinds(name: str, n: int) -> np.ndarray:
    """The sampler behind each point of ``sample(name, n)``: 'main' or a hard-case label."""
    rng = np.random.default_rng([SEED, list(CASES).index(name)])
    main, hard = _split(name, n)
    CASES[name][1](rng, main)
    kinds = np.array(["main"] * main, dtype=object)
    return np.concatenate([kinds, HARD[name](rng, hard)[1]]) if hard else kinds


# ---------------------------------------------------------------------------------------------
# digests


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def floats_digest() -> str:
    return _sha256((ROOT / "prtheory" / "floats.py").read_text())


FLOATS_SHA = floats_digest()  # of the floats.py this process imported (the one measured)


def sampler_digest() -> str:
    """SHA-256 of this module's sampling section and of the sampling parameters."""
    source = Path(__file__).read_text()
    start = source.index("# sampling (everything")
    end = source.index("# digests")
    return _sha256(f"{SEED} {DPS}\n" + source[start:end])


def oracle_digest() -> str:
    return _sha256("".join((ROOT / f).read_text() for f in ORACLE_FILES))


# ---------------------------------------------------------------------------------------------
# reference evaluation (process pool) and error measurement

ARB_START_PREC = 224  # bits; raised per point until the ball is tight
ARB_TIGHT_BITS = 160  # accepted relative accuracy of a ball (radius <= 2**-160 |midpoint|)
CROSS_CHECK = Fraction(1, 2**150)  # accepted relative difference between Arb and mpmath


def _man_exp(ball: arb) -> tuple[int, int]:
    man, exp = ball.mid().man_exp()
    return int(man), int(exp)


def _rounds_alike(ball: arb) -> bool:
    """Whether every real in ``ball`` rounds to the same float64 (then so does the true value)."""
    if ball.is_exact():
        return True
    ends = [_exact(*_man_exp(e)) for e in (ball.lower(), ball.upper())]
    return rounding.to_float(ends[0]) == rounding.to_float(ends[1])


def _arb_value(name: str, args: tuple[float, ...]) -> tuple[int, int] | Fraction:
    """``(man, exp)`` of the midpoint of a ball enclosing ``name``'s value at ``args`` whose
    relative radius is at most 2**-160 and that lies between two rounding boundaries of float64
    (the precision doubles until it does: Ziv's loop, made rigorous by Arb), so that the rounding
    of the midpoint is the correct rounding. For a rational function still undecided at 2**14
    bits the value may be a midpoint itself: the exact oracle's ``Fraction`` is returned."""
    fn = CASES[name][3]
    prec = ARB_START_PREC + max(0, -min(int(np.frexp(a)[1]) for a in args if a != 0))
    while True:
        flint.ctx.prec = prec
        ball = fn(*(arb(a) for a in args))
        if ball.rel_accuracy_bits() >= ARB_TIGHT_BITS and _rounds_alike(ball):
            return _man_exp(ball)
        if name in RATIONAL and prec >= 2**14:
            return rounding.exact_rational(CASES[name][2](*args))
        prec *= 2


def _exact(man: int, exp: int) -> Fraction:
    return Fraction(man << exp) if exp >= 0 else Fraction(man, 1 << -exp)


def _ldexp_int(v: int, k: int) -> float:
    """The float64 nearest to ``v 2**k`` (barring over- and underflow), for any size of ``v``.

    ``float(int)`` rounds correctly; 62 bits of ``|v|`` plus a sticky bit standing for every
    discarded bit decide the same rounding (ties included), and cannot overflow.
    """
    drop = max(0, abs(v).bit_length() - 62)
    kept = abs(v) >> drop | (1 if abs(v) & ((1 << drop) - 1) else 0)
    x = math.ldexp(float(kept), k + drop)  # exact scaling
    return -x if v < 0 else x


def _row(man: int, exp: int) -> tuple[float, float, float]:
    """(x rounded to float64, (x - that)/ulp(x), ulp(x)) for ``x = man 2**exp``.

    Fast path in integers for results in the normal range; ``prtheory.oracle.rounding``
    (exact ``Fraction`` arithmetic) otherwise.
    """
    if man == 0:
        return 0.0, 0.0, 2.0**-1074
    e = abs(man).bit_length() - 1 + exp  # floor(log2 |x|)
    if -1022 <= e <= 1022:
        near = _ldexp_int(man, exp)
        nm, nd = near.as_integer_ratio()
        ne = -(nd.bit_length() - 1)  # near = nm 2**ne (nd is a power of two)
        s = e - 52  # ulp(x) = 2**s
        k = min(exp, ne)
        diff = (man << (exp - k)) - (nm << (ne - k))  # (x - near) 2**-k, exactly
        return near, _ldexp_int(diff, k - s), math.ldexp(1.0, s)
    return _fraction_row(_exact(man, exp))


def _fraction_row(exact: Fraction) -> tuple[float, float, float]:
    near = rounding.to_float(exact)
    unit = rounding.ulp(exact)
    resid = 0.0 if math.isinf(near) else float((exact - rounding.exact_rational(near)) / unit)
    return near, resid, float(unit)


def _value_row(value: tuple[int, int] | Fraction) -> tuple[float, float, float]:
    return _fraction_row(value) if isinstance(value, Fraction) else _row(*value)


def _value_exact(value: tuple[int, int] | Fraction) -> Fraction:
    return value if isinstance(value, Fraction) else _exact(*value)


def _reference_rows(job: tuple[str, list[tuple[float, ...]]]) -> np.ndarray:
    name, rows = job
    return np.array([_value_row(_arb_value(name, args)) for args in rows]).reshape(len(rows), 3)


def _cross_check_rows(job: tuple[str, list[tuple[float, ...]]]) -> float:
    """Largest relative difference between the Arb reference and the mpmath oracle."""
    name, rows = job
    worst = Fraction(0)
    for args in rows:
        ref = _value_exact(_arb_value(name, args))
        orc = rounding.exact_rational(CASES[name][2](*args))
        diff = abs(ref - orc) / abs(orc) if orc != 0 else abs(ref)
        worst = max(worst, diff)
    return float(worst)


# ---------------------------------------------------------------------------------------------
# orchestration (the code above this line determines the cached reference values)


def _map(fn: Callable, jobs: list, workers: int) -> list:
    if workers > 1:
        with Pool(workers) as pool:
            return pool.map(fn, jobs)
    return [fn(j) for j in jobs]


def _jobs(name: str, args: tuple[np.ndarray, ...], chunk: int = 2000) -> list:
    rows = list(zip(*(a.tolist() for a in args), strict=True))
    return [(name, rows[i : i + chunk]) for i in range(0, len(rows), chunk)]


def reference(
    name: str, args: tuple[np.ndarray, ...], workers: int, cache: Path | None
) -> tuple[np.ndarray, float, bool]:
    """Reference table for ``name``, the seconds it took to compute, and whether it was cached.

    The cache key is the sample's bytes and the source that determines the values.
    """
    n = args[0].size
    data = hashlib.sha256(
        b"".join(np.ascontiguousarray(a, dtype=np.float64).tobytes() for a in args)
    )
    source = Path(__file__).read_text()
    evaluation = source[source.index("# reference evaluation") : source.index("# orchestration")]
    key = _sha256(f"{name} {n} {data.hexdigest()} {sampler_digest()} {evaluation}")[:20]
    path = cache / f"{name}-{n}-{key}.npy" if cache else None
    if path is not None and path.exists() and path.with_suffix(".seconds").exists():
        return np.load(path), float(path.with_suffix(".seconds").read_text()), True
    t0 = time.perf_counter()
    table = np.concatenate(_map(_reference_rows, _jobs(name, args), workers))
    seconds = time.perf_counter() - t0
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.save(path, table)
        path.with_suffix(".seconds").write_text(f"{seconds:.1f}")
    return table, seconds, False


def cross_check(name: str, args: tuple[np.ndarray, ...], count: int, workers: int) -> float:
    head = tuple(a[:count] for a in args)
    return max(_map(_cross_check_rows, _jobs(name, head, chunk=250), workers))


def ulp_errors(y: np.ndarray, table: np.ndarray) -> np.ndarray:
    """``|y - x| / ulp(x)`` from the oracle table (exact subtraction of nearby floats)."""
    near, resid, unit = table.T
    with np.errstate(all="ignore"):
        err = np.abs((y - near) / unit - resid)
    both_inf = np.isinf(near) & (y == near)
    err = np.where(both_inf, 0.0, err)
    return np.where(np.isnan(err) | (np.isinf(y) & ~both_inf), np.inf, err)


def _regions(pi: np.ndarray) -> dict[str, np.ndarray]:
    return {
        "pi <= 1e-12": pi <= 1e-12,
        "1e-12 < pi < 1 - 1e-12": (pi > 1e-12) & (pi < 1 - 1e-12),
        "pi >= 1 - 1e-12": pi >= 1 - 1e-12,
    }


def _stats(err: np.ndarray) -> tuple[float, float]:
    return float(np.max(err)), float(np.quantile(err, 0.999, method="higher"))


def _machine() -> str:
    cpu = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{cpu}, {os.cpu_count()} logical CPUs; {platform.platform()}; Python "
        f"{platform.python_version()}, numpy {np.__version__}, mpmath {mpmath.__version__} "
        f"(backend {mpmath.libmp.BACKEND})"
    )


def run(n: int, workers: int, cache: Path | None, check: int) -> dict:
    results = {}
    for name, (fn, _, _, _, bound, skew_at) in CASES.items():
        t0 = time.perf_counter()
        args = sample(name, n)
        table, reference_s, cached = reference(name, args, workers, cache)
        agreement = cross_check(name, args, check, workers)
        if agreement > CROSS_CHECK:
            raise SystemExit(
                f"{name}: Arb and the mpmath oracle differ by {agreement:.3g} (relative)"
            )
        t1 = time.perf_counter()
        y = np.asarray(fn(*args))
        t2 = time.perf_counter()
        err = ulp_errors(y, table)
        results[name] = {
            "err": err,
            "wrong": y != table[:, 0],
            "kinds": sample_kinds(name, n),
            "args": args,
            "y": y,
            "table": table,
            "bound": bound,
            "skew": args[skew_at] if skew_at is not None else None,
            "agreement": agreement,
            "float_s": t2 - t1,
            "reference_s": reference_s,
            "cached": cached,
        }
        print(
            f"{name}: max {np.max(err):.3f} ulp; reference {t1 - t0:.0f} s, float64 {t2 - t1:.2f} s",
            file=sys.stderr,
        )
    base = results[NAIVE[2]]
    t0 = time.perf_counter()
    naive = NAIVE[1](*base["args"])
    naive_s = time.perf_counter() - t0
    results[NAIVE[0]] = {
        "err": ulp_errors(naive, base["table"]),
        "wrong": naive != base["table"][:, 0],
        "kinds": None,
        "bound": None,
        "skew": base["skew"],
        "args": base["args"],
        "y": naive,
        "table": base["table"],
        "agreement": None,
        "float_s": naive_s,
    }
    return results


def _fmt(x: float) -> str:
    return "inf" if np.isinf(x) else (f"{x:.3g}" if x >= 1e4 else f"{x:.6f}")


def _kind_masks(kinds: np.ndarray) -> list[tuple[str, np.ndarray]]:
    return [(k, kinds == k) for k in sorted(set(kinds.tolist()) - {"main"})]


def _breakdown(results: dict, groups: Callable, cells: Callable) -> list[str]:
    """Table rows ``| function | group | points | cells |`` for each non-empty group."""
    return [
        f"| {name} | {label} | {int(mask.sum())} | {cells(res, mask)} |"
        for name, res in results.items()
        for label, mask in groups(res)
        if mask.any()
    ]


def render(results: dict, n: int, workers: int, check: int, seconds: float, command: str) -> str:
    measured = [r for r in results.values() if "cached" in r]
    reference_s = sum(r["reference_s"] for r in measured)
    cached = sum(r["cached"] for r in measured)
    cached_note = (
        f" ({cached} of {len(measured)} tables read from the cache; the time is that of the run "
        "that computed them)"
        if cached
        else ""
    )
    lines = [
        "# Accuracy of the float64 layer",
        "",
        "<!-- generated by benchmarks/accuracy.py; do not edit -->",
        "",
        f"Regenerate with `{command}`. Errors are `|y - x| / ulp(x)` for the float64 result `y`",
        "and the true value `x`; 0.5 ulp is correct rounding. `x` comes from Arb ball arithmetic",
        "(python-flint) with a rigorous relative error below 2**-160 (about 48 digits); on the",
        f"first {check} points of every sample it is cross-checked against the project's oracle",
        f"(`prtheory.oracle`: exact rationals, or mpmath at {DPS} digits).",
        "",
        f"- machine: {_machine()}",
        f"- run time: {seconds:.0f} s with {workers} worker processes; computing the reference values "
        f"took {reference_s:.0f} s of it{cached_note}",
        f"- points per function: {n}",
        f"- floats.py sha256: `{FLOATS_SHA}`",
        f"- sampler sha256: `{sampler_digest()}`",
        f"- oracle sha256: `{oracle_digest()}`",
        "",
        "## Maximum and 99.9th-percentile error",
        "",
        "`misrounded` counts the points whose result is not the correctly rounded float64 (ties to",
        "even), compared bit for bit with the reference's rounding; every reference ball was",
        "narrowed until it lies between two rounding boundaries (or, for a rational function,",
        "replaced by the exact oracle's value), so that rounding is certain even at a midpoint.",
        "`Arb vs mpmath` is the largest relative difference between the two references. The float64",
        "time includes the slow path (the oracle) for the points the rounding test leaves",
        "undecided, which are nearly all of the hard cases below.",
        "",
        "| function | points | max ulp | 99.9% ulp | misrounded | bound | within bound | Arb vs mpmath | float64 time (s) |",
        "|---|---:|---:|---:|---:|---:|---|---:|---:|",
    ]
    for name, res in results.items():
        mx, q = _stats(res["err"])
        bound = res["bound"]
        ok = "-" if bound is None else ("yes" if not res["wrong"].any() else "**no**")
        agree = "-" if res["agreement"] is None else f"{res['agreement']:.1e}"
        above = int(np.count_nonzero(res["wrong"]))
        lines.append(
            f"| {name} | {res['err'].size} | {_fmt(mx)} | {_fmt(q)} | {above} | "
            f"{'-' if bound is None else bound} | {ok} | {agree} | {res['float_s']:.2f} |"
        )
    lines += [
        "",
        "## Hard cases",
        "",
        "The last hundredth of each sample where a construction is known: true values exactly on,",
        "or within the stated distance (relative) of, a midpoint between two floats, and subnormal",
        "arguments or results (see `benchmarks/accuracy.py`). AP_min and the expected random AP",
        "have none: their values are rationals with large odd denominators, and no construction",
        "of near-midpoint counts is known; the rounding test covers them all the same.",
        "",
        "| function | sampler | points | misrounded | max ulp |",
        "|---|---|---:|---:|---:|",
    ]
    lines += _breakdown(
        results,
        lambda res: [] if res["kinds"] is None else _kind_masks(res["kinds"]),
        lambda res, m: f"{int(res['wrong'][m].sum())} | {_fmt(float(np.max(res['err'][m])))}",
    )
    lines += [
        "",
        "## By skew region",
        "",
        "| function | region | points | max ulp | 99.9% ulp |",
        "|---|---|---:|---:|---:|",
    ]
    lines += _breakdown(
        results,
        lambda res: [] if res["skew"] is None else list(_regions(res["skew"]).items()),
        lambda res, m: " | ".join(_fmt(v) for v in _stats(res["err"][m])),
    )
    lines += [
        "",
        "## Worst points",
        "",
        "`arguments => float64 result (true value rounded to float64)`",
        "",
    ]
    for name, res in results.items():
        worst = np.argsort(res["err"])[-3:][::-1]
        lines.append(f"- **{name}**")
        for i in worst:
            args = ", ".join(repr(float(a[i])) for a in res["args"])
            lines.append(
                f"  - `({args}) => {float(res['y'][i])!r} ({float(res['table'][i, 0])!r})`: "
                f"{_fmt(float(res['err'][i]))} ulp"
            )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=N_DEFAULT, help="points per function")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", type=Path, default=REPORT)
    parser.add_argument("--no-cache", action="store_true", help="recompute the reference values")
    parser.add_argument(
        "--check", type=int, default=2000, help="points per function cross-checked with mpmath"
    )
    args = parser.parse_args(argv)
    cache = (
        None
        if args.no_cache
        else Path(
            os.environ.get("PRTHEORY_CACHE", Path.home() / ".cache" / "prtheory" / "accuracy")
        )
    )
    t0 = time.perf_counter()
    results = run(args.n, args.workers, cache, args.check)
    seconds = time.perf_counter() - t0
    command = "python benchmarks/accuracy.py" + ("" if args.n == N_DEFAULT else f" --n {args.n}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(render(results, args.n, args.workers, args.check, seconds, command))
    print(f"wrote {args.out} in {seconds:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
