"""Spark MLlib: ``areaUnderPR`` (binned and unbinned) and ``RankingMetrics`` in a local session.

Mechanisms, each checked on a hand-computed case in ``tests/test_spark_mllib.py``:

* ``areaUnderPR`` is a trapezoid over the PR curve from ``(0, precision of the first operating
  point)`` (the oracle's ``first-point=spark``): y=[0,1], s=[2,1] gives (0 + 1/2)/2 * 1 = 1/4
  where AP is 1/2 (against AP: ``trapezoid-for-step+first-point=spark``);
* with a zero-weight item at the top, the first point is the *empty* classifier at precision 1
  (``first-point=mllib``, :mod:`prtheory.oracle.conventions`): y=[0,1,0], s=[3,2,2],
  w=[0,1,1] gives (1 + 1/2)/2 = 3/4;
* ``numBins`` (default 1000 in ``BinaryClassificationEvaluator`` and the JVM
  ``BinaryClassificationMetrics``) down-samples the curve once there are at least
  ``2 numBins`` distinct scores: with ``d`` distinct scores each partition of the sorted counts
  merges runs of ``d // numBins`` consecutive scores into their lowest one
  (:func:`~prtheory.conformance.spark_models.spark_bins`);
  the conformance vectors have fewer distinct scores, so there binned equals unbinned;
* labels above 0.5 are positive and a NaN score ranks first, silently (the kit reports both
  as ``no-input-validation``; the named repairs are checked by hand);
* ``RankingMetrics.meanAveragePrecision`` is AP in the given order (``ties=input-order``) and
  counts a repeated predicted id each time: prediction [1, 1, 2], truth {1} gives 2.0.

One local ``SparkSession`` (one core, the driver JVM with :data:`JVM_OPTIONS`, Python workers
started by :data:`DAEMON_MODULE` so that their CPU time is counted) is created on first use and
reused for the whole library run. A
Spark job costs a fraction of a second whatever its size, so on first use each implementation
evaluates every stored vector of its metric at once, from several threads sharing the session
(Spark runs concurrent jobs), and then answers the runner from those results; inputs that are
not stored vectors are evaluated when asked. ``areaUnderPR`` is evaluated once per input and
``numBins`` however many implementations ask for it.
"""

from __future__ import annotations

import atexit
import gc
import shutil
import tempfile
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from prtheory.conformance.adapters import Implementation, Unsupported, labels_int, unpaired
from prtheory.conformance.spark_models import DEFAULT_BINS

LIBRARY = "Spark MLlib"
DISTRIBUTION = "pyspark"
MODULE = "pyspark"
SHIMS: tuple[str, ...] = ()
THREADS = 6


def missing() -> str | None:
    """Why the library cannot run although pyspark is installed (no Java), or None.

    Returns
    -------
    str or None
        What to install, or None where ``java`` is on the PATH.

    Examples
    --------
    >>> import shutil
    >>> from prtheory.conformance.adapters.spark_adapter import missing
    >>> (missing() is None) == (shutil.which("java") is not None)
    True
    """
    if shutil.which("java") is None:
        return "needs Java 17+ on PATH (e.g. apt-get install openjdk-17-jre-headless)"
    return None


#: Spark's Python worker daemon: pyspark's, waiting for its workers so that their CPU time
#: reaches the process tree the kit charges (``spark/prtheory_spark_daemon.py`` here, put on the
#: workers' ``PYTHONPATH``)
DAEMON_MODULE = "prtheory_spark_daemon"
DAEMON_DIR = Path(__file__).parent / "spark"

#: JVM options of the driver: the C1 compiler only and a serial collector (a run of short jobs
#: spends most of its CPU compiling and collecting otherwise: about a third less CPU time)
JVM_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData"


@cache
def session() -> Any:
    """The local Spark session the implementations share (one core, one partition), started once
    and stopped at exit."""
    from prtheory.spark.session import local_session

    made = local_session(
        cores=1,
        partitions=1,
        **{
            "spark.driver.extraJavaOptions": JVM_OPTIONS,
            "spark.default.parallelism": "1",
            "spark.python.daemon.module": DAEMON_MODULE,
            "spark.executorEnv.PYTHONPATH": str(DAEMON_DIR),
        },
    )
    # registered after pyspark's exit hook (which kills the JVM), so it runs before it
    atexit.register(_release)
    return made


