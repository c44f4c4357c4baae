"""Grade a class: every notebook of every student, in parallel worker processes.

The parent finds the submissions, builds each lesson once (nbgrader's generate_assignment, which also fills
the gradebook), hands each worker plain data (the lesson's notebooks as text, the submission's bytes, the
settings) and alone records what comes back: gradebook, journal, CSVs, feedback, ``run.json``.

An OUT is a class across runs: a rerun into it grades its own scope (students, lessons) and merges
with the rest of the journal (gradebook.py), keeps the first run's seed unless ``--seed`` is given,
and rewrites every output from the merged rows with the instructor's overrides (overrides.py).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import logging
import os
import platform
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from ...common.config import RELEASE_DIR, ROOT, SOURCE_DIR
from ...common.lessonfolder import chip_status
from ...common.mistakes import path_of as mistakes_path
from ...common.notebooks import every_lesson, lesson_answer_ids, lessons
from ...common.textsafe import printable, told_apart
from ...common.words import plural
from ..core import observer
from ..core.model import Job, Result, Status
from ..core.settings import Settings
from ..notebook.grade import Lesson, notebook_seed
from ..sandbox import launch as sandbox
from . import intake, overrides
from .gradebook import GradebookWriter, Journal, digest, fingerprint
from .feed import Feed
from .pool import WorkerDied, pool_grade
from .outputs import write_outputs


def load_lessons(root: Path, names: list[str], db_path: Path) -> dict[str, Lesson]:
    """Each lesson's source, the release nbgrader makes of it now (which also records its grade
    cells in the gradebook at ``db_path``) and the committed notebooks/ (what students downloaded)."""
    from ...common.generation import generate, prepare_course

    with tempfile.TemporaryDirectory(prefix="course-template-") as tmp:
        course = Path(tmp)
        prepare_course(course, root, names)
        generate(course, names, db_path)
        out = {}
        for n in names:
            committed = root / RELEASE_DIR / n / f"{n}.ipynb"

            def text(folder):
                return nbformat.writes(nbformat.read(str(course / folder / n / f"{n}.ipynb"), as_version=4))

            known = mistakes_path(n, root)
            out[n] = Lesson(
                n,
                text(SOURCE_DIR),
                text(RELEASE_DIR),
                committed.read_text() if committed.exists() else "",
                known.read_text(encoding="utf-8") if known.is_file() else "",
            )
        return out


class Progress:
    def __init__(self, total: int, quiet: bool, shown: dict[str, str] | None = None):
        self.total, self.done, self.quiet, self.t0 = total, 0, quiet, time.perf_counter()
        self.shown = shown or {}  # textsafe.told_apart of the class: two names never print alike

    def update(self, r: Result, skipped: bool = False) -> None:
        self.done += 1
        if self.quiet:
            return
        el = time.perf_counter() - self.t0
        eta = el / self.done * (self.total - self.done) if self.done else 0
        bar = "#" * int(20 * self.done / max(self.total, 1))
        who = printable(self.shown.get(r.student, r.student), 40, keep="")
        print(
            f"[{bar:<20}] {self.done}/{self.total} {who}/{r.lesson}: "
            f"{r.score:g}/{r.max_score:g} {r.status}{' (already graded)' if skipped else ''}"
            f"  {el:.0f} s, ~{eta:.0f} s left",
            file=sys.stderr,
            flush=True,
        )


def run_seed(out: Path, settings: Settings) -> tuple[Settings, str]:
    """The run's seed and where it came from: ``--seed``; else the seed OUT/run.json recorded (the
    first run's: a regrade draws the hidden inputs it drew); else a new one."""
    if settings.seed is not None:
        return settings, "given by --seed"
    try:
        seed = json.loads((out / "run.json").read_text()).get("seed")
    except (OSError, ValueError, AttributeError):
        seed = None
    if isinstance(seed, int) and not isinstance(seed, bool):
        return dataclasses.replace(settings, seed=seed), "kept from OUT/run.json (--seed N replaces it)"
    return dataclasses.replace(settings, seed=secrets.randbelow(2**31)), "drawn for this OUT"


def provenance(root: Path, settings: Settings, seed_source: str = "") -> dict:
    def version(module):
        try:
            return __import__(module).__version__
        except Exception:  # noqa: BLE001
            return "not installed"

    try:
        commit = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10
        ).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        commit = ""
    return {
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "course_commit": commit or "unknown",
        "versions": {
            "python": platform.python_version(),
            "jax": version("jax"),
            "jaxlib": version("jaxlib"),
            "nbgrader": version("nbgrader"),
            "numpy": version("numpy"),
        },
        "emulation": settings.emulation,
        # each lesson's verdicts recorded on a TPU (its folder's chip/outcomes.json): the date, or ""
        # where it is not yet recorded on a TPU and the emulation alone decided (lessonfolder.py)
        "chip_records": chip_status(lessons(root), root),
        "seed": settings.seed,
        "seed_source": seed_source,
        "limits": {
            **{k: v for k, v in settings.to_dict().items() if k != "limits"},
            **settings.to_dict()["limits"],
        },
        "sandbox": sandbox.describe(settings.limits),
    }


