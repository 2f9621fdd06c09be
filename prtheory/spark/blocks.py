"""A Spark DataFrame as range pieces of exact blocks (the engine adapter of :mod:`prtheory.distributed`).

One shuffle, no row on the driver, and three jobs:

1. *split points*: ``P`` pieces are the caller's ``partitions``, or by default
   (:func:`default_pieces`) :data:`PIECES_PER_CORE` per core of the session, fewer for a small
   frame and more for a huge one. A seeded sample of ``max(100 P, 4096)`` rows (``P`` at its
   per-core bound by default; the rows with the least ``rand(seed)``: one pass, no row count
   needed, and it estimates the row count: :func:`sample_scores`) gives ``P - 1`` descending
   quantiles ``t_1 > t_2 > ...`` (of the rows, or for an exact sum with float weights of their
   cost: :data:`EXACT_POSITIVE_COST`); piece ``#{j : s < t_j}`` (a native expression, a binary tree
   of comparisons) holds score ``s``, so equal scores always share a piece and piece 0 holds
   the highest scores. Each piece is named by a label that Spark's hash partitioning sends to a
   partition of its own (:func:`partition_labels`). The sample's equal pairs also estimate how
   many rows share a score (:func:`tie_multiplicity`), and their input partitions how many
   of them share an input partition (:func:`local_multiplicity`);
2. *totals*: one native aggregation of the rows by piece gives each piece's exact positive and
   total weight, and counts the malformed labels, scores and weights (the driver raises on
   malformed input); the driver forms the offsets (:func:`prtheory.distributed.prefix_offsets`):
   a few integers per piece;
3. :meth:`Pieces.run`: the one shuffle, of the rows' (score, label[, weight]), partitioned by
   the piece expression. Unit weights are counts; float weights are integer mantissas ``M`` of a
   binary exponent ``E`` (``w = M 2**E`` exactly, never summed in floating point:
   :func:`_with_dyadic`; the workers and the driver align the exponents), integer weights
   ``M = w``, ``E = 0``. Equal scores are summed in one of three places (:attr:`Pieces.path`),
   chosen for speed by the sample's estimate of the rows per score (all three give the same
   blocks):

   * :data:`COMBINED` (unit weights, at least :data:`COMBINE_MIN_TIES` rows per score within an
     input partition: :func:`local_multiplicity`): each input partition counts its own rows
     per score in a Python worker before the shuffle (:func:`combine_rows`, numpy), so fewer
     rows are shuffled, and the workers after the shuffle add up a score's counts from the
     partitions;
   * :data:`AGGREGATED` (otherwise, more than :data:`RAW_MAX_TIES` rows per score): the rows
     are shuffled with their piece as a column and ``groupBy(piece, score[, E])`` sums each
     distinct score's rows in Spark, reusing the shuffle's partitioning (no further exchange):
     counts as LONG, each ``M`` as three 21-bit limbs in LONG sums that cannot overflow
     (:data:`LIMB_BITS`);
   * :data:`RAW` (few ties): the rows go on as they are and the workers sum equal scores (with
     few rows per score Spark's hash aggregation costs more than the transfer it saves).

   These *blocks* go to Python workers (``mapInArrow``, without Spark's per-row byte check:
   :mod:`prtheory.spark.arrow`) without a piece column: a worker finds its pieces from the
   scores and the split points (:func:`piece_runs`, the piece expression's comparisons in
   numpy), evaluates each piece and returns one small result per piece. Exact rationals travel
   pickled (binary integers),
   never as decimal text. The blocks are not cached (a metric that needs several passes asks
   for the cache: ``cache=True``).

An exact sum of at least :data:`~prtheory.distributed.sums.SPREAD_MIN_BITS` bits is reduced in
a fourth, small job (:meth:`Pieces.spread`: one task per core, no shuffle), so that its gcds run
in parallel rather than on the driver alone.

Driver memory is ``O(P)`` (``O(P x exponents)`` with float weights). A piece's blocks must fit
in one task (about 24 bytes per distinct score, or per row when the rows go unaggregated, more
with float weights of many exponents); combining, an input partition's worker holds up to
:data:`COMBINE_CHUNK_ROWS` rows at a time;
with ``cache=True`` the cache holds every block. Needs pyarrow (extra ``spark``).
"""

from __future__ import annotations

import itertools
import math
import pickle
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from prtheory.distributed import (
    Piece,
    distinct_sums,
    dyadic_blocks,
    prefix_offsets,
    run_starts,
)
from prtheory.distributed.blocks import check_rows
from prtheory.errors import InvalidInputError
from prtheory.spark.arrow import unchecked_byte_limit

__all__ = ["Pieces", "bad_label_score", "functions", "pieces", "raise_on_bad", "score_column"]

#: Weights are LONG integer mantissas ``m`` (below 2**63); blocks sum them as LIMBS limbs of
#: LIMB_BITS bits, ``m = sum_i limb_i 2**(LIMB_BITS i)``, each a LONG sum that cannot overflow
#: below 2**LIMB_ROWS_BITS rows (DECIMAL columns, exact too, doubled the time of the shuffle).
LIMB_BITS = 21
LIMBS = 3
LIMB_ROWS_BITS = 63 - LIMB_BITS

#: partition_labels(count), per count
_LABELS: dict[int, list[int]] = {}

