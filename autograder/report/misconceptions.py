"""The report's "Misconceptions in this class": the known mistakes (the course's library,
``solutions/<NN_name>/mistakes.py``) the grader diagnosed in failed checks, ranked by the students
they describe, and the library's coverage: per exercise, the share of wrong answers that no known
mistake explains (where an author should add one). Then the rules of the exercises' contracts the
class broke (``rules_broken``: the sentence a wrong hidden check showed, core/rules.py), ranked by
students: which rule of which exercise to re-teach, named mistake or not.

One diagnosis per student, lesson and exercise (``diagnoses``): a check diagnosed as "one of"
several mistakes (their code behaved alike on the student's calls) is one set; the failed checks'
sets are combined into their intersection where it is not empty (a later check can narrow "A or
B" to "A"), else into the most specific one (the smallest; the first of equals). Each combined
set is one entry of the table (``Misconception``: one key, or "one of: A, B"), so a student is
counted in exactly one entry per exercise: no mistake's count holds a student twice, and the
entries' counts add up to the students diagnosed. A key the library no longer holds (edited since
grading) is listed under its key, without text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..common.mistakes import Mistake, lookup
from .data import ClassData, Row
from .stats import cause, exercise_of


@dataclass
class Misconception:
    keys: tuple[str, ...]  # one known mistake, or the "one of" set (sorted)
    lesson: str
    exercise: str
    mistakes: list[Mistake | None]  # per key; None: no longer in the library
    rows: list[Row] = field(default_factory=list)  # one per student (and lesson)

    @property
    def key(self) -> str:
        """The entry's name in the page's data and the CSVs' form: keys joined by " or "."""
        return " or ".join(self.keys)

    @property
    def ambiguous(self) -> bool:
        """ "One of" several mistakes: the student's calls could not tell them apart."""
        return len(self.keys) > 1

    @property
    def mistake(self) -> Mistake | None:
        """The library's entry of a single-key diagnosis (None for "one of" several or a gone key)."""
        return None if self.ambiguous else self.mistakes[0]

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


def place(key: str, row: Row, grade_id: str) -> tuple[str, str]:
    """(lesson, exercise) a key names ("lesson:function:id"), else the check's own."""
    parts = key.split(":")
    return (parts[0], parts[1]) if len(parts) == 3 else (row.lesson, exercise_of(grade_id))


def combine(sets: list[list[str]]) -> tuple[str, ...]:
    """One diagnosis from several checks' (non-empty, in check order): their intersection where it
    is not empty, else the most specific set (the fewest keys; the first of equals); sorted."""
    common = set(sets[0]).intersection(*sets[1:])
    return tuple(sorted(common or min(sets, key=len)))


def diagnoses(row: Row) -> dict[tuple[str, str], tuple[str, ...]]:
    """A row's one diagnosis per (lesson, exercise) its failed checks' known mistakes name."""
    found: dict[tuple[str, str], list[list[str]]] = {}
    for check in row.checks:
        if check.passed or not check.mistakes:
            continue
        mine: dict[tuple[str, str], list[str]] = {}
        for key in check.mistakes:
            mine.setdefault(place(key, row, check.grade_id), []).append(key)
        for where, keys in mine.items():
            found.setdefault(where, []).append(keys)
    return {where: combine(sets) for where, sets in found.items()}


def misconceptions(data: ClassData) -> list[Misconception]:
    """Every diagnosis (one key or "one of" several), most students first (then by lesson, exercise
    and keys); a student and exercise is in exactly one of them."""
    found: dict[tuple[str, ...], Misconception] = {}
    for row in data.rows:
        for (lesson, exercise), keys in diagnoses(row).items():
            m = found.get(keys)
            if m is None:
                library = {k.key: k for k in lookup(keys)}
                m = found[keys] = Misconception(keys, lesson, exercise, [library.get(k) for k in keys])
            m.rows.append(row)
    return sorted(found.values(), key=lambda m: (-m.students, m.lesson, m.exercise, m.keys))


def coverage(data: ClassData) -> list[Coverage]:
    """Per exercise with wrong answers: how many failed checks the library explains."""
    counts: dict[tuple[str, str], list[int]] = {}
    for row in data.rows:
        for check in row.checks:
            if cause(row, check) != "wrong":
                continue
            c = counts.setdefault((row.lesson, exercise_of(check.grade_id)), [0, 0])
            c[0] += 1
            c[1] += bool(check.mistakes)
    return [Coverage(lesson, ex, wrong, explained) for (lesson, ex), (wrong, explained) in sorted(counts.items())]


@dataclass
class RuleBroken:
    lesson: str
    exercise: str
    rule: str  # the solution's sentence (model.TestResult.rule)
    rows: list[Row] = field(default_factory=list)  # one per student (and lesson)
    named: int = 0  # of them, those whose failed checks of the exercise also named a known mistake

    @property
    def students(self) -> int:
        return len(self.rows)


def rules_broken(data: ClassData) -> list[RuleBroken]:
    """Every rule wrong hidden checks broke, per lesson and exercise, most students first (then by
    lesson, exercise and rule); a student is counted once per rule, whichever checks broke it."""
    found: dict[tuple[str, str, str], RuleBroken] = {}
    for row in data.rows:
        named = {(row.lesson, exercise_of(c.grade_id)) for c in row.checks if not c.passed and c.mistakes}
        for check in row.checks:
            if check.passed or not check.rule or cause(row, check) != "wrong":
                continue
            key = (row.lesson, exercise_of(check.grade_id), check.rule)
            entry = found.setdefault(key, RuleBroken(*key))
            if not entry.rows or entry.rows[-1] is not row:
                entry.rows.append(row)
                entry.named += key[:2] in named
    return sorted(found.values(), key=lambda r: (-r.students, r.lesson, r.exercise, r.rule))
