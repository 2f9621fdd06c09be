"""``prtheory audit FILE``: register the sub-command (light: nothing heavy is imported here).

Exit status: 0 nothing flagged, 1 at least one row flagged (provably impossible), 2 the input
cannot be read or is malformed (the message names the file, row and column).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

__all__ = ["register"]

FORMATS = ("text", "markdown", "json")


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``audit`` sub-command to the ``prtheory`` command line.

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
    >>> from prtheory.audit.cli import register
    >>> parser = argparse.ArgumentParser(prog="prtheory")
    >>> register(parser.add_subparsers())
    >>> parser.parse_args(["audit", "t.csv", "--flagged-only"]).flagged_only
    True
    """
    a = sub.add_parser(
        "audit",
        help="check published PR numbers for consistency under rounding (exit 1 if any is flagged)",
        description="Check a table (CSV, TSV, semicolon-separated or JSON) of published "
        "precision-recall numbers; only what is provably impossible under each row's method is "
        "flagged. Exit status: 0 nothing flagged, 1 at least one row flagged, 2 unreadable or "
        "malformed input. Headers and methods are explained in docs/researchers.md.",
        epilog="examples:\n  prtheory audit examples/reported.csv --flagged-only\n"
        "  prtheory audit table.tsv --rounding half-even --format markdown\n"
        "  prtheory audit folds.csv --averaged --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    a.add_argument("file", type=Path, help="the table; JSON is recognised by a .json suffix")
    a.add_argument(
        "--rounding",
        default="any",
        choices=("any", "half-even", "half-up", "half-down", "truncate"),
        help="how the published values were rounded (default: any round-to-nearest rule)",
    )
    a.add_argument(
        "--averaged",
        action="store_true",
        help="the values are means over folds: no per-ranking checks (achievable, F, counts)",
    )
    a.add_argument("--format", choices=FORMATS, default="text", help="output format")
    a.add_argument(
        "--json", action="store_const", const="json", dest="format", help="same as --format json"
    )
    a.add_argument("--flagged-only", action="store_true", help="print only the flagged rows")
    a.set_defaults(func=_audit)


def _audit(args: argparse.Namespace) -> int:
    from prtheory.audit import audit_rows, read_rows, render, to_json, to_markdown
    from prtheory.errors import InvalidInputError

    try:
        results = audit_rows(read_rows(args.file, averaged=args.averaged), args.rounding)
    except InvalidInputError as exc:
        print(f"prtheory audit: {exc}", file=sys.stderr)
        return 2
    out = {"text": render, "markdown": to_markdown, "json": to_json}[args.format]
    print(out(results, args.rounding, args.flagged_only), end="")
    return 1 if any(r.flagged for r in results) else 0
