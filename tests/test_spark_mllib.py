"""Spark MLlib's mechanisms on hand-computed fractions (through the conformance adapter)."""

from __future__ import annotations

import shutil

import pytest

pytest.importorskip("pyspark", reason="needs pyspark: pip install 'prtheory[spark]' (and Java 17+)")
if shutil.which("java") is None:
    pytest.skip(
        "needs Java 17+ for pyspark: e.g. apt-get install openjdk-17-jre-headless",
        allow_module_level=True,
    )

from prtheory.conformance.adapters import spark_adapter as spark


def test_area_under_pr_starts_at_the_first_operating_point():
    # curve points (recall, precision): (0, 0) [s>=2: one negative], (1, 1/2) [s>=1]
    # trapezoid from (0, 0): (0 + 1/2)/2 * 1 = 1/4, where AP = 1/2
    assert spark.area_under_pr([0, 1], [2, 1], num_bins=0) == 0.25
    assert spark.metrics_area_under_pr([0, 1], [2, 1]) == 0.25


def test_zero_weight_top_item_gives_the_empty_classifier_precision_one():
    # s>=3 holds only zero weight: Spark uses precision 1 at recall 0, then (1, 1/2) at s>=2:
    # (1 + 1/2)/2 * 1 = 3/4
    assert spark.area_under_pr([0, 1, 0], [3, 2, 2], [0, 1, 1], num_bins=0) == 0.75


def test_ranking_metrics_counts_a_repeated_id_twice():
    # ranks 1 and 2 both hit the one relevant id: (1/1 + 2/2) / 1 = 2
    m = spark.ranking([1, 1, 2], [1])
    assert m.meanAveragePrecision == 2.0
    # P@2 = 2/2 for the same reason; P@3 = 2/3
    assert m.precisionAt(2) == 1.0
    assert m.precisionAt(3) == 2 / 3
