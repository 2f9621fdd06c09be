"""The float64 layer (prtheory.floats): accuracy, conventions, broadcasting, validation.

The accuracy guard draws about 10**4 points from ``prtheory._testing.samplers`` (the samplers
of ``benchmarks/accuracy.py``, which measures 10**6 per function) and measures each result
against the project's oracle (exact rationals, or mpmath at 50 digits), with the error
computed exactly in rationals: ``|y - x| / ulp(x)``. The bound is the one the report states:
0.5 ulp, correct rounding, for every function. The guard runs once per first tier of
:mod:`prtheory.floats` (the numba kernels and the numpy reference path), since either may decide
an element.

The committed report ``reports/accuracy.md`` takes minutes to regenerate, so instead of
re-running it this file checks that it was produced by the current code: the report records the
SHA-256 of ``prtheory/floats/``, of the samplers and of the oracle modules
(``prtheory._testing.digests``).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import prtheory
from prtheory import floats as F
from prtheory._testing import digests
from prtheory._testing.reference import CASES
from prtheory._testing.samplers import sample
from prtheory._testing.ulps import ulp_error
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle import closed_forms as cf
from prtheory.oracle import points as pt
from prtheory.oracle.rounding import to_float

ROOT = Path(__file__).resolve().parents[1]

POINTS = 1100  # per function; nine functions make about 10**4 points


# ---------------------------------------------------------------------------------------------
# accuracy against the oracle


@pytest.fixture(params=["numba", "numpy"])
def backend(request):
    """Each first tier of the float64 layer in turn (the previous one restored afterwards)."""
    if request.param == "numba":
        pytest.importorskip("numba")
    previous = F.set_backend(request.param)
    yield request.param
    F.set_backend(previous)


@pytest.mark.parametrize("name", list(CASES))
def test_accuracy_sample_within_the_stated_bound(name, backend):
    assert F.backend() == backend
    fn, oracle, bound, _ = CASES[name]
    # the samplers are built for large n (they place ~3000 edge values first), so draw 20000
    # points and measure a random subset; the subset still covers every region
    args = sample(name, 20_000)
    pick = np.random.default_rng(7).choice(20_000, POINTS, replace=False)
    args = tuple(a[pick] for a in args)
    y = np.asarray(fn(*args))
    errors = [ulp_error(float(y[i]), oracle(*(float(a[i]) for a in args))) for i in range(POINTS)]
    worst = int(np.argmax(errors))
    assert errors[worst] <= bound, (
        f"{name}{tuple(float(a[worst]) for a in args)} => {y[worst]!r}: {errors[worst]:.3f} ulp"
    )


@pytest.mark.parametrize(
    "pi", [1e-300, 1e-17, 1e-8, 1e-6, 0.125, 1 / 9, 0.5, 1 - 1e-12, 1 - 2**-53]
)
def test_aucpr_min_where_the_naive_formula_collapses(pi):
    exact = cf.aucpr_min(pi, dps=60)
    assert ulp_error(F.aucpr_min(pi), exact) <= 0.5 + 1e-9  # correctly rounded at these points


def test_the_naive_formula_really_collapses():
    """The motivation in numbers: the textbook evaluation is wrong at small skews."""
    pi = np.array([1e-6, 1e-8, 1e-17])
    naive = 1 + (1 - pi) * np.log(1 - pi) / pi
    assert abs(naive[0] / F.aucpr_min(1e-6) - 1) > 1e-5
    assert naive[1] < 0 < F.aucpr_min(1e-8)
    assert naive[2] == 1.0
    assert F.aucpr_min(1e-17) == 5e-18  # pi/2 + pi^2/6 + ...: 5e-18 (1 + 3.3e-18) rounds to 5e-18


def test_hand_values():
    with mpmath.workdps(60):
        assert F.aucpr_min(0.5) == to_float(1 - mpmath.log(2))
    assert F.ap_min(1, 1) == 0.5
    assert F.ap_min(2, 1) == 7 / 12  # (1/2)(1/2 + 2/3); CPython's 7/12 is correctly rounded
    assert F.expected_random_ap(1, 1) == 0.75
    third = Fraction(1 / 3)  # the float argument's exact value, not 1/3
    assert F.min_precision(0.5, 1 / 3) == to_float(third / 2 / (1 - third / 2))
    assert F.fbeta(0.3, 0.6, 2.0) == 0.5  # 5 * 0.18 / (4 * 0.3 + 0.6) in exact binary values
    assert F.aucnpr(1.0, 0.3) == 1.0


finite_unit = st.floats(min_value=0.0, max_value=1.0, allow_subnormal=True)
open_unit = st.floats(min_value=5e-324, max_value=1.0, exclude_max=True)


@given(finite_unit, open_unit)
def test_min_precision_against_exact(r, pi):
    assert ulp_error(F.min_precision(r, pi), cf.min_precision(r, pi)) <= 1


@given(
    st.floats(min_value=5e-324, max_value=1.0),
    st.floats(min_value=0.0, max_value=1.0, exclude_max=True),
)
def test_gains_against_exact(x, pi):
    exact = pt.gain(x, pi)
    for fn in (F.precision_gain, F.recall_gain, F.fbeta_gain):
        assert ulp_error(fn(x, pi), exact) <= 1


@given(finite_unit, finite_unit, st.floats(min_value=1e-3, max_value=1e3))
def test_fbeta_against_exact_and_symmetries(p, r, beta):
    assert ulp_error(F.fbeta(p, r, beta), pt.fbeta_from_rates(p, r, beta)) <= 1
    assert F.fbeta(p, r, 1.0) == F.fbeta(r, p, 1.0)
    assert F.fbeta(p, r, 2.0) == F.fbeta(r, p, 0.5)  # F_beta(p, r) = F_{1/beta}(r, p)


@given(open_unit)
def test_gain_fixed_points(pi):
    assert F.precision_gain(pi, pi) == 0.0
    assert F.recall_gain(1.0, pi) == 1.0


# ---------------------------------------------------------------------------------------------
# conventions, shapes, validation


def test_end_point_conventions():
    assert list(F.aucpr_min(np.array([0.0, 1.0]))) == [0.0, 1.0]
    assert F.aucpr_min(1.0, 0.25, 0.75) == 0.5
    assert F.aucnpr(0.3, 0.0) == 0.0
    assert F.aucnpr(0.3, 1.0) == 1.0
    assert F.precision_gain(0.0, 0.5) == -math.inf
    assert F.precision_gain(1e-310, 0.5) == -math.inf  # overflow: the true value is beyond range
    assert F.fbeta(0.0, 0.0) == 0.0
    assert F.ap_min(5, 0) == 1.0
    assert F.expected_random_ap(3, 0) == 1.0
    # pi/2 (1 + pi/3 + ...) exceeds the tie between 0 and 5e-324 by a relative 1e-324, far
    # below double-double resolution, so either neighbour is within 1 ulp
    assert F.aucpr_min(5e-324) in (0.0, 5e-324)
    assert F.aucpr_min(1e-323) == 5e-324  # exactly half of 2 units plus a little: no tie


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: F.aucpr_min(0.3, 0.4, 0.4), "AUCPR_min is undefined"),
        (lambda: F.ap_min(0, 3), "AP_min is undefined"),
        (lambda: F.expected_random_ap([1, 0], 3), r"index \[1\]"),
        (lambda: F.precision_gain(0.5, 1.0), "precision gain is undefined"),
        (lambda: F.recall_gain(0.0, 0.0), "recall gain is undefined"),
        (lambda: F.min_precision(0.0, 1.0), "min_precision is undefined"),
    ],
)
def test_undefined_values_raise(call, match):
    with pytest.raises(UndefinedMetricError, match=match):
        call()


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: F.aucpr_min(float("nan")), "^pi: must not be NaN"),
        (lambda: F.aucpr_min(1.5), r"^pi: must lie in \[0.0, 1.0\], got 1.5"),
        (lambda: F.aucpr_min([0.1, -0.2]), r"^pi: must lie in .* got -0.2 at index \[1\]"),
        (lambda: F.aucpr_min(0.3, 0.6, 0.2), "^a, b: need a <= b"),
        (lambda: F.fbeta(0.5, 0.5, 0.0), "^beta: must be finite and > 0"),
        (lambda: F.fbeta(0.5, 0.5, math.inf), "^beta: must be finite and > 0"),
        (lambda: F.ap_min(2.5, 3), "^pos: must be integer counts, got 2.5"),
        (lambda: F.ap_min(2, -3), "^neg: must lie in"),
        (lambda: F.ap_min(2, 2.0**60), "^neg: must lie in"),
        (lambda: F.expected_random_ap(2.0**52, 2.0**53), r"^pos, neg: pos \+ neg must be at most"),
        (lambda: F.precision_gain("x", 0.5), "^p: must be real numbers"),
        (lambda: F.aucnpr(1.2, 0.5), "^aucpr: must lie in"),
    ],
)
def test_bad_input_messages(call, match):
    with pytest.raises(InvalidInputError, match=match):
        call()


def test_count_limit_is_checked_in_integers():
    # pos + neg = 2**53 + 1 rounds to 2**53 in float64 and once passed the check (1 ulp off)
    for fn in (F.ap_min, F.expected_random_ap):
        for pos, neg in ((1, 2**53), (2**53, 1), ([1, 2], [2**53 - 1, 2**53 - 1])):
            with pytest.raises(InvalidInputError, match=r"^pos, neg: pos \+ neg must be at most"):
                fn(pos, neg)
    # at the limit: one positive above 2**53 - 1 negatives, AP_min = (1/1) * 1/(1 + neg) = 2**-53
    assert F.ap_min(1, 2**53 - 1) == 2.0**-53
    # the expected AP with one positive is H_N / N (the formula's first term is 0/(N - 1)),
    # N = 2**53: from mpmath, rounded the same at 40 and 80 digits (so not near a boundary)
    want = []
    for dps in (40, 80):
        with mpmath.workdps(dps):
            want.append(float(mpmath.harmonic(2**53) / 2**53))
    assert F.expected_random_ap(1, 2**53 - 1) == want[0] == want[1]


def test_scalars_arrays_and_broadcasting():
    assert isinstance(F.aucpr_min(0.3), float)
    assert isinstance(F.ap_min(3, 4), float)
    pi = np.array([[1e-9], [0.3], [0.99]])
    b = np.array([0.2, 0.5, 0.9, 1.0])
    grid = F.aucpr_min(pi, 0.1, b)
    assert grid.shape == (3, 4)
    for i in range(3):
        for j in range(4):
            assert grid[i, j] == F.aucpr_min(float(pi[i, 0]), 0.1, float(b[j]))
    assert F.fbeta([0.2, 0.4], 0.5, [[1.0], [2.0]]).shape == (2, 2)
    assert F.ap_min([1, 2, 40], 10).shape == (3,)


def test_top_level_exports():
    for name in set(F.__all__) - {"backend", "set_backend"}:  # the closed forms
        assert getattr(prtheory, name) is getattr(F, name)


# ---------------------------------------------------------------------------------------------
# the committed accuracy report


def test_accuracy_report_is_current():
    text = (ROOT / "reports" / "accuracy.md").read_text()
    assert f"prtheory/floats sha256: `{digests.floats_digest()}`" in text, (
        "floats changed: regenerate"
    )
    assert f"sampler sha256: `{digests.sampler_digest()}`" in text, "sampler changed: regenerate"
    assert f"oracle sha256: `{digests.oracle_digest()}`" in text, "oracle changed: regenerate"
    points = int(re.search(r"points per function: (\d+)", text).group(1))
    assert points >= 10**6
    assert "**no**" not in text  # every function within its stated bound
    for region in ("pi <= 1e-12", "pi >= 1 - 1e-12"):
        assert f"| aucpr_min | {region} |" in text
