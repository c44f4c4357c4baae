"""Time the course's matmuls on this machine's accelerator, several times over, and record it.

    python -m autograder.chip.chiptiming [--out DIR] [--repeats 5]    # DIR/tpu_timing.json

Two measurements that lesson 05 and the docs quote from a TPU (issue 43, item 5), each repeated
``--repeats`` times so that the record holds its own run-to-run spread:

1. **throughput**: square 8192^3 matmuls with a float32 output (an int32 accumulator for int8):
   bf16 inputs, float32 at DEFAULT, HIGH and HIGHEST, int8 x int8, float8_e4m3fn inputs. Each
   repeat is CALLS back-to-back calls of one compiled program, timed to the last result (the
   dispatch of one call overlaps the work of the one before), as TFLOP/s (2 M K N per call);
2. **lesson 05's time leg**: the solution notebook run in this process (autograder/chip/cellrunner.py),
   then its ``policy_table`` called at the lesson's CPU size (256 x 1024 x 256) and at the size it
   times on an accelerator (4096^3), and the empty jitted call the lesson times as the dispatch
   cost, median of 30, each repeated.

tests/test_chip_numbers.py holds the figures lesson 05 and docs/HARDWARE.md quote to this record,
and asserts from it that the policies' times differ by more than their spread. Only the standard
library, NumPy and JAX (matplotlib for the notebook's figures).
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from pathlib import Path

from ..common.notebooks import ROOT

TIMING_JSON = "tpu_timing.json"
SIZE = 8192
CALLS = 10
# name -> (input dtype, precision, output dtype)
CASES = {
    "bf16": ("bfloat16", None, "float32"),
    "f32 DEFAULT": ("float32", "default", "float32"),
    "f32 HIGH": ("float32", "high", "float32"),
    "f32 HIGHEST": ("float32", "highest", "float32"),
    "int8": ("int8", None, "int32"),
    "float8_e4m3fn": ("float8_e4m3fn", None, "float32"),
}
LESSON05 = "05_precision_policy"
POLICY_SIZES = {"cpu size": (256, 1024, 256), "accelerator size": (4096, 4096, 4096)}


def spread(values: list[float]) -> dict:
    """The repeats, their median and their range."""
    ordered = sorted(values)
    n = len(ordered)
    median = ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2
    return {"repeats": values, "median": median, "min": ordered[0], "max": ordered[-1]}


def throughput(repeats: int, size: int = SIZE, calls: int = CALLS) -> dict:
    """TFLOP/s (TOPS for int8) of each case, ``repeats`` times."""
    import jax
    import jax.numpy as jnp

    k1, k2 = jax.random.split(jax.random.PRNGKey(0))
    a32 = jax.random.normal(k1, (size, size), jnp.float32)
    b32 = jax.random.normal(k2, (size, size), jnp.float32)
    out = {}
    for name, (dtype, precision, result) in CASES.items():
        if dtype == "int8":
            a, b = (jnp.clip(jnp.round(v * 32), -127, 127).astype(jnp.int8) for v in (a32, b32))
        else:
            a, b = a32.astype(dtype), b32.astype(dtype)
        f = jax.jit(lambda x, y, p=precision, r=result: jnp.dot(x, y, precision=p, preferred_element_type=r))
        jax.block_until_ready(f(a, b))  # compiled, and warm
        rates = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            for _ in range(calls):
                y = f(a, b)
            jax.block_until_ready(y)
            rates.append(2 * size**3 * calls / (time.perf_counter() - t0) / 1e12)
        out[name] = {"inputs": dtype, "precision": precision, "output": result, **spread(rates)}
        print(
            f"  {name:>14}: {out[name]['median']:7.1f} TFLOP/s ({out[name]['min']:.1f}-{out[name]['max']:.1f})",
            flush=True,
        )
        del a, b, y
    return {"size": size, "calls_per_repeat": calls, "cases": out}


def dispatch_ms() -> float:
    """The lesson's dispatch cost: an empty jitted call, synchronised, median of 30 (in ms)."""
    import jax
    import jax.numpy as jnp
    import numpy as np

    noop, tiny = jax.jit(lambda a: a + 1.0), jnp.zeros((8,), jnp.float32)
    jax.block_until_ready(noop(tiny))
    t = []
    for _ in range(30):
        t0 = time.perf_counter()
        jax.block_until_ready(noop(tiny))
        t.append((time.perf_counter() - t0) * 1e3)
    return float(np.median(t))


def lesson05(repeats: int, root: Path = ROOT) -> dict:
    """Lesson 05's policy times at both sizes and the dispatch cost, each ``repeats`` times, from the
    solution's own ``policy_table``."""
    from .cellrunner import run_notebook

    run = run_notebook(root / "solutions" / LESSON05 / f"{LESSON05}.ipynb")
    errors = [f"cell {c.index}: {c.ename}: {c.evalue}" for c in run.cells if c.ename]
    policy_table = run.namespace["policy_table"]
    sizes = {}
    for label, (m, k, n) in POLICY_SIZES.items():
        times: dict[str, list[float]] = {}
        for _ in range(repeats):
            for row in policy_table(m=m, k=k, n=n):
                times.setdefault(row["policy"], []).append(row["median_ms"])
        sizes[label] = {"shape": [m, k, n], "median_ms": {p: spread(v) for p, v in times.items()}}
        print(
            f"  lesson 05 at {m}x{k}x{n}: "
            + ", ".join(
                f"{p} {s['median']:.3f} ms ({s['min']:.3f}-{s['max']:.3f})"
                for p, s in sizes[label]["median_ms"].items()
            ),
            flush=True,
        )
    dispatch = spread([dispatch_ms() for _ in range(repeats)])
    print(f"  dispatch: {dispatch['median']:.3f} ms ({dispatch['min']:.3f}-{dispatch['max']:.3f})", flush=True)
    return {"notebook_errors": errors, "sizes": sizes, "dispatch_ms": dispatch}


def record(out: Path, repeats: int) -> dict:
    from .golden import environment

    out.mkdir(parents=True, exist_ok=True)
    report = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "environment": environment(),
        "repeats": repeats,
    }
    print(f"{report['environment']['device_kind']} | JAX {report['environment']['versions']['jax']}", flush=True)
    report["throughput"] = throughput(repeats)
    (out / TIMING_JSON).write_text(json.dumps(report, indent=1))
    report["lesson05"] = lesson05(repeats)
    (out / TIMING_JSON).write_text(json.dumps(report, indent=1))
    return report


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m autograder.chip.chiptiming", description=__doc__.split("\n")[0])
    p.add_argument("--out", type=Path, default=ROOT / "build" / "hardware")
    p.add_argument("--repeats", type=int, default=5)
    args = p.parse_args(argv)
    report = record(args.out, args.repeats)
    return 1 if report["lesson05"]["notebook_errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
