"""The library of known mistakes (solutions/<NN_name>/mistakes.py, docs/AUTHORING.md): every entry
is complete and speaks to a student (a short name, an explanation without solution code, a section
of the lesson to re-read); malformed files are refused; and the student release, nbgrader's own
generate_assignment and `publish` carry none of it. Fast: no kernel runs here, and no release is
built (test_publish.py checks its published tree with ``mistakes_in``)."""

import re
import shutil

import nbformat
import pytest

from autograder.common import mistakes as lib
from autograder.common.config import INSTRUCTOR_ONLY, RELEASE_DIR, SOURCE_DIR
from autograder.common.notebooks import answer_ids, cell_grade_id, solution_code
from autograder.course.release import generate
from conftest import LESSONS, ROOT, source_nb
from test_publish import BLOCK, published_text

FILE_NAME = lib.FILE_NAME

# Lessons whose entries another branch is filling in (issue 32): until that branch is merged their
# names and explanations are empty, and the content test is expected to fail there. Strict: once
# a lesson is filled the xfail fails too, so remove it from this set.

KEBAB = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
# What reads as code in prose: a fence or any backtick, an assignment or keyword argument (`x = ...`,
# `axis=0`), a call (`np.round(`).
CODE = re.compile(r"`|=|\b[A-Za-z_][\w.]*\(")


def headings(nb) -> list[str]:
    """The text of every markdown heading of a notebook, without its leading #'s."""
    return [
        line.lstrip("#").strip()
        for cell in nb.cells
        if cell.cell_type == "markdown"
        for line in cell.source.splitlines()
        if re.match(r"#+\s", line)
    ]


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s]


def reference_lines(nb, function: str) -> list[str]:
    """The lines of the reference solution of ``function`` (its answer cell's solution block, the
    def line and docstring excluded), stripped, that are long enough to be code rather than a word."""
    cell = next(c for c in nb.cells if cell_grade_id(c) == f"answer_{function}")
    body = solution_code(cell.source.split("### BEGIN SOLUTION", 1)[1].split("### END SOLUTION", 1)[0])
    return [line.strip() for line in body.splitlines() if len(line.strip()) >= 8]


def entry_problems(m: lib.Mistake, nb) -> list[str]:
    """What is wrong with one entry of the library, against its lesson's source notebook ``nb``:
    an empty field; an id that is not kebab-case of at most 32 characters; a name over 70
    characters; an explanation that is not two or three sentences, or that holds code (a code
    fence or backtick, an assignment, a call, or a line of the function's reference solution); a
    section that is not a heading of the notebook; a function that is not one of its exercises."""
    problems = [f"empty {k}" for k in ("id", "function", "name", "explanation", "section") if not getattr(m, k)]
    if not KEBAB.fullmatch(m.id) or len(m.id) > 32:
        problems.append(f"id {m.id!r} is not kebab-case of at most 32 characters")
    if len(m.name) > 70:
        problems.append(f"name is {len(m.name)} characters (at most 70)")
    if m.function not in {a.removeprefix("answer_") for a in answer_ids(nb)}:
        problems.append(f"function {m.function!r} is not an exercise of {m.lesson}")
        return problems
    if not 2 <= len(sentences(m.explanation)) <= 3 or not m.explanation.rstrip().endswith((".", "!", "?")):
        problems.append(f"explanation is {len(sentences(m.explanation))} sentences (2 or 3)")
    if CODE.search(m.explanation):
        problems.append(f"explanation holds code: {CODE.search(m.explanation).group()!r}")
    problems += [
        f"explanation holds the solution line {line!r}"
        for line in reference_lines(nb, m.function)
        if line in m.explanation
    ]
    if m.section not in headings(nb):
        problems.append(f"section {m.section!r} is not a heading of {m.lesson}")
    return problems


@pytest.fixture(params=LESSONS)
def library(request):
    lesson = request.param
    return lesson, lib.load(lesson)


def test_every_lesson_has_a_library_that_parses(lesson):
    assert lib.path_of(lesson).is_file(), f"{lesson} has no {lib.FILE_NAME}"
    entries = lib.load(lesson)
    assert entries and all(m.lesson == lesson for m in entries)
    assert len({m.key for m in entries}) == len(entries), "ids are unique within a function"


