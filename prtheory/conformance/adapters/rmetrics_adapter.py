"""Metrics (R): ``auc(actual, predicted)``, ``apk(k, actual, predicted)`` and ``mapk(k, actual,
predicted)``.

``auc`` is the Mann-Whitney statistic from ``rank`` (ties get their mean rank). ``apk`` takes the
relevant items' ids and a ranked list of ids; the adapter ranks by decreasing score with ties in
input order (``order(score, decreasing = TRUE, method = "radix")``, a stable sort) and passes the
items with label >= 1 (``params.relevant_at``) as relevant. ``apk`` divides by
``min(length(actual), k)``. ``mapk`` takes lists of such queries and returns the mean of their
``apk`` (``mean(scores)``, Metrics 0.1.4); the adapter passes the vector as a list of one query.
Runs in the R server of :mod:`~prtheory.conformance.adapters.r_packages`.
"""

from __future__ import annotations

import functools

from prtheory.conformance.adapters import Implementation, r_packages

LIBRARY = "Metrics (R)"
DISTRIBUTION = "R:Metrics"
MODULE = "Metrics"
SHIMS: tuple[str, ...] = ()

#: the package's version with R's, or None where either is missing
version = functools.partial(r_packages.package_version, "Metrics")
#: what to install
missing = functools.partial(r_packages.missing, "Metrics")


def implementations() -> list[Implementation]:
    """Metrics (R)'s implementations of the vectors' metrics; imports the library.

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
    ``1 0 0 1`` scored 0.9, 0.8, 0.7, 0.6: ``auc`` orders 2 of the 4 (positive, negative)
    pairs, 1/2. ``apk`` with k = 2 finds one relevant item in the top 2, at rank 1, and divides
    by min(2 relevant, k) = 2: (1/1)/2 = 1/2; with k = 4 the second at rank 4 adds 2/4:
    (1 + 2/4)/2 = 3/4.

    >>> import numpy as np
    >>> from prtheory.conformance.adapters.rmetrics_adapter import implementations
    >>> from prtheory.conformance.external import close_all
    >>> from prtheory.conformance.metrics import Inputs
    >>> auc, apk, mapk = implementations()
    >>> y, s = np.array([1, 0, 0, 1]), np.array([0.9, 0.8, 0.7, 0.6])
    >>> auc.run(Inputs(y, s))
    0.5
    >>> apk.run(Inputs(y, s, params={"k": 2})), apk.run(Inputs(y, s, params={"k": 4}))
    (0.5, 0.75)
    >>> mapk.run(Inputs(y, s, params={"k": 4}))  # the mean over one query
    0.75
    >>> close_all()  # the R server
    """
    return r_packages.implementations(
        LIBRARY,
        "Metrics",
        [
            ("auc", "auc(actual, predicted)", "roc_auc", (), ""),
            (
                "apk",
                "apk(k, relevant ids, ids by decreasing score)",
                "ap_at_k",
                ("ties=input-order",),
                "the ranked list is the adapter's: ties in input order",
            ),
            (
                "mapk",
                "mapk(k, list(relevant ids), list(ids by decreasing score))",
                "ap_at_k",
                ("ties=input-order",),
                "one query; the ranked list is the adapter's: ties in input order",
            ),
        ],
    )
