"""A proved lower bound on what ROCR's ``performance(pred, "aucpr")`` can print.

ROCR 1.0.11's ``.performance.aucpr`` (emulated by :func:`prtheory.conformance.r_models.rocr_aucpr`,
which the conformance tests compare with R) keeps the least FP at each TP, giving the original
points ``o_j = (t_j, f_j)``, ``j = 0..m``, with ``0 = t_0 < t_1 < ... < t_m = P``, ``0 = f_0 <=
f_1 <= ... <= f_m <= N`` (P positives, N negatives); the point ``o_j`` is drawn at recall ``x =
t_j/P``, precision ``y = t_j/n_j`` with ``n_j = t_j + f_j`` (``y = 1`` at ``o_0``). For each ``i``
with a TP jump ``t_{i+1} - t_i > 2`` (a *block*; ``q`` blocks, ``i_1 < ... < i_q``) it inserts the
Davis-Goadrich points ``(t_i + k, f_i + s k)``, ``k = 1..t_{i+1} - t_i``, ``s = (f_{i+1} -
f_i)/(t_{i+1} - t_i)``, with ``append(..., after = i)`` into the list as it has grown, and sums
the trapezoids ``(x_b - x_a)(y_a + y_b)/2`` of consecutive list elements ``a, b``. The second and
later blocks land too early (``i`` ignores the points already inserted), so the list can run back
in recall, and a backward trapezoid subtracts area: ROCR prints 0.0434820 for 3000 tied negatives
above 300 positives tied in groups of 72 and 228 (below pi/2 = 1/22), and a *negative* area,
-0.2659178, for 3 positives, then 1 positive tied with 300 negatives, then 26 positives.

**Theorem.** For every ranking (ties allowed) of ``P >= 1`` positives and ``N >= 1`` negatives,
ROCR's exact (real-arithmetic) area ``S`` satisfies

    S >= L(P, N) = pi/2 - phi(Q)/2,    pi = P/(P + N),    Q = max(floor(P/3) - 1, 0),

    phi(Q) = sum_{j=0}^{Q-1} (1 - 3j/P) = Q - 3 Q (Q - 1)/(2P)

(``phi(Q) = Q`` for ``Q <= 1``, i.e. ``P <= 8``; about ``P/6`` for large ``P``, so ``L`` is
about ``pi/2 - P/12`` there).

*Proof.* (1) Every point of the list, original or inserted, is a pair ``(t, n)`` of TP and
predicted positives drawn at ``(t/P, t/n)``; on the *chain* (the original points with each
block's points between its two ends) both ``t`` and ``n`` are nondecreasing: ``n = t_i + f_i + k(1
+ s)`` increases with ``k`` from ``n_i`` to ``n_{i+1}``. Every point has ``t/n <= 1`` and ``n <= t
+ N``.

(2) The trapezoid sum is ``S = x_M y_M/2 + (1/2) sum_steps C(a, b)``, ``C(a, b) = x_b y_a - x_a
y_b``: expand ``(x_b - x_a)(y_a + y_b) = (x_b y_b - x_a y_a) + (x_b y_a - x_a y_b)``; the first
parts telescope from ``x_0 y_0 = 0`` to ``x_M y_M = y_M`` (the last element is always ``o_m``:
insertions go after index ``i <= m - 1`` of a list of at least ``m + 1`` elements). (The identity
is checked with sympy in the tests.) ``y_M = P/(P + f_m) >= pi``.

(3) A step from ``a`` to ``b`` with ``t_a <= t_b`` and ``n_a <= n_b`` has ``C(a, b) = (t_a t_b/P)
(1/n_a - 1/n_b) >= 0`` (``C = x_b >= 0`` from ``o_0``). Any step has ``C(a, b) >= -x_a y_b >= -1``.

(4) Which steps can have ``C < 0``. Insertions never reorder the elements already there, and an
insertion after index ``i`` replaces one step ``(e, e')`` (``e`` at index ``i``) by ``(e, F)``, the
block's own steps and ``(L, e')``, where ``F`` is the block's first point (``TP = t_i + 1``) and
``L`` its last (the point ``o_{i+1}`` again). When block ``a`` is inserted after index ``i_a``,
the first ``i_a + 1`` elements are original points ``o_j`` with ``j <= i_a`` and points of
earlier blocks ``b``, whose ``(t, n) <= (t_{i_b+1}, n_{i_b+1}) <= (t_{i_a}, n_{i_a})``; so ``e``
precedes ``F`` on the chain, and ``(e, F)`` has ``C >= 0`` by (3), as have the block's steps and
the original steps ``(o_j, o_{j+1})``. Every step of the final list is of one of these kinds or
is the step leaving some block's ``L``: at most ``q`` steps. Block 1 is inserted where it
belongs: the step leaving ``L_1`` is ``(L_1, o_{i_1+1})``, two copies of one point (``C = 0``),
or, once a later block is inserted right after ``L_1``, that block's entry step (``C >= 0``); so
at most ``q - 1`` steps have ``C < 0``.

(5) Blocks take disjoint TP ranges ``(t_i, t_{i+1}]`` of width at least 3 inside ``(0, P]``, in
the order of their indices: ``q <= floor(P/3)``, and the ``q - k`` blocks above block ``k`` end
it at ``t_{i_k+1} <= P - 3(q - k)``. A step with ``C < 0`` leaves the last point ``L_k`` of a
block ``k >= 2`` (4), one per block, and has ``C >= -x_{L_k} y_b >= -x_{L_k} = -t_{i_k+1}/P`` (3).
So ``sum_steps C >= -sum_{k=2}^{q} (1 - 3(q - k)/P) = -phi(q - 1)`` (``j = q - k``), and with (2)
``S >= pi/2 - phi(q - 1)/2``. Finally ``phi(Q + 1) - phi(Q) = 1 - 3Q/P > 0`` for ``Q < P/3``, and
``q - 1 <= Q < P/3``, so ``phi(q - 1) <= phi(Q)``: ``S >= L(P, N)``, and ``S >= pi/2`` when ``q
<= 1``. (The sum, the difference, and ``d phi/dP = 3Q(Q - 1)/(2P^2) >= 0``, by which ``L``
decreases as ``P`` grows, are checked with sympy in the tests.) QED.

(``N = 0``: every precision is 1 and every list gives ``S = 1``.)

**Tightness.** ``L`` is not attained. For ``P <= 5`` (at most one block, the list in recall
order) it is pi/2, below the least value. One backward step can cost nearly the whole ``1/2``:
the rankings "3 positives, 1 positive tied with ``N`` negatives, ``P - 4`` positives" print
values tending to ``-1/2`` as ``P`` and ``N/P`` grow (-0.26592 at 30/300, -0.48605 at 400/10^6,
-0.49842 at 4000/10^7), the limit of ``pi/2 - 1/2``; so the one-step bound is tight in the
limit. Several backward steps do not compound in any ranking found (exhaustive search over the
tie structures of ``P, N <= 8``, of ``P = 16`` with the negatives in one tie group, and random
search up to ``P = 100``): their least values are those of that family, far above ``L`` for
large ``P``. :data:`TIGHTNESS` says this in the audit's certificate. For small
counts :mod:`prtheory.audit.rocr_exact` finds the exact least value instead, and the audit uses
that; this bound serves the other counts.

**Float64.** ROCR sums in double. The list has at most ``2P + 1`` elements (``m + 1 <= P + 1``
original points and at most ``P`` inserted ones), so ``M <= 2P`` trapezoids, each at most 1 in
magnitude (recall differences at most 1, precisions at most 1). Recall ``t/P``, precision (at
most four operations: ``skew``, ``skew * x``, the sum, the division) and each trapezoid are
within ``17 u`` absolute of their exact values (to first order, ``u = 2^-53``), and the running
sum adds at most ``u`` times a partial sum, each at most ``M`` in magnitude: the printed value is
within ``(M^2 + 17 M + 1) u`` of ``S`` to first order; :func:`rocr_allowance` takes twice that,
which covers the higher-order terms while ``M u < 2^-10`` (``M = 2P``; ``P = 2^31`` when only
the skew is printed, as for the other library methods).
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["TIGHTNESS", "backward_cost", "backward_steps", "rocr_allowance", "rocr_least"]

#: what the audit's certificate says about the bound
TIGHTNESS = (
    "not attained: one backward step costs at most 1/2 (rankings approach pi/2 - 1/2 as pos and "
    "neg/pos grow), but no ranking found loses more than one such half; the least value found "
    "with pos = 30, neg = 300 is -0.26592, far above the bound there; the exact least value is "
    "known only for the small counts of prtheory.audit.rocr_exact"
)


def backward_steps(pos: int) -> int:
    """How many steps of ROCR's list can run back in recall, at most (steps (4), (5)).

    Parameters
    ----------
    pos : int
        The number of positives.

    Returns
    -------
    int
        ``Q = max(floor(pos/3) - 1, 0)``: one fewer than the blocks (TP jumps above 2) that fit.

    Examples
    --------
    >>> from prtheory.audit.rocr_bound import backward_steps
    >>> backward_steps(5), backward_steps(6), backward_steps(30)
    (0, 1, 9)
    """
    return max(pos // 3 - 1, 0)


def backward_cost(pos: int) -> Fraction:
    """``phi(Q)``: twice what the backward steps can cost together, at most (step (5)).

    Parameters
    ----------
    pos : int
        The number of positives.

    Returns
    -------
    Fraction
        ``Q - 3 Q (Q - 1)/(2 pos)``, ``Q`` = :func:`backward_steps`: the ``j``-th step from the
        top leaves a point at recall at most ``1 - 3j/pos``.

    Examples
    --------
    30 positives: 9 steps, leaving recalls at most 1, 27/30, ..., 6/30, which sum to 27/5:

    >>> from fractions import Fraction
    >>> from prtheory.audit.rocr_bound import backward_cost
    >>> backward_cost(30) == sum(Fraction(30 - 3 * j, 30) for j in range(9)) == Fraction(27, 5)
    True
    >>> backward_cost(8)
    Fraction(1, 1)
    """
    q = backward_steps(pos)
    return q - Fraction(3 * q * (q - 1), 2 * pos)


def rocr_least(pi: Fraction, pos: int) -> Fraction:
    """The least area ROCR's ``aucpr`` can have, a proved bound (the theorem of the module
    docstring).

    Parameters
    ----------
    pi : Fraction
        The skew ``pos/(pos + neg)``, below 1. The bound increases with ``pi`` and decreases as
        ``pos`` grows, so at the least skew and the most positives a table allows it holds for
        every count pair it allows.
    pos : int
        The number of positives.

    Returns
    -------
    Fraction
        ``pi/2 - phi(Q)/2`` (:func:`backward_cost`), before the float64 allowance.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from prtheory.audit.rocr_bound import rocr_least
    >>> rocr_least(Fraction(3, 8), 3), rocr_least(Fraction(6, 14), 6)
    (Fraction(3, 16), Fraction(-2, 7))
    >>> rocr_least(Fraction(30, 330), 30) == Fraction(1, 22) - Fraction(27, 10)
    True
    """
    return pi / 2 - backward_cost(pos) / 2


def rocr_allowance(pos: int) -> Fraction:
    """How far below its exact area ROCR's float64 sum can print (module docstring, Float64).

    Parameters
    ----------
    pos : int
        The number of positives (``2^31`` when only the skew is printed).

    Returns
    -------
    Fraction
        ``2 (M^2 + 17 M + 1) 2^-53`` with ``M = 2 pos`` trapezoids at most.

    Examples
    --------
    >>> from prtheory.audit.rocr_bound import rocr_allowance
    >>> rocr_allowance(3) == 2 * (36 + 102 + 1) / 2**53
    True
    """
    m = 2 * pos
    return Fraction(2 * (m * m + 17 * m + 1), 2**53)
