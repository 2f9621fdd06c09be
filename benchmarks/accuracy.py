"""Accuracy of the float64 layer (prtheory.floats) against the oracle at 50 digits.

For each function, a deterministic sample of at least 10**6 argument tuples (log-spaced down to
1e-300, skews up to 1 - 2**-53, edge values such as powers of two and the branch switch points,
and random interior points) is evaluated by ``prtheory.floats`` and by a reference evaluator. The
error of each float result ``y`` is measured in units in the last place of the true value ``x``:
``|y - x| / ulp(x)`` (``prtheory.oracle.rounding.ulp``); 0.5 is the best possible. The naive
textbook formula for AUCPR_min is measured on the same sample for comparison.

Reference values. The project's oracle (``prtheory.oracle``: exact ``Fraction`` arithmetic, and
mpmath at 50 digits with cancellation-aware working precision) costs 20-500 microseconds per
point, too slow for 10**7 points on a shared 2-core machine. So every point is evaluated with the
same direct formulas in Arb ball arithmetic (python-flint), at a working precision raised until
the ball's relative radius is below 2**-160 -- a rigorous enclosure of the true value, to about
48 digits -- and the first ``--check`` points of every sample are also evaluated by the mpmath
oracle itself; the report gives the largest relative difference between the two, which must be
below 2**-150 (the run fails otherwise). Arb and mpmath share no code.

The reference results are cached under ``$PRTHEORY_CACHE`` (default
``~/.cache/prtheory/accuracy``), keyed by the sample's bytes and the source of the evaluators, so
re-running after a change to ``prtheory/floats`` alone takes seconds.

Usage::

    python benchmarks/accuracy.py                 # 10**6 points per function -> reports/accuracy.md
    python benchmarks/accuracy.py --n 20000 --out /tmp/accuracy.md --workers 2

The samplers, the oracles with their ulp bounds and the error measurement are those of the test
suite (``prtheory._testing``). The report records the SHA-256 of ``prtheory/floats/``, of the
samplers and of the oracle modules (``prtheory._testing.digests``); ``tests/test_floats.py``
fails when the committed report no longer matches them.
The run time on the machine described in the report is recorded too.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from multiprocessing import Pool
from pathlib import Path

import flint  # python-flint, the 'bench' extra
import mpmath
import numpy as np
from flint import arb
from machine import cpu_model

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from prtheory._testing import digests, ulps  # noqa: E402
from prtheory._testing.reference import CASES, DPS  # noqa: E402
from prtheory._testing.samplers import sample, sample_kinds  # noqa: E402
from prtheory.oracle import rounding  # noqa: E402

N_DEFAULT = 1_000_000
REPORT = ROOT / "reports" / "accuracy.md"


def _naive_aucpr_min(pi: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The textbook float64 evaluation of B7 (B4 over [0, 1]), for comparison."""
    with np.errstate(all="ignore"):
        return b - a + ((1 - pi) / pi) * np.log((pi * (a - 1) + 1) / (pi * (b - 1) + 1))


NAIVE = ("aucpr_min (naive formula)", _naive_aucpr_min, "aucpr_min")
FLOATS_SHA = digests.floats_digest()  # of the prtheory/floats this process imported (measured)


# ---------------------------------------------------------------------------------------------
# reference evaluation (process pool) and error measurement

# Arb evaluations of the defining formulas (arguments are exact float64 values, converted to
# exact balls; every operation's rounding is tracked in the ball's radius).


def _arb_aucpr_min(pi: arb, a: arb, b: arb) -> arb:
    d, v = b - a, 1 - pi * (1 - b)
    x = -pi * d / v
    log = x.log1p() if x > -0.5 else ((1 - pi * (1 - a)) / v).log()
    return d + (1 - pi) / pi * log


def _arb_aucnpr(area: arb, pi: arb, a: arb, b: arb) -> arb:
    low = _arb_aucpr_min(pi, a, b)
    return (area - low) / (b - a - low)


