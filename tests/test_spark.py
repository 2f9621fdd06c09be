"""prtheory.spark against the single-machine oracle, in one local Spark session.

Skipped (with how to install) where pyspark or Java is missing (the ``spark_session`` fixture).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from prtheory import oracle
from prtheory._testing.frames import (
    GROUPED_CALLS,
    HOSTILE,
    HostileFrame,
    grouped_queries,
    oracle_float,
    oracle_value,
)
from prtheory.errors import InvalidInputError, UndefinedMetricError

#: Spark runs in a JVM (per-job latency, not CPU, sets these tests' time): the heavy tier
pytestmark = pytest.mark.heavy


@pytest.fixture(scope="module")
def spark(spark_session):
    from prtheory import spark as pspark

    return pspark


@pytest.fixture(params=["aggregated", "raw", "combined"])
def blocks_path(request, monkeypatch):
    """Force where equal scores are summed (Spark's aggregation, the workers on raw rows, or
    each input partition and then the workers; float weights are never combined, they go raw
    then), and check afterwards that every Pieces built took that path."""
    from prtheory.spark import ap, areas, blocks

    path = request.param
    monkeypatch.setattr(blocks, "RAW_MAX_TIES", float("-inf" if path == "aggregated" else "inf"))
    monkeypatch.setattr(blocks, "COMBINE_MIN_TIES", float("-inf" if path == "combined" else "inf"))
    taken = []

    def spy(*args, **kwargs):
        p = blocks.pieces(*args, **kwargs)
        taken.append((p.weighted, p.path))
        return p

    for module in (ap, areas):
        monkeypatch.setattr(module, "pieces", spy)
    yield path
    assert taken
    for weighted, took in taken:
        assert took == ("raw" if path == "combined" and weighted else path)


def _frame(session, y, s, w=None, slices=2):
    cols = [y, s] if w is None else [y, s, w]
    rows = [tuple(float(c[i]) for c in cols) for i in range(len(y))]
    names = ["label", "score"] if w is None else ["label", "score", "weight"]
    return session.createDataFrame(rows, names).repartition(slices)


def _random_case(rng, n, weighted, zero_top=False):
    y = rng.integers(0, 2, n)
    y[0] = 1
    y[-1] = 0
    s = rng.integers(0, max(2, n // 3), n).astype(float) / 4  # many ties
    w = None
    if weighted:
        # dyadic and non-dyadic floats, integers, zeros, a subnormal and a huge weight
        w = rng.choice([0.0, 0.1, 0.5, 1.0, 3.0, 2.0**-40, 1e-3, 7.25, 5e-324, 2.0**900], n)
        w[0] = w[-1] = 1.0
        if zero_top:
            s[1], w[1] = s.max() + 1, 0.0
    return y, s, w


@pytest.mark.parametrize(
    ("blocks_path", "weighted"),
    [
        ("aggregated", False),
        ("combined", False),
        ("raw", True),
        # each path once in the default tier (float weights are never combined: raw); the
        # other combinations in the slow tier
        pytest.param("raw", False, marks=pytest.mark.slow),
        pytest.param("aggregated", True, marks=pytest.mark.slow),
        pytest.param("combined", True, marks=pytest.mark.slow),
    ],
    indirect=["blocks_path"],
)
def test_ap_and_areas_equal_the_oracle_exactly(spark_session, spark, weighted, blocks_path):
    rng = np.random.default_rng(7 + weighted)
    first_points = ("none", "sklearn", "spark", "mllib")
    for i, (n, parts) in enumerate([(2, 1), (61, 2), (200, 7)]):
        y, s, w = _random_case(rng, n, weighted, zero_top=weighted and n > 2)
        df = _frame(spark_session, y, s, w)
        wc = None if w is None else "weight"
        ap = oracle.average_precision(y, s, w)
        assert spark.average_precision(df, weight_col=wc, exact=True, partitions=parts) == ap
        assert spark.average_precision(df, weight_col=wc, partitions=parts) == oracle.to_float(ap)
        roc = oracle.roc_auc(y, s, w)
        assert spark.roc_auc(df, weight_col=wc, exact=True, partitions=parts) == roc
        for fp in first_points if n == 200 else first_points[i : i + 1]:
            want = oracle.pr_auc(y, s, w, method="trapezoid", first_point=fp)
            got = spark.pr_auc(
                df, weight_col=wc, method="trapezoid", first_point=fp, exact=True,
                partitions=parts,
            )  # fmt: skip
            assert got == want, (n, parts, fp)


def _hostile_frame(session, case: HostileFrame):
    """The case as a DataFrame of ``case.slices`` input partitions (some empty when there are
    more than rows), under the case's column names (integer weights as LONG)."""
    from pyspark.sql import types as T

    label, score, weight = case.names
    fields = [T.StructField(label, T.LongType()), T.StructField(score, T.DoubleType())]
    if case.w is not None:
        kind = T.LongType() if case.w.dtype.kind == "i" else T.DoubleType()
        fields.append(T.StructField(weight, kind))
    kinds = [int, float] + ([] if case.w is None else [int if case.w.dtype.kind == "i" else float])
    rows = [tuple(kind(v) for kind, v in zip(kinds, r, strict=True)) for r in case.rows()]
    return session.createDataFrame(rows, T.StructType(fields)).repartition(case.slices)


