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
* :func:`refuted` -- a statement a source prints, found false by the registry's statement check
  over a domain (its counterexample is the detail): what a "holds as corrected" claim corrects.
* :func:`mp_quad_identity` -- a definite integral by mpmath quadrature at 50 digits against a
  closed form, at random values of the other symbols.
* :func:`mp_derivative_identity` -- a claimed antiderivative, differentiated numerically by mpmath
  at 50 digits, against the integrand.

Compilers: :func:`exact_function` (a rational sympy expression as a Python function on
``Fraction``) and :func:`interval_function` (a sympy expression as a function on ``mpmath.iv``
intervals, with outward-rounded constants) -- for enumerations and :func:`interval_sign`.

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
from sympy.printing.pycode import PythonCodePrinter

from prtheory.theory.domain import Domain
from prtheory.theory.statement import check_statement

__all__ = [
    "exact_function",
    "exact_identity",
    "exact_sign",
    "exhaustive",
    "integer_sampler",
    "interval_function",
    "interval_sign",
    "joint_sampler",
    "mp_derivative_identity",
    "mp_identity",
    "mp_quad_identity",
    "rational_sampler",
]

Sampler = Callable[[random.Random], dict]


def rational_sampler(ranges: dict[sp.Symbol, tuple[Any, Any]], denominator: int = 997) -> Sampler:
    """Uniform random rationals with the given denominator, strictly inside each open range.

    Parameters
    ----------
    ranges : dict
        Each symbol's open range ``(lo, hi)``.
    denominator : int
        The values are ``lo + (hi - lo) k/denominator`` with ``0 < k < denominator``.

    Returns
    -------
    callable
        A sampler: a function of a ``random.Random`` returning a point (symbol -> ``Rational``).

    Examples
    --------
    With denominator 10 over ``(0, 1)``, every value is one of ``1/10, ..., 9/10``:

    >>> import random
    >>> import sympy as sp
    >>> from prtheory.theory.checks import rational_sampler
    >>> x = sp.Symbol("x", positive=True)
    >>> sample = rational_sampler({x: (0, 1)}, denominator=10)
    >>> rng = random.Random(1)
    >>> {sample(rng)[x] * 10 for _ in range(200)} <= set(range(1, 10))
    True
    """

    def sample(rng: random.Random) -> dict:
        out = {}
        for sym, (lo, hi) in ranges.items():
            lo_f, hi_f = Fraction(str(lo)), Fraction(str(hi))
            k = rng.randint(1, denominator - 1)
            out[sym] = sp.Rational(lo_f + (hi_f - lo_f) * Fraction(k, denominator))
        return out

    return sample


def integer_sampler(ranges: dict[sp.Symbol, tuple[int, int]]) -> Sampler:
    """Uniform random integers in each closed range ``[lo, hi]`` (as sympy ``Integer``).

    Parameters
    ----------
    ranges : dict
        Each symbol's closed range ``(lo, hi)``.

    Returns
    -------
    callable
        A sampler: a function of a ``random.Random`` returning a point.

    Examples
    --------
    A die: 600 throws show every face 1 to 6 (missing one has probability below
    ``6 (5/6)**600 < 10**-40``):

    >>> import random
    >>> import sympy as sp
    >>> from prtheory.theory.checks import integer_sampler
    >>> n = sp.Symbol("n", integer=True)
    >>> throw = integer_sampler({n: (1, 6)})
    >>> rng = random.Random(7)
    >>> sorted({int(throw(rng)[n]) for _ in range(600)})
    [1, 2, 3, 4, 5, 6]
    """

    def sample(rng: random.Random) -> dict:
        return {sym: sp.Integer(rng.randint(lo, hi)) for sym, (lo, hi) in ranges.items()}

    return sample


