"""Grading on a Dask cluster (``grade --scheduler``, autograder/grader/classroom/distribute.py): the same
grades as ``--jobs 2``; a worker killed mid-notebook loses nothing; a notebook that kills every
worker it meets is a named grader fault and the rest goes on; a scheduler that cannot be reached, or
workers that would never take a notebook, are clear errors before any grading.

Lesson 01 only (the quickest to grade) and a handful of students, so it stays fast on 2 cores.
"""

import csv
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

import psutil
import pytest

from autograder.grader import Settings, grade
from autograder.grader.classroom.distribute import SchedulerError, connect, run_on_cluster
from autograder.grader.classroom.pool import WorkerDied
from autograder.grader.core.settings import DASK_CONNECT_TIMEOUT as CONNECT_TIMEOUT
from conftest import ROOT

sys.path.insert(0, str(ROOT / "examples"))
from make_class import breaker, write  # noqa: E402

# make compat (CI): the Dask path, a cluster of its own per test, rarely changed
pytestmark = [pytest.mark.slow, pytest.mark.compat]
LESSON = "01_number_formats"
SEED = 7


def rows(path):
    return list(csv.DictReader(open(path)))


@pytest.fixture(scope="module")
def hostile_class(tmp_path_factory):
    """The example class (a perfect, a blank, a mistaken and a tampering student) and two more of
    the example class's ways of breaking things, applied to lesson 01: a kernel killed by an
    answer, and a truncated notebook."""
    subs = tmp_path_factory.mktemp("class") / "submissions"
    for student in ("ada", "bob", "cy", "eve"):
        (subs / student).mkdir(parents=True)
        shutil.copy(ROOT / "examples" / "submissions" / student / f"{LESSON}.ipynb", subs / student)
    write(breaker(LESSON, 2), subs / "kills_kernel" / f"{LESSON}.ipynb")
    (subs / "truncated").mkdir()
    text = (subs / "ada" / f"{LESSON}.ipynb").read_text()
    (subs / "truncated" / f"{LESSON}.ipynb").write_text(text[: len(text) // 2])
    return subs


@pytest.fixture(scope="module")
def by_jobs(hostile_class, tmp_path_factory):
    out = tmp_path_factory.mktemp("jobs2")
    grade(hostile_class, out, Settings(jobs=2, seed=SEED), quiet=True, names=[LESSON])
    return out


def test_local_cluster_grades_like_jobs_2(hostile_class, by_jobs, tmp_path):
    grade(hostile_class, tmp_path, Settings(seed=SEED), quiet=True, names=[LESSON], scheduler="local:2")
    expected = rows(by_jobs / "grades.csv")
    print(expected)
    assert {r["status"] for r in expected} >= {"ok", "tampered", "error"}, "the class exercises every path"
    assert (tmp_path / "grades.csv").read_text() == (by_jobs / "grades.csv").read_text()
    assert (tmp_path / "tests.csv").read_text() == (by_jobs / "tests.csv").read_text()
    journal = [json.loads(line) for line in (tmp_path / "journal.jsonl").read_text().splitlines()]
    assert sorted(r["student"] for r in journal) == sorted(r["student"] for r in expected)


def _worker_grading(root_pid):
    """A Dask worker process below root_pid that is grading a notebook now: it has a checker below
    it, a fresh interpreter or a fork of the worker's zygote (spawn.py: the fork keeps the zygote's
    command line, so it is the zygote's child that is)."""
    for proc in psutil.Process(root_pid).children(recursive=True):
        try:
            parent = proc.parent()
            if "autograder.grader.checker.main" in " ".join(proc.cmdline()):
                worker = parent
            elif "autograder.grader.checker.spawn" in " ".join(parent.cmdline()):
                worker = parent.parent()  # proc is a checker forked by the zygote
            else:
                continue
            if worker.pid != root_pid and "multiprocessing" in " ".join(worker.cmdline()):
                return worker
        except psutil.Error:
            continue
    return None


def test_killing_a_worker_mid_notebook_loses_nothing(hostile_class, by_jobs, tmp_path):
    subs, out = tmp_path / "subs", tmp_path / "out"
    for student in ("ada", "bob"):
        shutil.copytree(hostile_class / student, subs / student)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "autograder",
            "grade",
            str(subs),
            "--out",
            str(out),
            "--scheduler",
            "local:2",
            "--seed",
            str(SEED),
        ],
        cwd=ROOT,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "COURSE_LESSONS": LESSON},
    )
    killed = None
    while killed is None and proc.poll() is None:
        worker = _worker_grading(proc.pid)
        if worker is not None:
            worker.send_signal(signal.SIGKILL)
            killed = worker.pid
        time.sleep(0.1)
    stdout, stderr = proc.communicate(timeout=300)
    print(stderr[-3000:])
    assert killed is not None, "a worker was killed while it graded a notebook"
    assert proc.returncode == 0, stderr[-3000:]
    expected = [r for r in rows(by_jobs / "grades.csv") if r["student"] in ("ada", "bob")]
    assert rows(out / "grades.csv") == expected
    journal = [json.loads(line)["student"] for line in (out / "journal.jsonl").read_text().splitlines()]
    assert sorted(journal) == ["ada", "bob"], "each notebook recorded once, the killed one included"


