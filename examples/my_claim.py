"""A claim of your own, verified by prtheory's rules: ``prtheory verify --claims examples/my_claim.py``.

Claim Y1: F1 written in counts is the harmonic mean of precision and recall,
2 TP / (2 TP + FP + FN) = 2 P R / (P + R). The derivation substitutes the definitions of P and R,
simplifies, and *establishes* the statement; two independent kinds of check follow (sympy is
one, exact rational arithmetic at random counts is the other). A statement that differs from what
the derivation established fails the claim: ``examples/my_claim_wrong.py`` states the arithmetic
mean instead and is rejected.
"""

from fractions import Fraction

import sympy as sp

from prtheory.theory import Proof, claim
from prtheory.theory.checks import exact_identity, exhaustive, rational_sampler

TP, FP, FN = sp.symbols("TP FP FN", positive=True)
P, R = sp.symbols("P R", positive=True)


def f1_counts():
    return 2 * TP / (2 * TP + FP + FN)


def harmonic(p, r):
    return 2 * p * r / (p + r)


@claim(
    "Y1",
    source="my notes",
    location="eq. 1",
    title="F1 in counts is the harmonic mean of precision and recall",
    statement=lambda: sp.Eq(f1_counts(), harmonic(TP / (TP + FP), TP / (TP + FN))),
    assumptions=("TP, FP, FN > 0",),
)
def y1(pf: Proof) -> None:
    p = pf.given("precision", sp.Eq(P, TP / (TP + FP))).rhs
    r = pf.given("recall", sp.Eq(R, TP / (TP + FN))).rhs
    h = harmonic(p, r)
    pf.equal("the harmonic mean of P and R, in counts, is F1 in counts", h, f1_counts())
    pf.establish("so F1 is the harmonic mean", sp.Eq(f1_counts(), h), [3])
    sampler = rational_sampler({TP: (0, 50), FP: (0, 50), FN: (0, 50)})
    pf.check(
        "exact", "both sides at random rational counts", exact_identity(f1_counts(), h, sampler)
    )
    pf.check(
        "enumeration",
        "integer counts 1..12, in Fractions without sympy",
        exhaustive(
            ((tp, fp, fn) for tp in range(1, 13) for fp in range(1, 13) for fn in range(1, 13)),
            lambda c: (
                Fraction(2 * c[0], 2 * c[0] + c[1] + c[2])
                == 2
                * Fraction(c[0], c[0] + c[1])
                * Fraction(c[0], c[0] + c[2])
                / (Fraction(c[0], c[0] + c[1]) + Fraction(c[0], c[0] + c[2]))
            ),
            "TP, FP, FN in 1..12",
        ),
    )
