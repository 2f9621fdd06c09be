"""A library is credited only with what the library did.

A built-in adapter's own code (pairing labels with scores, writing a CSV file, decoding a
request in the R or Java server) can raise before the library sees the input. Counted as the
library's answer, such an exception made "rejects labels and scores of different lengths" a
verdict Spark MLlib, river and Weka earned from the adapters' ``zip``/``column_stack`` and the
Java server's own length check. Here: an exception counts as the library's only where it passed
through the library's code (or is an external server's report of the library's error); the
adapter's own is a crash of the adapter on every vector (the mutants below are adapters that
raise themselves, and must not earn "agrees"); and no built-in adapter raises one in the
committed results.
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from prtheory.conformance.adapters import (
    Implementation,
    LibraryRejection,
    Unsupported,
    spark_adapter,
    unpaired,
    weka_adapter,
)
from prtheory.conformance.classify import AdapterFault, Outcome, classify
from prtheory.conformance.external import ExternalRejection, Server, ServerFault
from prtheory.conformance.metrics import Inputs
from prtheory.conformance.record import outcome_of
from prtheory.conformance.runner import error_of, from_library, run_implementation
from prtheory.conformance.vectors_io import load

RESULTS = Path(__file__).resolve().parents[1] / "reports" / "conformance_results.json"

# the AP vector whose labels and scores differ in length (invalid input: a rejection agrees)
UNPAIRED = next(v for v in load(["average_precision"]) if v.comment == "lengths differ")

FAKELIB = textwrap.dedent(
    """
    class FakeError(Exception):
        pass

    def ap(y, s):
        if len(y) != len(s):
            raise ValueError("y and s differ in length")
        return 0.5

    def fail():
        raise FakeError("refused")
    """
)


@pytest.fixture
def fakelib(tmp_path, monkeypatch):
    """A library on sys.path: ``fakelib.ap`` checks lengths itself."""
    (tmp_path / "fakelib").mkdir()
    (tmp_path / "fakelib" / "__init__.py").write_text(FAKELIB)
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    from prtheory.conformance import runner

    runner._package_dirs.cache_clear()
    mod = importlib.import_module("fakelib")
    yield mod
    sys.modules.pop("fakelib", None)
    runner._package_dirs.cache_clear()


def _impl(run):
    return Implementation("fakelib", "ap", "average_precision", run, origin=("fakelib",))


def test_the_librarys_own_rejection_agrees(fakelib):
    outcome = run_implementation(_impl(lambda x: fakelib.ap(x.y_true, x.y_score)), UNPAIRED)
    assert isinstance(outcome.error, ValueError)
    assert classify(UNPAIRED, outcome).category == "agrees"


def test_an_adapter_that_raises_itself_does_not_earn_agrees(fakelib):
    # the mutants: the adapter pairs the items itself (zip strict), or stacks columns, before
    # calling the library, which never sees the input
    def zipped(x):
        pairs = list(zip(x.y_true, x.y_score, strict=True))
        return fakelib.ap([p[0] for p in pairs], [p[1] for p in pairs])

    def stacked(x):
        return fakelib.ap(*np.column_stack([x.y_true, x.y_score]).T)

    for run in (zipped, stacked):
        outcome = run_implementation(_impl(run), UNPAIRED)
        assert isinstance(outcome.error, AdapterFault)
        verdict = classify(UNPAIRED, outcome)
        assert verdict.category == "crashed"
        assert "the adapter raised before the library answered" in verdict.detail


def test_an_adapter_error_after_the_library_returned_is_the_adapters(fakelib):
    # the library ran and returned; the adapter's own check afterwards is not the library's
    def checked_after(x):
        value = fakelib.ap(x.y_true, x.y_true)
        if len(x.y_true) != len(x.y_score):
            raise ValueError("lengths")
        return value

    assert isinstance(run_implementation(_impl(checked_after), UNPAIRED).error, AdapterFault)


def test_rejections_passed_on_by_the_adapter_keep_their_origin(fakelib):
    def wrapped(x):
        try:
            fakelib.fail()
        except fakelib.FakeError as exc:
            raise LibraryRejection(f"FakeError: {exc}") from exc

    def unfounded(x):  # a LibraryRejection the library never raised
        raise LibraryRejection("FakeError: refused")

    assert isinstance(run_implementation(_impl(wrapped), UNPAIRED).error, LibraryRejection)
    assert isinstance(run_implementation(_impl(unfounded), UNPAIRED).error, AdapterFault)
    # a class the library defines is the library's, wherever it is raised from (C extensions)
    assert from_library(fakelib.FakeError("refused"), ("fakelib",))
    # an external server's report of the library's error is the library's; its own fault is not
    assert from_library(ExternalRejection("stop()"), ("ROCR",))
    assert not from_library(ServerFault("decoding the request"), ("ROCR",))


def test_own_implementations_are_their_own_library():
    # check() and --adapter: the implementation is the library, so its exceptions are its own
    def own(x):
        raise ValueError("lengths differ")

    impl = Implementation("mine", "own", "average_precision", own)
    assert impl.origin == ()
    assert classify(UNPAIRED, run_implementation(impl, UNPAIRED)).category == "agrees"


def test_an_adapter_fault_survives_the_record():
    recorded = {
        "unsupported": None,
        "error": list(error_of(Outcome(error=AdapterFault("ValueError: zip()")))),
        "warnings": [],
    }
    assert recorded["error"] == ["AdapterFault", "ValueError: zip()", False]
    assert classify(UNPAIRED, outcome_of(recorded)).category == "crashed"


def test_unpaired_inputs_are_unsupported_where_the_api_cannot_hold_them():
    x = UNPAIRED.inputs
    assert unpaired(x, "rows") == Unsupported("rows cannot hold 3 labels and 2 scores")
    w = Inputs(np.array([1, 0]), np.array([0.5, 0.2]), np.array([1.0, 2.0, 3.0]))
    assert unpaired(w, "rows").reason == "rows cannot hold 2 labels, 2 scores and 3 weights"
    # without starting Spark or Java: the adapters answer before any library call
    assert isinstance(spark_adapter._evaluator(0)(x), Unsupported)
    assert isinstance(spark_adapter._metrics(x), Unsupported)
    assert isinstance(spark_adapter._ranked(x), Unsupported)
    assert isinstance(weka_adapter._run(None, "prc_area")(x), Unsupported)


SERVER = r"""
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    print(json.dumps({"id": r["id"], "error": "decoding the request: bad", "kind": "server"}),
          flush=True)
