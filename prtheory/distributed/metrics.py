"""The metrics of a ranking held by an engine as range pieces, each equal to the oracle's exactly.

An engine adapter (``prtheory.spark``, ``prtheory.duckdb``) builds an object with the
:class:`Ranked` interface: the exact class totals ``pos`` and ``neg`` (integer numerators over
the blocks' common denominator), whether the top-scored block has zero weight
(``top_is_empty``, MLlib's empty classifier), ``run(fn)`` (``fn`` applied to every
:class:`~prtheory.distributed.blocks.Piece`, the results in piece order) and ``spread`` (a
parallel map for a large exact sum, or None). The functions here are the whole metric from
there on, shared by every engine so that none can drift from another:

* :func:`average_precision`: ``(1/pos) sum_i gain_i TP_i / N_i`` (N2, ties grouped);
* :func:`pr_auc`: every method of :func:`prtheory.oracle.pr_auc` over recall ``[0, 1]``
  (``"step"`` is AP; ``"lower-trapezoid"`` equals the trapezoid along one ranking,
  :mod:`prtheory.oracle.areas`; Davis-Goadrich in fixed point, :mod:`~.fixed_point`);
* :func:`roc_auc`, :func:`precision_at_k` (N4) and :func:`r_precision` (N5).

Each returns the correctly rounded float64, or with ``exact=True`` the oracle's exact value.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any, Protocol

import mpmath

from prtheory.distributed.fixed_point import davis_goadrich
from prtheory.distributed.sums import Spread, evaluate
from prtheory.distributed.terms import (
    FIRST,
    ap_terms,
    check_top_ties,
    discrete_dg_terms,
    roc_terms,
    top_terms,
    trapezoid_terms,
)
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle.ap import no_positives
from prtheory.oracle.areas import check_method, mllib_first_point
from prtheory.oracle.conventions import undefined
from prtheory.oracle.retrieval import cutoff
from prtheory.oracle.rounding import prec_of_dps, rounded, to_float

__all__ = [
    "Ranked",
    "average_precision",
    "check_pr_auc",
    "check_top",
    "no_relevant",
    "pr_auc",
    "precision_at_k",
    "r_precision",
    "roc_auc",
]


class Ranked(Protocol):
    """What an engine adapter hands to the metrics (module docstring)."""

    @property
    def pos(self) -> int: ...

    @property
    def neg(self) -> int: ...

    top_is_empty: bool
    weighted: bool

    def run(self, fn: Callable[[Any], Any]) -> list: ...

    @property
    def spread(self) -> Spread | None: ...


def average_precision(p: Ranked, exact: bool, convention: str | None) -> float | Fraction:
    """Step AP (N2, ties grouped); with no positive weight undefined, or 0 under
    ``convention="sklearn"`` (:func:`prtheory.oracle.ap.no_positives`)."""
    if p.pos == 0:
        value = no_positives("average precision", convention)
        return value if exact else to_float(value)
    return evaluate(p.run, ap_terms, p.pos, exact, spread=p.spread)


def check_pr_auc(method: str, first_point: str | None, dps: int) -> str:
    """The checked first point of ``method`` (:func:`prtheory.oracle.areas.check_method`:
    ``"step"`` takes none) and ``dps``."""
    prec_of_dps(dps)
    return check_method(method, first_point)


def pr_auc(
    p: Ranked, method: str, first_point: str | None, exact: bool, dps: int = 50
) -> float | Fraction | mpmath.mpf:
    """Area under the PR curve over recall [0, 1] by ``method`` from ``first_point``, equal to
    :func:`prtheory.oracle.pr_auc` (exact Fraction, or the ``mpf`` at ``dps`` digits for
    Davis-Goadrich), or correctly rounded. Undefined without positive weight."""
    start = check_pr_auc(method, first_point, dps)
    if method == "davis-goadrich-discrete" and p.weighted:
        raise InvalidInputError(
            "weight", "davis-goadrich-discrete interpolates whole items: unit weights only"
        )
    if p.pos == 0:
        raise UndefinedMetricError(
            "area under the PR curve", "the label column has no positive weight"
        )
    if method == "step":
        return average_precision(p, exact, None)
    if method == "davis-goadrich":
        if exact:
            return davis_goadrich(p.run, start, p.pos, prec_of_dps(dps))

        def area(dps: int) -> mpmath.mpf:
            return davis_goadrich(p.run, start, p.pos, prec_of_dps(dps))

        return rounded(area)
    if method == "davis-goadrich-discrete":
        return evaluate(
            p.run, lambda piece: discrete_dg_terms(piece, start), p.pos, exact, spread=p.spread
        )
    if start == "mllib":
        start = mllib_first_point(p.top_is_empty)
    head = {"none": None, "sklearn": (1, 1), "spark": FIRST}[start]
    return evaluate(
        p.run, lambda piece: trapezoid_terms(piece, head), 2 * p.pos, exact, spread=p.spread
    )


def roc_auc(p: Ranked, exact: bool) -> float | Fraction:
    """Area under the ROC curve (ties: diagonal segments); undefined unless both classes have
    weight."""
    if p.pos == 0 or p.neg == 0:
        raise UndefinedMetricError(
            "area under the ROC curve", "the label column needs positive and negative weight"
        )
    return evaluate(p.run, roc_terms, 2 * p.pos * p.neg, exact, spread=p.spread)


def check_top(k: int, ties: str) -> tuple[int, str]:
    """A checked cutoff and tie policy of P@k or R-precision (before any pass over the data)."""
    return cutoff(k), check_top_ties(ties)


def precision_at_k(p: Ranked, k: int, ties: str, exact: bool) -> float | Fraction:
    """``P@k`` (N4; missing items count as false positives when ``k`` exceeds the rows)."""
    k, ties = check_top(k, ties)
    return evaluate(p.run, lambda piece: top_terms(piece, k, ties), k, exact, spread=p.spread)


def no_relevant(convention: str | None) -> Fraction:
    """R-precision with no positives (``P@0`` is 0/0): raise, or 0 under ``convention="sklearn"``
    (the choice AP offers, :func:`prtheory.oracle.ap.no_positives`)."""
    return undefined(
        "R-precision",
        "the label column has no positives (R = 0)",
        convention,
        {"sklearn": Fraction(0)},
    )


def r_precision(p: Ranked, ties: str, exact: bool, convention: str | None) -> float | Fraction:
    """R-precision ``P@R`` with ``R = pos`` (N5); with no positives :func:`no_relevant`."""
    ties = check_top_ties(ties)
    if p.pos == 0:
        value = no_relevant(convention)
        return value if exact else to_float(value)
    r = p.pos
    return evaluate(p.run, lambda piece: top_terms(piece, r, ties), r, exact, spread=p.spread)
