"""The areas libraries print as methods of ``prtheory audit`` (``prtheory.audit.library_methods``).

Each library method's least value is its exact method's least value less a float64 allowance.
Checked two ways: the exact least value against the oracle's area of every ranking (every tie
pattern) of small counts, through the emulations of the libraries' own float arithmetic (which
the conformance tests compare with the libraries); and, with the installed libraries themselves,
every value Weka and XGBoost print for a ranking of pos, neg <= 8 is never flagged, while a value
below the least one is. ROCR's ``aucpr`` can print less than every other method's least value,
negative values included; its own bound (``prtheory.audit.rocr_bound``) is checked on every tie
structure of small counts, step by step against the proof, and its exact least value
(``prtheory.audit.rocr_exact``) against the least over every curve, built from the R source.
"""

from __future__ import annotations

import functools
import itertools
import math
import warnings
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest

from prtheory.audit import audit_row, least_area, parse_row, rocr_bound, rocr_exact
from prtheory.audit.intervals import to_mpf
from prtheory.audit.library_methods import allowance
from prtheory.audit.rocr_bound import rocr_allowance, rocr_least
from prtheory.conformance import gbdt_models, r_models
from prtheory.conformance.metrics import Inputs
from prtheory.oracle.areas import pr_auc
from prtheory.theory.common import scored, tied_rankings

EXACT_ARGS = {
    "weka": {"method": "step"},
    "lightgbm": {"method": "step"},
    "xgboost": {"method": "davis-goadrich", "first_point": "spark"},
    "catboost": {"method": "trapezoid", "first_point": "sklearn"},
    "mlmetrics": {"method": "trapezoid", "first_point": "none"},
}


def untied(pos, neg):
    """Every order of pos positives and neg negatives, with distinct scores."""
    n = pos + neg
    for where in itertools.combinations(range(n), pos):
        y = np.zeros(n, dtype=np.int64)
        y[list(where)] = 1
        yield y, np.arange(n, 0, -1, dtype=np.float64)


def mp(v):
    return to_mpf(v, 60)


@pytest.mark.parametrize("method", list(EXACT_ARGS))
@pytest.mark.parametrize(("pos", "neg"), [(p, n) for p in range(1, 4) for n in range(1, 4)])
def test_exact_least_value_is_the_least_area_of_every_ranking(method, pos, neg):
    """Without the allowance, each library method's bound is the oracle's least area over every
    tie pattern (attained): the exact method the library computes is the one named."""
    pi = F(pos, pos + neg)
    bound = mp(least_area(method, pi, pos, neg).value)
    slack = mp(allowance(pi, pos, neg)) if method != "mlmetrics" else 0
    with mpmath.workdps(60):
        areas = [mp(pr_auc(*scored(g), **EXACT_ARGS[method])) for g in tied_rankings(pos, neg)]
        assert abs(min(areas) - (bound + slack)) <= mpmath.mpf(10) ** -45


def test_allowance_covers_the_float_arithmetic_of_every_small_ranking():
    """The emulated float64 sums of XGBoost and LightGBM (the conformance tests compare them with
    the libraries bit for bit) stay above the bound on every tie pattern of pos, neg <= 4, and
    some fall below the exact least value, so the allowance is needed."""
    below_exact = 0
    for pos, neg in itertools.product(range(1, 5), range(1, 5)):
        pi = F(pos, pos + neg)
        for name, fn in (
            ("xgboost", gbdt_models.xgboost_aucpr),
            ("lightgbm", gbdt_models.lightgbm_average_precision),
        ):
            bound = least_area(name, pi, pos, neg)
            exact = mp(bound.value) + mp(allowance(pi, pos, neg))
            for g in tied_rankings(pos, neg):
                v = mpmath.mpf(fn(Inputs(*scored(g))))
                assert v > mp(bound.value), (name, pos, neg, g, v)
                below_exact += v < exact
    assert below_exact > 0


def test_allowance_formula():
    # (n + 1) 100 u / pi + 10^-17 with n = 8, pi = 3/8: 9 * 100 * 2^-53 * 8/3 + 10^-17
    want = F(9 * 100, 2**53) * F(8, 3) + F(1, 10**17)
    assert allowance(F(3, 8), 3, 5) == want
    assert allowance(F(3, 8)) == F(100 * (2**31 + 1), 2**53) * F(8, 3) + F(1, 10**17)


def test_library_methods_take_only_the_full_recall_range():
    from prtheory.errors import InvalidInputError

    with pytest.raises(InvalidInputError, match=r"\[0, 1\] only"):
        least_area("weka", F(1, 2), 1, 1, F(0), F(1, 2))


def _row(method, pos, neg, printed):
    return parse_row({"id": "x", "pos": pos, "neg": neg, "aucpr": printed, "method": method}, "x")


