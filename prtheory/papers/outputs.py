"""What ``prtheory tables`` and ``prtheory figures`` generate, in one place.

:data:`REPORTS` maps each Markdown file under ``reports/`` to the function that writes its text;
:func:`figure_data` lists the data of every figure. The staleness tests use the same two lists, so
a new report or figure is covered by the tests as soon as it is listed here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from prtheory.papers import boyd2012, flach2015, notes
from prtheory.papers.figdata import FigureData

__all__ = ["REPORTS", "figure_data", "write_tables"]

REPORTS: dict[str, Callable[[], str]] = {
    "boyd2012.md": boyd2012.report,
    "flach2015.md": flach2015.report,
    "notes.md": notes.report,
}


def figure_data() -> list[FigureData]:
    """The data behind every figure (no matplotlib needed).

    Returns
    -------
    list of FigureData
        Every paper's figures.

    See Also
    --------
    prtheory.papers.figures.write_figures

    Examples
    --------
    >>> from prtheory.papers.outputs import figure_data
    >>> len(figure_data())
    8
    """
    return [*boyd2012.figures(), *flach2015.figures(), *notes.figures()]


def write_tables(root: Path) -> list[Path]:
    """Write every Markdown report into ``root/reports``.

    Parameters
    ----------
    root : Path
        The project root.

    Returns
    -------
    list of Path
        The reports written.

    See Also
    --------
    figure_data

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from prtheory.papers.outputs import write_tables
    >>> with tempfile.TemporaryDirectory() as d:
    ...     [p.name for p in write_tables(pathlib.Path(d))]
    ['boyd2012.md', 'flach2015.md', 'notes.md']
    """
    out_dir = root / "reports"
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, make in REPORTS.items():
        path = out_dir / name
        path.write_text(make(), encoding="utf-8")
        paths.append(path)
    return paths
