"""The checker's events to the worker that watches it (notebook/watch.py), typed: one frozen record per kind,
sent as a wire frame ``{"event": kind, ...its fields}``. ``parse`` turns a frame back into its
record, or None when it is not one (an unknown kind, a missing field, a field of another type):
the watchdog reads only records whose every field it has checked.

    Ready     the setup ran and the student's process is up (or could not start: grader_fault)
    Start     test ``index`` (in run order) starts: its cell's clock starts too
    Restart   the student's process restarts, with a cell's time of its own
    Tested    test ``index`` ended: how (the fields of model.TestRecord but its grade_id and
              mistakes); ``observed``: the checker's observer (observer.py) speaks of it next;
              ``line``, ``raised_by``: where its exception came from (checker/failure.py)
    Diagnosed the known mistakes test ``index``'s failure behaves like (the diagnosis plug-in,
              plugin.py); its record is final before: a diagnosis that never ends changes nothing
    Replayed  the outcomes its diagnoses computed (replayed.py): handed to the worker's side of
              the plug-in for its next checkers of the lesson, never decoded there
    Variant   authoring only: the tests an author's candidate answer failed (lessoncheck)
    Done      the checker is finished: the student's last stderr lines
"""

from __future__ import annotations

import typing
from dataclasses import asdict, dataclass, field, fields
from enum import Enum

from .model import CellState, Happened


@dataclass(frozen=True)
class Ready:
    defined: list[str] = field(default_factory=list)
    definition_errors: list[list] = field(default_factory=list)  # [label, exception name, message]
    setup_error: str = ""
    student_error: str = ""
    grader_fault: str = ""  # the grader's own fault: no grade can be given
    forged: list[str] = field(default_factory=list)  # names the ready message gave beyond the exercises
    tampered: str = ""  # the emulation's probe after the definitions ran (checker/integrity.py): why it failed


@dataclass(frozen=True)
class Start:
    index: int


@dataclass(frozen=True)
class Restart:
    pass


@dataclass(frozen=True)
class Tested:
    index: int
    state: CellState
    ename: str = ""
    evalue: str = ""
    seconds: float = 0.0
    output: str = ""
    student: list[list] = field(default_factory=list)  # what happened to the student's process: Happened.to_wire()
    observed: bool = False
    line: int = 0  # the line of the innermost frame of the test cell's code (0: none)
    raised_by: str = ""  # the exercise whose call the exception came out of ("": the test's own code)
    tampered: str = ""  # the emulation's probe after this test (checker/integrity.py): why it failed
    choices: list[str] = field(default_factory=list)  # after a failed check: core/readings.py

    def __post_init__(self):  # typed on arrival: a state or an event of no known kind is no event
        object.__setattr__(self, "state", CellState(self.state))
        for item in self.student:
            Happened.from_wire(item)

    def happened(self) -> list[Happened]:
        return [Happened.from_wire(item) for item in self.student]


@dataclass(frozen=True)
class Diagnosed:
    index: int
    mistakes: list[str] = field(default_factory=list)  # mistakes' keys, most specific first


@dataclass(frozen=True)
class Replayed:
    outcomes: list[list] = field(default_factory=list)  # [answer's key, call's fingerprint, wire JSON]


@dataclass(frozen=True)
class Variant:
    index: int
    failed: list[str] = field(default_factory=list)
    errors: list[list] = field(default_factory=list)
    diagnosed: list[list] = field(default_factory=list)  # [grade_id, key, ...] per failed test
    sites: list[list] = field(default_factory=list)  # [grade_id, line, raised_by] per failed test
    choices: list[str] = field(default_factory=list)  # the chip's choices met (core/readings.py)


@dataclass(frozen=True)
class Done:
    log: list[str] = field(default_factory=list)
    forged: list[str] = field(default_factory=list)  # every restart's forged names (Ready has the first's)


KINDS = {
    "ready": Ready,
    "start": Start,
    "restart": Restart,
    "test": Tested,
    "diagnosed": Diagnosed,
    "replayed": Replayed,
    "variant": Variant,
    "done": Done,
}
_NAMES = {cls: name for name, cls in KINDS.items()}
Event = Ready | Start | Restart | Tested | Diagnosed | Replayed | Variant | Done


def to_frame(event: Event) -> dict:
    fields_ = {k: v.value if isinstance(v, Enum) else v for k, v in asdict(event).items()}
    return {"event": _NAMES[type(event)], **fields_}


def _fits(value, hint) -> bool:
    origin = typing.get_origin(hint) or hint
    if isinstance(origin, type) and issubclass(origin, Enum):
        return type(value) is str and value in origin._value2member_map_
    if origin is float:
        return type(value) in (int, float)
    if origin is int:
        return type(value) is int
    if origin is list:
        (item,) = typing.get_args(hint) or (object,)
        return type(value) is list and (item is not str or all(type(v) is str for v in value))
    return type(value) is origin


def parse(frame: dict) -> Event | None:
    """The record a frame holds, or None if it holds none."""
    cls = KINDS.get(frame.get("event"))
    if cls is None:
        return None
    hints = typing.get_type_hints(cls)
    values = {f.name: frame[f.name] for f in fields(cls) if f.name in frame}
    if not all(_fits(v, hints[k]) for k, v in values.items()):
        return None
    try:
        return cls(**values)
    except (TypeError, ValueError):  # a required field missing, a value of no kind
        return None
