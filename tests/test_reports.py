"""The committed benchmark reports were written by the current benchmark scripts, and no
generated file names a directory of the machine that produced it."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from prtheory._testing.profiles import profile_call, strip_paths

ROOT = Path(__file__).resolve().parents[1]

# script -> the report it writes, which records the script's sha256 as `<name> sha256: <hex>`
BENCHMARK_REPORTS = {
    "benchmarks/bench_ap.py": "reports/benchmarks.md",
    "benchmarks/bench_closed_forms.py": "reports/benchmarks_closed_forms.md",
    "benchmarks/bench_curves.py": "reports/benchmarks_curves.md",
    "benchmarks/bench_float_curves.py": "reports/benchmarks_float_curves.md",
    "benchmarks/bench_float_weights.py": "reports/benchmarks_float_weights.md",
    "benchmarks/bench_intervals.py": "reports/intervals.md",
    "benchmarks/bench_spark.py": "reports/benchmarks_spark.md",
    "benchmarks/bench_duckdb.py": "reports/benchmarks_duckdb.md",
}

# a directory of this machine: a home or system directory, the temporary directory, an
# installed package, or this checkout's own root
MACHINE_PATH = re.compile(
    r"(?<![\w.])(?:/(?:home|root|tmp|work|usr|opt|var|Users|private)/\S+"
    r"|[A-Za-z]:\\\S+|\S*site-packages\S*)"
)


@pytest.mark.parametrize(("script", "report"), list(BENCHMARK_REPORTS.items()))
def test_benchmark_report_is_current(script, report):
    digest = hashlib.sha256((ROOT / script).read_bytes()).hexdigest()
    name = Path(script).name
    recorded = re.search(
        rf"{re.escape(name)} sha256: ([0-9a-f]{{64}})", (ROOT / report).read_text()
    )
    assert recorded, f"{report} does not record the sha256 of {script}"
    assert recorded.group(1) == digest, f"{report} is stale: run `python {script}`"


def _markdown_table(text: str, header_start: str) -> list[dict[str, str]]:
    """The rows of the first markdown table whose header line starts with ``header_start``."""

    def cells(line: str) -> list[str]:
        return [c.strip() for c in line.strip().strip("|").split("|")]

    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header_start))
    header = cells(lines[start])
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append(dict(zip(header, cells(line), strict=True)))
    return rows


def test_markdown_table_reads_rows_by_header():
    text = "intro\n| a | b |\n|---|---|\n| 1 | x |\n| 2 | y |\n\nafter | c |"
    assert _markdown_table(text, "| a |") == [{"a": "1", "b": "x"}, {"a": "2", "b": "y"}]


def test_spark_report_values_equal_their_references():
    # a regenerated report that measured a wrong value must not pass as current: every Spark
    # value equals the single-machine float, and the exact oracle wherever it ran
    text = (ROOT / "reports/benchmarks_spark.md").read_text()
    rows = _markdown_table(text, "| n | pattern | prtheory.spark AP")
    assert rows, "the Spark report has no timing table"
    for r in rows:
        assert r["equal to single-machine float"] == "True", r
        assert r["equal to the oracle"] in ("True", "not run"), r
    assert any(r["equal to the oracle"] == "True" for r in rows)


_COUNT_WORDS = ("none", "one", "two", "three", "four", "five", "six", "seven", "eight")


def _spark_ratio_claims(text: str) -> list[str]:
    """What the Spark report's timing table says, in the words the documentation uses: each
    ratio range (``float 0.05-0.30x``, ``Fraction` 0.16-0.32x``) and how many rows are within
    the 0.25x target (``within 0.25x on three of the six, the float on five``)."""
    rows = _markdown_table(text, "| n | pattern | prtheory.spark AP")
    claims = []
    for kind, label in (("float", "float"), ("exact", "`Fraction`")):
        ratios = [float(r[f"{kind} / MLlib default"].rstrip("x")) for r in rows]
        claims.append(f"{label} {min(ratios):.2f}-{max(ratios):.2f}x")
    within = [r["within target (exact / float)"].split(" / ") for r in rows]
    exact, floats = (sum(w[i] == "yes" for w in within) for i in (0, 1))
    claims.append(
        f"within 0.25x on {_COUNT_WORDS[exact]} of the {_COUNT_WORDS[len(rows)]}, the float on "
        f"{_COUNT_WORDS[floats]}"
    )
    return claims


def test_spark_ratio_claims_read_the_table():
    text = (
        "| n | pattern | prtheory.spark AP (float) | float / MLlib default | exact / MLlib default "
        "| within target (exact / float) |\n|---|---|---|---|---|---|\n"
        "| 1 | a | 1 | 0.20x | 0.30x | **no** / yes |\n| 2 | b | 1 | 0.10x | 0.25x | yes / yes |\n"
    )
    assert _spark_ratio_claims(text) == [
        "float 0.10-0.20x",
        "`Fraction` 0.25-0.30x",
        "within 0.25x on one of the two, the float on two",
    ]


# each document and how many of the claims it states: the README the float's range, how it
# works both ranges, the performance page also the count of rows within the target
SPARK_RATIO_DOCS = {"README.md": 1, "docs/guide/how-it-works.md": 2, "docs/performance.md": 3}


@pytest.mark.parametrize(("doc", "stated"), list(SPARK_RATIO_DOCS.items()))
def test_spark_ratios_in_the_documentation_are_the_reports(doc, stated):
    # the performance statements about Spark quote the committed report: regenerating it
    # without updating them fails here
    claims = _spark_ratio_claims((ROOT / "reports/benchmarks_spark.md").read_text())[:stated]
    words = " ".join((ROOT / doc).read_text().split()).replace("float takes", "float")
    missing = [c for c in claims if c not in words]
    assert not missing, f"{doc} does not state {missing} (reports/benchmarks_spark.md)"


def test_float_weight_ratios_in_the_readme_are_the_reports():
    # the README quotes the report's table of largest ratios, row by row: regenerating the
    # report without updating the README fails here
    report = (ROOT / "reports/benchmarks_float_weights.md").read_text()
    start = report.index("| metric | weights | compiled / sklearn (max)")
    table = report[start:].split("\n\n")[0].splitlines()
    readme = (ROOT / "README.md").read_text()
    missing = [row for row in table if row not in readme]
    assert not missing, f"README.md does not quote {missing} (reports/benchmarks_float_weights.md)"
    assert len(table) == 2 + 4 * 4  # header, rule, four metrics by four kinds of weights


def _float_weight_scope(report: str) -> str:
    """The README's sentence on what the float-weight report covers: its sizes, and how many of
    its patterns are within the targets (1.0x compiled, 2.0x numpy)."""
    rows = [
        line.split(" | ")
        for line in report.splitlines()
        if re.match(r"\| [^|]+ \| \de\+\d\d \|", line)
    ]
    sizes = sorted({int(float(r[1])) for r in rows})
    words = " and ".join(f"10^{len(str(n)) - 1}" for n in sizes)
    compiled = sum(float(r[8]) <= 1.0 for r in rows)
    numpy = sum(float(r[9]) <= 2.0 for r in rows)
    return (
        f"over {words} items; {compiled} of {len(rows)} patterns are within 1.0x with numba and "
        f"{numpy} of {len(rows)} within 2.0x without"
    )


def test_float_weight_scope_reads_the_report():
    row = "| trapezoid | {} | 1% | tied | unit | 0.1 | 0.1 | 0.1 | {} | {} | True | 0 | 1.0-1.0 |"
    report = "\n".join([row.format("1e+06", "0.50", "2.50"), row.format("1e+07", "1.20", "0.50")])
    assert _float_weight_scope(report) == (
        "over 10^6 and 10^7 items; 1 of 2 patterns are within 1.0x with numba and 1 of 2 within "
        "2.0x without"
    )


def test_float_weight_scope_in_the_readme_is_the_reports():
    # the sizes the README names and its count of patterns within the targets are the report's
    report = (ROOT / "reports/benchmarks_float_weights.md").read_text()
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert _float_weight_scope(report) in readme


def _generated_files() -> list[Path]:
    return sorted(p for d in ("reports", "proofs") for p in (ROOT / d).rglob("*") if p.is_file())


def test_the_path_pattern_finds_machine_paths():
    # the scan below is only as good as its pattern: it must see each kind of path it looks for
    for text in (
        "1 0.0 /work/wt/x/prtheory/oracle/ap.py:81(average_precision)",
        "see /home/me/prtheory/reports",
        "numpy at /opt/py/lib/python3.11/site-packages/numpy/_core/fromnumeric.py:48",
        "C:\\Users\\me\\prtheory\\floats.py",
        "written to /tmp/accuracy.md",
    ):
        assert MACHINE_PATH.search(text), text
    for text in ("prtheory/oracle/ap.py:81(average_precision)", "`reports/accuracy.md`", "1/2"):
        assert not MACHINE_PATH.search(text), text


@pytest.mark.parametrize("path", _generated_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_generated_file_names_no_machine_path(path):
    # bytes read as latin-1, so that the metadata of the figures (PNG) is scanned too
    text = path.read_bytes().decode("latin-1")
    hits = [
        f"{i}: {line.strip()[:200]}"
        for i, line in enumerate(text.splitlines(), start=1)
        if MACHINE_PATH.search(line)
    ]
    assert not hits, "absolute paths of the machine that generated it:\n" + "\n".join(hits[:5])


def test_strip_paths_makes_paths_package_relative():
    text = (
        f"1 0.0 {ROOT}/prtheory/oracle/ap.py:81(average_precision)\n"
        "2 0.0 /opt/py/lib/python3.11/site-packages/numpy/_core/fromnumeric.py:48(_wrapfunc)\n"
        "3 0.0 /usr/lib/python3/dist-packages/mpmath/ctx_mp.py:10(f)"
    )
    assert strip_paths(text).splitlines() == [
        "1 0.0 prtheory/oracle/ap.py:81(average_precision)",
        "2 0.0 numpy/_core/fromnumeric.py:48(_wrapfunc)",
        "3 0.0 mpmath/ctx_mp.py:10(f)",
    ]
    assert strip_paths("x /srv/build/lib/m.py:1(f)", roots=["/srv/build"]) == "x lib/m.py:1(f)"


def test_a_profile_names_no_machine_path():
    # a call that runs code of this repository, of numpy (an installed package) and of the
    # standard library (fractions): each shows up in the listing under a relative path
    from prtheory.oracle import average_precision

    text = profile_call(average_precision, [0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8], None, top=40)
    assert "prtheory/oracle/ap.py" in text
    assert not MACHINE_PATH.search(text), text
    assert str(ROOT) not in text
