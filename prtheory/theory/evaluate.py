"""Evaluating a statement's expressions at a point, three ways, without sympy's simplifier.

A sympy expression is compiled once into a Python closure for one of three arithmetics:

* :data:`EXACT` -- ``Fraction`` (rational values only; a logarithm raises :class:`NotExact`);
* :data:`INTERVAL` -- ``mpmath.iv`` enclosures at 80 or 300 bits (rigorous: every value is
  contained in its interval);
* :data:`NUMERIC` -- ``mpmath`` at 30 digits, for what has no enclosure here: integrals (by
  quadrature), infinite sums, limits, digamma of a non-integer (a value, not a bound).

Supported: numbers, symbols, ``+ - * /`` and powers, ``log``, ``exp``, ``sqrt``, ``Abs``,
``Min``, ``Max``, ``Piecewise``, ``floor``, ``ceiling``, ``harmonic``, ``digamma`` and
``binomial`` at integers, ``Sum`` with numeric bounds (up to :data:`MAX_TERMS` terms;
``oo`` numerically), ``Integral`` (numerically) and ``Limit`` (numerically, the function inside
evaluated approaching the point: :func:`limit_values`). Relations and ``And``, ``Or``, ``Not``
evaluate to truth values in the exact and interval arithmetics (three-valued in the interval
one: a relation an enclosure does not decide raises :class:`Undecided`).

:func:`decide` gives a relation's verdict at a point: ``"T"`` (true, rigorously: exact or by
enclosure), ``"F"`` (false), ``"C"`` (consistent: not contradicted, not proved: an equation
between irrational values, or a value only known numerically) or ``"U"`` (unavailable: a name
the domain cannot evaluate there, or a sum too long).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from typing import Any

import mpmath
import sympy as sp
from sympy.core.function import AppliedUndef

EXACT, INTERVAL, NUMERIC = "exact", "interval", "numeric"

__all__ = [
    "EXACT",
    "INTERVAL",
    "MAX_TERMS",
    "NUMERIC",
    "NotExact",
    "Unavailable",
    "Undecided",
    "compile_expr",
    "decide",
    "exact_truth",
    "exact_value",
]

#: The longest ``Sum`` evaluated term by term, exactly and in interval arithmetic (longer ones
#: leave the point unavailable).
MAX_TERMS = {EXACT: 3000, INTERVAL: 1000, NUMERIC: 3000}
#: Working precision of the numeric arithmetic, and its tolerance (relative, 10^-(DPS - 10)).
DPS = 30


class NotExact(Exception):
    """The value is not rational (or not computed exactly): use the interval arithmetic.

    Examples
    --------
    ``log 2`` is irrational, so the exact arithmetic stops there:

    >>> from fractions import Fraction
    >>> import sympy as sp
    >>> from prtheory.theory.evaluate import EXACT, NotExact, compile_expr
    >>> x = sp.Symbol("x", positive=True)
    >>> try:
    ...     compile_expr(sp.log(x), EXACT)({x: Fraction(2)})
    ... except NotExact as exc:
    ...     print("not exact:", exc)
    not exact: logarithm
    """


class Undecided(Exception):
    """An enclosure straddles a comparison the expression depends on (a Piecewise condition).

    Examples
    --------
    With ``x`` known only to lie in ``[1/2, 2]``, the condition ``x < 1`` is neither true nor
    false (``x - 1`` lies in ``[-1/2, 1]``):

    >>> import mpmath
    >>> import sympy as sp
    >>> from prtheory.theory.evaluate import INTERVAL, Undecided, compile_expr
    >>> x = sp.Symbol("x", positive=True)
    >>> step = compile_expr(sp.Piecewise((1, x < 1), (0, True)), INTERVAL)
    >>> try:
    ...     step({x: mpmath.iv.mpf([0.5, 2])})
    ... except Undecided as exc:
    ...     print(exc)
    enclosure [-0.5, 1.0] does not decide < 0
    """


class Unavailable(Exception):
    """The point is beyond the reach of a definition or of term-by-term summation.

    Examples
    --------
    ``1 + 2 + ... + n`` is summed term by term up to :data:`MAX_TERMS` terms (3000 exactly):
    ``n = 100`` gives ``100 * 101/2 = 5050``, ``n = 5000`` is out of reach.

    >>> from fractions import Fraction
    >>> import sympy as sp
    >>> from prtheory.theory.evaluate import EXACT, Unavailable, compile_expr
    >>> n = sp.Symbol("n", positive=True, integer=True)
    >>> k = sp.Symbol("k", integer=True)
    >>> total = compile_expr(sp.Sum(k, (k, 1, n)), EXACT)
    >>> point = {n: Fraction(100)}
    >>> total({**point, "__exact__": point})
    Fraction(5050, 1)
    >>> point = {n: Fraction(5000)}
    >>> try:
    ...     total({**point, "__exact__": point})
    ... except Unavailable as exc:
    ...     print(exc)
    a sum of 5,000 terms
    """


class NeedsNumeric(Exception):
    """An integral, an infinite sum or a limit: only the numeric arithmetic evaluates it."""


Env = dict  # symbol -> value in the arithmetic; "__exact__" -> the point's exact values


# ---- constants in each arithmetic -----------------------------------------------------------
def _const(q: Fraction, mode: str) -> Any:
    if mode == EXACT:
        return q
    if mode == INTERVAL:
        return mpmath.iv.mpf(q.numerator) / q.denominator
    return mpmath.mpf(q.numerator) / q.denominator


def to_mode(v: Any, mode: str) -> Any:
    """A point's value (``Fraction``, ``int``, ``mpf`` or ``iv.mpf``) in an arithmetic."""
    if isinstance(v, (int, Fraction)):
        return _const(Fraction(v), mode)
    if mode == EXACT:
        raise NotExact("a value known only numerically")
    if isinstance(v, mpmath.ctx_iv.ivmpf):
        if mode == INTERVAL:
            return v
        return mpmath.mpf(v.mid)
    if mode == INTERVAL:  # an mpf known to working precision: a small enclosure, not rigorous
        raise NeedsNumeric("a value known only numerically")
    return mpmath.mpf(v)


