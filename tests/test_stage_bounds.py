"""Issue 50: the bounds of the stages after reading that take a submission's bytes or strings
(docs/GRADING.md, "Bounds on what reads a submission"): the wire's parse of a frame, the text shown
from a submission (``printable``), the notes a row gets about its cells and its duplicate files.
"""

import json
import random
import tracemalloc

import pytest

from autograder.grader.core import settings, wire
from autograder.grader.notebook.plan import build_plan
from autograder.grader.notebook.submissions import parse_notebook
from autograder.common.textsafe import escape_controls, printable
from bounded_reading import LESSON, grade_id, honest
from conftest import grading_lesson

# frames of the shapes that cost json.loads the most objects a byte (nested one-item arrays: a list
# and its item slots, 88 bytes, for each two bytes of JSON)
WORST = ["[" * d + "]" * d for d in (1, 3, 10, 60)] + ['{"":[]}', "[{}]", '{"":{}}', '{"":0}', '""', "0"]


@pytest.mark.parametrize("unit", WORST)
def test_a_frame_costs_json_loads_at_most_45_bytes_a_byte(unit):
    """wire.py's MAX_FRAME comment: a 16 MiB frame builds at most about 720 MB (1 MiB frames here)."""
    body = ('{"x":[' + ",".join([unit] * (2**20 // (len(unit) + 1))) + "]}").encode()
    tracemalloc.start()
    try:
        message = wire.parse(body)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(message["x"]) > 1000 and peak <= 45 * len(body), peak / len(body)


def test_a_frame_over_the_cap_is_refused_from_its_header_alone():
    header = (wire.MAX_FRAME + 1).to_bytes(wire.HEADER_SIZE, "big")
    with pytest.raises(wire.WireError, match="over the"):
        wire.frame_length(header)
    assert wire.frame_length(wire.MAX_FRAME.to_bytes(wire.HEADER_SIZE, "big")) == wire.MAX_FRAME


def test_printable_costs_its_limit_and_shows_what_the_whole_text_would():
    """Cutting first changes nothing: escaping lengthens a character and never looks at the next."""
    rng = random.Random(50)
    alphabet = ["a", "\u00e9", "\x1b", "\n", "\t", "\u202e", "\ud800", "\U0001f600", "\x7f", "\u2028"]
    for _ in range(2000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))
        limit, keep = rng.randrange(3, 30), rng.choice(["", "\t\n"])
        whole = escape_controls(text, keep=keep)
        expected = whole if len(whole) <= limit else whole[: limit - 3] + "..."
        assert printable(text, limit, keep) == expected, (text, limit, keep)
    huge = "\x1b" * 10**7  # escaped whole: 40 MB; cut first: 1 KB
    tracemalloc.start()
    try:
        shown = printable(huge, 300)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert shown == ("\\x1b" * 75)[:297] + "..." and peak < 2**16


def test_a_notebook_of_many_broken_cells_gets_a_short_list_of_notes():
    nb = honest()
    first = next(i for i, c in enumerate(nb["cells"]) if grade_id(c).startswith("answer_"))
    added = [{"cell_type": "code", "metadata": {}, "outputs": [], "source": f"def f{i}(:\n"} for i in range(30)]
    nb["cells"][first:first] = added
    source, release, committed = grading_lesson(LESSON, mistakes=False).notebooks()
    plan = build_plan(source, release, parse_notebook(json.dumps(nb).encode()), committed)
    broken = [n for n in plan.notes if "do not parse" in n or "does not parse" in n]
    assert len(broken) == settings.NAMED_IN_A_NOTE + 1, plan.notes
    assert broken[-1] == "20 more cells do not parse: nothing in them was defined"


def test_a_students_many_copies_of_one_lesson_are_named_in_a_short_note(tmp_path):
    from autograder.grader.classroom.intake import take
    from autograder.common.notebooks import lesson_answer_ids

    raw = json.dumps(honest()).encode()
    (tmp_path / "ada").mkdir()
    for i in range(30):
        (tmp_path / "ada" / f"{LESSON} ({i}).ipynb").write_bytes(raw)
    taken = take(tmp_path, lesson_answer_ids())
    (note,) = taken.row_notes[("ada", LESSON)]
    assert note.startswith(f"30 notebooks of {LESSON}: graded ") and note.endswith(" and 19 more"), note
    assert note.count(".ipynb") == 1 + settings.NAMED_IN_A_NOTE


def test_what_the_checker_keeps_of_the_students_words_is_capped():
    """An exception's message (its first line, 500 characters), a test's printed output
    (``max_output_chars``) and the ready message's names (READY_NAMES read, each forged one cut to
    60 characters): what a record carries of the student's process whatever it sent."""
    from autograder.grader.checker.main import CappedText
    from autograder.grader.checker.names import contract_names
    from autograder.grader.core.faults import first_line

    assert first_line(ValueError("x" * 10**6 + "\nsecond line")) == "x" * 500
    out = CappedText(20)
    for _ in range(1000):
        out.write("0123456789" * 1000)
    assert out.getvalue() == "01234567890123456789"
    defined = ["f"] + ["g" * 10**5] * (settings.READY_NAMES + 5) + [[["deep"] * 10**5]]
    names, forged = contract_names(defined, ["f"])
    assert names == ["f"] and len(forged) == settings.READY_NAMES and forged[-1] == "7 names more"
    assert max(map(len, forged)) == 60
