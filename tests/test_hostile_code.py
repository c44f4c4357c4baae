"""Issue 57: no student's file makes a grader fault.

One 4 KB line in an answer cell, an integer literal written in hexadecimal whose decimal form is
longer than Python's int-to-str limit, made the plan crash while it wrote the kept definitions back
as code (``ast.unparse`` -> ``repr(int)`` -> ValueError): the row became ``grader-error``, the whole
class run exited 2 on every rerun, and Gradescope wrote no results.json. Now:

- every cell of hostile but legal Python (tests/hostile_code.py: huge literals in every base and
  place, nesting just under the caps, odd Unicode identifiers, nested f-strings, every statement
  kind, tricky targets; crafted, then composed at random from a seeded grammar) is planned as a
  worker plans it: never an exception, and the definitions kept from a cell that compiles compile
  too (a literal keeps its value: the 4 KB hexadecimal literal is written back in hexadecimal);
- whatever else a submission's code makes the plan raise is that submission's ``error`` row with the
  reason, told apart from the grader's own fault by planning the untouched release the same way;
- in a class, the hostile notebook is graded beside classmates who keep full marks and the run
  exits 0; on Gradescope the same upload gets a results.json (tests/test_gradescope.py).
"""

from __future__ import annotations

import ast
import copy
import csv
import random
import subprocess
import sys

import pytest

from autograder.common.textsafe import printable
from autograder.grader.core.studentcode import cell_python, parse_cell
from autograder.grader.notebook import grade as grading
from autograder.grader.notebook.plan import build_plan
from conftest import ROOT, grading_lesson, source_nb, student_nb
from hostile_code import CRAFTED, HEX, random_cell

LESSON = "01_number_formats"
ANSWER = "answer_bf16_round"
SEED, COUNT = 57, 200


def submission_with(source: str, added: str | None = None):
    """Lesson 01's release with ``source`` in bf16_round's answer cell (and ``added`` as a cell of the
    student's own before it)."""
    nb = copy.deepcopy(student_nb(LESSON))
    index = next(i for i, c in enumerate(nb.cells) if c.metadata.get("nbgrader", {}).get("grade_id") == ANSWER)
    nb.cells[index].source = source
    if added is not None:
        nb.cells.insert(index, {"cell_type": "code", "metadata": {}, "source": added, "outputs": [], "id": "mine"})
    return nb


def compiles(code: str) -> bool:
    try:
        compile(code, "<cell>", "exec", dont_inherit=True)  # not this file's __future__ annotations
    except (SyntaxError, ValueError):
        return False
    return True


def plan_of(source: str, added: str | None = None):
    """The plan a worker makes of the submission: it must never raise."""
    return build_plan(source_nb(LESSON), student_nb(LESSON), submission_with(source, added), student_nb(LESSON))


def check_plan(source: str, plan, label: str = ANSWER) -> str:
    """What a plan of a hostile cell must be: printable notes and attacks; a cell that does not
    parse (a 4,400-digit decimal literal, nesting past the caps) a note with its reason; every cell
    kept from one that compiles compiles too. Returns which of the three the cell was."""
    for text in plan.notes + plan.attacks:
        assert text == printable(text, 2000) and len(text) <= 2000, text[:300]
    kept = dict(plan.student_cells)
    _, problem = parse_cell(source)
    if problem is not None:
        assert label not in kept
        assert any(n.startswith(f"{label} does not parse") for n in plan.notes), plan.notes
        return "refused"
    if not compiles(cell_python(source)):  # Python's compiler refuses it: so does the student's kernel
        return "parses"
    for label, code in plan.student_cells:
        assert compiles(code), f"{label}: the kept definitions of a compiling cell do not compile"
    return "compiles"


@pytest.mark.parametrize("name", list(CRAFTED))
def test_a_crafted_hostile_cell_is_planned_and_written_back_as_code(name):
    source = CRAFTED[name]
    check_plan(source, plan_of(source))
    own = plan_of("def bf16_round(x):\n    return x\n", added=source)  # a cell of the student's own
    check_plan(source, own, f"cell added before {ANSWER}")


def test_the_issue_57_literal_keeps_its_value_in_the_code_the_student_process_runs():
    plan = plan_of(CRAFTED["hex literal (issue 57)"])
    code = dict(plan.student_cells)[ANSWER]
    assert HEX in code  # written back in hexadecimal: the same literal, no 4,817-digit decimal
    namespace: dict = {}
    exec(compile(code, "<answer>", "exec"), namespace)
    assert namespace["BIG"] == int(HEX, 16) and callable(namespace["bf16_round"])


