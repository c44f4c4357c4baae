"""Issue 50: one student's small file never takes the class down.

Three hostile notebooks of lesson 01 sit in a class with two classmates who submitted the solution:
300,000 empty ``{}`` in a code cell's outputs (1.26 MB: the schema validator the grader used took
the parent past 6 GB and it was OOM-killed, nobody graded), 100,000 of them (457 KB: 9.7 GB and
two minutes) and a 20 MB answer cell (parsed several times at about 500 bytes a byte: a worker
OOM-killed, the pool broken).

First the stages that read the class's bytes (the parent's intake, then each notebook read and
planned as a worker does) run in a process of their own under a 1.5 GiB address-space cap
(tests/bounded_reading.py): a regression fails there, with a MemoryError, instead of eating the
machine. Only if that holds is the class graded for real (``grade``): the classmates keep full
marks and each attacker's row is an ``error`` that says which bound its notebook broke.
"""

import csv
import json
import os
import subprocess
import sys

import pytest

from bounded_reading import LESSON, honest, huge_answer, many_outputs
from conftest import ROOT

pytestmark = pytest.mark.slow
TOTAL = 13  # lesson 01's points
CAP = 3 * 2**29  # 1.5 GiB of address space for the reading stages
REASONS = {
    "outputs_300k": "a code cell has over 1,000 outputs",
    "outputs_100k": "a code cell has over 1,000 outputs",
    "answer_20mb": "a code cell's source is over 256 Ki characters",
}

EXPECTED = {f"{s}/{LESSON}": "planned: " for s in ("ada", "bob")} | {
    f"{s}/{LESSON}": f"unreadable: {reason}" for s, reason in REASONS.items()
}  # what a worker's reading makes of each notebook: a plan, or the bound it broke


def bounded(*args: str, cap: int = CAP) -> dict:
    """tests/bounded_reading.py under ``cap`` bytes of address space: its JSON report (the test
    fails with its output if it died)."""
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    proc = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "bounded_reading.py"), str(cap), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=1800,
    )
    assert proc.returncode == 0, f"the bounded reading died ({proc.returncode}): {proc.stderr[-3000:]}"
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def hostile_class(tmp_path_factory):
    subs = tmp_path_factory.mktemp("hostile") / "subs"
    perfect = json.dumps(honest()).encode()
    files = {"ada": perfect, "bob": perfect}
    files |= {"outputs_300k": many_outputs(300_000), "outputs_100k": many_outputs(100_000)}
    files["answer_20mb"] = huge_answer(20)
    for student, raw in files.items():
        (subs / student).mkdir(parents=True)
        (subs / student / f"{LESSON}.ipynb").write_bytes(raw)
    # issue 50's files: 1.26 MB and 457 KB (the lesson's own text around the items varies with the release)
    assert 1.2e6 < len(files["outputs_300k"]) < 1.32e6 and 4.2e5 < len(files["outputs_100k"]) < 5.0e5
    assert len(files["answer_20mb"]) > 20 * 10**6
    return subs, bounded("class", str(subs), LESSON)


def test_the_parent_and_the_workers_read_the_class_within_a_memory_cap(hostile_class):
    _, report = hostile_class
    taken, readings = report["intake"], report.get("readings", {})
    assert "crashed" not in taken, taken
    # every notebook is named like the lesson: each attacker has a row of its own, never `missing`
    assert set(taken["found"]) == {f"{s}/{LESSON}" for s in ("ada", "bob", *REASONS)}, taken
    assert readings == EXPECTED
    assert report["vm_peak"] < CAP - 2**26, "the reading came near its cap"


def test_classmates_keep_full_marks_and_each_attacker_is_its_own_error(hostile_class, tmp_path):
    from autograder.grader import Settings, grade

    subs, report = hostile_class
    readings = report.get("readings", {})
    if readings != EXPECTED or report["vm_peak"] >= CAP - 2**26:  # grading would read the class unbounded
        pytest.fail(f"not graded: the reading is not bounded ({readings})")
    results = grade(subs, tmp_path / "out", Settings(jobs=2), quiet=True, names=[LESSON])
    rows = {r.student: r for r in results}
    assert set(rows) == {"ada", "bob", *REASONS}
    for student in ("ada", "bob"):
        assert (rows[student].status, rows[student].score, rows[student].max_score) == ("ok", TOTAL, TOTAL)
    for student, reason in REASONS.items():
        r = rows[student]
        assert (r.status, r.score, r.max_score) == ("error", 0, TOTAL), (student, r.status, r.detail)
        assert r.detail == f"unreadable notebook: {reason}", r.detail
        assert len(r.tests) == 8 and all(t.outcome == "not run" for t in r.tests)
    grades = {r["student"]: r for r in csv.DictReader(open(tmp_path / "out" / "grades.csv"))}
    assert {s: (r["score"], r["status"]) for s, r in grades.items()} == {
        "ada": ("13", "ok"),
        "bob": ("13", "ok"),
        **{s: ("0", "error") for s in REASONS},
    }
