"""Claims F1-F13: Flach & Kull, *Precision-Recall-Gain Curves: PR Analysis Done Right* (NeurIPS
2015), seed 002.

The derivations work with contingency tables as symbols (TP, FP, FN, TN; an interpolated table
``lambda C1 + (1 - lambda) C2``), so every PRG identity is proved for all tables at once. The
pieces of a derivation that a wrong variant could change (the weight ``mu`` of Theorem 1, the
slope of Theorem 2, the count forms of Definition 1, the formula of Theorem 3) are functions that
take the candidate form, so the same checking logic rejects a wrong candidate (see the tests).

Exact helpers for concrete rankings (:func:`prg_path`, :func:`auprg`, and the sweep and rankings of
:mod:`prtheory.theory.common`) use :class:`fractions.Fraction` only, independent of sympy.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction

import mpmath
import sympy as sp

from prtheory.theory.checks import (
    exact_identity,
    exact_sign,
    exhaustive,
    integer_sampler,
    joint_sampler,
    rational_sampler,
)
from prtheory.theory.common import beta, dg_aucpr, f_beta, rankings, round_half_up, sweep
from prtheory.theory.notes import average_precision
from prtheory.theory.registry import Proof, claim

SOURCE = "Flach & Kull 2015 (002)"

# Counts of a contingency table, class totals, skew, beta and a generic precision/recall.
TP, FP, FN, TN = sp.symbols("TP FP FN TN", positive=True)
pos, neg = sp.symbols("pos neg", positive=True)
pi, q = sp.symbols("pi q", positive=True)
p, r = sp.symbols("p r", positive=True)
# A second and third table, the mixing weight and the PRG coordinates.
TP1, FP1, FN1, TP2, FP2, FN2 = sp.symbols("TP_1 FP_1 FN_1 TP_2 FP_2 FN_2", positive=True)
lam = sp.Symbol("lambda", positive=True)
mu = sp.Symbol("mu")
precG, recG, FG = sp.symbols(r"\mathrm{precG} \mathrm{recG} \mathrm{FG}_\beta")
F_sym = sp.Symbol(r"F_\beta")


# ---- the definitions, as sympy expressions --------------------------------------------------
def precision(tp: sp.Expr, fp: sp.Expr) -> sp.Expr:
    """prec = TP/(TP + FP)."""
    return tp / (tp + fp)


def recall(tp: sp.Expr, fn: sp.Expr) -> sp.Expr:
    """rec = TP/(TP + FN)."""
    return tp / (tp + fn)


def f_beta_harmonic(p_: sp.Expr, r_: sp.Expr, b: sp.Expr = beta) -> sp.Expr:
    """F_beta as the weighted harmonic mean 1/((1/(1+b^2))/p + (b^2/(1+b^2))/r) (F2, eq. 2)."""
    return 1 / ((1 / (1 + b**2)) / p_ + (b**2 / (1 + b**2)) / r_)


def harmonic_rescale(x: sp.Expr, lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
    """The harmonic rescaling (1/x - 1/lo)/(1/hi - 1/lo) of eq. (3) (F4)."""
    return (1 / x - 1 / lo) / (1 / hi - 1 / lo)


def gain(x: sp.Expr, skew: sp.Expr = pi) -> sp.Expr:
    """Definition 1: the gain (x - pi)/((1 - pi) x) of a precision, recall or F score (F5, F8)."""
    return (x - skew) / ((1 - skew) * x)


def precision_gain_counts(tp: sp.Expr, fp: sp.Expr, skew: sp.Expr = pi) -> sp.Expr:
    """precG = 1 - (pi/(1-pi)) FP/TP, the count form of Definition 1 (F5)."""
    return 1 - skew / (1 - skew) * fp / tp


def recall_gain_counts(tp: sp.Expr, fn: sp.Expr, skew: sp.Expr = pi) -> sp.Expr:
    """recG = 1 - (pi/(1-pi)) FN/TP, the count form of Definition 1 (F5)."""
    return 1 - skew / (1 - skew) * fn / tp


# ---- exact helpers for concrete rankings (Fractions only) -----------------------------------
def _gains(tp: Fraction, fp: Fraction, n_pos: int, n_neg: int) -> tuple[Fraction, Fraction]:
    odds = Fraction(n_pos, n_neg)  # pi/(1 - pi)
    return 1 - odds * (n_pos - tp) / tp, 1 - odds * fp / tp


def prg_path(labels: Sequence[int]) -> list[tuple[Fraction, Fraction]]:
    """The PRG curve of a ranking for recG >= 0, as exact (recG, precG) vertices.

    It starts where recall equals pi (recG = 0): the contingency table there is interpolated
    linearly between the two operating points that bracket TP = pi * pos, as the authors'
    reference code does (by Theorem 1 this is the straight PRG segment). It ends at the
    always-positive point (1, 0).
    """
    n_pos = sum(labels)
    n_neg = len(labels) - n_pos
    target = Fraction(n_pos * n_pos, n_pos + n_neg)  # TP at which rec = pi
    pts = sweep(labels)
    k = next(i for i, (tp, _) in enumerate(pts) if tp >= target)
    (tp0, fp0), (tp1, fp1) = pts[k - 1], pts[k]
    alpha = (target - tp0) / (tp1 - tp0)
    start = _gains(target, fp0 + alpha * (fp1 - fp0), n_pos, n_neg)
    path = [(Fraction(0), start[1])]
    path += [_gains(Fraction(tp), Fraction(fp), n_pos, n_neg) for tp, fp in pts[k:]]
    return [v for i, v in enumerate(path) if i == 0 or v != path[i - 1]]


def auprg(labels: Sequence[int]) -> Fraction:
    """AUPRG = integral of precG d recG over recG in [0, 1] (signed trapezoids on the path)."""
    path = prg_path(labels)
    return sum(
        ((x1 - x0) * (y0 + y1) / 2 for (x0, y0), (x1, y1) in itertools.pairwise(path)),
        Fraction(0),
    )


def _delta(point: tuple[Fraction, Fraction], skew: Fraction) -> Fraction:
    x, y = point
    return x / skew - y / (1 - skew)


def _tables(max_n: int) -> list[tuple[int, int, int, int]]:
    """Every (TP, FP, FN, TN) with TP >= 1, both classes present and TP+FP+FN+TN <= max_n."""
    out = []
    for n_pos in range(1, max_n):
        for n_neg in range(1, max_n - n_pos + 1):
            for tp in range(1, n_pos + 1):
                for fp in range(0, n_neg + 1):
                    out.append((tp, fp, n_pos - tp, n_neg - fp))
    return out


# ---- F1 ---------------------------------------------------------------------------------------
F1_COUNT_FORM = TP / (TP + (FP + FN) / 2)


def f1_steps(pf: Proof, count_form: sp.Expr = F1_COUNT_FORM) -> None:
    """Derive F1's count form from the harmonic mean and check ``count_form`` against it."""
    pf.given("Precision of a contingency table", sp.Eq(p, precision(TP, FP)))
    pf.given("and recall", sp.Eq(r, recall(TP, FN)))
    harm = pf.given("F1 is the harmonic mean of precision and recall", 2 / (1 / p + 1 / r))
    pf.equal("The harmonic mean in product form", harm, 2 * p * r / (p + r))
    counts = harm.subs({p: precision(TP, FP), r: recall(TP, FN)})
    pf.equal("Substituting the counts gives the count form", counts, count_form)


@claim(
    "F1",
    source=SOURCE,
    location="§2.1, eq. (1) and the modified table",
    title="F1 as harmonic mean, count form, and accuracy of the table with TN := TP",
    statement=lambda: sp.Eq(
        2 / (1 / p + 1 / r),
        sp.Eq(2 * p * r / (p + r), F1_COUNT_FORM, evaluate=False),
        evaluate=False,
    ),
    assumptions=("TP >= 1, FP >= 0, FN >= 0", "p = TP/(TP+FP), r = TP/(TP+FN)"),
)
def _f1(pf: Proof) -> None:
    f1_steps(pf)
    acc = pf.given(
        "Accuracy of the table whose TN is replaced by TP (correct: TP + TP; total: 2TP+FP+FN)",
        (TP + TP) / (TP + FP + FN + TP),
    )
    pf.equal("It equals F1", acc, F1_COUNT_FORM)

    def same(t: tuple[int, int, int, int]) -> bool:
        tp, fp, fn, _ = t
        prec, rec = Fraction(tp, tp + fp), Fraction(tp, tp + fn)
        harmonic = 2 / (1 / prec + 1 / rec)
        return (
            harmonic
            == Fraction(tp, 1) / (tp + Fraction(fp + fn, 2))
            == Fraction(2 * tp, 2 * tp + fp + fn)
        )

    pf.check(
        "enumeration",
        "Harmonic mean, count form and modified-table accuracy in Fractions",
        exhaustive(_tables(14), same, "contingency tables with TP >= 1 and n <= 14"),
    )


