"""Seeded inputs of any size, reproducible in any language: the differential tests' generator.

Every input is a function of ``(seed, family, n)`` through SplitMix64, so a consumer in another
language rebuilds the same labels, scores and weights bit for bit from those three values (the
exported large-n families of ``vectors/generated.json`` give a sha256 of each input to check the
reproduction) and a failure found by :mod:`prtheory.conformance.differential` is reproduced from
the printed seed.

The stream. All arithmetic is on unsigned 64-bit integers, modulo 2^64::

    u(k) = mix(seed + k * 0x9E3779B97F4A7C15)            for k = 1, 2, 3, ...
    mix(z): z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
            z = (z ^ (z >> 27)) * 0x94D049BB133111EB
            return z ^ (z >> 31)

(the outputs of SplitMix64 seeded with ``seed``). Item ``i`` (0-based) reads ``a = u(3i + 1)``,
``b = u(3i + 2)``, ``c = u(3i + 3)``: ``a`` decides its label, ``b`` its score, ``c`` its weight.

Labels: positive iff ``a % 1000 < permille`` (the family's rate of positives). Item 0 is
always positive and item 1 always negative, so every input has both classes.

Scores (``b``), by the family's ``scores`` kind; every value is exact in float64:

``distinct``
    ``(b >> 11) * 2^-53``: 53 random bits in [0, 1), distinct but for chance collisions;
``blocks``
    ``(b % L) * 2^-20`` with ``L = max(2, n // 100)`` levels: tied blocks of about 100 items whose
    labels are mixed, so breaking ties by input order changes every metric of the ranking;
``extremes``
    ``(b >> 11) * 2^-53`` except where ``b % 16 < 9``: then the ``b % 16``-th of -inf,
    -MAX, -prev(MAX), -0.0, +0.0, the smallest subnormal, prev(MAX), MAX, +inf (MAX the
    largest finite float64, prev(MAX) the float below it): signed zeros tie, and the
    infinities sit next to the largest finite scores.

Weights (``c``), by the family's ``weights`` kind (``ldexp(m, e) = m * 2^e``, exact):

``none``
    no ``sample_weight``;
``integer``
    ``c % 5``: 0 to 4, zeros included;
``fraction``
    ``ldexp(1 + c % 7, -(c >> 3) % 4)``: 1/8 to 7 in steps that rounding to integers changes;
``spread``
    ``ldexp(1 + (c >> 12) % 1024, (c >> 2) % 2065 - 1074)`` where ``c % 4 != 0``, else 0:
    from 2^-1074 (subnormal) to 2^1000, zeros among them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["FAMILIES", "Family", "Sample", "draws", "sample"]

GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
_MAX = np.finfo(np.float64).max
_EXTREMES = np.array(
    [-np.inf, -_MAX, -np.nextafter(_MAX, 0), -0.0, 0.0, 5e-324, np.nextafter(_MAX, 0), _MAX, np.inf]
)


@dataclass(frozen=True)
class Family:
    """How an input is drawn: the rate of positives (per mille), the scores and the weights.

    Examples
    --------
    >>> from prtheory.conformance.sampling import FAMILIES, Family
    >>> Family("distinct-integer", 200, "distinct", "integer") in FAMILIES
    True
    """

    name: str
    permille: int
    scores: str
    weights: str


#: the families drawn, in the order a round of differential testing cycles through them
FAMILIES = (
    Family("distinct", 500, "distinct", "none"),
    Family("blocks", 300, "blocks", "none"),
    Family("extremes", 500, "extremes", "none"),
    Family("rare-distinct", 10, "distinct", "none"),
    Family("blocks-fraction", 500, "blocks", "fraction"),
    Family("distinct-integer", 200, "distinct", "integer"),
    Family("extremes-spread", 400, "extremes", "spread"),
    Family("distinct-spread", 500, "distinct", "spread"),
)


@dataclass(frozen=True)
class Sample:
    """A generated input: labels (int64 0/1), float64 scores and weights (or ``None``).

    Examples
    --------
    >>> from prtheory.conformance.sampling import FAMILIES, sample
    >>> s = sample(7, FAMILIES[0], 5)
    >>> s.n, s.family.name, s.sample_weight is None
    (5, 'distinct', True)
    """

    family: Family
    seed: int
    y_true: np.ndarray
    y_score: np.ndarray
    sample_weight: np.ndarray | None

    @property
    def n(self) -> int:
        """The number of items."""
        return len(self.y_true)


def _mix(z: np.ndarray) -> np.ndarray:
    z = (z ^ (z >> np.uint64(30))) * np.uint64(_M1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(_M2)
    mixed: np.ndarray = z ^ (z >> np.uint64(31))  # numpy types the operators as Any
    return mixed


def draws(seed: int, count: int) -> np.ndarray:
    """``u(1), ..., u(count)`` of the module docstring's stream, as uint64.

    Parameters
    ----------
    seed : int
        The seed (taken modulo 2^64).
    count : int
        How many draws.

    Returns
    -------
    numpy.ndarray
        ``count`` uint64 values.

    Examples
    --------
    SplitMix64 seeded with 0 begins 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f
    (its reference outputs), which the formula on Python integers reproduces:

    >>> from prtheory.conformance.sampling import draws
    >>> M = 2**64
    >>> def u(seed, k):  # the stream of the module docstring, on Python integers
    ...     z = (seed + k * 0x9E3779B97F4A7C15) % M
    ...     z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % M
    ...     z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % M
    ...     return z ^ (z >> 31)
    >>> [hex(int(x)) for x in draws(0, 3)]
    ['0xe220a8397b1dcdaf', '0x6e789e6aa1b965f4', '0x6c45d188009454f']
    >>> [int(x) for x in draws(2**70 + 5, 4)] == [u(5, k) for k in range(1, 5)]
    True
    """
    k = np.arange(1, count + 1, dtype=np.uint64)
    with np.errstate(over="ignore"):
        return _mix(np.uint64(seed % 2**64) + k * np.uint64(GOLDEN))


def _labels(a: np.ndarray, permille: int) -> np.ndarray:
    y: np.ndarray = (a % np.uint64(1000) < np.uint64(permille)).astype(np.int64)
    y[0], y[1] = 1, 0
    return y


def _scores(b: np.ndarray, kind: str) -> np.ndarray:
    uniform: np.ndarray = (b >> np.uint64(11)).astype(np.float64) * 2.0**-53
    if kind == "distinct":
        return uniform
    if kind == "blocks":
        levels = np.uint64(max(2, b.size // 100))
        blocks: np.ndarray = (b % levels).astype(np.float64) * 2.0**-20
        return blocks
    pick = (b % np.uint64(16)).astype(np.int64)
    special = pick < _EXTREMES.size
    mixed: np.ndarray = np.where(special, _EXTREMES[np.minimum(pick, _EXTREMES.size - 1)], uniform)
    return mixed


def _weights(c: np.ndarray, kind: str) -> np.ndarray | None:
    if kind == "none":
        return None
    if kind == "integer":
        integer: np.ndarray = (c % np.uint64(5)).astype(np.float64)
        return integer
    if kind == "fraction":
        shift = ((c >> np.uint64(3)) % np.uint64(4)).astype(np.int64)
        fraction: np.ndarray = np.ldexp(
            (np.uint64(1) + c % np.uint64(7)).astype(np.float64), -shift
        )
        return fraction
    mantissa = (np.uint64(1) + (c >> np.uint64(12)) % np.uint64(1024)).astype(np.float64)
    exponent = ((c >> np.uint64(2)) % np.uint64(2065)).astype(np.int64) - 1074
    w = np.ldexp(mantissa, exponent)
    return np.where(c % np.uint64(4) == 0, 0.0, w)


def sample(seed: int, family: Family, n: int) -> Sample:
    """The input of ``n >= 2`` items that ``(seed, family)`` draws (module docstring).

    Parameters
    ----------
    seed : int
        The seed.
    family : Family
        The family (one of :data:`FAMILIES`, or any other).
    n : int
        The number of items, at least 2.

    Returns
    -------
    Sample
        Its labels, scores and weights.

    Examples
    --------
    Rebuilt from the module docstring's rules on Python integers (item ``i`` reads
    ``u(3i + 1)``, ``u(3i + 2)``, ``u(3i + 3)``): labels ``a % 1000 < 200`` with item 0
    positive and item 1 negative, scores ``(b >> 11) * 2**-53``, weights ``c % 5``:

    >>> from prtheory.conformance.sampling import Family, sample
    >>> M = 2**64
    >>> def u(seed, k):  # the stream of the module docstring, on Python integers
    ...     z = (seed + k * 0x9E3779B97F4A7C15) % M
    ...     z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % M
    ...     z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % M
    ...     return z ^ (z >> 31)
    >>> s = sample(7, Family("distinct-integer", 200, "distinct", "integer"), 6)
    >>> a, b, c = ([u(7, 3 * i + j) for i in range(6)] for j in (1, 2, 3))
    >>> s.y_true.tolist() == [1, 0] + [int(x % 1000 < 200) for x in a[2:]]
    True
    >>> s.y_score.tolist() == [(x >> 11) * 2.0**-53 for x in b]
    True
    >>> s.sample_weight.tolist() == [float(x % 5) for x in c]
    True
    """
    u = draws(seed, 3 * n).reshape(n, 3)
    return Sample(
        family,
        seed,
        _labels(u[:, 0], family.permille),
        _scores(u[:, 1], family.scores),
        _weights(u[:, 2], family.weights),
    )
