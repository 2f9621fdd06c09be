"""The fused numba kernels of :mod:`prtheory.floats` against the numpy reference path, bit for bit.

Every kernel returns, for each element, either the correctly rounded value or "to do" (outside
its range, or undecided by the rounding test); the reference path (``set_backend("numpy")``)
then decides the rest. So the public functions must give identical bits under either backend,
and each element the kernel itself decides must carry the reference path's bits. These tests
check both on large samples: the accuracy samplers (edge values, subnormal arguments, points
built next to midpoints) and random values over the whole range, with the branch boundaries of
each formula. The expected values come from the reference path (or exact rationals), never from
a kernel. Skipped without numba (CI has none).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from prtheory import floats as F
from prtheory._testing.samplers import sample
from prtheory.floats import _kernels
from prtheory.oracle.rounding import to_float

pytest.importorskip("numba")

RNG = np.random.default_rng(20261123)


def _bits(y) -> np.ndarray:
    return np.asarray(y, dtype=np.float64).reshape(-1).view(np.int64)


def _under(backend: str, fn, *args):
    previous = F.set_backend(backend)
    try:
        return np.asarray(fn(*args))
    finally:
        F.set_backend(previous)


def _check(fn, kernel: str, *args, todo_at_most: float = 0.01) -> None:
    """``fn`` is bit-identical under both backends, and kernel ``kernel`` itself decides all
    but ``todo_at_most`` of the elements, each with the reference path's bits."""
    args = np.broadcast_arrays(*(np.asarray(a, dtype=np.float64) for a in args))
    reference = _under("numpy", fn, *args)
    fused = _under("numba", fn, *args)
    differ = np.flatnonzero(_bits(fused) != _bits(reference))
    assert differ.size == 0, [tuple(float(a.flat[i]) for a in args) for i in differ[:5]]
    # the kernel on its own: what it decides is the reference path's value
    flat = [np.ascontiguousarray(a).reshape(-1) for a in args]
    inner = _inner(kernel, *flat)
    for values, todo in _kernel_runs(kernel, [a[inner] for a in flat]):
        decided = np.flatnonzero(~todo)
        want = reference.reshape(-1)[inner][decided]
        wrong = decided[_bits(values[decided]) != _bits(want)]
        assert wrong.size == 0, [tuple(float(a[inner][i]) for a in flat) for i in wrong[:5]]
        assert todo.mean() <= todo_at_most


def _kernel_runs(kernel: str, args: list[np.ndarray]):
    """The kernel as the public functions run it and, where a fast path stands in front of it
    (:mod:`prtheory.floats._quick`, which leaves the accurate kernel a few elements only), the
    accurate kernel alone on every element as well."""
    yield _kernels.run(kernel, *args)
    if kernel in _kernels.CHECKED:
        from prtheory.floats import _fused

        out, todo = np.empty(args[0].size), np.empty(args[0].size, dtype=np.uint8)
        _fused.KERNELS[kernel](*(np.ascontiguousarray(a) for a in args), out, todo)
        yield out, todo.view(bool)


def _inner(kernel: str, *args: np.ndarray) -> np.ndarray:
    """The elements each public function hands to its kernel (the others it sets itself)."""
    if kernel == "fbeta":
        return (args[0] != 0) & (args[1] != 0)
    if kernel == "expected_random_ap":
        return args[1] != 0
    if kernel == "aucpr_min":
        return (args[0] > 0) & (args[0] < 1)
    if kernel == "aucnpr":
        return (args[1] > 0) & (args[1] < 1)
    return np.ones(args[0].shape, dtype=bool)


def _log_uniform_counts(n: int, top: float) -> np.ndarray:
    return np.floor(np.exp(RNG.uniform(0.0, np.log(top), n)))


