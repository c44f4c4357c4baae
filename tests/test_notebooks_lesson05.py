"""tests/test_notebooks.py's tests for lesson 05: a file of its own, so that `--dist loadfile`
spreads the lessons' gradings over the workers (each file keeps its own graded candidates and TPU
runs, computed once per lesson; lessons 05 and 06, the costliest, have a file each)."""

import pytest

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
SECOND_HALF = ["05_precision_policy"]


@pytest.fixture(params=SECOND_HALF)
def lesson(request):
    return request.param
