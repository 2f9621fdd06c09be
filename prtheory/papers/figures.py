"""Drawing the papers' figures with matplotlib (the ``plots`` extra).

Each drawing function takes the :class:`~prtheory.papers.figdata.FigureData` computed by a paper
module and returns a matplotlib Figure; :func:`write_figures` saves the PNGs and the manifest of
data fingerprints (see :mod:`prtheory.papers.figdata` for why fingerprints, not PNG bytes, decide
staleness). Importing this module imports matplotlib (Agg backend); nothing else in
:mod:`prtheory.papers` does.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from prtheory.papers.figdata import FigureData
from prtheory.papers.outputs import figure_data

__all__ = ["DRAW", "write_figures"]

_UNACHIEVABLE = {"color": "0.75", "alpha": 0.6, "label": "unachievable region"}


def _frac_value(text: str) -> float:
    """'1/3' -> 0.333..., '1' -> 1.0 (skews and ranges are stored as exact fraction strings)."""
    num, _, den = text.partition("/")
    return int(num) / int(den or 1)


def _pr_axes(ax, title: str = "") -> None:
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("recall")
    ax.set_ylabel("precision")
    ax.set_aspect("equal")
    ax.grid(alpha=0.3)
    if title:
        ax.set_title(title)


def boyd_fig1(d: FigureData):
    fig, ax = plt.subplots(figsize=(5.2, 5))
    r, pmin = d.arrays["recall"], d.arrays["min_precision"]
    ax.fill_between(r, 0, pmin, **_UNACHIEVABLE)
    ax.plot(r, pmin, "k-", lw=2, label="minimum PR curve")
    ax.plot(r, d.arrays["random_precision"], "C0--", lw=2, label=r"random guessing (p = $\pi$)")
    _pr_axes(ax, rf"Minimum PR curve at $\pi$ = {d.meta['pi']}")
    ax.legend(loc="upper right")
    return fig


def boyd_fig2(d: FigureData):
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


def boyd_fig3(d: FigureData):
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


def boyd_fig4(d: FigureData):
    fig, ax = plt.subplots(figsize=(5.6, 6.0))
    axis, f1 = d.arrays["axis"], d.arrays["f1"]
    level = _frac_value(d.meta["f1_level"])
    others = [0.1, 0.2, 0.3, 0.6, 0.7, 0.8, 0.9]
    cs = ax.contour(axis, axis, f1, levels=others, colors="C0", linestyles="dashed", linewidths=1)
    ax.clabel(cs, fmt="%.2g", fontsize=8)
    ax.contour(axis, axis, f1, levels=[level], colors="C3", linewidths=1.8)
    r, pmin = d.arrays["recall"], d.arrays["min_precision"]
    ax.fill_between(r, 0, pmin, **_UNACHIEVABLE)
    ax.plot(r, pmin, "k-", lw=2, label="minimum PR curve")
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
    ax.plot([], [], color="C0", ls="--", lw=1, label="F1 contours")
    ax.plot([], [], color="C3", lw=1.8, label=f"F1 = {level:g} (points A, B, C)")
    _pr_axes(ax, rf"F1 contours at $\pi$ = {_frac_value(d.meta['pi']):g}")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2, fontsize=9)
    return fig


DRAW: dict[str, Callable[[FigureData], object]] = {
    "boyd2012_fig1": boyd_fig1,
    "boyd2012_fig2": boyd_fig2,
    "boyd2012_fig3": boyd_fig3,
    "boyd2012_fig4": boyd_fig4,
}


def write_figures(root: Path) -> list[Path]:
    """Draw every figure into ``root/reports/figures`` and write its manifest."""
    out_dir = root / "reports" / "figures"
    out_dir.mkdir(parents=True, exist_ok=True)
    manifest = {}
    written = []
    for data in figure_data():
        fig = DRAW[data.name](data)
        path = out_dir / f"{data.name}.png"
        fig.savefig(path, dpi=110, bbox_inches="tight", metadata={"Software": None})
        plt.close(fig)
        manifest[path.name] = {"title": data.title, "data_sha256": data.fingerprint()}
        written.append(path)
    man = out_dir / "manifest.json"
    man.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return [*written, man]
