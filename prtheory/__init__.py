"""prtheory: the reference for the mathematics of precision-recall space.

Layers (imports flow downward only):

* :mod:`prtheory.theory` -- sympy derivations and verdicts for every claim of the source papers;
* :mod:`prtheory.oracle` -- exact (rational) and arbitrary-precision (mpmath) metric values;
* :mod:`prtheory.floats` -- fast float64 closed forms, accurate at every skew;
* :mod:`prtheory.metrics` -- float64 curves and areas with scikit-learn's signatures, each value
  the correctly rounded exact one;
* :mod:`prtheory.conformance` and :mod:`prtheory.papers` -- built on the oracle.

Examples (by hand: the positives are ranked 1st and 3rd, so AP = (1/1 + 2/3)/2 = 5/6; the
least AUCPR at skew 1/2 is 1 + ln(1/2), claim B4):

>>> import prtheory
>>> prtheory.average_precision([1, 0, 1], [0.9, 0.8, 0.7])
0.8333333333333334
>>> prtheory.oracle.average_precision([1, 0, 1], [0.9, 0.8, 0.7])
Fraction(5, 6)
>>> prtheory.aucpr_min(0.5)
0.3068528194400547
"""

from prtheory._tables import routes_tables
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
from prtheory.metrics import (
    achievable_pr_auc,
    auc,
    auprg,
    average_precision,
    det_curve,
    fbeta_at_threshold,
    label_ranking_average_precision,
    ndcg_at_k,
    pr_auc,
    precision_at_k,
    precision_recall_curve,
    prg_curve,
    r_precision,
    reciprocal_rank,
    roc_auc,
    roc_curve,
    top_k_accuracy,
)

# a Parquet/CSV path or a DuckDB relation goes to prtheory.duckdb (prtheory._tables)
average_precision = routes_tables(average_precision)
pr_auc = routes_tables(pr_auc)
precision_at_k = routes_tables(precision_at_k)
precision_recall_curve = routes_tables(precision_recall_curve)
r_precision = routes_tables(r_precision)
roc_auc = routes_tables(roc_auc)

__all__ = [
    "InvalidInputError",
    "UndefinedMetricError",
    "__version__",
    "achievable_pr_auc",
    "ap_min",
    "auc",
    "aucnpr",
    "aucpr_min",
    "auprg",
    "average_precision",
    "det_curve",
    "expected_random_ap",
    "fbeta",
    "fbeta_at_threshold",
    "fbeta_gain",
    "label_ranking_average_precision",
    "min_precision",
    "ndcg_at_k",
    "pr_auc",
    "precision_at_k",
    "precision_gain",
    "precision_recall_curve",
    "prg_curve",
    "r_precision",
    "recall_gain",
    "reciprocal_rank",
    "roc_auc",
    "roc_curve",
    "top_k_accuracy",
]
