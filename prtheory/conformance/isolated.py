"""Run each library in its own process, with a time limit per vector and a memory cap.

A library that hangs, crashes the interpreter (a segfault in compiled code) or exhausts memory on
one vector must not stop the run. :func:`run_isolated` starts one worker process per library
(``jobs`` of them at a time). The worker imports the library, then for each (implementation,
vector) pair announces the pair, runs it (:func:`~prtheory.conformance.runner.run_implementation`)
and sends back the classified result. The parent waits at most ``time_limit`` seconds per pair;
when a pair overruns, or the worker dies, that pair is recorded as ``crashed`` with what happened
("timed out after 30 s", "the process died with signal 11", "ran out of memory"), the
worker is replaced, and the run continues with the next pair. The memory cap is an address-space
limit (``RLIMIT_AS``) set in the worker at its starting size plus ``memory_mb``; where
:mod:`resource` is missing it is not applied.

Libraries are named by adapter key (:data:`~prtheory.conformance.adapters.ADAPTERS`), by an
entry point of the group ``prtheory.adapters``, or as ``module:callable`` (a callable returning a
list of :class:`~prtheory.conformance.adapters.Implementation`).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import multiprocessing
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, Literal

from prtheory.conformance.adapters import (
    ADAPTERS,
    Implementation,
    LibraryStatus,
    implementations,
    status,
)
from prtheory.conformance.classify import Verdict, classify
from prtheory.conformance.runner import Row, Run, extra_alternatives, run_implementation
from prtheory.conformance.vectors_io import Vector, files, load
from prtheory.errors import InvalidInputError

__all__ = ["ENTRY_POINT_GROUP", "Progress", "known_libraries", "run_isolated"]

ENTRY_POINT_GROUP = "prtheory.adapters"
#: rough seconds each built-in library takes on the full run, to start the slowest first
_COST = {
    "spark": 120,
    "ranx": 40,
    "pycm": 40,
    "xgboost": 30,
    "pytrec_eval": 27,
    "proc": 20,
    "rocr": 20,
    "river": 15,
    "keras": 12,
    "pyprg": 10,
    "torchmetrics": 9,
}
IMPORT_LIMIT = 300.0  # seconds to import a library (torch and Keras take several)


def _entry_points() -> dict[str, Any]:
    return {ep.name: ep for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}


def known_libraries() -> list[str]:
    """The built-in adapter keys, then the adapters registered as entry points."""
    return [*ADAPTERS, *sorted(k for k in _entry_points() if k not in ADAPTERS)]


def _resolve(source: str) -> Callable[[], list[Implementation]]:
    if source in ADAPTERS:
        return lambda: implementations(source)
    eps = _entry_points()
    if source in eps:
        return eps[source].load()
    module, sep, attr = source.partition(":")
    if not sep or not module or not attr:
        raise InvalidInputError(
            "libraries",
            f"unknown {source!r}: not one of {', '.join(known_libraries())}, and not MODULE:CALLABLE",
        )
    obj: Any = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


def _status(source: str) -> LibraryStatus:
    if source in ADAPTERS:
        return status(source)
    try:
        dist = source.partition(":")[0].split(".")[0]
        version = importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        version = None
    return LibraryStatus(source, source, source, version, True, "")


def _pairs(impl_metrics: list[str], vectors: list[Vector]) -> list[tuple[int, int]]:
    """(implementation, vector) index pairs in run order; the worker and the parent agree."""
    return [
        (i, j)
        for i, metric in enumerate(impl_metrics)
        for j, v in enumerate(vectors)
        if v.metric == metric
    ]


def _address_space() -> int:
    """This process's current virtual memory size in bytes (0 where /proc is missing)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:  # pragma: no cover - not Linux
        pass
    return 0


def _limit_memory(memory_mb: int | None) -> None:
    """Allow the worker ``memory_mb`` MiB of address space beyond what it has at the start (a
    forked worker inherits its parent's mappings, which torch alone makes several GiB)."""
    if not memory_mb:
        return
    try:
        import resource
    except ImportError:  # pragma: no cover - not on POSIX
        return
    cap = _address_space() + memory_mb * 2**20
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


def _worker(
    source: str, metrics: list[str] | None, start: int, conn: Any, memory_mb: int | None
) -> None:
    """Runs in the child: import, then announce, run and report each pair from ``start``."""
    import faulthandler

    faulthandler.disable()  # a library's segfault is reported by the parent, without a dump
    try:
        _limit_memory(memory_mb)
        impls = list(_resolve(source)())
        vectors = list(load(metrics))
        for impl in impls:  # batch work, under the import time limit rather than a vector's
            if impl.prepare is not None and (metrics is None or impl.metric in metrics):
                impl.prepare()
    except BaseException as exc:  # the library could not be imported: say so, then stop
        conn.send(("import-error", f"{type(exc).__name__}: {exc}"))
        return
    pairs = _pairs([m.metric for m in impls], vectors)
    conn.send(("plan", [(m.library, m.name, m.metric, m.conventions) for m in impls], len(pairs)))
    for n in range(start, len(pairs)):
        i, j = pairs[n]
        conn.send(("start", n))
        try:
            outcome = run_implementation(impls[i], vectors[j])
            if isinstance(outcome.error, MemoryError):
                raise outcome.error
            extra = extra_alternatives(impls[i], vectors[j])
            verdict = classify(vectors[j], outcome, extra)
            conn.send(("row", n, verdict, outcome.value, tuple(outcome.warnings), extra))
        except MemoryError:
            cap = f" (cap {memory_mb} MiB)" if memory_mb else ""
            conn.send(("row", n, Verdict("crashed", f"ran out of memory{cap}"), None, (), {}))
    conn.send(("done",))


