"""The ``prtheory`` command line.

Each area registers its own sub-commands from a light module (no heavy imports at parse time):

* ``verify``, ``proofs`` -- :mod:`prtheory.theory.cli`
* ``conformance`` -- :mod:`prtheory.conformance.cli`
* ``tables``, ``figures`` -- :mod:`prtheory.papers.cli`
* ``audit`` -- :mod:`prtheory.audit.cli`
"""

from __future__ import annotations

import argparse
import importlib
import sys

from prtheory._version import __version__

__all__ = ["main"]

AREAS = (
    "prtheory.theory.cli",
    "prtheory.papers.cli",
    "prtheory.audit.cli",
    "prtheory.conformance.cli",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="prtheory", description="Reference mathematics of precision-recall space."
    )
    parser.add_argument("--version", action="version", version=f"prtheory {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for module in AREAS:
        importlib.import_module(module).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
