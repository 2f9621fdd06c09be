"""The committed reports and figures are current.

Markdown reports are regenerated and compared as text. Figures are not compared as PNG bytes
(they change with the matplotlib version, fonts and renderer); instead the data behind each
figure is recomputed without matplotlib and its fingerprint compared with
``reports/figures/manifest.json``, which ``prtheory figures`` writes next to the PNGs.
Regenerate with ``prtheory tables`` and ``prtheory figures`` from the project root.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from prtheory.papers import boyd2012, figdata
from prtheory.papers.figdata import DRAWING_FILES, drawing_digest
from prtheory.papers.outputs import REPORTS, figure_data

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ROOT / "reports" / "figures"


@pytest.mark.parametrize("name", sorted(REPORTS))
def test_report_is_current(name):
    path = ROOT / "reports" / name
    assert path.exists(), f"{path} missing: run `prtheory tables`"
    assert path.read_text(encoding="utf-8") == REPORTS[name](), (
        f"{path} is stale: run `prtheory tables`"
    )


def test_figures_are_current():
    manifest = json.loads((FIGURES / "manifest.json").read_text())
    data = figure_data()
    assert sorted(manifest) == sorted(f"{d.name}.png" for d in data), (
        "figure list changed: run `prtheory figures`"
    )
    for d in data:
        png = FIGURES / f"{d.name}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", f"{png} missing or not a PNG"
        assert manifest[png.name]["data_sha256"] == d.fingerprint(), (
            f"{png} is stale (its data changed): run `prtheory figures`"
        )
        assert manifest[png.name]["drawing_sha256"] == drawing_digest(), (
            f"{png} is stale (the drawing code changed): run `prtheory figures`"
        )


def test_fingerprint_sees_a_changed_value():
    d = boyd2012.figure_1()
    before = d.fingerprint()
    key = next(iter(d.arrays))
    d.arrays[key] = d.arrays[key] + 1e-6
    assert d.fingerprint() != before


def test_drawing_digest_sees_a_changed_drawing(tmp_path, monkeypatch):
    for name in DRAWING_FILES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text((figdata.PACKAGE / name).read_text())
    before = drawing_digest()
    monkeypatch.setattr(figdata, "PACKAGE", tmp_path)
    assert drawing_digest() == before  # the copy is digested as the original
    with (tmp_path / "plots" / "_place.py").open("a") as fh:
        fh.write("# a change of one line\n")
    assert drawing_digest() != before


def test_tables_need_no_matplotlib():
    """`prtheory tables` and the figure data work with matplotlib unimportable."""
    code = (
        "import sys; sys.modules['matplotlib'] = None\n"
        "from prtheory.papers.outputs import REPORTS, figure_data\n"
        "assert all(make() for make in REPORTS.values())\n"
        "assert figure_data()\n"
        "from prtheory.cli import main\n"
        "sys.exit(main(['figures', '--root', sys.argv[1]]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(ROOT / "no-such-dir")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "needs matplotlib" in done.stderr
