"""CatBoost's evaluation metrics through ``catboost.utils.eval_metric``: ``PRAUC``, ``AUC``,
``MAP:top=k`` and ``PrecisionAt:top=k``.

``eval_metric(label, approx, metric, weight=None, group_id=None)`` evaluates a metric on raw
predictions (``approx``, float64) as training does (``catboost/libs/metrics/metric.cpp``).
Labels and weights are stored as float32. ``CatBoostError`` (raised by the library's
``CB_ENSURE`` input checks) is passed on as a ``ValueError``, a deliberate rejection.

* ``PRAUC`` (``TPRAUCMetric::Eval``): trapezoids from the threshold below every item up to the
  point (0, 1), as scikit-learn's ``auc(recall, precision)`` (the library's unit test,
  ``catboost/libs/metrics/ut/pr_auc_ut.cpp``, checks it against that: declared
  ``first-point=sklearn``), but with neighbouring scores closer than 1e-8 tied and equal infinite
  scores never tied (each one an operating point, in reverse input order): the mechanism
  ``catboost-prauc``, emulated by :func:`prtheory.conformance.gbdt_models.catboost_prauc`.
* ``AUC`` (``TAUCMetric``, ``CalcBinClassAuc`` in ``auc.cpp``): the Mann-Whitney statistic, ties
  counting one half; labels must lie in [0, 1].
* ``MAP:top=k``, ``PrecisionAt:top=k`` (``precision_recall_at_k.cpp``): per group (one here).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from prtheory.conformance.adapters import (
    Implementation,
    Unsupported,
    rejections_as_value_error,
)

LIBRARY = "CatBoost"
DISTRIBUTION = "catboost"
MODULE = "catboost"
SHIMS: tuple[str, ...] = ()


def _evaluate(x: Any, metric: str, group: bool) -> float:
    """``eval_metric``'s value of ``metric`` on ``x`` (one group of every item if ``group``)."""
    from catboost.utils import eval_metric

    n = len(x.y_true)
    (value,) = eval_metric(
        np.asarray(x.y_true, dtype=np.float64),
        np.asarray(x.y_score, dtype=np.float64),
        metric,
        weight=None if x.sample_weight is None else np.asarray(x.sample_weight, np.float64),
        group_id=np.zeros(n, dtype=np.int64) if group else None,
        thread_count=1,
    )
    return float(value)


def _run(metric: str, group: bool = False) -> Any:
    """An implementation's ``run`` for ``metric`` (``{k}`` filled from the vector)."""

    def run(x: Any) -> Any:
        if group and x.sample_weight is not None:
            return Unsupported("a group's metric takes group weights, not one per item")
        return _evaluate(x, metric.format(**x.params), group)

    return run


def implementations() -> list[Implementation]:
    """CatBoost's implementations of the vectors' metrics; imports the library.

    Returns
    -------
    list of Implementation
        One per function or call pattern (the module docstring lists them).

    Examples
    --------
    The labels 1, 0, 0, 1 in decreasing score order. ``PRAUC`` is scikit-learn's trapezoid
    area through (0, 1), (1/2, 1), (1/2, 1/2), (1/2, 1/3), (1, 1/2): 1/2 * 1 +
    1/2 * (1/3 + 1/2) / 2 = 17/24, which is not a float64 number: the value is within 4 of the
    2**-53 steps of float64 in [1/2, 1) (1/3 and the sums round). ``MAP:top=2``: the hit at rank
    1 has precision 1, over min(k, 2 positives) = 2: 1/2. A group takes group weights, and
    labels outside [0, 1] are the library's own rejection of an ``AUC``:

    >>> import numpy as np
    >>> from prtheory.conformance.adapters.catboost_adapter import implementations
    >>> from prtheory.conformance.metrics import Inputs
    >>> impl = {i.metric: i for i in implementations()}
    >>> x = Inputs(np.array([1, 0, 0, 1]), np.array([0.8, 0.6, 0.4, 0.2]), params={"k": 2})
    >>> abs(impl["auc_trapezoid"].run(x) - 17 / 24) < 4 * 2**-53
    True
    >>> impl["ap_at_k"].run(x)
    0.5
    >>> impl["ap_at_k"].run(Inputs(x.y_true, x.y_score, np.ones(4), {"k": 2}))
    Unsupported(reason="a group's metric takes group weights, not one per item")
    >>> impl["roc_auc"].run(Inputs(np.array([2, 0]), np.array([0.5, 0.25])))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    prtheory.conformance.adapters.LibraryRejection: CatBoostError: ...in the segment [0, 1]...
    """
    from catboost import CatBoostError

    return [
        replace(i, run=rejections_as_value_error(i.run, (CatBoostError,)))
        for i in _implementations()
    ]


def _implementations() -> list[Implementation]:
    return [
        Implementation(
            LIBRARY,
            'eval_metric(..., "PRAUC")',
            "auc_trapezoid",
            _run("PRAUC"),
            conventions=("first-point=sklearn",),
            note="checked against sklearn.metrics.auc(recall, precision) in CatBoost's "
            "catboost/libs/metrics/ut/pr_auc_ut.cpp: the curve starts at (0, 1)",
        ),
        Implementation(LIBRARY, 'eval_metric(..., "AUC")', "roc_auc", _run("AUC")),
        Implementation(
            LIBRARY,
            'eval_metric(..., "MAP:top=k"), one group',
            "ap_at_k",
            _run("MAP:top={k}", True),
        ),
        Implementation(
            LIBRARY,
            'eval_metric(..., "PrecisionAt:top=k"), one group',
            "precision_at_k",
            _run("PrecisionAt:top={k}", True),
        ),
    ]
