"""`python -m autograder publish DIR`: the student-only tree holds the committed release (badges
opening the student repository), a student README and the licence, and nothing hidden."""

import json
import re
import shutil
from pathlib import Path

import nbformat
import pytest

from autograder.course import presubmit_build, publish as pub
from autograder.chip import emulation
from autograder.common.config import RELEASE_DIR, colab_url, course_settings, emulation_url, student_repository
from conftest import LESSONS, ROOT

OTHER = "https://github.com/some-university/precision-course-student"
BLOCK = re.compile(r"### BEGIN (SOLUTION|HIDDEN TESTS)\n?(.*?)### END \1", re.S)
MARKERS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")


# the course's own code beside the lessons, generated from autograder/ (chip/: the emulation; course/presubmit.py
# and the grader's studentcode.py: the self-check)
COURSE_CODE = (emulation.STUDENT_MODULE, presubmit_build.STUDENT_MODULE)


def course_copy(dest, student=None, lessons=LESSONS):
    """This course's sources, release and settings in ``dest``, with ``student_repository`` set
    to ``student`` (or unset)."""
    for lesson in lessons:
        for folder in ("solutions", RELEASE_DIR):
            if (ROOT / folder / lesson).is_dir():  # a lesson not released yet: publish must refuse
                shutil.copytree(ROOT / folder / lesson, dest / folder / lesson)
    (dest / RELEASE_DIR).mkdir(parents=True, exist_ok=True)
    for module in COURSE_CODE:
        shutil.copy(ROOT / RELEASE_DIR / module, dest / RELEASE_DIR / module)
    for name in ("README.md", "LICENSE", pub.CHIP_RECORD):
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, dest / name)
    toml = re.sub(r"^student_repository\s*=.*\n", "", (ROOT / "pyproject.toml").read_text(), flags=re.M)
    if student:
        toml = toml.replace("[tool.course]\n", f'[tool.course]\nstudent_repository = "{student}"\n')
    (dest / "pyproject.toml").write_text(toml)
    assert student_repository(dest) == (student or course_settings(dest)["repository"])
    return dest


def files(folder):
    return {p.relative_to(folder) for p in folder.rglob("*") if p.is_file() and ".git" not in p.parts}


def strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for key, value in obj.items():
            yield key
            yield from strings(value)
    elif isinstance(obj, list):
        for value in obj:
            yield from strings(value)


def published_text(folder) -> dict:
    """Every file's text, notebooks decoded from JSON (so quotes and newlines read as written)."""
    return {
        rel: "\n".join(strings(json.loads((folder / rel).read_text())))
        if rel.suffix == ".ipynb"
        else (folder / rel).read_text(errors="replace")
        for rel in files(folder)
    }


def secrets() -> tuple[list[str], str]:
    """(every line of every solution and hidden-test block that the source notebooks do not show
    anywhere outside those blocks, 10 characters or longer; the public text)."""
    hidden, public = set(), []
    for lesson in LESSONS:
        nb = nbformat.read(str(ROOT / "solutions" / lesson / f"{lesson}.ipynb"), as_version=4)
        for cell in nb.cells:
            hidden |= {line.strip() for m in BLOCK.finditer(cell.source) for line in m.group(2).splitlines()}
            public.append(BLOCK.sub("", cell.source))
    public = "\n".join(public)
    return sorted(line for line in hidden if len(line) >= 10 and line not in public), public


def leaks(texts: dict) -> list[str]:
    lines, _ = secrets()
    found = []
    for rel, text in sorted(texts.items()):
        found += [f"{rel}: marker {m!r}" for m in MARKERS if m in text]
        course_code = rel.name in COURSE_CODE  # the grader's rule on the prefix, never a reference's name
        found += [
            f"{rel}: reference name {n}"
            for n in sorted(set(re.findall(r"_ref_\w*", text)))
            if n != "_ref_" or not course_code
        ]
        if not course_code:
            found += [f"{rel}: hidden line {line!r}" for line in lines if line in text]
    return found


