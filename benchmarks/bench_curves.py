"""Exact PR curve, PR areas and PRG beside scikit-learn's precision_recall_curve and auc.

Regenerate ``reports/benchmarks_curves.md`` with::

    python benchmarks/bench_curves.py

Needs scikit-learn (the ``conformance`` extra). Runs about ten minutes on a 2-core machine. For
each n in ``SIZES`` (about 1% positives, untied informative scores; plus a ``balanced`` pattern
with half positives, which maximises the number of recall steps) it times, on the same data:

* ``sk curve``: ``sklearn.metrics.precision_recall_curve``; ``sk auc``: the same followed by
  ``sklearn.metrics.auc(recall, precision)`` (the trapezoid with the (0, 1) first point);
* ``pr_curve``: ``prtheory.oracle.pr_curve(first_point="sklearn")`` (exact);
* ``trapezoid``: ``pr_auc(method="trapezoid", first_point="sklearn")`` (exact Fraction);
* ``davis-goadrich``: ``pr_auc(method="davis-goadrich", first_point="spark")`` (50 digits);
* ``prg_curve`` and ``auprg`` (``negative_gain="signed"``, exact Fraction).

Every prtheory method runs twice, in two fresh interpreters: once with gmpy2 importable (the
``fast`` extra) and once with it hidden (``sys.modules["gmpy2"] = None`` before any import), as
on a plain install. Times are medians of ``REPEATS`` runs, interleaved so that load on the
machine hits every method alike. Each run checks its results: the exact curve rounds to
scikit-learn's precision and recall bit for bit, the exact trapezoid rounds to within a few ulps
of scikit-learn's ``auc``, and both interpreters produce the same exact values (compared by
residues modulo a large prime). The report records the sha256 of this script; a test fails
when the report is stale.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from machine import facts, report_header

ROOT = Path(__file__).resolve().parents[1]
REPORT = ROOT / "reports" / "benchmarks_curves.md"
CASES = ((10**5, "1%"), (10**6, "1%"), (10**7, "1%"), (10**5, "balanced"), (10**6, "balanced"))
EXACT = ("pr_curve", "trapezoid", "davis-goadrich", "prg_curve", "auprg")
SKLEARN = ("sk curve", "sk auc")
REPEATS = 3
PRIME = 2**61 - 1
BACKENDS = ("gmpy2", "no gmpy2")


def make_data(n: int, pattern: str):
    import numpy as np

    rng = np.random.default_rng(n + len(pattern))
    y = (rng.random(n) < (0.01 if pattern == "1%" else 0.5)).astype(np.int64)
    return y, rng.random(n) + 0.3 * y  # informative scores, far from random


def calls(y, s) -> dict:
    from sklearn.metrics import auc, precision_recall_curve

    from prtheory.oracle import auprg, pr_auc, pr_curve, prg_curve

    def sk_auc():
        precision, recall, _ = precision_recall_curve(y, s)
        return auc(recall, precision)

    return {
        "sk curve": lambda: precision_recall_curve(y, s),
        "sk auc": sk_auc,
        "pr_curve": lambda: pr_curve(y, s, first_point="sklearn"),
        "trapezoid": lambda: pr_auc(y, s, method="trapezoid", first_point="sklearn"),
        "davis-goadrich": lambda: pr_auc(y, s, method="davis-goadrich", first_point="spark"),
        "prg_curve": lambda: prg_curve(y, s),
        "auprg": lambda: auprg(y, s, negative_gain="signed"),
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


def worker(backend: str) -> None:
    """Time every case in this interpreter and print one JSON line per case."""
    if backend == "no gmpy2":
        sys.modules["gmpy2"] = None  # before numpy, mpmath and prtheory are imported
    names = EXACT + (SKLEARN if backend == BACKENDS[0] else ())
    for n, pattern in CASES:
        y, s = make_data(n, pattern)
        fns = calls(y, s)
        times: dict[str, list[float]] = {m: [] for m in names}
        values = {}
        for _ in range(REPEATS):
            for m in names:
                t0 = time.perf_counter()
                values[m] = fns[m]()
                times[m].append(time.perf_counter() - t0)
        row = {"n": n, "pattern": pattern, "backend": backend}
        row["time"] = {m: statistics.median(t) for m, t in times.items()}
        row["fingerprint"] = {m: fingerprint(m, values[m]) for m in EXACT}
        if "sk curve" in values:
            precision, recall, _ = values["sk curve"]
            curve = values["pr_curve"]
            assert (curve.precision.to_float() == precision[::-1]).all(), "precision differs"
            assert (curve.recall.to_float() == recall[::-1]).all(), "recall differs"
            row["sk auc ulps"] = ulps(values["sk auc"], float(values["trapezoid"]))
        print(json.dumps(row), flush=True)


def run(backend: str) -> list[dict]:
    out = subprocess.run(
        [sys.executable, __file__, "--worker", backend], check=True, capture_output=True, text=True
    )
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def main() -> None:
    machine = facts()
    fast, plain = run(BACKENDS[0]), run(BACKENDS[1])
    for a, b in zip(fast, plain, strict=True):
        assert a["fingerprint"] == b["fingerprint"], f"backends disagree at {a['n']}"
    write_report(machine, fast, plain)
    print(REPORT.read_text())


def _fmt(x: float) -> str:
    return f"{x:.3f}" if x < 100 else f"{x:.0f}"


def write_report(machine: dict, fast: list[dict], plain: list[dict]) -> None:
    head = "| n | positives | sk curve s | sk auc s | " + " | ".join(f"{m} s" for m in EXACT)
    lines = [
        *report_header("Benchmarks: exact PR curve, PR areas and PRG", Path(__file__), machine),
        "",
        "## What is measured",
        "",
        "Same data for every method: n items, about 1% positives (`1%`) or half (`balanced`),",
        f"untied scores `uniform + 0.3 y`. Times: median of {REPEATS} interleaved runs, seconds.",
        "`sk curve` = `sklearn.metrics.precision_recall_curve`; `sk auc` = that plus",
        "`sklearn.metrics.auc` (float trapezoid, first point (0, 1)). prtheory: `pr_curve`",
        "(exact, `first_point='sklearn'`), `trapezoid` (`pr_auc`, exact Fraction, first point",
        "(0, 1): the exact value of what `sk auc` computes in floats), `davis-goadrich` (`pr_auc`,",
        "50 digits, `first_point='spark'`), `prg_curve` (exact, with crossings), `auprg`",
        "(signed, exact Fraction). Ratios: curves / `sk curve`, areas / `sk auc`.",
        "Each run checked: the exact PR curve rounds to scikit-learn's precision and recall bit",
        "for bit; `sk auc ulps` = distance of scikit-learn's float trapezoid from the rounded",
        "exact one; the runs with and without gmpy2 give identical exact values.",
    ]
    for title, rows in (("with gmpy2 (the `fast` extra)", fast), ("without gmpy2", plain)):
        lines += ["", f"## Times {title}", ""]
        sk = {(r["n"], r["pattern"]): r["time"] for r in fast}
        lines += [head + " |", "|---:|---|" + "---:|" * (2 + len(EXACT))]
        for r in rows:
            t, base = r["time"], sk[(r["n"], r["pattern"])]
            cells = [f"{r['n']:.0e}", r["pattern"], _fmt(base["sk curve"]), _fmt(base["sk auc"])]
            cells += [_fmt(t[m]) for m in EXACT]
            lines.append("| " + " | ".join(cells) + " |")
        lines += ["", "Ratios to scikit-learn:", ""]
        lines += ["| n | positives | " + " | ".join(f"{m} / sk" for m in EXACT) + " |"]
        lines += ["|---:|---|" + "---:|" * len(EXACT)]
        for r in rows:
            t, base = r["time"], sk[(r["n"], r["pattern"])]
            ratio = [t[m] / base["sk curve" if m.endswith("curve") else "sk auc"] for m in EXACT]
            cells = [f"{r['n']:.0e}", r["pattern"], *(f"{x:.1f}" for x in ratio)]
            lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "## scikit-learn's float trapezoid against the exact one", ""]
    lines += ["| n | positives | sk auc ulps |", "|---:|---|---:|"]
    lines += [f"| {r['n']:.0e} | {r['pattern']} | {r['sk auc ulps']:.0f} |" for r in fast]
    REPORT.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        sys.path.insert(0, str(ROOT))
        worker(sys.argv[2])
    else:
        main()
