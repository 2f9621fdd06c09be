"""The code base stays ruff clean (lint rules and formatting from pyproject.toml) and the package
type-checks with mypy (configuration in pyproject.toml)."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PATHS = ["prtheory", "tests", "benchmarks"]


@pytest.mark.parametrize("args", [["check"], ["format", "--check"]], ids=["lint", "format"])
def test_ruff_clean(args):
    ruff = shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (it comes with the 'test' extra)")
    done = subprocess.run([ruff, *args, *PATHS], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


STRICT = ["prtheory/oracle", "prtheory/floats", "prtheory/_input.py", "prtheory/conformance"]


@pytest.mark.parametrize(
    "args",
    [
        [],
        # the modules declared strict in pyproject.toml pass --strict itself (a check of that
        # configuration; its own cache, so that neither run invalidates the other's)
        ["--strict", "--follow-imports=silent", "--cache-dir=.mypy_cache/strict", *STRICT],
    ],
    ids=["package", "strict-modules"],
)
def test_mypy_clean(args):
    """mypy reports no error. Seconds with mypy's cache (``.mypy_cache``); the first run of a
    fresh checkout takes about a minute."""
    pytest.importorskip("mypy", reason="mypy is not installed (it comes with the 'test' extra)")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_tests_import_no_test_module_or_benchmark_script():
    """Shared test code lives in prtheory._testing (or in conftest fixtures): a test file
    imports no other module of tests/ or benchmarks/, and loads no file by path."""
    local = {p.stem for d in ("tests", "benchmarks") for p in (ROOT / d).glob("*.py")}
    problems = []
    for path in sorted((ROOT / "tests").glob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module.split(".")[0]]
            elif isinstance(node, ast.Attribute) and node.attr == "spec_from_file_location":
                names = ["importlib.util.spec_from_file_location"]
            else:
                continue
            problems += [
                f"{path.name}:{node.lineno}: {name}"
                for name in names
                if name in local or "spec_from_file_location" in name
            ]
    assert not problems, "\n".join(problems)
