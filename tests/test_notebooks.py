"""Notebooks run: solutions clean; student versions fail only where the stubs are. Graded as the
grader grades by default (float32 matmuls at DEFAULT precision behave as on a TPU): every
plausible wrong answer loses its own exercise's points and no other's, and every correct answer
that is not the reference (written by others from the contracts alone) gets its points.

(nbmake also runs every solution notebook: see the Makefile's `make test`.)
"""
import pytest

from autograder.lessoncheck import (cell_errors, disallowed_student_errors, emulation_env, execute,
                                    load_alternatives, load_mutants, run_mutants)
from conftest import assert_runs_clean_under_emulation, source_nb, student_nb

pytestmark = pytest.mark.slow


def test_student_release_runs_with_only_stub_errors(lesson, tmp_path):
    executed = execute(student_nb(lesson), cwd=tmp_path)
    assert disallowed_student_errors(executed) == []
    errors = cell_errors(executed)
    assert any(e[2] == "NotImplementedError" for e in errors), "the stubs are reached and raise"


@pytest.fixture(scope="module")
def graded_candidates(tmp_path_factory):
    """{lesson: (executed solution, mutant results, alternative results)}, each lesson run once,
    in one kernel, under emulated TPU precision (the grader's default)."""
    cache = {}

    def run(lesson):
        if lesson not in cache:
            mutants, alternatives = load_mutants(lesson), load_alternatives(lesson)
            assert mutants, f"tests/mutants/{lesson}.py lists no wrong answers"
            assert alternatives, f"tests/alternatives/{lesson}.py lists no correct alternatives"
            tmp = tmp_path_factory.mktemp(lesson)
            executed = []
            results = run_mutants(source_nb(lesson), mutants, cwd=tmp, env=emulation_env(tmp, "tpu"),
                                  alternatives=alternatives, executed=executed)
            cache[lesson] = executed[0], results[:len(mutants)], results[len(mutants):]
        return cache[lesson]
    return run


def test_solution_notebook_under_emulated_tpu_precision(lesson, graded_candidates):
    """The solution, hidden tests included, as on a TPU: DEFAULT = one bf16 pass, HIGH = bf16x3."""
    executed, _, _ = graded_candidates(lesson)
    assert_runs_clean_under_emulation(executed, lesson, "tpu")


def test_every_plausible_wrong_answer_loses_only_its_own_points(lesson, graded_candidates):
    _, mutants, _ = graded_candidates(lesson)
    bad = [(r.function, r.why, r.failed_tests) for r in mutants if not r.ok]
    print(f"{len(mutants)} wrong answers; not caught, or costing other exercises: {bad}")
    assert not bad


def test_every_correct_alternative_gets_full_marks(lesson, graded_candidates):
    _, _, alternatives = graded_candidates(lesson)
    rejected = [(r.function, r.why, r.failed_tests) for r in alternatives if r.failed_tests]
    print(f"{len(alternatives)} correct alternatives; rejected: {rejected}")
    assert not rejected
