"""The documentation site: it builds with warnings as errors, every public name of every public
module is in its API reference, and the docstring examples run (doctest)."""

from __future__ import annotations

import doctest
import importlib
import inspect
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import prtheory

ROOT = Path(__file__).resolve().parents[1]


def _public_modules() -> list[str]:
    names = ["prtheory"]
    for info in pkgutil.walk_packages(prtheory.__path__, "prtheory."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.append(info.name)
    return names


def _public_names(module_name: str) -> list[str]:
    """``module.name`` for every function and class the module exports (``__all__``), or else
    every public function and class it defines."""
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None)
    if names is None:
        names = [
            n for n, obj in vars(module).items() if getattr(obj, "__module__", None) == module_name
        ]
    return [
        f"{module_name}.{n}"
        for n in names
        if not n.startswith("_")
        and (inspect.isfunction(getattr(module, n)) or inspect.isclass(getattr(module, n)))
    ]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("html")
    env = {**os.environ, "KERAS_BACKEND": os.environ.get("KERAS_BACKEND", "torch")}
    run = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         str(ROOT / "docs"), str(out)],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    assert run.returncode == 0, f"sphinx-build -W failed:\n{run.stderr[-6000:]}"
    return out


def test_the_site_builds_without_warnings(site):
    for page in ("index.html", "maintainers.html", "practitioners.html", "researchers.html"):
        assert (site / page).is_file(), page
    assert (site / "_generated" / "conventions.html").is_file()
    assert (site / "_generated" / "proofs" / "B1.html").is_file()


def test_every_public_name_is_in_the_api_reference(site):
    from sphinx.util.inventory import InventoryFile

    with open(site / "objects.inv", "rb") as f:
        inventory = InventoryFile.load(f, "", os.path.join)
    documented = {name for kind in inventory.values() for name in kind}
    # the inventory really lists the API (a check that cannot pass on an empty reference)
    assert "prtheory.oracle.ap.average_precision" in documented
    missing = []
    for module in _public_modules():
        if module not in documented:
            missing.append(module)
        for name in _public_names(module):
            obj = importlib.import_module(module)
            target = getattr(obj, name.rsplit(".", 1)[1], None)
            if inspect.ismodule(target):
                continue  # a submodule named in __all__ has its own entry
            # a name re-exported from elsewhere is documented where it is defined
            home = getattr(target, "__module__", module) if callable(target) else module
            alias = f"{home}.{getattr(target, '__qualname__', name.rsplit('.', 1)[1])}"
            if name not in documented and alias not in documented:
                missing.append(name)
    assert not missing, f"not in the API reference: {missing}"


def _modules_with_examples() -> list[str]:
    out = []
    for name in _public_modules():
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


@pytest.mark.parametrize(
    "module",
    [
        pytest.param(m, marks=pytest.mark.slow) if m in SLOW_EXAMPLES else m
        for m in _modules_with_examples()
    ],
)
def test_docstring_examples_run(module, request):
    # each example imports what it uses (an empty namespace, as a reader's session); Spark's
    # examples find the tests' session with getOrCreate() (skipped without Java)
    if module.startswith("prtheory.spark"):
        request.getfixturevalue("spark_session")
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
