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
    """prec = TP/(TP + FP).

    Parameters
    ----------
    tp, fp : sympy expression
        The counts.

    Returns
    -------
    sympy expression
        Precision.

    Examples
    --------
    >>> import sympy as sp
    >>> from prtheory.theory.flach2015.formulas import precision
    >>> precision(sp.Integer(3), sp.Integer(1))
    3/4
    """
    return tp / (tp + fp)


def recall(tp: sp.Expr, fn: sp.Expr) -> sp.Expr:
    """rec = TP/(TP + FN).

    Parameters
    ----------
    tp, fn : sympy expression
        The counts.

    Returns
    -------
    sympy expression
        Recall.

    Examples
    --------
    >>> import sympy as sp
    >>> from prtheory.theory.flach2015.formulas import recall
    >>> recall(sp.Integer(3), sp.Integer(2))
    3/5
    """
    return tp / (tp + fn)


def f_beta_harmonic(p_: sp.Expr, r_: sp.Expr, b: sp.Expr = beta) -> sp.Expr:
    """F_beta as the weighted harmonic mean 1/((1/(1+b^2))/p + (b^2/(1+b^2))/r) (F2, eq. 2).

    Parameters
    ----------
    p_, r_ : sympy expression
        Precision and recall.
    b : sympy expression
        Beta.

    Returns
    -------
    sympy expression
        F_beta.

    Examples
    --------
    F1 of p = 1/2, r = 1/4: ``1/((1/2)/(1/2) + (1/2)/(1/4)) = 1/3``
    (``2 (1/8)/(3/4) = 1/3``):

    >>> import sympy as sp
    >>> from prtheory.theory.flach2015.formulas import f_beta_harmonic
    >>> f_beta_harmonic(sp.Rational(1, 2), sp.Rational(1, 4), sp.Integer(1))
    1/3
    """
    return 1 / ((1 / (1 + b**2)) / p_ + (b**2 / (1 + b**2)) / r_)


