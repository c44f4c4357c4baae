"""What the sandbox bounds however the student's code behaves (issue 50: items 3 and 4, and the
sandbox's leftovers), under bubblewrap and under the fallback. The tests run as root here, as the
grader does in Gradescope's containers.

- The work folder is a file system of its own where the checker can make one (sandbox/workfs.py):
  a write past its cap fails at once inside the student's process (ENOSPC), bytes or files, however
  fast (posix_fallocate); the watch stays the second line.
- A fork-and-exit chain under the fallback without a cgroup ends with its notebook: the checker is
  the child subreaper of what the student leaves and kills every process of it (sandbox/reaper.py).
- The zygote and the checker start with ``-S``: a ``.pth`` file in site-packages never runs there.
- The fallback as root switches the student to uid 65534 and makes what it must reach reachable
  (lesson 04: folders to write in, traces to read; sandbox/owner.py), or, where the switch cannot
  be made, grades nothing (exit 2).
"""

import csv
import os
import shutil
import signal
import stat
import subprocess
import sys
import sysconfig
import time
import uuid
from pathlib import Path

import nbformat
import pytest

from autograder.grader import Settings
from autograder.grader.checker.spawn import stop_zygotes
from autograder.grader.core.settings import Limits
from autograder.grader.notebook.grade import Lesson, grade_notebook
from autograder.grader.sandbox import launch as sandbox, owner, workfs
from autograder.common.notebooks import fill_answers
from conftest import ROOT, source_nb, student_nb
from gradescope_harness import fake_bwrap

pytestmark = pytest.mark.slow
LESSON = "01_number_formats"
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="the grader runs as root only where the tests do")


def lesson(name: str = LESSON) -> Lesson:
    committed = (ROOT / "notebooks" / name / f"{name}.ipynb").read_text()
    return Lesson(name, nbformat.writes(source_nb(name)), committed, committed, "")


def graded(answers: dict, limits: Limits | None = None, name: str = LESSON):
    """A notebook of ``name`` (its solutions, but ``answers``), graded in this process as a worker."""
    nb = fill_answers(student_nb(name), source_nb(name), answers)
    settings = Settings(jobs=1, seed=1, limits=limits or Limits())
    return grade_notebook("ada", lesson(name), nbformat.writes(nb).encode(), settings, ROOT)


def forget_probes() -> None:
    sandbox.bwrap_works.cache_clear()
    workfs.available.cache_clear()


@pytest.fixture(params=["bubblewrap", "fallback"])
def mode(request, tmp_path, monkeypatch):
    """The in-process grading's sandbox: bubblewrap, or none (a bwrap that cannot make namespaces
    first on PATH, as in a container without user namespaces)."""
    if request.param == "fallback":
        fake = fake_bwrap(tmp_path / "no-userns", probe_passes=False)
        monkeypatch.setenv("PATH", f"{fake}:{os.environ['PATH']}")
    forget_probes()
    assert bool(sandbox.bwrap_works()) == (request.param == "fallback")
    yield request.param
    stop_zygotes()  # their PATH was this test's
    forget_probes()


FILLS = '''def bf16_round(x):
    """Past the work folder's cap in one call, at once (under the 1 GiB file-size cap)."""
    import errno, os
    fd = os.open("big", os.O_CREAT | os.O_WRONLY, 0o600)
    try:
        os.posix_fallocate(fd, 0, 512 * 2**20)
        seen = "allocated"
    except OSError as exc:
        seen = errno.errorcode[exc.errno]
    finally:
        os.close(fd)
        os.remove("big")
    raise RuntimeError(f"FALLOCATE={seen}")
'''
MANY = '''def format_table():
    """Past the work folder's count of files, then gone again."""
    import errno, os, shutil
    os.makedirs("many", exist_ok=True)
    seen, made = "none refused", 0
    try:
        for made in range(3000):
            open(f"many/{made}", "w").close()
    except OSError as exc:
        seen = errno.errorcode[exc.errno]
    shutil.rmtree("many")
    raise RuntimeError(f"FILES={seen} after {made}")
'''


def test_the_work_folder_is_a_hard_bound_in_bytes_and_files(mode):
    """The work folder's caps (here 64 MiB and 1,000 files) hold inside one call, at once: a
    posix_fallocate of 512 MiB (faster than any watch) fails with ENOSPC, and so does the ~1,070th
    file; neither touched the host's disk. Under bubblewrap and under the fallback. On the old code
    the 512 MiB were allocated on the host's disk and the 3,000 files made (the watch only looks
    twice a second)."""
    why = sandbox.work_folder_capped()
    if why:
        pytest.skip(f"no file system of its own for the work folder here: {why}")
    r = graded({"bf16_round": FILLS, "format_table": MANY}, Limits(work_bytes=64 * 2**20, work_files=1000))
    errors = {t.grade_id: t.error for t in r.tests}
    print(mode, r.status, r.detail, errors)
    assert "FALLOCATE=ENOSPC" in errors["test_bf16_round_visible"]
    files = errors["test_format_table_visible"]
    assert "FILES=ENOSPC" in files and 1000 <= int(files.split("after ")[1].split()[0]) < 1100, files
    others = [t for t in r.tests if not t.grade_id.startswith(("test_bf16_round", "test_format_table"))]
    assert others and all(t.score == t.max_score for t in others), "the other exercises keep their points"