# ---- F2 ---------------------------------------------------------------------------------------
F_BETA_COUNT_FORM = (1 + beta**2) * TP / ((1 + beta**2) * TP + FP + beta**2 * FN)


@claim(
    "F2",
    source=SOURCE,
    location="§2.1, eq. (2)",
    title="F_beta as weighted harmonic mean and its count form",
    statement=lambda: sp.Eq(f_beta_harmonic(p, r), F_BETA_COUNT_FORM, evaluate=False),
    assumptions=("TP >= 1, FP >= 0, FN >= 0, beta > 0", "p = TP/(TP+FP), r = TP/(TP+FN)"),
)
def _f2(pf: Proof) -> None:
    harm = pf.given(
        "Weighted harmonic mean, weights 1/(1+beta^2) on p, beta^2/(1+beta^2) on r",
        f_beta_harmonic(p, r),
    )
    pf.equal("Product form", harm, (1 + beta**2) * p * r / (beta**2 * p + r))
    counts = harm.subs({p: precision(TP, FP), r: recall(TP, FN)})
    pf.equal("Count form", counts, F_BETA_COUNT_FORM)
    pf.equal("beta = 1 gives F1", F_BETA_COUNT_FORM.subs(beta, 1), F1_COUNT_FORM)
    sampler = joint_sampler(
        integer_sampler({TP: (1, 60), FP: (0, 60), FN: (0, 60)}),
        rational_sampler({beta: (0, 5)}),
    )
    pf.check(
        "exact",
        "Harmonic mean of the exact precision and recall vs the count form",
        exact_identity(counts, F_BETA_COUNT_FORM, sampler),
    )


# ---- F3 ---------------------------------------------------------------------------------------
BASELINE = (1 + beta**2) * pi / (1 + beta**2 * pi)  # F_beta of always-positive: p = pi, r = 1
RECALL_THRESHOLD = beta**2 * pi / (1 - pi + beta**2 * pi)


def _f1_finite_mean() -> Fraction:
    """Exact mean of F1 over the four outcomes of q = 1/2 on one positive and one negative."""
    total = Fraction(0)
    for hit_pos, hit_neg in itertools.product((0, 1), repeat=2):
        tp, fp, fn = hit_pos, hit_neg, 1 - hit_pos
        total += Fraction(2 * tp, 2 * tp + fp + fn) / 4
    return total


@claim(
    "F3",
    source=SOURCE,
    location="§3.1, Baseline",
    title="Random-classifier baseline: always-positive; who loses to it",
    statement=lambda: sp.And(
        sp.Implies(sp.Lt(p, pi), sp.Lt(f_beta(p, r), BASELINE)),
        sp.Implies(sp.Lt(r, RECALL_THRESHOLD), sp.Lt(f_beta(p, r), BASELINE)),
    ),
    assumptions=(
        "a classifier predicts positive with probability q in [0, 1], independently of the label",
        "pi in (0, 1), beta > 0; 0 < p, r <= 1",
    ),
    verdict="holds as corrected",
    note=(
        "The baseline formula (1+β²)qπ/(q+β²π) is F_β of the *expected* contingency table (the "
        "large-sample limit), not the mean of F_β over a finite sample (one positive, one "
        "negative, q = 1/2, β = 1: mean F1 = 5/12, formula 1/2). It increases in q, so the "
        "always-positive classifier is the baseline, and every model with prec < π loses to it "
        "for every β. 'Any model with rec < π loses' is true only for β >= 1 (so for F1): in "
        "general a model loses whenever rec < β²π/(1−π+β²π), a threshold below π when β < 1. "
        "Counterexample: β = 1/2, π = 1/2, prec = 1, rec = 9/20 < π gives F_β = 45/56 > 5/9, "
        "the baseline."
    ),
)
def _f3(pf: Proof) -> None:
    n = sp.Symbol("n", positive=True)
    etp = pf.given(
        "Expected true positives (each of the pi n positives is hit with prob. q)", q * pi * n
    )
    efp = pf.given("Expected false positives", q * (1 - pi) * n)
    efn = pf.given("Expected false negatives", (1 - q) * pi * n)
    f_exp = F_BETA_COUNT_FORM.subs({TP: etp, FP: efp, FN: efn}, simultaneous=True)
    base_q = pf.equal(
        "F_beta of the expected table", f_exp, (1 + beta**2) * q * pi / (q + beta**2 * pi)
    )
    d = pf.obtain("Derivative in q", sp.factor(sp.diff(base_q, q)), "diff")
    pf.true(
        "It is positive, so the maximum is at q = 1",
        d.is_positive,
        "sign under positivity",
        shown=sp.Gt(d, 0, evaluate=False),
    )
    pf.equal(
        "q = 1 is the always-positive classifier, p = pi, r = 1",
        base_q.subs(q, 1),
        f_beta(pi, 1),
    )
    dp = pf.obtain("F_beta increases in precision", sp.factor(sp.diff(f_beta(p, r), p)), "diff")
    dr = pf.obtain("and in recall", sp.factor(sp.diff(f_beta(p, r), r)), "diff")
    pf.true(
        "Both derivatives are positive",
        bool(dp.is_positive and dr.is_positive),
        "sign under positivity",
        shown=sp.Tuple(sp.Gt(dp, 0, evaluate=False), sp.Gt(dr, 0, evaluate=False)),
    )
    pf.true(
        "So with r <= 1: prec < pi gives F_beta(p, r) <= F_beta(p, 1) < F_beta(pi, 1), for every beta",
        bool(sp.factor(sp.diff(f_beta(p, 1), p)).is_positive),
        "F_beta(p, 1) increasing in p",
        shown=sp.Gt(sp.factor(sp.diff(f_beta(p, 1), p)), 0, evaluate=False),
    )
    r_star = sp.solve(sp.Eq(f_beta(1, r), BASELINE), r)
    pf.obtain(
        "With p <= 1, F_beta(p, r) <= F_beta(1, r), which equals the baseline at",
        sp.Eq(r, r_star[0]),
        "solve",
    )
    pf.equal("Call it r* = beta^2 pi/(1 - pi + beta^2 pi)", r_star[0], RECALL_THRESHOLD)
    gap = pf.equal(
        "Its distance from pi",
        RECALL_THRESHOLD - pi,
        pi * (1 - pi) * (beta - 1) * (beta + 1) / (1 - pi + beta**2 * pi),
    )
    pf.true(
        "The threshold is pi when beta = 1 (F1: 'rec < pi loses' holds)",
        gap.subs(beta, 1) == 0,
        "substitution",
        shown=sp.Eq(
            sp.Symbol(r"r^*|_{\beta = 1}"),
            sp.simplify(RECALL_THRESHOLD.subs(beta, 1)),
            evaluate=False,
        ),
    )
    half = sp.Rational(1, 2)
    pf.true(
        "For beta < 1 it is below pi: beta = 1/2, pi = 1/2 gives threshold 1/5",
        RECALL_THRESHOLD.subs({beta: half, pi: half}) == sp.Rational(1, 5),
        "exact evaluation",
        shown=sp.Lt(sp.Rational(1, 5), half, evaluate=False),
    )
    ce = f_beta(1, sp.Rational(9, 20)).subs(beta, half)
    base = BASELINE.subs({beta: half, pi: half})
    pf.true(
        f"Counterexample: beta = 1/2, pi = 1/2, p = 1, r = 9/20 < pi: F_beta = {ce} > {base} = baseline",
        bool(ce > base),
        "exact evaluation",
        shown=sp.Gt(ce, base, evaluate=False),
    )

    # Enumeration over every small confusion matrix, exactly.
    def table_facts(b2: Fraction) -> list[tuple[Fraction, Fraction, Fraction, Fraction, Fraction]]:
        rows = []
        for tp, fp, fn, tn in _tables(12):
            n_pos, n_neg = tp + fn, fp + tn
            skew = Fraction(n_pos, n_pos + n_neg)
            f = (1 + b2) * tp / ((1 + b2) * tp + fp + b2 * fn)
            baseline = (1 + b2) * skew / (1 + b2 * skew)
            rows.append((Fraction(tp, tp + fp), Fraction(tp, n_pos), skew, f, baseline))
        return rows

    for b2 in (Fraction(1, 4), Fraction(1), Fraction(4)):
        rows = table_facts(b2)
        pf.check(
            "enumeration",
            f"beta^2 = {b2}: prec < pi or rec < beta^2 pi/(1-pi+beta^2 pi) implies F_beta < baseline",
            exhaustive(
                rows,
                lambda t, b2=b2: (
                    not (t[0] < t[2] or t[1] < b2 * t[2] / (1 - t[2] + b2 * t[2])) or t[3] < t[4]
                ),
                "contingency tables with n <= 12",
            ),
        )
    printed_fails = [t for t in table_facts(Fraction(1, 4)) if t[1] < t[2] and t[3] >= t[4]]
    pf.check(
        "enumeration",
        "beta = 1/2: some table with rec < pi does not lose (the printed rule fails for beta < 1)",
        (
            bool(printed_fails),
            f"{len(printed_fails)} such tables with n <= 12, e.g. (prec, rec, pi) = "
            f"{tuple(str(v) for v in printed_fails[0][:3])}"
            if printed_fails
            else "none found",
        ),
    )
    mean = _f1_finite_mean()
    pf.check(
        "enumeration",
        "Finite sample (1 positive, 1 negative, q = 1/2): the mean of F1 over the 4 outcomes",
        (
            mean == Fraction(5, 12) and mean != Fraction(1, 2),
            f"mean F1 = {mean}, plug-in formula 1/2",
        ),
    )
    pf.check(
        "exact",
        "F_beta of the expected table increases in q (exact differences at random points)",
        exact_sign(
            base_q.subs(q, q + sp.Rational(1, 50)) - base_q,
            rational_sampler({q: (0, sp.Rational(49, 50)), pi: (0, 1), beta: (0, 4)}),
            strict=True,
        ),
    )