def test_every_entry_is_complete_and_speaks_to_the_student(library):
    lesson, entries = library
    nb = source_nb(lesson)
    problems = [f"{m.key}: {p}" for m in entries for p in entry_problems(m, nb)]
    assert problems == [], "\n".join(problems)


GOOD = dict(
    id="per-row-scale",
    function="quantize_per_channel",
    name="one scale per row instead of per output column",
    explanation="Your scales follow the rows. Each output channel needs its own. Revisit granularity.",
    section="1. Symmetric int8 in one picture",
    why="axis=1",
    source="def quantize_per_channel(w):\n    pass\n",
)


@pytest.mark.parametrize(
    "change, says",
    [
        (dict(id="Per_Row_Scale"), "kebab-case"),
        (dict(id="a-very-long-identifier-of-a-mistake-x"), "kebab-case"),
        (dict(name="x" * 71), "71 characters"),
        (dict(explanation=""), "empty explanation"),
        (dict(explanation="Your scales follow the rows."), "1 sentences"),
        (dict(explanation="One. Two. Three. Four."), "4 sentences"),
        (dict(explanation="Your scale is wrong. Use ```axis=0``` there."), "holds code"),
        (dict(explanation="Your scale is wrong. Use `axis=0` instead."), "holds code"),
        (dict(explanation="Your scale is wrong. Compute scale = max / 127 instead."), "holds code"),
        (dict(explanation="Your scale is wrong. Call jnp.max(jnp.abs instead."), "holds code"),
        (
            dict(
                explanation="Your codes are wrong. Write q as "
                "jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8) instead."
            ),
            "holds code",
        ),
        (dict(section="Symmetric int8"), "not a heading"),
        (dict(section=""), "empty section"),
        (dict(function="quantize"), "not an exercise"),
    ],
)
def test_the_entry_check_finds_a_planted_bad_entry(change, says):
    nb = source_nb("03_int8_quantization")
    assert entry_problems(lib.Mistake(lesson="03_int8_quantization", **GOOD), nb) == []
    bad = lib.Mistake(lesson="03_int8_quantization", **{**GOOD, **change})
    assert any(says in p for p in entry_problems(bad, nb)), entry_problems(bad, nb)


def test_the_solution_line_check_reads_the_reference_solution():
    """The reference line planted above is found because it IS a line of the solution: the check
    compares with the notebook's own answer cell, not with a list of guesses."""
    lines = reference_lines(source_nb("03_int8_quantization"), "quantize_per_channel")
    assert "q = jnp.clip(jnp.round(w / scale), -127, 127).astype(jnp.int8)" in lines
    nb = source_nb("03_int8_quantization")
    sneaky = lib.Mistake(
        lesson="03_int8_quantization",
        **{**GOOD, "explanation": "Your codes are off. The answer: " + lines[1] + " Revisit the section."},
    )
    assert any("solution line" in p for p in entry_problems(sneaky, nb))


def entry_text(**fields) -> str:
    return "MISTAKES = [\n    " + repr({**GOOD, **fields}) + ",\n]\n"


def test_parse_reads_a_well_formed_file():
    [m] = lib.parse(entry_text(only_under="tpu"), "03_int8_quantization")
    assert (m.id, m.only_under, m.visible_fails, m.key) == (
        "per-row-scale",
        "tpu",
        False,
        "03_int8_quantization:quantize_per_channel:per-row-scale",
    )


@pytest.mark.parametrize(
    "text, says",
    [
        (
            "MISTAKES = [\n    " + repr({k: v for k, v in GOOD.items() if k != "section"}) + ",\n]\n",
            r"missing \['section'\]",
        ),
        (entry_text(hint="typo of a field"), r"unknown \['hint'\]"),
        ("MISTAKES = [\n    " + repr(GOOD) + ",\n    " + repr({**GOOD, "name": "again"}) + ",\n]\n", "two mistakes"),
        ("MISTAKES = [dict(" + ", ".join(f"{k}={v!r}" for k, v in GOOD.items()) + ")]\n", "malformed"),
        ("import os\nMISTAKES = [{**GOOD}]\n", "malformed"),
        ("MISTAKES = [\n    'not a dict',\n]\n", "not a dict"),
        ("OTHER = []\n", "exactly once"),
        (entry_text() + entry_text(), "exactly once"),
    ],
    ids=["missing-key", "unknown-key", "duplicate-id", "a-call", "a-name", "not-a-dict", "no-list", "twice"],
)
def test_parse_refuses_a_malformed_file(text, says):
    with pytest.raises(ValueError, match=says):
        lib.parse(text, "03_int8_quantization")


