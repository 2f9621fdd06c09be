"""The float metrics of prtheory.metrics beside scikit-learn, on the same data, in one run.

Regenerate ``reports/benchmarks_float_curves.md`` with::

    python benchmarks/bench_float_curves.py

Needs scikit-learn. Runs a few minutes on a 2-core machine. Cases (informative scores
``uniform + 0.3 y``, seeded; ``ties``: the same rounded to 3 decimals, about 1300 distinct
values):

* ``trapezoid``: ``prtheory.pr_auc(y, s, method="trapezoid")`` (first point (0, 1)) against
  ``sklearn.metrics.auc(*precision_recall_curve(y, s)[1::-1])``;
* ``roc``: ``prtheory.roc_auc`` against ``sklearn.metrics.roc_auc_score``;
* ``macro AP``: ``prtheory.pr_auc(Y, S)`` (step, macro average) against
  ``sklearn.metrics.average_precision_score(Y, S)`` on a 10-label indicator matrix;

at 10^6 and 10^7 items with 1% and 50% positives (macro AP: 10^6 rows, 5% positives per label),
and at 10^6 with tied scores, with uniform float sample weights (``float``) and with weights
spread over twelve decades (``wide``: ``10**uniform(-6, 6)``). Times are medians of ``REPEATS`` interleaved runs.
Each run checks the values: prtheory's result is compared, bit for bit, with the exact oracle's
value rounded (``prtheory.oracle``, at 10^6 items; at 10^7, and for the float-weighted macro
AP, whose ten exact rationals have denominators of millions of bits, it takes many minutes),
and the distance of scikit-learn's float result from it is reported in ulps. A case whose
ratio exceeds the target (1.0) is profiled with cProfile. The report records the sha256 of this
script; a test fails when the report is stale.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from machine import facts, report_header  # noqa: E402

from prtheory._testing.profiles import profile_call  # noqa: E402
from prtheory._testing.ulps import ulp_distance  # noqa: E402

REPORT = ROOT / "reports" / "benchmarks_float_curves.md"
REPEATS = 3
TARGET = 1.0
#: (metric, items, positive fraction, scores: "untied" | "ties", weights: "unit" | "float" | "wide")
_PATTERNS = (
    (10**6, 0.01, "untied", "unit"),
    (10**6, 0.5, "untied", "unit"),
    (10**6, 0.01, "untied", "float"),
    (10**6, 0.5, "ties", "unit"),
    (10**6, 0.01, "ties", "wide"),
    (10**6, 0.5, "untied", "wide"),
    (10**7, 0.01, "untied", "unit"),
    (10**7, 0.5, "untied", "unit"),
    (10**7, 0.5, "ties", "unit"),
)
CASES = (
    *((metric, *pattern) for metric in ("trapezoid", "roc") for pattern in _PATTERNS),
    ("macro AP", 10**6, 0.05, "untied", "unit"),
    ("macro AP", 10**6, 0.05, "ties", "unit"),
    ("macro AP", 10**6, 0.05, "untied", "float"),
)


def make_data(metric: str, n: int, p: float, scores: str, weights: str):
    seed = n + int(p * 100) + 1000 * ("untied", "ties").index(scores)
    rng = np.random.default_rng(seed + 10 * ("unit", "float", "wide").index(weights))
    shape = (n, 10) if metric == "macro AP" else n
    y = rng.random(shape) < p
    s = rng.random(shape) + 0.3 * y
    if scores == "ties":
        s = np.round(s, 3)
    w = {"unit": None, "float": rng.random(n), "wide": 10.0 ** rng.uniform(-6, 6, n)}[weights]
    return y.astype(np.int64), s, w


def calls(metric: str, y, s, w):
    """``(prtheory call, scikit-learn call, exact oracle value or None)``."""
    import sklearn.metrics as sk

    import prtheory
    from prtheory import oracle

    if metric == "trapezoid":

        def exact():
            return oracle.pr_auc(y, s, w, method="trapezoid", first_point="sklearn")

        return (
            lambda: prtheory.pr_auc(y, s, sample_weight=w, method="trapezoid"),
            lambda: sk.auc(*sk.precision_recall_curve(y, s, sample_weight=w)[1::-1]),
            exact,
        )
    if metric == "roc":
        return (
            lambda: prtheory.roc_auc(y, s, sample_weight=w),
            lambda: sk.roc_auc_score(y, s, sample_weight=w),
            lambda: oracle.roc_auc(y, s, w),
        )

    def exact_macro():
        cols = [oracle.average_precision(y[:, c], s[:, c], w) for c in range(y.shape[1])]
        return sum(cols) / len(cols)

    return (
        lambda: prtheory.pr_auc(y, s, sample_weight=w),
        lambda: sk.average_precision_score(y, s, sample_weight=w),
        exact_macro,
    )


def run_case(metric: str, n: int, p: float, scores: str, weights: str) -> dict:
    from prtheory.oracle import to_float

    y, s, w = make_data(metric, n, p, scores, weights)
    ours, theirs, exact = calls(metric, y, s, w)
    times: dict[str, list[float]] = {"prtheory": [], "sklearn": []}
    values = {}
    for _ in range(REPEATS):
        for name, fn in (("prtheory", ours), ("sklearn", theirs)):
            t0 = time.perf_counter()
            values[name] = float(fn())
            times[name].append(time.perf_counter() - t0)
    row = {
        "metric": metric,
        "n": n,
        "positives": f"{p:.0%}",
        "scores": scores,
        "weights": weights,
        "prtheory": statistics.median(times["prtheory"]),
        "sklearn": statistics.median(times["sklearn"]),
    }
    row["ratio"] = row["prtheory"] / row["sklearn"]
    if n <= 10**6 and not (metric == "macro AP" and w is not None):
        want = to_float(exact())
        assert values["prtheory"] == want, f"{metric} at {n}: not the rounded exact value"
        row["checked"] = "yes"
    else:
        row["checked"] = "no (the exact value takes too long here)"
    row["sk ulps"] = ulp_distance(values["sklearn"], values["prtheory"])
    if row["ratio"] > TARGET:
        row["profile"] = profile_call(ours)
    return row


def main() -> None:
    machine = facts()
    rows = []
    for case in CASES:
        rows.append(run_case(*case))
        print(rows[-1]["metric"], rows[-1]["n"], f"{rows[-1]['ratio']:.2f}", flush=True)
    write_report(machine, rows)
    print(REPORT.read_text())


def write_report(machine: dict, rows: list[dict]) -> None:
    lines = [
        *report_header("Benchmarks: float PR-AUC, ROC AUC and macro AP", Path(__file__), machine),
        "",
        "## What is measured",
        "",
        "`trapezoid`: `prtheory.pr_auc(y, s, method='trapezoid')` against",
        "`sklearn.metrics.auc(*precision_recall_curve(y, s)[1::-1])`; `roc`: `prtheory.roc_auc`",
        "against `roc_auc_score`; `macro AP`: `prtheory.pr_auc(Y, S)` (step, macro) against",
        "`average_precision_score(Y, S)` on a 10-label indicator matrix. Informative scores",
        "`uniform + 0.3 y`, untied or rounded to 3 decimals (`ties`); weights unit, uniform",
        "(`float`) or `10**uniform(-6, 6)` (`wide`).",
        f"Median of {REPEATS} interleaved runs, seconds; target: ratio",
        f"<= {TARGET}. `checked`: prtheory's float equals the exact oracle value rounded, bit for",
        "bit. `sk ulps`: scikit-learn's distance from that correctly rounded value.",
        "",
        "| metric | n | positives | scores | weights | prtheory s | sklearn s | ratio | checked "
        "| sk ulps |",
        "|---|---:|---:|---|---|---:|---:|---:|---|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['metric']} | {r['n']:.0e} | {r['positives']} | {r['scores']} | {r['weights']} "
            f"| {r['prtheory']:.3f} | {r['sklearn']:.3f} | {r['ratio']:.2f} | {r['checked']} "
            f"| {r['sk ulps']:.0f} |"
        )
    missed = [r for r in rows if "profile" in r]
    lines += ["", "## Profiles of missed targets", ""]
    if not missed:
        lines.append("Every case met the target.")
    for r in missed:
        title = (
            f"{r['metric']}, n = {r['n']:.0e}, {r['positives']} positives, {r['scores']} scores, "
            f"{r['weights']} weights"
        )
        lines += [f"### {title}", "", "```", r["profile"], "```", ""]
    REPORT.write_text("\n".join(lines).rstrip() + "\n")


if __name__ == "__main__":
    main()