@cache
def _harmonic_exact(n: int) -> Fraction:
    if n <= 0:
        return Fraction(0)
    total = Fraction(0)
    for k in range(1, n + 1):
        total += Fraction(1, k)
    return total


def _harmonic(n: Any, mode: str) -> Any:
    """H(n) for a non-negative integer n: exact up to 2000, beyond by the asymptotic expansion
    ln n + gamma + 1/(2n) - 1/(12 n^2) + theta/(120 n^4), 0 < theta < 1 (enclosed)."""
    k = _integer(n)
    if k < 0:
        raise ValueError(f"harmonic of a negative integer {k}")
    if k <= 2000:
        return _const(_harmonic_exact(k), mode)
    if mode == EXACT:
        raise NotExact("harmonic number beyond 2000 terms")
    if mode == INTERVAL:
        iv = mpmath.iv
        m = iv.mpf(k)
        tail = iv.mpf([0, 1]) / (120 * m**4)
        return iv.log(m) + iv.euler + 1 / (2 * m) - 1 / (12 * m**2) + tail
    return mpmath.harmonic(k)


def _integer(v: Any) -> int:
    """An exact integer from a Fraction, a degenerate interval or an integral mpf."""
    if isinstance(v, Fraction):
        if v.denominator != 1:
            raise ValueError(f"not an integer: {v}")
        return v.numerator
    if isinstance(v, int):
        return v
    if isinstance(v, mpmath.ctx_iv.ivmpf):
        if v.a != v.b:
            raise Undecided("an integer argument known only as an interval")
        v = v.a
    f = mpmath.mpf(v)
    if f != int(f):
        raise ValueError(f"not an integer: {v}")
    return int(f)


# ---- elementary functions ------------------------------------------------------------------
def _log(x: Any, mode: str) -> Any:
    if mode == EXACT:
        if x == 1:
            return Fraction(0)
        if x <= 0:
            raise ValueError(f"log of {x}")
        raise NotExact("logarithm")
    if mode == INTERVAL:
        if x.b <= 0:
            raise ValueError("log of a non-positive number")
        return mpmath.iv.log(x)
    if x <= 0:
        raise ValueError("log of a non-positive number")
    return mpmath.log(x)


