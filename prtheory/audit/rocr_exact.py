"""The exact least value of ROCR's ``performance(pred, "aucpr")`` for small counts.

:mod:`prtheory.audit.rocr_bound` proves a lower bound ``L(P, N)`` that is not attained; here the
least exact (rational) area over **every** ranking (ties allowed) of ``P`` positives and ``N``
negatives is found by an exhaustive search, for the counts where the search is cheap
(:func:`in_exact_domain`).

**The list as a stack machine.** With the notation of :mod:`prtheory.audit.rocr_bound` (original
points ``o_j = (t_j, f_j)``, ``j = 0..m``, TP jumps ``d_j = t_{j+1} - t_j``, a *block* where
``d_j > 2``), ROCR's loop ``for i in 0..m-1: if d_i > 2, insert the block's points after list
index i`` builds the same list as this machine: a stack holds ``o_0, ..., o_m`` (``o_0`` on
top); for ``i = 0..m-1`` pop one element and emit it, then, if ``d_i > 2``, push the block's
points ``(t_i + k, f_i + k s_i)``, ``k = 1..d_i`` (``k = 1`` on top); finally emit the rest of
the stack. Indeed when ROCR reaches ``i`` the list's indices ``0..i-1`` are never moved again
(every later insertion is after a larger index), and the machine has emitted exactly those ``i``
elements, in that order, with the rest of the list on its stack; emitting one more and pushing
the block is inserting it after index ``i``. :func:`list_order` is this machine on labels
``(j, k)``: ``k = 0`` for ``o_j``, ``k >= 1`` for point ``k`` of the block at ``j``. The order
depends on the jumps alone; the FPs only place the points.

**Every ranking is a curve.** ROCR keeps the least FP at each TP, so a ranking's value is that
of its *curve*: jumps ``d_0, ..., d_{m-1} >= 1`` summing to ``P`` (a composition of ``P``) and
FPs ``0 = f_0 <= f_1 <= ... <= f_m <= N``; conversely every curve is kept from the ranking whose
group ``j`` ties ``d_{j-1}`` positives with ``f_j - f_{j-1}`` negatives, the ``N - f_m``
negatives left tied last. So the least value over rankings is the least over curves, and the
search covers every curve, in two parts:

(a) *At most one block.* The list is in chain order: the first block is inserted after
``o_{i_1}``, where it belongs (step (4) of :mod:`prtheory.audit.rocr_bound`). The area is then
the sum over ``j`` of the *segment* from ``o_j`` to ``o_{j+1}`` (one trapezoid, or the block's
trapezoids when ``d_j > 2``), which depends on ``(t_j, f_j, t_{j+1}, f_{j+1})`` alone. So the
least area from a state ``(t, f, b)`` (TP, FP, blocks used, ``b <= 1``) to the end obeys
Bellman's equation ``V(t, f, b) = min over t' > t, f' >= f of segment + V(t', f', b + [t' - t >
2])``, ``V(P, f, b) = 0``: a dynamic programme over ``P (N + 1) 2`` states that is exhaustive
by induction on ``P - t``.

(b) *Two blocks or more.* Every composition of ``P`` with two jumps above 2 or more, and every
FP sequence, is evaluated (vectorised over the FP sequences of one composition).

**Exact from float64.** Both parts evaluate areas in float64 with ROCR's own formulas
(precision ``(k + t_i)/(t_i + f_i + k + s k)``, trapezoids ``0.5 (x_b - x_a)(y_a + y_b)``).
Each evaluated area is a sum, in some association, of at most ``M = 2P`` such trapezoids,
so it lies within ``A = rocr_allowance(P)`` of its exact value (the Float64 paragraph of
:mod:`prtheory.audit.rocr_bound`: every partial sum is at most ``M`` in magnitude, whatever the
order). Let ``F`` be the least float value found. A curve of least exact value ``V*`` has float
value at most ``V* + A <= F + 2A`` (``V*`` is at most the exact value of the curve that printed
``F``, which is at most ``F + A``), and in (a) every prefix of it keeps ``cost + V(next) <= F +
2A`` on the way down (``V`` is a least float completion). So the curves whose float value is at
most ``F + 2A`` (in (a), found by descending the programme with that threshold) contain every
curve of least exact value; their areas are recomputed in exact ``Fraction`` arithmetic and the
least is returned. (The search screens with ``4A``, twice what is needed, so that the rounding
of its own comparisons and of ``A`` to a float cannot matter.)

**Domain and speed.** Part (b) evaluates ``W(P, N) = sum over compositions with two or more
blocks of C(N + m, m)`` FP sequences (``m`` the number of parts, :func:`enumerated_sequences`),
about ``10^7`` a second; part (a) costs about ``P^3 (N + 1)^2`` float operations and holds
``P^2 (N + 1)^2/2`` floats. :func:`in_exact_domain` admits ``P <= MOST_POSITIVES = 14``, ``N <=
MOST_NEGATIVES = 400`` and ``W <= MOST_SEQUENCES = 10^7``: every ``N <= 400`` for ``P <= 6``,
then ``N <= 268, 75, 36, 21, 14, 10, 8, 6`` for ``P = 7, ..., 14``. At those edges a search
takes 0.4 to 1.1 s of CPU for ``P >= 7`` (at most 0.05 s for ``P <= 6``), measured on one
core of a loaded 2-core machine; smaller counts take less. Outside the domain the audit uses
``L(P, N)``.

**What it found.** Misplaced blocks lower some curves' areas. Up to ``P = 10`` positives the
least value is still attained with the list in recall order (every ``N <= 30`` and every 25th
beyond, to the domain's edge); from ``P = 11`` it is mostly attained by a misplaced curve:
``P = 12``, ``N = 6`` gives 0.47425, from 3 positives, 1 positive tied with the 6 negatives,
then 8 positives (jumps 3, 1, 8 with FPs 0, 0, 6, 6), the family of the negative areas. Over
the same counts the least value lies more than 1/16 above ``pi/2``, while the negative areas of
:mod:`prtheory.audit.rocr_bound` need more positives and negatives (30 positives and 300
negatives print -0.26592). (The tests check these statements.)
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterator, Sequence
from fractions import Fraction

import numpy as np

from prtheory.audit.rocr_bound import rocr_allowance
from prtheory.errors import InvalidInputError

__all__ = [
    "IN_ORDER_BLOCKS",
    "MOST_NEGATIVES",
    "MOST_POSITIVES",
    "MOST_SEQUENCES",
    "enumerated_sequences",
    "exact_area",
    "in_exact_domain",
    "list_order",
    "rocr_least_curve",
    "rocr_least_exact",
]

#: the most positives the exact search takes (its part (a) has ``2^(P-1)`` compositions to list)
MOST_POSITIVES = 14
#: the most negatives the exact search takes (part (a) holds ``(N + 1)^2`` arrays)
MOST_NEGATIVES = 400
#: the most FP sequences part (b) of the search evaluates (about a second)
MOST_SEQUENCES = 10_000_000
#: curves with at most this many blocks keep ROCR's list in chain order (step (4) of
#: :mod:`prtheory.audit.rocr_bound`): part (a) of the search; part (b) takes the others
IN_ORDER_BLOCKS = 1

Label = tuple[int, int]


def list_order(jumps: Sequence[int]) -> list[Label]:
    """ROCR's list after its insertions, as labels (the stack machine of the module docstring).

    Parameters
    ----------
    jumps : sequence of int
        The TP jumps ``d_0, ..., d_{m-1}`` of the original points.

    Returns
    -------
    list of (int, int)
        ``(j, 0)`` for the original point ``o_j``, ``(j, k)`` for point ``k`` of the block
        inserted for the jump ``d_j > 2``, in list order.

    Examples
    --------
    Jumps 3, 1, 26 (3 positives, 1 positive tied with negatives, 26 positives): the block of
    jump 26 lands after list index 2, the second point of the first block:

    >>> from prtheory.audit.rocr_exact import list_order
    >>> order = list_order([3, 1, 26])
    >>> len(order), order[:4], order[4], order[28:]
    (33, [(0, 0), (0, 1), (0, 2), (2, 1)], (2, 2), [(2, 26), (0, 3), (1, 0), (2, 0), (3, 0)])
    """
    m = len(jumps)
    stack: list[Label] = [(j, 0) for j in range(m, -1, -1)]
    out: list[Label] = []
    for i in range(m):
        out.append(stack.pop())
        if jumps[i] > 2:
            stack.extend((i, k) for k in range(jumps[i], 0, -1))
    out.extend(reversed(stack))
    return out


def exact_area(jumps: Sequence[int], fps: Sequence[int]) -> Fraction:
    """ROCR's area of a curve in exact arithmetic.

    Parameters
    ----------
    jumps : sequence of int
        The TP jumps ``d_0, ..., d_{m-1}`` (each at least 1).
    fps : sequence of int
        The FPs ``f_0 = 0 <= f_1 <= ... <= f_m``.

    Returns
    -------
    Fraction
        The trapezoid sum over :func:`list_order`, precision ``t/(t + f)`` (1 at ``o_0``).

    Examples
    --------
    Jumps 1, 1 with FPs 0, 0, 1 (a positive, then a positive tied with the negative): points
    (0, 1), (1/2, 1), (1, 2/3), area 1/2 + (1/2)(1 + 2/3)/2 = 11/12:

    >>> from prtheory.audit.rocr_exact import exact_area
    >>> exact_area([1, 1], [0, 0, 1])
    Fraction(11, 12)
    """
    tp = [0, *np.cumsum(jumps).tolist()]
    pos = tp[-1]
    pts: list[tuple[Fraction, Fraction]] = []
    for j, k in list_order(jumps):
        t = tp[j] + k
        if k == 0:
            n = Fraction(t + fps[j])
        else:
            n = tp[j] + fps[j] + k + Fraction(fps[j + 1] - fps[j], jumps[j]) * k
        pts.append((Fraction(t, pos), t / n if n else Fraction(1)))
    return sum(
        ((b[0] - a[0]) * (a[1] + b[1]) / 2 for a, b in itertools.pairwise(pts)),
        Fraction(0),
    )


def _compositions(n: int) -> Iterator[tuple[int, ...]]:
    if n == 0:
        yield ()
        return
    for first in range(1, n + 1):
        for rest in _compositions(n - first):
            yield (first, *rest)


def enumerated_sequences(pos: int, neg: int) -> int:
    """``W(P, N)``: how many FP sequences part (b) of the search evaluates.

    Parameters
    ----------
    pos, neg : int
        The class counts.

    Returns
    -------
    int
        The sum over compositions of ``pos`` with at least two parts above 2 of ``C(neg + m,
        m)``, ``m`` the number of parts; counted by a programme over (TP, parts, blocks).

    Examples
    --------
    ``P = 6``: only 3 + 3 has two blocks, with ``C(N + 2, 2)`` FP sequences (``f_1 <= f_2 <=
    N``), 6 for ``N = 2``:

    >>> from prtheory.audit.rocr_exact import enumerated_sequences
    >>> enumerated_sequences(6, 2), enumerated_sequences(5, 100)
    (6, 0)
    """
    top = IN_ORDER_BLOCKS + 1
    # ways[t][m][b]: compositions of t into m parts with min(blocks, top) = b
    ways = [[[0] * (top + 1) for _ in range(pos + 1)] for _ in range(pos + 1)]
    ways[0][0][0] = 1
    for t in range(pos):
        for m in range(t + 1):
            for b in range(top + 1):
                if ways[t][m][b]:
                    for d in range(1, pos - t + 1):
                        ways[t + d][m + 1][min(b + (d > 2), top)] += ways[t][m][b]
    return sum(ways[pos][m][top] * math.comb(neg + m, m) for m in range(pos + 1))


def in_exact_domain(pos: int, neg: int) -> bool:
    """Whether :func:`rocr_least_exact` takes these counts (module docstring, Domain).

    Parameters
    ----------
    pos, neg : int
        The class counts.

    Returns
    -------
    bool
        ``1 <= pos <= MOST_POSITIVES``, ``1 <= neg <= MOST_NEGATIVES`` and
        ``enumerated_sequences(pos, neg) <= MOST_SEQUENCES``.

    Examples
    --------
    >>> from prtheory.audit.rocr_exact import in_exact_domain
    >>> in_exact_domain(8, 75), in_exact_domain(8, 76), in_exact_domain(30, 300)
    (True, False, False)
    """
    return (
        1 <= pos <= MOST_POSITIVES
        and 1 <= neg <= MOST_NEGATIVES
        and enumerated_sequences(pos, neg) <= MOST_SEQUENCES
    )


def _monotone(m: int, neg: int) -> np.ndarray:
    """Every FP sequence ``0 = f_0 <= f_1 <= ... <= f_m <= neg``, one per row."""
    rows = np.zeros((1, 1), dtype=np.int64)
    for _ in range(m):
        last = rows[:, -1]
        counts = neg + 1 - last
        starts = np.cumsum(counts) - counts
        new = np.repeat(last, counts) + np.arange(int(counts.sum())) - np.repeat(starts, counts)
        rows = np.column_stack([np.repeat(rows, counts, axis=0), new])
    return rows


def _fp_chunks(m: int, neg: int) -> Iterator[np.ndarray]:
    """Every FP sequence of :func:`_monotone`, in chunks of at most about ``2^20`` rows (split
    on ``f_1`` when there are more)."""
    if math.comb(neg + m, m) <= 2**20:
        yield _monotone(m, neg)
        return
    for f1 in range(neg + 1):
        rest = _monotone(m - 1, neg - f1)
        yield np.column_stack([np.zeros(rest.shape[0], dtype=np.int64), f1 + rest])


def _float_areas(jumps: Sequence[int], fs: np.ndarray) -> np.ndarray:
    """ROCR's float64 area of every FP sequence (a row of ``fs``) of one composition, summed in
    list order as R sums it."""
    tp = [0, *np.cumsum(jumps).tolist()]
    pos = tp[-1]
    area = np.zeros(fs.shape[0])
    prev: tuple[float, np.ndarray] | None = None
    for j, k in list_order(jumps):
        if k == 0:
            y = np.ones(fs.shape[0]) if j == 0 else tp[j] / (tp[j] + fs[:, j])
        else:
            skew = (fs[:, j + 1] - fs[:, j]) / jumps[j]
            y = (k + tp[j]) / (tp[j] + fs[:, j] + k + skew * k)
        x = (k + tp[j]) / pos
        if prev is not None:
            area = area + 0.5 * (x - prev[0]) * (y + prev[1])
        prev = (x, y)
    return area


def _segments(t: int, d: int, pos: int, neg: int) -> np.ndarray:
    """The float64 area of the chain segment from ``(t, f)`` to ``(t + d, f')``, indexed ``[f,
    f']`` (``+inf`` where ``f' < f``): one trapezoid, or the block's when ``d > 2``."""
    f = np.arange(neg + 1, dtype=np.int64)[:, None]
    g = np.arange(neg + 1, dtype=np.int64)[None, :]
    x0 = t / pos
    y0 = np.ones((neg + 1, 1)) if t == 0 else t / (t + f)
    if d <= 2:
        seg = 0.5 * ((t + d) / pos - x0) * (y0 + (t + d) / (t + d + g))
    else:
        skew = (np.maximum(g, f) - f) / d  # f' < f is masked below
        seg = np.zeros((neg + 1, neg + 1))
        x, y = x0, y0
        for k in range(1, d + 1):
            xk = (k + t) / pos
            yk = (k + t) / (t + f + k + skew * k)
            seg = seg + 0.5 * (xk - x) * (y + yk)
            x, y = xk, yk
    return np.where(g >= f, seg, np.inf)


