"""check() on deliberately wrong implementations: each fails, and the summary names the mechanism.

Every implementation here is written from the definitions (exact Fractions, or plain floats),
independently of the oracle; the wrong ones differ from a correct one by exactly one mechanism.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction
from itertools import groupby, pairwise

import numpy as np
import pytest

from prtheory.conformance import check as full_check
from prtheory.conformance.vectors_io import load


def check(fn, *args, **kwargs):
    """check() without the three 10^6-item vectors (pure-Python Fractions take ~10 s there) and
    without generated inputs (``tests/test_conformance_differential.py``) unless asked."""
    return full_check(fn, *args, **{"max_n": 1000, "differential": False, **kwargs})


def _ap_vectors():
    return list(load(["average_precision"]))


def _weighted(vectors):
    return [v for v in vectors if v.inputs.sample_weight is not None]


def _validated(y_true, y_score, sample_weight=None):
    """Labels, scores and exact weights as lists; raise on malformed input or no positives."""
    y, s = list(y_true), [float(x) for x in y_score]
    w = [1.0] * len(y) if sample_weight is None else [float(x) for x in sample_weight]
    if not y or len(y) != len(s) or len(w) != len(y):
        raise ValueError("y_true, y_score and sample_weight must have one equal, nonzero length")
    if any(x != x for x in s) or any(label not in (0, 1) for label in y) or min(w) < 0:
        raise ValueError("NaN score, label outside {0, 1} or negative weight")
    if not all(math.isfinite(x) for x in w):
        raise ValueError("weights must be finite")
    if not any(label == 1 and wi > 0 for label, wi in zip(y, w, strict=True)):
        raise ValueError("AP is 0/0 without positives")
    return y, s, [Fraction(x) for x in w]


def _operating_points(y, s, w):
    """(TP, FP) after each distinct score, highest first: tied items form one point."""
    items = sorted(zip(s, y, w, strict=True), key=lambda t: -t[0])
    tp = fp = Fraction(0)
    points = []
    for _, block in groupby(items, key=lambda t: t[0]):
        for _, label, wi in block:
            tp, fp = (tp + wi, fp) if label == 1 else (tp, fp + wi)
        points.append((tp, fp))
    return points


def ap_pure(y_true, y_score, sample_weight=None):
    """Step AP (N2) in pure Python: sum of (R_k - R_{k-1}) P_k over the operating points."""
    points = _operating_points(*_validated(y_true, y_score, sample_weight))
    pos = points[-1][0]
    total, prev = Fraction(0), Fraction(0)
    for tp, fp in points:
        if tp > prev:
            total += (tp - prev) / pos * tp / (tp + fp)
        prev = tp
    return float(total)


def ap_numpy(y_true, y_score, sample_weight=None):
    """Step AP (N2) with numpy in float64: weights summed per distinct score, then cumsum."""
    _validated(y_true, y_score, sample_weight)
    y = np.asarray(y_true) == 1
    s = np.asarray(y_score, dtype=np.float64)
    w = np.ones(y.size) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    if not np.isfinite(w.sum()):  # AP is scale-free in the weights: sums of 1e308 made finite
        w = np.ldexp(w, -np.frexp(w.max())[1])  # by a power of two, exactly (dividing by the
        # largest weight always flushed 2^-1074 beside 2^1000 to 0, and with it every positive)
    distinct, block = np.unique(-s, return_inverse=True)
    tp = np.cumsum(np.bincount(block, weights=w * y, minlength=distinct.size))
    fp = np.cumsum(np.bincount(block, weights=w * ~y, minlength=distinct.size))
    gain = np.diff(tp, prepend=0.0)
    keep = gain > 0
    return float(np.sum(gain[keep] * (tp[keep] / (tp[keep] + fp[keep]))) / tp[-1])


def ap_trapezoid(y_true, y_score, sample_weight=None):
    """WRONG: the trapezoid area through the operating points, claimed as step AP."""
    points = _operating_points(*_validated(y_true, y_score, sample_weight))
    pos = points[-1][0]
    curve = [(tp / pos, tp / (tp + fp)) for tp, fp in points if tp + fp > 0]
    area = sum((r1 - r0) * (p0 + p1) / 2 for (r0, p0), (r1, p1) in pairwise(curve))
    return float(area)


def trapezoid_as_step(y_true, y_score, sample_weight=None):
    """WRONG: step AP claimed as the trapezoid area (the other way round from ap_trapezoid)."""
    return ap_pure(y_true, y_score, sample_weight)


def ap_float32(y_true, y_score, sample_weight=None):
    """WRONG: step AP accumulated in float32 (weights first scaled to a largest of 1, exactly,
    so that only the accumulation differs: 1e308 weights would overflow float32)."""
    y, s, w = _validated(y_true, y_score, sample_weight)
    top = max(w)
    points = _operating_points(y, s, [wi / top for wi in w])
    pos = np.float32(points[-1][0])
    total, prev = np.float32(0), np.float32(0)
    for tp, fp in points:
        tp32, fp32 = np.float32(tp), np.float32(fp)
        if tp32 > prev:
            total += (tp32 - prev) / pos * (tp32 / (tp32 + fp32))
        prev = tp32
    return total  # a numpy scalar


def ap_input_order(y_true, y_score, sample_weight=None):
    """WRONG: AP item by item after a stable sort, i.e. ties broken by input order."""
    y, s, w = _validated(y_true, y_score, sample_weight)
    order = sorted(range(len(y)), key=lambda i: -s[i])
    pos = sum(w[i] for i in order if y[i] == 1)
    tp = fp = total = Fraction(0)
    for i in order:
        tp, fp = (tp + w[i], fp) if y[i] == 1 else (tp, fp + w[i])
        if y[i] == 1 and w[i] > 0:
            total += w[i] / pos * tp / (tp + fp)
    return float(total)


def ap_weights_ignored(y_true, y_score, sample_weight=None):
    """WRONG: validates sample_weight, then computes the unweighted AP."""
    _validated(y_true, y_score, sample_weight)
    return ap_pure(y_true, y_score)


def ap_kwargs_ignored(y_true, y_score, **kwargs):
    """WRONG: takes sample_weight through **kwargs and never reads it."""
    return ap_pure(y_true, y_score)


def ap_zero_without_positives(y_true, y_score, sample_weight=None):
    """WRONG for the default convention: 0.0 where AP is 0/0 (no positive)."""
    try:
        return ap_pure(y_true, y_score, sample_weight)
    except ValueError as exc:
        if "without positives" in str(exc):
            return 0.0
        raise


def ap_unvalidated(y_true, y_score, sample_weight=None):
    """WRONG: no input validation (labels clipped, NaN scores zeroed, lengths truncated)."""
    n = min(len(y_true), len(y_score))
    y = np.clip(np.asarray(y_true)[:n], 0, 1)
    s = np.nan_to_num(np.asarray(y_score, dtype=np.float64)[:n], posinf=np.inf, neginf=-np.inf)
    w = None if sample_weight is None else np.abs(np.asarray(sample_weight)[:n])
    return ap_pure(y, s, w)


def precision_at(y_true, y_score, threshold, sample_weight=None, strict=False):
    """Precision of the classifier score >= threshold (> threshold if ``strict``), exactly."""
    y, s, w = list(y_true), [float(x) for x in y_score], sample_weight
    w = [Fraction(1)] * len(y) if w is None else [Fraction(float(x)) for x in w]
    if len(s) != len(y) or any(x != x for x in s) or any(label not in (0, 1) for label in y):
        raise ValueError("malformed input")
    hit = [x > threshold if strict else x >= threshold for x in s]
    tp = sum(wi for wi, h, label in zip(w, hit, y, strict=True) if h and label == 1)
    pp = sum(wi for wi, h in zip(w, hit, strict=True) if h)
    if pp == 0:
        raise ValueError("precision is 0/0: nothing predicted positive")
    return float(Fraction(tp) / pp)


def precision_strict(y_true, y_score, threshold, sample_weight=None):
    """WRONG: predicts positive iff score > threshold."""
    return precision_at(y_true, y_score, threshold, sample_weight, strict=True)


@pytest.mark.parametrize(
    "fn", [pytest.param(ap_pure, marks=pytest.mark.slow), ap_numpy], ids=["pure-python", "numpy"]
)
def test_correct_implementations_pass(fn):
    # the vectors, and round 0 of generated inputs (the whole plan, for implementations of
    # every metric, is tests/test_conformance_differential.py's)
    report = full_check(fn, metric="average_precision", per_decade=0)
    assert report.ok, report.summary()
    n = len(_ap_vectors())
    assert n >= 56
    assert report.passed == len(report.cases) == n
    assert f"OK: {n} pass, 0 fail, 0 skipped" in report.summary()


def test_correct_precision_at_threshold_passes():
    report = check(precision_at, metric="precision_at_threshold")
    assert report.ok, report.summary()
    assert {c.skipped for c in report.skipped} <= {"max_n"}


WRONG = [
    (ap_trapezoid, "average_precision", {}, "trapezoid-for-step"),
    (trapezoid_as_step, "auc_trapezoid", {}, "step-for-trapezoid"),
    (ap_float32, "average_precision", {}, "float32-accumulation"),
    (ap_input_order, "average_precision", {}, "ties=input-order"),
    (ap_weights_ignored, "average_precision", {}, "weights-ignored"),
    (
        ap_kwargs_ignored,
        "average_precision",
        {"skip": ["sample_weight"]},
        "weights-ignored+no-input-validation",
    ),
    (precision_strict, "precision_at_threshold", {}, "threshold=strict"),
    (ap_zero_without_positives, "average_precision", {}, "undefined=sklearn"),
    (ap_unvalidated, "average_precision", {}, "no-input-validation"),
]


@pytest.mark.parametrize(
    ("fn", "metric", "kwargs", "mechanism"), WRONG, ids=[w[0].__name__ for w in WRONG]
)
def test_each_wrong_implementation_fails_and_is_named(fn, metric, kwargs, mechanism):
    report = check(fn, metric=metric, **kwargs)
    assert not report.ok
    assert report.diagnosis.chosen == mechanism.split("+"), report.summary()
    assert not report.diagnosis.unexplained, report.summary()
    summary = report.summary()
    assert f"mechanisms: {mechanism.split('+')[0]} (" in summary
    assert "unexplained: 0" in summary


def test_each_failure_is_attributed_with_its_exact_prediction():
    # every score tied, labels [1, 0, 1, 0, 0] in input order: item-by-item AP is
    # (1/1 + 2/3)/2 = 5/6 (hand computation), the grouped value 2/5
    report = check(ap_input_order, skip=["sample_weight"])
    failure = next(f for f in report.failures if f.vector.comment == "every score tied")
    assert failure.mechanism[0] == "ties=input-order"
    assert failure.mechanism[1].float64 == failure.case.value  # oracle prediction = result
    text = str(failure)
    assert "input: y_true=" in text
    assert "returned: " + repr(failure.case.value) in text
    assert "distance to the oracle: " in text
    assert "ulps" in text
    assert "mechanism: ties=input-order" in text


def test_weights_through_kwargs_are_skipped_never_passed():
    report = check(ap_kwargs_ignored)
    weighted = [c for c in report.cases if c.vector.inputs.sample_weight is not None]
    valid_weighted = [c for c in weighted if c.vector.result == "valid"]
    # no weighted valid vector counts as a pass: either skipped as unread, or (where the weights
    # do not change the value) called with the weights
    assert all(
        c.skipped == "sample_weight" for c in valid_weighted if c.vector.tc_id in (23, 24, 25)
    )
    skipped = [c for c in report.cases if c.skipped == "sample_weight"]
    assert skipped
    assert all("never read" in c.verdict.detail for c in skipped)
    assert "skipped (sample_weight): " in report.summary()
    # opting out accepts the skips; the unvalidated negative weight still fails
    opted = check(ap_kwargs_ignored, skip=["sample_weight"])
    # the weights are never validated either: every invalid weight is accepted, and zero weight
    # on every positive (AP 0/0) gets the unweighted value
    assert {f.vector.comment for f in opted.failures} == {
        "negative weight",
        "NaN weight",
        "infinite weight",
        "zero weight on every positive",
    }


def test_kwargs_that_read_the_weights_pass():
    def ap(y_true, y_score, **kwargs):
        return ap_pure(y_true, y_score, kwargs.get("sample_weight"))

    report = check(ap)
    assert report.ok, report.summary()


def test_missing_parameter_is_skipped_and_fails_unless_opted_out():
    def ap(y_true, y_score):
        return ap_pure(y_true, y_score)

    report = check(ap)
    assert not report.ok
    weighted = len(_weighted(_ap_vectors()))
    assert weighted >= 5 + 4 + 2  # 4 ordinary, the negative weight, 4 extremes, NaN and inf
    assert sum(c.skipped == "sample_weight" for c in report.skipped) == weighted
    assert f"skipped (sample_weight): {weighted}" in report.summary()
    assert "NOT opted out" in report.summary()
    opted = check(ap, skip=["sample_weight"])
    assert opted.ok, opted.summary()
    assert opted.passed == len(_ap_vectors()) - weighted - 3  # and the three long ones


def test_max_n_skips_long_vectors_by_name():
    report = check(ap_pure)
    assert report.ok
    assert {c.skipped for c in report.skipped} == {"max_n"}
    assert len(report.skipped) == 3  # the three 10^6 + 1 item vectors


def test_crash_on_every_vector_fails_loudly_with_the_users_line():
    def ap(y_true, y_score, sample_weight=None):
        return ap_pure(y_true, y_score, sample_weight) + np.alen(y_true)

    report = check(ap)
    assert not report.ok
    # raising is right only where the vector is invalid or undefined
    raising_ok = sum(v.result != "valid" and len(v.inputs.y_true) <= 1000 for v in _ap_vectors())
    assert report.passed == raising_ok
    summary = report.summary()
    assert "RAISED ON EVERY ONE" in summary
    assert "your function raised AttributeError" in summary
    assert "last traceback line" in summary


def test_wrong_signature_is_never_a_pass():
    def ap(labels, scores):
        return ap_pure(labels, scores)

    report = check(ap)
    assert not report.ok
    assert report.passed == 0 or all(c.value is not None for c in report.cases if c.skipped is None)


def test_names_mapping_and_positional_only():
    def ap(target, preds, /, weight=None):
        return ap_pure(target, preds, weight)

    names = {"y_true": "target", "y_score": "preds", "sample_weight": "weight"}
    report = check(ap, names=names)
    assert report.ok, report.summary()


def test_numpy_and_torch_scalar_returns():
    torch = pytest.importorskip("torch")

    def as_numpy(y_true, y_score, sample_weight=None):
        return np.float64(ap_pure(y_true, y_score, sample_weight))

    def as_torch(y_true, y_score, sample_weight=None):
        return torch.tensor(ap_pure(y_true, y_score, sample_weight), dtype=torch.float64)

    for fn in (as_numpy, as_torch):
        report = check(fn)
        assert report.ok, report.summary()


def test_declared_float32_precision():
    assert not check(ap_float32, differential=False).ok
    report = check(ap_float32, precision="float32", differential=False)
    assert report.ok, report.summary()
    # on generated inputs its weights underflow: 2^±1000 weights scaled by the largest one fall
    # below float32's range, so a positive weighing 1e61 beside a negative weighing 1e196 has
    # no weight left and AP 1 (the positive ranked first) comes out 0
    found = check(ap_float32, precision="float32", differential=True, budget=0.0).differential
    assert found is not None
    assert found.kinds.get("wrong")
    assert {d.spec.family.weights for d in found.divergences} == {"spread"}
    # a float32 tolerance does not hide a different definition
    assert not check(ap_trapezoid, precision="float32").ok


def test_mutated_correct_implementation_is_caught():
    # perturb the result on a single vector by 64 ulps: check() must notice exactly that one
    def mutated(y_true, y_score, sample_weight=None):
        value = ap_pure(y_true, y_score, sample_weight)
        if len(y_true) == 4 and sample_weight is not None and 0 in list(sample_weight):
            value = value * (1 + 1e-5)  # beyond float32 rounding too
        return value

    report = check(mutated)
    assert [f.vector.comment for f in report.failures] == ["a zero weight on a negative"]
    assert report.diagnosis.unexplained


# ------------------------------------------------------------------------------------------
# the diagnosis, tested adversarially: a correct implementation mutated by one mechanism must be
# diagnosed with exactly that mechanism and nothing else


def _mutate_scores(fn):
    """``ap_pure`` on the scores ``fn`` makes of them (before any validation)."""

    def mutated(y_true, y_score, sample_weight=None):
        return ap_pure(y_true, fn(np.asarray(y_score)), sample_weight)

    return mutated


def _mutate_weights(fn):
    def mutated(y_true, y_score, sample_weight=None):
        w = None if sample_weight is None else fn(np.asarray(sample_weight, dtype=np.float64))
        return ap_pure(y_true, y_score, w)

    return mutated


def _undefined_as(value):
    def mutated(y_true, y_score, sample_weight=None):
        try:
            return ap_pure(y_true, y_score, sample_weight)
        except ValueError as exc:
            if "without positives" in str(exc):
                return value
            raise

    return mutated


def _nan_to(first):
    def place(s):
        s = np.asarray(s, dtype=np.float64).copy()
        nan = np.isnan(s)
        if nan.any():
            s[nan] = s[~nan].max() + 1.0 if first else s[~nan].min() - 1.0
        return s

    return place


def _sigmoid_on_logits(s):
    """1/(1 + exp(-s)) in the scores' own dtype when any score leaves [0, 1] (torchmetrics)."""
    if np.all((s >= 0) & (s <= 1)):
        return s
    with np.errstate(over="ignore"):
        one = s.dtype.type(1) if s.dtype.kind == "f" else 1.0
        return one / (one + np.exp(-s))


