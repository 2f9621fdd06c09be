"""scikit-learn's own ranking tests, run with :mod:`prtheory.sklearn`'s functions in its place.

The test modules ship inside the scikit-learn wheel (``sklearn/metrics/tests/``). They import
the metrics from ``sklearn.metrics`` when pytest collects them; this module is a pytest plugin
(``-p prtheory._testing.sklearn_suite``) that puts :mod:`prtheory.sklearn`'s functions into
``sklearn.metrics`` first (in ``pytest_configure``, before collection), each wrapped so that the
plugin records which tests called one. scikit-learn's own internals keep their own functions:
only the names the test modules import are replaced.

:func:`run` runs the modules in a separate pytest process (scikit-learn's test configuration,
not this project's strict one, and its ``conftest.py`` fixtures) and returns, for every test, its
outcome and whether it called a replaced function. ``tests/test_sklearn_suite.py`` holds the
result to the documented list of deliberate differences (:data:`DELIBERATE`).
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any


def _replaced() -> tuple[str, ...]:
    """The scikit-learn names replaced: every public name of :mod:`prtheory.sklearn`."""
    from prtheory import sklearn as ours

    return tuple(ours.__all__)


#: scikit-learn's test modules run with the replacement.
MODULES = (
    "sklearn.metrics.tests.test_ranking",
    "sklearn.metrics.tests.test_common",
    "sklearn.metrics._plot.tests.test_precision_recall_display",
    "sklearn.metrics._plot.tests.test_roc_curve_display",
)

#: Tests that call a replaced function and fail on purpose, with the reason (each is a
#: documented difference of :mod:`prtheory.sklearn`; ``docs/guide/sklearn.md`` lists them).
DELIBERATE: dict[str, str] = {}

_ENV = "PRTHEORY_SKLEARN_SUITE_OUT"
#: Names a replaced function to put a wrong version in its place (a mutant the tests of this
#: harness require scikit-learn's tests to catch).
MUTANT_ENV = "PRTHEORY_SKLEARN_SUITE_MUTANT"
_calls: dict[str, int] = {}
_current: list[str] = []
_outcomes: dict[str, str] = {}
_names: dict[str, str] = {}


def _recording(fn: Any) -> Any:
    """``fn`` wrapped so that a call is recorded against the running test."""

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        if _current:
            _calls[_current[0]] = _calls.get(_current[0], 0) + 1
        return fn(*args, **kwargs)

    return call


def _recording_class(cls: type) -> type:
    """A subclass of ``cls`` whose construction is recorded against the running test."""

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if _current:
            _calls[_current[0]] = _calls.get(_current[0], 0) + 1
        cls.__init__(self, *args, **kwargs)  # type: ignore[misc]  # cls is a class here

    return type(cls.__name__, (cls,), {"__init__": __init__, "__module__": cls.__module__})


def _mutants() -> dict[str, Any]:
    """Wrong versions of replaced functions, by name."""
    from prtheory import sklearn as ours
    from prtheory.metrics.areas import pr_auc

    def average_precision_score(y_true: Any, y_score: Any, **kwargs: Any) -> Any:
        """The trapezoid under the PR curve where a binary target's AP was asked for."""
        right = ours.average_precision_score(y_true, y_score, **kwargs)
        try:
            return pr_auc(
                y_true,
                y_score,
                method="trapezoid",
                pos_label=kwargs.get("pos_label", 1),
                sample_weight=kwargs.get("sample_weight"),
            )
        except ValueError:
            return right

    return {"average_precision_score": average_precision_score}


def pytest_configure(config: Any) -> None:
    import sklearn.metrics

    from prtheory import sklearn as ours

    mutant = os.environ.get(MUTANT_ENV)
    for name in _replaced():
        fn = _mutants()[name] if name == mutant else getattr(ours, name)
        wrapped = _recording_class(fn) if isinstance(fn, type) else _recording(fn)
        setattr(sklearn.metrics, name, wrapped)


def _key(item: Any) -> str:
    """``module::test[params]``: the test's id, independent of the directory pytest ran in."""
    return f"{item.module.__name__}::{item.nodeid.split('::', 1)[1]}"


def pytest_itemcollected(item: Any) -> None:
    _names[item.nodeid] = _key(item)


def pytest_runtest_setup(item: Any) -> None:
    _current[:] = [_names[item.nodeid]]


def pytest_runtest_teardown(item: Any) -> None:
    _current[:] = []


def pytest_runtest_logreport(report: Any) -> None:
    if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
        _outcomes[_names.get(report.nodeid, report.nodeid)] = report.outcome


def pytest_sessionfinish(session: Any) -> None:
    out = os.environ.get(_ENV)
    if out:
        results = {k: {"outcome": v, "calls": _calls.get(k, 0)} for k, v in _outcomes.items()}
        Path(out).write_text(json.dumps(results, indent=1, sort_keys=True))


def run(modules: tuple[str, ...] = MODULES, extra: tuple[str, ...] = ()) -> dict[str, dict]:
    """Run scikit-learn's ``modules`` with the replacement in a separate pytest process;
    ``{test id: {"outcome": "passed" | "failed" | "skipped", "calls": n}}``."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "results.json"
        env = {**os.environ, _ENV: str(out)}
        cmd = [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "prtheory._testing.sklearn_suite",
            "-p",
            "no:cacheprovider",
            "-o",
            "addopts=",
            "--pyargs",
            *modules,
            *extra,
        ]
        subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True, check=False)
        if not out.exists():
            raise RuntimeError("scikit-learn's tests did not run: " + " ".join(cmd))
        results: dict[str, dict] = json.loads(out.read_text())
        return results