_SHARED: dict[tuple[Any, ...], Any] = {}
_KEY_LOCKS: dict[tuple[Any, ...], threading.Lock] = {}
_LOCK = threading.Lock()


def _shared(key: tuple[Any, ...], make: Any) -> Any:
    """``make()`` once per key, however many threads ask (others wait for that key only)."""
    with _LOCK:
        key_lock = _KEY_LOCKS.setdefault(key, threading.Lock())
    with key_lock:
        if key not in _SHARED:
            _SHARED[key] = make()
        return _SHARED[key]


def _release() -> None:
    """Drop the objects kept for reuse while py4j can still detach their JVM side.

    Left to interpreter shutdown, a ``RankingMetrics``' ``__del__`` runs after py4j's module
    globals are gone and prints ``TypeError: 'NoneType' object is not callable``."""
    with _LOCK:
        _SHARED.clear()
    gc.collect()


def _scratch() -> tempfile.TemporaryDirectory[str]:
    """Where the inputs are written for Spark to read (one per process, removed at its exit)."""
    scratch: tempfile.TemporaryDirectory[str] = _shared(
        ("scratch",), lambda: tempfile.TemporaryDirectory(prefix="prtheory-spark-")
    )
    return scratch


def _csv_column(a: np.ndarray) -> np.ndarray:
    """Doubles as Spark's CSV reader parses them back exactly (17 significant digits; its
    default spellings of the non-finite values)."""
    out = np.char.mod("%.17g", a).astype(object)
    out[np.isnan(a)] = "NaN"
    out[np.isposinf(a)] = "Inf"
    out[np.isneginf(a)] = "-Inf"
    return out


def _frame(y: Any, s: Any, w: Any) -> Any:
    """The input as a DataFrame (label, score[, weight]), read from a CSV file with a fixed
    schema: a million rows take a second this way, against ten through ``createDataFrame``
    from Python rows. Frames are kept per input, so the implementations sharing a vector
    share its frame."""
    cols = [labels_int(y).astype(float), np.asarray(s, dtype=float)]
    names = ["label", "score"]
    if w is not None:
        cols.append(np.asarray(w, dtype=float))
        names.append("weight")

    def make() -> Any:
        path = Path(_scratch().name) / f"{uuid.uuid4().hex}.csv"
        lines = map(",".join, np.column_stack([_csv_column(c) for c in cols]))
        path.write_text("".join(line + "\n" for line in lines))
        schema = ", ".join(f"{n} DOUBLE" for n in names)
        return session().read.csv(str(path), schema=schema).coalesce(1)

    return _shared(("frame", *((c.tobytes(), c.shape) for c in cols)), make)


def area_under_pr(y: Any, s: Any, w: Any = None, num_bins: int = DEFAULT_BINS) -> float:
    """``BinaryClassificationEvaluator(metricName="areaUnderPR", numBins=num_bins)``, evaluated
    once per input and ``num_bins`` (the AP and the area implementations make the same call).

    Parameters
    ----------
    y : array-like
        Labels (above 0.5 is positive, as Spark reads them).
    s : array-like
        Scores.
    w : array-like, optional
        Sample weights (the evaluator's ``weightCol``).
    num_bins : int, default 1000
        The evaluator's ``numBins`` (0: no binning;
        :func:`~prtheory.conformance.spark_models.spark_bins`).

    Returns
    -------
    float
        Spark's area.

    Examples
    --------
    ``0 1`` scored 2, 1: the curve's operating points are (recall 0, precision 0) at s >= 2
    and (1, 1/2) at s >= 1; the trapezoid from the first point is (0 + 1/2)/2 = 1/4, where AP
    is 1/2. Weighted 0, 1, 1 with ``0 1 0`` scored 3, 2, 2: the top point holds no weight, so
    Spark starts from precision 1 at recall 0, then (1, 1/2): (1 + 1/2)/2 = 3/4.

    >>> from prtheory.conformance.adapters.spark_adapter import area_under_pr
    >>> area_under_pr([0, 1], [2, 1], num_bins=0)
    0.25
    >>> area_under_pr([0, 1, 0], [3, 2, 2], [0, 1, 1], num_bins=0)
    0.75
    """
    key = ("areaUnderPR", num_bins, _key_of(y, s, w))
    area: float = _shared(key, lambda: _area_under_pr(y, s, w, num_bins))
    return area


