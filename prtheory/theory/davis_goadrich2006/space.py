"""Claims D1-D3: ROC space and PR space hold the same confusion matrices, dominance carries over,
and the ROC convex hull gives the achievable PR curve (Davis & Goadrich 2006, §3).

Counts: ``P`` positives, ``N`` negatives; a confusion matrix ``(TP, FP)`` with ``FN = P - TP``
and ``TN = N - FP``; recall ``r = TP/P``, precision ``p = TP/(TP + FP)``, false positive rate
``FP/N``.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import sympy as sp

from prtheory.oracle.achievable import achievable_pr_curve_of_counts
from prtheory.theory.checks import exact_identity, integer_sampler
from prtheory.theory.common import scored, tied_rankings
from prtheory.theory.davis_goadrich2006.curves import (
    dominates_pr,
    dominates_roc,
    pr_precision_at,
    roc_vertices,
)
from prtheory.theory.domain import Domain, Integer, Real
from prtheory.theory.registry import Proof, claim

SOURCE = "Davis & Goadrich 2006 (paper)"

P, N = sp.symbols("P N", positive=True, integer=True)
TP = sp.Symbol("TP", positive=True, integer=True)
FP = sp.Symbol("FP", nonnegative=True, integer=True)
r, p, fpr = sp.symbols("r p FPR", positive=True)
t = sp.Symbol("t", positive=True)  # a TP count along a curve (real under interpolation)
F_I, F_II = sp.symbols("FP_I FP_II", nonnegative=True)


def precision(tp: sp.Expr, fp: sp.Expr) -> sp.Expr:
    """Precision ``TP/(TP + FP)`` (D1).

    Parameters
    ----------
    tp, fp : sympy expression
        The counts.

    Returns
    -------
    sympy expression
        Precision.

    Examples
    --------
    >>> import sympy as sp
    >>> from prtheory.theory.davis_goadrich2006.space import precision
    >>> precision(sp.Integer(3), sp.Integer(1))
    3/4
    """
    return tp / (tp + fp)


# ---- D1 ---------------------------------------------------------------------------------------
D1_STATEMENT = sp.And(sp.Eq(P * r, TP), sp.Eq(P * r * (1 - p) / p, FP), sp.Eq(N * fpr, FP))


def _pr_points_are_one_to_one(max_total: int = 10) -> tuple[bool, str]:
    """For every P >= 1, N >= 1 with P + N <= max_total: the PR points of the matrices with
    TP >= 1 are pairwise distinct, and the matrices with TP = 0 < FP all share one point."""
    cases = 0
    for pos in range(1, max_total):
        for neg in range(1, max_total - pos + 1):
            seen: dict[tuple[Fraction, Fraction], tuple[int, int]] = {}
            for tp in range(1, pos + 1):
                for fp in range(neg + 1):
                    point = (Fraction(tp, pos), Fraction(tp, tp + fp))
                    if point in seen:
                        return False, f"P = {pos}, N = {neg}: {seen[point]} and {(tp, fp)} collide"
                    seen[point] = (tp, fp)
                    cases += 1
            zero = {(Fraction(0), Fraction(0, fp)) for fp in range(1, neg + 1)}
            if len(zero) != 1:
                return False, f"P = {pos}, N = {neg}: TP = 0 gives {len(zero)} PR points"
    return True, (
        f"{cases} matrices with TP >= 1 (P + N <= {max_total}) have distinct PR points; "
        "with TP = 0 every FP >= 1 gives the one point (recall 0, precision 0)"
    )


@claim(
    "D1",
    source=SOURCE,
    location="§3, Theorem 3.1",
    title="With Recall != 0, a PR point and an ROC point each determine the confusion matrix",
    statement=lambda: D1_STATEMENT,
    assumptions=(
        "a data set with P >= 1 positives and N >= 1 negatives; a confusion matrix with TP >= 1",
    ),
    domain=Domain(
        Integer(P, 1),
        Integer(N, 1),
        Integer(TP, 1, P),
        Integer(FP, 0, N),
        define={
            r: TP / P,
            p: precision(TP, FP),
            fpr: FP / N,
        },
        exhaustive=6,
        samples=30,
    ),
    note=(
        "Theorem 3.1 as printed in the author copy (rocpr.pdf). The proceedings copy's proof says "
        "'FN' twice where it means TN (given the other three entries and the class sizes, TN is "
        "determined). At TP = 0 the PR point does not determine FP: every FP >= 1 has precision "
        "0 at recall 0, which is why the theorem needs Recall != 0."
    ),
)
def _d1(pf: Proof) -> None:
    pf.given(
        "Recall, precision and the false positive rate of a matrix of a data set with P "
        "positives and N negatives",
        sp.Tuple(sp.Eq(r, TP / P), sp.Eq(p, precision(TP, FP)), sp.Eq(fpr, FP / N)),
    )
    pf.equal("TP = r P", P * (TP / P), TP)
    pf.equal(
        "FP = r P (1 - p)/p: the predicted positives TP/p less TP",
        P * (TP / P) * (1 - precision(TP, FP)) / precision(TP, FP),
        FP,
    )
    pf.equal("and from ROC space, FP = N FPR (TP = P TPR, TPR being recall)", N * (FP / N), FP)
    fp0 = sp.Symbol("FP", positive=True)
    pf.solved(
        "At TP = 0 (recall 0) the precision 0/(0 + FP) is 0 for every FP > 0: the PR point does "
        "not determine FP, hence Recall != 0",
        sp.Eq(precision(sp.Integer(0), fp0), 0),
        fp0,
        sp.Interval.open(0, sp.oo),
        sp.Interval.open(0, sp.oo),
    )
    pf.establish(
        "The matrix from either point (and FN = P - TP, TN = N - FP with it)",
        D1_STATEMENT,
        [2, 3, 4],
    )
    pf.check(
        "enumeration",
        "PR points of every matrix of small data sets",
        _pr_points_are_one_to_one(),
    )
    pf.check(
        "exact",
        "FP = rP(1 - p)/p at random counts, in exact rational arithmetic",
        exact_identity(
            P * (TP / P) * (1 - precision(TP, FP)) / precision(TP, FP),
            FP,
            integer_sampler({P: (1, 10**6), TP: (1, 10**6), FP: (0, 10**6)}),
        ),
    )


# ---- D2 ---------------------------------------------------------------------------------------
#: The positive factor relating the precision gap to the FP gap at one recall (TP = t > 0).
GAP = t / ((t + F_I) * (t + F_II))
p_I, p_II = sp.symbols("p_I p_II", positive=True)  # the curves' precisions at TP = t
D2_STATEMENT = sp.And(sp.Eq(p_I - p_II, (F_II - F_I) * GAP), sp.Gt(GAP, 0))


def _dominance_agrees(sizes: tuple[tuple[int, int], ...]) -> tuple[bool, str]:
    """Every ordered pair of rankings (ties included) of the given class sizes: curve I dominates
    curve II in ROC space (TPR at every FPR, piecewise linear) iff it does in PR space (precision
    at every recall under Davis-Goadrich interpolation, read from the PR points)."""
    pairs = both = 0
    for n_pos, n_neg in sizes:
        curves = [roc_vertices(*scored(b)) for b in tied_rankings(n_pos, n_neg)]
        for one, two in itertools.product(curves, curves):
            roc, pr = dominates_roc(one, two), dominates_pr(one, two)
            if roc != pr:
                return False, f"ROC dominance {roc}, PR dominance {pr}: {one} vs {two}"
            pairs += 1
            both += roc
    shown = ", ".join(f"({a}, {b})" for a, b in sizes)
    return True, (
        f"{pairs} ordered pairs of tied rankings with (P, N) in {shown} agree "
        f"({both} dominate in both spaces, {pairs - both} in neither)"
    )


@claim(
    "D2",
    source=SOURCE,
    location="§3, Theorem 3.2",
    title="For fixed P and N, a curve dominates in ROC space iff it dominates in PR space",
    statement=lambda: D2_STATEMENT,
    assumptions=(
        "two curves of one data set (P, N fixed), compared at one recall TP/P = t/P > 0 (one TPR)",
        "curve I has FP_I false positives there, curve II has FP_II (the least FP at which each "
        "reaches TP = t; real along an interpolated segment)",
        "dominance in ROC space: FP_I <= FP_II at every t (the TPR of I at every FPR is at "
        "least II's); in PR space: precision_I >= precision_II at every recall",
    ),
    domain=Domain(
        Integer(P, 1),
        Integer(N, 1),
        Real(t, 0, P, open_lo=True),
        Real(F_I, 0, N),
        Real(F_II, 0, N),
        define={p_I: precision(t, F_I), p_II: precision(t, F_II)},
        exhaustive=6,
        samples=80,
    ),
    note=(
        "At equal recall the precision gap is the FP gap times a positive factor, so at every "
        "recall the two orders agree, and so do the curves' dominance. The printed proof of "
        "Claim 2 writes 'FPR(A) < TPR(B)' for FPR(A) < FPR(B)."
    ),
)
def _d2(pf: Proof) -> None:
    pf.equal(
        "Precision of I minus precision of II at the same TP = t",
        precision(t, F_I) - precision(t, F_II),
        (F_II - F_I) * GAP,
    )
    pf.sign("The factor t/((t + FP_I)(t + FP_II)) is positive", GAP)
    pf.establish(
        "The precision gap has the sign of FP_II - FP_I: I is above II in PR space at recall "
        "t/P exactly where it is left of (above) II in ROC space at TPR t/P",
        D2_STATEMENT,
        [1, 2],
    )
    pf.check(
        "enumeration",
        "ROC dominance and PR dominance of every pair of small rankings, ties included",
        _dominance_agrees(((1, 3), (2, 2), (3, 1))),
    )


# ---- D3 ---------------------------------------------------------------------------------------
T_A = sp.Symbol("TP_A", nonnegative=True)
F_A = sp.Symbol("FP_A", nonnegative=True)
s = sp.Symbol("s", nonnegative=True)  # the hull edge's local skew (FP per TP)
u = sp.Symbol("u", positive=True)  # TP past the vertex A: t = TP_A + u
e = sp.Symbol("e", nonnegative=True)  # a valid curve's FP in excess of the hull's at t
HULL_FP = F_A + s * u
EXCESS_GAP = e * (T_A + u) / ((T_A + u + HULL_FP) * (T_A + u + HULL_FP + e))
D3_STATEMENT = sp.And(
    sp.Eq(precision(T_A + u, HULL_FP) - precision(T_A + u, HULL_FP + e), EXCESS_GAP),
    sp.Ge(EXCESS_GAP, 0),
)


def _hull_dominates_every_chain(seeds: int = 40) -> tuple[bool, str]:
    """Random small point sets (seeded): the oracle's achievable curve is on or above every
    valid curve through the points (each chain from (0, 0) to (N, P) with FP and TP
    non-decreasing) at every TP where either bends and at the one-sided limits there, read in
    PR space."""
    rng = random.Random(2006)
    chains = 0
    for _ in range(seeds):
        pos, neg = rng.randint(2, 5), rng.randint(2, 6)
        pts = sorted({(rng.randint(0, neg), rng.randint(1, pos)) for _ in range(rng.randint(1, 5))})
        curve = achievable_pr_curve_of_counts(
            [b for _, b in pts], [a for a, _ in pts], pos=pos, neg=neg
        )
        hull = [(int(f), int(tp)) for f, tp in zip(curve.fp, curve.tp, strict=True)]
        for size in range(len(pts) + 1):
            for subset in itertools.combinations(pts, size):
                chain = [(0, 0), *subset, (neg, pos)]
                if any(b[1] < a[1] for a, b in itertools.pairwise(chain)):
                    continue
                chains += 1
                if not dominates_pr(hull, chain):
                    return False, f"P = {pos}, N = {neg}: the chain {chain} is above the curve"
                for tp in {Fraction(b) for _, b in chain if b > 0}:
                    if curve.precision_at(tp / pos) != pr_precision_at(hull, tp):
                        return False, f"the oracle's precision at TP = {tp} is not the hull's"
    return True, f"{chains} valid curves through {seeds} random point sets: none above the curve"


@claim(
    "D3",
    source=SOURCE,
    location="§3, Corollary 3.1",
    title="The ROC convex hull mapped to PR space is the achievable PR curve, which dominates",
    statement=lambda: D3_STATEMENT,
    assumptions=(
        "A = (FP_A, TP_A) is a vertex of the ROC convex hull of the points together with (0, 0) "
        "and (N, P); the hull edge leaving A has local skew s >= 0 (FP per TP)",
        "at TP = TP_A + u (u > 0, on that edge) the hull has FP_A + s u false positives; every "
        "valid curve through the points lies on or below the hull in ROC space, so it has "
        "FP_A + s u + e with e >= 0 there",
        "the hull is achievable: between A and B a classifier that follows B with probability "
        "lambda and A otherwise has the expected counts (1 - lambda) A + lambda B (§4)",
    ),
    domain=Domain(
        Integer(P, 1),
        Integer(N, 1),
        Real(T_A, 0, P),
        Real(u, 0, P - T_A, open_lo=True),
        Real(F_A, 0, N),
        Real(s, 0, N),
        Real(e, 0, N),
        where=(sp.Le(T_A, P - 1),),
        exhaustive=4,
        samples=80,
    ),
    note=(
        "The precision of the hull's interpolation at a recall exceeds that of any valid curve "
        "there by e t/((t + FP_hull)(t + FP_hull + e)) >= 0. Interpolating the hull in PR space "
        "needs Davis & Goadrich's rule (D4), not straight lines; 'valid' curves are those "
        "through the given points interpolated the same way (in ROC space: straight lines)."
    ),
)
def _d3(pf: Proof) -> None:
    lam = sp.Symbol("lambda", nonnegative=True)
    t_b, f_b = sp.symbols("TP_B FP_B", nonnegative=True)
    pf.equal(
        "Achievable: a classifier using B with probability lambda and A otherwise has expected "
        "counts on the chord, FP - FP_A = s (TP - TP_A) with s = (FP_B - FP_A)/(TP_B - TP_A)",
        (lam * f_b + (1 - lam) * F_A) - F_A,
        (f_b - F_A) / (t_b - T_A) * ((lam * t_b + (1 - lam) * T_A) - T_A),
    )
    gap = pf.equal(
        "Precision of the hull minus precision of a valid curve with e more false positives at "
        "the same TP = TP_A + u",
        precision(T_A + u, HULL_FP) - precision(T_A + u, HULL_FP + e),
        EXCESS_GAP,
    )
    pf.sign("which is >= 0", EXCESS_GAP, ">=")
    pf.establish(
        "At every recall the hull's precision is at least any valid curve's",
        sp.And(
            sp.Eq(precision(T_A + u, HULL_FP) - precision(T_A + u, HULL_FP + e), gap),
            sp.Ge(EXCESS_GAP, 0),
        ),
        [2, 3],
    )
    pf.check(
        "enumeration",
        "The oracle's achievable curve against every valid curve through random point sets",
        _hull_dominates_every_chain(),
    )
