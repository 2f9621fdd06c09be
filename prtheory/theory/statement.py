"""The statement check: a claim's statement evaluated by the registry itself, over its domain.

:func:`check_statement` takes the statement object (never the derivation's formulas) and the
claim's :class:`~prtheory.theory.domain.Domain`, substitutes the domain's definitions, replaces
each derivative by the derivative sympy takes (mechanical differentiation, not simplification),
and checks each conjunct (*part*) of the statement:

1. **At points** (:mod:`prtheory.theory.evaluate`): every point of the exhaustive range (the
   whole domain when it is finite) and the sampled points beyond it (powers of two and large
   values for unbounded integers; random, boundary and near-singular values for real variables).
   A relation is decided exactly, else by an ``mpmath.iv`` enclosure, else numerically (an
   integral by quadrature, a limit by evaluating the function inside it approaching the point,
   an infinite sum by ``nsum``). A point where the statement is false, or undefined, refutes it.
2. **Certified**, where a rigorous argument covers the whole domain:

   * a finite domain (or a closed statement) every point of which was decided true;
   * a *rational identity* (both sides rational functions of the variables): its structural
     numerator has degree at most d_x in each variable x, and the identity holding exactly on a
     product grid of (d_x + 1) values per variable makes that numerator the zero polynomial, so
     the identity holds wherever both sides are defined;
   * an inequality or a logical combination of them over real variables: interval branch and
     bound over the domain's box (``mpmath.iv``, bisecting undecided cells), every cell decided.

   Otherwise the part is *tested*: falsification only, with the points named. A statement is
   not tested at all (it is *unevaluated*, and its claim fails) when no sampled point beyond the
   exhaustive range could be evaluated: a definition that declines every larger point would
   otherwise confine the check to the range the claim chose.

The result (:class:`StatementCheck`) says which, part by part.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp
from sympy.core.function import AppliedUndef

from prtheory.theory.domain import Domain, Meaning, Real, rebuild
from prtheory.theory.evaluate import (
    _OPS,
    EXACT,
    INTERVAL,
    NUMERIC,
    Compiled,
    NeedsNumeric,
    NotExact,
    Unavailable,
    Undecided,
    _interval_verdict,
    compile_expr,
    decide,
    to_mode,
)

__all__ = ["PartCheck", "StatementCheck", "check_statement", "conjuncts", "prepare"]

#: Caps that keep the check fast: grid points of the identity certificate, and cells of the
#: branch and bound.
MAX_GRID = 5000
MAX_CELLS = 400


@dataclass
class PartCheck:
    """One conjunct of the statement and how it was checked.

    Examples
    --------
    ``a b <= a + b`` over ``0 <= a, b <= 3``: scanning ``a`` then ``b``, the first false
    point is ``a = 2, b = 3`` (``6 > 5``; every point before it holds: ``a = 0, 1`` give
    ``a b <= b``, and ``a = 2, b <= 2`` gives ``2 b <= 2 + b``):

    >>> import sympy as sp
    >>> from prtheory.theory.domain import Domain, Integer
    >>> from prtheory.theory.statement import check_statement
    >>> a, b = sp.symbols("a b", integer=True, nonnegative=True)
    >>> grid = Domain(Integer(a, 0, 3), Integer(b, 0, 3))
    >>> part = check_statement(sp.Le(a * b, a + b), grid).parts[0]
    >>> part.status, part.counterexample
    ('refuted', 'false at a = 2, b = 3')
    """

    text: str
    status: str  # "certified", "tested", "refuted" or "unevaluated"
    method: str
    kinds: list[str] = field(default_factory=list)
    counterexample: str = ""


@dataclass
class StatementCheck:
    """The statement check of one claim (see the module docstring).

    Examples
    --------
    ``a b <= (a**2 + b**2)/2`` (that is ``(a - b)**2 >= 0``) holds at all ``4 * 4 = 16``
    points of ``0 <= a, b <= 3``, a finite domain: certified.

    >>> import sympy as sp
    >>> from prtheory.theory.domain import Domain, Integer
    >>> from prtheory.theory.statement import check_statement
    >>> a, b = sp.symbols("a b", integer=True, nonnegative=True)
    >>> grid = Domain(Integer(a, 0, 3), Integer(b, 0, 3))
    >>> check = check_statement(sp.Le(a * b, (a**2 + b**2) / 2), grid)
    >>> check.status, check.points
    ('certified', 16)
    >>> check.summary()
    'certified (16 points; finite: every point)'
    """

    status: str  # "certified", "tested", "refuted", "unevaluated" or "error"
    parts: list[PartCheck]
    points: int = 0
    unavailable: int = 0
    coverage: str = ""
    error: str = ""
    seconds: float = 0.0

    @property
    def kinds(self) -> list[str]:
        out: list[str] = []
        for p in self.parts:
            for k in p.kinds:
                if k not in out:
                    out.append(k)
        return out

    @property
    def counterexample(self) -> str:
        return next((p.counterexample for p in self.parts if p.counterexample), "")

    def summary(self) -> str:
        """One line: e.g. 'certified (2 parts: rational identity; every point of a finite
        domain)' or 'tested at 1,234 points (...)'."""
        if self.status == "error":
            return f"cannot be checked: {self.error}"
        if self.status == "refuted":
            return f"REFUTED: {self.counterexample}"
        if self.status == "unevaluated":
            return f"never evaluated: {self.error or 'no point of the domain could be evaluated'}"
        word = "certified" if self.status == "certified" else "tested"
        plural = "" if self.points == 1 else "s"
        return f"{word} ({self.points:,} point{plural}; {self.coverage})"


