"""Independent checks: ways to confirm a symbolic result without trusting the simplifier.

Each function returns ``(passed, detail)`` for :meth:`Proof.check`. Every sampler is seeded, so
the details (and hence the generated proof documents) are deterministic.

* :func:`exact_identity` -- both sides evaluated in exact rational arithmetic at random rational
  points (sympy substitution of ``Rational`` values; no simplification involved).
* :func:`mp_identity` -- both sides evaluated with mpmath at 50 significant digits, for sides with
  logarithms or other transcendental functions; agreement to within ``10**-(dps-5)`` relative.
* :func:`interval_sign` -- an inequality ``f >= 0`` (or ``> 0``) certified over a box by interval
  arithmetic (``mpmath.iv``) on a grid of cells, subdividing inconclusive cells.
* :func:`exact_sign` -- the same inequality at random rational points in exact arithmetic.
* :func:`exhaustive` -- a predicate over every case of a finite family (exhaustive enumeration).

Samplers: :func:`rational_sampler` (rationals in open ranges), :func:`integer_sampler` (integers in
closed ranges, e.g. contingency-table counts) and :func:`joint_sampler` (several samplers merged).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp

__all__ = [
    "exact_identity",
    "exact_sign",
    "exhaustive",
    "integer_sampler",
    "interval_sign",
    "joint_sampler",
    "mp_identity",
    "rational_sampler",
]

Sampler = Callable[[random.Random], dict]


def rational_sampler(ranges: dict[sp.Symbol, tuple[Any, Any]], denominator: int = 997) -> Sampler:
    """Uniform random rationals with the given denominator, strictly inside each open range."""

    def sample(rng: random.Random) -> dict:
        out = {}
        for sym, (lo, hi) in ranges.items():
            lo_f, hi_f = Fraction(str(lo)), Fraction(str(hi))
            k = rng.randint(1, denominator - 1)
            out[sym] = sp.Rational(lo_f + (hi_f - lo_f) * Fraction(k, denominator))
        return out

    return sample


def integer_sampler(ranges: dict[sp.Symbol, tuple[int, int]]) -> Sampler:
    """Uniform random integers in each closed range ``[lo, hi]`` (as sympy ``Integer``)."""

    def sample(rng: random.Random) -> dict:
        return {sym: sp.Integer(rng.randint(lo, hi)) for sym, (lo, hi) in ranges.items()}

    return sample


def joint_sampler(*samplers: Sampler) -> Sampler:
    """One point from each sampler, merged (the samplers must draw disjoint symbols)."""

    def sample(rng: random.Random) -> dict:
        out: dict = {}
        for s in samplers:
            out.update(s(rng))
        return out

    return sample


def exhaustive(
    cases: Iterable[Any], predicate: Callable[[Any], bool], what: str
) -> tuple[bool, str]:
    """``predicate(case)`` for every case of a finite family; the first failure is the detail.

    ``what`` describes the family for the report, e.g. ``"confusion matrices with n <= 12"``.
    """
    count = 0
    for case in cases:
        count += 1
        if not predicate(case):
            return False, f"fails at {case!r}"
    if count == 0:
        return False, f"no cases enumerated ({what})"
    return True, f"holds in all {count} cases: {what}"


def exact_identity(
    lhs: Any, rhs: Any, sampler: Sampler, n: int = 200, seed: int = 20121
) -> tuple[bool, str]:
    """``lhs == rhs`` at ``n`` random rational points, evaluated exactly (no simplification)."""
    rng = random.Random(seed)
    lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
    for _ in range(n):
        point = sampler(rng)
        a, b = lhs.xreplace(point), rhs.xreplace(point)
        if not (a.is_Rational and b.is_Rational):
            return False, f"not rational at {point}: {a}, {b}"
        if a != b:
            return False, f"differ at {point}: {a} != {b}"
    return True, f"equal in exact rational arithmetic at {n} random points"


def mp_identity(
    lhs: Any,
    rhs: Any,
    sampler: Sampler,
    n: int = 200,
    dps: int = 50,
    seed: int = 20122,
) -> tuple[bool, str]:
    """``lhs == rhs`` at ``n`` random points with mpmath at ``dps`` digits.

    Agreement is required to ``10**-(dps - 5)`` relative to ``max(1, |lhs|)``: five guard digits
    absorb the rounding of a few dozen mpmath operations, far below any real discrepancy.
    """
    rng = random.Random(seed)
    lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
    syms = sorted(lhs.free_symbols | rhs.free_symbols, key=str)
    f = sp.lambdify(syms, lhs, "mpmath")
    g = sp.lambdify(syms, rhs, "mpmath")
    worst = mpmath.mpf(0)
    with mpmath.workdps(dps):
        tol = mpmath.mpf(10) ** (-(dps - 5))
        for _ in range(n):
            point = sampler(rng)
            args = [mpmath.mpf(point[s].p) / point[s].q for s in syms]
            a, b = f(*args), g(*args)
            err = abs(a - b) / max(1, abs(a))
            worst = max(worst, err)
            if err > tol:
                return False, f"differ at {point}: {a} vs {b}"
        return True, (
            f"agree at {n} random points with mpmath at {dps} digits "
            f"(largest relative difference {mpmath.nstr(worst, 3)})"
        )


def exact_sign(
    expr: Any, sampler: Sampler, strict: bool = False, n: int = 500, seed: int = 20123
) -> tuple[bool, str]:
    """``expr >= 0`` (``> 0`` if ``strict``) at ``n`` random rational points, exactly."""
    rng = random.Random(seed)
    expr = sp.sympify(expr)
    for _ in range(n):
        point = sampler(rng)
        v = expr.xreplace(point)
        if not v.is_Rational:
            return False, f"not rational at {point}: {v}"
        if v < 0 or (strict and v == 0):
            return False, f"violated at {point}: value {v}"
    rel = "> 0" if strict else ">= 0"
    return True, f"{rel} in exact rational arithmetic at {n} random points"


def interval_sign(
    f: Callable[..., Any],
    box: Sequence[tuple[Any, Any]],
    cells: int = 40,
    strict: bool = False,
    max_depth: int = 6,
) -> tuple[bool, str]:
    """Certify ``f(*x) >= 0`` (``> 0`` if ``strict``) for every x in ``box`` by interval arithmetic.

    ``f`` takes ``mpmath.iv.mpf`` intervals and must be written with interval-safe operations
    (``+ - * /``, ``mpmath.iv.log`` ...). The box is cut into ``cells`` pieces per dimension; a cell
    whose enclosure is inconclusive is bisected along every dimension, up to ``max_depth`` times.
    The result is a proof over the box (up to the outward rounding that ``mpmath.iv`` guarantees),
    except for cells still inconclusive at the depth limit, which make the check fail.
    """
    iv = mpmath.iv
    dims = len(box)
    edges = [
        [Fraction(str(lo)) + (Fraction(str(hi)) - Fraction(str(lo))) * k / cells for k in range(cells + 1)]
        for lo, hi in box
    ]
    stack: list[tuple[tuple[tuple[Fraction, Fraction], ...], int]] = []

    def push_grid(idx: list[int]) -> None:
        if len(idx) == dims:
            stack.append((tuple((edges[d][i], edges[d][i + 1]) for d, i in enumerate(idx)), 0))
            return
        for i in range(cells):
            push_grid([*idx, i])

    push_grid([])
    certified = 0
    with mpmath.workprec(80):
        while stack:
            cell, depth = stack.pop()
            args = [iv.mpf([mpmath.mpf(lo.numerator) / lo.denominator,
                            mpmath.mpf(hi.numerator) / hi.denominator]) for lo, hi in cell]
            val = f(*args)
            lo_bound = val.a
            if lo_bound > 0 or (lo_bound >= 0 and not strict):
                certified += 1
                continue
            if val.b < 0 or (strict and val.b <= 0):
                return False, f"violated on the cell {cell}: enclosure {val}"
            if depth >= max_depth:
                return False, f"inconclusive on the cell {cell} at depth {depth}: enclosure {val}"
            halves = [((lo, (lo + hi) / 2), ((lo + hi) / 2, hi)) for lo, hi in cell]
            for choice in range(2**dims):
                sub = tuple(halves[d][(choice >> d) & 1] for d in range(dims))
                stack.append((sub, depth + 1))
    rel = "> 0" if strict else ">= 0"
    return True, f"{rel} certified by interval arithmetic on {certified} cells covering the box {list(box)}"
