"""Claims K1-K2: AUROC and AUPRC as expectations over the positives' scores (McDermott et al.
2024, Theorem 1 as the first author's notebook states it), on a finite sample with ties.

The registry's meanings are computed on rankings with ties: AUROC and AP by the oracle
(:func:`prtheory.oracle.roc_auc`, :func:`prtheory.oracle.average_precision`), the expectation
forms item by item (:mod:`.forms`), and the means over the orders of the tied items by brute
force (:func:`prtheory.theory.brute.brute_expected`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction

import sympy as sp

from prtheory.oracle import average_precision, roc_auc
from prtheory.theory.brute import brute_expected, ir_ap
from prtheory.theory.checks import exhaustive, refuted
from prtheory.theory.common import name, scored, tied_ranking_variable
from prtheory.theory.domain import Domain, Meaning
from prtheory.theory.mcdermott2024.forms import (
    expectation_ap,
    mean_fpr_mid,
    mean_fpr_over_firing,
)
from prtheory.theory.registry import Proof, claim

SOURCE = "McDermott et al. 2024 (author code: the notebook's Theorem 1)"

ranking = sp.Symbol("y")  # a ranking: labels and tied scores

#: Rankings whose orders of tied items are enumerated (the product of the blocks' arrangements).
MAX_ORDERS = 5000


def _label_vectors(n: int) -> Iterator[tuple[int, ...]]:
    """Every label vector of ``n`` items with both classes."""
    for bits in range(1, 2**n - 1):
        yield tuple((bits >> k) & 1 for k in range(n))


RANKINGS = tied_ranking_variable(ranking, largest=40)


def _ranked(point: dict) -> tuple[list[int], list[int]]:
    """The point's ranking as labels and tied scores."""
    return scored(point[ranking])


def _orders(y: list[int], s: list[int]) -> int:
    """How many distinct orders of the tied items there are (the brute force's work)."""
    count = 1
    for t in set(s):
        block = [y[k] for k in range(len(y)) if s[k] == t]
        count *= math.comb(len(block), sum(block))
    return count


def _over_orders(metric):
    def mean(point: dict) -> Fraction | None:
        y, s = _ranked(point)
        return brute_expected(y, s, metric) if _orders(y, s) <= MAX_ORDERS else None

    return mean


def _untied_auroc(labels: list[int]) -> Fraction:
    """1 - mean over positives of (negatives ranked above)/N, for labels in rank order."""
    n_neg = labels.count(0)
    above, total = 0, Fraction(0)
    for v in labels:
        if v:
            total += Fraction(above, n_neg)
        else:
            above += 1
    return 1 - total / labels.count(1)


# ---- K1 ---------------------------------------------------------------------------------------
AUROC, E_FPR = name(r"\mathrm{AUROC}"), name(r"E_{p_+}[\mathrm{FPR}]")
K1_STATEMENT = sp.Eq(AUROC, 1 - E_FPR)


def _half_count_is_the_mean_over_orders(max_n: int = 7) -> tuple[bool, str]:
    """The half-counted form against the mean over every order of the tied items of the
    untied form, on every small ranking with ties."""
    return exhaustive(
        (scored(b) for b in RANKINGS.enumerate({}, max_n)),
        lambda c: brute_expected(c[0], c[1], _untied_auroc) == 1 - mean_fpr_mid(*c),
        f"every ranking with both classes and every pattern of ties, 2 to {max_n} items",
    )


