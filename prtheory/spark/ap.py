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
    """
    with pieces(
        df, label_col, score_col, weight_col, partitions, exact_sum=exact, score_index=score_index
    ) as p:
        return metrics.average_precision(p, exact, convention)
