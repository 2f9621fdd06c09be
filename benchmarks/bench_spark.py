"""Exact AP on Spark (prtheory.spark) beside MLlib's areaUnderPR, single-machine prtheory and sklearn.

Writes ``reports/benchmarks_spark.md``. One local[2] session; four input patterns (:data:`PATTERNS`):
scores rounded to 6 decimals (ties) with 10% positives; untied scores with 50% positives;
untied scores with 10% positives and uniform float weights; tied scores with 10% positives and
uniform float weights. Each frame is written once to
Parquet and read back cached. Every method runs once on a small frame first (JIT warm-up), then
:data:`REPEATS` times timed; the table gives the fastest run of each (wall-clock seconds; the
machine may be shared). MLlib with numBins=0 runs once (its error column; its time is not a
ratio's basis). A scaling table gives, per run of prtheory's exact AP on the tied pattern: the
pieces, the stages with their wall time and shuffle bytes (from Spark's status store) and the
driver's peak Python allocation (tracemalloc, a separate untimed run), and the one shuffle
of the tied and the untied pattern at the largest size is taken apart, both ways of summing
equal scores (:func:`reduce_probe`), for the paragraph on the misses; on every row the exact
AP's extra cost is taken apart (:func:`exact_probe`: the pieces' exact partial sums against their
intervals, and their exact sum). Usage:
``python benchmarks/bench_spark.py [n ...]`` (default 10^6 and 10^7). The report records the
sha256 of this script; a test fails when it is stale.
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
PIECES = (2, 8, 32)
#: the session: local[CORES], spark.sql.shuffle.partitions at Spark's default
CORES = 2
SHUFFLE_PARTITIONS = 200
REPEATS = 2
#: the time the target is relative to: MLlib's areaUnderPR with default settings
ANCHOR = "MLlib areaUnderPR numBins=1000"
#: name -> (positive fraction, decimals the scores are rounded to or None, float weights)
PATTERNS = {
    "tied, 10% positives": (0.1, 6, False),
    "untied, 50% positives": (0.5, None, False),
    "untied, 10% positives, float weights": (0.1, None, True),
    "tied, 10% positives, float weights": (0.1, 6, True),
}
#: the single-machine exact oracle is skipped above this size with float weights (minutes and
#: several GB per call: the exact weights outgrow int64; see reports/benchmarks.md)
ORACLE_WEIGHTED_MAX = 10**6
#: the patterns whose one shuffle is taken apart at the largest size (:func:`reduce_probe`)
PROBED = ("tied, 10% positives", "untied, 50% positives")


def timed(fn, repeats: int = 1):
    """The value and the fastest of ``repeats`` wall-clock runs."""
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        v = fn()
        best = min(best, time.perf_counter() - t)
    return v, best


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


def make_data(n: int, pattern: str, tmp: Path, spark):
    import pandas as pd

    frac, decimals, weighted = PATTERNS[pattern]
    rng = np.random.default_rng(n)
    y = (rng.random(n) < frac).astype(np.float64)
    s = rng.random(n) + 0.3 * y
    if decimals is not None:
        s = np.round(s, decimals)
    w = rng.random(n) if weighted else None
    cols = {"label": y, "score": s} | ({} if w is None else {"weight": w})
    path = str(tmp / f"data{n}-{sorted(PATTERNS).index(pattern)}.parquet")
    pd.DataFrame(cols).to_parquet(path)
    df = spark.read.parquet(path).cache()
    df.count()
    return y, s, w, df


def spark_methods(weighted: bool):
    from pyspark.ml.evaluation import BinaryClassificationEvaluator

    from prtheory import spark as pspark

    wc = "weight" if weighted else None
    extra = {"weightCol": wc} if weighted else {}

    def mllib(bins):
        ev = BinaryClassificationEvaluator(
            rawPredictionCol="score", metricName="areaUnderPR", numBins=bins, **extra
        )
        return ev.evaluate

    return {
        "prtheory.spark AP (float)": lambda df: pspark.average_precision(df, weight_col=wc),
        "prtheory.spark AP (exact)": lambda df: pspark.average_precision(
            df, weight_col=wc, exact=True
        ),
        "MLlib areaUnderPR numBins=1000": mllib(1000),
        "MLlib areaUnderPR numBins=0": mllib(0),
    }


def measure(spark, n: int, pattern: str, tmp: Path) -> tuple[dict, list[dict]]:
    from sklearn.metrics import average_precision_score

    import prtheory
    from prtheory import oracle
    from prtheory import spark as pspark

    y, s, w, df = make_data(n, pattern, tmp, spark)
    row: dict = {"n": n, "pattern": pattern}
    values = {}
    for name, fn in spark_methods(w is not None).items():
        repeats = 1 if name.endswith("numBins=0") else REPEATS
        values[name], row[name] = timed(lambda fn=fn: fn(df), repeats)
    exact = values["prtheory.spark AP (exact)"]
    if w is None or n <= ORACLE_WEIGHTED_MAX:
        ref, row["prtheory.oracle exact AP"] = timed(lambda: oracle.average_precision(y, s, w))
        row["equal to the oracle"] = exact == ref and values[
            "prtheory.spark AP (float)"
        ] == oracle.to_float(ref)
    else:
        row["prtheory.oracle exact AP"] = float("nan")
        row["equal to the oracle"] = "not run"
    single, row["prtheory.average_precision (float)"] = timed(
        lambda: prtheory.average_precision(y, s, sample_weight=w)
    )
    # the single-machine float64 layer, another code path to the same correctly rounded value:
    # checked on every row, the float-weighted one at 10^7 where the exact oracle is not run
    row["equal to single-machine float"] = values["prtheory.spark AP (float)"] == single and (
        oracle.to_float(exact) == single
    )
    _, row["sklearn average_precision_score"] = timed(
        lambda: average_precision_score(y, s, sample_weight=w)
    )
    for bins in (1000, 0):
        row[f"MLlib numBins={bins} rel. error"] = float(
            values[f"MLlib areaUnderPR numBins={bins}"] / float(exact) - 1
        )
    row["exact parts"] = exact_probe(df, w is not None, exact)
    scaling = []
    for pieces in PIECES if pattern == next(iter(PATTERNS)) else ():
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
    # Spark's own default shuffle partitions, as in a user's session: prtheory.spark chooses its
    # pieces itself (prtheory.spark.blocks.default_pieces)
    spark = local_session(
        cores=CORES, partitions=SHUFFLE_PARTITIONS, **{"spark.driver.memory": "6g"}
    )
    rows, scaling = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for pattern in PATTERNS:
            _, _, w, small = make_data(20_000, pattern, Path(tmp), spark)
            for fn in spark_methods(w is not None).values():  # JIT warm-up of every code path
                fn(small)
            small.unpersist()
        for n in sizes:
            for pattern in PATTERNS:
                row, sc = measure(spark, n, pattern, Path(tmp))
                rows.append(row)
                scaling += sc
        n = max(sizes)
        probe = []
        for pattern in PROBED:
            *_, df = make_data(n, pattern, Path(tmp), spark)
            probe.append(reduce_probe(spark, df, n, pattern))
            df.unpersist()
    spark.stop()
    write_report(rows, scaling, probe)


def _within(ratio: float) -> str:
    return "yes" if ratio <= 0.25 else "**no**"


def _mb(b: float) -> str:
    return f"{b / 2**20:.1f}"


def write_report(rows: list[dict], scaling: list[dict], probe: list[dict]) -> None:
    from prtheory.spark.blocks import MIN_ROWS_PER_PIECE, default_pieces

    digest = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
    skip = ("n", "pattern", "equal to the oracle", "equal to single-machine float", "exact parts")
    timing = [k for k in rows[0] if k not in skip and "error" not in k]
    default = ANCHOR
    sizes = sorted({r["n"] for r in rows})
    pieces = ", ".join(f"{default_pieces(n, CORES)} at {n:.0e} rows" for n in sizes)
    lines = [
        "# Exact AP on Spark: prtheory.spark beside MLlib, single-machine prtheory and sklearn",
        "",
        f"Generated by `python benchmarks/bench_spark.py` (bench_spark.py sha256: {digest}).",
        f"Machine: {platform.machine()}, {platform.system()}, Python {platform.python_version()};",
        f"one local[2] session (spark.sql.shuffle.partitions={SHUFFLE_PARTITIONS}, Spark's default;",
        "driver memory 6g) on a machine",
        f"that may be shared (wall-clock seconds, the fastest of {REPEATS} timed runs after a",
        "warm-up on 2*10^4 rows; MLlib numBins=0 one run). Patterns: scores rounded to 6",
        "decimals (ties) with 10% positives; untied scores with 50% positives; untied and tied",
        "scores with 10% positives and uniform float weights (MLlib's `weightCol`). Each frame is read",
        "back from Parquet and cached before timing (so prtheory.spark's sample takes the row",
        "count from the cache). prtheory.spark with its default pieces (4 per core, at least",
        f"2^{MIN_ROWS_PER_PIECE.bit_length() - 1} rows each: {pieces}); `(float)` is the "
        "correctly rounded float64, `(exact)` the",
        "Fraction. Target:",
        "the exact AP at most 0.25x MLlib's default areaUnderPR (numBins=1000).",
        "",
        "| n | pattern | " + " | ".join(timing) + " | float / MLlib default "
        "| exact / MLlib default | within target (exact / float) | equal to the oracle "
        "| equal to single-machine float |",
        "|---:|---|" + "---:|" * len(timing) + "---:|---:|:---:|:---:|:---:|",
    ]
    for r in rows:
        cells = " | ".join("-" if r[k] != r[k] else f"{r[k]:.2f}" for k in timing)
        f_ratio = r["prtheory.spark AP (float)"] / r[default]
        e_ratio = r["prtheory.spark AP (exact)"] / r[default]
        lines.append(
            f"| {r['n']:.0e} | {r['pattern']} | {cells} | {f_ratio:.2f}x | {e_ratio:.2f}x "
            f"| {_within(e_ratio)} / {_within(f_ratio)} | {r['equal to the oracle']} "
            f"| {r['equal to single-machine float']} |"
        )
    lines += [
        "",
        f"`not run`: the single-machine exact oracle is skipped above {ORACLE_WEIGHTED_MAX:.0e}",
        "rows with float weights (minutes and several GB per call, `reports/benchmarks.md`);",
        "`tests/test_spark.py` checks equality with float weights on small frames.",
        "`equal to single-machine float`: the Spark float, and the Spark Fraction rounded, equal",
        "`prtheory.average_precision` (the single-machine float64 layer, correctly rounded by",
        "another code path), on every row including that one.",
    ]
    lines += [
        "",
        "Relative error of MLlib's areaUnderPR against the exact AP (a different quantity: a",
        "trapezoid from the first operating point, binned when numBins > 0):",
        "",
        "| n | pattern | numBins=1000 | numBins=0 |",
        "|---:|---|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['n']:.0e} | {r['pattern']} | {r['MLlib numBins=1000 rel. error']:.2e} | "
            f"{r['MLlib numBins=0 rel. error']:.2e} |"
        )
    lines += [
        "",
        "## Scaling of prtheory.spark.average_precision",
        "",
        "Tied pattern. Stages in order (wall seconds / tasks / shuffle MB written): the sample",
        "for the split points; the per-piece totals and malformed-row counts (a partial",
        "aggregation, then its few rows merged); the one shuffle of the rows (map side, with",
        "the input partitions' counts per score when they combine their ties); its reduce",
        "side: Spark's aggregation into blocks (when it sums the ties), the",
        "Arrow transfer and the Python pass.",
        "Driver peak = tracemalloc peak of the driver's Python process during one call (what",
        "the driver holds: split points, per-piece totals and results).",
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
    misses = _where_the_time_goes(rows, scaling, probe)
    lines += ["", *misses, *([""] if misses else []), *_probe_table(probe)]
    lines += ["", *_exact_table(rows), "", PROJECTION]
    REPORT.write_text("\n".join(lines) + "\n")


def _where_the_time_goes(rows: list[dict], scaling: list[dict], probe: list[dict]) -> list[str]:
    """A paragraph on the misses, from the measured stages (the largest run with the default pieces) and
    the reduce side taken apart (:func:`reduce_probe`)."""
    from prtheory.spark.blocks import default_pieces

    missed = [r for r in rows if r["prtheory.spark AP (exact)"] > 0.25 * r[ANCHOR]]
    runs = [s for s in scaling if s["pieces"] == default_pieces(s["n"], CORES)]
    if not missed or not runs:
        return []
    run = max(runs, key=lambda s: s["n"])
    walls = [st["wall"] for st in run["stages"]]
    shuffle = sum(walls[-2:])  # the map side of the one shuffle and its reduce side
    target = 0.25 * next(r[ANCHOR] for r in rows if r["n"] == run["n"])
    small = min(runs, key=lambda s: s["n"])
    driver = small["seconds"] - sum(st["wall"] for st in small["stages"])
    names = ", ".join(
        f"{r['n']:.0e} {r['pattern']} ({'exact' if _float_ok(r) else 'exact and float'})"
        for r in missed
    )
    lines = [
        "## Where the time goes in the misses",
        "",
        f"Missed: {names}. On the tied pattern at {run['n']:.0e} rows the last two stages",
        "(the one shuffle's map side, with the input partitions' counting when they combine",
        "their ties; and its reduce side: Spark's aggregation when it sums the ties, the Arrow",
        "transfer, the Python pass) take",
        f"{shuffle:.2f} s of the {run['seconds']:.2f} s call, against a target of",
        f"{target:.2f} s for the whole call ({shuffle / target:.0%} of it).",
    ]
    tied = next((t for t in probe if t["pattern"] == next(iter(PATTERNS))), None)
    if tied:
        way = tied["chosen"]
        moved = {
            "aggregated": "Spark's aggregation and the blocks' Arrow transfer",
            "combined": "the input partitions' counting before it and the counts' Arrow transfer",
            "raw": "the rows' Arrow transfer",
        }[way]
        lines += [
            f"Taken apart at {tied['n']:.0e} rows (the same rows and pieces, each a job of its",
            f"own; table below): the shuffle alone takes {tied['shuffle']:.2f} s, and with",
            f"{moved} to Python workers that only count them",
            f"{tied[f'{way} arrow']:.2f} s: {tied[f'{way} arrow'] / target:.0%} of the target",
            "before any exact arithmetic runs.",
        ]
    lines += [
        "The rest is the sample and the totals (two passes over the cached input) and a fixed",
        f"cost per job (three jobs; at {small['n']:.0e} rows {driver:.2f} s of the call is outside",
        "every stage: driver-side planning and job scheduling). The exact Fraction costs more",
        "than the float: it adds every piece's exact partial sum, whose denominator grows with",
        "the lcm of the cumulative counts, and adds them exactly (a fourth job when the sum is",
        "large). With float weights each row's exact binary",
        "decomposition (a log2 and two LONG powers of two) is computed in both passes, the",
        "rows carry a mantissa and an exponent, and the exact weights outgrow int64 in the",
        "Python pass (Python integers), the same cause as the single-machine misses in",
        "`reports/benchmarks.md`. What the exact sums cost, on the workers and on the driver,",
        "is the last table.",
    ]
    return lines


def _probe_table(probe: list[dict]) -> list[str]:
    """Where equal scores are summed, each way, on the probed patterns."""
    from prtheory.spark.blocks import COMBINE_MIN_TIES, RAW_MAX_TIES

    lines = [
        "### Where equal scores are summed",
        "",
        "The one shuffle at the largest size, each step a job of its own (wall seconds, fastest",
        f"of {REPEATS}): the shuffle alone; Spark's aggregation into one block per score; the",
        "blocks' Arrow transfer to Python workers that only count them; the unaggregated rows'",
        "transfer instead; the input partitions' counts per score (`combine_rows`, numpy before",
        "the shuffle, then shuffled) and their transfer, with the number of rows they leave;",
        "the whole float AP each way. The transfers go as `Pieces.run` sends",
        "them, without Spark's per-row byte check (`prtheory.spark.arrow`: Spark 4 asks the",
        "Arrow writer for its size after every row unless `maxBytesPerBatch` is INT_MAX); the",
        "rows' transfer with the check, Spark's default, is the column `Arrow (rows, byte",
        "check)`. The sample's estimate of the mean number of rows sharing a row's score",
        "chooses, with the share of rows in each input partition: with unit weights the",
        f"partitions combine their ties from `COMBINE_MIN_TIES` ({COMBINE_MIN_TIES:g}) rows per",
        "score within a partition (`local_multiplicity`), otherwise unaggregated rows at most",
        f"`RAW_MAX_TIES` ({RAW_MAX_TIES:g}), else Spark's aggregation. `chosen` is the way a",
        "call with the default settings took.",
        "",
        "| n | pattern | rows per score (estimate) | shuffle | + aggregation | + Arrow "
        "(aggregated) | Arrow (rows) | Arrow (rows, byte check) | combined + Arrow | rows "
        "combined | AP aggregated | AP rows | AP combined | chosen |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for t in probe:
        lines.append(
            f"| {t['n']:.0e} | {t['pattern']} | {t['multiplicity']:.2f} | {t['shuffle']:.2f} "
            f"| {t['aggregate']:.2f} | {t['aggregated arrow']:.2f} | {t['raw arrow']:.2f} "
            f"| {t['raw arrow checked']:.2f} | {t['combined arrow']:.2f} "
            f"| {t['combined blocks']:,} | {t['aggregated AP']:.2f} | {t['raw AP']:.2f} "
            f"| {t['combined AP']:.2f} | {t['chosen']} |"
        )
    return lines


def _exact_table(rows: list[dict]) -> list[str]:
    """Where the exact Fraction's extra time goes, per row (:func:`exact_probe`)."""
    from prtheory.distributed.sums import SPREAD_MIN_BITS

    lines = [
        "### Where the exact Fraction's extra time goes",
        "",
        "The exact AP is the float AP's pipeline with each piece's 128-bit interval replaced by",
        "its exact partial sum (a reduced fraction, binary splitting on GMP rationals or, above",
        "64-bit denominators, GMP integers reduced once), and the exact sum of the pieces'",
        "fractions (`prtheory.distributed.sums.combine_exact`): on the driver by Henrici's",
        "additions (gcds of the pieces' denominators, never of the sum), or, from",
        f"`SPREAD_MIN_BITS` (2^{SPREAD_MIN_BITS.bit_length() - 1}) bits of unreduced",
        "denominator, unreduced and then reduced by one gcd per piece in a small job of one",
        "task per core (`Pieces.spread`) and a gcd of the factors they share on the driver.",
        "Each part timed on the exact call's pieces (with float weights balanced by the",
        "positives' cost: `EXACT_POSITIVE_COST`), each",
        f"on its own (fastest of {REPEATS}): the one job that returns every piece's interval,",
        "the same job returning the exact partial sums, and their sum (with its reduction);",
        "the bits of the largest piece's denominator, of the unreduced sum's and of the",
        "reduced sum's, and where it was reduced; and, for scale, one GMP gcd and one GMP",
        "product of the reduced sum's numerator and denominator (gmpy2).",
        "",
        "| n | pattern | intervals job | exact partials job | exact sum of the pieces "
        "| largest piece denominator (bits) | unreduced denominator (bits) | sum's "
        "denominator (bits) | reduced | one gcd of the sum | one product of the sum |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---|---:|---:|",
    ]
    for r in rows:
        e = r["exact parts"]
        lines.append(
            f"| {r['n']:.0e} | {r['pattern']} | {e['intervals']:.2f} | {e['partials']:.2f} "
            f"| {e['combine']:.2f} | {e['piece bits']:,} | {e['unreduced bits']:,} "
            f"| {e['bits']:,} | {'in the workers' if e['spread'] else 'on the driver'} "
            f"| {e['gcd']:.3f} | {e['product']:.3f} |"
        )
    return lines


