"""The quotient terms ``(a_i, d_i)`` one piece contributes to each metric.

Notation: a piece's blocks ``i`` (decreasing score) have positive weight ``gain_i`` and total
weight ``m_i``; ``TP_i`` and ``N_i`` are the cumulative positive and total weight through block
``i`` over the whole ranking (:meth:`Piece.cumulative`); ``pos`` and ``neg`` are the class
totals. Each metric is ``(sum of all pieces' terms) / divisor``:

=====================  ==============================================  ====================
metric                 terms of a piece                                divisor
=====================  ==============================================  ====================
AP (N2, ties grouped)  ``gain_i TP_i / N_i`` for ``gain_i > 0``         ``pos``
trapezoid (B2)         ``dx (p0 + p1)`` per segment between            ``2 pos``
                       consecutive vertices ``(TP, TP/N)``
ROC AUC                ``(FP_i - FP_{i-1}) (TP_i + TP_{i-1})``          ``2 pos neg``
P@k (N4)               expected/optimistic/pessimistic positives        ``k``
                       among the first ``k`` items, per block
=====================  ==============================================  ====================

The first vertex of a piece's first trapezoid is the last point of the previous pieces (its
offset) when that has weight, else the named first point (:func:`trapezoid_terms`). Points with
``N = 0`` (zero weight at the top of the ranking) are the empty classifier and are no vertex,
as in :mod:`prtheory.oracle.areas`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from prtheory.distributed.blocks import Piece
from prtheory.errors import InvalidInputError
from prtheory.oracle.areas import _dg_discrete  # the oracle's own sum, segment for segment

__all__ = [
    "FIRST",
    "TOP_TIES",
    "ap_terms",
    "check_top_ties",
    "discrete_dg_terms",
    "roc_terms",
    "top_terms",
    "trapezoid_terms",
]

#: ``head`` of :func:`trapezoid_terms`: the first vertex is the piece's own first point,
#: moved to recall 0 (``first_point="spark"``: ``(0, p_first)``).
FIRST = "first"

TOP_TIES = ("expected", "optimistic", "pessimistic")


def _ones(like: np.ndarray) -> np.ndarray:
    return np.ones(like.size, dtype=np.int64 if like.dtype != object else object)


def ap_terms(piece: Piece) -> tuple[np.ndarray, np.ndarray]:
    """``gain_i TP_i / N_i`` over the piece's blocks with positive weight (AP times ``pos``).

    Parameters
    ----------
    piece : Piece
        The piece.

    Returns
    -------
    tuple of ndarray
        ``(a, d)``: one term per block with positive weight.

    See Also
    --------
    prtheory.distributed.metrics.average_precision

    Examples
    --------
    Labels 1, 0, 1, 0 untied: the positives at ranks 1 and 3 give 1/1 and 2/3:

    >>> import numpy as np
    >>> from prtheory.distributed.blocks import Piece
    >>> from prtheory.distributed.terms import ap_terms
    >>> a, d = ap_terms(Piece(np.array([1, 0, 1, 0]), np.array([0, 1, 0, 1])))
    >>> a.tolist(), d.tolist()
    ([1, 2], [1, 3])
    """
    tp, n = piece.cumulative()
    at = np.flatnonzero(piece.pos > 0)
    gain = piece.pos.astype(tp.dtype)[at]
    return gain * tp[at], n[at]


def trapezoid_terms(
    piece: Piece, head: tuple[int, int] | str | None
) -> tuple[np.ndarray, np.ndarray]:
    """Twice the trapezoid area (in TP units) of the segments ending in this piece.

    ``head`` is the first vertex when nothing before the piece has weight (``piece.n == 0``):
    ``None`` (no first point: the curve starts at the first operating point), a precision
    ``(num, den)`` at recall 0 (``(1, 1)`` for scikit-learn's first point) or :data:`FIRST`.
    Terms ``dx num0 / den0`` and ``dx num1 / den1`` per segment of width ``dx > 0``.

    Parameters
    ----------
    piece : Piece
        The piece.
    head : (int, int), str or None
        The first vertex when nothing before the piece has weight.

    Returns
    -------
    tuple of ndarray
        ``(a, d)``: twice the area in TP units.

    See Also
    --------
    discrete_dg_terms

    Examples
    --------
    Labels 1, 0, 1, 0 untied from scikit-learn's (0, 1): the area 19/24 (see
    :func:`prtheory.oracle.areas.pr_auc`) times 2 pos = 4 is 19/6 = 1 + 1/2 + 1 + 2/3:

    >>> from fractions import Fraction
    >>> import numpy as np
    >>> from prtheory.distributed.blocks import Piece
    >>> from prtheory.distributed.terms import trapezoid_terms
    >>> a, d = trapezoid_terms(Piece(np.array([1, 0, 1, 0]), np.array([0, 1, 0, 1])), (1, 1))
    >>> sum(Fraction(int(x), int(y)) for x, y in zip(a, d))
    Fraction(19, 6)
    """
    tp, n = piece.cumulative()
    keep = np.flatnonzero(n > 0)
    tp, n = tp[keep], n[keep]
    start: tuple[Any, Any, Any] | None
    if piece.n > 0:
        start = (piece.tp, piece.tp, piece.n)
    elif head is None or tp.size == 0:
        start = None
    elif isinstance(head, str):  # FIRST
        start = (0, tp[0], n[0])
    else:
        start = (0, *head)
    if start is not None:
        x0, num0, den0 = start
        x = np.concatenate(([x0], tp)).astype(tp.dtype)
        num = np.concatenate(([num0], tp)).astype(tp.dtype)
        den = np.concatenate(([den0], n)).astype(tp.dtype)
    else:
        x, num, den = tp, tp, n
    dx = x[1:] - x[:-1]
    seg = np.flatnonzero(dx > 0)
    dx = dx[seg]
    return (
        np.concatenate((dx * num[seg], dx * num[seg + 1])),
        np.concatenate((den[seg], den[seg + 1])),
    )


def discrete_dg_terms(piece: Piece, first_point: str) -> tuple[np.ndarray, np.ndarray]:
    """PRROC's Davis-Goadrich trapezoids (``method="davis-goadrich-discrete"``) of the segments
    ending in this piece, times ``pos``, as one exact term (unit weights: every block has
    weight).

    The oracle's sum (:func:`prtheory.oracle.areas.pr_auc`) over this piece's tables, from the
    table before the piece (its offset), or at the top of the ranking from the empty classifier
    (``first_point="spark"``) or from the first table (``"none"``).

    Parameters
    ----------
    piece : Piece
        The piece.
    first_point : {"spark", "none"}
        Where the top segment starts.

    Returns
    -------
    tuple of ndarray
        One exact term, the area times ``pos``.

    See Also
    --------
    trapezoid_terms

    Examples
    --------
    Labels 1, 0, 1, 0 untied: 7/12 over pos = 2 is 7/24, the oracle's
    ``pr_auc([1, 0, 1, 0], [4, 3, 2, 1], method="davis-goadrich-discrete", first_point="none")``:

    >>> import numpy as np
    >>> from prtheory.distributed.blocks import Piece
    >>> from prtheory.distributed.terms import discrete_dg_terms
    >>> a, d = discrete_dg_terms(Piece(np.array([1, 0, 1, 0]), np.array([0, 1, 0, 1])), "none")
    >>> a.tolist(), d.tolist()
    ([7], [12])
    """
    tp, n = piece.cumulative()
    if tp.size == 0:
        return np.zeros(0, dtype=object), np.zeros(0, dtype=object)
    t, f = tp.astype(object), (n - tp).astype(object)
    if piece.n > 0:
        t = np.concatenate(([piece.tp], t)).astype(object)
        f = np.concatenate(([piece.n - piece.tp], f)).astype(object)
        first_point = "none"
    area = _dg_discrete(t, f, first_point, Fraction(0), Fraction(int(t[-1])))
    return np.array([area.numerator], dtype=object), np.array([area.denominator], dtype=object)


def roc_terms(piece: Piece):
    """``sum_i (FP_i - FP_{i-1}) (TP_i + TP_{i-1})`` of the piece as one integer term.

    Parameters
    ----------
    piece : Piece
        The piece.

    Returns
    -------
    tuple of ndarray
        One integer term.

    See Also
    --------
    prtheory.distributed.metrics.roc_auc

    Examples
    --------
    Labels 1, 0, 1, 0 untied: 6 = 2 pos neg AUROC with AUROC = 3/4 (3 of the 4 pairs ordered
    right):

    >>> import numpy as np
    >>> from prtheory.distributed.blocks import Piece
    >>> from prtheory.distributed.terms import roc_terms
    >>> a, d = roc_terms(Piece(np.array([1, 0, 1, 0]), np.array([0, 1, 0, 1])))
    >>> a.tolist(), d.tolist()
    ([6], [1])
    """
    tp, n = piece.cumulative()
    if tp.size == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    fp = n - tp
    tp_prev = np.concatenate(([piece.tp], tp[:-1])).astype(tp.dtype)
    fp_prev = np.concatenate(([piece.n - piece.tp], fp[:-1])).astype(tp.dtype)
    total = int(((fp - fp_prev).astype(object) * (tp + tp_prev).astype(object)).sum())
    return np.array([total], dtype=object), np.array([1], dtype=object)


def check_top_ties(ties: str) -> str:
    """A tie policy for P@k and R-precision on blocks (no item order: not input-order/trec_eval).

    Parameters
    ----------
    ties : str
        The tie policy.

    Returns
    -------
    str
        ``ties``, checked.

    Raises
    ------
    InvalidInputError
        A policy that needs an item order.

    See Also
    --------
    top_terms

    Examples
    --------
    >>> from prtheory.distributed.terms import check_top_ties
    >>> check_top_ties("pessimistic")
    'pessimistic'
    """
    if ties not in TOP_TIES:
        raise InvalidInputError(
            "ties",
            f"must be one of {', '.join(repr(t) for t in TOP_TIES)} on blocks of tied scores "
            f"(an item order such as 'input-order' or 'trec_eval' is not kept), got {ties!r}",
        )
    return ties


def top_terms(piece: Piece, k: int, ties: str):
    """Positives among the first ``k`` items that fall in this piece (unit weights).

    A block of ``m`` items, ``p`` positive, after ``N`` items contributes its first
    ``j = min(m, max(0, k - N))`` places: ``j p / m`` positives in expectation over random orders
    of the block (``"expected"``, as :func:`prtheory.oracle.ties.expected_top`), ``min(j, p)``
    (``"optimistic"``) or ``max(0, j - (m - p))`` (``"pessimistic"``).

    Parameters
    ----------
    piece : Piece
        The piece.
    k : int
        The cutoff.
    ties : {"expected", "optimistic", "pessimistic"}
        The tie policy.

    Returns
    -------
    tuple of ndarray
        The positives among the first ``k`` items in the piece, as one term.

    See Also
    --------
    check_top_ties

    Examples
    --------
    One positive and one negative tied, k = 1: 1/2 expected, 1 optimistic, 0 pessimistic:

    >>> import numpy as np
    >>> from prtheory.distributed.blocks import Piece
    >>> from prtheory.distributed.terms import top_terms
    >>> piece = Piece(np.array([1]), np.array([1]))
    >>> [(int(a[0]), int(d[0])) for a, d in (top_terms(piece, 1, t) for t in ("expected", "optimistic", "pessimistic"))]
    [(1, 2), (1, 1), (0, 1)]
    """
    p = piece.pos.astype(object)
    m = p + piece.neg.astype(object)
    before = np.cumsum(m) - m + piece.n
    j = np.minimum(m, np.maximum(0, k - before))
    hit = np.flatnonzero((j > 0) & (p > 0))
    p, m, j = p[hit], m[hit], j[hit]
    if ties == "expected":
        return p * j, m
    got = np.minimum(j, p) if ties == "optimistic" else np.maximum(0, j - (m - p))
    return got, _ones(got)