@pytest.mark.parametrize(
    "full", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["core", "every-call"]
)
@pytest.mark.parametrize(
    "case",
    [pytest.param(c, marks=pytest.mark.slow) if c.y.size > 10_000 else c for c in HOSTILE],
    ids=lambda c: c.name,
)
def test_hostile_frames_equal_the_oracle(spark_session, spark, case, full):
    # the cases of tests/test_duckdb.py (prtheory._testing.frames), each call on a piece count
    # of the case in turn: every exact value the oracle's, every float its correct rounding.
    # Each call is a few Spark jobs: the default tier runs one call of each function, the
    # slow tier every call tests/test_duckdb.py runs, and the cases past 10^4 rows (the
    # default tier meets those through DuckDB, on the same exact core)
    df = _hostile_frame(spark_session, case)
    label, score, weight = case.names
    for i, (name, opts) in enumerate(case.calls() if full else case.core_calls()):
        want = oracle_value(case, (name, opts))
        kw = dict(
            opts, label_col=label, score_col=score, partitions=case.pieces[i % len(case.pieces)]
        )
        if case.weighted:
            kw["weight_col"] = weight
        fn = getattr(spark, name)
        args = (df, kw.pop("k")) if name == "precision_at_k" else (df,)
        if want is UndefinedMetricError:
            with pytest.raises(UndefinedMetricError):
                fn(*args, **kw, exact=True)
            continue
        assert fn(*args, **kw, exact=True) == want, (name, opts)
        if i % 3 == 0:  # the floats of a third of the calls (each a Spark job)
            assert fn(*args, **kw) == oracle_float(case, (name, opts), want), (name, opts)


def test_each_piece_gets_a_partition_of_its_own(spark_session):
    from prtheory.spark import blocks

    F = blocks.functions()
    for count in (1, 2, 3, 8, 13):
        labels = blocks.partition_labels(spark_session, count)
        df = spark_session.createDataFrame([(v,) for v in labels], "piece int")
        rows = df.repartition(count, "piece").select("piece", F.spark_partition_id()).collect()
        assert sorted((labels.index(r[0]), r[1]) for r in rows) == [(i, i) for i in range(count)]


@pytest.mark.parametrize("weighted", [False, True])
def test_values_do_not_depend_on_where_the_pieces_land(
    spark_session, spark, weighted, monkeypatch, blocks_path
):
    # consecutive labels collide under Spark's hash partitioning: several pieces per partition,
    # empty partitions; the workers must still split the pieces and add them in order
    from prtheory.spark import blocks

    monkeypatch.setattr(blocks, "partition_labels", lambda session, count: list(range(count)))
    rng = np.random.default_rng(11)
    y, s, w = _random_case(rng, 150, weighted, zero_top=weighted)
    df = _frame(spark_session, y, s, w, slices=3)
    wc = None if w is None else "weight"
    ap = oracle.average_precision(y, s, w)
    for parts in (2, 5, 9):
        assert spark.average_precision(df, weight_col=wc, exact=True, partitions=parts) == ap
    want = oracle.pr_auc(y, s, w, method="trapezoid", first_point="mllib")
    got = spark.pr_auc(
        df, weight_col=wc, method="trapezoid", first_point="mllib", exact=True, partitions=9
    )
    assert got == want


def test_a_large_exact_sum_is_reduced_in_the_workers(spark_session, spark, monkeypatch):
    # SPREAD_MIN_BITS at 0 sends every exact sum's reduction to the workers (Pieces.spread);
    # the values must not change, and the spread must really have run as a Spark job
    from prtheory.distributed import sums
    from prtheory.spark import blocks

    monkeypatch.setattr(sums, "SPREAD_MIN_BITS", 0)
    spread, jobs = blocks.Pieces.spread, []

    def spy(self, fn, items):
        before = spark_session.sparkContext.statusTracker().getJobIdsForGroup()
        out = spread(self, fn, items)
        after = spark_session.sparkContext.statusTracker().getJobIdsForGroup()
        jobs.append((len(items), len(set(after) - set(before))))
        return out

    monkeypatch.setattr(blocks.Pieces, "spread", spy)
    rng = np.random.default_rng(23)
    y, s, w = _random_case(rng, 300, True)
    df = _frame(spark_session, y, s, w, slices=3)
    assert spark.average_precision(df, weight_col="weight", exact=True, partitions=5) == (
        oracle.average_precision(y, s, w)
    )
    want = oracle.pr_auc(y, s, w, method="trapezoid", first_point="sklearn")
    got = spark.pr_auc(
        df, weight_col="weight", method="trapezoid", first_point="sklearn", exact=True,
        partitions=4,
    )  # fmt: skip
    assert got == want
    # ROC AUC's terms are integers: nothing to reduce, no job
    assert spark.roc_auc(df, weight_col="weight", exact=True) == oracle.roc_auc(y, s, w)
    assert len(jobs) == 2
    assert all(items >= 2 and ran == 1 for items, ran in jobs), jobs


def test_spread_returns_every_result_in_order(spark_session):
    from prtheory.spark import blocks

    p = blocks.pieces(_frame(spark_session, [0, 1], [1.0, 2.0]), "label", "score", None, 1)
    items = list(range(7))
    assert p.spread(lambda v: 2**v + 1, items) == [2**v + 1 for v in items]
    assert p.spread(lambda v: v, []) == []


def test_davis_goadrich_is_the_oracles_value_and_rounded_correctly(
    spark_session, spark, blocks_path
):
    rng = np.random.default_rng(4)
    y, s, w = _random_case(rng, 80, True)
    df = _frame(spark_session, y, s, w)
    for fp in ("none", "spark"):
        want = oracle.pr_auc(y, s, w, method="davis-goadrich", first_point=fp)
        for parts in (1, 5):
            kw = {"weight_col": "weight", "method": "davis-goadrich", "first_point": fp}
            assert spark.pr_auc(df, **kw, exact=True, partitions=parts) == want
        rounded = oracle.rounded(oracle.pr_auc, y, s, w, method="davis-goadrich", first_point=fp)
        assert spark.pr_auc(df, **kw, partitions=3) == rounded


@pytest.mark.parametrize("ties", ["expected", "optimistic", "pessimistic"])
def test_precision_at_k_and_r_precision_equal_the_oracle(spark_session, spark, ties):
    rng = np.random.default_rng(8)
    y, s, _ = _random_case(rng, 90, False)
    df = _frame(spark_session, y, s)
    for k, parts in [(1, 1), (10, 2), (45, 7), (100, 3)]:
        want = oracle.precision_at_k(y, s, k, ties=ties)
        assert spark.precision_at_k(df, k, ties=ties, exact=True, partitions=parts) == want
    want = oracle.r_precision(y, s, ties=ties)
    assert spark.r_precision(df, ties=ties, exact=True, partitions=5) == want


