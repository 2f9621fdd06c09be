"""The libraries beyond Python's metric packages: their servers, emulations and mechanisms.

Each emulation of :mod:`prtheory.conformance.gbdt_models`, :mod:`prtheory.conformance.r_models`
and :mod:`prtheory.conformance.river_models` follows a library's source without calling it; here
it is compared with the installed library on every vector it can take (skipped where the library
is missing), and each mechanism's prediction is checked on a small input against a value worked
out by hand.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import sys
import warnings
from fractions import Fraction as F

import numpy as np
import pytest

from prtheory.conformance import external, gbdt_models, r_models, river_models, weka_models
from prtheory.conformance.adapters import implementations, r_packages, status
from prtheory.conformance.encoding import decode_inputs
from prtheory.conformance.external import ExternalCrash, ExternalRejection, Server, ServerDied
from prtheory.conformance.metrics import Inputs
from prtheory.conformance.predictions import NAN
from prtheory.conformance.vectors_io import load

BASIC_Y = [1, 0, 1, 1, 0, 0, 1, 0]
BASIC_S = [0.9, 0.8, 0.7, 0.6, 0.55, 0.5, 0.4, 0.3]


def _inputs(y, s, w=None, **params):
    return Inputs(
        np.asarray(y), np.asarray(s, dtype=np.float64), None if w is None else np.asarray(w), params
    )


def _same(a, b):
    return a == b or (math.isnan(a) and math.isnan(b))


def _legal(metric, weights=True, longest=None):
    for v in load([metric]):
        x = v.inputs
        if v.result == "invalid" or not len(x.labels):
            continue
        if (x.sample_weight is not None and not weights) or (longest and len(x.labels) > longest):
            continue
        yield v


def _impl(key, name):
    try:
        found = {i.name: i for i in implementations(key)}
    except (ImportError, RuntimeError) as exc:
        pytest.skip(f"{key} is not installed: {exc}")
    return found[name]


def _value(impl, x):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return impl.run(x)
        except (ValueError, RuntimeError):
            return None


# ------------------------------------------------------------------------------------------
# the protocol


def test_request_inputs_are_the_exported_format():
    x = _inputs([1, 0, 1], [0.9, float("inf"), 0.1], [0.5, 1.0, 2.0], k=3)
    encoded = external.encode_request_inputs(x)
    assert encoded["y_score"] == ["0.9", "inf", "0.1"]
    assert encoded["params"] == {"k": 3}
    y, s, w = decode_inputs(encoded)
    assert y.tolist() == [1, 0, 1]
    assert s.tolist() == x.scores.tolist()
    assert w.tolist() == [0.5, 1, 2]
    long = _inputs([0] * 1500 + [1], [0.5] * 1500 + [0.25])
    runs = external.encode_request_inputs(long)["runs"]
    assert runs == [[0, "0.5", 1500], [1, "0.25", 1]]


def test_long_inputs_go_to_a_binary_server_as_exact_float64(tmp_path):
    # R's as.numeric reads the decimal 0.721678814663057 one ulp high; the file carries the
    # float64 itself
    s = [0.721678814663057] + [0.25] * 1500
    x = _inputs([1] + [0] * 1500, s, [2.0] * 1501)
    path = tmp_path / "inputs.f64"
    head = external.encode_binary_inputs(x, path)
    assert head == {"binary": str(path), "n": 1501, "weighted": True}
    values = np.fromfile(path, dtype="<f8")
    assert values[:1501].tolist() == [1] + [0] * 1500
    assert values[1501:3002].tolist() == s
    assert values[3002:].tolist() == [2.0] * 1501
    # JSON where the input is short, or its labels are not numbers
    assert external.encode_binary_inputs(_inputs([1, 0], [0.5, 0.25]), path) is None
    assert external.encode_binary_inputs(_inputs(["a"] * 1001, [0.5] * 1001), path) is None


@pytest.mark.skipif(shutil.which("Rscript") is None, reason="needs R")
def test_the_r_server_reads_binary_inputs_exactly():
    # Metrics::auc on one positive at s0 = 0.721678814663057 (shortest repr) below 1500
    # negatives at its float64 successor s1: 0 if R sees s0 (every negative ranks above it);
    # R's as.numeric reads the decimal "0.721678814663057" as s1 itself, a tie with every
    # negative: 1/2
    if r_packages.package_version("Metrics") is None:
        pytest.skip("needs the R package Metrics")
    s0 = 0.721678814663057
    s1 = float(np.nextafter(s0, 1.0))
    x = _inputs([1] + [0] * 1500, [s0] + [s1] * 1500)
    server = Server(["Rscript", "--vanilla", str(r_packages.SCRIPT), "Metrics"], "R", binary=True)
    try:
        assert server.call("auc", x) == 0.0
        server.binary = False  # the same input as decimal strings
        assert server.call("auc", x) == 0.5
    finally:
        server.close()


FAKE = r"""
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    fn = r["fn"]
    if fn == "die":
        sys.stderr.write("fake server: asked to die\n"); sys.exit(3)
    if fn == "chatter":  # a runtime's warnings on the answers' stream, as a JVM prints them
        print("[0.120s][warning][os,thread] Failed to start thread", flush=True)
        print("[1, 2]", flush=True)
    out = {"id": r["id"] + (1 if fn == "late" else 0)}
    if fn == "reject":
        out.update(error="bad input", kind="rejected")
    elif fn == "crash":
        out.update(error="index out of bounds", kind="crashed")
    else:
        out.update(value=repr(len(r["inputs"]["y_true"]) / 3), warnings=["careful"])
    print(json.dumps(out), flush=True)
