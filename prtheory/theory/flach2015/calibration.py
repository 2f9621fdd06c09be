"""Claims F10-F12: equal F_beta and the F-calibrated score (Theorem 4), Figure 3's scores, and
the ROC background (expected accuracy, calibrated hull segments).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction

import sympy as sp

from prtheory.theory.checks import exact_identity, exhaustive
from prtheory.theory.common import beta, printed_as, rankings, rankings_of, round_half_up, sweep
from prtheory.theory.domain import Domain, Integer, Meaning, Real
from prtheory.theory.flach2015.formulas import SOURCE, gain, neg, p, pi, pos, r
from prtheory.theory.registry import Proof, claim

# ---- F10 --------------------------------------------------------------------------------------
p1, p2, r1, r2 = sp.symbols("p_1 p_2 r_1 r_2", positive=True)
BETA2_PRINTED = -(1 / p1 - 1 / p2) / (1 / r1 - 1 / r2)
D_PRINTED = (1 / r1 - 1 / r2) / ((1 / r1 - 1 / r2) - (1 / p1 - 1 / p2))


def theorem4_steps(pf: Proof, beta2: sp.Expr = BETA2_PRINTED, d: sp.Expr = D_PRINTED) -> None:
    """Theorem 4 (F10): solve ``F_beta(p1, r1) = F_beta(p2, r2)`` for ``beta^2``; check the
    printed root ``beta2`` and the calibrated score ``d = 1/(beta^2 + 1)`` against it.

    Parameters
    ----------
    pf : Proof
        The recorder (with F10's domain, so that the final inference is checked).
    beta2, d : sympy expression
        The root and the calibrated score to check (eqs. (6)-(7) by default).

    Returns
    -------
    None

    Examples
    --------
    The derivation (a wrong root fails its step; :func:`f10_statement` has the arithmetic):

    >>> from prtheory.theory.flach2015.calibration import theorem4_steps
    >>> from prtheory.theory.registry import REGISTRY, Proof
    >>> pf = Proof(REGISTRY["F10"].domain)
    >>> theorem4_steps(pf)
    >>> [s.verified for s in pf.steps], pf.final_step
    ([None, True, True, True, True, True, True], 7)
    """
    b2 = sp.Symbol("b", positive=True)  # beta^2
    inv = lambda pp, rr: (1 / pp + b2 / rr) / (1 + b2)  # noqa: E731  1/F_beta (eq. 2)
    pf.given("1/F_beta = (1/p + beta^2/r)/(1 + beta^2), with b = beta^2", inv(p, r))
    sol = sp.solve(sp.Eq(inv(p1, r1), inv(p2, r2)), b2)
    pf.obtain(
        "Equal F_beta is linear in b: sympy solves it for its single root (given r1 != r2)",
        sp.Eq(sp.Symbol("b"), sol[0], evaluate=False),
        "solve",
    )
    pf.equal("The root", sol[0], beta2)
    pf.equal("The calibrated score d = 1/(beta^2 + 1)", 1 / (sol[0] + 1), d)
    slope = (gain(p1) - gain(p2)) / (gain(r1) - gain(r2))
    pf.equal("It is minus the slope of the PRG segment joining the two points", -slope, beta2)
    pf.equal(
        "At beta^2 = the root, the two classifiers have the same F_beta",
        f_beta_sq(p1, r1, beta2),
        f_beta_sq(p2, r2, beta2),
    )
    pf.establish(
        "At beta^2 as derived the two F_beta are equal, and the calibrated score is d",
        f10_statement(beta2, d),
        [4, 6],
    )


def f_beta_sq(p_: sp.Expr, r_: sp.Expr, b2: sp.Expr) -> sp.Expr:
    """F_beta with beta^2 = ``b2``: (1 + b2) p r/(b2 p + r).

    Parameters
    ----------
    p_, r_ : sympy expression
        Precision and recall.
    b2 : sympy expression
        beta^2.

    Returns
    -------
    sympy expression
        F_beta.

    Examples
    --------
    F1 of 1/2 and 1/4: ``2 (1/8)/(3/4) = 1/3``:

    >>> import sympy as sp
    >>> from prtheory.theory.flach2015.calibration import f_beta_sq
    >>> f_beta_sq(sp.Rational(1, 2), sp.Rational(1, 4), 1)
    1/3
    """
    return (1 + b2) * p_ * r_ / (b2 * p_ + r_)


def f10_statement(beta2: sp.Expr = BETA2_PRINTED, d: sp.Expr = D_PRINTED) -> sp.Basic:
    """Theorem 4: the two F_beta are equal at beta^2 = ``beta2``, and d = 1/(beta^2 + 1).

    Parameters
    ----------
    beta2, d : sympy expression
        The root and the calibrated score (eqs. (6)-(7) by default).

    Returns
    -------
    sympy.And
        The statement, unevaluated.

    Examples
    --------
    ``(p1, r1) = (1/2, 1/4)`` and ``(p2, r2) = (1/4, 1/2)``: eq. (6) gives
    ``beta^2 = -(2 - 4)/(4 - 2) = 1`` (F1 is symmetric in p and r: both are 1/3) and eq. (7)
    ``d = 2/(2 + 2) = 1/2 = 1/(1 + 1)``:

    >>> import sympy as sp
    >>> from prtheory.theory.flach2015.calibration import BETA2_PRINTED, f10_statement
    >>> from prtheory.theory.flach2015.calibration import p1, p2, r1, r2
    >>> half, quarter = sp.Rational(1, 2), sp.Rational(1, 4)
    >>> point = {p1: half, r1: quarter, p2: quarter, r2: half}
    >>> BETA2_PRINTED.subs(point), f10_statement().subs(point)
    (1, True)
    """
    return sp.And(
        sp.Eq(f_beta_sq(p1, r1, beta2), f_beta_sq(p2, r2, beta2), evaluate=False),
        sp.Eq(1 / (beta2 + 1), d, evaluate=False),
        evaluate=False,
    )


@claim(
    "F10",
    source=SOURCE,
    location="§3.4, Theorem 4, eqs. (6)-(7)",
    title="Equal F_beta of two classifiers; the F-calibrated score d",
    statement=f10_statement,
    assumptions=("prec1 > prec2 and rec1 < rec2 (so the root is positive)",),
    domain=Domain(
        Real(p2, 0, 1, open_lo=True, open_hi=True),
        Real(p1, p2, 1, open_lo=True),
        Real(r1, 0, 1, open_lo=True, open_hi=True),
        Real(r2, r1, 1, open_lo=True),
        samples=60,
    ),
)
def _f10(pf: Proof) -> None:
    theorem4_steps(pf)
    # With p1 > p2, r1 < r2: numerator and denominator signs.
    u, v = sp.symbols("u v", positive=True)  # p1 = p2 + u, r2 = r1 + v
    b2 = BETA2_PRINTED.subs({p1: p2 + u, r2: r1 + v})
    pf.true(
        "With p1 = p2 + u, r2 = r1 + v (u, v > 0) the root is positive",
        sp.Gt(sp.factor(b2), 0, evaluate=False),
        "factor, sign under positivity",
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


#: Figure 3's labels: (F-calibrated score, beta^2 printed for it).
F11_SCORES = (("0.76", "0.32"), ("0.49", "1.04"))
d_score = sp.Symbol("d", positive=True)


def _f11_parts() -> list[tuple[str, sp.Basic]]:
    """beta^2 = (1 - d)/d at each printed score rounds to the printed beta^2."""
    return [
        (
            f"beta^2 at d = {score} rounds to {printed}",
            printed_as(((1 - d_score) / d_score).subs(d_score, sp.Rational(score)), printed),
        )
        for score, printed in F11_SCORES
    ]


@claim(
    "F11",
    source=SOURCE,
    location="§3.4, Figure 3 (right) and text",
    title="Figure 3: scores 0.76 and 0.49 correspond to beta^2 = 0.32 and 1.04",
    statement=lambda: sp.And(
        sp.Eq(beta**2, (1 - d_score) / d_score, evaluate=False),
        *(st for _, st in _f11_parts()),
        evaluate=False,
    ),
    assumptions=(
        "the F-calibrated score of eq. (7) is d = 1/(beta^2 + 1)",
        "printed scores and beta^2 are rounded to two decimals: beta^2 is (1 - d)/d at the "
        "printed score, rounded",
    ),
    domain=Domain(
        Real(beta, 0, sp.oo, open_lo=True), define={d_score: 1 / (beta**2 + 1)}, samples=40
    ),
)
def _f11(pf: Proof) -> None:
    dsym, b = d_score, sp.Symbol("b", positive=True)
    pf.given("The F-calibrated score of eq. (7), b = beta^2", sp.Eq(dsym, 1 / (b + 1)))
    inv = sp.solve(sp.Eq(dsym, 1 / (b + 1)), b)
    pf.obtain("Solved for b", sp.Eq(b, inv[0]), "solve")
    pf.equal("which is the printed (1 - d)/d", inv[0], (1 - dsym) / dsym)
    pf.equal(
        "at d = 1/(beta^2 + 1) it gives back beta^2",
        beta**2,
        ((1 - dsym) / dsym).subs(dsym, 1 / (beta**2 + 1)),
    )
    facts = [len(pf.steps)]
    for what, st in _f11_parts():
        pf.true(what, st, "exact rational arithmetic")
        facts.append(len(pf.steps))
    pf.establish(
        "beta^2 as a function of the score, and its rounded values at the printed scores",
        sp.And(
            sp.Eq(beta**2, (1 - d_score) / d_score, evaluate=False),
            *(st for _, st in _f11_parts()),
            evaluate=False,
        ),
        facts,
    )
    for score, printed in F11_SCORES:
        d = Fraction(score)
        b2 = Fraction(str(inv[0].subs(dsym, sp.Rational(score))))
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
E_ACC, AUROC = sp.Symbol(r"E[\mathrm{acc}]"), sp.Symbol(r"\mathrm{AUROC}")
RANKING = sp.Symbol("ranking")


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


@functools.cache
def _auroc(labels: tuple[int, ...]) -> Fraction:
    """AUROC of an untied ranking: the fraction of (positive, negative) pairs in order."""
    n_pos = sum(labels)
    n_neg = len(labels) - n_pos
    pairs, negs_below = 0, n_neg
    for y in labels:
        if y:
            pairs += negs_below
        else:
            negs_below -= 1
    return Fraction(pairs, n_pos * n_neg)


@functools.cache
def _expected_accuracy(labels: tuple[int, ...]) -> Fraction:
    """Accuracy integrated over the predicted positive rate along the ROC curve, exactly (it is
    affine in the rate on each segment, so the trapezoid rule is exact)."""
    n_pos = sum(labels)
    skew = Fraction(n_pos, len(labels))
    e_acc = Fraction(0)
    for (fa, ta), (fb, tb) in itertools.pairwise(_roc_points(labels)):
        acc_a = skew * ta + (1 - skew) * (1 - fa)
        acc_b = skew * tb + (1 - skew) * (1 - fb)
        ra, rb = skew * ta + (1 - skew) * fa, skew * tb + (1 - skew) * fb
        e_acc += (acc_a + acc_b) / 2 * (rb - ra)
    return e_acc


def _roc_points(labels: Sequence[int]) -> list[tuple[Fraction, Fraction]]:
    n_pos = sum(labels)
    n_neg = len(labels) - n_pos
    return [(Fraction(fp, n_neg), Fraction(tp, n_pos)) for tp, fp in sweep(labels)]


@claim(
    "F12",
    source=SOURCE,
    location="§1, ROC background (Area, Calibration); §3.4",
    title="E[acc] from AUROC; calibrated score of a hull segment; acc_c",
    statement=lambda: sp.And(
        sp.Eq(E_ACC, pi * (1 - pi) * (2 * AUROC - 1) + sp.Rational(1, 2)),
        sp.Eq(c_, pi * s_ / (pi * s_ + 1 - pi)),
    ),
    assumptions=(
        "the ROC curve is piecewise linear from (0, 0) to (1, 1); rate = pi tpr + (1-pi) fpr uniform on [0, 1]",
        "a hull segment of slope s joins two operating points",
        "c is the calibrated score of the segment: the fraction of positives among the instances "
        "it adds (pos Delta_t of them positive, neg Delta_f negative, s = Delta_t/Delta_f)",
    ),
    domain=Domain(
        Integer(pos, 1),
        Integer(neg, 1),
        rankings_of(RANKING, pos, neg),
        Real(s_, 0, sp.oo, open_lo=True),
        define={
            pi: pos / (pos + neg),
            c_: pos * s_ / (pos * s_ + neg),
            E_ACC: Meaning(
                lambda pt: _expected_accuracy(pt[RANKING]),
                "accuracy integrated exactly over the predicted positive rate along the ranking's "
                "ROC curve (Fractions)",
            ),
            AUROC: Meaning(
                lambda pt: _auroc(pt[RANKING]), "AUROC by counting correctly ordered pairs"
            ),
        },
        exhaustive=6,
        samples=30,
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
    auroc = AUROC
    e_acc = (
        _g_potential(sp.Integer(1), sp.Integer(1))
        - _g_potential(sp.Integer(0), sp.Integer(0))
        + 2 * pi * (1 - pi) * auroc
    )
    pf.conclude(
        "Summing over the segments of a curve from (0, 0) to (1, 1), the G terms telescope to "
        "G(1, 1) - G(0, 0) and the areas add up to AUROC; rate runs over [0, 1] (length 1), so the "
        "integral is E[acc]",
        sp.Eq(E_ACC, e_acc, evaluate=False),
        [len(pf.steps)],
    )
    lemma = len(pf.steps)
    pf.equal(
        "E[acc] = pi(1-pi)(2 AUROC - 1) + 1/2",
        e_acc,
        pi * (1 - pi) * (2 * auroc - 1) + sp.Rational(1, 2),
    )
    e_acc_step = len(pf.steps)
    del lemma
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
    calibrated = len(pf.steps)
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
    tie = _tie_score(_acc_c_swapped)
    pf.equal(
        "With acc_c = 2(1-c) pi tpr + 2c(1-pi)(1-fpr) they tie at the calibrated score",
        tie,
        calib,
    )
    del tie
    pf.establish(
        "E[acc] as derived, and the calibrated score of a segment (which is where the corrected "
        "acc_c ties its end points)",
        sp.And(
            sp.Eq(E_ACC, pi * (1 - pi) * (2 * auroc - 1) + sp.Rational(1, 2)),
            sp.Eq(c_, calib),
        ),
        [e_acc_step - 1, e_acc_step, calibrated],
    )
    _f12_checks(pf)


def _f12_checks(pf: Proof) -> None:
    def agrees(labels: tuple[int, ...]) -> bool:
        skew = Fraction(sum(labels), len(labels))
        e_acc, auc = _expected_accuracy(labels), _auroc(labels)
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
