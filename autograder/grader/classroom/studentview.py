"""What a student may read of a graded notebook, decided once: the feedback page (outputs.py),
Gradescope's results.json (gradescope/results.py) and ``python -m autograder check`` (selfcheck.py)
all show this summary and nothing else of a ``Result``.

Public: the score, the status and detail of the VISIBLE checks (how a hidden check failed is a
signal an answer could send about a hidden input), the notes, and per check its exercise, its
docstring, its points, its shown outcome (a hidden check: passed or failed only), a visible
check's message and printed lines, and under a failed check the known mistakes it behaves like
(keys of the course's library, whose text alone is shown) first, then the rule of the contract a
failed hidden check broke (its author's sentence, core/rules.py; ``rule_line``). The instructor's
view is the Result.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.model import Outcome, Result, TestResult, exercise_of
from ..notebook.verdict import HIDDEN_FAILED


def shown_outcome(t: TestResult) -> str:
    """A check's outcome as its student may see it: a hidden check says passed or failed only (how
    it failed is a signal an answer could send about a hidden input: only the rule a wrong one
    broke is shown, apart, ``Check.rule``); a visible one says why."""
    if t.outcome == Outcome.PASSED:
        return "passed"
    if t.hidden or t.outcome == Outcome.WRONG:
        return "failed"
    return "not answered yet" if t.outcome == Outcome.UNANSWERED else str(t.outcome)


@dataclass(frozen=True)
class Check:
    """One check as its student sees it."""

    grade_id: str
    exercise: str
    hidden: bool
    doc: str
    score: float
    max_score: float
    outcome: str  # shown_outcome
    error: str = ""  # a failed check's message; a hidden one's is always verdict.HIDDEN_FAILED
    output: str = ""  # a failed visible check's printed lines
    mistakes: list[str] = field(default_factory=list)  # library keys under a failed check
    rule: str = ""  # the rule a failed hidden check broke (model.TestResult.rule)

    @property
    def passed(self) -> bool:
        return self.score >= self.max_score


@dataclass(frozen=True)
class StudentView:
    student: str
    lesson: str
    score: float
    max_score: float
    status: str  # the visible checks' status (model.Result.shown_status), else the row's
    detail: str
    notes: list[str]
    checks: list[Check]

    def exercises(self) -> list[tuple[str, list[Check]]]:
        """The checks grouped by the exercise (the function) they check, in the notebook's order."""
        groups: dict[str, list[Check]] = {}
        for c in self.checks:
            groups.setdefault(c.exercise, []).append(c)
        return list(groups.items())


def check_of(t: TestResult) -> Check:
    failed = t.score < t.max_score
    return Check(
        t.grade_id,
        exercise_of(t.grade_id),
        t.hidden,
        t.doc,
        t.score,
        t.max_score,
        shown_outcome(t),
        (HIDDEN_FAILED if t.hidden else t.error) if failed else "",
        t.output if failed and not t.hidden else "",
        list(t.mistakes) if failed else [],
        t.rule if failed and t.hidden else "",
    )


def rule_line(rule: str) -> str:
    """How every page says the rule a failed check broke ("" where it broke none that is named)."""
    return f"Rule broken: {rule.rstrip('.')}." if rule else ""


def student_view(r: Result) -> StudentView:
    status, detail = (r.shown_status, r.shown_detail) if r.shown_status else (str(r.status), r.detail)
    checks = [check_of(t) for t in r.tests]
    return StudentView(r.student, r.lesson, r.score, r.max_score, str(status), detail, list(r.notes), checks)
