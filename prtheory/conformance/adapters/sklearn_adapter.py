"""scikit-learn: ``average_precision_score``, ``precision_recall_curve`` (+ ``auc``),
``roc_auc_score`` (whole, and partial with ``max_fpr``), ``fbeta_score``, ``precision_score``,
``recall_score``.

Claimed conventions (scikit-learn's documentation): AP is the step sum over thresholds with tied
scores grouped; ``precision_recall_curve`` ends with (recall 0, precision 1) "so that the graph
starts on the y axis" (``first-point=sklearn``); ``zero_division`` defaults to 0 with a warning
(``undefined=sklearn``). The threshold metrics take predictions; this adapter predicts positive
iff ``score >= threshold``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from prtheory.conformance.adapters import (
    Implementation,
    Unsupported,
    labels_int,
    reversed_curve,
    scores_as_passed,
)

LIBRARY = "scikit-learn"
DISTRIBUTION = "scikit-learn"
MODULE = "sklearn"
SHIMS: tuple[str, ...] = ()


def _pr_curve(x: Any) -> tuple[np.ndarray, np.ndarray]:
    """``precision_recall_curve``'s precision and recall at ``x``, in increasing threshold order."""
    from sklearn.metrics import precision_recall_curve

    p, r, _ = precision_recall_curve(
        labels_int(x.y_true), scores_as_passed(x), sample_weight=x.sample_weight
    )
    return p, r


def _ap(x: Any) -> float:
    from sklearn.metrics import average_precision_score

    return float(
        average_precision_score(
            labels_int(x.y_true), scores_as_passed(x), sample_weight=x.sample_weight
        )
    )


def _roc_auc(x: Any) -> float:
    """``roc_auc_score``, with ``max_fpr`` where the input has one (the partial area)."""
    from sklearn.metrics import roc_auc_score

    m = float(x.params["max_fpr"]) if "max_fpr" in x.params else None
    return float(
        roc_auc_score(
            labels_int(x.y_true), scores_as_passed(x), sample_weight=x.sample_weight, max_fpr=m
        )
    )


def _curve(x: Any) -> dict[str, np.ndarray]:
    return reversed_curve(*_pr_curve(x))


def _trapezoid(x: Any) -> float:
    from sklearn.metrics import auc

    p, r = _pr_curve(x)
    return float(auc(r, p))


def _at_threshold(fn: Any, takes_beta: bool = False) -> Any:
    """``fn(y, score >= threshold)`` (with ``beta`` if ``takes_beta``), NaN scores declined."""

    def run(x: Any) -> Any:
        if np.isnan(x.y_score).any():
            return Unsupported("the adapter thresholds scores into predictions; NaN has none")
        y_pred = (np.asarray(x.y_score) >= x.params["threshold"]).astype(np.int64)
        extra = {"beta": float(x.params["beta"])} if takes_beta else {}
        return float(fn(labels_int(x.y_true), y_pred, sample_weight=x.sample_weight, **extra))

    return run


def implementations() -> list[Implementation]:
    """scikit-learn's implementations of the vectors' metrics; imports the library.

    Returns
    -------
    list of Implementation
        One per function or call pattern (the module docstring lists them).

    Examples
    --------
    The labels 1, 0, 0, 1 in decreasing score order have hits at ranks 1 and 4: AP =
    (1/1 + 2/4) / 2 = 3/4 (N2). With weights 1, 1, 1, 3 the recall rises by 1/4 at precision 1
    and by 3/4 at precision 4/6: 1/4 + 3/4 * 2/3 = 3/4 again. Predicting positive iff
    ``score >= 0.5`` selects the first two items, one of them a positive: precision 1/2. A NaN
    score has no prediction, and the adapter declines it:

    >>> import numpy as np
    >>> from prtheory.conformance.adapters.sklearn_adapter import implementations
    >>> from prtheory.conformance.metrics import Inputs
    >>> impl = {i.name: i for i in implementations()}
    >>> y, s = np.array([1, 0, 0, 1]), np.array([0.8, 0.6, 0.4, 0.2])
    >>> ap = impl["average_precision_score"].run
    >>> ap(Inputs(y, s)), ap(Inputs(y, s, np.array([1.0, 1.0, 1.0, 3.0])))
    (0.75, 0.75)
    >>> precision = impl["precision_score(y, score >= t)"].run
    >>> precision(Inputs(y, s, params={"threshold": 0.5}))
    0.5
    >>> precision(Inputs(y, np.array([0.8, np.nan, 0.4, 0.2]), params={"threshold": 0.5}))
    Unsupported(reason='the adapter thresholds scores into predictions; NaN has none')
    """
    from sklearn import metrics as m

    undefined = ("undefined=sklearn",)
    return [
        Implementation(LIBRARY, "average_precision_score", "average_precision", _ap, undefined),
        Implementation(
            LIBRARY, "precision_recall_curve", "pr_curve", _curve, ("first-point=sklearn",)
        ),
        Implementation(
            LIBRARY,
            "auc(recall, precision) of precision_recall_curve",
            "auc_trapezoid",
            _trapezoid,
            ("first-point=sklearn",),
        ),
        Implementation(LIBRARY, "roc_auc_score", "roc_auc", _roc_auc),
        Implementation(LIBRARY, "roc_auc_score(max_fpr=m)", "partial_roc_auc", _roc_auc),
        Implementation(
            LIBRARY,
            "fbeta_score(y, score >= t)",
            "fbeta_at_threshold",
            _at_threshold(m.fbeta_score, takes_beta=True),
            undefined,
        ),
        Implementation(
            LIBRARY,
            "precision_score(y, score >= t)",
            "precision_at_threshold",
            _at_threshold(m.precision_score),
            undefined,
        ),
        Implementation(
            LIBRARY,
            "recall_score(y, score >= t)",
            "recall_at_threshold",
            _at_threshold(m.recall_score),
            undefined,
        ),
    ]
