"""A quiet local SparkSession for tests, benchmarks and the conformance kit."""

from __future__ import annotations

from typing import Any

__all__ = ["local_session"]


def local_session(cores: int = 2, partitions: int = 2, **conf: str) -> Any:
    """``SparkSession`` on ``local[cores]`` with ``partitions`` shuffle partitions, no UI.

    ``getOrCreate``: an existing session in the process is reused (with ``conf`` applied).

    Parameters
    ----------
    cores : int
        The local threads (default 2).
    partitions : int
        The shuffle partitions (default 2).
    **conf : str
        Further Spark settings.

    Returns
    -------
    pyspark.sql.SparkSession
        The session.

    See Also
    --------
    prtheory.spark.average_precision : a metric over its DataFrames.

    Examples
    --------
    An existing session is reused with the settings applied (the tests' session has 3 shuffle
    partitions, kept here):

    >>> from prtheory.spark.session import local_session
    >>> session = local_session(cores=2, partitions=3)
    >>> session.conf.get("spark.sql.shuffle.partitions")
    '3'
    """
    from pyspark.sql import SparkSession

    builder = (
        SparkSession.builder.master(f"local[{cores}]")
        .appName("prtheory")
        .config("spark.sql.shuffle.partitions", str(partitions))
        .config("spark.default.parallelism", str(cores))
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
    )
    for key, value in conf.items():
        builder = builder.config(key, value)
    s = builder.getOrCreate()
    s.sparkContext.setLogLevel("ERROR")
    return s
