"""Feedback out (autograder/report/archives.py): the zips `feedback OUT --zip` writes.

The LMS rules below are re-stated from the LMSs' own importers, not from our code:
- Canvas, Assignment#infer_comment_context_from_filename (instructure/canvas-lms,
  app/models/assignment.rb): split the file's base name at "_"; the first two all-digit parts are
  the user id and the id of a file of that user's submission;
- Moodle, assignfeedback_file_zip_importer::is_valid_filename_for_import
  (mod/assign/feedback/file/importziplib.php): some path part, split at "_" into at most 5 pieces,
  has at least 4, the second numeric (the participant id), the third and fourth naming a plugin
  (here assignfeedback, file).
"""

from __future__ import annotations

import re
import zipfile

import pytest

from autograder.grader.core.model import Result, Status, TestResult
from autograder.grader.classroom.outputs import feedback_folders, write_outputs
from autograder.report import archives

LESSON, OTHER = "01_number_formats", "03_int8_quantization"


def row(student: str, lesson: str, upload: str, status=Status.OK) -> Result:
    tests = [TestResult("test_bf16_round_visible", 1.0, 1.0, doc="Rounds to nearest.")]
    return Result(student, lesson, 1.0, 1.0, status, tests=tests, upload=upload)


def canvas_ids(name: str) -> tuple[str, str] | None:
    digits = [part for part in name.split("_") if re.fullmatch(r"\d+", part)]
    return (digits[0], digits[1]) if len(digits) >= 2 else None


def moodle_participant(path: str) -> str | None:
    for part in path.split("/"):
        info = part.split("_", 4)
        if len(info) >= 4 and info[1].isdigit() and info[2:4] == ["assignfeedback", "file"]:
            return info[1]
    return None


def graded(tmp_path, rows: list[Result]):
    out = tmp_path / "out"
    write_outputs(out, rows)
    return out


def test_canvas_downloads_get_a_re_upload_zip_canvas_matches_to_each_submission(tmp_path):
    rows = [
        row("lovelaceada", LESSON, f"lovelaceada_4401_998877_{LESSON}.ipynb"),
        row("hoppergrace", LESSON, "canvas/hoppergrace_LATE_5502_998878_Copy of work-1.ipynb"),
        row("turingalan", LESSON, "", Status.MISSING),  # no submission: no page, not packed
    ]
    out = graded(tmp_path, rows)
    packed = archives.pack(out)
    assert [p.name for p in packed.archives] == [f"{LESSON}-canvas.zip"] and packed.left_out == []
    with zipfile.ZipFile(packed.archives[0]) as z:
        names = z.namelist()
        assert {canvas_ids(n) for n in names} == {("4401", "998877"), ("5502", "998878")}, names
        ada = next(n for n in names if canvas_ids(n) == ("4401", "998877"))
        assert z.read(ada) == (out / "feedback" / "lovelaceada" / f"{LESSON}.html").read_bytes()


def test_moodle_downloads_get_a_feedback_files_zip_moodle_matches_to_each_participant(tmp_path):
    rows = [
        row("Ada Lovelace_1234567", LESSON, f"Ada Lovelace_1234567_assignsubmission_file_{LESSON}.ipynb"),
        row("Grace Hopper_7654321", LESSON, "Grace Hopper_7654321_assignsubmission_file_/Copy of work.ipynb"),
    ]
    packed = archives.pack(graded(tmp_path, rows))
    assert [p.name for p in packed.archives] == [f"{LESSON}-moodle.zip"]
    with zipfile.ZipFile(packed.archives[0]) as z:
        assert sorted(moodle_participant(n) for n in z.namelist()) == ["1234567", "7654321"], z.namelist()


def test_folders_get_one_zip_per_student_and_auto_decides_per_lesson(tmp_path):
    rows = [
        row("ada", LESSON, f"ada/Copy of {LESSON}.ipynb"),
        row("ada", OTHER, f"ada/{OTHER}.ipynb"),
        row("bob", LESSON, f"bob/{LESSON} (1).ipynb"),
        row("lovelaceada", OTHER, f"lovelaceada_4401_998877_{OTHER}.ipynb"),
    ]
    packed = archives.pack(graded(tmp_path, rows))
    names = sorted(p.name for p in packed.archives)
    assert names == ["ada.zip", "bob.zip", "lovelaceada.zip"], "a lesson uploaded two ways is packed per student"
    with zipfile.ZipFile(packed.archives[names.index("ada.zip")]) as z:
        assert z.namelist() == [f"{LESSON}.html", f"{OTHER}.html"]
    lovelace = [r for r in rows if r.student == "lovelaceada"]
    assert archives.form_of(lovelace, "auto") == "canvas" and archives.form_of(rows, "auto") == "students"


