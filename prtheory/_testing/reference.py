"""The float64 closed forms beside their exact references: what is compared, and how closely.

:data:`CASES` maps the name of each function of :mod:`prtheory.floats` to the function, the
oracle that gives its true value (:mod:`prtheory.oracle`: exact rationals, or mpmath at
:data:`DPS` digits), the error bound in ulps that the documentation states, and which argument
is the skew (for reports by skew region). Arguments come from
:func:`prtheory._testing.samplers.sample`; errors are measured with :mod:`prtheory._testing.ulps`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from prtheory import floats
from prtheory.oracle import closed_forms, points

__all__ = ["CASES", "DPS", "Case"]

DPS = 50  # digits of the mpmath oracle


class Case(NamedTuple):
    """One float64 function and its reference."""

    function: Callable[..., Any]  #: the float64 closed form (takes and returns arrays)
    oracle: Callable[..., Any]  #: the true value at one point of float arguments
    bound: float  #: the stated error bound, in ulps (0.5: correctly rounded)
    skew_at: int | None  #: position of the skew argument, if there is one


def _oracle_ap_min(pos: float, neg: float) -> Any:
    return closed_forms.ap_min(int(pos), int(neg), exact=pos <= 64, dps=DPS)


def _oracle_expected_ap(pos: float, neg: float) -> Any:
    return closed_forms.expected_random_ap(int(pos), int(neg), exact=pos + neg <= 64, dps=DPS)


def _oracle_aucpr_min(pi: float, a: float, b: float) -> Any:
    return closed_forms.aucpr_min(pi, a, b, dps=DPS)


def _oracle_aucnpr(area: float, pi: float, a: float, b: float) -> Any:
    return closed_forms.aucnpr(area, pi, a, b, dps=DPS)


CASES: dict[str, Case] = {
    "aucpr_min": Case(floats.aucpr_min, _oracle_aucpr_min, 0.5, 0),
    "min_precision": Case(floats.min_precision, closed_forms.min_precision, 0.5, 1),
    "precision_gain": Case(floats.precision_gain, points.gain, 0.5, 1),
    "recall_gain": Case(floats.recall_gain, points.gain, 0.5, 1),
    "fbeta": Case(floats.fbeta, points.fbeta_from_rates, 0.5, None),
    "fbeta_gain": Case(floats.fbeta_gain, points.gain, 0.5, 1),
    "aucnpr": Case(floats.aucnpr, _oracle_aucnpr, 0.5, 1),
    "ap_min": Case(floats.ap_min, _oracle_ap_min, 0.5, None),
    "expected_random_ap": Case(floats.expected_random_ap, _oracle_expected_ap, 0.5, None),
}
