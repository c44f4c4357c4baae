"""The report's "Misconceptions in this class": the known mistakes (the course's library,
``solutions/<NN_name>/mistakes.py``) the grader diagnosed in failed checks, ranked by the students
they describe, and the library's coverage: per exercise, the share of wrong answers that no known
mistake explains (where an author should add one).

A student counts once per mistake and lesson, whichever of that exercise's checks named it; a
check diagnosed as "one of" several mistakes counts for each of them, and the page says how many
of a mistake's students were such "or" diagnoses. A key the library no longer holds (edited since
grading) is listed under its key, without text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..mistakes import Mistake, lookup
from .data import ClassData, Row
from .stats import cause, exercise_of


@dataclass
class Misconception:
    key: str
    lesson: str
    exercise: str
    mistake: Mistake | None  # None: no longer in the library
    rows: list[Row] = field(default_factory=list)  # one per student (and lesson)
    ambiguous: int = 0  # of those rows, how many were diagnosed as "one of" several

    @property
    def students(self) -> int:
        return len(self.rows)


@dataclass
class Coverage:
    lesson: str
    exercise: str
    wrong: int  # checks failed by a wrong answer (outcome "wrong")
    explained: int  # of those, diagnosed as some known mistake

    @property
    def unexplained_share(self) -> float:
        return 1 - self.explained / self.wrong if self.wrong else 0.0


def misconceptions(data: ClassData) -> list[Misconception]:
    """Every diagnosed mistake, most students first (then by lesson, exercise and key)."""
    found: dict[str, Misconception] = {}
    for row in data.rows:
        seen: set[str] = set()
        for check in row.checks:
            if check.passed or not check.mistakes:
                continue
            for key in check.mistakes:
                parts = key.split(":")
                here = (row.notebook, exercise_of(check.grade_id))
                lesson, exercise = (parts[0], parts[1]) if len(parts) == 3 else here
                m = found.get(key)
                if m is None:
                    known = lookup([key])
                    m = found[key] = Misconception(key, lesson, exercise, known[0] if known else None)
                if key not in seen:
                    seen.add(key)
                    m.rows.append(row)
                    m.ambiguous += len(check.mistakes) > 1
    return sorted(found.values(), key=lambda m: (-m.students, m.lesson, m.exercise, m.key))


def coverage(data: ClassData) -> list[Coverage]:
    """Per exercise with wrong answers: how many failed checks the library explains."""
    counts: dict[tuple[str, str], list[int]] = {}
    for row in data.rows:
        for check in row.checks:
            if cause(row, check) != "wrong":
                continue
            c = counts.setdefault((row.notebook, exercise_of(check.grade_id)), [0, 0])
            c[0] += 1
            c[1] += bool(check.mistakes)
    return [Coverage(lesson, ex, wrong, explained) for (lesson, ex), (wrong, explained) in sorted(counts.items())]
