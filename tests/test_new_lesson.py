"""Issue 59 (5): a lesson is one folder, and a new one needs nothing else. In a temporary copy of the
course, `python -m autograder.course.lessoncheck new` writes a throw-away lesson from the skeleton;
every place that lists, counts or hands out lessons finds it from its folder alone; `lessoncheck
check` says what to run next where the release is missing, then passes every step (the suite's own
per-lesson tests, make compat's tier included), the lesson shown as not yet recorded on a TPU; and a
broken lesson stops at the step that names the problem. The worked example of docs/AUTHORING.md is
the skeleton's code, line for line.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.common.notebooks import every_lesson
from conftest import ROOT

pytestmark = pytest.mark.slow  # runs lessoncheck's every step on a throw-away lesson (about 55 s of CPU)

# the throw-away lesson: the number after the course's last lesson, whatever it is
NEW = f"{int(every_lesson(ROOT)[-1][:2]) + 1:02d}_bf16_gaps"
TITLE = "Gaps between bfloat16 numbers"


def course_copy(target: Path) -> Path:
    """The course as git sees it (tracked files, and untracked ones it does not ignore), in ``target``."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    for rel in filter(None, listed.split("\0")):
        src = ROOT / rel
        if src.is_file():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target / rel)
    return target


def course(root: Path, *args: str, module: str = "autograder.course.lessoncheck") -> subprocess.CompletedProcess:
    """A command of the course copy at ``root`` (its own code: the working folder comes first)."""
    env = {k: v for k, v in os.environ.items() if k not in ("COURSE_LESSONS", "PYTHONPATH")}
    return subprocess.run([sys.executable, "-m", module, *args], cwd=root, capture_output=True, text=True, env=env)


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    root = course_copy(tmp_path_factory.mktemp("course"))
    made = course(root, "new", NEW, TITLE)
    assert made.returncode == 0, made.stdout + made.stderr
    assert f"python -m autograder.course.lessoncheck check {NEW}" in made.stdout, made.stdout
    return root


def test_a_new_lesson_is_found_everywhere_from_its_folder(copy):
    """No list, count or split names the lessons: the README's count, table and chip status, the
    student README's lines, make test's work units, the release's files and a Gradescope zip all
    take the new lesson from its folder; the grader records it as not yet recorded on a TPU."""
    from autograder.common import lessonfolder
    from autograder.course.publish import student_readme
    from autograder.course.release import count_word, readme_with_lessons
    from autograder.gradescope.build import course_files
    from autograder.grader.classroom.classrun import provenance
    from autograder.grader.core.settings import Settings
    from conftest import work_unit

    assert every_lesson(copy) == [*every_lesson(ROOT), NEW]
    assert sorted(lessonfolder.files(NEW, copy)) == sorted(
        [f"{NEW}.ipynb", "lesson.toml", "mistakes.py", "alternatives.py", "heldout.py", "claims.py"]
    )
    assert lessonfolder.released_files(NEW, copy) == [f"{NEW}.ipynb"] and lessonfolder.stray_files(NEW, copy) == []
    readme = readme_with_lessons(copy)
    count = len(every_lesson(copy))
    assert f"lessons-count:start -->{count_word(count)}<" in readme and count_word(7) == "Seven"
    assert f"| {NEW[:2]} | [{TITLE}](notebooks/{NEW}/{NEW}.ipynb)" in readme
    # the new lesson among those not yet recorded (an author's own unrecorded lesson may stand beside it)
    status = re.search(r"\*\*not yet recorded on a TPU: ([^*]+)\*\* \(graded and tested under the emulation", readme)
    assert status and NEW in status.group(1).split(", "), readme
    assert f"- **{NEW[:2]} {TITLE}**: how far apart neighbouring bfloat16 numbers are" in student_readme(copy)
    zipped = {p.as_posix() for p in course_files(NEW, copy) if p.parts[0] == "solutions"}
    assert zipped == {f"solutions/{NEW}/{NEW}.ipynb", f"solutions/{NEW}/mistakes.py"}
    assert provenance(copy, Settings())["chip_records"][NEW] == ""
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:nbmake", "--collect-only", "-q", "tests/test_notebooks.py"],
        cwd=copy,
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "COURSE_LESSONS"},
    ).stdout
    units = {work_unit(line) for line in collected.splitlines() if "::" in line}
    assert f"tests/test_notebooks.py[{NEW}]" in units and len(units) == count, units


