"""Mutants of a claim's statement: the adversary of the statement check (:func:`same_statement`).

Every claim whose derivation ends with :meth:`Proof.establish` must reject a statement that says
something else. :func:`statement_mutants` builds such statements from the expression tree:

* every number (an integer, a rational, a float) in turn replaced by itself plus one;
* every relation in turn flipped (``<=`` to ``>=``, ``<`` to ``>``, ``=`` to ``!=``, ...);
* every free symbol in turn replaced by another free symbol of the statement (or a fresh one).

Mutants are kept when they differ structurally from the original; the kill rate counts a mutant
as surviving when the statement check accepts it.
"""

from __future__ import annotations

from collections.abc import Iterator

import sympy as sp

from prtheory.theory.registry import ClaimResult, same_statement

__all__ = ["kill_rate", "statement_mutants"]

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


def statement_mutants(statement: sp.Basic) -> list[tuple[str, sp.Basic]]:
    """The distinct mutants of ``statement`` (structurally different from it)."""
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


def kill_rate(results: list[ClaimResult]) -> tuple[int, int, list[str]]:
    """Over the claims whose statement was established: (mutants rejected, mutants, survivors).

    A mutant is rejected when :func:`same_statement` refuses it against the conclusion the
    derivation established -- the comparison :func:`run_claim` makes for the claim's statement.
    """
    killed = total = 0
    survivors = []
    for res in results:
        if not res.statement_checked:
            continue
        if res.established is None:
            raise ValueError(
                f"{res.claim.id}: the established conclusion is not available (a result from a "
                "worker process); run the claims in this process to compute the kill rate"
            )
        for what, mutant in statement_mutants(res.claim.statement()):
            total += 1
            if same_statement(mutant, res.established)[0]:
                survivors.append(f"{res.claim.id}: {what}")
            else:
                killed += 1
    return killed, total, survivors
