"""tests/test_notebooks.py's tests for lesson 04: a file of its own, so that `--dist loadfile`
spreads the lessons' gradings over the workers (each file keeps its own graded candidates and TPU
runs, computed once per lesson; lessons 05 and 06, the costliest, have a file each)."""

import pytest

from conftest import LESSONS
from test_notebooks import *  # noqa: F401,F403  (its tests and fixtures, collected here with this file's lessons)
from test_notebooks import FIRST_HALF

pytestmark = pytest.mark.slow
SECOND_HALF = ["04_xprof_profiling"]


@pytest.fixture(params=SECOND_HALF)
def lesson(request):
    return request.param


def test_the_notebook_test_files_cover_every_lesson_once():
    """The first half (test_notebooks.py), this file and the per-lesson files together take every
    lesson exactly once: a lesson added to the course is never left out of the notebook tests."""
    import test_notebooks_lesson05
    import test_notebooks_lesson06

    taken = [*FIRST_HALF, *SECOND_HALF, *test_notebooks_lesson05.SECOND_HALF, *test_notebooks_lesson06.SECOND_HALF]
    assert sorted(taken) == sorted(LESSONS)
