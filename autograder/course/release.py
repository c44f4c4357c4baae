"""Generate the student release (notebooks/) from the instructor source (solutions/).

The release is made by nbgrader's own ``generate_assignment`` in a scratch course directory, so
the stubs, hidden-test removal, checksums and gradebook are nbgrader's; beside the lessons it writes
the course's TPU emulation for the setup cells (notebooks/tpu_emulation.py, chip/emulation.py's
``student_module``: the grader's own code) and the student's self-check (notebooks/selfcheck.py,
presubmit_build.py's ``student_module``). Before that, the title
cell's ``<!-- colab-badge -->`` marker becomes the Open-in-Colab badge built from the one
configured repository URL (pyproject.toml, [tool.course]). After it, a test cell that nbgrader
left holding only its docstring (a hidden test) gets a closing ``;`` so that running it displays
nothing (IPython shows a cell's last bare expression as ``Out[]``); its checksum is recomputed.
"""

from __future__ import annotations

import filecmp
import shutil
import tempfile
from pathlib import Path

import nbformat

from ..common.config import (
    RELEASE_DIR,
    ROOT,
    SOURCE_DIR,
    colab_url,
)
from ..chip import emulation
from . import presubmit_build
from ..common.generation import generate, prepare_course
from ..common import lessonfolder
from ..common.notebooks import lessons
from ..common.words import plural


def build_release(
    out: Path, root: Path = ROOT, db_path: Path | None = None, repository: str | None = None
) -> list[str]:
    """Write the student release for every lesson to ``out`` (one folder per lesson), its badges
    opening ``repository`` (default: ``[tool.course] repository``)."""
    with tempfile.TemporaryDirectory(prefix="course-release-") as tmp:
        course = Path(tmp)
        names = prepare_course(course, root, repository=repository)
        generate(course, names, db_path or course / "gradebook.db")
        out.mkdir(parents=True, exist_ok=True)
        (out / emulation.STUDENT_MODULE).write_text(emulation.student_module(), encoding="utf-8")
        (out / presubmit_build.STUDENT_MODULE).write_text(presubmit_build.student_module(), encoding="utf-8")
        for lesson in names:
            target = out / lesson
            if target.exists():
                shutil.rmtree(target)
            shutil.copytree(course / RELEASE_DIR / lesson, target)
            for nb_path in target.glob("*.ipynb"):  # one canonical JSON layout
                nbformat.write(nbformat.read(str(nb_path), as_version=4), str(nb_path))
    return names


NUMBERS = "No One Two Three Four Five Six Seven Eight Nine Ten Eleven Twelve".split()


def count_word(n: int) -> str:
    """A count as the README's first sentence writes it: "Six", "Thirteen" as 13."""
    return NUMBERS[n] if n < len(NUMBERS) else str(n)


def lessons_table(root: Path = ROOT, repository: str | None = None) -> str:
    """The README's lesson list, each with its Colab badge, from the titles of the notebooks."""
    rows = ["| # | lesson | open |", "|---|---|---|"]
    for lesson in lessons(root):
        nb = nbformat.read(str(root / SOURCE_DIR / lesson / f"{lesson}.ipynb"), as_version=4)
        title = next((line[2:].strip() for line in nb.cells[0].source.splitlines() if line.startswith("# ")), lesson)
        title = title.split("·", 1)[-1].strip()
        rows.append(
            f"| {lesson[:2]} | [{title}]({RELEASE_DIR}/{lesson}/{lesson}.ipynb) | "
            f"[![Open In Colab](https://colab.research.google.com/assets/colab-badge.svg)]"
            f"({colab_url(lesson, root, repository)}) |"
        )
    return "\n".join(rows)


def learn_list(root: Path = ROOT) -> str:
    """The student README's "What you will learn": each lesson's line from its lesson.toml."""
    import textwrap

    lines = []
    for lesson in lessons(root):
        s = lessonfolder.settings(lesson, root)
        head = f"- **{lesson[:2]} {s.short_title or lesson[3:].replace('_', ' ')}**"
        lines.append(textwrap.fill(f"{head}: {s.learn}" if s.learn else head, 100, subsequent_indent="  "))
    return "\n".join(lines)


def chip_status_line(root: Path = ROOT) -> str:
    """The README's "Tested on": which lessons' known answers a TPU recorded, and which not yet."""
    status = lessonfolder.chip_status(lessons(root), root)
    done = ", ".join(n[:2] for n, date in status.items() if date) or "none"
    todo = [n for n, date in status.items() if not date]
    if not todo:
        return f"{done}; not yet recorded on a TPU: none"
    return f"{done}; **not yet recorded on a TPU: {', '.join(todo)}** (graded and tested under the emulation alone)"


FEEDBACK_BITS_HEAD = (
    "| lesson | hidden checks | bits, rules and mistakes shown | rules only (`--no-diagnose`) "
    "| mistakes only (`--no-rules`) | neither |\n|---|---|---|---|---|---|"
)


