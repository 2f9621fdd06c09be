"""MLmetrics' ``AUC`` is NA where R's integer product of the class counts overflows: the
mechanism ``pos-neg-product-integer-overflow``, an independent emulation of R's rule checked
against the installed package at the boundary, its attribution (only where its prediction is the
result) and its naming on the generated inputs of the differential test.

The emulation: MLmetrics 1.1.1 divides by ``n_pos * n_neg``, two R integers (sums of logicals);
R's integer product is NA when the exact product exceeds ``.Machine$integer.max`` = 2^31 - 1 =
2147483647. In Python integers (no overflow), by hand:

* 46341 * 46341 = 2147488281 > 2147483647: NA; 46340 * 46340 = 2147395600 <= 2147483647: a number
  (46341^2 = 46340^2 + 2 * 46340 + 1 = 2147395600 + 92681);
* 65536 * 32768 = 2^16 * 2^15 = 2^31 = 2147483648 > 2147483647: NA; 65536 * 32767 = 2^31 - 2^16
  = 2147418112: a number.
"""

from __future__ import annotations

import math
import shutil
import warnings
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

import prtheory
from prtheory.conformance import differential as diff
from prtheory.conformance.external_mechanisms import AT_ANY_SIZE, for_metric
from prtheory.conformance.mechanisms import diagnose
from prtheory.conformance.metrics import Inputs
from prtheory.conformance.predictions import NAN, RAISES, Mechanism, encoded
from prtheory.conformance.sampling import sample
from prtheory.conformance.vectors_io import Vector

NAME = "pos-neg-product-integer-overflow"
INT_MAX = 2147483647  # .Machine$integer.max, 2^31 - 1
#: (positives, negatives) on either side of the boundary, balanced and unbalanced
BOUNDARY = [(46341, 46341), (46340, 46340), (65536, 32768), (65536, 32767)]


#: the mechanisms of roc_auc that the differential test asks at every size
ROC_AT_ANY_SIZE = [m for m in for_metric("roc_auc") if m.name in AT_ANY_SIZE]


def r_gives_na(pos: int, neg: int) -> bool:
    """R's ``n_pos * n_neg`` on integers: NA where the exact product exceeds 2^31 - 1."""
    return pos * neg > INT_MAX


def test_the_emulation_at_the_boundary_by_hand():
    assert 46341 * 46341 == 2147488281
    assert 46340 * 46340 == 2147395600
    assert 65536 * 32768 == 2**31
    assert 65536 * 32767 == 2147418112
    assert [r_gives_na(p, n) for p, n in BOUNDARY] == [True, False, True, False]
    assert not r_gives_na(1, INT_MAX)
    assert r_gives_na(2, 2**30)


def _overflow():
    return next(m for m in ROC_AT_ANY_SIZE if m.name == NAME)


def _inputs(pos: int, neg: int) -> Inputs:
    """``pos - 1`` positives at 0.75, ``neg`` negatives at 0.5, one positive at 0.25: the ROC
    area is (pos - 1)/pos (every pair but those of the last positive is ordered)."""
    y = np.repeat([1, 0, 1], [pos - 1, neg, 1])
    return Inputs(y, np.repeat([0.75, 0.5, 0.25], [pos - 1, neg, 1]))


def _vector(tc_id: int, pos: int, neg: int) -> Vector:
    expected = encoded(Fraction(pos - 1, pos))
    return Vector("roc_auc", tc_id, "", (), _inputs(pos, neg), "valid", expected, {}, None)


@pytest.mark.parametrize(("pos", "neg"), [*BOUNDARY, (1, 1), (3, 5), (1, 10**6)])
def test_the_prediction_is_nan_exactly_where_r_overflows(pos, neg):
    want = _overflow().predict(_vector(1, pos, neg))
    assert (want is NAN) == r_gives_na(pos, neg)
    assert want is NAN or want is None


def test_weighted_and_invalid_vectors_get_no_prediction():
    v = _vector(1, 46341, 46341)
    weighted = replace(v, inputs=replace(v.inputs, sample_weight=np.ones(92682)))
    invalid = replace(v, result="invalid")
    assert _overflow().predict(weighted) is None
    assert _overflow().predict(invalid) is None


@pytest.mark.skipif(shutil.which("Rscript") is None, reason="needs R")
def test_mlmetrics_auc_is_na_exactly_where_the_emulation_says():
    from prtheory.conformance.adapters import implementations

    try:
        found = {i.name: i for i in implementations("mlmetrics")}
    except (ImportError, RuntimeError) as exc:
        pytest.skip(f"MLmetrics is not installed: {exc}")
    auc = found["AUC(y_pred, y_true)"]
    rng = np.random.default_rng(20)
    for pos, neg in BOUNDARY:
        x = Inputs(np.repeat([1, 0], [pos, neg]), rng.permutation(pos + neg) / (pos + neg))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = auc.run(x)
        overflowed = any("NAs produced by integer overflow" in str(w.message) for w in caught)
        assert math.isnan(got) == r_gives_na(pos, neg) == overflowed, (pos, neg)
        if not r_gives_na(pos, neg):
            # distinct scores: rank sums are integers below 2^53, so (sum - pos(pos+1)/2) and
            # pos * neg are exact doubles and one division rounds once: the correctly rounded area
            assert got == prtheory.roc_auc(x.labels, x.scores), (pos, neg)


