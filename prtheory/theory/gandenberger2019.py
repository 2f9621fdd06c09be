"""Claims G1-G8: Gandenberger (2019), *F-beta and other weighted Pythagorean means of precision
and recall* (seed 004).

Conventions of the source, kept here: recall R on the x-axis, precision P on the y-axis; the
weighted means with weight gamma on precision are

* arithmetic ``A_gamma = (gamma P + R)/(1 + gamma)``,
* harmonic ``H_gamma = ((gamma/P + 1/R)/(1 + gamma))^-1`` (``F_beta`` with ``beta^2 = 1/gamma``),
* geometric ``G_gamma = (P^gamma R)^(1/(1+gamma))`` (``beta = 1/gamma``).

"Units of recall required per unit of precision" at a point is ``(dM/dP)/(dM/dR)``, and the
level curve's slope is ``dP/dR = -(dM/dR)/(dM/dP)`` (implicit differentiation).
"""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath
import sympy as sp

from prtheory.theory.checks import (
    exact_identity,
    exact_sign,
    interval_sign,
    mp_identity,
)
from prtheory.theory.common import P, R, beta, f_beta, pr_sampler, printed_as, round_half_up
from prtheory.theory.domain import Domain, Real
from prtheory.theory.registry import Proof, claim

SOURCE = "Gandenberger 2019 (004)"

gamma = sp.Symbol("gamma", positive=True)
u = sp.Symbol("u", positive=True)  # R = u * beta * P: u < 1 above the line R/P = beta


def arithmetic(p: sp.Expr, r: sp.Expr, g: sp.Expr = gamma) -> sp.Expr:
    """The weighted arithmetic mean ``A_gamma = (gamma P + R)/(1 + gamma)``.

    Parameters
    ----------
    p, r : sympy expression
        Precision and recall.
    g : sympy expression
        The weight gamma on precision.

    Returns
    -------
    sympy expression
        The mean.

    Examples
    --------
    ``gamma = 2``, P = 1/2, R = 1/4: ``(1 + 1/4)/3 = 5/12``:

    >>> import sympy as sp
    >>> from prtheory.theory.gandenberger2019 import arithmetic
    >>> arithmetic(sp.Rational(1, 2), sp.Rational(1, 4), 2)
    5/12
    """
    return (g * p + r) / (1 + g)


def harmonic(p: sp.Expr, r: sp.Expr, g: sp.Expr = gamma) -> sp.Expr:
    """The weighted harmonic mean ``H_gamma = ((gamma/P + 1/R)/(1 + gamma))^-1`` (``F_beta``
    with ``beta^2 = 1/gamma``).

    Parameters
    ----------
    p, r : sympy expression
        Precision and recall.
    g : sympy expression
        The weight gamma on precision.

    Returns
    -------
    sympy expression
        The mean.

    Examples
    --------
    ``gamma = 1`` is F1: P = 1/2, R = 1/4 give ``2/(2 + 4) = 1/3``
    (``2 (1/8)/(3/4) = 1/3``):

    >>> import sympy as sp
    >>> from prtheory.theory.gandenberger2019 import harmonic
    >>> harmonic(sp.Rational(1, 2), sp.Rational(1, 4), 1)
    1/3
    """
    return 1 / ((g / p + 1 / r) / (1 + g))


def geometric(p: sp.Expr, r: sp.Expr, g: sp.Expr = gamma) -> sp.Expr:
    """The weighted geometric mean ``G_gamma = (P^gamma R)^(1/(1+gamma))``.

    Parameters
    ----------
    p, r : sympy expression
        Precision and recall.
    g : sympy expression
        The weight gamma on precision.

    Returns
    -------
    sympy expression
        The mean.

    Examples
    --------
    ``gamma = 1``, P = 1/4, R = 1: ``sqrt(1/4) = 1/2``:

    >>> import sympy as sp
    >>> from prtheory.theory.gandenberger2019 import geometric
    >>> geometric(sp.Rational(1, 4), 1, 1)
    1/2
    """
    return (p**g * r) ** (sp.Integer(1) / (1 + g))


def level_slope(mean: sp.Expr) -> sp.Expr:
    """dP/dR along a level curve of ``mean(P, R)``, by implicit differentiation.

    Parameters
    ----------
    mean : sympy expression
        A function of ``P`` and ``R`` (:data:`~prtheory.theory.common.P`, ``R``).

    Returns
    -------
    sympy expression
        ``-(dM/dR)/(dM/dP)``, simplified.

    Examples
    --------
    For ``A_gamma``, ``dA/dR = 1/(1 + gamma)`` and ``dA/dP = gamma/(1 + gamma)``: slope
    ``-1/gamma`` (G3):

    >>> from prtheory.theory.common import P, R
    >>> from prtheory.theory.gandenberger2019 import arithmetic, level_slope
    >>> level_slope(arithmetic(P, R))
    -1/gamma
    """
    return sp.simplify(-sp.diff(mean, R) / sp.diff(mean, P))


#: Precision, recall and beta > 0 as domain variables.
UNIT_P, UNIT_R = Real(P, 0, 1, open_lo=True), Real(R, 0, 1, open_lo=True)
BETA = Real(beta, 0, sp.oo, open_lo=True)

# ---- G1 ---------------------------------------------------------------------------------------
MODELS = {"A": {"TN": 90, "FP": 10, "FN": 1, "TP": 99}, "B": {"TN": 91, "FP": 9, "FN": 3, "TP": 97}}
PRINTED = {  # percentages and the formulas printed beside them: (text, numerator, denominator)
    "A": {"P": ("90.8", ("90/(99+10)", 90, 99 + 10)), "R": ("99.0", ("99/(99+1)", 99, 99 + 1))},
    "B": {"P": ("91.5", ("91/(91+9)", 91, 91 + 9)), "R": ("97.0", ("97/(97+3)", 97, 97 + 3))},
}


