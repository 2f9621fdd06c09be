"""Exact PR curve, PR areas and PRG beside scikit-learn's precision_recall_curve and auc.

Regenerate ``reports/benchmarks_curves.md`` with::

    python benchmarks/bench_curves.py

Needs scikit-learn (the ``conformance`` extra). Runs about half an hour on a 2-core machine;
``--sizes 1e4,3e4 --out /tmp/curves.md`` runs every pattern at the sizes given instead (for
trying the script out; the committed report is the default run). The input patterns
(:data:`PATTERNS`) are the cross product of 1% or 50% positives, untied or tied scores, and
unit, integer or 2^+-1000 float weights, with the definitions of ``bench_ap.py`` (its
:func:`bench_ap.make_data`: scores ``uniform + 0.3 y``, tied = rounded to 2 decimals; integer
weights 1 .. 1000; wide = ``(uniform + 0.5) 2**k``, k uniform in -1000 .. 1000); each pattern
runs at the sizes of :data:`PATTERNS` (without gmpy2 at those of :data:`NO_GMPY2_SIZES`).
On the same data it times:

* ``sk curve``: ``sklearn.metrics.precision_recall_curve``; ``sk auc``: the same followed by
  ``sklearn.metrics.auc(recall, precision)`` (the trapezoid with the (0, 1) first point);
* ``trapezoid``: ``pr_auc(method="trapezoid", first_point="sklearn")`` (exact Fraction);
* ``davis-goadrich``: ``pr_auc(method="davis-goadrich", first_point="spark")`` (50 digits);
* on the unit-weight untied patterns (:data:`ALL_METHODS`) also ``pr_curve``
  (``prtheory.oracle.pr_curve(first_point="sklearn")``, exact), ``prg_curve`` and ``auprg``
  (``negative_gain="signed"``, exact Fraction).

Every prtheory method runs twice, in two fresh interpreters: once with gmpy2 importable (the
``fast`` extra) and once with it hidden (``sys.modules["gmpy2"] = None`` before any import), as
on a plain install. Times are medians of ``REPEATS`` runs, interleaved so that load on the
machine hits every method alike; a method whose first call takes more than ``LONG`` seconds is
timed once. Each run checks its results: the exact curve rounds to scikit-learn's precision and
recall bit for bit (unit weights), the distance of scikit-learn's float trapezoid from the
rounded exact one is reported in ulps, and both interpreters produce the same exact values
(compared by residues modulo a large prime). A method that refuses a pattern's input
(``InvalidInputError``) is reported as not defined there, with the error's message.

Each exact area slower than ``TARGET`` times ``sk auc`` is measured once more, in the
interpreter of its backend, with the steps of :mod:`prtheory.oracle.areas` timed and counted
(:class:`Meter`: the exact operating points, the rational sum and the bits of the exact
result's denominator for the trapezoid; the segment terms and the logarithms evaluated for
Davis-Goadrich), and profiled with cProfile (``prtheory._testing.profiles``); the report gives
both and a cause statement written from those numbers. The report records the sha256 of this
script; a test fails when the report is stale.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from machine import facts, report_header

ROOT = Path(__file__).resolve().parents[1]
REPORT = ROOT / "reports" / "benchmarks_curves.md"
#: pattern -> sizes. A name is bench_ap's scores pattern ("untied", "tied", "half",
#: "half-tied"), then "-integer" or "-wide" for its weights; "integer" and "wide" alone are
#: bench_ap's patterns of those names (1% positives, untied).
PATTERNS = {
    "untied": (10**5, 10**6, 10**7),
    "tied": (10**5, 10**6, 10**7),
    "integer": (10**5, 10**6, 10**7),
    "tied-integer": (10**5, 10**6, 10**7),
    "wide": (10**5, 10**6),
    "tied-wide": (10**5, 10**6),
    "half": (10**5, 10**6),
    "half-tied": (10**5, 10**6, 10**7),
    "half-integer": (10**5, 10**6),
    "half-tied-integer": (10**5, 10**6, 10**7),
    "half-wide": (2 * 10**3, 10**4, 10**5),
    "half-tied-wide": (10**5, 10**6),
}
#: the sizes without gmpy2 where they differ: the pure-Python rational sum of the exact
#: trapezoid takes minutes per call beyond these (the report gives the time at the largest)
NO_GMPY2_SIZES = {"wide": (10**5,), "half-wide": (2 * 10**3,)}
ALL_METHODS = ("untied", "half")  # the patterns on which every method runs
AREAS = ("trapezoid", "davis-goadrich")
EXACT = ("pr_curve", "trapezoid", "davis-goadrich", "prg_curve", "auprg")
SKLEARN = ("sk curve", "sk auc")
REPEATS = 3
LONG = 30.0  # seconds: a method whose first call takes longer is timed once
TARGET = 3.0  # exact areas <= 3x sk auc
PRIME = 2**61 - 1
BACKENDS = ("gmpy2", "no gmpy2")
#: what :class:`Meter` records (0 where a step did not run)
FACTS = (
    "points",
    "weight bits",
    "terms",
    "term denominator bits",
    "segments",
    "logs",
    "mpmath logs",
    "rounds",
    "fraction bits",
)


def make_data(n: int, pattern: str):
    """``(y, scores, weights)`` of a pattern: bench_ap's data of that name if it has one, else
    bench_ap's scores pattern with the weights of its ``integer`` or ``wide`` pattern."""
    import bench_ap

    if pattern in bench_ap.PATTERNS:
        return bench_ap.make_data(n, pattern)
    scores, _, weights = pattern.rpartition("-")
    y, s, _ = bench_ap.make_data(n, scores)
    return y, s, bench_ap.make_data(n, weights)[2]