def _rejects_infinite(y_true, y_score, sample_weight=None):
    if np.isinf(np.asarray(y_score, dtype=np.float64)).any():
        raise ValueError("y_score contains infinity")
    return ap_pure(y_true, y_score, sample_weight)


def _minoring(y_true, y_score, sample_weight=None):
    """sum (R_i - R_{i-1}) min(P_i, P_{i-1}) over the operating points with (R, P) = (0, 0)
    before the first (Keras's summation_method='minoring', exactly); the empty classifier (zero
    weight at the top) is no point."""
    points = _operating_points(*_validated(y_true, y_score, sample_weight))
    pos = points[-1][0]
    curve = [(Fraction(0), Fraction(0))]
    curve += [(tp / pos, tp / (tp + fp)) for tp, fp in points if tp + fp > 0]
    return float(sum((r1 - r0) * min(p0, p1) for (r0, p0), (r1, p1) in pairwise(curve)))


MUTANTS = [
    (_undefined_as(0.5), "undefined=0.5"),
    (_undefined_as(-0.0), "undefined=-0.0"),
    (_mutate_scores(_nan_to(first=True)), "nan=first"),
    (_mutate_scores(_nan_to(first=False)), "nan=last"),
    (_mutate_scores(_sigmoid_on_logits), "sigmoid-on-logits"),
    (_mutate_weights(lambda w: np.maximum(w, 0.0)), "weights-clipped"),
    (_mutate_weights(lambda w: w / np.sum(w)), "weights-normalised"),
    (_rejects_infinite, "rejects-infinite-scores"),
    (_minoring, "riemann-minoring"),
    (ap_trapezoid, "trapezoid-for-step"),
    (ap_input_order, "ties=input-order"),
    (ap_float32, "float32-accumulation"),
    (ap_weights_ignored, "weights-ignored"),
    (ap_zero_without_positives, "undefined=sklearn"),
]


