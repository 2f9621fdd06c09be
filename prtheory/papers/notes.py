"""The worked examples of the notes on precision, recall and AP (seed 003; claims N1-N5) and of
Gandenberger's post on weighted Pythagorean means (seed 004; claims G1-G8), regenerated.

Average precision, AP@k, P@k, precision, recall and F-beta come from :mod:`prtheory.oracle`.
The weighted arithmetic and geometric means of seed 004 are not PR metrics of the oracle; they
are defined here, from the post's own formulas:

* ``A_gamma = (gamma P + R)/(1 + gamma)`` (G3), exact;
* ``G_beta = (P R^beta)^(1/(1+beta))`` (G7), through mpmath;
* the weighted harmonic mean with ``beta^2 = 1/gamma`` is F-beta (G4), from the oracle.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np

from prtheory.audit.images import fbeta_from_pr
from prtheory.audit.intervals import round_real, value_str
from prtheory.audit.printed import parse_printed
from prtheory.oracle import points
from prtheory.oracle.ap import average_precision
from prtheory.oracle.curves import pr_curve
from prtheory.oracle.retrieval import ap_at_k, precision_at_k
from prtheory.oracle.rounding import exact_rational, to_float
from prtheory.papers.figdata import FigureData
from prtheory.papers.markdown import GENERATED_NOTE, table

__all__ = [
    "MODELS",
    "SCORES_A",
    "SCORES_B",
    "TRUTHS",
    "arithmetic_mean",
    "figure_means",
    "figure_scores",
    "figures",
    "geometric_mean",
    "marginal_rate",
    "report",
    "threshold_counts",
]

# Seed 003, the scores_A / scores_B / truths table (8 items).
SCORES_A = (0.95, 0.85, 0.73, 0.62, 0.48, 0.39, 0.12, 0.04)
SCORES_B = (0.55, 0.59, 0.88, 0.97, 0.20, 0.09, 0.43, 0.32)
TRUTHS = (1, 1, 0, 0, 1, 1, 0, 0)
THRESHOLD = 0.5

# Seed 004, Model A and Model B (G1): confusion counts.
MODELS = {
    "A": {"TN": 90, "FP": 10, "FN": 1, "TP": 99},
    "B": {"TN": 91, "FP": 9, "FN": 3, "TP": 97},
}
# What the post prints beside them: the formula and the percentage.
PRINTED_G1 = {
    "A": {"precision": ((90, 99 + 10), "90.8%"), "recall": ((99, 99 + 1), "99.0%")},
    "B": {"precision": ((91, 91 + 9), "91.5%"), "recall": ((97, 97 + 3), "97.0%")},
}


def threshold_counts(scores, truths=TRUTHS, threshold: float = THRESHOLD) -> dict[str, int]:
    """TP, FP, FN, TN of the classifier ``score >= threshold`` (the notes' rule).

    Parameters
    ----------
    scores : sequence of float
        One score per item.
    truths : sequence of int
        The labels (default the notes' ``(1, 1, 0, 0, 1, 1, 0, 0)``).
    threshold : float
        Predict positive iff ``score >= threshold`` (default 0.5).

    Returns
    -------
    dict of str to int
        TP, FP, FN and TN.

    See Also
    --------
    figure_scores

    Examples
    --------
    Scores at or above 0.5: items 0, 1, 5 (positive) and 3 (negative); item 4 is a missed
    positive; items 2, 6, 7 are negatives left out:

    >>> from prtheory.papers.notes import threshold_counts
    >>> threshold_counts([0.9, 0.8, 0.3, 0.6, 0.4, 0.7, 0.2, 0.1])
    {'TP': 3, 'FP': 1, 'FN': 1, 'TN': 3}
    """
    pred = [s >= threshold for s in scores]
    return {
        "TP": sum(p and t for p, t in zip(pred, truths, strict=True)),
        "FP": sum(p and not t for p, t in zip(pred, truths, strict=True)),
        "FN": sum((not p) and t for p, t in zip(pred, truths, strict=True)),
        "TN": sum((not p) and not t for p, t in zip(pred, truths, strict=True)),
    }


def arithmetic_mean(p: Fraction, r: Fraction, gamma: Fraction) -> Fraction:
    """``A_gamma = (gamma P + R)/(1 + gamma)`` (G3). Level curves: slope -1/gamma in (R, P).

    Parameters
    ----------
    p, r : Fraction
        Precision and recall.
    gamma : Fraction
        The weight of precision.

    Returns
    -------
    Fraction
        ``A_gamma``, exactly.

    See Also
    --------
    geometric_mean, marginal_rate

    Examples
    --------
    P = 1/2, R = 1/4, gamma = 1/4: (1/8 + 1/4)/(5/4) = 3/10:

    >>> from fractions import Fraction
    >>> from prtheory.papers.notes import arithmetic_mean
    >>> arithmetic_mean(Fraction(1, 2), Fraction(1, 4), Fraction(1, 4))
    Fraction(3, 10)
    """
    return (gamma * p + r) / (1 + gamma)


def geometric_mean(p: Fraction, r: Fraction, beta: Fraction, dps: int = 30) -> mpmath.mpf:
    """``G_beta = (P R^beta)^(1/(1+beta))`` (G7), an mpf at ``dps`` digits.

    Parameters
    ----------
    p, r : Fraction
        Precision and recall.
    beta : Fraction
        The weight of recall.
    dps : int
        Digits of the result (default 30).

    Returns
    -------
    mpmath.mpf
        ``G_beta``.

    See Also
    --------
    arithmetic_mean

    Examples
    --------
    P = 1/2, R = 1/8, beta = 2: (1/2 1/64)^(1/3) = 2^(-7/3) = 0.19842513149602...:

    >>> from fractions import Fraction
    >>> from prtheory.papers.notes import geometric_mean
    >>> import mpmath
    >>> mpmath.nstr(geometric_mean(Fraction(1, 2), Fraction(1, 8), Fraction(2)), 15)
    '0.198425131496025'
    """
    with mpmath.workdps(dps + 5):
        pm = mpmath.mpf(p.numerator) / p.denominator
        rm = mpmath.mpf(r.numerator) / r.denominator
        b = mpmath.mpf(beta.numerator) / beta.denominator
        value = (pm * rm**b) ** (1 / (1 + b))
    with mpmath.workdps(dps):
        return +value


def marginal_rate(p: Fraction, r: Fraction, beta: Fraction) -> Fraction:
    """``|dP/dR|`` along an F-beta level curve: ``beta^2 P^2 / R^2`` (G5), exact.

    From F = (1+b^2) P R/(b^2 P + R): dF/dR is proportional to b^2 P^2 and dF/dP to R^2 (same
    factor), so along a level curve dP/dR = -b^2 P^2/R^2. It is 1 exactly where R/P = beta; a
    value below 1 means one unit of recall is worth less than one unit of precision.

    Parameters
    ----------
    p, r : Fraction
        Precision and recall.
    beta : Fraction
        The weight of recall.

    Returns
    -------
    Fraction
        ``beta^2 P^2/R^2``.

    See Also
    --------
    arithmetic_mean

    Examples
    --------
    At P = R the rate is beta^2: 4 for beta = 2:

    >>> from fractions import Fraction
    >>> from prtheory.papers.notes import marginal_rate
    >>> marginal_rate(Fraction(1, 2), Fraction(1, 2), Fraction(2))
    Fraction(4, 1)
    """
    return beta * beta * p * p / (r * r)


# ------------------------------------------------------------------------------------------
# seed 003


def _pr_points(scores) -> tuple[list[Fraction], list[Fraction]]:
    curve = pr_curve(list(TRUTHS), list(scores))
    return list(curve.recall), list(curve.precision)


def _scores_md() -> str:
    ap = {
        n: average_precision(list(TRUTHS), list(s)) for n, s in (("A", SCORES_A), ("B", SCORES_B))
    }
    counts = {n: threshold_counts(s) for n, s in (("A", SCORES_A), ("B", SCORES_B))}
    rows = []
    for n in ("A", "B"):
        c = counts[n]
        rows.append(
            [
                n,
                *(c[k] for k in ("TP", "FP", "FN", "TN")),
                value_str(points.precision(c["TP"], c["FP"])),
                value_str(points.recall(c["TP"], c["FN"])),
                value_str(points.fbeta(c["TP"], c["FP"], c["FN"])),
                f"{ap[n].numerator}/{ap[n].denominator} = {value_str(ap[n], 6)}",
            ]
        )
    same_preds = [a >= THRESHOLD for a in SCORES_A] == [b >= THRESHOLD for b in SCORES_B]
    text = table(["model", "TP", "FP", "FN", "TN", "precision", "recall", "F1", "AP"], rows)
    ra, pa = _pr_points(SCORES_A)
    rb, pb = _pr_points(SCORES_B)
    step = []
    for k in range(1, len(TRUTHS) + 1):
        step.append(
            [
                k,
                f"{value_str(ra[k - 1], 3)} / {value_str(pa[k - 1], 4)}",
                f"{value_str(rb[k - 1], 3)} / {value_str(pb[k - 1], 4)}",
            ]
        )
    above = all(
        max(p for r2, p in zip(ra, pa, strict=True) if r2 >= r)
        >= max(p for r2, p in zip(rb, pb, strict=True) if r2 >= r)
        for r in sorted(set(ra) | set(rb))
    )
    text += (
        f"\n\nAt threshold 0.5 (predict positive iff score >= 0.5) the two models make "
        f"{'identical' if same_preds else 'different'} predictions on every item, so their "
        "precision, recall and F-scores are identical (N3). Their rankings differ, and so do their "
        "APs (exact, from the oracle; by hand, A's positives sit at ranks 1, 2, 5, 6, so "
        "AP = (1 + 1 + 3/5 + 4/6)/4 = 49/60, and B's at ranks 3, 4, 7, 8, so "
        "AP = (1/3 + 2/4 + 3/7 + 4/8)/4 = 37/84).\n\n"
        + table(["k", "A: recall / precision", "B: recall / precision"], step, "rll")
        + f"\n\nA's interpolated precision is at least B's at every recall: "
        f"{'holds' if above else '**fails**'} (N3). Figure: `figures/notes_scores.png`."
    )
    return text


# The AP@k example of seed 003 prints only its sums (1.00 + 1.00 = 2.00 over the top 3, 4
# relevant items). Its 12-movie table is missing from the copy; a ranking consistent with the
# printed numbers (relevant at ranks 1 and 2, not at 3, 4 relevant in all) is enough, because
# AP@3 depends only on the top 3 and the number of relevant items.
AP_AT_K_LABELS = (1, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0)


def _ap_at_k_md() -> str:
    labels = list(AP_AT_K_LABELS)
    scores = list(range(len(labels), 0, -1))
    ap3 = ap_at_k(labels, scores, 3)
    p_at = [precision_at_k(labels, scores, i) for i in (1, 2, 3)]
    mean_p = sum(p_at) / 3
    pos = sum(labels)
    best = [1] * pos + [0] * (len(labels) - pos)
    rows = [
        [
            "AP@3 = (P(1) rel(1) + P(2) rel(2) + P(3) rel(3)) / min(3, 4)",
            value_str(ap3, 4),
            round_real(ap3, 2),
            "0.67 (N5 holds)",
        ],
        [
            "mean of P@1, P@2, P@3",
            value_str(mean_p, 4),
            round_real(mean_p, 2),
            "differs from AP@3 (N5 holds)",
        ],
        [
            "P@6 of the best ranking (4 relevant < k = 6)",
            value_str(precision_at_k(best, scores, 6), 4),
            "",
            "= pos/k = 4/6, the most P@6 can be (N4 holds)",
        ],
        [
            "P@15 on 12 items (3 missing predictions count as false positives)",
            value_str(precision_at_k(labels, scores, 15), 4),
            "",
            "= 4/15 (N4)",
        ],
    ]
    return (
        f"Ranking used (relevant = +, best first): `{''.join('+' if x else '-' for x in labels)}` "
        "(a reconstruction: the notes' 12-movie table is missing from the copy; AP@3 depends only "
        "on the top three and on the 4 relevant items, which the text gives).\n\n"
        + table(["quantity", "exact", "2 places", "verdict"], rows, "lrrl")
    )


def figure_scores() -> FigureData:
    """Both PR curves of the scores_A / scores_B example (N3).

    Returns
    -------
    FigureData
        Both PR curves and the threshold point.

    See Also
    --------
    threshold_counts

    Examples
    --------
    >>> from prtheory.papers.notes import figure_scores
    >>> sorted(figure_scores().arrays)
    ['A_precision', 'A_recall', 'B_precision', 'B_recall', 'threshold_point']
    """
    arrays = {}
    for n, s in (("A", SCORES_A), ("B", SCORES_B)):
        r, p = _pr_points(s)
        arrays[f"{n}_recall"] = np.array([to_float(v) for v in r])
        arrays[f"{n}_precision"] = np.array([to_float(v) for v in p])
    c = threshold_counts(SCORES_A)
    arrays["threshold_point"] = np.array(
        [to_float(points.recall(c["TP"], c["FN"])), to_float(points.precision(c["TP"], c["FP"]))]
    )
    ap = {
        n: average_precision(list(TRUTHS), list(s)) for n, s in (("A", SCORES_A), ("B", SCORES_B))
    }
    return FigureData(
        "notes_scores",
        "PR curves of scores_A and scores_B",
        arrays,
        {"ap": {n: f"{v.numerator}/{v.denominator}" for n, v in ap.items()}},
    )


# ------------------------------------------------------------------------------------------
# seed 004


def _g1_md() -> str:
    rows = []
    for name, c in MODELS.items():
        for metric in ("precision", "recall"):
            value = (
                points.precision(c["TP"], c["FP"])
                if metric == "precision"
                else points.recall(c["TP"], c["FN"])
            )
            (num, den), pct = PRINTED_G1[name][metric]
            formula = Fraction(num, den)
            printed = parse_printed(pct, metric)
            rows.append(
                [
                    name,
                    metric,
                    f"{value.numerator}/{value.denominator} = {value_str(value, 6)}",
                    pct,
                    "yes" if printed.interval("any").contains(value) else "**no**",
                    f"{num}/{den} = {value_str(formula, 6)}",
                    "yes" if formula == value else "**no**",
                ]
            )
    return table(
        [
            "model",
            "metric",
            "from the counts",
            "printed %",
            "% consistent",
            "printed formula",
            "formula right",
        ],
        rows,
        "llrrlrl",
    ) + (
        "\n\nG1 holds as corrected: all four percentages are right, but both printed precision "
        "formulas are wrong. Model A's precision is TP/(TP + FP) = 99/(99 + 10), not 90/(99 + 10) "
        "(90 is TN); Model B's is 97/(97 + 9), not 91/(91 + 9) (which is TN/(TN + FP) = 0.91, the "
        "specificity, and would print as 91.0%)."
    )


def _means_md() -> str:
    pr = {
        n: (points.precision(c["TP"], c["FP"]), points.recall(c["TP"], c["FN"]))
        for n, c in MODELS.items()
    }
    rows = []
    specs = [
        ("arithmetic (P + R)/2", lambda p, r: arithmetic_mean(p, r, Fraction(1))),
        ("geometric (P R)^(1/2)", lambda p, r: geometric_mean(p, r, Fraction(1))),
        ("harmonic = F1", lambda p, r: fbeta_from_pr(p, r, 1)),
        (
            "A_gamma, gamma = 4 (precision weighted)",
            lambda p, r: arithmetic_mean(p, r, Fraction(4)),
        ),
        (
            "A_gamma, gamma = 1/4 (recall weighted)",
            lambda p, r: arithmetic_mean(p, r, Fraction(1, 4)),
        ),
        ("G_beta, beta = 1/2", lambda p, r: geometric_mean(p, r, Fraction(1, 2))),
        ("G_beta, beta = 2", lambda p, r: geometric_mean(p, r, Fraction(2))),
        ("F_beta, beta = 1/2", lambda p, r: fbeta_from_pr(p, r, Fraction(1, 2))),
        ("F_beta, beta = 2", lambda p, r: fbeta_from_pr(p, r, 2)),
    ]
    order_ok = True
    for label, f in specs:
        va, vb = f(*pr["A"]), f(*pr["B"])
        fa = exact_rational(va) if isinstance(va, mpmath.mpf) else va
        fb = exact_rational(vb) if isinstance(vb, mpmath.mpf) else vb
        rows.append([label, value_str(va, 6), value_str(vb, 6), "A" if fa > fb else "B"])
    for p, r in pr.values():
        h, g, a = (
            fbeta_from_pr(p, r, 1),
            exact_rational(geometric_mean(p, r, Fraction(1))),
            arithmetic_mean(p, r, Fraction(1)),
        )
        order_ok &= h < g < a
    return table(["mean", "model A", "model B", "prefers"], rows, "lrrl") + (
        f"\n\nG2 holds: the simple arithmetic mean prefers A (so do the simple geometric and "
        f"harmonic means). G8: harmonic < geometric < arithmetic for both models "
        f"({'holds' if order_ok else '**fails**'}; P != R for both). Weighting towards precision "
        "(gamma = 4, beta = 1/2) turns the preference to B, whose precision is higher."
    )


def _g5_md() -> str:
    beta = Fraction(2)
    below = (
        Fraction(4, 5),
        Fraction(1, 5),
    )  # (R, P) with R/P = 4 > beta: below the line P = R/beta
    above = (Fraction(1, 5), Fraction(4, 5))  # R/P = 1/4 < beta: above the line
    rows = []
    for where, (r, p) in (
        ("below the line (R/P = 4 > beta)", below),
        ("above the line (R/P = 1/4 < beta)", above),
    ):
        m = marginal_rate(p, r, beta)
        rows.append(
            [
                where,
                f"({value_str(r)}, {value_str(p)})",
                value_str(m, 6),
                value_str(-m, 6),
                value_str(1 / m, 6),
                "more than one" if 1 / m > 1 else "less than one",
            ]
        )
    six = [
        [
            "beta = 3, P = 0.25",
            "switch at R = beta P = 0.75",
            f"marginal rate at R = 0.75: {value_str(marginal_rate(Fraction(1, 4), Fraction(3, 4), Fraction(3)))}",
            "holds",
        ],
        [
            "beta = 0.3, P = 0.9, R = 0.36",
            "she wants recall, so beta > R/P = 0.4",
            f"marginal rate {value_str(marginal_rate(Fraction(9, 10), Fraction(36, 100), Fraction(3, 10)), 6)} < 1: "
            "F_0.3 values precision more there; a user who values recall more has rate > 1, i.e. "
            "beta > 0.4",
            "holds",
        ],
    ]
    return (
        table(
            [
                "point (beta = 2)",
                "(R, P)",
                "|dP/dR| = beta^2 P^2/R^2",
                "level-curve slope",
                "units of recall per unit of precision",
                "needs",
            ],
            rows,
            "llrrrl",
        )
        + "\n\nThe table uses the post's orientation for F_beta's example point (recall on the x "
        "axis, precision on the y axis; its point (x = .48, y = .84) is 48% recall and 84% "
        "precision) and its reading of a slope -1/delta as 'delta units of recall per unit of "
        "precision'. Below the line P = R/beta (R/P > beta, precision *low* relative to recall) "
        "one unit of precision is worth more than one unit of recall, so the metric wants "
        "precision; above it (R/P < beta, precision *high* relative to recall) it wants recall. "
        "The post's paragraphs are each internally inconsistent: \"Below the black line, where "
        "precision is high compared to recall, ... slope -1/delta for some delta > 1, ... more "
        "than one unit of recall in exchange for one unit of precision ... you care about "
        "improving recall more\". The slope and the 'more than one unit' fit the region below the "
        "line, but there precision is low relative to recall and the metric wants precision; the "
        "description and the conclusion fit the region above the line, where less than one unit "
        "of recall compensates a unit of precision. The 'above' paragraph has the mirror-image "
        'mix, and its caption repeats "Below". The conclusions (which mean is wanted where) '
        "and the region sizes (the region R/P < beta has area 1 - 1/(2 beta) for beta >= 1, the "
        "larger one) are right. G5 holds as corrected: the marginal rate is beta^2 P^2/R^2, equal "
        "to 1 exactly on R/P = beta.\n\n"
        + table(["G6 example", "the post says", "recomputed", "verdict"], six, "llll")
        + "\n\nG3: A_gamma's level curves gamma P + R = const have slope -1/gamma with recall on "
        "the x axis. The post's own example agrees: at gamma = 8, (R, P) = (0.48, 0.84) and "
        f"(0.56, 0.83) give A_8 = {value_str(arithmetic_mean(Fraction(84, 100), Fraction(48, 100), Fraction(8)))} "
        f"and {value_str(arithmetic_mean(Fraction(83, 100), Fraction(56, 100), Fraction(8)))}, one level curve "
        "(slope -0.01/0.08 = -1/8). "
        'Its first statement, "straight lines with slope -gamma", is wrong; the later '
        '"-1/gamma" is right.'
    )


MEANS_BETA = Fraction(2)
MEANS_GAMMA = Fraction(1, 4)


def figure_means() -> FigureData:
    """Level curves of A_gamma (gamma = 1/4), G_beta and F_beta (beta = 2) over (R, P) (G3-G7).

    Returns
    -------
    FigureData
        The grids of A, G and F over (R, P).

    See Also
    --------
    arithmetic_mean, geometric_mean

    Examples
    --------
    >>> from prtheory.papers.notes import figure_means
    >>> d = figure_means()
    >>> d.arrays["F"].shape, d.meta["beta"]
    ((81, 81), '2')
    """
    n = 81
    axis_q = [Fraction(i, n - 1) for i in range(n)]
    a = np.array([[to_float(arithmetic_mean(p, r, MEANS_GAMMA)) for r in axis_q] for p in axis_q])
    g = np.array(
        [
            [to_float(exact_rational(geometric_mean(p, r, MEANS_BETA, dps=20))) for r in axis_q]
            for p in axis_q
        ]
    )
    f = np.array([[to_float(fbeta_from_pr(p, r, MEANS_BETA)) for r in axis_q] for p in axis_q])
    return FigureData(
        "notes_means",
        "Level curves of the weighted means",
        {"axis": np.linspace(0, 1, n), "A": a, "G": g, "F": f},
        {"gamma": str(MEANS_GAMMA), "beta": str(MEANS_BETA)},
    )


def figures() -> list[FigureData]:
    """Every figure of the notes: the scores example and the level curves of the means.

    Returns
    -------
    list of FigureData
        The notes' figures.

    See Also
    --------
    prtheory.papers.outputs.figure_data

    Examples
    --------
    >>> from prtheory.papers.notes import figures
    >>> [d.name for d in figures()]
    ['notes_scores', 'notes_means']
    """
    return [figure_scores(), figure_means()]


def report() -> str:
    """The Markdown text of ``reports/notes.md``.

    Returns
    -------
    str
        The Markdown page.

    See Also
    --------
    prtheory.papers.outputs.write_tables : writes it.

    Examples
    --------
    >>> from prtheory.papers.notes import report
    >>> report().startswith("<!-- generated by `prtheory tables`")
    True
    """
    parts = [
        GENERATED_NOTE,
        "# Worked examples of the notes (seed 003) and of Gandenberger 2019 (seed 004)",
        "Claims N1-N5 and G1-G8 of CLAIMS.md. AP, AP@k, P@k, precision, recall and F-beta come "
        "from `prtheory.oracle`, exactly.",
        "## scores_A and scores_B (N2, N3)\n\n" + _scores_md(),
        "## AP@k (N4, N5)\n\n" + _ap_at_k_md(),
        "## Model A and Model B (G1)\n\n" + _g1_md(),
        "## Arithmetic, geometric and harmonic means (G2-G4, G7, G8)\n\n" + _means_md(),
        "## Where a unit of recall and a unit of precision are worth the same (G3, G5, G6)\n\n"
        + _g5_md(),
        "## Figures\n\n"
        "- `figures/notes_scores.png`: the PR curves of scores_A and scores_B, with the common "
        "threshold-0.5 point.\n"
        f"- `figures/notes_means.png`: level curves of A_gamma (gamma = {MEANS_GAMMA}), G_beta and "
        f"F_beta (beta = {MEANS_BETA}) over (recall, precision); the line R/P = beta is marked on "
        "the G and F panels, where it is the locus of equal marginal value. A_gamma has the same "
        "slope -1/gamma everywhere, so it has no such line.",
    ]
    return "\n\n".join(parts) + "\n"
