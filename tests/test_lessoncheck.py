"""autograder.course.lessoncheck.reachable_tests: which test cells a swapped-in answer can change (the
mutant checks skip the others). Over-approximating is safe; missing a cell is not."""

import nbformat

from autograder.course.lessoncheck import reachable_tests


def notebook(*cells):
    nb = nbformat.v4.new_notebook()
    for gid, source in cells:
        cell = nbformat.v4.new_code_cell(source)
        if gid:
            cell.metadata["nbgrader"] = {"grade_id": gid}
        nb.cells.append(cell)
    return nb


def test_reachable_tests_follow_every_path_to_the_function():
    nb = notebook(
        ("answer_f", "def f(x):\n    return x + 1"),
        ("answer_g", "def g(x):\n    return f(x) * 2"),  # g calls f
        ("answer_h", "def h(x):\n    return x"),
        ("", "step = jax.jit(f)\nvalue = f(3)\nother = h(1)"),  # step can call f; value cannot
        ("", "def helper():\n    return step(1)"),  # helper calls f through step
        ("test_f_visible", "assert f(1) == 2"),
        ("test_f_hidden", "assert f(2) == 3"),
        ("test_g_visible", "assert g(1) == 4"),  # through g
        ("test_h_visible", "assert h(value) == 4"),  # a result, not a caller
        ("test_h_hidden", "assert helper() == 2"),  # through helper -> step -> f
        ("test_k_hidden", "_Isolated('f')\nassert other == 1"),  # isolation names f as a string
    )
    got = reachable_tests(nb, "f")
    print(sorted(got))
    assert got == {"test_f_visible", "test_f_hidden", "test_g_visible", "test_h_hidden", "test_k_hidden"}
    assert reachable_tests(nb, "h") == {"test_h_visible"}  # `other = h(1)` holds a result


def test_ipython_syntax_is_treated_conservatively():
    nb = notebook(
        ("answer_f", "def f():\n    return 1"),
        ("", "%timeit f()\nresult = f()"),  # not Python: assume result can call f
        ("test_x_hidden", "assert result == 1"),
    )
    assert reachable_tests(nb, "f") == {"test_x_hidden"}


def test_a_mutant_is_caught_by_its_hidden_test_and_where_marked_its_visible_one():
    """MutantResult.ok: its own hidden test failed, no other exercise's test did, and, for a mutant
    marked "visible_fails", its visible test failed too."""
    from autograder.course.lessoncheck import MutantResult

    hidden, visible, other = "test_f_hidden", "test_f_visible", "test_g_hidden"
    assert MutantResult("f", "", [hidden]).ok
    assert MutantResult("f", "", [visible, hidden]).ok
    assert not MutantResult("f", "", [visible]).ok
    assert not MutantResult("f", "", [hidden, other]).ok
    assert not MutantResult("f", "", [hidden], visible_fails=True).ok
    assert MutantResult("f", "", [visible, hidden], visible_fails=True).ok


def test_lessoncheck_check_runs_every_per_lesson_test_of_the_suite():
    """Issue 59 (2): `lessoncheck check LESSON` runs the suite's own tests, not copies: every test of
    tests/ (make test's tier and make compat's) whose id names a lesson is in exactly one of its
    steps, and every test a step names exists. A per-lesson test added to the suite and not to a step
    fails here."""
    import subprocess
    import sys

    from autograder.common.notebooks import every_lesson
    from autograder.course.lessoncheck.steps import STEPS
    from conftest import ROOT

    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:nbmake", "--collect-only", "-q", "tests"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**__import__("os").environ, "COURSE_LESSONS": ""},
    ).stdout
    ids = [line.strip() for line in collected.splitlines() if "::" in line]
    assert len(ids) > 500, collected[-2000:]
    names = every_lesson(ROOT)
    named = [i for i in ids if "[" in i and any(n in i.split("[", 1)[1] for n in names)]
    per_lesson = {i.split("[", 1)[0].removeprefix("tests/") for i in named}
    in_steps = [t for s in STEPS for t in s.tests]
    assert len(in_steps) == len(set(in_steps)), "a test in two steps"
    assert per_lesson - set(in_steps) == set(), "per-lesson tests no step runs"
    every_test = {i.split("[", 1)[0].removeprefix("tests/") for i in ids}
    assert set(in_steps) - every_test == set(), "steps name tests the suite does not have"
    for lesson in names:  # every lesson is some step's
        assert any(f"[{lesson}" in i or f"{lesson}:" in i for i in ids), lesson
