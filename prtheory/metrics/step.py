"""The step average precision of one binary ranking as a correctly rounded float64 (N2, N3).

The float64 nearest to the exact step AP (ties grouped, as scikit-learn's
``average_precision_score``): equal, bit for bit, to
``to_float(prtheory.oracle.average_precision(...))``. Unit and integer weights take the exact
integer path of :func:`prtheory.oracle.counts.steps_of`, rounded by
:func:`prtheory.oracle.summation.round_quotient_sum`, which decides the rounding from an exact
integer interval and only falls back to the exact rational when the interval cannot decide.
Float weights that are not all integers first try :mod:`prtheory.metrics.area_kernel` (one
compiled double-double pass with a proved error bound, when numba is installed); it returns
nothing rather than a value it cannot prove, and the exact path takes over.

The public function is :func:`prtheory.average_precision` (:mod:`prtheory.metrics.areas`), with
``pos_label``, ``average`` and ``labels``; this module is its path for one binary column.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from prtheory._input import as_weights, dyadic_weights
from prtheory.metrics import area_kernel
from prtheory.oracle.counts import RecallSteps, steps_of
from prtheory.oracle.summation import round_quotient_sum

__all__ = ["binary_average_precision", "rounded_step_average_precision"]


def binary_average_precision(
    labels: np.ndarray, scores: np.ndarray, sample_weight: Any
) -> float | None:
    """The correctly rounded step AP of validated boolean ``labels`` and float64 ``scores``
    with the caller's ``sample_weight`` (validated here); ``None`` when no positive label has
    weight (AP is undefined: the caller names it, or applies its convention).

    Parameters
    ----------
    labels : ndarray of bool
        Validated labels.
    scores : ndarray of float
        Validated scores.
    sample_weight : array-like or None
        The caller's weights (validated here).

    Returns
    -------
    float or None
        The correctly rounded AP; None without positive weight.

    Raises
    ------
    InvalidInputError
        Malformed ``sample_weight``.

    See Also
    --------
    rounded_step_average_precision
    prtheory.average_precision : the public entry point.

    Examples
    --------
    Positives at ranks 1 and 3: AP = 5/6, whose float64 is ``float(Fraction(5, 6))``:

    >>> from fractions import Fraction
    >>> import numpy as np
    >>> from prtheory.metrics.step import binary_average_precision
    >>> labels, scores = np.array([True, False, True]), np.array([0.9, 0.8, 0.7])
    >>> binary_average_precision(labels, scores, None) == float(Fraction(5, 6))
    True
    >>> binary_average_precision(np.array([False]), np.array([0.9]), None) is None
    True
    """
    w = as_weights(sample_weight, labels.size, floats=True)
    if isinstance(w, np.ndarray):
        value = area_kernel.rounded(labels, scores, w, "ap")
        if value is not None:
            return value
        w = dyadic_weights(w)  # float weights the kernel left: exact after all
    steps = steps_of(labels, scores, w)
    return None if steps.pos == 0 else rounded_step_average_precision(steps)


def rounded_step_average_precision(steps: RecallSteps) -> float:
    """The float64 nearest to the step AP of recall steps with ``pos > 0`` (N2), ties to even.

    ``to_float(prtheory.oracle.ap.step_average_precision(steps))``, decided from an exact
    integer interval without building the rational in most cases.

    Parameters
    ----------
    steps : RecallSteps
        Recall steps with ``pos > 0``.

    Returns
    -------
    float
        The float64 nearest to the step AP.

    See Also
    --------
    prtheory.oracle.ap.step_average_precision : the exact value.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from prtheory.metrics.step import rounded_step_average_precision
    >>> from prtheory.oracle.counts import recall_steps
    >>> rounded_step_average_precision(recall_steps([1, 0, 1], [0.9, 0.8, 0.7])) == float(Fraction(5, 6))
    True
    """
    nums, dens = steps.ap_terms()
    return round_quotient_sum(nums, dens, steps.pos)
