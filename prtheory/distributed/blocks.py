"""Pieces of a ranking: blocks of exact weights per distinct score, and the offsets between pieces.

A block is the exact positive and negative weight of one distinct score, as integer numerators
over a common denominator ``2**k`` (unit weights: counts, ``k = 0``). Float weights are dyadic
rationals ``M 2**E`` (``M`` an integer: 53 bits suffice), so an engine can sum them exactly as
integers per exponent and leave the alignment to :func:`dyadic_blocks`.

Exact rationals that cross a process boundary as text use :func:`encode_fraction`
(hexadecimal: Python's int-to-decimal conversion is capped at 4300 digits, hexadecimal is not).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from prtheory.errors import InvalidInputError
from prtheory.oracle.counts import distinct_sums, run_starts
from prtheory.oracle.summation import coprime_fraction

__all__ = [
    "Piece",
    "check_rows",
    "decode_fraction",
    "distinct_sums",
    "dyadic_blocks",
    "encode_fraction",
    "prefix_offsets",
    "run_starts",
    "sum_ties",
]

#: Above this, products of two weights may overflow int64: the terms use Python integers.
_INT64_PRODUCT_SAFE = 2**31 - 1


@dataclass(frozen=True)
class Piece:
    """A contiguous run of blocks in decreasing score order, and what comes before it.

    ``pos[i]`` and ``neg[i]`` are the positive and negative weight numerators of block ``i``
    (int64 or Python-int object arrays); ``tp`` and ``n`` are the positive and total weight of
    every block before the piece (its offset, from :func:`prefix_offsets`).

    Parameters
    ----------
    pos, neg : ndarray of int
        The blocks' positive and negative weight numerators, by decreasing score.
    tp, n : int
        The positive and total weight before the piece (default 0).

    See Also
    --------
    prefix_offsets : the offsets.

    Examples
    --------
    Four untied items, labels 1, 0, 1, 0 by decreasing score, as one piece:

    >>> import numpy as np
    >>> from prtheory.distributed.blocks import Piece
    >>> Piece(np.array([1, 0, 1, 0]), np.array([0, 1, 0, 1])).n
    0
    """

    pos: np.ndarray
    neg: np.ndarray
    tp: int = 0
    n: int = 0

    def cumulative(self) -> tuple[np.ndarray, np.ndarray]:
        """Cumulative ``(TP, N)`` through each block (the offset included), exact.

        Python integers when a product of two of them could overflow int64, else int64.
        """
        pos, neg = self.pos, self.neg
        if pos.size == 0:
            return pos, pos
        wide = pos.dtype == object or neg.dtype == object
        if not wide:  # summed in float64: exact below 2**53, and no int64 overflow above; an
            # offset past the limit decides alone (one past 2**1024 does not convert to float)
            wide = self.n > _INT64_PRODUCT_SAFE or (
                self.n + float(pos.sum(dtype=np.float64)) + float(neg.sum(dtype=np.float64))
                > _INT64_PRODUCT_SAFE
            )
        if wide:
            pos, neg = pos.astype(object), neg.astype(object)
        tp = np.cumsum(pos) + self.tp
        n = np.cumsum(pos + neg) + self.n
        return tp, n


_PROBLEMS = {
    "label": "labels must be 0 or 1 (or booleans), no nulls",
    "score": "scores must not be NaN or null",
    "weight": "weights must be finite and >= 0, no nulls",
}


def check_rows(counts: dict[str, int], suffix: str = "") -> None:
    """Raise :class:`InvalidInputError` for the first of ``"label"``, ``"score"``, ``"weight"``
    with malformed rows (``counts``: how many per argument), named ``argument + suffix`` (the
    engine's argument name: ``label_col`` in Spark, ``label`` in DuckDB).

    Parameters
    ----------
    counts : dict of str to int
        Malformed rows per argument (``"label"``, ``"score"``, ``"weight"``).
    suffix : str
        Appended to the argument's name in the error (default ``""``).

    Returns
    -------
    None

    Raises
    ------
    InvalidInputError
        Naming the first argument with malformed rows.

    Examples
    --------
    >>> from prtheory.distributed.blocks import check_rows
    >>> check_rows({"label": 0, "score": 0})
    >>> check_rows({"label": 0, "score": 2})
    Traceback (most recent call last):
    ...
    prtheory.errors.InvalidInputError: score: scores must not be NaN or null: 2 bad rows
    """
    for arg, count in counts.items():
        if count:
            raise InvalidInputError(arg + suffix, f"{_PROBLEMS[arg]}: {count} bad rows")


def prefix_offsets(totals: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Exclusive prefix sums of the pieces' ``(positive weight, total weight)``: each offset.

    Parameters
    ----------
    totals : iterable of (int, int)
        Each piece's (positive weight, total weight).

    Returns
    -------
    list of (int, int)
        Each piece's offset: the totals of the pieces before it.

    See Also
    --------
    Piece

    Examples
    --------
    >>> from prtheory.distributed.blocks import prefix_offsets
    >>> prefix_offsets([(1, 3), (2, 2), (0, 1)])
    [(0, 0), (1, 3), (3, 5)]
    """
    out = []
    tp = n = 0
    for p, t in totals:
        out.append((tp, n))
        tp += int(p)
        n += int(t)
    return out


def dyadic_blocks(
    scores: Sequence[float] | np.ndarray,
    exponents: Sequence[int] | np.ndarray,
    pos_mantissas: Sequence[int] | np.ndarray,
    neg_mantissas: Sequence[int] | np.ndarray,
    k: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Blocks of one piece from exact per-(score, exponent) weight sums, over ``2**-k``.

    Row ``r`` says: the items with score ``scores[r]`` whose weights are ``m 2**exponents[r]``
    have positive weight ``pos_mantissas[r] 2**exponents[r]`` (and negative likewise). The rows
    come in any order and a score may have several rows (one per exponent); ``k`` is at least
    ``-exponents[r]`` for every row with a non-zero mantissa. Returns the ``(pos, neg)``
    numerators over ``2**-k`` (int64 when they and their sum fit, else Python integers), one
    block per distinct score, in decreasing score order.

    Parameters
    ----------
    scores : sequence of float
        One score per row.
    exponents : sequence of int
        The rows' weight exponents.
    pos_mantissas, neg_mantissas : sequence of int
        The rows' summed weight mantissas.
    k : int
        The common exponent, at least ``-exponents[r]`` for every row with weight.

    Returns
    -------
    tuple of ndarray
        ``(pos, neg)`` over ``2**-k``, one block per distinct score, decreasing.

    Raises
    ------
    InvalidInputError
        ``k`` below a row's ``-exponent``.

    See Also
    --------
    sum_ties

    Examples
    --------
    Over 2**-1: score 0.9 holds positive weight 1 (numerator 2); score 0.5 positive weight 1/2
    (numerator 1) and negative weight 1 (numerator 2), from two rows:

    >>> from prtheory.distributed.blocks import dyadic_blocks
    >>> pos, neg = dyadic_blocks([0.5, 0.9, 0.5], [-1, 0, 0], [1, 1, 0], [0, 0, 1], 1)
    >>> pos.tolist(), neg.tolist()
    ([2, 1], [0, 2])
    """
    s = np.asarray(scores, dtype=np.float64)
    if s.size == 0:
        empty = np.zeros(0, dtype=object)
        return empty, empty
    order = np.argsort(-s, kind="stable")
    s = s[order]
    shift = np.asarray(exponents, dtype=np.int64)[order] + k
    pm, nm = _integers(pos_mantissas)[order], _integers(neg_mantissas)[order]
    short = (shift < 0) & ((pm != 0) | (nm != 0))
    if short.any():
        raise InvalidInputError(
            "k", f"2**-{k} is not a multiple of 2**{int(shift[short].min()) - k}"
        )
    shift = np.maximum(shift, 0)
    return sum_ties(s, _shifted(pm, shift), _shifted(nm, shift))


def sum_ties(scores: np.ndarray, pos: np.ndarray, neg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Blocks from rows sorted by decreasing ``scores``: ``pos`` and ``neg`` summed per distinct
    score (exactly: int64 or Python integers, as given).

    Parameters
    ----------
    scores : ndarray of float
        Sorted decreasing.
    pos, neg : ndarray of int
        Each row's positive and negative weight.

    Returns
    -------
    tuple of ndarray
        ``(pos, neg)`` per distinct score.

    See Also
    --------
    dyadic_blocks

    Examples
    --------
    The two rows at score 2 merge:

    >>> import numpy as np
    >>> from prtheory.distributed.blocks import sum_ties
    >>> pos, neg = sum_ties(np.array([3.0, 2, 2, 1]), np.array([1, 1, 0, 0]), np.array([0, 0, 1, 1]))
    >>> pos.tolist(), neg.tolist()
    ([1, 1, 0], [0, 1, 1])
    """
    return distinct_sums(scores, pos, neg)[1:]


def _integers(values: Sequence[int] | np.ndarray) -> np.ndarray:
    """``values`` as an int64 array when they are one, else as Python integers (object)."""
    a = np.asarray(values)
    if a.dtype.kind in "iu" and a.dtype.itemsize <= 8 and a.dtype != np.uint64:
        return a.astype(np.int64)
    return np.array([int(v) for v in a.tolist()], dtype=object)


def _shifted(m: np.ndarray, shift: np.ndarray) -> np.ndarray:
    """``m << shift`` exactly: int64 while every value and the sum of all of them stays below
    ``2**62`` (bits of the largest value, plus the largest shift, plus bits of the count),
    Python integers otherwise."""
    if m.dtype != object and m.size:
        bits = int(np.abs(m).max()).bit_length() + int(shift.max()) + m.size.bit_length()
        if bits < 62:
            return m << shift
    return m.astype(object) << shift.astype(object)


def encode_fraction(value: Fraction) -> str:
    """``"n/d"`` in hexadecimal (``"-0x1b/0x4"``): exact for any size, unlike decimal ``str``.

    Parameters
    ----------
    value : Fraction
        Any rational.

    Returns
    -------
    str
        ``"n/d"`` in hexadecimal.

    See Also
    --------
    decode_fraction

    Examples
    --------
    >>> from fractions import Fraction
    >>> from prtheory.distributed.blocks import encode_fraction
    >>> encode_fraction(Fraction(-27, 4))
    '-0x1b/0x4'
    """
    return f"{value.numerator:#x}/{value.denominator:#x}"


def decode_fraction(text: str) -> Fraction:
    """The Fraction written by :func:`encode_fraction`.

    Parameters
    ----------
    text : str
        ``"n/d"`` in hexadecimal.

    Returns
    -------
    Fraction
        The value.

    See Also
    --------
    encode_fraction

    Examples
    --------
    0x1b = 27:

    >>> from prtheory.distributed.blocks import decode_fraction
    >>> decode_fraction("-0x1b/0x4")
    Fraction(-27, 4)
    """
    num, _, den = text.partition("/")
    return coprime_fraction(int(num, 16), int(den, 16))
