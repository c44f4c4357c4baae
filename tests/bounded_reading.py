"""The grader's stages that read a submission, run in a process of their own under an address-space
cap (RLIMIT_AS), for tests/test_reading_class.py and tests/test_reading_fuzz.py: a regression
fails those tests (a MemoryError, a crash) instead of eating the machine.

    python tests/bounded_reading.py CAP class SUBMISSIONS LESSON
    python tests/bounded_reading.py CAP fuzz SEED COUNT WORK_FOLDER

Each prints one JSON line: what the parent's intake found, and for each notebook what the worker's
reading made of it ("planned", "unreadable: <reason>" or "crashed: <exception>"), with the
process's peak address space (VmPeak). It uses only the grader's entry points that predate the
reading bounds (intake.take, parse_notebook, build_plan), so it runs against older code too.

Also the hostile notebooks of issue 50 (``many_outputs``, ``huge_answer``) and the fuzzer's
generator (``fuzz_cases``), which the tests and benchmarks/bench_reading.py share.
"""

from __future__ import annotations

import copy
import json
import random
import resource
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

LESSON = "01_number_formats"


def grade_id(cell) -> str:
    meta = cell.get("metadata") if isinstance(cell, dict) else None
    return str(((meta or {}).get("nbgrader") or {}).get("grade_id", ""))


def vm_peak() -> int:
    """This process's peak address space, in bytes (Linux's /proc)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmPeak:"):
            return int(line.split()[1]) * 1024
    return 0


def honest(lesson: str = LESSON) -> dict:
    """The lesson's release with every answer filled in from the solutions, as JSON data."""
    import nbformat

    from autograder.common.notebooks import fill_answers
    from conftest import source_nb, student_nb

    return json.loads(nbformat.writes(fill_answers(student_nb(lesson), source_nb(lesson))))


def many_outputs(n: int) -> bytes:
    """Issue 50: the solved notebook with ``n`` empty ``{}`` in its first code cell's outputs
    (300,000: 1.26 MB, which took the grader's parent down; 100,000: 457 KB, 9.7 GB and 2 minutes)."""
    nb = honest()
    next(c for c in nb["cells"] if c["cell_type"] == "code")["outputs"] = [{}] * n
    return json.dumps(nb).encode()


