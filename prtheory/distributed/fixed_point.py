"""The Davis-Goadrich area of a ranking in pieces, equal to the oracle's to the last bit.

:func:`prtheory.oracle.areas.pr_auc` (``method="davis-goadrich"``) sums, per segment between
consecutive contingency tables, a rational ``R`` and a logarithm term ``C ln Q`` in fixed point
with ``F`` fraction bits: an integer total with an integer error bound ``sum_k (|C_k| + 2)``
units (:func:`~prtheory.oracle.areas.dg_fixed_sum`, :func:`~prtheory.oracle.areas.dg_error_units`).
Both are sums over segments, and each segment lies in one piece (its end table's), so:

1. every piece returns its error units; the driver adds them and picks ``F``
   (:func:`~prtheory.oracle.areas.dg_frac_bits`);
2. every piece returns its fixed-point integer at ``F``; the driver adds them; if the bound does
   not yet allow rounding to ``prec`` bits, ``F`` doubles and step 2 repeats
   (:func:`~prtheory.oracle.areas.dg_result`).

The integers are the oracle's own, term for term, so the result is the same ``mpf``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
from mpmath import libmp

from prtheory.distributed.blocks import Piece
from prtheory.oracle.areas import dg_error_units, dg_fixed_sum, dg_frac_bits, dg_result, dg_terms
from prtheory.oracle.ratios import as_objects

__all__ = ["davis_goadrich", "piece_terms"]


def piece_terms(piece: Piece, first_point: str, pos: int):
    """The DG segments ending in this piece (:func:`prtheory.oracle.areas.dg_terms`).

    The segment into the piece's first table starts at the table before it (the offset), or,
    when nothing before has weight, at the empty classifier (``first_point="spark"``) or
    nowhere (``"none"``). Tables with no weight (zero weight at the top) are skipped.

    Parameters
    ----------
    piece : Piece
        The piece.
    first_point : {"spark", "none"}
        Where the top segment starts.
    pos : int
        The positive weight numerator.

    Returns
    -------
    tuple
        The piece's segments, as :func:`prtheory.oracle.areas.dg_terms` gives them.

    See Also
    --------
    davis_goadrich

    Examples
    --------
    Without a first point the curve starts at the first table, so the 4 tables of this piece
    make 3 segments, one of them (TP 1 to 2) with width in recall; its terms are one entry each:

    >>> import numpy as np
    >>> from prtheory.distributed.blocks import Piece
    >>> from prtheory.distributed.fixed_point import piece_terms
    >>> terms, rest = piece_terms(Piece(np.array([1, 0, 1, 0]), np.array([0, 1, 0, 1])), "none", 2)
    >>> [len(t) for t in terms], rest
    ([1, 1, 1, 1, 1, 1], [])
    """
    tp, n = piece.cumulative()
    keep = n > 0
    t, f = as_objects(tp[keep]), as_objects((n - tp)[keep])
    if piece.n > 0 or first_point == "spark":
        t = np.concatenate(([piece.tp], t)).astype(object)
        f = np.concatenate(([piece.n - piece.tp], f)).astype(object)
    return dg_terms(t, f, "none", Fraction(0), Fraction(pos))


def _fixed_sum(first_point: str, pos: int, frac_bits: int, piece: Piece) -> int:
    return dg_fixed_sum(piece_terms(piece, first_point, pos), frac_bits)


def davis_goadrich(
    run: Callable[[Callable[[Any], Any]], list], first_point: str, pos: int, prec: int
) -> mpmath.mpf:
    """The DG area to ``prec`` bits (relative error <= ``2**(1-prec)``), as the oracle's.

    ``run(fn)`` maps ``fn`` over the pieces and collects the results (:func:`evaluate`).

    Parameters
    ----------
    run : callable
        The engine's map-and-collect over the pieces.
    first_point : {"spark", "none"}
        Where the top segment starts.
    pos : int
        The positive weight numerator.
    prec : int
        The bits asked for.

    Returns
    -------
    mpmath.mpf
        The DG area.

    See Also
    --------
    piece_terms
    prtheory.oracle.pr_auc : the same area from labels and scores.

    Examples
    --------
    Labels 1, 0, 1, 0 untied, as one piece: the oracle's
    ``pr_auc([1, 0, 1, 0], [4, 3, 2, 1], method="davis-goadrich", first_point="none")`` is
    0.297267445945918 to 15 digits:

    >>> import mpmath
    >>> import numpy as np
    >>> from prtheory.distributed.blocks import Piece
    >>> from prtheory.distributed.fixed_point import davis_goadrich
    >>> piece = Piece(np.array([1, 0, 1, 0]), np.array([0, 1, 0, 1]))
    >>> mpmath.nstr(davis_goadrich(lambda fn: [fn(piece)], "none", 2, 60), 15)
    '0.297267445945918'
    """
    bound = sum(run(lambda piece: dg_error_units(piece_terms(piece, first_point, pos))))
    if bound == 0:  # no segment gains recall
        return mpmath.mp.make_mpf(libmp.fzero)
    bound += 1
    frac_bits = dg_frac_bits(prec, bound)
    while True:
        total = sum(run(functools.partial(_fixed_sum, first_point, pos, frac_bits)))
        value = dg_result(total, bound, pos, frac_bits, prec)
        if value is not None:
            return value
        frac_bits *= 2
