"""Exact P@k and R-precision of one ranking held in a Spark DataFrame (claims N4, N5).

``P@k = E[TP in the top k] / k`` (missing items count as false positives when ``k > n``) and
``R-precision = P@R`` with ``R = pos``. Tied scores form blocks that no piece splits, so the
cutoff falls inside at most one block, where the tie policy decides: ``"expected"`` (the exact
expectation over random orders of the block, the oracle's default), ``"optimistic"`` or
``"pessimistic"`` (:func:`prtheory.distributed.top_terms`). Unit weights only (``k`` counts
items). Equal to :func:`prtheory.oracle.precision_at_k` / :func:`~prtheory.oracle.r_precision`.
"""

from __future__ import annotations

from fractions import Fraction

from prtheory.distributed import metrics
from prtheory.spark.blocks import pieces

__all__ = ["precision_at_k", "r_precision"]


def precision_at_k(
    df,
    k: int,
    label_col: str = "label",
    score_col: str = "score",
    *,
    ties: str = "expected",
    exact: bool = False,
    partitions: int | None = None,
    score_index: int | None = None,
) -> float | Fraction:
    """``P@k`` of the DataFrame's ranking, exact or correctly rounded (N4).

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        The rows (classic Spark or Spark Connect).
    k : int
        The cutoff, at least 1.
    label_col, score_col : str
        The columns of the 0/1 (or boolean) labels and of the scores.
    ties : {"expected", "optimistic", "pessimistic"}
        How a cutoff inside a block of tied scores counts its positives.
    exact : bool
        True: the exact ``Fraction``; False (default): the correctly rounded float64.
    partitions : int or None
        The number of score ranges (default: from the session's cores and the frame's size).
    score_index : int or None
        The element of a vector or array score column (``score_index=1``: the positive class).

    Returns
    -------
    float or Fraction
        The precision of the top ``k``.

    Raises
    ------
    InvalidInputError
        A missing column, a label not 0/1, a NaN or null score, a negative, infinite or null
        weight, naming the column.

    See Also
    --------
    prtheory.oracle.precision_at_k : the same value from arrays in memory.

    Examples
    --------
    By hand: the top 2 are the 0.9 (positive) and one of the two tied 0.8s, positive with
    probability 1/2: ``(1 + 1/2)/2 = 3/4``.

    >>> from pyspark.sql import SparkSession
    >>> from prtheory import spark
    >>> session = SparkSession.builder.getOrCreate()
    >>> df = session.createDataFrame([(1, 0.9), (0, 0.8), (1, 0.8), (0, 0.1)], ["label", "score"])
    >>> spark.precision_at_k(df, 2, exact=True)
    Fraction(3, 4)
    """
    metrics.check_top(k, ties)
    with pieces(
        df, label_col, score_col, None, partitions, unit_weights=True, score_index=score_index
    ) as p:
        return metrics.precision_at_k(p, k, ties, exact)


def r_precision(
    df,
    label_col: str = "label",
    score_col: str = "score",
    *,
    ties: str = "expected",
    exact: bool = False,
    partitions: int | None = None,
    convention: str | None = None,
    score_index: int | None = None,
) -> float | Fraction:
    """R-precision ``P@R``, ``R`` = the number of positives; with no positives undefined, or 0
    with ``convention="sklearn"`` (as AP).

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        The rows (classic Spark or Spark Connect).
    label_col, score_col : str
        The columns of the 0/1 (or boolean) labels and of the scores (a column of MLlib vectors
        or arrays is read at ``score_index``).
    ties : {"expected", "optimistic", "pessimistic"}
        How a cutoff inside a block of tied scores counts its positives.
    exact : bool
        True: the exact ``Fraction``; False (default): the correctly rounded float64.
    convention : {None, "sklearn"}
        ``"sklearn"``: 0 when there is no positive.
    partitions : int or None
        The number of score ranges (default: from the session's cores and the frame's size).
    score_index : int or None
        The element of a vector or array score column (``score_index=1``: the positive class).

    Returns
    -------
    float or Fraction
        ``P@R``.

    Raises
    ------
    InvalidInputError
        A missing column, a label not 0/1, a NaN or null score, a negative, infinite or null
        weight, naming the column.
    UndefinedMetricError
        No positive, without ``convention="sklearn"``.

    See Also
    --------
    precision_at_k : any cutoff.

    Examples
    --------
    Two positives, so ``R = 2``: the value of ``precision_at_k(df, 2)``, 3/4.

    >>> from pyspark.sql import SparkSession
    >>> from prtheory import spark
    >>> session = SparkSession.builder.getOrCreate()
    >>> df = session.createDataFrame([(1, 0.9), (0, 0.8), (1, 0.8), (0, 0.1)], ["label", "score"])
    >>> spark.r_precision(df, exact=True)
    Fraction(3, 4)
    """
    metrics.check_top(1, ties)
    with pieces(
        df, label_col, score_col, None, partitions, unit_weights=True, score_index=score_index
    ) as p:
        return metrics.r_precision(p, ties, exact, convention)