def _arb_min_precision(r: arb, pi: arb) -> arb:
    return pi * r / (1 - pi + pi * r)


def _arb_gain(x: arb, pi: arb) -> arb:
    return (x - pi) / ((1 - pi) * x)


def _arb_fbeta(p: arb, r: arb, beta: arb) -> arb:
    b2 = beta * beta
    return (1 + b2) * p * r / (b2 * p + r)


def _arb_ap_min(pos: arb, neg: arb) -> arb:
    return 1 - neg / pos * ((neg + pos + 1).digamma() - (neg + 1).digamma())


def _arb_expected_ap(pos: arb, neg: arb) -> arb:
    if neg == 0:
        return arb(1)
    total = pos + neg
    harmonic = (total + 1).digamma() + arb.const_euler()
    return (pos - 1) / (total - 1) + neg * harmonic / (total * (total - 1))


# name -> the Arb evaluator of its defining formula
ARB: dict[str, Callable[..., arb]] = {
    "aucpr_min": _arb_aucpr_min,
    "min_precision": _arb_min_precision,
    "precision_gain": _arb_gain,
    "recall_gain": _arb_gain,
    "fbeta": _arb_fbeta,
    "fbeta_gain": _arb_gain,
    "aucnpr": _arb_aucnpr,
    "ap_min": _arb_ap_min,
    "expected_random_ap": _arb_expected_ap,
}
#: Functions whose value is rational: a reference ball that still straddles a rounding boundary
#: at 2**14 bits is decided by the exact oracle (the value may be exactly a midpoint).
RATIONAL = ("min_precision", "precision_gain", "recall_gain", "fbeta", "fbeta_gain")


ARB_START_PREC = 224  # bits; raised per point until the ball is tight
ARB_TIGHT_BITS = 160  # accepted relative accuracy of a ball (radius <= 2**-160 |midpoint|)
CROSS_CHECK = Fraction(1, 2**150)  # accepted relative difference between Arb and mpmath


def _man_exp(ball: arb) -> tuple[int, int]:
    man, exp = ball.mid().man_exp()
    return int(man), int(exp)


def _rounds_alike(ball: arb) -> bool:
    """Whether every real in ``ball`` rounds to the same float64 (then so does the true value)."""
    if ball.is_exact():
        return True
    ends = [ulps.dyadic(*_man_exp(e)) for e in (ball.lower(), ball.upper())]
    return rounding.to_float(ends[0]) == rounding.to_float(ends[1])


def _arb_value(name: str, args: tuple[float, ...]) -> tuple[int, int] | Fraction:
    """``(man, exp)`` of the midpoint of a ball enclosing ``name``'s value at ``args`` whose
    relative radius is at most 2**-160 and that lies between two rounding boundaries of float64
    (the precision doubles until it does: Ziv's loop, made rigorous by Arb), so that the rounding
    of the midpoint is the correct rounding. For a rational function still undecided at 2**14
    bits the value may be a midpoint itself: the exact oracle's ``Fraction`` is returned."""
    fn = ARB[name]
    prec = ARB_START_PREC + max(0, -min(int(np.frexp(a)[1]) for a in args if a != 0))
    while True:
        flint.ctx.prec = prec
        ball = fn(*(arb(a) for a in args))
        if ball.rel_accuracy_bits() >= ARB_TIGHT_BITS and _rounds_alike(ball):
            return _man_exp(ball)
        if name in RATIONAL and prec >= 2**14:
            return rounding.exact_rational(CASES[name].oracle(*args))
        prec *= 2


def _reference_rows(job: tuple[str, list[tuple[float, ...]]]) -> np.ndarray:
    name, rows = job
    return np.array([ulps.reference_row(_arb_value(name, args)) for args in rows]).reshape(
        len(rows), 3
    )


