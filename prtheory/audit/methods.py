"""The least area under the PR curve that each way of computing it can produce.

A published "AUCPR" was computed by some method, and the lower bounds of PR space depend on it.
For a ranking of ``pos`` positives and ``neg`` negatives (pi = pos/(pos+neg)), every operating
point has precision at least the bound of claim B1, ``f(r) = pi r/(1 - pi + pi r)``, which is
increasing and concave in r with f(0) = 0 and f(1) = pi. The least value of each method over
**all** rankings (scores may tie) is

=====================  ===================================  ============================================
method                 least value over [0, 1]              why (and a ranking that attains it)
=====================  ===================================  ============================================
``step`` (AP)          AP_min(pos, neg) (B6)                each positive's precision is at least
                                                            k/(k+neg); negatives first attain it. Tied
                                                            groups only raise precision.
``davis-goadrich``     AUCPR_min(pi) (B4)                   every interpolated point is an achievable
                                                            table, so above f; negatives first follow
                                                            f exactly (B2: AUCNPR = 0)
``trapezoid``,         pi/2                                 every vertex, the one at recall 0 included,
``lower-trapezoid``                                         lies on or above the chord p = pi r of the
                                                            concave f, so the polygon does too; one
                                                            negative on top, then all else tied, draws
                                                            the chord (0, 0)-(1, pi) itself
``trapezoid-untied``   T(pos, neg) = (1/pos) sum_k          with distinct scores the vertex at recall
                       (p_{k-1} + p_k)/2, p_0 = 0,          k/pos has precision at least p_k =
                       p_k = k/(k + neg)                    k/(k+neg); negatives first attain every p_k
``unknown``            the least of the above: pi/2         a value is impossible under every method
                                                            above only below all of their minima (the
                                                            libraries' own variants below are not
                                                            among them: ROCR's and MLmetrics' can
                                                            print less)
=====================  ===================================  ============================================

(``neg = 0`` makes every curve the constant 1, and every minimum is 1.) The ``lower-trapezoid``
of one ranking equals its trapezoid (see :mod:`prtheory.oracle.areas`). The trapezoidal methods
assume a vertex at recall 0, as scikit-learn's ``auc(recall, precision)`` of
``precision_recall_curve`` (first point (0, 1)) and Spark's (0, p_first) have; a trapezoid that
starts at the first operating point leaves recalls out and has no such bound.

With only the skew known, the bound must hold for every count pair at that skew. pi/2 and
AUCPR_min(pi) depend on pi alone. AP_min(pos, neg) is a right Riemann sum of the increasing f, so
it exceeds AUCPR_min(pi) and tends to it: the infimum is AUCPR_min(pi), not attained. For
``trapezoid-untied`` the valid bound used is the chord pi/2 (T(pos, neg) >= pi/2 always; T tends
to AUCPR_min(pi) as pos grows, so pi/2 is not tight there).

Over a recall sub-range [a, b] the bounds are the integrals of the same minorants: AUCPR_min(pi;
a, b) (B7) for ``step`` and ``davis-goadrich``, and pi (b^2 - a^2)/2 (the chord) for the
trapezoidal methods.

The test suite checks every entry against the oracle's area of every ranking (every tie pattern)
of small pos and neg: no ranking goes below its method's bound, and the bound is attained.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

import mpmath

from prtheory.audit.images import aucpr_min_real
from prtheory.audit.intervals import Approx, Real, value_str
from prtheory.audit.library_methods import (
    EXACT_METHOD,
    ITEMS_WITHOUT_COUNTS,
    LIBRARY_METHODS,
    allowance,
    check_full_range,
)
from prtheory.audit.rocr_bound import TIGHTNESS, rocr_allowance, rocr_least
from prtheory.audit.rocr_exact import in_exact_domain, rocr_least_curve
from prtheory.errors import InvalidInputError
from prtheory.oracle import closed_forms

__all__ = [
    "ALIASES",
    "METHODS",
    "Bound",
    "canonical_method",
    "least_area",
    "trapezoid_untied_min",
]

METHODS = (
    "step",
    "davis-goadrich",
    "trapezoid",
    "lower-trapezoid",
    "trapezoid-untied",
    "unknown",
    *LIBRARY_METHODS,
)

# spellings found in papers and library names, compared after lower-casing and dropping spaces,
# hyphens, underscores and dots
ALIASES = {
    "step": "step",
    "ap": "step",
    "averageprecision": "step",
    "sklearnap": "step",
    "sklearnaverageprecision": "step",
    "averageprecisionscore": "step",
    "davisgoadrich": "davis-goadrich",
    "dg": "davis-goadrich",
    "interpolated": "davis-goadrich",
    "interpolation": "davis-goadrich",
    "prroc": "davis-goadrich",
    "prrocintegral": "davis-goadrich",
    "trapezoid": "trapezoid",
    "trapezoidal": "trapezoid",
    "linear": "trapezoid",
    "sklearnauc": "trapezoid",
    "auc": "trapezoid",
    "lowertrapezoid": "lower-trapezoid",
    "lowertrapezoidal": "lower-trapezoid",
    "trapezoiduntied": "trapezoid-untied",
    "unknown": "unknown",
    "": "unknown",
    # the areas libraries print (prtheory.audit.library_methods)
    "weka": "weka",
    "wekaprcarea": "weka",
    "prcarea": "weka",
    "lightgbm": "lightgbm",
    "lightgbmaverageprecision": "lightgbm",
    "xgboost": "xgboost",
    "xgboostaucpr": "xgboost",
    "catboost": "catboost",
    "catboostprauc": "catboost",
    "mlmetrics": "mlmetrics",
    "mlmetricsprauc": "mlmetrics",
    "rocr": "rocr",
    "rocraucpr": "rocr",
}


def canonical_method(raw: object, name: str = "method") -> str:
    """The canonical method name for ``raw`` (a name of :data:`METHODS` or an alias).

    Parameters
    ----------
    raw : object
        A method name or alias as printed.
    name : str
        The column's name, for the error (default ``"method"``).

    Returns
    -------
    str
        The canonical name.

    Raises
    ------
    InvalidInputError
        An unknown name, listing the known ones.

    See Also
    --------
    least_area

    Examples
    --------
    >>> from prtheory.audit.methods import canonical_method
    >>> canonical_method("AP"), canonical_method("PRROC"), canonical_method("average precision")
    ('step', 'davis-goadrich', 'step')
    """
    if raw is None:
        return "unknown"
    if not isinstance(raw, str):
        raise InvalidInputError(name, f"must be a method name, got {raw!r}")
    key = "".join(c for c in raw.lower() if c not in " -_.")
    if key not in ALIASES:
        raise InvalidInputError(
            name,
            f"unknown method {raw!r}; known: {', '.join(METHODS)} "
            f"(aliases: {', '.join(sorted(k for k in ALIASES if k))})",
        )
    return ALIASES[key]


@dataclass(frozen=True)
class Bound:
    """A lower bound on a method's area: its value, whether it is attained, and why.

    Parameters
    ----------
    value : Fraction or Approx
        The least area.
    attained : bool
        Whether some ranking attains it.
    method : str
        The area method.
    certificate : str
        Why it holds.
    decides : bool
        False when no value the method can print lies below it, so that comparing with it
        decides nothing (ROCR's area with the skew alone: its proved bound falls without limit
        as the positives grow); the audit reports such a check as not checked.

    See Also
    --------
    least_area

    Examples
    --------
    See :func:`least_area`.

    >>> from fractions import Fraction
    >>> from prtheory.audit.methods import least_area
    >>> least_area("step", Fraction(1, 2), 1, 1).attained
    True
    """

    value: Real
    attained: bool
    method: str
    certificate: str
    decides: bool = True


def trapezoid_untied_min(pos: int, neg: int) -> Fraction:
    """T(pos, neg): the trapezoid area of the worst untied ranking (negatives first), with a
    vertex (0, 0) when neg > 0 (scikit-learn's (0, 1) is a vertex of zero width there).

    Parameters
    ----------
    pos, neg : int
        The class counts.

    Returns
    -------
    Fraction
        The trapezoid area of the worst untied ranking.

    See Also
    --------
    least_area

    Examples
    --------
    One negative then one positive: from (0, 0) to (recall 1, precision 1/2), area
    (1/2)(0 + 1/2) = 1/4:

    >>> from prtheory.audit.methods import trapezoid_untied_min
    >>> trapezoid_untied_min(1, 1)
    Fraction(1, 4)
    """
    if neg == 0:
        return Fraction(1)
    p = [Fraction(k, k + neg) for k in range(pos + 1)]
    return sum((p[k - 1] + p[k] for k in range(1, pos + 1)), Fraction(0)) / (2 * pos)


def _chord(pi: Fraction, a: Fraction, b: Fraction) -> Fraction:
    return pi * (b * b - a * a) / 2


def least_area(
    method: str,
    pi: Fraction,
    pos: int | None = None,
    neg: int | None = None,
    a: Fraction = Fraction(0),
    b: Fraction = Fraction(1),
) -> Bound:
    """The least area of ``method`` at skew ``pi`` (counts when known) over recalls [a, b].

    ``pi`` is the smallest skew the printed data allow (every bound increases with pi). See the
    module table for the values and their proofs.

    Parameters
    ----------
    method : str
        A canonical method.
    pi : Fraction
        The least skew the printed data allow.
    pos, neg : int or None
        The class counts, when known.
    a, b : Fraction
        The recall range (default [0, 1]).

    Returns
    -------
    Bound
        The least area and its certificate.

    See Also
    --------
    trapezoid_untied_min
    prtheory.oracle.ap_min : the step method's bound (B6).

    Examples
    --------
    One positive and one negative: the step area's least value is AP_min = 1/2 (the positive
    second):

    >>> from fractions import Fraction
    >>> from prtheory.audit.methods import least_area
    >>> least_area("step", Fraction(1, 2), 1, 1).value
    Fraction(1, 2)
    """
    if method in LIBRARY_METHODS:
        return _library_least_area(method, pi, pos, neg, a, b)
    full = (a, b) == (0, 1)
    counts = (pos, neg) if pos is not None and neg is not None else None
    where = f"pos={pos}, neg={neg}" if counts else f"pi={value_str(pi)}"
    rng = "" if full else f" over recalls [{value_str(a)}, {value_str(b)}]"
    if pi == 1 or (counts is not None and counts[1] == 0):
        return Bound(b - a, True, method, f"no negatives: every method gives {value_str(b - a)}")
    if method in ("trapezoid", "lower-trapezoid", "unknown") or (
        method == "trapezoid-untied" and not (counts is not None and full)
    ):
        value: Real = _chord(pi, a, b)
        why = (
            f"{method} at {where}{rng}: every vertex lies on or above the chord p = pi r of the "
            f"minimum-precision curve (B1, concave), so the area is at least pi (b^2 - a^2)/2 = "
            f"{value_str(value)}"
        )
        if method == "unknown":
            why += (
                " (the least of the minima of the methods of the papers: step, davis-goadrich, "
                "trapezoid, lower-trapezoid, trapezoid-untied; a library's own variant can print "
                "less: rocr, mlmetrics, or by float64 rounding the others of "
                "prtheory.audit.library_methods; give its method if the value came from one)"
            )
        attained = method != "trapezoid-untied"
        return Bound(value, attained, method, why)
    if method == "trapezoid-untied" and counts is not None:  # with full: the branch above
        value = trapezoid_untied_min(*counts)
        return Bound(
            value,
            True,
            method,
            f"trapezoid with distinct scores at {where}: at least the worst ranking's "
            f"(negatives first) T = {value_str(value)}",
        )
    if method == "step" and counts is not None and full:
        n_pos, n_neg = counts
        ap_min: Real = closed_forms.ap_min(n_pos, n_neg)
        if not isinstance(ap_min, Fraction):  # huge pos: digamma evaluation, an mpf
            ap_min = Approx(lambda dps: closed_forms.ap_min(n_pos, n_neg, dps=dps), "AP_min")
        return Bound(
            ap_min, True, method, f"step (AP) at {where}: AP_min = {value_str(ap_min)} (B6)"
        )
    value = aucpr_min_real(pi, a, b)
    if method == "step":
        why = (
            f"step (AP) at {where}{rng}: every step lies above the minimum-precision curve, so the "
            f"area is above AUCPR_min = {value_str(value)} (B6, B4, B7)"
        )
        return Bound(value, False, method, why)
    return Bound(
        value,
        True,
        method,
        f"davis-goadrich at {where}{rng}: AUCPR_min = {value_str(value)} (B4, B7)",
    )


def _library_least_area(
    method: str, pi: Fraction, pos: int | None, neg: int | None, a: Fraction, b: Fraction
) -> Bound:
    """The least area library ``method`` can print (:mod:`prtheory.audit.library_methods`):
    its exact method's least value less the float64 allowance (0 for ``mlmetrics``)."""
    check_full_range(method, a, b)
    exact = EXACT_METHOD[method]
    if exact == "first-point":
        why = f"{method}: trapezoids from the first operating point, each >= 0; all scores tied give 0"
        return Bound(Fraction(0), True, method, why)
    if exact == "rocr-misplaced":
        return _rocr_least_area(pi, pos, neg)
    base = least_area(exact, pi, pos, neg)
    if pi == 1 or neg == 0:
        return replace(base, method=method)
    slack = allowance(pi, pos, neg)
    value: Real
    if isinstance(base.value, Fraction):
        value = base.value - slack
    else:
        value = _less(base.value, slack, f"{method} least value")
    items = "" if pos is not None and neg is not None else " (for at most 2^31 items: no counts)"
    why = (
        f"{method} computes the {exact} area in float64: {base.certificate}; less the float64 "
        f"rounding allowance{items} {value_str(slack)}: {value_str(value)}"
    )
    return Bound(value, False, method, why)  # the allowance is a bound, not a value printed


