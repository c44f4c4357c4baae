"""Run the solution notebooks on this machine's own accelerator and record what happened.

    python -m autograder.hardware run [--out DIR]   # probe + every solution notebook + device-only mutants

CI has no accelerator: it proves the course under *emulated* TPU and GPU matmul precision
(tests/test_emulation.py). This is the real thing, for a maintainer on a GPU or TPU machine:

1. a probe: one float32 matmul at DEFAULT, HIGH and HIGHEST precision against float64, and what
   DEFAULT matches (exact, TF32 inputs, or one bf16 pass): the fact the whole course rests on;
2. every solution notebook in a fresh kernel, hidden tests included: result, seconds, errors;
3. the wrong answers that only a device exposes (``"only_under"`` in solutions/<NN_name>/mistakes.py), with no
   emulation at all: on a TPU their hidden tests must catch them; elsewhere it is reported.

It writes OUT/hardware.json and OUT/hardware.md (the table docs/TESTING.md quotes) and exits 1 if a
notebook fails (or, on a TPU, a device-only wrong answer passes). Beside JAX, only nbformat,
nbclient and an IPython kernel are needed (no nbgrader). How to run it: docs/HARDWARE.md.
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from .notebooks import ROOT, cell_errors, execute, lessons

CELL_TIMEOUT = 600

PROBE = r"""
import json, jax, jax.numpy as jnp, numpy as np
k1, k2 = jax.random.split(jax.random.PRNGKey(0))
x = jax.random.normal(k1, (512, 512), jnp.float32); w = jax.random.normal(k2, (512, 512), jnp.float32)
x64, w64 = np.asarray(x, np.float64), np.asarray(w, np.float64)
exact = x64 @ w64

def err(a):
    return float(np.max(np.abs(np.asarray(a, np.float64) - exact)))

def round_mantissa(a, bits):  # round-to-nearest-even float32 to `bits` stored fraction bits
    u = np.asarray(a, np.float32).view(np.uint32).astype(np.uint64)
    drop = 23 - bits
    u = (u + ((1 << (drop - 1)) - 1) + ((u >> drop) & 1)) >> drop << drop
    return u.astype(np.uint32).view(np.float32).astype(np.float64)

errors = {p: err(jnp.dot(x, w, precision=p)) for p in ("default", "high", "highest")}
references = {"exact": err(jnp.dot(x, w, precision="highest")),
              "tf32 inputs": err(round_mantissa(x, 10) @ round_mantissa(w, 10)),
              "one bf16 pass": err(round_mantissa(x, 7) @ round_mantissa(w, 7))}
print(json.dumps({"backend": jax.default_backend(), "device_kind": jax.devices()[0].device_kind,
                  "jax": jax.__version__, "errors": errors, "references": references}))
"""


def probe(prelude: str = "", env: dict | None = None) -> dict:
    """Errors of a 512x512x512 float32 matmul at each precision against float64, and which
    arithmetic DEFAULT is closest to (in log ratio of the max error). ``prelude`` runs first (the
    tests put the precision emulation there)."""
    proc = subprocess.run(
        [sys.executable, "-c", prelude + "\n" + PROBE], capture_output=True, text=True, env=env, timeout=600
    )
    if proc.returncode:
        raise RuntimeError(f"probe failed: {proc.stderr[-2000:]}")
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    import math

    default = max(result["errors"]["default"], 1e-300)
    result["default_is"] = min(
        result["references"], key=lambda k: abs(math.log(default / max(result["references"][k], 1e-300)))
    )
    return result


def run_notebook(path: Path, cwd: Path) -> dict:
    """Execute one notebook in a fresh kernel; its errors, the first line it prints, seconds."""
    start = time.perf_counter()
    nb, crash = execute(nbformat.read(str(path), as_version=4), cwd, CELL_TIMEOUT)
    seconds = time.perf_counter() - start
    errors = [
        {"cell": i, "grade_id": gid, "error": f"{ename}: {evalue[:300]}"} for i, gid, ename, evalue in cell_errors(nb)
    ]
    first_line = next(
        (
            o["text"].strip().splitlines()[0]
            for c in nb.cells
            for o in c.get("outputs", [])
            if o.get("output_type") == "stream" and o.get("text", "").strip()
        ),
        None,
    )
    if crash:
        errors.append({"cell": None, "grade_id": "", "error": crash})
    return {"ok": not errors, "seconds": round(seconds, 1), "errors": errors, "first_line": first_line}


def device_only_mutants(lesson: str, backend: str, cwd: Path) -> list[dict]:
    """Run the wrong answers marked ``"only_under"`` with the machine's own arithmetic."""
    from .lessoncheck import grade_variants, load_mutants

    mutants = [m for m in load_mutants(lesson) if m.get("only_under")]
    if not mutants:
        return []
    _, results = grade_variants(lesson, mutants, "none", solution_tests=False)  # the device's own arithmetic
    return [
        {
            "function": r.function,
            "why": r.why,
            "only_under": m["only_under"],
            "caught": r.own_hidden_failed,
            "failed_tests": r.failed_tests,
            "must_be_caught": m["only_under"] == backend,
        }
        for m, r in zip(mutants, results)
    ]


