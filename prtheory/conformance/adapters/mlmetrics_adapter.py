"""MLmetrics (R): ``PRAUC(y_pred, y_true)`` and ``AUC(y_pred, y_true)``.

``PRAUC`` takes ROCR's precision/recall curve (``performance(pred, "prec", "rec")``; the cutoff
``Inf`` has precision 0/0 = NaN, which ``na.rm = TRUE`` drops), sorts it by recall and sums
trapezoids (``Area_Under_Curve``): the trapezoid from the first operating point, without a point
at recall 0. ``AUC`` is the Mann-Whitney statistic from ``rank`` (ties get their mean rank).
Runs in the R server of :mod:`~prtheory.conformance.adapters.r_packages`.
"""

from __future__ import annotations

import functools

from prtheory.conformance.adapters import Implementation, r_packages

LIBRARY = "MLmetrics (R)"
DISTRIBUTION = "R:MLmetrics"
MODULE = "MLmetrics"
SHIMS: tuple[str, ...] = ()

#: the package's version with R's, or None where either is missing
version = functools.partial(r_packages.package_version, "MLmetrics")
#: what to install
missing = functools.partial(r_packages.missing, "MLmetrics")


def implementations() -> list[Implementation]:
    """MLmetrics (R)'s implementations of the vectors' metrics; imports the library.

    The implementations share one R server, started by the first call (or ``prepare``);
    :func:`~prtheory.conformance.external.close_all` ends it.

    Returns
    -------
    list of Implementation
        One per function or call pattern (the module docstring lists them).

    Raises
    ------
    RuntimeError
        R, jsonlite or the package is missing (the message says what to install).

    Examples
    --------
    ``1 1 0`` scored 0.9, 0.8, 0.7: ROCR's (recall, precision) points are (1/2, 1), (1, 1),
    (1, 2/3) (the cutoff Inf, 0/0, dropped); ``PRAUC``'s trapezoids from the first point,
    1/2 (1 + 1)/2 + 0 = 1/2, leave out recall 0 to 1/2, where AP is 1. ``AUC`` on
    ``1 0 0 1`` scored 0.9, 0.8, 0.7, 0.6: ranks 4 and 1 for the positives,
    (4 + 1 - 2 * 3/2)/(2 * 2) = 1/2.

    >>> import numpy as np
    >>> from prtheory.conformance.adapters.mlmetrics_adapter import implementations
    >>> from prtheory.conformance.external import close_all
    >>> from prtheory.conformance.metrics import Inputs
    >>> prauc, auc = implementations()
    >>> prauc.run(Inputs(np.array([1, 1, 0]), np.array([0.9, 0.8, 0.7])))
    0.5
    >>> auc.run(Inputs(np.array([1, 0, 0, 1]), np.array([0.9, 0.8, 0.7, 0.6])))
    0.5
    >>> prauc.run(Inputs(np.array([1, 0]), np.array([0.9, 0.1]), np.array([1.0, 2.0])))
    Unsupported(reason='the R function takes no sample weights')
    >>> close_all()  # the R server
    """
    return r_packages.implementations(
        LIBRARY,
        "MLmetrics",
        [
            ("PRAUC", "PRAUC(y_pred, y_true)", "auc_trapezoid", (), ""),
            ("AUC", "AUC(y_pred, y_true)", "roc_auc", (), ""),
        ],
    )
