"""Float64 metrics with scikit-learn's signatures, each value the correctly rounded exact one.

One module per family: :mod:`~prtheory.metrics.curves` (PR, ROC and PRG curves),
:mod:`~prtheory.metrics.areas` (areas under them), :mod:`~prtheory.metrics.retrieval` (P@k,
R-precision), :mod:`~prtheory.metrics.rank_discounted` (reciprocal rank, NDCG@k),
:mod:`~prtheory.metrics.achievable` (the area under the achievable PR curve), :mod:`~prtheory.metrics.labels` (F-beta at a threshold), with
:mod:`~prtheory.metrics.averaging` (``average=``) and :mod:`~prtheory.metrics.exact` (exact
values, rounded once). Inputs are coerced by :mod:`prtheory._labels`. Everything here is also
exported from :mod:`prtheory`.
"""

# ruff: noqa: F401  (this module is a list of re-exports)

from prtheory.metrics.achievable import achievable_pr_auc
from prtheory.metrics.areas import auprg, average_precision, pr_auc, roc_auc
from prtheory.metrics.curves import (
    DetCurve,
    PrecisionRecallCurve,
    PRGCurve,
    RocCurve,
    det_curve,
    precision_recall_curve,
    prg_curve,
    roc_curve,
)
from prtheory.metrics.label_ranking import label_ranking_average_precision, top_k_accuracy
from prtheory.metrics.labels import fbeta_at_threshold
from prtheory.metrics.rank_discounted import ndcg_at_k, reciprocal_rank
from prtheory.metrics.retrieval import precision_at_k, r_precision
from prtheory.metrics.trapezoid import auc
