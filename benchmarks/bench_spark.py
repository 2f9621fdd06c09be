"""Exact AP on Spark (prtheory.spark) beside MLlib's areaUnderPR, single-machine prtheory and sklearn.

Writes ``reports/benchmarks_spark.md``. One local[2] session; data: ``n`` items, about 10%
positives, scores rounded to 6 decimals (so there are ties), written once to Parquet and read
back cached. Every Spark method runs once on a small frame first (JIT warm-up), then once timed
(wall-clock seconds; the machine may be shared: treat them as indications). A scaling table
gives, per run of prtheory's exact AP: the pieces, the stages with their wall time and shuffle
bytes (from Spark's status store) and the driver's peak Python allocation (tracemalloc, a
separate untimed run). Usage: ``python benchmarks/bench_spark.py [n ...]`` (default 10^6 and
10^7). The report records the sha256 of this script; a test fails when it is stale.
"""

from __future__ import annotations

import hashlib
import platform
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
REPORT = ROOT / "reports" / "benchmarks_spark.md"
PIECES = (8, 32)


def timed(fn):
    t = time.perf_counter()
    v = fn()
    return v, time.perf_counter() - t


def stages_since(spark, last: int) -> list[dict]:
    """Completed stages with id > ``last``: name, tasks, wall seconds, shuffle write bytes."""
    sc = spark.sparkContext
    store = sc._jsc.sc().statusStore()
    seq = store.stageList(
        None, False, False, sc._gateway.new_array(sc._gateway.jvm.double, 0), None
    )
    out = []
    for i in range(seq.size()):
        d = seq.apply(i)
        sub, done = d.submissionTime(), d.completionTime()
        if d.stageId() <= last or not (sub.isDefined() and done.isDefined()):
            continue  # skipped stages (shuffle output reused) never ran
        out.append(
            {
                "id": d.stageId(),
                "tasks": d.numTasks(),
                "wall": (done.get().getTime() - sub.get().getTime()) / 1000,
                "shuffle_write": d.shuffleWriteBytes(),
            }
        )
    return sorted(out, key=lambda s: s["id"])


def last_stage(spark) -> int:
    return max((s["id"] for s in stages_since(spark, -1)), default=-1)


def make_data(n: int, tmp: Path, spark):
    import pandas as pd

    rng = np.random.default_rng(n)
    y = (rng.random(n) < 0.1).astype(np.float64)
    s = np.round(rng.random(n) + 0.3 * y, 6)
    path = str(tmp / f"data{n}.parquet")
    pd.DataFrame({"label": y, "score": s}).to_parquet(path)
    df = spark.read.parquet(path).cache()
    df.count()
    return y, s, df


def spark_methods():
    from pyspark.ml.evaluation import BinaryClassificationEvaluator

    from prtheory import spark as pspark

    def mllib(bins):
        ev = BinaryClassificationEvaluator(
            rawPredictionCol="score", metricName="areaUnderPR", numBins=bins
        )
        return ev.evaluate

    return {
        "prtheory.spark AP (float)": lambda df: pspark.average_precision(df, partitions=8),
        "prtheory.spark AP (exact)": lambda df: pspark.average_precision(
            df, exact=True, partitions=8
        ),
        "MLlib areaUnderPR numBins=1000": mllib(1000),
        "MLlib areaUnderPR numBins=0": mllib(0),
    }


def measure(spark, n: int, tmp: Path) -> tuple[dict, list[dict]]:
    from sklearn.metrics import average_precision_score

    import prtheory
    from prtheory import oracle
    from prtheory import spark as pspark

    y, s, df = make_data(n, tmp, spark)
    row: dict = {"n": n}
    values = {}
    for name, fn in spark_methods().items():
        values[name], row[name] = timed(lambda fn=fn: fn(df))
    ref, row["prtheory.oracle exact AP"] = timed(lambda: oracle.average_precision(y, s))
    _, row["prtheory.average_precision (float)"] = timed(lambda: prtheory.average_precision(y, s))
    _, row["sklearn average_precision_score"] = timed(lambda: average_precision_score(y, s))
    exact = values["prtheory.spark AP (exact)"]
    row["equal to the oracle"] = exact == ref and values[
        "prtheory.spark AP (float)"
    ] == oracle.to_float(ref)
    for bins in (1000, 0):
        row[f"MLlib numBins={bins} rel. error"] = float(
            values[f"MLlib areaUnderPR numBins={bins}"] / float(exact) - 1
        )
    scaling = []
    for pieces in PIECES:
        last = last_stage(spark)
        _, seconds = timed(lambda p=pieces: pspark.average_precision(df, partitions=p))
        stages = stages_since(spark, last)
        tracemalloc.start()
        pspark.average_precision(df, partitions=pieces)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        scaling.append(
            {
                "n": n,
                "pieces": pieces,
                "seconds": seconds,
                "shuffle": sum(st["shuffle_write"] for st in stages),
                "driver_peak": peak,
                "stages": stages,
            }
        )
    df.unpersist()
    return row, scaling


