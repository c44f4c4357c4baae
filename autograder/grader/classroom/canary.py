"""Before a class is graded, the grader proves its own machinery works (issue: fail closed).

Two canaries, both through the very code that grades every student:
- ``process``: a trivial student process started the way every student's is (sandbox.prepare with
  the run's limits, the emulation prelude, the wire), asked to define one function and call it
  with JAX; a few seconds, every run.
- ``solution``: the solution of the run's first lesson, graded as a student's notebook
  (grade_notebook), must get full marks with status ok. It takes as long as grading one notebook,
  so a pass is remembered per grader, lesson and environment (a digest of the grader's code, the
  lesson's source, the Python and the settings) in the user's cache folder; the process canary
  still runs every time.

If either fails, ``grade`` writes no grade and the command exits with status 2 and one sentence
saying what is broken and how to fix it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path

from ..sandbox import launch as sandbox
from ..core.faults import SandboxFault, StudentDied, StudentTimeout
from ..checker.remote import Student
from ..core.settings import CANARY_MIN_SECONDS, Budget, Settings
from ..checker.spawn import stop_zygotes
from ...chip import emulation

CANARY_CELL = "import jax.numpy as jnp\n\ndef canary(values):\n    return float(jnp.asarray(values).sum())\n"
GRADER = Path(__file__).resolve().parent.parent  # autograder/grader


class CanaryFailed(Exception):
    """The grader's own machinery does not work here: the message says what and how to fix it."""


def _fix() -> str:
    why = sandbox.bwrap_works()
    layers = f"{why}, so student code runs with rlimits and Landlock only; " if why else ""
    return f'({layers}see docs/GRADING.md, "When the grader cannot grade")'


def process_canary(settings: Settings, repository: Path) -> None:
    """A trivial student process, started and called exactly as a student's is; CanaryFailed if not."""
    prelude = []
    if settings.emulation != "none":
        prelude = [emulation.source()]
    init = {"op": "init", "prelude": prelude, "cells": [["canary", CANARY_CELL]], "names": ["canary"]}
    job_dir = Path(tempfile.mkdtemp(prefix="course-canary-"))
    os.chmod(job_dir, 0o700)
    workdir, inputs = job_dir / "work", job_dir / "inputs"
    workdir.mkdir()
    inputs.mkdir()
    budget = Budget(max(CANARY_MIN_SECONDS, settings.cell_timeout), max(CANARY_MIN_SECONDS, settings.cell_timeout))
    student = Student(
        lambda: sandbox.prepare(job_dir, workdir, settings.limits, repository, settings.emulation, inputs),
        init,
        budget,
        0,
        contract=["canary"],  # the one name the canary's process defines (the checker binds only these)
    )
    try:
        student.start()
        student.wait_ready()
        if student.defined != ["canary"] or student.definition_errors:
            raise CanaryFailed(f"the canary's student process could not define a function: {student.definition_errors}")
        ctx = {"cwd": str(workdir), "env": {}, "precision": None, "bind": {}}
        value, _ = student.call("canary", ([1.0, 2.0],), {}, ctx)
        if value != 3.0:
            raise CanaryFailed(f"the canary's student process computed {value!r} for 1 + 2")
    except (SandboxFault, StudentDied, StudentTimeout, OSError) as exc:
        tail = " | ".join(list(student.log)[-3:])
        raise CanaryFailed(
            f"a trivial student process does not run in the grader's sandbox: {exc}"
            + (f" [{tail}]" if tail and tail not in str(exc) else "")
            + " "
            + _fix()
        ) from None
    finally:
        student.stop()
        from ..sandbox.workdir import remove_tree

        remove_tree(job_dir)


def _cache_path() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "course-grader" / "canary.json"


def _solution_key(lesson, settings: Settings) -> str:
    h = hashlib.sha256()
    for path in sorted(GRADER.rglob("*.py")) + emulation.paths():
        h.update(str(path.relative_to(GRADER.parent)).encode() + b"\0" + path.read_bytes())
    h.update(json.dumps(dataclasses.asdict(lesson), sort_keys=True, default=str).encode())
    h.update(json.dumps([settings.emulation, settings.to_dict()["limits"]], sort_keys=True).encode())
    h.update(f"{sys.version}\0{sys.executable}\0{os.path.realpath(sys.executable)}".encode())
    return h.hexdigest()


def solution_canary(lesson, settings: Settings, repository: Path) -> None:
    """The lesson's solution, graded as a student's notebook, gets full marks; CanaryFailed if not."""
    from ...common.notebooks import fill_answers
    from ..notebook.grade import grade_notebook

    key = _solution_key(lesson, settings)
    cache = _cache_path()
    try:
        passed = set(json.loads(cache.read_text()))
    except (OSError, ValueError, TypeError):
        passed = set()
    if key in passed:
        return
    import nbformat

    source_nb, release_nb, _ = lesson.notebooks()
    submission = nbformat.writes(fill_answers(release_nb, source_nb)).encode()
    settings = dataclasses.replace(settings, seed=0)
    try:
        r = grade_notebook("canary", lesson, submission, settings, repository)
    finally:  # this process is the parent, not a worker: no zygote of it outlives the canary
        stop_zygotes()
    if r.status != "ok" or r.score != r.max_score:
        failed = [t.grade_id for t in r.tests if t.score < t.max_score][:5]
        raise CanaryFailed(
            f"the solution of {lesson.name}, graded as a student's notebook, got {r.score:g}/{r.max_score:g} "
            f"({r.status}{': ' + r.detail if r.detail else ''}; failed: {', '.join(failed) or 'none'}): "
            "the grader or its environment is broken here " + _fix()
        )
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(sorted(passed | {key})[-64:]))
        os.replace(tmp, cache)
    except OSError:
        pass  # a read-only home: the canary simply runs again next time
