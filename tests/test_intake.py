"""Intake (issue 31): what an LMS download holds, one lesson at a time.

The fixtures are laid out as Canvas and Moodle export them (autograder/grader/classroom/intake.py cites the
formats), as folders and as the LMS's zip, with notebooks built from the student release. The
pure intake is tested without grading; one small class of lesson 01 is graded end to end.
"""

import os
import zipfile

import nbformat
import pytest

from autograder.common.notebooks import fill_answers
from conftest import ROOT, source_nb, student_nb

ONE, TWO, THREE = "01_number_formats", "02_matmul_accumulation", "03_int8_quantization"


def intake():
    """The module under test, imported in each test: the end-to-end test below imports only
    ``grade``, so that it runs (and fails) against the grader before this module existed."""
    from autograder.grader.classroom import intake as module

    return module


def known():
    from autograder.common.notebooks import lesson_answer_ids

    return lesson_answer_ids(ROOT)


def text(lesson: str, solved: bool = True) -> str:
    nb = fill_answers(student_nb(lesson), source_nb(lesson)) if solved else student_nb(lesson)
    return nbformat.writes(nb)


# Each layout: {path below SUBMISSIONS: lesson} and {(student, lesson) the intake must find}.
LAYOUTS = {
    "student folders": (
        {
            f"ada/Copy of {ONE}.ipynb": ONE,
            "ada/my_work.ipynb": TWO,
            f"bob/{ONE} (1).ipynb": ONE,
            f"cy/{THREE}/{THREE}.ipynb": THREE,  # nbgrader's own layout
        },
        {("ada", ONE), ("ada", TWO), ("bob", ONE), ("cy", THREE)},
    ),
    "canvas": (
        {
            f"lovelaceada_4401_998877_{ONE}.ipynb": ONE,
            f"hoppergrace_LATE_5502_998878_Copy of {TWO}.ipynb": TWO,
            "turingalan_6603_998879_mine-1.ipynb": THREE,
        },
        {("lovelaceada", ONE), ("hoppergrace", TWO), ("turingalan", THREE)},
    ),
    "moodle flat": (
        {
            f"Ada Lovelace_1234567_assignsubmission_file_{ONE}.ipynb": ONE,
            "Grace Hopper_7654321_assignsubmission_file_work (1).ipynb": TWO,
        },
        {("Ada Lovelace_1234567", ONE), ("Grace Hopper_7654321", TWO)},
    ),
    "moodle folders": (
        {
            f"Ada Lovelace_1234567_assignsubmission_file_/{ONE}.ipynb": ONE,
            "Grace Hopper_7654321_assignsubmission_file_/Copy of work.ipynb": TWO,
        },
        {("Ada Lovelace_1234567", ONE), ("Grace Hopper_7654321", TWO)},
    ),
}


def lay_out(tmp_path, files: dict, as_zip: bool):
    if as_zip:
        path = tmp_path / "submissions.zip"
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
            for name, lesson in files.items():
                zf.writestr(name, text(lesson))
        return path
    root = tmp_path / "submissions"
    for name, lesson in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text(lesson))
    return root


@pytest.mark.parametrize("as_zip", [False, True], ids=["folder", "zip"])
@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_each_layout_and_naming_is_found_by_its_exercises(tmp_path, layout, as_zip):
    files, expected = LAYOUTS[layout]
    taken = intake().take(lay_out(tmp_path, files, as_zip), known())
    print(layout, sorted(taken.found), taken.notes)
    assert set(taken.found) == expected and taken.refused == {} and taken.notes == []
    assert taken.students == {s for s, _ in expected}
    for (student, lesson), sub in taken.found.items():
        assert nbformat.reads(sub.read().decode(), as_version=4).cells, "the notebook's bytes, read again"


