"""A false statement never verifies: the attacks of issue 35, each a test that requires the failure.

(a) every claim with its statement and its establish conclusion perturbed together (an author who
misremembers a formula and writes it in both places) fails; (b) a claim of one's own that holds
only on a subrange of its declared domain fails ``prtheory verify --claims``, whatever checks its
author wrote; (c) a claim whose only support is a ``given`` fails; (d) a constant check is not
evidence. Also: a failed step names the equality in plain text once, and a syntax error in a
claims file is one line and exit 2.
"""

from __future__ import annotations

import dataclasses
import re
import textwrap
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import sympy as sp

from prtheory.cli import main
from prtheory.theory import REGISTRY, all_claims
from prtheory.theory.boyd2012.ap_min import least_ap
from prtheory.theory.mutants import FLIP, SHIFT, agree
from prtheory.theory.registry import Proof, run_claim


def _every_relation(e: Any, change: str) -> Any:
    """``e`` with every relation flipped (``change="flip"``), or shifted by 1/7
    (``change="shift"``): an equation's right side + 1/7, an inequality tightened by 1/7 (its
    larger side made smaller), an inequation made an equation."""
    if isinstance(e, sp.core.relational.Relational):
        if change == "flip" or isinstance(e, sp.Unequality):
            return FLIP[type(e)](e.lhs, e.rhs, evaluate=False)
        if isinstance(e, (sp.LessThan, sp.StrictLessThan)):
            moved = sp.Add(e.rhs, -SHIFT, evaluate=False)
        else:
            moved = sp.Add(e.rhs, SHIFT, evaluate=False)
        return type(e)(e.lhs, moved, evaluate=False)
    if isinstance(e, (sp.And, sp.Or, sp.Not, sp.Implies, sp.Equivalent)):
        args = [_every_relation(a, change) for a in e.args]
        return (
            sp.Not(args[0], evaluate=False)
            if isinstance(e, sp.Not)
            else e.func(*args, evaluate=False)
        )
    if isinstance(e, sp.Tuple):
        return sp.Tuple(*(_every_relation(a, change) for a in e.args))
    return e


class _Perturbed(Proof):
    """A recorder whose ``establish`` hands over the perturbed statement as its conclusion."""

    def __init__(self, conclusion: Any) -> None:
        super().__init__()
        self.perturbed = conclusion

    def establish(self, text: str, conclusion: Any, steps: Any) -> Any:
        return super().establish(text, self.perturbed, steps)


#: Perturbations that turn a statement into another true one, which the derivation proves: not
#: an error to catch. B14 states "contour >= bound iff r <= r*"; flipping both inequalities
#: gives "contour <= bound iff r >= r*", also true (they differ by a positive multiple of
#: r* - r, and are equal at r = r*).
STILL_TRUE = {("B14", "flip")}


@pytest.mark.parametrize("change", ["shift", "flip"])
@pytest.mark.parametrize("cid", [c.id for c in all_claims()])
def test_perturbing_the_statement_and_the_conclusion_together_fails_every_claim(cid, change):
    """Issue: 44 of 44 claims still verified with the statement and the establish conclusion
    changed the same way (B4's closed form shifted by 1/7, B1's inequality flipped). Through
    run_claim itself: the unchanged claim passes, the co-perturbed one fails."""
    c = REGISTRY[cid]
    stated = c.statement()
    perturbed = _every_relation(sp.sympify(stated), change)
    assert not agree(perturbed, stated)  # every claim is perturbable
    res = run_claim(
        dataclasses.replace(c, statement=lambda: perturbed), recorder=_Perturbed(perturbed)
    )
    if (cid, change) in STILL_TRUE:
        # a theorem too: proved by the same steps, and no point of the domain refutes it
        assert res.passed
        assert res.proved
        return
    assert not res.passed, f"{cid}: statement and conclusion perturbed ({change}) still pass"


@pytest.mark.parametrize("cid", ["B1", "B4", "B5", "F8", "G2"])
def test_the_perturbing_recorder_alone_changes_nothing(cid):
    """The control for the co-perturbation tests: handing the statement itself to establish
    through the same recorder, the claim passes, so a failure above is the perturbation's."""
    c = REGISTRY[cid]
    assert run_claim(c, recorder=_Perturbed(sp.sympify(c.statement()))).passed


