"""`python -m autograder check NOTEBOOK`: a learner's self-check, the same grading as `grade` for one
notebook (any file name: its lesson is recognised by its exercises), printed as the student may
see it: each check's outcome, the known mistake a failed one behaves like, the rule of the contract a
failed hidden one broke, the score; never test code or a hidden test's message."""

from __future__ import annotations

import tempfile
from pathlib import Path

from .classrun import load_lessons
from ..notebook.grade import grade_notebook
from ..notebook.submissions import lesson_of, read_submission
from .studentview import rule_line, student_view
from ...common.mistakes import sentence
from ...common.notebooks import ROOT, lessons


def check(notebook: Path, settings) -> int:
    """A learner's self-check: the same grading as `grade`, for one notebook; prints each test's
    outcome and the score (never test code), exits 0 only if everything passes."""

    if not notebook.is_file():
        print(f"{notebook}: no such file")
        return 2
    lesson = lesson_of(notebook)
    if lesson is None:
        print(
            f"{notebook.name}: not a notebook of this course's lessons ({', '.join(lessons())}); "
            "check the notebook you downloaded from notebooks/, with your answers filled in"
        )
        return 2
    if lesson != notebook.stem:
        print(f"{notebook.name}: checking it as {lesson} (recognised by its exercises)\n")
    with tempfile.TemporaryDirectory(prefix="check-") as work:
        data = load_lessons(ROOT, [lesson], Path(work) / "gradebook.db")[lesson]
    r = grade_notebook("you", data, read_submission(notebook), settings, ROOT)
    v = student_view(r)  # what the student's page says, and nothing else (grader/classroom/studentview.py)
    for c in v.checks:
        mark = "PASS" if c.passed else "FAIL"
        print(f"{mark}  {c.grade_id:<48} {c.score:g}/{c.max_score:g}" + (f"  {c.error}" if mark == "FAIL" else ""))
        for line in sentence(c.mistakes, ROOT):  # under a failed check only: the library's text only
            print(f"      {line}")
        if c.rule:  # after the named mistake: the rule of the contract it broke (the author's sentence)
            print(f"      {rule_line(c.rule)}")
    for note in v.notes:
        print(f"note: {note}")
    print(f"\nScore: {v.score:g} / {v.max_score:g}   status: {v.status}" + (f" ({v.detail})" if v.detail else ""))
    return 0 if r.status == "ok" and r.max_score > 0 and r.score == r.max_score else 1
