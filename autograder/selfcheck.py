"""`python -m autograder check NOTEBOOK`: a learner's self-check, the same grading as `grade` for one
notebook (any file name: its lesson is recognised by its exercises), printed as the student may
see it: each check's outcome, the known mistake a failed one behaves like, the score; never test
code or a hidden test's message."""

from __future__ import annotations

import tempfile
from pathlib import Path

from .grader.classrun import load_lessons
from .grader.run import grade_notebook
from .mistakes import sentence
from .notebooks import ROOT, lesson_of, lessons


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
    r = grade_notebook("you", data, notebook.read_bytes(), settings, ROOT)
    for t in r.tests:
        mark = "PASS" if t.score >= t.max_score else "FAIL"
        print(f"{mark}  {t.grade_id:<48} {t.score:g}/{t.max_score:g}" + (f"  {t.error}" if mark == "FAIL" else ""))
        for line in sentence(t.mistakes, ROOT) if mark == "FAIL" else []:  # the library's text only
            print(f"      {line}")
    for note in r.notes:
        print(f"note: {note}")
    # what the student's page says: the status of the visible checks (how a hidden one failed is a
    # signal an answer could send about a hidden input)
    status, detail = (r.shown_status, r.shown_detail) if r.shown_status else (r.status, r.detail)
    print(f"\nScore: {r.score:g} / {r.max_score:g}   status: {status}" + (f" ({detail})" if detail else ""))
    return 0 if r.status == "ok" and r.max_score > 0 and r.score == r.max_score else 1
