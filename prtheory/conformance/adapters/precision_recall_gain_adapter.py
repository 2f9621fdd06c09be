"""The PyPI package ``precision-recall-gain`` (crypdick/precision-recall-gain):
``precision_recall_gain_curve`` and ``area_under_precision_recall_gain_score``.

Shim: ``precision_recall_gain.prg`` imports ``sklearn.metrics._ranking._binary_clf_curve``, a
private function that current scikit-learn no longer has (it became the public
``confusion_matrix_at_thresholds`` in 1.8), so the import fails. The adapter provides
``_binary_clf_curve(y_true, y_score, pos_label, sample_weight) -> (fps, tps, thresholds)`` built
on ``confusion_matrix_at_thresholds`` for the duration of the import only
(``unittest.mock.patch.object(..., create=True)``); scikit-learn is left unchanged.

Claimed conventions: the docstrings copy scikit-learn's (a PR-curve-like gain curve ending in a
first point; the area is the step sum).
"""

from __future__ import annotations

from typing import Any
from unittest import mock

import numpy as np

from prtheory.conformance.adapters import Implementation, labels_int, no_weights

LIBRARY = "precision-recall-gain"
DISTRIBUTION = "precision-recall-gain"
MODULE = "precision_recall_gain"
SHIMS = (
    "sklearn.metrics._ranking._binary_clf_curve (removed from scikit-learn) provided during "
    "the import of precision_recall_gain.prg, built on sklearn's confusion_matrix_at_thresholds",
)


def _binary_clf_curve(
    y_true: Any, y_score: Any, pos_label: Any = None, sample_weight: Any = None
) -> Any:
    from sklearn.metrics import confusion_matrix_at_thresholds

    _, fps, _, tps, thresholds = confusion_matrix_at_thresholds(
        y_true, y_score, pos_label=pos_label, sample_weight=sample_weight
    )
    return fps, tps, thresholds


def _module() -> Any:
    import sklearn.metrics._ranking as ranking

    if hasattr(ranking, "_binary_clf_curve"):
        import precision_recall_gain.prg as prg
    else:
        with mock.patch.object(ranking, "_binary_clf_curve", _binary_clf_curve, create=True):
            import precision_recall_gain.prg as prg
    return prg


def implementations() -> list[Implementation]:
    """precision-recall-gain's implementations of the vectors' metrics; imports the library.

    Returns
    -------
    list of Implementation
        One per function or call pattern (the module docstring lists them).

    Examples
    --------
    The labels 1, 1, 0 in decreasing score order: prevalence pi = 2/3, and the curve up to full
    recall has the points (R, P) = (1/2, 1), (1, 1). The library takes ``pi`` as
    ``tps[-1] / fps[-1]``, the odds 2/1 (the mechanism ``prg-skew=odds``), so the recall gain
    of R = 1/2 is (1/2 - 2) / ((1 - 2) * 1/2) = 3 where (R - pi) / ((1 - pi) R) (F5) is
    (1/2 - 2/3) / (1/3 * 1/2) = -1. Its appended point at recall 0 gets the recall gain
    (0 - 2) / ((1 - 2) * 0) = -2 / -0.0 = +inf, and the step sum ``-sum(diff(RG) * PG)`` is
    -inf where the oracle's AUPRG is 1. No sample weights:

    >>> import numpy as np
    >>> from prtheory.conformance.adapters.precision_recall_gain_adapter import implementations
    >>> from prtheory.conformance.metrics import Inputs, evaluate
    >>> impl = {i.metric: i for i in implementations()}
    >>> x = Inputs(np.array([1, 1, 0]), np.array([0.9, 0.6, 0.3]))
    >>> {k: v.tolist() for k, v in impl["prg_curve"].run(x).items()}
    {'recall_gain': [3.0, 1.0], 'precision_gain': [1.0, 1.0]}
    >>> impl["auprg"].run(x), evaluate("auprg", x)
    (-inf, Fraction(1, 1))
    >>> impl["auprg"].run(Inputs(x.y_true, x.y_score, np.ones(3)))
    Unsupported(reason='the API takes no sample weights')
    """
    prg = _module()

    def curve(x: Any) -> dict[str, np.ndarray]:
        pg, rg = prg.precision_recall_gain_curve(labels_int(x.y_true), np.asarray(x.y_score))
        # returned like sklearn's PR curve: increasing thresholds, then a final first point
        return {"recall_gain": np.asarray(rg)[::-1][1:], "precision_gain": np.asarray(pg)[::-1][1:]}

    def auprg(x: Any) -> float:
        return float(
            prg.area_under_precision_recall_gain_score(labels_int(x.y_true), np.asarray(x.y_score))
        )

    return [
        Implementation(LIBRARY, "precision_recall_gain_curve", "prg_curve", no_weights(curve)),
        Implementation(
            LIBRARY, "area_under_precision_recall_gain_score", "auprg", no_weights(auprg)
        ),
    ]
