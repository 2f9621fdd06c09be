"""prtheory.pr_auc / roc_auc / auprg: the exact oracle's value rounded, bit for bit."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import prtheory
from prtheory import oracle
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.metrics.areas import DEFAULT_FIRST_POINT
from prtheory.oracle import exact_rational, rounded, to_float
from prtheory.oracle.rounding import ulp


def same_bits(a: float, b: float) -> bool:
    return math.copysign(1, a) == math.copysign(1, b) and a.hex() == b.hex()


@st.composite
def rankings(draw, max_n=40):
    """Binary rankings with ties (few score levels), ±inf, and unit, integer or float weights."""
    n = draw(st.integers(1, max_n))
    y = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    levels = draw(st.sampled_from([2, 5, 10**6]))
    s = draw(
        st.lists(
            st.integers(-levels, levels).map(float) | st.sampled_from([math.inf, -math.inf]),
            min_size=n,
            max_size=n,
        )
    )
    w = draw(
        st.none()
        | st.lists(st.integers(0, 7), min_size=n, max_size=n)
        | st.lists(st.integers(0, 2**61), min_size=n, max_size=n)
        | st.lists(st.floats(0, 1e3, allow_nan=False, allow_infinity=False), min_size=n, max_size=n)
    )
    return y, s, w


def _both(fast, exact):
    """The float call's value and the oracle's, or the same error type from both."""
    try:
        want = exact()
    except (UndefinedMetricError, InvalidInputError) as err:
        with pytest.raises(type(err)):
            fast()
        return None
    return fast(), want


RANGES = [(0, 1), (0.25, 0.75), (Fraction(1, 3), 1), (0, 0.1), (0.5, 0.5000001)]


@given(
    rankings(),
    st.sampled_from(["step", "trapezoid", "lower-trapezoid"]),
    st.sampled_from(["sklearn", "spark", "none"]),
    st.sampled_from(RANGES),
)
@example(([0, 0, 1, 1, 0], [0.8, 0.8, 0.8, 0.2, 0.2], None), "trapezoid", "sklearn", (0, 1))
@example(
    ([0, 1, 1], [3.0, 2.0, 1.0], [0, 0, 5]), "trapezoid", "spark", (0, 1)
)  # zero weight on top
@example(
    ([0] * 19 + [1], [0.0] * 20, [0.0] * 19 + [1.5]), "step", "none", (0.25, 0.75)
)  # float weights with a recall range: the exact path (the float kernel spans [0, 1] only)
def test_rational_areas_are_the_rounded_oracle(data, method, first_point, ab):
    y, s, w = data
    if method == "step":
        first_point = "none"
    a, b = ab
    got = _both(
        lambda: prtheory.pr_auc(
            y, s, sample_weight=w, method=method, first_point=first_point, a=a, b=b
        ),
        lambda: oracle.pr_auc(y, s, w, method=method, first_point=first_point, a=a, b=b),
    )
    if got is not None:
        assert same_bits(got[0], to_float(got[1]))


@given(rankings())
def test_roc_auc_is_the_rounded_oracle(data):
    y, s, w = data
    got = _both(lambda: prtheory.roc_auc(y, s, sample_weight=w), lambda: oracle.roc_auc(y, s, w))
    if got is not None:
        assert same_bits(got[0], to_float(got[1]))


@given(rankings(), st.sampled_from(["signed", "unit-square"]))
def test_auprg_is_the_rounded_oracle(data, negative_gain):
    y, s, w = data
    got = _both(
        lambda: prtheory.auprg(y, s, sample_weight=w, negative_gain=negative_gain),
        lambda: oracle.auprg(y, s, w, negative_gain=negative_gain),
    )
    if got is not None:
        assert same_bits(got[0], to_float(got[1]))


@settings(max_examples=30)
@given(rankings(max_n=15), st.sampled_from([(0, 1), (0.2, 0.9)]))
def test_davis_goadrich_is_correctly_rounded(data, ab):
    y, s, w = data
    a, b = ab
    fp = DEFAULT_FIRST_POINT["davis-goadrich"]
    kw = {"method": "davis-goadrich", "first_point": fp, "a": a, "b": b}
    try:
        want = rounded(oracle.pr_auc, y, s, w, max_dps=960, **kw)
    except (UndefinedMetricError, InvalidInputError) as err:
        with pytest.raises(type(err)):
            prtheory.pr_auc(y, s, sample_weight=w, method="davis-goadrich", a=a, b=b)
        return
    except ArithmeticError:  # rational (no log terms) and on a midpoint: within 1 ulp
        exact = exact_rational(oracle.pr_auc(y, s, w, dps=400, **kw))
        got = prtheory.pr_auc(y, s, sample_weight=w, method="davis-goadrich", a=a, b=b)
        assert abs(Fraction(got) - exact) <= ulp(got)
        return
    got = prtheory.pr_auc(y, s, sample_weight=w, method="davis-goadrich", a=a, b=b)
    assert same_bits(got, want)


def test_davis_goadrich_rational_midpoint():
    # one tied block: precision 1/2 everywhere, so the DG area over [0.2, 0.9] is
    # (0.9 - 0.2)/2 with the floats' exact values: 12610078956637389 / 2**55, a 54-bit
    # odd numerator, exactly halfway between two floats (no log term, so Ziv cannot decide);
    # the result is one of the two neighbours
    exact = (Fraction(0.9) - Fraction(0.2)) / 2
    assert exact == Fraction(12610078956637389, 2**55)
    got = prtheory.pr_auc([0, 1], [0.0, 0.0], method="davis-goadrich", a=0.2, b=0.9)
    assert Fraction(got) in (exact - Fraction(1, 2**55), exact + Fraction(1, 2**55))


def test_hand_computed_values():
    y, s = [0, 0, 1, 1, 0], [0.8, 0.8, 0.8, 0.2, 0.2]
    # operating points: t = .8: TP 1, FP 2 (r 1/2, p 1/3); t = .2: TP 2, FP 3 (r 1, p 2/5)
    # step: 1/2 * 1/3 + 1/2 * 2/5 = 11/30
    assert prtheory.pr_auc(y, s) == 11 / 30
    # trapezoid from (0, 1): 1/2 (1 + 1/3)/2 + 1/2 (1/3 + 2/5)/2 = 1/3 + 11/60 = 31/60
    assert prtheory.pr_auc(y, s, method="trapezoid") == 31 / 60
    # from (0, 1/3) ("spark"): 1/2 (1/3 + 1/3)/2 + 11/60 = 1/6 + 11/60 = 21/60
    assert prtheory.pr_auc(y, s, method="trapezoid", first_point="spark") == 21 / 60
    # ROC: positives at .8 and .2, negatives at .8, .8, .2: pairs (6) won 2 (.8 > .2),
    # tied 3 (.8/.8 twice, .2/.2 once), lost 1: (2 + 3/2)/6 = 7/12... counted per pair:
    # positive .8 vs negatives (.8, .8, .2): 1/2 + 1/2 + 1 = 2; positive .2: 0 + 0 + 1/2
    # AUROC = (2 + 1/2)/6 = 5/12
    assert prtheory.roc_auc(y, s) == 5 / 12
    # DG from the empty classifier, worst ranking of 1+1 (B4): 1 + ln(1/2)
    assert prtheory.pr_auc([0, 1], [0.9, 0.1], method="davis-goadrich") == 1 + math.log(0.5)


def test_trapezoid_over_a_recall_range_by_hand():
    # y = [1, 0, 1], s = [3, 2, 1]: vertices (0, 1), (1/2, 1), (1/2, 1/2), (1, 2/3)
    # over [1/4, 3/4]: 1/4 * 1 + 1/4 * (1/2 + (1/2 + 2/3)/2)/2 -- the line from (1/2, 1/2) to
    # (1, 2/3) is 7/12 at recall 3/4, so the second piece is 1/4 (1/2 + 7/12)/2 = 13/96
    got = prtheory.pr_auc([1, 0, 1], [3, 2, 1], method="trapezoid", a=0.25, b=0.75)
    assert got == to_float(Fraction(1, 4) + Fraction(13, 96))


def test_pos_weighted_int64_overflow_takes_the_exact_path():
    # weights near 2**61: products of counts overflow int64, Python integers take over
    y, s, w = [1, 0, 1, 0], [4, 3, 2, 1], [2**61, 3, 2**61 - 1, 2**60]
    for method in ("step", "trapezoid"):
        want = oracle.pr_auc(y, s, w, method=method, first_point=DEFAULT_FIRST_POINT[method])
        assert same_bits(prtheory.pr_auc(y, s, sample_weight=w, method=method), to_float(want))
    assert same_bits(prtheory.roc_auc(y, s, sample_weight=w), to_float(oracle.roc_auc(y, s, w)))


def test_undefined_and_conventions():
    with pytest.raises(UndefinedMetricError, match="average precision is undefined"):
        prtheory.pr_auc([0, 0], [0.2, 0.1])
    assert prtheory.pr_auc([0, 0], [0.2, 0.1], convention="sklearn") == 0.0
    with pytest.raises(UndefinedMetricError, match="area under the PR curve"):
        prtheory.pr_auc([0, 0], [0.2, 0.1], method="trapezoid")
    with pytest.raises(InvalidInputError, match="convention: 'sklearn' does not apply"):
        prtheory.pr_auc([0, 0], [0.2, 0.1], method="trapezoid", convention="sklearn")
    with pytest.raises(UndefinedMetricError, match="ROC curve"):
        prtheory.roc_auc([1, 1], [0.2, 0.1])
    with pytest.raises(UndefinedMetricError, match="recall range"):
        prtheory.pr_auc([0, 1], [0.2, 0.1], a=0.5, b=0.5)
    with pytest.raises(InvalidInputError, match="method: must be one of"):
        prtheory.pr_auc([0, 1], [0.2, 0.1], method="simpson")
    with pytest.raises(InvalidInputError, match="first_point: 'sklearn' puts"):
        prtheory.pr_auc([0, 1], [0.2, 0.1], method="davis-goadrich", first_point="sklearn")
    with pytest.raises(InvalidInputError, match="sample_weight: davis-goadrich-discrete"):
        prtheory.pr_auc([0, 1], [0.2, 0.1], sample_weight=[1, 2], method="davis-goadrich-discrete")


# ------------------------------------------------------------------------------------------
# scikit-learn, where the conventions agree


sklearn = pytest.importorskip("sklearn.metrics")


def _ulps(a: float, b: float) -> float:
    return abs(a - b) / float(np.spacing(b))


@pytest.mark.parametrize("positives", [0.02, 0.5])
def test_against_sklearn_on_random_data(positives):
    """Same conventions (ties grouped, first point (0, 1)): scikit-learn's float sums land
    within a few ulps of the correctly rounded value (8 ulps allowed: its error grows with the
    number of summed terms, here a few thousand)."""
    rng = np.random.default_rng(3)
    y = rng.random(5000) < positives
    s = np.round(rng.random(5000), 3)  # ties
    w = rng.random(5000)
    for weights in (None, w):
        sk_trap = sklearn.auc(*sklearn.precision_recall_curve(y, s, sample_weight=weights)[1::-1])
        ours = prtheory.pr_auc(y, s, sample_weight=weights, method="trapezoid")
        assert _ulps(sk_trap, ours) <= 8
        sk_roc = sklearn.roc_auc_score(y, s, sample_weight=weights)
        assert _ulps(sk_roc, prtheory.roc_auc(y, s, sample_weight=weights)) <= 8
        sk_ap = sklearn.average_precision_score(y, s, sample_weight=weights)
        assert _ulps(sk_ap, prtheory.pr_auc(y, s, sample_weight=weights)) <= 8


def test_sklearn_convention_differences_are_named():
    """No positives: scikit-learn warns and returns 0 for AP; prtheory raises unless
    ``convention="sklearn"``. ROC AUC of one class: scikit-learn 1.9 warns and returns NaN;
    prtheory never returns NaN and raises."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert sklearn.average_precision_score([0, 0], [0.3, 0.2]) == 0.0
        assert math.isnan(sklearn.roc_auc_score([0, 0], [0.3, 0.2]))
    assert prtheory.pr_auc([0, 0], [0.3, 0.2], convention="sklearn") == 0.0
    with pytest.raises(UndefinedMetricError):
        prtheory.roc_auc([0, 0], [0.3, 0.2])