def _count_pairs() -> tuple[np.ndarray, np.ndarray]:
    """Counts over every branch of AP_min and the expected AP and their boundaries: pos <= 32
    (the direct sum), neg < 32 (harmonic numbers), pos/neg on either side of 1/8 (phi's series
    or logarithm), N = pos + neg across the table's end (32), up to pos + neg = 2**53."""
    small = np.arange(0.0, 70.0)
    grid_pos, grid_neg = (g.ravel() for g in np.meshgrid(small[1:], small))
    pos = [grid_pos, _log_uniform_counts(20_000, 2.0**52)]
    neg = [grid_neg, _log_uniform_counts(20_000, 2.0**52)]
    # pos/neg next to 1/8, with large and small counts
    for scale in (2.0**6, 2.0**20, 2.0**49):
        n = np.floor(RNG.uniform(scale, 2 * scale, 2000))
        p = np.floor(n / 8) + RNG.integers(-2, 3, 2000)
        pos.append(np.maximum(p, 33.0))
        neg.append(n)
    # the top of the range: pos + neg = 2**53 exactly, and just below
    p = _log_uniform_counts(2000, 2.0**52) + 1
    pos += [p, p]
    neg += [2.0**53 - p, 2.0**53 - p - RNG.integers(0, 100, 2000)]
    pos.append(np.array([1.0, 32.0, 33.0, 2.0**53, 2.0**53 - 1, 1.0, 2.0**52]))
    neg.append(np.array([2.0**53 - 1, 2.0**53 - 32, 31.0, 0.0, 1.0, 0.0, 2.0**52]))
    return np.concatenate(pos), np.concatenate(neg)


def test_ap_min_kernel_matches_the_reference_path():
    pos, neg = _count_pairs()
    _check(F.ap_min, "ap_min", pos, neg)


def test_ap_min_kernel_on_the_accuracy_sample():
    _check(F.ap_min, "ap_min", *sample("ap_min", 50_000), todo_at_most=0.05)


def test_expected_random_ap_kernel_matches_the_reference_path():
    pos, neg = _count_pairs()
    _check(F.expected_random_ap, "expected_random_ap", pos, neg)


def test_expected_random_ap_kernel_on_the_accuracy_sample():
    args = sample("expected_random_ap", 50_000)
    _check(F.expected_random_ap, "expected_random_ap", *args, todo_at_most=0.05)


def test_ap_min_kernel_exact_small_counts():
    # the direct sum and the harmonic form against the exact rational, rounded once
    pos, neg = np.meshgrid(np.arange(1.0, 41.0), np.array([0.0, 1.0, 7.0, 31.0, 32.0, 1e6]))
    got = _under("numba", F.ap_min, pos, neg)
    for p, n, y in zip(pos.ravel(), neg.ravel(), got.ravel(), strict=True):
        exact = sum(Fraction(i, i + int(n)) for i in range(1, int(p) + 1)) / int(p)
        assert y == to_float(exact), (p, n)


def test_expected_random_ap_kernel_exact_small_counts():
    # (pos - 1)/(N - 1) + neg H_N/(N (N - 1)) in exact rationals
    pos, neg = np.meshgrid(np.arange(1.0, 41.0), np.array([1.0, 2.0, 30.0, 31.0, 100.0]))
    got = _under("numba", F.expected_random_ap, pos, neg)
    for p, n, y in zip(pos.ravel(), neg.ravel(), got.ravel(), strict=True):
        total = int(p + n)
        harmonic = sum(Fraction(1, i) for i in range(1, total + 1))
        exact = Fraction(int(p) - 1, total - 1) + int(n) * harmonic / (total * (total - 1))
        assert y == to_float(exact), (p, n)


def _rates(n: int) -> np.ndarray:
    """Rates in [0, 1]: uniform, log-uniform down to the subnormals, and exact 0 and 1."""
    uniform = RNG.uniform(0.0, 1.0, n)
    tiny = np.exp(RNG.uniform(np.log(5e-324), 0.0, n))
    return np.concatenate([uniform, tiny, [0.0, 1.0, 5e-324, 2.0**-300, 2.0**-301]])