#: The counts of the two printed matrices, and precision and recall defined from them.
COUNTS = {
    sp.Symbol(f"{k}_{m}"): sp.Integer(v) for m, cells in MODELS.items() for k, v in cells.items()
}
P_OF = {m: sp.Symbol(f"P_{m}") for m in MODELS}
R_OF = {m: sp.Symbol(f"R_{m}") for m in MODELS}


def _matrix_domain() -> Domain:
    """The two matrices as printed: their counts, and P = TP/(TP+FP), R = TP/(TP+FN)."""
    tp, fp, fn = ({m: sp.Symbol(f"{k}_{m}") for m in MODELS} for k in ("TP", "FP", "FN"))
    define: dict = dict(COUNTS)
    for m in MODELS:
        define[P_OF[m]] = tp[m] / (tp[m] + fp[m])
        define[R_OF[m]] = tp[m] / (tp[m] + fn[m])
    return Domain(define=define)


def _g1_parts() -> list[tuple[str, sp.Basic]]:
    """Each percentage rounds to the printed one; each printed precision formula is not P."""
    out = []
    for m in MODELS:
        for label, sym in (("P", P_OF[m]), ("R", R_OF[m])):
            pct_text, (formula_text, num, den) = PRINTED[m][label]
            out.append((f"100 {label}_{m} rounds to {pct_text}", printed_as(100 * sym, pct_text)))
            if label == "P":
                out.append(
                    (
                        f"the printed formula {formula_text} is not P_{m}",
                        sp.Ne(sym, sp.Rational(num, den), evaluate=False),
                    )
                )
    return out


def _pct(v: Fraction) -> Fraction:
    """v as a percentage rounded half up to one decimal."""
    return round_half_up(100 * v, 1)


@claim(
    "G1",
    source=SOURCE,
    location="An Example (Models A and B)",
    title="Model A: P = 90.8%, R = 99.0%; Model B: P = 91.5%, R = 97.0%",
    statement=lambda: sp.And(*(st for _, st in _g1_parts()), evaluate=False),
    assumptions=(
        "the two confusion matrices as printed (rows: actual No/Yes; columns: predicted No/Yes)",
        "percentages rounded half up to one decimal",
    ),
    domain=_matrix_domain(),
    verdict="holds as corrected",
    note=(
        "The four percentages are right, but both printed precision formulas are wrong: "
        "A's '90/(99+10)' has TN = 90 in the numerator instead of TP = 99 (it evaluates to 82.6%, "
        "the correct 99/(99+10) to 90.8%); B's '91/(91+9)' is TN/(TN+FP), the specificity, 91.0% "
        "(the correct 97/(97+9) is 91.5%). The recall formulas 99/(99+1) and 97/(97+3) are right."
    ),
)
def _g1(pf: Proof) -> None:
    computed = []
    for name, m in MODELS.items():
        tp, fp, fn = (sp.Integer(m[k]) for k in ("TP", "FP", "FN"))
        pf.given(f"Model {name}", sp.Tuple(*(sp.Eq(sp.Symbol(k), v) for k, v in m.items())))
        pf.true(
            f"Row totals of model {name} are 100 and 100",
            sp.And(
                sp.Eq(sp.Integer(m["TN"]) + sp.Integer(m["FP"]), 100),
                sp.Eq(sp.Integer(m["FN"]) + sp.Integer(m["TP"]), 100),
            ),
            "arithmetic",
            shown=sp.Tuple(sp.Integer(m["TN"] + m["FP"]), sp.Integer(m["FN"] + m["TP"])),
        )
        prec = pf.obtain(f"P_{name} = TP/(TP+FP)", tp / (tp + fp), "exact rational arithmetic")
        rec = pf.obtain(f"R_{name} = TP/(TP+FN)", tp / (tp + fn), "exact rational arithmetic")
        for label, value in (("P", prec), ("R", rec)):
            pct_text, (formula_text, num, den) = PRINTED[name][label]
            exact = Fraction(int(value.p), int(value.q))
            pf.check(
                "printed-number",
                f"Model {name}: {label} = {value} rounds to the printed {pct_text}%",
                (_pct(exact) == Fraction(pct_text), f"{label} = {float(exact) * 100:.3f}%"),
            )
            printed_formula = Fraction(num, den)
            right = printed_formula == exact
            # The verdict: the recall formulas are right, the precision formulas wrong.
            pf.check(
                "printed-number",
                f"Model {name}: the printed formula {formula_text} for {label} is "
                + ("right" if right else "wrong"),
                (
                    right == (label == "R"),
                    f"{formula_text} = {float(printed_formula) * 100:.1f}%"
                    + ("" if right else f", not {pct_text}%"),
                ),
            )
    for what, st in _g1_parts():
        computed.append(len(pf.steps) + 1)
        pf.true(what, _matrix_domain().expand(st), "exact rational arithmetic")
    pf.establish(
        "The percentages of both models, from their matrices, and the two wrong formulas",
        sp.And(*(st for _, st in _g1_parts()), evaluate=False),
        computed,
    )


