"""``prtheory audit``: which rows it flags, and its exit status.

Every deliberately inconsistent row below comes with the hand calculation that makes it
inconsistent; every consistent row with the witness that makes it consistent.
"""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prtheory.audit import audit_rows, read_rows
from prtheory.audit.checks import count_witness
from prtheory.audit.intervals import Interval
from prtheory.cli import main
from prtheory.errors import InvalidInputError
from prtheory.papers import data_path

HEADER = "id,skew,pos,neg,precision,recall,f1,fbeta,beta,aucpr,aucnpr,ap,method\n"

# (row, flagged?, why)
ROWS = [
    # pi = 1/3; corner r = 0.5995: bound = 0.5995/(2 + 0.5995) = 0.23062 > 0.2005 (B3's 0.6 row)
    ("unachievable,,100,200,0.200,0.600,,,,,,,", True),
    # r = 0.4995: bound = 0.4995/2.4995 = 0.19984 <= 0.2005, and TP=50, FP=200 reproduces it
    ("edge-achievable,,100,200,0.200,0.500,,,,,,,", False),
    # F1 over [0.795,0.805] x [0.595,0.605] is [2(.795)(.595)/1.39, 2(.805)(.605)/1.41]
    # = [0.68062, 0.69081], disjoint from [0.695, 0.705]
    ("f1-off,0.5,,,0.80,0.60,0.70,,,,,,", True),
    # F1(0.8, 0.6) = 0.96/1.4 = 0.685714 -> 0.69
    ("f1-ok,0.5,,,0.80,0.60,0.69,,,,,,", False),
    # F2(0.5, 1) = 5(0.5)/(4(0.5) + 1) = 0.8333 -> 0.83; 0.90 is far outside
    ("f2-off,0.5,,,0.50,1.00,,0.90,2,,,,", True),
    ("f2-ok,0.5,,,0.50,1.00,,0.83,2,,,,", False),
    # recall of 7 positives: 3/7 = 0.4286, 4/7 = 0.5714; nothing prints as 0.50
    ("grim-recall,,7,10,,0.50,,,,,,,", True),
    # precision <= 1 with TP <= 10, FP <= 3: 10/11 = 0.909 and 1 are the closest; 0.95 impossible
    ("grim-precision,,10,3,0.95,,,,,,,,", True),
    # TP = 9, FP = 1 gives 0.90
    ("grim-precision-ok,,10,3,0.90,,,,,,,,", False),
    # Davis-Goadrich: AUCPR_min(1/2) = 1 - ln 2 = 0.30685 > 0.3005
    ("aucpr-low,1:1,,,,,,,,0.300,,,davis-goadrich", True),
    ("aucpr-ok,1:1,,,,,,,,0.307,,,davis-goadrich", False),
    # a trapezoid can go down to pi/2 = 0.25 (one negative on top, the rest tied): 0.300 is fine
    ("aucpr-trapezoid,1:1,,,,,,,,0.300,,,sklearn-auc", False),
    # no method given: impossible only below every method's minimum, pi/2 = 0.25 > 0.2405
    ("aucpr-unknown-low,1:1,,,,,,,,0.240,,,", True),
    # AP_min(2, 2) = (1/2)(1/3 + 2/4) = 5/12 = 0.41667 > 0.405
    ("ap-low,,2,2,,,,,,,,0.40,", True),
    ("ap-ok,,2,2,,,,,,,,0.42,", False),
    # AUCNPR from AUCPR in [0.3625, 0.3635] at pi = 1/25 is about [0.3493, 0.3503]; 0.360 is not
    ("aucnpr-off,1:24,,,,,,,,0.363,0.360,,", True),
    # a printed skew 0.30 stands for [0.295, 0.305], which misses 1/3
    ("skew-vs-counts,0.30,1,2,,,,,,,,,", True),
    # AUCNPR <= AUCPR at every skew: 0.60 > 0.50 fits none
    ("aucnpr-above-aucpr,,,,,,,,,0.50,0.60,,", True),
    # Table 2's gender pair fits pi about 0.45
    ("gender,,,,,,,,,0.509,0.325,,", False),
]


def _write(tmp_path, rows):
    path = tmp_path / "reported.csv"
    path.write_text(HEADER + "\n".join(r for r, _ in rows) + "\n")
    return path


def test_flags_exactly_the_inconsistent_rows(tmp_path):
    results = audit_rows(read_rows(_write(tmp_path, ROWS)))
    got = {r.row.id for r in results if r.flagged}
    want = {row.split(",")[0] for row, bad in ROWS if bad}
    assert got == want


def test_shipped_table3_flags_nothing():
    results = audit_rows(read_rows(data_path("boyd2012_table3.csv")))
    assert len(results) == 14
    assert not any(r.flagged for r in results)
    # each row ran the AUCNPR check (the point of the file)
    assert all(any(f.check == "aucnpr" for f in r.findings) for r in results)


