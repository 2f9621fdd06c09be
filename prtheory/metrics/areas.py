"""Areas under the PR, ROC and PRG curves as correctly rounded float64, with ``average=``.

Each function takes ``(y_true, y_score, *, sample_weight=None, pos_label=None, ...)`` as
scikit-learn's metrics do (labels and arrays as in :mod:`prtheory._labels`; ``average=`` and
``labels=`` for multi-label and multi-class targets as in :mod:`prtheory.metrics.averaging`).
Each value is the exact value of the matching :mod:`prtheory.oracle` function, rounded once:

* rational areas (``pr_auc`` with ``"step"``, ``"trapezoid"``, ``"lower-trapezoid"``,
  ``"davis-goadrich-discrete"``; ``roc_auc``; ``auprg``) are correctly rounded, bit for bit
  ``prtheory.oracle.rounding.to_float`` of the oracle's Fraction;
* the Davis-Goadrich area (logarithms) is correctly rounded too, by Ziv's strategy over the
  oracle's mpmath value (:func:`prtheory.oracle.rounding.rounded`), within the 1 ulp promised.

How the rational areas are fast. One sort gives, for every block of tied scores that holds
positive weight (a *recall step*), the exact cumulative counts ``TP``, ``N = TP + FP`` through
the block and ``N_before`` through the block above it
(:func:`prtheory.oracle.counts.recall_steps`: unit weights by ``np.sort`` and binary search
without a permutation; weights as exact integers over one denominator, summed in two int64
limbs). Only these blocks bound segments of positive width in recall, so with ``g`` the
positive weight in the block:

* step (AP, claim N2): ``pos AP = sum g TP/N``;
* trapezoid with vertices ``(TP - g, p_before)`` and ``(TP, TP/N)``, where
  ``p_before = (TP - g)/N_before``, or the first point when nothing is above the block
  (``"sklearn"``: 1; ``"spark"``: ``TP/N``; ``"none"``: no segment):
  ``2 pos area = sum g (p_before + TP/N)``;
* ROC (Mann-Whitney, ties one half): ``2 pos neg AUROC = sum g (neg_below + neg_at_or_below)``
  with ``neg_below = (total - N) - (pos - TP)`` and
  ``neg_at_or_below = (total - N_before) - (pos - TP + g)``: one integer.

Those sums of integer quotients are rounded by :func:`prtheory.oracle.summation.round_combination`
(int64 digit columns, an exact rational only when the interval cannot decide). Segments cut by a
recall range ``[a, b]`` (at most two) are added exactly as Fractions. The lower trapezoid of
Boyd, Eng & Page (2013) equals the trapezoid along one ranking with every operating point kept
(see :mod:`prtheory.oracle.areas`), so it takes the same path. ``auprg`` and the
Davis-Goadrich areas are the oracle's exact values, rounded.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

import numpy as np

from prtheory._input import as_weights, check_max_fpr
from prtheory._labels import target
from prtheory.errors import UndefinedMetricError
from prtheory.metrics import area_kernel
from prtheory.metrics.averaging import averaged
from prtheory.metrics.exact import Irrational, Terms
from prtheory.metrics.step import binary_average_precision
from prtheory.oracle import areas as oracle_areas
from prtheory.oracle import prg as oracle_prg
from prtheory.oracle.ap import no_positives
from prtheory.oracle.conventions import undefined
from prtheory.oracle.counts import RecallSteps, recall_steps
from prtheory.oracle.ratios import as_objects
from prtheory.oracle.summation import QuotientSum

__all__ = [
    "DEFAULT_FIRST_POINT",
    "auprg",
    "average_precision",
    "average_precision_terms",
    "pr_auc",
    "roc_auc",
    "roc_auc_terms",
]

#: ``first_point`` when not given: scikit-learn's ``auc(recall, precision)`` for the trapezoids,
#: the empty classifier (PRROC's ``auc.integral``) for Davis-Goadrich
DEFAULT_FIRST_POINT = {
    "step": "none",
    "trapezoid": "sklearn",
    "lower-trapezoid": "sklearn",
    "davis-goadrich": "spark",
    "davis-goadrich-discrete": "spark",
}

_INT64 = 2**63


def _product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a * b`` of non-negative integer arrays: int64 when it provably fits, Python ints else."""
    if a.size == 0:
        return a * b
    if a.dtype != object and b.dtype != object and int(a.max()) * int(b.max()) < _INT64:
        return a * b
    return a.astype(object) * b.astype(object)


