"""Line labels placed, when the figure is drawn, where they collide with nothing.

A label of an iso-F (or iso-FG) line is a :class:`PlacedLabel`: at draw time, when the axes'
final size and the renderer's text extents are known, it tries points along its own line (in
order of preference) and keeps the first where its box lies inside the axes (clear of the
spines) and meets no other line or marker, no patch or filled area, and no label placed before
it. matplotlib draws the
texts of an axes before its legend, and a legend at ``loc="best"`` avoids texts, so the legend
does not cover the labels either.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.text import Text
from matplotlib.transforms import Bbox

__all__ = ["PlacedLabel", "along_segment", "collisions"]

_PAD = 2.0  # pixels kept free around a label


def along_segment(x: np.ndarray, y: np.ndarray, points: int = 41) -> np.ndarray:
    """``points`` evenly spaced points from ``(x[0], y[0])`` to ``(x[1], y[1])``, as rows."""
    t = np.linspace(0.0, 1.0, points)[:, None]
    start, end = np.array([x[0], y[0]]), np.array([x[1], y[1]])
    return start + t * (end - start)


def _no(style: Any) -> bool:
    return style in (None, "None", "none", "", " ")


def _line_hits(line: Any, box: Bbox) -> bool:
    """Whether the drawn line (its segments, where it has a line style) or one of its markers
    meets ``box``."""
    transform = line.get_transform()
    path = transform.transform_path(line.get_path())
    if not _no(line.get_linestyle()) and path.intersects_bbox(box, filled=False):
        return True
    if _no(line.get_marker()):
        return False
    centres = transform.transform(line.get_xydata())
    radius = line.get_markersize() * line.figure.dpi / 72 / 2
    (x0, y0), (x1, y1) = box.padded(radius).get_points()
    x, y = centres[:, 0], centres[:, 1]
    return bool(np.any((x0 <= x) & (x <= x1) & (y0 <= y) & (y <= y1)))


def collisions(box: Bbox, ax: Any, own: Any, labels: list[Text]) -> list[str]:
    """What ``box`` (display pixels) collides with in ``ax``: the spines (outside the axes),
    lines and markers other than ``own``, patches, filled areas and line collections, the title,
    and the boxes of ``labels``."""
    found = []
    inner = ax.get_window_extent().padded(-_PAD)
    if not (inner.contains(box.x0, box.y0) and inner.contains(box.x1, box.y1)):
        found.append("spines")
    for line in ax.get_lines():
        if line is not own and line.get_visible() and _line_hits(line, box):
            found.append(f"line {line.get_label()!r}")
    for patch in ax.patches:
        path = patch.get_transform().transform_path(patch.get_path())
        if path.intersects_bbox(box, filled=True):
            found.append(f"patch {patch.get_label()!r}")
    for area in ax.collections:
        if isinstance(area, PolyCollection | LineCollection) and area.get_visible():
            filled = np.asarray(area.get_facecolor()).size > 0
            paths = [area.get_transform().transform_path(p) for p in area.get_paths()]
            if any(p.intersects_bbox(box, filled=filled) for p in paths):
                found.append(f"area {area.get_label()!r}")
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
    coordinates, in order of preference) where it collides with nothing, with the text on the
    side of the point its alignment says; where no candidate is free on that side, the other
    three sides (above or below, left or right of the point) are tried in turn; where every
    placement collides, the one that collides with least is kept."""

    def __init__(self, own: Any, candidates: np.ndarray, text: str, **kwargs: Any) -> None:
        x, y = candidates[0]
        super().__init__(x, y, text, **kwargs)
        self.own = own
        self.candidates = candidates

    def _sides(self) -> list[tuple[str, str]]:
        first = (self.get_horizontalalignment(), self.get_verticalalignment())
        others = [(h, v) for v in ("bottom", "top") for h in ("left", "right")]
        return [first, *(side for side in others if side != first)]

    def draw(self, renderer: Any) -> None:
        ax = self.axes
        assert ax is not None, "a PlacedLabel is drawn as a child of its axes"
        before = [t for t in ax.texts[: ax.texts.index(self)] if t.get_visible()]
        best, fewest = (self.candidates[0], self._sides()[0]), None
        for side in self._sides():
            self.update({"ha": side[0], "va": side[1]})
            for x, y in self.candidates:
                self.set_position((x, y))
                box = self.get_window_extent(renderer).padded(_PAD)
                hits = collisions(box, ax, self.own, before)
                if not hits:
                    super().draw(renderer)
                    return
                if fewest is None or len(hits) < fewest:
                    best, fewest = ((x, y), side), len(hits)
        (x, y), side = best
        self.set_position((x, y))
        self.update({"ha": side[0], "va": side[1]})
        super().draw(renderer)
