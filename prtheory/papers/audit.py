"""``prtheory audit FILE``: consistency checks for published precision-recall numbers.

Every published number is rounded, so a check never asks "does the recomputed value equal the
printed one?" but "is there *any* set of true values, each rounding to what was printed, that
satisfies the mathematics?". A row is flagged only when the answer is provably no. The reasoning
(the rounding intervals, their images, the witness or the gap) is printed with every verdict.

Input: CSV (header row) or JSON (a list of objects, or ``{"rows": [...]}``); one row per reported
result. Every column is optional except that a check runs only when its inputs are present:

===============  ==========================================================================
``id``           a label for the row (default: its line/index)
``skew``         pi = pos/(pos+neg): a printed decimal (``0.04``, ``4%``) or exact ``pos:neg``
``pos``, ``neg`` exact class counts (integers); they fix the skew and enable the count checks
``precision``    printed values in [0, 1] (or percentages such as ``90.8%``)
``recall``
``f1``
``fbeta``        with ``beta`` (exact decimal, e.g. ``0.5``)
``aucpr``        area under the PR curve over recalls [a, b] (``a``, ``b`` exact, default 0, 1)
``aucnpr``       normalised AUCPR (B8) over the same range
``ap``           average precision
``decimals``     overrides the printed decimals of every value in the row (JSON numbers lose
                 trailing zeros: ``0.680`` arrives as ``0.68``; prefer strings)
``source``       free text, ignored
``note``         free text, ignored
===============  ==========================================================================

Checks (claim ids from CLAIMS.md):

* ``skew-vs-counts``: a printed skew must contain pos/(pos+neg).
* ``achievable`` (B1): flag only if no (precision, recall, skew) in the rounding box satisfies
  p >= pi r / (1 - pi + pi r). The bound increases in r and pi, so the box's most favourable
  corner is (p_hi, r_lo, pi_lo).
* ``fbeta`` (F2): the F-beta image of the (precision, recall) box must meet the printed F box.
* ``aucpr-range`` (B4, B7): AUCPR_min(pi) <= AUCPR <= b - a for some values in the boxes.
* ``ap-min`` (B6, B4): AP >= AP_min(pos, neg); with only a skew, AP >= AUCPR_min(pi), the
  infimum of AP_min over all pos at that skew (AP_min is a right Riemann sum of the increasing
  bound, so it exceeds the integral).
* ``aucnpr`` (B8): the AUCNPR image of the (AUCPR, skew) box must meet the printed AUCNPR box.
  Without a skew, the pair's implied AUCPR_min interval is reported, and the row is flagged only
  if no skew in [0, 1] fits (AUCNPR above AUCPR).
* ``counts`` (GRIM-style; needs pos and neg): some integers 0 <= TP <= pos, 0 <= FP <= neg must
  reproduce the printed recall TP/pos, precision TP/(TP+FP) and F-beta
  (1+beta^2)TP/((1+beta^2)TP + FP + beta^2 FN) all at once.

Rounding: ``--rounding any`` (default) accepts every round-to-nearest rule at exact midpoints;
``half-even``, ``half-up``, ``half-down`` and ``truncate`` are stricter (see
:mod:`prtheory.papers.printed`).

Exit status of ``prtheory audit``: 0 when no row is flagged, 1 when at least one row is flagged,
2 when the file cannot be read or a value is malformed.
"""

from __future__ import annotations

import csv
import json
import math
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from prtheory._input import check_count, check_unit
from prtheory.errors import InvalidInputError
from prtheory.oracle import closed_forms, points
from prtheory.papers.images import (
    aucnpr_image,
    aucnpr_real,
    aucpr_min_real,
    fbeta_image,
    implied_aucpr_min,
    min_precision_exact,
)
from prtheory.papers.intervals import Approx, Interval, compare, value_str
from prtheory.papers.printed import Printed, parse_printed, parse_skew

