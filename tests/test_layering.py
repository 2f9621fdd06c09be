"""The package's layering, held to the one table of :mod:`prtheory._testing.layering`: the
imports between units and to third-party packages, read from every module's source, and the
section of docs/development.md made from the table. Each rule has a mutant below."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from prtheory._testing.layering import (
    ALLOWED,
    HOLDS,
    MARKERS,
    REACHED,
    THIRD_PARTY,
    Import,
    cycles,
    imports,
    modules,
    private_crossings,
    reached,
    render,
    section,
    third_party_imports,
    unit,
    violations,
)

ROOT = Path(__file__).resolve().parents[1]


def test_no_private_name_crosses_a_unit():
    found = imports()
    assert private_crossings(found) == []
    # every entry of the list of private modules reached on purpose is still reached
    targets = {r for i in found if unit(i.importer) != unit(i.target) for r in reached(i)}
    assert set(REACHED) <= targets


def test_no_import_cycle():
    assert cycles(imports()) == []


def test_the_three_tables_have_the_same_units():
    assert list(ALLOWED) == list(THIRD_PARTY) == list(HOLDS)


def test_every_unit_imports_only_what_its_row_allows():
    found = imports()
    assert violations(ALLOWED, found, {unit(m) for m in modules()}) == []


def test_every_unit_imports_only_its_third_party_packages():
    found = third_party_imports()
    rows = {u: v for u, v in THIRD_PARTY.items() if v != {"*"}}
    assert {u: found.get(u, set()) for u in rows} == rows
    assert set(found) <= set(THIRD_PARTY)


def test_the_development_page_shows_the_table():
    page = (ROOT / "docs" / "development.md").read_text()
    assert section(page) == render(), "run `python -m prtheory._testing.layering`"


def test_no_other_page_describes_the_layering():
    # the drifted copies said "theory -> oracle -> floats" and "floats needs numpy alone"
    pages = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.md"))]
    development = (ROOT / "docs" / "development.md").read_text()
    outside = development.replace(section(development), "")
    texts = {p.name: p.read_text() for p in pages if p.name != "development.md"}
    texts["development.md outside the generated section"] = outside
    pattern = re.compile(r"imports?\s+flows?\s+downward|needs\s+numpy\s+alone|`\w+`\s+->\s+`", re.I)
    assert pattern.search("**Imports flow downward**: `theory` -> `oracle` -> `floats`")
    assert pattern.search("`floats` needs\nnumpy alone")
    assert {name for name, text in texts.items() if pattern.search(text)} == set()


# ---------------------------------------------------------------------------------------------
# mutants


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "prtheory"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


@pytest.fixture
def mutant(tmp_path):
    return _package(
        tmp_path,
        {
            "__init__.py": "from prtheory.oracle import core\n",
            "errors.py": "",
            "oracle/__init__.py": "",
            "oracle/core.py": "def f():\n    from prtheory.metrics import areas  # upward\n",
            "oracle/sums.py": "from . import core\nfrom .. import errors\nimport sympy\n",
            "metrics/__init__.py": "",
            "metrics/areas.py": "import numpy as np\nfrom prtheory import oracle\n",
            "cli.py": "import importlib\nMODULES = ('prtheory.metrics.areas',)\n",
            "newunit.py": "import prtheory.errors\n",
        },
    )


def test_mutants_are_caught(mutant):
    table = {
        "errors": set(),
        "oracle": {"errors"},
        "metrics": {"oracle", "errors"},  # errors: allowed, never imported
        "prtheory": {"oracle"},
        "cli": {"errors"},  # and not metrics, which it names for importlib
        "late": {"later"},
        "later": set(),
    }
    units = {unit(m) for m in modules(mutant)}
    found = violations(table, imports(mutant), units)
    assert found == [
        "unit 'newunit' has no row in the table",
        "late -> later: 'later' is not below 'late' in the table",
        "prtheory.cli:2 imports prtheory.metrics.areas (cli -> metrics not allowed)",
        "prtheory.oracle.core:2 imports prtheory.metrics.areas (oracle -> metrics not allowed)",
        "metrics -> errors is allowed but nothing imports it",
        "cli -> errors is allowed but nothing imports it",
        "late -> later is allowed but nothing imports it",
    ]
    # the relative imports are read: oracle.sums imports oracle.core (within the unit) and errors
    edges = {(i.importer, i.target) for i in imports(mutant)}
    assert ("prtheory.oracle.sums", "prtheory.errors") in edges
    assert ("prtheory.oracle.sums", "prtheory.oracle.core") in edges
    assert third_party_imports(mutant) == {"oracle": {"sympy"}, "metrics": {"numpy"}}


def test_private_crossings_and_cycles_are_caught(tmp_path):
    root = _package(
        tmp_path,
        {
            "__init__.py": "from prtheory._version import __version__\n",  # a dunder: public
            "_version.py": "__version__ = '0'\n",
            "floats/__init__.py": "",
            "floats/_kernels.py": "run = 1\n",
            "floats/compiled.py": "_state = 1\n",
            "metrics/__init__.py": "",
            "metrics/areas.py": "from prtheory.floats._kernels import run\n"
            "from prtheory.floats.compiled import _state\n",
            "metrics/ap.py": "from prtheory.metrics import curves\n",
            "metrics/curves.py": "from . import ap\n",
        },
    )
    found = imports(root)
    assert private_crossings(found) == [
        "prtheory.metrics.areas:1 reaches the private prtheory.floats._kernels.run of another unit",
        "prtheory.metrics.areas:2 reaches the private prtheory.floats.compiled._state of "
        "another unit",
    ]
    assert cycles(found) == [["prtheory.metrics.ap", "prtheory.metrics.curves"]]
    # an entry of REACHED that names one private name excuses that name only
    listed = Import("prtheory.distributed.terms", "prtheory.oracle.areas", 1, "_dg_discrete")
    other = Import("prtheory.distributed.terms", "prtheory.oracle.areas", 2, "_fixed_log_ratios")
    assert private_crossings([listed, other]) == [
        "prtheory.distributed.terms:2 reaches the private "
        "prtheory.oracle.areas._fixed_log_ratios of another unit"
    ]


def test_a_changed_table_makes_the_page_stale(monkeypatch):
    page = (ROOT / "docs" / "development.md").read_text()
    monkeypatch.setitem(ALLOWED, "oracle", {"_input", "errors", "floats"})
    assert section(page) != render()
    assert render().startswith(MARKERS[0])