# ---- G2 ---------------------------------------------------------------------------------------
@claim(
    "G2",
    source=SOURCE,
    location="The Weighted Arithmetic Mean",
    title="The simple arithmetic mean prefers A to B",
    statement=lambda: sp.Gt(
        (P_OF["A"] + R_OF["A"]) / 2, (P_OF["B"] + R_OF["B"]) / 2, evaluate=False
    ),
    assumptions=("P and R of G1",),
    domain=_matrix_domain(),
)
def _g2(pf: Proof) -> None:
    pa, ra, pb, rb = (
        _matrix_domain().expand(x) for x in (P_OF["A"], R_OF["A"], P_OF["B"], R_OF["B"])
    )
    diff = pf.equal(
        "Mean(A) - Mean(B) = ((P_A - P_B) + (R_A - R_B))/2",
        (pa + ra) / 2 - (pb + rb) / 2,
        sp.Rational(1901, 288850),
    )
    pf.true(
        "It is positive: the arithmetic mean prefers A",
        sp.Gt(diff, 0, evaluate=False),
        "exact comparison",
    )
    pf.establish(
        "The arithmetic mean of A exceeds that of B",
        sp.Gt((P_OF["A"] + R_OF["A"]) / 2, (P_OF["B"] + R_OF["B"]) / 2, evaluate=False),
        [1, 2],
    )
    dp = pf.equal("B gains P_B - P_A in precision", pb - pa, sp.Rational(79, 11554))
    pf.true(
        "that is 0.68 points (printed 0.7), less than the 2.0 points of recall it loses",
        sp.Lt(dp, sp.Rational(2, 100), evaluate=False),
        "exact comparison",
    )
    mean_a = (Fraction(99, 109) + Fraction(99, 100)) / 2
    mean_b = (Fraction(97, 106) + Fraction(97, 100)) / 2
    pf.check(
        "exact",
        "Means in Fractions from the counts",
        (mean_a > mean_b, f"A: {float(mean_a):.5f}, B: {float(mean_b):.5f}"),
    )
    pf.check(
        "printed-number",
        "The printed differences: +0.7 points of precision, -2.0 of recall",
        (
            _pct(Fraction(97, 106) - Fraction(99, 109)) == Fraction("0.7")
            and Fraction(99, 100) - Fraction(97, 100) == Fraction(2, 100),
            "0.684 -> 0.7 and 2.0",
        ),
    )


# ---- G3 ---------------------------------------------------------------------------------------
def arithmetic_slope_steps(pf: Proof, slope: sp.Expr = -1 / gamma) -> None:
    """Implicit differentiation of A_gamma = const; check ``slope`` against it (G3).

    Parameters
    ----------
    pf : Proof
        The recorder (with the domain of G3, so that the final inference is checked).
    slope : sympy expression
        The slope to check (``-1/gamma``; the text's ``-gamma`` fails).

    Returns
    -------
    None

    Examples
    --------
    ``dA/dR = 1/(1 + gamma)``, ``dA/dP = gamma/(1 + gamma)``, so the slope is ``-1/gamma``:

    >>> from prtheory.theory.gandenberger2019 import arithmetic_slope_steps, gamma
    >>> from prtheory.theory.registry import REGISTRY, Proof
    >>> pf = Proof(REGISTRY["G3"].domain)
    >>> arithmetic_slope_steps(pf)
    >>> [s.verified for s in pf.steps], pf.final_step
    ([None, True, True, True, True], 5)
    >>> arithmetic_slope_steps(Proof(), slope=-gamma)
    Traceback (most recent call last):
    ...
    prtheory.theory.registry.StepFailed: The slope (recall on x, precision on y): -1/gamma = -gamma does not verify (no simplification reached 0)
    """
    a = pf.given("Weighted arithmetic mean", arithmetic(P, R))
    d = pf.obtain("dP/dR on a level curve = -(dA/dR)/(dA/dP)", level_slope(a), "diff")
    pf.equal("The slope (recall on x, precision on y)", d, slope)
    pf.value(
        "Directly: the level curve A_gamma = c, solved for P, has that derivative in R",
        sp.Derivative(LEVEL.expr, R),
        slope,
        "diff",
    )
    pf.establish(
        "The level curves' slope is what implicit differentiation gave",
        sp.Eq(sp.Derivative(P_CURVE(R), R), slope),
        [3, 4],
    )


P_CURVE = sp.Function("P")
level_ = sp.Symbol("c", positive=True)  # the level of the mean
#: The level curve A_gamma(P, R) = c, solved for P, as a function of R.
LEVEL = sp.Lambda(R, sp.solve(sp.Eq(arithmetic(P, R), level_), P)[0])


