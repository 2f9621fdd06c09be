"""Spark MLlib's mechanisms on hand-computed fractions (through the conformance adapter).

Skipped (with how to install) where pyspark or Java is missing (the ``spark_session`` fixture,
whose session the adapter reuses).
"""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from prtheory import oracle
from prtheory.conformance.adapters import spark_adapter as spark
from prtheory.conformance.spark_models import spark_bins

#: Spark runs in a JVM (per-job latency, not CPU, sets these tests' time): the heavy tier
pytestmark = pytest.mark.heavy


@pytest.fixture(autouse=True)
def _session(spark_session):
    return spark_session


def test_area_under_pr_starts_at_the_first_operating_point():
    # curve points (recall, precision): (0, 0) [s>=2: one negative], (1, 1/2) [s>=1]
    # trapezoid from (0, 0): (0 + 1/2)/2 * 1 = 1/4, where AP = 1/2
    assert spark.area_under_pr([0, 1], [2, 1], num_bins=0) == 0.25
    assert spark.metrics_area_under_pr([0, 1], [2, 1]) == 0.25


def test_zero_weight_top_item_gives_the_empty_classifier_precision_one():
    # s>=3 holds only zero weight: Spark uses precision 1 at recall 0, then (1, 1/2) at s>=2:
    # (1 + 1/2)/2 * 1 = 3/4, the oracle's first_point="mllib"
    assert spark.area_under_pr([0, 1, 0], [3, 2, 2], [0, 1, 1], num_bins=0) == 0.75
    want = oracle.pr_auc([0, 1, 0], [3, 2, 2], [0, 1, 1], method="trapezoid", first_point="mllib")
    assert want == Fraction(3, 4)


def test_labels_above_one_half_are_positive_and_nan_ranks_first():
    # label 2 counts as positive: y=[2, 0], s=[2, 1] is the perfect ranking, area 1
    assert spark.area_under_pr([2, 0], [2, 1], num_bins=0) == 1.0
    # NaN ranks first: y=[0, 1], s=[nan, 1] is y=[0, 1], s=[2, 1]: 1/4 (first test)
    assert spark.area_under_pr([0, 1], [float("nan"), 1], num_bins=0) == 0.25


def test_binning_merges_runs_of_distinct_scores_from_two_thousand_on():
    # MLlib sums the trapezoids in float64 in an order that varies from run to run (the
    # issue saw four values in five runs): its values are compared with the exact area
    # within 64 ulps (about 2000 additions of terms below 1, each rounding by half an ulp of
    # the partial sum, mostly cancelling; 64 leaves a margin).
    def close(got, exact):
        return abs(got - oracle.to_float(exact)) <= 64 * np.spacing(got)

    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 1999)
    s = np.arange(1999.0)[::-1] + 0.5  # 1999 distinct scores: 1999 // 1000 = 1 < 2, no bins
    exact = oracle.pr_auc(y, s, method="trapezoid", first_point="spark")
    assert close(spark.area_under_pr(y, s), exact)
    assert close(spark.area_under_pr(y, s, num_bins=0), exact)
    y = rng.integers(0, 2, 400)
    s = rng.permutation(400).astype(float)  # 400 distinct scores, 50 bins: runs of g = 8
    binned = spark.area_under_pr(y, s, num_bins=50)
    assert binned != spark.area_under_pr(y, s, num_bins=0)

    # The sorted distinct scores sit in the session's partitions (their boundary comes from
    # Spark's sampling); each partition is cut into runs of 8 from its start. Some boundary
    # must reproduce MLlib's value from the exact trapezoid of the binned scores (float
    # summation in MLlib: within 64 ulps of the exact area).
    def area(starts):
        b = spark_bins(s, 50, starts)
        return oracle.to_float(oracle.pr_auc(y, b, method="trapezoid", first_point="spark"))

    candidates = [(0,)] + [(0, c) for c in range(1, 400)]
    tolerance = 64 * np.spacing(binned)
    assert any(abs(area(c) - binned) <= tolerance for c in candidates)


def test_spark_bins_by_hand():
    # 6 distinct scores, num_bins 3: g = 2; runs {9, 8} -> 8, {7, 6} -> 6, {5, 4} -> 4
    s = [9, 8, 7, 6, 5, 4, 9]
    assert spark_bins(s, 3).tolist() == [8, 8, 6, 6, 4, 4, 8]
    # two partitions starting at 0 and 3: {9, 8} -> 8, {7} -> 7, then {6, 5} -> 5, {4} -> 4
    assert spark_bins(s, 3, (0, 3)).tolist() == [8, 8, 7, 5, 5, 4, 8]


def test_ranking_metrics_counts_a_repeated_id_twice():
    # ranks 1 and 2 both hit the one relevant id: (1/1 + 2/2) / 1 = 2
    m = spark.ranking([1, 1, 2], [1])
    assert m.meanAveragePrecision == 2.0
    # P@2 = 2/2 for the same reason; P@3 = 2/3
    assert m.precisionAt(2) == 1.0
    assert m.precisionAt(3) == 2 / 3


