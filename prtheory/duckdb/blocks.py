"""A DuckDB source as a stream of range pieces of exact blocks (the engine adapter of
:mod:`prtheory.distributed`).

Queries of DuckDB's own parallel, out-of-core operators, so memory is bounded by DuckDB's
``memory_limit`` and not by the rows:

1. *checks and totals* (one scan): the rows of malformed labels, scores and weights counted
   (when there are any, a second scan counts them per argument and the error names the first
   bad one, before any evaluation), the exact positive and negative weight, and with weights
   the least and largest weight (the scale, below); the highest score and the highest score of
   positive weight (MLlib's empty classifier: ``top_is_empty``) are a scan of their own, run
   only for MLlib's first point. Float weights summed as one HUGEINT per score need the scale
   first, so their totals are a second scan, run only when a metric asks for them (the float
   AP sums the blocks' stream instead: :mod:`prtheory.duckdb.extended`);
2. *blocks* (:meth:`Blocks.run`): ``GROUP BY score ORDER BY score DESC`` with the exact
   positive and negative weight of each distinct score, streamed to Python as Arrow batches of
   :data:`PIECE_ROWS` blocks. Each batch is a piece (a score never straddles two: the rows of
   the last score of a batch wait for the next), its offset the running totals of the pieces
   before it; ``fn(piece)`` runs as the batch arrives, so Python holds one piece at a time
   and one small result per piece.

Weights, never summed in floating point: unit weights are counts; integer weights are summed as
HUGEINT. Float weights are scaled by ``2**k``, the least power making every weight an integer
(:func:`scale`, from the least positive weight: the first scan), and when ``w 2**k`` times the
rows fits in :data:`HUGEINT_BITS` bits (weights within about 2**45 of each other at 10^8 rows)
each ``w 2**k`` is cast to HUGEINT (exact: an integer-valued double) and summed per score.
Otherwise each weight is written ``w = m 2**e`` with integers ``0 <= m < 2**56`` and ``e``
(:data:`DYADIC`, the decomposition of ``prtheory.spark``), ``m`` summed per (score, ``e``)
and :func:`prtheory.distributed.dyadic_blocks` aligns the exponents over ``2**-k``. The sums
reach Python as two BIGINT halves (:func:`_halves`). Scores are compared as DOUBLE (``-0.0``
and ``0.0`` are one score, as in numpy).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from prtheory.distributed import Piece, dyadic_blocks, run_starts
from prtheory.distributed.blocks import check_rows
from prtheory.duckdb.source import Source, quote
from prtheory.errors import InvalidInputError

__all__ = ["DYADIC", "PIECE_ROWS", "Blocks", "bad_flags", "blocks"]

#: Blocks per piece (one Arrow batch): the exact sums of a piece are one rational per piece.
PIECE_ROWS = 2**20

#: ``w = m 2**e`` exactly: ``e = max(floor(log2 w) - 53, -1074)`` (``log2`` within an ulp, so
#: ``floor`` may be off by one either way; any of the three leaves ``m`` an integer below
#: ``2**56``), ``m = w 2**-e`` scaled by two powers of two in turn (``2**1074`` itself
#: overflows), both exact. ``{w}`` is a finite positive DOUBLE.
_EXPONENT = "greatest(CAST(floor(log2({w})) AS INTEGER) - 53, -1074)"
DYADIC = (
    _EXPONENT,
    "CAST({w} * pow(2.0, floor(-({e}) / 2)) * pow(2.0, -({e}) - floor(-({e}) / 2)) AS BIGINT)",
)

#: Weights ``w 2**k`` below ``2**HUGEINT_BITS / rows`` are summed as one HUGEINT per score:
#: every sum is below ``2**125``, so its high half (:func:`_halves`) is below ``2**63`` and fits
#: a BIGINT (at 126 bits three rows of ``2**124 - 2**71`` at one score overflowed the cast).
HUGEINT_BITS = 125

#: HUGEINT sums reach Python as ``hi 2**62 + lo`` (two BIGINTs, ``0 <= lo < 2**62``).
_HALF_BITS = 62


def bad_flags(y: str, s: str, w: str | None) -> dict[str, str]:
    """SQL conditions true on the malformed rows of each argument.

    Parameters
    ----------
    y, s : str
        The quoted label and score columns.
    w : str or None
        The quoted weight column.

    Returns
    -------
    dict of str to str
        Per argument, the SQL condition of its malformed rows.

    See Also
    --------
    blocks

    Examples
    --------
    >>> from prtheory.duckdb.blocks import bad_flags
    >>> bad_flags('"y"', '"s"', None)
    {'label': '"y" IS NULL OR "y" NOT IN (0, 1)', 'score': '"s" IS NULL OR isnan("s")'}
    """
    flags = {"label": f"{y} IS NULL OR {y} NOT IN (0, 1)", "score": f"{s} IS NULL OR isnan({s})"}
    if w is not None:
        flags["weight"] = f"{w} IS NULL OR isnan({w}) OR isinf({w}) OR {w} < 0"
    return flags


def _halves(total: str) -> str:
    """A HUGEINT sum as the columns ``total_hi``, ``total_lo`` (:data:`_HALF_BITS`)."""
    mask = 2**_HALF_BITS - 1
    return (
        f"CAST(({total}) >> {_HALF_BITS} AS BIGINT) AS {total}_hi, "
        f"CAST(({total}) & {mask} AS BIGINT) AS {total}_lo"
    )


def _batches(reader: Any) -> Iterator[Any]:
    """The non-empty batches of an Arrow reader."""
    for batch in reader:
        if batch.num_rows:
            yield batch


def column(table: Any, name: str) -> np.ndarray:
    """A fixed-width column of an Arrow table without nulls as a numpy array, read from its
    buffers (``to_numpy`` would import pandas, half a second of the call)."""
    parts = []
    for chunk in table.column(name).chunks:
        if chunk.null_count:  # pragma: no cover - the queries coalesce their sums
            raise AssertionError(f"unexpected nulls in {name}")
        dtype = np.dtype(chunk.type.to_pandas_dtype())
        data = np.frombuffer(chunk.buffers()[1], dtype=dtype)
        parts.append(data[chunk.offset : chunk.offset + len(chunk)])
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def _joined(batch: Any, name: str) -> np.ndarray:
    """The exact integers ``hi 2**62 + lo`` of two BIGINT columns: int64 where they and their
    sum fit, else Python integers."""
    hi = column(batch, f"{name}_hi")
    lo = column(batch, f"{name}_lo")
    if lo.size == 0 or (
        not hi.any() and int(lo.max()).bit_length() + lo.size.bit_length() < _HALF_BITS
    ):
        return lo.astype(np.int64)
    return (hi.astype(object) << _HALF_BITS) + lo.astype(object)


@dataclass
class Blocks:
    """The ranking of a source as pieces (module docstring): the exact totals, and the blocks'
    query, run by :meth:`run` (the :class:`prtheory.distributed.metrics.Ranked` interface).

    The totals are ``(pos, neg)``, or the SQL query of them, run when first asked for (the
    float AP takes them from its one pass over the blocks instead: :meth:`set_totals`).

    Parameters
    ----------
    source : Source
        The relation.
    query : str
        The blocks' query.
    weighted : bool
        Whether there is a weight column.
    k : int
        Weights are integers over ``2**k``.
    totals : tuple of int or str
        The class weights over ``2**-k``, or the SQL query that sums them.
    top : bool or str
        Whether the highest-scored block has zero weight, or the SQL query that says it, run
        when first asked for (:attr:`top_is_empty`: only MLlib's first point needs it).
    spread : object
        The pieces' split, when computed.
    per_exponent : bool
        Whether the blocks are grouped per exponent of the weights.

    See Also
    --------
    blocks : builds it.

    Examples
    --------
    Weights 1/2, 1/4 and 3/4 are integers over ``2**2``: 2, 1, 3; the positives weigh
    2 + 3 = 5 and the negative 1 (over ``2**-2``):

    >>> import duckdb
    >>> from prtheory.duckdb.blocks import blocks
    >>> from prtheory.duckdb.source import open_source
    >>> rel = duckdb.connect().sql(
    ...     "select y, s, w::DOUBLE as w from (values (1, 0.9, 0.5), (0, 0.8, 0.25), (1, 0.7, 0.75)) t(y, s, w)")
    >>> with open_source(rel) as src:
    ...     b = blocks(src, "y", "s", "w")
    ...     print(b.pos * 2.0**-b.k, b.neg * 2.0**-b.k)
    1.25 0.25
    """

    source: Source
    query: str
    weighted: bool
    k: int
    totals: tuple[int, int] | str
    top: bool | str
    spread: Any = None
    #: a score has a row per weight exponent (weights too far apart for one HUGEINT)
    per_exponent: bool = True

    @property
    def pos(self) -> int:
        """The exact positive weight over ``2**-k``."""
        return self._totals()[0]

    @property
    def neg(self) -> int:
        """The exact negative weight over ``2**-k``."""
        return self._totals()[1]

    @property
    def top_is_empty(self) -> bool:
        """Whether the highest-scored block has zero weight (MLlib's empty classifier)."""
        if isinstance(self.top, str):
            top, top_w = self.source.sql(self.top).fetchall()[0]
            self.top = top is not None and top != top_w
        return self.top

    def _totals(self) -> tuple[int, int]:
        if isinstance(self.totals, str):
            sums = self.source.sql(self.totals).fetchall()[0]
            self.totals = (int(sums[0] or 0), int(sums[1] or 0))
        return self.totals

    def set_totals(self, pos: int, neg: int) -> None:
        """Record the totals found by a pass over the blocks."""
        self.totals = (pos, neg)

    def tables(self) -> Iterator[Any]:
        """The pieces' Arrow tables in decreasing score order (a score never straddles two)."""
        import pyarrow as pa

        reader = self.source.sql(self.query).to_arrow_reader(PIECE_ROWS)
        held = None  # rows of the last score seen, which the next batch may continue
        for batch in itertools.chain(_batches(reader), [None]):
            if batch is None:
                table, cut = held, 0 if held is None else held.num_rows
            else:
                table = pa.Table.from_batches([batch])
                if held is not None:
                    table = pa.concat_tables([held, table])
                cut = table.num_rows
                if self.weighted and self.per_exponent:  # hold the last score's rows
                    s = column(table, "s")
                    cut = int(np.searchsorted(-s, -s[-1], side="left"))
            if table is None:
                break
            held = table.slice(cut) if cut < table.num_rows else None
            if cut:
                yield table.slice(0, cut)

    def pieces(self, with_scores: bool = False) -> Iterator[Any]:
        """The pieces in decreasing score order, each with its offset (with ``with_scores``:
        ``(piece, its distinct scores)``)."""
        tp = n = 0
        for now in self.tables():
            pos, neg = self._weights(now)
            piece = Piece(pos, neg, tp, n)
            if with_scores:
                s = column(now, "s")
                yield piece, s[run_starts(s)]
            else:
                yield piece
            tp += int(pos.sum())
            n += int(pos.sum()) + int(neg.sum())

    def _weights(self, table: Any) -> tuple[np.ndarray, np.ndarray]:
        """A piece's ``(pos, neg)`` block numerators over ``2**-k``."""
        if not self.weighted:
            return column(table, "p"), column(table, "n")
        if not self.per_exponent:
            return _joined(table, "p"), _joined(table, "n")
        return dyadic_blocks(
            column(table, "s"),
            column(table, "e"),
            _joined(table, "p"),
            _joined(table, "n"),
            self.k,
        )

    def run(self, fn: Callable[[Piece], Any]) -> list:
        """``fn(piece)`` for every piece, in order, as the blocks stream in."""
        return [fn(piece) for piece in self.pieces()]


def blocks(
    source: Source,
    label: str,
    score: str,
    weight: str | None,
    *,
    score_index: int | None = None,
) -> Blocks:
    """Check the columns, run the totals query (raise on malformed rows) and return the
    :class:`Blocks` (module docstring).

    Parameters
    ----------
    source : Source
        The relation.
    label, score : str
        The label and score columns.
    weight : str or None
        The weight column.
    score_index : int or None
        The element of an array score column.

    Returns
    -------
    Blocks
        The exact totals and the blocks' query.

    Raises
    ------
    InvalidInputError
        A column missing or of the wrong type, or malformed rows, naming the argument.

    See Also
    --------
    prtheory.duckdb.metrics.average_precision : the metrics over them.

    Examples
    --------
    Two positives and one negative, unit weights:

    >>> import duckdb
    >>> from prtheory.duckdb.blocks import blocks
    >>> from prtheory.duckdb.source import open_source
    >>> rel = duckdb.connect().sql("select * from (values (1, 0.9), (0, 0.8), (1, 0.7)) t(y, s)")
    >>> with open_source(rel) as src:
    ...     b = blocks(src, "y", "s", None)
    >>> b.pos, b.neg, b.weighted
    (2, 1, False)
    """
    source.kind(label, "label")
    y, s = f"CAST({quote(label)} AS DOUBLE)", source.number(score, "score", score_index)
    w = None
    integral = False
    if weight is not None:
        kind = source.kind(weight, "weight")
        if kind == "float" and source.types[weight].id not in ("float", "double"):
            raise InvalidInputError(
                "weight",
                f"column {weight!r} is {source.types[weight]}: cast it to DOUBLE or BIGINT",
            )
        integral = kind != "float"
        w = f"CAST({quote(weight)} AS {'BIGINT' if integral else 'DOUBLE'})"
    flags = bad_flags("y", "s", None if w is None else "w")
    cols = f"{y} AS y, {s} + 0.0 AS s" + ("" if w is None else f", {w} AS w")
    rows = f"SELECT {cols} FROM src"
    any_bad = "count(*) FILTER (WHERE " + " OR ".join(f"({f})" for f in flags.values()) + ")"
    if w is None:
        totals = source.sql(
            f"SELECT {any_bad}, count(*) FILTER (WHERE y = 1) AS p, "
            f"count(*) FILTER (WHERE y = 0) AS n FROM ({rows})"
        ).fetchall()[0]
        _check(source, rows, flags, totals[0])
        pos, neg = int(totals[-2]), int(totals[-1])
        query = (
            "SELECT s, count(*) FILTER (WHERE y = 1) AS p, count(*) FILTER (WHERE y = 0) AS n "
            f"FROM ({rows}) GROUP BY s ORDER BY s DESC"
        )
        return Blocks(source, query, False, 0, (pos, neg), False)
    # with no malformed row (checked first), every weight is finite and >= 0
    stats = source.sql(
        f"SELECT {any_bad}, min(w) FILTER (WHERE w > 0) AS lo, max(w) AS hi, "
        f"count(*) AS rows FROM ({rows})"
    ).fetchall()[0]
    _check(source, rows, flags, stats[0])
    lo, hi, count = stats[1:]
    top = f"SELECT max(s), max(s) FILTER (WHERE w > 0) FROM ({rows})"
    if lo is None:  # no positive weight: no block has weight
        return Blocks(
            source, "SELECT 0.0 AS s, 0 AS p, 0 AS n WHERE false", False, 0, (0, 0), False
        )
    k = scale(float(lo), integral)
    if k <= 1023 and math.frexp(float(hi))[1] + k + int(count).bit_length() <= HUGEINT_BITS:
        # every w 2**k is an integer below 2**HUGEINT_BITS / rows: summed as HUGEINT per score
        scaled = "w" if integral else f"w * {float(2**k)!r}"
        # the checks passed, so every weight is finite and >= 0, and a zero one casts to 0
        m = f"CAST({scaled} AS HUGEINT)"
        one = f"SELECT y, s, {m} AS m FROM ({rows})"
        sums = f"SELECT sum(m) FILTER (WHERE y = 1), sum(m) FILTER (WHERE y = 0) FROM ({one})"
        query = (
            f"SELECT s, {_halves('p')}, {_halves('n')} FROM ("
            "SELECT s, coalesce(sum(m) FILTER (WHERE y = 1), 0) AS p, "
            f"coalesce(sum(m) FILTER (WHERE y = 0), 0) AS n FROM ({one}) GROUP BY s"
            ") ORDER BY s DESC"
        )
        return Blocks(source, query, True, k, sums, top, per_exponent=False)
    # weights too far apart for one HUGEINT: integer mantissas summed per (score, exponent)
    exponent = DYADIC[0].format(w="w")
    e = f"CASE WHEN w > 0 THEN {exponent} ELSE 0 END"
    m = f"CASE WHEN w > 0 THEN {DYADIC[1].format(w='w', e='e')} ELSE 0 END"
    dyadic = f"SELECT y, s, e, {m} AS m FROM (SELECT y, s, w, {e} AS e FROM ({rows}))"
    stats = source.sql(
        "SELECT e, sum(m) FILTER (WHERE y = 1), sum(m) FILTER (WHERE y = 0) "
        f"FROM ({dyadic}) GROUP BY e"
    ).fetchall()
    nonzero = [r for r in stats if r[1] or r[2]]
    k = max([0] + [-int(r[0]) for r in nonzero])
    pos = sum(int(r[1] or 0) << (int(r[0]) + k) for r in nonzero)
    neg = sum(int(r[2] or 0) << (int(r[0]) + k) for r in nonzero)
    query = (
        f"SELECT s, e, {_halves('p')}, {_halves('n')} FROM ("
        "SELECT s, e, coalesce(sum(m) FILTER (WHERE y = 1), 0) AS p, "
        f"coalesce(sum(m) FILTER (WHERE y = 0), 0) AS n FROM ({dyadic}) GROUP BY s, e"
        ") ORDER BY s DESC"
    )
    return Blocks(source, query, True, k, (pos, neg), top)


def _check(source: Source, rows: str, flags: dict[str, str], bad: int) -> None:
    """Raise naming the first argument with malformed rows when ``bad`` (their count over all
    arguments, from the totals' scan) is not 0: a second scan counts them per argument, so the
    common case pays one combined condition per row instead of one count per argument."""
    if bad:
        per = ", ".join(f"count(*) FILTER (WHERE {f})" for f in flags.values())
        counts = source.sql(f"SELECT {per} FROM ({rows})").fetchall()[0]
        check_rows(dict(zip(flags, counts, strict=True)))


def scale(lowest: float, integral: bool) -> int:
    """The least ``k >= 0`` that makes ``w 2**k`` an integer for every weight ``w >= lowest``
    (integers: 0). A double ``w`` is a multiple of ``2**(t - 52)`` (``t = floor(log2 w)``, and
    ``t >= floor(log2 lowest)``) and of ``2**-1074``."""
    if integral:
        return 0
    return max(0, min(1074, 53 - math.frexp(lowest)[1]))