def test_values_below_what_weka_and_xgboost_can_print_are_flagged():
    # pos = 3, neg = 5: AP_min = (1/3)(1/6 + 2/7 + 3/8) = (1/3)(28 + 48 + 63)/168 = 139/504
    # = 0.27579..., so a PRC Area of 0.275 (at most 0.2755) is impossible under Weka; the DG
    # minimum AUCPR_min(3/8) = 0.21666... makes 0.216 (at most 0.2165) impossible under XGBoost
    assert least_area("step", F(3, 8), 3, 5).value == F(139, 504)
    for method, printed in (("weka", "0.275"), ("xgboost", "0.216")):
        res = audit_row(_row(method, 3, 5, printed))
        assert res.flagged, (method, res.findings)
        (flag,) = [f for f in res.findings if f.flagged]
        assert flag.method == method
    # the same numbers are possible under the trapezoid (CatBoost's): pi/2 = 3/16 = 0.1875
    assert not audit_row(_row("catboost", 3, 5, "0.216")).flagged


def _library_values(pos, neg, weka, xgb):
    """(Weka's PRC Area, XGBoost's printed aucpr) of every untied ranking."""
    for y, s in untied(pos, neg):
        x = Inputs(y, s)
        yield "weka", repr(weka.run(x))
        yield "xgboost", f"{xgb.run(x):.17f}"


def _never_flagged(sizes):
    from prtheory.conformance.adapters import implementations

    pytest.importorskip("xgboost")
    try:
        weka = {i.name: i for i in implementations("weka")}["ThresholdCurve.getPRCArea"]
    except RuntimeError as exc:
        pytest.skip(f"Weka is not installed: {exc}")
    xgb = {i.name: i for i in implementations("xgboost")}['eval_metric="aucpr"']
    checked = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for pos, neg in sizes:
            for method, printed in _library_values(pos, neg, weka, xgb):
                res = audit_row(_row(method, pos, neg, printed))
                assert not res.flagged, (method, pos, neg, printed, res.findings)
                checked += 1
    assert checked == 2 * sum(math.comb(p + n, p) for p, n in sizes)


def test_weka_and_xgboost_values_of_small_rankings_are_never_flagged():
    _never_flagged([(p, n) for p in range(1, 4) for n in range(1, 4)])


@pytest.mark.slow
def test_weka_and_xgboost_values_of_every_ranking_up_to_8_are_never_flagged():
    _never_flagged([(p, n) for p in range(1, 9) for n in range(1, 9)])


def _rocr_in_r():
    """ROCR's ``aucpr`` through R (skips where R or ROCR is missing)."""
    from prtheory.conformance.adapters import implementations

    try:
        return {i.name: i for i in implementations("rocr")}['performance(pred, "aucpr")']
    except (ImportError, RuntimeError) as exc:
        pytest.skip(f"ROCR is not installed: {exc}")


def test_rocr_aucpr_can_print_less_than_every_methods_least_value():
    """ROCR's misplaced Davis-Goadrich points (``prtheory.conformance.r_models``) walk back in
    recall, and the backward trapezoid subtracts area: 3000 tied negatives, then 300 positives in
    two tied groups of 72 and 228, score below pi/2 = 1/22, the least value of ``unknown``."""
    pos, neg, a = 300, 3000, 72
    y = [0] * neg + [1] * pos
    s = [3.0] * neg + [2.0] * a + [1.0] * (pos - a)

    # least FP per TP: (0, 0), (72, 3000), (300, 3000); both TP jumps exceed 2. The first inserts
    # TP = 1..72 after (0, 0), all at precision c = 72/3072 (skew 3000/72); the second inserts
    # TP = 73..300 at precision f(t) = t/(t + 3000) (skew 0) after position 2 of the grown
    # vector, i.e. after TP = 1. Vector order, TP: 0, 1, 73..300, 2..72, 72, 300, so the path
    # runs to recall 1, back to 2/300, and on to recall 1 again by one chord. Its trapezoids:
    def f(t):
        return F(t, t + neg)

    c, pi = f(a), f(pos)
    path = (
        F(1, pos) * (1 + c) / 2  # (0, 1) -> TP 1
        + F(a, pos) * (c + f(a + 1)) / 2  # TP 1 -> 73
        + sum(F(1, pos) * (f(t) + f(t + 1)) / 2 for t in range(a + 1, pos))  # 73 -> 300
        - F(pos - 2, pos) * (pi + c) / 2  # back from 300 to 2
        + F(a - 2, pos) * c  # 2 -> 72, flat at c; then 72 -> 72 has no width
        + F(pos - a, pos) * (c + pi) / 2  # 72 -> 300
    )
    assert pi / 2 == F(1, 22)
    unknown = least_area("unknown", pi, pos, neg)
    assert unknown.value == F(1, 22)
    assert path < unknown.value
    x = Inputs(np.asarray(y), np.asarray(s))
    assert r_models.rocr_aucpr(x) == pytest.approx(float(path), abs=2**-50)
    # a value ROCR printed is flagged under every other method, ``unknown`` included
    assert audit_row(_row("unknown", pos, neg, f"{float(path):.4f}")).flagged
    assert not audit_row(_row("rocr", pos, neg, f"{float(path):.4f}")).flagged
    rocr = _rocr_in_r()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert rocr.run(x) == pytest.approx(float(path), abs=2**-50)


