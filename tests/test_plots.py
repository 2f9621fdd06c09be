"""The displays draw the oracle's values: line and polygon data are checked against exact values.

Everything runs on matplotlib's Agg backend; nothing is compared as pixels.
"""

from __future__ import annotations

import functools
import itertools
import math
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import mpmath
import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from prtheory import oracle  # noqa: E402
from prtheory.errors import InvalidInputError, UndefinedMetricError  # noqa: E402
from prtheory.oracle.counts import operating_points  # noqa: E402
from prtheory.plots import PRGDisplay, PRSpaceDisplay  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

Y = [1, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 0]
S = [0.95, 0.9, 0.9, 0.7, 0.6, 0.55, 0.5, 0.4, 0.3, 0.2, 0.15, 0.1]


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _exact(x: float) -> F:
    return F(x)


def test_step_curve_is_the_oracle_curve():
    d = PRSpaceDisplay.from_predictions(Y, S, name="m")
    curve = oracle.pr_curve(Y, S, first_point="spark")  # (0, p_first), then every point
    assert d.line_.get_drawstyle() == "steps-pre"
    assert d.line_.get_xdata().tolist() == [float(r) for r in curve.recall]
    assert d.line_.get_ydata().tolist() == [float(p) for p in curve.precision]
    # steps-pre: y_k holds on (x_{k-1}, x_k], so the drawn area is AP (N2); the drawn values are
    # each rounded once, so the area of the drawn floats, summed exactly, is within 2^-50 of AP
    x, y = d.line_.get_xdata(), d.line_.get_ydata()
    widths = [_exact(b) - _exact(a) for a, b in itertools.pairwise(x)]
    drawn = sum((wd * _exact(h) for wd, h in zip(widths, y[1:], strict=True)), F(0))
    assert abs(drawn - oracle.average_precision(Y, S)) < F(1, 2**50)
    assert d.ax_ is d.line_.axes
    assert d.figure_ is d.ax_.figure
    assert f"AP = {float(oracle.average_precision(Y, S)):.3f}" in d.line_.get_label()


def test_davis_goadrich_curve():
    d = PRSpaceDisplay.from_predictions(Y, S, interpolation="davis-goadrich")
    x, y = d.line_.get_xdata(), d.line_.get_ydata()
    pts = operating_points(Y, S)
    # every operating point is a vertex, with its exact precision and recall rounded once
    drawn = set(zip(x.tolist(), y.tolist(), strict=True))
    for t, f in zip(pts.tp.tolist(), pts.fp.tolist(), strict=True):
        assert (float(F(t, pts.pos)), float(F(t, t + f))) in drawn
    # between tables FP is linear in TP: check each vertex against its segment's line
    tp, fp = [0, *pts.tp.tolist()], [0, *pts.fp.tolist()]
    # (vertices at a table's TP are the tables themselves, checked above)
    for r, p in zip(x, y, strict=True):
        t = r * pts.pos
        if min(abs(t - v) for v in tp) < 1e-9:
            continue
        k = next(i for i in range(1, len(tp)) if tp[i - 1] < t < tp[i])
        f_line = fp[k - 1] + (t - tp[k - 1]) * (fp[k] - fp[k - 1]) / (tp[k] - tp[k - 1])
        # a few float operations on numbers below 20: 1e-12 relative is ample
        assert p == pytest.approx(t / (t + f_line), rel=1e-12)
    # the trapezoids through 33 points per segment approximate the exact DG area to 1e-4
    # (the curve between tables is smooth, x/(ax + c), and the chords are short)
    area = float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2))
    exact = oracle.pr_auc(Y, S, method="davis-goadrich", first_point="spark")
    assert area == pytest.approx(float(exact), abs=1e-4)


def test_unachievable_region_is_the_b1_bound():
    d = PRSpaceDisplay.from_predictions(Y, S)
    pi = F(5, 12)
    assert d.pi == float(pi)
    verts = d.unachievable_.get_xy()
    pi_f = F(float(pi))  # the display's skew, as a float
    for r, p in verts[:-2]:  # the last vertices close the polygon through (1, 0)
        r_q = F(r)
        want = pi_f * r_q / (1 - pi_f + pi_f * r_q)  # B1, exactly
        assert p == float(want)
    assert verts[0].tolist() == [0.0, 0.0]
    assert [1.0, 0.0] in verts.tolist()


