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
    """Run the ``prtheory`` command line with ``argv`` (default: the process arguments).

    Parameters
    ----------
    argv : list of str or None
        The arguments after ``prtheory``; None reads ``sys.argv``.

    Returns
    -------
    int
        The exit status.

    See Also
    --------
    prtheory.audit.cli.register, prtheory.papers.cli.register

    Examples
    --------
    ``prtheory audit`` on a one-row table: an AUCPR printed 0.40 at skew 0.5 is above the least
    Davis-Goadrich area 0.2693103 (see :func:`prtheory.audit.checks.audit_rows`), so nothing is
    flagged and the exit status is 0:

    >>> import tempfile, pathlib
    >>> from prtheory.cli import main
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = pathlib.Path(d) / "t.csv"
    ...     _ = path.write_text("id,aucpr,skew,method\\nA,0.40,0.5,dg\\n")
    ...     status = main(["audit", str(path), "--flagged-only"])
    rounding convention: any
    1 rows, 0 flagged
    >>> status
    0
    """
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
