"""Per-group ranking metrics through DuckDB (one ranking per query): MAP, mean P@k, mean
R-precision, with the checks, per-group evaluation and exact mean of
:mod:`prtheory.distributed.grouped` (shared with ``prtheory.spark.per_group``).

One aggregate query checks the columns, the group keys (none null) and the groups without
positives before any evaluation; a second packs each group's rows into lists (``GROUP BY``
the key) that reach Python as Arrow batches, each group evaluated by the oracle as its batch
arrives.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from prtheory.distributed import check_rows, decode_fraction
from prtheory.distributed.grouped import (
    check_arguments,
    check_groups,
    evaluate_batches,
    evaluator,
    exact_mean,
    group_error,
)
from prtheory.duckdb.blocks import bad_flags
from prtheory.duckdb.source import open_source, quote
from prtheory.oracle.rounding import to_float

__all__ = ["per_group"]


def per_group(
    source: Any,
    by: str,
    metric: str = "average_precision",
    label: str = "label",
    score: str = "score",
    *,
    k: int | None = None,
    ties: str | None = None,
    doc_id: str | None = None,
    convention: str | None = None,
    exact: bool = False,
    score_index: int | None = None,
    memory_limit: str | None = None,
    threads: int | None = None,
) -> tuple[Any, float | Fraction]:
    """Per-group exact values and their mean: ``(pyarrow.Table, mean)``.

    As ``prtheory.spark.per_group``: ``metric`` is ``"average_precision"`` (the mean is MAP),
    ``"precision_at_k"`` (needs ``k``) or ``"r_precision"``; the table has columns ``by``,
    ``value`` (correctly rounded) and ``exact`` (hexadecimal, read with
    :func:`prtheory.distributed.decode_fraction`); ``mean`` is the correctly rounded
    ``(1/G) sum_g value_g``, or with ``exact=True`` the exact Fraction. ``ties`` is any oracle
    tie policy (``"trec_eval"`` orders ties by the ``doc_id`` column). Null group keys are
    rejected (``by``); groups without positives make AP and R-precision undefined before the
    evaluation unless ``convention="sklearn"`` values them 0; a group the oracle rejects
    (duplicate document ids) raises :class:`~prtheory.errors.InvalidInputError` naming its key.

    Parameters
    ----------
    source : str, list of str, DuckDB relation, or pyarrow/pandas/polars frame
        A Parquet or CSV path or glob (or a list of them), a relation, or a frame.
    by : str
        The column of the group keys (a query id).
    metric : {"average_precision", "precision_at_k", "r_precision"}
        The metric of each group.
    label, score : str
        The columns of the 0/1 (or boolean) labels and of the scores.
    k : int or None
        The cutoff of ``precision_at_k``.
    ties : str or None
        An oracle tie policy by name (``"trec_eval"`` needs ``doc_id``).
    doc_id : str or None
        The column of document ids, for ``ties="trec_eval"``.
    convention : {None, "sklearn"}
        ``"sklearn"``: a group without positives counts 0.
    exact : bool
        True: the mean as an exact ``Fraction``; False (default): correctly rounded.
    score_index : int or None
        The element of a list or MLlib vector score column to use (``score="probability",
        score_index=1``).
    memory_limit : str or None
        The memory of the call for a path or frame (``"1GB"``): DuckDB's buffers get half
        of it and spill to disk past that (:mod:`prtheory.duckdb.source`).
    threads : int or None
        DuckDB's threads for a path or frame.

    Returns
    -------
    tuple of (pyarrow.Table, float or Fraction)
        The per-group table and the mean over the groups.

    Raises
    ------
    InvalidInputError
        A missing column, a null group key, a malformed row or a group the oracle rejects.
    UndefinedMetricError
        A group without positives for AP or R-precision, without ``convention="sklearn"``.

    See Also
    --------
    prtheory.spark.per_group : the same from a Spark DataFrame.
    average_precision : one AP over all the rows.

    Examples
    --------
    By hand: query 1 ranks its positive first (AP 1); query 2 ties its positive with a
    negative (AP 1/2): MAP 3/4.

    >>> import pyarrow as pa
    >>> from prtheory import duckdb as pdb
    >>> rows = pa.table({"q": [1, 2, 2, 1], "label": [1, 0, 1, 0], "score": [0.9, 0.8, 0.8, 0.1]})
    >>> table, map_ = pdb.per_group(rows, "q", exact=True)
    >>> map_
    Fraction(3, 4)
    >>> sorted(zip(table["q"].to_pylist(), table["value"].to_pylist()))
    [(1, 1.0), (2, 0.5)]
    """
    import pyarrow as pa

    with open_source(source, memory_limit, threads) as src:
        check_arguments(metric, by, src.types, k, ties, doc_id, "doc_id")
        src.kind(label, "label")
        y, s = f"CAST({quote(label)} AS DOUBLE)", src.number(score, "score", score_index)
        docs = f", CAST({quote(doc_id)} AS VARCHAR) AS d" if doc_id else ""
        rows = f"SELECT {quote(by)} AS k, {y} AS y, {s} + 0.0 AS s{docs} FROM src"
        flags = bad_flags("y", "s", None)
        bad = ", ".join(f"count(*) FILTER (WHERE {f}) AS bad_{a}" for a, f in flags.items())
        sums = ", ".join(f"sum(bad_{a})" for a in flags)
        stats = src.sql(
            f"SELECT sum(rows) FILTER (WHERE k IS NULL), "
            "count(*) FILTER (WHERE NOT top AND k IS NOT NULL), "
            f"min(k) FILTER (WHERE NOT top AND k IS NOT NULL), {sums} FROM ("
            f"SELECT k, bool_or(y = 1) AS top, count(*) AS rows, {bad} FROM ({rows}) GROUP BY k)"
        ).fetchall()[0]
        check_rows({a: int(stats[3 + i] or 0) for i, a in enumerate(flags)})
        check_groups(metric, by, convention, int(stats[0] or 0), int(stats[1] or 0), stats[2])
        fields = "'y': y, 's': s" + (", 'd': d" if doc_id else "")
        lists = ", ".join(
            f"list_transform(r, lambda x: x.{c}) AS {c}" for c in "ysd"[: 2 + bool(doc_id)]
        )
        packed = src.sql(
            f"SELECT k, {lists} FROM (SELECT k, list({{{fields}}}) AS r FROM ({rows}) GROUP BY k)"
        )
        evaluate = evaluate_batches(evaluator(metric, k, ties, convention), bool(doc_id))
        out = list(evaluate(packed.to_arrow_reader(2**16)))
    table = (
        pa.Table.from_batches(out)
        if out
        else pa.table({"k": [], "value": [], "exact": [], "error": []})
    )
    errors = table.column("error")
    if errors.null_count < table.num_rows:
        at = next(i for i, e in enumerate(errors.to_pylist()) if e is not None)
        raise group_error(by, repr(table.column("k")[at].as_py()), errors[at].as_py())
    mean = exact_mean((decode_fraction(t) for t in table.column("exact").to_pylist()), len(table))
    result = table.select(["k", "value", "exact"]).rename_columns([by, "value", "exact"])
    return result, mean if exact else to_float(mean)
