"""Hostile frames: the cases every engine path (``prtheory.spark``, ``prtheory.duckdb``) must
evaluate exactly as the single-machine oracle does, on the same data.

Each :class:`HostileFrame` is a small ranking chosen to break a piece-wise evaluation: ties
that straddle pieces and input partitions, skewed and empty pieces, one row, ``±inf``, ``-0.0``
beside ``0.0``, weights of ``1e308`` (whose sum overflows float64) and subnormal weights, a
zero-weight top block, integer weights beyond 2**53, and column names with dots, backticks,
quotes and spaces. :meth:`HostileFrame.calls` lists the metric calls that apply (engine-neutral:
the function's name and its keyword options) and :func:`oracle_value` gives the oracle's value
of each, computed from the arrays, so an engine's test only has to build its frame from the
case and map the names of the columns.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from prtheory import oracle
from prtheory.errors import UndefinedMetricError

__all__ = ["HOSTILE", "Call", "HostileFrame", "oracle_float", "oracle_value", "wide_weights"]

#: ``(name, options)``: a metric function of an engine and its keyword arguments.
Call = tuple[str, dict[str, Any]]

#: Plain column names, and names an engine must take literally (a dot is not a struct path, a
#: backtick or a quote is not the end of an identifier).
PLAIN = ("label", "score", "weight")
HOSTILE_NAMES = ("my.label", "sc`ore", 'w "t')


@dataclass(frozen=True)
class HostileFrame:
    """One case: labels, scores, optional weights (integer weights as an int64 column), the
    number of input partitions or files (``slices``; more than rows leaves some empty), the
    piece counts to try, and the column names."""

    name: str
    y: np.ndarray
    s: np.ndarray
    w: np.ndarray | None = None
    slices: int = 2
    pieces: tuple[int, ...] = (1, 3)
    names: tuple[str, str, str] = PLAIN
    dg: bool = True  # Davis-Goadrich areas too (a logarithm per segment: small cases only)

    @property
    def weighted(self) -> bool:
        return self.w is not None

    def rows(self) -> list[tuple]:
        """The rows as Python values (floats, or ints for integer weights)."""
        cols: list[Any] = [self.y.tolist(), self.s.tolist()]
        if self.w is not None:
            cols.append(self.w.tolist())
        return list(zip(*cols, strict=True))

    def slice_bounds(self) -> list[tuple[int, int]]:
        """``slices`` contiguous row ranges (some empty when there are more slices than rows)."""
        edges = np.linspace(0, self.y.size, self.slices + 1).astype(int)
        return list(zip(edges[:-1].tolist(), edges[1:].tolist(), strict=True))

    def core_calls(self) -> list[Call]:
        """One call of each function that applies (for an engine whose every call is a job):
        AP, ROC, the MLlib trapezoid, one Davis-Goadrich area, one P@k and one R-precision."""
        keep = {
            ("average_precision", ()),
            ("roc_auc", ()),
            ("pr_auc", (("first_point", "mllib"), ("method", "trapezoid"))),
            ("pr_auc", (("first_point", "spark"), ("method", "davis-goadrich"))),
            ("r_precision", (("ties", "expected"),)),
        }
        calls = [c for c in self.calls() if (c[0], tuple(sorted(c[1].items()))) in keep]
        return calls + [c for c in self.calls() if c[0] == "precision_at_k"][-1:]

    def calls(self) -> list[Call]:
        """Every metric call that applies to the case (unit-weight metrics only without
        weights)."""
        out: list[Call] = [
            ("average_precision", {}),
            ("average_precision", {"convention": "sklearn"}),
            ("roc_auc", {}),
            ("pr_auc", {"method": "step"}),
        ]
        for fp in ("none", "sklearn", "spark", "mllib"):
            out.append(("pr_auc", {"method": "trapezoid", "first_point": fp}))
        out.append(("pr_auc", {"method": "lower-trapezoid", "first_point": "sklearn"}))
        if self.dg:
            for fp in ("none", "spark"):
                out.append(("pr_auc", {"method": "davis-goadrich", "first_point": fp}))
                if not self.weighted:
                    out.append(("pr_auc", {"method": "davis-goadrich-discrete", "first_point": fp}))
        if not self.weighted:
            n = self.y.size
            policies = ("expected", "optimistic", "pessimistic")
            for i, k in enumerate(sorted({1, (n + 1) // 2, n + 3})):
                out.append(("precision_at_k", {"k": k, "ties": policies[i % 3]}))
            for ties in policies:
                out.append(("r_precision", {"ties": ties}))
            out.append(("r_precision", {"convention": "sklearn"}))
        return out


def oracle_value(case: HostileFrame, call: Call) -> Any:
    """The oracle's exact value of ``call`` on the case's arrays, or the
    :class:`~prtheory.errors.UndefinedMetricError` class when it is undefined."""
    name, opts = call
    y, s, w = case.y, case.s, case.w
    try:
        if name == "average_precision":
            return oracle.average_precision(y, s, w, **opts)
        if name == "roc_auc":
            return oracle.roc_auc(y, s, w)
        if name == "pr_auc":
            return oracle.pr_auc(y, s, w, **opts)
        if name == "precision_at_k":
            return oracle.precision_at_k(y, s, opts["k"], ties=opts["ties"])
        if not y.any() and opts.get("convention") == "sklearn":  # the engines' R-precision
            return Fraction(0)  # convention, as AP's: no positives, R-precision 0
        return oracle.r_precision(y, s, ties=opts.get("ties", "expected"))
    except UndefinedMetricError:
        return UndefinedMetricError


def oracle_float(case: HostileFrame, call: Call, exact: Any) -> Any:
    """The correctly rounded float64 of the oracle's value ``exact`` (Davis-Goadrich: rounded
    by Ziv's strategy)."""
    if exact is UndefinedMetricError:
        return exact
    opts = call[1]
    if opts.get("method") == "davis-goadrich":
        return oracle.rounded(oracle.pr_auc, case.y, case.s, case.w, **opts)
    return oracle.to_float(exact)


