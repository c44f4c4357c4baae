"""The instructor's class report and the grade exports an LMS imports, rebuilt from OUT/ alone.

``python -m autograder report OUT [--roster ROSTER.csv]`` (and the grader, after every run) reads
only what ``grade`` wrote to OUT/ and writes:

- ``OUT/report.html``: one self-contained page (figures are PNG data URIs drawn with matplotlib;
  no scripts, fonts or other files; a Content-Security-Policy forbids loading anything): per
  lesson the score distribution and status counts, per exercise the share of students passing
  each visible and hidden check, the checks that cost the class most points with their docstrings
  and the (instructor-only) messages students hit, grouped and counted, the rows that need a human,
  and how the grades were made (``OUT/run.json``). Never hand it to students: it quotes the hidden
  tests' assertion messages.
- ``OUT/grades_wide.csv``: one row per student, a column per lesson and a total, the maximum
  points in a "Points Possible" row under the header.
- with ``--roster``: the LMS's own gradebook export (Canvas or Moodle CSV) with the lesson columns
  filled and every other cell as it was, as ``OUT/<roster name>_filled.csv``, and
  ``OUT/roster_check.csv`` listing the students found on one side only (never silently dropped).

The numbers come from ``grades.csv`` and ``tests.csv`` (what an LMS gets); ``results.json`` adds
the words (docstrings, messages, details, timings) and is cross-checked against them.

Every string that came from a submission (a student's folder name, an exception message, a
detail) is shown as text: HTML-escaped in the page, neutralised by :func:`safe_csv_cell` in CSVs.
"""

from __future__ import annotations

import argparse
import base64
import csv
import datetime as _dt
import html
import io
import json
import re
import statistics
import sys
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .grader.model import GRADED, Outcome
from .textsafe import csv_forms as _csv_forms
from .textsafe import safe_csv_cell, write_safe_csv

STATUSES = tuple(str(s) for s in GRADED)  # a grades.csv row's status (a grader-error row is never written)
OUTCOMES = {str(o) for o in Outcome}
NEEDS_A_HUMAN = ("tampered", "error", "timeout", "missing")
POINTS_ROW = "Points Possible"  # Canvas's name for the row of maximum points under the header


def _fmt(x: float) -> str:
    return f"{x:g}"


# ---------------------------------------------------------------------------------------------
# Reading OUT/
# ---------------------------------------------------------------------------------------------


@dataclass
class Check:
    grade_id: str
    score: float
    max_score: float
    hidden: bool | None = None  # None: not recorded (no results.json)
    doc: str = ""
    error: str = ""  # what the student saw
    message: str = ""  # instructor-only: the first line of the exception the check raised
    outcome: str | None = None  # model.Outcome's value, decided by the grader (None: not recorded)

    @property
    def passed(self) -> bool:
        return self.score >= self.max_score


@dataclass
class Row:
    student: str
    notebook: str
    score: float
    max_score: float
    status: str
    detail: str = ""
    notes: list[str] = field(default_factory=list)
    seconds: float | None = None
    checks: list[Check] = field(default_factory=list)


@dataclass
class ClassData:
    out: Path
    rows: list[Row]
    run: dict | None
    problems: list[str]  # inconsistencies between the files of OUT/
    emulation_hint: str = ""  # from results.json's digests ("<sha256>:<mode>") when run.json is absent

    @property
    def lessons(self) -> list[str]:
        return sorted({r.notebook for r in self.rows})

    @property
    def students(self) -> list[str]:
        return sorted({r.student for r in self.rows})

    def lesson_rows(self, lesson: str) -> list[Row]:
        return [r for r in self.rows if r.notebook == lesson]