def test_hand_computed_values(spark_session, spark):
    # y=[0,1], s=[2,1]: the positive is at rank 2, AP = 1/2
    df = _frame(spark_session, [0, 1], [2, 1])
    assert spark.average_precision(df, exact=True) == Fraction(1, 2)
    # all tied: one operating point, precision 2/3 at recall 1
    df = _frame(spark_session, [1, 0, 1], [5, 5, 5])
    assert spark.average_precision(df, exact=True) == Fraction(2, 3)
    # weights 0.1 (not a dyadic decimal) taken at their exact binary value:
    # y=[1,0,1], s=[3,2,1], w=[0.1,0.1,0.2]: AP = (0.1 * 1 + 0.2 * (0.3/0.4)) / 0.3, exact floats
    a, b = Fraction(0.1), Fraction(0.2)
    expected = (a * 1 + b * ((a + b) / (a + a + b))) / (a + b)
    df = _frame(spark_session, [1, 0, 1], [3, 2, 1], [0.1, 0.1, 0.2])
    assert spark.average_precision(df, weight_col="weight", exact=True) == expected
    # ±inf scores are ordinary extreme scores: precision 1/2 then 2/3
    df = _frame(spark_session, [0, 1, 1], [float("inf"), 0.0, float("-inf")])
    assert spark.average_precision(df, exact=True) == (Fraction(1, 2) + Fraction(2, 3)) / 2
    # MLlib's empty classifier (conventions.py): y=[0,1,0], s=[3,2,2], w=[0,1,1] gives
    # (1 + 1/2)/2 = 3/4 from (0, 1); first_point="spark" starts at (0, 1/2): 1/2
    df = _frame(spark_session, [0, 1, 0], [3, 2, 2], [0, 1, 1])
    kw = {"weight_col": "weight", "method": "trapezoid", "exact": True}
    assert spark.pr_auc(df, **kw, first_point="mllib") == Fraction(3, 4)
    assert spark.pr_auc(df, **kw, first_point="spark") == Fraction(1, 2)
    # ROC: y=[1,0,1,0], s=[4,3,3,1]: pairs (pos, neg) won 1+1+1/2+1 of 4 -> 7/8
    df = _frame(spark_session, [1, 0, 1, 0], [4, 3, 3, 1])
    assert spark.roc_auc(df, exact=True) == Fraction(7, 8)
    # P@2 with the cutoff inside the tied block {3, 3} (one positive of two): 1 + 1/2 over 2
    assert spark.precision_at_k(df, 2, exact=True) == Fraction(3, 4)
    # integer weights are exact (here 2**62 + 1, beyond float64's 53 bits): AP = 1 (positive
    # on top), and the negative's weight enters only through N
    df = spark_session.createDataFrame([(1, 2.0, 2**62 + 1), (0, 1.0, 3)], ["label", "score", "w"])
    assert spark.average_precision(df, weight_col="w", exact=True) == 1
    df = spark_session.createDataFrame([(0, 2.0, 2**62 + 1), (1, 1.0, 3)], ["label", "score", "w"])
    assert spark.average_precision(df, weight_col="w", exact=True) == Fraction(3, 2**62 + 4)


def test_tie_multiplicity_estimate_and_the_path_it_chooses(spark_session):
    from prtheory.spark import blocks

    # sample [1, 1, 2, 3] of 10 rows: one equal pair of C(4, 2) = 6, so 1 + 9 * 1/6
    assert blocks.tie_multiplicity(np.array([1.0, 1.0, 2.0, 3.0]), 10) == 1 + 9 / 6
    assert blocks.tie_multiplicity(np.array([1.0, 2.0, 3.0]), 10**9) == 1.0
    assert blocks.tie_multiplicity(np.array([5.0]), 10) == 1.0
    # the whole frame as the sample: exact. 4 scores of 30 rows each: every row shares its
    # score with 30 rows; 1 + 119 * (4 * C(30, 2)) / C(120, 2) = 30
    scores = np.repeat([1.0, 2.0, 3.0, 4.0], 30)
    assert blocks.tie_multiplicity(scores, 120) == pytest.approx(30, rel=1e-12)
    # within an input partition of half the rows: 1 + (30 - 1) / 2 = 15.5
    assert blocks.local_multiplicity(30.0, 0.5) == 15.5
    assert blocks.local_multiplicity(1.0, 0.5) == 1.0
    # the whole tied frame is sampled: 30 rows per score; its two input partitions (round
    # robin) hold 60 rows each, 15.5 >= COMBINE_MIN_TIES: unit weights are combined in the
    # input partitions, float weights summed by Spark (30 > RAW_MAX_TIES); untied: raw rows
    tied = _frame(spark_session, np.arange(120) % 2, scores)
    untied = _frame(spark_session, np.arange(120) % 2, np.arange(120.0))
    for frame, paths in ((tied, ("combined", "aggregated")), (untied, ("raw", "raw"))):
        for weight, path in zip((None, "weight"), paths, strict=True):
            if weight:
                frame = frame.withColumn("weight", frame["score"] / 7)
            with blocks.pieces(frame, "label", "score", weight, 3) as p:
                assert p.path == path


def test_default_pieces_follow_cores_and_rows():
    from prtheory.spark import blocks

    # 4 per core, at least 2**19 rows each, at most 2**22 rows each, at least 1 (by hand)
    assert blocks.default_pieces(0, 2) == 1
    assert blocks.default_pieces(20_000, 2) == 1
    assert blocks.default_pieces(2**19 + 1, 2) == 2
    assert blocks.default_pieces(10**6, 2) == 2  # ceil(1.91)
    assert blocks.default_pieces(3 * 10**6, 2) == 6  # ceil(5.72)
    assert blocks.default_pieces(5 * 10**6, 2) == 8  # ceil(9.54), but 4 x 2 cores
    assert blocks.default_pieces(10**7, 2) == 8
    assert blocks.default_pieces(10**7, 400) == 20  # ceil(10**7 / 2**19)
    assert blocks.default_pieces(10**8, 2) == 24  # ceil(10**8 / 2**22) beats 4 x 2