def test_the_same_id_may_name_mistakes_of_two_functions():
    other = {**GOOD, "function": "quantize_per_tensor"}
    text = "MISTAKES = [\n    " + repr(GOOD) + ",\n    " + repr(other) + ",\n]\n"
    assert [m.key for m in lib.parse(text, "03_int8_quantization")] == [
        "03_int8_quantization:quantize_per_channel:per-row-scale",
        "03_int8_quantization:quantize_per_tensor:per-row-scale",
    ]


# ------------------------------------------------------------------ never released, never published


def instructor_answers(lesson: str) -> list[tuple[str, str]]:
    """(key, source) of every answer a lesson's folder keeps for instructors: the library's mistakes,
    the alternatives, the held-out and the independent answers (common/lessonfolder.py)."""
    from autograder.common import lessonfolder
    from autograder.course.lessoncheck import load_alternatives, load_candidates, load_heldout

    found = [(m.key, m.source) for m in lib.load(lesson)]
    found += [(f"{lesson}:{a['function']}:alternative", a["source"]) for a in load_alternatives(lesson)]
    found += [(f"{lesson}:{a['function']}:heldout", a["source"]) for a in load_heldout(lesson)]
    for part in ("train", "heldout"):
        path = lessonfolder.companion(lesson, f"{lessonfolder.INDEPENDENT}/{part}.py")
        if path.is_file():
            found += [(f"{lesson}:{a['function']}:independent", a["source"]) for a in load_candidates(path, "ANSWERS")]
    return found


def distinctive_lines() -> dict[str, str]:
    """{line: answer key} for the lines of every instructor-only answer's source (stripped, 25
    characters or longer) that the source notebooks do not show publicly anywhere (outside their
    solution and hidden-test blocks): a tree holding one of them holds a wrong answer, or a piece of
    a solution."""
    public = "\n".join(BLOCK.sub("", c.source) for lesson in LESSONS for c in source_nb(lesson).cells)
    return {
        line.strip(): key
        for lesson in LESSONS
        for key, source in instructor_answers(lesson)
        for line in source.splitlines()
        if len(line.strip()) >= 25 and line.strip() not in public
    }


def mistakes_in(texts: dict) -> list[str]:
    """Where the texts of a tree ({path: text}) hold an instructor-only file of a lesson's folder
    (the library, the alternatives, the claims, the chip's record...) or a line of an answer of one."""
    lines = distinctive_lines()
    found = [f"{rel}: is {rel.name}" for rel in texts if set(rel.parts) & set(INSTRUCTOR_ONLY)]
    for rel, text in sorted(texts.items()):
        found += [f"{rel}: {key} ({line!r})" for line, key in lines.items() if line in text]
    return found


def test_every_lesson_has_lines_to_look_for():
    keys = {key.split(":")[0] for key in distinctive_lines().values()}
    assert keys == set(LESSONS), "a lesson whose mistakes are all public lines could leak unnoticed"
    kinds = {key.rsplit(":", 1)[-1] for key in distinctive_lines().values()}
    assert {"alternative", "heldout", "independent"} <= kinds, kinds


def test_the_committed_release_holds_no_mistake():
    release = ROOT / RELEASE_DIR
    assert not list(release.rglob(lib.FILE_NAME))
    assert mistakes_in(published_text(release)) == []


