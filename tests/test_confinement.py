"""What a submission's processes can reach outside the sandbox (issue 42, items 2, 3 and 5).

- No site hook runs in anything the student's process starts: the launcher (the grader's user,
  outside every layer) and the student's Python start with ``-I -S``; a ``.pth`` file planted in
  the interpreter's real site-packages is never executed, with bubblewrap or without.
- The checker writes nowhere but its job folder (guard.py's confinement, an audit hook installed
  before its first line of lesson code).
- Under the fallback (no bubblewrap), Landlock grants only the device files a process needs, never
  /dev/shm nor other processes' /proc; the checker and the student get an allowlisted environment.
- Under the fallback no student code runs as root or with a capability (a root grader switches it
  to uid 65534: launcher.py), no device file can be made in the work folder, and of /etc only the
  files Python and JAX read are readable (issue 50).
"""

import os
import subprocess
import sys
import sysconfig
import uuid
from pathlib import Path

import pytest

from autograder.grader.sandbox import launch as sandbox
from autograder.grader.checker.remote import Budget, Student
from autograder.grader.core.settings import Limits
from conftest import ROOT

pytestmark = pytest.mark.slow


def start_student(tmp_path: Path, cells: list, fallback: bool, monkeypatch, names=()) -> Student:
    """A student process as a checker starts one, ready (its definitions run)."""
    if fallback:
        monkeypatch.setattr(sandbox, "bwrap_works", lambda: "forced off by the test")
    work = tmp_path / "work"
    (work / "tmp").mkdir(parents=True, exist_ok=True)
    init = {"op": "init", "prelude": [], "cells": cells, "names": []}
    budget = Budget(120, 60)
    budget.start_cell()
    student = Student(lambda: sandbox.prepare(tmp_path, work, Limits(), ROOT, "none"), init, budget, 1)
    student.contract = list(names)
    student.start()
    student.wait_ready()
    assert student.launch.namespaced is not fallback
    return student


@pytest.mark.parametrize("fallback", [False, True], ids=["bubblewrap", "fallback"])
def test_a_pth_file_in_site_packages_runs_in_no_process_of_the_students(tmp_path, monkeypatch, fallback):
    """A ``.pth`` file in the site-packages folder of the grader's own interpreter (where a checker
    tricked into writing one put it, issue 42): today's launcher and student Python run with
    ``-I -S`` and never execute it, and the student's code still imports JAX from site-packages.
    The same file run by a plain ``python -I`` proves it would have run."""
    marker = tmp_path / "pth-ran"
    home = str(tmp_path / "work")
    write = f"open({str(marker)!r}, 'a').write(' '.join(sys.argv))"
    code = f"try:\n if os.environ.get('HOME') == {home!r}:\n  {write}\nexcept Exception:\n pass"
    pth = Path(sysconfig.get_paths()["purelib"]) / f"zz_course_test_{uuid.uuid4().hex}.pth"
    pth.write_text(f"import os, sys; exec({code!r})\n")  # only a process with this test's HOME writes
    try:
        subprocess.run([sys.executable, "-I", "-c", "pass"], env={"HOME": home}, check=True)
        assert marker.exists(), "the planted file runs in a plain python -I"
        marker.unlink()
        cells = [["jax", "import jax, jax.numpy as jnp\nDOT = float(jnp.dot(jnp.ones(3), jnp.ones(3)))"]]
        student = start_student(tmp_path, cells, fallback, monkeypatch)
        errors, log = student.definition_errors, list(student.log)
        student.stop()
    finally:
        pth.unlink()
    print(errors, log[-5:])
    assert not marker.exists(), marker.read_text()
    assert errors == [], "JAX imports from site-packages in a Python started with -S"


WRITES_OUTSIDE = """
import os, tempfile
_outside = {outside!r}
_refused = []
for _write in (
    lambda: open(os.path.join(_outside, "written"), "w"),
    lambda: os.open(os.path.join(_outside, "opened"), os.O_WRONLY | os.O_CREAT),
    lambda: os.mkdir(os.path.join(_outside, "made")),
    lambda: os.symlink("/etc", os.path.join(_outside, "link")),
    lambda: os.rename(os.path.join(_outside, "kept"), os.path.join(_outside, "moved")),
    lambda: os.utime(os.path.join(_outside, "kept")),
    lambda: os.chmod(os.path.join(_outside, "kept"), 0o777),
    lambda: os.remove(os.path.join(_outside, "kept")),
):
    try:
        _write()
    except PermissionError:
        _refused.append(True)
assert len(_refused) == 8, f"the checker wrote outside its job folder: {{8 - len(_refused)}} of 8"
assert not [_k for _k, _v in os.environ.items() if "hunter2" in _v], "the grader's secret reached the checker"
_inside = tempfile.mkdtemp()  # the checker's own temporary folder, in its job folder: writable
with open(os.path.join(_inside, "mine"), "w") as _f:
    _f.write("ok")
os.rename(os.path.join(_inside, "mine"), os.path.join(_inside, "still mine"))
"""