def test_a_notebook_that_kills_every_worker_is_a_grader_fault_and_the_rest_goes_on():
    def task(job):  # the stand-in for grading: one "submission" takes its worker down
        if job["student"] == "killer":
            os._exit(1)
        return {"student": job["student"], "graded_by": os.getpid()}

    jobs = [{"student": s, "lesson": {"name": "L"}, "digest": s} for s in ("a", "killer", "b", "c")]
    recorded = {}
    cluster = connect("local:2", quiet=True)
    try:
        run_on_cluster(cluster, jobs, lambda job, outcome: recorded.setdefault(job["student"], outcome), task=task)
    finally:
        cluster.close()
    assert set(recorded) == {"a", "killer", "b", "c"}
    assert all(recorded[s]["student"] == s for s in ("a", "b", "c"))
    assert isinstance(recorded["killer"], WorkerDied)
    assert "and so did every worker that graded it again, alone (6 workers in all" in str(recorded["killer"])


def test_the_cluster_is_fed_each_job_when_a_slot_is_free():
    """On Dask too the parent holds only the notebooks in flight (issue 57): jobs are made as the
    workers' notebook slots free up, each graded once."""
    from test_worker_death import Outstanding

    feed = Outstanding(20)
    cluster = connect("local:2", quiet=True)
    try:
        run_on_cluster(cluster, feed.jobs(), feed.record, task=lambda job: {"student": job["student"]})
    finally:
        cluster.close()
    assert sorted(feed.recorded) == [f"s{i:03d}" for i in range(20)]
    assert 1 <= feed.most <= 2 * 2, feed.most


def test_unreachable_scheduler_is_a_clear_error_in_seconds(tmp_path):
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    # the message comes from the connect timeout's own branch; a hang would hit this call's timeout
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "autograder",
            "grade",
            str(ROOT / "examples" / "submissions"),
            "--out",
            str(tmp_path / "out"),
            "--scheduler",
            f"tcp://127.0.0.1:{port}",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    print(run.stderr)
    assert run.returncode == 2
    expected = f"error: cannot reach the Dask scheduler at tcp://127.0.0.1:{port} within {CONNECT_TIMEOUT:g} s"
    assert expected in run.stderr
    assert "Traceback" not in run.stderr
    assert not (tmp_path / "out").exists(), "nothing is built or written before the scheduler answers"
    for bad, says in ((tmp_path / "no-such-scheduler.json", "neither an address"), ("local:0", "N >= 1")):
        with pytest.raises(SchedulerError, match=says):
            connect(str(bad), quiet=True)


def test_workers_without_the_notebook_resource_are_refused():
    from distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=None) as plain:
        with pytest.raises(SchedulerError, match="--resources notebook=1"):
            connect(plain.scheduler_address, quiet=True)
