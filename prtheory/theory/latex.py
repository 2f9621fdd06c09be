"""All proofs as one LaTeX document (``prtheory proofs --format latex`` -> ``proofs/proofs.tex``).

The document uses only ``article`` with ``amsmath`` and ``amssymb``, is pure ASCII (the Unicode in
titles and notes is mapped to LaTeX commands by :func:`tex_text`; a character outside the map is
an error, so nothing reaches LaTeX unescaped), and holds, per claim, the same content as its
Markdown proof: source, verdict, statement, assumptions, note, the numbered derivation steps with
how each was verified, and the independent checks.
"""

from __future__ import annotations

from prtheory.theory.registry import ClaimResult, to_latex

__all__ = ["render_latex", "tex_text"]

_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "^": r"\textasciicircum{}",
    "_": r"\_",
    "%": r"\%",
    "~": r"\textasciitilde{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    "§": r"\S{}",
    "²": r"\textsuperscript{2}",
    "·": r"\ensuremath{\cdot}",
    "…": r"\ldots{}",
    "−": r"\ensuremath{-}",
    "–": "--",
    "—": "---",
    "×": r"\ensuremath{\times}",
    "≤": r"\ensuremath{\le}",
    "≥": r"\ensuremath{\ge}",
    "≈": r"\ensuremath{\approx}",
    "∫": r"\ensuremath{\int}",
    "∂": r"\ensuremath{\partial}",
    "±": r"\ensuremath{\pm}",
    "’": "'",
    "“": "``",
    "”": "''",
}
_GREEK = "αβγδεπσ"
_GREEK_NAMES = ("alpha", "beta", "gamma", "delta", "epsilon", "pi", "sigma")
_SPECIAL.update({g: rf"\ensuremath{{\{n}}}" for g, n in zip(_GREEK, _GREEK_NAMES, strict=True)})


def tex_text(text: str) -> str:
    r"""``text`` as LaTeX text-mode source: specials escaped, known Unicode mapped.

    Raises ``ValueError`` naming the character for any other non-ASCII character.

    Parameters
    ----------
    text : str
        Prose: a title, a note.

    Returns
    -------
    str
        Pure ASCII LaTeX.

    Raises
    ------
    ValueError
        A non-ASCII character without a mapping.

    Examples
    --------
    >>> from prtheory.theory.latex import tex_text
    >>> print(tex_text("F_1 & 50% of #1, β ≤ 1"))
    F\_1 \& 50\% of \#1, \ensuremath{\beta} \ensuremath{\le} 1
    >>> tex_text("AP ≅ 1")
    Traceback (most recent call last):
    ...
    ValueError: text: no LaTeX mapping for '≅' (U+2245) in 'AP ≅ 1'
    """
    out = []
    for ch in text:
        if ch in _SPECIAL:
            out.append(_SPECIAL[ch])
        elif ord(ch) < 128:
            out.append(ch)
        else:
            raise ValueError(f"text: no LaTeX mapping for {ch!r} (U+{ord(ch):04X}) in {text!r}")
    return "".join(out)


def _display(latex: str) -> list[str]:
    return [r"\[", latex, r"\]"]


