"""AUPRG, expected FG1 (Theorem 3) and F-calibrated scores (Theorem 4), checked independently."""

from __future__ import annotations

import itertools
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from prtheory._testing.strategies import rankings
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle.curves import prg_curve
from prtheory.oracle.prg import auprg, expected_fg1, f_calibrated_scores

F = Fraction


def curve_area(y, s, clip: bool) -> Fraction:
    """Second path: trapezoids over the PRGCurve's points (crossings included) with recG >= 0."""
    c = prg_curve(y, s)
    pts = [(x, g) for x, g in zip(c.recall_gain, c.precision_gain, strict=True) if x >= 0]
    total = F(0)
    for (x0, g0), (x1, g1) in itertools.pairwise(pts):
        if clip:
            g0, g1 = max(g0, F(0)), max(g1, F(0))
        total += (x1 - x0) * (g0 + g1) / 2
    return total


def test_by_hand():
    # y = [1, 0, 1, 0] in score order, pi = 1/2: PRG points (0, 1), (0, 0), (1, 1/2), (1, 0).
    # AUPRG = area of the segment (0, 0) -> (1, 1/2) = 1/4; y0 = 1, so E[FG1] = 1/8 + 1/4.
    y, s = [1, 0, 1, 0], [4, 3, 2, 1]
    assert auprg(y, s, negative_gain="signed") == F(1, 4)
    assert auprg(y, s, negative_gain="unit-square") == F(1, 4)
    assert expected_fg1(y, s) == F(3, 8)


def test_negative_precision_gain_by_hand():
    # y = [0, 1, 0, 0, 1, 1] in score order: pos = neg = 3, pi = 1/2, precG = 1 - FP/TP,
    # recG = 1 - FN/TP. Tables with TP > 0: (1,1) -> (-1, 0); (1,2), (1,3) -> (-1, -1), (-1, -2);
    # (2,3) -> (1/2, -1/2); (3,3) -> (1, 0). recG = 0 on (1,3)->(2,3) at TP = 3/2, FP = 3:
    # precG = -1. Curve on [0, 1]: (0, -1) -> (1/2, -1/2) -> (1, 0): signed area
    # (1/2)(-3/2)/2 + (1/2)(-1/2)/2 = -3/8 - 1/8 = -1/2; no part above 0.
    y, s = [0, 1, 0, 0, 1, 1], [6, 5, 4, 3, 2, 1]
    assert auprg(y, s, negative_gain="signed") == F(-1, 2)
    assert auprg(y, s, negative_gain="unit-square") == 0


@given(rankings())
def test_two_paths_and_convention_relations(case):
    y, s = case
    signed = auprg(y, s, negative_gain="signed")
    square = auprg(y, s, negative_gain="unit-square")
    assert signed == curve_area(y, s, clip=False)
    assert square == curve_area(y, s, clip=True)
    assert square >= 0
    assert signed <= square <= 1


@given(rankings(), st.sampled_from(["exp", "cube", "affine"]))
def test_invariant_under_strictly_increasing_score_maps(case, kind):
    y, s = case
    x = np.asarray(s, dtype=np.float64)
    t = {"exp": np.exp(x / 3), "cube": x**3 - 7, "affine": 2.5 * x + 0.25}[kind]
    assert len(set(t.tolist())) == len(set(s))  # still strictly increasing on these scores
    for ng in ("signed", "unit-square"):
        assert auprg(y, t, negative_gain=ng) == auprg(y, s, negative_gain=ng)


def test_weighted_equals_replicated():
    w = auprg([1, 0, 1, 0], [4, 3, 2, 1], sample_weight=[2, 1, 1, 3], negative_gain="signed")
    r = auprg([1, 1, 0, 1, 0, 0, 0], [4, 4, 3, 2, 1, 1, 1], negative_gain="signed")
    assert w == r


