"""Per-group ranking metrics of a Spark DataFrame (one ranking per query): MAP, mean P@k, mean R-precision.

Each group's rows are shuffled to one task and evaluated by the single-machine oracle
(:mod:`prtheory.oracle`), so every per-group value is exact and follows the oracle's named
conventions (``ties=``, including ``"trec_eval"`` with a document-id column). The mean over
groups is summed exactly per partition and combined on the driver; no per-group value is
collected.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from prtheory import oracle
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle.rounding import to_float
from prtheory.oracle.summation import rational_sum
from prtheory.spark.ap import check_columns

__all__ = ["per_group"]

_METRICS = ("average_precision", "precision_at_k", "r_precision")


def _evaluate(metric: str, k: int | None, ties: str | None, convention: str | None):
    def run(item):
        key, rows = item
        rows = list(rows)
        y = np.array([r[0] for r in rows], dtype=np.float64)
        s = np.array([r[1] for r in rows], dtype=np.float64)
        opts = {} if ties is None else {"ties": ties}
        if ties == "trec_eval":
            opts["doc_ids"] = [r[2] for r in rows]
        if metric == "average_precision":
            v = oracle.average_precision(y, s, convention=convention, **opts)
        elif metric == "precision_at_k":
            v = oracle.precision_at_k(y, s, k, **opts)
        else:
            v = oracle.r_precision(y, s, **opts)
        v = Fraction(v)
        return key, v.numerator, v.denominator

    return run


def _partition_sum(rows):
    rows = list(rows)
    s = rational_sum([r[1] for r in rows], [r[2] for r in rows])
    yield s.numerator, s.denominator, len(rows)


def per_group(
    df,
    by: str,
    metric: str = "average_precision",
    label_col: str = "label",
    score_col: str = "score",
    *,
    k: int | None = None,
    ties: str | None = None,
    doc_id_col: str | None = None,
    convention: str | None = None,
):
    """Per-group exact values and their exact mean: ``(DataFrame, mean)``.

    ``metric`` is ``"average_precision"`` (the mean is MAP), ``"precision_at_k"`` (needs ``k``)
    or ``"r_precision"``. The DataFrame has columns ``by``, ``value`` (the correctly rounded
    float64) and ``exact`` (the exact rational as the string ``"n/d"``). ``mean`` is the
    correctly rounded float64 of ``(1/G) sum_g value_g`` over the ``G`` groups. ``ties`` is any
    oracle tie policy (default: the oracle function's own default, ``"group"`` for AP and
    ``"expected"`` for P@k and R-precision); ``"trec_eval"`` orders ties by ``doc_id_col`` as
    trec_eval does. A group whose AP is undefined (no positives) raises, unless ``convention``
    supplies a value (``"sklearn"``: 0).
    """
    if metric not in _METRICS:
        raise InvalidInputError("metric", f"must be one of {_METRICS}, got {metric!r}")
    if metric == "precision_at_k" and k is None:
        raise InvalidInputError("k", "precision_at_k needs a cutoff k >= 1")
    if by not in df.columns:
        raise InvalidInputError("by", f"column {by!r} not in the DataFrame {df.columns}")
    if ties == "trec_eval" and doc_id_col is None:
        raise InvalidInputError("doc_id_col", 'ties="trec_eval" needs a document-id column')
    check_columns(df, label_col, score_col, None)
    cols = [label_col, score_col] + ([doc_id_col] if doc_id_col else [])
    pairs = df.select(by, *cols).rdd.map(lambda r: (r[0], tuple(r[1:])))
    values = pairs.groupByKey().map(_evaluate(metric, k, ties, convention)).persist()
    try:
        sums = values.mapPartitions(_partition_sum).collect()
    except Exception as e:  # an executor's UndefinedMetricError arrives wrapped
        if "is undefined" in str(e):
            raise UndefinedMetricError(metric, f"in some group of {by!r}: {e}") from None
        raise
    groups = sum(c for _, _, c in sums)
    if groups == 0:
        values.unpersist()
        raise InvalidInputError("df", "has no rows (no group to average over)")
    mean = rational_sum([n for n, _, _ in sums], [d for _, d, _ in sums]) / groups
    out = values.map(lambda t: (t[0], to_float(Fraction(t[1], t[2])), f"{t[1]}/{t[2]}")).toDF(
        [by, "value", "exact"]
    )
    return out, to_float(mean)
