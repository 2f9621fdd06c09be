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
    """``mean over positives t of FPR_mid(t)`` (K1; module docstring)."""
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
    (``strict`` at the top positive)."""
    pos, neg = _classes(y, s)
    n = len(s)

    def above(values: Sequence[Fraction | int], t: Fraction | int) -> int:
        return sum(1 for u in values if (u > t if strict else u >= t))

    total = Fraction(0)
    for t in pos:
        total += Fraction(above(neg, t), len(neg)) / Fraction(above(s, t), n)
    return total / len(pos)


def expectation_auroc(y: Sequence[int], s: Sequence[Fraction | int]) -> Fraction:
    """``1 - mean over positives t of FPR_mid(t)`` (K1)."""
    return 1 - mean_fpr_mid(y, s)


def expectation_ap(
    y: Sequence[int], s: Sequence[Fraction | int], *, strict: bool = False
) -> Fraction:
    """``1 - P(y = 0) mean over positives t of FPR(t)/Q(t)`` (K2), ``>=`` or (``strict``) ``>``."""
    n_neg = sum(1 for v in y if not v)
    return 1 - Fraction(n_neg, len(y)) * mean_fpr_over_firing(y, s, strict=strict)
