"""cProfile listings that name no directory of the machine that ran them.

A profile printed by :mod:`pstats` names every function by its file's absolute path
(``/home/me/src/prtheory/prtheory/oracle/ap.py``, ``/usr/lib/python3/site-packages/numpy/...``).
:func:`profile_call` prints the same listing with paths relative to where the code lives: a
package file from its package (``prtheory/oracle/ap.py``, ``numpy/_core/fromnumeric.py``), a
file of the repository from the repository root (``benchmarks/bench_ap.py``), the standard
library by module path (``cProfile.py``). :func:`strip_paths` does the rewriting.
"""

from __future__ import annotations

import cProfile
import io
import pstats
import re
import sys
import sysconfig
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

__all__ = ["profile_call", "strip_paths"]

REPO = Path(__file__).resolve().parents[2]
_SITE = re.compile(r"\S*[/\\](?:site|dist)-packages[/\\]")


def _prefixes() -> list[str]:
    """Directory prefixes to strip, longest first: the repository root and the standard library
    (the installed packages are handled by the ``site-packages`` pattern)."""
    dirs = {str(REPO), sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platstdlib"]}
    return sorted((d.rstrip("/\\") + "/" for d in dirs if d), key=len, reverse=True)


def strip_paths(text: str, roots: Iterable[str] = ()) -> str:
    """``text`` with every absolute path made relative: up to ``site-packages/`` (or
    ``dist-packages/``), then the repository root, the standard library and ``roots``."""
    text = _SITE.sub("", text)
    for prefix in [*(r.rstrip("/\\") + "/" for r in roots), *_prefixes()]:
        text = text.replace(prefix, "")
    return text


def profile_call(fn: Callable[..., Any], *args: Any, top: int = 12) -> str:
    """The cProfile of ``fn(*args)``: the ``top`` entries by cumulative time, blank lines and
    trailing spaces dropped, paths made relative by :func:`strip_paths`."""
    prof = cProfile.Profile()
    prof.runcall(fn, *args)
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats("cumulative").print_stats(top)
    lines = (line.rstrip() for line in buf.getvalue().splitlines() if line.strip())
    return strip_paths("\n".join(lines), roots=[sys.prefix])
