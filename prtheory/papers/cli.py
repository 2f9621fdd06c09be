"""``prtheory tables`` and ``prtheory figures``.

Light at import time: the paper modules (and matplotlib, for ``figures``) are imported only when
a command runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from prtheory._root import writable_root

__all__ = ["register"]


ROOT_HELP = (
    "write under DIR/reports (default: the working directory, which must then be the root of "
    "a prtheory checkout)"
)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``tables`` and ``figures`` sub-commands to the ``prtheory`` command line.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The ``prtheory`` command's sub-parsers.

    Returns
    -------
    None

    See Also
    --------
    prtheory.cli.main

    Examples
    --------
    >>> import argparse
    >>> from prtheory.papers.cli import register
    >>> parser = argparse.ArgumentParser(prog="prtheory")
    >>> register(parser.add_subparsers())
    >>> str(parser.parse_args(["tables", "--root", "/tmp/out"]).root)
    '/tmp/out'
    """
    t = sub.add_parser(
        "tables",
        help="regenerate the papers' Markdown reports under reports/",
        description="Regenerate the tables of the source papers from the oracle: "
        "reports/boyd2012.md, reports/flach2015.md and reports/notes.md.",
        epilog="examples:\n  prtheory tables                  # from the root of a checkout\n"
        "  prtheory tables --root /tmp/out  # anywhere else: writes /tmp/out/reports/",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    t.add_argument("--root", type=Path, default=None, metavar="DIR", help=ROOT_HELP)
    t.set_defaults(func=_tables)
    f = sub.add_parser(
        "figures",
        help="redraw the papers' figures (PNG) and reports/figures/manifest.json",
        description="Redraw the figures of the source papers (needs matplotlib: "
        "pip install -e '.[plots]') into reports/figures/, with manifest.json, the digest of "
        "the data behind each figure.",
        epilog="examples:\n  prtheory figures                  # from the root of a checkout\n"
        "  prtheory figures --root /tmp/out  # anywhere else: writes /tmp/out/reports/figures/",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    f.add_argument("--root", type=Path, default=None, metavar="DIR", help=ROOT_HELP)
    f.set_defaults(func=_figures)


def _tables(args: argparse.Namespace) -> int:
    from prtheory.papers.outputs import write_tables

    root = writable_root(args.root, "tables")
    if root is None:
        return 2
    for path in write_tables(root):
        print(f"wrote {path}")
    return 0


def _figures(args: argparse.Namespace) -> int:
    try:
        from prtheory.papers.figures import write_figures
    except ImportError as exc:  # matplotlib missing
        print(
            f"prtheory figures: needs matplotlib (pip install -e '.[plots]' from a checkout of prtheory): {exc}",
            file=sys.stderr,
        )
        return 2
    root = writable_root(args.root, "figures")
    if root is None:
        return 2
    for path in write_figures(root):
        print(f"wrote {path}")
    return 0
