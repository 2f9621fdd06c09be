"""The claim registry: every claim runs, passes its checks, and its documents are current."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from prtheory._testing.claims import result
from prtheory.cli import main
from prtheory.theory import all_claims
from prtheory.theory.mutants import kill_rate
from prtheory.theory.registry import VERDICTS
from prtheory.theory.render import render_ledger, render_proof

ROOT = Path(__file__).resolve().parent.parent

# Every id of CLAIMS.md (B1-B16, F1-F13, N1-N5, G1-G8, X1-X3) and of LITERATURE.md (D1-D8,
# M1-M2, K1-K3), in the registry's order: the seeds, the literature, the project's own.
SEED_IDS = (
    [f"B{i}" for i in range(1, 17)]
    + [f"F{i}" for i in range(1, 14)]
    + [f"N{i}" for i in range(1, 6)]
    + [f"G{i}" for i in range(1, 9)]
)
LITERATURE_IDS = [f"D{i}" for i in range(1, 9)] + ["M1", "M2"] + [f"K{i}" for i in range(1, 4)]
OWN_IDS = [f"X{i}" for i in range(1, 4)]
EXPECTED_IDS = SEED_IDS + LITERATURE_IDS + OWN_IDS


@pytest.fixture(scope="session")
def results():
    return [result(c.id) for c in all_claims()]


def test_registry_covers_every_claim_id():
    assert [c.id for c in all_claims()] == EXPECTED_IDS


def test_ids_match_shared_claims_file_when_present():
    claims_md = ROOT.parent / "shared" / "CLAIMS.md"
    if not claims_md.exists():
        pytest.skip("shared/CLAIMS.md is not beside this checkout")
    ids = re.findall(r"\*\*([BFNGX]\d+)\*\*", claims_md.read_text())
    assert ids == SEED_IDS + OWN_IDS


def test_ids_match_shared_literature_file_when_present():
    literature_md = ROOT.parent / "shared" / "LITERATURE.md"
    if not literature_md.exists():
        pytest.skip("shared/LITERATURE.md is not beside this checkout")
    ids = re.findall(r"^\| ([DMK]\d+) \|", literature_md.read_text(), re.M)
    assert ids == LITERATURE_IDS


def test_every_claim_passes_its_checks(results):
    failed = {r.claim.id: r.problems for r in results if not r.passed}
    assert failed == {}


def test_every_claim_is_proved_or_its_statement_checked(results):
    """Issue: a statement nothing checks. Every claim has a domain over which the registry
    checked its statement, and either a final inference sympy checked (with the statement that
    conclusion) or a certified statement."""
    for r in results:
        assert r.claim.domain is not None, r.claim.id
        assert r.statement_status in ("certified", "tested"), r.claim.id
        if r.final is None:
            assert r.statement_status == "certified", r.claim.id
        else:
            assert r.final.verified, r.claim.id
            assert r.statement_checked, r.claim.id
            assert not r.statement_mismatch, r.claim.id


def test_no_final_inference_is_prose(results):
    assert [r.claim.id for r in results if r.final is not None and r.final.prose] == []


def test_every_statement_mutant_fails_its_claim(results):
    """Each number + 1, each relation flipped or shifted by 1/7, each symbol replaced in any
    claim's statement: every mutant that says something else (by numeric agreement, not by the
    comparison under test) fails its claim. A co-mutant (the conclusion changed too) fails unless
    the cited steps prove it, and then the statement check finds it true as well."""
    rate = kill_rate(results)
    assert rate.statement_survivors == []
    assert rate.statement_killed == rate.total > 10 * len(results)
    assert rate.co_killed >= 0.97 * rate.total
    assert rate.certified_killed >= rate.certified_total / 2
    assert rate.by_inference > 0.9 * rate.total
    assert rate.by_check > 0.5 * rate.total


def test_verdicts_say_what_backs_them(results):
    for r in results:
        assert r.claim.verdict in VERDICTS
        assert r.kinds, r.claim.id  # something that bears on the statement
        assert ("symbolic" in r.kinds) == r.proved
        assert r.verdict_line.startswith("proved" if r.proved else ("no derivation", "not proved"))


def test_committed_proofs_are_current(results):
    stale = []
    for r in results:
        path = ROOT / "proofs" / f"{r.claim.id}.md"
        if not path.exists() or path.read_text() != render_proof(r):
            stale.append(path.name)
    ledger = ROOT / "reports" / "claims.md"
    if not ledger.exists() or ledger.read_text() != render_ledger(results):
        stale.append("reports/claims.md")
    assert stale == [], "regenerate with `prtheory proofs`"


def test_verify_json_lists_ids_and_exit_code(capsys):
    assert main(["verify", "--json", "B1"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [row["id"] for row in rows] == ["B1"]
    assert set(rows[0]) >= {"id", "verdict", "checks", "note"}


def test_verify_rejects_unknown_id(capsys):
    assert main(["verify", "Z9"]) == 2
    assert "unknown claim id(s) Z9" in capsys.readouterr().err
