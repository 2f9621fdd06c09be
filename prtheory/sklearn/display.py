"""``PrecisionRecallDisplay`` and ``RocCurveDisplay``: scikit-learn's, with exact numbers.

The classes are scikit-learn's displays (subclasses: same attributes, ``plot``, ``ax_``,
``line_``, ``figure_``); the constructors that compute a curve -- ``from_predictions`` and
``from_cv_results`` (``from_estimator`` goes through ``from_predictions``) -- run
scikit-learn's own code with the names it computes with (``precision_recall_curve``,
``average_precision_score``, ``roc_curve``, ``auc``) bound to :mod:`prtheory.sklearn`'s for the
call, so every plotted coordinate and the AP or AUC in the legend are correctly rounded. The
binding is made under a lock and undone when the call returns.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from types import ModuleType
from typing import Any, ClassVar

from sklearn.metrics import PrecisionRecallDisplay as _SkPrecisionRecallDisplay
from sklearn.metrics import RocCurveDisplay as _SkRocCurveDisplay

from prtheory.sklearn import curves, scores

__all__ = ["PrecisionRecallDisplay", "RocCurveDisplay"]

_LOCK = threading.RLock()


@contextlib.contextmanager
def _bound(module: ModuleType, names: dict[str, Any]) -> Iterator[None]:
    """``module``'s globals ``names`` rebound for the duration (under :data:`_LOCK`)."""
    with _LOCK:
        saved = {k: getattr(module, k) for k in names}
        try:
            for k, v in names.items():
                setattr(module, k, v)
            yield
        finally:
            for k, v in saved.items():
                setattr(module, k, v)


def _module(cls: type) -> ModuleType:
    import sys

    return sys.modules[cls.__module__]


class PrecisionRecallDisplay(_SkPrecisionRecallDisplay):
    """scikit-learn's ``PrecisionRecallDisplay`` whose curve and AP are
    :func:`prtheory.sklearn.precision_recall_curve` and
    :func:`prtheory.sklearn.average_precision_score` (module docstring).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from prtheory.sklearn import PrecisionRecallDisplay
    >>> display = PrecisionRecallDisplay.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> display.average_precision
    0.8333333333333334
    >>> display.precision.tolist()
    [0.5, 0.6666666666666666, 0.5, 1.0, 1.0]
    """

    _NAMES: ClassVar[dict[str, Any]] = {
        "precision_recall_curve": curves.precision_recall_curve,
        "average_precision_score": scores.average_precision_score,
    }

    @classmethod
    def from_predictions(cls, *args: Any, **kwargs: Any) -> Any:
        """scikit-learn's ``PrecisionRecallDisplay.from_predictions`` (same arguments), the
        curve and the AP computed by :mod:`prtheory.sklearn`."""
        with _bound(_module(_SkPrecisionRecallDisplay), cls._NAMES):
            return super().from_predictions(*args, **kwargs)

    @classmethod
    def from_cv_results(cls, *args: Any, **kwargs: Any) -> Any:
        """scikit-learn's ``PrecisionRecallDisplay.from_cv_results`` (same arguments), each
        fold's curve and AP computed by :mod:`prtheory.sklearn`."""
        with _bound(_module(_SkPrecisionRecallDisplay), cls._NAMES):
            return super().from_cv_results(*args, **kwargs)


class RocCurveDisplay(_SkRocCurveDisplay):
    """scikit-learn's ``RocCurveDisplay`` whose curve and AUC are
    :func:`prtheory.sklearn.roc_curve` and :func:`prtheory.sklearn.auc` (module docstring).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from prtheory.sklearn import RocCurveDisplay
    >>> display = RocCurveDisplay.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> display.roc_auc
    0.75
    """

    _NAMES: ClassVar[dict[str, Any]] = {"roc_curve": curves.roc_curve, "auc": scores.auc}

    @classmethod
    def from_predictions(cls, *args: Any, **kwargs: Any) -> Any:
        """scikit-learn's ``RocCurveDisplay.from_predictions`` (same arguments), the curve and
        the AUC computed by :mod:`prtheory.sklearn`."""
        with _bound(_module(_SkRocCurveDisplay), cls._NAMES):
            return super().from_predictions(*args, **kwargs)

    @classmethod
    def from_cv_results(cls, *args: Any, **kwargs: Any) -> Any:
        """scikit-learn's ``RocCurveDisplay.from_cv_results`` (same arguments), each fold's
        curve and AUC computed by :mod:`prtheory.sklearn`."""
        with _bound(_module(_SkRocCurveDisplay), cls._NAMES):
            return super().from_cv_results(*args, **kwargs)