def _rocr_least_area(pi: Fraction, pos: int | None, neg: int | None) -> Bound:
    """ROCR's least area less its float64 allowance: exact (:mod:`prtheory.audit.rocr_exact`)
    for counts in the exact search's domain, elsewhere the proved bound of
    :mod:`prtheory.audit.rocr_bound` at the counts. With the skew alone there is none that
    decides anything: the proved bound ``pi/2 - phi(Q)/2`` falls like ``-pos/12`` as the
    positives grow at a fixed skew (at ``pos = 2^31`` it is about ``-1.8 10^8``), and the least
    value over every count pair is not known (the conjecture ``pi/2 - 1/2`` is unproved), so
    the bound returned says so (``decides=False``) and the audit does not check the row."""
    if pi == 1 or neg == 0:
        return Bound(Fraction(1), True, "rocr", "rocr: no negatives, every precision is 1")
    if pos is None or neg is None:
        value = rocr_least(pi, ITEMS_WITHOUT_COUNTS) - rocr_allowance(ITEMS_WITHOUT_COUNTS)
        why = (
            f"rocr at pi={value_str(pi)}: not checked without the class counts: ROCR's "
            f"misplaced Davis-Goadrich points can run back in recall, and its proved least "
            f"area, pi/2 - (Q - 3Q(Q - 1)/(2 pos))/2 with Q = max(floor(pos/3) - 1, 0), falls "
            f"without limit as pos grows at this skew ({value_str(value)} at pos = 2^31 with "
            f"the float64 allowance), so no printed area is below it; give pos and neg"
        )
        return Bound(value, False, "rocr", why, decides=False)
    where = f"pos={pos}, neg={neg}"
    if in_exact_domain(pos, neg):
        least, jumps, fps = rocr_least_curve(pos, neg)
        groups = [
            f"{d} positive(s)" + (f" tied with {g - f} negative(s)" if g > f else "")
            for d, f, g in zip(jumps, fps, fps[1:], strict=False)
        ]
        if fps[-1] < neg:
            groups.append(f"{neg - fps[-1]} negative(s)")
        how = (
            f"the least area over every ranking (ties allowed), exact, found by exhaustive "
            f"search (prtheory.audit.rocr_exact), is {value_str(least)}, attained by the "
            f"ranking (tied groups, best first) {'; '.join(groups)}"
        )
    else:
        least = rocr_least(pi, pos)
        how = (
            f"ROCR's misplaced Davis-Goadrich points can run back in recall, at most Q = "
            f"max(floor(pos/3) - 1, 0) steps, the j-th from the top costing at most (1 - "
            f"3j/pos)/2, so the area is at least pi/2 - (Q - 3Q(Q - 1)/(2 pos))/2 = "
            f"{value_str(least)} (a proved bound, not the least value: these counts are outside "
            f"the exact search's domain; bound {TIGHTNESS})"
        )
    value = least - rocr_allowance(pos)
    why = (
        f"rocr at {where}: {how}; less the float64 allowance "
        f"{value_str(rocr_allowance(pos))}: {value_str(value)}"
    )
    return Bound(value, False, "rocr", why)


def _less(x: Approx, slack: Fraction, label: str) -> Approx:
    """``x - slack`` as an :class:`Approx`, evaluated at the precision asked for."""

    def evaluate(dps: int) -> mpmath.mpf:
        with mpmath.workdps(dps + 10):
            return x.at(dps + 10) - mpmath.mpf(slack.numerator) / slack.denominator

    return Approx(evaluate, label)
