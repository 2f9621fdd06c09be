"""Printed numbers: the exact set of reals that a rounded, published value stands for.

A value printed with ``d`` decimals, ``x``, stands for every real ``v`` that rounds to ``x``. With
``u = 10**-d`` and ``h = u/2`` that set is

==============  ===========================================================================
``any``         ``[x - h, x + h]``: the union over the round-to-nearest rules, used when the
                paper does not say how it rounded (the default everywhere)
``half-even``   ``(x - h, x + h)`` plus each midpoint ``x -+ h`` that rounds to ``x`` under
                round-half-to-even, i.e. both when the last digit of ``x`` is even, none when odd
``half-up``     half away from zero: ``[x - h, x + h)`` for ``x > 0``
``half-down``   half towards zero: ``(x - h, x + h]`` for ``x > 0``
``truncate``    digits cut off (round towards zero): ``[x, x + u)`` for ``x > 0``
==============  ===========================================================================

Midpoint membership is decided by :mod:`decimal` with the named rounding mode, so it is exact.
Exactly representable midpoints matter: the mean AUCNPR of Boyd et al.'s Table 2 recomputes to
4.077/6 = 0.6795 exactly, which prints as 0.680 under half-even or half-up and as 0.679 under
half-down.

Percentages (``"90.8%"``) are divided by 100 exactly; their printed decimals count in the printed
units (``"90.8%"`` has 1 decimal, i.e. half-width 0.0005 as a fraction). A skew may also be given
as an exact ratio ``"pos:neg"`` (``"1:24"`` is pi = 1/25).
"""

from __future__ import annotations

import decimal
from dataclasses import dataclass
from fractions import Fraction

from prtheory.audit.intervals import Interval, value_str
from prtheory.errors import InvalidInputError

__all__ = ["CONVENTIONS", "Printed", "parse_printed", "parse_skew"]

CONVENTIONS = ("any", "half-even", "half-up", "half-down", "truncate")

_DECIMAL_MODE = {
    "half-even": decimal.ROUND_HALF_EVEN,
    "half-up": decimal.ROUND_HALF_UP,
    "half-down": decimal.ROUND_HALF_DOWN,
}


@dataclass(frozen=True)
class Printed:
    """A published number: its text, its exact value, and its decimals (``None``: exact).

    Parameters
    ----------
    text : str
        As printed.
    value : Fraction
        Its exact value.
    decimals : int or None
        Its printed decimals (None: exact).

    See Also
    --------
    parse_printed

    Examples
    --------
    See :func:`parse_printed`.

    >>> from prtheory.audit.printed import parse_printed
    >>> parse_printed("0.5", "x").decimals
    1
    """

    text: str
    value: Fraction
    decimals: int | None

    @property
    def exact(self) -> bool:
        return self.decimals is None

    def interval(self, convention: str = "any") -> Interval:
        """The set of reals that print as this value under ``convention`` (see module doc)."""
        if convention not in CONVENTIONS:
            raise InvalidInputError(
                "rounding", f"must be one of {', '.join(CONVENTIONS)}, got {convention!r}"
            )
        x = self.value
        if self.decimals is None:
            return Interval.point(x)
        unit = Fraction(1, 10**self.decimals)
        half = unit / 2
        if convention == "any":
            return Interval(x - half, x + half)
        if convention == "truncate":
            if x > 0:
                return Interval(x, x + unit, True, False)
            if x < 0:
                return Interval(x - unit, x, False, True)
            return Interval(-unit, unit, False, False)
        return Interval(
            x - half,
            x + half,
            self._rounds_to_self(x - half, self.decimals, convention),
            self._rounds_to_self(x + half, self.decimals, convention),
        )

    def _rounds_to_self(self, midpoint: Fraction, decimals: int, convention: str) -> bool:
        with decimal.localcontext() as ctx:
            ctx.prec = 100
            d = decimal.Decimal(value_str(midpoint, digits=90))
            q = d.quantize(decimal.Decimal(1).scaleb(-decimals), _DECIMAL_MODE[convention])
            return Fraction(q) == self.value

    def __str__(self) -> str:
        return self.text


