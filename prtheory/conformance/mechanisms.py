"""Named mechanisms that explain an implementation's divergences, and the search for the fewest.

A :class:`Mechanism` is a hypothesis about what an implementation does differently, written as a
function that predicts what it gives on a vector: an exact value computed by the oracle (on the
vector's input as that mechanism transforms it), :data:`~prtheory.conformance.predictions.ANY` number, :data:`~prtheory.conformance.predictions.RAISES` (an
exception), :data:`~prtheory.conformance.predictions.UNDEFINED` (0/0 under that convention: an exception or NaN), or ``None`` (it
says nothing about that vector). Nothing is ever predicted from the
implementation under test. The mechanisms are a table (:data:`DEFINITIONS`, :data:`HANDLING`:
one :class:`MechanismSpec` per mechanism, with its prediction, the metrics it applies to and its
source); :func:`mechanisms` lists those of a metric. Mechanisms modelled:

* every named convention of the metric (:mod:`prtheory.conformance.metrics`): the tie policies
  (``ties=input-order`` is a stable sort, ``ties=trec_eval`` the doc-id rule),
  ``inf-ties=input-order``, ``scores=float32``, ``sigmoid-on-logits``, the first-point
  conventions, ``threshold=strict`` (``score > t``), ``undefined=sklearn`` (0.0 where the metric
  is 0/0) and ``undefined=paper``; each predicts the value the vector stores under that
  convention (the default value where none is stored); ``scores=float32``,
  ``sigmoid-on-logits`` and ``inf-ties=input-order`` are computed for metrics whose vectors do
  not store them;
* ``ties=torch-sort``: the items in the order ``torch.topk(scores, min(k, n), sorted=True)``
  returns them for the float32 scores (torchmetrics casts ``preds`` to float32;
  ``torch.argsort(descending=True)`` for R-precision), which is not stable: the value is the
  oracle's for that order (needs torch; it predicts nothing without it);
  ``+nonpositive-irrelevant``: also a relevant item whose float32 score is <= 0 counts as
  non-relevant (0 when none is left), as torchmetrics' retrieval metrics
  (``torch.where(preds > 0, target, 0)``); ``+normalisation=hits``: AP@k divided by the relevant
  items found in the top k;
* ``ties=numba-quicksort``: the items in the order numba's ``np.argsort`` (a quicksort, stable
  only below 16 items) gives the negated scores, as ranx ranks a query's documents (needs
  numba);
* ``trapezoid-for-step``: the trapezoid area under the PR curve (B2) returned as step AP (N2)
  (``+first-point=sklearn``/``spark``/``mllib``: with that point at recall 0);
  ``riemann-minoring`` /
  ``riemann-majoring``: ``sum (R_i - R_{i-1}) min(P_i, P_{i-1})`` (``max``) over consecutive
  operating points, (R, P) = (0, 0) above the top score, as Keras's ``summation_method``
  (``+scores=float32``: of the scores rounded to float32);
* ``first-point=mllib`` (trapezoid areas): Spark MLlib's first point, whose empty classifier
  has precision 1 (:mod:`prtheory.oracle.conventions`);
* ``step-for-trapezoid`` / ``step-for-davis-goadrich``: step AP (N2) returned as an area;
* ``linear-for-davis-goadrich`` / ``davis-goadrich-for-linear``: the straight line in PR space
  between operating points in place of Davis-Goadrich interpolation (B2, B4), and back;
* ``interpolated``, ``interpolated-11-point``, ``normalisation=items``: other definitions of AP
  (:mod:`prtheory.conformance.ap_variants`); ``weights-rounded`` / ``weights-truncated``:
  weights rounded (truncated) to integers first;
* ``float32-accumulation``: the exact value computed in float32. It composes with every other
  mechanism: a set that holds it matches each prediction within the float32 tolerance;
* ``weights-ignored`` (the value without ``sample_weight``), ``weights-normalised`` (weights
  divided by their float64 sum first: the value is unchanged unless the sum overflows),
  ``weights-clipped`` (negative weights taken as 0); ``weights-overflow`` and
  ``weights-float32-overflow``: NaN where the weights or their sum overflow in float64
  (float32); ``weights-overflow+nan-clipped-to-0``: that NaN through ``max(0.0, x)``;
  ``weights-float32-underflow+undefined=sklearn``: 0 where every positive weight is
  0 in float32;
* a library's own float arithmetic or guard, evaluated on the oracle's exact counts
  (:mod:`prtheory.conformance.library_models`): ``undefined=sklearn`` for curves,
  ``fbeta-float64-overflow`` / ``fbeta-float32-overflow`` (a :class:`~prtheory.conformance.predictions.Crash` where ``beta**2``
  overflows), ``prg-skew=odds`` (the ``precision-recall-gain`` package),
  ``prg-gains-clipped`` (``sklearn-prg``) and ``undefined=pyprg``;
* ``rejects-no-relevant``: an exception for a ranking with no relevant item;
* ``undefined=0.5``, ``undefined=-0.0`` (``undefined=NaN`` is the default: NaN agrees);
* ``nan=first`` / ``nan=last``: a NaN score ranked above (below) every other score, as a
  ``diff() != 0`` tie test (NaN != x) after numpy's sort (NaN last) places it;
* ``relevance=nonzero``: graded labels with every nonzero label relevant (-1 too); and
  ``relevance=gain``: P@k as the mean gain (label value) of the top k, not the fraction relevant
  (label >= 1 and label > 0 agree on integer labels, the vectors' default);
* ``rejects-infinite-scores`` / ``rejects-integer-scores``: an exception for ±inf scores or for
  integer scores, which are valid;
* ``no-input-validation``: any number returned for malformed input.

Call-pattern mechanisms (``binned(n thresholds)``, ``sigmoid-per-batch(k)``) depend on how an
implementation is called; their predictions come from the runner (``extra`` of :func:`diagnose`).

:func:`diagnose` finds the smallest set of mechanisms that explains every divergent vector it can:
a mechanism *explains* a vector when its prediction matches the result; it is *contradicted* (and
dropped) when, on a vector the implementation got right, it predicts a different value. A
mechanism that is alone in explaining some vector is in every cover; the rest are searched
exhaustively up to :data:`MAX_SEARCH` more, then greedily. Among covers of one size, those with
more of the implementation's declared conventions (``prefer``), then those found for the same
library elsewhere (``consistent``), then those that predict exact values rather than :data:`~prtheory.conformance.predictions.ANY`,
then those whose mechanisms explain more vectors, come first. A divergence no mechanism explains is reported as unexplained.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from prtheory.conformance import ap_variants, external_mechanisms, library_models
from prtheory.conformance.encoding import Value
from prtheory.conformance.metrics import (
    METRICS,
    Alternative,
    Inputs,
    combination_base,
    evaluate,
    scores_float32,
    sigmoid_on_logits,
    split_infinite_ties,
)
from prtheory.conformance.predictions import (
    ANY,
    NAN,
    RAISES,
    UNDEFINED,
    Crash,
    Mechanism,
    Raised,
    encoded,
    fits,
    scalar,
)
from prtheory.conformance.vectors_io import Vector
from prtheory.errors import InvalidInputError, UndefinedMetricError

__all__ = [
    "ANY",
    "DEFINITIONS",
    "FLOAT32",
    "HANDLING",
    "MAX_SEARCH",
    "NAN",
    "RAISES",
    "UNDEFINED",
    "Crash",
    "Diagnosis",
    "Mechanism",
    "MechanismSpec",
    "Raised",
    "contradicted",
    "diagnose",
    "mechanisms",
    "oracle_mechanism",
    "unweighted",
]

FLOAT32 = "float32-accumulation"
#: mechanisms searched exhaustively beyond those that alone explain some vector
MAX_SEARCH = 3


def _oracle(metric: str, x: Inputs, alt: Alternative | None = None) -> Any:
    try:
        return encoded(evaluate(metric, x, alt))
    except (UndefinedMetricError, InvalidInputError):
        return None


def _default(v: Vector) -> Any:
    return v.expected if v.result in ("valid", "acceptable") else None


def _stored(name: str) -> Callable[[Vector], Any]:
    """The vector's stored value under convention ``name``; where none is stored, the value it was left out
    for being equal to: for a combination ``a+b`` with a stored part, the first stored part's
    value (the generator stores every combination that differs from it, even one equal to the
    expected value); otherwise the expected value."""
    undefined = name.startswith("undefined=")

    def predict(v: Vector) -> Any:
        if name in v.alternatives:
            return v.alternatives[name]
        if not undefined and any(k.startswith(name + "+undefined=") for k in v.alternatives):
            return UNDEFINED  # 0/0 under this convention: only an undefined-value one is stored
        base = combination_base(name, v.alternatives)
        if base is not None:
            return v.alternatives[base]
        if undefined and v.result == "undefined":
            return None
        return _default(v)

    return predict


def _transformed(
    name: str, transform: Callable[[Inputs], Inputs | None], **options: Any
) -> Callable[[Vector], Any]:
    """The oracle's value under ``options`` of a valid (or acceptable) vector's input as
    ``transform`` changes it (``None``: no prediction)."""

    def predict(v: Vector) -> Any:
        if v.result not in ("valid", "acceptable") or v.inputs.y_score is None:
            return None
        x = transform(v.inputs)
        return None if x is None else _oracle(v.metric, x, Alternative(name, options))

    return predict


def oracle_mechanism(
    name: str, description: str, transform: Callable[[Inputs], Inputs | None], **options: Any
) -> Mechanism:
    """A mechanism that transforms a valid (or acceptable) vector's input and evaluates the
    oracle under ``options``.

    Parameters
    ----------
    name, description : str
        The mechanism's name and what it does.
    transform : callable
        Inputs -> the inputs as the implementation is thought to see them (``None``: no
        prediction for that vector).
    **options
        The oracle's options (a convention's name and value, as in
        :class:`~prtheory.conformance.metrics.Alternative`).

    Returns
    -------
    Mechanism
        Predicting the oracle's value at the transformed input.

    Examples
    --------
    >>> from prtheory.conformance.mechanisms import oracle_mechanism
    >>> from prtheory.conformance.metrics import scores_float32
    >>> oracle_mechanism("scores=float32", "scores rounded to float32", scores_float32).name
    'scores=float32'
    """
    return Mechanism(name, description, _transformed(name, transform, **options))


def unweighted(v: Vector) -> Any:
    """The oracle's value of ``v`` without its weights (``None`` where that is undefined).

    A vector that is undefined only because of its weights (zero weight on every positive) has
    a value without them.

    Parameters
    ----------
    v : Vector
        The vector.

    Returns
    -------
    Value or None
        The oracle's value of its input without ``sample_weight`` (its expected value when it has
        no weights); ``None`` for an invalid vector.

    Examples
    --------
    Precision at threshold 1/2 of labels 1, 0 scored 0.9, 0.5 with weights 1, 3 is
    1/(1 + 3) = 1/4; without the weights 1/2:

    >>> import numpy as np
    >>> from fractions import Fraction
    >>> from prtheory.conformance.encoding import encode_value
    >>> from prtheory.conformance.mechanisms import unweighted
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.vectors_io import Vector
    >>> x = Inputs(np.array([1, 0]), np.array([0.9, 0.5]), np.array([1.0, 3.0]),
    ...            {"threshold": Fraction(1, 2)})
    >>> v = Vector("precision_at_threshold", 1, "", (), x, "valid", encode_value(Fraction(1, 4)),
    ...            {}, None)
    >>> unweighted(v).exact
    Fraction(1, 2)
    """
    if v.result == "invalid":
        return None
    if v.inputs.sample_weight is None:
        return _default(v)
    return _oracle(v.metric, replace(v.inputs, sample_weight=None))


def _weighted_transform(fn: Callable[[np.ndarray], np.ndarray]) -> Callable[[Vector], Any]:
    def predict(v: Vector) -> Any:
        w = v.inputs.sample_weight
        if w is None or v.inputs.y_score is None:
            return None
        with np.errstate(all="ignore"):
            new = fn(np.asarray(w, dtype=np.float64))
        if np.array_equal(new, np.asarray(w, dtype=np.float64)) or not np.isfinite(new).all():
            return None
        value = _oracle(v.metric, replace(v.inputs, sample_weight=new))
        return UNDEFINED if value is None else value

    return predict


def _weights_overflow(dtype: Any) -> Callable[[Vector], Any]:
    """NaN for a scalar metric where the weights, cast to ``dtype``, or their sum in ``dtype``
    overflow to inf (inf/inf in the normalisation); no prediction otherwise (curves, unweighted
    or invalid vectors, and weights that stay finite)."""

    def predict(v: Vector) -> Any:
        w = v.inputs.sample_weight
        if w is None or v.result != "valid" or METRICS[v.metric].kind != "scalar":
            return None
        with np.errstate(over="ignore"):
            cast = np.asarray(w, dtype=np.float64).astype(dtype)
            total = np.sum(cast, dtype=dtype)
        return NAN if np.isinf(cast).any() or np.isinf(total) else None

    return predict


def _overflow_clipped(v: Vector) -> Any:
    """0.0 where ``weights-overflow`` predicts NaN: ``max(0.0, nan)`` is ``0.0`` in Python."""
    return scalar(0.0) if _weights_overflow(np.float64)(v) is NAN else None


def _weights_underflow(v: Vector) -> Any:
    """0.0 where every positive weight is 0 once cast to float32 (subnormal float64 weights):
    the implementation sees no positive weight and returns 0 for the 0/0 (as ``undefined=
    sklearn``)."""
    w, x = v.inputs.sample_weight, v.inputs
    if w is None or v.result != "valid" or METRICS[v.metric].kind != "scalar":
        return None
    with np.errstate(all="ignore"):
        cast = np.asarray(w, dtype=np.float64).astype(np.float32)
    positive = np.asarray(x.y_true) == 1
    return scalar(0.0) if not cast[positive].any() and positive.any() else None


def _rejects_no_relevant(v: Vector) -> Any:
    """An exception for a valid ranking with no relevant item (pyspark's ``RankingMetrics``
    infers the schema of the relevant-id lists, and an empty list has no type)."""
    x = v.inputs
    if v.result != "valid" or x.y_true is None or np.asarray(x.y_true).astype(bool).any():
        return None
    return RAISES


def _nan_placed(first: bool) -> Callable[[Vector], Any]:
    """The NaN-score vector's value with each NaN ranked above (below) every other score."""

    def predict(v: Vector) -> Any:
        x = v.inputs
        if x.y_score is None or v.result != "invalid":
            return None
        s = np.asarray(x.y_score, dtype=np.float64)
        nan = np.isnan(s)
        if not nan.any() or np.isinf(s).any():
            return None
        top, bottom = s[~nan].max(initial=0.0), s[~nan].min(initial=0.0)
        placed = np.where(nan, top + 1.0 if first else bottom - 1.0, s)
        return _oracle(v.metric, replace(x, y_score=placed))

    return predict


