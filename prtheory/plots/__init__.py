"""PR-space and PRG-space displays in the style of scikit-learn's Display API (``plots`` extra).

* :class:`PRSpaceDisplay` -- a PR curve (step, or Davis-Goadrich interpolated) with what only an
  exact reference can draw: the unachievable region of the skew (Boyd et al. 2012, B1), iso-F_beta
  lines (F2), and the AUCPR_min (B4) and random-AP (X1) baselines;
* :class:`PRGDisplay` -- a Precision-Recall-Gain curve (Flach & Kull 2015, F5) with its convex
  hull and iso-F_beta-gain lines (F8).

``from_predictions(...)`` and ``from_curve(...)`` build a display and draw it; ``plot(ax=...)``
draws it (again) on any axes; the drawn artists are attributes (``line_``, ``ax_``,
``figure_``, ...). The coordinates come from the exact oracle, rounded once to float64; they are
computed when the display is built, and matplotlib is imported only when something is drawn.
"""

from prtheory.plots.prg import PRGDisplay
from prtheory.plots.prspace import PRSpaceDisplay

__all__ = ["PRGDisplay", "PRSpaceDisplay"]
