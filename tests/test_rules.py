"""Issue 54: every failed hidden check tells the student which rule of the exercise's contract it
broke. The rules are declared next to the assertions in the solutions (grader/core/rules.py), the
trusted checker decides which one a failure broke from its own traceback (checker/failure.py), and
every page shows it (studentview.rule_line); no shown sentence leaks what the hidden test knows."""

import json
import math
import textwrap

import nbformat
import pytest

from autograder.common.notebooks import cell_grade_id, every_lesson, lessons
from autograder.grader.core import rules as R
from conftest import LESSONS, ROOT, source_nb, student_nb

CELL = textwrap.dedent(
    '''\
    """Hidden test: f."""
    ### BEGIN HIDDEN TESTS
    # default rule: `f` returns x doubled
    out = f(3)
    # rule: the result is an int
    assert isinstance(out, int), f"got {type(out)}"
    # rule: every value is doubled
    for x in (1, 2):
        assert f(x) == 2 * x, f"f({x}) is not {2 * x}"
        # rule: a negative value is doubled with its sign
        assert f(-x) == -2 * x
    total = sum([out, 17])
    ### END HIDDEN TESTS
    '''
)


def lines_of(cell: str, text: str) -> int:
    return next(n for n, line in enumerate(cell.splitlines(), start=1) if text in line)


def test_each_assertion_has_the_rule_of_the_innermost_labelled_statement_else_the_default():
    table = R.rules_of(CELL)
    assert table.problems == () and table.default == "`f` returns x doubled"
    at = lambda text: R.explain(CELL, lines_of(CELL, text))  # noqa: E731
    assert at("assert isinstance") == (R.STATEMENT, "the result is an int")
    assert at("assert f(x) ==") == (R.STATEMENT, "every value is doubled")  # the loop's rule
    assert at("assert f(-x)") == (R.STATEMENT, "a negative value is doubled with its sign")  # innermost
    assert at("out = f(3)") == (R.CELL_DEFAULT, "`f` returns x doubled")  # no statement's: the default
    assert at("total =") == (R.CELL_DEFAULT, "`f` returns x doubled")
    assert R.explain(CELL, 0) == R.explain(CELL, 99) == ("", "")  # no line of the cell: no rule
    assert R.every_rule(CELL) == [
        "the result is an int",
        "every value is doubled",
        "a negative value is doubled with its sign",
        "`f` returns x doubled",
    ]


def test_a_failure_out_of_the_students_call_gets_raised_whatever_the_line():
    """raised_by (the exercise whose call the exception came out of) wins over the line: the
    student's AssertionError at a labelled assertion's line is no failure of that assertion."""
    line = lines_of(CELL, "assert f(x) ==")
    assert R.explain(CELL, line, "f") == (R.RAISED, R.raised("f"))
    assert R.raised("f") not in R.every_rule(CELL)
    assert R.explain(CELL, line, "not a name; rm -rf") == ("", "")  # never a sentence from odd data
    assert R.explain(CELL, line, "x" * 101) == ("", "")


@pytest.mark.parametrize(
    "edit, problem",
    [
        (lambda c: c.replace("# rule: the result is an int\n", ""), "an assertion without a rule"),
        (lambda c: c.replace("# default rule: `f` returns x doubled\n", ""), "0 default rules"),
        (lambda c: c.replace("out = f(3)\n", "out = f(3)\n# default rule: another\n"), "2 default rules"),
        (lambda c: c.replace("total = sum([out, 17])\n", "# rule: dangling\n\ntotal = 1\n"), "labels no statement"),
        (lambda c: c.replace("# rule: the result is an int\n", "# rule: a\n# rule: b\n"), "a second rule"),
        (lambda c: "# rule: outside\nx = 1\n" + c, "outside the hidden block"),
        (lambda c: c.replace("# rule: the result is an int", "# rule: " + "long " * 50), "one sentence"),
        (lambda c: c.replace("total = sum([out, 17])", "np.testing.assert_allclose(out, 6)"), "without a rule"),
        (lambda c: c.replace("total = sum([out, 17])", "raise AssertionError('no')"), "without a rule"),
    ],
)
def test_malformed_rules_are_problems(edit, problem):
    broken = edit(CELL)
    assert broken != CELL
    found = R.rules_of(broken).problems
    assert any(problem in p for p in found), found


