"""Float-weighted AP, PR curve, PR trapezoid and ROC AUC beside scikit-learn, in one process.

Regenerate ``reports/benchmarks_float_weights.md`` with::

    python benchmarks/bench_float_weights.py [--sizes 1e6 1e7] [--repeats 3]

Needs scikit-learn and numba (the compiled path; the numpy path is timed in the same run with
``prtheory.floats.set_backend("numpy")``). Every pattern of
``{AP, PR curve, trapezoid, ROC AUC} x {10^6, 10^7 items} x {1 %, 50 % positives} x {untied,
tied scores} x {unit, uniform, 10**uniform(-6, 6), 2**±1000 weights}``: informative scores
``uniform + 0.3 y`` (seeded), tied = rounded to 3 decimals (about 1300 distinct values);
weights ``None``, ``uniform(0, 1)``, ``10**uniform(-6, 6)`` (twelve decades) and
``uniform(0.5, 1) 2**±1000`` (each sign with probability 1/2).

Calls: ``prtheory.average_precision`` / ``average_precision_score``;
``prtheory.precision_recall_curve`` / ``precision_recall_curve``;
``prtheory.pr_auc(method="trapezoid")`` / ``auc(*precision_recall_curve(...)[1::-1])``;
``prtheory.roc_auc`` / ``roc_auc_score``. The three calls of a pattern (compiled, numpy,
scikit-learn) are interleaved, in a rotating order, ``--repeats`` times; the minimum of each is
reported and the ratios are of minima. The machine's load average is recorded before and after
every pattern: timings taken under load are noisy and the ratio of two calls is what this
report gives. Each pattern checks that the compiled and the numpy path return the same floats,
bit for bit (two algorithms, each correctly rounded), and gives scikit-learn's largest distance
from them in ulps. The report records the sha256 of this script; a test fails when the report is
stale.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from machine import facts, report_header  # noqa: E402

from prtheory._testing.ulps import ulp_distance  # noqa: E402

REPORT = ROOT / "reports" / "benchmarks_float_weights.md"
WEIGHTS = ("unit", "uniform", "decades", "2**+-1000")
METRICS = ("AP", "PR curve", "trapezoid", "ROC AUC")
TARGETS = {"compiled": 1.0, "numpy": 2.0}


def make_data(n: int, p: float, ties: bool, weights: str):
    rng = np.random.default_rng([n, int(p * 100), int(ties), WEIGHTS.index(weights)])
    y = (rng.random(n) < p).astype(np.int64)
    s = rng.random(n) + 0.3 * y
    if ties:
        s = np.round(s, 3)
    w = {
        "unit": None,
        "uniform": rng.random(n),
        "decades": 10.0 ** rng.uniform(-6, 6, n),
        "2**+-1000": np.ldexp(rng.uniform(0.5, 1.0, n), rng.choice([-1000, 1000], n)),
    }[weights]
    return y, s, w


def calls(metric: str, y, s, w):
    """``(prtheory call, scikit-learn call)``."""
    import sklearn.metrics as sk

    import prtheory

    if metric == "AP":
        return (
            lambda: prtheory.average_precision(y, s, sample_weight=w),
            lambda: sk.average_precision_score(y, s, sample_weight=w),
        )
    if metric == "PR curve":
        return (
            lambda: tuple(prtheory.precision_recall_curve(y, s, sample_weight=w)),
            lambda: sk.precision_recall_curve(y, s, sample_weight=w),
        )
    if metric == "trapezoid":
        return (
            lambda: prtheory.pr_auc(y, s, sample_weight=w, method="trapezoid"),
            lambda: sk.auc(*sk.precision_recall_curve(y, s, sample_weight=w)[1::-1]),
        )
    return (
        lambda: prtheory.roc_auc(y, s, sample_weight=w),
        lambda: sk.roc_auc_score(y, s, sample_weight=w),
    )


def _ulps(ours, theirs) -> float:
    """scikit-learn's largest distance from prtheory's value(s), in ulps."""
    if isinstance(ours, tuple):
        return max(
            max(ulp_distance(float(a), float(b)) for a, b in zip(o, t, strict=True))
            for o, t in zip(ours[:2], theirs[:2], strict=True)
        )
    return ulp_distance(float(theirs), float(ours))


def _same(a, b) -> bool:
    if isinstance(a, tuple):
        return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    return float(a).hex() == float(b).hex()


def run_pattern(metric: str, data, repeats: int) -> dict:
    from prtheory import floats

    ours, theirs = calls(metric, *data)
    names = ("compiled", "numpy", "sklearn")
    times: dict[str, list[float]] = {k: [] for k in names}
    values = {}
    load = [os.getloadavg()[0]]
    for r in range(repeats):
        for name in names[r % 3 :] + names[: r % 3]:
            previous = floats.set_backend("numpy" if name == "numpy" else "numba")
            try:
                t0 = time.perf_counter()
                values[name] = (theirs if name == "sklearn" else ours)()
                times[name].append(time.perf_counter() - t0)
            finally:
                floats.set_backend(previous)
    load.append(os.getloadavg()[0])
    best = {k: min(v) for k, v in times.items()}
    return {
        **best,
        "compiled ratio": best["compiled"] / best["sklearn"],
        "numpy ratio": best["numpy"] / best["sklearn"],
        "same": _same(values["compiled"], values["numpy"]),
        "sk ulps": _ulps(values["compiled"], values["sklearn"]),
        "load": f"{load[0]:.1f}-{load[1]:.1f}",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e6, 1e7])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    warnings.simplefilter("ignore")  # scikit-learn's own warnings are not what is measured
    machine = facts()
    uptime_start = (
        Path("/proc/uptime").read_text().split()[0] if Path("/proc/uptime").exists() else "?"
    )
    rows = []
    for n in (int(v) for v in args.sizes):
        for p in (0.01, 0.5):
            for ties in (False, True):
                for weights in WEIGHTS:
                    data = make_data(n, p, ties, weights)
                    for metric in METRICS:
                        row = run_pattern(metric, data, args.repeats)
                        row.update(
                            metric=metric,
                            n=n,
                            positives=f"{p:.0%}",
                            scores="tied" if ties else "untied",
                            weights=weights,
                        )
                        rows.append(row)
                        print(
                            f"{metric:9s} {n:.0e} {p:.0%} {row['scores']:6s} {weights:9s} "
                            f"compiled {row['compiled ratio']:.2f} numpy {row['numpy ratio']:.2f} "
                            f"load {row['load']}",
                            flush=True,
                        )
    load_end = os.getloadavg()
    write_report(machine, rows, args.repeats, uptime_start, load_end)
    print(REPORT.read_text())


def summary(rows: list[dict]) -> list[str]:
    """The largest ratio per metric and weights, over sizes, positives and ties: the figures the
    README quotes."""
    lines = [
        "| metric | weights | compiled / sklearn (max) | numpy / sklearn (max) |",
        "|---|---|---:|---:|",
    ]
    for metric in METRICS:
        for weights in WEIGHTS:
            mine = [r for r in rows if r["metric"] == metric and r["weights"] == weights]
            if mine:
                lines.append(
                    f"| {metric} | {weights} | {max(r['compiled ratio'] for r in mine):.2f} "
                    f"| {max(r['numpy ratio'] for r in mine):.2f} |"
                )
    return lines


def write_report(machine: dict, rows: list[dict], repeats: int, uptime: str, load_end) -> None:
    over = {k: [r for r in rows if r[f"{k} ratio"] > target] for k, target in TARGETS.items()}
    lines = [
        *report_header(
            "Benchmarks: float-weighted AP, PR curve, trapezoid and ROC AUC",
            Path(__file__),
            machine,
        ),
        f"- uptime at start: {float(uptime) / 3600:.2f} h" if uptime != "?" else "- uptime: ?",
        f"- load average at the end (1, 5, 15 min): {load_end[0]:.2f}, {load_end[1]:.2f}, "
        f"{load_end[2]:.2f}",
        "",
        "## What is measured",
        "",
        "prtheory's correctly rounded metrics beside scikit-learn's on the same data, in one",
        "process: the compiled path (numba) and the vectorised numpy path (no numba), each the",
        f"minimum of {repeats} interleaved runs in rotating order, seconds. Targets: compiled <=",
        f"{TARGETS['compiled']}x, numpy <= {TARGETS['numpy']}x scikit-learn's time. `same`: the",
        "two paths return the same floats bit for bit. `sk ulps`: scikit-learn's largest",
        "distance from them. `load`: the 1-minute load average before and after the pattern (2",
        "cores); the machine was shared, so a ratio measured under load should be re-measured",
        "idle before it is quoted as a speed.",
        "",
        "## Largest ratio per metric and weights",
        "",
        *summary(rows),
        "",
        f"Patterns over the compiled target: {len(over['compiled'])} of {len(rows)}; over the",
        f"numpy target: {len(over['numpy'])} of {len(rows)}.",
        "",
        "## Every pattern",
        "",
        "| metric | n | positives | scores | weights | compiled s | numpy s | sklearn s "
        "| compiled / sk | numpy / sk | same | sk ulps | load |",
        "|---|---:|---:|---|---|---:|---:|---:|---:|---:|---|---:|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['metric']} | {r['n']:.0e} | {r['positives']} | {r['scores']} | {r['weights']} "
            f"| {r['compiled']:.3f} | {r['numpy']:.3f} | {r['sklearn']:.3f} "
            f"| {r['compiled ratio']:.2f} | {r['numpy ratio']:.2f} | {r['same']} "
            f"| {r['sk ulps']:.0f} | {r['load']} |"
        )
    REPORT.write_text("\n".join(lines).rstrip() + "\n")


if __name__ == "__main__":
    main()
