"""The report's model of a class: one ``Row`` per student and lesson, one ``Check`` per test cell,
and ``ClassData`` holding them with the problems found while reading. No reading, no behaviour
beyond lookups: load.py fills it (from OUT/ or from the grader's results), the other modules read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..common.textsafe import told_apart
from ..grader.core.model import GRADED, Outcome

STATUSES = tuple(str(s) for s in GRADED)  # a grades.csv row's status (a grader-error row is never written)
OUTCOMES = {str(o) for o in Outcome}
NEEDS_A_HUMAN = ("tampered", "error", "timeout", "missing")


def fmt(x: float) -> str:
    """A number as grades.csv and tests.csv write it."""
    return f"{x:g}"


@dataclass
class Check:
    grade_id: str
    score: float
    max_score: float
    hidden: bool | None = None  # None: not recorded (no results.json)
    doc: str = ""
    error: str = ""  # what the student saw
    message: str = ""  # instructor-only: the first line of the exception the check raised
    outcome: str | None = None  # model.Outcome's value, decided by the grader (None: not recorded)
    mistakes: list[str] = field(default_factory=list)  # the known mistakes it was diagnosed as (keys)
    rule: str = ""  # the rule of the contract a wrong hidden check broke (the solution's sentence)

    @property
    def passed(self) -> bool:
        return self.score >= self.max_score


@dataclass
class Row:
    student: str
    lesson: str
    score: float
    max_score: float
    status: str
    detail: str = ""
    notes: list[str] = field(default_factory=list)
    seconds: float | None = None
    checks: list[Check] = field(default_factory=list)
    override: dict | None = None  # the instructor's score: {"score", "reason", "graded_score", "date"}


@dataclass
class ClassData:
    out: Path
    rows: list[Row]
    run: dict | None
    problems: list[str]  # inconsistencies between the files of OUT/
    emulation_hint: str = ""  # from results.json's digests ("<sha256>:<mode>") when run.json is absent

    @property
    def lessons(self) -> list[str]:
        return sorted({r.lesson for r in self.rows})

    @property
    def students(self) -> list[str]:
        return sorted({r.student for r in self.rows})

    def shown(self) -> dict[str, str]:
        """Each student as a person reads the name (textsafe.told_apart): names that differ only in
        normalisation or case never print alike; the rows keep the names themselves."""
        return told_apart(self.students)

    def lesson_rows(self, lesson: str) -> list[Row]:
        return [r for r in self.rows if r.lesson == lesson]
