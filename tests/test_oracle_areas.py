"""Areas under the PR curve and AUCNPR: hand values, brute force, quadrature, sklearn."""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prtheory._testing.strategies import rankings
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle.areas import _fixed_log_ratios, aucnpr_ranking, pr_auc, roc_auc
from prtheory.oracle.curves import roc_curve
from prtheory.oracle.rounding import prec_of_dps, rounded
from prtheory.theory.brute import brute_counts, two_class_rankings

F = Fraction
Y = [0, 0, 1, 1, 0]
S = [0.8, 0.8, 0.8, 0.2, 0.2]


def unit_fractions() -> st.SearchStrategy:
    return st.fractions(min_value=0, max_value=1, max_denominator=12)


# ------------------------------------------------------------------------------------------
# from-scratch references: lists of (recall, precision) points, integrated by hand


def brute_points(y, s):
    """(TP, FP, recall, precision) at each distinct threshold, counted item by item."""
    pos = sum(y)
    return [(tp, fp, F(tp, pos), F(tp, tp + fp)) for tp, fp in brute_counts(y, s)]


def with_first(points, first_point):
    rp = [(r, p) for _, _, r, p in points]
    if first_point == "sklearn":
        return [(F(0), F(1)), *rp]
    if first_point == "spark":
        return [(F(0), rp[0][1]), *rp]
    return rp


def polyline_area(rp, a=0, b=1):
    """Integral over [a, b] of the polyline through rp, by inserting a and b as vertices."""
    a, b = F(a), F(b)

    def height(x):  # value of the polyline at recall x (first segment that reaches x)
        for (r0, p0), (r1, p1) in itertools.pairwise(rp):
            if r0 <= x <= r1 and r1 > r0:
                return p0 + (p1 - p0) * (x - r0) / (r1 - r0)
        return None

    pts = [(r, p) for r, p in rp if a <= r <= b]
    for x in (a, b):
        h = height(x)
        if h is not None and all(r != x for r, _ in pts):
            pts.append((x, h))
    pts.sort(key=lambda q: q[0])  # vertical runs have zero width whatever their order
    return sum(((r1 - r0) * (p0 + p1) / 2 for (r0, p0), (r1, p1) in itertools.pairwise(pts)), F(0))


def brute_step(points):
    total, prev = F(0), F(0)
    for _, _, r, p in points:
        total += (r - prev) * p
        prev = r
    return total


def brute_lower_trapezoid(rp):
    by_recall: dict[Fraction, list[Fraction]] = {}
    for r, p in rp:
        by_recall.setdefault(r, []).append(p)
    rs = sorted(by_recall)
    return sum(
        (
            (rs[i + 1] - rs[i]) * (min(by_recall[rs[i]]) + max(by_recall[rs[i + 1]])) / 2
            for i in range(len(rs) - 1)
        ),
        F(0),
    )


def dg_discrete_points(points, pos, first_point):
    """Davis & Goadrich's intermediate points: one per whole true positive between tables."""
    tables = [(tp, fp) for tp, fp, _, _ in points]
    t1, f1 = tables[0]
    rp = [(F(0), F(t1, t1 + f1))] if first_point == "spark" else []
    rp.append((F(t1, pos), F(t1, t1 + f1) if t1 + f1 else F(0)))
    for (t0, f0), (t1, f1) in itertools.pairwise(tables):
        for k in range(1, t1 - t0 + 1):
            tp, fp = t0 + k, f0 + F(k * (f1 - f0), t1 - t0)
            rp.append((F(tp, pos), tp / (tp + fp)))
        if t1 == t0:
            rp.append((F(t1, pos), F(t1, t1 + f1)))
    return rp


def dg_quadrature(points, pos, lo, hi, first_point, dps=20):
    """Davis-Goadrich area by numerical quadrature of precision(TP) on each table segment."""
    tables = [(0, 0)] if first_point == "spark" else []
    tables += [(tp, fp) for tp, fp, _, _ in points]
    total = mpmath.mpf(0)
    with mpmath.workdps(dps):
        for (t0, f0), (t1, f1) in itertools.pairwise(tables):
            u0, u1 = max(F(t0), lo), min(F(t1), hi)
            if t1 == t0 or u1 <= u0:
                continue
            s = F(f1 - f0, t1 - t0)

            def prec(x, t0=t0, f0=f0, s=s):
                return x / (x + f0 + mpmath.mpf(s.numerator) / s.denominator * (x - t0))

            total += mpmath.quad(
                prec,
                [
                    mpmath.mpf(u0.numerator) / u0.denominator,
                    mpmath.mpf(u1.numerator) / u1.denominator,
                ],
            )
        return total / pos