def grade(
    submissions: Path,
    out: Path,
    settings: Settings | None = None,
    root: Path = ROOT,
    quiet: bool = False,
    names: list[str] | None = None,
    force: bool = False,
    scheduler: str | None = None,
    students: list[str] | None = None,
) -> list[Result]:
    """Grade every notebook of every student in scope; one Result per student and lesson in scope.
    ``submissions``: a folder or an LMS's zip (intake.py); ``names``: the lessons (default: those a
    notebook was found for), ``students``: a subset (default: all). ``scheduler`` (an address, a
    scheduler file or ``local:N``): on a Dask cluster's workers (distribute.py)."""
    from . import distribute

    submissions, out = Path(submissions).resolve(), Path(out).resolve()
    # every lesson's notebooks are recognised; scope() keeps those COURSE_LESSONS names, and a lesson
    # it leaves out gets no row and no note (not "no lesson of this course": it is one)
    taken = intake.take(submissions, lesson_answer_ids(root, every_lesson(root)))
    names, students = intake.scope(taken, lessons(root), names, students)
    cluster = distribute.connect(scheduler, quiet) if scheduler else None  # unreachable: fails fast
    settings, seed_source = run_seed(out, settings or Settings())
    for note in taken.notes:
        print(f"note: {note}", file=sys.stderr)
    for s in sorted(set(students) - taken.students):
        print(f"note: no submission of {printable(s, 60)} at all: missing", file=sys.stderr)
    found = {k: v for k, v in taken.found.items() if k[1] in names and k[0] in students}
    refused = {k: v for k, v in taken.refused.items() if k[1] in names and k[0] in students}
    out.mkdir(parents=True, exist_ok=True)
    logging.getLogger("traitlets").setLevel(logging.CRITICAL)
    if not quiet:
        print(sandbox.describe(settings.limits), file=sys.stderr)
        print(f"Seed {settings.seed}: {seed_source}", file=sys.stderr)
    lesson_data = load_lessons(root, names, out / "gradebook.db")
    if found:  # fail closed: the grader proves its sandbox and its grading before any grade exists
        from . import canary

        canary.process_canary(settings, root)
        canary.solution_canary(lesson_data[sorted({n for _, n in found})[0]], settings, root)
    (out / "run.json").write_text(json.dumps(provenance(root, settings, seed_source), indent=1))
    journal = Journal(out / "journal.jsonl")  # --force regrades the scope; the rest of the class stays
    results = {
        (s, n): Result(s, n, status="missing", max_score=lesson_data[n].max_score())
        for s in students
        for n in names
        if (s, n) not in found
    }
    for (s, n), why in refused.items():
        results[(s, n)] = Result(s, n, status="error", detail=why, max_score=lesson_data[n].max_score())
    for k, notes in taken.row_notes.items():  # a notebook that matched two lessons: said where it is missing
        if k in results and results[k].status == "missing":
            results[k].detail = printable("; ".join(notes), 300)
    # what a rerun compares besides the submission (gradebook.fingerprint)
    fingerprints = {n: fingerprint(settings, dataclasses.asdict(lesson_data[n])) for n in {n for _, n in found}}
    progress = Progress(len(found), quiet, told_apart(students))
    writer = GradebookWriter(out / "gradebook.db")

    def pending():
        """Each notebook's job, made when a worker can take it (feed.Feed): its bytes read then, and
        not before (issue 57: the parent held every notebook of the class before grading began).
        A notebook graded before with the same bytes, grading and seed is recorded as it stands.
        Read as the intake read it (intake.Submission.again): a file that became a pipe, a link, a
        device or other bytes since is its own row's error, at once, and the class goes on."""
        for (s, n), sub in sorted(found.items()):
            try:
                raw = sub.again()
            except (OSError, ValueError) as exc:  # changed, gone, a zip member that fails now: its row says so
                why, top = printable(f"{sub.name}: {exc}", 300), lesson_data[n].max_score()
                results[(s, n)] = Result(s, n, status="error", detail=why, max_score=top)
                progress.update(results[(s, n)])
                continue
            d = digest(raw, fingerprints[n], settings.emulation)
            prev = None if force else journal.done.get((s, n))
            if prev is not None and prev.digest == d and prev.seed == notebook_seed(settings.seed, s, n):
                prev.upload = sub.name  # where it was found this time (feedback archives name it back)
                results[(s, n)] = prev
                writer.record(prev)
                progress.update(prev, skipped=True)
                continue
            job = Job(s, lessons_as_data[n], raw, settings.to_dict(), str(root), d).to_dict()
            del raw
            yield job

    lessons_as_data = {n: dataclasses.asdict(lesson_data[n]) for n in names}
    try:
        todo = Feed(pending())
        if todo:
            uploads = {k: sub.name for k, sub in found.items()}
            rec = functools.partial(
                record,
                results=results,
                journal=journal,
                writer=writer,
                progress=progress,
                lesson_data=lesson_data,
                uploads=uploads,
            )
            if cluster is not None:
                distribute.run_on_cluster(cluster, todo, rec)
            else:
                _run_pool(todo, settings, rec)
    finally:
        if cluster is not None:
            cluster.close()
        for k, notes in taken.row_notes.items():  # how the intake chose: in the row's last journal line
            if k in results and results[k].status != "missing":
                extra = [printable(n, 500) for n in notes[:5]]  # bounded: 2,000 copies make one long note
                results[k].notes = [*results[k].notes, *(n for n in extra if n not in results[k].notes)]
        for r in results.values():  # the scope as decided now; a grader-error is no row (next run grades it)
            if r.status != Status.GRADER_ERROR:
                journal.append_row(r)
        journal.close()
        try:
            shown = write_class(out, journal.rows.values(), writer)
        finally:
            writer.close()
    kept = len(shown) - sum(k in results for k in journal.rows)
    if kept and not quiet:
        print(f"Kept {plural(kept, 'row')} of earlier runs in {out} (outside this run's scope)", file=sys.stderr)
    faults = {(r.student, r.lesson): r for r in results.values() if r.status == Status.GRADER_ERROR}
    merged = {(r.student, r.lesson): r for r in shown} | faults
    return sorted(merged.values(), key=lambda r: (r.student, r.lesson))