"""


@pytest.fixture
def fake():
    server = Server([sys.executable, "-c", FAKE], "fake")
    yield server
    server.close()


def test_server_answers_values_and_errors(fake):
    x = _inputs([1, 0], [0.5, 0.25])
    with pytest.warns(RuntimeWarning, match="fake: careful"):
        assert fake.call("value", x) == 2 / 3
    with pytest.raises(ExternalRejection, match="bad input"):
        fake.call("reject", x)
    assert issubclass(ExternalRejection, ValueError)
    with pytest.raises(ExternalCrash, match="index out of bounds"):
        fake.call("crash", x)


def test_lines_that_are_no_answer_are_warnings_and_the_answer_follows(fake):
    # a JVM under load printed warnings on standard output, and every answer after them was
    # read one line late: each vector crashed with a JSONDecodeError
    x = _inputs([1, 0, 1], [0.5, 0.25, 0.1])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert fake.call("chatter", x) == 1.0
        assert fake.call("value", x) == 1.0  # in turn: nothing left unread
    said = [str(w.message) for w in caught]
    assert "fake: not an answer: [0.120s][warning][os,thread] Failed to start thread" in said
    assert "fake: not an answer: [1, 2]" in said


def test_server_that_answers_out_of_turn_is_a_crash(fake):
    with pytest.raises(ServerDied, match="out of turn"):
        fake.call("late", _inputs([1, 0], [0.5, 0.25]))


def test_a_server_that_died_stays_dead(fake):
    x = _inputs([1, 0], [0.5, 0.25])
    assert not external.any_died()
    with pytest.raises(ServerDied, match="asked to die"):
        fake.call("die", x)
    assert issubclass(ServerDied, ExternalCrash)
    assert external.any_died()
    # never restarted inside a later call (whose CPU time would then pay the start-up)
    with pytest.raises(ServerDied, match="asked to die"):
        fake.call("value", x)


# ------------------------------------------------------------------------------------------
# a server in the isolated runner: its CPU is the worker's, its start-up is the start-up's

SERVED = r"""
import json, sys, time