def test_split_points_are_the_quantiles_of_the_samples_cost():
    # the j-th split point is the least sampled x whose sampled scores <= x cost at least
    # j / P of the whole: by hand, and against that definition applied one x at a time
    from prtheory.spark import blocks

    ten = np.arange(1.0, 11.0)
    assert blocks.split_points(ten, 1) == []
    assert blocks.split_points(ten, 2) == [5.0]  # 5 of 10 rows at or below 5
    assert blocks.split_points(ten, 3) == [7.0, 4.0]  # 4 >= 10/3, 7 >= 20/3
    # the two highest scores cost 9 each: 8 + 18 = 26, half is 13, first reached at 9 (17)
    costs = np.array([1] * 8 + [9, 9])
    assert blocks.split_points(ten, 2, costs) == [9.0]
    # NaN-free but infinite scores take no split point, and drop their costs with them
    assert blocks.split_points(
        np.array([-np.inf, 1.0, 2.0, np.inf]), 2, np.array([50, 1, 1, 50])
    ) == [1.0]

    rng = np.random.default_rng(11)
    for _ in range(200):
        n = int(rng.integers(1, 40))
        sample = rng.integers(0, 12, n).astype(float)
        weight = rng.choice([1, 1, 9], n)
        parts = int(rng.integers(2, 7))
        total = int(weight.sum())
        want = set()
        for j in range(1, parts):
            want.add(min(x for x in sample if parts * int(weight[sample <= x].sum()) >= j * total))
        assert blocks.split_points(sample, parts, weight) == sorted(want, reverse=True)
        ones = blocks.split_points(sample, parts)
        assert ones == blocks.split_points(sample, parts, np.ones(n, dtype=np.int64))


def test_an_exact_sum_of_float_weights_balances_the_positives(spark_session):
    # 4000 rows scored 0..3999, the top 400 positive: every row is sampled (4096), so the split
    # point of 2 pieces is exact. Counted by rows it is 1999 (2000 rows each side); for the
    # exact AP with float weights a positive costs EXACT_POSITIVE_COST = 4 rows, 3600 + 1600
    # in all, half (2600) reached at 2599: the top piece holds the 400 positives and 1001
    # negatives
    from prtheory.spark import blocks

    n = 4000
    s = np.arange(n, dtype=float)
    y = (s >= 3600).astype(float)
    assert blocks.EXACT_POSITIVE_COST == 4
    cases = [
        (_frame(spark_session, y, s, np.full(n, 0.5)), True, [2599.0]),
        (_frame(spark_session, y, s, np.full(n, 0.5)), False, [1999.0]),
        (_frame(spark_session, y, s), True, [1999.0]),  # unit weights: by rows
    ]
    integral = _frame(spark_session, y, s, np.full(n, 2.0))
    integral = integral.withColumn("weight", integral["weight"].cast("long"))
    cases.append((integral, True, [1999.0]))  # integer weights: by rows
    for frame, exact_sum, want in cases:
        weight = "weight" if "weight" in frame.columns else None
        with blocks.pieces(frame, "label", "score", weight, 2, exact_sum=exact_sum) as p:
            assert p.splits == want
    # a positive of zero weight has no term: it counts once
    zero = _frame(spark_session, y, s, np.where(y == 1, 0.0, 0.5) + (s == 3999) * 0.5)
    with blocks.pieces(zero, "label", "score", "weight", 2, exact_sum=True) as p:
        # 3999 rows cost 1, the one weighted positive 4: 4003 in all, half 2001.5, reached at
        # score 2001 (2002)
        assert p.splits == [2001.0]


def test_workers_find_the_pieces_and_count_the_blocks_from_the_scores():
    # no piece column reaches the workers: they split the scores at the split points with the
    # piece expression's comparisons, #{j : s < t_j}, computed here one score at a time
    from collections import Counter

    from prtheory.spark import blocks

    rng = np.random.default_rng(5)
    splits = [2.0, 0.5, -0.0, -3.0]
    pool = [np.inf, 5.0, 2.0, 1.0, 0.5, 0.25, 0.0, -1.0, -3.0, -7.0, -np.inf]
    assert blocks.piece_runs(np.zeros(0), splits) == []
    for _ in range(300):
        picked = rng.choice(pool, size=rng.integers(1, len(pool) + 1), replace=False)
        scores = np.sort(np.repeat(picked, rng.integers(1, 4, picked.size)))[::-1]
        piece = [sum(x < t for t in splits) for x in scores.tolist()]
        want = []
        for i, p in enumerate(piece):
            if want and want[-1][0] == p:
                want[-1][2] = i + 1
            else:
                want.append([p, i, i + 1])
        assert blocks.piece_runs(scores, splits) == [tuple(r) for r in want], scores
        assert blocks.piece_runs(scores, []) == [(0, 0, scores.size)]

        labels = rng.integers(0, 2, scores.size).astype(bool)
        if rng.random() < 0.2:
            labels[:] = rng.random() < 0.5  # one class only
        order = rng.permutation(scores.size)
        distinct, pos, neg = blocks.counted_blocks(scores[order], labels[order])
        count = Counter(zip(scores.tolist(), labels.tolist(), strict=True))
        keys = sorted(set(scores.tolist()), reverse=True)
        assert distinct.tolist() == keys
        assert pos.tolist() == [count[(v, True)] for v in keys]
        assert neg.tolist() == [count[(v, False)] for v in keys]