def _read_csv(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8-sig") as f:
        return list(csv.DictReader(f))


def _num(text: str, where: str) -> float:
    try:
        return float(text)
    except (TypeError, ValueError):
        raise ValueError(f"{where}: {text!r} is not a number") from None


def load(out: Path) -> ClassData:
    """Everything the report needs, from OUT/grades.csv and OUT/tests.csv (the numbers) and
    OUT/results.json and OUT/run.json (the words), with any disagreement between them listed."""
    out = Path(out)
    if not (out / "grades.csv").is_file():
        raise FileNotFoundError(f"{out / 'grades.csv'}: not found (is {out} a grading OUT folder?)")
    problems: list[str] = []
    results: list[dict] = []
    if (out / "results.json").is_file():
        results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    else:
        problems.append("results.json is missing: no docstrings, messages, details or timings")
    # The CSVs hold names as a neutraliser wrote them: join in that form (safe_csv_cell's, or
    # any writer that escapes control characters the same way with or without the leading ').
    by_key, joins = {}, {}
    for d in results:
        key = (safe_csv_cell(d["student"]), safe_csv_cell(d["notebook"]))
        by_key[key] = d
        for form in _csv_forms(d["student"]):
            joins.setdefault((form, key[1]), key)

    rows: dict[tuple[str, str], Row] = {}
    for i, g in enumerate(_read_csv(out / "grades.csv"), start=2):
        key = joins.get((g["student"], g["notebook"]), (g["student"], g["notebook"]))
        d = by_key.get(key)
        student, notebook = (d["student"], d["notebook"]) if d else key
        row = Row(
            student,
            notebook,
            _num(g["score"], f"grades.csv line {i}"),
            _num(g["max_score"], f"grades.csv line {i}"),
            g["status"],
        )
        if d:
            row.detail, row.notes, row.seconds = d.get("detail") or "", list(d.get("notes") or []), d.get("seconds")
            if abs(float(d.get("score", 0)) - row.score) > 1e-9 or d.get("status") != row.status:
                problems.append(
                    f"{student}/{notebook}: grades.csv says {_fmt(row.score)} {row.status}, "
                    f"results.json says {_fmt(float(d.get('score', 0)))} {d.get('status')}"
                )
        elif results:
            problems.append(f"{student}/{notebook}: in grades.csv, not in results.json")
        if row.status not in STATUSES:
            problems.append(f"{student}/{notebook}: unknown status {row.status!r}")
        rows[key] = row
    for key, d in by_key.items():
        if key not in rows:
            problems.append(f"{d['student']}/{d['notebook']}: in results.json, not in grades.csv")

    details = {key: {t["grade_id"]: t for t in d.get("tests", [])} for key, d in by_key.items()}
    if (out / "tests.csv").is_file():
        for i, t in enumerate(_read_csv(out / "tests.csv"), start=2):
            key = joins.get((t["student"], t["notebook"]), (t["student"], t["notebook"]))
            if key not in rows:
                problems.append(f"tests.csv line {i}: {t['student']}/{t['notebook']} is not in grades.csv")
                continue
            info = details.get(key, {}).get(t["grade_id"], {})
            rows[key].checks.append(
                Check(
                    t["grade_id"],
                    _num(t["score"], f"tests.csv line {i}"),
                    _num(t["max_score"], f"tests.csv line {i}"),
                    info.get("hidden") if info else None,
                    info.get("doc") or "",
                    info.get("error") or "",
                    info.get("message") or "",
                    t.get("outcome") or (info.get("outcome") if info else None) or None,
                )
            )
    else:
        problems.append("tests.csv is missing: no per-check statistics")
    unknown = [c for row in rows.values() for c in row.checks if not c.passed and c.outcome not in OUTCOMES]
    if unknown:
        problems.append(
            f"{len(unknown)} failed checks carry no outcome the grader knows (an older grader's OUT?): "
            "none is ranked as a wrong answer; grading again records them"
        )
    for row in rows.values():
        total = sum(c.score for c in row.checks)
        if row.checks and abs(total - row.score) > 1e-9:
            problems.append(
                f"{row.student}/{row.notebook}: tests.csv sums to {_fmt(total)}, grades.csv says {_fmt(row.score)}"
            )

    run = None
    if (out / "run.json").is_file():
        try:
            run = json.loads((out / "run.json").read_text(encoding="utf-8"))
        except ValueError as exc:
            problems.append(f"run.json is not valid JSON: {exc}")
    modes = sorted({d["digest"].rpartition(":")[2] for d in results if ":" in (d.get("digest") or "")})
    return ClassData(out, list(rows.values()), run, problems, ", ".join(modes))


# ---------------------------------------------------------------------------------------------
# Statistics (the numbers on the page; the tests recompute them from the CSVs)
# ---------------------------------------------------------------------------------------------


def exercise_of(grade_id: str) -> str:
    m = re.fullmatch(r"test_(.+)_(visible|hidden)", grade_id)
    return m.group(1) if m else grade_id


def cause(row: Row, check: Check) -> str | None:
    """Why a check lost its points, from the outcome the grader decided (never from a message):
    "wrong" (it ran on the student's answer and failed: the misconceptions), "unanswered" (the
    stub's NotImplementedError), "not graded" (it timed out, hit a limit, lost its process, never
    ran, was voided by code aimed at the grader, or has no outcome recorded). None if it passed."""
    if check.passed:
        return None
    if check.outcome == Outcome.WRONG:
        return "wrong"
    if check.outcome == Outcome.UNANSWERED:
        return "unanswered"
    return "not graded"


_NUMBERS_IN_TEXT = re.compile(r"(?<![A-Za-z_\d.])[-+]?\d+(\.\d+)?([eE][-+]?\d+)?")


def message_key(text: str) -> str:
    """Messages that differ only in their numbers (the student's values) are one group."""
    return _NUMBERS_IN_TEXT.sub("#", text.strip())


def lesson_stats(data: ClassData, lesson: str) -> dict:
    rows = data.lesson_rows(lesson)
    scores = [r.score for r in rows if r.status != "missing"]
    return {
        "students": len(rows),
        "submitted": len(scores),
        "max_score": max((r.max_score for r in rows), default=0.0),
        "mean": statistics.fmean(scores) if scores else None,
        "median": statistics.median(scores) if scores else None,
        "min": min(scores) if scores else None,
        "max": max(scores) if scores else None,
        "scores": scores,
        **{s: sum(r.status == s for r in rows) for s in STATUSES},
    }


@dataclass
class CheckStats:
    lesson: str
    grade_id: str
    hidden: bool | None
    doc: str
    max_score: float
    n: int = 0  # rows of tests.csv for this check (the notebooks submitted)
    passed: int = 0
    lost: float = 0.0  # points lost, every cause
    lost_wrong: float = 0.0  # points lost to wrong answers
    failures: list[tuple[Row, Check, str]] = field(default_factory=list)

    @property
    def exercise(self) -> str:
        return exercise_of(self.grade_id)

    @property
    def share(self) -> float | None:
        return self.passed / self.n if self.n else None

    @property
    def wrong(self) -> list[tuple[Row, Check]]:
        return [(r, c) for r, c, why in self.failures if why == "wrong"]

    def groups(self) -> list[dict]:
        """The failures, grouped by what students hit: wrong answers by message (numbers masked),
        then the unanswered and the not graded; largest group first."""
        groups: dict[tuple[str, str], dict] = {}
        for row, check, why in self.failures:
            text = (check.message or check.error or "failed") if why == "wrong" else why
            g = groups.setdefault((why, message_key(text)), {"cause": why, "texts": Counter(), "rows": []})
            g["texts"][text] += 1
            g["rows"].append(row)
        order = {"wrong": 0, "unanswered": 1, "not graded": 2}
        return sorted(groups.values(), key=lambda g: (order[g["cause"]], -len(g["rows"])))


def check_stats(data: ClassData) -> list[CheckStats]:
    stats: dict[tuple[str, str], CheckStats] = {}
    for row in data.rows:
        for c in row.checks:
            s = stats.get((row.notebook, c.grade_id))
            if s is None:
                s = stats[(row.notebook, c.grade_id)] = CheckStats(
                    row.notebook, c.grade_id, c.hidden, c.doc, c.max_score
                )
            s.hidden = s.hidden if s.hidden is not None else c.hidden
            s.doc = s.doc or c.doc
            s.max_score = max(s.max_score, c.max_score)
            s.n += 1
            s.passed += c.passed
            why = cause(row, c)
            if why:
                lost = c.max_score - c.score
                s.lost += lost
                s.lost_wrong += lost if why == "wrong" else 0.0
                s.failures.append((row, c, why))
    lessons = {n: i for i, n in enumerate(data.lessons)}
    return sorted(stats.values(), key=lambda s: lessons[s.lesson])  # stable: the notebook's order


def ranked(stats: list[CheckStats]) -> list[CheckStats]:
    """Checks that cost points to wrong answers, most points first."""
    return sorted(
        (s for s in stats if s.lost_wrong > 0), key=lambda s: (-s.lost_wrong, -len(s.wrong), s.lesson, s.grade_id)
    )


def ranked_exercises(top: list[CheckStats]) -> list[dict]:
    """Exercises (a function and its visible and hidden checks) by points lost to wrong answers."""
    ex: dict[tuple[str, str], dict] = {}
    for s in top:
        x = ex.setdefault(
            (s.lesson, s.exercise),
            {"lesson": s.lesson, "exercise": s.exercise, "lost_wrong": 0.0, "who": set(), "n": 0, "checks": []},
        )
        x["lost_wrong"] += s.lost_wrong
        x["who"] |= {r.student for r, _ in s.wrong}
        x["n"] = max(x["n"], s.n)
        x["checks"].append(s)  # already ranked: the costliest first
    for x in ex.values():
        x["students"] = len(x.pop("who"))
    return sorted(ex.values(), key=lambda x: (-x["lost_wrong"], -x["students"], x["lesson"], x["exercise"]))


# ---------------------------------------------------------------------------------------------
# Figures (matplotlib, no pyplot state, greyscale: grey levels and hatches, never colour alone)
# ---------------------------------------------------------------------------------------------


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight", metadata={"Software": None})
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _figure(w: float, h: float, ncols: int = 1):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(w, h), layout="constrained")
    axes = fig.subplots(1, ncols, squeeze=False)[0]
    for ax in axes:
        ax.grid(axis="y", color="0.85", linewidth=0.6)
        ax.set_axisbelow(True)
    return fig, axes


