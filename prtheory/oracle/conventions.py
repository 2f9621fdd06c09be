"""Named conventions for values that are mathematically undefined.

By default an undefined value raises :class:`~prtheory.errors.UndefinedMetricError`. Passing
``convention="<name>"`` substitutes the documented value instead. Each convention is a name
with a fixed meaning, so a difference between libraries can be named, not just observed:

``"paper"`` (Boyd et al. 2012, §3 and §4; claims B5, B8)
    AUCPR_min = 0 at pi = 0 and 1 at pi = 1 (the limits of B4); over a recall range [a, b] the
    limit at pi = 1 is b - a = AUCPR_max. AUCNPR = 0 at pi = 0 and 1 at pi = 1.

``"sklearn"`` (scikit-learn's ``zero_division=0``, its effective default)
    precision = 0 when TP + FP = 0; recall = 0 when TP + FN = 0; F-beta = 0 when
    TP + FP + FN = 0 (scikit-learn computes F-beta from counts as
    (1+beta^2) TP / ((1+beta^2) TP + FP + beta^2 FN), so it is undefined only then);
    NDCG@k = 0 when every gain is 0 (``ndcg_score`` scores such a list 0).

``"mllib"`` (Spark MLlib's ``BinaryClassificationMetrics``, its ``Precision`` computer)
    precision = 1 when TP + FP = 0 (the empty classifier). MLlib keeps that operating point:
    with zero sample weight on the top-scored block the first point of its PR curve has
    TP = FP = 0, and the curve starts at (recall 0, precision 1). The matching first-point
    convention of the areas (:func:`prtheory.oracle.areas.pr_auc`) is ``first_point="mllib"``:
    prepend (recall 0, precision of the first operating point with this 0/0 = 1), which is
    ``"sklearn"``'s (0, 1) when the top block has zero weight and ``"spark"``'s (0, p_first)
    otherwise. By hand: y = [0, 1, 0], s = [3, 2, 2], w = [0, 1, 1] has points
    (recall 0, precision 1) at s >= 3 and (1, 1/2) at s >= 2, so MLlib's ``areaUnderPR`` is the
    trapezoid (1 + 1/2)/2 * 1 = 3/4; ``"spark"`` would start at (0, 1/2) and give 1/2.
    ``pr_curve(..., first_point="spark", convention="mllib")`` is MLlib's ``pr()``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar

from prtheory.errors import InvalidInputError, UndefinedMetricError

__all__ = ["CONVENTIONS", "Convention", "conventions_markdown", "undefined"]

_V = TypeVar("_V")


def undefined(quantity: str, reason: str, convention: str | None, allowed: Mapping[str, _V]) -> _V:
    """Value of an undefined ``quantity`` under ``convention``, or raise.

    ``allowed`` maps the conventions that apply to this quantity to their values.
    ``convention=None`` raises :class:`UndefinedMetricError`; a name that does not apply raises
    :class:`InvalidInputError` (a misspelt or inapplicable convention must not pass silently).

    Parameters
    ----------
    quantity : str
        The undefined quantity's name, for the error.
    reason : str
        Why it is undefined, for the error.
    convention : str or None
        The caller's convention.
    allowed : mapping of str to value
        The conventions that apply to ``quantity`` and their values.

    Returns
    -------
    value
        ``allowed[convention]``.

    Raises
    ------
    UndefinedMetricError
        ``convention`` is None.
    InvalidInputError
        ``convention`` does not apply to ``quantity``.

    Examples
    --------
    >>> from prtheory.oracle.conventions import undefined
    >>> undefined("recall", "no positives", "sklearn", {"sklearn": 0})
    0
    >>> undefined("recall", "no positives", "mllib", {"sklearn": 0})
    Traceback (most recent call last):
    ...
    prtheory.errors.InvalidInputError: convention: 'mllib' does not apply to recall (applicable: 'sklearn')
    """
    if convention is None:
        raise UndefinedMetricError(quantity, reason)
    if convention not in allowed:
        known = ", ".join(repr(c) for c in allowed) or "none"
        raise InvalidInputError(
            "convention", f"{convention!r} does not apply to {quantity} (applicable: {known})"
        )
    return allowed[convention]


@dataclass(frozen=True)
class Convention:
    """One named choice the oracle makes explicit: the keyword that selects it, its name, what
    it applies to, what it means, and whose choice it is.

    Parameters
    ----------
    keyword, name, applies_to, meaning, source : str
        The keyword that selects it, its name, what it applies to, what it means, whose it is.

    See Also
    --------
    conventions_markdown : the table of them all.

    Examples
    --------
    >>> from prtheory.oracle.conventions import CONVENTIONS
    >>> sorted({c.keyword for c in CONVENTIONS})[:2]
    ['convention', 'first_point']
    """

    keyword: str
    name: str
    applies_to: str
    meaning: str
    source: str


#: Every named convention of the oracle, by keyword: ``convention=`` (undefined values, this
#: module), ``ties=`` (:mod:`prtheory.oracle.ties`), ``first_point=``
#: (:mod:`prtheory.oracle.curves`, :mod:`prtheory.oracle.areas`) and ``method=``
#: (:func:`prtheory.oracle.areas.pr_auc`). A test keeps it equal to the names the code accepts;
#: the documentation's table of conventions is generated from it (:func:`conventions_markdown`).
CONVENTIONS: tuple[Convention, ...] = (
    Convention(
        "convention",
        "paper",
        "AUCPR_min, AUCNPR at pi = 0 or 1",
        "AUCPR_min = 0 at pi = 0 and b - a at pi = 1; AUCNPR = 0 at pi = 0 and 1 at pi = 1 "
        "(the limits)",
        "Boyd et al. 2012, B5, B8",
    ),
    Convention(
        "convention",
        "sklearn",
        "precision, recall, F-beta at 0/0; AP, PR areas without positives; NDCG@k without gains",
        "0 substituted for 0/0",
        "scikit-learn's zero_division=0",
    ),
    Convention(
        "convention",
        "mllib",
        "precision at TP + FP = 0",
        "1: the empty classifier's precision",
        "Spark MLlib's BinaryClassificationMetrics",
    ),
    Convention(
        "ties",
        "group",
        "step AP, PR curves",
        "a tied block is one operating point (threshold score >= t)",
        "scikit-learn's average_precision_score",
    ),
    Convention(
        "ties",
        "expected",
        "AP, P@k, AP@k, R-precision, reciprocal rank, NDCG@k",
        "the exact expectation over all orders of each tied block",
        "McSherry & Najork 2008",
    ),
    Convention(
        "ties",
        "optimistic",
        "ranking metrics",
        "positives before negatives within a tie (the best order)",
        "bound",
    ),
    Convention(
        "ties",
        "pessimistic",
        "ranking metrics",
        "negatives before positives within a tie (the worst order)",
        "bound",
    ),
    Convention(
        "ties",
        "input-order",
        "ranking metrics",
        "tied items keep their input order (a stable sort)",
        "metrics that trust the given list",
    ),
    Convention(
        "ties",
        "trec_eval",
        "ranking metrics (needs doc_ids)",
        "score descending, then document id descending as strings",
        "trec_eval's comp_sim_docno",
    ),
    Convention(
        "first_point",
        "none",
        "PR curves, interpolated areas",
        "the curve starts at the first operating point",
        "no extrapolation",
    ),
    Convention(
        "first_point",
        "sklearn",
        "PR curves, trapezoid areas",
        "(recall 0, precision 1) prepended",
        "scikit-learn's precision_recall_curve",
    ),
    Convention(
        "first_point",
        "spark",
        "PR curves, trapezoid and Davis-Goadrich areas",
        "(recall 0, precision of the first operating point) prepended",
        "Spark's BinaryClassificationMetrics.pr()",
    ),
    Convention(
        "first_point",
        "mllib",
        "trapezoid areas",
        "(0, 1) when the top-scored block has zero weight, else (0, p_first)",
        "Spark MLlib's areaUnderPR",
    ),
    Convention(
        "method",
        "step",
        "area under the PR curve",
        "precision p_k on (r_(k-1), r_k]: average precision",
        "claim N2; scikit-learn's average_precision_score",
    ),
    Convention(
        "method",
        "trapezoid",
        "area under the PR curve",
        "straight lines between consecutive (recall, precision) points",
        "sklearn.metrics.auc of the PR curve; Spark's areaUnderPR",
    ),
    Convention(
        "method",
        "lower-trapezoid",
        "area under the PR curve",
        "sum (r_(i+1) - r_i)(pmin_i + pmax_(i+1))/2 over distinct recalls",
        "Boyd, Eng & Page 2013",
    ),
    Convention(
        "method",
        "davis-goadrich",
        "area under the PR curve",
        "FP linear in TP between consecutive tables, integrated exactly",
        "Davis & Goadrich 2006; claims B2, B4",
    ),
    Convention(
        "method",
        "davis-goadrich-discrete",
        "area under the PR curve (unit weights)",
        "straight lines through the points at every whole true positive",
        "PRROC's auc.davis.goadrich",
    ),
)


def conventions_markdown() -> str:
    """The table of :data:`CONVENTIONS` as a Markdown page (the documentation's conventions).

    Returns
    -------
    str
        A Markdown page with one table row per convention.

    See Also
    --------
    Convention

    Examples
    --------
    >>> from prtheory.oracle.conventions import CONVENTIONS, conventions_markdown
    >>> page = conventions_markdown()
    >>> all(c.name in page for c in CONVENTIONS)
    True
    """
    out = [
        "# Conventions",
        "",
        "Every choice the oracle makes where the papers or the libraries differ has a name. The",
        "table is generated from `prtheory.oracle.conventions.CONVENTIONS`, which a test keeps",
        "equal to the names the code accepts.",
        "",
        "| keyword | name | applies to | meaning | whose choice |",
        "|---|---|---|---|---|",
    ]
    out += [
        f"| `{c.keyword}=` | `{c.name!r}` | {c.applies_to} | {c.meaning} | {c.source} |"
        for c in CONVENTIONS
    ]
    return "\n".join(out) + "\n"
