"""The inputs of the metrics at a threshold (precision, recall, F-beta), in groups, as data."""

from __future__ import annotations

from prtheory.conformance.cases.case import INF, LABELS_8, SCORES_8, Case, Group
from prtheory.conformance.cases.ranking import N3_SCORES_A, N3_SCORES_B, N3_TRUTHS, skew_case

__all__ = [
    "BOUNDARY",
    "EDGE",
    "INVALID",
    "LOGITS",
    "N3",
    "THRESHOLD_BASIC",
    "beta_cases",
    "fbeta_cases",
    "skew_at_threshold",
    "threshold_cases",
]

THRESHOLD_BASIC: tuple[Case, ...] = tuple(
    Case(
        f"threshold {t}, beta {b}",
        ["basic"],
        LABELS_8,
        SCORES_8,
        params={"threshold": repr(t), "beta": b},
    )
    for t, b in [(0.65, "1"), (0.45, "2"), (0.45, "1/2"), (0.35, "1/3")]
)

N3: tuple[Case, ...] = tuple(
    Case(
        f"N3 worked example, scores_{name} at threshold 0.5 (claim N3)",
        ["basic"],
        N3_TRUTHS,
        scores,
        params={"threshold": "0.5", "beta": "1"},
    )
    for name, scores in (("A", N3_SCORES_A), ("B", N3_SCORES_B))
)

BOUNDARY: tuple[Case, ...] = (
    Case(
        "threshold equal to a score",
        ["threshold-boundary"],
        LABELS_8,
        SCORES_8,
        params={"threshold": "0.5", "beta": "1"},
    ),
    Case(
        "threshold equal to the top score",
        ["threshold-boundary"],
        LABELS_8,
        SCORES_8,
        params={"threshold": "0.9", "beta": "1"},
    ),
)

EDGE: tuple[Case, ...] = (
    Case(
        "threshold above every score",
        ["undefined"],
        LABELS_8,
        SCORES_8,
        params={"threshold": "0.95", "beta": "1"},
    ),
    Case(
        "threshold below every score",
        ["basic"],
        LABELS_8,
        SCORES_8,
        params={"threshold": "0.0", "beta": "1"},
    ),
    Case(
        "all negative, threshold predicts some positive",
        ["single-class"],
        [0, 0, 0],
        [0.9, 0.5, 0.1],
        params={"threshold": "0.4", "beta": "1"},
    ),
    Case(
        "all negative, nothing predicted positive",
        ["single-class", "undefined"],
        [0, 0, 0],
        [0.3, 0.2, 0.1],
        params={"threshold": "0.5", "beta": "1"},
    ),
    Case(
        "+inf and -inf scores",
        ["nonfinite-score"],
        [1, 0, 1, 0],
        [INF, INF, -INF, 0.5],
        params={"threshold": "0.5", "beta": "1"},
    ),
    Case(
        "weights",
        ["weights"],
        [1, 0, 1, 0],
        [0.9, 0.8, 0.2, 0.1],
        [0.5, 2.0, 1.0, 0.25],
        params={"threshold": "0.5", "beta": "2"},
    ),
)

LOGITS: tuple[Case, ...] = (
    Case(
        "logits: 0.3 is below 0.5, sigmoid(0.3) is above",
        ["logits"],
        [1, 1, 0, 0],
        [2.0, 0.3, -1.0, 0.2],
        params={"threshold": "0.5", "beta": "1"},
    ),
    Case(
        "logits, beta 2",
        ["logits"],
        [1, 0, 1, 0, 1],
        [2.5, 1.0, -0.5, -2.0, 0.3],
        params={"threshold": "0.5", "beta": "2"},
    ),
)

INVALID: tuple[Case, ...] = (
    Case(
        "NaN score",
        ["invalid-input"],
        [1, 0, 1],
        [0.9, float("nan"), 0.1],
        params={"threshold": "0.5", "beta": "1"},
        intent="invalid",
    ),
    Case(
        "label 2",
        ["invalid-input"],
        [1, 2, 0],
        [0.9, 0.5, 0.1],
        params={"threshold": "0.5", "beta": "1"},
        intent="invalid",
    ),
)