# ------------------------------------------------------------------------------------------
# values fixed by hand


def test_hand_values():
    # vertices (0, 1), (1/2, 1/3), (1, 2/5): (1/2)(4/3)/2 + (1/2)(11/15)/2 = 31/60
    assert pr_auc(Y, S, method="trapezoid", first_point="sklearn") == F(31, 60)
    assert pr_auc(Y, S, method="lower-trapezoid", first_point="sklearn") == F(31, 60)
    # AP = (1/2)(1/3) + (1/2)(2/5)
    assert pr_auc(Y, S, method="step") == F(11, 30)
    # no first point: only the segment from recall 1/2 to 1
    assert pr_auc(Y, S, method="trapezoid", first_point="none") == F(11, 60)
    # Spark's (0, 1/3) first point
    assert pr_auc(Y, S, method="trapezoid", first_point="spark") == F(1, 6) + F(11, 60)
    # Davis & Goadrich's discrete points: one TP step from (1, 2) to (2, 3), so the same
    # trapezoid after the constant-precision start from the empty classifier
    assert pr_auc(Y, S, method="davis-goadrich-discrete", first_point="spark") == F(7, 20)


def test_davis_goadrich_hand_values():
    # From the empty classifier to (TP 1, FP 2) precision is 1/3 on [0, 1/2]: area 1/6. From
    # (1, 2) to (2, 3): s = 1, x + FP = 2x + 1, (1/2) int_1^2 x/(2x+1) dx = 1/4 - (1/8) ln(5/3).
    with mpmath.workdps(60):
        want = mpmath.mpf(1) / 6 + mpmath.mpf(1) / 4 - mpmath.log(mpmath.mpf(5) / 3) / 8
        got = pr_auc(Y, S, method="davis-goadrich", first_point="spark", dps=50)
        assert abs(got - want) <= 2 ** (1 - prec_of_dps(50)) * want
    assert mpmath.nstr(got, 6) == "0.352813"
    # correctly rounded float64 through the oracle contract (Ziv); the value is not near a tie
    with mpmath.workdps(60):
        assert rounded(pr_auc, Y, S, method="davis-goadrich", first_point="spark") == float(want)
    # the worst ranking of one positive and one negative: 1 + ln(1/2) = AUCPR_min(1/2) (B2, B4)
    with mpmath.workdps(60):
        got = pr_auc([0, 1], [0.9, 0.1], method="davis-goadrich", first_point="spark", dps=50)
        want = 1 + mpmath.log(mpmath.mpf(1) / 2)
        assert abs(got - want) <= 2 ** (1 - prec_of_dps(50)) * want


def test_restricted_range_by_hand():
    # trapezoid (sklearn) over [1/4, 3/4]: (1/4)(2/3 + 1/3)/2 + (1/4)(1/3 + 11/30)/2 = 17/80
    assert pr_auc(Y, S, method="trapezoid", first_point="sklearn", a=F(1, 4), b=F(3, 4)) == F(
        17, 80
    )
    # step over [1/4, 3/4]: precision 1/3 on (1/4, 1/2], 2/5 on (1/2, 3/4]
    assert pr_auc(Y, S, method="step", a=0.25, b=0.75) == F(1, 12) + F(1, 10)


# ------------------------------------------------------------------------------------------
# brute force


