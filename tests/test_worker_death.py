"""A grading worker that dies takes only the notebook it was grading (classroom/pool.py and, for
``--scheduler``, classroom/distribute.py): that row a named grader fault, every classmate graded,
the run's exit status 2 while the fault remains (a rerun grades it again).

The pool's own behaviour is tested with stand-in tasks (this module's functions, which the spawned
workers import by name): a worker killed by signal 9 or crashed by a segfault, one out of its
memory cap, a task that raises, workers that cannot start, Ctrl-C. Whole class runs (slow) use the
tests' hook (``WORKER_DIES_ENV``: the worker about to grade that student kills itself, SIGKILL, as
the kernel's OOM killer does), through the command line, with ``--jobs 2`` and ``--scheduler local:2``.
"""

import csv
import os
import resource
import signal
import subprocess
import sys
import time

import nbformat
import psutil
import pytest

from autograder.grader.classroom.pool import WorkerDied, pool_grade
from autograder.grader.core.settings import WORKER_DIES_ENV, WORKER_MEMORY_BYTES
from autograder.common.notebooks import fill_answers
from conftest import ROOT, source_nb, student_nb

MiB = 2**20


# -- stand-in tasks, run in the pool's spawned workers (importable by name) -----------------------


def stand_in(job: dict) -> dict:
    """What a job named ``kind`` does in its worker."""
    kind = job["kind"]
    if kind == "sigkill":
        os.kill(os.getpid(), signal.SIGKILL)
    if kind == "segfault":
        import ctypes

        ctypes.string_at(0)
    if kind == "bomb":
        block = bytearray(job["bytes"])  # past the worker's cap: a MemoryError, not the machine's memory
        return {"student": job["student"], "held": len(block)}
    if kind == "raises":
        raise ValueError("a bug in the grader's code")
    if kind == "sleeps":
        time.sleep(600)
    return {"student": job["student"], "pid": os.getpid(), "rlimit_as": resource.getrlimit(resource.RLIMIT_AS)[0]}


def cannot_start(folder: str) -> None:
    raise RuntimeError(f"no folder {folder}")


def run_pool(kinds, jobs=2, **kw) -> dict:
    """The stand-in jobs ``kinds`` (student name -> kind) on the pool: student -> what was recorded
    (each recorded once)."""
    recorded = {}

    def record(job, outcome):
        assert job["student"] not in recorded, "each notebook is recorded once"
        recorded[job["student"]] = outcome

    todo = [{"student": s, "kind": k, "lesson": {"name": "L"}} for s, k in kinds.items()]
    pool_grade(todo, jobs, "", record, task=stand_in, **kw)
    return recorded


@pytest.fixture(autouse=True)
def _children_before():
    """The children this process already had before the test (a checker zygote another test of the
    same pytest worker left, say): not the pool's, so never counted as left behind."""
    _BEFORE.clear()
    _BEFORE.update(p.pid for p in psutil.Process().children(recursive=True))
    yield


_BEFORE: set[int] = set()


def workers_left():
    """This process's children still alive that the test started (not those it had before it,
    nor multiprocessing's resource tracker: it lives as long as this process)."""
    alive = []
    for p in psutil.Process().children(recursive=True):
        if p.pid in _BEFORE:
            continue
        try:
            if p.status() != psutil.STATUS_ZOMBIE and "resource_tracker" not in " ".join(p.cmdline()):
                alive.append(p)
        except psutil.Error:
            continue
    return alive


class Outstanding:
    """Jobs made on demand, counting those made and not yet recorded (issue 57: the parent held
    every notebook of the class before grading began)."""

    def __init__(self, n: int):
        self.n, self.made, self.recorded, self.most = n, 0, {}, 0

    def jobs(self):
        for i in range(self.n):
            self.made += 1
            self.most = max(self.most, self.made - len(self.recorded))
            yield {"student": f"s{i:03d}", "kind": "ok", "lesson": {"name": "L"}, "digest": str(i)}

    def record(self, job, outcome) -> None:
        assert job["student"] not in self.recorded, "each notebook is recorded once"
        self.recorded[job["student"]] = outcome