@pytest.mark.parametrize(("fn", "mechanism"), MUTANTS, ids=[m[1] for m in MUTANTS])
def test_mutation_by_one_mechanism_is_diagnosed_as_exactly_that_one(fn, mechanism):
    with np.errstate(all="ignore"):
        report = check(fn)
    assert not report.ok
    assert report.diagnosis.chosen == [mechanism], report.summary()
    assert not report.diagnosis.unexplained, report.summary()
    # every failure carries the mechanism, its exact prediction and the returned value
    for f in report.failures:
        assert f.mechanism is not None
        assert f.mechanism[0] == mechanism
        assert f"mechanism: {mechanism} (predicts " in str(f)


def test_a_convention_contradicted_by_a_correct_result_is_dropped():
    # input order on every tie but one: that one vector (the grouped value returned) contradicts
    # ties=input-order, which then explains nothing; the other tie vectors stay unexplained
    def ap(y_true, y_score, sample_weight=None):
        if list(y_true) == [1, 0, 1, 0] and len(set(np.asarray(y_score).tolist())) < 4:
            return ap_pure(y_true, y_score, sample_weight)  # the grouped value, here only
        return ap_input_order(y_true, y_score, sample_weight)

    report = check(ap)
    assert "ties=input-order" not in report.diagnosis.chosen, report.summary()
    assert report.diagnosis.unexplained


