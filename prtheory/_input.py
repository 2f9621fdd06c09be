"""One validation path for every public entry point.

Every function here either returns a cleaned value or raises
:class:`~prtheory.errors.InvalidInputError` whose message starts with the argument's name and says
what was wrong, so one bad input gives one consistent message whichever layer received it
(theory, oracle, float64 layer, conformance, papers).

Scalars keep their exact type (``int``, ``Fraction``, ``float``, ``mpmath.mpf``, sympy numbers are
left to the caller); arrays become numpy arrays of a documented dtype.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterator, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any, Literal, cast, overload

import numpy as np
from numpy.typing import ArrayLike

from prtheory.errors import InvalidInputError

__all__ = [
    "ExactArrayLike",
    "ExactWeights",
    "as_array",
    "as_count_array",
    "as_doc_ids",
    "as_float_array",
    "as_gains",
    "as_labels",
    "as_scores",
    "as_weights",
    "check_beta",
    "check_count",
    "check_max_fpr",
    "check_no_missing_labels",
    "check_option",
    "check_recall_range",
    "check_skew",
    "check_unit",
    "check_weighted_count",
    "dyadic_weights",
]


#: Scores and sample weights: anything numpy converts (``numpy.typing.ArrayLike``), or a sequence
#: of exact numbers (``Fraction``, ``Decimal``; numpy holds them as objects and they are never
#: rounded). Labels are plain ``ArrayLike``.
ExactArrayLike = ArrayLike | Sequence[Fraction | Decimal]


# --------------------------------------------------------------------------------------------
# scalars


def _real_scalar(x: Any, name: str) -> Any:
    """Reject non-numbers, complex numbers, booleans and NaN; return ``x`` unchanged."""
    if isinstance(x, (bool, np.bool_)):
        raise InvalidInputError(name, f"must be a real number, got a boolean ({x!r})")
    if isinstance(x, numbers.Real):
        if isinstance(x, (numbers.Integral, Fraction)):
            return x
        if math.isnan(float(x)):
            raise InvalidInputError(name, "must be a real number, got NaN")
        return x
    # mpmath.mpf and similar: anything that converts to float and is not complex
    if type(x).__name__ in {"mpf", "mpi"} or hasattr(x, "_mpf_"):
        if x != x:
            raise InvalidInputError(name, "must be a real number, got NaN")
        return x
    raise InvalidInputError(name, f"must be a real number, got {type(x).__name__} ({x!r})")


def check_skew(pi: Any, name: str = "pi") -> Any:
    """Validate a skew ``pi = pos/(pos+neg)``: a real number in the closed interval [0, 1].

    The end points are legal; functions that are undefined there raise
    :class:`~prtheory.errors.UndefinedMetricError` themselves (or apply a named convention).
    """
    return check_unit(pi, name)


def check_unit(x: Any, name: str) -> Any:
    """Validate a real number in [0, 1] (a recall, precision or skew)."""
    x = _real_scalar(x, name)
    if not (0 <= x <= 1):
        raise InvalidInputError(name, f"must lie in [0, 1], got {x!r}")
    return x


def check_max_fpr(max_fpr: Any, name: str = "max_fpr") -> Fraction:
    """Validate a partial ROC AUC's bound: a real number in (0, 1], returned exactly."""
    m = Fraction(check_unit(max_fpr, name))
    if m == 0:
        raise InvalidInputError(name, "must lie in (0, 1], got 0")
    return m


def check_beta(beta: Any, name: str = "beta") -> Any:
    """Validate the F-beta weight: a finite real number > 0."""
    beta = _real_scalar(beta, name)
    if not (beta > 0):
        raise InvalidInputError(name, f"must be > 0, got {beta!r}")
    if isinstance(beta, float) and math.isinf(beta):
        raise InvalidInputError(name, "must be finite, got inf")
    return beta


