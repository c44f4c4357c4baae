"""Through nbgrader, end to end: the reference solution submitted as a student gets full marks,
the untouched student notebook scores 0, one plausible wrong answer loses only its exercise's
points; the command line writes the gradebook files and never prints hidden test code.

One class (perfect and blank submissions of every lesson, one wrong answer) is graded once for
the module (one xdist worker owns the module: tests/conftest.py); the tests read its results.
"""

import csv
import json
import zipfile
import subprocess
import sys
import threading
import time

import nbformat
import psutil
import pytest

from autograder.grader import Settings, grade
from autograder.grader.notebook.verdict import HIDDEN_FAILED
from autograder.course.lessoncheck import load_mutants
from autograder.common.mistakes import load
from autograder.common.notebooks import cell_grade_id, fill_answers
from conftest import LESSONS, ROOT, source_nb, student_nb

pytestmark = pytest.mark.slow


def points_by_test(lesson):
    return {
        cell_grade_id(c): c.metadata["nbgrader"]["points"]
        for c in source_nb(lesson).cells
        if cell_grade_id(c).startswith("test_")
    }


def write(nb, path):
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(path))


def wrong_answer(lesson):
    """The plausible wrong answer graded through nbgrader: for lesson 02 the seed's byte count
    (fails the visible and the hidden test), elsewhere the first one listed."""
    mutants = load_mutants(lesson)
    return (
        next((m for m in mutants if "bytes" in m["why"]), mutants[0])
        if lesson == "02_matmul_accumulation"
        else mutants[0]
    )


# Every wrong answer of every lesson is graded by the grader itself in tests/test_notebooks.py; here
# one goes through the whole class run (gradebook, CSVs) end to end.
WRONG_ONE = ["02_matmul_accumulation"]


# Red team (issue 28): lesson 03 with no quantization code at all. Each exercise asks a sibling
# for the answer on inputs of its own making: quantize_per_tensor as quantize_per_channel of one
# long column, quantize_per_channel as quantize_per_tensor of each column, w8a8_matmul with x
# quantized per row as quantize_per_channel of x.T. With whole references lent as siblings this took
# 4/15; a sibling now answers only the inputs a test planned, so each falls back to the stubs here.
ORACLE = {
    "quantize_per_channel": (
        "import numpy as np\n\ndef quantize_per_channel(w):\n"
        "    w = np.asarray(w)\n"
        "    parts = [quantize_per_tensor(w[:, j:j + 1]) for j in range(w.shape[1])]\n"
        "    q = np.concatenate([np.asarray(p[0]).reshape(-1, 1) for p in parts], axis=1).astype(np.int8)\n"
        "    return q, np.array([[float(np.asarray(p[1])) for p in parts]], np.float32)\n"
    ),
    "quantize_per_tensor": (
        "import numpy as np\n\ndef quantize_per_tensor(w):\n"
        "    w = np.asarray(w)\n"
        "    q, s = quantize_per_channel(w.reshape(-1, 1))\n"
        "    return np.asarray(q).reshape(w.shape).astype(np.int8), np.asarray(s, np.float32).reshape(())\n"
    ),
    "dequantize": "def dequantize(q, scale):\n    raise NotImplementedError()\n",
    "w8a8_matmul": (
        "import numpy as np\n\ndef w8a8_matmul(x, q_w, s_w):\n"
        "    q_x, s_x = quantize_per_channel(np.asarray(x, np.float32).T)\n"
        "    acc = np.asarray(q_x).T.astype(np.int32) @ np.asarray(q_w).astype(np.int32)\n"
        "    return (acc * np.asarray(s_x).T * np.asarray(s_w)).astype(np.float32)\n"
    ),
    "granularity_errors": "def granularity_errors(seed=9):\n    raise NotImplementedError()\n",
}
# Lesson 06 with its first two exercises unwritten: mx_matmul and granularity_sweep (the solution's,
# built on mx_quantize and mx_dequantize) still earn their hidden points from the planned answers.
STUBBED_SIBLINGS = {
    "mx_quantize": 'def mx_quantize(x, elem="float8_e4m3fn", block=32):\n    raise NotImplementedError()\n',
    "mx_dequantize": "def mx_dequantize(elements, scales, block=32):\n    raise NotImplementedError()\n",
}

