"""Every code block of README.md, CONTRIBUTING.md and docs/ runs as pasted
(:mod:`prtheory._testing.docblocks` says how each language runs and how a block opts out).

A new page under docs/ is covered without being listed. A block that needs an optional extra
(matplotlib, pyspark, torch, scikit-learn, ...) is skipped, naming the extra, where it is not
installed; the README's test command installs them all, so CI runs every block.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from prtheory._testing.docblocks import (
    EXECUTED,
    SHOWN,
    Block,
    blocks,
    commands,
    markdown_pages,
)
from prtheory._testing.docrun import filters_now

ROOT = Path(__file__).resolve().parents[1]
PAGES = markdown_pages(ROOT)
ALL = [b for page in PAGES for b in blocks(page, ROOT)]

#: top-level modules an example may need that the core install does not have: the extra
#: that brings each
OPTIONAL = {
    "matplotlib": "plots",
    "pyspark": "spark",
    "pyarrow": "spark",
    "torch": "conformance",
    "torchmetrics": "conformance",
    "sklearn": "conformance",
    "pandas": "conformance",
    "polars": "test",
    "numba": "fast",
    "gmpy2": "fast",
    "flint": "bench",
    "scipy": "bench",
}


def test_the_harness_finds_the_pages_and_their_blocks():
    pages = {p.relative_to(ROOT).as_posix() for p in PAGES}
    assert {"README.md", "docs/start.md", "docs/practitioners.md"} <= pages
    assert not any("_generated" in p or "_build" in p for p in pages)
    # Python and console blocks run (the bash runner has its own test below: every bash block
    # of the pages today installs or runs the suite, and says so)
    assert {"python", "console"} <= {b.lang for b in ALL if b.executed}


@pytest.mark.parametrize("block", ALL, ids=lambda b: b.id)
def test_every_block_names_its_language(block: Block):
    assert block.lang in EXECUTED + SHOWN, (
        f"{block.id}: a code block must name its language ({', '.join(EXECUTED)} run in the "
        f"tests; {', '.join(SHOWN)} are shown), not {block.lang!r}"
    )


#: the checkout's folders the pages' commands read, linked into each scratch directory: the
#: gallery's scripts and the package (the servers of R's packages and Weka are read from
#: ``prtheory/conformance/adapters/``; ``import prtheory`` there is the same source)
CHECKOUT_FILES = ("examples", "prtheory")


def _scratch(directory: Path) -> Path:
    for name in CHECKOUT_FILES:
        (directory / name).parent.mkdir(parents=True, exist_ok=True)
        (directory / name).symlink_to(ROOT / name)
    return directory


def _env() -> dict[str, str]:
    bindir = str(Path(sys.executable).parent)
    return {
        **os.environ,
        "PATH": bindir + os.pathsep + os.environ.get("PATH", ""),
        "COLUMNS": "100",
        "MPLBACKEND": "Agg",
    }


class PythonRuns:
    """The outcome of every Python block, each run once: the first block of a page asked for
    starts one fresh interpreter for all the page's blocks (:mod:`prtheory._testing.docrun`),
    whose outcomes the per-block tests and the newcomer's route then read."""

    timeout = 900  # seconds for one page's blocks

    def __init__(self, scratch: pytest.TempPathFactory):
        self.scratch = scratch
        self.outcomes: dict[str, dict] = {}

    def run(self, group: list[Block]) -> None:
        """Run ``group`` (one page's blocks, in order) in one interpreter."""
        request = {
            "filters": filters_now(),  # the test's: a warning is an error there too
            "blocks": [
                {"id": b.id, "source": b.source, "cwd": str(_scratch(self.scratch.mktemp("block")))}
                for b in group
            ],
        }
        results = self.scratch.mktemp("results") / "outcomes.json"
        try:
            run = subprocess.run(
                [sys.executable, "-m", "prtheory._testing.docrun", str(results)],
                input=json.dumps(request),
                env=_env(),
                capture_output=True,
                text=True,
                check=False,
                timeout=self.timeout,
            )
            crash = f"the interpreter of {group[0].page} exited {run.returncode}:\n{run.stderr}"
            failed = run.returncode != 0 or not results.exists()
        except subprocess.TimeoutExpired:
            crash, failed = f"the blocks of {group[0].page} ran over {self.timeout} s", True
        if failed:
            outcomes = [
                {"id": b.id, "error": crash, "missing": None, "mismatches": []} for b in group
            ]
        else:
            outcomes = json.loads(results.read_text())
        self.outcomes.update((o["id"], o) for o in outcomes)

    def outcome(self, block: Block) -> dict:
        if block.id not in self.outcomes:
            self.run([b for b in PYTHON if b.page == block.page and _runnable(b)])
        return self.outcomes[block.id]