def _cross_check_rows(job: tuple[str, list[tuple[float, ...]]]) -> float:
    """Largest relative difference between the Arb reference and the mpmath oracle."""
    name, rows = job
    worst = Fraction(0)
    for args in rows:
        value = _arb_value(name, args)
        ref = value if isinstance(value, Fraction) else ulps.dyadic(*value)
        orc = rounding.exact_rational(CASES[name].oracle(*args))
        diff = abs(ref - orc) / abs(orc) if orc != 0 else abs(ref)
        worst = max(worst, diff)
    return float(worst)


# ---------------------------------------------------------------------------------------------
# orchestration (the code above this line determines the cached reference values)


def _map(fn: Callable, jobs: list, workers: int) -> list:
    if workers > 1:
        with Pool(workers) as pool:
            return pool.map(fn, jobs)
    return [fn(j) for j in jobs]


def _jobs(name: str, args: tuple[np.ndarray, ...], chunk: int = 2000) -> list:
    rows = list(zip(*(a.tolist() for a in args), strict=True))
    return [(name, rows[i : i + chunk]) for i in range(0, len(rows), chunk)]


def reference(
    name: str, args: tuple[np.ndarray, ...], workers: int, cache: Path | None
) -> tuple[np.ndarray, float, bool]:
    """Reference table for ``name``, the seconds it took to compute, and whether it was cached.

    The cache key is the sample's bytes and the source that determines the values.
    """
    n = args[0].size
    data = hashlib.sha256(
        b"".join(np.ascontiguousarray(a, dtype=np.float64).tobytes() for a in args)
    )
    source = Path(__file__).read_text()
    evaluation = source[source.index("# reference evaluation") : source.index("# orchestration")]
    evaluation += Path(ulps.__file__).read_text()  # the reference rows are computed there
    key = f"{name} {n} {data.hexdigest()} {digests.sampler_digest()} {evaluation}"
    key = hashlib.sha256(key.encode()).hexdigest()[:20]
    path = cache / f"{name}-{n}-{key}.npy" if cache else None
    if path is not None and path.exists() and path.with_suffix(".seconds").exists():
        return np.load(path), float(path.with_suffix(".seconds").read_text()), True
    t0 = time.perf_counter()
    table = np.concatenate(_map(_reference_rows, _jobs(name, args), workers))
    seconds = time.perf_counter() - t0
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.save(path, table)
        path.with_suffix(".seconds").write_text(f"{seconds:.1f}")
    return table, seconds, False


def cross_check(name: str, args: tuple[np.ndarray, ...], count: int, workers: int) -> float:
    head = tuple(a[:count] for a in args)
    return max(_map(_cross_check_rows, _jobs(name, head, chunk=250), workers))


def _regions(pi: np.ndarray) -> dict[str, np.ndarray]:
    return {
        "pi <= 1e-12": pi <= 1e-12,
        "1e-12 < pi < 1 - 1e-12": (pi > 1e-12) & (pi < 1 - 1e-12),
        "pi >= 1 - 1e-12": pi >= 1 - 1e-12,
    }


def _stats(err: np.ndarray) -> tuple[float, float]:
    return float(np.max(err)), float(np.quantile(err, 0.999, method="higher"))


def _machine() -> str:
    cpu = cpu_model()
    return (
        f"{cpu}, {os.cpu_count()} logical CPUs; {platform.platform()}; Python "
        f"{platform.python_version()}, numpy {np.__version__}, mpmath {mpmath.__version__} "
        f"(backend {mpmath.libmp.BACKEND})"
    )


