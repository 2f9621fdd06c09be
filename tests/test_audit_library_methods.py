"""The areas libraries print as methods of ``prtheory audit`` (``prtheory.audit.library_methods``).

Each library method's least value is its exact method's least value less a float64 allowance.
Checked two ways: the exact least value against the oracle's area of every ranking (every tie
pattern) of small counts, through the emulations of the libraries' own float arithmetic (which
the conformance tests compare with the libraries); and, with the installed libraries themselves,
every value Weka and XGBoost print for a ranking of pos, neg <= 8 is never flagged, while a value
below the least one is.
"""

from __future__ import annotations

import itertools
import math
import warnings
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest

from prtheory.audit import audit_row, least_area, parse_row
from prtheory.audit.intervals import to_mpf
from prtheory.audit.library_methods import allowance
from prtheory.conformance import gbdt_models
from prtheory.conformance.metrics import Inputs
from prtheory.oracle.areas import pr_auc
from prtheory.theory.brute import grouped_ranking, tie_groupings

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
        areas = [
            mp(pr_auc(*grouped_ranking(g), **EXACT_ARGS[method])) for g in tie_groupings(pos, neg)
        ]
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
            for g in tie_groupings(pos, neg):
                v = mpmath.mpf(fn(Inputs(*grouped_ranking(g))))
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