def test_iso_f_lines_have_constant_f():
    d = PRSpaceDisplay.from_predictions(Y, S, iso_f=(0.3, 0.7), beta=2)
    assert len(d.iso_f_lines_) == 2
    for line, f in zip(d.iso_f_lines_, (0.3, 0.7), strict=True):
        for r, p in zip(line.get_xdata(), line.get_ydata(), strict=True):
            b2 = 4
            fb = (1 + b2) * F(p) * F(r) / (b2 * F(p) + F(r))  # F2 exactly
            # p = f r / ((1+b^2) r - f b^2) in three roundings (and a cut at 1): 8 ulps
            assert abs(fb - F(f)) <= 8 * F(math.ulp(f))


def _brute_expected_ap(pos: int, neg: int) -> F:
    """Mean AP over every placement of the positives in a ranking of pos + neg items."""
    n = pos + neg
    total, count = F(0), 0
    for places in itertools.combinations(range(n), pos):
        total += sum(F(i + 1, k + 1) for i, k in enumerate(places)) / pos
        count += 1
    return total / count


def test_baselines():
    d = PRSpaceDisplay.from_predictions(Y, S)
    with mpmath.workdps(40):
        pi = mpmath.mpf(5) / 12
        low = 1 + (1 - pi) * mpmath.log(1 - pi) / pi  # B4
    assert d.aucpr_min_line_.get_ydata()[0] == pytest.approx(float(low), rel=2**-52)
    assert d.chance_level_line_.get_ydata()[0] == float(_brute_expected_ap(5, 7))
    # with weights the chance level is pi (B9): here 5 * 2 / (5 * 2 + 7)
    w = [2 if y else 1 for y in Y]
    d = PRSpaceDisplay.from_predictions(Y, S, sample_weight=w)
    assert d.chance_level_line_.get_ydata()[0] == float(F(10, 17))
    assert d.pi == float(F(10, 17))


def test_switches_and_existing_axes():
    _, ax = plt.subplots()
    d = PRSpaceDisplay.from_predictions(
        Y, S, ax=ax, iso_f=None, show_unachievable=False, baselines=False, color="k"
    )
    assert d.ax_ is ax
    assert d.unachievable_ is None
    assert d.iso_f_lines_ == []
    assert d.aucpr_min_line_ is None
    assert d.chance_level_line_ is None
    assert d.line_.get_color() == "k"
    d.plot(ax=ax, name="again")  # redraw on the same axes
    assert d.line_.get_label().startswith("again")


def test_from_curve_takes_sklearns_order():
    # a curve in decreasing recall with the (0, 1) point last, as precision_recall_curve gives
    precision = [0.5, 0.6, 2 / 3, 1.0, 1.0]
    recall = [1.0, 0.75, 0.5, 0.25, 0.0]
    d = PRSpaceDisplay.from_curve(precision, recall, pi=0.5)
    assert d.line_.get_xdata().tolist() == recall[::-1]
    assert d.line_.get_ydata().tolist() == precision[::-1]
    assert d.chance_level_line_.get_ydata()[0] == 0.5
    with pytest.raises(InvalidInputError, match=r"^recall: must be ordered"):
        PRSpaceDisplay.from_curve([1, 1, 1], [0.2, 0.1, 0.3], pi=0.5)
    with pytest.raises(InvalidInputError, match=r"^pi: must be > 0"):
        PRSpaceDisplay.from_curve([1], [1], pi=0)


def test_bad_arguments():
    with pytest.raises(InvalidInputError, match=r"^interpolation: must be one of"):
        PRSpaceDisplay.from_predictions(Y, S, interpolation="linear")
    with pytest.raises(InvalidInputError, match=r"^iso_f: levels must lie strictly between"):
        PRSpaceDisplay.from_predictions(Y, S, iso_f=(0.5, 1.0))
    with pytest.raises(InvalidInputError, match=r"^beta: must be > 0"):
        PRSpaceDisplay.from_predictions(Y, S, beta=0)
    with pytest.raises(UndefinedMetricError):
        PRSpaceDisplay.from_predictions([0, 0], [0.1, 0.2])


