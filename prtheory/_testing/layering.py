"""The layering of the package: one table of the imports allowed between its units, the imports
its sources really make, and the prose of ``docs/development.md`` made from the table.

A *unit* is the first name under ``prtheory``: ``prtheory.metrics.areas`` is in ``metrics``,
``prtheory.errors`` is ``errors``, and the package's own ``__init__`` is ``prtheory``.
:data:`ALLOWED` lists the units bottom layer first; each unit may import only the units of its
row, all of them earlier in the table, so imports flow downward and no two units import each
other. :data:`THIRD_PARTY` names the packages outside the standard library each unit may
import (``"*"``: any). :data:`HOLDS` says in one line what each unit holds.

``tests/test_layering.py`` reads every import of every module (:func:`imports`: ``ast``, at
module level or inside a function, absolute or relative, and the module names ``prtheory.cli``
hands to :func:`importlib.import_module`) and fails on an import the table does not allow, on a
row nothing uses, and on a unit without a row. A finer table (the modules of one unit) is
checked by the same functions with another ``unit`` mapping.

``python -m prtheory._testing.layering [ROOT]`` rewrites the section of ``docs/development.md``
between the markers of :data:`MARKERS` from the table (:func:`render`); the test fails when the
committed section differs.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "ALLOWED",
    "HOLDS",
    "MARKERS",
    "PACKAGE",
    "REACHED",
    "SHARED",
    "THIRD_PARTY",
    "Import",
    "cycles",
    "imports",
    "main",
    "modules",
    "private_crossings",
    "reached",
    "render",
    "section",
    "third_party_imports",
    "unit",
    "violations",
]

PACKAGE = Path(__file__).resolve().parents[1]

#: unit -> the units of prtheory it may import; bottom layer first
ALLOWED: dict[str, set[str]] = {
    "_version": set(),
    "errors": set(),
    "_root": set(),
    "data": set(),
    "_input": {"errors"},
    "_labels": {"_input", "errors"},
    "oracle": {"_input", "errors"},
    "floats": {"_input", "errors", "oracle"},
    "metrics": {"_input", "_labels", "errors", "floats", "oracle"},
    "streaming": {"_input", "errors", "metrics", "oracle"},
    "intervals": {"_input", "errors", "oracle"},
    "plots": {"_input", "errors", "floats", "metrics", "oracle"},
    "sklearn": {"metrics"},
    "distributed": {"errors", "oracle"},
    "spark": {"distributed", "errors", "oracle"},
    "duckdb": {"distributed", "errors", "metrics", "oracle"},
    "_tables": {"duckdb"},
    "theory": {"_root", "data", "errors", "oracle"},
    "audit": {"_input", "errors", "oracle"},
    "papers": {"_root", "audit", "data", "oracle", "plots"},
    "conformance": {"_version", "errors", "metrics", "oracle", "spark"},
    "_testing": {"conformance", "errors", "floats", "metrics", "oracle", "sklearn", "theory"},
    "prtheory": {"_tables", "_version", "errors", "floats", "metrics"},
    "cli": {"_version", "audit", "conformance", "papers", "theory"},
    "__main__": {"cli"},
}

#: unit -> the packages outside the standard library it may import ("*": any)
THIRD_PARTY: dict[str, set[str]] = {
    "_version": set(),
    "errors": set(),
    "_root": set(),
    "data": set(),
    "_input": {"numpy", "torch"},
    "_labels": {"numpy"},
    "oracle": {"gmpy2", "mpmath", "numpy"},
    "floats": {"llvmlite", "mpmath", "numba", "numpy"},
    "metrics": {"mpmath", "numpy"},
    "streaming": {"mpmath", "numpy"},
    "intervals": {"mpmath", "numpy"},
    "plots": {"matplotlib", "numpy"},
    "sklearn": {"numpy", "scipy", "sklearn"},
    "distributed": {"mpmath", "numpy", "pyarrow"},
    "spark": {"mpmath", "numpy", "pyarrow", "pyspark"},
    "duckdb": {"duckdb", "mpmath", "numpy", "pyarrow"},
    "_tables": set(),
    "theory": {"mpmath", "sympy"},
    "audit": {"mpmath", "numpy"},
    "papers": {"contourpy", "matplotlib", "mpmath", "numpy"},
    "conformance": {"*"},
    "_testing": {"*"},
    "prtheory": set(),
    "cli": set(),
    "__main__": set(),
}

#: unit -> what it holds, in one line
HOLDS: dict[str, str] = {
    "_version": "the version string",
    "errors": "`InvalidInputError`, `UndefinedMetricError` (both `ValueError`)",
    "_root": "where the writing commands may write (the root of a checkout, or `--root`)",
    "data": "the printed numbers of the source documents (CSV) and the constructed examples",
    "_input": "one validation path for every entry point; messages name the argument",
    "_labels": "labels and scores as users pass them (pandas, polars, torch), coerced",
    "oracle": "exact and mpmath values: counts, ties, AP, retrieval, curves, areas, PRG, "
    "closed forms, rounding, conventions",
    "floats": "float64 closed forms, correctly rounded (compiled kernel, numpy path, oracle)",
    "metrics": "every float64 ranking metric: `prtheory.average_precision`, curves, areas, P@k, "
    "averaging with scikit-learn's signatures, and the float-weight paths with a proved bound "
    "(a compiled double-double pass with numba, a vectorised numpy path without)",
    "streaming": "`PRAccumulator`: exact accumulation of batches, bit-equal to the batch value",
    "intervals": "logit, binomial and bootstrap confidence intervals for AP and AUCPR",
    "plots": "`PRSpaceDisplay`, `PRGDisplay` (extra `plots`)",
    "sklearn": "`prtheory.sklearn`: scikit-learn's ranking metrics with its contract, correctly "
    "rounded (extra `sklearn`)",
    "distributed": "engine-neutral exact metrics from range pieces (integers, rounded once) and "
    "the per-group evaluation, shared by `spark` and `duckdb`",
    "spark": "exact metrics of Spark DataFrames (extra `spark`)",
    "duckdb": "exact metrics of Parquet/CSV files and DuckDB relations bigger than memory "
    "(extra `duckdb`)",
    "_tables": "top-level functions hand a path or a DuckDB relation to `prtheory.duckdb`",
    "theory": "the claims: registry, derivations checked by sympy, runner, rendering; brute force "
    "over rankings from the definitions (the claims' second route, shared with the tests)",
    "audit": "`prtheory audit`: printed numbers under rounding, intervals, method-aware bounds",
    "papers": "the papers' tables and figures, the seed examples",
    "conformance": "vectors, adapters of the libraries, runner, diagnosis, report",
    "_testing": "what the tests and benchmarks share: samplers, references, ulps, digests",
    "prtheory": "the package's top-level names (`prtheory.average_precision`, ...)",
    "cli": "the `prtheory` command (each area registers its sub-commands)",
    "__main__": "`python -m prtheory`",
}

MARKERS = (
    "<!-- layering: generated by `python -m prtheory._testing.layering` -->",
    "<!-- end of layering -->",
)


@dataclass(frozen=True)
class Import:
    """``importer`` (a module) imports ``target`` (a module), at ``line``; ``name`` is the name
    taken from it by ``from target import name`` (``""`` for a module imported whole)."""

    importer: str
    target: str
    line: int
    name: str = ""


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package under ``package``, by dotted name."""
    found = {}
    for path in package.rglob("*.py"):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def unit(module: str) -> str:
    """The first name under ``prtheory`` (``prtheory`` itself for the package's ``__init__``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def _longest(name: str, mods: dict[str, Path]) -> str | None:
    """The longest module of the package that ``name`` starts with."""
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name or None


def _targets(node: ast.AST, package: str, mods: dict[str, Path]) -> list[tuple[str, str]]:
    """``(module, name taken from it or "")`` for each module of the package one node imports."""
    if isinstance(node, ast.Import):
        return [(t, "") for a in node.names if (t := _longest(a.name, mods))]
    if isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            anchor = package
            for _ in range(node.level - 1):
                anchor = anchor.rpartition(".")[0]
            base = f"{anchor}.{base}" if base else anchor
        found = []
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            if sub in mods:
                found.append((sub, ""))
            elif target := _longest(base, mods):
                found.append((target, alias.name))
        return found
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in mods:
        return [(node.value, "")]  # a module named for importlib.import_module
    return []


def imports(package: Path = PACKAGE) -> list[Import]:
    """Every import of one of the package's own modules by another, read from the sources."""
    mods = modules(package)
    found = []
    for module, path in sorted(mods.items()):
        parent = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            for target, name in _targets(node, parent, mods):
                # importing one's own package is no edge: Python runs its __init__ first anyway
                if target != module and not module.startswith(target + "."):
                    found.append(Import(module, target, getattr(node, "lineno", 0), name))
    return found


