"""The input of :mod:`prtheory.duckdb` as one DuckDB relation, and its columns as SQL.

A source is a Parquet or CSV path (a glob, or a list of paths: DuckDB reads the files as one
table, streaming), a DuckDB relation (queried on its own connection), or a frame in memory
(pyarrow Table or RecordBatchReader, pandas or polars DataFrame: read by DuckDB through Arrow
without a copy where it can). Paths and frames get a connection of their own, in memory, with
the caller's ``threads`` and a temporary directory for what DuckDB spills (removed afterwards);
a relation keeps its connection's settings.

The caller's ``memory_limit`` bounds the whole process, so DuckDB's own ``memory_limit`` (its
buffer manager's) is set to :data:`DUCKDB_SHARE` of it (:func:`buffer_limit`): the rest holds
what DuckDB allocates outside its buffer manager, the Python interpreter with numpy, pyarrow and
DuckDB loaded (about 140 MB) and one piece of blocks. Measured at 10^8 rows with 10^8 distinct
scores (``benchmarks/bench_duckdb.py``'s untied file, float weights, 2 threads): with DuckDB's
limit at 1 GB the process peaked at 1.31 GB, at 650 MB at 0.97 GB, at 500 MB (this share of
1 GB) at 0.81 GB, and 0.71 GB with unit weights.

Column names are quoted (:func:`quote`), so dots, spaces, quotes and backticks are taken
literally. A score column holding lists, fixed-size arrays or Spark MLlib vectors (as Spark
writes them to Parquet: a struct of ``type``, ``size``, ``indices``, ``values``) is read at
``score_index`` (0-based, as ``vector_to_array(...)[i]``).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from prtheory.errors import InvalidInputError

__all__ = ["DUCKDB_SHARE", "Source", "buffer_limit", "is_source", "module", "open_source", "quote"]

#: The share of the caller's ``memory_limit`` given to DuckDB's buffer manager (module docstring).
DUCKDB_SHARE = 0.5

#: The units of DuckDB's ``current_setting('memory_limit')``, in bytes.
_UNITS = {"bytes": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}

#: Suffixes read as CSV; every other path is read as Parquet.
CSV_SUFFIXES = (".csv", ".tsv", ".csv.gz", ".tsv.gz", ".csv.zst")
PARQUET_SUFFIXES = (".parquet", ".pq", ".parq")

#: DuckDB type ids usable as a number, by kind (:func:`Source.kind`).
_INTEGRAL = {"tinyint", "smallint", "integer", "bigint", "utinyint", "usmallint", "uinteger"}
_FLOATING = {"float", "double"}
_VECTOR_FIELDS = {"type", "size", "indices", "values"}


def module():
    """``duckdb``, or an ImportError saying what to install.

    Returns
    -------
    module
        ``duckdb``.

    Raises
    ------
    ImportError
        duckdb is not installed, saying how to install it.

    See Also
    --------
    open_source

    Examples
    --------
    >>> from prtheory.duckdb.source import module
    >>> module().__name__
    'duckdb'
    """
    try:
        import duckdb
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise ImportError(
            "prtheory.duckdb needs duckdb: pip install -e '.[duckdb]' from a checkout of prtheory"
        ) from e
    return duckdb


def quote(name: str) -> str:
    """``name`` as a quoted SQL identifier (every character literal).

    Parameters
    ----------
    name : str
        A column name.

    Returns
    -------
    str
        The quoted identifier.

    Examples
    --------
    A double quote inside is doubled:

    >>> from prtheory.duckdb.source import quote
    >>> print(quote('a"b'))
    "a""b"
    """
    return '"' + name.replace('"', '""') + '"'


def _is_path(source: Any) -> bool:
    return isinstance(source, str | os.PathLike) or (
        isinstance(source, list | tuple)
        and bool(source)
        and all(isinstance(p, str | os.PathLike) for p in source)
    )


def is_source(source: Any) -> bool:
    """Whether ``source`` is a table for :mod:`prtheory.duckdb` rather than an array: what the
    top-level functions of :mod:`prtheory` hand over (:mod:`prtheory._tables`). An
    ``os.PathLike``, a DuckDB relation, or a string that names an existing file or folder, holds
    a glob character or ends in a Parquet or CSV suffix. Lists and frames are not tables there
    (a list of strings is a list of labels), nor is any other string (the array functions
    reject it by name).

    Parameters
    ----------
    source : object
        What a top-level function was given.

    Returns
    -------
    bool
        Whether it is a table for :mod:`prtheory.duckdb`.

    See Also
    --------
    open_source

    Examples
    --------
    A list is labels, a Parquet name is a table, and another string is neither:

    >>> from prtheory.duckdb.source import is_source
    >>> is_source([1, 0]), is_source("data.parquet"), is_source("x")
    (False, True, False)
    """
    if isinstance(source, os.PathLike):
        return True
    if isinstance(source, str):
        name = source.lower()
        return (
            name.endswith(CSV_SUFFIXES + PARQUET_SUFFIXES)
            or any(c in source for c in "*?[")
            or os.path.exists(source)
        )
    duckdb = _loaded_duckdb()
    return duckdb is not None and isinstance(source, duckdb.DuckDBPyRelation)


def _loaded_duckdb():
    """``duckdb`` if some code has imported it already (a relation cannot exist otherwise)."""
    import sys

    return sys.modules.get("duckdb")


@dataclass
class Source:
    """A relation and its columns' types; :meth:`sql` runs a query over it as ``src``.

    Parameters
    ----------
    relation : duckdb.DuckDBPyRelation
        The relation.
    types : dict of str to type
        Its columns' DuckDB types.

    See Also
    --------
    open_source : opens one.

    Examples
    --------
    A source's column kinds, and the score as DOUBLE SQL (:func:`open_source` makes it):

    >>> import duckdb
    >>> from prtheory.duckdb.source import open_source
    >>> rel = duckdb.connect().sql("select 1 as y, 0.5::DOUBLE as s, 'a' as name")
    >>> with open_source(rel) as src:
    ...     print(src.kind("y", "label"), src.kind("s", "score"), src.number("s", "score"))
    integral float CAST("s" AS DOUBLE)
    """

    relation: Any
    types: dict[str, Any]

    def sql(self, query: str):
        """The relation of ``query``, in which ``src`` names the source."""
        return self.relation.query("src", query)

    def require(self, name: str, arg: str) -> Any:
        """The column's DuckDB type; raise naming ``arg`` if there is no such column."""
        if not isinstance(name, str) or name not in self.types:
            raise InvalidInputError(arg, f"column {name!r} not in the source {list(self.types)}")
        return self.types[name]

    def kind(self, name: str, arg: str) -> str:
        """``"integral"``, ``"float"`` or ``"boolean"`` for a column usable as a number (DECIMAL
        and 128-bit integers as ``"float"``: read as DOUBLE); else raise."""
        t = self.require(name, arg)
        if t.id == "boolean":
            return "boolean"
        if t.id in _INTEGRAL:
            return "integral"
        if t.id in _FLOATING | {"decimal", "hugeint", "ubigint", "uhugeint"}:
            return "float"
        raise InvalidInputError(arg, f"column {name!r} must be numeric or boolean, got {t}")

    def number(self, name: str, arg: str, index: int | None = None) -> str:
        """SQL for the column as DOUBLE; a list, array or MLlib vector column at ``index``."""
        t = self.require(name, arg)
        if t.id in ("list", "array", "struct"):
            return _element(name, t, arg, index)
        if index is not None:
            raise InvalidInputError(
                "score_index", f"column {name!r} holds numbers ({t}), not vectors: omit it"
            )
        self.kind(name, arg)
        return f"CAST({quote(name)} AS DOUBLE)"


