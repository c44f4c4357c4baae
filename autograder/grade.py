"""Grade a class: every notebook of every student, in parallel, with nbgrader's autograder.

Each submission is graded in its own scratch nbgrader course (its own copy of the gradebook that
the release made), so parallel jobs never share a gradebook and one crashing submission cannot stop
the batch. Results go to OUT/grades.csv (one row per student and lesson, ``missing`` included),
OUT/tests.csv (one row per graded test cell) and OUT/feedback/<student>/<lesson>.html, which
reports each check's outcome and error message but never the hidden test code.
"""
from __future__ import annotations

import contextlib
import csv
import html
import io
import json
import logging
import multiprocessing
import os
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path

import nbformat

from .config import RELEASE_DIR, ROOT, nbgrader_config
from .notebooks import cell_grade_id, lessons
from .release import generate, prepare_course

STATUSES = ("ok", "timeout", "error", "tampered", "missing")


@dataclass
class TestResult:
    grade_id: str
    score: float
    max_score: float
    error: str = ""  # "AssertionError: ..." for a failed check; never any test code


@dataclass
class Result:
    student: str
    notebook: str
    score: float = 0.0
    max_score: float = 0.0
    status: str = "missing"
    detail: str = ""
    tests: list[TestResult] = field(default_factory=list)


def find_submissions(folder: Path, names: list[str]) -> tuple[dict, list[str]]:
    """{(student, lesson): path} from SUBMISSIONS/<student>/<NN_name>.ipynb or nbgrader's
    submitted/<student>/<NN_name>/<NN_name>.ipynb; plus the files that fit neither."""
    found, unknown = {}, []
    for student_dir in sorted(p for p in folder.iterdir() if p.is_dir()):
        for path in sorted(student_dir.rglob("*")):
            if path.is_dir() or ".ipynb_checkpoints" in path.parts:
                continue
            rel = path.relative_to(student_dir)
            lesson = path.stem
            flat = len(rel.parts) == 1
            nested = len(rel.parts) == 2 and rel.parts[0] == lesson
            if path.suffix == ".ipynb" and lesson in names and (flat or nested):
                found[(student_dir.name, lesson)] = path
            else:
                unknown.append(str(path.relative_to(folder)))
    for path in sorted(p for p in folder.iterdir() if p.is_file()):
        unknown.append(path.name)
    return found, unknown


def _test_cells(nb) -> dict:
    return {cell_grade_id(c): c for c in nb.cells
            if c.get("metadata", {}).get("nbgrader", {}).get("grade")}


def tampering(submitted, released) -> list[str]:
    """Test cells deleted or edited in a submission, compared with the student release."""
    mine, theirs = _test_cells(submitted), _test_cells(released)
    problems = [f"deleted {gid}" for gid in theirs if gid not in mine]
    problems += [f"edited {gid}" for gid, cell in theirs.items()
                 if gid in mine and mine[gid].source.strip() != cell.source.strip()]
    return problems


def _error_of(cell) -> str:
    for out in cell.get("outputs", []):
        if out.get("output_type") == "error":
            return f"{out.get('ename', '')}: {out.get('evalue', '')}"[:500]
    return ""


def grade_one(template: str, student: str, lesson: str, submission: str, timeout: float) -> Result:
    """Autograde one notebook in a scratch copy of the course; runs in a worker process."""
    from nbgrader.api import Gradebook
    from nbgrader.apps import NbGraderAPI

    logging.getLogger("traitlets").setLevel(logging.ERROR)
    result = Result(student, lesson)
    with tempfile.TemporaryDirectory(prefix=f"grade-{student}-{lesson}-") as tmp:
        course = Path(tmp)
        shutil.copytree(Path(template) / "source", course / "source")
        shutil.copy(Path(template) / "gradebook.db", course / "gradebook.db")
        target = course / "submitted" / student / lesson / f"{lesson}.ipynb"
        target.parent.mkdir(parents=True)
        try:
            submitted = nbformat.read(submission, as_version=4)
        except Exception as exc:  # unreadable JSON, wrong format...
            result.status, result.detail = "error", f"unreadable notebook: {type(exc).__name__}: {exc}"[:300]
            return result
        released = nbformat.read(str(Path(template) / RELEASE_DIR / lesson / f"{lesson}.ipynb"), as_version=4)
        tampered = tampering(submitted, released)
        nbformat.write(submitted, str(target))

        config = nbgrader_config(course, course / "gradebook.db")
        config.CourseDirectory.source_directory = "source"
        config.Execute.timeout = int(timeout)
        api = NbGraderAPI(config=config)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            outcome = api.autograde(lesson, student, force=True, create=True)
        log = (outcome.get("log") or "") + (outcome.get("error") or "")
        graded_path = course / "autograded" / student / lesson / f"{lesson}.ipynb"
        graded = nbformat.read(str(graded_path), as_version=4) if graded_path.exists() else None

        with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
            try:
                nb = gb.find_submission_notebook(lesson, lesson, student)
            except Exception:
                nb = None
            if nb is not None:
                graded_cells = _test_cells(graded) if graded is not None else {}
                for g in sorted(nb.grades, key=lambda g: g.name):
                    cell = graded_cells.get(g.name)
                    result.tests.append(TestResult(g.name, float(g.score or 0.0), float(g.max_score),
                                                   _error_of(cell) if cell is not None else ""))
                result.score = float(sum(t.score for t in result.tests))
                result.max_score = float(sum(t.max_score for t in result.tests))
        timed_out = graded is not None and any(
            "CellTimeoutError" in _error_of(c) or "Timeout" in _error_of(c).split(":")[0]
            for c in graded.cells)
        timed_out = timed_out or "CellTimeoutError" in log or "TimeoutError" in log
        if tampered:
            result.status, result.detail = "tampered", "; ".join(tampered) + " (originals restored and graded)"
        elif timed_out:
            result.status, result.detail = "timeout", f"a cell ran past {timeout:.0f} s"
        elif not outcome.get("success") or graded is None:
            result.status, result.detail = "error", (log.strip().splitlines() or ["autograde failed"])[-1][:300]
        else:
            result.status = "ok"
    return result


