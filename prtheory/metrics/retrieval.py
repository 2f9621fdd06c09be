"""P@k and R-precision as correctly rounded float64 (claim N4), without a full sort.

Both are ``TP(top k) / k`` for the ranking by decreasing score (``k = pos`` for R-precision),
exactly as :func:`prtheory.oracle.precision_at_k` and :func:`prtheory.oracle.r_precision`.
When ``k < n`` the cutoff score ``t`` is the ``k``-th largest (``np.partition``, linear time);
with ``A`` items scored above ``t`` (``P`` of them positive) and ``T`` items tied at ``t``
(``Q`` positive), ``k - A`` of the tied items enter the top k, and

* ``ties="expected"`` (default): ``TP = P + (k - A) Q / T``, the mean over uniformly random
  orders within the tie (McSherry & Najork 2008; the oracle's closed form);
* ``"optimistic"``: ``TP = P + min(k - A, Q)``; ``"pessimistic"``:
  ``TP = P + max(0, k - A - (T - Q))``.

``"input-order"`` and ``"trec_eval"`` (with ``doc_ids``) need the order inside ties and are
evaluated by the oracle. When ``k >= n`` every item is in the top k and missing predictions
count as false positives (N4): ``P@k = pos/k``. Unweighted: ``k`` counts items.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from prtheory._labels import binary_target
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.oracle import retrieval as oracle_retrieval
from prtheory.oracle.rounding import to_float
from prtheory.oracle.ties import ORDERING_POLICIES, check_ties

__all__ = ["precision_at_k", "r_precision"]

_POLICIES = ("expected", *ORDERING_POLICIES)
_COUNTED = ("expected", "optimistic", "pessimistic")


def _inputs(y_true, y_score, sample_weight, pos_label):
    if sample_weight is not None:
        raise InvalidInputError(
            "sample_weight", "P@k and R-precision count items (k is a number of items): unweighted"
        )
    return binary_target(y_true, y_score, pos_label)


def _top_positives(y: np.ndarray, s: np.ndarray, k: int, ties: str) -> Fraction:
    """Exact (expected) number of positives among the top ``k`` items (module docstring)."""
    if k >= s.size:
        return Fraction(int(y.sum()))
    t = -np.partition(-s, k - 1)[k - 1]
    above, tied = s > t, s == t
    a, p = int(above.sum()), int((y & above).sum())
    n_tied, q = int(tied.sum()), int((y & tied).sum())
    take = k - a
    if ties == "expected":
        return p + Fraction(take * q, n_tied)
    if ties == "optimistic":
        return Fraction(p + min(take, q))
    return Fraction(p + max(0, take - (n_tied - q)))


def precision_at_k(
    y_true, y_score, k, *, sample_weight=None, pos_label=None, ties="expected", doc_ids=None
) -> float:
    """``P@k = TP(top k)/k`` (N4), correctly rounded; ties by ``ties`` (module docstring).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary relevance labels, or labels of ``pos_label``.
    y_score : array-like of shape (n,)
        Real scores, taken exactly.
    k : int
        The cutoff, ``k >= 1``.
    sample_weight : array-like of shape (n,) or None
        Finite non-negative weights, taken exactly.
    pos_label : label or None
        The relevant class of a target that is not 0/1.
    ties : {"expected", "optimistic", "pessimistic", "input-order", "trec_eval"}
        The tie policy (default ``"expected"``).
    doc_ids : iterable of str or None
        Document ids, for ``ties="trec_eval"``.

    Returns
    -------
    float
        The correctly rounded P@k.

    Raises
    ------
    InvalidInputError
        Malformed input, a bad ``k``, or an unknown tie policy.

    See Also
    --------
    r_precision
    prtheory.oracle.precision_at_k : the exact value.

    Examples
    --------
    The top two of ``[1, 0, 1, 0]`` ranked as given hold one relevant item: 1/2:

    >>> from prtheory.metrics import precision_at_k
    >>> precision_at_k([1, 0, 1, 0], [4, 3, 2, 1], 2)
    0.5
    """
    k = oracle_retrieval.cutoff(k)
    ties = check_ties(ties, doc_ids, _POLICIES)
    y, s = _inputs(y_true, y_score, sample_weight, pos_label)
    if ties not in _COUNTED:
        return to_float(oracle_retrieval.precision_at_k(y, s, k, ties=ties, doc_ids=doc_ids))
    return to_float(_top_positives(y, s, k, ties) / k)


def r_precision(
    y_true, y_score, *, sample_weight=None, pos_label=None, ties="expected", doc_ids=None
) -> float:
    """R-precision ``P@R`` with ``R = pos``, correctly rounded; undefined with no positives.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary relevance labels, or labels of ``pos_label``.
    y_score : array-like of shape (n,)
        Real scores, taken exactly.
    sample_weight : array-like of shape (n,) or None
        Finite non-negative weights, taken exactly.
    pos_label : label or None
        The relevant class of a target that is not 0/1.
    ties : {"expected", "optimistic", "pessimistic", "input-order", "trec_eval"}
        The tie policy (default ``"expected"``).
    doc_ids : iterable of str or None
        Document ids, for ``ties="trec_eval"``.

    Returns
    -------
    float
        The correctly rounded R-precision.

    Raises
    ------
    InvalidInputError
        Malformed input or an unknown tie policy.
    UndefinedMetricError
        No relevant item.

    See Also
    --------
    precision_at_k

    Examples
    --------
    R = 2; the top two are the relevant item scored 4 and one slot of the tie at 3, which holds
    one relevant item of two: expected TP = 1 + 1/2, so 3/4:

    >>> from prtheory.metrics import r_precision
    >>> r_precision([1, 0, 1, 0], [4, 3, 3, 1])
    0.75
    """
    ties = check_ties(ties, doc_ids, _POLICIES)
    y, s = _inputs(y_true, y_score, sample_weight, pos_label)
    pos = int(y.sum())
    if pos == 0:
        raise UndefinedMetricError("R-precision", "y_true has no positive labels (R = 0)")
    if ties not in _COUNTED:
        return to_float(oracle_retrieval.r_precision(y, s, ties=ties, doc_ids=doc_ids))
    return to_float(_top_positives(y, s, pos, ties) / pos)
