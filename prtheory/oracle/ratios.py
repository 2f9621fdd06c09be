"""A sequence of exact rationals held as two integer arrays, materialised one at a time.

Curve coordinates are quotients of integer counts: precision ``TP/(TP+FP)``, recall ``TP/pos``,
precision and recall gain (claim F5). Building one :class:`~fractions.Fraction` per point costs
about 1.5 microseconds (a gcd and an object) and dominates a curve of 10^6 points; a
:class:`Ratios` keeps the numerators and denominators as integer arrays (``int64`` while they
fit, Python integers otherwise) and makes a Fraction only for the items that are read. It is a
read-only sequence: indexing gives a Fraction (a slice gives a Ratios), iteration yields
Fractions, and ``==`` compares values with any sequence of numbers, so code written against a
tuple of Fractions keeps working. :meth:`Ratios.to_float` rounds every item to the nearest
float64 without making Fractions.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import overload

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["Counts", "Ratios", "as_objects"]

_EXACT_IN_FLOAT64 = 2**53


class Ratios(Sequence[Fraction]):
    """Exact values ``numerators[i] / denominators[i]`` (denominators non-zero, not reduced).

    Parameters
    ----------
    numerators, denominators : array-like of int
        The numerators and the (non-zero) denominators, of one length.

    See Also
    --------
    Counts

    Examples
    --------
    Items are exact, and reduced only when read: 2/4 reads as 1/2:

    >>> from fractions import Fraction
    >>> from prtheory.oracle.ratios import Ratios
    >>> q = Ratios([1, 2], [3, 4])
    >>> q[1]
    Fraction(1, 2)
    >>> q == [Fraction(1, 3), Fraction(1, 2)]
    True
    """

    __slots__ = ("denominators", "numerators")
    # compares by value like a tuple, but is a view on mutable arrays: unhashable (typeshed
    # declares list.__hash__ the same way)
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, numerators: ArrayLike, denominators: ArrayLike) -> None:
        num, den = np.asarray(numerators), np.asarray(denominators)
        if num.shape != den.shape or num.ndim != 1:
            raise ValueError("numerators and denominators must be 1-d arrays of one length")
        self.numerators = num
        self.denominators = den

    def __len__(self) -> int:
        return self.numerators.size

    @overload
    def __getitem__(self, index: int) -> Fraction: ...
    @overload
    def __getitem__(self, index: slice) -> Ratios: ...
    def __getitem__(self, index: int | slice) -> Fraction | Ratios:
        if isinstance(index, slice):
            return Ratios(self.numerators[index], self.denominators[index])
        return Fraction(int(self.numerators[index]), int(self.denominators[index]))

    def __iter__(self) -> Iterator[Fraction]:
        for a, b in zip(self.numerators.tolist(), self.denominators.tolist(), strict=True):
            yield Fraction(a, b)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Ratios):
            if len(self) != len(other):
                return False
            left = as_objects(self.numerators) * as_objects(other.denominators)
            right = as_objects(other.numerators) * as_objects(self.denominators)
            return bool(np.all(left == right))
        if not isinstance(other, Sequence) or isinstance(other, str | bytes):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    def __repr__(self) -> str:
        head = ", ".join(str(v) for v in self[:6])
        more = ", ..." if len(self) > 6 else ""
        return f"Ratios([{head}{more}], length {len(self)})"

    def to_float(self) -> np.ndarray:
        """Every value rounded to the nearest float64 (ties to even), as a float64 array.

        When numerator and denominator are both exactly representable (magnitude <= 2**53) one
        IEEE division is correctly rounded; otherwise Python's ``int / int``, which CPython
        rounds correctly for integers of any size.
        """
        num, den = self.numerators, self.denominators
        if num.size == 0:
            return np.zeros(0)
        if (
            num.dtype != object
            and den.dtype != object
            and int(np.abs(num).max()) <= _EXACT_IN_FLOAT64
            and int(np.abs(den).max()) <= _EXACT_IN_FLOAT64
        ):
            quotient: np.ndarray = num.astype(np.float64) / den.astype(np.float64)
            return quotient
        return np.array(
            [a / b for a, b in zip(num.tolist(), den.tolist(), strict=True)], dtype=np.float64
        )


class Counts(Sequence[int | None]):
    """Integer counts held as an array, read as Python ints; optionally ``None`` in front.

    A PR curve's ``tp`` and ``fp``: the prepended first point (``first_point`` other than
    ``"none"``) is no contingency table, and its entry is ``None``. Compares equal to any
    sequence with the same items (so to the tuple it replaces).

    Parameters
    ----------
    values : ndarray of int
        The counts.
    none_first : bool
        Whether a ``None`` stands in front of them (default False).

    See Also
    --------
    Ratios

    Examples
    --------
    >>> import numpy as np
    >>> from prtheory.oracle.ratios import Counts
    >>> tp = Counts(np.array([1, 2]), none_first=True)
    >>> len(tp), tp[0], tp[2]
    (3, None, 2)
    >>> tp == (None, 1, 2)
    True
    """

    __slots__ = ("head", "values")
    __hash__ = None  # type: ignore[assignment]  # unhashable, as Ratios

    def __init__(self, values: np.ndarray, *, none_first: bool = False) -> None:
        self.values = values
        self.head = int(none_first)

    def __len__(self) -> int:
        return self.values.size + self.head

    @overload
    def __getitem__(self, index: int) -> int | None: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[int | None, ...]: ...
    def __getitem__(self, index: int | slice) -> int | tuple[int | None, ...] | None:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        i = range(len(self))[index]  # normalises negative indices, raises IndexError
        return None if i < self.head else int(self.values[i - self.head])

    def __iter__(self) -> Iterator[int | None]:
        if self.head:
            yield None
        yield from self.values.tolist()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str | bytes):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    def __repr__(self) -> str:
        return f"Counts({list(self[:6])}{' ...' if len(self) > 6 else ''}, length {len(self)})"


def as_objects(x: np.ndarray) -> np.ndarray:
    """Python-int object array, so products cannot overflow.

    Parameters
    ----------
    x : ndarray of int
        Integers.

    Returns
    -------
    ndarray of object
        The same values as Python ints.

    Examples
    --------
    ``2**62 * 4 = 2**64`` overflows ``int64`` but not Python ints:

    >>> import numpy as np
    >>> from prtheory.oracle.ratios import as_objects
    >>> (as_objects(np.array([2**62])) * 4)[0] == 2**64
    True
    """
    return x if x.dtype == object else x.astype(object)
