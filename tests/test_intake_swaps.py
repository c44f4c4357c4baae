"""A submission swapped while the class is graded (issue 65): a named pipe, a symlink (to /dev/zero,
to the solution), a sparse file of gigabytes, a folder swapped for a link, other bytes, a file
gone. Each is that student's own ``error`` row with the reason; every classmate is graded; the run
ends and writes grades.csv.

Two moments, each reached deterministically through the intake's own module (no sleep, no race):
between the listing and the reading of the intake (``intake.entries`` wrapped: the files change
once the listing is made), and between the intake and the worker that takes the notebook
(``intake.take`` wrapped: the files change once the class is taken in, before any job is made).
The grader used to read each notebook again by path then, uncapped, following links: a pipe
blocked the parent in open() for ever, and a link or other bytes were graded as if submitted.

A run of the old code would block for ever on the pipe: while a run is under way, ``unblock``
opens each pipe for writing (that succeeds only if a reader waits on it) and closes it at once,
so that the old code fails on its row's reason instead of hanging the test. Lesson 01, few
students: each grade run grades two notebooks.
"""

import csv
import os
import shutil
import threading
import zipfile

import pytest

from autograder.grader import Settings, grade
from autograder.grader.classroom import intake
from conftest import ROOT

pytestmark = pytest.mark.slow
LESSON = "01_number_formats"
NB = f"{LESSON}.ipynb"
RIGHT = (ROOT / "examples" / "submissions" / "ada" / NB).read_bytes()  # 13/13
BLANK = (ROOT / "examples" / "submissions" / "bob" / NB).read_bytes()  # 0/13
SOLUTION = ROOT / "solutions" / LESSON / NB


def known():
    from autograder.common.notebooks import lesson_answer_ids

    return lesson_answer_ids(ROOT)


def to_pipe(path):
    path.unlink()
    os.mkfifo(path)


def to_link(target):
    def swap(path):
        path.unlink()
        os.symlink(target, path)

    return swap


def to_sparse(path):
    with open(path, "r+b") as f:
        f.truncate(3 * 2**30)  # 3 GiB, no block of it written


def to_bytes(data):
    def swap(path):
        path.write_bytes(data)  # the same file (inode), other bytes

    return swap


def gone(path):
    path.unlink()


def folder_to_link(path):
    """The student's folder swapped for a link to another folder holding the solution."""
    elsewhere = path.parent.parent.parent / "elsewhere"
    elsewhere.mkdir(exist_ok=True)
    shutil.copy(SOLUTION, elsewhere / NB)
    shutil.rmtree(path.parent)
    os.symlink(elsewhere, path.parent)


# student -> (what their notebook becomes, what their row must say); "a_pipe" sorts first, so that
# every classmate's job comes after it
SWAPS = {
    "a_pipe": (to_pipe, "a named pipe"),
    "devzero": (to_link("/dev/zero"), "a symlink"),
    "linked": (to_link(SOLUTION), "a symlink"),
    "sparse": (to_sparse, "over 50 MiB"),
    "changed": (to_bytes(RIGHT), "other bytes"),
    "vanished": (gone, "gone"),
    "hopped": (folder_to_link, "below a symlink where a folder was"),
}


def lay_out(root):
    for student in SWAPS:
        (root / student).mkdir(parents=True)
        (root / student / NB).write_bytes(BLANK)
    (root / "zed").mkdir()
    (root / "zed" / NB).write_bytes(RIGHT)  # after every swapped one in the order jobs are made
    return root


def swap_all(root):
    for student, (swap, _) in SWAPS.items():
        swap(root / student / NB)


class Unblock:
    """While a run is under way, a reader blocked on one of the pipes (the old code's open()) is
    given a writer that closes at once: the old code then fails on its row instead of hanging."""

    def __init__(self, pipes):
        self.pipes, self.done = pipes, threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        while not self.done.wait(0.05):
            for p in self.pipes:
                try:
                    os.close(os.open(p, os.O_WRONLY | os.O_NONBLOCK))
                except OSError:  # no reader (ENXIO), or no longer a pipe
                    pass

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.done.set()
        self.thread.join()


def grade_swapped(monkeypatch, subs, out, **kw):
    """A real ``grade`` of lesson 01 whose files are swapped once the class is taken in."""
    real = intake.take

    def take_then_swap(submissions, known_ids):
        taken = real(submissions, known_ids)
        assert {k[0] for k in taken.found} >= set(SWAPS) | {"zed"}, taken.notes  # all read as notebooks
        swap_all(subs)
        return taken

    monkeypatch.setattr(intake, "take", take_then_swap)
    with Unblock([subs / s / NB for s, (swap, _) in SWAPS.items() if swap is to_pipe]):
        results = grade(subs, out, Settings(jobs=2, seed=7), quiet=True, names=[LESSON], **kw)
    return {r.student: r for r in results}


