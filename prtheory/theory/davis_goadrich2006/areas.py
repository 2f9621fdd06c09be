"""Claims D7-D8: the trapezoidal AUC-ROC is the Wilcoxon-Mann-Whitney statistic, and optimising
AUC-ROC does not optimise AUC-PR (Davis & Goadrich 2006, §4-§5).

The witness of D8 is built and evaluated exactly by the oracle (:mod:`prtheory.oracle`): two
rankings of 20 positives and 2000 negatives, as tied blocks (positives, negatives) from the top
(:data:`prtheory.data.constructed.DAVIS_GOADRICH_WITNESS`).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import sympy as sp

from prtheory.data import davis_goadrich2006_figures
from prtheory.data.constructed import DAVIS_GOADRICH_WITNESS
from prtheory.oracle import average_precision, pr_auc, roc_auc
from prtheory.oracle.achievable import achievable_pr_curve_of_ranking
from prtheory.theory.checks import exhaustive
from prtheory.theory.common import name, round_half_up, scored, tied_rankings
from prtheory.theory.davis_goadrich2006.curves import wmw
from prtheory.theory.domain import Domain, Integer
from prtheory.theory.registry import Proof, claim

SOURCE = "Davis & Goadrich 2006 (paper)"

P, N = sp.symbols("P N", positive=True, integer=True)
T, g, f = sp.symbols("T g f", nonnegative=True, integer=True)

# ---- D7 ---------------------------------------------------------------------------------------
#: The area under the ROC segment of one tied block: width f/N, heights T/P and (T + g)/P.
TRAPEZOID = (f / N) * (T / P + (T + g) / P) / 2
#: The block's share of the WMW statistic: each of its f negatives is below T positives and tied
#: with g, counting 1 and 1/2.
PAIRS = (f * T + f * g / 2) / (P * N)


def _roc_auc_is_wmw(max_n: int = 7) -> tuple[bool, str]:
    """The oracle's trapezoidal AUROC against the WMW statistic counted pair by pair."""

    def cases():
        for n in range(2, max_n + 1):
            for n_pos in range(1, n):
                yield from (scored(b) for b in tied_rankings(n_pos, n - n_pos))

    return exhaustive(
        cases(),
        lambda case: roc_auc(case[0], case[1]) == wmw(case[0], case[1]),
        f"every ranking with both classes and every pattern of ties, 2 to {max_n} items",
    )


@claim(
    "D7",
    source=SOURCE,
    location="§4 (citing Cortes & Mohri 2003)",
    title="The trapezoidal area under the ROC curve is the Wilcoxon-Mann-Whitney statistic",
    statement=lambda: sp.Eq(TRAPEZOID, PAIRS),
    assumptions=(
        "P positives, N negatives; a block of tied scores holds g positives and f negatives, "
        "below T positives; its ROC segment runs from TPR T/P to (T + g)/P over FPR width f/N",
        "the WMW statistic counts (positive, negative) pairs with the positive above as 1 and "
        "tied pairs as 1/2, over P N; summing the blocks' identities gives AUC-ROC = WMW",
    ),
    domain=Domain(
        Integer(P, 1),
        Integer(N, 1),
        Integer(T, 0, P),
        Integer(g, 0, P - T),
        Integer(f, 0, N),
        exhaustive=7,
        samples=60,
    ),
)
def _d7(pf: Proof) -> None:
    pf.equal(
        "The block's trapezoid is its negatives' pairs: f T above, f g tied at one half",
        TRAPEZOID,
        PAIRS,
    )
    pf.establish("Block by block, trapezoid = pairs", sp.Eq(TRAPEZOID, PAIRS), [1])
    pf.check(
        "enumeration",
        "The oracle's trapezoidal AUROC equals the WMW statistic counted pair by pair",
        _roc_auc_is_wmw(),
    )


# ---- D8 ---------------------------------------------------------------------------------------
POS, NEG = 20, 2000
tt = sp.Symbol("t", positive=True)
AUROC_I, AUROC_II, AUCPR_I, AUCPR_II = (
    name(rf"\mathrm{{{k}}}_{{\mathrm{{{c}}}}}")
    for k, c in (("AUROC", "I"), ("AUROC", "II"), ("AUCPR", "I"), ("AUCPR", "II"))
)


