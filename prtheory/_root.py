"""Where the writing commands (``prtheory tables``, ``figures``, ``proofs``) may write.

They rewrite files a checkout of prtheory holds (``reports/``, ``proofs/``), so without
``--root`` they write only when the working directory is the root of such a checkout: a
directory whose ``pyproject.toml`` declares the project ``prtheory``. Anywhere else they refuse,
rather than create a stray ``reports/`` folder.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

__all__ = ["is_project_root", "writable_root"]

_NAME = re.compile(r'^name\s*=\s*"prtheory"\s*$', re.M)


def is_project_root(path: Path) -> bool:
    """Whether ``path`` holds a ``pyproject.toml`` that declares the project ``prtheory``."""
    pyproject = path / "pyproject.toml"
    return pyproject.is_file() and bool(_NAME.search(pyproject.read_text()))


def writable_root(root: Path | None, command: str) -> Path | None:
    """``root`` when given; else the working directory if it is the project root; else None,
    after saying on stderr what to do."""
    if root is not None:
        return root
    cwd = Path.cwd()
    if is_project_root(cwd):
        return cwd
    print(
        f"prtheory {command}: {cwd} is not the root of a prtheory checkout (no pyproject.toml "
        f"naming prtheory); run it from the root, or pass --root DIR to write under DIR",
        file=sys.stderr,
    )
    return None
