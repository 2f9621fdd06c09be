"""Adapters: one module per library, each wrapping the library's functions as implementations
of the vectors' metrics.

An adapter module defines ``LIBRARY`` (the name shown in reports), ``DISTRIBUTION`` (its PyPI
name, for the version), ``MODULE`` (what to import), ``SHIMS`` (compatibility patches it applies,
each stated in the report) and ``implementations()``, which imports the library and returns
:class:`Implementation` objects. It may define ``missing()``, returning why the library cannot
run although it is installed (Spark MLlib without Java), or None. A library that is not installed is skipped with a reason; one
that fails to import is reported as such.

Every implementation declares the conventions it *claims* (from the library's documentation);
the runner reports whether results agree with those claims or with another named convention.

Time and start-up (:mod:`prtheory.conformance.isolated`). Each vector is limited in CPU time
(user + system) of the library's worker process *and its descendants*, so an adapter that runs
the library in a subprocess (``Rscript``, ``java``, a JVM behind py4j) is charged for what that
subprocess spends, and a loaded machine does not change its verdicts. Processes left behind
(orphans) count too, as the worker adopts them; the children of a process that ignores
``SIGCHLD`` count only while they run, so an adapter must not start one (the Spark adapter
replaces pyspark's worker daemon for that; :mod:`prtheory.conformance.cputime`). A library's
start-up is charged to no vector: the import, each implementation's ``prepare`` (once, before the first
vector: start a long-lived subprocess or JVM there, or evaluate every stored vector in one
batch) and one warm-up call of ``run`` on the smallest valid vector of its metric. An adapter
that keeps a subprocess alive between calls should start it in ``prepare`` (or lazily, which
then falls in the warm-up call) and reuse it; one that starts a subprocess per call pays that
start on every vector. ``run`` must also accept inputs that are not stored vectors: each
implementation of a metric with generated inputs (:mod:`prtheory.conformance.differential`) is
called on inputs of 10 to 10^6 items after the vectors. The contract is otherwise unchanged:
``implementations()`` returning :class:`Implementation` objects, ``Unsupported`` for inputs the
API cannot express.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import Any

import numpy as np

__all__ = [
    "ADAPTERS",
    "Implementation",
    "LibraryStatus",
    "implementations",
    "load_adapter",
    "status",
]

ADAPTERS = (
    "sklearn",
    "torchmetrics",
    "torcheval",
    "pyprg",
    "precision_recall_gain",
    "sklearn_prg",
    "pytrec_eval",
    "ranx",
    "keras",
    "spark",
    "xgboost",
    "lightgbm",
    "catboost",
    "pycm",
    "river",
    "rocr",
    "proc",
    "mlmetrics",
    "rmetrics",
    "weka",
)


@dataclass(frozen=True)
class Implementation:
    """One library function (or calling pattern) computing one metric.

    ``run(inputs)`` returns a float, or for curves a dict of float arrays keyed like the vectors'
    expected values (``recall``/``precision``, ``recall_gain``/``precision_gain``), in decreasing
    threshold order. It returns ``Unsupported(reason)`` for inputs the API cannot express (sample
    weights, ...). ``batches`` > 1 means the input is fed through that many ``update()`` calls.
    ``prepare``, if given, is called once before the first vector, outside the per-vector time
    limit (an adapter that evaluates every stored vector in one batch does it there).
    ``origin`` names the packages an exception must come from to be the library's own answer
    (:func:`implementations` sets it to the adapter's ``MODULE``); an exception raised
    elsewhere, by the adapter's own code, is a fault of the adapter
    (:func:`prtheory.conformance.runner.run_inputs`). It is empty for an implementation that is
    its own library (``--adapter``, :func:`prtheory.conformance.check`).

    Examples
    --------
    scikit-learn's ``average_precision_score``, as the runner calls it: the labels 1, 0, 0, 1 in
    decreasing score order have hits at ranks 1 and 4, so AP = (1/1 + 2/4) / 2 = 3/4 (N2), exact
    in binary:

    >>> import numpy as np
    >>> from prtheory.conformance.adapters import implementations
    >>> from prtheory.conformance.metrics import Inputs
    >>> impl = {i.name: i for i in implementations("sklearn")}["average_precision_score"]
    >>> impl.library, impl.metric, impl.conventions, impl.batches
    ('scikit-learn', 'average_precision', ('undefined=sklearn',), 1)
    >>> impl.run(Inputs(np.array([1, 0, 0, 1]), np.array([0.8, 0.6, 0.4, 0.2])))
    0.75
    """

    library: str
    name: str
    metric: str
    run: Callable[[Any], Any]
    conventions: tuple[str, ...] = ()
    batches: int = 1
    binned: tuple[float, ...] | None = None
    note: str = ""
    prepare: Callable[[], None] | None = None
    origin: tuple[str, ...] = ()


@dataclass(frozen=True)
class Unsupported:
    """An input the library's API cannot express (sample weights, NaN scores where the adapter
    thresholds), counted apart from the results, with the reason."""

    reason: str


@dataclass(frozen=True)
class LibraryStatus:
    """Whether an adapter's library ran: its key, name, distribution and version, why not, and the
    compatibility shims the adapter applied.

    Examples
    --------
    The official PRG code (PyPI ``pyprg``) runs behind one shim, stated in the report:

    >>> from prtheory.conformance.adapters import status
    >>> s = status("pyprg")
    >>> s.key, s.library, s.distribution, s.available, s.reason
    ('pyprg', 'pyprg (official PRG code)', 'pyprg', True, '')
    >>> s.shims[0].startswith("np.alen (removed in NumPy 1.23) restored inside prg.prg only")
    True
    """

    key: str
    library: str
    distribution: str
    version: str | None
    available: bool
    reason: str
    shims: tuple[str, ...] = field(default_factory=tuple)


def load_adapter(key: str) -> ModuleType:
    """The adapter module of ``key`` (``prtheory.conformance.adapters.<key>_adapter``).

    Parameters
    ----------
    key : str
        An entry of :data:`ADAPTERS`.

    Returns
    -------
    module
        The adapter, imported (its library is imported only by ``implementations()``).

    Examples
    --------
    >>> from prtheory.conformance.adapters import load_adapter
    >>> load_adapter("sklearn").LIBRARY
    'scikit-learn'
    """
    return importlib.import_module(f"prtheory.conformance.adapters.{key}_adapter")


def implementations(key: str) -> list[Implementation]:
    """Import the library behind adapter ``key`` and return its implementations.

    Warnings raised while the library imports (torcheval's ``torch.jit.script`` deprecation,
    for example) belong to the library, not to the caller, and are silenced.

    Parameters
    ----------
    key : str
        An entry of :data:`ADAPTERS`.

    Returns
    -------
    list of Implementation
        One per function or calling pattern of the library (the adapter's docstring lists
        them).

    Raises
    ------
    ImportError
        The library is not installed (:func:`status` says so without raising).

    See Also
    --------
    status : whether the library can run, without importing it.

    Examples
    --------
    scikit-learn's, with the metric of the vectors each one computes; the first on the labels
    1, 0, 0, 1 in decreasing score order: AP = (1/1 + 2/4) / 2 = 3/4 (N2):

    >>> import numpy as np
    >>> from prtheory.conformance.adapters import implementations
    >>> from prtheory.conformance.metrics import Inputs
    >>> found = implementations("sklearn")
    >>> [(i.name, i.metric) for i in found][:2]
    [('average_precision_score', 'average_precision'), ('precision_recall_curve', 'pr_curve')]
    >>> found[0].run(Inputs(np.array([1, 0, 0, 1]), np.array([0.8, 0.6, 0.4, 0.2])))
    0.75
    """
    mod = load_adapter(key)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found: list[Implementation] = mod.implementations()
    return [replace(impl, origin=(mod.MODULE,)) for impl in found]


def status(key: str) -> LibraryStatus:
    """Is the library installed and importable? Never raises.

    An adapter of a library outside Python (an R package, Weka) defines ``version()``, which
    finds the library itself and returns its version, or None where it is missing (``missing()``
    then says why).

    Parameters
    ----------
    key : str
        An entry of :data:`ADAPTERS`.

    Returns
    -------
    LibraryStatus
        Available, or not with the reason (``"not installed"``, or the adapter's ``missing()``);
        the library itself is not imported.

    Examples
    --------
    >>> from prtheory.conformance.adapters import status
    >>> s = status("sklearn")
    >>> s.library, s.distribution, s.available, s.shims
    ('scikit-learn', 'scikit-learn', True, ())
    >>> s.version is not None
    True
    """
    mod = load_adapter(key)
    if hasattr(mod, "version"):
        return _external_status(key, mod)
    try:
        version = importlib.metadata.version(mod.DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        version = None
    if importlib.util.find_spec(mod.MODULE) is None:
        return LibraryStatus(
            key, mod.LIBRARY, mod.DISTRIBUTION, version, False, "not installed", tuple(mod.SHIMS)
        )
    reason = getattr(mod, "missing", lambda: None)()  # e.g. a runtime the library needs
    if reason:
        return LibraryStatus(key, mod.LIBRARY, mod.DISTRIBUTION, version, False, reason, ())
    return LibraryStatus(key, mod.LIBRARY, mod.DISTRIBUTION, version, True, "", tuple(mod.SHIMS))


def _external_status(key: str, mod: ModuleType) -> LibraryStatus:
    """The status of a library outside Python, from its adapter's ``version()``/``missing()``."""
    version = mod.version()
    if version is None:
        return LibraryStatus(key, mod.LIBRARY, mod.DISTRIBUTION, None, False, mod.missing(), ())
    return LibraryStatus(key, mod.LIBRARY, mod.DISTRIBUTION, version, True, "", tuple(mod.SHIMS))


# ------------------------------------------------------------------------------------------
# helpers shared by the adapters


def installed_distribution(*names: str) -> str:
    """The first of ``names`` (PyPI distributions of one module) that is installed; the first
    when none is (the library is then reported as not installed)."""
    for name in names:
        try:
            importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        return name
    return names[0]


class LibraryRejection(ValueError):
    """A library's own exception for input it checks and refuses (CatBoost's ``CatBoostError``,
    LightGBM's ``LightGBMError``, pycm's ``pycmCurveError``), passed on as a ``ValueError``:
    a deliberate rejection, which the classifier tells apart from a crash."""


def rejections_as_value_error(
    fn: Callable[[Any], Any], kinds: tuple[type[BaseException], ...]
) -> Callable[[Any], Any]:
    """Wrap ``fn`` so that the exception classes ``kinds`` (the library's input checks) are
    raised as :class:`LibraryRejection` with the same message; every other exception passes
    unchanged."""

    def run(x: Any) -> Any:
        try:
            return fn(x)
        except kinds as exc:
            raise LibraryRejection(f"{type(exc).__name__}: {exc}") from exc

    return run


def reversed_curve(precision: Any, recall: Any) -> dict[str, np.ndarray]:
    """A curve returned in increasing-threshold order, turned to decreasing-threshold order."""
    return {
        "recall": np.asarray(recall, dtype=np.float64)[::-1].copy(),
        "precision": np.asarray(precision, dtype=np.float64)[::-1].copy(),
    }


def scores_as_passed(x: Any) -> np.ndarray:
    """The scores in the dtype the vector says users pass (``params["dtype"]``: float32,
    float16 or int64; float64 by default). The vector's values are exact in that dtype."""
    return np.asarray(x.y_score, dtype=np.float64).astype(x.params.get("dtype", "float64"))


def labels_int(y: np.ndarray) -> np.ndarray:
    """Labels as int64 (malformed values such as 2 or -1 kept, to see what the library does);
    boolean labels stay boolean, as users pass them."""
    y = np.asarray(y)
    return y if y.dtype == np.bool_ else y.astype(np.int64)


def unpaired(x: Any, api: str) -> Unsupported | None:
    """``Unsupported`` where the labels, scores (and weights) of ``x`` differ in length, for an
    ``api`` that takes items (label, score[, weight]) one at a time, rows of a table or lists
    of ids: there such an input cannot be written, so no answer of the library exists, and
    the adapter's own pairing would fail (or build some input) in its place.

    Parameters
    ----------
    x : Inputs
        The input.
    api : str
        What the library takes, for the reason.

    Returns
    -------
    Unsupported or None
        None where the lengths agree.

    Examples
    --------
    >>> import numpy as np
    >>> from prtheory.conformance.adapters import unpaired
    >>> from prtheory.conformance.metrics import Inputs
    >>> unpaired(Inputs(np.array([1, 0, 1]), np.array([0.9, 0.5])), "rows").reason
    'rows cannot hold 3 labels and 2 scores'
    >>> unpaired(Inputs(np.array([1, 0]), np.array([0.9, 0.5])), "rows") is None
    True
    """
    lengths = [len(x.y_true), len(x.y_score)]
    if x.sample_weight is not None:
        lengths.append(len(x.sample_weight))
    if len(set(lengths)) == 1:
        return None
    held = f"{lengths[0]} labels and {lengths[1]} scores"
    if len(lengths) == 3:
        held = f"{lengths[0]} labels, {lengths[1]} scores and {lengths[2]} weights"
    return Unsupported(f"{api} cannot hold {held}")


def no_weights(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """Wrap ``fn`` to report weighted inputs as unsupported (the API has no sample weights)."""

    def run(x: Any) -> Any:
        if x.sample_weight is not None:
            return Unsupported("the API takes no sample weights")
        return fn(x)

    return run