def _chain_search(pos: int, neg: int, slack: float, best: float) -> tuple[float, list]:
    """Part (a): the least float area over curves with at most one block, and every curve
    within ``slack`` of ``min(that, best)``, as ``(jumps, fps)``."""
    seg = {(t, d): _segments(t, d, pos, neg) for t in range(pos) for d in range(1, pos - t + 1)}
    value = np.full((pos + 1, IN_ORDER_BLOCKS + 1, neg + 1), np.inf)
    value[pos] = 0.0
    for t in range(pos - 1, -1, -1):
        for b in range(IN_ORDER_BLOCKS + 1):
            for d in range(1, pos - t + 1):
                nb = b + (d > 2)
                if nb <= IN_ORDER_BLOCKS:
                    cand = (seg[t, d] + value[t + d, nb][None, :]).min(axis=1)
                    value[t, b] = np.minimum(value[t, b], cand)
    least = float(value[0, 0, 0])
    threshold = min(least, best) + slack
    found: list = []

    def descend(t: int, f: int, b: int, cost: float, jumps: list, fps: list) -> None:
        if t == pos:
            found.append((tuple(jumps), tuple(fps)))
            return
        for d in range(1, pos - t + 1):
            nb = b + (d > 2)
            if nb > IN_ORDER_BLOCKS:
                continue
            reach = cost + seg[t, d][f] + value[t + d, nb]
            for g in np.flatnonzero(reach <= threshold).tolist():
                descend(t + d, g, nb, cost + seg[t, d][f, g], [*jumps, d], [*fps, g])

    if least <= threshold:
        descend(0, 0, 0, 0.0, [], [0])
    return least, found


