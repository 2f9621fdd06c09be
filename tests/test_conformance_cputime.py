"""CPU time charged by the isolated runner: orphans of a worker's tree, the start of a worker's
start-up, and the workers of Spark's Python daemon (:mod:`prtheory.conformance.cputime`,
:mod:`prtheory.conformance.isolated`, :mod:`prtheory.conformance.adapters.spark_adapter`).

An adapter here leaves an *orphan*: it forks a child that forks a grandchild and exits at once,
as a daemon does, so the grandchild is reparented away from the process that started it. The
orphan spins for ``ORPHAN_BURN_<where>`` seconds of its own CPU time (no orphan where unset), then writes that CPU time, as it
measured it itself (``getrusage(RUSAGE_SELF)``), to a file: an independent measure of what the
runner must charge.
"""

from __future__ import annotations

import os
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest

from prtheory.conformance import cputime, isolated
from prtheory.conformance.adapters import Implementation

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="CPU time is read from /proc; prctl is Linux's"
)

#: one clock tick, the resolution of /proc's CPU times
TICK = 1 / os.sysconf("SC_CLK_TCK")
#: the vector of ap_min whose call leaves an orphan (one of its six vectors has 200 negatives)
ORPHAN_NEG = 200


def _leave_orphan(tag: str) -> None:
    """Fork a child that forks the orphan and exits; return once the orphan has ended."""
    if f"ORPHAN_BURN_{tag}" not in os.environ:
        return
    read, write = os.pipe()
    if os.fork() == 0:
        if os.fork() == 0:  # the orphan
            os.close(read)
            import resource

            burn = float(os.environ[f"ORPHAN_BURN_{tag}"])
            while time.process_time() < burn:
                pass
            usage = resource.getrusage(resource.RUSAGE_SELF)
            out = Path(os.environ["ORPHAN_DIR"]) / tag
            out.write_text(repr(usage.ru_utime + usage.ru_stime))
        os._exit(0)
    os.close(write)
    os.wait()  # the orphan's parent, which has ended at once
    os.read(read, 1)  # end of file: the orphan has ended (or was killed)
    os.close(read)


def _ap_min(x):
    """The worst AP, sum of i/(neg + i) for i <= pos, over pos; the vector with
    ``ORPHAN_NEG`` negatives leaves an orphan first."""
    pos, neg = x.params["pos"], x.params["neg"]
    if neg == ORPHAN_NEG:
        _leave_orphan("vector")
    return float(sum(Fraction(i, neg + i) for i in range(1, pos + 1)) / pos)


def orphaning() -> list[Implementation]:
    """An adapter whose start-up (``prepare``) and one vector each leave an orphan."""
    return [
        Implementation(
            "orphaning", "worst AP", "ap_min", _ap_min, prepare=lambda: _leave_orphan("start_up")
        )
    ]


@pytest.fixture
def orphans(tmp_path, monkeypatch):
    """Where the orphans write their CPU time; a function setting how long they spin."""
    monkeypatch.setenv("ORPHAN_DIR", str(tmp_path))

    def burn(**seconds: float) -> Path:
        for where, s in seconds.items():
            monkeypatch.setenv(f"ORPHAN_BURN_{where}", repr(s))
        return tmp_path

    return burn


def _run(time_limit: float):
    return isolated.run_isolated(
        [f"{__name__}:orphaning"], ["ap_min"], jobs=1, time_limit=time_limit, differential="none"
    )


def _no_subreaper(monkeypatch) -> None:
    """The runner as it was: the worker does not adopt orphans (workers are forked from this
    process, so they see the patch)."""
    if isolated._start_method() != "fork":
        pytest.skip("the patch reaches workers only when they are forked")
    monkeypatch.setattr(cputime, "_subreaper", lambda: False)


# An orphan's CPU time, as the runner reads it, can fall short of what the orphan measured by
# two clock ticks: /proc gives its user and system times (or, once its adopter has waited for
# it, the adopter's cutime and cstime), each rounded down to a whole tick. Rounding the other
# processes' times down only hides their own CPU, and the reading at the phase's start can only
# be low, which makes the charge larger. The orphan keeps running briefly after measuring
# itself, which also makes the charge larger.
SHORT = 2 * TICK