def _exp(x: Any, mode: str) -> Any:
    if mode == EXACT:
        if x == 0:
            return Fraction(1)
        raise NotExact("exponential")
    return mpmath.iv.exp(x) if mode == INTERVAL else mpmath.exp(x)


def _exact_root(q: Fraction, k: int) -> Fraction | None:
    if q < 0:
        return None
    a, b = round(q.numerator ** (1 / k)), round(q.denominator ** (1 / k))
    for da in (-1, 0, 1):
        for db in (-1, 0, 1):
            x, y = a + da, b + db
            if x >= 0 and y > 0 and Fraction(x, y) ** k == q:
                return Fraction(x, y)
    return None


def _pow(base: Any, e: Any, e_exact: Fraction | None, mode: str) -> Any:
    if e_exact is not None and e_exact.denominator == 1:
        k = e_exact.numerator
        if mode == EXACT:
            return base**k
        if mode == INTERVAL:
            if k < 0:
                return 1 / base ** (-k)
            return base**k if k else mpmath.iv.mpf(1)
        return base**k
    if mode == EXACT:
        if e_exact is not None:
            root = _exact_root(base, e_exact.denominator)
            if root is not None:
                return root**e_exact.numerator
        raise NotExact("irrational power")
    if mode == INTERVAL:
        if base.a < 0:
            raise ValueError("a real power of a negative number")
        if base.a == 0:  # iv ** at 0: through exp(e log x) would give log 0
            if e_exact is not None and e_exact > 0:
                return mpmath.iv.mpf([0, (base.b**e).b])
            raise Undecided("power at 0")
        return mpmath.iv.exp(e * mpmath.iv.log(base))
    return mpmath.power(base, e)


def _abs(x: Any, mode: str) -> Any:
    if mode == INTERVAL:
        if x.a >= 0:
            return x
        if x.b <= 0:
            return -x
        return mpmath.iv.mpf([0, max(-x.a, x.b)])
    return abs(x)


def _min2(x: Any, y: Any, mode: str, pick: Callable[[Any, Any], Any]) -> Any:
    if mode == INTERVAL:
        return mpmath.iv.mpf([pick(x.a, y.a), pick(x.b, y.b)])
    return pick(x, y)


def _floor(x: Any, mode: str, up: bool = False) -> Any:
    f = math.ceil if up else math.floor
    if mode == EXACT:
        return Fraction(f(x))
    if mode == INTERVAL:
        lo, hi = f(x.a), f(x.b)
        if lo != hi:
            raise Undecided("floor of an interval across an integer")
        return mpmath.iv.mpf(lo)
    return mpmath.mpf(f(x))


def _digamma(x: Any, mode: str) -> Any:
    """psi(m) = H(m - 1) - gamma at a positive integer m; numerically elsewhere."""
    try:
        m = _integer(x)
    except (ValueError, Undecided):
        if mode != NUMERIC:
            raise NeedsNumeric("digamma of a non-integer") from None
        return mpmath.digamma(x)
    if mode == EXACT:
        raise NotExact("digamma")
    if m <= 0:
        raise ValueError(f"digamma at the pole {m}")
    h = _harmonic(m - 1, mode)
    return h - (mpmath.iv.euler if mode == INTERVAL else mpmath.euler)


# ---- truth values ---------------------------------------------------------------------------
_OPS = {
    sp.Equality: "==",
    sp.Unequality: "!=",
    sp.StrictGreaterThan: ">",
    sp.GreaterThan: ">=",
    sp.StrictLessThan: "<",
    sp.LessThan: "<=",
}


def _compare(d: Any, op: str, mode: str) -> bool:
    """``d op 0`` for an exact value, or a certain answer for an enclosure (else Undecided)."""
    if mode == EXACT:
        return {
            "==": d == 0,
            "!=": d != 0,
            ">": d > 0,
            ">=": d >= 0,
            "<": d < 0,
            "<=": d <= 0,
        }[op]
    verdict = _interval_verdict(d, op)
    if verdict == "T":
        return True
    if verdict == "F":
        return False
    raise Undecided(f"enclosure {d} does not decide {op} 0")