def _scaled(x: np.ndarray, q: Fraction) -> tuple[np.ndarray, int]:
    """``(x q.denominator, q.numerator)``, to compare an integer array with ``q`` exactly."""
    if q.denominator == 1 and abs(q.numerator) < 2**62:
        return x, q.numerator
    return as_objects(x) * q.denominator, q.numerator


def _segments(steps: RecallSteps, method: str, first_point: str, lo: Fraction, hi: Fraction):
    """Terms of ``pos * area`` for the step or trapezoid over TP in ``[lo, hi]`` (module doc)."""
    tp, gain, n = steps.tp, steps.gain, steps.predicted
    x0 = tp - gain
    if method == "step":
        y0 = (tp, n)
    else:
        top = steps.preceding == 0
        head = (tp, n) if first_point == "spark" else (np.ones_like(tp), np.ones_like(n))
        y0 = (np.where(top, head[0], x0), np.where(top, head[1], steps.preceding))
        if first_point == "none":  # the curve starts at the first block's point
            keep = ~top
            tp, gain, n, x0 = tp[keep], gain[keep], n[keep], x0[keep]
            y0 = (y0[0][keep], y0[1][keep])
    (x_lo, lo_num), (x_hi, hi_num) = _scaled(x0, lo), _scaled(tp, hi)
    whole = (x_lo >= lo_num) & (x_hi <= hi_num)
    w = np.flatnonzero(whole)
    half = Fraction(1) if method == "step" else Fraction(1, 2)
    parts = [QuotientSum(_product(gain[w], tp[w]), n[w], half)]
    if method != "step":
        parts.append(QuotientSum(_product(gain[w], y0[0][w]), y0[1][w], half))
    constant = Fraction(0)
    for k in np.flatnonzero(~whole).tolist():
        ya = Fraction(int(y0[0][k]), int(y0[1][k]))
        yb = Fraction(int(tp[k]), int(n[k]))
        constant += oracle_areas.clipped_segment_area(int(x0[k]), int(tp[k]), ya, yb, lo, hi)
    return Terms(tuple(parts), constant)


def _kernel(metric: str):
    """The float path of ``metric`` (:data:`prtheory.metrics.area_kernel.METRICS`) for float
    weights: the correctly rounded value, or None (other weights, or the kernel cannot
    decide)."""

    def fast(y, s, w) -> float | None:
        weights = as_weights(w, y.size, floats=True)
        if not isinstance(weights, np.ndarray):
            return None
        return area_kernel.rounded(y, s, weights, metric)

    return fast


def _pr_area(y, s, w, *, method, first_point, a, b, convention) -> Terms | Irrational:
    if method.startswith("davis-goadrich"):

        @functools.cache
        def evaluate(dps: int):
            return oracle_areas.pr_auc(
                y, s, w, method=method, first_point=first_point, a=a, b=b, dps=dps
            )

        first = evaluate(30)  # raises here, so that averaging can name the class
        return Irrational(evaluate) if method == "davis-goadrich" else Terms(constant=first)
    return _rational_area(
        y, s, w, method=method, first_point=first_point, a=a, b=b, convention=convention
    )


def _rational_area(y, s, w, *, method, first_point, a, b, convention) -> Terms:
    """The step, trapezoid or lower-trapezoid area (module docstring) as exact Terms."""
    steps = recall_steps(y, s, w, before=method != "step")
    if steps.pos == 0:
        if method == "step":
            return Terms(constant=no_positives("average precision", convention, y))
        reason = "y_true has no positive weight, so recall is 0/0"
        return Terms(constant=undefined("area under the PR curve", reason, convention, {}))
    _, _, lo, hi = oracle_areas.recall_range(a, b, steps.pos)
    return _segments(steps, method, first_point, lo, hi).scaled(Fraction(1, steps.pos))


