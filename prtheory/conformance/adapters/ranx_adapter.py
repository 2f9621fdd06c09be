"""ranx: ``map``, ``precision@k``, ``r-precision`` and ``map@k`` through ``ranx.evaluate``.

Item ``i`` becomes document ``"d%07d" % i``; the qrels list the positives (relevance 1).
Claimed conventions: none stated for ties (the run is sorted by score).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from prtheory.conformance.adapters import Implementation, Unsupported, labels_int
from prtheory.conformance.metrics import doc_ids

LIBRARY = "ranx"
DISTRIBUTION = "ranx"
MODULE = "ranx"
SHIMS: tuple[str, ...] = ()


def implementations() -> list[Implementation]:
    """ranx's implementations of the vectors' metrics; imports the library.

    Returns
    -------
    list of Implementation
        One per function or call pattern (the module docstring lists them).

    Examples
    --------
    The labels 1, 0, 0, 1 in decreasing score order have hits at ranks 1 and 4: AP =
    (1/1 + 2/4) / 2 = 3/4 (N2). ranx compiles its measures with numba on their first call
    (seconds; where no compiled copy is cached yet, numba warns of an unsafe integer cast in
    ranx's code, which pytest's warnings-as-errors would turn into a failure). The run/qrels
    format has no sample weights:

    >>> import numpy as np
    >>> from prtheory.conformance.adapters.ranx_adapter import implementations
    >>> from prtheory.conformance.metrics import Inputs
    >>> impl = {i.name: i for i in implementations()}
    >>> x = Inputs(np.array([1, 0, 0, 1]), np.array([0.8, 0.6, 0.4, 0.2]))
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     impl["map"].run(x)
    0.75
    >>> impl["map"].run(Inputs(x.y_true, x.y_score, np.ones(4)))
    Unsupported(reason='the run/qrels format has no sample weights')
    """
    from ranx import Qrels, Run, evaluate

    def measure(name: str) -> Any:
        def run(x: Any) -> Any:
            if x.sample_weight is not None:
                return Unsupported("the run/qrels format has no sample weights")
            if len(x.y_true) != len(x.y_score):
                return Unsupported("a run and qrels of different sizes are legal ranx input")
            ids = doc_ids(len(x.y_true))
            labels = labels_int(x.y_true).astype(np.int64).tolist()  # qrels hold integers
            # unjudged documents count as non-relevant in ranx, so zero judgments can be left
            # out (10^6 of them make ranx 20 times slower) -- unless they are all there is:
            # a query with no qrels at all is an error in ranx, not a query without hits
            judged = dict(zip(ids, labels, strict=False))
            qrels = Qrels({"q": {d: lab for d, lab in judged.items() if lab != 0} or judged})
            r = Run({"q": dict(zip(ids, x.y_score.tolist(), strict=True))})
            return float(evaluate(qrels, r, name.format(k=x.params.get("k"))))

        return run

    return [
        Implementation(LIBRARY, "map", "average_precision", measure("map")),
        Implementation(LIBRARY, "precision@k", "precision_at_k", measure("precision@{k}")),
        Implementation(LIBRARY, "r-precision", "r_precision", measure("r-precision")),
        Implementation(LIBRARY, "map@k", "ap_at_k", measure("map@{k}")),
    ]
