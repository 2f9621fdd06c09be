"""The lazy matplotlib import shared by the displays."""

from __future__ import annotations

from typing import Any


def axes(ax: Any) -> Any:
    """``ax``, or new axes on a new figure (matplotlib is imported here, not before)."""
    if ax is not None:
        return ax
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "drawing needs matplotlib: pip install -e '.[plots]' from a checkout of prtheory"
        ) from exc
    return plt.subplots()[1]


def unit_square(ax: Any, xlabel: str, ylabel: str) -> None:
    """Limits [0, 1] x [0, 1] with a small margin, equal aspect, and the axis labels."""
    ax.set_xlim(-0.01, 1.01)
    ax.set_ylim(-0.01, 1.01)
    ax.set_aspect("equal")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