# Lesson 04 with nothing implemented (issue 28: 9/14): capture_warmed_trace sleeps, invents its
# timings and writes a 2-byte file that parses as an empty trace; count_events and top_ops truncate
# the trace they are handed (the checker's own, which its reference read after the call) and
# answer from nothing. Traces the checker makes are read-only to the student now, and a trace
# passes only if it holds the traced steps.
FABRICATED_TRACES = {
    "capture_warmed_trace": (
        "import os, time, tempfile\nfrom pathlib import Path\n\n"
        "def capture_warmed_trace(steps=4, trace_dir=None):\n"
        "    t0 = time.perf_counter()\n    time.sleep(0.3)\n    warm = (time.perf_counter() - t0) * 1000\n"
        "    if trace_dir is None:\n        trace_dir = os.environ.get('TPU_TRACE_DIR') or tempfile.mkdtemp()\n"
        "    d = Path(trace_dir).resolve() / 'plugins' / 'profile' / 'x'\n    d.mkdir(parents=True, exist_ok=True)\n"
        "    (d / 'h.xplane.pb').write_bytes(b'\\x0a\\x00')\n"
        "    return {'warmup_ms': warm, 'steady_ms': 0.001, 'xplane_count': 1,\n"
        "            'trace_dir': str(Path(trace_dir).resolve())}\n"
    ),
    "count_events": (
        "def count_events(xplane_file, name_substring):\n"
        "    try:\n        open(xplane_file, 'wb').write(b'\\x0a\\x00')\n    except OSError:\n        pass\n"
        "    return 0\n"
    ),
    "top_ops": (
        "def top_ops(xplane_file, k=5):\n"
        "    try:\n        open(xplane_file, 'wb').write(b'\\x0a\\x00')\n    except OSError:\n        pass\n"
        "    return []\n"
    ),
}

# A red team's forgery (issue 28): the warm-up times only a run of a step compiled before it, its
# numbers are made to look right, and every reply of the student's process claims a 0 s compile of
# the traced module. Reported compilations only tighten lesson 04's check, so the test's own bound
# from compiling the step itself still catches it.
FORGED_COMPILES = {
    "capture_warmed_trace": (
        "import os, sys, time, tempfile\nfrom pathlib import Path\nimport jax, jax.numpy as jnp\n\n"
        "def capture_warmed_trace(steps=4, trace_dir=None):\n"
        "    main = getattr(sys, 'mod' + 'ules')['__main__']\n"
        "    if not getattr(main, '_forged', False):\n"
        "        real = main.send\n"
        "        def send(message):\n"
        "            if isinstance(message, dict) and message.get('op') == 'return':\n"
        "                message = {**message, 'compiles': [['jit(<lambda>)', 0.0]]}\n"
        "            return real(message)\n"
        "        main.send, main._forged = send, True\n"
        "    x = jnp.full((256, 256), 1.0 / 256, dtype=jnp.bfloat16)\n"
        "    f = jax.jit(lambda a: jnp.dot(a, a, preferred_element_type=jnp.float32).astype(jnp.bfloat16))\n"
        "    step = f.lower(x).compile()\n"
        "    t0 = time.perf_counter()\n    jax.block_until_ready(step(x))\n"
        "    w = (time.perf_counter() - t0) * 1000.0\n"
        "    if trace_dir is None:\n        trace_dir = os.environ.get('TPU_TRACE_DIR') or tempfile.mkdtemp()\n"
        "    trace_dir = Path(trace_dir).expanduser().resolve()\n    trace_dir.mkdir(parents=True, exist_ok=True)\n"
        "    with jax.profiler.trace(str(trace_dir)):\n"
        "        t1 = time.perf_counter()\n        for _ in range(steps):\n            x = step(x)\n"
        "        jax.block_until_ready(x)\n        steady = (time.perf_counter() - t1) * 1000.0 / steps\n"
        "    return {'warmup_ms': 1.01, 'steady_ms': steady,\n"
        "            'xplane_count': len(list(trace_dir.rglob('*.xplane.pb'))), 'trace_dir': str(trace_dir)}\n"
    ),
}


