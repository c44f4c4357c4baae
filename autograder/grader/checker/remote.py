"""The trusted side of the channel: one sandboxed student process, its frames, calls and callbacks (standins.py
makes these calls look like functions; ``StudentObject`` stands for a function the student's process lends
back). A call sends the arguments (plain data; any other object, such as a callable a test hands to
``benchmark``, is lent as a handle whose calls come back here) and the checker's state it depends on (working
directory, environment changes, ``jax.default_matmul_precision``, a test's planned answers, standins.lends),
then serves callbacks until plain data comes back (with what the call compiled, compile_events.py), decoded
into the checker's own types. A call that outlives the cell, a dead process or a broken message ends the call
(``StudentTimeout``/``StudentDied``, faults.py); the process is restarted, definitions replayed, while
restarts and the notebook's time last (a restart's own time: settings.Budget.restart)."""

from __future__ import annotations

import collections
import contextlib
import os
import select
import subprocess
import threading
import time

import numpy as np

from ..core import wire
from ..sandbox import processes
from .compile_events import compile_events
from ..core.faults import RestartsUsed, SandboxFault, StudentDied, StudentTimeout, rebuilt_exception
from ..core.model import Happened, ProcessEvent
from ..core.observer import Observer
from .names import contract_names
from .student_object import StudentObject
from ..core.settings import FORGED_NAMES, STUDENT_LOG_LINES, WATCH_SECONDS, Budget


# What a student's code may read on an object the checker lent it: a method the contract calls on results
# (jax.block_until_ready); anything else (frames, __globals__, a jitted function's .trace) walks the checker's.
LENT_METHODS = frozenset({"block_until_ready"})


