"""``prtheory conformance``: run the libraries over the vectors, write the report, export vectors."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

__all__ = ["register"]

REPORT = Path("reports") / "conformance.md"


def register(sub: argparse._SubParsersAction) -> None:
    from prtheory.conformance.adapters import ADAPTERS

    p = sub.add_parser(
        "conformance",
        help="check metric libraries against the oracle's test vectors; write reports/conformance.md",
    )
    p.add_argument(
        "--libraries", nargs="+", choices=ADAPTERS, help="adapters to run (default: all)"
    )
    p.add_argument("--metrics", nargs="+", help="vector files to use, e.g. average_precision")
    p.add_argument("--json", action="store_true", help="print every verdict as JSON")
    p.add_argument(
        "--stdout",
        action="store_true",
        help=f"print the report instead of writing {REPORT} (implied by --libraries/--metrics)",
    )
    p.add_argument(
        "--write-vectors",
        action="store_true",
        help="regenerate the vectors from the oracle, then stop",
    )
    p.add_argument(
        "--export",
        type=Path,
        metavar="DIR",
        help="copy the plain-JSON vectors and schema to DIR, then stop",
    )
    p.add_argument("--root", type=Path, default=Path.cwd(), help="project root (default: cwd)")
    p.set_defaults(func=_main)


def _main(args: argparse.Namespace) -> int:
    if args.write_vectors:
        from prtheory.conformance.generate import main as generate

        for path in generate():
            print(f"wrote {path}")
    if args.export is not None:
        from prtheory.conformance.vectors_io import export

        paths = export(args.export)
        print(f"exported {len(paths)} files to {args.export}")
    if args.write_vectors or args.export is not None:
        return 0
    from prtheory.conformance.report import render
    from prtheory.conformance.runner import run
    from prtheory.errors import InvalidInputError

    try:
        result = run(args.libraries, args.metrics)
    except InvalidInputError as exc:
        print(f"prtheory conformance: {exc}", file=sys.stderr)
        return 2
    if args.json:
        payload = {
            "libraries": [
                {
                    "library": s.library,
                    "distribution": s.distribution,
                    "version": s.version,
                    "available": s.available,
                    "reason": s.reason,
                    "shims": list(s.shims),
                }
                for s in result.statuses
            ],
            "results": [
                {
                    "library": r.library,
                    "implementation": r.implementation,
                    "metric": r.metric,
                    "tcId": r.vector.tc_id,
                    "comment": r.vector.comment,
                    **r.verdict.to_json(),
                }
                for r in result.rows
            ],
        }
        print(json.dumps(payload, indent=1))
    else:
        text = render(result)
        if args.stdout or args.libraries or args.metrics:
            print(text, end="")
        else:
            path = args.root / REPORT
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    return 0
