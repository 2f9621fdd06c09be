"""ROCR (R): ``performance(prediction(scores, labels), "aucpr")`` and ``"auc"``.

ROCR's ``prediction`` groups tied scores into one cutoff (one point per distinct score, plus the
cutoff ``Inf`` with nothing predicted positive). ``"auc"`` is the trapezoid area under that ROC
curve. ``"aucpr"`` (added in ROCR 1.0-10) documents "the area under the precision/recall curve"
and computes it in ``.performance.aucpr`` (``R/performance_measures.R``): it keeps, for each TP,
the point with the least FP (``aggregate(list(fp = fp), by = list(tp = tp), min)``), sets the
precision of (TP, FP) = (0, 0) to 1, inserts Davis-Goadrich points where TP jumps by more than 2,
and sums trapezoids. Runs in the R server of :mod:`~prtheory.conformance.adapters.r_packages`.
"""

from __future__ import annotations

import functools

from prtheory.conformance.adapters import Implementation, r_packages

LIBRARY = "ROCR (R)"
DISTRIBUTION = "R:ROCR"
MODULE = "ROCR"
SHIMS: tuple[str, ...] = ()

#: the package's version with R's, or None where either is missing
version = functools.partial(r_packages.package_version, "ROCR")
#: what to install
missing = functools.partial(r_packages.missing, "ROCR")


def implementations() -> list[Implementation]:
    """ROCR (R)'s implementations of the vectors' metrics; imports the library.

    Returns
    -------
    list of Implementation
        One per function or call pattern (the module docstring lists them).
    """
    return r_packages.implementations(
        LIBRARY,
        "ROCR",
        [
            ("aucpr", 'performance(pred, "aucpr")', "auc_trapezoid", (), ""),
            ("auc", 'performance(pred, "auc")', "roc_auc", (), ""),
        ],
    )
