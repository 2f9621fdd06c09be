"""Constructed examples shared by the proofs and the regenerated reports: the one place each is
defined, so the claim that is verified and the picture that is shown are the same example.

* :data:`FIGURE4_SKEW`, :data:`FIGURE4_F1`, :data:`FIGURE4_RECALLS` -- Figure 4 of Boyd et al. (2012) (claim B14): the F1 = 0.45 contour
  at skew 0.33 and the recalls of its points A, B, C (the copy does not show where the figure
  puts them; these are placed as the text describes: A unachievable, B just achievable, C at
  good precision and modest recall);
* :data:`FLACH2015_PAIR` -- two rankings on which AUPR and AUPRG disagree (claim F13, the
  mechanism of Flach & Kull's Section 4): 10 positives and 14 negatives (pi = 5/12); A puts three
  positives first and then stalls, B starts with two negatives and then ranks well.

This module imports nothing from prtheory.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["FIGURE4_F1", "FIGURE4_RECALLS", "FIGURE4_SKEW", "FLACH2015_PAIR"]

FIGURE4_SKEW = Fraction(33, 100)
FIGURE4_F1 = Fraction(9, 20)
FIGURE4_RECALLS = {"A": Fraction(19, 20), "B": Fraction(4, 5), "C": Fraction(3, 10)}

FLACH2015_PAIR: dict[str, tuple[int, ...]] = {
    "A": (1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0),
    "B": (0, 0, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0),
}