def write_class(out: Path, rows, writer: GradebookWriter, touched: frozenset = frozenset()) -> list[Result]:
    """Every output but the report from ``rows`` (the OUT's class: journal.rows) with the overrides
    in force: CSVs, results.json, feedback pages; the gradebook's overridden rows (and ``touched``
    ones, an override just removed) recorded again. Returns the rows as written."""
    shown = overrides.apply(rows, overrides.load(out))
    write_outputs(out, shown)
    for r in shown:
        if (r.override or (r.student, r.lesson) in touched) and r.status != Status.MISSING:
            with contextlib.suppress(ValueError):  # nbgrader's MissingEntry: a lesson not in this gradebook
                writer.record(r)
    return shown


def rewrite(out: Path, touched: frozenset = frozenset(), quiet: bool = False) -> list[Result]:
    """OUT's outputs rewritten from its journal and overrides, nothing graded (after an override)."""
    out = Path(out).resolve()
    journal = Journal(out / "journal.jsonl")
    if not journal.rows:
        raise FileNotFoundError(f"{out / 'journal.jsonl'}: no grades (is {out} a grading OUT folder?)")
    writer = GradebookWriter(out / "gradebook.db")
    try:
        shown = write_class(out, journal.rows.values(), writer, touched)
    finally:
        writer.close()
    return sorted(shown, key=lambda r: (r.student, r.lesson))


def record(job: dict, outcome, results, journal, writer, progress, lesson_data, uploads=None) -> Result:
    """Record one finished job as it arrives (parent only): ``outcome`` is the Result dict a worker
    returned, or the exception that stands for it (``pool.WorkerDied``: the worker grading it died;
    or what the task raised: never a silent zero); ``uploads``
    names the file each row graded, journaled with it."""
    if isinstance(outcome, BaseException):  # the grader's machinery failed: never a student's zero
        if isinstance(outcome, WorkerDied):  # its worker died (or ran out of its cap) grading it
            why = f"not graded (the grader's fault, not yours): {outcome}"
        else:
            why = f"not graded (the grader crashed: {type(outcome).__name__}: {outcome})"
        r = Result(
            job["student"],
            job["lesson"]["name"],
            status=Status.GRADER_ERROR,
            max_score=lesson_data[job["lesson"]["name"]].max_score(),
            detail=printable(why),
        )
    else:
        r = Result.from_dict(outcome)
    r.upload = (uploads or {}).get((r.student, r.lesson), r.upload)
    results[(r.student, r.lesson)] = r
    if r.status != "grader-error":  # no grade: neither journaled (regraded next run) nor written
        journal.append(r)
        writer.record(r)
    progress.update(r)
    return r


def _run_pool(todo, settings, record) -> None:
    jobs = max(1, settings.jobs or os.cpu_count() or 1)
    # the run's compiled replays, shared by its workers' checkers (the diagnosis plug-in, where it is
    # installed and diagnosis runs: replay_folder.py, bubblewrap only)
    plugin = observer.plugin() if settings.diagnose else None
    with plugin.run_folder(settings) if plugin else contextlib.nullcontext("") as folder:
        pool_grade(todo, jobs, folder, record, plugin.adopt if plugin else None)
