"""Named mechanisms that explain an implementation's divergences, and the search for the fewest.

A :class:`Mechanism` is a hypothesis about what an implementation does differently, written as a
function that predicts the exact value it gives on a vector (from the oracle, never from the
implementation). Mechanisms modelled:

* every named convention of the metric (:mod:`prtheory.conformance.metrics`): the tie policies
  (``ties=input-order`` is the stable-sort/``topk`` order, ``ties=trec_eval`` the doc-id rule),
  ``inf-ties=input-order``, ``scores=float32``, ``sigmoid-on-logits``, the first-point
  conventions, ``threshold=strict`` (``score > t``), ``undefined=sklearn`` (0.0 where the metric
  is 0/0, e.g. AP without positives) and ``undefined=paper``; each predicts the value the vector
  stores under that convention (the default value where none is stored);
* ``trapezoid-for-step``: the trapezoid area under the PR curve (B2) returned as step AP (N2)
  (``+first-point=sklearn``: with sklearn's point at recall 0);
* ``float32-accumulation``: the exact value computed in float32: it predicts the expected value
  and is matched within the float32 tolerance instead of the float64 one;
* ``weights-ignored``: the value of the same vector without its ``sample_weight``;
* ``no-input-validation``: a number returned for malformed input (any number).

:func:`diagnose` finds the smallest set of mechanisms that explains every divergent vector: a
mechanism *explains* a vector when its prediction matches the result; it is *contradicted* (and
dropped) when, on a vector the implementation got right, it predicts a different value. Among
sets of the same size the ones whose mechanisms explain the most vectors come first; a divergence
that no mechanism explains is reported as unexplained.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from prtheory.conformance.classify import _distance
from prtheory.conformance.metrics import METRICS, Alternative, combination_base, evaluate
from prtheory.conformance.vectors_io import Vector, _decode_outcome
from prtheory.errors import InvalidInputError, UndefinedMetricError

__all__ = ["ANY", "Diagnosis", "Mechanism", "diagnose", "mechanisms", "unweighted"]

ANY = object()  # a prediction that any returned number fits (``no-input-validation``)

# sets larger than this are not searched (the greedy cover is used past it)
_MAX_SET = 3


@dataclass(frozen=True)
class Mechanism:
    """A named way of diverging: ``predict(vector)`` is the value it gives there (a decoded
    :class:`~prtheory.conformance.encoding.Value` or curve, :data:`ANY`, or ``None`` when it says
    nothing about that vector); ``float32`` matches within float32 ulps."""

    name: str
    description: str
    predict: Callable[[Vector], Any]
    float32: bool = False


def _oracle(metric: str, v: Vector, alt: Alternative | None = None) -> Any:
    from prtheory.conformance.generate import _encode_outcome

    try:
        return _decode_outcome(_encode_outcome(evaluate(metric, v.inputs, alt)))
    except (UndefinedMetricError, InvalidInputError):
        return None


def _default(v: Vector) -> Any:
    return v.expected if v.result in ("valid", "acceptable") else None


def _stored(name: str) -> Callable[[Vector], Any]:
    undefined = name.startswith("undefined=")

    def predict(v: Vector) -> Any:
        if name in v.alternatives:
            return v.alternatives[name]
        base = combination_base(name, v.alternatives)
        if base is not None:
            return v.alternatives[base]
        if undefined and v.result == "undefined":
            return None
        return _default(v)

    return predict


def _trapezoid(first_point: str) -> Callable[[Vector], Any]:
    def predict(v: Vector) -> Any:
        if v.result != "valid" or v.inputs.y_score is None:
            return None
        alt = Alternative(first_point, {"first_point": first_point})
        return _oracle("auc_trapezoid", v, alt)

    return predict


def unweighted(v: Vector) -> Any:
    """The oracle's value of ``v`` without its weights (``None`` where that is undefined).

    A vector that is undefined only because of its weights (zero weight on every positive) has
    a value without them."""
    if v.result == "invalid":
        return None
    if v.inputs.sample_weight is None:
        return v.expected if v.result in ("valid", "acceptable") else None
    return _oracle(v.metric, replace(v, inputs=replace(v.inputs, sample_weight=None)))


def mechanisms(metric: str) -> list[Mechanism]:
    """Every mechanism modelled for ``metric`` (module docstring)."""
    out = [
        Mechanism(a.name, f"the {a.name} convention", _stored(a.name))
        for a in METRICS[metric].alternatives
    ]
    if metric == "average_precision":
        out += [
            Mechanism(
                "trapezoid-for-step",
                "trapezoid area under the PR curve (B2) in place of step AP (N2)",
                _trapezoid("none"),
            ),
            Mechanism(
                "trapezoid-for-step+first-point=sklearn",
                "trapezoid area from sklearn's point (0, 1) in place of step AP (N2)",
                _trapezoid("sklearn"),
            ),
        ]
    out += [
        Mechanism(
            "float32-accumulation",
            "the exact value computed in float32 (within the float32 tolerance)",
            _default,
            float32=True,
        ),
        Mechanism(
            "weights-ignored",
            "sample_weight accepted but ignored: the value without the weights",
            unweighted,
        ),
        Mechanism(
            "no-input-validation",
            "malformed input accepted without an error",
            lambda v: ANY if v.result == "invalid" else _default(v),
        ),
    ]
    return out


def _fits(got: Any, want: Any, m: Mechanism, ulps: int, f32_ulps: int, f32: bool) -> bool:
    if want is ANY:
        return True
    if m.float32 or f32:
        return _distance(got, want, np.float32) <= f32_ulps
    return _distance(got, want, np.float64) <= ulps


@dataclass
class Diagnosis:
    """The chosen mechanisms, each vector's attribution (ident -> (mechanism, prediction)), and
    the divergent vectors no mechanism explains."""

    chosen: list[str]
    attribution: dict[str, tuple[str, Any]]
    unexplained: list[Vector]


def diagnose(
    metric: str,
    divergent: list[tuple[Vector, Any]],
    agreeing: list[tuple[Vector, Any]],
    *,
    ulps: int,
    f32_ulps: int,
    float32: bool = False,
) -> Diagnosis:
    """Smallest set of mechanisms explaining every divergent ``(vector, result)`` (module doc)."""
    if not divergent:
        return Diagnosis([], {}, [])
    cache: dict[tuple[str, str], Any] = {}

    def prediction(m: Mechanism, v: Vector) -> Any:
        key = (m.name, v.ident)
        if key not in cache:
            cache[key] = m.predict(v)
        return cache[key]

    def explains(m: Mechanism, v: Vector, got: Any) -> bool:
        want = prediction(m, v)
        return want is not None and _fits(got, want, m, ulps, f32_ulps, float32)

    candidates: list[tuple[Mechanism, frozenset[str]]] = []
    for m in mechanisms(metric):
        covered = frozenset(v.ident for v, got in divergent if explains(m, v, got))
        if not covered:
            continue
        contradicted = any(
            prediction(m, v) is not None
            and prediction(m, v) is not ANY
            and not _fits(got, prediction(m, v), m, ulps, f32_ulps, float32)
            for v, got in agreeing
        )
        if not contradicted:
            candidates.append((m, covered))
    candidates.sort(key=lambda c: -len(c[1]))
    reachable = frozenset().union(*(c[1] for c in candidates)) if candidates else frozenset()
    chosen = _cover(candidates, reachable)
    attribution: dict[str, tuple[str, Any]] = {}
    for v, _ in divergent:
        for m, covered in chosen:
            if v.ident in covered:
                attribution[v.ident] = (m.name, prediction(m, v))
                break
    unexplained = [v for v, _ in divergent if v.ident not in attribution]
    return Diagnosis([m.name for m, _ in chosen], attribution, unexplained)


def _cover(
    candidates: list[tuple[Mechanism, frozenset[str]]], target: frozenset[str]
) -> list[tuple[Mechanism, frozenset[str]]]:
    """Fewest candidates whose union is ``target`` (exhaustive up to ``_MAX_SET``, then greedy)."""
    for size in range(1, min(_MAX_SET, len(candidates)) + 1):
        for combo in itertools.combinations(candidates, size):
            if frozenset().union(*(c[1] for c in combo)) == target:
                return list(combo)
    chosen: list[tuple[Mechanism, frozenset[str]]] = []
    left = set(target)
    while left:
        best = max(candidates, key=lambda c: len(c[1] & left))
        chosen.append(best)
        left -= best[1]
    return chosen