def check_count(n: Any, name: str) -> int:
    """Validate a count: an integer >= 0. Integral floats (``3.0``) are accepted as ``int``.

    Booleans, non-integral values (``2.5``), NaN, infinities and negative values are rejected.
    """
    if isinstance(n, (bool, np.bool_)):
        raise InvalidInputError(
            name, f"must be a non-negative integer count, got a boolean ({n!r})"
        )
    if isinstance(n, numbers.Integral):
        value = int(n)
    elif isinstance(n, (numbers.Real, Fraction)):
        if isinstance(n, float) and not math.isfinite(n):
            raise InvalidInputError(name, f"must be a non-negative integer count, got {n!r}")
        if n != math.trunc(n):
            raise InvalidInputError(name, f"must be an integer count, got {n!r}")
        # int(): math.trunc of a numbers.Real is typed as any Integral
        value = int(math.trunc(n))  # noqa: RUF046
    else:
        raise InvalidInputError(
            name, f"must be a non-negative integer count, got {type(n).__name__} ({n!r})"
        )
    if value < 0:
        raise InvalidInputError(name, f"must be >= 0, got {value}")
    return value


def check_weighted_count(x: Any, name: str) -> Any:
    """Validate a (possibly weighted) count: a finite real number >= 0, type kept.

    Integers, ``Fraction`` values (sums of rational sample weights) and finite floats are
    accepted; NaN, infinities, booleans and negative values are rejected.
    """
    x = _real_scalar(x, name)
    if isinstance(x, float) and math.isinf(x):
        raise InvalidInputError(name, f"must be finite, got {x!r}")
    if x < 0:
        raise InvalidInputError(name, f"must be >= 0, got {x!r}")
    return x


def check_option(value: Any, name: str, options: tuple[str, ...]) -> str:
    """Validate a named option (a tie policy, an interpolation rule, ...): one of ``options``."""
    if not isinstance(value, str) or value not in options:
        known = ", ".join(repr(o) for o in options)
        raise InvalidInputError(name, f"must be one of {known}, got {value!r}")
    return value


def check_recall_range(a: Any, b: Any, a_name: str = "a", b_name: str = "b") -> tuple[Any, Any]:
    """Validate a recall range ``0 <= a <= b <= 1``.

    ``a == b`` (an empty range) is legal input; the metric that integrates over it decides whether
    the result is undefined. ``a > b`` is an error.
    """
    a = check_unit(a, a_name)
    b = check_unit(b, b_name)
    if a > b:
        raise InvalidInputError(f"{a_name}, {b_name}", f"need a <= b, got a={a!r} > b={b!r}")
    return a, b


# --------------------------------------------------------------------------------------------
# arrays


def _at(mask: np.ndarray) -> int | list[int]:
    """The first index where ``mask`` holds: ``i`` for a vector, ``[i, j]`` for a matrix."""
    where = [int(k) for k in np.argwhere(mask)[0]]
    return where[0] if len(where) == 1 else where


def _missing(mask: Any, name: str) -> None:
    """Raise on the first missing value of a pandas/polars null mask."""
    mask = np.asarray(mask, dtype=bool)
    if mask.any():
        raise InvalidInputError(name, f"missing value (NA/None) at index {_at(mask)}")


