"""The numbers on the page, computed from ``ClassData`` (the tests recompute them from the CSVs):
per lesson the score statistics and status counts (``lesson_stats``), per check who passed and the
points lost (``check_stats``), why a check lost its points (``cause``, from the grader's outcome,
never a message), failures grouped by message (numbers masked), and the checks and exercises that
cost the class most points to wrong answers (``ranked``, ``ranked_exercises``)."""

from __future__ import annotations

import re
import statistics
from collections import Counter
from dataclasses import dataclass, field

from ..grader.core.model import Outcome, exercise_of
from .data import STATUSES, Check, ClassData, Row


def cause(row: Row, check: Check) -> str | None:
    """Why a check lost its points, from the outcome the grader decided (never from a message):
    "wrong" (it ran on the student's answer and failed: the misconceptions), "unanswered" (the
    stub's NotImplementedError), "not graded" (it timed out, hit a limit, lost its process, never
    ran, was voided by code aimed at the grader, or has no outcome recorded). None if it passed."""
    if check.passed:
        return None
    if check.outcome == Outcome.WRONG:
        return "wrong"
    if check.outcome == Outcome.UNANSWERED:
        return "unanswered"
    return "not graded"


_NUMBERS_IN_TEXT = re.compile(r"(?<![A-Za-z_\d.])[-+]?\d+(\.\d+)?([eE][-+]?\d+)?")


def message_key(text: str) -> str:
    """Messages that differ only in their numbers (the student's values) are one group."""
    return _NUMBERS_IN_TEXT.sub("#", text.strip())


def lesson_stats(data: ClassData, lesson: str) -> dict:
    rows = data.lesson_rows(lesson)
    scores = [r.score for r in rows if r.status != "missing"]
    return {
        "students": len(rows),
        "submitted": len(scores),
        "max_score": max((r.max_score for r in rows), default=0.0),
        "mean": statistics.fmean(scores) if scores else None,
        "median": statistics.median(scores) if scores else None,
        "min": min(scores) if scores else None,
        "max": max(scores) if scores else None,
        "scores": scores,
        **{s: sum(r.status == s for r in rows) for s in STATUSES},
    }


@dataclass
class CheckStats:
    lesson: str
    grade_id: str
    hidden: bool | None
    doc: str
    max_score: float
    n: int = 0  # rows of tests.csv for this check (the notebooks submitted)
    passed: int = 0
    lost: float = 0.0  # points lost, every cause
    lost_wrong: float = 0.0  # points lost to wrong answers
    failures: list[tuple[Row, Check, str]] = field(default_factory=list)

    @property
    def exercise(self) -> str:
        return exercise_of(self.grade_id)

    @property
    def share(self) -> float | None:
        return self.passed / self.n if self.n else None

    @property
    def wrong(self) -> list[tuple[Row, Check]]:
        return [(r, c) for r, c, why in self.failures if why == "wrong"]

    def groups(self) -> list[dict]:
        """The failures, grouped by what students hit: wrong answers by message (numbers masked),
        then the unanswered and the not graded; largest group first."""
        groups: dict[tuple[str, str], dict] = {}
        for row, check, why in self.failures:
            text = (check.message or check.error or "failed") if why == "wrong" else why
            g = groups.setdefault((why, message_key(text)), {"cause": why, "texts": Counter(), "rows": []})
            g["texts"][text] += 1
            g["rows"].append(row)
        order = {"wrong": 0, "unanswered": 1, "not graded": 2}
        return sorted(groups.values(), key=lambda g: (order[g["cause"]], -len(g["rows"])))


def check_stats(data: ClassData) -> list[CheckStats]:
    stats: dict[tuple[str, str], CheckStats] = {}
    for row in data.rows:
        for c in row.checks:
            s = stats.get((row.lesson, c.grade_id))
            if s is None:
                s = stats[(row.lesson, c.grade_id)] = CheckStats(row.lesson, c.grade_id, c.hidden, c.doc, c.max_score)
            s.hidden = s.hidden if s.hidden is not None else c.hidden
            s.doc = s.doc or c.doc
            s.max_score = max(s.max_score, c.max_score)
            s.n += 1
            s.passed += c.passed
            why = cause(row, c)
            if why:
                lost = c.max_score - c.score
                s.lost += lost
                s.lost_wrong += lost if why == "wrong" else 0.0
                s.failures.append((row, c, why))
    lessons = {n: i for i, n in enumerate(data.lessons)}
    return sorted(stats.values(), key=lambda s: lessons[s.lesson])  # stable: the notebook's order


def ranked(stats: list[CheckStats]) -> list[CheckStats]:
    """Checks that cost points to wrong answers, most points first."""
    return sorted(
        (s for s in stats if s.lost_wrong > 0), key=lambda s: (-s.lost_wrong, -len(s.wrong), s.lesson, s.grade_id)
    )


def ranked_exercises(top: list[CheckStats]) -> list[dict]:
    """Exercises (a function and its visible and hidden checks) by points lost to wrong answers."""
    ex: dict[tuple[str, str], dict] = {}
    for s in top:
        x = ex.setdefault(
            (s.lesson, s.exercise),
            {"lesson": s.lesson, "exercise": s.exercise, "lost_wrong": 0.0, "who": set(), "n": 0, "checks": []},
        )
        x["lost_wrong"] += s.lost_wrong
        x["who"] |= {r.student for r, _ in s.wrong}
        x["n"] = max(x["n"], s.n)
        x["checks"].append(s)  # already ranked: the costliest first
    for x in ex.values():
        x["students"] = len(x.pop("who"))
    return sorted(ex.values(), key=lambda x: (-x["lost_wrong"], -x["students"], x["lesson"], x["exercise"]))
