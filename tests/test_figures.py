"""Every figure of every lesson is readable: no two tick labels of one axis overlap and no text
(tick labels, axis labels, titles, legends, annotations) is cut off by the figure's edge.

How the figures are captured: each solution notebook runs, whole (its graded tests, hidden ones
included), in a fresh kernel under matplotlib's Agg backend and emulated GPU matmul precision
(TF32: autograder/chip/emulate_precision.py). The same run is the lesson's GPU check: every graded test
passes, and so does every demo cell (tests/conftest.py).
Plain CPU: nbmake in `make compat` (CI); emulated TPU: tests/test_notebooks.py. A first injected cell
replaces ``plt.show`` by a capture, and a capture cell follows every code cell, so every figure a
cell leaves open is checked too.
The capture draws the figure, asks ``fig.canvas.get_renderer()`` for the window extent of each
text, and saves a screenshot to build/figures/<lesson>/cellNN-K.png (look at them: the test
checks geometry, not meaning).
"""

import copy
import json

import nbformat
import pytest

from autograder.course.lessoncheck import emulation_env, execute
from conftest import LESSONS, ROOT, assert_runs_clean_under_emulation, source_nb

OUT = ROOT / "build" / "figures"

CAPTURE = r'''
import json as _json, pathlib as _pathlib
import matplotlib as _mpl
_mpl.use("Agg")
import matplotlib.pyplot as _plt
from matplotlib.text import Text as _Text

_FIG_DIR = _pathlib.Path(%(out)r)
_FIG_DIR.mkdir(parents=True, exist_ok=True)
_FIG_REPORT = []
_FIG_CELL = [0, 0]                                  # the lesson cell running, figures it drew

def _overlap(a, b, tol=0.5):
    """Boxes that share more than tol pixels in both directions."""
    return (min(a.x1, b.x1) - max(a.x0, b.x0) > tol) and (min(a.y1, b.y1) - max(a.y0, b.y0) > tol)

def _check_figure(fig, name):
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    problems, drawn_labels, all_tick_labels = [], [], set()
    for ax in fig.axes:
        for axis_name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                all_tick_labels |= {id(tick.label1), id(tick.label2)}
            drawn = axis._update_ticks()              # exactly the ticks matplotlib draws
            labels = [t for tick in drawn for t in (tick.label1, tick.label2)
                      if t.get_visible() and t.get_text().strip()]
            drawn_labels += labels
            boxes = [(t.get_text(), t.get_window_extent(r)) for t in labels]
            for i in range(len(boxes)):
                for j in range(i + 1, len(boxes)):
                    if _overlap(boxes[i][1], boxes[j][1]):
                        problems.append(f"{ax.get_title()!r}: {axis_name} tick labels overlap: "
                                        f"{boxes[i][0]!r} and {boxes[j][0]!r}")
    # Every other text (titles, axis labels, legends, annotations, offset texts) plus the drawn
    # tick labels must lie inside the figure: savefig (and Jupyter's inline PNG) cut the rest.
    texts = [t for t in fig.findobj(_Text) if id(t) not in all_tick_labels
             and t.get_visible() and t.get_text().strip()] + drawn_labels
    # No two of those texts may cover each other (a point's label on another label or on an axis
    # label, a legend on a tick label...).
    boxes = [(t.get_text(), t.get_window_extent(r)) for t in texts]
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            if _overlap(boxes[i][1], boxes[j][1]):
                problems.append(f"texts overlap: {boxes[i][0][:40]!r} and {boxes[j][0][:40]!r}")
    W, H = fig.bbox.width, fig.bbox.height
    for t in texts:
        bb = t.get_window_extent(r)
        if bb.x0 < -1 or bb.y0 < -1 or bb.x1 > W + 1 or bb.y1 > H + 1:
            problems.append(f"text cut off by the figure edge: {t.get_text()[:60]!r} "
                            f"({bb.x0:.0f},{bb.y0:.0f})-({bb.x1:.0f},{bb.y1:.0f}) in {W:.0f}x{H:.0f}")
    fig.savefig(_FIG_DIR / f"{name}.png", dpi=fig.dpi)
    return problems

def _capture(*args, **kwargs):
    for num in _plt.get_fignums():
        fig = _plt.figure(num)
        name = f"cell{_FIG_CELL[0]:02d}-{_FIG_CELL[1]}"
        _FIG_CELL[1] += 1
        _FIG_REPORT.append({"figure": name, "problems": _check_figure(fig, name)})
    _plt.close("all")

_plt.show = _capture
'''


def capture_notebook(nb, out_dir):
    """A copy of ``nb`` with the capture cell first, each code cell between one that records its
    index and a capture, and a last cell printing the report."""
    new = copy.deepcopy(nb)
    cells = [nbformat.v4.new_code_cell(CAPTURE % {"out": str(out_dir)})]
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        cells.append(nbformat.v4.new_code_cell(f"_FIG_CELL[:] = [{i}, 0]"))
        cells.append(copy.deepcopy(cell))
        cells.append(nbformat.v4.new_code_cell("_capture()"))
    cells.append(nbformat.v4.new_code_cell("print(_json.dumps(_FIG_REPORT))"))
    for k, c in enumerate(cells):
        c["id"] = f"fig-{k}"
    new.cells = cells
    return new


def figure_report(lesson, tmp_path):
    out_dir = OUT / lesson
    for old in out_dir.glob("*.png"):
        old.unlink()
    nb = capture_notebook(source_nb(lesson), out_dir)
    executed = execute(nb, cwd=tmp_path, env={**emulation_env(tmp_path, "gpu"), "MPLBACKEND": "Agg"})
    assert_runs_clean_under_emulation(executed, lesson, "gpu")
    last = executed.cells[-1].outputs
    text = "".join(o.get("text", "") for o in last if o.get("name") == "stdout")
    return json.loads(text.strip().splitlines()[-1])


@pytest.mark.compat  # make compat (CI): every solution under emulated GPU precision, another backend
@pytest.mark.parametrize("lesson", LESSONS)
def test_solution_runs_under_gpu_precision_and_every_figure_has_readable_labels(lesson, tmp_path):
    report = figure_report(lesson, tmp_path)
    print(f"{lesson}: {len(report)} figures, screenshots in {OUT / lesson}")
    assert report, f"{lesson} drew no figure"
    bad = [f"{r['figure']}: {p}" for r in report for p in r["problems"]]
    assert bad == [], "\n".join(bad)


def test_the_check_finds_overlapping_and_clipped_labels(tmp_path):
    """The checker itself can fail: crowded tick labels, a label past the figure's edge and a point
    label on top of another are each reported; a clean figure is not."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ns = {}
    exec(CAPTURE % {"out": str(tmp_path)}, ns)
    fig, ax = plt.subplots(figsize=(2, 2))
    ax.set_xticks(range(10), [f"label {i}" for i in range(10)])  # crowded x tick labels
    problems = ns["_check_figure"](fig, "crowded")
    assert any("x tick labels overlap" in p for p in problems), problems
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.set_title("a title far too long for a figure this narrow, cut off at both ends")
    ax.annotate("one", (0.5, 0.5))
    ax.annotate("one too", (0.5, 0.5))
    problems = ns["_check_figure"](fig, "clipped")
    assert any("cut off" in p for p in problems) and any("texts overlap" in p for p in problems), problems
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([1, 2, 3], [1, 4, 9])
    ax.set_title("fine")
    fig.tight_layout()
    assert ns["_check_figure"](fig, "clean") == []
    plt.close("all")
