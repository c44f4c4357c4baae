"""Diagnosis (autograder/grader/diagnosis/diagnose.py, recording.py), its pure parts, in seconds: when two
results are the same, what a test's calls record, which known mistake they are named as, and what
a replay may not do. Graded for real: every known wrong answer in tests/test_notebooks.py (each is
named by its own failed checks), one class end to end in tests/test_grading.py."""

import time

import numpy as np
import pytest

from autograder.grader.core import events
from autograder.grader.diagnosis.diagnose import Diagnoser
from autograder.grader.diagnosis.compare import same
from autograder.grader.diagnosis.recording import Recorder, Unreplayable, plain_copy
from autograder.grader.checker.standins import StudentFunction
from autograder.common.mistakes import NOT_DIAGNOSED, Mistake, for_diagnosis, load, sentence
from conftest import LESSONS

F32 = np.float32
SAME = [
    (1, 1),
    (0.1, 0.1 * (1 + 1e-7)),  # within the relative tolerance
    (float("nan"), float("nan")),
    (float("inf"), float("inf")),
    ([1, 2.0], [1, 2.0 * (1 + 1e-7)]),
    ({"a": [np.ones(2, F32)]}, {"a": [np.ones(2, F32)]}),
    (np.array([1.0, np.nan], F32), np.array([1.0, np.nan], F32)),
    (np.array(2.0, F32), np.array(2.0, F32)),
    ("x", "x"),
    (np.float16, np.dtype("float16")),
]
DIFFERENT = [
    (1, 1.0),  # an int is not a float
    (1.0, np.float64(1.0)),  # a Python scalar is not a typed NumPy value
    (np.float32(2.0), np.array(2.0, F32)),  # a NumPy scalar is not a 0-d array
    (np.ones(2, F32), np.ones(2, np.float64)),  # dtypes
    (np.ones(2, F32), np.ones((2, 1), F32)),  # shapes
    (np.array([1, 2], np.int32), np.array([1, 3], np.int32)),  # integers exactly
    (0.1, 0.1 * (1 + 1e-4)),
    (float("inf"), -float("inf")),
    (float("nan"), 1.0),
    ([1, 2], [1, 2, 3]),
    ([1, 2], (1, 2)),  # a list is not a tuple
    ({"a": 1}, {"b": 1}),
    ("x", "y"),
    (None, 0),
]


@pytest.mark.parametrize("a,b", SAME, ids=repr)
def test_the_same_results(a, b):
    assert same(a, b) and same(b, a)


@pytest.mark.parametrize("a,b", DIFFERENT, ids=repr)
def test_different_results(a, b):
    assert not same(a, b) and not same(b, a)


def test_exactly_the_same_tells_signed_zeros_and_ulps_apart():
    assert same(0.0, -0.0) and not same(0.0, -0.0, 0, 0)
    x = np.array([1.0], F32)
    assert same(x, np.nextafter(x, F32(2))) and not same(x, np.nextafter(x, F32(2)), 0, 0)
    assert not same(object(), object())  # what cannot be compared is not the same


def test_only_plain_data_is_recorded_and_it_is_a_copy(tmp_path):
    a = np.arange(3.0)
    copy = plain_copy((a, [1, "s"], {"k": np.float16}))
    a[0] = 9
    assert copy[0][0] == 0
    for value in (lambda: 1, object(), np.array([object()])):
        with pytest.raises(Unreplayable):
            plain_copy(value)
    work = tmp_path / "work"
    work.mkdir()
    (work / "f").write_text("x")
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    (inputs / "trace.pb").write_bytes(b"checker's")
    r = Recorder({"f", "g"}, str(work), str(inputs), max_calls=2)
    call = r.before("f", (np.ones(2),), {}, None)
    r.returned("f", call, 1.0, (np.ones(2),))
    assert r.calls["f"][0].result[0] == 1.0
    assert r.before("h", (1,), {}, None) is None, "only functions with known mistakes"
    assert r.before("g", (print,), {}, None) is None and "g" in r.unreplayable
    assert r.before("f", (inputs / "trace.pb",), {}, None).paths, "a checker's input: digested, replayed"
    assert r.before("f", (work / "f",), {}, None) is None and "f" in r.unreplayable and "f" not in r.calls
    r.clear()
    for _ in range(3):
        r.before("f", (1,), {}, None)
    assert "f" in r.unreplayable, "more calls than are recorded: not diagnosed"


