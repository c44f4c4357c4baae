"""Reading a submission, by the trusted side only: its bytes as a notebook (every size bounded before
anything parses, a short reason if unreadable) and its test cells compared with the release.
Finding submissions (folders, LMS downloads, zips; symlinks never followed) is intake.py's. Every
string from a submission that reaches a terminal, a CSV or a page goes through ``printable`` first.

A submission is read as plain JSON with this module's own shape checks, never with a schema
validator (nbformat's spent 45 KB and 0.36 ms on each malformed output: 300,000 of them in a 1.26 MB
file took the grader's parent down, issue 50). In order, each step bounded before it runs:

1. bytes: at most MAX_NOTEBOOK_BYTES;
2. the JSON's nesting (MAX_JSON_DEPTH) and its number of values and keys (MAX_JSON_ITEMS), counted
   on the bytes by ``json_shape`` in linear time, with bytes and NumPy operations (no Python loop
   per byte);
3. UTF-8 (a byte-order mark is skipped), then ``json.loads``: linear, and past step 2 it builds at
   most MAX_JSON_ITEMS objects and never recurses deeper than MAX_JSON_DEPTH;
4. the notebook's shape: an object with a list of cells (at most MAX_CELLS), each source text or a
   list of texts, each code cell's source at most MAX_CELL_SOURCE_CHARS and all of them together
   MAX_CODE_CHARS, at most MAX_CELL_OUTPUTS outputs a code cell and MAX_OUTPUTS in all.

What is returned is an ``nbformat.NotebookNode`` built from the checked data, not validated: the
notebook and its cells have attribute access (``nb.cells``, ``cell.source``), sources are joined
into one string as nbformat does, anything else is the JSON as it was. Values the grader does not
read are kept but never trusted (``cells`` may hold non-objects, metadata any JSON).
"""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import numpy as np
from nbformat import NotebookNode

from ...common.notebooks import answer_ids, cell_grade_id, is_test, lesson_answer_ids, lessons, match_lessons
from ...common.textsafe import printable
from ..core.settings import (
    MAX_CELL_OUTPUTS,
    MAX_CELL_SOURCE_CHARS,
    MAX_CELLS,
    MAX_CODE_CHARS,
    MAX_JSON_DEPTH,
    MAX_JSON_ITEMS,
    MAX_NOTEBOOK_BYTES,
    MAX_OUTPUTS,
)


def json_shape(raw: bytes) -> tuple[int, int]:
    """(deepest nesting of arrays and objects, values and keys at most) of the JSON text ``raw``,
    counted on its bytes in time and memory linear in its size, before any parse.

    Escaped backslashes, then escaped quotes are taken out (what is left of a string has no quote
    inside); then, in slices of a million bytes with NumPy (no Python loop per byte), a byte lies
    in a string where an odd number of quotes comes before it, and only the brackets, commas and
    colons outside strings count. Every value or key but the first follows a ``[``, ``{``, ``,``
    or ``:``: their number plus one bounds the values and keys (exactly, but for one more an empty
    array or object). Nesting is the running count of opening less closing brackets. Text that is
    not JSON gets numbers too: a parser stops at its first error (a string that never ends is one
    to the end), and up to there it reads what was counted here."""
    text = np.frombuffer(raw.replace(b"\\\\", b"").replace(b'\\"', b""), dtype=np.uint8)
    parity = depth = deepest = items = 0
    for start in range(0, len(text), 2**20):
        part = text[start : start + 2**20]
        quote = part == ord('"')
        outside = (np.cumsum(quote) + parity) % 2 == 0
        parity = (parity + int(np.count_nonzero(quote))) % 2
        opening = outside & ((part == ord("[")) | (part == ord("{")))
        closing = outside & ((part == ord("]")) | (part == ord("}")))
        separators = outside & ((part == ord(",")) | (part == ord(":")))
        items += int(np.count_nonzero(opening)) + int(np.count_nonzero(separators))
        running = np.cumsum(opening.astype(np.int64) - closing) + depth
        deepest, depth = max(deepest, int(running.max())), int(running[-1])
    return deepest, items + 1


