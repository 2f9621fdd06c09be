"""What the adapters of R packages share: the R server, the packages' versions, the checks.

Each R package runs in one ``Rscript adapters/r/vectors.R PACKAGE`` server per run
(:class:`~prtheory.conformance.external.Server`), started in ``prepare()``; the vectors reach it
in the exported JSON format. R and the packages come from Debian (``apt-get install r-base-core
r-cran-jsonlite r-cran-rocr r-cran-proc r-cran-mlmetrics r-cran-metrics``, as
``.ci/install-external`` does); where they are missing the adapters are reported as not run.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
from collections.abc import Callable
from typing import Any

from prtheory.conformance.adapters import Implementation, Unsupported, unpaired
from prtheory.conformance.external import SERVER_DIR, Server

__all__ = ["DEBIAN", "RFunction", "implementations", "missing", "package_version"]

SCRIPT = SERVER_DIR / "r" / "vectors.R"
#: the Debian package of each R package
DEBIAN = {
    "ROCR": "r-cran-rocr",
    "pROC": "r-cran-proc",
    "MLmetrics": "r-cran-mlmetrics",
    "Metrics": "r-cran-metrics",
    "jsonlite": "r-cran-jsonlite",
}
#: (server function, implementation name, metric, declared conventions, note)
RFunction = tuple[str, str, str, tuple[str, ...], str]


@functools.cache
def _r_output(expression: str) -> str | None:
    """What ``Rscript -e expression`` prints, or None without R or on an R error."""
    if shutil.which("Rscript") is None:
        return None
    try:
        done = subprocess.run(
            ["Rscript", "--vanilla", "-e", expression],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else None


def package_version(package: str) -> str | None:
    """``"<package version> (R <R version>)"``, or None when R or the package is missing.

    Asks ``Rscript`` (``packageVersion``, ``R.version``) once per package and process; jsonlite,
    which the server needs to read the vectors, must be installed too.

    Parameters
    ----------
    package : str
        An R package's name.

    Returns
    -------
    str or None
        The versions, or None.

    Examples
    --------
    R's versions are ``major.minor.patch`` and the CRAN packages' ``x.y-z`` or ``x.y.z``:

    >>> import re
    >>> from prtheory.conformance.adapters.r_packages import package_version
    >>> found = package_version("ROCR")
    >>> pattern = "[0-9]+[.][0-9]+[-.][0-9]+ [(]R [0-9]+[.][0-9]+[.][0-9]+[)]"
    >>> re.fullmatch(pattern, found) is not None
    True
    >>> package_version("NoSuchPackage") is None
    True
    """
    found = _r_output(
        f'cat(as.character(packageVersion("{package}")), '
        'paste(R.version$major, R.version$minor, sep = "."))'
    )
    if found is None or _r_output('cat(as.character(packageVersion("jsonlite")))') is None:
        return None
    version, r_version = found.split()
    return f"{version} (R {r_version})"


def missing(package: str) -> str:
    """Why the R package cannot run: what to install.

    Parameters
    ----------
    package : str
        An R package of :data:`DEBIAN`.

    Returns
    -------
    str
        The Debian packages to install (or that R itself is missing).

    Examples
    --------
    >>> from prtheory.conformance.adapters.r_packages import missing
    >>> print(missing("pROC"))
    the R package pROC or jsonlite is not installed (apt-get install r-cran-proc r-cran-jsonlite, or bash .ci/install-external)
    """
    if shutil.which("Rscript") is None:
        return "R is not installed (apt-get install r-base-core, or bash .ci/install-external)"
    return (
        f"the R package {package} or jsonlite is not installed (apt-get install "
        f"{DEBIAN[package]} r-cran-jsonlite, or bash .ci/install-external)"
    )


#: metrics whose R functions take id lists the server builds from the labels and scores
#: (``Metrics::apk``), where labels and scores of different lengths cannot be written
ID_METRICS = ("ap_at_k", "precision_at_k")


def _run(server: Server, fn: str, metric: str) -> Callable[[Any], Any]:
    """An implementation's ``run``: weighted inputs are unsupported (no R function here takes
    weights), as are unpaired ones for a function of id lists (:data:`ID_METRICS`); the rest
    go to the server."""

    def run(x: Any) -> Any:
        if x.sample_weight is not None:
            return Unsupported("the R function takes no sample weights")
        if metric in ID_METRICS and (reason := unpaired(x, "id lists")) is not None:
            return reason
        return server.call(fn, x)

    return run


def implementations(library: str, package: str, table: list[RFunction]) -> list[Implementation]:
    """The implementations of one R package, all served by one R process started once.

    Parameters
    ----------
    library : str
        The name shown in reports.
    package : str
        The R package the server loads (``Rscript adapters/r/vectors.R PACKAGE``).
    table : list of RFunction
        (server function, implementation name, metric, declared conventions, note) of each
        implementation.

    Returns
    -------
    list of Implementation
        One per row of ``table``; weighted inputs are ``Unsupported``.

    Raises
    ------
    RuntimeError
        R, jsonlite or ``package`` is missing (the message is :func:`missing`'s).

    Examples
    --------
    ROCR's ``"auc"`` as the server serves it: ``1 0 1`` scored 0.9, 0.8, 0.7 orders one of
    the two (positive, negative) pairs, 1/2.

    >>> import numpy as np
    >>> from prtheory.conformance.adapters.r_packages import implementations
    >>> from prtheory.conformance.external import close_all
    >>> from prtheory.conformance.metrics import Inputs
    >>> [auc] = implementations("ROCR (R)", "ROCR", [("auc", "AUC", "roc_auc", (), "")])
    >>> auc.library, auc.name, auc.metric
    ('ROCR (R)', 'AUC', 'roc_auc')
    >>> auc.run(Inputs(np.array([1, 0, 1]), np.array([0.9, 0.8, 0.7])))
    0.5
    >>> close_all()  # the R server
    """
    if package_version(package) is None:
        raise RuntimeError(missing(package))
    server = Server(["Rscript", "--vanilla", str(SCRIPT), package], library, binary=True)
    return [
        Implementation(
            library, name, metric, _run(server, fn, metric), claims, note=note, prepare=server.start
        )
        for fn, name, metric, claims, note in table
    ]