def assert_is_the_committed_release(out, root, student):
    """Every notebook equals the committed release byte for byte, except, when the student
    repository is another one, the badge URL (once, in the title cell)."""
    committed = root / RELEASE_DIR
    assert files(out / RELEASE_DIR) == files(committed)
    for rel in sorted(files(committed)):
        lesson = rel.parts[0]
        mine, theirs = (committed / rel).read_bytes(), (out / RELEASE_DIR / rel).read_bytes()
        if student == course_settings(root)["repository"] or len(rel.parts) == 1:  # the emulation module
            assert theirs == mine, f"{rel} differs from the committed release"
            continue
        url, student_url = colab_url(lesson, root).encode(), colab_url(lesson, root, student).encode()
        assert mine.count(url) == 1 and url not in theirs and theirs.count(student_url) == 1
        # the setup cell downloads the emulation from the repository students open, as the badge opens it
        fetch, student_fetch = emulation_url(root).encode(), emulation_url(root, student).encode()
        assert mine.count(fetch) == 1 and fetch not in theirs and theirs.count(student_fetch) == 1
        assert theirs == mine.replace(url, student_url).replace(fetch, student_fetch), (
            f"{rel}: more than the URLs differ"
        )
        first = nbformat.reads(theirs.decode(), as_version=4).cells[0].source
        assert student_url.decode() in first and "colab-badge.svg" in first


@pytest.fixture(scope="module", params=["same", "other"])
def published(request, tmp_path_factory):
    """(DIR, course root, student repository): a publish of a copy of this course whose
    student_repository is unset ("same": the badges keep `repository`) or another repository."""
    base = tmp_path_factory.mktemp(f"publish-{request.param}")
    student = OTHER if request.param == "other" else None
    root = course_copy(base / "course", student)
    flag = [] if student else ["--upstream-is-public"]  # unset: publishing the upstream is said out loud
    assert pub.main([str(base / "public"), *flag], root=root) == 0
    return base / "public", root, student_repository(root)


def test_only_student_files_are_published(published):
    out, root, _ = published
    release = {Path(RELEASE_DIR) / p for p in files(root / RELEASE_DIR)}
    assert files(out) == release | {Path(n) for n in ("README.md", "LICENSE", "requirements.txt")}
    assert not any(part in ("solutions", "tests", "autograder", "examples") for p in files(out) for part in p.parts)
    assert (out / "LICENSE").read_bytes() == (ROOT / "LICENSE").read_bytes()
    assert "Apache License" in (out / "LICENSE").read_text() and "Version 2.0" in (out / "LICENSE").read_text()


def test_published_notebooks_are_the_committed_release(published):
    out, root, student = published
    assert_is_the_committed_release(out, root, student)


def test_nothing_hidden_is_published(published):
    out, _, _ = published
    assert leaks(published_text(out)) == []


def test_no_known_mistake_is_published(published):
    """The course copy holds the library of known mistakes (solutions/<NN_name>/mistakes.py); the
    published tree holds neither the file nor a line of any wrong answer (tests/test_mistakes.py)."""
    from test_mistakes import FILE_NAME, mistakes_in

    out, root, _ = published
    assert all((root / "solutions" / lesson / FILE_NAME).is_file() for lesson in LESSONS)
    assert not list(out.rglob(FILE_NAME))
    assert mistakes_in(published_text(out)) == []


def test_student_readme_has_the_lessons_badges_how_to_run_check_submit_and_licence(published):
    out, root, student = published
    readme = (out / "README.md").read_text()
    for lesson in LESSONS:
        assert f"({colab_url(lesson, root, student)})" in readme
        assert f"]({RELEASE_DIR}/{lesson}/{lesson}.ipynb)" in readme and (out / RELEASE_DIR / lesson).is_dir()
    if student != course_settings(root)["repository"]:
        assert course_settings(root)["repository"].removeprefix("https://github.com/") not in readme
    sections = ("## Lessons", "## How to run a lesson", "## How to check an answer", "## How to submit", "## Licence")
    for heading in sections:
        assert heading in readme
    assert "Apache-2.0" in readme and "[LICENSE](LICENSE)" in readme
    assert readme.startswith((ROOT / "README.md").read_text().split("\n", 1)[0])  # the course's title
    for instructor_only in ("make run", "make test", "solutions/", "autograder check", "examples/"):
        assert instructor_only not in readme


# Words of the grader's internals, which a student README has no use for (issue 58).
GRADER_INTERNALS = ("calibrat", "cast patterns", "patterns recorded", "golden", "mutant", "sandbox", "bubblewrap")


