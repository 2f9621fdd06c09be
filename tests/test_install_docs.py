"""The install instructions: the extras table is the same in README.md and docs/start.md and
lists exactly pyproject.toml's extras and their packages; install lines work from a checkout
(the package is on no index); the CPU torch command pins the version the extra pins."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parents[1]
PAGES = ("README.md", "docs/start.md")


def _extras_table(page: str) -> dict[str, list[str]]:
    text = (ROOT / page).read_text()
    rows = re.findall(r"^\| `(\w+)` \| ([^|]+) \|", text, flags=re.M)
    return {extra: [p.strip() for p in packages.split(",")] for extra, packages in rows}


def _pyproject_extras() -> dict[str, list[str]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return {
        extra: [re.split(r"[<>=\[ ;]", req, maxsplit=1)[0] for req in reqs]
        for extra, reqs in project["optional-dependencies"].items()
    }


def test_the_extras_tables_are_identical():
    tables = [_extras_table(p) for p in PAGES]
    assert tables[0], "README.md has no extras table"
    assert tables[0] == tables[1]
    lines = [
        [ln for ln in (ROOT / p).read_text().splitlines() if re.match(r"^\| `\w+` \|", ln)]
        for p in PAGES
    ]
    assert lines[0] == lines[1], "the rows must read the same, word for word"


def test_the_extras_table_lists_pyprojects_extras_and_packages():
    table, pyproject = _extras_table("README.md"), _pyproject_extras()
    assert set(table) == set(pyproject)
    for extra, packages in pyproject.items():
        assert table[extra] == packages, extra


def test_no_page_installs_prtheory_from_an_index():
    pages = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.md"))]
    pages += sorted((ROOT / "prtheory").rglob("*.py")) + sorted((ROOT / "tests").rglob("*.py"))
    here = Path(__file__).resolve()
    bad = [
        f"{p.relative_to(ROOT)}: {m.group(0)}"
        for p in pages
        if p != here and "_generated" not in p.parts
        for m in re.finditer(r"pip\s+install\s+[\"']?prtheory\b", p.read_text())
    ]
    assert not bad, bad


def test_the_cpu_torch_command_pins_the_extras_torch():
    pin = next(
        r
        for r in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
            "optional-dependencies"
        ]["conformance"]
        if r.startswith("torch==")
    )
    for page in ("README.md", "docs/maintainers.md"):
        text = (ROOT / page).read_text()
        assert f"pip install {pin} --index-url https://download.pytorch.org/whl/cpu" in text, page
