"""Boyd, Santos Costa, Davis & Page (ICML 2012; seeds 000 and 001): the symbols, the closed
forms as sympy expressions, their exact and mpmath twins for the checks, and the symbolic helpers
the claim modules share (sign and series steps, samplers).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction

import mpmath
import sympy as sp

from prtheory.theory.checks import rational_sampler
from prtheory.theory.common import mp_fraction
from prtheory.theory.domain import Domain, Integer, Real
from prtheory.theory.registry import Proof

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

#: The skew as a domain variable: 0 < pi < 1.
SKEW = Real(pi, 0, 1, open_lo=True, open_hi=True)


def skew_domain(samples: int = 40) -> Domain:
    """Every skew in (0, 1).

    Parameters
    ----------
    samples : int
        Sampled skews beyond the exhaustive points.

    Returns
    -------
    Domain
        The domain of ``pi``.

    Examples
    --------
    Its exhaustive points are the quarter points (both ends are open):

    >>> from prtheory.theory.boyd2012.formulas import pi, skew_domain
    >>> [str(point[pi]) for point in skew_domain().exhaustive_points()]
    ['1/4', '1/2', '3/4']
    """
    return Domain(SKEW, samples=samples)


def counts_domain(exhaustive: int = 12, **define: sp.Expr) -> Domain:
    """Every valid confusion matrix: pos >= 1, neg >= 0, 1 <= TP <= pos, 0 <= FP <= neg, with
    precision, recall and skew defined from the counts (and ``define``, keyed by symbol name).

    Parameters
    ----------
    exhaustive : int
        Every matrix with ``pos + neg`` up to it is checked.
    **define : sympy expression
        Further definitions, keyed by symbol name.

    Returns
    -------
    Domain
        The domain.

    Examples
    --------
    ``pos + neg <= 2``: (pos, neg) = (1, 0) has one matrix, (1, 1) two (FP = 0, 1), (2, 0) two
    (TP = 1, 2); five in all:

    >>> from prtheory.theory.boyd2012.formulas import counts_domain
    >>> sum(1 for _ in counts_domain(exhaustive=2).exhaustive_points())
    5
    """
    names = {str(s): s for s in (p, r, pi)}
    extra = {names.get(k, sp.Symbol(k)): v for k, v in define.items()}
    return Domain(
        Integer(pos, 1),
        Integer(neg, 0),
        Integer(TP, 1, pos),
        Integer(FP, 0, neg),
        define={p: TP / (TP + FP), r: TP / pos, pi: pos / (pos + neg), **extra},
        exhaustive=exhaustive,
        samples=80,
    )


UNIT_HOW = "sign with pi = 1/(1+t), t > 0 (every skew in (0,1))"


# ---- the documents' formulas ---------------------------------------------------------------


def min_precision(r_: sp.Expr, pi_: sp.Expr) -> sp.Expr:
    """The Theorem 1 bound pi r / (1 - pi + pi r) (B1). Works on sympy objects and ``Fraction``.

    Parameters
    ----------
    r_, pi_ : sympy expression or Fraction
        Recall and skew.

    Returns
    -------
    sympy expression or Fraction
        The least precision.

    Examples
    --------
    ``r = pi = 1/2``: ``(1/4)/(1/2 + 1/4) = 1/3``; in counts, TP = 1 of pos = 2 with all
    neg = 2 negatives predicted positive: ``1/(1 + 2) = 1/3``:

    >>> from fractions import Fraction
    >>> from prtheory.theory.boyd2012.formulas import min_precision
    >>> min_precision(Fraction(1, 2), Fraction(1, 2))
    Fraction(1, 3)
    """
    return pi_ * r_ / (1 - pi_ + pi_ * r_)


def aucpr_min(pi_: sp.Expr) -> sp.Expr:
    """Theorem 2 (B4): AUCPR_min = 1 + (1 - pi) ln(1 - pi) / pi, as a sympy expression.

    Parameters
    ----------
    pi_ : sympy expression
        The skew.

    Returns
    -------
    sympy expression
        AUCPR_min.

    Examples
    --------
    ``pi = 1/2``: ``1 + (1/2) ln(1/2)/(1/2) = 1 - ln 2``:

    >>> import sympy as sp
    >>> from prtheory.theory.boyd2012.formulas import aucpr_min
    >>> aucpr_min(sp.Rational(1, 2))
    1 - log(2)
    """
    return 1 + (1 - pi_) * sp.log(1 - pi_) / pi_


def aucpr_min_range(a_: sp.Expr, b_: sp.Expr, pi_: sp.Expr) -> sp.Expr:
    """Corollary 4 (B7): AUCPR_min over recalls [a, b], as printed.

    Parameters
    ----------
    a_, b_ : sympy expression
        The recall range.
    pi_ : sympy expression
        The skew.

    Returns
    -------
    sympy expression
        The area.

    Examples
    --------
    Over [0, 1] the logarithm's argument is ``(1 - pi)/1``, so it is Theorem 2's AUCPR_min:

    >>> import sympy as sp
    >>> from prtheory.theory.boyd2012.formulas import aucpr_min, aucpr_min_range, pi
    >>> sp.simplify(aucpr_min_range(0, 1, pi) - aucpr_min(pi))
    0
    """
    return b_ - a_ + (1 - pi_) / pi_ * sp.log((pi_ * (a_ - 1) + 1) / (pi_ * (b_ - 1) + 1))


#: The antiderivative of the bound printed on the slides (001, proof of Theorem 2).
SLIDES_ANTIDERIVATIVE = (r * pi + (pi - 1) * sp.log(pi * (r - 1) + 1)) / pi

#: The i-th term of Theorem 3 (B6): AP_min = (1/pos) sum_{i=1..pos} i / (i + neg).
AP_MIN_TERM = i / (i + neg)

#: The branch p > pi of the modified F1 of section 4.4 (B16).
MODIFIED_F1 = 2 * (p - pi) * r / (p - pi + (1 - pi) * r)


def modified_f1(r_: sp.Expr, p_: sp.Expr, pi_: sp.Expr) -> sp.Expr:
    """The paper's f'(r, p): 0 if p <= pi, else 2 (p - pi) r / (p - pi + (1 - pi) r) (B16).

    Parameters
    ----------
    r_, p_, pi_ : sympy expression
        Recall, precision, skew.

    Returns
    -------
    sympy.Piecewise or value
        f'.

    Examples
    --------
    Below the skew it is 0; at r = p = 1, pi = 1/2: ``2 (1/2)/(1/2 + 1/2) = 1``:

    >>> import sympy as sp
    >>> from prtheory.theory.boyd2012.formulas import modified_f1
    >>> half = sp.Rational(1, 2)
    >>> modified_f1(half, sp.Rational(1, 3), half), modified_f1(1, 1, half)
    (0, 1)
    """
    return sp.Piecewise((0, p_ <= pi_), (MODIFIED_F1.subs({r: r_, p: p_, pi: pi_}), True))


# ---- exact and mpmath helpers (independent of sympy) -----------------------------------------


def worst_ranking(n_pos: int, n_neg: int) -> tuple[int, ...]:
    """Every negative above every positive (B2).

    Parameters
    ----------
    n_pos, n_neg : int
        The class sizes.

    Returns
    -------
    tuple of int
        The labels, top first.

    Examples
    --------
    >>> from prtheory.theory.boyd2012.formulas import worst_ranking
    >>> worst_ranking(2, 3)
    (0, 0, 0, 1, 1)
    """
    return (0,) * n_neg + (1,) * n_pos


def mp_aucpr_min(skew: mpmath.mpf) -> mpmath.mpf:
    """AUCPR_min at the current mpmath precision, with log1p (no cancellation in ln(1 - pi)).

    Parameters
    ----------
    skew : mpmath.mpf
        pi in [0, 1].

    Returns
    -------
    mpmath.mpf
        AUCPR_min (0 at pi = 0, 1 at pi = 1).

    Examples
    --------
    ``pi = 1/2``: ``1 - ln 2`` (see :func:`aucpr_min`):

    >>> import mpmath
    >>> from prtheory.theory.boyd2012.formulas import mp_aucpr_min
    >>> with mpmath.workdps(30):
    ...     least = mp_aucpr_min(mpmath.mpf(1) / 2)
    ...     print(mpmath.nstr(least, 25), mpmath.nstr(1 - mpmath.log(2), 25))
    0.3068528194400546905827679 0.3068528194400546905827679
    """
    skew = mpmath.mpf(skew)
    if skew == 0:
        return mpmath.mpf(0)
    if skew == 1:
        return mpmath.mpf(1)
    return 1 + (1 - skew) * mpmath.log1p(-skew) / skew


def iv_aucnpr(aucpr: mpmath.iv.mpf, skew: mpmath.iv.mpf) -> mpmath.iv.mpf:
    """An enclosure (``mpmath.iv``) of AUCNPR = (AUCPR - m)/(1 - m) with m = AUCPR_min(skew).

    Parameters
    ----------
    aucpr : mpmath.iv.mpf
        AUCPR.
    skew : mpmath.iv.mpf
        pi.

    Returns
    -------
    mpmath.iv.mpf
        The enclosure.

    Examples
    --------
    A perfect AUCPR of 1 normalises to ``(1 - m)/(1 - m) = 1``:

    >>> import mpmath
    >>> from prtheory.theory.boyd2012.formulas import iv_aucnpr
    >>> with mpmath.workprec(80):
    ...     print(1 in iv_aucnpr(mpmath.iv.mpf(1), mpmath.iv.mpf(1) / 2))
    True
    """
    iv = mpmath.iv
    m = 1 + (1 - skew) * iv.log(1 - skew) / skew
    return (aucpr - m) / (1 - m)


def mp_invert_increasing(f: Callable[[mpmath.mpf], mpmath.mpf], y: mpmath.mpf) -> mpmath.mpf:
    """The x in (0, 1) with f(x) = y, for f strictly increasing on (0, 1): 200 bisections.

    Parameters
    ----------
    f : callable
        Strictly increasing on (0, 1).
    y : mpmath.mpf
        The value.

    Returns
    -------
    mpmath.mpf
        x.

    Examples
    --------
    ``x**2 = 1/4`` at ``x = 1/2``:

    >>> import mpmath
    >>> from prtheory.theory.boyd2012.formulas import mp_invert_increasing
    >>> with mpmath.workdps(20):
    ...     print(mp_invert_increasing(lambda x: x**2, mpmath.mpf(1) / 4))
    0.5
    """
    lo, hi = mpmath.mpf(0), mpmath.mpf(1)
    for _ in range(200):
        mid = (lo + hi) / 2
        if f(mid) < y:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def rounding_cell(printed: str) -> tuple[Fraction, Fraction]:
    """The rounding cell [x - h, x + h] of a printed decimal x with half a unit h in its last place.

    Parameters
    ----------
    printed : str
        The decimal as printed.

    Returns
    -------
    tuple of (Fraction, Fraction)
        The cell's ends.

    Examples
    --------
    ``"0.25"``: ``0.25 -+ 0.005``, that is ``49/200`` and ``51/200``:

    >>> from prtheory.theory.boyd2012.formulas import rounding_cell
    >>> rounding_cell("0.25")
    (Fraction(49, 200), Fraction(51, 200))
    """
    decimals = len(printed.split(".")[1]) if "." in printed else 0
    h = Fraction(1, 2 * 10**decimals)
    return Fraction(printed) - h, Fraction(printed) + h


def rounds_to(value: mpmath.mpf, printed: str) -> bool:
    """Whether ``value`` lies in the rounding cell of ``printed`` (:func:`rounding_cell`).

    Parameters
    ----------
    value : mpmath.mpf
        The value.
    printed : str
        The decimal as printed.

    Returns
    -------
    bool
        Whether it rounds to ``printed`` (either end of the cell admitted).

    Examples
    --------
    >>> import mpmath
    >>> from prtheory.theory.boyd2012.formulas import rounds_to
    >>> rounds_to(mpmath.mpf("0.2549"), "0.25"), rounds_to(mpmath.mpf("0.2551"), "0.25")
    (True, False)
    """
    lo, hi = rounding_cell(printed)
    return mp_fraction(lo) <= value <= mp_fraction(hi)


# ---- small symbolic helpers ------------------------------------------------------------------


def sum_value(pf: Proof, text: str, summand: sp.Expr, limits: tuple, expected: sp.Expr) -> sp.Expr:
    """The registry sums a series with sympy (the branch for 0 < pi < 1) and records that it
    equals ``expected`` (the fact ``Sum(summand, limits) = expected``).

    Parameters
    ----------
    pf : Proof
        The recorder.
    text : str
        The step's text.
    summand : sympy expression
        The term.
    limits : tuple
        ``(k, lo, hi)``.
    expected : sympy expression
        The value.

    Returns
    -------
    sympy expression
        The computed value.

    Examples
    --------
    The geometric series ``sum_k pi^k = 1/(1 - pi)`` for ``0 < pi < 1``:

    >>> import sympy as sp
    >>> from prtheory.theory.boyd2012.formulas import pi, sum_value
    >>> from prtheory.theory.registry import Proof
    >>> k = sp.Symbol("k", integer=True, nonnegative=True)
    >>> pf = Proof()
    >>> sum_value(pf, "the geometric series", pi**k, (k, 0, sp.oo), 1 / (1 - pi))
    1/(1 - pi)
    >>> pf.steps[0].verified
    True
    """
    return pf.value(text, sp.Sum(summand, limits), expected, "summation", branch=unit_branch)


def unit_branch(expr: sp.Expr) -> sp.Expr:
    """Every sympy Piecewise in ``expr`` (from summation or integration) replaced by its branch
    valid for 0 < pi < 1 (the branch whose condition holds at pi = 1/2).

    Parameters
    ----------
    expr : sympy expression
        A result of sympy's summation or integration.

    Returns
    -------
    sympy expression
        It without Piecewise.

    Examples
    --------
    sympy sums ``sum_k pi^k`` to ``1/(1 - pi)`` where ``pi < 1`` (and leaves it unevaluated
    elsewhere):

    >>> import sympy as sp
    >>> from prtheory.theory.boyd2012.formulas import pi, unit_branch
    >>> k = sp.Symbol("k", integer=True, nonnegative=True)
    >>> unit_branch(sp.Sum(pi**k, (k, 0, sp.oo)).doit())
    1/(1 - pi)
    """

    def pick(pw: sp.Piecewise) -> sp.Expr:
        for value, cond in pw.args:
            if sp.sympify(cond).subs(pi, sp.Rational(1, 2)) == sp.true:
                return value
        raise ValueError(f"no branch of {pw} holds at pi = 1/2")

    return sp.sympify(expr).replace(lambda e: isinstance(e, sp.Piecewise), pick)


def skew_sampler() -> Callable[[random.Random], dict]:
    """Random rational skews in (0, 1).

    Returns
    -------
    callable
        A sampler (:func:`~prtheory.theory.checks.rational_sampler`) of ``pi``.

    Examples
    --------
    >>> import random
    >>> from prtheory.theory.boyd2012.formulas import pi, skew_sampler
    >>> 0 < skew_sampler()(random.Random(1))[pi] < 1
    True
    """
    return rational_sampler({pi: (0, 1)})


def recall_range_sampler(rng: random.Random) -> dict:
    """pi in (0, 1) and 0 <= a < b <= 1, rational (for the Corollary 4 checks).

    Parameters
    ----------
    rng : random.Random
        The generator.

    Returns
    -------
    dict
        ``pi``, ``a`` and ``b``.

    Examples
    --------
    >>> import random
    >>> from prtheory.theory.boyd2012.formulas import a, b, pi, recall_range_sampler
    >>> point = recall_range_sampler(random.Random(1))
    >>> 0 < point[pi] < 1 and 0 <= point[a] < point[b] <= 1
    True
    """
    den = 997
    lo, hi = sorted(rng.sample(range(den + 1), 2))
    return {
        pi: sp.Rational(rng.randint(1, den - 1), den),
        a: sp.Rational(lo, den),
        b: sp.Rational(hi, den),
    }
