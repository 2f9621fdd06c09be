"""The package's public modules, as the documentation tests walk them."""

from __future__ import annotations

import importlib.util
import pkgutil
from collections.abc import Iterable


def public_modules(packages: Iterable[str] = ("prtheory",)) -> list[str]:
    """Each of ``packages`` and every module below it, in ``pkgutil.walk_packages`` order,
    leaving out those with a part of the dotted name starting with ``_``.

    A package is found by ``find_spec``, without importing it: a package of an optional extra
    (``prtheory.sklearn``) raises ImportError without it, which must skip its modules' tests,
    not fail the collection."""
    names = []
    for package in packages:
        names.append(package)
        spec = importlib.util.find_spec(package)
        path = None if spec is None else spec.submodule_search_locations
        if path is not None:
            names += [m.name for m in pkgutil.walk_packages(path, package + ".")]
    return [n for n in names if not any(part.startswith("_") for part in n.split("."))]
