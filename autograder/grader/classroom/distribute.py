"""A class graded on the workers of a Dask cluster: ``grade ... --scheduler ADDRESS | local:N``.

Dask's ``distributed`` is the engine (no scheduler, queue or worker protocol of our own):

- ``ADDRESS`` is a running scheduler (``tcp://host:8786``, ``tls://...``) or the path of the JSON
  scheduler file that ``dask scheduler --scheduler-file`` writes; ``local:N`` starts a
  ``LocalCluster`` of N single-threaded worker processes on this machine. A scheduler that cannot
  be reached is a ``SchedulerError`` after ``settings.DASK_CONNECT_TIMEOUT`` seconds, before any lesson is built.
- Each task is one notebook, exactly as ``--jobs`` grades it (``run.grade_job``: the same
  sandboxed checker, limits, proof of execution and emulation) and carries plain data: the
  submission's bytes, the settings, and the lesson's notebooks as one task per lesson that every
  job of that lesson depends on (the scheduler holds a lesson once, not once per student). It
  returns the Result as a dict. Workers need this package installed, bubblewrap, and no shared
  filesystem.
- One notebook per worker process at a time: every task asks for the worker resource
  ``notebook=1`` (``dask worker --nthreads 1 --resources notebook=1``); a cluster whose workers
  do not declare it is refused with that command in the message, rather than left waiting.
- The parent alone records, as results arrive (``as_completed``), through the same function as
  ``--jobs`` (``classrun.record``: journal, gradebook, progress line). Ctrl-C cancels what is
  queued; recorded grades stay and a rerun skips them.
- The parent hands out no more notebooks than the workers have ``notebook`` slots (counted again as
  each result arrives, so workers that join are used from the next result on). Dask would
  otherwise queue the rest on the workers, and a worker's death counts against every notebook
  queued there, not only the one it was grading; and a class of thousands never sits in the
  scheduler's memory. (So Dask's adaptive scaling sees only the notebooks in flight: give the
  cluster a fixed size.)
- Each worker grades under the same memory cap as a ``--jobs`` worker (``WORKER_MEMORY_BYTES`` of
  address space, set by its first notebook: ``pool.cap_memory``); a notebook that makes the worker
  allocate past it is a grader fault, that notebook's alone (``pool.WorkerDied``).
- A worker that dies mid-notebook (killed, out of memory, its machine lost): the scheduler runs
  the notebook again on another worker, up to its ``allowed-failures`` (``settings.DASK_ALLOWED_FAILURES`` for
  ``local:N``; a remote scheduler's own setting, Dask's default 3); a notebook Dask gives up on
  (``KilledWorker``) may only have shared a worker with the one that kills them, so it is graded
  again at the end with nothing beside it. One that kills its workers then too ends as the local
  pool's culprit does: a ``grader-error`` row naming its workers' deaths (``pool.WorkerDied``),
  every classmate graded, regraded by the next run. Losing the scheduler itself stops the run:
  nothing more is recorded, and a rerun resumes.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..core.settings import DASK_ALLOWED_FAILURES, DASK_CONNECT_TIMEOUT, WORKER_MEMORY_BYTES
from .feed import Feed
from .pool import Interrupts, WorkerDied, cap_memory, die_if_asked, out_of_memory

RESOURCE = "notebook"  # the worker resource one notebook holds while it is graded


class SchedulerError(RuntimeError):
    """The cluster cannot be used: unreachable, no such scheduler file, workers without the resource."""


@dataclass
class Cluster:
    """A connected client, and the LocalCluster it owns for ``local:N``."""

    client: object
    address: str
    local: object | None = None
    allowed_failures: int | None = None
    notes: list[str] = field(default_factory=list)

    def close(self) -> None:
        for thing in (self.client, self.local):
            if thing is not None:
                try:
                    thing.close()
                except Exception:  # noqa: BLE001  closing is best effort: the grades are recorded
                    pass


def connect(scheduler: str, quiet: bool = False, timeout: float = DASK_CONNECT_TIMEOUT) -> Cluster:
    """A client of ``scheduler`` (see the module docstring); SchedulerError within ``timeout`` s."""
    import dask
    from distributed import Client, LocalCluster

    for name in ("distributed", "distributed.client", "distributed.core", "distributed.comm"):
        logging.getLogger(name).setLevel(logging.CRITICAL)  # our own messages say what went wrong
    if scheduler.startswith("local:"):
        try:
            n = int(scheduler.removeprefix("local:"))
        except ValueError:
            n = 0
        if n < 1:
            raise SchedulerError(f"--scheduler {scheduler}: local:N needs a number of workers N >= 1")
        with dask.config.set({"distributed.scheduler.allowed-failures": DASK_ALLOWED_FAILURES}):
            local = LocalCluster(
                n_workers=n,
                threads_per_worker=1,
                processes=True,
                resources={RESOURCE: 1},
                dashboard_address=None,
                silence_logs=logging.CRITICAL,
            )
        cluster = Cluster(Client(local, timeout=timeout), local.scheduler_address, local, DASK_ALLOWED_FAILURES)
        cluster.client.run(_leave_interrupts_to_the_parent)
    else:
        address = _address(scheduler)
        try:
            client = Client(address, timeout=timeout)
        except (OSError, TimeoutError) as exc:
            raise SchedulerError(
                f"cannot reach the Dask scheduler at {address} within {timeout:g} s "
                f"({type(exc).__name__}: {exc}). Is `dask scheduler` running there, and "
                "is its port open from this machine?"
            ) from None
        cluster = Cluster(client, address)
        try:
            cluster.allowed_failures = client.run_on_scheduler(_allowed_failures)
        except Exception:  # noqa: BLE001  informational only
            pass
    try:
        _check_workers(cluster)
    except BaseException:
        cluster.close()
        raise
    if not quiet:
        for line in cluster.notes:
            print(line, file=sys.stderr)
    return cluster


def _address(scheduler: str) -> str:
    if "://" in scheduler:
        return scheduler
    path = Path(scheduler)
    if path.is_file():
        try:
            return json.loads(path.read_text())["address"]
        except (ValueError, KeyError, TypeError):
            raise SchedulerError(
                f"--scheduler {scheduler}: not a Dask scheduler file (JSON with an 'address')"
            ) from None
    if ":" in scheduler and not path.exists():  # host:port
        return "tcp://" + scheduler
    raise SchedulerError(f"--scheduler {scheduler}: neither an address (tcp://host:8786), a scheduler file nor local:N")


def _leave_interrupts_to_the_parent() -> None:
    """On a local:N worker (in its event loop, the main thread): Ctrl-C reaches the whole process
    group; the parent handles it and closes the cluster, the workers need not die mid-notebook."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _allowed_failures(dask_scheduler) -> int:
    return dask_scheduler.allowed_failures


