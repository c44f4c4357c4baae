"""tests/test_notebooks.py's tests for lesson 04: a file of its own, so that `--dist loadfile`
spreads the lessons' gradings over the workers (each file keeps its own graded candidates and TPU
runs, computed once per lesson; lessons 05 and 06, the costliest, have a file each)."""

import pytest

from conftest import LESSONS
from test_notebooks import (  # noqa: F401  (collected here with this file's lessons)
    FIRST_HALF,
    graded_candidates,
    run_under_tpu,
    test_every_correct_alternative_gets_full_marks,
    test_every_known_mistake_is_named_by_its_failed_checks,
    test_held_out_wrong_answers_are_diagnosed,
    test_every_plausible_wrong_answer_loses_only_its_own_points,
    test_solution_notebook_under_emulated_tpu_precision,
    test_student_release_runs_with_only_stub_errors,
    test_the_grader_gives_the_solution_every_test,
    test_the_grading_seed_reaches_every_random_hidden_test,
)

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
