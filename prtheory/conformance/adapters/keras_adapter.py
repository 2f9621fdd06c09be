"""Keras 3: ``keras.metrics.AUC(curve="PR")``, run on the torch backend.

Keras evaluates the curve at fixed thresholds: an item counts as predicted positive at threshold
``t`` iff ``score > t``. By default there are ``num_thresholds=200`` of them, ``-1e-7``,
``i/199`` (``i = 1, ..., 198``) and ``1 + 1e-7``, so the curve is a binned one; with
``thresholds=[...]`` the caller chooses them (Keras adds ``-1e-7`` and ``1 + 1e-7``, and requires
every threshold in [0, 1]). ``summation_method="interpolation"`` (the default for PR) is the
Davis-Goadrich interpolation between consecutive thresholds (Keras's ``interpolate_pr_auc``
integrates precision with TP and TP + FP linear in between); in the first bucket with true
positives, where TP + FP starts at 0, the precision of the bucket's end is held constant from
recall 0, which is the oracle's ``first-point=spark``. Keras computes in float32.

Two calling patterns are run:

* the default, ``AUC(curve="PR")``: 200 binned thresholds (the runner compares it with the
  oracle on scores binned to the same grid);
* ``AUC(curve="PR", thresholds=...)`` with one threshold just below every distinct float32 score,
  which puts an operating point at every distinct score: the exact Davis-Goadrich area up to the
  float32 arithmetic.

Keras takes probabilities: scores outside [0, 1] (or non-finite) are reported as unsupported
rather than passed in (the default clips them to [0, 1]; explicit thresholds must lie in [0, 1]).
``summation_method="minoring"``/``"majoring"`` are the lower and upper Riemann sums of the curve:
run with one threshold per distinct score on the average-precision vectors, they bracket the step
AP and equal it only when the precision does not change within a recall step
(:func:`prtheory.conformance.keras_models.float32_riemann` emulates them, and
:func:`~prtheory.conformance.keras_models.float32_interpolation` the interpolated area).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from prtheory.conformance.adapters import Implementation, Unsupported
from prtheory.conformance.keras_models import (
    DEFAULT_THRESHOLDS,
    NUM_THRESHOLDS,
    every_score_thresholds,
)

LIBRARY = "Keras"
DISTRIBUTION = "keras"
MODULE = "keras"
SHIMS: tuple[str, ...] = ()


def _probabilities(x: Any) -> np.ndarray | Unsupported:
    s = np.asarray(x.y_score, dtype=np.float64)
    if s.size and not (np.isfinite(s).all() and s.min() >= 0.0 and s.max() <= 1.0):
        return Unsupported("Keras's AUC takes probabilities in [0, 1]")
    return s


def _keras_auc(method: str, thresholds_of: Any) -> Any:
    """A ``run`` of ``keras.metrics.AUC(curve="PR", summation_method=method)`` at the thresholds
    ``thresholds_of(scores)`` (Keras's default ones where None); imports Keras."""

    def run(x: Any) -> Any:
        import keras

        s = _probabilities(x)
        if isinstance(s, Unsupported):
            return s
        kw: dict[str, Any] = {}
        if thresholds_of is not None:
            kw["thresholds"] = thresholds_of(s)
        metric = keras.metrics.AUC(curve="PR", summation_method=method, **kw)
        w = None if x.sample_weight is None else np.asarray(x.sample_weight, np.float64)
        metric.update_state(np.asarray(x.y_true, np.float64), s, sample_weight=w)
        return float(metric.result())

    return run


def implementations() -> list[Implementation]:
    """Keras's implementations of the vectors' metrics; imports the library.

    Returns
    -------
    list of Implementation
        One per function or call pattern (the module docstring lists them).

    Examples
    --------
    On the labels 1, 0, 0, 1 in decreasing score order, ``summation_method="majoring"`` gives
    1/2 * 1 + 1/2 * 1/2 = 3/4 (:func:`~prtheory.conformance.keras_models.float32_riemann`
    derives it), and the interpolated area is what
    :func:`~prtheory.conformance.keras_models.float32_interpolation` emulates, to the last bit. Scores outside [0, 1] are
    declined (called, as the runner calls it, through
    :func:`prtheory.conformance.adapters.implementations`, which silences warnings of the
    library's import):

    >>> import numpy as np
    >>> from prtheory.conformance.adapters import implementations
    >>> from prtheory.conformance.keras_models import float32_interpolation
    >>> from prtheory.conformance.metrics import Inputs
    >>> impl = {i.name: i for i in implementations("keras")}
    >>> x = Inputs(np.array([1, 0, 0, 1]), np.array([0.8, 0.6, 0.4, 0.2]))
    >>> majoring = "AUC(curve='PR', summation_method='majoring', thresholds=every distinct score)"
    >>> impl[majoring].run(x)
    0.75
    >>> auc = impl["AUC(curve='PR', thresholds=every distinct score)"].run
    >>> auc(x) == float32_interpolation(x)
    True
    >>> auc(Inputs(x.y_true, np.array([2.0, 0.6, 0.4, 0.2])))
    Unsupported(reason="Keras's AUC takes probabilities in [0, 1]")
    """
    os.environ.setdefault("KERAS_BACKEND", "torch")
    import keras  # noqa: F401  (fails here, not per vector, when missing)

    claims = ("first-point=spark",)
    return [
        Implementation(
            LIBRARY,
            f"AUC(curve='PR', summation_method='{method}', thresholds=every distinct score)",
            "average_precision",
            _keras_auc(method, every_score_thresholds),
            note="a Riemann sum of the PR curve, offered where users look for AP",
        )
        for method in ("minoring", "majoring")
    ] + [
        Implementation(
            LIBRARY,
            "AUC(curve='PR', thresholds=every distinct score)",
            "auc_davis_goadrich",
            _keras_auc("interpolation", every_score_thresholds),
            claims,
        ),
        Implementation(
            LIBRARY,
            f"AUC(curve='PR'), default {NUM_THRESHOLDS} thresholds",
            "auc_davis_goadrich",
            _keras_auc("interpolation", None),
            claims,
            binned=DEFAULT_THRESHOLDS,
        ),
    ]
