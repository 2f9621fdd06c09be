"""The testing harness of prtheory, shared by the test suite and the benchmarks.

Private (no stability promise), in the spirit of SciPy's ``_mptestutils``: the code that decides
what a test or a benchmark measures lives here once, so that a test and the report it guards
measure the same thing.

* :mod:`~prtheory._testing.samplers` -- deterministic float64 argument samples for the closed
  forms, edge values and hard cases near rounding midpoints included;
* :mod:`~prtheory._testing.reference` -- each float64 closed form with its oracle and stated ulp
  bound;
* :mod:`~prtheory._testing.ulps` -- errors in ulps against exact references, one point or
  millions;
* :mod:`~prtheory._testing.digests` -- the source digests an accuracy report records;
* :mod:`~prtheory._testing.strategies` -- hypothesis strategies (needs hypothesis);
* :mod:`~prtheory._testing.claims` -- running the registered claims in tests (needs pytest);
* :mod:`~prtheory._testing.profiles` -- cProfile listings without absolute paths.

Import the submodule you need; this package imports none of them, so that importing one does
not pull in pytest or hypothesis.
"""
