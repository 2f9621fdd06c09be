"""A Spark DataFrame as range pieces of exact blocks (the engine adapter of :mod:`prtheory.distributed`).

One shuffle, no row on the driver:

1. *split points*: ``count()`` and a seeded Bernoulli sample of about 100 scores per piece give
   ``P - 1`` descending quantiles ``t_1 > t_2 > ...``; the piece of a score ``s`` is
   ``#{j : s < t_j}``, a native expression (a binary tree of comparisons), so equal scores
   always share a piece and piece 0 holds the highest scores;
2. *totals*: one native aggregation by piece (no shuffle of rows) gives each piece's exact
   positive and total weight and counts malformed rows; the driver raises on malformed input
   and forms the offsets (:func:`prtheory.distributed.prefix_offsets`): a few integers per
   piece. Unit weights are LONG counts; float weights are summed as their integer mantissas
   ``M`` per binary exponent ``E`` (``w = M 2**E`` exactly, DECIMAL(38, 0) sums, never in
   floating point; the driver aligns the exponents), integer weights as LONG values;
3. ``repartition(P, piece)``: the one shuffle, of the rows' (piece, score, label[, weight]);
   in the JVM, ``groupBy(piece, score)`` sums each distinct score's exact weights and
   ``groupBy(piece)`` packs a piece's blocks into arrays (``collect_list``); both reuse the
   shuffle's partitioning (no further exchange);
4. :meth:`Pieces.run` maps a function over the packed pieces in Python workers (one row per
   piece, one array per column, sorted by decreasing score there) and collects one small
   result per piece. Exact rationals travel pickled (binary integers), never as decimal text.

Driver memory is ``O(P)`` (``O(P x exponents)`` with float weights). A piece's blocks must fit
in one task: about 24 bytes per distinct score (more with float weights of many exponents).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from prtheory.distributed import Piece, dyadic_blocks, prefix_offsets
from prtheory.errors import InvalidInputError

__all__ = ["Pieces", "check_columns", "functions", "pieces"]

#: Scores sampled per piece for the split points (more: better balanced pieces).
SAMPLE_PER_PIECE = 100
SEED = 20260415


def functions():
    """``pyspark.sql.functions``, or an ImportError saying what to install."""
    try:
        from pyspark.sql import functions
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise ImportError(
            "prtheory.spark needs pyspark (pip install 'prtheory[spark]') and Java 17+"
        ) from e
    return functions


def _column_kind(df, name: str, arg: str, *, integral_ok: bool = True) -> str:
    """``"integral"``, ``"float"`` or ``"boolean"`` for a column usable as a number; else raise."""
    from pyspark.sql import types as T

    if name not in df.columns:
        raise InvalidInputError(arg, f"column {name!r} not in the DataFrame {df.columns}")
    dt = df.schema[name].dataType
    if isinstance(dt, T.BooleanType):
        return "boolean"
    if isinstance(dt, T.IntegralType) and integral_ok:
        return "integral"
    if isinstance(dt, T.FloatType | T.DoubleType | T.IntegralType):
        return "float"
    raise InvalidInputError(
        arg, f"column {name!r} must be numeric (float, double, integer) or boolean, got {dt}"
    )


def check_columns(df, label_col: str, score_col: str) -> None:
    """Types, then one native aggregation counting malformed labels and scores; raise if any."""
    F = functions()
    _column_kind(df, label_col, "label_col")
    _column_kind(df, score_col, "score_col")
    y = F.col(label_col).cast("double")
    s = F.col(score_col).cast("double")
    row = df.agg(
        F.sum(F.when(y.isNull() | ~y.isin(0.0, 1.0), 1).otherwise(0)),
        F.sum(F.when(s.isNull() | F.isnan(s), 1).otherwise(0)),
    ).first()
    _raise_on_bad({"label_col": row[0] or 0, "score_col": row[1] or 0})


def _piece_expr(s, splits: list[float], lo: int, hi: int):
    """``#{j : s < splits[j]}`` for descending ``splits``, as a balanced tree of comparisons."""
    F = functions()
    if lo == hi:
        return F.lit(lo)
    mid = (lo + hi) // 2
    return F.when(s < F.lit(splits[mid]), _piece_expr(s, splits, mid + 1, hi)).otherwise(
        _piece_expr(s, splits, lo, mid)
    )


def split_points(df, score, partitions: int) -> list[float]:
    """At most ``partitions - 1`` distinct descending score quantiles from a seeded sample."""
    if partitions == 1:
        return []
    n = df.count()
    if n == 0:
        return []
    fraction = min(1.0, SAMPLE_PER_PIECE * partitions / n)
    sample = np.array(
        [r[0] for r in df.select(score).sample(False, fraction, SEED).collect()], dtype=float
    )
    sample = sample[np.isfinite(sample)]
    if sample.size == 0:
        return []
    q = np.quantile(sample, np.arange(1, partitions) / partitions, method="inverted_cdf")
    return sorted({float(v) for v in q}, reverse=True)


