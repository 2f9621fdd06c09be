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
from prtheory.metrics.averaging import weights_array
from prtheory.oracle import curves as oracle_curves

__all__ = [
    "PRGCurve",
    "PrecisionRecallCurve",
    "RocCurve",
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
    """

    precision: np.ndarray
    recall: np.ndarray
    thresholds: np.ndarray
    _tuple = ("precision", "recall", "thresholds")


@dataclass(frozen=True, eq=False)
class RocCurve(_Unpacks):
    """``(fpr, tpr, thresholds)`` from the origin (threshold ``+inf``), as scikit-learn's."""

    fpr: np.ndarray
    tpr: np.ndarray
    thresholds: np.ndarray
    _tuple = ("fpr", "tpr", "thresholds")


@dataclass(frozen=True, eq=False)
class PRGCurve(_Unpacks):
    """``(precision_gain, recall_gain, thresholds)`` by decreasing threshold (F5, F7).

    Includes the exact crossings of recall gain 0 and precision gain 0, flagged in
    ``is_crossing`` (not part of the tuple); see :func:`prtheory.oracle.prg_curve`.
    """

    precision_gain: np.ndarray
    recall_gain: np.ndarray
    thresholds: np.ndarray
    is_crossing: np.ndarray
    _tuple = ("precision_gain", "recall_gain", "thresholds")


def _binary(y_true, y_score, sample_weight, pos_label):
    """Binary labels, scores and weights as arrays (curves have no ``average``), without the
    items of weight 0 (module docstring) unless every item has weight 0."""
    y, s = binary_target(y_true, y_score, pos_label)
    w = weights_array(sample_weight)
    exact = as_weights(w, y.size)  # validated here, so that errors name the caller's indices
    if exact is not None:
        keep = exact.numerators != 0
        if keep.any() and not keep.all():
            y, s, w = y[keep], s[keep], w[keep]
    return y, s, w


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
    ``first_point`` as in :func:`prtheory.oracle.pr_curve`; precision where ``TP + FP = 0``
    (zero weights at the top) is undefined unless ``convention="sklearn"`` (0). No positive
    weight: :class:`~prtheory.errors.UndefinedMetricError` (scikit-learn warns and sets recall
    to 1).
    """
    y, s, w = _binary(y_true, y_score, sample_weight, pos_label)
    c = oracle_curves.pr_curve(y, s, w, first_point=first_point, convention=convention)
    precision, recall = c.precision.to_float(), c.recall.to_float()
    head = int(first_point != "none")
    thresholds = c.thresholds[head:]
    if drop_intermediate and thresholds.size > 2:
        keep = oracle_curves.tp_run_ends(c.tp.values)
        thresholds = thresholds[keep]
        keep = np.concatenate((np.ones(head, dtype=bool), keep))
        precision, recall = precision[keep], recall[keep]
    return PrecisionRecallCurve(precision[::-1], recall[::-1], thresholds[::-1])


def roc_curve(
    y_true, y_score, *, sample_weight=None, pos_label=None, drop_intermediate: bool = True
) -> RocCurve:
    """False and true positive rates at every distinct threshold, after the origin.

    ``fpr = FP/neg``, ``tpr = TP/pos``, correctly rounded; undefined when either class has no
    weight. ``drop_intermediate`` (default True, as scikit-learn) drops collinear points.
    """
    y, s, w = _binary(y_true, y_score, sample_weight, pos_label)
    c = oracle_curves.roc_curve(y, s, w)
    fpr, tpr, thresholds = c.fpr.to_float(), c.tpr.to_float(), c.thresholds
    fp, tp = c.fpr.numerators[1:], c.tpr.numerators[1:]
    if drop_intermediate and fp.size > 2:
        turns = (np.diff(fp, 2) != 0) | (np.diff(tp, 2) != 0)
        keep = np.concatenate(([True, True], turns, [True]))  # the origin, then the points
        fpr, tpr, thresholds = fpr[keep], tpr[keep], thresholds[keep]
    return RocCurve(fpr, tpr, thresholds)


def prg_curve(y_true, y_score, *, sample_weight=None, pos_label=None) -> PRGCurve:
    """Precision gain and recall gain (F5) of every point with TP > 0 and the exact crossings.

    The exact :func:`prtheory.oracle.prg_curve`, each coordinate correctly rounded. Undefined
    when either class has no weight.
    """
    y, s, w = _binary(y_true, y_score, sample_weight, pos_label)
    c = oracle_curves.prg_curve(y, s, w)
    return PRGCurve(
        c.precision_gain.to_float(), c.recall_gain.to_float(), c.thresholds, c.is_crossing
    )
