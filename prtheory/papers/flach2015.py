"""Flach & Kull (NeurIPS 2015), regenerated: claims F3, F6, F8-F11, F13 (seed 002).

The paper's running example and its OpenML predictions are not published with the text, so:

* Figure 2 is redrawn for a constructed ranking (:data:`EXAMPLE`, 10 positives among 30 items):
  its PR curve with F1 isometrics and the always-positive baseline, and its PRG curve with the
  straight F1 isometrics, the minor-diagonal baseline and the convex hull;
* Figure 3's calibration arithmetic (F11) is checked from the printed scores alone, and the
  F-calibration of Theorem 4 (F10) is shown on the constructed ranking;
* Section 4's disagreement (F13; 886 OpenML tasks, out of reach) is shown by its mechanism: two
  constructed rankings (:data:`PAIR`) on which AUPR and AUPRG order the models differently,
  because AUPR counts the part of the curve with recall below pi and AUPRG does not.

Every value comes from :mod:`prtheory.oracle` (curves, areas, PRG areas, point metrics).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from prtheory.audit.images import fbeta_from_pr
from prtheory.audit.intervals import Interval, round_real, to_mpf, value_str
from prtheory.audit.printed import parse_printed
from prtheory.data.constructed import FLACH2015_PAIR
from prtheory.oracle import points
from prtheory.oracle.ap import average_precision
from prtheory.oracle.areas import pr_auc
from prtheory.oracle.curves import pr_curve, prg_convex_hull, prg_curve
from prtheory.oracle.prg import auprg, expected_fg1, f_calibrated_scores
from prtheory.oracle.rounding import to_float
from prtheory.papers.figdata import FigureData
from prtheory.papers.markdown import GENERATED_NOTE, table

__all__ = ["EXAMPLE", "PAIR", "figure_2", "figure_pair", "figures", "pair_summary", "report"]

#: A ranking, best score first (labels in decreasing-score order): 10 positives, 20 negatives.
EXAMPLE = (1, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1,
           0, 0, 0, 0, 1, 0, 0, 0, 0, 0)  # fmt: skip

#: The constructed pair of F13 (one definition for the proof and this report).
PAIR = FLACH2015_PAIR

F1_LEVELS = (Fraction(3, 5), Fraction(7, 10), Fraction(4, 5), Fraction(9, 10))


def _scores(labels) -> list[int]:
    """Strictly decreasing scores, so the ranking is exactly the label order (no ties)."""
    return list(range(len(labels), 0, -1))


def _skew(labels) -> Fraction:
    return Fraction(sum(labels), len(labels))


def _dg_path(labels, per_segment: int = 12) -> tuple[np.ndarray, np.ndarray]:
    """The PR curve drawn with Davis-Goadrich interpolation between operating points.

    Between consecutive contingency tables, TP and FP move linearly together (the interpolation
    of the tables); each interpolated table's precision and recall come from the oracle. The
    curve starts at the first operating point's precision at recall 0 (``"spark"``).
    """
    curve = pr_curve(labels, _scores(labels), first_point="spark")
    pos = curve.pos
    rs, ps = [to_float(curve.recall[0])], [to_float(curve.precision[0])]
    prev = (0, 0)
    # the counts after the prepended first point (which is no table: None)
    for tp, fp in zip(curve.tp.values.tolist(), curve.fp.values.tolist(), strict=True):
        for j in range(1, per_segment + 1):
            lam = Fraction(j, per_segment)
            t = prev[0] + lam * (tp - prev[0])
            f = prev[1] + lam * (fp - prev[1])
            if t == 0:
                continue
            rs.append(to_float(points.recall(t, pos - t)))
            ps.append(to_float(points.precision(t, f)))
        prev = (tp, fp)
    return np.array(rs), np.array(ps)


def _prg_points(labels) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    curve = prg_curve(labels, _scores(labels))
    hull = prg_convex_hull(curve)
    rg = np.array([to_float(v) for v in curve.recall_gain])
    pg = np.array([to_float(v) for v in curve.precision_gain])
    return rg, pg, np.array(hull, dtype=np.int64)


def _f1_gain_of(level: Fraction, pi: Fraction) -> Fraction:
    """FG1 of any point with F1 = ``level`` (F8), through the oracle's fbeta_gain.

    The confusion matrix with precision = recall = level at skew pi (pos = pi, neg = 1 - pi,
    scaled counts) has F1 = level; FG1 depends on F1 and pi only.
    """
    tp = level * pi
    fp = tp * (1 - level) / level
    return points.fbeta_gain(tp, fp, pi - tp, (1 - pi) - fp)


def figure_2() -> FigureData:
    """Figure 2: PR curve with F1 isometrics and baseline; PRG curve with straight isometrics.

    Returns
    -------
    FigureData
        The PR curve with F1 isometrics and the PRG curve with its hull.

    See Also
    --------
    figure_pair

    Examples
    --------
    >>> from prtheory.papers.flach2015 import figure_2
    >>> d = figure_2()
    >>> d.name, "prg_recall_gain" in d.arrays
    ('flach2015_fig2', True)
    """
    labels = EXAMPLE
    pi = _skew(labels)
    r, p = _dg_path(labels)
    rg, pg, hull = _prg_points(labels)
    n = 101
    axis_q = [Fraction(i, n - 1) for i in range(n)]
    f1 = np.array([[to_float(fbeta_from_pr(pp, rr, 1)) for rr in axis_q] for pp in axis_q])
    baseline = fbeta_from_pr(pi, Fraction(1), 1)  # always-positive classifier (F3)
    ops = pr_curve(labels, _scores(labels))
    return FigureData(
        "flach2015_fig2",
        "PR and PRG curves of the constructed example",
        {
            "pr_recall": r,
            "pr_precision": p,
            "op_recall": np.array([to_float(v) for v in ops.recall]),
            "op_precision": np.array([to_float(v) for v in ops.precision]),
            "axis": np.linspace(0, 1, n),
            "f1": f1,
            "prg_recall_gain": rg,
            "prg_precision_gain": pg,
            "hull": hull,
            "fg1_levels": np.array([to_float(_f1_gain_of(c, pi)) for c in F1_LEVELS]),
        },
        {
            "pi": str(pi),
            "f1_levels": [str(c) for c in F1_LEVELS],
            "baseline_f1": str(baseline),
            "baseline_fg1": str(_f1_gain_of(baseline, pi)),
        },
    )


def pair_summary() -> dict[str, dict[str, Any]]:
    """AP, AUPR (DG and trapezoid), AUPR split at recall pi, AUPRG and E[FG1] of each model.

    Returns
    -------
    dict of str to dict
        Per model, its areas and expected F1 gain.

    See Also
    --------
    figure_pair

    Examples
    --------
    Clipping negative precision gains can only raise the area: model A, whose curve dips below
    precG 0, gains; model B, whose curve does not, is unchanged:

    >>> from prtheory.papers.flach2015 import pair_summary
    >>> s = pair_summary()
    >>> s["A"]["auprg_unit"] > s["A"]["auprg_signed"], s["B"]["auprg_unit"] == s["B"]["auprg_signed"]
    (True, True)
    """
    out = {}
    for name, labels in PAIR.items():
        s = _scores(labels)
        pi = _skew(labels)
        out[name] = {
            "pi": pi,
            "ap": average_precision(labels, s),
            "aupr_dg": pr_auc(labels, s, method="davis-goadrich", first_point="spark"),
            "aupr_trapezoid": pr_auc(labels, s, method="trapezoid", first_point="spark"),
            "aupr_below_pi": pr_auc(
                labels, s, method="davis-goadrich", first_point="spark", a=0, b=pi
            ),
            "aupr_above_pi": pr_auc(
                labels, s, method="davis-goadrich", first_point="spark", a=pi, b=1
            ),
            "auprg_signed": auprg(labels, s, negative_gain="signed"),
            "auprg_unit": auprg(labels, s, negative_gain="unit-square"),
            "e_fg1": expected_fg1(labels, s),
        }
    return out


def figure_pair() -> FigureData:
    """The constructed pair: PR curves (left) and PRG curves (right), as in the paper's Figure 5.

    Returns
    -------
    FigureData
        Both models' PR and PRG curves.

    See Also
    --------
    pair_summary

    Examples
    --------
    >>> from prtheory.papers.flach2015 import figure_pair
    >>> figure_pair().meta["pi"]
    '5/12'
    """
    arrays: dict[str, np.ndarray] = {}
    for name, labels in PAIR.items():
        r, p = _dg_path(labels)
        rg, pg, _ = _prg_points(labels)
        arrays |= {f"{name}_recall": r, f"{name}_precision": p, f"{name}_rg": rg, f"{name}_pg": pg}
    summary = pair_summary()
    return FigureData(
        "flach2015_pair",
        "AUPR and AUPRG disagree on a constructed pair",
        arrays,
        {
            "pi": str(_skew(PAIR["A"])),
            "aupr": {k: round_real(v["aupr_dg"], 3) for k, v in summary.items()},
            "auprg": {k: round_real(v["auprg_signed"], 3) for k, v in summary.items()},
        },
    )


def figures() -> list[FigureData]:
    """Every figure of the paper: Figure 2 and the constructed pair.

    Returns
    -------
    list of FigureData
        The paper's figures.

    See Also
    --------
    prtheory.papers.outputs.figure_data

    Examples
    --------
    >>> from prtheory.papers.flach2015 import figures
    >>> [d.name for d in figures()]
    ['flach2015_fig2', 'flach2015_pair']
    """
    return [figure_2(), figure_pair()]


# ------------------------------------------------------------------------------------------
# report


def _f11_md() -> str:
    rows = []
    for score, printed in (("0.76", "0.32"), ("0.49", "1.04")):
        d = parse_printed(score, "d")
        beta2 = (1 - d.value) / d.value  # Theorem 4 (F10): d = 1/(beta^2 + 1)
        box = d.interval("any")
        # beta^2 = (1 - d)/d is decreasing in d
        image = Interval((1 - box.hi) / box.hi, (1 - box.lo) / box.lo)
        ok = image.meets(parse_printed(printed, "beta2").interval("any"))
        rows.append(
            [
                score,
                f"{beta2.numerator}/{beta2.denominator} = {value_str(beta2, 6)}",
                round_real(beta2, 2),
                printed,
                str(image),
                "holds" if ok and round_real(beta2, 2) == printed else "**fails**",
            ]
        )
    return table(
        [
            "score d",
            "beta^2 = (1 - d)/d",
            "rounds to",
            "paper",
            "beta^2 over d's rounding interval",
            "F11",
        ],
        rows,
        "rllrll",
    ) + (
        "\n\nThe paper's conclusion, that the point between the two segments optimises F_beta for "
        "0.32 < beta^2 < 1.04 and hence F1 (beta^2 = 1), follows. The other calibrated scores "
        "printed in Figure 3 (0.99, 0.075, 0.067, ... on the PRG side; 1, 0.75, 0.29, ... on the ROC "
        "side) need the running example's scores, which the paper does not give: out of reach."
    )


def _calibration_md() -> str:
    curve, segments = f_calibrated_scores(EXAMPLE, _scores(EXAMPLE))
    rows = []
    for s in segments:
        p1, p2 = curve.precision(s.left), curve.precision(s.right)
        r1, r2 = curve.recall(s.left), curve.recall(s.right)
        # F8: precG + beta^2 recG = (1 + beta^2) FG_beta, and FG_beta is increasing in F_beta
        g1 = curve.precision_gain[s.left] + s.beta2 * curve.recall_gain[s.left]
        g2 = curve.precision_gain[s.right] + s.beta2 * curve.recall_gain[s.right]
        rows.append(
            [
                f"({value_str(r1, 4)}, {value_str(p1, 4)})",
                f"({value_str(r2, 4)}, {value_str(p2, 4)})",
                value_str(s.beta2, 6),
                value_str(s.d, 6),
                "yes" if g1 == g2 else "**no**",
            ]
        )
    return table(
        [
            "left end (recall, precision)",
            "right end",
            "beta^2",
            "calibrated score d",
            "equal F_beta at beta^2 (F8)",
        ],
        rows,
        "llrrl",
    ) + (
        "\n\nEach Pareto segment of the PRG convex hull of the constructed example, with the "
        "Theorem 4 (F10) beta^2 at which its two ends have equal F_beta (checked exactly through "
        "F8: equal precG + beta^2 recG) and the calibrated score d = 1/(beta^2 + 1). Scores decrease along the "
        "hull, as calibrated scores must."
    )


def _example_md() -> str:
    labels, s = EXAMPLE, _scores(EXAMPLE)
    pi = _skew(labels)
    baseline = fbeta_from_pr(pi, Fraction(1), 1)
    rows = [
        ["skew pi", value_str(pi, 6)],
        ["always-positive F1 = 2 pi/(1 + pi) (F3 baseline)", value_str(baseline, 6)],
        ["its FG1 (F6: the minor diagonal precG + recG = 1)", value_str(_f1_gain_of(baseline, pi))],
        ["AP", value_str(average_precision(labels, s), 6)],
        [
            "AUPR (Davis-Goadrich)",
            value_str(pr_auc(labels, s, method="davis-goadrich", first_point="spark"), 6),
        ],
        ["AUPRG (signed)", value_str(auprg(labels, s, negative_gain="signed"), 6)],
        ["E[FG1] by Theorem 3 (F9)", value_str(expected_fg1(labels, s), 6)],
    ]
    return table(["quantity", "value"], rows, "lr")


def _pair_md() -> str:
    summ = pair_summary()
    keys = [
        ("AP (step)", "ap"),
        ("AUPR, Davis-Goadrich", "aupr_dg"),
        ("AUPR, trapezoid", "aupr_trapezoid"),
        ("  of which recall in [0, pi]", "aupr_below_pi"),
        ("  of which recall in [pi, 1]", "aupr_above_pi"),
        ("AUPRG (signed)", "auprg_signed"),
        ("AUPRG (unit square)", "auprg_unit"),
        ("E[FG1] (Theorem 3)", "e_fg1"),
    ]
    rows = []
    for label, k in keys:
        a, b = summ["A"][k], summ["B"][k]
        rows.append([label, value_str(a, 6), value_str(b, 6), _larger(a, b)])
    labels = {k: "".join("+" if x else "-" for x in v) for k, v in PAIR.items()}
    return (
        f"Rankings (best score first, + positive, - negative), pi = {value_str(summ['A']['pi'])}:\n\n"
        f"- A: `{labels['A']}`\n- B: `{labels['B']}`\n\n"
        + table(["measure", "A", "B", "larger"], rows, "lrrl")
        + "\n\nEvery AUPR variant prefers A; both AUPRG conventions (and the expected F1-Gain) "
        "prefer B. The split of the AUPR shows why: A's whole advantage lies in the recalls below "
        "pi, where recall gain is negative and AUPRG does not look, while over the recalls from pi "
        "to 1 B's area is larger. This is the mechanism of the paper's Section 4 and Figure 5 "
        "(AdaBoost's poor start costs it AUPR but not AUPRG). The paper's own numbers (886 OpenML "
        "tasks, 24% and 58% disagreement, AUPR 0.724/0.773 and AUPRG 0.714/0.687) need its "
        "predictions, which are not included: out of reach (F13)."
    )


def _larger(a, b) -> str:
    """Which of two oracle values (Fraction or 50-digit mpf) is larger, "A" or "B", or "tie"."""
    va, vb = (v if isinstance(v, mpmath.mpf) else to_mpf(v, 50) for v in (a, b))
    with mpmath.workdps(50):
        if abs(va - vb) <= mpmath.mpf(10) ** -40 * (abs(va) + abs(vb)):
            return "tie"
        return "A" if va > vb else "B"


def report() -> str:
    """The Markdown text of ``reports/flach2015.md``.

    Returns
    -------
    str
        The Markdown page.

    See Also
    --------
    prtheory.papers.outputs.write_tables : writes it.

    Examples
    --------
    >>> from prtheory.papers.flach2015 import report
    >>> report().startswith("<!-- generated by `prtheory tables`")
    True
    """
    parts = [
        GENERATED_NOTE,
        "# Flach & Kull (NeurIPS 2015), regenerated",
        "*Precision-Recall-Gain Curves: PR Analysis Done Right.* Claims F3-F13 of CLAIMS.md. The "
        "paper's example data and OpenML predictions are not published, so the figures are "
        "redrawn for constructed rankings and the paper's printed numbers are checked where "
        "they follow from the text alone.",
        "## Figure 2: PR and PRG curves of one model (F3, F6, F8)\n\n"
        f"`figures/flach2015_fig2.png`. The constructed ranking, best score first: "
        f"`{''.join('+' if x else '-' for x in EXAMPLE)}`.\n\n"
        + _example_md()
        + "\n\nLeft panel: the PR curve (Davis-Goadrich interpolation between operating points) "
        "with F1 isometrics (hyperbolas) and the baseline isometric of the always-positive "
        "classifier, which passes through (1, pi). Right panel: the same model in PRG space, "
        "where the F1 isometrics are the straight lines precG + recG = 2 FG1 (slope -1, F8), the "
        "baseline is the minor diagonal (F6), and the convex hull is drawn through the Pareto "
        "front.",
        "## Figure 3: calibration arithmetic (F10, F11)\n\n" + _f11_md(),
        "### F-calibrated scores of the constructed example (Theorem 4)\n\n" + _calibration_md(),
        "## Section 4: AUPR and AUPRG disagree (F13)\n\n`figures/flach2015_pair.png`.\n\n"
        + _pair_md(),
    ]
    return "\n\n".join(parts) + "\n"
