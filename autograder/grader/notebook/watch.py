"""Run one notebook's checker and watch it: the checker's events (core/events.py) read as they come,
each test's record kept, and a checker that outlives a cell's time (instructor code stuck, or a
checker killed) killed with its student process and started again at the next test, while the
notebook's time lasts. Its records go to verdict.py through grade.py; the diagnosis plug-in's
payload crosses it opaque (core/observer.py).
"""

from __future__ import annotations

import os
import select
import subprocess
import time
from pathlib import Path

from ..core import events, observer, readings
from ..sandbox import launch as sandbox
from ..core.model import CellState, CheckerJob, Happened, ProcessEvent, TestRecord
from ..checker.names import record_forged, record_tampered
from .plan import Plan, run_order
from ..core.settings import CHECKER_GRACE as GRACE
from ..core.settings import SETUP_CELLS, VARIANT_CELLS, Settings
from ...common.textsafe import printable
from ..core.wire import HEADER_SIZE, WireError, frame_length, parse, write_frame
from ..checker.spawn import checker_env, start_checker
from ..sandbox.workdir import new_job_dir, release_job_dir


def _events(proc: subprocess.Popen, deadline_of):
    """Yield the checker's events (wire frames); stop (yield None) when the watchdog's deadline
    passes. A frame that does not parse is skipped; a length over the cap ends the stream (the
    checker is then treated as stopped, as when it dies)."""
    fd = proc.stdout.fileno()
    buffer = b""
    while True:
        while len(buffer) >= HEADER_SIZE:
            try:
                n = frame_length(buffer[:HEADER_SIZE])
            except WireError:
                return
            if len(buffer) < HEADER_SIZE + n:
                break
            body, buffer = buffer[HEADER_SIZE : HEADER_SIZE + n], buffer[HEADER_SIZE + n :]
            try:
                yield parse(body)
            except WireError:
                continue
        left = deadline_of() - time.monotonic()
        if left <= 0:
            yield None
            return
        ready, _, _ = select.select([fd], [], [], min(left, 5.0))
        if not ready:
            continue
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return
        buffer += chunk


class GraderFault(Exception):
    """The grader could not grade a notebook for reasons that are not the student's (its sandbox
    did not start): the row is ``grader-error``, no grade is written, the next run regrades it."""


def run_checker(
    plan: Plan, settings: Settings, repository: Path, seed: int = 0, start_at: int = 0, diagnosis: dict | None = None
) -> tuple[list[TestRecord], list[str]]:
    """Grade: run the plan's tests; one record per test (in the plan's order), and notes for the
    student. The checker runs them in ``run_order`` (visible first); ``start_at`` counts in that
    order. ``diagnosis``: the lesson's payload for the diagnosis plug-in (plugin.lesson_payload).
    Where a check failed on an answer that met one of the chip's choices, the notebook is graded
    again under the other reading and the better grading counts, whole (core/readings.py); a
    notebook already found aimed at the grader is not (no points either way)."""
    records, notes = _session(plan, settings, repository, [], seed, start_at, diagnosis or {})
    if readings.worth_regrading(records) and not plan.attacks:
        again, _ = _session(plan, settings, repository, [], seed, start_at, {}, readings.OTHER)
        records = readings.better(records, again, [t.points for t in plan.tests])
    return records, notes


def run_variants(
    plan: Plan,
    settings: Settings,
    repository: Path,
    variants: list[dict],
    seed: int = 0,
    start_at: int = 0,
    diagnosis: dict | None = None,
    reading: str = "",
) -> tuple[list[TestRecord], list[str]]:
    """Authoring only (autograder.course.lessoncheck), never grading: the plan's tests (one grading, as
    ``run_checker``'s first), then each variant (an author's wrong or correct answer swapped into the
    student's process; its "tests" index ``plan.tests``) runs the tests that can reach it, its result
    added to its dict. ``reading``: readings.OTHER for the chip's other choices (lessoncheck's own
    second grading, lessoncheck/variants.py)."""
    return _session(plan, settings, repository, variants, seed, start_at, diagnosis or {}, reading)


