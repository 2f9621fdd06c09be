"""McDermott et al.'s expectation forms (claims K1, K2) as a second route to the oracle's AUROC and
average precision, ties included, and the notebook's strict form as a mutant that must fail."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given

from prtheory._testing.strategies import rankings
from prtheory.oracle import average_precision, roc_auc
from prtheory.theory.mcdermott2024.forms import expectation_ap, expectation_auroc


@given(rankings(max_n=10))
def test_auroc_is_one_minus_the_mean_fpr_at_the_positives(ranking):
    y, s = ranking
    assert expectation_auroc(y, s) == roc_auc(y, s)


@given(rankings(max_n=10))
def test_ap_is_one_minus_the_weighted_mean_fpr_over_the_firing_rate(ranking):
    y, s = ranking  # step AP with tied scores grouped (scikit-learn's): counts with >=
    assert expectation_ap(y, s) == average_precision(y, s)


def test_by_hand():
    # y = 1,0,1 at scores 3,2,1: FPR_mid is 0 and 1/1 at the positives: AUROC = 1 - 1/2 = 1/2.
    # Firing rates 1/3 and 3/3, FPR_ge 0 and 1: AP = 1 - (1/3)(0 + 1/1)/2 = 5/6 = (1 + 2/3)/2.
    assert expectation_auroc([1, 0, 1], [3, 2, 1]) == Fraction(1, 2)
    assert expectation_ap([1, 0, 1], [3, 2, 1]) == Fraction(5, 6)
    # a tie of one positive and one negative counts the pair one half: AUROC = 1/2
    assert expectation_auroc([1, 0], [1, 1]) == Fraction(1, 2)


def test_the_strict_form_is_not_ap():
    """The notebook's text writes P(p > p+): on a sample that divides by 0 at the top positive,
    and where it does not (a negative on top) it gives another value."""
    with pytest.raises(ZeroDivisionError):
        expectation_ap([1, 0, 1], [3, 2, 1], strict=True)
    # negative on top: at both positives FPR_gt = 1/1; the firing rates with > are 1/3 and 2/3:
    # 1 - (1/3)(3 + 3/2)/2 = 1/4, while AP = (1/2 + 2/3)/2 = 7/12
    assert expectation_ap([0, 1, 1], [3, 2, 1], strict=True) == Fraction(1, 4)
    assert average_precision([0, 1, 1], [3, 2, 1]) == Fraction(7, 12)
