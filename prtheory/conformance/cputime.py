"""CPU time of a process and its descendants, read from ``/proc``, and the limits charged to it.

A library's verdicts must not depend on how busy the machine is, so the conformance runner limits
each vector by the CPU time (user + system) its worker process tree spends on it, not by wall
time: a loaded machine stretches wall time, not CPU time. Descendants count (Spark's JVM, a
``Rscript`` or ``java`` subprocess an adapter starts). A wall-time limit stays as a backstop for a
vector that hangs without using CPU (a deadlock, a ``sleep``), set many times the CPU limit.

Where ``/proc`` is missing (not Linux) the CPU time reads as 0 and only the wall limit applies.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Budget", "descendants", "tree_cpu"]

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


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
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        fields = _stat(p)
        if fields is None:
            continue
        # utime, stime, cutime, cstime: fields 14-17 of stat, 12-15 after the name
        total += sum(int(v) for v in fields[11:15])
        todo += _kids(p)
    return total / _TICK


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