@dataclass
class Progress:
    """Counts shown while a run goes on: library -> (pairs done, pairs planned)."""

    counts: dict[str, tuple[int, int]]
    lock: threading.Lock
    show: Callable[[dict[str, tuple[int, int]]], None] | None = None

    def update(self, library: str, done: int, total: int) -> None:
        with self.lock:
            self.counts[library] = (done, total)
            if self.show is not None:
                self.show(dict(self.counts))


def _start_method() -> Literal["fork", "forkserver", "spawn"]:
    """fork where it is safe from the parent's threads (before Python 3.12, which deprecates
    fork in a threaded process), else forkserver, else spawn."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and sys.version_info < (3, 12):
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def _run_library(
    source: str,
    metrics: list[str] | None,
    vectors: list[Vector],
    time_limit: float,
    memory_mb: int | None,
    progress: Progress | None,
) -> tuple[LibraryStatus, list[Row], str | None]:
    st = _status(source)
    if not st.available:
        return st, [], None
    ctx = multiprocessing.get_context(_start_method())
    rows: dict[int, Row] = {}
    plan: list[tuple[str, str, str, tuple[str, ...]]] = []
    pairs: list[tuple[int, int]] = []
    start, total = 0, None
    while total is None or start < total:
        parent, child = ctx.Pipe(duplex=False)
        # typeshed types get_context(method) as BaseContext, which declares no Process; each
        # concrete context (fork, forkserver, spawn) has one
        proc = ctx.Process(  # type: ignore[attr-defined]
            target=_worker, args=(source, metrics, start, child, memory_mb)
        )
        proc.start()
        child.close()
        current: int | None = None
        limit = IMPORT_LIMIT
        failure = None
        while True:
            if not parent.poll(limit):
                failure = f"timed out after {limit:g} s (killed)"
                break
            try:
                msg = parent.recv()
            except EOFError:
                proc.join(5)
                code = proc.exitcode
                failure = (
                    f"the process died with signal {-code}"
                    if code is not None and code < 0
                    else f"the process exited with code {code}"
                )
                break
            kind = msg[0]
            if kind == "import-error":
                proc.join(5)
                if total is None:  # the library itself does not import
                    st = replace(st, available=False, reason=f"import failed: {msg[1]}")
                    return st, [], msg[1]
                failure = f"the library failed to import again: {msg[1]}"
                break
            if kind == "plan":
                plan, total = msg[1], msg[2]
                pairs = _pairs([meta[2] for meta in plan], vectors)
                limit = time_limit
            elif kind == "start":
                current = msg[1]
            elif kind == "row":
                n, verdict, value, warns, extra = msg[1:]
                i, j = pairs[n]
                library, name, metric, conventions = plan[i]
                rows[n] = Row(
                    library, name, metric, vectors[j], verdict, value, warns, conventions, extra
                )
                current = None
                start = n + 1
                if progress is not None:
                    progress.update(st.library, len(rows), total or 0)
            elif kind == "done":
                break
        if proc.is_alive():
            proc.kill()
        proc.join()
        parent.close()
        if failure is None:
            break
        if total is None:  # it never got as far as a plan
            st = replace(st, available=False, reason=f"import failed: {failure}")
            return st, [], failure
        if current is not None:
            i, j = pairs[current]
            library, name, metric, conventions = plan[i]
            rows[current] = Row(
                library,
                name,
                metric,
                vectors[j],
                Verdict("crashed", failure),
                None,
                (),
                conventions,
            )
            start = current + 1
    if plan and st.library == source:  # a user adapter: name it after its implementations
        st = replace(st, library=plan[0][0])
    return st, [rows[n] for n in sorted(rows)], None


def run_isolated(
    libraries: list[str] | None = None,
    metrics: list[str] | None = None,
    *,
    jobs: int = 2,
    time_limit: float = 60.0,
    memory_mb: int | None = 4096,
    progress: Callable[[dict[str, tuple[int, int]]], None] | None = None,
) -> Run:
    """Every named library (default: all known) over the vectors of ``metrics``, each isolated.

    Unknown metric or library names raise :class:`~prtheory.errors.InvalidInputError`.
    """
    names = [p.stem for p in files()]
    unknown = [m for m in metrics or [] if m not in names]
    if unknown:
        raise InvalidInputError("metrics", f"unknown {unknown}; known: {', '.join(names)}")
    sources = libraries if libraries else known_libraries()
    for s in sources:
        if s not in ADAPTERS and s not in _entry_points() and ":" not in s:
            raise InvalidInputError(
                "libraries", f"unknown {s!r}; known: {', '.join(known_libraries())}"
            )
    vectors = list(load(metrics))
    # longest first, so that two workers finish together (seconds measured here on the full run)
    order = sorted(range(len(sources)), key=lambda i: -_COST.get(sources[i], 10))
    prog = Progress({}, threading.Lock(), progress)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        done = dict(
            zip(
                order,
                pool.map(
                    lambda i: _run_library(
                        sources[i], metrics, vectors, time_limit, memory_mb, prog
                    ),
                    order,
                ),
                strict=True,
            )
        )
    results = [done[i] for i in range(len(sources))]
    statuses = [st for st, _, _ in results]
    rows = [r for _, rs, _ in results for r in rs]
    errors = {s: err for s, (_, _, err) in zip(sources, results, strict=True) if err}
    return Run(statuses, rows, errors)