def _session(
    plan: Plan,
    settings: Settings,
    repository: Path,
    variants: list[dict],
    seed: int,
    start_at: int,
    diagnosis: dict,
    reading: str = "",
) -> tuple[list[TestRecord], list[str]]:
    order = run_order(plan.tests)
    position = {i: k for k, i in enumerate(order)}
    tests = [plan.tests[i] for i in order]
    records = [TestRecord(t.grade_id) for t in tests]
    notes: list[str] = []
    notebook_deadline = time.monotonic() + settings.notebook_timeout
    checker_starts = 0
    running: list[subprocess.Popen] = []
    # the observer's worker side: what each checker's job carries for it, opaque here (plugin.py)
    watcher = observer.for_worker(diagnosis if settings.diagnose else {}, plan, settings, bool(variants))
    job_dir = new_job_dir()
    try:
        while (
            start_at < len(tests) or any("result" not in v for v in variants)
        ) and checker_starts <= settings.max_restarts + len(variants):
            if time.monotonic() >= notebook_deadline - 1:
                break
            home = job_dir / "checker"
            workdir = job_dir / "student" / "work"
            inputs = job_dir / "student" / "inputs"  # the tests' files: read-only to the student
            for folder in (home, workdir):
                (folder / "tmp").mkdir(parents=True, exist_ok=True)
            inputs.mkdir(exist_ok=True)
            job = CheckerJob(
                settings=settings.to_dict(),
                job_dir=str(job_dir),
                checker_home=str(home),
                workdir=str(workdir),
                inputs=str(inputs),
                repository=str(repository),
                setup=plan.setup,
                student_cells=[list(c) for c in plan.student_cells],
                checker_cells=[list(c) for c in plan.checker_cells],
                tests=[{"grade_id": t.grade_id, "source": t.source, "hidden": t.hidden} for t in tests],
                contract=plan.contract,
                notebook_seconds=notebook_deadline - time.monotonic(),
                start_at=start_at,
                seed=seed,
                variants=[
                    {**{k: v for k, v in var.items() if k != "result"}, "tests": [position[i] for i in var["tests"]]}
                    for var in variants
                    if "result" not in var
                ],
                diagnosis=watcher.payload(),
                namespaced=not sandbox.bwrap_works(),
                reading=reading,
            )
            env = checker_env(home, settings.emulation)
            # a fork of this worker's warm zygote (spawn.py), or a fresh interpreter where there is none
            proc = start_checker(env, str(home), settings.checker_memory_bytes, job_dir / "checker.log")
            running.append(proc)
            checker_starts += 1
            try:
                message = job.to_dict()
                try:
                    write_frame(proc.stdin.fileno(), message)
                except WireError:  # over the frame's cap with the kept outcomes: sent without them
                    if not job.diagnosis.get("known"):
                        raise
                    write_frame(proc.stdin.fileno(), {**message, "diagnosis": {**job.diagnosis, "known": []}})
            except OSError:  # the checker is gone already: its events (none) say so below
                pass
            proc.stdin.close()
            current = None
            cell_deadline = [time.monotonic() + settings.cell_timeout * SETUP_CELLS + GRACE]  # setup and definitions

            def deadline():
                return min(cell_deadline[0], notebook_deadline + GRACE)

            finished, observed = False, None  # observed: the test whose observer's event is due
            for frame in _events(proc, deadline):
                if frame is None:
                    break
                event = events.parse(frame)  # None: not an event of the checker's, ignored
                if isinstance(event, events.Ready):
                    if event.grader_fault:
                        raise GraderFault(printable(event.grader_fault, 300))
                    if checker_starts == 1:
                        notes += _ready_notes(event, plan)
                    record_forged(plan.attacks, event.forged)
                    record_tampered(plan.attacks, event.tampered)
                elif isinstance(event, events.Start):
                    if not start_at <= event.index < len(records):
                        continue
                    current, observed = event.index, None
                    cell_deadline[0] = time.monotonic() + settings.cell_timeout + GRACE
                elif isinstance(event, events.Restart):  # the student's process restarts with a cell's time
                    cell_deadline[0] += settings.cell_timeout
                elif isinstance(event, events.Tested):
                    i = event.index
                    if i != current or records[i].state != CellState.SKIPPED:
                        continue  # only the test that was started, once
                    records[i] = TestRecord(
                        tests[i].grade_id,
                        event.state,
                        event.ename,
                        event.evalue,
                        float(event.seconds),
                        event.output,
                        event.happened(),
                        line=event.line,
                        raised_by=event.raised_by[:100],
                        choices=[c for c in event.choices if c in readings.LIMITS],
                    )
                    start_at, current = i + 1, None
                    observed = i if event.observed else None
                    record_tampered(plan.attacks, event.tampered)
                elif isinstance(event, events.Diagnosed):
                    if event.index == observed:  # the test's record is final: only its diagnosis added
                        records[event.index].mistakes = list(event.mistakes)
                        observed = None
                elif isinstance(event, events.Replayed):
                    watcher.absorb(event.outcomes)
                elif isinstance(event, events.Variant):
                    pending = [var for var in variants if "result" not in var]
                    pending[0]["result"] = {
                        "failed": event.failed,
                        "errors": event.errors,
                        "diagnosed": event.diagnosed,
                        "sites": event.sites,
                        "choices": [c for c in event.choices if c in readings.LIMITS],
                    }
                    cell_deadline[0] = time.monotonic() + settings.cell_timeout * VARIANT_CELLS + GRACE
                elif isinstance(event, events.Done):
                    record_forged(plan.attacks, event.forged)
                    finished = True
            _kill(proc)
            if finished:
                break
            if current is None and observed is not None:  # stopped in a diagnosis: no test to blame
                continue
            i = current if current is not None else start_at
            if start_at >= len(tests) and variants and not finished:  # stuck in a variant
                pending = [var for var in variants if "result" not in var]
                if pending:
                    pending[0]["result"] = {"failed": ["<the checker was stopped>"], "errors": []}
                    start_at = len(tests)
                    continue
            if i < len(tests):  # the checker hung or died on test i
                records[i] = TestRecord(
                    tests[i].grade_id,
                    CellState.TIMEOUT if time.monotonic() >= deadline() else CellState.DIED,
                    "",
                    "the checker was stopped",
                    0.0,
                    "",
                    [Happened(ProcessEvent.TIMED_OUT)],
                )
                start_at = i + 1
        for r in records[start_at:]:  # never reached: the notebook's time ran out
            if r.state == CellState.SKIPPED:
                r.state, r.student = CellState.TIMEOUT, [Happened(ProcessEvent.NOTEBOOK_TIME_USED)]
    finally:
        for proc in running:  # interrupted (Ctrl-C) or done: no checker outlives its notebook
            _kill(proc)
        release_job_dir(job_dir)  # any depth: a student's 3,000 nested folders included
    return [records[position[i]] for i in range(len(order))], notes


def _kill(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, 9)
    except OSError:
        pass
    proc.wait()


def _ready_notes(event: events.Ready, plan: Plan) -> list[str]:
    notes = []
    if event.setup_error:
        notes.append("the lesson's setup cell failed when grading: " + printable(event.setup_error))
    if event.student_error:
        notes.append("your code could not be loaded: " + printable(event.student_error))
    for error in event.definition_errors[:10]:
        if len(error) != 3 or not all(isinstance(x, str) for x in error):
            continue
        label, ename, message = error
        if label.startswith(("answer_", "cell added")):  # the lesson's own cells are not the student's
            notes.append(printable(f"{label} raised {ename} while defining your code: {message}"))
    missing = [n for n in plan.contract if n not in event.defined]
    if missing and not event.student_error:
        notes.append("not defined when grading: " + ", ".join(printable(n, 60) for n in missing))
    return notes
