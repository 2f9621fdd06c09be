"""pyspark's worker daemon, made to wait for its workers so that their CPU time is counted.

Spark starts its Python workers from one daemon process (``python -m pyspark.daemon``), which
ignores ``SIGCHLD``: the kernel then reaps each worker that ends without adding its CPU time to
the daemon's ``cutime``/``cstime`` (wait(2)), so the time vanishes from the process tree whose
CPU time the conformance kit charges (:mod:`prtheory.conformance.cputime`). On the full run of
Spark MLlib's adapter that was at least 69 s of 257 s.

Run as the daemon module (Spark's ``spark.python.daemon.module``, with this directory on the
workers' ``PYTHONPATH``: :mod:`prtheory.conformance.adapters.spark_adapter`), this module runs
pyspark's own daemon with one change: where it would ignore ``SIGCHLD``, it waits for every
child that has ended (``waitpid`` with ``WNOHANG``), as a parent that ignores nothing does, so
each worker's CPU time lands in the daemon's ``cutime``/``cstime``. Nothing else changes.

A module of its own, outside the package: importing the package into the daemon, which every
worker is forked from, made the workers use about a quarter more CPU time.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from types import FrameType
from typing import Any

_SIGNAL = signal.signal
_Handler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None


def _reap(signum: int, frame: FrameType | None) -> None:
    """Wait for every child that has ended (a handler of ``SIGCHLD``)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _signal(signalnum: int | signal.Signals, handler: _Handler) -> _Handler:
    """:func:`signal.signal`, with ``SIG_IGN`` for ``SIGCHLD`` replaced by :func:`_reap`."""
    if signalnum == signal.SIGCHLD and handler == signal.SIG_IGN:
        handler = _reap
    return _SIGNAL(signalnum, handler)


def _main() -> None:  # pragma: no cover - run by Spark as the daemon process
    from pyspark import daemon

    signal.signal = _signal  # the daemon calls signal.signal(SIGCHLD, SIG_IGN)
    daemon.manager()


if __name__ == "__main__":  # pragma: no cover - run by Spark
    _main()
