"""Sphinx configuration of the prtheory documentation (``sphinx-build -W -b html docs <out>``).

Before reading the sources, :func:`_generated_pages` writes what the build takes from elsewhere
into ``docs/_generated/`` (ignored by git): the proofs and reports as the repository holds them,
and the table of conventions, generated from the code's declaration of them
(:func:`prtheory.oracle.conventions.conventions_markdown`).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))

import prtheory  # noqa: E402
from prtheory.oracle.conventions import conventions_markdown  # noqa: E402

project = "prtheory"
author = "prtheory contributors"
copyright = "2026, prtheory contributors"
release = version = prtheory.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.napoleon",  # the numpydoc sections of the docstrings (Parameters, Returns, ...)
    "sphinx-mathjax-offline",  # MathJax served with the site, so the math renders offline
    "sphinx.ext.viewcode",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
myst_enable_extensions = ["dollarmath", "amsmath"]
myst_heading_anchors = 3
autosummary_generate = True
napoleon_google_docstring = False
napoleon_numpy_docstring = True
# napoleon makes every type of a Parameters or Raises section a cross-reference: the exceptions
# re-exported by prtheory (prtheory.InvalidInputError and prtheory.errors.InvalidInputError) and
# a shape's ``n`` have several targets, which is no error in the docstrings
suppress_warnings = ["ref.python"]
autodoc_default_options = {"members": True, "undoc-members": True, "show-inheritance": True}
autodoc_typehints = "description"
autodoc_member_order = "bysource"
html_theme = "furo"
html_title = f"prtheory {release}"
html_static_path = ["_static"]
html_css_files = ["tables.css", "code.css"]


def _generated_pages() -> None:
    # autosummary writes api/generated/ but never removes a page whose module was moved or
    # deleted, and a stale page fails the -W build: both directories are made afresh
    for stale in (DOCS / "_generated", DOCS / "api" / "generated"):
        if stale.exists():
            shutil.rmtree(stale)
    out = DOCS / "_generated"
    for name in ("proofs", "reports"):
        # proofs/README.md indexes the claims for readers of the repository (proofs.md does it
        # here) and links to references.bib, which is not a page
        skip = shutil.ignore_patterns("*.json", "README.md")
        shutil.copytree(ROOT / name, out / name, ignore=skip)
    (out / "conventions.md").write_text(conventions_markdown())
    # a glob would list B1, B10, B11, ..., B2: the claims in the order of their numbers instead
    # (included by proofs.md; absolute document names, from the docs root)
    claims = sorted((p.stem for p in (out / "proofs").glob("*.md")), key=_claim_order)
    toc = ["```{toctree}", ":maxdepth: 1", "", *(f"/_generated/proofs/{c}" for c in claims), "```"]
    (out / "proofs_toctree.md").write_text("\n".join(toc) + "\n")


def _claim_order(claim_id: str) -> tuple[str, int]:
    """``"B10"`` -> ``("B", 10)``: the letters, then the number as a number."""
    digits = claim_id.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    prefix = claim_id[: len(claim_id) - len(digits)]
    return (prefix, int(digits)) if digits.isdigit() else (claim_id, 0)


_generated_pages()


def _shared_navigation(app, pagename, templatename, context, doctree) -> None:
    """One navigation tree per directory of the ``_modules/`` source pages.

    The theme resolves the whole table of contents for every page it writes (about 60 % of the
    build's time); a source page is in no table of contents, so nothing in its tree is marked
    current, and its links depend only on its directory: pages of one directory share it.
    """
    toctree = context.get("toctree")
    if toctree is None or not pagename.startswith("_modules/"):
        return
    directory = pagename.rsplit("/", 1)[0]

    def shared(**kwargs):
        key = (directory, tuple(sorted(kwargs.items())))
        if key not in _NAVIGATION:
            _NAVIGATION[key] = toctree(**kwargs)
        return _NAVIGATION[key]

    context["toctree"] = shared


#: the navigation trees of the source pages, by directory and the theme's arguments
_NAVIGATION: dict = {}


def setup(app):
    # before the theme's handler (priority 500), which calls the toctree function
    app.connect("html-page-context", _shared_navigation, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
