"""Claims B8 and B9: AUCNPR's range and order, and random guessing's AUCPR and AUCNPR."""

from __future__ import annotations

import itertools

import mpmath
import sympy as sp

from prtheory.theory.boyd2012.formulas import (
    FP,
    M_MIN,
    NPR,
    SKEW,
    SOURCE,
    TP,
    UNIT_HOW,
    UNIT_SKEW,
    A,
    a,
    aucpr_min,
    aucpr_min_range,
    b,
    min_precision,
    mp_aucpr_min,
    neg,
    pi,
    pos,
    r,
    skew_sampler,
    sum_value,
    t,
    unit_branch,
    worst_ranking,
)
from prtheory.theory.checks import interval_function, interval_sign, mp_identity
from prtheory.theory.common import dg_aucpr, name, rankings
from prtheory.theory.domain import Domain, Real
from prtheory.theory.registry import Proof, claim

# ==== B8 ======================================================================================


def _b8_enumeration(max_total: int = 9) -> tuple[bool, str]:
    """Every ranking's Davis-Goadrich AUCNPR lies in [0, 1]; worst 0, best 1; order as AUCPR."""
    count = 0
    with mpmath.workdps(40):
        eps = mpmath.mpf(10) ** -35
        for n_pos in range(1, max_total):
            for n_neg in range(1, max_total - n_pos + 1):
                m = mp_aucpr_min(mpmath.mpf(n_pos) / (n_pos + n_neg))
                pairs = []
                for lab in rankings(n_pos, n_neg):
                    area = dg_aucpr(lab)
                    pairs.append((area, (area - m) / (1 - m), lab))
                    count += 1
                for _, score, lab in pairs:
                    if not -eps <= score <= 1 + eps:
                        return False, f"AUCNPR {score} outside [0, 1] for {lab}"
                    if lab == worst_ranking(n_pos, n_neg) and abs(score) > eps:
                        return False, f"worst ranking scores {score}"
                    if lab == worst_ranking(n_pos, n_neg)[::-1] and abs(score - 1) > eps:
                        return False, f"perfect ranking scores {score}"
                pairs.sort(key=lambda x: x[0])
                for (a1, s1, _), (a2, s2, lab2) in itertools.pairwise(pairs):
                    if a2 - a1 > eps and not s2 - s1 > 0:
                        return False, f"order differs at {lab2}"
    return True, (
        f"all {count} rankings with pos, neg >= 1 and pos + neg <= {max_total}: AUCNPR of the "
        "Davis-Goadrich area (mpmath, 40 digits) in [0, 1], 0 for the worst and 1 for the perfect "
        "ranking, and sorting by AUCNPR sorts by AUCPR"
    )


#: AUCNPR as a function of an AUCPR value x at the test set's skew and recall range.
AUCNPR = sp.Function(r"\mathrm{AUCNPR}")
M_MAX = name(r"\mathrm{AUCPR}_{\max}")
x_ = sp.Symbol("x", real=True)  # an AUCPR value


