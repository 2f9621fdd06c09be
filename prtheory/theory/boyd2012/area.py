"""Claims B4, B5 and B7: the area under the minimum PR curve (Theorem 2), its limits and
monotonicity in the skew, and its restriction to a recall range (Corollary 4).
"""

from __future__ import annotations

from collections.abc import Callable

import mpmath
import sympy as sp

from prtheory.theory.boyd2012.formulas import (
    SKEW,
    SLIDES_ANTIDERIVATIVE,
    SOURCE,
    UNIT_HOW,
    UNIT_SKEW,
    a,
    aucpr_min,
    aucpr_min_range,
    b,
    min_precision,
    mp_aucpr_min,
    p,
    pi,
    r,
    recall_range_sampler,
    skew_domain,
    skew_sampler,
    sum_value,
    unit_branch,
    worst_ranking,
)
from prtheory.theory.checks import (
    interval_function,
    interval_sign,
    mp_derivative_identity,
    mp_quad_identity,
    rational_sampler,
)
from prtheory.theory.common import dg_aucpr, name
from prtheory.theory.domain import Domain, Real
from prtheory.theory.registry import Proof, claim

# ==== B4 and B7: areas under the bound ===========================================================


def derive_area(pf: Proof, candidate: sp.Expr, lo: sp.Expr = 0, hi: sp.Expr = 1) -> sp.Expr:
    """Integrate the Theorem 1 bound over recall [lo, hi] with sympy; it must equal ``candidate``.

    The step records the fact ``Integral(bound, (r, lo, hi)) = candidate`` (the registry
    integrates). Returns the candidate.

    Parameters
    ----------
    pf : Proof
        The recorder.
    candidate : sympy expression
        The area to check.
    lo, hi : sympy expression
        The recall range.

    Returns
    -------
    sympy expression
        The candidate.

    Examples
    --------
    Theorem 2's ``1 + (1 - pi) ln(1 - pi)/pi`` (B4); half of it fails:

    >>> from prtheory.theory.boyd2012.area import derive_area
    >>> from prtheory.theory.boyd2012.formulas import aucpr_min, pi
    >>> from prtheory.theory.registry import Proof, StepFailed
    >>> pf = Proof()
    >>> derive_area(pf, aucpr_min(pi))
    1 + (1 - pi)*log(1 - pi)/pi
    >>> pf.steps[1].verified
    True
    >>> try:
    ...     derive_area(Proof(), aucpr_min(pi) / 2)
    ... except StepFailed as exc:
    ...     print(str(exc).split(":")[0])
    sympy integrates it over recall from 0 to 1, and the area is the closed form
    """
    pf.given(
        "The minimum PR curve (B1, B2) as a function of recall", sp.Eq(p, min_precision(r, pi))
    )
    pf.value(
        f"sympy integrates it over recall from {sp.latex(lo)} to {sp.latex(hi)}, and the area is "
        "the closed form",
        sp.Integral(min_precision(r, pi), (r, lo, hi)),
        candidate,
        "integrate",
        branch=unit_branch,
    )
    return candidate


def check_area_quadrature(
    candidate: sp.Expr, lo: sp.Expr = 0, hi: sp.Expr = 1, sampler: Callable | None = None
) -> tuple[bool, str]:
    """mpmath quadrature of the bound over [lo, hi] against ``candidate`` at 50 digits.

    Parameters
    ----------
    candidate : sympy expression
        The area.
    lo, hi : sympy expression
        The recall range.
    sampler : callable, optional
        Draws pi (and the range's symbols).

    Returns
    -------
    tuple of (bool, str)
        :func:`~prtheory.theory.checks.mp_quad_identity`'s outcome.

    Examples
    --------
    >>> from prtheory.theory.boyd2012.area import check_area_quadrature
    >>> from prtheory.theory.boyd2012.formulas import aucpr_min, pi
    >>> check_area_quadrature(aucpr_min(pi))[0], check_area_quadrature(aucpr_min(pi) / 2)[0]
    (True, False)
    """
    return mp_quad_identity(min_precision(r, pi), r, lo, hi, candidate, sampler or skew_sampler())


