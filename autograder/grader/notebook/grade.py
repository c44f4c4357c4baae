"""Grade one notebook: plan it, run its checker (watch.py, which runs the student's process), decide.

``grade_notebook`` takes plain data (the lesson's notebooks as JSON, the submission's bytes, the
settings) and returns a ``Result``: it is what a worker process, local or on a cluster, runs.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path

import nbformat

from ..core import observer
from ..core.model import Job, Outcome, Result, Status, TestResult
from ...common.textsafe import printable
from .plan import build_plan, graded_steps
from ..core.settings import Settings
from .submissions import parse_notebook
from .verdict import decide
from .watch import GraderFault, run_checker


@dataclass(frozen=True)
class Lesson:
    """A lesson as the grader needs it: notebooks as JSON text (they cross processes)."""

    name: str
    source: str  # solutions/ notebook (hidden tests, reference solutions)
    release: str  # the student version nbgrader generated now
    committed: str = ""  # the committed notebooks/ version (what students downloaded)
    mistakes: str = ""  # solutions/<lesson>/mistakes.py's text: the known wrong answers (diagnosis)

    def notebooks(self):
        read = lambda s: nbformat.reads(s, as_version=4)  # noqa: E731
        return read(self.source), read(self.release), read(self.committed) if self.committed else None

    def max_score(self) -> float:
        return float(sum(s.points for s in graded_steps(nbformat.reads(self.source, as_version=4))))


def notebook_seed(run_seed: int | None, student: str, lesson: str) -> int:
    """The seed a notebook's hidden tests draw from: the run's, mixed with who and what, so that
    two students get different inputs and ``--seed`` reproduces a regrade."""
    import hashlib

    h = hashlib.sha256(f"{run_seed}\0{student}\0{lesson}".encode()).digest()
    return int.from_bytes(h[:4], "big") & 0x7FFFFFFF


def grade_job(job: dict) -> dict:
    """A worker's task, local pool and Dask alike: a ``model.Job`` as a dict in, a ``Result`` as a
    dict out (what crosses between processes is plain data)."""
    logging.getLogger("traitlets").setLevel(logging.CRITICAL)
    j = Job.from_dict(job)
    settings = Settings.from_dict(j.settings)
    return grade_notebook(j.student, Lesson(**j.lesson), j.submission, settings, Path(j.repository), j.digest).to_dict()


def _none_run(result: Result, steps, why: str, outcome: Outcome, t0: float) -> Result:
    """``result`` with every graded step not run, for ``why``: no points, the outcome named."""
    result.tests = [TestResult(s.grade_id, 0.0, s.points, why, s.hidden, s.doc, outcome=outcome) for s in steps]
    result.seconds = time.perf_counter() - t0
    return result


def unplannable(exc: Exception, source_nb, release_nb, committed_nb) -> str:
    """Why a submission could not be planned, for its row (status ``error``), where the failure is
    the submission's own: the same plan made of the untouched release (the unanswered stubs) is
    made without it. Where that fails too, the grader itself cannot plan the lesson: the original
    exception goes on (a grader fault, never the student's zero)."""
    try:
        build_plan(source_nb, release_nb, release_nb, committed_nb)
    except Exception:  # noqa: BLE001
        raise exc from None
    return printable(f"the grader could not read this notebook's code ({type(exc).__name__}: {exc})", 300)


def grade_notebook(
    student: str, lesson: Lesson, submission: bytes, settings: Settings, repository: Path, digest: str = ""
) -> Result:
    """Grade one submission (in a worker process): plain data in, a Result out."""
    t0 = time.perf_counter()
    source_nb, release_nb, committed_nb = lesson.notebooks()
    steps = graded_steps(source_nb)
    result = Result(student, lesson.name, max_score=float(sum(s.points for s in steps)), digest=digest)
    try:
        submitted = parse_notebook(submission)
    except ValueError as exc:
        result.status, result.detail = Status.ERROR, f"unreadable notebook: {exc}"
        return _none_run(result, steps, "not run: the notebook could not be read", Outcome.NOT_RUN, t0)
    try:
        plan = build_plan(source_nb, release_nb, submitted, committed_nb)
    except Exception as exc:  # noqa: BLE001  the student's bytes, or the grader's own fault: told apart below
        why = unplannable(exc, source_nb, release_nb, committed_nb)
        result.status, result.detail = Status.ERROR, why
        return _none_run(result, steps, "not run: the notebook's code could not be read", Outcome.NOT_RUN, t0)
    plugin = observer.plugin() if settings.diagnose and lesson.mistakes else None  # None: not installed
    diagnosis = plugin.lesson_payload(source_nb, lesson.mistakes, lesson.name) if plugin else {}
    result.seed = notebook_seed(settings.seed, student, lesson.name)
    try:
        records, notes = run_checker(plan, settings, repository, seed=result.seed, diagnosis=diagnosis)
    except GraderFault as exc:  # never the student's zero: no grade, regraded on the next run
        result.status, result.detail = Status.GRADER_ERROR, f"not graded (the grader's fault, not yours): {exc}"
        return _none_run(result, steps, "not run: the grader could not start", Outcome.GRADER_FAULT, t0)
    result.notes = plan.notes + notes
    decide(result, plan.tests, records, plan.attacks, plan.edits, settings.cell_timeout)
    if not settings.rules:  # --no-rules: a wrong hidden check says failed, and its mistake if named
        for t in result.tests:
            t.rule = ""
    result.seconds = time.perf_counter() - t0
    return result
