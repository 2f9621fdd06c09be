"""PR, ROC and PRG curves as float64 arrays, every coordinate correctly rounded.

The exact curves of :mod:`prtheory.oracle.curves` (integer count arrays, one sort) with each
coordinate rounded once by :meth:`prtheory.oracle.ratios.Ratios.to_float` (one IEEE division
when numerator and denominator are exact in float64, which unit and integer weights below 2**53
always are). Results are small objects whose fields are numpy arrays; they unpack, index and
slice like the tuples scikit-learn returns::

    precision, recall, thresholds = precision_recall_curve(y_true, y_score)
    auc(*precision_recall_curve(y_true, y_score)[1::-1])

Orders and lengths follow scikit-learn 1.9: ``precision_recall_curve`` lists points by
*increasing* threshold (recall non-increasing), then the first point (``first_point="sklearn"``:
precision 1, recall 0) last, with one threshold per operating point; ``roc_curve`` starts at
the origin (threshold ``+inf``). Items of sample weight 0 are dropped first, as scikit-learn
does: they change no count, so they would only repeat their neighbour's point under a threshold
of their own (and at the top of the ranking, a point with ``TP + FP = 0`` has no precision);
:func:`~prtheory.metrics.areas.pr_auc` and :func:`~prtheory.metrics.areas.roc_auc` ignore them
likewise. ``drop_intermediate`` applies scikit-learn's rules to the exact
counts: a PR point is dropped when its TP equals both neighbours' (the interior of a run of equal
TP), an ROC point when it is collinear with its neighbours (both second differences of FP and TP
are 0). scikit-learn applies them to float counts, which agree for unit and integer weights.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from prtheory._input import as_weights
from prtheory._labels import binary_target
from prtheory.errors import UndefinedMetricError
from prtheory.metrics import area_kernel
from prtheory.metrics.averaging import weights_array
from prtheory.oracle import curves as oracle_curves
from prtheory.oracle.counts import OperatingPoints, distinct_sums, run_starts
from prtheory.oracle.curves import check_first_point
from prtheory.oracle.ratios import Ratios

__all__ = [
    "DetCurve",
    "PRGCurve",
    "PrecisionRecallCurve",
    "RocCurve",
    "det_curve",
    "precision_recall_curve",
    "prg_curve",
    "roc_curve",
]


class _Unpacks:
    """Iteration, indexing, slicing and ``len`` over the fields named in ``_tuple``."""

    _tuple: tuple[str, ...] = ()

    def _as_tuple(self) -> tuple:
        return tuple(getattr(self, f) for f in self._tuple)

    def __iter__(self):
        return iter(self._as_tuple())

    def __len__(self) -> int:
        return len(self._tuple)

    def __getitem__(self, index):
        return self._as_tuple()[index]


@dataclass(frozen=True, eq=False)
class PrecisionRecallCurve(_Unpacks):
    """``(precision, recall, thresholds)`` in scikit-learn's order (module docstring).

    ``precision`` and ``recall`` have one entry per operating point plus the first point (unless
    ``first_point="none"``); ``thresholds`` one per operating point, increasing.

    Parameters
    ----------
    precision, recall : ndarray of float
        The coordinates, correctly rounded.
    thresholds : ndarray of float
        Increasing, one per operating point.

    See Also
    --------
    precision_recall_curve : builds it.

    Examples
    --------
    See :func:`precision_recall_curve`.

    >>> from prtheory import precision_recall_curve
    >>> precision_recall_curve([1, 0], [0.9, 0.1]).thresholds.tolist()
    [0.1, 0.9]
    """

    precision: np.ndarray
    recall: np.ndarray
    thresholds: np.ndarray
    _tuple = ("precision", "recall", "thresholds")


@dataclass(frozen=True, eq=False)
class RocCurve(_Unpacks):
    """``(fpr, tpr, thresholds)`` from the origin (threshold ``+inf``), as scikit-learn's.

    Parameters
    ----------
    fpr, tpr : ndarray of float
        The rates, correctly rounded.
    thresholds : ndarray of float
        ``+inf``, then decreasing.

    See Also
    --------
    roc_curve : builds it.

    Examples
    --------
    See :func:`roc_curve`.

    >>> from prtheory import roc_curve
    >>> roc_curve([1, 0], [0.9, 0.1]).thresholds.tolist()
    [inf, 0.9, 0.1]
    """

    fpr: np.ndarray
    tpr: np.ndarray
    thresholds: np.ndarray
    _tuple = ("fpr", "tpr", "thresholds")


@dataclass(frozen=True, eq=False)
class DetCurve(_Unpacks):
    """``(fpr, fnr, thresholds)`` by increasing threshold, as scikit-learn's ``det_curve``.

    Parameters
    ----------
    fpr, fnr : ndarray of float
        The rates, correctly rounded.
    thresholds : ndarray of float
        Increasing.

    See Also
    --------
    det_curve : builds it.

    Examples
    --------
    See :func:`det_curve`; it unpacks as its three arrays.

    >>> from prtheory import det_curve
    >>> len(det_curve([1, 0], [0.9, 0.1]))
    3
    """

    fpr: np.ndarray
    fnr: np.ndarray
    thresholds: np.ndarray
    _tuple = ("fpr", "fnr", "thresholds")


@dataclass(frozen=True, eq=False)
class PRGCurve(_Unpacks):
    """``(precision_gain, recall_gain, thresholds)`` by decreasing threshold (F5, F7).

    Includes the exact crossings of recall gain 0 and precision gain 0, flagged in
    ``is_crossing`` (not part of the tuple); see :func:`prtheory.oracle.prg_curve`.

    Parameters
    ----------
    precision_gain, recall_gain : ndarray of float
        The gains, correctly rounded.
    thresholds : ndarray of float
        Decreasing.
    is_crossing : ndarray of bool
        Which points are interpolated crossings.

    See Also
    --------
    prg_curve : builds it.

    Examples
    --------
    See :func:`prg_curve`.

    >>> from prtheory.metrics.curves import prg_curve
    >>> prg_curve([1, 0], [0.9, 0.1]).is_crossing.tolist()
    [True, False, False]
    """

    precision_gain: np.ndarray
    recall_gain: np.ndarray
    thresholds: np.ndarray
    is_crossing: np.ndarray
    _tuple = ("precision_gain", "recall_gain", "thresholds")


def _binary(y_true, y_score, sample_weight, pos_label):
    """Binary labels, scores and weights as arrays (curves have no ``average``), without the
    items of weight 0 (module docstring) unless every item has weight 0; and the weights as a
    float64 array when they are floats that are not all integers (for the compiled path), else
    None."""
    y, s = binary_target(y_true, y_score, pos_label)
    w = weights_array(sample_weight)
    checked = as_weights(w, y.size, floats=True)  # errors name the caller's indices
    if checked is None:
        return y, s, None, None
    floats = isinstance(checked, np.ndarray)
    keep = (checked if floats else checked.numerators) != 0
    if keep.any() and not keep.all():
        y, s, w = y[keep], s[keep], w[keep]
        checked = checked[keep] if floats else None
    return y, s, w, checked if floats else None


def _points(y_true, y_score, sample_weight, pos_label) -> OperatingPoints:
    """Exact operating points of a binary target, items of weight 0 dropped."""
    return _exact_points(*_binary(y_true, y_score, sample_weight, pos_label)[:3])


def _exact_points(y: np.ndarray, s: np.ndarray, w) -> OperatingPoints:
    """:func:`prtheory.oracle.counts.operating_points` of validated labels and scores, without
    its stable sort (the counts at a block's end do not depend on the order within the block):
    unit weights by one ``np.sort`` and binary searches, other weights by one ``argsort``."""
    if w is None:
        ranked = np.sort(s)[::-1]
        thresholds = ranked[run_starts(ranked)]
        pos_sorted = np.sort(s[y])
        ascending = thresholds[::-1]
        n = (s.size - np.searchsorted(np.sort(s), ascending, side="left"))[::-1]
        tp = (pos_sorted.size - np.searchsorted(pos_sorted, ascending, side="left"))[::-1]
        tp, fp = tp.astype(np.int64), (n - tp).astype(np.int64)
        return OperatingPoints(thresholds, tp, fp, int(y.sum()), int(y.size - y.sum()), 1)
    exact = as_weights(w, y.size)
    assert exact is not None  # w is not None here
    order = np.argsort(-s)
    nums = exact.numerators[order]
    if nums.dtype != object and nums.size and int(nums.max()) * nums.size >= 2**62:
        nums = nums.astype(object)  # a cumulative sum could pass int64
    labels = y[order]
    zero = np.zeros_like(nums)
    thresholds, pos, neg = distinct_sums(
        s[order], np.where(labels, nums, zero), np.where(labels, zero, nums)
    )
    tp, fp = np.cumsum(pos), np.cumsum(neg)
    return OperatingPoints(thresholds, tp, fp, int(tp[-1]), int(fp[-1]), exact.denominator)


def _pr_from_blocks(y, s, fw, first_point: str) -> tuple | None:
    """``(precision, recall, thresholds, tp_changes)`` by decreasing threshold, every ratio
    correctly rounded from the double-double block sums
    (:func:`prtheory.metrics.area_kernel.pr_points`); the ratios the bound cannot decide are
    rounded from exact counts. None when there is no positive weight."""
    points = area_kernel.pr_points(y, s, fw)
    if points is None:
        return None
    precision, recall, thresholds, positive, undecided = points
    if undecided.any():  # rare: within the bound of a rounding boundary
        exact = _exact_points(y, s, fw)
        at = np.flatnonzero(undecided)
        tp, fp = exact.tp[at], exact.fp[at]
        precision[at] = Ratios(tp, tp + fp).to_float()
        recall[at] = Ratios(tp, np.full_like(tp, exact.pos)).to_float()
    if first_point != "none":
        head = 1.0 if first_point == "sklearn" else precision[0]
        precision = np.concatenate(([head], precision))
        recall = np.concatenate(([0.0], recall))
    return precision, recall, thresholds, positive


def _no_positives(convention: str | None) -> None:
    if convention != "sklearn":
        raise UndefinedMetricError("recall", "y_true has no positive weight, so recall is 0/0")


def precision_recall_curve(
    y_true,
    y_score,
    *,
    sample_weight=None,
    pos_label=None,
    drop_intermediate: bool = False,
    first_point: str = "sklearn",
    convention: str | None = None,
) -> PrecisionRecallCurve:
    """Precision and recall at every distinct threshold (predict positive iff score >= t).

    ``precision = TP/(TP + FP)``, ``recall = TP/pos``, each correctly rounded (bit for bit
    scikit-learn's for unit weights, whose single division is correctly rounded too).
    ``first_point`` as in :func:`prtheory.oracle.pr_curve`. Items of weight 0 are dropped
    (module docstring), so ``TP + FP > 0`` at every threshold. With no positive weight recall is
    0/0: :class:`~prtheory.errors.UndefinedMetricError`, or with ``convention="sklearn"``
    scikit-learn's values, recall 1 and precision 0 at every threshold.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels, or labels of ``pos_label``.
    y_score : array-like of shape (n,)
        Real scores, taken exactly.
    sample_weight : array-like of shape (n,) or None
        Finite non-negative weights, taken exactly.
    pos_label : label or None
        The positive class of a target that is not 0/1.
    drop_intermediate : bool
        Drop points that change neither coordinate's run (default False, as scikit-learn).
    first_point : {"sklearn", "spark", "none"}
        What sits at recall 0 (default ``"sklearn"``).
    convention : {None, "sklearn"}
        ``"sklearn"``: scikit-learn's values with no positive weight.

    Returns
    -------
    PrecisionRecallCurve
        ``(precision, recall, thresholds)`` in scikit-learn's order.

    Raises
    ------
    InvalidInputError
        Malformed input or an unknown first point, naming the argument.
    UndefinedMetricError
        No positive weight, without ``convention="sklearn"``.

    See Also
    --------
    prtheory.oracle.pr_curve : the exact curve.
    pr_auc : areas under it.

    Examples
    --------
    Positives ranked 1st and 3rd: at the thresholds 0.7, 0.8, 0.9 (increasing, as
    scikit-learn lists them) precision is 2/3, 1/2, 1 and recall 1, 1/2, 1/2, then the first
    point (precision 1, recall 0):

    >>> from prtheory import precision_recall_curve
    >>> precision, recall, thresholds = precision_recall_curve([1, 0, 1], [0.9, 0.8, 0.7])
    >>> precision.tolist(), recall.tolist(), thresholds.tolist()
    ([0.6666666666666666, 0.5, 1.0, 1.0], [1.0, 0.5, 0.5, 0.0], [0.7, 0.8, 0.9])
    """
    check_first_point(first_point)
    y, s, w, fw = _binary(y_true, y_score, sample_weight, pos_label)
    head = int(first_point != "none")
    fast = None if fw is None else _pr_from_blocks(y, s, fw, first_point)
    if fast is not None:
        precision, recall, thresholds, changes = fast
        if drop_intermediate and thresholds.size > 2:
            keep = oracle_curves.tp_run_ends(np.cumsum(changes))
            thresholds = thresholds[keep]
            keep = np.concatenate((np.ones(head, dtype=bool), keep))
            precision, recall = precision[keep], recall[keep]
        return PrecisionRecallCurve(precision[::-1], recall[::-1], thresholds[::-1])
    pts = _exact_points(y, s, w)
    if pts.pos == 0:
        _no_positives(convention)
        k = pts.thresholds.size
        precision, recall = np.zeros(k + head), np.ones(k + head)
        if head:
            precision[0], recall[0] = 1.0, 0.0
        tp = np.zeros(k, dtype=np.int64)
    else:
        c = oracle_curves.pr_curve_of_points(pts, first_point=first_point, convention=convention)
        precision, recall, tp = c.precision.to_float(), c.recall.to_float(), c.tp.values
    thresholds = pts.thresholds
    if drop_intermediate and thresholds.size > 2:
        keep = oracle_curves.tp_run_ends(tp)
        thresholds = thresholds[keep]
        keep = np.concatenate((np.ones(head, dtype=bool), keep))
        precision, recall = precision[keep], recall[keep]
    return PrecisionRecallCurve(precision[::-1], recall[::-1], thresholds[::-1])


def _after_zero(counts: np.ndarray) -> np.ndarray:
    """``counts`` after a 0 (the empty classifier's count), in their own integer dtype."""
    return np.concatenate((np.zeros(1, dtype=counts.dtype), counts))


def _rates(counts: np.ndarray, total: int) -> np.ndarray:
    """``counts/total`` correctly rounded; NaN everywhere when ``total`` is 0 (sklearn)."""
    if total == 0:
        return np.full(counts.size, np.nan)
    return Ratios(counts, np.full_like(counts, total)).to_float()


def roc_curve(
    y_true,
    y_score,
    *,
    sample_weight=None,
    pos_label=None,
    drop_intermediate: bool = True,
    convention: str | None = None,
) -> RocCurve:
    """False and true positive rates at every distinct threshold, after the origin.

    ``fpr = FP/neg``, ``tpr = TP/pos``, correctly rounded. Items of weight 0 are dropped
    (module docstring). ``drop_intermediate`` (default True, as scikit-learn) drops points
    collinear with their neighbours (exact second differences). A class without weight makes
    its rate 0/0: :class:`~prtheory.errors.UndefinedMetricError`, or with
    ``convention="sklearn"`` that rate is NaN at every point, as scikit-learn returns it.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels, or labels of ``pos_label``.
    y_score : array-like of shape (n,)
        Real scores, taken exactly.
    sample_weight : array-like of shape (n,) or None
        Finite non-negative weights, taken exactly.
    pos_label : label or None
        The positive class of a target that is not 0/1.
    drop_intermediate : bool
        Drop collinear points (default True, as scikit-learn).
    convention : {None, "sklearn"}
        ``"sklearn"``: NaN for a rate whose class has no weight.

    Returns
    -------
    RocCurve
        ``(fpr, tpr, thresholds)`` from the origin.

    Raises
    ------
    InvalidInputError
        Malformed input, naming the argument.
    UndefinedMetricError
        A class without weight, without ``convention="sklearn"``.

    See Also
    --------
    prtheory.oracle.roc_curve : the exact curve.
    roc_auc : the area under it.
    det_curve

    Examples
    --------
    Scores 0.9 (positive), 0.8 (negative), 0.7 (positive): after the origin the points
    (FP/1, TP/2) are (0, 1/2), (1, 1/2), (1, 1); none is collinear with its neighbours.

    >>> from prtheory import roc_curve
    >>> fpr, tpr, thresholds = roc_curve([1, 0, 1], [0.9, 0.8, 0.7])
    >>> fpr.tolist(), tpr.tolist(), thresholds.tolist()
    ([0.0, 0.0, 1.0, 1.0], [0.0, 0.5, 0.5, 1.0], [inf, 0.9, 0.8, 0.7])
    """
    pts = _points(y_true, y_score, sample_weight, pos_label)
    if convention != "sklearn":
        if pts.pos == 0:
            raise UndefinedMetricError(
                "true positive rate", "y_true has no positive weight, so recall is 0/0"
            )
        if pts.neg == 0:
            raise UndefinedMetricError(
                "false positive rate", "y_true has no negative weight, so FPR is 0/0"
            )
    fp, tp, thresholds = pts.fp, pts.tp, pts.thresholds
    if drop_intermediate and fp.size > 2:
        turns = (np.diff(fp, 2) != 0) | (np.diff(tp, 2) != 0)
        keep = np.concatenate(([True], turns, [True]))
        fp, tp, thresholds = fp[keep], tp[keep], thresholds[keep]
    fp, tp = _after_zero(fp), _after_zero(tp)
    thresholds = np.concatenate(([np.inf], thresholds))
    return RocCurve(_rates(fp, pts.neg), _rates(tp, pts.pos), thresholds)


def det_curve(
    y_true, y_score, *, sample_weight=None, pos_label=None, drop_intermediate: bool = False
) -> DetCurve:
    """Detection error tradeoff: false positive and false negative rates by threshold.

    ``fpr = FP/neg`` and ``fnr = FN/pos = (pos - TP)/pos`` at every distinct threshold and at
    ``+inf`` (nothing predicted positive), correctly rounded, in scikit-learn 1.9's order and
    extent: increasing thresholds (so decreasing ``fpr``), from the last threshold where
    ``fpr`` is 0 to the first where ``fnr`` is 0. ``drop_intermediate`` drops a point whose TP
    equals both neighbours' (``fnr`` unchanged). Items of weight 0 are dropped (module
    docstring). Undefined when either class has no weight.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels, or labels of ``pos_label``.
    y_score : array-like of shape (n,)
        Real scores, taken exactly.
    sample_weight : array-like of shape (n,) or None
        Finite non-negative weights, taken exactly.
    pos_label : label or None
        The positive class of a target that is not 0/1.
    drop_intermediate : bool
        Drop points whose TP equals both neighbours' (default False).

    Returns
    -------
    DetCurve
        ``(fpr, fnr, thresholds)``.

    Raises
    ------
    InvalidInputError
        Malformed input, naming the argument.
    UndefinedMetricError
        Either class has no weight.

    See Also
    --------
    roc_curve

    Examples
    --------
    Scores 0.9 (positive), 0.8 (negative), 0.7 (positive): at the thresholds 0.7, 0.8, 0.9
    (FP, TP) is (1, 2), (1, 1), (0, 1), so fpr is 1, 1, 0 and fnr 0, 1/2, 1/2:

    >>> from prtheory import det_curve
    >>> fpr, fnr, thresholds = det_curve([1, 0, 1], [0.9, 0.8, 0.7])
    >>> fpr.tolist(), fnr.tolist(), thresholds.tolist()
    ([1.0, 1.0, 0.0], [0.0, 0.5, 0.5], [0.7, 0.8, 0.9])
    """
    pts = _points(y_true, y_score, sample_weight, pos_label)
    if pts.pos == 0 or pts.neg == 0:
        raise UndefinedMetricError(
            "detection error tradeoff curve", "y_true needs positive and negative weight"
        )
    tp, fp = _after_zero(pts.tp), _after_zero(pts.fp)
    thresholds = np.concatenate(([np.inf], pts.thresholds))
    if drop_intermediate and fp.size > 2:
        keep = oracle_curves.tp_run_ends(tp)
        tp, fp, thresholds = tp[keep], fp[keep], thresholds[keep]
    first = int(np.searchsorted(fp, fp[0], side="right")) - 1  # the last point with FP = 0
    last = int(np.searchsorted(tp, tp[-1])) + 1  # the first point with TP = pos
    fp, tp, thresholds = fp[first:last][::-1], tp[first:last][::-1], thresholds[first:last][::-1]
    fn = pts.pos - tp
    return DetCurve(_rates(fp, pts.neg), _rates(fn, pts.pos), thresholds)


def prg_curve(y_true, y_score, *, sample_weight=None, pos_label=None) -> PRGCurve:
    """Precision gain and recall gain (F5) of every point with TP > 0 and the exact crossings.

    The exact :func:`prtheory.oracle.prg_curve`, each coordinate correctly rounded. Undefined
    when either class has no weight.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels, or labels of ``pos_label``.
    y_score : array-like of shape (n,)
        Real scores, taken exactly.
    sample_weight : array-like of shape (n,) or None
        Finite non-negative weights, taken exactly.
    pos_label : label or None
        The positive class of a target that is not 0/1.

    Returns
    -------
    PRGCurve
        ``(precision_gain, recall_gain, thresholds)``, with ``is_crossing``.

    Raises
    ------
    InvalidInputError
        Malformed input, naming the argument.
    UndefinedMetricError
        Either class has no weight.

    See Also
    --------
    prtheory.oracle.prg_curve : the exact curve.
    prtheory.auprg : the area under it.

    Examples
    --------
    The exact gains of :func:`prtheory.oracle.curves.prg_curve`'s example, (precG, recG) =
    (1, 0), (0, 0), (1/2, 1), (0, 1), all exact in float64:

    >>> from prtheory.metrics.curves import prg_curve
    >>> g = prg_curve([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    >>> g.precision_gain.tolist(), g.recall_gain.tolist()
    ([1.0, 0.0, 0.5, 0.0], [0.0, 0.0, 1.0, 1.0])
    """
    y, s, w, _ = _binary(y_true, y_score, sample_weight, pos_label)
    c = oracle_curves.prg_curve(y, s, w)
    return PRGCurve(
        c.precision_gain.to_float(), c.recall_gain.to_float(), c.thresholds, c.is_crossing
    )
