"""Reading a submission (notebook/submissions.py) and planning it (notebook/plan.py): time and peak
memory for hostile notebooks beside an honest one (issue 50).

    PYTHONPATH=. python benchmarks/bench_reading.py            # every input below
    PYTHONPATH=. python benchmarks/bench_reading.py --old      # also nbformat.reads, the reader before

Each input is written to a file and read in a fresh process (so each peak is that input's alone):
``parse_notebook`` on its bytes, then, if it was read, ``build_plan`` on lesson 01 as a worker would.
Printed per input: its size, what the reader made of it, seconds and peak memory (the process's
maximum resident set over what it held once the bytes were in) of each stage, and the ratios to
the honest notebook's. ``--old`` adds ``nbformat.reads`` (schema validation included) on the
smaller output floods, under a 3 GiB address-space cap: 45 KB and 0.36 ms an output, which took a
6 GB grader down at 300,000 of them.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from bounded_reading import LESSON, grade_id, honest, huge_answer, many_outputs  # noqa: E402


def _with_code(sources: list[str]) -> bytes:
    nb = honest()
    answers = [c for c in nb["cells"] if grade_id(c).startswith("answer_")]
    for cell, src in zip(answers, sources):
        cell["source"] = src
    return json.dumps(nb).encode()


def _with_metadata(fragment: str) -> bytes:
    """The honest notebook with one more top-level key, ``"x": fragment``."""
    return (json.dumps(honest())[:-1] + ', "x": ' + fragment + "}").encode()


def _status(field: str) -> int:
    """A field of /proc/self/status, in KiB (VmRSS, VmHWM)."""
    line = next(x for x in Path("/proc/self/status").read_text().splitlines() if x.startswith(field + ":"))
    return int(line.split()[1])


def _peak_from_here() -> int:
    """Resets the process's peak resident set (Linux: clear_refs 5) and returns what it holds now."""
    Path("/proc/self/clear_refs").write_text("5")
    return _status("VmRSS")


