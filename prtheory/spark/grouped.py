"""Per-group ranking metrics of a Spark DataFrame (one ranking per query): MAP, mean P@k, mean R-precision.

One native aggregation first checks the columns, the group keys (none null) and, for AP and
R-precision, the groups without positives (:func:`prtheory.distributed.grouped.check_groups`:
raised, or valued by ``convention``, before any Python worker runs). Then each group's labels
and scores are packed into arrays by a native ``groupBy(by)`` (one shuffle) and evaluated in a
Python worker by the single-machine oracle (:func:`prtheory.distributed.grouped.evaluate_batches`),
so every per-group value is exact and follows the oracle's named conventions (``ties=``,
including ``"trec_eval"`` with a document-id column). A group the oracle rejects (duplicate
document ids) is marked in the worker and raised on the driver as
:class:`~prtheory.errors.InvalidInputError` naming the group key. The mean over groups is
summed exactly per partition and combined on the driver; no per-group value is collected.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from prtheory.distributed import decode_fraction, encode_fraction
from prtheory.distributed.grouped import (
    check_arguments,
    check_groups,
    evaluate_batches,
    evaluator,
    exact_mean,
    group_error,
)
from prtheory.oracle.rounding import to_float
from prtheory.oracle.summation import rational_sum
from prtheory.spark.blocks import (
    PIECES_PER_CORE,
    bad_label_score,
    column,
    functions,
    raise_on_bad,
    session_cores,
)

__all__ = ["per_group"]

#: One row per partition of the per-group values (:func:`_partition_sums`): name, Spark type.
_SUM_FIELDS = (
    ("sum", "string"),
    ("groups", "long"),
    ("error_key", "string"),
    ("error", "string"),
)
_SUMS = ", ".join(f"{name} {kind}" for name, kind in _SUM_FIELDS)


def _partition_sums(inputs):
    """``mapInArrow`` function over the groups' ``(key, exact, error)``: per partition, the
    exact sum of its groups' values (hexadecimal), how many groups it adds, and the key (as
    ``repr``) and message of one group the oracle rejected."""
    import pyarrow as pa

    values, error_key, error = [], None, None
    for batch in inputs:
        keys, texts, errors = (batch.column(i).to_pylist() for i in range(3))
        for key, text, message in zip(keys, texts, errors, strict=True):
            if message is not None:
                if error is None:
                    error_key, error = repr(key), message
            else:
                values.append(decode_fraction(text))
    s = rational_sum([v.numerator for v in values], [v.denominator for v in values])
    yield pa.RecordBatch.from_pydict(
        {"sum": [encode_fraction(s)], "groups": [len(values)], "error_key": [error_key],
         "error": [error]},
        schema=pa.schema(
            [
                (name, {"string": pa.string(), "long": pa.int64()}[kind])
                for name, kind in _SUM_FIELDS
            ]
        ),
    )  # fmt: skip


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
    exact: bool = False,
    score_index: int | None = None,
) -> tuple[Any, float | Fraction]:
    """Per-group exact values and their mean: ``(DataFrame, mean)``.

    ``metric`` is ``"average_precision"`` (the mean is MAP), ``"precision_at_k"`` (needs ``k``)
    or ``"r_precision"``. The DataFrame (cached: ``unpersist()`` it when done) has columns
    ``by``, ``value`` (the correctly rounded float64) and ``exact`` (the exact rational as
    hexadecimal ``"0x../0x.."``, read with :func:`prtheory.distributed.decode_fraction`; decimal
    text would be capped at 4300 digits). ``mean`` is ``(1/G) sum_g value_g`` over the ``G``
    groups: the correctly rounded float64, or with ``exact=True`` the exact Fraction. ``ties``
    is any oracle tie policy (default: the oracle function's own, ``"group"`` for AP and
    ``"expected"`` for P@k and R-precision); ``"trec_eval"`` orders ties by ``doc_id_col`` as
    trec_eval does. Null group keys are rejected (``by``). Groups without positives make AP and
    R-precision undefined (:class:`~prtheory.errors.UndefinedMetricError`, raised before the
    evaluation), unless ``convention="sklearn"`` values them 0. A score column of MLlib vectors
    or arrays is read at ``score_index``.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        The rows (classic Spark or Spark Connect).
    by : str
        The column of the group keys (a query id).
    metric : {"average_precision", "precision_at_k", "r_precision"}
        The metric of each group.
    label_col, score_col : str
        The columns of the 0/1 (or boolean) labels and of the scores.
    k : int or None
        The cutoff of ``precision_at_k``.
    ties : str or None
        An oracle tie policy by name (``"trec_eval"`` needs ``doc_id_col``).
    doc_id_col : str or None
        The column of document ids, for ``ties="trec_eval"``.
    convention : {None, "sklearn"}
        ``"sklearn"``: a group without positives counts 0.
    exact : bool
        True: the mean as an exact ``Fraction``; False (default): correctly rounded.
    score_index : int or None
        The element of a vector or array score column.

    Returns
    -------
    tuple of (pyspark.sql.DataFrame, float or Fraction)
        The per-group values (cached) and their mean.

    Raises
    ------
    InvalidInputError
        A missing column, a null group key, a malformed row or a group the oracle rejects.
    UndefinedMetricError
        A group without positives for AP or R-precision, without ``convention="sklearn"``.

    See Also
    --------
    prtheory.duckdb.per_group : the same from Parquet or CSV files on one machine.

    Examples
    --------
    By hand: query 1 ranks its positive first (AP 1); query 2 ties its positive with a
    negative (AP 1/2): MAP 3/4.

    >>> from pyspark.sql import SparkSession
    >>> from prtheory import spark
    >>> session = SparkSession.builder.getOrCreate()
    >>> rows = [(1, 1, 0.9), (2, 0, 0.8), (2, 1, 0.8), (1, 0, 0.1)]
    >>> df = session.createDataFrame(rows, ["q", "label", "score"])
    >>> table, map_ = spark.per_group(df, "q", exact=True)
    >>> map_
    Fraction(3, 4)
    >>> sorted((r["q"], r["value"]) for r in table.collect())
    [(1, 1.0), (2, 0.5)]
    >>> _ = table.unpersist()
    """
    F = functions()
    check_arguments(metric, by, df.columns, k, ties, doc_id_col, "doc_id_col")
    y, s, bad = bad_label_score(df, label_col, score_col, score_index)
    # one native aggregation: the rows' checks, null keys and the groups without positives
    key = column(by).alias("k")
    per_key = df.groupBy(key).agg(
        F.max(F.when(y == 1.0, 1).otherwise(0)).alias("top"),
        F.count(F.lit(1)).alias("rows"),
        *[F.count_if(flag).alias(f"bad_{i}") for i, flag in enumerate(bad.values())],
    )
    empty = F.col("top") == 0
    stats = per_key.agg(
        F.sum(F.when(F.col("k").isNull(), F.col("rows"))).alias("nulls"),
        F.count_if(empty).alias("empty"),
        F.first(F.when(empty, F.col("k").cast("string")), ignorenulls=True).alias("example"),
        *[F.sum(f"bad_{i}").alias(f"bad_{i}") for i in range(len(bad))],
    ).first()
    raise_on_bad({arg: int(stats[f"bad_{i}"] or 0) for i, arg in enumerate(bad)})
    check_groups(
        metric, by, convention, int(stats["nulls"] or 0), int(stats["empty"]), stats["example"]
    )
    fields = [y.alias("y"), s.alias("s")]
    if doc_id_col:
        fields.append(column(doc_id_col).cast("string").alias("d"))
    # the groups' partitions, merged to PIECES_PER_CORE per core without a further shuffle: the
    # result is cached, and Spark's adaptive execution leaves a cached plan's partitions as they
    # are (spark.sql.shuffle.partitions, 200 by default: as many Python tasks, twice)
    tasks = PIECES_PER_CORE * session_cores(df.sparkSession)
    # the group key as "k" from the start: no name of the user's can clash with this module's
    rows = df.select(key, F.struct(*fields).alias("r"))
    packed = rows.groupBy("k").agg(F.collect_list("r").alias("b")).coalesce(tasks)
    arrays = [F.col("b.y").alias("y"), F.col("b.s").alias("s")]
    if doc_id_col:
        arrays.append(F.col("b.d").alias("d"))
    from pyspark.sql import types as T

    schema = T.StructType(
        [
            T.StructField("k", df.schema[by].dataType),
            T.StructField("value", T.DoubleType()),
            T.StructField("exact", T.StringType()),
            T.StructField("error", T.StringType()),
        ]
    )
    evaluate = evaluate_batches(evaluator(metric, k, ties, convention), bool(doc_id_col))
    out = packed.select("k", *arrays).mapInArrow(evaluate, schema).persist()
    try:
        sums = out.select("k", "exact", "error").mapInArrow(_partition_sums, _SUMS).collect()
        failed = next((r for r in sums if r["error"] is not None), None)
        if failed is not None:
            raise group_error(by, failed["error_key"], failed["error"])
        groups = sum(r["groups"] for r in sums)
        mean = exact_mean((decode_fraction(r["sum"]) for r in sums), groups)
        # the result without the error column, cached from the evaluated groups' cache (alias:
        # a name taken literally)
        result = out.select(F.col("k").alias(by), "value", "exact").persist()
        result.count()
    finally:
        out.unpersist()
    return result, mean if exact else to_float(mean)