def burn(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass

burn(1.5)  # start-up: more than a vector's limit of 1 s
for line in sys.stdin:
    r = json.loads(line)
    x = r["inputs"]
    n = len(x["y_true"]) if "y_true" in x else sum(run[2] for run in x["runs"])
    if n == 2:
        burn(1e9)  # the server, not the worker, uses the CPU
    if n == 7:
        sys.exit(3)
    print(json.dumps({"id": r["id"], "value": "0.5"}), flush=True)
"""


def served() -> list:
    from prtheory.conformance.adapters import Implementation

    server = Server([sys.executable, "-c", SERVED], "served")
    run = lambda x: server.call("ap", x)  # noqa: E731
    return [Implementation("served", "ap", "average_precision", run, prepare=server.start)]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="CPU time is read from /proc")
def test_a_servers_cpu_is_charged_to_its_vector_and_its_start_up_to_the_start_up():
    from prtheory.conformance import isolated

    run = isolated.run_isolated(
        [f"{__name__}:served"],
        ["average_precision"],
        jobs=1,
        time_limit=1.0,
        wall_limit=300.0,  # the busy server gets its 1 s of CPU, however busy the machine
        differential="none",
    )
    assert len(run.rows) == len(list(load(["average_precision"])))
    by_size = {}
    for r in run.rows:
        x = r.vector.inputs
        by_size.setdefault(0 if x.y_true is None else len(x.y_true), []).append(r.verdict)
    # the 2-item vector: the server's busy loop is the worker tree's CPU time
    (busy,) = by_size[2]
    assert busy.category == "timeout", busy
    assert re.fullmatch(r"not run \(time\): used \d+\.\d s of CPU \(limit 1 s\)", busy.detail)
    # the 7-item vector: the server died, a crash
    (died,) = by_size[7]
    assert died.category == "crashed", died
    assert "served server died" in died.detail
    # every other vector ran: the two restarts (1.5 s of CPU each, over a vector's limit) were
    # charged to the start-up of the replacement workers, never to a vector
    others = [v for n, vs in by_size.items() if n not in (2, 7) for v in vs]
    assert not [v for v in others if v.category in ("crashed", "timeout")]
    # Three start-ups, each with a server that spins until its own CPU clock reads 1.5 s: the
    # bound is 3 x 1.5 s less what the runner's reading can lose. It reads the server's user
    # and system times from /proc, each rounded down to a clock tick, so up to two ticks short;
    # what else a start-up uses (starting the interpreters, the warm-up call) is a few
    # hundredths of a second (4.54 to 4.63 s for the three here, idle or under load), so
    # rounding alone can bring the total under 4.5 s. The start-up is charged from the
    # worker's birth (a reading taken once the worker had started, as before, missed what it
    # had used by then: a tick or more when the runner waits for a core on a busy machine).
    tick = 1 / os.sysconf("SC_CLK_TCK")
    assert run.cpu["served"]["start-up"] >= 3 * (1.5 - 2 * tick)


@pytest.fixture
def no_r_no_java(monkeypatch, tmp_path):
    """A machine without R, Java or Weka's jar: an empty PATH and cache directory."""
    from prtheory.conformance.adapters import r_packages, weka_adapter

    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("PRTHEORY_WEKA_JAR", raising=False)
    r_packages._r_output.cache_clear()
    weka_adapter._java_version.cache_clear()
    yield
    r_packages._r_output.cache_clear()
    weka_adapter._java_version.cache_clear()


OUTSIDE = ("rocr", "proc", "mlmetrics", "rmetrics", "weka")


def test_adapters_outside_python_are_not_run_without_their_runtime(no_r_no_java):
    for key in OUTSIDE:
        st = status(key)
        assert not st.available, key
        assert st.version is None, key
        assert "apt-get install" in st.reason, (key, st.reason)


def test_without_r_or_java_the_gate_fails_unless_they_may_be_missing(no_r_no_java, capsys):
    from prtheory.cli import main

    args = ["conformance", "--libraries", *OUTSIDE, "--metrics", "roc_auc", "--jobs", "1"]
    assert main(args) == 1
    err = capsys.readouterr().err
    for library in ("ROCR (R)", "pROC (R)", "MLmetrics (R)", "Metrics (R)", "Weka"):
        assert f"{library}: not run (" in err, err
    assert main([*args, "--allow-missing", *OUTSIDE]) == 0


# ------------------------------------------------------------------------------------------
# emulations against the libraries


#: the default tier compares on the vectors of at most this many items; the slow tier on all
SHORT = 1000
SIZES = [pytest.param(SHORT, id="short"), pytest.param(None, id="all", marks=pytest.mark.slow)]


@pytest.mark.parametrize("longest", SIZES)
def test_xgboost_emulations_equal_xgboost(longest):
    aucpr = _impl("xgboost", 'eval_metric="aucpr"')
    pairs = _impl("xgboost", 'eval_metric="auc", one query group')
    pre = _impl("xgboost", 'eval_metric="pre@k", one query group')
    checked = 0
    for v in _legal("auc_davis_goadrich", longest=longest):
        got = _value(aucpr, v.inputs)
        if got is not None:  # weights beyond float32 are rejected (a mechanism of its own)
            assert _same(got, gbdt_models.xgboost_aucpr(v.inputs)), v.ident
            checked += 1
    for v in _legal("roc_auc", weights=False, longest=1000):
        assert _same(_value(pairs, v.inputs), float(gbdt_models.xgboost_ranking_auc(v.inputs)))
    for v in _legal("precision_at_k", weights=False, longest=longest):
        got = _value(pre, v.inputs)
        if got is not None:  # graded labels are rejected by rank:map
            assert got == float(gbdt_models.xgboost_precision_at_k(v.inputs)), v.ident
    assert checked > 40


@pytest.mark.parametrize("longest", SIZES)
def test_lightgbm_emulations_equal_lightgbm(longest):
    ap = _impl("lightgbm", 'metric="average_precision"')
    auc = _impl("lightgbm", 'metric="auc"')
    for v in _legal("average_precision", longest=longest):
        got = _value(ap, v.inputs)
        if got is not None:
            assert _same(got, gbdt_models.lightgbm_average_precision(v.inputs)), v.ident
    for v in _legal("roc_auc", longest=longest):
        got = _value(auc, v.inputs)
        if got is not None:
            assert _same(got, gbdt_models.lightgbm_auc(v.inputs)), v.ident


@pytest.mark.parametrize("longest", SIZES)
def test_catboost_prauc_emulation_equals_catboost(longest):
    """Bit for bit on every legal vector whose scores have no NaN (``std::sort`` with NaN keys is
    not modelled), rejections included (the emulation's None where CatBoost raises)."""
    prauc = _impl("catboost", 'eval_metric(..., "PRAUC")')
    checked = 0
    for v in _legal("auc_trapezoid", longest=longest):
        if np.isnan(np.asarray(v.inputs.y_score, dtype=np.float64)).any():
            continue
        got, want = _value(prauc, v.inputs), gbdt_models.catboost_prauc(v.inputs)
        assert (got is None and want is None) or _same(got, want), (v.ident, got, want)
        checked += 1
    assert checked > 40


#: (y, scores, CatBoost's PRAUC derived by hand, module docstring of gbdt_models)
CATBOOST_PRAUC_CASES = [
    # |0.5 - (0.5 + 1e-9)| < 1e-8: one tie, one point (recall 1, precision 1/2), then (0, 1):
    # (1 - 0)(1/2 + 1)/2 = 3/4
    ([0, 1], [0.5, 0.5 + 1e-9], F(3, 4)),
    # 3e-8 apart: two points, the positive on top: (1, 1/2) -> (1, 1) -> (0, 1), area 1
    ([0, 1], [0.5, 0.5 + 3e-8], F(1)),
    # neighbours 0.6e-8 apart chain into one tie although the ends are 1.2e-8 apart: one point
    # (1, 1/3), area (1/3 + 1)/2 = 2/3
    ([0, 1, 0], [0.1, 0.1 + 0.6e-8, 0.1 + 1.2e-8], F(2, 3)),
    # equal finite scores tie in either input order: (1, 1/2) -> (1, 2/3) -> (1/2, 1/2) -> (0, 1):
    # 0 + (1/2)(2/3 + 1/2)/2 + (1/2)(1/2 + 1)/2 = 7/24 + 9/24 = 2/3
    ([0, 1, 1, 0], [0.9, 0.9, 0.2, 0.1], F(2, 3)),
    ([1, 0, 1, 0], [0.9, 0.9, 0.2, 0.1], F(2, 3)),
    # equal +inf scores stay two points, the later input ranked higher. Ascending: -inf (0),
    # 0.2 (1), inf (0, input 0), inf (1, input 1). Points (recall, precision): (1, 1/2),
    # (1, 2/3), (1/2, 1/2), (1/2, 1), (0, 1): 0 + 0 + (1/2)(2/3 + 1/2)/2 + 0 + (1/2)(1 + 1)/2
    # = 7/24 + 12/24 = 19/24
    ([0, 1, 1, 0], [math.inf, math.inf, 0.2, -math.inf], F(19, 24)),
    # the same scores, labels 1, 0, 1, 0: ... (1/2, 1/2), (0, 0), (0, 1):
    # 7/24 + (1/2)(1/2 + 0)/2 + 0 = 7/24 + 3/24 = 5/12
    ([1, 0, 1, 0], [math.inf, math.inf, 0.2, -math.inf], F(5, 12)),
]


@pytest.mark.parametrize(("y", "s", "want"), CATBOOST_PRAUC_CASES)
def test_catboost_prauc_ties_within_1e8_and_never_at_infinity(y, s, want):
    # within 4 ulps: precision, recall and each trapezoid are rounded before the float sum
    near = pytest.approx(float(want), abs=4 * math.ulp(float(want)))
    x = _inputs(y, s)
    assert gbdt_models.catboost_prauc(x) == near
    prauc = _impl("catboost", 'eval_metric(..., "PRAUC")')
    assert _value(prauc, x) == near


def test_river_rolling_emulation_equals_river():
    rolling = _impl("river", "metrics.RollingROCAUC(window_size=n)")
    for v in _legal("roc_auc", weights=False, longest=1000):
        assert _value(rolling, v.inputs) == float(river_models.river_rolling_roc_auc(v.inputs))


@pytest.mark.parametrize("longest", SIZES)
def test_rocr_and_proc_emulations_equal_r(longest):
    rocr = _impl("rocr", 'performance(pred, "aucpr")')
    auto = _impl("proc", "auc(roc(y, s)), default direction")
    fixed = _impl("proc", 'auc(roc(y, s, levels = c(0, 1), direction = "<"))')
    for v in _legal("auc_trapezoid", weights=False, longest=longest):
        assert _value(rocr, v.inputs) == r_models.rocr_aucpr(v.inputs), v.ident
    for v in _legal("roc_auc", weights=False, longest=longest):
        a, b = _value(auto, v.inputs), _value(fixed, v.inputs)
        if a is None or b is None:
            continue
        flipped = r_models.proc_direction(v.inputs) == ">"
        assert a == pytest.approx(1 - b if flipped else b, abs=1e-15), v.ident


def _bitwise(a, b):
    return (math.isnan(a) and math.isnan(b)) or (
        a == b and math.copysign(1, a) == math.copysign(1, b)
    )


def _weka_inputs(seed, count):
    """Rankings of 2 to 13 items: distinct or tied scores, unit, uniform, equal, integer and
    twelve-decade weights (10^-300 to 10^300), those Weka's tie order cannot change."""
    rng = np.random.default_rng(seed)
    for t in range(count):
        m = int(rng.integers(2, 14))
        s = rng.random(m) if t % 3 else rng.integers(0, 4, m) / 4
        w = [
            None,
            10.0 ** rng.uniform(-300, 300, m),
            rng.random(m),
            np.full(m, 0.3),
            rng.integers(0, 3, m).astype(float),
        ][t % 5]
        x = _inputs(rng.integers(0, 2, m), s, w)
        if weka_models.order_free(x):
            yield x


def test_weka_emulations_equal_weka_bit_for_bit():
    # the stored vectors and 400 drawn rankings, each area equal to Weka's to the bit (sign
    # of zero and NaN included): the cancellation of TP by subtraction is Weka's arithmetic
    prc = _impl("weka", "ThresholdCurve.getPRCArea")
    roc = _impl("weka", "ThresholdCurve.getROCArea")
    inputs = [
        v.inputs
        for metric in ("average_precision", "roc_auc")
        for v in _legal(metric, longest=SHORT)
        if weka_models.order_free(v.inputs)
    ]
    inputs += list(_weka_inputs(20261127, 400))
    compared = 0
    for x in inputs:
        for impl, emulate in ((prc, weka_models.weka_prc_area), (roc, weka_models.weka_roc_area)):
            got = _value(impl, x)
            if got is None:
                continue
            assert _bitwise(float(got), emulate(x)), (x, got, emulate(x))
            compared += 1
    assert compared > 500


# ------------------------------------------------------------------------------------------
# the mechanisms on inputs worked out by hand


def test_weka_loses_a_weight_2_to_the_53_below_the_total():
    # positives of weight 10^61 (scored 0.9) and 7 10^96 (0.2), a negative of 10^196 (0.4).
    # Exactly: AP = (10^61 + 7 10^96 * (7 10^96 + 10^61) / (10^196 + 7 10^96 + 10^61)) / P
    # with P = 7 10^96 + 10^61, about 1.43e-36, and the ROC area 10^61 / P. Weka's TP at the
    # threshold 0.4 is (10^61 + 7 10^96) - 7 10^96 = 0 in double, so the top positive's step
    # and pairs vanish: the PR area is the last step's precision alone and the ROC area 0.
    x = _inputs([1, 0, 1], [0.9, 0.4, 0.2], [1e61, 1e196, 7e96])
    exact_ap = (
        F(10**61) + F(7 * 10**96) * F(7 * 10**96 + 10**61, 10**196 + 7 * 10**96 + 10**61)
    ) / (7 * 10**96 + 10**61)
    assert float(exact_ap) == pytest.approx(1.4285714285714286e-36, rel=1e-12)
    assert weka_models.weka_prc_area(x) == 7e96 / (7e96 + 1e196)
    assert weka_models.weka_roc_area(x) == 0.0
    # counting TP from the top (a sum, no subtraction) keeps the top positive: the cause is
    # the subtraction, not the weights' range
    from_the_top = 1e61 / 7e96 * 1.0 + (7e96 / 7e96) * (7e96 / (7e96 + 1e196))
    assert from_the_top == pytest.approx(float(exact_ap), rel=1e-12)


def test_weka_subtraction_is_named_only_where_it_loses_weight():
    # the mechanism's prediction is asked only where the subtraction is the cause: it loses
    # weight (a point's TP or FP is not the exact weight above it, rounded), with nothing
    # overflowing or underflowing first
    y, s = [1, 0, 1], [0.9, 0.4, 0.2]
    assert weka_models.cancels(_inputs(y, s, [1e61, 1e196, 7e96]))
    # each count correctly rounded, but the step between two points loses a negative of 1e129
    # below a negative of 6e179 (a ROC area of 0 where it is 1e129 / (6e179 + 1e129))
    lost_step = _inputs([0, 1, 0], [0.2, 0.5, 0.9], [1e129, 1.0, 6e179])
    assert weka_models.cancels(lost_step)
    assert weka_models.weka_roc_area(lost_step) == 0.0
    # weights 2^52 apart: every sum is exact in double, nothing is lost
    assert not weka_models.cancels(_inputs(y, s, [1.0, 2.0**52, 2.0]))
    # subnormal weights sum exactly; their product underflows (pos-neg-product-underflow)
    assert not weka_models.cancels(
        _inputs([1, 0, 1, 0], [*s, 0.1], [5e-324, 1e-323, 1.5e-323, 5e-324])
    )
    # a total that overflows (weights-overflow)
    assert not weka_models.cancels(_inputs(y, s, [1e308, 1.0, 1e308]))
    # unit weights: integer sums, exact
    assert not weka_models.cancels(_inputs(BASIC_Y, BASIC_S))
    # tied scores with unequal weights: Weka's tie order is not modelled, nothing is asked
    assert not weka_models.cancels(_inputs(y, [0.5, 0.5, 0.2], [1e61, 1e196, 7e96]))


def test_weka_precision_of_nothing_predicted_is_nan():
    # TwoClassStats.getPrecision is NaN where TP + FP is 0. From the lowest score: a positive
    # of weight 1 (0.05), a negative of 1 (0.1), negatives of 10^-300 (0.5, 0.9). totNeg is
    # 1 + 2 10^-300 = 1 in double, so at the threshold 0.5 FP = 1 - 1 = 0 with TP = 0: that
    # point's precision is NaN and its recall step (0 - 0) is multiplied by it, so the PR
    # area is NaN where exactly it is 1 / (2 + 2 10^-300), about 1/2
    x = _inputs([1, 0, 0, 0], [0.05, 0.1, 0.5, 0.9], [1.0, 1.0, 1e-300, 1e-300])
    assert [(p[0], p[2]) for p in weka_models.weka_curve(x)] == [
        (1.0, 1.0),
        (0.0, 1.0),
        (0.0, 0.0),
        (0.0, -1e-300),
    ]
    assert math.isnan(weka_models.weka_prc_area(x))


def test_rocr_aucpr_keeps_the_first_point_of_each_recall():
    # BASIC: (TP, FP) per cutoff (0,0) (1,0) (1,1) (2,1) (3,1) (3,2) (3,3) (4,3) (4,4); the least
    # FP per TP: (0,0) (1,0) (2,1) (3,1) (4,3), precision 1 (set), 1, 2/3, 3/4, 4/7 at recall
    # 0, 1/4, 1/2, 3/4, 1; trapezoids (1/4)[(1+1)/2 + (1+2/3)/2 + (2/3+3/4)/2 + (3/4+4/7)/2]
    # = (1/4)(168 + 140 + 119 + 111)/168 = 538/672 = 269/336
    got = r_models.rocr_aucpr(_inputs(BASIC_Y, BASIC_S))
    assert got == pytest.approx(float(F(269, 336)), abs=2**-52)


def test_rocr_aucpr_misplaces_its_second_insertion():
    # three tied positives, a negative, three tied positives: least FP per TP (0,0) (3,0) (6,1),
    # precision 1, 1, 6/7 at recall 0, 1/2, 1. Both TP jumps are 3 > 2, so points x = 1, 2, 3
    # are inserted: after index 1, recall 1/6, 2/6, 3/6 at precision 1 (skew 0); then, for the
    # original index 2, recall 4/6, 5/6, 1 at precision (3 + x)/(3 + x + x/3) = 12/13, 15/17,
    # 6/7 (skew 1/3), inserted after position 2 of the grown vector, i.e. after recall 1/6:
    # recall 0, 1/6, 4/6, 5/6, 1, 2/6, 3/6, 1/2, 1. Trapezoids in that order:
    p = [F(1), F(1), F(12, 13), F(15, 17), F(6, 7), F(1), F(1), F(1), F(6, 7)]
    r = [F(0), F(1, 6), F(4, 6), F(5, 6), F(1), F(2, 6), F(3, 6), F(1, 2), F(1)]
    misplaced = sum((r[i] - r[i - 1]) * (p[i] + p[i - 1]) / 2 for i in range(1, len(r)))
    # in recall order the same points give the Davis-Goadrich discrete area
    order = sorted(range(len(r)), key=lambda i: (r[i], -p[i]))
    rs, ps = [r[i] for i in order], [p[i] for i in order]
    placed = sum((rs[i] - rs[i - 1]) * (ps[i] + ps[i - 1]) / 2 for i in range(1, len(rs)))
    x = _inputs([1, 1, 1, 0, 1, 1, 1], [3, 3, 3, 2, 1, 1, 1])
    assert r_models.rocr_aucpr(x) == pytest.approx(float(misplaced), abs=2**-50)
    assert misplaced < placed  # the backward segment 1 -> 2/6 subtracts area


def test_proc_auto_direction_takes_the_reversed_ranking():
    # N3 scores_B: median control score (0.43 + 0.88)/2 = 0.655 > median case (0.20 + 0.55)/2
    # = 0.375, so pROC takes ">" and reports 1 - 1/4 = 3/4
    y = [1, 1, 0, 0, 1, 1, 0, 0]
    s = [0.55, 0.59, 0.88, 0.97, 0.20, 0.09, 0.43, 0.32]
    assert r_models.proc_direction(_inputs(y, s)) == ">"
    assert r_models.proc_direction(_inputs(BASIC_Y, BASIC_S)) == "<"
    # controls -Inf and Inf: R's median is (-Inf + Inf)/2 = NaN, the comparison NA: no direction
    inf = float("inf")
    assert r_models.proc_direction(_inputs([0, 0, 1, 1], [-inf, inf, 0.0, 1.0])) is None


def test_river_rolling_truncates_the_half_credit_of_ties():
    # every score tied, labels 0 1 0 1 1: the walk meets the three positives first (c = 3,
    # prev_c = 0), then each negative adds (3 + 0) // 2 = 1: 2/(3 * 2) = 1/3, not 1/2
    assert river_models.river_rolling_roc_auc(_inputs([0, 1, 0, 1, 1], [0.5] * 5)) == F(1, 3)
    # without ties it is the ROC AUC: BASIC has 11 of 16 pairs ordered
    assert river_models.river_rolling_roc_auc(_inputs(BASIC_Y, BASIC_S)) == F(11, 16)


def test_xgboost_ranking_auc_counts_every_pair():
    # BASIC sorted by label: positives .9 .7 .6 .4, negatives .8 .55 .5 .3; the 6 pairs of
    # positives and the 6 of negatives are all in decreasing score order (1 each), and of the 16
    # positive-negative pairs 4 + 3 + 3 + 1 = 11 have the positive higher: 23/28
    assert gbdt_models.xgboost_ranking_auc(_inputs(BASIC_Y, BASIC_S)) == F(23, 28)
    assert math.isnan(gbdt_models.xgboost_ranking_auc(_inputs([0, 1], [0.2, 0.9])))


def test_xgboost_precision_at_k_divides_by_the_list_length():
    # k = 12 over 8 items with 4 positives: 4/8, where P@12 counts the 4 missing items as
    # false positives: 4/12
    assert gbdt_models.xgboost_precision_at_k(_inputs(BASIC_Y, BASIC_S, k=12)) == F(1, 2)


def test_xgboost_aucpr_cancels_in_float64():
    # one positive below 10^6 tied negatives: the exact DG area is
    # 1 - 10^6 ln(1 + 10^-6) = 4.99999667e-07; XGBoost's closed form in float64 loses the
    # leading digits to cancellation
    x = _inputs([0] * 10**6 + [1], [0.5] * 10**6 + [0.25])
    got = gbdt_models.xgboost_aucpr(x)
    exact = 1 - 10**6 * math.log1p(1e-6)
    assert exact == pytest.approx(4.999996666e-07, rel=1e-9)
    assert abs(got - exact) > 1e-4 * exact


def test_lightgbm_clamps_huge_scores_to_1e300():
    # 1.8e308, 1e308 and 1e300 all become 1e300 and tie; labels 0 1 1 0: the top block has
    # 2 positives of 3 items, recall 1 at once: AP = 2/3
    x = _inputs([0, 1, 1, 0], [1.7976931348623157e308, 1e308, 1e300, -1e308])
    assert gbdt_models.lightgbm_average_precision(x) == pytest.approx(2 / 3, abs=2**-53)
    scores, _, _ = gbdt_models.lightgbm_stored(x)
    assert scores.tolist() == [1e300, 1e300, 1e300, -1e300]


def test_lightgbm_zero_weight_top_block_is_nan():
    # the top item (a negative) weighs 0: precision 0/0 at the first block, NaN thereafter
    x = _inputs([0, 1, 0, 1], [0.9, 0.8, 0.7, 0.6], [0.0, 1.0, 1.0, 1.0])
    assert math.isnan(gbdt_models.lightgbm_average_precision(x))


# ------------------------------------------------------------------------------------------
# map@k: the scores as XGBoost and LightGBM store them, then a stable sort

MAX = np.finfo(np.float64).max


def _map_prediction(name, x):
    """The AP@k that the mechanism ``name`` of ``external_mechanisms`` predicts at ``x``."""
    from prtheory.conformance.external_mechanisms import for_metric
    from prtheory.conformance.vectors_io import Vector

    mechanism = next(m for m in for_metric("ap_at_k") if m.name == name)
    value = mechanism.predict(Vector("ap_at_k", 1, "", (), x, "valid", None, {}, None))
    return None if value is None else value.exact


XGB_MAP = "ties=input-order+scores=float32"
LGB_MAP = "ties=input-order+scores=clamped-to-1e300"


def test_map_at_k_ties_the_scores_as_each_library_stores_them():
    # y = [1, 0], s = [1e39, 2e39], k = 2: float32 holds neither (both inf), so XGBoost ties
    # them and its stable sort keeps the positive first: AP@2 = 1/min(1, 2) = 1; LightGBM's
    # clamp is at 1e300 and keeps 2e39 (the negative) first: AP@2 = (1/2)/1 = 1/2, as float64
    x = _inputs([1, 0], [1e39, 2e39], k=2)
    assert _map_prediction(XGB_MAP, x) == 1
    assert _map_prediction(LGB_MAP, x) == F(1, 2)
    # s = [MAX, inf]: tied in both (inf in float32, 1e300 after the clamp), the positive first:
    # 1 for both, where float64 ranks inf (the negative) first: 1/2
    y = _inputs([1, 0], [MAX, np.inf], k=2)
    assert _map_prediction(XGB_MAP, y) == _map_prediction(LGB_MAP, y) == 1
    # a NaN score: a comparison sort's order is unspecified, no prediction
    assert _map_prediction(XGB_MAP, _inputs([1, 0], [np.nan, 0.5], k=2)) is None
    xgb = _impl("xgboost", 'eval_metric="map@k", one query group')
    lgb = _impl("lightgbm", 'metric="map", eval_at=[k], one query')
    assert (_value(xgb, x), _value(lgb, x)) == (1.0, 0.5)
    assert (_value(xgb, y), _value(lgb, y)) == (1.0, 1.0)


def test_map_at_k_mechanisms_equal_xgboost_and_lightgbm_on_drawn_inputs():
    """Every family of the differential test (ties, ±inf beside ±MAX, signed zeros) at 10, 32
    and 100 items, its cutoff drawn as there: each library returns the mechanism's value, to
    float64 rounding of its own sum (8 + 2n ulps, the differential test's bound); and the
    mechanisms differ from the oracle's value on some inputs, so the comparison is not vacuous."""
    from prtheory.conformance.differential import cutoff
    from prtheory.conformance.metrics import evaluate
    from prtheory.conformance.sampling import FAMILIES, sample

    xgb = _impl("xgboost", 'eval_metric="map@k", one query group')
    lgb = _impl("lightgbm", 'metric="map", eval_at=[k], one query')
    differs = {XGB_MAP: 0, LGB_MAP: 0}
    for seed, family in enumerate(f for f in FAMILIES if f.weights == "none"):
        for n in (10, 32, 100):
            s = sample(30_000 + 7 * seed + n, family, n)
            x = Inputs(s.y_true, s.y_score, None, {"k": cutoff(s.seed, n)})
            expected = evaluate("ap_at_k", x)
            for name, impl in ((XGB_MAP, xgb), (LGB_MAP, lgb)):
                want = _map_prediction(name, x)
                got = _value(impl, x)
                assert abs(got - float(want)) <= (8 + 2 * n) * math.ulp(float(want)), (name, s)
                differs[name] += want != expected
    assert min(differs.values()) >= 3, differs


def test_ranx_map_at_k_divides_by_every_relevant_item():
    """By hand: y = [1, 1, 0], k = 1: the top item is relevant, AP@1 = 1/min(1, 2) = 1; ranx
    divides by both relevant items: 1/2. Then on drawn inputs of every family without weights
    (ties of up to 100 items, where numba's quicksort moves tied items), to 8 + 2n ulps."""
    from prtheory.conformance.differential import cutoff
    from prtheory.conformance.mechanisms import mechanisms
    from prtheory.conformance.metrics import evaluate
    from prtheory.conformance.sampling import FAMILIES, sample
    from prtheory.conformance.vectors_io import Vector

    name = "normalisation=pos+ties=numba-quicksort"
    mechanism = next(m for m in mechanisms("ap_at_k") if m.name == name)

    def predicted(x):
        return mechanism.predict(Vector("ap_at_k", 1, "", (), x, "valid", None, {}, None)).exact

    ranx = _impl("ranx", "map@k")
    x = _inputs([1, 1, 0], [0.3, 0.2, 0.1], k=1)
    assert predicted(x) == F(1, 2)
    assert _value(ranx, x) == 0.5
    differs = 0
    for seed, family in enumerate(f for f in FAMILIES if f.weights == "none"):
        for n in (10, 32, 100):
            s = sample(30_000 + 7 * seed + n, family, n)
            x = Inputs(s.y_true, s.y_score, None, {"k": cutoff(s.seed, n)})
            want = predicted(x)
            assert abs(_value(ranx, x) - float(want)) <= (8 + 2 * n) * math.ulp(float(want)), s
            differs += want != evaluate("ap_at_k", x)
    assert differs >= 3


# ------------------------------------------------------------------------------------------
# the partial ROC AUC (max_fpr)

PARTIAL_PROC = (
    'auc(roc(y, s, levels = c(0, 1), direction = "<"), partial.auc = c(1, 1 - m), '
    'partial.auc.focus = "specificity", partial.auc.correct = TRUE)'
)


def _partial_vector(y, s, m, w=None):
    from prtheory.conformance.vectors_io import Vector

    return Vector(
        "partial_roc_auc", 1, "", (), _inputs(y, s, w, max_fpr=m), "valid", None, {}, None
    )


def _drawn_rankings(seed, count):
    rng = np.random.default_rng(seed)
    for t in range(count):
        n = int(rng.integers(2, 12))
        y = rng.integers(0, 2, n)
        if y.min() == y.max():
            continue
        s = rng.integers(0, 4, n) / 4 if t % 2 else rng.random(n)
        yield y, s, float(rng.choice([0.1, 0.25, 0.5, 0.75, 1.0]))


def test_proc_partial_auc_is_na_exactly_below_the_diagonal():
    # by hand: 0 1 scored 0.9, 0.1 up to FPR 1/2: the area is 0 < 1/8, McClish's 1/3 < 1/2: NA
    from prtheory.conformance.external_mechanisms import for_metric

    below = next(m for m in for_metric("partial_roc_auc") if m.name == "mcclish-below-diagonal=NA")
    assert below.predict(_partial_vector([0, 1], [0.9, 0.1], 0.5)) is NAN
    assert below.predict(_partial_vector([1, 0], [0.9, 0.1], 0.5)) is None
    # against pROC on drawn rankings: NA exactly where the prediction says so, and elsewhere
    # the value of allow.invalid.partial.auc.correct = TRUE, which is McClish's everywhere
    default = _impl("proc", PARTIAL_PROC)
    allowed = _impl("proc", PARTIAL_PROC[:-1] + ", allow.invalid.partial.auc.correct = TRUE)")
    from prtheory.oracle.areas import partial_roc_auc

    seen = set()
    for y, s, m in _drawn_rankings(7, 120):
        v = _partial_vector(y, s, m)
        got, free = _value(default, v.inputs), _value(allowed, v.inputs)
        exact = partial_roc_auc(y, s, max_fpr=m)
        predicted = below.predict(v)
        if exact == F(1, 2):  # on the diagonal pROC's float64 `auc < min` decides either way
            assert math.isnan(got) or abs(got - 0.5) <= (8 + 4 * len(y)) * 2**-53
            continue
        seen.add(predicted is None)
        assert math.isnan(got) == (predicted is not None), (y.tolist(), s.tolist(), m)
        # 8 + 4n ulps of 1: trapezoids summed in float64 (the oracle's test of sklearn's bound)
        assert abs(free - float(exact)) <= (8 + 4 * len(y)) * 2**-53, (y.tolist(), s.tolist(), m)
    assert seen == {True, False}  # both sides of the condition were drawn


def test_proc_partial_auc_bound_below_2_to_the_minus_54_is_an_empty_range():
    from prtheory.conformance.external_mechanisms import for_metric

    rounded = next(
        m for m in for_metric("partial_roc_auc") if m.name == "specificity-bound-rounded"
    )
    default = _impl("proc", PARTIAL_PROC)
    y, s = [1, 0, 1, 0, 1, 0], [0.9, 0.5, 0.5, 0.5, 0.2, 0.1]
    # 1 - 2^-54 rounds to 1 (ties to even), 1 - 2^-53 does not
    for m, empty in ((1e-20, True), (2.0**-54, True), (2.0**-53, False), (0.25, False)):
        v = _partial_vector(y, s, m)
        assert (rounded.predict(v) is not None) is empty
        assert math.isnan(_value(default, v.inputs)) is empty, m


def test_torchmetrics_partial_auc_bound_is_a_float32_tensor():
    import prtheory.conformance.mechanisms as mech

    torch_auroc = _impl("torchmetrics", "functional.binary_auroc(max_fpr=m)")
    spec = next(r for r in mech.DEFINITIONS if r.name == "max_fpr=float32")
    y, s = [1, 0, 1, 0, 1, 0], [0.9, 0.5, 0.5, 0.5, 0.2, 0.1]
    # the least float32 is 2^-149 (about 1.4e-45): 1e-50 rounds to 0, 1e-40 to a subnormal
    for m, nan in ((1e-50, True), (1e-300, True), (1e-40, False), (1e-20, False)):
        v = _partial_vector(y, s, m)
        assert (spec.predict(v) is not None) is nan
        assert math.isnan(_value(torch_auroc, v.inputs)) is nan, m


@pytest.mark.parametrize("metric", ["roc_auc", "partial_roc_auc"])
@pytest.mark.parametrize("spread", ["overflowing", "absorbed"])
def test_sklearn_roc_emulation_equals_sklearn_where_its_float64_sums_are_inexact(metric, spread):
    # weights near 1e308 (two overflow a sum) or spread over 10^-300..10^300 (a small one is
    # lost below half an ulp of the running sum): where scikit-learn's cumulative weights are
    # not the exact ones rounded the emulation is its value to the bit; elsewhere nothing is
    # predicted and scikit-learn is within (8 + 4n) 2^-53 of the exact value
    from sklearn.metrics import roc_auc_score

    from prtheory.conformance.library_models import sklearn_roc_float64
    from prtheory.conformance.vectors_io import Vector
    from prtheory.oracle.areas import partial_roc_auc

    rng = np.random.default_rng(11)
    compared = 0
    for y, s, m in _drawn_rankings(13, 300):
        n = len(y)
        if spread == "overflowing":
            w = rng.uniform(0.5, 1.7, n) * 1e308
        else:  # with zero weights too, which scikit-learn drops
            w = 10.0 ** rng.uniform(-300, 300, n) * (rng.random(n) > 0.2)
            if not (w[y == 1].any() and w[y == 0].any()):
                continue  # a class of no weight: the area is undefined
        bound = m if metric == "partial_roc_auc" else 1.0
        params = {"max_fpr": m} if metric == "partial_roc_auc" else {}
        v = Vector(metric, 1, "", (), _inputs(y, s, w, **params), "valid", None, {}, None)
        predicted = sklearn_roc_float64(v)
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            got = float(roc_auc_score(y, s, sample_weight=w, **dict.fromkeys(params, m)))
        if predicted is None:
            exact = partial_roc_auc(y, s, w, max_fpr=bound)
            assert abs(got - float(exact)) <= (8 + 4 * n) * 2**-53, (y.tolist(), m)
            continue
        compared += 1
        value = math.nan if predicted is NAN else predicted.float64
        assert _bitwise(value, got), (y.tolist(), s.tolist(), m)
    assert compared > 30


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS is Linux's")
def test_the_weka_jvm_starts_under_an_address_space_cap():
    # by default the JVM reserves a quarter of the machine's memory for its heap and 1 GiB of
    # class space; under the kit's cap (the worker's size plus memory_mb) its threads then
    # failed to start on one full run (pthread_create EAGAIN) and every Weka result crashed
    import resource
    import subprocess

    from prtheory.conformance.adapters import weka_adapter

    path = weka_adapter.jar()
    if path is None or weka_adapter.version() is None:
        pytest.skip("no Java or no Weka jar")

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (2500 * 2**20, resource.RLIM_INFINITY))

    request = '{"id": 1, "fn": "roc_area", "inputs": {"y_true": [1, 0, 1], "y_score": ["0.9", "0.8", "0.7"]}}\n'
    argv = ["java", *weka_adapter.JVM_OPTIONS, "-cp", str(path), str(weka_adapter.SOURCE)]
    done = subprocess.run(
        argv,
        input=request,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=cap,
        check=False,
    )
    # one of the two (positive, negative) pairs ordered: 1/2, and nothing else on stdout
    assert done.stdout.splitlines() == ['{"id": 1, "value": "0.50000000000000000"}'], done.stderr
