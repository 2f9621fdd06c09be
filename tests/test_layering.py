"""The package's layering, held to one table of allowed imports.

Every ``import`` of the package's own modules (module level or inside a function, absolute or
relative) is read from the source with :mod:`ast`. A module belongs to a *unit*: the first name
under ``prtheory`` (``prtheory.metrics.areas`` is in ``metrics``; the package's own
``__init__`` is ``prtheory``). Three rules:

* a unit imports only the units its row of :data:`ALLOWED` names (a new unit needs a row);
* no private name crosses a unit: a module of another unit is reached only through names
  without a leading underscore, except the package-wide internals of :data:`SHARED`;
* no import cycle between modules (a module importing its own parent package is not an edge:
  Python runs the parent's ``__init__`` first in any case).

Each rule has a mutant below that must be caught.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "prtheory"

#: unit -> the units it may import. Lower layers first: the exact oracle knows nothing of the
#: float layer; the float metrics (``metrics``) build on the closed forms (``floats``) and the
#: oracle; the drop-ins and integrations build on the metrics.
ALLOWED: dict[str, set[str]] = {
    "errors": set(),
    "_version": set(),
    "_input": {"errors"},
    "_labels": {"_input", "errors"},
    "data": set(),
    "oracle": {"_input", "errors"},
    "floats": {"_input", "errors", "oracle"},
    "metrics": {"_input", "_labels", "errors", "floats", "oracle"},
    "streaming": {"_input", "errors", "metrics", "oracle"},
    "intervals": {"_input", "errors", "metrics", "oracle"},
    "plots": {"_input", "_labels", "errors", "floats", "metrics", "oracle"},
    "sklearn": {"_input", "_labels", "errors", "metrics", "oracle", "plots"},
    "distributed": {"_input", "errors", "oracle"},
    "spark": {"_input", "distributed", "errors", "metrics", "oracle"},
    "duckdb": {"_input", "distributed", "errors", "metrics", "oracle"},
    "theory": {"data", "oracle"},
    "audit": {"_input", "errors", "oracle"},
    "papers": {"audit", "data", "oracle"},
    "conformance": {"_input", "_version", "errors", "metrics", "oracle", "spark"},
    "_testing": {"conformance", "errors", "floats", "metrics", "oracle", "sklearn", "theory"},
    "cli": {"_version"},
    "__main__": {"cli"},
    "prtheory": {"_version", "errors", "floats", "metrics"},
}

#: Package-wide internals every unit may use: one validation path, one label coercion, the
#: version.
SHARED = {"_input", "_labels", "_version"}


def _modules(root: Path) -> dict[str, Path]:
    mods = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = path
    return mods


def _resolve(name: str, mods: dict[str, Path]) -> str | None:
    """The longest module of the package that ``name`` starts with."""
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name or None


def unit(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "prtheory"


def imports(root: Path = ROOT) -> list[tuple[str, str, str, int]]:
    """``(importer, imported module, imported name or "", line)`` for every import of the
    package's own modules under ``root``."""
    mods = _modules(root)
    found = []
    for module, path in mods.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    target = _resolve(alias.name, mods)
                    if target:
                        found.append((module, target, "", node.lineno))
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package
                    for _ in range(node.level - 1):
                        anchor = anchor.rpartition(".")[0]
                    base = f"{anchor}.{base}" if base else anchor
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    if full in mods:  # a submodule
                        found.append((module, full, "", node.lineno))
                    elif (target := _resolve(base, mods)) is not None:
                        found.append((module, target, alias.name, node.lineno))
    return found


def private_attributes(root: Path = ROOT) -> list[tuple[str, str, int]]:
    """``(importer, "module._name", line)`` wherever a module of another unit, bound by an
    import, is used through a private attribute."""
    mods = _modules(root)
    found = []
    for module, path in mods.items():
        tree = ast.parse(path.read_text(), str(path))
        bound = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    if full in mods and unit(full) != unit(module):
                        bound[alias.asname or alias.name] = full
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in bound
                and _private(node.attr)
            ):
                found.append((module, f"{bound[node.value.id]}.{node.attr}", node.lineno))
    return found


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def layer_violations(found) -> list[str]:
    bad = []
    for importer, target, _, line in found:
        a, b = unit(importer), unit(target)
        if a == b or importer.startswith(target + "."):
            continue
        if a not in ALLOWED:
            bad.append(f"{importer}: unit {a!r} has no row in ALLOWED")
        elif b not in ALLOWED[a]:
            bad.append(f"{importer}:{line} imports {target} ({a} -> {b} is not in ALLOWED)")
    return sorted(set(bad))


def private_violations(found) -> list[str]:
    bad = []
    for importer, target, name, line in found:
        if unit(importer) == unit(target) or importer.startswith(target + "."):
            continue
        parts = target.split(".")[1:]
        hidden = [p for p in parts if _private(p) and p not in SHARED]
        if hidden or (name and _private(name)):
            what = f"{target}.{name}" if name else target
            bad.append(f"{importer}:{line} reaches the private {what} of another unit")
    return sorted(bad)


def cycles(found) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    graph: dict[str, set[str]] = defaultdict(set)
    for importer, target, _, _ in found:
        if target != importer and not importer.startswith(target + "."):
            graph[importer].add(target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return components


def test_every_unit_imports_only_what_its_row_allows():
    found = imports()
    assert {unit(m) for m in _modules(ROOT)} <= set(ALLOWED), "a unit has no row in ALLOWED"
    assert layer_violations(found) == []


def test_no_private_name_crosses_a_unit():
    assert private_violations(imports()) == []
    assert private_attributes() == []


def test_no_import_cycle():
    assert cycles(imports()) == []


# ---------------------------------------------------------------------------------------------
# mutants: each rule must catch a module that breaks it


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
            "__init__.py": "",
            "oracle/__init__.py": "",
            "oracle/core.py": "def f():\n    from prtheory.metrics import areas  # upward\n",
            "metrics/__init__.py": "",
            "metrics/areas.py": "from prtheory.floats._kernels import run\n"
            "from prtheory.floats import compiled\nx = compiled._state\n",
            "metrics/ap.py": "from prtheory.metrics import curves\n",
            "metrics/curves.py": "from . import ap\n",
            "floats/__init__.py": "",
            "floats/_kernels.py": "run = 1\n",
            "floats/compiled.py": "_state = 1\n",
            "newunit/__init__.py": "from prtheory._input import x\n",
            "_input.py": "x = 1\n",
        },
    )


def test_mutants_are_caught(mutant):
    found = imports(mutant)
    layers = layer_violations(found)
    assert any("prtheory.oracle.core:2 imports prtheory.metrics.areas" in v for v in layers)
    assert any("unit 'newunit' has no row" in v for v in layers)
    private = private_violations(found)
    assert private == [
        "prtheory.metrics.areas:1 reaches the private prtheory.floats._kernels.run of another unit"
    ]
    assert private_attributes(mutant) == [
        ("prtheory.metrics.areas", "prtheory.floats.compiled._state", 3)
    ]
    assert cycles(found) == [["prtheory.metrics.ap", "prtheory.metrics.curves"]]