def test_prg_display_draws_the_oracle_curve_and_hull():
    d = PRGDisplay.from_predictions(Y, S, iso_fg=(0.25, 0.5), beta=1)
    curve = oracle.prg_curve(Y, S)
    keep = [i for i, g in enumerate(curve.recall_gain) if g >= 0]
    assert d.line_.get_xdata().tolist() == [float(curve.recall_gain[i]) for i in keep]
    assert d.line_.get_ydata().tolist() == [float(curve.precision_gain[i]) for i in keep]
    hull = oracle.prg_convex_hull(curve)
    assert d.hull_line_.get_xdata().tolist() == [float(curve.recall_gain[i]) for i in hull]
    assert d.hull_line_.get_ydata().tolist() == [float(curve.precision_gain[i]) for i in hull]
    for line, g in zip(d.iso_fg_lines_, (0.25, 0.5), strict=True):
        for x, y in zip(line.get_xdata(), line.get_ydata(), strict=True):
            assert 0 <= x <= 1
            assert 0 <= y <= 1
            assert (F(y) + F(x)) / 2 == pytest.approx(F(g), abs=2**-52)  # F8 at beta = 1
    auprg = oracle.auprg(Y, S, negative_gain="signed")
    assert f"AUPRG = {float(auprg):.3f}" in d.line_.get_label()


def test_prg_without_hull():
    d = PRGDisplay.from_predictions(Y, S, hull=False, iso_fg=None)
    assert d.hull_line_ is None
    assert d.iso_fg_lines_ == []


def test_importing_the_displays_does_not_import_matplotlib():
    code = "import sys, prtheory.plots; print('matplotlib' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "False"