def inputs() -> dict:
    from autograder.grader.core import settings as s

    tokens = "y = [" + "1," * ((s.IPYTHON_LINE_CHARS - 6) // 2) + "]\n"  # a line of 500 tokens
    magic = "%time x\n" * s.IPYTHON_ESCAPES + tokens * ((s.IPYTHON_CELL_CHARS - 100) // len(tokens))
    # the most syntax tree a character makes: one short statement a line
    filler = " a=1\n" * (s.MAX_CELL_SOURCE_CHARS // 5 - 10)
    honest_code = sum(len("".join(c["source"])) for c in honest()["cells"] if c["cell_type"] == "code")
    half = " a=1\n" * ((s.MAX_CODE_CHARS - honest_code) // 10 - 10)
    return {
        "honest (lesson 01, solved)": json.dumps(honest()).encode(),
        "100,000 empty outputs": many_outputs(100_000),
        "300,000 empty outputs": many_outputs(300_000),
        "20 MB answer cell": huge_answer(20),
        "256 Ki answer cell (the largest read)": _with_code(["def bf16_round(x):\n" + filler]),
        "512 Ki of code (all code read)": _with_code(["def bf16_round(x):\n" + half] * 2),
        "IPython's largest (8 magics, 16 Ki)": _with_code([magic] * 4),
        "1,000,000 values of {} (the most read)": _with_metadata("[" + ",".join(["{}"] * 499_000) + "]"),
        "50 MiB of {} (refused unparsed)": _with_metadata("[" + "{}," * (50 * 2**20 // 3 - 20_000) + "0]"),
        '50 MiB of "" (json_shape\'s slowest)': _with_metadata("[" + '"",' * (50 * 2**20 // 3 - 20_000) + "0]"),
        "nested 1,000,000 deep": _with_metadata("[" * 10**6 + "]" * 10**6),
        "a 48 MiB string (the largest read)": _with_metadata(json.dumps("\U0001f600" + "a" * (48 * 2**20))),
    }


def one(path: str, old: bool) -> dict:
    """In a fresh process: read and plan the notebook in ``path``."""
    raw = Path(path).read_bytes()
    if old:
        import nbformat

        resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, 3 * 2**30))
        base, t0 = _peak_from_here(), time.perf_counter()
        try:
            nbformat.reads(raw.decode(), as_version=4)
            outcome = "read"
        except MemoryError:
            outcome = "MemoryError at the 3 GiB cap"
        peak = _status("VmHWM") - base
        return {"outcome": outcome, "read_s": time.perf_counter() - t0, "read_kb": peak}
    from autograder.grader.notebook.plan import build_plan
    from autograder.grader.notebook.submissions import parse_notebook
    from conftest import grading_lesson

    lesson = grading_lesson(LESSON, mistakes=False).notebooks()
    base, t0 = _peak_from_here(), time.perf_counter()
    try:
        nb = parse_notebook(raw)
    except ValueError as exc:
        return {"outcome": f"refused: {exc}", "read_s": time.perf_counter() - t0, "read_kb": _status("VmHWM") - base}
    read_s, read_kb = time.perf_counter() - t0, _status("VmHWM") - base
    del raw
    base, t0 = _peak_from_here(), time.perf_counter()
    plan = build_plan(*lesson[:2], nb, lesson[2])
    notes = [n.split(":")[0] for n in plan.notes if "does not parse" in n]
    return {
        "outcome": "planned" + (f" ({'; '.join(notes)})" if notes else ""),
        "read_s": read_s,
        "read_kb": read_kb,
        "plan_s": time.perf_counter() - t0,
        "plan_kb": _status("VmHWM") - base,
    }


def measure(raw: bytes, old: bool) -> dict:
    with tempfile.NamedTemporaryFile(suffix=".ipynb") as f:
        f.write(raw)
        f.flush()
        cmd = [sys.executable, __file__, "--one", f.name] + (["--old"] if old else [])
        proc = subprocess.run(cmd, capture_output=True, text=True, env={"OPENBLAS_NUM_THREADS": "1", "PATH": ""})
    if proc.returncode:
        return {"outcome": f"died ({proc.returncode}): {proc.stderr.strip().splitlines()[-1:]}"}
    return json.loads(proc.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", action="store_true", help="also nbformat.reads on the smaller output floods")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one, args.old)))
        return
    print(
        f"{'input':40} {'bytes':>11} {'read s':>7} {'read MB':>8} {'plan s':>7} {'plan MB':>8} "
        f"{'x time':>7} {'B/B':>6}  outcome"
    )
    honest_row = None
    for name, raw in inputs().items():
        r = measure(raw, old=False)
        honest_row = honest_row or r
        seconds = r.get("read_s", 0) + r.get("plan_s", 0)
        peak = max(r.get("read_kb", 0), r.get("plan_kb", 0)) * 1024
        cells = [
            f"{r[k]:7.3f}" if k in r else f"{'-':>7}" if k.endswith("_s") else f"{'-':>8}"
            for k in ("read_s", "read_kb", "plan_s", "plan_kb")
        ]
        cells[1::2] = [f"{r[k] / 1024:8.1f}" if k in r else f"{'-':>8}" for k in ("read_kb", "plan_kb")]
        ratio = seconds / (honest_row["read_s"] + honest_row["plan_s"])
        print(f"{name:40} {len(raw):11,} {' '.join(cells)} {ratio:7.2f} {peak / len(raw):6.1f}  {r['outcome'][:60]}")
    print("(x time: read and plan against the honest notebook's; B/B: the peak memory over the bytes read)")
    if args.old:
        print("\nnbformat.reads (the reader before issue 50), under a 3 GiB address-space cap:")
        for n in (1_000, 10_000, 30_000):
            raw = many_outputs(n)
            r = measure(raw, old=True)
            seconds, mb = r.get("read_s", 0), r.get("read_kb", 0) / 1024
            print(f"{n:>7,} empty outputs {len(raw):11,} bytes: {seconds:7.2f} s, {mb:8.1f} MB, {r['outcome']}")


if __name__ == "__main__":
    main()