"""


def test_a_servers_own_failure_is_the_adapters():
    server = Server([sys.executable, "-c", SERVER], "fake")
    impl = Implementation(
        "fake", "f", "average_precision", lambda x: server.call("f", x), origin=("fake",)
    )
    try:
        outcome = run_implementation(impl, UNPAIRED)
    finally:
        server.close()
    assert isinstance(outcome.error, AdapterFault)
    assert classify(UNPAIRED, outcome).category == "crashed"


def test_no_built_in_adapter_raises_in_place_of_its_library():
    doc = json.loads(RESULTS.read_text())
    faults = [
        (r["library"], r["implementation"], r["metric"], r["tcId"], r["error"][1])
        for r in doc["rows"]
        if r["error"] is not None and r["error"][0] == AdapterFault.__name__
    ]
    assert faults == []


def _real_server(key):
    """The R (Metrics) or Java (Weka) server, or a skip where it cannot run."""
    from prtheory.conformance.adapters import r_packages

    if key == "R":
        if r_packages.package_version("Metrics") is None:
            pytest.skip("needs R and the package Metrics")
        argv = ["Rscript", "--vanilla", str(r_packages.SCRIPT), "Metrics"]
        return Server(argv, "R"), "auc"
    if weka_adapter.version() is None:
        pytest.skip("needs Java and Weka")
    argv = ["java", "-cp", str(weka_adapter.jar()), str(weka_adapter.SOURCE)]
    return Server(argv, "Weka"), "roc_area"


@pytest.mark.parametrize("key", ["R", "Java"])
def test_the_r_and_java_servers_report_their_own_failures_as_theirs(key):
    # an unknown function is the server's failure, not a rejection by the package
    server, fn = _real_server(key)
    x = Inputs(np.array([1, 0]), np.array([0.5, 0.25]))
    try:
        with pytest.raises(ServerFault, match="unknown function no_such_function"):
            server.call("no_such_function", x)
        assert server.call(fn, x) == 1.0  # the one pair ordered; the server still answers
    finally:
        server.close()


def test_a_rerun_records_the_same_text_whatever_the_clock_and_the_machine():
    """XGBoost's logger puts the time of day in its errors and warnings, and a quoted traceback
    names where this machine installed a package: the recorded verdict, error and warnings
    carry neither, so two runs at different times on different machines record the same."""
    import warnings

    vector = next(v for v in load(["ap_min"]) if v.inputs.params == {"pos": 3, "neg": 5})

    def at(clock: str, home: str):
        def impl(x):
            message = f"[{clock}] WARNING: /workspace/src/metric/auc.cc:324: empty"
            warnings.warn(message, UserWarning, stacklevel=2)
            raise RuntimeError(f"[{clock}] {home}/site-packages/xgboost/core.py: Check failed")

        outcome = run_implementation(Implementation("lib", "f", "ap_min", impl), vector)
        return classify(vector, outcome).detail, error_of(outcome), outcome.warnings

    first = at("19:54:47", "/home/a/venv/lib/python3.11")
    assert first == at("21:01:14", "/tmp/ci/venv/lib/python3.11")
    assert first[0] == "raised RuntimeError: xgboost/core.py: Check failed"
    assert first[2] == ["UserWarning: WARNING: /workspace/src/metric/auc.cc:324: empty"]
