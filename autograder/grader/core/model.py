"""The result model: the statuses and outcomes, and the plain records that cross processes and land
in the journal (no behaviour). A row's ``Status`` and each check's ``Outcome`` are decided once, in
verdict.py; the feedback, the CSVs, the report and the LMS exports read them, never a message."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from enum import StrEnum


class Status(StrEnum):
    """A notebook's status. The first four are the grader's verdicts, strongest first: this order
    is the precedence verdict.status() applies when several hold."""

    TAMPERED = "tampered"  # code aimed at the grader (no points), or test cells edited (originals graded)
    ERROR = "error"  # the student's process died or hit a limit, or the notebook was unreadable
    TIMEOUT = "timeout"  # a cell or the notebook ran out of time
    OK = "ok"
    MISSING = "missing"  # not submitted
    GRADER_ERROR = "grader-error"  # the grader's own fault: never a grade, regraded on the next run


PRECEDENCE = (Status.TAMPERED, Status.ERROR, Status.TIMEOUT, Status.OK)  # verdict.status's order
STATUSES = (Status.OK, Status.TIMEOUT, Status.ERROR, Status.TAMPERED, Status.MISSING, Status.GRADER_ERROR)
GRADED = STATUSES[:5]  # the statuses of a grade, in the order tables show them (grader-error is none)


class Outcome(StrEnum):
    """What happened to one check, decided where its points are (verdict.points_of)."""

    PASSED = "passed"
    WRONG = "wrong"  # it ran on the student's answer to the end and failed: a misconception
    UNANSWERED = "unanswered"  # the exercise's stub (NotImplementedError)
    TIMED_OUT = "timed out"  # the cell's or the notebook's time ran out
    LIMIT_REACHED = "limit reached"  # memory, files, disk or processes: a cap of the sandbox
    PROCESS_DIED = "process died"  # the student's process died while it ran
    NOT_RUN = "not run"  # never ran: restarts used up, or the notebook could not be read
    VOIDED = "voided"  # no points: the notebook holds code aimed at the grader
    GRADER_FAULT = "grader fault"  # the grader could not grade it (never the student's zero)

    @property
    def answered_wrong(self) -> bool:
        """Whether the check judged the student's answer and found it wrong (what a class report
        ranks as a misconception); every other failure is unanswered or was not graded."""
        return self is Outcome.WRONG


class CellState(StrEnum):
    """How a test cell ended in the checker (``TestRecord.state``): decided there from exception
    types and ``ProcessEvent`` kinds, never from a message."""

    OK = "ok"  # it ran to the end and the student's process neither timed out nor died meanwhile
    ERROR = "error"  # it raised (a failed assertion, the student's exception)
    TIMEOUT = "timeout"  # the cell's or the notebook's time ran out
    DIED = "died"  # the student's process died, or was stopped at a cap
    NOT_RUN = "not_run"  # the restarts were used up by earlier timeouts or deaths
    SKIPPED = "skipped"  # never started (a record's state until its Tested event)


class ProcessEvent(StrEnum):
    """What happened to the student's process during a cell, named where it happened (cgroup.py,
    workdir.py, remote.py, standins.py, the checker, notebook/watch.py). Outcomes and statuses are decided from
    these kinds; ``MESSAGES`` holds their words, read only to show them to people."""

    PROCESS_LIMIT = "process-limit"  # the cgroup's pids.max was hit
    MEMORY_LIMIT = "memory-limit"  # the cgroup's OOM kill, or a MemoryError (the address-space cap)
    FILE_SIZE_LIMIT = "file-size-limit"  # RLIMIT_FSIZE (EFBIG)
    FILE_LIMIT = "file-limit"  # the work folder holds too many entries (or could not be measured)
    DEPTH_LIMIT = "depth-limit"  # the work folder's folders nest too deep
    DISK_LIMIT = "disk-limit"  # the work folder's allocated bytes
    HELD_OPEN_LIMIT = "held-open-limit"  # the same, with unlinked files its processes hold open
    TIMED_OUT = "timed-out"  # a call (or a checker) ran past the cell's time
    NO_TIME_TO_RESTART = "no-time-to-restart"
    NOTEBOOK_TIME_USED = "notebook-time-used"  # never reached: the notebook's time ran out
    RESTARTS_USED = "restarts-used"  # the process is gone and may not be restarted
    ENDED = "ended"  # the channel could not be written: the process had ended
    DIED = "died"  # the process ended during a call
    BROKEN_MESSAGE = "broken-message"
    UNEXPECTED_MESSAGE = "unexpected-message"
    INPUTS_CHANGED = "inputs-changed"  # the test's input files changed during a call

    @property
    def limit(self) -> bool:
        """A cap of the sandbox (Outcome.LIMIT_REACHED, named in the row's detail)."""
        return self in _LIMITS

    @property
    def timed_out(self) -> bool:
        return self in (ProcessEvent.TIMED_OUT, ProcessEvent.NO_TIME_TO_RESTART, ProcessEvent.NOTEBOOK_TIME_USED)


_LIMITS = frozenset(e for e in ProcessEvent if e.value.endswith("-limit"))

# Each kind's words, for people only (feedback, the detail of a row): rewording one changes no outcome.
MESSAGES = {
    ProcessEvent.PROCESS_LIMIT: "process limit reached",
    ProcessEvent.MEMORY_LIMIT: "memory limit reached",
    ProcessEvent.FILE_SIZE_LIMIT: "file size limit reached",
    ProcessEvent.FILE_LIMIT: "file limit reached",
    ProcessEvent.DEPTH_LIMIT: "file limit reached (folders nested too deep)",
    ProcessEvent.DISK_LIMIT: "disk limit reached",
    ProcessEvent.HELD_OPEN_LIMIT: "disk limit reached (files held open)",
    ProcessEvent.TIMED_OUT: "timed out",
    ProcessEvent.NO_TIME_TO_RESTART: "timed out: no time left to restart the student's process",
    ProcessEvent.NOTEBOOK_TIME_USED: "the notebook's time was used up",
    ProcessEvent.RESTARTS_USED: "not run: the student's process could not be restarted",
    ProcessEvent.ENDED: "the student's process ended",
    ProcessEvent.DIED: "the student's process died",
    ProcessEvent.BROKEN_MESSAGE: "broken message from the student's process",
    ProcessEvent.UNEXPECTED_MESSAGE: "unexpected message from the student's process",
    ProcessEvent.INPUTS_CHANGED: "changed the test's input files",
}


@dataclass(frozen=True)
class Happened:
    """One ``ProcessEvent`` with its detail (an exit code, a count): on the wire ``[kind, detail]``."""

    kind: ProcessEvent
    detail: str = ""

    @property
    def text(self) -> str:
        return MESSAGES[self.kind] + (f" ({self.detail})" if self.detail else "")

    def to_wire(self) -> list[str]:
        return [self.kind.value, self.detail]

    @classmethod
    def from_wire(cls, item) -> "Happened":
        """The event a wire item holds; ValueError if it holds none."""
        if type(item) is not list or len(item) != 2 or not all(type(x) is str for x in item):
            raise ValueError("not a process event")
        return cls(ProcessEvent(item[0]), item[1][:300])


def exercise_of(grade_id: str) -> str:
    """The exercise (the function) a check checks, from its grade id: test_<exercise>_<visible|hidden>."""
    m = re.fullmatch(r"test_(.+)_(visible|hidden)", grade_id)
    return m.group(1) if m else grade_id


@dataclass(frozen=True)
class Job:
    """One notebook to grade, as it crosses to a worker (a local process or a Dask worker): plain
    data only. ``lesson`` holds run.Lesson's fields (the notebooks as JSON text), ``settings``
    settings.Settings' (limits included)."""

    student: str
    lesson: dict
    submission: bytes
    settings: dict
    repository: str
    digest: str = ""

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "Job":
        return cls(**d)


@dataclass(frozen=True)
class CheckerJob:
    """What notebook/watch.py hands a notebook's trusted checker (one wire frame on its stdin): the plan's
    cells and tests, the folders, the settings (settings.Settings' fields) and the time left."""

    settings: dict
    job_dir: str
    checker_home: str
    workdir: str  # the student's work folder (writable by the student)
    inputs: str  # the tests' input files (read-only to the student)
    repository: str
    setup: str  # the lesson's setup cell
    student_cells: list  # [label, code]: the student's definitions, run in the student's process
    checker_cells: list  # [label, code]: the lesson's own cells, run in the checker
    tests: list  # {"grade_id", "source", "hidden"} in run order
    contract: list  # the exercise names the student defines
    notebook_seconds: float
    start_at: int = 0  # the first test to run (after a checker died or hung on the one before)
    seed: int = 0  # GRADING_SEED
    setup_label: str = "setup"
    variants: list = field(default_factory=list)  # authoring only (lessoncheck): answers swapped in
    diagnosis: dict = field(default_factory=dict)  # opaque here: the plug-in's payload (plugin.py reads it)
    namespaced: bool = False  # the worker's sandbox has bubblewrap: a checker whose own has not stops
    reading: str = ""  # core/readings.OTHER: the student's process computes the chip's other choices

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "CheckerJob":
        return cls(**d)


@dataclass
class TestRecord:
    """What the checker reported for one test cell."""

    __test__ = False  # not a pytest test class
    grade_id: str
    state: CellState = CellState.SKIPPED
    ename: str = ""
    evalue: str = ""  # first line of the exception (instructor-only for hidden tests)
    seconds: float = 0.0
    output: str = ""  # what the test printed (shown to the student for visible tests)
    student: list[Happened] = field(default_factory=list)  # what happened to the student's process
    mistakes: list[str] = field(default_factory=list)  # the known mistakes its failure behaves like
    # where its exception came from, as the checker read it from its own traceback (checker/failure.py):
    line: int = 0  # the line of the innermost frame of the test cell's code (0: none)
    raised_by: str = ""  # the exercise whose call it came out of ("": the test's own code raised)
    # the chip's choices the student's process met (core/readings.py), asked after a failed check;
    # ``regraded``: those under whose other reading the check passed in a second grading ("": none)
    choices: list[str] = field(default_factory=list)
    regraded: str = ""

    def __post_init__(self):
        self.state = CellState(self.state)


@dataclass
class TestResult:
    __test__ = False  # not a pytest test class
    grade_id: str
    score: float
    max_score: float
    error: str = ""  # what the student may see: never test code, never a hidden test's message
    hidden: bool = False
    doc: str = ""  # the test's docstring (visible in the release)
    message: str = ""  # instructor-only: the exception's first line, for the class report
    output: str = ""  # a failed VISIBLE check's printed lines (expected against what came back)
    outcome: Outcome = Outcome.PASSED  # instructor-facing for hidden checks (the student sees pass/fail)
    # the known mistakes (autograder.common.mistakes.Mistake.key, "lesson:function:id") a WRONG check's
    # calls behave like, most specific first ("or" between several); empty: none (diagnose.py)
    mistakes: list[str] = field(default_factory=list)
    # the rule of the exercise's contract a WRONG hidden check broke, in its author's words (core/rules.py:
    # declared in the solution's test cell, never a value, bound, seed or input); "": none
    rule: str = ""


@dataclass
class Result:
    student: str
    lesson: str  # the lesson's name ("01_number_formats"), whatever the student's file was called
    score: float = 0.0
    max_score: float = 0.0
    status: Status = Status.MISSING
    detail: str = ""
    tests: list[TestResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # for the feedback: what did not run, and why
    seconds: float = 0.0
    digest: str = ""  # sha256 of the submission, the lesson and the settings: a rerun skips it if unchanged
    seed: int | None = None  # GRADING_SEED the hidden tests drew their inputs from (None: not graded)
    shown_status: str = ""  # the status on the student's page: from visible tests only ("": status)
    shown_detail: str = ""
    upload: str = ""  # the graded file's path in the download, as intake found it (LMS names included)
    # an instructor's score (overrides.py): {"score", "reason", "graded_score", "date"}; set on the
    # rows an OUT's outputs are written from, never journaled (the journal keeps what was graded)
    override: dict | None = None

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "Result":
        d = lesson_keyed(d)
        d["tests"] = [TestResult(**{**t, "outcome": Outcome(t["outcome"])}) for t in d.get("tests", [])]
        d["status"] = Status(d["status"])
        return cls(**d)


OLD_LESSON_KEY = "notebook"  # what results.json, journal.jsonl and the CSVs called "lesson" before


def lesson_keyed(d: dict) -> dict:
    """A copy of a Result's dict or a grades.csv/tests.csv row with its lesson under "lesson",
    also where an earlier version wrote it under "notebook" (a resumed or re-reported older OUT)."""
    d = dict(d)
    if OLD_LESSON_KEY in d:
        d.setdefault("lesson", d.pop(OLD_LESSON_KEY))
    return d