def _cases() -> list[HostileFrame]:
    rng = np.random.default_rng(20260415)
    cases = [
        HostileFrame("one-row", np.array([1]), np.array([0.5]), slices=3, pieces=(1, 2)),
        HostileFrame("one-negative", np.array([0]), np.array([0.5]), pieces=(1,)),
        HostileFrame(
            "all-tied", np.array([1, 0, 1, 0, 0]), np.full(5, 5.0), slices=3, pieces=(1, 4)
        ),
    ]
    # 200 rows on 7 scores: every piece cut meets a tie, and ties cross the input partitions
    y = rng.integers(0, 2, 200)
    s = rng.integers(0, 7, 200).astype(float) / 8
    cases.append(HostileFrame("ties-straddling", y, s, slices=3, pieces=(2, 5, 9), dg=False))
    # one score holds 480 of 500 rows: the split points cannot balance, pieces stay empty
    y = rng.integers(0, 2, 500)
    s = np.where(np.arange(500) < 480, 0.5, rng.random(500))
    cases.append(HostileFrame("skewed", y, rng.permutation(s), slices=4, pieces=(3, 8), dg=False))
    cases.append(
        HostileFrame("empty-partitions", np.array([0, 1, 1]), np.array([2.0, 1.0, 3.0]), slices=7)
    )
    inf = float("inf")
    cases.append(
        HostileFrame(
            "infinities",
            np.array([0, 1, 1, 0, 1, 0]),
            np.array([inf, 0.0, -inf, inf, 1e308, -1e308]),
            pieces=(1, 3),
        )
    )
    # -0.0 and 0.0 are one score: kept apart, the positive at -0.0 would rank below 0.0
    cases.append(
        HostileFrame(
            "signed-zero",
            np.array([1, 0, 1, 0, 0, 1]),
            np.array([-0.0, 0.0, 1.0, -0.0, 0.0, -1.0]),
            slices=3,
            pieces=(1, 2),
        )
    )
    # 1e308 twice overflows a float sum; 5e-324 and 2**-1074 are subnormal, 2**-1000 and 2**900
    # far apart in exponent: exact only as integers over 2**1074
    weights = np.array([1e308, 1e308, 5e-324, 2.0**-1000, 0.0, 2.0**900, 0.1, 1e308, 5e-324, 3.0])
    cases.append(
        HostileFrame(
            "extreme-weights",
            np.array([1, 0, 1, 1, 0, 0, 1, 1, 0, 0]),
            np.array([0.9, 0.8, 0.8, 0.7, 0.6, 0.6, 0.5, 0.2, 0.2, 0.1]),
            weights,
            slices=3,
            pieces=(1, 4),
        )
    )
    # the top block has zero weight: MLlib's empty classifier, precision 1 (first_point="mllib")
    cases.append(
        HostileFrame(
            "zero-weight-top",
            np.array([0, 1, 0, 1, 0]),
            np.array([3.0, 2.0, 2.0, 1.0, 0.5]),
            np.array([0.0, 1.0, 1.0, 0.25, 2.0]),
            pieces=(1, 2),
        )
    )
    cases.append(
        HostileFrame(
            "integer-weights",
            np.array([0, 1, 1, 0]),
            np.array([2.0, 1.0, 1.0, 0.0]),
            np.array([2**62 + 1, 3, 2**53 + 1, 0], dtype=np.int64),
            pieces=(1, 2),
        )
    )
    y = rng.integers(0, 2, 60)
    y[0] = 1
    w = rng.choice([0.0, 0.1, 0.5, 1.0, 7.25, 2.0**-40, 1e-3], 60)
    cases.append(
        HostileFrame(
            "hostile-names",
            y,
            rng.integers(0, 20, 60).astype(float) / 4,
            w,
            slices=3,
            pieces=(2, 5),
            names=HOSTILE_NAMES,
        )
    )
    cases += _large_cases(rng)
    return cases


