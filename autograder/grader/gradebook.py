"""Where grades are kept, by the parent process only: nbgrader's gradebook and the journal.

``OUT/gradebook.db`` is nbgrader's (made by its generate_assignment from the source notebooks,
written through its Gradebook API, one writer). ``OUT/journal.jsonl`` gets one line per graded
notebook as it finishes (fsync'd): an interrupt loses no finished grade and a rerun resumes.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path

from .model import Result


class GradebookWriter:
    """The only writer of OUT/gradebook.db: nbgrader's Gradebook API, in the parent process."""

    def __init__(self, db_path: Path):
        import warnings
        from nbgrader.api import Gradebook

        warnings.filterwarnings("ignore", module="nbgrader")  # SQLAlchemy autoflush chatter
        warnings.filterwarnings("ignore", message=".*not in session.*")
        self.gb = Gradebook(f"sqlite:///{db_path}")

    def record(self, r: Result) -> None:
        from nbgrader.api import MissingEntry

        if r.status == "missing":
            return
        try:
            self.gb.find_student(r.student)
        except MissingEntry:
            self.gb.add_student(r.student)
        self.gb.update_or_create_submission(r.notebook, r.student)
        nb = self.gb.find_submission_notebook(r.notebook, r.notebook, r.student)
        scores = {t.grade_id: t.score for t in r.tests}
        for g in nb.grades:
            g.auto_score = float(scores.get(g.name, 0.0))
            g.manual_score = None
        nb.flagged = r.status != "ok"
        self.gb.db.commit()

    def close(self) -> None:
        self.gb.close()


INTERRUPTED = (
    "\nInterrupted: finished grades are kept in the gradebook and the journal; rerun the same command to resume."
)


class Journal:
    """OUT/journal.jsonl: one finished Result per line."""

    def __init__(self, path: Path, fresh: bool = False):
        self.path = path
        if fresh and path.exists():
            path.unlink()
        self.done = {}
        if path.exists():
            for line in path.read_text().splitlines():
                with contextlib.suppress(Exception):
                    r = Result.from_dict(json.loads(line))
                    self.done[(r.student, r.notebook)] = r
        self.file = None

    def append(self, r: Result) -> None:
        if self.file is None:
            self.file = open(self.path, "a")
        self.file.write(json.dumps(r.to_dict()) + "\n")
        self.file.flush()
        os.fsync(self.file.fileno())

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


def digest(submission: bytes, lesson_source: str, settings_key: str) -> str:
    """What a rerun compares: the submission, the lesson's source and the grading settings."""
    h = hashlib.sha256(submission)
    h.update(lesson_source.encode())
    return h.hexdigest() + ":" + settings_key