def _interval_verdict(d: Any, op: str) -> str:
    """T, F or C (the enclosure does not decide) for ``d op 0``."""
    lo, hi = d.a, d.b
    if op in ("<", "<="):
        lo, hi, op = -hi, -lo, {"<": ">", "<=": ">="}[op]
    if op == ">":
        return "T" if lo > 0 else "F" if hi <= 0 else "C"
    if op == ">=":
        return "T" if lo >= 0 else "F" if hi < 0 else "C"
    zero = lo == 0 and hi == 0
    outside = lo > 0 or hi < 0
    if op == "==":
        return "T" if zero else "F" if outside else "C"
    return "T" if outside else "F" if zero else "C"  # !=


# ---- the compiler ---------------------------------------------------------------------------
Compiled = Callable[[Env], Any]


def compile_expr(expr: Any, mode: str) -> Compiled:
    """``expr`` as a function of an environment (symbol -> value in the arithmetic ``mode``).

    Raises :class:`NotExact` (at evaluation) where the exact arithmetic cannot continue,
    :class:`NeedsNumeric` where only the numeric one can, :class:`Unavailable` for a sum longer
    than :data:`MAX_TERMS`, ``ZeroDivisionError``/``ValueError`` where the expression is
    undefined.

    Parameters
    ----------
    expr : sympy expression or relation
        What to evaluate (compiled once per ``mode``; cached).
    mode : str
        :data:`EXACT`, :data:`INTERVAL` or :data:`NUMERIC`.

    Returns
    -------
    callable
        A function of an environment (a dict from symbols to values in the arithmetic).

    Examples
    --------
    ``x**2 - 2`` at ``x = 3/2`` is ``9/4 - 8/4 = 1/4`` exactly; ``sqrt(2)`` is enclosed
    (``sqrt 2 = 1.41421356237309504880168872...`` lies inside, compared at 100 bits):

    >>> from fractions import Fraction
    >>> import mpmath
    >>> import sympy as sp
    >>> from prtheory.theory.evaluate import EXACT, INTERVAL, compile_expr
    >>> x = sp.Symbol("x", positive=True)
    >>> compile_expr(x**2 - 2, EXACT)({x: Fraction(3, 2)})
    Fraction(1, 4)
    >>> with mpmath.workprec(80):
    ...     root = compile_expr(sp.sqrt(x), INTERVAL)({x: mpmath.iv.mpf(2)})
    >>> with mpmath.workprec(100):
    ...     print(root.a < mpmath.mpf("1.41421356237309504880168872") < root.b)
    True
    """
    expr = sp.sympify(expr)
    return remember(_COMPILED, (expr, mode), lambda: _compile(expr, mode))


def remember(cache: dict, key: Any, make: Callable[[], Any], limit: int = 20000) -> Any:
    """``cache[key]``, made by ``make()`` the first time; the cache is emptied when it holds
    more than ``limit`` entries (the claims' statements are few, their mutants many)."""
    found = cache.get(key)
    if found is None:
        if len(cache) > limit:
            cache.clear()
        found = cache[key] = make()
    return found


_COMPILED: dict[tuple[Any, str], Compiled] = {}


