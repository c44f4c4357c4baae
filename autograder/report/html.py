"""The class report's page, OUT/report.html: what goes on it (computed here from ``ClassData``,
stats.py and figures.py) and how it reads (templates/report.html.j2, through templating.py's
autoescaping environment: every string from a submission is shown as text).

One self-contained file: figures are PNG data URIs, no scripts, fonts or other files, and a
Content-Security-Policy forbids loading anything. Instructor-only: it quotes hidden tests' messages.

Built for a class of thousands: the first screen says what to do first ("At a glance", glance.py),
the misconceptions and the rules broken are ranked tables of one line each (explanations and
students folded in ``<details>``), every long list is folded or linked as a CSV (``OUT/missing.csv``), and students
are named where a group is small enough to act on (NAMES_INLINE), else folded (NAMES_LISTED).
"""

from __future__ import annotations

import datetime as dt
import statistics
import urllib.parse
from pathlib import Path

from ..common.words import human_bytes
from ..common import templating
from ..common.textsafe import told_apart
from ..grader.classroom.outputs import feedback_folders
from .data import NEEDS_A_HUMAN, STATUSES, ClassData, Row
from .figures import checks_figure, lesson_figure, overview_figure
from .glance import LISTED, MISSING_CSV, human_counts, human_rows, status_counts, write_missing
from .load import load, read_csv
from .misconceptions import Misconception, RuleBroken, coverage, misconceptions, rules_broken
from .stats import CheckStats, check_stats, lesson_stats, ranked, ranked_exercises

KIND = {True: "hidden", False: "visible", None: "?"}
EXPORTS = ("grades.csv", "tests.csv", "grades_wide.csv", MISSING_CSV, "results.json", "run.json")
TOP = 10  # misconceptions and costly checks shown unfolded; the rest folded
NAMES_INLINE = 8  # a group of at most this many students is named inline, a larger one folded
NAMES_LISTED = 40  # a folded group names at most this many (tests.csv and grades.csv hold all)


def feedback_href(data: ClassData, row: Row, root: Path | None = None, folders: dict | None = None) -> str | None:
    """The relative link to the row's feedback page when OUT/feedback holds it, else None
    (``root``: OUT/feedback resolved, ``folders``: outputs.feedback_folders, when the caller has them)."""
    folder = (folders or feedback_folders(data.rows)).get(row.student, row.student)
    path = data.out / "feedback" / folder / f"{row.lesson}.html"
    try:
        root = root or (data.out / "feedback").resolve()
        exists = path.is_file() and path.resolve().is_relative_to(root)
    except (OSError, ValueError):
        exists = False
    if not exists:
        return None
    return f"feedback/{urllib.parse.quote(folder, safe='')}/{urllib.parse.quote(f'{row.lesson}.html', safe='')}"


def reteach(top: list[CheckStats], found: list[Misconception] = (), broken: list[RuleBroken] = ()) -> list[dict]:
    """The three exercises to re-teach first, each with its costliest check, what students hit,
    its most frequent diagnosis (``found``: misconceptions(), ranked) and its rule most broken
    (``broken``: rules_broken(), ranked), if any."""
    items = []
    for x in ranked_exercises(top)[:3]:
        t = x["checks"][0]
        g = next((g for g in t.groups() if g["cause"] == "wrong"), None)
        m = next((m for m in found if (m.lesson, m.exercise) == (x["lesson"], x["exercise"])), None)
        r = next((r for r in broken if (r.lesson, r.exercise) == (x["lesson"], x["exercise"])), None)
        said = g["texts"].most_common(1)[0][0] if g else ""
        items.append({**x, "check": t, "said": said, "mistake": m, "rule": r})
    return items


def failure_groups(s: CheckStats) -> list[dict]:
    """A ranked check's failures as the page lists them: the most frequent text of each group."""
    unrecorded = s.hidden and not any(c.message for _, c in s.wrong)
    return [
        {
            "count": len(g["rows"]),
            "cause": g["cause"],
            "text": g["texts"].most_common(1)[0][0],
            "variants": len(g["texts"]),
            "unrecorded": g["cause"] == "wrong" and unrecorded,
            "rows": sorted(g["rows"], key=lambda r: r.student),
        }
        for g in s.groups()
    ]


