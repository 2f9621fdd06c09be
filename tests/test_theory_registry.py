"""The registry's step kinds: what counts as verified, what may be a premise, what counts as a
kind of check, and the rendering of each (prtheory.theory.registry, prtheory.theory.render)."""

from __future__ import annotations

import pytest
import sympy as sp

from prtheory.theory.checks import exhaustive, interval_function, interval_sign
from prtheory.theory.domain import Domain, Real
from prtheory.theory.registry import Claim, ClaimResult, Proof, StepFailed, run_claim
from prtheory.theory.render import render_proof

x = sp.Symbol("x", positive=True)
DOMAIN = Domain(Real(x, 0, 10, open_lo=True), samples=20)


def _claim(proof, statement=lambda: sp.Gt(x, 0)) -> Claim:
    return Claim("Y1", "src", "loc", "title", statement, ("x > 0",), "holds", proof, domain=DOMAIN)


def _result(pf: Proof, verdict: str = "holds") -> ClaimResult:
    c = Claim("B1", "src", "loc", "title", lambda: x, ("a",), verdict, lambda _: None)
    return ClaimResult(c, pf.steps, pf.checks)


def test_enumerated_steps_verify_but_a_conclusion_on_them_is_not_a_proof():
    square = x**2 - 2 * x + 1  # (x - 1)^2: touches 0 at x = 1, where no enclosure decides >= 0

    def proof(pf: Proof) -> None:
        pf.enumerated(
            "(x - 1)^2 >= 0 for the cases tried",
            sp.Ge(square, 0),
            exhaustive(range(5), lambda k: (k - 1) ** 2 >= 0, "x = 0..4"),
        )
        pf.establish("so (x - 1)^2 >= 0", sp.Ge(square, 0), [1])

    res = run_claim(_claim(proof, lambda: sp.Ge(square, 0)))
    assert res.steps[0].verified is True
    assert res.final.verified is True  # the inference restates step 1
    assert res.final.support == "enumerated"
    assert not res.proved  # a finite family is not a proof of the statement
    assert res.passed  # the statement check tested it over the domain
    assert res.kind == "tested"
    assert "symbolic" not in res.kinds


def test_a_constant_check_is_not_evidence_bearing_on_the_statement():
    """Issue: a constant (True, "ok") was accepted as an exact check. A check the author writes
    is shown and must pass, but only the chain and the registry's statement check count."""

    y = sp.Symbol("y", real=True)
    fact = sp.Gt(y**2 + 1, y)

    def proof(pf: Proof) -> None:
        pf.given("y^2 + 1 > y", fact)
        pf.check("printed-number", "something", (True, "ok"))
        pf.establish("so y^2 + 1 > y", fact, [1])

    domain = Domain(Real(y, -10, 10), samples=20)
    res = run_claim(
        Claim("Y1", "s", "l", "t", lambda: fact, ("y real",), "holds", proof, domain=domain)
    )
    assert not res.passed  # the only support is a given: the final inference is prose
    assert res.final.prose
    assert any("final inference (step 2) is prose" in p for p in res.problems)
    assert [(c.kind, c.passed) for c in res.checks] == [("printed-number", True)]
    assert "printed-number" not in res.kinds  # the constant check counts for nothing
    assert "symbolic" not in res.kinds
    # the kinds that remain are the arithmetic of the registry's own statement check
    assert res.kinds == res.statement_check.kinds


def test_failed_enumeration_step_raises():
    with pytest.raises(StepFailed):
        Proof().enumerated("odd", x, exhaustive(range(3), lambda k: k % 2 == 1, "0..2"))


def test_conclusion_must_cite_existing_verified_steps():
    pf = Proof()
    pf.equal("an identity", (x + 1) ** 2, x**2 + 2 * x + 1)
    pf.conclude("restated", sp.Eq(x**2 + 2 * x + 1, (x + 1) ** 2), [1])
    assert pf.steps[-1].verified is True  # sympy saw that it restates step 1
    assert pf.steps[-1].method.startswith("follows from steps 1 (")
    assert "prose lemma" not in pf.steps[-1].method
    pf.conclude("so", sp.Gt(x, 3), [1])  # does not follow from step 1 by any rule
    assert pf.steps[-1].method == "follows from steps 1 (prose lemma)"
    assert pf.steps[-1].verified is None
    assert pf.steps[-1].prose
    with pytest.raises(StepFailed):
        pf.conclude("from nothing", x, [])
    with pytest.raises(StepFailed):
        pf.conclude("from the future", x, [7])