def exact_probe(df, weighted: bool, expected) -> dict:
    """The exact AP's parts on ``df`` (the exact call's default pieces), each timed on its own:
    the job returning every piece's interval (what the float needs), the same job returning
    the exact partial sums (:func:`prtheory.distributed.exact_partial`), and their sum
    (:func:`prtheory.distributed.sums.combine_exact` with the engine's spread, as the call
    has it), which must equal ``expected``
    (``pos`` times the exact AP); with the sizes of the denominators and, for scale, the time of
    one GMP gcd and one GMP product of the sum's numerator and denominator."""
    import gmpy2

    from prtheory.distributed import ap_terms, exact_partial, interval_partial
    from prtheory.distributed.sums import combine_exact
    from prtheory.spark.blocks import pieces

    spread_calls = []

    def spread(fn, items):  # the engine's spread, recording whether combine_exact called it
        spread_calls.append(len(items))
        return p.spread(fn, items)

    # the exact call's pieces (float weights: balanced by the positives' cost)
    weight = "weight" if weighted else None
    with pieces(df, "label", "score", weight, None, exact_sum=True) as p:
        _, intervals = timed(lambda: p.run(lambda q: interval_partial(ap_terms(q))), REPEATS)
        partials, job = timed(lambda: p.run(lambda q: exact_partial(ap_terms(q))), REPEATS)
        total, combine = timed(lambda: combine_exact(partials, spread), REPEATS)
        assert total / p.pos == expected, "the parts do not add up to the exact AP"
    unreduced = sum(d.bit_length() for n, d in partials if n)
    a, b = gmpy2.mpz(total.numerator), gmpy2.mpz(total.denominator)
    return {
        "gcd": timed(lambda: gmpy2.gcd(a, b), REPEATS)[1],
        "product": timed(lambda: a * b, REPEATS)[1],
        "intervals": intervals,
        "partials": job,
        "combine": combine,
        "piece bits": max(d.bit_length() for _, d in partials),
        "unreduced bits": unreduced,
        "spread": bool(spread_calls),
        "bits": total.denominator.bit_length(),
    }


