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
    """Every 0/1 labelling of ``m`` positions with ``p`` ones."""
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
    ``pos * AP``, where ``P(r) = (above + positives of the block up to r)/(before + r)``."""

    def terms(labels: tuple[int, ...]) -> Fraction:
        hits, total = above, Fraction(0)
        for r, rel in enumerate(labels, start=1):
            hits += rel
            if rel:
                total += Fraction(hits, before + r)
        return total

    return _mean(m, p, terms)


def mean_top_positives(m: int, p: int, j: int) -> Fraction | None:
    """Mean number of positives among the block's first ``j`` positions (M2: TP at a cutoff)."""
    return _mean(m, p, lambda labels: Fraction(sum(labels[:j])))


def mean_first_hit(m: int, p: int, before: int) -> Fraction | None:
    """Mean of ``1/(before + J)``, ``J`` the position of the block's first positive (M2: the
    reciprocal rank when the items above are all negative); needs ``p >= 1``."""
    return _mean(m, p, lambda labels: Fraction(1, before + labels.index(1) + 1))


def mean_gain_at(gains: tuple[int, ...], i: int) -> Fraction | None:
    """Mean gain at the block's position ``i`` (1-based) over every order of the items with
    these ``gains`` (M2: the DCG terms): over their distinct orders, each of which stands for
    the same number of permutations."""
    if len(gains) > MAX_BLOCK:
        return None
    orders = list(arrangements(gains))
    return Fraction(sum(o[i - 1] for o in orders), len(orders))