def _diagnosed(results):
    """The diagnosis of ``(vector, result)`` pairs: divergent where the result is not the
    expected value."""
    divergent = [(v, r) for v, r in results if r != v.expected.float64]
    agreeing = [(v, r) for v, r in results if r == v.expected.float64]
    return diagnose("roc_auc", divergent, agreeing, ulps=8, f32_ulps=16)


def test_the_mechanism_explains_the_na_above_the_boundary():
    over, under = _vector(1, 46341, 46341), _vector(2, 46340, 46340)
    d = _diagnosed([(over, math.nan), (under, under.expected.float64)])
    assert d.attribution[over.ident][0] == NAME
    assert not d.unexplained
    assert NAME in d.descriptions


def test_a_nan_below_the_boundary_is_not_attributed_to_it():
    # mutant: NaN at 46340 each too (some other cause); only the NaN above the boundary is
    # what R's integer product explains
    over, under = _vector(1, 46341, 46341), _vector(2, 46340, 46340)
    d = _diagnosed([(over, math.nan), (under, math.nan)])
    assert d.attribution[over.ident][0] == NAME
    assert d.attribution.get(under.ident, ("",))[0] != NAME


def test_a_value_above_the_boundary_contradicts_it():
    # mutant: the fixed MLmetrics (doubles) returns the area at 46341 each, and NaN on a small
    # input for another reason: the overflow predicted at 46341 did not happen, so it is not
    # named for the small NaN either
    over, small = _vector(1, 46341, 46341), _vector(2, 3, 5)
    d = _diagnosed([(over, over.expected.float64), (small, math.nan)])
    assert NAME not in d.chosen
    assert d.attribution.get(small.ident, ("",))[0] != NAME


def _emulated_mlmetrics(nan_from: int | None = None):
    """MLmetrics' AUC as the emulation says: NaN where R's product overflows, else the correctly
    rounded area; ``nan_from``: a mutant that is also NaN on every input of that many items."""

    def call(x: Inputs) -> float:
        pos, neg = int((x.labels == 1).sum()), int((x.labels == 0).sum())
        if r_gives_na(pos, neg) or (nan_from is not None and len(x.labels) >= nan_from):
            return math.nan
        return prtheory.roc_auc(x.labels, x.scores)

    return call


def _counts(x: Inputs) -> tuple[int, int]:
    return int((x.labels == 1).sum()), int((x.labels == 0).sum())


def _run(call, mechanisms):
    out = diff.run("roc_auc", call, weighted=False, per_decade=0, mechanisms=mechanisms)
    (d,) = out.divergences  # the run stops at the first wrong input
    drawn = sample(d.spec.seed, d.spec.family, d.spec.n)
    return d, Inputs(drawn.y_true, drawn.y_score)


def _where(name: str, holds, predicted=NAN) -> Mechanism:
    """A mechanism predicting ``predicted`` on the inputs of n items where ``holds(n)``."""
    return Mechanism(name, name, lambda v: predicted if holds(len(v.inputs.labels)) else None)


def test_the_differential_test_names_it_on_both_inputs():
    # besides the overflow, two mechanisms that each predict the NaN on one input alone (above
    # and below 200000 items), and one that predicts an exception on both: none is named
    drawn_only = _where("drawn-only", lambda n: n > 200_000)
    shrunk_only = _where("shrunk-only", lambda n: n <= 200_000)
    raising = _where("raises", lambda n: True, RAISES)
    pool = [*ROC_AT_ANY_SIZE, drawn_only, shrunk_only, raising]
    d, drawn = _run(_emulated_mlmetrics(), pool)
    assert len(drawn.labels) > 200_000 >= len(d.shrunk.labels)
    assert r_gives_na(*_counts(drawn))
    assert r_gives_na(*_counts(d.shrunk))
    assert d.mechanisms == (NAME,)
    shown = f"returned what the mechanism `{NAME}` predicts, on both inputs"
    assert shown in diff.describe(d)


def test_the_differential_test_does_not_name_it_for_a_nan_below_the_boundary():
    # mutant: NaN on every input of 3162 items or more; at 3162 items no count product reaches
    # 1581 * 1581 = 2499561 < 2^31 - 1, so the overflow predicts nothing there
    d, drawn = _run(_emulated_mlmetrics(nan_from=3162), ROC_AT_ANY_SIZE)
    assert len(drawn.labels) == 3162
    assert not r_gives_na(*_counts(drawn))
    assert d.mechanisms == ()
    assert "mechanism" not in diff.describe(d)