def test_input_partitions_count_their_own_ties_in_bounded_runs(monkeypatch):
    pa = pytest.importorskip("pyarrow")
    from collections import Counter

    from prtheory.spark import blocks

    monkeypatch.setattr(blocks, "COMBINE_CHUNK_ROWS", 7)
    rng = np.random.default_rng(9)
    s = rng.integers(0, 5, 40).astype(float)
    y = rng.integers(0, 2, 40).astype(np.int8)
    batches = [
        pa.RecordBatch.from_pydict({"s": s[i : i + 6], "y": y[i : i + 6]}) for i in range(0, 40, 6)
    ]
    taken = []

    def arriving():  # as Spark hands them over, one at a time
        for b in batches:
            taken.append(b)
            yield b

    runs = blocks.combine_rows(arriving())
    next(runs)
    assert len(taken) == 2  # the first run is out before the third batch is read
    out = list(blocks.combine_rows(iter(batches)))
    # batches of 6 rows gather until 7 or more: runs of 12, 12, 12 and the last 4 rows
    assert [int(b.column("p").to_numpy().sum() + b.column("n").to_numpy().sum()) for b in out] == [
        12,
        12,
        12,
        4,
    ]
    got: Counter = Counter()
    for start, b in zip((0, 12, 24, 36), out, strict=True):
        scores = b.column("s").to_numpy()
        assert scores.tolist() == sorted(set(scores.tolist()), reverse=True)  # one row per score
        run = Counter(
            zip(s[start : start + 12].tolist(), y[start : start + 12].tolist(), strict=True)
        )
        assert b.column("p").to_numpy().tolist() == [run[(v, 1)] for v in scores.tolist()]
        assert b.column("n").to_numpy().tolist() == [run[(v, 0)] for v in scores.tolist()]
        got.update(scores.tolist())
    assert set(got) == set(s.tolist())
    assert list(blocks.combine_rows(iter([]))) == []
    assert list(blocks.combine_rows(iter([batches[0].slice(0, 0)]))) == []


def test_cores_of_a_session(spark_session):
    from prtheory.spark import blocks

    assert blocks.session_cores(spark_session) == 2  # local[2]

    class Conf:  # a session without a SparkContext on the client (Spark Connect)
        def __init__(self, values):
            self.values = values

        def get(self, key, default=None):
            return self.values.get(key, default)

    class Remote:
        def __init__(self, values):
            self.conf = Conf(values)

    assert blocks.session_cores(Remote({"spark.default.parallelism": "16"})) == 16
    assert blocks.session_cores(Remote({"spark.sql.shuffle.partitions": "200"})) == 50
    assert blocks.session_cores(Remote({"spark.sql.shuffle.partitions": "3"})) == 1
    assert blocks.cached_rows(object()) is None  # no JVM plan on this side


def test_the_sample_counts_small_frames_and_estimates_large_ones(spark_session):
    from pyspark.sql import functions as F

    from prtheory.spark import blocks

    small = _frame(spark_session, [0, 1, 0], [1.0, float("nan"), 2.0])
    sample, count, _, costs = blocks.sample_scores(small, F.col("score"), 10)
    assert costs.tolist() == [1, 1]  # no cost column: every sampled score counts once
    assert count == 3  # every row, the NaN score's included
    assert sorted(sample) == [1.0, 2.0]
    # every row sampled: two rows share an input partition with probability sum (n_j / n)**2,
    # from the partitions' sizes counted here
    for frame, rows in ((small, 3), (_frame(spark_session, [0] * 10, range(10), slices=5), 10)):
        sizes = [r[1] for r in frame.groupBy(F.spark_partition_id()).count().collect()]
        assert sum(sizes) == rows
        want = sum((size / rows) ** 2 for size in sizes)
        assert blocks.sample_scores(frame, F.col("score"), 100)[2] == pytest.approx(want)
    assert want < 0.5  # the ten rows are spread over at least 3 partitions
    n = 300_000
    big = spark_session.range(n).select((F.col("id") * 0.5).alias("score"))
    assert blocks.cached_rows(big) is None
    sample, estimate, *_ = blocks.sample_scores(big, F.col("score"), 4096)
    assert sample.size == 4096
    # unbiased, relative standard deviation 1/sqrt(4096 - 2) = 1.6 %: 5 of them is 8 %
    assert abs(estimate - n) < 0.08 * n
    # cached and counted: the count is Spark's, exact (not through any operator), and the
    # sample is Bernoulli with mean 1.25 x 4096 = 5120 rows, standard deviation
    # sqrt(5120 (1 - 5120 / n)) = 71: within 5 of them, 4763 to 5477
    big.cache()
    try:
        assert blocks.cached_rows(big) is None  # not built yet: no count
        big.count()
        assert blocks.cached_rows(big) == n
        assert blocks.cached_rows(big.select((F.col("score") + 1).alias("score"))) is None
        assert blocks.cached_rows(big.where(F.col("score") > 1)) is None
        sample, count, *_ = blocks.sample_scores(big, F.col("score"), 4096)
        assert count == n
        assert 4763 <= sample.size <= 5477
        assert set(sample) <= {i * 0.5 for i in range(n)}
    finally:
        big.unpersist()


def test_default_pieces_of_a_frame(spark_session, monkeypatch):
    from pyspark.sql import functions as F

    from prtheory.spark import blocks

    # the session has 2 cores and 3 shuffle partitions: a small frame is one piece (the shuffle
    # partitions no longer decide), 1 200 000 rows are ceil(1200000 / 2**19) = 3 pieces (from
    # the sample's estimate, within 8 %: 2.1 to 2.5 before the ceiling)
    tiny = _frame(spark_session, np.arange(120) % 2, np.arange(120.0))
    with blocks.pieces(tiny, "label", "score", None, None) as p:
        assert p.pieces == 1

    def frame(n):
        return spark_session.range(n).select(
            (F.col("id") % 2).alias("label"), (F.col("id") * 0.5).alias("score")
        )

    with blocks.pieces(frame(1_200_000), "label", "score", None, None) as p:
        assert p.pieces == 3
        assert p.pos == 600_000
        assert p.neg == 600_000
    n = 300_000
    big = frame(n)
    # more pieces than 4 per core (rows above 2**12 per piece here): a second, larger sample
    sizes = []
    sample = blocks.sample_scores

    def spy(df, score, size, cost=None):
        sizes.append(size)
        return sample(df, score, size, cost)

    monkeypatch.setattr(blocks, "MAX_ROWS_PER_PIECE", 2**12)
    monkeypatch.setattr(blocks, "sample_scores", spy)
    with blocks.pieces(big, "label", "score", None, None) as p:
        # ceil(n / 4096) = 74 for the exact count; within 8 % (5 standard deviations) of it,
        # ceil(0.92 n / 4096) = 68 to ceil(1.08 n / 4096) = 80
        assert 68 <= p.pieces <= 80
        assert sizes == [4096, 100 * p.pieces]
        assert p.pos == n // 2
        assert p.neg == n // 2