@pytest.mark.parametrize("beta", [1.0, 0.5, 2.0, 3.0, 2.0**-100, 2.0**100, 1e-120, 1e120])
def test_fbeta_kernel_with_one_beta_matches_the_reference_path(beta):
    p, r = _rates(10_000), RNG.permutation(_rates(10_000))
    # rates below 2**-300 (about 60% of the pairs here) and betas outside [2**-100, 2**100]
    # are outside the kernel's range
    outside = not 2.0**-100 <= beta <= 2.0**100
    _check(F.fbeta, "fbeta", p, r, beta, todo_at_most=1.0 if outside else 0.65)


def test_fbeta_kernel_with_many_betas_matches_the_reference_path():
    p, r = _rates(20_000), RNG.permutation(_rates(20_000))
    beta = np.exp(RNG.uniform(np.log(2.0**-110), np.log(2.0**110), p.size))
    beta[::7] = 1.0
    beta[1::11] = np.nextafter(1.0, 2.0)
    _check(F.fbeta, "fbeta", p, r, beta, todo_at_most=0.7)
    # short arrays too: the kernel forms beta's weight once only when every beta is the same
    _check(F.fbeta, "fbeta", [0.3, 0.3, 0.6], [0.6, 0.6, 0.3], [2.0, 0.5, 1.0])
    _check(F.fbeta, "fbeta", [0.3, 0.3], [0.6, 0.6], [2.0, np.nextafter(2.0, 3.0)])
    _check(F.fbeta, "fbeta", *sample("fbeta", 50_000), todo_at_most=0.7)


def _skews(n: int) -> np.ndarray:
    """Skews in (0, 1): uniform, log-uniform down to the subnormals (below 2**-600 they are
    outside the kernels' range), 1 - 2**-k, and either side of 1/9 (x = 1/8 over [0, 1], where
    the series gives way to the logarithm)."""
    uniform = RNG.uniform(0.0, 1.0, n)
    tiny = np.exp(RNG.uniform(np.log(5e-324), 0.0, n))
    near_one = 1.0 - 2.0 ** -RNG.integers(1, 54, n).astype(float)
    ninth = np.array([np.nextafter(1 / 9, k) for k in (0.0, 1.0)] + [1 / 9, 2.0**-600, 0.5])
    return np.concatenate([uniform, tiny, near_one, ninth])


def _ranges(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Recall ranges [a, b]: [0, 1], random ones, and widths down to below 2**-100."""
    a = RNG.uniform(0.0, 1.0, n)
    width = np.exp(RNG.uniform(np.log(2.0**-120), 0.0, n)) * (1.0 - a)
    b = np.minimum(a + width, 1.0)
    a[::5], b[::5] = 0.0, 1.0
    keep = b > a
    return a[keep], b[keep]


def test_aucpr_min_kernel_matches_the_reference_path():
    pi = _skews(4000)
    _check(F.aucpr_min, "aucpr_min", pi, 0.0, 1.0, todo_at_most=0.4)
    a, b = _ranges(pi.size)
    pi = RNG.permutation(pi)[: a.size]
    _check(F.aucpr_min, "aucpr_min", pi, a, b, todo_at_most=0.5)
    _check(F.aucpr_min, "aucpr_min", *sample("aucpr_min", 10_000), todo_at_most=0.35)


def test_aucnpr_kernel_matches_the_reference_path():
    # aucpr anywhere in [0, 1], and next to AUCPR_min (the numerator cancels) and to b - a
    pi = _skews(3000)
    a, b = _ranges(pi.size)
    pi = RNG.permutation(pi)[: a.size]
    low = _under("numpy", F.aucpr_min, pi, a, b)
    steps = np.floor(np.exp(RNG.uniform(0.0, np.log(1e12), pi.size)))
    spacing = np.spacing(np.maximum(low, 2.0**-1022))
    close = np.clip(low + RNG.choice([-1.0, 1.0], pi.size) * steps * spacing, 0.0, 1.0)
    top = np.clip(b - a - steps * np.spacing(b - a), 0.0, 1.0)
    for area in (RNG.uniform(0.0, 1.0, pi.size), close, top):
        _check(F.aucnpr, "aucnpr", area, pi, a, b, todo_at_most=0.6)
    _check(F.aucnpr, "aucnpr", *sample("aucnpr", 10_000), todo_at_most=0.35)