@pytest.mark.parametrize("inner", ["1", "pi**2 - pi + 1"])
@pytest.mark.parametrize("co", [False, True], ids=["statement", "co-mutant"])
def test_b5_limit_replaced_by_one_with_the_same_value_fails(inner, co):
    """Issue: B5's limits were compared by value, so lim_{pi -> 1-} 1 = 1 and
    lim_{pi -> 1-} (pi^2 - pi + 1) = 1 (both true: 1 and 1 - 1 + 1) passed in place of
    lim_{pi -> 1-} AUCPR_min(pi) = 1. With the derivation unchanged, and with the establish
    conclusion changed the same way, B5 must fail: neither is what the derivation proves."""
    c = REGISTRY["B5"]
    stated = c.statement()
    (limit,) = [
        a for a in sp.preorder_traversal(stated) if isinstance(a, sp.Limit) and a.args[2] == 1
    ]
    p = limit.args[1]
    other = sp.Limit(sp.sympify(inner, locals={"pi": p}), p, 1, "-")
    assert other.doit() == limit.doit() == 1  # the same value ...
    mutant = stated.xreplace({limit: other})
    assert not agree(mutant, stated)  # ... but another statement
    recorder = _Perturbed(mutant) if co else None
    res = run_claim(dataclasses.replace(c, statement=lambda: mutant), recorder=recorder)
    assert not res.passed


HEADER = """\
from fractions import Fraction

import sympy as sp

from prtheory.theory import Proof, claim
from prtheory.theory.boyd2012.ap_min import ap_min_meaning, least_ap
from prtheory.theory.checks import exhaustive
from prtheory.theory.domain import Domain, Integer

pos, neg = sp.symbols("pos neg", positive=True, integer=True)
AP_MIN = sp.Symbol("AP_min")
DOMAIN = Domain(
    Integer(pos, 1), Integer(neg, 1, 1), define={AP_MIN: ap_min_meaning(pos, neg)}, exhaustive=9
)
STATEMENT = sp.Ge(AP_MIN, 1 - 2 / pos)


def checks(pf: Proof) -> None:
    # the author's checks, restricted to pos <= 9, where the statement holds
    pf.check(
        "enumeration",
        "AP_min(pos, 1) >= 1 - 2/pos for pos <= 9",
        exhaustive(
            range(1, 10), lambda k: least_ap(k, 1) >= 1 - Fraction(2, k), "1 <= pos <= 9"
        ),
    )
    pf.check("exact", "pos = 9", (least_ap(9, 1) >= Fraction(7, 9), "holds"))
"""


def _write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "my_claims.py"
    path.write_text(HEADER + textwrap.dedent(body))
    return path


def test_hand_check_the_subrange_claim_is_false_from_pos_10():
    # AP_min(pos, 1) = (1/pos) sum_i i/(i + 1) = 1 - H(pos + 1)/pos + 1/pos, by B6; at pos = 9:
    # H(10) = 7381/2520, so 1 - (7381/2520 - 1)/9 = 0.785 >= 7/9 = 0.778; at pos = 10:
    # H(11) = 83711/27720, 1 - (83711/27720 - 1)/10 = 0.798 < 4/5.
    h10, h11 = Fraction(7381, 2520), Fraction(83711, 27720)
    assert least_ap(9, 1) == 1 - (h10 - 1) / 9 >= Fraction(7, 9)
    assert least_ap(10, 1) == 1 - (h11 - 1) / 10 < Fraction(4, 5)


