"""The documentation site: it builds with warnings as errors and every public name of every public
module is in its API reference (the docstring examples run in ``tests/test_doctests.py``)."""

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