@claim(
    "B8",
    source=f"{SOURCE} (000 §3, 001)",
    location="§3, AUCNPR",
    title="AUCNPR has range [0, 1] at every skew and orders classifiers as AUCPR does",
    statement=lambda: sp.And(
        sp.Eq(AUCNPR(M_MIN), 0, evaluate=False),
        sp.Eq(AUCNPR(M_MAX), 1, evaluate=False),
        sp.Gt(M_MAX - M_MIN, 0, evaluate=False),
        sp.Gt(sp.Derivative(AUCNPR(x_), x_), 0, evaluate=False),
        evaluate=False,
    ),
    assumptions=(
        "0 < pi < 1; AUCPR of a Davis-Goadrich curve over [a, b] (0 <= a < b <= 1) on one test set",
        "conventions: AUCNPR = 0 at pi = 0 and 1 at pi = 1",
    ),
    domain=Domain(
        SKEW,
        Real(a, 0, 1, open_hi=True),
        Real(b, a, 1, open_lo=True),
        Real(x_, 0, 1),
        define={
            AUCNPR: sp.Lambda(x_, (x_ - M_MIN) / (M_MAX - M_MIN)),
            M_MIN: aucpr_min_range(a, b, pi),  # B7
            M_MAX: b - a,  # B7
        },
        samples=60,
    ),
)
def _b8(pf: Proof) -> None:
    lo, hi = aucpr_min_range(a, b, pi), b - a
    score = (A - lo) / (hi - lo)
    pf.given(
        "Definition, with AUCPR_min over [a, b] from B7 and AUCPR_max = b - a",
        sp.Tuple(
            sp.Eq(NPR, (A - M_MIN) / (M_MAX - M_MIN)),
            sp.Eq(M_MIN, lo),
            sp.Eq(M_MAX, hi),
        ),
    )
    pf.given(
        "Every point of a Davis-Goadrich curve is a convex combination of two valid matrices, so "
        "FP <= neg and Theorem 1 (B1) applies; precision is at most 1. Integrating over [a, b], "
        "every AUCPR lies in [AUCPR_min, AUCPR_max]",
        sp.And(sp.Le(M_MIN, A), sp.Le(A, M_MAX)),
    )
    defined = len(pf.steps)
    pf.equal(
        "The width of the range is the integral of 1 - bound, and 1 - bound is",
        1 - min_precision(r, pi),
        (1 - pi) / (1 - pi + pi * r),
    )
    width = sp.Integral(1 - min_precision(r, pi), (r, a, b))
    e = sp.Symbol("e", positive=True)
    pf.value("sympy integrates it", width, hi - lo, "integrate", branch=unit_branch)
    pf.sign(
        "The integrand is positive on a < r < b and b > a, so the width is positive: "
        "AUCPR_max > AUCPR_min",
        width,
        ">",
        {b: a + e, pi: 1 / (1 + t)},
        how="sign with b = a + e, pi = 1/(1+t); e, t > 0",
    )
    pf.value("and so is its reciprocal", 1 / width, 1 / (hi - lo), "integrate", branch=unit_branch)
    pf.sign(
        "(positive, as the reciprocal of a positive integral)",
        1 / width,
        ">",
        {b: a + e, pi: 1 / (1 + t)},
        how="sign with b = a + e, pi = 1/(1+t); e, t > 0",
    )
    width_steps = len(pf.steps)
    pf.equal("Over [0, 1] the width is", 1 - aucpr_min(pi), -(1 - pi) * sp.log(1 - pi) / pi)
    pf.sign(
        "positive at every skew in (0, 1)",
        -(1 - pi) * sp.log(1 - pi) / pi,
        ">",
        UNIT_SKEW,
        how=UNIT_HOW,
    )
    pf.value(
        "The derivative of AUCNPR in AUCPR is 1/(AUCPR_max - AUCPR_min) > 0: strictly increasing, "
        "so on one test set (fixed pi, a, b) AUCNPR orders classifiers exactly as AUCPR does",
        sp.Derivative((x_ - lo) / (hi - lo), x_),
        1 / (hi - lo),
        "diff",
    )
    slope = len(pf.steps)
    pf.equal("At AUCPR = AUCPR_min (the worst ranking, B2) it is 0", score.subs(A, lo), 0)
    pf.equal("At AUCPR = AUCPR_max (the perfect ranking) it is 1", score.subs(A, hi), 1)
    ends = len(pf.steps)
    pf.value(
        "At pi -> 1 the range [0, 1] closes: the width tends to",
        sp.Limit(1 - aucpr_min(pi), pi, 1, "-"),
        0,
        "limit",
    )
    pf.given(
        "So the definition is 0/0 at pi = 1, where the source sets AUCNPR = 1; at pi = 0 there are "
        "no positives and no PR curve, and the source sets AUCNPR = 0 (conventions, not results)",
        sp.Tuple(
            sp.Eq(name(r"\mathrm{AUCNPR}(\pi = 1)"), 1), sp.Eq(name(r"\mathrm{AUCNPR}(\pi = 0)"), 0)
        ),
    )
    pf.establish(
        "Its values at both ends of the range, a positive width, and a positive derivative: "
        "AUCNPR runs over [0, 1] and increases with AUCPR",
        sp.And(
            sp.Eq(AUCNPR(M_MIN), 0, evaluate=False),
            sp.Eq(AUCNPR(M_MAX), 1, evaluate=False),
            sp.Gt(M_MAX - M_MIN, 0, evaluate=False),
            sp.Gt(sp.Derivative(AUCNPR(x_), x_), 0, evaluate=False),
            evaluate=False,
        ),
        [*range(defined + 2, width_steps + 1), slope, ends - 1, ends],
    )
    pf.check("enumeration", "All small rankings, Davis-Goadrich areas", _b8_enumeration())


# ==== B9 ======================================================================================


#: Random guessing: precision at recall r with expected counts TP = r pos, FP = r neg, in pi.
RANDOM_PRECISION = r * pi / (r * pi + r * (1 - pi))
AUCPR_RANDOM = name(r"\mathrm{AUCPR}_{random}")


