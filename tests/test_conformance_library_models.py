"""The mechanisms that model a library's own float arithmetic, and the corrected tie and
combination predictions, against values worked out by hand (each test says how).

Vectors are built here, not read from the vector files, so that each input is in plain view."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest

from prtheory.conformance.encoding import Value
from prtheory.conformance.mechanisms import (
    NAN,
    RAISES,
    Crash,
    Raised,
    mechanisms,
)
from prtheory.conformance.metrics import METRICS, Inputs, combination_base, evaluate
from prtheory.conformance.predictions import encoded, fits
from prtheory.conformance.runner import _binned_below_grid_dropped
from prtheory.conformance.vectors_io import Vector, load
from prtheory.errors import InvalidInputError, UndefinedMetricError

F64 = (np.float64, 0)  # exact agreement: every prediction here is worked out exactly


def _vector(metric, y, s, *, w=None, result="valid", expected=None, alternatives=None, **params):
    inputs = Inputs(
        np.asarray(y),
        np.asarray(s, dtype=np.float64),
        None if w is None else np.asarray(w, dtype=np.float64),
        params,
    )
    return Vector(
        metric, 1, "built by the test", (), inputs, result, expected, alternatives or {}, None
    )


def _predict(name, v):
    return next(m for m in mechanisms(v.metric) if m.name == name).predict(v)


def _floats(curve):
    return {k: [x.float64 for x in vals] for k, vals in curve.items()}


Y8 = [1, 0, 1, 1, 0, 0, 1, 0]
S8 = [0.9, 0.8, 0.7, 0.6, 0.5, 0.5, 0.4, 0.3]


def test_fbeta_float64_overflow():
    # threshold 0.45: TP = 3 (0.9, 0.7, 0.6), FP = 3 (0.8, 0.5, 0.5), FN = 1 (0.4)
    huge = _vector("fbeta_at_threshold", Y8, S8, threshold=0.45, beta=Fraction(10**154))
    # b2 = 1e308: (1 + b2) * 3 = inf and b2 * 4 + 6 = inf, inf/inf = NaN
    assert _predict("fbeta-float64-overflow", huge) is NAN
    # 1e200 ** 2 overflows Python's float: OverflowError from beta**2
    over = _vector("fbeta_at_threshold", Y8, S8, threshold=0.45, beta=Fraction(10**200))
    assert _predict("fbeta-float64-overflow", over) == Crash("OverflowError")
    # beta = 2: nothing overflows, so the mechanism says nothing
    small = _vector("fbeta_at_threshold", Y8, S8, threshold=0.45, beta=Fraction(2))
    assert _predict("fbeta-float64-overflow", small) is None


def test_fbeta_float32_overflow():
    # b2 = 1e38: float32(1e38) * 3 ~ 3e38 < 3.4e38 is finite, the denominator 3e38 + 1e38 * FN
    # (FN = 1) + 3 overflows to inf in float32, and 3e38 / inf = 0
    v = _vector("fbeta_at_threshold", Y8, S8, threshold=0.45, beta=Fraction(10**19))
    got = _predict("fbeta-float32-overflow", v)
    assert got.float64 == 0.0
    # in float64 the same beta does not overflow
    assert _predict("fbeta-float64-overflow", v) is None
    # beta = inf: (1 + inf) * 3 / (inf + inf + 3) = NaN (no special case in torchmetrics)
    inf = _vector("fbeta_at_threshold", Y8, S8, threshold=0.45, beta="inf", result="acceptable")
    assert _predict("fbeta-float32-overflow", inf) is NAN


def test_crash_prediction_fits_only_that_exception():
    crash = Crash("OverflowError")
    assert fits(
        Raised("raised OverflowError: (34, 'Numerical result out of range')", False), crash, F64
    )
    assert not fits(Raised("raised ZeroDivisionError: division by zero", False), crash, F64)
    assert not fits(0.75, crash, F64)


def test_prg_package_odds_with_balanced_classes():
    # P = N = 4: odds 1, so 1 - odds = 0 and every gain divides by 0. Decreasing thresholds up
    # to full recall (score 0.4; 0.5 is one threshold): recalls 1/4, 1/4, 2/4, 3/4, 3/4, 1 give
    # (r - 1)/(0 * r) = -inf below recall 1 and 0/0 = NaN at 1; precisions 1, 1/2, 2/3, 3/4,
    # 3/6, 4/7 give NaN at precision 1 and -inf below it.
    v = _vector("prg_curve", Y8, S8)
    got = _floats(_predict("prg-skew=odds", v))
    ninf = -math.inf
    assert len(got["recall_gain"]) == 6
    assert got["recall_gain"][:5] == [ninf] * 5
    assert math.isnan(got["recall_gain"][5])
    assert math.isnan(got["precision_gain"][0])
    assert got["precision_gain"][1:] == [ninf] * 5


def test_prg_package_odds_with_skewed_classes():
    # y = [1, 0, 0], s = [0.9, 0.5, 0.1]: P = 1, N = 2, odds o = 1/2 (pi would be 1/3). The
    # curve stops at full recall (the first threshold): recall 1, precision 1, so both gains
    # are (1 - 1/2)/((1/2) * 1) = 1. The area is -sum(diff(rg) * pg[:-1]) over [rg(1), rg(0)]
    # where rg(0) = (0 - 1/2)/((1/2) * 0) = -inf: -((-inf - 1) * 1) = inf.
    curve = _vector("prg_curve", [1, 0, 0], [0.9, 0.5, 0.1])
    assert _floats(_predict("prg-skew=odds", curve)) == {
        "recall_gain": [1.0],
        "precision_gain": [1.0],
    }
    area = _vector("auprg", [1, 0, 0], [0.9, 0.5, 0.1])
    assert _predict("prg-skew=odds", area).float64 == math.inf


def test_curves_with_nan_fit_only_nan_in_place():
    want = {"recall_gain": [Value(None, "nan", math.nan), Value(None, "-inf", -math.inf)]}
    assert fits({"recall_gain": [math.nan, -math.inf]}, want, F64)
    assert not fits({"recall_gain": [0.0, -math.inf]}, want, F64)
    assert not fits({"recall_gain": [math.nan, math.nan]}, want, F64)


def test_sklearn_curve_without_positives():
    # one negative: sklearn's recall is 1 at every threshold, precision 0/1 = 0, then (0, 1)
    # first: recall [0, 1], precision [1, 0]
    v = _vector("pr_curve", [0], [0.5], result="undefined")
    assert _floats(_predict("first-point=sklearn+undefined=sklearn", v)) == {
        "recall": [0.0, 1.0],
        "precision": [1.0, 0.0],
    }
    # zero weight on the top negative: sklearn drops that item, so no 0/0 point remains;
    # points: (1/2, 1), (1/2, 1/2), (1, 2/3)
    z = _vector("pr_curve", [0, 1, 0, 1], [0.9, 0.8, 0.7, 0.6], w=[0, 1, 1, 1], result="undefined")
    got = _floats(_predict("first-point=sklearn+undefined=sklearn", z))
    assert got == {"recall": [0.0, 0.5, 0.5, 1.0], "precision": [1.0, 1.0, 0.5, 2 / 3]}


def test_pyprg_guard_without_negatives():
    # one positive: the only point has TN + FN = 0, so the guard gives recall gain 1 and
    # precision gain 0; calc_auprg adds nothing (area 0)
    v = _vector("prg_curve", [1], [0.5], result="undefined")
    assert _floats(_predict("undefined=pyprg", v)) == {
        "recall_gain": [1.0],
        "precision_gain": [0.0],
    }
    a = _vector("auprg", [1, 1, 1], [0.9, 0.5, 0.1], result="undefined")
    assert _predict("undefined=pyprg", a).float64 == 0.0
    # no positives: no point has TP > 0
    n = _vector("prg_curve", [0, 0], [0.9, 0.1], result="undefined")
    assert _floats(_predict("undefined=pyprg", n)) == {"recall_gain": [], "precision_gain": []}


def test_binned_ap_with_items_below_the_grid():
    grid = tuple(np.linspace(0, 1, 11))
    # y = [1, 0, 1], s = [0.0, -0.0, -1.0]: -1.0 is below the grid. On the grid one tied block
    # (0.0 = -0.0) holds a positive and a negative: AP there 1/2; one of the two positives is on
    # the grid, so 1/2 * 1/2 = 1/4
    x = Inputs(np.array([1, 0, 1]), np.array([0.0, -0.0, -1.0]))
    assert _binned_below_grid_dropped(grid, x) == Fraction(1, 4)
    # every positive below the grid: recall stays 0, AP 0
    x = Inputs(np.array([0, 1]), np.array([0.5, -2.0]))
    assert _binned_below_grid_dropped(grid, x) == 0
    # nothing below the grid: not this mechanism's case
    assert _binned_below_grid_dropped(grid, Inputs(np.array([0, 1]), np.array([0.5, 0.2]))) is None


def test_torch_sort_ranks_float32_ties_in_topk_order():
    pytest.importorskip("torch")
    # 0.1000000002 and 0.1 are one float32; torch.topk returns the positive (index 1) first:
    # ranking [1, 0, 1, 0] -> AP = (1/1 + 2/3)/2 = 5/6 (the float64 ranking gives 7/12)
    v = _vector("average_precision", [0, 1, 1, 0], [0.10000000020000001, 0.1, 0.05, 0.01])
    assert _predict("ties=torch-sort", v).exact == Fraction(5, 6)


def test_a_combination_left_out_equals_its_first_stored_part():
    """The rule the stored-convention mechanisms read the vector files by: a combination
    ``a+b`` that is not stored while one of its parts is has that part's value (the generator
    stores it otherwise, even when it equals the expected value). Checked by evaluating every
    such combination with the oracle on every valid vector of up to 100 items."""
    checked = 0
    for metric, spec in METRICS.items():
        combos = [a for a in spec.alternatives if "+" in a.name]
        for v in load([metric]):
            if v.result != "valid" or v.inputs.y_true is None or len(v.inputs.y_true) > 100:
                continue
            for alt in combos:
                base = combination_base(alt.name, v.alternatives)
                if alt.name in v.alternatives or base is None:
                    continue
                try:
                    value = evaluate(metric, v.inputs, alt)
                except (UndefinedMetricError, InvalidInputError):
                    continue
                assert encoded(value) == v.alternatives[base], (v.ident, alt.name)
                checked += 1
    assert checked > 100  # the rule is exercised, not vacuous


def test_stored_combination_equal_to_expected_is_read_back():
    # P@3 of subnormal scores: the trec_eval tie rule on float32 scores equals the expected
    # value while scores=float32 alone does not; the combination is stored and read back
    v = next(v for v in load(["precision_at_k"]) if v.tc_id == 46)
    assert "ties=trec_eval+scores=float32" in v.alternatives
    want = v.alternatives["ties=trec_eval+scores=float32"]
    assert want == v.expected != v.alternatives["scores=float32"]
    assert _predict("ties=trec_eval+scores=float32", v) == want


def test_weights_overflow_and_underflow():
    over = _vector("average_precision", [1, 0, 1], [0.3, 0.2, 0.1], w=[1e308] * 3)
    assert _predict("weights-overflow", over) is NAN  # 3e308 = inf in float64, inf/inf
    # scikit-learn's average_precision_score returns max(0.0, NaN), which is 0.0
    assert _predict("weights-overflow+nan-clipped-to-0", over).float64 == 0.0
    fine = _vector("average_precision", [1, 0, 1], [0.3, 0.2, 0.1], w=[1e300] * 3)
    assert _predict("weights-overflow", fine) is None
    # 5e-324 and 1.5e-323 are 0 in float32: no positive weight left
    sub = _vector(
        "average_precision",
        [1, 0, 1, 0],
        [0.4, 0.3, 0.2, 0.1],
        w=[5e-324, 1e-323, 1.5e-323, 5e-324],
    )
    assert _predict("weights-float32-underflow+undefined=sklearn", sub).float64 == 0.0


def test_sklearn_curve_with_overflowing_weights():
    # y = [1, 0, 1], s = [0.3, 0.2, 0.1], w = 1e308 each: tps = [1e308, 1e308, inf],
    # fps = [0, 1e308, 1e308]; precision = [1, 1e308/inf = 0, inf/inf = NaN], recall =
    # tps / inf = [0, 0, NaN]; then (0, 1) first
    v = _vector("pr_curve", [1, 0, 1], [0.3, 0.2, 0.1], w=[1e308] * 3)
    got = _floats(_predict("first-point=sklearn+weights-overflow", v))
    assert got["recall"][:3] == [0.0, 0.0, 0.0]
    assert math.isnan(got["recall"][3])
    assert got["precision"][:3] == [1.0, 1.0, 0.0]
    assert math.isnan(got["precision"][3])
    fine = _vector("pr_curve", [1, 0, 1], [0.3, 0.2, 0.1], w=[1e300] * 3)
    assert _predict("first-point=sklearn+weights-overflow", fine) is None


def test_rejects_no_relevant():
    none = _vector("precision_at_k", [0, 0, 0], [0.9, 0.5, 0.1], k=3)
    assert _predict("rejects-no-relevant", none) is RAISES
    some = _vector("precision_at_k", [0, 1, 0], [0.9, 0.5, 0.1], k=3)
    assert _predict("rejects-no-relevant", some) is None


def test_sklearn_prg_gains_clipped_point_by_point():
    # y = [1, 0, 1], s = [0.9, 0.5, 0.5]: pi = 2/3; scikit-learn's points (R, P) = (1/2, 1),
    # (1, 2/3), and (0, 1) appended. Gains (x - pi)/((1 - pi) x): RG(1/2) = (-1/6)/(1/6) = -1,
    # clipped to 0; PG(1) = 1; RG(1) = 1 (also forced), PG(2/3) = 0; RG(0) = -inf taken as 0.
    # The curve without the appended point, by decreasing threshold: (0, 1), (1, 0). Area over
    # (0, 1), (0, 1), (1, 0): (1 - 0)(1 + 0)/2 = 1/2 (the PRG curve, cut at RG = 0 where the
    # segment from (-1, 1) to (1, 0) has PG 1/2, has AUPRG (1/2)(1/2) = 1/4).
    curve = _vector("prg_curve", [1, 0, 1], [0.9, 0.5, 0.5])
    assert _floats(_predict("prg-gains-clipped", curve)) == {
        "recall_gain": [0.0, 1.0],
        "precision_gain": [1.0, 0.0],
    }
    area = _vector("auprg", [1, 0, 1], [0.9, 0.5, 0.5])
    assert _predict("prg-gains-clipped", area).float64 == 0.5
    assert evaluate("auprg", area.inputs) == Fraction(1, 4)
    # pi = 1 (one positive, undefined): the package's branch gives every gain 0
    one = _vector("prg_curve", [1], [0.5], result="undefined")
    assert _floats(_predict("prg-gains-clipped", one)) == {
        "recall_gain": [0.0],
        "precision_gain": [0.0],
    }
    # weights and infinite scores: scikit-learn's own paths, the mechanism says nothing
    assert _predict("prg-gains-clipped", _vector("auprg", [1, 0], [1.0, 0.0], w=[1, 2])) is None
    assert _predict("prg-gains-clipped", _vector("auprg", [1, 0], [math.inf, 0.0])) is None


def test_sklearn_prg_perfect_ranking_depends_on_the_argsort_of_tied_gains():
    # y = [1, 1, 0, 0] in score order, pi = 1/2: points at thresholds 1, 2, 3, 4 (increasing),
    # then (0, 1): P = 1/2, 2/3, 1, 1, 1 and R = 1, 1, 1, 1/2, 0, so PG = 0, 1/2, 1, 1, 1 and
    # RG = 1, 1, 1, 0, 0 (RG(1/2) = 0, RG(0) = -inf taken as 0). Sorted by RG, the two points at
    # RG 0 (PG 1) come first; the trapezoid to RG 1 ends at whichever point of RG 1 the argsort
    # puts first: (1 + PG)/2 in {1/2, 3/4, 1}, the trapezoids between points of RG 1 having
    # width 0. AUPRG is 1.
    v = _vector("auprg", [1, 1, 0, 0], [4.0, 3.0, 2.0, 1.0])
    got = _predict("prg-gains-clipped", v).float64
    assert got in (0.5, 0.75, 1.0)
    sklearn_prg = pytest.importorskip("sklearn_prg")
    library = sklearn_prg.average_precision_recall_gain(np.array([1, 1, 0, 0]), v.inputs.scores)
    assert library == got  # the same np.argsort on the same gains


def test_sklearn_prg_model_is_the_library_on_every_vector():
    """The emulation against the installed package on every stored vector it predicts: equal
    bit for bit, where on most of them the oracle's value is far from the library's, so the
    comparison tells the model from the definition."""
    pytest.importorskip("sklearn_prg")
    from prtheory.conformance.adapters.sklearn_prg_adapter import implementations

    impl = {i.metric: i for i in implementations()}
    for metric in ("auprg", "prg_curve"):
        predicted = differs = 0
        for v in load(metric):
            want = _predict("prg-gains-clipped", v)
            if want is None:
                continue
            with warnings.catch_warnings():  # scikit-learn warns of a class missing
                warnings.simplefilter("ignore")
                got = impl[metric].run(v.inputs)
            assert fits(got, want, F64), (v.ident, got, want)
            predicted += 1
            differs += v.result == "valid" and not fits(got, v.expected, F64)
        assert predicted >= 40, metric
        assert differs >= 20, metric  # the oracle's value is not the library's there


def test_keras_float32_cancellation_names_only_the_cancelling_formula():
    # One positive below 10^6 tied negatives (auc_davis_goadrich#29): Keras's bucket from the
    # threshold below the positive to the one below the negatives has dTP = 1, P from 10^6 + 1
    # to 10^6, slope 1, intercept 0 - 10^6, so the area is 1 - 10^6 log(P ratio). The exact
    # ratio 1 + 10^-6 is 1 + 8.39 2^-23 in float32 units and rounds to 1 + 8 2^-23, so Keras
    # gives 1 - 10^6 ln(1 + 8 2^-23) = 0.04633 (float32's log errs by at most half an ulp of
    # 9.5e-7, 2^-44, which 10^6 makes 6e-8), where the exact area is 1 - 10^6 ln(1 + 10^-6) =
    # 5.0e-7.
    v = next(u for u in load("auc_davis_goadrich") if u.tc_id == 29)
    assert v.comment == "1 positive among 10^6 tied negatives, positive ranked at the bottom"
    got = _predict("dg-float32-cancellation", v).float64
    assert abs(got - (1 - 10**6 * math.log1p(8 * 2**-23))) < 1e-7
    assert abs(float(v.expected.float64) - (1 - 10**6 * math.log1p(1e-6))) < 1e-12
    # where the formula does not cancel (a few distinct scores), or where float32 cannot hold
    # the weights (their overflow or underflow is the cause: #53, #54), it says nothing
    small = _vector("auc_davis_goadrich", [1, 0, 0, 1], [0.8, 0.6, 0.4, 0.2])
    assert _predict("dg-float32-cancellation", small) is None
    for w in ([1e308] * 4, [5e-324, 1e-323, 1.5e-323, 5e-324]):
        heavy = _vector("auc_davis_goadrich", [1, 0, 1, 0], [0.4, 0.3, 0.2, 0.1], w=w)
        assert _predict("dg-float32-cancellation", heavy) is None
    # scores outside [0, 1] are not Keras's input
    logits = _vector("auc_davis_goadrich", [1, 0], [2.0, -1.0])
    assert _predict("dg-float32-cancellation", logits) is None


def _ranx_map():
    pytest.importorskip("ranx")
    from prtheory.conformance.adapters import implementations

    return next(i for i in implementations("ranx") if i.name == "map")


@pytest.mark.parametrize("n", [15, 60])
def test_numba_quicksort_tie_order_is_ranx_order(n):
    """One relevant item at input position 37 % n of n tied ones. Below 16 items numba's
    argsort sorts by insertion (stable), so the order is the input order and the mechanism
    predicts what ties=input-order does, 1/(position + 1); at 60 items its quicksort moves the
    item, and ranx's own MAP is the mechanism's value, not the input order's 1/38."""
    y = np.zeros(n, dtype=np.int64)
    y[37 % n] = 1
    v = _vector("average_precision", y, np.full(n, 0.5))
    got = _predict("ties=numba-quicksort", v)
    position = 37 % n
    if n < 16:
        assert got.exact == Fraction(1, position + 1)
        return
    assert got.exact != Fraction(1, position + 1)
    assert got.exact.numerator == 1  # 1/(rank of the one relevant item)
    with warnings.catch_warnings():  # numba's compiler warnings on a fresh install
        warnings.simplefilter("ignore")
        assert _ranx_map().run(v.inputs) == float(got.exact)