class Student:
    """One sandboxed student process at a time, restarted on demand."""

    def __init__(
        self,
        launch_factory,
        init_message: dict,
        budget: Budget,
        max_restarts: int,
        log_lines: int = STUDENT_LOG_LINES,
        *,
        contract=(),
        watch=None,
        inputs_digest=None,
        on_restart=None,
        observer: Observer | None = None,
    ):
        self.launch_factory, self.init_message = launch_factory, init_message
        self.budget, self.max_restarts = budget, max_restarts
        self.proc, self.launch, self.starts = None, None, 0  # subprocess.Popen, sandbox.Launch, how many started
        self.defined, self.definition_errors = [], []  # the exercises it defined; [label, type, message]
        self.events: list[Happened] = []  # what happened to the process during the current cell
        self.raised_in = ""  # the answer whose call raised last in the current cell (standins.py)
        self.log = collections.deque(maxlen=log_lines)
        self.handles, self.depth = {}, 0  # what the current call lent it, by number; calls in progress
        self.contract: list[str] = list(contract)  # the lesson's exercises: the only names the checker binds
        self.forged: list[str] = []  # what a ready message named beyond them (an attack on record)
        self.watch = watch or (lambda: None)  # called twice a second while it runs: a Happened to stop it (None: go on)
        self.inputs_digest = inputs_digest  # () -> the digest of the checker's inputs (standins checks it)
        self.compiles: list[tuple[str, float]] = []  # what the last call that returned compiled
        self.on_restart = on_restart or (lambda: None)  # told before each restart, which has a cell's time of its own
        self.observer = observer or Observer()  # what watches the calls without deciding them (observer.py)

    # -- process ------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the process and send it its definitions (does not wait for them). A first message
        over the wire's cap is wire.WireError, before any process starts: the plan bounds the student's
        code (MAX_KEPT_CODE_BYTES), so it is the grader's own fault, never "the student's process died"."""
        wire.dumps(self.init_message)
        self.launch = self.launch_factory()
        self.proc = subprocess.Popen(
            self.launch.command(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=self.launch.env,
            close_fds=True,
            cwd=self.launch.env["HOME"],
        )
        self.starts += 1
        threading.Thread(target=self._drain, args=(self.proc.stderr,), daemon=True).start()
        with contextlib.suppress(StudentDied):  # it died before reading: wait_ready finds no hello
            self._send(self.init_message)

    def _drain(self, stream) -> None:
        for line in iter(lambda: stream.readline(4096), b""):  # bounded: a line without end cannot fill memory
            self.log.append(line.decode("utf-8", "replace").rstrip()[:300])

    def wait_ready(self) -> None:
        try:
            hello = self._receive() if self.proc is not None else {}
        except StudentDied:
            hello = {}
        if hello.get("op") != "hello":
            self.stop()
            if self.starts == 1:  # nothing of the student's has run yet in this notebook
                tail = ": " + " | ".join(list(self.log)[-3:]) if self.log else ""
                raise SandboxFault(f"the student's process could not start in the sandbox{tail}")
            raise StudentDied("the student's process did not start")
        reply = self._receive()
        self.freeze(True)
        if reply.get("op") != "ready":
            raise StudentDied("the student's process did not start")
        self.defined, forged = contract_names(reply.get("defined"), self.contract)
        self.forged = list(dict.fromkeys(self.forged + forged))[:FORGED_NAMES]
        errors = reply.get("errors")
        self.definition_errors = (
            [[str(x)[:300] for x in e] for e in errors if isinstance(e, list)][:20] if isinstance(errors, list) else []
        )

    def check_limits(self) -> None:
        """The cgroup's caps hit since the last look (a child OOM-killed, the process cap), as
        events of the test running now."""
        if self.launch is not None and self.launch.cgroup is not None:
            self.events.extend(Happened(kind) for kind in self.launch.cgroup.limits_hit())

    def pids(self) -> list[int]:
        """The student's processes, as host pids (sandbox/processes.py)."""
        return processes.pids(self.launch, self.proc)

    def hand_over(self) -> None:
        """Before a test's call: what the checker made for the student since, the student's
        (sandbox/owner.py; the fallback as root only)."""
        if self.launch is not None:
            self.launch.hand_over()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self, why: Happened | None = None) -> None:
        if why is not None:
            self.events.append(why)
        self.check_limits()
        if self.proc is not None:
            processes.end(self.launch, self.proc)  # every process it left, whatever session it made
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
            for stream in (self.proc.stdin, self.proc.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
            self.proc = None
        if self.launch is not None and self.launch.cgroup is not None:
            self.launch.cgroup.remove()
        self.launch = None

    def ensure(self) -> None:
        """A live, defined process for the next call, or StudentDied."""
        if self.alive():
            return
        # recorded as an event too: a test that catches the exception still cannot pass
        if self.starts > self.max_restarts:
            why = Happened(ProcessEvent.RESTARTS_USED, f"{self.max_restarts} restarts used")
            self.events.append(why)
            raise RestartsUsed(why.text)
        if self.budget.left() <= 1:
            self.events.append(Happened(ProcessEvent.NO_TIME_TO_RESTART))
            raise StudentTimeout("no time left to restart the student's process")
        self.stop()
        self.on_restart()
        with self.budget.restart():
            self.start()
            self.wait_ready()

    def define(self, cells: list) -> list:
        """More definitions in the live process, kept for its restarts too; errors as lists."""
        self.init_message = {**self.init_message, "cells": self.init_message["cells"] + cells}
        self.ensure()
        reply = self.exchange({"op": "define", "cells": cells})
        errors = reply.get("errors") if reply.get("op") == "defined" else None
        return errors if isinstance(errors, list) else []

    def exchange(self, message: dict, budget: Budget | None = None) -> dict:
        """One message to the live process and its reply, outside any call (more definitions; the
        emulation's probe, integrity.py, within a ``budget`` of its own: never the test's time)."""
        kept, self.budget = self.budget, budget or self.budget
        try:
            self.freeze(False)
            self._send(message)
            return self._receive()
        finally:
            self.budget = kept
            self.freeze(True)

    # -- frames ---------------------------------------------------------------------------------
    def _send(self, message: dict) -> None:
        try:
            wire.write_frame(self.proc.stdin.fileno(), message)
        except (OSError, ValueError, AttributeError):
            self.stop(Happened(ProcessEvent.ENDED))
            raise StudentDied("the student's process ended") from None

    def _read_exact(self, n: int) -> bytes:
        fd = self.proc.stdout.fileno()
        chunks, left = [], n
        watched = time.monotonic()
        while left:
            wait = self.budget.left()
            if wait <= 0:
                self.stop(Happened(ProcessEvent.TIMED_OUT))
                raise StudentTimeout("timed out")
            ready, _, _ = select.select([fd], [], [], min(wait, WATCH_SECONDS))
            if time.monotonic() - watched >= WATCH_SECONDS:
                watched = time.monotonic()
                processes.tend(self.launch, self.proc)
                why = self.watch()
                if why is not None:
                    self.stop(why)
                    raise StudentDied(why.text)
            if not ready:
                continue
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                code = self.proc.poll() if self.proc else None
                self.stop(Happened(ProcessEvent.DIED, f"exit {code}" if code is not None else ""))
                raise StudentDied("the student's process died")
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)

    def _receive(self) -> dict:
        try:
            n = wire.frame_length(self._read_exact(wire.HEADER_SIZE))
            return wire.parse(self._read_exact(n))
        except wire.WireError as exc:
            self.stop(Happened(ProcessEvent.BROKEN_MESSAGE, str(exc)))
            raise StudentDied(f"broken message: {exc}") from None

    # -- calls ----------------------------------------------------------------------------------
    def _lend(self, obj) -> dict:
        handle = len(self.handles) + 1
        self.handles[handle] = obj
        return {"$": "handle", "id": handle}

    def _lent(self, handle: int):
        if handle not in self.handles:
            raise wire.WireError("a handle the checker never lent")
        return self.handles[handle]

    def _unlent(self, obj):
        return {"$": "lent", "id": obj.handle} if type(obj) is StudentObject and obj.student is self else None

    def freeze(self, frozen: bool) -> None:
        """Between calls (and while a callback runs checker code) the student's processes are
        stopped: the checker's own file writes in the shared folders cannot be raced."""
        processes.freeze(self.launch, self.proc, frozen)

    def call(self, name: str | int, args: tuple, kwargs: dict, ctx: dict):
        """Call the student's function ``name`` (or, given an int, an object its process lent)."""
        self.ensure()
        encode = wire.Encoder(lend=self._lend, unlent=self._unlent)
        decode = wire.Decoder(handles={"handle": self._lent, "lent": lambda h: StudentObject(self, h)})
        mutable = [
            i for i, a in enumerate(args) if type(a) is list or (isinstance(a, np.ndarray) and a.flags.writeable)
        ]
        self.depth += 1
        try:
            target = {"handle": name} if isinstance(name, int) else {"name": name}
            message = {
                "op": "call",
                **target,
                "args": encode(list(args)),
                "kwargs": encode(dict(kwargs)),
                "ctx": {**ctx, "bind": {k: encode(v) for k, v in ctx.get("bind", {}).items()}},
                "mutable": mutable,
            }
            self.freeze(False)
            self._send(message)
            reply = self._serve(encode, decode)
        finally:
            self.depth -= 1
            if self.depth == 0:
                self.handles.clear()
            self.freeze(True)  # back in the checker's code, at any depth
        return reply

    def _serve(self, encode, decode):
        """Answer the student's callbacks until its call returns or raises."""
        while True:
            message = self._receive()
            op = message.get("op")
            if op == "return":
                try:
                    value = decode(message.get("value"))
                    after = [(i, decode(v)) for i, v in message.get("after") or []]
                except (wire.WireError, TypeError, ValueError) as exc:
                    raise TypeError(f"the value returned cannot be graded: {exc}") from None
                self.compiles = compile_events(message.get("compiles"))
                return value, after
            if op == "raise":
                self.compiles = []
                raise rebuilt_exception(message)
            if op == "callback":
                self._answer_callback(message, encode, decode)
                continue
            self.stop(Happened(ProcessEvent.UNEXPECTED_MESSAGE))
            raise StudentDied("unexpected message")

    def _answer_callback(self, message: dict, encode, decode) -> None:
        self.freeze(True)  # the checker's code runs: nothing of the student's does meanwhile
        try:
            target = self._lent(message.get("id"))
            attr = message.get("attr")
            if attr is None:
                args = decode(message.get("args") or [])
                kwargs = decode(message.get("kwargs") or {"$": "dict", "v": []})
                if type(args) is not list or type(kwargs) is not dict or not all(type(k) is str for k in kwargs):
                    raise TypeError("bad callback arguments")
                planned = getattr(type(target), "planned_answer", None)
                if callable(planned):  # a test's planned answers: only the inputs it listed
                    found, result = planned(target, tuple(args), dict(kwargs))
                    if not found:  # the student's own function answers this one (student_side)
                        self.freeze(False)
                        self._send({"op": "unplanned"})
                        return
                else:
                    result = target(*args, **kwargs)
            else:  # only the methods a lent result is lent for: never a walk through its attributes
                if attr not in LENT_METHODS or not callable(getattr(type(target), attr, None)):
                    raise AttributeError(str(attr)[:50])
                result = getattr(target, attr)
            reply = {"op": "result", "value": encode(result)}
        except (StudentTimeout, StudentDied):
            raise
        except Exception as exc:  # noqa: BLE001  the student sees the type and message only
            reply = {"op": "raise", "type": type(exc).__name__, "message": str(exc)[:500]}
        self.freeze(False)
        try:
            self._send(reply)
        except wire.WireError as exc:  # a result over the channel's cap; nothing of it was written
            self._send({"op": "raise", "type": "ValueError", "message": f"the result cannot be sent: {exc}"})
