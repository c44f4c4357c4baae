"""Issue 44's red team: a per-process cap is named from what the host sees, never from what the
student's process reports. A MemoryError or an OSError with errno EFBIG is the student's to raise;
before, either one turned a wrong answer into "limit reached" (status error, kept out of the
class's misconceptions). Now the checker names the address-space cap only where the process's
peak address space reached it, and the file-size cap only where a file of the cap's size is there
(sandbox/evidence.py)."""

import dataclasses
import os
import tempfile

import nbformat
import numpy as np
import pytest

from autograder.grader.sandbox import evidence


def test_files_at_least_finds_big_files_in_the_folder_and_held_open_after_unlinking(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "big").write_bytes(b"x" * 100)
    (tmp_path / "small").write_bytes(b"x" * 10)
    os.symlink("/proc/self/exe", tmp_path / "link")  # never followed
    st = (tmp_path / "a" / "big").stat()
    assert evidence.files_at_least(tmp_path, 50) == {(st.st_dev, st.st_ino, st.st_mtime_ns)}
    me = [os.getpid()]  # this process: other threads of it (a test worker's) may hold files of their own

    def identity(st) -> tuple:
        return (st.st_dev, st.st_ino, st.st_mtime_ns)

    with tempfile.TemporaryFile(dir=tmp_path) as held:  # unlinked at once, still open
        held.truncate(12345)
        assert len(evidence.files_at_least(tmp_path, 1000)) == 0, "not a file in the folder"
        assert identity(os.fstat(held.fileno())) in evidence.files_at_least(tmp_path, 1000, me)
    outside = tmp_path.parent / (tmp_path.name + "-outside")
    outside.mkdir(exist_ok=True)
    (outside / "library.so").write_bytes(b"x" * 2000)
    library = identity((outside / "library.so").stat())
    with open(outside / "library.so", "rb") as read_only:  # a large file opened to read is no write
        assert library not in evidence.files_at_least(tmp_path, 1000, me), read_only
        with open(outside / "library.so", "r+b"):
            assert library in evidence.files_at_least(tmp_path, 1000, me)
    os.utime(tmp_path / "a" / "big", ns=(0, 12))  # written again: a new trace
    assert evidence.files_at_least(tmp_path, 50) == {(st.st_dev, st.st_ino, 12)}