@pytest.mark.compat  # make compat (CI): lesson 04 graded in the fallback sandbox
@as_root
def test_lesson_04_keeps_full_marks_under_the_fallback_as_root(monkeypatch, tmp_path):
    """Lesson 04's tests hand the student folders to write traces in (below GRADING_OUTPUT_ROOT,
    made by the checker, root's) and traces to read (in the checker's input folder, tempfile's
    0700 and 0600): under the fallback as root the student runs as uid 65534, and the grader hands
    each of them over before the call (owner.hand_over): the solution keeps every point."""
    fake = fake_bwrap(tmp_path / "no-userns", probe_passes=False)
    monkeypatch.setenv("PATH", f"{fake}:{os.environ['PATH']}")
    forget_probes()
    try:
        r = graded({}, name="04_xprof_profiling")
    finally:
        stop_zygotes()
        forget_probes()
    print(r.status, r.detail, [(t.grade_id, t.error[:300]) for t in r.tests if t.score < t.max_score])
    assert (r.status, r.score) == ("ok", r.max_score)


@as_root
def test_hand_over_gives_the_checkers_entries_never_through_a_link_or_a_second_name(tmp_path):
    """owner.hand_over (before each call, the fallback as root): in the work folder what the
    checker (root) made becomes uid 65534's, never the target of a symlink the student left, never
    a root file the student hard-linked in (it would gain the original), and also below a folder
    the student made (lesson 04's visible check makes an earlier run's folder in the student's own
    ``rel``: CI's fallback run lost that point); in the input folder the checker's 0700 folders and
    0600 files become readable, not writable, by group 65534."""
    work, inputs = tmp_path / "work", tmp_path / "inputs"
    (work / "tmp").mkdir(parents=True)
    inputs.mkdir()
    secret = tmp_path / "secret"
    secret.write_text("root's")
    os.chown(work, 65534, 65534)
    os.chown(work / "tmp", 65534, 65534)
    made = work / "tmp" / "made-by-checker"
    made.mkdir(mode=0o700)
    (made / "deeper").mkdir()
    os.symlink(secret, work / "tmp" / "link")
    os.link(secret, work / "tmp" / "hardlink")
    students = work / "tmp" / "rel"
    students.mkdir()
    os.chown(students, 65534, 65534)
    below = students / "again" / "plugins"
    below.mkdir(parents=True)
    trace = inputs / "trace"
    trace.mkdir(mode=0o700)
    (trace / "x.pb").write_text("data")
    os.chmod(trace / "x.pb", 0o600)
    owner.hand_over(work, inputs, 65534, 65534, 1000)
    assert (made.stat().st_uid, (made / "deeper").stat().st_uid) == (65534, 65534)
    assert (below.parent.stat().st_uid, below.stat().st_uid) == (65534, 65534)
    assert secret.stat().st_uid == 0 and (work / "tmp" / "hardlink").stat().st_uid == 0
    for path, mode in ((trace, 0o750), (trace / "x.pb", 0o640)):
        st = path.stat()
        assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (0, 65534, mode), path


