"""reports/conformance.md is what ``prtheory conformance`` generates now.

The report records the library versions it was made with. With other versions installed the
comparison would measure the libraries' changes, not staleness, so the test then skips and says
which versions differ (regenerate the report to record the new ones).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from prtheory.conformance.isolated import run_isolated
from prtheory.conformance.report import (
    committed_versions,
    environment,
    render,
    with_run_time,
    without_run_time,
)

REPORT = Path(__file__).resolve().parent.parent / "reports" / "conformance.md"


def test_committed_report_records_versions():
    assert committed_versions(REPORT.read_text(encoding="utf-8"))


def test_report_is_current():
    committed = REPORT.read_text(encoding="utf-8")
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
            "run `prtheory conformance` to record the installed ones"
        )
    assert re.search(r"^Full run: \d+ s wall", committed, re.M)  # the measured run time
    # generous limits: a loaded machine must not turn a slow vector into a "crashed" result
    fresh = render(run_isolated(time_limit=600.0, memory_mb=None))
    assert fresh == without_run_time(committed), (
        "reports/conformance.md is stale: run `prtheory conformance`"
    )


def test_run_time_line_round_trips():
    report = "# R\n\n12 results over 3 (metric, vector) pairs.\n\n## Libraries\n"
    timed = with_run_time(report, 58.4, 2)
    assert "Full run: 58 s wall, 2 libraries at a time" in timed
    assert without_run_time(timed) == report
