"""Drawing the papers' figures with matplotlib (the ``plots`` extra).

Each drawing function takes the :class:`~prtheory.papers.figdata.FigureData` computed by a paper
module and returns a matplotlib Figure; :func:`write_figures` saves the PNGs and the manifest of
data fingerprints (see :mod:`prtheory.papers.figdata` for why fingerprints, not PNG bytes, decide
staleness). Importing this module imports matplotlib (Agg backend); nothing else in
:mod:`prtheory.papers` does.

The rules of :mod:`prtheory.plots` hold here too: the label of an iso-line (F1, FG1, a mean's
level) is a :class:`~prtheory.plots._place.PlacedLabel`, put where it collides with no curve,
marker, filled region, spine, title or other label; markers mark operating points only where
the line does not already show them (the PRG curves have none, the convex hull has one at
each vertex, drawn above the curve).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from contourpy import contour_generator  # matplotlib's contouring library (its requirement)
from matplotlib.figure import Figure

from prtheory.papers.figdata import FigureData, drawing_digest
from prtheory.papers.outputs import figure_data
from prtheory.plots._place import PlacedLabel, along_segment
from prtheory.plots.prg import iso_fg_segment

__all__ = ["DRAW", "write_figures"]

_UNACHIEVABLE: dict[str, Any] = {"color": "0.75", "alpha": 0.6, "label": "unachievable region"}


def _frac_value(text: str) -> float:
    """'1/3' -> 0.333..., '1' -> 1.0 (skews and ranges are stored as exact fraction strings)."""
    num, _, den = text.partition("/")
    return int(num) / int(den or 1)


def _label(ax, line, along: np.ndarray, text: str, **style: Any) -> None:
    """Label ``line`` at the first point of ``along`` (in order of preference) where the text
    collides with nothing (decided when the figure is drawn)."""
    step = max(1, len(along) // 60)
    style = {"fontsize": 7, "color": "0.35", **style}
    ax.add_artist(PlacedLabel(line, along[::step], text, **style))


def _level_line(ax, axis: np.ndarray, grid: np.ndarray, level: float, text: str | None, **style):
    """The level set ``grid == level`` over ``axis`` x ``axis`` (``grid[i, j]`` at x = axis[j],
    y = axis[i]) drawn as lines, labelled ``text`` beside its longest piece (candidates from the
    right end leftwards, the text above-left of the point)."""
    traced = contour_generator(axis, axis, grid).lines(level)
    pieces = [np.asarray(p) for p in traced if len(p) > 1]
    lines = [ax.plot(p[:, 0], p[:, 1], **style)[0] for p in pieces]
    if text is not None and pieces:
        k = max(range(len(pieces)), key=lambda i: len(pieces[i]))
        along = pieces[k][np.argsort(-pieces[k][:, 0], kind="stable")]
        _label(ax, lines[k], along, text, ha="right", va="bottom")


def _unit_axes(ax, title: str, xlabel: str, ylabel: str, top: float = 1.0) -> None:
    ax.set_xlim(0, 1)
    ax.set_ylim(0, top)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_aspect("equal")
    ax.grid(alpha=0.3)
    ax.set_title(title)


def _pr_axes(ax, title: str) -> None:
    _unit_axes(ax, title, "recall", "precision", top=1.02)


def boyd_fig1(d: FigureData) -> Figure:
    fig, ax = plt.subplots(figsize=(5.2, 5))
    r, pmin = d.arrays["recall"], d.arrays["min_precision"]
    ax.fill_between(r, 0, pmin, **_UNACHIEVABLE)
    ax.plot(r, pmin, "k-", lw=2, label="minimum PR curve")
    ax.plot(r, d.arrays["random_precision"], "C0--", lw=2, label=r"random guessing (p = $\pi$)")
    _pr_axes(ax, rf"Minimum PR curve at $\pi$ = {d.meta['pi']}")
    ax.legend(loc="upper right")
    return fig


def boyd_fig2(d: FigureData) -> Figure:
    fig, ax = plt.subplots(figsize=(5.6, 5))
    r = d.arrays["recall"]
    for i, pi in enumerate(d.meta["skews"]):
        label = rf"$\pi$ = {_frac_value(pi):.3g}"
        ax.plot(
            r,
            d.arrays[f"pi={pi}"],
            color=plt.cm.viridis(i / (len(d.meta["skews"]) - 1)),
            lw=2,
            label=label,
        )
    _pr_axes(ax, "Minimum PR curves for several skews")
    ax.legend(loc="upper left", fontsize=9)
    return fig


def boyd_fig3(d: FigureData) -> Figure:
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.4))
    pi = d.arrays["pi"]
    styles = ("-", "--", ":")
    for (a, b), ls in zip(d.meta["ranges"], styles, strict=True):
        key = f"[{a},{b}]"
        label = f"recall in [{(_frac_value(a)):g}, {(_frac_value(b)):g}]"
        axes[0].plot(pi, d.arrays[key], "k" + ls, lw=2, label=label)
        axes[1].plot(pi, d.arrays[key + "/max"], "k" + ls, lw=2, label=label)
    axes[0].set_title("(a) AUCPR_min")
    axes[1].set_title("(b) AUCPR_min / AUCPR_max")
    for ax in axes:
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.set_xlabel(r"skew $\pi$")
        ax.grid(alpha=0.3)
        ax.legend(loc="upper left")
    axes[0].set_ylabel("minimum AUCPR")
    axes[1].set_ylabel("minimum AUCPR / maximum AUCPR")
    fig.tight_layout()
    return fig


def boyd_fig4(d: FigureData) -> Figure:
    fig, ax = plt.subplots(figsize=(5.6, 6.0))
    axis, f1 = d.arrays["axis"], d.arrays["f1"]
    level = _frac_value(d.meta["f1_level"])
    r, pmin = d.arrays["recall"], d.arrays["min_precision"]
    ax.fill_between(r, 0, pmin, **_UNACHIEVABLE)
    ax.plot(r, pmin, "k-", lw=2, label="minimum PR curve")
    _level_line(ax, axis, f1, level, None, color="C3", lw=1.8)
    for (x, y), name in zip(d.arrays["points"], d.meta["labels"], strict=True):
        ax.plot(x, y, "o", color="C3", ms=7, zorder=5)
        ax.annotate(
            name,
            (x, y),
            textcoords="offset points",
            xytext=(-4, 8),
            fontsize=12,
            color="C3",
            fontweight="bold",
            ha="right",
        )
    for other in (0.1, 0.2, 0.3, 0.6, 0.7, 0.8, 0.9):  # after A, B, C: their labels avoid them
        _level_line(ax, axis, f1, other, f"{other:g}", color="C0", ls="--", lw=1)
    ax.plot([], [], color="C0", ls="--", lw=1, label="F1 contours")
    ax.plot([], [], color="C3", lw=1.8, label=f"F1 = {level:g} (points A, B, C)")
    _pr_axes(ax, rf"F1 contours at $\pi$ = {_frac_value(d.meta['pi']):g}")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2, fontsize=9)
    return fig


def _prg_axes(ax, title: str) -> None:
    _unit_axes(ax, title, "recall gain", "precision gain")


def flach_fig2(d: FigureData) -> Figure:
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 5.4))
    a = d.arrays
    pi = _frac_value(d.meta["pi"])
    levels = [_frac_value(c) for c in d.meta["f1_levels"]]
    base = _frac_value(d.meta["baseline_f1"])
    left.plot(a["pr_recall"], a["pr_precision"], "C0-", lw=2, label="PR curve (DG interpolation)")
    # the operating points: where the interpolated curve has its classifiers
    left.plot(a["op_recall"], a["op_precision"], "C0o", ms=3.5)
    left.plot([1], [pi], "C2s", ms=7)
    _level_line(left, a["axis"], a["f1"], base, None, color="C2", lw=1.8)
    for level in levels:
        style = {"color": "0.45", "ls": "dotted", "lw": 1}
        _level_line(left, a["axis"], a["f1"], level, f"F1={level:.1f}", **style)
    left.plot([], [], color="0.45", ls="dotted", label="F1 isometrics")
    left.plot([], [], color="C2", lw=1.8, label=f"baseline: always-positive F1 = {base:g}")
    _pr_axes(left, rf"PR space, $\pi$ = {pi:.3g}")
    left.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), fontsize=8, ncol=2)
    baseline = "baseline: minor diagonal (F1 = always-positive)"
    right.plot([0.0, 1.0], [1.0, 0.0], "C2-", lw=1.8, label=baseline)
    right.plot(a["prg_recall_gain"], a["prg_precision_gain"], "C0-", lw=1.5, label="PRG curve")
    h = a["hull"].astype(int)
    right.plot(
        a["prg_recall_gain"][h],
        a["prg_precision_gain"][h],
        "C3--",
        marker="o",
        ms=4,
        lw=1.5,
        zorder=3,
        label="convex hull (Pareto front)",
    )
    for level, fg in zip(levels, a["fg1_levels"], strict=True):
        # the isometric precG + recG = 2 FG1 (F8), labelled from its upper end down
        gx, gy = iso_fg_segment(fg)
        (iso,) = right.plot(gx, gy, color="0.45", ls="dotted", lw=1)
        _label(right, iso, along_segment(gx, gy), f"F1={level:.1f}", va="bottom")
    right.plot([], [], color="0.45", ls="dotted", label="F1 isometrics (slope -1)")
    _prg_axes(right, "PRG space")
    right.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), fontsize=8, ncol=2)
    fig.tight_layout()
    return fig


def flach_pair(d: FigureData) -> Figure:
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 5.4))
    a = d.arrays
    pi = _frac_value(d.meta["pi"])
    for name, color, ls in (("A", "C0", "-"), ("B", "C1", "--")):
        left.plot(
            a[f"{name}_recall"],
            a[f"{name}_precision"],
            color=color,
            ls=ls,
            lw=2,
            label=f"model {name}: AUPR = {d.meta['aupr'][name]}",
        )
        right.plot(
            a[f"{name}_rg"],
            a[f"{name}_pg"],
            color=color,
            ls=ls,
            lw=2,
            label=f"model {name}: AUPRG = {d.meta['auprg'][name]}",
        )
    left.axvspan(0, pi, color="0.85", alpha=0.6, label=r"recall < $\pi$ (negative recall gain)")
    _pr_axes(left, rf"PR curves, $\pi$ = {pi:.3g}")
    right.plot([0, 1], [1, 0], "C2-", lw=1, label="baseline (minor diagonal)")
    _prg_axes(right, "PRG curves")
    for ax in (left, right):
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), fontsize=9, ncol=1)
    fig.tight_layout()
    return fig


def notes_scores(d: FigureData) -> Figure:
    fig, ax = plt.subplots(figsize=(5.6, 5.6))
    a = d.arrays
    for name, color, ls in (("A", "C0", "-"), ("B", "C1", "--")):
        r = [0.0, *a[f"{name}_recall"]]
        p = [a[f"{name}_precision"][0], *a[f"{name}_precision"]]
        ax.step(
            r,
            p,
            where="pre",
            color=color,
            ls=ls,
            lw=2,
            label=f"model {name}: AP = {d.meta['ap'][name]}",
        )
        ax.plot(a[f"{name}_recall"], a[f"{name}_precision"], "o", color=color, ms=5)
    x, y = a["threshold_point"]
    ax.plot([x], [y], "k*", ms=14, label="threshold 0.5 (both models)")
    _pr_axes(ax, "scores_A and scores_B")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), fontsize=9)
    return fig


def notes_means(d: FigureData) -> Figure:
    fig, axes = plt.subplots(1, 3, figsize=(15, 5.4))
    a = d.arrays
    beta, gamma = _frac_value(d.meta["beta"]), _frac_value(d.meta["gamma"])
    levels = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]
    titles = {
        "A": rf"arithmetic $A_\gamma$, $\gamma$ = {gamma:g} (slope $-1/\gamma$)",
        "G": rf"geometric $G_\beta$, $\beta$ = {beta:g}",
        "F": rf"harmonic $F_\beta$, $\beta$ = {beta:g}",
    }
    for ax, key in zip(axes, ("A", "G", "F"), strict=True):
        if key != "A":
            r = [0.0, 1.0]
            ax.plot(
                r,
                [v / beta for v in r],
                "k-",
                lw=2.5,
                label=r"R/P = $\beta$ (equal marginal value)",
            )
            ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), fontsize=9)
        for level in levels:
            _level_line(ax, a["axis"], a[key], level, f"{level:.1f}", color="C0", lw=1.2)
        _pr_axes(ax, titles[key])
    fig.tight_layout()
    return fig


DRAW: dict[str, Callable[[FigureData], Figure]] = {
    "boyd2012_fig1": boyd_fig1,
    "boyd2012_fig2": boyd_fig2,
    "boyd2012_fig3": boyd_fig3,
    "boyd2012_fig4": boyd_fig4,
    "flach2015_fig2": flach_fig2,
    "flach2015_pair": flach_pair,
    "notes_scores": notes_scores,
    "notes_means": notes_means,
}


def write_figures(root: Path) -> list[Path]:
    """Draw every figure into ``root/reports/figures`` and write its manifest.

    Parameters
    ----------
    root : Path
        The project root.

    Returns
    -------
    list of Path
        The PNGs and the manifest.

    See Also
    --------
    prtheory.papers.outputs.write_tables

    Examples
    --------
    Into a temporary root: one PNG per figure of :func:`prtheory.papers.outputs.figure_data`, and the
    manifest:

    >>> import tempfile, pathlib
    >>> from prtheory.papers.figures import write_figures
    >>> with tempfile.TemporaryDirectory() as d:
    ...     paths = write_figures(pathlib.Path(d))
    ...     sorted(p.suffix for p in paths)[-1], len(paths)
    ('.png', 9)
    """
    out_dir = root / "reports" / "figures"
    out_dir.mkdir(parents=True, exist_ok=True)
    manifest = {}
    written = []
    drawing = drawing_digest()
    for data in figure_data():
        fig = DRAW[data.name](data)
        path = out_dir / f"{data.name}.png"
        fig.savefig(path, dpi=110, bbox_inches="tight", metadata={"Software": None})
        plt.close(fig)
        manifest[path.name] = {
            "title": data.title,
            "data_sha256": data.fingerprint(),
            "drawing_sha256": drawing,
        }
        written.append(path)
    man = out_dir / "manifest.json"
    man.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return [*written, man]