def test_the_checker_writes_nowhere_but_its_job_folder(tmp_path, monkeypatch):
    """A hidden test's code in the checker (the instructor's, running with stand-ins for the
    student's functions) that opens, makes, links, renames, touches, chmods or removes anything
    outside the notebook's job folder gets PermissionError for each (guard.confine, installed before
    the checker's first line); its own temporary folder stays writable, its environment holds none
    of the grader's secrets (spawn.checker_env's allowlist), and the solved notebook keeps every
    point (13/13; on the old code the eight writes went through: 11/13)."""
    monkeypatch.setenv("GRADER_API_TOKEN", "hunter2-secret")
    import nbformat

    from autograder.grader import Settings
    from autograder.grader.notebook.grade import Lesson, grade_notebook
    from autograder.common.notebooks import fill_answers
    from conftest import source_nb, student_nb

    lesson = "01_number_formats"
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "kept").write_text("the grader's")
    source = source_nb(lesson)
    cell = next(c for c in source.cells if "### END HIDDEN TESTS" in c.source)
    attempt = WRITES_OUTSIDE.format(outside=str(outside))
    cell.source = cell.source.replace("### END HIDDEN TESTS", attempt + "### END HIDDEN TESTS")
    committed = (ROOT / "notebooks" / lesson / f"{lesson}.ipynb").read_text()
    the_lesson = Lesson(lesson, nbformat.writes(source), committed, committed, "")
    solved = fill_answers(student_nb(lesson), source_nb(lesson))
    r = grade_notebook("ada", the_lesson, nbformat.writes(solved).encode(), Settings(jobs=1, seed=1), ROOT)
    print(r.status, r.score, [(t.grade_id, t.message[:200]) for t in r.tests if t.score < t.max_score])
    assert sorted(p.name for p in outside.iterdir()) == ["kept"] and (outside / "kept").read_text() == "the grader's"
    assert (r.status, r.score, r.max_score) == ("ok", 13.0, 13.0)


PROBE = """
import os


def probe(secret_pid):
    import jax.numpy as jnp

    out = {"dot": float(jnp.dot(jnp.ones(4), jnp.ones(4))), "env": dict(os.environ)}
    for name, path in [("own status", "/proc/self/status"), ("cpuinfo", "/proc/cpuinfo"),
                       ("grader environ", f"/proc/{secret_pid}/environ"), ("init cmdline", "/proc/1/cmdline")]:
        try:
            with open(path, "rb") as f:
                out[name] = f.read().decode("latin-1")
        except OSError as exc:
            out[name] = type(exc).__name__
    try:
        os.listdir("/dev/shm")
        out["list shm"] = "listed"
    except OSError as exc:
        out["list shm"] = type(exc).__name__
    for name in ("shm", "random"):
        path = {"shm": SHM, "random": "/dev/urandom"}[name]
        try:
            with open(path, "r+b") as f:
                f.write(bytes(8))
            out["zero " + name] = "written"
        except OSError as exc:
            out["zero " + name] = type(exc).__name__
    with open("/dev/null", "w") as f:
        f.write("fine")
    return out
"""


def test_the_fallback_grants_only_device_files_and_its_own_proc(tmp_path, monkeypatch):
    """Bubblewrap unavailable: Landlock is the only file layer. The student's process imports JAX
    and computes, reads its own /proc entry and /proc/cpuinfo, writes /dev/null and /dev/urandom;
    it cannot list /dev/shm, nor zero a file there (the grading pool's semaphores live there: zeroing
    them hung a class run), nor read another process's /proc entry (the grader's environ, with a
    secret in it); its environment has no secret of the grader's (issue 42)."""
    from autograder.grader.sandbox.landlock import landlock_abi

    if not landlock_abi():
        pytest.skip("no Landlock in this kernel: the fallback has no file layer to test")
    shm = Path("/dev/shm") / f"sem.course-test-{uuid.uuid4().hex}"
    shm.write_bytes(b"semaphore")
    monkeypatch.setenv("GRADER_API_TOKEN", "hunter2-secret")
    try:
        cells = [["probe", PROBE.replace("SHM", repr(str(shm)))]]
        student = start_student(tmp_path, cells, True, monkeypatch, names=["probe"])
        ctx = {"cwd": str(tmp_path / "work"), "env": {}, "precision": None, "bind": {}}
        out, _ = student.call("probe", (os.getpid(),), {}, ctx)
        student.stop()
        kept = shm.read_bytes()
    finally:
        shm.unlink()
    print({k: v[:80] if isinstance(v, str) else v for k, v in out.items() if k != "env"}, sorted(out["env"]))
    assert out["dot"] == 4.0 and "Pid:" in out["own status"] and "processor" in out["cpuinfo"]
    assert out["zero random"] == "written" and kept == b"semaphore"
    assert out["zero shm"] == "PermissionError" and out["list shm"] == "PermissionError"
    assert out["grader environ"] == "PermissionError" and out["init cmdline"] == "PermissionError"
    assert not any("hunter2" in str(v) for v in out["env"].values())