def describe(pattern: str) -> tuple[str, str, str]:
    """(positives, scores, weights) of a pattern name, for the report's columns."""
    weights = next((w for w in ("integer", "wide") if pattern.endswith(w)), "unit")
    return (
        "50%" if pattern.startswith("half") else "1%",
        "tied" if "tied" in pattern.split("-") else "untied",
        weights,
    )


def methods_of(pattern: str, backend: str) -> tuple[str, ...]:
    exact = EXACT if pattern in ALL_METHODS else AREAS
    return exact + (SKLEARN if backend == BACKENDS[0] else ())


def calls(y, s, w) -> dict:
    from sklearn.metrics import auc, precision_recall_curve

    from prtheory.oracle import auprg, pr_auc, pr_curve, prg_curve

    def sk_auc():
        precision, recall, _ = precision_recall_curve(y, s, sample_weight=w)
        return auc(recall, precision)

    return {
        "sk curve": lambda: precision_recall_curve(y, s, sample_weight=w),
        "sk auc": sk_auc,
        "pr_curve": lambda: pr_curve(y, s, w, first_point="sklearn"),
        "trapezoid": lambda: pr_auc(y, s, w, method="trapezoid", first_point="sklearn"),
        "davis-goadrich": lambda: pr_auc(y, s, w, method="davis-goadrich", first_point="spark"),
        "prg_curve": lambda: prg_curve(y, s, w),
        "auprg": lambda: auprg(y, s, w, negative_gain="signed"),
    }


def residue(value) -> str:
    """A short fingerprint of an exact result (Fraction: residues mod PRIME; mpf: 40 digits)."""
    import mpmath

    if isinstance(value, mpmath.mpf):
        return mpmath.nstr(value, 40)
    if hasattr(value, "numerator"):
        return f"{value.numerator % PRIME}/{value.denominator % PRIME}"
    num = value.numerators.astype(object) % PRIME  # a Ratios: fingerprint every item
    den = value.denominators.astype(object) % PRIME
    return f"{int((num * 3 + den).sum()) % PRIME}:{len(value)}"


def fingerprint(name: str, value) -> str:
    if name == "pr_curve":
        return residue(value.precision) + " " + residue(value.recall)
    if name == "prg_curve":
        return residue(value.precision_gain) + " " + residue(value.recall_gain)
    return residue(value)


def ulps(a: float, b: float) -> float:
    import numpy as np

    return abs(a - b) / float(np.spacing(b))


def hide_gmpy2(backend: str) -> None:
    if backend == "no gmpy2":
        sys.modules["gmpy2"] = None  # before numpy, mpmath and prtheory are imported
    sys.path.insert(0, str(ROOT))


