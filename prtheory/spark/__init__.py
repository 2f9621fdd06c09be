"""Exact ranking metrics of Apache Spark DataFrames (needs the ``spark`` extra: pyspark, Java 17+).

No row is collected to the driver: see :mod:`prtheory.spark.blocks` for the pipeline and
:mod:`prtheory.distributed` for the engine-neutral exact arithmetic.
"""

# ruff: noqa: F401  (this module is a list of re-exports)

from prtheory.spark.ap import average_precision
from prtheory.spark.areas import pr_auc, roc_auc
from prtheory.spark.grouped import per_group
from prtheory.spark.retrieval import precision_at_k, r_precision