def _graded(rule: Callable[[np.ndarray], np.ndarray]) -> Callable[[Inputs], Inputs | None]:
    def transform(x: Inputs) -> Inputs | None:
        if "relevant_at" not in x.params:
            return None
        params = {k: val for k, val in x.params.items() if k != "relevant_at"}
        return replace(x, y_true=rule(np.asarray(x.y_true)).astype(np.int64), params=params)

    return transform


def _mean_gain_at_k(v: Vector) -> Any:
    """P@k with gains: the sum of the labels of the top k (expected over tie orders) over k."""
    from fractions import Fraction

    from prtheory.oracle.retrieval import precision_at_k

    x = v.inputs
    if "relevant_at" not in x.params or v.metric != "precision_at_k":
        return None
    labels = np.asarray(x.y_true)
    k = int(x.params["k"])
    # sum_g g * 1[label = g], each indicator's P@k by the oracle
    total = sum(
        (
            int(g) * precision_at_k((labels == g).astype(np.int64), x.scores, k)
            for g in np.unique(labels)
            if g != 0
        ),
        Fraction(0),
    )
    return encoded(total)


def _torch_order(metric: str, scores: np.ndarray, k: int | None) -> np.ndarray | None:
    """Item indices in the order torchmetrics reads them: ``preds.topk(min(k, n))`` (``k``
    None: all n), the items left out following in ``topk(n)`` order; ``torch.argsort(preds,
    descending=True)`` for R-precision. ``scores`` are float32 values."""
    try:
        import torch
    except ImportError:  # pragma: no cover - torch is an optional extra
        return None
    s = torch.from_numpy(scores.astype(np.float32))
    if metric == "r_precision":
        return torch.argsort(s, descending=True).numpy()
    full = s.topk(s.numel(), sorted=True).indices.numpy()
    if k is None or k >= s.numel():
        return full
    top = s.topk(k, sorted=True).indices.numpy()
    return np.concatenate([top, full[~np.isin(full, top)]])