def test_duplicates_unknown_ambiguous_and_misnamed_notebooks_are_named(tmp_path):
    root = tmp_path / "submissions"
    files = {
        f"ada/{ONE}.ipynb": text(ONE, solved=False),
        f"ada/Copy of {ONE}.ipynb": text(ONE),  # newer: graded, the other named
        f"lovelaceada_4401_998877_{ONE}.ipynb": text(ONE, solved=False),
        f"lovelaceada_4401_998877_{ONE}-1.ipynb": text(ONE),  # Canvas's resubmission: graded
        "bob/notes.ipynb": nbformat.writes(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1")])),
        "dee/02_matmul_accumulation.ipynb": text(ONE),  # named like 02, its exercises are 01's
        f"eve/{ONE}.ipynb": "{ not json",  # cannot say: its name does, so its row is an error
        "smithjohn_11_21_a.ipynb": text(ONE),  # two Canvas users with one name
        "smithjohn_12_22_b.ipynb": text(TWO),
    }
    both = nbformat.reads(text(ONE), as_version=4)
    for i, cell in enumerate(nbformat.reads(text(TWO), as_version=4).cells):
        cell["id"] = f"second-{i}"
        both.cells.append(cell)
    files["cy/both.ipynb"] = nbformat.writes(both)
    for i, (name, body) in enumerate(files.items()):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(body)
        os.utime(root / name, (1_700_000_000 + i, 1_700_000_000 + i))
    taken = intake().take(root, known())
    notes = "\n".join(taken.notes)
    print(notes, sorted(taken.found), taken.row_notes, sep="\n")
    assert taken.found[("ada", ONE)].name == f"ada/Copy of {ONE}.ipynb"
    assert f"graded ada/Copy of {ONE}.ipynb (the newest), not ada/{ONE}.ipynb" in notes
    assert taken.row_notes[("ada", ONE)], "the graded row says another notebook was not graded"
    assert taken.found[("lovelaceada", ONE)].name.endswith("-1.ipynb")
    assert "bob/notes.ipynb" in notes and "no lesson" in notes and "bob" in taken.students
    assert not any(s == "bob" for s, _ in taken.found)
    assert f"cy/both.ipynb: its exercises match {ONE} and {TWO}: not graded" in notes
    assert not any(s == "cy" for s, _ in taken.found) and taken.row_notes[("cy", TWO)]
    assert ("dee", ONE) in taken.found and ("dee", TWO) not in taken.found
    assert "its exercises are 01_number_formats's" in taken.row_notes[("dee", ONE)][0]
    assert ("eve", ONE) in taken.found, "unreadable, named like lesson 01: graded (an error row), not missing"
    assert {("smithjohn_11", ONE), ("smithjohn_12", TWO)} <= set(taken.found) and "smithjohn" in notes


def test_scope_is_the_lessons_found_or_asked_and_the_students_asked(tmp_path):
    module = intake()
    files = {f"ada/{ONE}.ipynb": ONE, f"bob/{TWO}.ipynb": TWO, "cy/notes.txt": ONE}
    root = lay_out(tmp_path, files, as_zip=False)
    (root / "cy" / "notes.txt").write_text("no notebook")
    taken = module.take(root, known())
    course = sorted(known())
    assert module.scope(taken, course) == ([ONE, TWO], ["ada", "bob", "cy"])
    assert module.scope(taken, course, ["02"], ["bob", "cy"]) == ([TWO], ["bob", "cy"])
    assert module.scope(taken, course, [THREE]) == ([THREE], ["ada", "bob", "cy"])
    with pytest.raises(module.IntakeError, match="no lesson 09"):
        module.scope(taken, course, ["09"])
    empty = tmp_path / "empty"
    (empty / "zed").mkdir(parents=True)
    with pytest.raises(module.IntakeError, match="nothing to grade"):
        module.scope(module.take(empty, known()), course)


def test_a_hostile_zip_is_read_as_data_and_named(tmp_path, monkeypatch):
    """Zip-slip paths, a symlink member, a bomb (60 MiB of zeros in 60 KiB), a corrupt member and a
    notebook past its student's budget: none is read or written anywhere, each is named, the class goes on."""
    module = intake()
    path = tmp_path / "canvas.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(f"../{ONE}.ipynb", text(ONE))
        zf.writestr(f"/tmp/{ONE}.ipynb", text(ONE))
        zf.writestr(f"ada/../../{ONE}.ipynb", text(ONE))
        link = zipfile.ZipInfo(f"bob/{ONE}.ipynb")
        link.external_attr = 0o120777 << 16  # a symlink to the solution
        zf.writestr(link, str(ROOT / "solutions" / ONE / f"{ONE}.ipynb"))
        zf.writestr(f"cy/{ONE}.ipynb", b"\0" * (60 * 2**20))
        zf.writestr(f"dee/{ONE}.ipynb", text(ONE))
        zf.writestr(f"eve/{ONE}.ipynb", text(ONE))
    raw = bytearray(path.read_bytes())
    start = raw.index(f"dee/{ONE}.ipynb".encode()) + len(f"dee/{ONE}.ipynb") + 50
    raw[start : start + 64] = bytes(64)  # dee's compressed bytes corrupted: a CRC or inflate error
    path.write_bytes(bytes(raw))
    assert path.stat().st_size < 2**20, "the bomb is small on disk"
    before = set(os.listdir(tmp_path))
    taken = module.take(path, known())
    notes = "\n".join(taken.notes)
    print(notes, taken.refused, sorted(taken.found), sep="\n")
    assert notes.count("a path outside the zip") == 3
    assert "symlink" in taken.refused[("bob", ONE)]
    assert "over 50 MiB: not read" in taken.refused[("cy", ONE)]
    assert "unreadable in the zip" in taken.refused[("dee", ONE)]
    assert set(taken.found) == {("eve", ONE)} and set(os.listdir(tmp_path)) == before
    monkeypatch.setattr(module, "MAX_STUDENT_BYTES", 1000)  # a student's budget, small enough to reach here
    taken = module.take(path, known())
    assert "past 1000 bytes of notebooks from one student" in taken.refused[("eve", ONE)] and not taken.found
    (tmp_path / "fake.zip").write_bytes(b"PK not a zip")
    with pytest.raises(module.IntakeError, match="not a readable zip"):
        module.take(tmp_path / "fake.zip", known())


def test_one_uploaders_padding_never_decides_whether_classmates_are_read(tmp_path, monkeypatch):
    """Issue 42: the budget of bytes read is each student's own, and only notebooks count. Padding
    in front of two classmates (files that are no notebook, a whole class's worth of them, and one
    student's notebooks far over their budget) leaves the classmates taken exactly as from the
    same zip without it; the padder's notebooks past their own budget are named, not read."""
    module = intake()
    cap = 200_000  # small caps, as the real ones (1 GiB a student, 50 MiB a notebook) scaled down
    monkeypatch.setattr(module, "MAX_STUDENT_BYTES", cap, raising=False)
    monkeypatch.setattr(module, "MAX_ZIP_BYTES", cap, raising=False)  # the old one budget of the zip's
    from autograder.grader.classroom import reading

    monkeypatch.setattr(reading, "MAX_NOTEBOOK_BYTES", cap)  # the reader's cap (reading.py since issue 65)
    assert len(text(ONE).encode()) < cap // 2, "a classmate's notebook fits the budget twice"
    classmates = {f"ada/{ONE}.ipynb": text(ONE), f"bob/Copy of {ONE}.ipynb": text(ONE)}

    def zipped(name: str, padding: dict) -> dict:
        with zipfile.ZipFile(tmp_path / name, "w", zipfile.ZIP_DEFLATED) as zf:
            for member, data in {**padding, **classmates}.items():
                zf.writestr(member, data)
        taken = module.take(tmp_path / name, known())
        return {key: sub.read() for key, sub in taken.found.items()}, taken

    plain, _ = zipped("plain.zip", {})
    padding = {f"mallory/pad{i:02}.bin": bytes(cap - 1) for i in range(41)}  # never notebooks
    padding |= {f"mallory_4401_99887{i}_pad{i:02}.ipynb": bytes(cap - 1) for i in range(5)}  # Canvas, flat
    padding |= {f"mallory/{ONE} ({i}).ipynb": bytes(cap - 1) for i in range(5)}  # over her own budget
    padded, taken = zipped("padded.zip", padding)
    print(taken.notes, taken.refused)
    assert set(plain) == {("ada", ONE), ("bob", ONE)}
    assert {k: v for k, v in padded.items() if k[0] != "mallory"} == plain, "the classmates as without padding"
    assert not any(s in ("ada", "bob") for s, _ in [*taken.refused, *taken.row_notes])
    past = [n for n in taken.notes if "past 195.31 KiB of notebooks from one student" in n]
    assert past and all("mallory" in n for n in past), "only the padder's own notebooks go unread"


def test_grade_refuses_an_unknown_lesson_in_one_line(tmp_path, capsys):
    from autograder.__main__ import main

    root = lay_out(tmp_path, {f"ada/{ONE}.ipynb": ONE}, as_zip=False)
    assert main(["grade", str(root), "--out", str(tmp_path / "out"), "--lessons", "09"]) == 2
    assert "no lesson 09 in this course" in capsys.readouterr().err
    assert not (tmp_path / "out").exists(), "nothing written"


def with_metadata(lesson: str, nbgrader) -> str:
    """The solved notebook with one more markdown cell whose nbgrader metadata is ``nbgrader``."""
    nb = nbformat.reads(text(lesson), as_version=4)
    nb.cells.append(nbformat.v4.new_markdown_cell("hi", metadata={"nbgrader": nbgrader}))
    return nbformat.writes(nb)


def test_red_team_5_no_single_submission_stops_the_class(tmp_path):
    """Red team round 5 (each stopped `grade` with a traceback before any output): nbgrader metadata
    of any JSON type, two notebooks whose shown names collide (the tie-break compared functions),
    folders 1,000 deep (a recursion limit), a folder that cannot be listed, a zip member name that
    is not UTF-8, and file names long enough to make the name patterns slow. Each is named or
    graded; the other students are found."""
    root = tmp_path / "submissions"
    files = {f"ok/{ONE}.ipynb": text(ONE)}
    for i, meta in enumerate([{"grade_id": 5}, {"grade_id": ["x"]}, "x", [1], None, {"points": "NaN"}]):
        files[f"meta{i}/{ONE}.ipynb"] = with_metadata(ONE, meta)
    files["tie/x\x07.ipynb"] = text(ONE)
    files["tie/x\\x07.ipynb"] = text(ONE)
    for name, body in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(body)
    deep = root / "deep"
    for _ in range(1000):  # one level at a time (os.makedirs recurses)
        deep = deep / "d"
        deep.mkdir(parents=deep.parent.name == "deep")
    try:
        taken = intake().take(root, known())
    finally:  # pytest's own clean-up of tmp_path recurses: remove the deep folders here
        from autograder.grader.sandbox.workdir import remove_tree

        remove_tree(root / "deep")
    assert ("ok", ONE) in taken.found and ("tie", ONE) in taken.found
    assert all((f"meta{i}", ONE) in taken.found for i in range(6)), taken.notes
    assert any("nested over" in n for n in taken.notes), taken.notes
    # a zip whose member name claims UTF-8 and is not: one line, not a traceback; and a member
    # name of 32,000 characters (the name patterns stay linear: they see at most 255)
    bad = tmp_path / "bad.zip"
    with zipfile.ZipFile(bad, "w") as zf:
        zf.writestr(f"ok/AB{ONE}.ipynb", text(ONE))
    raw = bytearray(bad.read_bytes().replace(f"AB{ONE}".encode(), b"\xff\xfe" + ONE.encode()))
    for signature, flags_at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):  # set "the name is UTF-8"
        at = raw.index(signature) + flags_at
        raw[at + 1] |= 0x08
    bad.write_bytes(bytes(raw))
    with pytest.raises(intake().IntakeError, match="not a readable zip"):
        intake().take(bad, known())
    long = tmp_path / "long.zip"
    with zipfile.ZipFile(long, "w") as zf:
        zf.writestr("alice/" + "-1" * 16000 + "x.ipynb", text(ONE))
        zf.writestr(f"bob/{ONE}.ipynb", text(ONE))
    taken = intake().take(long, known())
    assert ("alice", ONE) in taken.found and ("bob", ONE) in taken.found
    # a student's name that is not UTF-8 (a zip unpacked with another encoding): named, not graded
    odd = tmp_path / "odd"
    os.makedirs(os.fsencode(odd) + b"/m\xfcller")
    with open(os.fsencode(odd) + b"/m\xfcller/" + f"{ONE}.ipynb".encode(), "w") as f:
        f.write(text(ONE))
    taken = intake().take(odd, known())
    assert taken.found == {} and any("not UTF-8" in n for n in taken.notes), taken.notes