def _float_ok(row: dict) -> bool:
    return row["prtheory.spark AP (float)"] <= 0.25 * row[ANCHOR]


def reduce_probe(spark, df, n: int, pattern: str) -> dict:
    """The one shuffle of :func:`prtheory.spark.blocks.pieces` taken apart on ``df``, each way
    of summing equal scores forced in turn (:data:`prtheory.spark.blocks.RAW_MAX_TIES` and
    :data:`~prtheory.spark.blocks.COMBINE_MIN_TIES`), each a job of its own: seconds for the
    shuffle alone (rows counted), with Spark's aggregation into blocks (blocks counted), and,
    each way, the blocks' Arrow transfer to Python workers that only count them (the rows
    unaggregated; the input partitions' counts when they combine their ties first), without
    Spark's per-row byte check as :meth:`Pieces.run` sends them, and the rows' once more with
    it (Spark's default); then the whole float AP each way, the sample's estimates, and the
    way a call with the default settings takes (its ``Pieces.path``)."""
    from prtheory import spark as pspark
    from prtheory.spark import blocks as B
    from prtheory.spark.arrow import unchecked_byte_limit

    F = B.functions()

    def count(batches):
        import pyarrow as pa

        yield pa.RecordBatch.from_pydict({"c": [sum(b.num_rows for b in batches)]})

    defaults = B.RAW_MAX_TIES, B.COMBINE_MIN_TIES
    out = {"n": n, "pattern": pattern}
    inf = float("inf")
    try:
        with B.pieces(df, "label", "score", None, PIECES[0]) as p:
            out["chosen"] = p.path  # what the call takes with the default settings
            out["multiplicity"] = p.ties  # the sample's estimate: the same every way
        for path, thresholds in (
            ("aggregated", (-inf, inf)),
            ("raw", (inf, inf)),
            ("combined", (inf, -inf)),
        ):
            B.RAW_MAX_TIES, B.COMBINE_MIN_TIES = thresholds
            with B.pieces(df, "label", "score", None, PIECES[0]) as p:
                assert p.path == path
                if path == "aggregated":
                    out["shuffle"] = timed(
                        lambda: p.rows.agg(F.count(F.lit(1))).collect(), REPEATS
                    )[1]
                    out["aggregate"] = timed(
                        lambda: p.frame.agg(F.count(F.lit(1))).collect(), REPEATS
                    )[1]

                def transfer(p=p):
                    return p.frame.mapInArrow(count, "c long").collect()

                with unchecked_byte_limit(spark, len(p.frame.columns)) as lifted:
                    assert lifted
                    out[f"{path} arrow"] = timed(transfer, REPEATS)[1]
                if path == "raw":
                    out["raw arrow checked"] = timed(transfer, REPEATS)[1]
                if path == "combined":
                    out["combined blocks"] = sum(r[0] for r in transfer())  # over the tasks
            out[f"{path} AP"] = timed(lambda: pspark.average_precision(df), REPEATS)[1]
    finally:
        B.RAW_MAX_TIES, B.COMBINE_MIN_TIES = defaults
    return out


