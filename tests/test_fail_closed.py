"""A grader fault is never a student's zero (issue 28, "Fail closed on grader faults").

Before grading, the run proves its own machinery (canary.py: a trivial student process started as
every student's is, and one lesson's solution graded to full marks); if either fails the command
exits 2 with one sentence and writes no grade. A student process that the sandbox could not start
(before any of the student's code ran) is a ``grader-error`` row: not journaled, not in the CSVs or
the gradebook, regraded on the next run. A virtual environment reached through a symlink grades.
"""

import csv
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.grader import Settings
from autograder.grader.sandbox import launch as sandbox
from autograder.grader.classroom.classrun import Journal, record
from autograder.grader.core.model import Result
from autograder.grader.core.faults import SandboxFault, StudentDied
from autograder.grader.checker.remote import Budget, Student
from autograder.grader.core.settings import Limits
from conftest import ROOT

pytestmark = pytest.mark.slow
LESSON = "01_number_formats"


def one_notebook(tmp_path: Path) -> Path:
    subs = tmp_path / "subs"
    (subs / "ada").mkdir(parents=True)
    shutil.copy(ROOT / "examples" / "submissions" / "ada" / f"{LESSON}.ipynb", subs / "ada")
    return subs


def test_a_broken_environment_stops_the_run_before_any_grade(tmp_path):
    """XLA_FLAGS naming a flag this JAX does not know (a stale shell profile, say) kills every
    student process at its first computation: the canary finds it, the command exits 2 with one
    sentence, and neither grades nor a journal are written."""
    subs, out = one_notebook(tmp_path), tmp_path / "out"
    env = {**os.environ, "XLA_FLAGS": "--xla_this_flag_does_not_exist"}
    proc = subprocess.run(
        [sys.executable, "-m", "autograder", "grade", str(subs), "--out", str(out), "--jobs", "1"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error:")]
    print(proc.returncode, errors)
    assert proc.returncode == 2
    assert len(errors) == 1 and "sandbox" in errors[0] and "XLA_FLAGS" in errors[0]
    assert not (out / "grades.csv").exists() and not (out / "journal.jsonl").exists()
    assert not (out / "feedback").exists()


@pytest.mark.compat  # make compat (CI): a class graded from a second, symlinked venv
def test_a_virtual_environment_behind_a_symlink_grades(tmp_path):
    """The grader's Python reached through a symlink (conda, pyenv, shared installs): the student's
    process is started through the environment's real folder, which the sandbox binds; the notebook
    gets its 13 points (before: every notebook 0, "your code could not be loaded", exit 0)."""
    link = tmp_path / "venv-link"
    link.symlink_to(Path(sys.prefix).resolve(), target_is_directory=True)
    python = link / "bin" / Path(sys.executable).name
    subs, out = one_notebook(tmp_path), tmp_path / "out"
    proc = subprocess.run(
        [str(python), "-m", "autograder", "grade", str(subs), "--out", str(out), "--jobs", "1"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    print(proc.stdout[-800:], proc.stderr[-800:])
    assert proc.returncode == 0
    rows = {r["lesson"]: r for r in csv.DictReader(open(out / "grades.csv"))}
    assert (rows[LESSON]["score"], rows[LESSON]["status"]) == ("13", "ok")


def test_a_process_the_sandbox_cannot_start_is_the_graders_fault(tmp_path):
    """The first start of a notebook's process dying before its hello (sent after the sandbox,
    Python and the grader's prelude are up, before any student code) is a SandboxFault; once the
    student's code has run in this notebook, a later death is the student's (StudentDied)."""
    work = tmp_path / "work"
    (work / "tmp").mkdir(parents=True)
    init = {"op": "init", "prelude": [], "cells": [], "names": []}
    budget = Budget(60, 30)
    budget.start_cell()

    def broken():
        launch = sandbox.prepare(tmp_path, work, Limits(), ROOT, "none")
        launch.argv = [*launch.argv[:-2], "/nonexistent/python", launch.argv[-1]]
        return launch

    s = Student(broken, init, budget, 1)
    s.start()
    with pytest.raises(SandboxFault, match="could not start in the sandbox"):
        s.wait_ready()
    s.start()  # a restart: by now the student's code could have run
    with pytest.raises(StudentDied):
        s.wait_ready()
    s.stop()
    good = Student(lambda: sandbox.prepare(tmp_path, work, Limits(), ROOT, "none"), init, budget, 1)
    good.start()
    good.wait_ready()  # the same sandbox with the real Python says hello
    assert good.alive()
    good.stop()


def test_grader_error_rows_are_neither_journaled_nor_written(tmp_path):
    """A worker that crashed (its exception stands for the result) is a grader-error row: kept out
    of the journal (so the next run regrades it) and out of the gradebook."""
    journal = Journal(tmp_path / "journal.jsonl", fresh=True)
    written = []

    class Writer:
        def record(self, r):
            written.append(r)

    class Progress:
        def update(self, r, skipped=False):
            pass

    class Lesson:
        def max_score(self):
            return 13.0

    results = {}
    job = {"student": "ada", "lesson": {"name": LESSON}}
    r = record(job, RuntimeError("worker died"), results, journal, Writer(), Progress(), {LESSON: Lesson()})
    ok = Result("bob", LESSON, 13.0, 13.0, "ok")
    record({"student": "bob", "lesson": {"name": LESSON}}, ok.to_dict(), results, journal, Writer(), Progress(), {})
    journal.close()
    print(r.status, r.detail, [w.student for w in written])
    assert r.status == "grader-error" and "not graded" in r.detail
    assert [w.student for w in written] == ["bob"]
    assert set(Journal(tmp_path / "journal.jsonl", fresh=False).done) == {("bob", LESSON)}


def test_the_canary_refuses_a_sandbox_that_cannot_start(tmp_path, monkeypatch):
    """grade() itself: with the student's Python missing, the canary raises before any grade."""
    from autograder.grader.classroom import canary
    from autograder.grader import grade

    monkeypatch.setattr(sandbox, "python_executable", lambda: "/nonexistent/python")
    out = tmp_path / "out"
    with pytest.raises(canary.CanaryFailed, match="trivial student process"):
        grade(one_notebook(tmp_path), out, Settings(jobs=1), quiet=True, names=[LESSON])
    assert not (out / "grades.csv").exists() and not (out / "journal.jsonl").exists()


def test_a_first_message_over_the_wires_cap_is_the_graders_fault_before_any_process(tmp_path):
    """The checker's first message to the student's process (its kept code, the lesson's, the
    emulation) over the wire's cap is wire.WireError before any process starts, which the checker
    reports as the grader's fault: never "the student's process died" on the student's row (the
    plan bounds the student's share: MAX_KEPT_CODE_BYTES)."""
    from autograder.grader.core import wire

    started = []
    init = {"op": "init", "prelude": [], "cells": [["answer", "x = '" + "y" * wire.MAX_FRAME + "'"]], "names": []}
    s = Student(lambda: started.append(1), init, Budget(60, 30), 1)
    with pytest.raises(wire.WireError, match="over the"):
        s.start()
    assert started == [] and s.proc is None
    # the checker's own handling: its first event says the grader's fault, and nothing is graded
    import tempfile
    from types import SimpleNamespace

    from autograder.grader.checker import main as checker
    from autograder.grader.core import events

    emitted = []
    fake = SimpleNamespace(home=str(tmp_path), inputs=str(tmp_path), workdir=tmp_path, ns={}, emit=emitted.append)
    fake.job, fake.settings, fake.student = SimpleNamespace(), SimpleNamespace(emulation="none"), s
    here, tmpdir = os.getcwd(), tempfile.tempdir
    try:
        checker.Checker.main(fake)
    finally:
        os.chdir(here)
        tempfile.tempdir = tmpdir
    assert [type(e) for e in emitted] == [events.Ready, events.Done], emitted
    assert "could not start the student's process" in emitted[0].grader_fault and started == []
