"""Arrow batches to the Python workers without Spark's per-row byte check.

Spark 4 cuts the Arrow batches it sends to Python workers at a row count
(``spark.sql.execution.arrow.maxRecordsPerBatch``, 10,000 by default) and at a byte size
(``spark.sql.execution.arrow.maxBytesPerBatch``, 64 MiB by default; SPARK-51316,
apache/spark#50080 and #51277). It enforces the byte size by asking the Arrow writer for its
size after every row it writes (``BatchedPythonArrowInput.writeSizedBatch``), and that
question walks the writer's vectors and allocates: it costs more than writing the row. Sending
10^7 rows of two doubles to two workers took 1.8 s with the check and 0.5 s without (local[2],
Spark 4.3). Only the value ``INT_MAX`` skips the check.

The blocks are a few fixed-width columns, so when a row count bounds the batches they never
come near the byte size: :func:`unchecked_byte_limit` sets ``INT_MAX`` for the duration of one
job only when ``maxRecordsPerBatch`` rows of at most :data:`BYTES_PER_VALUE` bytes per column
(and the struct Spark wraps them in) fit within the byte size in force, so Spark cuts the very
same batches, without the check.
Otherwise (no row count, or a byte size set below that) the configuration is left as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["BYTES_PER_VALUE", "MAX_BYTES", "MAX_RECORDS", "NO_BYTE_CHECK", "unchecked_byte_limit"]

MAX_BYTES = "spark.sql.execution.arrow.maxBytesPerBatch"
MAX_RECORDS = "spark.sql.execution.arrow.maxRecordsPerBatch"

#: The byte size at which Spark does not check a batch's size row by row.
NO_BYTE_CHECK = 2**31 - 1

#: An upper bound on the Arrow bytes one value of a fixed-width column takes (8 for a LONG or
#: DOUBLE, a validity bit, alignment), with room to spare.
BYTES_PER_VALUE = 16

#: Spark's byte strings (``JavaUtils.byteStringAsBytes``): digits, then an optional unit.
_UNITS = {"": 0, "b": 0, "k": 10, "kb": 10, "m": 20, "mb": 20, "g": 30, "gb": 30}
_UNITS |= {"t": 40, "tb": 40, "p": 50, "pb": 50}


def _bytes(text: str) -> int | None:
    """The bytes a Spark byte string means (``"67108864b"``, ``"64m"``), None if not understood."""
    match = re.fullmatch(r"\s*(\d+)\s*([a-z]*)\s*", text.lower())
    if match is None or match.group(2) not in _UNITS:
        return None
    return int(match.group(1)) << _UNITS[match.group(2)]


@contextmanager
def unchecked_byte_limit(session: Any, columns: int) -> Iterator[bool]:
    """Within the block, ``maxBytesPerBatch`` is :data:`NO_BYTE_CHECK` if that cannot change a
    batch of rows of ``columns`` fixed-width columns (module docstring); yields whether it is.

    The session's own value (or its absence) is restored on exit. The setting is the session's:
    a query another thread runs on the same session meanwhile also goes without the check.

    Parameters
    ----------
    session : pyspark.sql.SparkSession
        The session.
    columns : int
        The fixed-width columns of a batch.

    Yields
    ------
    bool
        Whether the byte check is off within the block.

    See Also
    --------
    prtheory.spark.blocks.pieces

    Examples
    --------
    10000 rows of 2 columns (plus one) at 16 bytes a value are 480,000 bytes, below a limit of
    64 MiB: the check goes off within the block and the limit comes back after it:

    >>> from pyspark.sql import SparkSession
    >>> from prtheory.spark.arrow import MAX_BYTES, MAX_RECORDS, unchecked_byte_limit
    >>> session = SparkSession.builder.getOrCreate()
    >>> session.conf.set(MAX_RECORDS, "10000")
    >>> session.conf.set(MAX_BYTES, "64m")
    >>> with unchecked_byte_limit(session, 2) as unchecked:
    ...     inside = session.conf.get(MAX_BYTES)
    >>> unchecked, inside, session.conf.get(MAX_BYTES)
    (True, '2147483647', '64m')
    >>> session.conf.unset(MAX_BYTES)
    >>> session.conf.unset(MAX_RECORDS)
    """
    conf = session.conf
    rows = int(conf.get(MAX_RECORDS))
    limit = _bytes(conf.get(MAX_BYTES))
    if rows <= 0 or limit is None or rows * (columns + 1) * BYTES_PER_VALUE > limit:
        yield False
        return
    previous = conf.get(MAX_BYTES, None)
    conf.set(MAX_BYTES, str(NO_BYTE_CHECK))
    try:
        yield True
    finally:
        if previous is None:
            conf.unset(MAX_BYTES)
        else:
            conf.set(MAX_BYTES, previous)