def _torch_sort(drop_nonpositive: bool = False, hits: bool = False) -> Callable[[Vector], Any]:
    """The oracle's value with the items in torch's order (ties item by item in that order) of
    the float32 scores (torchmetrics casts ``preds`` to float32 first); ``drop_nonpositive``:
    relevant items whose float32 score is <= 0 count as non-relevant and no relevant item left
    gives 0; ``hits``: AP@k divided by the relevant items in the top k."""

    def predict(v: Vector) -> Any:
        x = v.inputs
        if v.result not in ("valid", "acceptable") or x.y_score is None:
            return None
        if x.sample_weight is not None or "relevant_at" in x.params:
            return None
        with np.errstate(over="ignore", under="ignore"):
            s = np.asarray(x.y_score, dtype=np.float64).astype(np.float32)
        if np.isnan(s).any():
            return None
        k = int(x.params["k"]) if "k" in x.params else None
        order = _torch_order(v.metric, s, k)
        if order is None:
            return None
        y = np.asarray(x.y_true)[order]
        if drop_nonpositive:
            y = np.where(s[order] > 0, y, 0)
        moved = replace(x, y_true=y, y_score=s[order].astype(np.float64))
        options: dict[str, Any] = {"ties": "input-order"}
        if v.metric == "average_precision" and drop_nonpositive:
            options["convention"] = "sklearn"
        if not y.any() and drop_nonpositive:
            return scalar(0.0)
        value = _oracle(v.metric, moved, Alternative("ties=torch-sort", options))
        if hits and value is not None:
            from prtheory.oracle.retrieval import precision_at_k

            assert k is not None
            found = precision_at_k(moved.labels, moved.scores, k, ties="input-order") * k
            if found == 0:
                return scalar(0.0)
            value = encoded(value.exact * min(k, int(y.sum())) / found)
        return value

    return predict


def _infinite_ties_split_in_torch_order(name: str, **options: str) -> Callable[[Vector], Any]:
    """The oracle's value (under ``options``) where every item of a tie at +inf (or -inf) is an
    operating point of its own, in the order ``torch.sort(scores, descending=True)`` (not
    stable) gives them: torcheval marks a new threshold where ``threshold.diff() != 0``, and
    ``inf - inf`` is NaN, which differs from 0. Finite ties stay tied (their order inside the
    tie changes nothing). No prediction without a tie at an infinity, with weights (torcheval
    takes none) or with a declared score dtype."""
    alternative = Alternative(name, dict(options))

    def predict(v: Vector) -> Any:
        x = v.inputs
        if v.result not in ("valid", "acceptable") or x.y_score is None:
            return None
        if x.sample_weight is not None or "dtype" in x.params:
            return None
        s = np.asarray(x.y_score, dtype=np.float64)
        tied = max(np.count_nonzero(s == np.inf), np.count_nonzero(s == -np.inf))
        if np.isnan(s).any() or tied < 2:
            return None
        try:
            import torch
        except ImportError:  # pragma: no cover - torch is an optional extra
            return None
        order = torch.sort(torch.from_numpy(s), descending=True).indices.numpy()
        moved = replace(x, y_true=np.asarray(x.y_true)[order], y_score=s[order])
        return _oracle(v.metric, split_infinite_ties(moved), alternative)

    return predict


@functools.cache
def _numba_argsort() -> Callable[[np.ndarray], np.ndarray] | None:
    """``np.argsort`` compiled by numba (its quicksort: insertion sort below 16 items, not
    stable above), as ranx calls it inside ``njit``; None without numba."""
    try:
        from numba import njit
    except ImportError:  # pragma: no cover - numba comes with ranx, an optional extra
        return None

    @njit(cache=False)
    def argsort(a: np.ndarray) -> np.ndarray:  # pragma: no cover - runs compiled
        return np.argsort(a)

    return argsort


def _numba_sort(name: str, **options: str) -> Callable[[Vector], Any]:
    """The oracle's value (under ``options`` besides the ties) with the items in the order
    numba's ``np.argsort`` gives the negated scores (ranx's ``typed_list_argosrt([-v for v in
    values])``, the documents first sorted by id, which is input order here); ties item by item
    in that order. Below 16 items that order is the input order (insertion sort), so the
    prediction is ``ties=input-order``'s there, and the diagnosis tells the two apart where they
    differ."""
    alternative = Alternative(name, {"ties": "input-order", **options})

    def predict(v: Vector) -> Any:
        x = v.inputs
        if v.result not in ("valid", "acceptable") or x.y_score is None:
            return None
        if x.sample_weight is not None or "relevant_at" in x.params:
            return None
        s = np.asarray(x.y_score, dtype=np.float64)
        argsort = _numba_argsort()
        if argsort is None or np.isnan(s).any():
            return None
        order = np.asarray(argsort(-s))
        moved = replace(x, y_true=np.asarray(x.y_true)[order], y_score=s[order])
        return _oracle(v.metric, moved, alternative)

    return predict