@claim(
    "G3",
    source=SOURCE,
    location="The Weighted Arithmetic Mean",
    title="Level curves of A_gamma have slope -1/gamma (not -gamma)",
    statement=lambda: sp.Eq(sp.Derivative(P_CURVE(R), R), -1 / gamma),
    assumptions=(
        "recall on the x-axis, precision on the y-axis",
        "gamma > 0; P(R) is the level curve A_gamma = c",
    ),
    domain=Domain(
        Real(gamma, 0, sp.oo, open_lo=True),
        Real(level_, 0, 1, open_lo=True),
        Real(R, 0, 1, open_lo=True),
        define={P_CURVE: LEVEL},
        samples=40,
    ),
    verdict="holds as corrected",
    note=(
        "The text first says the level curves are 'straight lines with slope −γ' and later 'the same "
        "slope −1/γ'. With recall on x and precision on y the slope is −1/γ: one unit of precision is "
        "traded for γ units of recall, which is also what the γ = 8 example shows (from (0.48, 0.84) "
        "to (0.56, 0.83): down 1 point, right 8). '−γ' is wrong."
    ),
)
def _g3(pf: Proof) -> None:
    arithmetic_slope_steps(pf)
    pf.true(
        "-1/gamma = -gamma only at gamma = 1",
        sp.Eq(sp.FiniteSet(*sp.solve(sp.Eq(-1 / gamma, -gamma), gamma)), sp.FiniteSet(1)),
        "solve",
        shown=sp.Equivalent(sp.Eq(-1 / gamma, -gamma), sp.Eq(gamma, 1)),
    )
    g8 = Fraction(8)
    a0 = (g8 * Fraction("0.84") + Fraction("0.48")) / (1 + g8)
    a1 = (g8 * Fraction("0.83") + Fraction("0.56")) / (1 + g8)
    slope = (Fraction("0.83") - Fraction("0.84")) / (Fraction("0.56") - Fraction("0.48"))
    pf.check(
        "exact",
        "gamma = 8 example: (R, P) = (0.48, 0.84) and (0.56, 0.83) lie on one level curve of slope -1/8",
        (a0 == a1 and slope == -1 / g8, f"A_8 = {a0} at both; slope {slope}"),
    )
    pf.check(
        "exact",
        "A_gamma is unchanged along the direction (dR, dP) = (gamma, -1) at random points",
        exact_identity(
            arithmetic(P - sp.Rational(1, 100), R + gamma / 100),
            arithmetic(P, R),
            pr_sampler(gamma, 10),
        ),
    )


# ---- G4 ---------------------------------------------------------------------------------------
@claim(
    "G4",
    source=SOURCE,
    location="The Weighted Harmonic Mean",
    title="The weighted harmonic mean with beta^2 = 1/gamma is F_beta",
    statement=lambda: sp.Eq(harmonic(P, R, 1 / beta**2), f_beta(P, R), evaluate=False),
    assumptions=("0 < P, R <= 1, gamma = 1/beta^2 > 0",),
    domain=Domain(UNIT_P, UNIT_R, BETA, samples=60),
)
def _g4(pf: Proof) -> None:
    h = pf.given("Weighted harmonic mean, weight gamma on 1/P", harmonic(P, R))
    hb = h.subs(gamma, 1 / beta**2)
    pf.equal(
        "With gamma = 1/beta^2: the printed beta form",
        hb,
        1 / ((1 / P + beta**2 / R) / (1 + beta**2)),
    )
    fb = pf.equal("which is F_beta = (1+beta^2) P R/(beta^2 P + R)", hb, f_beta(P, R))
    pf.establish(
        "The weighted harmonic mean at gamma = 1/beta^2 is F_beta",
        sp.Eq(hb, fb, evaluate=False),
        [1, 3],
    )
    pf.check(
        "exact",
        "At random rational P, R, beta",
        exact_identity(hb, f_beta(P, R), pr_sampler(beta, 5)),
    )


# ---- G5 ---------------------------------------------------------------------------------------
def harmonic_tradeoff_steps(pf: Proof, slope: sp.Expr = -(beta**2) * P**2 / R**2) -> sp.Expr:
    """Implicit differentiation of F_beta = const; return units of recall per unit of precision.

    The last three steps record dF/dP, dF/dR and delta = (dF/dP)/(dF/dR) as facts.

    Parameters
    ----------
    pf : Proof
        The recorder.
    slope : sympy expression
        The tangent slope to check.

    Returns
    -------
    sympy expression
        delta, the units of recall per unit of precision.

    Examples
    --------
    ``F = (1 + b^2) P R/(b^2 P + R)``: ``dF/dP = (1 + b^2) R^2/(b^2 P + R)^2`` and
    ``dF/dR = (1 + b^2) b^2 P^2/(b^2 P + R)^2``, so ``delta = R^2/(b^2 P^2)``:

    >>> from prtheory.theory.gandenberger2019 import harmonic_tradeoff_steps
    >>> from prtheory.theory.registry import Proof
    >>> pf = Proof()
    >>> harmonic_tradeoff_steps(pf)
    R**2/(P**2*beta**2)
    >>> len(pf.steps)
    7
    """
    f = pf.given("F_beta", f_beta(P, R))
    d = pf.obtain("dP/dR on a level curve", level_slope(f), "diff")
    pf.equal("The tangent slope", d, slope)
    pf.equal(
        "Units of recall required per unit of precision: delta = -1/slope",
        -1 / d,
        R**2 / (beta**2 * P**2),
    )
    fp = pf.value("dF/dP", sp.Derivative(f, P), sp.factor(sp.diff(f, P)), "diff")
    fr = pf.value("dF/dR", sp.Derivative(f, R), sp.factor(sp.diff(f, R)), "diff")
    pf.equal("delta is also (dF/dP)/(dF/dR), the marginal values' ratio", fp / fr, -1 / d)
    return -1 / d


#: delta: units of recall a unit of precision is worth, (dF/dP)/(dF/dR) (G5, G7).
DELTA = sp.Symbol(r"\delta")
F_OF = sp.Function(r"F_\beta")
G_OF = sp.Function(r"G_\beta")