def lesson_figure(lesson: str, st: dict) -> str:
    """Score histogram (mean and median marked) beside the count of each status."""
    fig, (ax, ax2) = _figure(9.5, 3.2, 2)
    top = st["max_score"]
    scores = st["scores"]
    if scores and all(float(s).is_integer() for s in scores) and top <= 60:
        bins = [b - 0.5 for b in range(int(top) + 2)]
    else:
        bins = 20
    ax.hist(
        scores,
        bins=bins,
        range=None if isinstance(bins, list) else (0, max(top, 1)),
        color="0.55",
        edgecolor="black",
        linewidth=0.6,
    )
    if scores:
        ax.axvline(st["mean"], color="black", linestyle="--", linewidth=1.6, label=f"mean {st['mean']:.1f}")
        ax.axvline(st["median"], color="black", linestyle=":", linewidth=2.2, label=f"median {st['median']:g}")
        ax.legend(loc="upper left", frameon=True, fontsize=8)
    ax.set_xlim(-0.6, top + 0.6)
    ax.set_xlabel(f"score (points, of {top:g})")
    ax.set_ylabel("students (count)")
    ax.set_title(f"{lesson}: {st['submitted']} submitted", fontsize=10)
    ax.yaxis.get_major_locator().set_params(integer=True)

    counts = [st[s] for s in STATUSES]
    shades = ["0.85", "0.65", "0.45", "0.25", "1.0"]
    hatches = ["", "..", "xx", "//", "\\\\"]
    bars = ax2.barh(list(STATUSES), counts, color=shades, edgecolor="black", linewidth=0.6, hatch=hatches)
    ax2.bar_label(bars, labels=[str(c) for c in counts], padding=3, fontsize=8)
    ax2.invert_yaxis()
    ax2.set_xlabel("notebooks (count)")
    ax2.set_xlim(0, max(counts + [1]) * 1.15)
    ax2.set_title("status", fontsize=10)
    ax2.xaxis.get_major_locator().set_params(integer=True)
    ax2.grid(axis="x", color="0.85", linewidth=0.6)
    return _png(fig)