def main() -> None:
    from prtheory.spark.session import local_session

    sizes = [int(float(a)) for a in sys.argv[1:]] or [10**6, 10**7]
    spark = local_session(cores=2, partitions=8, **{"spark.driver.memory": "6g"})
    rows, scaling = [], []
    with tempfile.TemporaryDirectory() as tmp:
        _, _, small = make_data(20_000, Path(tmp), spark)
        for fn in spark_methods().values():  # JIT warm-up of every code path
            fn(small)
        small.unpersist()
        for n in sizes:
            row, sc = measure(spark, n, Path(tmp))
            rows.append(row)
            scaling += sc
    spark.stop()
    write_report(rows, scaling)


def _mb(b: float) -> str:
    return f"{b / 2**20:.1f}"


def write_report(rows: list[dict], scaling: list[dict]) -> None:
    digest = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
    timing = [k for k in rows[0] if k not in ("n", "equal to the oracle") and "error" not in k]
    default = "MLlib areaUnderPR numBins=1000"
    lines = [
        "# Exact AP on Spark: prtheory.spark beside MLlib, single-machine prtheory and sklearn",
        "",
        f"Generated by `python benchmarks/bench_spark.py` (bench_spark.py sha256: {digest}).",
        f"Machine: {platform.machine()}, {platform.system()}, Python {platform.python_version()};",
        "one local[2] session on a machine shared with other work (wall-clock seconds, one",
        "timed run each after a warm-up on 2*10^4 rows). Data: about 10% positives, scores",
        "rounded to 6 decimals (ties), Parquet read back and cached before timing. prtheory.spark",
        "with 8 pieces; `(float)` is the correctly rounded float64, `(exact)` the Fraction.",
        "",
        "| n | " + " | ".join(timing) + " | float / MLlib default | exact / MLlib default "
        "| equal to the oracle |",
        "|---:|" + "---:|" * len(timing) + "---:|---:|:---:|",
    ]
    for r in rows:
        cells = " | ".join(f"{r[k]:.2f}" for k in timing)
        f_ratio = r["prtheory.spark AP (float)"] / r[default]
        e_ratio = r["prtheory.spark AP (exact)"] / r[default]
        lines.append(
            f"| {r['n']:.0e} | {cells} | {f_ratio:.2f}x | {e_ratio:.2f}x "
            f"| {r['equal to the oracle']} |"
        )
    lines += [
        "",
        "Relative error of MLlib's areaUnderPR against the exact AP (a different quantity: a",
        "trapezoid from the first operating point, binned when numBins > 0):",
        "",
        "| n | numBins=1000 | numBins=0 |",
        "|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['n']:.0e} | {r['MLlib numBins=1000 rel. error']:.2e} | "
            f"{r['MLlib numBins=0 rel. error']:.2e} |"
        )
    lines += [
        "",
        "## Scaling of prtheory.spark.average_precision",
        "",
        "Stages in order (wall seconds / tasks / shuffle MB written): the count and the",
        "sample for the split points, the one shuffle (map side), the per-piece aggregation and",
        "packing (reduce side), the totals read from the cache, the Python pass over the",
        "pieces. Driver peak = tracemalloc peak of the driver's Python process during one call",
        "(what the driver holds: split points, per-piece totals and results).",
        "",
        "| rows | pieces | seconds | shuffle MB | driver peak MB | stages |",
        "|---:|---:|---:|---:|---:|---|",
    ]
    for s in scaling:
        stages = ", ".join(
            f"{st['wall']:.2f}/{st['tasks']}/{_mb(st['shuffle_write'])}" for st in s["stages"]
        )
        lines.append(
            f"| {s['n']:.0e} | {s['pieces']} | {s['seconds']:.2f} | {_mb(s['shuffle'])} "
            f"| {_mb(s['driver_peak'])} | {stages} |"
        )
    lines += ["", PROJECTION]
    REPORT.write_text("\n".join(lines) + "\n")


PROJECTION = """## Projection to 10^10 rows on a cluster (on paper)

What each step costs, with `n` rows, `d` distinct scores and `P` pieces:

* split points: one `count()` and one Bernoulli sample (about 100 P scores reach the driver):
  two scans of the input, no shuffle;
* the one shuffle moves every row once, about 17 bytes per row (piece id, score, label) before
  compression: 1.7e11 bytes at 10^10 rows, the same volume as MLlib's first `combineByKey`
  but without its second, sorted shuffle of `(score, counts)` pairs and its driver-side
  `collect()` of per-partition counts;
* the per-piece work is linear in the piece's distinct scores (JVM aggregation, then numpy in
  one Python task); with `d` up to 10^10 and P = 10^4 pieces each task holds 10^6 blocks
  (about 24 MB) and the interval pass costs a few hundred ms;
* the driver holds O(P) integers: P split points, P (positive, total) pairs, P intervals of a
  few hundred bits (or, with `exact=True`, P exact partial sums, whose size grows with the
  lcm of the cumulative counts, about 2e6 bits at 10^7 rows here).

On a cluster of E executor cores the time is about (scan + shuffle of n rows) / E plus the
per-piece pass (d / E blocks per core) plus a constant number of job launches (five to six
jobs, each a few hundred ms of scheduling); the measured local[2] runs above put the per-row
cost of the scan-and-shuffle at roughly n x (time at 10^7 / 10^7) per two cores, so 10^10 rows
on 200 cores would take about 10^3 / 100 times the 10^7 local time plus the fixed job
overhead. MLlib's areaUnderPR shuffles twice and sorts every distinct score globally, so the
ratio measured here should hold or improve."""


if __name__ == "__main__":
    main()