def pr_auc(
    y_true,
    y_score,
    *,
    sample_weight=None,
    pos_label=None,
    method: str = "step",
    first_point: str | None = None,
    a: Any = 0,
    b: Any = 1,
    average: str | None = "macro",
    labels=None,
    convention: str | None = None,
) -> float | np.ndarray:
    """Area under the PR curve over recalls ``[a, b]``, correctly rounded float64.

    ``method`` (see :mod:`prtheory.oracle.areas` for the formulas and claims):

    * ``"step"`` (default): ``sum_i (R_i - R_{i-1}) P_i``, average precision with tied scores
      grouped (N2), scikit-learn's ``average_precision_score``;
    * ``"trapezoid"``: straight lines in (recall, precision), scikit-learn's
      ``auc(recall, precision)`` on ``precision_recall_curve``;
    * ``"lower-trapezoid"``: Boyd, Eng & Page (2013);
    * ``"davis-goadrich"``: FP linear in TP between tables, PRROC's ``auc.integral`` (B2, B4);
    * ``"davis-goadrich-discrete"``: PRROC's ``auc.davis.goadrich`` (unit weights only).

    ``first_point`` names the point at recall 0 (``"sklearn"`` (0, 1), ``"spark"`` (0, p_first),
    ``"none"``); when omitted it is :data:`DEFAULT_FIRST_POINT` for the method: ``"sklearn"``
    for the trapezoids (what ``auc(*precision_recall_curve(...)[1::-1])`` integrates) and
    ``"spark"`` for Davis-Goadrich (from the empty classifier). ``"step"`` has none.

    With no positive weight the area is undefined; ``convention="sklearn"`` gives 0 for
    ``"step"`` (scikit-learn's ``average_precision_score``). ``average`` and ``labels`` apply to
    multi-label and multi-class targets (:mod:`prtheory.metrics.averaging`).

    Parameters
    ----------
    y_true : array-like of shape (n,) or (n, L)
        Binary labels, a label of ``pos_label``, or a multi-label / multi-class target.
    y_score : array-like of shape (n,) or (n, L)
        Real scores, taken exactly.
    sample_weight : array-like of shape (n,) or None
        Finite non-negative weights, taken exactly.
    pos_label : label or None
        The positive class of a binary target that is not 0/1.
    method : {"step", "trapezoid", "lower-trapezoid", "davis-goadrich", "davis-goadrich-discrete"}
        How the points are joined (default ``"step"``).
    first_point : {"sklearn", "spark", "none"} or None
        The point at recall 0; None is the method's default.
    a, b : number
        The recall range (default [0, 1]).
    average : {"macro", "weighted", "micro", "samples", None}
        How columns are averaged.
    labels : array-like or None
        The classes of a multi-class target.
    convention : {None, "sklearn"}
        ``"sklearn"``: 0 for ``"step"`` with no positive weight.

    Returns
    -------
    float or ndarray
        The correctly rounded area (one per column with ``average=None``).

    Raises
    ------
    InvalidInputError
        Malformed input, an unknown method or first point, or a bad recall range.
    UndefinedMetricError
        No positive weight, without ``convention="sklearn"``.

    See Also
    --------
    prtheory.average_precision : ``method="step"`` over [0, 1].
    prtheory.oracle.pr_auc : the exact area.
    roc_auc

    Examples
    --------
    Positives at ranks 1 and 3 give the points (recall, precision) (0, 1), (1/2, 1),
    (1/2, 1/2), (1, 2/3); the trapezoids add up to 1/2 + 0 + (1/2)(1/2 + 2/3)/2 = 19/24, and the
    step area is the average precision 5/6:

    >>> from prtheory import pr_auc
    >>> pr_auc([1, 0, 1], [0.9, 0.8, 0.7], method="trapezoid")
    0.7916666666666666
    >>> pr_auc([1, 0, 1], [0.9, 0.8, 0.7])
    0.8333333333333334
    """
    if first_point is None:
        first_point = DEFAULT_FIRST_POINT.get(method)
    first_point = oracle_areas.check_method(method, first_point)
    t = target(y_true, y_score, pos_label=pos_label, labels=labels)

    def value(y, s, w):
        return _pr_area(
            y, s, w, method=method, first_point=first_point, a=a, b=b, convention=convention
        )

    # over the whole recall range [0, 1]: the step AP of one column by its own path, the
    # trapezoid with three of the first points by the kernel for float weights
    whole = a == 0 and b == 1
    fast = None
    if whole and method == "step":
        fast = binary_average_precision
    elif whole and f"trapezoid-{first_point}" in area_kernel.METRICS and method == "trapezoid":
        fast = _kernel(f"trapezoid-{first_point}")
    return averaged(value, t, sample_weight, average, convention, fast)