REFERENCE = ["import numpy as np\n\ndef g(x):\n    return x + 1\n\ndef f(x):\n    return np.asarray(x) * 2\n"]
MISTAKES = {
    "triples": "def f(x):\n    return np.asarray(x) * 3\n",
    "triples-too": "def f(x):\n    return np.asarray(x) + np.asarray(x) * 2\n",
    "reference-again": "def f(x):\n    return np.asarray(x) * 2.0\n",  # the same as the reference
    "raises": "def f(x):\n    raise ValueError\n",
    "hangs": "def f(x):\n    while True:\n        pass\n",
    "sleeps": "def f(x):\n    import time\n    time.sleep(1000)\n",
    "waits-then-triples": "def f(x):\n    import time\n    time.sleep(1.0)\n    return np.asarray(x) * 3\n",
    "sibling": "def f(x):\n    return np.asarray(g(x)) * 2 - 2\n",  # the reference's g: x * 2
    "in-place": "def f(x):\n    x *= 2\n    return x\n",
    "reads": "def f(x):\n    return open(STUDENT_FILE).read()\n",
    "writes": "def f(x):\n    open(OUT_FILE, 'w').write('x')\n    return np.asarray(x) * 3\n",
}


def diagnoser(tmp_path, *keys):
    work = tmp_path / "work"
    work.mkdir(parents=True, exist_ok=True)
    (work / "answer.txt").write_text("what the student wrote")
    setup = f"STUDENT_FILE = {str(work / 'answer.txt')!r}\nOUT_FILE = {str(tmp_path / 'out.txt')!r}\n"
    mistakes = [{"key": f"00_l:f:{k}", "function": "f", "source": MISTAKES[k]} for k in keys]
    base = {}
    exec(setup, base)  # the checker's namespace after the lesson's setup
    return Diagnoser([["reference", REFERENCE[0]]], mistakes, str(work), base=base), work


RAMP = (np.arange(3.0),)


def diagnose(d, work, answer, inputs=RAMP, seconds=60.0):
    r = Recorder(d.functions(), str(work), str(work.parent / "inputs"))
    for x in inputs:
        call = r.before("f", (x,), {}, None)
        args = plain_copy((x,))
        r.returned("f", call, answer(*args), args)
    return d.diagnose(r.calls, seconds)


def test_a_wrong_answer_is_named_and_a_correct_one_never(tmp_path):
    keys = ("reference-again", "raises", "triples-too", "triples", "sibling")

    def named(answer, inputs=RAMP):  # a checker per notebook: one student's function each
        return diagnose(*diagnoser(tmp_path, *keys), answer, inputs)

    assert named(lambda x: x * 3) == ["00_l:f:triples-too", "00_l:f:triples"], "all, in order"
    assert named(lambda x: x * 2) == [], "the reference's results: nothing named"
    assert named(lambda x: x * 5) == [], "no mistake behaves so: nothing said"
    # the mistake's call to g reaches the reference's g, so it IS the reference: never named
    assert named(lambda x: (x + 1) * 2 - 2) == []
    assert named(lambda x: x * 3, inputs=(np.zeros(3),)) == [], "the same as the reference there"
    assert named(lambda x: x * 3, inputs=(np.zeros(3), np.ones(3))) == [
        "00_l:f:triples-too",
        "00_l:f:triples",
    ], "differs from the reference on one call of two"


