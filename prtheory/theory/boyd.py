"""Claims B1-B16: Boyd, Santos Costa, Davis & Page (ICML 2012), seeds 000 (paper) and 001 (slides).

Each main formula is checked by a *derivation function* that takes the candidate formula as an
argument (``derive_min_precision``, ``derive_area``, ``derive_antiderivative``,
``derive_ap_min``, ``derive_modified_f1``) and by *check functions* that take it too
(``check_bound_enumeration``, ``check_area_quadrature``, ``check_antiderivative_numeric``,
``check_ap_min_enumeration``, ``check_modified_f1_grid``). The registered claims run them on the
documents' formulas; the tests run them on deliberately wrong variants, which must fail.

Exact helpers used by the checks (no sympy): :func:`worst_ranking` and :func:`mp_aucpr_min` (the
Theorem 2 closed form at any mpmath precision); the rankings, their sweeps and the Davis-Goadrich
area come from :mod:`prtheory.theory.common`, the AP of a ranking from
:func:`prtheory.theory.notes.average_precision` (N2).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction

import mpmath
import sympy as sp

from prtheory.data import boyd2012_table2, boyd2012_table3
from prtheory.theory.checks import (
    exact_function,
    exact_identity,
    exhaustive,
    interval_function,
    interval_sign,
    mp_derivative_identity,
    mp_identity,
    mp_quad_identity,
    rational_sampler,
)
from prtheory.theory.common import dg_aucpr, mp_fraction, name, rankings, sweep
from prtheory.theory.notes import average_precision
from prtheory.theory.registry import Proof, claim

SOURCE = "Boyd et al. 2012"

# Symbols shared by the B claims. Positivity assumptions let sympy decide signs.
pi, r, p = sp.symbols("pi r p", positive=True)
TP, pos, neg = sp.symbols("TP pos neg", positive=True)
FP = sp.Symbol("FP", nonnegative=True)
a, b = sp.symbols("a b", nonnegative=True)
t = sp.Symbol("t", positive=True)  # pi = 1/(1+t) runs over the open interval (0, 1) as t > 0
i = sp.Symbol("i", positive=True, integer=True)
A = sp.Symbol(r"\mathrm{AUCPR}", nonnegative=True)
M_MIN = sp.Symbol(r"\mathrm{AUCPR}_{\min}")
NPR = sp.Symbol(r"\mathrm{AUCNPR}")

UNIT_SKEW = {pi: 1 / (1 + t)}  # substitution that tells sympy 0 < pi < 1


# ---- the documents' formulas ---------------------------------------------------------------


def min_precision(r_: sp.Expr, pi_: sp.Expr) -> sp.Expr:
    """The Theorem 1 bound pi r / (1 - pi + pi r) (B1). Works on sympy objects and ``Fraction``."""
    return pi_ * r_ / (1 - pi_ + pi_ * r_)


def aucpr_min(pi_: sp.Expr) -> sp.Expr:
    """Theorem 2 (B4): AUCPR_min = 1 + (1 - pi) ln(1 - pi) / pi, as a sympy expression."""
    return 1 + (1 - pi_) * sp.log(1 - pi_) / pi_


def aucpr_min_range(a_: sp.Expr, b_: sp.Expr, pi_: sp.Expr) -> sp.Expr:
    """Corollary 4 (B7): AUCPR_min over recalls [a, b], as printed."""
    return b_ - a_ + (1 - pi_) / pi_ * sp.log((pi_ * (a_ - 1) + 1) / (pi_ * (b_ - 1) + 1))


#: The antiderivative of the bound printed on the slides (001, proof of Theorem 2).
SLIDES_ANTIDERIVATIVE = (r * pi + (pi - 1) * sp.log(pi * (r - 1) + 1)) / pi

#: The i-th term of Theorem 3 (B6): AP_min = (1/pos) sum_{i=1..pos} i / (i + neg).
AP_MIN_TERM = i / (i + neg)

#: The branch p > pi of the modified F1 of section 4.4 (B16).
MODIFIED_F1 = 2 * (p - pi) * r / (p - pi + (1 - pi) * r)


def modified_f1(r_: sp.Expr, p_: sp.Expr, pi_: sp.Expr) -> sp.Expr:
    """The paper's f'(r, p): 0 if p <= pi, else 2 (p - pi) r / (p - pi + (1 - pi) r) (B16)."""
    return sp.Piecewise((0, p_ <= pi_), (MODIFIED_F1.subs({r: r_, p: p_, pi: pi_}), True))


# ---- exact and mpmath helpers (independent of sympy) -----------------------------------------


def worst_ranking(n_pos: int, n_neg: int) -> tuple[int, ...]:
    """Every negative above every positive (B2)."""
    return (0,) * n_neg + (1,) * n_pos


def mp_aucpr_min(skew: mpmath.mpf) -> mpmath.mpf:
    """AUCPR_min at the current mpmath precision, with log1p (no cancellation in ln(1 - pi))."""
    skew = mpmath.mpf(skew)
    if skew == 0:
        return mpmath.mpf(0)
    if skew == 1:
        return mpmath.mpf(1)
    return 1 + (1 - skew) * mpmath.log1p(-skew) / skew


def iv_aucnpr(aucpr: mpmath.iv.mpf, skew: mpmath.iv.mpf) -> mpmath.iv.mpf:
    """An enclosure (``mpmath.iv``) of AUCNPR = (AUCPR - m)/(1 - m) with m = AUCPR_min(skew)."""
    iv = mpmath.iv
    m = 1 + (1 - skew) * iv.log(1 - skew) / skew
    return (aucpr - m) / (1 - m)


def _mp_invert_increasing(f: Callable[[mpmath.mpf], mpmath.mpf], y: mpmath.mpf) -> mpmath.mpf:
    """The x in (0, 1) with f(x) = y, for f strictly increasing on (0, 1): 200 bisections."""
    lo, hi = mpmath.mpf(0), mpmath.mpf(1)
    for _ in range(200):
        mid = (lo + hi) / 2
        if f(mid) < y:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _cell(printed: str) -> tuple[Fraction, Fraction]:
    """The rounding cell [x - h, x + h] of a printed decimal x with half a unit h in its last place."""
    decimals = len(printed.split(".")[1]) if "." in printed else 0
    h = Fraction(1, 2 * 10**decimals)
    return Fraction(printed) - h, Fraction(printed) + h


def _rounds_to(value: mpmath.mpf, printed: str) -> bool:
    lo, hi = _cell(printed)
    return mp_fraction(lo) <= value <= mp_fraction(hi)


# ---- small symbolic helpers ------------------------------------------------------------------


def _decide(expr: sp.Expr, relation: str, subs: dict | None = None) -> bool:
    """Decide ``expr > 0`` (relation ``">"``) or ``expr >= 0`` (``">="``) from sympy assumptions.

    ``subs`` is applied one substitution at a time, in order (so a later one may rewrite an earlier
    one's result: ``{p: pi + d, pi: 1/(1 + t)}``).
    """
    e = sp.sympify(expr)
    for old, new in (subs or {}).items():
        e = e.xreplace({old: new})
    attr = "is_positive" if relation == ">" else "is_nonnegative"
    for form in (
        e,
        sp.factor(sp.cancel(e)),
        sp.simplify(e),
        sp.expand_log(sp.simplify(e), force=True),
    ):
        if getattr(form, attr) is True:
            return True
    return False


def _sign(
    pf: Proof,
    text: str,
    expr: sp.Expr,
    relation: str = ">",
    subs: dict | None = None,
    how: str = "sign from the positivity assumptions",
) -> None:
    """Record ``expr > 0`` (or ``>= 0``) as a verified step, shown as the inequality itself."""
    shown = sp.Gt(expr, 0, evaluate=False) if relation == ">" else sp.Ge(expr, 0, evaluate=False)
    if subs is UNIT_SKEW:
        how = "sign with pi = 1/(1+t), t > 0 (every skew in (0,1))"
    pf.true(text, _decide(expr, relation, subs), how, shown=shown)


def _sum_value(pf: Proof, text: str, summand: sp.Expr, limits: tuple, expected: sp.Expr) -> sp.Expr:
    """Sum a series with sympy (the branch for 0 < pi < 1) and record that it equals ``expected``."""
    total = _unit_branch(sp.summation(summand, limits))
    pf.value(text, sp.Sum(summand, limits), total, expected, "summation")
    return total


def _unit_branch(expr: sp.Expr) -> sp.Expr:
    """The branch of a sympy Piecewise (from summation or integration) valid for 0 < pi < 1."""
    if isinstance(expr, sp.Piecewise):
        for value, cond in expr.args:
            if sp.sympify(cond).subs(pi, sp.Rational(1, 2)) == sp.true:
                return value
        raise ValueError(f"no branch of {expr} holds at pi = 1/2")
    return expr


def _sampler_skew() -> Callable[[random.Random], dict]:
    return rational_sampler({pi: (0, 1)})


def recall_range_sampler(rng: random.Random) -> dict:
    """pi in (0, 1) and 0 <= a < b <= 1, rational (for the Corollary 4 checks)."""
    den = 997
    lo, hi = sorted(rng.sample(range(den + 1), 2))
    return {
        pi: sp.Rational(rng.randint(1, den - 1), den),
        a: sp.Rational(lo, den),
        b: sp.Rational(hi, den),
    }


# ==== B1 ======================================================================================


def derive_min_precision(pf: Proof, candidate: sp.Expr) -> sp.Expr:
    """Derive the least precision at recall r and skew pi from FP <= neg; it must equal ``candidate``.

    ``candidate`` is an expression in ``r`` and ``pi``. Returns the derived bound.
    """
    pf.given("Precision of a confusion matrix with TP >= 1", sp.Eq(p, TP / (TP + FP)))
    pf.given("Recall", sp.Eq(r, TP / pos))
    pf.given("Skew", sp.Eq(pi, pos / (pos + neg)))
    pf.given("A valid matrix has no more false positives than there are negatives", sp.Le(FP, neg))
    gap = pf.equal(
        "Precision minus its value at FP = neg, over a common denominator",
        TP / (TP + FP) - TP / (TP + neg),
        TP * (neg - FP) / ((TP + FP) * (TP + neg)),
    )
    s = sp.Symbol("s", nonnegative=True)
    slack = gap.subs(neg, FP + s)
    _sign(pf, "With the slack s = neg - FP >= 0 the difference is never negative", slack, ">=")
    zeros = sp.solve(sp.Eq(slack, 0), s)
    pf.true(
        "It is zero only for s = 0: the least precision, TP/(TP + neg), is reached exactly at FP = neg",
        zeros == [0],
        "solve",
        shown=sp.Eq(sp.Symbol("s"), 0),
    )
    neg_pi = pf.obtain(
        "Solving the skew for neg",
        sp.Eq(neg, sp.solve(sp.Eq(pi, pos / (pos + neg)), neg)[0]),
        "solve",
    ).rhs
    bound = pf.obtain(
        "Substituting TP = r pos and that neg into TP/(TP + neg); pos cancels",
        sp.Eq(sp.Symbol("p_{min}"), sp.cancel((TP / (TP + neg)).subs({TP: r * pos, neg: neg_pi}))),
        "subs + cancel",
    ).rhs
    pf.true(
        "The bound depends on the skew only, not on the data set size",
        pos not in bound.free_symbols and neg not in bound.free_symbols,
        "free symbols",
        shown=sp.Eq(sp.Symbol(r"\partial_{pos}\,bound"), sp.diff(bound, pos)),
    )
    pf.equal("It is the Theorem 1 bound", bound, candidate)
    return bound


def check_bound_enumeration(candidate: sp.Expr, max_total: int = 14) -> tuple[bool, str]:
    """Every confusion matrix with pos + neg <= max_total has p >= candidate(r, pi), equality at FP = neg."""
    bound = exact_function((r, pi), candidate)

    def cases() -> Iterator[tuple[int, int, int]]:
        for n_pos in range(1, max_total + 1):
            for n_neg in range(0, max_total - n_pos + 1):
                for tp in range(1, n_pos + 1):
                    yield n_pos, n_neg, tp

    def ok(case: tuple[int, int, int]) -> bool:
        n_pos, n_neg, tp = case
        least = bound(Fraction(tp, n_pos), Fraction(n_pos, n_pos + n_neg))
        precisions = [Fraction(tp, tp + fp) for fp in range(n_neg + 1)]
        return min(precisions) == least == precisions[-1] and all(q >= least for q in precisions)

    return exhaustive(
        cases(),
        ok,
        f"every (pos, neg, TP) with pos + neg <= {max_total}: p >= bound for all FP, equality at FP = neg",
    )


@claim(
    "B1",
    source=f"{SOURCE} (000 §2.1, 001)",
    location="Theorem 1",
    title="Minimum precision for a given recall and skew",
    statement=lambda: sp.GreaterThan(p, min_precision(r, pi)),
    assumptions=(
        "pos >= 1 positives and neg >= 0 negatives; pi = pos/(pos+neg) in (0, 1]",
        "TP >= 1 (recall r = TP/pos > 0, so precision is defined), 0 <= FP <= neg",
    ),
)
def _b1(pf: Proof) -> None:
    bound = derive_min_precision(pf, min_precision(r, pi))
    pf.establish(
        "Precision is at least its value at FP = neg, which is the derived bound",
        sp.GreaterThan(p, bound),
        [5, 6, len(pf.steps)],
    )
    pf.check(
        "enumeration",
        "All small confusion matrices, exact",
        check_bound_enumeration(min_precision(r, pi)),
    )


# ==== B2 ======================================================================================


def _b2_enumeration(max_total: int = 12) -> tuple[bool, str]:
    """The worst ranking's threshold points, and Davis-Goadrich points between them, lie on the bound."""
    steps = [Fraction(k, 4) for k in range(5)]

    def cases() -> Iterator[tuple[int, int]]:
        for n_pos in range(1, max_total):
            for n_neg in range(1, max_total - n_pos + 1):
                yield n_pos, n_neg

    def ok(case: tuple[int, int]) -> bool:
        n_pos, n_neg = case
        skew = Fraction(n_pos, n_pos + n_neg)
        pts = sweep(worst_ranking(n_pos, n_neg))
        for (tp_a, fp_a), (tp_b, fp_b) in itertools.pairwise(pts):
            if tp_b == tp_a:  # a negative: no recall gained, nothing to interpolate
                continue
            for lam in steps:
                tp_x, fp_x = tp_a + lam * (tp_b - tp_a), fp_a + lam * (fp_b - fp_a)
                if tp_x == 0:
                    continue
                rec, prec = tp_x / n_pos, tp_x / (tp_x + fp_x)
                if prec != min_precision(rec, skew):
                    return False
        return pts[-1] == (n_pos, n_neg)

    return exhaustive(
        cases(),
        ok,
        f"worst rankings with pos + neg <= {max_total}; every threshold point and the Davis-Goadrich "
        "points at quarter steps between them are exactly on the bound",
    )


@claim(
    "B2",
    source=f"{SOURCE} (000 §2.2)",
    location="§2.2, minimum PR curve",
    title="The bound is tight: the worst ranking and its Davis-Goadrich interpolation lie on it",
    statement=lambda: sp.Eq(
        i / (i + neg), min_precision(i / pos, pos / (pos + neg)), evaluate=False
    ),
    assumptions=(
        "pos >= 1, neg >= 1; the worst ranking puts every negative above every positive",
        "Davis-Goadrich interpolation: straight lines in ROC (count) space between thresholds",
    ),
)
def _b2(pf: Proof) -> None:
    pf.given(
        "Worst ranking: after all neg negatives and the first i positives, TP = i and FP = neg",
        sp.Tuple(sp.Eq(TP, i), sp.Eq(FP, neg)),
    )
    pf.equal(
        "Its PR point (r_i, p_i) = (i/pos, i/(i+neg)) lies on the bound at pi = pos/(pos+neg)",
        min_precision(i / pos, pos / (pos + neg)),
        i / (i + neg),
    )
    tp_a, tp_b, fp_a, fp_b = sp.symbols("TP_A TP_B FP_A FP_B", nonnegative=True)
    lam = sp.Symbol("lambda", nonnegative=True)
    pf.given(
        "Davis-Goadrich: between thresholds A and B the ROC segment is straight, 0 <= lambda <= 1",
        sp.Tuple(sp.Eq(TP, tp_a + lam * (tp_b - tp_a)), sp.Eq(FP, fp_a + lam * (fp_b - fp_a))),
    )
    lam_tp = sp.solve(sp.Eq(TP, tp_a + lam * (tp_b - tp_a)), lam)[0]
    fp_line = pf.obtain(
        "Eliminating lambda (solve the TP equation for lambda, substitute)",
        sp.Eq(FP, fp_a + lam_tp * (fp_b - fp_a)),
        "solve + subs",
    ).rhs
    pf.equal(
        "FP grows linearly with TP at slope (FP_B - FP_A)/(TP_B - TP_A)",
        fp_line,
        fp_a + (TP - tp_a) * (fp_b - fp_a) / (tp_b - tp_a),
    )
    fp_worst = pf.obtain(
        "End points of the worst ranking: (TP, FP) = (0, neg), the PR point (0, 0), and "
        "(pos, neg), the PR point (1, pi): the slope is 0 and FP stays neg",
        sp.Eq(FP, sp.simplify(fp_line.subs({tp_a: 0, fp_a: neg, tp_b: pos, fp_b: neg}))),
        "subs",
    ).rhs
    pf.equal(
        "So at every recall r on the interpolated curve (TP = r pos), precision equals the bound",
        (TP / (TP + fp_worst)).subs(TP, r * pos),
        min_precision(r, pos / (pos + neg)),
    )
    pf.check("enumeration", "Worst rankings swept threshold by threshold, exact", _b2_enumeration())


# ==== B3 ======================================================================================

#: Table 1 and the text around it (pos = 100, neg = 200): (r, p) -> printed (TP, FP, FN, TN).
#: 0.4 is printed on the slides (TP 40, FP 160, FN 60, TN 40); 0.5 in the text (all negatives
#: are false positives, TN = 0); 0.2 and 0.6 are Table 1 (a) and (b).
TABLE1 = {
    ("0.2", "0.2"): (20, 80, 80, 120),
    ("0.4", "0.2"): (40, 160, 60, 40),
    ("0.5", "0.2"): (50, 200, 50, 0),
    ("0.6", "0.2"): (60, 240, 40, -40),
}


def _table1_counts(rec: Fraction, prec: Fraction, n_pos: int, n_neg: int) -> tuple[Fraction, ...]:
    tp = rec * n_pos
    fp = tp / prec - tp
    return tp, fp, n_pos - tp, n_neg - fp


@claim(
    "B3",
    source=f"{SOURCE} (000 §2.1, 001)",
    location="Table 1",
    title="Table 1: holding precision at 0.2 with 100 positives and 200 negatives",
    statement=lambda: sp.Eq(name("TN"), neg - r * pos * (1 - p) / p),
    assumptions=("pos = 100, neg = 200 (pi = 1/3); precision held at p = 0.2",),
)
def _b3(pf: Proof) -> None:
    fp_needed = pf.obtain(
        "Solving p = TP/(TP + FP) for FP, with TP = r pos",
        sp.Eq(FP, sp.solve(sp.Eq(p, TP / (TP + FP)), FP)[0].subs(TP, r * pos)),
        "solve",
    ).rhs
    pf.equal("So the true negatives left are", neg - fp_needed, neg - r * pos * (1 - p) / p)
    r_max = pf.obtain(
        "TN >= 0 holds up to the recall where TN = 0",
        sp.Eq(name("r_{max}"), sp.solve(sp.Eq(neg - fp_needed, 0), r)[0]),
        "solve",
    ).rhs
    pf.equal(
        "The same recall solves bound(r) = p (Theorem 1) at pi = pos/(pos+neg)",
        sp.solve(sp.Eq(min_precision(r, pos / (pos + neg)), p), r)[0],
        r_max,
    )
    values = {pos: 100, neg: 200, p: sp.Rational(1, 5)}
    pf.obtain(
        "With pos = 100, neg = 200, p = 0.2", sp.Eq(name("r_{max}"), r_max.subs(values)), "subs"
    )
    for (rec_s, _), printed in TABLE1.items():
        got = fp_needed.subs({**values, r: sp.Rational(rec_s)})
        pf.obtain(f"FP needed at r = {rec_s}: {printed[1]} printed", sp.Eq(FP, got), "subs")

    def printed_ok() -> tuple[bool, str]:
        bad = []
        for (rec_s, prec_s), printed in TABLE1.items():
            got = _table1_counts(Fraction(rec_s), Fraction(prec_s), 100, 200)
            if tuple(got) != printed:
                bad.append(f"(r, p) = ({rec_s}, {prec_s}): computed {got}, printed {printed}")
        return (
            not bad,
            "; ".join(bad)
            or "every printed (TP, FP, FN, TN) recomputes exactly from "
            "TP = r pos, FP = TP/p - TP, FN = pos - TP, TN = neg - FP",
        )

    def valid_iff_bound() -> tuple[bool, str]:
        skew = Fraction(1, 3)
        for (rec_s, prec_s), _ in TABLE1.items():
            rec, prec = Fraction(rec_s), Fraction(prec_s)
            valid = min(_table1_counts(rec, prec, 100, 200)) >= 0
            if valid != (prec >= min_precision(rec, skew)):
                return False, f"validity and the bound disagree at r = {rec_s}"
        return True, (
            "the matrix is valid (all cells >= 0) exactly where p >= bound(r, 1/3): "
            "r = 0.2, 0.4, 0.5 valid (0.5 with TN = 0, on the bound), r = 0.6 not (TN = -40)"
        )

    pf.check("printed-number", "Table 1 counts and the text's r = 0.4, 0.5 cases", printed_ok())
    pf.check(
        "exact",
        "Validity of each matrix against the Theorem 1 bound, in Fractions",
        valid_iff_bound(),
    )


# ==== B4 and B7: areas under the bound ===========================================================


def derive_area(pf: Proof, candidate: sp.Expr, lo: sp.Expr = 0, hi: sp.Expr = 1) -> sp.Expr:
    """Integrate the Theorem 1 bound over recall [lo, hi] with sympy; it must equal ``candidate``."""
    pf.given(
        "The minimum PR curve (B1, B2) as a function of recall", sp.Eq(p, min_precision(r, pi))
    )
    area = pf.obtain(
        f"sympy integrates it over recall from {sp.latex(lo)} to {sp.latex(hi)}",
        sp.Eq(name(r"\mathrm{AUCPR}_{\min}"), sp.integrate(min_precision(r, pi), (r, lo, hi))),
        "integrate",
    ).rhs
    pf.equal("It equals the closed form", area, candidate)
    return area


def check_area_quadrature(
    candidate: sp.Expr, lo: sp.Expr = 0, hi: sp.Expr = 1, sampler: Callable | None = None
) -> tuple[bool, str]:
    """mpmath quadrature of the bound over [lo, hi] against ``candidate`` at 50 digits."""
    return mp_quad_identity(min_precision(r, pi), r, lo, hi, candidate, sampler or _sampler_skew())


def derive_antiderivative(pf: Proof, antiderivative: sp.Expr, area: sp.Expr) -> None:
    """Differentiate ``antiderivative`` back to the bound and evaluate it between 0 and 1."""
    pf.equal(
        "Differentiating the slides' antiderivative F(r) gives back the bound",
        sp.diff(antiderivative, r),
        min_precision(r, pi),
    )
    pf.equal(
        "F(1) - F(0) is the closed form",
        antiderivative.subs(r, 1) - antiderivative.subs(r, 0),
        area,
    )


def check_antiderivative_numeric(antiderivative: sp.Expr) -> tuple[bool, str]:
    """Numerical derivative (mpmath, 50 digits) of ``antiderivative`` against the bound."""
    return mp_derivative_identity(
        antiderivative, r, min_precision(r, pi), rational_sampler({r: (0, 1), pi: (0, 1)})
    )


def _worst_ranking_dg_area() -> tuple[bool, str]:
    """The Davis-Goadrich area of the worst ranking equals the closed form (mpmath, 50 digits)."""
    worst = mpmath.mpf(0)
    with mpmath.workdps(50):
        for n_pos in range(1, 13):
            for n_neg in range(1, 13):
                area = dg_aucpr(worst_ranking(n_pos, n_neg))
                err = abs(area - mp_aucpr_min(mpmath.mpf(n_pos) / (n_pos + n_neg)))
                worst = max(worst, err)
                if err > mpmath.mpf(10) ** -45:
                    return False, f"pos={n_pos}, neg={n_neg}: area {area}"
    return True, (
        "Davis-Goadrich area of the worst ranking, summed step by step, equals the closed form "
        f"for all 1 <= pos, neg <= 12 (largest difference {mpmath.nstr(worst, 3)})"
    )


@claim(
    "B4",
    source=f"{SOURCE} (000 §2.2, 001)",
    location="Theorem 2",
    title="Minimum AUCPR: the area under the minimum PR curve",
    statement=lambda: sp.Eq(sp.Integral(min_precision(r, pi), (r, 0, 1)), aucpr_min(pi)),
    assumptions=("0 < pi < 1 (the degenerate skews are B5)", "recall runs over [0, 1]"),
)
def _b4(pf: Proof) -> None:
    area = derive_area(pf, aucpr_min(pi))
    integrated = len(pf.steps) - 1
    derive_antiderivative(pf, SLIDES_ANTIDERIVATIVE, aucpr_min(pi))
    pf.establish(
        "The area under the bound is what sympy integrated",
        sp.Eq(sp.Integral(min_precision(r, pi), (r, 0, 1)), area),
        [1, integrated],
    )
    pf.check("numeric", "Quadrature of the bound over [0, 1]", check_area_quadrature(aucpr_min(pi)))
    pf.check(
        "numeric",
        "The slides' antiderivative differentiated numerically",
        check_antiderivative_numeric(SLIDES_ANTIDERIVATIVE),
    )
    pf.check("enumeration", "Worst rankings, Davis-Goadrich area", _worst_ranking_dg_area())


# ==== B5 ======================================================================================


def _b5_ends_numeric(dps: int = 80) -> tuple[bool, str]:
    """mpmath at ``dps`` digits: pi/2 < AUCPR_min(pi) < pi at pi = 10^-k (so it tends to 0), and
    0 < 1 - AUCPR_min(1 - e) <= 2 k e ln 10 at e = 10^-k (so it tends to 1), k = 1..40."""
    with mpmath.workdps(dps):
        for k_ in range(1, 41):
            e = mpmath.mpf(10) ** -k_
            low, high = mp_aucpr_min(e), 1 - mp_aucpr_min(1 - e)
            if not (e / 2 < low < e and 0 < high <= 2 * k_ * e * mpmath.log(10)):
                return (
                    False,
                    f"k = {k_}: AUCPR_min(1e-{k_}) = {low}, 1 - AUCPR_min(1 - 1e-{k_}) = {high}",
                )
    return True, (
        f"at {dps} digits, for pi = 10^-k, k = 1..40: pi/2 < AUCPR_min(pi) < pi, and "
        "0 < 1 - AUCPR_min(1 - 10^-k) <= 2 k 10^-k ln 10: both ends approach their limits"
    )


@claim(
    "B5",
    source=f"{SOURCE} (000 §2.2)",
    location="§2.2, degenerate data sets",
    title="AUCPR_min tends to 0 and 1 at the ends and increases strictly with the skew",
    statement=lambda: sp.And(
        sp.Eq(sp.Limit(aucpr_min(pi), pi, 0, "+"), 0, evaluate=False),
        sp.Eq(sp.Limit(aucpr_min(pi), pi, 1, "-"), 1, evaluate=False),
        sp.Gt(sp.Derivative(aucpr_min(pi), pi), 0, evaluate=False),
    ),
    assumptions=(
        "0 < pi < 1 for the derivative; conventions AUCPR_min = 0 at pi = 0, 1 at pi = 1",
    ),
)
def _b5(pf: Proof) -> None:
    m = aucpr_min(pi)
    pf.value(
        "Limit as pi -> 0+ (sympy limit)",
        sp.Limit(m, pi, 0, "+"),
        sp.limit(m, pi, 0, "+"),
        0,
        "limit",
    )
    pf.value(
        "Limit as pi -> 1- (sympy limit)",
        sp.Limit(m, pi, 1, "-"),
        sp.limit(m, pi, 1, "-"),
        1,
        "limit",
    )
    pf.value(
        "The convention at pi = 0 is also the area under the bound there, which is 0",
        sp.Integral(min_precision(r, 0), (r, 0, 1)),
        sp.integrate(min_precision(r, 0), (r, 0, 1)),
        0,
        "integrate",
    )
    pf.value(
        "and at pi = 1 the bound is r/r = 1 for r > 0, with area 1",
        sp.Integral(sp.cancel(min_precision(r, 1)), (r, 0, 1)),
        sp.integrate(min_precision(r, 1), (r, 0, 1)),
        1,
        "integrate",
    )
    d = pf.obtain(
        "Derivative in pi",
        sp.Eq(name(r"\frac{d\,\mathrm{AUCPR}_{\min}}{d\pi}"), sp.diff(m, pi)),
        "diff",
    ).rhs
    g = -sp.log(1 - pi) - pi
    pf.equal("It is g(pi)/pi^2 with g(pi) = -ln(1 - pi) - pi", d, g / pi**2)
    k = sp.Symbol("k", positive=True, integer=True)
    _sum_value(pf, "g is the tail of the Mercator series (0 < pi < 1)", pi**k / k, (k, 2, sp.oo), g)
    pf.true(
        "Every term pi^k/k is positive, so g(pi) > 0 and the derivative is positive",
        (pi**k / k).is_positive,
        "sign of the terms",
        shown=sp.Gt(pi**k / k, 0, evaluate=False),
    )
    pf.equal("Second route: g(0) = 0 and g'(pi) = pi/(1-pi)", sp.diff(g, pi), pi / (1 - pi))
    _sign(
        pf,
        "g' > 0 on (0, 1), so g increases from g(0) = 0 and stays positive",
        pi / (1 - pi),
        ">",
        UNIT_SKEW,
    )
    pf.check("numeric", "Both limits approached at skews 10^-k from each end", _b5_ends_numeric())
    pf.check(
        "interval",
        "The derivative exactly as sympy returned it, certified positive",
        interval_sign(
            interval_function([pi], d),
            [(sp.Rational(1, 100), 1 - sp.Rational(1, 10**9))],
            strict=True,
            max_depth=24,
        ),
    )


# ==== B6 ======================================================================================


def derive_ap_min(pf: Proof, term: sp.Expr) -> None:
    """Sum the worst ranking's precisions; prove no ranking has lower AP (``term`` in i, neg)."""
    pf.given(
        "AP of an untied ranking: the mean, over the pos positives, of the precision at each one's rank",
        sp.Eq(name("AP"), sp.Sum(name("P_j"), (sp.Symbol("j"), 1, pos)) / pos),
    )
    prec_i = pf.given(
        "In the worst ranking the i-th positive sits at rank neg + i with i positives at or above it",
        sp.Eq(name("P_i"), i / (neg + i)),
    ).rhs
    pf.equal("Its precision is the summand of Theorem 3", prec_i, term)
    pf.equal(
        "Slides' route: the summand is the Theorem 1 bound at recall r_i = i/pos, pi = pos/(pos+neg)",
        min_precision(i / pos, pos / (pos + neg)),
        term,
    )
    k = sp.Symbol("k", positive=True, integer=True)
    m = sp.Symbol("m", nonnegative=True, integer=True)
    pf.given(
        "Exchange: a positive at rank k with m positives above it (so k >= m + 1) is directly "
        "followed by a negative; swap the two. The moved positive's precision goes from",
        sp.Tuple(
            sp.Eq(name("P_{before}"), (m + 1) / k), sp.Eq(name("P_{after}"), (m + 1) / (k + 1))
        ),
    )
    pf.equal(
        "Change of that precision",
        (m + 1) / (k + 1) - (m + 1) / k,
        -(m + 1) / (k * (k + 1)),
    )
    _sign(
        pf,
        "So the swap lowers the moved positive's term of AP by (m + 1)/(pos k (k + 1)) > 0",
        (m + 1) / (pos * k * (k + 1)),
        ">",
    )
    lowers = len(pf.steps)
    pf.enumerated(
        "No other positive's precision changes (those above rank k keep rank and count; those "
        "below rank k + 1 keep rank and count), so the swap changes AP by exactly "
        "-(m + 1)/(pos k (k + 1)); and it removes exactly one (positive above negative) pair",
        sp.Eq(name(r"\Delta\mathrm{AP}"), -(m + 1) / (pos * k * (k + 1))),
        _swap_facts(),
    )
    exact_change = len(pf.steps)
    pf.enumerated(
        "A ranking with no positive directly above a negative is the worst ranking",
        name(r"\text{no adjacent (positive, negative)} \iff \text{worst ranking}"),
        _no_adjacent_pair_is_worst(),
    )
    pf.conclude(
        "The (positive above negative) pairs are a non-negative integer count that each swap lowers "
        "by one, so from any ranking finitely many swaps reach one with no such adjacent pair: the "
        "worst ranking. Each swap lowers AP strictly, so every other ranking has a larger AP than "
        "the worst ranking: it is the unique minimiser, and AP_min is its AP (steps 2-3)",
        sp.Eq(name(r"\mathrm{AP}_{\min}"), sp.Sum(term, (i, 1, pos)) / pos),
        [2, 3, lowers, exact_change, exact_change + 1],
    )


def _inversions(labels: Sequence[int]) -> int:
    """The number of (positive above negative) pairs of a ranking."""
    negatives_below, count = labels.count(0), 0
    for y in labels:
        if y:
            count += negatives_below
        else:
            negatives_below -= 1
    return count


def _swap_facts(max_total: int = 12) -> tuple[bool, str]:
    """Every adjacent (positive, negative) swap, every ranking with n <= max_total: the AP change
    is exactly -(m + 1)/(pos k (k + 1)) and the inversion count drops by one."""

    def cases() -> Iterator[tuple[tuple[int, ...], int]]:
        for n in range(2, max_total + 1):
            for n_pos in range(1, n):
                for lab in rankings(n_pos, n - n_pos):
                    for k in range(1, n):
                        if lab[k - 1] == 1 and lab[k] == 0:
                            yield lab, k

    def ok(case: tuple[tuple[int, ...], int]) -> bool:
        lab, k = case
        swapped = (*lab[: k - 1], 0, 1, *lab[k + 1 :])
        m, n_pos = sum(lab[: k - 1]), sum(lab)
        change = average_precision(swapped) - average_precision(lab)
        return (
            change == -Fraction(m + 1, n_pos * k * (k + 1))
            and _inversions(swapped) == _inversions(lab) - 1
        )

    return exhaustive(
        cases(), ok, f"every swap in every ranking with 2 <= n <= {max_total}, AP in Fractions"
    )


def _no_adjacent_pair_is_worst(max_total: int = 12) -> tuple[bool, str]:
    cases = (
        lab
        for n in range(1, max_total + 1)
        for n_pos in range(1, n + 1)
        for lab in rankings(n_pos, n - n_pos)
    )
    return exhaustive(
        cases,
        lambda lab: (
            (not any(x == 1 and y == 0 for x, y in itertools.pairwise(lab)))
            == (lab == worst_ranking(sum(lab), len(lab) - sum(lab)))
        ),
        f"every ranking with 1 <= pos <= n <= {max_total}",
    )


def check_ap_min_enumeration(term: sp.Expr, max_total: int = 12) -> tuple[bool, str]:
    """Least AP over every ranking with pos + neg <= max_total equals (1/pos) sum term, uniquely.

    ``term`` is the i-th summand, an expression in ``i``, ``pos`` and ``neg``.
    """
    summand = exact_function((i, pos, neg), term)

    def cases() -> Iterator[tuple[int, int]]:
        for n in range(1, max_total + 1):
            for n_pos in range(1, n + 1):
                yield n_pos, n - n_pos

    def ok(case: tuple[int, int]) -> bool:
        n_pos, n_neg = case
        claimed = sum((summand(j, n_pos, n_neg) for j in range(1, n_pos + 1)), Fraction(0)) / n_pos
        aps = {lab: average_precision(lab) for lab in rankings(n_pos, n_neg)}
        least = min(aps.values())
        argmin = [lab for lab, v in aps.items() if v == least]
        return least == claimed and argmin == [worst_ranking(n_pos, n_neg)]

    return exhaustive(
        cases(),
        ok,
        f"every ranking of every (pos >= 1, neg >= 0) with pos + neg <= {max_total}, AP in Fractions: "
        "the least AP is the formula and only the worst ranking attains it",
    )


@claim(
    "B6",
    source=f"{SOURCE} (000 §2.2, 001)",
    location="Theorem 3",
    title="Minimum average precision, attained only by the worst ranking",
    statement=lambda: sp.Eq(name(r"\mathrm{AP}_{\min}"), sp.Sum(AP_MIN_TERM, (i, 1, pos)) / pos),
    assumptions=("pos >= 1 positives, neg >= 0 negatives, untied scores",),
)
def _b6(pf: Proof) -> None:
    derive_ap_min(pf, AP_MIN_TERM)
    v11 = pf.obtain(
        "pos = neg = 1 (pi = 1/2)",
        sp.Eq(name(r"\mathrm{AP}_{\min}(1, 1)"), sp.summation(AP_MIN_TERM.subs(neg, 1), (i, 1, 1))),
        "summation",
    ).rhs
    v22 = pf.obtain(
        "pos = neg = 2 (pi = 1/2 as well)",
        sp.Eq(
            name(r"\mathrm{AP}_{\min}(2, 2)"),
            sp.summation(AP_MIN_TERM.subs(neg, 2), (i, 1, 2)) / 2,
        ),
        "summation",
    ).rhs
    pf.true(
        "Same skew, different AP_min: it depends on pos, not only on pi",
        v11 != v22,
        "comparison",
        shown=sp.Ne(v11, v22, evaluate=False),
    )
    pf.check("enumeration", "All rankings, exact", check_ap_min_enumeration(AP_MIN_TERM))


# ==== B7 ======================================================================================


@claim(
    "B7",
    source=f"{SOURCE} (000 §2.2)",
    location="Corollary 4",
    title="Minimum and maximum AUCPR over a recall range [a, b]",
    statement=lambda: sp.Eq(
        sp.Integral(min_precision(r, pi), (r, a, b)), aucpr_min_range(a, b, pi)
    ),
    assumptions=("0 <= a < b <= 1, 0 < pi < 1",),
)
def _b7(pf: Proof) -> None:
    derive_area(pf, aucpr_min_range(a, b, pi), a, b)
    pf.equal("With a = 0, b = 1 it is Theorem 2", aucpr_min_range(0, 1, pi), aucpr_min(pi))
    pf.given(
        "Precision never exceeds 1, and the perfect ranking (every positive first) keeps "
        "FP = 0, so p = 1 at every recall r > 0 of its curve",
        sp.Le(p, 1),
    )
    pf.obtain(
        "Hence AUCPR_max over [a, b] is",
        sp.Eq(name(r"\mathrm{AUCPR}_{\max}"), sp.integrate(1, (r, a, b))),
        "integrate",
    )
    pf.check(
        "numeric",
        "Quadrature of the bound over random [a, b]",
        check_area_quadrature(aucpr_min_range(a, b, pi), a, b, recall_range_sampler),
    )


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


@claim(
    "B8",
    source=f"{SOURCE} (000 §3, 001)",
    location="§3, AUCNPR",
    title="AUCNPR has range [0, 1] at every skew and orders classifiers as AUCPR does",
    statement=lambda: sp.Eq(
        name(r"\mathrm{AUCNPR}"),
        (A - name(r"\mathrm{AUCPR}_{\min}"))
        / (name(r"\mathrm{AUCPR}_{\max}") - name(r"\mathrm{AUCPR}_{\min}")),
    ),
    assumptions=(
        "0 < pi < 1; AUCPR of a Davis-Goadrich curve over [a, b] (0 <= a < b <= 1) on one test set",
        "conventions: AUCNPR = 0 at pi = 0 and 1 at pi = 1",
    ),
)
def _b8(pf: Proof) -> None:
    lo, hi = aucpr_min_range(a, b, pi), b - a
    score = (A - lo) / (hi - lo)
    pf.given(
        "Definition, with AUCPR_min over [a, b] from B7 and AUCPR_max = b - a",
        sp.Tuple(
            sp.Eq(NPR, (A - M_MIN) / (name(r"\mathrm{AUCPR}_{\max}") - M_MIN)),
            sp.Eq(M_MIN, lo),
            sp.Eq(name(r"\mathrm{AUCPR}_{\max}"), hi),
        ),
    )
    pf.given(
        "Every point of a Davis-Goadrich curve is a convex combination of two valid matrices, so "
        "FP <= neg and Theorem 1 (B1) applies; precision is at most 1. Integrating over [a, b]",
        sp.And(sp.Le(M_MIN, A), sp.Le(A, name(r"\mathrm{AUCPR}_{\max}"))),
    )
    pf.equal(
        "The width of the range is the integral of 1 - bound, and 1 - bound is",
        1 - min_precision(r, pi),
        (1 - pi) / (1 - pi + pi * r),
    )
    _sign(
        pf,
        "which is positive, so AUCPR_max > AUCPR_min for every a < b",
        (1 - pi) / (1 - pi + pi * r),
        ">",
        UNIT_SKEW,
    )
    pf.equal("Over [0, 1] the width is", 1 - aucpr_min(pi), -(1 - pi) * sp.log(1 - pi) / pi)
    _sign(pf, "positive at every skew in (0, 1)", -(1 - pi) * sp.log(1 - pi) / pi, ">", UNIT_SKEW)
    slope = pf.obtain(
        "Derivative in AUCPR",
        sp.Eq(
            name(r"\frac{\partial\,\mathrm{AUCNPR}}{\partial\,\mathrm{AUCPR}}"), sp.diff(score, A)
        ),
        "diff",
    ).rhs
    pf.equal(
        "It is 1/(AUCPR_max - AUCPR_min) > 0: strictly increasing, so on one test set "
        "(fixed pi, a, b) AUCNPR orders classifiers exactly as AUCPR does",
        slope,
        1 / (hi - lo),
    )
    pf.value(
        "At AUCPR = AUCPR_min (the worst ranking, B2) it is 0",
        name(r"\mathrm{AUCNPR}(\mathrm{AUCPR}_{\min})"),
        sp.simplify(score.subs(A, lo)),
        0,
        "subs",
    )
    pf.value(
        "At AUCPR = AUCPR_max (the perfect ranking) it is 1",
        name(r"\mathrm{AUCNPR}(\mathrm{AUCPR}_{\max})"),
        sp.simplify(score.subs(A, hi)),
        1,
        "subs",
    )
    pf.obtain(
        "At pi -> 1 the range [0, 1] closes: the width tends to",
        sp.Eq(
            name(r"\lim_{\pi \to 1^-} (1 - \mathrm{AUCPR}_{\min})"),
            sp.limit(1 - aucpr_min(pi), pi, 1, "-"),
        ),
        "limit",
    )
    pf.given(
        "So the definition is 0/0 at pi = 1, where the source sets AUCNPR = 1; at pi = 0 there are "
        "no positives and no PR curve, and the source sets AUCNPR = 0 (conventions, not results)",
        sp.Tuple(
            sp.Eq(name(r"\mathrm{AUCNPR}(\pi = 1)"), 1), sp.Eq(name(r"\mathrm{AUCNPR}(\pi = 0)"), 0)
        ),
    )
    pf.check("enumeration", "All small rankings, Davis-Goadrich areas", _b8_enumeration())


# ==== B9 ======================================================================================


@claim(
    "B9",
    source=f"{SOURCE} (000 §3, 001)",
    location="§3, random guessing",
    title="Random guessing: AUCPR = pi; normalising by it can go negative; its AUCNPR",
    statement=lambda: sp.Eq(
        (pi - aucpr_min(pi)) / (1 - aucpr_min(pi)), 1 + pi / sp.log(1 - pi), evaluate=False
    ),
    assumptions=(
        "0 < pi < 1; random guessing labels each example positive with probability q, "
        "independently of its class",
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
    pf.obtain(
        "Area under p = pi over recall [0, 1]",
        sp.Eq(name(r"\mathrm{AUCPR}_{random}"), sp.integrate(pi, (r, 0, 1))),
        "integrate",
    )
    g = -sp.log(1 - pi) - pi
    worst_vs_random = pf.equal(
        "Normalising by random guessing, (AUCPR - pi)/(1 - pi), scores the worst ranking",
        (aucpr_min(pi) - pi) / (1 - pi),
        -g / pi,
    )
    k = sp.Symbol("k", positive=True, integer=True)
    _sum_value(
        pf,
        "g(pi) = -ln(1 - pi) - pi is a series of positive terms (as in B5)",
        pi**k / k,
        (k, 2, sp.oo),
        g,
    )
    _sign(pf, "Its terms are positive", pi**k / k, ">", how="sign of the terms (k >= 2, 0 < pi)")
    positive_terms = len(pf.steps)
    pf.conclude(
        "So g(pi) > 0, and the worst ranking's score -g(pi)/pi is below 0 at every skew in (0, 1)",
        sp.Lt(worst_vs_random, 0, evaluate=False),
        [positive_terms - 2, positive_terms - 1, positive_terms],
    )
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
        (pi - aucpr_min(pi)) / (1 - aucpr_min(pi)),
        1 + pi / sp.log(1 - pi),
    )
    pf.value(
        "It tends to 0 as pi -> 0+",
        sp.Limit(rnd, pi, 0, "+"),
        sp.limit(rnd, pi, 0, "+"),
        0,
        "limit",
    )
    pf.value(
        "and to 1 as pi -> 1-", sp.Limit(rnd, pi, 1, "-"), sp.limit(rnd, pi, 1, "-"), 1, "limit"
    )
    pf.obtain(
        "At pi = 1/2",
        sp.Eq(name(r"\mathrm{AUCNPR}_{random}(1/2)"), rnd.subs(pi, sp.Rational(1, 2))),
        "subs",
    )
    pf.check(
        "numeric",
        "AUCNPR of random guessing from its definition vs 1 + pi/ln(1 - pi)",
        mp_identity(
            (pi - aucpr_min(pi)) / (1 - aucpr_min(pi)), 1 + pi / sp.log(1 - pi), _sampler_skew()
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


# ==== B10-B13: printed numbers ==================================================================


def _fmt(x: mpmath.mpf, digits: int = 5) -> str:
    return mpmath.nstr(x, digits, min_fixed=-10, max_fixed=10)


def _skew_for(y: mpmath.mpf) -> mpmath.mpf:
    """The skew whose AUCPR_min is y (AUCPR_min is strictly increasing, B5)."""
    return _mp_invert_increasing(mp_aucpr_min, y)


def _against_printed(rows: Sequence[tuple[str, mpmath.mpf, str, int]]) -> tuple[bool, list[str]]:
    """Each (what, value, printed, digits): does value round to the printed decimal?"""
    ok, parts = True, []
    for text, value, printed, digits in rows:
        good = _rounds_to(value, printed)
        ok &= good
        parts.append(
            f"{text} = {_fmt(value, digits)} (printed {printed}: {'agrees' if good else 'DISAGREES'})"
        )
    return ok, parts


def _b10_check() -> tuple[bool, str]:
    m = mp_aucpr_min
    with mpmath.workdps(50):
        half, hundredth, tenth, twentieth = (
            mp_fraction(Fraction(x)) for x in ("0.5", "0.01", "0.1", "0.05")
        )
        ok, parts = _against_printed(
            [
                ("the rise of AUCPR_min from skew 0.01 to 0.5", m(half) - m(hundredth), "0.3", 5),
                ("AUCPR_min(0.1)", m(tenth), "0.05", 5),
                ("gender range starts at AUCPR_min(0.5)", m(half), "0.31", 5),
            ]
        )
        genre = m(twentieth)
        lo, hi = _cell("0.02")
        skew_lo, skew_hi = _skew_for(mp_fraction(lo)), _skew_for(mp_fraction(hi))
        genre_ok = _rounds_to(genre, "0.03") and not _rounds_to(genre, "0.02")
        ok &= genre_ok
        parts.append(
            f"genre range starts at AUCPR_min(0.05) = {_fmt(genre)}, which rounds to 0.03, not the printed "
            f"0.02; 0.02 is AUCPR_min rounded for skews in [{_fmt(skew_lo, 4)}, {_fmt(skew_hi, 4)}]"
        )
    return ok, "; ".join(parts)


@claim(
    "B10",
    source=f"{SOURCE} (000 §2.2, §4)",
    location="§2.2 and §4.2, numbers in the text",
    title="AUCPR_min at the skews quoted in the text",
    statement=lambda: sp.Matrix(
        [
            [aucpr_min(sp.Rational(1, 2)) - aucpr_min(sp.Rational(1, 100)), sp.Float("0.3", 1)],
            [aucpr_min(sp.Rational(1, 10)), sp.Float("0.05", 1)],
            [aucpr_min(sp.Rational(1, 2)), sp.Float("0.31", 2)],
            [aucpr_min(sp.Rational(1, 20)), sp.Float("0.02", 1)],
        ]
    ),
    assumptions=("each row: the quantity, and the value printed for it (rounded)",),
    verdict="holds as corrected",
    printed_numbers=True,
    note="At the stated genre skew 0.05, AUCPR_min = 0.0254, which rounds to 0.03, not the printed "
    "0.02 (gender's 0.307 is printed rounded, as 0.31, so truncation does not explain it). The "
    "printed 0.02 needs a genre skew in [0.0297, 0.0492], consistent with 'closer to 0.05' only "
    "if it is a little below 0.05 (Table 2's genre pair implies 0.0605-0.0702, see B12). The other "
    "numbers hold: a rise of 0.302 from skew 0.01 to 0.5, 0.0518 at skew 0.1, 0.307 at 0.5. The "
    "overall IMDB skew 0.06 cannot be checked: the document does not give the IMDB counts.",
)
def _b10(pf: Proof) -> None:
    pf.given("AUCPR_min, Theorem 2 (derived in B4)", sp.Eq(M_MIN, aucpr_min(pi)))
    pf.given(
        "It increases strictly with the skew (B5), so the skews whose AUCPR_min rounds to a printed "
        "value form an interval, found by bisection on each end of the value's rounding cell",
        sp.Gt(sp.Derivative(M_MIN, pi), 0),
    )
    pf.check("printed-number", "Each number recomputed with mpmath at 50 digits", _b10_check())


def _b11_check() -> tuple[bool, str]:
    rows = []
    with mpmath.workdps(50):
        for label, skew, area_s, min_s, norm_s in (
            ("0.008", Fraction("0.008"), "0.545", "0.004", "0.543"),
            ("1/121 (120:1)", Fraction(1, 121), "0.545", "0.004", "0.543"),
            ("0.5 (1:1)", Fraction(1, 2), "0.965", "0.307", "0.950"),
        ):
            m = mp_aucpr_min(mp_fraction(skew))
            norm = (mp_fraction(Fraction(area_s)) - m) / (1 - m)
            rows += [
                (f"pi = {label}: AUCPR_min", m, min_s, 5),
                (f"AUCNPR of {area_s}", norm, norm_s, 6),
            ]
        ok, parts = _against_printed(rows)
    return ok, "; ".join(parts)


@claim(
    "B11",
    source=f"{SOURCE} (001)",
    location="slides, mammography",
    title="Mammography example: AUCPR_min and AUCPR -> AUCNPR at two skews",
    statement=lambda: sp.Tuple(sp.Eq(NPR, (A - M_MIN) / (1 - M_MIN)), sp.Eq(M_MIN, aucpr_min(pi))),
    assumptions=("skew 0.008 as printed (120:1 is 1/121 = 0.00826; both are checked) and 0.5",),
    printed_numbers=True,
)
def _b11(pf: Proof) -> None:
    pf.given("AUCPR_min, Theorem 2 (derived in B4)", sp.Eq(M_MIN, aucpr_min(pi)))
    pf.given(
        "AUCNPR over recall [0, 1], where AUCPR_max = 1 (B7, B8)",
        sp.Eq(NPR, (A - M_MIN) / (1 - M_MIN)),
    )
    pf.check(
        "printed-number", "AUCPR_min and AUCNPR recomputed with mpmath at 50 digits", _b11_check()
    )


#: Table 2 (IMDB, LSM): predicate -> (AUCPR, AUCNPR) as printed (prtheory/data).
TABLE2 = boyd2012_table2()
TABLE2_MEANS = ("0.733", "0.680")
#: Skews the text gives for Table 2's predicates (§4.2).
TABLE2_TEXT_SKEW = {"gender": "close to 0.5", "genre": "closer to 0.05"}


def implied_min_interval(area: str, norm: str) -> tuple[Fraction, Fraction]:
    """AUCPR_min = (AUCPR - AUCNPR)/(1 - AUCNPR) over both rounding cells (increasing in AUCPR,
    non-increasing in AUCNPR), so its extremes are at two corners; AUCPR <= 1 caps the cell."""
    a_lo, a_hi = _cell(area)
    n_lo, n_hi = _cell(norm)
    a_hi, n_hi = min(a_hi, Fraction(1)), min(n_hi, Fraction(1))
    if n_hi == 1:  # a printed 1.000 admits AUCNPR = 1 exactly, hence every AUCPR_min
        return Fraction(0), Fraction(1)
    return (a_lo - n_hi) / (1 - n_hi), (a_hi - n_lo) / (1 - n_lo)


def _b12_check() -> tuple[bool, str]:
    parts, ok = [], True
    for col, printed in enumerate(TABLE2_MEANS):
        mean = sum((Fraction(v[col]) for v in TABLE2.values()), Fraction(0)) / len(TABLE2)
        good = _cell(printed)[0] <= mean <= _cell(printed)[1]
        ok &= good
        parts.append(
            f"mean of column {('AUCPR', 'AUCNPR')[col]} = {float(mean):.5f} (printed {printed})"
        )
    with mpmath.workdps(50):
        for predicate, (area, norm) in TABLE2.items():
            m_lo, m_hi = implied_min_interval(area, norm)
            if (m_lo, m_hi) == (0, 1):
                parts.append(f"{predicate}: 1.000/1.000 fits every skew")
                continue
            good = m_hi > 0 and m_lo < 1
            ok &= good
            s_lo, s_hi = (
                _skew_for(mp_fraction(max(m_lo, Fraction(0)))),
                _skew_for(mp_fraction(min(m_hi, Fraction(1)))),
            )
            text = TABLE2_TEXT_SKEW.get(predicate, "not stated")
            parts.append(
                f"{predicate}: AUCPR_min in [{float(m_lo):.5f}, {float(m_hi):.5f}], implied skew in "
                f"[{_fmt(s_lo, 4)}, {_fmt(s_hi, 4)}] (text: {text})"
            )
    return ok, "; ".join(parts)


@claim(
    "B12",
    source=f"{SOURCE} (000 §4.2)",
    location="Table 2",
    title="Table 2 (IMDB): each AUCPR/AUCNPR pair implies a skew; the means",
    statement=lambda: sp.Eq(
        name(r"\mathrm{AUCPR}_{\min}"),
        (A - name(r"\mathrm{AUCNPR}")) / (1 - name(r"\mathrm{AUCNPR}")),
    ),
    assumptions=(
        "printed values are rounded to 3 decimals (cells of half-width 0.0005)",
        "values are averages over folds, so the formula need not hold exactly for them",
    ),
    printed_numbers=True,
    note="Every pair fits some skew in (0, 1) and the means recompute (0.7333 and 0.6795). The implied "
    "skews: gender 0.4527-0.4562 (text: close to 0.5), plausible; genre 0.0605-0.0702 (text: closer "
    "to 0.05), plausible but above 0.05 and above the 0.0492 that the text's genre range [0.02, 1] "
    "needs (B10); movie 0.2643-0.2678 (not stated). The entries are averages over folds (and the "
    "mean of AUCNPR is not AUCNPR of the mean AUCPR when fold skews differ), so the implied skew "
    "is an effective one, not necessarily the predicate's overall skew.",
)
def _b12(pf: Proof) -> None:
    nrm = name(r"\mathrm{AUCNPR}")
    m_sym = name("m")
    implied = pf.obtain(
        "Solving AUCNPR = (AUCPR - m)/(1 - m) for m = AUCPR_min",
        sp.Eq(m_sym, sp.solve(sp.Eq(nrm, (A - m_sym) / (1 - m_sym)), m_sym)[0]),
        "solve",
    ).rhs
    u, v = sp.symbols("u v", positive=True)  # AUCPR = 1 - u, AUCNPR = 1 - v
    d_area = pf.obtain(
        "Derivative in AUCPR",
        sp.Eq(name(r"\partial m / \partial\,\mathrm{AUCPR}"), sp.simplify(sp.diff(implied, A))),
        "diff",
    ).rhs
    _sign(pf, "positive (AUCNPR < 1)", d_area.subs(nrm, 1 - v), ">")
    d_norm = pf.obtain(
        "Derivative in AUCNPR",
        sp.Eq(name(r"\partial m / \partial\,\mathrm{AUCNPR}"), sp.factor(sp.diff(implied, nrm))),
        "diff",
    ).rhs
    _sign(
        pf,
        "minus it is non-negative (AUCPR <= 1): m is extreme at two corners of the rounding box",
        -d_norm.subs({A: 1 - u, nrm: 1 - v}),
        ">=",
    )
    pf.check(
        "printed-number",
        "Means, and the skew interval each rounded pair implies (mpmath, 50 digits)",
        _b12_check(),
    )


#: Table 3 (UW-CSE advisedBy, SAYU): k of the ratio 1:k -> (downsampled AUCPR, AUCNPR,
#: original-skew AUCPR, AUCNPR), as printed (prtheory/data). The original test set is 1:24.
TABLE3 = boyd2012_table3()


def aucnpr_consistent(area: str, norm: str, skew: Fraction) -> tuple[bool, str]:
    """Is there an AUCPR in area's rounding cell whose AUCNPR at ``skew`` lies in norm's cell?

    AUCNPR is increasing in AUCPR, so the cell maps onto [AUCNPR(lo), AUCNPR(hi)]; that interval
    must meet norm's cell. Both ends are enclosed with mpmath.iv, so the answer is rigorous.
    """
    iv = mpmath.iv
    a_lo, a_hi = _cell(area)
    n_lo, n_hi = _cell(norm)
    with mpmath.workprec(120):
        s = iv.mpf(skew.numerator) / skew.denominator
        image_lo = iv_aucnpr(iv.mpf(a_lo.numerator) / a_lo.denominator, s)
        image_hi = iv_aucnpr(iv.mpf(a_hi.numerator) / a_hi.denominator, s)
        ok = bool(image_hi.a >= mp_fraction(n_lo) and image_lo.b <= mp_fraction(n_hi))
    with mpmath.workdps(50):
        m = mp_aucpr_min(mp_fraction(skew))
        point = (mp_fraction(Fraction(area)) - m) / (1 - m)
        ends = [(mp_fraction(x) - m) / (1 - m) for x in (a_lo, a_hi)]
        detail = f"AUCNPR({area}) = {_fmt(point, 6)}"
        if _rounds_to(point, norm):
            detail += f" -> {norm}"
        else:
            detail += (
                f" (not {norm}), but AUCPR in [{float(a_lo)}, {float(a_hi)}] gives "
                f"[{_fmt(ends[0], 6)}, {_fmt(ends[1], 6)}], which "
                f"{'meets' if ok else 'MISSES'} {norm}'s cell"
            )
    return ok, detail


def _b13_check() -> tuple[bool, str]:
    parts, ok = [], True
    original = Fraction(1, 25)
    for k, (a_down, n_down, a_orig, n_orig) in TABLE3.items():
        good1, d1 = aucnpr_consistent(a_down, n_down, Fraction(1, 1 + k))
        good2, d2 = aucnpr_consistent(a_orig, n_orig, original)
        ok &= good1 and good2
        parts.append(f"1:{k} downsampled (pi = 1/{1 + k}): {d1}; original (pi = 1/25): {d2}")
    return ok, "; ".join(parts)


def _b13_text_check() -> tuple[bool, str]:
    """The text around Table 3: 1:1 AUCNPR is more than twice the original's; spread of the columns."""
    down_a = [Fraction(v[0]) for v in TABLE3.values()]
    down_n = [Fraction(v[1]) for v in TABLE3.values()]
    orig_a = [Fraction(v[2]) for v in TABLE3.values()]
    orig_n = [Fraction(v[3]) for v in TABLE3.values()]

    def var(xs: list[Fraction]) -> Fraction:
        mu = sum(xs, Fraction(0)) / len(xs)
        return sum(((x - mu) ** 2 for x in xs), Fraction(0)) / len(xs)

    twice = Fraction(TABLE3[1][1]) > 2 * Fraction(TABLE3[1][3])
    less = var(down_n) < var(down_a)
    ratio = var(orig_n) / var(orig_a)
    with mpmath.workdps(30):
        stretch = 1 / (1 - mp_aucpr_min(mp_fraction(Fraction(1, 25))))
    return twice and less and ratio > 1, (
        f"1:1: downsampled AUCNPR {TABLE3[1][1]} > 2 x {TABLE3[1][3]}; downsampled columns: variance of "
        f"AUCNPR {float(var(down_n)):.5f} < AUCPR {float(var(down_a)):.5f}; original-skew columns: AUCNPR "
        f"variance is {float(ratio):.3f} x AUCPR's, necessarily above 1, because at one skew AUCNPR is "
        f"AUCPR stretched by 1/(1 - AUCPR_min) = {_fmt(stretch, 4)} (so 'less variance' holds for the downsampled "
        "columns only)"
    )


@claim(
    "B13",
    source=f"{SOURCE} (000 §4.3)",
    location="Table 3",
    title="Table 3 (UW-CSE advisedBy): every AUCNPR follows from its AUCPR under rounding",
    statement=lambda: sp.Tuple(
        sp.Eq(NPR, (A - M_MIN) / (1 - M_MIN)),
        sp.Eq(M_MIN, aucpr_min(pi)),
        sp.Eq(pi, 1 / (1 + name("k"))),
    ),
    assumptions=(
        "ratio 1:k means pi = 1/(1+k); the original test set is 1:24, pi = 1/25 = 0.04",
        "printed values are rounded to 3 decimals (cells of half-width 0.0005)",
    ),
    printed_numbers=True,
    note="All 14 AUCNPR values are consistent with their AUCPR under 3-decimal rounding, but 6 of "
    "them (the 1:24 pair is printed in both column groups and counts twice) do not recompute from "
    "the printed AUCPR itself: for example 1:2 gives 0.67938 -> 0.679 against "
    "the printed 0.680, explained because an AUCPR of 0.7405 (inside 0.740's rounding cell) gives "
    "0.679997. Presumably AUCNPR was computed from the unrounded AUCPR. The text's 'AUCNPR has "
    "less variance than AUCPR' holds for the downsampled columns; in the original-skew columns it "
    "cannot hold, since at one skew AUCNPR is AUCPR stretched by 1/(1 - AUCPR_min) > 1.",
)
def _b13(pf: Proof) -> None:
    m = aucpr_min(pi)
    score = (A - m) / (1 - m)
    slope = pf.obtain(
        "AUCNPR at skew pi, derivative in AUCPR",
        sp.Eq(name(r"\partial\,\mathrm{AUCNPR} / \partial\,\mathrm{AUCPR}"), sp.diff(score, A)),
        "diff",
    ).rhs
    _sign(
        pf,
        "positive: the rounding cell of a printed AUCPR maps onto an interval, between the "
        "images of its two ends",
        slope,
        ">",
        UNIT_SKEW,
    )
    pf.check(
        "printed-number",
        "Each AUCNPR against its AUCPR's rounding cell, mpmath.iv enclosures",
        _b13_check(),
    )
    pf.check("printed-number", "The text's statements about Table 3", _b13_text_check())


# ==== B14 =====================================================================================

F1 = sp.Symbol("F", positive=True)


def _b14_enumeration(n_pos: int = 33, n_neg: int = 67) -> tuple[bool, str]:
    """pos = 33, neg = 67 (pi = 0.33): on the F1 = 0.45 contour, FP <= neg exactly up to r*."""
    f1 = Fraction(9, 20)
    skew = Fraction(n_pos, n_pos + n_neg)
    r_star = f1 / ((2 - f1) * skew)
    valid_int, invalid = [], []
    for tp in range(1, n_pos + 1):
        fn = n_pos - tp
        fp = Fraction(2 * tp) / f1 - 2 * tp - fn  # from 2 TP / (2 TP + FP + FN) = F1
        if fp < 0:
            continue  # recall too low for this F1 (r <= F1/2)
        achievable = fp <= n_neg
        if achievable != (Fraction(tp, n_pos) <= r_star):
            return False, f"TP = {tp}: FP = {fp}, achievable {achievable}, r* = {r_star}"
        if achievable and fp.denominator == 1:
            valid_int.append((tp, int(fp)))
        if not achievable:
            invalid.append((tp, fp))
    ok = bool(valid_int) and bool(invalid)
    return ok, (
        f"pos = {n_pos}, neg = {n_neg}: every TP on the F1 = 9/20 contour needs FP <= neg exactly when "
        f"TP/pos <= r* = {r_star}; integer valid matrices (TP, FP) = {valid_int}; unachievable from "
        f"TP = {invalid[0][0]} (FP = {invalid[0][1]} > {n_neg}) up to TP = {n_pos} (FP = {invalid[-1][1]})"
    )


def _b14_exact(n: int = 300, seed: int = 20126) -> tuple[bool, str]:
    """Random rational F1, skew and recall: contour point >= bound exactly when r <= r*."""
    rng = random.Random(seed)
    for _ in range(n):
        f1 = Fraction(rng.randint(1, 999), 1000)
        skew = Fraction(rng.randint(1, 999), 1000)
        rec = f1 / 2 + (1 - f1 / 2) * Fraction(rng.randint(1, 999), 1000)
        prec = f1 * rec / (2 * rec - f1)
        if (prec >= min_precision(rec, skew)) != (rec <= f1 / ((2 - f1) * skew)):
            return False, f"F1 = {f1}, pi = {skew}, r = {rec}"
    return True, f"{n} random rational (F1, pi, r): achievable exactly when r <= F1/((2 - F1) pi)"


@claim(
    "B14",
    source=f"{SOURCE} (000 §4.4, 001)",
    location="§4.4, Figure 4",
    title="At pi = 0.33 the F1 = 0.45 contour crosses into the unachievable region",
    statement=lambda: sp.Equivalent(
        sp.Ge(F1 * r / (2 * r - F1), min_precision(r, pi)), sp.Le(r, F1 / ((2 - F1) * pi))
    ),
    assumptions=(
        "0 < F <= 1 is the F1 value, 0 < pi < 1, F/2 < r <= 1 (where the contour exists)",
        "the figure's points A, B, C are not in the copy; explicit points are constructed",
    ),
)
def _b14(pf: Proof) -> None:
    contour = pf.obtain(
        "Solving 2pr/(p + r) = F for p: the contour",
        sp.Eq(p, sp.solve(sp.Eq(2 * p * r / (p + r), F1), p)[0]),
        "solve",
    ).rhs
    r_star = F1 / ((2 - F1) * pi)
    factor = (2 - F1) * pi * r / ((2 * r - F1) * (1 - pi + pi * r))
    pf.equal(
        "Contour minus bound factors as", contour - min_precision(r, pi), factor * (r_star - r)
    )
    e, w = sp.symbols("e w", positive=True)
    _sign(
        pf,
        "The factor is positive (2r > F, F < 2, 0 < pi < 1), so a contour point is achievable "
        "exactly when r <= r* = F/((2 - F) pi)",
        factor,
        ">",
        {pi: 1 / (1 + t), r: (1 / (1 + w) + e) / 2, F1: 1 / (1 + w)},
        how="sign with F = 1/(1+w), r = (F + e)/2, pi = 1/(1+t); e, w, t > 0",
    )
    vals = {F1: sp.Rational(9, 20), pi: sp.Rational(33, 100)}
    pf.obtain("At F = 0.45 and pi = 0.33", sp.Eq(name("r^*"), r_star.subs(vals)), "subs")
    pf.obtain(
        "r* < 1 exactly when pi exceeds",
        sp.Eq(name(r"\pi^*"), sp.solve(sp.Eq(r_star, 1), pi)[0]),
        "solve",
    )
    pf.obtain("which at F = 0.45 is", sp.Eq(name(r"\pi^*"), (F1 / (2 - F1)).subs(vals)), "subs")
    for label, rec, verdict in (
        ("A", sp.Integer(1), "unachievable"),
        ("B", sp.Rational(7, 8), "achievable"),
        ("C", sp.Rational(3, 10), "achievable"),
    ):
        prec = contour.subs(vals).subs(r, rec)
        low = min_precision(rec, vals[pi])
        rel = sp.Lt(prec, low) if verdict == "unachievable" else sp.Ge(prec, low)
        pf.true(
            f"Point {label}: r = {rec}, p = {prec} on the contour, bound {low}: {verdict}",
            bool(rel),
            "exact rational arithmetic",
            shown=(sp.Lt if verdict == "unachievable" else sp.Ge)(prec, low, evaluate=False),
        )
    pf.check(
        "enumeration", "A data set with pi = 0.33, every TP on the contour", _b14_enumeration()
    )
    pf.check("exact", "Random contours and skews", _b14_exact())


# ==== B15 and B16: a modified F1 ================================================================

f_ = sp.Function("f")


def _inverse_bound(q: Fraction, skew: Fraction) -> Fraction:
    """The recall r with bound(r) = q (for 0 <= q < 1)."""
    return q * (1 - skew) / (skew * (1 - q))


def _order_graph(skew: Fraction, n: int) -> tuple[dict, set]:
    """Achievable grid points, edges to the next point up or right, and the minimum-curve points.

    The grid holds recalls and precisions k/n, the skew, and the recall of every grid precision
    <= skew on the minimum curve, so that each row meets the curve at a grid point.
    """
    ps = sorted({Fraction(j, n) for j in range(n + 1)} | {skew})
    rs = sorted(
        {Fraction(j, n) for j in range(n + 1)} | {_inverse_bound(q, skew) for q in ps if q <= skew}
    )
    nodes = {(x, y) for x in rs for y in ps if y >= min_precision(x, skew)}
    succ: dict = {v: [] for v in nodes}
    for y in ps:
        row = [x for x in rs if (x, y) in nodes]
        for x1, x2 in itertools.pairwise(row):
            succ[(x1, y)].append((x2, y))
    for x in rs:
        col = [y for y in ps if (x, y) in nodes]
        for y1, y2 in itertools.pairwise(col):
            succ[(x, y1)].append((x, y2))
    zero = {(x, y) for (x, y) in nodes if y == min_precision(x, skew)}
    return succ, zero


def _reach(succ: dict, start: set, reverse: bool = False) -> set:
    graph = succ
    if reverse:
        graph = {v: [] for v in succ}
        for u, vs in succ.items():
            for v in vs:
                graph[v].append(u)
    seen, stack = set(start), list(start)
    while stack:
        for v in graph[stack.pop()]:
            if v not in seen:
                seen.add(v)
                stack.append(v)
    return seen


def _b15_graph_check(
    skews: Sequence[Fraction] = (Fraction(1, 10), Fraction(1, 3), Fraction(1, 2), Fraction(9, 10)),
    n: int = 10,
) -> tuple[bool, str]:
    """Strict requirements on a grid: a directed path from a zero point to a zero point is a contradiction."""
    found = []
    for skew in skews:
        succ, zero = _order_graph(skew, n)
        start = (Fraction(0), Fraction(0))
        # each edge is a strict increase; a path zero -> ... -> zero would force 0 < 0
        after = _reach(succ, set(succ[start]))
        hits = sorted(after & zero)
        if not hits:
            return False, f"no contradiction found at pi = {skew}"
        found.append(
            f"pi = {skew}: from f(0, 0) = 0 upwards and rightwards reaches {len(hits)} point(s) "
            f"of the minimum curve, e.g. ({hits[-1][0]}, {hits[-1][1]})"
        )
    return True, "; ".join(
        found
    ) + f" (achievable points of a {n} x {n} grid plus the curve points)"


@claim(
    "B15",
    source=f"{SOURCE} (000 §4.4, 001)",
    location="§4.4, Eqs. (3)-(5)",
    title="No modified F1 is 0 on the minimum curve and strictly increasing in r and p",
    statement=lambda: sp.Not(
        sp.And(
            sp.Eq(f_(0, 0), 0),
            sp.Lt(f_(0, 0), f_(0, pi)),
            sp.Lt(f_(0, pi), f_(1, pi)),
            sp.Eq(f_(1, pi), 0),
        )
    ),
    assumptions=("0 < pi < 1; f is defined on the achievable points of the unit square",),
)
def _b15(pf: Proof) -> None:
    r1, r2, p1, p2 = sp.symbols("r_1 r_2 p_1 p_2", nonnegative=True)
    pf.given(
        "Requirement (3): f vanishes on the minimum PR curve", sp.Eq(f_(r, min_precision(r, pi)), 0)
    )
    pf.given(
        "Requirement (4): strictly increasing in recall",
        sp.Equivalent(sp.Lt(f_(r1, p), f_(r2, p)), sp.Lt(r1, r2)),
    )
    pf.given(
        "Requirement (5): strictly increasing in precision",
        sp.Equivalent(sp.Lt(f_(r, p1), f_(r, p2)), sp.Lt(p1, p2)),
    )
    pf.value(
        "The minimum curve passes through (0, 0)",
        name(r"p_{\min}(0)"),
        min_precision(0, pi),
        0,
        "subs",
    )
    pf.value("and through (1, pi)", name(r"p_{\min}(1)"), min_precision(1, pi), pi, "subs")
    pf.true(
        "All of (0, 0), (0, pi), (1, pi) are achievable (p >= bound), so f is defined there",
        all(
            sp.simplify(pv - min_precision(rv, pi)).is_nonnegative
            for rv, pv in ((0, 0), (0, pi), (1, pi))
        ),
        "sign from the positivity assumptions",
        shown=sp.Tuple(
            *(
                sp.Ge(pv, min_precision(rv, pi), evaluate=False)
                for rv, pv in ((0, 0), (0, pi), (1, pi))
            )
        ),
    )
    pf.true(
        "(5) with 0 < pi: f(0, 0) < f(0, pi); (4) with 0 < 1: f(0, pi) < f(1, pi)",
        bool(pi.is_positive),
        "positivity of pi",
        shown=sp.And(sp.Lt(f_(0, 0), f_(0, pi)), sp.Lt(f_(0, pi), f_(1, pi))),
    )
    mid = sp.Symbol(r"f(0, \pi)", real=True)
    room = sp.solveset(sp.Gt(mid, 0), mid, sp.S.Reals) & sp.solveset(sp.Lt(mid, 0), mid, sp.S.Reals)
    pf.true(
        "With (3) at both ends, f(0, 0) = f(1, pi) = 0, the chain needs 0 < f(0, pi) < 0; "
        "sympy finds no real value that satisfies both, so no such f exists",
        room == sp.S.EmptySet,
        "solveset over the reals",
        shown=sp.Eq(
            sp.ConditionSet(mid, sp.And(sp.Lt(0, mid), sp.Lt(mid, 0)), sp.S.Reals),
            sp.S.EmptySet,
            evaluate=False,
        ),
    )
    pf.check(
        "enumeration", "Constraint graph on rational grids of achievable points", _b15_graph_check()
    )


def derive_modified_f1(pf: Proof, branch: sp.Expr) -> None:
    """Show that f' = 0 for p <= pi, ``branch`` for p > pi, meets the relaxed requirements."""
    pf.equal(
        "On the minimum curve p <= pi, since pi - bound is",
        pi - min_precision(r, pi),
        pi * (1 - pi) * (1 - r) / (1 - pi + pi * r),
    )
    u = sp.Symbol("u", positive=True)
    _sign(
        pf,
        "which is >= 0 for 0 < r < 1 (and pi, 0 at r = 0, 1): so f' = 0 on the curve",
        pi * (1 - pi) * (1 - r) / (1 - pi + pi * r),
        ">=",
        {r: 1 / (1 + u), pi: 1 / (1 + t)},
        how="sign with r = 1/(1+u), pi = 1/(1+t); u, t > 0",
    )
    d = sp.Symbol("d", positive=True)  # p = pi + d above random guessing
    above = {p: pi + d, pi: 1 / (1 + t)}
    dr = pf.obtain(
        "Derivative in r for p > pi",
        sp.Eq(name(r"\partial f' / \partial r"), sp.factor(sp.diff(branch, r))),
        "diff",
    ).rhs
    _sign(
        pf, "non-negative (p = pi + d, d > 0)", dr, ">=", above, how="sign with p = pi + d, d > 0"
    )
    dp = pf.obtain(
        "Derivative in p for p > pi",
        sp.Eq(name(r"\partial f' / \partial p"), sp.factor(sp.diff(branch, p))),
        "diff",
    ).rhs
    _sign(pf, "non-negative", dp, ">=", above, how="sign with p = pi + d, d > 0")
    _sign(
        pf, "f' >= 0 above random guessing", branch, ">=", above, how="sign with p = pi + d, d > 0"
    )
    nonnegative_step = len(pf.steps)
    pf.value(
        "and it meets the zero branch continuously at p = pi (r > 0)",
        name(r"f'(r, \pi^{+})"),
        sp.simplify(branch.subs(p, pi)),
        0,
        "subs",
    )
    e = sp.Symbol("e", positive=True)  # a step to the right or upwards
    for label, var, argument in (("Rows", r, "recall"), ("Columns", p, "precision")):
        _sign(
            pf,
            f"{label} (p > pi): a step e > 0 in {argument} never lowers f' "
            f"(the difference f' after the step minus f' before is >= 0)",
            branch.subs(var, var + e) - branch,
            ">=",
            above,
            how="sign with p = pi + d; d, e > 0",
        )
    row_step = len(pf.steps) - 1
    pf.conclude(
        "So the relaxed requirements hold: along a row f' is 0 when p <= pi and non-decreasing "
        "when p > pi; along a column it is 0 up to p = pi, then >= 0 and non-decreasing",
        sp.Eq(f_(r, p), modified_f1(r, p, pi)),
        [nonnegative_step, nonnegative_step + 1, row_step, row_step + 1],
    )
    q = (p - pi) / (1 - pi)
    pf.equal(
        "It is the harmonic mean of r and the normalised precision (p - pi)/(1 - pi)",
        branch,
        2 * r * q / (r + q),
    )
    pf.value(
        "and reaches 1 at the perfect point (1, 1)",
        name("f'(1, 1)"),
        sp.simplify(branch.subs({r: 1, p: 1})),
        1,
        "subs",
    )


def check_modified_f1_grid(
    branch: sp.Expr,
    n: int = 20,
    skews: Sequence[Fraction] = (Fraction(1, 10), Fraction(1, 3), Fraction(1, 2), Fraction(9, 10)),
) -> tuple[bool, str]:
    """Exact grid check of f' = 0 (p <= pi), ``branch`` (p > pi): zero on the curve, monotone, 0 iff p <= pi."""
    g = exact_function((r, p, pi), branch)

    def fprime(x: Fraction, y: Fraction, skew: Fraction) -> Fraction:
        return Fraction(0) if y <= skew else g(x, y, skew)

    grid = [Fraction(j, n) for j in range(n + 1)]
    for skew in skews:
        for x in grid:
            if fprime(x, min_precision(x, skew), skew) != 0:
                return False, f"pi = {skew}: f' != 0 on the minimum curve at r = {x}"
        values = {(x, y): fprime(x, y, skew) for x in grid for y in grid}
        for x in grid:
            for y in grid:
                v = values[(x, y)]
                if (y <= skew and v != 0) or (y > skew and x > 0 and v <= 0):
                    return False, f"pi = {skew}: f'({x}, {y}) = {v}"
                if x < 1 and values[(x + Fraction(1, n), y)] < v:
                    return False, f"pi = {skew}: decreases in r at ({x}, {y})"
                if y < 1 and values[(x, y + Fraction(1, n))] < v:
                    return False, f"pi = {skew}: decreases in p at ({x}, {y})"
    return True, (
        f"pi in {{{', '.join(str(s) for s in skews)}}}, (r, p) on the {n + 1} x {n + 1} rational grid, exact: "
        "0 on the minimum curve, non-decreasing along rows and columns, 0 exactly where p <= pi "
        "(and r > 0)"
    )


def _b16_forced_zero(
    skews: Sequence[Fraction] = (Fraction(1, 10), Fraction(1, 3), Fraction(1, 2), Fraction(9, 10)),
    n: int = 10,
) -> tuple[bool, str]:
    """Relaxed requirements on a grid: the points forced to 0 are exactly the achievable p <= pi."""
    for skew in skews:
        succ, zero = _order_graph(skew, n)
        # f >= 0 where a non-decreasing path leads from the curve, f <= 0 where one leads to it
        forced = _reach(succ, zero) & _reach(succ, zero, reverse=True)
        expected = {v for v in succ if v[1] <= skew}
        if forced != expected:
            return False, f"pi = {skew}: forced set differs at {sorted(forced ^ expected)[:3]}"
    return True, (
        f"pi in {{{', '.join(str(s) for s in skews)}}}, achievable points of a {n} x {n} grid plus the curve "
        "points: exactly those with p <= pi are forced to 0 by graph reachability"
    )


def _b16_interval(branch: sp.Expr = MODIFIED_F1) -> tuple[bool, str]:
    """The derivatives of ``branch`` in r and in p, exactly as sympy returns them, certified
    positive by interval arithmetic with p = pi + q (1 - pi) (q: the normalised precision).

    The box r, q in [10^-6, 1], pi in [10^-6, 1 - 10^-6] leaves out the singular corner r = 0,
    p = pi (f' is 0/0 there) and the degenerate skews 0 and 1.
    """
    q = sp.Symbol("q", positive=True)
    eps = Fraction(1, 10**6)
    box = [(eps, 1), (eps, 1), (eps, 1 - eps)]
    parts, ok = [], True
    for var in (r, p):
        d = sp.factor(sp.diff(branch, var)).subs(p, pi + q * (1 - pi))
        good, detail = interval_sign(
            interval_function([r, q, pi], d), box, cells=6, strict=True, max_depth=10
        )
        ok &= good
        parts.append(f"d f'/d{var}: {detail}")
    return ok, "; ".join(parts) + " (coordinates r, q = (p - pi)/(1 - pi), pi)"


@claim(
    "B16",
    source=f"{SOURCE} (000 §4.4, 001)",
    location="§4.4, relaxed requirements and f'",
    title="Relaxed requirements force f' = 0 below random guessing; the paper's f' meets them",
    statement=lambda: sp.Tuple(
        sp.Eq(f_(r, p), modified_f1(r, p, pi)),
        sp.Eq(
            MODIFIED_F1, 2 * r * ((p - pi) / (1 - pi)) / (r + (p - pi) / (1 - pi)), evaluate=False
        ),
    ),
    assumptions=(
        "0 < pi < 1, 0 <= r, p <= 1; f' is defined on the achievable points",
        "relaxed requirements read as: r1 <= r2 implies f'(r1, p) <= f'(r2, p), and likewise in p",
    ),
    verdict="holds as corrected",
    note="The slides write the relaxed requirements as 'f'(r1, p) <= f'(r2, p) iff r1 <= r2' (the paper's "
    "OCR is unclear). Read literally, the 'only if' half says r1 > r2 implies f'(r1, p) > f'(r2, p): "
    "strict monotonicity again, which B15 shows impossible, and which the paper's own f' violates "
    "(f'(1/2, 1/5) = f'(1/5, 1/5) = 0 at pi = 1/3, both points achievable). With 'if' in place of 'iff' (non-decreasing "
    "in each argument) every claim holds: any such f' is 0 on every achievable point with "
    "p <= pi, and the paper's f' meets the requirements and is the harmonic mean of r and "
    "(p - pi)/(1 - pi).",
)
def _b16(pf: Proof) -> None:
    r1, r2, p1, p2 = sp.symbols("r_1 r_2 p_1 p_2", nonnegative=True)
    third, fifth, half = sp.Rational(1, 3), sp.Rational(1, 5), sp.Rational(1, 2)
    lhs, rhs = modified_f1(half, fifth, third), modified_f1(fifth, fifth, third)
    pf.true(
        "Read with 'iff', the relaxed requirement fails for the paper's own f': at pi = 1/3 both "
        "(1/2, 1/5) and (1/5, 1/5) are achievable (precision at least the B1 bound), and "
        "f'(1/2, 1/5) <= f'(1/5, 1/5) although 1/2 > 1/5",
        sp.And(
            sp.Ge(fifth, min_precision(half, third)),
            sp.Ge(fifth, min_precision(fifth, third)),
            sp.Le(lhs, rhs),
            sp.Eq(lhs, 0),
        ),
        "exact evaluation",
        shown=sp.Tuple(
            sp.Eq(name(r"f'(1/2, 1/5)"), lhs, evaluate=False),
            sp.Eq(name(r"f'(1/5, 1/5)"), rhs, evaluate=False),
        ),
    )
    pf.given(
        "Corrected relaxed requirements (non-decreasing in each argument), with (3) unchanged",
        sp.And(
            sp.Implies(sp.Le(r1, r2), sp.Le(f_(r1, p), f_(r2, p))),
            sp.Implies(sp.Le(p1, p2), sp.Le(f_(r, p1), f_(r, p2))),
        ),
    )
    r0_step = len(pf.steps) + 1
    r0 = pf.obtain(
        "For p <= pi, the minimum curve reaches precision p at recall",
        sp.Eq(name("r_0"), sp.solve(sp.Eq(min_precision(r, pi), p), r)[0]),
        "solve",
    ).rhs
    pf.equal("r_0 <= 1 exactly when p <= pi, since", 1 - r0, (pi - p) / (pi * (1 - p)))
    db = pf.obtain(
        "The bound increases with r",
        sp.Eq(name(r"\partial\, bound / \partial r"), sp.factor(sp.diff(min_precision(r, pi), r))),
        "diff",
    ).rhs
    _sign(pf, "positive", db, ">", UNIT_SKEW)
    v = sp.Symbol("v", positive=True)  # p = 1/(1 + v): 0 < p < 1
    r0_sym = name("r_0")
    pf.equal(
        "Achievability p >= bound(r) in terms of r_0: over a common denominator",
        p - min_precision(r, pi),
        pi * (1 - p) * (r0 - r) / (1 - pi + pi * r),
        shown=sp.Eq(
            p - min_precision(r, pi),
            pi * (1 - p) * (r0_sym - r) / (1 - pi + pi * r),
            evaluate=False,
        ),
    )
    difference_step = len(pf.steps)
    _sign(
        pf,
        "The factor pi (1 - p)/(1 - pi + pi r) is positive, so an achievable (r, p) has r <= r_0",
        pi * (1 - p) / (1 - pi + pi * r),
        ">",
        {p: 1 / (1 + v), pi: 1 / (1 + t)},
        how="sign with p = 1/(1+v), pi = 1/(1+t); v, t > 0",
    )
    factor_step = len(pf.steps)
    pf.conclude(
        "For an achievable (r, p) with p <= pi: bound(r) <= p and r <= r_0 <= 1, so the requirements "
        "give the chain below; its ends are points of the minimum curve, where (3) makes f zero",
        r"0 = f(r, \mathrm{bound}(r)) \le f(r, p) \le f(r_0, p) = 0",
        [r0_step, r0_step + 1, difference_step, factor_step],
    )
    between = sp.Symbol("f(r, p)", real=True)
    pinned = sp.solveset(sp.Ge(between, 0), between, sp.S.Reals) & sp.solveset(
        sp.Le(between, 0), between, sp.S.Reals
    )
    pf.true(
        "The only real value between 0 and 0 is 0: f = 0 at every achievable point with p <= pi",
        pinned == sp.FiniteSet(0),
        "solveset over the reals",
        shown=sp.Eq(
            sp.ConditionSet(between, sp.And(sp.Le(0, between), sp.Le(between, 0)), sp.S.Reals),
            sp.FiniteSet(0),
            evaluate=False,
        ),
    )
    derive_modified_f1(pf, MODIFIED_F1)
    pf.check("enumeration", "The paper's f' on rational grids", check_modified_f1_grid(MODIFIED_F1))
    pf.check(
        "enumeration",
        "Points forced to 0 by the relaxed requirements (graph reachability)",
        _b16_forced_zero(),
    )
    pf.check(
        "interval",
        "The paper's f' increases in r and in p above random guessing, away from the corner "
        "(r, p) = (0, pi)",
        _b16_interval(),
    )
    q = (p - pi) / (1 - pi)
    pf.check(
        "exact",
        "Harmonic mean identity at random rational points",
        exact_identity(
            MODIFIED_F1,
            2 * r * q / (r + q),
            rational_sampler({r: (0, 1), pi: (0, sp.Rational(1, 2)), p: (sp.Rational(1, 2), 1)}),
        ),
    )
