"""Exact ranking metrics of data bigger than memory on one machine, through DuckDB (needs the
``duckdb`` extra: duckdb, pyarrow).

From a Parquet or CSV path or glob, a DuckDB relation, or a pyarrow, pandas or polars frame;
DuckDB, embedded (no server), groups and sorts the rows within half the ``memory_limit``
(:mod:`prtheory.duckdb.source`), and the
exact arithmetic is :mod:`prtheory.distributed`'s, shared with :mod:`prtheory.spark`. See
:mod:`prtheory.duckdb.metrics` and :mod:`prtheory.duckdb.grouped`.
"""

# ruff: noqa: F401  (this module is a list of re-exports)

from prtheory.duckdb.grouped import per_group
from prtheory.duckdb.metrics import (
    average_precision,
    pr_auc,
    precision_at_k,
    precision_recall_curve,
    r_precision,
    roc_auc,
)
