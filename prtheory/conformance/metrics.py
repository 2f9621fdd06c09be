"""The metrics the vectors cover, and every named convention each one is computed under.

Each :class:`MetricSpec` maps an input (labels, scores, weights, parameters) to the oracle's exact
value under the vectors' default conventions, and lists :class:`Alternative` conventions: other
well-defined choices that real libraries make. An alternative is an oracle option (``ties=``,
``first_point=``, ``convention=``) and/or a named transformation of the input that a library
applies before ranking (a sigmoid on logits, rounding scores to float32, splitting ties between
infinite scores). Nothing here re-implements a metric: every value comes from
:mod:`prtheory.oracle`.

Convention names (used in vectors, reports and :func:`prtheory.conformance.check`):

``ties=input-order`` / ``ties=trec_eval`` / ``ties=optimistic`` / ``ties=pessimistic``
    item-by-item tie policies of :mod:`prtheory.oracle.ties`; trec_eval's rule uses the document
    ids of :func:`doc_ids` (``"d0000000"``, ``"d0000001"``, ... in input order).
``scores=float32``
    scores rounded to float32 before ranking (creates ties between nearby scores).
``sigmoid-on-logits``
    if any score lies outside [0, 1], every score is replaced by 1/(1 + exp(-s)) (float64)
    first; saturation to 1.0 creates ties. Applied per batch by a library that decides per
    batch (``sigmoid-per-batch``, added by the runner).
``inf-ties=input-order``
    ties between +inf scores (and between -inf scores) are broken in input order; finite ties
    stay grouped (a ``diff() != 0`` test that is NaN for ``inf - inf``).
``first-point=sklearn`` / ``first-point=spark`` / ``first-point=none``
    the point at recall 0 of a PR curve or area (:mod:`prtheory.oracle.curves`).
``threshold=strict``
    predict positive iff ``score > t`` instead of ``score >= t``.
``undefined=sklearn`` / ``undefined=paper``
    the documented substitute for an undefined value (:mod:`prtheory.oracle.conventions`).
``prg-area=signed``
    AUPRG counting area where precision gain is negative as negative.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np

from prtheory.errors import InvalidInputError

__all__ = [
    "METRICS",
    "Alternative",
    "Inputs",
    "MetricSpec",
    "combination_base",
    "counts_at_threshold",
    "doc_ids",
    "evaluate",
    "selected_metrics",
    "ties_broken",
]


@dataclass(frozen=True)
class Inputs:
    """One test's input: a ranking (possibly empty for closed forms) and named parameters.

    Examples
    --------
    >>> import numpy as np
    >>> from prtheory.conformance.metrics import Inputs
    >>> Inputs(np.array([1, 0]), np.array([0.5, 0.25])).labels.tolist()
    [1, 0]
    >>> Inputs(params={"pi": 0.5}).scores
    Traceback (most recent call last):
    ValueError: this test has no ranking (y_score is None)
    """

    y_true: np.ndarray | None = None
    y_score: np.ndarray | None = None
    sample_weight: np.ndarray | None = None
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def labels(self) -> np.ndarray:
        """``y_true`` of a ranking test (a closed-form test has none: ValueError)."""
        if self.y_true is None:
            raise ValueError("this test has no ranking (y_true is None)")
        return self.y_true

    @property
    def scores(self) -> np.ndarray:
        """``y_score`` of a ranking test (a closed-form test has none: ValueError)."""
        if self.y_score is None:
            raise ValueError("this test has no ranking (y_score is None)")
        return self.y_score


@functools.lru_cache(maxsize=4)
def doc_ids(n: int) -> tuple[str, ...]:
    """Document ids for libraries that need them: item ``i`` is ``"d%07d" % i``."""
    return tuple(f"d{i:07d}" for i in range(n))


# ------------------------------------------------------------------------------------------
# input transformations that libraries apply before ranking


def sigmoid_on_logits(x: Inputs, batches: int = 1) -> Inputs:
    """Replace scores by 1/(1+exp(-s)) when a (batch's) score leaves [0, 1], computed in the
    dtype the scores are passed in (``params["dtype"]``, float64 by default; a float32 sigmoid
    saturates to 1.0 from about s = 17, where float64 keeps s = 30 below 1)."""
    dtype = np.dtype(x.params.get("dtype", "float64"))
    if dtype.kind != "f":
        dtype = np.dtype(np.float64)
    parts = np.array_split(np.asarray(x.y_score, dtype=np.float64).astype(dtype), batches)
    out = []
    for s in parts:
        if s.size and not np.all((s >= 0) & (s <= 1)):
            with np.errstate(over="ignore"):
                s = dtype.type(1) / (dtype.type(1) + np.exp(-s))
        out.append(s.astype(np.float64))
    return replace(x, y_score=np.concatenate(out))


def scores_float32(x: Inputs) -> Inputs:
    """Round scores to float32 (and back), as libraries that store scores as float do; scores
    beyond the float32 range become ±inf, as they do in such a library."""
    with np.errstate(over="ignore"):
        s32 = np.asarray(x.y_score, dtype=np.float64).astype(np.float32)
    return replace(x, y_score=s32.astype(np.float64))


def split_infinite_ties(x: Inputs) -> Inputs:
    """Break ties among +inf (and among -inf) scores in input order, keeping finite ties.

    Each +inf becomes a distinct finite value above every finite score, decreasing in input
    order; each -inf likewise below every finite score. The ranking is otherwise unchanged. A
    single +inf (-inf) ties with nothing and is left as it is; where the finite scores reach so
    close to ±MAX that ``top + 1 + k`` would round back to ``top``, every score is replaced by
    its rank (same order, same ties: the value of a ranking metric is unchanged).
    """
    s = np.asarray(x.y_score, dtype=np.float64).copy()
    pos_inf = np.flatnonzero(s == np.inf)
    neg_inf = np.flatnonzero(s == -np.inf)
    if pos_inf.size <= 1 and neg_inf.size <= 1:
        return x
    finite = s[np.isfinite(s)]
    top = float(finite.max()) if finite.size else 0.0
    bottom = float(finite.min()) if finite.size else 0.0
    reach = float(max(pos_inf.size, neg_inf.size) + 1)
    if (
        top + reach == top
        or bottom - reach == bottom
        or not np.isfinite([top + reach, bottom - reach]).all()
    ):
        s = np.unique(s, return_inverse=True)[1].astype(np.float64)  # ranks, ties kept
        top, bottom = float(s.max()), float(s.min())
    s[pos_inf] = top + 1.0 + np.arange(pos_inf.size, 0, -1)
    s[neg_inf] = bottom - 1.0 - np.arange(1, neg_inf.size + 1)
    return replace(x, y_score=s)


# ------------------------------------------------------------------------------------------
# metrics


@dataclass(frozen=True)
class Alternative:
    """A named convention: oracle options plus an optional input transformation.

    Examples
    --------
    Labels 1, 0 tied at 0.5: grouped, the tie gives average precision 1/2 (one positive in a
    block of two); broken in input order, the positive comes first: 1:

    >>> import numpy as np
    >>> from prtheory.conformance.metrics import Alternative, Inputs, evaluate, ties_broken
    >>> x = Inputs(np.array([1, 0]), np.array([0.5, 0.5]))
    >>> in_order = Alternative("ties=input-order", transform=ties_broken("input-order"))
    >>> evaluate("average_precision", x), evaluate("average_precision", x, in_order)
    (Fraction(1, 2), Fraction(1, 1))
    """

    name: str
    options: dict[str, Any] = field(default_factory=dict)
    transform: Callable[[Inputs], Inputs] | None = None


@dataclass(frozen=True)
class MetricSpec:
    """A metric: its oracle evaluation, default conventions and alternatives.

    ``kind`` is ``"scalar"`` (one value), ``"curve"`` (named arrays of values) or
    ``"closed-form"`` (a scalar of parameters only). ``compute(inputs, **options)`` returns an
    exact ``int``/``Fraction``, a pair ``(mpf, correctly rounded float64)`` for irrational
    values, or a dict of lists of those for curves; it raises ``UndefinedMetricError`` or
    ``InvalidInputError`` like the oracle.

    Examples
    --------
    >>> from prtheory.conformance.metrics import METRICS
    >>> spec = METRICS["average_precision"]
    >>> spec.kind, spec.defaults["ties"], "ties=input-order" in [a.name for a in spec.alternatives]
    ('scalar', 'group', True)
    """

    name: str
    kind: str
    description: str
    defaults: dict[str, str]
    compute: Callable[..., Any]
    alternatives: tuple[Alternative, ...] = ()
    claims: tuple[str, ...] = ()


def _ranking_args(x: Inputs) -> tuple[Any, Any, Any]:
    return x.y_true, x.y_score, x.sample_weight


def _ap(x: Inputs, ties: str = "group", convention: str | None = None) -> Fraction:
    from prtheory.oracle.ap import average_precision

    ids = doc_ids(len(x.labels)) if ties == "trec_eval" else None
    return average_precision(*_ranking_args(x), ties=ties, doc_ids=ids, convention=convention)


def _pr_curve(
    x: Inputs, first_point: str = "none", convention: str | None = None
) -> dict[str, Any]:
    from prtheory.oracle.curves import pr_curve

    c = pr_curve(*_ranking_args(x), first_point=first_point, convention=convention)
    return {"recall": list(c.recall), "precision": list(c.precision)}


def _irrational(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, float]:
    """(value at 60 digits, correctly rounded float64) of an irrational oracle quantity."""
    from prtheory.oracle import rounded

    return fn(*args, dps=60, **kwargs), rounded(fn, *args, **kwargs)


def _area(x: Inputs, method: str, first_point: str) -> Any:
    from prtheory.oracle.areas import pr_auc

    if method == "davis-goadrich":
        return _irrational(pr_auc, *_ranking_args(x), method=method, first_point=first_point)
    return pr_auc(*_ranking_args(x), method=method, first_point=first_point)


def counts_at_threshold(x: Inputs, strict: bool) -> tuple[Fraction, Fraction, Fraction]:
    """(TP, FP, FN) of the classifier ``score >= t`` (or ``> t``), from the oracle's points.

    Parameters
    ----------
    x : Inputs
        A ranking with ``params["threshold"]`` (a decimal string).
    strict : bool
        ``score > t`` in place of ``score >= t``.

    Returns
    -------
    (Fraction, Fraction, Fraction)
        The weighted true positives, false positives and false negatives.

    Examples
    --------
    >>> import numpy as np
    >>> from prtheory.conformance.metrics import Inputs, counts_at_threshold
    >>> x = Inputs(np.array([1, 0, 1]), np.array([0.9, 0.5, 0.1]), params={"threshold": "0.5"})
    >>> # score >= 0.5 predicts the first two: TP 1, FP 1, and the third positive is missed
    >>> [int(c) for c in counts_at_threshold(x, strict=False)]
    [1, 1, 1]
    >>> [int(c) for c in counts_at_threshold(x, strict=True)]
    [1, 0, 1]
    """
    from prtheory.oracle.counts import operating_points

    t = float(x.params["threshold"])
    pts = operating_points(*_ranking_args(x))
    keep = pts.thresholds > t if strict else pts.thresholds >= t
    d = pts.denominator
    k = int(np.count_nonzero(keep))
    tp = Fraction(int(pts.tp[k - 1]), d) if k else Fraction(0)
    fp = Fraction(int(pts.fp[k - 1]), d) if k else Fraction(0)
    return tp, fp, Fraction(pts.pos, d) - tp


def _fbeta(x: Inputs, threshold: str = ">=", convention: str | None = None) -> Fraction:
    """F-beta at the threshold (F2). ``beta`` is a rational, or one of the limits the vectors
    test as *acceptable* (a library may refuse them): ``"0"`` gives the precision and ``"inf"``
    the recall, the limits of (1+b^2) TP/((1+b^2) TP + FP + b^2 FN) as b -> 0 and b -> inf."""
    from prtheory.oracle.points import fbeta, precision, recall

    tp, fp, fn = counts_at_threshold(x, threshold == ">")
    beta = x.params["beta"]
    if beta in ("inf", math.inf):
        return recall(tp, fn, convention=convention)
    if Fraction(beta) == 0:
        return precision(tp, fp, convention=convention)
    return fbeta(tp, fp, fn, Fraction(beta), convention=convention)


def _precision_at_t(x: Inputs, threshold: str = ">=", convention: str | None = None) -> Fraction:
    from prtheory.oracle.points import precision

    tp, fp, _ = counts_at_threshold(x, threshold == ">")
    return precision(tp, fp, convention=convention)


def _recall_at_t(x: Inputs, threshold: str = ">=", convention: str | None = None) -> Fraction:
    from prtheory.oracle.points import recall

    tp, _, fn = counts_at_threshold(x, threshold == ">")
    return recall(tp, fn, convention=convention)


def _retrieval(name: str) -> Callable[..., Fraction]:
    def compute(x: Inputs, ties: str = "expected", normalise: str = "min(k,pos)") -> Fraction:
        from prtheory.oracle import retrieval

        if "relevant_at" in x.params:  # graded labels: relevant iff label >= relevant_at
            graded = np.asarray(x.y_true)
            x = replace(x, y_true=(graded >= int(x.params["relevant_at"])).astype(np.int64))
        ids = doc_ids(len(x.labels)) if ties == "trec_eval" else None
        fn = getattr(retrieval, name)
        args = (
            (x.y_true, x.y_score) if name == "r_precision" else (x.y_true, x.y_score, x.params["k"])
        )
        value: Fraction = fn(*args, ties=ties, doc_ids=ids)
        if normalise == "pos":  # trec_eval's map_cut_k divides by every relevant item
            pos = int(np.count_nonzero(x.labels))
            value = value * min(int(x.params["k"]), pos) / pos
        return value

    return compute


def _roc_auc(x: Inputs) -> Fraction:
    from prtheory.oracle import roc_auc

    return roc_auc(*_ranking_args(x))


def _partial_roc_auc(x: Inputs) -> Fraction:
    from prtheory.oracle.areas import partial_roc_auc

    return partial_roc_auc(*_ranking_args(x), max_fpr=float(x.params["max_fpr"]))


def ties_broken(policy: str) -> Callable[[Inputs], Inputs]:
    """A transformation that breaks every tie of the scores (``"input-order"``: in input order;
    ``"pessimistic"``: negatives first) by replacing the scores with distinct ranks, so that an
    area computed item by item follows that order. The ranking is otherwise unchanged.

    Parameters
    ----------
    policy : {"input-order", "pessimistic"}
        How ties are broken.

    Returns
    -------
    callable
        ``Inputs -> Inputs`` with the scores replaced by ranks ``n, ..., 1`` (best first).

    Examples
    --------
    Items 0 (a positive) and 1 (a negative) tie above item 2; input order puts item 0 first,
    the pessimistic order the negative:

    >>> import numpy as np
    >>> from prtheory.conformance.metrics import Inputs, ties_broken
    >>> x = Inputs(np.array([1, 0, 1]), np.array([0.5, 0.5, 0.2]))
    >>> [ties_broken(p)(x).y_score.tolist() for p in ("input-order", "pessimistic")]
    [[3.0, 2.0, 1.0], [2.0, 3.0, 1.0]]
    """

    def transform(x: Inputs) -> Inputs:
        s = np.asarray(x.y_score, dtype=np.float64)
        y = np.asarray(x.y_true)
        second = np.zeros(s.size) if policy == "input-order" else (y == 1).astype(np.float64)
        order = np.lexsort((np.arange(s.size), second, -s))  # best first
        ranks = np.empty(s.size)
        ranks[order] = np.arange(s.size, 0, -1, dtype=np.float64)
        return replace(x, y_score=ranks)

    return transform


def _auprg(x: Inputs, negative_gain: str = "unit-square") -> Fraction:
    from prtheory.oracle import auprg

    return auprg(*_ranking_args(x), negative_gain=negative_gain)


def _prg_curve(x: Inputs) -> dict[str, Any]:
    """Recall gain and precision gain at the operating points (crossing points left out)."""
    from prtheory.oracle.curves import prg_curve

    c = prg_curve(*_ranking_args(x))
    keep = [i for i, cross in enumerate(c.is_crossing) if not cross]
    return {
        "recall_gain": [c.recall_gain[i] for i in keep],
        "precision_gain": [c.precision_gain[i] for i in keep],
    }


def _aucpr_min(x: Inputs, convention: str | None = None) -> Any:
    from prtheory.oracle import aucpr_min

    return _irrational(aucpr_min, Fraction(x.params["pi"]), convention=convention)


def _ap_min(x: Inputs) -> Fraction:
    from prtheory.oracle import ap_min

    value: Fraction = ap_min(int(x.params["pos"]), int(x.params["neg"]), exact=True)
    return value


def _aucnpr(x: Inputs, convention: str | None = None) -> Any:
    from prtheory.oracle import aucnpr

    return _irrational(
        aucnpr, Fraction(x.params["aucpr"]), Fraction(x.params["pi"]), convention=convention
    )


# Most specific first: the classifier names the first alternative that fits, and the generator
# drops an alternative whose value an earlier one already gives.
_RANKING_ALTERNATIVES = (
    Alternative("inf-ties=input-order", {}, split_infinite_ties),
    Alternative("sigmoid-on-logits", {}, sigmoid_on_logits),
    Alternative("scores=float32", {}, scores_float32),
    Alternative("ties=trec_eval", {"ties": "trec_eval"}),
    Alternative("ties=trec_eval+scores=float32", {"ties": "trec_eval"}, scores_float32),
    Alternative("ties=input-order", {"ties": "input-order"}),
    Alternative("ties=expected", {"ties": "expected"}),
    Alternative("ties=optimistic", {"ties": "optimistic"}),
    Alternative("ties=pessimistic", {"ties": "pessimistic"}),
    Alternative("undefined=sklearn", {"convention": "sklearn"}),
)

_RETRIEVAL_ALTERNATIVES = (
    Alternative("sigmoid-on-logits", {}, sigmoid_on_logits),
    Alternative("scores=float32", {}, scores_float32),
    Alternative("ties=trec_eval", {"ties": "trec_eval"}),
    Alternative("ties=trec_eval+scores=float32", {"ties": "trec_eval"}, scores_float32),
    Alternative("ties=input-order", {"ties": "input-order"}),
    Alternative("ties=optimistic", {"ties": "optimistic"}),
    Alternative("ties=pessimistic", {"ties": "pessimistic"}),
)

_CURVE_TRANSFORMS = (
    Alternative("scores=float32", {}, scores_float32),
    Alternative("sigmoid-on-logits", {}, sigmoid_on_logits),
    Alternative("inf-ties=input-order", {}, split_infinite_ties),
)

_THRESHOLD_ALTERNATIVES = (
    Alternative("threshold=strict", {"threshold": ">"}),
    Alternative("sigmoid-on-logits", {}, sigmoid_on_logits),
    Alternative("sigmoid-on-logits+threshold=strict", {"threshold": ">"}, sigmoid_on_logits),
    Alternative("undefined=sklearn", {"convention": "sklearn"}),
    Alternative("threshold=strict+undefined=sklearn", {"threshold": ">", "convention": "sklearn"}),
    # torchmetrics' whole rule: a sigmoid when a score leaves [0, 1], then score > t, 0/0 as 0
    Alternative(
        "sigmoid-on-logits+threshold=strict+undefined=sklearn",
        {"threshold": ">", "convention": "sklearn"},
        sigmoid_on_logits,
    ),
)


def _with_first_point(alternatives: tuple[Alternative, ...]) -> tuple[Alternative, ...]:
    """Each transformation combined with scikit-learn's (0, 1) first point."""
    return tuple(
        replace(
            a, name=a.name + "+first-point=sklearn", options={**a.options, "first_point": "sklearn"}
        )
        for a in alternatives
    )


#: the conventions of the ROC areas (whole and partial)
_ROC_ALTERNATIVES = (
    Alternative("inf-ties=input-order", {}, split_infinite_ties),
    Alternative("sigmoid-on-logits", {}, sigmoid_on_logits),
    Alternative("scores=float32", {}, scores_float32),
    Alternative("ties=input-order", {}, ties_broken("input-order")),
    Alternative("ties=pessimistic", {}, ties_broken("pessimistic")),
)


METRICS: dict[str, MetricSpec] = {
    m.name: m
    for m in (
        MetricSpec(
            "average_precision",
            "scalar",
            "AP = sum over operating points of (R_k - R_{k-1}) P_k (N2); tied scores form one point.",
            {"ties": "group", "undefined": "raise"},
            _ap,
            _RANKING_ALTERNATIVES,
            ("N2", "N3", "B6"),
        ),
        MetricSpec(
            "pr_curve",
            "curve",
            "Exact (recall, precision) at every distinct score threshold, in decreasing threshold order.",
            {"ties": "group", "first-point": "none", "undefined": "raise"},
            _pr_curve,
            (
                Alternative("first-point=sklearn", {"first_point": "sklearn"}),
                Alternative("first-point=spark", {"first_point": "spark"}),
                *_CURVE_TRANSFORMS,
                *_with_first_point(_CURVE_TRANSFORMS),
            ),
            ("N2",),
        ),
        MetricSpec(
            "auc_trapezoid",
            "scalar",
            "Trapezoid area under the PR curve through every operating point.",
            {"ties": "group", "first-point": "none", "undefined": "raise"},
            lambda x, first_point="none": _area(x, "trapezoid", first_point),
            (
                Alternative("first-point=sklearn", {"first_point": "sklearn"}),
                Alternative("first-point=spark", {"first_point": "spark"}),
                *_with_first_point(_CURVE_TRANSFORMS),
            ),
            ("B2",),
        ),
        MetricSpec(
            "auc_davis_goadrich",
            "scalar",
            "Davis-Goadrich area: FP linear in TP between consecutive tables, integrated exactly.",
            {"ties": "group", "first-point": "spark", "undefined": "raise"},
            lambda x, first_point="spark": _area(x, "davis-goadrich", first_point),
            (Alternative("first-point=none", {"first_point": "none"}),),
            ("B2", "B4"),
        ),
        MetricSpec(
            "fbeta_at_threshold",
            "scalar",
            "F-beta = (1+b^2) TP / ((1+b^2) TP + FP + b^2 FN) of the classifier score >= threshold (F2).",
            {"threshold": ">=", "undefined": "raise"},
            _fbeta,
            _THRESHOLD_ALTERNATIVES,
            ("F1", "F2"),
        ),
        MetricSpec(
            "precision_at_threshold",
            "scalar",
            "Precision TP/(TP+FP) of the classifier score >= threshold.",
            {"threshold": ">=", "undefined": "raise"},
            _precision_at_t,
            _THRESHOLD_ALTERNATIVES,
        ),
        MetricSpec(
            "recall_at_threshold",
            "scalar",
            "Recall TP/(TP+FN) of the classifier score >= threshold.",
            {"threshold": ">=", "undefined": "raise"},
            _recall_at_t,
            _THRESHOLD_ALTERNATIVES,
        ),
        MetricSpec(
            "prg_curve",
            "curve",
            "Recall gain and precision gain (F5) at every operating point with TP > 0.",
            {"ties": "group", "undefined": "raise"},
            lambda x: _prg_curve(x),
            (),
            ("F5", "F7"),
        ),
        MetricSpec(
            "precision_at_k",
            "scalar",
            "P@k = TP(top k)/k; missing predictions when k > n count as false positives (N4).",
            {"ties": "expected"},
            _retrieval("precision_at_k"),
            _RETRIEVAL_ALTERNATIVES,
            ("N4",),
        ),
        MetricSpec(
            "ap_at_k",
            "scalar",
            "AP@k = sum_{i<=k} P(i) rel(i) / min(k, pos) (N5).",
            {"ties": "expected", "normalisation": "min(k,pos)"},
            _retrieval("ap_at_k"),
            (
                *_RETRIEVAL_ALTERNATIVES,
                Alternative(
                    "normalisation=pos+ties=trec_eval", {"ties": "trec_eval", "normalise": "pos"}
                ),
                Alternative(
                    "normalisation=pos+ties=trec_eval+scores=float32",
                    {"ties": "trec_eval", "normalise": "pos"},
                    scores_float32,
                ),
                Alternative(
                    "normalisation=pos+ties=input-order",
                    {"ties": "input-order", "normalise": "pos"},
                ),
            ),
            ("N5",),
        ),
        MetricSpec(
            "r_precision",
            "scalar",
            "R-precision = P@R with R the number of positives.",
            {"ties": "expected"},
            _retrieval("r_precision"),
            _RETRIEVAL_ALTERNATIVES,
        ),
        MetricSpec(
            "roc_auc",
            "scalar",
            "ROC AUC = sum_k (FP_k - FP_{k-1}) (TP_k + TP_{k-1}) / (2 pos neg): the probability that a positive outscores a negative, a tie counting 1/2 (F12 background).",
            {"ties": "group", "undefined": "raise"},
            _roc_auc,
            _ROC_ALTERNATIVES,
            ("F12",),
        ),
        MetricSpec(
            "partial_roc_auc",
            "scalar",
            "McClish's standardised partial ROC AUC over FPR in [0, m] (m = params.max_fpr): (1 + (A - m^2/2)/(m - m^2/2))/2, A the area under the ROC curve of roc_auc up to FPR m, the crossing segment cut there linearly.",
            {"ties": "group", "undefined": "raise"},
            _partial_roc_auc,
            _ROC_ALTERNATIVES,
        ),
        MetricSpec(
            "auprg",
            "scalar",
            "AUPRG: area under the PRG curve for recall gain in [0, 1], inside the unit square (negative precision gain ignored).",
            {"negative-gain": "unit-square", "undefined": "raise"},
            _auprg,
            (Alternative("prg-area=signed", {"negative_gain": "signed"}),),
            ("F5", "F7", "F9"),
        ),
        MetricSpec(
            "aucpr_min",
            "closed-form",
            "AUCPR_min = 1 + (1 - pi) ln(1 - pi) / pi (B4); undefined at pi = 0 and 1.",
            {"undefined": "raise"},
            _aucpr_min,
            (Alternative("undefined=paper", {"convention": "paper"}),),
            ("B4", "B5"),
        ),
        MetricSpec(
            "ap_min",
            "closed-form",
            "AP_min = (1/pos) sum_{i=1..pos} i/(i+neg) (B6, X3).",
            {},
            lambda x: _ap_min(x),
            (),
            ("B6", "X3"),
        ),
        MetricSpec(
            "aucnpr",
            "closed-form",
            "AUCNPR = (AUCPR - AUCPR_min)/(1 - AUCPR_min) (B8).",
            {"undefined": "raise"},
            _aucnpr,
            (Alternative("undefined=paper", {"convention": "paper"}),),
            ("B8",),
        ),
    )
}


def evaluate(metric: str, x: Inputs, alternative: Alternative | None = None) -> Any:
    """The oracle's value of ``metric`` at ``x``, under the default or an alternative convention.

    Parameters
    ----------
    metric : str
        A key of :data:`METRICS`.
    x : Inputs
        The input.
    alternative : Alternative, optional
        The convention (default: the metric's defaults).

    Returns
    -------
    Any
        What the metric's ``compute`` returns (:class:`MetricSpec`).

    Examples
    --------
    Labels 1, 0, 1 with the first two tied: grouped, the tie is one step of recall 1/2 at
    precision 1/2, then the last positive adds 1/2 at precision 2/3:
    1/2 * 1/2 + 1/2 * 2/3 = 7/12. Ties broken optimistically: (1 + 2/3)/2 = 5/6:

    >>> import numpy as np
    >>> from prtheory.conformance.metrics import METRICS, Inputs, evaluate
    >>> x = Inputs(np.array([1, 0, 1]), np.array([0.5, 0.5, 0.2]))
    >>> optimistic = next(
    ...     a for a in METRICS["average_precision"].alternatives if a.name == "ties=optimistic"
    ... )
    >>> evaluate("average_precision", x), evaluate("average_precision", x, optimistic)
    (Fraction(7, 12), Fraction(5, 6))
    """
    spec = METRICS[metric]
    if alternative is None:
        return spec.compute(x)
    if alternative.transform is not None:
        x = alternative.transform(x)
    return spec.compute(x, **alternative.options)


def selected_metrics(metrics: Collection[str] | None) -> list[str]:
    """The metrics named in ``metrics``, in the order of :data:`METRICS` (all of them where
    ``metrics`` is None); every name must be a key of :data:`METRICS`.

    The one check of the ``metrics`` argument of the generator
    (:func:`~prtheory.conformance.generate.build_all`) and the runner
    (:func:`~prtheory.conformance.isolated.run_isolated`).

    Parameters
    ----------
    metrics : collection of str or None
        Metric names.

    Returns
    -------
    list of str
        The keys of :data:`METRICS` that ``metrics`` names (all where None).

    Raises
    ------
    InvalidInputError
        ``metrics: unknown [...]; known: ...`` for a name that is not a metric of the vectors,
        or ``metrics: a collection ...`` for one name passed as a string (each of its letters
        would be a name).

    Examples
    --------
    >>> from prtheory.conformance.metrics import selected_metrics
    >>> selected_metrics(["ap_min", "average_precision"])
    ['average_precision', 'ap_min']
    >>> selected_metrics(["ap", "ap_min", "ap"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    prtheory.errors.InvalidInputError: metrics: unknown ['ap']; known: average_precision, ...
    >>> selected_metrics("ap_min")
    Traceback (most recent call last):
    prtheory.errors.InvalidInputError: metrics: a collection of metric names, not one: 'ap_min'
    """
    if isinstance(metrics, str):
        raise InvalidInputError("metrics", f"a collection of metric names, not one: {metrics!r}")
    unknown = sorted(set(metrics or ()) - set(METRICS))
    if unknown:
        raise InvalidInputError("metrics", f"unknown {unknown}; known: {', '.join(METRICS)}")
    return list(METRICS) if metrics is None else [m for m in METRICS if m in metrics]


def combination_base(name: str, stored: dict[str, Any]) -> str | None:
    """For a combined convention ``a+b``, the first of its parts already stored, if any.

    Parameters
    ----------
    name : str
        A convention's name, its parts joined by ``+``.
    stored : dict
        The alternatives a vector stores, by name.

    Returns
    -------
    str or None
        The first part of ``name`` in ``stored``; ``None`` for a single convention or when no
        part is stored.

    Examples
    --------
    >>> from prtheory.conformance.metrics import combination_base
    >>> stored = {"scores=float32": 0.5}
    >>> combination_base("ties=trec_eval+scores=float32", stored)
    'scores=float32'
    >>> combination_base("scores=float32", stored) is None
    True
    """
    parts = name.split("+")
    if len(parts) == 1:
        return None
    return next((p for p in parts if p in stored), None)