def test_every_lesson_folder_is_checked_below():
    """The rules' tests below run on every lesson of the course: `make test` restricts no lesson."""
    assert LESSONS == lessons() == every_lesson(ROOT) and LESSONS, "COURSE_LESSONS restricts the lessons"


def test_every_hidden_assertion_of_every_solution_has_its_rule(lesson):
    """Issue 54 (1, 4): lessoncheck's own check, on every lesson."""
    from autograder.course.lessoncheck.__main__ import rule_problems

    nb = source_nb(lesson)
    hidden = [c for c in nb.cells if R.BEGIN in c.source]
    assert hidden, lesson
    assert rule_problems(nb) == [], lesson
    for c in hidden:
        assert R.rules_of(c.source).default and R.rules_of(c.source).spans, cell_grade_id(c)


def planted(tmp_path, lesson="01_number_formats"):
    """The solution with an unlabelled assertion planted in a hidden test."""
    nb = source_nb(lesson)
    cell = next(c for c in nb.cells if R.BEGIN in c.source)
    cell.source = cell.source.replace(R.END, "assert 1 + 1 == 2, 'planted'\n" + R.END)
    path = tmp_path / f"{lesson}.ipynb"
    nbformat.write(nb, str(path))
    return path, cell_grade_id(cell)


def test_lessoncheck_refuses_a_hidden_assertion_without_a_rule(tmp_path, capsys):
    from autograder.course.lessoncheck.__main__ import main

    path, gid = planted(tmp_path)
    assert main(["rules", str(path)]) == 1
    said = capsys.readouterr().out
    assert gid in said and "an assertion without a rule" in said and "planted" in said
    assert main(["rules", str(ROOT / "solutions" / path.stem / path.name)]) == 0


def test_lessoncheck_check_stops_at_the_first_failing_step_and_says_what_next(monkeypatch, capsys):
    """`lessoncheck check` runs its steps in order (the rules are the skeleton step's, before any
    notebook runs), prints a failing step's test output and the command to run again, and stops
    there; with --keep-going it runs the rest. (The steps' pytest runs are replaced by canned ones
    here: tests/test_new_lesson.py runs them for real.)"""
    from autograder.course.lessoncheck import steps

    ran = []

    def fake(step, lesson, root, verbose=False):
        ran.append(step.name)
        failing = step.name == "skeleton"
        return (
            (1, "FAILED tests/test_rules.py::test_every_hidden_assertion...: an assertion without a rule")
            if failing
            else (0, "2 passed")
        )

    monkeypatch.setattr(steps, "run_step", fake)
    monkeypatch.setattr(steps, "missing", lambda step, lesson, root: None)
    lesson = LESSONS[0]
    assert steps.check(lesson) == 1
    said = capsys.readouterr().out
    assert ran == ["folder", "skeleton"] and "an assertion without a rule" in said
    assert f"fix it, then: python -m autograder.course.lessoncheck check {lesson}" in said
    assert said.rstrip().endswith(f"{lesson}: failed at skeleton")
    ran.clear()
    assert steps.check(lesson, keep_going=True) == 1 and ran == [s.name for s in steps.STEPS]
    ran.clear()
    assert steps.check(lesson, only=["folder", "library"]) == 0 and ran == ["folder", "library"]


def release_text(lesson: str) -> str:
    return "\n".join(c.source for c in student_nb(lesson).cells)


def shown_sentences(lesson: str) -> list[tuple[str, str, list[str]]]:
    """(grade id, hidden test code, every sentence a failed check of it can show: every rule, the
    default rule and the exercise's `raised` sentence, as rule_line words them)."""
    from autograder.grader.classroom.studentview import rule_line

    found = []
    for c in source_nb(lesson).cells:
        if R.BEGIN in c.source:
            function = cell_grade_id(c).removeprefix("test_").rsplit("_", 1)[0]
            found.append(
                (cell_grade_id(c), c.source, [rule_line(s) for s in [*R.every_rule(c.source), R.raised(function)]])
            )
    return found


def test_no_shown_sentence_leaks_what_the_hidden_test_knows(lesson):
    """Issue 54 (1): on every lesson, no sentence a failed hidden check can show holds a number or a
    string of the hidden test's code or messages that the release does not hold."""
    shown = release_text(lesson)
    found = shown_sentences(lesson)
    assert found, f"{lesson} has no hidden test"
    for grade_id, code, sentences in found:
        assert R.leaks(code, shown, sentences) == [], grade_id