def _element(name: str, t: Any, arg: str, index: int | None) -> str:
    """SQL for element ``index`` (0-based) of a list/array or MLlib vector column, as DOUBLE."""
    if index is None:
        raise InvalidInputError(
            "score_index", f"column {name!r} holds vectors ({t}): say which element, e.g. 1"
        )
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise InvalidInputError("score_index", f"must be an integer >= 0, got {index!r}")
    q = quote(name)
    if t.id in ("list", "array"):
        return f"CAST({q}[{index + 1}] AS DOUBLE)"
    fields = {field for field, _ in t.children}
    if fields != _VECTOR_FIELDS:
        raise InvalidInputError(arg, f"column {name!r} is a struct but not an MLlib vector: {t}")
    # dense (type 1): values[index]; sparse (type 0): the value at that index, 0 if absent
    return (
        f"CAST(CASE WHEN {q}.type = 1 THEN {q}.values[{index + 1}] "
        f"ELSE coalesce({q}.values[list_position({q}.indices, {index})], 0) END AS DOUBLE)"
    )


def buffer_limit(con: Any) -> int:
    """:data:`DUCKDB_SHARE` of the connection's ``memory_limit``, in bytes (read back from DuckDB,
    so every form DuckDB accepts counts as DuckDB reads it).

    Parameters
    ----------
    con : duckdb.DuckDBPyConnection
        A connection.

    Returns
    -------
    int
        The bytes for DuckDB's buffer manager.

    Examples
    --------
    Half of 3 GiB:

    >>> import duckdb
    >>> from prtheory.duckdb.source import buffer_limit
    >>> buffer_limit(duckdb.connect(config={"memory_limit": "3GiB"})) == 3 * 2**29
    True
    """
    text = con.sql("SELECT current_setting('memory_limit')").fetchall()[0][0]
    number, unit = text.split()
    return int(DUCKDB_SHARE * float(number) * _UNITS[unit])