@pytest.mark.parametrize("subreaper", [True, False], ids=["adopted", "mutant-not-adopted"])
def test_an_orphans_cpu_is_charged_to_the_start_up_and_to_its_vector(
    orphans, monkeypatch, subreaper
):
    folder = orphans(start_up=1.0, vector=1.0)
    if not subreaper:
        _no_subreaper(monkeypatch)
    run = _run(time_limit=60.0)
    assert [r.verdict.category for r in run.rows] == ["agrees"] * 6
    start_up = float((folder / "start_up").read_text())
    vector = float((folder / "vector").read_text())
    assert start_up >= 1.0
    assert vector >= 1.0
    charged = run.cpu["orphaning"]
    adopted = charged["start-up"] >= start_up - SHORT and charged["vectors"] >= vector - SHORT
    assert adopted == subreaper, (charged, start_up, vector)
    # counted once: a second count of the orphan would add its second again
    assert charged["vectors"] < 2 * vector - SHORT


@pytest.mark.parametrize("subreaper", [True, False], ids=["adopted", "mutant-not-adopted"])
def test_a_vector_over_its_cpu_limit_through_an_orphan_is_not_run_for_time(
    orphans, monkeypatch, subreaper
):
    # not stopped, the orphan ends after 1 s; stopped, it would have run 3 s
    folder = orphans(vector=3.0 if subreaper else 1.0)
    if not subreaper:
        _no_subreaper(monkeypatch)
    run = _run(time_limit=0.5)
    (row,) = [r for r in run.rows if r.vector.inputs.params["neg"] == ORPHAN_NEG]
    if subreaper:
        assert row.verdict.category == "timeout", row.verdict
        assert row.verdict.detail.startswith("not run (time): used ")
        assert row.verdict.detail.endswith(" s of CPU (limit 0.5 s)")
        # stopped with its worker, before it could measure itself
        assert not (folder / "vector").exists()
    else:
        assert row.verdict.category == "agrees"  # the limit was evaded
    others = [r.verdict.category for r in run.rows if r is not row]
    assert others == ["agrees"] * 5


# ------------------------------------------------------------------------------------------
# the start-up is charged from the worker's birth


def _spin(seconds: float) -> None:
    while time.process_time() < seconds:
        pass


def spinning() -> list[Implementation]:
    """An adapter whose start-up spins until the worker has used 0.3 s of CPU."""
    return [Implementation("spinning", "worst AP", "ap_min", _ap_min, prepare=lambda: _spin(0.3))]


def test_the_start_up_is_charged_what_the_worker_used_before_the_runner_looked(monkeypatch):
    import multiprocessing.process

    started = multiprocessing.process.BaseProcess.start

    def start_then_wait(self):
        # this thread does not run again until the worker has spun: what a loaded machine
        # does at random (the worker's CPU time is 0.3 s plus what it used before the spin)
        started(self)
        end = time.monotonic() + 60
        while cputime.tree_cpu(self.pid) < 0.3 and time.monotonic() < end:
            time.sleep(0.01)

    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", start_then_wait)
    run = isolated.run_isolated([f"{__name__}:spinning"], ["ap_min"], jobs=1, differential="none")
    assert [r.verdict.category for r in run.rows] == ["agrees"] * 6
    assert run.cpu["spinning"]["start-up"] >= 0.3 - SHORT


# ------------------------------------------------------------------------------------------
# pyspark's worker daemon ignores SIGCHLD: its workers' CPU time was counted nowhere

DAEMON = r"""
import os, resource, signal, sys, time
sys.path.insert(0, sys.argv[2])
import prtheory_spark_daemon

if sys.argv[1] == "pyspark":
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # what pyspark.daemon does
else:
    prtheory_spark_daemon._signal(signal.SIGCHLD, signal.SIG_IGN)  # the same, through it
worker = os.fork()
if worker == 0:  # a worker: spins 0.3 s of its own CPU time, ends
    while time.process_time() < 0.3:
        pass
    os._exit(0)
while os.path.exists(f"/proc/{worker}"):  # until it is gone (waited for, or reaped unseen)
    time.sleep(0.01)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(usage.ru_utime + usage.ru_stime)
"""


@pytest.mark.parametrize("daemon", ["prtheory_spark_daemon", "pyspark"])
def test_the_spark_daemon_waits_for_its_workers_so_that_their_cpu_is_counted(daemon):
    import subprocess

    from prtheory.conformance.adapters.spark_adapter import DAEMON_DIR

    out = subprocess.run(
        [sys.executable, "-c", DAEMON, daemon, str(DAEMON_DIR)],
        capture_output=True,
        text=True,
        check=True,
    )
    children = float(out.stdout)
    if daemon == "prtheory_spark_daemon":
        # the worker's 0.3 s, in microseconds from the same clock as its process_time()
        assert children >= 0.3 - 1e-5
    else:
        assert children == 0.0  # reaped by the kernel: counted nowhere