#: what a block that needs Spark (and so Java) says: pyspark, or prtheory's Spark module
#: (``first_point="spark"`` is a convention, not Spark)
SPARK = re.compile(r"\bpyspark\b|\bprtheory\.spark\b|\bfrom prtheory import spark\b")


def _runnable(block: Block) -> bool:
    return shutil.which("java") is not None or not SPARK.search(block.source)


def _needs_java(source: str) -> None:
    if not _runnable(Block("", 0, "", source)):
        pytest.skip("needs Java 17+ for pyspark")
    if re.search(r"\bRscript\b", source) and shutil.which("Rscript") is None:
        pytest.skip("needs R and its packages: bash .ci/install-external")


def check_python(outcome: dict) -> None:
    """Fail on the block's error or a value its comments state wrongly; skip, naming the extra,
    where the error is an optional module that is not installed (a typo in a module name of an
    installed one fails)."""
    top = (outcome["missing"] or "").split(".")[0]
    if top in OPTIONAL and importlib.util.find_spec(top) is None:
        pytest.skip(f"needs {top}: pip install -e '.[{OPTIONAL[top]}]'")
    assert outcome["error"] is None, f"{outcome['id']}:\n{outcome['error'][-3000:]}"
    assert not outcome["mismatches"], f"{outcome['id']}: " + "; ".join(outcome["mismatches"])


def _normalised(text: str) -> list[str]:
    """Lines with their times (``0.50s``, ``0.7s``, JSON's ``"cpu":0.022``) as ``N.NNs`` and
    ``"cpu":N``, and trailing spaces removed."""
    lines = [re.sub(r"\d+\.\d+s\b", "N.NNs", ln).rstrip() for ln in text.strip().splitlines()]
    return [re.sub(r'"cpu":\s*[\d.e+-]+', '"cpu":N', ln) for ln in lines]


def _matches(got: list[str], want: list[str]) -> bool:
    """``got == want``, where a line ``...`` of ``want`` stands for any run of lines."""
    if not want:
        return not got
    if want[0] == "...":
        return any(_matches(got[i:], want[1:]) for i in range(len(got) + 1))
    return bool(got) and got[0] == want[0] and _matches(got[1:], want[1:])


class ConsoleRuns:
    """Each distinct ``$ command`` of the console blocks, run once, in a fresh scratch directory
    of its own (a page whose commands share files writes one ``bash`` block instead)."""

    def __init__(self, scratch: pytest.TempPathFactory):
        self.scratch = scratch
        self.runs: dict[str, subprocess.CompletedProcess[str]] = {}

    def run(self, line: str) -> subprocess.CompletedProcess[str]:
        if line not in self.runs:
            cwd = _scratch(self.scratch.mktemp("command"))
            self.runs[line] = subprocess.run(
                line, shell=True, cwd=cwd, env=_env(), capture_output=True, text=True, check=False
            )
        return self.runs[line]


def check_console(block: Block, runs: ConsoleRuns) -> None:
    _needs_java(block.source)
    for cmd in commands(block):
        run = runs.run(cmd.line)
        if not cmd.output:
            assert run.returncode == 0, f"{block.id}: $ {cmd.line}\n{run.stdout}\n{run.stderr}"
        else:
            assert _matches(_normalised(run.stdout), _normalised("\n".join(cmd.output))), (
                f"{block.id}: $ {cmd.line} printed\n{run.stdout}{run.stderr}"
            )


