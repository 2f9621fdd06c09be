"""Constants shared by the numpy reference paths and the compiled kernels of the closed forms.

A leaf of :mod:`prtheory.floats` (it imports only :mod:`~prtheory.floats.dd`): the reference
paths (:mod:`~prtheory.floats.apmin`, :mod:`~prtheory.floats.aucpr`) and the kernels that repeat
their operations (:mod:`~prtheory.floats._fused`) read the same bounds and tables from here, so
neither imports the other.
"""

from __future__ import annotations

from prtheory.floats.dd import dd_constant

__all__ = ["AP_MIN_REL", "ASYMPTOTIC_MIN", "AUCPR_REL", "BERNOULLI", "EULER", "H_TABLE"]

#: Relative error bound of the double-double parts of AP_min and the expected AP (derived in
#: :mod:`prtheory.floats.apmin`).
AP_MIN_REL = 2.0**-86
#: Relative error bound of AUCPR_min and the gap AUCPR_max - AUCPR_min on the reference path
#: (derived in :mod:`prtheory.floats.aucpr`).
AUCPR_REL = 2.0**-86
#: Euler's constant as a double-double.
EULER = (float.fromhex("0x1.2788cfc6fb619p-1"), float.fromhex("-0x1.6cb90701fbfabp-58"))

#: B_{2k}/(2k) for k = 1..6 (B2 = 1/6, B4 = -1/30, B6 = 1/42, B8 = -1/30, B10 = 5/66,
#: B12 = -691/2730): the digamma / harmonic-number asymptotic coefficients. For real x > 0 the
#: remainder after them is below the first omitted term, B14/(14 x^14) = 1/(12 x^14) (2**-73.6
#: at x = 32, far above 2**-86 relative: it is added to the error bound element by element).
BERNOULLI = [1 / 12, -1 / 120, 1 / 252, -1 / 240, 1 / 132, -691 / 32760]
#: The asymptotic expansions are used for arguments at or above this.
ASYMPTOTIC_MIN = 32


def _harmonic_table() -> list[tuple[float, float]]:
    """``H_0 .. H_31`` as double-doubles, from exact fractions."""
    table, num, den = [], 0, 1
    for j in range(ASYMPTOTIC_MIN):
        table.append(dd_constant(num, den))
        num, den = num * (j + 1) + den, den * (j + 1)
    return table


#: The harmonic numbers ``H_j`` for j = 0 to 31, as double-doubles.
H_TABLE: list[tuple[float, float]] = _harmonic_table()