def test_student_readme_serves_students(published):
    """The student README says what a student learns, how to run a lesson, how to check an answer
    and how to submit, in its own sections; it sends no reader to a section it does not have (the
    repository README's "Tested on" is not published) and speaks of none of the grader's internals."""
    out, _, _ = published
    readme = (out / "README.md").read_text()
    headings = re.findall(r"^#+ (.+)$", readme, flags=re.M)
    for heading in ("What you will learn", "How to run a lesson", "How to check an answer", "How to submit"):
        assert heading in headings, f"no section {heading!r}: {headings}"
    for lesson in LESSONS:
        assert f"**{lesson[:2]} " in readme.split("## What you will learn", 1)[1].split("\n## ", 1)[0], lesson
    referred = re.findall(r'(?:see|in|under)\s+(?:the\s+)?"([^"]+)"', readme, flags=re.I)
    assert [r for r in referred if r not in headings] == [], "a reference to a section the README lacks"
    assert [w for w in GRADER_INTERNALS if w in readme.lower()] == []
    assert "quick check" in readme and "On a CPU runtime the lessons compute as a TPU v5e does by default" in readme


def test_student_readme_says_where_each_version_comes_from(published):
    """The pins (requirements.txt) and the chip's record name different JAX versions: the README
    gives both, each with its runtime, taken from their sources, and names no other."""
    out, root, _ = published
    readme = " ".join((out / "README.md").read_text().split())
    pinned = pub.pinned_version(root, "jax")
    chip = pub.chip_versions(root)["jax"]
    sentences = re.split(r"(?<=[.;])\s+", readme)
    assert any(f"JAX {chip}" in s and "TPU v5e" in s for s in sentences), f"the chip's JAX {chip}, beside the chip"
    pins = [s for s in sentences if f"JAX {pinned}" in s and "CPU" in s and "requirements.txt" in s]
    assert pins, f"the pins' JAX {pinned}, beside a CPU and requirements.txt"
    assert set(re.findall(r"\bJAX (\d+\.\d+[\w.]*)", readme)) == {chip, pinned}


def test_requirements_are_the_pinned_student_packages(published):
    out, _, _ = published
    pins = [line for line in (out / "requirements.txt").read_text().splitlines() if not line.startswith("#")]
    import tomllib

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert pins == [d for d in deps if pub.package_name(d) in pub.STUDENT_PACKAGES]
    assert {pub.package_name(p) for p in pins} == set(pub.STUDENT_PACKAGES)


def test_the_leak_check_finds_planted_hidden_text(published, tmp_path):
    """The check above can fail: a hidden-test line, a reference name and a marker planted in a
    published notebook (JSON-escaped) and in the README are all found."""
    out, _, _ = published
    copy = tmp_path / "planted"
    shutil.copytree(out, copy)
    lines, public = secrets()
    # a line that JSON must escape ("), and that the finding's repr() shows as it is (no ' or \\)
    quoted = next(line for line in sorted(lines) if '"' in line and "'" not in line and "\\" not in line)
    lesson = LESSONS[0]
    path = copy / RELEASE_DIR / lesson / f"{lesson}.ipynb"
    nb = nbformat.read(str(path), as_version=4)
    nb.cells[-1].source += f"\n{quoted}\n"
    nbformat.write(nb, str(path))
    with open(copy / "README.md", "a") as f:
        f.write("\nsee _ref_bf16_round\n### END HIDDEN TESTS\n")
    found = leaks(published_text(copy))
    assert any(quoted in f and lesson in f for f in found), found
    assert any("_ref_bf16_round" in f for f in found) and any("END HIDDEN TESTS" in f for f in found)
    assert len(lines) > 500 and quoted not in public


def test_the_cli_publishes_this_course(tmp_path):
    from autograder.__main__ import main

    out = tmp_path / "public"
    assert main(["publish", str(out), "--upstream-is-public"]) == 0
    student = student_repository(ROOT)
    assert_is_the_committed_release(out, ROOT, student)
    assert leaks(published_text(out)) == []