# ---- preparing the statement ------------------------------------------------------------------
def conjuncts(statement: Any) -> list[Any]:
    """The top-level parts of a statement: the arguments of And and Tuple, flattened.

    Parameters
    ----------
    statement : sympy object
        The statement.

    Returns
    -------
    list
        Its parts, each checked on its own.

    Examples
    --------
    >>> import sympy as sp
    >>> from prtheory.theory.statement import conjuncts
    >>> a, b = sp.symbols("a b", integer=True, nonnegative=True)
    >>> conjuncts(sp.Tuple(sp.Le(a, 3), sp.And(sp.Ge(b, 1), sp.Lt(a, b))))
    [a <= 3, b >= 1, a < b]
    """
    s = sp.sympify(statement)
    if isinstance(s, (sp.And, sp.Tuple)):
        return [p for a in s.args for p in conjuncts(a)]
    return [s]


def prepare(part: Any, domain: Domain) -> Any:
    """A part with the domain's definitions substituted and derivatives taken; raises
    ``ValueError`` when it uses a name the domain neither declares nor defines.

    Parameters
    ----------
    part : sympy object
        One part of a statement (:func:`conjuncts`).
    domain : Domain
        Its variables and definitions.

    Returns
    -------
    sympy relation or boolean
        The part as the check evaluates it.

    Raises
    ------
    ValueError
        It applies a function or uses a name the domain does not define, or it is not true or
        false (an expression).

    Examples
    --------
    >>> import sympy as sp
    >>> from prtheory.theory.domain import Domain, Integer
    >>> from prtheory.theory.statement import prepare
    >>> TP, FP, P, R = sp.symbols("TP FP P R", positive=True)
    >>> tables = Domain(Integer(TP, 1, 3), Integer(FP, 0, 3), define={P: TP / (TP + FP)})
    >>> prepare(sp.Le(P, 1), tables)
    TP/(FP + TP) <= 1
    >>> prepare(sp.Le(P, R), tables)
    Traceback (most recent call last):
    ...
    ValueError: the statement uses R, which the domain neither declares as a variable nor defines
    """
    s = domain.expand(part)
    s = rebuild(s, lambda e: e.replace(lambda x: isinstance(x, sp.Derivative), lambda x: x.doit()))
    defined = set(domain.function_meanings())
    undefined = sorted(
        {
            str(a.func)
            for a in sp.preorder_traversal(s)
            if isinstance(a, AppliedUndef) and a.func not in defined
        }
    )
    if undefined:
        raise ValueError(
            f"the statement applies {', '.join(undefined)}, which the domain does not define "
            "(define it as a sympy Lambda)"
        )
    known = set(domain.symbols) | set(domain.meanings())
    loose = sorted(map(str, _free(s) - known))
    if loose:
        raise ValueError(
            f"the statement uses {', '.join(loose)}, which the domain neither declares as a "
            "variable nor defines"
        )
    if not isinstance(s, (sp.logic.boolalg.Boolean, sp.core.relational.Relational)):
        raise ValueError(f"not a statement that is true or false: {part}")
    return s


