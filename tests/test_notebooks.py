"""Notebooks run: solutions clean; student versions fail only where the stubs are; every
plausible wrong answer loses its own exercise's points and no other's.

(nbmake also runs every solution notebook: see the Makefile's `make test`.)
"""
import pytest

from autograder.lessoncheck import (cell_errors, cpu_mutants, disallowed_student_errors, execute,
                                    load_mutants, run_mutants)
from conftest import ROOT, source_nb, student_nb

pytestmark = pytest.mark.slow


def test_student_release_runs_with_only_stub_errors(lesson, tmp_path):
    executed = execute(student_nb(lesson), cwd=tmp_path)
    assert disallowed_student_errors(executed) == []
    errors = cell_errors(executed)
    assert any(e[2] == "NotImplementedError" for e in errors), "the stubs are reached and raise"


def test_every_plausible_wrong_answer_loses_only_its_own_points(lesson, tmp_path):
    mutants = load_mutants(lesson)
    assert mutants, f"tests/mutants/{lesson}.py lists no wrong answers"
    results = run_mutants(source_nb(lesson), cpu_mutants(mutants), cwd=tmp_path)
    bad = [(r.function, r.why, r.failed_tests) for r in results if not r.ok]
    assert not bad, f"wrong answers not caught, or costing other exercises: {bad}"