#: package-wide internals every unit may reach: one validation path, one label coercion, the
#: version, where the writing commands may write
SHARED = frozenset({"_input", "_labels", "_version", "_root"})


#: private modules, or private names of a module, that other units reach on purpose (named
#: under ``prtheory.``), each with its reason (a shrinking list)
REACHED: dict[str, str] = {
    "_tables": "the package's own ``__init__`` routes paths and relations through it",
    "plots._place": "label placement, shared by the displays and the papers' figures",
    "oracle.areas._dg_discrete": "the oracle's Davis-Goadrich sum, which ``distributed`` "
    "reuses segment for segment (to be made public)",
}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def reached(imp: Import) -> tuple[str, str]:
    """What ``imp`` reaches, named under ``prtheory.``: its module, and the module's name it
    takes (the module again for a module imported whole)."""
    module = imp.target.removeprefix("prtheory").removeprefix(".")
    return module, f"{module}.{imp.name}" if imp.name else module


def private_crossings(found: Iterable[Import]) -> list[str]:
    """Imports that reach a private module or name (a leading underscore, not a dunder) of
    another unit, except the package-wide internals of :data:`SHARED` and :data:`REACHED`."""
    bad = []
    for imp in found:
        if unit(imp.importer) == unit(imp.target) or set(reached(imp)) & set(REACHED):
            continue
        parts = imp.target.split(".")[1:]
        hidden = [p for p in parts if _private(p) and p not in SHARED]
        if hidden or _private(imp.name):
            what = f"{imp.target}.{imp.name}" if imp.name else imp.target
            bad.append(f"{imp.importer}:{imp.line} reaches the private {what} of another unit")
    return sorted(bad)


