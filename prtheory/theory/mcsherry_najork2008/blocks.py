"""Brute force over the orders of one tied block (claims M1, M2): the registry's meaning of the
expectations, never the formulas.

A block of ``m`` tied items holds ``p`` positives; above it are ``before`` items of which
``above`` are positive. Each function averages a quantity over every placement of the ``p``
positives among the ``m`` positions (the distinct orders of the block's labels, each standing
for the same number of permutations of the items, so the plain mean over placements is the mean
over all orders), in Fractions. Each returns ``None`` beyond :data:`MAX_BLOCK` items, where the
enumeration is out of reach.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from fractions import Fraction

from prtheory.theory.brute import arrangements

__all__ = [
    "MAX_BLOCK",
    "mean_ap_terms",
    "mean_first_hit",
    "mean_gain_at",
    "mean_top_positives",
    "placements",
]

#: The largest block enumerated (C(14, 7) = 3432 placements).
MAX_BLOCK = 14


def placements(m: int, p: int) -> Iterator[tuple[int, ...]]:
    """Every 0/1 labelling of ``m`` positions with ``p`` ones.

    Parameters
    ----------
    m : int
        Positions.
    p : int
        Ones.

    Yields
    ------
    tuple of int
        Each labelling (``C(m, p)`` of them).

    Examples
    --------
    >>> from prtheory.theory.mcsherry_najork2008.blocks import placements
    >>> list(placements(3, 1))
    [(1, 0, 0), (0, 1, 0), (0, 0, 1)]
    """
    for where in itertools.combinations(range(m), p):
        chosen = set(where)
        yield tuple(int(k in chosen) for k in range(m))


def _mean(m: int, p: int, value: Callable[[tuple[int, ...]], Fraction]) -> Fraction | None:
    if m > MAX_BLOCK:
        return None
    values = [value(labels) for labels in placements(m, p)]
    return sum(values, Fraction(0)) / len(values)


def mean_ap_terms(m: int, p: int, before: int, above: int) -> Fraction | None:
    """Mean of ``sum_r rel(r) P(r)`` over the block's ranks ``r`` (M1): the block's share of
    ``pos * AP``, where ``P(r) = (above + positives of the block up to r)/(before + r)``.

    Parameters
    ----------
    m : int
        Items in the block (at most :data:`MAX_BLOCK`, else the result is None).
    p : int
        Positives in it.
    before : int
        Items above the block.
    above : int
        Positives among them.

    Returns
    -------
    Fraction or None
        The mean (None beyond :data:`MAX_BLOCK`).

    Examples
    --------
    A block of 2 with 1 positive at the top: ``(1/1 + 1/2)/2 = 3/4``; below one positive item:
    ``(2/2 + 2/3)/2 = 5/6``:

    >>> from prtheory.theory.mcsherry_najork2008.blocks import mean_ap_terms
    >>> mean_ap_terms(2, 1, 0, 0), mean_ap_terms(2, 1, 1, 1)
    (Fraction(3, 4), Fraction(5, 6))
    """

    def terms(labels: tuple[int, ...]) -> Fraction:
        hits, total = above, Fraction(0)
        for r, rel in enumerate(labels, start=1):
            hits += rel
            if rel:
                total += Fraction(hits, before + r)
        return total

    return _mean(m, p, terms)


def mean_top_positives(m: int, p: int, j: int) -> Fraction | None:
    """Mean number of positives among the block's first ``j`` positions (M2: TP at a cutoff).

    Parameters
    ----------
    m : int
        Items in the block (at most :data:`MAX_BLOCK`, else the result is None).
    p : int
        Positives in it.
    j : int
        The cutoff inside the block.

    Returns
    -------
    Fraction or None
        The mean (None beyond :data:`MAX_BLOCK`).

    Examples
    --------
    By linearity, ``j p/m``: ``1 * 2/4 = 1/2`` and ``3 * 2/4 = 3/2``; a block of 15 is beyond
    the enumeration:

    >>> from prtheory.theory.mcsherry_najork2008.blocks import mean_top_positives
    >>> mean_top_positives(4, 2, 1), mean_top_positives(4, 2, 3), mean_top_positives(15, 1, 1)
    (Fraction(1, 2), Fraction(3, 2), None)
    """
    return _mean(m, p, lambda labels: Fraction(sum(labels[:j])))


def mean_first_hit(m: int, p: int, before: int) -> Fraction | None:
    """Mean of ``1/(before + J)``, ``J`` the position of the block's first positive (M2: the
    reciprocal rank when the items above are all negative); needs ``p >= 1``.

    Parameters
    ----------
    m : int
        Items in the block (at most :data:`MAX_BLOCK`, else the result is None).
    p : int
        Positives in it.
    before : int
        Items above the block.

    Returns
    -------
    Fraction or None
        The mean (None beyond :data:`MAX_BLOCK`).

    Examples
    --------
    One positive among 3 at the top: J is 1, 2 or 3, ``(1 + 1/2 + 1/3)/3 = 11/18``:

    >>> from prtheory.theory.mcsherry_najork2008.blocks import mean_first_hit
    >>> mean_first_hit(3, 1, 0)
    Fraction(11, 18)
    """
    return _mean(m, p, lambda labels: Fraction(1, before + labels.index(1) + 1))


def mean_gain_at(gains: tuple[int, ...], i: int) -> Fraction | None:
    """Mean gain at the block's position ``i`` (1-based) over every order of the items with
    these ``gains`` (M2: the DCG terms): over their distinct orders, each of which stands for
    the same number of permutations.

    Parameters
    ----------
    gains : tuple of int
        The items' gains (at most :data:`MAX_BLOCK` of them).
    i : int
        The position, 1-based.

    Returns
    -------
    Fraction or None
        The mean (None beyond :data:`MAX_BLOCK`).

    Examples
    --------
    Gains 3, 0, 0: each position holds the 3 in one of the three orders, mean ``3/3 = 1``:

    >>> from prtheory.theory.mcsherry_najork2008.blocks import mean_gain_at
    >>> mean_gain_at((3, 0, 0), 1)
    Fraction(1, 1)
    """
    if len(gains) > MAX_BLOCK:
        return None
    orders = list(arrangements(gains))
    return Fraction(sum(o[i - 1] for o in orders), len(orders))