Curve = tuple[tuple[int, ...], tuple[int, ...]]


def _misplaced_search(pos: int, neg: int, slack: float) -> tuple[float, list[Curve]]:
    """Part (b): the least float area over curves with more than :data:`IN_ORDER_BLOCKS`
    blocks, and every such curve within ``slack`` of it."""
    best = math.inf
    found: list[tuple[Curve, float]] = []
    for jumps in _compositions(pos):
        if sum(d > 2 for d in jumps) <= IN_ORDER_BLOCKS:
            continue
        for fs in _fp_chunks(len(jumps), neg):
            areas = _float_areas(jumps, fs)
            best = min(best, float(areas.min()))
            for i in np.flatnonzero(areas <= best + slack).tolist():
                found.append(((jumps, tuple(fs[i].tolist())), float(areas[i])))
    return best, [curve for curve, v in found if v <= best + slack]


@functools.lru_cache(maxsize=256)
def rocr_least_curve(pos: int, neg: int) -> tuple[Fraction, tuple[int, ...], tuple[int, ...]]:
    """The least exact area ROCR's ``aucpr`` has over every ranking of ``pos`` positives and
    ``neg`` negatives (ties allowed), and a curve attaining it, found by the exhaustive search
    of the module docstring.

    Parameters
    ----------
    pos, neg : int
        The class counts, within :func:`in_exact_domain`.

    Returns
    -------
    tuple
        ``(area, jumps, fps)``: the least area (before ROCR's float64 rounding), the TP jumps
        and the FPs ``f_0, ..., f_m`` of a curve attaining it (the ranking: group ``j`` ties
        ``jumps[j-1]`` positives with ``fps[j] - fps[j-1]`` negatives, the other negatives
        last). Among curves of equal least area, the first in the order (jumps, fps).

    Raises
    ------
    InvalidInputError
        Counts outside :func:`in_exact_domain`.

    Examples
    --------
    Three positives and one negative: the least is 2/3, the negative tied with the first
    positive, the other two tied below (points (0, 1), (1/3, 1/2), (1, 3/4): (1/3)(1 +
    1/2)/2 + (2/3)(1/2 + 3/4)/2 = 1/4 + 5/12):

    >>> from prtheory.audit.rocr_exact import rocr_least_curve
    >>> rocr_least_curve(3, 1)
    (Fraction(2, 3), (1, 2), (0, 1, 1))
    """
    if not in_exact_domain(pos, neg):
        raise InvalidInputError(
            "pos, neg",
            f"({pos}, {neg}) is outside the exact search's domain (1 <= pos <= "
            f"{MOST_POSITIVES}, 1 <= neg <= {MOST_NEGATIVES}, at most {MOST_SEQUENCES} FP "
            f"sequences to evaluate: {enumerated_sequences(pos, neg)} here)",
        )
    # 2A suffices (module docstring); twice that absorbs the rounding of the comparisons
    slack = 4 * float(rocr_allowance(pos))
    best, misplaced = _misplaced_search(pos, neg, slack)
    chain = _chain_search(pos, neg, slack, best)[1]
    return min((exact_area(j, f), j, f) for j, f in misplaced + chain)


def rocr_least_exact(pos: int, neg: int) -> Fraction:
    """The least exact area ROCR's ``aucpr`` has over every ranking of ``pos`` positives and
    ``neg`` negatives: the area of :func:`rocr_least_curve`.

    Parameters
    ----------
    pos, neg : int
        The class counts, within :func:`in_exact_domain`.

    Returns
    -------
    Fraction
        The least area, attained by some ranking (before ROCR's float64 rounding).

    Raises
    ------
    InvalidInputError
        Counts outside :func:`in_exact_domain`.

    Examples
    --------
    One positive: the curves are (0, 0) -> (1, f), area (1 + 1/(1 + f))/2, least at ``f =
    neg``:

    >>> from fractions import Fraction
    >>> from prtheory.audit.rocr_exact import rocr_least_exact
    >>> rocr_least_exact(1, 4) == (1 + Fraction(1, 5)) / 2
    True
    """
    return rocr_least_curve(pos, neg)[0]
