"""LightGBM's evaluation metrics: ``average_precision``, ``auc`` and ``map@k``.

The adapter builds a ``Dataset`` whose ``init_score`` is the scores (stored as float64) and a
``Booster`` with no trees, and reads ``Booster.eval_train()``: the value LightGBM reports during
training (a float64 from ``LGBM_BoosterGetEval``). Labels and weights are stored as float32
(``label_t``). ``LightGBMError`` (``Log::Fatal`` of the library's checks) is passed on as a
``ValueError``, a deliberate rejection.

* ``average_precision`` (``src/metric/binary_metric.hpp``, ``AveragePrecisionMetric``): the step
  area over the distinct scores in decreasing order, ties grouped; an item is positive iff its
  label is > 0; 1 when there is no positive (or no negative) weight.
* ``auc`` (``AUCMetric``): the Mann-Whitney sum over the same blocks, ties counting one half; 1
  when one class is missing.
* ``map@k`` (``src/metric/map_metric.hpp``, ``MapMetric``): per query (one here), items sorted
  by ``std::stable_sort`` on the scores (ties in input order), relevant iff label > 0.5,
  ``sum_ap / min(npos, k)``; 1 for a query without relevant items.
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

LIBRARY = "LightGBM"
DISTRIBUTION = "lightgbm"
MODULE = "lightgbm"
SHIMS: tuple[str, ...] = ()


def _evaluate(x: Any, metric: str, objective: str, extra: dict[str, Any]) -> float:
    """The value LightGBM reports for ``metric`` on ``x``'s labels, scores and weights."""
    import lightgbm as lgb

    n = len(x.y_true)
    params = {"objective": objective, "metric": metric, "verbosity": -1, "num_threads": 1}
    params.update(extra)
    data = lgb.Dataset(
        np.zeros((n, 1)),
        label=np.asarray(x.y_true, dtype=np.float64),
        weight=None if x.sample_weight is None else np.asarray(x.sample_weight, np.float64),
        init_score=np.asarray(x.y_score, dtype=np.float64),
        group=[n] if objective == "lambdarank" else None,
        params=params,
    )
    return float(lgb.Booster(params, data).eval_train()[0][2])


def _binary(metric: str) -> Any:
    return lambda x: _evaluate(x, metric, "binary", {})


def _map(x: Any) -> Any:
    if x.sample_weight is not None:
        return Unsupported("a query takes one weight, not one per item")
    return _evaluate(x, "map", "lambdarank", {"eval_at": [int(x.params["k"])]})


def implementations() -> list[Implementation]:
    """LightGBM's implementations of the vectors' metrics; imports the library.

    Returns
    -------
    list of Implementation
        One per function or call pattern (the module docstring lists them).

    Examples
    --------
    The labels 1, 0, 0, 1 in decreasing score order have hits at ranks 1 and 4: AP =
    (1/1 + 2/4) / 2 = 3/4 (N2). With weights 1, 1, 1, 3, recall rises by 1/4 at precision 1
    and by 3/4 at precision 4/6: 1/4 + 3/4 * 2/3 = 3/4 again; the ROC AUC is the weight of the
    (positive, negative) pairs in order over all of it: the first positive (1) is above both
    negatives (1 each), the last (3) below them, 2 / (4 * 2) = 1/4. A query takes one weight:

    >>> import numpy as np
    >>> from prtheory.conformance.adapters.lightgbm_adapter import implementations
    >>> from prtheory.conformance.metrics import Inputs
    >>> impl = {i.metric: i for i in implementations()}
    >>> y, s, w = np.array([1, 0, 0, 1]), np.array([0.8, 0.6, 0.4, 0.2]), np.array([1, 1, 1, 3.0])
    >>> impl["average_precision"].run(Inputs(y, s)), impl["average_precision"].run(Inputs(y, s, w))
    (0.75, 0.75)
    >>> impl["roc_auc"].run(Inputs(y, s, w))
    0.25
    >>> impl["ap_at_k"].run(Inputs(y, s, w, {"k": 2}))
    Unsupported(reason='a query takes one weight, not one per item')
    """
    from lightgbm.basic import LightGBMError

    return [
        replace(i, run=rejections_as_value_error(i.run, (LightGBMError,)))
        for i in _implementations()
    ]


def _implementations() -> list[Implementation]:
    return [
        Implementation(
            LIBRARY, 'metric="average_precision"', "average_precision", _binary("average_precision")
        ),
        Implementation(LIBRARY, 'metric="auc"', "roc_auc", _binary("auc")),
        Implementation(LIBRARY, 'metric="map", eval_at=[k], one query', "ap_at_k", _map),
    ]