def test_red_team_5_an_unlistable_folder_is_named(tmp_path):
    """A folder the grader may not list (a careless export): named, the class goes on."""
    root = tmp_path / "submissions"
    (root / "ok").mkdir(parents=True)
    (root / "ok" / f"{ONE}.ipynb").write_text(text(ONE))
    (root / "ada" / "locked").mkdir(parents=True)
    from autograder.grader.classroom import reading  # the folder walk (reading.py since issue 65)

    real = reading._open_folder

    def open_folder(top, parts):
        if parts[-1:] == ("locked",):
            raise PermissionError(13, "Permission denied", "locked")
        return real(top, parts)

    import pytest as _pytest

    with _pytest.MonkeyPatch.context() as m:
        m.setattr(reading, "_open_folder", open_folder)
        taken = intake().take(root, known())
    assert ("ok", ONE) in taken.found
    notes = " ".join(taken.notes)
    assert "cannot be listed (Permission denied)" in notes and str(tmp_path) not in notes


def test_one_students_thousands_of_uploads_are_not_all_parsed(tmp_path, monkeypatch):
    """A student's notebooks past MAX_NOTEBOOKS_PER_STUDENT are named and never parsed (each parse
    of a large notebook takes seconds): the class is not held up by one student's uploads, and the
    other students are read as usual."""
    module = intake()
    cap = module.MAX_NOTEBOOKS_PER_STUDENT
    files = {f"ada/junk_{i:03d}.ipynb": ONE for i in range(cap + 6)} | {f"bob/{TWO}.ipynb": TWO}
    root = lay_out(tmp_path, files, as_zip=False)
    parsed = []
    real = module.parse_notebook
    monkeypatch.setattr(module, "parse_notebook", lambda raw: parsed.append(1) or real(raw))
    taken = module.take(root, known())
    assert len(parsed) == cap + 1, "ada's first notebooks and bob's one"
    unread = [n for n in taken.notes if f"over {cap} notebooks from one student: not read" in n]
    assert len(unread) == 6 and all("ada/junk_" in n for n in unread)
    assert set(taken.found) == {("ada", ONE), ("bob", TWO)}