PROJECTION = """## Projection to 10^10 rows on a cluster (on paper)

What each step costs, with `n` rows, `d` distinct scores and `P` pieces:

* split points and totals: a seeded sample (each task keeps its rows of least `rand`, about
  100 P scores reach the driver) and one aggregation by piece (exact totals, malformed rows;
  partial aggregation, a shuffle of a few rows per task): two scans of the input;
* the one shuffle moves every row once: its score and label (and, when Spark sums many ties,
  its piece), 24 bytes per row in Spark's row format, about 10 after compression: 1e11 bytes
  at 10^10 rows, the same volume as MLlib's first `combineByKey` but without its second,
  sorted shuffle of `(score, counts)` pairs and its driver-side `collect()` of per-partition
  counts. With unit weights and many ties within an input partition, each partition first
  counts its rows per score (numpy, before the shuffle), and the shuffle moves one row per
  distinct score per partition instead (the scaling table's tied pattern);
* the per-piece work is linear in the piece's rows: numpy on the blocks' Arrow columns in one
  Python task, sorted by score (after a hash aggregation in the JVM when Spark sums the
  ties); with up to 10^10 rows or blocks and P = 10^4 pieces each task holds
  10^6 (about 24 MB) and the interval pass costs a few hundred ms; nothing is cached;
* the driver holds O(P) integers: P split points, P (positive, total) pairs, P intervals of a
  few hundred bits (or, with `exact=True`, P exact partial sums, whose size grows with the
  lcm of the cumulative counts, about 2e6 bits at 10^7 rows here).

On a cluster of E executor cores the time is about (scan + shuffle of n rows) / E plus the
per-piece pass (d / E blocks per core) plus a constant number of job launches (three jobs,
each a few hundred ms of scheduling); the measured local[2] runs above put the per-row
cost of the scan-and-shuffle at roughly n x (time at 10^7 / 10^7) per two cores, so 10^10 rows
on 200 cores would take about 10^3 / 100 times the 10^7 local time plus the fixed job
overhead. MLlib's areaUnderPR shuffles twice and sorts every distinct score globally, so the
ratio measured here should hold or improve."""


if __name__ == "__main__":
    main()