def test_shipped_table2_flags_nothing():
    results = audit_rows(read_rows(data_path("boyd2012_table2.csv")))
    assert [r.row.id for r in results] == [
        "actor",
        "director",
        "gender",
        "genre",
        "movie",
        "workedUnder",
    ]
    assert not any(r.flagged for r in results)


def test_json_input_with_decimals(tmp_path):
    path = tmp_path / "reported.json"
    # JSON numbers lose trailing zeros; decimals=3 restores the printed precision
    path.write_text(
        json.dumps(
            {
                "rows": [
                    {"id": "a", "skew": "1:24", "aucpr": 0.363, "aucnpr": 0.36, "decimals": 3},
                    {"id": "b", "skew": "1:24", "aucpr": "0.363", "aucnpr": "0.349"},
                ]
            }
        )
    )
    flagged = {r.row.id: r.flagged for r in audit_rows(read_rows(path))}
    assert flagged == {"a": True, "b": False}


def test_exit_status(tmp_path, capsys):
    assert main(["audit", str(data_path("boyd2012_table3.csv"))]) == 0
    assert main(["audit", str(_write(tmp_path, ROWS))]) == 1
    out = capsys.readouterr().out
    assert "FLAG achievable [B1]" in out
    assert "0.2306213" in out
    bad = tmp_path / "bad.csv"
    bad.write_text("id,precison\nx,0.5\n")
    assert main(["audit", str(bad)]) == 2
    assert "precison" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("id,pos\nx,3\n", "give both class counts"),
        ("id,pos,neg\nx,2.5,3\n", "pos"),
        ("id,fbeta\nx,0.5\n", "beta"),
        ("id,skew\nx,1.5:2\n", "skew"),
        ("id,aucpr,a,b\nx,0.5,0.8,0.2\n", "a, b"),
    ],
)
def test_malformed_rows(tmp_path, text, needle):
    path = tmp_path / "x.csv"
    path.write_text(text)
    with pytest.raises(InvalidInputError, match=needle):
        read_rows(path)


def test_edge_skews(tmp_path):
    path = tmp_path / "edge.csv"
    path.write_text(
        "id,skew,precision,recall,aucpr,aucnpr\n"
        # pi = 1 (no negatives): precision must be 1 at every recall > 0
        "all-positive,1:0,0.90,0.50,,\n"
        "all-positive-ok,1:0,1.00,0.50,,\n"
        # recall 0: no constraint on precision
        "recall-zero,1:0,0.10,0.00,,\n"
    )
    flagged = {r.row.id: r.flagged for r in audit_rows(read_rows(path))}
    assert flagged == {
        "all-positive": True,
        "all-positive-ok": False,
        "recall-zero": False,
    }


def test_rounding_rule_changes_a_midpoint_verdict(tmp_path):
    # TP = 1 of pos = 8 is recall 0.125 exactly: prints as 0.12 under half-even / half-down,
    # 0.13 under half-up. With pos = 8 no other TP/8 is within 0.005 of 0.13.
    path = tmp_path / "mid.csv"
    path.write_text("id,pos,neg,recall\nx,8,8,0.13\n")
    rows = read_rows(path)
    assert not audit_rows(rows, "half-up")[0].flagged
    assert audit_rows(rows, "half-even")[0].flagged
    assert audit_rows(rows, "half-down")[0].flagged
    assert not audit_rows(rows, "any")[0].flagged


# --- the count check against brute force ------------------------------------------------


def _near(value: F, printed: F) -> bool:
    """value prints as printed (2 decimals) under some round-to-nearest rule."""
    return abs(value - printed) <= F(1, 200)


@given(
    pos=st.integers(1, 9),
    neg=st.integers(0, 9),
    rec=st.one_of(st.none(), st.integers(0, 100)),
    prec=st.one_of(st.none(), st.integers(0, 100)),
    f1=st.one_of(st.none(), st.integers(0, 100)),
)
def test_count_witness_matches_brute_force(pos, neg, rec, prec, f1):
    boxes = {}
    for name, v in (("recall", rec), ("precision", prec), ("f1", f1)):
        if v is not None:
            boxes[name] = Interval(F(v, 100) - F(1, 200), F(v, 100) + F(1, 200))
    found = count_witness(pos, neg, boxes)
    brute = []
    for tp in range(pos + 1):
        for fp in range(neg + 1):
            ok = True
            if rec is not None:
                ok &= _near(F(tp, pos), F(rec, 100))
            if prec is not None:
                ok &= tp + fp > 0 and _near(F(tp, tp + fp), F(prec, 100))
            if f1 is not None:
                den = 2 * tp + fp + (pos - tp)
                ok &= den > 0 and _near(F(2 * tp, den), F(f1, 100))
            if ok:
                brute.append((tp, fp))
    assert (found is not None) == bool(brute)
    if found is not None:
        assert found in brute