def test_float_weights_decompose_exactly_in_every_binade(spark_session):
    # each float weight becomes integers (m, e) with w = m 2**e exactly, m < 2**56, in the JVM
    # (blocks._with_dyadic): checked in Fraction arithmetic on doubles from every binade, both
    # sides of each power of two (where floor(log2 w) may be off by one), subnormals, the
    # extremes, and both scaling paths (LONG shifts near 1, pow(2, .) beyond)
    from prtheory.spark import blocks

    rng = np.random.default_rng(5)
    values = [0.0, 5e-324, 2.0**-1022, np.nextafter(2.0**-1022, 0), np.finfo(float).max, 0.1]
    for k in range(-1074, 1024):
        p = 2.0**k
        values += [p, np.nextafter(p, 0), np.nextafter(p, np.inf)]
        if k > -1022:
            values.append(p * (1 + rng.random()))
    frame = spark_session.createDataFrame([(float(v),) for v in values], "w double")
    rows = blocks._with_dyadic(frame, "w").collect()
    assert len(rows) == len(values)
    for v, row in zip(values, rows, strict=True):
        assert 0 <= row["m"] < 2**56, v
        assert Fraction(row["m"]) * Fraction(2) ** row["e"] == Fraction(float(v)), v


def test_bad_input_is_named(spark_session, spark):
    with pytest.raises(InvalidInputError, match="label_col"):
        spark.average_precision(_frame(spark_session, [0, 2], [1, 2]))
    with pytest.raises(InvalidInputError, match="score_col"):
        spark.average_precision(_frame(spark_session, [0, 1], [1, float("nan")]))
    with pytest.raises(InvalidInputError, match="weight_col"):
        spark.average_precision(_frame(spark_session, [0, 1], [1, 2], [1, -1]), weight_col="weight")
    with pytest.raises(InvalidInputError, match="weight_col"):
        spark.roc_auc(_frame(spark_session, [0, 1], [1, 2], [1, float("inf")]), weight_col="weight")
    with pytest.raises(InvalidInputError, match="weight_col"):
        spark.average_precision(_frame(spark_session, [0, 1], [1, 2]), weight_col="nope")
    nulls = spark_session.createDataFrame(
        [(None, 1.0, 1.0), (1.0, 2.0, None), (0.0, None, 1.0)],
        "label double, score double, weight double",
    )
    for column, arg in (("label", "label_col"), ("score", "score_col"), ("weight", "weight_col")):
        frame = nulls.where(f"{column} IS NULL").union(
            _frame(spark_session, [0, 1], [1, 2], [1, 1])
        )
        with pytest.raises(InvalidInputError, match=rf"{arg}.*: 1 bad rows"):
            spark.average_precision(frame, weight_col="weight", partitions=3)
    strings = spark_session.createDataFrame([(1, "a")], ["label", "score"])
    with pytest.raises(InvalidInputError, match="score_col"):
        spark.average_precision(strings)
    with pytest.raises(InvalidInputError, match="partitions"):
        spark.average_precision(_frame(spark_session, [0, 1], [1, 2]), partitions=0)
    with pytest.raises(InvalidInputError, match="ties"):
        spark.precision_at_k(_frame(spark_session, [0, 1], [1, 2]), 1, ties="input-order")
    with pytest.raises(InvalidInputError, match="first_point"):
        spark.pr_auc(
            _frame(spark_session, [0, 1], [1, 2]), method="davis-goadrich", first_point="mllib"
        )
    negatives = _frame(spark_session, [0, 0], [1, 2])
    with pytest.raises(UndefinedMetricError):
        spark.average_precision(negatives)
    assert spark.average_precision(negatives, convention="sklearn") == 0.0
    with pytest.raises(UndefinedMetricError):
        spark.roc_auc(_frame(spark_session, [1, 1], [1, 2]))


@pytest.mark.parametrize("weight", [float("nan"), float("-inf"), -0.5, float("inf")])
def test_malformed_float_weights_are_named_before_any_cast_fails(spark_session, spark, weight):
    # under ANSI mode (Spark 4's default) casting inf or NaN to LONG raises inside Spark; the
    # weight must be rejected by name instead, on every piece count
    frame = _frame(spark_session, [0, 1, 1, 0], [1, 2, 3, 4], [1, weight, 2, 3])
    for pieces in (1, 3):
        with pytest.raises(InvalidInputError, match=r"weight_col.*: 1 bad rows"):
            spark.average_precision(frame, weight_col="weight", partitions=pieces)


def test_only_the_davis_goadrich_area_caches_and_it_releases_the_cache(
    spark_session, spark, monkeypatch
):
    # the blocks are cached by a run only for a metric that passes over them several times
    from prtheory.spark import blocks

    cached_after_run = []
    run = blocks.Pieces.run

    def spy(self, fn):
        out = run(self, fn)
        cached_after_run.append(self.frame.is_cached)
        return out

    monkeypatch.setattr(blocks.Pieces, "run", spy)
    frame = _frame(spark_session, [0, 1, 1, 0, 1], [1, 2, 2, 4, 5])
    persisted = spark_session.sparkContext._jsc.getPersistentRDDs
    before = persisted().size()
    spark.pr_auc(frame, method="davis-goadrich", first_point="spark")
    assert len(cached_after_run) >= 2  # the error bound, then the fixed-point sum
    assert all(cached_after_run)
    cached_after_run.clear()
    spark.average_precision(frame)
    assert cached_after_run == [False]
    assert persisted().size() == before


