"""An interrupted grading run loses no finished grade, and a rerun resumes where it stopped
(--force regrades); driven through the command line like an instructor would (Ctrl-C = SIGINT
to the whole process group)."""

import csv
import json
import os
import signal
import subprocess
import sys
import time

import nbformat
import pytest

from autograder.common.notebooks import fill_answers
from conftest import ROOT, source_nb, student_nb

pytestmark = pytest.mark.slow
LESSON = "01_number_formats"  # the quickest lesson to grade (13 points)


def run(cmd, **kw):
    return subprocess.run(
        cmd, cwd=ROOT, capture_output=True, text=True, timeout=600, env={**os.environ, "COURSE_LESSONS": LESSON}, **kw
    )


@pytest.mark.compat  # make compat (CI): an interrupted class run: the journal rarely changes
def test_interrupt_keeps_finished_grades_and_rerun_resumes(tmp_path):
    subs, out = tmp_path / "subs", tmp_path / "out"
    for student, nb in [
        ("a_perfect", fill_answers(student_nb(LESSON), source_nb(LESSON))),
        ("b_blank", student_nb(LESSON)),
        ("c_blank", student_nb(LESSON)),
    ]:
        (subs / student).mkdir(parents=True)
        nbformat.write(nb, str(subs / student / f"{LESSON}.ipynb"))
    cmd = [sys.executable, "-m", "autograder", "grade", str(subs), "--out", str(out), "--jobs", "1"]
    proc = subprocess.Popen(
        cmd,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "COURSE_LESSONS": LESSON},
        start_new_session=True,
    )
    journal = out / "journal.jsonl"
    deadline = time.time() + 300
    while time.time() < deadline and not (journal.exists() and journal.read_text().count("\n") >= 1):
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
    _, err = proc.communicate(timeout=120)
    print(err[-2000:])
    assert proc.returncode == 130, err[-2000:]
    finished = [json.loads(line) for line in journal.read_text().splitlines()]
    assert 1 <= len(finished) < 3
    rows = {r["student"]: r for r in csv.DictReader(open(out / "grades.csv"))}
    first = finished[0]
    assert rows[first["student"]]["score"] == f"{first['score']:g}", "the finished grade was written"

    again = run(cmd)
    assert again.returncode == 0, again.stderr[-2000:]
    assert again.stderr.count("already graded") == len(finished), again.stderr
    rows = {r["student"]: r for r in csv.DictReader(open(out / "grades.csv"))}
    assert {s: (r["score"], r["status"]) for s, r in rows.items()} == {
        "a_perfect": ("13", "ok"),
        "b_blank": ("0", "ok"),
        "c_blank": ("0", "ok"),
    }

    grades_before = (out / "grades.csv").read_text()
    quick = run(cmd)  # "already graded" is said only of a row taken from the journal, not run again
    assert quick.returncode == 0 and quick.stderr.count("already graded") == 3
    assert (out / "grades.csv").read_text() == grades_before
    forced = run(cmd + ["--force"])
    assert forced.returncode == 0 and "already graded" not in forced.stderr
