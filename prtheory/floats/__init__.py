"""Float64 closed forms of PR space, correctly rounded for every input.

Every function is vectorised: arguments are scalars or arrays that broadcast together; scalar
arguments give a Python ``float``, array arguments a float64 array. Arguments are validated by
:mod:`prtheory._input` (NaN and out-of-domain values raise
:class:`~prtheory.errors.InvalidInputError` naming the argument and the first bad index).

Correct rounding: three tiers, each with a proved error bound
-------------------------------------------------------------
Each function returns the float64 nearest to the true value (ties to even), for every input. An
element passes through at most three tiers (:mod:`prtheory.floats._tiers`):

1. a **fused kernel** (numba, optional; :mod:`prtheory.floats._kernels`) evaluates a
   double-double formula and the rounding test in one compiled pass, on the arguments inside its
   stated range;
2. the **numpy reference path** (double-double arithmetic on arrays, with exact scaling by
   powers of two so that it covers every float64 input) takes the elements the kernel leaves;
3. the **oracle** (:mod:`prtheory.oracle.closed_forms`: exact rationals for the rational
   functions, mpmath at doubling precision for the logarithmic ones) takes the elements neither
   can decide.

The rounding test (Ziv; :func:`prtheory.floats.dd.decide`) rounds both ends of the interval
``[v - rel |v|, v + rel |v|]`` around the double-double value ``v``; when both ends round to the
same float, so does the true value, because rounding is monotone. The bound ``rel`` is the
tier's proved relative error bound:

=======================  ============  ========================  ===================
function                 kernel bound  reference path bound      oracle
=======================  ============  ========================  ===================
min_precision (B1)       2**-97        2**-97                    exact rational
precision/recall/F gain  2**-97        2**-97                    exact rational
fbeta (F2)               2**-96        2**-96                    exact rational
aucpr_min (B4, B7)       see below     2**-88.5                  mpmath, Ziv loop
aucnpr (B8)              see below     2**-88.5 x cancellation   mpmath, Ziv loop
ap_min (B6, X3)          as reference  2**-88 (+ float parts)    exact / digamma
expected_random_ap (X1)  as reference  2**-88 (+ float parts)    exact / digamma
=======================  ============  ========================  ===================

Each bound is derived in the docstring of the code that evaluates it, from the per-operation
bounds of Joldes, Muller & Popescu (2017) listed in :mod:`prtheory.floats.dd` (every operation
below 16u**2 = 2**-102, u = 2**-53), the truncation of each series, and each cancellation factor.
The rounding test passes ``2**-90`` (rational functions) or ``2**-86`` (the others) -- a margin
of at least a factor 4 over the derived bound. The kernels of AUCPR_min and AUCNPR first run a
shorter fast path (:mod:`prtheory.floats._quick`: a 256-point table, a short series, within
2**-72.1; the test is given 2**-66, a factor 64 more), and only the elements it cannot decide
(about 1 in 2700 for AUCPR_min) go on to the accurate kernel (2**-88.5, as the reference
path). Exact zeros are formed exactly (``x - pi`` by 2Sum, a zero factor), so a zero
double-double is a true zero. For example ``aucpr_min(5e-324)``,
whose true value exceeds the midpoint between 0 and 5e-324 by a relative 1e-324, is undecided
by the double-double paths and gives 5e-324 from the oracle. ``python benchmarks/accuracy.py``
checks at least 10**6 points per function -- among them inputs constructed to lie within
2**-100 of a midpoint, and subnormal inputs (:mod:`prtheory._testing`) -- against rigorous Arb
references (``reports/accuracy.md``).

Conventions at the end points (documented, never NaN)
-----------------------------------------------------
* ``aucpr_min``: 0 at pi = 0 and ``b - a`` (1 over [0, 1]) at pi = 1 -- Boyd et al.'s convention
  (B5), the limits of the formula. ``a == b`` raises :class:`UndefinedMetricError`.
* ``aucnpr``: 0 at pi = 0 and 1 at pi = 1 (Boyd et al. §4, B8).
* ``precision_gain``, ``recall_gain``, ``fbeta_gain``: ``-inf`` at value 0 when pi > 0 (the
  limit); :class:`UndefinedMetricError` at pi = 1 (0/0 or division by 1 - pi = 0) and at
  value 0 with pi = 0.
* ``fbeta``: 0 at p = r = 0 (the limit of the weighted harmonic mean, and the value from counts
  with TP = 0 < FP + FN).
* ``min_precision``: :class:`UndefinedMetricError` at r = 0 with pi = 1 (0/0).
* ``ap_min`` and ``expected_random_ap``: :class:`UndefinedMetricError` when ``pos = 0``.

Backends
--------
With numba installed (extra ``fast``) the kernels run by default; :func:`set_backend`
(``"numpy"`` or ``"numba"``) or the environment variable ``PRTHEORY_FLOATS_BACKEND=numpy``
selects the numpy reference path alone. Results are identical; only the speed differs
(``reports/benchmarks_closed_forms.md``).
"""

from __future__ import annotations

from prtheory.floats.apmin import ap_min, expected_random_ap
from prtheory.floats.aucpr import aucnpr, aucpr_min
from prtheory.floats.bound import min_precision
from prtheory.floats.compiled import backend, set_backend
from prtheory.floats.fscore import fbeta
from prtheory.floats.gains import fbeta_gain, precision_gain, recall_gain

__all__ = [
    "ap_min",
    "aucnpr",
    "aucpr_min",
    "backend",
    "expected_random_ap",
    "fbeta",
    "fbeta_gain",
    "min_precision",
    "precision_gain",
    "recall_gain",
    "set_backend",
]
