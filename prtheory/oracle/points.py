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

    Parameters
    ----------
    tp, fp : int or Fraction
        True and false positive counts (weights allowed), finite and non-negative.
    convention : {None, "sklearn", "mllib"}
        The value substituted when ``TP + FP = 0``; None raises.

    Returns
    -------
    Fraction
        The precision, exactly.

    Raises
    ------
    InvalidInputError
        A count negative, non-finite or not a number.
    UndefinedMetricError
        ``TP + FP = 0`` without a convention.

    See Also
    --------
    recall, fbeta, precision_gain

    Examples
    --------
    3 of 4 predicted positives are right: 3/(3 + 1):

    >>> from prtheory.oracle.points import precision
    >>> precision(3, 1)
    Fraction(3, 4)
    >>> precision(0, 0, convention="mllib")
    Fraction(1, 1)
    """
    tp_q, fp_q = _count(tp, "tp"), _count(fp, "fp")
    if tp_q + fp_q == 0:
        return undefined(
            "precision", "no predicted positives (TP + FP = 0)", convention, _EMPTY_PRECISION
        )
    return tp_q / (tp_q + fp_q)


def recall(tp: Any, fn: Any, *, convention: str | None = None) -> Fraction:
    """``TP / (TP + FN)``; undefined when there are no positives (``TP + FN = 0``).

    Parameters
    ----------
    tp, fn : int or Fraction
        True positive and false negative counts (weights allowed), finite and non-negative.
    convention : {None, "sklearn"}
        ``"sklearn"``: 0 when ``TP + FN = 0``; None raises.

    Returns
    -------
    Fraction
        The recall, exactly.

    Raises
    ------
    InvalidInputError
        A count negative, non-finite or not a number.
    UndefinedMetricError
        ``TP + FN = 0`` without a convention.

    See Also
    --------
    precision, fbeta, recall_gain

    Examples
    --------
    2 of 5 positives found: 2/(2 + 3):

    >>> from prtheory.oracle.points import recall
    >>> recall(2, 3)
    Fraction(2, 5)
    >>> recall(0, 0, convention="sklearn")
    Fraction(0, 1)
    """
    tp_q, fn_q = _count(tp, "tp"), _count(fn, "fn")
    if tp_q + fn_q == 0:
        return undefined("recall", "no positives (TP + FN = 0)", convention, _SKLEARN)
    return tp_q / (tp_q + fn_q)


def fbeta(tp: Any, fp: Any, fn: Any, beta: Any = 1, *, convention: str | None = None) -> Fraction:
    """F-beta from counts: ``(1+beta^2) TP / ((1+beta^2) TP + FP + beta^2 FN)`` (F2, N1).

    This equals the weighted harmonic mean of precision and recall wherever both are defined and
    positive, and it is 0 when ``TP = 0`` but ``FP + FN > 0`` (the limit of the harmonic mean).
    Undefined only when ``TP + FP + FN = 0``.

    Parameters
    ----------
    tp, fp, fn : int or Fraction
        The counts (weights allowed), finite and non-negative.
    beta : int, Fraction or float
        The weight of recall, positive and finite (default 1).
    convention : {None, "sklearn"}
        ``"sklearn"``: 0 when ``TP + FP + FN = 0``; None raises.

    Returns
    -------
    Fraction
        F-beta, exactly.

    Raises
    ------
    InvalidInputError
        A count or ``beta`` out of its domain.
    UndefinedMetricError
        ``TP + FP + FN = 0`` without a convention.

    See Also
    --------
    fbeta_from_rates : the same from a precision and a recall.
    fbeta_gain : its harmonic rescaling (F8).

    Examples
    --------
    TP = 3, FP = 1, FN = 2: F1 = 2*3/(2*3 + 1 + 2) = 6/9; F2 = 5*3/(5*3 + 1 + 4*2) = 15/24:

    >>> from prtheory.oracle.points import fbeta
    >>> fbeta(3, 1, 2)
    Fraction(2, 3)
    >>> fbeta(3, 1, 2, beta=2)
    Fraction(5, 8)
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

    Parameters
    ----------
    p, r : int, Fraction or float
        A precision and a recall in [0, 1].
    beta : int, Fraction or float
        The weight of recall, positive and finite (default 1).

    Returns
    -------
    Fraction
        F-beta, exactly.

    Raises
    ------
    InvalidInputError
        ``p`` or ``r`` outside [0, 1], or ``beta`` out of its domain.

    See Also
    --------
    fbeta : the same from counts.

    Examples
    --------
    p = 3/4, r = 3/5 (the counts TP = 3, FP = 1, FN = 2):
    2 (3/4)(3/5)/(3/4 + 3/5) = (9/10)/(27/20) = 2/3, as :func:`fbeta` gives from the counts:

    >>> from fractions import Fraction
    >>> from prtheory.oracle.points import fbeta_from_rates
    >>> fbeta_from_rates(Fraction(3, 4), Fraction(3, 5))
    Fraction(2, 3)
    >>> fbeta_from_rates(0, 0)
    Fraction(0, 1)
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

    Parameters
    ----------
    x : int, Fraction or float
        The value rescaled, in [0, 1].
    pi : int, Fraction or float
        The skew (share of positives), in [0, 1].
    quantity : str
        The name the error gives the undefined value (default ``"gain"``).

    Returns
    -------
    Fraction
        ``(x - pi)/((1 - pi) x)``, exactly.

    Raises
    ------
    InvalidInputError
        ``x`` or ``pi`` outside [0, 1].
    UndefinedMetricError
        ``pi = 1`` or ``x = 0``.

    See Also
    --------
    precision_gain, recall_gain, fbeta_gain

    Examples
    --------
    x = 1/2, pi = 1/4: (1/2 - 1/4)/((3/4)(1/2)) = (1/4)/(3/8) = 2/3; x = pi gives 0 and x = 1
    gives 1 (the ends of the rescaling):

    >>> from fractions import Fraction
    >>> from prtheory.oracle.points import gain
    >>> gain(Fraction(1, 2), Fraction(1, 4))
    Fraction(2, 3)
    >>> gain(Fraction(1, 4), Fraction(1, 4)), gain(1, Fraction(1, 4))
    (Fraction(0, 1), Fraction(1, 1))
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

    Parameters
    ----------
    tp, fp, fn, tn : int or Fraction
        The four counts (weights allowed), finite and non-negative.

    Returns
    -------
    Fraction
        The precision gain, exactly.

    Raises
    ------
    InvalidInputError
        A count out of its domain.
    UndefinedMetricError
        ``TP = 0``, no negatives, or all counts 0.

    See Also
    --------
    recall_gain, fbeta_gain, gain

    Examples
    --------
    TP = 3, FP = 1, FN = 2, TN = 4: pi = 5/10 = 1/2, so pi/(1 - pi) = 1 and the gain is
    1 - FP/TP = 1 - 1/3 = 2/3:

    >>> from prtheory.oracle.points import precision_gain
    >>> precision_gain(3, 1, 2, 4)
    Fraction(2, 3)
    """
    tp, fp, fn, tn = _four(tp, fp, fn, tn)
    pi = _skew(tp, fp, fn, tn, "precision gain")
    return gain(precision(tp, fp), pi, "precision gain")


def recall_gain(tp: Any, fp: Any, fn: Any, tn: Any) -> Fraction:
    """Recall gain ``(rec - pi)/((1-pi) rec) = 1 - (pi/(1-pi)) FN/TP`` (F5, Def. 1).

    Undefined when ``TP = 0`` or when there are no negatives.

    Parameters
    ----------
    tp, fp, fn, tn : int or Fraction
        The four counts (weights allowed), finite and non-negative.

    Returns
    -------
    Fraction
        The recall gain, exactly.

    Raises
    ------
    InvalidInputError
        A count out of its domain.
    UndefinedMetricError
        ``TP = 0``, no negatives, or all counts 0.

    See Also
    --------
    precision_gain, fbeta_gain, gain

    Examples
    --------
    TP = 3, FP = 1, FN = 2, TN = 4: pi = 1/2, so the gain is 1 - FN/TP = 1 - 2/3 = 1/3:

    >>> from prtheory.oracle.points import recall_gain
    >>> recall_gain(3, 1, 2, 4)
    Fraction(1, 3)
    """
    tp, fp, fn, tn = _four(tp, fp, fn, tn)
    pi = _skew(tp, fp, fn, tn, "recall gain")
    return gain(recall(tp, fn), pi, "recall gain")


def fbeta_gain(tp: Any, fp: Any, fn: Any, tn: Any, beta: Any = 1) -> Fraction:
    """``FG_beta = (F_beta - pi)/((1-pi) F_beta) = 1 - (pi/(1-pi)) (FP + beta^2 FN)/((1+beta^2) TP)`` (F8).

    Undefined when ``TP = 0`` or when there are no negatives.

    Parameters
    ----------
    tp, fp, fn, tn : int or Fraction
        The four counts (weights allowed), finite and non-negative.
    beta : int, Fraction or float
        The weight of recall, positive and finite (default 1).

    Returns
    -------
    Fraction
        The F-beta gain, exactly.

    Raises
    ------
    InvalidInputError
        A count or ``beta`` out of its domain.
    UndefinedMetricError
        ``TP = 0``, no negatives, or all counts 0.

    See Also
    --------
    fbeta, precision_gain, recall_gain

    Examples
    --------
    TP = 3, FP = 1, FN = 2, TN = 4: pi = 1/2, so FG1 = 1 - (FP + FN)/(2 TP) = 1 - 3/6 = 1/2, the
    mean of the precision gain 2/3 and the recall gain 1/3 (F1 gain is their mean, F9):

    >>> from prtheory.oracle.points import fbeta_gain
    >>> fbeta_gain(3, 1, 2, 4)
    Fraction(1, 2)
    """
    tp, fp, fn, tn = _four(tp, fp, fn, tn)
    pi = _skew(tp, fp, fn, tn, "F-beta gain")
    return gain(fbeta(tp, fp, fn, beta), pi, "F-beta gain")


def modified_f1(tp: Any, fp: Any, fn: Any, tn: Any) -> Fraction:
    """Boyd et al.'s modified F1 (B16): 0 if ``p <= pi``, else ``2(p-pi) r / (p - pi + (1-pi) r)``.

    It is the harmonic mean of recall and the normalised precision ``(p - pi)/(1 - pi)``.
    Undefined when there are no positives (recall undefined) or no predicted positives
    (precision undefined).

    Parameters
    ----------
    tp, fp, fn, tn : int or Fraction
        The four counts (weights allowed), finite and non-negative.

    Returns
    -------
    Fraction
        Boyd et al.'s modified F1, exactly.

    Raises
    ------
    InvalidInputError
        A count out of its domain.
    UndefinedMetricError
        No positives, no predicted positives, or all counts 0.

    See Also
    --------
    fbeta : the unmodified F1.

    Examples
    --------
    TP = 3, FP = 1, FN = 2, TN = 4: pi = 1/2, p = 3/4, r = 3/5; p - pi = 1/4, so
    2 (1/4)(3/5)/(1/4 + (1/2)(3/5)) = (3/10)/(11/20) = 6/11. A precision at or below pi gives 0:

    >>> from prtheory.oracle.points import modified_f1
    >>> modified_f1(3, 1, 2, 4)
    Fraction(6, 11)
    >>> modified_f1(1, 1, 4, 4)
    Fraction(0, 1)
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
