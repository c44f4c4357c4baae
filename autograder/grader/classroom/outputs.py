"""What an instructor and the students read: CSVs, feedback pages, the terminal table.

Every string that came from a submission is escaped for its medium: HTML-escaped on pages (the
feedback page is templates/feedback.html.j2 in autograder/report/, rendered by its autoescaping
environment, templating.py), control characters escaped in the terminal and the CSVs,
spreadsheet formulas neutralised.
"""

from __future__ import annotations

import csv
import datetime
import json
from pathlib import Path

from ..core.model import Result
from ..core.model import STATUSES
from ...common.textsafe import folder_names, name_cell, told_apart
from ...common.textsafe import printable
from ...common.mistakes import lookup
from ...common.notebooks import lesson_title
from ...common.templating import render
from .studentview import rule_line, student_view


def feedback_html(r: Result, title: str = "", date: str = "") -> str:
    """A student's page (templates/feedback.html.j2): the lesson's title and the date graded, then
    each exercise with its checks, their docstrings and outcomes: the student's view of the row
    (studentview.py) and nothing else; the known mistakes in the library's words, then the rule a
    failed hidden check broke."""
    v = student_view(r)
    return render(
        "feedback.html.j2",
        v=v,
        overridden=bool(r.override),
        diagnosis=lambda c: lookup(c.mistakes),
        rule_line=rule_line,
        title=title or v.lesson,
        date=date,
    )


def feedback_folders(rows) -> dict[str, str]:
    """Each student's folder of feedback pages (OUT/feedback/<folder>/<lesson>.html) in a class of
    ``rows`` (Results, or the report's Rows): textsafe.folder_names of the students with a page, so
    that two names differing only in normalisation or case never share a folder on any disk."""
    return folder_names(r.student for r in rows if r.status != "missing")


def write_outputs(out: Path, results: list[Result]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    results = sorted(results, key=lambda r: (r.student, r.lesson))
    shown = told_apart(r.student for r in results)  # two names that print alike never share a face
    with open(out / "grades.csv", "w", newline="", encoding="utf-8", errors="backslashreplace") as f:
        w = csv.writer(f)
        w.writerow(["student", "lesson", "score", "max_score", "status"])
        for r in results:
            w.writerow([name_cell(shown[r.student]), r.lesson, f"{r.score:g}", f"{r.max_score:g}", r.status])
    with open(out / "tests.csv", "w", newline="", encoding="utf-8", errors="backslashreplace") as f:
        w = csv.writer(f)
        w.writerow(["student", "lesson", "grade_id", "score", "max_score", "outcome", "seed", "mistakes", "rule"])
        for r in results:
            for t in r.tests:
                w.writerow(
                    [
                        name_cell(shown[r.student]),
                        r.lesson,
                        t.grade_id,
                        f"{t.score:g}",
                        f"{t.max_score:g}",
                        t.outcome,
                        "" if r.seed is None else r.seed,
                        " or ".join(t.mistakes),  # keys of autograder.common.mistakes (lesson:function:id)
                        t.rule,  # the rule a wrong hidden check broke (the solution's own sentence)
                    ]
                )
    titles = {n: lesson_title(n) for n in {r.lesson for r in results}}
    date = datetime.date.today().isoformat()
    folders = feedback_folders(results)
    for r in results:
        if r.status != "missing":
            path = out / "feedback" / folders[r.student] / f"{r.lesson}.html"
            path.parent.mkdir(parents=True, exist_ok=True)
            page = feedback_html(r, titles[r.lesson], date)
            path.write_text(page, encoding="utf-8", errors="backslashreplace")
    (out / "results.json").write_text(json.dumps([r.to_dict() for r in results], indent=1))


def print_table(results: list[Result]) -> None:
    print(f"{'student':<16} {'lesson':<26} {'score':>11}  status")
    shown = told_apart(r.student for r in results)
    for r in results:
        who = printable(shown[r.student], 40, keep="")
        print(
            f"{who:<16} {r.lesson:<26} {r.score:>5g} / {r.max_score:<4g} {r.status}"
            + (f"  ({printable(r.detail, keep='')})" if r.detail else "")
        )
    counts = {s: sum(r.status == s for r in results) for s in STATUSES}
    print("  ".join(f"{s}: {c}" for s, c in counts.items() if c))
