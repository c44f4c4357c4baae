"""Diagnosis, in the trusted checker: which known mistake a failed check's calls behave like.

When a test fails on the student's answer (not a timeout, a limit or a death: those are not
graded), each function it called (recording.Recorder: the outermost calls, plain data) is replayed
here on the reference and on each of its known wrong answers (solutions/<lesson>/mistakes.py). A
mistake MATCHES when, on every call, its result is the student's (compare.same) and it differs
from the reference on at least one call; matches are named most specific first (the fewest calls
where it agrees with the reference), several joined by "or". Nothing matches: nothing is said.
A function's first diagnosis replays the reference first: outcomes exactly its own on every call
replay no mistake, else a mistake is tried first where the student's outcome is not the reference's.
A later one replays the few candidates left first, the reference only as far as a match needs.

What runs where:
- The mistakes and the references run in a namespace of their own, built from the lesson's setup,
  the instructor's definitions and the reference answers (the source notebook's answer cells), in
  the checker's process, under the same precision emulation. A mistake's calls to other exercises
  reach the references, never the student's stand-ins; the owner's ``replaying`` makes any call
  to the student's process raise while a replay runs (plugin.Diagnosis.call_allowed).
- Only checker-owned inputs are read: a call whose paths reach the student's work folder is not
  recorded, the files a call named are re-digested before its replay, and while a replay runs an
  audit hook refuses every write and every read inside the student's folder.
- Time: at most settings.DIAGNOSIS_SECONDS of the checker's CPU a failed test, and
  DIAGNOSIS_CALL_SECONDS for one answer on one call (SIGPROF): a busy machine, which stretches the
  wall clock and not a process's CPU time, names the same mistakes. Wall time is bounded too
  (SIGALRM): DIAGNOSIS_WALL_FACTOR times those budgets at most (a replay that sleeps), and never
  past the test's own limit less DIAGNOSIS_MARGIN.
  A mistake that hangs, returns something that is not plain data, or raises where the student's
  call returned, does not match; where the student's call raised, a match raises the same
  exception type with the same message (what the student's process sent back).
- Never diagnosed: autograder.common.mistakes.NOT_DIAGNOSED (timing, side effects). TIMINGS (lesson 05's
  policy_table's median_ms) are compared by kind only; TIMERS (lesson 05's benchmark) answer
  replays with zeros instead of timing; NUMBERS_BY_VALUE functions' numbers are compared by value
  whatever their type, and PHRASES keys' labels by the phrases the hidden test reads in them
  (compare.as_compared).
"""

from __future__ import annotations

import contextlib
import io
import os
import resource
import signal
import time

from ..sandbox.guard import guarded
from .replay_cache import kept
from .replayed import Exchange
from .compare import agrees, as_compared, differs
from .recording import Call, Unreplayable, described, path_digest, plain_copy
from ..checker.standins import StudentFunction
from ..core.settings import (
    DIAGNOSIS_CALL_SECONDS,
    DIAGNOSIS_MARGIN,
    DIAGNOSIS_MEMORY_BYTES,
    DIAGNOSIS_SECONDS,
    DIAGNOSIS_WALL_FACTOR,
)

UNFINISHED = ("unfinished", None)  # it ran past its time (or the diagnosis's budget ended first)


class ReplayTimeout(BaseException):
    """One answer ran past its time on one call."""


@contextlib.contextmanager
def memory_capped(extra: int = DIAGNOSIS_MEMORY_BYTES):
    """While a replay runs, the process's address space may grow by ``extra`` bytes at most (a soft
    RLIMIT_AS, put back after): an allocation past it is a MemoryError in the replay, so that
    answer does not match, instead of gigabytes and minutes of the trusted checker's."""
    cap, old = None, None
    try:
        old = resource.getrlimit(resource.RLIMIT_AS)
        with open("/proc/self/statm") as f:
            cap = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE") + extra
        soft, hard = old
        if (soft != resource.RLIM_INFINITY and soft <= cap) or (hard != resource.RLIM_INFINITY and hard < cap):
            cap = None  # already capped tighter than this
        else:
            resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (OSError, ValueError):  # no /proc: no cap beyond the checker's own
        cap = None
    try:
        yield
    finally:
        if cap is not None:
            resource.setrlimit(resource.RLIMIT_AS, old)


def _alarm(signum, frame):
    raise ReplayTimeout("ran past its CPU time" if signum == signal.SIGPROF else "ran past its wall time")


