"""The wrong variant of ``examples/my_claim.py``: ``prtheory verify --claims
examples/my_claim_wrong.py`` fails.

Y2 states that F1 is the *arithmetic* mean of precision and recall, over the same domain. Two
things fail it, each on its own: the registry evaluates the statement at the domain's points and
finds it false (TP = FN = 1, FP = 0: F1 = 2/3, the mean of P = 1 and R = 1/2 is 3/4); and the
derivation (the one of Y1) established the harmonic mean, which is not what the statement says.
"""

import sympy as sp

from prtheory.theory import Proof, claim
from prtheory.theory.domain import Domain, Integer

TP, FP, FN = sp.symbols("TP FP FN", positive=True)
P, R = sp.symbols("P R", positive=True)


@claim(
    "Y2",
    source="my notes",
    location="eq. 1, misremembered",
    title="F1 in counts is the arithmetic mean of precision and recall (wrong)",
    statement=lambda: sp.Eq(2 * TP / (2 * TP + FP + FN), (P + R) / 2),
    assumptions=("TP >= 1, FP >= 0, FN >= 0; P = TP/(TP + FP), R = TP/(TP + FN)",),
    domain=Domain(
        Integer(TP, 1),
        Integer(FP, 0),
        Integer(FN, 0),
        define={P: TP / (TP + FP), R: TP / (TP + FN)},
        exhaustive=12,
    ),
)
def y2(pf: Proof) -> None:
    p, r = TP / (TP + FP), TP / (TP + FN)
    f1 = 2 * TP / (2 * TP + FP + FN)
    pf.equal("the harmonic mean of P and R, in counts, is F1 in counts", 2 * p * r / (p + r), f1)
    pf.establish("so F1 is the harmonic mean", sp.Eq(f1, 2 * P * R / (P + R)), [1])