# ------------------------------------------------------------------------------------------
# other definitions of AP, and causes that must explain rather than coincide


def ap_interpolated(y_true, y_score, sample_weight=None):
    """WRONG: all-point interpolated AP: each precision replaced by the best at higher recall."""
    points = _operating_points(*_validated(y_true, y_score, sample_weight))
    pos = points[-1][0]
    table = [(tp / pos, tp / (tp + fp)) for tp, fp in points if tp + fp > 0]
    total, before = Fraction(0), Fraction(0)
    for i, (r, _) in enumerate(table):
        total += (r - before) * max(p for _, p in table[i:])
        before = r
    return float(total)


def ap_rounded_weights(y_true, y_score, sample_weight=None):
    """WRONG: weights rounded to integers (half to even) first."""
    w = None if sample_weight is None else [round(float(x)) for x in sample_weight]
    return ap_pure(y_true, y_score, w)


def ap_over_items(y_true, y_score, sample_weight=None):
    """WRONG: the precisions at the positives divided by the number of items (total weight)."""
    y, _, w = _validated(y_true, y_score, sample_weight)
    pos = sum(wi for label, wi in zip(y, w, strict=True) if label == 1)
    return float(Fraction(ap_pure(y_true, y_score, sample_weight)) * pos / sum(w))


