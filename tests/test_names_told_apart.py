"""Students whose names differ only in Unicode normalisation or case (issue 65): ``café`` written as
NFC (U+00E9) and as NFD (e U+0301), ``Alice`` and ``alice``. They are never one row, and wherever a
person reads a name (the terminal table, grades.csv and tests.csv, the class report, the LMS's wide
CSV, missing.csv, the feedback folders and archives) no two of them print alike, and no two
folders or archives are one on a file system blind to case or normalisation (macOS, Windows).

The class is written by the grader's own outputs (write_outputs) from Results made here, then read
by the report as the command line does (report_class), without grading.
"""

import csv
import html
import re
import unicodedata
import zipfile

import nbformat

from autograder.common.notebooks import fill_answers
from autograder.grader.core.model import Result, Status
from conftest import ROOT, source_nb, student_nb

LESSON = "01_number_formats"
NFC, NFD = unicodedata.normalize("NFC", "café"), unicodedata.normalize("NFD", "café")
NAMES = [NFC, NFD, "Alice", "alice", "bob"]
MISSING = unicodedata.normalize("NFD", "zoé")  # only a missing row: named in missing.csv
ALSO = unicodedata.normalize("NFC", "zoé")


def prints_as(text: str) -> str:
    """What a reader sees: the NFC form (a terminal or a spreadsheet draws NFC and NFD alike)."""
    return unicodedata.normalize("NFC", text)


def blind(text: str) -> str:
    """What a file system blind to case and normalisation takes a name for."""
    return unicodedata.normalize("NFKC", text).casefold()


def a_class(out):
    from autograder.grader.classroom.outputs import write_outputs

    # each an error row (the report names those, linked to their pages), its own score
    rows = [Result(s, LESSON, float(i + 1), 13.0, Status.ERROR, detail="died") for i, s in enumerate(NAMES)]
    rows += [Result(MISSING, LESSON, max_score=13.0, status=Status.MISSING)]
    rows += [Result(ALSO, LESSON, 9.0, 13.0, Status.ERROR, detail="died")]
    write_outputs(out, rows)
    return rows


def faces_are_distinct(cells):
    faces = [prints_as(c) for c in cells]
    assert len(set(faces)) == len(faces), faces


def test_grades_tests_csv_terminal_and_feedback_folders_tell_them_apart(tmp_path, capsys):
    from autograder.grader.classroom.outputs import print_table

    rows = a_class(tmp_path)
    grades = list(csv.DictReader(open(tmp_path / "grades.csv", encoding="utf-8")))
    assert len(grades) == len(rows), "no row merged"
    faces_are_distinct([g["student"] for g in grades])
    scores = {prints_as(g["student"]): g["score"] for g in grades}
    assert len(set(scores.values())) == len(scores), "each face has its own student's score"
    tests = {r["student"] for r in csv.DictReader(open(tmp_path / "tests.csv", encoding="utf-8"))}
    assert tests <= {g["student"] for g in grades}
    print_table(rows)
    table = capsys.readouterr().out.splitlines()[1 : 1 + len(rows)]
    faces_are_distinct([line.split()[0] for line in table])
    folders = [p for p in (tmp_path / "feedback").iterdir()]
    assert len(folders) == len(rows) - 1, "one folder per student with a page"
    assert len({blind(p.name) for p in folders}) == len(folders), [p.name for p in folders]
    for p in folders:  # each folder holds its own student's page, whatever the disk
        page = (p / f"{LESSON}.html").read_text(encoding="utf-8")
        named = re.search(r"Student: <b>(.*?)</b>", page).group(1)
        assert html.unescape(named) in NAMES + [ALSO]
        if html.unescape(named) in (NFC, NFD, "Alice", "alice"):
            assert p.name != html.unescape(named) and "~" in p.name, "a told-apart folder"


