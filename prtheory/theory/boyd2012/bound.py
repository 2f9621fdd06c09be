"""Claims B1-B3: the minimum precision at a recall and skew (Theorem 1), its tightness (the worst
ranking and its Davis-Goadrich interpolation lie on it) and Table 1.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction

import sympy as sp

from prtheory.theory.boyd2012.formulas import (
    FP,
    SOURCE,
    TP,
    counts_domain,
    i,
    min_precision,
    neg,
    p,
    pi,
    pos,
    r,
    worst_ranking,
)
from prtheory.theory.checks import exact_function, exhaustive
from prtheory.theory.common import name, sweep
from prtheory.theory.domain import Domain, Integer, Real
from prtheory.theory.registry import Proof, claim

# ==== B1 ======================================================================================


def derive_min_precision(pf: Proof, candidate: sp.Expr) -> sp.Expr:
    """Derive the least precision at recall r and skew pi from FP <= neg; it must equal ``candidate``.

    ``candidate`` is an expression in ``r`` and ``pi``. Returns the derived bound. The facts a
    conclusion cites: step 1 (precision minus its value at FP = neg, factored), step 2 (that
    difference is >= 0 when FP <= neg) and the last step (the value at FP = neg is the bound).

    Parameters
    ----------
    pf : Proof
        The recorder.
    candidate : sympy expression
        The bound to check, in ``r`` and ``pi``.

    Returns
    -------
    sympy expression
        The derived bound.

    Examples
    --------
    ``TP/(TP + neg)`` with ``TP = r pos`` and ``neg = pos (1 - pi)/pi`` is
    ``pi r/(1 - pi + pi r)``; ``pi r`` (the bound without its denominator) fails:

    >>> from prtheory.theory.boyd2012.bound import derive_min_precision
    >>> from prtheory.theory.boyd2012.formulas import min_precision, pi, r
    >>> from prtheory.theory.registry import Proof, StepFailed
    >>> pf = Proof()
    >>> derive_min_precision(pf, min_precision(r, pi))
    pi*r/(pi*r - pi + 1)
    >>> all(s.verified for s in pf.steps)
    True
    >>> try:
    ...     derive_min_precision(Proof(), pi * r)
    ... except StepFailed as exc:
    ...     print(str(exc).split(":")[0])
    It is the Theorem 1 bound
    """
    gap = pf.equal(
        "Precision TP/(TP + FP) minus its value at FP = neg, over a common denominator",
        TP / (TP + FP) - TP / (TP + neg),
        TP * (neg - FP) / ((TP + FP) * (TP + neg)),
    )
    s = sp.Symbol("s", nonnegative=True)
    pf.sign(
        "A valid matrix has FP <= neg: with the slack s = neg - FP >= 0 the difference is never "
        "negative",
        gap,
        ">=",
        {neg: FP + s},
        how="sign with neg = FP + s, s >= 0",
    )
    pf.solved(
        "It is zero only for s = 0: the least precision, TP/(TP + neg), is reached exactly at FP = neg",
        sp.Eq(gap.subs(neg, FP + s), 0),
        s,
        [0],
        sp.Interval(0, sp.oo),
    )
    neg_pi = pf.obtain(
        "Solving the skew pi = pos/(pos + neg) for neg",
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
        sp.And(sp.Eq(sp.diff(bound, pos), 0), sp.Eq(sp.diff(bound, neg), 0)),
        "diff",
    )
    pf.equal("It is the Theorem 1 bound", bound, candidate)
    pf.equal(
        "In counts (r = TP/pos, pi = pos/(pos + neg)) it is the precision at FP = neg",
        TP / (TP + neg),
        bound.subs({r: TP / pos, pi: pos / (pos + neg)}),
    )
    return bound


def check_bound_enumeration(candidate: sp.Expr, max_total: int = 14) -> tuple[bool, str]:
    """Every confusion matrix with pos + neg <= max_total has p >= candidate(r, pi), equality at FP = neg.

    Parameters
    ----------
    candidate : sympy expression
        The bound, a rational expression in ``r`` and ``pi``.
    max_total : int
        The largest ``pos + neg``.

    Returns
    -------
    tuple of (bool, str)
        :func:`~prtheory.theory.checks.exhaustive`'s outcome.

    Examples
    --------
    ``pos + neg <= 4``: pos = 1, 2, 3, 4 allow 4, 3, 2, 1 values of neg and pos values of TP,
    ``4 + 6 + 6 + 4 = 20`` triples. ``pi r`` fails at pos = 2, neg = 0, TP = 1, where precision is 1 but ``pi r = 1/2``:

    >>> from prtheory.theory.boyd2012.bound import check_bound_enumeration
    >>> from prtheory.theory.boyd2012.formulas import min_precision, pi, r
    >>> check_bound_enumeration(min_precision(r, pi), max_total=4)[1].split(":")[0]
    'holds in all 20 cases'
    >>> check_bound_enumeration(pi * r, max_total=4)
    (False, 'fails at (2, 0, 1)')
    """
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
    domain=counts_domain(),
)
def _b1(pf: Proof) -> None:
    bound = derive_min_precision(pf, min_precision(r, pi))
    pf.establish(
        "Precision is at least its value at FP = neg (steps 1, 2), which is the derived bound "
        "(the last step)",
        sp.GreaterThan(p, bound),
        [1, 2, len(pf.steps)],
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


P_DG = name(r"p_{\mathrm{DG}}(r)")
TP_A, TP_B, FP_A, FP_B = sp.symbols("TP_A TP_B FP_A FP_B", nonnegative=True)


def dg_line(tp: sp.Expr) -> sp.Expr:
    """FP along the Davis-Goadrich interpolation (a straight ROC segment) from (TP_A, FP_A) to
    (TP_B, FP_B), at TP = ``tp``.

    Parameters
    ----------
    tp : sympy expression
        TP.

    Returns
    -------
    sympy expression
        FP there.

    Examples
    --------
    It runs from FP_A at TP_A to FP_B at TP_B; between the worst ranking's ends (FP = neg at
    both) it stays at neg:

    >>> import sympy as sp
    >>> from prtheory.theory.boyd2012.bound import FP_A, TP_A, TP_B, WORST_ENDS, dg_line
    >>> dg_line(TP_A), dg_line(TP_B), dg_line(sp.Symbol("x")).subs(WORST_ENDS)
    (FP_A, FP_B, neg)
    """
    return FP_A + (tp - TP_A) * (FP_B - FP_A) / (TP_B - TP_A)


#: The worst ranking's end points in counts: (TP, FP) = (0, neg), the PR point (0, 0), and
#: (pos, neg), the PR point (1, pi).
WORST_ENDS = {TP_A: 0, FP_A: neg, TP_B: pos, FP_B: neg}


@claim(
    "B2",
    source=f"{SOURCE} (000 §2.2)",
    location="§2.2, minimum PR curve",
    title="The bound is tight: the worst ranking and its Davis-Goadrich interpolation lie on it",
    statement=lambda: sp.And(
        sp.Eq(i / (i + neg), min_precision(i / pos, pos / (pos + neg)), evaluate=False),
        sp.Eq(P_DG, min_precision(r, pos / (pos + neg)), evaluate=False),
        evaluate=False,
    ),
    assumptions=(
        "pos >= 1, neg >= 1; the worst ranking puts every negative above every positive",
        "Davis-Goadrich interpolation: straight lines in ROC (count) space between thresholds",
    ),
    domain=Domain(
        Integer(pos, 1),
        Integer(neg, 1),
        Integer(i, 1, pos),
        Real(r, 0, 1, open_lo=True),
        define={P_DG: (r * pos / (r * pos + dg_line(r * pos))).subs(WORST_ENDS)},
        exhaustive=10,
        samples=60,
    ),
)
def _b2(pf: Proof) -> None:
    pf.given(
        "Worst ranking: after all neg negatives and the first i positives, TP = i and FP = neg",
        sp.Tuple(sp.Eq(TP, i), sp.Eq(FP, neg)),
    )
    point = (TP / (TP + FP)).subs({TP: i, FP: neg})
    pf.equal(
        "Its PR point (r_i, p_i) = (i/pos, i/(i+neg)) lies on the bound at pi = pos/(pos+neg)",
        point,
        min_precision(i / pos, pos / (pos + neg)),
    )
    on_bound = len(pf.steps)
    lam = sp.Symbol("lambda", nonnegative=True)
    pf.given(
        "Davis-Goadrich: between thresholds A and B the ROC segment is straight, 0 <= lambda <= 1",
        sp.Tuple(sp.Eq(TP, TP_A + lam * (TP_B - TP_A)), sp.Eq(FP, FP_A + lam * (FP_B - FP_A))),
    )
    lam_tp = sp.solve(sp.Eq(TP, TP_A + lam * (TP_B - TP_A)), lam)[0]
    pf.equal(
        "Eliminating lambda (solve the TP equation for lambda, substitute): FP grows linearly "
        "with TP at slope (FP_B - FP_A)/(TP_B - TP_A)",
        FP_A + lam_tp * (FP_B - FP_A),
        dg_line(TP),
    )
    pf.equal(
        "The worst ranking's end points (TP, FP) = (0, neg), the PR point (0, 0), and "
        "(pos, neg), the PR point (1, pi): the slope is 0 and FP stays neg",
        dg_line(TP).subs(WORST_ENDS),
        neg,
    )
    pf.equal(
        "So at every recall r on the interpolated curve (TP = r pos), precision equals the bound",
        (r * pos / (r * pos + dg_line(r * pos))).subs(WORST_ENDS),
        min_precision(r, pos / (pos + neg)),
    )
    pf.establish(
        "The worst ranking's points and its Davis-Goadrich interpolation have the bound's precision",
        sp.And(
            sp.Eq(point, min_precision(i / pos, pos / (pos + neg)), evaluate=False),
            sp.Eq(P_DG, min_precision(r, pos / (pos + neg)), evaluate=False),
            evaluate=False,
        ),
        [on_bound, len(pf.steps)],
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


TN = name("TN")


@claim(
    "B3",
    source=f"{SOURCE} (000 §2.1, 001)",
    location="Table 1",
    title="Table 1: holding precision at 0.2 with 100 positives and 200 negatives",
    statement=lambda: sp.Eq(TN, neg - r * pos * (1 - p) / p),
    assumptions=("pos = 100, neg = 200 (pi = 1/3); precision held at p = 0.2",),
    domain=counts_domain(TN=neg - FP),
)
def _b3(pf: Proof) -> None:
    fp_needed = pf.obtain(
        "Solving p = TP/(TP + FP) for FP, with TP = r pos",
        sp.Eq(FP, sp.solve(sp.Eq(p, TP / (TP + FP)), FP)[0].subs(TP, r * pos)),
        "solve",
    ).rhs
    pf.equal("So the true negatives left are", neg - fp_needed, neg - r * pos * (1 - p) / p)
    pf.equal(
        "In counts (p = TP/(TP + FP), r = TP/pos) that FP is FP itself: TN = neg - FP",
        neg - FP,
        (neg - r * pos * (1 - p) / p).subs({p: TP / (TP + FP), r: TP / pos}),
    )
    pf.establish(
        "TN = neg - FP at the FP that holds precision at p",
        sp.Eq(TN, neg - r * pos * (1 - p) / p),
        [2, 3],
    )
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