def ap_squared(y_true, y_score, sample_weight=None):
    """WRONG: AP squared; on AP = 3.05e-151 it returns 9.3e-302, which is no float32 rounding
    of it although both underflow to 0 in float32."""
    return ap_pure(y_true, y_score, sample_weight) ** 2


def _attributed(report):
    return {name for name, _ in report.diagnosis.attribution.values()}


@pytest.mark.parametrize(
    ("fn", "mechanism"),
    [
        (ap_interpolated, "interpolated"),
        (ap_rounded_weights, "weights-rounded"),
        (ap_over_items, "normalisation=items"),
    ],
)
def test_other_definitions_of_ap_are_named(fn, mechanism):
    report = check(fn)
    assert not report.ok
    assert mechanism in _attributed(report), report.summary()
    # every divergence of these is explained by that one mechanism
    assert not report.diagnosis.unexplained, report.summary()


def ap_divided_by_n(y_true, y_score, sample_weight=None):
    """WRONG: AP divided by the number of items: no mechanism's definition."""
    return ap_pure(y_true, y_score, sample_weight) / len(y_true)


def test_a_coincidence_is_not_a_cause():
    report = check(ap_divided_by_n)
    # AP / n equals AP * pos / n (normalisation=items) where pos = 1, as on the 2-item vectors,
    # and other mechanisms on single vectors; every such mechanism predicts an effect that
    # other vectors contradict, so none is named: every divergence is unexplained
    assert not _attributed(report), report.summary()
    assert len(report.diagnosis.unexplained) == len(report.failures)


