"""prtheory.spark against the single-machine oracle, in one local Spark session.

Skipped (with how to install) where pyspark or Java is missing.
"""

from __future__ import annotations

import shutil
from fractions import Fraction

import numpy as np
import pytest

from prtheory import oracle
from prtheory.errors import InvalidInputError, UndefinedMetricError

pyspark = pytest.importorskip(
    "pyspark", reason="needs pyspark: pip install 'prtheory[spark]' (and Java 17+)"
)
if shutil.which("java") is None:
    pytest.skip(
        "needs Java 17+ for pyspark: e.g. apt-get install openjdk-17-jre-headless",
        allow_module_level=True,
    )

from prtheory import spark as pspark  # noqa: E402


@pytest.fixture(scope="session")
def session():
    from prtheory.spark.session import local_session

    s = local_session(cores=2, partitions=3)
    yield s
    s.stop()


def _frame(session, y, s, w=None, slices=2):
    cols = [y, s] if w is None else [y, s, w]
    rows = [tuple(float(c[i]) for c in cols) for i in range(len(y))]
    names = ["label", "score"] if w is None else ["label", "score", "weight"]
    return session.createDataFrame(rows, names).repartition(slices)


def _random_case(rng, n, weighted):
    y = rng.integers(0, 2, n)
    y[0] = 1
    s = rng.integers(0, max(2, n // 3), n).astype(float) / 4  # many ties
    w = None
    if weighted:
        # dyadic and non-dyadic floats, integers and zeros
        w = rng.choice([0.0, 0.1, 0.5, 1.0, 3.0, 2.0**-40, 1e-3, 7.25], n)
    return y, s, w


@pytest.mark.parametrize("weighted", [False, True])
def test_average_precision_equals_oracle_exactly(session, weighted):
    rng = np.random.default_rng(7 + weighted)
    for n, partitions in [(1, 1), (61, 2), (200, 29)]:
        y, s, w = _random_case(rng, n, weighted)
        df = _frame(session, y, s, w)
        expected = oracle.average_precision(y, s, w)
        got = pspark.average_precision(
            df, weight_col=None if w is None else "weight", exact=True, partitions=partitions
        )
        assert got == expected, (n, partitions)


def test_float_is_the_rounded_exact_value(session):
    # AP = (1 + 2/3 + 3/7) / 3 = 44/63 is not a float; the result is its correct rounding
    df = _frame(session, [1, 0, 1, 1, 0, 0, 0, 0, 1], [9, 8, 7, 6, 5, 4, 3, 2, 1])
    expected = (1 + Fraction(2, 3) + Fraction(3, 4) + Fraction(4, 9)) / 4
    assert pspark.average_precision(df) == oracle.to_float(expected)


def test_hand_computed_values(session):
    # y=[0,1], s=[2,1]: the positive is at rank 2, AP = 1/2
    df = _frame(session, [0, 1], [2, 1])
    assert pspark.average_precision(df, exact=True) == Fraction(1, 2)
    # all tied: one operating point, precision 2/3 at recall 1
    df = _frame(session, [1, 0, 1], [5, 5, 5])
    assert pspark.average_precision(df, exact=True) == Fraction(2, 3)
    # weights 0.1 (not a dyadic decimal) taken at their exact binary value:
    # y=[1,0,1], s=[3,2,1], w=[0.1,0.1,0.2]: AP = (0.1 * 1 + 0.2 * (0.3/0.4)) / 0.3 with exact floats
    a, b = Fraction(0.1), Fraction(0.2)
    expected = (a * 1 + b * ((a + b) / (a + a + b))) / (a + b)
    df = _frame(session, [1, 0, 1], [3, 2, 1], [0.1, 0.1, 0.2])
    assert pspark.average_precision(df, weight_col="weight", exact=True) == expected
    # ±inf scores are ordinary extreme scores
    df = _frame(session, [0, 1, 1], [float("inf"), 0.0, float("-inf")])
    assert pspark.average_precision(df, exact=True) == (Fraction(1, 2) + Fraction(2, 3)) / 2


def test_bad_input_is_named(session):
    with pytest.raises(InvalidInputError, match="label_col"):
        pspark.average_precision(_frame(session, [0, 2], [1, 2]))
    with pytest.raises(InvalidInputError, match="score_col"):
        pspark.average_precision(_frame(session, [0, 1], [1, float("nan")]))
    with pytest.raises(InvalidInputError, match="weight_col"):
        pspark.average_precision(_frame(session, [0, 1], [1, 2], [1, -1]), weight_col="weight")
    with pytest.raises(InvalidInputError, match="weight_col"):
        pspark.average_precision(_frame(session, [0, 1], [1, 2]), weight_col="nope")
    with pytest.raises(InvalidInputError, match="partitions"):
        pspark.average_precision(_frame(session, [0, 1], [1, 2]), partitions=0)
    negatives = _frame(session, [0, 0], [1, 2])
    with pytest.raises(UndefinedMetricError):
        pspark.average_precision(negatives)
    assert pspark.average_precision(negatives, convention="sklearn") == 0.0


def test_per_group_equals_single_machine_per_query(session):
    rng = np.random.default_rng(3)
    rows, per_query = [], {}
    for q in range(12):
        n = int(rng.integers(1, 9))
        y = rng.integers(0, 2, n)
        y[0] = 1
        s = rng.integers(0, 4, n).astype(float)
        rows += [(q, float(a), float(b)) for a, b in zip(y, s, strict=True)]
        per_query[q] = (y, s)
    df = session.createDataFrame(rows, ["qid", "label", "score"]).repartition(3)
    cases = [
        ("average_precision", {}, lambda y, s: oracle.average_precision(y, s)),
        ("precision_at_k", {"k": 3}, lambda y, s: oracle.precision_at_k(y, s, 3)),
        (
            "r_precision",
            {"ties": "pessimistic"},
            lambda y, s: oracle.r_precision(y, s, ties="pessimistic"),
        ),
    ]
    for metric, opts, ref in cases:
        out, mean = pspark.per_group(df, "qid", metric, **opts)
        got = {r["qid"]: Fraction(r["exact"]) for r in out.collect()}
        expected = {q: ref(y, s) for q, (y, s) in per_query.items()}
        assert got == expected, metric
        assert mean == oracle.to_float(sum(expected.values()) / len(expected))
