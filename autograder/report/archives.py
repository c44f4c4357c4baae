"""Feedback out: an OUT's feedback pages packed for delivery (``python -m autograder feedback OUT --zip``).

Three forms, written into ``OUT/feedback-zips/``:

- ``students``: one ``<student>.zip`` per student holding ``<NN_name>.html`` for each lesson graded,
  to send however the course talks to its students (mail merge, a shared drive).
- ``canvas``: one ``<NN_name>-canvas.zip`` per lesson, for the lesson's assignment page in Canvas,
  "Re-Upload Submissions" (Canvas attaches each file as a comment, "See attached file", to that
  student's submission). Canvas matches a file by its name: Assignment#infer_comment_context_from_filename
  (instructure/canvas-lms, app/models/assignment.rb) splits the name at "_", takes the first two
  all-digit parts as the user id and the id of a file of that user's submission, and ignores a file
  whose ids do not match. Each page is therefore named after the student's downloaded notebook:
  ``<name>[_LATE]_<user id>_<file id>_feedback_<NN_name>.html``.
- ``moodle``: one ``<NN_name>-moodle.zip`` per lesson, for the assignment's "Upload multiple feedback
  files in a zip" (the assignment needs "Feedback files" enabled). Moodle's importer
  (mod/assign/feedback/file/importziplib.php, ``is_valid_filename_for_import``) splits each path part
  at "_" and wants ``<full name>_<participant id>_<plugin type>_<plugin name>``: each page is
  ``<Full Name>_<participant id>_assignfeedback_file/feedback_<NN_name>.html``.

``auto`` (the default) picks per lesson: Canvas or Moodle where every graded notebook of that lesson
came from that LMS's download (its name, ``Result.upload``, says which), else ``students``. A row
that the chosen form cannot address (no LMS name) is left out and named. The pages are the ones
``grade`` wrote (``OUT/feedback/<student>/<NN_name>.html``, the same numbers as the CSVs); the
archives are byte-for-byte reproducible (sorted members, a fixed timestamp).
"""

from __future__ import annotations

import json
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from ..common.lmsnames import CANVAS, MOODLE
from ..grader.core.model import Result, Status
from ..common.textsafe import name_key, printable
from ..grader.classroom.outputs import feedback_folders
from ..common.words import plural

FORMATS = ("auto", "students", "canvas", "moodle")
FOLDER = "feedback-zips"
FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # the zip format's epoch: the same pages make the same bytes
UNSAFE = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|]')
UNSAFE_IN_NAME = re.compile(r'[\x00-\x1f\x7f\\:*?"<>|]')  # an LMS name part: "_" kept, it is the separator


@dataclass
class Packed:
    archives: list[Path] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)  # rows with a page that no archive holds, and why
    owners: dict[str, str] = field(default_factory=dict)  # a per-student archive's name -> its student


def canvas_name(upload: str, lesson: str) -> str | None:
    """The name Canvas matches back to the submission ``upload`` came from, or None."""
    m = CANVAS.match(PurePosixPath(upload).name)
    if m is None:
        return None
    name = UNSAFE_IN_NAME.sub(" ", m["name"])
    return f"{name}{m['late'] or ''}_{m['user']}_{m['sub']}_feedback_{lesson}.html"


def moodle_name(upload: str, lesson: str) -> str | None:
    """The path Moodle's feedback importer matches to the participant ``upload`` came from, or None."""
    for part in PurePosixPath(upload).parts:
        m = MOODLE.match(part)
        if m is not None:
            name = UNSAFE_IN_NAME.sub(" ", m["name"])
            return f"{name}_{m['id']}_assignfeedback_file/feedback_{lesson}.html"
    return None


NAMERS = {"canvas": canvas_name, "moodle": moodle_name}


def form_of(rows: list[Result], asked: str) -> str:
    """The archive form for one lesson's rows: ``asked``, or under ``auto`` the LMS that every row's
    upload names (students where they disagree or none does)."""
    if asked != "auto":
        return asked
    for form, namer in NAMERS.items():
        if rows and all(namer(r.upload, r.lesson) for r in rows):
            return form
    return "students"


