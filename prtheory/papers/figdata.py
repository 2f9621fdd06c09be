"""The data behind each figure, separate from drawing it.

A figure is regenerated in two steps: a paper module computes a :class:`FigureData` (numpy arrays
from the oracle, plus a few labelled scalars), and :mod:`prtheory.papers.figures` draws it with
matplotlib. Only the first step is needed to decide whether a committed figure is current.

Why a fingerprint rather than the PNG bytes: PNG output changes with the matplotlib version, the
fonts installed and the renderer, so comparing bytes would fail for reasons that have nothing to
do with the numbers. ``prtheory figures`` writes ``reports/figures/manifest.json`` holding, for
each PNG, the SHA-256 of its plotted data (arrays rounded to 10 significant digits, so a
last-bit difference in a libm ``log`` cannot change it); the staleness test recomputes the data
without matplotlib and compares fingerprints, and checks that every PNG exists. The manifest
also records the SHA-256 of the drawing code (:data:`DRAWING_FILES`), so that a change in how
the figures are drawn (label placement, markers) makes the committed PNGs stale as well.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["DRAWING_FILES", "FigureData", "drawing_digest"]

PACKAGE = Path(__file__).resolve().parents[1]
#: the modules that draw the figures, relative to the package
DRAWING_FILES = ("papers/figures.py", "plots/_place.py", "plots/prg.py")


def drawing_digest() -> str:
    """SHA-256 of the drawing modules (their names and contents).

    Returns
    -------
    str
        64 hexadecimal digits.

    See Also
    --------
    prtheory.papers.figures.write_figures : records it in the manifest.

    Examples
    --------
    >>> from prtheory.papers.figdata import drawing_digest
    >>> digest = drawing_digest()
    >>> len(digest), set(digest) <= set("0123456789abcdef")
    (64, True)
    """
    text = "".join(f"{name}\n{(PACKAGE / name).read_text()}" for name in DRAWING_FILES)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class FigureData:
    """Arrays and labelled scalars for one figure; ``name`` is the PNG's file stem.

    Parameters
    ----------
    name : str
        The PNG's file stem.
    title : str
        The figure's title.
    arrays : dict of str to ndarray
        The plotted data.
    meta : dict
        Labelled scalars.

    See Also
    --------
    prtheory.papers.outputs.figure_data

    Examples
    --------
    >>> import numpy as np
    >>> from prtheory.papers.figdata import FigureData
    >>> d = FigureData("demo", "A demo", {"x": np.array([0.0, 1.0])})
    >>> d.name, d.meta
    ('demo', {})
    """

    name: str
    title: str
    arrays: dict[str, np.ndarray]
    meta: dict[str, Any] = field(default_factory=dict)  # JSON values

    def canonical(self) -> dict[str, object]:
        """A JSON-able form with every float rounded to 10 significant digits."""
        return {
            "name": self.name,
            "title": self.title,
            "arrays": {
                k: [float(f"{v:.10g}") for v in np.asarray(a, dtype=np.float64).ravel()]
                for k, a in sorted(self.arrays.items())
            },
            "shapes": {k: list(np.shape(a)) for k, a in sorted(self.arrays.items())},
            "meta": json.loads(json.dumps(self.meta, sort_keys=True, default=str)),
        }

    def fingerprint(self) -> str:
        text = json.dumps(self.canonical(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()
