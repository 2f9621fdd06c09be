"""Classify one library result against a test vector, on its own.

The category decides whether a result agrees (and is counted in the report's matrix and the
gate); which *mechanism* explains a divergence is decided over all of an implementation's
results together by :mod:`prtheory.conformance.mechanisms` (``check()``, the report). The
``convention`` named here is the first that fits this one result: the report uses it for the
known divergences and to count what this first-fit classifier left without a cause.

The categories, in the order they are tried:

``agrees``
    within ``ulps`` float64 ulps of the expected value (every coordinate, for a curve).
``convention``
    within ``ulps`` of the value under a named alternative convention (the vector's
    ``alternatives``, plus any the runner adds, such as a per-batch sigmoid); ``matches`` lists
    every convention that fits, ``convention`` the first (most specific) one. When the match
    holds only at float32 level (tried after the next category), ``float32`` is set too.
``float32``
    within ``f32_ulps`` float32 ulps of the expected value (or of an alternative, which is then
    named): the error of float32 arithmetic or a float32 result.
``wrong``
    a number (or NaN/inf) that fits no known convention even at float32 level.
``undefined-value``
    a finite number for a metric that is undefined (0/0) on this legal input, matching no named
    convention (raising, or returning NaN, counts as ``agrees``).
``accepted-invalid``
    a value for malformed input (NaN score, label 2, lengths that differ, negative weight).
    Raising anything on malformed input counts as ``agrees``.
``rejected-valid``
    a ``ValueError`` (a deliberate rejection, with a message) on legal input.
``crashed``
    any other exception (``AttributeError``, ``IndexError``, ``TypeError``, ...), or a process
    that died (a segfault, memory exhausted).
``timeout``
    not run (time): the library used more CPU time than the limit on this vector, or gave no
    result long after it (set by the isolated runner, with the cost; never ``crashed``).

ulp distances are counted on the integer representation of the floats, so they are exact and
symmetric; the distance from a nonzero value to its negative counts every float in between.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from prtheory.conformance.encoding import Value

__all__ = [
    "DEFAULT_F32_ULPS",
    "DEFAULT_ULPS",
    "AdapterFault",
    "Outcome",
    "Verdict",
    "classify",
    "distance",
    "expected_text",
    "show",
    "ulp_distance",
]

# A float64 implementation that divides exact integer counts and sums at most n correctly rounded
# terms of one sign errs by at most about (n + 1)/2 ulps of the sum; the vectors' longest sums
# have 8 terms, so 8 ulps separates rounding error from a different definition with room to spare
# (a different convention moves the value by a rational with a small denominator, i.e. by
# ~10^13 ulps or more).
DEFAULT_ULPS = 8
# A float32 computation of the same sums errs by about as many float32 ulps (2^29 float64 ulps
# each); 16 float32 ulps (relative 2^-19) also admits float32 accumulation over the curves'
# points.
DEFAULT_F32_ULPS = 16

CATEGORIES = (
    "agrees",
    "convention",
    "float32",
    "wrong",
    "undefined-value",
    "accepted-invalid",
    "rejected-valid",
    "crashed",
    "timeout",
    "unsupported",
)


class AdapterFault(Exception):
    """An exception that did not come from the library: the adapter's own code (or the server
    it talks to) raised it, so the library never answered. On every vector, valid or invalid,
    it is a crash of the adapter, never the library's rejection: a ``ValueError`` from the
    adapter's ``zip(..., strict=True)`` on labels and scores of different lengths is no evidence
    that the library checks lengths. (The runner wraps such exceptions,
    :func:`prtheory.conformance.runner.run_inputs`.)

    Examples
    --------
    >>> from prtheory.conformance.classify import AdapterFault
    >>> isinstance(AdapterFault("ValueError: zip() argument 2 is shorter"), ValueError)
    False
    """


@dataclass
class Outcome:
    """What a library did: a value (float, or dict of float arrays for a curve) or an error.

    Examples
    --------
    >>> from prtheory.conformance.classify import Outcome
    >>> Outcome(value=0.25).error is None
    True
    >>> Outcome(error=ValueError("y_true has one class")).value is None
    True
    """

    value: Any = None
    error: BaseException | None = None
    warnings: list[str] = field(default_factory=list)
    unsupported: str | None = None


@dataclass
class Verdict:
    """A result's classification: its category (module docstring), a detail line, the convention
    that fits first and every one that fits, the ulp distance, and whether at float32 level.

    Examples
    --------
    >>> from prtheory.conformance.classify import Verdict
    >>> v = Verdict("convention", "ties broken in input order", "ties=input-order")
    >>> v.to_json()["convention"], v.to_json()["matches"], v.to_json()["float32"]
    ('ties=input-order', [], False)
    """

    category: str
    detail: str
    convention: str | None = None
    matches: list[str] = field(default_factory=list)
    ulps: int | None = None
    float32: bool = False

    def to_json(self) -> dict[str, Any]:
        """The verdict as JSON (its fields by name)."""
        return {
            "category": self.category,
            "detail": self.detail,
            "convention": self.convention,
            "matches": self.matches,
            "ulps": self.ulps,
            "float32": self.float32,
        }


def _ordered(x: float, dtype: Any) -> int:
    """Map a float to an integer so that adjacent floats differ by 1 (and -0.0 maps to 0)."""
    bits = 64 if dtype == np.float64 else 32
    u = int(np.array(x, dtype=dtype).view(np.uint64 if bits == 64 else np.uint32))
    magnitude = u & ((1 << (bits - 1)) - 1)
    return -magnitude if u >> (bits - 1) else magnitude


def ulp_distance(a: float, b: float, dtype: Any = np.float64) -> float:
    """Number of ``dtype`` floats between ``a`` and ``b`` (``inf`` if either is NaN).

    In float32, two distinct values that both round to 0 (or both overflow to the same
    infinity) are counted in float64 ulps unless one of them is that float32 value: 9.3e-302
    is not within float32 rounding of 3.05e-151 just because both underflow, while a float32
    computation that returns 0.0 for 3.05e-151 has rounded it correctly.

    Parameters
    ----------
    a, b : float
        The two values.
    dtype : numpy dtype, default numpy.float64
        The floats counted: ``numpy.float64`` or ``numpy.float32``.

    Returns
    -------
    float
        How many steps from one to the other through adjacent ``dtype`` floats (an integer
        valued float), ``inf`` when either is NaN.

    Examples
    --------
    The floats in [1, 2) are 2**-52 apart in float64 and 2**-23 apart in float32; -0.0 and 0.0
    are one value:

    >>> import numpy as np
    >>> from prtheory.conformance.classify import ulp_distance
    >>> ulp_distance(1.0, 1.0 + 3 * 2**-52)
    3
    >>> ulp_distance(1.0, 1.0 + 2**-23, np.float32)
    1
    >>> ulp_distance(-0.0, 0.0), ulp_distance(1.0, float("nan"))
    (0, inf)
    """
    if math.isnan(a) or math.isnan(b):
        return math.inf
    if dtype == np.float32:
        a32, b32 = _to_float32(a), _to_float32(b)
        collapsed = a != b and a32 == b32 and (a32 == 0 or math.isinf(a32))
        if collapsed and a != a32 and b != b32:
            return abs(_ordered(a, np.float64) - _ordered(b, np.float64))
        a, b = a32, b32
    return abs(_ordered(a, dtype) - _ordered(b, dtype))


def _to_float32(x: float) -> float:
    with np.errstate(over="ignore", under="ignore"):
        return float(np.float32(x))


def distance(got: Any, want: Any, dtype: Any, *, nan_equal: bool = False) -> float:
    """Largest ulp distance over a scalar or a curve; ``inf`` if shapes differ.

    With ``nan_equal``, a curve's NaN coordinate where ``want`` has NaN counts 0 (a modelled
    float computation can predict NaN coordinates); otherwise NaN is ``inf`` away from
    everything.

    Parameters
    ----------
    got : float or dict of str to array_like
        A result: a scalar or a curve.
    want : Value or dict of str to list of Value
        An expected value (or a curve of them).
    dtype : numpy dtype
        ``np.float64`` or ``np.float32``: whose ulps are counted.
    nan_equal : bool
        Whether NaN coordinates of a curve match NaN.

    Returns
    -------
    float
        The largest :func:`ulp_distance` over the coordinates.

    Examples
    --------
    >>> import numpy as np
    >>> from fractions import Fraction
    >>> from prtheory.conformance.classify import distance
    >>> from prtheory.conformance.encoding import encode_value
    >>> # the float64 values in [1/2, 1) are 2**-53 apart
    >>> distance(0.5 + 2**-53, encode_value(Fraction(1, 2)), np.float64)
    1
    """
    if isinstance(want, Value):
        if isinstance(got, dict):
            return math.inf
        return ulp_distance(float(got), want.float64, dtype)
    if not isinstance(got, dict) or set(got) != set(want):
        return math.inf
    worst = 0.0
    for key, values in want.items():
        g = np.asarray(got[key], dtype=np.float64).reshape(-1)
        if g.size != len(values):
            return math.inf
        for gv, wv in zip(g.tolist(), values, strict=True):
            if nan_equal and math.isnan(gv) and math.isnan(wv.float64):
                continue
            worst = max(worst, ulp_distance(gv, wv.float64, dtype))
    return worst


def _is_nan(value: Any) -> bool:
    if isinstance(value, dict):
        return any(np.isnan(np.asarray(v, dtype=np.float64)).any() for v in value.values())
    return math.isnan(float(value))


def show(value: Any) -> str:
    """A result as a report prints it: a float's repr, or a curve's first six values per key.

    Parameters
    ----------
    value : float or dict of str to array_like
        A result.

    Returns
    -------
    str
        The result as the verdict's detail states it.

    Examples
    --------
    >>> from prtheory.conformance.classify import show
    >>> show({"precision": [1.0, 0.5]})
    '{precision: [1.0, 0.5]}'
    """
    if isinstance(value, dict):
        return (
            "{"
            + ", ".join(
                f"{k}: [{', '.join(repr(float(x)) for x in np.asarray(v).reshape(-1)[:6])}{', ...' if np.size(v) > 6 else ''}]"
                for k, v in value.items()
            )
            + "}"
        )
    return repr(float(value))


#: an installed file's directory (``.../site-packages/``) or another absolute directory
_INSTALL_DIR = re.compile(r"(?:[A-Za-z]:)?[/\\][^\s\"']*?(?:site-packages|dist-packages)[/\\]")
_ABSOLUTE_DIR = re.compile(r"(?<![\w.])/(?:home|root|tmp|work|usr|opt|var|Users|private)/\S*/")
#: the wall-clock time with which dmlc's logger (XGBoost's) begins a message: ``[19:54:47] ``
_CLOCK = re.compile(r"\[\d\d:\d\d:\d\d\] ")


def without_machine_details(message: str) -> str:
    """``message`` (an exception's or a warning's) without the machine's directories and the
    time of day, so that a recorded result is the same on every machine and in every run: a
    traceback quoted in an exception names ``torcheval/metrics/...py``, not where this machine
    installed it, and an XGBoost message does not say when it was given.

    Parameters
    ----------
    message : str
        The text as the library gave it.

    Returns
    -------
    str
        The text without an installed package's directory, an absolute directory under
        ``/home``, ``/tmp``, ``/usr``, ... and a logger's ``[HH:MM:SS]``.

    Examples
    --------
    >>> from prtheory.conformance.classify import without_machine_details
    >>> without_machine_details("/usr/lib/python3/dist-packages/torch/x.so: bad ELF")
    'torch/x.so: bad ELF'
    >>> without_machine_details("[19:54:47] /workspace/src/data/data.cc:576: w < 0")
    '/workspace/src/data/data.cc:576: w < 0'
    """
    return _CLOCK.sub("", _ABSOLUTE_DIR.sub("", _INSTALL_DIR.sub("", message)))


def _exception(err: BaseException) -> str:
    text = without_machine_details(str(err)).strip()
    msg = text.splitlines()[0] if text else ""
    return f"{type(err).__name__}: {msg[:160]}"


def classify(
    vector: Any,
    outcome: Outcome,
    extra_alternatives: dict[str, Any] | None = None,
    ulps: int = DEFAULT_ULPS,
    f32_ulps: int = DEFAULT_F32_ULPS,
) -> Verdict:
    """Classify ``outcome`` (a library's result on ``vector``) -- see the module docstring.

    Parameters
    ----------
    vector : Vector
        The test vector: its ``result`` (valid, acceptable, undefined, invalid), ``expected``
        value and stored ``alternatives``.
    outcome : Outcome
        What the implementation did: a value, an exception, or an unsupported input.
    extra_alternatives : dict, optional
        Values under call-pattern conventions (bins, batches), beside the stored ones.
    ulps, f32_ulps : int
        The tolerances: float64 ulps for agreement, float32 ulps for the float32 category.

    Returns
    -------
    Verdict
        The category, a detail line, and the convention that fits (if any).

    Examples
    --------
    >>> from fractions import Fraction
    >>> from prtheory.conformance.classify import Outcome, classify
    >>> from prtheory.conformance.encoding import encode_value
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.vectors_io import Vector
    >>> third = encode_value(Fraction(1, 3))
    >>> v = Vector("average_precision", 1, "", (), Inputs(None, None), "valid", third, {}, None)
    >>> classify(v, Outcome(value=1 / 3)).category
    'agrees'
    >>> classify(v, Outcome(value=0.5)).category
    'wrong'
    """
    if outcome.unsupported is not None:
        return Verdict("unsupported", outcome.unsupported)
    alternatives = dict(extra_alternatives or {})
    alternatives.update(vector.alternatives)
    if outcome.error is not None:
        return _raised(vector, outcome.error)
    got = outcome.value
    if vector.result == "invalid":
        return Verdict(
            "accepted-invalid", f"returned {show(got)} for invalid input ({vector.reason})"
        )
    matches = [
        name for name, want in alternatives.items() if distance(got, want, np.float64) <= ulps
    ]
    if vector.result == "undefined":
        return _undefined_value(vector, got, matches)
    d = distance(got, vector.expected, np.float64)
    if d <= ulps:
        return Verdict("agrees", f"{int(d)} ulp", ulps=int(d))
    if matches:
        dist = int(distance(got, alternatives[matches[0]], np.float64))
        return Verdict(
            "convention", f"agrees under {matches[0]} ({dist} ulp)", matches[0], matches, dist
        )
    return _float32_or_wrong(vector, got, alternatives, f32_ulps)


def _raised(vector: Any, err: BaseException) -> Verdict:
    """An exception: a crash where the adapter raised it (:class:`AdapterFault`); else agreement
    for invalid, undefined (and acceptable) input, else rejected (a ValueError) or crashed."""
    if isinstance(err, AdapterFault):
        return Verdict("crashed", f"the adapter raised before the library answered: {err}")
    if vector.result in ("invalid", "undefined"):
        return Verdict("agrees", f"raised {_exception(err)}")
    if vector.result == "acceptable":
        return Verdict("agrees", f"refused, which is acceptable here: raised {_exception(err)}")
    if isinstance(err, ValueError):
        return Verdict("rejected-valid", f"raised {_exception(err)}")
    return Verdict("crashed", f"raised {_exception(err)}")


def _undefined_value(vector: Any, got: Any, matches: list[str]) -> Verdict:
    """A value where the metric is 0/0: a named convention's, NaN (agrees), or neither."""
    if matches:
        return Verdict(
            "convention",
            f"returned {show(got)} where the metric is undefined",
            matches[0],
            matches,
        )
    if _is_nan(got):
        return Verdict("agrees", "returned NaN where the metric is undefined")
    return Verdict(
        "undefined-value",
        f"returned {show(got)} where the metric is undefined ({vector.reason})",
    )


def _float32_or_wrong(
    vector: Any, got: Any, alternatives: dict[str, Any], f32_ulps: int
) -> Verdict:
    """A value beyond the float64 tolerance of every value: within float32 rounding of the
    expected value, or of a convention's, or wrong."""
    if distance(got, vector.expected, np.float32) <= f32_ulps:
        d32 = int(distance(got, vector.expected, np.float32))
        return Verdict(
            "float32", f"{d32} float32 ulp from the exact value ({show(got)})", float32=True
        )
    f32 = [n for n, want in alternatives.items() if distance(got, want, np.float32) <= f32_ulps]
    if f32:
        dist = int(distance(got, alternatives[f32[0]], np.float32))
        return Verdict(
            "convention",
            f"agrees under {f32[0]} at float32 level ({dist} float32 ulp; {show(got)})",
            f32[0],
            f32,
            float32=True,
        )
    return Verdict("wrong", f"returned {show(got)}, expected {expected_text(vector.expected)}")


def expected_text(want: Any) -> str:
    """An expected value as a report prints it: ``exact = float`` (the float alone if the value
    is irrational), or a curve's first six floats per key.

    Parameters
    ----------
    want : Value or dict of str to list of Value
        The expected value.

    Returns
    -------
    str
        Its text.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from prtheory.conformance.classify import expected_text
    >>> from prtheory.conformance.encoding import encode_value
    >>> expected_text(encode_value(Fraction(1, 4)))
    '1/4 = 0.25'
    """
    if isinstance(want, Value):
        return repr(want.float64) if want.exact is None else f"{want.exact} = {want.float64!r}"
    return (
        "{"
        + ", ".join(
            f"{k}: [{', '.join(repr(v.float64) for v in vals[:6])}{', ...' if len(vals) > 6 else ''}]"
            for k, vals in want.items()
        )
        + "}"
    )
