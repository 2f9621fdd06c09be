"""Confidence intervals: hand-computed logit and binomial intervals, and coverage-free properties.

Coverage itself (against the nominal level, on simulated binormal data) is measured by
``benchmarks/bench_intervals.py``, not asserted here.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from prtheory import oracle
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.intervals import (
    _Cells,
    _estimates,
    average_precision_interval,
    pr_auc_interval,
)
from prtheory.oracle.rounding import to_float

# Phi^-1(0.975), from a table of the standard normal quantile (20 digits: 1.95996398454005423552)
Z95 = 1.959963984540054


def _expit(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def _close(got: float, want: float, ulps: int) -> bool:
    return abs(got - want) <= ulps * math.ulp(want)


def test_logit_interval_by_hand():
    # y = [0, 1], s = [.9, .1]: the positive is ranked second, AP = 1/2, n = 1 positive.
    # eta = ln(1) = 0, tau = (1 * 1/2 * 1/2)^(-1/2) = 2, so the interval is expit(±2 z).
    ci = average_precision_interval([0, 1], [0.9, 0.1], interval="logit")
    assert ci.estimate == F(1, 2)
    assert ci.n == 1
    # float reference: exp and the division are each within 1 ulp, 4 ulp covers both
    assert _close(ci.low, _expit(-2 * Z95), 4)
    assert _close(ci.high, _expit(2 * Z95), 4)


def test_logit_and_binomial_by_hand_three_quarters():
    # y = [1, 0, 0, 1] in score order: AP = (1/2)(1/1 + 2/4) = 3/4 with n = 2.
    y, s = [1, 0, 0, 1], [4, 3, 2, 1]
    ci = average_precision_interval(y, s, interval="logit", level=0.95)
    # eta = ln 3, tau = (2 * 3/4 * 1/4)^(-1/2) = sqrt(8/3)
    tau = math.sqrt(8 / 3)
    assert ci.estimate == F(3, 4)
    assert _close(ci.low, _expit(math.log(3) - Z95 * tau), 8)
    assert _close(ci.high, _expit(math.log(3) + Z95 * tau), 8)
    # binomial: 3/4 ± z sqrt(3/16 / 2) = 3/4 ± 0.6001..., cut to [0, 1] above
    ci = average_precision_interval(y, s, interval="binomial", level=0.95)
    assert _close(ci.low, 0.75 - Z95 * math.sqrt(3 / 32), 8)
    assert ci.high == 1.0


def test_level_changes_the_quantile():
    # level 0.5: z = Phi^-1(0.75) = 0.6744897501960817 (table), t = 1/2, n = 1:
    # binomial 1/2 ± z/2
    ci = average_precision_interval([0, 1], [0.9, 0.1], interval="binomial", level=0.5)
    z50 = 0.6744897501960817
    assert _close(ci.low, 0.5 - z50 / 2, 4)
    assert _close(ci.high, 0.5 + z50 / 2, 4)


def test_logit_is_undefined_for_a_perfect_ranking():
    with pytest.raises(UndefinedMetricError, match="logit interval is undefined"):
        average_precision_interval([1, 0], [0.9, 0.1])
    ci = average_precision_interval([1, 0], [0.9, 0.1], interval="binomial")
    assert (ci.low, ci.high) == (1.0, 1.0)  # t (1 - t) = 0


def test_effective_number_of_positives_with_weights():
    # Kish: (sum w)^2 / sum w^2 over positives: weights 1 and 3 give 16/10; the negative's
    # weight does not count
    ci = average_precision_interval([1, 0, 1], [3, 2, 1], [1, 5, 3], interval="binomial")
    assert ci.n == F(8, 5)
    ci = average_precision_interval([1, 1, 0], [3, 2, 1], [2, 2, 7], interval="binomial")
    assert ci.n == 2


# ------------------------------------------------------------------------------------------
# coverage-free properties


@st.composite
def rankings(draw):
    n = draw(st.integers(2, 30))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n).filter(lambda v: sum(v) > 0))
    s = draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))
    return y, s


@given(rankings(), st.sampled_from([0.5, 0.9, 0.95, 0.99]))
def test_analytic_intervals_contain_the_estimate(data, level):
    y, s = data
    t = to_float(oracle.average_precision(y, s))
    binomial = average_precision_interval(y, s, interval="binomial", level=level)
    assert 0 <= binomial.low <= t <= binomial.high <= 1
    if t < 1:
        logit = average_precision_interval(y, s, interval="logit", level=level)
        assert 0 < logit.low <= t <= logit.high < 1


@pytest.mark.parametrize("interval", ["logit", "binomial", "bootstrap"])
def test_intervals_narrow_with_n(interval):
    # the same data repeated k times: the same AP, k times as many positives
    rng = np.random.default_rng(3)
    y = rng.random(200) < 0.3
    s = rng.normal(size=200) + y
    widths = []
    for k in (1, 4, 16):
        ci = average_precision_interval(
            np.tile(y, k), np.tile(s, k), interval=interval, random_state=0, n_resamples=400
        )
        widths.append(ci.high - ci.low)
    assert widths[0] > widths[1] > widths[2]


@pytest.mark.parametrize("resampling", ["stratified", "multinomial", "poisson"])
def test_bootstrap_is_reproducible_with_a_seed(resampling):
    rng = np.random.default_rng(5)
    y = rng.random(300) < 0.2
    s = np.round(rng.normal(size=300) + y, 1)  # ties
    kw = {"interval": "bootstrap", "n_resamples": 300, "resampling": resampling}
    a = average_precision_interval(y, s, random_state=11, **kw)
    b = average_precision_interval(y, s, random_state=11, **kw)
    c = average_precision_interval(y, s, random_state=12, **kw)
    g = average_precision_interval(y, s, random_state=np.random.default_rng(11), **kw)
    assert (a.low, a.high) == (b.low, b.high) == (g.low, g.high)
    assert (a.low, a.high) != (c.low, c.high)
    assert a.low <= to_float(a.estimate) <= a.high


def test_stratified_resamples_keep_the_class_totals():
    y, s = [1, 0, 1, 1, 0, 0, 0], [0.9, 0.9, 0.5, 0.5, 0.5, 0.1, 0.1]
    cells = _Cells(y, s, None)
    counts = cells.resample(np.random.default_rng(0), 50, "stratified")
    assert np.all(counts[:, cells.label].sum(axis=1) == 3)
    assert np.all(counts[:, ~cells.label].sum(axis=1) == 4)


CASES = [
    ("step", None),
    ("trapezoid", "sklearn"),
    ("trapezoid", "spark"),
    ("trapezoid", "none"),
    ("lower-trapezoid", "spark"),
    ("davis-goadrich", "spark"),
    ("davis-goadrich", "none"),
]


@given(rankings(), st.booleans(), st.sampled_from(CASES))
def test_bootstrap_estimator_at_the_data_is_the_oracle(data, weighted, case):
    # evaluating the vectorised float estimator on the original multiplicities reproduces the
    # exact oracle value; float64 sums of at most 31 terms (and, for DG, logarithms) stay
    # within 64 ulps of it.
    y, s = data
    method, first_point = case
    w = [(i % 3) * 0.5 for i in range(len(y))] if weighted else None
    if w is not None and sum(wi for wi, yi in zip(w, y, strict=True) if yi) == 0:
        return
    cells = _Cells(y, s, w)
    got = _estimates(cells, cells.multiplicity[None, :], method, first_point or "none")[0]
    want = to_float(oracle.pr_auc(y, s, w, method=method, first_point=first_point))
    assert abs(got - want) <= 64 * math.ulp(want)


def test_multinomial_resamples_without_positives_are_counted():
    # one positive among 30 items: a classical bootstrap loses it with probability
    # (29/30)^30 = 0.36, so some of 200 resamples are undefined
    y = [1] + [0] * 29
    s = list(range(30))
    ci = average_precision_interval(
        y, s, interval="bootstrap", resampling="multinomial", random_state=0, n_resamples=200
    )
    assert 0 < ci.n_undefined < 200
    assert ci.n_resamples == 200


# ------------------------------------------------------------------------------------------
# validation


def test_bad_arguments():
    y, s = [1, 0, 1], [0.3, 0.2, 0.1]
    with pytest.raises(InvalidInputError, match=r"^level: must lie strictly between 0 and 1"):
        average_precision_interval(y, s, level=1.0)
    with pytest.raises(InvalidInputError, match=r"^level: must be a number"):
        average_precision_interval(y, s, level="95%")
    with pytest.raises(InvalidInputError, match=r"^interval: must be one of"):
        average_precision_interval(y, s, interval="wald")
    with pytest.raises(InvalidInputError, match=r"^n_resamples: must be >= 1"):
        average_precision_interval(y, s, interval="bootstrap", n_resamples=0)
    with pytest.raises(InvalidInputError, match=r"^resampling: must be one of"):
        average_precision_interval(y, s, interval="bootstrap", resampling="jackknife")
    with pytest.raises(InvalidInputError, match=r"^method: the bootstrap evaluates"):
        pr_auc_interval(
            y, s, method="davis-goadrich-discrete", first_point="none", interval="bootstrap"
        )
    with pytest.raises(InvalidInputError, match=r"^first_point: method 'trapezoid' needs"):
        pr_auc_interval(y, s, method="trapezoid")
    with pytest.raises(UndefinedMetricError):
        average_precision_interval([0, 0], [0.1, 0.2])