def _claim(res: ClaimResult) -> list[str]:
    c = res.claim
    verdict = c.verdict if res.passed else f"FAILED (declared: {c.verdict})"
    out = [
        rf"\section*{{{tex_text(c.id)}: {tex_text(c.title)}}}",
        rf"\addcontentsline{{toc}}{{section}}{{{tex_text(c.id)}: {tex_text(c.title)}}}",
        "",
        rf"\noindent\textit{{Source:}} {tex_text(c.source)}, {tex_text(c.location)}\\",
        rf"\textit{{Verdict:}} \textbf{{{tex_text(verdict)}}}: {tex_text(res.verdict_line)}\\",
        rf"\textit{{Kinds of check that bear on the statement:}} "
        rf"{tex_text(', '.join(res.kinds) or 'none')}",
        "",
        r"\paragraph{Statement.}",
        *_display(to_latex(c.statement())),
    ]
    if c.assumptions:
        out += [r"\paragraph{Assumptions.}", r"\begin{itemize}"]
        out += [rf"\item {tex_text(a)}" for a in c.assumptions]
        out += [r"\end{itemize}"]
    if c.note:
        out += [r"\paragraph{Note.}", tex_text(c.note), ""]
    out += [r"\paragraph{Derivation.}"]
    if res.steps:
        out += [r"\begin{enumerate}"]
        for s in res.steps:
            how = (
                s.method
                if s.verified is None
                else f"{s.method}, " + ("verified" if s.verified else "FAILED")
            )
            out += [rf"\item {tex_text(s.text)} (\textit{{{tex_text(how)}}})", *_display(s.latex)]
            if s.decided:
                out += ["sympy decided:", *_display(s.decided)]
        out += [r"\end{enumerate}"]
    else:
        out += [
            "None: this verdict compares printed numbers with the values the checks compute.",
            "",
        ]
    sc = res.statement_check
    out += [r"\paragraph{Statement check.}", tex_text(sc.summary() if sc else "none"), ""]
    if sc is not None:
        out += [r"\begin{itemize}"]
        out += [rf"\item {tex_text(p.status)}: {tex_text(p.method)}" for p in sc.parts]
        out += [r"\end{itemize}"] if sc.parts else [r"\item none", r"\end{itemize}"]
    out += [r"\paragraph{Further checks.}"]
    if res.checks:
        out += [r"\begin{itemize}"]
        for ch in res.checks:
            mark = "passed" if ch.passed else "FAILED"
            out += [
                rf"\item \textbf{{{tex_text(ch.kind)}}} ({mark}): {tex_text(ch.text)}. "
                + tex_text(ch.detail)
            ]
        out += [r"\end{itemize}"]
    else:
        out += ["None.", ""]
    if res.problems:
        out += [r"\paragraph{Problems.}", r"\begin{itemize}"]
        out += [rf"\item {tex_text(p)}" for p in res.problems]
        out += [r"\end{itemize}"]
    return [*out, ""]


def render_latex(results: list[ClaimResult]) -> str:
    r"""The whole document: preamble, table of contents, one section per claim.

    Parameters
    ----------
    results : list of ClaimResult
        The claims.

    Returns
    -------
    str
        The LaTeX source of ``proofs/proofs.tex``.

    Examples
    --------
    >>> import sympy as sp
    >>> from prtheory.theory.domain import Domain, Real
    >>> from prtheory.theory.registry import Claim, run_claim
    >>> x = sp.Symbol("x", positive=True)
    >>> square = sp.Eq(x * (x + 2) + 1, (x + 1) ** 2)
    >>> def derivation(pf):
    ...     pf.equal("expand", x * (x + 2) + 1, (x + 1) ** 2)
    ...     pf.establish("so", square, [1])
    >>> result = run_claim(Claim(
    ...     "Y9", "my notes", "eq. 1", "completing the square", lambda: square, ("x > 0",),
    ...     "holds", derivation, domain=Domain(Real(x, 0, 1, open_lo=True)),
    ... ))
    >>> from prtheory.theory.latex import render_latex
    >>> tex = render_latex([result])
    >>> tex.splitlines()[1], tex.count(r"\begin{document}"), tex.count(r"\end{document}")
    ('\\documentclass[10pt]{article}', 1, 1)
    >>> tex.isascii()
    True
    """
    lines = [
        "% generated by `prtheory proofs --format latex`; do not edit",
        r"\documentclass[10pt]{article}",
        r"\usepackage{amsmath,amssymb}",
        r"\usepackage[margin=2cm]{geometry}",
        r"\allowdisplaybreaks",
        r"\title{prtheory: proofs of the claims}",
        r"\date{}",
        r"\begin{document}",
        r"\maketitle",
        "Each claim is derived step by step (every step verified by sympy as it is recorded, or "
        "marked as given or concluded); its final inference is checked by sympy and its statement "
        "compared with what the derivation established; and the registry checks the statement "
        "itself over its domain (certified, or tested at points). References: "
        "\\texttt{references.bib}.",
        "",
        r"\tableofcontents",
        r"\clearpage",
        "",
    ]
    for r in results:
        lines += _claim(r)
    lines += [r"\end{document}", ""]
    return "\n".join(lines)
