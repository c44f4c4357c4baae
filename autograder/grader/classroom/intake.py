"""Intake: a download of submissions as one notebook per (student, lesson), read as data only.

SUBMISSIONS is a folder, or an LMS's ``.zip`` of one (read with zipfile, never extracted), holding:

- per-student folders: ``<student>/<any name>.ipynb`` at any depth (nbgrader's
  ``<student>/<NN_name>/<NN_name>.ipynb``, Colab's "Copy of 01_number_formats.ipynb", a browser's
  "01_number_formats (1).ipynb", "my_work.ipynb"); the student is the folder's name.
- Canvas's "Download Submissions", flat: ``<name>_<user id>_<submission id>_<file name>``, with
  ``_LATE`` after the name for a late submission and ``-1``, ``-2`` before the extension of a file
  submitted again (``lovelaceada_LATE_4401_998877_01_number_formats-1.ipynb``). Sources: the zip
  listing in mikewesthad/canvas-unzipper's README (``smithbob_340934_208490284_BobsWork.zip``, one
  submission id for all of a student's files; the name is last and first name, lower case, run
  together) and TimHanneman/Canvas_submission_sort (README: "an extra field if the assignment was
  submitted late", on resubmission "a number is added at the end of the filename, but before the
  file extension"; sub_name.awk strips ``-N``). The student is that name (the form lms.py matches
  against a Canvas gradebook's "Lovelace, Ada"); two Canvas users with one name become
  ``<name>_<user id>`` each, and a note says so.
- Moodle's "Download all submissions": ``<Full Name>_<participant id>_assignsubmission_file_<file>``
  flat, or, with "Download submissions in folders" (Moodle's default since 3.1),
  ``<Full Name>_<participant id>_assignsubmission_file_/<file>``. Source: moodle/moodle
  mod/assign/locallib.php, ``assign::download_submissions()``: the full name with "_" turned into
  " ", "_", ``get_uniqueid_for_user()`` (the participant id that the grading worksheet's
  "Participant N" rows carry; the name is "Participant" under blind marking), then
  ``_<subtype>_<type>_`` = ``_assignsubmission_file_``; and its help string ``downloadasfolders_help``
  (MDL-62831). The student is ``<Full Name>_<participant id>``: names are not unique, the id is.

Each file's bytes are read once, capped, never through a link nor waiting on a pipe (reading.py:
read again when a worker takes it, they must be the same bytes, else that row is an ``error``).
Each notebook is read by ``submissions.parse_notebook``, every size bounded before it parses (one
past a bound is unreadable, with the bound as its reason), one at a time. Its lesson is decided by
its exercises (its answer cells' grade ids, notebooks.match_lessons), whatever the file is called.
The file name (LMS prefix, "Copy of", " (1)", "-1" removed) decides only for a file that cannot say
(unreadable, a symlink or a pipe, too large, no answer cells), so that its row is an ``error``, never a
silent ``missing``. Nothing is guessed:
- two notebooks of one student for one lesson: the one recognised by its exercises, then the
  newest (Canvas's submission id, then its resubmission number, then the file's modification time,
  then its name) is graded; the others are named in a printed note and in the graded row's notes
  (NAMED_IN_A_NOTE of them by name, the rest counted);
- a notebook whose exercises are no lesson's, or two lessons': not graded, named in a note;
- a zip member that is absolute, has ``..`` or is a symlink, is over MAX_NOTEBOOK_BYTES or is
  corrupt: not read, named in a note; never fatal;
- a student's notebooks past the first MAX_NOTEBOOKS_PER_STUDENT, or past MAX_STUDENT_BYTES of that
  student's notebooks: not parsed, named in a note (a file among them named like a lesson stands for
  it as an ``error`` row, as an unreadable one does). Only notebooks count, and each student's
  against their own budget: nothing one uploader puts in a download (padding, other files, huge
  notebooks, in any order) decides whether a classmate's notebooks are read.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

from ...common.notebooks import answer_ids, match_lessons
from ...common.textsafe import printable
from ...common.words import human_bytes
from ..core.settings import MAX_NAME_BYTES, MAX_NOTEBOOKS_PER_STUDENT
from ..core.settings import MAX_STUDENT_BYTES, NAMED_IN_A_NOTE
from ..core.wire import whole_text
from ..notebook.submissions import parse_notebook
from ...common.lmsnames import CANVAS, MOODLE
from .reading import IntakeError, NotRead, Submission, entries, reason  # what a download holds, read safely

Key = tuple[str, str]  # (student, lesson)


@dataclass
class Intake:
    found: dict[Key, Submission] = field(default_factory=dict)
    refused: dict[Key, str] = field(default_factory=dict)  # a file that stands for the lesson, not read
    students: set[str] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)  # printed: what was not graded, and why
    row_notes: dict[Key, list[str]] = field(default_factory=dict)  # said in that row too


# ----------------------------------------------------------------------------- attributing
LONG = f"its first name is over {MAX_NAME_BYTES} bytes, longer than a file system allows"


def too_long(name: str) -> bool:
    """Whether ``name`` is over MAX_NAME_BYTES of UTF-8: no LMS wrote it, no feedback folder holds it."""
    return len(name) > MAX_NAME_BYTES or len(name.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES


def base_name(filename: str) -> str:
    """A notebook file name as the course released it: "Copy of ", " (1)" and "-1" removed."""
    if too_long(filename):  # no lesson's name; and the patterns below stay linear
        return ""
    stem = filename[: -len(".ipynb")] if filename.lower().endswith(".ipynb") else filename
    while stem.startswith("Copy of "):
        stem = stem[len("Copy of ") :]
    return re.sub(r"(?: \(\d+\)|-\d+)+$", "", stem)


def _resubmission(filename: str) -> int:
    m = re.search(r"-(\d+)\.ipynb$", filename[-MAX_NAME_BYTES:], re.I)
    return int(m.group(1)) if m else 0


def owner(parts: tuple[str, ...], canvas_names: dict[str, set[str]]) -> tuple[str, str, int] | None:
    """(student, the file's own name, LMS submission id or 0) of an entry, or None for a loose file
    that is no LMS download's."""
    if too_long(parts[0]):  # longer than any file system's name: no LMS wrote it
        return None
    moodle = MOODLE.match(parts[0])
    if moodle and (len(parts) > 1 or moodle["file"]):
        return f"{moodle['name']}_{moodle['id']}", parts[-1] if len(parts) > 1 else moodle["file"], 0
    if len(parts) > 1:
        return parts[0], parts[-1], 0
    canvas = CANVAS.match(parts[0])
    if canvas is None:
        return None
    name = canvas["name"] if len(canvas_names.get(canvas["name"], ())) < 2 else f"{canvas['name']}_{canvas['user']}"
    return name, canvas["file"], int(canvas["sub"])


def take(submissions: Path, known: dict[str, frozenset[str]]) -> Intake:
    """Who submitted what: ``known`` is every lesson's answer ids (notebooks.lesson_answer_ids)."""
    listed, notes = entries(submissions)
    taken = Intake(notes=notes)
    canvas_names: dict[str, set[str]] = {}
    for e in listed:
        name = e.parts[0] if len(e.parts) == 1 and not too_long(e.parts[0]) else ""
        if name and not MOODLE.match(name) and (m := CANVAS.match(name)):
            canvas_names.setdefault(m["name"], set()).add(m["user"])
    for name, users in sorted(canvas_names.items()):
        if len(users) > 1:
            taken.notes.append(f"{len(users)} Canvas users are named {printable(name)}: graded as <name>_<user id>")
    candidates: dict[Key, list[tuple]] = {}
    opened: dict[str, int] = {}  # notebooks of each student so far (MAX_NOTEBOOKS_PER_STUDENT)
    spent: dict[str, int] = {}  # bytes of each student's notebooks read so far (MAX_STUDENT_BYTES)
    for e in listed:
        shown = printable("/".join(e.parts), 200, keep="")
        who = owner(e.parts, canvas_names)
        if who is None:
            if not e.folder:
                why = e.bad or ("no student folder, nor a Canvas or Moodle name", LONG)[too_long(e.parts[0])]
                taken.notes.append(f"ignored {shown}: {why}")
            continue
        student, filename, submission_id = who
        if student != whole_text(student):  # not UTF-8 (a zip unpacked with another encoding)
            taken.notes.append(f"ignored {shown}: the student's name is not UTF-8 text: rename the folder")
            continue
        taken.students.add(student)
        if e.folder:
            continue
        if not filename.lower().endswith(".ipynb"):
            taken.notes.append(f"ignored {shown}: {e.bad or 'not a notebook'}")
            continue
        hint = base_name(filename) if base_name(filename) in known else None
        lessons, why, read = [], e.bad, e.read
        opened[student] = opened.get(student, 0) + 1
        if read is not None and opened[student] > MAX_NOTEBOOKS_PER_STUDENT:
            read, why = None, f"over {MAX_NOTEBOOKS_PER_STUDENT} notebooks from one student: not read"
        elif read is not None and spent.get(student, 0) + e.size > MAX_STUDENT_BYTES:
            read, why = None, f"past {human_bytes(MAX_STUDENT_BYTES)} of notebooks from one student: not read"
        if read is not None:
            spent[student] = spent.get(student, 0) + e.size
            try:
                raw = read()
                spent[student] += max(0, len(raw) - e.size)  # a zip header that said less
            except NotRead as exc:  # what the file became between its listing and its reading
                read, why = None, f"not read: it is {exc}"
            except ValueError as exc:  # a corrupt zip member: refused, named
                read, why = None, str(exc)
            except OSError as exc:  # the reason, not the instructor's path
                read, why = None, f"not read: it is {reason(exc)}"
        if read is not None:
            try:
                lessons = match_lessons(answer_ids(parse_notebook(raw)), known)
            except ValueError as exc:  # graded as what its name says, if it says: the row is an error
                why = f"unreadable: {exc}"
            except Exception as exc:  # noqa: BLE001  any JSON at all: never a crash of the class
                why = f"unreadable: {type(exc).__name__}"
        if len(lessons) > 1:
            note = f"{shown}: its exercises match {' and '.join(lessons)}: not graded"
            taken.notes.append(note)
            for n in lessons:
                taken.row_notes.setdefault((student, n), []).append(note)
            continue
        if not lessons and hint is None:
            taken.notes.append(f"{shown}: not graded: {why or 'its exercises are no lesson of this course'}")
            continue
        lesson = lessons[0] if lessons else hint
        if lessons and hint and hint != lesson:
            taken.row_notes.setdefault((student, lesson), []).append(
                f"{shown} is named like {hint}; its exercises are {lesson}'s: graded as {lesson}"
            )
        rank = (bool(lessons), read is not None, submission_id, _resubmission(filename), e.mtime, "/".join(e.parts))
        sha = hashlib.sha256(raw).hexdigest() if read is not None else ""
        candidates.setdefault((student, lesson), []).append((rank, shown, read, why, sha))
    for key, found in sorted(candidates.items()):
        found.sort(key=lambda c: c[0], reverse=True)
        (_, shown, read, why, sha), others = found[0], found[1:]
        if read is not None:  # read again when a worker takes it: the same bytes or its row says why not
            taken.found[key] = Submission(shown, read, sha)
        else:
            taken.refused[key] = printable(f"{shown}: {why}" if why else shown, 300)
        if others:
            rest = ", ".join(o[1] for o in others[:NAMED_IN_A_NOTE])
            rest += f" and {len(others) - NAMED_IN_A_NOTE} more" if len(others) > NAMED_IN_A_NOTE else ""
            note = f"{len(found)} notebooks of {key[1]}: graded {shown} (the newest), not {rest}"
            taken.notes.append(f"{printable(key[0], 60)}: {note}")
            taken.row_notes.setdefault(key, []).append(note)
    return taken


def pick_lessons(course: list[str], lessons: list[str]) -> list[str]:
    """The course's lessons named in ``lessons``, by name or number ("02"), in course order;
    IntakeError naming any that the course does not have."""
    wanted = {x.strip() for x in lessons if x.strip()}
    unknown = sorted(x for x in wanted if not any(x in (n, n.split("_", 1)[0]) for n in course))
    if unknown:
        raise IntakeError(f"no lesson {', '.join(unknown)} in this course ({', '.join(course)})")
    return [n for n in course if n in wanted or n.split("_", 1)[0] in wanted]


def scope(taken: Intake, course: list[str], lessons: list[str] | None = None, students: list[str] | None = None):
    """(lessons, students) to grade: ``lessons`` by name or number ("02"), default the lessons some
    notebook was found for; ``students`` default every student the download names. A lesson out of
    scope gets no row at all; a student in scope is ``missing`` for each in-scope lesson they lack."""
    if lessons:
        names = pick_lessons(course, lessons)
    else:
        present = {n for _, n in (*taken.found, *taken.refused)}
        names = [n for n in course if n in present]
    if not names:
        raise IntakeError("no notebook of this course's lessons in SUBMISSIONS: nothing to grade")
    who = sorted(taken.students) if students is None else sorted({s.strip() for s in students if s.strip()})
    return names, who