# ---- F4 ---------------------------------------------------------------------------------------
x_, lo_, hi_ = sp.symbols("x min max", positive=True)


@claim(
    "F4",
    source=SOURCE,
    location="§3.1, eq. (3)",
    title="Harmonic rescaling of [min, max] to [0, 1]",
    statement=lambda: sp.Eq(
        harmonic_rescale(x_, lo_, hi_), hi_ * (x_ - lo_) / ((hi_ - lo_) * x_), evaluate=False
    ),
    assumptions=("0 < min < max, x in [min, max]",),
)
def _f4(pf: Proof) -> None:
    h = pf.given(
        "Rescale 1/x linearly from [1/max, 1/min] to [0, 1] (reversed: 1/min -> 0)",
        harmonic_rescale(x_, lo_, hi_),
    )
    pf.equal("Closed form", h, hi_ * (x_ - lo_) / ((hi_ - lo_) * x_))
    pf.true(
        "min maps to 0 and max to 1",
        bool(h.subs(x_, lo_) == 0 and sp.simplify(h.subs(x_, hi_)) == 1),
        "substitution",
        shown=sp.Tuple(h.subs(x_, lo_), sp.simplify(h.subs(x_, hi_))),
    )
    d = pf.obtain("Derivative in x", sp.factor(sp.diff(h, x_)), "diff")
    pf.equal(
        "which is max min/((max - min) x^2) > 0: the map increases",
        d,
        hi_ * lo_ / ((hi_ - lo_) * x_**2),
    )

    def sample(rng):  # 0 < min < x < max
        a, b, c = sorted(rng.sample(range(1, 2000), 3))
        return {lo_: sp.Rational(a, 1000), x_: sp.Rational(b, 1000), hi_: sp.Rational(c, 1000)}

    pf.check(
        "exact",
        "Both forms at random rational min < x < max",
        exact_identity(h, hi_ * (x_ - lo_) / ((hi_ - lo_) * x_), sample),
    )


# ---- F5 ---------------------------------------------------------------------------------------
def definition1_steps(
    pf: Proof,
    precg_counts: sp.Expr = None,
    recg_counts: sp.Expr = None,
) -> None:
    """Derive precG/recG from the harmonic rescaling and check the given count forms against it."""
    precg_counts = precision_gain_counts(TP, FP) if precg_counts is None else precg_counts
    recg_counts = recall_gain_counts(TP, FN) if recg_counts is None else recg_counts
    g = pf.equal(
        "Harmonic rescaling with min = pi, max = 1 (eq. 3)",
        harmonic_rescale(p, pi, sp.Integer(1)),
        gain(p),
    )
    pf.equal(
        "precG from the counts: substitute p = TP/(TP+FP)",
        g.subs(p, precision(TP, FP)),
        precg_counts,
    )
    pf.equal(
        "recG from the counts: substitute r = TP/(TP+FN)",
        gain(r).subs(r, recall(TP, FN)),
        recg_counts,
    )


@claim(
    "F5",
    source=SOURCE,
    location="Definition 1, eq. (4)",
    title="Precision gain and recall gain, and their count forms",
    statement=lambda: sp.And(
        sp.Eq(precG, sp.Eq(gain(p), precision_gain_counts(TP, FP), evaluate=False), evaluate=False),
        sp.Eq(recG, sp.Eq(gain(r), recall_gain_counts(TP, FN), evaluate=False), evaluate=False),
    ),
    assumptions=(
        "pi = pos/(pos+neg) in (0, 1) is the skew of the test set",
        "TP >= 1, FP, FN >= 0; p = TP/(TP+FP), r = TP/(TP+FN)",
    ),
)
def _f5(pf: Proof) -> None:
    definition1_steps(pf)

    def agrees(t: tuple[int, int, int, int]) -> bool:
        tp, fp, fn, tn = t
        skew = Fraction(tp + fn, tp + fp + fn + tn)
        prec, rec = Fraction(tp, tp + fp), Fraction(tp, tp + fn)
        odds = skew / (1 - skew)
        return (prec - skew) / ((1 - skew) * prec) == 1 - odds * fp / tp and (rec - skew) / (
            (1 - skew) * rec
        ) == 1 - odds * fn / tp

    pf.check(
        "enumeration",
        "Both definitions agree in Fractions, with pi the table's own skew",
        exhaustive(_tables(14), agrees, "contingency tables with TP >= 1 and n <= 14"),
    )


# ---- F6 ---------------------------------------------------------------------------------------
@claim(
    "F6",
    source=SOURCE,
    location="§3.1, after Definition 1",
    title="Always-positive at (1, 0); baseline-F1 classifiers on precG + recG = 1",
    statement=lambda: sp.Equivalent(
        sp.Eq(F1_COUNT_FORM, 2 * pi / (1 + pi)),
        sp.Eq(precision_gain_counts(TP, FP) + recall_gain_counts(TP, FN), 1),
    ),
    assumptions=("pi = pos/(pos+neg) in (0, 1)", "TP >= 1"),
)
def _f6(pf: Proof) -> None:
    skew = pos / (pos + neg)
    pf.given("Always-positive: TP = pos, FP = neg, FN = 0, and pi = pos/(pos+neg)", sp.Eq(pi, skew))
    pf.equal("Its precision gain is 0", precision_gain_counts(pos, neg, skew), 0)
    pf.equal("Its recall gain is 1, at every skew", recall_gain_counts(pos, 0, skew), 1)
    base = pf.equal(
        "Its F1 (the baseline) is F1(pi, 1)",
        F1_COUNT_FORM.subs({TP: pos, FP: neg, FN: 0}),
        2 * skew / (1 + skew),
    )
    del base
    fn_sol = sp.solve(sp.Eq(F1_COUNT_FORM, 2 * pi / (1 + pi)), FN)
    pf.obtain("A table has baseline F1 exactly when", sp.Eq(FN, fn_sol[0]), "solve")
    s = precision_gain_counts(TP, FP) + recall_gain_counts(TP, FN)
    pf.equal("Then precG + recG = 1", s.subs(FN, fn_sol[0]), 1)
    fn_back = sp.solve(sp.Eq(s, 1), FN)
    pf.equal(
        "Conversely precG + recG = 1 forces the same FN (the minor diagonal)", fn_back[0], fn_sol[0]
    )

    def agrees(t: tuple[int, int, int, int]) -> bool:
        tp, fp, fn, tn = t
        skew_ = Fraction(tp + fn, tp + fp + fn + tn)
        odds = skew_ / (1 - skew_)
        on_diag = (1 - odds * fp / tp) + (1 - odds * fn / tp) == 1
        return (Fraction(2 * tp, 2 * tp + fp + fn) == 2 * skew_ / (1 + skew_)) == on_diag

    pf.check(
        "enumeration",
        "F1 = 2pi/(1+pi) iff precG + recG = 1, exactly, on every small table",
        exhaustive(_tables(16), agrees, "contingency tables with TP >= 1 and n <= 16"),
    )


