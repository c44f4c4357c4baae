"""The emulation compiles at LLVM's optimisation level 0 (emulate_precision.py, _course_without_fma):
with no fused multiply-add (capped at AVX) and no fast-math, LLVM's level changes how long XLA:CPU
takes to compile, and no float32 result but the order of a sum (a few units in the last place; the
chip's own order differs from the CPU's at either level, and every check allows for it). Checked on
the differential fuzzer's programs (what students write, and the targeted questions about casts, dots,
loops and gradients): each run under the emulation in a fresh process at level 0, as the emulation
sets it, and at level 2, XLA's default (an XLA_FLAGS that names a level keeps it). The grader and a
student's CPU runtime start the same emulation, so they compile at the same level.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from autograder.chip.fuzz import sums
from conftest import ROOT

FUZZ = ROOT / "tests" / "data" / "tpu" / "fuzz"
RUN = """
import json, os, sys
from pathlib import Path
os.environ["COURSE_EMULATE"] = "tpu"
from autograder.chip.emulation import source
exec(compile(source(), "<emulation>", "exec"), {"__name__": "__emulation__"})
from autograder.chip import fuzz
programs = []
for record, every in json.loads(sys.argv[2]).items():
    kept = json.loads((Path(sys.argv[1]) / f"tpu_fuzz_{record}.json").read_text())["programs"]
    programs += [{k: v for k, v in p.items() if k not in ("inputs", "outputs", "error")} for p in kept[::every]]
fuzz.record(programs, Path(sys.argv[3]), echo=None)
print(os.environ["XLA_FLAGS"])
"""
SAMPLE = {"targeted": 1, "r1": 5, "r3": 5}  # 299 + 300 + 50 programs


def run_at(level: str, out) -> str:
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
    if level:
        env["XLA_FLAGS"] = f"--xla_backend_optimization_level={level}"
    args = [sys.executable, "-c", RUN, str(FUZZ), json.dumps(SAMPLE), str(out)]
    proc = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout.strip().splitlines()[-1]


def outcomes(folder):
    meta = json.loads((folder / "tpu_fuzz.json").read_text())
    # an error by its kind (JAX's messages name a set's dtypes in the process's hash order)
    return {p["id"]: (p["error"].split(":")[0], p["outputs"], p["tags"]) for p in meta["programs"]}


@pytest.mark.compat
def test_the_emulations_compile_level_changes_no_bit_but_a_sums_order(tmp_path):
    flags = {level: run_at(level, tmp_path / f"level{level or 0}").split() for level in ("", "2")}
    assert {"--xla_backend_optimization_level=0", "--xla_cpu_max_isa=AVX"} <= set(flags[""]), flags
    assert {"--xla_backend_optimization_level=2", "--xla_cpu_max_isa=AVX"} <= set(flags["2"]), flags
    fast, slow = outcomes(tmp_path / "level0"), outcomes(tmp_path / "level2")
    assert len(fast) == 299 + 300 + 50 and fast == slow
    fast_bytes, slow_bytes = (
        np.load(tmp_path / "level0" / "tpu_fuzz.npz"),
        np.load(tmp_path / "level2" / "tpu_fuzz.npz"),
    )
    assert sorted(fast_bytes.files) == sorted(slow_bytes.files) and len(fast_bytes.files) > 600
    differ = [k for k in fast_bytes.files if fast_bytes[k].tobytes() != slow_bytes[k].tobytes()]
    print(f"{len(differ)} of {len(fast_bytes.files)} outputs differ in their bits: {differ}")
    for key in differ:
        program, output = key.split("/out/")
        error, outputs, tags = fast[program]
        assert sums(tags), (key, tags)
        assert outputs[int(output)]["dtype"] == "float32", (key, outputs)
        a = fast_bytes[key].view(np.float32).astype(np.float64)
        b = slow_bytes[key].view(np.float32).astype(np.float64)
        assert np.abs(a - b).max() <= 2.0**-20 * np.abs(b).max(), (key, a, b)
