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
    """What an engine adapter hands to the metrics (module docstring).

    See Also
    --------
    prtheory.duckdb.blocks.Blocks : an implementation.

    Examples
    --------
    The least implementation: the data as one piece (labels 1, 0, 1, 0 by decreasing score):

    >>> import numpy as np
    >>> from prtheory.distributed.blocks import Piece
    >>> from prtheory.distributed.metrics import average_precision
    >>> class OnePiece:
    ...     pos, neg, top_is_empty, weighted, spread = 2, 2, False, False, None
    ...     def run(self, fn):
    ...         return [fn(Piece(np.array([1, 0, 1, 0]), np.array([0, 1, 0, 1])))]
    >>> average_precision(OnePiece(), True, None)
    Fraction(5, 6)
    """

    @property
    def pos(self) -> int: ...

    @property
    def neg(self) -> int: ...

    @property
    def top_is_empty(self) -> bool: ...

    weighted: bool

    def run(self, fn: Callable[[Any], Any]) -> list: ...

    @property
    def spread(self) -> Spread | None: ...


def average_precision(p: Ranked, exact: bool, convention: str | None) -> float | Fraction:
    """Step AP (N2, ties grouped); with no positive weight undefined, or 0 under
    ``convention="sklearn"`` (:func:`prtheory.oracle.ap.no_positives`).

    Parameters
    ----------
    p : Ranked
        The engine's ranking.
    exact : bool
        Return the Fraction, or the correctly rounded float.
    convention : {None, "sklearn"}
        ``"sklearn"``: 0 with no positive weight.

    Returns
    -------
    Fraction or float
        The step AP.

    Raises
    ------
    UndefinedMetricError
        No positive weight, without a convention.

    See Also
    --------
    pr_auc, prtheory.oracle.average_precision

    Examples
    --------
    Positives at ranks 1 and 3 of 4: (1 + 2/3)/2 = 5/6:

    >>> import numpy as np
    >>> from prtheory.distributed.blocks import Piece
    >>> from prtheory.distributed.metrics import average_precision
    >>> class OnePiece:
    ...     pos, neg, top_is_empty, weighted, spread = 2, 2, False, False, None
    ...     def run(self, fn):
    ...         return [fn(Piece(np.array([1, 0, 1, 0]), np.array([0, 1, 0, 1])))]
    >>> average_precision(OnePiece(), True, None)
    Fraction(5, 6)
    """
    if p.pos == 0:
        value = no_positives("average precision", convention)
        return value if exact else to_float(value)
    return evaluate(p.run, ap_terms, p.pos, exact, spread=p.spread)


def check_pr_auc(method: str, first_point: str | None, dps: int) -> str:
    """The checked first point of ``method`` (:func:`prtheory.oracle.areas.check_method`:
    ``"step"`` takes none) and ``dps``.

    Parameters
    ----------
    method : str
        An area method.
    first_point : str or None
        Its first point.
    dps : int
        Digits of a Davis-Goadrich result.

    Returns
    -------
    str
        The checked first point.

    Raises
    ------
    InvalidInputError
        An unknown method, a first point it does not allow, or a bad ``dps``.

    See Also
    --------
    pr_auc

    Examples
    --------
    >>> from prtheory.distributed.metrics import check_pr_auc
    >>> check_pr_auc("step", None, 50), check_pr_auc("trapezoid", "sklearn", 50)
    ('none', 'sklearn')
    """
    prec_of_dps(dps)
    return check_method(method, first_point)