def _free(e: Any) -> set[sp.Symbol]:
    return {x for x in e.free_symbols if isinstance(x, sp.Symbol)}


# ---- evaluating a part at a point -------------------------------------------------------------
class _Part:
    """A prepared part: its relations compiled in the three arithmetics, on demand."""

    def __init__(self, prepared: Any, domain: Domain) -> None:
        self.expr = prepared
        self.meanings = {s: m for s, m in domain.meanings().items() if s in prepared.free_symbols}
        applied = {a.func for a in sp.preorder_traversal(prepared) if isinstance(a, AppliedUndef)}
        self.functions = {f: m for f, m in domain.function_meanings().items() if f in applied}
        known = set(domain.symbols) | set(domain.meanings())
        # the same at every point: evaluated once
        self.closed = not (_free(prepared) & known) and not self.functions
        self._compiled: dict[Any, dict[str, Compiled]] = {}

    def compiled(self, rel: Any) -> dict[str, Compiled]:
        got = self._compiled.get(rel)
        if got is None:
            d = rel.lhs - rel.rhs
            got = {
                EXACT: compile_expr(d, EXACT),
                INTERVAL: compile_expr(d, INTERVAL),
                NUMERIC: compile_expr(d, NUMERIC),
                "scale": compile_expr(sp.Abs(rel.lhs) + sp.Abs(rel.rhs), NUMERIC),
            }
            self._compiled[rel] = got
        return got

    def truth(self, ctx: _Point) -> tuple[str, set[str]]:
        used: set[str] = set()
        return self._truth(self.expr, ctx, used), used

    def _truth(self, node: Any, ctx: _Point, used: set[str]) -> str:
        if node is sp.true or node is True:
            return "T"
        if node is sp.false or node is False:
            return "F"
        if isinstance(node, sp.core.relational.Relational):
            try:
                verdict, mode = decide(node, self.compiled(node), ctx.env_of)
            except Unavailable:
                return "U"
            except (ZeroDivisionError, ValueError, ArithmeticError) as exc:
                ctx.undefined = f"{node} is undefined there ({exc or type(exc).__name__})"
                return "F"
            used.add(mode)
            return verdict
        if isinstance(node, sp.Not):
            return {"T": "F", "F": "T"}.get(self._truth(node.args[0], ctx, used), "C")
        if isinstance(node, (sp.And, sp.Tuple)):
            return _kleene_and([self._truth(a, ctx, used) for a in node.args])
        if isinstance(node, sp.Or):
            return _kleene_or([self._truth(a, ctx, used) for a in node.args])
        if isinstance(node, sp.Implies):
            a, b = (self._truth(x, ctx, used) for x in node.args)
            return _kleene_or([{"T": "F", "F": "T"}.get(a, a), b])
        if isinstance(node, sp.Equivalent):
            values = [self._truth(a, ctx, used) for a in node.args]
            if all(v in "TF" for v in values):
                return "T" if len(set(values)) == 1 else "F"
            return "U" if "U" in values else "C"
        raise ValueError(f"cannot evaluate {type(node).__name__} as a truth value")


def _kleene_and(values: list[str]) -> str:
    if "F" in values:
        return "F"
    if "U" in values:
        return "U"
    return "C" if "C" in values else "T"


def _kleene_or(values: list[str]) -> str:
    if "T" in values:
        return "T"
    if "U" in values:
        return "U"
    return "C" if "C" in values else "F"


