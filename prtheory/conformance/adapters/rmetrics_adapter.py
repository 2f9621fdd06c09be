"""Metrics (R): ``auc(actual, predicted)`` and ``apk(k, actual, predicted)``.

``auc`` is the Mann-Whitney statistic from ``rank`` (ties get their mean rank). ``apk`` takes the
relevant items' ids and a ranked list of ids; the adapter ranks by decreasing score with ties in
input order (``order(score, decreasing = TRUE, method = "radix")``, a stable sort) and passes the
items with label >= 1 (``params.relevant_at``) as relevant. ``apk`` divides by
``min(length(actual), k)``. Runs in the R server of
:mod:`~prtheory.conformance.adapters.r_packages`.
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

    Returns
    -------
    list of Implementation
        One per function or call pattern (the module docstring lists them).
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
        ],
    )