def time_case(n: int, pattern: str, backend: str) -> dict:
    """One JSON-able row: the median times of every method on one pattern and size."""
    from prtheory.errors import InvalidInputError

    y, s, w = make_data(n, pattern)
    fns = calls(y, s, w)
    names = list(methods_of(pattern, backend))
    times: dict[str, list[float]] = {m: [] for m in names}
    values, refused = {}, {}
    for repeat in range(REPEATS):
        for m in names:
            if repeat and (m in refused or times[m][0] > LONG):
                continue
            t0 = time.perf_counter()
            try:
                values[m] = fns[m]()
            except InvalidInputError as e:
                refused[m] = str(e)
                continue
            times[m].append(time.perf_counter() - t0)
    row = {"n": n, "pattern": pattern, "backend": backend, "not defined": refused}
    row["time"] = {m: statistics.median(t) for m, t in times.items() if t}
    row["runs"] = {m: len(t) for m, t in times.items() if t}
    row["fingerprint"] = {m: fingerprint(m, v) for m, v in values.items() if m in EXACT}
    if "sk curve" in values and "pr_curve" in values:
        precision, recall, _ = values["sk curve"]
        curve = values["pr_curve"]
        assert (curve.precision.to_float() == precision[::-1]).all(), "precision differs"
        assert (curve.recall.to_float() == recall[::-1]).all(), "recall differs"
    if "sk auc" in values and "trapezoid" in values:
        row["sk auc ulps"] = ulps(values["sk auc"], float(values["trapezoid"]))
    return row


class Meter:
    """Wall time and facts of the steps of :mod:`prtheory.oracle.areas` during one call.

    While active, the functions of ``areas`` named in :meth:`__enter__` are replaced by wrappers
    that add up their wall time and record what they were given (numbers of terms, bits of
    integers, logarithms); the time the records take is kept apart (``overhead``).
    """

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.facts: dict[str, int] = defaultdict(int)
        self.overhead = 0.0
        self._in_series = 0
        self._saved: list[tuple[str, object]] = []

    def _wrap(self, name: str, note=None) -> None:
        import prtheory.oracle.areas as areas

        original = getattr(areas, name)

        def timed(*args, **kwargs):
            if name == "_fixed_logs":  # pairs come as an iterator: count them
                args = (list(args[0]), *args[1:])
            key = f"{name} (in series)" if name == "_fixed_logs" and self._in_series else name
            self._in_series += name == "_fixed_log_ratios"
            t0 = time.perf_counter()
            try:
                out = original(*args, **kwargs)
            finally:
                self.seconds[key] += time.perf_counter() - t0
                self._in_series -= name == "_fixed_log_ratios"
            t1 = time.perf_counter()
            if note is not None:
                note(args, out)
            self.overhead += time.perf_counter() - t1
            return out

        self._saved.append((name, original))
        setattr(areas, name, timed)

    def __enter__(self) -> Meter:
        f = self.facts

        def points(args, out):
            f["points"] = len(out)
            f["weight bits"] = max(int(out.pos).bit_length(), int(out.neg).bit_length())

        def summed(args, out):
            nums, dens = args[:2]
            f["terms"] += len(nums)
            bits = int(dens.max()).bit_length() if len(dens) else 0
            f["term denominator bits"] = max(f["term denominator bits"], bits)

        def logs(args, out):
            f["logs"] += len(args[0])

        def fallback(args, out):
            f["mpmath logs"] += len(args[0])
            if not self._in_series:  # a segment cut by the recall range: one more logarithm
                f["logs"] += len(args[0])

        def rounds(args, out):
            f["rounds"] += 1
            f["fraction bits"] = args[1]

        def segments(args, out):
            f["segments"] = len(out[0][0]) + len(out[1])

        self._wrap("operating_points", points)
        self._wrap("rational_sum", summed)
        self._wrap("dg_terms", segments)
        self._wrap("dg_fixed_sum", rounds)
        self._wrap("_fixed_log_ratios", logs)
        self._wrap("_fixed_logs", fallback)
        return self

    def __exit__(self, *exc) -> None:
        import prtheory.oracle.areas as areas

        for name, original in reversed(self._saved):
            setattr(areas, name, original)


def measure(n: int, pattern: str, method: str) -> dict:
    """The steps of one call timed and counted (:class:`Meter`), then its cProfile."""
    from prtheory._testing.profiles import profile_call

    y, s, w = make_data(n, pattern)
    fn = calls(y, s, w)[method]
    with Meter() as meter:
        t0 = time.perf_counter()
        value = fn()
        total = time.perf_counter() - t0 - meter.overhead
    facts = {k: meter.facts[k] for k in FACTS}
    if hasattr(value, "denominator"):
        facts["result denominator bits"] = value.denominator.bit_length()
    return {
        "total": total,
        "seconds": dict(meter.seconds),
        "facts": facts,
        "profile": profile_call(fn, top=12),
    }