class _Point:
    """A point with its meanings evaluated once, and its values in each arithmetic."""

    def __init__(
        self, point: dict, meanings: dict[sp.Symbol, Meaning], functions: dict[Any, Meaning]
    ) -> None:
        self.point = dict(point)
        self.undefined = ""
        self._envs: dict[str, dict] = {}
        base = dict(point)
        for s, m in meanings.items():
            value = m.fn(base)
            if value is None:
                raise Unavailable(f"{s} beyond its reach")
            self.point[s] = value
        self.functions = {f: (lambda *args, m=m: m.fn(base, *args)) for f, m in functions.items()}

    def env_of(self, mode: str) -> dict:
        env = self._envs.get(mode)
        if env is None:
            exact = {k: v for k, v in self.point.items() if isinstance(v, (int, Fraction))}
            env = {k: to_mode(v, mode) for k, v in self.point.items() if _numeric_value(v)}
            env["__exact__"] = {k: Fraction(v) for k, v in exact.items()}
            env["__exact__"]["__functions__"] = self.functions
            env["__functions__"] = self.functions
            self._envs[mode] = env
        return env


def _numeric_value(v: Any) -> bool:
    return isinstance(v, (int, Fraction, mpmath.mpf, mpmath.ctx_iv.ivmpf))


def show_point(point: dict) -> str:
    """A point as 'pos = 10, neg = 1' (structured values by their repr)."""
    if not point:
        return "no variables"
    return ", ".join(f"{s} = {_show(v)}" for s, v in point.items() if not str(s).startswith("__"))


def _show(v: Any) -> str:
    if isinstance(v, Fraction):
        if v.denominator == 1 or len(str(v)) <= 24:
            return str(v)
        d = v.denominator
        while d % 10 == 0:
            d //= 10
        if d == 1:  # a terminating decimal: all of its digits
            digits = len(str(v.denominator)) - 1
            return f"{v.numerator / v.denominator:.{digits}f}" if digits < 17 else str(v)
        return f"{float(v):.17g}"
    if isinstance(v, tuple):
        return "".join(map(str, v)) if all(isinstance(x, int) for x in v) else repr(v)
    return str(v)


