"""The statement check: a claim whose statement is not what its derivation established fails."""

from __future__ import annotations

import dataclasses

import pytest
import sympy as sp

from prtheory.theory import REGISTRY, all_claims, run_claims
from prtheory.theory.mutants import kill_rate, statement_mutants
from prtheory.theory.registry import run_claim, same_statement

x, y = sp.symbols("x y")


def test_same_statement_decides_by_sympy():
    assert same_statement(sp.Eq(y, (x**2 - 1) / (x - 1) - 1), sp.Eq(y, x))[0]
    assert same_statement(sp.Ge(x, y), sp.Le(y, x))[0]
    assert not same_statement(sp.Ge(x, y), sp.Le(x, y))[0]
    assert not same_statement(sp.Eq(x, sp.log(y)), sp.Eq(x, sp.log(1 - y)))[0]
    assert not same_statement(sp.Symbol("anything"), sp.Eq(y, x))[0]


def test_mutants_cover_numbers_relations_and_symbols():
    kinds = {what for what, _ in statement_mutants(sp.Ge(x, 2 * y))}
    assert {">= flipped", "2 -> 3", "x -> y", "y -> x"} <= kinds


@pytest.mark.parametrize("cid", ["B1"])
def test_a_mutated_statement_fails_the_claim(cid):
    """Through ``run_claim`` itself: the unchanged claim passes, every mutant fails."""
    all_claims()
    c = REGISTRY[cid]
    assert run_claim(c).passed
    for what, mutant in statement_mutants(c.statement()):
        res = run_claim(dataclasses.replace(c, statement=lambda m=mutant: m))
        assert not res.passed, f"{cid}: mutant {what} passed"
        assert "statement is not what the derivation established" in res.error


@pytest.mark.slow
def test_every_checked_statement_kills_every_mutant():
    results = [r for r in run_claims() if r.statement_checked]
    killed, total, survivors = kill_rate(results)
    assert survivors == []
    assert killed == total > 0


def test_any_prefix_of_letters_orders_after_the_documents():
    from prtheory.theory import _key

    ids = ["Y1", "X3", "B10", "AB2", "B2", "Y10", "Y2"]
    assert sorted(ids, key=_key) == ["B2", "B10", "X3", "AB2", "Y1", "Y2", "Y10"]
    with pytest.raises(ValueError, match="letters followed by digits"):
        _key("12B")
