"""Exception types shared by every layer of prtheory.

Both derive from :class:`ValueError`, so callers that already catch ``ValueError`` keep working,
while callers that care can tell a malformed argument from a mathematically undefined value.
"""

from __future__ import annotations

__all__ = ["InvalidInputError", "UndefinedMetricError"]


class InvalidInputError(ValueError):
    """An argument is malformed: NaN, wrong length, out of its domain, wrong type, ...

    The message always starts with the argument's name, e.g. ``"pi: must lie in [0, 1], got 1.5"``.

    Parameters
    ----------
    argument : str
        The argument's name.
    problem : str
        What is wrong with it.

    See Also
    --------
    UndefinedMetricError

    Examples
    --------
    >>> from prtheory.errors import InvalidInputError
    >>> str(InvalidInputError("pi", "must lie in [0, 1], got 1.5"))
    'pi: must lie in [0, 1], got 1.5'
    >>> from prtheory.oracle.points import precision
    >>> precision(-1, 2)
    Traceback (most recent call last):
    ...
    prtheory.errors.InvalidInputError: tp: must be >= 0, got -1
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

    Parameters
    ----------
    quantity : str
        The undefined quantity.
    reason : str
        Why it is undefined.

    See Also
    --------
    InvalidInputError

    Examples
    --------
    Recall with no positives is 0/0; ``convention="sklearn"`` substitutes 0:

    >>> from prtheory.oracle.points import recall
    >>> recall(0, 0)
    Traceback (most recent call last):
    ...
    prtheory.errors.UndefinedMetricError: recall is undefined: no positives (TP + FN = 0)
    >>> recall(0, 0, convention="sklearn")
    Fraction(0, 1)
    """

    def __init__(self, quantity: str, reason: str) -> None:
        self.quantity = quantity
        self.reason = reason
        super().__init__(f"{quantity} is undefined: {reason}")