def chain_processes(token: str) -> list[int]:
    """The live processes whose name (``/proc/<pid>/comm``) is ``token``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == token and "Z" not in (entry / "stat").read_text().split()[2]:
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def kill_chain(token: str) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and (pids := chain_processes(token)):
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.01)


CHAIN = '''def bf16_round(x):
    """A fork-and-exit chain in a session of its own: each link names itself, waits, forks its
    successor and exits, so no process of it is older than 50 ms."""
    import ctypes, os, time
    if os.fork() == 0:
        os.setsid()
        libc = ctypes.CDLL(None)
        while True:
            libc.prctl(15, TOKEN)
            time.sleep(0.05)
            if os.fork() != 0:
                os._exit(0)
    raise NotImplementedError()
'''


def no_cgroup(command: list[str]) -> list[str]:
    """``command`` where no cgroup can be made (an empty tmpfs over /sys/fs/cgroup, in a mount
    namespace of its own: a container whose cgroup file system is read-only, Gradescope's)."""
    if not shutil.which("unshare"):
        pytest.skip("no unshare(1) here")
    script = 'mount -t tmpfs none /sys/fs/cgroup && exec "$@"'
    return ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh", *command]


@pytest.mark.compat  # make compat (CI): a process-table attack in the fallback sandbox
@as_root
def test_a_fork_and_exit_chain_ends_with_its_notebook_under_the_fallback_without_a_cgroup(tmp_path):
    """A class run without namespaces and without a cgroup (a container's): mallory's function
    starts a fork-and-exit chain that calls setsid, so neither its process group nor its first
    process's death reaches it; when grade returns, and a second later, no link of it is alive
    (each checker is the subreaper of what its student leaves and kills all of it when it stops
    the student), and her classmate keeps 13/13. On the old code the chain outlived the run."""
    token = "chain-" + uuid.uuid4().hex[:8]
    subs = tmp_path / "subs"
    for who, answers in (("ada", {}), ("mallory", {"bf16_round": CHAIN.replace("TOKEN", repr(token.encode()))})):
        (subs / who).mkdir(parents=True)
        nb = fill_answers(student_nb(LESSON), source_nb(LESSON), answers)
        (subs / who / f"{LESSON}.ipynb").write_text(nbformat.writes(nb))
    fake = fake_bwrap(tmp_path / "no-userns", probe_passes=False)
    env = {**os.environ, "PATH": f"{fake}:{os.environ['PATH']}"}
    out = tmp_path / "out"
    command = [sys.executable, "-m", "autograder", "grade", str(subs), "--out", str(out), "--jobs", "2"]
    try:
        proc = subprocess.run(no_cgroup(command), capture_output=True, text=True, env=env, cwd=ROOT, timeout=900)
        left = chain_processes(token)
        time.sleep(1)
        left += chain_processes(token)
    finally:
        kill_chain(token)
    print(proc.stdout[-2000:], proc.stderr[-2000:])
    said = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "WITHOUT namespaces" in said and "no cgroup" in said
    assert left == [], f"{len(left)} links of the chain outlived the run"
    rows = {r["student"]: r for r in csv.DictReader(open(out / "grades.csv"))}
    assert (rows["ada"]["score"], rows["ada"]["status"]) == ("13", "ok")
    checks = {(r["student"], r["grade_id"]): float(r["score"]) for r in csv.DictReader(open(out / "tests.csv"))}
    assert checks[("mallory", "test_bf16_round_visible")] == 0 and checks[("mallory", "test_bf16_round_hidden")] == 0


@as_root
def test_grading_is_refused_where_the_student_cannot_be_switched_from_root(tmp_path):
    """The fallback as root, in a container that dropped CAP_SETUID and CAP_SETGID: the launcher
    cannot become uid 65534, so it runs no student code at all; the canary finds it, and grade
    exits 2 with one sentence that says so, having written no grade. On the old code the class was
    graded with every student's code running as root."""
    if not shutil.which("setpriv"):
        pytest.skip("no setpriv(1) here")
    subs, out = tmp_path / "subs", tmp_path / "out"
    (subs / "ada").mkdir(parents=True)
    shutil.copy(ROOT / "examples" / "submissions" / "ada" / f"{LESSON}.ipynb", subs / "ada")
    fake = fake_bwrap(tmp_path / "no-userns", probe_passes=False)
    env = {**os.environ, "PATH": f"{fake}:{os.environ['PATH']}"}
    command = ["setpriv", "--bounding-set", "-setuid,-setgid", "--inh-caps", "-setuid,-setgid", "--"]
    command += [sys.executable, "-m", "autograder", "grade", str(subs), "--out", str(out), "--jobs", "1"]
    proc = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error:")]
    print(proc.returncode, proc.stdout[-1000:], errors)
    assert proc.returncode == 2 and len(errors) == 1
    assert "refused to run the student's code" in errors[0] and "uid 65534" in errors[0]
    assert not (out / "grades.csv").exists() and not (out / "journal.jsonl").exists()


def test_no_pth_file_runs_in_the_zygote_or_the_checker(tmp_path, monkeypatch):
    """Issue 50's leftover: the zygote and every checker start with ``python -I -S`` (as the
    launcher and the student's Python do), their sys.path and prefixes handed over as plain data:
    a ``.pth`` file planted in the interpreter's own site-packages (where a checker tricked into
    writing one would put it, issue 42) never runs there, and the solution still gets 13/13. A
    plain ``python -I`` proves the file would run. On the old code the zygote ran it."""
    token = uuid.uuid4().hex
    marker = tmp_path / "pth-ran"
    monkeypatch.setenv("JAX_COURSE_PTH_TEST", token)  # kept in the checker's environment (JAX_...)
    write = f"open({str(marker)!r}, 'a').write(' '.join(sys.argv) + chr(10))"
    code = f"try:\n if os.environ.get('JAX_COURSE_PTH_TEST') == {token!r}:\n  {write}\nexcept Exception:\n pass"
    pth = Path(sysconfig.get_paths()["purelib"]) / f"zz_course_test_{token}.pth"
    pth.write_text(f"import os, sys; exec({code!r})\n")
    try:
        subprocess.run([sys.executable, "-I", "-c", "pass"], check=True)
        assert marker.exists(), "the planted file runs in a plain python -I"
        marker.unlink()
        stop_zygotes()  # a zygote of this environment starts afresh
        r = graded({})
    finally:
        pth.unlink()
        stop_zygotes()
    print(r.status, r.score, marker.read_text() if marker.exists() else "")
    assert not marker.exists()
    assert (r.status, r.score) == ("ok", 13.0)
