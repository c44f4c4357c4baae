"""Grading on Gradescope (issue 33): the zips, and one lesson's run_autograder as Gradescope runs it.

``python -m autograder gradescope OUT`` writes a zip per lesson holding what grading needs and
nothing else; lesson 01's zip, unpacked into a Gradescope layout (tests/gradescope_harness.py) and
run with this project's venv, grades the example class's perfect notebook (uploaded as "Copy of
...", its answer also trying to write results.json itself, in a container without user
namespaces: the fallback, said in the output) exactly as ``grade`` grades the same bytes with the
same seed; every results.json validates against Gradescope's schema,
a hidden check says passed or failed only, and a sandbox that cannot start is an autograder failure
(no results.json), never a zero. ``make gradescope-check`` (tests/test_gradescope_setup.py) runs
setup.sh into a fresh venv and every lesson.
"""

import csv
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import jsonschema
import nbformat
import pytest

from autograder.gradescope.results import results_json
from autograder.gradescope.run import find_notebook
from autograder.grader.core.model import Outcome, Result, Status, TestResult
from conftest import LESSONS, ROOT
from gradescope_harness import SCHEMA, fake_bwrap, per_check, results, run_autograder, submit, unpack

pytestmark = pytest.mark.slow
LESSON = "01_number_formats"
SEED = 20261205
EXAMPLES = ROOT / "examples" / "submissions"
# One upload keeps `make test` within its budget (renamed, writing its own results, in a container
# without user namespaces); `make gradescope-check` runs the example class's perfect, blank,
# mistaken and hostile notebooks of every lesson.
UPLOADS = ["perfect, renamed, writes its own results, no user namespaces", "wrong, with issue 57's 4 KB literal"]
FORGED = {"score": 1000.0, "output": "forged by the submission", "tests": []}


def writes_results(results_dir: Path) -> bytes:
    """ada's perfect notebook whose bf16_round first tries to write results.json (Gradescope's
    path and this root's) with 1000 points, then answers correctly."""
    nb = nbformat.read(str(EXAMPLES / "ada" / f"{LESSON}.ipynb"), as_version=4)
    cell = next(c for c in nb.cells if "def bf16_round(" in c.source)
    cell.source = cell.source.replace("def bf16_round(", "def correct_bf16_round(") + (
        "\n\n\ndef bf16_round(x):\n"
        "    import json\n"
        f"    for path in ('/autograder/results/results.json', {str(results_dir / 'results.json')!r}):\n"
        "        try:\n"
        "            with open(path, 'w') as f:\n"
        f"                f.write(json.dumps({FORGED!r}))\n"
        "        except Exception:\n"
        "            pass\n"
        "    return correct_bf16_round(x)\n"
    )
    return nbformat.writes(nb).encode()


def huge_literal() -> bytes:
    """Issue 57: ada's notebook whose bf16_round answer is wrong and sits beside a 4 KB hexadecimal
    literal (past Python's int-to-str limit: the plan crashed, Gradescope wrote no results.json)."""
    from hostile_code import CRAFTED

    nb = nbformat.read(str(EXAMPLES / "ada" / f"{LESSON}.ipynb"), as_version=4)
    cell = next(c for c in nb.cells if "def bf16_round(" in c.source)
    cell.source = CRAFTED["hex literal (issue 57)"]
    return nbformat.writes(nb).encode()


