"""Exact ranking metrics of data bigger than memory, through DuckDB: AP, PR and ROC areas, the PR
curve, P@k and R-precision, each equal to the single-machine oracle's value.

``source`` is a Parquet or CSV path, glob or list of paths, a DuckDB relation, or a pyarrow,
pandas or polars frame (:mod:`prtheory.duckdb.source`). DuckDB groups the rows by score and
sorts the distinct scores (:mod:`prtheory.duckdb.blocks`: its own parallel operators, spilling
to disk past their share of ``memory_limit``, :mod:`prtheory.duckdb.source`); Python takes the
blocks a piece at a time and the exact arithmetic of :mod:`prtheory.distributed.metrics` (the
same code as ``prtheory.spark``) sums them, rounding once. Memory is DuckDB's buffers, what
DuckDB allocates beside them, one piece of :data:`~prtheory.duckdb.blocks.PIECE_ROWS` blocks
and one small result per piece (the full
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
from prtheory.duckdb import extended
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

    Parameters
    ----------
    source : str, list of str, DuckDB relation, or pyarrow/pandas/polars frame
        A Parquet or CSV path or glob (or a list of them), a relation, or a frame.
    label, score : str
        The columns of the 0/1 (or boolean) labels and of the scores.
    weight : str or None
        The column of non-negative weights, taken at their exact binary values (default none).
    exact : bool
        True: the exact ``Fraction``; False (default): the correctly rounded float64.
    convention : {None, "sklearn"}
        ``"sklearn"``: 0 when there is no positive weight.
    score_index : int or None
        The element of a list or MLlib vector score column to use (``score="probability",
        score_index=1``).
    memory_limit : str or None
        The memory of the call for a path or frame (``"1GB"``): DuckDB's buffers get half
        of it and spill to disk past that (:mod:`prtheory.duckdb.source`).
    threads : int or None
        DuckDB's threads for a path or frame.

    Returns
    -------
    float or Fraction
        The AP.

    Raises
    ------
    InvalidInputError
        A missing column, a label not 0/1, a NaN or null score, a negative, infinite or null
        weight, naming the argument.
    UndefinedMetricError
        No positive weight (AP is 0/0), without ``convention="sklearn"``.

    See Also
    --------
    prtheory.oracle.average_precision : the same value from arrays in memory.
    prtheory.spark.average_precision : the same value from a Spark DataFrame.
    per_group : AP per group and its mean (MAP).

    Examples
    --------
    By hand: at 0.9 precision 1 at recall 1/2; the tied 0.8s add a positive and a negative,
    precision 2/3 at recall 1: ``AP = 1/2 + (1/2)(2/3) = 5/6``.

    >>> import pyarrow as pa
    >>> from prtheory import duckdb as pdb
    >>> table = pa.table({"label": [1, 0, 1, 0], "score": [0.9, 0.8, 0.8, 0.1]})
    >>> pdb.average_precision(table, exact=True)
    Fraction(5, 6)
    >>> pdb.average_precision(table)
    0.8333333333333334
    """
    with open_source(source, memory_limit, threads) as src:
        p = blocks(src, label, score, weight, score_index=score_index)
        if not exact and p.weighted and not p.per_exponent and extended.available():
            value, pos, neg = extended.average_precision(p.tables())
            if value is not None:
                return value
            p.set_totals(pos, neg)  # undecided or no positive weight: the general path
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

    Parameters
    ----------
    source : str, list of str, DuckDB relation, or pyarrow/pandas/polars frame
        A Parquet or CSV path or glob (or a list of them), a relation, or a frame.
    label, score : str
        The columns of the 0/1 (or boolean) labels and of the scores.
    weight : str or None
        The column of non-negative weights, taken at their exact binary values (default none).
    method : str
        ``"step"``, ``"trapezoid"``, ``"lower-trapezoid"``, ``"davis-goadrich"`` or
        ``"davis-goadrich-discrete"``.
    first_point : {None, "sklearn", "spark", "none"}
        The point prepended at recall 0, as :func:`prtheory.oracle.pr_auc`.
    exact : bool
        True: the exact ``Fraction`` (rational methods) or the oracle's ``mpf`` at ``dps``
        digits (Davis-Goadrich); False (default): the correctly rounded float64.
    dps : int
        Digits of a Davis-Goadrich ``mpf`` (default 50).
    score_index : int or None
        The element of a list or MLlib vector score column to use (``score="probability",
        score_index=1``).
    memory_limit : str or None
        The memory of the call for a path or frame (``"1GB"``): DuckDB's buffers get half
        of it and spill to disk past that (:mod:`prtheory.duckdb.source`).
    threads : int or None
        DuckDB's threads for a path or frame.

    Returns
    -------
    float, Fraction or mpmath.mpf
        The area.

    Raises
    ------
    InvalidInputError
        A missing column, a label not 0/1, a NaN or null score, a negative, infinite or null
        weight, naming the argument.
    UndefinedMetricError
        No positive weight.

    See Also
    --------
    prtheory.oracle.pr_auc : the same area from arrays in memory.
    average_precision : the step area.

    Examples
    --------
    By hand, with (recall 0, precision 1) prepended: ``1/2 * 1 + 1/2 * (1 + 2/3)/2 = 11/12``.

    >>> import pyarrow as pa
    >>> from prtheory import duckdb as pdb
    >>> table = pa.table({"label": [1, 0, 1, 0], "score": [0.9, 0.8, 0.8, 0.1]})
    >>> pdb.pr_auc(table, method="trapezoid", first_point="sklearn", exact=True)
    Fraction(11, 12)
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
    :func:`prtheory.oracle.roc_auc`; undefined unless both classes have weight.

    Parameters
    ----------
    source : str, list of str, DuckDB relation, or pyarrow/pandas/polars frame
        A Parquet or CSV path or glob (or a list of them), a relation, or a frame.
    label, score : str
        The columns of the 0/1 (or boolean) labels and of the scores.
    weight : str or None
        The column of non-negative weights, taken at their exact binary values (default none).
    exact : bool
        True: the exact ``Fraction``; False (default): the correctly rounded float64.
    score_index : int or None
        The element of a list or MLlib vector score column to use (``score="probability",
        score_index=1``).
    memory_limit : str or None
        The memory of the call for a path or frame (``"1GB"``): DuckDB's buffers get half
        of it and spill to disk past that (:mod:`prtheory.duckdb.source`).
    threads : int or None
        DuckDB's threads for a path or frame.

    Returns
    -------
    float or Fraction
        The probability that a positive outscores a negative, a tie counting 1/2.

    Raises
    ------
    InvalidInputError
        A missing column, a label not 0/1, a NaN or null score, a negative, infinite or null
        weight, naming the argument.
    UndefinedMetricError
        A class without weight.

    See Also
    --------
    prtheory.oracle.roc_auc : the same area from arrays in memory.

    Examples
    --------
    By hand: of the 4 (positive, negative) pairs, 3 are won and the tie at 0.8 counts 1/2:
    ``3.5/4 = 7/8``.

    >>> import pyarrow as pa
    >>> from prtheory import duckdb as pdb
    >>> table = pa.table({"label": [1, 0, 1, 0], "score": [0.9, 0.8, 0.8, 0.1]})
    >>> pdb.roc_auc(table, exact=True)
    Fraction(7, 8)
    """
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
    ``"pessimistic"``), equal to :func:`prtheory.oracle.precision_at_k`.

    Parameters
    ----------
    source : str, list of str, DuckDB relation, or pyarrow/pandas/polars frame
        A Parquet or CSV path or glob (or a list of them), a relation, or a frame.
    k : int
        The cutoff, at least 1.
    label, score : str
        The columns of the 0/1 (or boolean) labels and of the scores.
    ties : {"expected", "optimistic", "pessimistic"}
        How a cutoff inside a block of tied scores counts its positives.
    exact : bool
        True: the exact ``Fraction``; False (default): the correctly rounded float64.
    score_index : int or None
        The element of a list or MLlib vector score column to use (``score="probability",
        score_index=1``).
    memory_limit : str or None
        The memory of the call for a path or frame (``"1GB"``): DuckDB's buffers get half
        of it and spill to disk past that (:mod:`prtheory.duckdb.source`).
    threads : int or None
        DuckDB's threads for a path or frame.

    Returns
    -------
    float or Fraction
        The precision of the top ``k``.

    Raises
    ------
    InvalidInputError
        A missing column, a label not 0/1, a NaN or null score, a negative, infinite or null
        weight, naming the argument.

    See Also
    --------
    prtheory.oracle.precision_at_k : the same value from arrays in memory.
    r_precision : the cutoff at the number of positives.

    Examples
    --------
    By hand: the top 2 are the 0.9 (positive) and one of the two tied 0.8s, positive with
    probability 1/2: ``(1 + 1/2)/2 = 3/4``.

    >>> import pyarrow as pa
    >>> from prtheory import duckdb as pdb
    >>> table = pa.table({"label": [1, 0, 1, 0], "score": [0.9, 0.8, 0.8, 0.1]})
    >>> pdb.precision_at_k(table, 2, exact=True)
    Fraction(3, 4)
    >>> pdb.precision_at_k(table, 2, ties="optimistic", exact=True)
    Fraction(1, 1)
    """
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
    ``convention="sklearn"`` (as AP).

    Parameters
    ----------
    source : str, list of str, DuckDB relation, or pyarrow/pandas/polars frame
        A Parquet or CSV path or glob (or a list of them), a relation, or a frame.
    label, score : str
        The columns of the 0/1 (or boolean) labels and of the scores.
    ties : {"expected", "optimistic", "pessimistic"}
        How a cutoff inside a block of tied scores counts its positives.
    exact : bool
        True: the exact ``Fraction``; False (default): the correctly rounded float64.
    convention : {None, "sklearn"}
        ``"sklearn"``: 0 when there is no positive.
    score_index : int or None
        The element of a list or MLlib vector score column to use (``score="probability",
        score_index=1``).
    memory_limit : str or None
        The memory of the call for a path or frame (``"1GB"``): DuckDB's buffers get half
        of it and spill to disk past that (:mod:`prtheory.duckdb.source`).
    threads : int or None
        DuckDB's threads for a path or frame.

    Returns
    -------
    float or Fraction
        ``P@R``.

    Raises
    ------
    InvalidInputError
        A missing column, a label not 0/1, a NaN or null score, a negative, infinite or null
        weight, naming the argument.
    UndefinedMetricError
        No positive, without ``convention="sklearn"``.

    See Also
    --------
    precision_at_k : any cutoff.

    Examples
    --------
    Two positives, so ``R = 2``: the value of ``precision_at_k(table, 2)``, 3/4.

    >>> import pyarrow as pa
    >>> from prtheory import duckdb as pdb
    >>> table = pa.table({"label": [1, 0, 1, 0], "score": [0.9, 0.8, 0.8, 0.1]})
    >>> pdb.r_precision(table, exact=True)
    Fraction(3, 4)
    """
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

    Parameters
    ----------
    source : str, list of str, DuckDB relation, or pyarrow/pandas/polars frame
        A Parquet or CSV path or glob (or a list of them), a relation, or a frame.
    label, score : str
        The columns of the 0/1 (or boolean) labels and of the scores.
    weight : str or None
        The column of non-negative weights, taken at their exact binary values (default none).
    first_point : {"sklearn", "spark", "none"}
        The point prepended at recall 0 (default ``"sklearn"``: precision 1).
    max_points : int or None
        Keep only the points that open a new ``1/max_points`` of recall or predicted weight.
    exact : bool
        True: the oracle's exact ``PRCurve``; False (default): correctly rounded arrays.
    convention : str or None
        As :func:`prtheory.oracle.pr_curve`.
    score_index : int or None
        The element of a list or MLlib vector score column to use (``score="probability",
        score_index=1``).
    memory_limit : str or None
        The memory of the call for a path or frame (``"1GB"``): DuckDB's buffers get half
        of it and spill to disk past that (:mod:`prtheory.duckdb.source`).
    threads : int or None
        DuckDB's threads for a path or frame.

    Returns
    -------
    tuple of numpy.ndarray, or PRCurve
        ``precision, recall, thresholds`` (increasing thresholds), or the exact curve.

    Raises
    ------
    InvalidInputError
        A missing column, a label not 0/1, a NaN or null score, a negative, infinite or null
        weight, naming the argument.
        ``max_points`` not an integer >= 1.
    UndefinedMetricError
        No positive weight (recall is 0/0).

    See Also
    --------
    prtheory.precision_recall_curve : the same arrays from data in memory.

    Examples
    --------
    By hand, by increasing threshold: at 0.1 every row is predicted, precision 2/4 at recall 1;
    at 0.8 precision 2/3, recall 1; at 0.9 precision 1, recall 1/2; then the prepended
    (recall 0, precision 1).

    >>> import pyarrow as pa
    >>> from prtheory import duckdb as pdb
    >>> table = pa.table({"label": [1, 0, 1, 0], "score": [0.9, 0.8, 0.8, 0.1]})
    >>> precision, recall, thresholds = pdb.precision_recall_curve(table)
    >>> precision.tolist(), recall.tolist(), thresholds.tolist()
    ([0.5, 0.6666666666666666, 1.0, 1.0], [1.0, 1.0, 0.5, 0.0], [0.1, 0.8, 0.9])
    """
    check_first_point(first_point)
    if max_points is not None and (
        isinstance(max_points, bool) or not isinstance(max_points, int) or max_points < 1
    ):
        raise InvalidInputError("max_points", f"must be an integer >= 1, got {max_points!r}")
    with open_source(source, memory_limit, threads) as src:
        p = blocks(src, label, score, weight, score_index=score_index)
        pos, neg = p.pos, p.neg
        parts = []
        for piece, thresholds in p.pieces(with_scores=True):
            tp, n = piece.cumulative()
            at = (
                np.arange(tp.size)
                if max_points is None
                else _kept(tp, n, (piece.tp, piece.n), max(pos, 1), pos + neg, max_points)
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
    if pos + neg >= 2**62:  # exact weights past int64: Python integers throughout
        tp, n = tp.astype(object), n.astype(object)
    points = OperatingPoints(thresholds, tp, n - tp, pos, neg, 1 << p.k)
    curve = pr_curve_of_points(points, first_point=first_point, convention=convention)
    return curve if exact else _sklearn_order(curve)


def _sklearn_order(curve: PRCurve) -> Any:
    """The exact curve as :func:`prtheory.precision_recall_curve` returns it: correctly rounded,
    increasing thresholds, the first point last."""
    from prtheory.metrics.curves import PrecisionRecallCurve

    precision, recall = curve.precision.to_float(), curve.recall.to_float()
    thresholds = curve.thresholds[int(curve.first_point != "none") :]
    return PrecisionRecallCurve(precision[::-1], recall[::-1], thresholds[::-1])