@claim(
    "B9",
    source=f"{SOURCE} (000 §3, 001)",
    location="§3, random guessing",
    title="Random guessing: AUCPR = pi; normalising by it can go negative; its AUCNPR",
    statement=lambda: sp.And(
        sp.Eq(AUCPR_RANDOM, pi),
        sp.Lt((aucpr_min(pi) - pi) / (1 - pi), 0),
        sp.Eq((pi - aucpr_min(pi)) / (1 - aucpr_min(pi)), 1 + pi / sp.log(1 - pi), evaluate=False),
        evaluate=False,
    ),
    assumptions=(
        "0 < pi < 1; random guessing labels each example positive with probability q, "
        "independently of its class",
    ),
    domain=Domain(
        SKEW, define={AUCPR_RANDOM: sp.Integral(RANDOM_PRECISION, (r, 0, 1))}, samples=30
    ),
    note="The AUCNPR of random guessing is 1 + pi/ln(1 - pi): not constant (it rises from 0 at "
    "pi -> 0 to 1 at pi -> 1; 1 - 1/(2 ln 2) = 0.279 at pi = 1/2), which is the sense in which "
    "the slides call it not simple.",
)
def _b9(pf: Proof) -> None:
    q = sp.Symbol("q", positive=True)
    pf.given(
        "Expected counts of random guessing at rate q",
        sp.Tuple(sp.Eq(TP, q * pos), sp.Eq(FP, q * neg)),
    )
    pf.equal(
        "Its precision is the skew at every q (and its recall is q)",
        (TP / (TP + FP)).subs({TP: q * pos, FP: q * neg}),
        pos / (pos + neg),
    )
    pf.equal(
        "Davis-Goadrich interpolation from (TP, FP) = (0, 0) to (pos, neg) gives the same line",
        (TP / (TP + TP * neg / pos)),
        pos / (pos + neg),
    )
    random_area = pf.value(
        "Area under the random classifier's precision over recall [0, 1]",
        sp.Integral(RANDOM_PRECISION, (r, 0, 1)),
        pi,
        "integrate",
    )
    area_step = len(pf.steps)
    g = -sp.log(1 - pi) - pi
    worst_vs_random = pf.equal(
        "Normalising by random guessing, (AUCPR - pi)/(1 - pi), scores the worst ranking",
        (aucpr_min(pi) - pi) / (1 - pi),
        -g / pi,
    )
    k = sp.Symbol("k", positive=True, integer=True)
    series = sp.Sum(pi ** (k - 1) / k, (k, 2, sp.oo))
    sum_value(
        pf,
        "g(pi)/pi = (-ln(1 - pi) - pi)/pi is a series of positive terms (as in B5)",
        pi ** (k - 1) / k,
        (k, 2, sp.oo),
        (pi - aucpr_min(pi)) / (1 - pi),
    )
    pf.true(
        "Its terms are positive, so it is positive",
        sp.Gt(series, 0, evaluate=False),
        "sign of the terms (k >= 2, 0 < pi)",
    )
    below_zero = len(pf.steps)
    pf.obtain(
        "For example at pi = 1/2",
        sp.Eq(
            name(r"\frac{\mathrm{AUCPR}_{\min} - \pi}{1 - \pi}"),
            sp.nsimplify(worst_vs_random.subs(pi, sp.Rational(1, 2))),
        ),
        "subs",
    )
    rnd = pf.equal(
        "AUCNPR of random guessing",
        (random_area - aucpr_min(pi)) / (1 - aucpr_min(pi)),
        1 + pi / sp.log(1 - pi),
    )
    rnd_step = len(pf.steps)
    pf.value("It tends to 0 as pi -> 0+", sp.Limit(rnd, pi, 0, "+"), 0, "limit")
    pf.value("and to 1 as pi -> 1-", sp.Limit(rnd, pi, 1, "-"), 1, "limit")
    pf.obtain(
        "At pi = 1/2",
        sp.Eq(name(r"\mathrm{AUCNPR}_{random}(1/2)"), rnd.subs(pi, sp.Rational(1, 2))),
        "subs",
    )
    pf.establish(
        "Random guessing's area, the worst ranking's negative score (minus a positive series), "
        "and random guessing's AUCNPR",
        sp.And(
            sp.Eq(AUCPR_RANDOM, random_area),
            sp.Lt((aucpr_min(pi) - pi) / (1 - pi), 0, evaluate=False),
            sp.Eq((random_area - aucpr_min(pi)) / (1 - aucpr_min(pi)), rnd, evaluate=False),
            evaluate=False,
        ),
        [area_step, below_zero - 1, below_zero, rnd_step],
    )
    pf.check(
        "numeric",
        "AUCNPR of random guessing from its definition vs 1 + pi/ln(1 - pi)",
        mp_identity(
            (pi - aucpr_min(pi)) / (1 - aucpr_min(pi)), 1 + pi / sp.log(1 - pi), skew_sampler()
        ),
    )
    pf.check(
        "interval",
        "pi - AUCPR_min > 0 (random guessing beats the worst ranking), as printed",
        interval_sign(
            interval_function([pi], pi - aucpr_min(pi)),
            [(sp.Rational(1, 100), 1 - sp.Rational(1, 10**9))],
            strict=True,
            max_depth=24,
        ),
    )