class Diagnoser:
    """The checker's diagnosis: ``base`` (the checker's namespace after the lesson's setup, set
    before the first test) and ``cells`` (label, code: the instructor's definitions and the
    reference answers) build the trusted namespace; ``mistakes`` are dicts with ``key``,
    ``function``, ``source`` and ``timings``, in the library's order. ``known``: outcomes other
    checkers of this worker computed, taken instead of replaying; with ``share``, the "ok" outcomes
    this one computes go to the worker (``take_fresh``; replayed.Exchange)."""

    def __init__(
        self,
        cells: list,
        mistakes: list[dict],
        student_folder: str,
        owner=None,
        base: dict | None = None,
        known: list | None = None,
        share: bool = False,
    ):
        # owner: the observer whose ``replaying`` stops every call to the student's process (plugin.Diagnosis)
        self.cells, self.student_folder, self.owner = cells, student_folder, owner
        self.exchange = Exchange(known, share)  # outcomes other checkers of this worker computed
        self.base = dict(base or {})
        self.by_function: dict[str, list[dict]] = {}
        self.timers = {name: r for m in mistakes for name, r in m.get("timers", {}).items()}
        for m in mistakes:
            self.by_function.setdefault(m["function"], []).append(m)
        self.ns: dict | None = None
        self.functions_of: dict[str, object] = {}  # a mistake's key -> its function (None: broken)
        self.cache: dict[tuple[str, str], object] = {}  # (answer, call's fingerprint) -> result
        # per function, the mistakes that agreed with the student's function on every call of an
        # earlier failed check that named one (or could not be told apart in time): a mistake that
        # answered one of its calls otherwise is not that function, so a later check (the hidden
        # one after the visible one) replays only these
        self.consistent: dict[str, set[str]] = {}
        self.deadline = self.wall_deadline = 0.0

    def functions(self) -> set[str]:
        return set(self.by_function)

    # -- the trusted namespace ------------------------------------------------------------------
    def _namespace(self) -> dict:
        """The lesson's state after its setup (``base``, the checker's namespace before any test:
        its setup is not run twice), with the instructor's definitions and the reference answers
        defined again in it, so that their globals are this namespace: other exercises are the
        references here. Built under the replay's guard: it writes nothing."""
        if self.ns is None:
            ns = {k: v for k, v in self.base.items() if not isinstance(v, StudentFunction)}
            ns["__name__"] = "__diagnosis__"
            with guarded(self.student_folder):
                with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                    for label, code in self.cells:
                        try:
                            exec(compile(code, f"<diagnosis {label}>", "exec"), ns)
                        except Exception:  # noqa: BLE001  a demo's failure; its definitions stand
                            pass
            for name, result in self.timers.items():  # timings the comparison ignores: not measured
                ns[name] = lambda *args, _result=result, **kwargs: plain_copy(_result)
            self.ns = ns
        return self.ns

    def _answer(self, key: str, function: str, source: str | None):
        """The function a mistake's source defines, in its own copy of the namespace (other
        exercises there are the references); the reference itself for ``source`` None."""
        if key not in self.functions_of:
            fn = None
            try:
                if source is None:
                    fn = self._namespace().get(function)
                else:
                    ns = dict(self._namespace())
                    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                        exec(compile(source, f"<mistake {key}>", "exec"), ns)
                    fn = ns.get(function)
            except Exception:  # noqa: BLE001  a mistake that does not even define: never matches
                fn = None
            self.functions_of[key] = fn if callable(fn) else None
        return self.functions_of[key]

    # -- one answer on one call -----------------------------------------------------------------
    def _run(self, key: str, function: str, source: str | None, call: Call, fingerprint: str) -> tuple[str, object]:
        """("ok", (result, arguments after the call)), ("raised", "Type: message"), or
        ("unfinished", None): it ran past its time, or the diagnosis's budget ended first."""
        if (key, fingerprint) in self.cache:
            return self.cache[(key, fingerprint)]
        value = self.exchange.take(key, fingerprint)  # another checker of this worker replayed it
        if value is not None:
            self.cache[(key, fingerprint)] = ("ok", value)
            return self.cache[(key, fingerprint)]
        left = min(DIAGNOSIS_CALL_SECONDS, self.deadline - time.process_time())
        wall = min(DIAGNOSIS_WALL_FACTOR * left, self.wall_deadline - time.monotonic())
        if left <= 0 or wall <= 0:
            return UNFINISHED  # not cached: the budget, not the answer, ended it
        outcome, ran_out = UNFINISHED, ""
        previous = {s: signal.signal(s, _alarm) for s in (signal.SIGPROF, signal.SIGALRM)}
        try:
            signal.setitimer(signal.ITIMER_PROF, left)  # the process's CPU time, all its threads
            signal.setitimer(signal.ITIMER_REAL, wall)
            try:
                outcome = self._call(key, function, source, call)
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
                signal.setitimer(signal.ITIMER_REAL, 0)
        except ReplayTimeout as exc:
            outcome, ran_out = UNFINISHED, str(exc)
        except BaseException as exc:  # noqa: BLE001  matches only a student's call that raised the same
            outcome = ("raised", described(exc))
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.setitimer(signal.ITIMER_REAL, 0)
            for s, handler in previous.items():
                signal.signal(s, handler)
        # an answer that used its whole CPU budget is unfinished for good; one the wall clock or a
        # short remainder stopped may finish another time
        if outcome is not UNFINISHED or (left == DIAGNOSIS_CALL_SECONDS and "CPU" in ran_out):
            self.cache[(key, fingerprint)] = outcome
        if outcome[0] == "ok":
            self.exchange.keep(key, fingerprint, outcome[1])
        return outcome

    def take_fresh(self) -> list[list]:
        """The outcomes computed since the last call, for events.Replayed."""
        return self.exchange.fresh()

    def _call(self, key: str, function: str, source: str | None, call: Call) -> tuple[str, object]:
        import jax

        fn = self._answer(key, function, source)
        if fn is None:
            return ("raised", "")  # it defines nothing: "" is no student's exception
        precision = jax.default_matmul_precision(call.precision) if call.precision else contextlib.nullcontext()
        with guarded(self.student_folder), precision, memory_capped():
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                args = plain_copy(call.args)
                value = fn(*args, **plain_copy(call.kwargs))
        try:  # compared as the student's call is recorded: the value, and the arguments after it
            return "ok", (plain_copy(value), plain_copy(args))
        except Unreplayable:
            return ("raised", "")  # not plain data: no student's call returned it

    # -- a failed test ------------------------------------------------------------------------
    def diagnose(self, recorded: dict[str, list[Call]], seconds_left: float) -> list[str]:
        """The keys of the mistakes the recorded calls behave like, most specific first."""
        budget = min(DIAGNOSIS_SECONDS, seconds_left - DIAGNOSIS_MARGIN)
        if budget <= 0:
            return []
        self.deadline = time.process_time() + budget  # CPU seconds of this process
        self.wall_deadline = time.monotonic() + min(seconds_left - DIAGNOSIS_MARGIN, DIAGNOSIS_WALL_FACTOR * budget)
        found = []
        if self.owner is not None:
            self.owner.replaying = True
        try:
            with kept():  # the replays' compilations, kept for one another (replay_cache.py)
                for function, calls in recorded.items():
                    if function in self.by_function and calls and all(c.done for c in calls):
                        found += self._function(function, calls)
        finally:
            if self.owner is not None:
                self.owner.replaying = False
        return found

    def _function(self, function: str, calls: list[Call]) -> list[str]:
        if any(path_digest(p) != d for c in calls for p, d in c.paths.items()):
            return []  # an input file changed since the call: its replay would not be the same call
        prints = [c.key() for c in calls]
        spec = self.by_function[function][0]  # how its results are compared (the lesson's constants)
        view = {k: spec.get(k) or d for k, d in (("timings", []), ("numbers", False), ("phrases", {}))}
        mask = (lambda o: (o[0], as_compared(o[1], **view))) if any(view.values()) else (lambda o: o)
        student = [mask(("raised", c.raised) if c.raised else ("ok", c.result)) for c in calls]

        def reference(i: int) -> tuple:  # replayed once a call (the cache), when first needed
            return mask(self._run("reference:" + function, function, None, calls[i], prints[i]))

        order = list(range(len(calls)))
        earlier = self.consistent.get(function)
        if earlier is None:  # the whole library: the reference first, to rule it out or order it
            if any(reference(i)[0] == "unfinished" for i in order):
                return []  # the reference did not finish: no answer can be said to differ from it
            if all(agrees(s, reference(i), 0, 0) for i, s in enumerate(student)):
                return []  # the student's outcomes are the reference's: no mistake can be theirs and differ
            # where the student is wrong first: a mistake right there is told apart on its first replay
            order.sort(key=lambda i: agrees(student[i], reference(i)))
        # else the few an earlier check could not tell apart go first, the reference as far as needed
        candidates, consistent = [], set()  # (rank, key, outcomes) agreeing with the student on every call
        for rank, m in enumerate(self.by_function[function]):
            if earlier is not None and m["key"] not in earlier:
                continue
            outs = [None] * len(calls)
            for i in order:
                out = mask(self._run(m["key"], function, m["source"], calls[i], prints[i]))
                if out[0] == "unfinished":
                    consistent.add(m["key"])  # not told apart: it stays a candidate
                if not agrees(student[i], out):
                    break
                outs[i] = out
            else:
                consistent.add(m["key"])
                candidates.append((rank, m["key"], outs))
        if len(candidates) > 1 and any(reference(i)[0] == "unfinished" for i in order):
            return []  # several: each is ranked by its agreement with the reference on every call
        matches = []
        for rank, key, outs in candidates:
            shown = differs(student, outs, reference)  # one candidate: up to the first call that shows it
            if shown is None:
                return []  # the reference did not finish
            if shown:
                agree = sum(agrees(o, reference(i), 0, 0) for i, o in enumerate(outs)) if len(candidates) > 1 else 0
                matches.append((agree, rank, key))
        if matches:  # only a diagnosis that named something narrows the next: a replay that was
            self.consistent[function] = consistent  # not faithful to one call rules out nothing
        return [key for _, _, key in sorted(matches)]
