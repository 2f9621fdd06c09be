"""Exact AP from Parquet bigger than memory: prtheory.duckdb beside DuckDB's own float window SQL
and prtheory.spark in local mode, on the same files.

Writes ``reports/benchmarks_duckdb.md``. Two Parquet files per size (:data:`PATTERNS`), written
in a scratch directory (``--scratch``, default a new temporary directory; deleted at the end
unless ``--keep``): scores rounded to 6 decimals (tied: about 1.3 million distinct) or full
doubles (untied), 10 % positives, each file with a uniform float weight column, so every file
serves the unit-weight and the float-weight runs. Each run is a fresh Python process (so each
pays its own imports and start-up) whose wall time is measured inside it around the one call;
its peak RSS is the largest sum of the resident sizes of the process and all its descendants
(Spark's JVM included), sampled every 50 ms from ``/proc``. The machine's 1-minute load is recorded before each run.

Contenders (each on the same file, 2 threads/cores, DuckDB's ``memory_limit`` :data:`MEMORY`):

* ``duckdb SQL``: the float window query a DuckDB user writes (:data:`FLOOR_SQL`): ``GROUP BY``
  score, window sums of the positive and total weight, ``sum(p * TP / N) / pos`` in DOUBLE;
* ``prtheory.duckdb``: ``average_precision(path, label="y", score="s"[, weight="w"])``, the
  correctly rounded float, and with ``exact=True`` the exact Fraction;
* ``prtheory.spark``: ``average_precision`` of ``spark.read.parquet(path)`` in local[2]
  (the float), for the sizes in ``--spark``.

Every value is checked: the float equals the exact value correctly rounded; where the exact
value is computed it equals the oracle's value from the same file read in chunks
(:func:`chunked_oracle`: numpy counts per distinct score, merged chunk by chunk, then
:func:`prtheory.oracle.average_precision` with the counts as integer weights, which under tied
scores grouped equals duplication); DuckDB SQL's error is given in ulps of the correctly rounded
value. The exact value is computed only where its rational stays small (tied scores, unit
weights, and up to :data:`EXACT_FLOAT_MAX` rows with float weights or untied scores: past that
the exact rational of millions of distinct terms grows by tens of bits per term).
Usage: ``python benchmarks/bench_duckdb.py [--sizes 1e7 1e8 2e8] [--spark 1e7]
[--scratch DIR] [--keep]``; the largest tied file runs first, and the report is rewritten after
every file.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
REPORT = ROOT / "reports" / "benchmarks_duckdb.md"
MEMORY = "1GB"
THREADS = 2
CHUNK = 10**7
SEED = 37
#: name -> decimals the scores are rounded to (None: untied)
PATTERNS = {"tied": 6, "untied": None}
#: the largest size at which the exact AP runs with float weights or untied scores
EXACT_FLOAT_MAX = 10**7
#: the correctly rounded float must be within this factor of DuckDB SQL's time, the exact AP
#: within EXACT_TARGET; the peak RSS below RSS_TARGET bytes at the largest size
FLOAT_TARGET, EXACT_TARGET, RSS_TARGET = 1.5, 2.0, 10**9

FLOOR_SQL = """
WITH b AS (SELECT s, sum({p}) AS p, sum({t}) AS t FROM read_parquet('{path}') GROUP BY s),
c AS (SELECT p, sum(p) OVER (ORDER BY s DESC) AS tp, sum(t) OVER (ORDER BY s DESC) AS n FROM b)
SELECT sum(p * tp / n) / sum(p) FROM c
"""


def generate(path: Path, n: int, decimals: int | None) -> None:
    """``n`` rows (``y`` int8, 10 % positive; ``s`` double; ``w`` uniform double in (0, 1]) in
    row groups of :data:`CHUNK`, seeded."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(SEED + n + (decimals or 0))
    schema = pa.schema([("y", pa.int8()), ("s", pa.float64()), ("w", pa.float64())])
    with pq.ParquetWriter(path, schema) as writer:
        for start in range(0, n, CHUNK):
            m = min(CHUNK, n - start)
            y = (rng.random(m) < 0.1).astype(np.int8)
            s = rng.random(m) + 0.3 * y
            if decimals is not None:
                s = np.round(s, decimals)
            w = 1.0 - rng.random(m)
            writer.write_table(pa.table({"y": y, "s": s, "w": w}, schema=schema))


