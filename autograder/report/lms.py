"""What an LMS imports: the wide CSV (a row per student, a column per lesson and a total, a "Points
Possible" row), and a Canvas or Moodle gradebook export filled with the lesson scores, every other
cell as it was, students matched by folder name against the roster's IDs, logins, emails or names;
the students found on one side only, or ambiguously, listed in OUT/roster_check.csv (never dropped).
Every cell goes through textsafe.safe_csv_cell: nothing a spreadsheet would run as a formula."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from ..common.textsafe import name_cell, write_safe_csv
from .data import ClassData, fmt
from .load import load

POINTS_ROW = "Points Possible"  # Canvas's name for the row of maximum points under the header


def wide_rows(data: ClassData) -> list[list]:
    """Header, the "Points Possible" row, then one row per student: lesson scores and the total."""
    lessons = data.lessons
    maxes = [max((r.max_score for r in data.lesson_rows(n)), default=0.0) for n in lessons]
    table = [["student", *lessons, "total"], [POINTS_ROW, *maxes, sum(maxes)]]
    scores = {(r.student, r.lesson): r.score for r in data.rows}
    shown = data.shown()
    for s in data.students:
        mine = [scores.get((s, n)) for n in lessons]
        table.append([name_cell(shown[s]), *mine, sum(x for x in mine if x is not None)])  # as grades.csv names them
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
                table[i][c] = fmt(maxes[n])
    keys = {i: _row_keys(header[:width], table[i]) for i in range(1, len(table)) if i not in points_rows}
    students = [i for i, (ids, names) in keys.items() if ids or names]  # not Canvas's "Manual Posting" row
    problems, matched = [], {}
    shown = data.shown()  # roster_check.csv names them as grades.csv does
    for s in data.students:
        hits = []
        # a Moodle download's student is "<Full Name>_<participant id>": the name alone, if need be
        for k in dict.fromkeys([_key(s), _key(re.sub(r"_\d+$", "", s))]):
            by_id = [i for i in students if k and k in keys[i][0]]
            hits = hits or by_id or [i for i in students if k and k in keys[i][1]]
        if len(hits) == 1:
            matched.setdefault(hits[0], []).append(s)
        elif not hits:
            problems.append(
                {
                    "kind": "graded, not in roster",
                    "student": shown[s],
                    "roster_row": "",
                    "detail": "no roster row has this folder name as an ID, login, email or name",
                }
            )
        else:
            problems.append(
                {
                    "kind": "ambiguous",
                    "student": shown[s],
                    "roster_row": " ".join(str(i + 1) for i in hits),
                    "detail": "several roster rows match: not filled",
                }
            )
    scores = {(r.student, r.lesson): r.score for r in data.rows}
    statuses = {(r.student, r.lesson): r.status for r in data.rows}
    for i, who in matched.items():
        if len(who) > 1:
            problems.append(
                {
                    "kind": "ambiguous",
                    "student": " ".join(shown[w] for w in who),
                    "roster_row": str(i + 1),
                    "detail": "several submission folders match this roster row: not filled",
                }
            )
            continue
        for n, c in cols.items():
            if (who[0], n) not in scores:
                continue
            if statuses[(who[0], n)] == "missing" and c < width and table[i][c].strip():
                problems.append(  # nothing submitted in this download is no reason to erase a grade
                    {
                        "kind": "kept the LMS's grade",
                        "student": shown[who[0]],
                        "roster_row": str(i + 1),
                        "detail": f"{header[c]}: {table[i][c].strip()} kept (no notebook of {n} in this download)",
                    }
                )
                continue
            table[i][c] = fmt(scores[(who[0], n)])
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
                        "detail": f"{header[c]}: the LMS says {old} points, {n} is graded out of {fmt(maxes[n])}",
                    }
                )
    dialect = {
        "delimiter": delimiter,
        "bom": bom,
        "lineterminator": eol,
        "columns": {n: header[c] for n, c in cols.items()},
    }
    return table, problems, dialect


def write_exports(out: Path, roster: Path | None = None, data: ClassData | None = None) -> list[Path]:
    """Write OUT/grades_wide.csv and, given a roster (a Canvas or Moodle gradebook export),
    OUT/<roster>_filled.csv and OUT/roster_check.csv; return the paths written. ``data``: the class
    already in hand (load.from_results); None reads it from OUT/ (load.load)."""
    out = Path(out)
    data = load(out) if data is None else data
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