def run(n: int, workers: int, cache: Path | None, check: int) -> dict:
    results = {}
    for name, (fn, _, bound, skew_at) in CASES.items():
        t0 = time.perf_counter()
        args = sample(name, n)
        table, reference_s, cached = reference(name, args, workers, cache)
        agreement = cross_check(name, args, check, workers)
        if agreement > CROSS_CHECK:
            raise SystemExit(
                f"{name}: Arb and the mpmath oracle differ by {agreement:.3g} (relative)"
            )
        t1 = time.perf_counter()
        y = np.asarray(fn(*args))
        t2 = time.perf_counter()
        err = ulps.ulp_errors(y, table)
        results[name] = {
            "err": err,
            "wrong": y != table[:, 0],
            "kinds": sample_kinds(name, n),
            "args": args,
            "y": y,
            "table": table,
            "bound": bound,
            "skew": args[skew_at] if skew_at is not None else None,
            "agreement": agreement,
            "float_s": t2 - t1,
            "reference_s": reference_s,
            "cached": cached,
        }
        print(
            f"{name}: max {np.max(err):.3f} ulp; reference {t1 - t0:.0f} s, float64 {t2 - t1:.2f} s",
            file=sys.stderr,
        )
    base = results[NAIVE[2]]
    t0 = time.perf_counter()
    naive = NAIVE[1](*base["args"])
    naive_s = time.perf_counter() - t0
    results[NAIVE[0]] = {
        "err": ulps.ulp_errors(naive, base["table"]),
        "wrong": naive != base["table"][:, 0],
        "kinds": None,
        "bound": None,
        "skew": base["skew"],
        "args": base["args"],
        "y": naive,
        "table": base["table"],
        "agreement": None,
        "float_s": naive_s,
    }
    return results


def _fmt(x: float) -> str:
    return "inf" if np.isinf(x) else (f"{x:.3g}" if x >= 1e4 else f"{x:.6f}")


def _kind_masks(kinds: np.ndarray) -> list[tuple[str, np.ndarray]]:
    return [(k, kinds == k) for k in sorted(set(kinds.tolist()) - {"main"})]


def _breakdown(results: dict, groups: Callable, cells: Callable) -> list[str]:
    """Table rows ``| function | group | points | cells |`` for each non-empty group."""
    return [
        f"| {name} | {label} | {int(mask.sum())} | {cells(res, mask)} |"
        for name, res in results.items()
        for label, mask in groups(res)
        if mask.any()
    ]


