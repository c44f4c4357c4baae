"""Issue 50: random and malformed notebooks through the parent's intake and a worker's reading and
plan, under a memory cap.

A seeded generator (tests/bounded_reading.py, ``fuzz_case``) makes each notebook from the solved
lesson 01: JSON nested up to 100,000 deep or never closed, strings of millions of characters,
millions of small values, bytes that are not UTF-8, byte-order marks, NaN and Infinity literals,
integers of 5,000 digits, lone surrogates, duplicate keys, truncated files, random bytes, odd JSON
types in every place of the notebook, 10,001 cells, 300,000 outputs, and answer cells of hostile
Python (nesting past the parser's limits, null bytes, thousands of IPython magics, a 200,000-
character line after a magic). Every one runs through ``intake.take`` (a class of its own) and
through ``parse_notebook`` and ``build_plan`` as a worker would, in one process capped at 1.5 GiB
of address space: each is planned or refused with a short printable reason, never an exception,
never near the cap.
"""

import pytest

from bounded_reading import LESSON
from test_reading_class import CAP, bounded

SEED, COUNT = 50, 150
REFUSALS = [  # each bound the fuzzer must have reached at least once
    "its JSON is nested over 64 deep",
    "its JSON holds over 1,000,000 values",
    "not UTF-8 text",
    "not JSON",
    "not a notebook",
    "no cells",
    "over 10,000 cells",
    "a cell's source is not text",
    "a code cell has over 1,000 outputs",
    "a code cell's source is over 256 Ki characters",
]


@pytest.mark.compat  # make compat (CI): random notebooks by the hundred
def test_random_and_malformed_notebooks_are_planned_or_refused_within_a_memory_cap(tmp_path):
    report = bounded("fuzz", str(SEED), str(COUNT), str(tmp_path))
    outcomes = report["outcomes"]
    assert len(outcomes) == COUNT
    for case in outcomes:
        taken, reading = case["intake"], case["reading"]
        assert "crashed" not in taken, case
        assert list(taken["found"]) == [f"mallory/{LESSON}"], case  # named like the lesson: a row
        assert reading.startswith(("planned: ", "unreadable: ")), case
        if reading.startswith("unreadable: "):
            reason = reading.removeprefix("unreadable: ")
            assert len(reason) <= 300 and reason.isprintable(), case
    reasons = " ".join(c["reading"] for c in outcomes)
    assert [r for r in REFUSALS if r not in reasons] == [], "a bound the fuzzer never reached"
    assert "does not parse" in reasons, "hostile code reached the plan"
    assert sum(c["reading"].startswith("planned") for c in outcomes) >= COUNT // 5
    assert max(c["bytes"] for c in outcomes) > 10 * 2**20
    assert report["vm_peak"] < CAP - 2**26, "the reading came near its cap"
