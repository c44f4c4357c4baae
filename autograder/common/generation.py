"""The student version of lessons as nbgrader makes it, in a scratch course: what the release
(course/release.py) commits as notebooks/ and what the grader compares submissions with.

The stubs, hidden-test removal, checksums and gradebook are nbgrader's own ``generate_assignment``.
Before it, the title cell's ``<!-- colab-badge -->`` marker becomes the Open-in-Colab badge built
from the one configured repository URL (pyproject.toml, [tool.course]). After it, a test cell that
nbgrader left holding only its docstring (a hidden test) gets a closing ``;`` so that running it
displays nothing (IPython shows a cell's last bare expression as ``Out[]``); its checksum is
recomputed.
"""

from __future__ import annotations

import ast
import contextlib
import io
import logging
import shutil
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
    emulation_url,
    nbgrader_config,
)
from .notebooks import lessons


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
    """Copy the source notebooks into a scratch nbgrader course, badges filled in: of each lesson's
    folder the notebook and the files it names, never its instructor-only companions. A file the
    notebook does not name (a scratch script, a note) stops it: ValueError says which."""
    from .lessonfolder import stray_files

    names = names or lessons(root)
    stray = [f"{SOURCE_DIR}/{lesson}/{f}" for lesson in names for f in stray_files(lesson, root)]
    if stray:
        raise ValueError(
            f"{', '.join(stray)}: in a lesson's folder, but neither the notebook, a file it names, nor an "
            "instructor-only companion (docs/AUTHORING.md, 'A lesson is one folder'): students would get it. "
            "Move it out of the folder."
        )
    for lesson in names:
        src = root / SOURCE_DIR / lesson
        dst = course / SOURCE_DIR / lesson
        shutil.copytree(src, dst, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__", *INSTRUCTOR_ONLY))
        path = dst / f"{lesson}.ipynb"
        nb = nbformat.read(str(path), as_version=4)
        nbformat.write(with_emulation_url(with_badge(nb, lesson, root, repository), root, repository), str(path))
    return names


def with_emulation_url(nb, root: Path = ROOT, repository: str | None = None):
    """The setup cell's emulation URL (the source's names ``[tool.course] repository``) for ``repository``."""
    if repository is not None:
        for cell in nb.cells:
            if cell.cell_type == "code":
                cell.source = cell.source.replace(emulation_url(root), emulation_url(root, repository))
                break
    return nb


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


def nbgrader_api(course: Path, db_path: Path):
    """nbgrader's API for ``course``, with its exchange folder made first: the API lists the
    exchange as it starts and, where the folder is missing, logs a CRITICAL "Unwritable directory"
    that nothing here needs (generating a release never uses the exchange)."""
    from nbgrader.apps import NbGraderAPI

    config = nbgrader_config(course, db_path)
    Path(config.Exchange.root).mkdir(parents=True, exist_ok=True)
    return NbGraderAPI(config=config)


def generate(course: Path, names: list[str], db_path: Path) -> None:
    """Run nbgrader generate_assignment for each lesson inside ``course``, then silence the
    docstring-only test cells of each release (``quiet_docstring_cells``)."""
    from .gradebookschema import install

    install()
    logging.getLogger("traitlets").setLevel(logging.ERROR)
    api = nbgrader_api(course, db_path)
    for lesson in names:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            result = api.generate_assignment(lesson, force=True, create=True)
        if not result["success"]:
            raise RuntimeError(
                f"nbgrader generate_assignment {lesson} failed:\n{result['log']}\n{result.get('error', '')}"
            )
        for nb_path in (course / RELEASE_DIR / lesson).glob("*.ipynb"):
            nbformat.write(quiet_docstring_cells(nbformat.read(str(nb_path), as_version=4)), str(nb_path))