def checks_figure(lesson: str, stats: list[CheckStats]) -> str:
    """Per exercise, the share of students passing its visible and its hidden check."""
    exercises = list(dict.fromkeys(s.exercise for s in stats))
    kinds = {True: ("hidden", "0.3", "//"), False: ("visible", "0.75", ""), None: ("check", "0.55", "..")}
    present = [k for k in (False, True, None) if any(s.hidden is k for s in stats)]
    width = 0.8 / max(len(present), 1)
    fig, (ax,) = _figure(max(6.0, 1.3 * len(exercises) + 2), 3.4)
    for i, kind in enumerate(present):
        label, shade, hatch = kinds[kind]
        xs, ys, ns = [], [], []
        for j, ex in enumerate(exercises):
            for s in stats:
                if s.exercise == ex and s.hidden is kind and s.n:
                    xs.append(j + (i - (len(present) - 1) / 2) * width)
                    ys.append(100 * s.share)
                    ns.append(f"{s.passed}/{s.n}")
        bars = ax.bar(
            xs,
            ys,
            width=width * 0.95,
            color=shade,
            edgecolor="black",
            linewidth=0.6,
            hatch=hatch,
            label=f"{label} check",
        )
        ax.bar_label(bars, labels=ns, padding=2, fontsize=7)
    ax.set_xticks(range(len(exercises)), exercises, rotation=20, ha="right", fontsize=8)
    ax.set_ylim(0, 115)
    ax.set_yticks(range(0, 101, 25))
    ax.set_ylabel("students passing (%)")
    ax.set_xlabel("exercise (function graded)")
    ax.set_title(f"{lesson}: who passed each check (labels: passed / submitted)", fontsize=10)
    ax.legend(loc="upper right", fontsize=8, ncols=len(present))
    return _png(fig)


def overview_figure(top: list[CheckStats]) -> str:
    """The checks that cost the class most points to wrong answers."""
    fig, (ax,) = _figure(9.5, 0.45 * len(top) + 1.2)
    labels = [f"{s.lesson[:2]} {s.grade_id}" for s in top]
    shades = ["0.3" if s.hidden else "0.75" for s in top]
    hatches = ["//" if s.hidden else "" for s in top]
    bars = ax.barh(labels, [s.lost_wrong for s in top], color=shades, hatch=hatches, edgecolor="black", linewidth=0.6)
    labels = [f"{s.lost_wrong:g} pts, {len(s.wrong)} student{'s' * (len(s.wrong) != 1)}" for s in top]
    ax.bar_label(bars, labels=labels, padding=3, fontsize=8)
    ax.invert_yaxis()
    ax.tick_params(axis="y", labelsize=8)
    ax.set_xlabel("points lost to wrong answers (points, summed over students)")
    ax.set_xlim(0, max(s.lost_wrong for s in top) * 1.35)
    ax.grid(axis="x", color="0.85", linewidth=0.6)
    ax.set_title("Checks that cost the class most points (hatched: hidden check)", fontsize=10)
    return _png(fig)


# ---------------------------------------------------------------------------------------------
# The page
# ---------------------------------------------------------------------------------------------


def e(value) -> str:
    return html.escape(str(value), quote=True)


def _feedback_link(data: ClassData, row: Row, text: str | None = None) -> str:
    """A relative link to the row's feedback page when OUT/ holds it, else the name as text."""
    label = e(text if text is not None else row.student)
    path = data.out / "feedback" / row.student / f"{row.notebook}.html"
    try:
        exists = path.resolve().is_relative_to((data.out / "feedback").resolve()) and path.is_file()
    except (OSError, ValueError):
        exists = False
    if not exists:
        return label
    href = (
        "feedback/"
        + urllib.parse.quote(row.student, safe="")
        + "/"
        + urllib.parse.quote(f"{row.notebook}.html", safe="")
    )
    return f'<a href="{e(href)}">{label}</a>'


def _num_cell(key: str, value, fmt: str = "{:g}") -> str:
    shown = "&ndash;" if value is None else e(fmt.format(value))
    return f'<td class=n data-k="{key}">{shown}</td>'


CSS = """
body{font-family:sans-serif;max-width:72em;margin:1.5em auto;padding:0 1em;color:#111;line-height:1.4}
h1{font-size:1.6em;margin-bottom:.2em} h2{border-bottom:2px solid #444;margin-top:2em} h3{margin-top:1.6em}
table{border-collapse:collapse;margin:.6em 0} td,th{border:1px solid #999;padding:.25em .6em;text-align:left;
vertical-align:top} th{background:#e6e6e6} td.n{text-align:right;font-variant-numeric:tabular-nums}
.warn{border:2px solid #000;background:#f2f2f2;padding:.5em 1em} .glance{border-left:6px solid #333;
padding:.4em 1em;background:#f5f5f5} code,.msg{font-family:monospace;white-space:pre-wrap;word-break:break-word}
small{color:#444} img{max-width:100%;height:auto;display:block;margin:.5em 0} .k{font-weight:bold}
ul.groups{margin:.2em 0;padding-left:1.2em}
"""


