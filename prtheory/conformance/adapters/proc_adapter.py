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
    A ranking whose positive scores below its negative (``0 1`` scored 0.9, 0.1): the ROC AUC
    is 0 (no pair ordered), but by default ``roc()`` picks the direction that makes the
    positives' median the larger, so ``auc`` gives the reversed ranking's area, 1:

    >>> import numpy as np
    >>> from prtheory.conformance.adapters.proc_adapter import implementations
    >>> from prtheory.conformance.external import close_all
    >>> from prtheory.conformance.metrics import Inputs
    >>> auto, increasing = implementations()
    >>> auto.conventions, increasing.conventions
    (('direction=auto',), ())
    >>> x = Inputs(np.array([0, 1]), np.array([0.9, 0.1]))
    >>> auto.run(x), increasing.run(x)
    (1.0, 0.0)
    >>> close_all()  # the R server
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
