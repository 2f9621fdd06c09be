"""McDermott et al.'s expectation forms of AUROC and AUPRC on a finite sample (claims K1, K2).

Written from the statements, item by item over Python lists (no sorting, no cumulative counts),
so that they are a second route to :func:`prtheory.oracle.roc_auc` and
:func:`prtheory.oracle.average_precision`. With ``P`` positives, ``N > 0`` negatives and
``n = P + N`` items, for a positive scored ``t``:

* ``FPR_mid(t) = (#{negatives > t} + #{negatives = t}/2) / N``, the false positive rate at
  ``t`` with ties counted one half, as in the Wilcoxon-Mann-Whitney statistic (K1);
* ``FPR_ge(t) = #{negatives >= t} / N`` and ``Q_ge(t) = #{items >= t} / n``, the false positive
  rate and the firing rate of the threshold ``score >= t`` (K2); ``Q_gt`` counts ``> t``.

Then ``AUROC = 1 - mean_t FPR_mid(t)`` (K1) and
``AP = 1 - (N/n) mean_t FPR_ge(t)/Q_ge(t)`` (K2), means over the positives. The notebook's
Theorem 1 writes the firing rate with ``>``: :func:`expectation_ap` with ``strict=True`` is that
form, which divides by 0 at the top-scored positive and otherwise disagrees with AP.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

__all__ = ["expectation_ap", "expectation_auroc", "mean_fpr_mid", "mean_fpr_over_firing"]


def _classes(y: Sequence[int], s: Sequence[Fraction | int]) -> tuple[list, list]:
    pos = [t for yi, t in zip(y, s, strict=True) if yi]
    neg = [t for yi, t in zip(y, s, strict=True) if not yi]
    if not pos or not neg:
        raise ValueError(
            "y: the expectation forms need both classes (FPR is 0/0 without negatives)"
        )
    return pos, neg


def mean_fpr_mid(y: Sequence[int], s: Sequence[Fraction | int]) -> Fraction:
    """``mean over positives t of FPR_mid(t)`` (K1; module docstring).

    Parameters
    ----------
    y : sequence of int
        Labels; both classes present.
    s : sequence of Fraction or int
        Scores.

    Returns
    -------
    Fraction
        The mean.

    Raises
    ------
    ValueError
        A class is missing.

    Examples
    --------
    ``y = [1, 0, 1, 0]``, ``s = [4, 3, 2, 1]``: positives at 4 and 2, negatives at 3 and 1.
    At 4 no negative is higher (0); at 2 one of two is (1/2); mean 1/4:

    >>> from prtheory.theory.mcdermott2024.forms import mean_fpr_mid
    >>> mean_fpr_mid([1, 0, 1, 0], [4, 3, 2, 1])
    Fraction(1, 4)
    """
    pos, neg = _classes(y, s)
    total = Fraction(0)
    for t in pos:
        above = sum(1 for u in neg if u > t)
        tied = sum(1 for u in neg if u == t)
        total += Fraction(2 * above + tied, 2 * len(neg))
    return total / len(pos)


def mean_fpr_over_firing(
    y: Sequence[int], s: Sequence[Fraction | int], *, strict: bool = False
) -> Fraction:
    """``mean over positives t of FPR(t)/Q(t)`` with ``>=`` in both counts, or ``>`` with
    ``strict=True`` (the notebook's text); ``ZeroDivisionError`` when a firing rate is 0
    (``strict`` at the top positive).

    Parameters
    ----------
    y : sequence of int
        Labels; both classes present.
    s : sequence of Fraction or int
        Scores.
    strict : bool
        Count ``>`` instead of ``>=``.

    Returns
    -------
    Fraction
        The mean.

    Raises
    ------
    ValueError
        A class is missing.
    ZeroDivisionError
        A firing rate is 0.

    Examples
    --------
    ``y = [1, 0, 1, 0]``, ``s = [4, 3, 2, 1]``: positives at 4 and 2, negatives at 3 and 1.
    At 4: ``FPR = 0/2``, ``Q = 1/4``, ratio 0; at 2: ``FPR = 1/2``, ``Q = 3/4``, ratio 2/3;
    mean 1/3:

    >>> from prtheory.theory.mcdermott2024.forms import mean_fpr_over_firing
    >>> mean_fpr_over_firing([1, 0, 1, 0], [4, 3, 2, 1])
    Fraction(1, 3)
    """
    pos, neg = _classes(y, s)
    n = len(s)

    def above(values: Sequence[Fraction | int], t: Fraction | int) -> int:
        return sum(1 for u in values if (u > t if strict else u >= t))

    total = Fraction(0)
    for t in pos:
        total += Fraction(above(neg, t), len(neg)) / Fraction(above(s, t), n)
    return total / len(pos)


def expectation_auroc(y: Sequence[int], s: Sequence[Fraction | int]) -> Fraction:
    """``1 - mean over positives t of FPR_mid(t)`` (K1).

    Parameters
    ----------
    y : sequence of int
        Labels; both classes present.
    s : sequence of Fraction or int
        Scores.

    Returns
    -------
    Fraction
        AUROC.

    Raises
    ------
    ValueError
        A class is missing.

    Examples
    --------
    ``y = [1, 0, 1, 0]``, ``s = [4, 3, 2, 1]``: positives at 4 and 2, negatives at 3 and 1.
    ``1 - 1/4 = 3/4``, the share of (positive, negative) pairs ordered right (3 of 4):

    >>> from prtheory.theory.mcdermott2024.forms import expectation_auroc
    >>> expectation_auroc([1, 0, 1, 0], [4, 3, 2, 1])
    Fraction(3, 4)
    >>> expectation_auroc([1, 1], [2, 1])
    Traceback (most recent call last):
    ...
    ValueError: y: the expectation forms need both classes (FPR is 0/0 without negatives)
    """
    return 1 - mean_fpr_mid(y, s)


def expectation_ap(
    y: Sequence[int], s: Sequence[Fraction | int], *, strict: bool = False
) -> Fraction:
    """``1 - P(y = 0) mean over positives t of FPR(t)/Q(t)`` (K2), ``>=`` or (``strict``) ``>``.

    Parameters
    ----------
    y : sequence of int
        Labels; both classes present.
    s : sequence of Fraction or int
        Scores.
    strict : bool
        The notebook's ``>`` (divides by 0 at the top positive).

    Returns
    -------
    Fraction
        AP (with ``>=``).

    Raises
    ------
    ValueError
        A class is missing.
    ZeroDivisionError
        ``strict``: nothing scores above the top positive.

    Examples
    --------
    ``y = [1, 0, 1, 0]``, ``s = [4, 3, 2, 1]``: positives at 4 and 2, negatives at 3 and 1.
    ``1 - (2/4)(1/3) = 5/6``, the AP of ``[1, 0, 1, 0]`` (``(1 + 2/3)/2``):

    >>> from prtheory.theory.mcdermott2024.forms import expectation_ap
    >>> expectation_ap([1, 0, 1, 0], [4, 3, 2, 1])
    Fraction(5, 6)
    >>> expectation_ap([1, 0, 1, 0], [4, 3, 2, 1], strict=True)
    Traceback (most recent call last):
    ...
    ZeroDivisionError: Fraction(0, 0)
    """
    n_neg = sum(1 for v in y if not v)
    return 1 - Fraction(n_neg, len(y)) * mean_fpr_over_firing(y, s, strict=strict)
