"""Issue 64: no correct answer loses a point to a choice the emulation makes for the chip.

Where the chip's compiler computes a loop's casts one of two ways and the recorded programs do not
pin down which (docs/HARDWARE.md, limit loop-casts), the emulation takes one reading and notes it met
the choice; a notebook with a check that fails on such an answer is graded again under the other
reading (COURSE_EMULATE_WITHOUT=choices) and the better grading counts, whole
(grader/core/readings.py). The chip's record shows both readings are the chip's:
tests/data/tpu/fuzz/tpu_fuzz_targeted.json's loop programs.
"""

from __future__ import annotations

import json
import subprocess
import sys

import ml_dtypes
import nbformat
import numpy as np
import pytest

from autograder.chip import fuzz
from autograder.grader.core import readings
from autograder.grader.core.model import CellState, Happened, ProcessEvent, Result, TestRecord
from autograder.grader.notebook.plan import TestStep
from autograder.grader.notebook.verdict import decide
from conftest import ROOT
from test_fuzz import FUZZ, replay
from test_grader_core import _cell

# Loop programs the chip computed under the emulation's other reading (and not under its own): a scan
# whose scanned input's cast the chip kept in float32, fori_loop and while_loop bodies whose cast of
# x[i] (a part of the loop's input) the chip moved out of the loop and rounded
OTHER_READING = [
    "q0-0018-loop-scan-bfloat16-arith-16x32",
    "q0-0034-loop-scan-float16-direct-16x32",
    "q0-0066-loop-fori_loop-bfloat16-direct-16x32",
    "q0-0130-loop-while_loop-bfloat16-direct-16x32",
]
# and loop programs the emulation's own reading gives as the chip computed them (the other does not)
OWN_READING = ["q0-0002-loop-scan-bfloat16-direct-16x32", "q0-0146-loop-while_loop-bfloat16-arith-16x32"]


def program(pid: str) -> dict:
    return next(p for p in json.loads((FUZZ / "tpu_fuzz_targeted.json").read_text())["programs"] if p["id"] == pid)


def test_each_reading_is_the_chips_for_some_recorded_loop():
    """Replayed in a fresh process under the emulation, the programs of OTHER_READING differ from the
    chip's bits under its own reading and are the chip's under the other; those of OWN_READING the
    reverse: neither reading alone is the chip, both are (so a second grading is owed, never a
    reading picked once)."""
    ids = OTHER_READING + OWN_READING
    own, other = replay("targeted", ids), replay("targeted", ids, without=readings.OTHER)
    assert {i: own["verdicts"][i] for i in OTHER_READING} == dict.fromkeys(OTHER_READING, "mismatch")
    assert {i: other["verdicts"][i] for i in OTHER_READING} == dict.fromkeys(OTHER_READING, "exact")
    assert {i: own["verdicts"][i] for i in OWN_READING} == dict.fromkeys(OWN_READING, "exact")
    assert {i: other["verdicts"][i] for i in OWN_READING} == dict.fromkeys(OWN_READING, "mismatch")
    assert {m["limit"] for m in own["mismatches"]} == {"loop-casts"}


NOTES = """
import json, os, sys
os.environ["COURSE_EMULATE"] = "tpu"
from autograder.chip.emulation import source
exec(compile(source(), "<emulation>", "exec"), {"__name__": "__emulation__"})
import jax, jax.numpy as jnp
from autograder.chip import fuzz
seen = {}
for pid, (text, (m, k, n)) in json.loads(sys.argv[1]).items():
    os.environ.pop("COURSE_EMULATION_CHOICES", None)
    scope = fuzz.namespace()
    exec(text, scope)
    x = jnp.ones((m, k), jnp.float32) * 1.001
    jax.jit(scope["program"])(x, jnp.ones((k, n)), jnp.ones(k))
    seen[pid] = os.environ.get("COURSE_EMULATION_CHOICES", "")
print(json.dumps(seen))
"""
PLAIN = "def program(x, w, v):\n    return ((x * 3.0).astype(jnp.bfloat16).astype(jnp.float32),)\n"
SUMMED = "def program(x, w, v):\n    return (jnp.sum(x.astype(jnp.bfloat16), axis=0).astype(jnp.float32) * 2,)\n"


