"""prtheory.spark through Spark Connect (the client has no SparkContext, no JVM and no RDD API):
every public function (AP, ROC AUC, both PR areas, P@k, R-precision, per-group MAP), and the
reduction of a large exact sum in the workers.

The Connect session runs in a subprocess (a local Connect server, ``remote("local[2]")``), apart
from the classic session the other Spark tests share; it prints exact values as hexadecimal
fractions, which are compared here with the single-machine oracle. Skipped, saying what to
install, where pyspark, Java or the Connect client's packages are missing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from prtheory import oracle
from prtheory.distributed import decode_fraction

CLIENT = textwrap.dedent(
    """
    import json, sys
    from pyspark.sql import SparkSession
    from prtheory import spark as ps
    from prtheory.distributed import encode_fraction

    rows = json.loads(sys.stdin.read())
    session = SparkSession.builder.remote("local[2]").getOrCreate()
    df = session.createDataFrame(rows, ["qid", "label", "score", "weight"])
    table, mean = ps.per_group(df, "qid")
    out = {
        "session": type(session).__module__,
        "ap": encode_fraction(ps.average_precision(df, exact=True)),
        "ap_weighted": encode_fraction(
            ps.average_precision(df, weight_col="weight", exact=True, partitions=3)
        ),
        "ap_float": ps.average_precision(df, weight_col="weight"),
        "roc": encode_fraction(ps.roc_auc(df, exact=True, partitions=2)),
        "davis_goadrich": ps.pr_auc(  # caches its blocks for the call
            df, weight_col="weight", method="davis-goadrich", first_point="none", partitions=3
        ),
        "trapezoid": encode_fraction(
            ps.pr_auc(df, method="trapezoid", first_point="mllib", exact=True)
        ),
        "p_at_k": encode_fraction(ps.precision_at_k(df, 7, exact=True)),
        "r_precision": encode_fraction(ps.r_precision(df, exact=True)),
        "per_group": {str(r["qid"]): r["exact"] for r in table.collect()},
        "map": mean,
    }
    # an exact sum reduced in the workers (Pieces.spread), as large ones are
    from prtheory.distributed import sums
    from prtheory.spark import blocks

    # each place equal scores can be summed: the rows in the workers, each input partition
    # first (combine_rows, a mapInArrow before the shuffle), Spark's aggregation
    inf = float("inf")
    out["paths"] = {}
    for path, raw_max, combine_min in (
        ("raw", inf, inf), ("combined", inf, -inf), ("aggregated", -inf, inf)
    ):
        blocks.RAW_MAX_TIES, blocks.COMBINE_MIN_TIES = raw_max, combine_min
        with blocks.pieces(df, "label", "score", None, 2) as p:
            took = p.path
        ap = ps.average_precision(df, exact=True, partitions=2)
        out["paths"][path] = [took, encode_fraction(ap)]

    spread, spreads = blocks.Pieces.spread, []

    def spy(self, fn, items):
        spreads.append(len(items))
        return spread(self, fn, items)

    blocks.Pieces.spread, sums.SPREAD_MIN_BITS = spy, 0
    out["ap_spread"] = encode_fraction(
        ps.average_precision(df, weight_col="weight", exact=True, partitions=3)
    )
    out["spreads"] = spreads
    table.unpersist()
    session.stop()
    print(json.dumps(out))
    """
)


@pytest.mark.slow  # starts a Spark Connect server (about 45 s); the local session's tests cover the metrics
def test_metrics_through_spark_connect(tmp_path):
    pytest.importorskip("pyspark", reason="needs pyspark: pip install -e '.[spark]' (Java 17+)")
    for module in ("grpc", "grpc_status", "google.rpc", "zstandard"):
        pytest.importorskip(module, reason="Spark Connect's client: pip install 'pyspark[connect]'")
    if shutil.which("java") is None:
        pytest.skip("needs Java 17+ for pyspark: e.g. apt-get install openjdk-17-jre-headless")
    rng = np.random.default_rng(21)
    n = 400
    qid = rng.integers(0, 12, n)
    y = rng.integers(0, 2, n)
    y[rng.choice(n, 12, replace=False)] = 1
    for q in range(12):  # every query has a positive
        y[np.flatnonzero(qid == q)[0]] = 1
    s = rng.integers(0, 40, n) / 8  # ties
    w = rng.random(n)
    rows = [[int(a), int(b), float(c), float(d)] for a, b, c, d in zip(qid, y, s, w, strict=True)]
    # SPARK_TESTING: the local Connect server binds an ephemeral port and the client asks it
    # which (pyspark's own provision for parallel test runs, SPARK-42272); on the fixed default,
    # 15002, two test runs at once on one machine collided
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, SPARK_TESTING="1")
    done = subprocess.run(
        [sys.executable, "-c", CLIENT],
        input=json.dumps(rows),
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["session"].startswith("pyspark.sql.connect")  # not a classic session
    assert decode_fraction(got["ap"]) == oracle.average_precision(y, s)
    assert sorted(got["paths"]) == ["aggregated", "combined", "raw"]
    for path, (took, ap) in got["paths"].items():
        assert took == path
        assert decode_fraction(ap) == oracle.average_precision(y, s), path
    weighted = oracle.average_precision(y, s, w)
    assert decode_fraction(got["ap_weighted"]) == weighted
    assert got["ap_float"] == oracle.to_float(weighted)
    assert decode_fraction(got["ap_spread"]) == weighted
    assert len(got["spreads"]) == 1
    assert got["spreads"][0] >= 2
    assert decode_fraction(got["roc"]) == oracle.roc_auc(y, s)
    dg = {"method": "davis-goadrich", "first_point": "none"}
    assert got["davis_goadrich"] == oracle.rounded(oracle.pr_auc, y, s, w, **dg)
    trapezoid = oracle.pr_auc(y, s, method="trapezoid", first_point="mllib")
    assert decode_fraction(got["trapezoid"]) == trapezoid
    assert decode_fraction(got["p_at_k"]) == oracle.precision_at_k(y, s, 7)
    assert decode_fraction(got["r_precision"]) == oracle.r_precision(y, s)
    per_query = {str(q): oracle.average_precision(y[qid == q], s[qid == q]) for q in range(12)}
    assert {q: decode_fraction(v) for q, v in got["per_group"].items()} == per_query
    assert got["map"] == oracle.to_float(sum(per_query.values()) / 12)
