"""CPU time of a process and its descendants, read from ``/proc``, and the limits charged to it.

A library's verdicts must not depend on how busy the machine is, so the conformance runner limits
each vector by the CPU time (user + system) its worker process tree spends on it, not by wall
time: a loaded machine stretches wall time, not CPU time. Descendants count (Spark's JVM, a
``Rscript`` or ``java`` subprocess an adapter starts). A wall-time limit stays as a backstop for a
vector that hangs without using CPU (a deadlock, a ``sleep``), set many times the CPU limit.

What the tree's CPU time includes: every live descendant's own time, plus what each process has
collected from the children it waited for (``cutime``/``cstime``). A process that ends before
its parent waits for it is counted as long as it is a zombie, then in its parent's collected
time. Two ways for CPU time to leave the tree unseen, and what is done about each:

* an *orphan* (a process whose parent ended first, e.g. a double-forked daemon) is adopted by
  init, outside the tree, with everything it does afterwards. :func:`run_reaping` makes the
  measured process a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``, Linux 3.4+): orphans
  of its tree are adopted by it instead, and it waits for them, so their CPU time lands in its
  ``cutime``/``cstime``. Where that is not available (not Linux), orphans escape the count;
* a child of a process that ignores ``SIGCHLD`` (or sets ``SA_NOCLDWAIT``) is reaped by the
  kernel without its time being added to any parent (wait(2)), so it is counted only while it
  runs, and what it used vanishes from the tree when it ends. Nothing outside the process can
  prevent that (only a cgroup's accounting would see it): an adapter must not start such a
  process. pyspark's worker daemon is one; the Spark adapter runs it from a module of its own
  that waits for the workers (:mod:`prtheory.conformance.adapters.spark_adapter`).

Where ``/proc`` is missing (not Linux) the CPU time reads as 0 and only the wall limit applies.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Budget", "descendants", "run_reaping", "tree_cpu"]

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_PR_SET_CHILD_SUBREAPER = 36  # <linux/prctl.h>
_READS = 5  # readings of a process and its children before a changing list is accepted as is


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name (None if it is gone)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    return text[text.rfind(")") + 2 :].split()


def _kids(pid: int) -> list[int]:
    """The child pids of ``pid``: its threads' ``/proc/PID/task/TID/children`` lists."""
    out: list[int] = []
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return out
    for task in tasks:
        try:
            out += [int(c) for c in (task / "children").read_text(encoding="ascii").split()]
        except OSError:
            continue
    return out


def descendants(pid: int) -> list[int]:
    """Every live descendant of ``pid`` (children first), from ``/proc``.

    Parameters
    ----------
    pid : int
        A process id.

    Returns
    -------
    list of int
        The process ids of its children, then of their children, and so on (empty where
        ``/proc`` is missing or ``pid`` is gone).

    See Also
    --------
    tree_cpu : the CPU time of the same tree.

    Examples
    --------
    A child started here is a descendant of this process; once it has ended, it is not:

    >>> import os
    >>> import subprocess
    >>> import sys
    >>> from prtheory.conformance.cputime import descendants
    >>> child = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
    ...                          stdin=subprocess.PIPE)
    >>> child.pid in descendants(os.getpid())
    True
    >>> child.communicate()
    (None, None)
    >>> child.pid in descendants(os.getpid())
    False
    """
    out, todo = [], _kids(pid)
    while todo:
        p = todo.pop(0)
        out.append(p)
        todo += _kids(p)
    return out


def tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by process ``pid`` and its live descendants,
    including children they have already waited for.

    The fields ``utime``, ``stime``, ``cutime`` and ``cstime`` of ``/proc/PID/stat``
    (proc(5)), in clock ticks (``SC_CLK_TCK``, usually 100 a second), summed over the tree.
    Each process is read after its children and taken again where its list of children
    changed meanwhile: a child waited for between two reads would be counted twice or not at
    all, and a phase's CPU time would pass to the next.

    Parameters
    ----------
    pid : int
        A process id.

    Returns
    -------
    float
        CPU seconds, a multiple of one clock tick (0 where ``/proc`` is missing).

    See Also
    --------
    Budget : the limits charged against it.

    Examples
    --------
    A child that spins until it has used 0.3 s of CPU, then is waited for: its time is counted
    in this process's (``cutime``), so the tree's CPU time grows by at least 0.3 s less a tick
    or two of rounding:

    >>> import os
    >>> import subprocess
    >>> import sys
    >>> from prtheory.conformance.cputime import tree_cpu
    >>> spin = "while __import__('time').process_time() < 0.3: pass"  # its own CPU time
    >>> before = tree_cpu(os.getpid())
    >>> subprocess.run([sys.executable, "-c", spin], check=True).returncode
    0
    >>> tree_cpu(os.getpid()) - before >= 0.28
    True
    """
    return _ticks(pid) / _TICK


def _ticks(pid: int) -> int:
    """The clock ticks of ``tree_cpu(pid)``, read consistently with the processes' reaping.

    A child's time moves into its parent's ``cutime``/``cstime`` when the parent waits for it.
    Read in the order parent, then children, a child reaped in between would be counted in
    neither; read children first, it would be counted in both if reaped before the parent is
    read. So the children are listed, read, the parent read, and the children listed again: a
    child reaped (or adopted) meanwhile changes the list, and the reading is taken again."""
    for _attempt in range(_READS):
        kids = _kids(pid)
        below = sum(_ticks(k) for k in kids)
        fields = _stat(pid)
        if fields is None:
            return 0
        # utime, stime, cutime, cstime: fields 14-17 of stat, 12-15 after the name
        own = sum(int(v) for v in fields[11:15])
        if sorted(_kids(pid)) == sorted(kids):
            break
    return own + below


def _subreaper() -> bool:
    """Make this process a child subreaper (Linux); whether it now is one."""
    if not sys.platform.startswith("linux"):  # pragma: no cover - not Linux
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (OSError, AttributeError):  # pragma: no cover - no prctl
        return False


def _run_child(fn: Callable[[], object]) -> None:
    """The forked child of :func:`run_reaping`: ``fn``, then exit (0, or 1 after an exception,
    as :mod:`multiprocessing` would), without the parent's exit handlers."""
    code = 1
    try:
        fn()
        code = 0
    except BaseException:
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError, AttributeError):
                continue
        os._exit(code)


def _exit_as(status: int) -> None:
    """End this process as the wait status ``status`` says its child ended: with the same exit
    code, or killed by the same signal."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:  # no core of this process: the child's, where cores are on, is the one of use
            import resource

            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        except (ImportError, ValueError, OSError):  # pragma: no cover - not POSIX
            pass
        signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
    os._exit(os.waitstatus_to_exitcode(status))


def run_reaping(fn: Callable[[], object], *, close: tuple[Any, ...] = ()) -> None:
    """Run ``fn`` in a child of this process while this process, made a child subreaper, waits
    for every process of its tree that ends (the child, and the orphans it adopts); then end
    this process as the child ended (its exit code, or its signal).

    An orphan of the tree (a process whose parent ended first: a double-forked daemon, a worker
    its launcher left behind) is adopted by this process instead of init, so it stays in the
    tree while it runs, and once it ends its CPU time lands in this process's ``cutime`` and
    ``cstime``: :func:`tree_cpu` of this process counts it once, while it runs and after.
    Orphans still running when the child ends are left to whoever ends the tree
    (:func:`descendants`). This process must have no other children: it waits for any.

    Where a process cannot be a child subreaper (not Linux), ``fn`` runs in this process and
    this function returns; orphans then escape the count.

    Parameters
    ----------
    fn : callable
        What the child runs.
    close : tuple, default ()
        Objects (pipe ends) closed in this process once the child has started: the child keeps
        them, so that the other end sees their end when the child ends.

    Returns
    -------
    None
        Only where this process cannot be a child subreaper; otherwise it exits.

    Examples
    --------
    A process that leaves an orphan spinning for 0.3 s of CPU (its own count) and exits at
    once: run plainly, the orphan's time escapes the process's tree; run under
    ``run_reaping``, it is collected into the process that ran it. The cost is what the kernel
    charges the forked process once waited for (``wait4``'s resource usage, its own time and
    its waited-for descendants'), so nothing else this interpreter runs meanwhile (other
    threads, a JVM it started) enters it:

    >>> import os, time
    >>> from prtheory.conformance.cputime import run_reaping
    >>> def running(pid):
    ...     try:
    ...         return open(f"/proc/{pid}/stat").read().rsplit(") ", 1)[1][0] != "Z"
    ...     except OSError:
    ...         return False
    >>> def leave_orphan():
    ...     read, write = os.pipe()
    ...     if os.fork() == 0:  # the orphan's parent: it ends at once
    ...         if os.fork() == 0:  # the orphan: says who it is, spins, ends
    ...             os.write(write, str(os.getpid()).encode())
    ...             while time.process_time() < 0.3:
    ...                 pass
    ...         os._exit(0)
    ...     os.wait()
    ...     orphan = int(os.read(read, 20))
    ...     while running(orphan):
    ...         time.sleep(0.01)
    >>> def cost(target, *args):
    ...     child = os.fork()
    ...     if child == 0:
    ...         try:
    ...             target(*args)
    ...         finally:
    ...             os._exit(0)
    ...     usage = os.wait4(child, 0)[2]
    ...     return usage.ru_utime + usage.ru_stime
    >>> cost(leave_orphan) < 0.2
    True
    >>> cost(run_reaping, leave_orphan) >= 0.28
    True
    """
    if not hasattr(os, "fork") or not _subreaper():  # pragma: no cover - not Linux
        fn()
        return
    child = os.fork()
    if child == 0:
        _run_child(fn)
    for end in close:
        end.close()
    _exit_as(_reap_until(child))


def _reap_until(child: int) -> int:
    """Wait for any child of this process until ``child`` ends, then for those that have
    ended by then; ``child``'s wait status."""
    while True:
        pid, status = os.wait()
        if pid == child:
            break
    while True:  # what has ended by now: its time is collected; the rest is left running
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == 0:
            break
    return status


