"""The machine a benchmark ran on, for the reports it writes."""

from __future__ import annotations

import platform
from pathlib import Path


def cpu_model() -> str:
    """CPU model name from /proc/cpuinfo (Linux), else what :mod:`platform` knows."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"
