"""``prtheory tables``, ``prtheory figures`` and ``prtheory audit FILE``.

Light at import time: the paper modules (and matplotlib, for ``figures``) are imported only when
a command runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

__all__ = ["register"]


def register(sub: argparse._SubParsersAction) -> None:
    t = sub.add_parser("tables", help="regenerate the papers' Markdown reports under reports/")
    t.add_argument("--root", type=Path, default=Path.cwd(), help="project root (default: cwd)")
    t.set_defaults(func=_tables)
    f = sub.add_parser(
        "figures", help="redraw the papers' figures (PNG) and reports/figures/manifest.json"
    )
    f.add_argument("--root", type=Path, default=Path.cwd(), help="project root (default: cwd)")
    f.set_defaults(func=_figures)
    a = sub.add_parser(
        "audit",
        help="check published PR numbers for consistency under rounding (exit 1 if any is flagged)",
        description="Check a CSV or JSON file of published precision-recall numbers. "
        "Exit status: 0 nothing flagged, 1 at least one row flagged, 2 unreadable or malformed input.",
    )
    a.add_argument(
        "file", type=Path, help="CSV (with a header row) or JSON file of reported values"
    )
    a.add_argument(
        "--rounding",
        default="any",
        choices=("any", "half-even", "half-up", "half-down", "truncate"),
        help="how the published values were rounded (default: any round-to-nearest rule)",
    )
    a.add_argument("--flagged-only", action="store_true", help="print only the flagged rows")
    a.set_defaults(func=_audit)


def _tables(args: argparse.Namespace) -> int:
    from prtheory.papers.outputs import write_tables

    for path in write_tables(args.root):
        print(f"wrote {path}")
    return 0


def _figures(args: argparse.Namespace) -> int:
    try:
        from prtheory.papers.figures import write_figures
    except ImportError as exc:  # matplotlib missing
        print(
            f"prtheory figures: needs matplotlib (pip install 'prtheory[plots]'): {exc}",
            file=sys.stderr,
        )
        return 2
    for path in write_figures(args.root):
        print(f"wrote {path}")
    return 0


def _audit(args: argparse.Namespace) -> int:
    from prtheory.errors import InvalidInputError
    from prtheory.papers.audit import audit_rows, read_rows, render

    try:
        results = audit_rows(read_rows(args.file), args.rounding)
    except InvalidInputError as exc:
        print(f"prtheory audit: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(render(results, args.rounding, args.flagged_only))
    return 1 if any(r.flagged for r in results) else 0