def test_an_asked_lms_form_names_the_rows_it_cannot_address(tmp_path):
    rows = [row("ada", LESSON, f"ada/{LESSON}.ipynb"), row("lovelaceada", LESSON, f"x_4401_998877_{LESSON}.ipynb")]
    packed = archives.pack(graded(tmp_path, rows), "moodle")
    assert packed.archives == [] and len(packed.left_out) == 2
    assert all("not uploaded as Moodle names its downloads" in n for n in packed.left_out)


def test_archives_are_reproducible_and_a_rerun_leaves_no_stale_zip(tmp_path):
    rows = [row("ada", LESSON, f"ada/{LESSON}.ipynb"), row("bob", LESSON, f"bob/{LESSON}.ipynb")]
    out = graded(tmp_path, rows)
    first = {p.name: p.read_bytes() for p in archives.pack(out).archives}
    assert {p.name: p.read_bytes() for p in archives.pack(out).archives} == first
    write_outputs(out, rows[:1])  # bob's row gone from results.json (and with it bob's zip)
    assert sorted(p.name for p in (out / archives.FOLDER).iterdir()) == ["ada.zip", "bob.zip"]  # until repacked
    archives.pack(out)
    assert sorted(p.name for p in (out / archives.FOLDER).iterdir()) == ["ada.zip"]


def test_student_names_become_safe_distinct_file_names(tmp_path):
    for hostile in ["../../etc", "a/b", "con\x07trol", "..", "", "a\\b:c*"]:
        safe = archives.file_safe(hostile)
        assert safe and safe not in (".", "..") and not set(safe) & set("/\\\x07:*"), (hostile, safe)
    rows = [row("A", LESSON, f"A/{LESSON}.ipynb"), row("a", LESSON, f"a/{LESSON}.ipynb")]
    packed = archives.pack(graded(tmp_path, rows))  # one name on a case-insensitive file system
    assert sorted(p.name.lower() for p in packed.archives) == ["a-2.zip", "a.zip"]


def test_no_archive_is_named_after_a_student_whose_page_it_does_not_hold(tmp_path):
    """Red team: "Bob", "bob" and "bob_" (or "bob-2") once gave bob's page in bob_.zip. Every
    archive holds its own student's pages, and no archive bears another student's name."""
    students = ["Bob", "bob", "bob_", "bob-2", "a:b", "a_b"]
    packed_rows = [row(s, LESSON, f"{s}/{LESSON}.ipynb") for s in students]
    out = graded(tmp_path, packed_rows)
    packed = archives.pack(out)
    assert sorted(packed.owners.values()) == sorted(students)
    for name, student in packed.owners.items():
        stem = name.removesuffix(".zip")
        others = {archives.file_safe(s).lower() for s in students if s != student}
        assert stem == archives.file_safe(student) or stem.lower() not in others, (name, student)
        folder = feedback_folders(packed_rows)[student]  # "Bob" and "bob": two folders on any disk (issue 65)
        with zipfile.ZipFile(out / archives.FOLDER / name) as z:
            assert z.read(f"{LESSON}.html") == (out / "feedback" / folder / f"{LESSON}.html").read_bytes()


def test_a_graded_row_without_its_page_is_an_error_not_a_silent_gap(tmp_path):
    out = graded(tmp_path, [row("ada", LESSON, f"ada/{LESSON}.ipynb")])
    (out / "feedback" / "ada" / f"{LESSON}.html").unlink()
    with pytest.raises(FileNotFoundError, match="no feedback page"):
        archives.pack(out)
    assert archives.main(out, "auto") == 2


def test_an_lms_name_cannot_make_a_member_that_escapes_or_misleads_an_unzipper(tmp_path):
    """A student-chosen display name inside an LMS file name (Moodle's full name) never puts a
    backslash, colon or control character into a member name, and the LMS still matches it."""
    rows = [row("x", LESSON, "..\\..\\evil:\x07name_42_assignsubmission_file_/a.ipynb")]
    packed = archives.pack(graded(tmp_path, rows), "moodle")
    with zipfile.ZipFile(packed.archives[0]) as z:
        [name] = z.namelist()
    assert not set(name) & set("\\:\x07") and moodle_participant(name) == "42", name
    assert archives.canvas_name("a\\b_1_2_f.ipynb", LESSON) == f"a b_1_2_feedback_{LESSON}.html"
