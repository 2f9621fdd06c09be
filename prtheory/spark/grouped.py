"""Per-group ranking metrics of a Spark DataFrame (one ranking per query): MAP, mean P@k, mean R-precision.

Each group's labels and scores are packed into arrays by a native ``groupBy(by)`` (one shuffle)
and evaluated in a Python worker by the single-machine oracle (:mod:`prtheory.oracle`), so every
per-group value is exact and follows the oracle's named conventions (``ties=``, including
``"trec_eval"`` with a document-id column). A group whose value is undefined (no positives) is
marked inside the worker, not raised there; the driver then raises one
:class:`~prtheory.errors.UndefinedMetricError` naming how many groups and one of them. The mean
over groups is summed exactly per partition and combined on the driver; no per-group value is
collected.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from prtheory import oracle
from prtheory.distributed import decode_fraction, encode_fraction
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle.rounding import to_float
from prtheory.oracle.summation import rational_sum
from prtheory.spark.blocks import check_columns, functions

__all__ = ["per_group"]

_METRICS = ("average_precision", "precision_at_k", "r_precision")


def _evaluator(metric: str, k: int | None, ties: str | None, convention: str | None):
    """The per-group function run in the workers: ``(key, value, exact hex)``; undefined
    groups give ``(key, None, None)`` (a marker, so no exception crosses the process boundary)."""

    def run(row):
        key, labels, scores = row[0], row[1], row[2]
        y = np.asarray(labels, dtype=np.float64)
        s = np.asarray(scores, dtype=np.float64)
        opts = {} if ties is None else {"ties": ties}
        if ties == "trec_eval":
            opts["doc_ids"] = list(row[3])
        try:
            if metric == "average_precision":
                v = oracle.average_precision(y, s, convention=convention, **opts)
            elif metric == "precision_at_k":
                v = oracle.precision_at_k(y, s, k, **opts)
            else:
                v = oracle.r_precision(y, s, **opts)
        except UndefinedMetricError:
            return key, None, None
        v = Fraction(v)
        return key, to_float(v), encode_fraction(v)

    return run


def _partition_sum(rows):
    values, undefined, example = [], 0, None
    for key, text in rows:
        if text is None:
            undefined += 1
            example = key if example is None else example
        else:
            values.append(decode_fraction(text))
    s = rational_sum([v.numerator for v in values], [v.denominator for v in values])
    yield s.numerator, s.denominator, len(values), undefined, example


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
    or ``"r_precision"``. The DataFrame (cached: ``unpersist()`` it when done) has columns
    ``by``, ``value`` (the correctly rounded float64) and ``exact`` (the exact rational as
    hexadecimal ``"0x../0x.."``, read with :func:`prtheory.distributed.decode_fraction`; decimal
    text would be capped at 4300 digits). ``mean`` is the correctly rounded float64 of
    ``(1/G) sum_g value_g`` over the ``G`` groups. ``ties`` is any oracle tie policy (default:
    the oracle function's own, ``"group"`` for AP and ``"expected"`` for P@k and R-precision);
    ``"trec_eval"`` orders ties by ``doc_id_col`` as trec_eval does. A group whose value is
    undefined (no positives) raises :class:`~prtheory.errors.UndefinedMetricError`, unless
    ``convention`` supplies a value (``"sklearn"``: AP 0).
    """
    F = functions()
    if metric not in _METRICS:
        raise InvalidInputError("metric", f"must be one of {_METRICS}, got {metric!r}")
    if metric == "precision_at_k" and k is None:
        raise InvalidInputError("k", "precision_at_k needs a cutoff k >= 1")
    if by not in df.columns:
        raise InvalidInputError("by", f"column {by!r} not in the DataFrame {df.columns}")
    if ties == "trec_eval" and doc_id_col is None:
        raise InvalidInputError("doc_id_col", 'ties="trec_eval" needs a document-id column')
    if doc_id_col is not None and doc_id_col not in df.columns:
        raise InvalidInputError("doc_id_col", f"column {doc_id_col!r} not in {df.columns}")
    check_columns(df, label_col, score_col)
    fields = [
        F.col(label_col).cast("double").alias("y"),
        F.col(score_col).cast("double").alias("s"),
    ]
    if doc_id_col:
        fields.append(F.col(doc_id_col).cast("string").alias("d"))
    packed = df.groupBy(by).agg(F.collect_list(F.struct(*fields)).alias("b"))
    arrays = ["b.y", "b.s"] + (["b.d"] if doc_id_col else [])
    rows = packed.select(by, *arrays).rdd.map(_evaluator(metric, k, ties, convention))
    key_type = df.schema[by].dataType
    from pyspark.sql import types as T

    schema = T.StructType(
        [
            T.StructField(by, key_type),
            T.StructField("value", T.DoubleType()),
            T.StructField("exact", T.StringType()),
        ]
    )
    out = df.sparkSession.createDataFrame(rows, schema).persist()
    sums = out.select(by, "exact").rdd.mapPartitions(_partition_sum).collect()
    undefined = sum(u for *_, u, _ in sums)
    if undefined:
        out.unpersist()
        example = next(e for *_, e in sums if e is not None)
        hint = '; convention="sklearn" gives AP 0 there' if metric == "average_precision" else ""
        raise UndefinedMetricError(
            metric.replace("_", " "),
            f"{undefined} groups of {by!r} have no positives (for example {example!r}){hint}",
        )
    groups = sum(c for _, _, c, _, _ in sums)
    if groups == 0:
        out.unpersist()
        raise InvalidInputError("df", "has no rows (no group to average over)")
    mean = rational_sum([n for n, *_ in sums], [d for _, d, *_ in sums]) / groups
    return out, to_float(mean)
