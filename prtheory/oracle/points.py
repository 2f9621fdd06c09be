"""Point metrics of one confusion matrix, exactly.

Counts are ``int`` or ``Fraction`` (sums of rational sample weights; floats are taken at their
exact binary value), validated as finite and non-negative. Every result is an exact
``Fraction``; :func:`prtheory.oracle.rounding.to_float` rounds it correctly.

Notation: ``pos = TP + FN``, ``neg = FP + TN``, ``pi = pos / (pos + neg)``.

Undefined values raise :class:`~prtheory.errors.UndefinedMetricError`. For precision, recall and
F-beta, ``convention="sklearn"`` substitutes 0 exactly where scikit-learn's ``zero_division=0``
does (see :mod:`prtheory.oracle.conventions`). The gains and Boyd's modified F1 have no
library convention to copy, so they always raise.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from prtheory._input import check_beta, check_skew, check_unit, check_weighted_count
from prtheory.errors import UndefinedMetricError
from prtheory.oracle.conventions import undefined
from prtheory.oracle.rounding import exact_rational

__all__ = [
    "fbeta",
    "fbeta_from_rates",
    "fbeta_gain",
    "gain",
    "modified_f1",
    "precision",
    "precision_gain",
    "recall",
    "recall_gain",
]

_SKLEARN = {"sklearn": Fraction(0)}
_EMPTY_PRECISION = {**_SKLEARN, "mllib": Fraction(1)}


def _count(x: Any, name: str) -> Fraction:
    return exact_rational(check_weighted_count(x, name), name)


def _beta_squared(beta: Any) -> Fraction:
    return exact_rational(check_beta(beta), "beta") ** 2


def precision(tp: Any, fp: Any, *, convention: str | None = None) -> Fraction:
    """``TP / (TP + FP)``; undefined when nothing is predicted positive (``TP + FP = 0``).

    ``convention="sklearn"`` gives 0 there, ``convention="mllib"`` gives 1 (Spark MLlib's
    value for the empty classifier; :mod:`prtheory.oracle.conventions`).
    """
    tp_q, fp_q = _count(tp, "tp"), _count(fp, "fp")
    if tp_q + fp_q == 0:
        return undefined(
            "precision", "no predicted positives (TP + FP = 0)", convention, _EMPTY_PRECISION
        )
    return tp_q / (tp_q + fp_q)


def recall(tp: Any, fn: Any, *, convention: str | None = None) -> Fraction:
    """``TP / (TP + FN)``; undefined when there are no positives (``TP + FN = 0``)."""
    tp_q, fn_q = _count(tp, "tp"), _count(fn, "fn")
    if tp_q + fn_q == 0:
        return undefined("recall", "no positives (TP + FN = 0)", convention, _SKLEARN)
    return tp_q / (tp_q + fn_q)


def fbeta(tp: Any, fp: Any, fn: Any, beta: Any = 1, *, convention: str | None = None) -> Fraction:
    """F-beta from counts: ``(1+beta^2) TP / ((1+beta^2) TP + FP + beta^2 FN)`` (F2, N1).

    This equals the weighted harmonic mean of precision and recall wherever both are defined and
    positive, and it is 0 when ``TP = 0`` but ``FP + FN > 0`` (the limit of the harmonic mean).
    Undefined only when ``TP + FP + FN = 0``.
    """
    tp_q, fp_q, fn_q = _count(tp, "tp"), _count(fp, "fp"), _count(fn, "fn")
    b2 = _beta_squared(beta)
    den = (1 + b2) * tp_q + fp_q + b2 * fn_q
    if den == 0:
        return undefined("F-beta", "TP + FP + FN = 0", convention, _SKLEARN)
    return (1 + b2) * tp_q / den


def fbeta_from_rates(p: Any, r: Any, beta: Any = 1) -> Fraction:
    """F-beta of a precision and a recall: ``(1+beta^2) p r/(beta^2 p + r)`` (F2), exactly.

    0 at ``p = r = 0``, the limit of the weighted harmonic mean (and the value from counts when
    TP = 0 < FP + FN).
    """
    p_q = exact_rational(check_unit(p, "p"), "p")
    r_q = exact_rational(check_unit(r, "r"), "r")
    b2 = _beta_squared(beta)
    if p_q == 0 and r_q == 0:
        return Fraction(0)
    return (1 + b2) * p_q * r_q / (b2 * p_q + r_q)


def gain(x: Any, pi: Any, quantity: str = "gain") -> Fraction:
    """Harmonic rescaling of ``x`` from [pi, 1] onto [0, 1]: ``(x - pi)/((1 - pi) x)`` (F4, F5).

    With ``x`` a precision, recall or F-beta value this is the precision, recall or F-beta gain
    (F5, F8). Undefined at ``pi = 1`` (division by ``1 - pi``) and at ``x = 0`` (``-inf`` for
    ``pi > 0``, 0/0 for ``pi = 0``; the float64 layer returns ``-inf`` in the first case).
    """
    x_q = exact_rational(check_unit(x, "x"), "x")
    pi_q = exact_rational(check_skew(pi), "pi")
    if pi_q == 1:
        raise UndefinedMetricError(quantity, "pi = 1 (no negatives, so 1 - pi = 0)")
    if x_q == 0:
        raise UndefinedMetricError(quantity, "the rescaled value is 0 (-inf, or 0/0 at pi = 0)")
    return (x_q - pi_q) / ((1 - pi_q) * x_q)


def _skew(tp: Fraction, fp: Fraction, fn: Fraction, tn: Fraction, quantity: str) -> Fraction:
    total = tp + fp + fn + tn
    if total == 0:
        raise UndefinedMetricError(quantity, "all counts are 0, so the skew is undefined")
    return (tp + fn) / total


def _four(tp: Any, fp: Any, fn: Any, tn: Any) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    return _count(tp, "tp"), _count(fp, "fp"), _count(fn, "fn"), _count(tn, "tn")


def precision_gain(tp: Any, fp: Any, fn: Any, tn: Any) -> Fraction:
    """Precision gain ``(prec - pi)/((1-pi) prec) = 1 - (pi/(1-pi)) FP/TP`` (F5, Def. 1).

    Undefined when ``TP = 0`` or when there are no negatives.
    """
    tp, fp, fn, tn = _four(tp, fp, fn, tn)
    pi = _skew(tp, fp, fn, tn, "precision gain")
    return gain(precision(tp, fp), pi, "precision gain")


def recall_gain(tp: Any, fp: Any, fn: Any, tn: Any) -> Fraction:
    """Recall gain ``(rec - pi)/((1-pi) rec) = 1 - (pi/(1-pi)) FN/TP`` (F5, Def. 1).

    Undefined when ``TP = 0`` or when there are no negatives.
    """
    tp, fp, fn, tn = _four(tp, fp, fn, tn)
    pi = _skew(tp, fp, fn, tn, "recall gain")
    return gain(recall(tp, fn), pi, "recall gain")


def fbeta_gain(tp: Any, fp: Any, fn: Any, tn: Any, beta: Any = 1) -> Fraction:
    """``FG_beta = (F_beta - pi)/((1-pi) F_beta) = 1 - (pi/(1-pi)) (FP + beta^2 FN)/((1+beta^2) TP)`` (F8).

    Undefined when ``TP = 0`` or when there are no negatives.
    """
    tp, fp, fn, tn = _four(tp, fp, fn, tn)
    pi = _skew(tp, fp, fn, tn, "F-beta gain")
    return gain(fbeta(tp, fp, fn, beta), pi, "F-beta gain")


def modified_f1(tp: Any, fp: Any, fn: Any, tn: Any) -> Fraction:
    """Boyd et al.'s modified F1 (B16): 0 if ``p <= pi``, else ``2(p-pi) r / (p - pi + (1-pi) r)``.

    It is the harmonic mean of recall and the normalised precision ``(p - pi)/(1 - pi)``.
    Undefined when there are no positives (recall undefined) or no predicted positives
    (precision undefined).
    """
    tp_q, fp_q, fn_q, tn_q = _four(tp, fp, fn, tn)
    pos = tp_q + fn_q
    if pos == 0:
        raise UndefinedMetricError("modified F1", "there are no positives (recall undefined)")
    if tp_q + fp_q == 0:
        raise UndefinedMetricError("modified F1", "no predicted positives (precision undefined)")
    pi, p, r = _skew(tp_q, fp_q, fn_q, tn_q, "modified F1"), tp_q / (tp_q + fp_q), tp_q / pos
    if p <= pi:
        return Fraction(0)
    return 2 * (p - pi) * r / (p - pi + (1 - pi) * r)
