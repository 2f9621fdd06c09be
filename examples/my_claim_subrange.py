"""A claim that holds only on part of its domain: ``prtheory verify --claims
examples/my_claim_subrange.py`` fails.

Y3 states that the least AP of a ranking with one negative is at least 1 - 2/pos, for every
pos >= 1. It holds for pos <= 9 and is false from pos = 10 (AP_min(10, 1) = 0.798 < 0.8). The
author's checks stop at pos = 9 and pass, and the derivation's last step restates a lemma; none
of that matters: the registry evaluates the statement itself over the declared domain, with the
least AP minimised over every ranking (``ap_min_meaning``), and the point pos = 10 refutes
it. The lemma is prose (it rests on an unrelated identity), so the claim is not proved either.
"""

from fractions import Fraction

import sympy as sp

from prtheory.theory import Proof, claim
from prtheory.theory.boyd2012.ap_min import ap_min_meaning, least_ap
from prtheory.theory.checks import exhaustive
from prtheory.theory.domain import Domain, Integer

pos, neg = sp.symbols("pos neg", positive=True, integer=True)
AP_MIN = sp.Symbol("AP_min")
STATEMENT = sp.Ge(AP_MIN, 1 - 2 / pos)


@claim(
    "Y3",
    source="my notes",
    location="eq. 3",
    title="AP_min(pos, 1) >= 1 - 2/pos (true only for pos <= 9)",
    statement=lambda: STATEMENT,
    assumptions=("pos >= 1, neg = 1",),
    domain=Domain(
        Integer(pos, 1),
        Integer(neg, 1, 1),
        define={AP_MIN: ap_min_meaning(pos, neg)},
        exhaustive=9,  # every pos <= 9 is checked, and beyond it pos = 10, 11, ..., 2^k, 10^6
    ),
)
def y3(pf: Proof) -> None:
    pf.equal("an identity unrelated to the statement", (pos + 1) ** 2, pos**2 + 2 * pos + 1)
    pf.conclude("so, in words, AP_min is at least 1 - 2/pos", STATEMENT, [1])
    pf.establish("restated", STATEMENT, [2])
    pf.check(
        "enumeration",
        "AP_min(pos, 1) >= 1 - 2/pos for pos <= 9 (where it holds)",
        exhaustive(range(1, 10), lambda k: least_ap(k, 1) >= 1 - Fraction(2, k), "1 <= pos <= 9"),
    )