def as_array(x: Any, name: str, *, column: bool = True) -> np.ndarray:
    """A numpy array of ``x``, with an ``(n, 1)`` column made ``(n,)`` (unless ``column`` is
    False: a matrix of one column): the one container conversion of every array argument (so a
    bad container gets one message everywhere).

    Lists and tuples, numpy arrays, pandas ``Series``/``DataFrame`` (a missing value, ``NA`` or
    ``None``, is an error naming its index; a NaN in a float64 column is left to the caller,
    which says "NaN"), polars ``Series``/``DataFrame`` (nulls likewise), torch tensors
    (detached and moved to the CPU; ``bfloat16`` and any other float dtype numpy lacks is
    widened to ``float32``, which holds every such value exactly). Strings, bytes, iterators
    and generators are refused; so are scalars, empty arrays and arrays of more than 2
    dimensions. Element values are validated by the caller.
    """
    if isinstance(x, (str, bytes)):
        raise InvalidInputError(name, f"must be a sequence or an array, got a string ({x!r})")
    if isinstance(x, Iterator):
        raise InvalidInputError(
            name, f"must be a sequence or an array, got a {type(x).__name__} (use list(...))"
        )
    module = type(x).__module__.split(".")[0]
    if module == "torch":
        x = x.detach().cpu()
        if x.is_complex():
            raise InvalidInputError(name, f"must be real, got a {x.dtype} tensor")
        if x.is_floating_point() and x.dtype not in _torch_numpy_floats():
            x = x.float()  # bfloat16 (and the float8 types) widen to float32 exactly
        arr = x.numpy()
    elif module == "pandas":
        if not all(np.dtype(d).kind == "f" for d in _pandas_dtypes(x)):
            _missing(x.isna().to_numpy(), name)  # NA and None; NaN in float64 is a NaN
        arr = x.to_numpy()
        if arr.dtype == object and hasattr(x, "dtype") and hasattr(x.dtype, "numpy_dtype"):
            arr = arr.astype(x.dtype.numpy_dtype)  # a nullable dtype without missing values
    elif module == "polars":
        if hasattr(x, "is_null"):
            _missing(x.is_null().to_numpy(), name)
        else:  # DataFrame
            _missing(np.column_stack([c.is_null().to_numpy() for c in x.iter_columns()]), name)
        arr = x.to_numpy()
    else:
        try:
            arr = np.asarray(x)
        except (TypeError, ValueError) as exc:  # ragged nested sequences
            raise InvalidInputError(name, f"must be a 1-D or 2-D array ({exc})") from None
        if arr.dtype.kind in "US" and not isinstance(x, np.ndarray):
            mixed = np.asarray(x, dtype=object)
            if len({type(v) for v in mixed.flat}) > 1:
                arr = mixed  # numpy would make [1, "a"] strings: the caller sees the elements
    out: np.ndarray = arr[:, 0] if column and arr.ndim == 2 and arr.shape[1] == 1 else arr
    if out.ndim == 0:
        raise InvalidInputError(name, "must be a 1-D sequence, got a scalar")
    if out.ndim > 2:
        raise InvalidInputError(name, f"must be 1-D or 2-D, got shape {out.shape}")
    if out.shape[0] == 0:
        raise InvalidInputError(name, "must not be empty")
    return out


def _pandas_dtypes(x: Any) -> list[Any]:
    """The dtypes of a pandas Series or DataFrame, with extension dtypes as ``object``."""
    dtypes = list(x.dtypes) if hasattr(x, "dtypes") and not hasattr(x, "dtype") else [x.dtype]
    return [d if isinstance(d, np.dtype) else np.dtype(object) for d in dtypes]


def check_no_missing_labels(arr: np.ndarray, name: str) -> None:
    """Reject NaN and ``None`` among labels with one message whichever function received them."""
    if arr.dtype.kind == "f":
        nan = np.isnan(arr)
        if nan.any():
            raise InvalidInputError(name, f"labels must not be NaN (index {_at(nan)})")
    elif arr.dtype == object:
        missing = np.array([v is None or (isinstance(v, float) and v != v) for v in arr.flat])
        if missing.any():
            at = _at(missing.reshape(arr.shape))
            raise InvalidInputError(name, f"missing value (None/NaN) at index {at}")


def _torch_numpy_floats() -> tuple[Any, ...]:
    import torch

    return (torch.float16, torch.float32, torch.float64)


def _plain(x: Any, name: str) -> Any:
    """Reject strings, generators and iterators; detach tensors that track gradients.

    A generator or iterator would be consumed by a first look and then seen as a scalar object,
    so it is refused with a message saying so (pass ``list(...)``). A torch tensor with
    ``requires_grad`` cannot be converted by numpy; its values are taken through ``.detach()``.
    """
    if isinstance(x, (str, bytes)):
        raise InvalidInputError(
            name, f"must be real numbers, got a string ({x!r}); strings are never parsed as numbers"
        )
    if isinstance(x, Iterator):
        raise InvalidInputError(
            name, f"must be a sequence or an array, got a {type(x).__name__} (use list(...))"
        )
    if getattr(x, "requires_grad", False) and hasattr(x, "detach"):
        return x.detach().cpu()
    return x


