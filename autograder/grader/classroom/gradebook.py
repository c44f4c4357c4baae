"""Where grades are kept, by the parent process only: nbgrader's gradebook and the journal.

``OUT/gradebook.db`` is nbgrader's (made by its generate_assignment from the source notebooks,
written through its Gradebook API, one writer). ``OUT/journal.jsonl`` gets one line per graded
notebook as it finishes (fsync'd): an interrupt loses no finished grade and a rerun resumes. At
the end of a run each row in its scope is journaled as the run decided it (a ``missing`` row, the
intake's notes: a line marked ``"entry": "row"``) where it differs from the journal's last line
for it: the journal's last line per student and lesson is the OUT's class, which a rerun with
another scope merges with (classrun.py) and every output is rewritten from.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
from pathlib import Path

from ..core.model import Result, lesson_keyed
from ..core.settings import Settings


class GradebookWriter:
    """The only writer of OUT/gradebook.db: nbgrader's Gradebook API, in the parent process."""

    def __init__(self, db_path: Path):
        import warnings
        from nbgrader.api import Gradebook

        from ...common.gradebookschema import install

        install()  # the new gradebook's schema version read here, not by a subprocess
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
        # nbgrader's assignment and its one notebook are both named after the lesson
        self.gb.update_or_create_submission(r.lesson, r.student)
        nb = self.gb.find_submission_notebook(r.lesson, r.lesson, r.student)
        scores = {t.grade_id: t.score for t in r.tests}
        for g in nb.grades:
            g.auto_score = float(scores.get(g.name, 0.0))
            g.manual_score = None
        if nb.grades:  # an instructor's override (overrides.py): the difference as extra credit
            graded = sum(g.auto_score for g in nb.grades)
            nb.grades[0].extra_credit = r.score - graded if r.override else None
        nb.flagged = r.status != "ok" or bool(r.override)
        self.gb.db.commit()

    def close(self) -> None:
        self.gb.close()


INTERRUPTED = (
    "\nInterrupted: finished grades are kept in the gradebook and the journal; rerun the same command to resume."
)


ROW = "row"  # a journal line's "entry" when it is a row as a run decided it, not a notebook's grade


class Journal:
    """OUT/journal.jsonl: one finished Result per line. ``done``: the last grade per student and
    lesson (what a rerun may skip); ``rows``: the last line of any kind per student and lesson (the
    class this OUT holds). ``fresh``: start a new journal (the old one is removed). A row is held
    once (``done`` and ``rows`` share the Result a run appended, ``lines`` keeps only a digest of
    its last line): the parent's memory grows by one Result a row (benchmarks/bench_class_memory.py)."""

    def __init__(self, path: Path, fresh: bool = False):
        self.path = path
        if fresh and path.exists():
            path.unlink()
        self.done, self.rows, self.lines = {}, {}, {}
        if path.exists():
            for line in path.read_text().splitlines():
                with contextlib.suppress(Exception):
                    d = json.loads(line)
                    entry = d.pop("entry", "")
                    r = Result.from_dict(d)
                    key = (r.student, r.lesson)
                    if entry != ROW:
                        self.done[key] = r
                    self.rows[key], self.lines[key] = r, line_digest(lesson_keyed(d))  # older: "notebook"
        self.file = None

    def _write(self, d: dict) -> None:
        if self.file is None:
            self.file = open(self.path, "a")
        self.file.write(json.dumps(d) + "\n")
        self.file.flush()
        os.fsync(self.file.fileno())

    def append(self, r: Result) -> None:
        """A notebook's grade, as it finishes (``r`` is kept as it is: the caller's own row)."""
        d = r.to_dict()
        self._write(d)
        key = (r.student, r.lesson)
        self.done[key], self.rows[key], self.lines[key] = r, r, line_digest(d)

    def append_row(self, r: Result) -> None:
        """A row as the run decided it, journaled only where it differs from the journal's last line."""
        d, key = r.to_dict(), (r.student, r.lesson)
        if self.lines.get(key) != line_digest(d):
            self._write({"entry": ROW, **d})
            self.rows[key], self.lines[key] = r, line_digest(d)

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None


def line_digest(d: dict) -> bytes:
    """What tells two journal lines apart, in 32 bytes."""
    return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).digest()


def digest(submission: bytes, fingerprint: str, emulation: str) -> str:
    """What a rerun compares: the submission and the ``fingerprint`` of everything else that can
    change its grade; the emulation mode is kept readable after the colon (report/load.py)."""
    h = hashlib.sha256(submission)
    h.update(fingerprint.encode())
    return h.hexdigest() + ":" + emulation


# The grader's own code, for the fingerprint: every module a grade passes through, from the
# submission's intake to the checker's tests, the emulation prelude and the mistakes' parser.
GRADING_CODE = (
    "grader/**/*.py",
    "chip/emulat*.py",
    "chip/tpu_compiler.py",
    "common/mistakes.py",
    "common/notebooks.py",
    "common/textsafe.py",
)
NOT_GRADING = ("jobs", "seed")  # how many notebooks at once; the seed is compared row by row


@functools.lru_cache(maxsize=1)
def grader_version() -> str:
    """A SHA-256 of the grading code as it is on disk (a fix in the grader regrades the class)."""
    package = Path(__file__).resolve().parents[2]  # autograder/
    h = hashlib.sha256()
    for path in sorted({p for pattern in GRADING_CODE for p in package.glob(pattern)}):
        h.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def fingerprint(settings: Settings, lesson: dict) -> str:
    """Everything but the submission that can change a notebook's grade: the settings (every limit,
    timeout and switch but ``NOT_GRADING``), the lesson's notebooks (setup, hidden tests, reference
    solutions; the release its edits are judged against), its known mistakes where diagnosis runs
    (they name mistakes in the feedback), and the grader's version."""
    graded = {k: v for k, v in settings.to_dict().items() if k not in NOT_GRADING}
    parts = {
        "settings": graded,
        "lesson": {k: v for k, v in lesson.items() if k != "mistakes" or settings.diagnose},
        "grader": grader_version(),
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()
