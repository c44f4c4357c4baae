"""The channel between the checker and a real sandboxed student process (autograder/grader/
remote.py, student_side.py, sandbox/launch.py): what a lent object lets the student's code do, and that
nothing of the student's runs between calls. A few seconds: one student process."""

import os
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import pytest

from autograder.grader.sandbox import cgroup, launch as sandbox
from autograder.grader.core.model import Happened, ProcessEvent
from autograder.grader.checker.remote import Budget, Student
from autograder.grader.checker.standins import StudentFunction
from autograder.grader.core.settings import Limits
from conftest import ROOT

pytestmark = pytest.mark.slow

CODE = '''
import os, threading, time
import jax  # as a lesson's setup does: the process notes compilations from here on
def walk(fn):
    """Everything the student's code tries on a callable the checker lent it."""
    found = []
    for attr in ("trace", "lower", "__globals__", "__call__", "__wrapped__", "_fun", "f_builtins",
                 "__class__", "block_until_ready"):
        try:
            value = getattr(fn, attr)
            found.append(attr)
        except Exception as exc:
            pass
    return found, float(fn(2.0))

def ask(fn):
    """What the student's code gets from a lent callable, or the exception it raised."""
    try:
        return len(fn())
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"

def pending(fn):
    import jax
    result = fn()
    jax.block_until_ready(result)
    return "blocked"

def start_ticker(path):
    def tick():
        n = 0
        while True:
            n += 1
            with open(path + ".new", "w") as f:
                f.write(str(n))
            os.replace(path + ".new", path)
            time.sleep(0.01)
    threading.Thread(target=tick, daemon=True).start()
    time.sleep(0.2)
    return True

def read(path):
    return open(path).read()

def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return True

def hog(children, mib, seconds):
    """Children that each hold ``mib`` MiB (under the per-process address-space cap) for a while."""
    pids = []
    for _ in range(children):
        pid = os.fork()
        if pid == 0:
            block = bytearray(mib * 2**20)
            block[:: 4096] = b"x" * len(block[:: 4096])
            time.sleep(seconds)
            os._exit(0)
        pids.append(pid)
    return sorted(os.waitpid(p, 0)[1] for p in pids)

HELD = []

def hold_unlinked(mib, files, mapped, seconds):
    """Files in the work folder, each ``mib`` MiB of real blocks, unlinked while held open (or, with
    ``mapped``, mapped and closed): no walk of the folder finds them."""
    import mmap
    for i in range(files):
        path = os.path.join(os.environ["HOME"], f"blob{i}")
        fd = os.open(path, os.O_CREAT | os.O_RDWR, 0o600)
        os.unlink(path)
        os.posix_fallocate(fd, 0, mib * 2**20)
        if mapped:
            HELD.append(mmap.mmap(fd, mib * 2**20))
            os.close(fd)
        else:
            HELD.append(fd)
    time.sleep(seconds)
    return len(HELD)

def compile_two(scale):
    """Two fresh jits (two XLA compilations), one of them called twice."""
    import jax, jax.numpy as jnp
    f = jax.jit(lambda a: a * scale)
    def named_step(a):
        return a + 1.0
    g = jax.jit(named_step)
    return float(f(jnp.ones(3))[0] + f(jnp.ones(3))[0] + g(jnp.ones(3))[0])

def memo_counts():
    """The hits and misses of the process's compile memo (sandbox/compile_memo.py), None without one."""
    from jax._src import compilation_cache as cc
    memo = cc._cache
    return None if memo is None else [memo.hits, memo.misses]

def spin(children, seconds):
    """Busy children: CPU the notebook graded next to this one would lose."""
    pids = []
    for _ in range(children):
        pid = os.fork()
        if pid == 0:
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                pass
            os._exit(0)
        pids.append(pid)
    t0, c0 = time.monotonic(), os.times()
    for p in pids:
        os.waitpid(p, 0)
    c1 = os.times()
    return (c1.children_user + c1.children_system - c0.children_user - c0.children_system) / (time.monotonic() - t0)
'''


