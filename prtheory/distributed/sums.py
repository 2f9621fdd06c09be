"""Partial sums of quotient terms per piece, combined exactly and rounded once.

Each piece reduces its terms ``a_i / d_i`` (non-negative integers, ``d_i > 0``) to one of:

* :func:`exact_partial`: the exact sum as a reduced ``(numerator, denominator)``
  (:func:`prtheory.oracle.summation.rational_sum`);
* :func:`interval_partial`: integers ``(X, E, t)`` with ``X 2**-E <= S <= (X + t) 2**-E`` and
  ``E >= bits`` (or ``t = 0``, exact), from :func:`~prtheory.oracle.summation.quotient_sum_bounds`.
  A few hundred bits per piece whatever its size, and no rational arithmetic.

The driver aligns the intervals to the largest ``E`` and adds them: ``sum_j X_j 2**(E - E_j)``
and ``sum_j t_j 2**(E - E_j)`` bound the total exactly, so when both ends of
``[X, X + t] / (divisor 2**E)`` round to the same float64 that float is the correctly rounded
metric (rounding is monotone; :func:`round_intervals`). Otherwise (a value within ``2**-bits``
of a rounding boundary, or exactly on one) :func:`evaluate` asks the pieces for their exact
partial sums and rounds the exact rational. The pieces' exact sums are added in lowest terms
(Henrici's additions), or, when they are large and the engine can run small tasks in parallel,
unreduced and then reduced by one gcd per piece (:func:`combine_exact`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np

from prtheory.oracle.rounding import to_float
from prtheory.oracle.summation import (
    coprime_fraction,
    gcd_mod,
    quotient_sum_bounds,
    rational_sum,
    reduced_sum,
    unreduced_sum,
)

__all__ = [
    "SPREAD_MIN_BITS",
    "combine_exact",
    "evaluate",
    "exact_partial",
    "interval_partial",
    "round_intervals",
]

#: Default precision of the intervals: 2**-128 relative to one term's unit.
BITS = 128

#: :func:`combine_exact` spreads the reduction of the pieces' sum over the engine's workers when
#: the unreduced denominator has at least this many bits. Below it the driver alone is quicker
#: than a job: in local[2], with float-weighted pieces at 4 x 10^6 bits (10^6 rows), the spread
#: took 0.31-0.42 s, one gcd of the sum 0.34-0.39 s and Henrici's additions 0.13 s (2 pieces) or
#: 0.34 s (8 pieces); at 4 x 10^7 bits (10^7 rows, 8 pieces) the spread took 3.6 s against
#: 6.2 s for one gcd and 5.9 s for Henrici's additions. Unit weights share so many factors
#: that ``G`` is most of ``D`` (at 10^7 untied rows, 50 % positives: 12.6 of 17.4 Mbit; the
#: spread took 1.47 s against 1.67 s for Henrici's additions in one measurement).
SPREAD_MIN_BITS = 2**24

Terms = tuple[np.ndarray, np.ndarray]
#: ``spread(fn, items)``: an engine's ``[fn(item) for item in items]``, computed in parallel
Spread = Callable[[Callable[[Any], Any], list], list]


def exact_partial(terms: Terms) -> tuple[int, int]:
    """The exact ``sum_i a_i / d_i`` of one piece, reduced: ``(numerator, denominator)``.

    Parameters
    ----------
    terms : tuple of ndarray
        A piece's ``(a, d)``.

    Returns
    -------
    tuple of int
        The reduced ``(numerator, denominator)``.

    See Also
    --------
    combine_exact

    Examples
    --------
    1/2 + 1/3 = 5/6:

    >>> import numpy as np
    >>> from prtheory.distributed.sums import exact_partial
    >>> tuple(int(x) for x in exact_partial((np.array([1, 1]), np.array([2, 3]))))
    (5, 6)
    """
    s = rational_sum(*terms)
    return s.numerator, s.denominator


def interval_partial(terms: Terms, bits: int = BITS) -> tuple[int, int, int]:
    """Integers ``(X, E, t)``: ``X 2**-E <= sum_i a_i/d_i <= (X + t) 2**-E``, ``E >= bits`` or
    ``t = 0`` (the sum is exactly ``X 2**-E``).

    Parameters
    ----------
    terms : tuple of ndarray
        A piece's ``(a, d)``.
    bits : int
        The least ``E`` (default 128).

    Returns
    -------
    tuple of int
        ``(X, E, t)``.

    Raises
    ------
    AssertionError
        Never: a guard after the expansion, which refines until it is exact.

    See Also
    --------
    round_intervals

    Examples
    --------
    5/6 has no finite binary expansion, so ``t > 0``, and the interval encloses it:

    >>> from fractions import Fraction
    >>> import numpy as np
    >>> from prtheory.distributed.sums import interval_partial
    >>> x, e, t = interval_partial((np.array([1, 1]), np.array([2, 3])), 8)
    >>> e >= 8, t > 0, Fraction(x, 2**e) <= Fraction(5, 6) <= Fraction(x + t, 2**e)
    (True, True, True)
    """
    for x, e, t in quotient_sum_bounds(*terms):
        if t == 0 or e >= bits:
            return x, e, t
    raise AssertionError("unreachable: quotient_sum_bounds refines until exact")  # pragma: no cover


def combine_exact(partials: Iterable[tuple[int, int]], spread: Spread | None = None) -> Fraction:
    """The exact sum of the pieces' ``(numerator, denominator)`` partial sums, reduced. Each
    partial sum must be in lowest terms (as :func:`exact_partial` returns it).

    On the driver alone, a tree of Henrici's additions
    (:func:`~prtheory.oracle.summation.reduced_sum`): its gcds are of the pieces' denominators,
    not of the sum (2 float-weighted pieces of 10^6 rows: 0.13 s against 0.37 s for one gcd of
    the sum). Unreduced, the sum is ``N / D`` with ``D = d_1 ... d_P`` (:func:`unreduced_sum`), and reducing
    it takes ``gcd(N, D)``. One gcd of the whole size runs on the driver alone while the workers
    wait, and with float weights it is most of the combine (at 10^7 rows in local[2], 5.8 s of
    6.9 s). With ``spread`` (the engine's parallel map, see
    :func:`evaluate`) and at least :data:`SPREAD_MIN_BITS` bits in ``D``, the pieces' shares
    ``g_k = gcd(N, d_k)`` are computed in parallel (:func:`~prtheory.oracle.summation.gcd_mod`:
    ``N mod d_k`` first, so each task's gcd is the size of its piece), and then
    ``gcd(N, D) = gcd(N mod G, G)`` with ``G = g_1 ... g_P``, which is small when the pieces'
    denominators have few factors in common (float weights).

    Proof: for a prime ``p`` let ``a = v_p(N)`` and ``b_k = v_p(d_k)``. If ``a >= b_k`` for every
    ``k`` then ``min(a, sum_k b_k) <= sum_k b_k = sum_k min(a, b_k)``; otherwise some
    ``b_j > a`` and ``min(a, sum_k b_k) <= a = min(a, b_j) <= sum_k min(a, b_k)``. So
    ``gcd(N, D)`` divides ``G``; and ``G`` divides ``D`` (``g_k | d_k``), so
    ``gcd(N, D) = gcd(N, D, G) = gcd(N, G)``. Nothing needs the pieces reduced, and ``G`` may
    count a shared prime twice (``d_1 = p**2``, ``d_2 = p``): the last gcd takes only what ``N``
    holds.

    Parameters
    ----------
    partials : iterable of (int, int)
        Each piece's reduced ``(numerator, denominator)``.
    spread : callable or None
        The engine's parallel map, for large sums.

    Returns
    -------
    Fraction
        The sum, reduced.

    See Also
    --------
    exact_partial, evaluate

    Examples
    --------
    5/6 + 1/6 = 1:

    >>> from prtheory.distributed.sums import combine_exact
    >>> combine_exact([(5, 6), (1, 6)])
    Fraction(1, 1)
    """
    pairs = [(n, d) for n, d in partials if n]  # a zero term adds nothing
    if not pairs:
        return Fraction(0)
    nums, dens = [n for n, _ in pairs], [d for _, d in pairs]
    if spread is None or sum(d.bit_length() for d in dens) < SPREAD_MIN_BITS:
        return reduced_sum(nums, dens)
    n, d = unreduced_sum(nums, dens)
    # largest first, so that an engine dealing them out in turn balances its tasks
    shares = sorted((int(dk) for dk in dens if dk > 1), key=int.bit_length, reverse=True)
    common = type(n)(1)  # GMP or Python integers, as the sum
    for g in spread(partial(gcd_mod, int(n)), shares) if shares else ():
        common *= g
    g = gcd_mod(n, common)
    return coprime_fraction(int(n // g), int(d // g))


def round_intervals(partials: Iterable[tuple[int, int, int]], divisor: int) -> float | None:
    """Correctly rounded ``(sum of the pieces) / divisor`` if the intervals decide it, else None.

    Parameters
    ----------
    partials : iterable of (int, int, int)
        The pieces' :func:`interval_partial` results.
    divisor : int
        The sum's divisor.

    Returns
    -------
    float or None
        The correctly rounded quotient, or None when undecided.

    See Also
    --------
    interval_partial, evaluate

    Examples
    --------
    >>> from fractions import Fraction
    >>> import numpy as np
    >>> from prtheory.distributed.sums import interval_partial, round_intervals
    >>> partial = interval_partial((np.array([1, 1]), np.array([2, 3])))
    >>> round_intervals([partial], 1) == float(Fraction(5, 6))
    True
    """
    parts = list(partials)
    e = max((p[1] for p in parts), default=0)
    x = sum(p[0] << (e - p[1]) for p in parts)
    t = sum(p[2] << (e - p[1]) for p in parts)
    lo = x / (divisor << e)  # int / int true division is correctly rounded in CPython
    if t == 0 or lo == (x + t) / (divisor << e):
        return lo
    return None


def evaluate(
    run: Callable[[Callable[[Any], Any]], list],
    terms: Callable[[Any], Terms],
    divisor: int,
    exact: bool,
    bits: int = BITS,
    spread: Spread | None = None,
) -> Fraction | float:
    """``(sum over the pieces of their terms) / divisor``: exact, or correctly rounded.

    ``run(fn)`` is the engine's map-and-collect: it applies ``fn`` to every piece where the piece
    lives and returns the list of results. ``terms(piece)`` gives the piece's ``(a, d)`` arrays.
    With ``exact=False`` one pass of :func:`interval_partial` usually decides the float; if not,
    a second pass collects :func:`exact_partial` and the exact rational is rounded.
    ``spread(fn, items)``, if the engine has one, is ``[fn(item) for item in items]`` computed
    in parallel (on small items the driver holds): :func:`combine_exact` uses it to reduce a
    large exact sum.

    Parameters
    ----------
    run : callable
        The engine's map-and-collect over the pieces.
    terms : callable
        A piece's ``(a, d)`` arrays.
    divisor : int
        The sum's divisor.
    exact : bool
        Return the Fraction, or the correctly rounded float.
    bits : int
        The first pass's precision (default 128).
    spread : callable or None
        The engine's parallel map.

    Returns
    -------
    Fraction or float
        ``(sum of the terms)/divisor``.

    See Also
    --------
    interval_partial, exact_partial

    Examples
    --------
    Two pieces holding 1/2 + 1/3 and 1/6: the sum is 1; over 3, the float64 of 1/3:

    >>> from fractions import Fraction
    >>> import numpy as np
    >>> from prtheory.distributed.sums import evaluate
    >>> pieces = [(np.array([1, 1]), np.array([2, 3])), (np.array([1]), np.array([6]))]
    >>> run = lambda fn: [fn(p) for p in pieces]
    >>> evaluate(run, lambda p: p, 2, True), evaluate(run, lambda p: p, 3, False) == float(Fraction(1, 3))
    (Fraction(1, 2), True)
    """
    if not exact:
        value = round_intervals(run(lambda piece: interval_partial(terms(piece), bits)), divisor)
        if value is not None:
            return value
    total = combine_exact(run(lambda piece: exact_partial(terms(piece))), spread) / divisor
    return total if exact else to_float(total)
