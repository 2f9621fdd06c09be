"""Boyd, Santos Costa, Davis & Page (ICML 2012), regenerated: claims B1-B14 (seeds 000, 001).

:func:`report` builds ``reports/boyd2012.md``; the ``figure_*`` functions return the data behind
Figures 1-4 (drawn by :mod:`prtheory.papers.figures`). Every value comes from
:mod:`prtheory.oracle.closed_forms` (exact rationals or mpmath at a certified precision); the
consistency verdicts come from :mod:`prtheory.audit.checks`, the same code as ``prtheory audit``.
The printed tables are read from the package data files ``boyd2012_table2.csv`` and
``boyd2012_table3.csv`` (transcribed from the OCR of seed 000; the OCR reads the table digits
cleanly, only pi is garbled in the captions).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from prtheory.audit.checks import audit_row, implied_skew
from prtheory.audit.images import (
    aucnpr_image,
    aucnpr_real,
    aucpr_min_real,
    fbeta_from_pr,
    implied_aucpr_min,
)
from prtheory.audit.intervals import Interval, round_real, to_mpf, value_str
from prtheory.audit.printed import CONVENTIONS, parse_printed
from prtheory.audit.table import parse_row, read_rows
from prtheory.data.constructed import FIGURE4_F1, FIGURE4_RECALLS, FIGURE4_SKEW
from prtheory.oracle import closed_forms
from prtheory.oracle.rounding import rounded, to_float
from prtheory.papers import data_path
from prtheory.papers.figdata import FigureData
from prtheory.papers.markdown import GENERATED_NOTE, table

__all__ = [
    "FIG4_SKEW",
    "figure_1",
    "figure_2",
    "figure_3",
    "figure_4",
    "figure_4_points",
    "figures",
    "means_row",
    "report",
    "table_1",
]

# ------------------------------------------------------------------------------------------
# Table 1 (B3)

TABLE1_POS, TABLE1_NEG = 100, 200
TABLE1_POINTS = (
    (Fraction(1, 5), Fraction(1, 5)),
    (Fraction(2, 5), Fraction(1, 5)),
    (Fraction(1, 2), Fraction(1, 5)),
    (Fraction(3, 5), Fraction(1, 5)),
)


def table_1() -> list[dict[str, Any]]:
    """The confusion matrix that a (recall, precision) pair forces at pos=100, neg=200 (B3).

    TP = r pos and FP = TP (1 - p)/p follow from the definitions; FN = pos - TP and
    TN = neg - FP. The matrix is valid iff every cell is a non-negative integer; the Theorem 1
    bound at pi = 1/3 (B1) says the same thing without counts.

    Returns
    -------
    list of dict
        Per (recall, precision): the counts, whether they are valid, and the B1 bound.

    See Also
    --------
    figure_1

    Examples
    --------
    r = p = 1/5 at pos = 100, neg = 200: TP = 20, FP = 20 (4/5)/(1/5) = 80, FN = 80, TN = 120;
    the least precision at r = 1/5, pi = 1/3 is (1/15)/(2/3 + 1/15) = 1/11:

    >>> from prtheory.papers.boyd2012 import table_1
    >>> row = table_1()[0]
    >>> [int(row[k]) for k in ("TP", "FP", "FN", "TN")], row["valid"], row["bound"]
    ([20, 80, 80, 120], True, Fraction(1, 11))
    """
    pi = Fraction(TABLE1_POS, TABLE1_POS + TABLE1_NEG)
    out = []
    for r, p in TABLE1_POINTS:
        tp = r * TABLE1_POS
        fp = tp * (1 - p) / p
        cells = {"TP": tp, "FP": fp, "FN": TABLE1_POS - tp, "TN": TABLE1_NEG - fp}
        valid = all(v >= 0 and v.denominator == 1 for v in cells.values())
        bound = closed_forms.min_precision(r, pi)
        out.append({"r": r, "p": p, **cells, "valid": valid, "bound": bound})
    return out


# ------------------------------------------------------------------------------------------
# Table 3 (B13) and Table 2 (B12)


def _table3_rows():
    return read_rows(data_path("boyd2012_table3.csv"))


def _table2_rows():
    return read_rows(data_path("boyd2012_table2.csv"))


def _aucnpr_cells(row, convention: str = "any") -> dict[str, Any]:
    """Recomputation of one printed (AUCPR, AUCNPR) cell at an exact skew."""
    pi = row.skew.value
    x = row.values["aucpr"]
    y = row.values["aucnpr"]
    centre = aucnpr_real(x.value, pi)
    image = aucnpr_image(x.interval(convention).clip(Fraction(0), Fraction(1)), Interval.point(pi))
    box = y.interval(convention)
    return {
        "pi": pi,
        "min": aucpr_min_real(pi),
        "centre": centre,
        "rounded": round_real(centre, 3),
        "image": image,
        "box": box,
        "consistent": image.meets(box),
    }


def _table3_md() -> str:
    rows = []
    findings = []
    for row in _table3_rows():
        ratio, test_set = row.id.split(" ")
        c = _aucnpr_cells(row)
        printed_y = row.values["aucnpr"]
        same = Fraction(c["rounded"]) == printed_y.value
        verdict = "consistent" if c["consistent"] else "**inconsistent**"
        if c["consistent"] and not same:
            verdict += " (only through rounding)"
            findings.append(
                f"- {ratio} {test_set}: the printed AUCPR {row.values['aucpr'].text} recomputes to "
                f"AUCNPR {value_str(c['centre'], 6)}, which prints as {c['rounded']}, not the "
                f"printed {row.values['aucnpr'].text}; but every AUCPR in "
                f"{row.values['aucpr'].interval('any')} maps into {c['image']}, which meets "
                f"{c['box']}, so the printed pair is consistent (the AUCPR behind it was at the "
                f"{'upper' if Fraction(c['rounded']) < printed_y.value else 'lower'} end of its "
                "rounding interval)."
            )
        rows.append(
            [
                ratio,
                test_set,
                value_str(c["pi"], 6),
                value_str(c["min"], 6),
                row.values["aucpr"].text,
                row.values["aucnpr"].text,
                value_str(c["centre"], 6),
                c["rounded"],
                str(c["image"]),
                verdict,
            ]
        )
    head = [
        "ratio",
        "test set",
        "pi",
        "AUCPR_min",
        "AUCPR (printed)",
        "AUCNPR (printed)",
        "AUCNPR from printed AUCPR",
        "rounds to",
        "AUCNPR over the AUCPR interval",
        "verdict",
    ]
    text = table(head, rows, "llrrrrrrll")
    text += (
        "\n\nA cell is *consistent* iff some AUCPR that prints as the printed AUCPR gives an AUCNPR "
        "that prints as the printed AUCNPR. AUCNPR is increasing in AUCPR at a fixed skew, so the "
        "set of such AUCNPR is the interval between the images of the AUCPR interval's ends; the "
        "cell is consistent iff that interval meets the printed AUCNPR's rounding interval. The "
        "image ends are transcendental and the rounding bounds rational, so they never coincide "
        "and the verdicts are the same under every round-half rule (half-even, half-up, "
        "half-down); every comparison is certified by evaluating the oracle at increasing "
        "precision.\n\n"
    )
    n_bad = sum(r[-1].startswith("**") for r in rows)
    text += (
        f"**Findings.** {len(rows) - n_bad} of {len(rows)} cells are consistent"
        + (f"; {n_bad} are not." if n_bad else "; none is inconsistent.")
        + f" In {len(findings)} cells the AUCNPR recomputed from the printed AUCPR prints differently "
        "from the published one; rounding explains each of them:\n\n" + "\n".join(findings)
    )
    return text


def means_row() -> dict[str, Any]:
    """The MEAN row of Table 2 recomputed from the printed per-predicate values (B12).

    Returns
    -------
    dict of str to dict
        Per column: the printed mean, the exact mean of the printed values, the range of the true
        mean, and whether each rounding convention reproduces the print.

    See Also
    --------
    report

    Examples
    --------
    The printed AUCPR mean 0.733 against the mean 11/15 = 0.7333... of the printed values:

    >>> from prtheory.papers.boyd2012 import means_row
    >>> row = means_row()["aucpr"]
    >>> row["printed"].text, row["mean"]
    ('0.733', Fraction(11, 15))
    """
    rows = _table2_rows()
    out = {}
    for name, printed in (("aucpr", "0.733"), ("aucnpr", "0.680")):
        values = [r.values[name] for r in rows]
        mean = sum(v.value for v in values) / len(values)
        lo = sum(v.interval("any").clip(Fraction(0), Fraction(1)).lo for v in values) / len(values)
        hi = sum(v.interval("any").clip(Fraction(0), Fraction(1)).hi for v in values) / len(values)
        p = parse_printed(printed, name)
        out[name] = {
            "printed": p,
            "mean": mean,
            "true_mean_range": Interval(lo, hi),
            "by_convention": {c: p.interval(c).contains(mean) for c in CONVENTIONS},
            "range_by_convention": {c: p.interval(c).meets(Interval(lo, hi)) for c in CONVENTIONS},
        }
    return out


# The skews the text gives for two predicates (000, Section 4.2): B10, B12.
TEXT_SKEWS = {"gender": Fraction(1, 2), "genre": Fraction(1, 20)}


def _table2_md() -> str:
    rows = []
    implied = {}
    for row in _table2_rows():
        m = implied_aucpr_min(row.box("aucpr", "any"), row.box("aucnpr", "any"))
        if m is None:  # the published pairs all fit some skew; a change to the data must not pass
            raise ValueError(f"Table 2, {row.id}: no skew fits the printed AUCPR and AUCNPR")
        skews = implied_skew(m)
        implied[row.id] = Interval(
            Fraction(round_real(skews.lo, 3)), Fraction(round_real(skews.hi, 3))
        )
        at_text = ""
        if row.id in TEXT_SKEWS:
            pi = TEXT_SKEWS[row.id]
            image = aucnpr_image(row.box("aucpr", "any"), Interval.point(pi))
            ok = image.meets(row.values["aucnpr"].interval("any"))
            at_text = f"at the text's pi = {value_str(pi)}: AUCNPR in {image}, " + (
                "consistent" if ok else "**inconsistent** with the printed value"
            )
        informative = not (m.lo == 0 and m.hi == 1)
        rows.append(
            [
                row.id,
                row.values["aucpr"].text,
                row.values["aucnpr"].text,
                str(m) if informative else "any",
                str(skews) if informative else "any (AUCPR = AUCNPR = 1 fits every skew)",
                at_text,
            ]
        )
    head = [
        "predicate",
        "AUCPR",
        "AUCNPR",
        "implied AUCPR_min",
        "implied skew pi",
        "check at the text's skew",
    ]
    text = table(head, rows, "lrrlll")
    mr = means_row()
    a, n = mr["aucpr"], mr["aucnpr"]
    text += "\n\n**The MEAN row.** "
    text += (
        f"The mean of the printed AUCPR values is {value_str(a['mean'], 8)} (prints as "
        f"{round_real(a['mean'], 3)}; published {a['printed'].text}). The mean of the printed AUCNPR "
        f"values is {_frac(n['mean'])} = {value_str(n['mean'])} *exactly*, a rounding midpoint: it "
        "prints as 0.680 under round-half-even and round-half-up, but as 0.679 under round-half-down "
        "or truncation ("
        + ", ".join(
            f"{c}: {'0.680' if ok else 'not 0.680'}" for c, ok in n["by_convention"].items()
        )
        + "). Since the per-predicate values are themselves rounded, the true mean lies anywhere in "
        f"{n['true_mean_range']}; it meets the set of values that print as 0.680 under "
        + ", ".join(c for c, ok in n["range_by_convention"].items() if ok)
        + ", but not under "
        + (", ".join(c for c, ok in n["range_by_convention"].items() if not ok) or "none")
        + ". The published means are consistent with any round-to-nearest rule; truncation "
        "is ruled out.\n\n"
    )
    text += (
        "**Implied skews.** The paper prints no skews, but each (AUCPR, AUCNPR) pair determines "
        "AUCPR_min: from AUCNPR = (AUCPR - m)/(1 - m), m = (AUCPR - AUCNPR)/(1 - AUCNPR), which is "
        "increasing in AUCPR and decreasing in AUCNPR, so over the two rounding intervals m ranges "
        "between the corner values; AUCPR_min is increasing in pi (B5), so the skew interval is the "
        "image of the m interval under the oracle's inverse `skew_from_aucpr_min`.\n\n"
        "*Plausibility against the text.* The text (Section 4.2) says gender has a skew close to "
        f"0.5 and genre closer to 0.05. The gender pair implies pi in {implied['gender']} and the "
        f"genre pair pi in {implied['genre']}: both near the text's description, but neither pair "
        "is consistent "
        "with the text's round skew taken literally (last column). That is expected and not an "
        "error in the table: the caption says these are *average* AUCPR and AUCNPR scores, i.e. "
        "averaged over cross-validation folds (or runs). AUCNPR is an affine function of AUCPR "
        "only at a fixed skew; when the folds' skews differ, the mean AUCNPR is not the AUCNPR of "
        "the mean AUCPR at any single skew, so fold-averaged values need not satisfy the formula "
        "exactly, and the implied skew is a weighted summary of the folds' skews, not a measured "
        "one. The predicates with AUCPR = AUCNPR = 1.000 carry no skew information. movie implies "
        f"pi in {implied['movie']}; the text does not give its skew. The overall IMDB skew of 0.06 (B10) needs "
        "the per-predicate counts, which are not published: out of reach."
    )
    return text


def _frac(q: Fraction) -> str:
    return f"{q.numerator}/{q.denominator}"


# ------------------------------------------------------------------------------------------
# Mammography (B11) and the numbers in the text (B10)

MAMMOGRAPHY = (
    # (label, exact skew, AUCPR, AUCPR_min, AUCNPR as the slides print them) -- seed 001
    ("120:1 (slides: pi = 0.008)", Fraction(1, 125), "0.545", "0.004", "0.543"),
    ("120:1 exactly (pi = 1/121)", Fraction(1, 121), "0.545", "0.004", "0.543"),
    ("1:1 (pi = 0.5)", Fraction(1, 2), "0.965", "0.307", "0.950"),
)


def _mammography_md() -> str:
    rows = []
    for label, pi, auc, mn, npr in MAMMOGRAPHY:
        m = aucpr_min_real(pi)
        row = parse_row(
            {
                "id": label,
                "skew": f"{pi.numerator}:{pi.denominator - pi.numerator}",
                "aucpr": auc,
                "aucnpr": npr,
            },
            label,
        )
        verdict = audit_row(row)
        ok = not verdict.flagged
        x = parse_printed(auc, "aucpr")
        rows.append(
            [
                label,
                value_str(pi, 6),
                value_str(m, 6),
                round_real(m, 3),
                mn,
                value_str(aucnpr_real(x.value, pi), 6),
                round_real(aucnpr_real(x.value, pi), 3),
                npr,
                "consistent" if ok else "**inconsistent**",
            ]
        )
    head = [
        "data set",
        "pi",
        "AUCPR_min",
        "rounds to",
        "slides",
        "AUCNPR from AUCPR",
        "rounds to",
        "slides",
        "AUCNPR vs AUCPR interval",
    ]
    half = aucnpr_real(Fraction(965, 1000), Fraction(1, 2))
    margin = to_mpf(half, 30) - to_mpf(Fraction(9495, 10000), 30)
    return table(head, rows, "lrrrrrrrl") + (
        "\n\nThe slides give the mammography skew as both 120:1 and pi = 0.008; 120:1 is "
        "pi = 1/121 = 0.00826. Both readings reproduce the printed AUCPR_min 0.004 and AUCNPR "
        "0.543 (B11 holds). At pi = 0.5, AUCPR_min = 1 - ln 2. The AUCNPR 0.950 recomputes to "
        f"{value_str(half, 9)}, only {_mp(margin, 2)} above the rounding midpoint 0.9495; an "
        "irrational value is never on a midpoint, so it prints as 0.950 under every "
        "round-to-nearest rule."
    )


def _text_numbers_md() -> str:
    m = {
        pi: aucpr_min_real(pi)
        for pi in (Fraction(1, 100), Fraction(1, 10), Fraction(1, 20), Fraction(1, 2))
    }
    jump = closed_forms.aucpr_min(Fraction(1, 2), dps=30) - closed_forms.aucpr_min(
        Fraction(1, 100), dps=30
    )
    cut = closed_forms.skew_from_aucpr_min(Fraction(1, 40), dps=30)
    neg_norm = (Fraction(2, 5) - Fraction(1, 2)) / (1 - Fraction(1, 2))
    genre_04 = aucnpr_real(Fraction(2, 5), Fraction(1, 20))
    rows = [
        [
            "B10",
            "skew 0.01 -> 0.5 raises AUCPR_min by about 0.3",
            f"AUCPR_min(0.5) - AUCPR_min(0.01) = {value_str(m[Fraction(1, 2)], 6)} - {value_str(m[Fraction(1, 100)], 6)} = {_mp(jump, 6)}",
            "holds (0.30 to 2 places)",
        ],
        [
            "B10",
            "at pi = 0.1, AUCPR_min is about 0.05",
            f"AUCPR_min(0.1) = {value_str(m[Fraction(1, 10)], 6)}",
            "holds",
        ],
        [
            "B10",
            "gender (pi about 0.5): range [0.31, 1.0]",
            f"AUCPR_min(0.5) = 1 - ln 2 = {value_str(m[Fraction(1, 2)], 6)}",
            "holds",
        ],
        [
            "B10",
            "genre (pi about 0.05): range [0.02, 1.0]",
            f"AUCPR_min(0.05) = {value_str(m[Fraction(1, 20)], 6)}, which rounds to 0.03; it is below 0.025 only for pi < {_mp(cut, 6)}",
            f"holds as corrected: 0.03 at pi = 0.05 (0.02 needs truncation, or pi < {_mp(cut, 3)})",
        ],
        [
            "B10",
            "overall IMDB skew 0.06",
            "needs the per-predicate counts (not published)",
            "out of reach",
        ],
        [
            "B9",
            "normalising by random guessing can be negative",
            f"gender, AUCPR 0.4 at pi = 0.5: (AUCPR - pi)/(1 - pi) = {value_str(neg_norm)}",
            "holds",
        ],
        [
            "B10",
            "AUCPR 0.4 is worse than random for gender, reasonably high for genre",
            f"random guessing has AUCPR = pi = 0.5 > 0.4 for gender; for genre (pi = 0.05) AUCNPR(0.4) = {value_str(genre_04, 6)}",
            "holds",
        ],
    ]
    return table(["claim", "the text says", "recomputed", "verdict"], rows, "llll")


def _mp(x: mpmath.mpf, digits: int) -> str:
    return mpmath.nstr(x, digits)


def _ap_min_md() -> str:
    pi = Fraction(1, 3)
    m = aucpr_min_real(pi)
    rows = []
    for pos in (1, 2, 10, 100, 1000, 10000):
        ap = closed_forms.ap_min(pos, 2 * pos, exact=True)
        rows.append([pos, 2 * pos, value_str(ap, 8), value_str(m, 8)])
    return table(["pos", "neg", "AP_min (exact, B6)", "AUCPR_min(1/3) (B4)"], rows) + (
        "\n\nAt a fixed skew pi = 1/3, AP_min depends on pos (B6) and decreases towards AUCPR_min as "
        "pos grows: AP_min is a right Riemann sum of the increasing Theorem 1 bound."
    )


# ------------------------------------------------------------------------------------------
# Figure 4 (B14): F1 = 0.45 at pi = 0.33

FIG4_SKEW = FIGURE4_SKEW
FIG4_F1 = FIGURE4_F1


def figure_4_points() -> dict[str, tuple[Fraction, Fraction]]:
    """Points A, B, C on the F1 = 0.45 contour, as the proof of B14 places them
    (:data:`prtheory.data.constructed.FIGURE4_RECALLS`).

    On the contour, p = F r/(2r - F). A (r = 0.95) lies below the minimum PR curve at pi = 0.33
    (unachievable); B (r = 0.8) lies just above it; C (r = 0.3, p = 0.9) has good precision at
    modest recall.

    Returns
    -------
    dict of str to (Fraction, Fraction)
        Each point's (recall, precision).

    See Also
    --------
    figure_4

    Examples
    --------
    A at r = 19/20 on F1 = 9/20: p = F r/(2r - F) = (171/400)/(29/20) = 171/580:

    >>> from prtheory.papers.boyd2012 import figure_4_points
    >>> figure_4_points()["A"]
    (Fraction(19, 20), Fraction(171, 580))
    """
    out = {}
    for name, r in FIGURE4_RECALLS.items():
        p = FIG4_F1 * r / (2 * r - FIG4_F1)
        out[name] = (r, p)
    return out


def _figure4_md() -> str:
    rows = []
    for name, (r, p) in figure_4_points().items():
        bound = closed_forms.min_precision(r, FIG4_SKEW)
        rows.append(
            [
                name,
                value_str(r),
                value_str(p, 6),
                value_str(fbeta_from_pr(p, r, 1)),
                value_str(bound, 6),
                value_str(p - bound, 4),
                "achievable" if p >= bound else "**unachievable**",
            ]
        )
    # where the contour meets the random-guessing precision pi
    r_at_pi = FIG4_F1 * FIG4_SKEW / (2 * FIG4_SKEW - FIG4_F1)
    gap_at_pi = FIG4_SKEW - closed_forms.min_precision(r_at_pi, FIG4_SKEW)
    baseline = fbeta_from_pr(FIG4_SKEW, Fraction(1), 1)
    return table(
        ["point", "recall", "precision", "F1", "minimum precision at pi = 0.33", "margin", ""],
        rows,
        "lrrrrrl",
    ) + (
        f"\n\nB14 holds: the F1 = 0.45 contour crosses the minimum PR curve, so some of its points "
        f"(A) are unachievable and others (B, C) achievable. Two remarks. (1) The text calls B "
        f'"only marginally better than random guessing"; a point this close to the minimum '
        f"curve has precision below pi = 0.33, i.e. below random guessing's precision. The contour "
        f"reaches precision pi at recall {value_str(r_at_pi, 6)}, where it is already "
        f"{value_str(gap_at_pi, 4)} above the minimum curve. (2) F1 = 0.45 is below the "
        f"always-positive classifier's F1 = 2 pi/(1 + pi) = {value_str(baseline, 6)} at this skew "
        f"(Flach & Kull's baseline, F3), so all three points lose to that trivial classifier."
    )


# ------------------------------------------------------------------------------------------
# figures


def _grid(n: int = 201) -> list[Fraction]:
    return [Fraction(i, n - 1) for i in range(n)]


def _min_curve(pi: Fraction, grid: list[Fraction]) -> np.ndarray:
    return np.array([to_float(closed_forms.min_precision(r, pi)) for r in grid])


def figure_1() -> FigureData:
    """Figure 1: the minimum PR curve and random guessing at pi = 1/3 (B1, B2, B9).

    Returns
    -------
    FigureData
        Recall, the minimum precision and random guessing's precision.

    See Also
    --------
    figure_2, figures

    Examples
    --------
    At recall 1 the least precision is pi r/(1 - pi + pi r) = pi = 1/3 (B1):

    >>> from prtheory.papers.boyd2012 import figure_1
    >>> d = figure_1()
    >>> d.meta, float(d.arrays["recall"][-1]), float(d.arrays["min_precision"][-1])
    ({'pi': '1/3'}, 1.0, 0.3333333333333333)
    """
    pi = Fraction(1, 3)
    grid = _grid()
    return FigureData(
        "boyd2012_fig1",
        "Minimum PR curve and random guessing, pi = 1/3",
        {
            "recall": np.array([float(r) for r in grid]),
            "min_precision": _min_curve(pi, grid),
            "random_precision": np.full(len(grid), to_float(closed_forms.random_aucpr(pi))),
        },
        {"pi": str(pi)},
    )


FIG2_SKEWS = (
    Fraction(1, 20),
    Fraction(1, 10),
    Fraction(1, 5),
    Fraction(1, 3),
    Fraction(1, 2),
    Fraction(7, 10),
    Fraction(9, 10),
)


def figure_2() -> FigureData:
    """Figure 2: minimum PR curves for several skews (B1, B2).

    Returns
    -------
    FigureData
        Recall and one minimum precision curve per skew.

    See Also
    --------
    figure_1

    Examples
    --------
    >>> from prtheory.papers.boyd2012 import figure_2
    >>> sorted(figure_2().arrays)[:3]
    ['pi=1/10', 'pi=1/2', 'pi=1/20']
    """
    grid = _grid()
    arrays = {"recall": np.array([float(r) for r in grid])}
    for pi in FIG2_SKEWS:
        arrays[f"pi={pi}"] = _min_curve(pi, grid)
    return FigureData(
        "boyd2012_fig2",
        "Minimum PR curves for several skews",
        arrays,
        {"skews": [str(p) for p in FIG2_SKEWS]},
    )


FIG3_RANGES = (
    (Fraction(0), Fraction(1)),
    (Fraction(1, 2), Fraction(1)),
    (Fraction(4, 5), Fraction(1)),
)


def figure_3() -> FigureData:
    """Figure 3: AUCPR_min against skew over recalls [0,1], [0.5,1], [0.8,1]; raw and / AUCPR_max (B7).

    Returns
    -------
    FigureData
        The skews and AUCPR_min over three recall ranges, raw and divided by their maximum.

    See Also
    --------
    figure_1

    Examples
    --------
    At pi = 1/2 over [0, 1], AUCPR_min = 1 - ln 2 = 0.3068528194400546906 (B4):

    >>> from prtheory.papers.boyd2012 import figure_3
    >>> d = figure_3()
    >>> float(d.arrays["pi"][49]), float(d.arrays["[0,1]"][49])
    (0.5, 0.3068528194400547)
    """
    skews = [Fraction(i, 100) for i in range(1, 100)]
    arrays = {"pi": np.array([float(p) for p in skews])}
    for a, b in FIG3_RANGES:
        vals = np.array([rounded(closed_forms.aucpr_min, pi, a, b) for pi in skews])
        top = to_float(closed_forms.aucpr_max(a, b))
        arrays[f"[{a},{b}]"] = vals
        arrays[f"[{a},{b}]/max"] = vals / top
    return FigureData(
        "boyd2012_fig3",
        "Minimum AUCPR over restricted recall ranges",
        arrays,
        {"ranges": [[str(a), str(b)] for a, b in FIG3_RANGES]},
    )


def figure_4() -> FigureData:
    """Figure 4: F1 contours over PR space at pi = 0.33, unachievable region, points A, B, C (B14).

    Returns
    -------
    FigureData
        The F1 grid, the minimum precision curve at pi = 0.33 and the points A, B, C.

    See Also
    --------
    figure_4_points

    Examples
    --------
    >>> from prtheory.papers.boyd2012 import figure_4
    >>> d = figure_4()
    >>> d.meta["labels"], d.arrays["points"].shape
    (['A', 'B', 'C'], (3, 2))
    """
    n = 121
    axis = np.linspace(0.0, 1.0, n)
    axis_q = [Fraction(i, n - 1) for i in range(n)]
    f1 = np.array([[to_float(fbeta_from_pr(p, r, 1)) for r in axis_q] for p in axis_q])
    grid = _grid()
    pts = figure_4_points()
    return FigureData(
        "boyd2012_fig4",
        "F1 contours at pi = 0.33",
        {
            "axis": axis,
            "f1": f1,
            "recall": np.array([float(r) for r in grid]),
            "min_precision": _min_curve(FIG4_SKEW, grid),
            "points": np.array([[float(r), float(p)] for r, p in pts.values()]),
        },
        {"pi": str(FIG4_SKEW), "f1_level": str(FIG4_F1), "labels": list(pts)},
    )


def figures() -> list[FigureData]:
    """Every figure of the paper: Figures 1 to 4.

    Returns
    -------
    list of FigureData
        Figures 1 to 4.

    See Also
    --------
    prtheory.papers.outputs.figure_data : every paper's figures.

    Examples
    --------
    >>> from prtheory.papers.boyd2012 import figures
    >>> [d.name for d in figures()]
    ['boyd2012_fig1', 'boyd2012_fig2', 'boyd2012_fig3', 'boyd2012_fig4']
    """
    return [figure_1(), figure_2(), figure_3(), figure_4()]


# ------------------------------------------------------------------------------------------
# the report


def _table1_md() -> str:
    rows = []
    for t in table_1():
        rows.append(
            [
                value_str(t["r"]),
                value_str(t["p"]),
                *(value_str(t[k]) for k in ("TP", "FP", "FN", "TN")),
                value_str(t["bound"], 6),
                "valid" if t["valid"] else "**invalid** (TN < 0)",
            ]
        )
    return table(
        ["recall", "precision", "TP", "FP", "FN", "TN", "Theorem 1 bound at pi = 1/3", "matrix"],
        rows,
        "rrrrrrrl",
    ) + (
        "\n\nB3 holds. The paper prints (a) TP=20, FP=80, FN=80, TN=120 and (b) TP=60, FP=240, "
        "FN=40, TN=-40; the slides add r = 0.4 (TP=40, FP=160, FN=60, TN=40). Precision 0.2 is "
        "achievable exactly while it is at least the Theorem 1 bound, i.e. up to recall 0.5, where "
        "every negative is a false positive (TN = 0)."
    )


def report() -> str:
    """The Markdown text of ``reports/boyd2012.md``.

    Returns
    -------
    str
        The Markdown page.

    See Also
    --------
    prtheory.papers.outputs.write_tables : writes it.

    Examples
    --------
    >>> from prtheory.papers.boyd2012 import report
    >>> report().startswith("<!-- generated by `prtheory tables`")
    True
    """
    parts = [
        GENERATED_NOTE,
        "# Boyd, Santos Costa, Davis & Page (ICML 2012), regenerated",
        "*Unachievable Region in Precision-Recall Space and Its Effect on Empirical Evaluation.* "
        "Claims B1-B16 of CLAIMS.md; numbers from `prtheory.oracle` (exact rationals, or mpmath "
        "with certified comparisons). Printed values are checked for consistency *under their "
        "rounding*, never for equality.",
        "## Table 1: valid and invalid confusion matrices (B3)\n\npos = 100, neg = 200, precision held at 0.2.\n\n"
        + _table1_md(),
        "## Table 3: UW-CSE advisedBy, AUCNPR recomputed from AUCPR (B13)\n\n"
        "Ratio 1:k means pi = 1/(1+k); the original test set is 1:24 (pi = 0.04). "
        "Data: `prtheory/data/boyd2012_table3.csv` (also an example input of "
        "`prtheory audit`).\n\n" + _table3_md(),
        "## Table 2: IMDB predicates, implied skews and the means row (B12)\n\n"
        "Data: `prtheory/data/boyd2012_table2.csv`.\n\n" + _table2_md(),
        "## Mammography (slides; B11)\n\n" + _mammography_md(),
        "## Numbers in the text (B9, B10)\n\n" + _text_numbers_md(),
        "## AP_min depends on pos, not only on pi (B6)\n\n" + _ap_min_md(),
        "## Figure 4: F1 = 0.45 at pi = 0.33 (B14)\n\n" + _figure4_md(),
        "## Figures\n\n"
        "- `figures/boyd2012_fig1.png`: Figure 1, the minimum PR curve (the worst ranking's "
        "interpolated curve, B2) and random guessing at pi = 1/3, unachievable region shaded.\n"
        "- `figures/boyd2012_fig2.png`: Figure 2, minimum PR curves for pi in "
        + ", ".join(value_str(p, 3) for p in FIG2_SKEWS)
        + ".\n"
        "- `figures/boyd2012_fig3.png`: Figure 3, (a) AUCPR_min against pi over recalls [0, 1], "
        "[0.5, 1] and [0.8, 1] (Corollary 4, B7); (b) the same divided by AUCPR_max = b - a.\n"
        "- `figures/boyd2012_fig4.png`: Figure 4, F1 contours over PR space at pi = 0.33 with the "
        "unachievable region shaded and points A, B, C on the F1 = 0.45 contour.",
    ]
    return "\n\n".join(parts) + "\n"
