"""The checks of ``prtheory audit``: consistency of published precision-recall numbers.

Every published number is rounded, so a check never asks "does the recomputed value equal the
printed one?" but "is there *any* set of true values, each rounding to what was printed, that
satisfies the mathematics?". A row is flagged only when the answer is provably no, under the
method that produced the number (:mod:`prtheory.audit.methods`). The reasoning (the rounding
intervals, their images, the bound with its method and counts, the witness or the gap) is part of
every verdict. Input is read by :mod:`prtheory.audit.table`.

Checks (claim ids from the project's claims catalog):

* ``skew-vs-counts``: a printed skew must contain pos/(pos+neg).
* ``achievable`` (B1): flag only if no (precision, recall, skew) in the rounding box satisfies
  p >= pi r / (1 - pi + pi r). The bound increases in r and pi, so the box's most favourable
  corner is (p_hi, r_lo, pi_lo).
* ``f1``, ``fbeta`` (F2): the F-beta image of the (precision, recall) box must meet the printed
  F box.
* ``aucpr-range`` (B4, B6, B7 and :mod:`prtheory.audit.methods`): the row's ``method`` bounds
  the area from below (AP_min for ``step``, AUCPR_min for ``davis-goadrich``, pi/2 for the
  trapezoids, the least of them for ``unknown``, the default); b - a bounds it from above.
* ``ap-min`` (B6, B4): AP >= AP_min(pos, neg); with only a skew, AP > AUCPR_min(pi), the
  infimum of AP_min over all pos at that skew.
* ``aucnpr`` (B8): the AUCNPR image of the (AUCPR, skew) box must meet the printed AUCNPR box.
  Without a skew, the pair's implied AUCPR_min interval is reported, and the row is flagged only
  if no skew in [0, 1] fits (AUCNPR above AUCPR).
* ``counts`` (GRIM-style; needs pos and neg): some integers 0 <= TP <= pos, 0 <= FP <= neg must
  reproduce the printed recall TP/pos, precision TP/(TP+FP) and F-beta all at once.
* ``range``: a value outside [0, 1] (AUCNPR above 1) is flagged in its row; the checks that
  would use it do not run.

A row where no check applies is "not checked", not "ok". When a row passes only because its skew
is printed with few digits (``0.5`` stands for [0.45, 0.55]) and the printed value itself, taken
as exact, would flag it, the row says so (``skew-rounding``) and names the exact skew from which
the checks whose bound rises with the skew flag it.

Averages over folds (``--averaged`` or an ``averaged`` column): a mean of achievable points need
not be achievable (the minimum-precision curve is concave), a mean F1 is not the F1 of the mean
precision and recall, and a mean of fractions with denominator pos need not be one; so
``achievable``, ``f1``/``fbeta`` and ``counts`` are not run, and the area bounds use the skew
alone (every bound holds for every fold whose skew is pi, so for their mean: the folds are
assumed stratified, each with the skew given).

Rounding: ``--rounding any`` (default) accepts every round-to-nearest rule at exact midpoints;
``half-even``, ``half-up``, ``half-down`` and ``truncate`` are stricter (see
:mod:`prtheory.audit.printed`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from prtheory.audit.images import (
    aucnpr_image,
    aucnpr_real,
    fbeta_image,
    implied_aucpr_min,
)
from prtheory.audit.intervals import Approx, Interval, compare, value_str
from prtheory.audit.methods import least_area
from prtheory.audit.printed import Printed
from prtheory.audit.table import Row
from prtheory.errors import InvalidInputError
from prtheory.oracle import closed_forms, points

__all__ = [
    "Finding",
    "RowResult",
    "audit_row",
    "audit_rows",
    "count_witness",
    "implied_skew",
    "skew_rounding_note",
]

ZERO, ONE = Fraction(0), Fraction(1)

# The counts check enumerates candidate TP values; beyond this many it is skipped (say why).
MAX_TP_CANDIDATES = 2_000_000


@dataclass(frozen=True)
class Finding:
    """The verdict of one check on one row, with its reasoning (the certificate).

    ``bound`` is the value the printed number was compared with, ``method`` the area method the
    bound is valid for (``None`` where no method is involved). ``checked`` is False for a note
    that decides nothing (a skipped check, the fold-average notice, the skew-rounding note).

    Parameters
    ----------
    check : str
        The check's name.
    claims : str
        The claim ids it rests on.
    flagged : bool
        Whether the row is impossible under it.
    reasoning : str
        The certificate.
    bound : str or None
        The value compared with.
    method : str or None
        The area method the bound is valid for.
    checked : bool
        False for a note that decides nothing.

    See Also
    --------
    audit_row

    Examples
    --------
    See :func:`audit_rows`.

    >>> from prtheory.audit.checks import audit_rows
    >>> from prtheory.audit.table import read_text
    >>> audit_rows(read_text("aucpr,skew,method\\n0.10,0.5,dg\\n"))[0].findings[0].check
    'aucpr-range'
    """

    check: str
    claims: str
    flagged: bool
    reasoning: str
    bound: str | None = None
    method: str | None = None
    checked: bool = True


@dataclass
class RowResult:
    """One row and the findings of the checks run on it.

    Parameters
    ----------
    row : Row
        The row.
    findings : list of Finding
        The checks' verdicts.

    See Also
    --------
    audit_row

    Examples
    --------
    See :func:`audit_rows`.

    >>> from prtheory.audit.checks import audit_row
    >>> from prtheory.audit.table import read_text
    >>> audit_row(read_text("aucpr,skew,method\\n0.40,0.5,dg\\n")[0]).flagged
    False
    """

    row: Row
    findings: list[Finding] = field(default_factory=list)

    @property
    def flagged(self) -> bool:
        return any(f.flagged for f in self.findings)

    @property
    def status(self) -> str:
        """``flagged``, ``ok`` (some check ran and passed) or ``not checked`` (none applies)."""
        if self.flagged:
            return "flagged"
        return "ok" if any(f.checked for f in self.findings) else "not checked"


# ------------------------------------------------------------------------------------------
# checks


def _printed(row: Row, name: str, convention: str) -> str:
    return f"{name} {row.values[name].text} stands for {row.values[name].interval(convention)}"


def check_skew_counts(row: Row, convention: str) -> Finding | None:
    counts = row.counts
    if row.skew is None or counts is None:
        return None
    pos, neg = counts
    exact = Fraction(pos, pos + neg)
    box = row.skew.interval(convention)
    ok = box.contains(exact)
    return Finding(
        "skew-vs-counts",
        "-",
        not ok,
        f"skew {row.skew.text} stands for {box}; pos/(pos+neg) = {pos}/{pos + neg} "
        f"= {value_str(exact)} is {'inside' if ok else 'outside'} it",
    )


def check_achievable(row: Row, convention: str) -> Finding | None:
    """B1 with rounding: flag iff p_hi < pi_lo r_lo / (1 - pi_lo + pi_lo r_lo) (or equal at an open end)."""
    skew = row.skew_box(convention)
    if skew is None or not {"precision", "recall"} <= row.values.keys():
        return None
    p, r = row.box("precision", convention), row.box("recall", convention)
    # at recall 0 nothing is constrained (and the bound is 0/0 at pi = 1)
    bound = closed_forms.min_precision(r.lo, skew.lo) if r.lo > 0 else ZERO
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


def _f_scores(names: Iterable[str], beta: Fraction | None) -> list[tuple[str, Fraction]]:
    """``(name, beta)`` of the F-scores among ``names``: F1, and F-beta with the row's beta
    (which the table requires wherever fbeta is given)."""
    out = []
    for name in ("f1", "fbeta"):
        if name in names:
            b = ONE if name == "f1" else beta
            if b is None:
                raise InvalidInputError("beta", "is required with fbeta")
            out.append((name, b))
    return out


def check_fbeta(row: Row, convention: str) -> list[Finding]:
    out: list[Finding] = []
    if not {"precision", "recall"} <= row.values.keys():
        return out
    p, r = row.box("precision", convention), row.box("recall", convention)
    for name, beta in _f_scores(row.values, row.beta):
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


def _below(x: Interval, lowest, attained: bool, lo_closed: bool = True) -> bool:
    """Whether every value of the box ``x`` lies below ``lowest`` (or at it, when not attained)."""
    c = compare(x.hi, lowest)
    return c < 0 or (c == 0 and not (x.hi_closed and attained and lo_closed))


def check_aucpr_range(row: Row, convention: str) -> Finding | None:
    """AUCPR between its method's least value (:mod:`prtheory.audit.methods`) and b - a."""
    skew = row.skew_box(convention)
    if skew is None or "aucpr" not in row.values:
        return None
    top = row.b - row.a
    x = row.values["aucpr"].interval(convention)
    pos, neg = (row.pos, row.neg) if row.per_ranking_counts else (None, None)
    bound = least_area(row.method, skew.lo, pos, neg, row.a, row.b)
    # a bound below every printable value decides nothing (ROCR with the skew alone)
    too_low = bound.decides and _below(x, bound.value, bound.attained, skew.lo_closed)
    too_high = x.lo > top or (x.lo == top and not x.lo_closed)
    text = (
        f"{_printed(row, 'aucpr', convention)}; {row.describe_skew()}, method {row.method}: "
        f"{bound.certificate}; the maximum is b - a = {value_str(top)}"
    )
    if too_low:
        text += f": the printed AUCPR is below the least {row.method} area"
    elif too_high:
        text += ": the printed AUCPR exceeds the maximum"
    return Finding(
        "aucpr-range",
        "B4, B6, B7",
        too_low or too_high,
        text,
        bound=value_str(bound.value) if bound.decides else None,
        method=row.method,
        checked=bound.decides or too_high,
    )


