"""Weka: ``ThresholdCurve.getPRCArea`` ("PRC Area") and ``getROCArea`` ("ROC Area").

Weka's ``Evaluation`` prints these two areas for every class; both come from
``ThresholdCurve.getCurve`` (``weka/classifiers/evaluation/ThresholdCurve.java``): the
predictions sorted by the positive class's probability, one curve point per distinct value
(ties grouped), plus the point with nothing predicted positive. ``getPRCArea`` sums
``precision_i * (recall_i - recall_{i+1})`` over the points from the lowest recall up: the step
area, average precision with ties grouped (it returns NaN, Weka's missing value, where the sum is
0). ``getROCArea`` is the Mann-Whitney statistic over the same points (ties count one half).

The server (``adapters/java/WekaVectors.java``) runs once per run as
``java [JVM_OPTIONS] -cp weka.jar WekaVectors.java``; each item becomes a ``NominalPrediction`` with the
distribution ``{1 - score, score}`` and its weight. ``getPRCArea`` appeared in Weka 3.7;
Debian's ``weka`` package (3.6.14) predates it, so the jar is Weka 3.9.3's, from the PyPI
source distribution of ``python-weka-wrapper`` 0.3.18 (``bash .ci/install-external`` puts it in
``~/.cache/prtheory/weka.jar``; ``PRTHEORY_WEKA_JAR`` names another).
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from prtheory.conformance.adapters import Implementation, unpaired
from prtheory.conformance.external import SERVER_DIR, Server

LIBRARY = "Weka"
DISTRIBUTION = "weka.jar"
MODULE = "weka"
SHIMS: tuple[str, ...] = ()

SOURCE = SERVER_DIR / "java" / "WekaVectors.java"
#: The JVM's reservations bounded, so that they fit the kit's address-space cap (the worker's
#: size at its start plus ``memory_mb``, :mod:`prtheory.conformance.isolated`) with room for
#: its threads: by default it reserves a quarter of the machine's memory for the heap and
#: 1 GiB of class space, so under the cap ``pthread_create`` failed (EAGAIN) on one run and
#: not on another (the million-item vectors need about 300 MB of heap). And the JVM's own
#: warnings on standard error: by default its unified logging writes them to standard output
#: (``-Xlog`` default ``all=warning:stdout``), where the server's answers go.
JVM_OPTIONS = (
    "-Xmx1g",
    "-XX:+UseSerialGC",
    "-XX:ReservedCodeCacheSize=64m",
    "-XX:CompressedClassSpaceSize=128m",
    "-Xlog:all=warning:stderr",
    "-XX:+DisplayVMOutputToStderr",
)


def jar() -> Path | None:
    """The Weka jar: ``$PRTHEORY_WEKA_JAR``, else ``~/.cache/prtheory/weka.jar``
    (``$XDG_CACHE_HOME`` honoured), else None.

    Returns
    -------
    Path or None
        The first of those that is a file.

    Examples
    --------
    >>> import os
    >>> import tempfile
    >>> from pathlib import Path
    >>> from unittest import mock
    >>> from prtheory.conformance.adapters.weka_adapter import jar
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     named = Path(folder) / "my-weka.jar"
    ...     _ = named.write_bytes(b"")
    ...     with mock.patch.dict(os.environ, {"PRTHEORY_WEKA_JAR": str(named)}):
    ...         print(jar() == named)
    ...     with mock.patch.dict(os.environ, {"PRTHEORY_WEKA_JAR": "", "XDG_CACHE_HOME": folder}):
    ...         print(jar())
    True
    None
    """
    named = os.environ.get("PRTHEORY_WEKA_JAR")
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    for candidate in (named, cache / "prtheory" / "weka.jar"):
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    return None


@functools.cache
def _java_version() -> str | None:
    """The running Java's version (``java -version``), or None without a Java 11+ JDK (the
    server's source file is compiled at start, which needs the JDK's compiler)."""
    if shutil.which("java") is None or shutil.which("javac") is None:
        return None
    try:
        done = subprocess.run(
            ["java", "-version"], capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    found = re.search(r'version "(\d+)[^"]*"', done.stderr)
    return found.group(0).split('"')[1] if found and int(found.group(1)) >= 11 else None


def _weka_version(path: Path) -> str | None:
    """Weka's version from the jar's ``weka/core/version.txt`` (``3-9-3`` -> ``3.9.3``)."""
    try:
        with zipfile.ZipFile(path) as z:
            return z.read("weka/core/version.txt").decode().strip().replace("-", ".")
    except (OSError, KeyError, zipfile.BadZipFile):
        return None


def version() -> str | None:
    """``"<Weka version> (Java <version>)"``, or None without Java 11+ or a Weka 3.7+ jar.

    Weka's version is the jar's ``weka/core/version.txt`` (``3-9-3`` read as ``3.9.3``).

    Returns
    -------
    str or None
        The versions, or None.

    Examples
    --------
    A jar of Weka 3.6 (before ``getPRCArea``) does not count:

    >>> import os
    >>> import tempfile
    >>> import zipfile
    >>> from pathlib import Path
    >>> from unittest import mock
    >>> from prtheory.conformance.adapters.weka_adapter import jar, version
    >>> with zipfile.ZipFile(jar()) as z:
    ...     weka = z.read("weka/core/version.txt").decode().strip().replace("-", ".")
    >>> version().startswith(f"{weka} (Java ")
    True
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     old = Path(folder) / "weka-3.6.jar"
    ...     with zipfile.ZipFile(old, "w") as z:
    ...         z.writestr("weka/core/version.txt", "3-6-14")
    ...     with mock.patch.dict(os.environ, {"PRTHEORY_WEKA_JAR": str(old)}):
    ...         print(version())
    None
    """
    path, java = jar(), _java_version()
    if path is None or java is None:
        return None
    weka = _weka_version(path)
    if weka is None or tuple(int(p) for p in weka.split(".")[:2]) < (3, 7):
        return None
    return f"{weka} (Java {java})"


def missing() -> str:
    """Why Weka cannot run: what to install.

    Returns
    -------
    str
        The JDK to install, or where to put a Weka 3.7+ jar.

    Examples
    --------
    With a JDK on this machine, what is missing is the jar:

    >>> from prtheory.conformance.adapters.weka_adapter import missing
    >>> print(missing())
    no Weka 3.7+ jar (bash .ci/install-external puts Weka 3.9.3's in ~/.cache/prtheory/weka.jar; PRTHEORY_WEKA_JAR names another)
    """
    if _java_version() is None:
        return "no Java 11+ JDK (apt-get install default-jdk-headless)"
    return (
        "no Weka 3.7+ jar (bash .ci/install-external puts Weka 3.9.3's in "
        "~/.cache/prtheory/weka.jar; PRTHEORY_WEKA_JAR names another)"
    )


def implementations() -> list[Implementation]:
    """Weka's implementations of the vectors' metrics; imports the library.

    The implementations share one Java server, started by the first call (or ``prepare``);
    :func:`~prtheory.conformance.external.close_all` ends it.

    Returns
    -------
    list of Implementation
        One per function or call pattern (the module docstring lists them).

    Raises
    ------
    RuntimeError
        No Java 11+ JDK or no Weka 3.7+ jar (the message is :func:`missing`'s).

    Examples
    --------
    ``1 0 0 1`` scored 0.9, 0.8, 0.7, 0.6: the PRC area steps through recall 1/2 at precision 1
    and recall 1 at precision 2/4, 1/2 + 1/2 * 1/2 = 3/4 (AP); the ROC area orders 2 of the 4
    (positive, negative) pairs, 1/2. Weighted 2, 6, 6, 2: precision 1 over recall 2/4, then
    4/16 over the rest, 1/2 + 1/2 * 1/4 = 5/8; the ROC area orders 2 * 12 of the 4 * 12 weighted
    pairs, 1/2. Every term is dyadic, so the float64 sums are exact.

    >>> import numpy as np
    >>> from prtheory.conformance.adapters.weka_adapter import implementations
    >>> from prtheory.conformance.external import close_all
    >>> from prtheory.conformance.metrics import Inputs
    >>> prc, roc = implementations()
    >>> prc.name, prc.metric, roc.name, roc.metric
    ('ThresholdCurve.getPRCArea', 'average_precision', 'ThresholdCurve.getROCArea', 'roc_auc')
    >>> y, s = np.array([1, 0, 0, 1]), np.array([0.9, 0.8, 0.7, 0.6])
    >>> prc.run(Inputs(y, s)), roc.run(Inputs(y, s))
    (0.75, 0.5)
    >>> w = np.array([2.0, 6.0, 6.0, 2.0])
    >>> prc.run(Inputs(y, s, w)), roc.run(Inputs(y, s, w))
    (0.625, 0.5)
    >>> close_all()  # the Java server
    """
    path = jar()
    if path is None or version() is None:
        raise RuntimeError(missing())
    server = Server(["java", *JVM_OPTIONS, "-cp", str(path), str(SOURCE)], LIBRARY)
    table = [
        ("prc_area", "ThresholdCurve.getPRCArea", "average_precision"),
        ("roc_area", "ThresholdCurve.getROCArea", "roc_auc"),
    ]
    return [
        Implementation(LIBRARY, name, metric, _run(server, fn), prepare=server.start)
        for fn, name, metric in table
    ]


def _run(server: Server, fn: str) -> Callable[[Any], Any]:
    """An implementation's ``run``: the server's value of ``fn`` (Weka takes one
    ``NominalPrediction`` per item, so labels and scores of different lengths cannot reach
    it)."""

    def run(x: Any) -> Any:
        if (reason := unpaired(x, "Weka's NominalPrediction items")) is not None:
            return reason
        return server.call(fn, x)

    return run