def test_values_that_both_underflow_in_float32_are_not_float32_rounding():
    report = check(ap_squared)
    tiny = [f for f in report.failures if abs(f.case.value or 1) < 1e-200]
    assert tiny, report.summary()
    for f in tiny:  # 9.3e-302 against 3.05e-151: counted in float64 ulps, not 0 float32 ulps
        assert f.verdict.category == "wrong"
        assert (f.mechanism or ("",))[0] != "float32-accumulation"


def ap_negative_zero_first(y_true, y_score, sample_weight=None):
    """WRONG: -0.0 ranked above 0.0 (a sort on the sign bit), the two otherwise equal."""
    s = [5e-324 if x == 0 and math.copysign(1, x) < 0 else float(x) for x in y_score]
    return ap_pure(y_true, s, sample_weight)


def ap_infinity_as_max(y_true, y_score, sample_weight=None):
    """WRONG: ±inf replaced by ±MAX (clipping to the finite range), so inf ties with MAX."""
    top = sys.float_info.max
    return ap_pure(y_true, [min(max(float(x), -top), top) for x in y_score], sample_weight)


@pytest.mark.parametrize("fn", [ap_negative_zero_first, ap_infinity_as_max])
def test_signed_zeros_and_infinities_beside_max_are_told_apart(fn):
    # y=[0, 1, 1], s=[0.0, -0.0, -1.0]: one tie {neg, pos} at 0, then a positive: 1/2 * 1/2 +
    # 1/2 * 2/3 = 7/12; with -0.0 first the positive leads: 1/2 + 1/3 = 5/6. y=[1, 0, 1],
    # s=[inf, MAX, -1]: 5/6; inf tied with MAX: 7/12.
    report = check(fn)
    assert not report.ok
    wrong = {f.vector.comment for f in report.failures}
    assert wrong & {
        "-0.0 and 0.0 are one tied score, positive on -0.0",
        "+inf above the largest float",
    }, report.summary()
