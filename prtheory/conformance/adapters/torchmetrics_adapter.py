"""torchmetrics: binary average precision, PR curve, F-beta, precision and recall (functional and
class APIs; exact and binned thresholds; one or several ``update()`` calls) and the retrieval
metrics.

Claimed conventions (torchmetrics documentation): "If preds has values outside [0,1] range we
consider the input to be logits and will auto apply sigmoid per element"
(``sigmoid-on-logits``); ``binary_precision_recall_curve`` ends with (recall 0, precision 1)
(``first-point=sklearn``); undefined precision/recall/F-beta are 0 (``zero_division=0``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from prtheory.conformance.adapters import (
    Implementation,
    labels_int,
    no_weights,
    reversed_curve,
    scores_as_passed,
)

LIBRARY = "torchmetrics"
DISTRIBUTION = "torchmetrics"
MODULE = "torchmetrics"
SHIMS: tuple[str, ...] = ()

BINS = tuple(np.linspace(0.0, 1.0, 11).tolist())


def implementations() -> list[Implementation]:
    import torch
    import torchmetrics.classification as c
    import torchmetrics.functional.classification as f
    import torchmetrics.functional.retrieval as fr

    def tensors(x: Any) -> tuple[Any, Any]:
        return torch.from_numpy(scores_as_passed(x)), torch.tensor(labels_int(x.y_true))

    def scalar(out: Any) -> float:
        return float(out)

    def functional(fn: Any, **kw: Any) -> Any:
        return no_weights(lambda x: scalar(fn(*tensors(x), **kw)))

    def with_threshold(fn: Any) -> Any:
        def run(x: Any) -> float:
            kw = {"threshold": float(x.params["threshold"])}
            if "beta" in fn.__code__.co_varnames:
                kw["beta"] = float(x.params["beta"])
            return scalar(fn(*tensors(x), **kw))

        return no_weights(run)

    def batched(make: Any, batches: int) -> Any:
        def run(x: Any) -> float:
            metric = make(x)
            s, y = tensors(x)
            for sb, yb in zip(
                torch.tensor_split(s, batches), torch.tensor_split(y, batches), strict=False
            ):
                if sb.numel():
                    metric.update(sb, yb)
            return scalar(metric.compute())

        return no_weights(run)

    def curve(x: Any) -> dict[str, np.ndarray]:
        p, r, _ = f.binary_precision_recall_curve(*tensors(x))
        return reversed_curve(p.numpy(), r.numpy())

    # the labels go in as the integers they are: torchmetrics checks that a retrieval target
    # is binary (a bool() here would turn a graded 2, or a -1, into "relevant" on its behalf)
    def retrieval_ap(x: Any) -> float:
        s, y = tensors(x)
        return scalar(fr.retrieval_average_precision(s, y))

    def retrieval(fn: Any, with_k: bool) -> Any:
        def run(x: Any) -> float:
            s, y = tensors(x)
            kw = {"top_k": int(x.params["k"])} if with_k else {}
            return scalar(fn(s, y, **kw))

        return no_weights(run)

    def fbeta_class(x: Any) -> Any:
        return c.BinaryFBetaScore(
            beta=float(x.params["beta"]), threshold=float(x.params["threshold"])
        )

    sig = ("sigmoid-on-logits",)
    sig_und = ("sigmoid-on-logits", "undefined=sklearn")
    bins = torch.tensor(BINS, dtype=torch.float64)
    return [
        Implementation(
            LIBRARY,
            "functional.binary_average_precision",
            "average_precision",
            functional(f.binary_average_precision),
            sig,
        ),
        Implementation(
            LIBRARY,
            "BinaryAveragePrecision, 1 update()",
            "average_precision",
            batched(lambda x: c.BinaryAveragePrecision(), 1),
            sig,
        ),
        Implementation(
            LIBRARY,
            "BinaryAveragePrecision, 2 update() calls",
            "average_precision",
            batched(lambda x: c.BinaryAveragePrecision(), 2),
            sig,
            batches=2,
        ),
        Implementation(
            LIBRARY,
            "functional.binary_average_precision(thresholds=11 bins)",
            "average_precision",
            functional(f.binary_average_precision, thresholds=bins),
            sig,
            binned=BINS,
        ),
        Implementation(
            LIBRARY,
            "functional.retrieval_average_precision",
            "average_precision",
            no_weights(retrieval_ap),
        ),
        Implementation(
            LIBRARY,
            "functional.retrieval_precision(top_k=k)",
            "precision_at_k",
            retrieval(fr.retrieval_precision, True),
        ),
        Implementation(
            LIBRARY,
            "functional.retrieval_average_precision(top_k=k)",
            "ap_at_k",
            retrieval(fr.retrieval_average_precision, True),
        ),
        Implementation(
            LIBRARY,
            "functional.retrieval_r_precision",
            "r_precision",
            retrieval(fr.retrieval_r_precision, False),
        ),
        Implementation(
            LIBRARY,
            "functional.binary_precision_recall_curve",
            "pr_curve",
            no_weights(curve),
            ("first-point=sklearn", *sig),
        ),
        Implementation(
            LIBRARY,
            "functional.binary_fbeta_score",
            "fbeta_at_threshold",
            with_threshold(f.binary_fbeta_score),
            sig_und,
        ),
        Implementation(
            LIBRARY,
            "BinaryFBetaScore, 2 update() calls",
            "fbeta_at_threshold",
            batched(fbeta_class, 2),
            sig_und,
            batches=2,
        ),
        Implementation(
            LIBRARY,
            "functional.binary_precision",
            "precision_at_threshold",
            with_threshold(f.binary_precision),
            sig_und,
        ),
        Implementation(
            LIBRARY,
            "functional.binary_recall",
            "recall_at_threshold",
            with_threshold(f.binary_recall),
            sig_und,
        ),
    ]
