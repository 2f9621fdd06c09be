"""XGBoost's evaluation metrics: ``aucpr``, ``auc``, ``map@k`` and ``pre@k``.

XGBoost evaluates a metric on a ``DMatrix`` during training (``evals=[(dvalid, "valid")]``) and
prints it, and ``evals_result`` holds the printed numbers. The adapter builds a ``DMatrix`` whose
``base_margin`` is the scores and a ``Booster`` with no trees, so that the prediction is the
scores themselves (stored as float32, as every ``DMatrix`` stores them; the objective is
``binary:logitraw``, which checks that labels lie in [0, 1] and passes the margins to the metric
unchanged, or ``rank:map`` with a query group), and reads
``Booster.eval``'s line, ``[0]\\tdata-aucpr:0.71110019498956989``: what ``xgb.train`` prints and
records. ``Learner::EvalOneIter`` (``src/learner.cc``) writes it with
``precision(max_digits10)`` in fixed notation, 17 digits after the point.

* ``aucpr`` (``src/metric/auc.cc``, ``BinaryPRAUC``; ``detail::CalcDeltaPRAUC`` in ``auc.h``,
  citing Keilwagen et al. 2014): Davis-Goadrich interpolation between the points of the scores
  sorted in decreasing order, from TP = FP = 0, in float64 logarithms. With a query group
  (``set_group``) the ranking path (``RankingAUC<false>``) computes it per group.
* ``auc`` (``BinaryROCAUC``): trapezoids of the ROC curve. With a query group,
  ``GroupRankingROC`` counts pairs instead.
* ``map@k``, ``pre@k`` (``src/metric/rank_metric.cc``, ``EvalMAPScore``, ``EvalPrecision``): per
  query group (one here), items sorted by a stable sort on the float32 scores.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from prtheory.conformance.adapters import Implementation, Unsupported, installed_distribution

LIBRARY = "XGBoost"
#: xgboost-cpu (the conformance extra's) or xgboost, whichever is installed
DISTRIBUTION = installed_distribution("xgboost-cpu", "xgboost")
MODULE = "xgboost"
SHIMS: tuple[str, ...] = ()
#: the ranking AUC visits all n(n - 1)/2 pairs of a group: 5e11 for the 10^6-item vectors
PAIRWISE_LIMIT = 10_000


def _evaluate(x: Any, metric: str, group: bool, objective: str) -> float:
    """The number XGBoost prints for ``metric`` on ``x``'s labels and scores."""
    import xgboost as xgb

    n = len(x.y_true)
    d = xgb.DMatrix(
        np.zeros((n, 1)),
        label=np.asarray(x.y_true, dtype=np.float64),
        weight=None if x.sample_weight is None else np.asarray(x.sample_weight, np.float64),
        base_margin=np.asarray(x.y_score, dtype=np.float64),
        nthread=1,  # one thread: a pool of threads per DMatrix costs 0.2-0.5 s on a busy machine
    )
    if group:
        d.set_group([n])
    params = {"objective": objective, "eval_metric": metric, "nthread": 1}
    line = xgb.Booster(params, [d]).eval(d, "data")
    return float(line.rsplit(":", 1)[1])


def _run(name: str, group: bool = False, objective: str = "binary:logitraw") -> Any:
    """An implementation's ``run`` for metric ``name`` (``{k}`` filled from the vector)."""

    def run(x: Any) -> Any:
        if group and x.sample_weight is not None:
            return Unsupported("a query group takes one weight for the group, not per item")
        if group and name == "auc" and len(x.y_true) > PAIRWISE_LIMIT:
            return Unsupported(
                f"the ranking AUC counts every pair (GroupRankingROC): not run beyond "
                f"{PAIRWISE_LIMIT} items"
            )
        return _evaluate(x, name.format(**x.params), group, objective)

    return run


def implementations() -> list[Implementation]:
    """XGBoost's implementations of the vectors' metrics; imports the library.

    Returns
    -------
    list of Implementation
        One per function or call pattern (the module docstring lists them).

    Examples
    --------
    The labels 1, 0, 0, 1 in decreasing score order. ``aucpr``: the first positive takes recall
    from 0 to 1/2 at precision 1 (1/2); between the third item and the last TP goes from 1 to 2
    while FP stays 2, so the interpolated precision is ``tp / (tp + 2)`` and the segment adds
    ``(1/2) * integral from 1 to 2 of tp / (tp + 2) dtp = (1 - 2 ln(4/3)) / 2``: in all
    1 - ln(4/3) = 0.71232. Float64 numbers in [1/2, 1) are 2**-53 apart; a handful of float64
    operations (logarithms, divisions, a sum) keep the value within 8 of those steps, and the 17
    printed digits give back the float64 computed. ``pre@2``: one of the top two is relevant,
    1/2. A query group takes one weight, not one per item:

    >>> import math
    >>> import numpy as np
    >>> from prtheory.conformance.adapters.xgboost_adapter import implementations
    >>> from prtheory.conformance.metrics import Inputs
    >>> impl = {i.name: i for i in implementations()}
    >>> x = Inputs(np.array([1, 0, 0, 1]), np.array([0.8, 0.6, 0.4, 0.2]), params={"k": 2})
    >>> abs(impl['eval_metric="aucpr"'].run(x) - (1 - math.log(4 / 3))) < 8 * 2**-53
    True
    >>> precision_at_k = impl['eval_metric="pre@k", one query group'].run
    >>> precision_at_k(x)
    0.5
    >>> precision_at_k(Inputs(x.y_true, x.y_score, np.ones(4), {"k": 2}))
    Unsupported(reason='a query group takes one weight for the group, not per item')
    """
    import xgboost  # noqa: F401  (fails here, not per vector, when missing)

    claims: tuple[str, ...] = ()  # XGBoost documents no convention of these metrics
    return [
        Implementation(LIBRARY, 'eval_metric="aucpr"', "auc_davis_goadrich", _run("aucpr"), claims),
        Implementation(
            LIBRARY,
            'eval_metric="aucpr", one query group',
            "auc_davis_goadrich",
            _run("aucpr", group=True, objective="rank:map"),
            claims,
        ),
        Implementation(LIBRARY, 'eval_metric="auc"', "roc_auc", _run("auc"), claims),
        Implementation(
            LIBRARY,
            'eval_metric="auc", one query group',
            "roc_auc",
            _run("auc", group=True, objective="rank:map"),
            claims,
        ),
        Implementation(
            LIBRARY,
            'eval_metric="map@k", one query group',
            "ap_at_k",
            _run("map@{k}", group=True, objective="rank:map"),
            claims,
        ),
        Implementation(
            LIBRARY,
            'eval_metric="pre@k", one query group',
            "precision_at_k",
            _run("pre@{k}", group=True, objective="rank:map"),
            claims,
        ),
    ]
