"""The last tier of every closed form: the exact or arbitrary-precision oracle.

An element reaches it only when the double-double reference path cannot decide its rounding
(the true value lies within about 2**-89 of a rounding boundary, or exactly on one) or lies
outside the range where that path's bound was derived. The oracle
(:mod:`prtheory.oracle.closed_forms`) is imported on first use.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

Array = np.ndarray


def fill(out: Array, redo: Array, slow: Callable[..., float], *args: Array) -> None:
    """``out[i] = slow(*args[i])`` wherever ``redo`` holds (``args`` have ``out``'s shape)."""
    for idx in map(tuple, np.argwhere(redo)):
        out[idx] = slow(*(float(a[idx]) for a in args))


def oracle_rounded(name: str, *args: Any) -> float:
    """Correctly rounded float64 of the oracle quantity ``name`` at exact (float) arguments:
    exact rationals are rounded once, mpmath values by Ziv's loop of
    :func:`prtheory.oracle.rounding.rounded` (AUCPR_min and AUCNPR are transcendental for
    0 < pi < 1, so they are never on a rounding boundary and the loop ends)."""
    from prtheory.oracle import closed_forms
    from prtheory.oracle.rounding import rounded

    fn = getattr(closed_forms, name)
    if name in ("ap_min", "expected_random_ap"):
        args = tuple(int(v) for v in args)
        try:
            return rounded(fn, *args, max_dps=2000)
        except ArithmeticError:  # a rational value on (or too near) a boundary: exactly
            return rounded(fn, *args, exact=True)
    return rounded(fn, *args)


def exact_fbeta(p: float, r: float, beta: float) -> float:
    """``(1 + beta^2) p r/(beta^2 p + r)`` in exact rationals, rounded once (0 at p = r = 0)."""
    from prtheory.oracle.rounding import to_float

    p_q, r_q, b2 = Fraction(p), Fraction(r), Fraction(beta) ** 2
    den = b2 * p_q + r_q
    return 0.0 if den == 0 else to_float((1 + b2) * p_q * r_q / den)


def exact_gain(x: float, pi: float) -> float:
    """``(x - pi)/((1 - pi) x)`` in exact rationals, rounded once (``-inf`` at x = 0)."""
    from prtheory.oracle.rounding import to_float

    x_q, pi_q = Fraction(x), Fraction(pi)
    return -math.inf if x == 0 else to_float((x_q - pi_q) / ((1 - pi_q) * x_q))