@claim(
    "G5",
    source=SOURCE,
    location="The Weighted Harmonic Mean (the black line and the regions beside it)",
    title="F_beta trade-off: indifference on R/P = beta; which side needs more recall",
    statement=lambda: sp.And(
        sp.Eq(DELTA, R**2 / (beta**2 * P**2)),
        sp.Equivalent(sp.Lt(DELTA, 1), sp.Gt(P, R / beta)),
    ),
    assumptions=(
        "recall on x, precision on y; the black line is P = R/beta",
        "tangent slope -1/delta: delta units of recall per unit of precision",
    ),
    domain=Domain(
        UNIT_P,
        UNIT_R,
        BETA,
        define={
            F_OF: sp.Lambda((P, R), f_beta(P, R)),
            DELTA: sp.Derivative(F_OF(P, R), P) / sp.Derivative(F_OF(P, R), R),
        },
        samples=80,
    ),
    verdict="holds as corrected",
    note=(
        "The indifference line R/P = β and the slope −β²P²/R² hold. The text swaps the two sides "
        "of the line: above it (P > R/β, precision high compared to recall) δ = R²/(β²P²) < 1, so "
        "less than one unit of recall buys a unit of precision and a unit of recall is worth more; "
        "below it δ > 1. The text puts 'where precision is high compared to recall … δ > 1 … more "
        "than one unit of recall … you care about improving recall more … large because β > 1' "
        "below the line: the side and δ > 1 go together, but the other three phrases describe the "
        "region above it (and 'requiring more than one unit of recall per unit of precision' "
        "means valuing precision more). The mirror paragraph has the same swap. 'Larger β … more "
        "area below the line' is also wrong: the area below P = R/β in the unit square is "
        "1/(2β) for β >= 1 (1 − β/2 for β <= 1), decreasing in β; the area above grows."
    ),
)
def _g5(pf: Proof) -> None:
    delta = harmonic_tradeoff_steps(pf)
    pf.true(
        "delta = 1 exactly on R = beta P",
        sp.Eq(sp.FiniteSet(*sp.solve(sp.Eq(delta, 1), R)), sp.FiniteSet(beta * P)),
        "solve",
        shown=sp.Equivalent(sp.Eq(delta, 1), sp.Eq(R, beta * P)),
    )
    pf.equal(
        "With R = u beta P (u < 1: above the line, u > 1: below) delta is u^2",
        delta.subs(R, u * beta * P),
        u**2,
    )
    scale = (beta * P + R) / (beta * P**2)
    pf.equal(
        "In one identity: 1 - delta is P - R/beta times a factor",
        1 - delta,
        scale * (P - R / beta),
    )
    pf.sign("which is positive", scale, ">")
    pf.establish(
        "delta as derived; 1 - delta is a positive multiple of P - R/beta, so delta < 1 exactly "
        "when P > R/beta",
        sp.And(
            sp.Eq(DELTA, delta),
            sp.Equivalent(sp.Lt(DELTA, 1), sp.Gt(P, R / beta)),
        ),
        [4, 5, 6, 7, len(pf.steps) - 1, len(pf.steps)],
    )
    ratio = pf.equal(
        "The marginal values: (dF/dR)/(dF/dP) = 1/delta",
        sp.diff(f_beta(P, R), R) / sp.diff(f_beta(P, R), P),
        1 / delta,
        shown=sp.Eq(
            sp.Symbol(r"\frac{\partial F_\beta / \partial R}{\partial F_\beta / \partial P}"),
            1 / delta,
        ),
    )
    del ratio
    rr = sp.Symbol("x", positive=True)
    below_big = pf.obtain(
        "Area below the line P = R/beta in the unit square, beta >= 1",
        sp.integrate(rr / beta, (rr, 0, 1)),
        "integrate",
    )
    pf.true(
        "It decreases in beta",
        sp.Lt(sp.diff(below_big, beta), 0, evaluate=False),
        "diff, sign under positivity",
    )
    below_small = pf.obtain(
        "For beta <= 1 the line leaves the square at R = beta: area below",
        sp.simplify(sp.integrate(rr / beta, (rr, 0, beta)) + (1 - beta)),
        "integrate",
    )
    pf.equal("= 1 - beta/2", below_small, 1 - beta / 2)
    pf.sign(
        "which also decreases in beta",
        sp.diff(below_small, beta),
        "<",
        how="diff, sign under positivity",
    )
    gap = (sp.diff(f_beta(P, R), R) - sp.diff(f_beta(P, R), P)).subs(R, u * beta * P)
    pf.check(
        "exact",
        "Above the line (R = u beta P, u < 1) dF/dR > dF/dP: recall is worth more there",
        exact_sign(gap, pr_sampler(beta, 8, first=u), strict=True, n=200),
    )
    f = sp.lambdify(
        (P, R), sp.factor(sp.diff(f_beta(P, R, 3), P) - sp.diff(f_beta(P, R, 3), R)), "mpmath"
    )
    pf.check(
        "interval",
        "beta = 3, below the line (R >= 3P + 1/100 inside [0,1]^2, via R = 3P + 1/100 + s(1 - 3P - 1/100)): dF/dP > dF/dR",
        interval_sign(
            lambda p_, s_: f(
                p_, 3 * p_ + mpmath.mpf(1) / 100 + s_ * (1 - 3 * p_ - mpmath.mpf(1) / 100)
            ),
            [(Fraction(1, 100), Fraction(32, 100)), (0, 1)],
            cells=12,
            strict=True,
        ),
    )


# ---- G6 ---------------------------------------------------------------------------------------
#: The marginal ratio (dF/dR)/(dF/dP) of F_beta at (beta, P, R).
MARGINAL = sp.Function("M")
b_, p_, r_ = sp.symbols("b p r", positive=True)


