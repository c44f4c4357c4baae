"""Finding and reading submissions, by the trusted side only.

``SUBMISSIONS/<student>/<NN_name>.ipynb`` (or nbgrader's ``<student>/<NN_name>/<NN_name>.ipynb``).
A symlink, file or folder, is never followed: it is listed as refused (it could point at the
solutions, another student's work or ``/etc/passwd``). Every string from a submission that reaches
a terminal, a CSV or a page goes through ``printable`` first.
"""

from __future__ import annotations

from pathlib import Path

import nbformat

from ..notebooks import cell_grade_id, is_test
from ..textsafe import printable
from .settings import MAX_NOTEBOOK_BYTES


def find_submissions(folder: Path, names: list[str]) -> tuple[dict, list[str], dict]:
    """({(student, lesson): path}, files that fit no lesson, {(student, lesson): why refused})."""
    found, unknown, refused = {}, [], {}
    for student_dir in sorted(p for p in folder.iterdir() if not p.name.startswith(".")):
        if student_dir.is_symlink():
            unknown.append(f"{printable(student_dir.name)} (a symlink: not followed)")
            continue
        if not student_dir.is_dir():
            unknown.append(printable(student_dir.name))
            continue
        for path in sorted(_walk(student_dir)):
            rel = path.relative_to(student_dir)
            if ".ipynb_checkpoints" in rel.parts:
                continue
            lesson = path.stem if path.suffix == ".ipynb" else ""
            flat = len(rel.parts) == 1
            nested = len(rel.parts) == 2 and rel.parts[0] == lesson
            key = (student_dir.name, lesson)
            if lesson in names and (flat or nested):
                if path.is_symlink():  # _walk never enters a symlinked folder
                    refused[key] = "the submission is a symlink: not followed, not graded"
                elif key in found or key in refused:
                    unknown.append(f"{printable(str(path.relative_to(folder)))} (a second copy of {lesson})")
                else:
                    found[key] = path
            else:
                unknown.append(printable(str(path.relative_to(folder))))
    return found, unknown, refused


def _walk(folder: Path):
    """Files below ``folder``, never entering a symlinked folder (a symlink is yielded as itself)."""
    for entry in folder.iterdir():
        if entry.is_symlink() or entry.is_file():
            yield entry
        elif entry.is_dir():
            yield from _walk(entry)


def parse_notebook(raw: bytes):
    """The notebook in ``raw``, or raise ValueError with a short printable reason."""
    if len(raw) > MAX_NOTEBOOK_BYTES:
        raise ValueError(f"over {MAX_NOTEBOOK_BYTES // 2**20} MiB")
    try:
        nb = nbformat.reads(raw.decode("utf-8"), as_version=4)
    except Exception as exc:  # unreadable JSON, wrong format, not UTF-8...
        first = str(exc).splitlines()[0] if str(exc) else ""
        raise ValueError(printable(f"{type(exc).__name__}: {first}")) from None
    if not isinstance(nb.get("cells"), list):
        raise ValueError("no cells")
    return nb


def graded_cells(nb) -> dict:
    return {cell_grade_id(c): c for c in nb.cells if isinstance(c, dict) and is_test(c)}


def tampering(submitted, released, *older) -> list[str]:
    """Test cells deleted or edited in a submission, compared with the student release (a cell
    equal to its version in any of the ``older`` releases, such as the committed notebooks/ while
    an instructor's fix is not yet released, counts as untouched)."""

    def norm(cell) -> str:  # a closing ';' (a release silencing a docstring's Out[]) is no edit
        return str(cell.get("source", "")).strip().removesuffix(";").rstrip()

    mine, theirs = graded_cells(submitted), graded_cells(released)
    accepted = {gid: {norm(cell)} for gid, cell in theirs.items()}
    for nb in older:
        for gid, cell in graded_cells(nb).items():
            accepted.setdefault(gid, set()).add(norm(cell))
    problems = [f"deleted {gid}" for gid in theirs if gid not in mine]
    problems += [f"edited {gid}" for gid in theirs if gid in mine and norm(mine[gid]) not in accepted[gid]]
    return problems
