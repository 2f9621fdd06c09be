"""pROC (R): ``auc(roc(labels, scores))``, as called by default and with the direction fixed.

``roc()`` defaults to ``direction = "auto"``: "the direction is chosen so that the median of the
cases is larger than the median of the controls" (pROC's ``roc`` documentation), so a ranking
whose positives score low gets the area of the reversed ranking. With ``levels = c(0, 1),
direction = "<"`` the controls (label 0) are expected to score lower, the usual ROC AUC. Tied
scores count one half. The partial area over FPR in [0, m] is ``auc(roc(..., direction = "<"),
partial.auc = c(1, 1 - m), partial.auc.focus = "specificity", partial.auc.correct = TRUE)``:
specificity from 1 down to 1 - m, McClish's correction (pROC's ``auc`` documentation), which
is ``NA`` below the diagonal unless ``allow.invalid.partial.auc.correct = TRUE`` (both are run).
Runs in the R server of :mod:`~prtheory.conformance.adapters.r_packages`.
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


#: (server function, implementation name, metric, declared conventions, note)
TABLE: list[r_packages.RFunction] = [
    ("auc", "auc(roc(y, s)), default direction", "roc_auc", ("direction=auto",), ""),
    (
        "auc_increasing",
        'auc(roc(y, s, levels = c(0, 1), direction = "<"))',
        "roc_auc",
        (),
        "",
    ),
    (
        "partial_auc",
        'auc(roc(y, s, levels = c(0, 1), direction = "<"), partial.auc = c(1, 1 - m), '
        'partial.auc.focus = "specificity", partial.auc.correct = TRUE)',
        "partial_roc_auc",
        (),
        "",
    ),
    (
        "partial_auc_allow_invalid",
        'auc(roc(y, s, levels = c(0, 1), direction = "<"), partial.auc = c(1, 1 - m), '
        'partial.auc.focus = "specificity", partial.auc.correct = TRUE, '
        "allow.invalid.partial.auc.correct = TRUE)",
        "partial_roc_auc",
        (),
        "",
    ),
]


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
    >>> auto, increasing, partial, partial_below = implementations()
    >>> auto.conventions, increasing.conventions
    (('direction=auto',), ())
    >>> x = Inputs(np.array([0, 1]), np.array([0.9, 0.1]))
    >>> auto.run(x), increasing.run(x)
    (1.0, 0.0)

    ``1 0 1`` scored 0.9, 0.8, 0.7 up to FPR 1/2: the curve is at TPR 1/2 there, so the
    partial area is 1/4 and McClish's correction gives (1 + (1/4 - 1/8)/(1/2 - 1/8))/2 = 2/3:

    >>> y, s = np.array([1, 0, 1]), np.array([0.9, 0.8, 0.7])
    >>> abs(partial.run(Inputs(y, s, params={"max_fpr": 0.5})) - 2 / 3) < 1e-15
    True

    Below the diagonal (``0 1`` scored 0.9, 0.1: the area up to FPR 1/2 is 0, McClish gives
    (1 - (1/8)/(3/8))/2 = 1/3) the default returns ``NA`` with a warning:

    >>> import warnings
    >>> x = Inputs(np.array([0, 1]), np.array([0.9, 0.1]), params={"max_fpr": 0.5})
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     below = partial.run(x)
    >>> bool(np.isnan(below)), abs(partial_below.run(x) - 1 / 3) < 1e-15
    (True, True)
    >>> close_all()  # the R server
    """
    return r_packages.implementations(LIBRARY, "pROC", TABLE)
