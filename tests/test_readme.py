"""CI runs the README's test command, as written."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ci_runs_the_readmes_test_command_verbatim():
    """``.ci/run`` ends with the README's second set-up command, as written, under ``set -e``
    (so a failing test fails the run), runs the heavy tier before it, and removes the
    environment it made."""
    commands = re.findall(r"```bash\n(.*?)\n```", (ROOT / "README.md").read_text(), flags=re.S)
    # a block's first line may say why the documentation tests do not execute it
    commands = [re.sub(r"^# not executed: .*\n", "", c) for c in commands]
    install_and_test = [c for c in commands if c.rstrip().endswith("&& pytest")]
    assert len(install_and_test) == 1, f"the README's test commands: {install_and_test}"
    script = (ROOT / ".ci" / "run").read_text()
    lines = [ln for ln in script.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    assert lines[-1] == install_and_test[0]
    # and the heavy tier, which the default test command deselects (pyproject.toml's addopts)
    assert "pytest -m 'heavy and not slow'" in lines
    assert "set -euo pipefail" in lines[:3]
    assert re.search(r"""^trap 'rm -rf "\$scratch"' EXIT$""", script, flags=re.M)