def _compile(e: Any, mode: str) -> Compiled:
    if isinstance(e, (bool, sp.logic.boolalg.BooleanAtom)):
        value = bool(e)
        return lambda env: value
    if isinstance(e, sp.Rational):
        c = _const(Fraction(int(e.p), int(e.q)), mode)
        return lambda env: c
    if isinstance(e, sp.Float):
        q = Fraction(*float(e).as_integer_ratio()) if e._prec <= 53 else Fraction(str(e))
        c = _const(q, mode)
        return lambda env: c
    if e is sp.pi or e is sp.E or e is sp.EulerGamma:
        if mode == EXACT:

            def irrational(env: Env) -> Any:
                raise NotExact(str(e))

            return irrational
        name = {sp.pi: "pi", sp.E: "e", sp.EulerGamma: "euler"}[e]
        value = getattr(mpmath.iv if mode == INTERVAL else mpmath, name)
        return lambda env: value
    if e in (sp.oo, -sp.oo, sp.zoo, sp.nan):

        def infinite(env: Env) -> Any:
            raise ValueError(f"{e} in an expression")

        return infinite
    if isinstance(e, sp.Symbol):

        def lookup(env: Env) -> Any:
            try:
                return env[e]
            except KeyError:
                raise ValueError(f"no value for {e}") from None

        return lookup
    if isinstance(e, sp.Add):
        parts = [_compile(a, mode) for a in e.args]

        def add(env: Env) -> Any:
            total = parts[0](env)
            for f in parts[1:]:
                total = total + f(env)
            return total

        return add
    if isinstance(e, sp.Mul):
        parts = [_compile(a, mode) for a in e.args]

        def mul(env: Env) -> Any:
            total = parts[0](env)
            for f in parts[1:]:
                total = total * f(env)
            return total

        return mul
    if isinstance(e, sp.Pow):
        base = _compile(e.base, mode)
        ex = e.exp
        e_exact = Fraction(int(ex.p), int(ex.q)) if isinstance(ex, sp.Rational) else None
        if e_exact is not None:
            ev = _const(e_exact, mode)
            return lambda env: _pow(base(env), ev, e_exact, mode)
        exp_f = _compile(ex, mode)
        if mode == EXACT:

            def pow_exact(env: Env) -> Any:
                k = exp_f(env)
                return _pow(base(env), _const(k, mode), k, mode)

            return pow_exact
        return lambda env: _pow(base(env), exp_f(env), None, mode)
    if isinstance(e, sp.log):
        arg = _compile(e.args[0], mode)
        if len(e.args) > 1:
            b = _compile(e.args[1], mode)
            return lambda env: _log(arg(env), mode) / _log(b(env), mode)
        return lambda env: _log(arg(env), mode)
    if isinstance(e, sp.exp):
        arg = _compile(e.args[0], mode)
        return lambda env: _exp(arg(env), mode)
    if isinstance(e, sp.Abs):
        arg = _compile(e.args[0], mode)
        return lambda env: _abs(arg(env), mode)
    if isinstance(e, (sp.Min, sp.Max)):
        parts = [_compile(a, mode) for a in e.args]
        pick = min if isinstance(e, sp.Min) else max

        def extreme(env: Env) -> Any:
            values = [f(env) for f in parts]
            out = values[0]
            for v in values[1:]:
                out = _min2(out, v, mode, pick)
            return out

        return extreme
    if isinstance(e, (sp.floor, sp.ceiling)):
        arg = _compile(e.args[0], mode)
        up = isinstance(e, sp.ceiling)
        return lambda env: _floor(arg(env), mode, up)
    if isinstance(e, sp.harmonic) and len(e.args) == 1:
        arg = _compile(e.args[0], mode)
        return lambda env: _harmonic(arg(env), mode)
    if isinstance(e, sp.polygamma) and e.args[0] == 0:
        arg = _compile(e.args[1], mode)
        return lambda env: _digamma(arg(env), mode)
    if isinstance(e, sp.digamma):
        arg = _compile(e.args[0], mode)
        return lambda env: _digamma(arg(env), mode)
    if isinstance(e, sp.binomial):
        top, bottom = (_compile(a, mode) for a in e.args)
        return lambda env: _const(
            Fraction(math.comb(_integer(top(env)), _integer(bottom(env)))), mode
        )
    if isinstance(e, sp.Piecewise):
        branches = [(_compile(v, mode), _compile(c, mode)) for v, c in e.args]

        def piecewise(env: Env) -> Any:
            for value, cond in branches:
                if cond(env):
                    return value(env)
            raise ValueError("no branch of a Piecewise applies")

        return piecewise
    if isinstance(e, sp.core.relational.Relational):
        op = _OPS[type(e)]
        d = _compile(e.lhs - e.rhs, mode)
        # numerically, a condition is compared as the value it has at working precision
        return lambda env: _compare(d(env), op, EXACT if mode == NUMERIC else mode)
    if isinstance(e, (sp.And, sp.Or, sp.Not)):
        parts = [_compile(a, mode) for a in e.args]
        if isinstance(e, sp.Not):
            return lambda env: not parts[0](env)
        if isinstance(e, sp.And):
            return lambda env: all(f(env) for f in parts)
        return lambda env: any(f(env) for f in parts)
    if isinstance(e, AppliedUndef):
        args = [_compile(a, EXACT) for a in e.args]
        func = e.func

        def apply(env: Env) -> Any:
            table = env.get("__functions__", {})
            if func not in table:
                raise ValueError(f"no definition of the function {func}")
            exact = env.get("__exact__")
            if exact is None:
                raise Undecided("a defined function of values known only as intervals")
            value = table[func](*(_integer(a(exact)) for a in args))
            if value is None:
                raise Unavailable(f"{func} beyond its reach")
            return to_mode(value, mode)

        return apply
    if isinstance(e, sp.Sum):
        return _compile_sum(e, mode)
    if isinstance(e, sp.Integral):
        return _compile_integral(e, mode)
    if isinstance(e, sp.Limit):
        return _compile_limit(e, mode)
    raise ValueError(f"cannot evaluate {type(e).__name__} ({e}) at a point")


