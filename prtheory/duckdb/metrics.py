"""Exact ranking metrics of data bigger than memory, through DuckDB: AP, PR and ROC areas, the PR
curve, P@k and R-precision, each equal to the single-machine oracle's value.

``source`` is a Parquet or CSV path, glob or list of paths, a DuckDB relation, or a pyarrow,
pandas or polars frame (:mod:`prtheory.duckdb.source`). DuckDB groups the rows by score and
sorts the distinct scores (:mod:`prtheory.duckdb.blocks`: its own parallel operators, spilling
to disk past ``memory_limit``); Python takes the blocks a piece at a time and the exact
arithmetic of :mod:`prtheory.distributed.metrics` (the same code as ``prtheory.spark``) sums
them, rounding once. Memory is DuckDB's ``memory_limit`` plus one piece of
:data:`~prtheory.duckdb.blocks.PIECE_ROWS` blocks and one small result per piece (the full
curve of :func:`precision_recall_curve` holds a point per distinct score: ask for
``max_points``).

Columns: ``label`` 0/1 or boolean; ``score`` any number, compared as DOUBLE (``±inf``
allowed; a list/array or Spark MLlib vector column at ``score_index``); ``weight`` (optional)
DOUBLE, FLOAT or integer, finite and >= 0, taken at its exact value. Malformed rows raise
:class:`~prtheory.errors.InvalidInputError` naming the argument before any metric is computed.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from prtheory.distributed import metrics
from prtheory.duckdb.blocks import blocks
from prtheory.duckdb.source import open_source
from prtheory.errors import InvalidInputError
from prtheory.oracle.counts import OperatingPoints
from prtheory.oracle.curves import PRCurve, check_first_point, pr_curve_of_points

__all__ = [
    "average_precision",
    "pr_auc",
    "precision_at_k",
    "precision_recall_curve",
    "r_precision",
    "roc_auc",
]


def average_precision(
    source: Any,
    label: str = "label",
    score: str = "score",
    weight: str | None = None,
    *,
    exact: bool = False,
    convention: str | None = None,
    score_index: int | None = None,
    memory_limit: str | None = None,
    threads: int | None = None,
) -> float | Fraction:
    """Step AP (claim N2, tied scores grouped, as scikit-learn): the correctly rounded float64,
    or with ``exact=True`` the Fraction equal to :func:`prtheory.oracle.average_precision`.

    With no positive weight AP is undefined (:class:`~prtheory.errors.UndefinedMetricError`; 0
    with ``convention="sklearn"``). ``memory_limit`` (``"1GB"``) and ``threads`` configure the
    DuckDB connection opened for a path or frame.

    >>> import pyarrow as pa
    >>> from prtheory import duckdb as pdb
    >>> table = pa.table({"label": [1, 0, 1], "score": [0.9, 0.5, 0.5]})
    >>> pdb.average_precision(table, exact=True)  # by hand: 1/2 + (1/2)(2/3)
    Fraction(5, 6)
    """
    with open_source(source, memory_limit, threads) as src:
        p = blocks(src, label, score, weight, score_index=score_index)
        return metrics.average_precision(p, exact, convention)


def pr_auc(
    source: Any,
    label: str = "label",
    score: str = "score",
    weight: str | None = None,
    *,
    method: str,
    first_point: str | None = None,
    exact: bool = False,
    dps: int = 50,
    score_index: int | None = None,
    memory_limit: str | None = None,
    threads: int | None = None,
) -> float | Fraction | mpmath.mpf:
    """Area under the PR curve over recall [0, 1] by any method of
    :func:`prtheory.oracle.pr_auc` (``"step"``, ``"trapezoid"``, ``"lower-trapezoid"``,
    ``"davis-goadrich"``, ``"davis-goadrich-discrete"``) from any first point it takes.

    Rational methods give the exact Fraction with ``exact=True``, Davis-Goadrich the oracle's
    ``mpf`` at ``dps`` digits; otherwise the correctly rounded float64. Undefined without
    positive weight.
    """
    metrics.check_pr_auc(method, first_point, dps)
    with open_source(source, memory_limit, threads) as src:
        p = blocks(src, label, score, weight, score_index=score_index)
        return metrics.pr_auc(p, method, first_point, exact, dps)


def roc_auc(
    source: Any,
    label: str = "label",
    score: str = "score",
    weight: str | None = None,
    *,
    exact: bool = False,
    score_index: int | None = None,
    memory_limit: str | None = None,
    threads: int | None = None,
) -> float | Fraction:
    """Area under the ROC curve (ties: diagonal segments), equal to
    :func:`prtheory.oracle.roc_auc`; undefined unless both classes have weight."""
    with open_source(source, memory_limit, threads) as src:
        return metrics.roc_auc(blocks(src, label, score, weight, score_index=score_index), exact)


def precision_at_k(
    source: Any,
    k: int,
    label: str = "label",
    score: str = "score",
    *,
    ties: str = "expected",
    exact: bool = False,
    score_index: int | None = None,
    memory_limit: str | None = None,
    threads: int | None = None,
) -> float | Fraction:
    """``P@k`` (N4; missing items are false positives when ``k`` exceeds the rows), with a
    cutoff inside a tied block by ``ties`` (``"expected"``, ``"optimistic"``,
    ``"pessimistic"``), equal to :func:`prtheory.oracle.precision_at_k`."""
    metrics.check_top(k, ties)
    with open_source(source, memory_limit, threads) as src:
        p = blocks(src, label, score, None, score_index=score_index)
        return metrics.precision_at_k(p, k, ties, exact)


def r_precision(
    source: Any,
    label: str = "label",
    score: str = "score",
    *,
    ties: str = "expected",
    exact: bool = False,
    convention: str | None = None,
    score_index: int | None = None,
    memory_limit: str | None = None,
    threads: int | None = None,
) -> float | Fraction:
    """R-precision ``P@R`` with ``R`` the number of positives (N5), equal to
    :func:`prtheory.oracle.r_precision`; with no positives undefined, or 0 with
    ``convention="sklearn"`` (as AP)."""
    metrics.check_top(1, ties)
    with open_source(source, memory_limit, threads) as src:
        p = blocks(src, label, score, None, score_index=score_index)
        return metrics.r_precision(p, ties, exact, convention)


def _kept(tp: np.ndarray, n: np.ndarray, prev: tuple[int, int], pos: int, total: int, m: int):
    """Indices of the points that open a new ``1/m`` bin of recall (``TP/pos``) or of the
    predicted fraction (``N/total``) after the point ``prev`` before them."""
    tps = np.concatenate(([prev[0]], tp)).astype(object)
    ns = np.concatenate(([prev[1]], n)).astype(object)
    by_recall, by_rank = tps * m // pos, ns * m // total
    opens = (by_recall[1:] != by_recall[:-1]) | (by_rank[1:] != by_rank[:-1])
    return np.flatnonzero(opens)


def precision_recall_curve(
    source: Any,
    label: str = "label",
    score: str = "score",
    weight: str | None = None,
    *,
    first_point: str = "sklearn",
    max_points: int | None = None,
    exact: bool = False,
    convention: str | None = None,
    score_index: int | None = None,
    memory_limit: str | None = None,
    threads: int | None = None,
) -> Any:
    """The PR curve: ``(precision, recall, thresholds)`` in scikit-learn's order, each value
    correctly rounded (as :func:`prtheory.precision_recall_curve`), or with ``exact=True`` the
    oracle's exact :class:`~prtheory.oracle.curves.PRCurve` (decreasing thresholds).

    Every operating point (one per distinct score, all held in memory), or with
    ``max_points=m`` (for plotting) only the points that open a new ``1/m`` of recall or of the
    predicted weight, and the last point: at most ``2 m + 1`` operating points, each exact.
    ``first_point`` and ``convention`` as :func:`prtheory.oracle.pr_curve`.
    """
    check_first_point(first_point)
    if max_points is not None and (
        isinstance(max_points, bool) or not isinstance(max_points, int) or max_points < 1
    ):
        raise InvalidInputError("max_points", f"must be an integer >= 1, got {max_points!r}")
    with open_source(source, memory_limit, threads) as src:
        p = blocks(src, label, score, weight, score_index=score_index)
        parts = []
        for piece, thresholds in p.pieces(with_scores=True):
            tp, n = piece.cumulative()
            at = (
                np.arange(tp.size)
                if max_points is None
                else _kept(tp, n, (piece.tp, piece.n), max(p.pos, 1), p.pos + p.neg, max_points)
            )
            parts.append((thresholds, tp, n, at))
    if max_points is not None and parts:  # the last point, if no bin opened there
        thresholds, tp, n, at = parts[-1]
        if at.size == 0 or at[-1] != tp.size - 1:
            parts[-1] = (thresholds, tp, n, np.append(at, tp.size - 1))
    if parts:
        thresholds = np.concatenate([t[at] for t, _, _, at in parts])
        tp = np.concatenate([c[at] for _, c, _, at in parts])
        n = np.concatenate([c[at] for _, _, c, at in parts])
    else:
        thresholds, tp, n = (np.zeros(0, dtype=dt) for dt in (float, np.int64, np.int64))
    if p.pos + p.neg >= 2**62:  # exact weights past int64: Python integers throughout
        tp, n = tp.astype(object), n.astype(object)
    points = OperatingPoints(thresholds, tp, n - tp, p.pos, p.neg, 1 << p.k)
    curve = pr_curve_of_points(points, first_point=first_point, convention=convention)
    return curve if exact else _sklearn_order(curve)


def _sklearn_order(curve: PRCurve) -> Any:
    """The exact curve as :func:`prtheory.precision_recall_curve` returns it: correctly rounded,
    increasing thresholds, the first point last."""
    from prtheory.metrics.curves import PrecisionRecallCurve

    precision, recall = curve.precision.to_float(), curve.recall.to_float()
    thresholds = curve.thresholds[int(curve.first_point != "none") :]
    return PrecisionRecallCurve(precision[::-1], recall[::-1], thresholds[::-1])
