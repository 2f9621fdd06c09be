"""``prtheory audit``: is a published precision-recall number possible at all?

* :mod:`prtheory.audit.printed` -- what a rounded, printed number stands for;
* :mod:`prtheory.audit.intervals` -- exact and certified intervals;
* :mod:`prtheory.audit.images` -- images of rounding boxes under the monotone closed forms;
* :mod:`prtheory.audit.methods` -- the least area of each AUCPR method (step, Davis-Goadrich,
  trapezoid, ...), with proofs;
* :mod:`prtheory.audit.table` -- reading tables as pasted (CSV, TSV, ``;``, aliases);
* :mod:`prtheory.audit.checks` -- the checks and their certificates;
* :mod:`prtheory.audit.report` -- text, Markdown and JSON outputs.
"""

from prtheory.audit.checks import Finding, RowResult, audit_row, audit_rows
from prtheory.audit.methods import METHODS, least_area
from prtheory.audit.report import render, to_json, to_markdown
from prtheory.audit.table import Row, parse_row, read_rows, read_text

__all__ = [
    "METHODS",
    "Finding",
    "Row",
    "RowResult",
    "audit_row",
    "audit_rows",
    "least_area",
    "parse_row",
    "read_rows",
    "read_text",
    "render",
    "to_json",
    "to_markdown",
]
