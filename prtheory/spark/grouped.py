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
from typing import Any

import numpy as np

from prtheory import oracle
from prtheory.distributed import decode_fraction, encode_fraction
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle.rounding import to_float
from prtheory.oracle.summation import rational_sum
from prtheory.spark.blocks import PIECES_PER_CORE, check_columns, column, functions, session_cores

__all__ = ["per_group"]

_METRICS = ("average_precision", "precision_at_k", "r_precision")

#: One row per partition of the per-group values (:func:`_partition_sums`): name, Spark type.
_SUM_FIELDS = (("sum", "string"), ("groups", "long"), ("undefined", "long"), ("example", "string"))
_SUMS = ", ".join(f"{name} {kind}" for name, kind in _SUM_FIELDS)


def _evaluator(metric: str, k: int | None, ties: str | None, convention: str | None):
    """The per-group function run in the workers: ``(value, exact hex)`` of one group's labels,
    scores (and document ids); undefined groups give ``(None, None)`` (a marker, so no exception
    crosses the process boundary)."""

    def run(y: np.ndarray, s: np.ndarray, doc_ids: list | None):
        opts: dict[str, Any] = {} if ties is None else {"ties": ties}
        if ties == "trec_eval":
            opts["doc_ids"] = doc_ids
        try:
            if metric == "average_precision":
                v = oracle.average_precision(y, s, convention=convention, **opts)
            elif metric == "precision_at_k":
                assert k is not None  # per_group requires it
                v = oracle.precision_at_k(y, s, k, **opts)
            else:
                v = oracle.r_precision(y, s, **opts)
        except UndefinedMetricError:
            return None, None
        v = Fraction(v)
        return to_float(v), encode_fraction(v)

    return run


def _per_group_batches(evaluate, with_docs: bool):
    """``mapInArrow`` function: each input row is one group (``k``, and its rows' ``y``, ``s``
    and ``d`` as Arrow lists); each output row is ``(k, value, exact)``."""

    def batches(inputs):
        import pyarrow as pa

        for batch in inputs:
            keys = batch.column("k")
            # each list column's flat values, and where each row's list starts and ends in them
            lists = {c: batch.column(c) for c in ("y", "s")}
            flat = {c: a.values.to_numpy(zero_copy_only=False) for c, a in lists.items()}
            at = {c: a.offsets.to_numpy() for c, a in lists.items()}
            docs = batch.column("d").to_pylist() if with_docs else None
            values, exact = [], []
            for i in range(batch.num_rows):
                y, s = (flat[c][at[c][i] : at[c][i + 1]] for c in ("y", "s"))
                v, e = evaluate(y, s, docs[i] if docs else None)
                values.append(v)
                exact.append(e)
            yield pa.RecordBatch.from_arrays(
                [keys, pa.array(values, pa.float64()), pa.array(exact, pa.string())],
                names=["k", "value", "exact"],
            )

    return batches


def _partition_sums(inputs):
    """``mapInArrow`` function over the groups' ``(key, exact)``: per partition, the exact sum of
    its groups' values (hexadecimal numerator and denominator), how many groups it adds and how
    many are undefined, and the key of one undefined group (as text)."""
    import pyarrow as pa

    values, undefined, example = [], 0, None
    for batch in inputs:
        for key, text in zip(batch.column(0).to_pylist(), batch.column(1).to_pylist(), strict=True):
            if text is None:
                undefined += 1
                example = repr(key) if example is None else example
            else:
                values.append(decode_fraction(text))
    s = rational_sum([v.numerator for v in values], [v.denominator for v in values])
    yield pa.RecordBatch.from_pydict(
        {
            "sum": [encode_fraction(s)],
            "groups": [len(values)],
            "undefined": [undefined],
            "example": [example],
        },
        schema=pa.schema(
            [
                (name, {"string": pa.string(), "long": pa.int64()}[kind])
                for name, kind in _SUM_FIELDS
            ]
        ),
    )


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
    if by in ("value", "exact"):
        raise InvalidInputError(
            "by", f"the result's own columns are 'value' and 'exact', got {by!r}"
        )
    if ties == "trec_eval" and doc_id_col is None:
        raise InvalidInputError("doc_id_col", 'ties="trec_eval" needs a document-id column')
    if doc_id_col is not None and doc_id_col not in df.columns:
        raise InvalidInputError("doc_id_col", f"column {doc_id_col!r} not in {df.columns}")
    check_columns(df, label_col, score_col)
    fields = [
        column(label_col).cast("double").alias("y"),
        column(score_col).cast("double").alias("s"),
    ]
    if doc_id_col:
        fields.append(column(doc_id_col).cast("string").alias("d"))
    # the groups' partitions, merged to PIECES_PER_CORE per core without a further shuffle: the
    # result is cached, and Spark's adaptive execution leaves a cached plan's partitions as they
    # are (spark.sql.shuffle.partitions, 200 by default: as many Python tasks, twice)
    tasks = PIECES_PER_CORE * session_cores(df.sparkSession)
    # the group key as "k" from the start: no name of the user's can clash with this module's
    rows = df.select(column(by).alias("k"), F.struct(*fields).alias("r"))
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
        ]
    )
    evaluate = _per_group_batches(_evaluator(metric, k, ties, convention), bool(doc_id_col))
    out = (
        packed.select("k", *arrays)
        .mapInArrow(evaluate, schema)
        .select(F.col("k").alias(by), "value", "exact")  # alias: a name taken literally
        .persist()
    )
    # renamed: mapInArrow reads its input columns by name, where a dot is a struct path
    sums = out.select(column(by).alias("k"), "exact").mapInArrow(_partition_sums, _SUMS).collect()
    undefined = sum(r["undefined"] for r in sums)
    if undefined:
        out.unpersist()
        example = next(r["example"] for r in sums if r["example"] is not None)
        hint = '; convention="sklearn" gives AP 0 there' if metric == "average_precision" else ""
        raise UndefinedMetricError(
            metric.replace("_", " "),
            f"{undefined} groups of {by!r} have no positives (for example {example}){hint}",
        )
    groups = sum(r["groups"] for r in sums)
    if groups == 0:
        out.unpersist()
        raise InvalidInputError("df", "has no rows (no group to average over)")
    total = [decode_fraction(r["sum"]) for r in sums]
    mean = rational_sum([v.numerator for v in total], [v.denominator for v in total]) / groups
    return out, to_float(mean)
