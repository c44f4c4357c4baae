"""The grader fails closed and isolates: every attack below is a real submission of lesson 02
(built from the release notebook), and the whole class is graded once, two notebooks at a time.

Lesson 02 has 11 points: evaluate_precision_policies 1+3, emulated_bf16_accumulation 1+3,
accumulation_error_curve 1+2 (its hidden test uses the reference emulation, so a broken
emulated_bf16_accumulation costs only its own points there).
"""
import csv
import json

import nbformat
import pytest

from autograder.grade import grade
from autograder.lessoncheck import load_mutants
from autograder.notebooks import cell_grade_id, fill_answers
from conftest import ROOT, source_nb, student_nb

pytestmark = pytest.mark.slow
LESSON = "02_matmul_accumulation"
CELL_TIMEOUT = 20

EVAL_SIG = 'def evaluate_precision_policies(seed=0):\n    """Attack."""\n'
EMUL_SIG = 'def emulated_bf16_accumulation(x, w):\n    """Attack."""\n'
CURVE_SIG = 'def accumulation_error_curve(ks, seed=0):\n    """Attack."""\n'
# How a determined student reaches the IPython shell without any name a static scan would flag.
SHELL = ('    _g = getattr(lambda: 0, "__glob" + "als__")\n'
         '    _ip = _g["get_" + "ipython"]()\n')


def bytes_mutant():
    return next(m for m in load_mutants(LESSON) if "bytes" in m["why"])["source"]


def submission(overrides=None, extra_after_first_answer=None, edit=None):
    nb = fill_answers(student_nb(LESSON), source_nb(LESSON), overrides or {})
    if extra_after_first_answer:
        first = next(i for i, c in enumerate(nb.cells) if cell_grade_id(c).startswith("answer_"))
        nb.cells.insert(first + 1, nbformat.v4.new_code_cell(extra_after_first_answer))
    if edit:
        edit(nb)
    return nb


def edit_and_delete_tests(nb):
    for cell in list(nb.cells):
        if cell_grade_id(cell) == "test_evaluate_precision_policies_visible":
            cell.source = "pass  # this check is wrong\n"
        if cell_grade_id(cell) == "test_emulated_bf16_accumulation_hidden":
            nb.cells.remove(cell)


WRONG = {"evaluate_precision_policies": EVAL_SIG + "    return []\n",
         "emulated_bf16_accumulation": EMUL_SIG + "    return 0\n",
         "accumulation_error_curve": CURVE_SIG + "    return {}\n"}