@pytest.mark.parametrize("without", ["", readings.OTHER])
def test_the_emulation_notes_a_choice_where_it_takes_one(without):
    """Under its own reading the emulation notes loop-casts for a loop whose cast it rounds or keeps
    by choice (a scan's, a fori_loop's x[i]); nothing for a program without one (a sum's narrow
    result cast again is recorded rounded: no choice); under the other reading nothing (no third
    grading)."""
    scan, fori = program(OTHER_READING[0]), program(OTHER_READING[2])
    sources = {"scan": [scan["source"], scan["shapes"]], "fori": [fori["source"], fori["shapes"]]}
    sources |= {"plain": [PLAIN, [4, 8, 4]], "summed": [SUMMED, [4, 8, 4]]}
    env = {"PATH": "/usr/bin:/bin", "JAX_PLATFORMS": "cpu", "COURSE_EMULATE_WITHOUT": without}
    proc = subprocess.run(
        [sys.executable, "-c", NOTES, json.dumps(sources)], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    if without:
        assert seen == {"scan": "", "fori": "", "plain": "", "summed": ""}
    else:
        assert seen == {"scan": "loop-casts", "fori": "loop-casts", "plain": "", "summed": ""}


# ------------------------------------------------------------------------- the grader's decision
def test_only_known_choices_of_a_one_string_reply_are_read():
    assert readings.noted(["loop-casts"]) == ["loop-casts"]
    assert readings.noted(["narrow-reductions,anything,loop-casts"]) == ["loop-casts"]
    for forged in (["everything"], "loop-casts", ["loop-casts", "x"], [["loop-casts"]], None, [1], [], ["a,b"]):
        assert readings.noted(forged) == []


def record(gid, state="error", ename="AssertionError", choices=(), student=()):
    return TestRecord(gid, state, ename, "", student=list(student), choices=list(choices))


def test_only_a_failed_check_on_code_that_met_a_choice_buys_a_second_grading():
    """A check that failed on the answer in a process that met a choice; never a stub, a timeout, a
    death, a cap the host saw, or a failure with no choice met."""
    assert readings.worth_regrading([record("wrong", choices=["loop-casts"]), record("ok", "ok", "")])
    capped = record(
        "capped", ename="MemoryError", choices=["loop-casts"], student=[Happened(ProcessEvent.MEMORY_LIMIT)]
    )
    never = [
        record("no_choice"),
        record("stub", ename="NotImplementedError", choices=["loop-casts"]),
        record("timed_out", "timeout", "TimeoutError", choices=["loop-casts"]),
        record("died", "died", "", choices=["loop-casts"]),
        capped,
    ]
    assert not readings.worth_regrading(never)


def test_the_better_grading_counts_whole_so_no_answer_takes_each_check_from_the_reading_it_suits():
    """The review's attack: an answer that tells the readings apart passes check one under the first
    and check two under the second; a check-by-check union would give both, the better grading
    whole gives one. The second counts only when worth more; its checks that the first failed say so."""
    points = [1.0, 2.0, 2.0]
    first = [record("vis", "ok", ""), record("one", "ok", ""), record("two", choices=["loop-casts"])]
    second = [record("vis", "ok", ""), record("one"), record("two", "ok", "")]
    got = readings.better(first, second, points)
    assert got is first and [r.regraded for r in got] == ["", "", ""]  # 3 points either way: the first
    second[1] = record("one", "ok", "")
    got = readings.better(first, second, points)
    assert got is second and [(r.state, r.regraded) for r in got] == [
        (CellState.OK, ""),
        (CellState.OK, ""),
        (CellState.OK, "loop-casts"),
    ]
    worse = [record("vis"), record("one", "ok", ""), record("two", "ok", "")]
    assert readings.better(first, worse, [5.0, 1.0, 1.0]) is first
    with pytest.raises(ValueError):
        readings.better(first, second[:-1], points)


def test_the_row_and_the_student_are_told_where_a_point_came_from_a_second_grading():
    steps = [TestStep("test_a", 2.0, True, "", ""), TestStep("test_b", 1.0, False, "", "")]
    regraded = TestRecord("test_a", "ok", regraded="loop-casts")
    result = decide(Result("ada", "x"), steps, [regraded, TestRecord("test_b", "ok")], [], [], 10)
    assert result.score == 3.0 and result.tests[1].message == ""
    assert result.tests[0].message == "passed under the chip's other reading (loop-casts)"
    (note,) = result.notes
    assert "(loop-casts)" in note and note.endswith("test_a passed only there")
    voided = decide(Result("ada", "x"), steps, [regraded, TestRecord("test_b", "ok")], ["an attack"], [], 10)
    assert voided.score == 0.0 and voided.notes == [] and voided.tests[0].message == ""


# --------------------------------------------------------------------- graded, end to end
def loop_lesson():
    """A lesson of one exercise, the recorded scan of OTHER_READING[0] as its answer: the hidden test
    wants the chip's bits for the recorded inputs (the record's), the visible one a shape."""
    prog = program(OTHER_READING[0])
    x = fuzz.inputs(prog)["x"]
    raw = np.load(FUZZ / "tpu_fuzz_targeted.npz")[f"{prog['id']}/out/0"]  # the chip's bytes (bfloat16)
    chip = np.frombuffer(raw.tobytes(), ml_dtypes.bfloat16).reshape(prog["outputs"][0]["shape"]).astype(np.float32)
    body = prog["source"].replace("def program(x, w, v):", "def accumulate(x):").replace("return (c,)", "return c")
    setup = "import jax\nimport jax.numpy as jnp\nimport numpy as np"
    hidden = (
        '"""The chip\'s bits for fresh rows."""\n### BEGIN HIDDEN TESTS\n'
        f"x = np.array({x.tolist()}, np.float32)\nchip = np.array({chip.tolist()}, np.float32)\n"
        "got = np.asarray(accumulate(x), np.float32)\nassert np.array_equal(got, chip), (got - chip)\n"
        "### END HIDDEN TESTS"
    )
    answer = "def accumulate(x):\n    ### BEGIN SOLUTION\n" + body.split("\n", 1)[1] + "    ### END SOLUTION"
    visible = '"""A row of the accumulator per column."""\nassert accumulate(jnp.ones((2, 32))).shape == (32,)'
    source = nbformat.v4.new_notebook(
        cells=[
            _cell(setup),
            _cell(answer, "answer_accumulate", solution=True, grade=False),
            _cell(visible, "test_accumulate_shape", grade=True, points=1),
            _cell(hidden, "test_accumulate_chip", grade=True, points=2),
        ]
    )
    stub = _cell("def accumulate(x):\n    raise NotImplementedError()", "answer_accumulate", solution=True, grade=False)
    hidden_stub = _cell('"""The chip\'s bits for fresh rows."""', "test_accumulate_chip", grade=True, points=2)
    release = nbformat.v4.new_notebook(cells=[source.cells[0], stub, source.cells[2], hidden_stub])
    return source, release, body


WRONG_UNSCALED = """def accumulate(x):
    c0 = jnp.zeros((32,), jnp.bfloat16)
    def body_fn(c, row):
        return (c + row.astype(jnp.bfloat16)).astype(jnp.bfloat16), None
    c, _ = jax.lax.scan(body_fn, c0, x)
    return c
"""
WRONG_IN_FLOAT32 = """def accumulate(x):
    c = jnp.zeros((32,), jnp.float32)
    def body_fn(c, row):
        return c + row * 3.0, None
    c, _ = jax.lax.scan(body_fn, c, x)
    return c.astype(jnp.bfloat16)
"""
WRONG_NO_LOOP = "def accumulate(x):\n    return jnp.sum(x * 3.0, axis=0).astype(jnp.bfloat16)\n"


def test_an_answer_the_chip_computes_under_its_other_choice_keeps_its_points(monkeypatch):
    """Graded in the real sandbox: the recorded scan (the chip's bits, under the other reading only)
    gets 3 of 3 from a second grading, its row and notes saying so; a wrong answer that meets the
    same choice (the scale left out) is graded twice and gets 1 of 3 (its shape is right); wrong
    answers that meet no choice (a float32 scan, no loop) are graded once."""
    from autograder.grader import Settings
    from autograder.grader.notebook import watch
    from autograder.grader.notebook.grade import Lesson, grade_notebook

    sessions = []
    session = watch._session

    def counted(*args, **kwargs):
        sessions.append(args[7] if len(args) > 7 else kwargs.get("reading", ""))
        return session(*args, **kwargs)

    monkeypatch.setattr(watch, "_session", counted)
    source, release, body = loop_lesson()
    lesson = Lesson("loops", nbformat.writes(source), nbformat.writes(release), nbformat.writes(release), "")
    settings = Settings(jobs=1, seed=3, diagnose=False)

    def graded(answer: str):
        submitted = nbformat.reads(nbformat.writes(release), as_version=4)
        submitted.cells[1].source = answer
        sessions.clear()
        r = grade_notebook("ada", lesson, nbformat.writes(submitted).encode(), settings, ROOT)
        return r, list(sessions)

    right, seen = graded(body)
    assert (right.status, right.score, seen) == ("ok", 3.0, ["", readings.OTHER]), right.to_dict()
    row = {t.grade_id: t for t in right.tests}["test_accumulate_chip"]
    assert row.message == "passed under the chip's other reading (loop-casts)"
    assert any(n.endswith("test_accumulate_chip passed only there") for n in right.notes), right.notes
    wrong, seen = graded(WRONG_UNSCALED)
    assert (wrong.score, seen) == (1.0, ["", readings.OTHER]) and not any("other" in n for n in wrong.notes)
    for answer in (WRONG_IN_FLOAT32, WRONG_NO_LOOP):  # no narrow cast in a loop: no choice met
        plain, seen = graded(answer)
        assert (plain.score, seen) == (1.0, [""])


def test_the_self_check_runs_a_failed_check_again_the_other_way_as_grading_does():
    """selfcheck.py (presubmit.run_as_grading) in a fresh process: the chip's bits as a visible check,
    the recorded scan passes under the other reading and says so; the scale left out still fails."""
    from autograder.course import presubmit

    source, _, body = loop_lesson()
    emulation = ROOT / "notebooks" / "tpu_emulation.py"
    setup = source.cells[0].source + f"\nexec(open({str(emulation)!r}).read())\nprint(start('v5e'))"
    check = source.cells[3].source.replace("### BEGIN HIDDEN TESTS\n", "").replace("### END HIDDEN TESTS", "")
    lines = []

    def checked(answer):
        job = {"setup": setup, "cells": [["answer_accumulate", answer]], "tests": [["test_accumulate_chip", check]]}
        job |= {"bound": ["np", "jnp", "jax"], "contract": ["accumulate"]}
        return presubmit.run_as_grading(job, None, 60, 300, lines.append)

    ((gid, outcome, message, _),) = checked(body)
    assert (gid, outcome) == ("test_accumulate_chip", "passed"), (message, lines)
    assert message.startswith("passed under the chip's other reading (loop-casts)")
    ((_, outcome, message, _),) = checked(WRONG_UNSCALED)
    assert outcome == "wrong" and message.startswith("AssertionError"), message


# The review's attack, end to end: an answer that tells the readings apart (the same bf16 scan gives
# 4.0 under one and more under the other) and answers each of two contradicting hidden checks
TELLS_READINGS = """def guess(x):
    def body(c, r):
        return c + r.astype(jnp.bfloat16).astype(jnp.float32), None
    def f(v):
        c, _ = jax.lax.scan(body, jnp.zeros(8, jnp.float32), v)
        return c
    other = float(jax.jit(f)(jnp.full((4, 8), 1.0 + 2**-9, jnp.float32))[0]) != 4.0
    return jnp.float32(2.0 if other else 1.0)
"""


def test_an_answer_that_tells_the_readings_apart_gets_one_gradings_points(monkeypatch):
    """Graded in the real sandbox: two hidden checks no single answer passes together (guess() is 1,
    guess() is 2); the answer passes one under each reading. Graded twice, it gets one grading's
    points (2 of 3), never both checks (3 of 3, a check-by-check union's)."""
    from autograder.grader import Settings
    from autograder.grader.notebook import watch
    from autograder.grader.notebook.grade import Lesson, grade_notebook

    sessions = []
    session = watch._session
    monkeypatch.setattr(
        watch, "_session", lambda *a, **k: sessions.append(a[7] if len(a) > 7 else "") or session(*a, **k)
    )
    setup = "import jax\nimport jax.numpy as jnp\nimport numpy as np"
    hidden = '"""{0}"""\n### BEGIN HIDDEN TESTS\nassert float(guess(jnp.ones(3))) == {1}\n### END HIDDEN TESTS'
    source = nbformat.v4.new_notebook(
        cells=[
            _cell(setup),
            _cell(
                "def guess(x):\n    ### BEGIN SOLUTION\n    return jnp.float32(1.0)\n    ### END SOLUTION",
                "answer_guess",
                solution=True,
                grade=False,
            ),
            _cell("assert guess(jnp.ones(3)).shape == ()", "test_shape", grade=True, points=1),
            _cell(hidden.format("one", 1.0), "test_one", grade=True, points=1),
            _cell(hidden.format("two", 2.0), "test_two", grade=True, points=1),
        ]
    )
    stub = _cell("def guess(x):\n    raise NotImplementedError()", "answer_guess", solution=True, grade=False)
    hidden_stubs = [_cell(f'"""{n}"""', f"test_{n}", grade=True, points=1) for n in ("one", "two")]
    release = nbformat.v4.new_notebook(cells=[source.cells[0], stub, source.cells[2], *hidden_stubs])
    lesson = Lesson("guess", nbformat.writes(source), nbformat.writes(release), nbformat.writes(release), "")
    submitted = nbformat.reads(nbformat.writes(release), as_version=4)
    submitted.cells[1].source = TELLS_READINGS
    r = grade_notebook(
        "eve", lesson, nbformat.writes(submitted).encode(), Settings(jobs=1, seed=3, diagnose=False), ROOT
    )
    assert sessions == ["", readings.OTHER] and (r.status, r.score) == ("ok", 2.0), r.to_dict()


def test_the_question_after_a_failed_check_fits_the_watchdogs_grace_with_the_probe():
    """The checker sends a test's record after the emulation's probe and the question about the
    chip's choices, each with its own time: both within the grace the worker's watchdog allows a
    checker beyond a cell's limit, or a slow pair would kill the checker before the record (and a
    tampering the probe found) reached the worker (the hostile review's finding)."""
    from autograder.grader.core.settings import ASK_SECONDS, CHECKER_GRACE, PROBE_SECONDS

    assert PROBE_SECONDS + ASK_SECONDS < CHECKER_GRACE
