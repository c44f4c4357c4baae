"""What the TPU emulation adds to compiling a student's program, by the program's size (issue 64: within 2x).

    PYTHONPATH=. python benchmarks/bench_emulation_sweep.py [--sizes 16,64,128,256,512,1024] [--repeat 2]

Three kinds of program, each at each size N, compiled (``jax.jit(f).lower(x).compile()``: the trace,
the emulation's rewrite where it is on, XLA's lowering and compile) in a fresh process under the
emulation (COURSE_EMULATE=tpu, as the grader and the lessons' setup start it) and natively:

- ``casts``: a chain of N casts unrolled inside jit, ``y = (y * 1.001).astype(bf16).astype(f32)``
  on a scalar (each step stored and rounded on the chip: the emulation's costliest case);
- ``casts-vector``: the same chain on a (128,) vector (the casts dropped on the chip);
- ``dots``: a chain of N // 4 float32 64 x 64 matmuls at DEFAULT precision, each rounded to bf16
  between (``y = jnp.dot(y, w).astype(bf16).astype(f32)``);
- ``small``: N // 4 small jitted functions (a cast, a product, a sum), each compiled once.

Printed per kind and size: the emulated and native seconds (the quickest of ``--repeat`` runs,
alternated so that a busy machine weighs on both) and their ratio; the machine's load average.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KINDS = ("casts", "casts-vector", "dots", "small")


def program(kind: str, n: int):
    """(a list of (function, argument) to compile) for ``kind`` at size ``n``."""
    import jax.numpy as jnp

    bf16, f32 = jnp.bfloat16, jnp.float32
    if kind in ("casts", "casts-vector"):

        def chain(y):
            for _ in range(n):
                y = (y * 1.001).astype(bf16).astype(f32)
            return y

        return [(chain, jnp.ones((128,) if kind == "casts-vector" else (), f32))]
    if kind == "dots":
        w = jnp.eye(64, dtype=f32) * 1.001

        def dots(y):
            for _ in range(max(n // 4, 1)):
                y = jnp.dot(y, w).astype(bf16).astype(f32)
            return y

        return [(dots, jnp.ones((64, 64), f32))]

    def small(i):
        return lambda v: jnp.sum((v.astype(bf16) * (i + 1)).astype(f32) * v)

    return [(small(i), jnp.ones((32,), f32)) for i in range(max(n // 4, 1))]


def worker(kind: str, n: int) -> float:
    """Seconds to compile ``kind`` at size ``n`` in this process (emulated where COURSE_EMULATE says)."""
    if os.environ.get("COURSE_EMULATE") == "tpu":
        from autograder.chip.emulation import source

        exec(compile(source(), "emulation", "exec"), {"__name__": "emulation"})
    import jax

    jax.jit(lambda v: v + 1).lower(1.0).compile()  # the backend opened before the clock starts
    t0 = time.perf_counter()
    for f, x in program(kind, n):
        jax.jit(f).lower(x).compile()
    return time.perf_counter() - t0


def run(kind: str, n: int, emulated: bool) -> float:
    env = dict(os.environ, JAX_PLATFORMS="cpu", PYTHONPATH=str(ROOT), COURSE_EMULATE="tpu" if emulated else "none")
    out = subprocess.run(
        [sys.executable, __file__, "--worker", kind, str(n)], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="16,64,128,256,512,1024")
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker[0], int(args.worker[1]))))
        return 0
    print(f"load average before: {os.getloadavg()[0]:.1f}; compile seconds, quickest of {args.repeat} runs each")
    print(f"{'program':14s} {'N':>5s} {'emulated s':>11s} {'native s':>9s} {'ratio':>6s}")
    worst = 0.0
    for kind in args.kinds.split(","):
        for n in (int(s) for s in args.sizes.split(",")):
            times = {True: [], False: []}
            for _ in range(args.repeat):
                for emulated in (True, False):
                    times[emulated].append(run(kind, n, emulated))
            emulated, native = min(times[True]), min(times[False])
            worst = max(worst, emulated / native)
            print(f"{kind:14s} {n:5d} {emulated:11.2f} {native:9.2f} {emulated / native:6.2f}", flush=True)
    print(f"largest ratio {worst:.2f} (target 2); load average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