@claim(
    "G6",
    source=SOURCE,
    location="The Weighted Harmonic Mean (examples)",
    title="beta = 3, P = 25%: switch at R = 75%; tuned at beta = 0.3 with P = 90%, R = 36%: beta > 0.4",
    statement=lambda: sp.And(
        sp.Eq(MARGINAL(3, sp.Rational(1, 4), sp.Rational(3, 4)), 1, evaluate=False),
        sp.Implies(
            sp.Gt(MARGINAL(beta, sp.Rational(90, 100), sp.Rational(36, 100)), 1),
            sp.Gt(beta, sp.Rational(36, 100) / sp.Rational(90, 100)),
        ),
        evaluate=False,
    ),
    assumptions=(
        "preferences follow F_beta (G5): recall is preferred where the marginal ratio "
        "(dF/dR)/(dF/dP) exceeds 1; the two are worth the same where it is 1",
    ),
    domain=Domain(
        BETA,
        define={
            MARGINAL: sp.Lambda(
                (b_, p_, r_),
                (sp.diff(f_beta(P, R), R) / sp.diff(f_beta(P, R), P)).subs(
                    {beta: b_, P: p_, R: r_}
                ),
            )
        },
        samples=60,
    ),
    note=(
        "Both examples are right: 75%/25% = 3 and 36%/90% = 0.4 exactly, and preferring recall at "
        "(P, R) = (0.9, 0.36) means dF/dR > dF/dP there, i.e. β > 0.4 (so β = 0.3 was too small and "
        "β = 0.5 is consistent). The gloss 'β = .3, meaning that we cared about recall about 30% as "
        "much as precision' is loose: β is the ratio R/P at which the two are valued equally; at "
        "P = R the ratio of marginal values is β² = 0.09."
    ),
)
def _g6(pf: Proof) -> None:
    ratio = sp.diff(f_beta(P, R), R) / sp.diff(f_beta(P, R), P)
    switch = sp.solve(sp.Eq(ratio.subs({beta: 3, P: sp.Rational(1, 4)}), 1), R)
    pf.obtain(
        "beta = 3, P = 1/4: recall and precision are worth the same at",
        sp.Eq(R, switch[0]),
        "solve",
    )
    pf.true(
        "R = 3/4 = 75%",
        sp.Eq(sp.FiniteSet(*switch), sp.FiniteSet(sp.Rational(3, 4))),
        "exact",
        shown=sp.Eq(R, switch[0], evaluate=False),
    )
    above = ratio.subs({beta: 3, P: sp.Rational(1, 4), R: sp.Rational(4, 5)})
    pf.true(
        "At R = 80% > 75% a unit of precision is worth more (ratio < 1)",
        sp.Lt(above, 1, evaluate=False),
        "exact evaluation",
    )
    at = {P: sp.Rational(9, 10), R: sp.Rational(36, 100)}
    b_star = sp.solve(sp.Eq(ratio.subs(at), 1), beta)
    pf.obtain(
        "At P = 0.9, R = 0.36 the two are worth the same when", sp.Eq(beta, b_star[0]), "solve"
    )
    pf.true(
        "beta* = 0.36/0.9 = 2/5 = 0.4",
        sp.Eq(sp.FiniteSet(*b_star), sp.FiniteSet(sp.Rational(2, 5))),
        "exact",
        shown=sp.Eq(beta, b_star[0], evaluate=False),
    )
    pf.equal(
        "(dF/dR)/(dF/dP) at that point",
        ratio.subs(at),
        beta**2 * 625 / 100,
        shown=sp.Eq(
            sp.Symbol(
                r"\frac{\partial F_\beta / \partial R}{\partial F_\beta / \partial P}(0.9, 0.36)"
            ),
            beta**2 * 625 / 100,
        ),
    )
    pf.true(
        "It exceeds 1 (she prefers recall) exactly when beta > 0.4",
        sp.Eq(
            sp.solveset(beta**2 * sp.Rational(25, 4) > 1, beta, sp.Interval.open(0, sp.oo)),
            sp.Interval.open(sp.Rational(2, 5), sp.oo),
        ),
        "solveset over beta > 0",
        shown=sp.Equivalent(sp.Gt(beta**2 * sp.Rational(25, 4), 1), sp.Gt(beta, sp.Rational(2, 5))),
    )
    pf.equal(
        "At beta = 3, P = 1/4, R = 3/4 the marginal ratio is 1",
        ratio.subs({beta: 3, P: sp.Rational(1, 4), R: sp.Rational(3, 4)}),
        1,
    )
    equal_at = len(pf.steps)
    at_point = ratio.subs(at)
    scale = sp.Rational(25, 4) * (beta + sp.Rational(2, 5))
    pf.equal(
        "At (0.9, 0.36) the ratio minus 1 is beta - 2/5 times a factor",
        at_point - 1,
        scale * (beta - sp.Rational(2, 5)),
    )
    pf.sign("which is positive", scale, ">")
    pf.establish(
        "The ratio is 1 at R = 3/4 (beta = 3, P = 1/4); at (0.9, 0.36) it exceeds 1 exactly when "
        "beta > 0.4",
        sp.And(
            sp.Eq(MARGINAL(3, sp.Rational(1, 4), sp.Rational(3, 4)), 1, evaluate=False),
            sp.Implies(
                sp.Gt(MARGINAL(beta, sp.Rational(90, 100), sp.Rational(36, 100)), 1),
                sp.Gt(beta, b_star[0]),
            ),
            evaluate=False,
        ),
        [equal_at, equal_at + 1, equal_at + 2],
    )
    pf.true(
        "beta = 0.3 prefers precision there; beta = 0.5 prefers recall",
        sp.And(
            sp.Lt(ratio.subs(at).subs(beta, sp.Rational(3, 10)), 1),
            sp.Lt(1, ratio.subs(at).subs(beta, sp.Rational(1, 2))),
        ),
        "exact evaluation",
        shown=sp.Tuple(
            sp.Lt(ratio.subs(at).subs(beta, sp.Rational(3, 10)), 1, evaluate=False),
            sp.Gt(ratio.subs(at).subs(beta, sp.Rational(1, 2)), 1, evaluate=False),
        ),
    )

    # Independent: compare F_beta after a small step in either direction, exactly.
    def prefers_recall(
        b: Fraction, p: Fraction, r: Fraction, h: Fraction = Fraction(1, 10**6)
    ) -> bool:
        fb = lambda pp, rr: (1 + b * b) * pp * rr / (b * b * pp + rr)  # noqa: E731
        return fb(p, r + h) > fb(p + h, r)

    cases = [
        (Fraction(3), Fraction(1, 4), Fraction(74, 100), True),
        (Fraction(3), Fraction(1, 4), Fraction(76, 100), False),
        (Fraction(3, 10), Fraction(9, 10), Fraction(36, 100), False),
        (Fraction(41, 100), Fraction(9, 10), Fraction(36, 100), True),
        (Fraction(39, 100), Fraction(9, 10), Fraction(36, 100), False),
        (Fraction(1, 2), Fraction(9, 10), Fraction(36, 100), True),
    ]
    ok = all(prefers_recall(b, p, r) == want for b, p, r, want in cases)
    pf.check(
        "exact",
        "Finite steps of 10^-6 in Fractions: which step raises F_beta more, either side of R = 0.75 and of beta = 0.4",
        (
            ok,
            "recall preferred at R = 0.74 (beta 3), precision at 0.76; at (0.9, 0.36) recall for beta 0.41 and 0.5, precision for 0.39 and 0.3",
        ),
    )