def test_address_space_peak_reads_vmpeak_and_grows_with_a_mapping():
    def size_now() -> int:  # VmSize: VmPeak is at least it, and a peak reached earlier may be higher
        line = next(x for x in open("/proc/self/status") if x.startswith("VmSize:"))
        return int(line.split()[1]) * 1024

    before = size_now()
    assert evidence.address_space_peak([os.getpid()]) >= before > 0
    held = np.empty(before // 2, np.uint8)  # half as much again, never touched: the size grows by that
    assert evidence.address_space_peak([os.getpid()]) >= before + before // 2 - 2**20
    del held
    assert evidence.address_space_peak([2**31 - 1]) == 0, "a pid that is not there reads as 0"


@pytest.mark.slow
def test_a_raised_memory_error_or_efbig_is_wrong_and_a_reached_cap_is_a_limit():
    from autograder.grader.core.settings import Limits, Settings
    from autograder.grader.notebook.grade import grade_notebook
    from autograder.common.notebooks import fill_answers
    from conftest import ROOT, grading_lesson, source_nb, student_nb

    lesson = "01_number_formats"
    # lesson 01's checks run in this order: format_table's, bf16_round's, sequential_sum's, pairwise_sum's
    answers = {
        # the caps' exceptions, raised by the student's own code before any cap was reached
        "format_table": 'def format_table():\n    """Forges."""\n'
        '    raise MemoryError("Unable to allocate 128. GiB")\n',
        "bf16_round": 'def bf16_round(x):\n    """Forges."""\n    import errno\n'
        '    raise OSError(errno.EFBIG, "File too large")\n',
        # the address-space cap reached: address space taken until RLIMIT_AS refuses more
        "sequential_sum": 'def sequential_sum(values, dtype):\n    """Grows."""\n    import numpy as np\n'
        "    held = []\n    while True:\n        held.append(np.empty(2**25))\n",
        # a write past RLIMIT_FSIZE: the file stops at the cap and the write fails with EFBIG
        "pairwise_sum": 'def pairwise_sum(values, dtype):\n    """Writes."""\n    import os\n'
        '    with open(os.path.join(os.environ["HOME"], "big"), "wb") as f:\n'
        '        f.write(b"x" * (2 * 2**20))\n',
    }
    nb = nbformat.writes(fill_answers(student_nb(lesson), source_nb(lesson), answers)).encode()
    settings = Settings(jobs=1, emulation="none", seed=3, diagnose=False, cell_timeout=20, notebook_timeout=200)
    settings = dataclasses.replace(settings, limits=Limits(file_bytes=2**20))
    r = grade_notebook("capped", grading_lesson(lesson, mistakes=False), nb, settings, ROOT)
    outcome = {t.grade_id: t.outcome for t in r.tests}
    error = {t.grade_id: t.error for t in r.tests}
    print(r.status, r.detail, outcome, error, sep="\n")
    assert outcome["test_format_table_visible"] == outcome["test_format_table_hidden"] == "wrong"
    assert outcome["test_bf16_round_visible"] == outcome["test_bf16_round_hidden"] == "wrong"
    assert error["test_format_table_visible"].startswith("MemoryError: Unable to allocate")
    assert error["test_bf16_round_visible"].startswith("OSError")
    assert outcome["test_sequential_sum_visible"] == "limit reached" and "memory limit reached" in r.detail
    assert outcome["test_pairwise_sum_visible"] == "limit reached" and "file size limit reached" in r.detail
    # a second refusal at the same peak leaves no new trace: once seen, the cap's exception is the cap's
    assert outcome["test_sequential_sum_hidden"] == outcome["test_pairwise_sum_hidden"] == "limit reached"
    assert r.score == 0


def test_a_link_rename_or_symlink_of_a_file_already_seen_at_the_cap_is_no_new_trace(tmp_path):
    # red team of 11d81c0: a file written to the cap in one answer's test, then hard-linked, renamed
    # and symlinked in another's before a raise OSError(EFBIG); graded, that raise stays "wrong"
    (tmp_path / "big").write_bytes(b"x" * 100)
    seen = evidence.files_at_least(tmp_path, 50)
    os.link(tmp_path / "big", tmp_path / "hard")
    os.symlink(tmp_path / "big", tmp_path / "sym")
    (tmp_path / "sub").mkdir()
    os.rename(tmp_path / "big", tmp_path / "sub" / "moved")
    os.symlink(tmp_path, tmp_path / "sub" / "loop")  # a loop back to the top: never followed
    assert evidence.files_at_least(tmp_path, 50) == seen


@pytest.mark.slow
def test_a_large_library_held_open_to_read_is_no_trace_of_the_file_size_cap():
    """Red team: jaxlib's library (hundreds of MiB, past a 1 MiB cap) opened read-only, then
    OSError(EFBIG) raised: no byte was written, so the check is wrong, not a limit."""
    from autograder.grader.core.settings import Limits, Settings
    from autograder.grader.notebook.grade import grade_notebook
    from autograder.common.notebooks import fill_answers
    from conftest import ROOT, grading_lesson, source_nb, student_nb

    lesson = "01_number_formats"
    held = (
        "_HELD = []\n"
        'def sequential_sum(values, dtype):\n    """Holds."""\n    import os, errno\n'
        "    sites = os.environ['COURSE_SITE_PATHS'].split(os.pathsep)\n"  # (jax.__file__ is refused in answers)
        "    folder = next(os.path.join(p, 'jaxlib') for p in sites if os.path.isdir(os.path.join(p, 'jaxlib')))\n"
        "    big = max((os.path.join(folder, n) for n in os.listdir(folder)), key=os.path.getsize)\n"
        "    _HELD.append(open(big, 'rb'))\n"
        "    raise OSError(errno.EFBIG, 'File too large')\n"
    )
    nb = nbformat.writes(fill_answers(student_nb(lesson), source_nb(lesson), {"sequential_sum": held})).encode()
    settings = Settings(jobs=1, emulation="none", seed=3, diagnose=False, cell_timeout=20, notebook_timeout=200)
    settings = dataclasses.replace(settings, limits=Limits(file_bytes=2**20))
    r = grade_notebook("reader", grading_lesson(lesson, mistakes=False), nb, settings, ROOT)
    outcome = {t.grade_id: t.outcome for t in r.tests}
    print(r.detail, outcome)
    assert outcome["test_sequential_sum_visible"] == outcome["test_sequential_sum_hidden"] == "wrong"
    assert "file size limit" not in r.detail