def build_template(work: Path, root: Path = ROOT, names: list[str] | None = None) -> list[str]:
    """A scratch course holding the source, the release and the gradebook that graders copy."""
    course = work / "course"
    names = prepare_course(course, root, names)
    generate(course, names, course / "gradebook.db")
    (course / "solutions").rename(course / "source")
    return names


def feedback_html(r: Result) -> str:
    rows = "".join(
        f"<tr class={'pass' if t.score >= t.max_score else 'fail'}><td>{html.escape(t.grade_id)}</td>"
        f"<td>{t.score:g} / {t.max_score:g}</td><td>{'passed' if t.score >= t.max_score else 'failed'}</td>"
        f"<td><code>{html.escape(t.error)}</code></td></tr>" for t in r.tests)
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>{html.escape(r.notebook)}: {html.escape(r.student)}</title>
<style>body{{font-family:sans-serif;max-width:60em;margin:2em auto}}td,th{{padding:.3em .8em;text-align:left}}
.pass{{background:#e8f5e9}}.fail{{background:#ffebee}}</style></head><body>
<h1>{html.escape(r.notebook)}</h1><p>Student: <b>{html.escape(r.student)}</b>. Score: <b>{r.score:g} / {r.max_score:g}</b>.
Status: <b>{html.escape(r.status)}</b>{(' (' + html.escape(r.detail) + ')') if r.detail else ''}.</p>
<table><tr><th>check</th><th>points</th><th>result</th><th>message</th></tr>{rows}</table>
<p>Hidden tests run fresh inputs and edge cases; their code is not shown.</p></body></html>"""


def write_outputs(out: Path, results: list[Result]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    results = sorted(results, key=lambda r: (r.student, r.notebook))
    with open(out / "grades.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["student", "notebook", "score", "max_score", "status"])
        for r in results:
            w.writerow([r.student, r.notebook, f"{r.score:g}", f"{r.max_score:g}", r.status])
    with open(out / "tests.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["student", "notebook", "grade_id", "score", "max_score"])
        for r in results:
            for t in r.tests:
                w.writerow([r.student, r.notebook, t.grade_id, f"{t.score:g}", f"{t.max_score:g}"])
    for r in results:
        if r.status != "missing":
            path = out / "feedback" / r.student / f"{r.notebook}.html"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(feedback_html(r))
    (out / "results.json").write_text(json.dumps([asdict(r) for r in results], indent=1))


def grade(submissions: Path, out: Path, jobs: int | None = None, timeout: float = 120,
          root: Path = ROOT, quiet: bool = False, names: list[str] | None = None) -> list[Result]:
    names = names or lessons(root)
    found, unknown = find_submissions(submissions, names)
    students = sorted({s for s, _ in found} | {p.name for p in submissions.iterdir() if p.is_dir()})
    for path in unknown:
        print(f"note: ignored {path} (not SUBMISSIONS/<student>/<NN_name>.ipynb)", file=sys.stderr)
    results = [Result(s, n, max_score=0.0) for s in students for n in names if (s, n) not in found]
    jobs = jobs or os.cpu_count() or 1
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="grade-template-") as work:
        build_template(Path(work), root, names)
        template = str(Path(work) / "course")
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
            futures = {pool.submit(grade_one, template, s, n, str(p), timeout): (s, n)
                       for (s, n), p in sorted(found.items())}
            for i, fut in enumerate(as_completed(futures), 1):
                s, n = futures[fut]
                try:
                    r = fut.result()
                except Exception as exc:  # a worker died: never a silent zero
                    r = Result(s, n, status="error", detail=f"grader crashed: {type(exc).__name__}: {exc}"[:300])
                results.append(r)
                if not quiet:
                    print(f"[{i}/{len(futures)}] {s}/{n}: {r.score:g}/{r.max_score:g} {r.status}"
                          f" ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    # max_score of missing rows: the lesson's total, taken from a graded row when there is one
    totals = {r.notebook: r.max_score for r in results if r.max_score}
    for r in results:
        if r.status == "missing":
            r.max_score = totals.get(r.notebook, 0.0)
    write_outputs(out, results)
    return sorted(results, key=lambda r: (r.student, r.notebook))


def print_table(results: list[Result]) -> None:
    print(f"{'student':<16} {'notebook':<26} {'score':>11}  status")
    for r in results:
        print(f"{r.student:<16} {r.notebook:<26} {r.score:>5g} / {r.max_score:<4g} {r.status}"
              + (f"  ({r.detail})" if r.detail else ""))
