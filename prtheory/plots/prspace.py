"""PR space: the curve, the unachievable region, iso-F_beta lines and the baselines.

Geometry (pure numpy, no matplotlib), each drawn exactly as computed here:

* the **step curve** (``interpolation="step"``): the operating points with TP + FP > 0 (exact
  precision and recall rounded once to float64), preceded by (0, p_first), drawn with
  matplotlib's ``drawstyle="steps-pre"``, so that precision ``p_k`` holds on ``(r_{k-1}, r_k]``:
  the area under the drawn line is average precision with ties grouped (N2);
* the **Davis-Goadrich curve** (``interpolation="davis-goadrich"``): between consecutive
  contingency tables FP is linear in TP (Davis & Goadrich 2006), starting from the empty
  classifier, along which precision is constant at ``p_first`` (the oracle's
  ``first_point="spark"``); each segment is sampled at evenly spaced TP;
* the **unachievable region** of the skew ``pi = pos/(pos+neg)`` (Boyd et al. 2012, B1): below
  the minimum precision ``pi r/(1 - pi + pi r)``, from :func:`prtheory.min_precision`
  (correctly rounded), as a polygon through (0, 0), the boundary at evenly spaced recalls, and
  (1, 0). Its boundary is the worst ranking's curve (B2); the area under it is AUCPR_min (B4);
* **iso-F_beta lines** (F2): ``F = (1+b^2) p r/(b^2 p + r) = f`` gives
  ``p = f r/((1+b^2) r - f b^2)``, drawn for ``r`` from ``f b^2/(1 + b^2 - f)`` (where ``p = 1``)
  to 1;
* **baselines**: horizontal lines at AUCPR_min(pi) (B4, :func:`prtheory.aucpr_min`) and at the
  expected AP of a uniformly random ranking (X1, :func:`prtheory.expected_random_ap`; with
  sample weights, or from a curve, the random classifier's AUCPR ``pi``, B9).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from prtheory._input import as_float_array, check_beta, check_option, check_skew
from prtheory.errors import InvalidInputError, UndefinedMetricError
from prtheory.floats import aucpr_min, expected_random_ap, min_precision
from prtheory.metrics.areas import average_precision
from prtheory.oracle.areas import pr_auc
from prtheory.oracle.counts import operating_points
from prtheory.oracle.ratios import Ratios
from prtheory.oracle.rounding import to_float
from prtheory.plots._axes import axes, unit_square

__all__ = [
    "INTERPOLATIONS",
    "PRSpaceDisplay",
    "dg_vertices",
    "iso_fbeta_line",
    "step_vertices",
    "unachievable_polygon",
]

INTERPOLATIONS = ("step", "davis-goadrich")
DEFAULT_ISO_F = (0.2, 0.4, 0.6, 0.8)
_SAMPLES = 201  # points along each iso-F line and along the unachievable boundary
_DG_POINTS = 4000  # points along the whole Davis-Goadrich curve (at least 2 per segment)


def step_vertices(tp: np.ndarray, fp: np.ndarray, pos: int) -> tuple[np.ndarray, np.ndarray]:
    """``(recall, precision)`` of the step curve: (0, p_first), then every point with TP+FP > 0.

    Parameters
    ----------
    tp, fp : ndarray of int
        Cumulative counts of the operating points.
    pos : int
        The positives.

    Returns
    -------
    tuple of ndarray
        Recall and precision of the step curve.

    See Also
    --------
    dg_vertices

    Examples
    --------
    (TP, FP) = (1, 0), (1, 1), (2, 1) of 2 positives: (0, 1) first, then (1/2, 1), (1/2, 1/2),
    (1, 2/3):

    >>> import numpy as np
    >>> from prtheory.plots.prspace import step_vertices
    >>> r, p = step_vertices(np.array([1, 1, 2]), np.array([0, 1, 1]), 2)
    >>> r.tolist(), p.round(12).tolist()
    ([0.0, 0.5, 0.5, 1.0], [1.0, 1.0, 0.5, 0.666666666667])
    """
    keep = np.flatnonzero((tp + fp) > 0)
    t, n = tp[keep], (tp + fp)[keep]
    precision = Ratios(t, n).to_float()
    recall = Ratios(t, np.full_like(t, pos)).to_float()
    return np.concatenate(([0.0], recall)), np.concatenate((precision[:1], precision))


def dg_vertices(
    tp: np.ndarray, fp: np.ndarray, pos: int, points: int = _DG_POINTS
) -> tuple[np.ndarray, np.ndarray]:
    """``(recall, precision)`` along the Davis-Goadrich interpolation from the empty classifier.

    Segment ``(T0, F0) -> (T1, F1)`` is sampled at ``TP = T0 + u dT``, ``FP = F0 + u dF`` for
    ``u`` evenly spaced in [0, 1] (``points`` in all, at least the two ends per segment); a
    segment with ``dT = 0`` is the vertical drop of precision at constant recall. At the empty
    classifier precision is the constant ``T1/(T1 + F1)`` of the first segment.

    Parameters
    ----------
    tp, fp : ndarray of int
        Cumulative counts of the operating points.
    pos : int
        The positives.
    points : int
        Samples in all (default 4000).

    Returns
    -------
    tuple of ndarray
        Recall and precision along the interpolation.

    See Also
    --------
    step_vertices

    Examples
    --------
    (TP, FP) = (1, 0), (2, 2) of 2 positives, 2 samples per segment: from the empty classifier
    precision is 1 up to recall 1/2; then TP = 1 + u, FP = 2u ends at (1, 2/4):

    >>> import numpy as np
    >>> from prtheory.plots.prspace import dg_vertices
    >>> r, p = dg_vertices(np.array([1, 2]), np.array([0, 2]), 2, points=4)
    >>> r.tolist(), p.tolist()
    ([0.0, 0.5, 0.5, 1.0], [1.0, 1.0, 1.0, 0.5])
    """
    t = np.concatenate(([0], tp)).astype(np.float64)
    f = np.concatenate(([0], fp)).astype(np.float64)
    seg = np.flatnonzero(t[1:] + f[1:] > 0)  # segments that end at a classifier with TP+FP > 0
    k = int(np.clip(points // max(seg.size, 1), 2, 33))
    u = np.linspace(0.0, 1.0, k)
    t0, f0 = t[seg][:, None], f[seg][:, None]
    dt, df = (t[seg + 1] - t[seg])[:, None], (f[seg + 1] - f[seg])[:, None]
    tt, ff = (t0 + u * dt).ravel(), (f0 + u * df).ravel()
    end = np.repeat(t[seg + 1] / (t[seg + 1] + f[seg + 1]), k)  # precision at the segment's end
    n = tt + ff
    precision = np.where(n > 0, tt / np.where(n > 0, n, 1.0), end)
    return tt / pos, precision


def unachievable_polygon(pi: float, samples: int = _SAMPLES) -> np.ndarray:
    """Vertices (recall, precision) of the unachievable region at skew ``0 < pi < 1`` (B1).

    Parameters
    ----------
    pi : float
        The skew, ``0 < pi < 1``.
    samples : int
        Points along the minimum curve (default 201).

    Returns
    -------
    ndarray of shape (samples + 1, 2)
        The vertices.

    See Also
    --------
    PRSpaceDisplay
    prtheory.oracle.min_precision : the curve (B1).

    Examples
    --------
    At pi = 1/2 the minimum precision pi r/(1 - pi + pi r) is 0, 1/3, 1/2 at r = 0, 1/2, 1; the
    polygon closes at (1, 0):

    >>> from prtheory.plots.prspace import unachievable_polygon
    >>> unachievable_polygon(0.5, samples=3).round(12).tolist()
    [[0.0, 0.0], [0.5, 0.333333333333], [1.0, 0.5], [1.0, 0.0]]
    """
    r = np.linspace(0.0, 1.0, samples)
    p = min_precision(r, pi)
    return np.vstack((np.column_stack((r, p)), [[1.0, 0.0]]))


def iso_fbeta_line(f: float, beta: float = 1.0, samples: int = _SAMPLES):
    """``(recall, precision)`` along ``F_beta = f`` (F2), from precision 1 down to recall 1.

    Parameters
    ----------
    f : float
        The level.
    beta : float
        The beta (default 1).
    samples : int
        Points along the line (default 201).

    Returns
    -------
    tuple of ndarray
        Recall and precision.

    See Also
    --------
    PRSpaceDisplay

    Examples
    --------
    F1 = 1/2 meets precision 1 at r = 1/3 and recall 1 at p = 1/3; at r = 2/3, p = 2/5:

    >>> from prtheory.plots.prspace import iso_fbeta_line
    >>> r, p = iso_fbeta_line(0.5, samples=3)
    >>> r.round(12).tolist(), p.round(12).tolist()
    ([0.333333333333, 0.666666666667, 1.0], [1.0, 0.4, 0.333333333333])
    """
    b2 = beta * beta
    r = np.linspace(f * b2 / (1 + b2 - f), 1.0, samples)
    p = np.minimum(f * r / ((1 + b2) * r - f * b2), 1.0)
    return r, p


def _check_levels(values: Any, name: str) -> tuple[float, ...]:
    if values is None:
        return ()
    arr = as_float_array(values, name, 0.0, 1.0)
    bad = (arr <= 0) | (arr >= 1)
    if np.any(bad):
        raise InvalidInputError(
            name, f"levels must lie strictly between 0 and 1, got {arr[bad][0]!r}"
        )
    return tuple(float(v) for v in np.atleast_1d(arr))


class PRSpaceDisplay:
    """A PR curve in PR space with the unachievable region, iso-F lines and baselines.

    Build it with :meth:`from_predictions` or :meth:`from_curve` (which also draw it), or
    directly from float arrays and call :meth:`plot`. Attributes after plotting: ``ax_``,
    ``figure_``, ``line_`` (the curve), ``unachievable_`` (a Polygon, or None),
    ``iso_f_lines_`` (Line2D per level), ``iso_f_labels_`` (placed where they collide with
    nothing, :mod:`prtheory.plots._place`), ``aucpr_min_line_`` and ``chance_level_line_``
    (Line2D, or None).

    Parameters
    ----------
    precision, recall : array-like of float
        The curve's points.
    pi : float
        The skew.
    drawstyle : str
        matplotlib's drawstyle (default ``"steps-pre"``).
    area : float or None
        The area, for the legend.
    area_name : str
        Its name (default ``"AP"``).
    name : str or None
        The curve's name.
    chance_level : float or None
        The random classifier's precision.
    chance_name : str
        Its name (default ``"random"``).
    iso_f : sequence of float
        The iso-F levels drawn.
    beta : float
        The beta of the iso-F lines (default 1).
    show_unachievable : bool
        Shade the unachievable region (default True).
    baselines : bool
        Draw the AUCPR_min and chance baselines (default True).

    See Also
    --------
    prtheory.plots.prg.PRGDisplay
    prtheory.metrics.precision_recall_curve : the curve.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from prtheory.plots import PRSpaceDisplay
    >>> display = PRSpaceDisplay.from_predictions([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    >>> display.unachievable_ is not None, len(display.iso_f_lines_)
    (True, 4)
    >>> import matplotlib.pyplot as plt
    >>> plt.close(display.figure_)
    """

    def __init__(
        self,
        precision,
        recall,
        *,
        pi: float,
        drawstyle: str = "steps-pre",
        area: float | None = None,
        area_name: str = "AP",
        name: str | None = None,
        chance_level: float | None = None,
        chance_name: str = "random",
        iso_f: Any = DEFAULT_ISO_F,
        beta: float = 1,
        show_unachievable: bool = True,
        baselines: bool = True,
    ) -> None:
        self.precision = np.asarray(precision, dtype=np.float64)
        self.recall = np.asarray(recall, dtype=np.float64)
        self.pi = float(pi)
        self.drawstyle = drawstyle
        self.area = area
        self.area_name = area_name
        self.name = name
        self.chance_level = self.pi if chance_level is None else float(chance_level)
        self.chance_name = chance_name
        self.iso_f = _check_levels(iso_f, "iso_f")
        self.beta = float(check_beta(beta))
        self.show_unachievable = show_unachievable
        self.baselines = baselines
        self.aucpr_min = float(aucpr_min(self.pi))

    # ------------------------------------------------------------------------------ builders

    @classmethod
    def from_predictions(
        cls,
        y_true,
        y_score,
        *,
        sample_weight=None,
        interpolation: str = "step",
        ax=None,
        name: str | None = None,
        iso_f: Any = DEFAULT_ISO_F,
        beta: float = 1,
        show_unachievable: bool = True,
        baselines: bool = True,
        **kwargs,
    ) -> PRSpaceDisplay:
        """Draw the PR curve of a ranking; extra keyword arguments go to the curve's ``plot``.

        ``interpolation`` is ``"step"`` (average precision's curve) or ``"davis-goadrich"``.
        Raises :class:`~prtheory.errors.UndefinedMetricError` when there is no positive weight.
        """
        interpolation = check_option(interpolation, "interpolation", INTERPOLATIONS)
        points = operating_points(y_true, y_score, sample_weight)
        if points.pos == 0:
            raise UndefinedMetricError("recall", "y_true has no positive weight, so recall is 0/0")
        pi = to_float(Fraction(points.pos, points.pos + points.neg))
        if interpolation == "step":
            recall, precision = step_vertices(points.tp, points.fp, points.pos)
            ap = average_precision(y_true, y_score, sample_weight=sample_weight)
            area, area_name = float(ap), "AP"
            drawstyle = "steps-pre"
        else:
            recall, precision = dg_vertices(points.tp, points.fp, points.pos)
            dg = pr_auc(
                y_true, y_score, sample_weight, method="davis-goadrich", first_point="spark"
            )
            area, area_name, drawstyle = to_float(dg), "AUCPR (DG)", "default"
        if sample_weight is None and points.neg > 0:
            chance, chance_name = float(expected_random_ap(points.pos, points.neg)), "random AP"
        else:
            chance, chance_name = pi, "random (π)"
        display = cls(
            precision,
            recall,
            pi=pi,
            drawstyle=drawstyle,
            area=area,
            area_name=area_name,
            name=name,
            chance_level=chance,
            chance_name=chance_name,
            iso_f=iso_f,
            beta=beta,
            show_unachievable=show_unachievable,
            baselines=baselines,
        )
        return display.plot(ax=ax, **kwargs)

    @classmethod
    def from_curve(
        cls,
        precision,
        recall,
        *,
        pi: float,
        ax=None,
        name: str | None = None,
        iso_f: Any = DEFAULT_ISO_F,
        beta: float = 1,
        show_unachievable: bool = True,
        baselines: bool = True,
        **kwargs,
    ) -> PRSpaceDisplay:
        """Draw a given PR curve as steps (precision ``p_k`` on ``(r_{k-1}, r_k]``) at skew ``pi``.

        The points must be ordered by recall, increasing or decreasing (scikit-learn's
        ``precision_recall_curve`` order is decreasing); a decreasing curve is reversed. The
        chance level is ``pi`` (B9).
        """
        p = as_float_array(precision, "precision", 0.0, 1.0)
        r = as_float_array(recall, "recall", 0.0, 1.0)
        if p.ndim != 1 or r.ndim != 1 or p.size != r.size or p.size == 0:
            raise InvalidInputError(
                "precision, recall",
                f"must be 1-D of one non-zero length, got {p.shape} and {r.shape}",
            )
        pi = check_skew(pi)
        if not pi > 0:
            raise InvalidInputError("pi", "must be > 0 (a PR curve needs positives)")
        d = np.diff(r)
        if np.all(d <= 0) and r.size > 1:
            p, r = p[::-1], r[::-1]
        elif not np.all(d >= 0):
            raise InvalidInputError("recall", "must be ordered (non-decreasing or non-increasing)")
        if r[0] > 0:
            p, r = np.concatenate((p[:1], p)), np.concatenate(([0.0], r))
        display = cls(
            p,
            r,
            pi=float(pi),
            name=name,
            chance_name="random (π)",
            iso_f=iso_f,
            beta=beta,
            show_unachievable=show_unachievable,
            baselines=baselines,
        )
        return display.plot(ax=ax, **kwargs)

    # ------------------------------------------------------------------------------ drawing

    def plot(self, ax=None, *, name: str | None = None, **kwargs) -> PRSpaceDisplay:
        """Draw on ``ax`` (new axes when None); keyword arguments go to the curve's ``plot``."""
        from matplotlib.patches import Polygon

        ax = axes(ax)
        name = self.name if name is None else name
        self.unachievable_ = None
        if self.show_unachievable and 0 < self.pi < 1:
            self.unachievable_ = Polygon(
                unachievable_polygon(self.pi),
                closed=True,
                facecolor="0.85",
                edgecolor="0.5",
                linewidth=0.8,
                label=f"unachievable (π = {self.pi:.3g})",
            )
            ax.add_patch(self.unachievable_)
        from prtheory.plots._place import PlacedLabel

        self.iso_f_lines_, self.iso_f_labels_ = [], []
        for f in self.iso_f:
            r, p = iso_fbeta_line(f, self.beta)
            (line,) = ax.plot(r, p, color="0.6", linestyle=":", linewidth=0.8)
            # candidates from the right end (recall 1) leftwards; the text sits above-left
            along = np.column_stack((r, p))[::-1][:: max(1, len(r) // 60)]
            placed = PlacedLabel(
                line,
                along,
                f"F{self.beta:g}={f:g}",
                fontsize=7,
                color="0.4",
                ha="right",
                va="bottom",
            )
            ax.add_artist(placed)
            self.iso_f_labels_.append(placed)
            self.iso_f_lines_.append(line)
        self.aucpr_min_line_ = self.chance_level_line_ = None
        if self.baselines:
            self.aucpr_min_line_ = ax.axhline(
                self.aucpr_min,
                color="tab:red",
                linestyle="--",
                linewidth=0.9,
                label=f"AUCPR_min = {self.aucpr_min:.3f}",
            )
            self.chance_level_line_ = ax.axhline(
                self.chance_level,
                color="0.3",
                linestyle="-.",
                linewidth=0.9,
                label=f"{self.chance_name} = {self.chance_level:.3f}",
            )
        label = name or "PR curve"
        if self.area is not None:
            label = f"{label} ({self.area_name} = {self.area:.3f})"
        kwargs = {"drawstyle": self.drawstyle, "label": label, **kwargs}
        (self.line_,) = ax.plot(self.recall, self.precision, **kwargs)
        unit_square(ax, "Recall", "Precision")
        ax.legend(loc="best", fontsize=8)
        self.ax_, self.figure_ = ax, ax.figure
        return self
