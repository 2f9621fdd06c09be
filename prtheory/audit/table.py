"""Reading an audit table as researchers paste it: CSV, TSV, semicolons, headers in any case.

The delimiter is detected from the header line: a tab if it has one (text copied from a PDF or a
spreadsheet), else a semicolon if it has more semicolons than commas (then ``0,74`` is a decimal
comma and reads as ``0.74``), else a comma. Headers are compared after lower-casing and dropping
spaces, ``_``, ``-``, ``.``, ``#``, ``()`` and footnote marks, and may use the aliases of
:data:`HEADER_ALIASES` (``AUPRC``, ``PR-AUC``, ``Model``, ``Prevalence``, ...).

Values are cleaned before they are read as printed decimals (:mod:`prtheory.audit.printed`):
``0.74 ± 0.02``, ``0.74 +- 0.02`` and ``0.74 (0.02)`` keep the point estimate; Markdown bold
``**0.74**``, trailing footnote marks (``*``, ``†``, ``‡``, ``§``, ``¶``, ``^a``, superscripts) and
a Unicode minus are removed; ``-``, ``—``, ``n/a`` and an empty cell mean "not given". Ids and
text columns (dataset, note, ...) are kept as printed: ``Ours (best)`` stays ``Ours (best)``.

A value outside [0, 1] (``1.2``, ``101%``) does not stop the audit: the row keeps it as a flagged
finding (:attr:`Row.out_of_range`) and the checks that would need it do not run. Rows may share an
id when another column tells them apart (the same model on two datasets); each is then labelled
with the columns that differ (:attr:`Row.label`). Files must be UTF-8 (with or without a byte
order mark); UTF-16, Latin-1 and binary files are refused with a message saying which.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from prtheory._input import check_count
from prtheory.audit.intervals import Interval, compare, value_str
from prtheory.audit.methods import canonical_method
from prtheory.audit.printed import Printed, parse_printed, parse_skew
from prtheory.errors import InvalidInputError

__all__ = [
    "FIELDS",
    "HEADER_ALIASES",
    "VALUE_FIELDS",
    "Row",
    "canonical_header",
    "clean_value",
    "decode",
    "parse_row",
    "read_rows",
    "read_text",
]

VALUE_FIELDS = ("precision", "recall", "f1", "fbeta", "aucpr", "aucnpr", "ap")
TEXT_FIELDS = ("source", "note", "dataset", "comment", "reference")
FIELDS = (
    "id",
    "skew",
    "pos",
    "neg",
    *VALUE_FIELDS,
    "beta",
    "a",
    "b",
    "method",
    "averaged",
    "decimals",
    *TEXT_FIELDS,
)

ZERO, ONE = Fraction(0), Fraction(1)

HEADER_ALIASES = {
    **{f: f for f in FIELDS},
    "model": "id",
    "name": "id",
    "system": "id",
    "run": "id",
    "classifier": "id",
    "row": "id",
    "pi": "skew",
    "prevalence": "skew",
    "baserate": "skew",
    "positiverate": "skew",
    "positivefraction": "skew",
    "classratio": "skew",
    "positives": "pos",
    "npos": "pos",
    "numpos": "pos",
    "negatives": "neg",
    "nneg": "neg",
    "numneg": "neg",
    "prec": "precision",
    "ppv": "precision",
    "rec": "recall",
    "tpr": "recall",
    "sensitivity": "recall",
    "f1score": "f1",
    "fmeasure": "f1",
    "f1measure": "f1",
    "fscore": "f1",
    "fβ": "fbeta",
    "fbetascore": "fbeta",
    "auprc": "aucpr",
    "prauc": "aucpr",
    "aupr": "aucpr",
    "aucprc": "aucpr",
    "auprcurve": "aucpr",
    "areaunderprcurve": "aucpr",
    "areaundertheprcurve": "aucpr",
    "naucpr": "aucnpr",
    "normalizedaucpr": "aucnpr",
    "normalisedaucpr": "aucnpr",
    "averageprecision": "ap",
    "areamethod": "method",
    "aucmethod": "method",
    "interpolation": "method",
    "averagedoverfolds": "averaged",
    "foldaverage": "averaged",
    "notes": "note",
    "comments": "comment",
    "ref": "reference",
    "paper": "source",
}

_FOOTNOTES = "*†‡§¶‖#'’ᵃᵇᶜᵈ⁰¹²³⁴⁵⁶⁷⁸⁹"
_MISSING = {"", "-", "–", "—", "n/a", "na", "nan", "none", "?"}
_TRUE = {"1", "true", "yes", "y"}
_FALSE = {"0", "false", "no", "n", ""}


def canonical_header(raw: str) -> str | None:
    """The canonical column for a header cell, or ``None`` if it is not one we know.

    Parameters
    ----------
    raw : str
        A header cell as printed.

    Returns
    -------
    str or None
        The canonical column name, or None.

    See Also
    --------
    parse_row

    Examples
    --------
    >>> from prtheory.audit.table import canonical_header
    >>> canonical_header("AUC-PR"), canonical_header("Precision"), canonical_header("pi"), canonical_header("foo")
    ('aucpr', 'precision', 'skew', None)
    """
    key = re.sub(r"[\s_\-.#()\[\]/:]", "", raw.strip().lower()).strip(_FOOTNOTES)
    return HEADER_ALIASES.get(key)


def clean_value(raw: object, decimal_comma: bool = False) -> object:
    """A cell with its decorations removed (module docstring); ``None`` if it means missing.

    Parameters
    ----------
    raw : object
        A cell.
    decimal_comma : bool
        Whether the table writes ``0,68`` for 0.68 (default False).

    Returns
    -------
    object
        The cell without decorations, or None for a missing value.

    See Also
    --------
    prtheory.audit.printed.parse_printed : parses the cleaned text.

    Examples
    --------
    A footnote star and spaces go; a decimal comma becomes a point; a dash is missing:

    >>> from prtheory.audit.table import clean_value
    >>> clean_value(" 0.68* "), clean_value("0,68", decimal_comma=True), clean_value("-")
    ('0.68', '0.68', None)
    """
    if not isinstance(raw, str):
        return raw
    text = raw.strip().replace("−", "-").replace("\u00a0", " ")
    text = text.strip("*").strip()
    for sep in ("±", "+/-", "+-", " ("):
        if sep in text:
            text = text.split(sep, 1)[0].strip()
    text = re.sub(r"\^\w+$", "", text)
    text = text.rstrip(_FOOTNOTES).strip()
    if decimal_comma and re.fullmatch(r"[-+]?\d*,\d+%?", text):
        text = text.replace(",", ".")
    return None if text.lower() in _MISSING else text


@dataclass(frozen=True)
class Row:
    """One parsed input row.

    Parameters
    ----------
    id : str
        The row's label.
    values : dict of str to Printed
        The printed metrics by canonical column.
    skew : Printed or None
        The printed skew.
    pos, neg : int or None
        The class counts, when printed.
    beta : Fraction or None
        The F-beta's beta.
    a, b : Fraction
        The recall range.
    method : str
        The canonical area method.
    averaged : bool
        Whether the values are means over folds.
    out_of_range : tuple of str
        Columns whose printed value lies outside [0, 1].
    context : str
        Where the row came from, for the messages.

    See Also
    --------
    parse_row, read_text

    Examples
    --------
    See :func:`read_text`.

    >>> from prtheory.audit.table import read_text
    >>> read_text("aucpr\\n0.3\\n")[0].method
    'unknown'
    """

    id: str
    values: dict[str, Printed]
    skew: Printed | None = None
    pos: int | None = None
    neg: int | None = None
    beta: Fraction | None = None
    a: Fraction = ZERO
    b: Fraction = ONE
    method: str = "unknown"
    averaged: bool = False
    out_of_range: tuple[str, ...] = ()  # "precision 1.2": values outside their range, unchecked
    context: str = ""  # what tells this row apart from others with its id ("dataset CIFAR")

    @property
    def label(self) -> str:
        """The id, with the columns that tell it apart when other rows share it."""
        return f"{self.id} [{self.context}]" if self.context else self.id

    @property
    def counts(self) -> tuple[int, int] | None:
        """``(pos, neg)`` when the row gives the class counts (both or neither are given)."""
        if self.pos is None or self.neg is None:
            return None
        return self.pos, self.neg

    @property
    def per_ranking_counts(self) -> bool:
        """Whether the exact class counts are given and the values are not fold averages."""
        return self.pos is not None and not self.averaged

    def box(self, name: str, convention: str, lo: Fraction = ZERO, hi: Fraction = ONE) -> Interval:
        """The set of true values of ``name`` that print as given, within the domain [lo, hi]."""
        return self.values[name].interval(convention).clip(lo, hi)

    def skew_box(self, convention: str) -> Interval | None:
        if self.pos is not None and self.neg is not None:
            return Interval.point(Fraction(self.pos, self.pos + self.neg))
        if self.skew is None:
            return None
        return self.skew.interval(convention).clip(ZERO, ONE)

    def describe_skew(self) -> str:
        if self.pos is not None and self.neg is not None:
            return f"pos={self.pos}, neg={self.neg} (pi = {value_str(Fraction(self.pos, self.pos + self.neg))})"
        if self.skew is not None:
            return f"skew {self.skew.text}"
        return "skew not given"


def _given(mapping: dict, key: str) -> bool:
    v = mapping.get(key)
    return v is not None and not (isinstance(v, str) and v.strip() == "")


def _exact_decimal(raw: object, name: str) -> Fraction:
    return parse_printed(raw, name, decimals="exact").value


def _count(raw: object, name: str) -> int:
    if isinstance(raw, str):
        try:
            raw = int(raw.strip().replace(",", "").replace("_", ""))
        except ValueError:
            raise InvalidInputError(name, f"must be an integer count, got {raw!r}") from None
    return check_count(raw, name)


def _flag(raw: object, name: str) -> bool:
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower() if raw is not None else ""
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise InvalidInputError(name, f"must be yes/no (true/false, 1/0), got {raw!r}")


def _skew(mapping: dict, rid: str, decimals: object) -> Printed | None:
    if not _given(mapping, "skew"):
        return None
    name = f"{rid}: skew"
    skew = parse_skew(mapping["skew"], name, decimals)
    box = skew.interval("any")
    if box.hi <= 0 or box.lo > 1:
        raise InvalidInputError(
            name,
            f"must lie in (0, 1] (pi = pos/(pos+neg), with at least one positive), "
            f"got {skew.text}"
            + (f" (pi = {value_str(skew.value)})" if skew.exact and ":" in skew.text else ""),
        )
    return skew


def parse_row(mapping: dict, default_id: str, *, averaged: bool = False, where: str = "") -> Row:
    """Validate one row (canonical column name -> text or number) into a :class:`Row`.

    ``where`` (e.g. the file name) prefixes every error, which then names the row and column.

    Parameters
    ----------
    mapping : dict
        Canonical column name to text or number.
    default_id : str
        The id when the row has none.
    averaged : bool
        Whether the row is a mean over folds (default False).
    where : str
        A prefix for the errors (e.g. the file name).

    Returns
    -------
    Row
        The validated row.

    Raises
    ------
    InvalidInputError
        A malformed value, naming the row and column.

    See Also
    --------
    read_text

    Examples
    --------
    "0.30" is the box [0.295, 0.305] of a value printed with 2 decimals, exactly 3/10:

    >>> from prtheory.audit.table import parse_row
    >>> row = parse_row({"aucpr": "0.30", "skew": "0.5"}, "r1")
    >>> row.values["aucpr"].value, row.values["aucpr"].decimals, row.skew.value
    (Fraction(3, 10), 2, Fraction(1, 2))
    """
    unknown = sorted(k for k in mapping if k not in FIELDS)
    if unknown:
        raise InvalidInputError(
            f"{where}row {default_id}",
            f"unknown column(s) {', '.join(map(repr, unknown))}; known: {', '.join(FIELDS)}",
        )
    rid = str(mapping["id"]).strip() if _given(mapping, "id") else default_id
    tag = f"{where}row {rid}"
    decimals = mapping.get("decimals") if _given(mapping, "decimals") else None
    values = {
        k: parse_printed(mapping[k], f"{tag}: {k}", decimals)
        for k in VALUE_FIELDS
        if _given(mapping, k)
    }
    method = canonical_method(
        mapping.get("method") if _given(mapping, "method") else None, f"{tag}: method"
    )
    out_of_range = []
    for k, v in list(values.items()):
        if k == "aucpr" and method == "rocr":
            # ROCR's aucpr can be negative (prtheory.audit.rocr_bound): its own least value
            # is checked in the aucpr-range check; only values above 1 are outside its range
            if compare(v.interval("any").lo, ONE) > 0:
                out_of_range.append(f"{k} {v.text} is above 1, the largest area")
                del values[k]
        elif k == "aucnpr":
            # AUCNPR = (AUCPR - AUCPR_min)/(AUCPR_max - AUCPR_min) (B8) is negative whenever a
            # method's area goes below AUCPR_min (a trapezoid can reach pi/2, see
            # prtheory.audit.methods): only values above 1 are outside its range
            if compare(v.interval("any").lo, ONE) > 0:
                out_of_range.append(f"{k} {v.text} is above 1, the largest AUCNPR")
                del values[k]
        elif v.interval("any").clip(ZERO, ONE).is_empty():
            out_of_range.append(f"{k} {v.text} is outside [0, 1]")
            del values[k]
    skew = _skew(mapping, tag, decimals)
    pos = _count(mapping["pos"], f"{tag}: pos") if _given(mapping, "pos") else None
    neg = _count(mapping["neg"], f"{tag}: neg") if _given(mapping, "neg") else None
    if (pos is None) != (neg is None):
        raise InvalidInputError(f"{tag}: pos, neg", "give both class counts or neither")
    if pos is not None and pos == 0:
        raise InvalidInputError(
            f"{tag}: pos", "must be >= 1 (with no positives recall and AP are undefined)"
        )
    beta = _exact_decimal(mapping["beta"], f"{tag}: beta") if _given(mapping, "beta") else None
    if "fbeta" in values and beta is None:
        raise InvalidInputError(f"{tag}: beta", "is required with fbeta")
    if beta is not None and beta <= 0:
        raise InvalidInputError(f"{tag}: beta", f"must be > 0, got {mapping['beta']}")
    a = _exact_decimal(mapping["a"], f"{tag}: a") if _given(mapping, "a") else ZERO
    b = _exact_decimal(mapping["b"], f"{tag}: b") if _given(mapping, "b") else ONE
    if not (0 <= a < b <= 1):
        raise InvalidInputError(
            f"{tag}: a, b", f"need 0 <= a < b <= 1, got a={value_str(a)}, b={value_str(b)}"
        )
    if _given(mapping, "averaged"):
        averaged = _flag(mapping["averaged"], f"{tag}: averaged")
    return Row(rid, values, skew, pos, neg, beta, a, b, method, averaged, tuple(out_of_range))


def _delimiter(header: str) -> str:
    if "\t" in header:
        return "\t"
    if header.count(";") > header.count(","):
        return ";"
    return ","


def _rows_from_json(text: str, name: str) -> list[tuple[str, dict]]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInputError(name, f"is not valid JSON: {exc}") from None
    if isinstance(data, dict):
        data = data.get("rows")
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise InvalidInputError(name, 'JSON must be a list of objects or {"rows": [...]}')
    return [(f"#{i}", r) for i, r in enumerate(data)]


def _rows_from_delimited(text: str, name: str) -> list[tuple[str, dict]]:
    lines = text.splitlines()
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        raise InvalidInputError(name, "is empty")
    delim = _delimiter(lines[first])
    reader = csv.reader(lines[first:], delimiter=delim)
    header = next(reader)
    columns = []
    for cell in header:
        col = canonical_header(cell)
        if col is None:
            raise InvalidInputError(
                f"{name}: header",
                f"unknown column {cell.strip()!r}; known: {', '.join(FIELDS)} and the aliases "
                "documented in prtheory.audit.table.HEADER_ALIASES",
            )
        if col in columns:
            raise InvalidInputError(f"{name}: header", f"column {cell.strip()!r} repeats {col!r}")
        columns.append(col)
    out = []
    for offset, cells in enumerate(reader):
        line = first + offset + 2
        if not any(c.strip() for c in cells):
            continue
        if len(cells) != len(columns):
            raise InvalidInputError(
                f"{name}: line {line}",
                f"has {len(cells)} fields, the header has {len(columns)}",
            )
        row = {
            col: _cell(col, c, decimal_comma=delim != ",")
            for col, c in zip(columns, cells, strict=True)
        }
        out.append((f"line {line}", row))
    return out


def _cell(col: str, raw: object, decimal_comma: bool = False) -> object:
    """A cell as read: ids and text columns verbatim (stripped), numbers cleaned."""
    if col in ("id", *TEXT_FIELDS):
        text = str(raw).strip() if raw is not None else ""
        return None if text.lower() in _MISSING else text
    return clean_value(raw, decimal_comma)


def _distinguish(rows: list[Row], mappings: list[dict], name: str) -> list[Row]:
    """Rows sharing an id get a context: the columns in which they differ (text columns
    first); rows that share an id and agree in every column are refused."""
    by_id: dict[str, list[int]] = {}
    for k, row in enumerate(rows):
        by_id.setdefault(row.id, []).append(k)
    out = list(rows)
    for rid, ks in by_id.items():
        if len(ks) == 1:
            continue
        columns = sorted(
            {c for k in ks for c in mappings[k] if c != "id"},
            key=lambda c: (c not in TEXT_FIELDS, FIELDS.index(c) if c in FIELDS else 99),
        )
        differing = [c for c in columns if len({str(mappings[k].get(c)) for k in ks}) > 1]
        if not differing:
            raise InvalidInputError(
                f"{name}: row {rid}",
                f"duplicate id: {len(ks)} rows with this id agree in every column",
            )
        tell = differing[: next((i + 1 for i, c in enumerate(differing) if c in TEXT_FIELDS), 2)]
        for k in ks:
            context = ", ".join(f"{c} {mappings[k].get(c) or '-'}" for c in tell)
            out[k] = dataclasses.replace(rows[k], context=context)
    return out


def read_text(
    text: str, name: str = "<table>", *, json_format: bool = False, averaged: bool = False
) -> list[Row]:
    """Rows of a table given as text (``name`` labels the errors); see :func:`read_rows`.

    Parameters
    ----------
    text : str
        The table.
    name : str
        Its label in the errors (default ``"<table>"``).
    json_format : bool
        Whether the text is JSON (default False: delimited).
    averaged : bool
        Whether every row is a mean over folds (default False).

    Returns
    -------
    list of Row
        The rows.

    Raises
    ------
    InvalidInputError
        A malformed table or row, naming the row and column.

    See Also
    --------
    read_rows

    Examples
    --------
    >>> from prtheory.audit.table import read_text
    >>> rows = read_text("id,aucpr,skew,method\\nA,0.10,0.5,dg\\n")
    >>> rows[0].id, rows[0].method, rows[0].values["aucpr"].text
    ('A', 'davis-goadrich', '0.10')
    """
    raw = _rows_from_json(text, name) if json_format else _rows_from_delimited(text, name)
    rows: list[Row] = []
    mappings: list[dict] = []
    for default_id, mapping in raw:
        if json_format:
            mapping = {(col := canonical_header(k) or k): _cell(col, v) for k, v in mapping.items()}
        rows.append(parse_row(mapping, default_id, averaged=averaged, where=f"{name}: "))
        mappings.append(mapping)
    if not rows:
        raise InvalidInputError(name, "has no rows")
    return _distinguish(rows, mappings, name)


def read_rows(path: str | Path, *, averaged: bool = False) -> list[Row]:
    """Read an audit table: JSON (by the ``.json`` suffix) or delimited text (CSV, TSV, ``;``).

    ``averaged=True`` marks every row as an average over folds (see
    :mod:`prtheory.audit.checks`); a row's ``averaged`` column overrides it.

    Parameters
    ----------
    path : str or Path
        The table's file.
    averaged : bool
        Whether every row is a mean over folds (default False).

    Returns
    -------
    list of Row
        The rows.

    Raises
    ------
    InvalidInputError
        An unreadable file or a malformed row, naming the row and column.

    See Also
    --------
    read_text

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from prtheory.audit.table import read_rows
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = pathlib.Path(d) / "t.csv"
    ...     _ = path.write_text("id,aucpr,skew\\nA,0.30,0.5\\n")
    ...     [row.id for row in read_rows(path)]
    ['A']
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InvalidInputError("FILE", f"cannot read {path}: {exc.strerror}") from None
    text = decode(data, str(path))
    return read_text(text, str(path), json_format=path.suffix.lower() == ".json", averaged=averaged)


