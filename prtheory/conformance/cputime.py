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
    """Every live descendant of ``pid`` (children first), from ``/proc``."""
    out, todo = [], _kids(pid)
    while todo:
        p = todo.pop(0)
        out.append(p)
        todo += _kids(p)
    return out


def tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by process ``pid`` and its live descendants,
    including children they have already waited for."""
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
    counted from the moment it starts."""

    cpu_limit: float
    wall_limit: float
    cpu_start: float = 0.0
    wall_start: float = 0.0

    def start(self, pid: int) -> Budget:
        """This budget, counted from now for the process tree of ``pid``."""
        return Budget(self.cpu_limit, self.wall_limit, tree_cpu(pid), time.monotonic())

    def used(self, pid: int) -> tuple[float, float]:
        """(CPU seconds, wall seconds) spent since :meth:`start`."""
        return tree_cpu(pid) - self.cpu_start, time.monotonic() - self.wall_start

    def exceeded(self, pid: int) -> str | None:
        """Why the phase has run out of time, with its cost, or None."""
        cpu, wall = self.used(pid)
        if cpu > self.cpu_limit:
            return f"used {cpu:.1f} s of CPU (limit {self.cpu_limit:g} s)"
        if wall > self.wall_limit:
            return (
                f"no result after {wall:.0f} s of wall time (limit {self.wall_limit:g} s) "
                f"with {cpu:.1f} s of CPU"
            )
        return None
