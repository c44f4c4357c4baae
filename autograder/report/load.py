"""A class as the report sees it (``ClassData``), from one of two sources:

- ``load(OUT)``: the files ``grade`` wrote. The numbers come from ``grades.csv`` and ``tests.csv``
  (what an LMS gets); ``results.json`` adds the words (docstrings, messages, details, timings) and
  is cross-checked against them; ``run.json`` says how the grades were made. Every disagreement
  between the files is listed in ``ClassData.problems``, never silently resolved.
- ``from_results(OUT, results)``: the grader's own ``Result`` records, held in memory when it has
  just written them, with the numbers as the CSVs write them: the same class, the same page.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from pathlib import Path

from ..grader.core.model import Result, Status, lesson_keyed
from ..common.textsafe import csv_forms, name_cell, safe_csv_cell, told_apart
from .data import OUTCOMES, STATUSES, Check, ClassData, Row, fmt


def read_csv(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8-sig") as f:
        return list(csv.DictReader(f))


def _lesson_rows(path: Path) -> list[dict]:
    """grades.csv's or tests.csv's rows, the lesson under "lesson" also where an older grade wrote "notebook"."""
    return [lesson_keyed(row) for row in read_csv(path)]


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
        results = [lesson_keyed(d) for d in json.loads((out / "results.json").read_text(encoding="utf-8"))]
    else:
        problems.append("results.json is missing: no docstrings, messages, details or timings")
    # The CSVs hold names as a neutraliser wrote them: join in that form (safe_csv_cell's, or
    # any writer that escapes control characters the same way with or without the leading ').
    # The grader's own form (name_cell) is one-to-one and joins first: another name's looser form
    # never takes a row that is exactly someone's.
    # A name that differs from another only in normalisation or case is written in its told-apart
    # form (textsafe.told_apart, one-to-one over the class): that form joins first.
    by_key, joins = {}, {}
    shown = told_apart(d["student"] for d in results)
    for d in results:
        key = (name_cell(shown[d["student"]]), safe_csv_cell(d["lesson"]))
        by_key[key] = d
        joins[key] = key
    for d in results:
        key = (name_cell(shown[d["student"]]), safe_csv_cell(d["lesson"]))
        for form in csv_forms(d["student"]):
            joins.setdefault((form, key[1]), key)

    rows: dict[tuple[str, str], Row] = {}
    for i, g in enumerate(_lesson_rows(out / "grades.csv"), start=2):
        key = joins.get((g["student"], g["lesson"]), (g["student"], g["lesson"]))
        d = by_key.get(key)
        student, lesson = (d["student"], d["lesson"]) if d else key
        row = Row(
            student,
            lesson,
            _num(g["score"], f"grades.csv line {i}"),
            _num(g["max_score"], f"grades.csv line {i}"),
            g["status"],
        )
        if d:
            row.detail, row.notes, row.seconds = d.get("detail") or "", list(d.get("notes") or []), d.get("seconds")
            row.override = d.get("override") or None
            if abs(float(d.get("score", 0)) - row.score) > 1e-9 or d.get("status") != row.status:
                problems.append(
                    f"{student}/{lesson}: grades.csv says {fmt(row.score)} {row.status}, "
                    f"results.json says {fmt(float(d.get('score', 0)))} {d.get('status')}"
                )
        elif results:
            problems.append(f"{student}/{lesson}: in grades.csv, not in results.json")
        if row.status not in STATUSES:
            problems.append(f"{student}/{lesson}: unknown status {row.status!r}")
        rows[key] = row
    for key, d in by_key.items():
        if key not in rows:
            problems.append(f"{d['student']}/{d['lesson']}: in results.json, not in grades.csv")

    details = {key: {t["grade_id"]: t for t in d.get("tests", [])} for key, d in by_key.items()}
    if (out / "tests.csv").is_file():
        for i, t in enumerate(_lesson_rows(out / "tests.csv"), start=2):
            key = joins.get((t["student"], t["lesson"]), (t["student"], t["lesson"]))
            if key not in rows:
                problems.append(f"tests.csv line {i}: {t['student']}/{t['lesson']} is not in grades.csv")
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
                    _mistakes(t, info),
                    str((info.get("rule") if info else None) or t.get("rule") or ""),
                )
            )
    else:
        problems.append("tests.csv is missing: no per-check statistics")
    problems += _row_problems(rows.values())
    run = _read_run(out, problems)
    return ClassData(out, list(rows.values()), run, problems, _emulation(d.get("digest") for d in results))


def _mistakes(csv_row: dict, info: dict) -> list[str]:
    """A check's diagnosis: results.json's list, else tests.csv's cell (keys joined by " or ")."""
    listed = info.get("mistakes") if info else None
    if isinstance(listed, list):
        return [str(k) for k in listed]
    return [k for k in (csv_row.get("mistakes") or "").split(" or ") if k]


