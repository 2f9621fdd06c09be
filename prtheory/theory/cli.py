"""``prtheory verify`` and ``prtheory proofs``: run the claim registry and render its documents."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import textwrap
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from prtheory.theory.registry import ClaimResult

__all__ = ["register"]


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``verify`` and ``proofs`` subcommands to a command line's subparsers.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The subparsers of the ``prtheory`` command.

    Returns
    -------
    None

    Examples
    --------
    >>> import argparse
    >>> from prtheory.theory.cli import register
    >>> parser = argparse.ArgumentParser(prog="prtheory")
    >>> register(parser.add_subparsers())
    >>> args = parser.parse_args(["verify", "B4", "F8", "--jobs", "2"])
    >>> args.ids, args.jobs, args.json
    (['B4', 'F8'], 2, False)
    >>> parser.parse_args(["proofs", "--format", "latex"]).format
    'latex'
    """
    v = sub.add_parser(
        "verify",
        help="derive and check every claim; print the verdict table",
        description="Derive every claim of the source papers in sympy, run its independent "
        "checks, and print one line per claim (id, verdict, time, title, kinds of check). "
        "Exit status 1 if any claim fails. Claim ids: B1-B16 (Boyd et al. 2012), F1-F13 "
        "(Flach & Kull 2015), N1.. (notes on AP and P@k), G1.. (Gandenberger 2019), X1.. "
        "(extras); proofs/README.md lists them all.",
        epilog="examples:\n  prtheory verify B4 F8\n  prtheory verify --jobs 2\n"
        "  prtheory verify --claims examples/my_claim.py\n  prtheory verify --json B4",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    v.add_argument("ids", nargs="*", help="claim ids to run (default: all), e.g. B4 F8")
    v.add_argument("--json", action="store_true", help="emit a JSON list instead of a table")
    v.add_argument(
        "--claims",
        action="append",
        default=[],
        metavar="FILE_OR_MODULE",
        help="also load the claims registered by this .py file or module, and run those "
        "(repeatable; with ids, run the ids named)",
    )
    v.add_argument(
        "--jobs", "-j", type=int, default=1, metavar="N", help="run claims in N processes"
    )
    v.set_defaults(func=_verify)
    p = sub.add_parser(
        "proofs",
        help="regenerate proofs/*.md (with the catalog), reports/claims.md and "
        "reports/corrections.md; or, with --format latex, one LaTeX document of all proofs",
        description="Run every claim and write its proof document, proofs/<id>.md, the "
        "catalog proofs/README.md, the ledger reports/claims.md and reports/corrections.md.",
        epilog="examples:\n  prtheory proofs                  # from the root of a checkout\n"
        "  prtheory proofs --format latex   # proofs/proofs.tex\n"
        "  prtheory proofs --root /tmp/out  # anywhere else",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--root",
        type=Path,
        default=None,
        metavar="DIR",
        help="write under DIR (default: the working directory, which must then be the root of "
        "a prtheory checkout)",
    )
    p.add_argument(
        "--format",
        choices=("markdown", "latex"),
        default="markdown",
        help="latex: write ROOT/proofs/proofs.tex (article, amsmath) instead of the Markdown",
    )
    p.set_defaults(func=_proofs)


def _line(r: ClaimResult, width: int) -> str:
    """One claim's result: id, verdict, checks, time, then its title and source, wrapped."""
    verdict = r.claim.verdict if r.passed else "FAILED"
    head = f"{r.claim.id:<5} {verdict:<19} {r.seconds:6.2f}s  "
    body = (
        f"{r.claim.title} ({r.claim.source}, {r.claim.location}); {r.verdict_line}; "
        f"checks that bear on the statement: {', '.join(r.kinds) or 'none'}"
    )
    lines = textwrap.wrap(
        body,
        width=max(40, width),
        initial_indent=head,
        subsequent_indent=" " * len(head),
        break_on_hyphens=False,
    )
    lines += [f"      ! {line}" for problem in r.problems for line in problem.splitlines()]
    return "\n".join(lines)


def _verify(args: argparse.Namespace) -> int:
    from prtheory.theory import run_claims

    width = shutil.get_terminal_size((100, 24)).columns
    stream = None if args.json else (lambda r: print(_line(r, width), flush=True))
    t0 = time.perf_counter()
    try:
        results = run_claims(args.ids, jobs=args.jobs, sources=args.claims, on_result=stream)
    except ValueError as exc:
        print(f"prtheory verify: {exc}", file=sys.stderr)
        return 2
    if args.json:
        rows = [
            {
                "id": r.claim.id,
                "title": r.claim.title,
                "source": f"{r.claim.source}, {r.claim.location}",
                "verdict": r.claim.verdict,
                "passed": r.passed,
                "checks": r.kinds,
                "proved": r.proved,
                "statement_check": r.statement_status,
                "note": r.claim.note,
                "problems": r.problems,
                "seconds": round(r.seconds, 3),
            }
            for r in results
        ]
        print(json.dumps(rows, indent=2))
    else:
        failed = sum(not r.passed for r in results)
        wall = time.perf_counter() - t0
        print(
            f"{len(results)} claims, {len(results) - failed} passed, {failed} failed "
            f"({wall:.1f}s wall, {args.jobs} job{'s' if args.jobs > 1 else ''})"
        )
    return 1 if any(not r.passed for r in results) else 0


def _proofs(args: argparse.Namespace) -> int:
    from prtheory._root import writable_root
    from prtheory.theory import run_claims
    from prtheory.theory.render import write_documents

    root = writable_root(args.root, "proofs")
    if root is None:
        return 2
    results = run_claims()  # in this process: the kill rate needs the established objects
    if args.format == "latex":
        from prtheory.theory.latex import render_latex

        path = root / "proofs" / "proofs.tex"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render_latex(results))
        print(f"wrote {path}")
    else:
        paths = write_documents(results, root)
        print(f"wrote {len(paths)} files under {root}")
    return 1 if any(not r.passed for r in results) else 0
