"""The local process pool of a class run (``grade --jobs N``): notebooks to spawned workers,
outcomes recorded as they arrive, and Ctrl-C noted by a handler and acted on between waits.

Python's default SIGINT handler raises KeyboardInterrupt in whatever the main thread runs next, and
where that is a library's callback (JAX's garbage-collection hook, say) the exception is printed as
"ignored" and lost: the run went on grading with its workers interrupted, and their notebooks came
out as the grader's errors (seen under load, tests/test_grader_resume.py). Here the handler only
notes the signal; the loop asks after every wait, before it records what the wait returned, and
raises the KeyboardInterrupt there, in its own code.
"""

from __future__ import annotations

import multiprocessing
import signal
import sys
import threading
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

from ..core.settings import INTERRUPT_POLL
from ..notebook.grade import grade_job
from .gradebook import INTERRUPTED


class Interrupts:
    """``with Interrupts() as stop: ... stop.raise_if_interrupted()``; outside the main thread
    (where no handler can be set) it notes nothing and the default behaviour stays."""

    def __init__(self) -> None:
        self.noted = False
        self.previous = None

    def _note(self, signum, frame) -> None:
        self.noted = True

    def __enter__(self) -> Interrupts:
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGINT, self._note)
        return self

    def __exit__(self, *exc) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)

    def raise_if_interrupted(self) -> None:
        if self.noted:
            raise KeyboardInterrupt


def pool_grade(todo, jobs: int, folder: str, record, adopt=None) -> None:
    """Grade ``todo`` on ``jobs`` spawned worker processes (``adopt(folder)`` starts each),
    ``record``-ing each outcome as it arrives: the Result dict a worker returned, or the exception
    that stands for it (a worker died). Ctrl-C stops it between waits (``Interrupts``)."""
    with Interrupts() as stop:
        _pool_run(todo, jobs, folder, record, adopt, stop)


def _pool_run(todo, jobs: int, folder: str, record, adopt, stop: Interrupts) -> None:
    spawn = multiprocessing.get_context("spawn")
    initargs = (folder,) if adopt else ()
    pool = ProcessPoolExecutor(min(jobs, len(todo)), spawn, initializer=adopt, initargs=initargs)
    futures = {pool.submit(grade_job, job): job for job in todo}
    interrupted = False
    try:
        pending = set(futures)
        while pending:
            finished, pending = wait(pending, timeout=INTERRUPT_POLL, return_when=FIRST_COMPLETED)
            stop.raise_if_interrupted()  # before a worker the Ctrl-C stopped is recorded as a fault
            for fut in finished:
                try:
                    outcome = fut.result()
                except Exception as exc:  # noqa: BLE001  a worker died
                    outcome = exc
                record(futures[fut], outcome)
    except KeyboardInterrupt:
        interrupted = True
        print(INTERRUPTED, file=sys.stderr)
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    finally:
        if not interrupted:
            pool.shutdown(wait=True)
