"""Constructed examples shared by the proofs and the regenerated reports: the one place each is
defined, so the claim that is verified and the picture that is shown are the same example.

* :data:`FIGURE4_SKEW`, :data:`FIGURE4_F1`, :data:`FIGURE4_RECALLS` -- Figure 4 of Boyd et al. (2012) (claim B14): the F1 = 0.45 contour
  at skew 0.33 and the recalls of its points A, B, C (the copy does not show where the figure
  puts them; these are placed as the text describes: A unachievable, B just achievable, C at
  good precision and modest recall);
* :data:`FLACH2015_PAIR` -- two rankings on which AUPR and AUPRG disagree (claim F13, the
  mechanism of Flach & Kull's Section 4): 10 positives and 14 negatives (pi = 5/12); A puts three
  positives first and then stalls, B starts with two negatives and then ranks well;
* :data:`DAVIS_GOADRICH_WITNESS` -- two rankings of 20 positives and 2000 negatives whose
  AUC-ROC and AUC-PR orders are opposite (claim D8), as tied blocks (positives, negatives) from
  the top; each ROC curve is its own convex hull, as in Davis & Goadrich's Figure 7;
* :data:`MCDERMOTT_FIGURE`, :data:`MCDERMOTT_COUNTER` -- rankings (labels, top first) for
  claim K3: the notebook's Lemma 1.1 figure (Mistake 1 at ranks 8-9, Mistake 2 at ranks 2-3), and
  a ranking in which fixing the lower-scored of two adjacent mistakes (ranks 10-11) raises AP
  more than fixing the higher-scored one (ranks 4-5).

This module imports nothing from prtheory.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = [
    "DAVIS_GOADRICH_WITNESS",
    "FIGURE4_F1",
    "FIGURE4_RECALLS",
    "FIGURE4_SKEW",
    "FLACH2015_PAIR",
    "MCDERMOTT_COUNTER",
    "MCDERMOTT_FIGURE",
]

FIGURE4_SKEW = Fraction(33, 100)
FIGURE4_F1 = Fraction(9, 20)
FIGURE4_RECALLS = {"A": Fraction(19, 20), "B": Fraction(4, 5), "C": Fraction(3, 10)}

FLACH2015_PAIR: dict[str, tuple[int, ...]] = {
    "A": (1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0),
    "B": (0, 0, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0),
}

#: I: 10 positives on top, then a tie of 10 positives and 1496 negatives, then 504 negatives;
#: II: a tie of all 20 positives with 500 negatives on top, then 1500 negatives.
DAVIS_GOADRICH_WITNESS: dict[str, tuple[tuple[int, int], ...]] = {
    "I": ((10, 0), (10, 1496), (0, 504)),
    "II": ((20, 500), (0, 1500)),
}

#: The figure of the notebook's Lemma 1.1, read right to left (highest score first).
MCDERMOTT_FIGURE: tuple[int, ...] = (1, 0, 1, 1, 1, 0, 0, 0, 1, 0, 0)
#: Adjacent mistakes at ranks 4-5 (no positive above) and 10-11 (five positives above).
MCDERMOTT_COUNTER: tuple[int, ...] = (0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 1)