def _dyadic(w):
    """``(M, E)`` columns with ``w = M 2**E`` exactly, ``M`` an odd LONG (0 for ``w = 0``).

    ``e = floor(log2 w)`` is estimated and corrected by one either way (``log2`` is within an
    ulp), so that ``w 2**(52 - e)`` lies in ``[2**52, 2**53)``; that product is exact (a power
    of two, applied in two halves so neither factor overflows, even for subnormal ``w``) and is
    the 53-bit integer significand. Trailing zero bits are then moved into ``E``
    (``log2`` of the lowest set bit, rounded: exact for a power of two).
    """
    F = functions()

    def scaled(e):
        half = F.floor((F.lit(52) - e) / 2)
        return w * F.pow(F.lit(2.0), half) * F.pow(F.lit(2.0), F.lit(52) - e - half)

    e0 = F.floor(F.log2(w)).cast("int")
    x = scaled(e0)
    e = (
        F.when(x >= F.lit(2.0**53), e0 + 1)
        .when(x < F.lit(2.0**52), e0 - 1)
        .otherwise(e0)
        .cast("int")
    )
    m = scaled(e).cast("long")
    tz = F.round(F.log2(m.bitwiseAND(-m))).cast("int")
    positive = w > 0
    mant = F.when(positive, (m / F.pow(F.lit(2.0), tz)).cast("long")).otherwise(
        F.lit(0).cast("long")
    )
    expo = F.when(positive, e - 52 + tz).otherwise(F.lit(0))
    return mant, expo


