"""SHA-256 digests of the sources that decide a generated accuracy report.

``reports/accuracy.md`` records these three digests; the test suite recomputes them and fails
when the committed report was produced by other code (the report takes minutes to regenerate,
so it is checked, not re-run, by the tests).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from prtheory._testing.reference import DPS
from prtheory._testing.samplers import SEED

__all__ = ["ORACLE_FILES", "floats_digest", "oracle_digest", "sampler_digest"]

PACKAGE = Path(__file__).resolve().parents[1]
#: the oracle modules behind the reference values, relative to the package
ORACLE_FILES = ("oracle/closed_forms.py", "oracle/points.py", "oracle/rounding.py")


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def floats_digest() -> str:
    """Of the modules of ``prtheory/floats/`` (names and contents), the code measured."""
    files = sorted((PACKAGE / "floats").glob("*.py"))
    return _sha256("".join(f"{f.name}\n{f.read_text()}" for f in files))


def sampler_digest() -> str:
    """Of ``prtheory/_testing/samplers.py`` and the sampling parameters (seed, oracle digits)."""
    return _sha256(f"{SEED} {DPS}\n" + (PACKAGE / "_testing" / "samplers.py").read_text())


def oracle_digest() -> str:
    """Of the oracle modules that give the reference values."""
    return _sha256("".join((PACKAGE / f).read_text() for f in ORACLE_FILES))
