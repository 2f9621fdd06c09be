"""The package's public modules, as the documentation tests walk them."""

from __future__ import annotations

import pkgutil

import prtheory


def public_modules() -> list[str]:
    """``prtheory`` and every module below it with no part of its dotted name starting with
    ``_``, in ``pkgutil.walk_packages`` order."""
    names = ["prtheory"]
    for info in pkgutil.walk_packages(prtheory.__path__, "prtheory."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.append(info.name)
    return names