# name -> (the upload's bytes, its file name, the Gradescope user id, whether user namespaces fail)
def uploads(results_dir: Path) -> dict:
    made = {
        UPLOADS[0]: (writes_results(results_dir), f"Copy of {LESSON}.ipynb", 1001, True),
        UPLOADS[1]: (huge_literal(), f"{LESSON}.ipynb", 1003, False),
    }
    assert list(made) == UPLOADS
    return made


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """The zips (the command as an instructor runs it), lesson 01's unpacked into a Gradescope root,
    and `grade`'s rows for the same uploads with the same seed."""
    tmp = tmp_path_factory.mktemp("gradescope")
    out = tmp / "zips"
    cmd = [sys.executable, "-m", "autograder", "gradescope", str(out), "--seed", str(SEED)]
    made = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    print(made.stdout, made.stderr)
    assert made.returncode == 0
    root = unpack(out / f"{LESSON}-autograder.zip", tmp / "autograder")
    subs = tmp / "class"
    for content, name, user, _ in uploads(root / "results").values():
        (subs / str(user)).mkdir(parents=True)
        (subs / str(user) / name).write_bytes(content)
    graded = tmp / "graded"
    cmd = [sys.executable, "-m", "autograder", "grade", str(subs), "--out", str(graded), "--jobs", "2"]
    proc = subprocess.run(cmd + ["--seed", str(SEED)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    print(proc.stdout[-2000:], proc.stderr[-2000:])
    assert proc.returncode == 0
    rows = {r["student"]: r for r in csv.DictReader(open(graded / "grades.csv"))}
    checks: dict = {}
    for r in csv.DictReader(open(graded / "tests.csv")):
        checks.setdefault(r["student"], {})[r["grade_id"]] = float(r["score"])
    return {"out": out, "stdout": made.stdout, "root": root, "rows": rows, "checks": checks, "tmp": tmp}


def test_a_lessons_zip_takes_of_its_folder_the_notebook_and_the_library_alone():
    """A lesson's folder holds instructor-only companions grading does not need (alternatives,
    held-out answers, claims, independent answers, the chip's record, lesson.toml): the zip carries
    the notebook and the library of known mistakes (the diagnosis names them), nothing else."""
    from autograder.common.lessonfolder import files
    from autograder.gradescope.build import course_files

    left_out = set()
    for lesson in LESSONS:
        taken = {p.as_posix() for p in course_files(lesson) if p.parts[0] == "solutions"}
        assert taken == {f"solutions/{lesson}/{lesson}.ipynb", f"solutions/{lesson}/mistakes.py"}, taken
        left_out |= set(files(lesson)) - {f"{lesson}.ipynb", "mistakes.py"}
    assert {"alternatives.py", "claims.py", "chip/outcomes.json"} <= left_out, "the folders hold them"


def test_one_command_writes_a_zip_per_lesson_holding_grading_and_nothing_else(course):
    """Each zip: setup.sh and run_autograder (executable) at its root, the grader, its own lesson's
    solution and release, the grading pins; never tests/, examples/, mutants, alternatives,
    lessoncheck or another lesson; the command says the zips are instructor-only."""
    assert sorted(p.name for p in course["out"].iterdir()) == sorted(f"{n}-autograder.zip" for n in LESSONS)
    assert "INSTRUCTOR-ONLY" in course["stdout"] and "HIDDEN TESTS" in course["stdout"]
    for lesson in LESSONS:
        with zipfile.ZipFile(course["out"] / f"{lesson}-autograder.zip") as z:
            names = z.namelist()
            modes = {i.filename: i.external_attr >> 16 for i in z.infolist()}
            config = json.loads(z.read("gradescope.json"))
            requirements = z.read("requirements.txt").decode().split()
        for script in ("setup.sh", "run_autograder"):
            assert script in names and modes[script] & 0o111, script
        assert f"solutions/{lesson}/{lesson}.ipynb" in names and f"notebooks/{lesson}/{lesson}.ipynb" in names
        assert "autograder/grader/notebook/grade.py" in names and "autograder/gradescope/run.py" in names
        tops = {n.split("/")[0] for n in names}
        assert tops <= {"setup.sh", "run_autograder", "requirements.txt", "gradescope.json", "INSTRUCTOR_ONLY.txt"} | {
            "autograder",
            "solutions",
            "notebooks",
            "pyproject.toml",
            "LICENSE",
        }, tops
        lessons_inside = {n.split("/")[1] for n in names if n.startswith(("solutions/", "notebooks/"))}
        assert lessons_inside == {lesson}
        folder = {n for n in names if n.startswith(f"solutions/{lesson}/")}
        assert folder == {f"solutions/{lesson}/{lesson}.ipynb", f"solutions/{lesson}/mistakes.py"}, folder
        assert not [n for n in names if "lessoncheck" in n or "__pycache__" in n or n.endswith(".pyc")]
        assert config["lesson"] == lesson and config["settings"]["seed"] == SEED
        assert config["hidden_visibility"] == "after_published" and config["settings"]["emulation"] == "tpu"
        assert "jax==0.12.1" in requirements and "nbgrader==0.9.6" in requirements
        assert not [r for r in requirements if r.split("==")[0] in ("pytest", "ruff", "playwright", "dask")]


@pytest.mark.parametrize("upload", UPLOADS)
def test_run_autograder_grades_each_upload_as_grade_does(course, upload):
    """run_autograder's results.json: valid, the same score and per-check scores as grade's rows
    for the same bytes and seed, written after grading over whatever the results folder held,
    hidden checks passed or failed only and shown after publishing, the status and the sandbox's
    layers at the top."""
    root = course["root"]
    content, name, user, no_userns = uploads(root / "results")[upload]
    submit(root, content, name, user)
    (root / "results" / "results.json").write_text(json.dumps(FORGED))  # a results.json before grading
    fake = fake_bwrap(course["tmp"] / "no-userns", probe_passes=False) if no_userns else None
    proc = run_autograder(root, python=sys.executable, fake_bin=fake)
    assert proc.returncode == 0
    data = results(root)
    row = course["rows"][str(user)]
    print(upload, data["score"], row, data["output"])
    assert data["score"] == float(row["score"]) and data["output"] != FORGED["output"]
    assert per_check(data) == course["checks"][str(user)]
    assert sum(t["max_score"] for t in data["tests"]) == float(row["max_score"])
    assert f"Status: {row['status']}" in data["output"]
    for t in data["tests"]:
        hidden = t["tags"][1] == "hidden"
        assert t["visibility"] == ("after_published" if hidden else "visible")
        if hidden:  # passed or failed, and under a failed one at most the rule it broke and the library's known mistake
            first, *rest = t["output"].split("\n")
            assert first in ("passed", "failed"), t["output"]
            assert all(x.startswith(("Your `", "Rule broken: ")) for x in rest), t["output"]
    layers = [line for line in data["output"].splitlines() if line.startswith("sandbox: ")]
    assert len(layers) == 1
    assert ("WITHOUT namespaces" in layers[0]) == no_userns and ("bubblewrap namespaces" in layers[0]) != no_userns
    if upload.startswith("hostile"):
        assert row["status"] == "tampered" and data["score"] == 0
    if upload.startswith("perfect"):  # its answer also tried to write results.json: graded as the perfect one it is
        assert data["score"] == float(row["max_score"])
    if upload.startswith("wrong"):  # a wrong answer's grade: results.json with its points, never an autograder failure
        assert row["status"] == "ok" and 0 < data["score"] < float(row["max_score"])


def test_a_sandbox_that_cannot_start_is_an_autograder_failure(course):
    """bwrap passes the grader's probe, then starts nothing: no results.json at all (Gradescope shows
    "The autograder failed to execute correctly"), exit status 2, the reason on stdout (what
    instructors see); never a zero."""
    root = course["root"]
    content, name, user, _ = uploads(root / "results")[UPLOADS[0]]
    submit(root, content, name, user)
    (root / "results" / "results.json").write_text(json.dumps(FORGED))
    proc = run_autograder(root, python=sys.executable, fake_bin=fake_bwrap(course["tmp"] / "broken", True))
    assert proc.returncode == 2
    assert not (root / "results" / "results.json").exists()
    assert "AUTOGRADER FAILURE" in proc.stdout and "sandbox" in proc.stdout


@pytest.mark.compat  # make compat (CI): a process-table attack on Gradescope without a cgroup
def test_a_fork_and_exit_chain_ends_with_its_notebook_on_gradescope_without_a_cgroup(course):
    """Gradescope's container as the red team found it: no user namespaces, no cgroup the grader
    may make, the grader root. An upload whose bf16_round starts a fork-and-exit chain in a session
    of its own: results.json is written (0 points: code aimed at the grader voids the notebook), and
    when run_autograder returns, and a second later, no link of the chain is alive (its checker ends
    them when it stops the student's process, gradescope/run.py whatever is left before writing)."""
    import os
    import time
    import uuid

    from test_sandbox_bounds import CHAIN, chain_processes, kill_chain, no_cgroup

    if os.geteuid() != 0:
        pytest.skip("Gradescope's grader is root: so are the tests that stand for it")
    root = course["root"]
    token = "chain-" + uuid.uuid4().hex[:8]
    nb = nbformat.read(str(EXAMPLES / "ada" / f"{LESSON}.ipynb"), as_version=4)
    cell = next(c for c in nb.cells if "def bf16_round(" in c.source)
    cell.source = CHAIN.replace("TOKEN", repr(token.encode()))
    submit(root, nbformat.writes(nb).encode(), f"{LESSON}.ipynb", 1002)
    fake = fake_bwrap(course["tmp"] / "no-userns", probe_passes=False)
    try:
        proc = run_autograder(root, python=sys.executable, fake_bin=fake, wrap=no_cgroup([]))
        left = chain_processes(token)
        time.sleep(1)
        left += chain_processes(token)
    finally:
        kill_chain(token)
    assert proc.returncode == 0 and left == [], left
    data = results(root)
    layers = next(line for line in data["output"].splitlines() if line.startswith("sandbox: "))
    assert "WITHOUT namespaces" in layers and "no cgroup" in layers and "uid 65534" in layers, layers
    assert data["score"] == 0 and "Status: tampered" in data["output"], "forking and setsid: code aimed at the grader"


def hand_made(hidden_error: str) -> Result:
    secret = TestResult("test_f_hidden", 0.0, 2.0, hidden_error, True, "Hidden test: f on fresh inputs.")
    secret.message, secret.output, secret.outcome = "expected 42.125 for x=[7, 9]", "x=[7, 9] -> 41", Outcome.WRONG
    shown = TestResult("test_f_visible", 0.0, 1.0, "AssertionError: f(2) should be 4", False, "Visible test: f(2).")
    shown.output, shown.outcome = "f(2) returned 5", Outcome.WRONG
    return Result("1001", LESSON, 0.0, 3.0, Status.OK, tests=[shown, secret], shown_status="ok")


@pytest.mark.parametrize("visibility", ["hidden", "after_due_date", "after_published", "visible"])
def test_a_hidden_check_shows_passed_or_failed_only(visibility):
    """Whatever the grader recorded about a hidden check (its message, what it printed, even an
    error text), results.json says "failed" and nothing else, with the visibility asked for; a
    visible check says what the feedback page says. The schema rejects what Gradescope does not
    document (it can fail)."""
    data = results_json(hand_made("expected 42.125"), visibility, "sandbox: test", 3.2)
    jsonschema.validate(data, SCHEMA)
    text = json.dumps(data)
    assert "42" not in text and "[7, 9]" not in text
    hidden = next(t for t in data["tests"] if t["tags"][1] == "hidden")
    shown = next(t for t in data["tests"] if t["tags"][1] == "visible")
    assert hidden["output"] == "failed" and hidden["visibility"] == visibility
    assert "f(2) should be 4" in shown["output"] and "f(2) returned 5" in shown["output"]
    assert shown["visibility"] == "visible" and data["execution_time"] == 3
    assert ("0 / 3" in data["output"]) == (visibility == "visible")  # the total waits with the hidden checks
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**data, "status": "ok"}, SCHEMA)
    with pytest.raises(ValueError):
        results_json(Result("1001", LESSON, status=Status.GRADER_ERROR), visibility, "", 0)