@given(rankings())
def test_theorem_3_by_integrating_over_delta(case):
    """E[FG1] with Delta uniform, integrated along the curve, equals Theorem 3's formula (F9)."""
    y, s = case
    c = prg_curve(y, s)
    pi = c.pi
    pts = [(x, g) for x, g in zip(c.recall_gain, c.precision_gain, strict=True) if x >= 0]
    deltas = [x / pi - g / (1 - pi) for x, g in pts]
    assert all(a <= b for a, b in itertools.pairwise(deltas))  # Delta is monotone (F9)
    width = deltas[-1] - deltas[0]
    if width == 0:
        with pytest.raises(UndefinedMetricError, match=r"^expected FG1 is undefined"):
            expected_fg1(y, s)
        return
    assert deltas[0] == -pts[0][1] / (1 - pi)
    assert deltas[-1] == 1 / pi
    # FG1 = (precG + recG)/2 (F8, beta = 1) is linear along each straight PRG segment
    mean = (
        sum(
            (
                (d1 - d0) * ((x0 + g0) / 2 + (x1 + g1) / 2) / 2
                for (d0, (x0, g0)), (d1, (x1, g1)) in itertools.pairwise(
                    zip(deltas, pts, strict=True)
                )
            ),
            F(0),
        )
        / width
    )
    assert expected_fg1(y, s) == mean


def test_theorem_3_undefined_for_the_worst_ranking():
    with pytest.raises(UndefinedMetricError, match=r"y0 = 1 - 1/pi"):
        expected_fg1([0, 0, 1, 1], [4, 3, 2, 1])


@given(rankings())
def test_calibrated_scores_equalise_f_beta(case):
    """Theorem 4 (F10): both ends of each hull segment have equal F_beta at beta^2."""
    y, s = case
    curve, segments = f_calibrated_scores(y, s)
    pos = curve.pos
    prev_d = None
    for seg in segments:
        assert seg.beta2 >= 0
        assert seg.d == 1 / (1 + seg.beta2)
        fs = []
        for i in (seg.left, seg.right):
            tp, fp = curve.tp[i], curve.fp[i]
            fs.append((1 + seg.beta2) * tp / ((1 + seg.beta2) * tp + fp + seg.beta2 * (pos - tp)))
        assert fs[0] == fs[1]
        # F8: beta^2 is minus the slope of the segment in PRG space
        dx = curve.recall_gain[seg.right] - curve.recall_gain[seg.left]
        dy = curve.precision_gain[seg.right] - curve.precision_gain[seg.left]
        assert seg.beta2 == -dy / dx
        if prev_d is not None:  # convexity: calibrated scores decrease along the front
            assert seg.d < prev_d
        prev_d = seg.d


def test_matches_the_official_prg_package(monkeypatch):
    """The "signed" convention is what meeliskull/prg's calc_auprg computes (float64)."""
    prg = pytest.importorskip("prg.prg")
    # the package calls np.alen, removed in NumPy 1.23
    monkeypatch.setattr(
        np, "alen", lambda x: len(x) if hasattr(x, "__len__") else np.size(x), raising=False
    )
    rng = np.random.default_rng(3)
    for _ in range(60):
        n = int(rng.integers(2, 30))
        y = (rng.random(n) < rng.random()).astype(int)
        if not 0 < y.sum() < n:
            continue
        s = rng.integers(0, 6, size=n).astype(float)
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            theirs = prg.calc_auprg(prg.create_prg_curve(y, s))
        # their float64 trapezoids over <= 2n points of magnitude <= n: 1e-9 is generous
        assert abs(theirs - float(auprg(y, s, negative_gain="signed"))) < 1e-9


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: auprg([0, 1], [1, 2], negative_gain="clip"), InvalidInputError, r"^negative_gain"),
        (
            lambda: auprg([1, 1], [1, 2], negative_gain="signed"),
            UndefinedMetricError,
            r"^precision gain is undefined",
        ),
        (
            lambda: auprg([0, 0], [1, 2], negative_gain="signed"),
            UndefinedMetricError,
            r"^recall gain is undefined",
        ),
        (
            lambda: auprg([0, 1], [1], negative_gain="signed"),
            InvalidInputError,
            r"^y_score: length 1",
        ),
        (
            lambda: expected_fg1([0, 1], [1, np.inf * 0]),
            InvalidInputError,
            r"^y_score: must not contain NaN",
        ),
        (lambda: f_calibrated_scores([1, 1], [1, 2]), UndefinedMetricError, r"^precision gain"),
    ],
)
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize("n", range(2, 9))
def test_signed_auprg_matches_the_theory_path_on_every_untied_ranking(n):
    """Third path: prtheory.theory.flach2015 walks the PRG path of an untied ranking itself."""
    from prtheory.theory import flach2015 as flach  # imported here: it pulls in sympy

    for y in itertools.product([0, 1], repeat=n):
        if 0 < sum(y) < n:
            scores = list(range(n, 0, -1))
            assert auprg(list(y), scores, negative_gain="signed") == flach.auprg(list(y))
