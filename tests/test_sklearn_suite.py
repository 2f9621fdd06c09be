"""scikit-learn's own ranking tests pass with prtheory.sklearn's functions in its place.

``sklearn/metrics/tests/test_ranking.py``, ``test_common.py`` and the PR and ROC display tests
ship inside the scikit-learn wheel; :mod:`prtheory._testing.sklearn_suite` runs them in a
separate pytest process with :mod:`prtheory.sklearn`'s functions put into ``sklearn.metrics``
before the test modules import them, and records which tests called one. Every such test must
pass, except the deliberate differences of ``DELIBERATE`` (listed with their reasons in
``docs/guide/sklearn.md``), which must fail.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("sklearn")
pytest.importorskip("scipy")

from prtheory._testing import sklearn_suite

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def results():
    return sklearn_suite.run()


def test_every_test_that_calls_prtheory_passes(results):
    calling = {k: v for k, v in results.items() if v["calls"]}
    failed = {k for k, v in calling.items() if v["outcome"] == "failed"}
    assert failed == set(sklearn_suite.DELIBERATE)
    # the replacement took effect: most ranking tests call it (a run without the swap calls
    # nothing and would pass vacuously)
    ranking = [k for k in calling if k.startswith("sklearn.metrics.tests.test_ranking::")]
    common = [k for k in calling if k.startswith("sklearn.metrics.tests.test_common::")]
    displays = [k for k in calling if "_plot.tests" in k]
    assert len(ranking) >= 180
    assert len(common) >= 200
    assert len(displays) >= 200
    passed = sum(v["outcome"] == "passed" for v in calling.values())
    print(f"{passed} of {len(calling)} tests that call prtheory.sklearn pass")


def test_deliberate_differences_are_documented():
    guide = (ROOT / "docs" / "guide" / "sklearn.md").read_text()
    listed = set(re.findall(r"`(sklearn\.metrics\.[\w.]+::[^`]+)`", guide))
    assert listed == set(sklearn_suite.DELIBERATE)


def test_a_wrong_replacement_is_caught(monkeypatch):
    # the mutant: average_precision_score integrating the trapezoid instead of the step
    # function; scikit-learn's tests compare AP with their own step reference and must fail
    monkeypatch.setenv(sklearn_suite.MUTANT_ENV, "average_precision_score")
    results = sklearn_suite.run(
        ("sklearn.metrics.tests.test_ranking",),
        extra=("-k", "average_precision or precision_recall_curve"),
    )
    failed = [k for k, v in results.items() if v["calls"] and v["outcome"] == "failed"]
    assert len(failed) >= 3