def _no_strings(arr: np.ndarray, name: str) -> None:
    """Strings are never parsed as numbers: reject string dtypes and string elements."""
    if arr.dtype.kind in "USV":
        raise InvalidInputError(
            name, f"must contain real numbers, got dtype {arr.dtype} (strings are never parsed)"
        )
    if arr.dtype.kind == "O":
        for i, v in enumerate(arr.flat):
            if isinstance(v, (str, bytes)):
                raise InvalidInputError(
                    name, f"must contain real numbers, got the string {v!r} at index {i}"
                )


def _exact_value(v: Any) -> Fraction | None:
    """The exact rational value of a number, or None for things that are not real numbers."""
    if isinstance(v, (bool, np.bool_)):
        return None
    if isinstance(v, Fraction):
        return v
    if isinstance(v, (numbers.Integral, Decimal)):
        return Fraction(v) if not (isinstance(v, Decimal) and not v.is_finite()) else None
    if hasattr(v, "_mpf_"):
        sign, man, exp, _ = v._mpf_
        if not man and exp:  # inf / nan
            return None
        value = Fraction(man << exp) if exp >= 0 else Fraction(man, 1 << -exp)
        return -value if sign else value
    if hasattr(v, "as_integer_ratio"):
        try:
            return Fraction(*v.as_integer_ratio())
        except (OverflowError, ValueError):  # inf, nan
            return None
    return None


def _exact_float64(arr: np.ndarray, name: str, what: str) -> np.ndarray:
    """float64 values of ``arr`` when every element is exactly a float64 (or ±inf/NaN, left to
    the caller), else an error naming the first element that is not.

    ``what`` says where exact values are needed. Used for object arrays (``Fraction``,
    ``Decimal``, Python ints of any size, mpmath numbers) and extended-precision floats
    (``longdouble``): rounding them silently would change comparisons and values.
    """
    if arr.dtype.kind == "f" and arr.dtype.itemsize <= 8:
        return np.asarray(arr, dtype=np.float64)
    if arr.dtype.kind in "iu":  # exact below 2**53; above, where the round trip is
        out = arr.astype(np.float64)
        big = np.abs(out) >= 2.0**53
        if big.any():
            wrong = np.zeros(arr.shape, dtype=bool)
            wrong[big] = out[big].astype(object) != arr[big].astype(object)
            if wrong.any():
                i = _first_bad(wrong.ravel())
                raise InvalidInputError(
                    name, f"{_show(arr.ravel()[i])} at index {i} is not exactly a float64 ({what})"
                )
        return out
    if arr.dtype.kind == "f":  # longdouble: exact where the round trip is
        out = arr.astype(np.float64)
        with np.errstate(over="ignore", invalid="ignore"):
            bad = (out.astype(arr.dtype) != arr) & ~np.isnan(arr)
        if bad.any():
            i = _first_bad(bad.ravel())
            raise InvalidInputError(
                name, f"{arr.ravel()[i]!r} at index {i} is not exactly a float64 ({what})"
            )
        return out
    out = np.empty(arr.shape, dtype=np.float64)
    flat = out.reshape(-1)
    for i, v in enumerate(arr.flat):
        if isinstance(v, (float, np.floating)) and not math.isfinite(float(v)):
            flat[i] = float(v)
            continue
        q = _exact_value(v)
        if q is None:
            kind = "a boolean" if isinstance(v, (bool, np.bool_)) else type(v).__name__
            raise InvalidInputError(name, f"must contain real numbers, got {kind} at index {i}")
        try:
            f = float(q)
        except OverflowError:
            f = math.inf
        if math.isinf(f) or Fraction(f) != q:
            raise InvalidInputError(name, f"{v!r} at index {i} is not exactly a float64 ({what})")
        flat[i] = f
    return out


def _as_1d(x: Any, name: str) -> np.ndarray:
    arr = as_array(x, name)
    if arr.ndim != 1:
        raise InvalidInputError(name, f"must be 1-D, got shape {arr.shape}")
    return arr


def _show(value: Any) -> str:
    """repr of a value with numpy scalars shown as plain Python numbers."""
    return repr(value.item() if isinstance(value, np.generic) else value)


