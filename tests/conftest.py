"""Shared test configuration: hypothesis profiles, mpmath precision hygiene, a clean claim registry.

Hypothesis profiles (select with ``HYPOTHESIS_PROFILE=fuzz pytest ...``):

* ``ci`` (default): derandomised, 100 examples per property, no deadline -- reproducible in CI;
* ``fuzz``: random, 5000 examples per property, for hunting counterexamples locally.
"""

from __future__ import annotations

import os
import shutil

import mpmath
import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=100,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "fuzz",
    max_examples=5000,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

#: the longest test files of each tier (a minute or more on 2 cores: the Spark tests and the HTML
#: site in the heavy tier; the claims with their mutants, the docs' code blocks, the site read by
#: Sphinx in the default tier, ...), collected first so that pytest-xdist's workers
#: start them first (with ``--no-loadscope-reorder``, files are handed out in collection order)
#: instead of ending the run on one of them while the other worker waits
LONGEST_FIRST = (
    "test_spark.py",
    "test_theory.py",
    "test_doc_examples.py",
    "test_docs.py",
    "test_conformance_gate.py",
    "test_sklearn_suite.py",
    "test_conformance_report.py",
    "test_doctests.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files of :data:`LONGEST_FIRST` first, in that order; the others after, as collected."""
    rank = {name: k for k, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


@pytest.fixture(autouse=True)
def _reset_mpmath_precision():
    """Every test starts at mpmath's default precision and may not leak a change."""
    mpmath.mp.dps = 15
    yield
    leaked = mpmath.mp.dps
    mpmath.mp.dps = 15
    assert leaked == 15, f"test left mpmath.mp.dps at {leaked}"


@pytest.fixture(scope="session")
def spark_session():
    """One local[2] SparkSession for the whole test session (3 shuffle partitions, no UI).

    Skips, saying how to install, where pyspark or Java is missing."""
    pytest.importorskip("pyspark", reason="needs pyspark: pip install -e '.[spark]' (Java 17+)")
    if shutil.which("java") is None:
        pytest.skip("needs Java 17+ for pyspark: e.g. apt-get install openjdk-17-jre-headless")
    from prtheory.spark.session import local_session

    session = local_session(cores=2, partitions=3)
    yield session
    session.stop()


@pytest.fixture(autouse=True, scope="module")
def _external_servers():
    """The R and Java servers a test module's adapters started end with the module."""
    yield
    from prtheory.conformance.external import close_all

    close_all()


@pytest.fixture
def clean_registry():
    """User claims registered by a test are removed afterwards (other tests list all claims)."""
    from prtheory.theory import REGISTRY, all_claims
    from prtheory.theory import runner as runner_module

    all_claims()  # the project's claims are registered once per process: keep them
    before = dict(REGISTRY)
    loaded = dict(runner_module._LOADED)
    yield
    REGISTRY.clear()
    REGISTRY.update(before)
    runner_module._LOADED.clear()
    runner_module._LOADED.update(loaded)
