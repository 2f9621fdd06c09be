"""The inputs of the partial ROC AUC (``max_fpr``), in groups, as data.

Every ranking case of :func:`~prtheory.conformance.cases.ranking.ranking_cases` at
``max_fpr = 0.5`` (so weights, ties, infinities, extreme skew, invalid and undefined inputs are
tested as for the whole area), then bounds that cut the curve at a vertex, inside a tied
segment, at 1 (the whole area) and far below every step, and bounds outside (0, 1].
"""

from __future__ import annotations

from dataclasses import replace

from prtheory.conformance.cases.case import Case, Group
from prtheory.conformance.cases.ranking import ranking_cases

__all__ = ["BOUNDS", "INVALID_BOUNDS", "TIED", "partial_cases"]

#: the bound every ranking case is tested at
DEFAULT_BOUND = "0.5"

#: labels and scores whose ROC curve has a tied segment: (0, 0), (0, 1/3), then the tie at 0.5
#: (one positive, two negatives) to (2/3, 2/3), then (2/3, 1) and (1, 1); the whole area is 2/3
TIED = ([1, 0, 1, 0, 1, 0], [0.9, 0.5, 0.5, 0.5, 0.2, 0.1])

BOUNDS: tuple[Case, ...] = (
    *(
        Case(f"max_fpr {m}: {what}", ["partial-bound", "ties"], *TIED, params={"max_fpr": m})
        for m, what in (
            ("1", "the whole area"),
            ("0.5", "the cut inside the tied segment"),
            ("0.25", "the cut inside the tied segment, near its start"),
            ("0.1", "a bound that is not a dyadic decimal (its binary value is meant)"),
            ("0.6666666666666666", "the float64 just below 2/3, the end of the tied segment"),
            ("1e-20", "a bound below 2^-54, so 1 - m is 1 in float64, yet a normal float32"),
            ("1e-300", "a bound far below every step: m^2/2 underflows float64"),
        )
    ),
    Case(
        "max_fpr 0.5 with one negative: its step from FPR 0 to 1 is cut in half",
        ["partial-bound"],
        [1, 0, 1],
        [0.9, 0.8, 0.7],
        params={"max_fpr": "0.5"},
    ),
    Case(
        "max_fpr 0.5 on a perfect ranking",
        ["partial-bound", "best-ranking"],
        [1, 1, 0, 0],
        [0.9, 0.8, 0.7, 0.6],
        params={"max_fpr": "0.5"},
    ),
    Case(
        "max_fpr 0.5 on the worst ranking",
        ["partial-bound"],
        [0, 0, 1, 1],
        [0.9, 0.8, 0.7, 0.6],
        params={"max_fpr": "0.5"},
    ),
)

INVALID_BOUNDS: tuple[Case, ...] = tuple(
    Case(
        f"max_fpr {m}: outside (0, 1]",
        ["invalid-input", "partial-bound"],
        *TIED,
        params={"max_fpr": m},
        intent="invalid",
    )
    for m in ("0", "-0.25", "1.5", "inf", "nan")
)


def partial_cases() -> list[Group]:
    """The groups of the partial ROC AUC's vector file.

    Returns
    -------
    list of (str, list of Case)
        Every ranking group with ``max_fpr = 0.5`` added to each case's parameters, then the
        bounds and the invalid bounds.

    Examples
    --------
    >>> from prtheory.conformance.cases.partial import partial_cases
    >>> groups = partial_cases()
    >>> [name for name, _ in groups][-2:]
    ['max_fpr bounds', 'invalid max_fpr']
    >>> groups[0][1][0].params
    {'max_fpr': '0.5'}
    """
    at_default = [
        (name, [replace(c, params={**c.params, "max_fpr": DEFAULT_BOUND}) for c in cases])
        for name, cases in ranking_cases()
    ]
    return [
        *at_default,
        ("max_fpr bounds", list(BOUNDS)),
        ("invalid max_fpr", list(INVALID_BOUNDS)),
    ]