@pytest.mark.parametrize(
    "chain",
    [
        # as the issue found it: a given, an unrelated verified identity, a prose establish
        """
        pf.given("AP_min is at least 1 - 2/pos", STATEMENT)
        pf.equal("an unrelated identity", (pos + 1) ** 2, pos**2 + 2 * pos + 1)
        pf.establish("so, in words", STATEMENT, [1, 2])
        """,
        # the same, with the prose moved into a lemma so that the final step is checked
        """
        pf.given("AP_min is at least 1 - 2/pos", STATEMENT)
        pf.equal("an unrelated identity", (pos + 1) ** 2, pos**2 + 2 * pos + 1)
        pf.conclude("so, in words", STATEMENT, [1, 2])
        pf.establish("restated", STATEMENT, [3])
        """,
    ],
)
def test_a_claim_true_only_on_a_subrange_fails_verify(tmp_path, capsys, clean_registry, chain):
    steps = textwrap.indent(textwrap.dedent(chain).strip(), "    ")
    path = _write(
        tmp_path,
        "\n".join(
            [
                "@claim(",
                '    "Y7",',
                '    source="my notes",',
                '    location="eq. 7",',
                '    title="AP_min(pos, 1) >= 1 - 2/pos",',
                "    statement=lambda: STATEMENT,",
                '    assumptions=("pos >= 1, neg = 1",),',
                "    domain=DOMAIN,",
                ")",
                "def y7(pf: Proof) -> None:",
                steps,
                "    checks(pf)",
                "",
            ]
        ),
    )
    assert main(["verify", "--claims", str(path)]) == 1
    out = capsys.readouterr().out
    assert "Y7    FAILED" in out
    found = re.search(r"REFUTED: false at pos = (\d+), neg = 1", " ".join(out.split()))
    assert found is not None
    k = int(found.group(1))  # a sampled point past the author's pos <= 9 ...
    assert k >= 10
    assert least_ap(k, 1) < 1 - Fraction(2, k)  # ... where the statement is indeed false


