"""The documentation site: it reads and resolves with warnings as errors, every public name of
every public module is in its API reference, and (heavy tier) it builds as HTML with warnings as
errors (the docstring examples run in ``tests/test_doctests.py``)."""

from __future__ import annotations

import importlib
import inspect
import os
import subprocess
import sys
from pathlib import Path

import pytest

from prtheory._testing.modules import public_modules

ROOT = Path(__file__).resolve().parents[1]


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


def _sphinx(builder: str, out: Path) -> Path:
    """Build the site with ``builder`` into ``out`` (its doctrees in ``out/.doctrees``), warnings
    as errors; the build must succeed."""
    env = {**os.environ, "KERAS_BACKEND": os.environ.get("KERAS_BACKEND", "torch")}
    run = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", builder,
         "-d", str(out / ".doctrees"), str(ROOT / "docs"), str(out)],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    assert run.returncode == 0, f"sphinx-build -W -b {builder} failed:\n{run.stderr[-6000:]}"
    return out


@pytest.fixture(scope="module")
def read(tmp_path_factory) -> Path:
    """The site read and cross-referenced, nothing written (Sphinx's ``dummy`` builder): every
    page parsed, every docstring imported by autodoc and autosummary, every reference resolved,
    with warnings as errors. The HTML pages (the theme's part) are built in the heavy tier."""
    return _sphinx("dummy", tmp_path_factory.mktemp("read"))


def test_the_site_reads_and_resolves_without_warnings(read):
    import pickle

    with open(read / ".doctrees" / "environment.pickle", "rb") as f:
        env = pickle.load(f)
    for page in ("index", "maintainers", "practitioners", "researchers"):
        assert page in env.all_docs, page
    assert "_generated/conventions" in env.all_docs
    assert "_generated/proofs/B1" in env.all_docs


@pytest.mark.heavy
def test_the_site_builds_as_html_without_warnings(tmp_path):
    site = _sphinx("html", tmp_path)
    for page in ("index.html", "maintainers.html", "practitioners.html", "researchers.html"):
        assert (site / page).is_file(), page
    assert (site / "_generated" / "conventions.html").is_file()
    assert (site / "_generated" / "proofs" / "B1.html").is_file()
    from sphinx.util.inventory import InventoryFile

    with open(site / "objects.inv", "rb") as f:
        inventory = InventoryFile.load(f, "", os.path.join)
    assert "prtheory.oracle.ap.average_precision" in inventory["py:function"]


def test_every_public_name_is_in_the_api_reference(read):
    """Every public module and every public function and class of each has an entry in the
    Python domain of the site (what the HTML build writes to ``objects.inv``)."""
    import pickle

    with open(read / ".doctrees" / "environment.pickle", "rb") as f:
        python = pickle.load(f).domaindata["py"]
    documented = set(python["objects"]) | set(python["modules"])
    # the inventory really lists the API (a check that cannot pass on an empty reference)
    assert "prtheory.oracle.ap.average_precision" in documented
    missing = []
    for module in public_modules():
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
