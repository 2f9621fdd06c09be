"""A Spark DataFrame as range pieces of exact blocks (the engine adapter of :mod:`prtheory.distributed`).

One shuffle, no row on the driver, and three jobs:

1. *split points*: a seeded sample of about 100 scores per piece (the rows with the least
   ``rand(seed)``: one pass, no row count needed) gives ``P - 1`` descending quantiles
   ``t_1 > t_2 > ...``; piece ``#{j : s < t_j}`` (a native expression, a binary tree of
   comparisons) holds score ``s``, so equal scores always share a piece and piece 0 holds the
   highest scores. Each piece is named by a label that Spark's hash partitioning sends to a
   partition of its own (:func:`partition_labels`);
2. *totals*: one native aggregation of the rows by piece gives each piece's exact positive and
   total weight, and counts the malformed labels, scores and weights (the driver raises on
   malformed input); the driver forms the offsets (:func:`prtheory.distributed.prefix_offsets`):
   a few integers per piece;
3. :meth:`Pieces.run`: ``repartition(P, piece)``, the one shuffle, of the rows' (piece, score,
   label[, weight]); ``groupBy(piece, score)`` sums each distinct score's exact weights,
   reusing the shuffle's partitioning (no further exchange). Unit weights
   are LONG counts; float weights are summed as their integer mantissas ``M`` per binary
   exponent ``E`` (``w = M 2**E`` exactly, never in floating point; the workers and the driver
   align the exponents), integer weights as ``M = w``, ``E = 0``; each ``M`` is summed as three
   21-bit limbs in LONG sums that cannot overflow (:data:`LIMB_BITS`). These *blocks* go to
   Python workers (``mapInArrow``), which evaluate each piece and return one small result per
   piece. Exact rationals travel pickled (binary integers), never as decimal text. The blocks
   are not cached (a metric that needs several passes asks for the cache: ``cache=True``).

Driver memory is ``O(P)`` (``O(P x exponents)`` with float weights). A piece's blocks must fit
in one task (about 24 bytes per distinct score, more with float weights of many exponents);
with ``cache=True`` the cache holds every block. Needs pyarrow (extra ``spark``).
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from prtheory.distributed import Piece, dyadic_blocks, prefix_offsets
from prtheory.errors import InvalidInputError

__all__ = ["Pieces", "check_columns", "functions", "pieces"]

#: Weights are LONG integer mantissas ``m`` (below 2**63); blocks sum them as LIMBS limbs of
#: LIMB_BITS bits, ``m = sum_i limb_i 2**(LIMB_BITS i)``, each a LONG sum that cannot overflow
#: below 2**LIMB_ROWS_BITS rows (DECIMAL columns, exact too, doubled the time of the shuffle).
LIMB_BITS = 21
LIMBS = 3
LIMB_ROWS_BITS = 63 - LIMB_BITS

#: partition_labels(count), per count
_LABELS: dict[int, list[int]] = {}

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


def _malformed(df, label_col: str, score_col: str, weight_col: str | None = None):
    """Check the column types; return the label and score as doubles, the weight column (or
    None), whether it is integral, and one boolean column per argument that is true on its
    malformed rows."""
    F = functions()
    _column_kind(df, label_col, "label_col")
    _column_kind(df, score_col, "score_col")
    y = F.col(label_col).cast("double")
    s = F.col(score_col).cast("double")
    bad = {"label_col": y.isNull() | ~y.isin(0.0, 1.0), "score_col": s.isNull() | F.isnan(s)}
    w, integral = None, False
    if weight_col is not None:
        w = F.col(weight_col)
        integral = _column_kind(df, weight_col, "weight_col") == "integral"
        if integral:
            bad["weight_col"] = w.isNull() | (w < 0)
        else:
            w = w.cast("double")
            bad["weight_col"] = w.isNull() | F.isnan(w) | (w < 0) | (w == float("inf"))
    return y, s, w, integral, bad


def _bad_counts(bad: dict):
    """Aggregate columns ``bad_i``: the number of malformed rows per argument of ``bad``."""
    F = functions()
    return [F.sum(flag.cast("long")).alias(f"bad_{i}") for i, flag in enumerate(bad.values())]


def _check(bad: dict, stats) -> None:
    """Raise on the malformed rows counted by :func:`_bad_counts` (summed over ``stats``)."""
    _raise_on_bad({arg: sum(int(r[f"bad_{i}"] or 0) for r in stats) for i, arg in enumerate(bad)})


def check_columns(df, label_col: str, score_col: str) -> None:
    """Types, then one native aggregation counting malformed labels and scores; raise if any."""
    *_, bad = _malformed(df, label_col, score_col)
    _check(bad, [df.agg(*_bad_counts(bad)).first()])


def _piece_expr(s, splits: list[float], labels: list[int], lo: int = 0, hi: int | None = None):
    """``labels[#{j : s < splits[j]}]`` for descending ``splits``, as a balanced tree of
    comparisons."""
    F = functions()
    hi = len(splits) if hi is None else hi
    if lo == hi:
        return F.lit(labels[lo])
    mid = (lo + hi) // 2
    return F.when(s < F.lit(splits[mid]), _piece_expr(s, splits, labels, mid + 1, hi)).otherwise(
        _piece_expr(s, splits, labels, lo, mid)
    )


def partition_labels(session, count: int) -> list[int]:
    """``count`` integers that ``repartition(count, column)`` sends to ``count`` distinct
    partitions: the label of piece ``i`` is the least integer whose partition is ``i``.

    Spark places a row in partition ``pmod(hash(column), count)`` (Murmur3, the SQL function
    ``hash``), so consecutive piece numbers collide (8 pieces fill about 5 of 8 partitions and
    leave some cores idle); labels chosen by that same function give every piece a partition of
    its own. Only the speed depends on this: the workers group rows by label whatever partition
    they arrive in. Computed once per ``count`` in a process (Spark's ``hash`` has a fixed
    seed)."""
    F = functions()
    if count in _LABELS:
        return _LABELS[count]
    if count == 1:
        return [0]
    found: dict[int, int] = {}
    start = 0
    while len(found) < count:
        rows = (
            session.range(start, start + 64 * count)
            .select(F.col("id").cast("int"), F.expr(f"pmod(hash(cast(id as int)), {count})"))
            .collect()
        )
        for label, part in rows:
            found.setdefault(part, label)
        start += 64 * count
    _LABELS[count] = [found[i] for i in range(count)]
    return _LABELS[count]


def split_points(df, score, partitions: int) -> list[float]:
    """At most ``partitions - 1`` distinct descending score quantiles of a seeded sample of
    :data:`SAMPLE_PER_PIECE` ``x partitions`` rows (all rows if fewer).

    The sample is the rows with the smallest ``rand(SEED)`` (one pass: each partition keeps its
    own smallest, the driver merges them), so the row count need not be known first."""
    F = functions()
    if partitions == 1:
        return []
    rows = (
        df.select(score.alias("s"))
        .orderBy(F.rand(SEED))
        .limit(SAMPLE_PER_PIECE * partitions)
        .collect()
    )
    sample = np.array([r[0] for r in rows], dtype=float)
    sample = sample[np.isfinite(sample)]
    if sample.size == 0:
        return []
    q = np.quantile(sample, np.arange(1, partitions) / partitions, method="inverted_cdf")
    return sorted({float(v) for v in q}, reverse=True)


def _with_dyadic(frame, w: str):
    """``frame`` with float weight column ``w`` replaced by ``m`` (LONG) and ``e``:
    ``w = m 2**e`` exactly, ``m`` odd (0 for ``w = 0``).

    ``e = floor(log2 w)`` is estimated and corrected by one either way (``log2`` is within an
    ulp), so that ``w 2**(52 - e)`` lies in ``[2**52, 2**53)``; that product is exact (a power
    of two, applied in two halves so neither factor overflows, even for subnormal ``w``) and is
    the 53-bit integer significand. Trailing zero bits are then moved into ``e``
    (``log2`` of the lowest set bit, rounded: exact for a power of two). Each step is its own
    projection: written as one expression, every use of an intermediate copies its whole tree
    and the generated code outgrows the JVM's method size (Spark then interprets the plan,
    tens of times slower).
    """
    F = functions()
    weight = F.col(w)

    def scaled(e):
        half = F.floor((F.lit(52) - e) / 2)
        return weight * F.pow(F.lit(2.0), half) * F.pow(F.lit(2.0), F.lit(52) - e - half)

    e0 = F.col("_e0")
    x = scaled(e0)
    frame = frame.withColumn("_e0", F.floor(F.log2(weight)).cast("int"))
    frame = frame.withColumn(
        "_e",
        F.when(x >= F.lit(2.0**53), e0 + 1).when(x < F.lit(2.0**52), e0 - 1).otherwise(e0),
    )
    frame = frame.withColumn("_m", scaled(F.col("_e")).cast("long"))
    m = F.col("_m")
    frame = frame.withColumn("_tz", F.round(F.log2(m.bitwiseAND(-m))).cast("int"))
    positive, tz = weight > 0, F.col("_tz")
    mant = F.when(positive, (m / F.pow(F.lit(2.0), tz)).cast("long")).otherwise(F.lit(0))
    expo = F.when(positive, F.col("_e") - 52 + tz).otherwise(F.lit(0))
    keep = [c for c in frame.columns if c not in (w, "_e0", "_e", "_m", "_tz")]
    return frame.select(*keep, mant.cast("long").alias("m"), expo.cast("int").alias("e"))


def _limbs_value(row, prefix: str) -> int:
    """The exact integer ``sum_i row[prefix + i] 2**(LIMB_BITS i)`` of one row's limb sums."""
    return sum(int(row[f"{prefix}{i}"]) << (LIMB_BITS * i) for i in range(LIMBS))


