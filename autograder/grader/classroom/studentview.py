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


@dataclass(frozen=True)
class HiddenChannel:
    """What one hidden check's feedback can say, counted (issue 57): its ``rules`` (every sentence
    a failure of it can show: its statements' rules, its default, a "raises" rule for each exercise it
    calls, or none) and, for each exercise it calls that is diagnosed, its library's mistakes. A
    failed check names at most one rule and, for each such exercise, one set of mistakes that behave
    alike on its calls (a set of equal mistakes or none: at most ``k + 1`` outcomes for k mistakes)."""

    grade_id: str
    rules: int
    mistakes: tuple[int, ...]

    @property
    def outcomes(self) -> int:
        """What the page can show: "passed", or "failed" with one rule and one named set each."""
        named = 1
        for k in self.mistakes:
            named *= k + 1
        return 1 + self.rules * named

    def bits(self, rules: bool = True, diagnose: bool = True) -> float:
        import math

        named = 1
        for k in self.mistakes if diagnose else ():
            named *= k + 1
        return math.log2(1 + (self.rules if rules else 1) * named)


def hidden_channels(source_nb, mistakes: list, not_diagnosed: frozenset[str] = frozenset()) -> list[HiddenChannel]:
    """Each hidden check of a lesson's source notebook, counted as ``HiddenChannel`` says: the
    exercises it calls are the lesson's exercise names its code uses (``plan.contract_names``),
    ``mistakes`` the library's (``common.mistakes.load``), ``not_diagnosed`` the exercises never
    diagnosed (``NOT_DIAGNOSED``'s names for this lesson)."""
    import ast

    from ...common.notebooks import cell_grade_id, is_hidden, is_test
    from ..core.rules import every_rule
    from ..notebook.plan import contract_names

    exercises = contract_names(source_nb)
    channels = []
    for cell in source_nb.cells:
        if cell.cell_type != "code" or not is_test(cell) or not is_hidden(cell.source):
            continue
        used = {n.id for n in ast.walk(ast.parse(cell.source)) if isinstance(n, ast.Name)}
        called = [f for f in exercises if f in used]
        diagnosed = [f for f in called if f not in not_diagnosed]
        per_function = tuple(sum(m.function == f for m in mistakes) for f in diagnosed)
        rules = len(every_rule(cell.source)) + len(called) + 1  # its sentences, a "raises" each, or none
        channels.append(HiddenChannel(cell_grade_id(cell), rules, per_function))
    return channels
