"""The result model: plain records that cross processes and land in the journal (no behaviour)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass
class TestRecord:
    """What the checker reported for one test cell."""

    __test__ = False  # not a pytest test class
    grade_id: str
    state: str = "skipped"  # ok | error | timeout | died | not_run (restarts used up) | skipped
    ename: str = ""
    evalue: str = ""  # first line of the exception (instructor-only for hidden tests)
    seconds: float = 0.0
    output: str = ""  # what the test printed (shown to the student for visible tests)
    student: list[str] = field(default_factory=list)  # what happened to the student's process


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


@dataclass
class Result:
    student: str
    notebook: str
    score: float = 0.0
    max_score: float = 0.0
    status: str = "missing"
    detail: str = ""
    tests: list[TestResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # for the feedback: what did not run, and why
    seconds: float = 0.0
    digest: str = ""  # sha256 of the submission, the lesson and the settings: a rerun skips it if unchanged
    seed: int | None = None  # GRADING_SEED the hidden tests drew their inputs from (None: not graded)
    shown_status: str = ""  # the status on the student's page: from visible tests only ("": status)
    shown_detail: str = ""

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "Result":
        d = dict(d)
        d["tests"] = [TestResult(**t) for t in d.get("tests", [])]
        return cls(**d)
