"""Claims F5-F8: precision and recall gain, the baseline line, linear interpolation in PRG space
(Theorem 1) and FG_beta (Theorem 2).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy as sp

from prtheory.theory.checks import (
    exact_identity,
    exhaustive,
    integer_sampler,
    joint_sampler,
    rational_sampler,
)
from prtheory.theory.common import beta, name
from prtheory.theory.domain import Domain, Integer, Real
from prtheory.theory.flach2015.f_measures import F1_COUNT_FORM, F_BETA_COUNT_FORM
from prtheory.theory.flach2015.formulas import (
    FG,
    FN,
    FN1,
    FN2,
    FP,
    FP1,
    FP2,
    SOURCE,
    TN,
    TP,
    TP1,
    TP2,
    F_sym,
    contingency_tables,
    gain,
    harmonic_rescale,
    lam,
    mu,
    neg,
    p,
    pi,
    pos,
    precG,
    precision,
    precision_gain_counts,
    recall,
    recall_gain_counts,
    recG,
)
from prtheory.theory.registry import Proof, claim

# ---- F5 ---------------------------------------------------------------------------------------
PRECG, RECG = name(r"\mathrm{precG}"), name(r"\mathrm{recG}")


def gains_domain(*more: Any, define: dict | None = None, exhaustive: int = 9) -> Domain:
    """Every contingency table with both classes: TP >= 1, FP, FN, TN >= 0, FP + TN >= 1; the
    skew, precision and recall from its counts, and the gains as harmonic rescalings (eq. 3).

    Parameters
    ----------
    *more : Variable
        Further variables.
    define : dict, optional
        Further definitions.
    exhaustive : int
        The exhaustive size (every table with ``TP + FP + FN + TN`` up to it).

    Returns
    -------
    Domain
        The domain.

    Examples
    --------
    Up to 9 items: 4-tuples ``(TP - 1, FP, FN, TN)`` summing to at most 8 are ``C(12, 4) =
    495``; those without a negative (FP = TN = 0) are ``C(10, 2) = 45``; 450 remain:

    >>> from prtheory.theory.flach2015.gains import gains_domain
    >>> sum(1 for _ in gains_domain().exhaustive_points())
    450
    """
    return Domain(
        Integer(TP, 1),
        Integer(FP, 0),
        Integer(FN, 0),
        Integer(TN, 0),
        *more,
        define={
            pi: (TP + FN) / (TP + FP + FN + TN),
            p: precision(TP, FP),
            PRECG: harmonic_rescale(precision(TP, FP), pi, sp.Integer(1)),
            RECG: harmonic_rescale(recall(TP, FN), pi, sp.Integer(1)),
            **(define or {}),
        },
        where=(sp.Ge(FP + TN, 1),),
        exhaustive=exhaustive,
        samples=60,
    )


def definition1_steps(
    pf: Proof,
    precg_counts: sp.Expr = None,
    recg_counts: sp.Expr = None,
) -> None:
    """Derive precG/recG from the harmonic rescaling and check the given count forms against it.

    Parameters
    ----------
    pf : Proof
        The recorder (with F5's domain, so that the final inference is checked).
    precg_counts, recg_counts : sympy expression, optional
        The count forms to check (``1 - (pi/(1 - pi)) FP/TP`` and ``... FN/TP`` by default).

    Returns
    -------
    None

    Examples
    --------
    The derivation, then FP where recG has FN, which fails:

    >>> from prtheory.theory.flach2015.formulas import FP, TP, pi
    >>> from prtheory.theory.flach2015.gains import definition1_steps
    >>> from prtheory.theory.registry import REGISTRY, Proof, StepFailed
    >>> pf = Proof(REGISTRY["F5"].domain)
    >>> definition1_steps(pf)
    >>> [s.verified for s in pf.steps], pf.final_step
    ([True, True, True, True], 4)
    >>> try:
    ...     definition1_steps(Proof(), recg_counts=1 - pi / (1 - pi) * FP / TP)
    ... except StepFailed as exc:
    ...     print(str(exc).split(":")[0])
    recG from the counts
    """
    precg_counts = precision_gain_counts(TP, FP) if precg_counts is None else precg_counts
    recg_counts = recall_gain_counts(TP, FN) if recg_counts is None else recg_counts
    rescaled = harmonic_rescale(p, pi, sp.Integer(1))
    g = pf.equal("Harmonic rescaling with min = pi, max = 1 (eq. 3)", rescaled, gain(p))
    pf.equal(
        "precG from the counts: substitute p = TP/(TP+FP)",
        rescaled.subs(p, precision(TP, FP)),
        precg_counts,
    )
    pf.equal(
        "recG from the counts: substitute r = TP/(TP+FN)",
        rescaled.subs(p, recall(TP, FN)),
        recg_counts,
    )
    pf.establish(
        "The gains as rescalings, and both in counts",
        sp.And(
            sp.Eq(rescaled, g, evaluate=False),
            sp.Eq(PRECG, precg_counts, evaluate=False),
            sp.Eq(RECG, recg_counts, evaluate=False),
            evaluate=False,
        ),
        [1, 2, 3],
    )


@claim(
    "F5",
    source=SOURCE,
    location="Definition 1, eq. (4)",
    title="Precision gain and recall gain, and their count forms",
    statement=lambda: sp.And(
        sp.Eq(harmonic_rescale(p, pi, sp.Integer(1)), gain(p), evaluate=False),
        sp.Eq(PRECG, precision_gain_counts(TP, FP), evaluate=False),
        sp.Eq(RECG, recall_gain_counts(TP, FN), evaluate=False),
        evaluate=False,
    ),
    assumptions=(
        "pi = pos/(pos+neg) in (0, 1) is the skew of the test set",
        "TP >= 1, FP, FN >= 0; p = TP/(TP+FP), r = TP/(TP+FN)",
    ),
    domain=gains_domain(),
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
        exhaustive(contingency_tables(14), agrees, "contingency tables with TP >= 1 and n <= 14"),
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
    domain=gains_domain(exhaustive=10),
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
    scale = 2 * TP * (1 - pi) / ((2 * TP + FP + FN) * (1 + pi))
    pf.equal(
        "In one identity: F1 minus the baseline is precG + recG - 1 times a factor",
        F1_COUNT_FORM - 2 * pi / (1 + pi),
        scale * (s - 1),
    )
    t_ = sp.Symbol("t", positive=True)
    pf.sign(
        "which is positive (TP >= 1, 0 < pi < 1): each of the two equations holds exactly when "
        "the other does",
        scale,
        ">",
        {pi: 1 / (1 + t_)},
        how="sign with pi = 1/(1+t), t > 0",
    )
    pf.establish(
        "Baseline F1 and precG + recG = 1 single out the same tables",
        sp.Equivalent(sp.Eq(F1_COUNT_FORM, 2 * pi / (1 + pi)), sp.Eq(s, 1)),
        [len(pf.steps) - 1, len(pf.steps)],
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
        exhaustive(contingency_tables(16), agrees, "contingency tables with TP >= 1 and n <= 16"),
    )


# ---- F7 ---------------------------------------------------------------------------------------
MU_PRINTED = lam * TP1 / (lam * TP1 + (1 - lam) * TP2)


def theorem1_steps(pf: Proof, weight: sp.Expr = MU_PRINTED) -> None:
    """Theorem 1 for an interpolated table C* = lambda C1 + (1-lambda) C2, with ``weight`` as mu.

    Parameters
    ----------
    pf : Proof
        The recorder (with F7's domain, so that the final inference is checked).
    weight : sympy expression
        mu (the TP-weighted ``lambda TP1/(lambda TP1 + (1 - lambda) TP2)`` by default).

    Returns
    -------
    None

    Examples
    --------
    The derivation (with mu = 1/2, the plain average, the step ``precG* = ...`` fails):

    >>> from prtheory.theory.flach2015.gains import theorem1_steps
    >>> from prtheory.theory.registry import REGISTRY, Proof
    >>> pf = Proof(REGISTRY["F7"].domain)
    >>> theorem1_steps(pf)
    >>> [s.verified for s in pf.steps], pf.final_step
    ([None, None, None, None, True, True, True], 7)
    """
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
    pf.establish(
        "The interpolated table's gains are the mu-combination, with mu the weight used above",
        f7_statement(weight),
        [5, 6],
    )


_G = sp.Symbol
PRECG_STAR, PRECG_1, PRECG_2 = (
    _G(r"\mathrm{precG}^*"),
    _G(r"\mathrm{precG}_1"),
    _G(r"\mathrm{precG}_2"),
)
RECG_STAR, RECG_1, RECG_2 = _G(r"\mathrm{recG}^*"), _G(r"\mathrm{recG}_1"), _G(r"\mathrm{recG}_2")


def f7_statement(weight: sp.Expr = MU_PRINTED) -> sp.Basic:
    """Theorem 1 with ``weight`` in place of mu.

    Parameters
    ----------
    weight : sympy expression
        mu.

    Returns
    -------
    sympy.And
        The statement, unevaluated.

    Examples
    --------
    >>> import sympy as sp
    >>> from prtheory.theory.flach2015.gains import f7_statement
    >>> print(f7_statement(sp.Symbol("mu")).args[0])
    Eq(\\mathrm{precG}^*, \\mathrm{precG}_1*mu + \\mathrm{precG}_2*(1 - mu))
    """
    return sp.And(
        sp.Eq(PRECG_STAR, weight * PRECG_1 + (1 - weight) * PRECG_2, evaluate=False),
        sp.Eq(RECG_STAR, weight * RECG_1 + (1 - weight) * RECG_2, evaluate=False),
        evaluate=False,
    )


@claim(
    "F7",
    source=SOURCE,
    location="Theorem 1",
    title="Linear interpolation in PRG space, with the TP-weighted mu",
    statement=f7_statement,
    assumptions=(
        "C1, C2 contingency tables on the same test set (same pos, neg, pi)",
        "TP1, TP2 >= 1; 0 <= lambda <= 1",
    ),
    domain=Domain(
        Integer(TP1, 1),
        Integer(FP1, 0),
        Integer(FN1, 0),
        Integer(TP2, 1),
        Integer(FP2, 0),
        Integer(FN2, 0),
        Real(lam, 0, 1),
        Real(pi, 0, 1, open_lo=True, open_hi=True),
        define={
            PRECG_STAR: precision_gain_counts(
                lam * TP1 + (1 - lam) * TP2, lam * FP1 + (1 - lam) * FP2
            ),
            RECG_STAR: recall_gain_counts(lam * TP1 + (1 - lam) * TP2, lam * FN1 + (1 - lam) * FN2),
            PRECG_1: precision_gain_counts(TP1, FP1),
            PRECG_2: precision_gain_counts(TP2, FP2),
            RECG_1: recall_gain_counts(TP1, FN1),
            RECG_2: recall_gain_counts(TP2, FN2),
        },
        exhaustive=4,
        samples=60,
    ),
)
def _f7(pf: Proof) -> None:
    theorem1_steps(pf)
    d = pf.obtain("d mu / d lambda", sp.factor(sp.diff(MU_PRINTED, lam)), "diff")
    num, den = sp.fraction(d)
    pf.true(
        "Its numerator TP1 TP2 is positive and its denominator a square, so mu increases from mu(0) = 0 to mu(1) = 1",
        sp.And(
            sp.Gt(num, 0, evaluate=False),
            sp.Ge(den, 0, evaluate=False),
            sp.Eq(MU_PRINTED.subs(lam, 0), 0),
            sp.Eq(MU_PRINTED.subs(lam, 1), 1),
            evaluate=False,
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
        sp.Eq(sp.FiniteSet(*sp.solve(sp.Eq(MU_PRINTED, lam), TP1)), sp.FiniteSet(TP2)),
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
    """Theorem 2 with ``weight`` as the recall-gain coefficient and ``slope`` as the isometric slope.

    Parameters
    ----------
    pf : Proof
        The recorder (with F8's domain, so that the final inference is checked).
    weight : sympy expression
        The coefficient of recG (beta^2).
    slope : sympy expression
        The isometrics' slope (-beta^2).

    Returns
    -------
    None

    Examples
    --------
    The derivation (with beta in place of beta^2 the weighted sum's step fails):

    >>> from prtheory.theory.flach2015.gains import theorem2_steps
    >>> from prtheory.theory.registry import REGISTRY, Proof
    >>> pf = Proof(REGISTRY["F8"].domain)
    >>> theorem2_steps(pf)
    >>> [s.verified for s in pf.steps], pf.final_step
    ([None, True, True, True, True, True], 6)
    """
    fb = F_BETA_COUNT_FORM
    fg = pf.given("FG_beta is the gain of F_beta", gain(F_sym))
    fg_counts = fg.subs(F_sym, fb)
    pf.equal("FG_beta in counts: substitute F_beta's count form", fg_counts, FG_COUNT_FORM)
    lhs = precision_gain_counts(TP, FP) + weight * recall_gain_counts(TP, FN)
    pf.equal("precG + weight * recG = (1 + weight) FG_beta", lhs, (1 + weight) * fg_counts)
    iso = sp.solve(sp.Eq(precG + weight * recG, (1 + weight) * FG), precG)[0]
    pf.obtain(
        "On an isometric (FG_beta fixed), precG as a function of recG", sp.Eq(precG, iso), "solve"
    )
    pf.equal("whose slope is", sp.diff(iso, recG), slope)
    pf.establish(
        "FG_beta in counts, and the gains' weighted sum (whose isometrics have that slope)",
        sp.And(
            sp.Eq(FG, FG_COUNT_FORM, evaluate=False),
            sp.Eq(precG + weight * recG, (1 + weight) * FG, evaluate=False),
            evaluate=False,
        ),
        [2, 3],
    )


@claim(
    "F8",
    source=SOURCE,
    location="Theorem 2",
    title="precG + beta^2 recG = (1+beta^2) FG_beta; F_beta isometrics have slope -beta^2",
    statement=lambda: sp.And(
        sp.Eq(FG, FG_COUNT_FORM, evaluate=False),
        sp.Eq(precG + beta**2 * recG, (1 + beta**2) * FG, evaluate=False),
        evaluate=False,
    ),
    assumptions=("pi in (0, 1), beta > 0, TP >= 1", "precG, recG, F_beta of the same table"),
    domain=Domain(
        Integer(TP, 1),
        Integer(FP, 0),
        Integer(FN, 0),
        Real(pi, 0, 1, open_lo=True, open_hi=True),
        Real(beta, 0, sp.oo, open_lo=True),
        define={
            FG: gain(F_BETA_COUNT_FORM),
            precG: precision_gain_counts(TP, FP),
            recG: recall_gain_counts(TP, FN),
        },
        exhaustive=8,
        samples=60,
    ),
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
        for t in contingency_tables(11)
        for b2 in (Fraction(1, 9), Fraction(1, 2), Fraction(1), Fraction(3))
    ]
    pf.check(
        "enumeration",
        "precG + beta^2 recG = (1+beta^2)(F_beta - pi)/((1-pi)F_beta) in Fractions",
        exhaustive(
            cases, lambda c: agrees(*c), "tables with n <= 11 and beta^2 in {1/9, 1/2, 1, 3}"
        ),
    )