def test_a_given_is_never_a_premise():
    """Issue: a claim that cites a given as its establish step passed with that step marked
    verified. A given is shown, not used: restating it is not an inference."""
    pf = Proof()
    pf.given("AP_min equals pi", sp.Eq(sp.Symbol("AP_min"), sp.Symbol("pi")))
    pf.establish("so", sp.Eq(sp.Symbol("AP_min"), sp.Symbol("pi")), [1])
    assert pf.steps[-1].verified is None
    assert pf.steps[-1].prose
    # and a prose conclusion must rest on something verified, not on givens alone
    with pytest.raises(StepFailed, match="at least one verified step"):
        pf.conclude("restated in words", sp.Eq(sp.Symbol("AP_min"), sp.Symbol("pi")), [1])


def test_a_conclusion_resting_on_a_prose_lemma_is_checked_but_not_proved():
    pf = Proof()
    pf.equal("an identity", (x + 1) ** 2, x**2 + 2 * x + 1)
    pf.conclude("in words", sp.Gt(x, 3), [1])  # prose
    pf.establish("restated", sp.Gt(x, 3), [2])
    assert pf.steps[-1].verified is True
    assert pf.steps[-1].support == "prose"


def test_value_computes_what_it_shows_and_names_the_failed_equality_once():
    pf = Proof()
    k = sp.Symbol("k", positive=True, integer=True)
    pf.value("sum", sp.Sum(1 / (k * (k + 1)), (k, 1, sp.oo)), 1, "summation")
    assert pf.steps[0].latex.count(" = ") == 1  # computed and expected coincide: shown once
    assert pf.steps[0].expr == sp.Eq(sp.Sum(1 / (k * (k + 1)), (k, 1, sp.oo)), 1, evaluate=False)
    with pytest.raises(StepFailed) as info:
        Proof().value("wrong", sp.Sum(1 / (k * (k + 1)), (k, 1, sp.oo)), 2, "summation")
    message = str(info.value)
    assert message.startswith("wrong: Sum(1/(k*(k + 1)), (k, 1, oo)) = 1, which is not 2")
    assert "\\" not in message  # plain text, not LaTeX
    # a computed value the registry does not reproduce is refused
    with pytest.raises(StepFailed, match="is not what was passed as computed"):
        Proof().value(
            "faked", sp.Integral(x, (x, 0, 1)), sp.Rational(1, 3), "int", computed=sp.Rational(1, 3)
        )


def test_the_failed_step_appears_once_among_the_problems():
    def proof(pf: Proof) -> None:
        pf.value("a wrong limit", sp.Limit(1 / x, x, sp.oo), 1, "limit")

    res = run_claim(_claim(proof))
    assert len([p for p in res.problems if "a wrong limit" in p]) == 1


def test_true_shows_what_sympy_decided_when_it_displays_something_else():
    pf = Proof()
    pf.true("displayed differently", sp.Gt(x, 0, evaluate=False), "sign", shown=sp.Gt(x**2, 0))
    assert pf.steps[-1].decided == sp.latex(sp.Gt(x, 0, evaluate=False))


def test_rendered_document_summarises_steps_and_checks():
    pf = Proof()
    pf.given("definition", x)
    pf.equal("identity", (x + 1) ** 2, x**2 + 2 * x + 1)
    pf.conclude("so", sp.Gt(x, 3), [2])
    pf.check("numeric", "one", (True, "ok"))
    pf.check("numeric", "two", (True, "ok"))
    text = render_proof(_result(pf))
    assert "3 steps (1 verified by sympy, 1 given, 1 prose lemma)" in text
    assert "numeric ×2" in text
    assert "*follows from steps 2 (prose lemma)*" in text


def test_interval_sign_reports_boxes_without_fraction_reprs():
    from fractions import Fraction

    ok, detail = interval_sign(
        interval_function([x], x), [(Fraction(1, 100), Fraction(1, 2))], cells=4, strict=True
    )
    assert ok
    assert "[1/100, 1/2]" in detail
    assert "Fraction(" not in detail
    bad, detail = interval_sign(interval_function([x], x - sp.Rational(1, 4)), [(0, 1)], cells=4)
    assert not bad
    assert "Fraction(" not in detail