def _tables(blocks: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    """(TP, FP) from the empty classifier through every block."""
    out = [(0, 0)]
    for gp, gn in blocks:
        out.append((out[-1][0] + gp, out[-1][1] + gn))
    return out


def auroc_expr(blocks: tuple[tuple[int, int], ...]) -> sp.Expr:
    """Trapezoids under the ROC curve of the blocks (exact rational).

    Parameters
    ----------
    blocks : tuple of (int, int)
        Tied blocks ``(positives, negatives)`` from the top, 20 positives and 2000 negatives in
        all (the D8 witness's sizes).

    Returns
    -------
    sympy.Rational
        AUC-ROC.

    Examples
    --------
    Every positive first: 1; everything in one tie (the diagonal): 1/2.

    >>> from prtheory.theory.davis_goadrich2006.areas import auroc_expr
    >>> auroc_expr(((20, 0), (0, 2000))), auroc_expr(((20, 2000),))
    (1, 1/2)
    """
    tabs = _tables(blocks)
    return sum(
        (
            sp.Rational(f1 - f0, NEG) * sp.Rational(t0 + t1, 2 * POS)
            for (t0, f0), (t1, f1) in itertools.pairwise(tabs)
        ),
        sp.Integer(0),
    )


def aucpr_expr(blocks: tuple[tuple[int, int], ...]) -> sp.Expr:
    """The Davis-Goadrich area from the empty classifier: on each segment precision
    t/(t + FP_0 + s (t - TP_0)), integrated over TP and divided by P (unevaluated integrals).

    Parameters
    ----------
    blocks : tuple of (int, int)
        Tied blocks ``(positives, negatives)`` from the top, 20 positives and 2000 negatives in
        all.

    Returns
    -------
    sympy expression
        AUC-PR, a sum of unevaluated integrals over P.

    Examples
    --------
    Every positive first: precision 1 up to recall 1, area 1. One tie of everything: precision
    ``t/(t + 100 t) = 1/101`` along the whole segment (slope ``2000/20 = 100``):

    >>> from prtheory.theory.davis_goadrich2006.areas import aucpr_expr
    >>> aucpr_expr(((20, 0), (0, 2000))).doit(), aucpr_expr(((20, 2000),)).doit()
    (1, 1/101)
    """
    total = sp.Integer(0)
    for (t0, f0), (t1, f1) in itertools.pairwise(_tables(blocks)):
        if t1 > t0:
            slope = sp.Rational(f1 - f0, t1 - t0)
            total += sp.Integral(tt / (tt + f0 + slope * (tt - t0)), (tt, t0, t1))
    return total / POS


def _d8_statement() -> sp.Basic:
    return sp.And(sp.Lt(AUROC_I, AUROC_II), sp.Gt(AUCPR_I, AUCPR_II), evaluate=False)


@claim(
    "D8",
    source=SOURCE,
    location="§5, Figure 7 (a counter-example)",
    title="Two rankings of 20 positives and 2000 negatives order AUC-ROC and AUC-PR oppositely",
    statement=_d8_statement,
    assumptions=(
        "I: 10 positives on top, then 10 positives tied with 1496 negatives, then 504 "
        "negatives; II: all 20 positives tied with 500 negatives on top, then 1500 negatives "
        "(prtheory/data/constructed.py)",
        "AUC-ROC by trapezoids (D7); AUC-PR by Davis-Goadrich interpolation from the empty "
        "classifier, which is the achievable curve here: each ROC curve is its own convex hull, "
        "as the figure's are",
    ),
    domain=Domain(
        define={
            AUROC_I: auroc_expr(DAVIS_GOADRICH_WITNESS["I"]),
            AUROC_II: auroc_expr(DAVIS_GOADRICH_WITNESS["II"]),
            AUCPR_I: aucpr_expr(DAVIS_GOADRICH_WITNESS["I"]),
            AUCPR_II: aucpr_expr(DAVIS_GOADRICH_WITNESS["II"]),
        }
    ),
    note=(
        "A counter-example, as the paper's; its Figure 7 gives no points, so its numbers (AUC-ROC "
        "0.813 and 0.875, AUC-PR 0.514 and 0.038) cannot be recomputed. This witness has AUC-ROC "
        "0.813 and 0.875 exactly and AUC-PR 0.520 and 1/26 = 0.038: an algorithm choosing by "
        "AUC-ROC picks II, by AUC-PR I. Average precision (ties grouped or expected) orders them "
        "as AUC-PR does."
    ),
)
def _d8(pf: Proof) -> None:
    w = DAVIS_GOADRICH_WITNESS
    pf.value(
        "AUC-ROC of I by trapezoids",
        auroc_expr(w["I"]),
        sp.Rational(813, 1000),
        "exact rational arithmetic",
    )
    pf.value("AUC-ROC of II", auroc_expr(w["II"]), sp.Rational(7, 8), "exact rational arithmetic")
    pf.true(
        "813/1000 < 7/8",
        sp.Lt(sp.Rational(813, 1000), sp.Rational(7, 8), evaluate=False),
        "exact comparison",
    )
    closed_i = aucpr_expr(w["I"]).doit()
    pf.value(
        "AUC-PR of I: 10/20 at precision 1, then the Davis-Goadrich segment",
        aucpr_expr(w["I"]),
        closed_i,
        "integrate",
    )
    pf.value(
        "AUC-PR of II: precision 20/520 all along",
        aucpr_expr(w["II"]),
        sp.Rational(1, 26),
        "integrate",
    )
    pf.true(
        "AUC-PR of I exceeds 1/26",
        sp.Gt(closed_i, sp.Rational(1, 26), evaluate=False),
        "sympy's evaluation of the closed form",
    )
    pf.establish("Opposite orders", _d8_statement(), [1, 2, 3, 4, 5, 6])
    (li, si), (lii, sii) = scored(w["I"]), scored(w["II"])
    exact = (roc_auc(li, si), roc_auc(lii, sii))
    pf.check(
        "exact",
        "The oracle's AUROC of the two rankings, exactly",
        (exact == (Fraction(813, 1000), Fraction(7, 8)), f"{exact[0]} and {exact[1]}"),
    )
    with mpmath.workdps(40):
        dg = [
            pr_auc(lab, sc, method="davis-goadrich", first_point="spark", dps=40)
            for lab, sc in ((li, si), (lii, sii))
        ]
        hull = [
            achievable_pr_curve_of_ranking(lab, sc).area(dps=40)
            for lab, sc in ((li, si), (lii, sii))
        ]
        closed = [mpmath.mpf(str(sp.N(closed_i, 40))), mpmath.mpf(1) / 26]
        pf.check(
            "numeric",
            "The oracle's Davis-Goadrich areas and achievable-curve areas match the closed forms",
            (
                all(
                    abs(a - c) < mpmath.mpf(10) ** -35
                    for a, c in zip(dg + hull, closed + closed, strict=True)
                ),
                f"{mpmath.nstr(dg[0], 10)} and {mpmath.nstr(dg[1], 10)}",
            ),
        )
    aps = [
        average_precision(lab, sc, ties=ties)
        for lab, sc in ((li, si), (lii, sii))
        for ties in ("group", "expected")
    ]
    pf.check(
        "exact",
        "Average precision orders them as AUC-PR does (ties grouped, and expected over orders)",
        (
            aps[0] > aps[2] and aps[1] > aps[3],
            f"grouped {float(aps[0]):.4f} > {float(aps[2]):.4f}; expected {float(aps[1]):.4f} > {float(aps[3]):.4f}",
        ),
    )
    printed = davis_goadrich2006_figures()
    pf.check(
        "printed-number",
        "The printed AUC-ROC values 0.813 and 0.875 and AUC-PR 0.038 are this witness's; its "
        "AUC-PR of I is 0.520, not the printed 0.514",
        (
            round_half_up(exact[0], 3) == Fraction(printed["figure7 auroc I"])
            and round_half_up(exact[1], 3) == Fraction(printed["figure7 auroc II"])
            and round_half_up(Fraction(1, 26), 3) == Fraction(printed["figure7 aucpr II"])
            and round_half_up(Fraction(str(sp.N(closed_i, 30))), 3) == Fraction("0.520"),
            f"AUC-PR of I = {sp.N(closed_i, 6)}",
        ),
    )
