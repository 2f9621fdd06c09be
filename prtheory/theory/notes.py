"""Claims N1-N5: notes on precision, recall, F-scores, average precision, P@k and AP@k (seed 003).

The seed is a text dump of a web page: every formula is split one character per line and two of
its example tables (the 12-movie P@k table and the AP@k example's ranking) are missing. What is
reconstructed here, and how:

* the F1 and F_beta formulas are re-assembled from their LaTeX sources, which the dump keeps
  whole (``F_\\beta = (1 + \\beta^2) \\cdot \\frac{precision \\cdot recall}{(\\beta^2 \\cdot
  precision) + recall}``);
* the 8-item scores_A / scores_B / truths table of N3 survives as one Markdown line and is read
  from it;
* the AP@k worked example (N5) keeps only ``sum_{i<=3} P(i) rel(i) = 1.00 + 1.00 = 2.00`` and
  "the total number of true instances is 4": the only relevance pattern of the top 3 that gives
  exactly two terms equal to 1.00 is relevant, relevant, not relevant (checked by enumeration).

Rankings are untied and given as labels in rank order (1 = relevant/true, 0 = not); all values
are exact :class:`fractions.Fraction`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import sympy as sp

from prtheory.theory.checks import exact_identity, exact_sign, exhaustive
from prtheory.theory.common import P, R, beta, f_beta, pr_sampler, printed_as, ranking_variable
from prtheory.theory.domain import Domain, Integer, Meaning, Real, Structured
from prtheory.theory.registry import Proof, claim

SOURCE = "Notes on precision, recall and AP (003)"


# ---- exact helpers --------------------------------------------------------------------------
def precision_at(labels: Sequence[int], k: int) -> Fraction:
    """P@k = (relevant among the top k)/k; ranks beyond the list count as non-relevant (N4).

    Parameters
    ----------
    labels : sequence of int
        1 = relevant, top first.
    k : int
        The cut-off, >= 1.

    Returns
    -------
    Fraction
        P@k.

    Examples
    --------
    One relevant item in the top 2; a list of 2 cut at 5 (three empty ranks):

    >>> from prtheory.theory.notes import precision_at
    >>> precision_at([1, 0, 1, 1], 2), precision_at([1, 0], 5)
    (Fraction(1, 2), Fraction(1, 5))
    """
    return Fraction(sum(labels[:k]), k)


_BITS = bytes.maketrans(b"01", b"\x00\x01")


def _random_labels(rng: Any, n: int) -> tuple[int, ...]:
    """n independent fair 0/1 labels, from one draw of n random bits (fast at n = 10^6)."""
    return tuple(format(rng.getrandbits(n), f"0{n}b").encode().translate(_BITS)) if n else ()


def average_precision(labels: Sequence[int]) -> Fraction:
    """AP = sum_k P(k) rel(k) / (number of relevant items) of an untied ranking (N2).

    Parameters
    ----------
    labels : sequence of int
        1 = relevant, top first. At least one relevant.

    Returns
    -------
    Fraction
        AP.

    Examples
    --------
    Relevant at ranks 1, 3, 4: ``(1 + 2/3 + 3/4)/3 = (12 + 8 + 9)/36 = 29/36``:

    >>> from prtheory.theory.notes import average_precision
    >>> average_precision([1, 0, 1, 1])
    Fraction(29, 36)
    """
    hits, total = 0, Fraction(0)
    for k, y in enumerate(labels, 1):
        if y:
            hits += 1
            total += Fraction(hits, k)
    return total / hits


def average_precision_at(labels: Sequence[int], k: int) -> Fraction:
    """AP@k = sum_{i<=k} P(i) rel(i) / min(k, number of relevant items) (N5).

    Ranks beyond the end of the list are not relevant, so they add nothing to the sum.

    Parameters
    ----------
    labels : sequence of int
        1 = relevant, top first. At least one relevant.
    k : int
        The cut-off, >= 1.

    Returns
    -------
    Fraction
        AP@k.

    Examples
    --------
    ``[1, 0, 1, 1]`` at k = 2: ``P(1)/min(2, 3) = 1/2``; ``[0, 1, 1]`` at k = 2:
    ``P(2)/min(2, 2) = (1/2)/2 = 1/4``:

    >>> from prtheory.theory.notes import average_precision_at
    >>> average_precision_at([1, 0, 1, 1], 2), average_precision_at([0, 1, 1], 2)
    (Fraction(1, 2), Fraction(1, 4))
    """
    top = sum(precision_at(labels, i) for i in range(1, min(k, len(labels)) + 1) if labels[i - 1])
    return Fraction(top) / min(k, sum(labels))


def pr_points(labels: Sequence[int]) -> list[tuple[Fraction, Fraction]]:
    """(recall, precision) after each prefix of length 1..n.

    Parameters
    ----------
    labels : sequence of int
        1 = relevant, top first. At least one relevant.

    Returns
    -------
    list of (Fraction, Fraction)
        One point per prefix.

    Examples
    --------
    >>> from prtheory.theory.notes import pr_points
    >>> [(str(r), str(p)) for r, p in pr_points([1, 0, 1])]
    [('1/2', '1'), ('1/2', '1/2'), ('1', '2/3')]
    """
    n_pos = sum(labels)
    return [
        (Fraction(sum(labels[:k]), n_pos), precision_at(labels, k))
        for k in range(1, len(labels) + 1)
    ]


def _all_rankings(max_n: int) -> list[tuple[int, ...]]:
    """Every 0/1 ranking of length 1..max_n with at least one relevant item."""
    return [
        labels
        for n in range(1, max_n + 1)
        for labels in itertools.product((0, 1), repeat=n)
        if any(labels)
    ]


# ---- N1 ---------------------------------------------------------------------------------------
F_BETA_003 = f_beta(P, R)
F_FN = sp.Function(r"F_\beta")


@claim(
    "N1",
    source=SOURCE,
    location="F1 and FBScore sections",
    title="F1 is the harmonic mean; F_beta weighs recall beta times as much as precision",
    statement=lambda: sp.And(
        sp.Eq(2 / (1 / P + 1 / R), 2 * P * R / (P + R), evaluate=False),
        sp.Eq(F_BETA_003, 1 / ((1 / P + beta**2 / R) / (1 + beta**2)), evaluate=False),
        sp.Equivalent(
            sp.Eq(sp.Derivative(F_FN(P, R), R), sp.Derivative(F_FN(P, R), P)),
            sp.Eq(R, beta * P),
        ),
    ),
    assumptions=("0 < P, R <= 1, beta > 0",),
    domain=Domain(
        Real(P, 0, 1, open_lo=True),
        Real(R, 0, 1, open_lo=True),
        Real(beta, 0, sp.oo, open_lo=True),
        define={F_FN: sp.Lambda((P, R), F_BETA_003)},
        samples=80,
    ),
    note=(
        "'Recall is β times as important as precision' holds in van Rijsbergen's sense: the two "
        "marginal values ∂F/∂R and ∂F/∂P are equal exactly where R/P = β. It is not a ratio of "
        "weights: as a weighted harmonic mean, F_β puts weight β²/(1+β²) on 1/R and 1/(1+β²) "
        "on 1/P, a ratio of β²."
    ),
)
def _n1(pf: Proof) -> None:
    h = pf.given("F1 as printed: 2/(1/precision + 1/recall)", 2 / (1 / P + 1 / R))
    product = pf.equal("equals the printed product form", h, 2 * P * R / (P + R))
    f = pf.given("F_beta as printed in the notes", F_BETA_003)
    weighted = 1 / ((1 / P + beta**2 / R) / (1 + beta**2))
    pf.equal(
        "It is the harmonic mean with weights 1/(1+beta^2) on P and beta^2/(1+beta^2) on R (F2)",
        f,
        weighted,
    )
    pf.equal("beta = 1 gives F1", f.subs(beta, 1), h)
    d_r = pf.value("dF/dR", sp.Derivative(f, R), sp.factor(sp.diff(f, R)), "diff")
    d_p = pf.value("dF/dP", sp.Derivative(f, P), sp.factor(sp.diff(f, P)), "diff")
    derivatives = len(pf.steps)
    ratio = pf.equal("Their ratio", d_r / d_p, beta**2 * P**2 / R**2)
    sol = sp.solve(sp.Eq(ratio, 1), R)
    pf.true(
        "The marginal values are equal exactly on R = beta P",
        sp.Eq(sp.FiniteSet(*sol), sp.FiniteSet(beta * P)),
        "solve",
        shown=sp.Equivalent(sp.Eq(ratio, 1), sp.Eq(R, beta * P)),
    )
    scale = (1 + beta**2) * (beta * P + R) / (beta**2 * P + R) ** 2
    pf.equal(
        "In one identity: dF/dR - dF/dP is beta P - R times a factor",
        d_r - d_p,
        scale * (beta * P - R),
    )
    pf.sign("which is positive", scale, ">")
    fn = F_FN(P, R)
    pf.establish(
        "F1's product form, F_beta as the weighted harmonic mean, and where the marginal values "
        "of recall and precision are equal (they differ by a positive multiple of beta P - R)",
        sp.And(
            sp.Eq(h, product, evaluate=False),
            sp.Eq(f, weighted, evaluate=False),
            sp.Equivalent(sp.Eq(sp.Derivative(fn, R), sp.Derivative(fn, P)), sp.Eq(R, beta * P)),
        ),
        [2, 4, derivatives - 1, derivatives, len(pf.steps) - 1, len(pf.steps)],
    )
    u = sp.Symbol("u", positive=True)
    pf.check(
        "exact",
        "Where R < beta P (R = u beta P, 0 < u < 1) a unit of recall is worth more: dF/dR - dF/dP > 0",
        exact_sign(
            (sp.diff(F_BETA_003, R) - sp.diff(F_BETA_003, P)).subs(R, u * beta * P),
            pr_sampler(beta, 4, first=u),
            strict=True,
            n=200,
        ),
    )
    pf.check(
        "exact",
        "Printed F_beta equals the weighted harmonic mean at random rationals",
        exact_identity(F_BETA_003, weighted, pr_sampler(beta, 6)),
    )


# ---- N2 ---------------------------------------------------------------------------------------
RANKING = sp.Symbol("ranking")
N_REL = sp.Symbol(r"n_{\mathrm{rel}}")
PREC, REL, DELTA_R = sp.Function("P"), sp.Function("rel"), sp.Function(r"\Delta r")


def n2_statement() -> sp.Basic:
    """The statement of N2: ``sum_k P(k) Delta r(k) = sum_k P(k) rel(k) / n_rel``.

    Returns
    -------
    sympy.Eq
        The statement, with ``P``, ``rel`` and ``Delta r`` undefined functions that the claim's
        domain defines on each ranking.

    Examples
    --------
    >>> from prtheory.theory.notes import n2_statement
    >>> print(n2_statement())
    Eq(Sum(P(k)*\\Delta r(k), (k, 1, n)), Sum(P(k)*rel(k), (k, 1, n))/n_{\\mathrm{rel}})
    """
    k, n = sp.Symbol("k"), sp.Symbol("n")
    return sp.Eq(
        sp.Sum(PREC(k) * DELTA_R(k), (k, 1, n)), sp.Sum(PREC(k) * REL(k), (k, 1, n)) / N_REL
    )


@claim(
    "N2",
    source=SOURCE,
    location="Average Precision section",
    title="AP = sum P(k) delta r(k) = sum P(k) rel(k) / #relevant; interpolated precision",
    statement=n2_statement,
    assumptions=(
        "untied scores: the ranking is a strict order, one item per rank",
        "at least one relevant item; rel(k) in {0, 1}",
        "p_interp(r) = max over r' >= r of p(r')",
    ),
    domain=Domain(
        ranking_variable(RANKING, min_neg=0, largest=30),
        define={
            sp.Symbol("n"): Meaning(lambda pt: len(pt[RANKING]), "the number of ranked items"),
            N_REL: Meaning(lambda pt: sum(pt[RANKING]), "the number of relevant items"),
            PREC: Meaning(
                lambda pt, k: precision_at(pt[RANKING], k), "precision of the top k (P@k)"
            ),
            REL: Meaning(lambda pt, k: pt[RANKING][k - 1], "1 if the item at rank k is relevant"),
            DELTA_R: Meaning(
                lambda pt, k: Fraction(pt[RANKING][k - 1], sum(pt[RANKING])),
                "recall at rank k minus recall at rank k - 1",
            ),
        },
        exhaustive=8,
        samples=30,
    ),
)
def _n2(pf: Proof) -> None:
    n = 6
    rel = sp.symbols(f"rel_1:{n + 1}")
    n_rel = sum(rel)
    tp = [sum(rel[:k]) for k in range(n + 1)]  # relevant among the top k
    pf.given(
        "A generic ranking of 6 items: TP(k) = rel(1) + ... + rel(k), recall r(k) = TP(k)/n_rel",
        sp.Eq(sp.Symbol("TP(6)"), tp[n]),
    )
    steps = sum(sp.Rational(1, k) * tp[k] * (tp[k] - tp[k - 1]) / n_rel for k in range(1, n + 1))
    pf.given(
        "Riemann sum: P(k) = TP(k)/k times delta r(k) = (TP(k) - TP(k-1))/n_rel",
        r"\sum_{k=1}^{6} P(k)\, \Delta r(k) = \sum_{k=1}^{6} \frac{TP(k)}{k}"
        r"\cdot \frac{TP(k) - TP(k-1)}{n_{\mathrm{rel}}}",
    )
    pf.equal(
        "delta r(k) = rel(k)/n_rel, so the sum is the mean of P(k) over the relevant ranks "
        "(verified with the six TP(k) written out in rel_1, ..., rel_6)",
        steps,
        sum(sp.Rational(1, k) * tp[k] * rel[k - 1] for k in range(1, n + 1)) / n_rel,
        shown=r"\sum_{k=1}^{6} \frac{TP(k)}{k} \cdot \frac{TP(k) - TP(k-1)}{n_{\mathrm{rel}}}"
        r" = \frac{1}{n_{\mathrm{rel}}} \sum_{k=1}^{6} \frac{TP(k)}{k}\, \mathrm{rel}_k",
    )
    pf.conclude(
        "Term by term, delta r(k) = rel(k)/n_rel (the step above, for a generic ranking of six; "
        "the same cancellation for any n)",
        n2_statement(),
        [3],
    )
    pf.establish("so the two forms of AP agree", n2_statement(), [len(pf.steps)])

    pf.check(
        "enumeration",
        "Riemann sum over recall steps = mean P at relevant ranks; interpolated precision is "
        "non-increasing and its area >= AP",
        check_ap_forms(average_precision),
    )


def check_ap_forms(ap: Callable[[Sequence[int]], Fraction], max_n: int = 11) -> tuple[bool, str]:
    """``ap(labels)`` equals the Riemann sum of P(k) over recall steps on every small ranking; the
    interpolated precision is non-increasing and its area is at least that sum (N2).

    Parameters
    ----------
    ap : callable
        AP of labels in rank order.
    max_n : int
        The longest ranking.

    Returns
    -------
    tuple of (bool, str)
        :func:`~prtheory.theory.checks.exhaustive`'s outcome.

    Examples
    --------
    ``1 + 3 + 7 + 15 = 26`` rankings of 1 to 4 items with a relevant one; P@n is not AP
    (``[1, 0]``: P@2 = 1/2, AP = 1):

    >>> from prtheory.theory.notes import average_precision, check_ap_forms, precision_at
    >>> check_ap_forms(average_precision, max_n=4)
    (True, 'holds in all 26 cases: all rankings of 1 to 4 items with a relevant item')
    >>> check_ap_forms(lambda labels: precision_at(labels, len(labels)), max_n=4)
    (False, 'fails at (1, 0)')
    """

    def forms_agree(labels: tuple[int, ...]) -> bool:
        pts = pr_points(labels)
        riemann = sum(
            (
                p_k * (r_k - r_prev)
                for (r_k, p_k), r_prev in zip(
                    pts, [Fraction(0)] + [q[0] for q in pts], strict=False
                )
            ),
            Fraction(0),
        )
        # Area under p_interp: constant max{p(k): r(k) >= r} on each recall step (j-1, j]/n_rel.
        n_rel = sum(labels)
        interp = [
            max(p_k for r_k, p_k in pts if r_k >= Fraction(j, n_rel)) for j in range(1, n_rel + 1)
        ]
        area_interp = sum(interp, Fraction(0)) / n_rel
        non_increasing = all(a >= b for a, b in itertools.pairwise(interp))
        return riemann == ap(labels) and area_interp >= riemann and non_increasing

    return exhaustive(
        _all_rankings(max_n),
        forms_agree,
        f"all rankings of 1 to {max_n} items with a relevant item",
    )


# ---- N3 ---------------------------------------------------------------------------------------
SCORES_A = tuple(
    Fraction(s) for s in ("0.95", "0.85", "0.73", "0.62", "0.48", "0.39", "0.12", "0.04")
)
SCORES_B = tuple(
    Fraction(s) for s in ("0.55", "0.59", "0.88", "0.97", "0.20", "0.09", "0.43", "0.32")
)
TRUTHS = (1, 1, 0, 0, 1, 1, 0, 0)
THRESHOLD = Fraction(1, 2)


def ranked(scores: Sequence[Fraction], truths: Sequence[int] = TRUTHS) -> tuple[int, ...]:
    """Labels in order of decreasing score (the scores of N3 are untied).

    Parameters
    ----------
    scores : sequence of Fraction
        Untied scores.
    truths : sequence of int
        The labels (those of N3 by default).

    Returns
    -------
    tuple of int
        The labels, top first.

    Examples
    --------
    N3's classifier B scores the negatives 0.97 and 0.88 highest, then the positives 0.59 and
    0.55, the negatives 0.43 and 0.32, the positives 0.20 and 0.09:

    >>> from prtheory.theory.notes import SCORES_B, ranked
    >>> ranked(SCORES_B)
    (0, 0, 1, 1, 0, 0, 1, 1)
    """
    return tuple(t for _, t in sorted(zip(scores, truths, strict=True), key=lambda st: -st[0]))


def _curve_comparison() -> dict[str, list[Any]]:
    """Compare the PR curves of A and B in three senses (exact)."""
    la, lb = ranked(SCORES_A), ranked(SCORES_B)
    pa, pb = pr_points(la), pr_points(lb)
    n_rel = sum(TRUTHS)
    levels = [Fraction(j, n_rel) for j in range(1, n_rel + 1)]

    def step(pts, r):  # precision where recall first reaches r (AP's rectangles)
        return next(p for rr, p in pts if rr >= r)

    def interp(pts, r):
        return max(p for rr, p in pts if rr >= r)

    def at(pts, r):
        return [p for rr, p in pts if rr == r]

    return {
        "step": [(step(pa, r), step(pb, r)) for r in levels],
        "interp": [(interp(pa, r), interp(pb, r)) for r in levels],
        # Saw-tooth curves: lowest point of A vs highest point of B at each recall level; the
        # segments between levels join the lowest point at one level to the highest at the next.
        "sawtooth": [(r, min(at(pa, r)), max(at(pb, r))) for r in levels],
        "segments": [
            ((min(at(pa, r0)), max(at(pa, r1))), (min(at(pb, r0)), max(at(pb, r1))))
            for r0, r1 in itertools.pairwise(levels)
        ],
    }


def _n3_counts(scores: Sequence[Fraction]) -> tuple[int, int, int]:
    pred = [sc >= THRESHOLD for sc in scores]
    tp = sum(1 for y, t in zip(pred, TRUTHS, strict=True) if y and t)
    fp = sum(1 for y, t in zip(pred, TRUTHS, strict=True) if y and not t)
    return tp, fp, sum(TRUTHS) - tp


def _oracle_ap(scores: Sequence[Fraction]) -> Fraction:
    from prtheory.oracle.ap import average_precision as ap

    # the printed decimals as float64: distinct and in the same order as the exact scores
    return ap(list(TRUTHS), [float(sc) for sc in scores])


N3_NAMES = {
    k: sp.Symbol(k.replace("AP", r"\mathrm{AP}"))
    for k in ("P(A)", "P(B)", "R(A)", "R(B)", "F(A)", "F(B)", "AP(A)", "AP(B)")
}
_N3_MEANINGS: dict[str, tuple[Callable[[dict], Fraction], str]] = {}


def _constant(value: Fraction) -> Callable[[dict], Fraction]:
    """A meaning that does not depend on the point (N3's quantities are fixed numbers)."""

    def meaning(pt: dict) -> Fraction:
        return value

    return meaning


for _label, _scores in (("A", SCORES_A), ("B", SCORES_B)):
    _tp, _fp, _fn = _n3_counts(_scores)
    _N3_MEANINGS[f"P({_label})"] = (
        _constant(Fraction(_tp, _tp + _fp)),
        f"precision of {_label} at threshold 0.5, counted from the table",
    )
    _N3_MEANINGS[f"R({_label})"] = (
        _constant(Fraction(_tp, _tp + _fn)),
        f"recall of {_label} at threshold 0.5, counted from the table",
    )
    _N3_MEANINGS[f"F({_label})"] = (
        _constant(Fraction(2 * _tp, 2 * _tp + _fp + _fn)),
        f"F1 of {_label} at threshold 0.5, counted from the table",
    )
    _N3_MEANINGS[f"AP({_label})"] = (
        _constant(_oracle_ap(_scores)),
        f"AP of {_label}'s scores (the exact oracle, prtheory.oracle.average_precision)",
    )


@claim(
    "N3",
    source=SOURCE,
    location="Precision-Recall Curve example (scores_A, scores_B, truths)",
    title="Same predictions at 0.5, but A's AP and PR curve beat B's",
    statement=lambda: sp.And(
        sp.Eq(N3_NAMES["P(A)"], N3_NAMES["P(B)"]),
        sp.Eq(N3_NAMES["R(A)"], N3_NAMES["R(B)"]),
        sp.Eq(N3_NAMES["F(A)"], N3_NAMES["F(B)"]),
        sp.Gt(N3_NAMES["AP(A)"], N3_NAMES["AP(B)"]),
        sp.Eq(N3_NAMES["AP(A)"], sp.Rational(49, 60)),
        sp.Eq(N3_NAMES["AP(B)"], sp.Rational(37, 84)),
    ),
    assumptions=(
        "threshold 0.5: predict True iff score >= 0.5",
        "the table as printed in the notes (8 items, untied scores)",
    ),
    domain=Domain(
        define={N3_NAMES[k]: Meaning(fn, text) for k, (fn, text) in _N3_MEANINGS.items()}
    ),
    note=(
        "'A's curve is consistently higher' holds as weak dominance: at every recall A's lowest "
        "precision is at least B's highest, strictly except at (recall, precision) = (1/2, 1/2) and "
        "(1, 1/2), which both curves pass through. They must: at threshold 0.5 the two models make "
        "the same predictions, so they share that operating point, and every model ends at "
        "(1, pi). In AP's step function and with interpolated precision A is strictly higher at every "
        "recall in (0, 1]."
    ),
)
def _n3(pf: Proof) -> None:
    def counts(scores):
        pred = [s >= THRESHOLD for s in scores]
        tp = sum(1 for y, t in zip(pred, TRUTHS, strict=True) if y and t)
        fp = sum(1 for y, t in zip(pred, TRUTHS, strict=True) if y and not t)
        fn = sum(1 for y, t in zip(pred, TRUTHS, strict=True) if not y and t)
        return pred, sp.Integer(tp), sp.Integer(fp), sp.Integer(fn)

    pred_a, tp_a, fp_a, fn_a = counts(SCORES_A)
    pred_b, tp_b, fp_b, fn_b = counts(SCORES_B)
    pf.check(
        "exact",
        "At threshold 0.5 the two prediction vectors are identical (items 1-4 positive), hence the "
        "same table for both: (TP, FP, FN) = (2, 2, 2)",
        (
            pred_a == pred_b == [True] * 4 + [False] * 4
            and (tp_a, fp_a, fn_a) == (tp_b, fp_b, fn_b) == (2, 2, 2),
            f"predictions {[int(y) for y in pred_a]}; (TP, FP, FN) = ({tp_a}, {fp_a}, {fn_a})",
        ),
    )
    pf.equal("precision TP/(TP+FP) = 2/4", tp_a / (tp_a + fp_a), sp.Rational(1, 2))
    pf.equal("recall TP/(TP+FN) = 2/4", tp_a / (tp_a + fn_a), sp.Rational(1, 2))
    pf.equal("F1", 2 * tp_a / (2 * tp_a + fp_a + fn_a), sp.Rational(1, 2))
    la, lb = ranked(SCORES_A), ranked(SCORES_B)
    pf.given("Ranked by score, A's truths read", sp.Tuple(*la))
    pf.given("and B's", sp.Tuple(*lb))
    ranks_a = [k for k, y in enumerate(la, 1) if y]
    ranks_b = [k for k, y in enumerate(lb, 1) if y]
    ap_a = sum(sp.Rational(i, k) for i, k in enumerate(ranks_a, 1)) / 4
    ap_b = sum(sp.Rational(i, k) for i, k in enumerate(ranks_b, 1)) / 4
    pf.equal(
        f"AP(A) = (1/1 + 2/2 + 3/5 + 4/6)/4, relevant ranks {ranks_a}", ap_a, sp.Rational(49, 60)
    )
    pf.equal(
        f"AP(B) = (1/3 + 2/4 + 3/7 + 4/8)/4, relevant ranks {ranks_b}", ap_b, sp.Rational(37, 84)
    )
    pf.true("AP(A) > AP(B)", sp.Gt(ap_a, ap_b, evaluate=False), "exact comparison")
    cmp_ = _curve_comparison()
    pf.check(
        "exact",
        "AP by the Fraction helper (independent of the steps above)",
        (
            average_precision(la) == Fraction(49, 60) and average_precision(lb) == Fraction(37, 84),
            f"AP(A) = {average_precision(la)}, AP(B) = {average_precision(lb)}",
        ),
    )
    pf.check(
        "enumeration",
        "AP's step function: A strictly above B on every recall step (0, 1/4], ..., (3/4, 1]",
        (
            all(a > b for a, b in cmp_["step"]),
            f"(A, B) per step: {[(str(a), str(b)) for a, b in cmp_['step']]}",
        ),
    )
    pf.check(
        "enumeration",
        "Interpolated precision: A strictly above B at every recall in (0, 1]",
        (
            all(a > b for a, b in cmp_["interp"]),
            f"(A, B) per step: {[(str(a), str(b)) for a, b in cmp_['interp']]}",
        ),
    )
    touching = [str(r) for r, a, b in cmp_["sawtooth"] if a == b]
    weak = all(a >= b for _, a, b in cmp_["sawtooth"]) and all(
        a0 >= b0 and a1 >= b1 for (a0, a1), (b0, b1) in cmp_["segments"]
    )
    pf.check(
        "enumeration",
        "Saw-tooth PR curves: A's lowest point >= B's highest at each recall level and along the joining segments",
        (
            weak and touching == ["1/2", "1"],
            f"weakly above; equal (touching at precision 1/2) at recall {touching}",
        ),
    )


# ---- N4 ---------------------------------------------------------------------------------------
N_ITEMS = sp.Symbol("n", integer=True, positive=True)


@claim(
    "N4",
    source=SOURCE,
    location="Precision @ k section",
    title="P@k <= n_rel/k; missing predictions count as false positives",
    statement=lambda: sp.Implies(
        sp.Lt(N_REL, sp.Symbol("k")), sp.Le(sp.Symbol("P@k"), N_REL / sp.Symbol("k"))
    ),
    assumptions=(
        "P@k = (relevant among the top k)/k",
        "a list of m < k predictions is padded with k - m false positives",
    ),
    domain=Domain(
        Integer(N_ITEMS, 1),
        Integer(sp.Symbol("k"), 1, N_ITEMS + 2),
        Structured(
            RANKING,
            lambda pt, size: itertools.product((0, 1), repeat=int(pt[N_ITEMS])),
            lambda pt, rng: _random_labels(rng, int(pt[N_ITEMS])),
            "the relevance (0 or 1) of each of the n predictions, top first",
        ),
        define={
            N_REL: Meaning(lambda pt: sum(pt[RANKING]), "relevant among the n predictions"),
            sp.Symbol("P@k"): Meaning(
                lambda pt: precision_at(pt[RANKING], int(pt[sp.Symbol("k")])),
                "relevant among the top k over k, missing predictions counted as false positives",
            ),
        },
        exhaustive=6,
        samples=40,
    ),
)
def _n4(pf: Proof) -> None:
    k, n_rel, s, m, tp_m = sp.symbols("k n_rel s m TP_m", positive=True)
    pf.given(
        "Relevant among the top k cannot exceed all relevant: TP(k) = n_rel - s, s >= 0", n_rel - s
    )
    gap = pf.equal("n_rel/k - P@k", n_rel / k - (n_rel - s) / k, s / k)
    pf.true(
        "which is >= 0 (and P@k = n_rel/k < 1 when all relevant items are on top)",
        sp.Ge(gap, 0, evaluate=False),
        "sign under positivity",
    )
    den = sp.Add(
        tp_m, sp.Add(m, -tp_m, evaluate=False), sp.Add(k, -m, evaluate=False), evaluate=False
    )
    padded = pf.given(
        "m < k predictions (TP_m relevant, m - TP_m not), padded with k - m false positives",
        sp.Mul(tp_m, sp.Pow(den, -1, evaluate=False), evaluate=False),
    )
    pf.equal("P@k = TP_m/k", padded, tp_m / k)
    k_ = sp.Symbol("k")
    pf.conclude(
        "At most n_rel of the k slots are hits, with or without padding (step 3), so "
        "P@k <= n_rel/k",
        sp.Le(sp.Symbol("P@k"), N_REL / k_),
        [2, 3, 5],
    )
    pf.establish(
        "in particular with fewer relevant items than k",
        sp.Implies(sp.Lt(N_REL, k_), sp.Le(sp.Symbol("P@k"), N_REL / k_)),
        [len(pf.steps)],
    )

    def bound(case: tuple[tuple[int, ...], int]) -> bool:
        labels, kk = case
        n = sum(labels)
        value = precision_at(labels, kk)
        padded_ = Fraction(
            sum(labels[:kk]),
            sum(labels[:kk]) + (min(kk, len(labels)) - sum(labels[:kk])) + max(0, kk - len(labels)),
        )
        ok = value == padded_ and value <= Fraction(min(n, kk), kk)
        top = tuple(sorted(labels, reverse=True))
        return ok and precision_at(top, kk) == Fraction(min(n, kk), kk)

    cases = [(lab, kk) for lab in _all_rankings(9) for kk in range(1, len(lab) + 3)]
    pf.check(
        "enumeration",
        "P@k <= min(n_rel, k)/k with equality when the relevant items lead; padding counted as false positives",
        exhaustive(cases, bound, "all rankings of 1 to 9 items, k up to n + 2"),
    )


# ---- N5 ---------------------------------------------------------------------------------------
#: One completion of the worked example: its top 3 as reconstructed, 4 relevant among 12 movies.
N5_EXAMPLE = (1, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1)
AP_AT_3, MEAN_P_AT_I = sp.Symbol("AP@3"), sp.Symbol(r"\overline{P@i}")


@claim(
    "N5",
    source=SOURCE,
    location="Average Precision @ k section and worked example",
    title="AP@k = sum_{i<=k} P(i) rel(i) / min(k, n_rel); 2.00/min(3, 4) = 0.67; not the mean of P@i",
    statement=lambda: sp.And(
        printed_as(AP_AT_3, "0.67"), sp.Ne(AP_AT_3, MEAN_P_AT_I, evaluate=False), evaluate=False
    ),
    assumptions=(
        "AP@k = sum_{i<=k} P(i) rel(i) / min(k, n_rel), P(i) the precision of the top i",
        "worked example: 4 relevant items; of the top 3, ranks 1 and 2 relevant, rank 3 not (reconstructed)",
    ),
    domain=Domain(
        define={
            AP_AT_3: Meaning(
                lambda pt: average_precision_at(N5_EXAMPLE, 3),
                "AP@3 of a 12-item completion of the example (its top 3 are 1, 1, 0; 4 relevant)",
            ),
            MEAN_P_AT_I: Meaning(
                lambda pt: sum((precision_at(N5_EXAMPLE, i) for i in (1, 2, 3)), Fraction(0)) / 3,
                "the mean of P@1, P@2, P@3 of the example",
            ),
        }
    ),
    note=(
        "The example's ranking is missing from the notes. 'sum_{i<=3} P(i) rel(i) = 1.00 + 1.00' "
        "forces ranks 1 and 2 relevant and rank 3 not (the only pattern of the top 3 with two "
        "terms equal to 1); with 4 relevant items AP@3 = 2/3, printed 0.67. For that ranking the "
        "mean of P@1..P@3 is 8/9, not 2/3."
    ),
)
def _n5(pf: Proof) -> None:
    top3 = (1, 1, 0)
    pf.given(
        "Reconstructed top 3 of the example (1 = relevant), 4 relevant items in all",
        sp.Tuple(*top3),
    )
    prec = [sp.Rational(sum(top3[:i]), i) for i in range(1, 4)]
    s = pf.equal(
        "sum_{i<=3} P(i) rel(i) = 1 + 1", sum(pi_ * y for pi_, y in zip(prec, top3, strict=True)), 2
    )
    ap3 = pf.equal("AP@3 = 2/min(3, 4)", s / sp.Min(3, 4), sp.Rational(2, 3))
    mean = pf.equal("The mean of P@1, P@2, P@3", sum(prec) / 3, sp.Rational(8, 9))
    pf.true(
        "AP@3 is not the mean of P@i",
        sp.Ne(ap3, mean, evaluate=False),
        "exact comparison",
    )
    patterns = [
        pat
        for pat in itertools.product((0, 1), repeat=3)
        if [precision_at(pat, i) for i in range(1, 4) if pat[i - 1]] == [1, 1]
    ]
    pf.check(
        "enumeration",
        "Relevance patterns of the top 3 whose sum is exactly the two terms 1.00 + 1.00",
        (patterns == [top3], f"only {patterns}"),
    )
    labels = N5_EXAMPLE
    pf.check(
        "printed-number",
        "AP@3 of a 12-item completion of the example, rounded to 2 decimals",
        (
            average_precision_at(labels, 3) == Fraction(2, 3) and round(2 / 3, 2) == 0.67,
            f"AP@3 = {average_precision_at(labels, 3)} -> 0.67",
        ),
    )

    pf.check(
        "enumeration",
        "0 <= AP@k <= 1, AP@k = 1 iff the top min(k, n_rel) are all relevant, AP@n = AP",
        check_ap_at_k(average_precision_at),
    )


def check_ap_at_k(
    ap_at_k: Callable[[Sequence[int], int], Fraction], max_n: int = 9
) -> tuple[bool, str]:
    """On every ranking of up to ``max_n`` items and every k: 0 <= AP@k <= 1, AP@k = 1 exactly
    when the top min(k, n_rel) items are relevant, and AP@n = AP (N5).

    Parameters
    ----------
    ap_at_k : callable
        AP@k of labels in rank order and k.
    max_n : int
        The longest ranking.

    Returns
    -------
    tuple of (bool, str)
        :func:`~prtheory.theory.checks.exhaustive`'s outcome.

    Examples
    --------
    ``1 * 1 + 3 * 2 + 7 * 3 + 15 * 4 = 88`` (ranking, k) cases up to 4 items; P@k is not AP@k
    (``[1, 0]`` at k = 2: P@2 = 1/2 though AP@2 = AP = 1):

    >>> from fractions import Fraction
    >>> from prtheory.theory.notes import average_precision_at, check_ap_at_k
    >>> check_ap_at_k(average_precision_at, max_n=4)
    (True, 'holds in all 88 cases: all rankings of 1 to 4 items and every k')
    >>> check_ap_at_k(lambda labels, k: Fraction(sum(labels[:k]), k), max_n=4)
    (False, 'fails at ((1, 0), 2)')
    """

    def props(case: tuple[tuple[int, ...], int]) -> bool:
        lab, kk = case
        v = ap_at_k(lab, kk)
        full = v == 1
        leads = all(lab[: min(kk, sum(lab))])
        whole = kk < len(lab) or v == average_precision(lab)
        return 0 <= v <= 1 and full == leads and whole

    cases = [(lab, kk) for lab in _all_rankings(max_n) for kk in range(1, len(lab) + 1)]
    return exhaustive(cases, props, f"all rankings of 1 to {max_n} items and every k")
