"""The local process pool of a class run (``grade --jobs N``): notebooks to spawned workers, one at a
time each, outcomes recorded as they arrive, a worker's death confined to its own notebook, and
Ctrl-C noted by a handler and acted on between waits.

**One notebook per worker, and the parent knows which.** Each worker is a spawned process with a
pipe of its own: it starts (its memory cap, then ``adopt(folder)``: the run's shared folder of
compiled replays), says it is ready, and then takes one job at a time from the parent, which holds
the rest. (concurrent.futures' ProcessPoolExecutor cannot say which job a dead worker held: one
death broke the whole pool and every pending notebook became a grader error, on every rerun.)

**A worker that dies takes only the notebook it was grading.** Killed (the kernel's OOM killer,
signal 9), crashed (a segfault) or out of its memory cap: that notebook's outcome is a
``WorkerDied`` (its row a ``grader-error`` naming what happened, never a student's zero; a rerun
grades it again), a fresh worker takes the next notebook, and every other notebook is graded.
A worker that ends before it took a job names no notebook; ``WORKER_START_FAILURES`` such ends in a row
(the pool cannot start a worker at all: ``adopt`` fails, say) end the run's grading, every
notebook not yet graded a grader error that names the reason.

**Each worker has a memory cap of its own**: ``WORKER_MEMORY_BYTES`` of address space (RLIMIT_AS,
the soft limit: the hard one stays, so that the checkers its zygote forks and their student
processes set their own caps, larger or not; settings.py states the cap with the peaks measured).
A notebook that makes the worker itself allocate past it (a parse of a huge cell) gets a
MemoryError there, not the machine's memory: that notebook is a grader fault ("ran out of its
memory cap") and the worker is replaced, as after a death.

**Ctrl-C.** Python's default SIGINT handler raises KeyboardInterrupt in whatever the main thread
runs next, and where that is a library's callback (JAX's garbage-collection hook, say) the
exception is printed as "ignored" and lost: the run went on grading with its workers interrupted,
and their notebooks came out as the grader's errors (seen under load, tests/test_grader_resume.py).
Here the handler only notes the signal; the loop asks after every wait, before it records what
the wait returned, and raises the KeyboardInterrupt there, in its own code. The workers (in the
terminal's process group) get the same Ctrl-C; each stops its notebook, cleans up and ends
quietly, and the parent interrupts any that did not (a SIGINT sent to the parent alone), waits
``WORKER_STOP_GRACE`` seconds, then kills what is left.
"""

from __future__ import annotations

from collections.abc import Iterable
import multiprocessing
import os
import signal
import sys
import threading
import time
from multiprocessing.connection import wait

from ...common.words import human_bytes
from ..core.settings import (
    INTERRUPT_POLL,
    WORKER_DIES_ENV,
    WORKER_MEMORY_BYTES,
    WORKER_START_FAILURES,
    WORKER_STOP_GRACE,
)
from ..notebook.grade import grade_job
from .feed import Feed
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


class WorkerDied(Exception):
    """The outcome of a notebook whose worker process died while grading it (or ran out of its
    memory cap): the grader's fault, that notebook's alone. Its text is the row's detail."""


def death(exitcode: int | None) -> str:
    """What a worker's exit code says: 'signal 9: killed, out of memory?', 'exit status 1'."""
    if exitcode is None:
        return "it stopped answering"
    if exitcode < 0:
        sig = -exitcode
        why = {
            signal.SIGKILL: ": killed, out of memory?",
            signal.SIGSEGV: ": a crash (segmentation fault)",
            signal.SIGBUS: ": a crash (bus error)",
            signal.SIGABRT: ": aborted",
            signal.SIGTERM: ": terminated",
        }.get(sig, "")
        return f"signal {sig}{why}"
    return f"exit status {exitcode}"


def died(exitcode: int | None) -> WorkerDied:
    return WorkerDied(f"the worker grading this notebook died ({death(exitcode)}); a rerun grades it again")