def _compile_sum(e: sp.Sum, mode: str) -> Compiled:
    if len(e.limits) != 1:
        inner = sp.Sum(e.function, *e.limits[:-1])
        return _compile_sum(sp.Sum(inner, e.limits[-1]), mode)
    var, lo_e, hi_e = e.limits[0]
    term = _compile(e.function, mode)
    lo_x, hi_x = _compile(lo_e, EXACT), _compile(hi_e, EXACT) if hi_e != sp.oo else None

    def exact_bound(f: Compiled, env: Env) -> int:
        exact = env.get("__exact__")
        if exact is None:
            raise Undecided("a sum whose bounds are known only as intervals")
        return _integer(f(exact))

    if hi_x is None:

        def series(env: Env) -> Any:
            if mode != NUMERIC:
                raise NeedsNumeric("an infinite sum")
            a = exact_bound(lo_x, env)
            return _series(term, var, a, env)

        return series

    def finite(env: Env) -> Any:
        a, b = exact_bound(lo_x, env), exact_bound(hi_x, env)
        if b - a + 1 > MAX_TERMS[mode]:
            raise Unavailable(f"a sum of {b - a + 1:,} terms")
        total = _const(Fraction(0), mode)
        scope = dict(env)
        exact = dict(env["__exact__"])
        exact["__functions__"] = env.get("__functions__", {})
        scope["__exact__"] = exact
        for k in range(a, b + 1):
            scope[var] = _const(Fraction(k), mode)
            exact[var] = Fraction(k)
            total = total + term(scope)
        return total

    return finite


def _series(term: Compiled, var: Any, start: int, env: Env) -> Any:
    """An infinite sum by direct summation, stopped once the terms shrink geometrically: with
    ratio q < 0.95 between the last two terms, the rest is at most |term| q/(1 - q), which must
    be below 10^-(DPS - 5) of the sum (recorded as this value's error). Raises
    :class:`Unavailable` when that does not happen within MAX_TERMS terms (a series near its
    radius of convergence)."""
    scope = dict(env)
    scope.pop("__exact__", None)
    total, last = mpmath.mpf(0), None
    small = mpmath.mpf(10) ** (-(DPS - 5))
    for k in range(start, start + MAX_TERMS[NUMERIC]):
        scope[var] = mpmath.mpf(k)
        t = term(scope)
        total += t
        if last is not None and last != 0:
            q = abs(t / last)
            if q < mpmath.mpf("0.95"):
                tail = abs(t) * q / (1 - q)
                if tail <= small * max(abs(total), small):
                    env.setdefault("__errors__", []).append(tail)
                    return total
        last = t
    raise Unavailable("an infinite series that does not settle within its term budget")


def _compile_integral(e: sp.Integral, mode: str) -> Compiled:
    if len(e.limits) != 1 or len(e.limits[0]) != 3:
        raise ValueError(f"only single definite integrals are evaluated: {e}")
    var, lo_e, hi_e = e.limits[0]
    if mode != NUMERIC:

        def numeric_only(env: Env) -> Any:
            raise NeedsNumeric("an integral")

        return numeric_only
    f = _compile(e.function, NUMERIC)
    lo, hi = _compile(lo_e, NUMERIC), _compile(hi_e, NUMERIC)

    def integral(env: Env) -> Any:
        scope = dict(env)
        scope.pop("__exact__", None)

        def at(x: Any) -> Any:
            scope[var] = x
            return f(scope)

        value, err = mpmath.quad(at, [lo(env), hi(env)], error=True)
        env.setdefault("__errors__", []).append(err)
        return value

    return integral


