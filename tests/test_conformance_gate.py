"""``prtheory conformance`` as a gate: exit codes, user adapters, isolation, the JSON results."""

from __future__ import annotations

import ctypes
import json
import re
import sys
import time
from pathlib import Path

import pytest

from prtheory._testing import adversaries
from prtheory.cli import main
from prtheory.conformance import isolated
from prtheory.conformance.adapters import Implementation
from prtheory.conformance.vectors_io import load

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.fixture
def examples_on_path(monkeypatch):
    monkeypatch.syspath_prepend(str(EXAMPLES))


def test_a_correct_adapter_passes_the_gate_and_a_wrong_one_fails_it(examples_on_path, capsys):
    # round 0 of the generated inputs: the declared adapter rejects 4 of the full plan's 6923
    # inputs and so runs all of them (minutes); the whole plan is the slow tier's
    args = ["conformance", "--metrics", "average_precision", "--jobs", "1"]
    args += ["--differential", "round0"]
    assert main([*args, "--adapter", "my_adapter:correct"]) == 0
    out = capsys.readouterr().out
    n = len(list(load(["average_precision"])))
    assert f"| my AP | {n}/{n}✓ |" in out
    # ties by input order while claiming nothing: explained by a convention it does not declare
    assert main([*args, "--adapter", "my_adapter:wrong"]) == 1
    err = capsys.readouterr().err
    assert "of kind convention" in err
    # the gate names the mechanism the diagnosis attributes them to
    assert "explained only by undeclared mechanisms: ties=input-order (" in err
    # the same implementation documenting its tie rule passes
    assert main([*args, "--adapter", "my_adapter:declared"]) == 0
    # the same results pass when the gate is turned off
    assert main([*args, "--adapter", "my_adapter:wrong", "--fail-on", "none"]) == 0


def test_unknown_names_are_errors(capsys):
    assert main(["conformance", "--metrics", "average_precison"]) == 2
    assert "unknown ['average_precison']" in capsys.readouterr().err
    assert main(["conformance", "--libraries", "scikitlearn"]) == 2
    assert "unknown 'scikitlearn'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["conformance", "--fail-on", "wrongs"])


@pytest.mark.parametrize("call", ["generator", "runner"])
def test_the_generator_and_the_runner_reject_the_same_metric_names(call):
    from prtheory.conformance.generate import build_all
    from prtheory.conformance.vectors_io import files
    from prtheory.errors import InvalidInputError

    def run(metrics):
        if call == "generator":
            return build_all(metrics=metrics)
        return isolated.run_isolated(["sklearn"], metrics)

    with pytest.raises(InvalidInputError) as caught:
        run(["prc", "ap_min", "ap", "prc"])
    text = str(caught.value)
    assert text.startswith("metrics: unknown ['ap', 'prc']; known: ")
    # the names known are those of the vector files on disk
    assert set(text.partition("known: ")[2].split(", ")) == {p.stem for p in files()}
    with pytest.raises(InvalidInputError, match=r"^metrics: a collection of metric names"):
        run("ap_min")


# ------------------------------------------------------------------------------------------
# isolation: these implementations misbehave on purpose; the run must go on


def _misbehaving_ap(x):
    n = len(x.y_true)  # 2 and 7 items: one vector each; 1 item: two vectors
    if n == 2:
        while True:  # a busy loop: stopped by the CPU-time limit
            pass
    if n == 7:
        ctypes.string_at(0)  # a segfault in compiled code
    if n == 1:
        bytearray(8 * 2**30)  # more memory than the cap allows
    return 0.5


def misbehaving() -> list[Implementation]:
    return [Implementation("misbehaving", "ap", "average_precision", _misbehaving_ap)]


def _hanging_ap(x):
    if len(x.y_true) == 6:
        time.sleep(60)  # a hang that uses no CPU: stopped by the wall-time backstop
    return 0.5


def hanging() -> list[Implementation]:
    return [Implementation("hanging", "ap", "average_precision", _hanging_ap)]


@pytest.mark.skipif(sys.platform == "win32", reason="signals and RLIMIT_AS are POSIX")
def test_a_hang_a_segfault_and_memory_exhaustion_are_reported_per_vector():
    run = isolated.run_isolated(
        [f"{__name__}:misbehaving"],
        ["average_precision"],
        jobs=1,
        time_limit=2.0,
        wall_limit=300.0,  # the busy loop gets its 2 s of CPU first, however busy the machine
        memory_mb=2048,
        differential="none",
    )
    rows = run.rows
    # every vector got a result: the run went on after each failure
    assert len(rows) == len(list(load(["average_precision"])))
    sizes = [0 if r.vector.inputs.y_true is None else len(r.vector.inputs.y_true) for r in rows]
    crashed = {
        n: r.verdict.detail
        for n, r in zip(sizes, rows, strict=True)
        if r.verdict.category == "crashed"
    }
    assert set(crashed) == {1, 7}, crashed  # sizes with a crash (1 item: the first of two)
    assert crashed[7] == "the process died with signal 11"
    assert crashed[1] == "ran out of memory (cap 2048 MiB)"
    # running out of time is "not run (time)" with its cost, never a crash
    timed = {
        n: r.verdict.detail
        for n, r in zip(sizes, rows, strict=True)
        if r.verdict.category == "timeout"
    }
    assert set(timed) == {2}, timed
    assert re.fullmatch(r"not run \(time\): used \d+\.\d s of CPU \(limit 2 s\)", timed[2])
    # every other vector ran normally (and the constant 0.5 is simply wrong or agrees)
    others = [r for n, r in zip(sizes, rows, strict=True) if n not in (1, 2, 7)]
    assert len(others) == len(rows) - sum(sizes.count(n) for n in (1, 2, 7))
    assert not [r for r in others if r.verdict.category in ("crashed", "timeout")]