def stubs(lesson):
    """The release's unanswered stubs, by function."""
    return {
        cell_grade_id(c).removeprefix("answer_"): c.source
        for c in student_nb(lesson).cells
        if cell_grade_id(c).startswith("answer_")
    }


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory):
    subs = tmp_path_factory.mktemp("class") / "submissions"
    for lesson in LESSONS:
        write(fill_answers(student_nb(lesson), source_nb(lesson)), subs / "perfect" / f"{lesson}.ipynb")
        write(student_nb(lesson), subs / "blank" / f"{lesson}.ipynb")
    for lesson in WRONG_ONE:
        mutant = wrong_answer(lesson)
        write(
            fill_answers(student_nb(lesson), source_nb(lesson), {mutant["function"]: mutant["source"]}),
            subs / "wrong" / f"{lesson}.ipynb",
        )
    lesson = "03_int8_quantization"
    write(fill_answers(student_nb(lesson), source_nb(lesson), ORACLE), subs / "oracle" / f"{lesson}.ipynb")
    lesson = "06_block_scaled_formats"
    write(fill_answers(student_nb(lesson), source_nb(lesson), STUBBED_SIBLINGS), subs / "stubbed" / f"{lesson}.ipynb")
    lesson = "04_xprof_profiling"
    attack = {**stubs(lesson), **FABRICATED_TRACES}
    write(fill_answers(student_nb(lesson), source_nb(lesson), attack), subs / "fabricated" / f"{lesson}.ipynb")
    write(fill_answers(student_nb(lesson), source_nb(lesson), FORGED_COMPILES), subs / "forged" / f"{lesson}.ipynb")
    # checkers are forks of one warm zygote per worker (spawn.py): watched while the class is graded
    settings = Settings(jobs=2, checker_memory_bytes=3 * 2**30 + 2**20)  # a checker cap no default equals
    seen, caps, done = set(), {}, threading.Event()

    def watch():
        while not done.is_set():
            found = _checkers_below(psutil.Process().pid)
            for pid, _, _ in found:  # every cap seen, in order: a fork sets its own a moment after it starts
                try:
                    cap = psutil.Process(pid).rlimit(psutil.RLIMIT_AS)[0]
                except psutil.Error:
                    continue
                if caps.get(pid, [None])[-1] != cap:
                    caps.setdefault(pid, []).append(cap)
            seen.update(found)
            time.sleep(0.2)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        results = grade(subs, subs.parent / "out", settings, quiet=True)
    finally:
        done.set()
        watcher.join()
    graded = GradedClass({(r.student, r.lesson): r for r in results})
    graded.forks, graded.caps, graded.settings, graded.out = seen, caps, settings, subs.parent / "out"
    return graded


class GradedClass(dict):
    """{(student, lesson): Result}, with what the watcher saw of the checkers while it was graded."""


def _checkers_below(pid: int) -> set[tuple[int, int, int]]:
    """(checker pid, zygote pid, the zygote's worker pid) for each checker below ``pid`` now: a
    zygote runs spawn.serve and its parent does not (a fork keeps its zygote's command line, so a
    checker's own children, bwrap and the student's process, have a parent that looks like one)."""
    found = set()
    for proc in psutil.Process(pid).children(recursive=True):
        try:
            if "autograder.grader.checker.spawn" in " ".join(
                proc.cmdline()
            ) and "autograder.grader.checker.spawn" not in " ".join(proc.parent().cmdline()):
                found |= {(child.pid, proc.pid, proc.ppid()) for child in proc.children()}
        except psutil.Error:
            continue
    return found


def test_checkers_are_forks_of_one_zygote_per_worker_and_nothing_outlives_grading(graded_class):
    """spawn.py: JAX is imported once per worker, not once per notebook. Every checker of the class
    is a fork of its worker's one zygote and holds the stated address-space cap (a trace bomb's
    MemoryError is there); no zygote outlives grading."""
    seen, caps = graded_class.forks, graded_class.caps
    print("checkers' RLIMIT_AS, as they changed:", caps)
    # Once a checker sets the stated cap it never holds a looser one. A tighter one is a diagnosis
    # replay's (diagnose.memory_capped: its address space now plus 512 MiB, put back after), which a
    # sample may catch; before the stated cap, a fresh fork holds its zygote's (in a fresh clone's
    # run one checker's last sample was a replay's 2088 MiB: an assertion on the last cap failed).
    stated = graded_class.settings.checker_memory_bytes
    held = {pid: seen_caps[seen_caps.index(stated) :] for pid, seen_caps in caps.items() if stated in seen_caps}
    assert len(held) >= 10 and all(max(c) == stated for c in held.values()), caps
    # the pool's two workers grade the notebooks; the parent may have graded the solution canary
    # before them (when no pass of it is remembered for this grader), in a zygote of its own
    zygotes = {z: w for _, z, w in seen}
    workers = {w: {z for z, w2 in zygotes.items() if w2 == w} for w in zygotes.values()}
    assert all(len(z) == 1 for z in workers.values()), f"one zygote per worker: {workers}"
    pool = {z for z, w in zygotes.items() if w != psutil.Process().pid}
    assert 1 <= len(pool) <= 2, f"at most one zygote for each of the pool's two workers: {zygotes}"
    checkers = {c for c, z, _ in seen if z in pool}
    assert len(checkers) >= 10, "one checker a notebook, each a fork of its worker's zygote"
    left = [
        p
        for p in psutil.process_iter(["cmdline"])
        if "autograder.grader.checker.spawn" in " ".join(p.info["cmdline"] or [])
    ]
    assert not [p for p in left if p.pid in zygotes], "every zygote ends with its worker"