def _compile_limit(e: sp.Limit, mode: str) -> Compiled:
    f, var, point, direction = e.args
    if mode != NUMERIC:

        def numeric_only(env: Env) -> Any:
            raise NeedsNumeric("a limit")

        return numeric_only
    inner = _compile(f, NUMERIC)
    at = _compile(point, NUMERIC) if point.is_finite else None
    sign = -1 if str(direction) == "-" else 1

    def approach(env: Env) -> Any:
        h = env["__h__"]
        scope = dict(env)
        scope.pop("__exact__", None)
        if at is None:
            scope[var] = (1 if point == sp.oo else -1) / h
        else:
            scope[var] = at(env) + sign * h
        return inner(scope)

    return approach


def limit_values(d: Compiled, env: Env) -> list[Any]:
    """``d`` with every limit's function evaluated at distance h = 10^-5, 10^-10, 10^-20, 10^-40
    from its point (1/h towards infinity), at 100 digits."""
    out = []
    with mpmath.workdps(100):
        for k in (5, 10, 20, 40):
            out.append(d({**env, "__h__": mpmath.mpf(10) ** -k}))
    return out


# ---- a relation at a point ------------------------------------------------------------------
def decide(
    rel: Any, compiled: dict[str, Compiled], env_of: Callable[[str], Env]
) -> tuple[str, str]:
    """The verdict (T, F, C or U) of ``lhs - rhs op 0`` and the arithmetic that gave it.

    ``compiled`` holds ``lhs - rhs`` compiled in each arithmetic; ``env_of(mode)`` the point in
    it. Exact first; an enclosure at 80 bits then 300 bits when the value is irrational; the
    numeric arithmetic (30 digits, limits approached) where neither applies.

    Parameters
    ----------
    rel : sympy relation
        The relation (its type gives the comparison).
    compiled : dict
        ``lhs - rhs`` compiled in each arithmetic (:func:`compile_expr`), by mode.
    env_of : callable
        The point in the arithmetic of a mode.

    Returns
    -------
    tuple of (str, str)
        The verdict (``"T"``, ``"F"``, ``"C"`` or ``"U"``) and the arithmetic that gave it.

    Examples
    --------
    ``1/3 + 1/6 = 1/2`` is decided exactly; ``sqrt(2) > 7/5`` by an enclosure (``7/5 = 1.4``
    and ``1.4**2 = 1.96 < 2``):

    >>> from fractions import Fraction
    >>> import mpmath
    >>> import sympy as sp
    >>> from prtheory.theory.evaluate import EXACT, INTERVAL, compile_expr, decide
    >>> x = sp.Symbol("x", positive=True)
    >>> envs = {EXACT: {x: Fraction(2)}, INTERVAL: {x: mpmath.iv.mpf(2)}}
    >>> def verdict(rel):
    ...     d = rel.lhs - rel.rhs
    ...     compiled = {mode: compile_expr(d, mode) for mode in (EXACT, INTERVAL)}
    ...     return decide(rel, compiled, envs.get)
    >>> verdict(sp.Eq(1 / (x + 1) + 1 / (3 * x), sp.Rational(1, 2)))
    ('T', 'exact')
    >>> verdict(sp.Gt(sp.sqrt(x), sp.Rational(7, 5)))
    ('T', 'interval')
    >>> verdict(sp.Gt(sp.sqrt(x), sp.Rational(3, 2)))
    ('F', 'interval')
    """
    op = _OPS[type(rel)]
    try:
        d = compiled[EXACT](env_of(EXACT))
        return ("T" if _compare(d, op, EXACT) else "F"), EXACT
    except (NotExact, Undecided):
        pass
    except NeedsNumeric:
        return _numeric(rel, op, compiled, env_of)
    for prec in (80, 300):
        try:
            with mpmath.workprec(prec):
                d = compiled[INTERVAL](env_of(INTERVAL))
                verdict = _interval_verdict(d, op)
        except Undecided:
            verdict = "C"
        except NeedsNumeric:
            return _numeric(rel, op, compiled, env_of)
        if verdict != "C":
            return verdict, INTERVAL
    return "C", INTERVAL