def parse_notebook(raw: bytes) -> NotebookNode:
    """The notebook in ``raw``, or raise ValueError with a short printable reason (module docstring:
    what is checked, in which order)."""
    if len(raw) > MAX_NOTEBOOK_BYTES:
        raise ValueError(f"over {MAX_NOTEBOOK_BYTES // 2**20} MiB")
    depth, items = json_shape(raw)
    if depth > MAX_JSON_DEPTH:
        raise ValueError(f"its JSON is nested over {MAX_JSON_DEPTH} deep")
    if items > MAX_JSON_ITEMS:
        raise ValueError(f"its JSON holds over {MAX_JSON_ITEMS:,} values")
    try:
        text = raw[len(codecs.BOM_UTF8) :] if raw.startswith(codecs.BOM_UTF8) else raw
        data = json.loads(text.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 text (byte {exc.start})") from None
    except (ValueError, RecursionError) as exc:  # JSONDecodeError; an integer of over 4,300 digits
        first = str(exc).splitlines()[0] if str(exc) else ""
        raise ValueError(printable(f"not JSON ({type(exc).__name__}: {first})", 200)) from None
    return _notebook(data)


def _notebook(data) -> NotebookNode:
    """The shape checks of a parsed submission (module docstring, step 4)."""
    if not isinstance(data, dict):
        raise ValueError("not a notebook (its JSON is not an object)")
    if not isinstance(data.get("cells"), list):
        raise ValueError("no cells")
    if len(data["cells"]) > MAX_CELLS:
        raise ValueError(f"over {MAX_CELLS:,} cells")
    cells, code, outputs = [], 0, 0
    for cell in data["cells"]:
        if not isinstance(cell, dict):
            cells.append(cell)  # the grader reads only cells that are objects
            continue
        cell = NotebookNode(cell)
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(line, str) for line in source):
            cell["source"] = source = "".join(source)
        elif not isinstance(source, str):
            raise ValueError("a cell's source is not text")
        if cell.get("cell_type") == "code":
            if len(source) > MAX_CELL_SOURCE_CHARS:
                raise ValueError(f"a code cell's source is over {MAX_CELL_SOURCE_CHARS // 2**10} Ki characters")
            code += len(source)
            if code > MAX_CODE_CHARS:
                raise ValueError(f"its code cells hold over {MAX_CODE_CHARS // 2**10} Ki characters")
            shown = cell.get("outputs")
            if isinstance(shown, list):
                if len(shown) > MAX_CELL_OUTPUTS:
                    raise ValueError(f"a code cell has over {MAX_CELL_OUTPUTS:,} outputs")
                outputs += len(shown)
                if outputs > MAX_OUTPUTS:
                    raise ValueError(f"its code cells have over {MAX_OUTPUTS:,} outputs")
        if isinstance(cell.get("metadata"), dict):
            cell["metadata"] = NotebookNode(cell["metadata"])
        cells.append(cell)
    nb = NotebookNode(data)
    nb["cells"] = cells
    if isinstance(nb.get("metadata"), dict):
        nb["metadata"] = NotebookNode(nb["metadata"])
    return nb


def read_submission(path: Path) -> bytes:
    """A submitted file's bytes, never more than one past MAX_NOTEBOOK_BYTES (``parse_notebook``
    then says it is too large)."""
    with open(path, "rb") as f:
        return f.read(MAX_NOTEBOOK_BYTES + 1)


def lesson_of(notebook: Path) -> str | None:
    """The lesson a learner's notebook belongs to: by its name, or, for a renamed copy ("Copy of
    02_matmul_accumulation.ipynb", "mine.ipynb"), by its exercises' nbgrader ids (None where it
    cannot be read or is no lesson's, or several lessons')."""
    if notebook.stem in lessons():
        return notebook.stem
    try:
        mine = answer_ids(parse_notebook(read_submission(notebook)))
    except (OSError, ValueError):
        return None
    matches = match_lessons(mine, lesson_answer_ids())
    return matches[0] if len(matches) == 1 else None


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