def decode(data: bytes, name: str) -> str:
    """UTF-8 text (a byte order mark is dropped); UTF-16, other 8-bit encodings and binary
    files are refused with ``InvalidInputError`` saying which, and how to fix it.

    Parameters
    ----------
    data : bytes
        The file's bytes.
    name : str
        The file's name, for the errors.

    Returns
    -------
    str
        The text.

    Raises
    ------
    InvalidInputError
        UTF-16, another 8-bit encoding, or a binary file, saying how to fix it.

    See Also
    --------
    read_rows

    Examples
    --------
    >>> from prtheory.audit.table import decode
    >>> import codecs
    >>> decode(codecs.BOM_UTF8 + b"aucpr", "t.csv")
    'aucpr'
    >>> decode("aucpr".encode("utf-16"), "t.csv")
    Traceback (most recent call last):
    ...
    prtheory.errors.InvalidInputError: t.csv: is UTF-16 encoded, not UTF-8: save the table as UTF-8 text (CSV, TSV or JSON)
    """
    fix = "save the table as UTF-8 text (CSV, TSV or JSON)"
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or (
        len(data) >= 4 and b"\x00" in data[:4] and data[:4].count(b"\x00") == 2
    ):
        raise InvalidInputError(name, f"is UTF-16 encoded, not UTF-8: {fix}")
    if b"\x00" in data:
        raise InvalidInputError(name, f"is a binary file, not a text table: {fix}")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        byte = data[exc.start]
        raise InvalidInputError(
            name,
            f"is not UTF-8 (byte 0x{byte:02X} at offset {exc.start}; Latin-1 or another 8-bit "
            f"encoding?): {fix}",
        ) from None