def chunked_oracle(path: Path) -> Fraction:
    """The oracle's exact AP (unit weights) of the file, read in chunks: the positive and
    negative counts per distinct score, merged chunk by chunk (numpy), then the oracle on one
    row per (score, label) weighted by its count."""
    import pyarrow.parquet as pq

    from prtheory import oracle

    scores = np.zeros(0)
    pos = neg = np.zeros(0, dtype=np.int64)
    for batch in pq.ParquetFile(path).iter_batches(batch_size=CHUNK, columns=["y", "s"]):
        s = batch.column("s").to_numpy()
        y = batch.column("y").to_numpy().astype(bool)
        both = np.concatenate((scores, s))
        distinct, at = np.unique(both, return_inverse=True)
        p = np.bincount(at, np.concatenate((pos, y)), distinct.size).astype(np.int64)
        t = np.bincount(at, np.concatenate((pos + neg, np.ones(s.size))), distinct.size)
        scores, pos, neg = distinct, p, t.astype(np.int64) - p
    keep_p, keep_n = pos > 0, neg > 0
    y = np.concatenate((np.ones(keep_p.sum(), int), np.zeros(keep_n.sum(), int)))
    s = np.concatenate((scores[keep_p], scores[keep_n]))
    return oracle.average_precision(y, s, np.concatenate((pos[keep_p], neg[keep_n])))


def run_one(contender: str, path: str, weighted: bool) -> dict:
    """One measured call in this process: ``{"seconds", "value"}`` (value: ``float.hex`` or the
    exact ``"n/d"`` in hexadecimal)."""
    from prtheory.distributed import encode_fraction

    if contender == "duckdb SQL":
        import duckdb

        con = duckdb.connect(config={"memory_limit": MEMORY, "threads": THREADS})
        sql = FLOOR_SQL.format(
            p="w * y" if weighted else "y", t="w" if weighted else "1", path=path
        )
        t = time.perf_counter()
        value = con.sql(sql).fetchall()[0][0]
        seconds = time.perf_counter() - t
        return {"seconds": seconds, "value": float(value).hex()}
    weight = "w" if weighted else None
    if contender.startswith("prtheory.duckdb"):
        from prtheory import duckdb as pdb

        exact = contender.endswith("exact")
        t = time.perf_counter()
        v = pdb.average_precision(
            path, "y", "s", weight, exact=exact, memory_limit=MEMORY, threads=THREADS
        )
        seconds = time.perf_counter() - t
        return {"seconds": seconds, "value": encode_fraction(v) if exact else float(v).hex()}
    from prtheory import spark
    from prtheory.spark.session import local_session

    session = local_session(cores=THREADS, partitions=200)
    df = session.read.parquet(path)
    t = time.perf_counter()
    v = spark.average_precision(df, "y", "s", weight)
    seconds = time.perf_counter() - t
    session.stop()
    return {"seconds": seconds, "value": float(v).hex()}


