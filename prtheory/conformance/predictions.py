"""What a mechanism predicts an implementation returns, and what it did instead of returning.

A prediction is a decoded :class:`~prtheory.conformance.encoding.Value` (a scalar; its float64
may be NaN or ±inf where a modelled float computation gives them), a curve (a dict of lists of
``Value``), or one of the markers below; ``None`` means the mechanism says nothing about that
vector. :mod:`prtheory.conformance.mechanisms` compares predictions with results.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from prtheory.conformance.encoding import Value, decode_outcome, encode_outcome
from prtheory.conformance.vectors_io import Vector

__all__ = [
    "ANY",
    "NAN",
    "RAISES",
    "UNDEFINED",
    "Crash",
    "Mechanism",
    "Raised",
    "encoded",
    "marker_text",
    "scalar",
]

ANY = object()  # a prediction that any returned number fits (``no-input-validation``)
RAISES = object()  # a prediction that the implementation raises
UNDEFINED = object()  # a prediction of 0/0: raising or NaN fits it
NAN = object()  # a prediction of NaN (a scalar)


@dataclass(frozen=True)
class Crash:
    """A prediction that the implementation raises ``exception`` (a class name such as
    ``OverflowError``) from its own arithmetic: an undeliberate exception the mechanism
    explains."""

    exception: str


@dataclass(frozen=True)
class Raised:
    """What an implementation did instead of returning: raised (``detail`` says what, as
    ``raised <ExceptionName>: <message>``). ``deliberate`` for a rejection (``ValueError``); any
    other exception is a crash, which only a :class:`Crash` prediction explains."""

    detail: str
    deliberate: bool = True


@dataclass(frozen=True)
class Mechanism:
    """A named way of diverging: ``predict(vector)`` is what it gives there (a prediction, see
    the module docstring)."""

    name: str
    description: str
    predict: Callable[[Vector], Any]


def encoded(value: Any) -> Any:
    """An oracle value (Fraction, ``(mpf, float)`` pair, or a curve of them) as a prediction."""
    return decode_outcome(encode_outcome(value))


def scalar(value: float) -> Value:
    """A float (NaN and ±inf included) as a scalar prediction."""
    return Value(None, repr(value), value)


def marker_text(predicted: Any) -> str | None:
    """How a report states a marker prediction; ``None`` for a value or a curve."""
    if isinstance(predicted, Crash):
        return f"{predicted.exception} raised by the arithmetic"
    return {
        id(ANY): "any number",
        id(RAISES): "an exception",
        id(UNDEFINED): "0/0: an exception or NaN",
        id(NAN): "NaN",
    }.get(id(predicted))