def average_precision(
    y_true,
    y_score,
    *,
    sample_weight=None,
    pos_label=None,
    average: str | None = "macro",
    labels=None,
    convention: str | None = None,
) -> float | np.ndarray:
    """Average precision, correctly rounded: scikit-learn's ``average_precision_score``.

    ``AP = sum_i (R_i - R_{i-1}) P_i`` over the blocks of tied scores (claims N2, N3), exactly
    as :func:`prtheory.oracle.average_precision` with ``ties="group"``, then rounded to the
    nearest float64: :func:`pr_auc` with ``method="step"``.

    Parameters
    ----------
    y_true : array-like of shape (n,) or (n, L)
        Binary labels (0/1, booleans, ``{-1, 1}``, or any two labels with ``pos_label``), a
        multi-class label vector with an ``(n, K)`` score matrix (one-vs-rest), or a
        label-indicator matrix. Lists, numpy, pandas, polars and torch are accepted.
    y_score : array-like of shape (n,) or (n, L)
        Scores; higher ranks first. NaN is an error, ``±inf`` are ordinary scores. With a
        binary ``y_true`` a two-column matrix is an error: pass ``y_score[:, 1]``.
    sample_weight : array-like of shape (n,), optional
        Finite, non-negative weights, held exactly (a float at its binary value).
    pos_label : label, optional
        The positive class of a binary target (needed unless the labels are booleans or one
        of ``{0, 1}``, ``{-1, 1}``).
    average : {"macro", "micro", "weighted", "samples"} or None
        How the columns of a multi-label or multi-class target are combined
        (:mod:`prtheory.metrics.averaging`); ignored for a binary target. The average is
        exact, rounded once.
    labels : array-like, optional
        The class of each column of a multi-class score matrix.
    convention : {None, "sklearn"}
        With no positive weight AP is undefined: :class:`~prtheory.errors.UndefinedMetricError`,
        or 0.0 with ``"sklearn"``.

    Returns
    -------
    float or ndarray
        The correctly rounded AP (an array of per-column values with ``average=None``).

    See Also
    --------
    prtheory.oracle.average_precision : the exact value, a ``Fraction``.
    prtheory.sklearn.average_precision_score : scikit-learn's conventions (warnings, 0.0).

    Examples
    --------
    Positives ranked 1st and 3rd: ``AP = (1/1 + 2/3) / 2 = 5/6``.

    >>> import prtheory
    >>> prtheory.average_precision([1, 0, 1], [0.9, 0.8, 0.7])
    0.8333333333333334

    String labels with ``pos_label`` (``"spam"`` ranked first: AP = 1):

    >>> prtheory.average_precision(["spam", "ham"], [0.9, 0.1], pos_label="spam")
    1.0

    A label-indicator matrix, macro average: column 0 has AP 1 (its positive first), column
    1 has AP 1/2 (its positive second of two), so the mean is 3/4.

    >>> prtheory.average_precision([[1, 0], [0, 1]], [[0.9, 0.8], [0.1, 0.2]], average="macro")
    0.75
    """
    return pr_auc(
        y_true,
        y_score,
        sample_weight=sample_weight,
        pos_label=pos_label,
        average=average,
        labels=labels,
        convention=convention,
    )


def _roc_area(y, s, w) -> Terms:
    steps = recall_steps(y, s, w, before=True)
    pos, neg = steps.pos, steps.neg
    if pos == 0 or neg == 0:
        raise UndefinedMetricError(
            "area under the ROC curve", "y_true needs positive and negative weight"
        )
    total, g = pos + neg, steps.gain
    below = (total - steps.predicted) - (pos - steps.tp)
    at_or_below = (total - steps.preceding) - (pos - steps.tp + g)
    exact_int64 = g.dtype != object and steps.predicted.dtype != object
    if not exact_int64 or 2 * pos * neg >= 2**62:  # every product and the sum fit in int64
        g, below, at_or_below = (x.astype(object) for x in (g, below, at_or_below))
    twice = int((g * (below + at_or_below)).sum())
    return Terms(constant=Fraction(twice, 2 * pos * neg))


def _partial_roc_area(y, s, w, max_fpr: Fraction) -> Terms:
    """McClish's standardised partial area over FPR in ``[0, max_fpr]`` (module docstring of
    :func:`roc_auc`), exactly: :func:`prtheory.oracle.areas.partial_roc_auc`."""
    return Terms(constant=oracle_areas.partial_roc_auc(y, s, w, max_fpr=max_fpr))