def _describe_worker() -> dict:
    """On a worker: what it will grade with."""
    from ..sandbox import launch as sandbox
    from ...common.config import ROOT

    return {"sandbox": sandbox.describe(), "python": sys.version.split()[0], "course": str(ROOT)}


def _check_workers(cluster: Cluster) -> None:
    """Refuse workers that would never take a notebook (no ``notebook`` resource), and say what
    the workers grade with (their sandbox may differ from this machine's)."""
    workers = cluster.client.scheduler_info(n_workers=-1)["workers"]
    if not workers:
        cluster.notes.append(
            f"dask: no worker is connected to {cluster.address} yet; the notebooks "
            "wait for workers started with --resources notebook=1"
        )
        return
    able = [w for w, info in workers.items() if (info.get("resources") or {}).get(RESOURCE, 0) >= 1]
    if not able:
        raise SchedulerError(
            f"none of the {len(workers)} workers of {cluster.address} declares the resource "
            f"'{RESOURCE}', so no notebook would ever start: start them with "
            "`dask worker ADDRESS --nthreads 1 --resources notebook=1` (docs/SCALING.md)"
        )
    described = cluster.client.run(_describe_worker, workers=able)
    kinds = sorted({d["sandbox"] for d in described.values()})
    failures = "?" if cluster.allowed_failures is None else cluster.allowed_failures
    cluster.notes.append(
        f"dask: {len(able)} of {len(workers)} workers take notebooks at {cluster.address} "
        f"(a notebook whose worker dies is run again up to {failures} times)"
    )
    cluster.notes += [f"workers' {kind}" for kind in kinds]


def grade_on_worker(job: dict) -> dict:
    """The task: ``run.grade_job`` on a worker, under the worker's memory cap (a MemoryError there
    is this notebook's ``WorkerDied``). The sandbox keeps the course checkout off the student's
    read-only Python; on a worker that is this worker's own checkout when the parent's path does
    not exist here (no shared filesystem)."""
    from ...common.config import ROOT
    from ..core.observer import plugin
    from ..notebook.grade import grade_job

    if plugin() is not None:  # a worker: its own folder of compiled replays, made when first needed (replay_folder.py)
        plugin().adopt("")
    if not os.path.isdir(job["repository"]):
        job = {**job, "repository": str(ROOT)}
    cap_memory(WORKER_MEMORY_BYTES)  # this worker's own cap, as a --jobs worker's (pool.py)
    die_if_asked(job)
    try:
        return grade_job(job)
    except MemoryError:
        pass  # raised below, once the failed allocation's frames are freed
    raise out_of_memory(WORKER_MEMORY_BYTES)


