"""Engine-neutral exact arithmetic for ranking metrics computed in pieces (Spark, Dask, DuckDB).

A distributed engine reduces a ranking to *blocks*: one per distinct score, holding the exact
positive and negative weight of the items with that score (integer numerators over one common
denominator, which cancels in every ratio). The blocks are range-partitioned by decreasing score,
so partition ``j`` holds a contiguous run of the ranking. Average precision (claim N2, tied
scores grouped as scikit-learn, the oracle's ``ties="group"``) is then

    pos * AP = sum_i gain_i * TP_i / N_i

over the blocks ``i`` with positive weight ``gain_i > 0``, with the cumulative positive weight
``TP_i`` and cumulative total weight ``N_i`` through block ``i``. Each partition needs only the
totals of the partitions before it (:func:`prefix_offsets`) to evaluate its own terms exactly
(:func:`partial_ap`); the driver adds one exact rational per partition (:func:`combine`) and
rounds once (:func:`finish`). Driver memory grows with the number of partitions, not of items.

The sums reuse :func:`prtheory.oracle.summation.rational_sum` and the rounding
:func:`prtheory.oracle.rounding.to_float` of the single-machine oracle; an engine adapter only
has to produce the blocks, ship the offsets and collect one ``(numerator, denominator)`` pair
per partition.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

import numpy as np

from prtheory.oracle.ap import no_positives
from prtheory.oracle.rounding import to_float
from prtheory.oracle.summation import rational_sum

__all__ = [
    "Totals",
    "align",
    "block_totals",
    "combine",
    "finish",
    "merge_blocks",
    "partial_ap",
    "prefix_offsets",
]

#: ``(positive weight, total weight)`` of one partition (integer numerators).
Totals = tuple[int, int]


def _ints(values: Sequence[int]) -> np.ndarray:
    """Python integers as an object array (exact for any size)."""
    return np.array([int(v) for v in values], dtype=object)


def merge_blocks(a: tuple[int, int, int], b: tuple[int, int, int]) -> tuple[int, int, int]:
    """Sum of two blocks ``(pos, neg, k)`` whose weights are ``pos / 2**k`` and ``neg / 2**k``.

    Float weights are dyadic rationals, so exact per-block sums only need a power-of-two
    denominator; the result is over the larger of the two.
    """
    k = max(a[2], b[2])
    return (
        (a[0] << (k - a[2])) + (b[0] << (k - b[2])),
        (a[1] << (k - a[2])) + (b[1] << (k - b[2])),
        k,
    )


def align(block: tuple[int, int, int], k: int) -> tuple[int, int]:
    """``(pos, neg)`` numerators of a block ``(pos, neg, k_b)`` over the denominator ``2**k``."""
    shift = k - block[2]
    return block[0] << shift, block[1] << shift


def block_totals(pos: Sequence[int], neg: Sequence[int]) -> Totals:
    """The exact ``(positive weight, total weight)`` of a partition's blocks."""
    p = sum(int(v) for v in pos)
    return p, p + sum(int(v) for v in neg)


def prefix_offsets(totals: Iterable[Totals]) -> list[Totals]:
    """Exclusive prefix sums of partition totals: the ``(TP, N)`` before each partition."""
    out = []
    tp = n = 0
    for p, t in totals:
        out.append((tp, n))
        tp += int(p)
        n += int(t)
    return out


def partial_ap(pos: Sequence[int], neg: Sequence[int], offset: Totals) -> tuple[int, int]:
    """One partition's exact ``sum_i gain_i TP_i / N_i`` as a reduced ``(numerator, denominator)``.

    ``pos`` and ``neg`` are the positive and negative weight numerators of the partition's blocks
    in decreasing score order; ``offset = (TP, N)`` are the cumulative weights of all earlier
    partitions (:func:`prefix_offsets`). Blocks without positive weight add no term.
    """
    gain = _ints(pos)
    if gain.size == 0:
        return 0, 1
    tp = np.cumsum(gain) + int(offset[0])
    seen = np.cumsum(gain + _ints(neg)) + int(offset[1])
    at = np.flatnonzero(gain > 0)
    s = rational_sum(gain[at] * tp[at], seen[at])
    return s.numerator, s.denominator


def combine(
    partials: Iterable[tuple[int, int]], pos: int, convention: str | None = None
) -> Fraction:
    """Exact AP from the partitions' partial sums and the total positive weight ``pos``.

    With ``pos == 0`` AP is 0/0: :class:`~prtheory.errors.UndefinedMetricError`, or 0 with
    ``convention="sklearn"`` (as :func:`prtheory.oracle.average_precision`).
    """
    if pos == 0:
        return no_positives("average precision", convention)
    pairs = list(partials)
    total = rational_sum([n for n, _ in pairs], [d for _, d in pairs]) if pairs else Fraction(0)
    return total / int(pos)


def finish(value: Fraction, exact: bool) -> Fraction | float:
    """The exact value, or its correctly rounded float64 (ties to even).

    The exact rational is always available on the driver, so rounding is always decided: it is
    the single rounding of :func:`prtheory.oracle.rounding.to_float`.
    """
    return value if exact else to_float(value)
