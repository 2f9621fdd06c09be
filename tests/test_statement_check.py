"""The statement check: a claim whose statement is not what its derivation established fails."""

from __future__ import annotations

import dataclasses

import pytest
import sympy as sp

from prtheory.theory import REGISTRY, all_claims
from prtheory.theory.mutants import statement_mutants
from prtheory.theory.registry import Proof, StepFailed, decide, run_claim, same_statement

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


def test_equivalent_mutants_are_set_aside():
    """A constant added inside a derivative says the same thing: not a mutant to kill."""
    stated = sp.Gt(sp.Derivative(x**2 + 1, x), 0)
    mutants = {m for _, m in statement_mutants(stated)}
    assert sp.Gt(sp.Derivative(x**2 + 2, x), 0) not in mutants  # the same derivative
    assert sp.Lt(sp.Derivative(x**2 + 1, x), 0) in mutants


def test_a_claim_that_establishes_nothing_fails():
    all_claims()
    c = REGISTRY["B1"]

    def proof(pf):
        c.proof(pf)
        pf.established = None  # as if the derivation had not ended with establish

    res = run_claim(dataclasses.replace(c, proof=proof))
    assert not res.passed
    assert "never established the statement" in res.error


@pytest.mark.parametrize("fact", [True, False, 1, "x > 0"])
def test_a_python_value_is_not_a_verified_fact(fact):
    """Proof.true refuses a verdict the author computed: only sympy objects sympy decides."""
    with pytest.raises(TypeError, match="sympy relation or boolean"):
        Proof().true("a fact", fact, "assertion")


def test_facts_are_decided_by_sympy():
    pos = sp.Symbol("t", positive=True)
    assert decide(sp.Gt(pos / (1 + pos), 0, evaluate=False))[0]
    assert not decide(sp.Gt(x, 0, evaluate=False))[0]  # x has no sign
    assert decide(sp.Eq((x**2 - 1) / (x - 1), x + 1, evaluate=False))[0]
    with pytest.raises(StepFailed):
        Proof().true("x is positive", sp.Gt(x, 0, evaluate=False), "wishful")


def test_solved_compares_the_solution_set():
    pf = Proof()
    pf.solved("y^2 = y", sp.Eq(y**2, y), y, [0, 1])
    with pytest.raises(StepFailed):
        pf.solved("y^2 = y", sp.Eq(y**2, y), y, [1])


def test_any_prefix_of_letters_orders_after_the_documents():
    from prtheory.theory import _key

    ids = ["Y1", "X3", "B10", "AB2", "B2", "Y10", "Y2"]
    assert sorted(ids, key=_key) == ["B2", "B10", "X3", "AB2", "Y1", "Y2", "Y10"]
    with pytest.raises(ValueError, match="letters followed by digits"):
        _key("12B")
