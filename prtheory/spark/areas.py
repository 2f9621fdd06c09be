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
    """
    with pieces(df, label_col, score_col, weight_col, partitions, score_index=score_index) as p:
        return metrics.roc_auc(p, exact)
