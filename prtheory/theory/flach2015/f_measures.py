"""Claims F1-F4: F1 and F_beta as harmonic means and in counts, the random baseline, and the
harmonic rescaling.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import sympy as sp

from prtheory.theory.checks import (
    exact_identity,
    exact_sign,
    exhaustive,
    integer_sampler,
    joint_sampler,
    rational_sampler,
)
from prtheory.theory.common import beta, f_beta, name
from prtheory.theory.domain import Domain, Integer, Real
from prtheory.theory.flach2015.formulas import (
    FN,
    FP,
    SOURCE,
    TP,
    contingency_tables,
    f_beta_harmonic,
    harmonic_rescale,
    p,
    pi,
    precision,
    q,
    r,
    recall,
)
from prtheory.theory.registry import Proof, claim

# ---- F1 ---------------------------------------------------------------------------------------
F1_COUNT_FORM = TP / (TP + (FP + FN) / 2)
#: beta > 0 as a domain variable.
BETA = Real(beta, 0, sp.oo, open_lo=True)


def table_domain(define: dict, *more: Any) -> Domain:
    """Every contingency table TP >= 1, FP >= 0, FN >= 0 (with p and r defined from it, and
    ``more`` variables such as beta).

    Parameters
    ----------
    define : dict
        Further definitions.
    *more : Variable
        Further variables.

    Returns
    -------
    Domain
        Exhaustive up to ``TP + FP + FN <= 10``.

    Examples
    --------
    The tables with ``TP >= 1`` and ``TP + FP + FN <= 10`` are the triples of non-negative
    integers summing to at most 9 (``TP - 1``, FP, FN): ``C(12, 3) = 220``:

    >>> from prtheory.theory.flach2015.f_measures import table_domain
    >>> sum(1 for _ in table_domain({}).exhaustive_points())
    220
    """
    return Domain(
        Integer(TP, 1),
        Integer(FP, 0),
        Integer(FN, 0),
        *more,
        define={p: precision(TP, FP), r: recall(TP, FN), **define},
        exhaustive=10,
        samples=60,
    )


def f1_steps(pf: Proof, count_form: sp.Expr = F1_COUNT_FORM) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """Derive F1's count form from the harmonic mean and check ``count_form`` against it.

    Returns the harmonic mean, its product form and the harmonic mean of the counts' precision
    and recall (steps 4 and 5).

    Parameters
    ----------
    pf : Proof
        The recorder.
    count_form : sympy expression
        The count form to check (``TP/(TP + (FP + FN)/2)``).

    Returns
    -------
    tuple of sympy expression
        The harmonic mean, its product form, and it in counts.

    Examples
    --------
    ``2/(1/p + 1/r)`` with ``p = TP/(TP + FP)``, ``r = TP/(TP + FN)`` is
    ``2 TP/(2 TP + FP + FN)``; ``2 TP/(TP + FP + FN)`` is not:

    >>> import sympy as sp
    >>> from prtheory.theory.flach2015.f_measures import f1_steps
    >>> from prtheory.theory.flach2015.formulas import FN, FP, TP
    >>> from prtheory.theory.registry import Proof, StepFailed
    >>> pf = Proof()
    >>> harmonic, product, counts = f1_steps(pf)
    >>> product
    2*p*r/(p + r)
    >>> sp.simplify(counts - 2 * TP / (2 * TP + FP + FN))
    0
    >>> try:
    ...     f1_steps(Proof(), 2 * TP / (TP + FP + FN))
    ... except StepFailed as exc:
    ...     print(str(exc).split(":")[0])
    Substituting the counts gives the count form
    """
    pf.given("Precision of a contingency table", sp.Eq(p, precision(TP, FP)))
    pf.given("and recall", sp.Eq(r, recall(TP, FN)))
    harm = pf.given("F1 is the harmonic mean of precision and recall", 2 / (1 / p + 1 / r))
    product = pf.equal("The harmonic mean in product form", harm, 2 * p * r / (p + r))
    counts = harm.subs({p: precision(TP, FP), r: recall(TP, FN)})
    pf.equal("Substituting the counts gives the count form", counts, count_form)
    return harm, product, counts


@claim(
    "F1",
    source=SOURCE,
    location="§2.1, eq. (1) and the modified table",
    title="F1 as harmonic mean, count form, and accuracy of the table with TN := TP",
    statement=lambda: sp.And(
        sp.Eq(2 / (1 / p + 1 / r), 2 * p * r / (p + r), evaluate=False),
        sp.Eq(name("F_1"), F1_COUNT_FORM, evaluate=False),
        sp.Eq(name(r"\mathrm{acc}_{TN := TP}"), F1_COUNT_FORM, evaluate=False),
        evaluate=False,
    ),
    assumptions=("TP >= 1, FP >= 0, FN >= 0", "p = TP/(TP+FP), r = TP/(TP+FN)"),
    domain=table_domain(
        {
            name("F_1"): 2 / (1 / p + 1 / r),
            name(r"\mathrm{acc}_{TN := TP}"): (TP + TP) / (TP + FP + FN + TP),
        }
    ),
)
def _f1(pf: Proof) -> None:
    harm, product, _counts = f1_steps(pf)
    pf.given(
        "Accuracy of the table whose TN is replaced by TP (correct: TP + TP; total: 2TP+FP+FN)",
        (TP + TP) / (TP + FP + FN + TP),
    )
    pf.equal("It equals F1 in counts", (TP + TP) / (TP + FP + FN + TP), F1_COUNT_FORM)
    pf.establish(
        "The harmonic mean, in counts, and the modified table's accuracy",
        sp.And(
            sp.Eq(harm, product, evaluate=False),
            sp.Eq(name("F_1"), F1_COUNT_FORM, evaluate=False),
            sp.Eq(name(r"\mathrm{acc}_{TN := TP}"), F1_COUNT_FORM, evaluate=False),
            evaluate=False,
        ),
        [4, 5, 7],
    )

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
        exhaustive(contingency_tables(14), same, "contingency tables with TP >= 1 and n <= 14"),
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
    domain=table_domain({}, BETA),
)
def _f2(pf: Proof) -> None:
    harm = pf.given(
        "Weighted harmonic mean, weights 1/(1+beta^2) on p, beta^2/(1+beta^2) on r",
        f_beta_harmonic(p, r),
    )
    pf.equal("Product form", harm, (1 + beta**2) * p * r / (beta**2 * p + r))
    counts = harm.subs({p: precision(TP, FP), r: recall(TP, FN)})
    pf.equal("Count form", counts, F_BETA_COUNT_FORM)
    pf.equal("beta = 1 gives F1", counts.subs(beta, 1), F1_COUNT_FORM)
    pf.establish(
        "The weighted harmonic mean of the counts' precision and recall is the count form",
        sp.Eq(harm, F_BETA_COUNT_FORM, evaluate=False),
        [3],
    )
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
    domain=Domain(
        Real(pi, 0, 1, open_lo=True, open_hi=True),
        BETA,
        Real(p, 0, 1, open_lo=True),
        Real(r, 0, 1, open_lo=True),
        samples=120,
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
        sp.Gt(d, 0, evaluate=False),
        "sign under positivity",
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
        sp.And(sp.Gt(dp, 0, evaluate=False), sp.Gt(dr, 0, evaluate=False), evaluate=False),
        "sign under positivity",
    )
    monotone = len(pf.steps)
    pf.true(
        "So with r <= 1: prec < pi gives F_beta(p, r) <= F_beta(p, 1) < F_beta(pi, 1), for every beta",
        sp.Gt(sp.factor(sp.diff(f_beta(p, 1), p)), 0, evaluate=False),
        "F_beta(p, 1) increasing in p",
    )
    loses_by_precision = len(pf.steps)
    r_star = sp.solve(sp.Eq(f_beta(1, r), base_q.subs(q, 1)), r)
    pf.obtain(
        "With p <= 1, F_beta(p, r) <= F_beta(1, r), which equals the baseline at",
        sp.Eq(r, r_star[0]),
        "solve",
    )
    pf.equal("Call it r* = beta^2 pi/(1 - pi + beta^2 pi)", r_star[0], RECALL_THRESHOLD)
    baseline = base_q.subs(q, 1)
    t, v = sp.symbols("t v", positive=True)
    w = sp.Symbol("w", nonnegative=True)
    pf.sign(
        "Directly: with p < pi (p = pi/(1+v)) and r <= 1 (r = 1/(1+w)) the baseline exceeds "
        "F_beta(p, r)",
        baseline - f_beta(p, r),
        ">",
        {p: pi / (1 + v), r: 1 / (1 + w), pi: 1 / (1 + t)},
        how="sign with p = pi/(1+v), r = 1/(1+w), pi = 1/(1+t); t, v > 0, w >= 0",
        where=sp.Lt(p, pi),
    )
    pf.sign(
        "and with r < r* (r = r*/(1+v)) and p <= 1 (p = 1/(1+w)) too",
        baseline - f_beta(p, r),
        ">",
        {r: r_star[0] / (1 + v), p: 1 / (1 + w), pi: 1 / (1 + t)},
        how="sign with r = r*/(1+v), p = 1/(1+w), pi = 1/(1+t); t, v > 0, w >= 0",
        where=sp.Lt(r, r_star[0]),
    )
    pf.establish(
        "Both rules, with the baseline at q = 1 and the recall threshold as derived",
        sp.And(
            sp.Implies(sp.Lt(p, pi), sp.Lt(f_beta(p, r), baseline)),
            sp.Implies(sp.Lt(r, r_star[0]), sp.Lt(f_beta(p, r), baseline)),
        ),
        [len(pf.steps) - 1, len(pf.steps)],
    )
    del monotone, loses_by_precision
    gap = pf.equal(
        "Its distance from pi",
        RECALL_THRESHOLD - pi,
        pi * (1 - pi) * (beta - 1) * (beta + 1) / (1 - pi + beta**2 * pi),
    )
    pf.true(
        "The threshold is pi when beta = 1 (F1: 'rec < pi loses' holds)",
        sp.Eq(gap.subs(beta, 1), 0),
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
        sp.And(
            sp.Eq(RECALL_THRESHOLD.subs({beta: half, pi: half}), sp.Rational(1, 5)),
            sp.Lt(sp.Rational(1, 5), half),
        ),
        "exact evaluation",
        shown=sp.Lt(sp.Rational(1, 5), half, evaluate=False),
    )
    ce = f_beta(1, sp.Rational(9, 20)).subs(beta, half)
    base = BASELINE.subs({beta: half, pi: half})
    pf.true(
        f"Counterexample: beta = 1/2, pi = 1/2, p = 1, r = 9/20 < pi: F_beta = {ce} > {base} = baseline",
        sp.Gt(ce, base, evaluate=False),
        "exact evaluation",
    )

    # Enumeration over every small confusion matrix, exactly.
    def table_facts(b2: Fraction) -> list[tuple[Fraction, Fraction, Fraction, Fraction, Fraction]]:
        rows = []
        for tp, fp, fn, tn in contingency_tables(12):
            n_pos, n_neg = tp + fn, fp + tn
            skew = Fraction(n_pos, n_pos + n_neg)
            f = (1 + b2) * tp / ((1 + b2) * tp + fp + b2 * fn)
            baseline = (1 + b2) * skew / (1 + b2 * skew)
            rows.append((Fraction(tp, tp + fp), Fraction(tp, n_pos), skew, f, baseline))
        return rows

    def below_baseline(b2: Fraction) -> Callable[[Any], bool]:
        def holds(t: Any) -> bool:
            prec, rec, skew, f, baseline = t
            return not (prec < skew or rec < b2 * skew / (1 - skew + b2 * skew)) or f < baseline

        return holds

    for b2 in (Fraction(1, 4), Fraction(1), Fraction(4)):
        rows = table_facts(b2)
        pf.check(
            "enumeration",
            f"beta^2 = {b2}: prec < pi or rec < beta^2 pi/(1-pi+beta^2 pi) implies F_beta < baseline",
            exhaustive(rows, below_baseline(b2), "contingency tables with n <= 12"),
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
    domain=Domain(
        Real(lo_, 0, sp.oo, open_lo=True),
        Real(hi_, lo_, sp.oo, open_lo=True),
        Real(x_, lo_, hi_),
        samples=60,
    ),
)
def _f4(pf: Proof) -> None:
    h = pf.given(
        "Rescale 1/x linearly from [1/max, 1/min] to [0, 1] (reversed: 1/min -> 0)",
        harmonic_rescale(x_, lo_, hi_),
    )
    pf.equal("Closed form", h, hi_ * (x_ - lo_) / ((hi_ - lo_) * x_))
    pf.true(
        "min maps to 0 and max to 1",
        sp.And(sp.Eq(h.subs(x_, lo_), 0), sp.Eq(h.subs(x_, hi_), 1)),
        "substitution",
        shown=sp.Tuple(h.subs(x_, lo_), sp.simplify(h.subs(x_, hi_))),
    )
    d = pf.obtain("Derivative in x", sp.factor(sp.diff(h, x_)), "diff")
    pf.equal(
        "which is max min/((max - min) x^2) > 0: the map increases",
        d,
        hi_ * lo_ / ((hi_ - lo_) * x_**2),
    )
    pf.establish(
        "The rescaling in closed form",
        sp.Eq(h, hi_ * (x_ - lo_) / ((hi_ - lo_) * x_), evaluate=False),
        [2],
    )

    def sample(rng):  # 0 < min < x < max
        a, b, c = sorted(rng.sample(range(1, 2000), 3))
        return {lo_: sp.Rational(a, 1000), x_: sp.Rational(b, 1000), hi_: sp.Rational(c, 1000)}

    pf.check(
        "exact",
        "Both forms at random rational min < x < max",
        exact_identity(h, hi_ * (x_ - lo_) / ((hi_ - lo_) * x_), sample),
    )