def check_ap_min(row: Row, convention: str) -> Finding | None:
    """AP (a step area by definition) against AP_min (B6), or AUCPR_min(pi) with a skew only."""
    if "ap" not in row.values:
        return None
    x = row.values["ap"].interval(convention)
    counts = row.counts
    pos: int | None
    neg: int | None
    if counts is not None and not row.averaged:  # row.per_ranking_counts
        pos, neg = counts
        skew_lo, closed = Fraction(pos, pos + neg), True
    else:
        skew = row.skew_box(convention)
        if skew is None:
            return None
        skew_lo, closed, pos, neg = skew.lo, skew.lo_closed, None, None
    bound = least_area("step", skew_lo, pos, neg)
    bad = _below(x, bound.value, bound.attained, closed)
    return Finding(
        "ap-min",
        "B6",
        bad,
        f"{_printed(row, 'ap', convention)}; {bound.certificate}"
        + (": the printed AP is below the minimum" if bad else ""),
        bound=value_str(bound.value),
        method="step",
    )


def check_aucnpr(row: Row, convention: str) -> Finding | None:
    if not {"aucpr", "aucnpr"} <= row.values.keys():
        return None
    skew = row.skew_box(convention)
    top = row.b - row.a
    x = row.box("aucpr", convention, ZERO, top)
    y = row.values["aucnpr"].interval(convention)
    y = y.clip(min(ZERO, y.lo), ONE)  # negative when the area is below AUCPR_min (table.py)
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
        if row.method in ("step", "davis-goadrich") and compare(y.hi, ZERO) < 0:
            return Finding(
                "aucnpr",
                "B4, B6, B8",
                True,
                f"{_printed(row, 'aucnpr', convention)}, method {row.method}: its area is at "
                "least AUCPR_min (B4, B6), so AUCNPR >= 0 at every skew",
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
            checked=False,
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
    """Skews whose AUCPR_min lies in ``m`` (AUCPR_min is increasing in pi, B5).

    Parameters
    ----------
    m : Interval
        AUCPR_min values.

    Returns
    -------
    Interval
        The skews whose AUCPR_min lies in ``m``.

    See Also
    --------
    prtheory.audit.images.implied_aucpr_min

    Examples
    --------
    AUCPR_min is 0 only at pi = 0 and 1 only at pi = 1 (B5):

    >>> from fractions import Fraction
    >>> from prtheory.audit.checks import implied_skew
    >>> from prtheory.audit.intervals import Interval
    >>> s = implied_skew(Interval(Fraction(0), Fraction(1)))
    >>> s.lo, s.hi
    (Fraction(0, 1), Fraction(1, 1))
    """

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

    Parameters
    ----------
    pos, neg : int
        The class counts.
    boxes : dict of str to Interval
        The printed count metrics' boxes ("recall", "precision", "f1", "fbeta").
    beta : Fraction or None
        The beta of "fbeta".

    Returns
    -------
    tuple of int or None
        Some ``(TP, FP)`` reproducing every box, or None.

    Raises
    ------
    InvalidInputError
        "fbeta" without ``beta``.
    OverflowError
        More than ``MAX_TP_CANDIDATES`` values of TP to try.

    See Also
    --------
    audit_row

    Examples
    --------
    With 4 positives recall 1/2 needs TP = 2, and precision 2/3 then FP = 1; recall 1/3 would
    need TP = 4/3:

    >>> from fractions import Fraction
    >>> from prtheory.audit.checks import count_witness
    >>> from prtheory.audit.intervals import Interval
    >>> exact = lambda x: Interval(x, x)
    >>> count_witness(4, 4, {"recall": exact(Fraction(1, 2)), "precision": exact(Fraction(2, 3))})
    (2, 1)
    >>> count_witness(4, 4, {"recall": exact(Fraction(1, 3))}) is None
    True
    """
    if "recall" in boxes:
        if pos == 0:
            return None
        tp_lo, tp_hi = _int_range(boxes["recall"], pos)
    else:
        tp_lo, tp_hi = 0, pos
    if tp_hi - tp_lo + 1 > MAX_TP_CANDIDATES:
        raise OverflowError(f"{tp_hi - tp_lo + 1} candidate TP values")
    fscores = [(boxes[k], b) for k, b in _f_scores(boxes, beta)]
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
    if row.counts is None:
        return None
    pos, neg = row.counts
    names = [k for k in ("recall", "precision", "f1", "fbeta") if k in row.values]
    if not names:
        return None
    boxes: dict[str, Interval] = {k: row.box(k, convention) for k in names}
    try:
        joint = count_witness(pos, neg, boxes, row.beta)
    except OverflowError as exc:
        return Finding(
            "counts",
            "GRIM",
            False,
            f"skipped: {exc}; give the recall to narrow TP",
            checked=False,
        )
    if joint is not None:
        tp, fp = joint
        return Finding(
            "counts",
            "GRIM",
            False,
            f"TP={tp}, FP={fp} (of pos={pos}, neg={neg}) reproduces the printed "
            + ", ".join(f"{k} {row.values[k].text}" for k in names),
        )
    single = [k for k in names if count_witness(pos, neg, {k: boxes[k]}, row.beta) is None]
    why = (
        f"on its own, no integer count gives {', '.join(single)}"
        if single
        else "each value is attainable on its own, but not with one common TP and FP"
    )
    return Finding(
        "counts",
        "GRIM",
        True,
        f"no integers 0 <= TP <= {pos}, 0 <= FP <= {neg} reproduce "
        + ", ".join(f"{k} {row.values[k].text} ({boxes[k]})" for k in names)
        + f": {why}",
    )


def _findings(row: Row, convention: str) -> list[Finding]:
    out = [
        Finding("range", "-", True, f"{text}: no probability or area has that value")
        for text in row.out_of_range
    ]
    checks = [check_skew_counts, check_aucpr_range, check_ap_min, check_aucnpr]
    if not row.averaged:
        checks[1:1] = [check_achievable]
        checks.append(check_counts)
    for check in checks:
        f = check(row, convention)
        if f is not None:
            out.append(f)
    if not row.averaged:
        out.extend(check_fbeta(row, convention))
    elif {"precision", "recall", "f1", "fbeta"} & row.values.keys():
        out.append(
            Finding(
                "averaged",
                "-",
                False,
                "fold averages: achievable, f1/fbeta and counts do not apply to means",
                checked=False,
            )
        )
    return out


#: The checks whose bound rises with the skew: with a rounded skew the smallest skew of its
#: rounding cell is the favourable one, and every skew above some value flags the row.
SKEW_MONOTONE = ("achievable", "aucpr-range", "ap-min")


def _with_skew(row: Row, value: Fraction) -> Row:
    return dataclasses.replace(row, skew=Printed(value_str(value), value, None))


def skew_rounding_note(row: Row, convention: str, findings: list[Finding]) -> Finding | None:
    """When only the rounding of a printed skew keeps the row consistent: the checks that the
    printed value itself, taken as exact, would flag, and the exact skew from which they flag.

    Parameters
    ----------
    row : Row
        The row.
    convention : str
        The rounding convention.
    findings : list of Finding
        The row's findings.

    Returns
    -------
    Finding or None
        The note, or None when the printed skew taken as exact flags nothing more.

    See Also
    --------
    audit_row

    Examples
    --------
    The consistent row above flags nothing with its skew taken as exactly 1/2 either
    (AUCPR_min(1/2) = 1 - ln 2 = 0.307 < 0.395):

    >>> from prtheory.audit.checks import audit_row, skew_rounding_note
    >>> from prtheory.audit.table import read_text
    >>> row = read_text("aucpr,skew,method\\n0.40,0.5,dg\\n")[0]
    >>> skew_rounding_note(row, "any", audit_row(row).findings) is None
    True
    """
    if row.skew is None or row.skew.exact or row.counts is not None:
        return None
    box = row.skew.interval(convention).clip(ZERO, ONE)
    printed = row.skew.value
    at_printed = [f for f in _findings(_with_skew(row, printed), convention) if f.flagged]
    if not at_printed:
        return None
    names = sorted({f.check for f in at_printed})
    text = (
        f"only the rounding of the skew keeps this row consistent: skew {row.skew.text} stands "
        f"for {box}, and at exactly {value_str(printed)} the {', '.join(names)} check(s) flag it"
    )
    monotone = [n for n in names if n in SKEW_MONOTONE]
    if monotone and box.lo < printed:
        # bisect between the consistent low end of the cell and the flagged printed value
        lo, hi = box.lo, printed

        def flags(v: Fraction) -> bool:
            return any(
                f.flagged and f.check in monotone for f in _findings(_with_skew(row, v), convention)
            )

        if not flags(lo):
            for _ in range(48):
                mid = (lo + hi) / 2
                lo, hi = (lo, mid) if flags(mid) else (mid, hi)
            text += (
                f"; every skew above {float(lo):.6g} (to 6 digits) flags it, so a skew printed "
                f"with more digits would decide"
            )
    return Finding("skew-rounding", "-", False, text, checked=False)


def audit_row(row: Row, convention: str = "any") -> RowResult:
    """Run every applicable check on one row (fold averages skip the per-ranking checks), and say
    when a printed skew's rounding is all that keeps the row consistent.

    Parameters
    ----------
    row : Row
        A parsed row.
    convention : {"any", "half-even", "half-up", "half-down", "truncate"}
        How the printed values were rounded (default ``"any"``).

    Returns
    -------
    RowResult
        The row and its findings.

    See Also
    --------
    audit_rows

    Examples
    --------
    See :func:`audit_rows`.

    >>> from prtheory.audit.checks import audit_row
    >>> from prtheory.audit.table import read_text
    >>> audit_row(read_text("aucpr,skew,method\\n0.10,0.5,dg\\n")[0]).flagged
    True
    """
    result = RowResult(row, _findings(row, convention))
    if not result.flagged:
        note = skew_rounding_note(row, convention, result.findings)
        if note is not None:
            result.findings.append(note)
    return result


def audit_rows(rows: list[Row], convention: str = "any") -> list[RowResult]:
    """:func:`audit_row` of each row.

    Parameters
    ----------
    rows : list of Row
        Parsed rows.
    convention : {"any", "half-even", "half-up", "half-down", "truncate"}
        How the printed values were rounded (default ``"any"``).

    Returns
    -------
    list of RowResult
        One per row.

    See Also
    --------
    audit_row
    prtheory.audit.report.render : the report of the results.

    Examples
    --------
    A skew printed 0.5 stands for [0.45, 0.55]; at pi = 0.45 the least Davis-Goadrich area is
    AUCPR_min = 1 + (0.55/0.45) ln 0.55 = 1 - 0.73069 = 0.26931 (B4), so an AUCPR printed 0.10
    (at most 0.105) is impossible, and 0.40 is not:

    >>> from prtheory.audit.checks import audit_rows
    >>> from prtheory.audit.table import read_text
    >>> results = audit_rows(read_text("id,aucpr,skew,method\\nA,0.10,0.5,dg\\nB,0.40,0.5,dg\\n"))
    >>> [(r.row.id, r.flagged) for r in results]
    [('A', True), ('B', False)]
    >>> results[0].findings[0].bound
    '0.2693103'
    """
    return [audit_row(r, convention) for r in rows]
