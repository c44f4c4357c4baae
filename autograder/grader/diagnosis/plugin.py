"""Diagnosis, plugged into grading: the one module the grader's core reaches it through
(observer.plugin()), and the only reader of a job's opaque ``diagnosis`` payload.

- A lesson's part (``lesson_payload``, in the worker): its known mistakes (autograder.common.mistakes) and
  the source notebook's reference answers, what a replay runs.
- A worker's part (``Worker``), added to each checker's job: the replays' outcomes it kept for the
  lesson (replayed.py), whether its checkers may share theirs, and the run's folder of compiled
  replays (replay_folder.py); both only where the student's process has namespaces of its own.
- A checker's part (``Diagnosis``, an observer.Observer): records a test's calls (recording.py)
  and, after the test's record was sent, names the known mistakes they behave like (diagnose.py).
- A run's part (``run_folder``, ``adopt``): the folder of compiled replays its workers share.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from ..core import events
from . import replay_cache, replay_folder, replayed
from .diagnose import Diagnoser
from ..core.model import CellState
from ..core import observer as base
from ..core.observer import Observer
from .recording import Recorder


def lesson_payload(source_nb, library: str, lesson: str) -> dict:
    """A lesson's diagnosis from its source notebook and its mistakes.py text ({}: none)."""
    from ...common.mistakes import for_diagnosis
    from ...common.mistakes import parse as parse_mistakes

    mistakes = for_diagnosis(parse_mistakes(library, lesson)) if library else []
    return payload_of(source_nb, mistakes)


def payload_of(source_nb, mistakes: list[dict]) -> dict:
    """The same from the mistakes as autograder.common.mistakes.for_diagnosis gives them."""
    from ...common.notebooks import cell_grade_id
    from ..core.studentcode import definitions_only

    if not mistakes:
        return {}
    references = []
    for cell in source_nb.cells:  # the source's answer cells: definitions only, trusted
        gid = cell_grade_id(cell)
        if cell.cell_type == "code" and gid.startswith("answer_"):
            references.append([f"reference {gid}", definitions_only(cell.source, calls=False)[0]])
    return {"mistakes": mistakes, "references": references}


class Worker(base.Worker):
    """One notebook's diagnosis in its worker: what each of its checkers' jobs carries, and the
    outcomes they send back (kept for the lesson's next checkers)."""

    def __init__(self, lesson: dict, plan, settings, variants: bool):
        self.lesson = lesson
        self.scope = None
        if lesson and not variants and replayed.shareable():
            self.scope = replayed.scope(
                plan.setup, plan.checker_cells, lesson["references"], lesson["mistakes"], settings.emulation
            )

    def payload(self) -> dict:
        if not self.lesson:
            return {}
        folder = replay_folder.worker_folder() if self.scope is not None else ""
        return {**self.lesson, "known": replayed.known(self.scope), "share": self.scope is not None, "compiled": folder}

    def absorb(self, outcomes) -> None:
        replayed.absorb(self.scope, outcomes)


@contextlib.contextmanager
def run_folder(settings):
    """The run's folder of compiled replays (bubblewrap only; "" where there is none)."""
    with replay_folder.run_folder(settings.diagnose and replayed.shareable()) as folder:
        yield folder


adopt = replay_folder.adopt  # a pool worker's initializer: the run's folder


def observer(job) -> Observer:
    return Diagnosis(job)


class Diagnosis(Observer):
    """The checker's diagnosis: a test's outermost calls recorded, and, after its record was sent,
    the known mistakes they behave like (the do-nothing Observer's hooks, filled in)."""

    def __init__(self, job):
        payload = job.diagnosis
        self.share, self.compiled = bool(payload.get("share")), str(payload.get("compiled") or "")
        self.sharing = False  # from visible checks only, after a whole setup (lesson_ready)
        self.replaying = False  # set by the Diagnoser while it replays: no call reaches the student
        cells = [list(c) for c in job.checker_cells] + payload["references"]  # after the setup (lesson_ready)
        known = payload.get("known") or []
        self.diagnoser = Diagnoser(cells, payload["mistakes"], job.workdir, self, known=known, share=self.share)
        replay_cache.use(self.compiled)  # the class's compiled replays (replay_cache.Folder), where private
        self.recorder = Recorder(self.diagnoser.functions(), job.workdir, job.inputs)

    def launched(self, launch) -> None:
        if (self.share or self.compiled) and not launch.namespaced:
            # outcomes and programs are shared only where the student cannot reach them
            raise OSError("bubblewrap works in the grader's worker but not in this notebook's checker")
        folder = os.path.realpath(self.compiled) if self.compiled else ""
        if folder and any(Path(folder).is_relative_to(p) for p in launch.shown()):
            raise OSError("the folder of compiled replays is inside one the student's process is shown")

    def lesson_ready(self, namespace: dict, setup_ok: bool) -> None:
        self.diagnoser.base = dict(namespace)  # the lesson's state before any test: what replays start from
        # replays' outcomes go to the worker (replayed.py) only after a whole setup (one cut short
        # under load is not the lesson's state)
        self.sharing = self.share and setup_ok

    def start_cell(self) -> None:
        self.recorder.clear()

    def call_allowed(self) -> bool:
        return not self.replaying

    def before_call(self, name, args, kwargs, precision):
        return self.recorder.before(name, args, kwargs, precision)

    def returned(self, token, name, value, args) -> None:
        self.recorder.returned(name, token, value, args)

    def raised(self, token, name, exc) -> None:
        self.recorder.raised(name, token, exc)

    def wants(self, state, ename, happened) -> bool:
        """A failure on the student's answer (not a stub's NotImplementedError; a timeout, a limit
        or a death is not graded) after a call to a function with known mistakes."""
        wrong = state == CellState.ERROR and ename != "NotImplementedError"
        return wrong and not happened and bool(self.recorder.calls)

    def explain(self, seconds_left: float) -> list[str]:
        try:  # within the test's remaining time less a margin; never a reason for it to fail
            return self.diagnoser.diagnose(self.recorder.calls, seconds_left)
        except BaseException:  # noqa: BLE001  a diagnosis's own failure says nothing
            return []

    def after_test(self, index: int, hidden: bool, seconds_left: float) -> list:
        # a hidden check's calls draw from this notebook's seed: never asked for again, never shared
        self.diagnoser.exchange.share = self.sharing and not hidden
        said = [events.Diagnosed(index, self.explain(seconds_left))]
        fresh = self.diagnoser.take_fresh()
        return said + [events.Replayed(fresh)] if fresh else said

    def another_answer(self) -> None:
        self.diagnoser.consistent.clear()
