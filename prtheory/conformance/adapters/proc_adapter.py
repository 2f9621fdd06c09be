"""pROC (R): ``auc(roc(labels, scores))``, as called by default and with the direction fixed.

``roc()`` defaults to ``direction = "auto"``: "the direction is chosen so that the median of the
cases is larger than the median of the controls" (pROC's ``roc`` documentation), so a ranking
whose positives score low gets the area of the reversed ranking. With ``levels = c(0, 1),
direction = "<"`` the controls (label 0) are expected to score lower, the usual ROC AUC. Tied
scores count one half. Runs in the R server of :mod:`~prtheory.conformance.adapters.r_packages`.
"""

from __future__ import annotations

import functools

from prtheory.conformance.adapters import Implementation, r_packages

LIBRARY = "pROC (R)"
DISTRIBUTION = "R:pROC"
MODULE = "pROC"
SHIMS: tuple[str, ...] = ()

#: the package's version with R's, or None where either is missing
version = functools.partial(r_packages.package_version, "pROC")
#: what to install
missing = functools.partial(r_packages.missing, "pROC")


def implementations() -> list[Implementation]:
    """pROC (R)'s implementations of the vectors' metrics; imports the library.

    Returns
    -------
    list of Implementation
        One per function or call pattern (the module docstring lists them).
    """
    return r_packages.implementations(
        LIBRARY,
        "pROC",
        [
            ("auc", "auc(roc(y, s)), default direction", "roc_auc", ("direction=auto",), ""),
            (
                "auc_increasing",
                'auc(roc(y, s, levels = c(0, 1), direction = "<"))',
                "roc_auc",
                (),
                "",
            ),
        ],
    )
