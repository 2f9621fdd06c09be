"""Claims D1-D8, M1-M2, K1-K3 (the PR literature beyond the seeds): they pass; what the sources
print, where it is wrong, is refuted by the registry's statement check over the same domains;
and the brute-force pieces the claims rest on agree with values derived by hand."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from prtheory._testing.claims import claims_pass, result
from prtheory.data import davis_goadrich2006_figures, davis_goadrich2006_table1
from prtheory.data.constructed import (
    DAVIS_GOADRICH_WITNESS,
    MCDERMOTT_COUNTER,
    MCDERMOTT_FIGURE,
)
from prtheory.theory import all_claims
from prtheory.theory.checks import refuted
from prtheory.theory.common import name, printed_as, scored
from prtheory.theory.davis_goadrich2006 import areas, interpolation, space
from prtheory.theory.davis_goadrich2006.curves import (
    dominates_pr,
    dominates_roc,
    pr_precision_at,
    roc_vertices,
    wmw,
)
from prtheory.theory.domain import Domain, Meaning
from prtheory.theory.mcdermott2024 import lemma, theorem1
from prtheory.theory.mcdermott2024.forms import expectation_ap
from prtheory.theory.mcdermott2024.mistakes import adjacent_mistakes
from prtheory.theory.mcsherry_najork2008 import expectations
from prtheory.theory.mcsherry_najork2008.blocks import (
    mean_ap_terms,
    mean_first_hit,
    mean_gain_at,
    mean_top_positives,
)
from prtheory.theory.statement import check_statement

test_d_claims_pass = claims_pass("D")
test_m_claims_pass = claims_pass("M")
test_k_claims_pass = claims_pass("K")


def _claim(cid: str):
    (c,) = [c for c in all_claims() if c.id == cid]
    return c


def _with(cid: str, **extra: Meaning) -> Domain:
    """The claim's domain with further names defined (a statement of the source to refute)."""
    d = _claim(cid).domain
    more = {name(k): v for k, v in extra.items()}
    return Domain(
        *d.variables,
        define={**d.define, **more},
        where=d.where,
        exhaustive=d.exhaustive,
        large=d.large,
        samples=d.samples,
    )


def _refuted(statement, domain: Domain) -> bool:
    return check_statement(statement, domain).status == "refuted"


# ---- the sources' text, where it is wrong, fails the statement check --------------------------


def test_d4_linear_interpolation_is_not_always_optimistic():
    # §4: linear interpolation in PR space is "overly-optimistic": chord >= curve everywhere
    wrong = sp.Ge(interpolation.L_x - interpolation.p_x, 0)
    assert _refuted(wrong, _claim("D4").domain)
    assert not _refuted(_claim("D4").statement(), _claim("D4").domain)


def test_d6_printed_areas_do_not_recompute():
    printed = davis_goadrich2006_figures()
    domain = _claim("D6").domain
    assert _refuted(printed_as(interpolation.A_DG, printed["figure6 correct"]), domain)
    assert _refuted(printed_as(interpolation.A_LIN, printed["figure6 linear"]), domain)


def test_d2_and_d8_wrong_orders_are_refuted():
    gap = (space.F_I - space.F_II) * space.GAP  # the FP gap with the wrong sign
    assert _refuted(sp.Eq(space.p_I - space.p_II, gap), _claim("D2").domain)
    assert _refuted(sp.Lt(areas.AUCPR_I, areas.AUCPR_II), _claim("D8").domain)


def test_k2_the_notebooks_strict_form_is_refuted():
    def strict_form(pt):  # undefined (0/0) where a positive is on top: not evaluated there
        try:
            return expectation_ap(*scored(pt[theorem1.ranking]), strict=True)
        except ZeroDivisionError:
            return None

    domain = _with("K2", E_strict=Meaning(strict_form, "the form with >"))
    assert _refuted(sp.Eq(theorem1.AP, name("E_strict")), domain)


def test_k1_ties_counted_fully_are_refuted():
    def fpr_ge(pt):  # a tied negative counted as above the positive
        y, s = scored(pt[theorem1.ranking])
        pos = [t for v, t in zip(y, s, strict=True) if v]
        neg = [t for v, t in zip(y, s, strict=True) if not v]
        return sum(Fraction(sum(u >= t for u in neg), len(neg)) for t in pos) / len(pos)

    domain = _with("K1", E_ge=Meaning(fpr_ge, "FPR with >="))
    assert _refuted(sp.Eq(theorem1.AUROC, 1 - name("E_ge")), domain)


