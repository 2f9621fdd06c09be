"""Run each library in its own process, with CPU-time limits per vector and a memory cap.

A library that hangs, crashes the interpreter (a segfault in compiled code) or exhausts memory on
one vector must not stop the run, and a slow machine must not change a verdict.
:func:`run_isolated` starts one worker process per library (``jobs`` of them at a time). The
worker starts the library up -- imports it, runs each implementation's ``prepare`` and calls each
implementation once on a small vector, so that a JVM, numba or torch compilation happens then --
under the start-up limits (:data:`STARTUP_CPU` seconds of CPU); then for each unit (an
(implementation, vector) pair, or an implementation's differential test,
:func:`~prtheory.conformance.runner.run_differential`) it announces the unit, runs it and sends
back the classified result. The parent charges each unit the CPU time (user + system) of the
worker's process tree (a JVM or an ``Rscript``/``java`` subprocess included, and the orphans of
the tree, which the worker adopts and waits for: :func:`~prtheory.conformance.cputime.run_reaping`;
:mod:`prtheory.conformance.cputime`) from its announcement; a unit over ``cpu`` seconds, or with
no result after ``wall`` seconds (a hang that uses no CPU), is recorded as ``timeout``: *not run
(time)*, with what it cost. A worker that dies is recorded as ``crashed`` with what happened
("the process died with signal 11", "ran out of memory"). Either way the worker is replaced (its
start-up charged to the start-up again, never to a vector) and the run continues with the next
unit; a worker whose external server died (:func:`~prtheory.conformance.external.any_died`)
ends after that unit's result and is replaced the same way. The CPU time of each library's
start-up and units is kept in
:attr:`~prtheory.conformance.runner.Run.cpu`.

The memory cap is an address-space limit (``RLIMIT_AS``) set in the worker at its starting size
plus ``memory_mb``; where :mod:`resource` is missing it is not applied.

Libraries are named by adapter key (:data:`~prtheory.conformance.adapters.ADAPTERS`), by an
entry point of the group ``prtheory.adapters``, or as ``module:callable`` (a callable returning a
list of :class:`~prtheory.conformance.adapters.Implementation`).
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import multiprocessing
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from prtheory.conformance import differential as diff
from prtheory.conformance import external
from prtheory.conformance.adapters import (
    ADAPTERS,
    Implementation,
    LibraryStatus,
    implementations,
    status,
)
from prtheory.conformance.classify import Verdict, classify
from prtheory.conformance.cputime import Budget, descendants, run_reaping
from prtheory.conformance.metrics import selected_metrics
from prtheory.conformance.runner import (
    PLANS,
    DifferentialRow,
    Row,
    Run,
    error_of,
    extra_alternatives,
    run_differential,
    run_implementation,
)
from prtheory.conformance.vectors_io import Vector, load
from prtheory.errors import InvalidInputError

__all__ = [
    "ENTRY_POINT_GROUP",
    "Limits",
    "Progress",
    "default_plan",
    "known_libraries",
    "run_isolated",
]

ENTRY_POINT_GROUP = "prtheory.adapters"
#: rough CPU seconds each built-in library takes on the full run, to start the slowest first
_COST = {
    "spark": 40,
    "ranx": 10,
    "pytrec_eval": 10,
    "keras": 10,
    "torchmetrics": 10,
    "pycm": 10,
    "xgboost": 8,
    "proc": 5,
    "rocr": 5,
    "river": 4,
}
STARTUP_CPU = 300.0  # CPU seconds to start a library (torch, Keras and a JVM take several)
STARTUP_WALL = 1800.0  # wall seconds before a start-up that uses no CPU counts as hung
DIFFERENTIAL_CPU = 600.0  # CPU seconds at least for a differential test (the full plan)
POLL = 0.5  # seconds between two looks at a worker's CPU time
EXIT_GRACE = 60.0  # wall seconds a worker that finished has to exit before it is killed
Unit = tuple[int, int]  # (implementation index, vector index; -1 for the differential test)


def _entry_points() -> dict[str, Any]:
    return {ep.name: ep for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}


def known_libraries() -> list[str]:
    """The built-in adapter keys, then the adapters registered as entry points.

    Returns
    -------
    list of str
        :data:`~prtheory.conformance.adapters.ADAPTERS` in order, then the names of the entry
        points of the group ``prtheory.adapters`` (sorted) that are not built-in keys.

    Examples
    --------
    >>> from prtheory.conformance.adapters import ADAPTERS
    >>> from prtheory.conformance.isolated import known_libraries
    >>> known_libraries()[: len(ADAPTERS)] == list(ADAPTERS)
    True
    >>> known_libraries()[:3]
    ['sklearn', 'torchmetrics', 'torcheval']
    """
    return [*ADAPTERS, *sorted(k for k in _entry_points() if k not in ADAPTERS)]


def _resolve(source: str) -> Callable[[], list[Implementation]]:
    if source in ADAPTERS:
        return lambda: implementations(source)
    eps = _entry_points()
    if source in eps:
        loaded: Callable[[], list[Implementation]] = eps[source].load()
        return loaded
    module, sep, attr = source.partition(":")
    if not sep or not module or not attr:
        raise InvalidInputError(
            "libraries",
            f"unknown {source!r}: not one of {', '.join(known_libraries())}, and not MODULE:CALLABLE",
        )
    obj: Any = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    resolved: Callable[[], list[Implementation]] = obj
    return resolved


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


def _units(impls: list[Implementation], vectors: list[Vector], plan: str) -> list[Unit]:
    """The work of a library in run order: (implementation, vector) pairs, then each
    implementation's differential test (vector index -1) where ``plan`` is not ``"none"``, its
    metric has one and its vectors were selected; the worker and the parent agree on it."""
    pairs = _pairs([m.metric for m in impls], vectors)
    selected = {v.metric for v in vectors}
    tests = [
        (i, -1)
        for i, m in enumerate(impls)
        if plan != "none" and m.metric in diff.METRICS and m.metric in selected
    ]
    return pairs + tests


def _warm_up(impls: list[Implementation], vectors: list[Vector]) -> None:
    """Call each implementation once on the smallest valid vector of its metric, so that its
    one-time costs (a JVM, numba or torch compilation) fall in the start-up, not on a vector."""
    for impl in impls:
        valid = [
            v
            for v in vectors
            if v.metric == impl.metric and v.result == "valid" and v.inputs.y_score is not None
        ]
        if valid:
            run_implementation(impl, min(valid, key=lambda v: len(v.inputs.scores)))


def _start_up(
    source: str, metrics: list[str] | None, memory_mb: int | None
) -> tuple[list[Implementation], list[Vector]]:
    """Import the library, load the vectors, prepare and warm up each implementation."""
    _limit_memory(memory_mb)
    impls = list(_resolve(source)())
    vectors = list(load(metrics))
    for impl in impls:  # batch work, under the start-up limit rather than a vector's
        if impl.prepare is not None and (metrics is None or impl.metric in metrics):
            impl.prepare()
    _warm_up(impls, vectors)
    return impls, vectors


def _run_unit(impl: Implementation, vector: Vector | None, plan: str) -> tuple[Any, ...]:
    """The message reporting one unit: a classified row, or a differential test."""
    if vector is None:
        return ("diff", run_differential(impl, plan))
    outcome = run_implementation(impl, vector)
    if isinstance(outcome.error, MemoryError):
        raise outcome.error
    extra = extra_alternatives(impl, vector)
    verdict = classify(vector, outcome, extra)
    return ("row", verdict, outcome.value, tuple(outcome.warnings), extra, error_of(outcome))


def _worker(
    source: str,
    metrics: list[str] | None,
    start: int,
    conn: Any,
    memory_mb: int | None,
    plan: str,
) -> None:
    """Runs in the child: :func:`_work` in a child of its own, this process adopting and
    reaping the orphans of its tree so that their CPU time is charged
    (:func:`~prtheory.conformance.cputime.run_reaping`)."""
    work = functools.partial(_work, source, metrics, start, conn, memory_mb, plan)
    run_reaping(work, close=(conn,))


def _work(
    source: str,
    metrics: list[str] | None,
    start: int,
    conn: Any,
    memory_mb: int | None,
    plan: str,
) -> None:
    """Start up, then announce, run and report each unit from ``start``."""
    import faulthandler

    faulthandler.disable()  # a library's segfault is reported by the parent, without a dump
    try:
        impls, vectors = _start_up(source, metrics, memory_mb)
    except BaseException as exc:  # the library could not be imported: say so, then stop
        conn.send(("import-error", f"{type(exc).__name__}: {exc}"))
        return
    units = _units(impls, vectors, plan)
    conn.send(("plan", [(m.library, m.name, m.metric, m.conventions) for m in impls], len(units)))
    for n in range(start, len(units)):
        i, j = units[n]
        conn.send(("start", n))
        try:
            kind, *payload = _run_unit(impls[i], vectors[j] if j >= 0 else None, plan)
        except MemoryError:
            cap = f" (cap {memory_mb} MiB)" if memory_mb else ""
            kind, payload = (
                "row",
                [Verdict("crashed", f"ran out of memory{cap}"), None, (), {}, None],
            )
        conn.send((kind, n, *payload))
        if external.any_died():  # a replacement starts the server in its own start-up
            return
    conn.send(("done",))


@dataclass
class Progress:
    """Counts shown while a run goes on: library -> (units done, units planned), passed to
    ``show`` (the ``progress`` callback of :func:`run_isolated`) after every unit.

    Examples
    --------
    >>> import threading
    >>> from prtheory.conformance.isolated import Progress
    >>> progress = Progress({}, threading.Lock(), show=print)
    >>> progress.update("mine", 1, 6)
    {'mine': (1, 6)}
    >>> progress.update("theirs", 2, 4)
    {'mine': (1, 6), 'theirs': (2, 4)}
    """

    counts: dict[str, tuple[int, int]]
    lock: threading.Lock
    show: Callable[[dict[str, tuple[int, int]]], None] | None = None

    def update(self, library: str, done: int, total: int) -> None:
        """Record ``done`` of ``total`` units for ``library``.

        Parameters
        ----------
        library : str
            The library's name.
        done : int
            Units with a result.
        total : int
            Units planned.
        """
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


@dataclass(frozen=True)
class Limits:
    """Per-unit CPU seconds (``cpu``), the wall-time backstop for a hang (``wall``), the
    library's start-up limits, the memory cap, and the differential plan of each library
    (:data:`~prtheory.conformance.runner.PLANS`; ``None``: :func:`default_plan`).

    Examples
    --------
    A vector gets ``cpu`` seconds; a differential test at least :data:`DIFFERENTIAL_CPU`
    (600) and ten times that of wall time:

    >>> from prtheory.conformance.isolated import Limits
    >>> limits = Limits(cpu=2.0, wall=60.0)
    >>> limits.unit(False).cpu_limit, limits.unit(False).wall_limit
    (2.0, 60.0)
    >>> limits.unit(True).cpu_limit, limits.unit(True).wall_limit
    (600.0, 6000.0)
    >>> limits.plan("sklearn"), Limits(differential="none").plan("sklearn")
    ('round0', 'none')
    """

    cpu: float = 60.0
    wall: float = 600.0
    startup_cpu: float = STARTUP_CPU
    startup_wall: float = STARTUP_WALL
    memory_mb: int | None = 4096
    differential: str | None = None

    def plan(self, source: str) -> str:
        """The differential plan of the library ``source``.

        Parameters
        ----------
        source : str
            An adapter key, entry point name or ``module:callable``.

        Returns
        -------
        str
            ``differential`` where set, else :func:`default_plan` of ``source``.
        """
        return self.differential or default_plan(source)

    def unit(self, differential: bool) -> Budget:
        """The limits of one unit: a differential test (thousands of inputs under the full
        plan) gets at least :data:`DIFFERENTIAL_CPU` seconds of CPU.

        Parameters
        ----------
        differential : bool
            Whether the unit is a differential test (else one vector).

        Returns
        -------
        Budget
            Not started (:meth:`~prtheory.conformance.cputime.Budget.start`).
        """
        if not differential:
            return Budget(self.cpu, self.wall)
        cpu = max(self.cpu, DIFFERENTIAL_CPU)
        return Budget(cpu, max(self.wall, 10 * cpu))


def default_plan(source: str) -> str:
    """``"round0"`` for the built-in libraries (dozens of implementations, some at 0.5 s a
    call: the full plan would cost hours), ``"full"`` for your own adapters (``--adapter``,
    entry points), whose verdict then carries the guarantee of
    :mod:`prtheory.conformance.differential`.

    Parameters
    ----------
    source : str
        An adapter key, entry point name or ``module:callable``.

    Returns
    -------
    str
        ``"round0"`` or ``"full"``.

    Examples
    --------
    >>> from prtheory.conformance.isolated import default_plan
    >>> default_plan("sklearn"), default_plan("mypackage.adapter:implementations")
    ('round0', 'full')
    """
    return "round0" if source in ADAPTERS else "full"


@dataclass
class _LibraryRun:
    """The parent's side of one library: workers started one after another (a replacement
    after a unit that crashed or ran out of time), the results gathered, the CPU counted."""

    source: str
    metrics: list[str] | None
    vectors: list[Vector]
    limits: Limits
    progress: Progress | None
    status: LibraryStatus
    rows: dict[int, Row] = field(default_factory=dict)
    tests: dict[int, DifferentialRow] = field(default_factory=dict)
    plan: list[tuple[str, str, str, tuple[str, ...]]] = field(default_factory=list)
    units: list[Unit] = field(default_factory=list)
    total: int | None = None
    next_unit: int = 0
    cpu: dict[str, float] = field(default_factory=lambda: {"start-up": 0.0, "vectors": 0.0})

    error: str | None = None

    def run(self) -> None:
        """Workers until every unit has a result, the library does not start, or a
        replacement worker cannot start again (the units left are then crashed)."""
        while self.total is None or self.next_unit < self.total:
            before = self.next_unit
            failure = self._one_worker()
            if failure is None:
                break
            if self.total is None:  # it never got as far as a plan
                reason = f"import failed: {failure}"
                self.status = replace(self.status, available=False, reason=reason)
                self.error = failure
                return
            if self.next_unit == before:  # no progress: it no longer starts
                for n in range(self.next_unit, self.total):
                    self._fail_unit(n, Verdict("crashed", failure))
        if self.plan and self.status.library == self.source:  # a user adapter: name it
            self.status = replace(self.status, library=self.plan[0][0])

    def sorted_rows(self) -> list[Row]:
        """The classified rows in plan order."""
        return [self.rows[n] for n in sorted(self.rows)]

    def sorted_tests(self) -> list[DifferentialRow]:
        """The differential tests in plan order."""
        return [self.tests[n] for n in sorted(self.tests)]

    def _one_worker(self) -> str | None:
        """Start a worker at the next unit and serve it; what stopped it early, or None."""
        ctx = multiprocessing.get_context(_start_method())
        parent, child = ctx.Pipe(duplex=False)
        args = (self.source, self.metrics, self.next_unit, child, self.limits.memory_mb)
        # typeshed types get_context(method) as BaseContext, which declares no Process; each
        # concrete context (fork, forkserver, spawn) has one
        plan = self.limits.plan(self.source)
        proc = ctx.Process(target=_worker, args=(*args, plan))  # type: ignore[attr-defined]
        # the start-up is charged from the worker's birth, when its tree had used no CPU: a
        # first reading after start() would miss what the worker did before this thread ran
        # again (on a loaded machine, however long this thread waits for a core)
        budget = Budget(self.limits.startup_cpu, self.limits.startup_wall, 0.0, time.monotonic())
        proc.start()
        child.close()
        failure: str | None = "stopped"
        try:
            failure = self._serve(proc, parent, budget)
            return failure
        finally:
            _kill_tree(proc, EXIT_GRACE if failure is None else 0.0)
            parent.close()

    def _serve(self, proc: Any, conn: Any, budget: Budget) -> str | None:
        """Read the worker's messages under the current phase's budget (first the start-up's,
        ``budget``)."""
        limits = self.limits
        phase, current = "start-up", None
        while True:
            if not conn.poll(POLL):
                over = budget.exceeded(proc.pid)
                if over is None:
                    continue
                self._charge(phase, budget, proc.pid)
                return self._time_out(current, over)
            try:
                msg = conn.recv()
            except EOFError:
                self._charge(phase, budget, proc.pid)
                return self._died(proc, current)
            kind = msg[0]
            if kind == "import-error":
                again = "" if self.total is None else "the library failed to start again: "
                failure: str = again + msg[1]
                return failure
            if kind == "plan":  # still the start-up: charged once, at the first unit
                self._planned(msg[1], msg[2])
                continue
            if kind in ("start", "done"):
                self._charge(phase, budget, proc.pid)
                if kind == "done":
                    return None
                current, phase = msg[1], "vectors"
                budget = limits.unit(self.units[current][1] < 0).start(proc.pid)
                continue
            self._record(kind, msg[1], msg[2:])
            current = None

    def _charge(self, phase: str, budget: Budget, pid: int) -> None:
        self.cpu[phase] += max(0.0, budget.used(pid)[0])

    def _planned(self, plan: list[tuple[str, str, str, tuple[str, ...]]], total: int) -> None:
        self.plan, self.total = plan, total
        impls = [
            Implementation(lib, name, metric, _never, conv) for lib, name, metric, conv in plan
        ]
        self.units = _units(impls, self.vectors, self.limits.plan(self.source))

    def _record(self, kind: str, n: int, payload: tuple[Any, ...]) -> None:
        """Store a unit's result and move past it."""
        i, j = self.units[n]
        library, name, metric, conventions = self.plan[i]
        if kind == "diff":
            self.tests[n] = payload[0]
        else:
            verdict, value, warns, extra, error = payload
            self.rows[n] = Row(
                library,
                name,
                metric,
                self.vectors[j],
                verdict,
                value,
                warns,
                conventions,
                extra,
                error,
            )
        self.next_unit = n + 1
        if self.progress is not None:
            self.progress.update(
                self.status.library, len(self.rows) + len(self.tests), self.total or 0
            )

    def _fail_unit(self, n: int | None, verdict: Verdict) -> None:
        """Record ``verdict`` for the unit that was running (if any) and move past it."""
        if n is None:
            return
        i, j = self.units[n]
        library, name, metric, conventions = self.plan[i]
        if j < 0:
            self.tests[n] = DifferentialRow(library, name, metric, conventions, verdict)
        else:
            self.rows[n] = Row(
                library, name, metric, self.vectors[j], verdict, None, (), conventions
            )
        self.next_unit = n + 1

    def _time_out(self, current: int | None, over: str) -> str:
        text = f"not run (time): {over}"
        self._fail_unit(current, Verdict("timeout", text))
        return text

    def _died(self, proc: Any, current: int | None) -> str:
        proc.join(5)
        code = proc.exitcode
        text = (
            f"the process died with signal {-code}"
            if code is not None and code < 0
            else f"the process exited with code {code}"
        )
        self._fail_unit(current, Verdict("crashed", text))
        return text