def out_of_memory(cap: int) -> WorkerDied:
    return WorkerDied(
        f"the worker grading this notebook ran out of its memory cap ({human_bytes(cap)} of address "
        "space, WORKER_MEMORY_BYTES) and was replaced; a rerun grades it again"
    )


def cap_memory(cap: int) -> None:
    """This process's address space capped at ``cap`` bytes (0: left as it is): the soft
    RLIMIT_AS, lowered only, the hard limit kept (a checker this process starts sets its own)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if cap and (soft == resource.RLIM_INFINITY or soft > cap):
        resource.setrlimit(resource.RLIMIT_AS, (cap if hard == resource.RLIM_INFINITY else min(cap, hard), hard))


def die_if_asked(job: dict) -> None:
    """For the tests only: the worker kills itself (SIGKILL, as the kernel's OOM killer does) when
    about to grade the student that ``WORKER_DIES_ENV`` names. That variable is in the grader's
    environment, set by a test; the checker's environment is an allowlist (spawn.checker_env), so
    no student's process ever sees it, and nothing a submission holds can set it."""
    if os.environ.get(WORKER_DIES_ENV) and os.environ[WORKER_DIES_ENV] == job.get("student"):
        os.kill(os.getpid(), signal.SIGKILL)


def _interrupted(signum, frame) -> None:
    """A worker's SIGINT: the first stops its notebook (KeyboardInterrupt, cleaned up on the way
    out), a second (the parent's, after the terminal's) cannot interrupt that cleanup."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def _worker(conn, cap: int, adopt, folder: str, task) -> None:
    """A pool worker's life: its cap and ``adopt``, "ready", then one job at a time until the
    parent sends None or goes away. Sends ("done", result), ("raised", exception) or ("memory",
    None) for each job; after a MemoryError it ends (a fresh worker takes its place)."""
    signal.signal(signal.SIGINT, _interrupted)
    try:
        try:
            cap_memory(cap)
            if adopt is not None:
                adopt(folder)
        except Exception as exc:  # noqa: BLE001  the parent names it; a worker that cannot start grades nothing
            conn.send(("failed", f"{type(exc).__name__}: {exc}"))
            sys.exit(1)
        conn.send(("ready", os.getpid()))
        while True:
            try:
                job = conn.recv()
            except (EOFError, OSError):
                return
            if job is None:
                return
            die_if_asked(job)
            exhausted = False
            try:
                conn.send(("done", task(job)))
                continue
            except MemoryError:
                exhausted = True  # sent after the except block, once its traceback's frames are freed
            except Exception as exc:  # noqa: BLE001  the task raised: its outcome, as in concurrent.futures
                try:
                    conn.send(("raised", exc))
                except Exception:  # noqa: BLE001  an exception that does not pickle: its words do
                    conn.send(("raised", RuntimeError(f"{type(exc).__name__}: {exc}")))
            if exhausted:
                conn.send(("memory", None))
                return
    except KeyboardInterrupt:
        sys.exit(130)


class _Worker:
    """The parent's handle on one worker: its process, its end of the pipe, the job it holds."""

    def __init__(self, ctx, cap: int, adopt, folder: str, task):
        self.conn, theirs = ctx.Pipe(duplex=True)
        self.process = ctx.Process(target=_worker, args=(theirs, cap, adopt, folder, task), name="grading-worker")
        self.process.start()
        theirs.close()
        self.ready = False
        self.job: dict | None = None
        self.failed = ""  # why it could not start, where it said so

    def give(self, job: dict) -> bool:
        try:
            self.conn.send(job)
        except OSError:  # it is gone: its death is seen by the loop, the job goes back to the queue
            return False
        self.job = job
        return True

    def stop(self) -> None:
        try:
            self.conn.send(None)
        except OSError:
            pass


def pool_grade(
    todo: Iterable[dict], jobs: int, folder: str, record, adopt=None, cap: int = WORKER_MEMORY_BYTES, task=grade_job
) -> None:
    """Grade ``todo`` (any iterable: each job is made when a worker can take it, ``Feed``) on ``jobs``
    spawned worker processes (each capped at ``cap`` bytes of address space, then started by
    ``adopt(folder)``), ``record``-ing each outcome as it arrives: the Result dict a worker
    returned, or the exception that stands for it (``WorkerDied``: its worker died or ran out of
    memory; or what the task raised). ``task`` grades one job in a worker (tests give a stand-in,
    importable by name). Ctrl-C stops it between waits."""
    with Interrupts() as stop:
        _pool_run(Feed.of(todo), jobs, folder, record, adopt, stop, cap, task)


def _pool_run(queue: Feed, jobs, folder, record, adopt, stop: Interrupts, cap: int, task) -> None:
    ctx = multiprocessing.get_context("spawn")
    workers: list[_Worker] = []
    failures, why = 0, ""  # workers in a row that ended before they took a job
    finished = False
    try:
        while queue or any(w.job is not None for w in workers):
            queue.fill(jobs)  # at most one job ahead for each worker: the rest are not read yet
            wanted = min(jobs, len(queue) + sum(w.job is not None for w in workers))
            while len(workers) < wanted:
                workers.append(_Worker(ctx, cap, adopt, folder, task))
            for w in workers:
                if w.ready and w.job is None and queue:
                    job = queue.popleft()
                    if not w.give(job):
                        queue.appendleft(job)
            ready = wait([w.conn for w in workers] + [w.process.sentinel for w in workers], timeout=INTERRUPT_POLL)
            stop.raise_if_interrupted()  # before a worker the Ctrl-C stopped is recorded as a fault
            for w in [w for w in workers if w.conn in ready or w.process.sentinel in ready]:
                job, outcome, gone = _hear(w, cap)
                if job is not None:
                    failures = 0
                    record(job, outcome)
                if gone:
                    workers.remove(w)
                    w.conn.close()
                    if job is None and not w.ready:  # it never started: no notebook to blame
                        failures += 1
                        why = w.failed or death(w.process.exitcode)
            if failures >= WORKER_START_FAILURES and queue:
                reason = WorkerDied(f"not graded: {failures} grading workers in a row could not start ({why})")
                while queue:
                    record(queue.popleft(), reason)
        finished = True
    except KeyboardInterrupt:
        print(INTERRUPTED, file=sys.stderr)
        raise
    finally:  # interrupted, or ``record`` failed: no worker grades on, none is left behind
        _end(workers, interrupt=not finished)


def _hear(w: _Worker, cap: int) -> tuple[dict | None, object, bool]:
    """What worker ``w`` said or did: (the job it finished or died with, its outcome, whether the
    worker is gone); the job is None where no notebook's outcome is known yet."""
    try:
        while w.conn.poll():
            kind, value = w.conn.recv()
            if kind == "ready":
                w.ready = True
            elif kind == "failed":
                w.failed = value
            else:
                job, w.job = w.job, None
                if kind == "memory":
                    w.process.join()
                    return job, out_of_memory(cap), True
                return job, value, False
    except (EOFError, OSError):
        pass  # it ended (or its pipe broke mid-message): the death below
    if w.process.is_alive():
        return None, None, False
    w.process.join()
    job, w.job = w.job, None
    return job, (died(w.process.exitcode) if job is not None else None), True


def _end(workers: list[_Worker], interrupt: bool) -> None:
    """Stop every worker: each finishes nothing more (``interrupt``: SIGINT stops its notebook),
    ``WORKER_STOP_GRACE`` seconds to end, then killed."""
    for w in workers:
        w.stop()
        if interrupt and w.process.is_alive() and w.process.pid is not None:
            try:
                os.kill(w.process.pid, signal.SIGINT)
            except OSError:
                pass
    deadline = time.monotonic() + WORKER_STOP_GRACE
    for w in workers:
        w.process.join(max(0.0, deadline - time.monotonic()))
        if w.process.is_alive():
            w.process.kill()
            w.process.join()
        w.conn.close()