@dataclass
class Pieces:
    """The cached pieces of a DataFrame, their exact totals and offsets (see the module).

    ``pos``/``neg`` are the class weights over ``2**-k``; ``top_is_empty`` says whether the
    highest-scored block has zero weight (MLlib's empty classifier). Use as a context manager
    (the cache is released on exit).
    """

    frame: Any
    weighted: bool
    k: int
    offsets: dict[int, tuple[int, int]]
    pos: int
    neg: int
    top_is_empty: bool
    pieces: int = field(default=0)

    def run(self, fn) -> list:
        """``fn(piece)`` for every piece, evaluated in the Python workers; the results in piece
        order."""
        offsets, k, weighted = self.offsets, self.k, self.weighted
        if not offsets:  # no rows
            return []

        def one(row):
            index = row[0]
            if weighted:
                pos, neg = dyadic_blocks(row[1], row[2], row[3], row[4], k)
            else:
                order = np.argsort(-np.asarray(row[1], dtype=np.float64), kind="stable")
                pos = np.asarray(row[2], dtype=np.int64)[order]
                neg = np.asarray(row[3], dtype=np.int64)[order]
            return index, fn(Piece(pos, neg, *offsets[index]))

        out = self.frame.rdd.map(one).collect()
        return [v for _, v in sorted(out, key=lambda t: t[0])]

    def close(self) -> None:
        if self.frame.is_cached:
            self.frame.unpersist()

    def __enter__(self) -> Pieces:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def pieces(
    df,
    label_col: str,
    score_col: str,
    weight_col: str | None,
    partitions: int | None,
    *,
    unit_weights: bool = False,
    persist: bool = False,
) -> Pieces:
    """Validate the columns and build the :class:`Pieces` (module docstring).

    ``persist=True`` caches the packed pieces for metrics that read them more than once (the
    Davis-Goadrich area); otherwise every :meth:`Pieces.run` recomputes the one shuffle.
    """
    F = functions()
    if unit_weights and weight_col is not None:
        raise InvalidInputError("weight_col", "this metric counts items: unit weights only")
    _column_kind(df, label_col, "label_col")
    _column_kind(df, score_col, "score_col")
    w_kind = None if weight_col is None else _column_kind(df, weight_col, "weight_col")
    if partitions is None:
        partitions = int(df.sparkSession.conf.get("spark.sql.shuffle.partitions"))
    if isinstance(partitions, bool) or not isinstance(partitions, int) or partitions < 1:
        raise InvalidInputError("partitions", f"must be an integer >= 1, got {partitions!r}")

    y = F.col(label_col).cast("double")
    s = F.col(score_col).cast("double")
    splits = split_points(df, s, partitions)
    cols = [_piece_expr(s, splits, 0, len(splits)).alias("piece"), (s + 0.0).alias("s")]
    cols.append(F.when(y.isNull() | ~y.isin(0.0, 1.0), 1).otherwise(0).alias("bad_y"))
    cols.append((y == 1.0).alias("y"))
    if weight_col is not None:
        w = F.col(weight_col)
        if w_kind == "integral":
            bad = w.isNull() | (w < 0)
            mant, expo = F.when(bad, 0).otherwise(w).cast("long"), F.lit(0)
        else:
            w = w.cast("double")
            bad = w.isNull() | F.isnan(w) | (w < 0) | (w == float("inf"))
            mant, expo = _dyadic(F.when(bad, 0.0).otherwise(w))
        cols += [
            F.when(bad, 1).otherwise(0).alias("bad_w"),
            mant.cast("decimal(20,0)").alias("m"),
            expo.alias("e"),
        ]
    rows = df.select(*cols)

    # per-piece totals and malformed rows: one scan, no shuffle of rows
    bad_s = F.sum(F.when(F.col("s").isNull() | F.isnan("s"), 1).otherwise(0)).alias("bad_s")
    bad_y = F.sum("bad_y").alias("bad_y")
    if weight_col is None:
        stats = (
            rows.groupBy("piece")
            .agg(F.sum(F.col("y").cast("long")).alias("tp"), F.count(F.lit(1)), bad_y, bad_s)
            .collect()
        )
        bad = {"label_col": sum(r[3] for r in stats), "score_col": sum(r[4] for r in stats)}
        totals = {r[0]: (int(r[1] or 0), int(r[2])) for r in stats}
        k, top_is_empty = 0, False
    else:
        m = F.col("m")
        stats = (
            rows.groupBy("piece", "e")
            .agg(
                F.sum(F.when(F.col("y"), m).otherwise(0)).alias("pm"),
                F.sum(F.when(F.col("y"), 0).otherwise(m)).alias("nm"),
                bad_y,
                F.sum("bad_w").alias("bad_w"),
                bad_s,
                F.max("s").alias("top"),
                F.max(F.when(m > 0, F.col("s"))).alias("top_w"),
            )
            .collect()
        )
        bad = {
            "label_col": sum(r["bad_y"] for r in stats),
            "weight_col": sum(r["bad_w"] for r in stats),
            "score_col": sum(r["bad_s"] for r in stats),
        }
        _raise_on_bad(bad)
        nonzero = [r for r in stats if r["pm"] or r["nm"]]
        k = max([0] + [-int(r["e"]) for r in nonzero])
        totals = {r["piece"]: (0, 0) for r in stats}
        for r in nonzero:
            shift = int(r["e"]) + k
            p, n = int(r["pm"]) << shift, int(r["nm"]) << shift
            tp, tt = totals[r["piece"]]
            totals[r["piece"]] = (tp + p, tt + p + n)
        top = max((r["top"] for r in stats), default=None)
        top_w = max((r["top_w"] for r in stats if r["top_w"] is not None), default=None)
        top_is_empty = top is not None and top != top_w
    _raise_on_bad(bad)

    # the one shuffle; both aggregations keep its partitioning
    shuffled = rows.repartition(len(splits) + 1, "piece")
    if weight_col is None:
        blocks = shuffled.groupBy("piece", "s").agg(
            F.sum(F.col("y").cast("long")).alias("p"), F.count(F.lit(1)).alias("rows")
        )
        blocks = blocks.withColumn("n", F.col("rows") - F.col("p"))
        packed = blocks.groupBy("piece").agg(F.collect_list(F.struct("s", "p", "n")).alias("b"))
        frame = packed.select("piece", "b.s", "b.p", "b.n")
    else:
        m = F.col("m")
        blocks = shuffled.groupBy("piece", "s", "e").agg(
            F.sum(F.when(F.col("y"), m).otherwise(0)).alias("pm"),
            F.sum(F.when(F.col("y"), 0).otherwise(m)).alias("nm"),
        )
        packed = blocks.groupBy("piece").agg(
            F.collect_list(F.struct("s", "e", "pm", "nm")).alias("b")
        )
        frame = packed.select("piece", "b.s", "b.e", "b.pm", "b.nm")
    if persist:
        frame = frame.persist()
    order = sorted(totals)
    offsets = dict(zip(order, prefix_offsets(totals[i] for i in order), strict=True))
    pos = sum(p for p, _ in totals.values())
    neg = sum(t for _, t in totals.values()) - pos
    return Pieces(frame, weight_col is not None, k, offsets, pos, neg, top_is_empty, len(order))


def _raise_on_bad(counts: dict[str, int]) -> None:
    problems = {
        "label_col": "labels must be 0 or 1 (or booleans), no nulls",
        "score_col": "scores must not be NaN or null",
        "weight_col": "weights must be finite and >= 0, no nulls",
    }
    for arg, count in counts.items():
        if count:
            raise InvalidInputError(arg, f"{problems[arg]}: {count} bad rows")