@pytest.mark.parametrize(
    ("narrowed", "named"),
    [("large=9", "large=9 is below 1,000,000"), ("samples=0", "samples=0 is below 16")],
)
def test_a_domain_cannot_narrow_where_the_statement_is_checked(
    tmp_path, capsys, clean_registry, narrowed, named
):
    """The subrange claim again, its author now narrowing the statement check itself: sampled
    points only up to pos = 9 (``large=9``), or none at all beyond the exhaustive range
    (``samples=0``). Either would let it pass; the domain refuses both, in one line, exit 2."""
    path = tmp_path / "narrowed.py"
    path.write_text(
        HEADER.replace("exhaustive=9\n)", f"exhaustive=9, {narrowed}\n)")
        + textwrap.dedent(
            """
            @claim(
                "Y11",
                source="my notes",
                location="eq. 11",
                title="AP_min(pos, 1) >= 1 - 2/pos",
                statement=lambda: STATEMENT,
                assumptions=("pos >= 1, neg = 1",),
                domain=DOMAIN,
            )
            def y11(pf: Proof) -> None:
                pf.equal("an unrelated identity", (pos + 1) ** 2, pos**2 + 2 * pos + 1)
                pf.conclude("so, in words", STATEMENT, [1])
                pf.establish("restated", STATEMENT, [2])
                checks(pf)
            """
        )
    )
    assert narrowed in path.read_text()
    assert main(["verify", "--claims", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert named in err


def test_a_definition_that_declines_beyond_the_subrange_does_not_confine_the_check(
    tmp_path, capsys, clean_registry
):
    """The subrange claim once more, AP_min now defined by a Meaning that answers only for
    pos <= 9 (declining every larger point as 'beyond its reach'): no sampled point beyond the
    exhaustive range is evaluated, and the check is not a test over the declared domain."""
    path = _write(
        tmp_path,
        """
        from prtheory.theory.domain import Meaning

        NARROW = Domain(
            Integer(pos, 1),
            Integer(neg, 1, 1),
            define={
                AP_MIN: Meaning(
                    lambda pt: least_ap(int(pt[pos]), 1) if pt[pos] <= 9 else None,
                    "the least AP, for pos <= 9 only",
                )
            },
            exhaustive=9,
        )

        @claim(
            "Y12",
            source="my notes",
            location="eq. 12",
            title="AP_min(pos, 1) >= 1 - 2/pos",
            statement=lambda: STATEMENT,
            assumptions=("pos >= 1, neg = 1",),
            domain=NARROW,
        )
        def y12(pf: Proof) -> None:
            pf.equal("an unrelated identity", (pos + 1) ** 2, pos**2 + 2 * pos + 1)
            pf.conclude("so, in words", STATEMENT, [1])
            pf.establish("restated", STATEMENT, [2])
            checks(pf)
        """,
    )
    assert main(["verify", "--claims", str(path)]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "Y12 FAILED" in out
    assert "sampled points beyond the exhaustive range could be evaluated" in out


def test_a_claim_whose_only_support_is_a_given_fails(tmp_path, capsys, clean_registry):
    """A true statement (AP_min <= 1) the registry can only test: its given is no support."""
    path = _write(
        tmp_path,
        """
        @claim(
            "Y8",
            source="my notes",
            location="eq. 8",
            title="AP_min(pos, 1) <= 1",
            statement=lambda: sp.Le(AP_MIN, 1),
            assumptions=("pos >= 1, neg = 1",),
            domain=DOMAIN,
        )
        def y8(pf: Proof) -> None:
            pf.given("AP_min is at most 1", sp.Le(AP_MIN, 1))
            pf.establish("so", sp.Le(AP_MIN, 1), [1])
        """,
    )
    assert main(["verify", "--claims", str(path)]) == 1
    out = capsys.readouterr().out
    assert "Y8    FAILED" in out
    assert "the final inference (step 2) is prose" in " ".join(out.split())
    assert "REFUTED" not in out  # the statement is true: the given is what fails it


def test_a_given_cited_for_a_false_statement_fails_both_ways(tmp_path, capsys, clean_registry):
    """The issue's 'AP_min equals pi' that cites a given as its establish step."""
    path = _write(
        tmp_path,
        """
        PI = sp.Symbol("pi")
        DOMAIN2 = Domain(
            Integer(pos, 1),
            Integer(neg, 0),
            define={AP_MIN: ap_min_meaning(pos, neg), PI: pos / (pos + neg)},
            exhaustive=8,
        )

        @claim(
            "Y9",
            source="my notes",
            location="eq. 9",
            title="AP_min equals pi",
            statement=lambda: sp.Eq(AP_MIN, PI),
            assumptions=("pos >= 1, neg >= 0",),
            domain=DOMAIN2,
        )
        def y9(pf: Proof) -> None:
            pf.given("AP_min is the skew", sp.Eq(AP_MIN, PI))
            pf.establish("so", sp.Eq(AP_MIN, PI), [1])
        """,
    )
    assert main(["verify", "--claims", str(path)]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "is prose" in out
    # AP_min(1, neg) = 1/(1 + neg) = pi, and AP_min(2, 0) = 1 = pi; at pos = 2, neg = 1 the worst
    # ranking (0, 1, 1) has AP (1/2 + 2/3)/2 = 7/12, not pi = 2/3: the first point refuted
    assert "REFUTED: false at pos = 2, neg = 1" in out


def test_a_failed_value_names_the_equality_once_in_plain_text(tmp_path, capsys, clean_registry):
    path = _write(
        tmp_path,
        """
        k = sp.Symbol("k", positive=True, integer=True)

        @claim(
            "Y10",
            source="my notes",
            location="eq. 10",
            title="a wrong series",
            statement=lambda: sp.Le(AP_MIN, 1),
            assumptions=("pos >= 1, neg = 1",),
            domain=DOMAIN,
        )
        def y10(pf: Proof) -> None:
            pf.value("the series", sp.Sum(1 / k**2, (k, 1, sp.oo)), 2, "summation")
        """,
    )
    assert main(["verify", "--claims", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.count("which is not 2") == 1
    assert "Sum(k**(-2), (k, 1, oo)) = pi**2/6, which is not 2" in out
    assert "\\frac" not in out


def test_a_syntax_error_in_a_claims_file_is_one_line_and_exit_2(tmp_path, capsys, clean_registry):
    path = tmp_path / "broken.py"
    path.write_text("import sympy as sp\n\ndef oops(:\n    pass\n")
    assert main(["verify", "--claims", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "broken.py, line 3: SyntaxError" in err
    assert "Traceback" not in err