def _key_of(*arrays: Any) -> tuple[Any, ...]:
    return tuple(
        None if a is None else (np.asarray(a).dtype.str, np.asarray(a).tobytes()) for a in arrays
    )


def _area_under_pr(y: Any, s: Any, w: Any, num_bins: int) -> float:
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
    """pyspark's ``mllib.evaluation.BinaryClassificationMetrics(rdd).areaUnderPR``.

    Parameters
    ----------
    y : array-like
        Labels.
    s : array-like
        Scores.

    Returns
    -------
    float
        Spark's area (the wrapper takes no weights and no ``numBins``).

    Examples
    --------
    As :func:`area_under_pr`: ``0 1`` scored 2, 1 gives (0 + 1/2)/2 = 1/4.

    >>> from prtheory.conformance.adapters.spark_adapter import metrics_area_under_pr
    >>> metrics_area_under_pr([0, 1], [2, 1])
    0.25
    """
    from pyspark.mllib.evaluation import BinaryClassificationMetrics

    pairs = [(float(a), float(b)) for a, b in zip(s, labels_int(y), strict=True)]
    rdd = session().sparkContext.parallelize(pairs, 1)
    return float(BinaryClassificationMetrics(rdd).areaUnderPR)


def ranking(prediction: list[int], truth: list[int]) -> Any:
    """``RankingMetrics`` of one query: predicted ids in rank order and the relevant ids (kept
    per input: moving a million ids into the JVM takes seconds).

    Parameters
    ----------
    prediction : list of int
        Predicted ids, best first.
    truth : list of int
        The relevant ids.

    Returns
    -------
    pyspark.mllib.evaluation.RankingMetrics
        Its ``meanAveragePrecision``, ``precisionAt(k)``, ``meanAveragePrecisionAt(k)``.

    Examples
    --------
    A repeated id counts each time: prediction 1, 1, 2 with truth {1} has hits at ranks 1 and
    2, (1/1 + 2/2)/1 = 2; the top 2 are both hits, precision 2/2:

    >>> from prtheory.conformance.adapters.spark_adapter import ranking
    >>> metrics = ranking([1, 1, 2], [1])
    >>> metrics.meanAveragePrecision, metrics.precisionAt(2)
    (2.0, 1.0)
    """
    from pyspark.mllib.evaluation import RankingMetrics

    def make() -> Any:
        rdd = session().sparkContext.parallelize([(list(prediction), list(truth))], 1)
        return RankingMetrics(rdd)

    key = ("ranking", np.asarray(prediction).tobytes(), np.asarray(truth).tobytes())
    return _shared(key, make)


def _ranked(x: Any) -> tuple[list[int], list[int]] | Unsupported:
    if x.sample_weight is not None:
        return Unsupported("RankingMetrics takes id lists, no sample weights")
    if (reason := unpaired(x, "id lists")) is not None:
        return reason
    order = np.argsort(-np.asarray(x.y_score, dtype=float), kind="stable")
    labels = labels_int(x.y_true)
    return [int(i) for i in order], [int(i) for i in np.flatnonzero(labels)]


def _key(x: Any) -> tuple[Any, ...]:
    def raw(a: Any) -> Any:
        return None if a is None else (np.asarray(a).dtype.str, np.asarray(a).tobytes())

    return raw(x.y_true), raw(x.y_score), raw(x.sample_weight), repr(sorted(x.params.items()))


def _evaluator(bins: int) -> Any:
    """The ``run`` of ``BinaryClassificationEvaluator`` with ``numBins=bins`` (a DataFrame's
    rows cannot hold labels and scores of different lengths)."""
    return lambda x: (
        unpaired(x, "a DataFrame's rows")
        or area_under_pr(x.y_true, x.y_score, x.sample_weight, bins)
    )


def _metrics(x: Any) -> Any:
    """The ``run`` of ``BinaryClassificationMetrics`` (no weights)."""
    if x.sample_weight is not None:
        return Unsupported("the Python wrapper takes (score, label) pairs only")
    return unpaired(x, "(score, label) pairs") or metrics_area_under_pr(x.y_true, x.y_score)