def average_precision_terms(labels: np.ndarray, scores: np.ndarray, sample_weight) -> Terms:
    """The exact step AP (N2) of one validated binary column (boolean ``labels``, float64
    ``scores``), held for an exact average (:mod:`prtheory.metrics.exact`); undefined
    (:class:`~prtheory.errors.UndefinedMetricError`) with no positive weight.

    Parameters
    ----------
    labels : ndarray of bool
        Validated labels of one column.
    scores : ndarray of float
        Validated scores.
    sample_weight : array-like or None
        The caller's weights (validated here).

    Returns
    -------
    Terms
        The exact AP as one quotient sum.

    Raises
    ------
    UndefinedMetricError
        No positive weight.

    See Also
    --------
    roc_auc_terms
    prtheory.metrics.exact.round_sum : rounds an exact average of them.

    Examples
    --------
    Positives at ranks 1 and 3: AP = (1/2)(1/1 + 2/3) = 5/6:

    >>> import numpy as np
    >>> from prtheory.metrics.areas import average_precision_terms
    >>> average_precision_terms(np.array([True, False, True]), np.array([0.9, 0.8, 0.7]), None).exact()
    Fraction(5, 6)
    """
    return _rational_area(
        labels, scores, sample_weight, method="step", first_point="none", a=0, b=1, convention=None
    )


def roc_auc_terms(
    labels: np.ndarray, scores: np.ndarray, sample_weight, max_fpr: Any = None
) -> Terms:
    """The exact ROC AUC of one validated binary column, or McClish's standardised partial
    AUC over FPR in ``[0, max_fpr]`` (:func:`roc_auc`), held for an exact average.

    Parameters
    ----------
    labels : ndarray of bool
        Validated labels of one column.
    scores : ndarray of float
        Validated scores.
    sample_weight : array-like or None
        The caller's weights (validated here).
    max_fpr : number or None
        McClish's partial AUC bound.

    Returns
    -------
    Terms
        The exact value as a constant.

    Raises
    ------
    UndefinedMetricError
        Either class has no weight.

    See Also
    --------
    average_precision_terms

    Examples
    --------
    One of the two (positive, negative) pairs is ordered right:

    >>> import numpy as np
    >>> from prtheory.metrics.areas import roc_auc_terms
    >>> roc_auc_terms(np.array([True, False, True]), np.array([0.9, 0.8, 0.7]), None).exact()
    Fraction(1, 2)
    """
    m = _max_fpr(max_fpr)
    if m is None:
        return _roc_area(labels, scores, sample_weight)
    return _partial_roc_area(labels, scores, sample_weight, m)


def _max_fpr(max_fpr: Any) -> Fraction | None:
    """``max_fpr`` as an exact rational in (0, 1), or None for the whole curve (None or 1)."""
    if max_fpr is None:
        return None
    m = check_max_fpr(max_fpr)
    return None if m == 1 else m


