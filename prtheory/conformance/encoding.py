"""Neutral encodings of the test vectors' numbers, readable from any language.

Scores, thresholds and weights are float64 values written as strings: the shortest decimal that
round-trips (Python ``repr``), or ``"inf"``, ``"-inf"``, ``"nan"``. A string keeps the three
non-finite values, which JSON numbers cannot hold, and every finite value exactly.

An expected value is written three ways (:func:`encode_value`):

``exact``
    the exact rational ``"p/q"`` in lowest terms (``"p"`` for an integer), or ``null`` for an
    irrational value (Davis--Goadrich areas, AUCPR_min, AUCNPR);
``decimal``
    the value correctly rounded to 40 significant digits (round half to even), in scientific
    notation ``"d.ddd…e±x"``;
``float64``
    the correctly rounded float64 as C99 hex (Python ``float.hex``), e.g. ``"0x1.2aaaaaaaaaaabp-1"``.

Inputs too long to list item by item (the 1-in-10^6 skew vectors) are run-length encoded:
``{"runs": [[label, score, count], ...]}`` or with weights ``[label, score, count, weight]``, the
runs concatenated in order.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

__all__ = [
    "Value",
    "decode_float",
    "decode_inputs",
    "decode_outcome",
    "decode_value",
    "encode_float",
    "encode_inputs",
    "encode_outcome",
    "encode_value",
    "outcome_value",
]

DECIMAL_DIGITS = 40


def encode_float(x: float) -> str:
    """float64 -> its shortest round-trip decimal string, or ``inf``/``-inf``/``nan``.

    Parameters
    ----------
    x : float
        The value (a numpy or float32 scalar is converted to float64 exactly first).

    Returns
    -------
    str
        Python's ``repr`` of the float64, or ``"inf"``, ``"-inf"``, ``"nan"``.

    Examples
    --------
    The float32 nearest 0.1 is 13421773 / 2**27 = 0.100000001490116119384765625, whose shortest
    float64 round-trip decimal has 17 digits:

    >>> import numpy as np
    >>> from prtheory.conformance.encoding import encode_float
    >>> encode_float(0.1), encode_float(np.float32(0.1)), encode_float(-np.inf)
    ('0.1', '0.10000000149011612', '-inf')
    """
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return repr(x)


def decode_float(s: str) -> float:
    """Inverse of :func:`encode_float`.

    Parameters
    ----------
    s : str
        A decimal string, or ``"inf"``, ``"-inf"``, ``"nan"``.

    Returns
    -------
    float
        The float64 it denotes.

    Examples
    --------
    >>> from prtheory.conformance.encoding import decode_float
    >>> decode_float("0.10000000149011612") == 13421773 / 2**27, decode_float("-inf")
    (True, -inf)
    """
    return float(s)


def _decimal_of_fraction(q: Fraction, digits: int = DECIMAL_DIGITS) -> str:
    """``q`` correctly rounded to ``digits`` significant digits (half to even), exactly."""
    if q == 0:
        return "0." + "0" * (digits - 1) + "e+0"
    sign = "-" if q < 0 else ""
    q = abs(q)
    # log10 q from the bit lengths, within one of it (str() of an integer of more than 4300
    # digits raises on Python >= 3.11), then moved to the exact decade
    e = (q.numerator.bit_length() - q.denominator.bit_length()) * 30103 // 100000
    while q >= Fraction(10) ** e:
        e += 1
    while q < Fraction(10) ** (e - 1):
        e -= 1
    # now 10**(e-1) <= q < 10**e; scale so the integer part has `digits` digits
    scaled = q * Fraction(10) ** (digits - e)
    n, rem = divmod(scaled.numerator, scaled.denominator)
    twice = 2 * rem
    if twice > scaled.denominator or (twice == scaled.denominator and n % 2):
        n += 1
    if n == 10**digits:  # rounding carried into a new digit
        n //= 10
        e += 1
    s = str(n)
    return f"{sign}{s[0]}.{s[1:]}e{e - 1:+d}"


@dataclass(frozen=True)
class Value:
    """An expected value: exact rational (or ``None`` if irrational), 40 digits, float64.

    Examples
    --------
    1/4 is 2**-2, exactly ``0x1p-2``:

    >>> from fractions import Fraction
    >>> from prtheory.conformance.encoding import Value
    >>> Value(Fraction(1, 4), "2.5" + "0" * 38 + "e-1", 0.25).to_json()["float64"]
    '0x1.0000000000000p-2'
    """

    exact: Fraction | None
    decimal: str
    float64: float

    def to_json(self) -> dict[str, Any]:
        """The value as a vector file writes it: ``exact`` (``"p/q"`` or ``None``), ``decimal``
        and ``float64`` (C99 hex)."""
        return {
            "exact": None if self.exact is None else _fraction_str(self.exact),
            "decimal": self.decimal,
            "float64": self.float64.hex(),
        }


def _fraction_str(q: Fraction) -> str:
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def encode_value(x: Any, float64: float | None = None) -> Value:
    """Encode an oracle value.

    ``x`` is an exact ``int``/``Fraction`` (the float64 is its correct rounding), or an
    ``mpmath.mpf`` computed with at least 50 digits together with the correctly rounded
    ``float64`` obtained by :func:`prtheory.oracle.rounded` (an mpf is itself a rounded value, so
    its float64 must come from the oracle's Ziv loop, not from the mpf).

    Parameters
    ----------
    x : int, Fraction or mpmath.mpf
        The value.
    float64 : float, optional
        The correctly rounded float64 of an irrational ``x`` (required for an mpf, ignored for
        an exact value).

    Returns
    -------
    Value
        The exact rational (``None`` for an mpf), 40 significant digits, the float64.

    Raises
    ------
    ValueError
        An mpf without its ``float64``.

    Examples
    --------
    ``10**40 * 2/3`` is 6666...6 (40 sixes) with remainder 2/3 > 1/2, so the 40-digit rounding
    ends in 7; the float64 mantissa of 2/3 = 0x0.AAAA... is 0x1.5555... with the next bits 0101...,
    rounded down:

    >>> from fractions import Fraction
    >>> import mpmath
    >>> from prtheory.conformance.encoding import encode_value
    >>> v = encode_value(Fraction(2, 3))
    >>> v.decimal == "6." + "6" * 38 + "7e-1", v.float64.hex()
    (True, '0x1.5555555555555p-1')
    >>> encode_value(mpmath.sqrt(2))
    Traceback (most recent call last):
    ValueError: an irrational value needs its correctly rounded float64
    """
    from prtheory.oracle import to_float

    if isinstance(x, mpmath.mpf):
        if float64 is None:
            raise ValueError("an irrational value needs its correctly rounded float64")
        # the mpf carries >= 60 digits; its dyadic value rounded to 40 digits is the true
        # value's 40-digit rounding unless the true value lies within 1e-60 of a rounding
        # boundary, which an irrational value of these magnitudes does not
        from prtheory.oracle import exact_rational

        return Value(None, _decimal_of_fraction(exact_rational(x)), float64)
    q = Fraction(x)
    return Value(q, _decimal_of_fraction(q), to_float(q))


def decode_value(obj: dict[str, Any]) -> Value:
    """Inverse of :meth:`Value.to_json`.

    Parameters
    ----------
    obj : dict
        ``{"exact": "p/q" or None, "decimal": ..., "float64": C99 hex}``.

    Returns
    -------
    Value
        The value it writes.

    Examples
    --------
    >>> from prtheory.conformance.encoding import decode_value
    >>> v = decode_value({"exact": "1/4", "decimal": "2.5e-1", "float64": "0x1p-2"})
    >>> v.exact, v.float64
    (Fraction(1, 4), 0.25)
    """
    exact = None if obj["exact"] is None else Fraction(obj["exact"])
    return Value(exact, obj["decimal"], float.fromhex(obj["float64"]))


def encode_outcome(v: Any) -> Any:
    """An oracle outcome as a vector file writes it: a value, or a curve of values.

    Parameters
    ----------
    v : int, Fraction, (mpmath.mpf, float) or dict
        An exact value, an irrational value with its correctly rounded float64, or a curve
        (``{name: [value, ...]}``) of either.

    Returns
    -------
    dict
        :meth:`Value.to_json` of the value, or ``{name: [that, ...]}`` for a curve.

    Examples
    --------
    >>> from prtheory.conformance.encoding import encode_outcome
    >>> from fractions import Fraction
    >>> encode_outcome(Fraction(1, 3))["exact"]
    '1/3'
    >>> encode_outcome({"precision": [1, Fraction(1, 2)]})["precision"][1]["float64"]
    '0x1.0000000000000p-1'
    """
    value = outcome_value(v)
    if isinstance(value, dict):
        return {k: [e.to_json() for e in vals] for k, vals in value.items()}
    return value.to_json()


def outcome_value(v: Any) -> Any:
    """An oracle outcome as :class:`Value` objects: what ``decode_outcome(encode_outcome(v))``
    gives, without writing the exact rational as text (so an exact value of any size).

    Parameters
    ----------
    v : int, Fraction, (mpmath.mpf, float) or dict
        As :func:`encode_outcome` takes it.

    Returns
    -------
    Value or dict of str to list of Value
        The value, or a curve of them.

    Examples
    --------
    ``2**-20000`` has 6021 digits in its denominator, more than Python writes as text by
    default; its float64 is 0 and its decimal exponent ``floor(-20000 log10 2) = -6021``:

    >>> from fractions import Fraction
    >>> from prtheory.conformance.encoding import outcome_value
    >>> v = outcome_value(Fraction(1, 2**20000))
    >>> v.float64, v.decimal[-6:]
    (0.0, 'e-6021')
    """
    if isinstance(v, dict):
        return {k: [outcome_value(e) for e in vals] for k, vals in v.items()}
    if isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], mpmath.mpf):
        return encode_value(v[0], v[1])
    return encode_value(v)


def decode_outcome(obj: Any) -> Any:
    """Inverse of :func:`encode_outcome`: a :class:`Value`, a curve of them, or ``None``.

    Parameters
    ----------
    obj : dict or None
        A test's ``expected`` value or one of its ``alternatives``, as JSON.

    Returns
    -------
    Value, dict of str to list of Value, or None
        ``None`` for ``None``.

    Examples
    --------
    >>> from prtheory.conformance.encoding import decode_outcome, encode_outcome
    >>> from fractions import Fraction
    >>> decode_outcome(encode_outcome(Fraction(1, 3))).exact
    Fraction(1, 3)
    """
    if obj is None:
        return None
    if "float64" in obj:
        return decode_value(obj)
    return {k: [decode_value(v) for v in vals] for k, vals in obj.items()}


def encode_inputs(
    y_true: Any, y_score: Any, sample_weight: Any = None, *, runs: bool = False
) -> dict[str, Any]:
    """Labels (numbers as given, so malformed ones like 2 survive), scores and weights as strings.

    Parameters
    ----------
    y_true, y_score : array-like
        The labels and the scores.
    sample_weight : array-like, optional
        The weights.
    runs : bool, default False
        Run-length encode (module docstring): a run is a stretch of equal label, score (and
        weight).

    Returns
    -------
    dict
        ``{"y_true": [...], "y_score": [...], "sample_weight": [...]}`` (weights only when
        given), or ``{"runs": [[label, score, count(, weight)], ...]}``.

    Raises
    ------
    ValueError
        ``runs`` with labels and scores of different lengths.

    Examples
    --------
    >>> from prtheory.conformance.encoding import encode_inputs
    >>> encode_inputs([1, 0, 2.0], [0.5, 0.25, float("nan")])
    {'y_true': [1, 0, 2], 'y_score': ['0.5', '0.25', 'nan']}
    >>> encode_inputs([1, 1, 0, 0, 0], [0.5] * 5, runs=True)
    {'runs': [[1, '0.5', 2], [0, '0.5', 3]]}
    """
    labels = np.asarray(y_true)
    scores = np.asarray(y_score, dtype=np.float64)
    weights = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    if not runs:
        out: dict[str, Any] = {
            "y_true": [_label(v) for v in labels.tolist()],
            "y_score": [encode_float(v) for v in scores.tolist()],
        }
        if weights is not None:
            out["sample_weight"] = [encode_float(v) for v in weights.tolist()]
        return out
    if labels.size != scores.size:
        raise ValueError("run-length encoding needs equal lengths")
    change = (labels[1:] != labels[:-1]) | (scores[1:] != scores[:-1])
    if weights is not None:
        change |= weights[1:] != weights[:-1]
    starts = np.flatnonzero(np.r_[True, change])
    counts = np.diff(np.r_[starts, labels.size])
    rows = []
    for i, c in zip(starts.tolist(), counts.tolist(), strict=False):
        row = [_label(labels[i].item()), encode_float(scores[i]), c]
        if weights is not None:
            row.append(encode_float(weights[i]))
        rows.append(row)
    return {"runs": rows}


def _label(v: Any) -> Any:
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


def decode_inputs(obj: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """(y_true, y_score, sample_weight) as numpy arrays; labels keep malformed values.

    Parameters
    ----------
    obj : dict
        Inputs as :func:`encode_inputs` writes them (item by item or in runs).

    Returns
    -------
    tuple of numpy.ndarray
        ``(y_true, y_score, sample_weight)``, the weights ``None`` when there are none.

    Examples
    --------
    >>> from prtheory.conformance.encoding import decode_inputs
    >>> y, s, w = decode_inputs({"runs": [[1, "0.5", 2, "3.0"], [0, "inf", 1, "1.0"]]})
    >>> y.tolist(), s.tolist(), w.tolist()
    ([1, 1, 0], [0.5, 0.5, inf], [3.0, 3.0, 1.0])
    """
    if "runs" in obj:
        labels: list[Any] = []
        scores: list[float] = []
        weights: list[float] = []
        weighted = any(len(row) == 4 for row in obj["runs"])
        for row in obj["runs"]:
            lab, sc, count = row[0], decode_float(row[1]), row[2]
            labels.extend([lab] * count)
            scores.extend([sc] * count)
            if weighted:
                weights.extend([decode_float(row[3])] * count)
        return (
            np.asarray(labels),
            np.asarray(scores, dtype=np.float64),
            np.asarray(weights, dtype=np.float64) if weighted else None,
        )
    y_true = np.asarray(obj["y_true"])
    y_score = np.asarray([decode_float(s) for s in obj["y_score"]], dtype=np.float64)
    w = obj.get("sample_weight")
    weights_arr = None if w is None else np.asarray([decode_float(s) for s in w], dtype=np.float64)
    return y_true, y_score, weights_arr
