"""An instructor's own score for one student and lesson: ``python -m autograder override OUT
--student S --lesson L --score X --reason "..."`` (``--remove`` takes it back).

Overrides live in ``OUT/overrides.jsonl``, one line per change (set or removed, with the reason and
the date: the file is the history); the last line for a student and lesson is the one in force.
The journal keeps what the grader graded; every output of OUT (grades.csv's score, results.json,
the report, the gradebook, the feedback page's score) shows the override, marked as one, on every
rewrite, so a regrade never silently undoes it.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from pathlib import Path

from ...common.textsafe import told_apart
from ..core.model import Result

FILE = "overrides.jsonl"


class OverrideError(Exception):
    """The override cannot be recorded as asked; nothing was written."""


def load(out: Path) -> dict[tuple[str, str], dict]:
    """The overrides in force: (student, lesson) -> {"score", "reason", "date"}."""
    path = Path(out) / FILE
    found: dict[tuple[str, str], dict] = {}
    if not path.is_file():
        return found
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
            key = (str(d["student"]), str(d["lesson"]))
            if d.get("removed"):
                found.pop(key, None)
            else:
                found[key] = {"score": float(d["score"]), "reason": str(d["reason"]), "date": str(d.get("date", ""))}
        except (ValueError, KeyError, TypeError) as exc:
            raise OverrideError(f"{path} line {i} is not an override ({exc}): fix or remove that line") from None
    return found


def student_of(rows: dict, typed: str) -> str:
    """The student of ``rows`` (keyed (student, lesson)) that ``typed`` names: that name itself, or
    the name whose told-apart face it is as grades.csv shows it (``cafe<U+0301>``); else ``typed``."""
    names = {s for s, _ in rows}
    if typed in names:
        return typed
    return next((s for s, face in told_apart(names).items() if face == typed), typed)


def record(out: Path, student: str, lesson: str, rows: dict, score: float | None, reason: str, remove: bool) -> str:
    """Append a change to OUT/overrides.jsonl; ``rows``: the OUT's class (journal.rows), which
    must hold the student's row for the lesson (by name, or by the face grades.csv shows, and
    lesson name or number). Returns what was done."""
    student = student_of(rows, student)
    lesson = next((n for s, n in sorted(rows) if s == student and lesson in (n, n.split("_", 1)[0])), lesson)
    row = rows.get((student, lesson))
    if row is None:
        known = sorted({n for s, n in rows if s == student})
        raise OverrideError(
            f"OUT holds no row for {student}/{lesson}"
            + (f" (its lessons for {student}: {', '.join(known)})" if known else f" (no student {student!r})")
        )
    current = load(out).get((student, lesson))
    if remove:
        if current is None:
            raise OverrideError(f"{student}/{lesson} has no override to remove")
        line = {"student": student, "lesson": lesson, "removed": True, "reason": reason}
        done = f"override of {student}/{lesson} removed: the graded score {row.score:g} / {row.max_score:g} is back"
    else:
        if score is None or not reason.strip():
            raise OverrideError("an override needs --score and a --reason")
        if not 0 <= score <= row.max_score:
            raise OverrideError(f"--score {score:g} is outside 0..{row.max_score:g} (the lesson's points)")
        line = {"student": student, "lesson": lesson, "score": score, "reason": reason}
        done = (
            f"{student}/{lesson}: {score:g} / {row.max_score:g} set by hand (graded: {row.score:g}), reason: {reason}"
        )
    line["date"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    with open(Path(out) / FILE, "a", encoding="utf-8") as f:
        f.write(json.dumps(line) + "\n")
        f.flush()
        os.fsync(f.fileno())
    return done


def apply(rows, overrides: dict) -> list[Result]:
    """Copies of ``rows`` with each override in force: the score is the instructor's, ``override``
    says so (the graded score, the reason, the date). The rows themselves are left as graded."""
    shown = []
    for r in rows:
        o = overrides.get((r.student, r.lesson))
        if o is None:
            shown.append(dataclasses.replace(r, override=None))
        else:
            shown.append(dataclasses.replace(r, score=o["score"], override={**o, "graded_score": r.score}))
    return shown
