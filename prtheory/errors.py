"""Exception types shared by every layer of prtheory.

Both derive from :class:`ValueError`, so callers that already catch ``ValueError`` keep working,
while callers that care can tell a malformed argument from a mathematically undefined value.
"""

from __future__ import annotations

__all__ = ["InvalidInputError", "UndefinedMetricError"]


class InvalidInputError(ValueError):
    """An argument is malformed: NaN, wrong length, out of its domain, wrong type, ...

    The message always starts with the argument's name, e.g. ``"pi: must lie in [0, 1], got 1.5"``.
    """

    def __init__(self, argument: str, problem: str) -> None:
        self.argument = argument
        self.problem = problem
        super().__init__(f"{argument}: {problem}")


class UndefinedMetricError(ValueError):
    """A quantity is mathematically undefined for legal input.

    Examples: recall with no positives, precision with no predicted positives, AUCPR_min at
    pi = 0. The message names the quantity and the reason; functions that raise it accept a
    ``convention=`` argument that substitutes a documented value instead.
    """

    def __init__(self, quantity: str, reason: str) -> None:
        self.quantity = quantity
        self.reason = reason
        super().__init__(f"{quantity} is undefined: {reason}")