def test_a_later_check_replays_only_the_mistakes_an_earlier_one_could_not_tell_apart(tmp_path, monkeypatch):
    """Within one notebook the student's function is one function: once a failed check names a
    mistake, one that answered any of that check's calls otherwise is not it, so the later check
    (the hidden one after the visible one) replays only those that agreed on every call (or could
    not be told apart in time). A check that named nothing narrows nothing (one call a replay
    cannot reproduce must not rule the true mistake out)."""
    d, work = diagnoser(tmp_path, "reference-again", "raises", "triples-too", "triples")
    replayed = []
    real = d._run
    monkeypatch.setattr(d, "_run", lambda key, *a: replayed.append(key) or real(key, *a))
    assert diagnose(d, work, lambda x: x * 5) == []  # like no mistake: nothing named, nothing narrowed
    assert diagnose(d, work, lambda x: x * 3) == ["00_l:f:triples-too", "00_l:f:triples"]
    assert {"00_l:f:raises", "00_l:f:reference-again"} <= set(replayed)
    replayed.clear()
    assert diagnose(d, work, lambda x: x * 3, inputs=(np.ones(3),)) == ["00_l:f:triples-too", "00_l:f:triples"]
    assert "00_l:f:raises" not in replayed and "00_l:f:reference-again" not in replayed, replayed


def test_the_reference_goes_first_and_a_mistake_is_tried_first_where_the_student_is_wrong(tmp_path, monkeypatch):
    """A failed check may call a function the student got right (a test of mx_matmul quantizes its
    inputs with the student's mx_quantize): its outcomes are exactly the reference's on every call,
    so no mistake can be theirs and differ from it, and none is replayed. Otherwise each mistake is
    replayed first on the calls where the student's outcome is not the reference's: one that is
    right there is told apart in one replay. Either way the names are those of every-call matching."""
    d, work = diagnoser(tmp_path, "reference-again", "raises", "triples-too", "triples")
    replayed = []
    real = d._run
    monkeypatch.setattr(d, "_run", lambda key, *a: replayed.append((key, a[2].args[0][0])) or real(key, *a))
    assert diagnose(d, work, lambda x: np.asarray(x) * 2, inputs=(np.zeros(3), np.ones(3))) == []
    assert {key for key, _ in replayed} == {"reference:f"}, replayed
    replayed.clear()
    # right on the first call (zeros: 0 * 3 is 0 * 2), wrong on the second (ones)
    named = diagnose(d, work, lambda x: np.asarray(x) * 3, inputs=(np.zeros(3), np.ones(3)))
    assert named == ["00_l:f:triples-too", "00_l:f:triples"]
    mistakes = [(key, x) for key, x in replayed if not key.startswith("reference")]
    assert mistakes[:2] == [("00_l:f:reference-again", 1.0), ("00_l:f:raises", 1.0)], mistakes
    assert ("00_l:f:reference-again", 0.0) not in mistakes and ("00_l:f:raises", 0.0) not in mistakes
    assert {("00_l:f:triples", 0.0), ("00_l:f:triples", 1.0)} <= set(mistakes), "a match is tried on every call"


def test_a_later_check_replays_the_reference_only_as_far_as_a_single_candidate_needs(tmp_path, monkeypatch):
    """After an earlier check narrowed the candidates to one, the later check replays it first and
    the reference only up to the first call that shows the candidate differs from it; with several
    candidates, the reference on every call (they are ranked by their agreement with it)."""
    d, work = diagnoser(tmp_path, "raises", "triples")
    assert diagnose(d, work, lambda x: np.asarray(x) * 3) == ["00_l:f:triples"]
    replayed = []
    real = d._call
    monkeypatch.setattr(d, "_call", lambda key, *a: replayed.append((key, float(a[2].args[0][0]))) or real(key, *a))
    later = (np.full(3, 1.0), np.full(3, 2.0), np.full(3, 5.0))
    assert diagnose(d, work, lambda x: np.asarray(x) * 3, inputs=later) == ["00_l:f:triples"]
    assert [x for key, x in replayed if key == "reference:f"] == [1.0], replayed
    assert [x for key, x in replayed if key == "00_l:f:triples"] == [1.0, 2.0, 5.0], "a match needs every call"
    two, work = diagnoser(tmp_path / "two", "triples-too", "triples")
    assert diagnose(two, work, lambda x: np.asarray(x) * 3) == ["00_l:f:triples-too", "00_l:f:triples"]
    replayed.clear()
    real_two = two._call
    monkeypatch.setattr(
        two, "_call", lambda key, *a: replayed.append((key, float(a[2].args[0][0]))) or real_two(key, *a)
    )
    assert diagnose(two, work, lambda x: np.asarray(x) * 3, inputs=later) == ["00_l:f:triples-too", "00_l:f:triples"]
    assert [x for key, x in replayed if key == "reference:f"] == [1.0, 2.0, 5.0], replayed


