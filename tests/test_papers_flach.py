"""Flach & Kull 2015 regenerated: values checked by hand or recomputed here from the paper's
definitions (F5 gains, F2 F-beta), independently of the oracle code."""

from __future__ import annotations

from fractions import Fraction as F
from itertools import pairwise

from prtheory.oracle.curves import prg_curve
from prtheory.oracle.prg import f_calibrated_scores
from prtheory.papers import flach2015
from prtheory.theory.brute import ir_ap


def _fbeta(p, r, b2):
    return (1 + b2) * p * r / (b2 * p + r)


def test_f11_arithmetic_by_hand():
    text = flach2015.report()
    # beta^2 = (1 - d)/d: (1 - 0.76)/0.76 = 24/76 = 6/19 = 0.3158; (1 - 0.49)/0.49 = 51/49 = 1.0408
    assert "| 0.76 | 6/19 = 0.315789 | 0.32 | 0.32 |" in text
    assert "| 0.49 | 51/49 = 1.04082 | 1.04 | 1.04 |" in text


def test_calibrated_segments_have_equal_fbeta_at_their_ends():
    labels = flach2015.EXAMPLE
    scores = list(range(len(labels), 0, -1))
    curve, segments = f_calibrated_scores(labels, scores)
    assert segments
    previous_d = F(2)
    for s in segments:
        p1, r1 = curve.precision(s.left), curve.recall(s.left)
        p2, r2 = curve.precision(s.right), curve.recall(s.right)
        assert _fbeta(p1, r1, s.beta2) == _fbeta(p2, r2, s.beta2)  # Theorem 4, by F2
        assert s.d == 1 / (s.beta2 + 1)
        assert s.d < previous_d  # calibrated scores decrease along the hull
        previous_d = s.d


def _auprg_signed_by_hand(labels):
    """AUPRG from the F5 gains of every prefix table, trapezoids over recG in [0, 1]."""
    pos, neg = sum(labels), len(labels) - sum(labels)
    k = F(pos, neg)
    pts = []
    tp = fp = 0
    for y in labels:
        tp, fp = tp + y, fp + (1 - y)
        if tp:
            pts.append((1 - k * (pos - tp) / tp, 1 - k * fp / tp))  # (recG, precG)
    area = F(0)
    for (x0, y0), (x1, y1) in pairwise(pts):
        if x1 <= 0 or x1 == x0:
            continue
        if x0 < 0:  # cut the segment at recG = 0 (gains are linear along it, F7)
            y0 = y0 + (y1 - y0) * (0 - x0) / (x1 - x0)
            x0 = F(0)
        area += (x1 - x0) * (y0 + y1) / 2
    return area


def test_pair_disagrees_by_independent_computation():
    a, b = flach2015.PAIR["A"], flach2015.PAIR["B"]
    assert sum(a) == sum(b) == 10
    assert len(a) == len(b) == 24
    assert ir_ap(a) > ir_ap(b)  # AP / AUPR prefers A
    assert _auprg_signed_by_hand(a) < _auprg_signed_by_hand(b)  # AUPRG prefers B
    summary = flach2015.pair_summary()
    for name, labels in flach2015.PAIR.items():
        assert summary[name]["ap"] == ir_ap(labels)
        assert summary[name]["auprg_signed"] == _auprg_signed_by_hand(labels)


def test_example_baseline_on_minor_diagonal():
    d = flach2015.figure_2()
    # pi = 10/30 = 1/3: always-positive F1 = 2 pi/(1 + pi) = 1/2, and FG1 = (F - pi)/((1-pi) F) = 1/2
    assert d.meta["pi"] == "1/3"
    assert d.meta["baseline_f1"] == "1/2"
    assert d.meta["baseline_fg1"] == "1/2"
    # FG1 of the F1 = 0.6 isometric: (0.6 - 1/3)/((2/3) 0.6) = 2/3
    assert abs(d.arrays["fg1_levels"][0] - 2 / 3) < 1e-15
    # the PRG curve ends at the always-positive classifier (1, 0) (F6)
    curve = prg_curve(flach2015.EXAMPLE, list(range(30, 0, -1)))
    assert (curve.recall_gain[-1], curve.precision_gain[-1]) == (1, 0)
