"""What may watch a notebook's checks without deciding them: the one interface the checker and its
stand-ins call (``Observer``), every hook doing nothing, and where the one plug-in comes from.

Diagnosis (plugin.py with diagnose.py, recording.py, replayed.py, replay_cache.py, replay_folder.py) is
that plug-in: it records a failed check's calls and names the known mistake they behave like. The
path that decides points never reads what an observer says: the checker sends a test's record
(events.Tested) before ``after_test`` runs, and a job's ``diagnosis`` payload is opaque to the
grader's core (only plugin.py reads it). Without the plug-in's modules (``plugin()`` is None), or
with ``--no-diagnose``, a checker gets this class itself and grades the same points.
"""

from __future__ import annotations

import importlib

# The plug-in's modules: where one of them is missing, grading goes on without diagnosis.
PLUGIN_NAMES = ("plugin", "diagnose", "recording", "replayed", "replay_cache", "replay_folder")
PLUGIN_PACKAGE = __package__.rpartition(".")[0] + ".diagnosis"  # autograder.grader.diagnosis
PLUGIN_MODULES = (PLUGIN_PACKAGE, *(f"{PLUGIN_PACKAGE}.{m}" for m in PLUGIN_NAMES))


class Observer:
    """The checker's hooks, each a no-op. What a hook returns or raises never changes a record:
    ``before_call``, ``returned`` and ``raised`` run around a test's own call to the student's
    function (their failures are the observer's to swallow); ``call_allowed`` is False only while
    the observer's own work runs (it never calls the student's process)."""

    def launched(self, launch) -> None:
        """The student's process is about to start (sandbox.Launch): OSError where the payload
        needs what this launch lacks (the grader's fault, never the student's)."""

    def lesson_ready(self, namespace: dict, setup_ok: bool) -> None:
        """The lesson's setup and definitions ran: its namespace before any test."""

    def start_cell(self) -> None:
        """A cell starts: what was observed of the last one is dropped."""

    def call_allowed(self) -> bool:
        return True

    def before_call(self, name: str, args: tuple, kwargs: dict, precision: str | None):
        """A token for the outermost call about to be made (None: not observed)."""
        return None

    def returned(self, token, name: str, value, args: tuple) -> None:
        pass

    def raised(self, token, name: str, exc: BaseException) -> None:
        pass

    def wants(self, state: str, ename: str, happened: list) -> bool:
        """Whether ``after_test`` has something to say about the test that just ended so."""
        return False

    def after_test(self, index: int, hidden: bool, seconds_left: float) -> list:
        """Events (events.py) about a test whose record was sent: never a reason to fail it."""
        return []

    def explain(self, seconds_left: float) -> list[str]:
        """The known mistakes the last cell's calls behave like (authoring: lessoncheck)."""
        return []

    def another_answer(self) -> None:
        """Authoring only: another answer is swapped in, what earlier cells ruled out was another's."""


def plugin():
    """The diagnosis plug-in's module (plugin.py), or None where its modules are not installed."""
    try:
        return importlib.import_module(".plugin", PLUGIN_PACKAGE)  # the one import upward, by name
    except ModuleNotFoundError as exc:
        if exc.name in PLUGIN_MODULES:
            return None
        raise


class Worker:
    """A notebook's observer in its worker: what each checker's job carries for it (the opaque
    ``diagnosis`` payload) and what the checker sends back (events.Replayed), here nothing."""

    def payload(self) -> dict:
        return {}

    def absorb(self, outcomes) -> None:
        pass


def for_job(job) -> Observer:
    """The checker's observer for its job (model.CheckerJob): the plug-in's where the job carries
    a payload and the plug-in is installed, else the do-nothing one."""
    module = plugin() if job.diagnosis else None
    return module.observer(job) if module is not None else Observer()


def for_worker(lesson: dict, plan, settings, variants: bool) -> Worker:
    """A notebook's worker side for the lesson's payload (plugin.lesson_payload; {}: none)."""
    module = plugin() if lesson else None
    return module.Worker(lesson, plan, settings, variants) if module is not None else Worker()