@dataclass
class Budget:
    """The CPU-time and wall-time limits of one phase (a library's start-up, or one vector),
    counted from the moment it starts.

    The isolated runner (:mod:`prtheory.conformance.isolated`) charges a vector the CPU time
    of the worker's process tree (:func:`tree_cpu`) from :meth:`start`; over ``cpu_limit``, or
    with no result after ``wall_limit`` seconds, the vector is reported as not run (time).

    Examples
    --------
    A busy loop of 0.3 s of CPU in this thread exhausts a 0.1 s CPU limit (the process tree's
    CPU, which the budget counts, is at least that; it can exceed the wall time where other
    threads or child processes are busy too):

    >>> import os
    >>> import time
    >>> from prtheory.conformance.cputime import Budget
    >>> budget = Budget(cpu_limit=0.1, wall_limit=60).start(os.getpid())
    >>> t = time.thread_time()
    >>> while time.thread_time() - t < 0.3:
    ...     pass
    >>> cpu, wall = budget.used(os.getpid())
    >>> cpu >= 0.28, wall >= 0.28
    (True, True)
    >>> print(budget.exceeded(os.getpid()))  # doctest: +ELLIPSIS
    used ... s of CPU (limit 0.1 s)

    Sleeping uses no CPU: only the wall-time backstop ends it.

    >>> budget = Budget(cpu_limit=10, wall_limit=0.05).start(os.getpid())
    >>> time.sleep(0.1)
    >>> print(budget.exceeded(os.getpid()))  # doctest: +ELLIPSIS
    no result after 0 s of wall time (limit 0.05 s) with 0... s of CPU
    """

    cpu_limit: float
    wall_limit: float
    cpu_start: float = 0.0
    wall_start: float = 0.0

    def start(self, pid: int) -> Budget:
        """This budget, counted from now for the process tree of ``pid``.

        Parameters
        ----------
        pid : int
            The process whose tree is charged.

        Returns
        -------
        Budget
            The same limits, with the tree's CPU time and the monotonic clock of now.
        """
        return Budget(self.cpu_limit, self.wall_limit, tree_cpu(pid), time.monotonic())

    def used(self, pid: int) -> tuple[float, float]:
        """(CPU seconds, wall seconds) spent since :meth:`start`.

        Parameters
        ----------
        pid : int
            The process whose tree is charged.

        Returns
        -------
        tuple of float
            CPU seconds of its tree and wall seconds.
        """
        return tree_cpu(pid) - self.cpu_start, time.monotonic() - self.wall_start

    def exceeded(self, pid: int) -> str | None:
        """Why the phase has run out of time, with its cost, or None.

        Parameters
        ----------
        pid : int
            The process whose tree is charged.

        Returns
        -------
        str or None
            ``"used C s of CPU (limit L s)"``, or ``"no result after W s of wall time (limit
            L s) with C s of CPU"``; None within both limits.
        """
        cpu, wall = self.used(pid)
        if cpu > self.cpu_limit:
            return f"used {cpu:.1f} s of CPU (limit {self.cpu_limit:g} s)"
        if wall > self.wall_limit:
            return (
                f"no result after {wall:.0f} s of wall time (limit {self.wall_limit:g} s) "
                f"with {cpu:.1f} s of CPU"
            )
        return None
