"""The registry's step kinds: what counts as verified, what counts as a kind of check, and the
rendering of each (prtheory.theory.registry, prtheory.theory.render)."""

from __future__ import annotations

import pytest
import sympy as sp

from prtheory.theory.checks import exhaustive, interval_function, interval_sign
from prtheory.theory.registry import Claim, ClaimResult, Proof, StepFailed
from prtheory.theory.render import render_proof

x = sp.Symbol("x", positive=True)


def _result(pf: Proof, verdict: str = "holds") -> ClaimResult:
    c = Claim("B1", "src", "loc", "title", lambda: x, ("a",), verdict, lambda _: None)
    return ClaimResult(c, pf.steps, pf.checks)


def test_enumerated_steps_verify_but_do_not_count_as_symbolic():
    pf = Proof()
    pf.enumerated("all small n", x, exhaustive(range(5), lambda k: k * k >= 0, "0 <= n < 5"))
    pf.check("exact", "something", (True, "fine"))
    res = _result(pf)
    assert res.steps[0].verified is True
    assert res.kinds == ["exact"]  # the enumeration step is not a sympy verification
    assert not res.passed  # one kind only: a "holds" verdict needs two


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
    pf.conclude("so", x, [1])  # does not follow from step 1 by any rule sympy applies
    assert pf.steps[-1].method == "follows from steps 1 (prose lemma)"
    assert pf.steps[-1].verified is None
    assert pf.steps[-1].prose
    with pytest.raises(StepFailed):
        pf.conclude("from nothing", x, [])
    with pytest.raises(StepFailed):
        pf.conclude("from the future", x, [7])


def test_value_shows_the_computed_form_and_the_expected_one():
    pf = Proof()
    k = sp.Symbol("k", positive=True, integer=True)
    pf.value("sum", sp.Sum(1 / (k * (k + 1)), (k, 1, sp.oo)), sp.Integer(1), 1, "summation")
    assert pf.steps[0].latex.count(" = ") == 1  # computed and expected coincide: shown once
    with pytest.raises(StepFailed):
        Proof().value("wrong", sp.Symbol("s"), sp.Integer(2), 1, "summation")


def test_rendered_document_summarises_steps_and_checks():
    pf = Proof()
    pf.given("definition", x)
    pf.equal("identity", (x + 1) ** 2, x**2 + 2 * x + 1)
    pf.conclude("so", x, [2])
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