def test_a_name_longer_than_a_file_system_allows_in_bytes_is_named_not_graded(tmp_path):
    """A zip's student folder of 90 CJK characters (270 bytes of UTF-8: under 255 characters, over
    any file system's 255-byte name) is no LMS's folder and could be no feedback folder of OUT: it
    is named in the notes and not graded; the classmate beside it is taken (it crashed the class's
    outputs, on every rerun, when the limit counted characters)."""
    path = tmp_path / "class.zip"
    long = "学" * 90 + "_17_assignsubmission_file_"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(f"{long}/{ONE}.ipynb", text(ONE))
        zf.writestr(f"{'学' * 70}_18_assignsubmission_file_/{ONE}.ipynb", text(ONE))  # 236 bytes: a name
        zf.writestr(f"ada/{ONE}.ipynb", text(ONE))
    taken = intake().take(path, known())
    assert set(taken.found) == {("ada", ONE), ("学" * 70 + "_18", ONE)}, taken.found
    assert any("over 255 bytes" in n and "学" in n for n in taken.notes), taken.notes


def test_a_name_with_a_newline_prints_as_one_line_of_the_instructors_table(capsys):
    """A second hostile round: a student folder named "eve\\nalice..." started a forged row in the
    terminal's table (names were printed keeping newlines): each row is one line now, the name's
    newline escaped, and a detail holding one too."""
    from autograder.grader.classroom.outputs import print_table
    from autograder.grader.core.model import Result, Status

    forged = "eve\nalice            01_number_formats             13 / 13   ok"
    print_table([Result(forged, ONE, 0, 13, Status.ERROR, detail="died\nbob  13 / 13 ok")])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3 and lines[1].startswith("eve\\nalice") and "died\\nbob" in lines[1], lines


def test_a_lesson_left_out_by_course_lessons_is_no_stranger(tmp_path, monkeypatch, capsys):
    """COURSE_LESSONS=01 (as `lessoncheck check` sets it) grading a class that also submitted lesson
    02: the 02 notebook is out of scope, not "not graded: its exercises are no lesson of this
    course", which every passing graded step printed for the example class's other lessons (issue 67)."""
    from autograder.grader.classroom.classrun import grade

    sub = tmp_path / "sub"
    (sub / "ada").mkdir(parents=True)
    (sub / "ada" / f"{ONE}.ipynb").write_text(text(ONE, solved=False))
    (sub / "ada" / f"{TWO}.ipynb").write_text(text(TWO, solved=False))
    monkeypatch.setenv("COURSE_LESSONS", ONE)
    results = grade(sub, tmp_path / "out", quiet=True)
    err = capsys.readouterr().err
    print(err)
    assert "no lesson of this course" not in err
    assert {r.lesson for r in results} == {ONE}