# ---- the check -------------------------------------------------------------------------------
def check_statement(
    statement: Any, domain: Domain, stop_early: bool = True, certify: bool = True
) -> StatementCheck:
    """Check ``statement`` over ``domain`` (see the module docstring); never raises.

    ``certify=False`` skips the certificates (the mutation tests only ask whether a mutant is
    refuted).

    Parameters
    ----------
    statement : sympy object
        The statement.
    domain : Domain
        Where it is checked.
    stop_early : bool
        Stop at the first false point.
    certify : bool
        Try the certificates (rational identity, interval branch and bound).

    Returns
    -------
    StatementCheck
        Its status (certified, tested, refuted, unevaluated or error) and its parts.

    Examples
    --------
    Over ``0 <= a, b <= 3``: ``(a - b)**2 >= 0`` everywhere, so ``a b <= (a**2 + b**2)/2``
    holds at all 16 points; ``a b <= a + b`` fails at ``a = 2, b = 3`` (``6 > 5``); a name the
    domain does not define is an error, not a verdict:

    >>> import sympy as sp
    >>> from prtheory.theory.domain import Domain, Integer
    >>> from prtheory.theory.statement import check_statement
    >>> a, b = sp.symbols("a b", integer=True, nonnegative=True)
    >>> grid = Domain(Integer(a, 0, 3), Integer(b, 0, 3))
    >>> check_statement(sp.Le(a * b, (a**2 + b**2) / 2), grid).status
    'certified'
    >>> check_statement(sp.And(sp.Ge(a + b, 0), sp.Le(a * b, a + b)), grid).summary()
    'REFUTED: false at a = 2, b = 3'
    >>> check_statement(sp.Le(a, sp.Symbol("c")), grid).summary()
    'cannot be checked: the statement uses c, which the domain neither declares as a variable nor defines'
    """
    t0 = time.perf_counter()
    originals = conjuncts(statement)
    try:
        parts = [_Part(prepare(p, domain), domain) for p in originals]
    except Exception as exc:  # an unbuildable statement is reported, not raised
        return StatementCheck("error", [], error=str(exc), seconds=time.perf_counter() - t0)
    counts = [{"T": 0, "F": 0, "C": 0, "U": 0} for _ in parts]
    modes: list[set[str]] = [set() for _ in parts]
    refuted = ["" for _ in parts]
    evaluated = unavailable = sampled = sampled_evaluated = 0
    for point, beyond in _points(domain):
        sampled += beyond
        try:
            ctx = _Point(
                point,
                {s: m for p in parts for s, m in p.meanings.items()},
                {f: m for p in parts for f, m in p.functions.items()},
            )
        except Unavailable:
            unavailable += 1
            continue
        evaluated += 1
        sampled_evaluated += beyond
        for k, part in enumerate(parts):
            if refuted[k] or (part.closed and sum(counts[k].values())):
                continue
            try:
                verdict, used = part.truth(ctx)
            except Unavailable:
                verdict, used = "U", set()
            counts[k][verdict] += 1
            modes[k] |= used
            if verdict == "F":
                why = f" ({ctx.undefined})" if ctx.undefined else ""
                where = f"at {show_point(point)}" if point else "(a closed statement)"
                refuted[k] = f"false {where}{why}"
        if stop_early and any(refuted):
            break
    results = []
    for k, (orig, part) in enumerate(zip(originals, parts, strict=True)):
        results.append(_conclude(orig, part, domain, counts[k], modes[k], refuted[k], certify))
    status = _overall([r.status for r in results])
    error = ""
    if status == "tested" and sampled and not sampled_evaluated:
        # a definition that declines every point beyond the exhaustive range would confine the
        # check to the range the claim chose: not a test over the domain
        status = "unevaluated"
        error = (
            f"none of the {sampled} sampled points beyond the exhaustive range could be evaluated "
            "(beyond the reach of a definition), so the statement was checked only up to the "
            "exhaustive size the claim chose"
        )
    return StatementCheck(
        status,
        results,
        points=evaluated,
        unavailable=unavailable,
        coverage=_coverage(domain, evaluated, unavailable),
        error=error,
        seconds=time.perf_counter() - t0,
    )


def _points(domain: Domain) -> Iterator[tuple[dict, bool]]:
    """Every point to check, and whether it lies beyond the exhaustive range (a sampled point
    that is not also one of the exhaustive points)."""
    if not domain.variables:
        yield {}, False
        return
    seen = set()
    for point in domain.exhaustive_points():
        seen.add(_key(point))
        yield point, False
    for point in domain.sampled_points():
        yield point, _key(point) not in seen


def _key(point: dict) -> Any:
    """A point as a hashable value (a point holding an unhashable object gets a key of its own)."""
    items = tuple(sorted(point.items(), key=lambda kv: str(kv[0])))
    try:
        hash(items)
    except TypeError:
        return object()
    return items


def _coverage(domain: Domain, evaluated: int, unavailable: int) -> str:
    text = domain.coverage_text()
    if unavailable:
        text += f"; {unavailable:,} points beyond the reach of a definition, not evaluated"
    return text


def _overall(statuses: list[str]) -> str:
    for s in ("refuted", "unevaluated"):
        if s in statuses:
            return s
    return "certified" if all(s == "certified" for s in statuses) else "tested"


_KIND = {EXACT: "exact", INTERVAL: "interval", NUMERIC: "numeric"}


