"""Mutants of a claim's statement: the adversary of the statement check (:func:`same_statement`).

Every claim whose derivation ends with :meth:`Proof.establish` must reject a statement that says
something else. :func:`statement_mutants` builds such statements from the expression tree:

* every number (an integer, a rational, a float) in turn replaced by itself plus one;
* every relation in turn flipped (``<=`` to ``>=``, ``<`` to ``>``, ``=`` to ``!=``, ...);
* every free symbol in turn replaced by another free symbol of the statement (or a fresh one).

Mutants are kept when they differ structurally from the original *and* say something else:
a mutant that :func:`same_statement` finds equivalent to the original (a constant added inside a
derivative, a change inside a limit that does not move its value) is an *equivalent mutant*,
which no check could or should reject; it is counted apart. The kill rate counts a mutant as
surviving when the statement check accepts it against the derivation's conclusion.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import sympy as sp

from prtheory.theory.registry import ClaimResult, same_statement

__all__ = ["KillRate", "kill_rate", "statement_mutants"]

_FLIP = {
    sp.GreaterThan: sp.LessThan,
    sp.LessThan: sp.GreaterThan,
    sp.StrictGreaterThan: sp.StrictLessThan,
    sp.StrictLessThan: sp.StrictGreaterThan,
    sp.Equality: sp.Unequality,
    sp.Unequality: sp.Equality,
}


def _raw_mutants(expr: sp.Basic) -> Iterator[tuple[str, sp.Basic]]:
    """Every single-site mutation of ``expr`` (unevaluated, so a mutant is not simplified away)."""
    if isinstance(expr, sp.Number) and expr.is_finite:
        yield f"{expr} -> {expr + 1}", expr + 1
    flip = _FLIP.get(type(expr))
    if flip is not None:
        yield f"{expr.rel_op} flipped", flip(*expr.args, evaluate=False)
    for k, arg in enumerate(expr.args):
        for what, new in _raw_mutants(arg):
            args = list(expr.args)
            args[k] = new
            try:
                yield what, expr.func(*args, evaluate=False)
            except TypeError:  # containers that take no ``evaluate``
                yield what, expr.func(*args)


def _all_mutants(statement: sp.Basic) -> list[tuple[str, sp.Basic]]:
    """The distinct single-site mutants of ``statement`` (structurally different from it)."""
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


def _equivalent(mutant: sp.Basic, statement: sp.Basic) -> bool:
    try:
        return same_statement(mutant, statement)[0]
    except Exception:  # a mutant sympy cannot compare is not shown equivalent
        return False


def statement_mutants(statement: sp.Basic) -> list[tuple[str, sp.Basic]]:
    """The distinct mutants of ``statement`` that say something else (equivalent ones dropped)."""
    statement = sp.sympify(statement)
    return [(w, m) for w, m in _all_mutants(statement) if not _equivalent(m, statement)]


class KillRate(NamedTuple):
    killed: int
    total: int  # mutants that say something other than the statement
    survivors: list[str]  # "ID: mutation" accepted by the statement check
    equivalent: int  # mutants sympy finds equivalent to the statement (not counted in total)


def kill_rate(results: list[ClaimResult]) -> KillRate:
    """Over the claims whose statement was established: mutants rejected, mutants, survivors,
    and the equivalent mutants set aside.

    A mutant is rejected when :func:`same_statement` refuses it against the conclusion the
    derivation established -- the comparison :func:`run_claim` makes for the claim's statement.
    """
    killed = total = equivalent = 0
    survivors: list[str] = []
    for res in results:
        if not res.statement_checked:
            continue
        if res.mutation is None:
            res.mutation = _one(res)
        k, t, s, e = res.mutation
        killed, total, equivalent = killed + k, total + t, equivalent + e
        survivors += s
    return KillRate(killed, total, survivors, equivalent)


def _one(res: ClaimResult) -> KillRate:
    """The kill rate of one claim's statement mutants (computed once per result)."""
    if res.established is None:
        raise ValueError(
            f"{res.claim.id}: the established conclusion is not available (a result from a "
            "worker process); run the claims in this process to compute the kill rate"
        )
    killed = total = equivalent = 0
    survivors = []
    statement = sp.sympify(res.claim.statement())
    for what, mutant in _all_mutants(statement):
        if _equivalent(mutant, statement):
            equivalent += 1
            continue
        total += 1
        if same_statement(mutant, res.established)[0]:
            survivors.append(f"{res.claim.id}: {what}")
        else:
            killed += 1
    return KillRate(killed, total, survivors, equivalent)
