"""The conformance kit stays made of small functions and public interfaces between its modules:
no function (method or nested function included) in ``prtheory/conformance/`` is longer than
:data:`MAX_LINES` lines, and no module of the kit imports another module's private name (shared
helpers are public where they live)."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

from prtheory._testing.layering import PACKAGE, Import, imports

KIT = "prtheory.conformance"
MAX_LINES = 80


def _too_long(root: Path) -> list[str]:
    """``path:line name (n lines)`` of every function under ``root`` over :data:`MAX_LINES`."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno:
                n = node.end_lineno - node.lineno + 1
                if n > MAX_LINES:
                    found.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({n} lines)")
    return found


def _private_crossings(found: Iterable[Import]) -> list[str]:
    """Imports between two modules of the kit that take a private name (or a private module)."""

    def private(name: str) -> bool:
        return name.startswith("_") and not name.endswith("__")

    return [
        f"{imp.importer}:{imp.line} imports {imp.target}.{imp.name}"
        for imp in found
        if imp.importer.startswith(KIT)
        and imp.target.startswith(KIT)
        and (private(imp.name) or any(private(p) for p in imp.target.split(".")))
    ]


def test_no_function_of_the_kit_is_over_80_lines():
    too_long = _too_long(PACKAGE / "conformance")
    assert not too_long, f"functions over {MAX_LINES} lines: {too_long}"


def test_the_kit_imports_no_private_name_across_its_modules():
    crossings = _private_crossings(imports())
    assert not crossings, crossings


def _package(root: Path, files: dict[str, str]) -> Path:
    """A package ``prtheory.conformance`` under ``root`` with the given modules."""
    pkg = root / "prtheory" / "conformance"
    pkg.mkdir(parents=True)
    for init in (root / "prtheory", pkg):
        (init / "__init__.py").write_text("")
    for name, text in files.items():
        (pkg / name).write_text(text)
    return root / "prtheory"


def test_the_checks_fail_on_a_long_function_and_a_private_import(tmp_path: Path):
    # f: its def line, 79 assignments and a nested g of 2 lines (82); h: 1 + 78 + 1 = 80 lines
    long_f = "def f():\n" + "    x = 1\n" * 79 + "    def g():\n        return x\n"
    short = "def h():\n" + "    x = 1\n" * 78 + "    return x\n"
    root = _package(
        tmp_path,
        {
            "a.py": long_f + short + "def _helper():\n    return 1\n",
            "b.py": "from prtheory.conformance.a import _helper, h\n",
        },
    )
    assert _too_long(root) == ["conformance/a.py:1 f (82 lines)"]
    assert _private_crossings(imports(root)) == [
        "prtheory.conformance.b:1 imports prtheory.conformance.a._helper"
    ]