__all__ = [
    "FIELDS",
    "Finding",
    "Row",
    "RowResult",
    "audit_row",
    "audit_rows",
    "parse_row",
    "read_rows",
    "render",
]

VALUE_FIELDS = ("precision", "recall", "f1", "fbeta", "aucpr", "aucnpr", "ap")
FIELDS = ("id", "skew", "pos", "neg", *VALUE_FIELDS, "beta", "a", "b", "decimals", "source", "note")

ZERO, ONE = Fraction(0), Fraction(1)

# The counts check enumerates candidate TP values; beyond this many it is skipped (say why).
MAX_TP_CANDIDATES = 2_000_000


@dataclass(frozen=True)
class Row:
    """One parsed input row."""

    id: str
    values: dict[str, Printed]
    skew: Printed | None = None
    pos: int | None = None
    neg: int | None = None
    beta: Fraction | None = None
    a: Fraction = ZERO
    b: Fraction = ONE

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


@dataclass(frozen=True)
class Finding:
    """The verdict of one check on one row, with its reasoning."""

    check: str
    claims: str
    flagged: bool
    reasoning: str


@dataclass
class RowResult:
    row: Row
    findings: list[Finding] = field(default_factory=list)

    @property
    def flagged(self) -> bool:
        return any(f.flagged for f in self.findings)


# ------------------------------------------------------------------------------------------
# reading


def _exact_decimal(raw: object, name: str) -> Fraction:
    p = parse_printed(raw, name, decimals="exact")
    return p.value


def parse_row(mapping: dict, default_id: str) -> Row:
    """Validate one row (a mapping of column name to text/number) into a :class:`Row`."""
    unknown = sorted(k for k in mapping if k not in FIELDS)
    if unknown:
        raise InvalidInputError(
            f"row {default_id}",
            f"unknown column(s) {', '.join(map(repr, unknown))}; known: {', '.join(FIELDS)}",
        )

    def given(key: str) -> bool:
        v = mapping.get(key)
        return v is not None and not (isinstance(v, str) and v.strip() == "")

    rid = str(mapping["id"]).strip() if given("id") else default_id
    decimals = mapping.get("decimals") if given("decimals") else None
    values = {
        k: parse_printed(mapping[k], f"{rid}: {k}", decimals) for k in VALUE_FIELDS if given(k)
    }
    for k, v in values.items():
        if v.interval("any").clip(ZERO, ONE).is_empty():
            raise InvalidInputError(f"{rid}: {k}", f"must lie in [0, 1], got {v.text!r}")
    skew = parse_skew(mapping["skew"], f"{rid}: skew", decimals) if given("skew") else None
    if skew is not None and skew.exact:
        check_unit(skew.value, f"{rid}: skew")
    pos = (
        check_count(_count(mapping["pos"], f"{rid}: pos"), f"{rid}: pos") if given("pos") else None
    )
    neg = (
        check_count(_count(mapping["neg"], f"{rid}: neg"), f"{rid}: neg") if given("neg") else None
    )
    if (pos is None) != (neg is None):
        raise InvalidInputError(f"{rid}: pos, neg", "give both class counts or neither")
    if pos is not None and pos + neg == 0:
        raise InvalidInputError(f"{rid}: pos, neg", "need pos + neg > 0")
    beta = _exact_decimal(mapping["beta"], f"{rid}: beta") if given("beta") else None
    if "fbeta" in values and beta is None:
        raise InvalidInputError(f"{rid}: beta", "is required with fbeta")
    if beta is not None and beta <= 0:
        raise InvalidInputError(f"{rid}: beta", f"must be > 0, got {mapping['beta']!r}")
    a = _exact_decimal(mapping["a"], f"{rid}: a") if given("a") else ZERO
    b = _exact_decimal(mapping["b"], f"{rid}: b") if given("b") else ONE
    if not (0 <= a < b <= 1):
        raise InvalidInputError(f"{rid}: a, b", f"need 0 <= a < b <= 1, got a={a}, b={b}")
    return Row(rid, values, skew, pos, neg, beta, a, b)


