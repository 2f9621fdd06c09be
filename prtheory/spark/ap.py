"""Exact average precision of a Spark DataFrame, correctly rounded (claim N2, ties grouped).

Algorithm (no row reaches the driver):

1. validate the columns with one native aggregation (labels 0/1, scores not NaN/null,
   weights finite and >= 0);
2. aggregate exact weights per distinct score into blocks ``(pos, neg, k)`` meaning weights
   ``pos / 2**k`` and ``neg / 2**k`` (unit weights: a native ``groupBy`` of int64 counts; float
   weights: their exact dyadic numerators, merged with Python integers);
3. range-partition the blocks by decreasing score (``sortByKey``: one sample, one shuffle);
4. collect one ``(pos, total, k)`` per partition, form the prefix offsets on the driver over the
   common denominator ``2**K`` and broadcast them;
5. each partition evaluates its exact partial sum ``sum gain_i TP_i / N_i``
   (:func:`prtheory.distributed.partial_ap`); the driver adds one rational per partition,
   divides by the positive weight and rounds once.

The result equals :func:`prtheory.oracle.average_precision` (``ties="group"``) exactly.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from prtheory._input import as_weights
from prtheory.distributed import (
    align,
    combine,
    finish,
    merge_blocks,
    partial_ap,
    prefix_offsets,
)
from prtheory.errors import InvalidInputError

__all__ = ["average_precision"]


def _functions():
    try:
        from pyspark.sql import functions
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise ImportError(
            "prtheory.spark needs pyspark (pip install 'prtheory[spark]') and Java 17+"
        ) from e
    return functions


def check_columns(df, label_col: str, score_col: str, weight_col: str | None) -> None:
    """One native aggregation counting bad values; raise on the first kind found."""
    F = _functions()
    for name, col in (
        ("label_col", label_col),
        ("score_col", score_col),
        ("weight_col", weight_col),
    ):
        if col is not None and col not in df.columns:
            raise InvalidInputError(name, f"column {col!r} not in the DataFrame {df.columns}")
    y = F.col(label_col).cast("double")
    s = F.col(score_col).cast("double")
    checks = {
        "label_col": (y.isNull() | ~y.isin(0.0, 1.0), "labels must be 0 or 1 (no nulls)"),
        "score_col": (s.isNull() | F.isnan(s), "scores must not be NaN or null"),
    }
    if weight_col is not None:
        w = F.col(weight_col).cast("double")
        bad_w = w.isNull() | F.isnan(w) | (w < 0) | (F.abs(w) == float("inf"))
        checks["weight_col"] = (bad_w, "weights must be finite and >= 0 (no nulls)")
    row = df.agg(
        *(F.sum(F.when(bad, 1).otherwise(0)).alias(k) for k, (bad, _) in checks.items())
    ).first()
    for k, (_, problem) in checks.items():
        if row[k]:
            raise InvalidInputError(k, f"{problem}: {row[k]} bad rows in column {df.columns}")


def _local_weighted_blocks(rows):
    """Blocks ``(score, (pos, neg, k))`` of one input partition with exact dyadic weights."""
    scores, labels, weights = [], [], []
    for s, y, w in rows:
        scores.append(float(s))
        labels.append(float(y) == 1.0)
        weights.append(float(w))
    if not scores:
        return
    ew = as_weights(np.array(weights, dtype=np.float64), len(weights))
    k = ew.denominator.bit_length() - 1  # float weights: a power-of-two denominator
    acc: dict[float, list[int]] = {}
    for s, y, num in zip(scores, labels, ew.numerators.tolist(), strict=True):
        b = acc.setdefault(s, [0, 0])
        b[0 if y else 1] += int(num)
    for s, (p, n) in acc.items():
        yield s, (p, n, k)


def _blocks(df, label_col: str, score_col: str, weight_col: str | None):
    """RDD of ``(score, (pos, neg, k))``, one per distinct score."""
    F = _functions()
    s = F.col(score_col).cast("double")
    y = F.col(label_col).cast("double")
    if weight_col is None:
        agg = df.groupBy(s.alias("s")).agg(
            F.sum(y.cast("long")).alias("p"), F.count(F.lit(1)).alias("n")
        )
        return agg.rdd.map(lambda r: (float(r[0]) + 0.0, (int(r[1]), int(r[2]) - int(r[1]), 0)))
    w = F.col(weight_col).cast("double")
    rows = df.select(s, y, w).rdd
    return rows.mapPartitions(_local_weighted_blocks).reduceByKey(merge_blocks)


def _partition_totals(blocks):
    """One ``(pos, total, k)`` for a partition of blocks, over its largest ``2**k``."""
    blocks = [b for _, b in blocks]
    if not blocks:
        yield 0, 0, 0
        return
    k = max(b[2] for b in blocks)
    p = n = 0
    for b in blocks:
        bp, bn = align(b, k)
        p += bp
        n += bn
    yield p, p + n, k


def average_precision(
    df,
    label_col: str = "label",
    score_col: str = "score",
    weight_col: str | None = None,
    *,
    exact: bool = False,
    partitions: int | None = None,
    convention: str | None = None,
) -> float | Fraction:
    """Exact step AP of a Spark DataFrame (claim N2; tied scores grouped, as scikit-learn).

    ``AP = (1/pos) sum_i gain_i TP_i / N_i`` over the distinct scores ``i`` in decreasing order
    (see :mod:`prtheory.spark.ap` for the distributed algorithm). Returns the correctly rounded
    float64, or the exact :class:`~fractions.Fraction` with ``exact=True``; equal to
    :func:`prtheory.oracle.average_precision` on the collected columns. Labels are 0/1 (or
    booleans), scores any non-NaN doubles (``±inf`` allowed), weights finite and >= 0 taken at
    their exact binary value. ``partitions`` is the number of score ranges (default: the
    session's ``spark.sql.shuffle.partitions``). With no positive weight AP is undefined
    (:class:`~prtheory.errors.UndefinedMetricError`; 0 with ``convention="sklearn"``).
    """
    check_columns(df, label_col, score_col, weight_col)
    if partitions is None:
        partitions = int(df.sparkSession.conf.get("spark.sql.shuffle.partitions"))
    if isinstance(partitions, bool) or not isinstance(partitions, int) or partitions < 1:
        raise InvalidInputError("partitions", f"must be an integer >= 1, got {partitions!r}")
    ranges = _blocks(df, label_col, score_col, weight_col).sortByKey(
        ascending=False, numPartitions=partitions
    )
    ranges = ranges.persist()
    try:
        totals = ranges.mapPartitions(_partition_totals).collect()
        k = max((t[2] for t in totals), default=0)
        common = [(p << (k - tk), t << (k - tk)) for p, t, tk in totals]
        offsets = ranges.context.broadcast(prefix_offsets(common))

        def partial(index, blocks):
            pos, neg = [], []
            for _, b in blocks:
                bp, bn = align(b, k)
                pos.append(bp)
                neg.append(bn)
            yield partial_ap(pos, neg, offsets.value[index])

        partials = ranges.mapPartitionsWithIndex(partial).collect()
        offsets.unpersist()
    finally:
        ranges.unpersist()
    value = combine(partials, sum(p for p, _ in common), convention)
    return finish(value, exact)
