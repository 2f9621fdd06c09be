"""A failing ``assert_conforms`` shows the user's test and the message, not the kit's source
(``__tracebackhide__``): pytest runs, in a subprocess, a tiny test that fails, and the lines
between the test's header and the ``AssertionError`` are counted. The mutant, the same helper
without ``__tracebackhide__``, must show its own source there."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

TESTS = textwrap.dedent(
    """
    import inspect

    from prtheory.conformance import api, assert_conforms, vectors

    V = next(v for v in vectors("average_precision") if v.comment.startswith("tie of a positive"))

    # the mutant: assert_conforms with its __tracebackhide__ line removed
    source = "".join(
        ln for ln in inspect.getsourcelines(api.assert_conforms)[0] if "__tracebackhide__" not in ln
    )
    namespace = dict(vars(api))
    exec(compile(source, api.__file__, "exec"), namespace)
    unhidden = namespace["assert_conforms"]


    def constant_ap(y_true, y_score, sample_weight=None):
        return 0.25


    def test_kit():
        assert_conforms(constant_ap, V)


    def test_mutant():
        unhidden(constant_ap, V)
    """
)


def _lines_before_the_message(report: str, test: str) -> int:
    """The lines of ``test``'s failure section between its header and its first ``E`` line."""
    section = report.split(f"_ {test} _", 1)[1].splitlines()[1:]
    first_e = next(i for i, ln in enumerate(section) if ln.startswith("E   "))
    return len([ln for ln in section[:first_e] if ln.strip()])


def test_a_failing_assert_conforms_shows_the_callers_line_and_the_message(tmp_path):
    (tmp_path / "test_tiny.py").write_text(TESTS)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_tiny.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "2 failed" in run.stdout, run.stdout
    # the test's own two lines: "def test_kit():" and "> assert_conforms(constant_ap, V)"
    assert _lines_before_the_message(run.stdout, "test_kit") == 2, run.stdout
    assert re.search(r"^E\s+AssertionError: average_precision#\d+ ", run.stdout, flags=re.M)
    # the mutant shows the kit's own source before its message
    assert _lines_before_the_message(run.stdout, "test_mutant") > 10, run.stdout