def test_random_hostile_cells_are_planned_and_written_back_as_code():
    rng = random.Random(SEED)
    kinds = {"compiles": 0, "parses": 0, "refused": 0}
    for _ in range(COUNT):
        source = random_cell(rng)
        kinds[check_plan(source, plan_of(source))] += 1
    # the grammar reaches each: cells the plan must keep, and cells it must refuse with a reason
    assert kinds["compiles"] >= COUNT // 10 and kinds["refused"] >= COUNT // 20, kinds


def test_a_cell_that_cannot_be_written_back_is_the_students_note(monkeypatch):
    """Whatever ``ast.unparse`` may yet fail on is that cell's note, the rest of the plan made."""
    real = ast.unparse

    def fails_on_marked(node):
        if "MARKED" in real(node):
            raise ValueError("a failure unparse may have")
        return real(node)

    monkeypatch.setattr(ast, "unparse", fails_on_marked)
    plan = plan_of("MARKED = 1\ndef bf16_round(x):\n    return x\n")
    assert ANSWER not in dict(plan.student_cells)
    said = f"{ANSWER} did not run when grading (cannot be written back as code"
    assert any(said in n for n in plan.notes), plan.notes


def test_a_cell_added_after_the_last_answer_is_named_after_it():
    """A second hostile round: a cell the student added after the last answer was named "added before"
    it in the notes; it is "added after" it, and one added before it stays "before"."""
    from autograder.common.notebooks import cell_grade_id

    nb = copy.deepcopy(student_nb(LESSON))
    last = max(i for i, c in enumerate(nb.cells) if cell_grade_id(c).startswith("answer_"))
    gid = cell_grade_id(nb.cells[last])
    for at, source in ((len(nb.cells), "x = (\n"), (last, "y = (\n")):  # neither parses: each named
        nb.cells.insert(at, {"cell_type": "code", "metadata": {}, "source": source, "outputs": [], "id": f"m{at}"})
    plan = build_plan(source_nb(LESSON), student_nb(LESSON), nb, student_nb(LESSON))
    named = sorted(n.split(" does not parse")[0] for n in plan.notes if "does not parse" in n)
    assert named == [f"cell added after {gid}", f"cell added before {gid}"], plan.notes


def test_a_plan_that_fails_on_the_submission_alone_is_the_students_error(monkeypatch):
    """``grade_notebook``: a plan that raises on the submission but not on the untouched release is
    that row's ``error`` with the reason and 0 points; one that raises on the release too is the
    grader's own fault, raised on (a grader-error row, regraded next run), never a zero."""
    from autograder.grader import Settings

    lesson = grading_lesson(LESSON, mistakes=False)
    real = grading.build_plan

    def fails_on_marked(source, release, submitted, committed=None):
        if any("MARKED" in str(c.get("source", "")) for c in submitted.cells):
            raise RuntimeError("a plan that fails on the submission's bytes")
        return real(source, release, submitted, committed)

    monkeypatch.setattr(grading, "build_plan", fails_on_marked)
    raw = __import__("nbformat").writes(submission_with("MARKED = 1\n")).encode()
    r = grading.grade_notebook("mallory", lesson, raw, Settings(), ROOT)
    assert (r.status, r.score) == ("error", 0.0)
    assert "could not read this notebook's code (RuntimeError: a plan that fails on the submission" in r.detail
    assert r.tests and all(t.outcome == "not run" for t in r.tests)

    monkeypatch.setattr(grading, "build_plan", lambda *a, **k: (_ for _ in ()).throw(KeyError("the grader's bug")))
    with pytest.raises(KeyError, match="the grader's bug"):
        grading.grade_notebook("mallory", lesson, raw, Settings(), ROOT)


