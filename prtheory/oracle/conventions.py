"""Named conventions for values that are mathematically undefined.

By default an undefined value raises :class:`~prtheory.errors.UndefinedMetricError`. Passing
``convention="<name>"`` substitutes the documented value instead. Each convention is a name
with a fixed meaning, so a difference between libraries can be named, not just observed:

``"paper"`` (Boyd et al. 2012, §3 and §4; claims B5, B8)
    AUCPR_min = 0 at pi = 0 and 1 at pi = 1 (the limits of B4); over a recall range [a, b] the
    limit at pi = 1 is b - a = AUCPR_max. AUCNPR = 0 at pi = 0 and 1 at pi = 1.

``"sklearn"`` (scikit-learn's ``zero_division=0``, its effective default)
    precision = 0 when TP + FP = 0; recall = 0 when TP + FN = 0; F-beta = 0 when
    TP + FP + FN = 0 (scikit-learn computes F-beta from counts as
    (1+beta^2) TP / ((1+beta^2) TP + FP + beta^2 FN), so it is undefined only then).
"""

from __future__ import annotations

from prtheory.errors import InvalidInputError, UndefinedMetricError

__all__ = ["undefined"]


def undefined(
    quantity: str, reason: str, convention: str | None, allowed: dict[str, object]
) -> object:
    """Value of an undefined ``quantity`` under ``convention``, or raise.

    ``allowed`` maps the conventions that apply to this quantity to their values.
    ``convention=None`` raises :class:`UndefinedMetricError`; a name that does not apply raises
    :class:`InvalidInputError` (a misspelt or inapplicable convention must not pass silently).
    """
    if convention is None:
        raise UndefinedMetricError(quantity, reason)
    if convention not in allowed:
        known = ", ".join(repr(c) for c in allowed) or "none"
        raise InvalidInputError(
            "convention", f"{convention!r} does not apply to {quantity} (applicable: {known})"
        )
    return allowed[convention]
