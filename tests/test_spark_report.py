"""The committed Spark benchmark report was written by the current benchmark script."""

from __future__ import annotations

from report_staleness import assert_report_current


def test_spark_benchmark_report_is_current():
    assert_report_current("benchmarks/bench_spark.py", "reports/benchmarks_spark.md")
