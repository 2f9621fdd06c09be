"""Claim F9: the expected FG1 under a uniform Delta, from AUPRG (Theorem 3)."""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction

import mpmath
import sympy as sp

from prtheory.theory.checks import exhaustive
from prtheory.theory.common import ranking_variable, rankings
from prtheory.theory.domain import Domain, Meaning
from prtheory.theory.flach2015.formulas import (
    SOURCE,
    TN,
    TP,
    auprg,
    delta_at,
    gain,
    neg,
    pi,
    pos,
    precision_gain_counts,
    prg_path,
    recall_gain_counts,
)
from prtheory.theory.registry import Proof, claim

# ---- F9 ---------------------------------------------------------------------------------------
A_, y0_ = sp.symbols(r"\mathrm{AUPRG} y_0", real=True)
E_FG1 = sp.Symbol(r"E[\mathrm{FG}_1]")
RANKING = sp.Symbol("ranking")


def expected_fg1_printed() -> sp.Expr:
    """Eq. (5): E[FG1] = (AUPRG/2 + 1/4 - pi (1 - y0^2)/4)/(1 - pi (1 - y0)).

    Returns
    -------
    sympy expression
        The printed formula, in ``AUPRG``, ``pi`` and ``y_0``.

    Examples
    --------
    With ``y0 = 1`` the pi terms vanish: ``AUPRG/2 + 1/4``, e.g. ``1/2 * 1/2 + 1/4 = 1/2`` at
    AUPRG = 1/2:

    >>> import sympy as sp
    >>> from prtheory.theory.flach2015.expected_fg import A_, expected_fg1_printed, y0_
    >>> expected_fg1_printed().subs({y0_: 1, A_: sp.Rational(1, 2)})
    1/2
    """
    return (A_ / 2 + sp.Rational(1, 4) - pi * (1 - y0_**2) / 4) / (1 - pi * (1 - y0_))


def _phi(x: sp.Expr, y: sp.Expr) -> sp.Expr:
    """Potential with d(phi) = (x + y) dDelta - y dx/(pi(1-pi)) along any path."""
    return x**2 / (2 * pi) - x * y / (1 - pi) - y**2 / (2 * (1 - pi))


def theorem3_steps(pf: Proof, formula: sp.Expr | None = None) -> None:
    """Derive E[FG1] under uniform Delta along a piecewise-linear PRG curve; compare ``formula``.

    Parameters
    ----------
    pf : Proof
        The recorder (with F9's domain, so that the final inference is checked).
    formula : sympy expression, optional
        The formula to check (eq. (5) by default).

    Returns
    -------
    None

    Examples
    --------
    The derivation (givens shown, the rest verified):

    >>> from prtheory.theory.flach2015.expected_fg import theorem3_steps
    >>> from prtheory.theory.registry import REGISTRY, Proof
    >>> pf = Proof(REGISTRY["F9"].domain)
    >>> theorem3_steps(pf)
    >>> [s.verified for s in pf.steps], pf.final_step
    ([None, None, None, None, True, True, True, True, True, None, True, True, True], 12)
    """
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
    telescoped = len(pf.steps)
    width = pf.equal(
        "Delta runs from -y0/(1-pi) at (0, y0) to 1/pi at (1, 0); the range has length",
        (1 / pi) - (-y0_ / (1 - pi)),
        (1 - pi * (1 - y0_)) / (pi * (1 - pi)),
    )
    expected = integral / width
    pf.conclude(
        "For any number of segments the potential terms telescope the same way (each segment adds "
        "phi(end) - phi(start), step above the previous one); with AUPRG = the sum of the "
        "segments' signed areas, the integral of FG1 dDelta along the whole curve is "
        "(phi(1, 0) - phi(0, y0) + AUPRG/(pi(1 - pi)))/2, and for Delta uniform (Delta monotone "
        "along the curve) E[FG1] is that integral over the length of Delta's range",
        sp.Eq(E_FG1, expected, evaluate=False),
        [telescoped, len(pf.steps)],
    )
    lemma = len(pf.steps)
    pf.equal("which is eq. (5)", expected, formula)
    pf.establish(
        "E[FG1] is eq. (5)",
        sp.Eq(E_FG1, formula, evaluate=False),
        [lemma, lemma + 1],
    )
    pf.equal("y0 = 1 gives AUPRG/2 + 1/4", formula.subs(y0_, 1), A_ / 2 + sp.Rational(1, 4))


@functools.cache
def _expected_fg1_exact(
    labels: tuple[int, ...],
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
        integral += (a[0] + a[1] + b[0] + b[1]) / 4 * (delta_at(b, skew) - delta_at(a, skew))
    length = delta_at(path[-1], skew) - delta_at(path[0], skew)
    expected = integral / length if length else None  # None: Delta is constant (degenerate)
    return expected, auprg(labels), path[0][1], skew


@claim(
    "F9",
    source=SOURCE,
    location="§3.3, Theorem 3, eq. (5)",
    title="Expected FG1 under uniform Delta from AUPRG",
    statement=lambda: sp.Eq(E_FG1, expected_fg1_printed()),
    assumptions=(
        "the PRG curve is piecewise linear from (recG, precG) = (0, y0) to the always-positive (1, 0)",
        "AUPRG = ∫ precG d recG over recG in [0, 1], signed (negative precG counts negatively)",
        "operating points chosen so that Delta = recG/pi - precG/(1-pi) is uniform on [-y0/(1-pi), 1/pi]",
        "that interval has positive length: y0 > -(1-pi)/pi, i.e. TN > 0 where recG = 0",
    ),
    domain=Domain(
        ranking_variable(RANKING, admit=lambda lab: _expected_fg1_exact(lab)[0] is not None),
        define={
            pi: Meaning(lambda pt: _expected_fg1_exact(pt[RANKING])[3], "the ranking's skew"),
            A_: Meaning(lambda pt: _expected_fg1_exact(pt[RANKING])[1], "AUPRG of the ranking"),
            y0_: Meaning(
                lambda pt: _expected_fg1_exact(pt[RANKING])[2],
                "precG where the ranking's PRG curve starts (recG = 0)",
            ),
            E_FG1: Meaning(
                lambda pt: _expected_fg1_exact(pt[RANKING])[0],
                "FG1 integrated exactly over Delta along the ranking's PRG curve (trapezoids in "
                "Delta, Fractions), over the length of Delta's range",
            ),
        },
        exhaustive=8,
        samples=30,
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
        sp.And(sp.Gt(dtp, 0, evaluate=False), sp.Lt(dtn, 0, evaluate=False), evaluate=False),
        "diff, sign under positivity",
    )
    # Checks on concrete rankings.
    _f9_checks(pf)


def _f9_checks(pf: Proof) -> None:
    formula = expected_fg1_printed()
    rat = lambda v: sp.Rational(v.numerator, v.denominator)  # noqa: E731

    def agrees(labels: tuple[int, ...]) -> bool:
        e, area, y0, skew = _expected_fg1_exact(labels)
        monotone = all(
            delta_at(a, skew) <= delta_at(b, skew) for a, b in itertools.pairwise(prg_path(labels))
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
        knots = [mp(delta_at(v, skew)) for v in path]
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
