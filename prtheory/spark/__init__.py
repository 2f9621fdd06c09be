"""Exact ranking metrics of Apache Spark DataFrames (needs the ``spark`` extra: pyspark).

No row is collected to the driver: see :mod:`prtheory.spark.ap` for the algorithm and
:mod:`prtheory.distributed` for the engine-neutral exact arithmetic.
"""

# ruff: noqa: F401  (this module is a list of re-exports)

from prtheory.spark.ap import average_precision
from prtheory.spark.grouped import per_group
