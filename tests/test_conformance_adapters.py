"""Adapters on the real libraries: each known divergence classified from a minimal vector.

Each test imports its library with ``pytest.importorskip``; CI installs the ``conformance``
extra, so they run there.
"""

from __future__ import annotations

import math
import os

import numpy as np
import pytest

from prtheory.conformance.adapters import Implementation, implementations, load_adapter
from prtheory.conformance.classify import classify
from prtheory.conformance.runner import extra_alternatives, run_implementation
from prtheory.conformance.vectors_io import Vector, load


def _vector(metric: str, comment: str) -> Vector:
    return next(v for v in load([metric]) if v.comment == comment)


def _impl(key: str, name: str) -> Implementation:
    return next(i for i in implementations(key) if i.name == name)


def _verdict(key: str, name: str, metric: str, comment: str):
    impl, v = _impl(key, name), _vector(metric, comment)
    outcome = run_implementation(impl, v)
    return classify(v, outcome, extra_alternatives(impl, v)), outcome.value


# ------------------------------------------------------------------------------------------
# scikit-learn


def test_sklearn_agrees_on_an_ordinary_ranking():
    pytest.importorskip("sklearn")
    verdict, _ = _verdict(
        "sklearn",
        "average_precision_score",
        "average_precision",
        "N3 worked example, scores_A (claim N3)",
    )
    assert verdict.category == "agrees"


def test_sklearn_rejects_infinite_scores():
    pytest.importorskip("sklearn")
    verdict, _ = _verdict(
        "sklearn", "average_precision_score", "average_precision", "untied infinities"
    )
    assert verdict.category == "rejected-valid"
    assert "infinity" in verdict.detail


def test_sklearn_pr_curve_auc_is_one_half_without_positives():
    pytest.importorskip("sklearn")
    verdict, value = _verdict(
        "sklearn",
        "auc(recall, precision) of precision_recall_curve",
        "auc_trapezoid",
        "all negative",
    )
    assert verdict.category == "undefined-value"
    assert value == 0.5


def test_sklearn_pr_curve_has_the_sklearn_first_point():
    pytest.importorskip("sklearn")
    verdict, _ = _verdict(
        "sklearn", "precision_recall_curve", "pr_curve", "distinct scores, mixed labels"
    )
    assert verdict.convention == "first-point=sklearn"


# ------------------------------------------------------------------------------------------
# torchmetrics


def test_torchmetrics_applies_a_sigmoid_to_logits():
    pytest.importorskip("torchmetrics")
    verdict, _ = _verdict(
        "torchmetrics",
        "functional.binary_average_precision",
        "average_precision",
        "large logits that saturate the sigmoid to 1.0",
    )
    assert verdict.convention == "sigmoid-on-logits"
    verdict, _ = _verdict(
        "torchmetrics",
        "functional.binary_fbeta_score",
        "fbeta_at_threshold",
        "logits: 0.3 is below 0.5, sigmoid(0.3) is above",
    )
    assert "sigmoid-on-logits" in verdict.matches


def test_torchmetrics_result_depends_on_the_batch_split():
    pytest.importorskip("torchmetrics")
    comment = "scores in [0, 1] except one"  # [0.9, 0.8 | 1.5, 0.1]: only batch 2 is squashed
    one, v1 = _verdict(
        "torchmetrics", "BinaryAveragePrecision, 1 update()", "average_precision", comment
    )
    two, v2 = _verdict(
        "torchmetrics", "BinaryAveragePrecision, 2 update() calls", "average_precision", comment
    )
    assert v1 != v2
    assert one.category == "float32"  # one batch: every score squashed, order unchanged
    assert two.convention == "sigmoid-per-batch(2)"


def test_torchmetrics_computes_in_float32():
    pytest.importorskip("torchmetrics")
    verdict, value = _verdict(
        "torchmetrics",
        "functional.binary_average_precision",
        "average_precision",
        "distinct scores, mixed labels",
    )
    assert verdict.category == "float32"
    assert value != 251 / 336  # the float64 result; the float32 one differs


def test_torchmetrics_threshold_is_strict():
    pytest.importorskip("torchmetrics")
    verdict, _ = _verdict(
        "torchmetrics",
        "functional.binary_fbeta_score",
        "fbeta_at_threshold",
        "threshold equal to a score",
    )
    assert verdict.convention == "threshold=strict"


# ------------------------------------------------------------------------------------------
# torcheval


def test_torcheval_splits_ties_between_infinite_scores():
    pytest.importorskip("torcheval")
    verdict, _ = _verdict(
        "torcheval",
        "functional.binary_auprc",
        "average_precision",
        "+inf tied with +inf, positive first",
    )
    assert "inf-ties=input-order" in verdict.matches
    finite, _ = _verdict(
        "torcheval",
        "functional.binary_auprc",
        "average_precision",
        "tie of a positive and a negative at the top, positive first in input order",
    )
    assert finite.category == "float32"  # finite ties stay grouped


