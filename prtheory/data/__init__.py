"""Printed numbers of the source documents: the one place they are transcribed.

The CSV files here are read by the theory layer (claims B12, B13 check them), by
:mod:`prtheory.papers` (the regenerated tables) and by ``prtheory audit`` (as example inputs),
so every layer sees the same digits. This module imports nothing from prtheory.

* ``boyd2012_table2.csv`` -- Boyd et al. (2012) Table 2: IMDB predicates, AUCPR and AUCNPR;
* ``boyd2012_table3.csv`` -- Table 3: UW-CSE advisedBy at ratios 1:k, downsampled and original;
* ``davis_goadrich2006_table1.csv`` -- Davis & Goadrich (2006) Table 1: the interpolated points
  between A = (TP 5, FP 5) and B = (10, 30) with 20 positives and 2000 negatives;
* ``davis_goadrich2006_figures.csv`` -- the areas printed beside Figures 6 and 7.
"""

from __future__ import annotations

import csv
from importlib import resources
from pathlib import Path

__all__ = [
    "boyd2012_table2",
    "boyd2012_table3",
    "data_path",
    "davis_goadrich2006_figures",
    "davis_goadrich2006_table1",
]


def data_path(name: str) -> Path:
    """Path of a data file shipped with the package (``prtheory/data/<name>``).

    Parameters
    ----------
    name : str
        The file's name.

    Returns
    -------
    Path
        ``prtheory/data/<name>``.

    Examples
    --------
    >>> from prtheory.data import data_path
    >>> data_path("boyd2012_table2.csv").is_file()
    True
    """
    return Path(str(resources.files("prtheory.data") / name))


def _rows(name: str) -> list[dict[str, str]]:
    with data_path(name).open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def boyd2012_table2() -> dict[str, tuple[str, str]]:
    """Table 2 as printed: predicate -> (AUCPR, AUCNPR), as text.

    Returns
    -------
    dict of str to (str, str)
        Predicate to its printed (AUCPR, AUCNPR).

    See Also
    --------
    boyd2012_table3
    prtheory.papers.boyd2012.means_row : the MEAN row recomputed.

    Examples
    --------
    >>> from prtheory.data import boyd2012_table2
    >>> boyd2012_table2()["actor"]
    ('1.000', '1.000')
    """
    return {r["id"]: (r["aucpr"], r["aucnpr"]) for r in _rows("boyd2012_table2.csv")}


def boyd2012_table3() -> dict[int, tuple[str, str, str, str]]:
    """Table 3 as printed: k of the ratio 1:k -> (downsampled AUCPR, AUCNPR, original-skew
    AUCPR, AUCNPR), as text (rows ``"1:k downsampled"`` and ``"1:k original"`` of the CSV).

    Returns
    -------
    dict of int to tuple of str
        k of the ratio 1:k to the four printed values.

    See Also
    --------
    boyd2012_table2

    Examples
    --------
    >>> from prtheory.data import boyd2012_table3
    >>> boyd2012_table3()[1]
    ('0.851', '0.785', '0.330', '0.316')
    """
    cells: dict[int, dict[str, tuple[str, str]]] = {}
    for r in _rows("boyd2012_table3.csv"):
        ratio, _, kind = r["id"].partition(" ")
        k = int(ratio.split(":")[1])
        cells.setdefault(k, {})[kind] = (r["aucpr"], r["aucnpr"])
    return {k: (*c["downsampled"], *c["original"]) for k, c in sorted(cells.items())}


def davis_goadrich2006_table1() -> list[tuple[int, int, str, str]]:
    """Table 1 as printed, row by row: (TP, FP, recall, precision), the last two as text.

    Returns
    -------
    list of (int, int, str, str)
        The rows: TP, FP, recall and precision as printed.

    See Also
    --------
    davis_goadrich2006_figures

    Examples
    --------
    The first row, TP = 5 and FP = 5 of 20 positives: recall 5/20 = 0.25, precision 5/10 = 0.5:

    >>> from prtheory.data import davis_goadrich2006_table1
    >>> davis_goadrich2006_table1()[0]
    (5, 5, '0.25', '0.500')
    """
    return [
        (int(r["tp"]), int(r["fp"]), r["rec"], r["prec"])
        for r in _rows("davis_goadrich2006_table1.csv")
    ]


def davis_goadrich2006_figures() -> dict[str, str]:
    """The areas printed beside Figures 6 and 7, by id (``"figure6 correct"``, ...), as text.

    Returns
    -------
    dict of str to str
        The printed areas by id.

    See Also
    --------
    davis_goadrich2006_table1

    Examples
    --------
    >>> from prtheory.data import davis_goadrich2006_figures
    >>> davis_goadrich2006_figures()["figure6 correct"]
    '0.031'
    """
    return {r["id"]: r["value"] for r in _rows("davis_goadrich2006_figures.csv")}