def _conclude(
    orig: Any,
    part: _Part,
    domain: Domain,
    counts: dict[str, int],
    modes: set[str],
    refuted: str,
    certify: bool = True,
) -> PartCheck:
    text = str(orig)
    kinds = [_KIND[m] for m in (EXACT, INTERVAL, NUMERIC) if m in modes]
    if refuted:
        return PartCheck(text, "refuted", "a point of the domain", kinds, refuted)
    decided = counts["T"] + counts["C"]
    if decided == 0:
        return PartCheck(text, "unevaluated", "no point could be evaluated", kinds)
    how = _numeric_methods(part.expr)
    if part.closed:
        if counts["T"]:
            arith = ", ".join(kinds) or "exact"
            return PartCheck(
                text, "certified", f"a closed statement, decided ({arith})", kinds or ["exact"]
            )
        return PartCheck(
            text, "tested", f"a closed statement, consistent ({', '.join(kinds)})", kinds
        )
    where = f"{decided:,} points"
    if counts["U"]:
        where += f" ({counts['U']:,} more beyond reach)"
    if (domain.finite or not domain.variables) and counts["C"] == 0 and counts["U"] == 0:
        how = "every point of a finite domain decided" if domain.variables else "decided"
        arith = " and ".join(k for k in kinds) or "exact"
        return PartCheck(
            text,
            "certified",
            f"{how} ({arith})",
            ["enumeration" if domain.variables else kinds[0] if kinds else "exact"],
        )
    cert = _identity_certificate(part, domain) if certify else ""
    if cert:
        return PartCheck(text, "certified", f"{cert}; also true at {where}", ["exact", *kinds])
    bnb = _branch_and_bound(part, domain) if certify else ""
    if bnb.startswith("certified"):
        return PartCheck(text, "certified", f"{bnb}; also true at {where}", ["interval", *kinds])
    tested = f"no counterexample at {where} ({', '.join(kinds)}{how})"
    if bnb:
        tested += f"; {bnb}"
    return PartCheck(text, "tested", tested, kinds or ["exact"])


def _numeric_methods(e: Any) -> str:
    """How the numeric arithmetic evaluated the part's limits, integrals and series."""
    nodes = list(sp.preorder_traversal(e))
    out = []
    if any(isinstance(a, sp.Limit) for a in nodes):
        out.append(
            "each limit by the function inside it, at distances 10^-5 to 10^-40 from its point: "
            "its distance to the value must shrink below 10^-8"
        )
    if any(isinstance(a, sp.Integral) for a in nodes):
        out.append("each integral by mpmath quadrature at 30 digits")
    if any(isinstance(a, sp.Sum) and a.limits[0][2] == sp.oo for a in nodes):
        out.append("each series term by term, until a geometric tail bound is below 10^-25")
    return "".join(f"; {x}" for x in out)


# ---- certificate 1: a rational identity --------------------------------------------------------
def _rational(e: Any, variables: set[sp.Symbol]) -> bool:
    if isinstance(e, sp.Rational):
        return True
    if isinstance(e, sp.Symbol):
        return e in variables
    if isinstance(e, (sp.Add, sp.Mul)):
        return all(_rational(a, variables) for a in e.args)
    if isinstance(e, sp.Pow):
        return isinstance(e.exp, sp.Integer) and _rational(e.base, variables)
    return False


def _degrees(e: Any, x: sp.Symbol) -> tuple[int, int]:
    """Bounds on the degree in ``x`` of the numerator and denominator of the structural fraction
    of ``e`` (sums put over the product of their denominators, nothing cancelled)."""
    if isinstance(e, sp.Symbol):
        return (1, 0) if e == x else (0, 0)
    if isinstance(e, sp.Rational):
        return (0, 0)
    if isinstance(e, sp.Add):
        n, d = _degrees(e.args[0], x)
        for a in e.args[1:]:
            n2, d2 = _degrees(a, x)
            n, d = max(n + d2, n2 + d), d + d2
        return n, d
    if isinstance(e, sp.Mul):
        n = d = 0
        for a in e.args:
            n2, d2 = _degrees(a, x)
            n, d = n + n2, d + d2
        return n, d
    if isinstance(e, sp.Pow):
        n, d = _degrees(e.base, x)
        k = int(e.exp)
        return (k * n, k * d) if k >= 0 else (-k * d, -k * n)
    raise ValueError(f"not rational: {e}")