def test_an_answer_that_changes_its_arguments_is_told_by_them(tmp_path):
    d, work = diagnoser(tmp_path, "in-place")

    def in_place(x):
        x *= 2
        return x

    assert diagnose(d, work, in_place) == ["00_l:f:in-place"]


def test_a_mistake_that_hangs_raises_or_reaches_the_students_files_does_not_match(tmp_path, monkeypatch):
    import autograder.grader.diagnosis.diagnose as module

    monkeypatch.setattr(module, "DIAGNOSIS_CALL_SECONDS", 0.5)
    d, work = diagnoser(tmp_path, "hangs", "raises", "reads", "writes", "triples")
    t0 = time.monotonic()
    assert diagnose(d, work, lambda x: x * 3) == ["00_l:f:triples"]
    assert time.monotonic() - t0 < 30
    assert diagnose(d, work, lambda x: "what the student wrote") == [], "nothing of the student's is read"
    assert not (tmp_path / "out.txt").exists(), "a replay writes nothing"
    assert open(work / "answer.txt").read(), "the guard is off after the replay"


def test_the_budget_is_cpu_time_so_a_busy_machine_names_the_same_and_a_sleeper_still_ends(tmp_path, monkeypatch):
    """A replay's budget is the checker's CPU time (SIGPROF): time it spends off the CPU, as on a
    busy machine where it waits for a core, does not use it, so a mistake that waits 1 s and then
    answers is named under a 0.5 s budget. Wall time stays bounded (SIGALRM, DIAGNOSIS_WALL_FACTOR
    times the budget): a mistake that sleeps for good does not match, and the check ends."""
    import autograder.grader.diagnosis.diagnose as module

    monkeypatch.setattr(module, "DIAGNOSIS_CALL_SECONDS", 0.5)
    d, work = diagnoser(tmp_path, "sleeps", "waits-then-triples", "hangs")
    t0 = time.monotonic()
    assert diagnose(d, work, lambda x: x * 3) == ["00_l:f:waits-then-triples"]
    assert time.monotonic() - t0 < 60, "the sleeper was stopped by the wall clock"


def test_no_time_left_no_diagnosis(tmp_path):
    d, work = diagnoser(tmp_path, "triples")
    assert diagnose(d, work, lambda x: x * 3, seconds=1.0) == [], "the margin is the test's, not diagnosis's"


def test_the_students_process_is_never_called_while_a_diagnosis_runs():
    from autograder.grader.diagnosis.plugin import Diagnosis

    class Student:
        observer, depth, contract = Diagnosis.__new__(Diagnosis), 0, []

    Student.observer.replaying = True  # as the Diagnoser sets it while it replays

    with pytest.raises(RuntimeError):
        StudentFunction(Student(), "f", {}, {})(1)


def test_the_diagnosis_crosses_as_a_typed_event():
    frame = events.to_frame(events.Diagnosed(3, ["a:b:c"]))
    assert events.parse(frame) == events.Diagnosed(3, ["a:b:c"])
    assert events.parse({**frame, "mistakes": [1]}) is None
    assert events.parse(events.to_frame(events.Tested(1, "error", observed=True))).observed


def test_what_the_student_reads_is_the_librarys_text(tmp_path):
    folder = tmp_path / "solutions" / "00_l"
    folder.mkdir(parents=True)
    entry = dict(function="f", why="", source="def f(x):\n    return x\n")
    entries = [
        {**entry, "id": "a", "name": "a name", "explanation": "Why.", "section": "Sums"},
        {**entry, "id": "b", "name": "b name.", "explanation": "", "section": ""},
    ]
    (folder / "mistakes.py").write_text(f"MISTAKES = {entries!r}\n")
    assert sentence(["00_l:f:a", "00_l:f:b", "00_l:f:gone"], tmp_path) == [
        "Your `f` behaves like a known mistake: a name. Why. (re-read: Sums) or b name."
    ]
    assert sentence([], tmp_path) == []


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_known_mistake_is_replayed_but_where_a_replay_is_unsound(lesson):
    mistakes = load(lesson)
    replayed = {m["key"] for m in for_diagnosis(mistakes)}
    assert all(isinstance(m, Mistake) for m in mistakes)
    assert {m.key for m in mistakes if f"{lesson}:{m.function}" not in NOT_DIAGNOSED} == replayed


