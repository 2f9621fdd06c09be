"""Exact areas under the PR curve of a ranking, by every common interpolation, and AUCNPR.

:func:`pr_auc` integrates precision over recall in ``[a, b]`` (default ``[0, 1]``) with a named
``method``. Let the operating points (one per distinct score, decreasing; see
:mod:`prtheory.oracle.counts`) have cumulative counts ``(TP_k, FP_k)``, recall ``r_k = TP_k/pos``
and precision ``p_k = TP_k/(TP_k+FP_k)``. Points with ``TP + FP = 0`` (zero sample weights at the
top of the ranking) are the empty classifier and are left out; the first-point convention takes
their place.

===============================  ========================================================  ==========
method                           curve between consecutive points                          result
===============================  ========================================================  ==========
``"step"``                       precision ``p_k`` on ``(r_{k-1}, r_k]``, ``r_{-1} = 0``   Fraction
                                 (average precision, claim N2, ties grouped)
``"trapezoid"``                  straight line in (r, p) between consecutive vertices      Fraction
``"lower-trapezoid"``            Boyd, Eng & Page (2013) ``sum_i (r_{i+1}-r_i)``           Fraction
                                 ``(pmin_i + pmax_{i+1})/2`` over distinct recalls
``"davis-goadrich"``             FP linear in TP between consecutive tables (Davis &       mpf (logs)
                                 Goadrich 2006), integrated exactly (closed form below)
``"davis-goadrich-discrete"``    straight lines through the points TP = T0 + k,            Fraction
                                 FP = F0 + k dF/dT (k whole), as PRROC's
                                 ``auc.davis.goadrich``
===============================  ========================================================  ==========

First point (``first_point``, see :mod:`prtheory.oracle.curves`): ``"sklearn"`` prepends
(0, 1), ``"spark"`` prepends (0, p_first), ``"none"`` starts at the first operating point (so
the area covers only recalls the curve reaches). ``"mllib"`` (trapezoids only) is Spark
MLlib's ``areaUnderPR``: (0, 1) when the top-scored block has zero weight (MLlib's empty
classifier has precision 1, :mod:`prtheory.oracle.conventions`), else (0, p_first). ``"step"`` has no first point (its first step
already starts at recall 0). ``"davis-goadrich"`` interpolates contingency tables: ``"spark"``
means starting from the empty classifier (TP = FP = 0), along which precision is constant at
``p_first``; (0, 1) is not a contingency table, so ``"sklearn"`` is rejected.

The lower trapezoid (Boyd, Eng & Page, *Area under the precision-recall curve: point estimates
and confidence intervals*, ECML PKDD 2013; implemented the same way in the OCaml package ``prc``,
``auc_trapezoidal_lt``) groups the points by recall and joins the least precision at each recall
to the greatest precision at the next. Along one ranking, points that share a recall differ only
in FP, so the least precision at a recall is the last of them and the greatest the first, and the
lower trapezoid equals the trapezoid through every operating point (with the same first point).
It differs from trapezoids through a thinned or re-ordered point set.

Davis--Goadrich closed form. Between tables ``(T0, F0)`` and ``(T1, F1)`` with ``dT = T1 - T0 > 0``,
``FP(x) = F0 + s (x - T0)``, ``s = dF/dT``, so ``x + FP(x) = A x + C`` with ``A = dN/dT``,
``C = D/dT``, ``dN = dT + dF``, ``D = F0 T1 - F1 T0``, and

    pos * integral = int_{u0}^{u1} x/(A x + C) dx = (u1 - u0)/A - (C/A^2) ln(N(u1)/N(u0)),

where ``N(u) = A u + C`` is the predicted weight. For a whole segment this is
``dT^2/dN - (D dT/dN^2) ln(N1/N0)``; ``D = 0`` (constant precision, e.g. from the empty
classifier) drops the logarithm. This is the integral PRROC reports as ``auc.integral``
(Keilwagen, Grosse & Grau 2014). PRROC's ``auc.davis.goadrich`` is instead the trapezoid
through Davis & Goadrich's intermediate points at every whole TP, which is
``method="davis-goadrich-discrete"`` here (rational; unit weights only).

Results: rational methods return exact Fractions (summed by
:func:`prtheory.oracle.summation.rational_sum`); ``"davis-goadrich"`` returns an ``mpf`` at ``dps``
digits under the oracle contract of :mod:`prtheory.oracle.closed_forms` (relative error at most
``2**(1-p)``), computed in exact fixed-point integer arithmetic with a rigorous error bound and
adaptive precision (see :func:`_dg_area`).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any, overload

import mpmath
import numpy as np
from mpmath import libmp
from numpy.typing import ArrayLike

from prtheory._input import ExactArrayLike, check_max_fpr, check_recall_range
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle import closed_forms
from prtheory.oracle.ap import normalized_average_precision, step_average_precision
from prtheory.oracle.conventions import undefined
from prtheory.oracle.counts import OperatingPoints, operating_points, run_starts
from prtheory.oracle.curves import check_first_point, tp_run_ends
from prtheory.oracle.digits import shown_at_dps
from prtheory.oracle.ratios import as_objects
from prtheory.oracle.rounding import exact_rational, prec_of_dps
from prtheory.oracle.summation import rational_sum

__all__ = [
    "METHODS",
    "aucnpr_ranking",
    "check_method",
    "clipped_segment_area",
    "partial_roc_auc",
    "pr_auc",
    "pr_auc_of_points",
    "recall_range",
    "roc_auc",
    "roc_auc_of_points",
]

#: exact heights of curve vertices: (numerators, denominators) integer arrays
_Heights = tuple[np.ndarray, np.ndarray]
#: whole Davis-Goadrich segments: (R_num, R_den, C_num, C_den, Q_num, Q_den) integer arrays
_DGArrays = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]

METHODS = ("step", "trapezoid", "lower-trapezoid", "davis-goadrich", "davis-goadrich-discrete")

_FIRST_POINTS_BY_METHOD = {
    "step": ("none",),
    "trapezoid": ("none", "sklearn", "spark", "mllib"),
    "lower-trapezoid": ("none", "sklearn", "spark", "mllib"),
    "davis-goadrich": ("none", "spark"),
    "davis-goadrich-discrete": ("none", "spark"),
}


def check_method(method: str, first_point: str | None) -> str:
    """Validate a method name and its first point (module table); return the first point.

    Parameters
    ----------
    method : str
        A method of the module table.
    first_point : str or None
        Its first point.

    Returns
    -------
    str
        The first point (``"none"`` for ``"step"`` when omitted).

    Raises
    ------
    InvalidInputError
        An unknown method, or a first point missing or not allowed for it.

    Examples
    --------
    >>> from prtheory.oracle.areas import check_method
    >>> check_method("trapezoid", "sklearn")
    'sklearn'
    >>> check_method("trapezoid", None)
    Traceback (most recent call last):
    ...
    prtheory.errors.InvalidInputError: first_point: method 'trapezoid' needs an explicit first point: one of 'none', 'sklearn', 'spark', 'mllib'
    """
    if method not in METHODS:
        raise InvalidInputError(
            "method", f"must be one of {', '.join(repr(m) for m in METHODS)}, got {method!r}"
        )
    allowed = _FIRST_POINTS_BY_METHOD[method]
    if first_point is None:
        if method == "step":
            return "none"
        raise InvalidInputError(
            "first_point",
            f"method {method!r} needs an explicit first point: one of "
            f"{', '.join(repr(a) for a in allowed)}",
        )
    if method.startswith("davis-goadrich") and first_point == "sklearn":
        raise InvalidInputError(
            "first_point",
            "'sklearn' puts (recall 0, precision 1) first, which is no contingency table, so "
            "Davis-Goadrich cannot interpolate from it; use 'spark' (start from the empty "
            "classifier TP = FP = 0) or 'none'",
        )
    return check_first_point(first_point, allowed)


def _unit_weights_for_discrete(method: str, unit_weights: bool) -> None:
    if method == "davis-goadrich-discrete" and not unit_weights:
        raise InvalidInputError(
            "sample_weight",
            "davis-goadrich-discrete puts a point at every whole true positive: unit weights only",
        )


def _points(points: OperatingPoints) -> tuple[OperatingPoints, np.ndarray, np.ndarray]:
    """The operating points with TP + FP > 0 that can bound a segment of positive width.

    Only the ends of each run of equal TP matter to an area (:func:`tp_run_ends`; they are also
    the run's greatest and least precision, all that the lower trapezoid reads), so at most two
    points per distinct TP are kept and converted to Python-int arrays (products of counts
    cannot overflow). pos > 0 is checked.
    """
    if points.pos == 0:
        raise UndefinedMetricError(
            "area under the PR curve", "y_true has no positive weight, so recall is 0/0"
        )
    tp, fp = points.tp, points.fp
    keep = np.flatnonzero((tp + fp) > 0)
    tp, fp = tp[keep], fp[keep]
    ends = tp_run_ends(tp)
    return points, as_objects(tp[ends]), as_objects(fp[ends])


def _less(x: np.ndarray, q: Fraction) -> np.ndarray:
    """Elementwise ``x < q`` for a Python-int array and a Fraction, exactly."""
    return x * q.denominator < q.numerator


def _greater(x: np.ndarray, q: Fraction) -> np.ndarray:
    return x * q.denominator > q.numerator


# ------------------------------------------------------------------------------------------
# piecewise-linear and step integrals in TP units (exact)


def _linear_area(
    x0: np.ndarray, x1: np.ndarray, y0: _Heights, y1: _Heights, lo: Fraction, hi: Fraction
) -> Fraction:
    """``sum_k int over [x0_k, x1_k] ∩ [lo, hi]`` of the line from y0_k to y1_k, in TP units.

    ``y0 = (num, den)`` arrays (and ``y1``) give the end heights exactly. Whole segments are
    summed by :func:`rational_sum`; the (at most two) segments cut by ``lo`` or ``hi`` exactly
    with Fractions.
    """
    dx = x1 - x0
    moving = dx > 0
    whole = moving & ~_less(x0, lo) & ~_greater(x1, hi)
    cut = moving & ~whole & _less(x0, hi) & _greater(x1, lo)
    w = np.flatnonzero(whole)
    nums = np.concatenate((dx[w] * y0[0][w], dx[w] * y1[0][w]))
    dens = np.concatenate((y0[1][w], y1[1][w]))
    total = rational_sum(nums, dens) / 2
    for k in np.flatnonzero(cut):
        ya, yb = Fraction(int(y0[0][k]), int(y0[1][k])), Fraction(int(y1[0][k]), int(y1[1][k]))
        total += clipped_segment_area(int(x0[k]), int(x1[k]), ya, yb, lo, hi)
    return total


def clipped_segment_area(
    a: int | Fraction, b: int | Fraction, ya: Fraction, yb: Fraction, lo: Fraction, hi: Fraction
) -> Fraction:
    """Exact area under the line from ``(a, ya)`` to ``(b, yb)`` (``a < b``) over ``[a, b] ∩ [lo, hi]``.

    The line at ``u`` is ``ya + slope (u - a)``, so over ``[u0, u1]`` the area is
    ``(u1 - u0) (2 ya + slope (u0 - a + u1 - a)) / 2``; 0 when the intervals do not overlap.

    Parameters
    ----------
    a, b : int or Fraction
        The segment's ends, ``a < b``.
    ya, yb : Fraction
        The line's values there.
    lo, hi : Fraction
        The range integrated over.

    Returns
    -------
    Fraction
        The area, exactly (0 without overlap).

    Examples
    --------
    The line from (0, 1) to (1, 0) over [0, 1/2]: the integral of 1 - u is 1/2 - 1/8 = 3/8:

    >>> from fractions import Fraction
    >>> from prtheory.oracle.areas import clipped_segment_area
    >>> clipped_segment_area(0, 1, Fraction(1), Fraction(0), Fraction(0), Fraction(1, 2))
    Fraction(3, 8)
    """
    fa, fb = Fraction(a), Fraction(b)
    u0, u1 = max(fa, lo), min(fb, hi)
    if u1 <= u0:
        return Fraction(0)
    slope = (yb - ya) / (fb - fa)
    return (u1 - u0) * (2 * ya + slope * (u0 - fa + u1 - fa)) / 2


def _step_area(tp: np.ndarray, fp: np.ndarray, lo: Fraction, hi: Fraction) -> Fraction:
    """``sum_k p_k |(TP_{k-1}, TP_k] ∩ [lo, hi]|`` in TP units, ``TP_{-1} = 0``."""
    x0 = np.concatenate(([0], tp[:-1])).astype(object)
    n = tp + fp
    return _linear_area(x0, tp, (tp, n), (tp, n), lo, hi)


def _vertices(tp: np.ndarray, fp: np.ndarray, first_point: str) -> tuple[np.ndarray, _Heights]:
    """Vertex x (TP) and exact precision (num, den) arrays, with the first point prepended."""
    n = tp + fp
    if first_point == "none":
        return tp, (tp, n)
    head = (1, 1) if first_point == "sklearn" else (tp[0], n[0])
    x = np.concatenate(([0], tp)).astype(object)
    num = np.concatenate(([head[0]], tp)).astype(object)
    den = np.concatenate(([head[1]], n)).astype(object)
    return x, (num, den)


def _trapezoid(
    tp: np.ndarray, fp: np.ndarray, first_point: str, lo: Fraction, hi: Fraction
) -> Fraction:
    x, (num, den) = _vertices(tp, fp, first_point)
    return _linear_area(x[:-1], x[1:], (num[:-1], den[:-1]), (num[1:], den[1:]), lo, hi)


def _lower_trapezoid(
    tp: np.ndarray, fp: np.ndarray, first_point: str, lo: Fraction, hi: Fraction
) -> Fraction:
    """Boyd, Eng & Page (2013): sum_i (r_{i+1} - r_i)(pmin_i + pmax_{i+1})/2 over distinct r_i.

    The vertices (with the prepended first point, if any) are grouped by recall; the least and
    greatest precision of each group are found by exact cross-multiplied comparisons, without
    assuming any order inside a group.
    """
    x, (num, den) = _vertices(tp, fp, first_point)
    starts = run_starts(x)
    sizes = np.diff(np.append(starts, x.size))
    lo_k, hi_k = starts.copy(), starts.copy()
    # precision of each vertex compared exactly: p_j > p_k  <=>  num_j den_k > num_k den_j;
    # pass `off` compares the off-th member of every group that has one (first wins ties)
    for off in range(1, int(sizes.max())):
        g = np.flatnonzero(sizes > off)
        k = starts[g] + off
        lower = num[k] * den[lo_k[g]] < num[lo_k[g]] * den[k]
        higher = num[k] * den[hi_k[g]] > num[hi_k[g]] * den[k]
        lo_k[g[lower]] = k[lower]
        hi_k[g[higher]] = k[higher]
    lo_k, hi_k = lo_k[:-1], hi_k[1:]
    return _linear_area(
        x[starts[:-1]], x[starts[1:]], (num[lo_k], den[lo_k]), (num[hi_k], den[hi_k]), lo, hi
    )


# ------------------------------------------------------------------------------------------
# Davis-Goadrich


def dg_terms(
    tp: np.ndarray, fp: np.ndarray, first_point: str, lo: Fraction, hi: Fraction
) -> tuple[_DGArrays, list[tuple[Fraction, Fraction, Fraction]]]:
    """Segments of the DG integral as (R, C, Q): pos * area = sum R - C ln Q.

    Whole segments as integer arrays ``(R_num, R_den, C_num, C_den, Q_num, Q_den)``; cut segments
    as a list of Fraction triples.
    """
    if first_point == "spark":
        t = np.concatenate(([0], tp)).astype(object)
        f = np.concatenate(([0], fp)).astype(object)
    else:
        t, f = tp, fp
    t0, t1, f0, f1 = t[:-1], t[1:], f[:-1], f[1:]
    dt, dn = t1 - t0, (t1 - t0) + (f1 - f0)
    d = f0 * t1 - f1 * t0
    moving = dt > 0
    whole = moving & ~_less(t0, lo) & ~_greater(t1, hi)
    cut = moving & ~whole & _less(t0, hi) & _greater(t1, lo)
    w = np.flatnonzero(whole)
    arrays = (dt[w] * dt[w], dn[w], d[w] * dt[w], dn[w] * dn[w], t1[w] + f1[w], t0[w] + f0[w])
    cuts = []
    for k in np.flatnonzero(cut):
        slope_a = Fraction(int(dn[k]), int(dt[k]))
        c = Fraction(int(d[k]), int(dt[k]))
        u0, u1 = max(Fraction(int(t0[k])), lo), min(Fraction(int(t1[k])), hi)
        n0, n1 = slope_a * u0 + c, slope_a * u1 + c
        cuts.append(((u1 - u0) / slope_a, c / slope_a**2, n1 / n0 if c else Fraction(1)))
    return arrays, cuts


@overload
def _ceil_div(a: int, b: int) -> int: ...
@overload
def _ceil_div(a: np.ndarray, b: np.ndarray) -> np.ndarray: ...
def _ceil_div(a: int | np.ndarray, b: int | np.ndarray) -> int | np.ndarray:
    quotient: int | np.ndarray = -((-a) // b)  # numpy types array floor division as Any
    return quotient


def _fixed_logs(pairs: Iterable[tuple[int, int]], frac_bits: int, wp: int) -> list[int]:
    """``round(2**F ln(a/b))`` for each ``(a, b)``: mpmath's ``ln`` of ``a/b`` rounded to ``wp`` bits.

    The absolute error before the final rounding is below ``2**(1-wp) + 2**-wp |ln(a/b)|`` (the
    bound :func:`_dg_area` uses).
    """
    return [
        libmp.to_int(
            libmp.mpf_shift(libmp.mpf_log(libmp.from_rational(a, b, wp), wp), frac_bits),
            libmp.round_nearest,
        )
        for a, b in pairs
    ]


_LOG_GUARD = 20  # guard bits of the series in _fixed_log_ratios


def _fixed_log_ratios(a: np.ndarray, b: np.ndarray, frac_bits: int, wp: int) -> np.ndarray:
    """``2**F ln(a/b)`` rounded to an integer with error below 1, for positive integer arrays.

    Most ratios on a PR curve are close to 1 (a segment adds few items to many), where
    ``ln(a/b) = 2 atanh(z) = 2 sum_j z^(2j+1)/(2j+1)`` with ``z = (a-b)/(a+b)`` converges fast.
    For ``|z| <= 1/16`` the series runs vectorised in fixed point with ``G = F + 20`` bits on
    Python-int arrays: ``t_0 = floor(2**G z)``, ``t_{j+1} = floor(t_j z^2)``, summing
    ``floor(t_j/(2j+1))``, until every ``t_j`` is 0. By induction ``0 <= true_j - t_j < j+1``
    units of ``2**-G``, so term ``j`` errs by less than ``j+2`` units, and when ``t_J = 0`` the
    tail is below ``(J+1) / (1 - z^2) < 2(J+1)`` units. Twice the accumulated bound must stay
    below ``2**(G-F-2)``, a quarter unit of ``2**-F``; rounding to ``2**-F`` adds at most half a
    unit. The remaining ratios (|z| > 1/16: each multiplies the predicted count by more than
    17/15, so there are few) go to :func:`_fixed_logs`, whose error is also below one unit.
    """
    out = np.empty(a.size, dtype=object)
    small = 16 * abs(a - b) <= a + b
    big = np.flatnonzero(~small)
    if big.size:
        pairs = zip(a[big].tolist(), b[big].tolist(), strict=True)
        out[big] = np.array(_fixed_logs(pairs, frac_bits, wp), dtype=object)
    idx = np.flatnonzero(small)
    if idx.size == 0:
        return out
    zn, zd = as_objects(a[idx] - b[idx]), as_objects(a[idx] + b[idx])
    zn2, zd2 = zn * zn, zd * zd
    term = (zn << (frac_bits + _LOG_GUARD)) // zd
    acc = term.copy()
    live = np.flatnonzero(term != 0)
    term = term[live]
    j, err = 0, 1
    while live.size:
        j += 1
        term = (term * zn2[live]) // zd2[live]
        nonzero = np.flatnonzero(term != 0)
        live, term = live[nonzero], term[nonzero]
        acc[live] += term // (2 * j + 1)
        err += j + 2
    err = 2 * (err + 2 * (j + 1))
    if err >= 1 << (_LOG_GUARD - 2):  # pragma: no cover - needs about 1000 series terms
        raise ArithmeticError("ln series: error bound exceeds a quarter unit")
    out[idx] = (2 * acc + (1 << (_LOG_GUARD - 1))) >> _LOG_GUARD
    return out


def dg_error_units(terms: tuple[_DGArrays, list[tuple[Fraction, Fraction, Fraction]]]) -> int:
    """The error bound ``sum_k (|C_k| + 2)`` of :func:`dg_fixed_sum`, in units of ``2**-F``,
    rounded up to an integer (``terms`` from :func:`dg_terms`; see :func:`_dg_area`)."""
    (r_num, _, c_num, c_den, _, _), cuts = terms
    log_idx = np.flatnonzero(c_num != 0)
    bound = _ceil_div(abs(c_num[log_idx]), c_den[log_idx]).sum() if log_idx.size else 0
    bound += 2 * (r_num.size + len(cuts)) + sum(
        int(_ceil_div(abs(c.numerator), c.denominator)) for _, c, _ in cuts
    )
    return int(bound)


def dg_fixed_sum(
    terms: tuple[_DGArrays, list[tuple[Fraction, Fraction, Fraction]]], frac_bits: int
) -> int:
    """``2**F (sum R - sum C ln Q)`` in fixed point with ``F = frac_bits``: every rational term
    floored, every logarithm rounded (:func:`_fixed_log_ratios`), every product floored; the
    error is below :func:`dg_error_units` units. An integer sum, so the terms of disjoint
    segment sets add up exactly (the distributed evaluation relies on it)."""
    (r_num, r_den, c_num, c_den, q_num, q_den), cuts = terms
    wp = frac_bits + 24
    total = int(((r_num << frac_bits) // r_den).sum()) if r_num.size else 0
    log_idx = np.flatnonzero(c_num != 0)
    if log_idx.size:
        logs = _fixed_log_ratios(q_num[log_idx], q_den[log_idx], frac_bits, wp)
        total -= int(((c_num[log_idx] * logs) // c_den[log_idx]).sum())
    for r, c, q in cuts:
        total += (r.numerator << frac_bits) // r.denominator
        if c:
            (lq,) = _fixed_logs([(q.numerator, q.denominator)], frac_bits, wp)
            total -= (c.numerator * lq) // c.denominator
    return total


def dg_frac_bits(prec: int, bound: int) -> int:
    """The first fixed-point precision ``F`` tried for an error bound of ``bound`` units."""
    return prec + 16 + bound.bit_length()


def dg_result(total: int, bound: int, pos: int, frac_bits: int, prec: int) -> mpmath.mpf | None:
    """``total / (pos 2**F)`` rounded to ``prec`` bits once the error bound allows it, else None
    (then ``F`` must grow): decided when ``|total| > bound 2**(prec+4)``."""
    if abs(total) > (bound << (prec + 4)):
        return mpmath.mp.make_mpf(libmp.from_rational(total, pos << frac_bits, prec, "n"))
    if frac_bits > (1 << 20):
        raise ArithmeticError("Davis-Goadrich area: cancellation beyond 2**20 bits")
    return None


def _dg_area(
    tp: np.ndarray,
    fp: np.ndarray,
    pos: int,
    first_point: str,
    lo: Fraction,
    hi: Fraction,
    prec: int,
) -> mpmath.mpf:
    """Davis-Goadrich area to ``prec`` bits with relative error <= 2**(1-prec).

    Fixed point with ``F`` fraction bits: every rational term ``R`` is floored to an integer
    multiple of ``2**-F`` (error < 1 unit); every ``ln Q`` is rounded to a multiple of 2**-F
    with error below 1 unit by :func:`_fixed_log_ratios` (a vectorised series for Q near 1; else
    mpmath at ``wp = F + 24`` bits, whose absolute error < 2**-(F+23) + 2**-(F+24) |ln Q| is
    below 2**-(F+1) for |ln Q| < 2**22, plus half a unit of rounding); ``C * ln Q`` is then floored (error
    < 1 unit), so its error is below ``|C| + 1`` units. The integer sum is exact, hence
    ``|error| <= sum_k (|C_k| + 2)`` units, an integer bound ``E`` computed alongside. ``F`` is
    raised until ``E 2**-F <= 2**-(prec+4) |sum|``; the result is then rounded once to ``prec``
    bits, for a total relative error below ``2**(1-prec)``.
    """
    terms = dg_terms(tp, fp, first_point, lo, hi)
    if terms[0][0].size == 0 and not terms[1]:  # no segment gains recall inside [lo, hi]
        return mpmath.mp.make_mpf(libmp.fzero)
    bound = dg_error_units(terms) + 1
    frac_bits = dg_frac_bits(prec, bound)
    while True:
        # the sum / 2**F approximates pos * area with |error| <= bound units
        value = dg_result(dg_fixed_sum(terms, frac_bits), bound, pos, frac_bits, prec)
        if value is not None:
            return value
        frac_bits *= 2


# ------------------------------------------------------------------------------------------
# public


def _dg_discrete(
    tp: np.ndarray, fp: np.ndarray, first_point: str, lo: Fraction, hi: Fraction
) -> Fraction:
    """Trapezoids through Davis & Goadrich's intermediate points, one per unit of TP.

    Between tables (T0, F0) and (T1, F1) the points are TP = T0 + k, FP = F0 + k dF/dT for
    k = 0..dT, with precision (T0 + k) dT / ((T0 + k) dT + F0 dT + k dF). From the empty
    classifier (``first_point="spark"``) precision is constant at T1/(T1 + F1), the value PRROC
    substitutes for its 0/0 first point. Unit weights only (the points sit at whole items).
    """
    xs, ys = [], []
    if first_point == "spark":
        n1 = tp[:1] + fp[:1]
        xs.append((np.array([0], dtype=object), tp[:1]))
        ys.append(((tp[:1], n1), (tp[:1], n1)))
    t0, t1, f0, f1 = tp[:-1], tp[1:], fp[:-1], fp[1:]
    dt = t1 - t0
    g = np.flatnonzero(dt > 0)
    steps = dt[g].astype(np.int64)
    seg = np.repeat(g, steps)
    k = np.arange(int(steps.sum()), dtype=np.int64) - np.repeat(np.cumsum(steps) - steps, steps)
    k = k.astype(object)
    d_t, d_f = dt[seg], (f1 - f0)[seg]
    x_left = t0[seg] + k
    x_right = x_left + 1
    base = f0[seg] * d_t
    xs.append((x_left, x_right))
    ys.append(
        (
            (x_left * d_t, x_left * d_t + base + k * d_f),
            (x_right * d_t, x_right * d_t + base + (k + 1) * d_f),
        )
    )
    x0 = np.concatenate([a for a, _ in xs])
    x1 = np.concatenate([b for _, b in xs])
    y0 = (np.concatenate([y[0][0] for y in ys]), np.concatenate([y[0][1] for y in ys]))
    y1 = (np.concatenate([y[1][0] for y in ys]), np.concatenate([y[1][1] for y in ys]))
    return _linear_area(x0, x1, y0, y1, lo, hi)


def _interpolated(
    method: str,
    tp: np.ndarray,
    fp: np.ndarray,
    pos: int,
    first_point: str,
    lo: Fraction,
    hi: Fraction,
    prec: int,
) -> Fraction | mpmath.mpf:
    """Area of an interpolating method over TP in [lo, hi], divided by pos."""
    if method == "davis-goadrich":
        return _dg_area(tp, fp, pos, first_point, lo, hi, prec)
    if method == "davis-goadrich-discrete":
        return _dg_discrete(tp, fp, first_point, lo, hi) / pos
    if method == "trapezoid":
        return _trapezoid(tp, fp, first_point, lo, hi) / pos
    return _lower_trapezoid(tp, fp, first_point, lo, hi) / pos


def recall_range(a: Any, b: Any, pos: int) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """Exact ``(a, b, a pos, b pos)`` of a validated, non-empty recall range ``[a, b]``.

    Parameters
    ----------
    a, b : number
        The recall range, ``0 <= a < b <= 1``.
    pos : int
        The positive weight numerator.

    Returns
    -------
    tuple of Fraction
        ``(a, b, a pos, b pos)``.

    Raises
    ------
    InvalidInputError
        ``a`` or ``b`` outside [0, 1], or ``a >= b``.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from prtheory.oracle.areas import recall_range
    >>> recall_range(Fraction(1, 4), 1, 4)
    (Fraction(1, 4), Fraction(1, 1), Fraction(1, 1), Fraction(4, 1))
    """
    a, b = check_recall_range(a, b)
    a_q, b_q = exact_rational(a, "a"), exact_rational(b, "b")
    if a_q == b_q:
        raise UndefinedMetricError(
            "area under the PR curve", f"the recall range [{a}, {b}] is empty"
        )
    return a_q, b_q, a_q * pos, b_q * pos


def mllib_first_point(top_is_empty: bool) -> str:
    """The first point ``"mllib"`` resolved: ``"sklearn"``'s (0, 1) when the top-scored block has
    zero weight (MLlib's empty classifier, precision 1), else ``"spark"``'s (0, p_first)."""
    return "sklearn" if top_is_empty else "spark"


def _validated(
    y_true: ArrayLike,
    y_score: ExactArrayLike,
    sample_weight: ExactArrayLike | None,
    method: str,
    first_point: str | None,
    a: Any,
    b: Any,
) -> tuple[
    str, OperatingPoints, np.ndarray, np.ndarray, tuple[Fraction, Fraction, Fraction, Fraction]
]:
    """Checked method and first point, the area's points (:func:`_points`) and its range."""
    first_point = check_method(method, first_point)
    _unit_weights_for_discrete(method, sample_weight is None)
    points, tp, fp = _points(operating_points(y_true, y_score, sample_weight))
    if first_point == "mllib":
        first_point = mllib_first_point(points.tp[0] + points.fp[0] == 0)
    return first_point, points, tp, fp, recall_range(a, b, points.pos)


@shown_at_dps
def pr_auc(
    y_true: ArrayLike,
    y_score: ExactArrayLike,
    sample_weight: ExactArrayLike | None = None,
    *,
    method: str,
    first_point: str | None = None,
    a: Any = 0,
    b: Any = 1,
    dps: int = 50,
) -> Fraction | mpmath.mpf:
    """Area under the PR curve over recalls ``[a, b]`` by a named ``method`` (module table).

    ``first_point`` is required for the interpolating methods (``"none"``, ``"sklearn"``,
    ``"spark"`` or ``"mllib"``; DG accepts ``"none"`` and ``"spark"``) and must be omitted or
    ``"none"`` for ``"step"``. Rational methods return an exact Fraction; ``"davis-goadrich"`` an ``mpf`` at
    ``dps`` digits (relative error <= 2**(1-p), p = the bits of ``dps``).

    Examples (claims B2, B4): ``y = [0, 1]``, ``s = [.9, .1]`` (the worst ranking, pi = 1/2)
    has DG area ``1 + ln(1/2) = AUCPR_min(1/2)``.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels.
    y_score : array-like of shape (n,)
        Real scores, taken exactly.
    sample_weight : array-like of shape (n,) or None
        Finite non-negative weights, taken exactly.
    method : {"step", "trapezoid", "lower-trapezoid", "davis-goadrich", "davis-goadrich-discrete"}
        How the points are joined (module table).
    first_point : str or None
        What sits at recall 0; required by the interpolating methods.
    a, b : number
        The recall range (default [0, 1]).
    dps : int
        Digits of an ``mpf`` result (default 50).

    Returns
    -------
    Fraction or mpmath.mpf
        The area: exact, or an ``mpf`` for ``"davis-goadrich"``.

    Raises
    ------
    InvalidInputError
        Malformed input, an unknown method or first point, or a bad recall range.
    UndefinedMetricError
        No positive weight.

    See Also
    --------
    pr_auc_of_points : the same from operating points.
    prtheory.oracle.ap.average_precision : the step area over [0, 1].
    aucnpr_ranking : the area normalised (B8).

    Examples
    --------
    ``y = [1, 0, 1]``, scores 0.9, 0.5, 0.1: points (recall, precision) (1/2, 1), (1/2, 1/2),
    (1, 2/3). Step: (1/2)(1) + (1/2)(2/3) = 5/6. Trapezoid from scikit-learn's (0, 1):
    1/2 + 0 + (1/2)(1/2 + 2/3)/2 = 12/24 + 7/24 = 19/24. The worst ranking of one positive and one
    negative has DG area 1 + ln(1/2) = 0.30685281944005469058... (B2, B4):

    >>> from prtheory.oracle.areas import pr_auc
    >>> pr_auc([1, 0, 1], [0.9, 0.5, 0.1], method="step")
    Fraction(5, 6)
    >>> pr_auc([1, 0, 1], [0.9, 0.5, 0.1], method="trapezoid", first_point="sklearn")
    Fraction(19, 24)
    >>> print(pr_auc([0, 1], [0.9, 0.1], method="davis-goadrich", first_point="none", dps=20))
    0.30685281944005469058
    """
    first_point, points, tp, fp, (_, _, lo, hi) = _validated(
        y_true, y_score, sample_weight, method, first_point, a, b
    )
    return _pr_auc(points, tp, fp, method, first_point, lo, hi, dps)


@shown_at_dps
def pr_auc_of_points(
    points: OperatingPoints,
    *,
    method: str,
    first_point: str | None = None,
    a: Any = 0,
    b: Any = 1,
    dps: int = 50,
    unit_weights: bool = False,
) -> Fraction | mpmath.mpf:
    """:func:`pr_auc` of operating points however they were obtained (a ranking, or exact counts
    accumulated per distinct score by :mod:`prtheory.streaming`).

    ``unit_weights`` says that the counts are counts of items (no ``sample_weight``), which
    ``"davis-goadrich-discrete"`` requires.

    Parameters
    ----------
    points : OperatingPoints
        Exact cumulative counts per distinct score.
    method : str
        An area method of the module table.
    first_point : str or None
        What sits at recall 0.
    a, b : number
        The recall range (default [0, 1]).
    dps : int
        Digits of an ``mpf`` result (default 50).
    unit_weights : bool
        Whether the counts are counts of items (default False).

    Returns
    -------
    Fraction or mpmath.mpf
        As :func:`pr_auc`.

    Raises
    ------
    InvalidInputError
        An unknown method or first point, or a bad recall range.
    UndefinedMetricError
        No positive weight.

    See Also
    --------
    pr_auc

    Examples
    --------
    :func:`pr_auc`'s step example from its operating points:

    >>> from prtheory.oracle.areas import pr_auc_of_points
    >>> from prtheory.oracle.counts import operating_points
    >>> pr_auc_of_points(operating_points([1, 0, 1], [0.9, 0.5, 0.1]), method="step")
    Fraction(5, 6)
    """
    first_point = check_method(method, first_point)
    _unit_weights_for_discrete(method, unit_weights)
    points, tp, fp = _points(points)
    if first_point == "mllib":
        first_point = mllib_first_point(points.tp[0] + points.fp[0] == 0)
    _, _, lo, hi = recall_range(a, b, points.pos)
    return _pr_auc(points, tp, fp, method, first_point, lo, hi, dps)


def _pr_auc(
    points: OperatingPoints,
    tp: np.ndarray,
    fp: np.ndarray,
    method: str,
    first_point: str,
    lo: Fraction,
    hi: Fraction,
    dps: int,
) -> Fraction | mpmath.mpf:
    pos = points.pos
    if method == "step":
        if lo == 0 and hi == pos:  # the whole range: average precision, ties grouped (N2)
            return step_average_precision(points.recall_steps())
        return _step_area(tp, fp, lo, hi) / pos
    return _interpolated(method, tp, fp, pos, first_point, lo, hi, prec_of_dps(dps))


@shown_at_dps
def aucnpr_ranking(
    y_true: ArrayLike,
    y_score: ExactArrayLike,
    sample_weight: ExactArrayLike | None = None,
    *,
    method: str,
    first_point: str | None = None,
    a: Any = 0,
    b: Any = 1,
    dps: int = 50,
    convention: str | None = None,
) -> Fraction | mpmath.mpf:
    """AUCNPR of a ranking (B8): ``(area - min)/(max - min)`` over recalls ``[a, b]``.

    * interpolated methods: ``min = AUCPR_min(pi, a, b)`` (B4, B7) and ``max = b - a``, through
      :func:`prtheory.oracle.closed_forms.aucnpr`; an ``mpf`` at ``dps`` digits. A trapezoid can
      fall below AUCPR_min (its chords lie under the concave minimum curve), giving a negative
      value, which is not clipped.
    * ``"step"``: ``min`` = the step area of the worst ranking of the same counts (every
      negative first), which over ``[0, 1]`` is AP_min (B6), ``max = b - a``; an exact Fraction.
      Needs unit weights (AP_min is a statement about counts of items).

    ``pi = pos/(pos+neg)``; at ``pi = 1`` (no negatives) max = min and the value is undefined:
    ``convention="paper"`` gives 1 (Boyd et al. §4). For ``"davis-goadrich"`` the numerator
    ``area - AUCPR_min`` is evaluated at rising precision until it is known to ``dps`` digits
    (relative), and a curve that *is* the minimum curve (the worst ranking, B2) gives exactly
    ``Fraction(0)`` (see :func:`_dg_is_minimum`).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels.
    y_score : array-like of shape (n,)
        Real scores, taken exactly.
    sample_weight : array-like of shape (n,) or None
        Finite non-negative weights (not with ``"step"``).
    method : str
        An area method of the module table.
    first_point : str or None
        The first point, as for :func:`pr_auc`.
    a, b : number
        The recall range (default [0, 1]).
    dps : int
        Digits of an ``mpf`` result (default 50).
    convention : {None, "paper"}
        ``"paper"``: 1 at pi = 1.

    Returns
    -------
    Fraction or mpmath.mpf
        The AUCNPR: exact for ``"step"``, an ``mpf`` for interpolated methods.

    Raises
    ------
    InvalidInputError
        Malformed input, an unknown method, or weights with ``"step"``.
    UndefinedMetricError
        No positives, or pi = 1 without ``convention="paper"``.

    See Also
    --------
    pr_auc : the area itself.
    prtheory.oracle.closed_forms.aucnpr : the closed form (B8).

    Examples
    --------
    One positive and one negative: the worst ranking's step area is the least, AP_min = 1/2,
    so it normalises to 0; the best ranking's area 1 normalises to (1 - 1/2)/(1 - 1/2) = 1:

    >>> from prtheory.oracle.areas import aucnpr_ranking
    >>> aucnpr_ranking([0, 1], [0.9, 0.1], method="step")
    Fraction(0, 1)
    >>> aucnpr_ranking([1, 0], [0.9, 0.1], method="step")
    Fraction(1, 1)
    """
    first_point, points, tp, fp, (a_q, b_q, lo, hi) = _validated(
        y_true, y_score, sample_weight, method, first_point, a, b
    )
    pos, neg = points.pos, points.neg
    pi = Fraction(pos, pos + neg)
    if method == "step":
        if sample_weight is not None:
            raise InvalidInputError(
                "sample_weight", "step AUCNPR normalises by AP_min (B6), defined for unit weights"
            )
        if neg == 0:
            return undefined(
                "AUCNPR", "AUCPR_max = AUCPR_min at pi = 1", convention, {"paper": Fraction(1)}
            )
        if lo == 0 and hi == pos:  # B6: (AP - AP_min)/(1 - AP_min)
            return normalized_average_precision(y_true, y_score, ties="group")
        area = _step_area(tp, fp, lo, hi) / pos
        worst_tp = np.arange(0, pos + 1, dtype=object)
        worst_fp = np.full(pos + 1, neg, dtype=object)
        low = _step_area(worst_tp, worst_fp, lo, hi) / pos
        return (area - low) / (b_q - a_q - low)
    if method == "davis-goadrich" and neg != 0:
        return _dg_aucnpr(tp, fp, pos, neg, first_point, (a_q, b_q, lo, hi), dps)
    area = _interpolated(method, tp, fp, pos, first_point, lo, hi, prec_of_dps(dps + 20))
    return closed_forms.aucnpr(area, pi, a_q, b_q, dps=dps, convention=convention)


def _dg_is_minimum(
    tp: np.ndarray,
    fp: np.ndarray,
    pos: int,
    neg: int,
    first_point: str,
    a_q: Fraction,
    b_q: Fraction,
    lo: Fraction,
    hi: Fraction,
) -> bool:
    """Whether the DG area over ``[a, b]`` equals AUCPR_min(pi, a, b) exactly.

    ``pos (area - min) = (sum R - pos (b - a)) - (sum C ln Q + neg ln(u/v))`` with
    ``u = 1 - pi (1 - a)``, ``v = 1 - pi (1 - b)`` (B7: ``pos (1-pi)/pi = neg``). A sum of
    logarithms of rationals with rational coefficients is the logarithm of an algebraic number, and
    ``e**r`` is transcendental for rational ``r != 0`` (Lindemann), so the difference is 0 only if
    the rational part is 0 and the logarithms cancel. Grouping the logarithms by their (reduced)
    argument decides the cancellation whenever the arguments that occur are distinct
    multiplicatively. Consecutive tables that lie on one line in (TP, FP) are merged first (DG
    interpolates FP linearly in TP, so the area is unchanged): the worst ranking then is a single
    segment with ``Q = u/v``. Otherwise this may return False for a zero difference, and the
    caller's precision loop ends with an error instead of a value.
    """
    if first_point == "spark":
        tp = np.concatenate(([0], tp))
        fp = np.concatenate(([0], fp))
    t, f = as_objects(tp), as_objects(fp)
    if t.size > 2:  # keep the ends and every table where the (TP, FP) polyline turns
        turns = (t[1:-1] - t[:-2]) * (f[2:] - f[1:-1]) != (t[2:] - t[1:-1]) * (f[1:-1] - f[:-2])
        keep = np.concatenate(([True], turns, [True]))
        t, f = t[keep], f[keep]
    (r_num, r_den, c_num, c_den, q_num, q_den), cuts = dg_terms(t, f, "none", lo, hi)
    pi = Fraction(pos, pos + neg)
    rational = rational_sum(r_num, r_den) if r_num.size else Fraction(0)
    coeff: dict[Fraction, Fraction] = {}

    def add(c: Fraction, q: Fraction) -> None:
        if q != 1 and c != 0:
            c, q = (c, q) if q > 1 else (-c, 1 / q)
            coeff[q] = coeff.get(q, Fraction(0)) + c

    terms = (c_num.tolist(), c_den.tolist(), q_num.tolist(), q_den.tolist())
    for cn, cd, qn, qd in zip(*terms, strict=True):
        add(Fraction(cn, cd), Fraction(qn, qd))
    for r, c, q in cuts:
        rational += r
        add(c, q)
    add(Fraction(neg), (1 - pi * (1 - a_q)) / (1 - pi * (1 - b_q)))
    return rational == pos * (b_q - a_q) and not any(coeff.values())


def _dg_aucnpr(
    tp: np.ndarray,
    fp: np.ndarray,
    pos: int,
    neg: int,
    first_point: str,
    bounds: tuple[Fraction, Fraction, Fraction, Fraction],
    dps: int,
) -> Fraction | mpmath.mpf:
    """AUCNPR of the DG area (0 < pi < 1): exactly 0 on the minimum curve, else at ``dps`` digits.

    The numerator ``area - AUCPR_min`` cancels near the minimum, so both terms are evaluated at a
    working precision ``wp`` (each with relative error at most ``2**(1-wp)``), and ``wp`` doubles
    until the numerator and the denominator ``b - a - AUCPR_min`` exceed ``2**(p+8)`` times their
    error bound; the quotient then has relative error below ``2**(1-p)`` (the oracle contract).
    """
    a_q, b_q, lo, hi = bounds
    pi = Fraction(pos, pos + neg)
    prec = prec_of_dps(dps)
    wp = prec + 30
    while True:
        area = _dg_area(tp, fp, pos, first_point, lo, hi, wp)
        low = closed_forms.aucpr_min(pi, a_q, b_q, dps=max(1, int(wp / 3.33)))
        low_prec = prec_of_dps(max(1, int(wp / 3.33)))
        with mpmath.workprec(4 * wp):
            num = area - low
            den = mpmath.mpf(b_q.numerator) / b_q.denominator
            den = den - mpmath.mpf(a_q.numerator) / a_q.denominator - low
            err = abs(area) * mpmath.ldexp(1, 1 - wp) + abs(low) * mpmath.ldexp(1, 1 - low_prec)
            decided = min(abs(num), abs(den)) > err * mpmath.ldexp(1, prec + 8)
            result = num / den
        if decided:
            with mpmath.workprec(prec):
                return +result
        if wp == prec + 30 and _dg_is_minimum(tp, fp, pos, neg, first_point, a_q, b_q, lo, hi):
            return Fraction(0)
        if wp > 1 << 20:
            raise ArithmeticError("Davis-Goadrich AUCNPR: cancellation beyond 2**20 bits")
        wp *= 2


def roc_auc(
    y_true: ArrayLike, y_score: ExactArrayLike, sample_weight: ExactArrayLike | None = None
) -> Fraction:
    """Exact area under the ROC curve (trapezoids from the origin; ties give diagonal segments).

    ``AUROC = sum_k (FP_k - FP_{k-1}) (TP_k + TP_{k-1}) / (2 pos neg)`` with ``TP_{-1} = FP_{-1} = 0``:
    an integer sum over one denominator, so no rational summation is needed (F12 background). It is the
    probability that a random positive outscores a random negative, ties counting one half.
    Raises :class:`UndefinedMetricError` when either class has zero weight.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels.
    y_score : array-like of shape (n,)
        Real scores, taken exactly.
    sample_weight : array-like of shape (n,) or None
        Finite non-negative weights, taken exactly.

    Returns
    -------
    Fraction
        The AUROC, exactly.

    Raises
    ------
    InvalidInputError
        Malformed input, naming the argument.
    UndefinedMetricError
        Either class has zero weight.

    See Also
    --------
    roc_auc_of_points : the same from operating points.
    prtheory.oracle.curves.roc_curve : the curve.

    Examples
    --------
    Positives scored 0.9 and 0.1, the negative 0.5: of the two (positive, negative) pairs one is
    ordered right, so AUROC = 1/2; a tie counts one half:

    >>> from prtheory.oracle.areas import roc_auc
    >>> roc_auc([1, 0, 1], [0.9, 0.5, 0.1])
    Fraction(1, 2)
    >>> roc_auc([1, 0], [0.5, 0.5])
    Fraction(1, 2)
    """
    return roc_auc_of_points(operating_points(y_true, y_score, sample_weight))


def _roc_vertices(points: OperatingPoints) -> tuple[np.ndarray, np.ndarray]:
    """The ROC curve's vertices as cumulative ``(TP, FP)`` counts from the origin ``(0, 0)``:
    int64 where every trapezoid sum over ``2 pos neg`` fits, else Python integers; undefined
    (:class:`~prtheory.errors.UndefinedMetricError`) when either class has zero weight."""
    if points.pos == 0 or points.neg == 0:
        raise UndefinedMetricError(
            "area under the ROC curve", "y_true needs positive and negative weight"
        )
    tp, fp = np.concatenate(([0], points.tp)), np.concatenate(([0], points.fp))
    if tp.dtype == object or 2 * points.pos * points.neg >= 2**62:  # else the sum fits in int64
        tp, fp = as_objects(tp), as_objects(fp)
    return tp, fp


def partial_roc_auc(
    y_true: ArrayLike,
    y_score: ExactArrayLike,
    sample_weight: ExactArrayLike | None = None,
    *,
    max_fpr: Any,
) -> Fraction:
    """Exact McClish-standardised partial area under the ROC curve over FPR in ``[0, m]``.

    ``A`` is the area under the ROC curve (trapezoids from the origin, ties as diagonal
    segments, as :func:`roc_auc`) between FPR 0 and ``m``, the segment that crosses FPR ``m``
    cut there by linear interpolation; McClish (1989) maps it to
    ``(1 + (A - m^2/2) / (m - m^2/2)) / 2``, which is 1/2 for the diagonal and 1 for a perfect
    ranking (scikit-learn's ``roc_auc_score(max_fpr=m)``, pROC's
    ``auc(..., partial.auc = c(1, 1 - m), partial.auc.correct = TRUE)``). At ``m = 1`` it is
    the whole area.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels.
    y_score : array-like of shape (n,)
        Real scores, taken exactly.
    sample_weight : array-like of shape (n,) or None
        Finite non-negative weights, taken exactly.
    max_fpr : number
        ``m`` in (0, 1], taken exactly.

    Returns
    -------
    Fraction
        The standardised partial AUC, exactly.

    Raises
    ------
    InvalidInputError
        Malformed input or ``max_fpr`` outside (0, 1], naming the argument.
    UndefinedMetricError
        Either class has zero weight.

    See Also
    --------
    roc_auc : the whole area.

    Examples
    --------
    Scores 0.9 (positive), 0.8 (negative), 0.7 (positive): the curve runs (0, 0), (0, 1/2),
    (1, 1/2), (1, 1), so over FPR in ``[0, 1/2]`` it is at TPR 1/2 and ``A = 1/4``; McClish:
    ``(1 + (1/4 - 1/8)/(1/2 - 1/8))/2 = 2/3``. At ``m = 1`` it is the whole area, 1/2 (one of
    the two (positive, negative) pairs ordered right):

    >>> from prtheory.oracle.areas import partial_roc_auc, roc_auc
    >>> partial_roc_auc([1, 0, 1], [0.9, 0.8, 0.7], max_fpr=0.5)
    Fraction(2, 3)
    >>> partial_roc_auc([1, 0, 1], [0.9, 0.8, 0.7], max_fpr=1)
    Fraction(1, 2)
    """
    m = check_max_fpr(max_fpr)
    pts = operating_points(y_true, y_score, sample_weight)
    pos, neg = pts.pos, pts.neg
    tp, fp = _roc_vertices(pts)
    # segment i joins vertex i to i + 1; it lies left of FP = m neg when fp[i + 1] <= m neg
    right = fp[1:] if m.denominator == 1 else as_objects(fp[1:]) * m.denominator
    whole = int(np.count_nonzero(right <= m.numerator * neg))
    twice = Fraction(int((np.diff(fp[: whole + 1]) * (tp[:whole] + tp[1 : whole + 1])).sum()))
    if whole < fp.size - 1:  # the segment that crosses FP = m neg, cut there
        xa, xb, ta, tb = (int(v) for v in (fp[whole], fp[whole + 1], tp[whole], tp[whole + 1]))
        x = m * neg
        t_at = ta + (tb - ta) * (x - xa) / (xb - xa)
        twice += (x - xa) * (ta + t_at)
    partial = twice / (2 * pos * neg)
    least, most = m * m / 2, m  # the diagonal's area and the perfect classifier's
    return (1 + (partial - least) / (most - least)) / 2


def roc_auc_of_points(points: OperatingPoints) -> Fraction:
    """:func:`roc_auc` of operating points however they were obtained (a ranking, or exact
    counts accumulated per distinct score by :mod:`prtheory.streaming`).

    Parameters
    ----------
    points : OperatingPoints
        Exact cumulative counts per distinct score.

    Returns
    -------
    Fraction
        The AUROC, exactly.

    Raises
    ------
    UndefinedMetricError
        Either class has zero weight.

    See Also
    --------
    roc_auc

    Examples
    --------
    >>> from prtheory.oracle.areas import roc_auc_of_points
    >>> from prtheory.oracle.counts import operating_points
    >>> roc_auc_of_points(operating_points([1, 0, 1], [0.9, 0.5, 0.1]))
    Fraction(1, 2)
    """
    tp, fp = _roc_vertices(points)
    total = int((np.diff(fp) * (tp[1:] + tp[:-1])).sum())
    return Fraction(total, 2 * points.pos * points.neg)
