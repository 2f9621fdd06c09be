"""``prtheory audit`` as a referee uses it: files in the wrong encoding, values out of range,
the same model on several datasets, rows nothing checks, and skews printed with few digits."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from prtheory.audit import audit_rows, read_rows
from prtheory.audit.table import read_text
from prtheory.cli import main

TABLE = "id,skew,precision,recall\nx,0.5,0.40,0.50\n"


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (TABLE.encode("utf-16"), "UTF-16"),  # with a byte order mark
        (TABLE.encode("utf-16-le"), "UTF-16"),  # without one
        ("id,dataset,precision\nMod\u00e8le,caf\u00e9,0.5\n".encode("latin-1"), "not UTF-8"),
        (bytes(range(256)) * 4, "binary"),
    ],
)
def test_other_encodings_exit_2_with_one_line(tmp_path, capsys, data, needle):
    path = tmp_path / "table.csv"
    path.write_bytes(data)
    assert main(["audit", str(path)]) == 2
    err = capsys.readouterr().err
    assert needle in err
    assert "table.csv" in err
    assert err.count("\n") == 1  # one line, no traceback
    assert "Traceback" not in err


def test_utf8_with_a_byte_order_mark_is_read(tmp_path):
    path = tmp_path / "bom.csv"
    path.write_bytes(TABLE.encode("utf-8-sig"))
    assert [r.id for r in read_rows(path)] == ["x"]


def test_a_value_out_of_range_is_a_flagged_finding_in_its_row(tmp_path, capsys):
    path = tmp_path / "t.csv"
    path.write_text(
        "id,skew,precision,recall\nbad,1:1,1.20,0.50\nalso,1:1,0.60,101%\ngood,1:1,0.60,0.50\n"
    )
    results = {r.row.id: r for r in audit_rows(read_rows(path))}
    assert results["bad"].flagged
    (finding,) = [f for f in results["bad"].findings if f.check == "range"]
    assert "precision 1.20 is outside [0, 1]" in finding.reasoning
    # the checks that need the value do not run; the others still do
    assert "achievable" not in {f.check for f in results["bad"].findings}
    assert results["also"].flagged
    assert not results["good"].flagged  # (0.60, 0.50) at pi = 1/2: bound 1/3 <= 0.6
    assert main(["audit", str(path)]) == 1  # flagged, not malformed
    out = capsys.readouterr().out
    assert "bad: FLAGGED" in out
    assert "good: ok" in out


def test_repeated_model_names_on_different_datasets_are_kept_apart():
    rows = read_text(
        "id,dataset,skew,aucpr,method\n"
        "Ours (best),CIFAR,1:1,0.300,davis-goadrich\n"
        "Ours (best),MNIST,1:1,0.400,davis-goadrich\n"
        "Baseline,CIFAR,1:1,0.350,davis-goadrich\n"
    )
    assert [r.id for r in rows] == ["Ours (best)", "Ours (best)", "Baseline"]  # verbatim
    assert [r.label for r in rows] == [
        "Ours (best) [dataset CIFAR]",
        "Ours (best) [dataset MNIST]",
        "Baseline",
    ]
    flagged = [r.flagged for r in audit_rows(rows)]
    # AUCPR_min(1/2) = 1 - ln 2 = 0.30685...: 0.300 (at most 0.3005) is below it, 0.400 is not
    assert flagged == [True, False, False]


def test_rows_that_agree_everywhere_are_still_refused():
    with pytest.raises(ValueError, match="agree in every column"):
        read_text("id,dataset,ap\nm,d,0.5\nm,d,0.5\n")


def test_a_row_no_check_applies_to_is_not_checked(tmp_path, capsys):
    path = tmp_path / "t.csv"
    path.write_text("id,precision\nlonely,0.5\n")
    (result,) = audit_rows(read_rows(path))
    assert result.status == "not checked"
    assert main(["audit", str(path)]) == 0
    out = capsys.readouterr().out
    assert "lonely: not checked" in out
    assert "lonely: ok" not in out
    assert main(["audit", str(path), "--format", "markdown"]) == 0
    assert "| lonely | not checked |" in capsys.readouterr().out


def test_a_skew_printed_with_few_digits_that_saves_a_row_is_named(capsys, tmp_path):
    # precision 0.49 stands for [0.485, 0.495], recall 1.00 for [0.995, 1]; skew 0.5 for
    # [0.45, 0.55]. B1 needs p >= pi r/(1 - pi + pi r), least at r = 0.995 and the smallest pi:
    # at pi = 0.45 it is 0.44775/0.99775 = 0.4488 <= 0.495 (consistent), at pi = 0.5 exactly it
    # is 0.4975/0.9975 = 0.4987 > 0.495 (impossible). The bound reaches 0.495 at
    # pi* = p/(r + p - p r) = 0.495/(0.995 + 0.495 - 0.495 * 0.995) = 0.495/0.997475.
    row = "id,skew,precision,recall\nx,0.5,0.49,1.00\n"
    (result,) = audit_rows(read_text(row))
    assert not result.flagged
    (note,) = [f for f in result.findings if f.check == "skew-rounding"]
    assert "only the rounding of the skew keeps this row consistent" in note.reasoning
    assert "at exactly 0.5 the achievable check(s) flag it" in note.reasoning
    p, r = F("0.495"), F("0.995")
    threshold = p / (r + p - p * r)
    assert f"every skew above {float(threshold):.6g}" in note.reasoning
    # the same row with the skew given exactly is flagged
    assert audit_rows(read_text("id,skew,precision,recall\nx,1:1,0.49,1.00\n"))[0].flagged
    # and a skew printed with more digits that is far enough below decides nothing new
    (far,) = audit_rows(read_text("id,skew,precision,recall\nx,0.3,0.49,1.00\n"))
    assert not [f for f in far.findings if f.check == "skew-rounding"]
    path = tmp_path / "t.csv"
    path.write_text(row)
    assert main(["audit", str(path)]) == 0
    assert "note skew-rounding" in capsys.readouterr().out