# ---- F7 ---------------------------------------------------------------------------------------
MU_PRINTED = lam * TP1 / (lam * TP1 + (1 - lam) * TP2)


def theorem1_steps(pf: Proof, weight: sp.Expr = MU_PRINTED) -> None:
    """Theorem 1 for an interpolated table C* = lambda C1 + (1-lambda) C2, with ``weight`` as mu."""
    tps = lam * TP1 + (1 - lam) * TP2
    fps = lam * FP1 + (1 - lam) * FP2
    fns = lam * FN1 + (1 - lam) * FN2
    pf.given(
        "The interpolated table (same pos and neg, hence the same pi)",
        sp.Eq(sp.Symbol("TP^*"), tps),
    )
    pf.given("and its false positives", sp.Eq(sp.Symbol("FP^*"), fps))
    pf.given("and false negatives", sp.Eq(sp.Symbol("FN^*"), fns))
    pf.given("The weight mu", sp.Eq(mu, weight))
    pg = [precision_gain_counts(t, f) for t, f in ((tps, fps), (TP1, FP1), (TP2, FP2))]
    rg = [recall_gain_counts(t, f) for t, f in ((tps, fns), (TP1, FN1), (TP2, FN2))]
    pf.equal("precG* = mu precG1 + (1-mu) precG2", pg[0], weight * pg[1] + (1 - weight) * pg[2])
    pf.equal("recG* = mu recG1 + (1-mu) recG2", rg[0], weight * rg[1] + (1 - weight) * rg[2])


@claim(
    "F7",
    source=SOURCE,
    location="Theorem 1",
    title="Linear interpolation in PRG space, with the TP-weighted mu",
    statement=lambda: sp.And(
        sp.Eq(
            sp.Symbol(r"\mathrm{precG}^*"),
            mu * sp.Symbol(r"\mathrm{precG}_1") + (1 - mu) * sp.Symbol(r"\mathrm{precG}_2"),
        ),
        sp.Eq(
            sp.Symbol(r"\mathrm{recG}^*"),
            mu * sp.Symbol(r"\mathrm{recG}_1") + (1 - mu) * sp.Symbol(r"\mathrm{recG}_2"),
        ),
        sp.Eq(mu, MU_PRINTED),
    ),
    assumptions=(
        "C1, C2 contingency tables on the same test set (same pos, neg, pi)",
        "TP1, TP2 >= 1; 0 <= lambda <= 1",
    ),
)
def _f7(pf: Proof) -> None:
    theorem1_steps(pf)
    d = pf.obtain("d mu / d lambda", sp.factor(sp.diff(MU_PRINTED, lam)), "diff")
    num, den = sp.fraction(d)
    pf.true(
        "Its numerator TP1 TP2 is positive and its denominator a square, so mu increases from mu(0) = 0 to mu(1) = 1",
        bool(
            num.is_positive
            and den.is_Pow
            and den.exp == 2
            and MU_PRINTED.subs(lam, 0) == 0
            and MU_PRINTED.subs(lam, 1) == 1
        ),
        "sign and substitution",
        shown=sp.Tuple(
            sp.Gt(num, 0, evaluate=False),
            sp.Eq(sp.Function("mu")(0), MU_PRINTED.subs(lam, 0), evaluate=False),
            sp.Eq(sp.Function("mu")(1), MU_PRINTED.subs(lam, 1), evaluate=False),
        ),
    )
    pf.true(
        "So every point of the PRG segment is achieved, but mu differs from lambda unless TP1 = TP2",
        sp.solve(sp.Eq(MU_PRINTED, lam), TP1) == [TP2],
        "solve",
        shown=sp.Equivalent(sp.Eq(mu, lam), sp.Eq(TP1, TP2)),
    )
    sampler = joint_sampler(
        integer_sampler(
            {TP1: (1, 40), FP1: (0, 40), FN1: (0, 40), TP2: (1, 40), FP2: (0, 40), FN2: (0, 40)}
        ),
        rational_sampler({lam: (0, 1), pi: (0, 1)}),
    )
    tps = lam * TP1 + (1 - lam) * TP2
    fps = lam * FP1 + (1 - lam) * FP2
    lhs = precision_gain_counts(tps, fps)
    rhs = MU_PRINTED * precision_gain_counts(TP1, FP1) + (1 - MU_PRINTED) * precision_gain_counts(
        TP2, FP2
    )
    pf.check(
        "exact",
        "precG of the interpolated table vs the mu-combination, integer tables",
        exact_identity(lhs, rhs, sampler),
    )


# ---- F8 ---------------------------------------------------------------------------------------
FG_COUNT_FORM = 1 - pi / (1 - pi) * (FP + beta**2 * FN) / ((1 + beta**2) * TP)


def theorem2_steps(pf: Proof, weight: sp.Expr = beta**2, slope: sp.Expr = -(beta**2)) -> None:
    """Theorem 2 with ``weight`` as the recall-gain coefficient and ``slope`` as the isometric slope."""
    fb = F_BETA_COUNT_FORM
    fg = pf.given("FG_beta is the gain of F_beta", gain(F_sym))
    pf.equal("FG_beta in counts: substitute F_beta's count form", fg.subs(F_sym, fb), FG_COUNT_FORM)
    lhs = precision_gain_counts(TP, FP) + weight * recall_gain_counts(TP, FN)
    pf.equal("precG + weight * recG = (1 + weight) FG_beta", lhs, (1 + weight) * FG_COUNT_FORM)
    iso = sp.solve(sp.Eq(precG + weight * recG, (1 + weight) * FG), precG)[0]
    pf.obtain(
        "On an isometric (FG_beta fixed), precG as a function of recG", sp.Eq(precG, iso), "solve"
    )
    pf.equal("whose slope is", sp.diff(iso, recG), slope)


@claim(
    "F8",
    source=SOURCE,
    location="Theorem 2",
    title="precG + beta^2 recG = (1+beta^2) FG_beta; F_beta isometrics have slope -beta^2",
    statement=lambda: sp.And(
        sp.Eq(precG + beta**2 * recG, (1 + beta**2) * FG),
        sp.Eq(FG, sp.Eq(gain(F_sym), FG_COUNT_FORM, evaluate=False), evaluate=False),
    ),
    assumptions=("pi in (0, 1), beta > 0, TP >= 1", "precG, recG, F_beta of the same table"),
)
def _f8(pf: Proof) -> None:
    theorem2_steps(pf)
    pf.equal(
        "beta = 1: F1 isometrics have slope -1 and FG1 = (precG + recG)/2",
        FG_COUNT_FORM.subs(beta, 1),
        (precision_gain_counts(TP, FP) + recall_gain_counts(TP, FN)) / 2,
    )

    def agrees(t: tuple[int, int, int, int], b2: Fraction) -> bool:
        tp, fp, fn, tn = t
        skew = Fraction(tp + fn, tp + fp + fn + tn)
        odds = skew / (1 - skew)
        pg, rg = 1 - odds * fp / tp, 1 - odds * fn / tp
        f = (1 + b2) * tp / ((1 + b2) * tp + fp + b2 * fn)
        return pg + b2 * rg == (1 + b2) * (f - skew) / ((1 - skew) * f)

    cases = [
        (t, b2)
        for t in _tables(11)
        for b2 in (Fraction(1, 9), Fraction(1, 2), Fraction(1), Fraction(3))
    ]
    pf.check(
        "enumeration",
        "precG + beta^2 recG = (1+beta^2)(F_beta - pi)/((1-pi)F_beta) in Fractions",
        exhaustive(
            cases, lambda c: agrees(*c), "tables with n <= 11 and beta^2 in {1/9, 1/2, 1, 3}"
        ),
    )


