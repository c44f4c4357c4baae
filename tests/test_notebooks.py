"""Notebooks run: solutions clean; student versions fail only where the stubs are. Graded as the
grader grades by default (float32 matmuls at DEFAULT precision behave as on a TPU): every
plausible wrong answer loses its own exercise's points and no other's, and every correct answer
that is not the reference (written by others from the contracts alone) gets its points.

(nbmake also runs every solution notebook: see the Makefile's `make test`.)
"""

import pytest

from autograder.lessoncheck import (
    cell_errors,
    disallowed_student_errors,
    emulation_env,
    execute,
    grade_variants,
    load_alternatives,
    load_mutants,
)
from conftest import assert_runs_clean_under_emulation, source_nb, student_nb

pytestmark = pytest.mark.slow


def test_student_release_runs_with_only_stub_errors(lesson, tmp_path):
    executed = execute(student_nb(lesson), cwd=tmp_path)
    assert disallowed_student_errors(executed) == []
    errors = cell_errors(executed)
    assert any(e[2] == "NotImplementedError" for e in errors), "the stubs are reached and raise"


@pytest.fixture(scope="module")
def graded_candidates(tmp_path_factory):
    """{lesson: (records of the solution's tests, mutant results, alternative results)}: each
    lesson graded once by the grader itself (autograder/grader: the definitions-only plan, the
    sandboxed student process, the trusted checker) under emulated TPU precision (its default),
    each candidate then swapped into that student process in turn."""
    cache = {}

    def run(lesson):
        if lesson not in cache:
            mutants, alternatives = load_mutants(lesson), load_alternatives(lesson)
            assert mutants, f"tests/mutants/{lesson}.py lists no wrong answers"
            assert alternatives, f"tests/alternatives/{lesson}.py lists no correct alternatives"
            records, results = grade_variants(lesson, mutants, "tpu", alternatives)
            cache[lesson] = records, results[: len(mutants)], results[len(mutants) :]
        return cache[lesson]

    return run


def test_solution_notebook_under_emulated_tpu_precision(lesson, tmp_path):
    """The solution, demo cells and hidden tests, as on a TPU: DEFAULT = one bf16 pass, HIGH = bf16x3."""
    executed = execute(source_nb(lesson), cwd=tmp_path, env=emulation_env(tmp_path, "tpu"))
    assert_runs_clean_under_emulation(executed, lesson, "tpu")


def test_the_grader_gives_the_solution_every_test(lesson, graded_candidates):
    records, _, _ = graded_candidates(lesson)
    failed = [(r.grade_id, r.state, r.ename, r.evalue) for r in records if r.state != "ok"]
    assert records and not failed


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