def _identity_certificate(part: _Part, domain: Domain) -> str:
    """A certificate that an equation between rational functions is an identity, or ''."""
    eq = part.expr
    if not isinstance(eq, sp.Equality) or part.meanings:
        return ""
    variables = {v.symbol for v in domain.variables if not hasattr(v, "enumerate")}
    d = eq.lhs - eq.rhs
    if not _rational(d, variables):
        return ""
    xs = sorted(_free(d), key=str)
    degrees = {x: _degrees(d, x)[0] for x in xs}
    size = 1
    for x in xs:
        size *= degrees[x] + 1
    if size > MAX_GRID:
        return ""
    f = compile_expr(d, EXACT)
    for attempt in range(6):
        values = {
            x: [Fraction(2 * j + 3 + attempt, 7 + k + attempt) for j in range(degrees[x] + 1)]
            for k, x in enumerate(xs)
        }
        try:
            ok = all(f(dict(pt)) == 0 for pt in _grid(values))
        except ZeroDivisionError:
            continue  # a grid point on a pole: another grid
        if not ok:
            return ""
        grid = " x ".join(f"{degrees[x] + 1}" for x in xs) or "1"
        return (
            f"certified: a rational identity, exact on a product grid of {grid} points (at "
            f"least one more per variable than the degree of its numerator in "
            f"{', '.join(map(str, xs)) or 'no variable'})"
        )
    return ""


def _grid(values: dict[Any, list[Fraction]]) -> Iterator[dict]:
    from prtheory.theory.domain import product_grid

    return product_grid(values)


# ---- certificate 2: interval branch and bound --------------------------------------------------
def _branch_and_bound(part: _Part, domain: Domain) -> str:
    """Certify the part over the domain's box by interval arithmetic, or say how far it got."""
    if not domain.continuous or part.meanings:
        return ""
    if any(
        isinstance(a, (sp.Sum, sp.Integral, sp.Limit, sp.harmonic, sp.polygamma))
        for a in sp.preorder_traversal(part.expr)
    ):
        return ""
    if isinstance(part.expr, sp.Equality):
        return ""  # an enclosure never proves an equation between reals
    variables: list[Real] = [v for v in domain.variables if isinstance(v, Real)]
    try:
        with mpmath.workprec(64):
            box, members = _box(variables, domain)
    except (Undecided, ValueError, ZeroDivisionError):
        return ""
    tree = _IntervalTree(part, members, [v.symbol for v in variables])
    queue = deque([(box, 0)])  # breadth first: coarse cells before fine ones
    cells = 0
    left: list[tuple] = []
    width0 = [hi - lo for lo, hi in box]
    with mpmath.workprec(64):
        while queue:
            cell, depth = queue.popleft()
            cells += 1
            if cells > MAX_CELLS:
                left.append(cell)
                left += [c for c, _ in queue]
                break
            verdict = tree.verdict(cell)
            if verdict in ("T", "out"):
                continue
            if verdict == "F":
                return ""  # false on a whole cell: the points will find it; no certificate
            if depth >= 40:
                left.append(cell)
                continue
            k = max(range(len(cell)), key=lambda j: (cell[j][1] - cell[j][0]) / width0[j])
            lo, hi = cell[k]
            mid = (lo + hi) / 2
            for half in ((lo, mid), (mid, hi)):
                queue.append(((*cell[:k], half, *cell[k + 1 :]), depth + 1))
    names = ", ".join(str(v.symbol) for v in variables)
    if not left:
        return f"certified by interval branch and bound over ({names}) in {cells:,} cells"
    volume = sum(_volume(c, width0) for c in left)
    return (
        f"interval branch and bound decided {100 * (1 - volume):.4g}% of the box of ({names}) "
        f"in {cells:,} cells; not certified near {_show_cell(left[0], variables)}"
    )


def _volume(cell: tuple, width0: list[Fraction]) -> float:
    v = 1.0
    for (lo, hi), w in zip(cell, width0, strict=True):
        v *= float((hi - lo) / w) if w else 1.0
    return v


def _show_cell(cell: tuple, variables: list[Real]) -> str:
    return ", ".join(
        f"{v.symbol} in [{_show(lo)}, {_show(hi)}]"
        for v, (lo, hi) in zip(variables, cell, strict=True)
    )


