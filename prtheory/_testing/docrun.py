"""Run the Python blocks of one page in a fresh interpreter (the tests of
``tests/test_doc_examples.py`` start it once per page and read its results).

``python -m prtheory._testing.docrun RESULTS < REQUEST`` reads a JSON request::

    {"filters": [[action, message, "module.Category", module, lineno], ...],
     "blocks": [{"id": "docs/x.md:12", "source": "...", "cwd": "/tmp/..."}, ...]}

installs the warning filters (the test session's, so that a warning is an error here as it is
there), then runs the blocks in order, as a reader pasting the page from the top into one
session would, except that each block gets a namespace of its own (a name it uses must be
defined in it) and a directory of its own. Between blocks the interpreter's shared state is put
back: the working directory, ``mpmath.mp.dps`` and the open matplotlib figures. A Spark
session a block starts stays up for the blocks after it, so that a page starts the JVM once.
(The runner itself imports ``prtheory``, as any block that uses it does.)

For each block it writes ``{"id", "error", "missing", "mismatches"}`` to RESULTS (JSON):
the traceback if the block raised (``missing``: the module of a ``ModuleNotFoundError``), and
every comment that states a value the expression does not have
(:func:`prtheory._testing.docblocks.stated_values`).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import re
import sys
import traceback
import warnings
from typing import Any

from prtheory._testing.docblocks import agrees, stated_values

__all__ = ["filters_now", "main", "run_block"]


def _pattern(match: re.Pattern[str] | str | None) -> str:
    """A filter's message or module as a regular expression (the interpreter's default filters
    hold plain strings, matched whole)."""
    if match is None:
        return ""
    return match.pattern if isinstance(match, re.Pattern) else re.escape(match) + r"\Z"


def _qualified(category: Any) -> str:
    # a filter's category is one class (``warnings.filterwarnings`` takes no tuple)
    return f"{category.__module__}.{category.__qualname__}"


def filters_now() -> list[list[Any]]:
    """The warning filters in force, as JSON for the request (the first one wins)."""
    return [
        [
            action,
            _pattern(message),
            _qualified(category),
            _pattern(module),
            lineno,
        ]
        for action, message, category, module, lineno in warnings.filters
    ]


def _install(filters: list[list[Any]]) -> None:
    warnings.resetwarnings()
    for action, message, category, module, lineno in reversed(filters):
        owner, _, name = category.rpartition(".")
        cls = getattr(importlib.import_module(owner), name)
        warnings.filterwarnings(action, message, cls, module, lineno)


def _restore(cwd: str) -> None:
    os.chdir(cwd)
    if "mpmath" in sys.modules:
        sys.modules["mpmath"].mp.dps = 15
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")


def run_block(block_id: str, source: str, cwd: str) -> dict[str, Any]:
    """Run one block as pasted in ``cwd``; its outcome (see the module docstring)."""
    out: dict[str, Any] = {"id": block_id, "error": None, "missing": None, "mismatches": []}
    namespace: dict[str, Any] = {"__name__": "__main__"}
    home = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(source, block_id, "exec"), namespace)
            for line, expr, written, prefix in stated_values(source):
                got = eval(expr, namespace)
                if not agrees(got, written, prefix):
                    out["mismatches"].append(f"{line!r}: got {got!r}")
    except ModuleNotFoundError as exc:
        out["missing"] = exc.name
        out["error"] = traceback.format_exc()
    except BaseException:  # everything a block raises is its failure, reported
        out["error"] = traceback.format_exc()
    finally:
        _restore(home)
    return out


def main(argv: list[str] | None = None) -> int:
    (results,) = argv if argv is not None else sys.argv[1:]
    request = json.load(sys.stdin)
    _install(request["filters"])
    outcomes = [run_block(b["id"], b["source"], b["cwd"]) for b in request["blocks"]]
    with open(results, "w") as fh:
        json.dump(outcomes, fh)
    if "pyspark.sql" in sys.modules:  # the session the page's blocks shared
        session = sys.modules["pyspark.sql"].SparkSession.getActiveSession()
        if session is not None:
            session.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
