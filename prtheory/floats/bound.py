"""B1: the least precision achievable at a recall, as a correctly rounded float64."""

from __future__ import annotations

from typing import Any

import numpy as np

from prtheory._input import as_float_array
from prtheory.floats import _slow, _tiers
from prtheory.floats._args import result, undefined_at
from prtheory.floats.dd import add, decide, div, two_prod, two_sum

Array = np.ndarray

#: Relative error bound of the reference path (derivation in :func:`_reference`).
REL = 2.0**-90


def _reference(r: Array, pi: Array) -> tuple[Array, Array]:
    """``pi r/(1 - pi + pi r)`` in double-double over the whole float64 range.

    ``pi r`` is formed exactly from the mantissas (``frexp``: no underflow) and scaled back at the
    end; ``1 - pi`` is exact (2Sum); the sum ``u = (1 - pi) + pi r`` is AccurateDWPlusDW
    (3u**2; an underflow in the unscaled ``pi r`` costs at most 2**-1074 absolute against
    ``u >= 2**-53``, i.e. 2**-1021 relative); the quotient is DWDivDW2 (15u**2 + 56u**3). Total
    below 19u**2 < 2**-97 < REL.
    """
    mr, er = np.frexp(r)
    mp, ep = np.frexp(pi)
    nh, nl = two_prod(mp, mr)
    with np.errstate(under="ignore"):
        uh, ul = add(*two_sum(np.ones_like(pi), -pi), *two_prod(pi, r))
    return decide(*div(nh, nl, uh, ul), er + ep, REL)


def min_precision(r: Any, pi: Any) -> Any:
    """Least achievable precision at recall ``r`` and skew ``pi`` (B1): ``pi r/(1 - pi + pi r)``.

    Undefined (raises) at ``r = 0, pi = 1``. Correctly rounded for every input: the fused kernel
    (relative error below 2**-97, for ``pi r >= 2**-900``), the numpy reference path (below
    2**-97 everywhere), each followed by the rounding test, and the exact rational of the oracle
    where neither decides (e.g. when the value is a midpoint between two floats).

    Parameters
    ----------
    r : float or array-like
        The recall, in [0, 1].
    pi : float or array-like
        The skew, in [0, 1].

    Returns
    -------
    float or ndarray
        The correctly rounded least precision.

    Raises
    ------
    InvalidInputError
        ``r`` or ``pi`` out of range.
    UndefinedMetricError
        ``r = 0`` and ``pi = 1``.

    See Also
    --------
    prtheory.oracle.min_precision : the exact value.
    aucpr_min : its area.

    Examples
    --------
    r = pi = 1/2: (1/4)/(1/2 + 1/4) = 1/3:

    >>> from fractions import Fraction
    >>> from prtheory.floats import min_precision
    >>> min_precision(0.5, 0.5) == float(Fraction(1, 3))
    True
    """
    r = as_float_array(r, "r", 0.0, 1.0)
    pi = as_float_array(pi, "pi", 0.0, 1.0)
    r, pi = np.broadcast_arrays(r, pi)
    undefined_at((r == 0) & (pi == 1), "min_precision", "r = 0 at pi = 1 gives 0/0", r, pi)
    out = np.empty(r.shape)
    everything = np.ones(r.shape, dtype=bool)
    _tiers.evaluate("min_precision", (r, pi), everything, out, _reference, _slow_min_precision)
    return result(out)


def _slow_min_precision(r: float, pi: float) -> float:
    return _slow.oracle_rounded("min_precision", r, pi)