def test_per_group_equals_single_machine_per_query(spark_session, spark):
    from prtheory.distributed import decode_fraction

    rows, per_query = grouped_queries()
    df = spark_session.createDataFrame(rows, ["qid", "label", "score", "doc"]).repartition(3)
    for metric, opts, ref in GROUPED_CALLS:
        opts = {("doc_id_col" if k == "doc" else k): v for k, v in opts.items()}
        out, mean = spark.per_group(df, "qid", metric, **opts)
        got = {r["qid"]: decode_fraction(r["exact"]) for r in out.collect()}
        out.unpersist()
        expected = {q: ref(*v) for q, v in per_query.items()}
        assert got == expected, metric
        assert mean == oracle.to_float(sum(expected.values()) / len(expected))


def test_column_names_are_taken_literally(spark_session, spark):
    # a dot, a backtick and a space in the names; beside "my.label" a struct column "my" whose
    # field "label" holds other labels: read as a path, "my.label" would give the struct's AP
    from pyspark.sql import functions as F

    from prtheory.distributed import decode_fraction

    y, s, w = [1, 0, 1, 0, 1, 0], [0.9, 0.8, 0.8, 0.3, 0.1, 0.05], [1.0, 2.0, 0.5, 1.0, 3.0, 1.0]
    other = [0, 1, 0, 1, 1, 0]
    rows = [
        (q, float(a), b, c, float(o))
        for q, a, b, c, o in zip([1, 1, 2, 2, 2, 2], y, s, w, other, strict=True)
    ]
    df = spark_session.createDataFrame(
        rows, "`q.id` long, `my.label` double, `sc``ore` double, `w t` double, o double"
    )
    df = df.withColumn("my", F.struct(F.col("o").alias("label"))).drop("o")
    assert oracle.average_precision(other, s, w) != oracle.average_precision(y, s, w)
    got = spark.average_precision(df, "my.label", "sc`ore", "w t", exact=True, partitions=2)
    assert got == oracle.average_precision(y, s, w)
    assert spark.average_precision(
        df, "my.label", "sc`ore", exact=True
    ) == oracle.average_precision(y, s)
    per_query = {1: (y[:2], s[:2]), 2: (y[2:], s[2:])}
    # the group column under a name with a dot, or the name of a column per_group builds
    expected = {q: oracle.average_precision(*v) for q, v in per_query.items()}
    for by in ("q.id", "k", "b", "r"):
        frame = df.withColumnRenamed("q.id", by)
        out, mean = spark.per_group(frame, by, label_col="my.label", score_col="sc`ore")
        got = {r[by]: decode_fraction(r["exact"]) for r in out.collect()}
        out.unpersist()
        assert out.columns == [by, "value", "exact"]
        assert got == expected, by
        assert mean == oracle.to_float(sum(expected.values()) / 2)
    for by in ("value", "exact"):
        with pytest.raises(InvalidInputError, match="by"):
            spark.per_group(
                df.withColumnRenamed("q.id", by), by, label_col="my.label", score_col="sc`ore"
            )


def test_per_group_undefined_groups_are_counted_not_matched_by_message(spark_session, spark):
    rows = [(1, 1.0, 0.5), (1, 0.0, 0.2), (2, 0.0, 0.9), (3, 0.0, 0.1)]
    df = spark_session.createDataFrame(rows, ["qid", "label", "score"])
    with pytest.raises(UndefinedMetricError, match="2 groups"):
        spark.per_group(df, "qid")
    # with scikit-learn's convention the two groups without positives count as AP 0
    out, mean = spark.per_group(df, "qid", convention="sklearn")
    out.unpersist()
    assert mean == oracle.to_float(Fraction(1, 3))


def test_per_group_runs_four_tasks_per_core_whatever_the_shuffle_partitions(spark_session, spark):
    # the result is cached, and Spark's adaptive execution does not merge a cached plan's
    # partitions: without its own coalesce per_group would run one Python task per shuffle
    # partition (200 by default), twice
    rows = [(q, float(i % 2), float(i)) for q in range(40) for i in range(3)]
    df = spark_session.createDataFrame(rows, ["qid", "label", "score"])
    before = spark_session.conf.get("spark.sql.shuffle.partitions")
    spark_session.conf.set("spark.sql.shuffle.partitions", "50")
    try:
        out, mean = spark.per_group(df, "qid")
        assert out.rdd.getNumPartitions() == 8  # 4 x local[2]
        assert out.count() == 40
        out.unpersist()
    finally:
        spark_session.conf.set("spark.sql.shuffle.partitions", before)
    # every query: scores 2, 1, 0 with labels 0, 1, 0 rank its one positive second: AP 1/2
    assert mean == 0.5


def _parquet_frame(session, tmp_path, columns: dict):
    """A DataFrame of ``columns`` written by pandas to Parquet and read back (10^6-10^7 rows:
    ``createDataFrame`` from Python rows would take minutes)."""
    import pandas as pd

    path = str(tmp_path / "frame.parquet")
    pd.DataFrame(columns).to_parquet(path)
    return session.read.parquet(path)


@pytest.mark.slow
def test_ap_of_ten_million_tied_rows_equals_the_oracle(spark_session, spark, tmp_path):
    rng = np.random.default_rng(15)
    n = 10**7
    y = (rng.random(n) < 0.1).astype(np.int64)
    s = np.round(rng.random(n) + 0.3 * y, 6)  # about 1.3 * 10^6 distinct scores: ties
    df = _parquet_frame(spark_session, tmp_path, {"label": y, "score": s})
    want = oracle.average_precision(y, s)
    for parts in (8, 13):
        assert spark.average_precision(df, exact=True, partitions=parts) == want
    assert spark.average_precision(df, partitions=8) == oracle.to_float(want)


