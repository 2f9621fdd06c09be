"""Boyd et al. 2012 regenerated: values checked against hand calculations and against mpmath
evaluations of the paper's formulas written out here (not through the oracle)."""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest

from prtheory.audit.checks import implied_skew
from prtheory.audit.images import aucnpr_image, implied_aucpr_min
from prtheory.audit.intervals import Interval, to_mpf
from prtheory.audit.table import read_rows
from prtheory.papers import boyd2012, data_path


def _m(pi):
    """B4 written out: 1 + (1 - pi) ln(1 - pi)/pi (at the caller's mpmath precision)."""
    pi = mpmath.mpf(pi)
    return 1 + (1 - pi) * mpmath.log(1 - pi) / pi


def _aucnpr(x, pi):
    return (mpmath.mpf(x) - _m(pi)) / (1 - _m(pi))


def test_table_1_by_hand():
    rows = boyd2012.table_1()
    # TP = 100 r, FP = TP (1 - 0.2)/0.2 = 4 TP, FN = 100 - TP, TN = 200 - FP
    assert [(r["TP"], r["FP"], r["FN"], r["TN"]) for r in rows] == [
        (20, 80, 80, 120),
        (40, 160, 60, 40),
        (50, 200, 50, 0),
        (60, 240, 40, -40),
    ]
    assert [r["valid"] for r in rows] == [True, True, True, False]
    # bound at pi = 1/3: r/(2 + r)
    assert [r["bound"] for r in rows] == [F(1, 11), F(1, 6), F(1, 5), F(3, 13)]


# Table 3 (B13): AUCNPR over the AUCPR rounding interval, against mpmath at 50 digits.
TABLE3 = [
    ("1:1", 1, "0.851", "0.785"),
    ("1:2", 2, "0.740", "0.680"),
    ("1:3", 3, "0.678", "0.627"),
    ("1:4", 4, "0.701", "0.665"),
    ("1:5", 5, "0.599", "0.560"),
    ("1:10", 10, "0.383", "0.352"),
    ("1:24", 24, "0.363", "0.349"),
]


@pytest.mark.parametrize(("ratio", "k", "aucpr", "aucnpr"), TABLE3)
def test_table3_downsampled_cells(ratio, k, aucpr, aucnpr):
    row = next(
        r for r in read_rows(data_path("boyd2012_table3.csv")) if r.id == f"{ratio} downsampled"
    )
    image = aucnpr_image(row.box("aucpr", "any"), Interval.point(F(1, 1 + k)))
    with mpmath.workdps(50):
        lo = _aucnpr(mpmath.mpf(aucpr) - mpmath.mpf("0.0005"), mpmath.mpf(1) / (1 + k))
        hi = _aucnpr(mpmath.mpf(aucpr) + mpmath.mpf("0.0005"), mpmath.mpf(1) / (1 + k))
        assert abs(to_mpf(image.lo, 40) - lo) < mpmath.mpf(10) ** -35
        assert abs(to_mpf(image.hi, 40) - hi) < mpmath.mpf(10) ** -35
        y = mpmath.mpf(aucnpr)
        consistent = hi >= y - mpmath.mpf("0.0005") and lo <= y + mpmath.mpf("0.0005")
    assert image.meets(row.values["aucnpr"].interval("any")) == consistent
    assert consistent  # every Table 3 cell is consistent under rounding


def test_table3_one_to_two_is_explained_by_rounding():
    # 0.740 at pi = 1/3 recomputes to 0.67938 (prints 0.679), but AUCPR = 0.7405 gives 0.67999 >= 0.6795
    with mpmath.workdps(30):
        assert mpmath.nstr(_aucnpr("0.740", mpmath.mpf(1) / 3), 5) == "0.67938"
        assert _aucnpr("0.7405", mpmath.mpf(1) / 3) > mpmath.mpf("0.6795")
    report = boyd2012.report()
    assert "| 1:2 | downsampled |" in report
    assert "0.679 |" in report
    assert "14 of 14 cells are consistent" in report


