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