def _count(raw: object, name: str) -> object:
    if isinstance(raw, str):
        try:
            return int(raw.strip())
        except ValueError:
            raise InvalidInputError(name, f"must be an integer count, got {raw!r}") from None
    return raw


def read_rows(path: str | Path) -> list[Row]:
    """Read a CSV or JSON audit file (format in the module docstring)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InvalidInputError("FILE", f"cannot read {path}: {exc.strerror}") from None
    if path.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidInputError("FILE", f"{path} is not valid JSON: {exc}") from None
        if isinstance(data, dict):
            data = data.get("rows")
        if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
            raise InvalidInputError("FILE", 'JSON must be a list of objects or {"rows": [...]}')
        rows = [parse_row(r, f"#{i}") for i, r in enumerate(data)]
    else:
        reader = csv.DictReader(text.splitlines())
        if reader.fieldnames is None:
            raise InvalidInputError("FILE", f"{path} is empty")
        rows = []
        for i, r in enumerate(reader):
            if None in r:
                raise InvalidInputError(f"line {i + 2}", "has more fields than the header")
            rows.append(parse_row(r, f"line {i + 2}"))
    if not rows:
        raise InvalidInputError("FILE", f"{path} has no rows")
    return rows


# ------------------------------------------------------------------------------------------
# checks


def _printed(row: Row, name: str, convention: str) -> str:
    return f"{name} {row.values[name].text} stands for {row.values[name].interval(convention)}"


def check_skew_counts(row: Row, convention: str) -> Finding | None:
    if row.skew is None or row.pos is None:
        return None
    exact = Fraction(row.pos, row.pos + row.neg)
    box = row.skew.interval(convention)
    ok = box.contains(exact)
    return Finding(
        "skew-vs-counts",
        "-",
        not ok,
        f"skew {row.skew.text} stands for {box}; pos/(pos+neg) = {row.pos}/{row.pos + row.neg} "
        f"= {value_str(exact)} is {'inside' if ok else 'outside'} it",
    )


def check_achievable(row: Row, convention: str) -> Finding | None:
    """B1 with rounding: flag iff p_hi < pi_lo r_lo / (1 - pi_lo + pi_lo r_lo) (or equal at an open end)."""
    skew = row.skew_box(convention)
    if skew is None or not {"precision", "recall"} <= row.values.keys():
        return None
    p, r = row.box("precision", convention), row.box("recall", convention)
    # at recall 0 nothing is constrained (and the bound is 0/0 at pi = 1)
    bound = min_precision_exact(r.lo, skew.lo) if r.lo > 0 else ZERO
    gap = p.hi - bound
    attained = p.hi_closed and r.lo_closed and skew.lo_closed
    ok = gap > 0 or (gap == 0 and attained)
    text = (
        f"{_printed(row, 'precision', convention)}, {_printed(row, 'recall', convention)}, "
        f"{row.describe_skew()}; the most favourable corner (largest p, smallest r, smallest pi) "
        f"needs p >= pi r/(1 - pi + pi r) = {value_str(bound)}"
    )
    if ok:
        text += f" <= {value_str(p.hi)}: achievable"
    else:
        text += f" > largest possible p {value_str(p.hi)}: no point of the box is achievable"
    return Finding("achievable", "B1", not ok, text)


def check_fbeta(row: Row, convention: str) -> list[Finding]:
    out = []
    if not {"precision", "recall"} <= row.values.keys():
        return out
    p, r = row.box("precision", convention), row.box("recall", convention)
    for name, beta in (("f1", ONE), ("fbeta", row.beta)):
        if name not in row.values:
            continue
        image = fbeta_image(p, r, beta)
        printed = row.box(name, convention)
        ok = image.meets(printed)
        label = "F1" if name == "f1" else f"F-beta (beta = {value_str(beta)})"
        out.append(
            Finding(
                name,
                "F2",
                not ok,
                f"{label} over the (precision, recall) box is {image}; "
                f"{_printed(row, name, convention)}: "
                + (
                    "they overlap"
                    if ok
                    else "disjoint, no precision and recall in their boxes give it"
                ),
            )
        )
    return out


def check_aucpr_range(row: Row, convention: str) -> Finding | None:
    skew = row.skew_box(convention)
    if skew is None or "aucpr" not in row.values:
        return None
    top = row.b - row.a
    x = row.values["aucpr"].interval(convention)
    lowest = aucpr_min_real(skew.lo, row.a, row.b)
    too_low = compare(x.hi, lowest) < 0 or (
        compare(x.hi, lowest) == 0 and not (x.hi_closed and skew.lo_closed)
    )
    too_high = x.lo > top or (x.lo == top and not x.lo_closed)
    rng = (
        ""
        if (row.a, row.b) == (ZERO, ONE)
        else f" over recalls [{value_str(row.a)}, {value_str(row.b)}]"
    )
    text = (
        f"{_printed(row, 'aucpr', convention)}; {row.describe_skew()} allows AUCPR{rng} in "
        f"[AUCPR_min, AUCPR_max] with AUCPR_min >= {value_str(lowest)} (at the smallest skew) "
        f"and AUCPR_max = {value_str(top)}"
    )
    if too_low:
        text += ": the printed AUCPR is below the minimum"
    elif too_high:
        text += ": the printed AUCPR exceeds the maximum"
    return Finding("aucpr-range", "B4, B7", too_low or too_high, text)


def check_ap_min(row: Row, convention: str) -> Finding | None:
    if "ap" not in row.values:
        return None
    x = row.values["ap"].interval(convention)
    if row.pos is not None and row.pos > 0:
        lowest = closed_forms.ap_min(row.pos, row.neg)
        if not isinstance(lowest, Fraction):  # huge pos: digamma evaluation, an mpf
            pos, neg = row.pos, row.neg
            lowest = Approx(lambda dps: closed_forms.ap_min(pos, neg, dps=dps), "AP_min")
        basis = f"AP_min(pos={row.pos}, neg={row.neg}) = {value_str(lowest)} (B6)"
        closed = True
    else:
        skew = row.skew_box(convention)
        if skew is None:
            return None
        lowest = aucpr_min_real(skew.lo)
        basis = (
            f"{row.describe_skew()}: AP_min > AUCPR_min(pi) >= {value_str(lowest)} for every pos "
            "at that skew (B6, B4)"
        )
        closed = skew.lo_closed
    c = compare(x.hi, lowest)
    bad = c < 0 or (c == 0 and not (x.hi_closed and closed))
    return Finding(
        "ap-min",
        "B6",
        bad,
        f"{_printed(row, 'ap', convention)}; {basis}"
        + (": the printed AP is below the minimum" if bad else ""),
    )


def check_aucnpr(row: Row, convention: str) -> Finding | None:
    if not {"aucpr", "aucnpr"} <= row.values.keys():
        return None
    skew = row.skew_box(convention)
    top = row.b - row.a
    x = row.box("aucpr", convention, ZERO, top)
    y = row.box("aucnpr", convention)
    if skew is None:
        if (row.a, row.b) != (ZERO, ONE):
            return None
        m = implied_aucpr_min(x, y)
        if m is None:
            return Finding(
                "aucnpr",
                "B8",
                True,
                f"{_printed(row, 'aucpr', convention)}, {_printed(row, 'aucnpr', convention)}; "
                "AUCNPR <= AUCPR at every skew (AUCPR_min >= 0), so no skew fits the pair",
            )
        return Finding(
            "aucnpr",
            "B8",
            False,
            f"no skew given; the pair implies AUCPR_min = (AUCPR - AUCNPR)/(1 - AUCNPR) in {m}, "
            f"i.e. skew pi in {implied_skew(m)}",
        )
    if compare(skew.hi, ONE) >= 0:
        return Finding(
            "aucnpr",
            "B8",
            False,
            "skipped: the skew interval reaches pi = 1, where AUCNPR is undefined",
        )
    image = aucnpr_image(x, skew, row.a, row.b)
    ok = image.meets(y)
    point = ""
    if not row.values["aucpr"].exact and skew.is_point:
        centre = aucnpr_real(row.values["aucpr"].value, skew.lo, row.a, row.b)
        point = f" (the printed AUCPR itself gives {value_str(centre)})"
    return Finding(
        "aucnpr",
        "B8",
        not ok,
        f"AUCPR in {x} at {row.describe_skew()} gives AUCNPR in {image}{point}; "
        f"{_printed(row, 'aucnpr', convention)}: "
        + ("they overlap, consistent" if ok else "disjoint, inconsistent"),
    )


def implied_skew(m: Interval) -> Interval:
    """Skews whose AUCPR_min lies in ``m`` (AUCPR_min is increasing in pi, B5)."""

    def inv(v: Fraction):
        if v <= 0:
            return ZERO
        if v >= 1:
            return ONE
        return Approx(lambda dps: closed_forms.skew_from_aucpr_min(v, dps=dps), f"pi(m={v})")

    return Interval(inv(m.lo), inv(m.hi), m.lo_closed, m.hi_closed)


def _int_range(box: Interval, scale: int) -> tuple[int, int]:
    """Integers k in [0, scale] with k/scale in ``box`` (exact, open ends honoured)."""
    lo = max(0, math.ceil(box.lo * scale))
    hi = min(scale, math.floor(box.hi * scale))
    if lo <= hi and not box.contains(Fraction(lo, scale)):
        lo += 1
    if lo <= hi and not box.contains(Fraction(hi, scale)):
        hi -= 1
    return lo, hi


def _fp_range(
    num: int | Fraction, extra: int | Fraction, box: Interval, neg: int, metric
) -> tuple[int, int]:
    """Integers FP in [0, neg] with ``metric(FP)`` in ``box``, where
    ``metric(FP) = num/(num + extra + FP)`` (num > 0) is decreasing in FP.

    The bounds come from inverting the formula; the ends are then checked with the oracle's
    ``metric`` exactly, which also honours open ends (one step suffices: an open end excludes
    only the boundary value itself).
    """
    lo, hi = 0, neg
    if box.hi <= 0:
        return 1, 0
    lo = max(lo, math.ceil(num / box.hi - num - extra))
    if box.lo > 0:
        hi = min(hi, math.floor(num / box.lo - num - extra))

    def inside(fp: int) -> bool:
        return box.contains(metric(fp))

    if lo <= hi and not inside(lo):
        lo += 1
    if lo <= hi and not inside(hi):
        hi -= 1
    return lo, hi


def count_witness(
    pos: int, neg: int, boxes: dict[str, Interval], beta: Fraction | None = None
) -> tuple[int, int] | None:
    """Some (TP, FP) reproducing every printed count metric in ``boxes``, or ``None``.

    ``boxes`` may hold "recall", "precision", "f1" and "fbeta". Recall = TP/pos, precision =
    TP/(TP + FP) (needs TP + FP >= 1), F-beta = (1+beta^2)TP/((1+beta^2)TP + FP + beta^2 FN).
    For TP = 0 precision and F-beta are 0 (when defined).
    """
    if "recall" in boxes:
        if pos == 0:
            return None
        tp_lo, tp_hi = _int_range(boxes["recall"], pos)
    else:
        tp_lo, tp_hi = 0, pos
    if tp_hi - tp_lo + 1 > MAX_TP_CANDIDATES:
        raise OverflowError(f"{tp_hi - tp_lo + 1} candidate TP values")
    fscores = [(boxes[k], b) for k, b in (("f1", ONE), ("fbeta", beta)) if k in boxes]
    for tp in range(tp_lo, tp_hi + 1):
        fn = pos - tp
        lo, hi = 0, neg
        if tp == 0:
            if "precision" in boxes:
                if not boxes["precision"].contains(ZERO):
                    continue
                lo = 1
            if any(not box.contains(ZERO) for box, _ in fscores):
                continue
            if fscores and fn == 0:
                lo = max(lo, 1)
        else:
            if "precision" in boxes:
                a, b = _fp_range(
                    tp, 0, boxes["precision"], neg, lambda fp, tp=tp: points.precision(tp, fp)
                )
                lo, hi = max(lo, a), min(hi, b)
            for box, bt in fscores:
                w = 1 + bt * bt
                a, b = _fp_range(
                    w * tp,
                    bt * bt * fn,
                    box,
                    neg,
                    lambda fp, tp=tp, fn=fn, bt=bt: points.fbeta(tp, fp, fn, bt),
                )
                lo, hi = max(lo, a), min(hi, b)
        if lo <= hi:
            return tp, lo
    return None


def check_counts(row: Row, convention: str) -> Finding | None:
    if row.pos is None:
        return None
    names = [k for k in ("recall", "precision", "f1", "fbeta") if k in row.values]
    if not names:
        return None
    boxes = {k: row.box(k, convention) for k in names}
    try:
        joint = count_witness(row.pos, row.neg, boxes, row.beta)
    except OverflowError as exc:
        return Finding("counts", "GRIM", False, f"skipped: {exc}; give the recall to narrow TP")
    if joint is not None:
        tp, fp = joint
        return Finding(
            "counts",
            "GRIM",
            False,
            f"TP={tp}, FP={fp} (of pos={row.pos}, neg={row.neg}) reproduces the printed "
            + ", ".join(f"{k} {row.values[k].text}" for k in names),
        )
    single = [k for k in names if count_witness(row.pos, row.neg, {k: boxes[k]}, row.beta) is None]
    why = (
        f"on its own, no integer count gives {', '.join(single)}"
        if single
        else "each value is attainable on its own, but not with one common TP and FP"
    )
    return Finding(
        "counts",
        "GRIM",
        True,
        f"no integers 0 <= TP <= {row.pos}, 0 <= FP <= {row.neg} reproduce "
        + ", ".join(f"{k} {row.values[k].text} ({boxes[k]})" for k in names)
        + f": {why}",
    )


def audit_row(row: Row, convention: str = "any") -> RowResult:
    """Run every applicable check on one row."""
    result = RowResult(row)
    for check in (
        check_skew_counts,
        check_achievable,
        check_aucpr_range,
        check_ap_min,
        check_aucnpr,
        check_counts,
    ):
        f = check(row, convention)
        if f is not None:
            result.findings.append(f)
    result.findings.extend(check_fbeta(row, convention))
    return result


def audit_rows(rows: list[Row], convention: str = "any") -> list[RowResult]:
    return [audit_row(r, convention) for r in rows]


def render(results: list[RowResult], convention: str = "any", flagged_only: bool = False) -> str:
    """Human-readable audit report; within a row, flagged findings come first."""
    lines = [f"rounding convention: {convention}"]
    for res in results:
        if flagged_only and not res.flagged:
            continue
        status = "FLAGGED" if res.flagged else "ok"
        lines.append(f"{res.row.id}: {status}")
        if not res.findings:
            lines.append("  (no check applies to the columns given)")
        for f in sorted(res.findings, key=lambda f: not f.flagged):
            mark = "FLAG" if f.flagged else "ok  "
            lines.append(f"  {mark} {f.check} [{f.claims}]: {f.reasoning}")
    flagged = sum(r.flagged for r in results)
    lines.append(f"{len(results)} rows, {flagged} flagged")
    return "\n".join(lines) + "\n"
