"""Issue 60 (5): the differential fuzzer's record, replayed without a chip.

tests/data/tpu/fuzz/ holds what a TPU v5e (JAX 0.10.2, libtpu 0.0.42.1) computed from 2,849 jitted
programs (autograder/chip/fuzz_programs.py: 1,500 from a grammar of what students write, seed 1; 299
targeted questions after that round; 800 more from the grammar, seed 2, recorded after the rules and
limits were written from the first two, as a check of them; 250 from seed 3, a day later, a second
such check), with each compiled program's HLO.
Replayed here under the TPU emulation (in a fresh process, as the grader starts it), every program's
outputs are the chip's bits ("exact"), within float32 summation order where it sums ("close"), or
differ in a way one of the documented limits (autograder/chip/fuzz_limits.py, docs/HARDWARE.md)
explains. A mismatch outside every limit fails the test with the program's text.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from autograder.chip.fuzz_limits import LIMITS, explain
from conftest import ROOT

FUZZ = ROOT / "tests" / "data" / "tpu" / "fuzz"
RECORDS = {"r1": 1500, "targeted": 299, "r2": 800, "r3": 250}
# programs a rule written from the fuzzer rests on: each is the chip's with the rule, not without it
RULE_EVIDENCE = {
    "constant-folding": {
        "r1": ["p1-00626", "p1-00797"],  # (x - 3) + 3 returned x; (x * 0.1) * 0.1 returned x * 0.0100000007
        "targeted": ["q0-0291-constants-4"],  # (0.1 - x) + 0.2 returned 0.3 - x
    },
}
REPLAY = """
import json, os, sys
from autograder.chip import fuzz
if sys.argv[3]:
    os.environ["COURSE_EMULATE_WITHOUT"] = sys.argv[3]
os.environ["COURSE_EMULATE"] = "tpu"
from autograder.chip.emulation import source
exec(compile(source(), "<emulation>", "exec"), {"__name__": "__emulation__"})
wanted = json.loads(sys.argv[2])
print(json.dumps(fuzz.compare(sys.argv[1], ids=set(wanted) if wanted is not None else None)))
"""


def replay(record: str, ids=None, without: str = "") -> dict:
    """``fuzz.compare`` of a record (its programs of ``ids``) in a fresh process under the emulation."""
    args = [sys.executable, "-c", REPLAY, str(FUZZ / f"tpu_fuzz_{record}.json"), json.dumps(ids), without]
    proc = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=1500)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def programs(record: str) -> list[dict]:
    return json.loads((FUZZ / f"tpu_fuzz_{record}.json").read_text())["programs"]


def test_the_record_is_a_tpu_v5e_s_and_whole():
    for record, count in RECORDS.items():
        meta = json.loads((FUZZ / f"tpu_fuzz_{record}.json").read_text())
        assert (meta["backend"], meta["device_kind"]) == ("tpu", "TPU v5 lite"), record
        assert meta["versions"]["jax"] == "0.10.2" and meta["versions"]["libtpu"] == "0.0.42.1"
        assert len(meta["programs"]) == count and len({p["id"] for p in meta["programs"]}) == count


@pytest.mark.parametrize("rule", list(RULE_EVIDENCE))
def test_every_rule_the_fuzzer_found_is_needed_by_its_programs(rule):
    """With the rule the evidence programs are the chip's; without it (COURSE_EMULATE_WITHOUT) they
    are not: the rule is there because the chip computes that way."""
    for record, ids in RULE_EVIDENCE[rule].items():
        with_rule, without_rule = replay(record, ids), replay(record, ids, without=rule)
        assert {i: with_rule["verdicts"][i] for i in ids} == {i: "exact" for i in ids}, (rule, record)
        assert all(without_rule["verdicts"][i] == "mismatch" for i in ids), (rule, record, without_rule["verdicts"])


def test_every_limit_is_written_down_and_narrow():
    """docs/HARDWARE.md states each limit as fuzz_limits.py does, and a limit never covers a plain
    float32 program (no narrow cast, no dot, no division, no loop, no gradient)."""
    doc = " ".join((ROOT / "docs" / "HARDWARE.md").read_text().split())
    for name, (sentence, _) in LIMITS.items():
        assert f"`{name}`" in doc and " ".join(sentence.split()) in doc, f"docs/HARDWARE.md: limit {name}"
    source = "def program(x, w, v):\n    t1 = x * 3.0\n"
    assert explain({"id": "x", "tags": ["arithmetic", "structure:plain"], "source": source, "shapes": [2, 3, 4]}) == ""


@pytest.mark.compat  # make compat (CI): about 930 programs replayed (every one: hardware fuzz-compare)
@pytest.mark.parametrize("record", list(RECORDS))
def test_no_recorded_program_differs_from_the_chip_beyond_a_documented_limit(record):
    """The targeted round whole, every fourth program of the grammar's rounds; each mismatch named."""
    ids = [p["id"] for i, p in enumerate(programs(record)) if record == "targeted" or i % 4 == 0]
    result = replay(record, ids)
    assert result["programs"] == len(ids)
    outside = [m for m in result["mismatches"] if not m["limit"]]
    assert outside == [], "\n".join(f"{m['id']}: {m['why']}\n{m['source']}" for m in outside)
    print(record, result["counts"], {m["limit"] for m in result["mismatches"]})