def test_rocr_misplaced_points_lower_its_least_area():
    """Over every tie pattern of 11 positives and 1 negative, the rankings whose points ROCR
    keeps in recall order (at most one TP jump above 2, so at most one insertion) give at least
    533/660; two insertions, the second misplaced, give less."""
    # negatives first, then positives in tied groups 1, 2, 2, 2, 2, 2 (no jump above 2): the
    # points (0, 1), then recall t/11 at precision t/(t + 1) for t = 1, 3, 5, 7, 9, 11:
    # (1/11)(1 + 1/2)/2 + (2/11)[(1/2 + 3/4)/2 + ... + (9/10 + 11/12)/2]
    # = 3/44 + (1/11)[1/2 + 2(3/4 + 5/6 + 7/8 + 9/10) + 11/12] = 533/660
    in_order = F(3, 44) + F(1, 11) * (
        F(1, 2) + 2 * (F(3, 4) + F(5, 6) + F(7, 8) + F(9, 10)) + F(11, 12)
    )
    assert in_order == F(533, 660)
    least = {False: math.inf, True: math.inf}
    for g in tied_rankings(11, 1):
        y, s = scored(g)
        misplaced = sum(p > 2 for p, _ in g) > 1
        v = r_models.rocr_aucpr(Inputs(np.asarray(y), np.asarray(s, dtype=np.float64)))
        least[misplaced] = min(least[misplaced], v)
    assert least[False] == pytest.approx(float(in_order), abs=2**-50)
    assert least[True] < float(in_order)  # 0.80552: groups 1, 7, 3 after the negative


# ------------------------------------------------------------------------------------------
# ROCR's aucpr: the proved bound of prtheory.audit.rocr_bound


def _compositions(n):
    if n == 0:
        yield ()
        return
    for first in range(1, n + 1):
        for rest in _compositions(n - first):
            yield (first, *rest)


def _spreads(parts, most):
    """Every way to give ``parts`` groups ``b_j >= 0`` negatives with ``sum b_j <= most``."""
    if parts == 0:
        yield ()
        return
    for first in range(most + 1):
        for rest in _spreads(parts - 1, most - first):
            yield (first, *rest)


def rocr_curves(pos, neg):
    """Every curve ROCR keeps (least FP at each TP): groups of ``a_j >= 1`` positives tied with
    ``b_j`` negatives, and the negatives left over tied last. Every ranking's ROCR value is that
    of one of these (only the least FP at each TP is kept), so they are every tie structure."""
    for a in _compositions(pos):
        for b in _spreads(len(a), neg):
            yield a, b


def _ranking(a, b, neg):
    y, s = [], []
    groups = [*zip(a, b, strict=True), (0, neg - sum(b))]
    for rank, (p, n) in enumerate(groups):
        y += [1] * p + [0] * n
        s += [float(len(groups) - rank)] * (p + n)
    return Inputs(np.asarray(y), np.asarray(s))


def _rocr_exact(a, b):
    """ROCR's list, built independently of ``r_models`` in exact arithmetic from the R source
    (``append(..., after = i)`` on the grown vectors): the points (TP, predicted positives) in
    list order, and the exact trapezoid sum."""
    tp, fp = [0], [0]
    for p, n in zip(a, b, strict=True):
        tp.append(tp[-1] + p)
        fp.append(fp[-1] + n)
    pts = [(F(t), F(t + f)) for t, f in zip(tp, fp, strict=True)]
    for i in range(len(tp) - 1):
        d = tp[i + 1] - tp[i]
        if d > 2:
            skew = F(fp[i + 1] - fp[i], d)
            pts[i + 1 : i + 1] = [
                (F(tp[i] + k), tp[i] + fp[i] + k + skew * k) for k in range(1, d + 1)
            ]
    pos = tp[-1]
    xy = [(t / pos, t / n if n else F(1)) for t, n in pts]
    area = sum((xy[j][0] - xy[j - 1][0]) * (xy[j][1] + xy[j - 1][1]) / 2 for j in range(1, len(xy)))
    return xy, area


def test_rocr_trapezoid_sum_is_half_the_last_point_plus_the_cross_terms():
    """Step (2) of the proof, in sympy: sum (x_b - x_a)(y_a + y_b)/2 = x_M y_M/2 + (1/2) sum
    (x_b y_a - x_a y_b) for a list starting at x_0 = 0."""
    import sympy

    xs = sympy.symbols("x1:6")
    ys = sympy.symbols("y0:6")
    x = (sympy.Integer(0), *xs)
    trapezoids = sum((x[j] - x[j - 1]) * (ys[j] + ys[j - 1]) / 2 for j in range(1, 6))
    cross = sum(x[j] * ys[j - 1] - x[j - 1] * ys[j] for j in range(1, 6))
    assert sympy.expand(trapezoids - (x[5] * ys[5] / 2 + cross / 2)) == 0