def test_torcheval_splits_ties_at_infinity():
    """torcheval's thresholds change where ``diff() != 0``, and inf - inf is NaN, so tied
    infinite scores are points of their own. By hand: y = [0, 1, 1], s = [0.7, -inf, -inf]: the
    negative first, then each positive alone: (1/2)(1/2) + (1/2)(2/3) = 7/12, where the tie
    taken whole gives (1)(2/3) = 2/3. Without a tie at an infinity it says nothing."""
    pytest.importorskip("torch")
    v = _vector("average_precision", [0, 1, 1], [0.7, -np.inf, -np.inf])
    assert _predict("inf-ties=torch-sort", v).exact == Fraction(7, 12)
    assert evaluate("average_precision", v.inputs) == Fraction(2, 3)
    # the curve of y = [1, 1] tied at inf: from torcheval's (0, 1), a point at each positive
    name = "inf-ties=torch-sort+first-point=sklearn"
    curve = _predict(name, _vector("pr_curve", [1, 1], [np.inf, np.inf]))
    assert _floats(curve) == {"recall": [0.0, 0.5, 1.0], "precision": [1.0, 1.0, 1.0]}
    assert (
        _predict("inf-ties=torch-sort", _vector("average_precision", [0, 1], [np.inf, 1])) is None
    )