def _relation(con: Any, source: Any):
    """``source`` as a relation on ``con`` (paths, Arrow, pandas or polars)."""
    if _is_path(source):
        paths = [os.fspath(p) for p in (source if isinstance(source, list | tuple) else [source])]
        csv = [p.lower().endswith(CSV_SUFFIXES) for p in paths]
        if any(csv) and not all(csv):
            raise InvalidInputError("source", "mixes CSV and Parquet paths")
        try:
            return con.read_csv(paths) if all(csv) else con.read_parquet(paths)
        except module().IOException as e:  # no such file, no file the glob matches
            raise InvalidInputError("source", str(e).splitlines()[0]) from e
    if type(source).__module__.split(".")[0] == "pandas":
        return con.from_df(source)
    if hasattr(source, "__arrow_c_stream__") or hasattr(source, "to_batches"):
        return con.from_arrow(source)
    if type(source).__module__.split(".")[0] == "polars":  # a LazyFrame
        return con.from_arrow(source.collect())
    raise InvalidInputError(
        "source",
        "must be a Parquet/CSV path or glob, a DuckDB relation, or a pyarrow, pandas or polars "
        f"frame, got {type(source).__name__}",
    )


@contextmanager
def open_source(
    source: Any, memory_limit: str | None = None, threads: int | None = None
) -> Iterator[Source]:
    """The :class:`Source` of ``source`` (module docstring); a connection opened here is
    closed, and its spill directory removed, on exit.

    Parameters
    ----------
    source : path, str or duckdb.DuckDBPyRelation
        A file, folder, glob or relation.
    memory_limit : str or None
        The memory of the call for a connection opened here, as DuckDB reads it (``"1GB"``,
        ``"500MiB"``, ``"50%"``); DuckDB's buffers get :data:`DUCKDB_SHARE` of it.
    threads : int or None
        DuckDB's threads for a connection opened here.

    Yields
    ------
    Source
        The relation and its types.

    Raises
    ------
    InvalidInputError
        A source that cannot be read, naming it.

    See Also
    --------
    prtheory.duckdb.blocks.blocks : the ranking of a source.

    Examples
    --------
    >>> import duckdb
    >>> from prtheory.duckdb.source import open_source
    >>> rel = duckdb.connect().sql("select * from (values (1, 0.9), (0, 0.8), (1, 0.7)) t(y, s)")
    >>> with open_source(rel) as src:
    ...     src.sql("select count(*) from src").fetchall()
    [(3,)]
    """
    duckdb = module()
    if isinstance(source, duckdb.DuckDBPyRelation):
        if memory_limit is not None or threads is not None:
            raise InvalidInputError(
                "memory_limit",
                "a relation runs on its own connection: set memory_limit and threads there",
            )
        yield Source(source, dict(zip(source.columns, source.types, strict=True)))
        return
    spill = tempfile.mkdtemp(prefix="prtheory-duckdb-")
    config: dict[str, Any] = {"temp_directory": spill}
    if memory_limit is not None:
        config["memory_limit"] = memory_limit
    if threads is not None:
        config["threads"] = threads
    con = duckdb.connect(config=config)
    try:
        if memory_limit is not None:
            con.execute(f"SET memory_limit = '{buffer_limit(con)}B'")
        rel = _relation(con, source)
        yield Source(rel, dict(zip(rel.columns, rel.types, strict=True)))
    finally:
        con.close()
        shutil.rmtree(spill, ignore_errors=True)
