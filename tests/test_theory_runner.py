"""``prtheory verify``: a user's claims (``--claims``), parallel runs (``--jobs``), streamed lines."""

from __future__ import annotations

from pathlib import Path

import pytest
import sympy as sp

from prtheory.cli import main
from prtheory.theory import REGISTRY, claim, load_claims, run_claims
from prtheory.theory.mutants import kill_rate

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_tutorial_claim_passes_and_its_wrong_variant_fails(clean_registry, capsys):
    assert main(["verify", "--claims", str(EXAMPLES / "my_claim.py")]) == 0
    out = capsys.readouterr().out
    assert "Y1" in out
    assert "1 claims, 1 passed, 0 failed" in out
    assert main(["verify", "--claims", str(EXAMPLES / "my_claim_wrong.py")]) == 1
    out = capsys.readouterr().out
    assert "Y2    FAILED" in out
    assert "the statement is not what the derivation established" in out
    # F1 = 2/3 at TP = FN = 1, FP = 0, where the arithmetic mean of P = 1 and R = 1/2 is 3/4
    assert "REFUTED: false at TP = 1, FP = 0, FN = 1" in out


def test_a_claim_true_on_a_subrange_fails_where_it_first_fails(clean_registry, capsys):
    """examples/my_claim_subrange.py imports the project's B claims (ap_min): they are not run,
    and Y3 fails at pos = 10, the first false point (AP_min(10, 1) = 0.798 < 4/5)."""
    assert main(["verify", "--claims", str(EXAMPLES / "my_claim_subrange.py")]) == 1
    # the table wraps its cells at the terminal's width (none under pytest-xdist): read it unwrapped
    out = " ".join(capsys.readouterr().out.split())
    assert "1 claims, 0 passed, 1 failed" in out
    assert "REFUTED: false at pos = 10, neg = 1" in out
    assert "not proved (the final step rests on prose steps)" in out


def test_the_own_claims_guide_runs(clean_registry):
    """Every Python block of docs/guide/own-claims.md runs; its stated outputs are what runs."""
    import contextlib
    import io
    import re

    guide = (EXAMPLES.parent / "docs" / "guide" / "own-claims.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", guide, flags=re.S)
    assert len(blocks) >= 4
    printed = []
    for k, block in enumerate(blocks):
        before = dict(REGISTRY)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, f"own-claims.md block {k + 1}", "exec"), {})
        printed.append(out.getvalue())
        REGISTRY.clear()
        REGISTRY.update(before)
    text = "".join(printed)
    assert "certified -- certified by interval branch and bound" in text
    assert "REFUTED: false at n = 256" in text  # n^3 < 10^7 fails from n = 216; 256 = 2^8
    assert "every ranking of size <= 7" in text


def test_user_claims_run_alone_unless_ids_are_named(clean_registry):
    ids = load_claims(EXAMPLES / "my_claim.py")
    assert ids == ["Y1"]
    assert [r.claim.id for r in run_claims(sources=[EXAMPLES / "my_claim.py"])] == ["Y1"]
    got = run_claims(["B1", "Y1"], sources=[EXAMPLES / "my_claim.py"])
    assert [r.claim.id for r in got] == ["B1", "Y1"]  # the catalogue's order: B first
    assert all(r.passed for r in got)


def test_bad_claim_sources_are_named(clean_registry, tmp_path, capsys):
    with pytest.raises(ValueError, match="no such file"):
        load_claims(tmp_path / "missing.py")
    empty = tmp_path / "empty.py"
    empty.write_text("x = 1\n")
    with pytest.raises(ValueError, match="registered no claim"):
        load_claims(empty)
    with pytest.raises(ValueError, match=r"neither a \.py file nor an importable module"):
        load_claims("no_such_module_of_claims")
    assert main(["verify", "--claims", str(tmp_path / "missing.py")]) == 2
    assert "no such file" in capsys.readouterr().err


@pytest.mark.parametrize("bad", ["Y", "1Y", "Y1a", "Y-1", ""])
def test_claim_ids_are_letters_then_digits(bad):
    with pytest.raises(ValueError, match="letters followed by digits"):
        claim(bad, source="s", location="l", title="t", statement=lambda: sp.true, assumptions=())


def test_parallel_run_gives_the_serial_results_and_streams_each_claim():
    ids = ["B1", "B4", "F2", "N3", "G2"]
    seen = []
    serial = run_claims(ids)
    parallel = run_claims(ids, jobs=2, on_result=lambda r: seen.append(r.claim.id))
    assert sorted(seen) == sorted(ids)  # one callback per claim, in finishing order
    assert [r.claim.id for r in parallel] == [r.claim.id for r in serial]
    for a, b in zip(serial, parallel, strict=True):
        assert (a.passed, a.kinds, a.statement_checked) == (b.passed, b.kinds, b.statement_checked)
        assert (a.proved, a.verdict_line) == (b.proved, b.verdict_line)
        assert a.statement_check.summary() == b.statement_check.summary()
        assert [s.latex for s in a.steps] == [s.latex for s in b.steps]
        assert [c.detail for c in a.checks] == [c.detail for c in b.checks]
    # the statement was compared in the worker; its conclusion is not shipped back, because
    # pickling evaluates relations (G2's) and a kill rate computed on the copy would be wrong
    assert all(r.established is None for r in parallel)
    assert any(r.statement_checked for r in parallel)
    with pytest.raises(ValueError, match="kill rate"):
        kill_rate(parallel)
    with pytest.raises(ValueError, match="jobs"):
        run_claims(ids, jobs=0)


def test_lines_wrap_instead_of_truncating(capsys):
    assert main(["verify", "B14"]) == 0
    out = capsys.readouterr().out
    title, source = REGISTRY["B14"].title, REGISTRY["B14"].location
    flat = " ".join(out.split())
    assert title in flat
    assert source in flat