def _area(method: str, first_point: str) -> Callable[[Vector], Any]:
    def predict(v: Vector) -> Any:
        if v.result != "valid" or v.inputs.y_score is None:
            return None
        from prtheory.oracle.areas import pr_auc

        x = v.inputs
        try:
            if method == "davis-goadrich":
                from prtheory.oracle import rounded

                args = (x.labels, x.scores, x.sample_weight)
                value: object = (
                    pr_auc(*args, method=method, first_point=first_point, dps=60),
                    rounded(pr_auc, *args, method=method, first_point=first_point),
                )
            else:
                value = pr_auc(
                    x.labels, x.scores, x.sample_weight, method=method, first_point=first_point
                )
        except (UndefinedMetricError, InvalidInputError):
            return None
        return encoded(value)

    return predict


def _riemann(pick: Callable[[Any, Any], Any], float32: bool) -> Callable[[Vector], Any]:
    """``sum (R_i - R_{i-1}) pick(P_i, P_{i-1})`` over the operating points, highest threshold
    first, with (R, P) = (0, 0) at the threshold above every score: Keras's minoring (min) and
    majoring (max);
    ``float32``: of the scores rounded to float32 first."""

    def predict(v: Vector) -> Any:
        if v.result != "valid" or v.inputs.y_score is None:
            return None
        from fractions import Fraction

        from prtheory.oracle.counts import operating_points

        x = scores_float32(v.inputs) if float32 else v.inputs
        try:
            pts = operating_points(x.labels, x.scores, x.sample_weight)
        except (UndefinedMetricError, InvalidInputError):
            return None
        if pts.pos == 0:
            return None
        # the empty classifier (zero weight at the top: TP + FP = 0) is no point
        tables = [(int(t), int(f)) for t, f in zip(pts.tp, pts.fp, strict=True) if t + f > 0]
        r = [Fraction(0)] + [Fraction(t, pts.pos) for t, _ in tables]
        p = [Fraction(0)] + [Fraction(t, t + f) for t, f in tables]
        total = sum(
            ((r[i] - r[i - 1]) * pick(p[i], p[i - 1]) for i in range(1, len(r))), Fraction(0)
        )
        return encoded(total)

    return predict


def _step_ap(v: Vector) -> Any:
    """Step AP (N2, tied scores grouped) of a valid vector of an area metric."""
    if v.result != "valid" or v.inputs.y_score is None:
        return None
    return _oracle("average_precision", v.inputs)


def _infinite_rejected(v: Vector) -> Any:
    s = v.inputs.y_score
    if v.result != "valid" or s is None or not np.isinf(np.asarray(s, dtype=np.float64)).any():
        return None
    return RAISES


def _integer_rejected(v: Vector) -> Any:
    dtype = v.inputs.params.get("dtype")
    if v.result != "valid" or dtype is None or np.dtype(dtype).kind not in "iu":
        return None
    return RAISES


def _undefined(value: float) -> Callable[[Vector], Any]:
    def predict(v: Vector) -> Any:
        if v.result != "undefined" or METRICS[v.metric].kind != "scalar":
            return None
        return scalar(value)

    return predict


def _unvalidated(v: Vector) -> Any:
    """Any number for malformed input (accepted without an error)."""
    return ANY if v.result == "invalid" else None


# ------------------------------------------------------------------------------------------
# the table of mechanisms


def _always(metric: str) -> bool:
    return True


def _bound_float32(v: Vector) -> Any:
    """NaN where the partial ROC AUC's bound ``max_fpr`` rounds to 0 in float32 (torchmetrics'
    ``_binary_auroc_compute``: ``max_area = tensor(max_fpr)``, torch's default float32); nothing
    elsewhere, where the rounded bound moves the value by less than the float32 results'
    tolerance."""
    x = v.inputs
    if v.result != "valid" or "max_fpr" not in x.params:
        return None
    m = float(x.params["max_fpr"])
    return NAN if m > 0 and np.float32(m) == 0 else None


def _only(*metrics: str) -> Callable[[str], bool]:
    """Applies to the named metrics."""
    return lambda metric: metric in metrics


def _unless_stored(name: str, kinds: tuple[str, ...] | None = None) -> Callable[[str], bool]:
    """Applies to metrics (of ``kinds``; ``None``: any) whose vectors do not store the
    convention ``name``."""

    def applies(metric: str) -> bool:
        spec = METRICS[metric]
        kind_fits = kinds is None or spec.kind in kinds
        return kind_fits and name not in {a.name for a in spec.alternatives}

    return applies


def _ranked_unless_stored(name: str) -> Callable[[str], bool]:
    """Applies to the metrics of a ranking (not the closed forms) that do not store ``name``."""
    stored = _unless_stored(name)
    return lambda metric: METRICS[metric].kind != "closed-form" and stored(metric)


@dataclass(frozen=True)
class MechanismSpec:
    """One row of the table of mechanisms: a name, what it predicts, where it applies and where
    the behaviour comes from.

    Parameters
    ----------
    name : str
        The mechanism's name (``+`` joins the parts of a combination).
    description : str
        What the implementation does, in a line (the report prints it).
    predict : callable
        Vector -> the predicted result, or ``None`` where the mechanism says nothing.
    applies : callable
        Metric name -> whether the mechanism is modelled for that metric.
    source : str
        Where the behaviour is documented or found (a library, a claim id); empty for a
        hypothesis about arithmetic in general.

    Examples
    --------
    >>> from prtheory.conformance.mechanisms import DEFINITIONS
    >>> row = next(r for r in DEFINITIONS if r.name == "riemann-minoring")
    >>> row.applies("average_precision"), row.applies("roc_auc")
    (True, False)
    """

    name: str
    description: str
    predict: Callable[[Vector], Any]
    applies: Callable[[str], bool] = _always
    source: str = ""

    def mechanism(self) -> Mechanism:
        """The row as a :class:`~prtheory.conformance.predictions.Mechanism`.

        Returns
        -------
        Mechanism
            Its name, description and prediction.
        """
        return Mechanism(self.name, self.description, self.predict)


_TORCH = "torchmetrics' retrieval metrics and binary_average_precision"


def _riemann_rows() -> list[MechanismSpec]:
    rows = []
    for f32 in (False, True):
        tail = "+scores=float32" if f32 else ""
        rounded = ", of the scores rounded to float32" if f32 else ""
        for kind, pick in (("minoring", min), ("majoring", max)):
            rows.append(
                MechanismSpec(
                    f"riemann-{kind}{tail}",
                    f"sum (R_i - R_(i+1)) {pick.__name__}(P_i, P_(i+1)) in place of step AP"
                    f"{rounded}",
                    _riemann(pick, f32),
                    _only("average_precision"),
                    "Keras AUC(curve='PR', summation_method)",
                )
            )
    return rows