@pytest.mark.parametrize(
    "n", [2, 3, 4, 5, 6, *[pytest.param(n, marks=pytest.mark.slow) for n in (7, 8)]]
)
def test_rational_areas_brute_force(n):
    """Every ranking of n <= 6 items (n = 7, 8 in the slow tier): all label vectors times every tie-block composition."""
    for y_, s_ in two_class_rankings(n):
        pts = brute_points(y_, s_)
        assert pr_auc(y_, s_, method="step") == brute_step(pts)
        for fp in ("none", "sklearn", "spark"):
            rp = with_first(pts, fp)
            assert pr_auc(y_, s_, method="trapezoid", first_point=fp) == polyline_area(rp)
            lt = pr_auc(y_, s_, method="lower-trapezoid", first_point=fp)
            assert lt == brute_lower_trapezoid(rp)
            # documented: along one ranking, every point kept, LT is the trapezoid
            assert lt == polyline_area(rp)
        for fp in ("none", "spark"):
            want = polyline_area(dg_discrete_points(pts, sum(y_), fp))
            assert pr_auc(y_, s_, method="davis-goadrich-discrete", first_point=fp) == want


@given(rankings(), unit_fractions(), unit_fractions())
def test_restricted_ranges_brute_force(case, a, b):
    y, s = case
    a, b = min(a, b), max(a, b)
    if a == b:
        return
    pts = brute_points(y, s)
    for fp in ("none", "sklearn", "spark"):
        rp = with_first(pts, fp)
        got = pr_auc(y, s, method="trapezoid", first_point=fp, a=a, b=b)
        assert got == polyline_area(rp, a, b)
        # additivity over a split point
        whole = pr_auc(y, s, method="trapezoid", first_point=fp)
        left = pr_auc(y, s, method="trapezoid", first_point=fp, a=0, b=b) if b > 0 else 0
        right = pr_auc(y, s, method="trapezoid", first_point=fp, a=b, b=1) if b < 1 else 0
        assert left + right == whole
    for fp in ("none", "spark"):
        got = pr_auc(y, s, method="davis-goadrich-discrete", first_point=fp, a=a, b=b)
        assert got == polyline_area(dg_discrete_points(pts, sum(y), fp), a, b)
    # step over [a, b]: integrate the step function p_k on (r_{k-1}, r_k] clipped to [a, b]
    want, prev = F(0), F(0)
    for _, _, r, p in pts:
        want += max(F(0), min(r, b) - max(prev, a)) * p
        prev = r
    assert pr_auc(y, s, method="step", a=a, b=b) == want


@settings(max_examples=15)
@given(rankings(6), unit_fractions(), unit_fractions(), st.sampled_from(["spark", "none"]))
def test_davis_goadrich_against_quadrature(case, a, b, first_point):
    y, s = case
    a, b = min(a, b), max(a, b)
    if a == b:
        return
    pos = sum(y)
    got = pr_auc(y, s, method="davis-goadrich", first_point=first_point, a=a, b=b, dps=30)
    want = dg_quadrature(brute_points(y, s), pos, a * pos, b * pos, first_point)
    # tanh-sinh quadrature of a smooth rational function at 20 digits: 1e-17 absolute
    assert abs(got - want) < mpmath.mpf(10) ** -17


@given(st.integers(1, 60), st.integers(1, 60), unit_fractions(), unit_fractions())
def test_worst_ranking_davis_goadrich_is_aucpr_min(pos, neg, a, b):
    """B2, B4, B7: DG interpolation of the worst ranking stays on the minimum PR curve."""
    y = [0] * neg + [1] * pos
    s = list(range(pos + neg, 0, -1))
    a, b = min(a, b), max(a, b)
    with mpmath.workdps(50):
        pi = mpmath.mpf(pos) / (pos + neg)
        full = 1 + (1 - pi) * mpmath.log(1 - pi) / pi  # B4, computed here from the formula
        got = pr_auc(y, s, method="davis-goadrich", first_point="spark", dps=40)
        assert abs(got - full) <= 2 ** (1 - prec_of_dps(40)) * full
        if a < b:
            a_, b_ = (
                mpmath.mpf(a.numerator) / a.denominator,
                mpmath.mpf(b.numerator) / b.denominator,
            )
            sub = b_ - a_ + (1 - pi) / pi * mpmath.log((pi * (a_ - 1) + 1) / (pi * (b_ - 1) + 1))
            got = pr_auc(y, s, method="davis-goadrich", first_point="spark", a=a, b=b, dps=40)
            assert abs(got - sub) <= mpmath.mpf(10) ** -38 * max(sub, mpmath.mpf(10) ** -30)


