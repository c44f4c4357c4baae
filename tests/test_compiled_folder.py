"""The run's folder of compiled replays (autograder/grader/diagnosis/replay_folder.py): a checker finds
the programs an earlier checker of the class compiled, under a replay's own guard and memory cap;
what the folder holds is checked before it is loaded; it keeps its bound; the grading run makes it
private and removes it; and a grade hands it to the checker only where bubblewrap hides it from the
student (tests/test_replayed.py: a checker whose student is not namespaced stops instead)."""

import json
import os
import subprocess
import sys

import nbformat
import pytest

from autograder.grader.diagnosis import replay_folder, replay_cache
from autograder.grader.diagnosis.replay_folder import Folder, private
from autograder.common.mistakes import load
from autograder.common.notebooks import fill_answers
from conftest import ROOT, source_nb, student_nb

PROBE = r"""
import json, os, sys
import numpy as np
from autograder.grader.diagnosis import replay_cache
from autograder.grader.diagnosis.diagnose import Diagnoser
from autograder.grader.diagnosis.recording import Recorder, plain_copy

folder, work, out = sys.argv[1], sys.argv[2], sys.argv[3]
assert replay_cache.use(folder)
import jax.numpy as jnp
jnp.zeros(1).block_until_ready()  # JAX's CPU client and its threads, made by the lesson's setup in a
# checker: never first inside a replay, whose address-space cap can refuse a thread's stack
reference = "import jax.numpy as jnp\ndef f(x):\n    return jnp.floor(jnp.asarray(x) * 2.5)\n"
mistakes = [
    {"key": "00_l:f:ceil", "function": "f", "source": "def f(x):\n    return jnp.ceil(jnp.asarray(x) * 2.5)\n"},
    {"key": "00_l:f:writes", "function": "f",
     "source": f"def f(x):\n    open({out!r}, 'w').write('x')\n    return jnp.ceil(jnp.asarray(x) * 2.5)\n"},
]
d = Diagnoser([["reference", reference]], mistakes, work)
r = Recorder(d.functions(), work, work + "/inputs")
for shape in ((7, 13), (3, 29)):  # shapes nothing else in this process compiled
    x = np.linspace(-3, 3, shape[0] * shape[1], dtype=np.float32).reshape(shape)
    call = r.before("f", (x,), {}, None)
    args = plain_copy((x,))
    r.returned("f", call, np.ceil(x * np.float32(2.5)), args)
named = d.diagnose(r.calls, 60.0)
cache, _ = replay_cache.install()
print(json.dumps({"named": named, "misses": cache.misses, "found": cache.found, "wrote": os.path.exists(out),
                  "files": len(os.listdir(folder))}))
"""


def probe(folder, tmp_path):
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "JAX_PLATFORMS": "cpu", "TMPDIR": str(tmp_path)}
    args = [sys.executable, "-c", PROBE, str(folder), str(work), str(tmp_path / "out.txt")]
    done = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_checker_finds_the_programs_an_earlier_checker_compiled(tmp_path):
    """Two checkers (processes) diagnose the same calls: the first compiles the replays' programs
    and leaves them in the folder, the second finds every one it looks for there (under the
    replay's audit hook and memory cap, as in grading: a read that allocated the folder's whole
    bound failed on the cap and was never found) and names the same mistake. The hook is not
    weakened by the folder: a mistake's own write is still refused (it matches nothing)."""
    folder = tmp_path / "compiled"
    folder.mkdir(mode=0o700)
    first = probe(folder, tmp_path)
    print(first)
    assert first["named"] == ["00_l:f:ceil"] and not first["wrote"], first
    assert first["found"] == 0 and first["files"] >= 2, "the first checker compiled and left its programs"
    second = probe(folder, tmp_path)
    print(second)
    assert second["named"] == first["named"] and not second["wrote"], second
    assert second["found"] >= 2 and second["found"] == second["misses"], "every program was in the folder"
    assert second["files"] == first["files"], "nothing compiled again, nothing new written"


def test_what_the_folder_holds_is_checked_before_it_is_loaded(tmp_path):
    """A file is found by the hash of its key and holds the key again: one holding another key's
    program, one larger than what is ever written, and a symbolic link are not loaded."""
    folder = tmp_path / "compiled"
    folder.mkdir(mode=0o700)
    store = Folder(str(folder), limit=64 * 1024)  # a program of at most 1,024 bytes
    store.write("jit_a-123", b"program a")
    assert store.read("jit_a-123") == b"program a"
    assert store.read("jit_b-456") is None, "never written"
    os.replace(store._file("jit_a-123"), store._file("jit_b-456"))  # a's program under b's name
    assert store.read("jit_b-456") is None, "the key it holds is a's"
    with open(store._file("jit_c"), "wb") as f:
        f.write(b"jit_c\0" + b"x" * 1025)  # more than a program's cap: never written so
    assert store.read("jit_c") is None
    store.write("jit_c", b"y" * 1025)
    assert store.read("jit_c") is None, "too large to share: not written either"
    os.remove(store._file("jit_c"))
    (folder.parent / "elsewhere").write_bytes(b"jit_d\0planted")
    os.symlink(folder.parent / "elsewhere", store._file("jit_d"))
    assert store.read("jit_d") is None, "a link is not followed"
    os.mkfifo(store._file("jit_e"))  # a reader that waited on it would hang the checker
    assert store.read("jit_e") is None, "only a regular file is read"
    assert not list(folder.glob("*.part")), "no half-written file is left"


