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
    """Every skew in (0, 1)."""
    return Domain(SKEW, samples=samples)


def counts_domain(exhaustive: int = 12, **define: sp.Expr) -> Domain:
    """Every valid confusion matrix: pos >= 1, neg >= 0, 1 <= TP <= pos, 0 <= FP <= neg, with
    precision, recall and skew defined from the counts (and ``define``, keyed by symbol name)."""
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


def mp_invert_increasing(f: Callable[[mpmath.mpf], mpmath.mpf], y: mpmath.mpf) -> mpmath.mpf:
    """The x in (0, 1) with f(x) = y, for f strictly increasing on (0, 1): 200 bisections."""
    lo, hi = mpmath.mpf(0), mpmath.mpf(1)
    for _ in range(200):
        mid = (lo + hi) / 2
        if f(mid) < y:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def rounding_cell(printed: str) -> tuple[Fraction, Fraction]:
    """The rounding cell [x - h, x + h] of a printed decimal x with half a unit h in its last place."""
    decimals = len(printed.split(".")[1]) if "." in printed else 0
    h = Fraction(1, 2 * 10**decimals)
    return Fraction(printed) - h, Fraction(printed) + h


def rounds_to(value: mpmath.mpf, printed: str) -> bool:
    lo, hi = rounding_cell(printed)
    return mp_fraction(lo) <= value <= mp_fraction(hi)


# ---- small symbolic helpers ------------------------------------------------------------------


def sum_value(pf: Proof, text: str, summand: sp.Expr, limits: tuple, expected: sp.Expr) -> sp.Expr:
    """The registry sums a series with sympy (the branch for 0 < pi < 1) and records that it
    equals ``expected`` (the fact ``Sum(summand, limits) = expected``)."""
    return pf.value(text, sp.Sum(summand, limits), expected, "summation", branch=unit_branch)


def unit_branch(expr: sp.Expr) -> sp.Expr:
    """Every sympy Piecewise in ``expr`` (from summation or integration) replaced by its branch
    valid for 0 < pi < 1 (the branch whose condition holds at pi = 1/2)."""

    def pick(pw: sp.Piecewise) -> sp.Expr:
        for value, cond in pw.args:
            if sp.sympify(cond).subs(pi, sp.Rational(1, 2)) == sp.true:
                return value
        raise ValueError(f"no branch of {pw} holds at pi = 1/2")

    return sp.sympify(expr).replace(lambda e: isinstance(e, sp.Piecewise), pick)


def skew_sampler() -> Callable[[random.Random], dict]:
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