def test_the_leak_check_reads_every_lessons_sentences():
    """The check above reads more than 200 sentences over the course (every rule of every lesson)."""
    assert sum(len(s) for n in LESSONS for _, _, s in shown_sentences(n)) > 200


def test_the_leak_check_finds_a_hidden_number_or_message_in_a_sentence():
    """The check above can fail: a rule quoting a hidden input, a bound or a message is found."""
    hidden = CELL.replace("sum([out, 17])", "sum([out, 17, 0.0123])")
    assert R.leaks(hidden, "") == []
    assert R.leaks(hidden, "", ["the sum is below 0.0123"]) != []  # a bound
    assert R.leaks(hidden, "", ["x is 17"]) != []  # an input
    assert R.leaks(hidden, "", ["f(-x) is not as expected: got {type(out)}"]) != []  # a message
    assert R.leaks(hidden, "see 17 in the release", ["x is 17"]) == []  # the release holds it


# ---- the checker's own traceback (checker/failure.py)


def raised_in_cell(code: str, label: str = "<test_f_hidden>"):
    try:
        exec(compile(code, label, "exec"), {"np": __import__("numpy")})
    except BaseException as exc:  # noqa: BLE001
        return exc
    raise AssertionError("the cell did not raise")


def test_the_failure_site_is_the_innermost_line_of_the_cells_own_code():
    from autograder.grader.checker.failure import failure_site

    label = "<test_f_hidden>"
    assert failure_site(raised_in_cell("x = 1\nassert x == 2\n"), label) == (2, "")
    helper = "def check(v):\n    assert v > 0\n\ncheck(1)\ncheck(-1)\n"
    assert failure_site(raised_in_cell(helper), label) == (2, "")  # inside the cell's helper
    library = "x = 1\nnp.testing.assert_allclose(np.ones(2), np.zeros(2))\n"
    assert failure_site(raised_in_cell(library), label) == (2, "")  # its call in the cell
    assert failure_site(raised_in_cell("assert False"), "<another cell>") == (0, "")


def test_an_exception_out_of_a_stand_in_names_its_exercise_and_nothing_else():
    """A call of a stand-in (the student's function, standins.StudentFunction) that raises gives
    raised_by = its name, whatever the exception says."""
    from types import SimpleNamespace

    from autograder.grader.checker.failure import failure_site
    from autograder.grader.checker.standins import StudentFunction

    refusing = SimpleNamespace(observer=SimpleNamespace(call_allowed=lambda: False))
    f = StudentFunction(refusing, "bf16_round", {}, {})
    code = "x = 1\n# rule: forged\nassert f(x) == 2, 'edge cases: 18 values differ'\n"
    try:
        exec(compile(code, "<test_bf16_round_hidden>", "exec"), {"f": f})
    except RuntimeError as exc:
        assert failure_site(exc, "<test_bf16_round_hidden>") == (3, "bf16_round")
    else:
        raise AssertionError("the stand-in did not raise")


# ---- graded as the grader grades: the rule on every page, hostile answers


HOSTILE_ASSERT = '''def bf16_round(x):
    """Raises what looks like the hidden test's own failure."""
    raise AssertionError("edge cases: 18 values differ from round-to-nearest-even")
'''