def test_k3_higher_mistakes_do_not_always_gain_more():
    assert _refuted(sp.Gt(lemma.D_AP_HIGH, lemma.D_AP_LOW), _claim("K3").domain)


def test_m1_the_grouped_block_is_not_the_expectation():
    # the block as one operating point (ties grouped): p (T + p)/(N + m)
    m, p, n, t = expectations.m, expectations.p, expectations.N, expectations.T
    wrong = sp.Eq(expectations.E_BLOCK, p * (t + p) / (n + m))
    assert _refuted(wrong, _claim("M1").domain)


def test_m2_reciprocal_rank_is_not_linear():
    # 1/E[rank] instead of E[1/rank]: the first positive's mean position is (m + 1)/(p + 1)
    m, p, n = expectations.m, expectations.p, expectations.N
    wrong = sp.Eq(expectations.E_RR, 1 / (n + (m + 1) / (p + 1)))
    assert _refuted(wrong, _claim("M2").domain)


# ---- hand values -----------------------------------------------------------------------------


def test_d8_witness_by_hand():
    # I: 10 positives above all 2000 negatives, 10 tied with 1496 (half) and above 504:
    # (10*2000 + 10*1496/2 + 10*504)/(20*2000) = 32520/40000 = 0.813
    # II: 20 positives tied with 500 (half) and above 1500: (20*500/2 + 20*1500)/40000 = 7/8
    assert areas.auroc_expr(DAVIS_GOADRICH_WITNESS["I"]) == sp.Rational(813, 1000)
    assert areas.auroc_expr(DAVIS_GOADRICH_WITNESS["II"]) == sp.Rational(7, 8)
    # II: precision 20/520 all along the one segment from the empty classifier
    assert areas.aucpr_expr(DAVIS_GOADRICH_WITNESS["II"]).doit() == sp.Rational(1, 26)


def test_d6_area_against_quadrature():
    # precision 1 up to TP = 8.66, then t/(t + s (t - 8.66)) with s = 56164/(433 - 8.66)
    with mpmath.workdps(40):
        ta = mpmath.mpf(866) / 100
        s = mpmath.mpf(56164) / (433 - ta)
        want = ta / 433 + mpmath.quad(lambda t: t / (t + s * (t - ta)), [ta, 433]) / 433
        got = mpmath.mpf(str(sp.N(interpolation.FIG6_DG_CLOSED, 40)))
        assert abs(got - want) < mpmath.mpf(10) ** -30
    # the linear area: 0.02 + 0.98 (1 + 433/56597)/2
    assert (
        sp.Rational(2, 100) + sp.Rational(98, 100) * (1 + sp.Rational(433, 56597)) / 2
        == interpolation.FIG6_LINEAR
    )


def test_table1_rows():
    rows = davis_goadrich2006_table1()
    assert [(tp, fp) for tp, fp, _, _ in rows] == [(5 + k, 5 + 5 * k) for k in range(6)]
    assert rows[2][3] == "0.318"  # 7/22 = 0.31818...


def test_k3_figure_by_hand():
    # the notebook's figure, top first 1,0,1,1,1,0,0,0,1,0,0 (P = 5, N = 6): Mistake 2 is the
    # positive at rank 3 with T = 1 above: (1 + 1)/(5 * 3 * 2) = 1/15; Mistake 1 at rank 9 with
    # T = 4: 5/(5 * 9 * 8) = 1/72; AUROC gains 1/(5 * 6) = 1/30 for each
    gains = {mk.rank: (mk.d_ap, mk.d_auroc) for mk in adjacent_mistakes(MCDERMOTT_FIGURE)}
    assert gains == {3: (Fraction(1, 15), Fraction(1, 30)), 9: (Fraction(1, 72), Fraction(1, 30))}
    # 0000111110 1: ranks 4-5 (T = 0): 1/(6*5*4) = 1/120; ranks 10-11 (T = 5): 6/(6*11*10)
    gains = {mk.rank: mk.d_ap for mk in adjacent_mistakes(MCDERMOTT_COUNTER)}
    assert gains == {5: Fraction(1, 120), 11: Fraction(1, 110)}