#: mechanisms of a metric's definition (orderings, areas, AP variants, a library's own float
#: arithmetic), in the order :func:`mechanisms` lists them after the stored conventions
DEFINITIONS: tuple[MechanismSpec, ...] = (
    MechanismSpec(
        "undefined=sklearn",
        "0 substituted for 0/0",
        _undefined(0.0),
        _unless_stored("undefined=sklearn", ("scalar",)),
        "prtheory.oracle.conventions",
    ),
    *(
        MechanismSpec(
            name,
            f"the {name} convention",
            _transformed(name, transform),
            _ranked_unless_stored(name),
            "prtheory.conformance.metrics",
        )
        for name, transform in (
            ("scores=float32", scores_float32),
            ("sigmoid-on-logits", sigmoid_on_logits),
            ("inf-ties=input-order", split_infinite_ties),
        )
    ),
    MechanismSpec(
        "inf-ties=torch-sort",
        "items tied at +inf (or -inf) split into operating points of their own (inf - inf is "
        "NaN, not 0), in the order torch.sort(descending=True) gives them",
        _infinite_ties_split_in_torch_order("inf-ties=torch-sort"),
        _only("average_precision"),
        "torcheval's _compute_for_each_class",
    ),
    MechanismSpec(
        "inf-ties=torch-sort+first-point=sklearn",
        "as inf-ties=torch-sort, the curve starting at (0, 1) (torcheval's precision_recall_curve)",
        _infinite_ties_split_in_torch_order(
            "inf-ties=torch-sort+first-point=sklearn", first_point="sklearn"
        ),
        _only("pr_curve"),
        "torcheval's _compute_for_each_class",
    ),
    MechanismSpec(
        "ties=torch-sort",
        "tied items in the order torch.topk / torch.argsort(descending=True) give them",
        _torch_sort(),
        _only("average_precision", "ap_at_k", "precision_at_k", "r_precision"),
        _TORCH,
    ),
    MechanismSpec(
        "ties=numba-quicksort",
        "tied items in the order numba's np.argsort (a quicksort, insertion sort below 16 "
        "items) gives the negated scores",
        _numba_sort("ties=numba-quicksort"),
        _only("average_precision", "ap_at_k", "precision_at_k", "r_precision"),
        "ranx's typed_list_argosrt",
    ),
    MechanismSpec(
        "normalisation=pos+ties=numba-quicksort",
        "as ties=numba-quicksort, AP@k divided by every relevant item, not min(k, pos)",
        _numba_sort("normalisation=pos+ties=numba-quicksort", normalise="pos"),
        _only("ap_at_k"),
        "ranx's map@k: typed_list_argosrt, then the sum over the top k divided by the "
        "relevant items",
    ),
    MechanismSpec(
        "ties=torch-sort+nonpositive-irrelevant",
        "ties in torch's order, and a relevant item whose float32 score is <= 0 counts "
        "as non-relevant (0 when none is left)",
        _torch_sort(drop_nonpositive=True),
        _only("average_precision", "ap_at_k", "precision_at_k"),
        _TORCH + ": torch.where(preds > 0, target, 0)",
    ),
    MechanismSpec(
        "ties=torch-sort+nonpositive-irrelevant+normalisation=hits",
        "as ties=torch-sort+nonpositive-irrelevant, AP@k divided by the relevant items "
        "found in the top k instead of min(k, pos)",
        _torch_sort(drop_nonpositive=True, hits=True),
        _only("ap_at_k"),
        _TORCH,
    ),
    MechanismSpec(
        "trapezoid-for-step",
        "trapezoid area under the PR curve (B2) in place of step AP (N2)",
        _area("trapezoid", "none"),
        _only("average_precision"),
        "B2, N2",
    ),
    MechanismSpec(
        "trapezoid-for-step+first-point=sklearn",
        "trapezoid area from sklearn's point (0, 1) in place of step AP (N2)",
        _area("trapezoid", "sklearn"),
        _only("average_precision"),
        "scikit-learn's precision_recall_curve",
    ),
    MechanismSpec(
        "trapezoid-for-step+first-point=spark",
        "trapezoid area from (0, precision of the first point) in place of step AP (N2)",
        _area("trapezoid", "spark"),
        _only("average_precision"),
        "Spark's BinaryClassificationMetrics",
    ),
    MechanismSpec(
        "trapezoid-for-step+first-point=mllib",
        "trapezoid area from MLlib's first point (0, 1 if the top block has no weight, "
        "else p_first) in place of step AP (N2)",
        _area("trapezoid", "mllib"),
        _only("average_precision"),
        "Spark MLlib's BinaryClassificationMetrics",
    ),
    *_riemann_rows(),
    MechanismSpec(
        "interpolated",
        "all-point interpolated AP: each precision replaced by the best at any higher recall",
        ap_variants.interpolated,
        _only("average_precision"),
        "prtheory.conformance.ap_variants",
    ),
    MechanismSpec(
        "interpolated-11-point",
        "PASCAL VOC 2007: the mean over recall 0, 0.1, ..., 1 of the best precision there",
        ap_variants.interpolated_11_point,
        _only("average_precision"),
        "PASCAL VOC 2007 devkit",
    ),
    MechanismSpec(
        "normalisation=items",
        "the precisions at the positives divided by the number of items, not of positives",
        ap_variants.normalised_by_items,
        _only("average_precision"),
        "prtheory.conformance.ap_variants",
    ),
    *(
        MechanismSpec(
            f"step-for-{area}",
            f"step AP (N2) returned as the {area} area under the PR curve",
            _step_ap,
            _only(metric),
            "N2",
        )
        for metric, area in (
            ("auc_trapezoid", "trapezoid"),
            ("auc_davis_goadrich", "davis-goadrich"),
        )
    ),
    MechanismSpec(
        "linear-for-davis-goadrich",
        "straight lines between the PR points in place of Davis-Goadrich interpolation",
        _area("trapezoid", "spark"),
        _only("auc_davis_goadrich"),
        "B2, B4",
    ),
    MechanismSpec(
        "first-point=mllib",
        "MLlib's first point: (0, 1) when the top-scored block has zero weight (the "
        "empty classifier's precision taken as 1), else (0, p_first)",
        _area("trapezoid", "mllib"),
        _only("auc_trapezoid"),
        "Spark MLlib's BinaryClassificationMetrics",
    ),
    MechanismSpec(
        "davis-goadrich-for-linear",
        "Davis-Goadrich interpolation in place of straight lines between the PR points",
        _area("davis-goadrich", "none"),
        _only("auc_trapezoid"),
        "B2, B4",
    ),
    *(
        MechanismSpec(
            f"{head}undefined=sklearn",
            "scikit-learn's curve where it is undefined: zero-weight items dropped, "
            "precision 0 where TP + FP = 0, recall 1 everywhere without positive weight",
            library_models.sklearn_curve_undefined(first),
            _only("pr_curve"),
            "scikit-learn's precision_recall_curve",
        )
        for first, head in (("none", ""), ("sklearn", "first-point=sklearn+"))
    ),
    MechanismSpec(
        "first-point=sklearn+weights-overflow",
        "scikit-learn's curve from float64 cumulative weights that overflow (inf/inf = NaN)",
        library_models.sklearn_curve_overflow,
        _only("pr_curve"),
        "scikit-learn's precision_recall_curve",
    ),
    MechanismSpec(
        "cumulative-weights-float64",
        "scikit-learn's ROC curve from float64 cumulative weights that lose a weight below half "
        "an ulp of the running sum or overflow (rates partial sum/inf = 0, inf/inf = NaN), "
        "cut at max_fpr and standardised where there is one",
        library_models.sklearn_roc_float64,
        _only("roc_auc", "partial_roc_auc"),
        "scikit-learn's roc_auc_score",
    ),
    MechanismSpec(
        "max_fpr=float32",
        "the bound max_fpr made a float32 tensor: below the least float32 it is 0, and the "
        "standardisation (A - m^2/2)/(m - m^2/2) is 0/0 = NaN",
        _bound_float32,
        _only("partial_roc_auc"),
        "torchmetrics' binary_auroc",
    ),
    MechanismSpec(
        "fbeta-float64-overflow",
        "beta**2 and (1 + b2) TP / (b2 (TP + FN) + TP + FP) in float64 overflow "
        "(OverflowError, or inf/inf = NaN)",
        library_models.fbeta_overflow(np.float64),
        _only("fbeta_at_threshold"),
        "scikit-learn's precision_recall_fscore_support (beta2 = beta**2)",
    ),
    MechanismSpec(
        "fbeta-float32-overflow",
        "beta**2 overflows, or (1 + b2) TP / ((1 + b2) TP + b2 FN + FP) in float32 "
        "overflows (x/inf = 0, inf/inf = NaN)",
        library_models.fbeta_overflow(np.float32),
        _only("fbeta_at_threshold"),
        "torchmetrics' _fbeta_reduce and _safe_divide",
    ),
    MechanismSpec(
        "prg-skew=odds",
        "gains with the odds P/N in place of pi, on the PR curve cut at full recall "
        "with (0, 1) appended, divisions unguarded (NaN, ±inf)",
        library_models.prg_odds,
        _only("prg_curve", "auprg"),
        "the precision-recall-gain package",
    ),
    MechanismSpec(
        "prg-gains-clipped",
        "gains on scikit-learn's whole PR curve with pi the mean label, NaN and ±inf taken "
        "as 0, negative gains clipped to 0 point by point, recall gain 1 where recall is 1; "
        "trapezoids over the points ordered by np.argsort(recall gain)",
        library_models.sklearn_prg_clipped,
        _only("prg_curve", "auprg"),
        "sklearn-prg",
    ),
    MechanismSpec(
        "undefined=pyprg",
        "PRG code's guard: precision gain 0, recall gain 1 where TN + FN = 0; other "
        "points 1 - inf; area 0 without negatives",
        library_models.pyprg_undefined,
        _only("prg_curve", "auprg"),
        "pyprg, the official PRG code",
    ),
)