def test_a_hang_is_not_run_time_after_the_wall_time_backstop():
    run = isolated.run_isolated(
        [f"{__name__}:hanging"], ["average_precision"], jobs=1, wall_limit=8.0, differential="none"
    )
    timed = [r for r in run.rows if r.verdict.category == "timeout"]
    assert [len(r.vector.inputs.y_true) for r in timed] == [6]  # the one 6-item vector
    assert re.fullmatch(
        r"not run \(time\): no result after \d+ s of wall time \(limit 8 s\) with 0\.\d s of CPU",
        timed[0].verdict.detail,
    )
    assert not [r for r in run.rows if r.verdict.category == "crashed"]


def test_entry_point_adapters_are_found_and_run(monkeypatch):
    class EntryPoint:
        name = "mine"

        @staticmethod
        def load():
            return misbehaving_free

    monkeypatch.setattr(isolated, "_entry_points", lambda: {"mine": EntryPoint()})
    assert "mine" in isolated.known_libraries()
    run = isolated.run_isolated(["mine"], ["ap_min"], jobs=1)
    assert [s.library for s in run.statuses] == ["constant"]
    assert {r.verdict.category for r in run.rows} >= {"wrong"}


def misbehaving_free() -> list[Implementation]:
    return [Implementation("constant", "ap_min = 1/2", "ap_min", lambda x: 0.5)]


def test_json_results_come_from_the_same_run_as_the_report(examples_on_path, tmp_path, capsys):
    out = tmp_path / "results.json"
    args = ["conformance", "--metrics", "average_precision", "--jobs", "1"]
    assert main([*args, "--adapter", "my_adapter:wrong", "--json", str(out)]) == 1
    report = capsys.readouterr().out
    data = json.loads(out.read_text())
    assert {"environment", "libraries", "results"} <= set(data)
    rows = data["results"]
    assert len(rows) == len(list(load(["average_precision"])))
    # y = [1, 0, 1, 0], s = [.9, .9, .5, .2]: grouped, the tied block has precision 1/2 at
    # recall 1/2, then 2/3 at recall 1: AP = 7/12; in input order the positive comes first:
    # (1 + 2/3)/2 = 5/6
    tie = next(r for r in rows if r["comment"].startswith("tie of a positive and a negative"))
    assert tie["expected"]["exact"] == "7/12"
    assert tie["outcome"] == "convention"
    assert tie["mechanism"] == "ties=input-order"
    assert tie["inputs"]["y_true"] == [1, 0, 1, 0]
    assert tie["got"] == 5 / 6
    assert tie["version"] is None  # a module with no distribution of that name
    assert "ties=input-order" in report  # the report printed from the same rows


# ------------------------------------------------------------------------------------------
# a gate that cannot pass by accident


def no_results() -> list[Implementation]:
    return []


@pytest.mark.parametrize(
    ("adapter", "why"),
    [
        ("nomodule_for_prtheory_tests:f", "import failed: ModuleNotFoundError"),
        (f"{__name__}:missing_callable", "import failed: AttributeError"),
        (f"{__name__}:no_results", "no result"),
    ],
)
def test_a_library_that_did_not_run_fails_the_gate(adapter, why, capsys):
    args = ["conformance", "--metrics", "ap_min", "--jobs", "1", "--adapter", adapter]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert why in err
    # the summary's first line counts the results of every library that ran (none here)
    assert err.splitlines()[0].startswith("prtheory conformance: results per library: ")
    # named in --allow-missing, the same run passes; with --fail-on none too
    assert main([*args, "--allow-missing", adapter]) == 0
    assert main([*args, "--fail-on", "none"]) == 0


def test_the_first_line_counts_results_per_library(capsys):
    args = ["conformance", "--metrics", "ap_min", "--jobs", "1"]
    assert main([*args, "--adapter", f"{__name__}:misbehaving_free", "--fail-on", "none"]) == 0
    n = len(list(load(["ap_min"])))
    first = capsys.readouterr().err.splitlines()[0]
    assert first == f"prtheory conformance: results per library: constant {n}"


ADVERSARIES = "prtheory._testing.adversaries:ADAPTERS."


