"""A library's own pytest test of its average precision, against prtheory's conformance vectors.

Copy this file into your test suite and put your function in place of
``my_average_precision``: ``pytest`` then runs one test per vector, and a wrong value fails with
the input, the exact value, the distance in ulps and the mechanism that explains it.
``@prtheory.conformance.parametrize("average_precision")`` gives every vector; this example
takes those of at most 1,000 items (58 of the 61), because a function in pure Python needs
seconds for each of the three of 10^6 items.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from prtheory.conformance import assert_conforms, vectors


def _values(xs):
    return xs.tolist() if hasattr(xs, "tolist") else list(xs)  # numpy arrays, lists, ...


def my_average_precision(y_true, y_score, sample_weight=None):
    """Average precision, tied scores grouped (scikit-learn's definition), in pure Python:

    AP = (1/P) * sum over the blocks of tied scores, in decreasing order, of
    (positive weight of the block) * TP / N, with TP and N the positive and the total weight
    down to the block's end; computed exactly in fractions and rounded once, to the nearest
    float. Invalid input raises ValueError, as an undefined AP (no positive weight) does.
    """
    labels, scores = _values(y_true), _values(y_score)
    weights = [1] * len(labels) if sample_weight is None else _values(sample_weight)
    if not labels:
        raise ValueError("y_true: must not be empty")
    if not len(scores) == len(weights) == len(labels):
        raise ValueError("y_score, sample_weight: must have the length of y_true")
    if any(y not in (0, 1) for y in labels):
        raise ValueError("y_true: labels must be 0 or 1")
    if any(math.isnan(s) for s in scores):
        raise ValueError("y_score: must not contain NaN")
    if any(not math.isfinite(w) or w < 0 for w in weights):
        raise ValueError("sample_weight: must be finite and >= 0")
    exact = [Fraction(w) for w in weights]  # a float weight is its binary value, exactly
    positive = sum(w for y, w in zip(labels, exact, strict=True) if y)
    if positive == 0:
        raise ValueError("average precision is undefined: no positive weight")
    order = sorted(range(len(labels)), key=lambda i: scores[i], reverse=True)
    tp = n = gained = ap = Fraction(0)
    for k, i in enumerate(order):
        tp, n, gained = tp + exact[i] * labels[i], n + exact[i], gained + exact[i] * labels[i]
        if k + 1 == len(order) or scores[order[k + 1]] != scores[i]:  # the block ends here
            ap += gained * tp / n if gained else 0
            gained = Fraction(0)
    return float(ap / positive)  # Fraction -> float rounds to nearest


SMALL = [v for v in vectors("average_precision") if len(v.inputs.y_true) <= 1000]


@pytest.mark.parametrize("vector", SMALL, ids=lambda v: v.ident)
def test_my_average_precision(vector):
    assert_conforms(my_average_precision, vector)
