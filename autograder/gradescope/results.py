"""A graded notebook as Gradescope's ``results.json`` (pure: a ``Result`` in, a dict out).

What a student may read is the student's view of the row (grader/classroom/studentview.py), which the
feedback page and ``check`` show too: the status of the visible checks, the notes, each visible
check's outcome, message and printed lines; a hidden check's passed or failed and nothing else
(never its message, inputs, expected values or code). The fields are those of Gradescope's
"Autograder Specifications" (``score``, ``execution_time``, ``output``, ``tests`` with ``name``,
``score``, ``max_score``, ``output``, ``tags``, ``visibility``, ``extra_data``); tests/gradescope_results.schema.json
is written from the same page and the tests validate every results.json against it.
"""

from __future__ import annotations

import functools
import re

from ..grader.core import rules
from ..grader.core.model import Result
from ..grader.classroom.studentview import Check, StudentView, rule_line, student_view
from ..common.mistakes import sentence
from ..grader.core.settings import SHOWN_OUTPUT_CHARS
from ..common.textsafe import printable

VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")  # Gradescope's options
WHEN = {
    "hidden": "never shown",
    "after_due_date": "shown after the due date",
    "after_published": "shown when your instructor publishes the grades",
}
HIDDEN_NOTE = (
    "Hidden checks run fresh inputs and edge cases; they show passed or failed, and under a failed one the "
    "rule of the exercise's contract it found broken (never their code, messages, inputs or expected values), "
    "and the status above comes from the visible checks."
)


def status_line(v: StudentView) -> str:
    """The row's status as the student's page says it: from the visible checks (a hidden check's
    kind of failure stays with the instructor), with what went wrong in words."""
    return f"Status: {v.status}" + (f" ({printable(v.detail, 600)})" if v.detail else "")


def score_line(v: StudentView, hidden_visibility: str) -> str:
    """The score the top of the page may say: the total where hidden checks are visible now, else
    the visible checks' points alone (the total would tell how the hidden checks went before the
    instructor lets Gradescope show them)."""
    if hidden_visibility == "visible" or not any(c.hidden for c in v.checks):
        return f"{v.score:g} / {v.max_score:g}"
    visible = [c for c in v.checks if not c.hidden]
    points = f"{sum(t.score for t in visible):g} / {sum(t.max_score for t in visible):g}"
    return f"visible checks {points} (hidden checks: {WHEN[hidden_visibility]})"


def check_output(c: Check) -> str:
    """One check's text on Gradescope: a hidden check's passed or failed, and under a failed one the
    rule it broke (its author's sentence); a visible one's outcome, its message and what it printed;
    under a failed one, first the known mistake it behaves like (the library's name, explanation
    and section), as on the feedback page."""
    known = sentence(c.mistakes) if c.mistakes else []  # the library's text only
    if c.hidden:
        return "\n".join([c.outcome, *known, *([rule_line(c.rule)] if c.rule else [])])
    lines = [c.outcome + (f": {printable(c.error, 1000)}" if c.error else "")]
    if c.output:
        lines += ["what the check printed:", printable(c.output, SHOWN_OUTPUT_CHARS)]
    return "\n".join([*lines, *known])


@functools.lru_cache(maxsize=1)
def course_rules() -> frozenset[str]:
    """Every rule a failed hidden check of the course can show: each hidden test's rules and
    default rule, and each exercise's ``raised`` sentence (core/rules.py), read from solutions/."""
    import nbformat

    from ..common.notebooks import ROOT, cell_grade_id, lessons

    found = set()
    for lesson in lessons():
        nb = nbformat.read(str(ROOT / "solutions" / lesson / f"{lesson}.ipynb"), as_version=4)
        for c in nb.cells:
            if c.cell_type == "code" and cell_grade_id(c).startswith("answer_"):
                found.add(rules.raised(cell_grade_id(c).removeprefix("answer_")))
            elif c.cell_type == "code":
                found.update(rules.every_rule(c.source))
    return frozenset(found)


def hidden_shows(output: str, shown_rules: tuple[str, ...] | frozenset[str] = ()) -> bool:
    """Whether a hidden check's text on Gradescope shows only what a hidden check may: its outcome
    (passed or failed), then nothing but the library's sentences of the known mistake it behaves
    like (mistakes.sentence: no input, expected value or test code) and, last, under a failed one,
    the rule it broke: one of ``shown_rules`` (the solution's sentences, core/rules.py; by default
    every rule of the course, ``course_rules``). The harness's tests use it."""
    first, *rest = output.split("\n")
    last = rest[-1] if rest else ""
    allowed = shown_rules or course_rules()
    ruled = first == "failed" and last in {rule_line(r) for r in allowed}
    known = rest[:-1] if ruled else rest
    return (
        first in ("passed", "failed")
        and all(line.startswith("Your `") for line in known)
        and not (rest and first == "passed")
    )


def check_name(exercise: str, t: Check) -> str:
    """The exercise and the check, from its docstring (the grade id where it has none)."""
    kind = "hidden check" if t.hidden else "visible check"
    doc = re.sub(r"^(visible|hidden) test:\s*", "", printable(t.doc, 300, keep=""), flags=re.I)
    return f"{exercise}, {kind}: {doc or t.grade_id}"


def results_json(r: Result, hidden_visibility: str, layers: str, seconds: float) -> dict:
    """Gradescope's results.json for a graded notebook (never a grader-error row: that one is an
    autograder failure, run.py writes no results for it)."""
    if hidden_visibility not in VISIBILITIES:
        raise ValueError(f"hidden visibility {hidden_visibility!r}: one of {', '.join(VISIBILITIES)}")
    if r.status == "grader-error":
        raise ValueError("a grader-error row is an autograder failure, not a result")
    v = student_view(r)
    tests = []
    for exercise, checks in v.exercises():
        for t in checks:
            tests.append(
                {
                    "name": check_name(exercise, t),
                    "score": t.score,
                    "max_score": t.max_score,
                    "output": check_output(t),
                    "tags": [exercise, "hidden" if t.hidden else "visible"],
                    "visibility": hidden_visibility if t.hidden else "visible",
                    "extra_data": {"grade_id": t.grade_id},  # stored, not shown: tests.csv's key
                }
            )
    top = [f"{v.lesson}: {score_line(v, hidden_visibility)}. {status_line(v)}."]
    top += [f"- {printable(n, 600)}" for n in v.notes]
    if any(c.hidden for c in v.checks):
        top.append(HIDDEN_NOTE)
    top.append(layers)
    return {
        "score": r.score,
        "execution_time": max(0, round(seconds)),
        "output": "\n".join(top),
        "tests": tests,
    }


def no_notebook_json(lesson: str, why: str, max_score: float, layers: str, seconds: float) -> dict:
    """results.json when the upload holds no notebook of this lesson: 0 points and why, in words
    (the student's to fix by uploading again; not an autograder failure)."""
    return {
        "score": 0.0,
        "execution_time": max(0, round(seconds)),
        "output": f"{lesson}: 0 / {max_score:g}. Status: missing ({printable(why, 600)}).\n{layers}",
        "tests": [],
    }