def _fill(path: str, first: int, n: int, limit: int) -> None:
    store = Folder(path, limit=limit)
    for i in range(first, first + n):
        store.write(f"k{i}", bytes(400))


def test_the_folder_keeps_its_bound(tmp_path):
    """Past COMPILED_FOLDER_BYTES (here 40,000 bytes) the oldest written go until three quarters
    are left; what is already there is counted (another checker's), and a program written once is
    not written again."""
    folder = tmp_path / "compiled"
    folder.mkdir(mode=0o700)
    _fill(str(folder), 0, 60, 40_000)  # 60 x 407 bytes by an earlier checker
    for i in range(60):
        os.utime(Folder(str(folder))._file(f"k{i}"), (1000 + i, 1000 + i))
    store = Folder(str(folder), limit=40_000)
    for i in range(60, 120):
        store.write(f"k{i}", bytes(400))
    programs = [p for p in folder.iterdir() if not p.name.startswith(".")]
    assert sum(p.stat().st_size for p in programs) <= 40_000
    assert store.read("k0") is None and store.read("k119") == bytes(400), "the oldest went first"
    before = os.stat(store._file("k119")).st_mtime_ns
    store.write("k119", bytes(400))
    assert os.stat(store._file("k119")).st_mtime_ns == before


FILL = (
    "import sys\nfrom autograder.grader.diagnosis.replay_folder import Folder\n"
    "store = Folder(sys.argv[1], limit=40_000)\n"
    "for i in range(int(sys.argv[2]), int(sys.argv[2]) + 85):\n    store.write(f'k{i}', bytes(400))\n"
)


def test_the_bound_holds_for_checkers_writing_at_once(tmp_path):
    """Red team: each checker counted the folder once and then only its own writes, so four
    checkers started together filled it to 3.5 times its bound. The count is the run's, kept
    under the lock every writer holds."""
    folder = tmp_path / "compiled"
    folder.mkdir(mode=0o700)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    writers = [
        subprocess.Popen([sys.executable, "-c", FILL, str(folder), str(1000 * w)], env=env, stderr=subprocess.PIPE)
        for w in range(4)
    ]
    errors = [p.communicate(timeout=120)[1][-500:] for p in writers]
    assert [p.returncode for p in writers] == [0, 0, 0, 0], errors
    programs = [p for p in folder.iterdir() if not p.name.startswith(".")]
    used = sum(p.stat().st_size for p in programs)
    print(f"{len(programs)} programs, {used} bytes")
    assert 30_000 - 407 <= used <= 40_000 and len(programs) >= 70
    assert int((folder / ".lock").read_text()) == used, "the ledger is what is there"


CAPPED = r"""
import os, resource, sys
from autograder.grader.diagnosis.diagnose import memory_capped
from autograder.grader.diagnosis.replay_folder import Folder

folder = sys.argv[1]
store = Folder(folder, limit=64 * 2**30)  # a cap of 1 GiB a program
big = bytes(64 * 2**20)
store.write("fits", b"small")
with memory_capped(extra=32 * 2**20):
    assert resource.getrlimit(resource.RLIMIT_AS)[0] != resource.RLIM_INFINITY, "the cap is on"
    try:
        bytes(48 * 2**20)
        raise SystemExit("premise: 48 MiB more fits under a 32 MiB cap")
    except MemoryError:
        pass
    store.write("big", big)  # key + value copied: past the cap
    read = [store.read("fits") for _ in range(3)]
print(int(os.path.exists(store._file("big"))), read == [b"small"] * 3)
"""


