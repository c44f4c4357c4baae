"""Issue 44 (6): one student-view summary. What a student may read of a graded notebook is decided
once (grader/classroom/studentview.py) and shown by the feedback page, Gradescope's results.json and
``python -m autograder check``: none of them reads a Result's fields for itself."""

import json
import re

from autograder.grader.core.model import Outcome, Result, Status, TestResult
from autograder.grader.classroom.outputs import feedback_html
from autograder.grader.classroom.studentview import student_view
from autograder.grader.notebook.verdict import HIDDEN_FAILED
from autograder.gradescope.results import results_json
from conftest import ROOT

SECRET = "SECRET-42"


def secret_row() -> Result:
    """A row whose instructor-side fields hold a hidden input everywhere they could."""
    hidden = TestResult("test_f_hidden", 0.0, 2.0, f"expected {SECRET}", True, "Hidden test: f.")
    hidden.message, hidden.output, hidden.outcome = SECRET, SECRET, Outcome.TIMED_OUT
    visible = TestResult("test_f_visible", 1.0, 1.0, "", False, "Visible test: f(2).")
    return Result(
        "ada",
        "01_number_formats",
        1.0,
        3.0,
        Status.TIMEOUT,
        f"timed out in {SECRET}",
        [hidden, visible],
        shown_status="ok",
        shown_detail="",
    )


def test_the_view_holds_only_what_is_public_and_every_page_shows_the_view():
    r = secret_row()
    v = student_view(r)
    assert SECRET not in repr(v)
    assert (v.status, v.detail, v.score, v.max_score) == ("ok", "", 1.0, 3.0)
    hidden = next(c for c in v.checks if c.hidden)
    assert (hidden.outcome, hidden.error, hidden.output) == ("failed", HIDDEN_FAILED, "")
    assert v.exercises() == [("f", v.checks)]
    assert SECRET not in feedback_html(r)
    assert SECRET not in json.dumps(results_json(r, "visible", "sandbox", 1.0))


def test_no_renderer_reads_the_rows_status_or_checks_for_itself():
    """The three pasted copies (outputs.py, gradescope/results.py, selfcheck.py) are gone: each
    takes grader.studentview.student_view, and only studentview.py picks the shown status (verdict.py
    decides it)."""
    renderers = [
        "autograder/grader/classroom/outputs.py",
        "autograder/gradescope/results.py",
        "autograder/grader/classroom/selfcheck.py",
    ]
    for path in renderers:
        assert "student_view(" in (ROOT / path).read_text(), path
    picks = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "autograder").rglob("*.py")
        if re.search(r"\.shown_status\b", p.read_text())
    ]
    assert sorted(picks) == ["autograder/grader/classroom/studentview.py", "autograder/grader/notebook/verdict.py"]
