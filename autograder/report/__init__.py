"""The instructor's class report and the grade exports an LMS imports, from one class's grades.

``python -m autograder report OUT [--roster ROSTER.csv]`` rebuilds them from the files ``grade``
wrote to OUT/ alone; the command line's ``grade`` does the same at the end of every run
(``report_class``: the grader itself never imports the report). They are:

- ``OUT/report.html``: one self-contained page (figures are PNG data URIs drawn with matplotlib;
  no scripts, fonts or other files; a Content-Security-Policy forbids loading anything), built to
  read at a glance for thousands of students: first what to do first (status counts, re-teach
  first, the rows that need a human as counts by cause and lesson), the known mistakes diagnosed
  as a ranked table (one entry per student and exercise), per lesson the score distribution and
  status counts, per exercise the share of students passing each visible and hidden check, the
  checks that cost the class most points with their docstrings and the (instructor-only) messages
  students hit, grouped and counted, the rows that need a human (folded), and how the grades were
  made (``OUT/run.json``); long lists folded in ``<details>``. Never hand it to students: it quotes
  the hidden tests' assertion messages.
- ``OUT/missing.csv``: every missing row (``lesson,student``), per lesson, linked from the page.
- ``OUT/grades_wide.csv``: one row per student, a column per lesson and a total, the maximum
  points in a "Points Possible" row under the header.
- with ``--roster``: the LMS's own gradebook export (Canvas or Moodle CSV) with the lesson columns
  filled and every other cell as it was, as ``OUT/<roster name>_filled.csv``, and
  ``OUT/roster_check.csv`` listing the students found on one side only (never silently dropped).

Every string that came from a submission (a student's folder name, an exception message, a
detail) is shown as text: escaped by the templates' autoescaping in the page, neutralised by
textsafe.safe_csv_cell in CSVs.

One module per job:

data.py        the model: Row, Check, ClassData (and the statuses a grade can have)
load.py        OUT/ -> ClassData with every disagreement between its files; or the grader's results
stats.py       the numbers: per lesson, per check, why a check lost its points, the ranking
misconceptions.py  the known mistakes diagnosed, one entry per student and exercise; coverage;
               the rules of the contracts that wrong hidden checks broke, by students
glance.py      the first screen's counts, the rows that need a human, OUT/missing.csv
figures.py     the figures (matplotlib's object API, greyscale), as PNG data URIs
html.py        the page: what goes on it, rendered from common/templates/report.html.j2 (common/templating.py)
lms.py         the wide CSV, the roster filled, the exports written
cli.py         the command line
"""

from ..common.textsafe import safe_csv_cell, write_safe_csv
from .cli import main
from .data import NEEDS_A_HUMAN, OUTCOMES, STATUSES, Check, ClassData, Row
from .figures import checks_figure, lesson_figure, overview_figure
from .html import build_report, render
from .lms import POINTS_ROW, fill_roster, lesson_column, wide_rows, write_exports
from .load import from_results, load, read_csv
from .stats import (
    CheckStats,
    cause,
    check_stats,
    exercise_of,
    lesson_stats,
    message_key,
    ranked,
    ranked_exercises,
)


def report_class(out, quiet: bool = False):
    """The class report (OUT/report.html) and the LMS exports of OUT, read from OUT/ alone: what the
    command line does after grading, after an override, and as ``python -m autograder report``."""
    import sys
    from pathlib import Path

    data = load(Path(out))
    write_exports(Path(out), data=data)
    page = build_report(Path(out), data)
    if not quiet:
        print(f"Class report: {page}", file=sys.stderr)
    return page


__all__ = [
    "NEEDS_A_HUMAN",
    "OUTCOMES",
    "POINTS_ROW",
    "STATUSES",
    "Check",
    "CheckStats",
    "ClassData",
    "Row",
    "build_report",
    "cause",
    "check_stats",
    "checks_figure",
    "exercise_of",
    "fill_roster",
    "from_results",
    "lesson_column",
    "lesson_figure",
    "lesson_stats",
    "load",
    "main",
    "message_key",
    "overview_figure",
    "ranked",
    "ranked_exercises",
    "read_csv",
    "render",
    "report_class",
    "safe_csv_cell",
    "wide_rows",
    "write_exports",
    "write_safe_csv",
]
