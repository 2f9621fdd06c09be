"""pytrec_eval (PyPI ``pytrec-eval-terrier``, Python bindings of trec_eval): ``map``, ``P_k``,
``Rprec`` and ``map_cut_k``, fed as one query's run and qrels.

Item ``i`` becomes document ``"d%07d" % i`` with score ``y_score[i]`` in the run and relevance
``y_true[i]`` in the qrels. Claimed conventions (trec_eval documentation and source): ties are
broken by document id, descending (``ties=trec_eval``); a query without relevant documents
scores 0.

trec_eval computes each measure of a query independently, so an input is evaluated once for
every measure an implementation here may ask of it (``map``, ``Rprec`` and, with a ``k``,
``P_k`` and ``map_cut_k``) and the values kept for the next implementation asking about the same
input (the implementations run one after another over the same vectors): on 10^6 items
building the run and qrels costs most of a call. Where that joint
evaluation fails the measure is evaluated alone.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np

from prtheory.conformance.adapters import Implementation, Unsupported, labels_int
from prtheory.conformance.metrics import doc_ids

LIBRARY = "pytrec_eval (trec_eval)"
DISTRIBUTION = "pytrec-eval-terrier"
MODULE = "pytrec_eval"
SHIMS: tuple[str, ...] = ()


def _evaluate(x: Any, measures: set[str]) -> dict[str, float]:
    """trec_eval's ``measures`` of the input ``x`` as one query."""
    import pytrec_eval

    ids = doc_ids(len(x.y_true))
    qrels = {"q": dict(zip(ids, labels_int(x.y_true).astype(np.int64).tolist(), strict=True))}
    run = {"q": dict(zip(ids, x.y_score.tolist(), strict=True))}
    return pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)["q"]


#: the measures of each input evaluated, by a digest of the input
_SEEN: dict[tuple[str, ...], dict[str, float]] = {}


def _all_measures(x: Any) -> dict[str, float] | None:
    """Every measure of :func:`implementations` at ``x`` (kept by input), or None where
    evaluating them together fails."""
    k = x.params.get("k")
    arrays = [np.asarray(x.y_true), np.asarray(x.y_score)]
    key = (*(hashlib.sha256(a.tobytes()).hexdigest() + a.dtype.str for a in arrays), repr(k))
    if key not in _SEEN:
        measures = {"map", "Rprec"} | (set() if k is None else {f"P_{k}", f"map_cut_{k}"})
        try:
            _SEEN[key] = _evaluate(x, measures)
        except Exception:  # a failure is the measure's own result: evaluated alone
            return None
    return _SEEN[key]


def implementations() -> list[Implementation]:
    """pytrec_eval (trec_eval)'s implementations of the vectors' metrics; imports the library.

    Returns
    -------
    list of Implementation
        One per function or call pattern (the module docstring lists them).

    Examples
    --------
    The labels 1, 0, 0, 1 in decreasing score order have hits at ranks 1 and 4: AP =
    (1/1 + 2/4) / 2 = 3/4 (N2), and one of the top two is relevant: P@2 = 1/2. A negative and a
    positive tied at 0.5 are ranked by document id, descending: ``d0000001``, the positive,
    first, so AP = 1 (the oracle's ``ties=trec_eval``), where the tie grouped gives 1/2 (one
    positive in a block of two) and broken in input order 1/2. The run/qrels format has no
    sample weights:

    >>> import numpy as np
    >>> from prtheory.conformance.adapters.pytrec_eval_adapter import implementations
    >>> from prtheory.conformance.metrics import Inputs
    >>> impl = {i.name: i for i in implementations()}
    >>> x = Inputs(np.array([1, 0, 0, 1]), np.array([0.8, 0.6, 0.4, 0.2]), params={"k": 2})
    >>> impl["map"].run(x), impl["P_k"].run(x)
    (0.75, 0.5)
    >>> impl["map"].run(Inputs(np.array([0, 1]), np.array([0.5, 0.5])))
    1.0
    >>> impl["map"].run(Inputs(x.y_true, x.y_score, np.ones(4), {"k": 2}))
    Unsupported(reason='the run/qrels format has no sample weights')
    """

    def evaluate(x: Any, measure: str) -> Any:
        if x.sample_weight is not None:
            return Unsupported("the run/qrels format has no sample weights")
        if len(x.y_true) != len(x.y_score):
            return Unsupported("a run and qrels of different sizes are legal trec_eval input")
        if not len(x.y_true):
            return Unsupported("trec_eval's result has no entry for a query without documents")
        found = _all_measures(x)
        if found is not None and measure in found:
            return float(found[measure])
        return float(_evaluate(x, {measure})[measure])

    def measure(name: str) -> Any:
        def run(x: Any) -> Any:
            m = name.format(k=x.params.get("k"))
            return evaluate(x, m)

        return run

    conv = ("ties=trec_eval", "undefined=sklearn")
    return [
        Implementation(LIBRARY, "map", "average_precision", measure("map"), conv),
        Implementation(LIBRARY, "P_k", "precision_at_k", measure("P_{k}"), conv),
        Implementation(LIBRARY, "Rprec", "r_precision", measure("Rprec"), conv),
        Implementation(LIBRARY, "map_cut_k", "ap_at_k", measure("map_cut_{k}"), conv),
    ]