def derive_antiderivative(pf: Proof, antiderivative: sp.Expr, area: sp.Expr) -> None:
    """Differentiate ``antiderivative`` back to the bound and evaluate it between 0 and 1.

    Parameters
    ----------
    pf : Proof
        The recorder.
    antiderivative : sympy expression
        F(r).
    area : sympy expression
        F(1) - F(0).

    Returns
    -------
    None

    Examples
    --------
    The slides' ``F(r) = (r pi + (pi - 1) ln(pi (r - 1) + 1))/pi``: ``F(1) = 1`` and
    ``F(0) = (pi - 1) ln(1 - pi)/pi``, so ``F(1) - F(0)`` is Theorem 2's closed form:

    >>> from prtheory.theory.boyd2012.area import derive_antiderivative
    >>> from prtheory.theory.boyd2012.formulas import SLIDES_ANTIDERIVATIVE, aucpr_min, pi
    >>> from prtheory.theory.registry import Proof
    >>> pf = Proof()
    >>> derive_antiderivative(pf, SLIDES_ANTIDERIVATIVE, aucpr_min(pi))
    >>> [s.verified for s in pf.steps]
    [True, True]
    """
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
    """Numerical derivative (mpmath, 50 digits) of ``antiderivative`` against the bound.

    Parameters
    ----------
    antiderivative : sympy expression
        F(r).

    Returns
    -------
    tuple of (bool, str)
        :func:`~prtheory.theory.checks.mp_derivative_identity`'s outcome.

    Examples
    --------
    ``d/dr (r pi) = pi`` is not the bound:

    >>> from prtheory.theory.boyd2012.area import check_antiderivative_numeric
    >>> from prtheory.theory.boyd2012.formulas import SLIDES_ANTIDERIVATIVE, pi, r
    >>> check_antiderivative_numeric(SLIDES_ANTIDERIVATIVE)[0]
    True
    >>> check_antiderivative_numeric(r * pi)[0]
    False
    """
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
    domain=skew_domain(samples=20),
)
def _b4(pf: Proof) -> None:
    area = derive_area(pf, aucpr_min(pi))
    integrated = len(pf.steps)
    derive_antiderivative(pf, SLIDES_ANTIDERIVATIVE, aucpr_min(pi))
    pf.establish(
        "The area under the bound is what sympy integrated",
        sp.Eq(sp.Integral(min_precision(r, pi), (r, 0, 1)), area),
        [integrated],
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
    domain=skew_domain(samples=40),
)
def _b5(pf: Proof) -> None:
    m = aucpr_min(pi)
    at0 = pf.value("Limit as pi -> 0+ (sympy limit)", sp.Limit(m, pi, 0, "+"), 0, "limit")
    at1 = pf.value("Limit as pi -> 1- (sympy limit)", sp.Limit(m, pi, 1, "-"), 1, "limit")
    limits = len(pf.steps)
    pf.value(
        "The convention at pi = 0 is also the area under the bound there, which is 0",
        sp.Integral(min_precision(r, 0), (r, 0, 1)),
        0,
        "integrate",
    )
    pf.value(
        "and at pi = 1 the bound is r/r = 1 for r > 0, with area 1",
        sp.Integral(sp.cancel(min_precision(r, 1)), (r, 0, 1)),
        1,
        "integrate",
    )
    g = -sp.log(1 - pi) - pi
    d = pf.value(
        "Derivative in pi: it is g(pi)/pi^2 with g(pi) = -ln(1 - pi) - pi",
        sp.Derivative(m, pi),
        g / pi**2,
        "diff",
    )
    derivative = len(pf.steps)
    k = sp.Symbol("k", positive=True, integer=True)
    series = sp.Sum(pi ** (k - 2) / k, (k, 2, sp.oo))
    sum_value(
        pf,
        "g/pi^2 is the tail of the Mercator series over pi^2 (0 < pi < 1)",
        pi ** (k - 2) / k,
        (k, 2, sp.oo),
        g / pi**2,
    )
    pf.true(
        "Every term pi^(k-2)/k is positive, so the series, and the derivative, are positive",
        sp.Gt(series, 0, evaluate=False),
        "sign of the terms",
    )
    positive = len(pf.steps)
    pf.equal("Second route: g(0) = 0 and g'(pi) = pi/(1-pi)", sp.diff(g, pi), pi / (1 - pi))
    pf.sign(
        "g' > 0 on (0, 1), so g increases from g(0) = 0 and stays positive",
        pi / (1 - pi),
        ">",
        UNIT_SKEW,
        how=UNIT_HOW,
    )
    pf.establish(
        "The two limits as sympy computed them, and the derivative: it equals the series (steps "
        f"{derivative}, {derivative + 1}), which is positive",
        sp.And(
            sp.Eq(sp.Limit(m, pi, 0, "+"), at0, evaluate=False),
            sp.Eq(sp.Limit(m, pi, 1, "-"), at1, evaluate=False),
            sp.Gt(sp.Derivative(m, pi), 0, evaluate=False),
            evaluate=False,
        ),
        [limits - 1, limits, derivative, derivative + 1, positive],
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


# ==== B7 ======================================================================================


AUCPR_MAX = name(r"\mathrm{AUCPR}_{\max}")


@claim(
    "B7",
    source=f"{SOURCE} (000 §2.2)",
    location="Corollary 4",
    title="Minimum and maximum AUCPR over a recall range [a, b]",
    statement=lambda: sp.And(
        sp.Eq(sp.Integral(min_precision(r, pi), (r, a, b)), aucpr_min_range(a, b, pi)),
        sp.Eq(name(r"\mathrm{AUCPR}_{\max}"), b - a),
        evaluate=False,
    ),
    assumptions=("0 <= a < b <= 1, 0 < pi < 1",),
    domain=Domain(
        SKEW,
        Real(a, 0, 1, open_hi=True),
        Real(b, a, 1, open_lo=True),
        define={AUCPR_MAX: sp.Integral(1, (r, a, b))},
        samples=16,
    ),
)
def _b7(pf: Proof) -> None:
    area = derive_area(pf, aucpr_min_range(a, b, pi), a, b)
    integrated = len(pf.steps)
    pf.equal("With a = 0, b = 1 it is Theorem 2", aucpr_min_range(0, 1, pi), aucpr_min(pi))
    pf.given(
        "Precision never exceeds 1, and the perfect ranking (every positive first) keeps "
        "FP = 0, so p = 1 at every recall r > 0 of its curve: AUCPR_max is the area under p = 1",
        sp.Eq(AUCPR_MAX, sp.Integral(1, (r, a, b))),
    )
    top = pf.value("which sympy integrates", sp.Integral(1, (r, a, b)), b - a, "integrate")
    pf.establish(
        "The area under the bound over [a, b], and the area under p = 1, as sympy integrated them",
        sp.And(
            sp.Eq(sp.Integral(min_precision(r, pi), (r, a, b)), area),
            sp.Eq(AUCPR_MAX, top),
            evaluate=False,
        ),
        [integrated, len(pf.steps)],
    )
    pf.check(
        "numeric",
        "Quadrature of the bound over random [a, b]",
        check_area_quadrature(aucpr_min_range(a, b, pi), a, b, recall_range_sampler),
    )