def wide_weights(rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` float weights from about 2^-40 to 2^40 (a uniform draw times a power of two), about
    5 % of them 0: exact only as wide fixed-point sums, and zero-weight items among them."""
    return rng.random(n) * np.exp2(rng.integers(-40, 41, n)) * (rng.random(n) > 0.05)


def _large_cases(rng: np.random.Generator) -> list[HostileFrame]:
    """Past 10^4 rows, where an engine could switch strategy (batching, pieces, fixed-width
    sums): 30,000 rows on 3,000 scores with ±0.0, ±inf and ±MAX among them, weighted by floats
    from 2^-40 to 2^40 with zeros; and 30,000 unweighted rows on 1,000 scores."""
    n, big = 30_000, np.finfo(np.float64).max
    special = [0.0, -0.0, np.inf, -np.inf, big, -big]
    s = rng.integers(0, 3000, n) / 3000
    s[rng.choice(n, 24, replace=False)] = special * 4
    w = wide_weights(rng, n)
    weighted = HostileFrame(
        "large-weighted",
        (rng.random(n) < 0.3).astype(np.int64),
        s,
        w,
        slices=3,
        pieces=(1, 4),
        dg=False,
    )
    s = rng.integers(0, 1000, n) / 1000
    unweighted = HostileFrame(
        "large-ties", (rng.random(n) < 0.1).astype(np.int64), s, slices=3, pieces=(1, 5), dg=False
    )
    return [weighted, unweighted]


#: The shared cases (deterministic: seeded).
HOSTILE = _cases()


#: Per-group calls ``(metric, options, the oracle's value of one query from y, s, doc ids)``;
#: ``"doc"`` in the options stands for the engine's document-id argument.
GROUPED_CALLS: list[tuple[str, dict[str, Any], Any]] = [
    ("average_precision", {}, lambda y, s, d: oracle.average_precision(y, s)),
    ("precision_at_k", {"k": 3}, lambda y, s, d: oracle.precision_at_k(y, s, 3)),
    (
        "r_precision",
        {"ties": "pessimistic"},
        lambda y, s, d: oracle.r_precision(y, s, ties="pessimistic"),
    ),
    (
        "average_precision",
        {"ties": "trec_eval", "doc": "doc"},
        lambda y, s, d: oracle.average_precision(y, s, ties="trec_eval", doc_ids=d),
    ),
]


def grouped_queries(groups: int = 12, seed: int = 3) -> tuple[list[tuple], dict]:
    """Rows ``(query, label, score, doc id)`` of ``groups`` queries of 1 to 8 items (each with a
    relevant item, tied scores), and each query's ``(y, s, doc ids)``."""
    rng = np.random.default_rng(seed)
    rows: list[tuple] = []
    per_query = {}
    for q in range(groups):
        n = int(rng.integers(1, 9))
        y = rng.integers(0, 2, n)
        y[0] = 1
        s = rng.integers(0, 4, n).astype(float)
        docs = [f"d{q}-{i}" for i in range(n)]
        rows += [(q, int(a), float(b), d) for a, b, d in zip(y, s, docs, strict=True)]
        per_query[q] = (y, s, docs)
    return rows, per_query
