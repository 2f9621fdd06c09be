"""Spark MLlib: ``areaUnderPR`` (binned and unbinned) and ``RankingMetrics`` in a local session.

Mechanisms, each checked on a hand-computed case in ``tests/test_spark_mllib.py``:

* ``areaUnderPR`` is a trapezoid over the PR curve from ``(0, precision of the first operating
  point)``: y=[0,1], s=[2,1] gives (0 + 0)/2 * 0 + (0 + 1/2)/2 * 1 = 1/4 where AP is 1/2;
* with a zero-weight item at the top, the first point is the *empty* classifier at precision 1:
  y=[0,1,0], s=[3,2,2], w=[0,1,1] gives (1 + 1/2)/2 = 3/4;
* ``numBins`` (default 1000 in ``BinaryClassificationEvaluator``) down-samples the curve once
  there are at least ``2 numBins`` distinct scores;
* labels above 0.5 are positive and a NaN score ranks first, silently;
* ``RankingMetrics.meanAveragePrecision`` is AP in the given order (``ties="input-order"``) and
  counts a repeated predicted id each time: prediction [1, 1, 2], truth {1} gives 2.0.

One local[1] ``SparkSession`` is created on first use and reused.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from prtheory.conformance.adapters import Implementation, Unsupported, labels_int

LIBRARY = "Spark MLlib"
DISTRIBUTION = "pyspark"
MODULE = "pyspark"
SHIMS: tuple[str, ...] = ()


@cache
def session() -> Any:
    from prtheory.spark.session import local_session

    return local_session(cores=1, partitions=1)


def _frame(y: Any, s: Any, w: Any) -> Any:
    cols = [labels_int(y).astype(float), np.asarray(s, dtype=float)]
    names = ["label", "score"]
    if w is not None:
        cols.append(np.asarray(w, dtype=float))
        names.append("weight")
    rows = [tuple(float(c[i]) for c in cols) for i in range(len(cols[0]))]
    return session().createDataFrame(rows, names)


def area_under_pr(y: Any, s: Any, w: Any = None, num_bins: int = 1000) -> float:
    """``BinaryClassificationEvaluator(metricName="areaUnderPR", numBins=num_bins)``."""
    from pyspark.ml.evaluation import BinaryClassificationEvaluator
    from pyspark.sql import functions as F

    df = _frame(y, s, w).withColumn("raw", F.col("score"))
    ev = BinaryClassificationEvaluator(
        rawPredictionCol="raw", labelCol="label", metricName="areaUnderPR", numBins=num_bins
    )
    if w is not None:
        ev = ev.setWeightCol("weight")
    return float(ev.evaluate(df))


def metrics_area_under_pr(y: Any, s: Any) -> float:
    """pyspark's ``mllib.evaluation.BinaryClassificationMetrics(rdd).areaUnderPR``."""
    from pyspark.mllib.evaluation import BinaryClassificationMetrics

    pairs = [(float(a), float(b)) for a, b in zip(s, labels_int(y), strict=True)]
    rdd = session().sparkContext.parallelize(pairs, 1)
    return float(BinaryClassificationMetrics(rdd).areaUnderPR)


def ranking(prediction: list, truth: list) -> Any:
    """``RankingMetrics`` of one query: predicted ids in rank order and the relevant ids."""
    from pyspark.mllib.evaluation import RankingMetrics

    rdd = session().sparkContext.parallelize([(list(prediction), list(truth))], 1)
    return RankingMetrics(rdd)


def _ranked(x: Any) -> tuple[list, list] | Unsupported:
    if x.sample_weight is not None:
        return Unsupported("RankingMetrics takes id lists, no sample weights")
    order = np.argsort(-np.asarray(x.y_score, dtype=float), kind="stable")
    labels = labels_int(x.y_true)
    return [int(i) for i in order], [int(i) for i in np.flatnonzero(labels)]


def implementations() -> list[Implementation]:
    def evaluator(bins: int) -> Any:
        return lambda x: area_under_pr(x.y_true, x.y_score, x.sample_weight, bins)

    def metrics(x: Any) -> Any:
        if x.sample_weight is not None:
            return Unsupported("the Python wrapper takes (score, label) pairs only")
        return metrics_area_under_pr(x.y_true, x.y_score)

    def rank(measure: str) -> Any:
        def run(x: Any) -> Any:
            r = _ranked(x)
            if isinstance(r, Unsupported):
                return r
            m = ranking(*r)
            if measure == "map":
                return float(m.meanAveragePrecision)
            k = int(x.params["k"])
            return float(m.precisionAt(k) if measure == "p@k" else m.meanAveragePrecisionAt(k))

        return run

    note = "trapezoid from (0, first precision); empty classifier at precision 1"
    return [
        Implementation(
            LIBRARY,
            "BinaryClassificationEvaluator areaUnderPR",
            "average_precision",
            evaluator(1000),
            note=note + "; numBins=1000",
        ),
        Implementation(
            LIBRARY,
            "BinaryClassificationEvaluator areaUnderPR numBins=0",
            "average_precision",
            evaluator(0),
            note=note,
        ),
        Implementation(
            LIBRARY,
            "BinaryClassificationMetrics.areaUnderPR",
            "average_precision",
            metrics,
            note=note,
        ),
        Implementation(
            LIBRARY,
            "RankingMetrics.meanAveragePrecision",
            "average_precision",
            rank("map"),
            conventions=("ties=input-order",),
        ),
        Implementation(
            LIBRARY,
            "RankingMetrics.precisionAt",
            "precision_at_k",
            rank("p@k"),
            conventions=("ties=input-order",),
        ),
        Implementation(
            LIBRARY,
            "RankingMetrics.meanAveragePrecisionAt",
            "ap_at_k",
            rank("map@k"),
            conventions=("ties=input-order",),
        ),
    ]