def attacks(out_dir):
    return {
        "perfect": submission(),
        # top-level tampering in an extra cell: never runs (only definitions do), and flagged
        "transformer": submission(WRONG, "get_ipython().input_transformers_cleanup.append(lambda lines: [])\n"),
        # the same at run time, from a function body, reaching the shell without flagged names
        "transformer_hidden": submission({**WRONG, "evaluate_precision_policies": EVAL_SIG + SHELL + (
            '    getattr(_ip, "input_transformers_" + "cleanup").append(lambda lines: ["pass\\n"])\n'
            "    return []\n")}),
        "assertion": submission(WRONG, "import builtins\nbuiltins.AssertionError = type('AssertionError', (Exception,), {})\n"),
        "builtins_runtime": submission({**WRONG, "evaluate_precision_policies": EVAL_SIG + SHELL + (
            '    _b = _g["__buil" + "tins__"]\n'
            '    getattr(_b, "__di" + "ct__")["AssertionError"] = type("AssertionError", (Exception,), {})\n'
            "    return []\n")}),
        "np_testing": submission({**WRONG, "evaluate_precision_policies": EVAL_SIG + (
            '    t = getattr(np, "testing")\n'
            "    t.assert_allclose = t.assert_array_equal = lambda *a, **k: None\n"
            "    m = np\n"
            "    m.allclose = m.array_equal = lambda *a, **k: True\n"
            "    return []\n")}),
        "showtraceback": submission({**WRONG, "evaluate_precision_policies": EVAL_SIG + SHELL + (
            '    object.__setattr__(_ip, "show" + "traceback", lambda *a, **k: None)\n'
            '    object.__setattr__(_ip, "_show" + "traceback", lambda *a, **k: None)\n'
            "    return []\n")}),
        "excepthook": submission(WRONG, "import sys\nsys.excepthook = lambda *a: None\n"
                                        "get_ipython().showtraceback = lambda *a, **k: None\n"),
        "shadow": submission(extra_after_first_answer=(
            "def exact_matmul(a, b):\n    return 0\n\n"
            "def isinstance(*args):\n    return True\n")),
        "edit_tests": submission({"evaluate_precision_policies": bytes_mutant()}, edit=edit_and_delete_tests),
        "loop": submission({"accumulation_error_curve": CURVE_SIG + "    while True:\n        pass\n"}),
        "kill": submission({"emulated_bf16_accumulation": EMUL_SIG + "    import os\n    os._exit(1)\n"}),
        "snoop": submission({"evaluate_precision_policies": EVAL_SIG + (
            "    import glob, os\n"
            "    found = []\n"
            f"    for p in ([{str(ROOT / 'solutions' / LESSON / (LESSON + '.ipynb'))!r}, {str(ROOT / 'README.md')!r},\n"
            f"              {str(out_dir / 'gradebook.db')!r}, {str(out_dir.parent / 'subs' / 'perfect' / (LESSON + '.ipynb'))!r},\n"
            "              '../solutions', '../../solutions', '../kernel.log']\n"
            "             + glob.glob('/tmp/course-grade-*/work/*.ipynb') + glob.glob('/tmp/*/gradebook.db')):\n"
            "        try:\n"
            "            with open(p, 'rb') as f:\n"
            "                f.read(1)\n"
            "            if not os.path.realpath(p).startswith(os.getcwd()):  # its own notebook is fine\n"
            "                found.append(p)\n"
            "        except OSError:\n"
            "            pass\n"
            "    raise RuntimeError('SNOOP found=' + repr(found))\n")}),
        "memory": submission({"emulated_bf16_accumulation": EMUL_SIG + "    return np.ones(2**34)\n"}),
        # the seed's mistake: a DEFAULT-precision "fp32 reference", right on CPU, wrong on a TPU
        "seed_reference": submission({"evaluate_precision_policies": next(
            m for m in load_mutants(LESSON) if "seed's DEFAULT" in m["why"])["source"]}),
    }


@pytest.fixture(scope="module")
def attacked(tmp_path_factory):
    base = tmp_path_factory.mktemp("attacks")
    subs, out = base / "subs", base / "out"
    for student, nb in attacks(out).items():
        (subs / student).mkdir(parents=True)
        nbformat.write(nb, str(subs / student / f"{LESSON}.ipynb"))
    (subs / "unreadable").mkdir()
    (subs / "unreadable" / f"{LESSON}.ipynb").write_text('{"cells": [ this is not JSON')
    (subs / "ghost").mkdir()
    (subs / "ghost" / "notes.txt").write_text("no notebook here")
    results = grade(subs, out, jobs=2, timeout=CELL_TIMEOUT, quiet=True, names=[LESSON])
    return {r.student: r for r in results}, out


def test_grading_runs_as_if_on_a_tpu(attacked):
    """Kernels grade under emulated TPU matmul precision (the default): the seed's DEFAULT
    reference, which CPU-only grading would accept, loses Exercise 1's hidden points."""
    r = attacked[0]["seed_reference"]
    print(r.status, scores(r))
    assert r.status == "ok"
    assert scores(r)["test_evaluate_precision_policies_hidden"] == 0
    assert r.score == 11 - 3


def scores(r):
    return {t.grade_id: t.score for t in r.tests}


def test_perfect_submission_is_not_flagged(attacked):
    r = attacked[0]["perfect"]
    assert (r.score, r.max_score, r.status) == (11, 11, "ok"), r.detail


@pytest.mark.parametrize("student", ["transformer", "transformer_hidden", "assertion", "builtins_runtime",
                                     "np_testing", "showtraceback", "excepthook"])
def test_tampering_with_the_checking_machinery_gains_nothing(attacked, student):
    r = attacked[0][student]
    print(student, r.status, r.detail)
    assert r.status == "tampered" and r.score == 0 and r.max_score == 11
    assert "checking machinery" in r.detail


def test_shadowing_instructor_helpers_and_builtins_does_not_run(attacked):
    r = attacked[0]["shadow"]
    assert (r.score, r.status) == (11, "ok"), r.detail
    assert any("exact_matmul" in n and "isinstance" in n for n in r.notes), r.notes