@pytest.mark.parametrize("name", [f.__name__ for f in adversaries.WRONG])
def test_size_dependent_defects_fail_the_gate(name, capsys):
    # the stored vectors alone pass every one of them (--differential none: no generated inputs)
    args = ["conformance", "--metrics", "average_precision", "--jobs", "1"]
    assert main([*args, "--adapter", ADVERSARIES + name, "--differential", "none"]) == 0
    capsys.readouterr()
    assert main([*args, "--adapter", ADVERSARIES + name]) == 1
    err = capsys.readouterr().err
    assert f"adversary `{name}`: differential test wrong" in err


@pytest.mark.parametrize("name", [f.__name__ for f in adversaries.MASKED])
def test_a_defect_behind_a_rejection_fails_the_gate(name, capsys):
    # rejecting ±inf is no failure by default (rejected-valid is not in --fail-on), so the
    # binning above 10^4 items behind it must be found and fail the gate
    args = ["conformance", "--metrics", "average_precision", "--jobs", "1"]
    assert main([*args, "--adapter", ADVERSARIES + name]) == 1
    assert f"adversary `{name}`: differential test wrong" in capsys.readouterr().err


@pytest.mark.parametrize("name", [f.__name__ for f in adversaries.RARE])
def test_rare_defects_fail_the_gate_under_the_default_plan_of_an_adapter(name, capsys):
    # round 0 alone (the built-in libraries' plan) misses them; --adapter runs the full plan
    args = ["conformance", "--metrics", "average_precision", "--jobs", "1"]
    assert main([*args, "--adapter", ADVERSARIES + name, "--differential", "round0"]) == 0
    capsys.readouterr()
    assert main([*args, "--adapter", ADVERSARIES + name]) == 1
    assert f"adversary `{name}`: differential test wrong" in capsys.readouterr().err


def test_a_correct_reference_passes_the_gate_with_generated_inputs(capsys):
    # round 0 here; the whole plan passes it in test_conformance_differential's slow tier
    args = ["conformance", "--metrics", "average_precision", "--jobs", "1"]
    assert main([*args, "--adapter", ADVERSARIES + "ap", "--differential", "round0"]) == 0
    assert "1 differential tests on generated inputs" in capsys.readouterr().out


# ------------------------------------------------------------------------------------------
# verdicts that do not depend on the machine's load


def _burn(seconds: float) -> None:
    """Use ``seconds`` of CPU time (not wall time)."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def _slow_correct_ap(x):
    if len(x.y_true) == 6:  # one vector costs 1.5 s of CPU, within the 3 s limit
        _burn(1.5)
    return adversaries.ap(x.y_true, x.y_score, x.sample_weight)


def slow_correct() -> list[Implementation]:
    return [Implementation("slow", "ap", "average_precision", _slow_correct_ap)]


def _busy() -> None:  # pragma: no cover - runs in a child process until it is killed
    while True:
        pass


def _verdicts(run) -> list[tuple[str, str, str]]:
    return [(r.library, r.vector.ident, r.verdict.category) for r in run.rows] + [
        (t.library, t.implementation, t.verdict.category) for t in run.differential
    ]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="CPU time is read from /proc")
def test_verdicts_are_the_same_on_a_loaded_machine():
    import multiprocessing

    args = (["sklearn", f"{__name__}:slow_correct"], ["average_precision"])
    kwargs = {"jobs": 2, "time_limit": 3.0, "differential": "round0"}
    idle = isolated.run_isolated(*args, **kwargs)
    hogs = [multiprocessing.Process(target=_busy, daemon=True) for _ in range(2)]
    for h in hogs:  # both cores busy while the same run repeats
        h.start()
    try:
        loaded = isolated.run_isolated(*args, **kwargs)
    finally:
        for h in hogs:
            h.kill()
            h.join()
    assert _verdicts(loaded) == _verdicts(idle)
    assert not [v for v in _verdicts(idle) if v[2] == "timeout"]
    # the slow vector agrees both times: 1.5 s of CPU is within the limit however long it waits
    assert ("slow", "average_precision#12", "agrees") in _verdicts(loaded)


def _slow_start() -> list[Implementation]:
    """An adapter whose start-up costs 2 s of CPU and whose vector costs next to nothing."""
    _burn(2.0)
    return [Implementation("slow start", "ap_min = 1/2", "ap_min", lambda x: 0.5)]


def _quick_start() -> list[Implementation]:
    """The same adapter without the 2 s: its start-up is the worker's imports alone."""
    return [Implementation("quick start", "ap_min = 1/2", "ap_min", lambda x: 0.5)]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="CPU time is read from /proc")
def test_a_start_up_is_charged_once():
    # Each worker's start-up is charged with its imports (about 1 s, more where the bytecode is
    # compiled afresh), so the 2 s burnt are measured against an adapter that burns nothing,
    # run first (it pays any compilation). Charged once: the difference is the 2 s; charging
    # the start-up both at the plan and at the first unit doubled both, giving over 4 s.
    run = isolated.run_isolated(
        [f"{__name__}:_quick_start", f"{__name__}:_slow_start"], ["ap_min"], jobs=1,
        differential="none",
    )  # fmt: skip
    assert run.rows
    quick, slow = (run.cpu[name]["start-up"] for name in ("quick start", "slow start"))
    assert 1.5 <= slow - quick < 3.0, (quick, slow)
