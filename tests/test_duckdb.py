"""prtheory.duckdb against the single-machine oracle: the shared hostile frames
(:mod:`prtheory._testing.frames`, the same cases as tests/test_spark.py) from multi-file
Parquet and CSV globs and from frames in memory, and the per-group metrics.

Skipped (with how to install) where duckdb or pyarrow is missing.
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

pytest.importorskip("duckdb", reason="needs duckdb: pip install -e '.[duckdb]'")
pa = pytest.importorskip("pyarrow", reason="needs pyarrow: pip install -e '.[duckdb]'")
pq = pytest.importorskip("pyarrow.parquet")

from prtheory import duckdb as pdb  # noqa: E402  (after the skips)
from prtheory.duckdb import blocks as duck_blocks  # noqa: E402


def _table(case: HostileFrame, lo: int = 0, hi: int | None = None):
    """The case's rows ``lo:hi`` as a pyarrow Table under the case's column names."""
    hi = case.y.size if hi is None else hi
    label, score, weight = case.names
    cols = {label: pa.array(case.y[lo:hi], pa.int64()), score: pa.array(case.s[lo:hi])}
    if case.w is not None:
        kind = pa.int64() if case.w.dtype.kind == "i" else pa.float64()
        cols[weight] = pa.array(case.w[lo:hi], kind)
    return pa.table(cols)


def _parquet_glob(case: HostileFrame, directory) -> str:
    """One Parquet file per slice of the rows (empty slices are empty files), as a glob."""
    for i, (lo, hi) in enumerate(case.slice_bounds()):
        pq.write_table(_table(case, lo, hi), directory / f"part-{i}.parquet")
    return str(directory / "part-*.parquet")


def _call(source, case: HostileFrame, call, exact: bool):
    name, opts = call
    label, score, weight = case.names
    fn = getattr(pdb, name)
    cols = {"label": label, "score": score}
    if case.weighted:
        cols["weight"] = weight
    opts = dict(opts)
    if name == "precision_at_k":
        return fn(source, opts.pop("k"), **cols, **opts, exact=exact)
    return fn(source, **cols, **opts, exact=exact)


def _check(source, case: HostileFrame, calls) -> None:
    for call in calls:
        want = oracle_value(case, call)
        if want is UndefinedMetricError:
            with pytest.raises(UndefinedMetricError):
                _call(source, case, call, exact=True)
            continue
        assert _call(source, case, call, exact=True) == want, call
        got = _call(source, case, call, exact=False)
        assert got == oracle_float(case, call, want), call
        assert isinstance(got, float)


@pytest.mark.parametrize("case", HOSTILE, ids=lambda c: c.name)
def test_hostile_frames_from_parquet_equal_the_oracle(case, tmp_path, monkeypatch):
    source = _parquet_glob(case, tmp_path)
    calls = case.calls()
    # pieces of every size the case asks for: 1 block per piece puts every cut at a tie (and,
    # with float weights, the exponents of one score across two batches)
    for i, pieces in enumerate(case.pieces):
        monkeypatch.setattr(duck_blocks, "PIECE_ROWS", max(1, case.y.size // pieces))
        _check(source, case, calls if i == 0 else calls[:3])
    if case.y.size <= 1000:  # a piece per row: every cut at a tie (the large cases' pieces
        monkeypatch.setattr(duck_blocks, "PIECE_ROWS", 1)  # would be thousands of queries)
        _check(source, case, calls[:3])


@pytest.mark.parametrize("case", [c for c in HOSTILE if c.slices > 2], ids=lambda c: c.name)
def test_hostile_frames_from_memory_and_csv_equal_the_oracle(case, tmp_path):
    import csv

    table = _table(case)
    first = case.calls()[:1]
    _check(table, case, first)
    _check(table.to_pandas(), case, first)
    polars = pytest.importorskip("polars")
    _check(polars.from_arrow(table), case, first)
    _check(polars.from_arrow(table).lazy(), case, first)
    path = tmp_path / "frame.csv"
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(table.column_names)
        writer.writerows(zip(*(c.to_pylist() for c in table.columns), strict=True))
    if not np.isinf(case.s).any():  # CSV has no standard spelling of infinity
        _check(str(path), case, first)


def test_a_duckdb_relation_is_queried_on_its_own_connection():
    import duckdb

    con = duckdb.connect()
    rel = con.sql("SELECT (i % 3 = 0)::INT AS label, (i % 7)::DOUBLE AS score FROM range(40) t(i)")
    y = [int(i % 3 == 0) for i in range(40)]
    s = [float(i % 7) for i in range(40)]
    assert pdb.average_precision(rel, exact=True) == oracle.average_precision(y, s)
    with pytest.raises(InvalidInputError, match="memory_limit"):
        pdb.average_precision(rel, memory_limit="1GB")


def test_hand_computed_values(tmp_path):
    # y=[0,1], s=[2,1]: the positive is at rank 2, AP = 1/2
    assert pdb.average_precision(pa.table({"label": [0, 1], "score": [2, 1]}), exact=True) == (
        Fraction(1, 2)
    )
    # all tied: one operating point, precision 2/3 at recall 1
    t = pa.table({"label": [1, 0, 1], "score": [5.0, 5.0, 5.0]})
    assert pdb.average_precision(t, exact=True) == Fraction(2, 3)
    # weights 0.1 taken at their exact binary value: y=[1,0,1], s=[3,2,1], w=[0.1,0.1,0.2]
    # gives AP = (0.1 * 1 + 0.2 * (0.3/0.4)) / 0.3 in exact floats
    a, b = Fraction(0.1), Fraction(0.2)
    expected = (a * 1 + b * ((a + b) / (a + a + b))) / (a + b)
    t = pa.table({"label": [1, 0, 1], "score": [3, 2, 1], "weight": [0.1, 0.1, 0.2]})
    assert pdb.average_precision(t, weight="weight", exact=True) == expected
    # ROC: y=[1,0,1,0], s=[4,3,3,1]: pairs (pos, neg) won 1+1+1/2+1 of 4 -> 7/8
    t = pa.table({"label": [1, 0, 1, 0], "score": [4, 3, 3, 1]})
    assert pdb.roc_auc(t, exact=True) == Fraction(7, 8)
    # P@2 with the cutoff inside the tied block {3, 3} (one positive of two): 1 + 1/2 over 2
    assert pdb.precision_at_k(t, 2, exact=True) == Fraction(3, 4)
    # booleans and integers as labels, a relation's own column types
    t = pa.table({"label": [False, True], "score": [2, 1]})
    assert pdb.average_precision(t, exact=True) == Fraction(1, 2)


def test_precision_recall_curve_is_the_float_api_s_or_a_thinned_exact_subset():
    import prtheory
    from prtheory.oracle.counts import operating_points

    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 400)
    s = rng.integers(0, 150, 400) / 8
    w = rng.choice([0.5, 1.0, 0.1, 3.0], 400)
    t = pa.table({"label": y, "score": s, "weight": w})
    for fp in ("none", "sklearn", "spark"):
        want = prtheory.precision_recall_curve(y, s, sample_weight=w, first_point=fp)
        got = pdb.precision_recall_curve(t, weight="weight", first_point=fp)
        for a, b in zip(got, want, strict=True):
            np.testing.assert_array_equal(a, b)
    exact = oracle.pr_curve(y, s, w, first_point="spark")
    got = pdb.precision_recall_curve(t, weight="weight", first_point="spark", exact=True)
    assert list(got.precision) == list(exact.precision)
    assert got.thresholds.tolist() == exact.thresholds.tolist()
    # thinned to m = 4: a point is kept where TP*4 // pos or N*4 // total steps up, and the last;
    # found here by walking the exact operating points
    pts = operating_points(y, s, w)
    total = pts.pos + pts.neg
    kept, prev = [], (0, 0)
    for i, (tp, fp_) in enumerate(zip(pts.tp, pts.fp, strict=True)):
        now = (tp * 4 // pts.pos, (tp + fp_) * 4 // total)
        if now != prev or i == len(pts) - 1:
            kept.append(i)
        prev = now
    thin = pdb.precision_recall_curve(
        t, weight="weight", first_point="none", max_points=4, exact=True
    )
    assert thin.thresholds.tolist() == pts.thresholds[kept].tolist()
    assert list(thin.precision) == [exact.precision[i + 1] for i in kept]
    assert len(kept) <= 2 * 4 + 1


def test_score_vectors_are_read_at_their_index(tmp_path):
    y = [1, 0, 1, 0, 1]
    p1 = [0.9, 0.8, 0.3, 0.3, 0.1]
    lists = pa.table({"label": y, "probability": [[1 - v, v] for v in p1]})
    want = oracle.average_precision(y, p1)
    assert pdb.average_precision(lists, score="probability", score_index=1, exact=True) == want
    # an MLlib vector as Spark writes it to Parquet: dense (type 1) and sparse (type 0) rows
    vector = pa.struct(
        [
            ("type", pa.int8()),
            ("size", pa.int32()),
            ("indices", pa.list_(pa.int32())),
            ("values", pa.list_(pa.float64())),
        ]
    )
    rows = [
        {"type": 1, "size": 2, "indices": None, "values": [0.1, 0.9]},
        {"type": 0, "size": 2, "indices": [1], "values": [0.8]},
        {"type": 0, "size": 2, "indices": [0], "values": [0.7]},  # element 1 absent: 0.0
        {"type": 1, "size": 2, "indices": None, "values": [0.7, 0.3]},
        {"type": 1, "size": 2, "indices": None, "values": [0.9, 0.1]},
    ]
    path = tmp_path / "vectors.parquet"
    pq.write_table(pa.table({"label": y, "probability": pa.array(rows, vector)}), path)
    got = pdb.average_precision(str(path), score="probability", score_index=1, exact=True)
    assert got == oracle.average_precision(y, [0.9, 0.8, 0.0, 0.3, 0.1])
    with pytest.raises(InvalidInputError, match="score_index"):
        pdb.average_precision(lists, score="probability")
    with pytest.raises(InvalidInputError, match="score_index"):
        pdb.average_precision(pa.table({"label": y, "score": p1}), score_index=1)
    short = pa.table({"label": y, "probability": [[v] for v in p1]})  # no element 1: null
    with pytest.raises(InvalidInputError, match="score: scores must not be NaN or null"):
        pdb.average_precision(short, score="probability", score_index=1)


def test_bad_input_is_named_before_any_metric():
    t = pa.table
    with pytest.raises(InvalidInputError, match="label"):
        pdb.average_precision(t({"label": [0, 2], "score": [1, 2]}))
    with pytest.raises(InvalidInputError, match=r"score: .*: 1 bad rows"):
        pdb.average_precision(t({"label": [0, 1], "score": [1.0, float("nan")]}))
    for bad in (float("nan"), float("inf"), -0.5, None):
        frame = t({"label": [0, 1], "score": [1, 2], "weight": pa.array([1.0, bad], pa.float64())})
        with pytest.raises(InvalidInputError, match=r"weight: .*: 1 bad rows"):
            pdb.average_precision(frame, weight="weight")
    # one scan counts every malformed row; the error names the first argument with its own count
    nan = float("nan")
    mixed = t({"label": [0, 2, 1, 1], "score": [nan, 1.0, nan, 2.0], "w": [1.0, 1.0, -1.0, nan]})
    with pytest.raises(InvalidInputError, match=r"^label: .*: 1 bad rows$"):
        pdb.average_precision(mixed)
    with pytest.raises(InvalidInputError, match=r"^label: .*: 1 bad rows$"):
        pdb.average_precision(mixed, weight="w")
    no_bad_label = t({"label": [0, 0, 1, 1], "score": [nan, 1.0, nan, 2.0], "w": [1, 1, -1, nan]})
    with pytest.raises(InvalidInputError, match=r"^score: .*: 2 bad rows$"):
        pdb.average_precision(no_bad_label, weight="w")
    weights_only = t({"label": [0, 0, 1, 1], "score": [0.5, 1.0, 0.5, 2.0], "w": [1, 1, -1, nan]})
    with pytest.raises(InvalidInputError, match=r"^weight: .*: 2 bad rows$"):
        pdb.roc_auc(weights_only, weight="w")
    with pytest.raises(InvalidInputError, match="weight"):
        pdb.average_precision(t({"label": [0, 1], "score": [1, 2]}), weight="nope")
    with pytest.raises(InvalidInputError, match="score"):
        pdb.average_precision(t({"label": [1], "score": ["a"]}))
    decimal = t({"label": [1], "score": [1.0], "weight": pa.array([1], pa.decimal128(5, 2))})
    with pytest.raises(InvalidInputError, match="weight"):  # DECIMAL: cast it first
        pdb.average_precision(decimal, weight="weight")
    with pytest.raises(InvalidInputError, match="ties"):
        pdb.precision_at_k(t({"label": [1], "score": [1.0]}), 1, ties="input-order")
    with pytest.raises(InvalidInputError, match="first_point"):
        pdb.pr_auc(t({"label": [1], "score": [1.0]}), method="davis-goadrich", first_point="mllib")
    with pytest.raises(InvalidInputError, match="method"):
        pdb.pr_auc(t({"label": [1], "score": [1.0]}), method="simpson", first_point="none")
    weighted = t({"label": [1], "score": [1.0], "w": [1.0]})
    with pytest.raises(InvalidInputError, match="weight"):
        pdb.pr_auc(weighted, weight="w", method="davis-goadrich-discrete", first_point="none")
    with pytest.raises(InvalidInputError, match="source"):
        pdb.average_precision(42)
    with pytest.raises(InvalidInputError, match="max_points"):
        pdb.precision_recall_curve(t({"label": [1], "score": [1.0]}), max_points=0)


def test_per_group_equals_the_oracle_per_query_and_its_exact_mean(tmp_path):
    from prtheory.distributed import decode_fraction

    rows, per_query = grouped_queries()
    qid, label, score, doc = (list(c) for c in zip(*rows, strict=True))
    table = pa.table({"q.id": qid, "label": label, "score": score, "doc": doc})
    pq.write_table(table.slice(0, 20), tmp_path / "a.parquet")
    pq.write_table(table.slice(20), tmp_path / "b.parquet")
    for metric, opts, ref in GROUPED_CALLS:
        opts = {("doc_id" if k == "doc" else k): v for k, v in opts.items()}
        out, mean = pdb.per_group(str(tmp_path / "*.parquet"), "q.id", metric, **opts)
        keys, texts = (out.column(c).to_pylist() for c in ("q.id", "exact"))
        got = {k: decode_fraction(e) for k, e in zip(keys, texts, strict=True)}
        expected = {q: ref(*v) for q, v in per_query.items()}
        assert got == expected, metric
        assert out.column_names == ["q.id", "value", "exact"]
        exact_mean = sum(expected.values(), Fraction(0)) / len(expected)
        assert mean == oracle.to_float(exact_mean)
        _, exact = pdb.per_group(table, "q.id", metric, **opts, exact=True)
        assert exact == exact_mean


def test_per_group_checks_keys_and_empty_groups_before_the_evaluation(monkeypatch):
    from prtheory.distributed import grouped

    evaluated = []
    real = grouped.evaluator

    def spy(*args):
        evaluated.append(args)
        return real(*args)

    monkeypatch.setattr("prtheory.duckdb.grouped.evaluator", spy)
    t = pa.table({"q": [1, 1, 2, 3], "label": [1, 0, 0, 0], "score": [0.5, 0.2, 0.9, 0.1]})
    with pytest.raises(UndefinedMetricError, match="2 groups of 'q' have no positives"):
        pdb.per_group(t, "q")
    with pytest.raises(UndefinedMetricError, match="2 groups"):
        pdb.per_group(t, "q", "r_precision")
    assert evaluated == []  # raised before any group was evaluated
    # scikit-learn's convention values them 0: (1 + 0 + 0) / 3
    _, mean = pdb.per_group(t, "q", convention="sklearn", exact=True)
    assert mean == Fraction(1, 3)
    _, mean = pdb.per_group(t, "q", "r_precision", convention="sklearn", exact=True)
    assert mean == Fraction(1, 3)  # query 1: R = 1, its top item relevant
    # P@k is defined without positives: 0
    _, mean = pdb.per_group(t, "q", "precision_at_k", k=1, exact=True)
    assert mean == Fraction(1, 3)
    nulls = pa.table({"q": [1, None, None], "label": [1, 1, 0], "score": [0.5, 0.2, 0.1]})
    with pytest.raises(InvalidInputError, match=r"by: column 'q' has 2 rows with a null"):
        pdb.per_group(nulls, "q")
    with pytest.raises(InvalidInputError, match="label"):
        pdb.per_group(pa.table({"q": [1], "label": [3], "score": [0.5]}), "q")
    with pytest.raises(InvalidInputError, match="by"):
        pdb.per_group(t, "value")
    with pytest.raises(InvalidInputError, match="doc_id"):
        pdb.per_group(t, "q", ties="trec_eval")


def test_a_group_the_oracle_rejects_is_named_by_its_key():
    t = pa.table(
        {
            "q": ["a", "a", "b", "b"],
            "label": [1, 0, 1, 0],
            "score": [0.5, 0.5, 0.9, 0.1],
            "doc": ["x", "y", "z", "z"],  # query "b" has doc "z" twice
        }
    )
    with pytest.raises(InvalidInputError, match=r"q: the group q='b' is rejected: doc_ids"):
        pdb.per_group(t, "q", ties="trec_eval", doc_id="doc")


def test_the_memory_limit_reaches_the_connection(monkeypatch):
    import duckdb

    seen = []
    connect = duckdb.connect

    def spy(*args, **kwargs):
        seen.append(kwargs.get("config"))
        return connect(*args, **kwargs)

    monkeypatch.setattr(duckdb, "connect", spy)
    t = pa.table({"label": [1, 0], "score": [0.5, 0.2]})
    assert pdb.average_precision(t, memory_limit="100MB", threads=1) == 1.0
    assert seen[0]["memory_limit"] == "100MB"
    assert seen[0]["threads"] == 1


def test_duckdb_buffers_get_half_the_memory_limit():
    # the caller's limit is for the whole call; DuckDB's buffer manager gets half of it:
    # 3 GiB -> 1.5 GiB, 1 GiB -> 512 MiB (DuckDB shows both exactly)
    from prtheory.duckdb.source import open_source

    t = pa.table({"label": [1, 0], "score": [0.5, 0.2]})
    for limit, half in (("3GiB", "1.5 GiB"), ("1GiB", "512.0 MiB")):
        with open_source(t, memory_limit=limit) as src:
            shown = src.sql("SELECT current_setting('memory_limit')").fetchall()[0][0]
        assert shown == half


@pytest.mark.parametrize(
    ("low", "high", "per_exponent"),
    [
        (2.0**60, 2.0**61, False),  # integers past 2**53: one HUGEINT per score, past int64
        (2.0**-60, 1.0, False),  # w 2**113 up to 2**113: scaled doubles cast to HUGEINT
        (2.0**-700, 2.0**300, True),  # a thousand bits apart: summed per (score, exponent)
    ],
)
def test_float_weights_sum_exactly_as_one_integer_or_per_exponent(low, high, per_exponent):
    rng = np.random.default_rng(17)
    n = 300
    y = rng.integers(0, 2, n)
    s = rng.integers(0, 30, n).astype(float)
    # random doubles spread over [low, high) in every binade, with full 53-bit mantissas
    w = np.exp2(rng.uniform(np.log2(low), np.log2(high), n)) * (1 + rng.random(n) * 2**-1)
    w[:2] = low, high  # the extremes themselves
    t = pa.table({"label": y, "score": s, "weight": w})
    from prtheory.duckdb.source import open_source

    with open_source(t) as src:
        assert duck_blocks.blocks(src, "label", "score", "weight").per_exponent is per_exponent
    assert pdb.average_precision(t, weight="weight", exact=True) == oracle.average_precision(
        y, s, w
    )
    assert pdb.roc_auc(t, weight="weight", exact=True) == oracle.roc_auc(y, s, w)


@pytest.mark.parametrize(
    ("column", "value", "message"),
    [
        ("weight", float("nan"), "weight: .*: 1 bad rows"),
        ("weight", float("inf"), "weight: .*: 1 bad rows"),
        ("score", float("nan"), "score: scores must not be NaN or null: 1 bad rows"),
    ],
)
def test_nan_in_a_pyarrow_parquet_file_is_named(tmp_path, column, value, message):
    # PyArrow leaves NaN out of a column's min/max statistics, and DuckDB's optimizer trusts
    # them: a projected isnan(w) reads False on the NaN row (duckdb/duckdb#25521). The checks
    # count the malformed rows in aggregate filters, which read every row: one bad row each
    y, s, w = [1, 0, 1, 0], [0.9, 0.8, 0.7, 0.6], [0.5, 0.25, 0.75, 1.0]
    {"score": s, "weight": w}[column][2] = value
    path = tmp_path / "nan.parquet"
    pq.write_table(pa.table({"label": y, "score": s, "weight": w}), path)
    for exact in (False, True):
        with pytest.raises(InvalidInputError, match=message):
            pdb.average_precision(str(path), weight="weight", exact=exact)
    if column == "score":  # the per-group checks too
        pq.write_table(pa.table({"q": [1, 1, 2, 2], "label": y, "score": s}), path)
        with pytest.raises(InvalidInputError, match=message):
            pdb.per_group(str(path), "q", "average_precision")


def test_top_level_functions_route_paths_and_relations_to_duckdb(tmp_path):
    import duckdb

    import prtheory

    # y=[1,0,1], s=[.9,.5,.5]: grouped, (1/2)(1) + (1/2)(2/3) = 5/6 (as the doctest)
    path = tmp_path / "t.parquet"
    pq.write_table(pa.table({"y": [1, 0, 1], "s": [0.9, 0.5, 0.5]}), path)
    assert prtheory.average_precision(str(path), label="y", score="s", exact=True) == (
        Fraction(5, 6)
    )
    assert prtheory.average_precision(path, "y", "s") == 5 / 6  # os.PathLike too
    con = duckdb.connect()
    rel = con.sql(f"SELECT * FROM read_parquet('{path}')")
    # ROC: the positive at 0.9 beats the negative, the one at 0.5 ties it: (1 + 1/2) / 2
    assert prtheory.roc_auc(rel, "y", "s", exact=True) == Fraction(3, 4)
    assert prtheory.precision_at_k(rel, 1, "y", "s") == 1.0
    assert prtheory.r_precision(rel, "y", "s", exact=True) == Fraction(3, 4)  # 1 + 1/2 of 2
    curve = prtheory.precision_recall_curve(str(path), "y", "s")
    assert curve.recall.tolist() == [1.0, 0.5, 0.0]
    area = prtheory.pr_auc(str(path), "y", "s", method="trapezoid", first_point="none")
    assert area == 5 / 12  # one segment: recall 1/2 to 1, precision 1 to 2/3, (1/2)(5/3)/2
    # arrays and lists (of strings too: labels) stay on the array functions, and so does a
    # string that names no file, no glob and no Parquet/CSV name
    assert prtheory.average_precision([1, 0, 1], [0.9, 0.5, 0.5]) == 5 / 6
    with pytest.raises(InvalidInputError, match="pos_label"):
        prtheory.roc_auc(["a", "b"], [0.9, 0.5])
    with pytest.raises(InvalidInputError, match="y_true: must be a sequence or an array"):
        prtheory.roc_auc("010", [0.9, 0.5, 0.1])
    missing = str(tmp_path / "nothing-*.parquet")  # a glob that matches no file
    with pytest.raises(InvalidInputError, match=r"source: .*nothing-"):
        prtheory.average_precision(missing, "y", "s")


def test_a_score_never_straddles_two_pieces(monkeypatch):
    # weights 2**-1074 and 2**1000 are too far apart for one HUGEINT, so each score has a row
    # per exponent; with one row per batch, the rows of a score must still make one block
    from prtheory.duckdb.source import open_source

    monkeypatch.setattr(duck_blocks, "PIECE_ROWS", 1)
    s = [3.0, 3.0, 2.0, 2.0, 2.0, 1.0]
    y = [1, 0, 0, 1, 1, 0]
    w = [5e-324, 2.0**1000, 2.0**1000, 5e-324, 1.0, 5e-324]
    with open_source(pa.table({"label": y, "score": s, "weight": w})) as src:
        p = duck_blocks.blocks(src, "label", "score", "weight")
        assert p.per_exponent
        got = [(sc.tolist(), piece.pos.tolist(), piece.neg.tolist()) for piece, sc in
               p.pieces(with_scores=True)]  # fmt: skip
    k = 1074  # over 2**-1074: 5e-324 is 1, 2**1000 is 2**2074, 1.0 is 2**1074
    assert got == [
        ([3.0], [1], [2**2074]),
        ([2.0], [1 + 2**1074], [2**2074]),
        ([1.0], [0], [1]),
    ]
    assert p.k == k


def test_exact_ap_of_a_parquet_glob_equals_the_oracle_fed_in_chunks(tmp_path):
    # the acceptance run of reports/benchmarks_duckdb.md in small: tied scores (6 decimals),
    # 10 % positives, in several files read as one glob; the oracle's value from the files read
    # batch by batch into the exact streaming accumulator
    from prtheory.streaming import PRAccumulator

    rng = np.random.default_rng(2026)
    for i in range(3):
        y = (rng.random(20_000) < 0.1).astype(np.int8)
        s = np.round(rng.random(20_000) + 0.3 * y, 3)
        pq.write_table(
            pa.table({"y": y, "s": s}), tmp_path / f"part-{i}.parquet", row_group_size=7_000
        )
    acc = PRAccumulator()
    for i in range(3):
        for batch in pq.ParquetFile(tmp_path / f"part-{i}.parquet").iter_batches(batch_size=5_000):
            acc.update(batch.column("y").to_numpy(), batch.column("s").to_numpy())
    want = acc.average_precision(exact=True)
    glob = str(tmp_path / "part-*.parquet")
    assert pdb.average_precision(glob, label="y", score="s", exact=True) == want
    assert pdb.average_precision(glob, label="y", score="s", memory_limit="100MB") == (
        oracle.to_float(want)
    )


def test_an_engine_wrong_only_past_ten_thousand_rows_fails_the_shared_cases(tmp_path, monkeypatch):
    # the mutant: one block's positive weight one unit (2^-k) too large, on inputs past 10^4
    # rows only (a carry lost in a fixed-width sum on long inputs, say); every case up to 10^4
    # rows still passes, and the large cases of prtheory._testing.frames must catch it
    real = duck_blocks.Blocks._weights
    rows = {"n": 0}

    def mutant(self, table):
        p, n = real(self, table)
        if rows["n"] > 10_000 and len(p):
            p = p.copy()
            p[0] += 1
        return p, n

    monkeypatch.setattr(duck_blocks.Blocks, "_weights", mutant)
    caught = []
    for case in HOSTILE:
        rows["n"] = case.y.size
        (tmp_path / case.name).mkdir()
        source = _parquet_glob(case, tmp_path / case.name)
        try:
            _check(source, case, case.calls()[:1])
        except AssertionError:
            caught.append(case.name)
    assert (
        caught == [c.name for c in HOSTILE if c.y.size > 10_000] == ["large-weighted", "large-ties"]
    )
