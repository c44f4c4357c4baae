"""The trusted checker: one process per notebook, where every point is decided.

    python -m autograder.grader.checker.main < job.frame   (watch.py starts it through spawn.py: a fork of a
                                                         warm zygote; a CheckerJob frame in, events out)

It runs the lesson's setup, the instructor's definitions and then each test cell, in its own
interpreter, which the student's code cannot reach: the exercises' names are ``StudentFunction``
stand-ins that call the sandboxed student process (remote.py) and get plain data back. A test
passes when its cell runs to the end without an exception and the student's process neither timed
out nor died meanwhile.

One student process, in its own sandbox and work folder, answers every test; the visible tests
run first, then the hidden ones (plan.run_order): by the time a hidden test's inputs reach the
student's code, every message a student will ever read (the visible tests') has been written.

It is started with ``python -I`` (no current folder on sys.path, no PYTHON* variables), its home,
working folder and configuration outside both students' folders: nothing a student's code writes
is imported or read as configuration here. Its events (events.py, one wire frame each) go out on
the stdout it was started with; anything printed, even at the C level, goes to stderr.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import io
import os
import signal
import sys
import time
from pathlib import Path

from ..sandbox import evidence, launch as sandbox
from ..core import events, observer, wire
from ..core.faults import RestartsUsed, SandboxFault, StudentDied, StudentTimeout, first_line
from ..core.model import CellState, CheckerJob, Happened, ProcessEvent, TestRecord
from . import choices, integrity
from .compile_events import memo_bytes
from .failure import failure_site
from .names import shadowed
from .remote import Student
from .standins import StudentFunction
from ..core.settings import ALARM_GRACE, LOG_TAIL_LINES, NEAR_MEMORY_CAP, PROBE_SECONDS, Budget, Settings
from ..sandbox.workdir import empty, manifest, over_limit
from ...chip import emulation


class CappedText(io.TextIOBase):
    """A stdout that keeps the first ``limit`` characters."""

    def __init__(self, limit: int):
        self.limit, self.parts, self.size = limit, [], 0

    def writable(self) -> bool:
        return True

    def write(self, text) -> int:
        text = str(text)
        if self.size < self.limit:
            self.parts.append(text[: self.limit - self.size])
            self.size += len(self.parts[-1])
        return len(text)

    def getvalue(self) -> str:
        return "".join(self.parts)


class CellTimeout(BaseException):
    """The checker's own timer: a test's code (parsing what a student's code wrote, say) ran past
    the cell's time. Parsing time counts against the cell like the student's calls."""


class Checker:
    def __init__(self, job: CheckerJob, emit):
        self.job, self.emit = job, emit
        self.settings = s = Settings.from_dict(job.settings)
        self.limits = s.limits
        self.caps_seen: dict[ProcessEvent, set[str]] = {}  # the answers the host saw reach each cap (_caps_shown)
        self.files_at_cap: set = set()  # the files at the file-size cap already taken as a trace of it
        self.unprobed: tuple | None = None  # the state of a test whose probe after it got no answer (probe)
        self.budget = Budget(job.notebook_seconds, s.cell_timeout)
        self.home = Path(job.checker_home)
        self.ns: dict = {"__name__": "__main__"}
        prelude = [emulation.source()] if s.emulation != "none" else []
        cells = [[job.setup_label, job.setup]] + job.student_cells
        refused = sorted(integrity.REFUSED_ATTRIBUTES)  # getattr's rule (student_side.guarded_builtins), and
        text = sorted(integrity.REFUSED_ATTRIBUTES | integrity.REFUSED_NAMES)  # run-time source's (audit_rules)
        init = {"op": "init", "prelude": prelude, "cells": cells, "names": job.contract, "refused": refused}
        init |= {"allowed": sorted(integrity.PUBLIC_UNDERSCORED), "refused_text": text}
        init |= {"refused_paths": list(integrity.REFUSED_PATHS), "compile_memo": memo_bytes(job.tests)}
        self.workdir = Path(job.workdir)
        self.inputs = Path(job.inputs)
        # what watches the checks without deciding them: diagnosis where the job carries its payload
        self.observer = observer.for_job(job)
        self.student = Student(
            self._launch,
            init,
            self.budget,
            s.max_restarts,
            contract=job.contract,
            watch=self._work_folder_over,
            inputs_digest=lambda: manifest(self.inputs),
            on_restart=lambda: self.emit(events.Restart()),  # watch.py's watchdog waits longer
            observer=self.observer,
        )
        self.max_output = s.max_output_chars
        self.site: tuple[int, str] = (0, "")  # where the last cell's exception came from (run_cell)

    def _work_folder_over(self) -> Happened | None:
        try:
            pids = self.student.pids()  # what they hold open counts too (workdir.held_open)
            over = over_limit(self.workdir, self.limits.work_files, self.limits.work_bytes, pids)
            return Happened(over) if over is not None else None
        except (OSError, RecursionError) as exc:  # measured as over: never a grader crash
            return Happened(ProcessEvent.FILE_LIMIT, type(exc).__name__)

    def _caps_shown(self, ename: str, number: int | None, peak_before: int) -> list[Happened]:
        """The per-process caps a test's exception came from, as the host sees them
        (sandbox/evidence.py): a MemoryError or an EFBIG is only where to look, never the proof
        (the student can raise either). The address-space cap: the processes' peak address space
        rose during this test to within NEAR_MEMORY_CAP of it. The file-size cap: a file of the
        cap's size written since the last look. Once the host has seen a cap in this notebook, the
        same exception from that answer later is that cap's (a second refusal at the same peak leaves
        no new trace); from another answer, it needs its own trace."""
        lim, pids = self.limits, self.student.pids()
        answer, hit = self.student.raised_in, []
        seen = self.caps_seen if answer else {}  # no answer of the student's raised: nothing to remember
        if ename == "MemoryError" and lim.memory_bytes:
            peak = evidence.address_space_peak(pids)
            near = peak > peak_before and peak >= lim.memory_bytes * (1 - NEAR_MEMORY_CAP)
            if near or answer in seen.get(ProcessEvent.MEMORY_LIMIT, ()):
                hit.append(Happened(ProcessEvent.MEMORY_LIMIT))
        if number == errno.EFBIG:
            at_cap = evidence.files_at_least(self.workdir, lim.file_bytes, pids)
            written, self.files_at_cap = bool(at_cap - self.files_at_cap), self.files_at_cap | at_cap
            if written or answer in seen.get(ProcessEvent.FILE_SIZE_LIMIT, ()):
                hit.append(Happened(ProcessEvent.FILE_SIZE_LIMIT))
        for h in hit if answer else ():
            self.caps_seen.setdefault(h.kind, set()).add(answer)
        return hit

    def _launch(self):
        launch = sandbox.prepare(
            Path(self.job.job_dir) / "student",
            self.workdir,
            self.limits,
            Path(self.job.repository),
            self.settings.emulation,
            self.inputs,
            self.job.reading,
        )
        if self.job.namespaced and not launch.namespaced:  # the worker's probe and this one's differ
            raise OSError("bubblewrap works in the grader's worker but not in this notebook's checker")
        self.observer.launched(launch)  # OSError where its payload needs what the launch lacks
        return launch

    def run_cell(self, label: str, code: str) -> tuple[CellState, str, str, str, int | None]:
        """(state, ename, evalue, output, errno) of running ``code`` in the checker's namespace: the
        state from what it raised (its type) and the ``ProcessEvent`` kinds meanwhile. Where it
        raised, ``self.site`` holds where from (failure.failure_site: the rule it broke is decided
        from it)."""
        out = CappedText(self.max_output)
        self.site = (0, "")
        self.student.events = []
        self.observer.start_cell()  # this cell's calls only
        state, ename, evalue, number = CellState.OK, "", "", None
        in_call = []

        def alarm(signum, frame):
            left = self.budget.left()
            if left + ALARM_GRACE > 0.5:  # a restart paused the cell's clock: its deadline moved on
                signal.setitimer(signal.ITIMER_REAL, left + ALARM_GRACE)
                return
            in_call.append(self.student.depth > 0)
            raise CellTimeout("the test ran past its time in the checker")

        previous = signal.signal(signal.SIGALRM, alarm)
        signal.setitimer(signal.ITIMER_REAL, max(self.budget.left(), 0.0) + ALARM_GRACE)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                exec(compile(code, f"<{label}>", "exec"), self.ns)
        except CellTimeout as exc:
            state, ename, evalue = CellState.TIMEOUT, "TimeoutError", first_line(exc)
            if any(in_call):  # stopped inside a call: the channel is mid-message, start afresh
                self.student.stop(Happened(ProcessEvent.TIMED_OUT))
        except StudentTimeout as exc:
            state, ename, evalue = CellState.TIMEOUT, "TimeoutError", first_line(exc)
        except RestartsUsed as exc:
            state, ename, evalue = CellState.NOT_RUN, "StudentDied", first_line(exc)
        except StudentDied as exc:
            state, ename, evalue = CellState.DIED, "StudentDied", first_line(exc)
        except BaseException as exc:  # noqa: BLE001  a failing check is data
            state, ename, evalue = CellState.ERROR, type(exc).__name__, first_line(exc)
            self.site = failure_site(exc, f"<{label}>")
            number = exc.errno if isinstance(exc, OSError) and type(exc.errno) is int else None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        kinds = [e.kind for e in self.student.events]
        if state in (CellState.OK, CellState.ERROR) and ProcessEvent.RESTARTS_USED in kinds:
            state = CellState.NOT_RUN
        elif state in (CellState.OK, CellState.ERROR) and any(k.timed_out for k in kinds):
            state = CellState.TIMEOUT
        elif state in (CellState.OK, CellState.ERROR) and kinds:
            state = CellState.DIED
        return state, ename, evalue, out.getvalue(), number

    def probe(self, when: str) -> str:
        """Why the student's process no longer computes as the chip ("" if it does, or nothing is
        emulated or alive): integrity.py's probe, with a time of its own. No answer is no tampering
        (a loaded machine must not zero an honest notebook): the test before it is a timeout or death."""
        if self.settings.emulation != "tpu" or not self.student.alive():
            return ""
        probe, why = integrity.Probe(), ""
        try:
            reply = self.student.exchange(probe.message(), Budget(PROBE_SECONDS, PROBE_SECONDS))
            if reply.get("op") == "raise" and reply.get("type") == "MemoryError":  # its memory held near the
                self.student.stop()  # cap by its own answers: no verdict, a fresh process for the next test
                return ""
            why = probe.differs(reply)
        except (StudentDied, StudentTimeout) as exc:
            self.student.stop()  # its next test starts in a fresh process
            self.unprobed = (CellState.TIMEOUT if isinstance(exc, StudentTimeout) else CellState.DIED,)
        except Exception as exc:  # noqa: BLE001  the student's exception, or an answer that is no data
            why = f"it raised {type(exc).__name__}: {first_line(exc)[:200]}"
        return f"the TPU emulation was undone in the student's process (probed {when}: {why})" if why else ""

    def main(self) -> None:
        job = self.job
        os.chdir(self.home)
        if self.settings.emulation != "none":
            exec(compile(emulation.source(), "<emulation>", "exec"), {"__name__": "__emulation__"})
        import tempfile

        # A test's temporary files (what it computes its expectations from) are the checker's, in a
        # folder the student's process sees read-only; a test that hands the student a folder to
        # write in makes it below GRADING_OUTPUT_ROOT, the student's own (docs/AUTHORING.md). Process
        # state on purpose: the checker is one notebook's process, and tests call tempfile themselves.
        tempfile.tempdir = str(self.inputs)
        self.ns["GRADING_OUTPUT_ROOT"] = str(self.workdir / "tmp")
        try:  # it starts while the checker runs its setup
            self.student.start()
        except (OSError, wire.WireError) as exc:  # the sandbox's command could not even be run, or its
            # first message could not be sent: the grader's fault
            self.emit(events.Ready(grader_fault=f"could not start the student's process: {exc}"))
            self.emit(events.Done())
            return
        setup_state, _, setup_error, _, _ = self.run_cell("setup", job.setup)
        for label, code in job.checker_cells:
            self.run_cell(label, code)
        self.observer.lesson_ready(self.ns, setup_state == CellState.OK)  # its state before any test
        os.chdir(self.home)
        base_env = dict(os.environ)  # a test's changes to it are sent with each call
        ready_error = ""
        self.budget.start_cell()
        try:
            if self.student.proc is None:
                self.student.ensure()
            else:
                self.student.wait_ready()
        except SandboxFault as exc:  # nothing of the student's ran: no grade can be given
            self.student.stop()
            self.emit(events.Ready(grader_fault=first_line(exc)))
            self.emit(events.Done(list(self.student.log)[-LOG_TAIL_LINES:]))
            return
        except BaseException as exc:  # noqa: BLE001  a broken or forged first message included
            ready_error = first_line(exc) or type(exc).__name__
            self.student.stop()
        defined = self.student.defined  # the exercises only (remote.contract_names): never another name
        clash = shadowed(job.contract, self.ns)
        if clash:  # the instructor's plan would put a stand-in where the tests expect their own names
            self.student.stop()
            self.emit(events.Ready(grader_fault=f"an exercise's name is a builtin or a setup name: {clash}"))
            self.emit(events.Done())
            return
        # a process that did not start answers nothing: every exercise then stands for a call that
        # tries to restart it, and ends as "died" (an error row), never as a silent NameError
        for name in defined if not ready_error else job.contract:
            self.ns[name] = StudentFunction(self.student, name, self.ns, base_env)
        self.ns["GRADING_SEED"] = int(job.seed or 0)  # hidden tests draw fresh inputs from it
        setup_error = "" if setup_state == CellState.OK else setup_error
        forged = list(self.student.forged)
        tampered = self.probe("after the definitions ran")
        self.emit(
            events.Ready(
                defined, self.student.definition_errors, setup_error, ready_error, forged=forged, tampered=tampered
            )
        )
        last_visible = max((i for i, t in enumerate(job.tests) if not t.get("hidden")), default=-1)
        for index, test in enumerate(job.tests):
            if index < job.start_at:
                continue
            self.emit(events.Start(index))
            self.budget.start_cell()
            t0 = time.monotonic()
            peak_before = evidence.address_space_peak(self.student.pids())
            self.student.raised_in, self.site = "", (0, "")
            if self.budget.left() <= 0:
                state, ename, evalue, output, number = CellState.TIMEOUT, "TimeoutError", "", "", None
                evalue = "the notebook's time was used up"
            else:
                state, ename, evalue, output, number = self.run_cell(test["grade_id"], test["source"])
            self.student.check_limits()  # a cap hit by a child the test never saw die
            happened = list(self.student.events)
            happened += self._caps_shown(ename, number, peak_before)
            over = self._work_folder_over()
            if over is not None:  # the same as when the watch stops a call: the test dies, with the limit named
                self.student.stop(over)
                happened.append(over)
                state = CellState.DIED if state in (CellState.OK, CellState.ERROR) else state
                empty(self.workdir)  # the flood goes with the process: later tests start clean
            seconds = round(time.monotonic() - t0, 3)
            student = list(dict.fromkeys(happened))
            observed = self.observer.wants(state, ename, student)
            wired = [h.to_wire() for h in student]
            line, raised_by = self.site
            # the probe: before the hidden tests (after the last visible one) and after each of them
            self.unprobed = None
            probed = self.probe(f"after {test['grade_id']}") if test.get("hidden") or index == last_visible else ""
            if self.unprobed and state in (CellState.OK, CellState.ERROR):  # not known to have run as the chip
                state, ename, evalue = self.unprobed[0], "TimeoutError", "the emulation's probe got no answer"
            met = choices.asked(self.student, TestRecord(test["grade_id"], state, ename), self.settings.emulation)
            tested = events.Tested(index, state, ename, evalue, seconds, output, wired, observed, line, raised_by)
            self.emit(dataclasses.replace(tested, tampered=probed, choices=met))
            if observed:  # after its record: nothing here changes the test's result
                for event in self.observer.after_test(index, bool(test.get("hidden")), self.budget.left()):
                    self.emit(event)
        if job.variants:  # authoring only (lessoncheck): never in a grading run
            from .candidates import run_variant

            for k, variant in enumerate(job.variants):
                self.emit(run_variant(self, k, variant))
        log = list(self.student.log)
        self.student.stop()
        self.emit(events.Done(log[-LOG_TAIL_LINES:], forged=list(self.student.forged)))  # restarts' too


def main() -> None:
    """The checker's process: its job is one wire frame on stdin, its events wire frames on the
    stdout it started with (anything printed, even at the C level, goes to stderr instead)."""
    out = os.dup(1)
    os.dup2(2, 1)
    stdin = sys.stdin.buffer
    job = wire.parse(stdin.read(wire.frame_length(stdin.read(wire.HEADER_SIZE), cap=wire.MAX_FRAME)))
    Checker(CheckerJob.from_dict(job), lambda event: wire.write_frame(out, events.to_frame(event))).main()


if __name__ == "__main__":
    main()