def test_the_mistake_check_finds_a_planted_library_and_a_planted_wrong_answer(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / RELEASE_DIR, tree)
    assert mistakes_in(published_text(tree)) == []
    lesson = LESSONS[0]
    shutil.copy(lib.path_of(lesson), tree / lesson / lib.FILE_NAME)
    assert any(f.endswith(f"is {lib.FILE_NAME}") for f in mistakes_in(published_text(tree)))
    (tree / lesson / lib.FILE_NAME).unlink()
    for companion in ("alternatives.py", "chip/outcomes.json"):  # every instructor-only file of a folder
        (tree / lesson / companion).parent.mkdir(exist_ok=True)
        shutil.copy(ROOT / "solutions" / lesson / companion, tree / lesson / companion)
        assert any(f.startswith(f"{lesson}/{companion}: is ") for f in mistakes_in(published_text(tree))), companion
        (tree / lesson / companion).unlink()
    # an alternative's line pasted into a released notebook
    from autograder.course.lessoncheck import load_alternatives

    alternative = load_alternatives(lesson)[0]["source"]
    path = tree / lesson / f"{lesson}.ipynb"
    nb = nbformat.read(str(path), as_version=4)
    nb.cells.append(nbformat.v4.new_markdown_cell(alternative))
    nbformat.write(nb, str(path))
    assert any(":alternative (" in f for f in mistakes_in(published_text(tree)))
    shutil.copy(ROOT / RELEASE_DIR / lesson / f"{lesson}.ipynb", path)
    # one wrong answer pasted into a released notebook's markdown
    m = lib.load("03_int8_quantization")[0]
    path = tree / "03_int8_quantization" / "03_int8_quantization.ipynb"
    nb = nbformat.read(str(path), as_version=4)
    nb.cells.append(nbformat.v4.new_markdown_cell(m.source))
    nbformat.write(nb, str(path))
    found = mistakes_in(published_text(tree))
    assert found and all(f.startswith("03_int8_quantization/03_int8_quantization.ipynb: ") for f in found), found
    assert any(repr(line.strip()) in f for f in found for line in m.source.splitlines()), found


def test_nbgraders_generate_assignment_skips_the_library(tmp_path):
    """Not only our copy step (prepare_course) leaves it behind: nbgrader's own
    generate_assignment, with the course's configuration (CourseDirectory.ignore), releases a
    lesson folder without it. A one-cell lesson keeps this fast."""
    lesson = "01_tiny"
    src = tmp_path / SOURCE_DIR / lesson
    src.mkdir(parents=True)
    nbformat.write(
        nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# 01 · Tiny")]), str(src / f"{lesson}.ipynb")
    )
    shutil.copy(lib.path_of(LESSONS[0]), src / lib.FILE_NAME)
    (src / "data.txt").write_text("a file the lesson needs\n")
    generate(tmp_path, [lesson], tmp_path / "gradebook.db")
    released = {p.name for p in (tmp_path / RELEASE_DIR / lesson).iterdir()}
    assert released == {f"{lesson}.ipynb", "data.txt"}, released


def test_lesson_constants_live_with_their_lessons(tmp_path):
    """NOT_DIAGNOSED, TIMINGS and TIMERS are read from each lesson's own mistakes.py (keyed by its
    functions), never from the grader: a lesson file without them contributes nothing, a malformed
    one is refused, and the course's dicts are the lessons' with "<lesson>:" in front."""
    import shutil

    from autograder.common import mistakes

    root = tmp_path / "course"
    for lesson in ("04_xprof_profiling", "05_precision_policy"):
        (root / "solutions" / lesson).mkdir(parents=True)
        shutil.copy(mistakes.path_of(lesson), root / "solutions" / lesson / mistakes.FILE_NAME)
    found = mistakes.course_constants(root)
    assert found["NOT_DIAGNOSED"] == mistakes.NOT_DIAGNOSED and set(mistakes.NOT_DIAGNOSED) == {
        "04_xprof_profiling:capture_warmed_trace",
        "05_precision_policy:benchmark",
    }
    assert found["TIMINGS"] == mistakes.TIMINGS == {"05_precision_policy:policy_table": ["median_ms"]}
    assert found["TIMERS"] == mistakes.TIMERS
    lesson04 = root / "solutions" / "04_xprof_profiling" / mistakes.FILE_NAME
    text = lesson04.read_text()
    lesson04.write_text(text.replace("NOT_DIAGNOSED = {", "UNUSED = {", 1))
    assert "04_xprof_profiling:capture_warmed_trace" not in mistakes.course_constants(root)["NOT_DIAGNOSED"]
    start = text.index("NOT_DIAGNOSED = {")
    end = text.index("\n}\n", start) + 2  # the dict's closing brace, alone on its line
    listed = text[:start] + "NOT_DIAGNOSED = [" + text[start + 16 : end] + "]" + text[end:]
    lesson04.write_text(listed)
    with pytest.raises(ValueError, match="NOT_DIAGNOSED must be a dict"):
        mistakes.course_constants(root)
