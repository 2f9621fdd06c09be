"""Your own implementation in the conformance run: ``prtheory conformance --adapter MODULE:CALLABLE``.

``prtheory conformance --adapter my_adapter:correct --metrics average_precision`` (with this
folder on ``PYTHONPATH``) runs the AP written below from its definition over every
average-precision vector, each in a separate process with a time limit, and exits 0;
``my_adapter:wrong`` (ties broken by input order, while it claims to group them) exits 1, and
``my_adapter:declared`` (the same, documenting ``ties=input-order``) exits 0.
A package can register the same callable under the entry point group ``prtheory.adapters``
(``[project.entry-points."prtheory.adapters"] mylib = "mylib.conformance:implementations"``),
and every ``prtheory conformance`` run then includes it.

An adapter is a callable returning :class:`prtheory.conformance.adapters.Implementation` objects:
the library name, a name for the calling pattern, the metric (a vector file's name), a function
from the vector's inputs (``x.y_true``, ``x.y_score``, ``x.sample_weight``, ``x.params``) to the
value, and the conventions the implementation documents.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from prtheory.conformance.adapters import Implementation

EXACT_UP_TO = 1000  # items; above, float64 (a sum of n terms within the 8 + 2n ulps allowed)


def _checked(x):
    y = np.asarray(x.y_true)
    s = np.asarray(x.y_score, dtype=np.float64)
    w = np.ones(len(y)) if x.sample_weight is None else np.asarray(x.sample_weight, np.float64)
    if len(y) == 0 or len(s) != len(y) or len(w) != len(y):
        raise ValueError("y_true, y_score and sample_weight must be non-empty and equally long")
    if np.isnan(s).any() or not np.isin(y, [0, 1]).all():
        raise ValueError("NaN score, or a label other than 0/1")
    if not (np.isfinite(w).all() and (w >= 0).all()):
        raise ValueError("sample_weight must be finite and non-negative")
    if w.any():  # scaled by a power of two (exact), so that sums of 1e308 do not overflow
        w = np.ldexp(w, -np.frexp(w.max())[1])
    return y == 1, s, w


def _step_ap(tp, fp):
    """sum over operating points of (TP_k - TP_(k-1)) / P * TP_k / (TP_k + FP_k), given the
    cumulative weights at each point (exact Fractions, or floats)."""
    total, before = 0, 0
    pos = tp[-1]
    if pos == 0:
        raise ValueError("AP is 0/0 without positive weight")
    for t, f in zip(tp, fp, strict=True):
        if t != before:
            total += (t - before) / pos * t / (t + f)
        before = t
    return float(total)


def _cumulative(y, w, order, ends):
    """Cumulative positive and negative weight at the given ends of the ranking ``order``:
    exact Fractions up to EXACT_UP_TO items, float64 above."""
    if len(y) <= EXACT_UP_TO:
        weights = [Fraction(float(v)) for v in w[order]]
        tp, fp, t, f = [], [], Fraction(0), Fraction(0)
        for label, weight in zip(y[order], weights, strict=True):
            t, f = (t + weight, f) if label else (t, f + weight)
            tp.append(t)
            fp.append(f)
        return [tp[e] for e in ends], [fp[e] for e in ends]
    return np.cumsum(w[order] * y[order])[ends], np.cumsum(w[order] * ~y[order])[ends]


def average_precision(x) -> float:
    """AP = sum over distinct scores, highest first, of (R_k - R_{k-1}) P_k with ties grouped."""
    y, s, w = _checked(x)
    order = np.argsort(-s, kind="stable")
    ranked = s[order]
    ends = np.r_[np.flatnonzero(ranked[1:] != ranked[:-1]), len(s) - 1]  # one point per score
    return _step_ap(*_cumulative(y, w, order, ends))


def average_precision_input_order(x) -> float:
    """The same AP, but over the list sorted stably by score: ties broken by input order."""
    y, s, w = _checked(x)
    order = np.argsort(-s, kind="stable")
    return _step_ap(*_cumulative(y, w, order, np.arange(len(s))))


def correct() -> list[Implementation]:
    return [
        Implementation(
            "my AP", "average_precision (ties grouped)", "average_precision", average_precision
        )
    ]


def wrong() -> list[Implementation]:
    return [
        Implementation(
            "my AP",
            "average_precision (claims grouped ties)",
            "average_precision",
            average_precision_input_order,
        )
    ]


def declared() -> list[Implementation]:
    """The input-order AP again, now documenting its tie rule: the gate passes it."""
    return [
        Implementation(
            "my AP",
            "average_precision (ties by input order, documented)",
            "average_precision",
            average_precision_input_order,
            conventions=("ties=input-order",),
        )
    ]