# ---- G7 ---------------------------------------------------------------------------------------
@claim(
    "G7",
    source=SOURCE,
    location="The Weighted Geometric Mean",
    title="(P^gamma R)^(1/(1+gamma)) = (P R^beta)^(1/(1+beta)) with beta = 1/gamma; indifference on R/P = beta",
    statement=lambda: sp.And(
        sp.Eq(geometric(P, R, 1 / beta), (P * R**beta) ** (1 / (1 + beta))),
        sp.Eq(DELTA, R / (beta * P)),
    ),
    assumptions=(
        "0 < P, R <= 1, beta = 1/gamma > 0",
        "delta: units of recall a unit of precision is worth, (dG/dP)/(dG/dR)",
    ),
    domain=Domain(
        UNIT_P,
        UNIT_R,
        BETA,
        define={
            G_OF: sp.Lambda((P, R), (P * R**beta) ** (1 / (1 + beta))),
            DELTA: sp.Derivative(G_OF(P, R), P) / sp.Derivative(G_OF(P, R), R),
        },
        samples=60,
    ),
)
def _g7(pf: Proof) -> None:
    g = pf.given("Weighted geometric mean, weight gamma on P", geometric(P, R))
    gb = g.subs(gamma, 1 / beta)
    form = (P * R**beta) ** (1 / (1 + beta))
    pf.equal(
        "Logarithms with gamma = 1/beta: (ln P + beta ln R)/(1 + beta) on both sides",
        sp.expand_log(sp.log(gb), force=True),
        sp.expand_log(sp.log(form), force=True),
    )
    pf.equal("so the two forms are equal", gb, form)
    d = pf.obtain("dP/dR on a level curve", level_slope(form), "diff")
    pf.equal("The slope is -beta P/R", d, -beta * P / R)
    delta = -1 / d
    gp = pf.value("dG/dP", sp.Derivative(form, P), sp.diff(form, P), "diff")
    gr = pf.value("dG/dR", sp.Derivative(form, R), sp.diff(form, R), "diff")
    pf.equal("delta = (dG/dP)/(dG/dR) = -1/slope", gp / gr, delta)
    pf.establish(
        "The geometric mean with gamma = 1/beta, and delta = -1/slope",
        sp.And(sp.Eq(gb, form, evaluate=False), sp.Eq(DELTA, R / (beta * P))),
        [3, 6, 7, 8],
    )
    pf.true(
        "delta = R/(beta P) = 1 exactly on R/P = beta",
        sp.Eq(sp.FiniteSet(*sp.solve(sp.Eq(delta, 1), R)), sp.FiniteSet(beta * P)),
        "solve",
        shown=sp.Equivalent(sp.Eq(delta, 1), sp.Eq(R, beta * P)),
    )
    pf.check(
        "numeric",
        "Both forms with mpmath at 50 digits",
        mp_identity(gb, form, pr_sampler(beta, 6)),
    )
    pf.check(
        "numeric",
        "Level-curve slope by the implicit derivative vs -beta P/R, mpmath at 50 digits",
        mp_identity(
            -sp.diff(form, R) / sp.diff(form, P),
            -beta * P / R,
            pr_sampler(beta, 6),
        ),
    )