def test_a_replay_cannot_grow_the_checker_by_gigabytes():
    """Red team: a student's small results, passed on by the test as another call's arguments
    (lesson 06's scales of shape (1, 4096) beside codes of (2500, 1)), made the reference broadcast
    to 1.3 GB inside the trusted checker. While a replay runs, the address space may grow by
    DIAGNOSIS_MEMORY_BYTES at most: past it, an allocation is a MemoryError (that answer does not
    match); after it, the checker's own limit is back."""
    import resource

    from autograder.grader.diagnosis.diagnose import memory_capped
    from autograder.grader.core.settings import DIAGNOSIS_MEMORY_BYTES

    before = resource.getrlimit(resource.RLIMIT_AS)
    with memory_capped():
        small = np.ones(DIAGNOSIS_MEMORY_BYTES // 16, np.uint8)  # well within
        with pytest.raises(MemoryError):
            np.ones(4 * DIAGNOSIS_MEMORY_BYTES, np.uint8)
    assert resource.getrlimit(resource.RLIMIT_AS) == before and small.sum() == small.size
    big = np.ones(2 * DIAGNOSIS_MEMORY_BYTES, np.uint8)  # the checker's own limit again
    assert big.size == 2 * DIAGNOSIS_MEMORY_BYTES


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_held_out_answer_names_a_mistake_of_the_library(lesson):
    """heldout.py labels each answer with the library key it makes: a key the library does not
    hold (a renamed id) fails here in a second, not after grading the lesson."""
    from autograder.course.lessoncheck.candidates import load_heldout

    keys = {m.key for m in load(lesson)}
    labelled = [c["key"] for c in load_heldout(lesson)]
    assert labelled and set(labelled) <= keys, sorted(set(labelled) - keys)


CACHE_PROBE = r"""
import os, sys, json
import numpy as np
import jax, jax.numpy as jnp
from autograder.grader.diagnosis.replay_cache import MemoryCache, install, kept

cache, why = install()
assert cache is not None, why
assert install()[0] is cache  # once per process
x = jnp.arange(8.0)
with kept() as in_use:
    assert in_use is cache
    first = jax.jit(lambda a: jnp.sin(a) * 2 + 1)(x)  # two Python functions, one program
    stored, misses = len(cache.entries), cache.misses
    second = jax.jit(lambda b: jnp.sin(b) * 2 + 1)(x)
    other = jax.jit(lambda c: jnp.cos(c) * 2 + 1)(x)  # another program: compiled, not found
inside = (len(cache.entries), cache.hits, cache.misses)
from jax._src import compilation_cache as cc
packed_again = cc.compress_executable(b"x" * 100) != b"x" * 100  # JAX's own packing is back
outside = jax.jit(lambda d: jnp.sin(d) * 2 + 1)(x)  # after kept(): compiled, neither found nor kept
again = jax.jit(lambda e: jnp.tanh(e) + 3)(x)
print(json.dumps({
    "outside_untouched": inside == (len(cache.entries), cache.hits, cache.misses),
    "packed_again": packed_again,
    "stored": stored, "hits": cache.hits, "misses_before": misses, "misses": cache.misses,
    "same": bool(np.array_equal(first, second)),
    "right": bool(np.allclose(other, np.cos(np.arange(8.0)) * 2 + 1)),
    "dir": jax.config.jax_compilation_cache_dir,
}))
"""


def test_replays_compile_a_program_once_in_the_checkers_memory_and_never_on_disk(tmp_path):
    """replay_cache.py: while the cache serves (a diagnosis's replays), a second Python function that
    lowers to the same program is found in the checker's memory instead of compiled again, and
    gives the same values; another program is compiled. After it, compilations are neither found
    nor kept (no check's outcome may depend on an earlier failure: lesson 04 times a compile). JAX's cache is not a
    public API: on the pinned JAX the install must take (a JAX that moved it fails here, not
    silently slower). Nothing is written to disk: no cache folder is set, no file appears in the
    folder the process runs in or its TMPDIR."""
    import json
    import os
    import subprocess
    import sys

    from conftest import ROOT

    env = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp_path), "JAX_PLATFORMS": "cpu"}
    env.pop("JAX_COMPILATION_CACHE_DIR", None)
    out = subprocess.run(
        [sys.executable, "-c", CACHE_PROBE], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    print(got)
    assert got["stored"] >= 1 and got["hits"] >= 1 and got["misses"] > got["misses_before"], got
    assert got["same"] and got["right"] and got["dir"] is None, got
    assert got["outside_untouched"], "outside a replay the checker compiles as with no cache"
    assert got["packed_again"], "JAX's compression is its own again after the replays"
    assert not list(tmp_path.iterdir()), "the cache wrote files"


def test_the_memory_cache_keeps_its_byte_bound_dropping_the_least_recently_used():
    """The checker's cache holds at most its bound of compressed executables (COMPILE_CACHE_BYTES):
    past it the least recently used go; one larger than the bound is not kept."""
    from autograder.grader.diagnosis.replay_cache import MemoryCache

    cache = MemoryCache(limit=10)
    cache.put("a", b"1234")
    cache.put("b", b"5678")
    assert cache.get("a") == b"1234"  # a is now the most recently used
    cache.put("c", b"90ab")  # 12 bytes > 10: b goes
    assert cache.get("b") is None and cache.get("a") == b"1234" and cache.get("c") == b"90ab"
    assert cache.size == 8
    cache.put("huge", b"x" * 11)  # larger than the whole bound: not kept, nothing dropped
    assert cache.get("huge") is None and cache.size == 8
    cache.put("a", b"12")  # replaced, its bytes counted once
    assert cache.size == 6 and (cache.hits, cache.misses) == (3, 2)


def test_the_store_holds_a_replays_alarm_back_while_it_changes():
    """Red team: a replay's SIGALRM raised between two lines of the store's put left its byte count
    wrong or its lock held (every later replay's compile then waited for its own alarm). The alarm
    is held back while the store changes and delivered right after."""
    import signal

    from autograder.grader.diagnosis.replay_cache import MemoryCache, _no_alarm

    class Alarm(Exception):
        pass

    def ring(signum, frame):
        raise Alarm

    previous = signal.signal(signal.SIGALRM, ring)
    reached = []
    try:
        with pytest.raises(Alarm):
            with _no_alarm():
                signal.raise_signal(signal.SIGALRM)
                reached.append("the rest of the change")
        cache = MemoryCache(limit=100)
        cache.put("a", b"1234")
        assert cache.lock.acquire(blocking=False), "the lock is free after a put"
        cache.lock.release()
    finally:
        signal.signal(signal.SIGALRM, previous)
    assert reached == ["the rest of the change"]


def test_the_checker_never_reads_a_folder_of_compiled_programs(monkeypatch, tmp_path):
    """Red team: JAX_COMPILATION_CACHE_DIR in the grader's environment reached the checker, which
    would then load executables from a folder that, in the fallback without namespaces, the
    student's process may write. The checker's environment leaves it out."""
    from autograder.grader.checker.spawn import checker_env

    monkeypatch.setenv("JAX_COMPILATION_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("JAX_PLATFORMS", "cpu")
    env = checker_env(tmp_path / "home", "tpu")
    assert "JAX_COMPILATION_CACHE_DIR" not in env
    assert env["JAX_PLATFORMS"] == "cpu" and env["HOME"] == str(tmp_path / "home") and env["COURSE_EMULATE"] == "tpu"


BLOCKED = """
import json, sys
sys.path.insert(0, sys.argv[1])
from autograder.grader.core import observer
from autograder.grader.notebook.grade import Lesson, grade_notebook
from autograder.grader.core.settings import Settings
work = json.load(open(sys.argv[2]))
assert observer.plugin() is None, "the plug-in's modules are gone"
seen = {}
for who, nb in work["notebooks"].items():
    r = grade_notebook(who, Lesson(**work["lesson"]), nb.encode(), Settings.from_dict(work["settings"]), sys.argv[1])
    checks = [[t.grade_id, t.score, t.outcome] for t in r.tests]
    seen[who] = [r.score, r.status, checks, sorted({k for t in r.tests for k in t.mistakes})]
loaded = sorted(m for m in observer.PLUGIN_MODULES if m in sys.modules)
print(json.dumps({"seen": seen, "loaded": loaded}))
"""


def graded_without_the_plugin(tmp_path, lesson, notebooks: dict, settings) -> dict:
    """The grader copied without the diagnosis plug-in's modules (observer.PLUGIN_MODULES), grading
    in a process of its own: its worker, zygote and checkers import from the copy, where they are not."""
    import dataclasses
    import json
    import shutil
    import subprocess
    import sys

    from autograder.grader.core.observer import PLUGIN_PACKAGE
    from conftest import ROOT

    copy = tmp_path / "course"
    shutil.copytree(ROOT / "autograder", copy / "autograder", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.rmtree(copy / PLUGIN_PACKAGE.replace(".", "/"))  # the diagnosis/ sub-package, whole
    work = tmp_path / "work.json"
    work.write_text(
        json.dumps({"lesson": dataclasses.asdict(lesson), "notebooks": notebooks, "settings": settings.to_dict()})
    )
    done = subprocess.run(
        [sys.executable, "-c", BLOCKED, str(copy), str(work)], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["loaded"] == []
    return {
        who: (score, status, [tuple(c) for c in checks], keys)
        for who, (score, status, checks, keys) in out["seen"].items()
    }


@pytest.mark.compat  # make compat (CI): a class graded three times
@pytest.mark.slow
def test_grades_are_the_same_with_diagnosis_off_on_and_not_installed(tmp_path):
    """Issue 44 (4): diagnosis decides no point. Graded for real (lesson 01): the perfect notebook,
    a known mistake ('truncates') and the blank release get the same score, status, and per-check
    points and outcomes with --no-diagnose as with diagnosis, and with the diagnosis plug-in's
    modules removed from the grader (diagnosis asked for, nothing to run it); only the named
    mistakes differ (none without it, the mistake's key under its failed checks with it)."""
    import nbformat

    from autograder.grader.notebook.grade import grade_notebook
    from autograder.grader.core.settings import Settings
    from autograder.common.notebooks import fill_answers
    from conftest import ROOT, grading_lesson, source_nb, student_nb

    lesson = "01_number_formats"
    mistake = next(m for m in load(lesson) if m.id == "truncates")
    the_lesson = grading_lesson(lesson)
    notebooks = {
        "perfect": fill_answers(student_nb(lesson), source_nb(lesson)),
        "mistaken": fill_answers(student_nb(lesson), source_nb(lesson), {mistake.function: mistake.source}),
        "blank": student_nb(lesson),
    }
    seen = {}
    for diagnose in (True, False):
        settings = Settings(jobs=1, emulation="none", seed=3, diagnose=diagnose)
        for who, nb in notebooks.items():
            r = grade_notebook(who, the_lesson, nbformat.writes(nb).encode(), settings, ROOT)
            checks = [(t.grade_id, t.score, t.outcome) for t in r.tests]
            seen[(who, diagnose)] = (r.score, r.status, checks, sorted({k for t in r.tests for k in t.mistakes}))
            print(who, "diagnosis" if diagnose else "no diagnosis", r.score, r.status, seen[(who, diagnose)][3])
    texts = {who: nbformat.writes(nb) for who, nb in notebooks.items()}
    blocked = graded_without_the_plugin(tmp_path, the_lesson, texts, Settings(jobs=1, emulation="none", seed=3))
    for who in notebooks:
        assert seen[(who, True)][:3] == seen[(who, False)][:3], who
        assert seen[(who, False)][3] == []
        assert blocked[who][:3] == seen[(who, True)][:3] and blocked[who][3] == [], (who, blocked[who])
    assert seen[("mistaken", True)][3] == [mistake.key]
    assert seen[("perfect", True)][0] == 13 and seen[("blank", True)][0] == 0
