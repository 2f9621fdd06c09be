"""torcheval: ``binary_auprc``, ``binary_binned_auprc``, ``binary_precision_recall_curve`` and the
``BinaryAUPRC`` class.

Claimed conventions: ``binary_auprc`` is documented as equivalent to scikit-learn's
``average_precision_score`` (ties grouped). The binned variant evaluates at given thresholds.
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

LIBRARY = "torcheval"
DISTRIBUTION = "torcheval"
MODULE = "torcheval"
SHIMS: tuple[str, ...] = ()

BINS = tuple(np.linspace(0.0, 1.0, 11).tolist())


def implementations() -> list[Implementation]:
    """torcheval's implementations of the vectors' metrics; imports the library.

    Returns
    -------
    list of Implementation
        One per function or call pattern (the module docstring lists them).

    Examples
    --------
    The labels 1, 0, 0, 1 in decreasing score order have hits at ranks 1 and 4: AP =
    (1/1 + 2/4) / 2 = 3/4 (N2), in one ``update()`` call or two. At the 11 thresholds 0, 0.1,
    ..., 1 of the binned variant, a positive at 0.85 and a negative at 0.82 are one operating
    point: the area is its precision, 1/2, where the exact AP is 1. No sample weights. (Through
    :func:`prtheory.conformance.adapters.implementations`, as the runner: it silences warnings.)

    >>> import numpy as np
    >>> from prtheory.conformance.adapters import implementations
    >>> from prtheory.conformance.metrics import Inputs
    >>> impl = {i.name: i for i in implementations("torcheval")}
    >>> x = Inputs(np.array([1, 0, 0, 1]), np.array([0.8, 0.6, 0.4, 0.2]))
    >>> impl["functional.binary_auprc"].run(x), impl["BinaryAUPRC, 2 update() calls"].run(x)
    (0.75, 0.75)
    >>> binned = impl["functional.binary_binned_auprc (11 thresholds)"].run
    >>> binned(Inputs(np.array([1, 0]), np.array([0.85, 0.82])))
    0.5
    >>> impl["functional.binary_auprc"].run(Inputs(x.y_true, x.y_score, np.ones(4)))
    Unsupported(reason='the API takes no sample weights')
    """
    import torch
    from torcheval.metrics import BinaryAUPRC
    from torcheval.metrics import functional as f

    def tensors(x: Any) -> tuple[Any, Any]:
        return torch.from_numpy(scores_as_passed(x)), torch.tensor(labels_int(x.y_true))

    def ap(x: Any) -> float:
        return float(f.binary_auprc(*tensors(x)))

    def binned(x: Any) -> float:
        s, y = tensors(x)
        out = f.binary_binned_auprc(s, y, threshold=torch.tensor(BINS, dtype=torch.float64))
        return float(out[0] if isinstance(out, tuple) else out)

    def curve(x: Any) -> dict[str, np.ndarray]:
        p, r, _ = f.binary_precision_recall_curve(*tensors(x))
        return reversed_curve(p.numpy(), r.numpy())

    def batched(x: Any) -> float:
        s, y = tensors(x)
        metric = BinaryAUPRC()
        for sb, yb in zip(torch.tensor_split(s, 2), torch.tensor_split(y, 2), strict=False):
            if sb.numel():
                metric.update(sb, yb)
        return float(metric.compute())

    return [
        Implementation(LIBRARY, "functional.binary_auprc", "average_precision", no_weights(ap)),
        Implementation(
            LIBRARY,
            "BinaryAUPRC, 2 update() calls",
            "average_precision",
            no_weights(batched),
            batches=2,
        ),
        Implementation(
            LIBRARY,
            "functional.binary_binned_auprc (11 thresholds)",
            "average_precision",
            no_weights(binned),
            binned=BINS,
        ),
        Implementation(
            LIBRARY,
            "functional.binary_precision_recall_curve",
            "pr_curve",
            no_weights(curve),
            ("first-point=sklearn",),
        ),
    ]
