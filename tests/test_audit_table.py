"""Reading audit tables as researchers paste them, and the audit's outputs."""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

from prtheory.audit import audit_rows, read_rows, read_text, to_json, to_markdown
from prtheory.audit.table import canonical_header, clean_value
from prtheory.cli import main
from prtheory.errors import InvalidInputError


def test_tsv_copied_from_a_pdf_audits_without_editing(tmp_path, capsys):
    path = tmp_path / "pasted.txt"
    path.write_text(
        "Model\tAUPRC\tSkew\tMethod\n"
        "ours\t0.306\t1:1\tsklearn-auc\n"  # a trapezoid can be this low (pi/2 = 0.25)
        "theirs\t0.300\t1:1\tDavis-Goadrich\n"  # below 1 - ln 2 = 0.30685
    )
    rows = read_rows(path)
    assert [(r.id, r.method) for r in rows] == [
        ("ours", "trapezoid"),
        ("theirs", "davis-goadrich"),
    ]
    assert [r.flagged for r in audit_rows(rows)] == [False, True]
    assert main(["audit", str(path)]) == 1
    assert "theirs: FLAGGED" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("header", "column"),
    [
        ("AUCPR", "aucpr"),
        ("AUPRC", "aucpr"),
        ("PR-AUC", "aucpr"),
        ("AUC-PR", "aucpr"),
        ("  Skew ", "skew"),
        ("Prevalence", "skew"),
        ("AP", "ap"),
        ("Average Precision", "ap"),
        ("F1-score", "f1"),
        ("#Pos", "pos"),
        ("n_neg", "neg"),
        ("Model", "id"),
        ("AUPRC*", "aucpr"),
        ("Precision†", "precision"),
        ("precison", None),
    ],
)
def test_headers_are_case_and_space_insensitive_with_aliases(header, column):
    assert canonical_header(header) == column


@pytest.mark.parametrize(
    ("cell", "value"),
    [
        ("0.74 ± 0.02", "0.74"),
        ("0.74 +- 0.02", "0.74"),
        ("0.74 +/- 0.02", "0.74"),
        ("0.74 (0.02)", "0.74"),
        ("**0.74**", "0.74"),
        ("0.74*", "0.74"),
        ("0.74†", "0.74"),
        ("0.74^a", "0.74"),
        ("0.74¹", "0.74"),
        ("74.1%", "74.1%"),
        ("−0.5", "-0.5"),
        ("—", None),
        ("n/a", None),
        ("", None),
    ],
)
def test_cells_lose_their_decorations(cell, value):
    assert clean_value(cell) == value


def test_semicolon_file_with_decimal_commas():
    rows = read_text("id;skew;AP\na;1:1;0,42\n")
    assert rows[0].values["ap"].value == F(42, 100)
    assert rows[0].values["ap"].decimals == 2


def test_interval_cells_keep_the_printed_decimals_of_the_estimate():
    (row,) = read_text("id,skew,aucpr,method\nx,1:1,0.74 ± 0.02,dg\n")
    assert row.values["aucpr"].value == F(74, 100)
    assert row.values["aucpr"].decimals == 2


@pytest.mark.parametrize(
    ("text", "needles"),
    [
        ("id,skew\nx,2\n", ["t.csv: row x: skew", "must lie in (0, 1]", "got 2"]),
        ("id,skew\nx,0:5\n", ["row x: skew", "must lie in (0, 1]", "pi = 0"]),
        ("id,skew,aucpr\nx,1.5,0.5\n", ["row x: skew", "got 1.5"]),
        ("id,aucpr,decimals\nx,0.745,2\n", ["row x: aucpr", "shows 3 decimals"]),
        ("id,ap\nx,0.5\nx,0.5\n", ["row x", "duplicate id", "agree in every column"]),
        ("id,skew,ap\nx,1:1\n", ["line 2", "has 2 fields, the header has 3"]),
        ("id,precison\nx,0.5\n", ["header", "precison"]),
        ("id,ap,AP\nx,0.5,0.5\n", ["header", "repeats"]),
        ("id,pos,neg,ap\nx,0,5,0.5\n", ["row x: pos", ">= 1"]),
        ("id,aucpr,method\nx,0.5,spline\n", ["row x: method", "spline"]),
        ("id,ap,averaged\nx,0.5,maybe\n", ["row x: averaged"]),
        ("", ["is empty"]),
        ("id,ap\n", ["has no rows"]),
    ],
)
def test_errors_name_the_file_row_and_column_in_plain_numbers(tmp_path, text, needles):
    path = tmp_path / "t.csv"
    path.write_text(text)
    with pytest.raises(InvalidInputError) as info:
        read_rows(path)
    message = str(info.value)
    for needle in needles:
        assert needle in message
    assert "Fraction(" not in message


