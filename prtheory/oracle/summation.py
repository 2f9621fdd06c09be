"""Exact and correctly rounded sums of many quotients of integers.

Ranking metrics are sums of terms ``a_i / d_i`` with integer ``a_i`` and ``d_i``: average
precision is ``(1/pos) sum_i gain_i tp_i / n_i`` (claims N2, B6). Adding ``Fraction`` objects
left to right is quadratic in the size of the result, whose denominator is the least common
multiple of all ``d_i`` (about 700,000 bits for 10^5 positives among 10^7 items). This module
gives:

* :func:`rational_sum`: the exact sum as a reduced :class:`~fractions.Fraction`, added by a
  balanced tree (binary splitting), so every addition joins operands of similar size and the
  cost is that of a few multiplications of the final size. In pure Python each node is reduced
  with the gcd steps of :meth:`fractions.Fraction.__add__` (Henrici's algorithm), so the numbers
  never grow past the reduced size (CPython's gcd is quadratic). If :mod:`gmpy2` is installed
  (the ``fast`` extra) the tree runs on GMP: on rationals reduced at every node when every
  denominator fits in 64 bits (:data:`UNREDUCED_MIN_BITS`), otherwise on GMP integers unreduced
  (each term first reduced on its own),
  ``n/d + n'/d' = (n d' + n' d) / (d d')``, with one subquadratic GMP gcd at the root: a gcd
  costs many multiplications of its size, so one at the root beats one per node on large
  denominators with little in common (float weights, partial sums). Either way the result is
  the same reduced Fraction.
* :func:`round_quotient_sum`: the correctly rounded float64 of ``(sum_i a_i/d_i) / divisor``
  without building the exact rational (Ziv's strategy). Each ``a_i/d_i`` is expanded exactly into
  an integer part and base-``2**B`` digits by int64 long division (numpy, vectorised); the digit
  columns are summed exactly in int64. Truncating after ``R`` digits leaves a tail in
  ``[0, m)`` units of ``2**(-R B)`` for ``m`` terms, so the sum lies in a known interval of
  width ``m 2**(-R B)``. If both ends of the interval round to the same float64, that float is
  the correctly rounded value; otherwise more digits are computed, and as a last resort the exact
  rational is rounded.
* :func:`round_combination`: the same for ``constant + sum_c coefficient_c sum_i a_ci/d_ci`` with
  exact rational coefficients of either sign (:class:`QuotientSum` parts): trapezoidal areas,
  averages over classes, differences of sums.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from math import gcd
from typing import Any, TypeVar

import numpy as np

from prtheory.oracle.rounding import to_float

try:  # optional accelerator (the ``fast`` extra); the pure-Python path gives the same results
    import gmpy2
except ImportError:  # pragma: no cover - depends on the environment
    gmpy2 = None

__all__ = [
    "BACKENDS",
    "QuotientSum",
    "backend",
    "coprime_fraction",
    "gcd_mod",
    "quotient_sum_bounds",
    "rational_sum",
    "reduced_sum",
    "round_combination",
    "round_quotient_sum",
    "unreduced_sum",
]

BACKENDS = ("gmpy2", "python") if gmpy2 is not None else ("python",)

#: The backend used by :func:`rational_sum`; tests set it to ``"python"`` to cover both.
backend = BACKENDS[0]

_INT64_MAX = 2**63 - 1

#: With gmpy2, :func:`rational_sum` adds unreduced when some denominator exceeds this many bits
#: (float weights' exact sums, pieces' partial sums), otherwise reduces at every node. Small
#: denominators share most of their factors (cumulative counts), so unreduced products grow
#: several times the reduced size: at 50 % positives of 10^7 unit-weight items the exact AP took
#: the same time either way and 1.6x the memory unreduced (a run of ``benchmarks/bench_ap.py``
#: with every sum unreduced; the committed report measures this rule).
UNREDUCED_MIN_BITS = 64

#: integer terms: an integer numpy array (int64 or object) or a sequence of Python ints
Integers = np.ndarray | Sequence[int]
_T = TypeVar("_T")


def coprime_fraction(numerator: int, denominator: int) -> Fraction:
    """A Fraction from integers already in lowest terms with ``denominator > 0``.

    Skips the gcd that ``Fraction(n, d)`` would recompute (quadratic in CPython for numbers of
    hundreds of thousands of bits).

    Parameters
    ----------
    numerator, denominator : int
        In lowest terms, ``denominator > 0``.

    Returns
    -------
    Fraction
        ``numerator/denominator``, without a gcd.

    Examples
    --------
    >>> from prtheory.oracle.summation import coprime_fraction
    >>> coprime_fraction(3, 4)
    Fraction(3, 4)
    """
    make = getattr(Fraction, "_from_coprime_ints", None)  # Python >= 3.12
    if make is not None:
        made: Fraction = make(numerator, denominator)
        return made
    f = Fraction.__new__(Fraction)
    # the private slots of CPython's Fraction (what _from_coprime_ints sets on Python >= 3.12);
    # typeshed does not declare them
    f._numerator = numerator  # type: ignore[attr-defined]
    f._denominator = denominator  # type: ignore[attr-defined]
    return f


def _add(
    x: tuple[Any, Any], y: tuple[Any, Any], gcd: Callable[[Any, Any], Any] = gcd
) -> tuple[Any, Any]:
    """Sum of two reduced fractions ``(n, d)``, reduced: Henrici's addition (Knuth, TAOCP vol. 2,
    4.5.1; the gcd steps of Fraction.__add__), whose gcds are of the denominators and of a
    factor they share, never of the sum. ``gcd``: :func:`math.gcd` on Python integers, or
    ``gmpy2.gcd`` on GMP integers."""
    na, da = x
    nb, db = y
    g = gcd(da, db)
    if g == 1:
        return na * db + da * nb, da * db
    s = da // g
    t = na * (db // g) + nb * s
    g2 = gcd(t, g)
    if g2 == 1:
        return t, s * db
    return t // g2, s * (db // g2)


def _add_unreduced(x: tuple[Any, Any], y: tuple[Any, Any]) -> tuple[Any, Any]:
    """Sum of two fractions ``(n, d)``, ``d > 0``, not reduced: ``(n d' + n' d, d d')``."""
    return x[0] * y[1] + y[0] * x[1], x[1] * y[1]


def _tree(items: list[_T], add: Callable[[_T, _T], _T]) -> _T:
    """Balanced pairwise reduction of a non-empty list with ``add`` (binary splitting)."""
    while len(items) > 1:
        paired = [add(items[i], items[i + 1]) for i in range(0, len(items) - 1, 2)]
        if len(items) % 2:
            paired.append(items[-1])
        items = paired
    return items[0]


def gcd_mod(n: int, d: int) -> int:
    """``gcd(n, d)`` for ``d > 0``, taken as ``gcd(n mod d, d)``: a large ``n`` is cut down to the
    size of ``d`` by one division first. GMP where installed.

    Parameters
    ----------
    n : int
        Any integer.
    d : int
        A positive integer.

    Returns
    -------
    int
        ``gcd(n, d)``.

    Examples
    --------
    ``10**30`` is a multiple of 4, so ``10**30 + 6`` leaves 2 mod 4 and the gcd is 2:

    >>> from prtheory.oracle.summation import gcd_mod
    >>> int(gcd_mod(10**30 + 6, 4))
    2
    """
    if gmpy2 is not None:
        m = gmpy2.mpz(d)
        return int(gmpy2.gcd(gmpy2.mpz(n) % m, m))
    return gcd(n % d, d)


def unreduced_sum(numerators: Sequence[int], denominators: Sequence[int]) -> tuple[Any, Any]:
    """``(n, d)`` with ``n / d = sum_i numerators[i] / denominators[i]`` and ``d`` the product of
    the denominators (positive): a balanced tree of ``n/d + n'/d' = (n d' + n' d) / (d d')``, on
    GMP integers when :mod:`gmpy2` is installed, else Python integers. Non-empty.

    Parameters
    ----------
    numerators, denominators : sequence of int
        The terms, denominators positive; non-empty.

    Returns
    -------
    tuple of int
        ``(n, d)`` with ``d`` the product of the denominators.

    See Also
    --------
    reduced_sum

    Examples
    --------
    1/2 + 1/3 = (1*3 + 1*2)/(2*3):

    >>> from prtheory.oracle.summation import unreduced_sum
    >>> n, d = unreduced_sum([1, 1], [2, 3])
    >>> int(n), int(d)
    (5, 6)
    """
    make = gmpy2.mpz if gmpy2 is not None else int
    pairs = [(make(a), make(d)) for a, d in zip(numerators, denominators, strict=True)]
    return _tree(pairs, _add_unreduced)


def reduced_sum(numerators: Sequence[int], denominators: Sequence[int]) -> Fraction:
    """Exact sum of fractions ``numerators[i] / denominators[i]`` each already in lowest terms
    (denominators positive), reduced: a balanced tree of Henrici's addition (:func:`_add`), on
    GMP integers with the gmpy2 backend.

    For a few large reduced fractions (an engine's partial sums) it is quicker than the
    unreduced sum and one gcd of its size (:func:`rational_sum`): measured on the partial sums
    of ``benchmarks/bench_spark.py``'s frames at 10^6 rows (gmpy2), 2 pieces of float-weighted
    AP (2.5 and 1.4 Mbit) 0.13 s against 0.37 s, 8 pieces 0.34 s against 0.39 s, and no slower
    on unit weights. The result is in lowest terms only if every term is: a term that is not
    gives a Fraction that is not canonical. An empty sum is 0.

    Parameters
    ----------
    numerators, denominators : sequence of int
        Terms in lowest terms, denominators positive.

    Returns
    -------
    Fraction
        The sum, reduced (0 when empty).

    See Also
    --------
    rational_sum, unreduced_sum

    Examples
    --------
    >>> from prtheory.oracle.summation import reduced_sum
    >>> reduced_sum([1, 1], [2, 3])
    Fraction(5, 6)
    """
    if not numerators:
        return Fraction(0)
    if backend == "gmpy2":
        mpz = gmpy2.mpz
        pairs = [(mpz(a), mpz(d)) for a, d in zip(numerators, denominators, strict=True)]
        n, d = _tree(pairs, partial(_add, gcd=gmpy2.gcd))
    else:
        pairs = [(int(a), int(d)) for a, d in zip(numerators, denominators, strict=True)]
        n, d = _tree(pairs, _add)
    return coprime_fraction(int(n), int(d))


def rational_sum(numerators: Integers, denominators: Integers) -> Fraction:
    """Exact ``sum_i numerators[i] / denominators[i]`` as a reduced Fraction.

    ``numerators`` and ``denominators`` are equal-length sequences of integers (Python ints or
    numpy integer/object arrays); denominators must be positive. An empty sum is 0.

    Parameters
    ----------
    numerators : array-like of int
        Integers.
    denominators : array-like of int
        Positive integers, of the same length.

    Returns
    -------
    Fraction
        The sum, reduced (0 when empty).

    See Also
    --------
    reduced_sum : for terms already in lowest terms.
    round_quotient_sum : the correctly rounded float64 of such a sum.

    Examples
    --------
    1/2 + 1/3 + 1/6 = (3 + 2 + 1)/6 = 1:

    >>> from prtheory.oracle.summation import rational_sum
    >>> rational_sum([1, 1, 1], [2, 3, 6])
    Fraction(1, 1)
    """
    nums = numerators.tolist() if isinstance(numerators, np.ndarray) else list(numerators)
    dens = denominators.tolist() if isinstance(denominators, np.ndarray) else list(denominators)
    if not nums:
        return Fraction(0)
    if backend == "gmpy2" and max(dens).bit_length() > UNREDUCED_MIN_BITS:
        # each term reduced first, by a gcd of its own size: the product, and the root's gcd
        # with it, shrink by what a term shares with its own denominator (the float-weighted
        # AP terms of the top half of benchmarks/bench_spark.py's 10^6 rows: 54 of a
        # denominator's 90 bits on average, and 0.30 s against 0.41 s)
        n, d = unreduced_sum(*_lowest_terms(nums, dens))
        g = gmpy2.gcd(n, d)
        return coprime_fraction(int(n // g), int(d // g))
    if backend == "gmpy2":
        mpq = gmpy2.mpq
        total = _tree([mpq(a, d) for a, d in zip(nums, dens, strict=True)], lambda x, y: x + y)
        return coprime_fraction(int(total.numerator), int(total.denominator))
    return coprime_fraction(*_tree(list(zip(*_lowest_terms(nums, dens), strict=True)), _add))


def _lowest_terms(nums: Sequence[int], dens: Sequence[int]) -> tuple[list[int], list[int]]:
    """Each ``nums[i] / dens[i]`` in lowest terms: the numerators and the denominators, as
    Python integers."""
    nums, dens = [int(a) for a in nums], [int(d) for d in dens]
    gs = [gcd(a, d) for a, d in zip(nums, dens, strict=True)]
    return (
        [a // g for a, g in zip(nums, gs, strict=True)],
        [d // g for d, g in zip(dens, gs, strict=True)],
    )


def _int64_sum(x: np.ndarray) -> int:
    """Exact sum of a non-negative int64 array (Python ints when int64 could overflow)."""
    if x.size == 0:
        return 0
    if int(x.max()) <= _INT64_MAX // x.size:
        return int(x.sum())
    return int(sum(x.tolist()))


@dataclass(frozen=True)
class QuotientSum:
    """``coefficient * sum_i numerators[i] / denominators[i]``: one part of a combination.

    Numerators are non-negative integers, denominators positive integers (numpy ``int64`` or
    ``object`` arrays of Python ints, or sequences); the coefficient is any exact rational
    (negative coefficients subtract a part). See :func:`round_combination`.

    Parameters
    ----------
    numerators : array-like of int
        Non-negative integers.
    denominators : array-like of int
        Positive integers.
    coefficient : Fraction
        The part's exact coefficient (default 1).

    See Also
    --------
    round_combination : rounds a combination of them.

    Examples
    --------
    See :func:`round_combination`.

    >>> from prtheory.oracle.summation import QuotientSum
    >>> QuotientSum([1], [3]).coefficient
    Fraction(1, 1)
    """

    numerators: Any
    denominators: Any
    coefficient: Fraction = Fraction(1)

    def exact(self) -> Fraction:
        """The exact value, by :func:`rational_sum`."""
        if self.coefficient == 0:
            return Fraction(0)
        return rational_sum(self.numerators, self.denominators) * self.coefficient


class _Digits:
    """Successive integer intervals for ``S = sum_i a_i/d_i`` (proof in :func:`round_quotient_sum`).

    After each :meth:`step`, ``S`` lies in ``[x/scale, (x + tail)/scale]`` with ``tail`` the
    number of terms (0 once every remainder is 0, when ``x/scale`` is exact).
    """

    def __init__(self, part: QuotientSum) -> None:
        nums, dens = np.asarray(part.numerators), np.asarray(part.denominators)
        self.m = nums.size
        self.fast = (
            self.m > 0
            and nums.dtype == np.int64
            and dens.dtype == np.int64
            and int(dens.max()) < 2**46
        )
        if self.fast:
            self.bits = 62 - max(int(dens.max()).bit_length(), self.m.bit_length())
            q, self.r = np.divmod(nums, dens)
            self.x, self.scale = _int64_sum(q), 1
            self.dens = dens
        else:
            self.pairs = list(zip(nums.tolist(), dens.tolist(), strict=True))
            self.bits, self.x, self.scale = 64, 0, 1
        self.tail = 0 if self.m == 0 or (self.fast and not self.r.any()) else self.m

    def step(self) -> None:
        if self.tail == 0:
            return
        if self.fast:
            digits, self.r = np.divmod(self.r << self.bits, self.dens)
            self.x = (self.x << self.bits) + int(digits.sum())
            self.scale <<= self.bits
            if not self.r.any():
                self.tail = 0
            return
        self.bits *= 2  # one wide digit per term, twice as wide as the last
        x = exact = 0
        for a, d in self.pairs:
            q, r = divmod(int(a) << self.bits, int(d))
            x += q
            exact |= r
        self.x, self.scale = x, 1 << self.bits
        if not exact:
            self.tail = 0


def quotient_sum_bounds(
    numerators: Integers, denominators: Integers
) -> Iterator[tuple[int, int, int]]:
    """Successively tighter integer intervals ``(X, E, t)`` around ``S = sum_i a_i/d_i``.

    Each interval satisfies ``X 2**-E <= S <= (X + t) 2**-E`` (``S < (X + t) 2**-E`` when
    ``t > 0``), and ``t = 0`` means ``S = X 2**-E`` exactly (then it is the last one). Requires
    non-negative integer numerators and positive denominators. These are the digit expansions
    :func:`round_combination` refines (int64 digit columns when the arrays are int64 and the
    denominators below ``2**46``, else one wide Python-integer digit of 128, 256, ... bits);
    :mod:`prtheory.distributed` adds the intervals of its pieces, which are exact over a
    power-of-two denominator.

    Parameters
    ----------
    numerators : array-like of int
        Non-negative integers.
    denominators : array-like of int
        Positive integers.

    Yields
    ------
    tuple of int
        ``(X, E, t)`` with ``X 2**-E <= S <= (X + t) 2**-E``.

    See Also
    --------
    round_combination

    Examples
    --------
    1/3 has no finite binary expansion, so its intervals never close (``t = 1``); 1/4 closes at
    once (``t = 0``, X = 2**57 over 2**59):

    >>> from fractions import Fraction
    >>> from itertools import islice
    >>> from prtheory.oracle.summation import quotient_sum_bounds
    >>> bounds = list(islice(quotient_sum_bounds([1], [3]), 2))
    >>> all(Fraction(x, 2**e) <= Fraction(1, 3) <= Fraction(x + t, 2**e) for x, e, t in bounds)
    True
    >>> [t for x, e, t in bounds]
    [1, 1]
    >>> [(Fraction(x, 2**e), t) for x, e, t in quotient_sum_bounds([1], [4])]
    [(Fraction(1, 4), 0)]
    """
    digits = _Digits(QuotientSum(numerators, denominators))
    while True:
        digits.step()
        yield digits.x, digits.scale.bit_length() - 1, digits.tail
        if digits.tail == 0:
            return


def round_combination(
    parts: Sequence[QuotientSum], constant: Fraction = Fraction(0), max_digits: int = 8
) -> float:
    """Correctly rounded float64 of ``constant + sum_c parts[c]`` (Ziv's strategy).

    Each part's sum is enclosed in an exact integer interval by digit expansion (the proof is in
    :func:`round_quotient_sum`); scaled by its coefficient (an interval reversed for a negative
    one) and added to the exact ``constant``, the value lies in ``[lo, hi]`` with rational ends.
    When both ends round to the same float64, that float is the correctly rounded value
    (rounding is monotone); otherwise each part gains a digit. If ``max_digits`` rounds cannot
    decide (the value is on or within the expansion's error of a rounding boundary), the exact
    rational is rounded.

    Parameters
    ----------
    parts : sequence of QuotientSum
        The parts.
    constant : Fraction
        An exact constant added (default 0).
    max_digits : int
        Rounds of refinement before the exact rational is rounded (default 8).

    Returns
    -------
    float
        The correctly rounded float64 of the combination.

    See Also
    --------
    round_quotient_sum : one part.

    Examples
    --------
    1/3 - 1/6 = 1/6, whose float64 is ``0.16666666666666666`` (``float(Fraction(1, 6))``, the
    correctly rounded conversion):

    >>> from fractions import Fraction
    >>> from prtheory.oracle.summation import QuotientSum, round_combination
    >>> x = round_combination([QuotientSum([1], [3]), QuotientSum([1], [6], Fraction(-1))])
    >>> x == float(Fraction(1, 6))
    True
    """
    expansions = [_Digits(p) for p in parts]
    for _ in range(max_digits):
        for e in expansions:
            e.step()
        lo = hi = constant
        for e, p in zip(expansions, parts, strict=True):
            c = p.coefficient
            if e.m == 0 or c == 0:
                continue
            low, width = Fraction(e.x, e.scale) * c, Fraction(e.tail, e.scale) * c
            lo, hi = (lo + low, hi + low + width) if c > 0 else (lo + low + width, hi + low)
        first = to_float(lo)
        if lo == hi or first == to_float(hi):
            return first
    return to_float(constant + sum((p.exact() for p in parts), Fraction(0)))


def round_quotient_sum(
    numerators: Integers, denominators: Integers, divisor: int, max_digits: int = 8
) -> float:
    """Correctly rounded float64 of ``(sum_i numerators[i]/denominators[i]) / divisor``.

    Requires non-negative integer numerators, positive denominators and ``divisor > 0``. Runs in
    int64 numpy arithmetic when the arrays are int64 and the denominators are below ``2**46``,
    otherwise with one wide digit per term in Python integers (``K`` bits, doubled each round:
    ``X = sum_i floor(a_i 2**K / d_i)``, tail in ``[0, m)``); in the rare case that
    ``max_digits`` rounds cannot decide the rounding it rounds the exact :func:`rational_sum`.
    This is :func:`round_combination` of one part with coefficient ``1/divisor``.

    Proof of the interval: for each term, ``a = q d + r_0`` and ``r_{j-1} 2**B = D_j d + r_j`` with
    ``0 <= r_j < d`` give ``a/d = q + sum_{j<=R} D_j 2**(-jB) + r_R/(d 2**(RB))`` exactly, and
    ``0 <= r_R/d < 1``. Summing over the ``m`` terms, ``S 2**(RB) = X + tail`` with
    ``X = Q 2**(RB) + sum_j (sum_i D_ij) 2**((R-j)B)`` an integer and ``0 <= tail < m`` (``tail = 0``
    when every ``r_R`` is 0). The digit columns fit in int64 because ``D_ij < 2**B`` and
    ``m 2**B <= 2**62``; ``r 2**B < d 2**B <= 2**62``. The Python-integer path is the same with
    one digit of ``K`` bits: ``X = sum_i floor(a_i 2**K / d_i)``.

    Parameters
    ----------
    numerators : array-like of int
        Non-negative integers.
    denominators : array-like of int
        Positive integers.
    divisor : int
        A positive integer.
    max_digits : int
        Rounds of refinement before the exact rational is rounded (default 8).

    Returns
    -------
    float
        The correctly rounded float64 of ``(sum numerators/denominators)/divisor``.

    See Also
    --------
    round_combination, rational_sum

    Examples
    --------
    (1/2 + 1/4)/3 = 1/4, exactly a float64; 1/3 rounds to ``float(Fraction(1, 3))``:

    >>> from fractions import Fraction
    >>> from prtheory.oracle.summation import round_quotient_sum
    >>> round_quotient_sum([1, 1], [2, 4], 3)
    0.25
    >>> round_quotient_sum([1], [3], 1) == float(Fraction(1, 3))
    True
    """
    part = QuotientSum(numerators, denominators, Fraction(1, divisor))
    return round_combination([part], max_digits=max_digits)