def test_the_pool_makes_each_job_when_a_worker_can_take_it():
    """The parent holds at most the notebooks in flight and one made ahead for each worker (2 x
    workers), whatever the class's size; every job is graded once."""
    feed = Outstanding(40)
    pool_grade(feed.jobs(), 2, "", feed.record, task=stand_in)
    assert sorted(feed.recorded) == [f"s{i:03d}" for i in range(40)]
    assert all(r["student"] == s for s, r in feed.recorded.items())
    assert 2 <= feed.most <= 2 * 2, feed.most


def test_a_killed_or_crashed_worker_takes_only_its_notebook_and_the_rest_is_graded():
    kinds = {"a": "ok", "killed": "sigkill", "b": "ok", "crashed": "segfault", "c": "ok", "d": "ok"}
    recorded = run_pool(kinds)
    assert set(recorded) == set(kinds)
    for s in ("a", "b", "c", "d"):
        assert recorded[s]["student"] == s, recorded[s]
    assert isinstance(recorded["killed"], WorkerDied)
    killed = "the worker grading this notebook died (signal 9: killed, out of memory?)"
    assert str(recorded["killed"]).startswith(killed)
    assert isinstance(recorded["crashed"], WorkerDied)
    assert "died (signal 11: a crash (segmentation fault))" in str(recorded["crashed"])
    assert not workers_left()


def test_each_worker_runs_under_its_own_memory_cap_and_a_bomb_past_it_is_that_notebook_s_fault():
    cap = 1024 * MiB
    kinds = {"a": "ok", "bomb": "bomb", "b": "ok", "c": "ok"}
    recorded = {}
    todo = [{"student": s, "kind": k, "bytes": 2 * cap} for s, k in kinds.items()]
    pool_grade(todo, 1, "", lambda job, outcome: recorded.setdefault(job["student"], outcome), cap=cap, task=stand_in)
    assert recorded["a"]["rlimit_as"] == cap, "the worker's address space is capped"
    assert isinstance(recorded["bomb"], WorkerDied)
    assert "ran out of its memory cap (1 GiB of address space" in str(recorded["bomb"])
    assert recorded["b"]["student"] == "b" and recorded["c"]["student"] == "c"
    assert recorded["b"]["pid"] != recorded["a"]["pid"], "a fresh worker after the MemoryError"
    assert recorded["b"]["pid"] == recorded["c"]["pid"], "one worker grades notebook after notebook"
    default = run_pool({"a": "ok"})
    assert default["a"]["rlimit_as"] == WORKER_MEMORY_BYTES


def test_a_task_that_raises_is_its_own_outcome_and_the_worker_goes_on():
    recorded = run_pool({"a": "ok", "raises": "raises", "b": "ok"}, jobs=1)
    assert isinstance(recorded["raises"], ValueError) and "a bug in the grader's code" in str(recorded["raises"])
    assert recorded["a"]["pid"] == recorded["b"]["pid"]


def test_the_tests_hook_kills_the_worker_about_to_grade_that_student(monkeypatch):
    monkeypatch.setenv(WORKER_DIES_ENV, "b")
    recorded = run_pool({"a": "ok", "b": "ok", "c": "ok"})
    assert isinstance(recorded["b"], WorkerDied) and "signal 9" in str(recorded["b"])
    assert recorded["a"]["student"] == "a" and recorded["c"]["student"] == "c"


def test_workers_that_cannot_start_end_the_run_with_every_notebook_a_named_fault():
    recorded = run_pool({"a": "ok", "b": "ok", "c": "ok"}, adopt=cannot_start)
    assert set(recorded) == {"a", "b", "c"}
    for outcome in recorded.values():
        assert isinstance(outcome, WorkerDied)
        assert "grading workers in a row could not start (RuntimeError: no folder )" in str(outcome)
    assert not workers_left()


