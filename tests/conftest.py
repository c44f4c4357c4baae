import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autograder.notebooks import cell_grade_id, lessons  # noqa: E402

LESSONS = lessons(ROOT)


def source_nb(lesson: str):
    return nbformat.read(str(ROOT / "solutions" / lesson / f"{lesson}.ipynb"), as_version=4)


def student_nb(lesson: str):
    return nbformat.read(str(ROOT / "notebooks" / lesson / f"{lesson}.ipynb"), as_version=4)


@pytest.fixture(params=LESSONS)
def lesson(request):
    return request.param


def backend_specific(cell) -> bool:
    """Demo cells that assert a fact about the real backend (e.g. 'CPU ignores precision'): the
    emulation changes the numerics but the backend is still called "cpu", so such a fact may fail."""
    return "BACKEND" in cell.source and not cell_grade_id(cell)


def assert_runs_clean_under_emulation(executed, lesson, mode):
    """Every graded test passes; demo cells fail only on facts about the real (CPU) backend."""
    from autograder.lessoncheck import cell_errors
    errors = cell_errors(executed)
    graded = [e for e in errors if e[1]]
    print(f"{lesson} under {mode} precision: errors {errors}")
    assert graded == [], f"graded tests fail under {mode} matmul precision: {graded}"
    other = [e for e in errors if not backend_specific(executed.cells[e[0]])]
    assert other == [], f"demo cells fail under {mode} matmul precision: {other}"


# How `make test` spreads the suite over its xdist workers (--dist loadgroup): a file whose tests
# share a module-scoped fixture (a class graded once, a published tree) stays on one worker, as
# --dist loadfile would keep it; tests/test_notebooks.py, whose fixture grades each lesson once,
# goes one lesson per group; every other test goes wherever a worker is free.
SHARED_FIXTURE_FILES = {"test_distribute.py", "test_grader_attacks.py", "test_grading.py",
                        "test_lab_e2e.py", "test_publish.py", "test_grader_resume.py"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.get_closest_marker("xdist_group"):
            continue
        name = item.path.name
        if name in SHARED_FIXTURE_FILES:
            item.add_marker(pytest.mark.xdist_group(name))
        elif name == "test_notebooks.py" and "lesson" in getattr(getattr(item, "callspec", None), "params", {}):
            item.add_marker(pytest.mark.xdist_group("notebooks-" + item.callspec.params["lesson"]))