def skew_at_threshold() -> Case:
    """One positive among 10^6 negatives (:func:`~prtheory.conformance.cases.ranking.skew_case`)
    at threshold 0.6: the positive alone is predicted positive.

    Returns
    -------
    Case
        The case, run-length encoded.

    Examples
    --------
    >>> from prtheory.conformance.cases.threshold import skew_at_threshold
    >>> skew_at_threshold().params
    {'threshold': '0.6', 'beta': '1'}
    """
    top = skew_case("top")
    return Case(
        "1 positive among 10^6 negatives",
        ["extreme-skew"],
        top.y_true,
        top.y_score,
        params={"threshold": "0.6", "beta": "1"},
        runs=True,
    )


def threshold_cases() -> list[Group]:
    """Inputs for metrics at a threshold: the ranking inputs at a few thresholds and betas.

    Returns
    -------
    list of (str, list of Case)
        The group's name and its cases, in the order of the vector files.

    Examples
    --------
    >>> from prtheory.conformance.cases.threshold import threshold_cases
    >>> [name for name, _ in threshold_cases()]
    ['basic', 'N3 worked example', 'threshold boundary', 'edge cases', 'logits', 'invalid input']
    """
    return [
        ("basic", list(THRESHOLD_BASIC)),
        ("N3 worked example", list(N3)),
        ("threshold boundary", list(BOUNDARY)),
        ("edge cases", [*EDGE, skew_at_threshold()]),
        ("logits", list(LOGITS)),
        ("invalid input", list(INVALID)),
    ]


def beta_cases(y: list[int], s: list[float]) -> list[Case]:
    """F-beta far from 1: tiny and huge finite betas (the value tends to precision and to
    recall), and the limits 0 and inf themselves, which a library may compute or refuse.

    Parameters
    ----------
    y, s : list
        The labels and scores, evaluated at threshold 0.45.

    Returns
    -------
    list of Case
        Betas 1e-300, 1e19, 1e154 and 1e200 (exact, as strings), then 0 and inf (result
        ``acceptable``).

    Examples
    --------
    >>> from prtheory.conformance.cases.threshold import beta_cases
    >>> [c.params["beta"] for c in beta_cases([1, 0], [0.9, 0.1])][-2:]
    ['0', 'inf']
    """
    cases = [
        Case(
            f"beta {text} at threshold 0.45",
            ["beta-extremes"],
            y,
            s,
            params={"threshold": "0.45", "beta": beta},
        )
        for text, beta in (
            ("1e-300", "1/1" + "0" * 300),
            ("1e19", "1" + "0" * 19),
            ("1e154", "1" + "0" * 154),
            ("1e200", "1" + "0" * 200),
        )
    ]
    for beta, limit, why in (
        ("0", "precision", "beta = 0 is outside F-beta's domain (beta > 0)"),
        ("inf", "recall", "beta = inf is not a finite weight"),
    ):
        cases.append(
            Case(
                f"beta {beta}: the limit is the {limit}",
                ["beta-extremes"],
                y,
                s,
                params={"threshold": "0.45", "beta": beta},
                intent="acceptable",
                reason=f"{why}; the value given is the limit as beta -> {beta}, the {limit}. "
                "Returning it or raising are both acceptable.",
            )
        )
    return cases


def fbeta_cases() -> list[Group]:
    """The threshold cases and the extreme betas (:func:`beta_cases` on the eight items of
    :data:`~prtheory.conformance.cases.case.LABELS_8`).

    Returns
    -------
    list of (str, list of Case)
        :func:`threshold_cases`, then the group ``"extreme beta"``.

    Examples
    --------
    >>> from prtheory.conformance.cases.threshold import fbeta_cases
    >>> fbeta_cases()[-1][0]
    'extreme beta'
    """
    return [*threshold_cases(), ("extreme beta", beta_cases(LABELS_8, SCORES_8))]