def _provenance(data: ClassData) -> str:
    run = data.run or {}

    def val(v) -> str:
        if v is None or v == "" or v == {}:
            return "<i>not recorded</i>"
        if isinstance(v, dict):
            return "<br>".join(f"{e(k)}: <code>{e(x)}</code>" for k, x in v.items())
        return f"<code>{e(v)}</code>"

    versions = run.get("versions") or {}
    items = [("date", run.get("date")), ("course commit", run.get("course_commit"))]
    items += [(name, versions.get(name)) for name in ("jax", "jaxlib", "nbgrader", "python")]
    items += [(k, v) for k, v in versions.items() if k not in ("jax", "jaxlib", "nbgrader", "python")]
    emulation = val(run.get("emulation"))
    if not run.get("emulation") and data.emulation_hint:
        emulation += f" (the grading digests in results.json say: <code>{e(data.emulation_hint)}</code>)"
    items += [("emulation", None), ("seed", run.get("seed")), ("limits", run.get("limits"))]
    items += [
        (k, v) for k, v in run.items() if k not in ("date", "course_commit", "versions", "emulation", "seed", "limits")
    ]
    head = (
        ""
        if data.run
        else "<p><b>run.json is not in this folder: how these grades were made was "
        "not recorded.</b> A regrade may not reproduce them exactly.</p>"
    )
    rows = "".join(f"<tr><th>{e(k)}</th><td>{emulation if k == 'emulation' else val(v)}</td></tr>" for k, v in items)
    return head + f"<table id=provenance>{rows}</table>"


def _roster_section(data: ClassData) -> str:
    path = data.out / "roster_check.csv"
    if not path.is_file():
        return ""
    rows = _read_csv(path)
    body = "".join(
        "<tr>" + "".join(f"<td>{e(r.get(k, ''))}</td>" for k in ("kind", "student", "roster_row", "detail")) + "</tr>"
        for r in rows
    )
    return "<h2 id=roster>Roster export: students on one side only</h2>" + (
        f"<table><tr><th>kind</th><th>submission folder</th><th>roster row</th><th>detail</th></tr>{body}</table>"
        if rows
        else "<p>Every graded student matched exactly one roster row, and every roster student was graded.</p>"
    )


