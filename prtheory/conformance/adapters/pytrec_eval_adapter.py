"""pytrec_eval (PyPI ``pytrec-eval-terrier``, Python bindings of trec_eval): ``map``, ``P_k``,
``Rprec`` and ``map_cut_k``, fed as one query's run and qrels.

Item ``i`` becomes document ``"d%07d" % i`` with score ``y_score[i]`` in the run and relevance
``y_true[i]`` in the qrels. Claimed conventions (trec_eval documentation and source): ties are
broken by document id, descending (``ties=trec_eval``); a query without relevant documents
scores 0.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from prtheory.conformance.adapters import Implementation, Unsupported, labels_int
from prtheory.conformance.metrics import doc_ids

LIBRARY = "pytrec_eval (trec_eval)"
DISTRIBUTION = "pytrec-eval-terrier"
MODULE = "pytrec_eval"
SHIMS: tuple[str, ...] = ()


def implementations() -> list[Implementation]:
    """pytrec_eval (trec_eval)'s implementations of the vectors' metrics; imports the library.

    Returns
    -------
    list of Implementation
        One per function or call pattern (the module docstring lists them).
    """
    import pytrec_eval

    def evaluate(x: Any, measure: str) -> Any:
        if x.sample_weight is not None:
            return Unsupported("the run/qrels format has no sample weights")
        if len(x.y_true) != len(x.y_score):
            return Unsupported("a run and qrels of different sizes are legal trec_eval input")
        ids = doc_ids(len(x.y_true))
        qrels = {"q": dict(zip(ids, labels_int(x.y_true).astype(np.int64).tolist(), strict=True))}
        run = {"q": dict(zip(ids, x.y_score.tolist(), strict=True))}
        out = pytrec_eval.RelevanceEvaluator(qrels, {measure}).evaluate(run)
        return float(out["q"][measure])

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
