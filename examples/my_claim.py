"""A claim of your own, verified by prtheory's rules: ``prtheory verify --claims examples/my_claim.py``.

Claim Y1: F1 written in counts is the harmonic mean of precision and recall,
2 TP / (2 TP + FP + FN) = 2 P R / (P + R). Three things make it pass:

* its **domain** says over what the statement holds, in a form the registry evaluates: every
  contingency table with TP >= 1, FP >= 0, FN >= 0, and what P and R mean there;
* the registry evaluates the **statement itself** over that domain (here it certifies it: both
  sides are rational functions of the counts, and an exact grid of points fixes the identity);
* the derivation's **final step** is checked by sympy from verified steps: it restates the
  identity sympy verified in step 2.

``examples/my_claim_wrong.py`` states the arithmetic mean instead and is rejected.
"""

from fractions import Fraction

import sympy as sp

from prtheory.theory import Proof, claim
from prtheory.theory.checks import exhaustive
from prtheory.theory.domain import Domain, Integer

TP, FP, FN = sp.symbols("TP FP FN", positive=True)
P, R = sp.symbols("P R", positive=True)


def f1_counts():
    return 2 * TP / (2 * TP + FP + FN)


def harmonic(p, r):
    return 2 * p * r / (p + r)


#: Every contingency table (TP >= 1, FP >= 0, FN >= 0), with precision and recall defined from it.
TABLES = Domain(
    Integer(TP, 1),
    Integer(FP, 0),
    Integer(FN, 0),
    define={P: TP / (TP + FP), R: TP / (TP + FN)},
    exhaustive=12,  # every table with TP + FP + FN <= 12, then sampled ones up to 10^6
)


@claim(
    "Y1",
    source="my notes",
    location="eq. 1",
    title="F1 in counts is the harmonic mean of precision and recall",
    statement=lambda: sp.Eq(f1_counts(), harmonic(P, R)),
    assumptions=("TP >= 1, FP >= 0, FN >= 0; P = TP/(TP + FP), R = TP/(TP + FN)",),
    domain=TABLES,
)
def y1(pf: Proof) -> None:
    pf.given("precision", sp.Eq(P, TP / (TP + FP)))  # shown for the reader; the domain defines P
    h = harmonic(TP / (TP + FP), TP / (TP + FN))
    pf.equal("the harmonic mean of P and R, in counts, is F1 in counts", h, f1_counts())
    pf.establish("so F1 is the harmonic mean", sp.Eq(f1_counts(), harmonic(P, R)), [2])
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