def test_lessoncheck_says_what_to_run_next_then_every_step_passes(copy):
    """Before the release, `check` passes the steps that need none and stops at the release with the
    command to run (no traceback); after `python -m autograder release`, every step passes, make
    compat's tier for the lesson included, and the chip step says the lesson is not yet recorded on
    a TPU (its chip tests skip: make test is green without a chip)."""
    before = course(copy, "check", NEW)
    print(before.stdout[-3000:], before.stderr[-2000:])
    assert before.returncode == 1 and "Traceback" not in before.stdout + before.stderr
    assert re.search(r"\[4/8\] release: .*\n +MISSING the student release is missing or stale", before.stdout)
    assert "next: python -m autograder release" in before.stdout
    assert all(f"] {step}:" in before.stdout for step in ("folder", "skeleton", "library"))
    released = course(copy, "release", module="autograder")
    assert released.returncode == 0, released.stdout + released.stderr
    assert sorted(p.name for p in (copy / "notebooks" / NEW).iterdir()) == [f"{NEW}.ipynb"]
    after = course(copy, "check", NEW)
    print(after.stdout[-6000:], after.stderr[-2000:])
    assert after.returncode == 0 and after.stdout.rstrip().endswith(f"{NEW}: every step passed")
    assert after.stdout.count(" ok: ") == 8 and "FAILED" not in after.stdout
    assert "not yet recorded on a TPU" in after.stdout and "skipped" in after.stdout.split("] chip:")[1]


@pytest.fixture
def broken(tmp_path) -> Path:
    root = course_copy(tmp_path / "course")
    assert course(root, "new", NEW, TITLE).returncode == 0
    return root


def test_a_broken_lesson_stops_at_the_step_that_names_its_problem(broken):
    """A hidden assertion without its rule stops `check` at the skeleton step, before anything runs a
    notebook, with the suite's own message; a stray file in the folder stops the folder step, and
    the release refuses it in one sentence."""
    notebook = broken / "solutions" / NEW / f"{NEW}.ipynb"
    text = notebook.read_text()
    notebook.write_text(text.replace("# rule: `bf16_spacing` leaves its input unchanged", "", 1))
    found = course(broken, "check", NEW)
    print(found.stdout[-3000:])
    assert found.returncode == 1 and found.stdout.rstrip().endswith(f"{NEW}: failed at skeleton")
    assert "an assertion without a rule" in found.stdout and "[3/8]" not in found.stdout
    notebook.write_text(text)
    (broken / "solutions" / NEW / "make_lesson.py").write_text("# the author's scratch script\n")
    stray = course(broken, "check", NEW, "--step", "folder")
    assert stray.returncode == 1 and "files students would get" in stray.stdout
    refused = course(broken, "release", module="autograder")
    assert refused.returncode == 1 and "Traceback" not in refused.stdout + refused.stderr
    assert f"solutions/{NEW}/make_lesson.py" in refused.stdout and "students would get it" in refused.stdout


def test_the_worked_example_of_authoring_is_the_skeleton_s_code():
    """docs/AUTHORING.md's worked example is skeleton.worked_example as it stands, so what a reader
    copies from the page is what `lessoncheck new` writes and this file proves."""
    import inspect

    from autograder.course import skeleton

    code = inspect.getsource(skeleton.worked_example)
    doc = (ROOT / "docs" / "AUTHORING.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", doc, flags=re.S)
    assert any(code.strip() in b for b in blocks), "docs/AUTHORING.md's worked example is not skeleton.worked_example"


def test_authoring_documents_claims_files_as_the_claims_test_reads_them():
    """A new author learns claims.py from docs/AUTHORING.md alone (a newcomer's trial could not,
    when only tests/test_claims.py's docstring said it): the section names every name the claims
    test reads of a claims file, and its example's claims and pair are the skeleton's own."""
    import ast

    from autograder.course import skeleton

    doc = (ROOT / "docs" / "AUTHORING.md").read_text()
    section = doc.split("## Claims that back an explanation", 1)[1].split("\n## ", 1)[0]
    claims_test = (ROOT / "tests" / "test_claims.py").read_text()
    names = set(re.findall(r'claims_file(?:_cached)?\([^)]*\)\.get\("([A-Z]+)"', claims_test))
    assert names >= {"CLAIMS", "HELPERS", "EAGER", "DISTINCT", "EXEMPT"}, names
    assert all(f"| `{n}` |" in section for n in names), names
    example = re.search(r"```python\n(.*?)```", section, flags=re.S).group(1)
    made = skeleton.CLAIMS.format(lesson=NEW)
    claims = [c.value for c in ast.walk(ast.parse(example)) if isinstance(c, ast.Constant) and isinstance(c.value, str)]
    assert claims and all(repr(c) in made or f'"{c}"' in made for c in claims), claims


def test_authoring_lists_every_step_of_lessoncheck_check():
    """docs/AUTHORING.md's table of `lessoncheck check`'s steps names each step, in order."""
    from autograder.course.lessoncheck.steps import STEPS

    doc = (ROOT / "docs" / "AUTHORING.md").read_text()
    rows = re.findall(r"^\| `([^`]+)` \|", doc.split("## A new lesson, step by step", 1)[1], flags=re.M)
    assert rows[: len(STEPS)] == [s.name for s in STEPS], rows