def test_a_read_or_write_past_the_replays_memory_cap_keeps_nothing_and_raises_nothing(tmp_path):
    """Red team: under a replay's memory cap a MemoryError escaped Folder.write (leaving its half
    file) and Folder.read; now each is a program not found or not kept. A fresh process: in a long
    one (a pytest worker) the heap may hold 64 MiB freed earlier, and the write then needs no new
    address space (CI: the big program was kept)."""
    folder = tmp_path / "compiled"
    folder.mkdir(mode=0o700)
    run = subprocess.run(
        [sys.executable, "-c", CAPPED, str(folder)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr[-2000:] + run.stdout[-500:]
    assert run.stdout.split() == ["0", "True"], "the big program is not kept; the small one is read"
    assert not list(folder.glob("*.part")), "no half file left"


def test_only_a_private_folder_of_this_user_is_used(tmp_path):
    shared = tmp_path / "open"
    shared.mkdir(mode=0o755)
    os.chmod(shared, 0o755)
    own = tmp_path / "own"
    own.mkdir(mode=0o700)
    os.symlink(own, tmp_path / "link")
    assert private(str(own)) and not private(str(shared)) and not private(str(tmp_path / "link"))
    assert not private(str(tmp_path / "missing")) and not private("")
    try:
        assert not replay_cache.use(str(shared)) and replay_cache._FOLDER[0] is None
        assert replay_cache.use(str(own)) and replay_cache._FOLDER[0].path == str(own)
    finally:
        replay_cache.use("")


def test_the_grading_run_makes_the_folder_private_and_removes_it():
    with replay_folder.run_folder(True) as path:
        assert path and private(path) and private(os.path.dirname(path))
    assert not os.path.exists(os.path.dirname(path)), "removed with its job folder"
    with replay_folder.run_folder(False) as none:
        assert none == ""


def test_a_grade_hands_the_folder_to_its_checker_only_under_bubblewrap(tmp_path, monkeypatch):
    """Graded for real (lesson 03, a known wrong answer): the worker's folder reaches the checker
    through its job, and the checker's replays leave their programs there; where the student's
    process has no namespaces (the fallback) the job names no folder and nothing is written."""
    from autograder.grader.diagnosis import replayed
    from autograder.grader.notebook.grade import Lesson, grade_notebook
    from autograder.grader.core.settings import Settings

    lesson = "03_int8_quantization"  # its replays compile programs of their own (lesson 01's reuse the test's)
    mistake = next(m for m in load(lesson) if m.id == "max-not-abs" and m.function == "quantize_per_tensor")
    nb = fill_answers(student_nb(lesson), source_nb(lesson), {mistake.function: mistake.source})
    committed = (ROOT / "notebooks" / lesson / f"{lesson}.ipynb").read_text()
    mistakes = (ROOT / "solutions" / lesson / "mistakes.py").read_text()
    the_lesson = Lesson(lesson, nbformat.writes(source_nb(lesson)), committed, committed, mistakes)
    folder = tmp_path / "compiled"
    folder.mkdir(mode=0o700)
    monkeypatch.setitem(replay_folder._WORKER, "path", "")
    monkeypatch.setitem(replay_folder._WORKER, "worker", False)
    replay_folder.adopt(str(folder))
    replayed.forget()
    try:
        r = grade_notebook("s1", the_lesson, nbformat.writes(nb).encode(), Settings(jobs=1, emulation="none"), ROOT)
    finally:
        replayed.forget()
    assert any(mistake.key in t.mistakes for t in r.tests), [(t.grade_id, t.mistakes) for t in r.tests]
    files = list(folder.iterdir())
    if replayed.shareable():
        assert files, "the checker's replays left their programs in the worker's folder"
        assert all(f.stat().st_mode & 0o077 == 0 for f in files), "each file is the grader's alone"
    else:
        assert files == [], "no folder is handed over without the sandbox's namespaces"


@pytest.mark.parametrize("mode", [0o755, 0o700])
def test_a_worker_makes_its_own_folder_where_the_runs_is_not_private(tmp_path, monkeypatch, mode):
    """A Dask worker (no pool initializer: ``adopt("")``) or a run's folder that is not private: the
    worker makes one of its own, private, once. A process that is no worker (the parent's canary
    grades the solution) names none (red team: it made one left until the parent's exit)."""
    given = tmp_path / "given"
    given.mkdir()
    os.chmod(given, mode)
    monkeypatch.setitem(replay_folder._WORKER, "path", "")
    monkeypatch.setitem(replay_folder._WORKER, "worker", False)
    made = []
    monkeypatch.setattr("atexit.register", lambda *a: None)  # the folder is the test's
    monkeypatch.setattr(replay_folder, "make_folder", lambda: made.append(1) or (tmp_path / "own"))
    (tmp_path / "own" / "compiled").mkdir(parents=True, mode=0o700)
    assert replay_folder.worker_folder() == "" and made == [], "no worker: no folder"
    replay_folder.adopt(str(given))
    got = replay_folder.worker_folder()
    assert replay_folder.worker_folder() == got
    replay_folder.adopt("")  # a Dask task's: the folder stays
    assert replay_folder.worker_folder() == got
    if mode == 0o700:
        assert got == str(given) and made == []
    else:
        assert got == str(tmp_path / "own" / "compiled") and made == [1]


def test_what_the_sandbox_binds_is_what_shown_lists(tmp_path):
    """The checker refuses a folder of compiled replays inside any folder the student's sandbox is
    shown (``Launch.shown``): on a real launch that is every bind source, resolved."""
    from autograder.grader.sandbox import launch as sandbox
    from autograder.grader.core.settings import Limits

    if sandbox.bwrap_works():
        pytest.skip("bubblewrap cannot run here: the fallback binds nothing (and shares no folder)")
    work, inputs = tmp_path / "work", tmp_path / "inputs"
    work.mkdir()
    inputs.mkdir()
    launch = sandbox.prepare(tmp_path, work, Limits(), ROOT, "none", inputs)
    try:
        shown = launch.shown()
        for folder in (work, work / "tmp", inputs, *sandbox.python_paths(ROOT)):
            assert os.path.realpath(folder) in shown, folder
        assert all(os.path.isabs(p) for p in shown)
    finally:
        if launch.cgroup is not None:
            launch.cgroup.remove()
