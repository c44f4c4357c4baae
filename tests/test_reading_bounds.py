"""Issue 50: each bound on reading a submission (settings.py's block "Reading a submission"), one
test a bound: at the bound the notebook is read, one past it the notebook is refused with the
bound's reason, and the refusal comes before the step the bound protects (``json.loads``, IPython's
transformer, the plan's one parse of each cell). The class-sized cases are test_reading_class.py's,
the random ones test_reading_fuzz.py's.
"""

import ast
import json

import pytest
from IPython.core.inputtransformer2 import TransformerManager

from autograder.grader.core import settings as s
from autograder.grader.core.studentcode import cell_python, definitions_only, parse_cell
from autograder.grader.notebook import plan as plan_module
from autograder.grader.notebook import submissions
from autograder.grader.notebook.attacks import static_attacks
from autograder.grader.notebook.plan import build_plan
from autograder.grader.notebook.submissions import json_shape, lesson_of, parse_notebook
from bounded_reading import HOSTILE_CODE, LESSON, grade_id, honest
from conftest import grading_lesson


def code(source="", outputs=0) -> dict:
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [{}] * outputs, "source": source}


def markdown(source="") -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": source}


def notebook(cells, **metadata) -> bytes:
    return json.dumps({"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}).encode()


def padded_to_items(n: int) -> bytes:
    """A notebook whose JSON counts exactly ``n`` values and keys (json_shape)."""
    base = json_shape(notebook([code("x = 1")], pad=[]))[1]  # the empty list counts one "["
    return notebook([code("x = 1")], pad=[0] * (n - base + 1))


def nested(depth: int) -> bytes:
    """A notebook whose JSON nests ``depth`` deep (the notebook 1, its metadata 2, then lists)."""
    return notebook([code("x = 1")], x="HOLE").replace(b'"HOLE"', b"[" * (depth - 2) + b"]" * (depth - 2))


# (bound, a notebook at it, one past it, the reason)
BOUNDS = {
    "nesting": (
        lambda: nested(s.MAX_JSON_DEPTH),
        lambda: nested(s.MAX_JSON_DEPTH + 1),
        "its JSON is nested over 64 deep",
    ),
    "values": (
        lambda: padded_to_items(s.MAX_JSON_ITEMS),
        lambda: padded_to_items(s.MAX_JSON_ITEMS + 1),
        "its JSON holds over 1,000,000 values",
    ),
    "cells": (
        lambda: notebook([markdown()] * s.MAX_CELLS),
        lambda: notebook([markdown()] * (s.MAX_CELLS + 1)),
        "over 10,000 cells",
    ),
    "outputs of a cell": (
        lambda: notebook([code(outputs=s.MAX_CELL_OUTPUTS)]),
        lambda: notebook([code(outputs=s.MAX_CELL_OUTPUTS + 1)]),
        "a code cell has over 1,000 outputs",
    ),
    "outputs": (
        lambda: notebook([code(outputs=s.MAX_CELL_OUTPUTS)] * 10),
        lambda: notebook([code(outputs=s.MAX_CELL_OUTPUTS)] * 10 + [code(outputs=1)]),
        "its code cells have over 10,000 outputs",
    ),
    "a cell's source": (
        lambda: notebook([code("x" * s.MAX_CELL_SOURCE_CHARS)]),
        lambda: notebook([code(["x\n"] * (s.MAX_CELL_SOURCE_CHARS // 2) + ["x"])]),
        "a code cell's source is over 256 Ki characters",
    ),
    "all code": (
        lambda: notebook([code("x" * (s.MAX_CODE_CHARS // 2))] * 2),
        lambda: notebook([code("x" * (s.MAX_CODE_CHARS // 2))] * 2 + [code("y")]),
        "its code cells hold over 512 Ki characters",
    ),
    "bytes": (
        lambda: notebook([markdown("x" * (s.MAX_NOTEBOOK_BYTES - len(notebook([markdown()]))))]),
        lambda: notebook([markdown("x" * (s.MAX_NOTEBOOK_BYTES + 1 - len(notebook([markdown()]))))]),
        "over 50 MiB",
    ),
}


@pytest.mark.parametrize("bound", BOUNDS)
def test_a_notebook_at_a_bound_is_read_and_one_past_it_is_refused_with_the_reason(bound):
    at, past, reason = BOUNDS[bound]
    assert isinstance(parse_notebook(at()).cells, list)
    with pytest.raises(ValueError) as refused:
        parse_notebook(past())
    assert str(refused.value) == reason


@pytest.mark.parametrize("raw", [nested(100_000), b"[" * 10**6, padded_to_items(3 * 10**6), b'{"a":' * 100])
def test_nesting_and_values_are_refused_before_json_loads(raw, monkeypatch):
    def never(*_):
        raise AssertionError("json.loads ran")

    monkeypatch.setattr(submissions.json, "loads", never)
    with pytest.raises(ValueError, match="nested over|values"):
        parse_notebook(raw)


def test_json_shape_counts_brackets_commas_and_colons_outside_strings_only():
    assert json_shape(b"[]") == (1, 2)
    assert json_shape(b'{"a": [1, 2, {"b": null}]}') == (3, 8)
    tricky = json.dumps(["[[[{{,:", 'a"[', "\\", '"', "\\[", '\\"]']).encode()  # escapes of every kind
    assert json_shape(tricky) == (1, 7)
    assert json_shape(b'["abc[[[[') == (1, 2), "a string that never ends: what a parser reads before it"
    assert json_shape(b"[" * 10**6) == (10**6, 10**6 + 1)
    raw = json.dumps(honest()).encode()

    def depth_and_values(v, d=1):  # an empty array or object: one value and one more bracket
        if isinstance(v, (list, dict)):
            inner = [depth_and_values(x, d + 1) for x in (list(v.values()) if isinstance(v, dict) else v)]
            keys = len(v) if isinstance(v, dict) else 0
            return max([d] + [i[0] for i in inner]), 1 + keys + (not v) + sum(i[1] for i in inner)
        return d - 1, 1

    depth, values = depth_and_values(json.loads(raw))
    assert json_shape(raw) == (depth, values), "exact on a real notebook"


def test_what_is_read_is_a_notebook_whose_sources_are_text():
    nb = parse_notebook(
        b"\xef\xbb\xbf"  # a byte-order mark: skipped
        + notebook(
            [code(["def f():\n", "    return 1\n"]), markdown("m" * (4 * s.MAX_CELL_SOURCE_CHARS)), 5, None],
            value=float("nan"),
        )
    )
    first = nb.cells[0]
    assert first.source == "def f():\n    return 1\n" and first.cell_type == "code" and first.metadata == {}
    assert len(nb.cells[1].source) == 4 * s.MAX_CELL_SOURCE_CHARS, "a markdown cell's source is not code"
    assert nb.cells[2:] == [5, None], "cells that are not objects are kept, never read"
    assert nb.metadata.value != nb.metadata.value, "NaN, as json reads it"
    assert parse_notebook(b'{"cells": 3, "cells": []}').cells == [], "a duplicate key: the last one"


@pytest.mark.parametrize(
    "raw, reason",
    [
        (b'{"cells": [}', "not JSON (JSONDecodeError: Expecting value: line 1 column 12 (char 11))"),
        (b'{"cells": [], "x": ' + b"1" * 5000 + b"}", "not JSON (ValueError: Exceeds the limit (4300 digits)"),
        ("{\u00e9}".encode("latin-1"), "not UTF-8 text (byte 1)"),
        (b"\xef\xbb\xbf\xef\xbb\xbf{}", "not JSON (JSONDecodeError: Unexpected UTF-8 BOM"),
        (b"[]", "not a notebook (its JSON is not an object)"),
        (b'{"cells": {}}', "no cells"),
        (notebook([code([1, "a"])]), "a cell's source is not text"),
        (notebook([markdown({"a": 1})]), "a cell's source is not text"),
    ],
)
def test_an_unreadable_notebook_says_why_in_one_short_line(raw, reason):
    with pytest.raises(ValueError) as refused:
        parse_notebook(raw)
    assert str(refused.value).startswith(reason) and len(str(refused.value)) <= 200
    assert str(refused.value).isprintable()


def test_lesson_of_reads_a_learners_file_within_the_bounds(tmp_path):
    (tmp_path / "mine.ipynb").write_bytes(nested(100_000))
    (tmp_path / "yours.ipynb").write_bytes(json.dumps(honest()).encode())
    assert lesson_of(tmp_path / "mine.ipynb") is None and lesson_of(tmp_path / "yours.ipynb") == LESSON


# ------------------------------------------------------------------------------- the plan's parse
def test_a_cell_nested_past_the_bound_does_not_parse_and_never_raises():
    within = "x = " + "a + " * (s.MAX_CODE_DEPTH - 5) + "a"
    past = "x = " + "a + " * s.MAX_CODE_DEPTH + "a"
    assert parse_cell(within)[1] is None and isinstance(parse_cell(within)[0], ast.Module)
    assert parse_cell(past) == (None, "nested over 100 deep")
    for src in ["-" * 100_000 + "1", "x = " + "a + " * 100_000 + "a", "lambda: " * 5_000 + "1"]:
        assert parse_cell(src) == (None, "nested too deeply for Python's parser")
    assert parse_cell("x = 1\0")[1] == "source code string cannot contain null bytes"
    assert parse_cell("\ud800 = 1")[0] is None
    for src in HOSTILE_CODE:
        tree, problem = parse_cell(src)
        assert (tree is None) != (problem is None)
        code_kept, _, _ = definitions_only(src)
        assert isinstance(code_kept, str)


def _transformed(monkeypatch) -> list:
    calls = []
    real = TransformerManager.transform_cell
    monkeypatch.setattr(TransformerManager, "transform_cell", lambda self, src: calls.append(src) or real(self, src))
    return calls


@pytest.mark.parametrize(
    "at, past",
    [
        (
            "%time x\n" + "y = 1\n" * ((s.IPYTHON_CELL_CHARS - 8) // 6),
            "%time x\n" + "y = 1\n" * (s.IPYTHON_CELL_CHARS // 6),
        ),
        (
            "%time x\ny = '" + "a" * (s.IPYTHON_LINE_CHARS - 6) + "'\n",
            "%time x\ny = '" + "a" * (s.IPYTHON_LINE_CHARS - 5) + "'\n",
        ),
        ("%time x\n" * s.IPYTHON_ESCAPES, "%time x\n" * (s.IPYTHON_ESCAPES + 1)),
        ("x = %time f()\n" * s.IPYTHON_ESCAPES, "x = !ls\n" * s.IPYTHON_ESCAPES + "f?\n"),
    ],
)
def test_ipythons_transformer_reads_only_cells_within_its_bounds(at, past, monkeypatch):
    calls = _transformed(monkeypatch)
    assert "get_ipython()" in cell_python(at) and calls == [at]
    assert cell_python(past) == past and calls == [at], "read as plain Python: the magic does not parse"
    assert parse_cell(past)[0] is None


def test_a_plan_parses_each_student_cell_once_and_notes_what_does_not_parse(monkeypatch):
    nb = honest()
    answers = [c for c in nb["cells"] if grade_id(c).startswith("answer_")]
    answers[0]["source"] = "-" * 100_000 + "1"
    answers[1]["source"] = "x = " + "a + " * 500 + "a"
    helper = code("def helper():\n    return 2\n") | {"id": ["not", "an", "id"]}
    nb["cells"][3:3] = [helper, helper]  # the same source twice: parsed once
    parsed = []
    real = plan_module.parse_cell
    monkeypatch.setattr(plan_module, "parse_cell", lambda src: parsed.append(src) or real(src))
    source, release, committed = grading_lesson(LESSON, mistakes=False).notebooks()
    plan = build_plan(source, release, parse_notebook(json.dumps(nb).encode()), committed)
    assert len(parsed) == len(set(parsed)) == 5, "four answers and the added cells' one source, each parsed once"
    assert [n.split(" (")[0] for n in plan.notes if "does not parse" in n] == [
        f"{grade_id(answers[0])} does not parse",
        f"{grade_id(answers[1])} does not parse",
    ], plan.notes
    assert any("def helper" in c for _, c in plan.student_cells), "a cell with an odd id is still the student's"


def test_an_attack_is_named_in_a_short_line():
    found = static_attacks(["import numpy as np\nnp.x[" + "1, " * 100_000 + "1].y = 2\n"], plan_module.Protected([]))
    assert any(f.startswith("assigns np.x[1, 1") for f in found) and all(len(f) <= 110 for f in found), found
