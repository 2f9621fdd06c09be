"""river's ``RollingROCAUC`` emulated from its source (``rust_src/rolling_roc_auc.rs``).

The window is kept ordered by (score, then a key that puts positives after negatives and later
items after earlier ones: ``score.total_cmp``, then ``packed = label << 63 | seq``), and ``get``
walks it from the highest score down: a positive whose score differs from the last positive's
sets ``prev_c = c``, then ``c += 1``; a negative adds ``c``, or ``(c + prev_c) / 2`` in integer
(truncating) arithmetic when its score equals the last positive's ("an integer-truncated
half-credit instead of the proper Mann-Whitney 0.5", as the source says); the sum is divided by
``positives * negatives``, and 0.0 is returned when a class is missing.
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["river_rolling_roc_auc"]


def _total_order(score: float) -> int:
    """Rust's ``f64::total_cmp`` key: -0.0 below 0.0, NaN ordered by its bits."""
    bits: int = struct.unpack("<q", struct.pack("<d", score))[0]
    return bits ^ ((bits >> 63) & 0x7FFFFFFFFFFFFFFF)


def river_rolling_roc_auc(x: Any) -> Fraction | float:
    """``RollingROCAUC(window_size=n)`` after every item of ``x`` (module docstring).

    Parameters
    ----------
    x : Inputs
        The items, in the order they are fed.

    Returns
    -------
    Fraction or float
        The area river computes, exactly; 0.0 when a class is missing.

    Examples
    --------
    Labels 1, 0, 1, 0 scored 0.8, 0.5, 0.5, 0.2. Walking down: the positive at 0.8 (c = 1),
    the positive at 0.5 (prev_c = 1, c = 2), the negative tied with it adds (2 + 1) // 2 = 1,
    the negative at 0.2 adds 2: 3/4, where the Mann-Whitney area counts the tie 1/2:
    (1 + 1 + 1/2 + 1)/4 = 7/8:

    >>> import numpy as np
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.river_models import river_rolling_roc_auc
    >>> river_rolling_roc_auc(Inputs(np.array([1, 0, 1, 0]), np.array([0.8, 0.5, 0.5, 0.2])))
    Fraction(3, 4)
    >>> river_rolling_roc_auc(Inputs(np.array([1, 1]), np.array([0.8, 0.5])))
    0.0
    """
    labels = [int(v == 1) for v in np.asarray(x.y_true).tolist()]
    scores = np.asarray(x.y_score, dtype=np.float64).tolist()
    positives = sum(labels)
    if positives == 0 or positives == len(labels):
        return 0.0
    entries = sorted(
        (_total_order(s), (label << 63) | seq, label, s)
        for seq, (label, s) in enumerate(zip(labels, scores, strict=True))
    )
    auc = c = prev_c = 0
    last = math.nan
    for _, _, label, s in reversed(entries):
        if label == 1:
            if s != last:
                prev_c, last = c, s
            c += 1
        else:
            auc += (c + prev_c) // 2 if s == last else c
    return Fraction(auc, positives * (len(labels) - positives))