#: mechanisms of how an implementation handles undefined values, weights, labels and malformed
#: input, in the order :func:`mechanisms` lists them after the libraries' own mechanisms
HANDLING: tuple[MechanismSpec, ...] = (
    MechanismSpec(
        "undefined=0",
        "0 substituted for 0/0",
        _undefined(0.0),
        _unless_stored("undefined=sklearn"),
    ),
    MechanismSpec(
        "relevance=nonzero",
        "graded labels: every nonzero label relevant (-1 included)",
        _transformed("relevance=nonzero", _graded(lambda y: y != 0)),
        _only("precision_at_k", "ap_at_k", "r_precision"),
    ),
    MechanismSpec(
        "rejects-no-relevant",
        "an exception for a ranking with no relevant item, which is valid input",
        _rejects_no_relevant,
        _only("precision_at_k", "ap_at_k", "r_precision", "average_precision"),
        "pyspark's RankingMetrics",
    ),
    MechanismSpec(
        "relevance=gain",
        "graded labels: P@k as the mean gain",
        _mean_gain_at_k,
        _only("precision_at_k"),
    ),
    MechanismSpec(
        FLOAT32, "the exact value computed in float32 (within the float32 tolerance)", _default
    ),
    MechanismSpec(
        "weights-ignored",
        "sample_weight accepted but ignored: the value without the weights",
        unweighted,
    ),
    MechanismSpec(
        "weights-overflow",
        "the weights or their float64 sum overflow to inf: NaN (inf/inf)",
        _weights_overflow(np.float64),
    ),
    MechanismSpec(
        "weights-float32-overflow",
        "the weights cast to float32, or their float32 sum, overflow to inf: NaN (inf/inf)",
        _weights_overflow(np.float32),
    ),
    MechanismSpec(
        "weights-overflow+nan-clipped-to-0",
        "the float64 weight sums overflow (NaN), and max(0.0, NaN) returns 0.0 "
        "(scikit-learn's average_precision_score clips -0.0 that way)",
        _overflow_clipped,
        source="scikit-learn's average_precision_score",
    ),
    MechanismSpec(
        "weights-float32-underflow+undefined=sklearn",
        "weights cast to float32 underflow to 0 on every positive: 0/0, returned as 0",
        _weights_underflow,
    ),
    MechanismSpec(
        "weights-normalised",
        "sample_weight divided by its float64 sum first (overflows to inf for huge weights)",
        _weighted_transform(lambda w: w / np.sum(w)),
    ),
    MechanismSpec(
        "weights-clipped",
        "negative sample weights taken as 0",
        _weighted_transform(lambda w: np.maximum(w, 0.0)),
    ),
    MechanismSpec(
        "weights-rounded",
        "sample weights rounded to the nearest integer (half to even) first",
        _weighted_transform(np.rint),
    ),
    MechanismSpec(
        "weights-truncated",
        "sample weights truncated to integers first (an integer cast)",
        _weighted_transform(np.trunc),
    ),
    MechanismSpec("undefined=0.5", "0.5 substituted for 0/0", _undefined(0.5)),
    MechanismSpec("undefined=1", "1 substituted for 0/0", _undefined(1.0)),
    MechanismSpec("undefined=-0.0", "-0.0 substituted for 0/0", _undefined(-0.0)),
    MechanismSpec("nan=first", "a NaN score ranked above every score", _nan_placed(True)),
    MechanismSpec("nan=last", "a NaN score ranked below every score", _nan_placed(False)),
    MechanismSpec(
        "rejects-infinite-scores",
        "an exception for ±inf scores, which rank as the largest and smallest",
        _infinite_rejected,
    ),
    MechanismSpec(
        "rejects-integer-scores",
        "an exception for integer scores (counts, votes), which rank like any others",
        _integer_rejected,
    ),
    MechanismSpec(
        "no-input-validation",
        "malformed input accepted without an error",
        _unvalidated,
    ),
)


def mechanisms(metric: str) -> list[Mechanism]:
    """Every mechanism modelled for ``metric`` (module docstring): the metric's stored
    conventions, the rows of :data:`DEFINITIONS` that apply, the mechanisms of the libraries
    outside Python (:func:`prtheory.conformance.external_mechanisms.for_metric`), then the rows
    of :data:`HANDLING` that apply.

    Parameters
    ----------
    metric : str
        The metric whose mechanisms to list (a key of
        :data:`~prtheory.conformance.metrics.METRICS`).

    Returns
    -------
    list of Mechanism
        In that order (the search for covers breaks ties by it).

    Examples
    --------
    >>> from prtheory.conformance.mechanisms import mechanisms
    >>> names = [m.name for m in mechanisms("auc_trapezoid")]
    >>> "step-for-trapezoid" in names, "riemann-minoring" in names
    (True, False)
    """
    spec = METRICS[metric]
    stored = [
        Mechanism(a.name, f"the {a.name} convention", _stored(a.name)) for a in spec.alternatives
    ]
    return [
        *stored,
        *(row.mechanism() for row in DEFINITIONS if row.applies(metric)),
        *external_mechanisms.for_metric(metric),
        *(row.mechanism() for row in HANDLING if row.applies(metric)),
    ]


