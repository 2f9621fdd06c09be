"""Conformance kit: test vectors from the exact oracle, adapters for real metric libraries, a
runner that classifies every divergence by its cause, and an API for other projects' tests.

* vectors: ``prtheory/conformance/vectors/*.json`` (plain JSON, schema in ``schema.json``);
  regenerate with ``python -m prtheory.conformance.generate``; export with
  ``prtheory conformance --export DIR``.
* :func:`check` and the pytest helpers :func:`parametrize` / :func:`assert_conforms`.
* ``prtheory conformance`` runs every installed library and writes ``reports/conformance.md``.
"""

from prtheory.conformance.api import CheckReport, assert_conforms, check, parametrize, vectors

__all__ = ["CheckReport", "assert_conforms", "check", "parametrize", "vectors"]