def _kill_tree(proc: Any, grace: float) -> None:
    """Stop a worker and every process it started (a JVM would outlive it otherwise), after
    ``grace`` seconds for a worker that finished to exit by itself (and clean up)."""
    import os
    import signal

    left = descendants(proc.pid) if proc.is_alive() else []
    proc.join(grace)
    if proc.is_alive():
        proc.kill()
    proc.join()
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            continue


def _never(x: Any) -> Any:  # pragma: no cover - the parent's copies of a plan are never run
    raise AssertionError("the parent does not run implementations")


def _checked(
    libraries: list[str] | None, metrics: list[str] | None, differential: str | None
) -> list[str]:
    """The libraries to run (all known by default), once every name is known; raises
    :class:`~prtheory.errors.InvalidInputError` naming the argument otherwise."""
    selected_metrics(metrics)
    sources = libraries if libraries else known_libraries()
    for s in sources:
        if s not in ADAPTERS and s not in _entry_points() and ":" not in s:
            raise InvalidInputError(
                "libraries", f"unknown {s!r}; known: {', '.join(known_libraries())}"
            )
    if differential is not None and differential not in PLANS:
        raise InvalidInputError("differential", f"unknown {differential!r}; known: {PLANS}")
    return sources


def run_isolated(
    libraries: list[str] | None = None,
    metrics: list[str] | None = None,
    *,
    jobs: int = 2,
    time_limit: float = 60.0,
    memory_mb: int | None = 4096,
    progress: Callable[[dict[str, tuple[int, int]]], None] | None = None,
    wall_limit: float | None = None,
    differential: str | None = None,
) -> Run:
    """Every named library (default: all known) over the vectors of ``metrics``, each in its own
    worker process with CPU-time limits per unit and a memory cap (module docstring).

    Parameters
    ----------
    libraries : list of str, optional
        Adapter keys, entry point names or ``module:callable`` (all known by default).
    metrics : list of str, optional
        The metrics whose vectors to run (all by default).
    jobs : int, default 2
        Libraries run at once.
    time_limit : float, default 60
        CPU seconds (user + system, the worker's process tree) per unit.
    memory_mb : int or None, default 4096
        MiB of address space a worker may add to its starting size (None: no cap).
    progress : callable, optional
        Called with library -> (units done, units planned) after every unit.
    wall_limit : float, optional
        Wall seconds before a unit counts as hung (10 ``time_limit``, at least 600).
    differential : str, optional
        Every library's plan (:data:`~prtheory.conformance.runner.PLANS`; :func:`default_plan`).

    Returns
    -------
    Run
        As :func:`~prtheory.conformance.runner.run`, with ``timeout``/``crashed`` rows, CPU times.

    Raises
    ------
    InvalidInputError
        An unknown metric, library or differential plan.

    Examples
    --------
    An own adapter of ``ap_min`` (the worst AP: sum of i/(neg + i), i <= pos, over pos) that
    spins on 10^6 negatives: that case uses up its 0.2 s of CPU, a new worker runs the rest.

    >>> import sys, tempfile
    >>> from pathlib import Path
    >>> from prtheory.conformance.isolated import run_isolated
    >>> folder = tempfile.TemporaryDirectory()
    >>> _ = (Path(folder.name) / "my_ap.py").write_text('''if True:
    ...     from fractions import Fraction as F
    ...     from prtheory.conformance.adapters import Implementation
    ...     def worst(x):
    ...         pos, neg = x.params["pos"], x.params["neg"]
    ...         while neg >= 10**6: pass
    ...         return float(sum(F(i, neg + i) for i in range(1, pos + 1)) / pos)
    ...     def implementations():
    ...         return [Implementation("mine", "worst AP", "ap_min", worst)]''')
    >>> sys.path.insert(0, folder.name)
    >>> done = run_isolated(["my_ap:implementations"], ["ap_min"], time_limit=0.2, differential="none")
    >>> [(r.vector.inputs.params["neg"], r.verdict.category) for r in done.rows]
    [(1, 'agrees'), (5, 'agrees'), (200, 'agrees'), (1000000, 'timeout'), (10, 'agrees'), (80, 'agrees')]
    >>> print(done.rows[3].verdict.detail)  # doctest: +ELLIPSIS
    not run (time): used ... s of CPU (limit 0.2 s)
    >>> sys.path.remove(folder.name); folder.cleanup()
    """
    sources = _checked(libraries, metrics, differential)
    wall = wall_limit if wall_limit is not None else max(600.0, 10 * time_limit)
    limits = Limits(time_limit, wall, memory_mb=memory_mb, differential=differential)
    vectors = list(load(metrics))
    # longest first, so that two workers finish together
    order = sorted(range(len(sources)), key=lambda i: -_COST.get(sources[i], 5))
    prog = Progress({}, threading.Lock(), progress)
    runs = [_LibraryRun(s, metrics, vectors, limits, prog, _status(s)) for s in sources]
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(lambda i: runs[i].run() if runs[i].status.available else None, order))
    return _gathered(sources, runs)


def _gathered(sources: list[str], runs: list[_LibraryRun]) -> Run:
    """The results of the libraries' runs, in the order of ``sources``."""
    return Run(
        [r.status for r in runs],
        [row for r in runs for row in r.sorted_rows()],
        {s: r.error for s, r in zip(sources, runs, strict=True) if r.error},
        [test for r in runs for test in r.sorted_tests()],
        {r.status.library: dict(r.cpu) for r in runs if r.status.available},
    )
