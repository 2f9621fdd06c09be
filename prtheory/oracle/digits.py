"""mpmath results that print at the precision they were asked for.

An oracle function called with ``dps=40`` returns an ``mpf`` of ``prec_of_dps(40)`` bits, but
mpmath prints every ``mpf`` at the precision of its global context (15 digits by default), so
``oracle.aucpr_min(Fraction(1, 2), dps=40)`` would show ``mpf('0.30685281944005469')``.
:func:`shown_at_dps` wraps such a result in :class:`Digits`, an ``mpf`` with the same value
(same ``_mpf_``: the oracle contract of :mod:`prtheory.oracle.closed_forms` is untouched) that
prints as mpmath would with ``mp.dps`` set to the requested digits: ``str`` gives ``dps``
significant digits, ``repr`` the digits that round-trip at that precision
(``libmp.repr_dps``, three more). Arithmetic on it gives plain ``mpf`` values at the context's
precision, as for any ``mpf``.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import mpmath
from mpmath import libmp

from prtheory.oracle.rounding import prec_of_dps

__all__ = ["Digits", "shown_at_dps"]

P = ParamSpec("P")
R = TypeVar("R")


class Digits(mpmath.mpf):  # type: ignore[misc]  # mpmath ships no type information
    """An ``mpf`` that prints with ``dps`` significant digits (``repr``: the round-trip digits
    of that precision).

    Parameters
    ----------
    value : mpmath.mpf
        The value.
    dps : int
        The significant digits it prints with.

    See Also
    --------
    shown_at_dps : the decorator that returns it.

    Examples
    --------
    1/3 to 5 digits is 0.33333; ``repr`` shows mpmath's round-trip digits, three more:

    >>> import mpmath
    >>> from prtheory.oracle.digits import Digits
    >>> x = Digits(mpmath.mpf(1) / 3, 5)
    >>> print(x)
    0.33333
    >>> x
    mpf('0.33333333')
    """

    __slots__ = ("dps",)

    def __new__(cls, value: mpmath.mpf, dps: int) -> Digits:
        out: Digits = object.__new__(cls)
        out._mpf_ = value._mpf_  # the value itself, not rounded to the context's precision
        out.dps = dps
        return out

    def __str__(self) -> str:
        return str(libmp.to_str(self._mpf_, self.dps))

    def __repr__(self) -> str:
        return f"mpf('{libmp.to_str(self._mpf_, libmp.repr_dps(prec_of_dps(self.dps)))}')"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self._mpf_, self.dps))


def _rebuild(parts: tuple[Any, ...], dps: int) -> Digits:
    """Unpickle a :class:`Digits` without rounding it to the context's precision."""
    return Digits(mpmath.mp.make_mpf(parts), dps)


def shown_at_dps(fn: Callable[P, R]) -> Callable[P, R]:
    """Decorate an oracle function with a ``dps`` parameter: an ``mpf`` result is returned as
    :class:`Digits` at that ``dps``; any other result (an exact ``Fraction``) unchanged.

    Parameters
    ----------
    fn : callable
        An oracle function with a ``dps`` keyword.

    Returns
    -------
    callable
        ``fn`` with its ``mpf`` results wrapped in :class:`Digits`.

    See Also
    --------
    Digits

    Examples
    --------
    :func:`prtheory.oracle.aucpr_min` is so decorated: at ``pi = 1/2`` it is
    ``1 + ((1 - pi)/pi) ln(1 - pi) = 1 - ln 2 = 0.30685281944005469058 27...`` (B8; ln 2 =
    0.69314718055994530941 72...), printed at the 20 digits asked for:

    >>> from fractions import Fraction
    >>> from prtheory.oracle import aucpr_min
    >>> print(aucpr_min(Fraction(1, 2), dps=20))
    0.30685281944005469058
    """
    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        result = fn(*args, **kwargs)
        if isinstance(result, mpmath.mpf):
            dps = signature.bind(*args, **kwargs)
            dps.apply_defaults()
            return Digits(result, int(dps.arguments["dps"]))
        return result

    return wrapper