def _first_bad(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def as_labels(y_true: ArrayLike, name: str = "y_true") -> np.ndarray:
    """Validate binary labels and return them as a boolean array.

    Accepted: booleans, or numbers equal to 0 or 1 (``0``, ``1``, ``0.0``, ``1.0``). Anything
    else (``2``, ``-1``, ``0.5``, NaN, strings) raises with the first offending index.
    """
    arr = _as_1d(y_true, name)
    if arr.dtype == np.bool_:
        return arr
    check_no_missing_labels(arr, name)
    if arr.dtype.kind not in "iuf":
        if arr.dtype.kind == "O":
            try:
                arr = arr.astype(np.float64)
            except (TypeError, ValueError):
                raise InvalidInputError(name, "must contain numbers 0/1 or booleans") from None
        else:
            raise InvalidInputError(
                name, f"must contain numbers 0/1 or booleans, got dtype {arr.dtype}"
            )
    bad = (arr != 0) & (arr != 1)
    if bad.any():
        i = _first_bad(bad)
        raise InvalidInputError(name, f"labels must be 0 or 1, got {_show(arr[i])} at index {i}")
    labels: np.ndarray = arr == 1  # numpy types comparisons as returning Any
    return labels


def as_gains(y_true: ExactArrayLike, name: str = "y_true") -> ExactWeights:
    """Validate graded relevance (gains: finite numbers >= 0, or booleans) and hold it exactly
    as integers over one common denominator, as :func:`as_weights` holds weights."""
    arr = _as_1d(y_true, name)
    if arr.dtype.kind == "b":
        arr = arr.astype(np.int64)
    return cast(ExactWeights, as_weights(arr, arr.size, name))  # None only for None input


def as_scores(y_score: ExactArrayLike, n: int | None = None, name: str = "y_score") -> np.ndarray:
    """Validate real-valued scores and return a float64 array.

    ``+inf`` and ``-inf`` are legal (they rank first and last); NaN is rejected with its index.
    ``n`` is the required length (that of ``y_true``).
    """
    arr = _as_1d(y_score, name)
    if arr.dtype.kind == "c":
        raise InvalidInputError(name, "must be real, got complex values")
    _no_strings(arr, name)
    if arr.dtype.kind != "b":
        what = "scores are ranked as float64; round them yourself if that is intended"
        arr = _exact_float64(arr, name, what)
    arr = np.asarray(arr, dtype=np.float64)
    nan = np.isnan(arr)
    if nan.any():
        raise InvalidInputError(name, f"must not contain NaN (index {_first_bad(nan)})")
    if n is not None and arr.size != n:
        raise InvalidInputError(name, f"length {arr.size} does not match y_true's length {n}")
    return arr


class ExactWeights:
    """Non-negative sample weights held exactly as integers over one common denominator.

    ``weight[i] == Fraction(numerators[i], denominator)``. ``numerators`` is an ``int64`` array when
    every value fits, otherwise an ``object`` array of Python ints. Floats are taken at their exact
    binary value (every finite float is a dyadic rational, so a power-of-two denominator is exact).
    """

    __slots__ = ("denominator", "numerators")

    def __init__(self, numerators: np.ndarray, denominator: int) -> None:
        self.numerators = numerators
        self.denominator = denominator

    def __len__(self) -> int:
        return len(self.numerators)

    def __getitem__(self, i: int) -> Fraction:
        return Fraction(int(self.numerators[i]), self.denominator)

    def __repr__(self) -> str:
        return f"ExactWeights(numerators={self.numerators!r}, denominator={self.denominator})"


@overload
def as_weights(
    sample_weight: ExactArrayLike | None,
    n: int,
    name: str = ...,
    *,
    floats: Literal[False] = ...,
) -> ExactWeights | None: ...


@overload
def as_weights(
    sample_weight: ExactArrayLike | None, n: int, name: str = ..., *, floats: bool
) -> ExactWeights | np.ndarray | None: ...


def as_weights(
    sample_weight: ExactArrayLike | None,
    n: int,
    name: str = "sample_weight",
    *,
    floats: bool = False,
) -> ExactWeights | np.ndarray | None:
    """Validate sample weights (finite, >= 0, length ``n``) and convert them exactly.

    ``None`` means unit weights and is returned unchanged. Accepted element types: ``int``,
    ``Fraction``, ``float`` (exact binary value) and numpy numbers. With ``floats=True``, float
    weights that are not all integers are validated but returned as the float64 array itself
    (for a caller with a floating-point path; :func:`dyadic_weights` converts them exactly).
    """
    if sample_weight is None:
        return None
    arr = _as_1d(sample_weight, name)
    if arr.size != n:
        raise InvalidInputError(name, f"length {arr.size} does not match y_true's length {n}")
    if arr.dtype.kind == "b":
        raise InvalidInputError(name, "must contain numbers, got booleans")
    if arr.dtype.kind in "iu":
        if (arr < 0).any():
            i = _first_bad(arr < 0)
            raise InvalidInputError(name, f"must be >= 0, got {_show(arr[i])} at index {i}")
        if arr.dtype == np.uint64 and arr.max() >= 2**63:
            return ExactWeights(arr.astype(object), 1)
        return ExactWeights(arr.astype(np.int64), 1)
    if arr.dtype.kind == "f" and arr.dtype.itemsize > 8:
        arr = _exact_float64(arr, name, "weights are held exactly as float64 dyadics")
    if arr.dtype.kind == "f":
        bad = ~np.isfinite(arr)
        if bad.any():
            i = _first_bad(bad)
            raise InvalidInputError(name, f"must be finite, got {_show(arr[i])} at index {i}")
        if (arr < 0).any():
            i = _first_bad(arr < 0)
            raise InvalidInputError(name, f"must be >= 0, got {_show(arr[i])} at index {i}")
        if np.all(arr == np.floor(arr)) and np.all(arr < 2.0**62):
            return ExactWeights(arr.astype(np.int64), 1)
        arr = arr.astype(np.float64, copy=False)
        return arr if floats else dyadic_weights(arr)
    if arr.dtype.kind == "O":
        fracs = []
        for i, w in enumerate(arr):
            w = _real_scalar(w, f"{name}[{i}]")
            if isinstance(w, float) and not math.isfinite(w):
                raise InvalidInputError(name, f"must be finite, got {w!r} at index {i}")
            if w < 0:
                raise InvalidInputError(name, f"must be >= 0, got {w!r} at index {i}")
            fracs.append(Fraction(w))
        den = math.lcm(*(f.denominator for f in fracs))
        nums = np.array([f.numerator * (den // f.denominator) for f in fracs], dtype=object)
        return _reduce(nums, den)
    raise InvalidInputError(name, f"must contain real numbers, got dtype {arr.dtype}")


def _reduce(nums: np.ndarray, den: int) -> ExactWeights:
    """Normalise ``nums / den`` to lowest common terms, as int64 when every value fits."""
    g = math.gcd(den, *(int(v) for v in nums))
    if g > 1:
        nums = np.array([int(v) // g for v in nums], dtype=object)
        den //= g
    if all(-(2**62) < int(v) < 2**62 for v in nums):
        nums = nums.astype(np.int64)
    return ExactWeights(nums, den)


def dyadic_weights(arr: np.ndarray) -> ExactWeights:
    """Exact weights of finite, non-negative float64 values, vectorised (no per-item Fraction).

    Each float is ``m 2**e`` with ``m`` an odd integer below ``2**53`` (or 0). The common
    denominator is ``2**k`` with ``k = max(0, -min e)``; it is in lowest terms because the value
    with the least ``e`` has an odd numerator: the same numerators and denominator as converting
    each value with ``Fraction(x)`` over their least common denominator.
    """
    mant, exp = np.frexp(arr)
    m = (mant * 2.0**53).astype(np.int64)  # exact: a float64 significand has 53 bits
    e = exp.astype(np.int64) - 53
    nz = m != 0
    if not nz.any():
        return ExactWeights(np.zeros(arr.size, dtype=np.int64), 1)
    tz = np.frexp((m & -m).astype(np.float64))[1] - 1  # trailing zero bits (powers of two)
    m = np.where(nz, m >> np.maximum(tz, 0), 0)
    e = e + tz
    k = max(0, -int(e[nz].min()))
    shift = np.where(nz, e + k, 0)
    bits = np.frexp(m.astype(np.float64))[1] + shift  # m < 2**53 converts exactly
    if int(bits.max()) <= 62:
        return ExactWeights(np.left_shift(m, shift), 2**k)
    return ExactWeights(np.left_shift(m.astype(object), shift.astype(object)), 2**k)


def as_float_array(
    x: ArrayLike, name: str, lo: float | None = None, hi: float | None = None
) -> np.ndarray:
    """Validate a scalar or array argument of the float64 layer; return a float64 array.

    NaN is rejected; so is any value outside ``[lo, hi]`` when bounds are given. The message
    names the argument, the first offending value and (for arrays) its index.
    """
    x = _plain(x, name)
    if isinstance(x, (bool, np.bool_)):
        raise InvalidInputError(name, f"must be a real number, got a boolean ({x!r})")
    try:
        raw = np.asarray(x)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(name, f"must be real numbers ({exc})") from None
    if raw.dtype.kind == "b":
        raise InvalidInputError(name, "must be real numbers, got booleans")
    if raw.dtype.kind == "c":
        raise InvalidInputError(name, "must be real numbers, got complex values")
    _no_strings(raw, name)
    arr = _exact_float64(
        raw, name, "the float64 layer takes float64 arguments; use prtheory.oracle"
    )
    nan = np.isnan(arr)
    if nan.any():
        where = f" (index {np.argwhere(nan)[0].tolist()})" if arr.ndim else ""
        raise InvalidInputError(name, f"must not be NaN{where}")
    bad = np.zeros(arr.shape, dtype=bool)
    if lo is not None:
        bad |= arr < lo
    if hi is not None:
        bad |= arr > hi
    if bad.any():
        if arr.ndim:
            idx = tuple(np.argwhere(bad)[0])
            raise InvalidInputError(
                name,
                f"must lie in [{lo}, {hi}], got {_show(arr[idx])} at index {[int(k) for k in idx]}",
            )
        raise InvalidInputError(name, f"must lie in [{lo}, {hi}], got {float(arr)!r}")
    return arr


def as_count_array(x: ArrayLike, name: str) -> np.ndarray:
    """Validate counts for the float64 layer: integer values in [0, 2**53]; return float64.

    Counts beyond 2**53 are rejected because float64 cannot hold every integer there.
    """
    arr = as_float_array(x, name, 0.0, 2.0**53)
    frac = arr != np.floor(arr)
    if frac.any():
        where = f" at index {np.argwhere(frac)[0].tolist()}" if arr.ndim else ""
        raise InvalidInputError(name, f"must be integer counts, got {_show(arr[frac][0])}{where}")
    return arr


def as_doc_ids(doc_ids: Any, n: int, name: str = "doc_ids") -> np.ndarray:
    """Validate document identifiers: ``n`` distinct strings; return a numpy unicode array.

    They are compared as strings, by code point (for UTF-8 text this is the byte order that C's
    ``strcmp`` uses, as in trec_eval). Numbers are rejected rather than converted, because
    ``"10" < "9"`` as strings: convert them yourself in the form your run file uses.
    """
    if isinstance(doc_ids, (str, bytes)):
        raise InvalidInputError(
            name, f"must be a sequence of strings, got {type(doc_ids).__name__}"
        )
    ids = list(doc_ids)
    if len(ids) != n:
        raise InvalidInputError(name, f"length {len(ids)} does not match y_true's length {n}")
    for i, d in enumerate(ids):
        if not isinstance(d, str):
            raise InvalidInputError(
                name, f"must contain strings, got {type(d).__name__} ({d!r}) at index {i}"
            )
        if "\0" in d:
            raise InvalidInputError(name, f"must not contain NUL characters (index {i})")
    arr = np.array(ids, dtype=str) if ids else np.array([], dtype="U1")
    sorted_ids = np.sort(arr)
    dup = sorted_ids[1:] == sorted_ids[:-1]
    if dup.any():
        raise InvalidInputError(name, f"must be distinct, {str(sorted_ids[1:][dup][0])!r} repeats")
    return arr