def test_ctrl_c_to_the_parent_alone_stops_the_workers_mid_notebook():
    recorded = {}

    def record(job, outcome):
        recorded[job["student"]] = outcome
        os.kill(os.getpid(), signal.SIGINT)  # the pool's handler notes it; its loop raises it

    todo = [{"student": s, "kind": k} for s, k in (("a", "ok"), ("slow", "sleeps"), ("later", "ok"))]
    with pytest.raises(KeyboardInterrupt):
        pool_grade(todo, 2, "", record, task=stand_in)
    assert set(recorded) == {"a"}, "nothing recorded after the Ctrl-C"
    assert not workers_left(), "the worker grading 'slow' was stopped, not waited for"


def test_a_failure_to_record_stops_the_pool_with_no_worker_left_behind():
    def record(job, outcome):
        raise OSError("the journal's disk is full")

    todo = [{"student": s, "kind": k} for s, k in (("a", "ok"), ("slow", "sleeps"), ("later", "ok"))]
    with pytest.raises(OSError, match="disk is full"):
        pool_grade(todo, 2, "", record, task=stand_in)
    assert not workers_left()


# -- whole class runs through the command line (slow) ----------------------------------------------

LESSON = "01_number_formats"  # the quickest lesson to grade (13 points)
CULPRIT = "dies_first"  # sorted first: its worker dies with a classmate in flight and one pending


@pytest.fixture(scope="module")
def perfect_class(tmp_path_factory):
    subs = tmp_path_factory.mktemp("class") / "submissions"
    perfect = fill_answers(student_nb(LESSON), source_nb(LESSON))
    for student in (CULPRIT, "perfect_1", "perfect_2"):
        (subs / student).mkdir(parents=True)
        nbformat.write(perfect, str(subs / student / f"{LESSON}.ipynb"))
    return subs


def grade_cli(subs, out, *how, dies=CULPRIT):
    env = {**os.environ, "COURSE_LESSONS": LESSON}
    env.pop(WORKER_DIES_ENV, None)
    if dies:
        env[WORKER_DIES_ENV] = dies
    cmd = [sys.executable, "-m", "autograder", "grade", str(subs), "--out", str(out), "--seed", "7", *how]
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600, env=env)
    print(run.stdout[-3000:], run.stderr[-3000:])
    return run


def grades(out):
    return {r["student"]: (r["score"], r["status"]) for r in csv.DictReader(open(out / "grades.csv"))}


def assert_only_the_culprit_is_a_fault(run, out, died):
    assert run.returncode == 2, "a grader fault remains: the run says so"
    assert "error: 1 notebook could not be graded because of the grader, not the student" in run.stderr
    assert f"first: {CULPRIT}/{LESSON}: not graded (the grader's fault, not yours): {died}" in run.stderr
    assert grades(out) == {"perfect_1": ("13", "ok"), "perfect_2": ("13", "ok")}, "classmates at full marks"


@pytest.mark.compat  # make compat (CI): a class run with a worker killed, then run again
@pytest.mark.slow
def test_a_class_run_survives_a_worker_death_and_a_rerun_keeps_the_fault_named(perfect_class, tmp_path):
    out = tmp_path / "out"
    first = grade_cli(perfect_class, out, "--jobs", "2")
    assert_only_the_culprit_is_a_fault(first, out, "the worker grading this notebook died (signal 9: killed")

    again = grade_cli(perfect_class, out, "--jobs", "2")  # it kills its worker again: still only its row
    assert_only_the_culprit_is_a_fault(again, out, "the worker grading this notebook died (signal 9: killed")
    assert again.stderr.count("(already graded)") == 2, "classmates kept, the culprit graded again"

    cured = grade_cli(perfect_class, out, "--jobs", "2", dies="")  # the cause gone: the next run grades it
    assert cured.returncode == 0, cured.stderr[-3000:]
    assert grades(out) == {s: ("13", "ok") for s in (CULPRIT, "perfect_1", "perfect_2")}


@pytest.mark.compat  # make compat (CI): the Dask path, as tests/test_distribute.py
@pytest.mark.slow
def test_a_dask_class_run_ends_the_same_way(perfect_class, tmp_path):
    out = tmp_path / "out"
    run = grade_cli(perfect_class, out, "--scheduler", "local:2")
    assert_only_the_culprit_is_a_fault(run, out, "the worker grading this notebook died (killed, out of memory")
    assert "and so did every worker that graded it again, alone (6 workers in all" in run.stderr