def test_large_davis_goadrich_keeps_the_oracle_contract():
    # 2000 items: DG at 30 digits must agree with DG at 60 digits to 2**(1-p) relative
    rng = np.random.default_rng(11)
    y = rng.random(2000) < 0.2
    s = rng.integers(0, 500, 2000)
    lo = pr_auc(y, s, method="davis-goadrich", first_point="spark", dps=30)
    with mpmath.workdps(70):
        hi = pr_auc(y, s, method="davis-goadrich", first_point="spark", dps=60)
        assert abs(lo - hi) <= 2 ** (1 - prec_of_dps(30)) * hi


def test_trapezoid_matches_sklearn_auc_of_precision_recall_curve():
    sk = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(5)
    for n in (10, 200, 3000):
        y = rng.integers(0, 2, n)
        s = rng.integers(0, n // 3 + 2, n) / 3.0
        precision, recall, _ = sk.precision_recall_curve(y, s)
        got = sk.auc(recall, precision)
        exact = pr_auc(y, s, method="trapezoid", first_point="sklearn")
        m = len(precision)
        # Bound: every recall and precision is one correctly rounded division (error <= u x,
        # u = 2**-53, values <= 1); a term (r1 - r0)(p0 + p1)/2 then has absolute error
        # <= u (r0 + r1)(p0 + p1)/2 + 4 u |term| <= 2u + 4u; numpy's trapezoid sums m - 1 terms
        # pairwise with error <= m u (sum <= 1). Total <= (6 + 1) m u; we allow 8 m u.
        assert abs(F(got) - exact) <= 8 * m * F(1, 2**53)


# ------------------------------------------------------------------------------------------
# AUCNPR


def test_aucnpr_trapezoid_and_step():
    with mpmath.workdps(50):
        amin = 1 + (1 - mpmath.mpf(2) / 5) * mpmath.log(mpmath.mpf(3) / 5) / (mpmath.mpf(2) / 5)
        want = (mpmath.mpf(31) / 60 - amin) / (1 - amin)
        got = aucnpr_ranking(Y, S, method="trapezoid", first_point="sklearn", dps=40)
        assert abs(got - want) <= mpmath.mpf(10) ** -38 * abs(want)
    # AP = 11/30; AP_min(2 positives, 3 negatives) = (1/2)(1/4 + 2/5) = 13/40
    assert aucnpr_ranking(Y, S, method="step") == (F(11, 30) - F(13, 40)) / (1 - F(13, 40))


@given(rankings(7), unit_fractions(), unit_fractions())
def test_aucnpr_step_on_a_range_brute_force(case, a, b):
    y, s = case
    a, b = min(a, b), max(a, b)
    if a == b:
        return
    pos, neg = sum(y), len(y) - sum(y)

    def step(points):
        total, prev = F(0), F(0)
        for _, _, r, p in points:
            total += max(F(0), min(r, b) - max(prev, a)) * p
            prev = r
        return total

    worst = [(i, neg, F(i, pos), F(i, i + neg)) for i in range(1, pos + 1)]
    lo = step(worst)
    want = (step(brute_points(y, s)) - lo) / (b - a - lo)
    assert aucnpr_ranking(y, s, method="step", a=a, b=b) == want


@pytest.mark.parametrize("first_point", ["spark", "none"])
@pytest.mark.parametrize(("pos", "neg"), [(1, 1), (2, 3), (5, 1), (7, 40)])
@pytest.mark.parametrize("tied", [False, True])
def test_worst_ranking_normalises_to_exactly_zero_under_davis_goadrich(first_point, pos, neg, tied):
    # B2: every negative above every positive is the minimum curve itself, so AUCNPR is 0 exactly
    y = [0] * neg + [1] * pos
    s = [2] * neg + [1] * pos if tied else list(range(pos + neg, 0, -1))
    got = aucnpr_ranking(y, s, method="davis-goadrich", first_point=first_point)
    assert got == 0
    assert isinstance(got, F)
    assert rounded(aucnpr_ranking, y, s, method="davis-goadrich", first_point=first_point) == 0.0
    # weighted and over a sub-range too (B7: the minimum over [a, b] is the same curve)
    w = list(range(1, pos + neg + 1))
    args = {"method": "davis-goadrich", "first_point": first_point}
    assert aucnpr_ranking(y, s, w, **args) == 0
    assert aucnpr_ranking(y, s, a=F(1, 4), b=F(3, 4), **args) == 0


def test_davis_goadrich_aucnpr_by_hand():
    # y = 0 1 0 1 by descending score, spark start: FP = 1 on TP in [0, 1] and FP = 2 on
    # [1, 2], so 2 * area = int_0^1 x/(x+1) + int_1^2 x/(x+2) = (1 - ln 2) + (1 - 2 ln(4/3));
    # AUCPR_min(1/2) = 1 - ln 2, hence AUCNPR = 1/2 - ln(4/3)/ln 2
    with mpmath.workdps(60):
        want = mpmath.mpf(1) / 2 - mpmath.log(mpmath.mpf(4) / 3) / mpmath.log(2)
        got = aucnpr_ranking(
            [0, 1, 0, 1], [4, 3, 2, 1], method="davis-goadrich", dps=50, first_point="spark"
        )
        assert abs(got - want) <= mpmath.mpf(2) ** -160 * abs(want)
    assert rounded(
        aucnpr_ranking, [0, 1, 0, 1], [4, 3, 2, 1], method="davis-goadrich", first_point="spark"
    ) == float(want)


def test_davis_goadrich_aucnpr_near_the_minimum_is_relatively_accurate():
    # one positive lifted one place above the last negative: AUCNPR is tiny but not 0, and the
    # result must still carry ~50 correct digits (not the absolute noise of area - AUCPR_min)
    neg = 200
    y = [0] * (neg - 1) + [1, 0, 1]
    s = list(range(len(y), 0, -1))
    lo = aucnpr_ranking(y, s, method="davis-goadrich", first_point="spark", dps=30)
    hi = aucnpr_ranking(y, s, method="davis-goadrich", first_point="spark", dps=60)
    assert 0 < lo < mpmath.mpf(10) ** -2
    with mpmath.workdps(60):
        assert abs(lo - hi) <= mpmath.mpf(10) ** -28 * hi


def test_trapezoid_of_the_worst_ranking_is_below_aucpr_min():
    # chords of the concave minimum curve lie under it, so AUCNPR < 0 (not clipped)
    got = aucnpr_ranking([0, 0, 0, 1, 1], [5, 4, 3, 2, 1], method="trapezoid", first_point="spark")
    assert got < 0


# ------------------------------------------------------------------------------------------
# errors


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: pr_auc(Y, S, method="simpson"), InvalidInputError, r"^method: must be one of"),
        (
            lambda: pr_auc(
                Y, S, [1, 1, 2, 1, 1], method="davis-goadrich-discrete", first_point="none"
            ),
            InvalidInputError,
            r"^sample_weight: davis-goadrich-discrete",
        ),
        (
            lambda: pr_auc(Y, S, method="trapezoid"),
            InvalidInputError,
            r"^first_point: method 'trapezoid' needs",
        ),
        (
            lambda: pr_auc(Y, S, method="step", first_point="sklearn"),
            InvalidInputError,
            r"^first_point: must be one of 'none'",
        ),
        (
            lambda: pr_auc(Y, S, method="davis-goadrich", first_point="sklearn"),
            InvalidInputError,
            r"^first_point: 'sklearn' puts",
        ),
        (
            lambda: pr_auc(Y, S, method="step", a=0.7, b=0.2),
            InvalidInputError,
            r"^a, b: need a <= b",
        ),
        (
            lambda: pr_auc(Y, S, method="step", a=0.5, b=0.5),
            UndefinedMetricError,
            r"recall range .* is empty",
        ),
        (
            lambda: pr_auc(Y, S, method="step", b=1.5),
            InvalidInputError,
            r"^b: must lie in \[0, 1\]",
        ),
        (
            lambda: pr_auc([0, 0], [1, 2], method="step"),
            UndefinedMetricError,
            r"no positive weight",
        ),
        (
            lambda: pr_auc(Y, S, method="davis-goadrich", first_point="spark", dps=0),
            InvalidInputError,
            r"^dps: must be an integer >= 1",
        ),
        (
            lambda: pr_auc(Y, [1, 2], method="step"),
            InvalidInputError,
            r"^y_score: length 2 does not match",
        ),
        (
            lambda: aucnpr_ranking(Y, S, [1, 1, 1, 2, 1], method="step"),
            InvalidInputError,
            r"^sample_weight: step AUCNPR",
        ),
        (
            lambda: aucnpr_ranking([1, 1], [1, 2], method="step", a=0.5),
            UndefinedMetricError,
            r"^AUCNPR is undefined",
        ),
        (
            lambda: aucnpr_ranking([1, 1], [1, 2], method="trapezoid", first_point="none"),
            UndefinedMetricError,
            r"^AUCNPR is undefined",
        ),
    ],
)
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_no_negatives_paper_convention():
    assert aucnpr_ranking([1, 1], [1, 2], method="step", a=0.5, convention="paper") == 1
    assert (
        aucnpr_ranking([1, 1], [1, 2], method="trapezoid", first_point="none", convention="paper")
        == 1
    )


