"""The symbolic layer: every claim of the source documents, derived, checked twice, with a verdict.

Importing this package registers every claim. One home per source document, named as in
:mod:`prtheory.papers` (a package by theme where the document is long):

* :mod:`prtheory.theory.boyd2012` -- Boyd, Santos Costa, Davis & Page (ICML 2012) and their
  slides (B)
* :mod:`prtheory.theory.flach2015` -- Flach & Kull (NeurIPS 2015) (F)
* :mod:`prtheory.theory.notes` -- notes on precision, recall, AP, P@k and AP@k (N)
* :mod:`prtheory.theory.gandenberger2019` -- Gandenberger (2019), weighted Pythagorean means (G)
* :mod:`prtheory.theory.davis_goadrich2006` -- Davis & Goadrich (ICML 2006), PR and ROC curves (D)
* :mod:`prtheory.theory.mcsherry_najork2008` -- McSherry & Najork (ECIR 2008), tied scores (M)
* :mod:`prtheory.theory.mcdermott2024` -- McDermott et al. (NeurIPS 2024), AUROC and AUPRC (K)
* :mod:`prtheory.theory.extras` -- the project's own results beyond the documents (X)
"""

from __future__ import annotations

import importlib
import re

from prtheory.theory.registry import REGISTRY, Claim, Proof, claim
from prtheory.theory.runner import load_claims, run_claims

__all__ = ["MODULES", "REGISTRY", "Proof", "all_claims", "claim", "load_claims", "run_claims"]

MODULES = (
    "boyd2012",
    "flach2015",
    "notes",
    "gandenberger2019",
    "davis_goadrich2006",
    "mcsherry_najork2008",
    "mcdermott2024",
    "extras",
)
_ORDER = "BFNGDMKX"


def _load() -> None:
    for name in MODULES:
        importlib.import_module(f"prtheory.theory.{name}")


def _key(cid: str) -> tuple[int, str, int]:
    """Order of CLAIMS.md and LITERATURE.md for their prefixes (B, F, N, G, then D, M, K, then
    X); any other prefix of letters (Y1, ABC12, ...) after them, alphabetically."""
    m = re.fullmatch(r"([A-Za-z]+)(\d+)", cid)
    if not m:
        raise ValueError(f"claim id {cid!r} is not letters followed by digits, e.g. B1, Y12")
    prefix = m.group(1)
    rank = _ORDER.index(prefix) if len(prefix) == 1 and prefix in _ORDER else len(_ORDER)
    return rank, prefix, int(m.group(2))


def all_claims() -> list[Claim]:
    """Every registered claim, in the order of :data:`_ORDER` (B, F, N, G, D, M, K, X; by
    number).

    Returns
    -------
    list of Claim
        The project's claims (imported on first use) and any a user registered, in order.

    Examples
    --------
    One source document per prefix, in that order, each by number (B2 before B10):

    >>> from prtheory.theory import all_claims
    >>> claims = all_claims()
    >>> "".join(dict.fromkeys(c.id[0] for c in claims))
    'BFNGDMKX'
    >>> ids = [c.id for c in claims]
    >>> ids.index("B2") < ids.index("B10")
    True
    """
    _load()
    return sorted(REGISTRY.values(), key=lambda c: _key(c.id))
