"""prtheory.spark.arrow: Spark's per-row Arrow byte check is skipped only where it cannot cut a
batch, the session's setting comes back afterwards, and the blocks' job runs under it."""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from prtheory.spark.arrow import (
    BYTES_PER_VALUE,
    MAX_BYTES,
    MAX_RECORDS,
    NO_BYTE_CHECK,
    _bytes,
    unchecked_byte_limit,
)

#: Spark runs in a JVM (per-job latency, not CPU, sets these tests' time): the heavy tier
pytestmark = pytest.mark.heavy


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("67108864b", 2**26),  # Spark's own rendering of the 64 MiB default
        ("64m", 64 * 2**20),
        ("64MB", 64 * 2**20),
        ("1g", 2**30),
        ("512k", 512 * 1024),
        ("100", 100),
        (" 7 kb ", 7 * 1024),
        ("1.5m", None),
        ("64x", None),
        ("", None),
    ],
)
def test_byte_strings_read_as_spark_reads_them(text, value):
    assert _bytes(text) == value


@pytest.fixture
def conf(spark_session):
    """The session's conf, with both Arrow batch settings restored after the test."""
    c = spark_session.conf
    saved = {k: c.get(k, None) for k in (MAX_BYTES, MAX_RECORDS)}
    yield c
    for k, v in saved.items():
        if v is None:
            c.unset(k)
        else:
            c.set(k, v)


def test_unset_byte_limit_is_lifted_inside_and_unset_again_after(spark_session, conf):
    conf.unset(MAX_BYTES)
    with unchecked_byte_limit(spark_session, 5) as lifted:
        assert lifted
        assert conf.get(MAX_BYTES) == str(NO_BYTE_CHECK)
    assert conf.get(MAX_BYTES, None) is None


def test_explicit_byte_limit_comes_back_even_after_an_error(spark_session, conf):
    conf.set(MAX_BYTES, "32m")
    seen = []

    def fail_inside():
        with unchecked_byte_limit(spark_session, 5):
            seen.append(conf.get(MAX_BYTES))
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        fail_inside()
    assert seen == [str(NO_BYTE_CHECK)]
    assert conf.get(MAX_BYTES) == "32m"


@pytest.mark.parametrize(
    ("records", "limit", "lifted"),
    [
        # 10,000 rows of 5 columns and the struct: 10,000 * 6 * 16 = 960,000 bytes at most
        ("10000", "960000b", True),  # the bound fits exactly: the check could not fire
        ("10000", "959999b", False),  # one byte less: the check might cut a batch
        ("10000", "512k", False),
        ("0", "64m", False),  # no row count: the byte size is the only bound
        ("-1", "64m", False),
    ],
)
def test_byte_limit_is_lifted_only_where_it_cannot_cut_a_batch(
    spark_session, conf, records, limit, lifted
):
    assert 10_000 * 6 * BYTES_PER_VALUE == 960_000
    conf.set(MAX_RECORDS, records)
    conf.set(MAX_BYTES, limit)
    with unchecked_byte_limit(spark_session, 5) as got:
        assert got is lifted
        assert conf.get(MAX_BYTES) == (str(NO_BYTE_CHECK) if lifted else limit)
    assert conf.get(MAX_BYTES) == limit


def test_same_batches_reach_the_workers_with_and_without_the_check(spark_session, conf):
    """The batch sizes a Python worker receives, for 25,001 rows in one partition: cut at
    maxRecordsPerBatch whether or not Spark checks the bytes row by row."""
    import pyarrow as pa

    conf.set(MAX_RECORDS, "10000")
    frame = spark_session.range(25_001).selectExpr("id", "cast(id as double) as s").coalesce(1)

    def sizes(batches):
        yield pa.RecordBatch.from_pydict({"rows": [b.num_rows for b in batches]})

    def batches():
        return sorted(r["rows"] for r in frame.mapInArrow(sizes, "rows long").collect())

    checked = batches()
    with unchecked_byte_limit(spark_session, 2) as lifted:
        assert lifted
        unchecked = batches()
    assert checked == unchecked == [5_001, 10_000, 10_000]  # 25,001 = 2 * 10,000 + 5,001


def test_blocks_job_runs_without_the_check(spark_session, monkeypatch):
    """Pieces.run sends the blocks under unchecked_byte_limit, with the blocks' column count,
    and the AP is the oracle's (each way of summing equal scores)."""
    from fractions import Fraction

    from prtheory import oracle
    from prtheory.spark import ap, blocks

    entered = []

    @contextmanager
    def spy(session, columns):
        with unchecked_byte_limit(session, columns) as lifted:
            entered.append((columns, lifted, session.conf.get(MAX_BYTES)))
            yield lifted

    monkeypatch.setattr(blocks, "unchecked_byte_limit", spy)
    y = [1, 0, 1, 1, 0, 0, 1, 0]
    s = [0.9, 0.8, 0.8, 0.5, 0.5, 0.5, 0.2, 0.1]
    df = spark_session.createDataFrame(
        [(float(a), b) for a, b in zip(y, s, strict=True)], ["label", "score"]
    )
    expected = oracle.average_precision(y, s)
    inf = float("inf")
    # raw rows: s, y; Spark's aggregation and the input partitions' counts: s, p, n
    for raw_max, combine_min, columns in ((inf, inf, 2), (-inf, inf, 3), (inf, -inf, 3)):
        monkeypatch.setattr(blocks, "RAW_MAX_TIES", raw_max)
        monkeypatch.setattr(blocks, "COMBINE_MIN_TIES", combine_min)
        entered.clear()
        assert ap.average_precision(df, exact=True) == expected
        assert isinstance(expected, Fraction)
        assert entered == [(columns, True, str(NO_BYTE_CHECK))]
