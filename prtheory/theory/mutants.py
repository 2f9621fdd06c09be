"""Mutants of a claim's statement: the adversary of the statement check and of the final inference.

:func:`statement_mutants` builds statements that say something else, one change each:

* every number (an integer, a rational, a float) in turn replaced by itself plus one;
* every relation in turn flipped (``<=`` to ``>=``, ``<`` to ``>``, ``=`` to ``!=``, ...);
* every relation in turn with its right side shifted by 1/7;
* every free symbol in turn replaced by another free symbol of the statement (or a fresh one).

A mutant is **equivalent** (says what the statement says, so nothing should reject it) only
when it agrees with the statement at every one of many numeric points (:func:`agree`): the
two have the same logical shape, and each pair of corresponding sides has the same value at
random points; a limit, integral, sum, product or derivative is compared by the function
inside it (its values at random points of every variable, its bounds and point), never by its
value. This test shares nothing with :func:`~prtheory.theory.inference.same_statement`, which
is under test.

Two attacks, for every claim whose derivation established its statement (:func:`kill_rate`):

* **statement mutant** -- the statement changes, the derivation does not: the mutant must fail
  (the statement is not what was established, or the statement check refutes it);
* **co-mutant** -- the statement and the conclusion handed to ``Proof.establish`` change
  together, as when an author misremembers a formula and writes it in both places: the mutant
  must fail because the final inference no longer follows from the cited steps, or because the
  statement check refutes it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import mpmath
import sympy as sp

from prtheory.theory.evaluate import NUMERIC, compile_expr, remember
from prtheory.theory.inference import combine, same_statement
from prtheory.theory.registry import ClaimResult
from prtheory.theory.statement import check_statement

__all__ = ["KillRate", "agree", "kill_rate", "mutant_fate", "statement_mutants"]

#: Each relation and its flip (the opposite inequality; = and != swapped).
FLIP = {
    sp.GreaterThan: sp.LessThan,
    sp.LessThan: sp.GreaterThan,
    sp.StrictGreaterThan: sp.StrictLessThan,
    sp.StrictLessThan: sp.StrictGreaterThan,
    sp.Equality: sp.Unequality,
    sp.Unequality: sp.Equality,
}
SHIFT = sp.Rational(1, 7)


def _raw_mutants(expr: sp.Basic) -> Iterator[tuple[str, sp.Basic]]:
    """Every single-site mutation of ``expr`` (unevaluated, so a mutant is not simplified away)."""
    if isinstance(expr, sp.Number) and expr.is_finite:
        yield f"{expr} -> {expr + 1}", expr + 1
    flip = FLIP.get(type(expr))
    if flip is not None:
        yield f"{expr.rel_op} flipped", flip(*expr.args, evaluate=False)
        lhs, rhs = expr.args
        yield (
            f"{expr.rel_op}: right side + 1/7",
            type(expr)(lhs, sp.Add(rhs, SHIFT, evaluate=False), evaluate=False),
        )
    for k, arg in enumerate(expr.args):
        for what, new in _raw_mutants(arg):
            args = list(expr.args)
            args[k] = new
            try:
                yield what, expr.func(*args, evaluate=False)
            except TypeError:  # containers that take no ``evaluate``
                yield what, expr.func(*args)


def statement_mutants(statement: Any) -> list[tuple[str, sp.Basic]]:
    """The distinct single-site mutants of ``statement`` (structurally different from it),
    equivalent ones included (see :func:`agree`).

    Parameters
    ----------
    statement : sympy object
        The statement.

    Returns
    -------
    list of (str, sympy object)
        Each mutant with what changed.

    Examples
    --------
    ``x <= 1``: the relation flipped, its right side shifted by 1/7, the number 1 made 2, and
    ``x`` renamed (there is no other symbol):

    >>> import sympy as sp
    >>> from prtheory.theory.mutants import statement_mutants
    >>> x = sp.Symbol("x", positive=True)
    >>> [what for what, _ in statement_mutants(sp.Le(x, 1))]
    ['<= flipped', '<=: right side + 1/7', '1 -> 2', 'x -> z_{mutant}']
    """
    statement = sp.sympify(statement)
    found: list[tuple[str, sp.Basic]] = list(_raw_mutants(statement))
    symbols = sorted(statement.free_symbols, key=sp.default_sort_key)
    for a in symbols:
        b = next((s for s in symbols if s != a), sp.Symbol("z_{mutant}"))
        found.append((f"{a} -> {b}", statement.xreplace({a: b})))
    kept, seen = [], set()
    for what, m in found:
        if m not in seen and m != statement:
            seen.add(m)
            kept.append((what, m))
    return kept


# ---- numeric agreement (the non-circular equivalence) ----------------------------------------
POINTS = 12
_OPERATORS = (sp.Limit, sp.Integral, sp.Sum, sp.Product, sp.Derivative)


def _sample(symbols: list[sp.Symbol], k: int, seed: int) -> dict:
    """Point k: for each symbol a rational in (0, 1) (the first half of the points) or an
    integer 2..9 (the rest), fixed by the symbol's name, ``k`` and ``seed``."""
    out = {}
    for s in symbols:
        rng = random.Random(f"{seed}/{k}/{s.name}")
        out[s] = (
            sp.Rational(rng.randint(1, 996), 997)
            if k < POINTS // 2
            else sp.Integer(rng.randint(2, 9))
        )
    return out