def parse_printed(raw: object, name: str, decimals: object = None) -> Printed:
    """Parse a published value.

    ``raw`` is a decimal string (``"0.680"``, ``"90.8%"``, ``"1e-3"`` is refused: printed tables
    do not use exponents), an ``int``, or a ``float`` (taken by its shortest repr, so ``0.680``
    becomes ``"0.68"`` with 2 decimals: give strings, or ``decimals``, to keep trailing zeros).
    ``decimals`` overrides the number of printed decimals (in the printed units), or is the
    string ``"exact"`` for a value that was not rounded.

    Parameters
    ----------
    raw : str, int or float
        The value as published.
    name : str
        The column's name, for the errors.
    decimals : int, "exact" or None
        Overrides the number of printed decimals.

    Returns
    -------
    Printed
        The text, the exact value and the decimals.

    Raises
    ------
    InvalidInputError
        Not a printed decimal (an exponent, a word), or bad ``decimals``.

    See Also
    --------
    parse_skew

    Examples
    --------
    "0.680" is 17/25 printed with 3 decimals; "90.8%" is 227/250 with 3 decimals of the unit:

    >>> from prtheory.audit.printed import parse_printed
    >>> parse_printed("0.680", "aucpr")
    Printed(text='0.680', value=Fraction(17, 25), decimals=3)
    >>> parse_printed("90.8%", "aucpr").value
    Fraction(227, 250)
    >>> parse_printed("1e-3", "aucpr")
    Traceback (most recent call last):
    ...
    prtheory.errors.InvalidInputError: aucpr: must be a printed decimal number, got '1e-3'
    """
    if isinstance(raw, bool) or not isinstance(raw, (str, int, float)):
        raise InvalidInputError(name, f"must be a printed decimal number, got {raw!r}")
    text = raw.strip() if isinstance(raw, str) else repr(raw)
    body = text[:-1].strip() if text.endswith("%") else text
    percent = text.endswith("%")
    if not body or any(c not in "0123456789.-+" for c in body):
        raise InvalidInputError(name, f"must be a printed decimal number, got {text!r}")
    try:
        dec = decimal.Decimal(body)
    except decimal.InvalidOperation:
        raise InvalidInputError(name, f"must be a printed decimal number, got {text!r}") from None
    if not dec.is_finite():
        raise InvalidInputError(name, f"must be finite, got {text!r}")
    exponent = dec.as_tuple().exponent  # an int: dec is finite
    shown = max(0, -int(exponent))  # the decimals the text shows
    printed_decimals: int | None = shown
    if decimals is not None and decimals != "":
        if decimals == "exact":
            printed_decimals = None
        else:
            try:
                printed_decimals = int(str(decimals))
            except (TypeError, ValueError):
                printed_decimals = -1
            if printed_decimals < 0 or str(printed_decimals) != str(decimals).strip():
                raise InvalidInputError(
                    f"{name} decimals", f"must be an integer >= 0 or 'exact', got {decimals!r}"
                )
            if printed_decimals < shown:
                raise InvalidInputError(
                    name,
                    f"{text} shows {shown} decimals but decimals={printed_decimals} says fewer "
                    "were printed",
                )
    value = Fraction(dec)
    if percent:
        value /= 100
        if printed_decimals is not None:
            printed_decimals += 2
    return Printed(text, value, printed_decimals)


def parse_skew(raw: object, name: str = "skew", decimals: object = None) -> Printed:
    """A skew: an exact ratio ``"pos:neg"`` or a printed decimal (see :func:`parse_printed`).

    Parameters
    ----------
    raw : str, int or float
        ``"pos:neg"`` or a printed decimal.
    name : str
        The column's name (default ``"skew"``).
    decimals : int, "exact" or None
        As for :func:`parse_printed`.

    Returns
    -------
    Printed
        The skew; a ratio is exact.

    Raises
    ------
    InvalidInputError
        A malformed ratio or decimal.

    See Also
    --------
    parse_printed

    Examples
    --------
    1:3 is one positive per three negatives, pi = 1/4, exactly:

    >>> from prtheory.audit.printed import parse_skew
    >>> s = parse_skew("1:3")
    >>> s.value, s.decimals
    (Fraction(1, 4), None)
    """
    if isinstance(raw, str) and ":" in raw:
        left, _, right = raw.partition(":")
        try:
            a, b = int(left), int(right)
        except ValueError:
            raise InvalidInputError(
                name, f"ratio must be 'pos:neg' with integers, got {raw!r}"
            ) from None
        if a < 0 or b < 0 or a + b == 0:
            raise InvalidInputError(
                name, f"ratio needs pos, neg >= 0 and pos + neg > 0, got {raw!r}"
            )
        return Printed(raw.strip(), Fraction(a, a + b), None)
    return parse_printed(raw, name, decimals)
