"""Generate the student release (notebooks/) from the instructor source (solutions/).

The release is made by nbgrader's own ``generate_assignment`` in a scratch course directory, so
the stubs, hidden-test removal, checksums and gradebook are nbgrader's. Before that, the title
cell's ``<!-- colab-badge -->`` marker becomes the Open-in-Colab badge built from the one
configured repository URL (pyproject.toml, [tool.course]). After it, a test cell that nbgrader
left holding only its docstring (a hidden test) gets a closing ``;`` so that running it displays
nothing (IPython shows a cell's last bare expression as ``Out[]``); its checksum is recomputed.
"""

from __future__ import annotations

import ast
import contextlib
import filecmp
import io
import logging
import shutil
import tempfile
import tokenize
from pathlib import Path

import nbformat

from .config import (
    BADGE_MARKER,
    INSTRUCTOR_ONLY,
    RELEASE_DIR,
    ROOT,
    SOURCE_DIR,
    colab_badge,
    colab_url,
    nbgrader_config,
)
from .notebooks import lessons
from .words import plural


def with_badge(nb, lesson: str, root: Path = ROOT, repository: str | None = None):
    """Replace the badge marker in the title cell with the lesson's Colab badge (opening the
    notebook in ``repository``, by default ``[tool.course] repository``)."""
    first = nb.cells[0]
    if first.cell_type != "markdown" or BADGE_MARKER not in first.source:
        raise ValueError(f"{lesson}: the first cell must be markdown holding {BADGE_MARKER}")
    first.source = first.source.replace(BADGE_MARKER, colab_badge(lesson, root, repository))
    return nb


def prepare_course(
    course: Path, root: Path = ROOT, names: list[str] | None = None, repository: str | None = None
) -> list[str]:
    """Copy the source notebooks into a scratch nbgrader course, badges filled in."""
    names = names or lessons(root)
    for lesson in names:
        src = root / SOURCE_DIR / lesson
        dst = course / SOURCE_DIR / lesson
        shutil.copytree(src, dst, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__", *INSTRUCTOR_ONLY))
        path = dst / f"{lesson}.ipynb"
        nb = nbformat.read(str(path), as_version=4)
        nbformat.write(with_badge(nb, lesson, root, repository), str(path))
    return names


def ends_with_semicolon(source: str) -> bool:
    """Whether the last token of ``source`` (comments and newlines aside) is ``;``: IPython's rule
    (``DisplayHook.semicolon_at_end_of_expression``) for not displaying the last expression."""
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    for tok in reversed(tokens):
        if tok.type in (tokenize.ENDMARKER, tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT):
            continue
        return tok.type == tokenize.OP and tok.string == ";"
    return False


def only_strings(source: str) -> bool:
    """Whether ``source`` is nothing but string-constant expressions (a docstring left alone)."""
    try:
        body = ast.parse(source).body
    except SyntaxError:
        return False
    return bool(body) and all(
        isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str) for s in body
    )


def quiet_docstring_cells(nb):
    """End each graded test cell that holds only its docstring (what nbgrader leaves of a hidden
    test) with ``;``, so that running it displays nothing, and recompute its nbgrader checksum."""
    from nbgrader.utils import compute_checksum, is_grade, is_solution

    for cell in nb.cells:
        if (
            cell.cell_type != "code"
            or not is_grade(cell)
            or is_solution(cell)
            or not only_strings(cell.source)
            or ends_with_semicolon(cell.source)
        ):
            continue
        cell.source = cell.source.rstrip() + ";"
        if not ends_with_semicolon(cell.source):  # e.g. a trailing comment swallowed the ';'
            raise ValueError(f"cannot silence test cell {cell.metadata.nbgrader.get('grade_id')!r}")
        if "checksum" in cell.metadata.nbgrader:
            cell.metadata.nbgrader["checksum"] = compute_checksum(cell)
    return nb


def generate(course: Path, names: list[str], db_path: Path) -> None:
    """Run nbgrader generate_assignment for each lesson inside ``course``, then silence the
    docstring-only test cells of each release (``quiet_docstring_cells``)."""
    from nbgrader.apps import NbGraderAPI

    logging.getLogger("traitlets").setLevel(logging.ERROR)
    api = NbGraderAPI(config=nbgrader_config(course, db_path))
    for lesson in names:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            result = api.generate_assignment(lesson, force=True, create=True)
        if not result["success"]:
            raise RuntimeError(
                f"nbgrader generate_assignment {lesson} failed:\n{result['log']}\n{result.get('error', '')}"
            )
        for nb_path in (course / RELEASE_DIR / lesson).glob("*.ipynb"):
            nbformat.write(quiet_docstring_cells(nbformat.read(str(nb_path), as_version=4)), str(nb_path))


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
        for lesson in names:
            target = out / lesson
            if target.exists():
                shutil.rmtree(target)
            shutil.copytree(course / RELEASE_DIR / lesson, target)
            for nb_path in target.glob("*.ipynb"):  # one canonical JSON layout
                nbformat.write(nbformat.read(str(nb_path), as_version=4), str(nb_path))
    return names


README_START, README_END = "<!-- lessons:start -->", "<!-- lessons:end -->"


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


def readme_with_lessons(root: Path = ROOT) -> str:
    text = (root / "README.md").read_text()
    if README_START not in text or README_END not in text:
        raise ValueError(f"README.md needs the markers {README_START} and {README_END}")
    head, rest = text.split(README_START, 1)
    _, tail = rest.split(README_END, 1)
    return f"{head}{README_START}\n{lessons_table(root)}\n{README_END}{tail}"


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
        if (root / "README.md").exists() and readme_with_lessons(root) != (root / "README.md").read_text():
            problems.append("README.md: the lesson list is not the generated one")
        return problems


def release(root: Path = ROOT, check: bool = False) -> int:
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
    (root / "README.md").write_text(readme_with_lessons(root))
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