# ------------------------------------------------------------------------------------------
# ROC


@given(rankings())
def test_roc_auc_is_the_pairwise_win_probability(case):
    y, s = case
    pos = [si for yi, si in zip(y, s, strict=True) if yi]
    neg = [si for yi, si in zip(y, s, strict=True) if not yi]
    wins = sum(F(1) if p > q else F(1, 2) if p == q else F(0) for p in pos for q in neg)
    assert roc_auc(y, s) == wins / (len(pos) * len(neg))


@given(rankings())
def test_expected_accuracy_over_the_predicted_positive_rate(case):
    """F12: averaging accuracy uniformly over rate = pi tpr + (1-pi) fpr along the ROC curve
    gives pi (1-pi) (2 AUROC - 1) + 1/2 (accuracy and rate are linear on each ROC segment)."""
    y, s = case
    c = roc_curve(y, s)
    pi = F(sum(y), len(y))
    rate = [pi * t + (1 - pi) * f for f, t in zip(c.fpr, c.tpr, strict=True)]
    acc = [pi * t + (1 - pi) * (1 - f) for f, t in zip(c.fpr, c.tpr, strict=True)]
    mean = sum(
        (
            (r1 - r0) * (a0 + a1) / 2
            for (r0, a0), (r1, a1) in itertools.pairwise(zip(rate, acc, strict=True))
        ),
        F(0),
    )
    assert mean == pi * (1 - pi) * (2 * roc_auc(y, s) - 1) + F(1, 2)