OWN_MEMORY = """
import os


def probe():
    out = {}
    for mode in ("rb", "r+b", "wb"):
        try:
            with open("/proc/self/mem", mode):
                out[mode] = "opened"
        except OSError as exc:
            out[mode] = type(exc).__name__
    for name in ("status", "maps"):
        with open(f"/proc/self/{name}", "rb") as f:
            out[name] = len(f.read())
    return out
"""


@pytest.mark.parametrize("fallback", [False, True], ids=["bubblewrap", "fallback"])
def test_the_students_process_cannot_write_its_own_memory_through_proc(tmp_path, monkeypatch, fallback):
    """Issue 65: the TPU emulation lives in the student's process, so a write to its own memory
    through /proc/self/mem (a path built at run time, addresses from a default repr) could undo it
    between two probes. Landlock grants the process's own /proc entry read-only: it reads its
    status and maps, and opening /proc/self/mem for writing is refused under both sandboxes (on the
    old rule, read-write, it opened)."""
    from autograder.grader.sandbox.landlock import landlock_abi

    if not landlock_abi():
        pytest.skip("no Landlock in this kernel")
    student = start_student(tmp_path, [["probe", OWN_MEMORY]], fallback, monkeypatch, names=["probe"])
    ctx = {"cwd": str(tmp_path / "work"), "env": {}, "precision": None, "bind": {}}
    out, _ = student.call("probe", (), {}, ctx)
    student.stop()
    print(out)
    assert out["status"] > 0 and out["maps"] > 0
    assert out["r+b"] == "PermissionError" and out["wb"] == "PermissionError"


def test_the_checkers_environment_is_an_allowlist(tmp_path, monkeypatch):
    """Of the worker's environment the checker keeps the locale, PATH and the accelerator's
    variables (JAX_, XLA_, TPU_, CUDA_...), never anything else (a token, a cloud key)."""
    from autograder.grader.checker import spawn

    monkeypatch.setenv("GRADER_API_TOKEN", "hunter2-secret")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "hunter2-key")
    monkeypatch.setenv("JAX_PLATFORMS", "cpu")
    monkeypatch.setenv("JAX_COMPILATION_CACHE_DIR", str(tmp_path / "cache"))
    env = spawn.checker_env(tmp_path / "job" / "checker", "none")
    assert not [k for k, v in env.items() if "hunter2" in v]
    assert env["JAX_PLATFORMS"] == "cpu" and "JAX_COMPILATION_CACHE_DIR" not in env
    assert env[spawn.JOB_FOLDER_ENV] == str(tmp_path / "job") and env["PATH"] == os.environ["PATH"]


ESCAPER = '''
import json, os, sys, time
from pathlib import Path
from autograder.gradescope import run
from autograder.grader.core.model import Result

pidfile, results = Path(sys.argv[1]), Path(os.environ["COURSE_GRADESCOPE_ROOT"]) / "results" / "results.json"


class Lesson:
    def max_score(self):
        return 13.0


def grade(student, data, submission, settings, source):
    """Grading during which a process escapes every sandbox (as the launcher's .pth did, issue 42):
    a double fork and setsid, then, 2 s later, a results.json of full marks."""
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):  # a daemon's: run_autograder's caller does not wait for it
                os.dup2(null, fd)
            # whole or not at all: the grading below waits for the file, then ends (and kills this)
            pidfile.with_suffix(".part").write_text(str(os.getpid()))
            os.replace(pidfile.with_suffix(".part"), pidfile)
            time.sleep(2)
            results.write_text(json.dumps({"score": 13.0, "output": "rewritten", "tests": []}))
            os._exit(0)
        os._exit(0)
    os.wait()
    while not pidfile.exists():
        time.sleep(0.01)
    return Result(student, "01_number_formats", 0.0, 13.0, "ok")


run.canary.process_canary = lambda settings, source: None
run.canary.solution_canary = lambda data, settings, source: None
run.load_lessons = lambda source, lessons, db: {lessons[0]: Lesson()}
run.find_notebook = lambda submission, lesson: (Path(sys.argv[0]), "")
run.grade_notebook = grade
sys.exit(run.main([]))
'''


