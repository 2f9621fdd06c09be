"""The inputs of the retrieval metrics (precision@k, AP@k, R-precision), in groups: the ranking
inputs without weights, graded relevance labels, and cutoffs (N4)."""

from __future__ import annotations

from typing import Any

from prtheory.conformance.cases.case import LABELS_8, SCORES_8, Case, Group
from prtheory.conformance.cases.ranking import ranking_cases

__all__ = ["CUTOFFS", "GRADED_REASON", "graded_cases", "retrieval_cases", "unweighted_cases"]

#: the cutoffs of the group ``cutoffs``: 1, the ranking's length 8, beyond it, and 5 (in a tie)
CUTOFFS = (1, 5, 8, 12)

#: labels the binary retrieval metrics do not take (the graded group tests other labels)
_NOT_BINARY = ("label 2", "label -1")

GRADED_REASON = (
    "graded relevance labels: relevant iff label >= 1 (trec_eval's default relevance "
    "level; -1 is judged non-relevant); a library for binary labels may refuse them, "
    "which is acceptable"
)


def unweighted_cases(with_k: bool) -> list[Group]:
    """The ranking cases without sample weights (retrieval metrics count items), at k = 3.

    Parameters
    ----------
    with_k : bool
        Whether the metric takes a cutoff (``params["k"] = 3``).

    Returns
    -------
    list of (str, list of Case)
        The non-empty groups of :func:`~prtheory.conformance.cases.ranking.ranking_cases`,
        without labels 2 and -1 (graded labels are legal here: :func:`graded_cases`).

    Examples
    --------
    >>> from prtheory.conformance.cases.retrieval import unweighted_cases
    >>> unweighted_cases(True)[0][1][0].params
    {'k': 3}
    """
    groups = []
    for name, cases in ranking_cases():
        kept = [
            Case(
                c.comment,
                c.flags,
                c.y_true,
                c.y_score,
                None,
                {**c.params, "k": 3} if with_k else dict(c.params),
                c.runs,
                c.intent,
            )
            for c in cases
            if c.comment not in _NOT_BINARY and c.sample_weight is None
        ]
        if kept:
            groups.append((name, kept))
    return groups


def graded_cases(with_k: bool) -> Group:
    """Graded relevance labels (0-3 and -1), relevant from label 1 on, as trec_eval counts them.

    Parameters
    ----------
    with_k : bool
        With ``params["k"] = 3`` beside ``relevant_at`` (precision@k, AP@k).

    Returns
    -------
    (str, list of Case)
        The group ``graded relevance``; its cases' result is ``acceptable``.

    Examples
    --------
    >>> from prtheory.conformance.cases.retrieval import graded_cases
    >>> graded_cases(False)[1][0].params
    {'relevant_at': 1}
    """
    k3: dict[str, Any] = {"k": 3} if with_k else {}
    return (
        "graded relevance",
        [
            Case(
                "graded labels 0-3",
                ["graded"],
                [2, 0, 3, 1, 0, 2, 0, 1],
                [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2],
                params={**k3, "relevant_at": 1},
                intent="acceptable",
                reason=GRADED_REASON,
            ),
            Case(
                "graded labels with -1 (judged non-relevant) at the top",
                ["graded"],
                [-1, 1, 2, 0, 1],
                [0.9, 0.8, 0.7, 0.6, 0.5],
                params={**k3, "relevant_at": 1},
                intent="acceptable",
                reason=GRADED_REASON,
            ),
        ],
    )


def retrieval_cases(with_k: bool) -> list[Group]:
    """The ranking inputs without sample weights, at k = 3, graded labels, plus cutoffs 1, n
    and beyond n (N4) when the metric takes one.

    Parameters
    ----------
    with_k : bool
        Whether the metric takes a cutoff (precision@k and AP@k; not R-precision).

    Returns
    -------
    list of (str, list of Case)
        :func:`unweighted_cases`, :func:`graded_cases`, and with a cutoff the group ``cutoffs``.

    Examples
    --------
    >>> from prtheory.conformance.cases.retrieval import retrieval_cases
    >>> [name for name, _ in retrieval_cases(True)][-2:]
    ['graded relevance', 'cutoffs']
    """
    groups = [*unweighted_cases(with_k), graded_cases(with_k)]
    if with_k:
        cutoffs = [
            Case(
                f"k = {k}",
                ["basic"] + (["ties"] if k == 5 else []),
                LABELS_8,
                SCORES_8,
                params={"k": k},
            )
            for k in CUTOFFS
        ]
        groups.append(("cutoffs", cutoffs))
    return groups
