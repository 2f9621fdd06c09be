"""Exact average precision of a Spark DataFrame, correctly rounded (claim N2, ties grouped).

``AP = (1/pos) sum_i gain_i TP_i / N_i`` over the distinct scores ``i`` in decreasing order
(``gain_i`` the positive weight of score ``i``, ``TP_i``/``N_i`` the cumulative positive/total
weight through it). The DataFrame becomes range pieces of exact blocks in one shuffle
(:mod:`prtheory.spark.blocks`); each piece evaluates its terms where it lives
(:func:`prtheory.distributed.ap_terms`) and returns an integer interval (or, with
``exact=True``, its exact partial sum); the driver adds one result per piece and rounds once
(:func:`prtheory.distributed.metrics.average_precision`). Equal to
:func:`prtheory.oracle.average_precision` (``ties="group"``) exactly.
"""

from __future__ import annotations

from fractions import Fraction

from prtheory.distributed import metrics
from prtheory.spark.blocks import pieces

__all__ = ["average_precision"]


def average_precision(
    df,
    label_col: str = "label",
    score_col: str = "score",
    weight_col: str | None = None,
    *,
    exact: bool = False,
    partitions: int | None = None,
    convention: str | None = None,
    score_index: int | None = None,
) -> float | Fraction:
    """Exact step AP of a Spark DataFrame (claim N2; tied scores grouped, as scikit-learn).

    Returns the correctly rounded float64, or the exact :class:`~fractions.Fraction` with
    ``exact=True``; equal to :func:`prtheory.oracle.average_precision` on the collected columns.
    Labels are 0/1 (or booleans), scores any non-NaN numbers compared as doubles (``±inf``
    allowed), weights finite and >= 0 (float weights at their exact binary value, integer
    weights exactly). A score column holding MLlib vectors or arrays (``probability``,
    ``rawPrediction``) is read at ``score_index`` (``score_index=1``: the positive class).
    ``partitions`` is the number of score ranges (default: 4 per core of
    the session, fewer for frames under about 5 x 10^5 rows per core:
    :func:`prtheory.spark.blocks.default_pieces`). With no positive weight AP is undefined
    (:class:`~prtheory.errors.UndefinedMetricError`; 0 with ``convention="sklearn"``).

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        The rows (classic Spark or Spark Connect).
    label_col, score_col : str
        The columns of the 0/1 (or boolean) labels and of the scores (a column of MLlib vectors
        or arrays is read at ``score_index``).
    weight_col : str or None
        The column of non-negative weights, at their exact binary values (default none).
    exact : bool
        True: the exact ``Fraction``; False (default): the correctly rounded float64.
    convention : {None, "sklearn"}
        ``"sklearn"``: 0 when there is no positive weight.
    partitions : int or None
        The number of score ranges (default: from the session's cores and the frame's size).
    score_index : int or None
        The element of a vector or array score column (``score_index=1``: the positive class).

    Returns
    -------
    float or Fraction
        The AP.

    Raises
    ------
    InvalidInputError
        A missing column, a label not 0/1, a NaN or null score, a negative, infinite or null
        weight, naming the column.
    UndefinedMetricError
        No positive weight, without ``convention="sklearn"``.

    See Also
    --------
    prtheory.oracle.average_precision : the same value from arrays in memory.
    prtheory.duckdb.average_precision : from Parquet or CSV files on one machine.
    per_group : AP per group and its mean (MAP).

    Examples
    --------
    By hand: at 0.9 precision 1 at recall 1/2; the tied 0.8s add a positive and a negative,
    precision 2/3 at recall 1: ``AP = 1/2 + (1/2)(2/3) = 5/6``.

    >>> from pyspark.sql import SparkSession
    >>> from prtheory import spark
    >>> session = SparkSession.builder.getOrCreate()
    >>> df = session.createDataFrame([(1, 0.9), (0, 0.8), (1, 0.8), (0, 0.1)], ["label", "score"])
    >>> spark.average_precision(df, "label", "score", exact=True)
    Fraction(5, 6)
    >>> spark.average_precision(df, "label", "score")
    0.8333333333333334
    """
    with pieces(
        df, label_col, score_col, weight_col, partitions, exact_sum=exact, score_index=score_index
    ) as p:
        return metrics.average_precision(p, exact, convention)
