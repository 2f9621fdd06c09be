"""The library report's diagnosis (attribution.py and its sections of the report), on a run of
small implementations written here: one mechanism per implementation, unexplained results listed
with their minimal input, and the counts before (first-fit classifier) and after."""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import groupby, pairwise

from prtheory.conformance.adapters import Implementation, LibraryStatus
from prtheory.conformance.attribution import diagnose_run
from prtheory.conformance.classify import classify
from prtheory.conformance.report import render
from prtheory.conformance.runner import Row, Run, extra_alternatives, run_implementation
from prtheory.conformance.vectors_io import load


def _points(y, s):
    """(TP, FP) after each distinct score, highest first (tied items form one point)."""
    tp = fp = 0
    out = []
    for _, block in groupby(sorted(zip(s, y, strict=True), key=lambda t: -t[0]), lambda t: t[0]):
        for _, label in block:
            tp, fp = (tp + 1, fp) if label == 1 else (tp, fp + 1)
        out.append((tp, fp))
    return out


def _checked(x):
    y = [int(v) for v in x.y_true]
    s = [float(v) for v in x.y_score]
    if not y or len(y) != len(s) or any(v != v for v in s) or set(y) - {0, 1} or 1 not in y:
        raise ValueError("malformed input or no positive")
    return y, s


def trapezoid(x):
    """The trapezoid through the operating points (B2), exactly; unweighted."""
    if x.sample_weight is not None:
        raise TypeError("no weights")
    pts = _points(*_checked(x))
    pos = pts[-1][0]
    curve = [(Fraction(tp, pos), Fraction(tp, tp + fp)) for tp, fp in pts]
    return float(sum((r1 - r0) * (p0 + p1) / 2 for (r0, p0), (r1, p1) in pairwise(curve)))


def constant(x):
    """0.123 for everything: no mechanism explains it."""
    return 0.123


def _run(impls):
    vectors = list(load(["average_precision"]))
    rows = []
    for impl in impls:
        for v in vectors:
            if len(v.inputs.y_true) > 1000:
                continue
            outcome = run_implementation(impl, v)
            extra = extra_alternatives(impl, v)
            rows.append(
                Row(
                    impl.library,
                    impl.name,
                    impl.metric,
                    v,
                    classify(v, outcome, extra),
                    outcome.value,
                    (),
                    impl.conventions,
                    extra,
                )
            )
    status = LibraryStatus("mini", "mini", "mini", "1.0", True, "")
    return Run([status], rows, {})


def test_one_mechanism_per_implementation_and_unexplained_counted():
    run = _run(
        [
            Implementation("mini", "trapezoid", "average_precision", trapezoid),
            Implementation("mini", "constant", "average_precision", constant),
        ]
    )
    diags = {d.implementation: d for d in diagnose_run(run)}
    trap = diags["trapezoid"]
    # weighted vectors raise TypeError (crashed), which no mechanism predicts
    weighted = [r for r in trap.rows if r.vector.inputs.sample_weight is not None]
    assert {r.verdict.category for r in weighted} <= {"crashed", "agrees"}
    assert trap.diagnosis.chosen == ["trapezoid-for-step"]
    wrong = [r for r in trap.rows if r.verdict.category == "wrong"]
    assert wrong
    assert all(trap.mechanism(r)[0] == "trapezoid-for-step" for r in wrong)
    # the constant: every defined vector, and the undefined ones, unexplained; invalid input
    # accepted is the no-input-validation mechanism
    const = diags["constant"]
    assert const.diagnosis.chosen == ["no-input-validation"]
    defined = [r for r in const.rows if r.vector.result != "invalid"]
    assert len(const.unexplained) == len(defined)

    text = render(run)
    before = sum(d.unnamed_before for d in diags.values())
    after = len(trap.unexplained) + len(const.unexplained)
    divergent = len(trap.divergent) + len(const.divergent)
    assert before > after  # the trapezoid's "wrong" results were named by nobody before
    assert f"**Unexplained: {after} of {divergent} divergent results.**" in text
    assert re.search(rf"named no cause for\n{before} of them", text)
    section = text.split("## Unexplained divergences")[1].split("\n## ")[0]
    assert (
        f"- mini `constant` (`average_precision`): {len(const.unexplained)} unexplained" in section
    )
    assert "got 0.123" in section
    assert "predicted by `trapezoid-for-step`" in text
