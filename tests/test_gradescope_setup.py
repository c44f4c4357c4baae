"""`make gradescope-check`: every lesson's Gradescope autograder from a fresh install (issue 33).

setup.sh runs once, as Gradescope's image build runs it, into a fresh venv from the package index
(its Python: PYTHON, which the Makefile sets to a Python 3.12); then, for every lesson, the zip
unpacked into a Gradescope layout runs run_autograder with that venv on the example class's
notebooks (ada's uploaded as "Copy of ..."), and each results.json validates against Gradescope's
schema and equals `grade`'s row for the same bytes and seed, check by check. Skipped in `make test`
(minutes of installing and grading): COURSE_GRADESCOPE_CHECK=1 runs it.
"""

import csv
import os
import subprocess
import sys

import pytest

from conftest import LESSONS, ROOT
from autograder.gradescope.results import hidden_shows
from gradescope_harness import per_check, results, run_autograder, submit, unpack

pytestmark = pytest.mark.skipif(
    os.environ.get("COURSE_GRADESCOPE_CHECK") != "1", reason="make gradescope-check runs it (a fresh install)"
)
SEED = 424242
STUDENTS = {"ada": 2001, "bob": 2002, "cy": 2003, "eve": 2004}  # example student -> Gradescope user id
EXAMPLES = ROOT / "examples" / "submissions"


def test_every_lesson_on_a_fresh_install_grades_as_grade_does(tmp_path):
    out = tmp_path / "zips"
    cmd = [sys.executable, "-m", "autograder", "gradescope", str(out), "--seed", str(SEED)]
    assert subprocess.run(cmd, cwd=ROOT, timeout=300).returncode == 0
    roots = {lesson: unpack(out / f"{lesson}-autograder.zip", tmp_path / lesson) for lesson in LESSONS}
    first = roots[LESSONS[0]]
    setup = subprocess.run(["bash", str(first / "source" / "setup.sh")], cwd=tmp_path, timeout=3000)
    assert setup.returncode == 0, "setup.sh failed"
    python = str(first / "source" / ".venv" / "bin" / "python")

    subs = tmp_path / "class"  # grade's view of the same uploads: one folder per Gradescope user id
    for student, user in STUDENTS.items():
        for lesson in LESSONS:
            nb = EXAMPLES / student / f"{lesson}.ipynb"
            if nb.exists():
                (subs / str(user)).mkdir(parents=True, exist_ok=True)
                (subs / str(user) / nb.name).write_bytes(nb.read_bytes())
    graded = tmp_path / "graded"
    cmd = [sys.executable, "-m", "autograder", "grade", str(subs), "--out", str(graded), "--seed", str(SEED)]
    assert subprocess.run(cmd + ["--jobs", "2"], cwd=ROOT, timeout=3000).returncode == 0
    rows = {(r["student"], r["lesson"]): r for r in csv.DictReader(open(graded / "grades.csv"))}
    checks: dict = {}
    for r in csv.DictReader(open(graded / "tests.csv")):
        checks.setdefault((r["student"], r["lesson"]), {})[r["grade_id"]] = float(r["score"])

    compared = 0
    for lesson, root in roots.items():
        for student, user in STUDENTS.items():
            nb = EXAMPLES / student / f"{lesson}.ipynb"
            if not nb.exists():
                continue
            name = f"Copy of {lesson}.ipynb" if student == "ada" else nb.name
            submit(root, nb.read_bytes(), name, user)
            proc = run_autograder(root, python=python)
            assert proc.returncode == 0, (lesson, student)
            data = results(root)
            row = rows[(str(user), lesson)]
            print(lesson, student, data["score"], row["score"], row["status"])
            assert data["score"] == float(row["score"]), (lesson, student)
            assert per_check(data) == checks[(str(user), lesson)], (lesson, student)
            assert f"Status: {row['status']}" in data["output"]
            assert all(hidden_shows(t["output"]) for t in data["tests"] if t["tags"][1] == "hidden")
            compared += 1
    assert compared == sum((EXAMPLES / s / f"{n}.ipynb").exists() for s in STUDENTS for n in LESSONS)
