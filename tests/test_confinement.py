"""What a submission's processes can reach outside the sandbox (issue 42, items 2, 3 and 5).

- No site hook runs in anything the student's process starts: the launcher (the grader's user,
  outside every layer) and the student's Python start with ``-I -S``; a ``.pth`` file planted in
  the interpreter's real site-packages is never executed, with bubblewrap or without.
- The checker writes nowhere but its job folder (guard.py's confinement, an audit hook installed
  before its first line of lesson code).
- Under the fallback (no bubblewrap), Landlock grants only the device files a process needs, never
  /dev/shm nor other processes' /proc; the checker and the student get an allowlisted environment.
"""

import subprocess
import sys
import sysconfig
import uuid
from pathlib import Path

import pytest

from autograder.grader import sandbox
from autograder.grader.remote import Budget, Student
from autograder.grader.settings import Limits
from conftest import ROOT

pytestmark = pytest.mark.slow


def start_student(tmp_path: Path, cells: list, fallback: bool, monkeypatch) -> Student:
    """A student process as a checker starts one, ready (its definitions run)."""
    if fallback:
        monkeypatch.setattr(sandbox, "bwrap_works", lambda: "forced off by the test")
    work = tmp_path / "work"
    (work / "tmp").mkdir(parents=True, exist_ok=True)
    init = {"op": "init", "prelude": [], "cells": cells, "names": []}
    budget = Budget(120, 60)
    budget.start_cell()
    student = Student(lambda: sandbox.prepare(tmp_path, work, Limits(), ROOT, "none"), init, budget, 1)
    student.start()
    student.wait_ready()
    assert student.launch.namespaced is not fallback
    return student


@pytest.mark.parametrize("fallback", [False, True], ids=["bubblewrap", "fallback"])
def test_a_pth_file_in_site_packages_runs_in_no_process_of_the_students(tmp_path, monkeypatch, fallback):
    """A ``.pth`` file in the site-packages folder of the grader's own interpreter (where a checker
    tricked into writing one put it, issue 42): today's launcher and student Python run with
    ``-I -S`` and never execute it, and the student's code still imports JAX from site-packages.
    The same file run by a plain ``python -I`` proves it would have run."""
    marker = tmp_path / "pth-ran"
    home = str(tmp_path / "work")
    write = f"open({str(marker)!r}, 'a').write(' '.join(sys.argv))"
    code = f"try:\n if os.environ.get('HOME') == {home!r}:\n  {write}\nexcept Exception:\n pass"
    pth = Path(sysconfig.get_paths()["purelib"]) / f"zz_course_test_{uuid.uuid4().hex}.pth"
    pth.write_text(f"import os, sys; exec({code!r})\n")  # only a process with this test's HOME writes
    try:
        subprocess.run([sys.executable, "-I", "-c", "pass"], env={"HOME": home}, check=True)
        assert marker.exists(), "the planted file runs in a plain python -I"
        marker.unlink()
        cells = [["jax", "import jax, jax.numpy as jnp\nDOT = float(jnp.dot(jnp.ones(3), jnp.ones(3)))"]]
        student = start_student(tmp_path, cells, fallback, monkeypatch)
        errors, log = student.definition_errors, list(student.log)
        student.stop()
    finally:
        pth.unlink()
    print(errors, log[-5:])
    assert not marker.exists(), marker.read_text()
    assert errors == [], "JAX imports from site-packages in a Python started with -S"