def roc_auc(
    y_true,
    y_score,
    *,
    sample_weight=None,
    pos_label=None,
    max_fpr: Any = None,
    average: str | None = "macro",
    labels=None,
) -> float | np.ndarray:
    """Area under the ROC curve, correctly rounded: scikit-learn's ``roc_auc_score``.

    ``AUROC = P(score of a positive > score of a negative) + P(equal)/2`` with sample weights,
    the trapezoidal area under the ROC curve (:func:`prtheory.oracle.roc_auc`), computed as one
    integer over ``2 pos neg`` (module docstring). With ``max_fpr = m`` in (0, 1), McClish's
    standardised partial AUC (McClish 1989, scikit-learn's ``max_fpr``): the exact area ``A``
    under the curve over FPR in ``[0, m]`` (the segment crossing ``m`` cut by linear
    interpolation), mapped by ``(1 + (A - m^2/2)/(m - m^2/2))/2`` so that the diagonal scores
    1/2 and a perfect ranking 1. Undefined when either class has no weight (scikit-learn
    raises too). Multi-class score matrices are one-vs-rest (scikit-learn's
    ``multi_class="ovr"``; it also requires rows of probabilities summing to 1, which is not
    needed here); ``average`` as in :mod:`prtheory.metrics.averaging`.

    Parameters
    ----------
    y_true : array-like of shape (n,) or (n, L)
        Binary labels, a label of ``pos_label``, or a multi-label / multi-class target.
    y_score : array-like of shape (n,) or (n, L)
        Real scores, taken exactly.
    sample_weight : array-like of shape (n,) or None
        Finite non-negative weights, taken exactly.
    pos_label : label or None
        The positive class of a binary target that is not 0/1.
    max_fpr : number or None
        McClish's standardised partial AUC over FPR in [0, max_fpr].
    average : {"macro", "weighted", "micro", "samples", None}
        How columns are averaged.
    labels : array-like or None
        The classes of a multi-class target.

    Returns
    -------
    float or ndarray
        The correctly rounded AUROC (one per column with ``average=None``).

    Raises
    ------
    InvalidInputError
        Malformed input or ``max_fpr`` outside (0, 1], naming the argument.
    UndefinedMetricError
        Either class has no weight.

    See Also
    --------
    prtheory.oracle.roc_auc : the exact value.
    roc_curve, pr_auc

    Examples
    --------
    Scores 0.9 (positive), 0.8 (negative), 0.7 (positive): of the two (positive, negative)
    pairs one is ordered right, so the AUC is 1/2. Over FPR in ``[0, 1/2]`` the curve is at TPR
    1/2 (it reaches FPR 1 at TPR 1/2), so ``A = 1/4``; McClish: ``(1 + (1/4 - 1/8)/(1/2 -
    1/8))/2 = 2/3``.

    >>> from prtheory import roc_auc
    >>> roc_auc([1, 0, 1], [0.9, 0.8, 0.7])
    0.5
    >>> roc_auc([1, 0, 1], [0.9, 0.8, 0.7], max_fpr=0.5)
    0.6666666666666666
    """
    m = _max_fpr(max_fpr)
    t = target(y_true, y_score, pos_label=pos_label, labels=labels)
    if m is None:
        return averaged(_roc_area, t, sample_weight, average, fast=_kernel("roc"))

    def value(y, s, w):
        return _partial_roc_area(y, s, w, m)

    return averaged(value, t, sample_weight, average)


def auprg(
    y_true,
    y_score,
    *,
    sample_weight=None,
    pos_label=None,
    negative_gain: str = "signed",
    average: str | None = "macro",
    labels=None,
) -> float | np.ndarray:
    """Area under the Precision-Recall-Gain curve (Flach & Kull 2015, F5-F9), correctly rounded.

    The exact :func:`prtheory.oracle.auprg` rounded once. ``negative_gain="signed"`` (default:
    the official ``prg`` code's ``calc_auprg``, for which Theorem 3 holds) or ``"unit-square"``
    (negative precision gains clipped at 0). Undefined when either class has no weight.

    Parameters
    ----------
    y_true : array-like of shape (n,) or (n, L)
        Binary labels, a label of ``pos_label``, or a multi-label / multi-class target.
    y_score : array-like of shape (n,) or (n, L)
        Real scores, taken exactly.
    sample_weight : array-like of shape (n,) or None
        Finite non-negative weights, taken exactly.
    pos_label : label or None
        The positive class of a binary target that is not 0/1.
    negative_gain : {"signed", "unit-square"}
        What happens where precG < 0 (default ``"signed"``).
    average : {"macro", "weighted", "micro", "samples", None}
        How columns are averaged (:mod:`prtheory.metrics.averaging`).
    labels : array-like or None
        The classes of a multi-class target.

    Returns
    -------
    float or ndarray
        The correctly rounded AUPRG (one per column with ``average=None``).

    Raises
    ------
    InvalidInputError
        Malformed input or an unknown option, naming the argument.
    UndefinedMetricError
        Either class has no weight.

    See Also
    --------
    prtheory.oracle.auprg : the exact value.
    prg_curve : the curve.

    Examples
    --------
    The curve (recG, precG) = (0, 1), (0, 0), (1, 1/2), (1, 0) of ``y = [1, 0, 1, 0]`` ranked as
    given has area 1 (0 + 1/2)/2 = 1/4 (see :func:`prtheory.oracle.prg.auprg`):

    >>> from prtheory import auprg
    >>> auprg([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    0.25
    """
    t = target(y_true, y_score, pos_label=pos_label, labels=labels)

    def value(y, s, w):
        return Terms(constant=oracle_prg.auprg(y, s, w, negative_gain=negative_gain))

    return averaged(value, t, sample_weight, average)