def joint_sampler(*samplers: Sampler) -> Sampler:
    """One point from each sampler, merged (the samplers must draw disjoint symbols).

    Parameters
    ----------
    *samplers : callable
        Samplers of disjoint symbols.

    Returns
    -------
    callable
        A sampler of all their symbols.

    Examples
    --------
    >>> import random
    >>> import sympy as sp
    >>> from prtheory.theory.checks import integer_sampler, joint_sampler, rational_sampler
    >>> x, n = sp.symbols("x n", positive=True)
    >>> both = joint_sampler(rational_sampler({x: (0, 1)}), integer_sampler({n: (1, 6)}))
    >>> sorted(both(random.Random(1)), key=str)
    [n, x]
    """

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

    Parameters
    ----------
    cases : iterable
        The finite family.
    predicate : callable
        Must hold for every case.
    what : str
        The family, in words.

    Returns
    -------
    tuple of (bool, str)
        Whether every case holds (an empty family fails), and the detail.

    Examples
    --------
    ``n (n + 1)`` is even (one of two consecutive integers is); ``n < 3`` fails first at 3:

    >>> from prtheory.theory.checks import exhaustive
    >>> exhaustive(range(1, 11), lambda n: n * (n + 1) % 2 == 0, "n = 1..10")
    (True, 'holds in all 10 cases: n = 1..10')
    >>> exhaustive([1, 2, 3, 4], lambda n: n < 3, "n = 1..4")
    (False, 'fails at 3')
    """
    count = 0
    for case in cases:
        count += 1
        if not predicate(case):
            return False, f"fails at {case!r}"
    if count == 0:
        return False, f"no cases enumerated ({what})"
    return True, f"holds in all {count} cases: {what}"


def refuted(statement: Any, domain: Domain | None) -> tuple[bool, str]:
    """Passes when :func:`~prtheory.theory.statement.check_statement` refutes ``statement``
    over ``domain`` (the same check a claim's own statement must pass); the detail is the
    counterexample, or what the check found instead."""
    if domain is None:
        return False, "no domain to check the statement over"
    sc = check_statement(statement, domain)
    return sc.status == "refuted", sc.summary()


def exact_identity(
    lhs: Any, rhs: Any, sampler: Sampler, n: int = 200, seed: int = 20121
) -> tuple[bool, str]:
    """``lhs == rhs`` at ``n`` random rational points, evaluated exactly (no simplification).

    Parameters
    ----------
    lhs, rhs : sympy expression
        The two sides.
    sampler : callable
        Draws the points (:func:`rational_sampler`, :func:`integer_sampler`).
    n : int
        How many points.
    seed : int
        Seeds the sampler (the detail is deterministic).

    Returns
    -------
    tuple of (bool, str)
        Whether the sides agree at every point, and the detail (the first difference).

    Examples
    --------
    ``x/(1 + x) = 1 - 1/(1 + x)`` (put over ``1 + x``); ``x/(1 + x) = 1 - x`` is not (at
    ``x = 1/10``: ``(1/10)/(11/10) = 1/11`` against ``9/10``):

    >>> import sympy as sp
    >>> from prtheory.theory.checks import exact_identity, rational_sampler
    >>> x = sp.Symbol("x", positive=True)
    >>> tenths = rational_sampler({x: (0, 1)}, denominator=10)
    >>> exact_identity(x / (1 + x), 1 - 1 / (1 + x), tenths, n=20)
    (True, 'equal in exact rational arithmetic at 20 random points')
    >>> exact_identity(x / (1 + x), 1 - x, tenths, n=20)
    (False, 'differ at x = 1/10: 1/11 != 9/10')
    """
    rng = random.Random(seed)
    lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
    for _ in range(n):
        point = sampler(rng)
        a, b = lhs.xreplace(point), rhs.xreplace(point)
        if not (a.is_Rational and b.is_Rational):
            return False, f"not rational at {_show_point(point)}: {a}, {b}"
        if a != b:
            return False, f"differ at {_show_point(point)}: {a} != {b}"
    return True, f"equal in exact rational arithmetic at {n} random points"


def _mp_agreement(
    pair: Callable[[list], tuple[Any, Any]],
    syms: Sequence[sp.Symbol],
    sampler: Sampler,
    n: int,
    dps: int,
    guard: int,
    seed: int,
    what: str,
) -> tuple[bool, str]:
    """``got, want = pair(args)`` at ``n`` random points, agreeing to ``10**-(dps - guard)``.

    The difference is relative to ``max(1, |want|)``; ``args`` are the sampled values of ``syms``
    as mpmath numbers at ``dps`` digits. ``what`` names the computation in the report.
    """
    rng = random.Random(seed)
    worst = mpmath.mpf(0)
    with mpmath.workdps(dps):
        tol = mpmath.mpf(10) ** (-(dps - guard))
        for _ in range(n):
            point = sampler(rng)
            got, want = pair(_mp_args(point, syms))
            err = abs(got - want) / max(1, abs(want))
            worst = max(worst, err)
            if err > tol:
                return False, (
                    f"differ at {_show_point(point)}: {what} {mpmath.nstr(got, 20)} "
                    f"vs {mpmath.nstr(want, 20)}"
                )
    return True, (
        f"{what} agrees at {n} random points with mpmath at {dps} digits "
        f"(largest relative difference {mpmath.nstr(worst, 3)})"
    )


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

    Parameters
    ----------
    lhs, rhs : sympy expression
        The two sides.
    sampler : callable
        Draws the points.
    n : int
        How many points.
    dps : int
        mpmath's working precision, in digits.
    seed : int
        Seeds the sampler.

    Returns
    -------
    tuple of (bool, str)
        Whether the sides agree everywhere, and the detail.

    Examples
    --------
    ``log(x y) = log x + log y`` for positive ``x, y``; ``log(x y) = log x log y`` is not
    (``x = y = 2``: ``log 4 = 1.386...`` against ``(log 2)**2 = 0.480...``):

    >>> import sympy as sp
    >>> from prtheory.theory.checks import mp_identity, rational_sampler
    >>> x, y = sp.symbols("x y", positive=True)
    >>> points = rational_sampler({x: (0, 1), y: (1, 5)})
    >>> mp_identity(sp.log(x * y), sp.log(x) + sp.log(y), points, n=10)[0]
    True
    >>> mp_identity(sp.log(x * y), sp.log(x) * sp.log(y), points, n=10)[0]
    False
    """
    lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
    syms = sorted(lhs.free_symbols | rhs.free_symbols, key=str)
    f = sp.lambdify(syms, lhs, "mpmath")
    g = sp.lambdify(syms, rhs, "mpmath")
    return _mp_agreement(
        lambda args: (g(*args), f(*args)), syms, sampler, n, dps, 5, seed, "the right-hand side"
    )


def exact_sign(
    expr: Any, sampler: Sampler, strict: bool = False, n: int = 500, seed: int = 20123
) -> tuple[bool, str]:
    """``expr >= 0`` (``> 0`` if ``strict``) at ``n`` random rational points, exactly.

    Parameters
    ----------
    expr : sympy expression
        A rational expression of the sampled symbols.
    sampler : callable
        Draws the points.
    strict : bool
        Require ``> 0``.
    n : int
        How many points.
    seed : int
        Seeds the sampler.

    Returns
    -------
    tuple of (bool, str)
        Whether the sign holds at every point, and the detail (the first violation).

    Examples
    --------
    ``x (1 - x) > 0`` on ``(0, 1)``; ``x - 1/2`` is negative at ``x = 2/5`` (``-1/10``):

    >>> import sympy as sp
    >>> from prtheory.theory.checks import exact_sign, rational_sampler
    >>> x = sp.Symbol("x", positive=True)
    >>> tenths = rational_sampler({x: (0, 1)}, denominator=10)
    >>> exact_sign(x * (1 - x), tenths, strict=True, n=20)
    (True, '> 0 in exact rational arithmetic at 20 random points')
    >>> exact_sign(x - sp.Rational(1, 2), tenths, n=20)
    (False, 'violated at x = 2/5: value -1/10')
    """
    rng = random.Random(seed)
    expr = sp.sympify(expr)
    for _ in range(n):
        point = sampler(rng)
        v = expr.xreplace(point)
        if not v.is_Rational:
            return False, f"not rational at {_show_point(point)}: {v}"
        if v < 0 or (strict and v == 0):
            return False, f"violated at {_show_point(point)}: value {v}"
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

    Parameters
    ----------
    f : callable
        A function of ``mpmath.iv`` intervals, one per dimension.
    box : sequence of (lo, hi)
        The box, one range per dimension.
    cells : int
        Pieces per dimension.
    strict : bool
        Require ``> 0``.
    max_depth : int
        How many times an inconclusive cell may be bisected.

    Returns
    -------
    tuple of (bool, str)
        Whether the sign is certified over the box, and the detail.

    Examples
    --------
    ``a (1 - a) >= 0`` on ``[0, 1]``: on each quarter ``[k/4, (k + 1)/4]`` both factors are
    enclosed in ``[0, 1]``, so each enclosure of the product starts at 0. ``a - 2 <= -1`` there,
    so ``a - 2 >= 0`` is violated (on the last cell, ``a - 2`` lies in ``[-5/4, -1]``):

    >>> from prtheory.theory.checks import interval_sign
    >>> interval_sign(lambda a: a * (1 - a), [(0, 1)], cells=4)
    (True, '>= 0 certified by interval arithmetic on 4 cells covering the box [0, 1]')
    >>> interval_sign(lambda a: a - 2, [(0, 1)], cells=4)
    (False, 'violated on the cell [3/4, 1]: enclosure [-1.25, -1.0]')
    """
    iv = mpmath.iv
    dims = len(box)
    edges = [
        [
            Fraction(str(lo)) + (Fraction(str(hi)) - Fraction(str(lo))) * k / cells
            for k in range(cells + 1)
        ]
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
            # each end point enclosed and rounded outward, so the cell covers its exact range
            args = [
                iv.mpf(
                    [
                        (iv.mpf(lo.numerator) / lo.denominator).a,
                        (iv.mpf(hi.numerator) / hi.denominator).b,
                    ]
                )
                for lo, hi in cell
            ]
            val = f(*args)
            lo_bound = val.a
            if lo_bound > 0 or (lo_bound >= 0 and not strict):
                certified += 1
                continue
            if val.b < 0 or (strict and val.b <= 0):
                return False, f"violated on the cell {_show_box(cell)}: enclosure {val}"
            if depth >= max_depth:
                return (
                    False,
                    f"inconclusive on the cell {_show_box(cell)} at depth {depth}: enclosure {val}",
                )
            halves = [((lo, (lo + hi) / 2), ((lo + hi) / 2, hi)) for lo, hi in cell]
            for choice in range(2**dims):
                sub = tuple(halves[d][(choice >> d) & 1] for d in range(dims))
                stack.append((sub, depth + 1))
    rel = "> 0" if strict else ">= 0"
    return True, (
        f"{rel} certified by interval arithmetic on {certified} cells covering the box "
        f"{_show_box(box)}"
    )


class _FractionPrinter(PythonCodePrinter):
    """Python code in which every sympy rational constant becomes an exact ``Fraction``."""

    def _print_Rational(self, expr: sp.Rational) -> str:
        return f"Fraction({expr.p}, {expr.q})"

    def _print_Half(self, expr: sp.Rational) -> str:
        return "Fraction(1, 2)"


def exact_function(args: Sequence[sp.Symbol], expr: Any) -> Callable[..., Fraction]:
    """Compile a rational ``expr`` into a function that computes exactly on ``Fraction`` inputs.

    Rational constants become ``Fraction`` (never floats); a non-rational result (e.g. from a
    float constant) raises ``TypeError`` rather than returning an inexact value, and so does an
    expression that is no rational function of ``args`` (a logarithm, say), when compiled.

    Parameters
    ----------
    args : sequence of sympy.Symbol
        The arguments, in order.
    expr : sympy expression
        A rational expression of them.

    Returns
    -------
    callable
        A function of the values (converted to ``Fraction``) returning a ``Fraction``.

    Raises
    ------
    TypeError
        ``expr`` is not a rational function of ``args``.

    Examples
    --------
    ``x/(x + 1) + 1/3`` at ``x = 2`` is ``2/3 + 1/3 = 1``:

    >>> import sympy as sp
    >>> from prtheory.theory.checks import exact_function
    >>> x = sp.Symbol("x", positive=True)
    >>> exact_function([x], x / (x + 1) + sp.Rational(1, 3))(2)
    Fraction(1, 1)
    >>> exact_function([x], sp.Float(0.5) * x)(2)
    Traceback (most recent call last):
    ...
    TypeError: 0.5*x is not rational at (2,): got 1.0
    >>> exact_function([x], sp.log(x))
    Traceback (most recent call last):
    ...
    TypeError: log(x) is not a rational function of [x]: no exact value on Fractions
    """
    if not sp.sympify(expr).is_rational_function(*args):
        raise TypeError(
            f"{expr} is not a rational function of {list(args)}: no exact value on Fractions"
        )
    f = sp.lambdify(list(args), expr, modules=[{"Fraction": Fraction}], printer=_FractionPrinter)

    def exact(*values: Any) -> Fraction:
        out = f(*(Fraction(v) for v in values))
        if not isinstance(out, (Fraction, int)):
            raise TypeError(f"{expr} is not rational at {values}: got {out!r}")
        return Fraction(out)

    return exact


def interval_function(args: Sequence[sp.Symbol], expr: Any) -> Callable[..., Any]:
    """Compile ``expr`` into a function on ``mpmath.iv`` intervals (for :func:`interval_sign`).

    Constants are built as intervals (``iv.mpf``), so ``1/3`` is an enclosure, not a rounded
    point; ``log``, ``exp`` and ``sqrt`` are the interval versions.

    Parameters
    ----------
    args : sequence of sympy.Symbol
        The arguments, in order.
    expr : sympy expression
        The expression.

    Returns
    -------
    callable
        A function of ``mpmath.iv`` intervals returning an enclosure.

    Examples
    --------
    ``1/(3 x)`` at ``x = 1`` encloses ``1/3`` (compared at 200 bits):

    >>> import mpmath
    >>> import sympy as sp
    >>> from prtheory.theory.checks import interval_function
    >>> x = sp.Symbol("x", positive=True)
    >>> with mpmath.workprec(80):
    ...     third = interval_function([x], 1 / (3 * x))(mpmath.iv.mpf(1))
    >>> with mpmath.workprec(200):
    ...     print(third.a < mpmath.mpf(1) / 3 < third.b)
    True
    """
    iv = mpmath.iv
    names = {"log": iv.log, "exp": iv.exp, "sqrt": iv.sqrt, "mpf": iv.mpf}
    return sp.lambdify(list(args), expr, modules=[names, "mpmath"])


def _mp_args(point: dict, syms: Sequence[sp.Symbol]) -> list:
    return [mpmath.mpf(point[s].p) / point[s].q for s in syms]


def _show_box(box: Sequence[tuple[Any, Any]]) -> str:
    """A box as ``[1/100, 8/25] x [0, 1]`` (exact end points, no ``Fraction(...)`` reprs)."""
    return " x ".join(f"[{Fraction(str(lo))}, {Fraction(str(hi))}]" for lo, hi in box)


def _show_point(point: dict) -> str:
    """A sampled point as ``x = 1/3, y = 2`` (not as a dict of sympy objects)."""
    return ", ".join(f"{s} = {v}" for s, v in sorted(point.items(), key=lambda kv: str(kv[0])))


def mp_quad_identity(
    integrand: Any,
    var: sp.Symbol,
    lo: Any,
    hi: Any,
    closed_form: Any,
    sampler: Sampler,
    n: int = 40,
    dps: int = 50,
    seed: int = 20124,
) -> tuple[bool, str]:
    """``integral_lo^hi integrand d(var) == closed_form`` at ``n`` random points, by quadrature.

    ``lo`` and ``hi`` may contain the sampled symbols. mpmath's tanh-sinh quadrature at ``dps``
    digits replaces the symbolic integration; agreement is required to ``10**-(dps - 5)`` relative
    to ``max(1, |closed_form|)`` (five guard digits for the quadrature's own error estimate).

    Parameters
    ----------
    integrand : sympy expression
        The function integrated.
    var : sympy.Symbol
        The variable of integration.
    lo, hi : sympy expression
        The limits (may contain the sampled symbols).
    closed_form : sympy expression
        The claimed value of the integral.
    sampler : callable
        Draws the other symbols.
    n : int
        How many points.
    dps : int
        mpmath's working precision, in digits.
    seed : int
        Seeds the sampler.

    Returns
    -------
    tuple of (bool, str)
        Whether quadrature agrees with the closed form everywhere, and the detail.

    Examples
    --------
    ``integral_0^y x**2 dx = y**3/3`` (the antiderivative ``x**3/3``), not ``y**3/2``:

    >>> import sympy as sp
    >>> from prtheory.theory.checks import mp_quad_identity, rational_sampler
    >>> x, y = sp.symbols("x y", positive=True)
    >>> ys = rational_sampler({y: (0, 2)})
    >>> mp_quad_identity(x**2, x, 0, y, y**3 / 3, ys, n=5)[0]
    True
    >>> mp_quad_identity(x**2, x, 0, y, y**3 / 2, ys, n=5)[0]
    False
    """
    integrand, closed_form = sp.sympify(integrand), sp.sympify(closed_form)
    lo, hi = sp.sympify(lo), sp.sympify(hi)
    syms = sorted(
        (integrand.free_symbols | closed_form.free_symbols | lo.free_symbols | hi.free_symbols)
        - {var},
        key=str,
    )
    f = sp.lambdify([var, *syms], integrand, "mpmath")
    F = sp.lambdify(syms, closed_form, "mpmath")
    a_f = sp.lambdify(syms, lo, "mpmath")
    b_f = sp.lambdify(syms, hi, "mpmath")

    def pair(args: list) -> tuple[Any, Any]:
        q = mpmath.quad(lambda x: f(x, *args), [a_f(*args), b_f(*args)])
        return q, F(*args)

    return _mp_agreement(pair, syms, sampler, n, dps, 5, seed, "quadrature")


def mp_derivative_identity(
    antiderivative: Any,
    var: sp.Symbol,
    derivative: Any,
    sampler: Sampler,
    n: int = 40,
    dps: int = 50,
    seed: int = 20125,
) -> tuple[bool, str]:
    """``d/d(var) antiderivative == derivative`` at ``n`` random points, by numerical differentiation.

    ``mpmath.diff`` differentiates at ``dps`` digits (it raises its working precision internally);
    agreement is required to ``10**-(dps - 10)`` relative: ten guard digits for the finite-difference
    step, still far below any real discrepancy.

    Parameters
    ----------
    antiderivative : sympy expression
        The claimed antiderivative.
    var : sympy.Symbol
        The variable it is differentiated in.
    derivative : sympy expression
        The integrand it must differentiate to.
    sampler : callable
        Draws ``var`` and the other symbols.
    n : int
        How many points.
    dps : int
        mpmath's working precision, in digits.
    seed : int
        Seeds the sampler.

    Returns
    -------
    tuple of (bool, str)
        Whether the numerical derivative agrees everywhere, and the detail.

    Examples
    --------
    ``d/dx log x = 1/x``, not ``1/x**2``:

    >>> import sympy as sp
    >>> from prtheory.theory.checks import mp_derivative_identity, rational_sampler
    >>> x = sp.Symbol("x", positive=True)
    >>> xs = rational_sampler({x: (1, 3)})
    >>> mp_derivative_identity(sp.log(x), x, 1 / x, xs, n=5)[0]
    True
    >>> mp_derivative_identity(sp.log(x), x, 1 / x**2, xs, n=5)[0]
    False
    """
    antiderivative, derivative = sp.sympify(antiderivative), sp.sympify(derivative)
    syms = sorted((antiderivative.free_symbols | derivative.free_symbols) - {var}, key=str)
    point_syms = [var, *syms]
    F = sp.lambdify(point_syms, antiderivative, "mpmath")
    f = sp.lambdify(point_syms, derivative, "mpmath")

    def pair(args: list) -> tuple[Any, Any]:
        x, *rest = args
        return mpmath.diff(lambda y: F(y, *rest), x), f(x, *rest)

    return _mp_agreement(pair, point_syms, sampler, n, dps, 10, seed, "the numerical derivative")