def test_torcheval_computes_in_float32():
    pytest.importorskip("torcheval")
    verdict, _ = _verdict(
        "torcheval", "functional.binary_auprc", "average_precision", "distinct scores, mixed labels"
    )
    assert verdict.category == "float32"


# ------------------------------------------------------------------------------------------
# trec_eval


def test_trec_eval_breaks_ties_by_descending_document_id():
    pytest.importorskip("pytrec_eval")
    verdict, value = _verdict(
        "pytrec_eval",
        "map",
        "average_precision",
        "tie of a negative and a positive at the top, negative first in input order",
    )
    assert verdict.convention == "ties=trec_eval"
    assert abs(value - 5 / 6) <= 2**-52  # trec_eval sums in double: within an ulp of 5/6


def test_trec_eval_stores_scores_as_float32():
    pytest.importorskip("pytrec_eval")
    verdict, value = _verdict(
        "pytrec_eval",
        "map",
        "average_precision",
        "0.5 + 1e-12 above 0.5: distinct in float64, one float32",
    )
    assert verdict.convention in ("scores=float32", "ties=trec_eval+scores=float32")
    assert value == 0.5


# ------------------------------------------------------------------------------------------
# PRG packages


def test_official_prg_code_counts_negative_area():
    pytest.importorskip("prg")
    verdict, value = _verdict(
        "pyprg",
        "calc_auprg(create_prg_curve(...))",
        "auprg",
        "worst ranking: negatives first (B2, B6: AP = AP_min(3, 5))",
    )
    assert verdict.convention == "prg-area=signed"
    assert value < 0


def test_precision_recall_gain_returns_non_finite_values():
    pytest.importorskip("precision_recall_gain")
    _, value = _verdict(
        "precision_recall_gain",
        "area_under_precision_recall_gain_score",
        "auprg",
        "distinct scores, mixed labels",
    )
    assert not math.isfinite(value)


def test_shims_are_declared():
    assert load_adapter("pyprg").SHIMS
    assert load_adapter("precision_recall_gain").SHIMS


def test_cli_json_for_one_library_and_metric(capsys):
    pytest.importorskip("sklearn")
    import json

    from prtheory.cli import main

    args = ["conformance", "--libraries", "sklearn", "--metrics", "fbeta_at_threshold"]
    # fbeta_score returns NaN at beta 1e154 and raises OverflowError at 1e200: the gate fails
    assert main([*args, "--json", "-"]) == 1
    payload = json.loads(capsys.readouterr().out)
    rows = payload["results"]
    assert {r["metric"] for r in rows} == {"fbeta_at_threshold"}
    assert {r["library"] for r in rows} == {"scikit-learn"}
    assert sum(r["outcome"] == "agrees" for r in rows) >= 14
    assert payload["libraries"][0]["version"] == rows[0]["version"]
    by_comment = {r["comment"]: r for r in rows}
    assert by_comment["beta 1e200 at threshold 0.45"]["outcome"] == "crashed"
    assert "OverflowError" in by_comment["beta 1e200 at threshold 0.45"]["detail"]


# ------------------------------------------------------------------------------------------
# Keras


def _keras():
    # Keras 3 picks its backend at import; the adapter (and this test) use torch
    os.environ.setdefault("KERAS_BACKEND", "torch")
    return pytest.importorskip("keras")


def test_keras_davis_goadrich_at_every_score_agrees_up_to_float32():
    _keras()
    verdict, value = _verdict(
        "keras",
        "AUC(curve='PR', thresholds=every distinct score)",
        "auc_davis_goadrich",
        "distinct scores, mixed labels",
    )
    # the vector's exact Davis-Goadrich area with first point (0, p_first) is 0.71110019498957
    assert verdict.category == "float32"
    assert value != float.fromhex("0x1.6c15532351a04p-1")
    assert abs(value - 0.7111001949895699) < 2**-22


def test_keras_interpolation_cancels_catastrophically_in_float32():
    np = pytest.importorskip("numpy")
    _keras()
    impl = "AUC(curve='PR', thresholds=every distinct score)"
    comment = "1 positive among 10^6 tied negatives, positive ranked at the bottom"
    verdict, value = _verdict("keras", impl, "auc_davis_goadrich", comment)
    assert verdict.category == "wrong"
    # the last bucket: TP 0 -> 1 while TP + FP goes 10^6 -> 10^6 + 1, so Keras's increment
    # slope (dTP + intercept log(P_A/P_B)) = 1 - 10^6 log(1 + 10^-6) (exactly 5.0e-7) is
    # evaluated in float32, where log(1.000001) keeps one significant digit
    f32 = np.float32
    predicted = f32(1) - f32(1e6) * np.log(f32(1_000_001) / f32(1_000_000))
    assert value == float(predicted)
    assert value > 0.04  # against the exact 4.999996666669166e-07


