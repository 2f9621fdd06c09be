"""F2: F-beta of a precision and a recall, as a correctly rounded float64."""

from __future__ import annotations

from typing import Any

import numpy as np

from prtheory._input import as_float_array
from prtheory.errors import InvalidInputError
from prtheory.floats import _slow, _tiers
from prtheory.floats._args import result
from prtheory.floats.dd import add, decide, div, ldexp2, mul, mul_fp, two_prod

Array = np.ndarray

#: Relative error bound of the reference path (derivation in :func:`_reference`).
REL = 2.0**-90
#: The reference path's bound is derived for 2**-400 <= beta <= 2**400; other betas go to the
#: exact rational.
_BETA_RANGE = (2.0**-400, 2.0**400)


def _reference(p: Array, r: Array, beta: Array) -> tuple[Array, Array]:
    """``(1 + c) x y/(c x + y)`` in double-double, for ``p, r`` not both 0.

    ``(x, y, c) = (p, r, beta^2)`` for ``beta <= 1`` and ``(r, p, (1/beta)^2)`` for ``beta > 1``,
    so ``c <= 1`` never overflows. ``c``: exact (TwoProd) or ``1/beta`` by DWDivDW2 squared by
    DWTimesDW1, below 38u**2, carried to F with a factor below 1 (``|d ln F/d ln c| < 1``).
    ``x`` and ``y`` enter as mantissas times ``2**top`` (``top`` the larger exponent), so nothing
    underflows but the smaller denominator term, at a cost of 2**-1074 absolute against a larger
    term of at least 2**-801 (``c >= 2**-800``). Then DWPlusDW, TwoProd, DWTimesDW1,
    DWTimesFP1, DWPlusDW (positive terms) and DWDivDW2: below 70u**2 < 2**-96 < REL.
    """
    swap = beta > 1
    x, y = np.where(swap, r, p), np.where(swap, p, r)
    ih, il = div(np.ones_like(beta), 0.0, np.where(swap, beta, 1.0), 0.0)
    base_h, base_l = np.where(swap, ih, beta), np.where(swap, il, 0.0)
    with np.errstate(under="ignore"):
        ch, cl = mul(base_h, base_l, base_h, base_l)
    mx, ex = np.frexp(x)
    my, ey = np.frexp(y)
    top = np.where(x == 0, ey, np.where(y == 0, ex, np.maximum(ex, ey)))  # 0 has no exponent
    nh, nl = mul(*add(ch, cl, 1.0, 0.0), *two_prod(mx, my))
    with np.errstate(under="ignore"):
        dh, dl = add(*ldexp2(*mul_fp(ch, cl, mx), ex - top), np.ldexp(my, ey - top), 0.0)
    y_round, undecided = decide(*div(nh, nl, dh, dl), ex + ey - top, REL)
    outside = (beta < _BETA_RANGE[0]) | (beta > _BETA_RANGE[1])
    return y_round, undecided | outside


def fbeta(p: Any, r: Any, beta: Any = 1.0) -> Any:
    """F-beta ``(1 + beta^2) p r/(beta^2 p + r)`` (F2); 0 at p = r = 0 (the limit).

    For ``beta > 1`` it is evaluated as ``F_{1/beta}(r, p)``, with ``1/beta^2`` in double-double,
    so that ``beta^2`` never overflows. Correctly rounded for every input: the fused kernel
    (relative error below 2**-96 for 2**-100 <= beta <= 2**100 and p, r 0 or >= 2**-300), the
    numpy reference path (below 2**-96 for 2**-400 <= beta <= 2**400), the rounding test after
    each, and the exact rational where neither decides -- e.g. on exact midpoints, which F-beta
    of two floats can be.

    Parameters
    ----------
    p, r : float or array-like
        Precision and recall, in [0, 1].
    beta : float or array-like
        The weight of recall, finite and > 0 (default 1).

    Returns
    -------
    float or ndarray
        The correctly rounded F-beta.

    Raises
    ------
    InvalidInputError
        An argument out of range.

    See Also
    --------
    prtheory.oracle.fbeta_from_rates : the exact value.
    fbeta_gain

    Examples
    --------
    p = 1/2, r = 1/4: F1 = 2 (1/8)/(3/4) = 1/3; F2 = 5 (1/8)/(4 (1/2) + 1/4) = 5/18; F of
    p = r = 0 is 0:

    >>> from fractions import Fraction
    >>> from prtheory.floats import fbeta
    >>> fbeta(0.5, 0.25) == float(Fraction(1, 3)), fbeta(0.5, 0.25, 2.0) == float(Fraction(5, 18))
    (True, True)
    >>> fbeta(0.0, 0.0)
    0.0
    """
    p = as_float_array(p, "p", 0.0, 1.0)
    r = as_float_array(r, "r", 0.0, 1.0)
    beta = as_float_array(beta, "beta", 0.0, np.inf)
    if np.any(~np.isfinite(beta) | (beta == 0)):
        bad = np.argwhere(~np.isfinite(beta) | (beta == 0))[0] if beta.ndim else ()
        raise InvalidInputError("beta", f"must be finite and > 0, got {beta[tuple(bad)]!r}")
    p, r, beta = np.broadcast_arrays(p, r, beta)
    zero = (p == 0) | (r == 0)  # F = 0 exactly (p = r = 0 by the limit convention)
    out = np.zeros(p.shape)
    _tiers.evaluate("fbeta", (p, r, beta), ~zero, out, _reference, _slow.exact_fbeta)
    return result(out)