# ---- F9 ---------------------------------------------------------------------------------------
EXPECTED_FG1_PRINTED = None  # built lazily below (needs the symbols A, y0)
A_, y0_ = sp.symbols(r"\mathrm{AUPRG} y_0", real=True)


def expected_fg1_printed() -> sp.Expr:
    """Eq. (5): E[FG1] = (AUPRG/2 + 1/4 - pi (1 - y0^2)/4)/(1 - pi (1 - y0))."""
    return (A_ / 2 + sp.Rational(1, 4) - pi * (1 - y0_**2) / 4) / (1 - pi * (1 - y0_))


def _phi(x: sp.Expr, y: sp.Expr) -> sp.Expr:
    """Potential with d(phi) = (x + y) dDelta - y dx/(pi(1-pi)) along any path."""
    return x**2 / (2 * pi) - x * y / (1 - pi) - y**2 / (2 * (1 - pi))


def theorem3_steps(pf: Proof, formula: sp.Expr | None = None) -> None:
    """Derive E[FG1] under uniform Delta along a piecewise-linear PRG curve; compare ``formula``."""
    formula = expected_fg1_printed() if formula is None else formula
    xa, ya, xb, yb, t = sp.symbols("x_a y_a x_b y_b t", real=True)
    x = pf.given(
        "A linear segment of the curve from (x_a, y_a) to (x_b, y_b), x = recG, y = precG",
        xa + t * (xb - xa),
    )
    y = ya + t * (yb - ya)
    delta = x / pi - y / (1 - pi)
    pf.given("Delta = recG/pi - precG/(1-pi) along it, 0 <= t <= 1", delta)
    pf.given("FG1 = (precG + recG)/2 (Theorem 2, beta = 1)", (x + y) / 2)
    xs, ys = sp.symbols("x y", real=True)
    pf.given(
        "A potential phi(x, y) for the integrand (found by integrating its coefficients)",
        sp.Eq(sp.Function("phi")(xs, ys), _phi(xs, ys)),
    )
    pf.equal(
        "Its x-derivative is 2 FG1 dDelta/dx - y/(pi(1-pi)), with 2 FG1 = x + y, dDelta/dx = 1/pi",
        sp.diff(_phi(xs, ys), xs),
        (xs + ys) * (1 / pi) - ys / (pi * (1 - pi)),
        shown=r"\frac{\partial \phi}{\partial x} = "
        + sp.latex(sp.diff(_phi(xs, ys), xs))
        + r" = \frac{x + y}{\pi} - \frac{y}{\pi (1 - \pi)}",
    )
    pf.equal(
        "and its y-derivative is 2 FG1 dDelta/dy (dDelta/dy = -1/(1-pi)): so "
        "2 FG1 dDelta = dphi + y dx/(pi(1-pi))",
        sp.diff(_phi(xs, ys), ys),
        (xs + ys) * (-1 / (1 - pi)),
        shown=r"\frac{\partial \phi}{\partial y} = "
        + sp.latex(sp.diff(_phi(xs, ys), ys))
        + r" = -\frac{x + y}{1 - \pi}",
    )
    seg = sp.integrate((x + y) / 2 * sp.diff(delta, t), (t, 0, 1))
    trap = (xb - xa) * (ya + yb) / 2
    pf.equal(
        "sympy integrates FG1 dDelta over the segment: half of phi(b) - phi(a) plus the segment's "
        "area under the curve over pi(1-pi)",
        seg,
        (_phi(xb, yb) - _phi(xa, ya) + trap / (pi * (1 - pi))) / 2,
        shown=r"\int_0^1 \mathrm{FG}_1 \frac{d\Delta}{dt}\, dt = \frac{1}{2}\left("
        r"\phi(x_b, y_b) - \phi(x_a, y_a) + \frac{(x_b - x_a)(y_a + y_b)/2}{\pi (1 - \pi)}\right)",
    )
    # A curve of three segments from (0, y0) to (1, 0): the potential telescopes.
    x1, y1, x2, y2 = sp.symbols("x_1 y_1 x_2 y_2", real=True)
    verts = [(0, y0_), (x1, y1), (x2, y2), (1, 0)]
    total = sum(
        seg.subs({xa: a[0], ya: a[1], xb: b[0], yb: b[1]}, simultaneous=True)
        for a, b in itertools.pairwise(verts)
    )
    area = sum((b[0] - a[0]) * (a[1] + b[1]) / 2 for a, b in itertools.pairwise(verts))
    pf.equal(
        "Along a curve (0, y0) -> ... -> (1, 0) the sum telescopes (verified for 3 segments)",
        total,
        (_phi(sp.Integer(1), sp.Integer(0)) - _phi(sp.Integer(0), y0_) + area / (pi * (1 - pi)))
        / 2,
        shown=r"\sum_{\text{3 segments}} \int \mathrm{FG}_1\, d\Delta = \frac{1}{2}\left("
        r"\phi(1, 0) - \phi(0, y_0) + \frac{\text{area under the 3 segments}}{\pi (1 - \pi)}\right)",
    )
    integral = (
        _phi(sp.Integer(1), sp.Integer(0)) - _phi(sp.Integer(0), y0_) + A_ / (pi * (1 - pi))
    ) / 2
    pf.conclude(
        "For any number of segments the potential terms telescope the same way (each segment adds "
        "phi(end) - phi(start), step above the previous one); with AUPRG = the sum of the "
        "segments' signed areas, the integral of FG1 dDelta along the whole curve is",
        integral,
        [len(pf.steps) - 1, len(pf.steps)],
    )
    width = pf.equal(
        "Delta runs from -y0/(1-pi) at (0, y0) to 1/pi at (1, 0); the range has length",
        (1 / pi) - (-y0_ / (1 - pi)),
        (1 - pi * (1 - y0_)) / (pi * (1 - pi)),
    )
    expected = integral / width
    pf.equal(
        "E[FG1] = integral / length, for Delta uniform (Delta monotone along the curve)",
        expected,
        formula,
    )
    pf.equal("y0 = 1 gives AUPRG/2 + 1/4", formula.subs(y0_, 1), A_ / 2 + sp.Rational(1, 4))


@claim(
    "F9",
    source=SOURCE,
    location="§3.3, Theorem 3, eq. (5)",
    title="Expected FG1 under uniform Delta from AUPRG",
    statement=lambda: sp.Eq(sp.Symbol(r"E[\mathrm{FG}_1]"), expected_fg1_printed()),
    assumptions=(
        "the PRG curve is piecewise linear from (recG, precG) = (0, y0) to the always-positive (1, 0)",
        "AUPRG = ∫ precG d recG over recG in [0, 1], signed (negative precG counts negatively)",
        "operating points chosen so that Delta = recG/pi - precG/(1-pi) is uniform on [-y0/(1-pi), 1/pi]",
        "that interval has positive length: y0 > -(1-pi)/pi, i.e. TN > 0 where recG = 0",
    ),
    note=(
        "The interval printed as '[−y0/1− π, 1/π]' is [−y0/(1−π), 1/π] (a lost parenthesis). Delta is "
        "non-decreasing, not strictly increasing: once every negative is predicted positive (TN = 0) it "
        "stays at 1/pi; that stretch has zero Delta-length and does not affect the expectation."
    ),
)
def _f9(pf: Proof) -> None:
    theorem3_steps(pf)
    # E[1/F1]
    f1, fg1 = sp.symbols(r"F_1 \mathrm{FG}_1")
    inv = sp.solve(sp.Eq(fg1, gain(f1)), f1)[0]
    pf.obtain("Solving FG1 = (F1 - pi)/((1 - pi) F1) for F1", sp.Eq(f1, inv), "solve")
    pf.equal(
        "1/F1 is affine in FG1, so E[1/F1] = (1 - (1-pi) E[FG1])/pi",
        1 / inv,
        (1 - (1 - pi) * fg1) / pi,
    )
    # Monotonicity of Delta in counts.
    skew = pos / (pos + neg)
    d_counts = recall_gain_counts(TP, pos - TP, skew) / skew - precision_gain_counts(
        TP, neg - TN, skew
    ) / (1 - skew)
    d_closed = pf.equal(
        "Delta in counts (FN = pos - TP, FP = neg - TN)",
        d_counts,
        (pos + neg) / pos - (pos + neg) * pos * TN / (neg**2 * TP),
    )
    dtp = sp.diff(d_closed, TP)
    dtn = sp.diff(d_closed, TN)
    pf.true(
        "dDelta/dTP > 0 and dDelta/dTN < 0: lowering the threshold (TP up, TN down) never lowers Delta",
        bool(dtp.is_positive and dtn.is_negative),
        "diff, sign under positivity",
        shown=sp.Tuple(sp.Gt(dtp, 0, evaluate=False), sp.Lt(dtn, 0, evaluate=False)),
    )
    # Checks on concrete rankings.
    _f9_checks(pf)


