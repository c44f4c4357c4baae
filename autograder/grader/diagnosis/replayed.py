"""Replays' outcomes kept across one worker's checkers: a visible check is replayed once a worker.

A diagnosis (diagnose.py) replays a failed check's calls on the reference and on each known
mistake. A replay's outcome is a function of trusted code only (the lesson's setup, definitions,
references and mistakes, under the run's precision emulation) and of the call (its plain-data
arguments, matmul precision and input files' digests: recording.Call.key), never of the student
whose check failed. A visible check makes the same calls for every student, so a worker keeps the
outcomes its checkers computed and hands them, with each later job of the same lesson, to its next
checkers, which take them instead of replaying (diagnose.Diagnoser's ``known``). Only visible
checks' outcomes are handed on: a hidden check's calls draw from the notebook's seed (never asked
for again, and nothing seed-drawn travels to another student's job).

What is kept: "ok" outcomes only (a result and the arguments after the call). A timeout or a
MemoryError depends on the machine's load and the checker's memory, not on the call, so those stay
with the checker that met them. An outcome travels as wire JSON (wire.Encoder's tagged values),
which the worker never decodes: from the checker's event pipe (events.Replayed) into this store,
and back in a later checker's job (model.CheckerJob.known).

Trust: a student's process that could write its checker's event pipe could make another student's
feedback name a wrong mistake (never a point: a diagnosis only adds names to a record already
final). It cannot where the student's process has namespaces of its own (bubblewrap: its only
channel is two pipes to its checker), so outcomes are shared only there (``shareable``); under
sandbox/launch.py's fallback each checker keeps its own. Bounded: SHARED_OUTCOME_BYTES an outcome,
SHARED_OUTCOMES_BYTES a lesson in one worker (the oldest out first), SHARED_OUTCOME_LESSONS lessons. A checker
whose student's process is not namespaced although its worker's probe said it would be stops as
the grader's fault (checker/main.py), and one whose setup did not finish shares nothing.
"""

from __future__ import annotations

import collections
import hashlib
import json
import threading

from .recording import size_of
from ..core.settings import SHARED_OUTCOME_BYTES, SHARED_OUTCOME_LESSONS, SHARED_OUTCOMES_BYTES
from ..core.wire import Decoder, Encoder


class Store:
    """One lesson's kept outcomes in one worker: (answer's key, call's fingerprint) -> wire JSON,
    the oldest kept out first (the worker does not learn which ones a checker took)."""

    def __init__(self, limit: int = SHARED_OUTCOMES_BYTES):
        self.limit, self.size = limit, 0
        self.entries: collections.OrderedDict[tuple[str, str], tuple[object, int]] = collections.OrderedDict()

    def items(self) -> list[list]:
        """What a checker's job carries: [[key, fingerprint, outcome], ...], the most recent last."""
        return [[key, fp, value] for (key, fp), (value, _) in self.entries.items()]

    def absorb(self, items) -> int:
        """Keep what a checker sent (events.Replayed's outcomes); what is not [str, str, JSON] of at
        most SHARED_OUTCOME_BYTES is ignored. How many were kept."""
        kept = 0
        if type(items) is not list:
            return 0
        for item in items:
            if type(item) is not list or len(item) != 3 or type(item[0]) is not str or type(item[1]) is not str:
                continue
            try:
                size = len(json.dumps(item, allow_nan=False, separators=(",", ":")))
            except (TypeError, ValueError, RecursionError):
                continue
            if size > SHARED_OUTCOME_BYTES or size > self.limit:
                continue
            old = self.entries.pop((item[0], item[1]), None)
            if old is not None:
                self.size -= old[1]
            self.entries[(item[0], item[1])] = (item[2], size)
            self.size += size
            kept += 1
            while self.size > self.limit:
                _, (_, dropped) = self.entries.popitem(last=False)
                self.size -= dropped
        return kept


class Exchange:
    """The checker's side: the outcomes its job carried (each taken once, decoded then), and the
    "ok" outcomes its own replays computed, as wire JSON for the worker (within the bounds)."""

    def __init__(self, known: list | None, share: bool):
        self.known = {(k[0], k[1]): k[2] for k in known or () if type(k) is list and len(k) == 3}
        self.share, self.computed, self.bytes = share, [], 0

    def take(self, key: str, fingerprint: str):
        """A kept outcome's value (the result and the arguments after the call), or None."""
        if (key, fingerprint) not in self.known:
            return None
        try:
            value = Decoder()(self.known.pop((key, fingerprint)))
        except Exception:  # noqa: BLE001  not an outcome after all: replayed instead
            return None
        return value if type(value) is tuple and len(value) == 2 else None

    def keep(self, key: str, fingerprint: str, value) -> None:
        if not self.share:
            return
        try:  # base64 makes 3 bytes 4: a value larger than the cap never fits, so it is not encoded
            if size_of(value) * 4 // 3 > SHARED_OUTCOME_BYTES:
                return
            encoded = Encoder()(value)
            size = len(json.dumps([key, fingerprint, encoded], allow_nan=False, separators=(",", ":")))
        except Exception:  # noqa: BLE001  what cannot cross stays in this checker
            return
        if size <= SHARED_OUTCOME_BYTES and self.bytes + size <= SHARED_OUTCOMES_BYTES:
            self.computed.append([key, fingerprint, encoded])
            self.bytes += size

    def fresh(self) -> list[list]:
        """What was computed since the last call (events.Replayed)."""
        out, self.computed = self.computed, []
        return out


# Module state, by necessity: a worker keeps outcomes across the notebooks (jobs) it grades, which
# arrive as separate calls of run.grade_job; ``forget`` drops them (tests).
_STORES: collections.OrderedDict[str, Store] = collections.OrderedDict()  # this worker's, by lesson scope
_LOCK = threading.Lock()  # a Dask worker grades on a thread pool


def scope(setup: str, checker_cells: list, references: list, mistakes: list, emulation: str) -> str:
    """What a replay's outcome depends on besides its call: the lesson's code and the emulation."""
    text = json.dumps([setup, checker_cells, references, mistakes, emulation], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def shareable() -> bool:
    """Whether the student's processes here have namespaces of their own (see Trust above)."""
    from ..sandbox.launch import bwrap_works

    return bwrap_works() == ""


def known(key: str | None) -> list[list]:
    if key is None:
        return []
    with _LOCK:
        store = _STORES.get(key)
        return store.items() if store is not None else []


def absorb(key: str | None, items) -> int:
    if key is None:
        return 0
    with _LOCK:
        if key not in _STORES:
            _STORES[key] = Store()
            while len(_STORES) > SHARED_OUTCOME_LESSONS:
                _STORES.popitem(last=False)
        _STORES.move_to_end(key)
        return _STORES[key].absorb(items)


def forget() -> None:
    """Drop every kept outcome (tests; a worker's are gone with it)."""
    with _LOCK:
        _STORES.clear()