# ---- G8 ---------------------------------------------------------------------------------------
@claim(
    "G8",
    source=SOURCE,
    location="The Weighted Geometric Mean",
    title="Harmonic < geometric < arithmetic unless P = R",
    statement=lambda: sp.Implies(
        sp.Ne(P, R),
        sp.And(
            sp.Lt(harmonic(P, R, 1), geometric(P, R, 1)),
            sp.Lt(geometric(P, R, 1), arithmetic(P, R, 1)),
        ),
    ),
    assumptions=(
        "P, R > 0",
        "the same weights for all three means (equal weights in the claim; any gamma > 0 below)",
    ),
    domain=Domain(UNIT_P, UNIT_R, samples=80),
)
def _g8(pf: Proof) -> None:
    a, b = sp.symbols("a b", positive=True)  # P = a^2, R = b^2
    pf.given("Write P = a^2, R = b^2 with a, b > 0", sp.Tuple(sp.Eq(P, a**2), sp.Eq(R, b**2)))
    am, gm, hm = arithmetic(a**2, b**2, 1), geometric(a**2, b**2, 1), harmonic(a**2, b**2, 1)
    pf.equal("Arithmetic - geometric", am - gm, (a - b) ** 2 / 2)
    pf.equal("Geometric - harmonic", gm - hm, a * b * (a - b) ** 2 / (a**2 + b**2))
    pf.true(
        "Both are squares times positive factors: > 0 unless a = b, i.e. P = R; all equal when P = R",
        sp.And(
            sp.Eq(am.subs(a, b), hm.subs(a, b), evaluate=False),
            sp.Eq(gm.subs(a, b), b**2, evaluate=False),
            evaluate=False,
        ),
        "substitution",
        shown=sp.Tuple(am.subs(a, b), sp.simplify(gm.subs(a, b)), sp.simplify(hm.subs(a, b))),
    )
    amp, gmp, hmp = arithmetic(P, R, 1), geometric(P, R, 1), harmonic(P, R, 1)
    gap_ag = (P - R) ** 2 / (2 * (sp.sqrt(P) + sp.sqrt(R)) ** 2)
    gap_gh = sp.sqrt(P * R) * (P - R) ** 2 / ((P + R) * (sp.sqrt(P) + sp.sqrt(R)) ** 2)
    pf.equal("In P and R: arithmetic - geometric", amp - gmp, gap_ag)
    pf.equal("and geometric - harmonic", gmp - hmp, gap_gh)
    cited = [len(pf.steps) - 1, len(pf.steps)]
    e = sp.Symbol("e", positive=True)
    for where, subs in ((sp.Lt(P, R), {R: P + e}), (sp.Gt(P, R), {P: R + e})):
        for gap in (gap_ag, gap_gh):
            pf.sign(
                f"positive when {sp.sstr(where)}: (P - R)^2 = e^2 > 0 over positive factors",
                gap,
                ">",
                subs,
                how=f"sign with {', '.join(f'{k} = {v}' for k, v in subs.items())}, e > 0",
                where=where,
            )
            cited.append(len(pf.steps))
    pf.establish(
        "Both differences are positive when P < R and when P > R, i.e. when P != R",
        sp.Implies(
            sp.Ne(P, R),
            sp.And(
                sp.Lt(harmonic(P, R, 1), geometric(P, R, 1)),
                sp.Lt(geometric(P, R, 1), arithmetic(P, R, 1)),
            ),
        ),
        cited,
    )
    # Weighted version (weight w = gamma/(1+gamma) on P), with x = P/R.
    x, w = sp.symbols("x w", positive=True)
    h = w * x + 1 - w - x**w
    pf.equal(
        "Weighted AM-GM: with P = x R and w = gamma/(1+gamma), (A_gamma - G_gamma)/R is "
        "h(x) = w x + 1 - w - x^w",
        (arithmetic(x * R, R) - geometric(x * R, R)) / R,
        h.subs(w, gamma / (1 + gamma)),
    )
    dh = pf.obtain("h'(x)", sp.diff(h, x), "diff")
    pf.equal("h(1) = 0", h.subs(x, 1), 0)
    pf.equal("h'(1) = 0", dh.subs(x, 1), 0)
    d2 = pf.obtain("h''(x)", sp.factor(sp.diff(h, x, 2)), "diff")
    pf.equal(
        "h''(x) = w (1 - w) x^(w-2) > 0 for 0 < w < 1: h is strictly convex, so h > 0 for x != 1",
        d2,
        w * (1 - w) * x ** (w - 2),
    )
    pf.equal(
        "GM >= HM follows from AM >= GM at 1/P, 1/R: H(P, R) = 1/A(1/P, 1/R)",
        1 / arithmetic(1 / P, 1 / R),
        harmonic(P, R),
    )
    pf.equal(
        "and G(P, R) = 1/G(1/P, 1/R) (compared through logarithms)",
        sp.expand_log(sp.log(1 / geometric(1 / P, 1 / R)), force=True),
        sp.expand_log(sp.log(geometric(P, R)), force=True),
    )

    def sample(rng):
        ka, kb = rng.sample(range(1, 1000), 2)  # distinct, so P != R
        return {a: sp.Rational(ka, 1000), b: sp.Rational(kb, 1000)}

    pf.check(
        "exact",
        "With rational square roots (P = a^2, R = b^2, a != b): H < G < A exactly",
        exact_sign(sp.Min(am - gm, gm - hm), sample, strict=True, n=200),
    )
    rs = pr_sampler(gamma, 10)
    with mpmath.workdps(50):
        f_ag = sp.lambdify((P, R, gamma), arithmetic(P, R) - geometric(P, R), "mpmath")
        f_gh = sp.lambdify((P, R, gamma), geometric(P, R) - harmonic(P, R), "mpmath")
        rng = random.Random(2019)
        gaps = []
        for _ in range(300):
            pt = rs(rng)
            args = [mpmath.mpf(pt[s].p) / pt[s].q for s in (P, R, gamma)]
            gaps.append(min(f_ag(*args), f_gh(*args)))
        worst = min(gaps)
        pf.check(
            "numeric",
            "Weighted (any gamma): A_gamma - G_gamma > 0 and G_gamma - H_gamma > 0 at 300 random points, mpmath 50 digits",
            (worst > 0, f"smallest gap {mpmath.nstr(worst, 5)}"),
        )