def worker(backend: str, job: str, items: list) -> None:
    """Time (``job == "time"``) or measure (``"measure"``) each item; one JSON line each."""
    hide_gmpy2(backend)
    for item in items:
        row = time_case(*item, backend) if job == "time" else {"key": item, **measure(*item)}
        print(json.dumps(row), flush=True)


def run(backend: str, job: str, items: list) -> list[dict]:
    if not items:
        return []
    out = subprocess.run(
        [sys.executable, __file__, "--worker", backend, job, json.dumps(items)],
        check=True,
        capture_output=True,
        text=True,
    )
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def cases(backend: str, sizes: list[int] | None) -> list[tuple[int, str]]:
    """(n, pattern) pairs to run: ``sizes`` for every pattern if given, else the defaults."""
    own = NO_GMPY2_SIZES if backend == BACKENDS[1] else {}
    return [(n, p) for p, default in PATTERNS.items() for n in sizes or own.get(p, default)]


def misses(rows: list[dict], sk: dict) -> list[tuple[int, str, str]]:
    return [
        (r["n"], r["pattern"], m)
        for r in rows
        for m in AREAS
        if m in r["time"] and r["time"][m] / sk[(r["n"], r["pattern"])]["sk auc"] > TARGET
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", help="comma-separated sizes for every pattern, e.g. 1e4,3e4")
    parser.add_argument("--out", type=Path, default=REPORT, help="report to write")
    args = parser.parse_args()
    sizes = [int(float(x)) for x in args.sizes.split(",")] if args.sizes else None
    machine = facts()
    rows = {b: run(b, "time", cases(b, sizes)) for b in BACKENDS}
    fast = {(r["n"], r["pattern"]): r for r in rows[BACKENDS[0]]}
    for r in rows[BACKENDS[1]]:
        assert r["fingerprint"] == fast[(r["n"], r["pattern"])]["fingerprint"], r
    sk = {k: r["time"] for k, r in fast.items()}
    measured = {
        b: {tuple(m["key"]): m for m in run(b, "measure", misses(rows[b], sk))} for b in BACKENDS
    }
    args.out.write_text("\n".join(report(machine, rows, sk, measured)) + "\n")
    print(args.out.read_text())


def _fmt(x: float) -> str:
    return f"{x:.3f}" if x < 100 else f"{x:.0f}"


def _ratio(row: dict, method: str, sk: dict) -> float:
    base = sk[(row["n"], row["pattern"])]
    return row["time"][method] / base["sk curve" if method.endswith("curve") else "sk auc"]


def _cell(row: dict, method: str, sk: dict | None = None) -> str:
    """A table cell: the time of ``method`` (its ratio to scikit-learn when ``sk`` is given),
    ``n/d`` where the method refused the input, ``-`` where it was not run."""
    if method in row["not defined"]:
        return "n/d"
    if method not in row["time"]:
        return "-"
    return f"{_ratio(row, method, sk):.1f}" if sk else _fmt(row["time"][method])


def timing_tables(rows: list[dict], sk: dict) -> list[str]:
    names = ("sk curve", "sk auc", *EXACT)
    lines = ["| n | positives | scores | weights | " + " | ".join(f"{m} s" for m in names) + " |"]
    lines += ["|---:|---|---|---|" + "---:|" * len(names)]
    for r in rows:
        base = sk[(r["n"], r["pattern"])]
        cells = [f"{r['n']:.0e}", *describe(r["pattern"])]
        cells += [_fmt(base[m]) for m in SKLEARN]
        cells += [_cell(r, m) for m in EXACT]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "Ratios to scikit-learn:", ""]
    lines += [
        "| n | positives | scores | weights | " + " | ".join(f"{m} / sk" for m in EXACT) + " |"
    ]
    lines += ["|---:|---|---|---|" + "---:|" * len(EXACT)]
    for r in rows:
        cells = [f"{r['n']:.0e}", *describe(r["pattern"])]
        cells += [_cell(r, m, sk) for m in EXACT]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def summary_table(rows: dict[str, list[dict]], sk: dict) -> list[str]:
    """Per pattern: the sizes run and the area ratios at each size, per backend."""
    lines = [
        "| positives | scores | weights | sizes (gmpy2 / without) | "
        + " | ".join(f"{m} / sk auc, {b}" for m in AREAS for b in BACKENDS)
        + " | slowest area s at the largest size, gmpy2 / without |",
        "|---|---|---|---|" + "---:|" * (len(AREAS) * len(BACKENDS) + 1),
    ]
    for p in PATTERNS:
        of = {b: [r for r in rows[b] if r["pattern"] == p] for b in BACKENDS}
        if not of[BACKENDS[0]]:
            continue
        sizes = " / ".join(", ".join(f"{r['n']:.0e}" for r in of[b]) or "-" for b in BACKENDS)
        cells = [*describe(p), sizes]
        for m in AREAS:
            for b in BACKENDS:
                shown = [_cell(r, m, sk) for r in of[b]]
                cells.append(" / ".join(shown) or "-")
        cells.append(" / ".join(_slowest(of[b][-1]) if of[b] else "-" for b in BACKENDS))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _slowest(row: dict) -> str:
    times = {m: row["time"][m] for m in AREAS if m in row["time"]}
    if not times:
        return "-"
    m = max(times, key=times.get)
    return f"{_fmt(times[m])} ({m})"