def test_the_report_and_the_lms_exports_tell_them_apart(tmp_path):
    from autograder.report import load, report_class

    a_class(tmp_path)
    page = report_class(tmp_path, quiet=True)
    data = load(tmp_path)
    assert data.problems == [], data.problems
    assert sorted(data.students) == sorted(NAMES + [MISSING, ALSO]), "every name joins its own row"
    wide = list(csv.reader(open(tmp_path / "grades_wide.csv", encoding="utf-8")))[2:]
    faces_are_distinct([r[0] for r in wide])
    missing = list(csv.DictReader(open(tmp_path / "missing.csv", encoding="utf-8")))
    assert len(missing) == 1 and prints_as(missing[0]["student"]) != prints_as(ALSO)
    text = page.read_text(encoding="utf-8")
    links = re.findall(r'<a href="(feedback/[^"]+)">(.*?)</a>', text)
    by_target = {}
    for target, shown in links:
        from urllib.parse import unquote

        assert (tmp_path / unquote(target)).is_file(), target
        by_target.setdefault(unquote(target), set()).add(prints_as(html.unescape(shown)))
    assert len(by_target) == len(NAMES) + 1, "a link to each page with a student"
    faces = [next(iter(f)) for f in by_target.values()]
    assert all(len(f) == 1 for f in by_target.values())
    faces_are_distinct(faces)


def test_per_student_archives_are_never_one_file_on_a_blind_disk(tmp_path):
    from autograder.report.archives import pack

    a_class(tmp_path)
    packed = pack(tmp_path, "students")
    names = [p.name for p in packed.archives]
    assert len(names) == len(NAMES) + 1
    assert len({blind(n) for n in names}) == len(names), names
    for path in packed.archives:  # each archive holds its owner's page
        owner = packed.owners[path.name]
        with zipfile.ZipFile(path) as z:
            page = z.read(f"{LESSON}.html").decode()
        assert f"Student: <b>{html.escape(owner)}</b>" in page


def test_the_intake_never_merges_them(tmp_path):
    from autograder.common.notebooks import lesson_answer_ids
    from autograder.grader.classroom.intake import take

    nb = nbformat.writes(fill_answers(student_nb(LESSON), source_nb(LESSON)))
    for name in NAMES:
        (tmp_path / name).mkdir()
        (tmp_path / name / f"{LESSON}.ipynb").write_text(nb)
    taken = take(tmp_path, lesson_answer_ids(ROOT))
    assert set(taken.found) == {(n, LESSON) for n in NAMES}


def test_a_name_made_to_look_like_a_told_apart_face_or_folder_takes_neither():
    """A student who names a folder as another's told-apart face (``caf<U+00E9>``) or folder
    (``alice~`` and its hash) does not take it: faces stay distinct, folders distinct on a blind disk."""
    import hashlib

    from autograder.common.textsafe import folder_names, told_apart

    h = hashlib.sha256(b"alice").hexdigest()
    names = [NFC, NFD, "caf<U+00E9>", "Alice", "alice", f"alice~{h[:16]}", f"alice~{h}"]
    faces_are_distinct(told_apart(names).values())
    folders = folder_names(names).values()
    assert len({blind(f) for f in folders}) == len(names), folders


def test_an_override_names_a_student_by_the_face_grades_csv_shows(tmp_path):
    """The instructor copies ``cafe<U+0301>`` from grades.csv into ``override --student``: the
    override is the NFD student's, not the NFC one's, and not refused."""
    import json

    from autograder.grader.classroom.overrides import record

    rows = {(r.student, r.lesson): r for r in a_class(tmp_path)}
    grades = csv.DictReader(open(tmp_path / "grades.csv", encoding="utf-8"))
    face = next(g["student"] for g in grades if g["student"].startswith("cafe"))
    record(tmp_path, face, "01", rows, 12.0, "regraded by hand", False)
    [line] = (tmp_path / "overrides.jsonl").read_text().splitlines()
    assert json.loads(line)["student"] == NFD
