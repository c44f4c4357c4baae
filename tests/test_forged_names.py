"""Issue 42: the checker binds only the lesson's exercises, never a name the student's process says.

The student's process answers the checker's init with a ready message listing what it defined. A
student's cell can reach that process's own variables (``import __main__``) and add any name to
the list, and put its own function under it (``__main__.NAMESPACE``): before, the checker bound a
stand-in for every listed name, so ``abs``, ``round``, ``print`` or ``Path`` in the hidden tests'
own code called the student's process (points for a constant table, the tests' printed bounds
sent to the student, files written where the student said). Now only the exercises are bound, a
ready message naming anything else is an attack on record (status tampered, no points), and an
exercise named like a builtin or a setup name stops the checker as the grader's fault.
"""

import nbformat
import pytest

from autograder.grader import Settings
from autograder.grader.checker.names import contract_names, shadowed
from autograder.grader.core.model import Status
from autograder.grader.notebook.grade import grade_notebook
from autograder.common.notebooks import fill_answers
from conftest import ROOT, grading_lesson, source_nb, student_nb

CONTRACT = ["evaluate_precision_policies", "emulated_bf16_accumulation", "accumulation_error_curve"]


def test_only_the_exercises_are_taken_from_a_ready_message():
    """Names outside the contract, duplicates, non-strings and a non-list are forged; the exercises
    the student defined are kept in order, once each."""
    assert contract_names(CONTRACT[::-1], CONTRACT) == (CONTRACT[::-1], [])
    names, forged = contract_names([CONTRACT[0], "abs", CONTRACT[0], 3, "Path", "print"], CONTRACT)
    print("kept", names, "forged", forged)
    assert names == [CONTRACT[0]]
    assert forged == ["abs", CONTRACT[0], "3", "Path", "print"]
    assert contract_names({"abs": 1}, CONTRACT) == ([], ["a ready message whose names are a dict"])
    assert contract_names([], CONTRACT) == ([], [])


def test_an_exercise_named_like_a_builtin_or_a_setup_name_is_refused():
    """The checker never puts a stand-in where a test expects its own names."""
    setup = {"np": object(), "Path": object(), "exact_matmul": object()}
    assert shadowed(CONTRACT, setup) == ""
    assert shadowed(CONTRACT + ["round"], setup) == "round"
    assert shadowed(["Path"] + CONTRACT, setup) == "Path"
    assert shadowed(["__import__"], {}) == "__import__"


FORGER = '''import __main__

def _nothing(*args, **kwargs):
    return 0.0


def _host_path(*args, **kwargs):
    return {host!r}


_names = __main__.first["names"].extend(["abs", "round", "print", "len", "Path", "np", "exact_matmul"])
_bound = __main__.NAMESPACE.update(
    {{"abs": _nothing, "round": _nothing, "print": _nothing, "len": _nothing, "Path": _host_path,
     "np": _nothing, "exact_matmul": _nothing}}
)


def evaluate_precision_policies(seed=0):
    """A constant table: nothing measured."""
    return [
        {{"policy": p, "max_abs_err": 0.1, "mean_abs_err": 0.01, "weight_bytes": b, "scale_bytes": s}}
        for p, b, s in (("bf16 inputs, f32 accumulation", 32768, 0),
                        ("bf16 inputs, bf16 output", 32768, 0),
                        ("int8 per-column weights, f32 accumulation", 16384, 256))
    ]
'''


@pytest.mark.slow
def test_a_forged_ready_list_scores_nothing_and_writes_nothing(tmp_path):
    """Graded for real (lesson 02, the sandbox as configured here): a submission that adds
    builtins and setup names to its ready list, with its own functions under them, is tampered
    with no points (the blank notebook's score is 0), its row says why, and the host folder its
    ``Path`` names stays empty (the checker never called it)."""
    lesson = "02_matmul_accumulation"
    host = tmp_path / "host-folder"
    host.mkdir()
    nb = fill_answers(
        student_nb(lesson),
        source_nb(lesson),
        {
            "evaluate_precision_policies": FORGER.format(host=str(host)),
            "emulated_bf16_accumulation": (
                'def emulated_bf16_accumulation(x, w):\n    """Stub."""\n    raise NotImplementedError()\n'
            ),
            "accumulation_error_curve": (
                'def accumulation_error_curve(ks, seed=0):\n    """Stub."""\n    raise NotImplementedError()\n'
            ),
        },
    )
    the_lesson = grading_lesson(lesson, mistakes=False)
    r = grade_notebook("mallory", the_lesson, nbformat.writes(nb).encode(), Settings(jobs=1, seed=1), ROOT)
    print(r.status, r.score, "/", r.max_score, "|", r.detail)
    for t in r.tests:
        print(" ", t.grade_id, t.score, t.message[:120])
    assert r.status == Status.TAMPERED and r.score == 0
    assert "no exercise of this lesson" in r.detail and "abs" in r.detail
    assert "imports __main__" in r.detail  # read as text too (attacks.py)
    assert list(host.iterdir()) == [], "the checker wrote where the student's Path pointed"