def _share(seconds: float, total: float) -> str:
    return f"{seconds / total:.0%} ({seconds:.3g} s)"


def cause(method: str, m: dict) -> str:
    """A cause statement for one miss, from the measured steps (:func:`measure`)."""
    f, sec, total = m["facts"], m["seconds"], m["total"]
    points = sec.get("operating_points", 0.0)
    parts = {
        "the exact operating points": (
            points,
            f"`counts.operating_points` ({f['points']} distinct scores; the total weights "
            f"are integers of {f['weight bits']} bits over one common denominator)",
        )
    }
    if method == "trapezoid":
        summed = sec.get("rational_sum", 0.0)
        parts["the exact sum"] = (
            summed,
            f"`summation.rational_sum` of {f['terms']} quotients with denominators "
            f"(predicted weights) of up to {f['term denominator bits']} bits",
        )
        rest = total - points - summed
        result = (
            f"The exact area's reduced denominator has {f['result denominator bits']} bits "
            f"({f['result denominator bits'] / max(f['terms'], 1):.1f} bits per term)"
        )
    else:
        logs = sec.get("_fixed_log_ratios", 0.0) + sec.get("_fixed_logs", 0.0)
        terms = sec.get("dg_terms", 0.0)
        fixed = sec.get("dg_fixed_sum", 0.0) - logs
        parts["the logarithms"] = (
            logs,
            f"{f['logs']} logarithms, {f['logs'] - f['mpmath logs']} by the fixed-point atanh "
            f"series and {f['mpmath logs']} by mpmath, "
            f"{1e6 * logs / max(f['logs'], 1):.1f} µs per logarithm on average",
        )
        parts["the segment terms"] = (
            terms,
            f"`dg_terms`, {f['segments']} segments as Python-integer arrays",
        )
        parts["the rest of the fixed-point sum"] = (fixed, "flooring the rational terms")
        rest = total - points - logs - terms - fixed
        result = (
            f"The fixed-point sum ran {f['rounds']} round(s), the last at "
            f"{f['fraction bits']} fraction bits"
        )
    listed = "; ".join(f"{k}, {v[1]}: {_share(v[0], total)}" for k, v in parts.items())
    top = max(parts, key=lambda k: parts[k][0])
    return (
        f"In a separate timed call ({total:.3g} s): {listed}; everything else "
        f"(validation, the area's term arrays): {_share(rest, total)}. {result}. "
        f"The largest part is {top}, {parts[top][0] / total:.0%} of the call."
    )


def missed_section(rows: dict[str, list[dict]], sk: dict, measured: dict) -> list[str]:
    lines = ["", "## Targets missed", ""]
    if not any(measured.values()):
        return [*lines, "None: every exact area was within 3x `sk auc` in this run."]
    lines += [
        f"Every exact area above {TARGET:.0f}x `sk auc`, with the steps of",
        "`prtheory/oracle/areas.py` timed and counted in a separate call and the cProfile of",
        "one more call (top 12 functions by cumulative time).",
    ]
    for b in BACKENDS:
        by_key = {(r["n"], r["pattern"]): r for r in rows[b]}
        for (n, pattern, method), m in measured[b].items():
            r = by_key[(n, pattern)]
            sk_auc = sk[(n, pattern)]["sk auc"]
            lines += [
                "",
                f"### {method}, n = {n:.0e}, {pattern} ({', '.join(describe(pattern))}), {b}",
                "",
                f"{r['time'][method]:.3g} s against {sk_auc:.3g} s for `sk auc` "
                f"({_ratio(r, method, sk):.1f}x). " + cause(method, m),
                "",
                "```",
                m["profile"],
                "```",
            ]
    return lines


