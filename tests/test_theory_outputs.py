"""The researcher's outputs: the catalog, the corrections page, references.bib and the LaTeX."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from prtheory._testing.claims import result
from prtheory.theory import all_claims
from prtheory.theory.catalog import CORRECTED, render_catalog, render_corrections
from prtheory.theory.latex import render_latex, tex_text

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def results():
    return [result(c.id) for c in all_claims()]


def test_catalog_and_corrections_are_current(results):
    stale = [
        name
        for name, text in (
            ("proofs/README.md", render_catalog(results)),
            ("reports/corrections.md", render_corrections(results)),
        )
        if not (ROOT / name).exists() or (ROOT / name).read_text() != text
    ]
    assert stale == [], "regenerate with `prtheory proofs`"


def test_catalog_lists_the_ids_of_the_shared_claims_files(results):
    ids = re.findall(r"^### \[([A-Z]+\d+)\]", render_catalog(results), re.M)
    assert ids == [r.claim.id for r in results]
    claims_md = ROOT.parent / "shared" / "CLAIMS.md"
    literature_md = ROOT.parent / "shared" / "LITERATURE.md"
    if not (claims_md.exists() and literature_md.exists()):
        pytest.skip("shared/CLAIMS.md and shared/LITERATURE.md are not beside this checkout")
    seeds = re.findall(r"\*\*([BFNGX]\d+)\*\*", claims_md.read_text())
    literature = re.findall(r"^\| ([DMK]\d+) \|", literature_md.read_text(), re.M)
    own = [i for i in seeds if i.startswith("X")]
    assert ids == [i for i in seeds if not i.startswith("X")] + literature + own


def test_corrections_list_exactly_the_non_holds_verdicts(results):
    text = render_corrections(results)
    listed = re.findall(r"^### \[([A-Z]+\d+)\]", text, re.M)
    assert sorted(listed) == sorted(r.claim.id for r in results if r.claim.verdict in CORRECTED)
    assert all(r.claim.note in text for r in results if r.claim.verdict in CORRECTED)
    assert "holds as corrected" in text  # B10, F3, G1, ... are corrected


def test_references_cover_every_source_document():
    bib = (ROOT / "references.bib").read_text()
    entries = dict(re.findall(r"@\w+\{(\w+),(.*?)\n\}", bib, re.S))
    for doc in ("000", "001", "002", "003", "004"):
        assert any(f"Source document {doc}" in body for body in entries.values()), doc
    # the literature beyond the seeds: each entry names its claims and how far to trust it
    for key, claims, trust in (
        ("davis2006relationship", "Claims D1--D8", "trust: the paper"),
        ("mcsherry2008ties", "Claims M1--M2", "trust: the abstract only"),
        ("mcdermott2024closer", "Claims K1--K3", "trust: the authors' code"),
    ):
        assert claims in entries[key], key
        assert trust in entries[key], key
    for key, body in entries.items():
        assert re.search(r"\btitle\s*=", body), key
        assert body.count("{") == body.count("}"), key


def _balanced(tex: str) -> list[str]:
    """Problems with braces and environments, found by a scan independent of the renderer."""
    problems, depth, stack = [], 0, []
    i = 0
    while i < len(tex):
        ch = tex[i]
        if ch == "\\":
            m = re.match(r"\\(begin|end)\{([^}]*)\}", tex[i:])
            if m:
                if m.group(1) == "begin":
                    stack.append(m.group(2))
                elif not stack or stack.pop() != m.group(2):
                    problems.append(f"\\end{{{m.group(2)}}} at {i} closes nothing open")
                i += m.end()
                continue
            i += 2  # an escaped character or the first letter of a command
            continue
        if ch == "%":  # a comment runs to the end of the line
            i = tex.find("\n", i) if "\n" in tex[i:] else len(tex)
            continue
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth < 0:
            problems.append(f"unbalanced }} at {i}")
            depth = 0
        i += 1
    problems += [f"{depth} unclosed {{"] if depth else []
    problems += [f"\\begin{{{env}}} never closed" for env in stack]
    return problems


def test_latex_document_is_ascii_balanced_and_complete(results):
    tex = render_latex(results)
    assert tex.isascii()
    assert _balanced(tex) == []
    assert tex.count(r"\[") == tex.count(r"\]")
    assert tex.startswith("% generated")
    assert tex.rstrip().endswith(r"\end{document}")
    for r in results:
        assert rf"\section*{{{r.claim.id}: " in tex


def test_the_balance_scan_notices_broken_latex():
    assert _balanced(r"\begin{itemize}\item {a}\end{itemize}") == []
    assert _balanced(r"\begin{itemize}\item a") == ["\\begin{itemize} never closed"]
    assert _balanced("{a") == ["1 unclosed {"]
    assert _balanced(r"\{ a }") == ["unbalanced } at 5"]


@pytest.mark.parametrize(
    ("text", "tex"),
    [
        ("50% of a_b & c", r"50\% of a\_b \& c"),
        (
            "pi = π, β² ≤ 1 − x",
            r"pi = \ensuremath{\pi}, \ensuremath{\beta}\textsuperscript{2} "
            r"\ensuremath{\le} 1 \ensuremath{-} x",
        ),
        (
            "{x} $y$ #1 ~ ^ \\",
            r"\{x\} \$y\$ \#1 \textasciitilde{} \textasciicircum{} \textbackslash{}",
        ),
    ],
)
def test_tex_text_escapes(text, tex):
    assert tex_text(text) == tex


def test_tex_text_refuses_unmapped_characters():
    with pytest.raises(ValueError, match="U\\+2603"):
        tex_text("snow ☃")


def test_proofs_latex_command_writes_the_document(tmp_path, capsys, monkeypatch):
    import prtheory.theory
    from prtheory.cli import main

    # two claims stand for all 45 here (the full document is checked above)
    monkeypatch.setattr(prtheory.theory, "run_claims", lambda: [result("B1"), result("F3")])
    assert main(["proofs", "--format", "latex", "--root", str(tmp_path)]) == 0
    tex = (tmp_path / "proofs" / "proofs.tex").read_text()
    assert r"\documentclass" in tex
    assert "proofs.tex" in capsys.readouterr().out