def test_roc_auc_matches_sklearn():
    sk = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(9)
    y = rng.integers(0, 2, 500)
    s = rng.integers(0, 60, 500) / 7.0
    exact = roc_auc(y, s)
    # sklearn sums <= 501 float trapezoids of rates in [0, 1], each a few roundings: 8 m u
    assert abs(F(sk.roc_auc_score(y, s)) - exact) <= 8 * 501 * F(1, 2**53)


@given(rankings(6), st.lists(st.integers(0, 3), min_size=6, max_size=6))
def test_integer_weights_equal_replicated_items(case, weights):
    y, s = case
    w = weights[: len(y)]
    if not 0 < sum(wi for yi, wi in zip(y, w, strict=True) if yi) < sum(w):
        return
    y_rep = [yi for yi, wi in zip(y, w, strict=True) for _ in range(wi)]
    s_rep = [si for si, wi in zip(s, w, strict=True) for _ in range(wi)]
    halves = [F(wi, 2) for wi in w]  # scaling every weight leaves every ratio unchanged
    for method, fp in (("step", None), ("trapezoid", "sklearn"), ("lower-trapezoid", "spark")):
        want = pr_auc(y_rep, s_rep, method=method, first_point=fp)
        assert pr_auc(y, s, w, method=method, first_point=fp) == want
        assert pr_auc(y, s, halves, method=method, first_point=fp) == want
    dg = pr_auc(y_rep, s_rep, method="davis-goadrich", first_point="spark", dps=30)
    got = pr_auc(y, s, halves, method="davis-goadrich", first_point="spark", dps=30)
    # two evaluations of the same number, each within 2**(1-p) relative of it
    assert abs(got - dg) <= 2 ** (2 - prec_of_dps(30)) * dg