@pytest.fixture
def student(tmp_path, request):
    limits = getattr(request, "param", Limits())
    work = tmp_path / "work"
    (work / "tmp").mkdir(parents=True)
    names = ["walk", "ask", "pending", "start_ticker", "read", "write", "hog", "spin", "compile_two", "hold_unlinked"]
    init = {"op": "init", "prelude": [], "cells": [["answer", CODE]], "names": names}
    budget = Budget(120, 60)
    budget.start_cell()
    s = Student(lambda: sandbox.prepare(tmp_path, work, limits, ROOT, "none"), init, budget, 1)
    s.contract = list(init["names"])
    s.start()
    s.wait_ready()
    ns = {}
    yield {name: StudentFunction(s, name, ns, dict(os.environ)) for name in s.defined}, s, work
    s.stop()


def test_a_lent_object_can_be_called_but_not_walked(student):
    fns, _, _ = student
    jitted = jax.jit(lambda v: v * 3.0)
    found, value = fns["walk"](jitted)
    print(found, value)
    assert value == 6.0
    # __call__ and __class__ are the student-side stand-in's own; nothing of the checker's object
    assert set(found) <= {"__call__", "__class__"}, found


def test_a_lent_callables_result_over_the_channels_cap_is_an_exception_in_the_students_code(student):
    """A result the student's code asked a lent callable for that is too large to send back (the
    channel's 16 MiB cap) raises there, as any failure of a lent callable does; the channel and the
    process go on (before, the checker's own write failed and the whole test failed with it)."""
    fns, _, _ = student
    got = fns["ask"](lambda: "x" * (17 * 2**20))
    print(got)
    assert got.startswith("ValueError: the result cannot be sent") and "cap" in got, got
    assert fns["ask"](lambda: "x" * 1000) == 1000


def test_a_lent_result_exposes_block_until_ready_only(student):
    fns, _, _ = student

    class Pending:
        waited = 0

        def block_until_ready(self):
            type(self).waited += 1
            return self

    assert fns["pending"](Pending) == "blocked"
    assert Pending.waited == 1
    assert fns["pending"](lambda: jnp.ones(3)) == "blocked"


def test_a_calls_compilations_are_re_recorded_for_the_test(student):
    """What a call compiled (JAX's monitoring in the student's process) reaches the test as
    compile events of the checker's own jax.monitoring, once per compilation, only for that call."""
    fns, s, work = student
    seen = []

    def listen(event, duration, **kwargs):
        if event == "/jax/core/compile/backend_compile_duration":
            seen.append((kwargs.get("fun_name"), duration))

    jax.monitoring.register_event_duration_secs_listener(listen)
    try:
        assert fns["compile_two"](2.0) == 6.0
        first = list(seen)
        assert fns["write"](str(work / "note"), "x") is True  # compiles nothing: re-records nothing
        after_read = list(seen)
    finally:
        jax.monitoring.unregister_event_duration_listener(listen)
    print(first)
    names = [name for name, _ in first]  # eager ops (jnp.ones, indexing) compile too
    assert names.count("jit(<lambda>)") == 1 and names.count("jit(named_step)") == 1, names
    assert all(isinstance(d, float) and d > 0 for _, d in first)
    assert after_read == first


def _compiled_twice(tmp_path, memo):
    """The student's process started with ``compile_memo`` = ``memo``: compile_two called twice
    with one scale, then once with another; its memo's (hits, misses) after each call, or None."""
    work = tmp_path / "work"
    (work / "tmp").mkdir(parents=True)
    names = ["compile_two", "memo_counts"]
    init = {"op": "init", "prelude": [], "cells": [["setup", CODE]], "names": names, "compile_memo": memo}
    budget = Budget(120, 60)
    budget.start_cell()
    s = Student(lambda: sandbox.prepare(tmp_path, work, Limits(), ROOT, "none"), init, budget, 1)
    s.contract = names
    s.start()
    s.wait_ready()
    fns = {name: StudentFunction(s, name, {}, dict(os.environ)) for name in names}
    counts = []
    try:
        for scale, value in ((2.0, 6.0), (2.0, 6.0), (3.0, 8.0)):
            assert fns["compile_two"](scale) == value
            counts.append(fns["memo_counts"]())
    finally:
        s.stop()
    return counts


