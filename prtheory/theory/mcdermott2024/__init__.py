"""Claims K1-K3: McDermott, Zhang, Hansen, Angelotti & Gallifant, *A Closer Look at AUROC and
AUPRC under Class Imbalance* (NeurIPS 2024). Trust: the authors' code: Theorem 1 and Lemma 1.1 as
the first author states them in the notebook ``AUROC_AUPRC_equivalencies.ipynb`` of the public
repository ``mmcdermott/AUC_is_all_you_need`` (commit ``da86e5f``), which the paper's abstract
names.

:mod:`.theorem1` (K1, K2), :mod:`.lemma` (K3); :mod:`.forms` (the expectation forms on a finite
sample, also a second route to AUROC and AP in the tests) and :mod:`.mistakes` (adjacent
mistakes by brute force). Importing the package registers the claims.
"""

from __future__ import annotations

from prtheory.theory.mcdermott2024 import lemma, theorem1

__all__ = ["lemma", "theorem1"]
