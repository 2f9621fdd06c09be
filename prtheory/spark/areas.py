"""Exact areas of a Spark DataFrame: under the PR curve (every method of the oracle) and ROC.

Same pipeline as :mod:`prtheory.spark.ap` (range pieces of exact blocks, one result per piece,
one rounding), with the metrics of :mod:`prtheory.distributed.metrics`:

* ``pr_auc(method="trapezoid")`` (and ``"lower-trapezoid"``, equal along one ranking):
  ``(1/(2 pos)) sum dx (p0 + p1)`` over the segments between consecutive operating points
  (B2), from the named first point; equal to :func:`prtheory.oracle.pr_auc` exactly;
* ``pr_auc(method="davis-goadrich")``: the oracle's fixed-point integers added over the pieces
  (:mod:`prtheory.distributed.fixed_point`), so the ``mpf`` is the oracle's, bit for bit;
  the float is correctly rounded by Ziv's strategy (:func:`prtheory.oracle.rounding.rounded`);
  ``"davis-goadrich-discrete"`` (PRROC's, unit weights) and ``"step"`` (AP) are exact sums;
* ``roc_auc``: ``sum (FP_i - FP_{i-1})(TP_i + TP_{i-1}) / (2 pos neg)``, an integer sum.

First points (``first_point``): ``"none"``, ``"sklearn"`` (0, 1), ``"spark"`` (0, p_first) and
``"mllib"`` (MLlib's ``areaUnderPR``: (0, 1) when the top-scored block has zero weight, else
(0, p_first); :mod:`prtheory.oracle.conventions`). Davis-Goadrich takes ``"none"`` and
``"spark"``; ``"step"`` none.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath

from prtheory.distributed import metrics
from prtheory.spark.blocks import pieces

__all__ = ["pr_auc", "roc_auc"]


def pr_auc(
    df,
    label_col: str = "label",
    score_col: str = "score",
    weight_col: str | None = None,
    *,
    method: str,
    first_point: str | None = None,
    exact: bool = False,
    partitions: int | None = None,
    dps: int = 50,
    score_index: int | None = None,
) -> float | Fraction | mpmath.mpf:
    """Area under the PR curve of a Spark DataFrame over recall [0, 1] by a named method.

    Rational methods return the correctly rounded float64, or with ``exact=True`` the exact
    Fraction equal to ``prtheory.oracle.pr_auc(..., method=method)``.
    ``method="davis-goadrich"`` returns the correctly rounded float64, or with ``exact=True``
    the oracle's ``mpf`` at ``dps`` digits (relative error <= 2**(1-p)). Column conventions as
    :func:`prtheory.spark.average_precision`. Undefined without positive weight.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        The rows (classic Spark or Spark Connect).
    label_col, score_col : str
        The columns of the 0/1 (or boolean) labels and of the scores (a column of MLlib vectors
        or arrays is read at ``score_index``).
    weight_col : str or None
        The column of non-negative weights, at their exact binary values (default none).
    method : str
        ``"step"``, ``"trapezoid"``, ``"lower-trapezoid"``, ``"davis-goadrich"`` or
        ``"davis-goadrich-discrete"``.
    first_point : {None, "sklearn", "spark", "none"}
        The point prepended at recall 0, as :func:`prtheory.oracle.pr_auc`.
    exact : bool
        True: the exact ``Fraction`` (or Davis-Goadrich's ``mpf``); False: correctly rounded.
    dps : int
        Digits of a Davis-Goadrich ``mpf`` (default 50).
    partitions : int or None
        The number of score ranges (default: from the session's cores and the frame's size).
    score_index : int or None
        The element of a vector or array score column (``score_index=1``: the positive class).

    Returns
    -------
    float, Fraction or mpmath.mpf
        The area.

    Raises
    ------
    InvalidInputError
        A missing column, a label not 0/1, a NaN or null score, a negative, infinite or null
        weight, naming the column.
    UndefinedMetricError
        No positive weight.

    See Also
    --------
    prtheory.oracle.pr_auc : the same area from arrays in memory.

    Examples
    --------
    By hand, with (recall 0, precision 1) prepended: ``1/2 * 1 + 1/2 * (1 + 2/3)/2 = 11/12``.

    >>> from pyspark.sql import SparkSession
    >>> from prtheory import spark
    >>> session = SparkSession.builder.getOrCreate()
    >>> df = session.createDataFrame([(1, 0.9), (0, 0.8), (1, 0.8), (0, 0.1)], ["label", "score"])
    >>> spark.pr_auc(df, method="trapezoid", first_point="sklearn", exact=True)
    Fraction(11, 12)
    """
    metrics.check_pr_auc(method, first_point, dps)
    dg = method == "davis-goadrich"
    with pieces(
        df,
        label_col,
        score_col,
        weight_col,
        partitions,
        cache=dg,
        exact_sum=exact and not dg,
        score_index=score_index,
    ) as p:
        return metrics.pr_auc(p, method, first_point, exact, dps)


def roc_auc(
    df,
    label_col: str = "label",
    score_col: str = "score",
    weight_col: str | None = None,
    *,
    exact: bool = False,
    partitions: int | None = None,
    score_index: int | None = None,
) -> float | Fraction:
    """Exact area under the ROC curve (ties: diagonal segments), correctly rounded or exact.

    Equal to :func:`prtheory.oracle.roc_auc`; undefined unless both classes have weight.

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
    partitions : int or None
        The number of score ranges (default: from the session's cores and the frame's size).
    score_index : int or None
        The element of a vector or array score column (``score_index=1``: the positive class).

    Returns
    -------
    float or Fraction
        The probability that a positive outscores a negative, a tie counting 1/2.

    Raises
    ------
    InvalidInputError
        A missing column, a label not 0/1, a NaN or null score, a negative, infinite or null
        weight, naming the column.
    UndefinedMetricError
        A class without weight.

    See Also
    --------
    prtheory.oracle.roc_auc : the same area from arrays in memory.

    Examples
    --------
    By hand: of the 4 (positive, negative) pairs, 3 are won and the tie at 0.8 counts 1/2:
    ``3.5/4 = 7/8``.

    >>> from pyspark.sql import SparkSession
    >>> from prtheory import spark
    >>> session = SparkSession.builder.getOrCreate()
    >>> df = session.createDataFrame([(1, 0.9), (0, 0.8), (1, 0.8), (0, 0.1)], ["label", "score"])
    >>> spark.roc_auc(df, exact=True)
    Fraction(7, 8)
    """
    with pieces(df, label_col, score_col, weight_col, partitions, score_index=score_index) as p:
        return metrics.roc_auc(p, exact)