def test_the_students_process_compiles_a_program_once_where_its_tests_watch_no_compilation(tmp_path):
    """sandbox/compile_memo.py: with a memo (the checker sends one where no test reads compilations,
    compile_events.memo_bytes) a fresh jax.jit of a program the process compiled before is found
    in its memory: the second call finds both of its jits, and a new program (another constant)
    is compiled, its other jit found. Without one (lesson 04, whose warm-up check reads
    compilations) the process keeps none."""
    from autograder.grader.checker.compile_events import memo_bytes
    from autograder.grader.core.settings import STUDENT_COMPILE_MEMO_BYTES

    counts = _compiled_twice(tmp_path / "memo", STUDENT_COMPILE_MEMO_BYTES)
    print("(hits, misses) after each call:", counts)
    (h1, m1), (h2, m2), (h3, m3) = counts
    assert m1 >= 2, "the first call compiles its two jits"
    assert h2 - h1 >= 2 and m2 == m1, "the same programs again: both found, nothing compiled"
    assert h3 - h2 >= 1 and m3 - m2 >= 1, "another constant: that program compiled, the other found"
    assert _compiled_twice(tmp_path / "none", 0) == [None] * 3, "no memo: nothing kept"
    watching = [{"source": "jax.monitoring.register_event_duration_secs_listener(f)"}, {"source": "x = 1"}]
    assert memo_bytes(watching) == 0 and memo_bytes([{"source": "'/jax/core/compile/backend_compile_duration'"}]) == 0
    for word in ("jax.config.update('jax_log_compiles', True)", "with jax.profiler.trace(d):"):
        assert memo_bytes([{"source": word}]) == 0, word
    assert memo_bytes([{"source": "assert f(2) == 4"}]) == STUDENT_COMPILE_MEMO_BYTES


def test_a_memo_that_cannot_be_plugged_in_grades_as_without_one(monkeypatch):
    """Red team (a review of compile_memo.py): the memo is installed after the student's process
    said hello, where a death is blamed on the student's code; a JAX whose cache interface gained
    an abstract method made the install raise, which would have zeroed every notebook. Now the
    process goes on without a memo."""
    from autograder.grader.sandbox import compile_memo

    def broken(*args, **kwargs):
        raise TypeError("Can't instantiate abstract class _Store with abstract method evict")

    monkeypatch.setattr(compile_memo, "plug", broken)
    assert compile_memo.install(2**20) is None


def test_lesson_04_is_graded_without_a_memo_and_the_others_with_one():
    """Lesson 04's tests read the student's compilations (its warm-up must compile a fresh jit):
    its student process keeps none; every other lesson's does (the tests' text decides)."""
    from autograder.grader.checker.compile_events import memo_bytes
    from autograder.grader.notebook.plan import graded_steps
    from conftest import LESSONS, source_nb

    for lesson in LESSONS:
        tests = [{"source": t.source} for t in graded_steps(source_nb(lesson))]
        assert (memo_bytes(tests) == 0) == lesson.startswith("04_"), lesson


def test_nothing_of_the_students_runs_between_calls(student):
    fns, s, work = student
    path = str(work / "tick")
    assert fns["start_ticker"](path) is True
    if s.launch.cgroup is None:
        pytest.skip("no cgroup here to freeze the student's processes with")
    first = Path(path).read_text()
    time.sleep(0.5)  # a running ticker would write about 50 times meanwhile
    assert Path(path).read_text() == first, "the student's thread ran while the checker had control"
    assert int(fns["read"](path)) >= int(first)


needs_cgroup = pytest.mark.skipif(
    not {"memory", "cpu"} <= set(cgroup.cgroup_roots()), reason="no memory and cpu cgroup here (not root?)"
)