@claim(
    "K1",
    source=SOURCE,
    location="notebook AUROC_AUPRC_equivalencies.ipynb, Theorem 1",
    title="AUROC = 1 - E_{p+}[FPR], with ties counted one half",
    statement=lambda: K1_STATEMENT,
    assumptions=(
        "a finite sample with both classes, ties allowed; AUROC the trapezoidal area (the "
        "Wilcoxon-Mann-Whitney statistic, D7)",
        "FPR at a positive's score t: (negatives above t + half the negatives tied at t)/N; "
        "E_{p+} the mean over the positives",
    ),
    domain=Domain(
        RANKINGS,
        define={
            AUROC: Meaning(lambda pt: roc_auc(*_ranked(pt)), "the oracle's trapezoidal AUROC"),
            E_FPR: Meaning(
                lambda pt: mean_fpr_mid(*_ranked(pt)), "the mean FPR_mid over positives"
            ),
        },
        exhaustive=6,
        samples=40,
    ),
    note=(
        "Theorem 1's first half, as the notebook states it, with its FPR made precise for ties: "
        "a negative tied with the positive counts one half, as in the WMW statistic; that is "
        "also the mean, over the orders of the tied items, of the FPR of an untied order. In the "
        "population: AUROC = P(p+ > p-) + P(p+ = p-)/2 = 1 - E_{p+}[P(p- > p+) + P(p- = p+)/2]."
    ),
)
def _k1(pf: Proof) -> None:
    above, tied = sp.symbols("a e", nonnegative=True)
    pf.equal(
        "A (positive, negative) pair with indicators a (positive above), e (tied), b = 1 - a - e "
        "(negative above): its WMW count a + e/2 is 1 minus the negative's FPR count b + e/2",
        above + tied / 2,
        1 - ((1 - above - tied) + tied / 2),
    )
    pf.conclude(
        "Summed over the N negatives and averaged over the P positives (step 1): AUROC = "
        "WMW = 1 - E_{p+}[FPR]",
        sp.Eq(AUROC, 1 - E_FPR),
        [1],
    )
    pf.value(
        "A tied pair is ordered either way in half of the orders of its block: its untied count "
        "averages to 1/2, the half count",
        (sp.Integer(1) + 0) / 2,
        sp.Rational(1, 2),
        "exact arithmetic",
    )
    pf.establish("AUROC as an expectation over the positives", K1_STATEMENT, [2])
    pf.check(
        "enumeration",
        "The half-counted form is the mean over every order of the tied items of the untied "
        "form 1 - E[FPR]",
        _half_count_is_the_mean_over_orders(),
    )


# ---- K2 ---------------------------------------------------------------------------------------
AP, PI0, E_RATIO, AP_ORDERS, E_RATIO_ORDERS = (
    name(r"\mathrm{AP}"),
    name(r"P(y = 0)"),
    name(r"E_{p_+}\left[\frac{\mathrm{FPR}_{\ge}}{P(p \ge p_+)}\right]"),
    name(r"E_{\mathrm{orders}}[\mathrm{AP}]"),
    name(
        r"E_{\mathrm{orders}}\left[E_{p_+}\left[\frac{\mathrm{FPR}_{\ge}}{P(p \ge p_+)}\right]\right]"
    ),
)
#: The notebook's text: FPR and the firing rate counted with > (K2's source, refuted).
E_RATIO_STRICT = name(r"E_{p_+}\left[\frac{\mathrm{FPR}_{>}}{P(p > p_+)}\right]")
K2_STATEMENT = sp.And(
    sp.Eq(AP, 1 - PI0 * E_RATIO), sp.Eq(AP_ORDERS, 1 - PI0 * E_RATIO_ORDERS), evaluate=False
)


def _untied_ratio(labels: list[int]) -> Fraction:
    """mean over positives of FPR/firing rate at its rank, the positive counted (>=)."""
    return mean_fpr_over_firing(labels, list(range(len(labels), 0, -1)))


def _strict_ratio(point: dict) -> Fraction | None:
    """The notebook's mean of FPR/P(p > p+), or None where a positive is on top (0/0)."""
    try:
        return mean_fpr_over_firing(*_ranked(point), strict=True)
    except ZeroDivisionError:
        return None


def _strict_is_not_ap(max_n: int = 7) -> tuple[bool, str]:
    """The notebook's text, P(p > p+): it divides by 0 at the top positive, and with a negative
    on top (where it does not) it differs from AP in some ranking of every size 3 .. max_n."""
    untied = [
        (y, tuple(range(len(y), 0, -1))) for n in range(3, max_n + 1) for y in _label_vectors(n)
    ]
    topped = [(y, s) for y, s in untied if y[0] == 0]
    sizes = {
        len(y) for y, s in topped if expectation_ap(y, s, strict=True) != average_precision(y, s)
    }
    try:
        expectation_ap((1, 0), (2, 1), strict=True)
        crashed = False
    except ZeroDivisionError:
        crashed = True
    return crashed and sizes == set(range(3, max_n + 1)), (
        "with > the top positive's firing rate is 0 (division by zero); with a negative on top "
        f"the strict form differs from AP in rankings of every size {sorted(sizes)}"
    )


