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

    Returns
    -------
    list of Implementation
        One per function or call pattern (the module docstring lists them).
    """
    return r_packages.implementations(
        LIBRARY,
        "MLmetrics",
        [
            ("PRAUC", "PRAUC(y_pred, y_true)", "auc_trapezoid", (), ""),
            ("AUC", "AUC(y_pred, y_true)", "roc_auc", (), ""),
        ],
    )
