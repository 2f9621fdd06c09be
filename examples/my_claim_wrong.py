"""The wrong variant of ``examples/my_claim.py``: the same derivation, a statement it did not prove.

``prtheory verify --claims examples/my_claim_wrong.py`` fails: Y2 states that F1 is the
*arithmetic* mean of precision and recall, but its derivation (the one of Y1) established the
harmonic mean, and the registry compares the statement with what was established.
"""

import sympy as sp

from prtheory.theory import Proof, claim

TP, FP, FN = sp.symbols("TP FP FN", positive=True)


@claim(
    "Y2",
    source="my notes",
    location="eq. 1, misremembered",
    title="F1 in counts is the arithmetic mean of precision and recall (wrong)",
    statement=lambda: sp.Eq(2 * TP / (2 * TP + FP + FN), (TP / (TP + FP) + TP / (TP + FN)) / 2),
    assumptions=("TP, FP, FN > 0",),
)
def y2(pf: Proof) -> None:
    p, r = TP / (TP + FP), TP / (TP + FN)
    f1 = 2 * TP / (2 * TP + FP + FN)
    h = pf.equal(
        "the harmonic mean of P and R, in counts, is F1 in counts", 2 * p * r / (p + r), f1
    )
    pf.establish("so F1 is the harmonic mean", sp.Eq(f1, 2 * p * r / (p + r)), [1])
    pf.check(
        "numeric",
        "F1 at TP = FP = FN = 1",
        (h.subs({TP: 1, FP: 1, FN: 1}) == sp.Rational(1, 2), "1/2"),
    )