_VALUES: dict[tuple, list[Any]] = {}


def _values(expr: Any, points: list[dict]) -> list[Any]:
    """``expr`` at each point with mpmath at 30 digits (None where it is undefined);
    remembered, since the mutants of one statement share most of their sides."""
    key = (expr, tuple(tuple(sorted((str(k), str(v)) for k, v in pt.items())) for pt in points))
    return remember(_VALUES, key, lambda: _evaluated(expr, points))


def _evaluated(expr: Any, points: list[dict]) -> list[Any]:
    f = compile_expr(expr, NUMERIC)
    out = []
    with mpmath.workdps(30):
        for pt in points:
            env = {s: mpmath.mpf(v.p) / v.q for s, v in pt.items()}
            env["__exact__"] = {s: _fraction(v) for s, v in pt.items()}
            try:
                v = f(env)
                out.append(v if mpmath.isfinite(v) else None)
            except Exception:  # undefined there (a pole, log of a negative, ...)
                out.append(None)
    return out


def _fraction(v: sp.Rational) -> Any:
    from fractions import Fraction

    return Fraction(int(v.p), int(v.q))


def _close(a: list[Any], b: list[Any]) -> bool:
    """The same values wherever either is defined (undefined at the same points)."""
    seen = False
    for x, y in zip(a, b, strict=True):
        if (x is None) != (y is None):
            return False
        if x is None:
            continue
        seen = True
        if abs(x - y) > mpmath.mpf(10) ** -15 * max(1, abs(x), abs(y)):
            return False
    return seen


