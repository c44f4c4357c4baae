"""The student release is generated from solutions/, in sync, and leaks nothing."""

import json
import re

import nbformat

from autograder.common.config import BADGE_MARKER, colab_url
from autograder.common.notebooks import cell_grade_id, every_lesson
from autograder.course.release import stale_files
from conftest import LESSONS, ROOT, source_nb, student_nb

MARKERS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")


def test_the_lessons_are_the_lesson_folders():
    """Every lesson is found from its folder (solutions/NN_name/NN_name.ipynb), nothing else: the
    release's notebooks/tpu_emulation.py, a file beside the lessons, is no lesson."""
    assert LESSONS and LESSONS == every_lesson(ROOT)
    assert (ROOT / "notebooks" / "tpu_emulation.py").is_file() and "tpu_emulation" not in " ".join(LESSONS)
    assert sorted(p.parent.name for p in (ROOT / "notebooks").glob("*/*.ipynb")) == LESSONS


def test_each_lesson_has_a_release(lesson):
    assert (ROOT / "notebooks" / lesson / f"{lesson}.ipynb").is_file(), f"{lesson} not released: run make release"


def test_committed_release_equals_a_fresh_regeneration():
    assert stale_files(ROOT) == []


def test_no_solution_or_hidden_test_text_in_the_release(lesson):
    text = (ROOT / "notebooks" / lesson / f"{lesson}.ipynb").read_text()
    for marker in MARKERS:
        assert marker not in text, f"{marker} leaked into notebooks/{lesson}"
    released = {line.strip() for c in student_nb(lesson).cells for line in c.source.splitlines()}
    # Lines the source shows publicly anyway (a demo cell or a visible test may share a line with
    # a solution or a hidden test): everything outside the solution and hidden-test blocks.
    blocks = re.compile(r"### BEGIN (SOLUTION|HIDDEN TESTS).*?### END (SOLUTION|HIDDEN TESTS)", re.S)
    public = {line.strip() for c in source_nb(lesson).cells for line in blocks.sub("", c.source).splitlines()}
    for cell in source_nb(lesson).cells:
        gid = cell_grade_id(cell)
        if gid.startswith("answer_"):
            body = cell.source.split("### BEGIN SOLUTION")[1].split("### END SOLUTION")[0]
        elif gid.endswith("_hidden"):
            body = cell.source.split("### BEGIN HIDDEN TESTS")[1].split("### END HIDDEN TESTS")[0]
        else:
            continue
        leaked = [
            line
            for line in body.splitlines()
            if len(line.strip()) > 25 and line.strip() in released and line.strip() not in public
        ]
        assert not leaked, f"{lesson}/{gid}: solution or hidden-test lines in the release: {leaked[:3]}"


def test_student_stubs_raise_not_implemented(lesson):
    for cell in student_nb(lesson).cells:
        if cell_grade_id(cell).startswith("answer_"):
            assert "raise NotImplementedError()" in cell.source
            assert cell.source.lstrip().startswith("def "), "the def line stays visible"


def test_committed_notebooks_have_no_outputs_and_keep_nbgrader_metadata(lesson):
    for folder in ("solutions", "notebooks"):
        raw = json.loads((ROOT / folder / lesson / f"{lesson}.ipynb").read_text())
        graded = 0
        for cell in raw["cells"]:
            if cell["cell_type"] == "code":
                assert cell["outputs"] == [] and cell["execution_count"] is None, f"{folder}/{lesson} has outputs"
            meta = cell["metadata"].get("nbgrader")
            if meta and (meta.get("grade") or meta.get("solution")):
                graded += 1
                assert meta["schema_version"] == 3 and meta["grade_id"]
        assert graded >= 3, f"{folder}/{lesson}: nbgrader metadata missing"


def test_colab_badges_come_from_the_configured_repository(lesson):
    assert BADGE_MARKER in source_nb(lesson).cells[0].source
    first = student_nb(lesson).cells[0].source
    assert colab_url(lesson) in first and "colab-badge.svg" in first
    readme = (ROOT / "README.md").read_text()
    assert colab_url(lesson) in readme, f"README lacks the Colab badge of {lesson}"


def test_release_check_detects_drift(tmp_path):
    """--check must fail when a solution changes and the release is not regenerated."""
    import shutil

    copy = tmp_path / "repo"
    for name in ("solutions", "notebooks"):
        shutil.copytree(ROOT / name, copy / name)
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    lesson = LESSONS[0]
    path = copy / "solutions" / lesson / f"{lesson}.ipynb"
    nb = nbformat.read(str(path), as_version=4)
    nb.cells[0].source += "\n\nAn edit nobody released."
    nbformat.write(nb, str(path))
    problems = stale_files(copy)
    assert problems and all(lesson in p for p in problems), problems


def test_example_class_is_built_from_the_committed_release(tmp_path):
    """examples/submissions/ (graded by `make run`) is what examples/make_class.py builds from
    the committed release: a stale copy would grade as 'tampered'."""
    import filecmp
    import runpy

    runpy.run_path(str(ROOT / "examples" / "make_class.py"))["example_class"](tmp_path / "class")
    committed = ROOT / "examples" / "submissions"
    fresh = {p.relative_to(tmp_path / "class") for p in (tmp_path / "class").rglob("*") if p.is_file()}
    have = {p.relative_to(committed) for p in committed.rglob("*") if p.is_file()}
    assert fresh == have
    stale = [str(r) for r in sorted(fresh) if not filecmp.cmp(tmp_path / "class" / r, committed / r, shallow=False)]
    assert stale == [], f"run `make release` (python -m autograder release): stale {stale}"


def test_hidden_test_cells_display_nothing_in_the_release(lesson):
    """What nbgrader leaves of a hidden test is its docstring, a bare string expression that
    IPython would show as Out[]; the release ends it with ';' (autograder/course/release.py,
    quiet_docstring_cells). Run in a real IPython shell: no value displayed. The same source
    without the ';' does display it (so the check can fail)."""
    import ast

    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    hidden = [c for c in student_nb(lesson).cells if cell_grade_id(c).endswith("_hidden")]
    assert hidden, f"{lesson}: no hidden test cells"
    for cell in hidden:
        gid = cell_grade_id(cell)
        body = ast.parse(cell.source).body
        assert body and all(isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) for s in body), (
            f"{gid}: more than the docstring in the release"
        )
        assert shell.run_cell(cell.source, store_history=True).result is None, (
            f"{gid}: the student's run displays a value"
        )
        bare = shell.run_cell(cell.source.rstrip().rstrip(";"), store_history=True).result
        assert isinstance(bare, str) and bare.strip(), f"{gid}: the control without ';' displays the docstring"


def test_generating_a_release_logs_no_alarm(tmp_path, caplog):
    """nbgrader's API lists its exchange as it starts: with no exchange folder it logged a CRITICAL
    "Unwritable directory, please contact your instructor" in every passing release step (shown by
    `lessoncheck check --verbose`; issue 67), though generating a release never uses the exchange."""
    import logging

    from autograder.common.generation import generate, prepare_course

    course = tmp_path / "course"
    course.mkdir()
    names = prepare_course(course, ROOT, [LESSONS[0]])
    with caplog.at_level(logging.DEBUG):
        generate(course, names, tmp_path / "gradebook.db")
    alarms = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert alarms == []
    assert (course / "release" / LESSONS[0]).is_dir() or any(course.rglob(f"{LESSONS[0]}.ipynb"))