def run_bash(block: Block, cwd: Path) -> None:
    run = subprocess.run(
        ["bash", "-e", "-c", block.source],
        cwd=cwd,
        env=_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, f"{block.id}:\n{run.stdout}\n{run.stderr}"


PYTHON = [b for b in ALL if b.executed and b.lang == "python"]


@pytest.fixture(scope="session")
def python_runs(tmp_path_factory: pytest.TempPathFactory) -> PythonRuns:
    return PythonRuns(tmp_path_factory)


@pytest.fixture(scope="session")
def console_runs(tmp_path_factory: pytest.TempPathFactory) -> ConsoleRuns:
    return ConsoleRuns(tmp_path_factory)


def check_block(block: Block, python_runs: PythonRuns, console_runs: ConsoleRuns, tmp: Path):
    if block.lang == "python":
        _needs_java(block.source)
        check_python(python_runs.outcome(block))
    elif block.lang == "console":
        check_console(block, console_runs)
    else:
        run_bash(block, _scratch(tmp))


@pytest.mark.parametrize("block", [b for b in ALL if b.executed], ids=lambda b: b.id)
def test_block_runs_as_pasted(block: Block, python_runs, console_runs, tmp_path: Path):
    check_block(block, python_runs, console_runs, tmp_path)


@pytest.mark.parametrize(
    "block", [b for b in ALL if b.lang in EXECUTED and not b.executed], ids=lambda b: b.id
)
def test_a_block_not_executed_says_why(block: Block):
    # the reason is in the block's first line (at least ten characters, see OPT_OUT)
    assert block.opt_out


# ---------------------------------------------------------------------------------------------
# the harness itself: a block that fails must fail its test


def _block(lang: str, source: str, line: int = 1) -> Block:
    return Block("mutant.md", line, lang, source)


MUTANTS = {
    "undefined": "y_true\n",
    "wrong value": "from fractions import Fraction\nFraction(1, 3)   # 0.3\n",
    "wrong prefix": "1 / 4   # 0.3...\n",
    "right prefix": "1 / 3   # 0.333...\n",
    "missing optional": "import no_such_extra.pyplot\n",
    "typo in an optional": "import matplotlib.no_such_module\n",
    "missing other": "import prtheory.no_such_module\n",
    "warning": "import warnings\nwarnings.warn('deprecated', DeprecationWarning)\n",
    "leaks state": "import mpmath, os\nmpmath.mp.dps = 50\nos.chdir('/')\n",
    "sees clean state": "import mpmath, os\nassert mpmath.mp.dps == 15 and os.getcwd() != '/'\n",
}


@pytest.fixture(scope="module")
def mutants(python_runs: PythonRuns) -> dict[str, dict]:
    """The outcomes of the mutant blocks, run in one interpreter in this order."""
    group = [_block("python", src, i) for i, src in enumerate(MUTANTS.values(), 1)]
    python_runs.run(group)
    return {name: python_runs.outcomes[b.id] for name, b in zip(MUTANTS, group, strict=True)}


def test_a_failing_python_block_fails(mutants):
    with pytest.raises(AssertionError, match="NameError: name 'y_true' is not defined"):
        check_python(mutants["undefined"])


def test_a_wrong_stated_value_fails(mutants):
    with pytest.raises(AssertionError, match=r"got Fraction\(1, 3\)"):
        check_python(mutants["wrong value"])
    with pytest.raises(AssertionError, match=r"got 0\.25"):
        check_python(mutants["wrong prefix"])
    check_python(mutants["right prefix"])


def test_a_missing_optional_module_skips_and_a_missing_other_module_fails(mutants, monkeypatch):
    monkeypatch.setitem(OPTIONAL, "no_such_extra", "plots")
    with pytest.raises(pytest.skip.Exception, match=r"\[plots\]"):
        check_python(mutants["missing optional"])
    with pytest.raises(AssertionError, match="ModuleNotFoundError"):
        check_python(mutants["typo in an optional"])
    with pytest.raises(AssertionError, match="ModuleNotFoundError"):
        check_python(mutants["missing other"])


def test_a_warning_fails_the_block_as_it_fails_a_test(mutants):
    with pytest.raises(AssertionError, match="DeprecationWarning: deprecated"):
        check_python(mutants["warning"])


def test_a_block_finds_the_state_its_predecessor_changed_put_back(mutants):
    check_python(mutants["leaks state"])
    check_python(mutants["sees clean state"])


def test_a_crashing_interpreter_fails_every_block_of_its_page(python_runs):
    group = [_block("python", "import os\nos._exit(3)\n", 101), _block("python", "1\n", 102)]
    python_runs.run(group)
    for b in group:
        with pytest.raises(AssertionError, match="exited 3"):
            check_python(python_runs.outcomes[b.id])


def test_a_page_that_runs_over_its_time_fails_every_block(python_runs, monkeypatch):
    monkeypatch.setattr(python_runs, "timeout", 3)
    group = [_block("python", "import time\ntime.sleep(60)\n", 201), _block("python", "1\n", 202)]
    python_runs.run(group)
    for b in group:
        with pytest.raises(AssertionError, match="ran over 3 s"):
            check_python(python_runs.outcomes[b.id])


def test_a_console_command_with_other_output_fails(console_runs):
    def check(source: str) -> None:
        check_console(_block("console", source), console_runs)

    with pytest.raises(AssertionError, match="printed"):
        check("$ echo one\ntwo\n")
    with pytest.raises(AssertionError):
        check("$ false\n")
    check("$ echo took 0.25s\ntook 1.50s\n")
    check("$ printf 'a\\nb\\nc\\n'\na\n...\n")
    with pytest.raises(AssertionError, match="printed"):
        check("$ printf 'a\\nb\\n'\n...\nc\n")
    # a line ending in a backslash continues the command; a JSON CPU time is a time
    check("$ printf '%s\\n' one \\\n    | tr o O\nOne\n")
    check('$ echo \'{"id":1,"cpu":0.022}\'\n{"id":1,"cpu":0.5}\n')
    with pytest.raises(AssertionError, match="printed"):
        check('$ echo \'{"id":2,"cpu":0.022}\'\n{"id":1,"cpu":0.022}\n')


def test_the_commands_read_the_checkouts_files(console_runs):
    # the servers of R's packages and Weka are read from where a checkout has them
    check_console(
        _block(
            "console",
            "$ ls prtheory/conformance/adapters/r/vectors.R\nprtheory/conformance/adapters/r/vectors.R\n",
        ),
        console_runs,
    )


def test_each_command_runs_once_in_a_directory_of_its_own(console_runs):
    # the second block's command would print 2 if it ran again, or in the first one's directory
    line = "echo x >> count && wc -l < count"
    check_console(_block("console", f"$ {line}\n1\n"), console_runs)
    check_console(_block("console", f"$ {line}\n1\n", 2), console_runs)
    check_console(_block("console", "$ ls count || echo none\nnone\n", 3), console_runs)


def test_a_failing_bash_line_fails_the_block(tmp_path):
    with pytest.raises(AssertionError):
        run_bash(_block("bash", "false\necho after\n"), tmp_path)


def test_only_a_block_that_uses_spark_needs_java():
    assert SPARK.search("from pyspark.sql import SparkSession\n")
    assert SPARK.search("from prtheory import spark\nspark.average_precision(df)\n")
    assert SPARK.search("import prtheory.spark\n")
    assert not SPARK.search('pr_auc(y, s, method="davis-goadrich", first_point="spark")\n')


def test_an_opt_out_needs_a_reason():
    assert _block("python", "# not executed: a template around your own function\nx\n").opt_out
    assert _block("python", "# not executed:\nx\n").opt_out is None
    assert _block("python", "# not executed: why\nx\n").opt_out is None  # too short to say why
    assert _block("python", "x  # not executed: not on the first line\n").opt_out is None


def test_nested_fences_and_directives(tmp_path):
    page = tmp_path / "p.md"
    page.write_text(
        "````text\n```python\nnot run\n```\n````\n\n```{toctree}\nx\n```\n\n  ```python\n  1\n  ```\n"
    )
    found = blocks(page, tmp_path)
    assert [(b.lang, b.line) for b in found] == [("text", 1), ("python", 11)]
    assert found[1].source == "1\n"


# ---------------------------------------------------------------------------------------------
# the newcomer's route: README -> docs/start.md -> docs/practitioners.md -> a gallery example,
# every link present and every block run as pasted into a fresh interpreter

ROUTE = ("README.md", "docs/start.md", "docs/practitioners.md", "docs/gallery/index.md")


def test_the_route_is_linked():
    text = {page: (ROOT / page).read_text() for page in ROUTE}
    assert "](docs/start.md)" in text["README.md"]
    assert "](practitioners.md)" in text["docs/start.md"]
    assert "](gallery/index.md)" in text["docs/practitioners.md"]
    gallery = [b for b in blocks(ROOT / ROUTE[-1], ROOT) if b.executed]
    assert gallery, "the gallery has no executed example"


@pytest.mark.parametrize(
    "block",
    [b for page in ROUTE for b in blocks(ROOT / page, ROOT) if b.executed],
    ids=lambda b: b.id,
)
def test_the_route_runs_as_pasted(block: Block, python_runs, console_runs, tmp_path: Path):
    # the outcomes of the per-page runs above, not a second run
    check_block(block, python_runs, console_runs, tmp_path)
