"""The audit's outputs: plain text for a terminal, a Markdown table for a referee's report, and
JSON with one object per row and check (verdict, bound, method, certificate)."""

from __future__ import annotations

import json

from prtheory.audit.checks import RowResult

__all__ = ["render", "to_json", "to_markdown"]


_STATUS = {"flagged": "FLAGGED", "ok": "ok", "not checked": "not checked"}
_VERDICT = {True: "**impossible**", False: "consistent"}


def _ordered(res: RowResult):
    """Flagged findings first, each group in the order the checks ran."""
    return sorted(res.findings, key=lambda f: not f.flagged)


def _shown(results: list[RowResult], flagged_only: bool) -> list[RowResult]:
    return [r for r in results if r.flagged or not flagged_only]


def _summary(results: list[RowResult]) -> str:
    return f"{len(results)} rows, {sum(r.flagged for r in results)} flagged"


def render(results: list[RowResult], convention: str = "any", flagged_only: bool = False) -> str:
    """Human-readable audit report.

    Parameters
    ----------
    results : list of RowResult
        The audit's results.
    convention : str
        The rounding convention, for the header (default ``"any"``).
    flagged_only : bool
        Print only the flagged rows (default False).

    Returns
    -------
    str
        The text report.

    See Also
    --------
    to_markdown, to_json

    Examples
    --------
    The last line counts the rows (the two of :func:`prtheory.audit.checks.audit_rows`' example):

    >>> from prtheory.audit.checks import audit_rows
    >>> from prtheory.audit.report import render
    >>> from prtheory.audit.table import read_text
    >>> results = audit_rows(read_text("id,aucpr,skew,method\\nA,0.10,0.5,dg\\nB,0.40,0.5,dg\\n"))
    >>> render(results).splitlines()[-1]
    '2 rows, 1 flagged'
    """
    lines = [f"rounding convention: {convention}"]
    for res in _shown(results, flagged_only):
        lines.append(f"{res.row.label}: {_STATUS[res.status]}")
        if res.status == "not checked":
            why = "decides anything on" if res.findings else "applies to"
            lines.append(f"  (no check {why} the columns given)")
        for f in _ordered(res):
            mark = "FLAG" if f.flagged else "ok  " if f.checked else "note"
            lines.append(f"  {mark} {f.check} [{f.claims}]: {f.reasoning}")
    lines.append(_summary(results))
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def to_markdown(
    results: list[RowResult], convention: str = "any", flagged_only: bool = False
) -> str:
    """A Markdown table, one line per row and check, flagged checks first within a row.

    Parameters
    ----------
    results : list of RowResult
        The audit's results.
    convention : str
        The rounding convention (default ``"any"``).
    flagged_only : bool
        Only the flagged rows (default False).

    Returns
    -------
    str
        The Markdown page.

    See Also
    --------
    render, to_json

    Examples
    --------
    >>> from prtheory.audit.checks import audit_rows
    >>> from prtheory.audit.report import to_markdown
    >>> from prtheory.audit.table import read_text
    >>> results = audit_rows(read_text("id,aucpr,skew,method\\nA,0.10,0.5,dg\\n"))
    >>> to_markdown(results).splitlines()[0]
    'Rounding convention: any. 1 rows, 1 flagged.'
    """
    lines = [
        f"Rounding convention: {convention}. {_summary(results)}.",
        "",
        "| row | verdict | check | claims | method | bound | certificate |",
        "|---|---|---|---|---|---|---|",
    ]
    for res in _shown(results, flagged_only):
        for f in _ordered(res) or []:
            verdict = _VERDICT[f.flagged] if f.checked else "note"
            lines.append(
                f"| {_cell(res.row.label)} | {verdict} | "
                f"{f.check} | {f.claims} | {f.method or ''} | {f.bound or ''} | "
                f"{_cell(f.reasoning)} |"
            )
        if res.status == "not checked" and not res.findings:
            lines.append(f"| {_cell(res.row.label)} | not checked | | | | | |")
    return "\n".join(lines) + "\n"


def to_json(results: list[RowResult], convention: str = "any", flagged_only: bool = False) -> str:
    """JSON: ``{"rounding", "rows": [{"id", "flagged", "method", "checks": [...]}], "flagged"}``.

    Parameters
    ----------
    results : list of RowResult
        The audit's results.
    convention : str
        The rounding convention (default ``"any"``).
    flagged_only : bool
        Only the flagged rows (default False).

    Returns
    -------
    str
        The JSON document.

    See Also
    --------
    render, to_markdown

    Examples
    --------
    >>> import json
    >>> from prtheory.audit.checks import audit_rows
    >>> from prtheory.audit.report import to_json
    >>> from prtheory.audit.table import read_text
    >>> results = audit_rows(read_text("id,aucpr,skew,method\\nA,0.10,0.5,dg\\nB,0.40,0.5,dg\\n"))
    >>> doc = json.loads(to_json(results))
    >>> doc["flagged"], [row["id"] for row in doc["rows"]]
    (1, ['A', 'B'])
    """
    rows = [
        {
            "id": res.row.id,
            "label": res.row.label,
            "status": res.status,
            "flagged": res.flagged,
            "method": res.row.method,
            "averaged": res.row.averaged,
            "checks": [
                {
                    "check": f.check,
                    "claims": f.claims,
                    "verdict": "impossible" if f.flagged else "consistent" if f.checked else "note",
                    "bound": f.bound,
                    "method": f.method,
                    "certificate": f.reasoning,
                }
                for f in _ordered(res)
            ],
        }
        for res in _shown(results, flagged_only)
    ]
    doc = {
        "rounding": convention,
        "rows": rows,
        "flagged": sum(r.flagged for r in results),
        "total": len(results),
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