WRONG_SUM = '''def sequential_sum(values, dtype):
    """Sums in float64, rounds once at the end."""
    import numpy as np
    {extra}
    return float(np.asarray(np.sum(np.asarray(values, dtype=np.float64)), dtype=dtype))
'''
FAKE_TRACEBACK = (
    'print(\'Traceback (most recent call last):\\n  File "<test_sequential_sum_hidden>", line 31, '
    "in <module>\\nAssertionError: sequential_sum modified its input')"
)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Lesson 01 graded as the grader grades (no emulation, diagnosis on): a library mistake, a
    hostile answer and the same wrong sum with and without a printed fake traceback."""
    from autograder.common.mistakes import load
    from autograder.grader.core.settings import Settings
    from autograder.grader.notebook.grade import grade_notebook
    from autograder.common.notebooks import fill_answers
    from conftest import grading_lesson

    lesson = "01_number_formats"
    truncates = next(m for m in load(lesson) if m.id == "truncates")
    answers = {
        "mistaken": {truncates.function: truncates.source},
        "hostile": {"bf16_round": HOSTILE_ASSERT, "sequential_sum": WRONG_SUM.format(extra=FAKE_TRACEBACK)},
        "plain": {"sequential_sum": WRONG_SUM.format(extra="pass")},
    }
    out, results = tmp_path_factory.mktemp("rules"), {}
    for who, overrides in answers.items():
        nb = fill_answers(student_nb(lesson), source_nb(lesson), overrides)
        path = out / who / f"{lesson}.ipynb"
        path.parent.mkdir()
        nbformat.write(nb, str(path))
        settings = Settings(jobs=1, emulation="none", seed=3)
        results[who] = grade_notebook(who, grading_lesson(lesson), path.read_bytes(), settings, ROOT)
    quiet = Settings(jobs=1, emulation="none", seed=3, rules=False)  # --no-rules
    path = out / "mistaken" / f"{lesson}.ipynb"
    results["no rules"] = grade_notebook("mistaken", grading_lesson(lesson), path.read_bytes(), quiet, ROOT)
    return results, truncates, out


def hidden_cell(grade_id: str) -> str:
    return next(c.source for c in source_nb("01_number_formats").cells if cell_grade_id(c) == grade_id)


def test_a_library_mistake_is_named_and_its_hidden_check_shows_the_rule_it_broke(graded):
    results, truncates, _ = graded
    t = {t.grade_id: t for t in results["mistaken"].tests}
    hidden = t["test_bf16_round_hidden"]
    assert hidden.mistakes == [truncates.key] and hidden.rule in R.every_rule(hidden_cell(hidden.grade_id))
    assert "never simply cut off" in hidden.rule
    assert t["test_bf16_round_visible"].rule == ""  # a visible check shows its own message
    assert all(x.rule == "" for x in t.values() if x.score == x.max_score)


def test_no_rules_records_and_shows_none_and_changes_nothing_else(graded):
    """--no-rules (Settings.rules=False): the same points, outcomes and named mistakes, no rule."""
    results, _, _ = graded
    same = lambda r: [(t.grade_id, t.score, t.outcome, t.mistakes) for t in r.tests]  # noqa: E731
    assert same(results["no rules"]) == same(results["mistaken"])
    assert any(t.rule for t in results["mistaken"].tests) and not any(t.rule for t in results["no rules"].tests)


def test_the_students_assertion_error_forges_no_rule(graded):
    """Issue 54 (7): an AssertionError raised inside the student's function, worded as the hidden
    test's own, gets `raised(bf16_round)`, never one of the test's rules."""
    results, _, _ = graded
    t = {t.grade_id: t for t in results["hostile"].tests}
    hidden = t["test_bf16_round_hidden"]
    assert hidden.score == 0 and "18 values differ" in hidden.message  # what the grader recorded
    assert hidden.rule == R.raised("bf16_round")
    assert hidden.rule not in R.every_rule(hidden_cell("test_bf16_round_hidden"))


def test_a_printed_fake_traceback_changes_no_rule(graded):
    """Issue 54 (7): the same wrong answer with and without a printed traceback naming another
    assertion's line shows the same rule, that of the assertion the checker saw fail."""
    results, _, _ = graded
    hostile = {t.grade_id: t for t in results["hostile"].tests}["test_sequential_sum_hidden"]
    plain = {t.grade_id: t for t in results["plain"].tests}["test_sequential_sum_hidden"]
    source = hidden_cell("test_sequential_sum_hidden")
    forged = R.explain(source, 31)[1]
    assert plain.score == hostile.score == 0 and plain.rule and hostile.rule == plain.rule
    assert plain.rule != forged and "modified its input" not in hostile.rule