def provenance(data: ClassData) -> list[tuple[str, object]]:
    """run.json's fields in the page's order: date, commit, the main versions, the others."""
    run = data.run or {}
    versions = run.get("versions") or {}
    main = ("jax", "jaxlib", "nbgrader", "python")
    items = [("date", run.get("date")), ("course commit", run.get("course_commit"))]
    items += [(name, versions.get(name)) for name in main]
    items += [(k, v) for k, v in versions.items() if k not in main]
    limits = run.get("limits")
    if isinstance(limits, dict):  # sizes as a person reads them: 4 GiB, not 4294967296
        limits = {
            k: human_bytes(v) if k.endswith("_bytes") and isinstance(v, int | float) else v for k, v in limits.items()
        }
    items += [("emulation", run.get("emulation")), ("seed", run.get("seed")), ("limits", limits)]
    shown = ("date", "course_commit", "versions", "emulation", "seed", "limits")
    return items + [(k, v) for k, v in run.items() if k not in shown]


def not_yet_recorded(data: ClassData) -> list[str]:
    """The class's lessons that run.json says were not yet recorded on a TPU when graded (their
    verdicts are the emulation's alone; a run.json without the field says nothing)."""
    records = (data.run or {}).get("chip_records")
    return [n for n in data.lessons if isinstance(records, dict) and records.get(n) == ""]


def render(data: ClassData) -> str:
    lessons = data.lessons
    cstats = check_stats(data)
    top = ranked(cstats)
    found = misconceptions(data)
    broken = rules_broken(data)
    feedback = (data.out / "feedback").resolve()
    links: dict[tuple[str, str], str | None] = {}
    folders = feedback_folders(data.rows)

    def href(row: Row) -> str | None:  # one look on disk per row, however often the page names it
        key = (row.student, row.lesson)
        if key not in links:
            links[key] = feedback_href(data, row, feedback, folders)
        return links[key]

    timed = [r for r in data.rows if r.seconds]
    median = {n: statistics.median([r.seconds for r in timed if r.lesson == n] or [0]) for n in lessons}
    per_lesson = []
    for n in lessons:
        st = lesson_stats(data, n)
        mine = [s for s in cstats if s.lesson == n]
        per_lesson.append(
            {"name": n, "stats": st, "figure": lesson_figure(n, st), "checks": mine}
            | ({"checks_figure": checks_figure(n, mine)} if mine else {})
        )
    roster = data.out / "roster_check.csv"
    return templating.render(
        "report.html.j2",
        data=data,
        now=dt.datetime.now().isoformat(timespec="seconds"),
        n_students=len(data.students),
        statuses=STATUSES,
        status_counts=status_counts(data),
        needs_a_human=NEEDS_A_HUMAN,
        kind=KIND,
        reteach=reteach(top, found, broken),
        misconceptions=found,
        diagnosed=sum(m.students for m in found),
        coverage=coverage(data),
        rules_broken=broken,
        overview=overview_figure(top[:TOP]) if top else None,
        top=[(s, failure_groups(s)) for s in top],
        top_n=TOP,
        names_inline=NAMES_INLINE,
        names_listed=NAMES_LISTED,
        listed=LISTED,
        lessons=per_lesson,
        human_counts=human_counts(data),
        human=human_rows(data),
        missing_csv=MISSING_CSV if (data.out / MISSING_CSV).is_file() else None,
        overridden=[r for r in data.rows if r.override],
        slowest=sorted(timed, key=lambda r: -r.seconds)[:5],
        median=median,
        roster=read_csv(roster) if roster.is_file() else None,
        provenance=provenance(data),
        unrecorded=not_yet_recorded(data),
        exports=[p for p in EXPORTS if (data.out / p).is_file()],
        href=href,
        shown=told_apart(data.students),  # names that differ only in normalisation or case, told apart
    )


def build_report(out: Path, data: ClassData | None = None) -> Path:
    """Write OUT/report.html (and OUT/missing.csv, which it links) and return its path. ``data``:
    the class already in hand (the grader's results, load.from_results); None rebuilds it from the
    files of OUT/ (load.load)."""
    out = Path(out)
    path = out / "report.html"
    data = load(out) if data is None else data
    write_missing(out, data)  # the page links it
    page = render(data)
    path.write_text(page, encoding="utf-8", errors="backslashreplace")
    return path
