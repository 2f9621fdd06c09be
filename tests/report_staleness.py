"""Check that a generated report records the sha256 of the script that wrote it."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def assert_report_current(script: str, report: str) -> None:
    """``report`` (under the repository root) names ``script``'s current sha256 as
    ``<script name> sha256: <hex>``; otherwise the report is stale."""
    path = ROOT / script
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    recorded = re.search(
        rf"{re.escape(path.name)} sha256: ([0-9a-f]{{64}})", (ROOT / report).read_text()
    )
    assert recorded, f"{report} does not record the sha256 of {script}"
    assert recorded.group(1) == digest, f"{report} is stale: run `python {script}`"