def _box(variables: list[Real], domain: Domain) -> tuple[tuple, list[Any]]:
    """The enclosing box (exact end points) and the membership conditions bounds and ``where``
    impose beyond it."""
    iv = mpmath.iv
    box: list[tuple[Fraction, Fraction]] = []
    members: list[Any] = list(domain.where)
    env: dict = {}
    for v in variables:
        lo_e, hi_e = sp.sympify(v.lo), sp.sympify(v.hi)
        lo_v = compile_expr(lo_e, INTERVAL)(env)
        hi_v = compile_expr(hi_e, INTERVAL)(env)
        lo_q = _end(lo_v.a)
        hi_q = _end(hi_v.b)
        box.append((lo_q, hi_q))
        if lo_e.free_symbols:
            members.append((sp.Lt if v.open_lo else sp.Le)(lo_e, v.symbol, evaluate=False))
        if hi_e.free_symbols:
            members.append((sp.Lt if v.open_hi else sp.Le)(v.symbol, hi_e, evaluate=False))
        env[v.symbol] = iv.mpf([lo_v.a, hi_v.b])
    return tuple(box), members


def _end(x: Any) -> Fraction:
    """An end point of an ``mpmath.iv`` enclosure, exactly (they are binary numbers)."""
    raw = x._mpi_[0]
    if raw in (mpmath.libmp.finf, mpmath.libmp.fninf, mpmath.libmp.fnan):
        raise ValueError("an unbounded end point")
    p, q = mpmath.libmp.to_rational(raw)
    return Fraction(int(p), int(q))


class _IntervalTree:
    """Three-valued evaluation of a part (and the membership conditions) on a cell."""

    def __init__(self, part: _Part, members: list[Any], symbols: list[sp.Symbol]) -> None:
        self.part = part
        self.members = members
        self.symbols = symbols
        self._fns: dict[Any, Compiled] = {}

    def _rel(self, rel: Any, env: dict) -> str:
        f = self._fns.get(rel)
        if f is None:
            f = self._fns[rel] = compile_expr(rel.lhs - rel.rhs, INTERVAL)
        try:
            d = f(env)
        except (Undecided, ZeroDivisionError, ValueError, NeedsNumeric, NotExact):
            return "C"
        return _interval_verdict(d, _OPS[type(rel)])

    def _truth(self, node: Any, env: dict) -> str:
        if node is sp.true:
            return "T"
        if node is sp.false:
            return "F"
        if isinstance(node, sp.core.relational.Relational):
            return self._rel(node, env)
        if isinstance(node, sp.Not):
            return {"T": "F", "F": "T"}.get(self._truth(node.args[0], env), "C")
        if isinstance(node, (sp.And, sp.Tuple)):
            return _kleene_and([self._truth(a, env) for a in node.args])
        if isinstance(node, sp.Or):
            return _kleene_or([self._truth(a, env) for a in node.args])
        if isinstance(node, sp.Implies):
            a, b = (self._truth(x, env) for x in node.args)
            return _kleene_or([{"T": "F", "F": "T"}.get(a, a), b])
        if isinstance(node, sp.Equivalent):
            values = [self._truth(a, env) for a in node.args]
            if all(v in "TF" for v in values):
                return "T" if len(set(values)) == 1 else "F"
            return "C"
        return "C"

    def verdict(self, cell: tuple) -> str:
        """T (true on the cell), F (false on all of it), out (no domain point), or C."""
        iv = mpmath.iv
        env = {
            v: iv.mpf(lo.numerator) / lo.denominator
            if lo == hi
            else iv.mpf(
                [
                    (iv.mpf(lo.numerator) / lo.denominator).a,
                    (iv.mpf(hi.numerator) / hi.denominator).b,
                ]
            )
            for v, (lo, hi) in zip(self.symbols, cell, strict=True)
        }
        inside = _kleene_and([self._truth(m, env) for m in self.members]) if self.members else "T"
        if inside == "F":
            return "out"
        verdict = self._truth(self.part.expr, env)
        if inside == "T":
            return verdict
        return "T" if verdict == "T" else "C"