@dataclass
class Diagnosis:
    """The chosen mechanisms, each vector's attribution (ident -> (mechanism, prediction)), and
    the divergent vectors no mechanism explains.

    Examples
    --------
    >>> from prtheory.conformance.mechanisms import Diagnosis
    >>> d = Diagnosis(["threshold=strict"], {"precision_at_threshold#1": ("threshold=strict", 1)},
    ...               [])
    >>> d.chosen, d.unexplained, d.descriptions
    (['threshold=strict'], [], {})
    """

    chosen: list[str]
    attribution: dict[str, tuple[str, Any]]
    unexplained: list[Vector]
    descriptions: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class _Candidate:
    mechanism: Mechanism
    covered: frozenset[str]
    declared: bool
    usual: int = 0
    exact: int = 0  # covered vectors with an exact prediction (not ANY)


@dataclass
class _Predictor:
    """The predictions of the mechanisms, each computed once: those of ``extra`` (call-pattern
    mechanisms) in ``local``, the modelled ones in ``shared`` (a cache kept between calls)."""

    extra: list[Mechanism]
    shared: dict[tuple[str, str], Any]
    local: dict[tuple[str, str], Any] = field(default_factory=dict)

    def __call__(self, m: Mechanism, v: Vector) -> Any:
        store = self.local if m in self.extra else self.shared
        key = (m.name, v.ident)
        if key not in store:
            store[key] = m.predict(v)
        return store[key]


@dataclass(frozen=True)
class _Search:
    """What the search for a cover works on: the mechanisms, the results and the preferences."""

    pool: list[Mechanism]
    divergent: list[tuple[Vector, Any]]
    agreeing: list[tuple[Vector, Any]]
    prediction: _Predictor
    prefer: set[str]
    usual: dict[str, int]

    def candidates(self, tolerance: tuple[Any, int], with_f32: bool) -> list[_Candidate]:
        """The mechanisms that explain some divergent vector and that no result contradicts."""
        out = []
        for m in self.pool:
            if m.name == FLOAT32 and not with_f32:
                continue
            covered = self.covered(m, tolerance)
            if not covered or contradicted(
                m, self.agreeing, self.divergent, self.prediction, self.pool, tolerance
            ):
                continue
            declared = set(m.name.split("+")) <= self.prefer
            common = sum(self.usual.get(part, 0) for part in m.name.split("+"))
            exact = sum(
                self.prediction(m, v) is not ANY for v, _ in self.divergent if v.ident in covered
            )
            out.append(_Candidate(m, covered, declared, common, exact))
        return out

    def covered(self, m: Mechanism, tolerance: tuple[Any, int]) -> frozenset[str]:
        """The divergent vectors whose result fits ``m``'s prediction."""
        return frozenset(
            v.ident
            for v, got in self.divergent
            if (want := self.prediction(m, v)) is not None
            and fits(got, want, tolerance, v.result != "valid")
        )


def _cover(search: _Search, float32: bool, ulps: int, f32_ulps: int) -> list[_Candidate]:
    """The best cover; for a float64 implementation, float32 arithmetic is named only where it
    explains more than float64 does."""
    f32 = (np.float32, f32_ulps)
    if float32:
        return _best_cover(search.candidates(f32, False))
    plain = _best_cover(search.candidates((np.float64, ulps), False))
    loose = search.candidates(f32, True)
    modifier = next(
        (c for c in loose if c.mechanism.name == FLOAT32),
        _Candidate(next(m for m in search.pool if m.name == FLOAT32), frozenset(), False),
    )
    if modifier not in loose:
        loose.append(modifier)
    relaxed = _best_cover(loose, force=FLOAT32)
    return plain if len(_union(relaxed)) <= len(_union(plain)) else relaxed


def _diagnosis(
    chosen: list[_Candidate], divergent: list[tuple[Vector, Any]], prediction: _Predictor
) -> Diagnosis:
    """Each divergent vector attributed to the first chosen mechanism that covers it."""
    attribution: dict[str, tuple[str, Any]] = {}
    for v, _ in divergent:
        for c in chosen:
            if v.ident in c.covered:
                attribution[v.ident] = (c.mechanism.name, prediction(c.mechanism, v))
                break
    unexplained = [v for v, _ in divergent if v.ident not in attribution]
    return Diagnosis(
        [c.mechanism.name for c in chosen],
        attribution,
        unexplained,
        {c.mechanism.name: c.mechanism.description for c in chosen},
    )


def diagnose(
    metric: str,
    divergent: list[tuple[Vector, Any]],
    agreeing: list[tuple[Vector, Any]],
    *,
    ulps: int,
    f32_ulps: int,
    float32: bool = False,
    prefer: Iterable[str] = (),
    consistent: dict[str, int] | None = None,
    extra: Iterable[Mechanism] = (),
    cache: dict[tuple[str, str], Any] | None = None,
) -> Diagnosis:
    """Smallest set of mechanisms explaining every divergent ``(vector, result)`` (module doc).

    A result is a float, a dict of arrays (a curve) or :class:`Raised`. ``float32`` declares a
    float32 implementation (every prediction matched within ``f32_ulps`` float32 ulps);
    ``prefer`` names its declared conventions; ``consistent`` counts, for each part of a
    mechanism's name (``ties=torch-sort`` in ``ties=torch-sort+nonpositive-irrelevant``), the
    implementations of the same library it was found for (the next preference, so that one
    cause gets one name);
    ``extra`` adds call-pattern mechanisms. ``cache`` keeps the predictions of the modelled
    mechanisms (not of ``extra``) between calls on the same vectors.

    Parameters
    ----------
    metric : str
        The metric of the vectors.
    divergent, agreeing : list of (Vector, result)
        The vectors on which the implementation diverged, and those it got right, with its
        results.
    ulps, f32_ulps : int
        The float64 and float32 tolerances of a match.
    float32, prefer, consistent, extra, cache
        As above.

    Returns
    -------
    Diagnosis
        The chosen mechanisms, each explained vector's attribution, the unexplained vectors.

    Examples
    --------
    Precision at threshold 1/2 of labels 1, 0, 1: scored 0.9, 0.5, 0.2 it is 1/2 (``>=``) or 1
    (``threshold=strict``: the positive alone); scored 0.9, 0.4, 0.2 it is 1 under both:

    >>> import numpy as np
    >>> from fractions import Fraction
    >>> from prtheory.conformance.encoding import encode_value
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.vectors_io import Vector
    >>> def vector(tc_id, middle, value, strict):
    ...     x = Inputs(np.array([1, 0, 1]), np.array([0.9, middle, 0.2]), None,
    ...                {"threshold": Fraction(1, 2)})
    ...     alternatives = {"threshold=strict": encode_value(strict)} if strict != value else {}
    ...     return Vector("precision_at_threshold", tc_id, "", (), x, "valid",
    ...                   encode_value(value), alternatives, None)
    >>> tie, no_tie = vector(1, 0.5, Fraction(1, 2), 1), vector(2, 0.4, 1, 1)
    >>> from prtheory.conformance.mechanisms import diagnose
    >>> d = diagnose("precision_at_threshold", [(tie, 1.0)], [(no_tie, 1.0)], ulps=8, f32_ulps=16)
    >>> d.chosen, d.attribution["precision_at_threshold#1"][0], d.unexplained
    (['threshold=strict'], 'threshold=strict', [])
    """
    if not divergent:
        return Diagnosis([], {}, [])
    extra = list(extra)
    pool = [*mechanisms(metric), *extra]
    prediction = _Predictor(extra, {} if cache is None else cache)
    search = _Search(pool, divergent, agreeing, prediction, set(prefer), dict(consistent or {}))
    chosen = sorted(
        _cover(search, float32, ulps, f32_ulps),
        key=lambda c: (c.mechanism.name != FLOAT32, not c.declared, -len(c.covered)),
    )
    return _diagnosis(chosen, divergent, prediction)