def harmonic_rescale(x: sp.Expr, lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
    """The harmonic rescaling (1/x - 1/lo)/(1/hi - 1/lo) of eq. (3) (F4).

    Parameters
    ----------
    x : sympy expression
        The value.
    lo, hi : sympy expression
        The values mapped to 0 and 1.

    Returns
    -------
    sympy expression
        The rescaled value.

    Examples
    --------
    From [1/2, 1]: ``(3/2 - 2)/(1 - 2) = 1/2`` at ``x = 2/3``:

    >>> import sympy as sp
    >>> from prtheory.theory.flach2015.formulas import harmonic_rescale
    >>> harmonic_rescale(sp.Rational(2, 3), sp.Rational(1, 2), sp.Integer(1))
    1/2
    """
    return (1 / x - 1 / lo) / (1 / hi - 1 / lo)


def gain(x: sp.Expr, skew: sp.Expr = pi) -> sp.Expr:
    """Definition 1: the gain (x - pi)/((1 - pi) x) of a precision, recall or F score (F5, F8).

    Parameters
    ----------
    x : sympy expression
        Precision, recall or F score.
    skew : sympy expression
        pi, the share of positives.

    Returns
    -------
    sympy expression
        The gain.

    Examples
    --------
    ``(2/3 - 1/2)/((1/2)(2/3)) = (1/6)/(1/3) = 1/2``, the harmonic rescaling from ``pi`` to 1:

    >>> import sympy as sp
    >>> from prtheory.theory.flach2015.formulas import gain
    >>> gain(sp.Rational(2, 3), sp.Rational(1, 2))
    1/2
    """
    return (x - skew) / ((1 - skew) * x)


def precision_gain_counts(tp: sp.Expr, fp: sp.Expr, skew: sp.Expr = pi) -> sp.Expr:
    """precG = 1 - (pi/(1-pi)) FP/TP, the count form of Definition 1 (F5).

    Parameters
    ----------
    tp, fp : sympy expression
        The counts.
    skew : sympy expression
        pi.

    Returns
    -------
    sympy expression
        Precision gain.

    Examples
    --------
    TP = 2, FP = 1, pi = 1/2: ``1 - 1 * 1/2 = 1/2``, the gain of precision 2/3 (see
    :func:`gain`):

    >>> import sympy as sp
    >>> from prtheory.theory.flach2015.formulas import precision_gain_counts
    >>> precision_gain_counts(sp.Integer(2), sp.Integer(1), sp.Rational(1, 2))
    1/2
    """
    return 1 - skew / (1 - skew) * fp / tp


def recall_gain_counts(tp: sp.Expr, fn: sp.Expr, skew: sp.Expr = pi) -> sp.Expr:
    """recG = 1 - (pi/(1-pi)) FN/TP, the count form of Definition 1 (F5).

    Parameters
    ----------
    tp, fn : sympy expression
        The counts.
    skew : sympy expression
        pi.

    Returns
    -------
    sympy expression
        Recall gain.

    Examples
    --------
    TP = 3, FN = 1, pi = 1/4: ``1 - (1/3)(1/3) = 8/9``; recall 3/4 has gain
    ``(3/4 - 1/4)/((3/4)(3/4)) = 8/9``:

    >>> import sympy as sp
    >>> from prtheory.theory.flach2015.formulas import recall_gain_counts
    >>> recall_gain_counts(sp.Integer(3), sp.Integer(1), sp.Rational(1, 4))
    8/9
    """
    return 1 - skew / (1 - skew) * fn / tp


# ---- exact helpers for concrete rankings (Fractions only) -----------------------------------
def gains_of_counts(
    tp: Fraction, fp: Fraction, n_pos: int, n_neg: int
) -> tuple[Fraction, Fraction]:
    """(recG, precG) of a contingency table, exactly (F5): ``1 - (pos/neg) FN/TP`` and
    ``1 - (pos/neg) FP/TP``.

    Parameters
    ----------
    tp, fp : Fraction
        The counts (TP > 0; interpolated tables have fractional counts).
    n_pos, n_neg : int
        The class sizes.

    Returns
    -------
    tuple of (Fraction, Fraction)
        Recall gain and precision gain.

    Examples
    --------
    4 positives, 12 negatives (``pi/(1 - pi) = 1/3``), TP = 3, FP = 2: recG
    ``1 - (1/3)(1/3) = 8/9``, precG ``1 - (1/3)(2/3) = 7/9``:

    >>> from fractions import Fraction
    >>> from prtheory.theory.flach2015.formulas import gains_of_counts
    >>> gains_of_counts(Fraction(3), Fraction(2), 4, 12)
    (Fraction(8, 9), Fraction(7, 9))
    """
    odds = Fraction(n_pos, n_neg)  # pi/(1 - pi)
    return 1 - odds * (n_pos - tp) / tp, 1 - odds * fp / tp


def prg_path(labels: Sequence[int]) -> list[tuple[Fraction, Fraction]]:
    """The PRG curve of a ranking for recG >= 0, as exact (recG, precG) vertices.

    It starts where recall equals pi (recG = 0): the contingency table there is interpolated
    linearly between the two operating points that bracket TP = pi * pos, as the authors'
    reference code does (by Theorem 1 this is the straight PRG segment). It ends at the
    always-positive point (1, 0).

    Parameters
    ----------
    labels : sequence of int
        1 = positive, top first; both classes present.

    Returns
    -------
    list of (Fraction, Fraction)
        The (recG, precG) vertices.

    Examples
    --------
    ``[1, 0, 1, 0]``, pi = 1/2: recall 1/2 at TP = 1 (recG 0) with precision 1 (precG 1), then
    with FP = 1 (precision 1/2: precG 0), TP = 2, FP = 1 (recG 1, precision 2/3: precG 1/2),
    and the always-positive point:

    >>> from prtheory.theory.flach2015.formulas import prg_path
    >>> [(str(x), str(y)) for x, y in prg_path([1, 0, 1, 0])]
    [('0', '1'), ('0', '0'), ('1', '1/2'), ('1', '0')]
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
    """AUPRG = integral of precG d recG over recG in [0, 1] (signed trapezoids on the path).

    Parameters
    ----------
    labels : sequence of int
        1 = positive, top first; both classes present.

    Returns
    -------
    Fraction
        AUPRG.

    Examples
    --------
    On the path of :func:`prg_path` for ``[1, 0, 1, 0]`` only the segment from (0, 0) to
    (1, 1/2) has width: ``1 * (0 + 1/2)/2 = 1/4``:

    >>> from prtheory.theory.flach2015.formulas import auprg
    >>> auprg([1, 0, 1, 0])
    Fraction(1, 4)
    """
    path = prg_path(labels)
    return sum(
        ((x1 - x0) * (y0 + y1) / 2 for (x0, y0), (x1, y1) in itertools.pairwise(path)),
        Fraction(0),
    )


def delta_at(point: tuple[Fraction, Fraction], skew: Fraction) -> Fraction:
    """``Delta = recG/pi - precG/(1 - pi)`` at a PRG point: the variable that Theorem 3
    takes as uniformly distributed along the curve when it computes the expected FG1 (F9).

    Parameters
    ----------
    point : tuple of (Fraction, Fraction)
        (recG, precG).
    skew : Fraction
        pi.

    Returns
    -------
    Fraction
        The coordinate.

    Examples
    --------
    ``(1/2)/(1/4) - (1/2)/(3/4) = 2 - 2/3 = 4/3``:

    >>> from fractions import Fraction
    >>> from prtheory.theory.flach2015.formulas import delta_at
    >>> delta_at((Fraction(1, 2), Fraction(1, 2)), Fraction(1, 4))
    Fraction(4, 3)
    """
    x, y = point
    return x / skew - y / (1 - skew)


def contingency_tables(max_n: int) -> list[tuple[int, int, int, int]]:
    """Every (TP, FP, FN, TN) with TP >= 1, both classes present and TP+FP+FN+TN <= max_n.

    Parameters
    ----------
    max_n : int
        The largest total.

    Returns
    -------
    list of (int, int, int, int)
        The tables.

    Examples
    --------
    Up to 3 items: 1 positive and 1 negative (2 tables: FP 0 or 1), 1 and 2 (3 tables),
    2 and 1 (TP 1 or 2, FP 0 or 1: 4 tables); 9 in all:

    >>> from prtheory.theory.flach2015.formulas import contingency_tables
    >>> len(contingency_tables(3))
    9
    """
    out = []
    for n_pos in range(1, max_n):
        for n_neg in range(1, max_n - n_pos + 1):
            for tp in range(1, n_pos + 1):
                for fp in range(0, n_neg + 1):
                    out.append((tp, fp, n_pos - tp, n_neg - fp))
    return out