def test_edited_and_deleted_test_cells_are_restored_and_graded(attacked):
    r = attacked[0]["edit_tests"]
    print(r.detail, scores(r))
    assert r.status == "tampered" and "originals restored" in r.detail
    assert "edited test_evaluate_precision_policies_visible" in r.detail
    assert "deleted test_emulated_bf16_accumulation_hidden" in r.detail
    s = scores(r)
    assert s["test_evaluate_precision_policies_visible"] == 0, "the original (failing) check ran"
    assert s["test_emulated_bf16_accumulation_hidden"] == 3, "the deleted test ran and passed"
    assert r.score == 7


def test_infinite_loop_times_out_and_the_rest_is_graded(attacked):
    r = attacked[0]["loop"]
    print(r.detail, scores(r))
    assert r.status == "timeout"
    assert r.score == 8, "evaluate and emulated keep their 8 points"
    assert {t.grade_id for t in r.tests if "timed out" in t.error} == {
        "test_accumulation_error_curve_visible", "test_accumulation_error_curve_hidden"}


def test_killed_kernel_is_an_error_and_keeps_earlier_points(attacked):
    r = attacked[0]["kill"]
    s = scores(r)
    print(r.detail, s)
    assert r.status == "error" and "kernel died" in r.detail
    assert s["test_evaluate_precision_policies_visible"] == 1 and s["test_evaluate_precision_policies_hidden"] == 3
    assert s["test_emulated_bf16_accumulation_visible"] == 0 and s["test_emulated_bf16_accumulation_hidden"] == 0
    assert s["test_accumulation_error_curve_hidden"] == 2, "graded after a kernel restart"


def test_kernel_cannot_read_solutions_gradebook_or_other_work(attacked):
    r = attacked[0]["snoop"]
    errors = {t.grade_id: t.error for t in r.tests}
    print(errors)
    assert "SNOOP found=[]" in errors["test_evaluate_precision_policies_visible"]
    assert r.status == "ok" and r.score == 7


def test_memory_cap_turns_a_huge_allocation_into_a_memoryerror(attacked):
    r = attacked[0]["memory"]
    errors = {t.grade_id: t.error for t in r.tests}
    print(errors)
    assert "MemoryError" in errors["test_emulated_bf16_accumulation_visible"]
    assert (r.status, r.score) == ("ok", 6), "emulated's 4 points and the curve's visible test (it calls it)"


def test_unreadable_and_missing_notebooks_are_explicit(attacked):
    results, out = attacked
    r = results["unreadable"]
    assert r.status == "error" and "unreadable" in r.detail and r.score == 0 and r.max_score == 11
    assert len(r.tests) == 6, "every test is listed as not run"
    assert (results["ghost"].status, results["ghost"].max_score) == ("missing", 11)
    rows = {row["student"]: row for row in csv.DictReader(open(out / "grades.csv"))}
    assert set(rows) == set(results)
    assert rows["ghost"]["status"] == "missing" and rows["unreadable"]["status"] == "error"
    assert all(row["status"] in ("ok", "timeout", "error", "tampered", "missing") for row in rows.values())


def test_gradebook_holds_the_same_scores(attacked):
    from nbgrader.api import Gradebook
    results, out = attacked
    with Gradebook(f"sqlite:///{out / 'gradebook.db'}") as gb:
        for student, r in results.items():
            if r.status == "missing":
                continue
            nb = gb.find_submission_notebook(LESSON, LESSON, student)
            assert (nb.score, nb.max_score) == (r.score, r.max_score), student
    tests = list(csv.DictReader(open(out / "tests.csv")))
    assert len([t for t in tests if t["student"] == "perfect"]) == 6
    journal = [json.loads(line) for line in open(out / "journal.jsonl")]
    assert {j["student"] for j in journal} == {s for s, r in results.items() if r.status != "missing"}


def test_feedback_shows_no_hidden_test_code_or_messages(attacked):
    results, out = attacked
    hidden_lines = set()
    for cell in source_nb(LESSON).cells:
        if "### BEGIN HIDDEN TESTS" in cell.source:
            body = cell.source.split("### BEGIN HIDDEN TESTS")[1].split("### END HIDDEN TESTS")[0]
            hidden_lines |= {line.strip() for line in body.splitlines() if len(line.strip()) > 25}
    pages = list((out / "feedback").rglob("*.html"))
    assert len(pages) == len([r for r in results.values() if r.status != "missing"])
    for page in pages:
        text = page.read_text()
        assert "_ref_" not in text and "BEGIN HIDDEN" not in text, page
        assert not [line for line in hidden_lines if line in text], page
    blank_like = (out / "feedback" / "transformer" / f"{LESSON}.html").read_text()
    assert "hidden test" in blank_like
