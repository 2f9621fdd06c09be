"""Claim F13: the OpenML comparison of AUPR and AUPRG (out of reach), and its mechanism on a
constructed pair.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import mpmath
import sympy as sp

from prtheory.data.constructed import FLACH2015_PAIR
from prtheory.theory.common import dg_aucpr
from prtheory.theory.domain import Domain, Meaning
from prtheory.theory.flach2015.formulas import SOURCE, auprg, gains_of_counts, precG, recG
from prtheory.theory.notes import average_precision
from prtheory.theory.registry import Proof, claim

# ---- F13 --------------------------------------------------------------------------------------
#: The constructed pair (shared with the Flach report): 10 positives, 14 negatives, pi = 5/12.
RANKING_A, RANKING_B = FLACH2015_PAIR["A"], FLACH2015_PAIR["B"]


def _oracle_ap(labels: Sequence[int]) -> Fraction:
    """AP of an untied ranking by :func:`prtheory.oracle.average_precision` (scores n..1)."""
    from prtheory.oracle.ap import average_precision as ap

    return ap(list(labels), list(range(len(labels), 0, -1)))


def _oracle_auprg(labels: Sequence[int]) -> Fraction:
    """AUPRG of an untied ranking by :func:`prtheory.oracle.auprg` (scores n..1)."""
    from prtheory.oracle.prg import auprg as area

    return area(list(labels), list(range(len(labels), 0, -1)), negative_gain="signed")


AP_A, AP_B = sp.Symbol(r"\mathrm{AUPR}(A)"), sp.Symbol(r"\mathrm{AUPR}(B)")
G_A, G_B = sp.Symbol(r"\mathrm{AUPRG}(A)"), sp.Symbol(r"\mathrm{AUPRG}(B)")


@claim(
    "F13",
    source=SOURCE,
    location="§4, Figures 4-5",
    title="OpenML comparison of AUPR and AUPRG rankings",
    statement=lambda: sp.And(sp.Gt(AP_A, AP_B), sp.Lt(G_A, G_B)),
    assumptions=(
        "AUPR computed as average precision (the step area)",
        "AUPRG as the signed area over recG in [0, 1]",
        "A and B: the constructed pair of rankings (the OpenML data is not available)",
    ),
    domain=Domain(
        define={
            AP_A: Meaning(lambda pt: _oracle_ap(RANKING_A), "AP of ranking A (the exact oracle)"),
            AP_B: Meaning(lambda pt: _oracle_ap(RANKING_B), "AP of ranking B (the exact oracle)"),
            G_A: Meaning(
                lambda pt: _oracle_auprg(RANKING_A), "AUPRG of ranking A (the exact oracle)"
            ),
            G_B: Meaning(
                lambda pt: _oracle_auprg(RANKING_B), "AUPRG of ranking B (the exact oracle)"
            ),
        }
    ),
    verdict="out of reach",
    note=(
        "The 886 OpenML tasks, the 30 models per task and the Figure 5 runs are not included in the "
        "source, so the 24%/58% disagreement rates and the AUPR 0.724/0.773, AUPRG 0.714/0.687 values "
        "cannot be recomputed. The mechanism (AUPR rewards early precision that AUPRG ignores "
        "because it lies at negative recall gain) is shown on two constructed rankings, whose AUPR "
        "and AUPRG the registry evaluates exactly: the statement is certified, not derived."
    ),
)
def _f13(pf: Proof) -> None:
    k, n_pos = sp.symbols("k n_pos", positive=True)
    pf.given(
        "AUPR as average precision: the mean of P(k) over the ranks k of the positives",
        sp.Sum(sp.Function("P")(k) * sp.Function("rel")(k), (k, 1, sp.Symbol("n"))) / n_pos,
    )
    pf.given(
        "AUPRG: the signed area under the PRG curve from recG = 0 to the always-positive point",
        sp.Integral(precG, (recG, 0, 1)),
    )
    ap_a, ap_b = average_precision(RANKING_A), average_precision(RANKING_B)
    g_a, g_b = auprg(RANKING_A), auprg(RANKING_B)
    pair = f"A = {''.join(map(str, RANKING_A))}, B = {''.join(map(str, RANKING_B))}"
    pf.check(
        "exact",
        f"{pair}: AUPR prefers A and AUPRG prefers B by the Fraction helpers of the theory (a "
        "second implementation beside the oracle the statement check uses)",
        (
            ap_a > ap_b and g_a < g_b,
            f"AUPR(A) = {ap_a}, AUPR(B) = {ap_b}; AUPRG(A) = {g_a}, AUPRG(B) = {g_b}",
        ),
    )
    n_pos, n_neg = sum(RANKING_A), len(RANKING_A) - sum(RANKING_A)
    lead = RANKING_A.index(0)  # A's leading positives
    gains = [gains_of_counts(Fraction(t), Fraction(0), n_pos, n_neg)[0] for t in range(1, lead + 1)]
    pf.check(
        "exact",
        "A's lead comes from its top-ranked positives: their recalls are below pi, so their "
        "recall gains are negative",
        (
            all(g < 0 for g in gains),
            f"recall gains of A's first {lead} operating points = {', '.join(map(str, gains))}; "
            "they add to AP and nothing to AUPRG",
        ),
    )
    with mpmath.workdps(50):
        dg_a, dg_b = dg_aucpr(RANKING_A), dg_aucpr(RANKING_B)
    pf.check(
        "numeric",
        "The paper's AUPR (Davis-Goadrich hyperbolic interpolation, mpmath 50 digits) also prefers A",
        (
            dg_a > dg_b,
            f"AUPR_DG(A) = {mpmath.nstr(dg_a, 12)}, AUPR_DG(B) = {mpmath.nstr(dg_b, 12)}",
        ),
    )