def test_torcheval_infinite_ties_equal_torcheval_on_drawn_inputs():
    """On drawn inputs with ±inf beside ±MAX (the differential test's extremes, 10 and 100
    items), torcheval's AP and each point of its curve are the mechanisms' values to float32
    precision (its precision and recall are float32: the differential test's 16 + 2n float32
    ulps), and the AP differs from the oracle's value on some of them."""
    from prtheory.conformance.adapters import implementations
    from prtheory.conformance.sampling import FAMILIES, sample

    pytest.importorskip("torcheval")
    impl = {i.name: i for i in implementations("torcheval")}
    ap, curve = impl["functional.binary_auprc"], impl["functional.binary_precision_recall_curve"]
    extremes = next(f for f in FAMILIES if f.name == "extremes")
    predicted = differs = 0
    for seed in range(40):
        for n in (10, 100):
            s = sample(40_000 + seed, extremes, n)
            v = _vector("average_precision", s.y_true, s.y_score)
            want = _predict("inf-ties=torch-sort", v)
            if want is None:
                continue
            p = np.float32(want.float64)
            assert abs(np.float32(ap.run(v.inputs)) - p) <= (16 + 2 * n) * np.spacing(p), s
            points = _floats(
                _predict(
                    "inf-ties=torch-sort+first-point=sklearn",
                    _vector("pr_curve", s.y_true, s.y_score),
                )
            )
            got = curve.run(v.inputs)
            for key, values in points.items():
                want32 = np.float32(values)
                error = np.abs(np.float32(got[key]) - want32)
                assert (error <= (16 + 2 * n) * np.spacing(want32)).all(), (s, key)
            predicted += 1
            differs += want.exact != evaluate("average_precision", v.inputs)
    assert predicted >= 40, predicted
    assert differs >= 10, differs