def test_fold_averages_skip_the_per_ranking_checks():
    # (0.200, 0.600) at pos = 100, neg = 200 is unachievable for one ranking (B1 needs
    # p >= 0.2306) and no integer TP, FP reproduce it; as a mean over folds neither check applies
    # (see the next test for why B1 fails for means).
    text = "id,pos,neg,precision,recall\nx,100,200,0.200,0.600\n"
    (single,) = audit_rows(read_text(text))
    assert single.flagged
    (averaged,) = audit_rows(read_text(text, averaged=True))
    assert not averaged.flagged
    assert [f.check for f in averaged.findings] == ["averaged"]
    # a column overrides the flag, row by row
    (col,) = audit_rows(
        read_text("id,pos,neg,precision,recall,averaged\nx,100,200,0.200,0.600,yes\n")
    )
    assert not col.flagged


def test_fold_average_of_two_achievable_points_can_break_b1():
    # why averaged rows skip the B1 check: at pi = 1/2 (pos = neg = 2), fold 1 at threshold
    # "nothing but one negative" has (r, p) = (0, 0); fold 2 "everything" has (1, 1/2). Both are
    # achievable; their mean (1/2, 1/4) is below the bound pi r/(1 - pi + pi r) = 1/3.
    bound = F(1, 2) * F(1, 2) / (1 - F(1, 2) + F(1, 2) * F(1, 2))
    assert F(1, 4) < bound
    row = "id,skew,precision,recall\nx,1:1,0.25,0.5\n"
    assert audit_rows(read_text(row))[0].flagged
    assert not audit_rows(read_text(row, averaged=True))[0].flagged


def test_json_and_markdown_outputs_carry_bound_method_and_certificate(tmp_path, capsys):
    text = "id,skew,aucpr,method\nlow,1:1,0.300,davis-goadrich\nok,1:1,0.300,trapezoid\n"
    results = audit_rows(read_text(text))
    doc = json.loads(to_json(results))
    assert doc["flagged"] == 1
    assert doc["total"] == 2
    low = doc["rows"][0]
    assert low["flagged"] is True
    (check,) = low["checks"]
    assert check["verdict"] == "impossible"
    assert check["method"] == "davis-goadrich"
    assert check["bound"].startswith("0.30685")
    assert "AUCPR_min" in check["certificate"]
    md = to_markdown(results)
    assert "| low | **impossible** | aucpr-range |" in md
    assert "| ok | consistent | aucpr-range | B4, B6, B7 | trapezoid | 0.25 |" in md
    path = tmp_path / "t.csv"
    path.write_text(text)
    assert main(["audit", str(path), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["flagged"] == 1
    assert main(["audit", str(path), "--format", "markdown", "--flagged-only"]) == 1
    out = capsys.readouterr().out
    assert "| low |" in out
    assert "| ok |" not in out


def test_exit_code_two_names_the_file(tmp_path, capsys):
    path = tmp_path / "broken.tsv"
    path.write_text("Model\tSkew\nm\t2\n")
    assert main(["audit", str(path)]) == 2
    err = capsys.readouterr().err
    assert "broken.tsv: row m: skew" in err