def _rank(measure: str) -> Any:
    """The ``run`` of a ``RankingMetrics`` measure: ``"map"``, ``"p@k"`` or ``"map@k"``."""

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


def _batched(name: str, metric: str, fn: Any, **kw: Any) -> Implementation:
    """``fn`` answered from one concurrent evaluation of every stored vector of ``metric``, made
    by ``prepare`` (or by the first call, when the runner does not prepare)."""
    results: dict[tuple[Any, ...], tuple[bool, Any]] = {}
    lock = threading.Lock()

    def attempt(x: Any) -> tuple[bool, Any]:
        try:
            return True, fn(x)
        except Exception as exc:  # a library failure is a result, re-raised when asked
            return False, exc

    def prepare() -> None:
        from prtheory.conformance.vectors_io import load

        with lock:
            if results:
                return
            inputs = [v.inputs for v in load([metric])]
            with ThreadPoolExecutor(THREADS) as pool:
                for x, r in zip(inputs, pool.map(attempt, inputs), strict=True):
                    results[_key(x)] = r

    def run(x: Any) -> Any:
        prepare()
        ok, value = results.get(_key(x)) or attempt(x)
        if not ok:
            raise value
        return value

    return Implementation(LIBRARY, name, metric, run, prepare=prepare, **kw)


def implementations() -> list[Implementation]:
    """Spark MLlib's implementations of the vectors' metrics; imports the library.

    The first call of an implementation's ``run`` (or its ``prepare``) evaluates every stored
    vector of its metric, in one batch of concurrent Spark jobs, and answers from those results.

    Returns
    -------
    list of Implementation
        One per function or call pattern (the module docstring lists them).

    Examples
    --------
    The implementations and the conventions each claims (its ``run`` is
    :func:`area_under_pr`, :func:`metrics_area_under_pr` or :func:`ranking` on the input);
    ``RankingMetrics`` takes id lists, so weighted inputs are unsupported:

    >>> from prtheory.conformance.adapters.spark_adapter import implementations
    >>> for impl in implementations():
    ...     print(f"{impl.metric:18} {impl.name}  {impl.conventions}")
    auc_trapezoid      BinaryClassificationEvaluator areaUnderPR  ('first-point=spark',)
    auc_trapezoid      BinaryClassificationEvaluator areaUnderPR numBins=0  ('first-point=spark',)
    auc_trapezoid      BinaryClassificationMetrics.areaUnderPR  ('first-point=spark',)
    average_precision  BinaryClassificationEvaluator areaUnderPR as AP  ()
    average_precision  RankingMetrics.meanAveragePrecision  ('ties=input-order',)
    precision_at_k     RankingMetrics.precisionAt  ('ties=input-order',)
    ap_at_k            RankingMetrics.meanAveragePrecisionAt  ('ties=input-order',)
    """
    binning = "; numBins=1000 (binning from 2000 distinct scores: none in the vectors)"
    spark_first = ("first-point=spark",)
    return [
        _batched(
            "BinaryClassificationEvaluator areaUnderPR",
            "auc_trapezoid",
            _evaluator(DEFAULT_BINS),
            conventions=spark_first,
            note="documented as the area under the PR curve" + binning,
        ),
        _batched(
            "BinaryClassificationEvaluator areaUnderPR numBins=0",
            "auc_trapezoid",
            _evaluator(0),
            conventions=spark_first,
        ),
        _batched(
            "BinaryClassificationMetrics.areaUnderPR",
            "auc_trapezoid",
            _metrics,
            conventions=spark_first,
            note="pyspark.mllib wrapper, no numBins",
        ),
        _batched(
            "BinaryClassificationEvaluator areaUnderPR as AP",
            "average_precision",
            _evaluator(DEFAULT_BINS),
            note="often read as average precision; a trapezoid from (0, p_first)" + binning,
        ),
        _batched(
            "RankingMetrics.meanAveragePrecision",
            "average_precision",
            _rank("map"),
            conventions=("ties=input-order",),
        ),
        _batched(
            "RankingMetrics.precisionAt",
            "precision_at_k",
            _rank("p@k"),
            conventions=("ties=input-order",),
        ),
        _batched(
            "RankingMetrics.meanAveragePrecisionAt",
            "ap_at_k",
            _rank("map@k"),
            conventions=("ties=input-order",),
        ),
    ]
