"""reports/conformance.md is what ``prtheory conformance`` generates now, checked without rerunning
every library (a slow library cannot make this test fail, and it costs seconds, not minutes).

The full run records what each library returned in ``reports/conformance_results.json``
(:mod:`prtheory.conformance.record`). The report is current when

1. the installed library versions are those recorded (with other versions the comparison would
   measure the libraries' changes, not staleness: the test then skips and says which differ);
2. every source that decides what a library returns or how it is classified (adapters, runner,
   classifier, generated inputs, vector files) has the sha256 recorded: a change there may
   change results, so the run must be repeated;
3. the report equals what the current code makes of the recorded results: classification,
   diagnosis and text are recomputed from the libraries' raw answers;
4. scikit-learn, run live on the average-precision vectors, returns what is recorded for it: the
   record holds what the libraries answered, not something else.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from prtheory.conformance import record
from prtheory.conformance.isolated import run_isolated
from prtheory.conformance.report import (
    committed_versions,
    environment,
    render,
    with_run_time,
    without_run_time,
)

ROOT = Path(__file__).resolve().parent.parent
REPORT = ROOT / "reports" / "conformance.md"
RESULTS = ROOT / record.RESULTS


def test_committed_report_records_versions():
    assert committed_versions(REPORT.read_text(encoding="utf-8"))


def _skip_unless_recorded_versions(committed: str) -> None:
    recorded = committed_versions(committed)
    installed = environment()
    if recorded != installed:
        diff = {
            k: (recorded.get(k), installed.get(k))
            for k in sorted(set(recorded) | set(installed))
            if recorded.get(k) != installed.get(k)
        }
        pytest.skip(
            f"reports/conformance.md was made with other versions (recorded, installed): {diff}; "
            "run `prtheory conformance --fail-on none` to record the installed ones"
        )


def test_report_is_current():
    committed = REPORT.read_text(encoding="utf-8")
    _skip_unless_recorded_versions(committed)
    # the run's cost: CPU time of every process and wall time, measured by the run
    cost = re.search(
        r"^Full run: \d+ s of CPU \(user \+ system of every process\), \d+ s wall", committed, re.M
    )
    assert cost is not None
    text = RESULTS.read_text(encoding="utf-8")
    recorded = record.loads(text)
    changed = {
        k: v for k, v in record.source_digests().items() if json.loads(text)["sources"].get(k) != v
    }
    assert not changed, (
        f"sources changed since the report was made: {sorted(changed)}; run "
        "`prtheory conformance --fail-on none`"
    )
    assert render(recorded) == without_run_time(committed), (
        "reports/conformance.md is stale: run `prtheory conformance --fail-on none`"
    )


def test_recorded_results_are_what_a_library_returns():
    _skip_unless_recorded_versions(REPORT.read_text(encoding="utf-8"))
    recorded = record.loads(RESULTS.read_text(encoding="utf-8"))
    live = run_isolated(["sklearn"], ["average_precision"], time_limit=600.0, differential="none")
    mine = [
        r for r in recorded.rows if r.library == "scikit-learn" and r.metric == "average_precision"
    ]
    assert len(live.rows) == len(mine)
    for got, kept in zip(live.rows, mine, strict=True):
        assert (got.vector.ident, got.verdict.category, got.error) == (
            kept.vector.ident,
            kept.verdict.category,
            kept.error,
        )
        assert repr(got.value) == repr(kept.value)
    # a subset run says nothing about the libraries it did not run
    text = render(live)
    head = "### torchmetrics applies a sigmoid when scores leave [0, 1]\n\n"
    assert head + "not checked (library not run)." in text


def test_run_time_line_round_trips():
    report = "# R\n\n12 results over 3 (metric, vector) pairs.\n\n## Libraries\n"
    timed = with_run_time(report, 58.4, 2, 41.2, {"lib": {"start-up": 3.04, "vectors": 5.0}})
    assert (
        "Full run: 41 s of CPU (user + system of every process), 58 s wall, 2 libraries at a "
        "time" in timed
    )
    assert "lib 3.0 + 5.0 s" in timed
    assert without_run_time(timed) == report


def test_a_changed_recorded_answer_changes_the_report():
    """The recomputation reads the libraries' answers: one answer changed, another report."""
    doc = json.loads(RESULTS.read_text(encoding="utf-8"))
    doc["rows"] = [r for r in doc["rows"] if r["library"] == "scikit-learn"]
    doc["differential"] = []
    original = record.loads(json.dumps(doc))
    row = next(r for r in doc["rows"] if r["value"] == (0.5).hex())  # an AP of exactly 1/2
    row["value"] = (0.75).hex()
    tampered = record.loads(json.dumps(doc))
    assert render(tampered) != render(original)