@pytest.mark.slow
def test_a_class_with_the_issue_57_notebook_grades_everyone_and_exits_0(tmp_path):
    """The issue's notebook (its wrong bf16_round beside the 4 KB literal) and one of every crafted
    trap in one cell, beside two classmates with the solution: `grade` exits 0, the classmates keep
    full marks, each attacker has a row of its own with a grade (no grader-error)."""
    import json

    from bounded_reading import honest

    perfect = honest()
    subs = tmp_path / "subs"
    hostile = {
        "mallory": CRAFTED["hex literal (issue 57)"],
        "trudy": "\n".join(CRAFTED[k] for k in ("octal literal", "hex in a match pattern", "nested f-strings"))
        + "\ndef bf16_round(x):\n    return x\n",
    }
    for student in ("ada", "bob", *hostile):
        nb = copy.deepcopy(perfect)
        if student in hostile:
            cell = next(c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id") == ANSWER)
            cell["source"] = hostile[student]
        (subs / student).mkdir(parents=True)
        (subs / student / f"{LESSON}.ipynb").write_text(json.dumps(nb))
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "autograder", "grade", str(subs), "--out", str(out), "--jobs", "2", "--seed", "57"]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = {r["student"]: r for r in csv.DictReader(open(out / "grades.csv"))}
    assert {s: (r["score"], r["status"]) for s, r in rows.items() if s in ("ada", "bob")} == {
        "ada": ("13", "ok"),
        "bob": ("13", "ok"),
    }
    for student in hostile:  # a wrong bf16_round: its own points lost, the rest of the notebook graded
        assert rows[student]["status"] == "ok" and 0 < float(rows[student]["score"]) < 13, rows[student]


def test_nested_self_documenting_f_strings_are_refused_before_they_are_written_back():
    """Each level of f"{...=}" holds its expression's text again, so 48 levels of a 160 KB helper
    became 23 M characters of kept code and a frame over the wire's 16 MiB cap (a grader-error,
    found by a hostile-student review): such a cell now does not parse, with the reason, and the
    student's other cells are kept."""
    inner = '"' + "\U0001f600" * 2000 + '"'
    for _ in range(48):
        inner = 'f"{' + inner + '=}"'
    helper = f"def _helper():\n    return {inner}\n"
    _, problem = parse_cell(helper)
    assert problem is not None and "over 2 times the cell's size" in problem
    plan = plan_of("def bf16_round(x):\n    return x\n", added=helper)
    check_plan(helper, plan, f"cell added before {ANSWER}")
    assert ANSWER in dict(plan.student_cells)
    one_level = 'def f(x):\n    return f"{x=} {x + 1=}"\n'  # an honest debug f-string parses
    assert parse_cell(one_level)[1] is None and ANSWER in dict(plan_of(one_level).student_cells)


def test_kept_code_past_its_bound_is_the_cells_note_never_an_oversized_frame(monkeypatch):
    """The code the plan keeps, as the wire carries it, is bounded (MAX_KEPT_CODE_BYTES, under the
    frame's cap with the lesson's own code and the emulation): a cell that would pass it is that
    cell's note and does not run; one cell written back past it is UnreadableCode (the cell's note)."""
    from autograder.chip import emulation
    from autograder.grader.core import studentcode, wire
    from autograder.grader.core.settings import MAX_KEPT_CODE_BYTES
    from autograder.grader.notebook import plan as planning

    lessons_code = sum(studentcode.wire_size(c.source) for c in source_nb(LESSON).cells)
    assert MAX_KEPT_CODE_BYTES + lessons_code + studentcode.wire_size(emulation.source()) < wire.MAX_FRAME // 2
    mine = "def helper():\n    return '" + "\u00e9" * 300 + "'\n"  # 300 characters, 1,800 bytes on the wire
    monkeypatch.setattr(planning, "MAX_KEPT_CODE_BYTES", 1000)
    plan = plan_of("def bf16_round(x):\n    return x\n", added=mine)
    assert f"cell added before {ANSWER}" not in dict(plan.student_cells) and ANSWER in dict(plan.student_cells)
    assert any("did not run when grading" in n and "1 MiB" not in n for n in plan.notes), plan.notes
    monkeypatch.setattr(studentcode, "MAX_KEPT_CODE_BYTES", 1000)
    with pytest.raises(studentcode.UnreadableCode, match="written back as code it is over"):
        studentcode.unparse(ast.parse(mine))


def test_an_attacks_name_is_cut_to_100_characters():
    """An import of a suspicious module under a 10,000-character dotted name is named by its first
    100 characters: the row's record, its page and the journal stay small."""
    plan = plan_of("import subprocess." + "a" * 10_000 + "\ndef bf16_round(x):\n    return x\n")
    assert plan.attacks and all(len(a) <= 120 for a in plan.attacks), [len(a) for a in plan.attacks]
    assert plan.attacks[0].startswith("imports subprocess.aaa")