@pytest.mark.slow
def test_per_group_map_equals_single_machine_on_1e5_groups(spark_session, spark, tmp_path):
    from prtheory.distributed import decode_fraction

    rng = np.random.default_rng(16)
    groups = 10**5
    sizes = rng.integers(1, 16, groups)
    qid = np.repeat(np.arange(groups), sizes)
    y = (rng.random(qid.size) < 0.3).astype(np.int64)
    y[np.cumsum(sizes) - 1] = 1  # every query has a relevant item
    s = rng.integers(0, 6, qid.size).astype(float)  # ties inside queries
    df = _parquet_frame(spark_session, tmp_path, {"qid": qid, "label": y, "score": s})
    out, mean = spark.per_group(df, "qid")
    got = {r["qid"]: decode_fraction(r["exact"]) for r in out.collect()}
    out.unpersist()
    bounds = np.concatenate(([0], np.cumsum(sizes)))
    expected = {
        q: oracle.average_precision(y[bounds[q] : bounds[q + 1]], s[bounds[q] : bounds[q + 1]])
        for q in range(groups)
    }
    assert got == expected
    assert mean == oracle.to_float(sum(expected.values(), Fraction(0)) / groups)


def test_per_group_returns_the_exact_map(spark_session, spark):
    # query 1: positive first, AP 1; query 2: y=[0,1,1], s=[3,2,1]: (1/2 + 2/3)/2 = 7/12;
    # MAP = (1 + 7/12)/2 = 19/24, not a float
    rows = [(1, 1.0, 0.9), (1, 0.0, 0.1), (2, 0.0, 3.0), (2, 1.0, 2.0), (2, 1.0, 1.0)]
    df = spark_session.createDataFrame(rows, ["qid", "label", "score"])
    out, mean = spark.per_group(df, "qid", exact=True)
    out.unpersist()
    assert mean == Fraction(19, 24)
    assert oracle.average_precision([0, 1, 1], [3, 2, 1]) == Fraction(7, 12)


def test_per_group_checks_keys_and_empty_groups_before_any_worker(
    spark_session, spark, monkeypatch
):
    from prtheory.spark import grouped

    built = []
    real = grouped.evaluator
    monkeypatch.setattr(grouped, "evaluator", lambda *a: built.append(a) or real(*a))
    rows = [(1, 1.0, 0.5), (1, 0.0, 0.2), (2, 0.0, 0.9), (3, 0.0, 0.1)]
    df = spark_session.createDataFrame(rows, ["qid", "label", "score"])
    with pytest.raises(UndefinedMetricError, match="2 groups of 'qid' have no positives"):
        spark.per_group(df, "qid", "r_precision")
    assert built == []  # raised before the per-group evaluation was set up
    # R-precision takes AP's convention: the two empty queries count 0, query 1 has R = 1 and
    # its top item relevant: (1 + 0 + 0) / 3
    out, mean = spark.per_group(df, "qid", "r_precision", convention="sklearn", exact=True)
    out.unpersist()
    assert mean == Fraction(1, 3)
    nulls = spark_session.createDataFrame(
        [(1, 1.0, 0.5), (None, 1.0, 0.2), (None, 0.0, 0.1)], "qid long, label double, score double"
    )
    with pytest.raises(InvalidInputError, match=r"by: column 'qid' has 2 rows with a null"):
        spark.per_group(nulls, "qid")


def test_a_group_the_oracle_rejects_is_named_by_its_key(spark_session, spark):
    rows = [("a", 1.0, 0.5, "x"), ("a", 0.0, 0.5, "y"), ("b", 1.0, 0.9, "z"), ("b", 0.0, 0.1, "z")]
    df = spark_session.createDataFrame(rows, ["q", "label", "score", "doc"])
    with pytest.raises(InvalidInputError, match=r"q: the group q='b' is rejected: doc_ids"):
        spark.per_group(df, "q", ties="trec_eval", doc_id_col="doc")


def test_r_precision_takes_aps_convention_without_positives(spark_session, spark):
    df = _frame(spark_session, [0, 0, 0], [3, 2, 1])
    with pytest.raises(UndefinedMetricError, match="R-precision"):
        spark.r_precision(df)
    assert spark.r_precision(df, convention="sklearn", exact=True) == 0
    with pytest.raises(InvalidInputError, match="convention"):
        spark.r_precision(df, convention="trec_eval")


def test_mllib_vector_columns_are_read_at_their_index(spark_session, spark):
    from pyspark.ml.linalg import Vectors

    y = [1, 0, 1, 0, 1, 0]
    p1 = [0.9, 0.8, 0.3, 0.3, 0.1, 0.6]
    rows = [
        (
            q,
            float(a),
            Vectors.dense([1 - b, b]) if i % 2 else Vectors.sparse(2, [1], [b]),
            [1 - b, b],
        )
        for i, (q, a, b) in enumerate(zip([1, 1, 1, 2, 2, 2], y, p1, strict=True))
    ]
    df = spark_session.createDataFrame(rows, ["qid", "label", "probability", "arr"])
    for col in ("probability", "arr"):
        kw = {"score_col": col, "score_index": 1, "exact": True}
        assert spark.average_precision(df, **kw) == oracle.average_precision(y, p1)
        assert spark.roc_auc(df, **kw) == oracle.roc_auc(y, p1)
        assert spark.pr_auc(df, **kw, method="trapezoid", first_point="sklearn") == oracle.pr_auc(
            y, p1, method="trapezoid", first_point="sklearn"
        )
        assert spark.precision_at_k(df, 2, **kw) == oracle.precision_at_k(y, p1, 2)
        assert spark.r_precision(df, **kw) == oracle.r_precision(y, p1)
        out, mean = spark.per_group(df, "qid", score_col=col, score_index=1, exact=True)
        out.unpersist()
        want = (
            oracle.average_precision(y[:3], p1[:3]) + oracle.average_precision(y[3:], p1[3:])
        ) / 2
        assert mean == want
    with pytest.raises(InvalidInputError, match="score_index"):
        spark.average_precision(df, score_col="probability")
    with pytest.raises(InvalidInputError, match="score_index"):
        spark.average_precision(df, score_col="label", score_index=0)
