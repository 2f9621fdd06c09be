"""Conformance vectors: schema, staleness, encodings, and expected values checked independently."""

from __future__ import annotations

import copy
import json
import math
from decimal import Decimal, localcontext
from fractions import Fraction

import numpy as np
import pytest

jsonschema = pytest.importorskip("jsonschema")

from prtheory.conformance.cases.partial import BOUNDS  # noqa: E402
from prtheory.conformance.encoding import decode_inputs, encode_float, encode_inputs  # noqa: E402
from prtheory.conformance.generate import (  # noqa: E402
    assign_ids,
    build_all,
    input_key,
    load_lock,
    main,
)
from prtheory.conformance.vectors_io import (  # noqa: E402
    GENERATED_PATH,
    LOCK_PATH,
    VECTOR_DIR,
    files,
    load,
    load_file,
    rounded,
    validate,
)
from prtheory.errors import InvalidInputError  # noqa: E402


def _doc(name: str) -> dict:
    return json.loads((VECTOR_DIR / name).read_text(encoding="utf-8"))


def _first(doc: dict) -> dict:
    return doc["testGroups"][0]["tests"][0]["expected"]


def _find(metric: str, comment: str):
    return next(v for v in load([metric]) if v.comment == comment)


@pytest.mark.parametrize("path", files(), ids=lambda p: p.stem)
def test_committed_vector_files_match_the_schema(path):
    validate(json.loads(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize(
    "break_it",
    [
        pytest.param(
            lambda d: d["testGroups"][0]["tests"][0].pop("expected"), id="valid-without-expected"
        ),
        pytest.param(
            lambda d: d["testGroups"][0]["tests"][0]["expected"].update(float64="0.5"),
            id="float64-not-hex",
        ),
        pytest.param(
            lambda d: d["testGroups"][0]["tests"][0].update(result="acceptable"),
            id="unknown-result",
        ),
        pytest.param(
            lambda d: d["testGroups"][0]["tests"][0]["inputs"]["y_score"].__setitem__(0, 0.5),
            id="score-as-number",
        ),
        pytest.param(lambda d: d["testGroups"][0]["tests"][0].update(extra=1), id="unknown-field"),
        pytest.param(lambda d: d["testGroups"][0]["tests"][1].update(tcId=1), id="duplicate-tcId"),
        pytest.param(lambda d: d["notes"].pop("ties"), id="flag-without-note"),
        pytest.param(
            lambda d: d["testGroups"][0]["tests"][0]["expected"].update(decimal="0.5"),
            id="decimal-not-40-digits",
        ),
        pytest.param(lambda d: d.pop("generatorVersion"), id="no-generator-version"),
        pytest.param(lambda d: d["notes"]["ties"].pop("effect"), id="note-without-effect"),
        # the three forms of a value must agree: a float64 one ulp off its exact value
        pytest.param(
            lambda d: d["testGroups"][0]["tests"][0]["expected"].update(
                float64=float.hex(math.nextafter(float.fromhex(_first(d)["float64"]), 2))
            ),
            id="float64-disagrees-with-exact",
        ),
        pytest.param(
            lambda d: _first(d).update(decimal="9.000000000000000000000000000000000000000e-1"),
            id="decimal-disagrees-with-exact",
        ),
        pytest.param(
            lambda d: d["testGroups"][0]["tests"][0]["inputs"]["y_score"].append("0.5"),
            id="lengths-differ",
        ),
    ],
)
def test_a_malformed_vector_file_fails_validation(break_it):
    doc = copy.deepcopy(_doc("average_precision.json"))
    validate(doc)  # the unbroken copy is valid
    break_it(doc)
    with pytest.raises(jsonschema.ValidationError):
        validate(doc)


def test_committed_vectors_are_not_stale():
    """Regenerating from the oracle gives the committed files byte for byte."""
    fresh = build_all()
    committed = {
        p.name: p.read_text(encoding="utf-8") for p in [*files(), LOCK_PATH, GENERATED_PATH]
    }
    assert sorted(fresh) == sorted(committed), (
        "vector files added or removed: run python -m prtheory.conformance.generate"
    )
    stale = [name for name in fresh if fresh[name] != committed[name]]
    assert not stale, f"stale vectors {stale}: run python -m prtheory.conformance.generate"


def test_encoded_values_agree_with_each_other():
    """For every rational expected value: float64 hex is float(exact) (correctly rounded by
    Python's Fraction.__float__) and the 40 digits are the exact value rounded half-even by
    the decimal module at 80 digits."""
    checked = 0
    for v in load():
        values = []
        if v.expected is not None:
            values += (
                [v.expected]
                if not isinstance(v.expected, dict)
                else [x for xs in v.expected.values() for x in xs]
            )
        for val in values:
            if val.exact is None:
                continue
            assert val.float64 == rounded(val.exact)
            with localcontext() as ctx:
                ctx.prec = 80
                exact = Decimal(val.exact.numerator) / Decimal(val.exact.denominator)
                ctx.prec = 40
                assert Decimal(val.decimal) == +exact, (v.ident, val)
            checked += 1
    assert checked > 500


def test_hand_computed_expected_values():
    # y = [0, 1, 1, 0], s = [.9, .9, .5, .2]: tied block (1 TP, 1 FP) at recall 1/2 has precision
    # 1/2; then precision 2/3 at recall 1: AP = 1/2 * 1/2 + 1/2 * 2/3 = 7/12. trec_eval orders the
    # tie by descending id (d0000001, the positive, first): AP = (1 + 2/3)/2 = 5/6.
    v = _find(
        "average_precision",
        "tie of a negative and a positive at the top, negative first in input order",
    )
    assert v.expected.exact == Fraction(7, 12)
    assert v.alternatives["ties=trec_eval"].exact == Fraction(5, 6)
    # worst ranking of 3 positives under 5 negatives: AP_min = (1/3) sum i/(i+5) (B6)
    v = _find("average_precision", "worst ranking: negatives first (B2, B6: AP = AP_min(3, 5))")
    assert v.expected.exact == sum(Fraction(i, i + 5) for i in (1, 2, 3)) / 3
    # one positive below 10^6 tied negatives: AP = 1/(10^6 + 1)
    v = _find(
        "average_precision", "1 positive among 10^6 tied negatives, positive ranked at the bottom"
    )
    assert v.expected.exact == Fraction(1, 10**6 + 1)
    # logits 50, 40, 39 all saturate to sigmoid = 1.0 in float64: one tied block of 2 TP, 1 FP
    # at recall 1 gives 2/3, where the exact ranking (neg, pos, pos) gives (1/2 + 2/3)/2 = 7/12
    v = _find("average_precision", "large logits that saturate the sigmoid to 1.0")
    assert v.expected.exact == Fraction(7, 12)
    assert v.alternatives["sigmoid-on-logits"].exact == Fraction(2, 3)
    # F1 at t = 0.5 with y = [1,0,1,1,0,0,1,0], s = [.9,.8,.7,.6,.5,.5,.4,.3]: score >= .5 gives
    # TP 3, FP 3, FN 1 -> F1 = 6/(6+3+1) = 3/5; score > .5 gives TP 3, FP 1, FN 1 -> 6/8 = 3/4
    v = _find("fbeta_at_threshold", "threshold equal to a score")
    assert v.expected.exact == Fraction(3, 5)
    assert v.alternatives["threshold=strict"].exact == Fraction(3, 4)
    # N3: at threshold 0.5 A predicts 0.95, 0.85 (positives), 0.73, 0.62 (negatives) and B
    # predicts 0.55, 0.59 (positives), 0.88, 0.97 (negatives): the same table TP 2, FP 2, FN 2,
    # so F1 = 4/(4+2+2) = 1/2 for both (claim N3)
    for name in ("A", "B"):
        v = _find(
            "fbeta_at_threshold", f"N3 worked example, scores_{name} at threshold 0.5 (claim N3)"
        )
        assert v.expected.exact == Fraction(1, 2)
    # A ranks positives 1, 2, 5, 6: AP = (1 + 1 + 3/5 + 4/6)/4 = 49/60; B ranks them 3, 4, 7, 8:
    # AP = (1/3 + 2/4 + 3/7 + 4/8)/4 = 37/84, so A's AP exceeds B's (claim N3)
    assert _find(
        "average_precision", "N3 worked example, scores_A (claim N3)"
    ).expected.exact == Fraction(49, 60)
    assert _find(
        "average_precision", "N3 worked example, scores_B (claim N3)"
    ).expected.exact == Fraction(37, 84)
    # worst ranking (pos 3, neg 5): its points lie on the Theorem 1 bound and Davis-Goadrich
    # interpolation stays on it (B2), so the area is AUCPR_min(3/8) = 1 + (5/3) ln(5/8) (B4)
    import mpmath

    v = _find("auc_davis_goadrich", "worst ranking: negatives first (B2, B6: AP = AP_min(3, 5))")
    with mpmath.workdps(50):
        assert v.expected.float64 == float(1 + mpmath.mpf(5) / 3 * mpmath.log(mpmath.mpf(5) / 8))
    assert v.expected.exact is None
    # best ranking: AUPRG = 1 (precision gain 1 for every recall gain in [0, 1])
    assert _find("auprg", "best ranking: positives first").expected.exact == 1


def test_partial_roc_auc_vectors_have_hand_values():
    # y = [1,0,1,0,1,0], s = [.9,.5,.5,.5,.2,.1]: ROC vertices (0,0), (0,1/3), the tie (one
    # positive, two negatives) as the segment to (2/3,2/3), then (2/3,1) and (1,1).
    # McClish: (1 + (A - m^2/2) / (m - m^2/2)) / 2 with A the area over FPR in [0, m].
    def mcclish(a, m):
        return (1 + (a - m * m / 2) / (m - m * m / 2)) / 2

    def tpr(f):  # on the tied segment
        return Fraction(1, 3) + f / Fraction(2, 3) * Fraction(1, 3)

    for m in (Fraction(1, 2), Fraction(1, 4), Fraction(0.1)):
        area = m * (Fraction(1, 3) + tpr(m)) / 2
        v = _find(
            "partial_roc_auc",
            next(c.comment for c in BOUNDS if c.params["max_fpr"] == str(float(m))),
        )
        assert v.expected.exact == mcclish(area, m)
    assert mcclish(
        Fraction(1, 2) * (Fraction(1, 3) + tpr(Fraction(1, 2))) / 2, Fraction(1, 2)
    ) == Fraction(23, 36)
    # m = 1: the whole area, 2/3 * (1/3 + 2/3)/2 + 1/3 * 1 = 2/3
    assert _find("partial_roc_auc", "max_fpr 1: the whole area").expected.exact == Fraction(2, 3)
    # worst ranking at m = 1/2: A = 0, so (1 - (1/8)/(3/8))/2 = 1/3; perfect: A = 1/2, so 1
    assert _find("partial_roc_auc", "max_fpr 0.5 on the worst ranking").expected.exact == Fraction(
        1, 3
    )
    assert _find("partial_roc_auc", "max_fpr 0.5 on a perfect ranking").expected.exact == 1
    assert {v.result for v in load(["partial_roc_auc"]) if "outside (0, 1]" in v.comment} == {
        "invalid"
    }


def test_invalid_and_undefined_vectors_carry_reasons():
    results = {v.result for v in load()}
    assert results == {"valid", "acceptable", "undefined", "invalid"}
    for v in load():
        if v.result in ("undefined", "invalid"):
            assert v.expected is None
            assert v.reason
        if v.result == "acceptable":  # a value, and why refusing is defensible
            assert v.expected is not None
            assert "acceptable" in v.reason


def test_acceptable_limits_of_beta_are_precision_and_recall():
    # at threshold 0.45, y = [1,0,1,1,0,0,1,0], s = [.9,.8,.7,.6,.5,.5,.4,.3]: six items are
    # predicted positive, TP 3, FP 3, FN 1: precision 1/2 (beta -> 0), recall 3/4 (beta -> inf)
    v0 = _find("fbeta_at_threshold", "beta 0: the limit is the precision")
    vinf = _find("fbeta_at_threshold", "beta inf: the limit is the recall")
    assert (v0.result, v0.expected.exact) == ("acceptable", Fraction(1, 2))
    assert (vinf.result, vinf.expected.exact) == ("acceptable", Fraction(3, 4))
    # beta = 10^200: (1 + b^2) 3/((1 + b^2) 3 + 3 + b^2) = 3 (1 + b^2)/(4 b^2 + 6), just under 3/4
    b2 = Fraction(10) ** 400
    v = _find("fbeta_at_threshold", "beta 1e200 at threshold 0.45")
    assert v.expected.exact == 3 * (1 + b2) / (4 * b2 + 6)


def test_run_length_encoding_round_trips():
    y = np.array([0] * 5 + [1] + [0] * 3)
    s = np.array([0.5] * 5 + [0.75] + [float("inf")] * 3)
    enc = encode_inputs(y, s, runs=True)
    assert enc == {"runs": [[0, "0.5", 5], [1, "0.75", 1], [0, "inf", 3]]}
    y2, s2, w2 = decode_inputs(enc)
    assert np.array_equal(y2, y)
    assert np.array_equal(s2, s)
    assert w2 is None


def test_scores_are_written_exactly():
    for x in (0.1, 1e-300, 5e-324, 16777217.0, float("inf"), -float("inf")):
        assert float(encode_float(x)) == x
    assert encode_float(float("nan")) == "nan"


def test_export_writes_plain_json_that_validates(tmp_path):
    from prtheory.cli import main

    assert main(["conformance", "--export", str(tmp_path)]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    exported = {
        "schema.json",
        "tcids.json",
        "generated.json",
        "README.md",
        "average_precision.json",
    }
    assert exported <= set(names)
    assert "tcIds are stable" in (tmp_path / "README.md").read_text(encoding="utf-8")
    for p in tmp_path.glob("*.json"):
        if p.name not in ("schema.json", "tcids.json", "generated.json"):
            validate(json.loads(p.read_text(encoding="utf-8")))


def test_a_malformed_vector_file_fails_to_load(tmp_path):
    doc = _doc("average_precision.json")
    _first(doc)["float64"] = "0x1.0000000000000p-1"  # not the exact value rounded
    path = tmp_path / "average_precision.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(jsonschema.ValidationError, match="not the exact"):
        load_file(path)
    assert load_file(path, check=False)  # the caller can opt out, by name


def test_curve_arrays_of_different_lengths_fail_validation():
    doc = copy.deepcopy(_doc("pr_curve.json"))
    test = next(t for g in doc["testGroups"] for t in g["tests"] if t["result"] == "valid")
    test["expected"]["recall"].pop()
    with pytest.raises(jsonschema.ValidationError, match="different lengths"):
        validate(doc)


def test_tcids_never_change_their_inputs():
    """Every committed tcId's inputs hash to the key recorded for it in tcids.json."""
    lock = load_lock(LOCK_PATH)
    for path in files():
        doc = _doc(path.name)
        seen: dict[str, int] = {}
        for g in doc["testGroups"]:
            for t in g["tests"]:
                key = input_key(t["inputs"], seen)
                assert lock[doc["metric"]][str(t["tcId"])] == key, (path.name, t["tcId"])


def test_adding_or_removing_cases_renumbers_nothing():
    lock: dict = {}
    assert assign_ids("m", ["a", "b", "c"], lock) == [1, 2, 3]
    assert assign_ids("m", ["a", "x", "b", "c"], lock) == [1, 4, 2, 3]  # inserted: a new id
    assert assign_ids("m", ["a", "c"], lock) == [1, 3]  # removed: the others keep theirs
    assert assign_ids("m", ["a", "y"], lock) == [1, 5]  # ids are never reused
    assert lock["m"] == {"1": "a", "2": "b", "3": "c", "4": "x", "5": "y"}


# ------------------------------------------------------------------------------------------
# the README describes the files as they are; the large-n families reproduce


def test_the_readme_names_every_encoding_the_files_use():
    import json

    from prtheory.conformance.vectors_io import README_PATH, VECTOR_DIR, files

    readme = README_PATH.read_text(encoding="utf-8")
    kinds, params = set(), set()
    for path in files(VECTOR_DIR):
        for group in json.loads(path.read_text(encoding="utf-8"))["testGroups"]:
            for t in group["tests"]:
                kinds |= {type(y).__name__ for y in t["inputs"].get("y_true") or []}
                params |= set(t["inputs"].get("params", {}))
    assert kinds == {"int", "bool"}  # so the README must say both
    assert "`true`/`false`" in readme
    assert "(0/1;" in readme
    for name in params:
        assert f"`{name}`" in readme, name
    assert "without a hex-float parser" in readme


def test_the_generated_families_reproduce_from_their_seeds():
    import json
    from fractions import Fraction

    from prtheory.conformance import large
    from prtheory.conformance.sampling import FAMILIES, sample
    from prtheory.conformance.vectors_io import GENERATED_PATH
    from prtheory.oracle import average_precision, to_float

    doc = json.loads(GENERATED_PATH.read_text(encoding="utf-8"))
    families = {f.name: f for f in FAMILIES}
    assert {t["n"] for t in doc["tests"]} == {10**4, 10**5, 10**6}
    for t in doc["tests"]:
        if t["n"] > 10**5:
            continue  # the 10^6-item inputs: the staleness test regenerates the file
        s = sample(t["seed"], families[t["family"]], t["n"])
        assert large.digests(s) == t["sha256"]
        if t["n"] == 10**4:  # the expected value is the exact oracle's, rounded once
            exact = average_precision(s.y_true, s.y_score, s.sample_weight)
            assert isinstance(exact, Fraction)
            assert to_float(exact) == float.fromhex(t["expected"]["float64"])


def test_build_all_of_some_metrics_builds_their_files_and_the_lock():
    built = build_all(metrics=["aucnpr", "ap_min"])
    assert sorted(built) == ["ap_min.json", "aucnpr.json", LOCK_PATH.name]
    for name, text in built.items():
        assert text == (VECTOR_DIR / name).read_text(encoding="utf-8"), name
    # an unknown name, or one name passed as a string (each of its letters would be a name)
    with pytest.raises(InvalidInputError, match=r"metrics: unknown \['ap'\]"):
        build_all(metrics=["ap_min", "ap"])
    with pytest.raises(InvalidInputError, match="metrics: a collection"):
        build_all(metrics="ap_min")


@pytest.mark.slow
def test_build_all_of_average_precision_builds_the_large_tests_too():
    built = build_all(metrics=["average_precision"])
    assert sorted(built) == ["average_precision.json", GENERATED_PATH.name, LOCK_PATH.name]
    assert built[GENERATED_PATH.name] == GENERATED_PATH.read_text(encoding="utf-8")


def test_main_writes_the_chosen_files_with_the_published_ids(tmp_path):
    (tmp_path / LOCK_PATH.name).write_bytes(LOCK_PATH.read_bytes())
    written = main(tmp_path, metrics=["aucnpr"])
    assert [p.name for p in written] == ["aucnpr.json", LOCK_PATH.name]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["aucnpr.json", LOCK_PATH.name]
    for p in written:
        assert p.read_bytes() == (VECTOR_DIR / p.name).read_bytes(), p.name
