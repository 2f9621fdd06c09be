"""Every code block of README.md, CONTRIBUTING.md and docs/ runs as pasted
(:mod:`prtheory._testing.docblocks` says how each language runs and how a block opts out).

A new page under docs/ is covered without being listed. A block that needs an optional extra
(matplotlib, pyspark, torch, scikit-learn, ...) is skipped, naming the extra, where it is not
installed; the README's test command installs them all, so CI runs every block.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import mpmath
import pytest

from prtheory._testing.docblocks import (
    EXECUTED,
    SHOWN,
    Block,
    agrees,
    blocks,
    commands,
    markdown_pages,
    stated_values,
)

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


def _scratch(tmp_path: Path) -> Path:
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    return tmp_path


def _skip_for_missing(exc: ModuleNotFoundError) -> None:
    top = (exc.name or "").split(".")[0]
    if top in OPTIONAL:
        pytest.skip(f"needs {top}: pip install -e '.[{OPTIONAL[top]}]'")
    raise exc


def _needs_java(source: str) -> None:
    if re.search(r"\bspark\b", source) and shutil.which("java") is None:
        pytest.skip("needs Java 17+ for pyspark")


def run_python(block: Block, cwd: Path) -> None:
    _needs_java(block.source)
    namespace: dict = {"__name__": "__main__"}
    before = Path.cwd()
    os.chdir(cwd)  # contextlib.chdir needs Python 3.11
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            exec(compile(block.source, block.id, "exec"), namespace)  # the block as pasted
        except ModuleNotFoundError as exc:
            _skip_for_missing(exc)
        finally:
            os.chdir(before)
            mpmath.mp.dps = 15
            if "matplotlib.pyplot" in sys.modules:
                sys.modules["matplotlib.pyplot"].close("all")
        for line, expr, written, prefix in stated_values(block.source):
            got = eval(expr, namespace)
            assert agrees(got, written, prefix), f"{block.id}: {line!r}: got {got!r}"


def _env() -> dict[str, str]:
    bindir = str(Path(sys.executable).parent)
    return {
        **os.environ,
        "PATH": bindir + os.pathsep + os.environ.get("PATH", ""),
        "COLUMNS": "100",
        "MPLBACKEND": "Agg",
    }


def _normalised(text: str) -> list[str]:
    """Lines with their times (``0.50s``, ``0.7s``) as ``N.NNs`` and trailing spaces removed."""
    return [re.sub(r"\d+\.\d+s\b", "N.NNs", ln).rstrip() for ln in text.strip().splitlines()]


def _matches(got: list[str], want: list[str]) -> bool:
    """``got == want``, where a line ``...`` of ``want`` stands for any run of lines."""
    if not want:
        return not got
    if want[0] == "...":
        return any(_matches(got[i:], want[1:]) for i in range(len(got) + 1))
    return bool(got) and got[0] == want[0] and _matches(got[1:], want[1:])


def run_console(block: Block, cwd: Path) -> None:
    _needs_java(block.source)
    for cmd in commands(block):
        run = subprocess.run(
            cmd.line, shell=True, cwd=cwd, env=_env(), capture_output=True, text=True, check=False
        )
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


RUNNERS = {"python": run_python, "console": run_console, "bash": run_bash}


@pytest.mark.parametrize("block", [b for b in ALL if b.executed], ids=lambda b: b.id)
def test_block_runs_as_pasted(block: Block, tmp_path: Path):
    RUNNERS[block.lang](block, _scratch(tmp_path))


@pytest.mark.parametrize(
    "block", [b for b in ALL if b.lang in EXECUTED and not b.executed], ids=lambda b: b.id
)
def test_a_block_not_executed_says_why(block: Block):
    # the reason is in the block's first line (at least ten characters, see OPT_OUT)
    assert block.opt_out


# ---------------------------------------------------------------------------------------------
# the harness itself: a block that fails must fail its test


def _block(lang: str, source: str) -> Block:
    return Block("mutant.md", 1, lang, source)


def test_a_failing_python_block_fails(tmp_path):
    with pytest.raises(NameError):
        run_python(_block("python", "y_true\n"), tmp_path)


def test_a_wrong_stated_value_fails(tmp_path):
    with pytest.raises(AssertionError, match=r"got Fraction\(1, 3\)"):
        run_python(
            _block("python", "from fractions import Fraction\nFraction(1, 3)   # 0.3\n"), tmp_path
        )
    with pytest.raises(AssertionError, match=r"got 0\.25"):
        run_python(_block("python", "1 / 4   # 0.3...\n"), tmp_path)
    run_python(_block("python", "1 / 3   # 0.333...\n"), tmp_path)


def test_a_missing_optional_module_skips_and_a_missing_other_module_fails(tmp_path):
    with pytest.raises(pytest.skip.Exception, match=r"\[plots\]"):
        _skip_for_missing(ModuleNotFoundError("no", name="matplotlib.pyplot"))
    with pytest.raises(ModuleNotFoundError):
        run_python(_block("python", "import prtheory.no_such_module\n"), tmp_path)


def test_a_console_command_with_other_output_fails(tmp_path):
    with pytest.raises(AssertionError, match="printed"):
        run_console(_block("console", "$ echo one\ntwo\n"), tmp_path)
    with pytest.raises(AssertionError):
        run_console(_block("console", "$ false\n"), tmp_path)
    run_console(_block("console", "$ echo took 0.25s\ntook 1.50s\n"), tmp_path)
    run_console(_block("console", "$ printf 'a\\nb\\nc\\n'\na\n...\n"), tmp_path)
    with pytest.raises(AssertionError, match="printed"):
        run_console(_block("console", "$ printf 'a\\nb\\n'\n...\nc\n"), tmp_path)


def test_a_failing_bash_line_fails_the_block(tmp_path):
    with pytest.raises(AssertionError):
        run_bash(_block("bash", "false\necho after\n"), tmp_path)


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
    [b for page in ROUTE for b in blocks(ROOT / page, ROOT) if b.executed and b.lang == "python"],
    ids=lambda b: b.id,
)
def test_the_route_runs_in_a_fresh_interpreter(block: Block, tmp_path: Path):
    _needs_java(block.source)
    run = subprocess.run(
        [sys.executable, "-c", block.source],
        cwd=_scratch(tmp_path),
        env=_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    missing = re.search(r"ModuleNotFoundError: No module named '(\w+)", run.stderr)
    if run.returncode and missing and missing.group(1) in OPTIONAL:
        pytest.skip(f"needs {missing.group(1)}")
    assert run.returncode == 0, f"{block.id} as pasted:\n{run.stderr[-3000:]}"
