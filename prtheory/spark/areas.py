"""Exact areas of a Spark DataFrame: under the PR curve (trapezoid, Davis-Goadrich) and ROC.

Same pipeline as :mod:`prtheory.spark.ap` (range pieces of exact blocks, one result per piece,
one rounding), with the terms of :mod:`prtheory.distributed.terms`:

* ``pr_auc(method="trapezoid")``: ``(1/(2 pos)) sum dx (p0 + p1)`` over the segments between
  consecutive operating points (B2), from the named first point; equal to
  :func:`prtheory.oracle.pr_auc` exactly;
* ``pr_auc(method="davis-goadrich")``: the oracle's fixed-point integers added over the pieces
  (:mod:`prtheory.distributed.fixed_point`), so the ``mpf`` is the oracle's, bit for bit;
  the float is correctly rounded by Ziv's strategy (:func:`prtheory.oracle.rounding.rounded`);
* ``roc_auc``: ``sum (FP_i - FP_{i-1})(TP_i + TP_{i-1}) / (2 pos neg)``, an integer sum.

First points (``first_point``): ``"none"``, ``"sklearn"`` (0, 1), ``"spark"`` (0, p_first) and
``"mllib"`` (MLlib's ``areaUnderPR``: (0, 1) when the top-scored block has zero weight, else
(0, p_first); :mod:`prtheory.oracle.conventions`). Davis-Goadrich takes ``"none"`` and
``"spark"``.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath

from prtheory.distributed import FIRST, davis_goadrich, evaluate, roc_terms, trapezoid_terms
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle.areas import mllib_first_point
from prtheory.oracle.curves import check_first_point
from prtheory.oracle.rounding import prec_of_dps, rounded
from prtheory.spark.blocks import pieces

__all__ = ["pr_auc", "roc_auc"]

_FIRST_POINTS = {
    "trapezoid": ("none", "sklearn", "spark", "mllib"),
    "davis-goadrich": ("none", "spark"),
}


def pr_auc(
    df,
    label_col: str = "label",
    score_col: str = "score",
    weight_col: str | None = None,
    *,
    method: str,
    first_point: str,
    exact: bool = False,
    partitions: int | None = None,
    dps: int = 50,
) -> float | Fraction | mpmath.mpf:
    """Area under the PR curve of a Spark DataFrame over recall [0, 1] by a named method.

    ``method="trapezoid"`` returns the correctly rounded float64, or with ``exact=True`` the
    exact Fraction equal to ``prtheory.oracle.pr_auc(..., method="trapezoid")``.
    ``method="davis-goadrich"`` returns the correctly rounded float64, or with ``exact=True``
    the oracle's ``mpf`` at ``dps`` digits (relative error <= 2**(1-p)). Column conventions as
    :func:`prtheory.spark.average_precision`. Undefined without positive weight.
    """
    if method not in _FIRST_POINTS:
        raise InvalidInputError(
            "method", f"must be one of {', '.join(map(repr, _FIRST_POINTS))}, got {method!r}"
        )
    check_first_point(first_point, _FIRST_POINTS[method])
    prec_of_dps(dps)
    dg = method == "davis-goadrich"
    with pieces(
        df, label_col, score_col, weight_col, partitions, cache=dg, exact_sum=exact and not dg
    ) as p:
        if p.pos == 0:
            raise UndefinedMetricError(
                "area under the PR curve", "the label column has no positive weight"
            )
        if dg:
            if exact:
                return davis_goadrich(p.run, first_point, p.pos, prec_of_dps(dps))

            def area(dps: int) -> mpmath.mpf:
                return davis_goadrich(p.run, first_point, p.pos, prec_of_dps(dps))

            return rounded(area)
        if first_point == "mllib":
            first_point = mllib_first_point(p.top_is_empty)
        head = {"none": None, "sklearn": (1, 1), "spark": FIRST}[first_point]
        return evaluate(
            p.run, lambda piece: trapezoid_terms(piece, head), 2 * p.pos, exact, spread=p.spread
        )


def roc_auc(
    df,
    label_col: str = "label",
    score_col: str = "score",
    weight_col: str | None = None,
    *,
    exact: bool = False,
    partitions: int | None = None,
) -> float | Fraction:
    """Exact area under the ROC curve (ties: diagonal segments), correctly rounded or exact.

    Equal to :func:`prtheory.oracle.roc_auc`; undefined unless both classes have weight.
    """
    with pieces(df, label_col, score_col, weight_col, partitions) as p:
        if p.pos == 0 or p.neg == 0:
            raise UndefinedMetricError(
                "area under the ROC curve", "the label column needs positive and negative weight"
            )
        return evaluate(p.run, roc_terms, 2 * p.pos * p.neg, exact, spread=p.spread)