@pytest.mark.parametrize("lesson", LESSONS)
def test_solution_gets_full_marks(graded_class, lesson):
    r = graded_class[("perfect", lesson)]
    total = sum(points_by_test(lesson).values())
    print(f"expected {total}/{total} ok, got {r.score}/{r.max_score} {r.status} {r.detail}")
    assert (r.score, r.max_score, r.status) == (total, total, "ok")


@pytest.mark.parametrize("lesson", LESSONS)
def test_untouched_student_notebook_scores_zero(graded_class, lesson):
    r = graded_class[("blank", lesson)]
    total = sum(points_by_test(lesson).values())
    print(f"expected 0/{total} ok, got {r.score}/{r.max_score} {r.status} {r.detail}")
    assert (r.score, r.max_score, r.status) == (0, total, "ok")


@pytest.mark.parametrize("lesson", WRONG_ONE)
def test_one_wrong_answer_loses_only_its_exercise(graded_class, lesson):
    r = graded_class[("wrong", lesson)]
    mutant = wrong_answer(lesson)
    points = points_by_test(lesson)
    own = {f"test_{mutant['function']}_visible", f"test_{mutant['function']}_hidden"}
    scores = {t.grade_id: t.score for t in r.tests}
    print(mutant["why"], scores)
    assert r.status == "ok"
    assert scores[f"test_{mutant['function']}_hidden"] == 0, "the wrong answer is caught"
    for gid, pts in points.items():
        if gid not in own:
            assert scores[gid] == pts, f"{gid} lost points for another exercise's mistake"
    assert r.score == sum(points.values()) - sum(points[g] for g in own if scores[g] == 0)
    if lesson == "02_matmul_accumulation":  # fails both of its tests: exactly 4 of 11 points lost
        assert (r.score, r.max_score) == (7, 11)


def test_a_known_mistake_is_named_and_no_correct_or_blank_answer_is(graded_class):
    """Diagnosis (issue 32) through the whole class run: the wrong answer's failed checks name its
    mistake (results.json's ``mistakes``, tests.csv's column); no check of a correct or a blank
    notebook names one; what a hidden check shows its student is its fixed words and the
    library's keys, nothing of its inputs or expected values."""
    library = {m.key for lesson in LESSONS for m in load(lesson)}
    csv_rows = {
        (t["student"], t["lesson"], t["grade_id"]): t for t in csv.DictReader(open(graded_class.out / "tests.csv"))
    }
    shown = json.loads((graded_class.out / "results.json").read_text())
    for (student, lesson), r in graded_class.items():
        named = {t.grade_id: t.mistakes for t in r.tests if t.mistakes}
        for t in r.tests:
            assert csv_rows[(student, lesson, t.grade_id)]["mistakes"] == " or ".join(t.mistakes)
            assert set(t.mistakes) <= library
            if t.hidden:  # fixed words only (a voided notebook's included) and the library's keys
                assert t.output == "" and t.error in {"", HIDDEN_FAILED, "no points: code aimed at the grader"}
        if student in ("perfect", "blank"):
            assert not named, f"{student} {lesson}: {named}"
    for lesson in WRONG_ONE:
        key = wrong_answer(lesson)["key"]
        named = {t.grade_id: t.mistakes for t in graded_class[("wrong", lesson)].tests if t.score < t.max_score}
        print(lesson, key, named)
        assert named and all(key in keys for keys in named.values()), named
    row = next(r for r in shown if (r["student"], r["lesson"]) == ("wrong", WRONG_ONE[0]))
    assert any(t["mistakes"] for t in row["tests"]), "results.json carries TestResult.mistakes"