def test_blocks_by_hand():
    # a block of one positive and one negative, nothing above: AP terms 1 or 1/2, RR 1 or 1/2
    assert mean_ap_terms(2, 1, 0, 0) == Fraction(3, 4)
    assert mean_first_hit(2, 1, 0) == Fraction(3, 4)
    # one positive among 3: it is among the first 2 with probability 2/3
    assert mean_top_positives(3, 1, 2) == Fraction(2, 3)
    # gains 0, 1, 2: each at position 1 in a third of the orders
    assert mean_gain_at((0, 1, 2), 1) == 1


def test_dominance_readings_at_the_crossings():
    # one: (0,0)-(1,0)-(1,1)-(2,1)-(2,2); two: (0,0)-(2,1)-(2,2). At FP 1/2 two has TP 1/4, one
    # has 0: no ROC dominance. In PR space at TP t < 1/2: one has FP 1, two FP 2t, so two is
    # better just above recall 0 though they are equal at t = 1/2.
    one = [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)]
    two = [(0, 0), (2, 1), (2, 2)]
    assert not dominates_roc(one, two)
    assert not dominates_pr(one, two)
    assert (
        pr_precision_at(one, Fraction(1, 2))
        == pr_precision_at(two, Fraction(1, 2))
        == Fraction(1, 3)
    )
    # a concave curve dominates the diagonal in both spaces
    assert dominates_roc([(0, 0), (0, 1), (2, 2)], [(0, 0), (2, 2)])
    assert dominates_pr([(0, 0), (0, 1), (2, 2)], [(0, 0), (2, 2)])


def test_roc_vertices_and_wmw_by_hand():
    # y = 1, 0, 1 at scores 3, 2, 2: thresholds 3 and 2: (0, 1) then (1, 2)
    assert roc_vertices([1, 0, 1], [3, 2, 2]) == [(0, 0), (0, 1), (1, 2)]
    # pairs: the positive at 3 beats the negative (1), the one at 2 ties it (1/2): 3/4
    assert wmw([1, 0, 1], [3, 2, 2]) == Fraction(3, 4)


@pytest.mark.parametrize("cid", ["D4", "D6", "K2", "K3"])
def test_corrections_say_what_the_source_says_and_what_is_true(cid):
    c = _claim(cid)
    assert c.verdict == "holds as corrected"
    assert any(w in c.note for w in ("says", "writes", "prints", "'")), c.note
    # the proof itself records the source's statement refuted by the statement check, with
    # its counterexample (D6 has one per printed number)
    found = [ch for ch in result(cid).checks if ch.detail.startswith("REFUTED: false")]
    assert found, [ch.detail for ch in result(cid).checks]
    assert all(ch.passed for ch in found)
    assert len(found) == (2 if cid == "D6" else 1)


def test_refuted_passes_only_on_a_false_statement():
    # a check that always passed would let a correct source statement be called refuted
    d4 = _claim("D4")
    assert refuted(d4.statement(), d4.domain)[0] is False
    assert refuted(sp.Ge(interpolation.L_x - interpolation.p_x, 0), d4.domain)[0] is True
    assert refuted(sp.Ge(interpolation.L_x - interpolation.p_x, 0), None)[0] is False


def test_k3_smallest_counterexample_by_hand():
    # 0 0 0 0 0 1 0 1 (P = 2): the mistake at ranks 5-6 (T = 0) gains 1/(2 * 6 * 5) = 1/60, the
    # lower one at ranks 7-8 (T = 1) gains 2/(2 * 8 * 7) = 1/56, more; no ranking of up to 7
    # items has such a pair, and the pairs are enumerated by size, so the check stops here
    ok, detail = refuted(sp.Gt(lemma.D_AP_UPPER, lemma.D_AP_LOWER), lemma.PAIRS)
    assert ok
    assert "labels=(0, 0, 0, 0, 0, 1, 0, 1), rank=6" in detail
    assert "d_ap=Fraction(1, 60)), Mistake(" in detail
    assert "rank=8" in detail
    assert "d_ap=Fraction(1, 56))" in detail


def test_k2_the_notebook_form_at_the_smallest_ranking_by_hand():
    # negative then positive: AP = 1/2; with >, at the positive FPR = 1/1 and P(p > p+) = 1/2,
    # so 1 - (1/2)(1/(1/2)) = 0
    pt = {theorem1.ranking: ((0, 1), (1, 0))}
    assert theorem1._strict_ratio(pt) == 2
    assert theorem1._strict_ratio({theorem1.ranking: ((1, 0), (0, 1))}) is None  # 0/0 on top
