"""``prtheory tables`` and ``prtheory figures``.

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
            f"prtheory figures: needs matplotlib (pip install -e '.[plots]' from a checkout of prtheory): {exc}",
            file=sys.stderr,
        )
        return 2
    for path in write_figures(args.root):
        print(f"wrote {path}")
    return 0
