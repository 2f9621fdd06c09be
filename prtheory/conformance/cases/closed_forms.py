"""The inputs of the closed forms (AUCPR_min, AP_min, AUCNPR): their parameters, as data."""

from __future__ import annotations

from collections.abc import Callable

from prtheory.conformance.cases.case import Case, Group

__all__ = [
    "AP_MIN_COUNTS",
    "AUCNPR_VALUES",
    "AUCPR_MIN_LIMITS",
    "AUCPR_MIN_SKEWS",
    "CLOSED_FORMS",
    "ap_min_cases",
    "aucnpr_cases",
    "aucpr_min_cases",
    "closed_form_cases",
]

#: skews pi of AUCPR_min: ordinary ones, and those near 0 and 1
AUCPR_MIN_SKEWS = ("1/2", "1/10", "1/3", "0.008", "0.01")
AUCPR_MIN_LIMITS = ("1e-8", "1e-17", "0.99999999", "1/1000001")

#: (positives, negatives) of AP_min
AP_MIN_COUNTS = ((1, 1), (3, 5), (100, 200), (1, 1000000), (1000, 10), (20, 80))

#: (AUCPR, pi, what the pair is) of AUCNPR
AUCNPR_VALUES = (
    ("0.545", "0.008", "B11 mammography"),
    ("0.965", "1/2", "B11 balanced"),
    ("1/2", "1/10", "basic"),
    ("0.999", "1e-8", "extreme skew"),
)


def _undefined(params: dict[str, str]) -> Group:
    """pi = 0 and pi = 1, where the closed forms are 0/0."""
    return (
        "undefined",
        [
            Case(f"pi = {p}", ["skew-limit", "undefined"], params={**params, "pi": p})
            for p in ["0", "1"]
        ],
    )


def aucpr_min_cases() -> list[Group]:
    """AUCPR_min (B4) at ordinary skews, near 0 and 1, and at 0 and 1.

    Returns
    -------
    list of (str, list of Case)
        The groups ``skews``, ``skew limits`` and ``undefined``.

    Examples
    --------
    >>> from prtheory.conformance.cases.closed_forms import aucpr_min_cases
    >>> [len(cases) for _, cases in aucpr_min_cases()]
    [5, 4, 2]
    """
    return [
        ("skews", [Case(f"pi = {p}", ["basic"], params={"pi": p}) for p in AUCPR_MIN_SKEWS]),
        (
            "skew limits",
            [
                Case(f"pi = {p}", ["skew-limit", "extreme-skew"], params={"pi": p})
                for p in AUCPR_MIN_LIMITS
            ],
        ),
        _undefined({}),
    ]


def ap_min_cases() -> list[Group]:
    """AP_min (B6) at the counts of :data:`AP_MIN_COUNTS`.

    Returns
    -------
    list of (str, list of Case)
        The one group ``counts``.

    Examples
    --------
    >>> from prtheory.conformance.cases.closed_forms import ap_min_cases
    >>> ap_min_cases()[0][1][0].params
    {'pos': 1, 'neg': 1}
    """
    return [
        (
            "counts",
            [
                Case(
                    f"pos = {p}, neg = {n}",
                    ["worst-ranking"] + (["extreme-skew"] if n >= 10**6 else []),
                    params={"pos": p, "neg": n},
                )
                for p, n in AP_MIN_COUNTS
            ],
        )
    ]


def aucnpr_cases() -> list[Group]:
    """AUCNPR (B11) at the values of :data:`AUCNPR_VALUES`, and at pi = 0 and 1.

    Returns
    -------
    list of (str, list of Case)
        The groups ``values`` and ``undefined``.

    Examples
    --------
    >>> from prtheory.conformance.cases.closed_forms import aucnpr_cases
    >>> aucnpr_cases()[0][1][0].comment
    'AUCPR = 0.545, pi = 0.008 (B11 mammography)'
    """
    return [
        (
            "values",
            [
                Case(
                    f"AUCPR = {a}, pi = {p} ({c})",
                    ["basic"] + (["extreme-skew"] if "e-" in p else []),
                    params={"aucpr": a, "pi": p},
                )
                for a, p, c in AUCNPR_VALUES
            ],
        ),
        _undefined({"aucpr": "1/2"}),
    ]


#: closed-form metric -> its groups of cases
CLOSED_FORMS: dict[str, Callable[[], list[Group]]] = {
    "aucpr_min": aucpr_min_cases,
    "ap_min": ap_min_cases,
    "aucnpr": aucnpr_cases,
}


def closed_form_cases(metric: str) -> list[Group]:
    """The groups of cases of the closed form ``metric`` (:data:`CLOSED_FORMS`).

    Parameters
    ----------
    metric : str
        ``"aucpr_min"``, ``"ap_min"`` or ``"aucnpr"``.

    Returns
    -------
    list of (str, list of Case)
        The groups of the metric's vector file.

    Raises
    ------
    KeyError
        For any other metric.

    Examples
    --------
    >>> from prtheory.conformance.cases.closed_forms import closed_form_cases
    >>> [name for name, _ in closed_form_cases("aucnpr")]
    ['values', 'undefined']
    """
    return CLOSED_FORMS[metric]()