def test_fixed_point_logs_within_one_unit():
    """Davis-Goadrich's logs: 2**F ln(a/b) rounded with error < 1, checked at 3F bits by
    mpmath; ratios near 1 take the series, far ones (|z| > 1/16) mpmath at F + 24 bits."""
    rng = np.random.default_rng(17)
    base = rng.integers(1, 10**12, 300)
    step = rng.integers(0, 10**6, 300)
    a = np.concatenate((base + step, [2, 17, 10**15, 33, 1], base[:5] * 3))
    b = np.concatenate((base, [1, 15, 1, 31, 1], base[:5]))
    for frac_bits in (60, 200):
        got = _fixed_log_ratios(a.astype(object), b.astype(object), frac_bits, frac_bits + 24)
        with mpmath.workprec(3 * frac_bits):
            for x, y, v in zip(a.tolist(), b.tolist(), got, strict=True):
                exact = mpmath.log(mpmath.mpf(x) / y) * 2**frac_bits
                assert abs(v - exact) < 1


# ------------------------------------------------------------------------------------------
# McClish's standardised partial ROC AUC


def test_partial_roc_auc_by_hand():
    from prtheory.oracle.areas import partial_roc_auc

    # 0.9 (positive), 0.8 (negative), 0.7 (positive): the curve runs (0, 0), (0, 1/2), (1, 1/2),
    # (1, 1); over FPR in [0, 1/2] it is at TPR 1/2, A = 1/4, and McClish maps A to
    # (1 + (1/4 - 1/8)/(1/2 - 1/8))/2 = 2/3
    y, s = [1, 0, 1], [0.9, 0.8, 0.7]
    assert partial_roc_auc(y, s, max_fpr=Fraction(1, 2)) == Fraction(2, 3)
    # the segment from (0, 0) to (1, 1) of one tied pair is cut at FPR 1/3: A = (1/3)(1/3)/2 =
    # 1/18, the diagonal's own area, so 1/2
    assert partial_roc_auc([1, 0], [0.5, 0.5], max_fpr=Fraction(1, 3)) == Fraction(1, 2)
    # a perfect ranking: A = m, so 1
    assert partial_roc_auc([1, 1, 0, 0], [4, 3, 2, 1], max_fpr=0.25) == 1
    # weights: the negative of weight 3 below the first positive, the second positive (weight
    # 1) below it: curve (0, 0), (0, 1/2), (1, 1/2), (1, 1) again with pos weight 2 of 1 each
    assert partial_roc_auc(y, s, [1, 3, 1], max_fpr=0.5) == Fraction(2, 3)


def test_partial_roc_auc_rejects_bad_max_fpr_and_one_class():
    from prtheory.oracle.areas import partial_roc_auc

    for bad in (0, -0.1, 1.5, float("nan")):
        with pytest.raises(InvalidInputError, match="max_fpr"):
            partial_roc_auc([1, 0], [0.9, 0.1], max_fpr=bad)
    with pytest.raises(UndefinedMetricError):
        partial_roc_auc([1, 1], [0.9, 0.1], max_fpr=0.5)


def test_partial_roc_auc_at_one_is_the_whole_area_and_agrees_with_sklearn():
    """At m = 1, the oracle's ROC AUC exactly. At m in (0, 1), scikit-learn's float
    ``roc_auc_score(max_fpr=m)`` (its own interpolation and trapezoids) within (8 + 4n) 2^-53:
    it sums n trapezoids in float64, each rounding by half an ulp of a partial sum below m, and
    McClish's map divides by m - m^2/2 >= m/2, so A's error of about n 2^-53 m becomes at most
    2n 2^-53; 8 covers the interpolation at m and the map's own roundings."""
    from prtheory.oracle.areas import partial_roc_auc, roc_auc

    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(11)
    for n in (2, 5, 17, 60, 300):
        for _ in range(20):
            y = rng.integers(0, 2, n)
            y[0], y[-1] = 1, 0
            s = rng.integers(0, max(2, n // 2), n) / 8  # ties
            assert partial_roc_auc(y, s, max_fpr=1) == roc_auc(y, s)
            m = float(rng.choice([0.05, 0.1, 0.3, 0.5, 0.9]))
            exact = partial_roc_auc(y, s, max_fpr=m)
            got = sklearn_metrics.roc_auc_score(y, s, max_fpr=m)
            assert abs(got - float(exact)) <= (8 + 4 * n) * 2.0**-53, (n, m)