def _killed_every_worker(allowed_failures: int | None) -> WorkerDied:
    """A notebook whose workers died while grading it, allowed-failures + 1 times among other
    notebooks and as often again alone (Dask does not say how each died)."""
    if allowed_failures is None:
        deaths = "every one"
    else:
        deaths = f"{2 * (allowed_failures + 1)} workers in all, Dask's allowed-failures being {allowed_failures}"
    return WorkerDied(
        "the worker grading this notebook died (killed, out of memory or a crash: Dask does not say), "
        f"and so did every worker that graded it again, alone ({deaths}); a rerun grades it again"
    )


def _count_left(queue: Feed) -> int:
    """How many jobs ``queue`` still holds (each made, then dropped: one at a time)."""
    n = 0
    while queue:
        queue.popleft()
        n += 1
    return n


def _lesson(lesson: dict) -> dict:
    return lesson


def run_on_cluster(
    cluster: Cluster,
    todo: Iterable[dict],
    record: Callable[[dict, object], object],
    task: Callable[[dict], dict] = grade_on_worker,
) -> None:
    """Grade every job of ``todo`` on the cluster's workers; ``record(job, outcome)`` (in this
    process, as each arrives) gets the Result dict, or the exception that stands for it.
    ``todo`` is any iterable: each job is made when a worker slot is free (feed.Feed), so the
    parent holds only the notebooks in flight. ``task`` grades one job on a worker (tests give a
    stand-in)."""
    from dask.base import tokenize
    from distributed import as_completed
    from distributed.client import FutureCancelledError
    from distributed.scheduler import KilledWorker

    client = cluster.client
    lessons = {}

    def lesson_of(job: dict):
        name = job["lesson"]["name"]
        if name not in lessons:  # one small pure task per lesson: recomputed if its worker is lost
            lessons[name] = client.submit(
                _lesson, job["lesson"], key=f"lesson-{name}-{tokenize(job['lesson'])}", pure=True
            )
        return lessons[name]

    queue, futures = Feed.of(todo), {}
    suspects, alone = [], set()  # jobs whose worker died: each is graded again, alone, at the end
    done = as_completed()

    def submit_more():
        slots = sum(
            int((info.get("resources") or {}).get(RESOURCE, 0))
            for info in client.scheduler_info(n_workers=-1).get("workers", {}).values()
        )
        if not queue and suspects and not futures:  # a job that killed workers, or shared one with
            job = suspects.pop(0)  # such a job: now it runs with nothing beside it
            queue.appendleft(job)
            alone.add(id(job))
        while len(futures) < (1 if alone else max(1, slots)) and queue:
            job = queue.popleft()
            fut = client.submit(
                task,
                {**job, "lesson": lesson_of(job)},
                pure=False,
                resources={RESOURCE: 1},
                retries=0,
                key=f"grade-{tokenize(job['student'], job['lesson']['name'], job['digest'])}",
            )
            futures[fut] = job
            done.add(fut)

    lost = 0
    with Interrupts() as stop:  # Ctrl-C noted, raised by the loop as each notebook arrives (pool.py)
        try:
            submit_more()
            for fut in done:
                stop.raise_if_interrupted()
                job = futures.pop(fut)
                try:
                    outcome = fut.result()
                except KilledWorker:
                    if id(job) not in alone:  # perhaps only a neighbour of the job that kills workers
                        fut.release()
                        suspects.append(job)
                        submit_more()
                        continue
                    outcome = _killed_every_worker(cluster.allowed_failures)
                except FutureCancelledError:  # the scheduler is gone: record nothing, a rerun resumes
                    lost += 1
                    continue
                except Exception as exc:  # noqa: BLE001  the task itself raised, as in --jobs
                    outcome = exc
                fut.release()
                submit_more()  # the freed worker gets its next notebook before the gradebook write
                record(job, outcome)
        except KeyboardInterrupt:
            from .gradebook import INTERRUPTED

            print(INTERRUPTED, file=sys.stderr)
            client.cancel(list(futures))
            raise
    if lost or queue or suspects:
        missing = lost + len(suspects) + _count_left(queue)
        raise SchedulerError(
            f"lost the Dask scheduler at {cluster.address}: {missing} notebooks were not "
            "graded; every recorded grade is kept, rerun the same command to grade the rest"
        )