def test_rocr_bound_algebra():
    """Step (5) of the proof, in sympy: sum_{j<Q} (1 - 3j/P) = Q - 3Q(Q - 1)/(2P) = phi(Q);
    phi(Q + 1) - phi(Q) = 1 - 3Q/P; d phi/dP = 3Q(Q - 1)/(2P^2); and the blocks' recalls
    1 - 3(q - k)/P for k = 2..q are the same sum with j = q - k."""
    import sympy

    big_p, big_q, j, k, q = sympy.symbols("P Q j k q", positive=True, integer=True)
    phi = big_q - 3 * big_q * (big_q - 1) / (2 * big_p)
    total = sympy.summation(1 - 3 * j / big_p, (j, 0, big_q - 1))
    assert sympy.simplify(total - phi) == 0
    assert sympy.simplify(phi.subs(big_q, big_q + 1) - phi - (1 - 3 * big_q / big_p)) == 0
    assert sympy.simplify(sympy.diff(phi, big_p) - 3 * big_q * (big_q - 1) / (2 * big_p**2)) == 0
    by_block = sympy.summation(1 - 3 * (q - k) / big_p, (k, 2, q))
    assert sympy.simplify(by_block - phi.subs(big_q, q - 1)) == 0
    # the function is the formula, and L decreases as pos grows (every pos up to 300)
    values = [rocr_least(F(1, 2), p) for p in range(1, 301)]
    assert all(
        rocr_bound.backward_cost(p) == phi.subs({big_q: max(p // 3 - 1, 0), big_p: p})
        for p in range(1, 301)
    )
    assert all(u >= v for u, v in itertools.pairwise(values))


def _check_rocr_bound(pos, neg):
    """The proof's steps on every curve, and the audit's bound below every value the emulation
    prints; returns the least value printed and the least exact area over every curve."""
    pi = F(pos, pos + neg)
    printed_bound = mp(least_area("rocr", pi, pos, neg).value)
    least = least_exact = None
    for a, b in rocr_curves(pos, neg):
        xy, area = _rocr_exact(a, b)
        blocks = sum(p > 2 for p in a)
        cross = [xy[j][0] * xy[j - 1][1] - xy[j - 1][0] * xy[j][1] for j in range(1, len(xy))]
        # steps (3)-(5): at most q - 1 steps with a negative cross term, each leaving the last
        # point of a block other than the first (whose recalls sum to at most phi(q - 1)), and
        # at least minus that point's recall
        negative = [j for j, c in enumerate(cross) if c < 0]
        assert len(negative) <= max(blocks - 1, 0), (a, b)
        ends = list(itertools.accumulate(a))  # TP at the end of each group
        block_ends = [F(e, pos) for e, p in zip(ends, a, strict=True) if p > 2][1:]
        leaving = [xy[j][0] for j in negative]
        assert all(x in block_ends for x in leaving)
        assert len(set(leaving)) == len(leaving)
        assert all(cross[j] >= -xy[j][0] for j in negative), (a, b)
        q = max(blocks - 1, 0)
        assert sum(block_ends, F(0)) <= q - F(3 * q * (q - 1), 2 * pos)
        assert area >= pi / 2 - sum(block_ends, F(0)) / 2 >= rocr_least(pi, pos), (a, b, area)
        got = r_models.rocr_aucpr(_ranking(a, b, neg))
        assert abs(F(got) - area) <= rocr_allowance(pos), (a, b)
        assert mpmath.mpf(got) >= printed_bound, (a, b, got)
        least = got if least is None else min(least, got)
        least_exact = area if least_exact is None else min(least_exact, area)
    return least, least_exact


def test_rocr_bound_holds_on_every_tie_pattern_of_small_counts():
    """Every tie pattern itself (not only the curves ROCR keeps) of pos, neg <= 4, through the
    emulation; and the proof's steps on every curve of pos, neg <= 5."""
    for pos, neg in itertools.product(range(1, 5), range(1, 5)):
        bound = mp(least_area("rocr", F(pos, pos + neg), pos, neg).value)
        for g in tied_rankings(pos, neg):
            y, s = scored(g)
            got = r_models.rocr_aucpr(Inputs(np.asarray(y), np.asarray(s, dtype=np.float64)))
            assert mpmath.mpf(got) >= bound, (pos, neg, g)
    for pos, neg in itertools.product(range(1, 6), range(1, 6)):
        assert _check_rocr_bound(pos, neg)[1] == rocr_exact.rocr_least_exact(pos, neg)


@pytest.mark.parametrize(("pos", "neg"), [(9, 2), (12, 1)])
def test_rocr_bound_holds_where_several_steps_run_back(pos, neg):
    """Two and three backward steps fit (Q = 2, 3): the proof's step (5) with the recalls of
    the blocks' ends, on every curve, and the exact least value."""
    assert _check_rocr_bound(pos, neg)[1] == rocr_exact.rocr_least_exact(pos, neg)


@pytest.mark.slow
def test_rocr_bound_holds_on_every_curve_up_to_8():
    """The proof's steps and the exact least value on every curve of pos, neg <= 8."""
    gaps = {}
    for pos, neg in itertools.product(range(1, 9), range(1, 9)):
        least, least_exact = _check_rocr_bound(pos, neg)
        assert least_exact == rocr_exact.rocr_least_exact(pos, neg), (pos, neg)
        gaps[pos, neg] = least - float(rocr_least(F(pos, pos + neg), pos))
    # the proved bound L is not tight there: pi/2 (pos <= 5) or pi/2 - 1/2 (pos 6..8) lies
    # well below the least value, which the audit now uses at these counts
    assert min(gaps.values()) > 0.12
    assert max(gaps.values()) < 0.83


def test_rocr_prints_negative_areas_which_only_its_own_bound_allows():
    """3 positives on top, then 1 positive tied with 300 negatives, then 26 positives: the last
    block (TP 4 -> 30) lands after the second point of the first (TP 0 -> 3), so the list runs
    TP 0, 1, 2, 5..30, back to 3, then 3, 4, 30. Hand-summed from the R source below."""
    pos, neg = 30, 300

    def f(t, fp):  # precision of the point (TP t, FP fp)
        return F(t, t + fp)

    # the points (recall, precision) in list order
    pts = [(F(0), F(1)), (F(1, 30), F(1)), (F(2, 30), F(1))]
    pts += [(F(t, 30), f(t, 300)) for t in range(5, 31)]  # DG from (4, 300) to (30, 300): skew 0
    pts += [(F(3, 30), F(1)), (F(3, 30), F(1)), (F(4, 30), f(4, 300)), (F(1), f(30, 300))]
    area = sum((pts[j][0] - pts[j - 1][0]) * (pts[j][1] + pts[j - 1][1]) / 2 for j in range(1, 33))
    assert -0.2659 > area > -0.2660  # -0.26591784...
    y = [1] * 3 + [1] + [0] * 300 + [1] * 26
    s = [3.0] * 3 + [2.0] * 301 + [1.0] * 26
    x = Inputs(np.asarray(y), np.asarray(s))
    got = r_models.rocr_aucpr(x)
    assert abs(F(got) - area) <= rocr_allowance(pos)
    printed = f"{got:.4f}"  # -0.2659
    assert not audit_row(_row("rocr", pos, neg, printed)).flagged
    assert audit_row(_row("unknown", pos, neg, printed)).flagged
    # a bound that ignored the backward steps (pi/2 less the allowance) would flag it
    assert F(printed) < F(1, 22) - rocr_allowance(pos)
    rocr = _rocr_in_r()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert rocr.run(x) == got


def test_values_below_rocrs_bound_are_flagged():
    """Outside the exact search's domain (neg > 400) the proved bound L is used."""
    # pos = 3, neg = 997: at most one block, L = pi/2 = 3/2000 = 0.0015 (less about 1e-14):
    # 0.0014 (at most 0.00145) is impossible, 0.0015 (up to 0.00155) is not
    assert not rocr_exact.in_exact_domain(3, 997)
    assert least_area("rocr", F(3, 1000), 3, 997).value == F(3, 2000) - rocr_allowance(3)
    assert audit_row(_row("rocr", 3, 997, "0.0014")).flagged
    assert not audit_row(_row("rocr", 3, 997, "0.0015")).flagged
    # pos = 6, neg = 994: one backward step, L = 6/2000 - 1/2 = -0.497
    assert least_area("rocr", F(6, 1000), 6, 994).value == F(-497, 1000) - rocr_allowance(6)
    # -0.498 stands for [-0.4985, -0.4975], all below; -0.497 for [-0.4975, -0.4965], which is not
    assert audit_row(_row("rocr", 6, 994, "-0.498")).flagged
    assert not audit_row(_row("rocr", 6, 994, "-0.497")).flagged
    assert "not the least value" in _range_text(_row("rocr", 6, 994, "-0.497"))


def _range_text(row):
    return next(f.reasoning for f in audit_row(row).findings if f.check == "aucpr-range")


# ------------------------------------------------------------------------------------------
# ROCR's aucpr: the exact least value of prtheory.audit.rocr_exact


def _curve_of(a, b):
    """The jumps and FPs ``f_0..f_m`` of the curve of groups ``a``, ``b``."""
    return tuple(a), tuple(itertools.accumulate(b, initial=0))


def test_rocr_exact_list_is_rocrs_list():
    """The search's stack machine builds the list R builds with ``append(after = i)``: its
    exact area is ``_rocr_exact``'s on every curve of pos, neg <= 5 and of pos = 6, 7 (two
    blocks fit: the list can leave chain order) with neg <= 2, and its float64 areas are the
    emulation's (which equals R), bit for bit."""
    counts = [*itertools.product(range(1, 6), range(1, 6)), (6, 1), (6, 2), (7, 1), (7, 2)]
    for pos, neg in counts:
        for a, b in rocr_curves(pos, neg):
            jumps, fps = _curve_of(a, b)
            assert rocr_exact.exact_area(jumps, fps) == _rocr_exact(a, b)[1], (a, b)
            got = rocr_exact._float_areas(jumps, np.asarray([fps]))[0]
            assert got == r_models.rocr_aucpr(_ranking(a, b, neg)), (a, b)


def _least_over_curves(pos, neg, keep=lambda a: True):
    return min(_rocr_exact(a, b)[1] for a, b in rocr_curves(pos, neg) if keep(a))


@pytest.mark.parametrize(("pos", "neg"), [(1, 40), (2, 40), (3, 25), (4, 12), (5, 7), (6, 6)])
def test_rocr_least_exact_is_the_least_over_every_curve_with_many_negatives(pos, neg):
    """Brute force over every curve (exact areas from the R source) equals the search, where
    part (a)'s programme runs over many FPs."""
    assert rocr_exact.rocr_least_exact(pos, neg) == _least_over_curves(pos, neg)


def test_rocr_least_exact_of_every_tie_pattern_through_the_emulation():
    """Every tie pattern (not only the curves ROCR keeps) of pos, neg <= 4: the least value
    the emulation prints is within the float64 allowance of the exact least, and the least
    curve's ranking prints it."""
    for pos, neg in itertools.product(range(1, 5), range(1, 5)):
        printed = min(
            r_models.rocr_aucpr(Inputs(np.asarray(y), np.asarray(s, dtype=np.float64)))
            for y, s in map(scored, tied_rankings(pos, neg))
        )
        least, jumps, fps = rocr_exact.rocr_least_curve(pos, neg)
        assert abs(F(printed) - least) <= rocr_allowance(pos), (pos, neg)
        b = [g - f for f, g in itertools.pairwise(fps)]
        assert _rocr_exact(jumps, b)[1] == least
        assert r_models.rocr_aucpr(_ranking(jumps, b, neg)) == pytest.approx(float(least))


@pytest.mark.slow
@pytest.mark.parametrize(("pos", "neg"), [(3, 120), (4, 40), (5, 16)])
def test_rocr_least_exact_with_many_negatives_slow(pos, neg):
    test_rocr_least_exact_is_the_least_over_every_curve_with_many_negatives(pos, neg)


@pytest.mark.parametrize(("pos", "neg"), [(7, 268), (10, 21), (14, 6)])
def test_rocr_least_exact_at_the_domains_edges(pos, neg):
    """Where brute force cannot go: the least curve's area, rebuilt from the R source, is the
    value returned, and no sampled curve (exact areas from the R source) goes below it."""
    least, jumps, fps = rocr_exact.rocr_least_curve(pos, neg)
    b = [g - f for f, g in itertools.pairwise(fps)]
    assert _rocr_exact(jumps, b)[1] == least
    rng = np.random.default_rng(pos * 1000 + neg)
    for _ in range(300):
        cuts = sorted(rng.choice(np.arange(1, pos), size=int(rng.integers(0, pos)), replace=False))
        a = [int(e - s) for s, e in itertools.pairwise([0, *cuts, pos])]
        fp = np.sort(rng.integers(0, neg + 1, size=len(a)))
        groups = [int(g - f) for f, g in itertools.pairwise([0, *fp.tolist()])]
        assert _rocr_exact(a, groups)[1] >= least, (a, groups)


def test_rocr_least_curve_with_twelve_positives_is_misplaced():
    """The docstring's example: pos = 12, neg = 6, least 0.47425 from jumps 3, 1, 8 with FPs
    0, 0, 6, 6 (3 positives, 1 positive tied with the 6 negatives, 8 positives; the second
    block lands after TP 2): its area rebuilt from the R source."""
    least, jumps, fps = rocr_exact.rocr_least_curve(12, 6)
    assert (jumps, fps) == ((3, 1, 8), (0, 0, 6, 6))
    assert least == _rocr_exact([3, 1, 8], [0, 6, 0])[1]
    assert 0.47425 < least < 0.47426
    # the audit's certificate names that ranking
    ranking = "3 positive(s); 1 positive(s) tied with 6 negative(s); 8 positive(s)"
    text = _range_text(_row("rocr", 12, 6, "0.5"))
    assert f"attained by the ranking (tied groups, best first) {ranking}; less" in text


@pytest.mark.slow
def test_rocr_least_values_over_the_domain():
    """The statements of the docstring's "What it found", over every neg <= 30 and every 25th
    beyond, to the domain's edge: the least curve is in order up to pos = 10 and misplaced for
    pos = 12..14, and the least value lies more than 1/16 above pi/2."""
    for pos in range(1, 15):
        for neg in [*range(1, 31), *range(50, 401, 25)]:
            if not rocr_exact.in_exact_domain(pos, neg):
                break
            least, jumps, _ = rocr_exact.rocr_least_curve(pos, neg)
            assert least > F(pos, 2 * (pos + neg)) + F(1, 16), (pos, neg)
            blocks = sum(d > 2 for d in jumps)
            assert blocks <= 1 if pos <= 10 else (blocks >= 2 or pos == 11), (pos, neg)


@pytest.mark.parametrize(("pos", "neg"), [(6, 3), (7, 2), (8, 2), (9, 1), (12, 1)])
def test_rocr_search_parts_against_brute_force(pos, neg):
    """Each part of the search against brute force over its own curves: part (b), the curves
    with two blocks or more (whose lists leave chain order), and part (a), the others. Up to 9
    positives the in-order least is the least; with 12 a misplaced curve goes below it."""
    misplaced = _least_over_curves(pos, neg, lambda a: sum(p > 2 for p in a) >= 2)
    in_order = _least_over_curves(pos, neg, lambda a: sum(p > 2 for p in a) <= 1)
    slack = 4 * float(rocr_allowance(pos))
    _, curves = rocr_exact._misplaced_search(pos, neg, slack)
    assert min(rocr_exact.exact_area(j, f) for j, f in curves) == misplaced
    _, curves = rocr_exact._chain_search(pos, neg, slack, np.inf)
    assert min(rocr_exact.exact_area(j, f) for j, f in curves) == in_order
    # misplaced blocks lower some areas; below the in-order least only with more positives
    assert (misplaced < in_order) == (pos >= 12)


def _in_order(jumps):
    """A mutant of ``list_order`` that ignores the insertion offset: every block where it
    belongs (Davis-Goadrich's chain)."""
    out = []
    for j, d in enumerate(jumps):
        out.append((j, 0))
        if d > 2:
            out.extend((j, k) for k in range(1, d + 1))
    return [*out, (len(jumps), 0)]


@pytest.fixture
def fresh_search():
    rocr_exact.rocr_least_curve.cache_clear()
    yield
    rocr_exact.rocr_least_curve.cache_clear()


def test_rocr_search_mutants_are_killed(monkeypatch, fresh_search):
    """The tests above fail for a search that ignores the insertion offset, or that takes
    two-block curves as in chain order (its partition rule weakened)."""
    with monkeypatch.context() as m:
        m.setattr(rocr_exact, "list_order", _in_order)
        with pytest.raises(AssertionError):
            test_rocr_exact_list_is_rocrs_list()
        with pytest.raises(AssertionError):
            test_rocr_search_parts_against_brute_force(6, 3)
        # and its least value itself: 12 positives, 1 negative, where a misplaced curve
        # attains the least (brute force: 0.812854...)
        assert rocr_exact.rocr_least_exact(12, 1) != _least_over_curves(12, 1)
    with monkeypatch.context() as m:  # (9 positives: three blocks fit)
        m.setattr(rocr_exact, "IN_ORDER_BLOCKS", 2)
        with pytest.raises(AssertionError):
            test_rocr_search_parts_against_brute_force(9, 1)


def test_rocr_least_value_is_the_audits_bound_in_the_domain():
    """With counts in the domain, the bound is the exact least less the allowance: values the
    proved bound L let through are flagged, and the certificate says which was used."""
    # pos = 6, neg = 6: L = 1/4 - 1/2 = -1/4, but brute force over every curve gives a least
    # area of 0.3854...; 0.30 (at most 0.305) cannot be printed by ROCR
    least = _least_over_curves(6, 6)
    assert 0.3854 < least < 0.3855
    assert least_area("rocr", F(1, 2), 6, 6).value == least - rocr_allowance(6)
    assert audit_row(_row("rocr", 6, 6, "0.30")).flagged
    assert not audit_row(_row("rocr", 6, 6, "0.39")).flagged
    assert "exhaustive search" in _range_text(_row("rocr", 6, 6, "0.39"))
    # 12 decimals: below the least by 1e-9 (far more than the allowance), flagged; the least
    # rounded to nearest (the interval holds it), not
    below = math.floor((least - F(1, 10**9)) * 10**12)
    assert audit_row(_row("rocr", 6, 6, f"0.{below:012d}")).flagged
    at = round(least * 10**12)
    assert not audit_row(_row("rocr", 6, 6, f"0.{at:012d}")).flagged


@pytest.mark.parametrize(("pos", "neg"), [(3, 5), (6, 8), (7, 268), (12, 4)])
def test_rocr_least_ranking_printed_by_r_is_not_flagged(pos, neg):
    """R itself on the least curve's ranking: within the allowance of the exact least (its
    area recomputed from the R source), and not flagged; a value the allowance below is."""
    least, jumps, fps = rocr_exact.rocr_least_curve(pos, neg)
    b = [g - f for f, g in itertools.pairwise(fps)]
    assert _rocr_exact(jumps, b)[1] == least
    rocr = _rocr_in_r()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = rocr.run(_ranking(jumps, b, neg))
    assert abs(F(got) - least) <= rocr_allowance(pos)
    assert not audit_row(_row("rocr", pos, neg, repr(got))).flagged
    lower = float(least - 2 * rocr_allowance(pos))
    assert audit_row(_row("rocr", pos, neg, repr(lower))).flagged


@pytest.mark.parametrize("seed", range(3))
def test_rocr_values_r_prints_are_never_flagged(seed):
    """R itself on a sample of curves of pos, neg <= 8 (R starts once per run)."""
    rocr = _rocr_in_r()
    rng = np.random.default_rng(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(20):
            pos, neg = (int(v) for v in rng.integers(1, 9, size=2))
            curves = list(rocr_curves(pos, neg))
            a, b = curves[int(rng.integers(len(curves)))]
            x = _ranking(a, b, neg)
            got = rocr.run(x)
            assert got == r_models.rocr_aucpr(x), (a, b)
            assert not audit_row(_row("rocr", pos, neg, repr(got))).flagged, (a, b, got)


def test_rocr_without_counts_is_not_checked():
    """With the skew alone no ROCR bound decides anything: at a fixed skew the proved bound
    pi/2 - phi(Q)/2 falls without limit in pos (here computed from its closed form at pos = 3k:
    Q = k - 1, phi = Q - 3Q(Q - 1)/(2 pos), about pos/6), so every printed area, even a
    negative one, would pass. Such rows are "not checked", never "ok"; with the counts the same
    values are checked (and a value below the bound is flagged)."""
    pi = F(1, 2)
    for k in (10, 10**3, 10**6):
        pos, q = 3 * k, k - 1
        bound = pi / 2 - (q - F(3 * q * (q - 1), 2 * pos)) / 2
        assert rocr_least(pi, pos) == bound
        assert bound < F(1, 4) - F(pos, 12) + 1  # about pi/2 - pos/12: no floor
    for printed in ("0.05", "-0.3", "-5", "0.9"):
        row = parse_row({"id": "x", "skew": "0.5", "aucpr": printed, "method": "rocr"}, "x")
        res = audit_row(row)
        assert res.status == "not checked", (printed, res.findings)
        (finding,) = [f for f in res.findings if f.check == "aucpr-range"]
        assert not finding.checked
        assert finding.bound is None
        assert "not checked without the class counts" in finding.reasoning
    assert not least_area("rocr", F(1, 2)).decides
    # the same printed values with counts: checked, and -5 is below L(6, 6) = 1/4 - 1/2
    assert audit_row(_row("rocr", 6, 6, "0.9")).status == "ok"
    assert audit_row(_row("rocr", 30, 300, "-5")).flagged  # L(30, 300) = -2.65...


def test_the_unknown_methods_flag_names_the_library_variants_it_excludes():
    """``unknown`` is the least of the papers' methods (pi/2), not of the libraries' variants:
    ROCR prints 0.043482 for 3000 tied negatives above 300 positives tied in groups of 72 and
    228 (test above), below pi/2 = 1/22 = 0.045454...; ``unknown`` flags 0.0435 there, and its
    certificate says that such a library can print less."""
    res = audit_row(_row("unknown", 300, 3000, "0.0435"))
    (flag,) = [f for f in res.findings if f.flagged]
    assert "rocr" in flag.reasoning
    assert "mlmetrics" in flag.reasoning


#: an allowance inflated so that curves of distinct exact areas lie within it of each other
_WIDE = 1 / 50
#: exact areas, shared by the three searches of each case below
_exact_area = functools.cache(rocr_exact.exact_area)


@functools.cache
def _least_chain_curves(pos, neg):
    """The brute-force least area and the curves in chain order (at most one block) that
    attain it, as ``(jumps, fps)``."""
    areas = {(a, b): _rocr_exact(a, b)[1] for a, b in rocr_curves(pos, neg)}
    least = min(areas.values())
    chain = {
        _curve_of(a, b) for (a, b), v in areas.items() if v == least and sum(d > 2 for d in a) <= 1
    }
    return least, chain


def _adversarial_rounding(monkeypatch, pos, neg, slack_allowance):
    """Make the search's float64 evaluation as wrong as its proof allows, against it: every
    curve of least exact area (brute force) evaluated ``_WIDE`` too high at most, every other
    curve ``_WIDE`` too low at most (part (b): the exact area moved by 0.99 ``_WIDE``; part
    (a): each chain segment moved by 0.99 ``_WIDE``/pos, at most pos segments per curve), while
    the search's screen is built from ``slack_allowance`` (the module's proof: 2 ``_WIDE``
    suffices; it screens with 4). Returns the brute-force least."""
    least, best_chain = _least_chain_curves(pos, neg)
    on_best = {
        (t, d, f, g)
        for j, fps in best_chain
        for t, d, f, g in zip(itertools.accumulate(j, initial=0), j, fps, fps[1:], strict=False)
    }
    shift = 0.99 * _WIDE

    def areas(jumps, fs):
        exact = [_exact_area(tuple(jumps), tuple(row)) for row in fs.tolist()]
        return np.array([float(e) + (shift if e == least else -shift) for e in exact])

    segments = rocr_exact._segments

    def moved(t, d, pos_, neg_):
        seg = segments(t, d, pos_, neg_) - shift / pos
        for t0, d0, f, g in on_best:
            if (t0, d0) == (t, d):
                seg[f, g] += 2 * shift / pos
        return seg

    monkeypatch.setattr(rocr_exact, "_float_areas", areas)
    monkeypatch.setattr(rocr_exact, "_segments", moved)
    monkeypatch.setattr(rocr_exact, "rocr_allowance", lambda p: F(slack_allowance))
    return least


@pytest.mark.parametrize(("pos", "neg"), [(12, 1), (6, 6), (5, 7)])
def test_rocr_search_screen_survives_the_worst_rounding_it_allows(
    monkeypatch, fresh_search, pos, neg
):
    """The float screen's margin (module docstring of prtheory.audit.rocr_exact): with every
    evaluated area within A of its exact value, screening at 2A keeps every curve of least
    exact area. With A inflated and the evaluation wrong against the search, the search is
    still exact at its own 4A, and at 2A; a screen of A (half the proof's) misses the least
    (the least curve at 12/1 is misplaced, part (b); at 6/6 and 5/7 in chain order, part (a))."""
    with monkeypatch.context() as m:
        least = _adversarial_rounding(m, pos, neg, _WIDE)
        assert rocr_exact.rocr_least_exact(pos, neg) == least
    rocr_exact.rocr_least_curve.cache_clear()
    with monkeypatch.context() as m:
        _adversarial_rounding(m, pos, neg, _WIDE / 2)  # screen 2A
        assert rocr_exact.rocr_least_exact(pos, neg) == least
    rocr_exact.rocr_least_curve.cache_clear()
    with monkeypatch.context() as m:
        _adversarial_rounding(m, pos, neg, _WIDE / 4)  # screen A: the mutant
        assert rocr_exact.rocr_least_exact(pos, neg) > least
