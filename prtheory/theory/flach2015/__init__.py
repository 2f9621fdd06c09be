"""Claims F1-F13: Flach & Kull, *Precision-Recall-Gain Curves: PR Analysis Done Right* (NeurIPS
2015), seed 002.

One module per theme: :mod:`.formulas` (definitions over contingency tables; exact PRG helpers
for concrete rankings), :mod:`.f_measures` (F1-F4), :mod:`.gains` (F5-F8), :mod:`.expected_fg`
(F9), :mod:`.calibration` (F10-F12), :mod:`.openml` (F13).

The pieces of a derivation that a wrong variant could change (the weight ``mu`` of Theorem 1,
the slope of Theorem 2, the count forms of Definition 1, the formula of Theorem 3) are functions
that take the candidate form, so the same checking logic rejects a wrong candidate (see the
tests). Importing the package registers the claims.
"""

from __future__ import annotations

from prtheory.theory.flach2015.calibration import BETA2_PRINTED, theorem4_steps
from prtheory.theory.flach2015.expected_fg import A_, theorem3_steps, y0_
from prtheory.theory.flach2015.f_measures import BASELINE, f1_steps
from prtheory.theory.flach2015.formulas import (
    FN,
    FP,
    FP1,
    FP2,
    TP,
    TP1,
    TP2,
    auprg,
    lam,
    pi,
    precision_gain_counts,
    prg_path,
)
from prtheory.theory.flach2015.gains import definition1_steps, theorem1_steps, theorem2_steps
from prtheory.theory.flach2015.openml import RANKING_A, RANKING_B

__all__ = [
    "A_",
    "BASELINE",
    "BETA2_PRINTED",
    "FN",
    "FP",
    "FP1",
    "FP2",
    "RANKING_A",
    "RANKING_B",
    "TP",
    "TP1",
    "TP2",
    "auprg",
    "definition1_steps",
    "f1_steps",
    "lam",
    "pi",
    "precision_gain_counts",
    "prg_path",
    "theorem1_steps",
    "theorem2_steps",
    "theorem3_steps",
    "theorem4_steps",
    "y0_",
]
