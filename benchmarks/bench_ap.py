"""Average precision: prtheory (correctly rounded float, exact rational) beside scikit-learn.

Regenerate ``reports/benchmarks.md`` with::

    python benchmarks/bench_ap.py

Needs scikit-learn (the ``conformance`` extra). Runs about half an hour on a 2-core machine.
For each n in 10^5, 10^6, 10^7 and each input pattern of :data:`PATTERNS` (1% or 50% positives;
untied, tied; unit, integer, uniform float or 2^+-1000 float weights; :func:`make_data`) it
times, on the same data (the exact AP only where :data:`EXACT_LARGEST` and
:data:`EXACT_PY_LARGEST` allow):

* ``sklearn``: ``sklearn.metrics.average_precision_score``;
* ``float``: ``prtheory.average_precision`` (correctly rounded float64);
* ``exact``: ``prtheory.oracle.average_precision`` (exact Fraction), with the summation backend
  that is installed (gmpy2 when the ``fast`` extra is present), and ``exact-py`` with the
  pure-Python backend.

Times are medians of ``REPEATS`` runs, interleaved so that load on the machine hits every method
alike. Peak memory is the tracemalloc peak (numpy reports its buffers to tracemalloc) of one call
in a fresh subprocess, with the input generated and one warm-up call on 1000 items of the same
pattern made before tracing starts (so that loading compiled code, e.g. numba's cache, is not
counted as the call's memory). When a ratio misses its
target (float <= 1.0 x sklearn; exact <= 1.5 x sklearn) the report includes the cProfile of that
call, with paths relative to the package or the repository (``prtheory._testing.profiles``). The report records the sha256 of this script; a test fails when the report is stale.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from machine import facts, report_header

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # the prtheory of this checkout, installed or not
    sys.path.insert(0, str(ROOT))

from prtheory._testing.profiles import profile_call  # noqa: E402
from prtheory._testing.ulps import ulp_distance  # noqa: E402

REPORT = ROOT / "reports" / "benchmarks.md"
SIZES = (10**5, 10**6, 10**7)
PATTERNS = ("untied", "tied", "weighted", "integer", "half", "half-tied", "half-weighted", "wide")
# at 10**7 "half-weighted" and "wide" take minutes per exact call and about 7 GB: the exact AP
# is not run there (scikit-learn and the float AP are)
EXACT_LARGEST = {"half-weighted": 10**6, "wide": 10**6}
# the pure-Python exact backend takes minutes per call on these beyond 10**5: not run there
EXACT_PY_LARGEST = {"half-weighted": 10**5, "wide": 10**5}
METHODS = ("sklearn", "float", "exact", "exact-py")
# exact-py is what a plain install (no gmpy2) gets, so it is held to the exact target too
TARGETS = {"float": 1.0, "exact": 1.5, "exact-py": 1.5}
REPEATS = 3
POSITIVE_RATE = 0.01


def make_data(n: int, pattern: str) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    rng = np.random.default_rng(n + len(pattern))
    rate = 0.5 if pattern.startswith("half") else POSITIVE_RATE
    y = (rng.random(n) < rate).astype(np.int64)
    scores = rng.random(n) + 0.3 * y  # informative scores, AP well above the base rate
    if pattern in ("tied", "half-tied"):
        scores = np.round(scores, 2)
    weights = rng.random(n) if pattern in ("weighted", "half-weighted") else None
    if pattern == "integer":  # counts as weights: 1 .. 1000
        weights = rng.integers(1, 1001, n).astype(np.float64)
    if pattern == "wide":  # float weights spanning 2**-1000 .. 2**1000
        weights = np.ldexp(rng.random(n) + 0.5, rng.integers(-1000, 1001, n))
    return y, scores, weights


def method(name: str):
    """The callable timed as ``name`` (see the module docstring)."""
    if name == "sklearn":
        from sklearn.metrics import average_precision_score

        return lambda y, s, w: average_precision_score(y, s, sample_weight=w)
    if name == "float":
        import prtheory

        return prtheory.average_precision
    from prtheory.oracle import average_precision, summation

    backend = "python" if name == "exact-py" else summation.BACKENDS[0]

    def exact(y, s, w):
        summation.backend = backend
        return average_precision(y, s, w)

    return exact


def _methods(n: int, pattern: str) -> tuple[str, ...]:
    skip = set()
    if n > EXACT_PY_LARGEST.get(pattern, n):
        skip.add("exact-py")
    if n > EXACT_LARGEST.get(pattern, n):
        skip.add("exact")
    return tuple(m for m in METHODS if m not in skip)


def time_all(n: int, pattern: str) -> dict[str, float]:
    y, s, w = make_data(n, pattern)
    methods = _methods(n, pattern)
    fns = {m: method(m) for m in methods}
    times: dict[str, list[float]] = {m: [] for m in methods}
    values = {}
    for _ in range(REPEATS):
        for m in methods:
            t0 = time.perf_counter()
            values[m] = fns[m](y, s, w)
            times[m].append(time.perf_counter() - t0)
    if "exact" in values:  # else unchecked here (tests check the float paths against it)
        exact = values["exact"]
        assert values.get("exact-py", exact) == exact
        assert values["float"] == float(exact), "float AP is not the rounded exact AP"
    return {m: statistics.median(t) for m, t in times.items()} | {
        "ulps_sklearn": ulp_distance(values["sklearn"], values["float"])
    }


def peak_memory(n: int, pattern: str, name: str) -> int:
    """tracemalloc peak of one call, in a fresh interpreter, after a warm-up call (bytes)."""
    code = (
        "import sys, tracemalloc; sys.path.insert(0, sys.argv[1]);"
        "import bench_ap as b; y, s, w = b.make_data(int(sys.argv[2]), sys.argv[3]);"
        "f = b.method(sys.argv[4]); f(*b.make_data(1000, sys.argv[3]));"
        "tracemalloc.start(); f(y, s, w);"
        "print(tracemalloc.get_traced_memory()[1])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(Path(__file__).parent), str(n), pattern, name],
        check=True,
        capture_output=True,
        text=True,
    )
    return int(out.stdout.strip().splitlines()[-1])


def profile(n: int, pattern: str, name: str) -> str:
    y, s, w = make_data(n, pattern)
    return profile_call(method(name), y, s, w, top=12)


def main() -> None:
    rows = []
    for n in SIZES:
        for pattern in PATTERNS:
            t = time_all(n, pattern)
            mem = {m: peak_memory(n, pattern, m) for m in ("sklearn", "float", "exact") if m in t}
            rows.append({"n": n, "pattern": pattern, "time": t, "mem": mem})
            print(json.dumps(rows[-1]), flush=True)
    missed = [
        (r["n"], r["pattern"], m)
        for r in rows
        for m, target in TARGETS.items()
        if m in r["time"] and r["time"][m] / r["time"]["sklearn"] > target
    ]
    profiles = [(k, profile(*k)) for k in missed]
    write_report(rows, profiles)
    print(REPORT.read_text())


def write_report(rows, profiles) -> None:
    lines = [
        *report_header("Benchmarks: average precision", Path(__file__), facts()),
        "",
        "## What is measured",
        "",
        f"Same data for every method: n items, about {POSITIVE_RATE:.0%} positives, scores",
        "uniform (`untied`) or rounded to 2 decimals (`tied`, about 130 distinct values);",
        "`weighted`: untied scores with uniform float sample weights (about 20 binades);",
        "`integer`: untied scores, integer weights 1 .. 1000 (given as floats);",
        "`half`, `half-tied` and `half-weighted`: 50% positives (unit weights, untied and tied;",
        "uniform float weights); `wide`: 1% positives, float weights spanning 2**-1000 ..",
        "2**1000. For `half-weighted` and `wide` the exact AP is not run at 10**7 (minutes per",
        "call and about 7 GB), and the pure-Python one (`exact-py`) only at 10**5 (minutes per",
        "call beyond): `-` in the table; where the exact AP is run, the float AP is checked to be",
        "its rounding (elsewhere the tests check the float paths against it).",
        f"Times: median of {REPEATS} interleaved runs, seconds. Ratios: prtheory / scikit-learn.",
        "`float` = `prtheory.average_precision` (correctly rounded float64); `exact` =",
        "`prtheory.oracle.average_precision` (exact Fraction) with the installed summation",
        "backend; `exact-py` = the same with the pure-Python backend. Memory: tracemalloc",
        "peak of one call in a fresh process. `sklearn ulps` = distance of scikit-learn's value",
        "from the correctly rounded one. Targets: float <= 1.0 x, exact and exact-py <= 1.5 x",
        "scikit-learn.",
        "",
        "| n | scores | sklearn s | float s | exact s | exact-py s | float / sk | exact / sk "
        "| exact-py / sk | sklearn MB | float MB | exact MB | float mem / sk | sklearn ulps |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        t, mem = r["time"], r["mem"]
        sk = t["sklearn"]
        (ex, ex_ratio), (py, py_ratio) = (
            (f"{t[m]:.3f}", f"{t[m] / sk:.2f}") if m in t else ("-", "-")
            for m in ("exact", "exact-py")
        )
        ex_mb = f"{mem['exact'] / 2**20:.1f}" if "exact" in mem else "-"
        lines.append(
            f"| {r['n']:.0e} | {r['pattern']} | {sk:.3f} | {t['float']:.3f} | {ex} "
            f"| {py} | {t['float'] / sk:.2f} | {ex_ratio} "
            f"| {py_ratio} | {mem['sklearn'] / 2**20:.1f} "
            f"| {mem['float'] / 2**20:.1f} | {ex_mb} "
            f"| {mem['float'] / mem['sklearn']:.2f} | {t['ulps_sklearn']} |"
        )
    lines += ["", "## Targets missed", ""]
    if not profiles:
        lines.append("None: every ratio met its target in this run.")
    for (n, pattern, name), text in profiles:
        lines += [f"### {name}, n = {n:.0e}, {pattern}", "", "```", text, "```", ""]
    REPORT.parent.mkdir(exist_ok=True)
    REPORT.write_text("\n".join(lines).rstrip() + "\n")


if __name__ == "__main__":
    main()
