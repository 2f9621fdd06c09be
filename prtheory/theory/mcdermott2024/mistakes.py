"""Adjacent mistakes and what fixing one does to AUROC and AP (claim K3), by brute force.

A ranking is its labels, top first, untied. An *adjacent mistake* is a negative ranked just above
a positive; fixing it swaps the two. For the positive at rank ``r`` (1-based) of such a pair,
``above`` counts the positives ranked above the pair (ranks ``1 .. r - 2``). The values are
computed from the definitions (:func:`prtheory.theory.brute.ir_ap`, the Wilcoxon-Mann-Whitney
statistic of :mod:`prtheory.theory.davis_goadrich2006.curves`) before and after the swap.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

from prtheory.theory.brute import ir_ap
from prtheory.theory.common import rankings
from prtheory.theory.davis_goadrich2006.curves import wmw

__all__ = ["Mistake", "adjacent_mistakes", "every_mistake"]


@dataclass(frozen=True)
class Mistake:
    """One adjacent mistake of a ranking and the change its fix makes.

    Examples
    --------
    ``[1, 0, 1]``: the negative at rank 2 above the positive at rank 3, one positive above the
    pair; the positive's precision is ``2/3``:

    >>> from prtheory.theory.mcdermott2024.mistakes import adjacent_mistakes
    >>> (mistake,) = adjacent_mistakes([1, 0, 1])
    >>> mistake.rank, mistake.above, mistake.precision
    (3, 1, Fraction(2, 3))
    """

    labels: tuple[int, ...]
    rank: int  # r: the positive's rank before the fix
    above: int  # positives ranked above the pair
    pos: int
    neg: int
    d_auroc: Fraction
    d_ap: Fraction

    @property
    def precision(self) -> Fraction:
        """The positive's precision before the fix, ``(above + 1)/r``."""
        return Fraction(self.above + 1, self.rank)


def _scores(labels: Sequence[int]) -> list[int]:
    return list(range(len(labels), 0, -1))  # untied, top first


def adjacent_mistakes(labels: Sequence[int]) -> Iterator[Mistake]:
    """Every adjacent mistake of the ranking, top first, with the fix's exact changes.

    Parameters
    ----------
    labels : sequence of int
        1 = positive, top first; both classes present.

    Yields
    ------
    Mistake
        Each mistake with its changes of AUROC and AP.

    Examples
    --------
    Fixing ``[1, 0, 1]`` gives ``[1, 1, 0]``: AUROC from 1/2 (one of the two pairs right) to 1,
    AP from ``(1 + 2/3)/2 = 5/6`` to 1:

    >>> from prtheory.theory.mcdermott2024.mistakes import adjacent_mistakes
    >>> [(m.d_auroc, m.d_ap) for m in adjacent_mistakes([1, 0, 1])]
    [(Fraction(1, 2), Fraction(1, 6))]
    """
    labels = tuple(labels)
    pos, neg = sum(labels), len(labels) - sum(labels)
    auroc, ap = wmw(labels, _scores(labels)), ir_ap(labels)
    for i in range(1, len(labels)):
        if labels[i - 1] == 0 and labels[i] == 1:
            fixed = (*labels[: i - 1], 1, 0, *labels[i + 1 :])
            yield Mistake(
                labels,
                i + 1,
                sum(labels[: i - 1]),
                pos,
                neg,
                wmw(fixed, _scores(fixed)) - auroc,
                ir_ap(fixed) - ap,
            )


def every_mistake(max_n: int) -> Iterator[Mistake]:
    """Every adjacent mistake of every untied ranking of 2 to ``max_n`` items.

    Parameters
    ----------
    max_n : int
        The longest ranking.

    Yields
    ------
    Mistake
        Each mistake.

    Examples
    --------
    Up to 3 items: ``01`` has one; ``010``, ``001``, ``101``, ``011`` one each; 5 in all:

    >>> from prtheory.theory.mcdermott2024.mistakes import every_mistake
    >>> sum(1 for _ in every_mistake(3))
    5
    """
    for n in range(2, max_n + 1):
        for n_pos in range(1, n):
            for labels in rankings(n_pos, n - n_pos):
                yield from adjacent_mistakes(labels)
