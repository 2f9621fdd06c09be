"""Running the registered claims in the tests: each claim once per test session, and a
per-module test that they pass (parametrised by claim id, so a failure names the claim)."""

from __future__ import annotations

import functools
from collections.abc import Callable

import pytest

from prtheory.theory import all_claims
from prtheory.theory.registry import ClaimResult, run_claim

__all__ = ["claims_pass", "ids", "result"]


@functools.cache
def result(cid: str) -> ClaimResult:
    """The result of running claim ``cid`` (cached: the checks are seeded, so it is deterministic)."""
    (claim,) = [c for c in all_claims() if c.id == cid]
    return run_claim(claim)


def ids(prefix: str) -> list[str]:
    """The registered claim ids starting with ``prefix`` (e.g. ``"F"``), in CLAIMS.md order."""
    return [c.id for c in all_claims() if c.id.startswith(prefix)]


def claims_pass(prefix: str) -> Callable[[str], None]:
    """A test that every claim with the id prefix passes its derivation and checks."""

    @pytest.mark.parametrize("cid", ids(prefix))
    def test_claim_passes(cid: str) -> None:
        res = result(cid)
        assert res.passed, res.problems

    return test_claim_passes