class _Fingerprints:
    """Placeholders for operators, equal for operators whose inner function, variables and
    bounds agree at random points (values never enter)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.known: list[tuple[Any, sp.Symbol]] = []

    def _prints(self, op: Any) -> tuple:
        inner = op.args[0]
        bound = [
            lim[0] if isinstance(lim, (tuple, sp.Tuple)) else lim
            for lim in (op.args[1:] if not isinstance(op, sp.Limit) else [op.args[1]])
        ]
        symbols = sorted(inner.free_symbols | set(bound), key=str)
        pts = [_sample(symbols, k, self.seed) for k in range(POINTS)]
        rest = tuple(str(a) for a in op.args[1:]) if isinstance(op, sp.Limit) else ()
        limits = []
        if isinstance(op, (sp.Integral, sp.Sum, sp.Product)):
            for lim in op.limits:
                limits.append(tuple(_values(e, pts) for e in lim[1:]))
        return (
            type(op),
            rest,
            _values(inner, pts),
            limits,
            op.variable_count if isinstance(op, sp.Derivative) else (),
        )

    def symbol(self, op: Any) -> sp.Symbol:
        fp = self._prints(op)
        for other, sym in self.known:
            if (
                other[0] is fp[0]
                and other[1] == fp[1]
                and other[4] == fp[4]
                and _close(other[2], fp[2])
                and all(
                    len(x) == len(y) and all(_close(u, v) for u, v in zip(x, y, strict=True))
                    for x, y in zip(other[3], fp[3], strict=True)
                )
                and len(other[3]) == len(fp[3])
            ):
                return sym
        sym = sp.Symbol(f"op_{len(self.known)}")
        self.known.append((fp, sym))
        return sym

    def freeze(self, e: Any) -> Any:
        if isinstance(e, _OPERATORS):
            return self.symbol(e)
        if not getattr(e, "args", ()):
            return e
        args = [self.freeze(a) for a in e.args]
        try:
            return e.func(*args, evaluate=False)
        except TypeError:
            return e.func(*args)


def agree(a: Any, b: Any, seed: int = 1857) -> bool:
    """``a`` and ``b`` say the same thing at every one of :data:`POINTS` numeric points: the same
    logical shape, and corresponding sides with the same values (operators compared by the
    function inside them).

    Parameters
    ----------
    a, b : sympy object
        The two statements.
    seed : int
        Fixes the points.

    Returns
    -------
    bool
        Whether they agree at every point.

    Examples
    --------
    ``x <= 1`` is ``1 >= x``; ``x (x + 2) + 1 = (x + 1)**2`` is ``x**2 + 2 x + 1 = (x + 1)**2``
    (the left sides are equal polynomials); ``x <= 2`` is another statement:

    >>> import sympy as sp
    >>> from prtheory.theory.mutants import agree
    >>> x = sp.Symbol("x", positive=True)
    >>> agree(sp.Le(x, 1), sp.Ge(1, x)), agree(sp.Le(x, 1), sp.Le(x, 2))
    (True, False)
    >>> agree(sp.Eq(x * (x + 2) + 1, (x + 1) ** 2), sp.Eq(x**2 + 2 * x + 1, (x + 1) ** 2))
    True
    """
    fps = _Fingerprints(seed)
    fa, fb = fps.freeze(sp.sympify(a)), fps.freeze(sp.sympify(b))
    symbols = sorted((fa.free_symbols | fb.free_symbols), key=str)
    points = [_sample(symbols, k, seed + 1) for k in range(POINTS)]
    return _agree(fa, fb, points)


def _agree(s: Any, c: Any, points: list[dict]) -> bool:
    if isinstance(s, sp.core.relational.Relational) and isinstance(
        c, sp.core.relational.Relational
    ):
        s = s.reversed if s.rel_op in (">", ">=") else s
        c = c.reversed if c.rel_op in (">", ">=") else c
        if s.rel_op != c.rel_op:
            return False
        ds, dc = _values(s.lhs - s.rhs, points), _values(c.lhs - c.rhs, points)
        if _close(ds, dc):
            return True
        if s.rel_op in ("==", "!="):
            return _close(ds, [None if v is None else -v for v in dc])
        return False
    if type(s) is not type(c):
        return False
    if isinstance(s, (sp.And, sp.Or, sp.Equivalent)):
        if len(s.args) != len(c.args):
            return False
        unused = list(c.args)
        for x in s.args:
            match = next((y for y in unused if _agree(x, y, points)), None)
            if match is None:
                return False
            unused.remove(match)
        return True
    if isinstance(s, (sp.Tuple, sp.Not, sp.Implies)):
        return len(s.args) == len(c.args) and all(
            _agree(x, y, points) for x, y in zip(s.args, c.args, strict=True)
        )
    if isinstance(s, sp.Expr) and isinstance(c, sp.Expr):
        return _close(_values(s, points), _values(c, points)) or s == c
    return bool(s == c)


# ---- the two attacks ---------------------------------------------------------------------------
@dataclass
class Fate:
    """What happened to one mutant of one claim."""

    what: str
    equivalent: bool
    refuted: bool  # the statement check found a point where the mutant is false
    mismatch: bool  # the statement is not the established conclusion (statement mutant)
    inference_fails: bool  # the final inference does not give the mutant (co-mutant)
    derived: bool = True  # the claim has a derivation (else it is certified without one)

    @property
    def statement_killed(self) -> bool:
        return self.mismatch or self.refuted

    @property
    def co_killed(self) -> bool:
        return self.inference_fails or self.refuted


def mutant_fate(res: ClaimResult, what: str, mutant: Any) -> Fate:
    """Run both attacks with one mutant of ``res``'s statement (see the module docstring).

    Parameters
    ----------
    res : ClaimResult
        A claim run in this process (its established conclusion is needed).
    what : str
        What the mutant changed.
    mutant : sympy object
        The mutated statement.

    Returns
    -------
    Fate
        Whether it is equivalent, refuted, not the established conclusion, and whether the
        final inference gives it.

    Examples
    --------
    ``x (x + 2) + 1 != (x + 1)**2`` is false at every point (the sides are equal), is not what
    was established, and does not follow from the identity:

    >>> import sympy as sp
    >>> from prtheory.theory.domain import Domain, Real
    >>> from prtheory.theory.registry import Claim, run_claim
    >>> x = sp.Symbol("x", positive=True)
    >>> square = sp.Eq(x * (x + 2) + 1, (x + 1) ** 2)
    >>> def derivation(pf):
    ...     pf.equal("expand", x * (x + 2) + 1, (x + 1) ** 2)
    ...     pf.establish("so", square, [1])
    >>> result = run_claim(Claim(
    ...     "Y9", "my notes", "eq. 1", "completing the square", lambda: square, ("x > 0",),
    ...     "holds", derivation, domain=Domain(Real(x, 0, 1, open_lo=True)),
    ... ))
    >>> from prtheory.theory.mutants import mutant_fate
    >>> fate = mutant_fate(result, "== flipped", sp.Ne(x * (x + 2) + 1, (x + 1) ** 2))
    >>> fate.refuted, fate.mismatch, fate.inference_fails
    (True, True, True)
    """
    statement = sp.sympify(res.claim.statement())
    if agree(mutant, statement):
        return Fate(what, True, False, False, False)
    domain = res.claim.domain
    if not res.final_step:  # certified without a derivation: the mutant must not be certified
        sc = check_statement(mutant, domain) if domain is not None else None
        fails = sc is None or sc.status != "certified"
        return Fate(what, False, fails, fails, fails, derived=False)
    sc = check_statement(mutant, domain, certify=False) if domain is not None else None
    refuted = sc is not None and sc.status in ("refuted", "error", "unevaluated")
    try:
        mismatch = not same_statement(mutant, res.established)[0]
    except Exception:  # sympy could not compare them: not the same statement
        mismatch = True
    expand = domain.expand if domain is not None else None
    inference_fails = combine(mutant, res.final_facts or [], expand) is None
    return Fate(what, False, refuted, mismatch, inference_fails)


@dataclass
class KillRate:
    """Mutants of every claim's statement and what killed them. ``total`` and the counts are
    over claims with a derivation; the mutants of claims certified without one (only a false
    mutant can fail there) are counted apart, in ``certified_*``.

    Examples
    --------
    >>> from prtheory.theory.mutants import KillRate
    >>> rate = KillRate(
    ...     statement_killed=5, co_killed=6, total=6, statement_survivors=["Y9: 1 -> 2"]
    ... )
    >>> rate.survivors
    ['Y9: 1 -> 2']
    """

    statement_killed: int = 0
    co_killed: int = 0
    total: int = 0  # non-equivalent mutants (each is tried as both attacks)
    equivalent: int = 0
    by_inference: int = 0  # co-mutants whose final inference failed
    by_check: int = 0  # mutants the statement check refuted
    statement_survivors: list[str] = field(default_factory=list)
    co_survivors: list[str] = field(default_factory=list)
    certified_total: int = 0
    certified_killed: int = 0
    certified_survivors: list[str] = field(default_factory=list)

    @property
    def survivors(self) -> list[str]:
        return self.statement_survivors + self.co_survivors

    def add(self, cid: str, fate: Fate) -> None:
        if fate.equivalent:
            self.equivalent += 1
            return
        if not fate.derived:
            self.certified_total += 1
            self.certified_killed += fate.refuted
            if not fate.refuted:
                self.certified_survivors.append(f"{cid}: {fate.what}")
            return
        self.total += 1
        self.statement_killed += fate.statement_killed
        self.co_killed += fate.co_killed
        self.by_inference += fate.inference_fails
        self.by_check += fate.refuted
        if not fate.statement_killed:
            self.statement_survivors.append(f"{cid}: {fate.what}")
        if not fate.co_killed:
            self.co_survivors.append(f"{cid}: {fate.what}")

    def merge(self, other: KillRate) -> None:
        for name in (
            "statement_killed",
            "co_killed",
            "total",
            "equivalent",
            "by_inference",
            "by_check",
            "certified_total",
            "certified_killed",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.statement_survivors += other.statement_survivors
        self.co_survivors += other.co_survivors
        self.certified_survivors += other.certified_survivors


def kill_rate(results: list[ClaimResult]) -> KillRate:
    """Both attacks with every mutant of every claim (for a claim certified without a
    derivation, both are the statement mutant, which must not be certified).

    Needs the established conclusions, which only a run in this process keeps (a result from a
    worker process raises ``ValueError``).

    Parameters
    ----------
    results : list of ClaimResult
        Claims run in this process.

    Returns
    -------
    KillRate
        The counts over every mutant of every claim (cached in each result).

    Raises
    ------
    ValueError
        A result without its established conclusion (run in a worker process).

    Examples
    --------
    ``x (x + 2) + 1 = (x + 1)**2`` has 7 mutants: renaming ``x`` (to ``z``) gives the same
    identity (equivalent); the other 6 (``!=``, a side shifted by 1/7, ``1 -> 2`` twice,
    ``2 -> 3`` twice) make the sides differ somewhere in ``(0, 1]``, and every one is killed:

    >>> import sympy as sp
    >>> from prtheory.theory.domain import Domain, Real
    >>> from prtheory.theory.registry import Claim, run_claim
    >>> x = sp.Symbol("x", positive=True)
    >>> square = sp.Eq(x * (x + 2) + 1, (x + 1) ** 2)
    >>> def derivation(pf):
    ...     pf.equal("expand", x * (x + 2) + 1, (x + 1) ** 2)
    ...     pf.establish("so", square, [1])
    >>> result = run_claim(Claim(
    ...     "Y9", "my notes", "eq. 1", "completing the square", lambda: square, ("x > 0",),
    ...     "holds", derivation, domain=Domain(Real(x, 0, 1, open_lo=True)),
    ... ))
    >>> from prtheory.theory.mutants import kill_rate
    >>> rate = kill_rate([result])
    >>> rate.equivalent, rate.total, rate.statement_killed, rate.co_killed, rate.survivors
    (1, 6, 6, 6, [])
    """
    total = KillRate()
    for res in results:
        if res.mutation is None:
            if res.final_step and (res.established is None or res.final_facts is None):
                raise ValueError(
                    f"{res.claim.id}: the established conclusion is not available (a result from a "
                    "worker process); run the claims in this process to compute the kill rate"
                )
            one = KillRate()
            for what, mutant in statement_mutants(res.claim.statement()):
                one.add(res.claim.id, mutant_fate(res, what, mutant))
            res.mutation = one
        total.merge(res.mutation)
    return total
