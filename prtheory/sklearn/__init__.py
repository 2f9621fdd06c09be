"""A drop-in for scikit-learn's ranking metrics, every number correctly rounded.

``from prtheory import sklearn as metrics`` and ``metrics.average_precision_score(...)`` (or
``precision_recall_curve``, ``roc_auc_score``, ``roc_curve``, ``auc``, ``det_curve``,
``label_ranking_average_precision_score``, ``top_k_accuracy_score``, and the displays
``PrecisionRecallDisplay``, ``RocCurveDisplay``): scikit-learn 1.9's names, signatures and
behaviour -- its input checks and exception types, its warnings and the values it returns where
a metric is undefined (0 for AP without positives, NaN for an ROC AUC with one class, recall 1
for a PR curve without positives), its plain tuples, thresholds and ``drop_intermediate`` --
with each number the exact value rounded once, computed by :mod:`prtheory.metrics`.
scikit-learn's own ``test_ranking.py`` and ``test_common.py`` run against these functions
(``tests/test_sklearn_suite.py``); the differences, each deliberate, are listed with their
reasons in ``docs/guide/sklearn.md``.

Needs scikit-learn 1.9 or later (``pip install -e '.[sklearn]' from a checkout``): its validators, warning
classes and display base classes are used.

The native API (:mod:`prtheory`) keeps its own conventions: an undefined value raises
:class:`~prtheory.errors.UndefinedMetricError`, ``±inf`` are ordinary scores, the PR curve is a
result object. The guide sets the two side by side.

Examples
--------
>>> from prtheory import sklearn as metrics
>>> metrics.average_precision_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
0.8333333333333334
>>> metrics.roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
0.75
"""

from __future__ import annotations

import importlib.util

if importlib.util.find_spec("sklearn") is None:  # pragma: no cover - depends on the environment
    raise ImportError(
        "prtheory.sklearn needs scikit-learn: pip install -e '.[sklearn]' from a checkout"
    )


from prtheory.sklearn.curves import det_curve, precision_recall_curve, roc_curve
from prtheory.sklearn.display import PrecisionRecallDisplay, RocCurveDisplay
from prtheory.sklearn.scores import (
    auc,
    average_precision_score,
    label_ranking_average_precision_score,
    roc_auc_score,
    top_k_accuracy_score,
)

__all__ = [
    "PrecisionRecallDisplay",
    "RocCurveDisplay",
    "auc",
    "average_precision_score",
    "det_curve",
    "label_ranking_average_precision_score",
    "precision_recall_curve",
    "roc_auc_score",
    "roc_curve",
    "top_k_accuracy_score",
]
