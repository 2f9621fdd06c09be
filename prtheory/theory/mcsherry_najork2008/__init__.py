"""Claims M1-M2: McSherry & Najork, *Computing Information Retrieval Performance Measures
Efficiently in the Presence of Tied Scores* (ECIR 2008). Trust: the abstract only; the formulas
are derived here.

:mod:`prtheory.theory.mcsherry_najork2008.expectations` holds the claims,
:mod:`prtheory.theory.mcsherry_najork2008.blocks` the brute force over the orders of one tied
block that gives the registry the meaning of each expectation. Importing the package registers the
claims.
"""

from __future__ import annotations

from prtheory.theory.mcsherry_najork2008 import expectations

__all__ = ["expectations"]
