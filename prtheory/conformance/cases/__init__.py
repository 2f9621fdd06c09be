"""The inputs of the conformance vectors, as data: one module per family of metrics.

:mod:`~prtheory.conformance.cases.case` holds :class:`Case` (one test's inputs and intent),
:mod:`~prtheory.conformance.cases.notes` what each flag means; the groups of cases are in
:mod:`~prtheory.conformance.cases.ranking` (every ranking metric),
:mod:`~prtheory.conformance.cases.threshold` (metrics at a threshold),
:mod:`~prtheory.conformance.cases.retrieval` (metrics at a cutoff),
:mod:`~prtheory.conformance.cases.partial` (the partial ROC AUC's bounds) and
:mod:`~prtheory.conformance.cases.closed_forms`. :func:`cases_for` picks a metric's groups;
:mod:`prtheory.conformance.generate` evaluates them with the oracle and writes the vectors.

Adding a case is adding it to a group of one of these modules, then
``python -m prtheory.conformance.generate``: its test id is new, no other test's id changes.
"""

from __future__ import annotations

from prtheory.conformance.cases.case import Case, Group
from prtheory.conformance.cases.closed_forms import closed_form_cases
from prtheory.conformance.cases.notes import NOTES
from prtheory.conformance.cases.partial import partial_cases
from prtheory.conformance.cases.ranking import count_limit_case, ranking_cases
from prtheory.conformance.cases.retrieval import retrieval_cases
from prtheory.conformance.cases.threshold import fbeta_cases, threshold_cases
from prtheory.conformance.metrics import METRICS

__all__ = ["NOTES", "Case", "Group", "cases_for"]

#: retrieval metrics, and whether each takes a cutoff k
RETRIEVAL = {"precision_at_k": True, "ap_at_k": True, "r_precision": False}


def cases_for(metric: str) -> list[Group]:
    """The groups of cases of ``metric``'s vector file.

    Parameters
    ----------
    metric : str
        A key of :data:`prtheory.conformance.metrics.METRICS`.

    Returns
    -------
    list of (str, list of Case)
        The group's name and its cases, in the file's order: the closed forms' own parameters,
        the threshold cases (with the extreme betas for F-beta), the retrieval cases, or the
        ranking cases every other metric shares (the ROC area's also as many positives as
        negatives on either side of pos * neg = 2^31 - 1, its normaliser's 32-bit limit; the
        partial ROC area's at ``max_fpr = 0.5`` and then its own bounds).

    Examples
    --------
    >>> from prtheory.conformance.cases import cases_for
    >>> [name for name, _ in cases_for("ap_min")]
    ['counts']
    >>> cases_for("roc_auc")[0][1][0].comment
    'distinct scores, mixed labels'
    """
    if METRICS[metric].kind == "closed-form":
        return closed_form_cases(metric)
    if metric == "fbeta_at_threshold":
        return fbeta_cases()
    if metric.endswith("_at_threshold"):
        return threshold_cases()
    if metric in RETRIEVAL:
        return retrieval_cases(RETRIEVAL[metric])
    if metric == "partial_roc_auc":
        return partial_cases()
    if metric == "roc_auc":
        limit = ("class counts at the 32-bit limit", [count_limit_case(n) for n in (46340, 46341)])
        return [*ranking_cases(), limit]
    return ranking_cases()
