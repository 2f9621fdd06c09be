"""Brute-force references for ranking metrics, written from the definitions.

Python lists and Fractions only (no numpy, none of the oracle's formulas):

* group: for each distinct threshold t, R(t) and P(t) counted directly; AP = sum dR * P;
* orderings: sort the items with Python's stable ``sorted`` and a key per policy, then the IR
  definition: mean over positives of (positives so far)/(rank);
* expected: the mean over every arrangement of the labels within each tied block (the distinct
  arrangements of the block's multiset of labels, generated one by one; items with equal labels
  are interchangeable, so each distinct arrangement stands for the same number of permutations
  and the plain mean over distinct ones is the mean over all of them);
* enumerations: every ranking of n items up to relabelling (:func:`two_class_rankings`), for
  exhaustive checks at small n.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Any

from prtheory.errors import InvalidInputError

__all__ = [
    "arrangements",
    "brute",
    "brute_counts",
    "brute_expected",
    "brute_group",
    "brute_order",
    "ir_ap",
    "tie_patterns",
    "two_class_rankings",
]

Labels = Sequence[int]
Scores = Sequence[Any]  # anything ordered: ints, floats, Fractions


def brute_group(y: Labels, s: Scores, w: Sequence[Any] | None = None) -> Fraction:
    """AP over distinct thresholds: the sum of (recall step) x (precision at that threshold).

    Parameters
    ----------
    y : sequence of int
        Labels, 1 = positive.
    s : sequence
        Scores (higher ranks first; equal scores are tied).
    w : sequence, optional
        Sample weights (1 each by default).

    Returns
    -------
    Fraction
        AP.

    Examples
    --------
    The ranking ``y = [1, 0, 1, 0]``, ``s = [3, 2, 2, 1]``: a positive on top, then a positive
    tied with a negative, then a negative.
    At ``t = 3``: recall 1/2, precision 1/1; at ``t = 2``: recall 1, precision 2/3, so
    ``AP = 1/2 * 1 + 1/2 * 2/3 = 5/6``. With weight 2 on the first item (positive weight 3):
    ``2/3 * 1 + 1/3 * 3/4 = 11/12``.

    >>> from prtheory.theory.brute import brute_group
    >>> y, s = [1, 0, 1, 0], [3, 2, 2, 1]
    >>> brute_group(y, s), brute_group(y, s, [2, 1, 1, 1])
    (Fraction(5, 6), Fraction(11, 12))
    """
    weights: list[Any] = [1] * len(y) if w is None else [Fraction(x) for x in w]
    pos = sum(wi for yi, wi in zip(y, weights, strict=True) if yi)
    ap, prev_recall = Fraction(0), Fraction(0)
    for t in sorted(set(s), reverse=True):
        tp = sum(wi for yi, si, wi in zip(y, s, weights, strict=True) if yi and si >= t)
        pp = sum(wi for si, wi in zip(s, weights, strict=True) if si >= t)
        recall = Fraction(tp) / pos
        if recall != prev_recall:
            ap += (recall - prev_recall) * Fraction(tp) / pp
        prev_recall = recall
    return ap


def ir_ap(labels: Labels) -> Fraction:
    """The IR definition of AP of labels in rank order: mean over positives of hits / rank.

    Parameters
    ----------
    labels : sequence of int
        1 = positive, top first; at least one positive.

    Returns
    -------
    Fraction
        AP.

    Examples
    --------
    Hits at ranks 1 and 3: ``(1/1 + 2/3)/2 = 5/6``:

    >>> from prtheory.theory.brute import ir_ap
    >>> ir_ap([1, 0, 1])
    Fraction(5, 6)
    """
    hits, total = 0, Fraction(0)
    for rank, rel in enumerate(labels, start=1):
        if rel:
            hits += 1
            total += Fraction(hits, rank)
    return total / hits


def brute_order(
    y: Labels, s: Scores, policy: str, doc_ids: Sequence[Any] | None = None
) -> list[int]:
    """The labels in rank order under a tie policy: ``optimistic`` (positives first within a
    tie), ``pessimistic`` (negatives first), ``trec_eval`` (document ids descending) or, for any
    other policy, input order within a tie.

    Parameters
    ----------
    y : sequence of int
        Labels, 1 = positive.
    s : sequence
        Scores (higher ranks first; equal scores are tied).
    policy : str
        ``optimistic``, ``pessimistic``, ``trec_eval`` or another (input order).
    doc_ids : sequence, optional
        Document ids (needed for ``trec_eval``).

    Returns
    -------
    list of int
        The labels, top first.

    Raises
    ------
    InvalidInputError
        ``trec_eval`` without ``doc_ids``.

    Examples
    --------
    >>> from prtheory.theory.brute import brute_order
    >>> y, s = [1, 0, 1, 0], [3, 2, 2, 1]
    >>> brute_order(y, s, "optimistic"), brute_order(y, s, "pessimistic")
    ([1, 1, 0, 0], [1, 0, 1, 0])

    ``trec_eval`` puts ``"c"`` (the tied positive) before ``"b"``, ids descending:

    >>> brute_order(y, s, "trec_eval", ["a", "b", "c", "d"])
    [1, 1, 0, 0]
    >>> brute_order(y, s, "trec_eval")
    Traceback (most recent call last):
    ...
    prtheory.errors.InvalidInputError: doc_ids: is needed for the trec_eval order, got None
    """
    idx = list(range(len(y)))
    if policy == "optimistic":
        idx = sorted(idx, key=lambda i: -y[i])
    elif policy == "pessimistic":
        idx = sorted(idx, key=lambda i: y[i])
    elif policy == "trec_eval":
        if doc_ids is None:
            raise InvalidInputError("doc_ids", "is needed for the trec_eval order, got None")
        idx = sorted(idx, key=lambda i: doc_ids[i], reverse=True)
    idx = sorted(idx, key=lambda i: -s[i])  # stable: the secondary order survives within ties
    return [y[i] for i in idx]


def arrangements(values: Sequence[Any]) -> Iterator[tuple[Any, ...]]:
    """Every distinct ordering of the multiset ``values``, each once (not every permutation:
    a block of 40 items with 2 positives has 780 of them, not 40!).

    Parameters
    ----------
    values : sequence
        The multiset (sortable).

    Yields
    ------
    tuple
        Each distinct ordering once.

    Examples
    --------
    ``3!/2! = 3`` orderings of ``{0, 0, 1}``:

    >>> from prtheory.theory.brute import arrangements
    >>> list(arrangements([0, 0, 1]))
    [(0, 0, 1), (0, 1, 0), (1, 0, 0)]
    """
    counts = Counter(values)
    keys = sorted(counts)

    def build(left: int) -> Iterator[tuple[Any, ...]]:
        if left == 0:
            yield ()
            return
        for key in keys:
            if counts[key]:
                counts[key] -= 1
                for rest in build(left - 1):
                    yield (key, *rest)
                counts[key] += 1

    yield from build(len(values))


def brute_expected(
    y: Labels, s: Scores, metric: Callable[[list[int]], Fraction] | None = None
) -> Fraction:
    """Mean of ``metric(labels in rank order)`` (IR AP by default) over within-block orders.

    Parameters
    ----------
    y : sequence of int
        Labels, 1 = positive.
    s : sequence
        Scores (higher ranks first; equal scores are tied).
    metric : callable, optional
        A function of the labels in rank order (:func:`ir_ap` by default).

    Returns
    -------
    Fraction
        The mean.

    Examples
    --------
    The ranking ``y = [1, 0, 1, 0]``, ``s = [3, 2, 2, 1]``: a positive on top, then a positive
    tied with a negative, then a negative.
    The tie ordered both ways: ``[1, 1, 0, 0]`` (AP 1) and ``[1, 0, 1, 0]`` (AP 5/6), mean
    ``11/12``:

    >>> from prtheory.theory.brute import brute_expected
    >>> brute_expected([1, 0, 1, 0], [3, 2, 2, 1])
    Fraction(11, 12)
    """
    metric = ir_ap if metric is None else metric
    blocks = [[y[i] for i in range(len(y)) if s[i] == t] for t in sorted(set(s), reverse=True)]
    orders = [list(arrangements(b)) for b in blocks]
    values = [metric([v for b in combo for v in b]) for combo in itertools.product(*orders)]
    return sum(values, Fraction(0)) / len(values)


def brute(y: Labels, s: Scores, policy: str, doc_ids: Sequence[Any] | None = None) -> Fraction:
    """AP under a tie policy: ``group``, ``expected``, or an ordering of :func:`brute_order`.

    Parameters
    ----------
    y : sequence of int
        Labels, 1 = positive.
    s : sequence
        Scores (higher ranks first; equal scores are tied).
    policy : str
        ``group``, ``expected`` or a policy of :func:`brute_order`.
    doc_ids : sequence, optional
        Document ids (for ``trec_eval``).

    Returns
    -------
    Fraction
        AP.

    Examples
    --------
    The ranking ``y = [1, 0, 1, 0]``, ``s = [3, 2, 2, 1]``: a positive on top, then a positive
    tied with a negative, then a negative.
    (see :func:`brute_group`, :func:`brute_expected`; optimistically the positives come first,
    AP 1):

    >>> from prtheory.theory.brute import brute
    >>> [brute([1, 0, 1, 0], [3, 2, 2, 1], p) for p in ("group", "expected", "optimistic")]
    [Fraction(5, 6), Fraction(11, 12), Fraction(1, 1)]
    """
    if policy == "group":
        return brute_group(y, s)
    if policy == "expected":
        return brute_expected(y, s)
    return ir_ap(brute_order(y, s, policy, doc_ids))


def brute_counts(y: Labels, s: Scores) -> list[tuple[int, int]]:
    """(TP, FP) at each distinct threshold, counted item by item (no sorting library).

    Parameters
    ----------
    y : sequence of int
        Labels, 1 = positive.
    s : sequence
        Scores (higher ranks first; equal scores are tied).

    Returns
    -------
    list of (int, int)
        One pair per distinct score, highest first.

    Examples
    --------
    >>> from prtheory.theory.brute import brute_counts
    >>> brute_counts([1, 0, 1, 0], [3, 2, 2, 1])
    [(1, 0), (2, 1), (2, 2)]
    """
    out = []
    for t in sorted(set(s), reverse=True):
        tp = sum(1 for yi, si in zip(y, s, strict=True) if si >= t and yi == 1)
        fp = sum(1 for yi, si in zip(y, s, strict=True) if si >= t and yi == 0)
        out.append((tp, fp))
    return out


def tie_patterns(n: int) -> Iterator[list[int]]:
    """Scores for every composition of n items into consecutive tie blocks (2**(n-1) of them).

    Parameters
    ----------
    n : int
        Items (at least 1).

    Yields
    ------
    list of int
        The scores of one composition (0 for the first block, then -1, -2, ...).

    Examples
    --------
    ``2**2 = 4`` compositions of 3 items: one block, 2 + 1, 1 + 2, three blocks:

    >>> from prtheory.theory.brute import tie_patterns
    >>> list(tie_patterns(3))
    [[0, 0, 0], [0, 0, -1], [0, -1, -1], [0, -1, -2]]
    """
    for cuts in itertools.product((False, True), repeat=n - 1):
        block, scores = 0, [0]
        for c in cuts:
            block += c
            scores.append(-block)
        yield scores


def two_class_rankings(n: int) -> Iterator[tuple[list[int], list[int]]]:
    """``(labels, scores)`` for every label vector of n items with both classes, times every
    tie-block composition of :func:`tie_patterns`: all rankings of n items up to relabelling.

    Parameters
    ----------
    n : int
        Items (at least 2).

    Yields
    ------
    tuple of (list of int, list of int)
        Labels and scores.

    Examples
    --------
    ``(2**n - 2) * 2**(n - 1)``: 4 for n = 2, 24 for n = 3:

    >>> from prtheory.theory.brute import two_class_rankings
    >>> len(list(two_class_rankings(2))), len(list(two_class_rankings(3)))
    (4, 24)
    """
    for y in itertools.product([0, 1], repeat=n):
        if 0 < sum(y) < n:
            for s in tie_patterns(n):
                yield list(y), s