def report(machine: dict, rows: dict[str, list[dict]], sk: dict, measured: dict) -> list[str]:
    lines = [
        *report_header("Benchmarks: exact PR curve, PR areas and PRG", Path(__file__), machine),
        "",
        "## What is measured",
        "",
        "Same data for every method: n items, about 1% or 50% positives, scores `uniform + 0.3 y`",
        "untied or rounded to 2 decimals (`tied`, about 130 distinct values); weights unit,",
        "`integer` (1 .. 1000) or `wide` (`(uniform + 0.5) 2**k`, k uniform in -1000 .. 1000):",
        "the data of `benchmarks/bench_ap.py` (patterns `untied`, `tied`, `integer`, `wide`,",
        "`half`, `half-tied`; the other combinations take its scores and its weights).",
        f"Times: median of {REPEATS} interleaved runs, seconds (one run where the first took",
        f"more than {LONG:.0f} s). `sk curve` = `sklearn.metrics.precision_recall_curve`;",
        "`sk auc` = that plus `sklearn.metrics.auc` (float trapezoid, first point (0, 1)).",
        "prtheory: `trapezoid` (`pr_auc`, exact Fraction, first point (0, 1): the exact value of",
        "what `sk auc` computes in floats) and `davis-goadrich` (`pr_auc`, 50 digits,",
        "`first_point='spark'`) on every pattern; on the unit-weight untied patterns also",
        "`pr_curve` (exact, `first_point='sklearn'`), `prg_curve` (exact, with crossings) and",
        "`auprg` (signed, exact Fraction); `-`: not run. Ratios: curves / `sk curve`, areas /",
        f"`sk auc`; target for the exact areas: <= {TARGET:.0f}x. Each run checked: the exact PR",
        "curve rounds to scikit-learn's precision and recall bit for bit; `sk auc ulps` =",
        "distance of scikit-learn's float trapezoid from the rounded exact one; the runs with",
        "and without gmpy2 give identical exact values.",
        "",
        "Sizes (summary below): 10^5 to 10^7 items where the exact areas take seconds at 10^7",
        "(1% positives or tied scores, unit or integer weights); the other patterns stop at",
        "the size where their slowest exact area takes from seconds to minutes per call",
        "(column `slowest area`, at the largest size run; the exact trapezoid's rational sum",
        "grows faster than n), so that the whole run takes about half an hour on 2 cores.",
        "Without gmpy2 "
        + " and ".join(
            f"`{p}` runs at {', '.join(f'{n:.0e}' for n in s)}" for p, s in NO_GMPY2_SIZES.items()
        )
        + " only (the smaller sizes are run with gmpy2 too, for scikit-learn's time).",
    ]
    refused = sorted(
        {
            (m, r["pattern"], why)
            for b in BACKENDS
            for r in rows[b]
            for m, why in r["not defined"].items()
        }
    )
    lines += ["", "## Exact areas against the 3x target", ""]
    lines += ["Ratios to `sk auc` at each size run, in the order of the sizes column.", ""]
    lines += summary_table(rows, sk)
    lines += [
        "",
        "Not defined (`n/d`): " + ("none: both areas accept every pattern." if not refused else ""),
    ]
    lines += [f"- {m} on `{p}`: {why}" for m, p, why in refused]
    for title, b in (
        ("with gmpy2 (the `fast` extra)", BACKENDS[0]),
        ("without gmpy2", BACKENDS[1]),
    ):
        lines += ["", f"## Times {title}", ""]
        lines += timing_tables(rows[b], sk)
    lines += ["", "## scikit-learn's float trapezoid against the exact one", ""]
    lines += ["| n | positives | scores | weights | sk auc ulps |", "|---:|---|---|---|---:|"]
    lines += [
        f"| {r['n']:.0e} | {' | '.join(describe(r['pattern']))} | {r['sk auc ulps']:.0f} |"
        for r in rows[BACKENDS[0]]
        if "sk auc ulps" in r
    ]
    lines += missed_section(rows, sk, measured)
    return lines


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--worker":
        worker(sys.argv[2], sys.argv[3], json.loads(sys.argv[4]))
    else:
        main()
