"""Issue 64 for lessons 01 and 04: the visible checks hold the hidden reference's values and catch
the chip's charged mistakes that are not edge-case inputs.

Each visible check of these lessons compares with expected values written in the cell (bit
patterns, sums, op totals of a crafted trace). Here, on this CPU without the emulation (these
exercises run on the host: NumPy in lesson 01, trace files in lesson 04), the visible cell runs
against the hidden test's own reference (``_ref_<fn>`` of the source notebook's hidden cell), so
a literal that drifts from the reference fails; against every correct alternative, which must
pass; and against every library mistake that the chip's hidden test charges and lesson.toml does
not name under [chip.surprises] or [chip.hidden_only], which must fail.
"""

import ast
import contextlib
import io
import os
import runpy

import pytest

from autograder.chip.outcomes import candidates
from autograder.common import lessonfolder
from autograder.common.notebooks import cell_grade_id
from autograder.grader.core.studentcode import definitions_only
from conftest import ROOT, source_nb

EXERCISES = {
    "01_number_formats": ["format_table", "bf16_round", "sequential_sum", "pairwise_sum"],
    "04_xprof_profiling": ["capture_warmed_trace", "xplane_path", "count_events", "step_times_ms", "top_ops"],
}
# The hidden cell's reference, called as the contract's function ("" where the hidden cell has none:
# the solution's answer cell stands in)
REFERENCE = {
    "step_times_ms": "lambda xplane_file, step_name: _ref_step_times_ms(xplane_file, step_name)[0]",
    "capture_warmed_trace": "",
}


def cells(lesson: str) -> dict[str, str]:
    return {cell_grade_id(c): c.source for c in source_nb(lesson).cells if c.cell_type == "code" and cell_grade_id(c)}


def define(source: str, ns: dict) -> None:
    """Run a cell's definitions (imports, defs, constants) into ``ns``: no call, so no emulation
    starts and no demo or test runs; a constant computed from what did not run is left out."""
    for stmt in ast.parse(definitions_only(source, calls=False)[0]).body:
        with contextlib.suppress(NameError):
            exec(compile(ast.Module(body=[stmt], type_ignores=[]), "<definitions>", "exec"), ns)


def given(lesson: str, ns: dict) -> None:
    """The setup cell's and the lesson's given cells' definitions, as the grader runs them."""
    for c in source_nb(lesson).cells:
        if c.cell_type == "code" and not cell_grade_id(c):
            define(c.source, ns)


def run_visible(lesson: str, function: str, answer: str, tmp_path) -> str:
    """Run the exercise's visible cell with ``answer`` (code defining ``function``): "" when it
    passes, else the exception it raised."""
    ns: dict = {"__name__": "__visible__"}
    given(lesson, ns)
    if answer.startswith(HIDDEN):  # a notebook cell's definitions, then the binding of its reference
        cell, _, bind = answer.partition(BIND)
        define(cell, ns)
        exec(bind, ns)
    else:
        exec(answer, ns)
    saved = os.getcwd(), os.environ.get("TPU_TRACE_DIR")
    os.environ.pop("TPU_TRACE_DIR", None)
    ns["GRADING_OUTPUT_ROOT"] = str(tmp_path)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(cells(lesson)[f"test_{function}_visible"], ns)
    except Exception as exc:  # noqa: BLE001 - any failure of the check is its verdict
        return f"{type(exc).__name__}: {exc}"
    finally:
        os.chdir(saved[0])
        if saved[1] is not None:
            os.environ["TPU_TRACE_DIR"] = saved[1]
    return ""


def reference_answer(lesson: str, function: str) -> str:
    """The hidden cell's definitions, its reference bound to the contract's name (a cell's source
    starting with HIDDEN: only its definitions run)."""
    src = cells(lesson)
    if REFERENCE.get(function, None) == "":
        return f"{HIDDEN}\n{src[f'answer_{function}']}{BIND}"
    bind = REFERENCE.get(function, f"_ref_{function}")
    return f"{HIDDEN}\n{src[f'test_{function}_hidden']}{BIND}{function} = {bind}\n"


def charged(lesson: str) -> list[dict]:
    """Library mistakes whose hidden check failed on the chip, but those lesson.toml names."""
    notes = lessonfolder.settings(lesson)
    named = {f"{lesson}:{k}" for k in [*notes.surprises, *notes.hidden_only]}
    record = {o["key"]: o for o in lessonfolder.chip_record(lesson)["outcomes"]}
    out = []
    for c in candidates(lesson):
        o = record.get(c["key"])
        if c["kind"] == "mistake" and c["key"] not in named and o is not None:
            if o["checks"].get(f"test_{c['function']}_hidden") == "failed":
                out.append(c)
    return out


HIDDEN, BIND = "# the hidden cell's definitions", "\n# its reference\n"
CASES = [(lesson, fn) for lesson, fns in EXERCISES.items() for fn in fns]


@pytest.mark.parametrize(("lesson", "function"), CASES)
def test_the_visible_check_holds_the_hidden_references_values(lesson, function, tmp_path):
    assert run_visible(lesson, function, reference_answer(lesson, function), tmp_path) == ""


def correct_answers(lesson: str, function: str) -> dict[str, str]:
    """The exercise's known correct answers: alternatives.py, and those independent/ marks correct."""
    found = {
        c["key"]: c["source"] for c in candidates(lesson) if c["kind"] == "alternative" and c["function"] == function
    }
    for name in ("train", "heldout"):
        answers = runpy.run_path(str(ROOT / "solutions" / lesson / "independent" / f"{name}.py"))["ANSWERS"]
        for i, a in enumerate(answers):
            if a["function"] == function and a["intent"] == "correct":
                found[f"independent/{name}.py:{i}"] = a["source"]
    return found


@pytest.mark.parametrize(("lesson", "function"), CASES)
def test_every_correct_answer_passes_the_visible_check(lesson, function, tmp_path):
    answers = correct_answers(lesson, function)
    assert answers
    failed = {key: why for key, src in answers.items() if (why := run_visible(lesson, function, src, tmp_path))}
    assert not failed, failed


@pytest.mark.parametrize(("lesson", "function"), CASES)
def test_every_charged_mistake_not_named_in_lesson_toml_fails_the_visible_check(lesson, function, tmp_path):
    mistakes = [c for c in charged(lesson) if c["function"] == function]
    passed = [c["key"] for c in mistakes if not run_visible(lesson, function, c["source"], tmp_path)]
    assert not passed, f"the visible check passes these mistakes the chip charges: {passed}"
