"""Deterministic samplers of float64 arguments for the closed forms of :mod:`prtheory.floats`.

Each sampler draws argument arrays for one function from a :class:`numpy.random.Generator`:
skews log-spaced down to 1e-300 and up to ``1 - 2**-53``, values in (0, 1], recall ranges,
counts up to 1e12, the edge values (powers of two, their neighbours, the branch switch points),
and -- the last ``n // HARD_SHARE`` points of a sample -- hard cases built to lie exactly on, or
within a stated distance of, a midpoint between two floats, or to be subnormal.

**Midpoint hunters.** Inputs built so that the true value lies within 2**-100 (relative) of a
rounding midpoint between two floats, or exactly on one -- the inputs where a rounding test
with a bound of 2**-90 must fall back. For the rational functions the inputs are solved for
exactly (F-beta's exact midpoints; a divisor ``W`` of ``2**K -+ 1`` makes ``1/W`` an odd
multiple of ``2**-K`` up to a relative ``2**-K``, which gives near-midpoints of the gains, of
the least precision and of AP_min with one positive); for the logarithmic ones they are
searched with high precision (AUCNPR is affine in ``aucpr``, so a lattice search over 2**48
consecutive floats ``aucpr`` finds one whose image is within about 2**-101 of a midpoint; for
AUCPR_min the series ``pi (b^2 - a^2)/2 + O(pi^2)`` at ``pi = 2**-e`` is a midpoint for
``b = 1 - k 2**-27``). :func:`midpoint_distance` measures how close a value really is.

``benchmarks/accuracy.py`` measures 10**6 points per function from :func:`sample`, and the tests
draw a few thousand from the same samplers. ``reports/accuracy.md`` records the SHA-256 of this
file (:func:`prtheory._testing.digests.sampler_digest`), so a change here marks the report stale.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from functools import cache

import numpy as np

from prtheory import floats
from prtheory.oracle import closed_forms, rounding

__all__ = [
    "HARD",
    "HARD_SHARE",
    "SAMPLERS",
    "SEED",
    "midpoint_distance",
    "sample",
    "sample_kinds",
]

SEED = 20120628

Sample = tuple[np.ndarray, ...]
HardSample = tuple[Sample, np.ndarray]


def _loguniform(rng: np.random.Generator, lo: float, hi: float, n: int) -> np.ndarray:
    """Positive floats in [lo, hi], log-spaced: uniform integers between the bit patterns of
    ``lo`` and ``hi`` (an increasing map to the positive floats, so every binade gets equal
    weight). No libm call: numpy's ``exp``/``log`` differ in the last bit between CPUs (SIMD
    dispatch), which made the same seed draw different points on different machines."""
    a, b = (int(v) for v in np.array([lo, hi], dtype=np.float64).view(np.int64))
    return rng.integers(a, b, n, endpoint=True, dtype=np.int64).view(np.float64)


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


# Midpoint hunters -----------------------------------------------------------------------------


@cache
def _divisors(k: int, sign: int) -> tuple[int, ...]:
    """Divisors of ``2**k + sign`` (sympy factors these numbers in well under a second)."""
    import sympy

    return tuple(sorted(int(d) for d in sympy.divisors(2**k + sign)))


def _reciprocal_family(k_values: range, lo: int, hi: int) -> list[tuple[int, int, int]]:
    """``(W, K, sign)`` with ``W`` a divisor of ``2**K + sign`` in ``(lo, hi]``: then
    ``1/W = q 2**-K (1 - sign 2**-K + ...)`` with ``q = (2**K + sign)/W`` odd."""
    return [
        (w, k, sign)
        for k in k_values
        for sign in (-1, 1)
        for w in _divisors(k, sign)
        if lo < w <= hi
    ]


def _cycle(values: list, n: int, rng: np.random.Generator) -> list:
    """``n`` items of ``values`` (all of them, in random order, repeated as needed)."""
    if not values:
        return []
    order = rng.permutation(len(values))
    return [values[order[i % len(values)]] for i in range(n)]


def _gain_divisor_points(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    # gain(1/2, 1 - v) = 2 - 1/v. With v = V 2**-53, V | 2**K -+ 1 and 2**52 < V <= 2**53:
    # 1/v = q 2**(53-K) (1 -+ 2**-K ...), q odd, so 2 - 1/v is an odd multiple of 2**(53-K) up
    # to 2**-K absolute: a midpoint when it lies in [2**-j, 2**(1-j)) with K = 106 + j, at a
    # relative distance of about 2**-106
    found = [
        (v, k)
        for j in range(8)
        for v, k, _ in _reciprocal_family(range(106 + j, 107 + j), 2**52, 2**53)
        if 2.0**-j <= 2 - 2**53 / v < 2.0 ** (1 - j)
    ]
    pis = [1 - v * 2.0**-53 for v, _ in _cycle(found, n, rng)]
    return np.full(len(pis), 0.5), np.array(pis)


def _min_precision_divisor_points(
    rng: np.random.Generator, n: int
) -> tuple[np.ndarray, np.ndarray]:
    # min_precision(r, 1/2) = r/(1 + r) = 1 - 1/(1 + r). With 1 + r = W 2**-52, W | 2**K -+ 1:
    # 1/(1 + r) = q 2**(52-K) (...), so 1 - 1/(1 + r) is an odd multiple of 2**(52-K) up to
    # 2**-K: a midpoint in [2**-j, 2**(1-j)) when K = 105 + j (distance 2**-105 relative)
    found = [
        w
        for j in range(2, 12)
        for w, _, _ in _reciprocal_family(range(105 + j, 106 + j), 2**52, 2**53)
        if 2.0**-j <= 1 - 2**52 / w < 2.0 ** (1 - j)
    ]
    rs = [w * 2.0**-52 - 1 for w in _cycle(found, n, rng)]
    return np.array(rs), np.full(len(rs), 0.5)


def _ap_min_divisor_points(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    # AP_min(1, neg) = 1/(neg + 1). With m = neg + 1 | 2**K -+ 1 and 2**(K-54) < m <= 2**(K-53):
    # 1/m = q 2**-K (1 -+ 2**-K ...), q odd with 54 bits: a midpoint up to 2**-K relative
    found = [
        w
        for k in range(101, 107)
        for w, _, _ in _reciprocal_family(range(k, k + 1), 2 ** (k - 54), 2 ** (k - 53))
    ]
    negs = [m - 1 for m in _cycle(found, n, rng)]
    return np.ones(len(negs)), np.array(negs, dtype=float)


def _aucpr_min_series_points(
    rng: np.random.Generator, n: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    # AUCPR_min(pi, a, b) = pi (b^2 - a^2)/2 + O(pi^2) (the integral of pi r/(1 - pi + pi r)).
    # With pi = 2**-e, b = 1 - k 2**-27 (k odd) and a = 2 j 2**-27: b^2 - a^2 =
    # 1 - k 2**-26 + (k^2 - 4 j^2) 2**-54, an odd multiple of 2**-54 in [1/2, 1): a midpoint,
    # left by a relative O(pi) = 2**-e <= 2**-100
    e = rng.integers(100, 1000, n)
    k = 2 * rng.integers(0, 2**20, n) + 1
    j = rng.integers(0, 2**19, n) * (rng.uniform(0, 1, n) < 0.5)
    return np.ldexp(1.0, -e), 2 * j * 2.0**-27, 1 - k * 2.0**-27


def _lattice_nearest(alpha: Fraction, beta: Fraction, count: int) -> int:
    """A ``j`` in ``[0, count)`` that makes ``frac(alpha + j beta)`` close to 1/2 (closest or
    nearly: Babai's rounding in a Lagrange-reduced 2-d lattice, and its neighbours).

    With ``M = 2**P``, ``B = beta M`` and ``A = (alpha - 1/2) M`` the lattice spanned by
    ``(W, B)`` and ``(0, M)``, ``W = 4M/count**2``, holds ``(j W, j B - k M)``; a vector close to
    ``(W count/2, -A)`` has ``A + j B - k M`` of order ``M/count`` and ``j`` near the middle of
    the range.
    """
    prec = 256
    big_m = 1 << prec
    b_int = math.floor(beta * big_m)
    a_int = math.floor((alpha - Fraction(1, 2)) * big_m)
    weight = max(1, 4 * big_m // count**2)
    u, v = [weight, b_int], [0, big_m]

    def dot(x: list[int], y: list[int]) -> int:
        return x[0] * y[0] + x[1] * y[1]

    while True:  # Lagrange-Gauss reduction
        if dot(u, u) > dot(v, v):
            u, v = v, u
        mu = round(Fraction(dot(u, v), dot(u, u)))
        if mu == 0:
            break
        v = [v[0] - mu * u[0], v[1] - mu * u[1]]
    target = [weight * count // 2, -a_int]
    det = u[0] * v[1] - u[1] * v[0]
    cu = round(Fraction(target[0] * v[1] - target[1] * v[0], det))
    cv = round(Fraction(u[0] * target[1] - u[1] * target[0], det))
    best, best_j = None, count // 2
    for du in (-1, 0, 1):
        for dv in (-1, 0, 1):
            x = [(cu + du) * u[0] + (cv + dv) * v[0], (cu + du) * u[1] + (cv + dv) * v[1]]
            j = x[0] // weight
            if 0 <= j < count:
                rest = (a_int + j * b_int) % big_m  # frac(alpha - 1/2 + j beta), scaled
                gap = min(rest, big_m - rest)
                if best is None or gap < best:
                    best, best_j = gap, j
    return best_j


def _aucnpr_hunted_points(
    rng: np.random.Generator, n: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    # AUCNPR(A) = (A - m)/g is affine in A. Over the floats A = A0 + j ulp(A0), j < 2**48, the
    # values y_j = y_0 + j delta stay in one binade of y, whose midpoints are the odd multiples of
    # ulp(y)/2: j must make frac(y_0/ulp + j delta/ulp) close to 1/2, a 2-d lattice problem
    # (:func:`_lattice_nearest`), solved with m and g from the oracle at 80 digits.
    areas: list[float] = []
    pis: list[float] = []
    count = 2**48
    while len(areas) < n:
        pi = float(_loguniform(rng, 1e-3, 0.999, 1)[0])
        low = rounding.exact_rational(closed_forms.aucpr_min(pi, dps=80))
        low_q = Fraction(int(low.numerator), int(low.denominator))
        gap_q = 1 - low_q
        f = int(rng.integers(-5, 0))  # target binade [2**f, 2**(f+1)) of AUCNPR
        a0 = float(low_q + gap_q * Fraction(2) ** f * Fraction(1001, 1000))
        ulp_a = Fraction(math.ulp(a0))
        ulp_y = Fraction(2) ** (f - 52)
        span = min(count, int((Fraction(2) ** (f + 1) * gap_q + low_q - Fraction(a0)) / ulp_a))
        span = min(span, int((Fraction(2) ** (math.frexp(a0)[1]) - Fraction(a0)) / ulp_a))
        y0 = (Fraction(a0) - low_q) / gap_q
        j = _lattice_nearest(y0 / ulp_y % 1, ulp_a / gap_q / ulp_y % 1, max(span, 1))
        area = Fraction(a0) + j * ulp_a
        # keep it if it is within 2**-100 (m and g are known to 2**-260: ample to tell)
        if midpoint_distance((area - low_q) / gap_q) <= Fraction(1, 2**100):
            areas.append(float(area))
            pis.append(pi)
    return np.array(areas), np.array(pis), np.zeros(n), np.ones(n)


def midpoint_distance(x: Fraction) -> Fraction:
    """Relative distance from ``x`` (exact, non-zero, in the float64 range) to the nearest
    midpoint between two consecutive floats (0 for a midpoint)."""
    unit = rounding.ulp(x)
    frac = abs(x) / unit % 1
    return abs(frac - Fraction(1, 2)) * unit / abs(x)


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


def _tiny_gain(rng: np.random.Generator, n: int) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    # x = 2**-e, pi = x m, m = (2j+1) 2**-54: gain = (1 - m)/(1 - pi), and 1 - m is a midpoint
    # below 1, pi <= 2**-100 the relative excess
    h = n // 2
    x = np.ldexp(1.0, -rng.integers(100, 969, h))
    pi = x * ((2 * rng.integers(0, 2**50, h) + 1) * 2.0**-54)
    xs, ps = _subnormals(rng, n - h), _subnormals(rng, n - h)
    kind = np.array(["within 2**-100 of a midpoint"] * h + ["subnormal x and pi"] * (n - h))
    return (np.concatenate([x, xs]), np.concatenate([pi, ps])), kind


def _tiny_min_precision(
    rng: np.random.Generator, n: int
) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    # r = 1/2, pi an odd multiple of 2**-1074: pi r (1 + pi/2 + ...) is a midpoint plus 2**-1000
    h = n // 2
    r = np.concatenate([np.full(h, 0.5), _unit(rng, n - h)])
    pi = np.concatenate([_odd_subnormals(rng, h), _subnormals(rng, n - h)])
    kind = np.array(["within 2**-1000 of a midpoint"] * h + ["subnormal pi"] * (n - h))
    return (r, pi), kind


def _subnormal_aucpr_min(
    rng: np.random.Generator, n: int
) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    # pi odd subnormal over [0, 1]: pi/2 + pi**2/6 + ..., a midpoint plus 2**-1000
    h = n // 2
    pi = np.concatenate([_odd_subnormals(rng, h), _subnormals(rng, n - h)])
    a, b = _ranges(rng, n)
    a[:h], b[:h] = 0.0, 1.0
    kind = np.array(["within 2**-1000 of a midpoint"] * h + ["subnormal pi, any range"] * (n - h))
    return (pi, a, b), kind


def _subnormal_aucnpr(
    rng: np.random.Generator, n: int
) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    # aucpr subnormal, pi odd subnormal over [0, 1]: aucpr - pi/2 + O(2**-2000), a midpoint
    # plus a tiny excess; then subnormal aucpr with tiny pi and tiny ranges
    h = n // 2
    area = _subnormals(rng, n)
    pi = np.concatenate([_odd_subnormals(rng, h), _loguniform(rng, 1e-320, 1e-200, n - h)])
    a, b = np.zeros(n), np.ones(n)
    b[h:] = _loguniform(rng, 1e-300, 1.0, n - h)
    kind = np.array(["within 2**-900 of a midpoint"] * h + ["subnormal aucpr, tiny pi"] * (n - h))
    return (area, pi, a, b), kind


Hard = HardSample


def _join(first: Hard, *more: tuple[str, tuple[np.ndarray, ...]]) -> Hard:
    """A hard sample ``first`` (arguments and labels) followed by labelled extra parts."""
    args, kinds = first
    for label, extra in more:
        args = tuple(np.concatenate([u, v]) for u, v in zip(args, extra, strict=True))
        kinds = np.concatenate([kinds, np.array([label] * extra[0].size, dtype=object)])
    return args, kinds


def _hard_gain(rng: np.random.Generator, n: int) -> Hard:
    h = n // 4
    return _join(
        _tiny_gain(rng, n - h),
        ("within 2**-100 of a midpoint: x = 1/2, 1 - pi | 2**K -+ 1", _gain_divisor_points(rng, h)),
    )


def _hard_min_precision(rng: np.random.Generator, n: int) -> Hard:
    h = n // 4
    return _join(
        _tiny_min_precision(rng, n - h),
        (
            "within 2**-100 of a midpoint: pi = 1/2, 1 + r | 2**K -+ 1",
            _min_precision_divisor_points(rng, h),
        ),
    )


def _hard_aucpr_min(rng: np.random.Generator, n: int) -> Hard:
    h = n // 3
    return _join(
        _subnormal_aucpr_min(rng, n - h),
        (
            "within 2**-100 of a midpoint: pi = 2**-e, b = 1 - k 2**-27",
            _aucpr_min_series_points(rng, h),
        ),
    )


def _near_minimum_aucnpr(rng: np.random.Generator, n: int) -> tuple[np.ndarray, ...]:
    """aucpr 1 to 10**8 ulp above AUCPR_min(pi), pi log-uniform in [1e-6, 0.999]."""
    pi = _loguniform(rng, 1e-6, 0.999, n)
    low = floats.aucpr_min(pi)
    steps = np.floor(_loguniform(rng, 1, 1e8, n))
    area = low + steps * np.spacing(low)
    return np.minimum(area, 1.0), pi, np.zeros(n), np.ones(n)


def _hard_aucnpr(rng: np.random.Generator, n: int) -> Hard:
    third = n // 3
    hunted = n // 20
    return _join(
        _subnormal_aucnpr(rng, n - third - hunted),
        ("aucpr 1 to 10**8 ulp above AUCPR_min", _near_minimum_aucnpr(rng, third)),
        (
            "within 2**-100 of a midpoint: lattice search over aucpr",
            _aucnpr_hunted_points(rng, hunted),
        ),
    )


def _hard_ap_min(rng: np.random.Generator, n: int) -> Hard:
    pos, neg = _ap_min_divisor_points(rng, n)
    return (pos, neg), np.array(
        ["within 2**-100 of a midpoint: pos = 1, neg + 1 | 2**K -+ 1"] * n, dtype=object
    )


#: name of a function of :mod:`prtheory.floats` -> its sampler (the order fixes the seeds)
SAMPLERS: dict[str, Callable[[np.random.Generator, int], Sample]] = {
    "aucpr_min": _sample_aucpr_min,
    "min_precision": _sample_min_precision,
    "precision_gain": _sample_gain,
    "recall_gain": _sample_gain,
    "fbeta": _sample_fbeta,
    "fbeta_gain": _sample_gain,
    "aucnpr": _sample_aucnpr,
    "ap_min": _sample_counts,
    "expected_random_ap": _sample_counts,
}
#: name -> its hard-case sampler (arguments and a label per point), where a construction is known
HARD: dict[str, Callable[[np.random.Generator, int], HardSample]] = {
    "aucpr_min": _hard_aucpr_min,
    "min_precision": _hard_min_precision,
    "precision_gain": _hard_gain,
    "recall_gain": _hard_gain,
    "fbeta": _hard_fbeta,
    "fbeta_gain": _hard_gain,
    "aucnpr": _hard_aucnpr,
    "ap_min": _hard_ap_min,
}
HARD_SHARE = 100  # the last n // HARD_SHARE points of a sample are hard cases


def _split(name: str, n: int) -> tuple[int, int]:
    hard = n // HARD_SHARE if name in HARD else 0
    return n - hard, hard


def _rng(name: str) -> np.random.Generator:
    if name not in SAMPLERS:
        raise KeyError(f"name: no sampler for {name!r}; known: {', '.join(SAMPLERS)}")
    return np.random.default_rng([SEED, list(SAMPLERS).index(name)])


def sample(name: str, n: int) -> Sample:
    """The argument arrays of ``name``'s sample of size ``n`` (deterministic)."""
    rng = _rng(name)
    main, hard = _split(name, n)
    args = SAMPLERS[name](rng, main)
    if not hard:
        return args
    extra, _ = HARD[name](rng, hard)
    return tuple(np.concatenate([u, v]) for u, v in zip(args, extra, strict=True))


def sample_kinds(name: str, n: int) -> np.ndarray:
    """The sampler behind each point of ``sample(name, n)``: 'main' or a hard-case label."""
    rng = _rng(name)
    main, hard = _split(name, n)
    SAMPLERS[name](rng, main)
    kinds = np.array(["main"] * main, dtype=object)
    return np.concatenate([kinds, HARD[name](rng, hard)[1]]) if hard else kinds