#: The default number of pieces (``partitions=None``, :func:`default_pieces`). Each piece is one
#: Python task of some tens of milliseconds before any work, so a piece should hold at least
#: MIN_ROWS_PER_PIECE rows. Measured in local[2] on the three patterns of
#: ``benchmarks/bench_spark.py`` (fastest of 3, float / exact AP): at 10^6 rows 2 pieces took
#: 0.61 / 0.62 s (tied), 0.53 / 0.95 s (untied) and 0.96 / 1.78 s (float weights), 8 pieces
#: 0.85 / 0.87, 0.73 / 1.16 and 1.18 / 1.88 s, and 200 (Spark's default shuffle partitions, an
#: earlier default) 10.4 s with float weights; at 10^7 rows 8 pieces were as fast as 4 or faster
#: (float weights, exact: 13.1 s against 15.0 s) and 3 slower (uneven over 2 cores). Up to
#: PIECES_PER_CORE pieces per core of the session (``defaultParallelism``) balance the cores; a
#: piece's rows are one task's memory (some tens of bytes per row in the Python worker), hence
#: at most MAX_ROWS_PER_PIECE rows.
PIECES_PER_CORE = 4
MIN_ROWS_PER_PIECE = 2**19
MAX_ROWS_PER_PIECE = 2**22

#: Scores sampled per piece for the split points (more: better balanced pieces), and at least
#: SAMPLE_MIN in all: enough equal pairs to see ties among 10^7 rows (:func:`tie_multiplicity`).
SAMPLE_PER_PIECE = 100
SAMPLE_MIN = 4096
#: With a known row count the sample keeps each row with probability SAMPLE_SLACK size / rows:
#: a binomial number of rows, mean 1.25 size, below ``size`` with probability under
#: exp(-0.2**2 x 1.25 size / 2) (Chernoff), 10**-44 at 4096 (fewer rows only balance worse).
SAMPLE_SLACK = 1.25
SEED = 20260415

#: With float weights an exact sum (``exact_sum=True`` in :func:`pieces`: the exact AP or
#: trapezoid) costs a piece most for its positive rows: one term each, a quotient of integers of
#: some 80 bits whose exact sum grows by as many bits, where a negative row only adds to the
#: counts. So its split points balance the cost of the sampled rows, a positive row (of positive
#: weight) counted this many times (:func:`split_points`); otherwise every row counts once. Speed
#: only: no value depends on the split points. Measured in local[2] on the float-weighted
#: pattern of ``benchmarks/bench_spark.py`` at 10^6 rows (2 pieces; the positives' scores are
#: higher, so by rows the top piece holds 75 610 of the 100 097 positive blocks), the longest
#: task of the exact pass (Spark's executor run time; two calls after a warm-up, in each of two
#: sessions; "-": not run in that session): cost 1: 0.70, 0.70 / 0.86, 0.77 s; 3: - / 0.69,
#: 0.66 s; 4: 0.61, 0.61 s / -; 5: - / 0.75, 0.67 s; 6: 0.69, 0.61 s / -; 7: - / 0.72, 0.69 s;
#: 9: 0.72, 0.78 / 0.79, 0.77 s. (Before each term's own reduction in
#: :func:`~prtheory.oracle.summation.rational_sum` a term cost more and 9 balanced best: 0.65
#: and 0.70 s against 0.88 and 0.92 s for cost 1.) At 10^7 rows (8 pieces on 2 cores) cost 9
#: took the longest task from 3.5 to 2.2 s but the call only from 14.3 to 14.0 s. With unit or
#: integer weights the terms are small integers and a piece's cost follows its rows and the
#: size of its counts, not its positives (at 10^6 untied rows, 50 % positives, cost 9 left the
#: longest task at 0.68 s), so they count once.
EXACT_POSITIVE_COST = 4

#: The rows go to the workers as they are when a row shares its score with at most this many
#: rows on average (:func:`tie_multiplicity`); above it Spark first sums each score's rows.
#: Speed only: both ways give the same blocks. Measured in local[2] with the Arrow batches sent
#: without Spark's per-row byte check (:mod:`prtheory.spark.arrow`), the float AP of 10^7 rows
#: (``reports/benchmarks_spark.md`` has the benchmark's own pattern): with about 10 rows per
#: score the rows' transfer and numpy's sum took 2.85 s and Spark's hash aggregation 3.06 s;
#: at about 18 they were even (2.96 s, 2.97 s); at about 54 and 110 aggregation was ahead
#: (3.07 s against 3.13 s; 2.57 s against 3.16 s). At 10^6 rows: 0.89 s against 1.10 s at
#: about 12, even at about 96.
RAW_MAX_TIES = 16.0

#: With unit weights, each input partition first sums its own rows of equal scores (numpy in a
#: Python worker: :func:`combine_rows`, before the shuffle) when a row shares its score with at
#: least this many rows of its partition on average (:func:`local_multiplicity`): fewer rows
#: shuffled and sent to the workers, for one more pass of the rows through Python. Speed only:
#: every path gives the same blocks. Measured in local[2], float AP of 10^7 rows in 2 input
#: partitions (fastest of 4; the rows' true mean multiplicity within a partition, combined
#: against the rows unaggregated): 1.47 (scores to 7 decimals) 3.15 s against 2.44 s; 3.27:
#: 2.39 s against 2.47 s; 4.24: 1.97 s against 2.39 s; 5.73 (6 decimals, the benchmark's tied
#: pattern) 1.75 s against 2.30 s; 48 (5 decimals) 1.36 s against 2.16 s for Spark's
#: aggregation. Even at about 3.3, so 4 leaves a margin for the sample's estimate.
COMBINE_MIN_TIES = 4.0
#: :func:`combine_rows` sums at most this many rows at a time (a bound on a worker's memory
#: whatever the size of the input partition).
COMBINE_CHUNK_ROWS = 2**23

