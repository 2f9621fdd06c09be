"""The official Precision-Recall-Gain code (PyPI ``pyprg``, module ``prg``; Kull & Flach,
meeliskull/prg): ``create_prg_curve`` and ``calc_auprg``.

Shim: the module calls ``np.alen``, removed in NumPy 1.23, so every call crashes on a current
NumPy. The adapter gives the module (only it: ``prg.prg.np``) a copy of the ``numpy`` namespace
with ``alen`` restored to NumPy 1.22's definition (``len(a)``, or ``len(array(a, ndmin=1))`` for
objects without a length). NumPy itself is not modified.

Claimed conventions (Flach & Kull 2015): points are operating points plus crossing points; AUPRG
is the area under the curve for recall gain in [0, 1].
"""

from __future__ import annotations

import types
from typing import Any

import numpy as np

from prtheory.conformance.adapters import Implementation, labels_int, no_weights

LIBRARY = "pyprg (official PRG code)"
DISTRIBUTION = "pyprg"
MODULE = "prg"
SHIMS = ("np.alen (removed in NumPy 1.23) restored inside prg.prg only, as NumPy 1.22 defined it",)


def _alen(a: Any) -> int:
    try:
        return len(a)
    except TypeError:
        return len(np.array(a, ndmin=1))


def _module() -> Any:
    import prg.prg as p

    if p.np is np and not hasattr(np, "alen"):
        shim = types.ModuleType("numpy_with_alen")
        shim.__dict__.update({k: getattr(np, k) for k in dir(np) if not k.startswith("__")})
        shim.__dict__["alen"] = _alen
        p.np = shim
    return p


def implementations() -> list[Implementation]:
    """pyprg (official PRG code)'s implementations of the vectors' metrics; imports the library.

    Returns
    -------
    list of Implementation
        One per function or call pattern (the module docstring lists them).

    Examples
    --------
    The labels 1, 0, 0, 1 in decreasing score order (prevalence pi = 1/2) have the operating
    points (R, P) = (1/2, 1), (1/2, 1/2), (1/2, 1/3), (1, 1/2). Their gains
    (x - pi) / ((1 - pi) x) (F5) are RG = 0, 0, 0, 1 and PG = 1, 0, -1, 0. pyprg's area counts
    the part below PG = 0 as negative: the last segment, from (0, -1) to (1, 0), has area
    -1/2, the oracle's value under ``prg-area=signed``; the default area within the unit square
    is 0:

    >>> import numpy as np
    >>> from prtheory.conformance.adapters.pyprg_adapter import implementations
    >>> from prtheory.conformance.metrics import METRICS, Inputs, evaluate
    >>> impl = {i.metric: i for i in implementations()}
    >>> x = Inputs(np.array([1, 0, 0, 1]), np.array([0.8, 0.6, 0.4, 0.2]))
    >>> {k: v.tolist() for k, v in impl["prg_curve"].run(x).items()}
    {'recall_gain': [0.0, 0.0, 0.0, 1.0], 'precision_gain': [1.0, 0.0, -1.0, 0.0]}
    >>> impl["auprg"].run(x)
    -0.5
    >>> signed = next(a for a in METRICS["auprg"].alternatives if a.name == "prg-area=signed")
    >>> evaluate("auprg", x, signed), evaluate("auprg", x)
    (Fraction(-1, 2), Fraction(0, 1))
    """
    p = _module()

    def curve(x: Any) -> dict[str, np.ndarray]:
        c = p.create_prg_curve(labels_int(x.y_true), np.asarray(x.y_score, dtype=np.float64))
        keep = (c["is_crossing"] == 0) & (c["TP"] > 0)
        return {"recall_gain": c["recall_gain"][keep], "precision_gain": c["precision_gain"][keep]}

    def auprg(x: Any) -> float:
        c = p.create_prg_curve(labels_int(x.y_true), np.asarray(x.y_score, dtype=np.float64))
        return float(p.calc_auprg(c))

    return [
        Implementation(
            LIBRARY, "create_prg_curve (operating points)", "prg_curve", no_weights(curve)
        ),
        Implementation(LIBRARY, "calc_auprg(create_prg_curve(...))", "auprg", no_weights(auprg)),
    ]