def huge_answer(mb: int) -> bytes:
    """Issue 50: the solved notebook whose bf16_round answer is ``mb`` MB of Python (a worker parsed
    it several times at about 500 bytes a byte)."""
    nb = honest()
    cell = next(
        c for c in nb["cells"] if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == "answer_bf16_round"
    )
    cell["source"] = "def bf16_round(x):\n" + "    y = 1\n" * (mb * 2**20 // 10)
    return json.dumps(nb).encode()


def read_like_a_worker(raw: bytes, lesson: str) -> str:
    """What a worker's grade_notebook makes of ``raw`` before it starts a checker."""
    from autograder.grader.notebook.plan import build_plan
    from autograder.grader.notebook.submissions import parse_notebook
    from conftest import grading_lesson

    try:
        try:
            nb = parse_notebook(raw)
        except ValueError as exc:
            return f"unreadable: {exc}"
        source, release, committed = grading_lesson(lesson, mistakes=False).notebooks()
        plan = build_plan(source, release, nb, committed)
        return "planned: " + " | ".join(plan.notes)
    except BaseException as exc:  # noqa: BLE001  what the test must never see
        return f"crashed: {type(exc).__name__}: {str(exc)[:200]}"


def intake(folder: Path) -> dict:
    from autograder.grader.classroom.intake import take
    from autograder.common.notebooks import lesson_answer_ids

    try:
        taken = take(folder, lesson_answer_ids(ROOT))
    except BaseException as exc:  # noqa: BLE001
        return {"crashed": f"{type(exc).__name__}: {str(exc)[:200]}"}
    return {
        "found": {"/".join(k): s.name for k, s in taken.found.items()},
        "refused": {"/".join(k): why for k, why in taken.refused.items()},
        "notes": taken.notes,
        "submissions": {"/".join(k): s for k, s in taken.found.items()},
    }


def run_class(folder: Path, lesson: str) -> dict:
    """The parent's intake of ``folder``, then each notebook it found read as a worker reads it."""
    taken = intake(folder)
    if "crashed" in taken:
        return {"intake": taken}
    readings = {}
    for key, submission in taken.pop("submissions").items():
        try:
            raw = submission.read()
        except (OSError, ValueError) as exc:
            readings[key] = f"not read: {exc}"
            continue
        readings[key] = read_like_a_worker(raw, lesson)
        del raw
    return {"intake": taken, "readings": readings}


# ------------------------------------------------------------------------------------ fuzzing
HOLE = "\u2603hole\u2603"  # a string put where a hostile JSON fragment then replaces it, text for text


def _with_hole(rng: random.Random, nb: dict) -> dict:
    """``nb`` with HOLE at a random place: the notebook's or a cell's metadata, a source, an
    output, a cell, the cells list, a cell's nbgrader metadata."""
    cells = nb["cells"]
    cell = rng.choice(cells)
    where = rng.randrange(7)
    if where == 0:
        nb["metadata"]["x"] = HOLE
    elif where == 1:
        cell.setdefault("metadata", {})["x"] = HOLE
    elif where == 2:
        cell["source"] = HOLE
    elif where == 3:
        code = [c for c in cells if c["cell_type"] == "code"]
        rng.choice(code)["outputs"] = [HOLE]
    elif where == 4:
        cells.insert(rng.randrange(len(cells) + 1), HOLE)
    elif where == 5:
        cell.setdefault("metadata", {}).setdefault("nbgrader", {})["grade_id"] = HOLE
    else:
        cell[rng.choice(["cell_type", "id", "outputs", "metadata", "execution_count"])] = HOLE
    return nb


def _fill(rng: random.Random, nb: dict, fragment: str) -> bytes:
    return json.dumps(_with_hole(rng, nb)).replace(json.dumps(HOLE), fragment, 1).encode("utf-8", "surrogatepass")


ODD = [
    "null", "true", "0", "-1", "1.5", "NaN", "Infinity", "-Infinity", '""', '"x"', "[]", "{}", '[1, "a", null]',
    '{"a": []}', '"\\ud800"', '"\\u0000\\u001b[2J"', "1" + "0" * 5000, "1e999999", "0." + "1" * 100_000,
]  # fmt: skip
HOSTILE_CODE = [
    "(" * 199 + "1" + ")" * 199,
    "(" * 300 + "1" + ")" * 300,
    "-" * 100_000 + "1",
    "x = " + "a + " * 900 + "a",
    "x = " + "a + " * 100_000 + "a",
    "x = " + "a." * 50_000 + "b",
    "lambda: " * 5_000 + "1",
    "def f():\n" + "".join(" " * (i + 1) + "if x:\n" for i in range(150)) + " " * 152 + "pass\n",
    "x = 1\0",
    "\ud800 = 1",
    "%time x\n" * 600,
    "%time x\nx = [" + "1," * 100_000 + "]\n",
    "x = %time f()\n" * 8 + "def bf16_round(x):\n    return x\n",
    "%%time\n" + "y = 1\n" * 20_000,
    "def bf16_round(x):\n    return x\n" + "x?\n" * 50,
    "import builtins\nbuiltins.len = None\ndef bf16_round(x):\n    return x\n",
    "\u202e\x1b[2J" * 1000,
    "def bf16_round(x):\n" + "    y = [" + ", ".join(["1"] * 40_000) + "]\n",
]


def fuzz_case(rng: random.Random, nb: dict) -> tuple[str, bytes]:
    """One random or malformed notebook: (what kind, its bytes)."""
    kind = rng.choice(
        ["deep", "unclosed", "huge string", "many items", "non-UTF-8", "BOM", "odd type", "duplicate keys",
         "truncated", "random bytes", "hostile code", "many cells", "outputs", "source types", "top level"]
    )  # fmt: skip
    if kind == "deep":
        d = rng.choice([63, 65, 1_000, 100_000])
        opening, closing = rng.choice([("[", "]"), ('{"a":', "}")])
        return kind, _fill(rng, nb, opening * d + "0" + closing * d)
    if kind == "unclosed":
        return kind, _fill(rng, nb, rng.choice(["[", "{", '"', "[{"]) * rng.choice([10, 10**6]))
    if kind == "huge string":
        text = rng.choice(["a", "\u00e9", "\U0001f600", "[{,:", '\\"', "\\\\"]) * rng.randrange(10**5, 4 * 10**6)
        return kind, _fill(rng, nb, json.dumps(text, ensure_ascii=rng.random() < 0.5))
    if kind == "many items":
        unit = rng.choice(["0", "{}", "[]", '""', '"ab"', '{"a":0}', "null"])
        return kind, _fill(rng, nb, "[" + ",".join([unit] * rng.choice([10**5, 6 * 10**5, 2 * 10**6])) + "]")
    if kind == "non-UTF-8":
        raw = bytearray(json.dumps(nb).encode())
        for _ in range(rng.randrange(1, 5)):
            raw[rng.randrange(len(raw))] = rng.choice([0xFF, 0xC3, 0x80, 0xED])
        return kind, bytes(raw)
    if kind == "BOM":
        return kind, b"\xef\xbb\xbf" * rng.choice([1, 2]) + json.dumps(nb).encode()
    if kind == "odd type":
        return kind, _fill(rng, nb, rng.choice(ODD))
    if kind == "duplicate keys":
        text = json.dumps(nb)
        return kind, text.replace('"cells": [', '"cells": 5, "cells": [', 1).replace(
            '"source": ', '"source": [1], "source": ', rng.randrange(1, 40)
        ).encode()
    if kind == "truncated":
        raw = json.dumps(nb).encode()
        return kind, raw[: rng.randrange(len(raw))]
    if kind == "random bytes":
        return kind, bytes(rng.randrange(256) for _ in range(rng.randrange(2_000)))
    if kind in ("hostile code", "source types"):
        answers = [
            c
            for c in nb["cells"]
            if c.get("metadata", {}).get("nbgrader", {}).get("grade_id", "").startswith("answer_")
        ]
        cell = rng.choice(answers if rng.random() < 0.8 else [c for c in nb["cells"] if c["cell_type"] == "code"])
        if kind == "hostile code":
            cell["source"] = rng.choice(HOSTILE_CODE)
        else:
            cell["source"] = rng.choice([[1, "a"], {"a": 1}, 5, None, ["def f(\n", "):\n"], [], True])
        return kind, json.dumps(nb, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogatepass")
    if kind == "many cells":
        cell = rng.choice([{}, {"cell_type": "code", "source": "x = 1"}, None, {"cell_type": "code"}])
        nb["cells"] += [copy.deepcopy(cell) for _ in range(rng.choice([5_000, 10_001]))]
        return kind, json.dumps(nb).encode()
    if kind == "outputs":
        code = [c for c in nb["cells"] if c["cell_type"] == "code"]
        for c in rng.sample(code, rng.randrange(1, min(12, len(code)))):
            c["outputs"] = [rng.choice([{}, [], None, {"output_type": "error"}])] * rng.choice(
                [10, 1_000, 1_001, 300_000]
            )
        return kind, json.dumps(nb).encode()
    return kind, json.dumps(rng.choice([[], "notebook", 4, None, {"cells": {}}, {"nbformat": 4}])).encode()


def fuzz_cases(seed: int, count: int):
    """``count`` (kind, bytes) from fuzz_case, reproducible from ``seed``."""
    rng, base = random.Random(seed), honest()
    for _ in range(count):
        yield fuzz_case(rng, copy.deepcopy(base))


def run_fuzz(seed: int, count: int, work: Path) -> dict:
    """Each fuzz case through the parent's intake (a folder of its own) and a worker's reading."""
    outcomes = []
    for i, (kind, raw) in enumerate(fuzz_cases(seed, count)):
        folder = work / f"case{i}"
        (folder / "mallory").mkdir(parents=True)
        (folder / "mallory" / f"{LESSON}.ipynb").write_bytes(raw)
        taken = intake(folder)
        taken.pop("submissions", None)
        shutil.rmtree(folder)
        outcomes.append({"kind": kind, "bytes": len(raw), "intake": taken, "reading": read_like_a_worker(raw, LESSON)})
        del raw
    return {"outcomes": outcomes}


if __name__ == "__main__":
    cap, mode, *args = sys.argv[1:]
    resource.setrlimit(resource.RLIMIT_AS, (int(cap), int(cap)))
    report = (
        run_class(Path(args[0]), args[1]) if mode == "class" else run_fuzz(int(args[0]), int(args[1]), Path(args[2]))
    )
    print(json.dumps({**report, "vm_peak": vm_peak()}))