def render(data: ClassData) -> str:
    lessons = data.lessons
    lstats = {n: lesson_stats(data, n) for n in lessons}
    cstats = check_stats(data)
    top = ranked(cstats)
    n_students = len(data.students)
    parts = []

    # --- header and warnings
    parts.append(
        f"<h1>Class report: {n_students} students, {len(lessons)} lessons</h1>"
        f"<p><small>Rebuilt from <code>{e(data.out)}</code> on "
        f"{e(_dt.datetime.now().isoformat(timespec='seconds'))}. Instructor-only: it quotes the "
        "hidden tests' messages. Never hand it to students.</small></p>"
    )
    if data.problems:
        items = "".join(f"<li>{e(p)}</li>" for p in data.problems[:50])
        more = f"<li>... and {len(data.problems) - 50} more</li>" if len(data.problems) > 50 else ""
        parts.append(
            f"<div class=warn id=problems><b>The files of this folder disagree or are incomplete.</b> "
            f"The numbers below are those of grades.csv and tests.csv.<ul>{items}{more}</ul></div>"
        )

    # --- at a glance
    glance = []
    exercises = ranked_exercises(top)
    if exercises:
        items = []
        for x in exercises[:3]:
            t = x["checks"][0]
            g = next((g for g in t.groups() if g["cause"] == "wrong"), None)
            said = g["texts"].most_common(1)[0][0] if g else ""
            items.append(
                f"<li><code>{e(x['exercise'])}</code> in {e(x['lesson'])}: {x['lost_wrong']:g} points "
                f"lost to wrong answers, {x['students']} of {x['n']} students; costliest check "
                f"<code>{e(t.grade_id)}</code> ({t.lost_wrong:g} points)"
                + (f", most often <span class=msg>{e(said)}</span>" if said else "")
                + (f"<br><small>It checks: {e(t.doc)}</small>" if t.doc else "")
                + "</li>"
            )
        glance.append(
            "<p class=k>Re-teach first (exercises by points lost to wrong answers):</p>"
            f"<ol id=reteach>{''.join(items)}</ol>"
        )
    else:
        glance.append("<p class=k>No check lost points to a wrong answer.</p>")
    human = [r for r in data.rows if r.status in NEEDS_A_HUMAN]
    glance.append(
        f"<p>{len(human)} notebook(s) need a human look: "
        + ", ".join(f"{sum(r.status == s for r in human)} {s}" for s in NEEDS_A_HUMAN)
        + ' (<a href="#human">list</a>).</p>'
    )
    parts.append("<h2 id=glance>At a glance</h2><div class=glance>" + "".join(glance) + "</div>")
    if top:
        parts.append(
            f'<img id=fig-overview alt="Bar chart: points lost to wrong answers per check" '
            f'src="{overview_figure(top[:10])}">'
        )

    # lesson table
    head = (
        "<tr><th>lesson</th><th>students</th><th>submitted</th><th>mean</th><th>median</th><th>min</th>"
        "<th>max</th><th>of</th>" + "".join(f"<th>{s}</th>" for s in STATUSES) + "</tr>"
    )
    body = ""
    for n in lessons:
        st = lstats[n]
        body += (
            f'<tr data-lesson="{e(n)}"><td><a href="#lesson-{e(n)}">{e(n)}</a></td>'
            + _num_cell("students", st["students"])
            + _num_cell("submitted", st["submitted"])
            + _num_cell("mean", st["mean"], "{:.2f}")
            + _num_cell("median", st["median"])
            + _num_cell("min", st["min"])
            + _num_cell("max", st["max"])
            + _num_cell("max_score", st["max_score"])
            + "".join(_num_cell(s, st[s]) for s in STATUSES)
            + "</tr>"
        )
    parts.append(
        f"<table id=lessons>{head}{body}</table><p><small>Mean, median, min and max are over the "
        "submitted notebooks (missing ones score 0 in grades.csv and are left out here). Points "
        "lost to wrong answers: a check that ran on the student's answer and failed; a stub left "
        "unanswered or a notebook that could not be graded is counted apart.</small></p>"
    )

    # --- ranked checks
    parts.append("<h2 id=costly>Checks that cost the class most points</h2>")
    if top:
        body = ""
        for rank, s in enumerate(top, 1):
            groups = []
            for g in s.groups():
                text, _ = g["texts"].most_common(1)[0]
                variants = len(g["texts"])
                who = ", ".join(_feedback_link(data, r) for r in sorted(g["rows"], key=lambda r: r.student))
                label = f"<span class=msg>{e(text)}</span>" if g["cause"] == "wrong" else f"<i>{e(g['cause'])}</i>"
                unrecorded = g["cause"] == "wrong" and s.hidden and not any(c.message for _, c in s.wrong)
                groups.append(
                    f"<li><b>{len(g['rows'])}&times;</b> {label}"
                    + (f" <small>({variants} variants, numbers differ)</small>" if variants > 1 else "")
                    + (
                        " <small>(no instructor message recorded: results.json predates the "
                        "grader's <code>message</code> field)</small>"
                        if unrecorded
                        else ""
                    )
                    + f"<br><small>{who}</small></li>"
                )
            kind = {True: "hidden", False: "visible", None: "?"}[s.hidden]
            body += (
                f'<tr data-lesson="{e(s.lesson)}" data-check="{e(s.grade_id)}"><td class=n>{rank}</td>'
                f"<td>{e(s.lesson)}<br><code>{e(s.grade_id)}</code><br><small>{kind}, "
                f"{s.max_score:g} pts</small></td>"
                + _num_cell("lost_wrong", s.lost_wrong)
                + _num_cell("wrong", len(s.wrong))
                + _num_cell("n", s.n)
                + _num_cell("lost", s.lost)
                + f"<td><small>{e(s.doc) or '<i>no docstring</i>'}</small>"
                f"<ul class=groups>{''.join(groups)}</ul></td></tr>"
            )
        parts.append(
            "<table id=ranked><tr><th>#</th><th>check</th><th>points lost to wrong answers</th>"
            "<th>students wrong</th><th>of</th><th>points lost, all causes</th>"
            "<th>what it checks; what students hit (grouped; links: feedback pages)</th></tr>"
            f"{body}</table>"
        )
    else:
        parts.append("<p>None: every check that ran on an answer passed.</p>")

    # --- per lesson
    parts.append("<h2 id=lessons-detail>Per lesson</h2>")
    for n in lessons:
        st = lstats[n]
        mine = [s for s in cstats if s.lesson == n]
        parts.append(f'<h3 id="lesson-{e(n)}">{e(n)}</h3>')
        parts.append(
            f'<img class=fig-lesson alt="Histogram of {e(n)} scores and count of each status" '
            f'src="{lesson_figure(n, st)}">'
        )
        if mine:
            parts.append(
                f'<img class=fig-checks alt="Share of students passing each check of {e(n)}" '
                f'src="{checks_figure(n, mine)}">'
            )
            body = "".join(
                f'<tr data-lesson="{e(n)}" data-check="{e(s.grade_id)}"><td><code>{e(s.grade_id)}</code></td>'
                f"<td>{ {True: 'hidden', False: 'visible', None: '?'}[s.hidden] }</td>"
                + _num_cell("passed", s.passed)
                + _num_cell("n", s.n)
                + _num_cell("share", None if s.share is None else 100 * s.share, "{:.0f} %")
                + _num_cell("points", s.max_score)
                + _num_cell("lost", s.lost)
                + _num_cell("lost_wrong", s.lost_wrong)
                + f"<td><small>{e(s.doc)}</small></td></tr>"
                for s in mine
            )
            parts.append(
                "<table class=checks><tr><th>check</th><th>kind</th><th>passed</th><th>of</th>"
                "<th>share</th><th>points</th><th>lost</th><th>lost to wrong answers</th>"
                f"<th>docstring</th></tr>{body}</table>"
            )

    # --- rows that need a human
    parts.append("<h2 id=human>Rows that need a human</h2>")
    order = {s: i for i, s in enumerate(NEEDS_A_HUMAN)}
    if human:
        body = "".join(
            f'<tr data-status="{e(r.status)}"><td>{_feedback_link(data, r)}</td><td>{e(r.notebook)}</td>'
            f"<td><b>{e(r.status)}</b></td>"
            + _num_cell("score", r.score)
            + _num_cell("max_score", r.max_score)
            + f"<td class=msg>{e(r.detail) or ('no submission' if r.status == 'missing' else '')}"
            + "".join(f"<br><small>{e(x)}</small>" for x in r.notes)
            + "</td></tr>"
            for r in sorted(human, key=lambda r: (order[r.status], r.student, r.notebook))
        )
        parts.append(
            "<table id=needs-human><tr><th>student</th><th>lesson</th><th>status</th><th>score</th>"
            f"<th>of</th><th>what was found</th></tr>{body}</table>"
        )
    else:
        parts.append("<p>None: every notebook was graded with status ok.</p>")
    timed = [r for r in data.rows if r.seconds]
    if timed:
        med = {n: statistics.median([r.seconds for r in timed if r.notebook == n] or [0]) for n in lessons}
        slow = sorted(timed, key=lambda r: -r.seconds)[:5]
        body = "".join(
            f"<tr><td>{_feedback_link(data, r)}</td><td>{e(r.notebook)}</td>"
            + _num_cell("seconds", r.seconds, "{:.1f}")
            + _num_cell("median", med[r.notebook], "{:.1f}")
            + f"<td>{e(r.status)}</td></tr>"
            for r in slow
        )
        parts.append(
            "<h3>Slowest notebooks</h3><table id=slowest><tr><th>student</th><th>lesson</th>"
            "<th>grading time (s)</th><th>lesson median (s)</th><th>status</th></tr>"
            f"{body}</table>"
        )

    parts.append(_roster_section(data))
    parts.append("<h2 id=provenance-h>How these grades were made</h2>" + _provenance(data))
    exports = [
        p
        for p in ("grades.csv", "tests.csv", "grades_wide.csv", "results.json", "run.json")
        if (data.out / p).is_file()
    ]
    parts.append(
        "<p><small>Files in this folder: " + ", ".join(f"<code>{e(p)}</code>" for p in exports) + ".</small></p>"
    )

    csp = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Class report ({n_students} students)</title><style>{CSS}</style></head>"
        f"<body>{''.join(parts)}</body></html>\n"
    )