def markdown(report: dict) -> str:
    p = report["probe"]
    e, r = p["errors"], p["references"]
    lines = [
        f"Run on {report['date']}: backend `{p['backend']}`, device `{p['device_kind']}`, "
        f"JAX {p['jax']}, Python {report['python']}.",
        "",
        f"Probe (512x512x512 float32 matmul, max abs error against float64): DEFAULT {e['default']:.2e}, "
        f"HIGH {e['high']:.2e}, HIGHEST {e['highest']:.2e}; TF32 inputs would give "
        f"{r['tf32 inputs']:.2e}, one bf16 pass {r['one bf16 pass']:.2e}: "
        f"**DEFAULT behaves as {p['default_is']}**.",
        "",
        "| lesson | solution notebook (hidden tests included) | seconds |",
        "|---|---|---|",
    ]
    for name, res in report["lessons"].items():
        status = (
            "passed"
            if res["ok"]
            else "FAILED: "
            + "; ".join(f"{x['grade_id'] or 'cell ' + str(x['cell'])}: {x['error'][:120]}" for x in res["errors"])
        )
        lines.append(f"| {name} | {status} | {res['seconds']} |")
    mutants = [(name, m) for name, ms in report["mutants"].items() for m in ms]
    if mutants:
        lines += ["", "| wrong answer that only a device exposes | caught by its hidden test here |", "|---|---|"]
        lines += [f"| {name}: {m['why']} | {'yes' if m['caught'] else 'no'} |" for name, m in mutants]
    return "\n".join(lines) + "\n"


def run(out: Path, root: Path = ROOT, mutants: bool = True) -> int:
    out.mkdir(parents=True, exist_ok=True)
    report = {
        "date": datetime.date.today().isoformat(),
        "python": sys.version.split()[0],
        "probe": probe(),
        "lessons": {},
        "mutants": {},
    }
    backend = report["probe"]["backend"]
    print(json.dumps(report["probe"], indent=1), flush=True)
    for name in lessons(root):
        with tempfile.TemporaryDirectory() as tmp:
            res = run_notebook(root / "solutions" / name / f"{name}.ipynb", Path(tmp))
        report["lessons"][name] = res
        print(f"{name}: {'passed' if res['ok'] else 'FAILED'} in {res['seconds']} s {res['errors'] or ''}", flush=True)
        if mutants and root == ROOT:
            with tempfile.TemporaryDirectory() as tmp:
                report["mutants"][name] = device_only_mutants(name, backend, Path(tmp))
    (out / "hardware.json").write_text(json.dumps(report, indent=1))
    (out / "hardware.md").write_text(markdown(report))
    print(markdown(report))
    failed = [n for n, r in report["lessons"].items() if not r["ok"]]
    missed = [m["why"] for ms in report["mutants"].values() for m in ms if m["must_be_caught"] and not m["caught"]]
    return 1 if failed or missed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m autograder.hardware", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run", help="probe, run every solution notebook, write OUT/hardware.{json,md}")
    p.add_argument("--out", type=Path, default=ROOT / "build" / "hardware")
    p.add_argument("--no-mutants", action="store_true", help="skip the device-only wrong answers")
    args = parser.parse_args(argv)
    return run(args.out, mutants=not args.no_mutants)


if __name__ == "__main__":
    sys.exit(main())