def test_keras_default_is_binned_on_200_thresholds():
    _keras()
    verdict, value = _verdict(
        "keras",
        "AUC(curve='PR'), default 200 thresholds",
        "auc_davis_goadrich",
        "0.5 + 1e-12 above 0.5: distinct in float64, one float32",
    )
    # both scores fall in the bin (99/199, 100/199]: a tie of a positive and a negative, so
    # the area is 1/2 where the exact one is 1
    assert verdict.convention == "binned(200 thresholds)"
    assert value == 0.5


def test_keras_is_given_no_logits():
    _keras()
    impl = _impl("keras", "AUC(curve='PR'), default 200 thresholds")
    outcome = run_implementation(impl, _vector("auc_davis_goadrich", "logits in (-3, 3)"))
    assert outcome.unsupported == "Keras's AUC takes probabilities in [0, 1]"


@pytest.mark.parametrize(
    "comment",
    [
        "distinct scores, mixed labels",
        "1 positive among 10^6 tied negatives, positive ranked at the bottom",
        "integer weights with ties",
    ],
)
def test_keras_float32_emulation_reproduces_keras(comment):
    # the report attributes Keras's wrong areas to its float32 closed form only when this
    # numpy emulation (which never imports Keras) reproduces the returned value
    from prtheory.conformance.keras_models import float32_interpolation

    _keras()
    impl = "AUC(curve='PR', thresholds=every distinct score)"
    v = _vector("auc_davis_goadrich", comment)
    got = run_implementation(_impl("keras", impl), v).value
    assert float32_interpolation(v.inputs) == got


def test_keras_findings_separate_float32_scores_from_cancellation():
    from prtheory.conformance.report import KNOWN_FINDINGS
    from prtheory.conformance.runner import Row

    _keras()
    name = "AUC(curve='PR', thresholds=every distinct score)"
    rows = []
    for comment in (
        "1 positive among 10^6 tied negatives, positive ranked at the bottom",
        "0.5 + 1e-12 above 0.5: distinct in float64, one float32",
    ):
        verdict, value = _verdict("keras", name, "auc_davis_goadrich", comment)
        v = _vector("auc_davis_goadrich", comment)
        rows.append(Row("Keras", name, "auc_davis_goadrich", v, verdict, value))
    found = {f.key: [r.vector.comment for r in f.evidence(rows)] for f in KNOWN_FINDINGS}
    assert found["keras-float32-cancellation"] == [rows[0].vector.comment]
    assert found["keras-float32-scores"] == [rows[1].vector.comment]


def test_keras_minoring_and_majoring_bracket_average_precision():
    from prtheory.conformance.keras_models import float32_riemann

    _keras()
    v = _vector("average_precision", "distinct scores, mixed labels")
    exact = float(v.expected.exact)  # 251/336
    got = {}
    for method in ("minoring", "majoring"):
        name = f"AUC(curve='PR', summation_method='{method}', thresholds=every distinct score)"
        got[method] = run_implementation(_impl("keras", name), v).value
        assert got[method] == float32_riemann(v.inputs, method)
    # min(P_i, P_i+1) <= P_i <= max(P_i, P_i+1) on every recall step; the float32 sums are
    # within float32 rounding of the exact Riemann sums, far from AP on this ranking
    assert got["minoring"] < exact < got["majoring"]


def test_pytrec_eval_evaluates_each_input_once_for_every_measure(monkeypatch):
    pytest.importorskip("pytrec_eval")
    from prtheory.conformance.adapters import pytrec_eval_adapter as adapter
    from prtheory.conformance.metrics import Inputs

    calls = []
    real = adapter._evaluate
    monkeypatch.setattr(adapter, "_evaluate", lambda x, m: calls.append(m) or real(x, m))
    monkeypatch.setattr(adapter, "_SEEN", {})
    impls = {i.name: i for i in adapter.implementations()}
    x = Inputs(np.array([1, 0, 1]), np.array([0.9, 0.8, 0.7]), None, {"k": 2})
    # ranking 1,0,1: AP = (1/1 + 2/3)/2 = 5/6; P@2 = 1/2; R-precision (R = 2) = 1/2;
    # AP cut at 2 = (1/1)/2 = 1/2 (divided by the 2 relevant)
    want = {"map": 5 / 6, "P_k": 0.5, "Rprec": 0.5, "map_cut_k": 0.5}
    assert {name: impls[name].run(x) for name in want} == pytest.approx(want, abs=1e-15)
    assert calls == [{"map", "Rprec", "P_2", "map_cut_2"}]
    # a measure the joint evaluation cannot give is evaluated alone
    bad = Inputs(x.y_true, x.y_score, None, {"k": "x"})
    monkeypatch.setattr(adapter, "_evaluate", lambda x, m: calls.append(m) or _fail(m))
    with pytest.raises(KeyError):
        impls["P_k"].run(bad)
    assert calls[-2:] == [{"map", "Rprec", "P_x", "map_cut_x"}, {"P_x"}]


def _fail(measures):
    raise KeyError(sorted(measures)[0])
