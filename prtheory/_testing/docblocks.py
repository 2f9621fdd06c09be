"""The code blocks of the Markdown pages (README.md, docs/), as the tests execute them.

Every fenced block names its language. Blocks in :data:`EXECUTED` languages run in the tests:

* ``python`` blocks run as pasted, in page order in one fresh interpreter per page (as a reader
  pasting the page from the top into one session), each in a namespace and a scratch directory
  of its own (:mod:`prtheory._testing.docrun`); every comment that states the value of the
  expression before it (``expr   # Fraction(11, 30)``, ``expr   # 0.3666...``,
  ``expr   # 0.35281346...``: a trailing ``...`` states a prefix) must be the value the
  expression has after the block ran;
* ``console`` blocks run each ``$ command`` from a fresh scratch directory of its own in which
  ``examples/`` is the project's (a command that several pages show runs once): a command
  followed by lines of output must print them (times such as ``0.50s`` and JSON's
  ``"cpu":0.022`` are compared as ``N.NNs`` and ``"cpu":N``), a command with none shown must
  exit 0;
* ``bash`` blocks run as one script under ``set -e`` from such a directory (the form for
  commands that share files).

A block that cannot run as pasted (an install command, a template around the reader's own
function, a run of many minutes) says so in its first line, visible to every reader::

    # not executed: REASON

Blocks in other languages (``text``, ``toml``, ``json``, ...) are shown, never run; a block with
no language is an error, so that nothing is left unexecuted by accident. MyST directives
(```` ```{toctree} ````) are not code blocks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

__all__ = [
    "EXECUTED",
    "OPT_OUT",
    "SHOWN",
    "Block",
    "Command",
    "agrees",
    "blocks",
    "commands",
    "markdown_pages",
    "stated_values",
]

EXECUTED = ("python", "console", "bash")
#: languages of blocks that are shown and never run (data, configuration, printed output)
SHOWN = ("text", "toml", "json", "csv", "latex", "ini")
OPT_OUT = re.compile(r"^#\s*not executed:\s*(?P<reason>\S.{9,})$")

_FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})(?P<info>[^`]*)$")
_STATED = re.compile(
    r"^(?P<expr>[^#]+?)\s+# (?P<value>Fraction\(-?\d+, \d+\)|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)"
    r"(?P<prefix>\.\.\.)?(?=$|[,:;]| \()"
)


@dataclass(frozen=True)
class Block:
    """One fenced code block: its page (relative to the project root), the line of its opening
    fence, its language and its text."""

    page: str
    line: int
    lang: str
    source: str

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def opt_out(self) -> str | None:
        """The reason given in the block's first line for not executing it, or None."""
        first = self.source.splitlines()[0].strip() if self.source.strip() else ""
        m = OPT_OUT.match(first)
        return m.group("reason") if m else None

    @property
    def executed(self) -> bool:
        return self.lang in EXECUTED and self.opt_out is None


@dataclass(frozen=True)
class Command:
    """A ``$ command`` of a console block and the output lines shown after it."""

    line: str
    output: tuple[str, ...]


def markdown_pages(root: Path) -> list[Path]:
    """README.md, CONTRIBUTING.md and every Markdown page under docs/ (a new page is covered
    without being listed), except the generated ones."""
    pages = [root / "README.md", root / "CONTRIBUTING.md"]
    pages += sorted(
        p
        for p in (root / "docs").rglob("*.md")
        if not any(part.startswith("_") for part in p.relative_to(root / "docs").parts)
    )
    return pages


def blocks(path: Path, root: Path) -> list[Block]:
    """Every fenced code block of the page, nested fences included once (as their outer block).

    MyST directives (an info string starting with ``{``) are skipped."""
    out: list[Block] = []
    lines = path.read_text().splitlines()
    page = path.relative_to(root).as_posix()
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, info = m.group("fence"), m.group("info").strip()
        end = i + 1
        closing = re.compile(rf"^ {{0,3}}{fence[0]}{{{len(fence)},}}\s*$")
        while end < len(lines) and not closing.match(lines[end]):
            end += 1
        if not info.startswith("{"):
            lang = info.split()[0] if info else ""
            body = "\n".join(ln[len(m.group("indent")) :] for ln in lines[i + 1 : end])
            out.append(Block(page, i + 1, lang, body + "\n"))
        i = end + 1
    return out


def commands(block: Block) -> list[Command]:
    """The ``$ command`` lines of a console block (a line ending in ``\\`` continued by the
    next), each with the output lines that follow it."""
    out: list[Command] = []
    lines = iter(block.source.splitlines())
    for line in lines:
        if line.startswith("$ "):
            command = line[2:]
            while command.endswith("\\"):  # the shell's line continuation
                command = command[:-1].rstrip() + " " + next(lines, "").strip()
            out.append(Command(command, ()))
        elif out and line.strip():
            out[-1] = Command(out[-1].line, (*out[-1].output, line))
        elif not out and line.strip():
            raise ValueError(f"{block.id}: output before any $ command: {line!r}")
    return out


def stated_values(source: str) -> list[tuple[str, str, str, bool]]:
    """``(line, expression, value as written, is_prefix)`` for every line of a Python block
    whose comment states the value of its expression (an assignment states nothing)."""
    out = []
    for line in source.splitlines():
        m = _STATED.match(line)
        if not m or "=" in m.group("expr").split("(")[0]:
            continue
        out.append((line, m.group("expr").strip(), m.group("value"), bool(m.group("prefix"))))
    return out


def agrees(got: object, written: str, prefix: bool) -> bool:
    """Whether ``got`` is the value a comment wrote: its leading digits (``prefix``); the digits
    it prints (an mpmath number, which prints at the precision it was computed for); else equal
    and of the same type (``0.5`` is no ``Fraction(1, 2)``)."""
    import mpmath

    if prefix or isinstance(got, mpmath.mpf):
        return str(got).startswith(written) if prefix else str(got) == written
    want = eval(written, {"Fraction": Fraction})
    return bool(got == want) and type(got) is type(want)
