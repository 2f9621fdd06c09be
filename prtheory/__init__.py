"""prtheory: the reference for the mathematics of precision-recall space.

Layers (imports flow downward only):

* :mod:`prtheory.theory` -- sympy derivations and verdicts for every claim of the source papers;
* :mod:`prtheory.oracle` -- exact (rational) and arbitrary-precision (mpmath) metric values;
* :mod:`prtheory.floats` -- fast float64 closed forms, accurate at every skew;
* :mod:`prtheory.conformance` and :mod:`prtheory.papers` -- built on the oracle.
"""

from prtheory._version import __version__
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.floats import (
    ap_min,
    aucnpr,
    aucpr_min,
    expected_random_ap,
    fbeta,
    fbeta_gain,
    min_precision,
    precision_gain,
    recall_gain,
)
from prtheory.ranking_floats import average_precision

__all__ = [
    "InvalidInputError",
    "UndefinedMetricError",
    "__version__",
    "ap_min",
    "aucnpr",
    "aucpr_min",
    "average_precision",
    "expected_random_ap",
    "fbeta",
    "fbeta_gain",
    "min_precision",
    "precision_gain",
    "recall_gain",
]
