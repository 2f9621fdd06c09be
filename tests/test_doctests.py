"""The docstring examples of every public module run (doctest), each module in an empty
namespace as a reader's session. Apart from the site's build (``tests/test_docs.py``), so that
pytest-xdist can run the two on different workers."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
from pathlib import Path

import pytest

from prtheory._testing.modules import public_modules


def _modules_with_examples() -> list[str]:
    out = []
    for name in public_modules():
        path = importlib.util.find_spec(name).origin
        if path and ">>> " in Path(path).read_text():
            out.append(name)
    return out


#: modules whose examples build a paper's figures or reports (seconds each, 38 s in all on two
#: busy cores) or run Spark jobs on internals (19 s at load 18): their doctests run in the slow
#: tier
SLOW_EXAMPLES = frozenset(
    [f"prtheory.papers.{m}" for m in ("boyd2012", "flach2015", "notes", "figures", "outputs")]
    + ["prtheory.spark.blocks"]
)


#: modules whose examples run a library outside Python, by its adapter key: skipped where the
#: library is missing (R, an R package, a JDK or Weka's jar), as the adapter is then not run
EXTERNAL = {
    "prtheory.conformance.adapters.mlmetrics_adapter": "mlmetrics",
    "prtheory.conformance.adapters.proc_adapter": "proc",
    "prtheory.conformance.adapters.r_packages": "rocr",
    "prtheory.conformance.adapters.rmetrics_adapter": "rmetrics",
    "prtheory.conformance.adapters.rocr_adapter": "rocr",
    "prtheory.conformance.adapters.weka_adapter": "weka",
}
#: modules whose examples run Spark jobs in the tests' session: the heavy tier, with the Spark
#: tests
SPARK = ("prtheory.spark", "prtheory.conformance.adapters.spark_adapter")


@pytest.mark.parametrize(
    "module",
    [
        pytest.param(m, marks=pytest.mark.slow)
        if m in SLOW_EXAMPLES
        else pytest.param(m, marks=pytest.mark.heavy)
        if m.startswith(SPARK)
        else m
        for m in _modules_with_examples()
    ],
)
def test_docstring_examples_run(module, request):
    # each example imports what it uses (an empty namespace, as a reader's session); Spark's
    # examples find the tests' session with getOrCreate() (skipped without Java)
    if module.startswith(SPARK):
        request.getfixturevalue("spark_session")
    if module in EXTERNAL:
        from prtheory.conformance.adapters import status

        found = status(EXTERNAL[module])
        if not found.available:
            pytest.skip(f"{found.library} is not installed: {found.reason}")
    result = doctest.testmod(
        importlib.import_module(module),
        globs={},
        optionflags=doctest.NORMALIZE_WHITESPACE,
        verbose=False,
    )
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed"


def test_slow_examples_name_modules_with_examples():
    assert set(SLOW_EXAMPLES) <= set(_modules_with_examples())


def test_external_examples_name_modules_with_examples_and_known_adapters():
    from prtheory.conformance.adapters import ADAPTERS

    assert set(EXTERNAL) <= set(_modules_with_examples())
    assert set(EXTERNAL.values()) <= set(ADAPTERS)


def test_some_modules_have_examples():
    # the doctest test above is parametrised by what it finds: it must find the main entry points
    found = set(_modules_with_examples())
    for module in (
        "prtheory",
        "prtheory.oracle.ap",
        "prtheory.metrics.areas",
        "prtheory.streaming",
        "prtheory.oracle.closed_forms",
        "prtheory.duckdb.metrics",
        "prtheory.spark.ap",
    ):
        assert module in found, module