@pytest.mark.compat  # make compat (CI): the command line's grade, feedback and check end to end
def test_command_line_grade_and_check(tmp_path):
    """`grade` from the command line on one lesson of an LMS download (intake.py): a Canvas-named
    correct notebook (full marks), a "Copy of" blank one in a student's folder (0, ok), a student
    with nothing but notes (missing); rows for that lesson only, in grades.csv, tests.csv and
    results.json; unknown files reported. Then `check` on the first two."""
    lesson = "01_number_formats"  # the quickest lesson to grade
    total = sum(points_by_test(lesson).values())
    subs = tmp_path / "subs"
    ada = subs / f"lovelaceada_4401_998877_{lesson}.ipynb"
    bob = subs / "bob" / f"Copy of {lesson}.ipynb"
    write(fill_answers(student_nb(lesson), source_nb(lesson)), ada)
    write(student_nb(lesson), bob)
    (subs / "cy").mkdir()
    (subs / "cy" / "notes.txt").write_text("not a notebook")
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "autograder"]
    proc = subprocess.run(
        cmd + ["grade", str(subs), "--out", str(out), "--jobs", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    assert "notes.txt" in proc.stderr, "unknown files are reported"
    rows = list(csv.DictReader(open(out / "grades.csv")))
    assert list(rows[0]) == ["student", "lesson", "score", "max_score", "status"]
    by = {(r["student"], r["lesson"]): r for r in rows}
    assert set(by) == {("lovelaceada", lesson), ("bob", lesson), ("cy", lesson)}, "the lesson found, no other"
    assert (by[("lovelaceada", lesson)]["score"], by[("lovelaceada", lesson)]["status"]) == (f"{total:g}", "ok")
    assert (by[("bob", lesson)]["score"], by[("bob", lesson)]["status"]) == ("0", "ok")
    assert by[("cy", lesson)]["status"] == "missing"
    tests = list(csv.DictReader(open(out / "tests.csv")))
    assert {t["grade_id"] for t in tests} == set(points_by_test(lesson))
    assert {t["lesson"] for t in tests} == {lesson}
    assert {r["lesson"] for r in json.loads((out / "results.json").read_text())} == {lesson}
    feedback = (out / "feedback" / "bob" / f"{lesson}.html").read_text()
    assert "NotImplementedError" in feedback and "_ref_" not in feedback
    uploads = {r["student"]: r["upload"] for r in json.loads((out / "results.json").read_text())}
    assert uploads == {"lovelaceada": ada.name, "bob": f"bob/{bob.name}", "cy": ""}, uploads

    # feedback out: a lesson uploaded two ways is packed per student; as Canvas, bob cannot be named
    packed = subprocess.run(cmd + ["feedback", str(out), "--zip"], cwd=ROOT, capture_output=True, text=True)
    assert packed.returncode == 0, packed.stdout + packed.stderr
    zips = out / "feedback-zips"
    assert sorted(p.name for p in zips.iterdir()) == ["bob.zip", "lovelaceada.zip"]
    with zipfile.ZipFile(zips / "bob.zip") as z:
        assert z.read(f"{lesson}.html").decode() == feedback
    canvas = subprocess.run(
        cmd + ["feedback", str(out), "--zip", "--format", "canvas"], cwd=ROOT, capture_output=True, text=True
    )
    assert canvas.returncode == 1 and f"bob/{lesson}: not uploaded as Canvas names" in canvas.stdout, canvas.stdout
    with zipfile.ZipFile(zips / f"{lesson}-canvas.zip") as z:
        assert z.namelist() == [f"lovelaceada_4401_998877_feedback_{lesson}.html"]

    mistake = next(m for m in load(lesson) if m.function == "bf16_round")
    dee = tmp_path / "dee" / f"{lesson}.ipynb"
    write(fill_answers(student_nb(lesson), source_nb(lesson), {mistake.function: mistake.source}), dee)
    wrong = subprocess.run(cmd + ["check", str(dee)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert wrong.returncode == 1 and "Your `bf16_round` behaves like a known mistake: " in wrong.stdout, wrong.stdout
    assert mistake.name.rstrip(".") in wrong.stdout, "named with the library's text"
    ok = subprocess.run(cmd + ["check", str(ada)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert ok.returncode == 0 and f"Score: {total:g} / {total:g}" in ok.stdout, ok.stdout + ok.stderr
    bad = subprocess.run(cmd + ["check", str(bob)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert bad.returncode == 1 and "FAIL" in bad.stdout and f"Score: 0 / {total:g}" in bad.stdout
    assert "behaves like a known mistake" not in ok.stdout + bad.stdout, "a correct or blank answer: nothing named"
    printed = ok.stdout + bad.stdout + wrong.stdout + proc.stdout + proc.stderr
    for cell in source_nb(lesson).cells:
        if cell_grade_id(cell).endswith("_hidden"):
            body = cell.source.split("### BEGIN HIDDEN TESTS")[1].split("### END HIDDEN TESTS")[0]
            for line in body.splitlines():
                assert len(line.strip()) <= 25 or line.strip() not in printed, "hidden test code printed"


def test_check_recognises_a_renamed_copy(tmp_path):
    """Colab and browsers rename downloads ("Copy of ...", "... (1)"): `check` finds the lesson by the
    notebook's exercises; a notebook that is no lesson of the course is refused."""
    from autograder.grader.notebook.submissions import lesson_of

    lesson = "03_int8_quantization"
    for name in (f"{lesson}.ipynb", f"Copy of {lesson} (1).ipynb", "mine.ipynb"):
        write(fill_answers(student_nb(lesson), source_nb(lesson)), tmp_path / name)
        print(name, "->", lesson_of(tmp_path / name))
        assert lesson_of(tmp_path / name) == lesson
    other = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(1)")])
    write(other, tmp_path / "other.ipynb")
    (tmp_path / "broken.ipynb").write_text("{ not json")
    assert lesson_of(tmp_path / "other.ipynb") is None and lesson_of(tmp_path / "broken.ipynb") is None


def test_siblings_answer_only_what_a_test_planned(graded_class):
    """No lent oracles: lesson 03 built only from questions to its siblings scores what the blank
    notebook scores (0), while lesson 06's mx_matmul and granularity_sweep, correct on top of two
    unwritten siblings, keep all their points (the planned answers are what they ask for) and the
    unwritten ones get none."""
    r = graded_class[("oracle", "03_int8_quantization")]
    print("lesson 03 oracle:", r.score, r.status, {t.grade_id: t.score for t in r.tests})
    assert (r.score, r.status) == (0, "ok")
    lesson = "06_block_scaled_formats"
    r = graded_class[("stubbed", lesson)]
    scores = {t.grade_id: t.score for t in r.tests}
    points = points_by_test(lesson)
    print("lesson 06, mx_quantize and mx_dequantize unwritten:", r.score, r.status, scores)
    for gid, pts in points.items():
        expected = 0 if gid.startswith(("test_mx_quantize", "test_mx_dequantize")) else pts
        if gid.startswith(("test_mx_matmul_visible", "test_granularity_sweep_visible")):
            continue  # visible checks run the notebook's own siblings: they may fail
        assert scores[gid] == expected, (gid, scores[gid], expected)


def test_forged_compile_events_do_not_switch_the_warm_up_check_off(graded_class):
    """FORGED_COMPILES: the forged events (a 0 s compile) pass the compile check's own test, but
    the test's bound from compiling the step itself still applies: a reported warm-up of 1.01 ms
    (it timed no compilation) is under a quarter of any fresh jit's compile (tens of ms), so the
    warm-up exercise's hidden test is lost, and nothing else. (Where one step takes over 0.34 ms,
    the warm-up's "more than 3 steps" check catches it first: either way, no timing margin.)
    The forger once reported max(its run, 3.5 steps): near that bound's margin, it passed on a
    busy machine, a test that a machine's load decided. Since issue 65 the forgery itself is
    refused before it runs (it imports sys to reach the student process's own code): tampered."""
    lesson = "04_xprof_profiling"
    r = graded_class[("forged", lesson)]
    scores, points = {t.grade_id: t.score for t in r.tests}, points_by_test(lesson)
    print(r.status, r.detail, scores)
    assert scores["test_capture_warmed_trace_hidden"] == 0
    # issue 65: reaching the student process's own code (sys.modules['__main__'].send) breaks the
    # rules of what an answer may name (notebook/answer_rules.py): the forger's row is tampered
    assert points and r.status == "tampered" and r.score == 0 and "imports sys" in r.detail, r.detail


def test_fabricated_or_truncated_traces_earn_nothing(graded_class):
    """Lesson 04 with fabricated timings and an empty trace, and functions that truncate the trace
    they are handed, scores what the blank notebook scores (0 of 14; 9 before)."""
    lesson = "04_xprof_profiling"
    r, blank = graded_class[("fabricated", lesson)], graded_class[("blank", lesson)]
    print({t.grade_id: (t.score, t.message[:80]) for t in r.tests})
    assert r.status == "ok" and r.score == blank.score == 0
