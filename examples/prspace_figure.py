"""Draw docs/guide/img/prspace.png: PR space and PRG space for one simulated classifier.

Usage::

    python examples/prspace_figure.py [OUTPUT.png]

Binormal scores (positives N(1.5, 1), negatives N(0, 1), 300 items, 15% positives, seed 14,
scores rounded to 0.1 so that there are ties). Left: the step curve (average precision) and the
Davis-Goadrich curve with the unachievable region, iso-F1 lines and the baselines; right: the
PRG curve with its convex hull and iso-FG1 lines.
"""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from prtheory.plots import PRGDisplay, PRSpaceDisplay

DEFAULT = Path(__file__).resolve().parents[1] / "docs" / "guide" / "img" / "prspace.png"


def figure():
    """The figure, drawn (its labels are placed when it is saved or drawn)."""
    rng = np.random.default_rng(14)
    y = rng.random(300) < 0.15
    s = np.round(rng.normal(size=300) + 1.5 * y, 1)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 5.2))
    PRSpaceDisplay.from_predictions(y, s, ax=left, name="steps")
    PRSpaceDisplay.from_predictions(
        y,
        s,
        ax=left,
        name="Davis-Goadrich",
        interpolation="davis-goadrich",
        iso_f=None,
        show_unachievable=False,
        baselines=False,
    )
    left.set_title("PR space")
    PRGDisplay.from_predictions(y, s, ax=right, name="PRG")
    right.set_title("PRG space")
    fig.tight_layout()
    return fig


def main(out: Path = DEFAULT) -> None:
    figure().savefig(out, dpi=110)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT)
