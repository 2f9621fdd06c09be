"""torchmetrics: binary average precision, PR curve, F-beta, precision and recall (functional and
class APIs; exact and binned thresholds; one or several ``update()`` calls), the ROC AUC (whole
and partial, ``max_fpr``) and the retrieval metrics.

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


def _tensors(x: Any) -> tuple[Any, Any]:
    """The scores as passed (their dtype kept) and the labels as integer tensors."""
    import torch

    return torch.from_numpy(scores_as_passed(x)), torch.tensor(labels_int(x.y_true))


def _scalar(out: Any) -> float:
    return float(out)


def _functional(fn: Any, **kw: Any) -> Any:
    """``fn(preds, target, **kw)`` on unweighted inputs."""
    return no_weights(lambda x: _scalar(fn(*_tensors(x), **kw)))


def _with_threshold(fn: Any) -> Any:
    """``fn(preds, target, threshold=t)`` (and ``beta`` where ``fn`` takes one)."""

    def run(x: Any) -> float:
        kw = {"threshold": float(x.params["threshold"])}
        if "beta" in fn.__code__.co_varnames:
            kw["beta"] = float(x.params["beta"])
        return _scalar(fn(*_tensors(x), **kw))

    return no_weights(run)


def _batched(make: Any, batches: int) -> Any:
    """A metric object made by ``make(x)``, updated with ``batches`` consecutive slices."""
    import torch

    def run(x: Any) -> float:
        metric = make(x)
        s, y = _tensors(x)
        for sb, yb in zip(
            torch.tensor_split(s, batches), torch.tensor_split(y, batches), strict=False
        ):
            if sb.numel():
                metric.update(sb, yb)
        return _scalar(metric.compute())

    return no_weights(run)


def _curve(x: Any) -> dict[str, np.ndarray]:
    import torchmetrics.functional.classification as f

    p, r, _ = f.binary_precision_recall_curve(*_tensors(x))
    return reversed_curve(p.numpy(), r.numpy())


# the labels go in as the integers they are: torchmetrics checks that a retrieval target
# is binary (a bool() here would turn a graded 2, or a -1, into "relevant" on its behalf)
def _retrieval_ap(x: Any) -> float:
    import torchmetrics.functional.retrieval as fr

    s, y = _tensors(x)
    return _scalar(fr.retrieval_average_precision(s, y))


def _retrieval(fn: Any, with_k: bool) -> Any:
    """``fn(preds, target)``, with ``top_k=k`` where the metric has a cutoff."""

    def run(x: Any) -> float:
        s, y = _tensors(x)
        kw = {"top_k": int(x.params["k"])} if with_k else {}
        return _scalar(fn(s, y, **kw))

    return no_weights(run)


def _fbeta_class(x: Any) -> Any:
    import torchmetrics.classification as c

    return c.BinaryFBetaScore(beta=float(x.params["beta"]), threshold=float(x.params["threshold"]))


SIG = ("sigmoid-on-logits",)
SIG_UNDEFINED = ("sigmoid-on-logits", "undefined=sklearn")


def _average_precision(c: Any, f: Any, bins: Any) -> list[Implementation]:
    """Binary AP: functional, class with one and two ``update()`` calls, binned."""
    return [
        Implementation(
            LIBRARY,
            "functional.binary_average_precision",
            "average_precision",
            _functional(f.binary_average_precision),
            SIG,
        ),
        Implementation(
            LIBRARY,
            "BinaryAveragePrecision, 1 update()",
            "average_precision",
            _batched(lambda x: c.BinaryAveragePrecision(), 1),
            SIG,
        ),
        Implementation(
            LIBRARY,
            "BinaryAveragePrecision, 2 update() calls",
            "average_precision",
            _batched(lambda x: c.BinaryAveragePrecision(), 2),
            SIG,
            batches=2,
        ),
        Implementation(
            LIBRARY,
            "functional.binary_average_precision(thresholds=11 bins)",
            "average_precision",
            _functional(f.binary_average_precision, thresholds=bins),
            SIG,
            binned=BINS,
        ),
    ]


def _retrieval_metrics(fr: Any) -> list[Implementation]:
    """The functional retrieval metrics: AP, precision@k, AP@k, R-precision."""
    return [
        Implementation(
            LIBRARY,
            "functional.retrieval_average_precision",
            "average_precision",
            no_weights(_retrieval_ap),
        ),
        Implementation(
            LIBRARY,
            "functional.retrieval_precision(top_k=k)",
            "precision_at_k",
            _retrieval(fr.retrieval_precision, True),
        ),
        Implementation(
            LIBRARY,
            "functional.retrieval_average_precision(top_k=k)",
            "ap_at_k",
            _retrieval(fr.retrieval_average_precision, True),
        ),
        Implementation(
            LIBRARY,
            "functional.retrieval_r_precision",
            "r_precision",
            _retrieval(fr.retrieval_r_precision, False),
        ),
    ]


def _auroc(x: Any) -> float:
    """``binary_auroc``, with ``max_fpr`` where the input has one (the partial area)."""
    import torchmetrics.functional.classification as f

    m = float(x.params["max_fpr"]) if "max_fpr" in x.params else None
    return _scalar(f.binary_auroc(*_tensors(x), max_fpr=m))


def _roc_areas() -> list[Implementation]:
    """The ROC AUC, whole and partial."""
    run = no_weights(_auroc)
    return [
        Implementation(LIBRARY, "functional.binary_auroc", "roc_auc", run, SIG),
        Implementation(LIBRARY, "functional.binary_auroc(max_fpr=m)", "partial_roc_auc", run, SIG),
    ]


def _thresholded(f: Any) -> list[Implementation]:
    """The PR curve, and F-beta, precision and recall at a threshold."""
    return [
        Implementation(
            LIBRARY,
            "functional.binary_precision_recall_curve",
            "pr_curve",
            no_weights(_curve),
            ("first-point=sklearn", *SIG),
        ),
        Implementation(
            LIBRARY,
            "functional.binary_fbeta_score",
            "fbeta_at_threshold",
            _with_threshold(f.binary_fbeta_score),
            SIG_UNDEFINED,
        ),
        Implementation(
            LIBRARY,
            "BinaryFBetaScore, 2 update() calls",
            "fbeta_at_threshold",
            _batched(_fbeta_class, 2),
            SIG_UNDEFINED,
            batches=2,
        ),
        Implementation(
            LIBRARY,
            "functional.binary_precision",
            "precision_at_threshold",
            _with_threshold(f.binary_precision),
            SIG_UNDEFINED,
        ),
        Implementation(
            LIBRARY,
            "functional.binary_recall",
            "recall_at_threshold",
            _with_threshold(f.binary_recall),
            SIG_UNDEFINED,
        ),
    ]


def implementations() -> list[Implementation]:
    """torchmetrics' implementations of the vectors' metrics (imports torch and torchmetrics).

    Returns
    -------
    list of Implementation
        Average precision (functional, class, binned), the retrieval metrics, the PR curve,
        F-beta, precision and recall at a threshold, and the ROC AUC (whole and partial).

    Examples
    --------
    The labels 1, 0, 0, 1 in decreasing score order have hits at ranks 1 and 4: AP =
    (1/1 + 2/4) / 2 = 3/4 (N2), whether the items come in one ``update()`` call or in two. As
    logits (scores outside [0, 1]) they are mapped by the sigmoid, which keeps their order, so
    AP is unchanged. R-precision looks at the top R = 2 items, one of them relevant: 1/2. The
    APIs take no sample weights:

    >>> import numpy as np
    >>> from prtheory.conformance.adapters.torchmetrics_adapter import implementations
    >>> from prtheory.conformance.metrics import Inputs
    >>> impl = {i.name: i for i in implementations()}
    >>> y, s = np.array([1, 0, 0, 1]), np.array([0.8, 0.6, 0.4, 0.2])
    >>> ap = impl["functional.binary_average_precision"].run
    >>> ap(Inputs(y, s)), impl["BinaryAveragePrecision, 2 update() calls"].run(Inputs(y, s))
    (0.75, 0.75)
    >>> ap(Inputs(y, np.array([2.0, 0.0, -1.0, -3.0])))
    0.75
    >>> impl["functional.retrieval_r_precision"].run(Inputs(y, s))
    0.5
    >>> ap(Inputs(y, s, np.ones(4)))
    Unsupported(reason='the API takes no sample weights')
    """
    import torch
    import torchmetrics.classification as c
    import torchmetrics.functional.classification as f
    import torchmetrics.functional.retrieval as fr

    bins = torch.tensor(BINS, dtype=torch.float64)
    return [
        *_average_precision(c, f, bins),
        *_retrieval_metrics(fr),
        *_thresholded(f),
        *_roc_areas(),
    ]