def test_no_process_a_submission_started_runs_after_results_json_is_written(tmp_path):
    """Gradescope: a process started during grading that escaped every sandbox (double fork,
    setsid) and would rewrite results.json with full marks 2 s later is dead when gradescope/run.py returns
    (it is the subreaper of everything grading starts and kills it all before writing); 3 s later
    results.json is still the trusted grade. On the old code the daemon outlived gradescope/run.py."""
    import dataclasses
    import json
    import time

    from autograder.grader import Settings

    root, source = tmp_path / "autograder", tmp_path / "autograder" / "source"
    for folder in (source, root / "submission", root / "results"):
        folder.mkdir(parents=True)
    config = {"lesson": "01_number_formats", "hidden_visibility": "visible"}
    (source / "gradescope.json").write_text(json.dumps({**config, "settings": dataclasses.asdict(Settings())}))
    (source / "escape.py").write_text(ESCAPER)
    pidfile = tmp_path / "daemon.pid"
    env = {**os.environ, "COURSE_GRADESCOPE_ROOT": str(root), "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, str(source / "escape.py"), str(pidfile)], cwd=source, env=env, capture_output=True, text=True
    )
    print(proc.stdout[-2000:], proc.stderr[-2000:])
    assert proc.returncode == 0
    graded = (root / "results" / "results.json").read_text()
    daemon = int(pidfile.read_text())
    alive = (
        os.path.exists(f"/proc/{daemon}") and open(f"/proc/{daemon}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"
    )
    assert not alive, "a process the submission started outlived gradescope/run.py"
    time.sleep(3)  # past the daemon's 2 s: had it lived, it would have written by now
    assert (root / "results" / "results.json").read_text() == graded
    assert json.loads(graded)["score"] == 0.0


ZEROES_SHM = '''def bf16_round(x):
    """Zeroes every file in /dev/shm it can reach (the grading pool's semaphores), then answers."""
    import os

    for _ in range(20):
        try:
            names = os.listdir("/dev/shm")
        except OSError:
            names = [f"sem.mp-{i}" for i in range(4)]
        for name in names:
            try:
                with open(os.path.join("/dev/shm", name), "r+b") as f:
                    f.write(bytes(os.fstat(f.fileno()).st_size))
            except OSError:
                pass
    raise NotImplementedError()
'''


@pytest.mark.compat  # make compat (CI): a class run in the fallback sandbox
def test_a_fallback_class_run_with_a_student_zeroing_dev_shm_grades_the_classmates(tmp_path):
    """Bubblewrap unavailable (a bwrap that cannot make namespaces first on PATH): a class of three
    graded with two workers, one student's function zeroing every file of /dev/shm (where the pool
    keeps its semaphores) at each call; the run finishes and the classmates keep 13/13 (on the old
    code Landlock granted all of /dev: the run hung)."""
    import csv

    import nbformat

    from autograder.common.notebooks import fill_answers
    from conftest import source_nb, student_nb
    from gradescope_harness import fake_bwrap

    lesson = "01_number_formats"
    subs = tmp_path / "subs"
    for who in ("ada", "bob", "mallory"):
        (subs / who).mkdir(parents=True)
        answers = {"bf16_round": ZEROES_SHM} if who == "mallory" else {}
        nb = fill_answers(student_nb(lesson), source_nb(lesson), answers)
        (subs / who / f"{lesson}.ipynb").write_text(nbformat.writes(nb))
    fake = fake_bwrap(tmp_path / "no-userns", probe_passes=False)
    env = {**os.environ, "PATH": f"{fake}:{os.environ['PATH']}"}
    out = tmp_path / "out"
    proc = subprocess.run(
        [sys.executable, "-m", "autograder", "grade", str(subs), "--out", str(out), "--jobs", "2"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=600,
    )
    print(proc.stdout[-1500:], proc.stderr[-1500:])
    assert proc.returncode == 0 and "WITHOUT namespaces" in proc.stdout + proc.stderr
    rows = {r["student"]: r for r in csv.DictReader(open(out / "grades.csv"))}
    assert [(rows[s]["score"], rows[s]["status"]) for s in ("ada", "bob")] == [("13", "ok"), ("13", "ok")]


AS_ROOT_WOULD = """
import os, stat


def probe(disk):
    out = {"ids": [list(os.getresuid()), list(os.getresgid()), os.getgroups()]}
    with open("/proc/self/status") as f:
        out["status"] = {k: v.strip() for k, _, v in (line.partition(":") for line in f)}
    home = os.environ["HOME"]
    for kind, mode, device in (("kmsg", stat.S_IFCHR, os.makedev(1, 11)), ("disk", stat.S_IFBLK, disk)):
        try:
            os.mknod(os.path.join(home, kind), mode | 0o600, device)
            out[kind] = "made"
        except OSError as exc:
            out[kind] = type(exc).__name__
    for path in ("/etc/passwd", "/etc/shadow", "/etc/hostname", "/etc/hosts", "/etc/ld.so.cache"):
        try:
            with open(path, "rb") as f:
                f.read(1)
            out[path] = "read"
        except OSError as exc:
            out[path] = type(exc).__name__
    with open(os.path.join(home, "written"), "w") as f:  # its work folder stays its own
        f.write("mine")
    import jax.numpy as jnp

    out["dot"] = float(jnp.dot(jnp.ones(3), jnp.ones(3)))
    return out
"""


def test_the_fallback_runs_no_student_code_with_privileges_and_makes_no_device(tmp_path, monkeypatch):
    """Issue 50 (3): under the fallback the student's process runs as the grader's user; on
    Gradescope that is root with every capability, and a student made a character device for the
    host's kernel log (and a block device for its disk) in its work folder. Now: never uid 0 (root
    graders switch it to uid and gid 65534, bubblewrap's), no capability in any set, no_new_privs,
    no supplementary group; os.mknod of a character or a block device refused (Landlock grants
    MAKE_CHAR and MAKE_BLOCK nowhere), nothing made; the work folder still its own to write, JAX
    still computes. On the old code, as root: uid 0, every capability, both devices made."""
    disk = os.stat(tmp_path).st_dev  # the disk that holds its work folder
    student = start_student(tmp_path, [["probe", AS_ROOT_WOULD]], True, monkeypatch, names=["probe"])
    try:
        ctx = {"cwd": str(tmp_path / "work"), "env": {}, "precision": None, "bind": {}}
        out, _ = student.call("probe", (disk,), {}, ctx)
    finally:
        student.stop()
    status = out.pop("status")
    print(out, {k: v for k, v in status.items() if k.startswith(("Cap", "NoNew", "Uid", "Gid", "Groups"))})
    expected = 65534 if os.geteuid() == 0 else os.geteuid()
    assert out["ids"][0] == [expected] * 3 and 0 not in out["ids"][0] + out["ids"][1], out["ids"]
    if os.geteuid() == 0:
        assert out["ids"] == [[65534] * 3, [65534] * 3, []]
    assert all(int(status[k], 16) == 0 for k in ("CapInh", "CapPrm", "CapEff", "CapAmb")), status
    assert status["NoNewPrivs"] == "1"
    assert (out["kmsg"], out["disk"]) == ("PermissionError", "PermissionError")
    assert not {"kmsg", "disk"} & {p.name for p in (tmp_path / "work").iterdir()}, "no device file made"
    assert (tmp_path / "work" / "written").read_text() == "mine" and out["dot"] == 3.0


def test_the_fallback_shows_the_student_only_the_etc_files_python_and_jax_read(tmp_path, monkeypatch):
    """Issue 50 (3): Landlock's read rules once granted all of /etc under the fallback (as root:
    /etc/shadow too). Now only landlock.ETC_FILES (the loader's cache, the time zone, fonts...),
    the files bubblewrap shows: /etc/passwd, /etc/shadow, /etc/hostname, /etc/hosts are refused,
    /etc/ld.so.cache is read, and JAX computes. On the old code every one of them was read."""
    from autograder.grader.sandbox.landlock import landlock_abi

    if not landlock_abi():
        pytest.skip("no Landlock in this kernel: the fallback has no file layer to test")
    student = start_student(tmp_path, [["probe", AS_ROOT_WOULD]], True, monkeypatch, names=["probe"])
    try:
        ctx = {"cwd": str(tmp_path / "work"), "env": {}, "precision": None, "bind": {}}
        out, _ = student.call("probe", (os.stat(tmp_path).st_dev,), {}, ctx)
    finally:
        student.stop()
    print({k: v for k, v in out.items() if k.startswith("/etc")})
    refused = {p: out[p] for p in ("/etc/passwd", "/etc/shadow", "/etc/hostname", "/etc/hosts") if os.path.exists(p)}
    assert refused and set(refused.values()) == {"PermissionError"}, refused
    assert out["/etc/ld.so.cache"] == "read" and out["dot"] == 3.0
