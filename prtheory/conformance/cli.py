"""``prtheory conformance``: run the libraries over the vectors, write the report, export vectors."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

__all__ = ["register"]

REPORT = Path("reports") / "conformance.md"


FAIL_CATEGORIES = {
    "wrong": ("wrong",),
    "crash": ("crashed",),
    "time": ("timeout",),
    "missing": ("missing",),
    "accepted-invalid": ("accepted-invalid",),
    "rejected-valid": ("rejected-valid",),
    "undefined-value": ("undefined-value",),
}
DEFAULT_FAIL_ON = "wrong,crash,time,missing"


def _fail_on(text: str) -> tuple[str, ...]:
    names = [t.strip() for t in text.split(",") if t.strip()]
    if names == ["none"]:
        return ()
    bad = [n for n in names if n not in FAIL_CATEGORIES]
    if bad or not names:
        raise argparse.ArgumentTypeError(
            f"unknown {bad or text!r}; use 'none' or a comma-separated subset of "
            f"{', '.join(FAIL_CATEGORIES)}"
        )
    return tuple(c for n in names for c in FAIL_CATEGORIES[n])


def _fails(row: Any, kinds: tuple[str, ...], mechanism: str | None) -> bool:
    """Whether a result counts against ``--fail-on``: its category is listed, or (under
    ``wrong``) it agrees with some convention but the diagnosis of the implementation's results
    attributes it to a mechanism that is not all declared conventions (``mechanism``: the
    attributed name, ``None`` when no mechanism explains it)."""
    v = row.verdict
    if v.category in kinds:
        return True
    if v.category != "convention" or "wrong" not in kinds:
        return False
    return mechanism is None or not set(mechanism.split("+")) <= set(row.claims)


def _epilog() -> str:
    """The examples and the valid names of ``--libraries`` and ``--metrics`` for ``--help``."""
    from prtheory.conformance.isolated import known_libraries
    from prtheory.conformance.vectors_io import files

    def names(items: list[str]) -> str:
        return textwrap.fill(", ".join(items), 96, initial_indent="  ", subsequent_indent="  ")

    return (
        "examples:\n"
        "  prtheory conformance --libraries sklearn --metrics average_precision\n"
        "  PYTHONPATH=examples prtheory conformance --adapter my_adapter:correct "
        "--metrics average_precision\n"
        "  prtheory conformance --fail-on wrong,crash --json results.json\n"
        "  prtheory conformance --export vectors/      # the plain-JSON vectors, for any language\n"
        "  prtheory conformance --fail-on none         # rewrite reports/conformance.md (a checkout)\n"
        f"\nlibraries (--libraries):\n{names(known_libraries())}\n"
        f"\nmetrics (--metrics):\n{names([p.stem for p in files()])}"
    )


#: the options of ``prtheory conformance`` but ``--root`` (whose default is the working
#: directory when the command runs): flag -> keyword arguments of ``add_argument``
OPTIONS: tuple[tuple[str, dict[str, Any]], ...] = (
    (
        "--libraries",
        {
            "nargs": "+",
            "metavar": "NAME",
            "help": "adapters to run (default: every built-in one and every entry point of the group "
            "prtheory.adapters; the names are listed below)",
        },
    ),
    (
        "--adapter",
        {
            "action": "append",
            "default": [],
            "metavar": "MODULE:CALLABLE",
            "help": "also run your own implementations: a callable returning a list of "
            "prtheory.conformance.adapters.Implementation (repeatable; alone, it runs only these)",
        },
    ),
    (
        "--metrics",
        {
            "nargs": "+",
            "metavar": "NAME",
            "help": "vector files to use, e.g. average_precision (the names are listed below)",
        },
    ),
    (
        "--fail-on",
        {
            "type": _fail_on,
            "default": _fail_on(DEFAULT_FAIL_ON),
            "metavar": "KINDS",
            "help": "exit 1 when a result is of these kinds (comma-separated: wrong, crash, time, "
            "missing, accepted-invalid, rejected-valid, undefined-value; or none). wrong includes "
            "a result that agrees with a convention when the diagnosis attributes it to a "
            "mechanism the implementation does not declare, and a differential test whose "
            "generated inputs diverge; time a vector not run for want of CPU time; missing a "
            f"library that was not run or returned no result. Default: {DEFAULT_FAIL_ON}",
        },
    ),
    (
        "--allow-missing",
        {
            "nargs": "+",
            "default": [],
            "metavar": "NAME",
            "help": "libraries (adapter key, library name or MODULE:CALLABLE) that may be missing "
            "(not installed, not importable, no results) without failing --fail-on missing",
        },
    ),
    (
        "--differential",
        {
            "choices": ("none", "round0", "full"),
            "default": None,
            "help": "generated inputs (10 to 10^6 items) per implementation of a metric with a "
            "differential test: none; round0 (every size once per family); full (round 0 and 1375 "
            "inputs per decade of sizes: a defect on 1%% of a decade's inputs escapes with "
            "probability < 1e-6). Default: full for --adapter and entry points, round0 for the "
            "built-in libraries",
        },
    ),
    (
        "--json",
        {
            "type": Path,
            "metavar": "FILE",
            "help": "also write every result, with inputs, expected and returned values, as JSON to "
            "FILE ('-' for stdout), from the same run as the report",
        },
    ),
    (
        "--stdout",
        {
            "action": "store_true",
            "help": f"print the report instead of writing {REPORT} (implied by --libraries/--metrics/"
            "--adapter)",
        },
    ),
    (
        "--jobs",
        {
            "type": int,
            "default": 2,
            "help": "libraries run at once (default 2)",
        },
    ),
    (
        "--time-limit",
        {
            "type": float,
            "default": 60.0,
            "help": "CPU seconds (user + system, the library's subprocesses included) per vector "
            "before the library is stopped and the vector counted as not run (time) (default 60)",
        },
    ),
    (
        "--wall-limit",
        {
            "type": float,
            "default": None,
            "help": "wall seconds without a result before a vector counts as hung and not run (time) "
            "(default 10 times --time-limit, at least 600)",
        },
    ),
    (
        "--memory-mb",
        {
            "type": int,
            "default": 4096,
            "help": "address-space cap of each library process in MiB (default 4096; 0 for none)",
        },
    ),
    (
        "--rerender",
        {
            "action": "store_true",
            "help": "write reports/conformance.md again from reports/conformance_results.json with the "
            "current classification, diagnosis and text, keeping the recorded run's cost line; the "
            "libraries are not run (after a change to the diagnosis or the report's text)",
        },
    ),
    (
        "--write-vectors",
        {
            "action": "store_true",
            "help": "regenerate the vectors from the oracle, then stop",
        },
    ),
    (
        "--export",
        {
            "type": Path,
            "metavar": "DIR",
            "help": "copy the plain-JSON vectors, schema, tcId record and README to DIR, then stop",
        },
    ),
)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``prtheory conformance`` and its options (:data:`OPTIONS`) to the ``prtheory`` command.

    Parameters
    ----------
    sub : argparse subparsers
        The ``prtheory`` command's sub-commands.

    Returns
    -------
    None
        The sub-command is added to ``sub``.

    Examples
    --------
    >>> import argparse
    >>> from prtheory.conformance.cli import register
    >>> parser = argparse.ArgumentParser(prog="prtheory")
    >>> register(parser.add_subparsers())
    >>> args = parser.parse_args(["conformance", "--stdout"])
    >>> args.stdout, args.func.__name__
    (True, '_main')
    """
    p = sub.add_parser(
        "conformance",
        help="check metric libraries against the oracle's test vectors; write reports/conformance.md",
        description="Run metric libraries (scikit-learn, torchmetrics, trec_eval, Spark MLlib, "
        "R's packages, ...) over the oracle's test vectors, each library in a process of its "
        "own with a CPU-time limit per vector, and classify every result: agrees, agrees under "
        "a named convention, float32-level, wrong, crashed, not run. Writes "
        "reports/conformance.md (or prints it with --stdout); exit status 1 when a result is "
        "of a kind --fail-on names.",
        epilog=_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    for flag, options in OPTIONS:
        p.add_argument(flag, **options)
    p.add_argument("--root", type=Path, default=Path.cwd(), help="project root (default: cwd)")
    p.set_defaults(func=_main)


def _progress_line(counts: dict[str, tuple[int, int]]) -> None:
    parts = [f"{lib} {done}/{total}" for lib, (done, total) in sorted(counts.items())]
    sys.stderr.write("\r" + " | ".join(parts)[-150:].ljust(150))
    sys.stderr.flush()


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
    if args.rerender:
        return _rerender(args.root)
    return _run(args)


def _rerender(root: Path) -> int:
    """The report rendered again from the recorded results (``--rerender``)."""
    from prtheory.conformance.record import RESULTS, loads
    from prtheory.conformance.report import RUN_TIME, insert_run_time, render

    path = root / REPORT
    cost = [line for line in path.read_text("utf-8").splitlines() if line.startswith(RUN_TIME)]
    text = render(loads((root / RESULTS).read_text("utf-8")))
    path.write_text(insert_run_time(text, cost[0]) if cost else text, "utf-8")
    print(f"wrote {path} from {root / RESULTS}")
    return 0


def _sources(args: argparse.Namespace) -> list[str]:
    """The libraries to run: ``--libraries`` and ``--adapter`` (alone, only the adapters)."""
    return [*(args.libraries or []), *args.adapter]


def _run(args: argparse.Namespace) -> int:
    """Run the libraries, write the report (or print it) and the JSON, then apply the gate."""
    from prtheory.conformance.isolated import run_isolated
    from prtheory.errors import InvalidInputError

    tty = sys.stderr.isatty()
    t0, cpu0 = time.perf_counter(), _own_cpu()
    try:
        result = run_isolated(
            _sources(args) or None,
            args.metrics,
            jobs=args.jobs,
            time_limit=args.time_limit,
            memory_mb=args.memory_mb or None,
            progress=_progress_line if tty else None,
            wall_limit=args.wall_limit,
            differential=args.differential,
        )
    except InvalidInputError as exc:
        print(f"prtheory conformance: {exc}", file=sys.stderr)
        return 2
    if tty:
        sys.stderr.write("\r" + " " * 150 + "\r")
    print(ran_line(result), file=sys.stderr)
    _write(args, result, time.perf_counter() - t0, _own_cpu() - cpu0)
    return _gate(result, args.fail_on, args.allow_missing)


def _own_cpu() -> float:
    """CPU seconds (user + system) of this process, its threads included."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _write(args: argparse.Namespace, result: Any, wall: float, own_cpu: float) -> None:
    """The JSON results (``--json``) and the report: printed for a subset run, else written."""
    from prtheory.conformance.report import render, results_json, with_run_time

    if args.json is not None:
        text = json.dumps(results_json(result), indent=1) + "\n"
        if str(args.json) == "-":
            sys.stdout.write(text)
        else:
            args.json.write_text(text, encoding="utf-8")
    if str(args.json) == "-":
        return
    report = render(result)
    if args.stdout or args.libraries or args.metrics or args.adapter:
        print(report, end="")
        return
    from prtheory.conformance.record import RESULTS, dumps

    path = args.root / REPORT
    path.parent.mkdir(parents=True, exist_ok=True)
    cpu = own_cpu + sum(sum(c.values()) for c in result.cpu.values())
    path.write_text(with_run_time(report, wall, args.jobs, cpu, result.cpu), "utf-8")
    (args.root / RESULTS).write_text(dumps(result), "utf-8")
    print(f"wrote {path} and {args.root / RESULTS}")


def ran_line(result: Any) -> str:
    """How many results ran per library, and which did not run: the summary's first line."""
    counts: dict[str, int] = {}
    for r in [*result.rows, *result.differential]:
        counts[r.library] = counts.get(r.library, 0) + 1
    ran = [f"{s.library} {counts.get(s.library, 0)}" for s in result.statuses if s.available]
    missing = [f"{s.library} ({s.reason})" for s in result.statuses if not s.available]
    text = "prtheory conformance: results per library: " + (", ".join(ran) or "none")
    return text + (f"; not run: {', '.join(missing)}" if missing else "")


def missing_libraries(result: Any, allowed: list[str]) -> list[str]:
    """Libraries not run, or run with no result, that ``allowed`` does not name (by adapter key,
    library name or source)."""
    counts: dict[str, int] = {}
    for r in [*result.rows, *result.differential]:
        counts[r.library] = counts.get(r.library, 0) + 1
    out = []
    for s in result.statuses:
        if {s.key, s.library} & set(allowed):
            continue
        if not s.available:
            out.append(f"{s.library}: not run ({s.reason})")
        elif not counts.get(s.library):
            out.append(f"{s.library}: no result")
    return out


def _gate(result: Any, kinds: tuple[str, ...], allowed: list[str] | None = None) -> int:
    """Exit status of ``--fail-on``, with what failed on stderr (mechanisms from the same
    diagnosis as the report)."""
    from prtheory.conformance.attribution import attributions

    named = attributions(result)
    failing = []
    for r in result.rows:
        attributed = named.get((r.library, r.implementation, r.metric, r.vector.ident))
        mechanism = None if attributed is None else attributed[0]
        if _fails(r, kinds, mechanism):
            failing.append((r, mechanism))
    tests = [t for t in result.differential if t.verdict.category in kinds]
    missing = missing_libraries(result, list(allowed or [])) if "missing" in kinds else []
    if not failing and not tests and not missing:
        return 0
    for text in missing:
        print(
            f"prtheory conformance: {text} (--fail-on missing; --allow-missing to accept)",
            file=sys.stderr,
        )
    for t in tests:
        print(
            f"prtheory conformance: {t.library} `{t.implementation}`: differential test "
            f"{t.verdict.category}: {t.verdict.detail}",
            file=sys.stderr,
        )
    if failing:
        _report_failing(failing)
    return 1


def _report_failing(failing: list[tuple[Any, str | None]]) -> None:
    """The failing results by kind, and the undeclared mechanisms that explain some."""
    kinds_seen = sorted({r.verdict.category for r, _ in failing})
    print(
        f"prtheory conformance: {len(failing)} result(s) of kind {', '.join(kinds_seen)} "
        f"(--fail-on)",
        file=sys.stderr,
    )
    undeclared: dict[str, int] = {}
    for r, name in failing:
        if r.verdict.category == "convention":
            key = name or "no mechanism"
            undeclared[key] = undeclared.get(key, 0) + 1
    if undeclared:
        text = ", ".join(f"{k} ({n})" for k, n in sorted(undeclared.items()))
        print(f"  explained only by undeclared mechanisms: {text}", file=sys.stderr)
