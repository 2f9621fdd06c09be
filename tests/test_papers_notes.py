"""Seeds 003 and 004 regenerated: every value checked against a hand calculation."""

from __future__ import annotations

import math
from fractions import Fraction as F

from prtheory.papers import notes


def test_scores_example_by_hand():
    # threshold 0.5: A predicts the first four items positive, B items 1-4 as well
    assert notes.threshold_counts(notes.SCORES_A) == {"TP": 2, "FP": 2, "FN": 2, "TN": 2}
    assert notes.threshold_counts(notes.SCORES_B) == {"TP": 2, "FP": 2, "FN": 2, "TN": 2}
    # A's positives at ranks 1, 2, 5, 6; B's at 3, 4, 7, 8
    ap_a = (F(1) + F(1) + F(3, 5) + F(4, 6)) / 4
    ap_b = (F(1, 3) + F(2, 4) + F(3, 7) + F(4, 8)) / 4
    assert (ap_a, ap_b) == (F(49, 60), F(37, 84))
    fig = notes.figure_scores()
    assert fig.meta["ap"] == {"A": "49/60", "B": "37/84"}
    text = notes.report()
    assert "49/60 = 0.816667" in text
    assert "37/84 = 0.440476" in text


def test_ap_at_k_example():
    text = notes.report()
    # (1.00 + 1.00)/min(3, 4) = 2/3 -> 0.67; mean of P@1..P@3 = (1 + 1 + 2/3)/3 = 8/9
    assert "| 0.6667 | 0.67 | 0.67 (N5 holds) |" in text
    assert "| 0.8889 | 0.89 |" in text
    assert "| 0.2667 |" in text  # P@15 = 4/15


def test_g1_by_hand():
    text = notes.report()
    # A: P = 99/(99+10) = 0.908257 -> 90.8%, printed formula 90/109 = 0.825688
    assert (
        "| A | precision | 99/109 = 0.908257 | 90.8% | yes | 90/109 = 0.825688 | **no** |" in text
    )
    # B: P = 97/(97+9) = 0.915094 -> 91.5%, printed formula 91/100
    assert "| B | precision | 97/106 = 0.915094 | 91.5% | yes | 91/100 = 0.91 | **no** |" in text


def test_means_by_hand():
    p, r = F(99, 109), F(99, 100)
    assert notes.arithmetic_mean(p, r, F(1)) == (p + r) / 2
    assert notes.arithmetic_mean(F(84, 100), F(48, 100), F(8)) == F(4, 5)
    assert notes.arithmetic_mean(F(83, 100), F(56, 100), F(8)) == F(4, 5)
    g = notes.geometric_mean(p, r, F(1))
    # sqrt(P R) in float64; the mpmath value at 30 digits rounds to within 1 ulp of it
    assert abs(float(g) - math.sqrt(float(p) * float(r))) <= 2 * math.ulp(0.95)
    g2 = notes.geometric_mean(F(1, 4), F(1, 2), F(2))
    assert abs(float(g2) - (0.25 * 0.5**2) ** (1 / 3)) <= 2 * math.ulp(0.4)
    text = notes.report()
    # simple means all prefer A; F1 of A = 198/209
    assert "| harmonic = F1 | 0.947368 | 0.941748 | A |" in text
    assert "| arithmetic (P + R)/2 | 0.949128 | 0.942547 | A |" in text


def test_marginal_rate_against_a_finite_difference():
    beta = F(3, 10)
    p, r = F(9, 10), F(36, 100)
    m = notes.marginal_rate(p, r, beta)
    assert m == F(9, 100) * F(81, 100) / F(1296, 10000)

    def f(pp, rr):
        b2 = beta * beta
        return (1 + b2) * pp * rr / (b2 * pp + rr)

    h = F(1, 10**9)
    dfdr = (f(p, r + h) - f(p, r - h)) / (2 * h)
    dfdp = (f(p + h, r) - f(p - h, r)) / (2 * h)
    assert abs(dfdr / dfdp - m) < F(1, 10**12)  # central differences: error O(h^2)
    assert notes.marginal_rate(F(1, 4), F(3, 4), F(3)) == 1  # G6: R/P = beta


def test_means_figure_values():
    d = notes.figure_means()
    axis = d.arrays["axis"]
    i, j = 60, 20  # precision index, recall index
    p, r = F(i, 80), F(j, 80)
    assert axis[j] == float(r)
    assert d.arrays["A"][i, j] == float((F(1, 4) * p + r) / F(5, 4))
    b2 = F(4)
    assert d.arrays["F"][i, j] == float((1 + b2) * p * r / (b2 * p + r))
