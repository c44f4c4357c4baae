"""Small helpers on nbgrader notebooks shared by the release, the grader and the tests."""

from __future__ import annotations

import copy
import os
import math
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STUB = "raise NotImplementedError()"


def nbgrader_meta(cell) -> dict:
    """A cell's nbgrader metadata, or {} where the cell, its metadata or that entry is not a dict:
    a submitted notebook is data its author wrote, any JSON at all."""
    meta = cell.get("metadata") if isinstance(cell, dict) else None
    entry = meta.get("nbgrader") if isinstance(meta, dict) else None
    return entry if isinstance(entry, dict) else {}


def cell_grade_id(cell) -> str:
    """A cell's nbgrader grade id ("" where it has none, or one that is not a string)."""
    grade_id = nbgrader_meta(cell).get("grade_id")
    return grade_id if isinstance(grade_id, str) else ""


def is_test(cell) -> bool:
    """A test cell: graded, and not an answer (nbgrader's grade=True, solution=False)."""
    meta = nbgrader_meta(cell)
    return bool(meta.get("grade")) and not meta.get("solution")


def is_hidden(source: str) -> bool:
    """A test cell holding nbgrader's hidden tests."""
    return "### BEGIN HIDDEN TESTS" in source


def points(cell) -> float:
    """The points a graded cell is worth."""
    value = nbgrader_meta(cell).get("points", 0)
    return float(value) if type(value) in (int, float) and math.isfinite(value) else 0.0


def every_lesson(root: Path = ROOT) -> list[str]:
    """Every lesson's name, in order: each folder solutions/<NN_name>/ holding <NN_name>.ipynb (a
    lesson is one folder: common/lessonfolder.py). Nothing else lists or counts the lessons."""
    return sorted(p.parent.name for p in (root / "solutions").glob("*/*.ipynb") if p.stem == p.parent.name)


def lessons(root: Path = ROOT) -> list[str]:
    """Lesson names, in order, from solutions/<NN_name>/<NN_name>.ipynb (``every_lesson``).

    COURSE_LESSONS=02_matmul_accumulation,03_int8_quantization restricts every command to those
    lessons (handy while authoring one: lessoncheck check sets it).
    """
    names = every_lesson(root)
    only = [n for n in os.environ.get("COURSE_LESSONS", "").split(",") if n]
    return [n for n in names if n in only] if only else names


def execute(nb, cwd: Path, timeout: int = 300, env: dict | None = None):
    """Run a copy of ``nb`` top to bottom in a fresh "python3" kernel, errors recorded in the cells'
    outputs (extra environment variables in ``env``). Returns (executed notebook, why the run
    stopped early or None: a dead kernel, a cell past ``timeout``). The one place notebooks are
    executed (lessoncheck, make run, the hardware run)."""
    from nbclient import NotebookClient

    nb = copy.deepcopy(nb)
    client = NotebookClient(
        nb, timeout=timeout, kernel_name="python3", allow_errors=True, resources={"metadata": {"path": str(cwd)}}
    )
    try:
        client.execute(**({"env": {**os.environ, **env}} if env else {}))
    except Exception as exc:  # noqa: BLE001  a dead kernel or a cell past its timeout
        return nb, f"{type(exc).__name__}: {str(exc)[:300]}"
    return nb, None


def cell_errors(nb) -> list[tuple[int, str, str, str]]:
    """(index, grade_id, ename, evalue) of every code cell whose output holds an error."""
    return [
        (i, cell_grade_id(cell), out.get("ename", ""), str(out.get("evalue", "")))
        for i, cell in enumerate(nb.cells)
        for out in cell.get("outputs", [])
        if out.get("output_type") == "error"
    ]


def disallowed_student_errors(errors):
    """Of a student release's errors (tuples of (index, grade_id, ename, ...)), those it may not
    show: anything but NotImplementedError (a stub reached) outside test cells; a test cell may fail
    on the stub its exercise still is. The one definition of "only stub errors" (the CPU tests and
    the hardware run)."""
    return [e for e in errors if e[2] != "NotImplementedError" and not e[1].startswith("test_")]


def student_version(nb):
    """The stubbed, hidden-test-free version of a source notebook, without nbgrader's gradebook.

    The real release goes through ``nbgrader generate_assignment`` (see release.py); this
    in-memory version is for quick checks.
    """
    from nbgrader.preprocessors import ClearHiddenTests, ClearOutput, ClearSolutions

    nb = copy.deepcopy(nb)
    resources: dict = {}
    nb, resources = ClearSolutions(code_stub={"python": STUB}).preprocess(nb, resources)
    nb, resources = ClearHiddenTests().preprocess(nb, resources)
    nb, resources = ClearOutput().preprocess(nb, resources)
    return nb


def solution_code(cell_source: str) -> str:
    """An answer cell's source with nbgrader's solution markers removed."""
    return "\n".join(
        line for line in cell_source.splitlines() if line.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION")
    )


def fill_answers(student_nb, source_nb, overrides: dict[str, str] | None = None):
    """A submission: the student release with every answer cell filled in from the source
    notebook, except the functions in ``overrides`` ({function: code}), which get that code."""
    overrides = overrides or {}
    answers = {
        cell_grade_id(c): solution_code(c.source) for c in source_nb.cells if cell_grade_id(c).startswith("answer_")
    }
    nb = copy.deepcopy(student_nb)
    for cell in nb.cells:
        gid = cell_grade_id(cell)
        if gid.startswith("answer_"):
            function = gid.removeprefix("answer_")
            cell.source = overrides.get(function, answers[gid])
    return nb


def answer_ids(nb) -> frozenset[str]:
    """The grade ids of a notebook's answer cells (``answer_<function>``): what its exercises are,
    whatever the file is called."""
    cells = nb.get("cells", []) if isinstance(nb, dict) else []
    return frozenset(g for c in cells if isinstance(c, dict) and (g := cell_grade_id(c)).startswith("answer_"))


def lesson_answer_ids(root: Path = ROOT, names: list[str] | None = None) -> dict[str, frozenset[str]]:
    """{lesson: its answer cells' grade ids}, from solutions/: of ``names``, default the lessons
    COURSE_LESSONS keeps (``lessons``)."""
    import nbformat

    return {
        n: answer_ids(nbformat.read(str(root / "solutions" / n / f"{n}.ipynb"), as_version=4))
        for n in (lessons(root) if names is None else names)
    }


def match_lessons(ids: frozenset[str], known: dict[str, frozenset[str]]) -> list[str]:
    """The lessons a notebook with answer cells ``ids`` belongs to: the one whose exercises are
    exactly these, else every lesson sharing one of them (a deleted answer cell still points at its
    lesson). One name: recognised; several: ambiguous; none: no lesson of the course."""
    exact = [n for n, theirs in known.items() if ids and ids == theirs]
    return exact or [n for n, theirs in known.items() if ids & theirs]


def lesson_title(name: str, root: Path = ROOT) -> str:
    """A lesson's title: the first level-1 heading of its solutions/ notebook, without the "#"
    (the lesson's name where it has none, or the notebook is not there)."""
    path = root / "solutions" / name / f"{name}.ipynb"
    try:
        import nbformat

        cells = nbformat.read(str(path), as_version=4).cells
    except (OSError, ValueError):
        return name
    for cell in cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return name
