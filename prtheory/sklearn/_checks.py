"""scikit-learn's validation of the drop-in's arguments, with its exception types and messages.

The targets are classified and the arrays checked by scikit-learn's own public validators
(``type_of_target``, ``check_array``, ``column_or_1d``, ``check_consistent_length``,
``assert_all_finite``, ``label_binarize``), so that a bad input raises what scikit-learn raises.
What scikit-learn checks with private helpers is repeated here after its 1.9 source: the
parameter constraints of ``validate_params`` (:class:`InvalidParameterError`, a ``ValueError``
and a ``TypeError``), ``_check_pos_label_consistency`` and ``_check_sample_weight``.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real
from typing import Any

import numpy as np
from sklearn.utils import check_array, check_consistent_length, column_or_1d
from sklearn.utils.multiclass import type_of_target

__all__ = [
    "CURVE",
    "InvalidParameterError",
    "binary_input",
    "check_params",
    "curve_input",
    "has_weight",
    "pos_label_of",
    "sample_weights",
    "warn_no_positives",
]


class InvalidParameterError(ValueError, TypeError):
    """A parameter outside its constraints (scikit-learn's ``InvalidParameterError``)."""


def _array_like(value: Any) -> bool:
    """scikit-learn's "array-like": has a length, a shape or ``__array__``; not a scalar."""
    has = hasattr(value, "__len__") or hasattr(value, "shape") or hasattr(value, "__array__")
    return has and not np.isscalar(value)


#: Named constraints, each a test and the words scikit-learn's message uses for it.
_CONSTRAINTS = {
    "array-like": (_array_like, "an array-like"),
    "None": (lambda v: v is None, "None"),
    "boolean": (
        lambda v: isinstance(v, (bool, np.bool_)),
        "an instance of 'bool' or an instance of 'numpy.bool'",
    ),
    "str": (lambda v: isinstance(v, str), "an instance of 'str'"),
    "Real": (lambda v: isinstance(v, Real), "an instance of 'float'"),
    "Integral": (
        lambda v: isinstance(v, Integral) and not isinstance(v, (bool, np.bool_)),
        "an int",
    ),
}


def check_params(function: str, constraints: dict[str, list[Any]], values: dict[str, Any]) -> None:
    """``validate_params``: each value satisfies one of its constraints (a name of
    :data:`_CONSTRAINTS`, a set of allowed strings, or ``(kind, lo, hi, closed)``, an interval
    of ``"int"`` or ``"real"`` with ``None`` for an open end), else :class:`InvalidParameterError` in scikit-learn's words."""
    for name, allowed in constraints.items():
        value = values[name]
        words = []
        for c in allowed:
            if isinstance(c, (set, frozenset)):
                if isinstance(value, str) and value in c:
                    break
                words.append(f"a str among {{{', '.join(repr(o) for o in sorted(c))}}}")
            elif isinstance(c, tuple):
                kind, lo, hi, closed = c
                number = Integral if kind == "int" else Real
                if isinstance(value, number) and not isinstance(value, (bool, np.bool_)):
                    low_ok = lo is None or (
                        value >= lo if closed in ("left", "both") else value > lo
                    )
                    high_ok = hi is None or (
                        value <= hi if closed in ("right", "both") else value < hi
                    )
                    if low_ok and high_ok:
                        break
                left = "[" if closed in ("left", "both") and lo is not None else "("
                right = "]" if closed in ("right", "both") and hi is not None else ")"
                show = (lambda v: str(v)) if kind == "int" else (lambda v: str(float(v)))
                low = "-inf" if lo is None else show(lo)
                high = "inf" if hi is None else show(hi)
                article = "an int" if kind == "int" else "a float"
                words.append(f"{article} in the range {left}{low}, {high}{right}")
            else:
                test, word = _CONSTRAINTS[c]
                if test(value):
                    break
                words.append(word)
        else:
            said = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
            raise InvalidParameterError(
                f"The {name!r} parameter of {function} must be {said}. Got {value!r} instead."
            )


def pos_label_of(pos_label: Any, y_true: Any) -> Any:
    """scikit-learn's ``_check_pos_label_consistency``: ``pos_label``, or 1 when the labels are
    ``{0, 1}``, ``{-1, 1}`` or one of those alone."""
    if pos_label is not None:
        return pos_label
    classes = np.unique(np.asarray(y_true))
    numeric = classes.dtype.kind not in "OUS" and classes.size <= 2
    if not numeric or not any(
        classes.size == len(ok) and np.all(classes == np.asarray(ok))
        for ok in ([0, 1], [-1, 1], [0], [-1], [1])
    ):
        shown = ", ".join(repr(c) for c in classes.tolist())
        raise ValueError(
            f"y_true takes value in {{{shown}}} and pos_label is not specified: either make "
            "y_true take value in {0, 1} or {-1, 1} or pass pos_label explicitly."
        )
    return 1


def sample_weights(sample_weight: Any, n: int) -> np.ndarray | None:
    """scikit-learn's ``_check_sample_weight`` for an array (the metrics never pass a
    scalar): float64 or float32, 1-D of length ``n``, finite, not all zero."""
    if sample_weight is None:
        return None
    w = check_array(
        sample_weight,
        accept_sparse=False,
        ensure_2d=False,
        dtype=[np.float64, np.float32],
        order="C",
        input_name="sample_weight",
    )
    if w.ndim != 1:
        raise ValueError(
            f"Sample weights must be 1D array or scalar, got {w.ndim}D array. Expected either "
            f"a scalar value or a 1D array of length {n}."
        )
    if w.shape != (n,):
        raise ValueError(f"sample_weight.shape == {w.shape}, expected {(n,)}!")
    if np.all(w == 0):
        raise ValueError("Sample weights must contain at least one non-zero number.")
    return w


def binary_input(
    y_true: Any, y_score: Any, pos_label: Any, sample_weight: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """The checks of scikit-learn's ``confusion_matrix_at_thresholds``: a binary target (or a
    multi-class one with ``pos_label``), finite scores, weights as ``_check_sample_weight``.
    Returns boolean labels, the scores as given (their dtype kept, for the thresholds) and the
    weights."""
    from sklearn.utils import assert_all_finite

    y_type = type_of_target(y_true, input_name="y_true")
    if not (y_type == "binary" or (y_type == "multiclass" and pos_label is not None)):
        raise ValueError(f"{y_type} format is not supported")
    pos_label = pos_label_of(pos_label, y_true)
    labels = np.asarray(y_true) == pos_label
    if sample_weight is not None:
        sample_weight = column_or_1d(sample_weight)
    check_consistent_length(labels, y_score, sample_weight)
    labels = column_or_1d(labels)
    scores = column_or_1d(y_score)
    assert_all_finite(labels)
    assert_all_finite(scores)
    return np.asarray(labels, dtype=bool), scores, sample_weights(sample_weight, labels.size)


#: The parameter constraints of scikit-learn's three binary curves.
CURVE = {
    "y_true": ["array-like"],
    "y_score": ["array-like"],
    "pos_label": ["Real", "str", "boolean", "None"],
    "sample_weight": ["array-like", "None"],
    "drop_intermediate": ["boolean"],
}


def curve_input(
    function: str, y_true: Any, y_score: Any, pos_label: Any, sample_weight: Any, drop: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """A curve's parameters checked (:data:`CURVE`) and its input by :func:`binary_input`."""
    check_params(
        function,
        CURVE,
        {
            "y_true": y_true,
            "y_score": y_score,
            "pos_label": pos_label,
            "sample_weight": sample_weight,
            "drop_intermediate": drop,
        },
    )
    return binary_input(y_true, y_score, pos_label, sample_weight)


def has_weight(labels: np.ndarray, weights: np.ndarray | None, positive: bool) -> bool:
    """Whether the class ``positive`` has weight (scikit-learn's ``tps[-1] > 0``, ``fps[-1] > 0``)."""
    mine = labels == positive
    return bool(mine.any()) if weights is None else bool((weights[mine] != 0).any())


def warn_no_positives(stacklevel: int) -> None:
    """scikit-learn's warning where a PR curve (or an AP) has no positive."""
    warnings.warn(
        "No positive class found in y_true, recall is set to one for all thresholds.",
        stacklevel=stacklevel + 1,
    )