#: Where equal scores are summed (:attr:`Pieces.path`): by the workers after the shuffle (the
#: rows travel as they are), by each input partition before it and the workers after it
#: (:func:`combine_rows`), or by Spark's aggregation after it.
RAW, COMBINED, AGGREGATED = "raw", "combined", "aggregated"


def functions():
    """``pyspark.sql.functions``, or an ImportError saying what to install.

    Returns
    -------
    module
        ``pyspark.sql.functions``.

    Raises
    ------
    ImportError
        pyspark is not installed, saying how to install it.

    Examples
    --------
    >>> from prtheory.spark.blocks import functions
    >>> functions().__name__.startswith("pyspark.sql.functions")
    True
    """
    try:
        from pyspark.sql import functions
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise ImportError(
            "prtheory.spark needs pyspark (pip install -e '.[spark]' from a checkout of prtheory) and Java 17+"
        ) from e
    return functions


def column(name: str):
    """The top-level column named ``name``, whatever characters the name holds: quoted, where
    ``F.col`` would read a dot as a struct field and reject a backtick."""
    return functions().col("`" + name.replace("`", "``") + "`")


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


def score_column(df, name: str, index: int | None = None):
    """The score column as DOUBLE; a column of MLlib vectors (``probability``,
    ``rawPrediction``) or of arrays read at ``index`` (0-based, as ``vector_to_array(c)[i]``).

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        The data.
    name : str
        The score column.
    index : int or None
        The element of a vector or array column (0-based).

    Returns
    -------
    pyspark.sql.Column
        The score as DOUBLE.

    Raises
    ------
    InvalidInputError
        A column missing, of the wrong type, or an ``index`` on a plain column.

    See Also
    --------
    bad_label_score

    Examples
    --------
    The second element of an array column:

    >>> from pyspark.sql import SparkSession
    >>> from prtheory.spark.blocks import score_column
    >>> session = SparkSession.builder.getOrCreate()
    >>> df = session.createDataFrame([([0.2, 0.8],)], ["probability"])
    >>> df.select(score_column(df, "probability", 1)).first()[0]
    0.8
    """
    from pyspark.sql import types as T

    if name not in df.columns:
        raise InvalidInputError("score_col", f"column {name!r} not in the DataFrame {df.columns}")
    dt = df.schema[name].dataType
    vector = type(dt).__name__ == "VectorUDT"
    if not (vector or isinstance(dt, T.ArrayType)):
        if index is not None:
            raise InvalidInputError(
                "score_index", f"column {name!r} holds numbers ({dt}), not vectors: omit it"
            )
        _column_kind(df, name, "score_col")
        return column(name).cast("double")
    if index is None:
        raise InvalidInputError(
            "score_index", f"column {name!r} holds vectors ({dt}): say which element, e.g. 1"
        )
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise InvalidInputError("score_index", f"must be an integer >= 0, got {index!r}")
    if vector:
        from pyspark.ml.functions import vector_to_array

        return vector_to_array(column(name))[index]
    return column(name)[index].cast("double")


def bad_label_score(df, label_col: str, score_col: str, score_index: int | None = None):
    """Check the label and score columns' types; return them as doubles and one boolean column
    per argument, true on its malformed rows (a vector shorter than ``score_index`` included:
    its element is null).

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        The data.
    label_col, score_col : str
        The label and score columns.
    score_index : int or None
        The element of a vector or array score column.

    Returns
    -------
    tuple
        The label and score as double columns, and per argument a column true on its malformed
        rows.

    Raises
    ------
    InvalidInputError
        A column missing or of the wrong type.

    See Also
    --------
    raise_on_bad

    Examples
    --------
    A label 2 is malformed:

    >>> from pyspark.sql import SparkSession
    >>> from prtheory.spark.blocks import bad_label_score
    >>> session = SparkSession.builder.getOrCreate()
    >>> df = session.createDataFrame([(1, 0.9), (2, 0.8)], ["label", "score"])
    >>> y, s, bad = bad_label_score(df, "label", "score")
    >>> [r[0] for r in df.select(bad["label_col"]).collect()]
    [False, True]
    """
    F = functions()
    _column_kind(df, label_col, "label_col")
    s = score_column(df, score_col, score_index)
    y = column(label_col).cast("double")
    bad = {"label_col": y.isNull() | ~y.isin(0.0, 1.0), "score_col": s.isNull() | F.isnan(s)}
    return y, s, bad


def _malformed(df, label_col: str, score_col: str, weight_col: str | None = None, score_index=None):
    """:func:`bad_label_score`, and the weight column (or None), whether it is integral, and
    its malformed rows."""
    F = functions()
    y, s, bad = bad_label_score(df, label_col, score_col, score_index)
    w, integral = None, False
    if weight_col is not None:
        w = column(weight_col)
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
    return [F.count_if(flag).alias(f"bad_{i}") for i, flag in enumerate(bad.values())]


def _check(bad: dict, stats) -> None:
    """Raise on the malformed rows counted by :func:`_bad_counts` (summed over ``stats``)."""
    raise_on_bad({arg: sum(int(r[f"bad_{i}"] or 0) for r in stats) for i, arg in enumerate(bad)})


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