def file_safe(name: str) -> str:
    """A student's name as one file name (no path separators, no control characters)."""
    safe = UNSAFE.sub("_", name).strip(" .") or "_"
    return safe[:200]


def _write_zip(path: Path, members: dict[str, bytes]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(members):
            info = zipfile.ZipInfo(name, FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, members[name])
    tmp.replace(path)
    return path


def load_rows(out: Path) -> list[Result]:
    """The rows of OUT/results.json that have a feedback page (every row but a missing one)."""
    path = Path(out) / "results.json"
    if not path.is_file():
        raise FileNotFoundError(f"{path}: not found (is {out} a grading OUT folder?)")
    rows = [Result.from_dict(d) for d in json.loads(path.read_text(encoding="utf-8"))]
    return [r for r in rows if r.status != Status.MISSING]


def page_of(out: Path, r: Result, folders: dict[str, str] | None = None) -> bytes:
    """The row's feedback page; ``folders``: outputs.feedback_folders of the class's rows."""
    path = Path(out) / "feedback" / (folders or {}).get(r.student, r.student) / f"{r.lesson}.html"
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no feedback page for a graded row (rerun `report` or the grade)")
    return path.read_bytes()


def pack(out: Path, asked: str = "auto") -> Packed:
    """Write the archives for every lesson of OUT in the form ``asked`` (see the module's doc)."""
    if asked not in FORMATS:
        raise ValueError(f"--format {asked!r}: one of {', '.join(FORMATS)}")
    out = Path(out)
    rows = load_rows(out)
    target = out / FOLDER
    if target.exists():  # only what this run writes: an archive of an earlier run could be stale
        for old in target.glob("*.zip"):
            old.unlink()
    packed = Packed()
    per_student: dict[str, dict[str, bytes]] = {}
    folders = feedback_folders(rows)
    for lesson in sorted({r.lesson for r in rows}):
        mine = [r for r in rows if r.lesson == lesson]
        form = form_of(mine, asked)
        if form == "students":
            for r in mine:
                per_student.setdefault(r.student, {})[f"{lesson}.html"] = page_of(out, r, folders)
            continue
        members = {}
        for r in mine:
            name = NAMERS[form](r.upload, lesson)
            if name is None:
                upload = printable(r.upload or "no name", 80)
                why = f"not uploaded as {form.capitalize()} names its downloads ({upload})"
                packed.left_out.append(f"{printable(r.student, 60, keep='')}/{lesson}: {why}")
                continue
            members[name] = page_of(out, r, folders)
        if members:
            packed.archives.append(_write_zip(target / f"{lesson}-{form}.zip", members))
    for student, name in archive_names(sorted(per_student)).items():
        packed.archives.append(_write_zip(target / f"{name}.zip", per_student[student]))
        packed.owners[f"{name}.zip"] = student
    return packed


def archive_names(students: list[str]) -> dict[str, str]:
    """Each student's archive name: their file_safe name, and where two names fall on one file
    (a file system blind to case or normalisation: textsafe.name_key; or names file_safe makes
    alike) "-2", "-3"... after it,
    chosen so that it is no other student's name either: no archive is named after a student
    whose page it does not hold."""
    taken = {name_key(file_safe(s)) for s in students}
    used: set[str] = set()
    names = {}
    for student in students:
        base = name = file_safe(student)
        k = 1
        while name_key(name) in used or (name != base and name_key(name) in taken):
            k += 1
            name = f"{base}-{k}"
        used.add(name_key(name))
        names[student] = name
    return names


def main(out: Path, asked: str) -> int:
    try:
        packed = pack(out, asked)
    except (FileNotFoundError, ValueError) as exc:
        print(f"error: {exc}")
        return 2
    for note in packed.left_out:
        print(f"not in any archive: {note}")
    print(f"Wrote {plural(len(packed.archives), 'archive')} in {Path(out) / FOLDER}:")
    for path in packed.archives:
        owner = packed.owners.get(path.name)
        print(f"  {path.name}" + (f"  ({printable(owner, 80)})" if owner is not None else ""))
    return 1 if packed.left_out else 0
