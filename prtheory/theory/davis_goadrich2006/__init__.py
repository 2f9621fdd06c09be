"""Claims D1-D8: Davis & Goadrich, *The Relationship Between Precision-Recall and ROC Curves*
(ICML 2006). Trust: the paper (the author copy ``rocpr.pdf`` and the proceedings copy, public
repository ``erdeq-upenn/papers``, commit ``9ed660e``, ``concepts/ROC/``).

One module per theme: :mod:`.space` (D1-D3: the same confusion matrices, dominance, the
achievable curve), :mod:`.interpolation` (D4-D6: interpolation, Table 1, Figure 6),
:mod:`.areas` (D7-D8: AUC-ROC and WMW, the counter-example), and :mod:`.curves` (ROC and PR
curves of small rankings from the definitions, for the enumerations). Importing the package
registers the claims.
"""

from __future__ import annotations

from prtheory.theory.davis_goadrich2006 import areas, interpolation, space

__all__ = ["areas", "interpolation", "space"]
