"""Precision-Recall-Gain space: the PRG curve, its convex hull and iso-F_beta-gain lines.

Flach & Kull (2015): precision gain ``precG = 1 - (pi/(1-pi)) FP/TP`` and recall gain
``recG = 1 - (pi/(1-pi)) FN/TP`` (F5). The curve is :func:`prtheory.oracle.prg_curve` (its exact
points with the recG = 0 and precG = 0 crossings), drawn where recG >= 0 (the unit square of the
paper; points below precG = 0 fall outside the axes); the hull is
:func:`prtheory.oracle.prg_convex_hull`. Every coordinate is the exact value rounded once to
float64. F_beta-gain is linear in PRG space (F8):
``FG_beta = (precG + beta^2 recG)/(1 + beta^2)``, so the iso-FG line of level ``g`` is the
straight segment ``precG = (1 + beta^2) g - beta^2 recG`` inside the unit square.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from prtheory._input import check_beta
from prtheory.oracle.curves import prg_convex_hull, prg_curve
from prtheory.oracle.prg import auprg
from prtheory.oracle.rounding import to_float
from prtheory.plots._axes import axes, unit_square
from prtheory.plots.prspace import _check_levels

__all__ = ["PRGDisplay", "iso_fg_segment"]

DEFAULT_ISO_FG = (0.2, 0.4, 0.6, 0.8)


def iso_fg_segment(g: float, beta: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """End points ``(recG, precG)`` of the iso-F_beta-gain line of level ``g`` in the unit
    square: ``precG = (1 + b^2) g - b^2 recG`` for ``recG`` between ``((1+b^2) g - 1)/b^2`` (where
    precG = 1) and ``(1+b^2) g / b^2`` (where precG = 0), both cut to [0, 1].

    Parameters
    ----------
    g : float
        The level.
    beta : float
        The beta (default 1).

    Returns
    -------
    tuple of ndarray
        The two end points' recall gains and precision gains.

    See Also
    --------
    PRGDisplay

    Examples
    --------
    FG1 = 1/2: precG = 1 - recG, from (0, 1) to (1, 0):

    >>> from prtheory.plots.prg import iso_fg_segment
    >>> rg, pg = iso_fg_segment(0.5)
    >>> rg.tolist(), pg.tolist()
    ([0.0, 1.0], [1.0, 0.0])
    """
    b2 = beta * beta
    lo = max(0.0, ((1 + b2) * g - 1) / b2)
    hi = min(1.0, (1 + b2) * g / b2)
    x = np.array([lo, hi])
    return x, (1 + b2) * g - b2 * x


class PRGDisplay:
    """A PRG curve with its convex hull and iso-FG lines (Flach & Kull 2015).

    Build it with :meth:`from_predictions` (which also draws it), or from float arrays and call
    :meth:`plot`. Attributes after plotting: ``ax_``, ``figure_``, ``line_`` (the curve),
    ``hull_line_`` (or None, markers at the hull's vertices), ``iso_fg_lines_`` and
    ``iso_fg_labels_`` (placed where they collide with nothing, :mod:`prtheory.plots._place`).

    Parameters
    ----------
    precision_gain, recall_gain : array-like of float
        The curve's points.
    hull_precision_gain, hull_recall_gain : array-like of float or None
        The convex hull's vertices.
    auprg : float or None
        The area, for the legend.
    name : str or None
        The curve's name, for the legend.
    iso_fg : sequence of float
        The iso-FG levels drawn (default 0.2, 0.4, 0.6, 0.8).
    beta : float
        The beta of the iso-FG lines (default 1).

    See Also
    --------
    prtheory.plots.prspace.PRSpaceDisplay
    prtheory.metrics.prg_curve : the curve.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from prtheory.plots import PRGDisplay
    >>> display = PRGDisplay.from_predictions([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    >>> len(display.iso_fg_lines_)
    4
    >>> import matplotlib.pyplot as plt
    >>> plt.close(display.figure_)
    """

    def __init__(
        self,
        precision_gain,
        recall_gain,
        *,
        hull_precision_gain=None,
        hull_recall_gain=None,
        auprg: float | None = None,
        name: str | None = None,
        iso_fg: Any = DEFAULT_ISO_FG,
        beta: float = 1,
    ) -> None:
        self.precision_gain = np.asarray(precision_gain, dtype=np.float64)
        self.recall_gain = np.asarray(recall_gain, dtype=np.float64)
        self.hull_precision_gain = hull_precision_gain
        self.hull_recall_gain = hull_recall_gain
        self.auprg = auprg
        self.name = name
        self.iso_fg = _check_levels(iso_fg, "iso_fg")
        self.beta = float(check_beta(beta))

    @classmethod
    def from_predictions(
        cls,
        y_true,
        y_score,
        *,
        sample_weight=None,
        ax=None,
        name: str | None = None,
        iso_fg: Any = DEFAULT_ISO_FG,
        beta: float = 1,
        hull: bool = True,
        **kwargs,
    ) -> PRGDisplay:
        """Draw the PRG curve of a ranking; extra keyword arguments go to the curve's ``plot``.

        The legend gives AUPRG with ``negative_gain="signed"`` (the official code's area,
        :func:`prtheory.oracle.auprg`). Raises
        :class:`~prtheory.errors.UndefinedMetricError` unless both classes have weight.
        """
        curve = prg_curve(y_true, y_score, sample_weight)
        x, y = curve.recall_gain.to_float(), curve.precision_gain.to_float()
        keep = curve.recall_gain.numerators >= 0  # denominators neg * TP are > 0
        hull_x = hull_y = None
        if hull:
            idx = prg_convex_hull(curve)
            hull_x, hull_y = x[idx], y[idx]
        area = to_float(auprg(y_true, y_score, sample_weight, negative_gain="signed"))
        display = cls(
            y[keep],
            x[keep],
            hull_precision_gain=hull_y,
            hull_recall_gain=hull_x,
            auprg=area,
            name=name,
            iso_fg=iso_fg,
            beta=beta,
        )
        return display.plot(ax=ax, **kwargs)

    def plot(self, ax=None, *, name: str | None = None, **kwargs) -> PRGDisplay:
        """Draw on ``ax`` (new axes when None); keyword arguments go to the curve's ``plot``."""
        ax = axes(ax)
        name = self.name if name is None else name
        from prtheory.plots._place import PlacedLabel, along_segment

        self.iso_fg_lines_, self.iso_fg_labels_ = [], []
        for g in self.iso_fg:
            gx, gy = iso_fg_segment(g, self.beta)
            (line,) = ax.plot(gx, gy, color="0.6", linestyle=":", linewidth=0.8)
            # candidates from the upper end (precision gain 1) down the line; text above-right
            placed = PlacedLabel(
                line,
                along_segment(gx, gy),
                f"FG{self.beta:g}={g:g}",
                fontsize=7,
                color="0.4",
                va="bottom",
            )
            ax.add_artist(placed)
            self.iso_fg_labels_.append(placed)
            self.iso_fg_lines_.append(line)
        self.hull_line_ = None
        if self.hull_recall_gain is not None:
            # markers only at the hull's vertices: the operating points optimal for some F-beta
            (self.hull_line_,) = ax.plot(
                self.hull_recall_gain,
                self.hull_precision_gain,
                color="tab:orange",
                linestyle="--",
                linewidth=1.2,
                marker="o",
                markersize=3.5,
                zorder=3,
                label="convex hull",
            )
        label = name or "PRG curve"
        if self.auprg is not None:
            label = f"{label} (AUPRG = {self.auprg:.3f})"
        kwargs = {"label": label, "linewidth": 1.2, **kwargs}
        (self.line_,) = ax.plot(self.recall_gain, self.precision_gain, **kwargs)
        unit_square(ax, "Recall gain", "Precision gain")
        ax.legend(loc="best", fontsize=8)
        self.ax_, self.figure_ = ax, ax.figure
        return self
