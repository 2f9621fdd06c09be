"""The statement check: the registry evaluates a claim's statement itself over its domain, and a
statement that is not what the derivation established fails (prtheory.theory.statement,
prtheory.theory.inference, prtheory.theory.mutants)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
import sympy as sp

from prtheory.theory import REGISTRY, all_claims
from prtheory.theory.domain import Domain, Integer, Meaning, Real
from prtheory.theory.inference import decide, same_statement
from prtheory.theory.mutants import agree, statement_mutants
from prtheory.theory.registry import Proof, StepFailed, run_claim
from prtheory.theory.statement import check_statement

x, y = sp.symbols("x y")
t = sp.Symbol("t", real=True)
n, m = sp.symbols("n m", integer=True, positive=True)


def test_same_statement_decides_by_sympy():
    assert same_statement(sp.Eq(y, (x**2 - 1) / (x - 1) - 1), sp.Eq(y, x))[0]
    assert same_statement(sp.Ge(x, y), sp.Le(y, x))[0]
    assert not same_statement(sp.Ge(x, y), sp.Le(x, y))[0]
    assert not same_statement(sp.Eq(x, sp.log(y)), sp.Eq(x, sp.log(1 - y)))[0]
    assert not same_statement(sp.Symbol("anything"), sp.Eq(y, x))[0]


def test_limits_integrals_and_derivatives_are_compared_as_expressions():
    """Issue: lim_{pi -> 1-} 1 = 1 passed for lim AUCPR_min(pi) = 1 because limits were compared
    by value. They are the same statement only when the function inside is the same."""
    p = sp.Symbol("pi", positive=True)
    m_ = 1 + (1 - p) * sp.log(1 - p) / p
    stated = sp.Eq(sp.Limit(m_, p, 1, "-"), 1, evaluate=False)
    for other in (sp.Limit(1, p, 1, "-"), sp.Limit(p**2 - p + 1, p, 1, "-")):
        assert other.doit() == 1  # the same value ...
        assert not same_statement(sp.Eq(other, 1, evaluate=False), stated)[0]  # ... not the same
    assert same_statement(stated, sp.Eq(1, sp.Limit(m_, p, 1, "-"), evaluate=False))[0]
    r = sp.Symbol("r", positive=True)
    area = sp.Eq(sp.Integral(r * p, (r, 0, 1)), p / 2, evaluate=False)
    shifted = sp.Eq(sp.Integral(r * p + r - sp.Rational(1, 2), (r, 0, 1)), p / 2, evaluate=False)
    assert not same_statement(shifted, area)[0]  # same integral value, another integrand
    d = sp.Gt(sp.Derivative(x**2 + 1, x), 0, evaluate=False)
    assert not same_statement(sp.Gt(sp.Derivative(x**2 + 2, x), 0, evaluate=False), d)[0]


def test_mutants_cover_numbers_relations_shifts_and_symbols():
    kinds = {what for what, _ in statement_mutants(sp.Ge(x, 2 * y))}
    assert {">= flipped", ">=: right side + 1/7", "2 -> 3", "x -> y", "y -> x"} <= kinds


def test_equivalence_is_agreement_at_numeric_points_not_the_comparison_under_test():
    p = sp.Symbol("pi", positive=True)
    m_ = 1 + (1 - p) * sp.log(1 - p) / p
    stated = sp.Eq(sp.Limit(m_, p, 1, "-"), 1, evaluate=False)
    assert not agree(sp.Eq(sp.Limit(1, p, 1, "-"), 1, evaluate=False), stated)
    assert not agree(sp.Eq(sp.Limit(p**2 - p + 1, p, 1, "-"), 1, evaluate=False), stated)
    assert agree(sp.Eq(1, sp.Limit(m_, p, 1, "-"), evaluate=False), stated)  # sides swapped
    assert agree(sp.Ge(x, y), sp.Le(y, x))
    assert agree(sp.Eq(x * (x + 1), y), sp.Eq(x**2 + x, y))
    assert not agree(sp.Ge(x, y), sp.Gt(x, y))


# ---- the registry evaluates the statement itself ---------------------------------------------
def test_a_false_statement_is_refuted_at_a_point_of_its_domain():
    dom = Domain(Integer(n, 1), Integer(m, 0), exhaustive=6)
    res = check_statement(sp.Ge(n**2, n + m), dom)  # false at n = 1, m = 1
    assert res.status == "refuted"
    assert "n = 1, m = 1" in res.counterexample


def test_beyond_the_exhaustive_size_small_values_and_powers_of_two_are_sampled():
    # true for n <= 40, false from n = 41 on: the exhaustive range (n <= 8) misses it
    dom = Domain(Integer(n, 1), exhaustive=8, samples=60)
    res = check_statement(sp.Le(n, 40), dom)
    assert res.status == "refuted"
    # and a statement false only at large n (> 100000) is found among the large points
    res = check_statement(sp.Le(n, 100000), dom)
    assert res.status == "refuted"


def test_a_rational_identity_is_certified_and_a_wrong_one_refuted():
    tp, fp = sp.symbols("TP FP", positive=True)
    p = sp.Symbol("p")
    dom = Domain(Integer(tp, 1), Integer(fp, 0), define={p: tp / (tp + fp)}, exhaustive=6)
    res = check_statement(sp.Eq(1 / p - 1, fp / tp), dom)
    assert res.status == "certified"
    assert "rational identity" in res.parts[0].method
    wrong = check_statement(sp.Eq(1 / p - 1, fp / tp + sp.Rational(1, 7)), dom)
    assert wrong.status == "refuted"


def test_an_inequality_over_a_box_is_certified_by_branch_and_bound():
    dom = Domain(Real(t, 0, 1), samples=16)
    res = check_statement(sp.Gt(t**2 - t + 1, sp.Rational(1, 2)), dom)  # min 3/4 at t = 1/2
    assert res.status == "certified"
    assert "branch and bound" in res.parts[0].method
    touching = check_statement(sp.Ge(t**2 - t + sp.Rational(1, 4), 0), dom)  # = 0 at t = 1/2
    assert touching.status == "tested"  # no enclosure decides it near the tie


def test_a_limit_is_checked_by_the_function_inside_it():
    p = sp.Symbol("pi", positive=True)
    m_ = 1 + (1 - p) * sp.log(1 - p) / p
    closed = Domain()
    assert (
        check_statement(sp.Eq(sp.Limit(m_, p, 1, "-"), 1, evaluate=False), closed).status
        == "tested"
    )
    assert (
        check_statement(sp.Eq(sp.Limit(m_, p, 1, "-"), 2, evaluate=False), closed).status
        == "refuted"
    )
    assert (
        check_statement(sp.Eq(sp.Limit(m_, p, 0, "+"), 1, evaluate=False), closed).status
        == "refuted"
    )


def test_an_integral_is_evaluated_by_quadrature_at_each_point():
    p = sp.Symbol("pi", positive=True)
    r = sp.Symbol("r", positive=True)
    dom = Domain(Real(p, 0, 1, open_lo=True, open_hi=True), samples=16)
    bound = p * r / (1 - p + p * r)
    closed_form = 1 + (1 - p) * sp.log(1 - p) / p
    assert (
        check_statement(sp.Eq(sp.Integral(bound, (r, 0, 1)), closed_form), dom).status == "tested"
    )
    shifted = sp.Eq(sp.Integral(bound, (r, 0, 1)), closed_form + sp.Rational(1, 7))
    assert check_statement(shifted, dom).status == "refuted"


def test_a_name_is_evaluated_by_its_meaning_and_points_beyond_its_reach_are_counted():
    size = sp.Symbol("size")

    def brute(point: dict) -> Fraction | None:
        k = int(point[n])
        return None if k > 20 else Fraction(sum(range(1, k + 1)))

    dom = Domain(
        Integer(n, 1), define={size: Meaning(brute, "1 + 2 + ... + n by a loop")}, exhaustive=10
    )
    res = check_statement(sp.Eq(size, n * (n + 1) / 2), dom)
    assert res.status == "tested"
    assert res.unavailable > 0
    assert check_statement(sp.Eq(size, n**2 / 2), dom).status == "refuted"


def test_a_statement_using_an_undeclared_name_cannot_be_checked():
    res = check_statement(sp.Gt(x, 0), Domain(Integer(n, 1), exhaustive=3))
    assert res.status == "error"
    assert "x" in res.error


# ---- the statement and the derivation --------------------------------------------------------
@pytest.mark.parametrize("cid", ["B1"])
def test_a_mutated_statement_fails_the_claim(cid):
    """Through ``run_claim`` itself: the unchanged claim passes, every mutant that says something
    else fails."""
    all_claims()
    c = REGISTRY[cid]
    assert run_claim(c).passed
    for what, mutant in statement_mutants(c.statement()):
        if agree(mutant, c.statement()):
            continue
        res = run_claim(dataclasses.replace(c, statement=lambda m=mutant: m))
        assert not res.passed, f"{cid}: mutant {what} passed"


def test_a_claim_that_establishes_nothing_fails_unless_its_statement_is_certified():
    all_claims()
    c = REGISTRY["B1"]  # its statement is tested (an infinite domain), not certified

    def proof(pf):
        c.proof(pf)
        pf.final_step = 0  # as if the derivation had not ended with establish

    res = run_claim(dataclasses.replace(c, proof=proof))
    assert not res.passed
    assert any("never established the statement" in p for p in res.problems)


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
    k = sp.Symbol("k", integer=True, positive=True)
    assert decide(sp.Gt(sp.Sum(pos**k / k, (k, 2, sp.oo)), 0, evaluate=False))[0]  # positive terms
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


def test_a_definition_declining_every_point_beyond_the_exhaustive_range_is_not_a_test():
    """A = 7 for n <= 5 and 'beyond reach' after: only the exhaustive range n <= 5 would be
    checked, so the statement A = 7 is not tested over n >= 1."""
    a = sp.Symbol("A")
    narrow = Meaning(lambda pt: 7 if pt[n] <= 5 else None, "7, for n <= 5 only")
    res = check_statement(sp.Eq(a, 7), Domain(Integer(n, 1), define={a: narrow}, exhaustive=5))
    assert res.status == "unevaluated"
    assert "checked only up to the exhaustive size" in res.summary()
    # one larger point within reach is enough for a test (n <= 40 here)
    wider = Meaning(lambda pt: 7 if pt[n] <= 40 else None, "7, for n <= 40")
    res = check_statement(sp.Eq(a, 7), Domain(Integer(n, 1), define={a: wider}, exhaustive=5))
    assert res.status == "tested"
