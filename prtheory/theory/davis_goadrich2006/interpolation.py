"""Claims D4-D6: interpolation between two PR points, Table 1 and the Figure 6 example (Davis &
Goadrich 2006, §4).

Between points A = (TP_A, FP_A) and B = (TP_A + Delta, FP_B) the interpolated points are
``(TP_A + x, FP_A + s x)`` with the local skew ``s = (FP_B - FP_A)/Delta``, so precision along
the segment is the Möbius function ``p(x) = (TP_A + x)/(TP_A + F_A + (1 + s) x)`` of ``x`` (and
of recall ``(TP_A + x)/P``, which is linear in ``x``).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import sympy as sp

from prtheory.data import davis_goadrich2006_figures, davis_goadrich2006_table1
from prtheory.oracle.achievable import achievable_pr_curve
from prtheory.oracle.areas import pr_auc
from prtheory.theory.checks import exact_identity, exact_sign, rational_sampler, refuted
from prtheory.theory.common import name, printed_as, round_half_up
from prtheory.theory.domain import Domain, Real
from prtheory.theory.registry import Proof, claim

SOURCE = "Davis & Goadrich 2006 (paper)"

T_A = sp.Symbol("TP_A", positive=True)
F_A = sp.Symbol("FP_A", nonnegative=True)
s = sp.Symbol("s", nonnegative=True)
Delta = sp.Symbol("Delta", positive=True)
x = sp.Symbol("x", nonnegative=True)


def along(xx: sp.Expr) -> sp.Expr:
    """Precision at ``TP_A + xx`` on the segment: ``(TP_A + xx)/(TP_A + xx + FP_A + s xx)``.

    Parameters
    ----------
    xx : sympy expression
        TP gained past A.

    Returns
    -------
    sympy expression
        Precision there, in ``TP_A``, ``FP_A`` and ``s``.

    Examples
    --------
    From A = (TP 5, FP 5) with local skew 5 (Table 1): one more TP brings 5 more FP, precision
    ``6/(6 + 5 + 5) = 3/8``:

    >>> from prtheory.theory.davis_goadrich2006.interpolation import F_A, T_A, along, s
    >>> along(1).subs({T_A: 5, F_A: 5, s: 5})
    3/8
    """
    return (T_A + xx) / (T_A + xx + F_A + s * xx)


# ---- D4 ---------------------------------------------------------------------------------------
p_x, p_A, p_B, L_x = (name(n) for n in ("p(x)", "p_A", "p_B", r"\ell(x)"))
#: The non-negative weight by which the chord exceeds the curve per unit of precision drop.
WEIGHT = x * (Delta - x) * (1 + s) / (Delta * (T_A + F_A + (1 + s) * x))
D4_STATEMENT = sp.And(sp.Eq(L_x - p_x, (p_A - p_B) * WEIGHT), sp.Ge(WEIGHT, 0))


@claim(
    "D4",
    source=SOURCE,
    location="§4, the interpolation formula and 'an overly-optimistic estimate'",
    title="Linear interpolation in PR space overestimates precision exactly where it falls",
    statement=lambda: D4_STATEMENT,
    assumptions=(
        "points A = (TP_A, FP_A) with TP_A > 0 and B = (TP_A + Delta, FP_A + s Delta), Delta > 0, "
        "local skew s >= 0",
        "p(x) is the precision of the interpolated point (TP_A + x, FP_A + s x), 0 <= x <= Delta; "
        "l(x) the straight line in PR space from (recall_A, p_A) to (recall_B, p_B) (recall is "
        "linear in x)",
    ),
    domain=Domain(
        Real(T_A, 0, 1000, open_lo=True),
        Real(F_A, 0, 1000),
        Real(s, 0, 1000),
        Real(Delta, 0, 1000, open_lo=True),
        Real(x, 0, Delta),
        define={
            p_x: along(x),
            p_A: along(0),
            p_B: along(Delta),
            L_x: along(0) + (along(Delta) - along(0)) * x / Delta,
        },
        samples=150,
    ),
    verdict="holds as corrected",
    note=(
        "The interpolated points (TP_A + x, FP_A + s x) are right, and so is Table 1. But §4 says "
        "linear interpolation in PR space 'is a mistake that yields an overly-optimistic "
        "estimate of performance'. The straight line exceeds the achievable precision by "
        "(p_A - p_B) x (Delta - x)(1 + s)/(Delta (TP_A + FP_A + (1 + s) x)): it is optimistic "
        "only on segments where precision falls (s > FP_A/TP_A, as in Table 1, s = 5 > 1), "
        "pessimistic where precision rises (s < FP_A/TP_A, after a run of negatives: A = (1, 9), "
        "B = (5, 10)), and exact where it is constant. Precision along a segment is convex where "
        "it falls and concave where it rises."
    ),
)
def _d4(pf: Proof) -> None:
    pf.given(
        "The interpolated point at TP_A + x and its precision",
        sp.Eq(p_x, along(x)),
    )
    chord = along(0) + (along(Delta) - along(0)) * x / Delta
    pf.equal(
        "Chord minus curve, factored",
        chord - along(x),
        (along(0) - along(Delta)) * WEIGHT,
    )
    pf.sign(
        "The weight is >= 0 on the segment (x = Delta v/(1 + v), v >= 0, puts x in [0, Delta))",
        WEIGHT,
        ">=",
        {x: Delta * sp.Symbol("v", nonnegative=True) / (1 + sp.Symbol("v", nonnegative=True))},
        how="sign with x = Delta v/(1 + v)",
    )
    pf.equal(
        "The precision drop from A to B has the sign of s TP_A - FP_A",
        along(0) - along(Delta),
        (s * T_A - F_A) * Delta / ((T_A + F_A) * (T_A + F_A + (1 + s) * Delta)),
    )
    pf.equal(
        "Curvature: p''(x) = 2 (1 + s)(s TP_A - FP_A)/(TP_A + FP_A + (1 + s) x)^3, of the same "
        "sign (convex where precision falls)",
        sp.diff(along(x), x, 2),
        2 * (1 + s) * (s * T_A - F_A) / (T_A + F_A + (1 + s) * x) ** 3,
    )
    pf.establish(
        "Chord minus curve is the precision drop times a non-negative weight",
        D4_STATEMENT,
        [2, 3],
    )
    table1 = {T_A: 5, F_A: 5, s: 5, Delta: 5}
    pf.check(
        "exact",
        "Table 1's segment (A = (5, 5), B = (10, 30), s = 5): the chord is above the curve at "
        "x = 1, 2, 3, 4",
        (
            all((chord - along(x)).subs({**table1, x: k}) > 0 for k in range(1, 5)),
            "chord - curve = "
            + ", ".join(str((chord - along(x)).subs({**table1, x: k})) for k in range(1, 5)),
        ),
    )
    pf.check(
        "exact",
        "§4's 'overly-optimistic' as a statement, the line never below the curve "
        "(l(x) >= p(x)) on every segment, over this domain",
        refuted(sp.Ge(L_x - p_x, 0), pf.domain),
    )
    rising = {T_A: 1, F_A: 9, s: sp.Rational(1, 4), Delta: 4}
    pf.check(
        "exact",
        "A rising segment, A = (1, 9), B = (5, 10): the chord is below the curve",
        (
            all((chord - along(x)).subs({**rising, x: k}) < 0 for k in range(1, 4)),
            "chord - curve = "
            + ", ".join(str((chord - along(x)).subs({**rising, x: k})) for k in range(1, 4)),
        ),
    )
    pf.check(
        "exact",
        "The factored form at random rational points, exactly",
        exact_identity(
            chord - along(x),
            (along(0) - along(Delta)) * WEIGHT,
            rational_sampler({T_A: (0, 50), F_A: (0, 50), s: (0, 20), Delta: (0, 30), x: (0, 1)}),
        ),
    )
    pf.check(
        "exact",
        "The weight is >= 0 at random points of the segment (x = Delta w, 0 < w < 1)",
        exact_sign(
            WEIGHT.subs(x, Delta * sp.Symbol("w")),
            rational_sampler(
                {T_A: (0, 50), F_A: (0, 50), s: (0, 20), Delta: (0, 30), sp.Symbol("w"): (0, 1)}
            ),
        ),
    )


# ---- D5 ---------------------------------------------------------------------------------------
TABLE1_POS, TABLE1_NEG = 20, 2000


def _table1_parts() -> list[tuple[str, sp.Basic]]:
    """(what, statement) per printed cell: each row's TP and FP on the line from A with local
    skew 5, and its recall and precision rounding to the printed values."""
    out = []
    for k, (tp, fp, rec, prec) in enumerate(davis_goadrich2006_table1()):
        on_line = sp.Eq(sp.Integer(fp), 5 + 5 * (sp.Integer(tp) - 5), evaluate=False)
        out.append((f"row {k}: FP = 5 + 5 (TP - 5) at TP = {tp}", on_line))
        out.append(
            (f"row {k}: recall {tp}/20 rounds to {rec}", printed_as(sp.Rational(tp, 20), rec))
        )
        value = sp.Rational(tp, tp + fp)
        out.append((f"row {k}: precision {value} rounds to {prec}", printed_as(value, prec)))
    return out


@claim(
    "D5",
    source=SOURCE,
    location="§4, Table 1",
    title="Table 1: the interpolated points between (5, 5) and (10, 30), 20 positives",
    statement=lambda: sp.And(*(st for _, st in _table1_parts()), evaluate=False),
    assumptions=(
        "20 positives and 2000 negatives; A = (TP 5, FP 5), B = (TP 10, FP 30); local skew "
        "(30 - 5)/(10 - 5) = 5",
        "each printed number rounded half up to its printed decimals",
    ),
    domain=Domain(),
)
def _d5(pf: Proof) -> None:
    pf.value(
        "The local skew",
        (sp.Integer(30) - 5) / (sp.Integer(10) - 5),
        5,
        "exact rational arithmetic",
    )
    facts = []
    for what, st in _table1_parts():
        pf.true(what, st, "exact rational arithmetic")
        facts.append(len(pf.steps))
    pf.establish(
        "Every printed cell of Table 1",
        sp.And(*(st for _, st in _table1_parts()), evaluate=False),
        facts,
    )
    rows = davis_goadrich2006_table1()
    pf.check(
        "printed-number",
        "The printed precisions to 3 decimals from TP/(TP + FP)",
        (
            all(
                round_half_up(Fraction(tp, tp + fp), 3) == Fraction(prec)
                for tp, fp, _, prec in rows
            ),
            ", ".join(
                f"{tp}/{tp + fp} = {float(Fraction(tp, tp + fp)):.4f}" for tp, fp, _, _ in rows
            ),
        ),
    )


# ---- D6 ---------------------------------------------------------------------------------------
FIG6_POS, FIG6_NEG = sp.Integer(433), sp.Integer(56164)
FIG6_RECALL = sp.Rational(2, 100)
FIG6_TP = FIG6_RECALL * FIG6_POS  # 8.66, not a whole number of positives
FIG6_SKEW = FIG6_NEG / (FIG6_POS - FIG6_TP)
tt = sp.Symbol("t", positive=True)
A_DG, A_LIN = name(r"\mathrm{AUCPR}_{\mathrm{DG}}"), name(r"\mathrm{AUCPR}_{\mathrm{linear}}")
#: the meanings: precision 1 up to the point, then the Davis-Goadrich segment to (433, 56164)
FIG6_DG = (
    FIG6_RECALL
    + sp.Integral(tt / (tt + FIG6_SKEW * (tt - FIG6_TP)), (tt, FIG6_TP, FIG6_POS)) / FIG6_POS
)
FIG6_END_PRECISION = FIG6_POS / (FIG6_POS + FIG6_NEG)
FIG6_LINEAR = FIG6_RECALL + (1 - FIG6_RECALL) * (1 + FIG6_END_PRECISION) / 2
#: the closed form: sympy's integration of the segment (in the form ``doit`` returns it, so that
#: comparing it with the integral never asks the simplifier to combine logarithms of large
#: rationals); it is T_A/P + ((P - T_A)/c + (s T_A/c^2) ln((P + N)/T_A))/P with c = 1 + s
FIG6_DG_CLOSED = FIG6_DG.doit()


def _fig6_statement() -> sp.Basic:
    return sp.And(
        sp.Eq(A_DG, FIG6_DG_CLOSED),
        printed_as(FIG6_DG_CLOSED, "0.029"),
        sp.Eq(A_LIN, FIG6_LINEAR),
        printed_as(FIG6_LINEAR, "0.514"),
        evaluate=False,
    )


def _discrete_reconstruction(tp_a: int, end_precision: Fraction) -> Fraction:
    """Trapezoids through (0, 1), (tp_a/433, 1), the points at every whole TP after tp_a with
    FP growing by the local skew, and (1, end_precision): the printed method with TP_A rounded."""
    pos = 433
    fp_end = pos / end_precision - pos
    skew = fp_end / (pos - tp_a)
    pts = [(Fraction(0), Fraction(1)), (Fraction(tp_a, pos), Fraction(1))]
    pts += [(Fraction(k, pos), k / (k + skew * (k - tp_a))) for k in range(tp_a + 1, pos + 1)]
    return sum(((b[0] - a[0]) * (a[1] + b[1]) / 2 for a, b in itertools.pairwise(pts)), Fraction(0))


@claim(
    "D6",
    source=SOURCE,
    location="§4, Figure 6",
    title="Figure 6: from the point (0.02, 1), 433 positives, 56,164 negatives",
    statement=_fig6_statement,
    assumptions=(
        "433 positives and 56,164 negatives; the one point (recall 0.02, precision 1), i.e. "
        "TP = 8.66, FP = 0, extended to (0, 1) and to the all-positive classifier (1, "
        "433/56597 = 0.00765, printed 0.008)",
        "correct: precision 1 up to the point, then Davis-Goadrich interpolation to (TP 433, "
        "FP 56164); linear: straight lines in PR space through (0, 1), (0.02, 1), (1, 0.00765)",
    ),
    domain=Domain(define={A_DG: FIG6_DG, A_LIN: FIG6_LINEAR}),
    verdict="holds as corrected",
    note=(
        "§4 prints an AUC-PR of 0.031 for the correct interpolation and 0.50 for a linear "
        "connection. From the stated point they are 0.0287 and 0.5137 (0.029 and 0.514); and "
        "0.02 x 433 = 8.66 is not a whole number of positives. Two readings reproduce the printed "
        "numbers: trapezoids through the interpolated points at every whole TP, with TP_A "
        "rounded to 9 and precision 0.008 (not 433/56597) at recall 1, give 0.0307; a straight "
        "line from (0, 1) to (1, 0.008), which ignores the point, gives 0.504. The conclusion "
        "holds: linear interpolation overstates this area about eighteenfold."
    ),
)
def _d6(pf: Proof) -> None:
    pf.given("The correct curve's area (precision 1 up to TP = 8.66)", sp.Eq(A_DG, FIG6_DG))
    pf.value("sympy integrates the Davis-Goadrich segment", FIG6_DG, FIG6_DG_CLOSED, "integrate")
    c = 1 + FIG6_SKEW
    pf.true(
        "which is T_A/P + ((P - T_A)/c + (s T_A/c^2) ln((P + N)/T_A))/P, c = 1 + s (at 40 "
        "digits the two agree; their logarithms differ only in how sympy splits the rationals)",
        sp.Lt(
            sp.Abs(
                FIG6_DG_CLOSED
                - FIG6_RECALL
                - (
                    (FIG6_POS - FIG6_TP) / c
                    + FIG6_SKEW * FIG6_TP / c**2 * sp.log((FIG6_POS + FIG6_NEG) / FIG6_TP)
                )
                / FIG6_POS
            ),
            sp.Rational(1, 10**30),
            evaluate=False,
        ),
        "sympy's numerical evaluation",
    )
    pf.true(
        "which rounds to 0.029, not the printed 0.031",
        printed_as(FIG6_DG_CLOSED, "0.029"),
        "sympy's evaluation of the closed form",
    )
    pf.value(
        "The straight lines: 0.02 at precision 1, then the trapezoid from (0.02, 1) to "
        "(1, 433/56597)",
        FIG6_LINEAR,
        sp.Rational(FIG6_LINEAR),
        "exact rational arithmetic",
    )
    pf.true(
        "which rounds to 0.514, not the printed 0.50",
        printed_as(FIG6_LINEAR, "0.514"),
        "exact rational arithmetic",
    )
    pf.establish("The two areas from the stated point", _fig6_statement(), [2, 4, 5, 6])
    printed = davis_goadrich2006_figures()
    with mpmath.workdps(40):
        curve = achievable_pr_curve([Fraction(2, 100)], [1], pos=433, neg=56164)
        oracle_dg = curve.area(dps=40)
        closed = sp.N(FIG6_DG_CLOSED, 40)
        pf.check(
            "numeric",
            "The oracle's achievable curve of the point has the same area",
            (
                abs(oracle_dg - mpmath.mpf(str(closed))) < mpmath.mpf(10) ** -35,
                f"{mpmath.nstr(oracle_dg, 12)} (the closed form {sp.N(FIG6_DG_CLOSED, 12)})",
            ),
        )
    for what, area in (("correct", A_DG), ("linear", A_LIN)):
        pf.check(
            "printed-number",
            f"§4's printed {printed['figure6 ' + what]} for the {what} area, as a statement "
            "(the area rounds to it), over this domain",
            refuted(printed_as(area, printed["figure6 " + what]), pf.domain),
        )
    recon = _discrete_reconstruction(9, Fraction(8, 1000))
    line = (1 + Fraction(8, 1000)) / 2
    pf.check(
        "printed-number",
        "Readings that reproduce the printed numbers: whole-TP trapezoids with TP_A = 9 and "
        "precision 0.008 at recall 1; a line from (0, 1) to (1, 0.008)",
        (
            round_half_up(recon, 3) == Fraction("0.031")
            and round_half_up(line, 2) == Fraction("0.50"),
            f"{float(recon):.5f} -> 0.031 and {float(line)} -> 0.50",
        ),
    )
    pr = pr_auc(
        [1] * 9 + [1] * 424 + [0] * 56164,
        [2] * 9 + [1] * (424 + 56164),
        method="davis-goadrich",
        first_point="spark",
    )
    pf.check(
        "numeric",
        "With TP_A rounded to 9 the exact Davis-Goadrich area is 0.0295, still not 0.031",
        (
            round_half_up(Fraction(str(mpmath.nstr(pr, 30))), 3) == Fraction("0.029"),
            mpmath.nstr(pr, 6),
        ),
    )