def _expected_fg1_exact(
    labels: Sequence[int],
) -> tuple[Fraction | None, Fraction, Fraction, Fraction]:
    """(E[FG1] by exact integration over Delta, AUPRG, y0, pi) for a ranking.

    E[FG1] is None when every negative is ranked above the recG = 0 point: Delta is then
    constant along the curve and the uniform distribution of Theorem 3 does not exist.
    """
    n_pos = sum(labels)
    skew = Fraction(n_pos, len(labels))
    path = prg_path(labels)
    integral = Fraction(0)
    for a, b in itertools.pairwise(path):
        # FG1 and Delta are both affine along a segment: the trapezoid rule is exact.
        integral += (sum(a) + sum(b)) / 4 * (_delta(b, skew) - _delta(a, skew))
    length = _delta(path[-1], skew) - _delta(path[0], skew)
    expected = integral / length if length else None  # None: Delta is constant (degenerate)
    return expected, auprg(labels), path[0][1], skew


def _f9_checks(pf: Proof) -> None:
    formula = expected_fg1_printed()
    rat = lambda v: sp.Rational(v.numerator, v.denominator)  # noqa: E731

    def agrees(labels: tuple[int, ...]) -> bool:
        e, area, y0, skew = _expected_fg1_exact(labels)
        monotone = all(
            _delta(a, skew) <= _delta(b, skew) for a, b in itertools.pairwise(prg_path(labels))
        )
        if e is None:  # degenerate: then the denominator 1 - pi (1 - y0) of eq. (5) is 0 too
            return monotone and 1 - skew * (1 - y0) == 0
        value = formula.xreplace({A_: rat(area), y0_: rat(y0), pi: rat(skew)})
        return monotone and value == rat(e)

    cases = [*rankings(4, 5), *rankings(3, 7)]
    pf.check(
        "enumeration",
        "Exact E[FG1] (trapezoids in Delta, Fractions) equals eq. (5) and Delta is monotone",
        exhaustive(cases, agrees, "untied rankings of 4 pos + 5 neg and 3 pos + 7 neg"),
    )
    labels = (1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0)
    n_pos = sum(labels)
    skew = Fraction(n_pos, len(labels))
    path = prg_path(labels)
    with mpmath.workdps(50):
        mp = lambda v: mpmath.mpf(v.numerator) / v.denominator  # noqa: E731
        knots = [mp(_delta(v, skew)) for v in path]
        pts = [(mp(x), mp(y)) for x, y in path]

        def fg1_at(d):
            for (xa, ya), (xb, yb), da, db in zip(pts, pts[1:], knots, knots[1:], strict=False):
                if da <= d <= db and db > da:
                    t = (d - da) / (db - da)
                    return (xa + t * (xb - xa) + ya + t * (yb - ya)) / 2
            raise ValueError(f"Delta {d} outside the curve")

        numeric = mpmath.quad(fg1_at, knots) / (knots[-1] - knots[0])
        area = mpmath.mpf(0)
        for (xa, ya), (xb, yb) in itertools.pairwise(pts):
            area += (xb - xa) * (ya + yb) / 2
        closed = (area / 2 + mpmath.mpf(1) / 4 - mp(skew) * (1 - pts[0][1] ** 2) / 4) / (
            1 - mp(skew) * (1 - pts[0][1])
        )
        err = abs(numeric - closed)
        ok = err < mpmath.mpf(10) ** -45  # quadrature of a piecewise-linear integrand between knots
        pf.check(
            "numeric",
            f"Ranking {''.join(map(str, labels))}: mpmath.quad of FG1 over Delta (50 digits) vs eq. (5)",
            (
                ok,
                f"E[FG1] = {mpmath.nstr(numeric, 20)}, formula {mpmath.nstr(closed, 20)}, difference {mpmath.nstr(err, 3)}",
            ),
        )


# ---- F10 --------------------------------------------------------------------------------------
p1, p2, r1, r2 = sp.symbols("p_1 p_2 r_1 r_2", positive=True)
BETA2_PRINTED = -(1 / p1 - 1 / p2) / (1 / r1 - 1 / r2)
D_PRINTED = (1 / r1 - 1 / r2) / ((1 / r1 - 1 / r2) - (1 / p1 - 1 / p2))


def theorem4_steps(pf: Proof, beta2: sp.Expr = BETA2_PRINTED, d: sp.Expr = D_PRINTED) -> None:
    b2 = sp.Symbol("b", positive=True)  # beta^2
    inv = lambda pp, rr: (1 / pp + b2 / rr) / (1 + b2)  # noqa: E731  1/F_beta (eq. 2)
    pf.given("1/F_beta = (1/p + beta^2/r)/(1 + beta^2), with b = beta^2", inv(p, r))
    sol = sp.solve(sp.Eq(inv(p1, r1), inv(p2, r2)), b2)
    pf.true(
        "Equal F_beta is linear in b with a single root (given r1 != r2)",
        len(sol) == 1,
        "solve",
        shown=sp.Eq(sp.Symbol("b"), sol[0], evaluate=False),
    )
    pf.equal("The root", sol[0], beta2)
    pf.equal("The calibrated score d = 1/(beta^2 + 1)", 1 / (sol[0] + 1), d)
    slope = (gain(p1) - gain(p2)) / (gain(r1) - gain(r2))
    pf.equal("It is minus the slope of the PRG segment joining the two points", -slope, beta2)


@claim(
    "F10",
    source=SOURCE,
    location="§3.4, Theorem 4, eqs. (6)-(7)",
    title="Equal F_beta of two classifiers; the F-calibrated score d",
    statement=lambda: sp.And(sp.Eq(beta**2, BETA2_PRINTED), sp.Eq(sp.Symbol("d"), D_PRINTED)),
    assumptions=("prec1 > prec2 and rec1 < rec2 (so the root is positive)",),
)
def _f10(pf: Proof) -> None:
    theorem4_steps(pf)
    # With p1 > p2, r1 < r2: numerator and denominator signs.
    u, v = sp.symbols("u v", positive=True)  # p1 = p2 + u, r2 = r1 + v
    b2 = BETA2_PRINTED.subs({p1: p2 + u, r2: r1 + v})
    pf.true(
        "With p1 = p2 + u, r2 = r1 + v (u, v > 0) the root is positive",
        sp.factor(b2).is_positive,
        "factor, sign under positivity",
        shown=sp.Gt(sp.factor(b2), 0, evaluate=False),
    )

    def sample(rng):
        a, b = sorted(rng.sample(range(1, 1000), 2))
        c, e = sorted(rng.sample(range(1, 1000), 2))
        return {
            p1: sp.Rational(b, 1000),
            p2: sp.Rational(a, 1000),
            r1: sp.Rational(c, 1000),
            r2: sp.Rational(e, 1000),
        }

    fb = lambda pp, rr, bb: (1 + bb) * pp * rr / (bb * pp + rr)  # noqa: E731
    pf.check(
        "exact",
        "At random p1 > p2, r1 < r2: F_beta(p1, r1) = F_beta(p2, r2) at beta^2 of eq. (6)",
        exact_identity(fb(p1, r1, BETA2_PRINTED), fb(p2, r2, BETA2_PRINTED), sample),
    )