def test_republishing_replaces_a_previous_publish_and_keeps_git(tmp_path):
    lesson = LESSONS[0]
    root = course_copy(tmp_path / "course", lessons=[lesson])
    out = tmp_path / "public"
    (out / ".git").mkdir(parents=True)
    (out / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (out / RELEASE_DIR / "99_dropped").mkdir(parents=True)
    (out / RELEASE_DIR / "99_dropped" / "99_dropped.ipynb").write_text("{}")
    (out / "README.md").write_text("last term\n")
    assert pub.main([str(out), "--upstream-is-public"], root=root) == 0
    assert (out / ".git" / "HEAD").read_text() == "ref: refs/heads/main\n"
    assert not (out / RELEASE_DIR / "99_dropped").exists()
    assert files(out / RELEASE_DIR) == files(root / RELEASE_DIR)
    assert "last term" not in (out / "README.md").read_text()


@pytest.mark.parametrize("foreign", ["solutions", "notes.txt"])
def test_refuses_a_folder_it_did_not_write_and_changes_nothing(tmp_path, foreign, capsys):
    out = tmp_path / "public"
    (out / RELEASE_DIR).mkdir(parents=True)
    (out / RELEASE_DIR / "keep.txt").write_text("mine")
    (out / foreign).write_text("mine")
    assert pub.main([str(out), "--upstream-is-public"]) == 1
    assert foreign in capsys.readouterr().err
    assert (out / RELEASE_DIR / "keep.txt").read_text() == "mine" and (out / foreign).read_text() == "mine"


def test_refuses_an_unreleased_edit_of_the_solutions(tmp_path):
    lesson = LESSONS[0]
    root = course_copy(tmp_path / "course", lessons=[lesson])
    path = root / "solutions" / lesson / f"{lesson}.ipynb"
    nb = nbformat.read(str(path), as_version=4)
    nb.cells[0].source += "\n\nAn edit nobody released."
    nbformat.write(nb, str(path))
    out = tmp_path / "public"
    out.mkdir()
    with pytest.raises(pub.PublishError, match=f"differs from a fresh release: {RELEASE_DIR}/{lesson}"):
        pub.publish(out, root, upstream_is_public=True)
    assert list(out.iterdir()) == []


def test_refuses_a_subset_of_the_lessons(tmp_path, monkeypatch):
    monkeypatch.setenv("COURSE_LESSONS", LESSONS[0])
    with pytest.raises(pub.PublishError, match="COURSE_LESSONS"):
        pub.publish(tmp_path / "public", upstream_is_public=True)
    assert not (tmp_path / "public").exists()


def test_refuses_the_instructors_repository_unless_told(tmp_path, capsys):
    """student_repository unset: publish refuses in one sentence naming what to set, writes nothing;
    --upstream-is-public (the upstream is meant for students) or the setting lets it publish."""
    lesson = LESSONS[0]
    root = course_copy(tmp_path / "course", lessons=[lesson])
    out = tmp_path / "public"
    assert pub.main([str(out)], root=root) == 1
    said = capsys.readouterr().err.strip()
    assert said.count("\n") == 0 and said.count(". ") == 0, "one sentence"
    assert "student_repository" in said and "[tool.course]" in said and "--upstream-is-public" in said
    assert not out.exists()
    from autograder.__main__ import main

    assert main(["publish", str(out)]) == 1  # this course's own pyproject.toml sets none
    assert "student_repository" in capsys.readouterr().err and not out.exists()

    assert pub.main([str(out), "--upstream-is-public"], root=root) == 0
    assert (out / RELEASE_DIR / lesson).is_dir()
    root2 = course_copy(tmp_path / "course2", OTHER, lessons=[lesson])
    assert pub.main([str(tmp_path / "public2")], root=root2) == 0
    assert OTHER.removeprefix("https://github.com/") in (tmp_path / "public2" / "README.md").read_text()


def test_the_student_readme_is_the_instructors_template(tmp_path, monkeypatch):
    """README.md is autograder/course/templates/student_README.md with its placeholders filled; an edit of
    the template is what students read (other braces stay text)."""
    lesson = LESSONS[0]
    root = course_copy(tmp_path / "course", OTHER, lessons=[lesson])
    template = tmp_path / "mine.md"
    template.write_text("# Our course {not a placeholder}\n\n{table}\n\nOpen {student_repository}. {licence}\n")
    monkeypatch.setattr(pub, "STUDENT_README", template)
    assert pub.main([str(tmp_path / "public")], root=root) == 0
    readme = (tmp_path / "public" / "README.md").read_text()
    assert readme.startswith("# Our course {not a placeholder}\n") and f"Open {OTHER}. The course is licensed" in readme
    assert colab_url(lesson, root, OTHER) in readme and "{table}" not in readme


def test_no_lesson_invites_a_clone_of_the_course_repository():
    """The student tree has no grader and no solutions: no markdown cell of solutions/ or notebooks/
    tells students to clone the course repository or to self-check with it."""
    pattern = re.compile(r"\bclon(e|ing)\b[^.]*\b(course|repositor|repo)\b|\bself-check\b[^.]*\bclone\b", re.I | re.S)
    found = []
    for folder in ("solutions", RELEASE_DIR):
        for lesson in LESSONS:
            nb = nbformat.read(str(ROOT / folder / lesson / f"{lesson}.ipynb"), as_version=4)
            found += [
                f"{folder}/{lesson}: {m.group(0)!r}"
                for c in nb.cells
                if c.cell_type == "markdown"
                for m in pattern.finditer(c.source)
            ]
    assert found == []
