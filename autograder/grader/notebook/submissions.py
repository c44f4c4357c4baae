"""Reading a submission, by the trusted side only: its bytes as a notebook (size-capped, a short
reason if unreadable) and its test cells compared with the release. Finding submissions (folders,
LMS downloads, zips; symlinks never followed) is intake.py's. Every string from a submission that
reaches a terminal, a CSV or a page goes through ``printable`` first.
"""

from __future__ import annotations

import nbformat

from ...notebooks import cell_grade_id, is_test
from ...textsafe import printable
from ..core.settings import MAX_NOTEBOOK_BYTES


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
