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
    ``1 0 0 1`` scored 0.9, 0.8, 0.7, 0.6. ROCR's (TP, FP) at the cutoffs Inf, 0.9, 0.8, 0.7,
    0.6 are (0, 0), (1, 0), (1, 1), (1, 2), (2, 2); ``"aucpr"`` keeps the least FP of each TP,
    (0, 0), (1, 0), (2, 2), i.e. (recall, precision) (0, 1) (its rule for 0/0), (1/2, 1),
    (1, 1/2), and sums trapezoids: 1/2 (1 + 1)/2 + 1/2 (1 + 1/2)/2 = 7/8, where AP is
    (1 + 2/4)/2 = 3/4. ``"auc"``: 2 of the 4 (positive, negative) pairs are ordered, 1/2.
    Every term is dyadic, so the float64 sums are exact.

    >>> import numpy as np
    >>> from prtheory.conformance.adapters.rocr_adapter import implementations
    >>> from prtheory.conformance.external import close_all
    >>> from prtheory.conformance.metrics import Inputs
    >>> aucpr, auc = implementations()
    >>> aucpr.name, aucpr.metric, auc.name, auc.metric
    ('performance(pred, "aucpr")', 'auc_trapezoid', 'performance(pred, "auc")', 'roc_auc')
    >>> x = Inputs(np.array([1, 0, 0, 1]), np.array([0.9, 0.8, 0.7, 0.6]))
    >>> aucpr.run(x), auc.run(x)
    (0.875, 0.5)
    >>> close_all()  # the R server
    """
    return r_packages.implementations(
        LIBRARY,
        "ROCR",
        [
            ("aucpr", 'performance(pred, "aucpr")', "auc_trapezoid", (), ""),
            ("auc", 'performance(pred, "auc")', "roc_auc", (), ""),
        ],
    )
