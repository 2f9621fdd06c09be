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
    """``P@k`` of the DataFrame's ranking, exact or correctly rounded (N4)."""
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
    with ``convention="sklearn"`` (as AP)."""
    metrics.check_top(1, ties)
    with pieces(
        df, label_col, score_col, None, partitions, unit_weights=True, score_index=score_index
    ) as p:
        return metrics.r_precision(p, ties, exact, convention)
