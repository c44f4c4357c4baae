"""The report's first screen, "At a glance", and the lists too long for a page: the class's
status counts, the rows that need a human as counts by cause and lesson, and ``OUT/missing.csv``
(every missing row, per lesson: grades.csv keeps them all too), which the page links instead of
listing a class's missing notebooks one a line."""

from __future__ import annotations

import csv
from pathlib import Path

from ..common.textsafe import name_cell
from .data import NEEDS_A_HUMAN, STATUSES, ClassData, Row

MISSING_CSV = "missing.csv"
LISTED = 50  # at most this many rows of one cause are listed on the page (folded); the CSVs hold all


def status_counts(data: ClassData) -> dict[str, int]:
    """The class's notebooks by status, every status (0 where none)."""
    return {s: sum(r.status == s for r in data.rows) for s in STATUSES}


def human_counts(data: ClassData) -> dict:
    """The rows that need a human: per cause and lesson, per cause, per lesson and in all."""
    lessons = data.lessons
    cells = {(s, n): 0 for s in NEEDS_A_HUMAN for n in lessons}
    for r in data.rows:
        if r.status in NEEDS_A_HUMAN:
            cells[(r.status, r.lesson)] += 1
    return {
        "causes": NEEDS_A_HUMAN,
        "lessons": lessons,
        "cells": cells,
        "by_cause": {s: sum(cells[(s, n)] for n in lessons) for s in NEEDS_A_HUMAN},
        "by_lesson": {n: sum(cells[(s, n)] for s in NEEDS_A_HUMAN) for n in lessons},
        "total": sum(cells.values()),
    }


def human_rows(data: ClassData) -> dict[str, list[Row]]:
    """The rows that need a human, per cause, by student and lesson."""
    return {
        s: sorted((r for r in data.rows if r.status == s), key=lambda r: (r.student, r.lesson)) for s in NEEDS_A_HUMAN
    }


def write_missing(out: Path, data: ClassData) -> Path:
    """OUT/missing.csv: ``lesson,student`` for every missing row, per lesson (names as grades.csv
    writes them, one-to-one); the header alone when none is missing."""
    rows = sorted((r for r in data.rows if r.status == "missing"), key=lambda r: (r.lesson, r.student))
    path = Path(out) / MISSING_CSV
    with open(path, "w", newline="", encoding="utf-8", errors="backslashreplace") as f:
        w = csv.writer(f)
        w.writerow(["lesson", "student"])
        shown = data.shown()
        w.writerows([r.lesson, name_cell(shown[r.student])] for r in rows)
    return path