def _tree_rss(root: int) -> int:
    """Resident bytes of ``root`` and all its descendants (from /proc)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry)
        children.setdefault(int(fields[1]), []).append(pid)
        rss[pid] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo += children.get(pid, [])
    return total


def measure(contender: str, path: Path, weighted: bool) -> dict:
    """Run :func:`run_one` in a fresh process; add its peak tree RSS, ``ru_maxrss`` and the load."""
    load = os.getloadavg()[0]
    out_file = path.with_suffix(".result.json")
    cmd = [sys.executable, __file__, "--run", contender, str(path), str(int(weighted))]
    child = subprocess.Popen([*cmd, str(out_file)])
    peak = [0]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _tree_rss(child.pid))
            done.wait(0.05)

    sampler = threading.Thread(target=sample)
    sampler.start()
    _, status = os.waitpid(child.pid, 0)
    done.set()
    sampler.join()
    if status != 0:
        raise RuntimeError(f"{contender} on {path.name} failed with status {status}")
    result = json.loads(out_file.read_text())
    out_file.unlink()
    result.update(contender=contender, tree_rss=peak[0], load=load)
    print(json.dumps({k: v for k, v in result.items() if k != "value"}), flush=True)
    return result


def _value(text: str):
    from prtheory.distributed import decode_fraction

    return decode_fraction(text) if "/" in text else float.fromhex(text)


def _ulps(value: float, exact: float) -> int:
    a, b = np.float64(value).view(np.int64), np.float64(exact).view(np.int64)
    return int(abs(int(a) - int(b)))


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--run":
        Path(sys.argv[5]).write_text(
            json.dumps(run_one(sys.argv[2], sys.argv[3], sys.argv[4] == "1"))
        )
        return
    from benchmarks.machine import facts
    from prtheory.oracle.rounding import to_float

    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", nargs="*", default=["1e7", "1e8", "2e8"])
    parser.add_argument("--spark", nargs="*", default=["1e7"])
    parser.add_argument("--scratch", default=None)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    sizes = [int(float(a)) for a in args.sizes]
    spark_sizes = {int(float(a)) for a in args.spark}
    scratch = Path(args.scratch or tempfile.mkdtemp(prefix="bench-duckdb-"))
    scratch.mkdir(parents=True, exist_ok=True)
    machine = facts()
    import duckdb

    machine["duckdb"] = duckdb.__version__
    rows, checks, uptimes = [], [], []
    # the largest tied file first (the acceptance run), then by size; the report is rewritten
    # after every file, so a run cut short leaves what it measured
    order = sorted(((n, p) for n in sizes for p in PATTERNS), key=lambda c: c[0])
    if order:
        first = max(sizes), "tied"
        order = [first, *[c for c in order if c != first]]
    try:
        for n, pattern in order:
            path = scratch / f"{pattern}-{n}.parquet"
            if not path.exists():
                generate(path, n, PATTERNS[pattern])
            for weighted in (False, True):
                contenders = ["duckdb SQL", "prtheory.duckdb float"]
                if (pattern == "tied" and not weighted) or n <= EXACT_FLOAT_MAX:
                    contenders.append("prtheory.duckdb exact")
                if n in spark_sizes:
                    contenders.append("prtheory.spark float")
                uptimes.append(subprocess.run(["uptime"], capture_output=True, text=True).stdout)
                got = {c: measure(c, path, weighted) for c in contenders}
                exact = got.get("prtheory.duckdb exact")
                floor = got["duckdb SQL"]
                correct = _value(got["prtheory.duckdb float"]["value"])
                check = {"n": n, "pattern": pattern, "weighted": weighted}
                if exact is not None:
                    q = _value(exact["value"])
                    check["float is the exact rounded"] = to_float(q) == correct
                    if not weighted:
                        check["exact is the chunked oracle"] = chunked_oracle(path) == q
                if "prtheory.spark float" in got:
                    spark_value = _value(got["prtheory.spark float"]["value"])
                    check["spark float equal"] = spark_value == correct
                check["duckdb SQL ulps"] = _ulps(_value(floor["value"]), correct)
                checks.append(check)
                for c, r in got.items():
                    rows.append(
                        {**r, "n": n, "pattern": pattern, "weighted": weighted, "contender": c,
                         "ratio": r["seconds"] / floor["seconds"]}
                    )  # fmt: skip
                write_report(rows, checks, machine, uptimes)
            path.unlink()
    finally:
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)


def write_report(rows: list[dict], checks: list[dict], machine: dict, uptimes: list[str]) -> None:
    from benchmarks.machine import report_header

    lines = report_header(
        "Exact AP from Parquet through DuckDB, beside DuckDB SQL and Spark",
        Path(__file__),
        machine,
    )
    lines += ["", __doc__.split("\n\n", 1)[1].strip(), "", "## Times and memory", ""]
    lines += [
        "Wall seconds of the call; the ratio to DuckDB SQL's time on the same file and weights;",
        "peak RSS of the process tree (MB, sampled every 50 ms); the 1-minute load before the",
        f"run. Targets: float within {FLOAT_TARGET}x, exact within "
        f"{EXACT_TARGET}x, peak RSS under {RSS_TARGET // 10**6} MB at the largest size.",
        "",
        "| rows | scores | weights | contender | seconds | ratio | peak RSS MB | load |",
        "|---:|---|---|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['n']:.0e} | {r['pattern']} | {'float' if r['weighted'] else 'unit'} "
            f"| {r['contender']} | {r['seconds']:.1f} | {r['ratio']:.2f} "
            f"| {r['tree_rss'] / 1e6:.0f} | {r['load']:.2f} |"
        )
    lines += ["", "## Checks", ""]
    for c in checks:
        head = f"{c['n']:.0e} {c['pattern']} {'float' if c['weighted'] else 'unit'} weights"
        rest = ", ".join(f"{k}: {v}" for k, v in c.items() if k not in ("n", "pattern", "weighted"))
        lines.append(f"- {head}: {rest}")
    lines += ["", "## Load (uptime before each file and weighting)", ""]
    lines += [f"- `{u.strip()}`" for u in uptimes]
    REPORT.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
