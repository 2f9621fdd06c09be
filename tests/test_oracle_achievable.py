"""The achievable PR curve (Davis & Goadrich 2006, D1-D3): hull against brute force over pairs of
points, dominance over every curve built from the same points, areas against quadrature."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import mpmath
import pytest

import prtheory
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle import pr_auc
from prtheory.oracle.achievable import (
    achievable_pr_curve,
    achievable_pr_curve_of_counts,
    achievable_pr_curve_of_ranking,
)
from prtheory.oracle.rounding import to_float
from prtheory.theory.davis_goadrich2006.curves import pr_precision_at


def on_chain(point, points):
    """Whether ``point`` lies on the hull's chain from (0, 0) to (neg, pos), by brute force over
    supporting lines: it does iff it maximises ``n . q`` over ``points`` for some direction
    ``n = (n_FP, n_TP)`` with ``n_FP <= 0 <= n_TP`` (up and to the left). A vertex does for the
    normals of its edges, a point on an edge for that edge's normal, so it suffices to try the
    normals of the lines through two points and the two axes."""
    normals = [(-1, 0), (0, 1)]
    for (fa, ta), (fb, tb) in itertools.combinations(points, 2):
        for nx, ny in ((ta - tb, fb - fa), (tb - ta, fa - fb)):
            if nx <= 0 <= ny and (nx, ny) != (0, 0):
                normals.append((nx, ny))
    return any(
        nx * point[0] + ny * point[1] == max(nx * f + ny * t for f, t in points)
        for nx, ny in normals
    )


def test_hull_by_hand():
    # points (FP, TP) (0, 1), (1, 2), (5, 3), (3, 2) with pos = 4, neg = 6: from (0, 0) up to
    # (0, 1), slope 1 to (1, 2), then slope 2/5 to (6, 4); (5, 3) lies under 2 + 4*2/5 = 3.6
    c = achievable_pr_curve_of_counts([1, 2, 3, 2], [0, 1, 5, 3], pos=4, neg=6)
    assert c.tp == (0, 1, 2, 4)
    assert c.fp == (0, 0, 1, 6)
    assert c.on_curve == (True, True, False, False)
    assert c.recall == (Fraction(1, 4), Fraction(1, 2), 1)
    assert c.precision == (1, Fraction(2, 3), Fraction(4, 10))
    # at TP = 3 on the edge (1, 2) -> (6, 4): FP = 1 + (5/2)(3 - 2) = 7/2, precision 3/(3 + 7/2)
    assert c.precision_at(Fraction(3, 4)) == Fraction(6, 13)
    assert c.precision_at(Fraction(1, 8)) == 1  # on the vertical edge from the origin
    # ROC hull area: (0,0)-(0,1)-(1,2)-(6,4): 0 + 1*(1+2)/2 + 5*(2+4)/2 = 33/2 over pos neg = 24
    assert c.roc_auc() == Fraction(33, 48)


def test_points_on_an_edge_are_kept():
    c = achievable_pr_curve_of_counts([1, 2, 3], [1, 2, 3], pos=3, neg=3)  # the diagonal
    assert c.on_curve == (True, True, True)
    assert c.tp == (0, 3)
    assert c.fp == (0, 3)


@pytest.mark.parametrize("seed", range(12))
def test_hull_and_dominance_against_brute_force(seed):
    """Random small point sets: a point is kept iff it lies on the hull's chain; the curve
    is one of the valid curves and dominates every other valid curve (every chain of the points
    from (0, 0) to (neg, pos) with FP and TP non-decreasing) at every recall where either bends
    and half way between."""
    rng = random.Random(seed)
    pos, neg = rng.randint(2, 6), rng.randint(2, 6)
    pts = {(rng.randint(0, neg), rng.randint(1, pos)) for _ in range(rng.randint(1, 5))}
    pts = sorted(pts)
    c = achievable_pr_curve_of_counts([t for _, t in pts], [f for f, _ in pts], pos=pos, neg=neg)
    ends = [(0, 0), (neg, pos)]
    for p, kept in zip(pts, c.on_curve, strict=True):
        assert kept == on_chain(p, pts + ends)
    hull = list(zip(c.fp, c.tp, strict=True))
    assert set(hull) <= set(pts) | set(ends)
    for size in range(len(pts) + 1):
        for subset in itertools.combinations(pts, size):
            chain = [(0, 0), *sorted(subset), (neg, pos)]
            if any(b[1] < a[1] for a, b in itertools.pairwise(chain)):
                continue  # TP must not fall along a curve
            tps = sorted({Fraction(t) for _, t in chain + hull if t > 0})
            grid = tps + [(a + b) / 2 for a, b in itertools.pairwise([Fraction(0), *tps])]
            for t in grid:
                assert c.precision_at(t / pos) >= pr_precision_at(chain, t)
                assert c.precision_at(t / pos) == pr_precision_at(hull, t)


def test_figure_6_area_against_quadrature():
    # (0.02, 1) with 433 positives and 56,164 negatives: TP = 8.66, FP = 0; the hull runs to
    # (56164, 433). Area = 8.66/433 + (1/433) int_{8.66}^{433} t/(t + s (t - 8.66)) dt.
    c = achievable_pr_curve([Fraction(2, 100)], [1], pos=433, neg=56164)
    assert c.tp == (0, Fraction(866, 100), 433)
    assert c.fp == (0, 0, 56164)
    ta = Fraction(866, 100)
    with mpmath.workdps(60):
        s = mpmath.mpf(56164) / (433 - mpmath.mpf(ta.numerator) / ta.denominator)
        t0 = mpmath.mpf(ta.numerator) / ta.denominator
        want = t0 / 433 + mpmath.quad(lambda t: t / (t + s * (t - t0)), [t0, 433]) / 433
        got = c.area(dps=30)
        assert abs(got - want) <= mpmath.mpf(2) ** (1 - 103) * want  # 103 bits = 30 digits


def test_ranking_curve_dominates_its_own_curve():
    rng = random.Random(3)
    for _ in range(30):
        n = rng.randint(3, 12)
        y = [rng.randint(0, 1) for _ in range(n)]
        if not 0 < sum(y) < n:
            y[:2] = [0, 1]
        s = [rng.randint(0, 5) for _ in range(n)]
        c = achievable_pr_curve_of_ranking(y, s)
        own = pr_auc(y, s, method="davis-goadrich", first_point="spark", dps=30)
        with mpmath.workdps(60):  # each value within 2**-102 relative of its exact one (30 digits)
            assert c.area(30) >= own * (1 - mpmath.mpf(2) ** -100)
        assert c.roc_auc() >= prtheory.oracle.roc_auc(y, s)


def test_convex_ranking_curve_is_its_own_achievable_curve():
    # 10 positives on top, then a tie of 10 positives and 1496 negatives, then 504 negatives:
    # the ROC curve (0,0)-(0,10)-(1496,20)-(2000,20) is concave, so it is its own hull
    y = [1] * 20 + [0] * 2000
    s = [3] * 10 + [2] * 1506 + [1] * 504
    c = achievable_pr_curve_of_ranking(y, s)
    assert c.tp == (0, 10, 20, 20)
    assert c.fp == (0, 0, 1496, 2000)
    own = pr_auc(y, s, method="davis-goadrich", first_point="spark", dps=30)
    with mpmath.workdps(60):  # each value within 2**-102 relative of the same exact area
        assert abs(c.area(30) - own) <= mpmath.mpf(2) ** -101 * own


def test_float_area():
    # positives at ranks 1 and 3 of 4: the hull keeps (FP, TP) = (0, 1), (1, 2); along the edge
    # FP = TP - 1, so the area is (1/2)(1 + int_1^2 t/(2t - 1) dt) = 3/4 + ln(3)/8
    with mpmath.workdps(40):
        want = to_float(mpmath.mpf(3) / 4 + mpmath.log(3) / 8)
    assert prtheory.achievable_pr_auc([1, 0, 1, 0], [4, 3, 2, 1]) == want
    assert prtheory.achievable_pr_auc(["a", "b"], [2, 1], pos_label="a") == 1.0


def test_errors():
    with pytest.raises(InvalidInputError, match=r"recall: must be in \(0, 1\] \(D1\), got 0"):
        achievable_pr_curve([0], [1], pos=2, neg=2)
    with pytest.raises(InvalidInputError, match=r"precision: point 0 .* needs FP = 3 > neg = 2"):
        achievable_pr_curve([1], [Fraction(2, 5)], pos=2, neg=2)
    with pytest.raises(InvalidInputError, match="precision: length 2 does not match"):
        achievable_pr_curve([1], [1, 1], pos=2, neg=2)
    with pytest.raises(InvalidInputError, match=r"tp: must be in \[0, pos\] = \[0, 2\], got 3"):
        achievable_pr_curve_of_counts([3], [0], pos=2, neg=2)
    with pytest.raises(UndefinedMetricError, match="pos = 0"):
        achievable_pr_curve_of_counts([0], [0], pos=0, neg=2)
    with pytest.raises(InvalidInputError, match="neg: must be >= 0"):
        achievable_pr_curve_of_counts([0], [0], pos=1, neg=-1)
    with pytest.raises(UndefinedMetricError, match="recall 0 is no point"):
        achievable_pr_curve_of_counts([1], [0], pos=1, neg=1).precision_at(0)
    with pytest.raises(UndefinedMetricError, match="no negatives"):
        achievable_pr_curve_of_counts([1], [0], pos=1, neg=0).roc_auc()
    with pytest.raises(InvalidInputError, match="recall: must be a sequence"):
        achievable_pr_curve(0.5, [1], pos=1, neg=1)