def pr_auc(
    p: Ranked, method: str, first_point: str | None, exact: bool, dps: int = 50
) -> float | Fraction | mpmath.mpf:
    """Area under the PR curve over recall [0, 1] by ``method`` from ``first_point``, equal to
    :func:`prtheory.oracle.pr_auc` (exact Fraction, or the ``mpf`` at ``dps`` digits for
    Davis-Goadrich), or correctly rounded. Undefined without positive weight.

    Parameters
    ----------
    p : Ranked
        The engine's ranking.
    method : str
        An area method.
    first_point : str or None
        Its first point.
    exact : bool
        Return the exact value, or the correctly rounded float.
    dps : int
        Digits of a Davis-Goadrich result (default 50).

    Returns
    -------
    Fraction, mpmath.mpf or float
        The area over recall [0, 1].

    Raises
    ------
    UndefinedMetricError
        No positive weight.

    See Also
    --------
    average_precision, prtheory.oracle.pr_auc

    Examples
    --------
    Positives at ranks 1 and 3 of 4: the trapezoids from scikit-learn's (0, 1) add up to
    1/2 + (1/2)(1/2 + 2/3)/2 = 19/24:

    >>> import numpy as np
    >>> from prtheory.distributed.blocks import Piece
    >>> from prtheory.distributed.metrics import pr_auc
    >>> class OnePiece:
    ...     pos, neg, top_is_empty, weighted, spread = 2, 2, False, False, None
    ...     def run(self, fn):
    ...         return [fn(Piece(np.array([1, 0, 1, 0]), np.array([0, 1, 0, 1])))]
    >>> pr_auc(OnePiece(), "trapezoid", "sklearn", True)
    Fraction(19, 24)
    """
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
    weight.

    Parameters
    ----------
    p : Ranked
        The engine's ranking.
    exact : bool
        Return the Fraction, or the correctly rounded float.

    Returns
    -------
    Fraction or float
        The AUROC.

    Raises
    ------
    UndefinedMetricError
        Either class without weight.

    See Also
    --------
    prtheory.oracle.roc_auc

    Examples
    --------
    Labels 1, 0, 1, 0 untied: 3 of the 4 (positive, negative) pairs are ordered right:

    >>> import numpy as np
    >>> from prtheory.distributed.blocks import Piece
    >>> from prtheory.distributed.metrics import roc_auc
    >>> class OnePiece:
    ...     pos, neg, top_is_empty, weighted, spread = 2, 2, False, False, None
    ...     def run(self, fn):
    ...         return [fn(Piece(np.array([1, 0, 1, 0]), np.array([0, 1, 0, 1])))]
    >>> roc_auc(OnePiece(), True)
    Fraction(3, 4)
    """
    if p.pos == 0 or p.neg == 0:
        raise UndefinedMetricError(
            "area under the ROC curve", "the label column needs positive and negative weight"
        )
    return evaluate(p.run, roc_terms, 2 * p.pos * p.neg, exact, spread=p.spread)


def check_top(k: int, ties: str) -> tuple[int, str]:
    """A checked cutoff and tie policy of P@k or R-precision (before any pass over the data).

    Parameters
    ----------
    k : int
        The cutoff.
    ties : str
        The tie policy.

    Returns
    -------
    tuple of (int, str)
        Both, checked.

    Raises
    ------
    InvalidInputError
        ``k`` below 1, or a policy that needs an item order.

    See Also
    --------
    precision_at_k, r_precision

    Examples
    --------
    >>> from prtheory.distributed.metrics import check_top
    >>> check_top(3, "expected")
    (3, 'expected')
    """
    return cutoff(k), check_top_ties(ties)


def precision_at_k(p: Ranked, k: int, ties: str, exact: bool) -> float | Fraction:
    """``P@k`` (N4; missing items count as false positives when ``k`` exceeds the rows).

    Parameters
    ----------
    p : Ranked
        The engine's ranking.
    k : int
        The cutoff.
    ties : {"expected", "optimistic", "pessimistic"}
        The tie policy.
    exact : bool
        Return the Fraction, or the correctly rounded float.

    Returns
    -------
    Fraction or float
        ``P@k``.

    See Also
    --------
    r_precision

    Examples
    --------
    The top two of labels 1, 0, 1, 0 hold one positive:

    >>> import numpy as np
    >>> from prtheory.distributed.blocks import Piece
    >>> from prtheory.distributed.metrics import precision_at_k
    >>> class OnePiece:
    ...     pos, neg, top_is_empty, weighted, spread = 2, 2, False, False, None
    ...     def run(self, fn):
    ...         return [fn(Piece(np.array([1, 0, 1, 0]), np.array([0, 1, 0, 1])))]
    >>> precision_at_k(OnePiece(), 2, "expected", True)
    Fraction(1, 2)
    """
    k, ties = check_top(k, ties)
    return evaluate(p.run, lambda piece: top_terms(piece, k, ties), k, exact, spread=p.spread)


def no_relevant(convention: str | None) -> Fraction:
    """R-precision with no positives (``P@0`` is 0/0): raise, or 0 under ``convention="sklearn"``
    (the choice AP offers, :func:`prtheory.oracle.ap.no_positives`).

    Parameters
    ----------
    convention : {None, "sklearn"}
        ``"sklearn"``: 0.

    Returns
    -------
    Fraction
        0 under ``convention="sklearn"``.

    Raises
    ------
    UndefinedMetricError
        Without a convention.

    See Also
    --------
    r_precision

    Examples
    --------
    >>> from prtheory.distributed.metrics import no_relevant
    >>> no_relevant("sklearn")
    Fraction(0, 1)
    """
    return undefined(
        "R-precision",
        "the label column has no positives (R = 0)",
        convention,
        {"sklearn": Fraction(0)},
    )


def r_precision(p: Ranked, ties: str, exact: bool, convention: str | None) -> float | Fraction:
    """R-precision ``P@R`` with ``R = pos`` (N5); with no positives :func:`no_relevant`.

    Parameters
    ----------
    p : Ranked
        The engine's ranking.
    ties : {"expected", "optimistic", "pessimistic"}
        The tie policy.
    exact : bool
        Return the Fraction, or the correctly rounded float.
    convention : {None, "sklearn"}
        ``"sklearn"``: 0 with no positives.

    Returns
    -------
    Fraction or float
        ``P@R``.

    Raises
    ------
    UndefinedMetricError
        No positives, without a convention.

    See Also
    --------
    precision_at_k, no_relevant

    Examples
    --------
    R = 2, and the top two of labels 1, 0, 1, 0 hold one positive:

    >>> import numpy as np
    >>> from prtheory.distributed.blocks import Piece
    >>> from prtheory.distributed.metrics import r_precision
    >>> class OnePiece:
    ...     pos, neg, top_is_empty, weighted, spread = 2, 2, False, False, None
    ...     def run(self, fn):
    ...         return [fn(Piece(np.array([1, 0, 1, 0]), np.array([0, 1, 0, 1])))]
    >>> r_precision(OnePiece(), "expected", True, None)
    Fraction(1, 2)
    """
    ties = check_top_ties(ties)
    if p.pos == 0:
        value = no_relevant(convention)
        return value if exact else to_float(value)
    r = p.pos
    return evaluate(p.run, lambda piece: top_terms(piece, r, ties), r, exact, spread=p.spread)
