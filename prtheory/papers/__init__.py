"""The source papers, regenerated: tables, figures and an audit of published numbers.

* :mod:`prtheory.papers.boyd2012` -- Boyd, Santos Costa, Davis & Page (ICML 2012): Tables 1-3,
  the mammography example, the numbers in the text, Figures 1-4;
* :mod:`prtheory.papers.flach2015` -- Flach & Kull (NeurIPS 2015): Figure 2, the Figure 3
  calibration arithmetic, a constructed AUPR / AUPRG disagreement;
* :mod:`prtheory.papers.notes` -- the worked examples of the notes on precision, recall and AP
  and of Gandenberger's post on weighted Pythagorean means;
* :mod:`prtheory.audit.checks` -- ``prtheory audit FILE``: consistency checks for published PR
  numbers under rounding, built on :mod:`prtheory.audit.printed` (what a rounded number stands
  for) and :mod:`prtheory.audit.images` (images of rounding boxes under monotone metrics).

Every number in ``reports/`` that these modules own comes from ``prtheory tables`` (Markdown) or
``prtheory figures`` (PNG + ``reports/figures/manifest.json``); the tests fail when a committed
copy is stale. Nothing here re-implements a metric: values come from :mod:`prtheory.oracle`.
"""

from __future__ import annotations

from prtheory.data import data_path

__all__ = ["data_path"]
