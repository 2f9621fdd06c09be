"""Method-aware AUCPR bounds of ``prtheory audit``, checked against the oracle's areas.

The bounds of :mod:`prtheory.audit.methods` are closed forms; here every ranking (every tie
pattern) of small class counts is scored by :func:`prtheory.oracle.areas.pr_auc`, and the least
area of each method must equal its bound. Then worst rankings, printed as a paper would print
them, must never be flagged under their own method.
"""

from __future__ import annotations

import decimal
import math
from fractions import Fraction as F

import mpmath
import pytest

from prtheory.audit import audit_row, least_area, parse_row
from prtheory.audit.intervals import to_mpf
from prtheory.oracle.areas import pr_auc
from prtheory.theory.common import scored, tied_rankings

METHOD_ARGS = {
    "step": {"method": "step"},
    "trapezoid": {"method": "trapezoid", "first_point": "sklearn"},
    "lower-trapezoid": {"method": "lower-trapezoid", "first_point": "sklearn"},
    "davis-goadrich": {"method": "davis-goadrich", "first_point": "spark"},
}


def as_mpf(v):
    return to_mpf(v, 60)


def areas_of_every_ranking(pos, neg):
    out = {m: [] for m in (*METHOD_ARGS, "trapezoid-untied")}
    for groups in tied_rankings(pos, neg):
        y, s = scored(groups)
        for m, kw in METHOD_ARGS.items():
            out[m].append(pr_auc(y, s, **kw))
        if all(p1 + n1 == 1 for p1, n1 in groups):
            out["trapezoid-untied"].append(out["trapezoid"][-1])
    return out


@pytest.mark.parametrize(("pos", "neg"), [(p, n) for p in range(1, 4) for n in range(4)])
def test_each_bound_is_the_least_area_over_every_ranking(pos, neg):
    pi = F(pos, pos + neg)
    eps = mpmath.mpf(10) ** -45  # Davis-Goadrich areas are mpf at 50 digits (oracle contract)
    areas = areas_of_every_ranking(pos, neg)
    with mpmath.workdps(60):
        for method, values in areas.items():
            bound = as_mpf(least_area(method, pi, pos, neg).value)
            least = min(as_mpf(v) for v in values)
            assert least >= bound - eps, (method, pos, neg)
            assert abs(least - bound) <= eps, (method, pos, neg)  # attained
        unknown = as_mpf(least_area("unknown", pi, pos, neg).value)
        assert abs(unknown - min(min(as_mpf(v) for v in vs) for vs in areas.values())) <= eps


def test_skew_only_bounds_hold_for_every_count_pair_at_that_skew():
    # pi = 1/3: counts (1, 2), (2, 4), (3, 6); step's skew-only bound is AUCPR_min, below AP_min
    pi = F(1, 3)
    for k in (1, 2, 3):
        pos, neg = k, 2 * k
        for method in ("step", "davis-goadrich", "trapezoid", "trapezoid-untied"):
            with mpmath.workdps(60):
                skew_only = as_mpf(least_area(method, pi).value)
                with_counts = as_mpf(least_area(method, pi, pos, neg).value)
                assert skew_only <= with_counts + mpmath.mpf(10) ** -45, (method, k)


def _worst(method, pos, neg):
    """The oracle's area of a ranking that attains the method's minimum (module table)."""
    if method == "trapezoid" or method == "lower-trapezoid":
        # one negative on top, everything else tied
        y = [0] + [1] * pos + [0] * (neg - 1)
        s = [2] + [1] * (pos + neg - 1)
    else:  # negatives first, distinct scores
        y = [0] * neg + [1] * pos
        s = list(range(pos + neg, 0, -1))
    kw = METHOD_ARGS["trapezoid" if method == "trapezoid-untied" else method]
    return pr_auc(y, s, **kw)


def _print3(v) -> str:
    return str(decimal.Decimal(str(mpmath.nstr(as_mpf(v), 30))).quantize(decimal.Decimal("0.001")))


def _row(method, pos, neg, printed, column="aucpr"):
    return parse_row({"id": "x", "pos": pos, "neg": neg, column: printed, "method": method}, "x")


@pytest.mark.parametrize(
    "method", ["step", "davis-goadrich", "trapezoid", "lower-trapezoid", "trapezoid-untied"]
)
def test_worst_rankings_printed_to_3_decimals_are_never_flagged(method):
    for pos in range(1, 13):
        for neg in range(1, 13):
            printed = _print3(_worst(method, pos, neg))
            for m in (method, "unknown"):
                res = audit_row(_row(m, pos, neg, printed))
                assert not res.flagged, (method, m, pos, neg, printed, res.findings)
            if method == "step":
                assert not audit_row(_row("unknown", pos, neg, printed, "ap")).flagged
            # one unit lower in the last printed digit is below the least area: flagged
            lower = str(decimal.Decimal(printed) - decimal.Decimal("0.001"))
            exact_lower = F(lower) + F(1, 2000)
            if as_mpf(exact_lower) < as_mpf(_worst(method, pos, neg)) and F(lower) >= 0:
                res = audit_row(_row(method, pos, neg, lower))
                assert res.flagged, (method, pos, neg, lower)
                (flag,) = [f for f in res.findings if f.flagged]
                assert flag.method == method
                assert f"pos={pos}, neg={neg}" in flag.reasoning