def _numeric(
    rel: Any, op: str, compiled: dict[str, Compiled], env_of: Callable[[str], Env]
) -> tuple[str, str]:
    """The numeric verdict: C when ``lhs - rhs op 0`` holds to 10^-(DPS - 10) relative to the
    sides' size, F when it fails by more than 10^-(DPS - 18) (far beyond the error of a
    quadrature or a series at DPS digits), else C; both margins grow by ten times the error
    estimates that mpmath's quadratures and series report."""
    has_limit = any(isinstance(a, sp.Limit) for a in sp.preorder_traversal(rel))
    env = dict(env_of(NUMERIC))
    env["__errors__"] = []
    with mpmath.workdps(DPS):
        if has_limit:
            values = limit_values(compiled[NUMERIC], env)
            return _limit_verdict(values, op), NUMERIC
        d = compiled[NUMERIC](env)
        size = max(mpmath.mpf(1), abs(compiled["scale"](env)))
        # the quadratures' and series' own error estimates widen both margins
        estimated = 10 * sum(env["__errors__"], mpmath.mpf(0))
        tol = size * mpmath.mpf(10) ** (-(DPS - 10)) + estimated
        clear = size * mpmath.mpf(10) ** (-(DPS - 18)) + estimated
    if op == "==":
        return ("C" if abs(d) <= tol else "F" if abs(d) > clear else "C"), NUMERIC
    if op == "!=":
        return ("F" if abs(d) <= tol else "C"), NUMERIC
    sign = 1 if op in (">", ">=") else -1
    return ("F" if sign * d < -clear else "C"), NUMERIC


def _limit_verdict(values: list[Any], op: str) -> str:
    """A limit statement ``lim ... op 0`` from the differences at shrinking distances: for an
    equation they must shrink towards 0 (each at most the previous, the last below 10^-8);
    for an inequality the last must not contradict it by more than that."""
    last = values[-1]
    small = mpmath.mpf(10) ** -8
    if op == "==":
        shrinking = all(abs(b) <= abs(a) + small * 1e-20 for a, b in itertools.pairwise(values))
        return "C" if shrinking and abs(last) < small else "F"
    if op == "!=":
        return "F" if abs(last) < small else "C"
    sign = 1 if op in (">", ">=") else -1
    return "F" if sign * last < -small else "C"


def exact_value(expr: Any, point: dict) -> Fraction:
    """``expr`` at ``point`` (symbols -> Fractions), exactly (bounds of domain variables).

    Parameters
    ----------
    expr : sympy expression
        A rational expression of the point's symbols.
    point : dict
        Symbols to ``int`` or ``Fraction`` values (other values are left out).

    Returns
    -------
    Fraction
        The exact value.

    Examples
    --------
    Precision ``TP/(TP + FP)`` at ``TP = 3, FP = 1`` is ``3/4``:

    >>> import sympy as sp
    >>> from prtheory.theory.evaluate import exact_value
    >>> TP, FP = sp.symbols("TP FP", nonnegative=True)
    >>> exact_value(TP / (TP + FP), {TP: 3, FP: 1})
    Fraction(3, 4)
    """
    v = compile_expr(expr, EXACT)(
        {k: Fraction(x) for k, x in point.items() if isinstance(x, (int, Fraction))}
    )
    return Fraction(v)


def exact_truth(rel: Any, point: dict) -> bool:
    """A constraint at ``point``, exactly.

    Parameters
    ----------
    rel : sympy relation or boolean
        The constraint.
    point : dict
        Symbols to ``int`` or ``Fraction`` values.

    Returns
    -------
    bool
        Whether it holds there.

    Examples
    --------
    ``TP <= pos`` at ``TP = 3``: true for ``pos = 3``, false for ``pos = 2``:

    >>> import sympy as sp
    >>> from prtheory.theory.evaluate import exact_truth
    >>> TP, pos = sp.symbols("TP pos", nonnegative=True)
    >>> exact_truth(sp.Le(TP, pos), {TP: 3, pos: 3}), exact_truth(sp.Le(TP, pos), {TP: 3, pos: 2})
    (True, False)
    """
    env = {k: Fraction(x) for k, x in point.items() if isinstance(x, (int, Fraction))}
    return bool(compile_expr(rel, EXACT)({**env, "__exact__": env}))
