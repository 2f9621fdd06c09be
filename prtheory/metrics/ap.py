"""Ranking metrics as correctly rounded float64, as fast as the usual float implementations.

:func:`average_precision` is the float64 nearest to the exact step AP (ties grouped, as
scikit-learn's ``average_precision_score``): equal, bit for bit, to
``to_float(prtheory.oracle.average_precision(...))``. It validates through the same path as the
oracle (:func:`prtheory.oracle.counts.recall_steps`) and rounds with
:func:`prtheory.oracle.summation.round_quotient_sum`, which decides the rounding from an exact
integer interval and only falls back to the exact rational when the interval cannot decide.
Float weights that are not all integers first try :mod:`prtheory.metrics.area_kernel` (one compiled
double-double pass with a proved error bound, when numba is installed); it returns nothing
rather than a value it cannot prove, and the exact path takes over.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from prtheory._input import ExactArrayLike, dyadic_weights
from prtheory.metrics import area_kernel
from prtheory.oracle.ap import no_positives
from prtheory.oracle.counts import RecallSteps, steps_of
from prtheory.oracle.summation import round_quotient_sum

__all__ = ["average_precision", "rounded_step_average_precision"]


def average_precision(
    y_true: ArrayLike,
    y_score: ExactArrayLike,
    sample_weight: ExactArrayLike | None = None,
    *,
    convention: str | None = None,
) -> float:
    """Correctly rounded float64 of the step average precision (claims N2, N3).

    ``AP = sum_i (R_i - R_{i-1}) P_i`` over the blocks of tied scores, exactly as
    :func:`prtheory.oracle.average_precision` with ``ties="group"``, then rounded to nearest.
    Labels must be 0/1 or booleans, scores real (``±inf`` allowed, NaN rejected), weights finite
    and non-negative. With no positive weight:
    :class:`~prtheory.errors.UndefinedMetricError`, or 0.0 with ``convention="sklearn"``.
    """
    value, labels, scores, w = area_kernel.from_input(y_true, y_score, sample_weight, "ap")
    if value is not None:
        return value
    if isinstance(w, np.ndarray):  # float weights the kernel left: exact after all
        w = dyadic_weights(w)
    steps = steps_of(labels, scores, w)
    if steps.pos == 0:
        return float(no_positives("average precision", convention, y_true))
    return rounded_step_average_precision(steps)


def rounded_step_average_precision(steps: RecallSteps) -> float:
    """The float64 nearest to the step AP of recall steps with ``pos > 0`` (N2), ties to even.

    ``to_float(prtheory.oracle.ap.step_average_precision(steps))``, decided from an exact
    integer interval without building the rational in most cases.
    """
    nums, dens = steps.ap_terms()
    return round_quotient_sum(nums, dens, steps.pos)