def feedback_bits_table(root: Path = ROOT) -> str:
    """docs/GRADING.md's bound of what one submission's feedback page can tell of its hidden checks,
    per lesson (issue 57): one row a lesson, from its notebook and its library (grader/classroom/studentview.py)."""
    from ..common import mistakes as library
    from ..grader.classroom.studentview import hidden_channels

    never_diagnosed = library.course_constants(root)["NOT_DIAGNOSED"]
    rows = []
    for lesson in lessons(root):
        nb = nbformat.read(str(root / SOURCE_DIR / lesson / f"{lesson}.ipynb"), as_version=4)
        never = frozenset(k.split(":")[1] for k in never_diagnosed if k.split(":")[0] == lesson)
        channels = hidden_channels(nb, library.load(lesson, root), never)
        bits = [sum(c.bits(r, d) for c in channels) for r, d in ((True, True), (True, False), (False, True))]
        rows.append(f"| {lesson} | {len(channels)} | " + " | ".join(f"{b:.1f}" for b in bits) + f" | {len(channels)} |")
    return "\n".join(rows)


# The generated parts of the course's own pages, each between its markers <!-- name:start --> and
# <!-- name:end -->: {file: {name: what fills it}}. The release writes them; --check says where stale.
GENERATED = {
    "README.md": {
        "lessons-count": lambda root: count_word(len(lessons(root))),
        "lessons": lambda root: "\n" + lessons_table(root) + "\n",
        "chip-status": chip_status_line,
    },
    "docs/GRADING.md": {
        "feedback-bits": lambda root: (
            "\n"
            + "\n".join(
                "  " + line for line in [*FEEDBACK_BITS_HEAD.splitlines(), *feedback_bits_table(root).splitlines()]
            )
            + "\n  "
        ),
    },
}


def with_generated_parts(file: str, root: Path = ROOT) -> str:
    """The text of ``file`` (README.md, docs/GRADING.md) with its GENERATED parts made from the lesson folders."""
    text = (root / file).read_text()
    for name, make in GENERATED[file].items():
        start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
        if start not in text or end not in text:
            raise ValueError(f"{file} needs the markers {start} and {end}")
        head, rest = text.split(start, 1)
        _, tail = rest.split(end, 1)
        text = f"{head}{start}{make(root)}{end}{tail}"
    return text


def readme_with_lessons(root: Path = ROOT) -> str:
    """README.md with its generated parts (the lesson count, table and chip status)."""
    return with_generated_parts("README.md", root)


def release_differences(fresh: Path, committed: Path, expected=None) -> list[str]:
    """Differences between a fresh release and the committed one. ``expected(rel, data)`` maps a
    committed file's bytes to what the fresh file must hold (default: the same bytes)."""
    fresh_files = {p.relative_to(fresh) for p in fresh.rglob("*") if p.is_file()}
    committed_files = {
        p.relative_to(committed) for p in committed.rglob("*") if p.is_file() and ".ipynb_checkpoints" not in p.parts
    }
    problems = [f"missing from {RELEASE_DIR}/: {p}" for p in sorted(fresh_files - committed_files)]
    problems += [f"not generated from {SOURCE_DIR}/: {p}" for p in sorted(committed_files - fresh_files)]
    for rel in sorted(fresh_files & committed_files):
        if expected is None:
            same = filecmp.cmp(fresh / rel, committed / rel, shallow=False)
        else:
            same = (fresh / rel).read_bytes() == expected(rel, (committed / rel).read_bytes())
        if not same:
            problems.append(f"differs from a fresh release: {RELEASE_DIR}/{rel}")
    return problems


def stale_files(root: Path = ROOT) -> list[str]:
    """Differences between the committed release and a fresh one (empty when in sync)."""
    with tempfile.TemporaryDirectory(prefix="course-release-check-") as tmp:
        fresh = Path(tmp) / RELEASE_DIR
        build_release(fresh, root)
        problems = release_differences(fresh, root / RELEASE_DIR)
        for file in GENERATED:
            if (root / file).exists() and with_generated_parts(file, root) != (root / file).read_text():
                problems.append(f"{file}: its generated parts (the lessons' table, count...) are not the lessons'")
        return problems


def release(root: Path = ROOT, check: bool = False) -> int:
    try:
        return _release(root, check)
    except ValueError as exc:  # a lesson folder that cannot be released: one sentence, no traceback
        print(f"release: {exc}")
        return 1


def _release(root: Path, check: bool) -> int:
    if check:
        problems = stale_files(root)
        for p in problems:
            print(p)
        if problems:
            print("The student release is stale: run `make release` (python -m autograder release).")
            return 1
        print(f"{RELEASE_DIR}/ is in sync with {SOURCE_DIR}/.")
        return 0
    target = root / RELEASE_DIR
    names = build_release(target, root)
    for stale in sorted(p for p in target.iterdir() if p.is_dir() and p.name not in names):
        shutil.rmtree(stale)
    for file in GENERATED:  # the README's lesson count, table and chip status; GRADING.md's bound
        if (root / file).exists():
            (root / file).write_text(with_generated_parts(file, root))
    example_class = root / "examples" / "make_class.py"
    if example_class.exists():  # the bundled class is built from the release: keep it in step
        import contextlib
        import io
        import runpy

        with contextlib.redirect_stdout(io.StringIO()):
            runpy.run_path(str(example_class))["example_class"](root / "examples" / "submissions")
        print("Regenerated the example class built from it: examples/submissions/")
    print(f"Released {plural(len(names), 'lesson')} to {RELEASE_DIR}/: {', '.join(names)}")
    return 0
