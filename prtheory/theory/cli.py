"""``prtheory verify`` and ``prtheory proofs``: run the claim registry and render its documents."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

__all__ = ["register"]


def register(sub: argparse._SubParsersAction) -> None:
    v = sub.add_parser("verify", help="derive and check every claim; print the verdict table")
    v.add_argument("ids", nargs="*", help="claim ids to run (default: all), e.g. B4 F8")
    v.add_argument("--json", action="store_true", help="emit a JSON list instead of a table")
    v.set_defaults(func=_verify)
    p = sub.add_parser("proofs", help="regenerate proofs/*.md and reports/claims.md")
    p.add_argument("--root", type=Path, default=Path.cwd(), help="project root (default: cwd)")
    p.set_defaults(func=_proofs)


def _verify(args: argparse.Namespace) -> int:
    from prtheory.theory import run_claims

    try:
        results = run_claims(args.ids)
    except ValueError as exc:
        print(f"prtheory verify: {exc}", file=sys.stderr)
        return 2
    if args.json:
        rows = [
            {
                "id": r.claim.id,
                "source": f"{r.claim.source}, {r.claim.location}",
                "verdict": r.claim.verdict,
                "passed": r.passed,
                "checks": r.kinds,
                "note": r.claim.note,
                "problems": r.problems,
                "seconds": round(r.seconds, 3),
            }
            for r in results
        ]
        print(json.dumps(rows, indent=2))
    else:
        print(f"{'id':<5} {'source':<34} {'verdict':<20} {'checks':<42} {'time':>7}")
        for r in results:
            verdict = r.claim.verdict if r.passed else "FAILED"
            src = f"{r.claim.source}, {r.claim.location}"[:34]
            print(
                f"{r.claim.id:<5} {src:<34} {verdict:<20} {', '.join(r.kinds):<42} {r.seconds:6.2f}s"
            )
            for problem in r.problems:
                print(f"      ! {problem}")
        failed = sum(not r.passed for r in results)
        print(f"{len(results)} claims, {len(results) - failed} passed, {failed} failed")
    return 1 if any(not r.passed for r in results) else 0


def _proofs(args: argparse.Namespace) -> int:
    from prtheory.theory import run_claims
    from prtheory.theory.render import write_documents

    results = run_claims()
    paths = write_documents(results, args.root)
    print(f"wrote {len(paths)} files under {args.root}")
    return 1 if any(not r.passed for r in results) else 0