# ---- F11 --------------------------------------------------------------------------------------
def _beta2_of_score(d: Fraction) -> Fraction:
    return (1 - d) / d


@claim(
    "F11",
    source=SOURCE,
    location="§3.4, Figure 3 (right) and text",
    title="Figure 3: scores 0.76 and 0.49 correspond to beta^2 = 0.32 and 1.04",
    statement=lambda: sp.And(
        sp.Eq(beta**2, (1 - sp.Symbol("d")) / sp.Symbol("d")),
        sp.Eq(sp.Symbol(r"\beta^2|_{d = 0.76}"), sp.Symbol("0.32")),
        sp.Eq(sp.Symbol(r"\beta^2|_{d = 0.49}"), sp.Symbol("1.04")),
    ),
    assumptions=("printed scores and beta^2 are rounded to two decimals",),
    printed_numbers=True,
)
def _f11(pf: Proof) -> None:
    dsym, b = sp.symbols("d b", positive=True)
    pf.given("The F-calibrated score of eq. (7), b = beta^2", sp.Eq(dsym, 1 / (b + 1)))
    inv = sp.solve(sp.Eq(dsym, 1 / (b + 1)), b)
    pf.obtain("Solved for b", sp.Eq(b, inv[0]), "solve")
    pf.equal("which is the printed (1 - d)/d", inv[0], (1 - dsym) / dsym)
    for score, printed in (("0.76", "0.32"), ("0.49", "1.04")):
        d = Fraction(score)
        b2 = _beta2_of_score(d)
        lo, hi = _beta2_of_score(d + Fraction(1, 200)), _beta2_of_score(d - Fraction(1, 200))
        ok = round_half_up(b2, 2) == Fraction(printed) and round_half_up(lo, 2) <= Fraction(
            printed
        ) <= round_half_up(hi, 2)
        pf.check(
            "printed-number",
            f"Score {score} gives beta^2 = {b2} = {float(b2):.4f}, printed {printed}",
            (
                ok,
                f"rounds to {float(round_half_up(b2, 2)):.2f}; for any score in [{float(d) - 0.005:.3f}, {float(d) + 0.005:.3f}] beta^2 is in [{float(lo):.4f}, {float(hi):.4f}]",
            ),
        )
    pf.check(
        "printed-number",
        "beta^2 = 1 (F1) lies in the interval (0.32, 1.04), so the point also optimises F1",
        (Fraction("0.32") < 1 < Fraction("1.04"), "0.32 < 1 < 1.04"),
    )
    labels = [
        Fraction(s) for s in ("0.99", "0.76", "0.49", "0.075", "0.067", "0.034", "0.016", "0")
    ]
    pf.check(
        "printed-number",
        "The PRG hull labels 0.99, 0.76, 0.49, 0.075, 0.067, 0.034, 0.016, 0 decrease along the hull",
        (
            all(a > b for a, b in itertools.pairwise(labels)),
            "strictly decreasing, as calibrated scores on a convex hull must be",
        ),
    )


# ---- F12 --------------------------------------------------------------------------------------
c_, s_ = sp.symbols("c s", positive=True)


def _acc_c_printed(tpr: sp.Expr, fpr: sp.Expr) -> sp.Expr:
    return 2 * c_ * pi * tpr + 2 * (1 - c_) * (1 - pi) * (1 - fpr)


def _acc_c_swapped(tpr: sp.Expr, fpr: sp.Expr) -> sp.Expr:
    return 2 * (1 - c_) * pi * tpr + 2 * c_ * (1 - pi) * (1 - fpr)


def _tie_score(acc_c: Callable[[sp.Expr, sp.Expr], sp.Expr]) -> sp.Expr:
    """The c at which acc_c is equal at both ends of a segment of slope s, (f, r) -> (f + h, r + s h)."""
    f, h = sp.symbols("f h", positive=True)
    return sp.solve(sp.Eq(acc_c(r, f), acc_c(r + s_ * h, f + h)), c_)[0]


def _g_potential(f: sp.Expr, t: sp.Expr) -> sp.Expr:
    return pi**2 * t**2 / 2 + pi * (1 - pi) * (t - f * t) + (1 - pi) ** 2 * (f - f**2 / 2)


@claim(
    "F12",
    source=SOURCE,
    location="§1, ROC background (Area, Calibration); §3.4",
    title="E[acc] from AUROC; calibrated score of a hull segment; acc_c",
    statement=lambda: sp.And(
        sp.Eq(
            sp.Symbol(r"E[\mathrm{acc}]"),
            pi * (1 - pi) * (2 * sp.Symbol(r"\mathrm{AUROC}") - 1) + sp.Rational(1, 2),
        ),
        sp.Eq(c_, pi * s_ / (pi * s_ + 1 - pi)),
    ),
    assumptions=(
        "the ROC curve is piecewise linear from (0, 0) to (1, 1); rate = pi tpr + (1-pi) fpr uniform on [0, 1]",
        "a hull segment of slope s joins two operating points",
    ),
    verdict="holds as corrected",
    note=(
        "E[acc], the calibrated score πs/(πs+(1−π)) (the fraction of positives among the instances "
        "the segment adds) and acc_{1/2} = accuracy all hold. But with acc_c as printed, "
        "2cπ·tpr + 2(1−c)(1−π)(1−fpr), a segment's end points tie at c = (1−π)/(πs+1−π), which is "
        "one minus the calibrated score, and an instance of posterior P sits on the acc_c boundary "
        "at c = 1 − P. The statements 'segments are labelled with the c at which the end points "
        "tie' and 'the Figure 3 point is optimal for 0.29 < c < 0.75' hold for "
        "acc_c = 2(1−c)π·tpr + 2c(1−π)(1−fpr); with the printed definition that interval is "
        "0.25 < c < 0.71 (both contain 1/2, so the conclusion about standard accuracy stands)."
    ),
)
def _f12(pf: Proof) -> None:
    fa, ta, fb_, tb, u = sp.symbols("f_a t_a f_b t_b u", real=True)
    f = fa + u * (fb_ - fa)
    t = ta + u * (tb - ta)
    acc = pi * t + (1 - pi) * (1 - f)
    rate = pi * t + (1 - pi) * f
    pf.given(
        "A segment of the ROC curve, (fpr, tpr) from (f_a, t_a) to (f_b, t_b); accuracy along it",
        acc,
    )
    pf.given("Predicted positive rate", rate)
    fs, ts = sp.symbols("f t", real=True)
    pf.given(
        "A potential G(f, t) (found by integrating the coefficients of acc d(rate))",
        sp.Eq(sp.Function("G")(fs, ts), _g_potential(fs, ts)),
    )
    acc_ft = pi * ts + (1 - pi) * (1 - fs)
    g_t, g_f = sp.diff(_g_potential(fs, ts), ts), sp.diff(_g_potential(fs, ts), fs)
    pf.equal(
        "acc d(rate) = acc (pi dt + (1-pi) df): its dt part is dG/dt",
        acc_ft * pi,
        g_t,
        shown=r"\pi\, \mathrm{acc} = \frac{\partial G}{\partial t} = " + sp.latex(g_t),
    )
    pf.equal(
        "and its df part is dG/df + 2pi(1-pi) t: the extra term integrates to 2pi(1-pi) times "
        "the area under the ROC curve",
        acc_ft * (1 - pi),
        g_f + 2 * pi * (1 - pi) * ts,
        shown=r"(1 - \pi)\, \mathrm{acc} = \frac{\partial G}{\partial f} + 2\pi(1 - \pi)\, t"
        r" = " + sp.latex(g_f) + r" + 2\pi(1 - \pi)\, t",
    )
    seg = sp.integrate(acc * sp.diff(rate, u), (u, 0, 1))
    pf.equal(
        "sympy integrates acc d(rate) over the segment: G(b) - G(a) + 2pi(1-pi) * (the segment's "
        "area under the ROC curve)",
        seg,
        _g_potential(fb_, tb)
        - _g_potential(fa, ta)
        + 2 * pi * (1 - pi) * (fb_ - fa) * (ta + tb) / 2,
        shown=r"\int_0^1 \mathrm{acc}\, \frac{d\,\mathrm{rate}}{du}\, du = G(f_b, t_b) - G(f_a, t_a)"
        r" + 2\pi(1 - \pi) \frac{(f_b - f_a)(t_a + t_b)}{2}",
    )
    auroc = sp.Symbol(r"\mathrm{AUROC}")
    e_acc = (
        _g_potential(sp.Integer(1), sp.Integer(1))
        - _g_potential(sp.Integer(0), sp.Integer(0))
        + 2 * pi * (1 - pi) * auroc
    )
    pf.conclude(
        "Summing over the segments of a curve from (0, 0) to (1, 1), the G terms telescope to "
        "G(1, 1) - G(0, 0) and the areas add up to AUROC; rate runs over [0, 1] (length 1), so the "
        "integral is E[acc]",
        e_acc,
        [len(pf.steps)],
    )
    pf.equal(
        "E[acc] = pi(1-pi)(2 AUROC - 1) + 1/2",
        e_acc,
        pi * (1 - pi) * (2 * auroc - 1) + sp.Rational(1, 2),
    )
    # Calibration.
    dt, df = sp.symbols("Delta_t Delta_f", positive=True)
    frac = pf.given(
        "Among the instances a segment adds: pos*Delta_t positives, neg*Delta_f negatives",
        pos * dt / (pos * dt + neg * df),
    )
    calib = pi * s_ / (pi * s_ + 1 - pi)
    pf.equal(
        "With pi = pos/(pos+neg) and slope s = Delta_t/Delta_f this is pi s/(pi s + 1 - pi)",
        frac.subs(dt, s_ * df),
        calib.subs(pi, pos / (pos + neg)),
    )
    pf.equal(
        "acc_c with c = 1/2 is standard accuracy",
        _acc_c_printed(r, sp.Symbol("f")).subs(c_, sp.Rational(1, 2)),
        pi * r + (1 - pi) * (1 - sp.Symbol("f")),
    )
    pf.equal(
        "Printed acc_c: the segment's end points tie at c = 1 - (calibrated score)",
        _tie_score(_acc_c_printed),
        1 - calib,
    )
    pf.equal(
        "With acc_c = 2(1-c) pi tpr + 2c(1-pi)(1-fpr) they tie at the calibrated score",
        _tie_score(_acc_c_swapped),
        calib,
    )
    _f12_checks(pf)


