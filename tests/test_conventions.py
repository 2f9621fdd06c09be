"""The declaration of the oracle's named conventions (prtheory.oracle.conventions.CONVENTIONS),
from which the documentation's table is generated, is the set of names the code accepts."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from prtheory.errors import InvalidInputError
from prtheory.oracle import areas, closed_forms, curves, points, ties
from prtheory.oracle.conventions import CONVENTIONS, conventions_markdown

ROOT = Path(__file__).resolve().parents[1]


def _declared(keyword: str) -> set[str]:
    return {c.name for c in CONVENTIONS if c.keyword == keyword}


def test_tie_policies_first_points_and_methods_are_declared():
    assert _declared("ties") == set(ties.TIE_POLICIES)
    accepted = set(curves.FIRST_POINTS).union(*areas._FIRST_POINTS_BY_METHOD.values())
    assert _declared("first_point") == accepted
    assert _declared("method") == set(areas.METHODS)


def test_undefined_value_conventions_are_declared():
    # every name a call to undefined() can accept, read from the oracle's sources: the keys of
    # the mappings it is given
    names = set()
    for path in (ROOT / "prtheory" / "oracle").glob("*.py"):
        names |= set(re.findall(r'\{(?:\*\*\w+, )?"(\w+)": ', path.read_text()))
    assert names == _declared("convention")
    # and each is accepted where it applies (values by hand: 0/0 precision, pi = 0 limit)
    assert points.precision(0, 0, convention="sklearn") == 0
    assert points.precision(0, 0, convention="mllib") == 1
    assert closed_forms.aucpr_min(Fraction(0), convention="paper") == 0
    with pytest.raises(InvalidInputError, match="convention"):
        points.precision(0, 0, convention="paper")


def test_the_generated_table_lists_every_convention():
    page = conventions_markdown()
    rows = [line for line in page.splitlines() if line.startswith("| `")]
    assert len(rows) == len(CONVENTIONS)
    for c in CONVENTIONS:
        assert f"| `{c.keyword}=` | `{c.name!r}` |" in page
