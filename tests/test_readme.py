"""The README's Python examples run, and the values in their comments are the values returned.

A comment that starts with a number or a ``Fraction(...)`` states the value of the expression
before it (those values were derived by hand: 11/30 for the step AP of the tour's ranking, the
float64 nearest to it, and AUCPR_min(1e-8) = pi/2 + pi^2/6 + O(pi^3) from claim B4's series).
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STATED = re.compile(
    r"^(?P<expr>[^#]+?)\s+# (?P<value>Fraction\(\d+, \d+\)|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)"
    r"(?=$|[,:]| \()"
)


def _blocks(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(), flags=re.S)


def _runnable(path: Path) -> list[str]:
    # blocks that call the user's own function (``my_...``) are templates, not examples
    return [b for b in _blocks(path) if "my_" not in b]


@pytest.mark.parametrize("page", ["README.md", "docs/start.md", "docs/guide/bigger-than-memory.md"])
def test_examples_run_and_state_true_values(page):
    blocks = _runnable(ROOT / page)
    assert blocks, f"{page} has no runnable example"
    stated = 0
    for block in blocks:
        namespace: dict = {}
        exec(compile(block, page, "exec"), namespace)  # the block runs as a whole
        for line in block.splitlines():
            m = STATED.match(line)
            if not m or "=" in m.group("expr").split("(")[0]:
                continue
            got = eval(m.group("expr"), namespace)
            want = eval(m.group("value"), {"Fraction": Fraction})
            assert got == want, f"{line!r}: got {got!r}"
            assert type(got) is type(want), f"{line!r}: got a {type(got).__name__}"
            stated += 1
    assert stated >= 3, f"{page}: only {stated} stated values were checked"


def test_ci_runs_the_readmes_test_command_verbatim():
    """``.ci/run`` ends with the README's second set-up command, as written, under ``set -e``
    (so a failing test fails the run), and removes the environment it made."""
    commands = re.findall(r"```bash\n(.*?)\n```", (ROOT / "README.md").read_text(), flags=re.S)
    install_and_test = [c for c in commands if c.rstrip().endswith("&& pytest")]
    assert len(install_and_test) == 1, f"the README's test commands: {install_and_test}"
    script = (ROOT / ".ci" / "run").read_text()
    lines = [ln for ln in script.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    assert lines[-1] == install_and_test[0]
    assert "set -euo pipefail" in lines[:3]
    assert re.search(r"""^trap 'rm -rf "\$scratch"' EXIT$""", script, flags=re.M)
