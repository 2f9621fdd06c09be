"""Claim K3: fixing one adjacent mistake raises AUROC by the same amount everywhere and AP by an
amount that depends on where (McDermott et al. 2024, Lemma 1.1 of the notebook)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from fractions import Fraction

import sympy as sp

from prtheory.data.constructed import MCDERMOTT_COUNTER, MCDERMOTT_FIGURE
from prtheory.theory.checks import exhaustive, refuted
from prtheory.theory.common import name, rankings
from prtheory.theory.domain import Domain, Meaning, Structured
from prtheory.theory.mcdermott2024.mistakes import Mistake, adjacent_mistakes, every_mistake
from prtheory.theory.registry import Proof, claim

SOURCE = "McDermott et al. 2024 (author code: the notebook's Lemma 1.1)"

mistake = sp.Symbol("mu")  # one adjacent mistake of one ranking


def _enumerate(point: dict, size: int):
    yield from every_mistake(size)


def _sample(point: dict, rng: random.Random) -> Mistake | None:
    n = rng.randint(9, 60)
    n_pos = rng.randint(1, n - 1)
    labels = [1] * n_pos + [0] * (n - n_pos)
    rng.shuffle(labels)
    found = list(adjacent_mistakes(labels))
    return rng.choice(found) if found else None


MISTAKES = Structured(
    mistake,
    _enumerate,
    _sample,
    "an adjacent mistake (a negative just above a positive) of an untied ranking: every one of "
    "every ranking up to the exhaustive size, then random ones of 9 to 60 items",
)

pair = sp.Symbol("nu")  # two adjacent mistakes of one ranking, the higher first


def _every_pair(point: dict, size: int) -> Iterator[tuple[Mistake, Mistake]]:
    for n in range(3, size + 1):
        for n_pos in range(1, n):
            for labels in rankings(n_pos, n - n_pos):
                found = list(adjacent_mistakes(labels))
                yield from itertools.combinations(found, 2)


def _sample_pair(point: dict, rng: random.Random) -> tuple[Mistake, Mistake] | None:
    one = _sample(point, rng)
    found = list(adjacent_mistakes(one.labels)) if one is not None else []
    if len(found) < 2:
        return None
    a, b = sorted(rng.sample(found, 2), key=lambda mk: mk.rank)
    return a, b


D_AP_UPPER, D_AP_LOWER = (
    name(r"\Delta\mathrm{AP}_{\mathrm{higher}}"),
    name(r"\Delta\mathrm{AP}_{\mathrm{lower}}"),
)
#: Where the notebook's 'AUPRC favors higher scored predictions' is checked (and refuted).
PAIRS = Domain(
    Structured(
        pair,
        _every_pair,
        _sample_pair,
        "two adjacent mistakes of one untied ranking, the higher first: every pair of every "
        "ranking up to the exhaustive size, then random ones of 9 to 60 items",
    ),
    define={
        D_AP_UPPER: Meaning(lambda pt: pt[pair][0].d_ap, "AP gain of fixing the higher mistake"),
        D_AP_LOWER: Meaning(lambda pt: pt[pair][1].d_ap, "AP gain of fixing the lower mistake"),
    },
    exhaustive=8,
    samples=40,
)

D_AUROC, D_AP, P_, N_, R_, T_ = (
    name(n) for n in (r"\Delta\mathrm{AUROC}", r"\Delta\mathrm{AP}", "P", "N", "r", "T")
)
#: The two mistakes of MCDERMOTT_COUNTER: fixing the lower one (ranks 10-11) gains more.
D_AP_HIGH, D_AP_LOW = name(r"\Delta\mathrm{AP}_{4,5}"), name(r"\Delta\mathrm{AP}_{10,11}")


def _counter(rank: int) -> Fraction:
    return next(mk.d_ap for mk in adjacent_mistakes(MCDERMOTT_COUNTER) if mk.rank == rank)


def _field(attr: str):
    return lambda pt: Fraction(getattr(pt[mistake], attr))


K3_STATEMENT = sp.And(
    sp.Eq(D_AUROC, 1 / (P_ * N_)),
    sp.Eq(D_AP, (T_ + 1) / (P_ * R_ * (R_ - 1))),
    sp.Gt(D_AP_LOW, D_AP_HIGH),
    evaluate=False,
)


@claim(
    "K3",
    source=SOURCE,
    location="notebook AUROC_AUPRC_equivalencies.ipynb, Lemma 1.1",
    title="Fixing an adjacent mistake: AUROC gains 1/(PN) anywhere, AP a rank-dependent amount",
    statement=lambda: K3_STATEMENT,
    assumptions=(
        "an untied ranking with P positives and N negatives; an adjacent mistake is a negative "
        "at rank r - 1 just above a positive at rank r, with T positives above both; fixing it "
        "swaps them",
        "the last part is the ranking 0000111110 1 (top first) of prtheory/data/constructed.py: "
        "mistakes at ranks 4-5 and 10-11",
    ),
    domain=Domain(
        MISTAKES,
        define={
            D_AUROC: Meaning(_field("d_auroc"), "AUROC after the fix minus before (WMW counts)"),
            D_AP: Meaning(_field("d_ap"), "AP after the fix minus before (from the definition)"),
            P_: Meaning(_field("pos"), "positives"),
            N_: Meaning(_field("neg"), "negatives"),
            R_: Meaning(_field("rank"), "the positive's rank before the fix"),
            T_: Meaning(_field("above"), "positives above the pair"),
            D_AP_HIGH: Meaning(lambda pt: _counter(5), "the AP gain of the fix at ranks 4-5"),
            D_AP_LOW: Meaning(lambda pt: _counter(11), "the AP gain of the fix at ranks 10-11"),
        },
        exhaustive=8,
        samples=40,
    ),
    verdict="holds as corrected",
    note=(
        "The notebook's Lemma 1.1: 'AUROC improves with all mistakes equally, AUPRC favors "
        "higher scored predictions'. The first half holds exactly: the fix turns one discordant "
        "pair concordant, +1/(P N) wherever it is. The second is true only in part: the fix "
        "raises AP by (T + 1)/(P r (r - 1)) = Prec(r)/(P (r - 1)), the positive's precision "
        "before the fix over P (r - 1). It depends on the position, and at equal precision it is "
        "larger for a higher mistake (it is at most 1/(P r)); but a higher mistake with lower "
        "precision can gain less: in 0000111110 1 (top first) fixing ranks 4-5 gains 1/120 and "
        "ranks 10-11 gain 1/110; the smallest such ranking, which the statement check finds "
        "over every pair of mistakes, is 00000101: ranks 5-6 gain 1/60, ranks 7-8 gain 1/56. "
        "In the notebook's own figure the higher mistake gains more "
        "(1/15 against 1/72)."
    ),
)
def _k3(pf: Proof) -> None:
    pos, neg, rk, above = sp.symbols("P N r T", positive=True)
    pf.value(
        "AUROC counts pairs: the fix turns the one swapped pair from discordant (0) to "
        "concordant (1), and every other pair keeps its order",
        (sp.Integer(1) - 0) / (pos * neg),
        1 / (pos * neg),
        "exact arithmetic",
    )
    pf.equal(
        "AP: only the swapped positive's precision changes, from (T + 1)/r to (T + 1)/(r - 1); "
        "the negative moves below it and no other positive's count or rank changes",
        ((above + 1) / (rk - 1) - (above + 1) / rk) / pos,
        (above + 1) / (pos * rk * (rk - 1)),
    )
    pf.conclude("So the fix raises AUROC by 1/(P N) (step 1)", sp.Eq(D_AUROC, 1 / (P_ * N_)), [1])
    pf.conclude(
        "and AP by (T + 1)/(P r (r - 1)) (step 2)",
        sp.Eq(D_AP, (T_ + 1) / (P_ * R_ * (R_ - 1))),
        [2],
    )
    pf.true(
        "In 0000111110 1: ranks 10-11 (T = 5) gain 6/(6 * 11 * 10) = 1/110, more than ranks 4-5 "
        "(T = 0), 1/(6 * 5 * 4) = 1/120",
        sp.Gt(sp.Rational(6, 6 * 11 * 10), sp.Rational(1, 6 * 5 * 4), evaluate=False),
        "exact comparison",
    )
    pf.conclude(
        "By step 4 at those two mistakes (step 5), the lower one gains more",
        sp.Gt(D_AP_LOW, D_AP_HIGH),
        [4, 5],
    )
    pf.establish("The changes, and the counter-example", K3_STATEMENT, [3, 4, 6])
    gains = {mk.rank: mk.d_ap for mk in adjacent_mistakes(MCDERMOTT_FIGURE)}
    pf.check(
        "exact",
        "The notebook's figure: fixing Mistake 2 (ranks 2-3) gains 1/15, Mistake 1 (ranks 8-9) "
        "1/72; AUROC gains 1/30 for each",
        (
            gains == {3: Fraction(1, 15), 9: Fraction(1, 72)}
            and {mk.d_auroc for mk in adjacent_mistakes(MCDERMOTT_FIGURE)} == {Fraction(1, 30)},
            f"AP gains by rank: {gains}",
        ),
    )
    pf.check(
        "exact",
        "The notebook's 'AUPRC favors higher scored predictions' as a statement: of every two "
        "adjacent mistakes of a ranking, fixing the higher gains more AP",
        refuted(sp.Gt(D_AP_UPPER, D_AP_LOWER), PAIRS),
    )
    pf.check(
        "enumeration",
        "At equal precision before the fix, the higher mistake of a ranking gains more",
        exhaustive(
            (
                (a, b)
                for n in range(3, 10)
                for n_pos in range(1, n)
                for labels in rankings(n_pos, n - n_pos)
                for a in adjacent_mistakes(labels)
                for b in adjacent_mistakes(labels)
                if a.rank < b.rank and a.precision == b.precision
            ),
            lambda c: c[0].d_ap > c[1].d_ap,
            "every pair of mistakes with equal precision in every untied ranking of 3 to 9 items",
        ),
    )
