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
