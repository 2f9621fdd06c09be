"""What a mechanism predicts an implementation returns, and what it did instead of returning.

A prediction is a decoded :class:`~prtheory.conformance.encoding.Value` (a scalar; its float64
may be NaN or ±inf where a modelled float computation gives them), a curve (a dict of lists of
``Value``), or one of the markers below; ``None`` means the mechanism says nothing about that
vector. :mod:`prtheory.conformance.mechanisms` compares predictions with results.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from prtheory.conformance.classify import distance
from prtheory.conformance.encoding import Value, outcome_value
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
    "fits",
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
    explains.

    Examples
    --------
    >>> from prtheory.conformance.predictions import Crash, marker_text
    >>> marker_text(Crash("OverflowError"))
    'OverflowError raised by the arithmetic'
    """

    exception: str


@dataclass(frozen=True)
class Raised:
    """What an implementation did instead of returning: raised (``detail`` says what, as
    ``raised <ExceptionName>: <message>``). ``deliberate`` for a rejection (``ValueError``); any
    other exception is a crash, which only a :class:`Crash` prediction explains.

    Examples
    --------
    >>> from prtheory.conformance.predictions import Raised
    >>> Raised("raised ZeroDivisionError: division by zero", deliberate=False).deliberate
    False
    """

    detail: str
    deliberate: bool = True


@dataclass(frozen=True)
class Mechanism:
    """A named way of diverging: ``predict(vector)`` is what it gives there (a prediction, see
    the module docstring).

    Examples
    --------
    A mechanism that predicts 1/2 on every vector (``None``: a vector it says nothing about):

    >>> from fractions import Fraction
    >>> from prtheory.conformance.predictions import Mechanism, encoded
    >>> half = Mechanism("always-half", "returns 1/2", lambda v: encoded(Fraction(1, 2)))
    >>> half.predict(None).float64
    0.5
    """

    name: str
    description: str
    predict: Callable[[Vector], Any]


def encoded(value: Any) -> Any:
    """An oracle value (Fraction, ``(mpf, float)`` pair, or a curve of them) as a prediction.

    Parameters
    ----------
    value : int, Fraction, (mpmath.mpf, float) or dict
        As :func:`~prtheory.conformance.encoding.encode_outcome` takes it.

    Returns
    -------
    Value or dict of str to list of Value
        The decoded :class:`~prtheory.conformance.encoding.Value` (a curve of them).

    Examples
    --------
    1/10 rounds to the float64 0.1 (its shortest decimal):

    >>> from fractions import Fraction
    >>> from prtheory.conformance.predictions import encoded
    >>> v = encoded(Fraction(1, 10))
    >>> v.exact, v.float64
    (Fraction(1, 10), 0.1)
    """
    return outcome_value(value)


def scalar(value: float) -> Value:
    """A float (NaN and ±inf included) as a scalar prediction.

    Parameters
    ----------
    value : float
        The predicted float.

    Returns
    -------
    Value
        With no exact value, ``repr(value)`` as its decimal and ``value`` as its float64.

    Examples
    --------
    >>> from prtheory.conformance.predictions import scalar
    >>> scalar(float("nan")).decimal, scalar(0.0).exact
    ('nan', None)
    """
    return Value(None, repr(value), value)


def fits(got: Any, want: Any, tolerance: tuple[Any, int], signed_zero: bool = True) -> bool:
    """Whether the result ``got`` fits the prediction ``want`` within ``tolerance`` (dtype,
    ulps); ``signed_zero``: a predicted 0 must have the sign of the result (substitutes for
    0/0), else either sign fits (a value that is 0).

    Parameters
    ----------
    got : float, dict or Raised
        What the implementation returned (a curve as a dict of arrays), or what it raised.
    want : Any
        A prediction (module docstring); not ``None``.
    tolerance : (dtype, int)
        The float type and the ulps of a match.
    signed_zero : bool, default True
        Whether a predicted 0 must have the result's sign.

    Returns
    -------
    bool
        Whether the result is what was predicted.

    Examples
    --------
    NaN fits :data:`NAN` and :data:`UNDEFINED`; a rejection fits :data:`UNDEFINED` but not
    :data:`NAN`; 0.5 is 2^52 float64 ulps above 0.25, a match only within that many:

    >>> import numpy as np
    >>> from prtheory.conformance.predictions import NAN, UNDEFINED, Raised, fits, scalar
    >>> fits(float("nan"), NAN, (np.float64, 0)), fits(float("nan"), UNDEFINED, (np.float64, 0))
    (True, True)
    >>> rejected = Raised("raised ValueError: one class")
    >>> fits(rejected, UNDEFINED, (np.float64, 0)), fits(rejected, NAN, (np.float64, 0))
    (True, False)
    >>> fits(0.5, scalar(0.25), (np.float64, 2**52)), fits(0.5, scalar(0.25), (np.float64, 8))
    (True, False)
    """
    if isinstance(got, Raised):
        if isinstance(want, Crash):
            return got.detail.startswith(f"raised {want.exception}:")
        return got.deliberate and (want is RAISES or want is UNDEFINED)
    if want is UNDEFINED or want is NAN:
        return not isinstance(got, dict) and math.isnan(float(got))
    if want is RAISES or isinstance(want, Crash):
        return False
    if want is ANY:
        return True
    dtype, ulps = tolerance
    if isinstance(want, dict):
        return distance(got, want, dtype, nan_equal=True) <= ulps
    # -0.0 and 0.0 are one float apart in ulps but are different substitutes for 0/0; a value
    # of 0 has no sign (river's ``-trapezoid(...)`` of a zero area is -0.0)
    zero = (
        signed_zero and isinstance(want, Value) and want.float64 == 0 and not isinstance(got, dict)
    )
    if zero and math.copysign(1.0, float(got)) != math.copysign(1.0, want.float64):
        return False
    return distance(got, want, dtype) <= ulps


def marker_text(predicted: Any) -> str | None:
    """How a report states a marker prediction; ``None`` for a value or a curve.

    Parameters
    ----------
    predicted : Any
        A prediction.

    Returns
    -------
    str or None
        The text of a marker (:data:`ANY`, :data:`RAISES`, :data:`UNDEFINED`, :data:`NAN`) or
        a :class:`Crash`.

    Examples
    --------
    >>> from prtheory.conformance.predictions import UNDEFINED, marker_text, scalar
    >>> marker_text(UNDEFINED), marker_text(scalar(0.5))
    ('0/0: an exception or NaN', None)
    """
    if isinstance(predicted, Crash):
        return f"{predicted.exception} raised by the arithmetic"
    return {
        id(ANY): "any number",
        id(RAISES): "an exception",
        id(UNDEFINED): "0/0: an exception or NaN",
        id(NAN): "NaN",
    }.get(id(predicted))