def assert_rows(results, out):
    for student, (_, reason) in SWAPS.items():
        r = results[student]
        print(student, r.status, r.detail)
        assert (r.status, r.score) == ("error", 0), (student, r.detail)
        assert "changed during grading" in r.detail and reason in r.detail, (student, r.detail)
    assert (results["zed"].status, results["zed"].score) == ("ok", 13), results["zed"].detail
    rows = {r["student"]: r for r in csv.DictReader(open(out / "grades.csv"))}
    assert set(rows) == set(SWAPS) | {"zed"}
    assert rows["zed"]["score"] == "13" and all(rows[s]["status"] == "error" for s in SWAPS)


def test_a_file_swapped_after_the_intake_is_its_own_error_row_and_the_class_is_graded(tmp_path, monkeypatch):
    subs = lay_out(tmp_path / "submissions")
    results = grade_swapped(monkeypatch, subs, tmp_path / "out")
    assert_rows(results, tmp_path / "out")


@pytest.mark.compat
def test_the_same_swaps_on_dask(tmp_path, monkeypatch):
    subs = lay_out(tmp_path / "submissions")
    results = grade_swapped(monkeypatch, subs, tmp_path / "out", scheduler="local:2")
    assert_rows(results, tmp_path / "out")


def test_a_zip_rewritten_in_place_after_the_intake_is_its_changed_rows_error(tmp_path, monkeypatch):
    """An LMS zip is read member by member through the file the intake opened: a zip rewritten in
    place (a synced folder) with one member's bytes changed makes that row an error; the others
    hold the same bytes and are graded."""
    path = tmp_path / "submissions.zip"

    def write(changed: bytes):
        with open(path, "r+b" if path.exists() else "wb") as f:
            with zipfile.ZipFile(f, "w") as zf:
                zf.writestr(f"zed/{NB}", RIGHT)
                zf.writestr(f"changed/{NB}", changed)
            f.truncate()

    write(BLANK)
    inode = path.stat().st_ino
    real = intake.take

    def take_then_swap(submissions, known_ids):
        taken = real(submissions, known_ids)
        write(RIGHT)
        return taken

    monkeypatch.setattr(intake, "take", take_then_swap)
    results = {r.student: r for r in grade(path, tmp_path / "out", Settings(jobs=2, seed=7), quiet=True)}
    assert path.stat().st_ino == inode, "rewritten in place"
    print(results["changed"].detail)
    assert (results["changed"].status, results["changed"].score) == ("error", 0)
    assert "changed during grading" in results["changed"].detail
    assert (results["zed"].status, results["zed"].score) == ("ok", 13)
    assert (tmp_path / "out" / "grades.csv").is_file()


def test_a_file_swapped_between_listing_and_reading_is_named_by_what_it_became(tmp_path, monkeypatch):
    """The intake lists, then reads: whatever a file became in between (a pipe, a link to /dev/zero,
    3 GiB, a folder turned link) is read as what it is then, at once, capped, and its lesson's row
    is an error saying what it is; the classmate is found."""
    subs = lay_out(tmp_path / "submissions")
    real = intake.entries

    def list_then_swap(submissions):
        listed = real(submissions)
        swap_all(subs)
        return listed

    monkeypatch.setattr(intake, "entries", list_then_swap)
    with Unblock([subs / s / NB for s, (swap, _) in SWAPS.items() if swap is to_pipe]):
        taken = intake.take(subs, known())
    print(taken.refused, taken.notes)
    assert set(taken.found) == {("zed", LESSON), ("changed", LESSON)}, "the only notebooks there when read"
    for student, (_, reason) in SWAPS.items():
        if student == "changed":  # other bytes before it was read: those are read, once
            continue
        assert f"not read: it is {reason}" in taken.refused[(student, LESSON)], student


def test_a_folder_swapped_for_a_link_while_the_class_is_listed_lists_nothing_elsewhere(tmp_path, monkeypatch):
    """Once the walk has seen a student's folder as a folder, it is swapped for a link to a folder
    elsewhere holding the solution (and could be / or /proc): the walk does not follow it, nothing
    there is listed or read, the folder is named; the classmate is found."""
    subs = tmp_path / "submissions"
    for student in ("hopped", "zed"):
        (subs / student).mkdir(parents=True)
        (subs / student / NB).write_bytes(RIGHT if student == "zed" else BLANK)
    real, swapped = os.lstat, []

    def lstat_then_swap(path, *args, **kwargs):
        st = real(path, *args, **kwargs)
        if os.fspath(path).endswith("hopped") and not swapped:  # seen as a folder: swapped now
            swapped.append(path)
            folder_to_link(subs / "hopped" / NB)
        return st

    monkeypatch.setattr(os, "lstat", lstat_then_swap)
    taken = intake.take(subs, known())
    monkeypatch.undo()
    print(taken.notes, taken.refused)
    assert ("hopped", LESSON) not in taken.found and ("zed", LESSON) in taken.found
    assert any("hopped" in n and "symlink" in n for n in taken.notes), taken.notes