def cached_rows(df) -> int | None:
    """The number of rows of ``df`` when Spark knows it without a pass: ``df`` is itself a
    materialized cache (an ``InMemoryRelation`` counts its rows when it is built; Spark's
    statistics drop the count through any operator, a projection included). Else None, and
    always None for a DataFrame without a JVM plan on this side (Spark Connect)."""
    if not hasattr(df, "_jdf"):
        return None
    # a new query: a DataFrame's own plan, and its statistics, are computed once and kept
    plan = df.select("*")._jdf.queryExecution().optimizedPlan()
    leaves = plan.collectLeaves()
    if any(
        leaves.apply(i).getClass().getSimpleName() != "InMemoryRelation"
        for i in range(leaves.size())
    ):
        return None
    count = plan.stats().rowCount()
    return int(str(count.get())) if count.isDefined() else None


def sample_scores(df, score, size: int, cost=None) -> tuple[np.ndarray, float, float, np.ndarray]:
    """The scores (as doubles, NaN dropped) of a seeded sample of about ``size`` rows (all rows
    if fewer), the number of rows in ``df``, exact or estimated, the probability that two
    sampled rows come from the same input partition (``sum_j (m_j / m)**2`` over the sampled
    rows' partitions, ``spark_partition_id``: :func:`local_multiplicity`), and each sampled
    score's ``cost`` (an integer column >= 1; all 1 without one: :func:`split_points`). One
    pass.

    On a cached frame (:func:`cached_rows`) the count is known: each row is kept with
    probability ``SAMPLE_SLACK size / rows`` (Bernoulli, seeded; a native filter, about a third
    of the time of the ordered sample at 10^7 rows). Otherwise the sample is the ``size`` rows
    with the smallest ``rand(SEED)``: each partition keeps its own smallest, the driver merges
    them, so no count is needed first, and one is estimated: with fewer than ``size`` rows the
    sample is every row and the count is exact; otherwise the largest kept ``r`` is the
    ``size``-th smallest of ``N`` uniform draws, whose distribution is
    ``Beta(size, N - size + 1)`` with ``E[1/r] = N / (size - 1)``, so ``(size - 1) / r``
    estimates ``N`` without bias, within about ``1/sqrt(size)`` relative (1.6 % at 4096). The
    count only sizes the sample and chooses the default number of pieces
    (:func:`default_pieces`); no value depends on it."""
    F = functions()
    known = cached_rows(df)
    cols = [
        score.alias("s"),
        F.spark_partition_id().alias("part"),
        F.lit(1) if cost is None else cost,
    ]
    if known is not None:
        fraction = min(1.0, SAMPLE_SLACK * size / max(known, 1))
        rows = df.select(*cols).sample(False, fraction, SEED).collect()
        count = float(known)
    else:
        rows = df.select(*cols, F.rand(SEED).alias("r")).orderBy("r").limit(size).collect()
        if len(rows) < size:
            count = float(len(rows))
        else:
            count = (size - 1) / max(float(rows[-1][3]), 2.0**-53)
    sample = np.array([np.nan if r[0] is None else r[0] for r in rows], dtype=float)
    costs = np.array([r[2] for r in rows], dtype=np.int64)
    _, per_part = np.unique(np.array([r[1] for r in rows], dtype=np.int64), return_counts=True)
    same_part = float(((per_part / max(len(rows), 1)) ** 2).sum()) if rows else 1.0
    keep = ~np.isnan(sample)
    return sample[keep], count, same_part, costs[keep]