def test_the_guide_picture_is_current(tmp_path):
    """docs/guide/img/prspace.png (the gallery's figure) is what its command draws now, byte for
    byte, where the installed matplotlib is the one that wrote it (PNG bytes change with the
    matplotlib version; its own fonts and FreeType make them the same on every machine)."""
    from PIL import Image

    out = tmp_path / "prspace.png"
    done = subprocess.run(
        [sys.executable, "examples/prspace_figure.py", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"MPLBACKEND": "Agg", "PATH": "", "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    committed = ROOT / "docs" / "guide" / "img" / "prspace.png"
    with Image.open(committed) as png:
        writer = png.info.get("Software", "")
    if f"version{matplotlib.__version__}," not in writer:
        pytest.skip(f"{committed.name} was written by {writer!r}, not {matplotlib.__version__}")
    assert out.read_bytes() == committed.read_bytes(), (
        "docs/guide/img/prspace.png is stale: run `python examples/prspace_figure.py`"
    )


# ---------------------------------------------------------------------------------------------
# labels collide with nothing: measured on the rendered figures (the docs' and the papers'),
# with matplotlib's own text extents (the renderer), against every line, marker, patch, filled
# area, spine, title, legend and other text of the axes


def _docs_figure():
    import runpy

    return runpy.run_path(str(ROOT / "examples" / "prspace_figure.py"))["figure"]()


@functools.cache
def _paper_data():
    from prtheory.papers.outputs import figure_data

    return {d.name: d for d in figure_data()}


def _paper_figure(name: str):
    from prtheory.papers.figures import DRAW

    return DRAW[name](_paper_data()[name])


def _placed(ax):
    from prtheory.plots._place import PlacedLabel

    return [t for t in ax.texts if isinstance(t, PlacedLabel)]


#: the labelled iso-lines of each figure: four iso-F1 and four iso-FG1 (docs); Boyd et al.'s
#: F1 contours 0.1-0.3 and 0.6-0.9; Flach & Kull's four F1 isometrics in each space; nine
#: levels of each of the three means
LABELLED = {"docs": 8, "boyd2012_fig4": 7, "flach2015_fig2": 8, "notes_means": 27}
FIGURES = ["docs", "boyd2012_fig1", "boyd2012_fig2", "boyd2012_fig3", "boyd2012_fig4"]
FIGURES += ["flach2015_fig2", "flach2015_pair", "notes_scores", "notes_means"]


def _figure(name: str):
    return _docs_figure() if name == "docs" else _paper_figure(name)


def test_every_paper_figure_is_checked():
    assert sorted(FIGURES[1:]) == sorted(_paper_data())


@pytest.mark.parametrize("name", FIGURES)
def test_figure_labels_collide_with_nothing(name):
    from prtheory.plots._place import collisions

    fig = _figure(name)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    checked = 0
    for ax in fig.axes:
        legend = ax.get_legend()
        for label in _placed(ax):
            box = label.get_window_extent(renderer)
            others = [t for t in ax.texts if t is not label and t.get_visible()]
            assert collisions(box, ax, label.own, others) == [], label.get_text()
            if legend is not None:
                assert not box.overlaps(legend.get_window_extent(renderer)), label.get_text()
            checked += 1
    plt.close(fig)
    assert checked == LABELLED.get(name, 0)


def test_the_collision_check_sees_what_a_label_would_cover():
    # the mutant: each label put back at the first candidate (where the old code put it: on
    # the curve at recall 1 for iso-F, above the top spine for iso-FG) must collide
    fig = _docs_figure()
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    from prtheory.plots._place import collisions

    hits = []
    for ax in fig.axes:
        for label in _placed(ax):
            label.set_position(label.candidates[0])
            found = collisions(label.get_window_extent(renderer), ax, label.own, [])
            hits.append(found)
    plt.close(fig)
    # F1 = 0.2 on the unachievable region, F1 = 0.4 on both curves where they reach recall 1
    assert hits[0] == ["patch 'unachievable (π = 0.15)'"]
    assert "line 'steps (AP = 0.524)'" in hits[1]
    # FG1 = 0.6 and 0.8 start on the top spine (0.8 reaches the title)
    assert hits[6] == ["spines"]
    assert hits[7] == ["spines", "title"]


def test_the_collision_check_sees_markers_fills_and_texts():
    from matplotlib.transforms import Bbox

    from prtheory.plots._place import collisions

    fig, ax = plt.subplots(figsize=(4, 4))
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.fill_between([0.0, 0.4], 0.0, 0.4, color="0.8", label="fill")  # a collection, no patch
    ax.plot([0.7], [0.7], "o", ms=8, label="marker")  # line style "None": its marker only
    ax.plot([0.6, 0.9], [0.1, 0.1], "o", ms=2, ls="none", label="far apart")
    text = ax.text(0.2, 0.8, "text")
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()

    def at(x: float, y: float) -> Bbox:  # a 10-pixel box centred at data (x, y)
        cx, cy = ax.transData.transform((x, y))
        return Bbox([[cx - 5, cy - 5], [cx + 5, cy + 5]])

    assert collisions(at(0.2, 0.2), ax, None, []) == ["area 'fill'"]
    assert collisions(at(0.7, 0.7), ax, None, []) == ["line 'marker'"]
    # between two markers of a line without a line style: nothing is drawn there
    assert collisions(at(0.75, 0.1), ax, None, []) == []
    assert collisions(text.get_window_extent(renderer), ax, None, [text]) == ["label 'text'"]
    assert collisions(at(0.5, 0.5), ax, None, [text]) == []
    plt.close(fig)


def test_paper_prg_curves_have_markers_only_at_the_hull_vertices():
    fig = _paper_figure("flach2015_fig2")
    right = fig.axes[1]
    lines = {line.get_label(): line for line in right.get_lines()}
    assert lines["PRG curve"].get_marker() in ("None", None, "")
    hull = lines["convex hull (Pareto front)"]
    assert hull.get_marker() == "o"
    assert hull.get_zorder() > lines["PRG curve"].get_zorder()
    plt.close(fig)
    fig = _paper_figure("flach2015_pair")
    for line in fig.axes[1].get_lines():
        assert line.get_marker() in ("None", None, ""), line.get_label()
    plt.close(fig)


def test_the_prg_curve_has_markers_only_at_the_hull_vertices():
    fig, ax = plt.subplots()
    d = PRGDisplay.from_predictions(Y, S, ax=ax)
    assert d.line_.get_marker() in ("None", None, "")
    assert d.hull_line_.get_marker() == "o"
    assert d.hull_line_.get_zorder() > d.line_.get_zorder()
    plt.close(fig)