def test_sklearn_trapezoid_of_the_worst_ranking_is_not_flagged():
    # 10 positives and 10 negatives, negatives first: scikit-learn's auc(recall, precision) is
    # 0.30623 (below AUCPR_min(1/2) = 1 - ln 2 = 0.30685), printed 0.306
    sklearn = pytest.importorskip("sklearn.metrics")
    y = [0] * 10 + [1] * 10
    s = list(range(20, 0, -1))
    p, r, _ = sklearn.precision_recall_curve(y, s)
    value = sklearn.auc(r, p)
    assert f"{value:.3f}" == "0.306"
    for method in ("sklearn-auc", "trapezoid", "trapezoid-untied", "unknown"):
        row = parse_row({"id": "x", "skew": "1:1", "aucpr": "0.306", "method": method}, "x")
        assert not audit_row(row).flagged, method
    dg = parse_row({"id": "x", "skew": "1:1", "aucpr": "0.306", "method": "dg"}, "x")
    assert audit_row(dg).flagged  # the interpolated area cannot be that low
    # one positive among 20: sklearn gives 1/40 = 0.0250 against AUCPR_min(0.05) = 0.0254
    y = [0] * 19 + [1]
    p, r, _ = sklearn.precision_recall_curve(y, list(range(20, 0, -1)))
    assert f"{sklearn.auc(r, p):.4f}" == "0.0250"
    for method in ("trapezoid", "unknown"):
        row = parse_row({"id": "x", "pos": 1, "neg": 19, "aucpr": "0.0250", "method": method}, "x")
        assert not audit_row(row).flagged, method


@pytest.mark.parametrize(
    ("row", "check", "needle"),
    [
        # AP_min(2, 2) = 5/12 = 0.41667
        ({"pos": 2, "neg": 2, "ap": "0.40"}, "ap-min", "AP_min"),
        # step with counts: AP_min(2, 2) again, as an AUCPR column
        ({"pos": 2, "neg": 2, "aucpr": "0.40", "method": "ap"}, "aucpr-range", "AP_min"),
        # Davis-Goadrich at pi = 1/2: 1 - ln 2
        ({"skew": "1:1", "aucpr": "0.300", "method": "davis-goadrich"}, "aucpr-range", "AUCPR_min"),
        # trapezoid at pi = 1/2: 1/4
        ({"skew": "1:1", "aucpr": "0.240", "method": "trapezoid"}, "aucpr-range", "chord"),
        # untied trapezoid at (1, 1): T = (0 + 1/2)/2 = 1/4; 0.24 is below
        ({"pos": 1, "neg": 1, "aucpr": "0.24", "method": "trapezoid-untied"}, "aucpr-range", "T ="),
        # F1 of P = 0.80, R = 0.60 is at most 0.6908
        ({"skew": "0.5", "precision": "0.80", "recall": "0.60", "f1": "0.70"}, "f1", "disjoint"),
        # AUCNPR at 1/25 from AUCPR 0.363 is about 0.3498
        ({"skew": "1:24", "aucpr": "0.363", "aucnpr": "0.360"}, "aucnpr", "inconsistent"),
    ],
)
def test_each_kind_of_impossible_value_is_flagged_with_its_certificate(row, check, needle):
    res = audit_row(parse_row({"id": "x", **row}, "x"))
    flags = [f for f in res.findings if f.flagged]
    assert [f.check for f in flags] == [check]
    assert needle in flags[0].reasoning


def test_negative_aucnpr_from_a_legitimate_trapezoid_is_not_flagged():
    # one negative on top, the other 3 negatives and 4 positives tied: scikit-learn's
    # auc(recall, precision) runs (0, 1) -> (0, 0) -> (1, 1/2), area 1/4 = pi/2 at pi = 1/2
    y = [0, 0, 0, 0, 1, 1, 1, 1]
    s = [2, 1, 1, 1, 1, 1, 1, 1]
    metrics = pytest.importorskip("sklearn.metrics")
    p, r, _ = metrics.precision_recall_curve(y, s)
    area = metrics.auc(r, p)
    assert area == 0.25
    # AUCNPR = (1/4 - (1 - ln 2))/(ln 2) = -0.08202 (B8 with AUCPR_min(1/2) = 1 - ln 2, B4)
    aucnpr = (area - (1 - math.log(2))) / math.log(2)
    assert f"{aucnpr:.3f}" == "-0.082"
    for method in ("trapezoid", "unknown"):
        row = parse_row(
            {"id": "x", "pos": 4, "neg": 4, "aucpr": "0.250", "aucnpr": "-0.082", "method": method},
            "x",
        )
        res = audit_row(row)
        assert not res.flagged, (method, [f.reasoning for f in res.findings])
        assert any(f.check == "aucnpr" for f in res.findings)
    # without the skew the pair still fits (m = (0.25 + 0.082)/1.082 = 0.3068 is AUCPR_min(1/2))
    row = parse_row({"id": "x", "aucpr": "0.250", "aucnpr": "-0.082", "method": "trapezoid"}, "x")
    assert not audit_row(row).flagged


def test_negative_aucnpr_is_impossible_for_step_and_davis_goadrich():
    # step and Davis-Goadrich areas are at least AUCPR_min (B4, B6): AUCNPR >= 0
    for method in ("step", "davis-goadrich"):
        row = parse_row({"id": "x", "aucpr": "0.250", "aucnpr": "-0.082", "method": method}, "x")
        flags = [f for f in audit_row(row).findings if f.flagged]
        assert [f.check for f in flags] == ["aucnpr"], method
        # with the counts, the area check names the method's minimum instead
        row = parse_row(
            {"id": "x", "pos": 4, "neg": 4, "aucpr": "0.250", "aucnpr": "-0.082", "method": method},
            "x",
        )
        assert "aucpr-range" in [f.check for f in audit_row(row).findings if f.flagged]


def test_aucnpr_above_one_is_flagged_in_its_row():
    row = parse_row({"id": "x", "aucnpr": "1.2"}, "x")
    assert "aucnpr" not in row.values
    (finding,) = audit_row(row).findings
    assert finding.check == "range"
    assert finding.flagged
    assert "aucnpr 1.2 is above 1" in finding.reasoning