def test_a_failed_check_names_its_known_mistake_as_the_feedback_page_does():
    """Issue 32 on Gradescope: under a failed check (hidden too) the known mistake it behaves like,
    in the library's words; nothing under a passed one, nothing of the hidden test's own text."""
    from autograder.common import mistakes

    key = mistakes.load(LESSON)[0].key
    r = hand_made("expected 42.125")
    for t in r.tests:
        t.mistakes = [key]
    data = results_json(r, "visible", "sandbox: test", 1.0)
    jsonschema.validate(data, SCHEMA)
    [line] = mistakes.sentence([key])
    for t in data["tests"]:
        assert t["output"].endswith(line), t["output"]
    hidden = next(t for t in data["tests"] if t["tags"][1] == "hidden")
    assert hidden["output"] == "failed\n" + line and "42" not in hidden["output"]
    r.tests[0].score, r.tests[0].outcome = r.tests[0].max_score, Outcome.PASSED
    assert "known mistake" not in results_json(r, "visible", "", 1.0)["tests"][0]["output"]


def test_the_upload_s_notebook_is_found_whatever_its_name(tmp_path):
    """One notebook of the lesson under any name is graded; next to other files and another
    lesson's notebook it is picked by its exercises (and the note says so); none, another lesson's
    alone, or a symlink (never read) are named, never graded as this lesson."""
    ours, other = ROOT / "notebooks" / LESSON / f"{LESSON}.ipynb", ROOT / "notebooks" / LESSONS[1]
    sub = tmp_path / "submission"
    sub.mkdir()
    assert find_notebook(sub, LESSON)[0] is None
    (sub / "notes.txt").write_text("hello")
    (sub / "link.ipynb").symlink_to(ours)
    assert find_notebook(sub, LESSON)[0] is None
    (sub / "Copy of mine.ipynb").write_bytes((other / f"{LESSONS[1]}.ipynb").read_bytes())
    path, why = find_notebook(sub, LESSON)
    assert path is None and "not a notebook of" in why and "Copy of mine.ipynb" in why
    (sub / "deep").mkdir()
    (sub / "deep" / "work.ipynb").write_bytes(ours.read_bytes())
    path, why = find_notebook(sub, LESSON)
    assert path == sub / "deep" / "work.ipynb" and "graded work.ipynb" in why


def test_what_a_hidden_check_may_show_is_one_definition():
    """Issue 44 (5): the harness's pre-term check (tests/test_gradescope_setup.py) and this file
    judge a hidden check's text with results.hidden_shows: its outcome, then only the library's
    sentence of a known mistake under a failed one; a message, a printed line or a sentence under
    a passed check is refused."""
    from autograder.grader.classroom.studentview import check_of
    from autograder.gradescope.results import check_output, hidden_shows

    secret = hand_made("expected 42.125").tests[1]
    assert hidden_shows(check_output(check_of(secret))) and check_output(check_of(secret)) == "failed"
    secret.mistakes = ["02_matmul_accumulation:evaluate_precision_policies:float16-not-bfloat16"]
    named = check_output(check_of(secret))
    print(named)
    assert named.startswith("failed\nYour `evaluate_precision_policies` behaves like") and hidden_shows(named)
    assert not hidden_shows("failed\nexpected 42.125 for x=[7, 9]")
    assert not hidden_shows("passed\nYour `f` behaves like a known mistake: x.")
    assert not hidden_shows("failed: expected 42.125")
