"""The PR areas that libraries print, as methods of ``prtheory audit``.

A library's printed area is one of the methods of :mod:`prtheory.audit.methods`, computed in
float64 (read from each library's source; the conformance kit checks every one against the
exact oracle, ``reports/conformance.md``):

* ``weka``: ``ThresholdCurve.getPRCArea`` ("PRC Area"), the step area of the curve with ties
  grouped: exact method ``step``;
* ``lightgbm``: ``metric="average_precision"``, the step area, ties grouped: ``step``;
* ``xgboost``: ``eval_metric="aucpr"``, Davis-Goadrich interpolation from TP = FP = 0 in a
  closed form with logarithms: ``davis-goadrich``;
* ``catboost``: ``eval_metric="PRAUC"``, trapezoids from (0, 1): ``trapezoid``;
* ``mlmetrics``: ``MLmetrics::PRAUC``, trapezoids from the first operating point, nothing at
  recall 0;
* ``rocr``: ROCR's ``performance(pred, "aucpr")``, whose misplaced Davis-Goadrich points can run
  back in recall: its exact least value for small counts (:mod:`prtheory.audit.rocr_exact`), else
  its own bound, proved in :mod:`prtheory.audit.rocr_bound` (it can print negative values).

The least value a library can print is the exact method's least value (proved in
:mod:`prtheory.audit.methods`) less the rounding error of its float64 arithmetic,
:func:`allowance`. Each library sums at most ``n + 1`` terms (``n = pos + neg`` items: one per
distinct score and the first point), each term at most its recall width in magnitude. The
largest per-term error is XGBoost's: ``(r - r' - (b/a)(ln(a r + b) - ln(a r' + b)))/a``, where
the logarithms' arguments are predicted counts over ``pos``, in ``[1/pos, n/pos]``, so each
logarithm is at most 44 in magnitude for ``n < 2^63`` and is computed (argument rounded, then
``log``) within ``(3 + 44) u`` absolute; their difference within ``94 u``, times ``|b/a| <=
neg/pos + 1 = 1/pi`` (``a >= 1``), plus at most ``6 u`` for the rest of the term: ``100 u/pi``.
The step and trapezoid sums err by far less. So every printed value is at least the exact least
value minus ``(n + 1) 100 u/pi + 10^-17`` (``u = 2^-53``; the last term is XGBoost printing 17
digits after the point), :func:`allowance`; without counts ``n`` is taken as ``2^31`` items. ``mlmetrics`` needs none: its least value is 0 (every trapezoid is
``>= 0``, computed as a product of non-negative floats), attained by a ranking whose scores all
tie (one operating point, no trapezoid). ``rocr`` has its own allowance
(:func:`prtheory.audit.rocr_bound.rocr_allowance`): its sum can run back and forth.

The methods cover the area over recalls [0, 1], the only one these libraries print.
"""

from __future__ import annotations

from fractions import Fraction

from prtheory.errors import InvalidInputError

__all__ = ["EXACT_METHOD", "LIBRARY_METHODS", "allowance", "check_full_range"]

#: each library method and the exact method whose least value it rounds
EXACT_METHOD = {
    "weka": "step",
    "lightgbm": "step",
    "xgboost": "davis-goadrich",
    "catboost": "trapezoid",
    "mlmetrics": "first-point",
    "rocr": "rocr-misplaced",
}
LIBRARY_METHODS = tuple(EXACT_METHOD)
#: items assumed when only the skew is printed
ITEMS_WITHOUT_COUNTS = 2**31
#: per-term error of the float64 sums, in units of u/pi (module docstring)
TERM_ERROR = 100


def allowance(pi: Fraction, pos: int | None = None, neg: int | None = None) -> Fraction:
    """The float64 rounding error that a library's printed area can have below its exact value:
    ``(n + 1) 100 u/pi + 10^-17`` with ``n = pos + neg`` (``2^31`` without counts).

    Parameters
    ----------
    pi : Fraction
        The skew.
    pos, neg : int or None
        The class counts, when known.

    Returns
    -------
    Fraction
        The allowance, exactly.

    See Also
    --------
    check_full_range

    Examples
    --------
    pi = 1/2, one item of each class: (2 + 1) 100 u/(1/2) + 10^-17 with u = 2^-53:

    >>> from fractions import Fraction
    >>> from prtheory.audit.library_methods import allowance
    >>> allowance(Fraction(1, 2), 1, 1) == Fraction(600, 2**53) + Fraction(1, 10**17)
    True
    """
    n = pos + neg if pos is not None and neg is not None else ITEMS_WITHOUT_COUNTS
    return Fraction(TERM_ERROR * (n + 1), 2**53) / pi + Fraction(1, 10**17)


def check_full_range(method: str, a: Fraction, b: Fraction) -> None:
    """Library methods print the area over recalls [0, 1] only.

    Parameters
    ----------
    method : str
        A library method.
    a, b : Fraction
        The printed recall range.

    Returns
    -------
    None

    Raises
    ------
    InvalidInputError
        A range other than [0, 1].

    See Also
    --------
    allowance

    Examples
    --------
    >>> from fractions import Fraction
    >>> from prtheory.audit.library_methods import check_full_range
    >>> check_full_range("lightgbm", Fraction(0), Fraction(1))
    >>> check_full_range("lightgbm", Fraction(1, 2), Fraction(1))
    Traceback (most recent call last):
    ...
    prtheory.errors.InvalidInputError: method: lightgbm prints the area over recalls [0, 1] only, not [1/2, 1]
    """
    if (a, b) != (0, 1):
        raise InvalidInputError(
            "method", f"{method} prints the area over recalls [0, 1] only, not [{a}, {b}]"
        )