def render(results: dict, n: int, workers: int, check: int, seconds: float, command: str) -> str:
    measured = [r for r in results.values() if "cached" in r]
    reference_s = sum(r["reference_s"] for r in measured)
    cached = sum(r["cached"] for r in measured)
    cached_note = (
        f" ({cached} of {len(measured)} tables read from the cache; the time is that of the run "
        "that computed them)"
        if cached
        else ""
    )
    lines = [
        "# Accuracy of the float64 layer",
        "",
        "<!-- generated by benchmarks/accuracy.py; do not edit -->",
        "",
        f"Regenerate with `{command}`. Errors are `|y - x| / ulp(x)` for the float64 result `y`",
        "and the true value `x`; 0.5 ulp is correct rounding. `x` comes from Arb ball arithmetic",
        "(python-flint) with a rigorous relative error below 2**-160 (about 48 digits); on the",
        f"first {check} points of every sample it is cross-checked against the project's oracle",
        f"(`prtheory.oracle`: exact rationals, or mpmath at {DPS} digits).",
        "",
        f"- machine: {_machine()}",
        f"- run time: {seconds:.0f} s with {workers} worker processes; computing the reference values "
        f"took {reference_s:.0f} s of it{cached_note}",
        f"- points per function: {n}",
        f"- prtheory/floats sha256: `{FLOATS_SHA}`",
        f"- sampler sha256: `{digests.sampler_digest()}`",
        f"- oracle sha256: `{digests.oracle_digest()}`",
        "",
        "## Maximum and 99.9th-percentile error",
        "",
        "`misrounded` counts the points whose result is not the correctly rounded float64 (ties to",
        "even), compared bit for bit with the reference's rounding; every reference ball was",
        "narrowed until it lies between two rounding boundaries (or, for a rational function,",
        "replaced by the exact oracle's value), so that rounding is certain even at a midpoint.",
        "`Arb vs mpmath` is the largest relative difference between the two references. The float64",
        "time includes the slow path (the oracle) for the points the rounding test leaves",
        "undecided, which are nearly all of the hard cases below.",
        "",
        "| function | points | max ulp | 99.9% ulp | misrounded | bound | within bound | Arb vs mpmath | float64 time (s) |",
        "|---|---:|---:|---:|---:|---:|---|---:|---:|",
    ]
    for name, res in results.items():
        mx, q = _stats(res["err"])
        bound = res["bound"]
        ok = "-" if bound is None else ("yes" if not res["wrong"].any() else "**no**")
        agree = "-" if res["agreement"] is None else f"{res['agreement']:.1e}"
        above = int(np.count_nonzero(res["wrong"]))
        lines.append(
            f"| {name} | {res['err'].size} | {_fmt(mx)} | {_fmt(q)} | {above} | "
            f"{'-' if bound is None else bound} | {ok} | {agree} | {res['float_s']:.2f} |"
        )
    lines += [
        "",
        "## Hard cases",
        "",
        "The last hundredth of each sample where a construction is known: true values exactly on,",
        "or within the stated distance (relative) of, a midpoint between two floats, and subnormal",
        "arguments or results (see `prtheory/_testing/samplers.py`). AP_min's hard cases have one",
        "positive (AP_min = 1/(neg + 1)) with neg + 1 a divisor of 2**K -+ 1; the expected random",
        "AP has none: no construction of near-midpoint counts is known for it, and the rounding",
        "test covers it all the same.",
        "",
        "| function | sampler | points | misrounded | max ulp |",
        "|---|---|---:|---:|---:|",
    ]
    lines += _breakdown(
        results,
        lambda res: [] if res["kinds"] is None else _kind_masks(res["kinds"]),
        lambda res, m: f"{int(res['wrong'][m].sum())} | {_fmt(float(np.max(res['err'][m])))}",
    )
    lines += [
        "",
        "## By skew region",
        "",
        "| function | region | points | max ulp | 99.9% ulp |",
        "|---|---|---:|---:|---:|",
    ]
    lines += _breakdown(
        results,
        lambda res: [] if res["skew"] is None else list(_regions(res["skew"]).items()),
        lambda res, m: " | ".join(_fmt(v) for v in _stats(res["err"][m])),
    )
    lines += [
        "",
        "## Worst points",
        "",
        "`arguments => float64 result (true value rounded to float64)`",
        "",
    ]
    for name, res in results.items():
        worst = np.argsort(res["err"])[-3:][::-1]
        lines.append(f"- **{name}**")
        for i in worst:
            args = ", ".join(repr(float(a[i])) for a in res["args"])
            lines.append(
                f"  - `({args}) => {float(res['y'][i])!r} ({float(res['table'][i, 0])!r})`: "
                f"{_fmt(float(res['err'][i]))} ulp"
            )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=N_DEFAULT, help="points per function")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", type=Path, default=REPORT)
    parser.add_argument("--no-cache", action="store_true", help="recompute the reference values")
    parser.add_argument(
        "--check", type=int, default=2000, help="points per function cross-checked with mpmath"
    )
    args = parser.parse_args(argv)
    cache = (
        None
        if args.no_cache
        else Path(
            os.environ.get("PRTHEORY_CACHE", Path.home() / ".cache" / "prtheory" / "accuracy")
        )
    )
    t0 = time.perf_counter()
    results = run(args.n, args.workers, cache, args.check)
    seconds = time.perf_counter() - t0
    command = "python benchmarks/accuracy.py" + ("" if args.n == N_DEFAULT else f" --n {args.n}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(render(results, args.n, args.workers, args.check, seconds, command))
    print(f"wrote {args.out} in {seconds:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