def _limbs_column(cols: dict, prefix: str) -> np.ndarray:
    """A block column's exact integer weights from its LONG limb sums (Arrow columns): int64
    while every value fits below 2**62, else Python integers."""
    parts = [cols[f"{prefix}{i}"].to_numpy() for i in range(LIMBS)]
    top = max((int(p.max()).bit_length() + LIMB_BITS * i for i, p in enumerate(parts)), default=0)
    dtype = np.int64 if top < 61 else object
    return sum(p.astype(dtype) << (LIMB_BITS * i) for i, p in enumerate(parts))


@dataclass
class Pieces:
    """The pieces of a DataFrame (``frame``: their blocks, not yet computed), their exact
    totals and offsets (see the module).

    ``pos``/``neg`` are the class weights over ``2**-k``; ``top_is_empty`` says whether the
    highest-scored block has zero weight (MLlib's empty classifier); with ``cache`` the first
    :meth:`run` caches the blocks for the next. Use as a context manager (a cache is released
    on exit).
    """

    frame: Any
    weighted: bool
    k: int
    offsets: dict[int, tuple[int, int]]
    pos: int
    neg: int
    top_is_empty: bool
    pieces: int = field(default=0)
    cache: bool = False

    def run(self, fn) -> list:
        """``fn(piece)`` for every piece, evaluated in the Python workers; the results in piece
        order.

        The blocks reach the workers as Arrow batches (``mapInArrow``: columnar, no Python
        object per value); a worker's partition may hold several pieces (hash partitioning of
        the piece ids), so it splits them, sorts each by decreasing score and returns one
        pickled result per piece (exact integers travel in binary)."""
        offsets, k, weighted = self.offsets, self.k, self.weighted
        if not offsets:  # no rows
            return []

        def partition(batches):
            import pyarrow as pa

            batches = list(batches)
            if not batches:
                return
            table = pa.Table.from_batches(batches)
            if table.num_rows == 0:
                return
            cols = {name: table.column(name) for name in table.column_names}
            piece = cols["piece"].to_numpy()
            score = cols["s"].to_numpy()
            # pieces are disjoint score ranges: decreasing score alone puts each in one run
            order = np.argsort(-score)
            piece, score = piece[order], score[order]
            starts = np.flatnonzero(np.concatenate(([True], piece[1:] != piece[:-1])))
            ends = np.append(starts[1:], piece.size)
            if weighted:
                e = cols["e"].to_numpy()[order]
                pm, nm = _limbs_column(cols, "p")[order], _limbs_column(cols, "n")[order]
            else:
                p = cols["p"].to_numpy()[order]
                n = cols["n"].to_numpy()[order]
            ids, results = [], []
            for a, b in zip(starts.tolist(), ends.tolist(), strict=True):
                index = int(piece[a])
                if weighted:
                    pos, neg = dyadic_blocks(score[a:b], e[a:b], pm[a:b], nm[a:b], k)
                else:
                    pos, neg = p[a:b].astype(np.int64), n[a:b].astype(np.int64)
                ids.append(index)
                results.append(pickle.dumps(fn(Piece(pos, neg, *offsets[index]))))
            yield pa.RecordBatch.from_pydict(
                {"piece": ids, "result": results},
                schema=pa.schema([("piece", pa.int32()), ("result", pa.binary())]),
            )

        if self.cache and not self.frame.is_cached:
            self.frame.persist()  # filled by this first run, reused by the next
        out = self.frame.mapInArrow(partition, "piece int, result binary").collect()
        rank = {label: i for i, label in enumerate(offsets)}  # offsets are in piece order
        return [pickle.loads(r[1]) for r in sorted(out, key=lambda r: rank[r[0]])]

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
    cache: bool = False,
) -> Pieces:
    """Validate the columns and build the :class:`Pieces` (module docstring).

    Three jobs before the metric's own pass: the sample for the split points, the per-piece
    totals (with the count of malformed rows: raise if any), then :meth:`Pieces.run` shuffles,
    aggregates and evaluates in one job. With ``cache=True`` (a metric that maps over the pieces
    more than once, as the Davis-Goadrich area) the blocks are cached by the first run until
    :meth:`Pieces.close`; otherwise a second run (an undecided rounding) recomputes them."""
    F = functions()
    if unit_weights and weight_col is not None:
        raise InvalidInputError("weight_col", "this metric counts items: unit weights only")
    if partitions is None:
        partitions = int(df.sparkSession.conf.get("spark.sql.shuffle.partitions"))
    if isinstance(partitions, bool) or not isinstance(partitions, int) or partitions < 1:
        raise InvalidInputError("partitions", f"must be an integer >= 1, got {partitions!r}")
    y, s, w, integral, bad = _malformed(df, label_col, score_col, weight_col)
    splits = split_points(df, s, partitions)
    labels = partition_labels(df.sparkSession, len(splits) + 1)
    cols = [_piece_expr(s, splits, labels).alias("piece"), (s + 0.0).alias("s")]
    cols.append((y == 1.0).alias("y"))
    flags = {arg: F.col(f"bad_{i}") for i, arg in enumerate(bad)}
    cols += [flag.alias(f"bad_{i}") for i, flag in enumerate(bad.values())]
    if weight_col is None:
        rows = df.select(*cols)
    elif integral:  # integer weights: exact LONG values, exponent 0
        rows = df.select(*cols, w.cast("long").alias("m"), F.lit(0).alias("e"))
    else:  # a malformed weight becomes 0 here (no failing cast); the totals job rejects it
        safe = F.when(bad["weight_col"], F.lit(0.0)).otherwise(w)
        rows = _with_dyadic(df.select(*cols, safe.alias("w")), "w")

    # the one shuffle of the rows; the aggregations below keep its partitioning
    shuffled = rows.repartition(len(splits) + 1, "piece")
    if weight_col is None:
        counts = [F.sum(F.col("y").cast("long")).alias("p"), F.count(F.lit(1)).alias("rows")]
        stats = rows.groupBy("piece").agg(*counts, *_bad_counts(flags)).collect()
        _check(flags, stats)
        totals = {r["piece"]: (int(r["p"]), int(r["rows"])) for r in stats}
        blocks = (
            shuffled.groupBy("piece", "s")
            .agg(*counts)
            .select("piece", "s", "p", (F.col("rows") - F.col("p")).alias("n"))
        )
        k, top_is_empty = 0, False
    else:
        y_ = F.col("y")
        sums = []
        for i in range(LIMBS):
            limb = F.shiftright(F.col("m"), LIMB_BITS * i).bitwiseAND(2**LIMB_BITS - 1)
            sums.append(F.sum(F.when(y_, limb).otherwise(0)).alias(f"p{i}"))
            sums.append(F.sum(F.when(y_, 0).otherwise(limb)).alias(f"n{i}"))
        stats = (
            rows.groupBy("piece", "e")
            .agg(
                *sums,
                F.count(F.lit(1)).alias("rows"),
                F.max("s").alias("top"),
                F.max(F.when(F.col("m") > 0, F.col("s"))).alias("top_w"),
                *_bad_counts(flags),
            )
            .collect()
        )
        _check(flags, stats)
        if sum(int(r["rows"]) for r in stats) >= 2**LIMB_ROWS_BITS:
            raise InvalidInputError(
                "df", f"more than 2**{LIMB_ROWS_BITS} rows: exact LONG limb sums could overflow"
            )
        blocks = shuffled.groupBy("piece", "s", "e").agg(*sums)
        whole = [(r, _limbs_value(r, "p"), _limbs_value(r, "n")) for r in stats]
        nonzero = [(r, p, q) for r, p, q in whole if p or q]
        k = max([0] + [-int(r["e"]) for r, _, _ in nonzero])
        totals = {r["piece"]: (0, 0) for r in stats}
        for r, p, q in nonzero:
            shift = int(r["e"]) + k
            tp, tt = totals[r["piece"]]
            totals[r["piece"]] = (tp + (p << shift), tt + ((p + q) << shift))
        top = max((r["top"] for r in stats), default=None)
        top_w = max((r["top_w"] for r in stats if r["top_w"] is not None), default=None)
        top_is_empty = top is not None and top != top_w
    order = [label for label in labels if label in totals]
    offsets = dict(zip(order, prefix_offsets(totals[i] for i in order), strict=True))
    pos = sum(p for p, _ in totals.values())
    neg = sum(t for _, t in totals.values()) - pos
    return Pieces(
        blocks, weight_col is not None, k, offsets, pos, neg, top_is_empty, len(order), cache
    )


def _raise_on_bad(counts: dict[str, int]) -> None:
    problems = {
        "label_col": "labels must be 0 or 1 (or booleans), no nulls",
        "score_col": "scores must not be NaN or null",
        "weight_col": "weights must be finite and >= 0, no nulls",
    }
    for arg, count in counts.items():
        if count:
            raise InvalidInputError(arg, f"{problems[arg]}: {count} bad rows")
