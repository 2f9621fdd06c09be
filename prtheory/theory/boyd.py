"""Claims B1-B16: Boyd, Santos Costa, Davis & Page (ICML 2012), seeds 000 (paper) and 001 (slides)."""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from prtheory.theory.registry import Proof, claim

# Symbols shared by the B claims. Positivity assumptions let sympy decide signs.
pi, r, p = sp.symbols("pi r p", positive=True)
TP, FP, pos, neg = sp.symbols("TP FP pos neg", positive=True)


def min_precision(r_: sp.Expr, pi_: sp.Expr) -> sp.Expr:
    """The Theorem 1 bound pi r / (1 - pi + pi r) as a sympy expression (B1)."""
    return pi_ * r_ / (1 - pi_ + pi_ * r_)


def _b1_enumeration(max_total: int = 14) -> tuple[bool, str]:
    """Every confusion matrix with pos + neg <= max_total satisfies p >= bound, exactly."""
    count = 0
    for P in range(1, max_total):
        for N in range(0, max_total - P + 1):
            skew = Fraction(P, P + N)
            for tp in range(1, P + 1):
                for fp in range(0, N + 1):
                    rec, prec = Fraction(tp, P), Fraction(tp, tp + fp)
                    bound = skew * rec / (1 - skew + skew * rec)
                    count += 1
                    if prec < bound:
                        return False, f"violated at pos={P}, neg={N}, TP={tp}, FP={fp}"
    return True, f"p >= bound for all {count} confusion matrices with TP >= 1 and pos + neg <= {max_total}"


@claim(
    "B1",
    source="Boyd et al. 2012 (000 §3, 001)",
    location="Theorem 1",
    title="Minimum precision for a given recall and skew",
    statement=lambda: sp.GreaterThan(p, min_precision(r, pi)),
    assumptions=(
        "pos > 0 and neg >= 0 are the class counts; pi = pos/(pos+neg) in (0, 1]",
        "TP >= 1 (recall r = TP/pos > 0, so precision is defined)",
        "0 <= FP <= neg",
    ),
)
def _b1(pf: Proof) -> None:
    pf.given("Precision and recall from counts", sp.Eq(p, TP / (TP + FP)))
    pf.given("Skew", sp.Eq(pi, pos / (pos + neg)))
    pf.given("Every false positive is a negative", sp.Le(FP, neg))
    tp_r = pf.given("Recall gives TP = r pos", sp.Eq(TP, r * pos)).rhs
    neg_pi = sp.solve(sp.Eq(pi, pos / (pos + neg)), neg)[0]
    pf.obtain("Solving the skew for neg", sp.Eq(neg, neg_pi), "solve")
    prec = tp_r / (tp_r + FP)
    d = pf.obtain("Derivative of precision in FP at fixed TP", sp.diff(prec, FP), "diff")
    pf.true("It is negative, so precision is least at the largest FP, FP = neg", d.is_negative, "sign under positivity assumptions")
    worst = prec.subs(FP, neg_pi)
    pf.equal("At FP = neg precision equals the bound", worst, min_precision(r, pi))
    pf.check("enumeration", "All small confusion matrices", _b1_enumeration())
