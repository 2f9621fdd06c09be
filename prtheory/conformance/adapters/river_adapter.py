"""river: the streaming ``metrics.ROCAUC`` and ``metrics.RollingROCAUC``.

``ROCAUC(n_thresholds=10)`` (``river/metrics/roc_auc.py``) keeps one confusion matrix per
threshold ``i/9`` (the first lowered and the last raised by 1e-7), an item counting as predicted
positive when its score is ``> t``, and integrates the ROC curve through those ten points by
trapezoids: a binned area, documented as "an approximation of the true ROC AUC" that "assumes
``y_pred`` lies in [0, 1]" (scores outside it are reported as unsupported).
``RollingROCAUC(window_size)`` ranks the scores in a window; with a window of the whole input it
is the ROC AUC of the input. Items are fed one ``update()`` each, in input order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from prtheory.conformance.adapters import Implementation, Unsupported, unpaired

LIBRARY = "river"
DISTRIBUTION = "river"
MODULE = "river"
SHIMS: tuple[str, ...] = ()

N_THRESHOLDS = 10
#: ROCAUC's thresholds, as ``ROCAUC.__init__`` builds them
THRESHOLDS = tuple(
    [-1e-7 + 0.0] + [i / (N_THRESHOLDS - 1) for i in range(1, N_THRESHOLDS - 1)] + [1.0 + 1e-7]
)


def _streamed(metric: Any, x: Any) -> Any:
    """Feed every item to ``metric`` (label as bool, score as float), then read it."""
    if (reason := unpaired(x, "update(y_true, y_pred[, w]) calls")) is not None:
        return reason
    labels = np.asarray(x.y_true).tolist()
    scores = np.asarray(x.y_score, dtype=np.float64).tolist()
    if x.sample_weight is None:
        for label, score in zip(labels, scores, strict=True):
            metric.update(bool(label == 1), float(score))
    else:
        weights = np.asarray(x.sample_weight, dtype=np.float64).tolist()
        for label, score, w in zip(labels, scores, weights, strict=True):
            metric.update(bool(label == 1), float(score), float(w))
    return float(metric.get())


def _rocauc(x: Any) -> Any:
    from river import metrics

    s = np.asarray(x.y_score, dtype=np.float64)
    if s.size and not (np.isfinite(s).all() and s.min() >= 0.0 and s.max() <= 1.0):
        return Unsupported("river's ROCAUC takes probabilities in [0, 1]")
    rocauc: Any = metrics.ROCAUC  # river's metrics have no annotations (strict mypy)
    return _streamed(rocauc(n_thresholds=N_THRESHOLDS), x)


def _rolling(x: Any) -> Any:
    from river import metrics

    if x.sample_weight is not None:
        return Unsupported("RollingROCAUC.update takes no weight")
    rolling: Any = metrics.RollingROCAUC  # river's metrics have no annotations (strict mypy)
    return _streamed(rolling(window_size=max(1, len(x.y_true))), x)


def implementations() -> list[Implementation]:
    """river's implementations of the vectors' metrics; imports the library.

    Returns
    -------
    list of Implementation
        One per function or call pattern (the module docstring lists them).

    Examples
    --------
    The labels 1, 0, 0, 1 in decreasing score order: the first positive is above both
    negatives, the last below them, ROC AUC = 2/4 = 1/2; the scores fall between different
    thresholds ``i/9``, so the binned ``ROCAUC`` has every operating point and agrees. A
    positive at 0.85 above a negative at 0.8 has ROC AUC 1, but both scores lie between the
    thresholds 7/9 and 8/9: every threshold predicts both or neither, the binned curve is the
    diagonal, 1/2, where ``RollingROCAUC`` over the whole input ranks them, 1. Scores outside
    [0, 1] are declined:

    >>> import numpy as np
    >>> from prtheory.conformance.adapters.river_adapter import implementations
    >>> from prtheory.conformance.metrics import Inputs
    >>> rocauc, rolling = (i.run for i in implementations())
    >>> rocauc(Inputs(np.array([1, 0, 0, 1]), np.array([0.8, 0.6, 0.4, 0.2])))
    0.5
    >>> x = Inputs(np.array([1, 0]), np.array([0.85, 0.8]))
    >>> rocauc(x), rolling(x)
    (0.5, 1.0)
    >>> rocauc(Inputs(np.array([1, 0]), np.array([2.0, 0.8])))
    Unsupported(reason="river's ROCAUC takes probabilities in [0, 1]")
    """
    import river  # noqa: F401  (fails here, not per vector, when missing)

    return [
        Implementation(
            LIBRARY,
            f"metrics.ROCAUC(), default {N_THRESHOLDS} thresholds",
            "roc_auc",
            _rocauc,
            binned=THRESHOLDS,
        ),
        Implementation(LIBRARY, "metrics.RollingROCAUC(window_size=n)", "roc_auc", _rolling),
    ]