def test_means_row_is_an_exact_midpoint():
    mr = boyd2012.means_row()
    # (1 + 1 + 0.325 + 0.611 + 0.141 + 1)/6 = 4.077/6 = 0.6795
    assert mr["aucnpr"]["mean"] == F(4077, 6000)
    assert mr["aucnpr"]["by_convention"] == {
        "any": True,
        "half-even": True,
        "half-up": True,
        "half-down": False,
        "truncate": False,
    }
    # (1 + 1 + 0.509 + 0.624 + 0.267 + 1)/6 = 4.4/6
    assert mr["aucpr"]["mean"] == F(44, 60)
    # true mean of the rounded AUCNPRs: [(3(0.9995) + 1.0755)/6, (3 + 1.0785)/6] = [0.679, 0.67975]
    assert mr["aucnpr"]["true_mean_range"] == Interval(F(679, 1000), F(67975, 100000))


def test_implied_skew_for_gender_and_genre():
    rows = {r.id: r for r in read_rows(data_path("boyd2012_table2.csv"))}
    for name, x, y in (("gender", "0.509", "0.325"), ("genre", "0.624", "0.611")):
        m = implied_aucpr_min(rows[name].box("aucpr", "any"), rows[name].box("aucnpr", "any"))
        h = F(5, 10000)
        xq, yq = F(x), F(y)
        assert m.lo == (xq - h - (yq + h)) / (1 - (yq + h))
        assert m.hi == (xq + h - (yq - h)) / (1 - (yq - h))
        skews = implied_skew(m)
        with mpmath.workdps(40):
            for end, target in ((skews.lo, m.lo), (skews.hi, m.hi)):
                t = mpmath.mpf(target.numerator) / target.denominator
                root = mpmath.findroot(lambda p, t=t: _m(p) - t, 2 * t)
                assert abs(to_mpf(end, 40) - root) < mpmath.mpf(10) ** -30
    # gender about 0.45, genre about 0.06-0.07
    g = implied_skew(
        implied_aucpr_min(rows["gender"].box("aucpr", "any"), rows["gender"].box("aucnpr", "any"))
    )
    assert 0.45 < float(g.lo) < float(g.hi) < 0.46


def test_mammography_and_text_numbers():
    with mpmath.workdps(30):
        assert mpmath.nstr(_m(mpmath.mpf("0.5")), 3) == "0.307"
        assert abs(_m(mpmath.mpf("0.5")) - (1 - mpmath.log(2))) < mpmath.mpf(10) ** -28
        assert mpmath.nstr(_aucnpr("0.965", "0.5"), 3, strip_zeros=False) == "0.950"
        assert mpmath.nstr(_aucnpr("0.545", mpmath.mpf(1) / 121), 3) == "0.543"
        assert mpmath.nstr(_m(mpmath.mpf("0.008")), 1) == "0.004"
        # B10: about 0.3, about 0.05, 0.0254 at pi = 0.05
        assert mpmath.nstr(_m("0.5") - _m("0.01"), 1) == "0.3"
        assert mpmath.nstr(_m("0.1"), 1) == "0.05"
        assert mpmath.nstr(_m("0.05"), 3) == "0.0254"
    text = boyd2012.report()
    assert "0.0254274, which rounds to 0.03" in text


def test_figure_4_points():
    pts = boyd2012.figure_4_points()
    pi = F(33, 100)
    kinds = {}
    for name, (r, p) in pts.items():
        assert 2 * p * r / (p + r) == F(45, 100)  # F1 = 0.45, the harmonic mean
        bound = pi * r / (1 - pi + pi * r)
        kinds[name] = p >= bound
    assert kinds == {"A": False, "B": True, "C": True}
    assert pts["C"] == (F(3, 10), F(9, 10))
