"""Issue 44 (2): outcomes come from typed events only. What happened to a student's process is a
model.ProcessEvent kind, named where it happened (cgroup.py, workdir.py, remote.py, standins.py,
the checker, notebook/watch.py), and a cell's end a model.CellState; verdict.py decides points, outcomes and
statuses from those kinds. Their words (model.MESSAGES) are for people: reworded, even to words that
lie ("limit" under a death, "timed out" under a limit), no outcome, point or status changes."""

import dataclasses
import itertools

import nbformat
import pytest

from autograder.grader.core import model
from autograder.grader.core.model import MESSAGES, CellState, Happened, ProcessEvent, Result, TestRecord
from autograder.grader.notebook.plan import TestStep
from autograder.grader.notebook.verdict import decide


def reworded() -> dict:
    """Every kind's words swapped for another kind's, so that a cap reads like a death and a death
    like a cap: any decision taken from the words comes out different."""
    kinds = list(ProcessEvent)
    return {
        k: f"{MESSAGES[kinds[(i + 3) % len(kinds)]]} / limit reached / timed out / not run"
        if not k.limit
        else f"word {i}"
        for i, k in enumerate(kinds)
    }


def decided(records):
    steps = [TestStep(r.grade_id, 2.0, i % 2 == 1, "", "") for i, r in enumerate(records)]
    r = decide(Result("s", "l"), steps, records, [], [], 10)
    return r.score, r.status, r.shown_status, [(t.score, t.outcome) for t in r.tests]


def every_record():
    """A record for each cell state with no event, and with each kind of event (and two at once)."""
    yield [TestRecord(f"t_{s}", s) for s in CellState]
    for state, kind in itertools.product(CellState, ProcessEvent):
        yield [TestRecord("a", state, student=[Happened(kind, "detail")]), TestRecord("b", CellState.OK)]
    for a, b in itertools.combinations(ProcessEvent, 2):
        yield [TestRecord("a", CellState.DIED, student=[Happened(a), Happened(b)]), TestRecord("b", CellState.ERROR)]


def test_rewording_every_message_changes_no_outcome_point_or_status(monkeypatch):
    before = [decided(records) for records in every_record()]
    monkeypatch.setattr(model, "MESSAGES", reworded())
    assert Happened(ProcessEvent.DIED).text != MESSAGES[ProcessEvent.DIED]  # the words did change
    after = [decided(records) for records in every_record()]
    assert after == before


def test_every_kind_has_words_and_the_caps_are_the_limit_kinds():
    assert set(MESSAGES) == set(ProcessEvent)
    caps = {k for k in ProcessEvent if k.limit}
    assert {ProcessEvent.MEMORY_LIMIT, ProcessEvent.PROCESS_LIMIT, ProcessEvent.DISK_LIMIT} <= caps
    assert not caps & {ProcessEvent.DIED, ProcessEvent.TIMED_OUT, ProcessEvent.RESTARTS_USED}


@pytest.mark.compat  # make compat (CI): every attack graded again with reworded messages
@pytest.mark.slow
def test_attacks_graded_with_reworded_messages_keep_their_outcomes(monkeypatch):
    """Lesson 01 graded for real with every message reworded on the grading side: a file flood
    (the work folder's watch), an array past the address-space cap (MemoryError), a process that
    kills itself and a loop that never ends keep the outcomes, points and status they get with
    the original words."""
    from autograder.grader.notebook.grade import grade_notebook
    from autograder.grader.core.settings import Limits, Settings
    from autograder.common.notebooks import fill_answers
    from conftest import ROOT, grading_lesson, source_nb, student_nb

    lesson = "01_number_formats"
    answers = {
        "format_table": 'def format_table():\n    """Flood."""\n    import os\n    os.chdir(os.environ["HOME"])\n'
        '    os.makedirs("flood", exist_ok=True)\n'
        '    for i in range(1_000):\n        open(f"flood/{i}", "w").close()\n    raise NotImplementedError()\n',
        "bf16_round": 'def bf16_round(x):\n    """Memory."""\n    import numpy as np\n    return np.ones(2**34)\n',
        "sequential_sum": 'def sequential_sum(values, dtype):\n    """Dies."""\n    import os\n    os._exit(3)\n',
        "pairwise_sum": 'def pairwise_sum(values, dtype):\n    """Loops."""\n    while True:\n        pass\n',
    }
    nb = nbformat.writes(fill_answers(student_nb(lesson), source_nb(lesson), answers)).encode()
    limits = Limits(work_files=500)  # reached in a fraction of the cell's time, however loaded the machine
    settings = Settings(
        jobs=1, emulation="none", seed=3, diagnose=False, cell_timeout=8, notebook_timeout=120, max_restarts=10
    )
    settings = dataclasses.replace(settings, limits=limits)

    def graded():
        r = grade_notebook("attacker", grading_lesson(lesson, mistakes=False), nb, settings, ROOT)
        print(r.status, r.detail, [(t.grade_id, t.outcome) for t in r.tests])
        return r.score, r.status, [(t.grade_id, t.score, t.outcome) for t in r.tests], r.detail

    score, status, checks, detail = graded()
    monkeypatch.setattr(model, "MESSAGES", reworded())
    again = graded()
    assert again[:3] == (score, status, checks)
    assert again[3] != detail, "the detail is written in the new words"
    outcomes = {outcome for _, _, outcome in checks}
    assert {"limit reached", "timed out", "process died"} <= outcomes and status == "error", outcomes