def build_report(out: Path) -> Path:
    """Write OUT/report.html from the files of OUT/ and return its path."""
    out = Path(out)
    path = out / "report.html"
    path.write_text(render(load(out)), encoding="utf-8", errors="backslashreplace")
    return path


# ---------------------------------------------------------------------------------------------
# Exports
# ---------------------------------------------------------------------------------------------


def wide_rows(data: ClassData) -> list[list]:
    """Header, the "Points Possible" row, then one row per student: lesson scores and the total."""
    lessons = data.lessons
    maxes = [max((r.max_score for r in data.lesson_rows(n)), default=0.0) for n in lessons]
    table = [["student", *lessons, "total"], [POINTS_ROW, *maxes, sum(maxes)]]
    scores = {(r.student, r.notebook): r.score for r in data.rows}
    for s in data.students:
        mine = [scores.get((s, n)) for n in lessons]
        table.append([s, *mine, sum(x for x in mine if x is not None)])
    return table


# Columns of a gradebook export that identify a student (normalised header names)
_ID_COLUMNS = {
    "id",
    "sis_user_id",
    "sis_login_id",
    "integration_id",
    "id_number",
    "idnumber",
    "username",
    "user_name",
    "login_id",
    "email",
    "email_address",
    "student_id",
    "user_id",
    "student_number",
}
_NAME_COLUMNS = {"student", "name", "full_name", "student_name"}


def _norm_header(h: str) -> str:
    h = re.sub(r"\s*\([^)]*\)\s*$", "", h.strip())  # Canvas "(12345)", Moodle "(Real)"
    h = re.sub(r"^(assignment|quiz|manual item)\s*:\s*", "", h, flags=re.I)
    return re.sub(r"[^a-z0-9]+", "_", h.lower()).strip("_")