def _roc_points(labels: Sequence[int]) -> list[tuple[Fraction, Fraction]]:
    n_pos = sum(labels)
    n_neg = len(labels) - n_pos
    return [(Fraction(fp, n_neg), Fraction(tp, n_pos)) for tp, fp in sweep(labels)]


def _f12_checks(pf: Proof) -> None:
    def agrees(labels: tuple[int, ...]) -> bool:
        n_pos = sum(labels)
        n_neg = len(labels) - n_pos
        skew = Fraction(n_pos, len(labels))
        # AUROC by counting correctly ordered (positive, negative) pairs.
        pairs, negs_below = 0, n_neg
        for y in labels:
            if y:
                pairs += negs_below
            else:
                negs_below -= 1
        auc = Fraction(pairs, n_pos * n_neg)
        e_acc = Fraction(0)
        for (fa, ta), (fb, tb) in itertools.pairwise(_roc_points(labels)):
            acc_a = skew * ta + (1 - skew) * (1 - fa)
            acc_b = skew * tb + (1 - skew) * (1 - fb)
            ra, rb = skew * ta + (1 - skew) * fa, skew * tb + (1 - skew) * fb
            e_acc += (acc_a + acc_b) / 2 * (rb - ra)  # acc is affine in rate on a segment
        return e_acc == skew * (1 - skew) * (2 * auc - 1) + Fraction(1, 2)

    pf.check(
        "enumeration",
        "E[acc] (exact integration in rate) = pi(1-pi)(2 AUROC - 1) + 1/2, AUROC by pair counting",
        exhaustive(
            [*rankings(4, 5), *rankings(2, 8)], agrees, "untied rankings of 4+5 and 2+8 items"
        ),
    )

    # For which c is the middle point of a two-segment hull the strict optimum? Each acc_c is
    # affine in c, so the set is an interval found exactly from the values at c = 0 and c = 1.
    pts = [(Fraction(0), Fraction(0)), (Fraction(1, 4), Fraction(3, 4)), (Fraction(1), Fraction(1))]

    def optimal_interval(acc_c) -> tuple[Fraction, Fraction]:
        lo, hi = Fraction(0), Fraction(1)
        for other in (pts[0], pts[2]):
            g0, g1 = (acc_c(c, *pts[1]) - acc_c(c, *other) for c in (Fraction(0), Fraction(1)))
            root = g0 / (g0 - g1)
            lo, hi = (max(lo, root), hi) if g1 > g0 else (lo, min(hi, root))
        return lo, hi

    skew = Fraction(1, 3)
    printed = lambda c, f, t: 2 * c * skew * t + 2 * (1 - c) * (1 - skew) * (1 - f)  # noqa: E731
    swapped = lambda c, f, t: 2 * (1 - c) * skew * t + 2 * c * (1 - skew) * (1 - f)  # noqa: E731
    slopes = [(b[1] - a[1]) / (b[0] - a[0]) for a, b in itertools.pairwise(pts)]  # 3 and 1/3
    cal = [skew * s / (skew * s + 1 - skew) for s in slopes]  # calibrated scores 3/5 and 1/7
    got_p, got_s = optimal_interval(printed), optimal_interval(swapped)
    ok = got_s == (cal[1], cal[0]) and got_p == (1 - cal[0], 1 - cal[1])
    pf.check(
        "exact",
        "Hull (0,0)-(1/4,3/4)-(1,1) at pi = 1/3 (segment scores 3/5, 1/7): where the middle point is optimal",
        (
            ok,
            f"c in ({got_s[0]}, {got_s[1]}) for the swapped acc_c, i.e. between the segment scores; "
            f"c in ({got_p[0]}, {got_p[1]}) for the printed acc_c, i.e. between one minus the scores",
        ),
    )


# ---- F13 --------------------------------------------------------------------------------------
# Two rankings of 3 positives among 8 items (pi = 3/8). A ranks a positive first and then buries
# the other two; B starts with two negatives but then ranks all three positives together.
RANKING_A = (1, 0, 0, 1, 0, 0, 1, 0)
RANKING_B = (0, 0, 1, 1, 1, 0, 0, 0)


@claim(
    "F13",
    source=SOURCE,
    location="§4, Figures 4-5",
    title="OpenML comparison of AUPR and AUPRG rankings",
    statement=lambda: sp.Symbol(r"\text{AUPR and AUPRG can order two models oppositely}"),
    assumptions=(
        "AUPR computed as average precision (the step area)",
        "AUPRG as the signed area over recG in [0, 1]",
    ),
    verdict="out of reach",
    note=(
        "The 886 OpenML tasks, the 30 models per task and the Figure 5 runs are not included in the "
        "source, so the 24%/58% disagreement rates and the AUPR 0.724/0.773, AUPRG 0.714/0.687 values "
        "cannot be recomputed. The mechanism (AUPR rewards early precision that AUPRG ignores "
        "because it lies at negative recall gain) is shown on two constructed rankings."
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
    pf.check(
        "exact",
        f"A = {''.join(map(str, RANKING_A))}, B = {''.join(map(str, RANKING_B))}: AUPR prefers A, AUPRG prefers B",
        (
            ap_a > ap_b and g_a < g_b,
            f"AUPR(A) = {ap_a}, AUPR(B) = {ap_b}; AUPRG(A) = {g_a}, AUPRG(B) = {g_b}",
        ),
    )
    n_pos, n_neg = sum(RANKING_A), len(RANKING_A) - sum(RANKING_A)
    first = _gains(Fraction(1), Fraction(0), n_pos, n_neg)[0]
    pf.check(
        "exact",
        "A's lead comes from its top-ranked positive: recall 1/3 < pi = 3/8, so its recall gain is negative",
        (
            first < 0,
            f"recall gain of A's first operating point = {first}; it adds P(1) rel(1)/3 = 1/3 to AP "
            "and nothing to AUPRG",
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