def cycles(found: Iterable[Import]) -> list[list[str]]:
    """The import cycles between modules: strongly connected components of more than one
    module of the import graph (Tarjan's algorithm)."""
    graph: dict[str, set[str]] = {}
    for imp in found:
        graph.setdefault(imp.importer, set()).add(imp.target)
        graph.setdefault(imp.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

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
            while (w := stack.pop()) != v:
                on_stack.discard(w)
                component.append(w)
            on_stack.discard(v)
            if component:
                components.append(sorted([*component, v]))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return components


def third_party_imports(package: Path = PACKAGE) -> dict[str, set[str]]:
    """unit -> the top-level names outside the standard library and the package it imports."""
    found: dict[str, set[str]] = {}
    for module, path in modules(package).items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module]
            else:
                continue
            tops = {n.split(".")[0] for n in names}
            outside = tops - set(sys.stdlib_module_names) - {"prtheory", "__future__"}
            if outside:
                found.setdefault(unit(module), set()).update(outside)
    return found


def violations(
    table: dict[str, set[str]],
    found: Iterable[Import],
    units: Iterable[str],
    unit_of: Callable[[str], str] = unit,
) -> list[str]:
    """What breaks ``table``: a unit without a row, a row naming a unit not earlier in the
    table, an import across units that its row does not allow, a row entry nothing imports."""
    order = list(table)
    bad = [f"unit {u!r} has no row in the table" for u in sorted(set(units) - set(table))]
    for u, allowed in table.items():
        late = sorted(v for v in allowed if v not in order[: order.index(u)])
        bad += [f"{u} -> {v}: {v!r} is not below {u!r} in the table" for v in late]
    used: dict[str, set[str]] = {}
    for imp in found:
        a, b = unit_of(imp.importer), unit_of(imp.target)
        if a == b:
            continue
        used.setdefault(a, set()).add(b)
        if a in table and b not in table[a]:
            bad.append(f"{imp.importer}:{imp.line} imports {imp.target} ({a} -> {b} not allowed)")
    for u, allowed in table.items():
        unused = sorted(allowed - used.get(u, set()))
        bad += [f"{u} -> {v} is allowed but nothing imports it" for v in unused]
    return bad


def _names(values: set[str]) -> str:
    if values == {"*"}:
        return "any (the libraries it runs or tests)"
    return ", ".join(f"`{v}`" for v in sorted(values)) or "-"


def render() -> str:
    """The layering section of docs/development.md, from the table (top layer first)."""
    rows = [
        f"| `{u}` | {HOLDS[u]} | {_names(ALLOWED[u])} | {_names(THIRD_PARTY[u])} |"
        for u in reversed(list(ALLOWED))
    ]
    return "\n".join(
        [
            MARKERS[0],
            "",
            "Each unit of the package (the first name under `prtheory`; `prtheory` is its",
            "`__init__`) imports only the units of its row, all of them below it, so imports flow",
            "downward and no two units import each other. The table is `ALLOWED`, `THIRD_PARTY`",
            "and `HOLDS` in `prtheory/_testing/layering.py`; `tests/test_layering.py` reads every",
            "import of every module and fails on one the table does not allow, on a row nothing",
            "uses, and when this section differs from the table",
            "(`python -m prtheory._testing.layering` rewrites it).",
            "",
            "| unit | holds | imports from prtheory | third-party imports |",
            "|---|---|---|---|",
            *rows,
            "",
            MARKERS[1],
        ]
    )


def section(text: str) -> str:
    """The part of ``text`` from the first marker to the second, both included."""
    start, end = text.index(MARKERS[0]), text.index(MARKERS[1]) + len(MARKERS[1])
    return text[start:end]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    page = Path(args[0] if args else ".") / "docs" / "development.md"
    text = page.read_text()
    page.write_text(text.replace(section(text), render()))
    print(f"wrote the layering section of {page}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
