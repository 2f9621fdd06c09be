"""Empirical coverage of the AP and AUCPR confidence intervals on simulated binormal data.

Regenerate ``reports/intervals.md`` with::

    python benchmarks/bench_intervals.py

Runs about two minutes on a 2-core machine. The data follow the binormal model of Boyd, Eng &
Page (2013): each item is positive with probability ``pi``; scores are N(mu, 1) for positives
and N(0, 1) for negatives. The true AUCPR of the model is the integral over recall of the
population precision ``pi r / (pi r + (1 - pi) (1 - Phi(mu + Phi^-1(1 - r))))`` (a threshold
with recall r is ``c = mu + Phi^-1(1 - r)``; its false-positive rate is ``1 - Phi(c)``),
integrated by mpmath at 30 digits. Every estimator (average precision, the lower trapezoid,
Davis-Goadrich) estimates this one number.

For each scenario, ``REPLICATES`` data sets are drawn (seeded); for each estimator and each
interval (:func:`prtheory.intervals.pr_auc_interval`: binomial, logit, and the stratified count
bootstrap with ``RESAMPLES`` resamples) at the nominal level 0.95, the report gives the share of
intervals that contain the true AUCPR (coverage; Monte Carlo standard error
``sqrt(0.95 * 0.05 / REPLICATES)``), the share that miss below and above, and the mean width.
A second table times the count bootstrap beside the usual item bootstrap (resampling item
indices and calling scikit-learn's ``average_precision_score`` each time), in one run, on the
same data. The report records the sha256 of this script; a test fails when it is stale.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import mpmath
import numpy as np
from machine import facts, report_header

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from prtheory.intervals import pr_auc_interval  # noqa: E402

REPORT = ROOT / "reports" / "intervals.md"
LEVEL = 0.95
REPLICATES = 150
RESAMPLES = 200
#: (mu, pi, n): separation of the classes, skew, number of items
SCENARIOS = ((1.0, 0.1, 300), (1.0, 0.1, 1000), (2.0, 0.05, 1000))
ESTIMATORS = (
    ("average precision", "step", None),
    ("lower trapezoid", "lower-trapezoid", "spark"),
    ("Davis-Goadrich", "davis-goadrich", "spark"),
)
INTERVALS = ("binomial", "logit", "bootstrap")
TIMING_SIZES = (10**4, 10**5)
TIMING_RESAMPLES = 200


def true_aucpr(mu: float, pi: float) -> float:
    """Population AUCPR of the binormal model (module docstring), at 30 digits."""
    with mpmath.workdps(30):
        m, p = mpmath.mpf(mu), mpmath.mpf(pi)

        def precision(r):
            if r == 0:
                return mpmath.mpf(1)
            fpr = 1 - mpmath.ncdf(m + mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * r))
            return p * r / (p * r + (1 - p) * fpr)

        return float(mpmath.quad(precision, [0, 0.5, 1]))


def draw(rng: np.random.Generator, mu: float, pi: float, n: int):
    y = rng.random(n) < pi
    while not y.any():
        y = rng.random(n) < pi
    return y, rng.normal(size=n) + mu * y


def coverage(mu: float, pi: float, n: int, seed: int) -> list[dict]:
    truth = true_aucpr(mu, pi)
    rng = np.random.default_rng(seed)
    tallies = {
        (name, iv): {"in": 0, "below": 0, "above": 0, "width": []}
        for name, _, _ in ESTIMATORS
        for iv in INTERVALS
    }
    for r in range(REPLICATES):
        y, s = draw(rng, mu, pi, n)
        for name, method, first_point in ESTIMATORS:
            for iv in INTERVALS:
                ci = pr_auc_interval(
                    y,
                    s,
                    method=method,
                    first_point=first_point,
                    interval=iv,
                    level=LEVEL,
                    n_resamples=RESAMPLES,
                    random_state=seed * 100_000 + r,
                )
                t = tallies[(name, iv)]
                t["width"].append(ci.high - ci.low)
                if ci.high < truth:
                    t["below"] += 1
                elif ci.low > truth:
                    t["above"] += 1
                else:
                    t["in"] += 1
    rows = []
    for (name, iv), t in tallies.items():
        rows.append(
            {
                "scenario": f"mu={mu}, pi={pi}, n={n}",
                "truth": truth,
                "estimator": name,
                "interval": iv,
                "coverage": t["in"] / REPLICATES,
                "below": t["below"] / REPLICATES,
                "above": t["above"] / REPLICATES,
                "width": statistics.fmean(t["width"]),
            }
        )
    return rows


def timing() -> list[dict]:
    from sklearn.metrics import average_precision_score

    rows = []
    for n in TIMING_SIZES:
        rng = np.random.default_rng(n)
        y, s = draw(rng, 1.0, 0.1, n)

        def ours(y=y, s=s):
            return pr_auc_interval(
                y,
                s,
                method="step",
                interval="bootstrap",
                n_resamples=TIMING_RESAMPLES,
                random_state=0,
            )

        def items(y=y, s=s, n=n):
            gen = np.random.default_rng(0)
            values = []
            for _ in range(TIMING_RESAMPLES):
                idx = gen.integers(0, n, n)
                values.append(average_precision_score(y[idx], s[idx]))
            return np.quantile(values, [0.025, 0.975])

        times = {"count bootstrap (prtheory)": [], "item bootstrap (sklearn loop)": []}
        for _ in range(3):
            for label, fn in (
                ("count bootstrap (prtheory)", ours),
                ("item bootstrap (sklearn loop)", items),
            ):
                start = time.perf_counter()
                fn()
                times[label].append(time.perf_counter() - start)
        ours_t = statistics.median(times["count bootstrap (prtheory)"])
        items_t = statistics.median(times["item bootstrap (sklearn loop)"])
        rows.append({"n": n, "ours": ours_t, "items": items_t})
    return rows


def main() -> None:
    machine = facts()
    started = time.perf_counter()
    rows = []
    for k, (mu, pi, n) in enumerate(SCENARIOS):
        rows += coverage(mu, pi, n, seed=k + 1)
    times = timing()
    elapsed = time.perf_counter() - started
    se = (LEVEL * (1 - LEVEL) / REPLICATES) ** 0.5
    lines = report_header("Confidence intervals: empirical coverage", Path(__file__), machine)
    lines += [
        "",
        "## Coverage at nominal level 0.95",
        "",
        f"{REPLICATES} simulated data sets per scenario (binormal: positives N(mu, 1), negatives "
        f"N(0, 1), each item positive with probability pi); the bootstrap is the stratified "
        f"count bootstrap with {RESAMPLES} resamples. Coverage is the share of intervals that "
        f"contain the model's true AUCPR; its Monte Carlo standard error is {se:.3f}. "
        "'below'/'above': the interval lies entirely below/above the truth.",
        "",
        "| scenario | true AUCPR | estimator | interval | coverage | below | above | mean width |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['scenario']} | {r['truth']:.4f} | {r['estimator']} | {r['interval']} | "
            f"{r['coverage']:.3f} | {r['below']:.3f} | {r['above']:.3f} | {r['width']:.4f} |"
        )
    lines += [
        "",
        f"## Bootstrap time ({TIMING_RESAMPLES} resamples, median of 3 runs, seconds)",
        "",
        "Binormal data (mu = 1, pi = 0.1, untied scores). The count bootstrap draws all "
        "resamples as multiplicities of the distinct (score, label) cells and evaluates AP for "
        "all of them in vectorised passes; the item bootstrap resamples item indices and calls "
        "`sklearn.metrics.average_precision_score` once per resample.",
        "",
        "| n | count bootstrap (prtheory) | item bootstrap (sklearn loop) | ratio |",
        "|---|---|---|---|",
    ]
    for t in times:
        lines.append(
            f"| {t['n']:,} | {t['ours']:.3f} | {t['items']:.3f} | {t['ours'] / t['items']:.2f}x |"
        )
    lines += ["", f"Total run time: {elapsed:.0f} s.", ""]
    REPORT.write_text("\n".join(lines))
    print(f"wrote {REPORT.relative_to(ROOT)} in {elapsed:.0f} s")


if __name__ == "__main__":
    main()