def _written(x: float) -> float:
    """A number as the CSVs hold it (``f"{x:g}"``, read back): the report's numbers are the LMS's."""
    return float(fmt(x))


def from_results(out: Path, results: Iterable[Result]) -> ClassData:
    """The class from the grader's results in memory, as ``load(out)`` reads it back from the files
    write_outputs made of them: grader-error rows left out (grades.csv never holds them), rows in
    grades.csv's order, numbers as the CSVs write them, ``OUT/run.json`` for how they were made.
    The files' cross-checks do not apply (there is one source); the checks of the rows do."""
    out = Path(out)
    graded = sorted((r for r in results if r.status != Status.GRADER_ERROR), key=lambda r: (r.student, r.lesson))
    rows = []
    for r in graded:
        checks = [
            Check(
                t.grade_id,
                _written(t.score),
                _written(t.max_score),
                t.hidden,
                t.doc or "",
                t.error or "",
                t.message or "",
                str(t.outcome),
                list(t.mistakes),
                t.rule,
            )
            for t in r.tests
        ]
        rows.append(
            Row(
                r.student,
                r.lesson,
                _written(r.score),
                _written(r.max_score),
                str(r.status),
                r.detail or "",
                list(r.notes or []),
                r.seconds,
                checks,
                r.override,
            )
        )
    problems = _row_problems(rows)
    run = _read_run(out, problems)
    return ClassData(out, rows, run, problems, _emulation(r.digest for r in graded))


def _row_problems(rows: Iterable[Row]) -> list[str]:
    """What is wrong within the rows themselves, whichever source they came from."""
    rows = list(rows)
    problems = []
    unknown = [c for row in rows for c in row.checks if not c.passed and c.outcome not in OUTCOMES]
    if unknown:
        problems.append(
            f"{len(unknown)} failed checks carry no outcome the grader knows (an older grader's OUT?): "
            "none is ranked as a wrong answer; grading again records them"
        )
    for row in rows:
        total = sum(c.score for c in row.checks)
        graded = row.override["graded_score"] if row.override else row.score  # tests.csv holds what was graded
        if row.checks and abs(total - graded) > 1e-9:
            problems.append(
                f"{row.student}/{row.lesson}: tests.csv sums to {fmt(total)}, grades.csv says {fmt(row.score)}"
            )
    return problems


def _read_run(out: Path, problems: list[str]) -> dict | None:
    """OUT/run.json (how the grades were made), or None; a broken one is a problem."""
    if not (out / "run.json").is_file():
        return None
    try:
        return json.loads((out / "run.json").read_text(encoding="utf-8"))
    except ValueError as exc:
        problems.append(f"run.json is not valid JSON: {exc}")
        return None


def _emulation(digests: Iterable[str | None]) -> str:
    """The emulation modes the grading digests name ("<sha256>:<mode>"), for when run.json is absent."""
    return ", ".join(sorted({d.rpartition(":")[2] for d in digests if ":" in (d or "")}))
