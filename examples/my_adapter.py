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


def _checked(x):
    y = np.asarray(x.y_true)
    s = np.asarray(x.y_score, dtype=np.float64)
    w = None if x.sample_weight is None else np.asarray(x.sample_weight, dtype=np.float64)
    if len(y) == 0 or len(s) != len(y) or (w is not None and len(w) != len(y)):
        raise ValueError("y_true, y_score and sample_weight must be non-empty and equally long")
    if np.isnan(s).any() or not np.isin(y, [0, 1]).all():
        raise ValueError("NaN score, or a label other than 0/1")
    if w is not None and not (np.isfinite(w).all() and (w >= 0).all()):
        raise ValueError("sample_weight must be finite and non-negative")
    weights = [Fraction(1)] * len(y) if w is None else [Fraction(float(v)) for v in w]
    return (y == 1).tolist(), s.tolist(), weights


def _blocks(x) -> dict[float, list]:
    """Per distinct score, [positive weight, negative weight] (exact integers or Fractions)."""
    if x.sample_weight is None and len(x.y_true) > 1000:  # long unweighted input: count
        _checked_fast(x)
        s = np.asarray(x.y_score, dtype=np.float64)
        distinct, index = np.unique(s, return_inverse=True)
        pos = np.bincount(index[np.asarray(x.y_true) == 1], minlength=distinct.size)
        neg = np.bincount(index[np.asarray(x.y_true) == 0], minlength=distinct.size)
        return {float(d): [int(p), int(n)] for d, p, n in zip(distinct, pos, neg, strict=True)}
    y, s, w = _checked(x)
    blocks: dict[float, list] = {}
    for label, score, weight in zip(y, s, w, strict=True):
        tp_fp = blocks.setdefault(score, [Fraction(0), Fraction(0)])
        tp_fp[0 if label else 1] += weight
    return blocks


def _checked_fast(x) -> None:
    y = np.asarray(x.y_true)
    s = np.asarray(x.y_score, dtype=np.float64)
    if len(s) != len(y) or np.isnan(s).any() or not np.isin(y, [0, 1]).all():
        raise ValueError("lengths differ, a NaN score, or a label other than 0/1")


def average_precision(x) -> float:
    """AP = sum over distinct scores, highest first, of (R_k - R_{k-1}) P_k with ties grouped,
    in exact fractions, rounded once."""
    blocks = _blocks(x)
    pos = sum(b[0] for b in blocks.values())
    if pos == 0:
        raise ValueError("AP is 0/0 without positive weight")
    total, tp, fp = Fraction(0), Fraction(0), Fraction(0)
    for score in sorted(blocks, reverse=True):
        gain, false = blocks[score]
        tp, fp = tp + gain, fp + false
        if gain:
            total += gain / pos * tp / (tp + fp)
    return float(total)


def average_precision_input_order(x) -> float:
    """The same AP, but over the list sorted stably by score: ties broken by input order."""
    if x.sample_weight is None:
        _checked_fast(x)
        y = np.asarray(x.y_true) == 1
        order = np.argsort(-np.asarray(x.y_score, dtype=np.float64), kind="stable")
        hits = np.cumsum(y[order])
        ranks = np.flatnonzero(y[order])  # 0-based positions of the positives
        if ranks.size == 0:
            raise ValueError("AP is 0/0 without positives")
        total = sum(Fraction(int(hits[k]), int(k) + 1) for k in ranks)
        return float(total / ranks.size)
    y, s, w = _checked(x)
    order = sorted(range(len(y)), key=lambda i: -s[i])
    pos = sum(w[i] for i in order if y[i])
    if pos == 0:
        raise ValueError("AP is 0/0 without positive weight")
    total, tp, seen = Fraction(0), Fraction(0), Fraction(0)
    for i in order:
        seen += w[i]
        if y[i]:
            tp += w[i]
            total += w[i] / pos * tp / seen if seen else 0
    return float(total)


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
