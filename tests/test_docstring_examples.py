"""Every public function and class of the modules of :data:`PACKAGES` has an executed example
and its numpydoc sections.

The rule, as :func:`public_functions` and :func:`missing_examples` apply it:

- a module is public when no part of its dotted name starts with ``_``;
- its public names are those in its ``__all__`` (or, without ``__all__``, every name without a
  leading underscore) that are functions or classes defined in the module itself (a name
  re-exported from elsewhere is checked where it is defined);
- every such function and class has an ``Examples`` section with ``>>>`` lines;
  ``tests/test_doctests.py`` executes every docstring example of the package as a doctest (Spark's
  with the tests' session, skipped without Java);
- a function also has ``Returns`` (``Yields`` for a generator or a context manager made of
  one), ``Parameters`` when it takes any, and ``Raises`` when its own body has a ``raise``
  statement (errors raised by the validators it calls are named in the sections by hand, as
  are the ``See Also`` entries).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import textwrap
from types import ModuleType

import pytest

from prtheory._testing.modules import public_modules

#: the packages whose public functions carry executed examples
PACKAGES = (
    "prtheory.cli",
    "prtheory.errors",
    "prtheory.intervals",
    "prtheory.streaming",
    "prtheory.data",
    "prtheory.metrics",
    "prtheory.floats",
    "prtheory.sklearn",
    "prtheory.distributed",
    "prtheory.oracle",
    "prtheory.audit",
    "prtheory.papers",
    "prtheory.plots",
    "prtheory.duckdb",
    "prtheory.spark",
    "prtheory.theory",
    "prtheory.conformance",
)

#: the extra each package's modules need to be imported
NEEDS = {
    "prtheory.plots": "matplotlib",
    "prtheory.spark": "pyspark",
    "prtheory.duckdb": "duckdb",
    "prtheory.sklearn": "sklearn",
}


MODULES = sorted(public_modules(PACKAGES))


def _import(name: str) -> ModuleType:
    for package, extra in NEEDS.items():
        if name.startswith(package):
            pytest.importorskip(extra)
    return importlib.import_module(name)


def public_functions(module: ModuleType) -> dict[str, object]:
    """The functions and classes the module defines and lists in ``__all__`` (or, without
    ``__all__``, defines under a name without a leading underscore)."""
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in vars(module) if not n.startswith("_")]
    return {
        n: obj
        for n in names
        if (obj := getattr(module, n, None)) is not None
        and (inspect.isfunction(obj) or inspect.isclass(obj))
        and getattr(obj, "__module__", None) == module.__name__
    }


def _sections(doc: str) -> set[str]:
    return set(re.findall(r"^\s*(\w[\w ]*)\n\s*-{3,}\s*$", doc, flags=re.M))


def _raises(function: object) -> bool:
    """Whether the function's own body (not a function nested in it) has a ``raise``."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))  # type: ignore[arg-type]
    except (OSError, TypeError):
        return False
    stack = list(ast.iter_child_nodes(tree.body[0]))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Raise):
            return True
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            stack.extend(ast.iter_child_nodes(node))
    return False


def missing_examples(module: ModuleType) -> list[str]:
    """The public functions of ``module`` without an executed example and its sections:
    Parameters (when it takes any), Returns (Yields for a generator or a context manager),
    Raises (when its body raises), Examples with a ``>>>`` line."""
    out = []
    for name, obj in public_functions(module).items():
        doc = inspect.getdoc(obj) or ""
        want = {"Examples"}
        if inspect.isfunction(obj):
            # a generator, or a context manager made of one, yields
            generator = inspect.isgeneratorfunction(inspect.unwrap(obj))
            want.add("Yields" if generator else "Returns")
            if inspect.signature(obj).parameters:
                want.add("Parameters")
            if _raises(obj):
                want.add("Raises")
        if ">>>" not in doc or not want <= _sections(doc):
            out.append(name)
    return out


@pytest.mark.parametrize("name", MODULES)
def test_public_functions_have_executed_examples(name):
    module = _import(name)
    missing = missing_examples(module)
    assert not missing, f"{name}: no executed example (with its sections) in {missing}"


def _mutant_module() -> ModuleType:
    # the mutants: no example; an example without its sections; a raise without Raises;
    # a complete one (with and without a raise)
    import types

    module = types.ModuleType("prtheory.mutant")

    def bare(x):
        """Twice x."""
        return 2 * x

    def unsectioned(x):
        """Twice x.

        >>> unsectioned(1)
        2
        """
        return 2 * x

    def silent_raise(x):
        """Twice x.

        Parameters
        ----------
        x : int
            A number.

        Returns
        -------
        int
            ``2 x``.

        Examples
        --------
        >>> silent_raise(1)
        2
        """
        if x < 0:
            raise ValueError("x < 0")
        return 2 * x

    def complete(x):
        """Twice x.

        Parameters
        ----------
        x : int
            A number.

        Returns
        -------
        int
            ``2 x``.

        Raises
        ------
        ValueError
            ``x < 0``.

        Examples
        --------
        >>> complete(1)
        2
        """
        if x < 0:
            raise ValueError("x < 0")

        def nested():
            raise AssertionError  # a nested function's raise is not the function's own

        return 2 * x

    class Documented:
        """A class with its example.

        Examples
        --------
        >>> Documented()  # doctest: +ELLIPSIS
        <...Documented object at ...>
        """

    class Undocumented:
        """A class without one."""

    for f in (bare, unsectioned, silent_raise, complete, Documented, Undocumented):
        f.__module__ = module.__name__
        setattr(module, f.__name__, f)
    module.__all__ = [
        "bare", "unsectioned", "silent_raise", "complete", "Documented", "Undocumented",
    ]  # fmt: skip
    return module


def test_a_function_without_an_example_is_found():
    module = _mutant_module()
    assert missing_examples(module) == ["bare", "unsectioned", "silent_raise", "Undocumented"]


def test_a_new_module_with_an_undocumented_function_fails(monkeypatch):
    # the parametrised test itself, on a fake module of a checked package: it must fail
    import sys

    module = _mutant_module()
    monkeypatch.setitem(sys.modules, module.__name__, module)
    with pytest.raises(AssertionError, match="bare"):
        test_public_functions_have_executed_examples(module.__name__)
    # and passes once only its documented names are public
    module.__all__ = ["complete", "Documented"]
    test_public_functions_have_executed_examples(module.__name__)
