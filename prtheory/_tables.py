"""Top-level functions that also take a table: a Parquet/CSV path or a DuckDB relation as the
first argument goes to the function of the same name in :mod:`prtheory.duckdb`.

``prtheory.average_precision("scores.parquet", label="y", score="s")`` is
``prtheory.duckdb.average_precision("scores.parquet", label="y", score="s")``: the arguments
after the source are that function's. Arrays, lists and frames in memory are unchanged.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from prtheory.duckdb.source import is_source

__all__ = ["routes_tables"]

P = ParamSpec("P")
R = TypeVar("R")


def routes_tables(fn: Callable[P, R]) -> Callable[P, R]:
    """``fn``, except that a path or DuckDB relation as its first argument calls
    ``prtheory.duckdb.<fn.__name__>`` with the same arguments."""

    @functools.wraps(fn)
    def routed(*args: P.args, **kwargs: P.kwargs) -> R:
        if args and is_source(args[0]):
            from prtheory import duckdb

            target: Any = getattr(duckdb, fn.__name__)
            return target(*args, **kwargs)
        return fn(*args, **kwargs)

    return routed