def contradicted(
    m: Mechanism,
    agreeing: list[tuple[Vector, Any]],
    divergent: list[tuple[Vector, Any]],
    prediction: Callable[[Mechanism, Vector], Any],
    pool: list[Mechanism],
    tolerance: tuple[Any, int],
) -> bool:
    """Whether another result contradicts ``m``: on a vector the implementation got right, ``m``
    predicts something else; or on a divergent vector ``m`` predicts an effect (a value other
    than the expected one) that the result does not show, and neither a combination of ``m``
    with other mechanisms (a name holding all of ``m``'s parts) nor another mechanism's effect
    (weights that overflow to NaN swamp a first-point convention) explains the result. A result
    that raised contradicts no value. Such a mechanism explains no vector: its coincidences are
    left unexplained.

    Parameters
    ----------
    m : Mechanism
        The mechanism.
    agreeing, divergent : list of (Vector, result)
        The implementation's results on the vectors it got right and on the others.
    prediction : callable
        ``(mechanism, vector) -> prediction``.
    pool : list of Mechanism
        The mechanisms that may explain a result together with ``m`` or instead of it.
    tolerance : (dtype, int)
        The float type and ulps of a match.

    Returns
    -------
    bool
        Whether ``m`` is refuted.

    Examples
    --------
    Precision at threshold 1/2 of labels 1, 0, 1: scored 0.9, 0.5, 0.2 it is 1/2 (``>=``) or 1
    (``threshold=strict``: the positive alone); scored 0.9, 0.4, 0.2 it is 1 under both:

    >>> import numpy as np
    >>> from fractions import Fraction
    >>> from prtheory.conformance.encoding import encode_value
    >>> from prtheory.conformance.metrics import Inputs
    >>> from prtheory.conformance.vectors_io import Vector
    >>> def vector(tc_id, middle, value, strict):
    ...     x = Inputs(np.array([1, 0, 1]), np.array([0.9, middle, 0.2]), None,
    ...                {"threshold": Fraction(1, 2)})
    ...     alternatives = {"threshold=strict": encode_value(strict)} if strict != value else {}
    ...     return Vector("precision_at_threshold", tc_id, "", (), x, "valid",
    ...                   encode_value(value), alternatives, None)
    >>> tie, no_tie = vector(1, 0.5, Fraction(1, 2), 1), vector(2, 0.4, 1, 1)
    >>> from prtheory.conformance.mechanisms import contradicted, mechanisms
    >>> pool = mechanisms("precision_at_threshold")
    >>> strict = next(m for m in pool if m.name == "threshold=strict")
    >>> def predict(m, v):
    ...     return m.predict(v)
    >>> contradicted(strict, [(tie, 0.5)], [], predict, pool, (np.float64, 8))  # 1/2 was right
    True
    >>> contradicted(strict, [(no_tie, 1.0)], [(tie, 1.0)], predict, pool, (np.float64, 8))
    False
    """

    def refuted(v: Vector, got: Any, effect_only: bool) -> bool:
        want = prediction(m, v)
        if (
            want is None
            or want is ANY
            or isinstance(got, Raised)
            or fits(got, want, tolerance, v.result != "valid")
        ):
            return False
        if not effect_only:
            return True
        if not _effect(want, v, tolerance):
            return False  # no effect predicted here: another mechanism's vector
        return not _explained_otherwise(m, v, got, prediction, pool, tolerance)

    return any(refuted(v, got, False) for v, got in agreeing) or any(
        refuted(v, got, True) for v, got in divergent if v.expected is not None
    )


def _effect(want: Any, v: Vector, tolerance: tuple[Any, int]) -> bool:
    """Whether a prediction changes ``v``'s value (an exact value other than the expected)."""
    if want is NAN or want is RAISES or want is UNDEFINED or isinstance(want, Crash):
        return True
    return isinstance(want, Value | dict) and not fits(_plain(v.expected), want, tolerance)


def _explained_otherwise(
    m: Mechanism,
    v: Vector,
    got: Any,
    prediction: Callable[[Mechanism, Vector], Any],
    pool: list[Mechanism],
    tolerance: tuple[Any, int],
) -> bool:
    """Whether a combination holding ``m`` (its parts and more), or another mechanism whose
    prediction at ``v`` is an effect of its own, explains ``got``."""
    parts = set(m.name.split("+"))
    for other in pool:
        if other is m or (want := prediction(other, v)) is None or want is ANY:
            continue
        combination = parts < set(other.name.split("+"))
        if (combination or _effect(want, v, tolerance)) and fits(
            got, want, tolerance, v.result != "valid"
        ):
            return True
    return False


def _plain(expected: Any) -> Any:
    """An expected value in the form a result has (float, or dict of float arrays)."""
    if isinstance(expected, Value):
        return expected.float64
    return {k: np.array([x.float64 for x in vals]) for k, vals in expected.items()}


def _union(cs: Iterable[_Candidate]) -> frozenset[str]:
    return frozenset().union(*(c.covered for c in cs))


def _best_cover(cands: list[_Candidate], force: str | None = None) -> list[_Candidate]:
    """Fewest candidates covering everything any of them covers (module docstring)."""
    target = _union(cands)
    forced = [c for c in cands if c.mechanism.name == force]
    for ident in sorted(target):
        holders = [c for c in cands if ident in c.covered]
        if len(holders) == 1 and holders[0] not in forced:
            forced.append(holders[0])
    rest = target - _union(forced)
    useful = [c for c in cands if c not in forced and c.covered & rest]

    def key(combo: Iterable[_Candidate]) -> tuple[int, int, int, int]:
        combo = tuple(combo)
        return (
            -sum(c.declared for c in combo),
            -sum(c.usual for c in combo),
            -sum(c.exact for c in combo),
            -sum(len(c.covered) for c in combo),
        )

    for size in range(0, min(MAX_SEARCH, len(useful)) + 1):
        covers: list[tuple[_Candidate, ...]] = [
            combo for combo in itertools.combinations(useful, size) if rest <= _union(combo)
        ]
        if covers:
            return forced + list(min(covers, key=key))
    chosen = list(forced)
    left = set(rest)
    while left:
        best = max(useful, key=lambda c: (len(c.covered & left), c.declared, c.usual))
        chosen.append(best)
        left -= best.covered
    return chosen
