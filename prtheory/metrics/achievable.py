"""The area under the achievable PR curve of a ranking, correctly rounded float64 (claim D3).

The achievable PR curve (Davis & Goadrich 2006, Corollary 3.1) is the ROC convex hull of the
ranking's operating points mapped back to PR space with Davis-Goadrich interpolation along each
hull edge (:mod:`prtheory.oracle.achievable`). It dominates the PR curve of the ranking itself
(Theorem 3.2, D2), so its area is at least the Davis-Goadrich area of ``pr_auc``.
"""

from __future__ import annotations

from prtheory._labels import binary_labels
from prtheory.oracle.achievable import AchievableCurve, achievable_pr_curve_of_ranking
from prtheory.oracle.rounding import rounded

__all__ = ["achievable_pr_auc"]


def _area(curve: AchievableCurve, dps: int) -> object:
    return curve.area(dps)


def achievable_pr_auc(y_true, y_score, *, sample_weight=None, pos_label=None) -> float:
    """Area under the achievable PR curve of the ranking (module docstring), correctly rounded.

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
    float
        The correctly rounded area.

    Raises
    ------
    InvalidInputError
        Malformed input, naming the argument.
    UndefinedMetricError
        No positive weight.

    See Also
    --------
    prtheory.oracle.achievable_pr_curve_of_ranking : the exact hull.
    pr_auc : the area of the curve itself.

    Examples
    --------
    Positives at ranks 1 and 3 of 4: the operating points (FP, TP) are (0, 1), (1, 1),
    (1, 2), (2, 2); the hull from (0, 0) to (2, 2) keeps (0, 1) and (1, 2). Along the edge
    (0, 1) -> (1, 2) FP = TP - 1, so the area is 1/2 + (1/2) int_1^2 t/(2t - 1) dt
    = 3/4 + ln(3)/8 = 0.88732...

    >>> from prtheory import achievable_pr_auc
    >>> achievable_pr_auc([1, 0, 1, 0], [4, 3, 2, 1])
    0.8873265360835138
    """
    y = binary_labels(y_true, pos_label)
    curve = achievable_pr_curve_of_ranking(y, y_score, sample_weight)
    return rounded(_area, curve)
