"""Exact (rational) and arbitrary-precision (mpmath) values of PR-space quantities.

This package never imports sympy, so ``import prtheory.oracle`` stays fast.
"""

from prtheory.oracle.achievable import (
    achievable_pr_curve,
    achievable_pr_curve_of_counts,
    achievable_pr_curve_of_ranking,
)
from prtheory.oracle.ap import average_precision, normalized_average_precision
from prtheory.oracle.areas import aucnpr_ranking, pr_auc, roc_auc
from prtheory.oracle.closed_forms import (
    ap_min,
    aucnpr,
    aucpr_max,
    aucpr_min,
    expected_random_ap,
    harmonic_difference,
    min_precision,
    random_aucpr,
    skew_from_aucpr_min,
)
from prtheory.oracle.curves import pr_curve, prg_convex_hull, prg_curve, roc_curve
from prtheory.oracle.ndcg import dcg_at_k, dcg_terms, ndcg_at_k
from prtheory.oracle.prg import auprg, expected_fg1, f_calibrated_scores
from prtheory.oracle.retrieval import ap_at_k, precision_at_k, r_precision, reciprocal_rank
from prtheory.oracle.rounding import exact_rational, prec_of_dps, rounded, to_float
from prtheory.oracle.ties import TIE_POLICIES

__all__ = [
    "TIE_POLICIES",
    "achievable_pr_curve",
    "achievable_pr_curve_of_counts",
    "achievable_pr_curve_of_ranking",
    "ap_at_k",
    "ap_min",
    "aucnpr",
    "aucnpr_ranking",
    "aucpr_max",
    "aucpr_min",
    "auprg",
    "average_precision",
    "dcg_at_k",
    "dcg_terms",
    "exact_rational",
    "expected_fg1",
    "expected_random_ap",
    "f_calibrated_scores",
    "harmonic_difference",
    "min_precision",
    "ndcg_at_k",
    "normalized_average_precision",
    "pr_auc",
    "pr_curve",
    "prec_of_dps",
    "precision_at_k",
    "prg_convex_hull",
    "prg_curve",
    "r_precision",
    "random_aucpr",
    "reciprocal_rank",
    "roc_auc",
    "roc_curve",
    "rounded",
    "skew_from_aucpr_min",
    "to_float",
]