def test_every_page_shows_the_rule_under_the_named_mistake(graded, capsys):
    """Feedback page, Gradescope's results.json and `check`: the library's sentence first, then the
    rule (studentview.rule_line); never the hidden test's message."""
    from autograder.common.mistakes import sentence
    from autograder.grader.classroom.outputs import feedback_html
    from autograder.grader.classroom.selfcheck import check
    from autograder.grader.classroom.studentview import rule_line
    from autograder.grader.core.settings import Settings
    from autograder.gradescope.results import hidden_shows, results_json

    results, truncates, out = graded
    r = results["mistaken"]
    hidden = {t.grade_id: t for t in r.tests}["test_bf16_round_hidden"]
    line = rule_line(hidden.rule)
    page = feedback_html(r)
    assert line in page and page.index(truncates.name) < page.index(line) and hidden.message not in page
    data = results_json(r, "visible", "sandbox: test", 1.0)
    text = next(t["output"] for t in data["tests"] if t["name"].startswith("bf16_round, hidden check"))
    assert text == "\n".join(["failed", *sentence([truncates.key]), line])
    assert hidden_shows(text, tuple(R.every_rule(hidden_cell(hidden.grade_id))))
    assert not hidden_shows(text, ("another rule",))
    assert not hidden_shows("failed\nRule broken: the hidden test's message.", ("a rule",))
    assert not hidden_shows("failed\nRule broken: the hidden test's message.")  # not a rule of the course
    assert hidden.message not in json.dumps(data)
    assert check(out / "mistaken" / "01_number_formats.ipynb", Settings(jobs=1, emulation="none", seed=3)) == 1
    said = capsys.readouterr().out
    assert line in said and said.index(truncates.name) < said.index(line) and hidden.message not in said


def test_the_report_groups_failures_by_rule(tmp_path):
    """Issue 54 (2): the report's "Rules broken" table counts students per rule of each exercise
    (once per rule, named mistake or not) and re-teach names the rule most broken."""
    from autograder.grader.classroom.outputs import write_outputs
    from autograder.grader.core.model import Outcome, Result, TestResult
    from autograder.report import build_report
    from autograder.report.load import load
    from autograder.report import misconceptions as mc

    lesson, rule, other = "01_number_formats", "ties must round to even", "the result is float32"

    def row(student, rules, mistakes=()):
        """A student's two checks of bf16_round (visible, hidden), each failed with its rule or passed."""
        tests = []
        for kind, r in zip(("visible", "hidden"), rules):
            t = TestResult(f"test_bf16_round_{kind}", 0.0 if r else 2.0, 2.0, "failed" if r else "", hidden=True)
            t.outcome, t.rule, t.mistakes = (Outcome.WRONG, r, list(mistakes)) if r else (Outcome.PASSED, "", [])
            tests.append(t)
        return Result(student, lesson, sum(t.score for t in tests), 4.0, "ok", tests=tests)

    key = "01_number_formats:bf16_round:truncates"
    results = [row("ada", [rule, rule]), row("bob", ["", rule], [key]), row("cy", [other, ""]), row("dee", ["", ""])]
    write_outputs(tmp_path, results)
    data = load(tmp_path)
    ranked = mc.rules_broken(data)
    assert [(r.rule, r.students, r.named, r.exercise) for r in ranked] == [
        (rule, 2, 1, "bf16_round"),
        (other, 1, 0, "bf16_round"),
    ]
    page = build_report(tmp_path).read_text()
    section = page[page.index("id=rules>") : page.index("id=lessons-h")]
    assert rule in section and other in section and "rule most broken" in page


def feedback_bits_table() -> str:
    """docs/GRADING.md's table of what one submission's page can tell of its hidden checks (the
    release writes it: course/release.py)."""
    from autograder.course.release import feedback_bits_table as table

    return table(ROOT)


def test_the_documented_bound_of_what_feedback_tells_is_the_code_s():
    """Issue 57: GRADING.md states the combined bound (the rule and the named mistakes together) per
    lesson; a new rule, mistake or hidden check changes it, and this fails until the table says so
    (`python -m autograder release` writes it, with the README's lesson table)."""
    text = (ROOT / "docs" / "GRADING.md").read_text()
    table = text.split("<!-- feedback-bits:start -->")[1].split("<!-- feedback-bits:end -->")[0]
    rows = [line.strip() for line in table.strip().splitlines()[2:]]
    assert rows == feedback_bits_table().splitlines(), "update docs/GRADING.md with:\n" + feedback_bits_table()


def test_a_hidden_check_s_channel_counts_rules_and_mistakes_together():
    from autograder.grader.classroom.studentview import HiddenChannel

    c = HiddenChannel("test_f_hidden", rules=3, mistakes=(2, 1))
    assert c.outcomes == 1 + 3 * 3 * 2  # passed, or one of 3 rules with one of 3 and one of 2 named sets
    assert abs(c.bits() - math.log2(19)) < 1e-12
    assert c.bits(rules=False, diagnose=False) == 1.0
    assert abs(c.bits(rules=False) - math.log2(7)) < 1e-12 and abs(c.bits(diagnose=False) - 2.0) < 1e-12
