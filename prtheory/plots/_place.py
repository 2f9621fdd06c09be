"""Line labels placed, when the figure is drawn, where they collide with nothing.

A label of an iso-F (or iso-FG) line is a :class:`PlacedLabel`: at draw time, when the axes'
final size and the renderer's text extents are known, it tries points along its own line (in
order of preference) and keeps the first where its box lies inside the axes (clear of the
spines) and meets no other line, no patch, and no label placed before it. matplotlib draws the
texts of an axes before its legend, and a legend at ``loc="best"`` avoids texts, so the legend
does not cover the labels either.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.text import Text
from matplotlib.transforms import Bbox

__all__ = ["PlacedLabel", "collisions"]

_PAD = 2.0  # pixels kept free around a label


def collisions(box: Bbox, ax: Any, own: Any, labels: list[Text]) -> list[str]:
    """What ``box`` (display pixels) collides with in ``ax``: the spines (outside the axes),
    lines other than ``own``, patches, the title, and the boxes of ``labels``."""
    found = []
    inner = ax.get_window_extent().padded(-_PAD)
    if not (inner.contains(box.x0, box.y0) and inner.contains(box.x1, box.y1)):
        found.append("spines")
    for line in ax.get_lines():
        if line is own or not line.get_visible():
            continue
        path = line.get_transform().transform_path(line.get_path())
        if path.intersects_bbox(box, filled=False):
            found.append(f"line {line.get_label()!r}")
    for patch in ax.patches:
        path = patch.get_transform().transform_path(patch.get_path())
        if path.intersects_bbox(box, filled=True):
            found.append(f"patch {patch.get_label()!r}")
    renderer = ax.figure.canvas.get_renderer()
    title = ax.title.get_window_extent(renderer)
    if ax.title.get_text() and box.overlaps(title):
        found.append("title")
    for other in labels:
        if box.overlaps(other.get_window_extent(renderer).padded(_PAD)):
            found.append(f"label {other.get_text()!r}")
    return found


class PlacedLabel(Text):
    """A label of the line ``own``, placed at draw time at the first of ``candidates`` (data
    coordinates, in order of preference) where it collides with nothing; where every candidate
    collides, at the one that collides with least."""

    def __init__(self, own: Any, candidates: np.ndarray, text: str, **kwargs: Any) -> None:
        x, y = candidates[0]
        super().__init__(x, y, text, **kwargs)
        self.own = own
        self.candidates = candidates

    def draw(self, renderer: Any) -> None:
        ax = self.axes
        assert ax is not None, "a PlacedLabel is drawn as a child of its axes"
        before = [t for t in ax.texts[: ax.texts.index(self)] if t.get_visible()]
        best, fewest = self.candidates[0], None
        for x, y in self.candidates:
            self.set_position((x, y))
            hits = collisions(self.get_window_extent(renderer).padded(_PAD), ax, self.own, before)
            if not hits:
                best = (x, y)
                break
            if fewest is None or len(hits) < fewest:
                best, fewest = (x, y), len(hits)
        self.set_position(best)
        super().draw(renderer)