@needs_cgroup
@pytest.mark.parametrize("student", [Limits(group_memory_bytes=1 * 2**30)], indirect=True)
def test_forked_children_share_one_memory_cap(student):
    """Each child stays under the per-process address-space cap; together they pass the group's
    1 GiB: the kernel kills one, and the row would say "memory limit reached"."""
    fns, s, _ = student
    statuses = fns["hog"](4, 400, 3)
    s.check_limits()
    print(statuses, s.events)
    assert any(status != 0 for status in statuses), "a child was killed"
    assert Happened(ProcessEvent.MEMORY_LIMIT) in s.events


@needs_cgroup
@pytest.mark.parametrize("student", [Limits(cpus=0.5)], indirect=True)
def test_busy_children_share_one_cpu_cap(student):
    """Four busy children get half a core between them, whatever the machine has."""
    fns, _, _ = student
    cores = fns["spin"](4, 2.0)
    print(f"{cores:.2f} cores used")
    assert cores < 0.75


def test_the_checkers_inputs_are_read_only_and_checked_after_each_call(tmp_path):
    """What a test hands the student's code to read lies in the checker's input folder: readable,
    not writable, in the sandbox; and should anything there change during a call (a sandbox
    without namespaces, say), the test fails with InputsChanged, whatever it catches."""
    from autograder.grader.core.faults import InputsChanged
    from autograder.grader.sandbox.workdir import manifest

    work, inputs = tmp_path / "work", tmp_path / "inputs"
    (work / "tmp").mkdir(parents=True)
    inputs.mkdir()
    (inputs / "case.txt").write_text("expected")
    init = {"op": "init", "prelude": [], "cells": [["answer", CODE]], "names": ["read", "write"]}
    budget = Budget(120, 60)
    budget.start_cell()
    s = Student(lambda: sandbox.prepare(tmp_path, work, Limits(), ROOT, "none", inputs), init, budget, 1)
    s.contract = ["read", "write"]
    s.start()
    s.wait_ready()
    try:
        s.inputs_digest = lambda: manifest(inputs)
        fns = {name: StudentFunction(s, name, {}, dict(os.environ)) for name in s.defined}
        assert fns["read"](str(inputs / "case.txt")) == "expected"
        with pytest.raises(OSError):
            fns["write"](str(inputs / "case.txt"), "forged")
        assert (inputs / "case.txt").read_text() == "expected"
        assert fns["write"](str(work / "tmp" / "out.txt"), "fine")  # its own folder stays writable
        s.inputs_digest = lambda: manifest(work)  # a folder the student CAN write, as if it were the inputs
        with pytest.raises(InputsChanged):
            fns["write"](str(work / "tmp" / "out.txt"), "changed")
        assert Happened(ProcessEvent.INPUTS_CHANGED) in s.events
    finally:
        s.stop()


@pytest.mark.parametrize("mapped", [False, True], ids=["open", "mapped"])
def test_files_held_open_after_unlinking_count_against_the_work_folder(student, mapped):
    """Issue 42, red team: a file unlinked while open (or mapped) keeps its blocks, which no walk of
    the work folder finds: 1,000 such descriptors of 1 GiB each filled the grader's disk and turned
    classmates' rows into grader-error while the student's own row stayed ok. Counted now: the
    folder is over its limit while they are held, and a call holding them is stopped by the watch."""
    from autograder.grader.core.faults import StudentDied
    from autograder.grader.sandbox.workdir import over_limit

    fns, s, work = student
    assert fns["hold_unlinked"](8, 2, mapped, 0) == 2
    print("the folder's entries:", sorted(p.name for p in work.iterdir()))
    assert over_limit(work, 20_000, 8 * 2**20) is None, "no walk sees them"
    assert over_limit(work, 20_000, 32 * 2**20, s.pids()) is None
    assert over_limit(work, 20_000, 8 * 2**20, s.pids()) == ProcessEvent.HELD_OPEN_LIMIT
    # the watch (twice a second while a call runs) stops a call that holds more than work_bytes
    s.watch = lambda: (lambda kind: kind and Happened(kind))(over_limit(work, 20_000, 20 * 2**20, s.pids()))
    with pytest.raises(StudentDied, match="held open"):
        fns["hold_unlinked"](8, 2, mapped, 30)
    assert Happened(ProcessEvent.HELD_OPEN_LIMIT) in s.events