def test_the_adapter_hands_spark_every_double_exactly():
    # the frames go through a CSV file: 17 significant digits and Spark's spellings of the
    # non-finite values must give back the same bits (checked on the bit patterns)
    rng = np.random.default_rng(7)
    s = np.concatenate(
        [rng.random(50) * 10.0 ** rng.integers(-300, 300, 50), [0.1, -0.0, 5e-324, np.inf, -np.inf]]
    )
    s = np.append(s, np.nan)
    w = rng.random(s.size) * 1e-200
    y = rng.integers(0, 2, s.size)
    rows = spark._frame(y, s, w).collect()
    got = np.array([[r.label, r.score, r.weight] for r in rows])
    assert got[:, 0].tolist() == y.astype(float).tolist()
    assert got[:, 1].view(np.uint64).tolist() == s.view(np.uint64).tolist()
    assert got[:, 2].view(np.uint64).tolist() == w.view(np.uint64).tolist()


#: the drawn input of the differential test on which MLlib's default binning was first seen
DRAWN = (20300, "distinct", 3162)


@pytest.fixture(scope="module")
def own_session():
    """One fresh interpreter with the adapter's own session (one core, one partition, its own
    JVM, as in ``prtheory conformance``): it keeps a RankingMetrics object to exit with, and
    evaluates MLlib's default-binned area on two inputs. Its stdout lines and stderr."""
    code = (
        "import os, sys\n"
        "import numpy as np\n"
        "from prtheory.conformance.adapters import spark_adapter as s\n"
        "from prtheory.conformance.cputime import descendants\n"
        "from prtheory.conformance.sampling import FAMILIES, sample\n"
        "sys.prtheory_adapter = s\n"
        "print('MAP', s.ranking([1, 2], [1]).meanAveragePrecision)\n"
        "print('ALTERNATING', repr(s.area_under_pr(np.tile([1, 0], 1000), np.arange(2000.0, 0, -1))))\n"
        f"seed, family, n = {DRAWN!r}\n"
        "x = sample(seed, next(f for f in FAMILIES if f.name == family), n)\n"
        "print('DRAWN', repr(s.area_under_pr(x.y_true, x.y_score)))\n"
        "for pid in descendants(os.getpid()):\n"
        "    try:\n"
        "        print('CMD', open(f'/proc/{pid}/cmdline', 'rb').read().replace(b'\\0', b' ').decode())\n"
        "    except OSError:\n"
        "        pass\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    return run.stdout.splitlines(), run.stderr


def _printed(lines, tag):
    """What follows ``tag`` and a space on each line that starts so (possibly nothing: a
    process that has exited keeps an empty command line)."""
    return [line[len(tag) + 1 :] for line in lines if line.startswith(tag + " ")]


def test_kept_ranking_metrics_leave_no_error_at_interpreter_exit(own_session):
    # RankingMetrics objects are kept for reuse; released only at interpreter shutdown, their
    # __del__ ran after py4j's globals were gone ("Exception ignored ... TypeError"). A fresh
    # interpreter (its own JVM) keeps one and exits. Held from ``sys``, the adapter module stays
    # alive until shutdown clears the globals of the modules left, the last imported (py4j's)
    # first, as under pytest. MAP of [1, 2] with truth {1} is 1. Its Python worker ran from
    # the adapter's daemon (which waits for its workers, so that their CPU time is counted).
    lines, stderr = own_session
    assert [float(v) for v in _printed(lines, "MAP")] == [1.0]
    commands = _printed(lines, "CMD")
    assert any(f"-m {spark.DAEMON_MODULE}" in c for c in commands), commands
    assert "Exception ignored" not in stderr, stderr


def test_default_binning_is_the_mechanism_in_the_kits_session(own_session):
    """MLlib's default ``numBins=1000`` in the kit's one-partition session. By hand: 2000
    distinct scores, labels 1, 0, 1, 0, ...: runs of 2000 // 1000 = 2, each one positive and one
    negative, so every point has precision 1/2 and the area from (0, 1/2) is exactly 1/2
    (unbinned, the precisions k/(2k - 1) and 1/2 alternate: another area). On the drawn input
    where the differential test first saw the binning, MLlib's value is the mechanism's
    prediction to the float summation of 3162 terms (8 + 2n ulps, the differential test's bound)
    and differs from the exact area by far more."""
    from prtheory.conformance.external_mechanisms import for_metric
    from prtheory.conformance.metrics import Inputs
    from prtheory.conformance.sampling import FAMILIES, sample
    from prtheory.conformance.vectors_io import Vector

    lines, _ = own_session
    mechanism = next(
        m for m in for_metric("auc_trapezoid") if m.name == "binned(numBins=1000)+first-point=spark"
    )

    def predicted(x):
        return mechanism.predict(Vector("auc_trapezoid", 1, "", (), x, "valid", None, {}, None))

    y, s = np.tile([1, 0], 1000), np.arange(2000.0, 0, -1)
    assert predicted(Inputs(y, s)).exact == Fraction(1, 2)
    assert oracle.pr_auc(y, s, method="trapezoid", first_point="spark") != Fraction(1, 2)
    got = float(_printed(lines, "ALTERNATING")[0])
    assert abs(got - 0.5) <= (8 + 2 * 2000) * np.spacing(0.5)
    seed, family, n = DRAWN
    x = sample(seed, next(f for f in FAMILIES if f.name == family), n)
    drawn = Inputs(x.y_true, x.y_score)
    want = predicted(drawn).float64
    bound = (8 + 2 * n) * np.spacing(want)
    assert abs(float(_printed(lines, "DRAWN")[0]) - want) <= bound
    exact = oracle.to_float(
        oracle.pr_auc(x.y_true, x.y_score, method="trapezoid", first_point="spark")
    )
    assert abs(exact - want) > 1000 * bound