def session_cores(session) -> int:
    """The cores :func:`default_pieces` spreads the pieces over: the SparkContext's
    ``defaultParallelism``. A session without a SparkContext on this side (Spark Connect) has
    ``spark.default.parallelism`` if set, else its shuffle partitions over
    :data:`PIECES_PER_CORE` (so at most that many pieces), at least 1."""
    if hasattr(session, "_jsc"):
        return int(session.sparkContext.defaultParallelism)
    parallelism = session.conf.get("spark.default.parallelism", None)
    if parallelism:
        return int(parallelism)
    return max(1, int(session.conf.get("spark.sql.shuffle.partitions")) // PIECES_PER_CORE)


def default_pieces(rows: float, cores: int) -> int:
    """The number of pieces when the caller does not choose: :data:`PIECES_PER_CORE` per core,
    fewer when a piece would hold fewer than :data:`MIN_ROWS_PER_PIECE` rows, more when it would
    hold more than :data:`MAX_ROWS_PER_PIECE`; at least 1."""
    by_speed = min(PIECES_PER_CORE * cores, math.ceil(rows / MIN_ROWS_PER_PIECE))
    return max(1, by_speed, math.ceil(rows / MAX_ROWS_PER_PIECE))


def split_points(
    sample: np.ndarray, partitions: int, costs: np.ndarray | None = None
) -> list[float]:
    """At most ``partitions - 1`` distinct descending quantiles of the finite ``sample``, each
    sampled score counted ``costs`` times (integers >= 1; default 1: the plain inverted-CDF
    quantiles). The ``j``-th is the least sampled ``x`` whose sampled scores ``<= x`` cost at
    least ``j / partitions`` of the whole (exact integer comparisons), so the pieces hold about
    equal cost (:data:`EXACT_POSITIVE_COST`)."""
    finite = np.isfinite(sample)
    sample = sample[finite]
    if partitions == 1 or sample.size == 0:
        return []
    weight = np.ones(sample.size, dtype=np.int64) if costs is None else costs[finite]
    order = np.argsort(sample, kind="stable")
    cumulative = np.cumsum(weight[order])
    at = np.searchsorted(partitions * cumulative, np.arange(1, partitions) * cumulative[-1])
    return sorted({float(v) for v in sample[order][at]}, reverse=True)


def tie_multiplicity(sample: np.ndarray, rows: int) -> float:
    """Estimated mean, over the rows, of the number of rows with the row's score (1: no ties),
    from a uniform sample of ``m`` of the ``rows`` rows without replacement.

    Two distinct rows share a score with probability ``(mu - 1) / (rows - 1)`` (``mu`` that
    mean: ``sum_v c_v (c_v - 1) = rows (mu - 1)`` over the scores' counts ``c_v``), so the
    sample's equal pairs ``D`` have expectation ``C(m, 2) (mu - 1) / (rows - 1)`` and
    ``1 + (rows - 1) D / C(m, 2)`` is unbiased. Used only to choose where equal scores are
    summed (:data:`RAW_MAX_TIES`)."""
    m = sample.size
    if m < 2 or rows < 2:
        return 1.0
    _, counts = np.unique(sample, return_counts=True)
    pairs = int((counts * (counts - 1) // 2).sum())
    return 1.0 + (rows - 1) * pairs / (m * (m - 1) / 2)


def local_multiplicity(ties: float, same_part: float) -> float:
    """Estimated mean number of rows of its own input partition sharing a row's score, from
    the whole frame's (``ties``, :func:`tie_multiplicity`) and the probability ``same_part``
    that two rows share an input partition (:func:`sample_scores`): two rows of one partition
    share a score as often as any two rows, ``(ties - 1) / (rows - 1)``, when the rows are
    placed in the partitions regardless of score, and a row's partition holds about
    ``same_part x rows`` rows on average over the rows, so ``1 + (ties - 1) same_part``. Rows
    placed by score (a frame sorted or partitioned by score) share more; only the speed
    depends on this (:data:`COMBINE_MIN_TIES`)."""
    return 1.0 + (ties - 1.0) * same_part


def unaggregated(ties: float) -> bool:
    """Whether rows with ``ties`` rows per score on average (:func:`tie_multiplicity`) go to the
    workers unaggregated: at most :data:`RAW_MAX_TIES`."""
    return ties <= RAW_MAX_TIES


def _with_dyadic(frame, w: str):
    """``frame`` with float weight column ``w`` replaced by ``m`` (LONG) and ``e``:
    ``w = m 2**e`` exactly, ``0 <= m < 2**56`` (``m = e = 0`` for ``w = 0``).

    ``e = max(floor(log2 w) - 53, -1074)``. ``log2`` is within an ulp, so its floor is the
    binary exponent ``t`` of ``w`` or one off either way; any of the three makes
    ``m = w 2**-e`` an integer below ``2**56``: the lowest bit of a normal ``w`` is at least
    ``2**(t - 52)`` and of any double at least ``2**-1074``. The scaling by ``2**-e`` is exact
    (a power of two, no overflow): from LONG powers of two (``shiftleft``, two factors of at most
    ``2**62``) when ``0 <= -e <= 124``, the weights between about ``2**-71`` and ``2**54``;
    otherwise from two ``pow(2, .)`` halves, which covers subnormal and huge ``w`` and is about
    four times slower. The mantissa is not reduced to odd: any exact integer serves the sums.
    """
    e = f"greatest(cast(floor(log2({w})) as int) - 53, -1074)"
    # w times two powers of two, in that order (2**1074 itself would overflow)
    near = (
        f"{w} * cast(shiftleft(1L, least(-_e, 62)) as double)"
        " * cast(shiftleft(1L, -_e - least(-_e, 62)) as double)"
    )
    half = "floor(-_e / 2)"
    far = f"{w} * pow(2.0D, {half}) * pow(2.0D, -_e - {half})"
    mant = f"cast(CASE WHEN _e <= 0 AND _e >= -124 THEN {near} ELSE {far} END as long)"
    keep = [c for c in frame.columns if c != w]
    # SQL text: one call to the JVM for the whole expression (the names are this module's own)
    return frame.selectExpr(*keep, w, f"{e} as _e").selectExpr(
        *keep,
        f"CASE WHEN {w} > 0 THEN {mant} ELSE 0L END as m",
        f"CASE WHEN {w} > 0 THEN _e ELSE 0 END as e",
    )


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


def _class_weights(cols: dict, order: np.ndarray, weighted: bool, raw: bool):
    """Per row of a block frame (Arrow columns, rows taken in ``order``): the positive and
    negative weight, integers (mantissas for float weights, of exponent ``e``)."""
    if raw:
        y = cols["y"].to_numpy()[order].astype(bool)
        m = cols["m"].to_numpy()[order]
        zero = np.zeros((), dtype=m.dtype)
        return np.where(y, m, zero), np.where(y, zero, m)
    if weighted:
        return _limbs_column(cols, "p")[order], _limbs_column(cols, "n")[order]
    return cols["p"].to_numpy()[order].astype(np.int64), cols["n"].to_numpy()[order].astype(
        np.int64
    )


def counted_blocks(score: np.ndarray, positive: np.ndarray):
    """Blocks of unit-weight rows in any order: the distinct scores in decreasing order and the
    number of positive and negative rows of each (int64).

    Sorts the scores' values only (``np.sort``: 0.014 s for 1.25 x 10^6 rows in a measurement
    here, where ``argsort`` and gathering the labels took 0.034-0.055 s) and finds each
    positive row's block by binary search among the distinct scores, which hold it exactly."""
    ascending = np.sort(score)
    starts = run_starts(ascending)
    distinct = ascending[starts]
    total = np.diff(np.append(starts, ascending.size))
    pos = np.bincount(np.searchsorted(distinct, score[positive]), minlength=distinct.size)
    return distinct[::-1], pos[::-1], (total - pos)[::-1]


def combine_rows(batches: Iterable[Any]) -> Iterator[Any]:
    """``mapInArrow`` function over an input partition's unit-weight rows (``s`` double, ``y``
    0/1): one row ``(s, p, n)`` per distinct score of each run of up to
    :data:`COMBINE_CHUNK_ROWS` rows, its positive and negative rows counted
    (:func:`counted_blocks`). A score may recur across runs and partitions: the workers sum
    the recurrences after the shuffle."""
    import pyarrow as pa

    schema = pa.schema([("s", pa.float64()), ("p", pa.int64()), ("n", pa.int64())])
    pending: list[Any] = []
    rows = 0
    for batch in itertools.chain(batches, [None]):  # lazily: a run at a time in memory
        if batch is not None:
            pending.append(batch)
            rows += batch.num_rows
            if rows < COMBINE_CHUNK_ROWS:
                continue
        if rows == 0:
            continue
        table = pa.Table.from_batches(pending)
        positive = table.column("y").to_numpy().astype(bool)
        score, pos, neg = counted_blocks(table.column("s").to_numpy(), positive)
        yield pa.RecordBatch.from_pydict({"s": score, "p": pos, "n": neg}, schema=schema)
        pending, rows = [], 0


def piece_runs(descending: np.ndarray, splits: list[float]) -> list[tuple[int, int, int]]:
    """``(piece, start, stop)`` for every piece with rows among scores in decreasing order:
    piece ``#{j : s < splits[j]}`` of :func:`_piece_expr`, the same double comparisons, so a
    worker finds the pieces from the scores without a piece column travelling in the shuffle.
    Piece ``i`` ends after the scores ``>= splits[i]``."""
    if descending.size == 0:
        return []
    ends = np.searchsorted(-descending, -np.asarray(splits, dtype=np.float64), side="right")
    edges = [0, *ends.tolist(), descending.size]
    return [(i, a, b) for i, (a, b) in enumerate(itertools.pairwise(edges)) if a < b]


@dataclass
class Pieces:
    """The pieces of a DataFrame (``frame``: their blocks, not yet computed), their exact
    totals and offsets (see the module).

    ``pos``/``neg`` are the class weights over ``2**-k``; ``splits`` the descending split points
    and ``labels`` each piece's label (:func:`partition_labels`; ``offsets`` is keyed by label):
    the blocks carry no piece column, a worker finds the pieces from the scores
    (:func:`piece_runs`); ``top_is_empty`` says whether the
    highest-scored block has zero weight (MLlib's empty classifier); ``ties`` is the sample's
    estimate of the rows per score (:func:`tie_multiplicity`); ``path`` says where equal scores
    are summed: :data:`RAW` (the frame holds the shuffled rows themselves, the workers sum
    equal scores), :data:`COMBINED` (unit weights: each input partition's rows summed per score
    before the shuffle, :func:`combine_rows`, and the recurring scores by the workers) or
    :data:`AGGREGATED` (one row per (score[, exponent]) summed by Spark); ``rows`` is what the
    one shuffle moves (for measurements); with ``cache`` the first :meth:`run` caches the blocks for the next.
    Use as a context manager (a cache is released on exit).

    Parameters
    ----------
    frame : pyspark.sql.DataFrame
        The pieces' blocks, not yet computed.
    weighted : bool
        Whether there is a weight column.
    k : int
        Weights are integers over ``2**k``.
    offsets : dict of int to (int, int)
        Each piece's exclusive prefix totals.
    pos, neg : int
        The class weights over ``2**-k``.
    top_is_empty : bool
        Whether the highest-scored block has zero weight.
    splits : list of float
        The descending split points.
    labels : list of int
        Each piece's label.
    pieces : int
        The number of pieces.
    cache : bool
        Cache the blocks for a second run.
    path : str
        Where equal scores are summed.
    rows : object
        What the shuffle moves.
    ties : float
        The sample's rows per score.

    See Also
    --------
    pieces : builds it.

    Examples
    --------
    Two positives and two negatives with unit weights (``k = 0``); the top block (0.9) holds a positive:

    >>> from pyspark.sql import SparkSession
    >>> from prtheory.spark.blocks import pieces
    >>> session = SparkSession.builder.getOrCreate()
    >>> df = session.createDataFrame([(1, 0.9), (0, 0.8), (1, 0.8), (0, 0.1)], ["label", "score"])
    >>> with pieces(df, "label", "score", None, 2) as p:
    ...     (p.pos, p.neg, p.top_is_empty)
    (2, 2, False)
    """

    frame: Any
    weighted: bool
    k: int
    offsets: dict[int, tuple[int, int]]
    pos: int
    neg: int
    top_is_empty: bool
    splits: list[float]
    labels: list[int]
    pieces: int = field(default=0)
    cache: bool = False
    path: str = RAW
    rows: Any = None
    ties: float = 1.0

    def run(self, fn) -> list:
        """``fn(piece)`` for every piece, evaluated in the Python workers; the results in piece
        order.

        The blocks reach the workers as Arrow batches (``mapInArrow``: columnar, no Python
        object per value; without Spark's per-row byte check, :mod:`prtheory.spark.arrow`); a
        worker's partition may hold several pieces (hash partitioning of the piece labels), so
        it sorts its blocks by decreasing score, splits them at the split points
        (:func:`piece_runs`), sums the rows of equal scores unless Spark did
        (:func:`counted_blocks` for unit-weight rows, :func:`distinct_sums` for the input
        partitions' sums) and returns one pickled result per piece (exact integers travel in
        binary)."""
        offsets, k, weighted, path = self.offsets, self.k, self.weighted, self.path
        splits, labels = self.splits, self.labels
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
            score = cols["s"].to_numpy()
            if path == RAW and not weighted:
                score, p, n = counted_blocks(score, cols["y"].to_numpy().astype(bool))
            else:
                order = np.argsort(-score)
                score = score[order]
                p, n = _class_weights(cols, order, weighted, path == RAW)
                if weighted:
                    e = cols["e"].to_numpy()[order]
                elif path == COMBINED:  # a score recurs once per input partition (and run)
                    score, p, n = distinct_sums(score, p, n)
            ids, results = [], []
            # pieces are disjoint score ranges: decreasing score puts each in one run
            for index, a, b in piece_runs(score, splits):
                label = labels[index]
                if weighted:  # sums equal scores (and exponents) exactly
                    pos, neg = dyadic_blocks(score[a:b], e[a:b], p[a:b], n[a:b], k)
                else:  # one row per score: counted, summed, or summed by Spark
                    pos, neg = p[a:b], n[a:b]
                ids.append(label)
                results.append(pickle.dumps(fn(Piece(pos, neg, *offsets[label]))))
            yield pa.RecordBatch.from_pydict(
                {"piece": ids, "result": results},
                schema=pa.schema([("piece", pa.int32()), ("result", pa.binary())]),
            )

        if self.cache and not self.frame.is_cached:
            self.frame.persist()  # filled by this first run, reused by the next
        frame = self.frame
        with unchecked_byte_limit(frame.sparkSession, len(frame.columns)):
            out = frame.mapInArrow(partition, "piece int, result binary").collect()
        rank = {label: i for i, label in enumerate(offsets)}  # offsets are in piece order
        return [pickle.loads(r[1]) for r in sorted(out, key=lambda r: rank[r[0]])]

    def spread(self, fn, items: list) -> list:
        """``[fn(item) for item in items]``, computed in Python workers: one task per core of the
        session (fewer with fewer items), item ``i`` in task ``i mod tasks``. ``fn`` and the
        items travel with the job's closure (Spark broadcasts a large one), so they must be
        small beside the data (:func:`prtheory.distributed.sums.combine_exact` sends each
        piece's exact denominator and the numerator of their sum); the results come back
        pickled."""
        if not items:
            return []
        session = self.frame.sparkSession
        tasks = min(len(items), session_cores(session))
        groups = [range(t, len(items), tasks) for t in range(tasks)]

        def task(batches):
            import pyarrow as pa

            for batch in batches:
                ids = [i for t in batch.column(0).to_pylist() for i in groups[t]]
                yield pa.RecordBatch.from_pydict(
                    {"i": ids, "r": [pickle.dumps(fn(items[i])) for i in ids]},
                    schema=pa.schema([("i", pa.int64()), ("r", pa.binary())]),
                )

        out = session.range(0, tasks, 1, tasks).mapInArrow(task, "i long, r binary").collect()
        results = {int(r[0]): pickle.loads(r[1]) for r in out}
        return [results[i] for i in range(len(items))]

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
    exact_sum: bool = False,
    score_index: int | None = None,
) -> Pieces:
    """Validate the columns and build the :class:`Pieces` (module docstring).

    Two jobs before the metric's own pass: the sample for the split points (and, with
    ``partitions=None``, the row count's estimate that chooses their number:
    :func:`default_pieces`), the per-piece totals (with the count of malformed rows: raise if
    any); then :meth:`Pieces.run` shuffles, aggregates and evaluates in one job. With
    ``cache=True`` (a metric that maps over the pieces more than once, as the Davis-Goadrich
    area) the blocks are cached by the first run until :meth:`Pieces.close`; otherwise a second
    run (an undecided rounding) recomputes them. ``exact_sum=True`` (the first run sums the
    positive blocks' terms exactly) balances float-weighted pieces by
    :data:`EXACT_POSITIVE_COST`.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        The data.
    label_col, score_col : str
        The label and score columns.
    weight_col : str or None
        The weight column.
    partitions : int or None
        The pieces; None chooses from the row count.
    unit_weights : bool
        Whether the weights are all 1 (default False).
    cache : bool
        Cache the blocks for a second run (default False).
    exact_sum : bool
        Balance the pieces for an exact first sum (default False).
    score_index : int or None
        The element of a vector or array score column.

    Returns
    -------
    Pieces
        The pieces and their exact totals.

    Raises
    ------
    InvalidInputError
        A column missing or of the wrong type, or malformed rows, naming the argument.

    See Also
    --------
    prtheory.spark.average_precision : a metric over them.

    Examples
    --------
    Two positives and two negatives, unit weights (``k = 0``):

    >>> from pyspark.sql import SparkSession
    >>> from prtheory.spark.blocks import pieces
    >>> session = SparkSession.builder.getOrCreate()
    >>> df = session.createDataFrame([(1, 0.9), (0, 0.8), (1, 0.8), (0, 0.1)], ["label", "score"])
    >>> with pieces(df, "label", "score", None, 2) as p:
    ...     p.pos, p.neg, p.k
    (2, 2, 0)
    """
    F = functions()
    if unit_weights and weight_col is not None:
        raise InvalidInputError("weight_col", "this metric counts items: unit weights only")
    if partitions is not None and (
        isinstance(partitions, bool) or not isinstance(partitions, int) or partitions < 1
    ):
        raise InvalidInputError("partitions", f"must be an integer >= 1, got {partitions!r}")
    y, s, w, integral, bad = _malformed(df, label_col, score_col, weight_col, score_index)
    cores = session_cores(df.sparkSession) if partitions is None else 0
    # sized for the pieces asked for, or by default for their per-core bound
    size = max(SAMPLE_PER_PIECE * (partitions or PIECES_PER_CORE * cores), SAMPLE_MIN)
    cost = None
    if exact_sum and weight_col is not None and not integral:
        cost = F.when((y == 1.0) & (w > 0), F.lit(EXACT_POSITIVE_COST)).otherwise(F.lit(1))
    sample, estimate, same_part, costs = sample_scores(df, s, size, cost)
    if partitions is None:
        partitions = default_pieces(estimate, cores)
        if SAMPLE_PER_PIECE * partitions > size:  # more pieces than cores allow: a larger sample
            sample, _, same_part, costs = sample_scores(df, s, SAMPLE_PER_PIECE * partitions, cost)
    splits = split_points(sample, partitions, costs)
    labels = partition_labels(df.sparkSession, len(splits) + 1)
    cols = [(s + 0.0).alias("s"), (y == 1.0).alias("y")]
    flags = {arg: F.col(f"bad_{i}") for i, arg in enumerate(bad)}
    cols += [flag.alias(f"bad_{i}") for i, flag in enumerate(bad.values())]
    if weight_col is None:
        rows = df.select(*cols)
    elif integral:  # integer weights: exact LONG values, exponent 0
        rows = df.select(*cols, w.cast("long").alias("m"), F.lit(0).alias("e"))
    else:  # a malformed weight becomes 0 here (no failing cast); the totals job rejects it
        safe = F.when(bad["weight_col"], F.lit(0.0)).otherwise(w)
        rows = _with_dyadic(df.select(*cols, safe.alias("w")), "w")
    piece = _piece_expr(F.col("s"), splits, labels)
    rows = rows.select(piece.alias("piece"), *rows.columns)

    row_cols = ["s", F.col("y").cast("byte").alias("y")]
    if weight_col is None:
        counts = [F.count_if("y").alias("p"), F.count(F.lit(1)).alias("rows")]
        stats = rows.groupBy("piece").agg(*counts, *_bad_counts(flags)).collect()
        _check(flags, stats)
        totals = {r["piece"]: (int(r["p"]), int(r["rows"])) for r in stats}
        count = sum(t for _, t in totals.values())

        def aggregate(by_piece):
            return (
                by_piece.groupBy("piece", "s")
                .agg(*counts)
                .select("s", "p", (F.col("rows") - F.col("p")).alias("n"))
            )

        k, top_is_empty = 0, False
    else:
        sums = []
        for i in range(LIMBS):
            limb = f"shiftright(m, {LIMB_BITS * i}) & {2**LIMB_BITS - 1}"
            sums.append(F.expr(f"sum(if(y, {limb}, 0L)) as p{i}"))
            sums.append(F.expr(f"sum(if(y, 0L, {limb})) as n{i}"))
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
        count = sum(int(r["rows"]) for r in stats)
        if count >= 2**LIMB_ROWS_BITS:
            raise InvalidInputError(
                "df", f"more than 2**{LIMB_ROWS_BITS} rows: exact LONG limb sums could overflow"
            )

        def aggregate(by_piece):
            return by_piece.groupBy("piece", "s", "e").agg(*sums).drop("piece")

        row_cols += ["m", "e"]
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
    # the one shuffle (``moved``): of the rows or of the input partitions' counts, by the piece
    # expression (the workers find the pieces from the scores, so no piece column travels), or,
    # for Spark's aggregation, by the piece column it groups by, keeping that partitioning
    ties = tie_multiplicity(sample, count)
    if weight_col is None and local_multiplicity(ties, same_part) >= COMBINE_MIN_TIES:
        path = COMBINED
        counted = rows.select(*row_cols).mapInArrow(combine_rows, "s double, p long, n long")
        blocks = moved = counted.repartition(len(splits) + 1, piece)
    elif unaggregated(ties):
        path = RAW
        moved = rows.drop("piece").repartition(len(splits) + 1, piece)
        blocks = moved.select(*row_cols)
    else:
        path = AGGREGATED
        moved = rows.repartition(len(splits) + 1, "piece")
        blocks = aggregate(moved)
    order = [label for label in labels if label in totals]
    offsets = dict(zip(order, prefix_offsets(totals[i] for i in order), strict=True))
    pos = sum(p for p, _ in totals.values())
    neg = sum(t for _, t in totals.values()) - pos
    return Pieces(
        blocks,
        weight_col is not None,
        k,
        offsets,
        pos,
        neg,
        top_is_empty,
        splits,
        labels,
        pieces=len(order),
        cache=cache,
        path=path,
        rows=moved,
        ties=ties,
    )


def raise_on_bad(counts: dict[str, int]) -> None:
    """Raise naming the first argument with malformed rows (``label_col``, ``score_col``,
    ``weight_col``; :func:`prtheory.distributed.check_rows`).

    Parameters
    ----------
    counts : dict of str to int
        Malformed rows per argument (``label_col``, ``score_col``, ``weight_col``).

    Returns
    -------
    None

    Raises
    ------
    InvalidInputError
        Naming the first argument with malformed rows.

    See Also
    --------
    prtheory.distributed.blocks.check_rows

    Examples
    --------
    >>> from prtheory.spark.blocks import raise_on_bad
    >>> raise_on_bad({"label_col": 0, "score_col": 0})
    >>> raise_on_bad({"label_col": 0, "score_col": 2})
    Traceback (most recent call last):
    ...
    prtheory.errors.InvalidInputError: score_col: scores must not be NaN or null: 2 bad rows
    """
    check_rows({arg.removesuffix("_col"): count for arg, count in counts.items()}, suffix="_col")