@claim(
    "K2",
    source=SOURCE,
    location="notebook AUROC_AUPRC_equivalencies.ipynb, Theorem 1",
    title="AUPRC = 1 - P(y=0) E_{p+}[FPR/P(p >= p+)]: on a sample with >=, not >",
    statement=lambda: K2_STATEMENT,
    assumptions=(
        "a finite sample with both classes, ties allowed; AP the step area with tied scores "
        "grouped (scikit-learn's average_precision_score), P(y = 0) = N/n",
        "FPR_>= at a positive's score t: negatives with score >= t over N; P(p >= p+): items "
        "with score >= t over n (the positive itself included); E_{p+} the mean over positives",
        "E_orders: the mean over every order of the tied items, of IR AP and of the form for an "
        "untied order (the expected AP, ties='expected')",
    ),
    domain=Domain(
        RANKINGS,
        define={
            AP: Meaning(
                lambda pt: average_precision(*_ranked(pt)), "the oracle's AP, ties grouped"
            ),
            PI0: Meaning(
                lambda pt: Fraction(sum(n for _, n in pt[ranking]), sum(map(sum, pt[ranking]))),
                "N/n",
            ),
            E_RATIO: Meaning(
                lambda pt: mean_fpr_over_firing(*_ranked(pt)),
                "the mean of FPR_>=/Q_>= over positives",
            ),
            AP_ORDERS: Meaning(_over_orders(ir_ap), "the mean of IR AP over every order"),
            E_RATIO_ORDERS: Meaning(
                _over_orders(_untied_ratio), "the mean of the untied form over every order"
            ),
            E_RATIO_STRICT: Meaning(
                _strict_ratio, "the mean of FPR_>/Q_> over positives (no positive on top)"
            ),
        },
        exhaustive=6,
        samples=40,
    ),
    verdict="holds as corrected",
    note=(
        "The notebook's Theorem 1 writes AUPRC = 1 - P(y = 0) E_{p+}[FPR/P(p > p+)]. On a finite "
        "sample the firing rate must count the positive itself, P(p >= p+): with > the top "
        "positive divides by 0, and elsewhere the value is not AP (the notebook's own code "
        "counts positions at or above the positive, i.e. >=, which is why it agreed to 1e-16). "
        "With tied scores the exact form uses >= in FPR too (tied negatives fire with the "
        "positive) and gives AP with ties grouped, so its FPR is not K1's half-counted one. The "
        "population form, AUPRC = E_{p+}[precision(p+)] = 1 - P(y = 0) E_{p+}[FPR(p+)/Q(p+)] "
        "with Q(t) = P(p >= t) and FPR(t) = P(p- >= t), is where > and >= agree: for continuous "
        "scores (no atoms)."
    ),
)
def _k2(pf: Proof) -> None:
    tp, fp = sp.symbols("TP FP", nonnegative=True)
    n_neg, n_all = sp.symbols("N n", positive=True)
    pf.equal(
        "At a positive, with TP and FP counted at scores >= its own: precision = "
        "1 - (N/n) (FP/N)/((TP + FP)/n)",
        tp / (tp + fp),
        1 - (n_neg / n_all) * (fp / n_neg) / ((tp + fp) / n_all),
    )
    pi, rec, fpr_ = sp.symbols("pi R F", positive=True)
    pf.equal(
        "The population form at a threshold: precision pi R/(pi R + (1 - pi) F) = "
        "1 - (1 - pi) F/Q with firing rate Q = pi R + (1 - pi) F",
        pi * rec / (pi * rec + (1 - pi) * fpr_),
        1 - (1 - pi) * fpr_ / (pi * rec + (1 - pi) * fpr_),
    )
    pf.conclude(
        "Step AP (ties grouped) is the mean over positives of the precision at the threshold "
        "of each positive's block, so by step 1",
        sp.Eq(AP, 1 - PI0 * E_RATIO),
        [1],
    )
    pf.conclude(
        "For an untied order, IR AP is the mean over positives of the precision at each "
        "positive's rank, the same identity (step 1); averaged over the orders",
        sp.Eq(AP_ORDERS, 1 - PI0 * E_RATIO_ORDERS),
        [1],
    )
    pf.establish("The finite form, with ties", K2_STATEMENT, [3, 4])
    pf.check(
        "enumeration",
        "The notebook's strict form (>) is not AP",
        _strict_is_not_ap(),
    )
    pf.check(
        "exact",
        "The notebook's Theorem 1 as written, AP = 1 - P(y = 0) E[FPR_>/P(p > p+)], over this "
        "domain (at the rankings where it is defined: no positive on top)",
        refuted(sp.Eq(AP, 1 - PI0 * E_RATIO_STRICT), pf.domain),
    )
    pf.check(
        "enumeration",
        "Without ties the exact form equals AP for every ranking of up to 8 items",
        exhaustive(
            ((y, tuple(range(len(y), 0, -1))) for n in range(2, 9) for y in _label_vectors(n)),
            lambda c: expectation_ap(*c) == average_precision(*c),
            "every untied ranking of 2 to 8 items",
        ),
    )
