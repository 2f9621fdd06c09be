"""F4, F5, F8: precision, recall and F-beta gain (the harmonic rescaling onto [pi, 1])."""

from __future__ import annotations

from typing import Any

import numpy as np

from prtheory._input import as_float_array
from prtheory.floats import _slow, _tiers
from prtheory.floats._args import result, undefined_at
from prtheory.floats.dd import decide, div, frexp2, mul_fp, two_sum

Array = np.ndarray

#: Relative error bound of the reference path (derivation in :func:`_reference`).
REL = 2.0**-90


def _reference(x: Array, pi: Array) -> tuple[Array, Array]:
    """``(x - pi)/((1 - pi) x)`` in double-double over the whole float64 range (``x > 0``).

    ``x - pi`` is exact (2Sum, even among subnormals) and scaled exactly to [1/2, 1); ``x`` enters
    as its mantissa; ``(1 - pi) m_x`` is DWTimesFP1 (1.5u**2 + 4u**3) and the quotient DWDivDW2
    (15u**2 + 56u**3): below 17u**2 < 2**-97 < REL. The exponents are applied once, by the
    rounding test.
    """
    nh, nl, en = frexp2(*two_sum(x, -pi))
    mx, ex = np.frexp(x)
    dh, dl = mul_fp(*two_sum(np.ones_like(pi), -pi), mx)
    return decide(*div(nh, nl, dh, dl), en - ex, REL)


def _gain(x: Any, pi: Any, name: str, quantity: str) -> Any:
    """``(x - pi)/((1 - pi) x)`` (F4 with min = pi, max = 1), correctly rounded; ``-inf`` at
    ``x = 0 < pi``; exactly 0 at ``x = pi``."""
    x = as_float_array(x, name, 0.0, 1.0)
    pi = as_float_array(pi, "pi", 0.0, 1.0)
    x, pi = np.broadcast_arrays(x, pi)
    undefined_at(pi == 1, quantity, "pi = 1 (1 - pi = 0)", x, pi)
    undefined_at((x == 0) & (pi == 0), quantity, f"{name} = 0 at pi = 0 gives 0/0", x, pi)
    out = np.full(x.shape, -np.inf)
    _tiers.evaluate("gain", (x, pi), x != 0, out, _reference, _slow.exact_gain)
    return result(out)


def precision_gain(p: Any, pi: Any) -> Any:
    """Precision gain ``(p - pi)/((1 - pi) p)`` (F5). ``-inf`` at p = 0 < pi.

    Correctly rounded for every input: the fused kernel (relative error below 2**-97 for
    ``p >= 2**-900``), the numpy reference path (below 2**-97 everywhere), the rounding test after
    each, and the exact rational where neither decides.

    Parameters
    ----------
    p : float or array-like
        The precision, in [0, 1].
    pi : float or array-like
        The skew, in [0, 1).

    Returns
    -------
    float or ndarray
        The correctly rounded precision gain.

    Raises
    ------
    InvalidInputError
        An argument out of range.
    UndefinedMetricError
        ``pi = 1`` (``1 - pi = 0``).

    See Also
    --------
    recall_gain, fbeta_gain
    prtheory.oracle.precision_gain : the exact value of counts.

    Examples
    --------
    p = 3/4, pi = 1/2: (1/4)/((1/2)(3/4)) = 2/3; p = 0 gives -inf:

    >>> from fractions import Fraction
    >>> from prtheory.floats import precision_gain
    >>> precision_gain(0.75, 0.5) == float(Fraction(2, 3)), precision_gain(0.0, 0.5)
    (True, -inf)
    """
    return _gain(p, pi, "p", "precision gain")


def recall_gain(r: Any, pi: Any) -> Any:
    """Recall gain ``(r - pi)/((1 - pi) r)`` (F5). ``-inf`` at r = 0 < pi. Rounding as
    :func:`precision_gain`.

    Parameters
    ----------
    r : float or array-like
        The recall, in [0, 1].
    pi : float or array-like
        The skew, in [0, 1).

    Returns
    -------
    float or ndarray
        The correctly rounded recall gain.

    Raises
    ------
    InvalidInputError
        An argument out of range.
    UndefinedMetricError
        ``pi = 1`` (``1 - pi = 0``).

    See Also
    --------
    precision_gain, fbeta_gain

    Examples
    --------
    r = 1/4 below pi = 1/2: (1/4 - 1/2)/((1/2)(1/4)) = -2:

    >>> from prtheory.floats import recall_gain
    >>> recall_gain(0.25, 0.5)
    -2.0
    """
    return _gain(r, pi, "r", "recall gain")


def fbeta_gain(f: Any, pi: Any) -> Any:
    """F-beta gain ``FG_beta = (F_beta - pi)/((1 - pi) F_beta)`` (F8), from an F-beta value ``f``.
    Rounding as :func:`precision_gain`.

    Parameters
    ----------
    f : float or array-like
        An F-beta value, in [0, 1].
    pi : float or array-like
        The skew, in [0, 1).

    Returns
    -------
    float or ndarray
        The correctly rounded F-beta gain.

    Raises
    ------
    InvalidInputError
        An argument out of range.
    UndefinedMetricError
        ``pi = 1`` (``1 - pi = 0``).

    See Also
    --------
    precision_gain, recall_gain, fbeta

    Examples
    --------
    F = 1 gains 1 at any skew; F = 5/8 at pi = 1/2 gains (1/8)/((1/2)(5/8)) = 2/5:

    >>> from fractions import Fraction
    >>> from prtheory.floats import fbeta_gain
    >>> fbeta_gain(1.0, 0.5), fbeta_gain(0.625, 0.5) == float(Fraction(2, 5))
    (1.0, True)
    """
    return _gain(f, pi, "f", "F-beta gain")
