"""pycm: the areas of ``PRCurve`` and ``ROCCurve``, and per-class PPV, TPR and F-beta.

``PRCurve(actual_vector, probs, classes)`` (``pycm/curve.py``) builds one ``ConfusionMatrix`` per
threshold, the thresholds being every distinct probability of every class (``thresholds_calc``),
an item predicted as the class when its probability is ``>=`` the threshold
(``threshold_func``); ``area()`` integrates TPR against PPV (``ROCCurve``: FPR against TPR) by
the trapezoidal rule, without a point at recall 0. The adapter passes ``[1 - score, score]``
as each item's probabilities for the classes ``[0, 1]`` and reads class 1.

pycm's own per-class ``AUPR`` is ``(PPV + TPR) / 2`` of a single confusion matrix
(``class_funcs.py``, ``AUC_calc``), a statistic of one threshold, not an area under a ranking's
curve; its two parts are checked on the threshold vectors: ``ConfusionMatrix`` of the labels and
the predictions ``score >= t``, whose ``PPV``, ``TPR`` and ``F_beta(beta)`` of class 1 are read
(pycm writes the string ``"None"`` for 0/0, taken here as NaN). pycm's input checks raise
``pycmCurveError``/``pycmVectorError``/``pycmMatrixError``, passed on as ``ValueError``, a
deliberate rejection.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np

from prtheory.conformance.adapters import (
    Implementation,
    Unsupported,
    rejections_as_value_error,
)

LIBRARY = "pycm"
DISTRIBUTION = "pycm"
MODULE = "pycm"
SHIMS: tuple[str, ...] = ()


def _number(value: Any) -> float:
    """A pycm statistic as a float: its ``"None"`` (0/0) as NaN."""
    return math.nan if value == "None" else float(value)


def _curve_area(kind: str) -> Any:
    def run(x: Any) -> Any:
        import pycm

        s = np.asarray(x.y_score, dtype=np.float64)
        curve = getattr(pycm, kind)(
            actual_vector=np.asarray(x.y_true).astype(np.int64),
            probs=np.column_stack([1 - s, s]),
            classes=[0, 1],
            sample_weight=None if x.sample_weight is None else np.asarray(x.sample_weight),
        )
        return _number(curve.area()[1])

    return run


def _at_threshold(statistic: str) -> Any:
    def run(x: Any) -> Any:
        from pycm import ConfusionMatrix

        if np.isnan(np.asarray(x.y_score, dtype=np.float64)).any():
            return Unsupported("the adapter thresholds scores into predictions; NaN has none")
        y = np.asarray(x.y_true).astype(np.int64)
        predicted = (np.asarray(x.y_score) >= x.params["threshold"]).astype(np.int64)
        w = None if x.sample_weight is None else np.asarray(x.sample_weight)
        cm = ConfusionMatrix(actual_vector=y, predict_vector=predicted, sample_weight=w)
        if statistic == "F_beta":
            return _number(cm.F_beta(float(x.params["beta"])).get(1, "None"))
        return _number(getattr(cm, statistic).get(1, "None"))

    return run


def implementations() -> list[Implementation]:
    """pycm's implementations of the vectors' metrics; imports the library.

    Returns
    -------
    list of Implementation
        One per function or call pattern (the module docstring lists them).

    Examples
    --------
    The labels 1, 0, 0, 1 in decreasing score order have the points (R, P) = (1/2, 1),
    (1/2, 1/2), (1/2, 1/3), (1, 1/2); with no point at recall 0, the trapezoids give only the
    last segment's 1/2 * (1/3 + 1/2) / 2 = 5/24 (scikit-learn's curve, from (0, 1), adds 1/2:
    17/24). 5/24 is not a float64 number: the value is within 4 of the 2**-55 steps of float64
    in [1/8, 1/4). ``score >= 0.5`` selects the first two items, one a positive: PPV 1/2; at
    0.9 it selects none, and pycm's ``"None"`` for 0/0 is read as NaN:

    >>> import math
    >>> import numpy as np
    >>> from prtheory.conformance.adapters.pycm_adapter import implementations
    >>> from prtheory.conformance.metrics import Inputs
    >>> impl = {i.metric: i for i in implementations()}
    >>> y, s = np.array([1, 0, 0, 1]), np.array([0.8, 0.6, 0.4, 0.2])
    >>> abs(impl["auc_trapezoid"].run(Inputs(y, s)) - 5 / 24) < 4 * 2**-55
    True
    >>> ppv = impl["precision_at_threshold"].run
    >>> ppv(Inputs(y, s, params={"threshold": 0.5}))
    0.5
    >>> math.isnan(ppv(Inputs(y, s, params={"threshold": 0.9})))
    True
    """
    from pycm.errors import pycmCurveError, pycmMatrixError, pycmVectorError

    checks = (pycmCurveError, pycmMatrixError, pycmVectorError)
    return [replace(i, run=rejections_as_value_error(i.run, checks)) for i in _implementations()]


def _implementations() -> list[Implementation]:
    return [
        Implementation(LIBRARY, "PRCurve(...).area()", "auc_trapezoid", _curve_area("PRCurve")),
        Implementation(LIBRARY, "ROCCurve(...).area()", "roc_auc", _curve_area("ROCCurve")),
        Implementation(
            LIBRARY, "ConfusionMatrix(...).PPV", "precision_at_threshold", _at_threshold("PPV")
        ),
        Implementation(
            LIBRARY, "ConfusionMatrix(...).TPR", "recall_at_threshold", _at_threshold("TPR")
        ),
        Implementation(
            LIBRARY,
            "ConfusionMatrix(...).F_beta(beta)",
            "fbeta_at_threshold",
            _at_threshold("F_beta"),
        ),
    ]