def _key(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", text.casefold())


def _row_keys(header: list[str], row: list[str]) -> tuple[set[str], set[str]]:
    """(identifier keys, name keys) of one roster row, normalised by _key."""
    ids, names = set(), set()
    cols = {_norm_header(h): (row[i] if i < len(row) else "").strip() for i, h in enumerate(header)}
    for col, v in cols.items():
        if not v:
            continue
        if col in _ID_COLUMNS:
            ids.add(_key(v))
            if "@" in v:
                ids.add(_key(v.split("@")[0]))
        elif col in _NAME_COLUMNS:
            if "," in v:  # Canvas: "Lovelace, Ada"
                last, first = (x.strip() for x in v.split(",", 1))
                names |= {_key(first + last), _key(last + first)}
            names.add(_key(v))
    first, last = cols.get("first_name", ""), cols.get("last_name", cols.get("surname", ""))
    if first or last:
        names |= {_key(first + last), _key(last + first)}
    return {k for k in ids if k}, {k for k in names if k}


def lesson_column(header: list[str], lesson: str) -> int | None:
    """The roster column of a lesson: its header names the lesson ("01_number_formats",
    "01 Number formats (12345)", "Assignment: Number formats (Real)"); None if no column does."""
    slug = lesson.split("_", 1)[1] if re.match(r"\d+_", lesson) else lesson
    hits = [
        i
        for i, h in enumerate(header)
        if "total" not in _norm_header(h) and (_norm_header(h) == lesson or slug in _norm_header(h))
    ]
    if len(hits) > 1:
        raise ValueError(f"{lesson}: several roster columns could hold it: {[header[i] for i in hits]}")
    return hits[0] if hits else None


def fill_roster(data: ClassData, roster: Path) -> tuple[list[list[str]], list[dict], dict]:
    """The roster's rows with the lesson columns filled for every student matched to exactly one
    row, the problems (students on one side only, ambiguous matches) and the CSV dialect."""
    raw = roster.read_bytes()
    bom = raw.startswith(b"\xef\xbb\xbf")
    text = raw.decode("utf-8-sig")
    first = text.splitlines()[0] if text else ""
    delimiter = max([",", ";", "\t"], key=first.count) if first else ","
    eol = "\r\n" if "\r\n" in text[:4096] else "\n"
    table = [list(r) for r in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)]
    if not table:
        raise ValueError(f"{roster}: empty")
    header = table[0]
    width = len(header)
    lessons = data.lessons
    maxes = {n: max(r.max_score for r in data.lesson_rows(n)) for n in lessons}
    cols = {}
    for n in lessons:
        i = lesson_column(header, n)
        if i is None:  # a new column: Canvas and Moodle create (or offer to map) a new grade item
            header.append(n)
            i = len(header) - 1
        cols[n] = i
    for row in table[1:]:
        row.extend([""] * (len(header) - len(row)))

    points_rows = [i for i, r in enumerate(table) if i and r and r[0].strip() == POINTS_ROW]
    for i in points_rows:
        for n, c in cols.items():
            if c >= width or not table[i][c].strip():
                table[i][c] = _fmt(maxes[n])
    keys = {i: _row_keys(header[:width], table[i]) for i in range(1, len(table)) if i not in points_rows}
    students = [i for i, (ids, names) in keys.items() if ids or names]  # not Canvas's "Manual Posting" row
    problems, matched = [], {}
    for s in data.students:
        k = _key(s)
        by_id = [i for i in students if k and k in keys[i][0]]
        hits = by_id or [i for i in students if k and k in keys[i][1]]
        if len(hits) == 1:
            matched.setdefault(hits[0], []).append(s)
        elif not hits:
            problems.append(
                {
                    "kind": "graded, not in roster",
                    "student": s,
                    "roster_row": "",
                    "detail": "no roster row has this folder name as an ID, login, email or name",
                }
            )
        else:
            problems.append(
                {
                    "kind": "ambiguous",
                    "student": s,
                    "roster_row": " ".join(str(i + 1) for i in hits),
                    "detail": "several roster rows match: not filled",
                }
            )
    scores = {(r.student, r.notebook): r.score for r in data.rows}
    for i, who in matched.items():
        if len(who) > 1:
            problems.append(
                {
                    "kind": "ambiguous",
                    "student": " ".join(who),
                    "roster_row": str(i + 1),
                    "detail": "several submission folders match this roster row: not filled",
                }
            )
            continue
        for n, c in cols.items():
            if (who[0], n) in scores:
                table[i][c] = _fmt(scores[(who[0], n)])
    for i in students:
        if i not in matched:
            problems.append(
                {
                    "kind": "in roster, not graded",
                    "student": "",
                    "roster_row": str(i + 1),
                    "detail": " | ".join(x for x in table[i][:width] if x.strip())[:200],
                }
            )
    for n, c in cols.items():
        for i in points_rows:
            old = table[i][c].strip()
            if old and c < width and re.fullmatch(r"[0-9.]+", old) and float(old) != maxes[n]:
                problems.append(
                    {
                        "kind": "points differ",
                        "student": "",
                        "roster_row": str(i + 1),
                        "detail": f"{header[c]}: the LMS says {old} points, {n} is graded out of {_fmt(maxes[n])}",
                    }
                )
    dialect = {
        "delimiter": delimiter,
        "bom": bom,
        "lineterminator": eol,
        "columns": {n: header[c] for n, c in cols.items()},
    }
    return table, problems, dialect


def write_exports(out: Path, roster: Path | None = None) -> list[Path]:
    """Write OUT/grades_wide.csv and, given a roster (a Canvas or Moodle gradebook export),
    OUT/<roster>_filled.csv and OUT/roster_check.csv; return the paths written."""
    out = Path(out)
    data = load(out)
    paths = [write_safe_csv(out / "grades_wide.csv", wide_rows(data))]
    if roster is not None:
        roster = Path(roster)
        table, problems, dialect = fill_roster(data, roster)
        paths.append(
            write_safe_csv(
                out / f"{roster.stem}_filled.csv",
                table,
                delimiter=dialect["delimiter"],
                bom=dialect["bom"],
                lineterminator=dialect["lineterminator"],
            )
        )
        paths.append(
            write_safe_csv(
                out / "roster_check.csv",
                [["kind", "student", "roster_row", "detail"]]
                + [[p[k] for k in ("kind", "student", "roster_row", "detail")] for p in problems],
            )
        )
    return paths


# ---------------------------------------------------------------------------------------------
# Command line: python -m autograder report OUT [--roster ROSTER.csv]
# ---------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m autograder report", description="The class report and LMS exports, rebuilt from OUT/ alone."
    )
    parser.add_argument("out", type=Path, help="the folder `grade --out` wrote")
    parser.add_argument(
        "--roster",
        type=Path,
        default=None,
        help="a Canvas or Moodle gradebook export (CSV) to fill with the lesson scores",
    )
    args = parser.parse_args(argv)
    if not (args.out / "grades.csv").is_file():
        print(
            f"{args.out}: no grades.csv (run `python -m autograder grade SUBMISSIONS --out {args.out}` first)",
            file=sys.stderr,
        )
        return 2
    if args.roster is not None and not args.roster.is_file():
        print(f"{args.roster}: no such roster file", file=sys.stderr)
        return 2
    try:
        paths = write_exports(args.out, args.roster)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    report = build_report(args.out)
    for p in paths:
        print(f"Wrote {p}")
    if args.roster is not None:
        check = _read_csv(args.out / "roster_check.csv")
        for r in check:
            print(f"  roster: {r['kind']}: {r['student'] or 'row ' + r['roster_row']} ({r['detail']})")
        if not check:
            print("  roster: every student matched")
    print(f"Class report: {report}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