def test_torchmetrics_threshold_rule_is_stored_where_it_differs():
    """``sigmoid-on-logits+threshold=strict+undefined=sklearn`` in the stored vectors (where it
    differs from its first stored part), by hand.
    #8: scores in [0, 1], so no sigmoid; the threshold 0.9 equals the top score, ``score >
    0.9`` holds for none, precision is 0/0, taken as 0. #16: scores leave [0, 1], so
    sigmoid(2.0) = 0.881, sigmoid(0.3) = 0.574, sigmoid(-1.0) = 0.269, sigmoid(0.2) = 0.550;
    above 0.5: the two positives and the last negative, precision 2/3."""
    name = "sigmoid-on-logits+threshold=strict+undefined=sklearn"
    vectors = {v.tc_id: v for v in load("precision_at_threshold")}
    assert vectors[8].inputs.params["threshold"] == 0.9 == vectors[8].inputs.y_score.max()
    assert vectors[8].alternatives[name].exact == 0
    assert vectors[16].inputs.y_score.tolist() == [2.0, 0.3, -1.0, 0.2]
    # #16: equal to its first part's stored value, so left out and read from that part
    assert name not in vectors[16].alternatives
    assert _predict(name, vectors[16]).exact == Fraction(2, 3)
    assert _predict(name, vectors[8]).exact == 0
