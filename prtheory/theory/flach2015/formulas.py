"""Flach & Kull, *Precision-Recall-Gain Curves: PR Analysis Done Right* (NeurIPS 2015; seed 002):
the definitions as sympy expressions over contingency tables, and exact helpers for concrete
rankings (Fractions only: the PRG path and AUPRG).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

import sympy as sp

from prtheory.theory.common import beta, sweep

SOURCE = "Flach & Kull 2015 (002)"

# Counts of a contingency table, class totals, skew, beta and a generic precision/recall.
TP, FP, FN, TN = sp.symbols("TP FP FN TN", positive=True)
pos, neg = sp.symbols("pos neg", positive=True)
pi, q = sp.symbols("pi q", positive=True)
p, r = sp.symbols("p r", positive=True)
# A second and third table, the mixing weight and the PRG coordinates.
TP1, FP1, FN1, TP2, FP2, FN2 = sp.symbols("TP_1 FP_1 FN_1 TP_2 FP_2 FN_2", positive=True)
lam = sp.Symbol("lambda", positive=True)
mu = sp.Symbol("mu")
precG, recG, FG = sp.symbols(r"\mathrm{precG} \mathrm{recG} \mathrm{FG}_\beta")
F_sym = sp.Symbol(r"F_\beta")


# ---- the definitions, as sympy expressions --------------------------------------------------
def precision(tp: sp.Expr, fp: sp.Expr) -> sp.Expr:
    """prec = TP/(TP + FP)."""
    return tp / (tp + fp)


def recall(tp: sp.Expr, fn: sp.Expr) -> sp.Expr:
    """rec = TP/(TP + FN)."""
    return tp / (tp + fn)


def f_beta_harmonic(p_: sp.Expr, r_: sp.Expr, b: sp.Expr = beta) -> sp.Expr:
    """F_beta as the weighted harmonic mean 1/((1/(1+b^2))/p + (b^2/(1+b^2))/r) (F2, eq. 2)."""
    return 1 / ((1 / (1 + b**2)) / p_ + (b**2 / (1 + b**2)) / r_)


def harmonic_rescale(x: sp.Expr, lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
    """The harmonic rescaling (1/x - 1/lo)/(1/hi - 1/lo) of eq. (3) (F4)."""
    return (1 / x - 1 / lo) / (1 / hi - 1 / lo)


def gain(x: sp.Expr, skew: sp.Expr = pi) -> sp.Expr:
    """Definition 1: the gain (x - pi)/((1 - pi) x) of a precision, recall or F score (F5, F8)."""
    return (x - skew) / ((1 - skew) * x)


def precision_gain_counts(tp: sp.Expr, fp: sp.Expr, skew: sp.Expr = pi) -> sp.Expr:
    """precG = 1 - (pi/(1-pi)) FP/TP, the count form of Definition 1 (F5)."""
    return 1 - skew / (1 - skew) * fp / tp


def recall_gain_counts(tp: sp.Expr, fn: sp.Expr, skew: sp.Expr = pi) -> sp.Expr:
    """recG = 1 - (pi/(1-pi)) FN/TP, the count form of Definition 1 (F5)."""
    return 1 - skew / (1 - skew) * fn / tp


# ---- exact helpers for concrete rankings (Fractions only) -----------------------------------
def gains_of_counts(
    tp: Fraction, fp: Fraction, n_pos: int, n_neg: int
) -> tuple[Fraction, Fraction]:
    odds = Fraction(n_pos, n_neg)  # pi/(1 - pi)
    return 1 - odds * (n_pos - tp) / tp, 1 - odds * fp / tp


def prg_path(labels: Sequence[int]) -> list[tuple[Fraction, Fraction]]:
    """The PRG curve of a ranking for recG >= 0, as exact (recG, precG) vertices.

    It starts where recall equals pi (recG = 0): the contingency table there is interpolated
    linearly between the two operating points that bracket TP = pi * pos, as the authors'
    reference code does (by Theorem 1 this is the straight PRG segment). It ends at the
    always-positive point (1, 0).
    """
    n_pos = sum(labels)
    n_neg = len(labels) - n_pos
    target = Fraction(n_pos * n_pos, n_pos + n_neg)  # TP at which rec = pi
    pts = sweep(labels)
    k = next(i for i, (tp, _) in enumerate(pts) if tp >= target)
    (tp0, fp0), (tp1, fp1) = pts[k - 1], pts[k]
    alpha = (target - tp0) / (tp1 - tp0)
    start = gains_of_counts(target, fp0 + alpha * (fp1 - fp0), n_pos, n_neg)
    path = [(Fraction(0), start[1])]
    path += [gains_of_counts(Fraction(tp), Fraction(fp), n_pos, n_neg) for tp, fp in pts[k:]]
    return [v for i, v in enumerate(path) if i == 0 or v != path[i - 1]]


def auprg(labels: Sequence[int]) -> Fraction:
    """AUPRG = integral of precG d recG over recG in [0, 1] (signed trapezoids on the path)."""
    path = prg_path(labels)
    return sum(
        ((x1 - x0) * (y0 + y1) / 2 for (x0, y0), (x1, y1) in itertools.pairwise(path)),
        Fraction(0),
    )


def delta_at(point: tuple[Fraction, Fraction], skew: Fraction) -> Fraction:
    x, y = point
    return x / skew - y / (1 - skew)


def contingency_tables(max_n: int) -> list[tuple[int, int, int, int]]:
    """Every (TP, FP, FN, TN) with TP >= 1, both classes present and TP+FP+FN+TN <= max_n."""
    out = []
    for n_pos in range(1, max_n):
        for n_neg in range(1, max_n - n_pos + 1):
            for tp in range(1, n_pos + 1):
                for fp in range(0, n_neg + 1):
                    out.append((tp, fp, n_pos - tp, n_neg - fp))
    return out
