"""Claims B1-B16: Boyd, Santos Costa, Davis & Page, *Unachievable Region in Precision-Recall Space
and Its Effect on Empirical Evaluation* (ICML 2012), seeds 000 (paper) and 001 (slides).

One module per theme: :mod:`.formulas` (symbols, closed forms, shared symbolic helpers),
:mod:`.bound` (B1-B3), :mod:`.area` (B4, B5, B7), :mod:`.ap_min` (B6), :mod:`.normalized` (B8,
B9), :mod:`.printed` (B10-B13), :mod:`.modified_f` (B14-B16).

Each main formula is checked by a *derivation function* that takes the candidate formula as an
argument (``derive_min_precision``, ``derive_area``, ``derive_antiderivative``,
``derive_ap_min``, ``derive_modified_f1``) and by *check functions* that take it too; the
registered claims run them on the documents' formulas, the tests on deliberately wrong variants,
which must fail. Importing the package registers the claims.
"""

from __future__ import annotations

from prtheory.theory.boyd2012 import normalized  # registers its claims
from prtheory.theory.boyd2012.ap_min import check_ap_min_enumeration, derive_ap_min
from prtheory.theory.boyd2012.area import (
    check_antiderivative_numeric,
    check_area_quadrature,
    derive_antiderivative,
    derive_area,
)
from prtheory.theory.boyd2012.bound import check_bound_enumeration, derive_min_precision
from prtheory.theory.boyd2012.formulas import (
    AP_MIN_TERM,
    MODIFIED_F1,
    SLIDES_ANTIDERIVATIVE,
    a,
    aucpr_min,
    aucpr_min_range,
    b,
    i,
    min_precision,
    modified_f1,
    mp_aucpr_min,
    neg,
    p,
    pi,
    pos,
    r,
    recall_range_sampler,
    rounds_to,
    sum_value,
    unit_branch,
    worst_ranking,
)
from prtheory.theory.boyd2012.modified_f import check_modified_f1_grid, derive_modified_f1
from prtheory.theory.boyd2012.printed import aucnpr_consistent, implied_min_interval

__all__ = [
    "AP_MIN_TERM",
    "MODIFIED_F1",
    "SLIDES_ANTIDERIVATIVE",
    "a",
    "aucnpr_consistent",
    "aucpr_min",
    "aucpr_min_range",
    "b",
    "check_antiderivative_numeric",
    "check_ap_min_enumeration",
    "check_area_quadrature",
    "check_bound_enumeration",
    "check_modified_f1_grid",
    "derive_antiderivative",
    "derive_ap_min",
    "derive_area",
    "derive_min_precision",
    "derive_modified_f1",
    "i",
    "implied_min_interval",
    "min_precision",
    "modified_f1",
    "mp_aucpr_min",
    "neg",
    "normalized",
    "p",
    "pi",
    "pos",
    "r",
    "recall_range_sampler",
    "rounds_to",
    "sum_value",
    "unit_branch",
    "worst_ranking",
]
