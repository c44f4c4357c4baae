"""Run the course on this machine's own accelerator and record what happened.

    python -m autograder.chip.hardware run [--out DIR]      # probe, student + solution notebooks, mutants
    python -m autograder.chip.hardware golden [--out DIR]   # the chip's outputs on small seeded inputs
    python -m autograder.chip.hardware fuzz [--out DIR]     # generated jitted programs (autograder/chip/fuzz.py)

CI has no accelerator: it proves the course under *emulated* TPU and GPU matmul precision
(tests/test_emulation.py). This is the real thing, for a maintainer on a GPU or TPU machine:

1. a probe: one float32 matmul at DEFAULT, HIGH and HIGHEST precision against float64, and what
   DEFAULT matches (exact, TF32 inputs, or one bf16 pass): the fact the whole course rests on;
2. every student-release notebook (notebooks/NN/NN.ipynb): only its stubs' NotImplementedError
   may fail (and the test cells that call a stub), as on CPU (tests/test_notebooks.py);
3. every solution notebook (solutions/NN/NN.ipynb), hidden tests included: all must pass;
4. the wrong answers that only a device exposes (``"only_under"`` in solutions/NN/mistakes.py),
   each swapped into its solution's finished run and its own tests run again, with no emulation:
   on a TPU their hidden tests must catch them; elsewhere it is reported.

It writes OUT/hardware.json (rewritten after every notebook: a run cut short keeps what it did) and
OUT/hardware.md, and exits 1 if a notebook fails (or, on a TPU, a device-only wrong answer passes).
A TPU machine may have no Jupyter and no TCP, and one process at a time may hold the chip: every
notebook runs in this process (cellrunner.py, a fresh namespace and folder each), one after the
other; ``--isolate`` runs each in a fresh subprocess, one at a time. Imports need only the standard
library, NumPy and JAX (matplotlib for the figures). How to run it: docs/HARDWARE.md.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

from . import fuzz, surprises
from .cellrunner import NotebookRun, run_notebook
from .outcomes import device_only_mutants
from ..common.notebooks import ROOT, disallowed_student_errors, lessons

CELL_TIMEOUT = 600
PRINTED_CHARS = 2000  # of each demo cell's printed lines kept in the record

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
result = {"backend": jax.default_backend(), "device_kind": jax.devices()[0].device_kind,
          "jax": jax.__version__, "errors": errors, "references": references}
"""


def _named(result: dict) -> dict:
    """Which reference arithmetic DEFAULT's error is closest to (in log ratio of the max error)."""
    default = max(result["errors"]["default"], 1e-300)
    result["default_is"] = min(
        result["references"], key=lambda k: abs(math.log(default / max(result["references"][k], 1e-300)))
    )
    return result


def probe(prelude: str = "", env: dict | None = None, in_process: bool = False) -> dict:
    """Errors of a 512x512x512 float32 matmul at each precision against float64, and which
    arithmetic DEFAULT is closest to. In a subprocess (``prelude`` runs first: the tests put the
    precision emulation there), or ``in_process`` (the device is opened once for the whole run)."""
    if in_process:
        namespace: dict = {}
        exec(compile(prelude + "\n" + PROBE, "<probe>", "exec"), namespace)
        return _named(namespace["result"])
    code = prelude + "\n" + PROBE + "\nprint(json.dumps(result))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
    if proc.returncode:
        raise RuntimeError(f"probe failed: {proc.stderr[-2000:]}")
    return _named(json.loads(proc.stdout.strip().splitlines()[-1]))


def _errors(run: NotebookRun) -> list[dict]:
    return [
        {"cell": c.index, "grade_id": c.grade_id, "error": f"{c.ename}: {c.evalue[:300]}", "line": c.line}
        for c in run.cells
        if c.ename
    ]


def _summary(run: NotebookRun) -> dict:
    return {
        "seconds": run.seconds,
        "first_line": run.first_line(),
        "cells": len(run.cells),
        "skipped": [{"cell": c.index, "why": c.skipped} for c in run.cells if c.skipped],
        "stderr": [
            {"cell": c.index, "grade_id": c.grade_id, "first_line": c.stderr.strip().splitlines()[0][:300]}
            for c in run.cells
            if c.stderr.strip()
        ],
        "cell_seconds": {str(c.index): c.seconds for c in run.cells},
        # what each demo cell printed on the device (its last PRINTED_CHARS): the figures a lesson
        # quotes from a chip are then in the committed record (tests/test_chip_numbers.py)
        "printed": {str(c.index): c.stdout[-PRINTED_CHARS:] for c in run.cells if c.stdout.strip() and not c.grade_id},
    }


def student_result(run: NotebookRun) -> dict:
    """A student release's run: ok when its only errors are its stubs' (notebooks.disallowed_student_errors)
    and at least one stub was reached."""
    errors = [(c.index, c.grade_id, c.ename, c.evalue, c.line) for c in run.cells if c.ename]
    bad = disallowed_student_errors(errors)
    stubs = sum(e[2] == "NotImplementedError" for e in errors)
    return {
        "ok": not bad and stubs > 0 and not any(c.skipped for c in run.cells),
        "stub_errors": stubs,
        "allowed_errors": len(errors) - len(bad),
        "errors": [{"cell": i, "grade_id": g, "error": f"{n}: {v[:300]}", "line": line} for i, g, n, v, line in bad],
        **_summary(run),
    }


def solution_result(run: NotebookRun) -> dict:
    errors = _errors(run)
    return {"ok": not errors and not any(c.skipped for c in run.cells), "errors": errors, **_summary(run)}


def _status(res: dict) -> str:
    if res["ok"]:
        if "stub_errors" not in res:
            return "passed"
        n = res["allowed_errors"]
        return f"clean but for stubs ({n} stub error{'s' * (n != 1)})"
    problems = [f"{x['grade_id'] or 'cell ' + str(x['cell'])}: {x['error'][:120]}" for x in res["errors"]]
    problems += [f"cell {s['cell']} skipped: {s['why']}" for s in res.get("skipped", [])]
    if "stub_errors" in res and not res["stub_errors"]:
        problems.append("no stub was reached")
    return "FAILED: " + "; ".join(problems)


def markdown(report: dict) -> str:
    p, env = report["probe"], report.get("environment", {})
    e, r = p["errors"], p["references"]
    v = env.get("versions", {})
    stack = ", ".join(f"{k} {v[k]}" for k in ("jax", "jaxlib", "libtpu", "ml_dtypes", "numpy") if v.get(k))
    lines = [
        f"Run on {report['date']}: backend `{p['backend']}`, device `{p['device_kind']}`"
        + (f" ({env['platform_version']})" if env.get("platform_version") else "")
        + f", Python {report['python']}, {stack or 'JAX ' + p['jax']}"
        + (f", XLA_FLAGS={report['xla_flags']}." if report.get("xla_flags") else "."),
        "",
        f"Probe (512x512x512 float32 matmul, max abs error against float64): DEFAULT {e['default']:.2e}, "
        f"HIGH {e['high']:.2e}, HIGHEST {e['highest']:.2e}; TF32 inputs would give "
        f"{r['tf32 inputs']:.2e}, one bf16 pass {r['one bf16 pass']:.2e}: **DEFAULT behaves as {p['default_is']}**.",
        "",
    ]
    for title, key in (
        ("student release (only stub errors allowed)", "student"),
        ("solution, hidden tests included", "lessons"),
    ):
        if report.get(key):
            lines += [f"| lesson | {title} | seconds |", "|---|---|---|"]
            lines += [f"| {name} | {_status(res)} | {res['seconds']} |" for name, res in report[key].items()]
            lines.append("")
    mutants = [(name, m) for name, ms in report["mutants"].items() for m in ms]
    if mutants:
        lines += ["| wrong answer that only one kind of device exposes | only under | caught by its hidden test here |"]
        lines += ["|---|---|---|"]
        lines += [
            f"| {name}: {m['why']} | {m['only_under']} | {'yes' if m['caught'] else 'no'} |" for name, m in mutants
        ]
    return "\n".join(lines).rstrip() + "\n"


def _write(out: Path, report: dict) -> None:
    (out / "hardware.json").write_text(json.dumps(report, indent=1) + "\n")
    (out / "hardware.md").write_text(markdown(report))


def run_one(kind: str, path: Path, lesson: str, backend: str, root: Path, mutants: bool) -> tuple[dict, list[dict]]:
    """One notebook in this process: (its result, its device-only mutants' results)."""
    print(f"{kind} {lesson} ...", flush=True)
    nb_run = run_notebook(path, CELL_TIMEOUT)
    if kind == "student":
        return student_result(nb_run), []
    found = device_only_mutants(lesson, nb_run, backend, root) if mutants else []
    return solution_result(nb_run), found


def run_isolated(kind: str, path: Path, lesson: str, root: Path, mutants: bool) -> tuple[dict, list[dict]]:
    """One notebook in a fresh subprocess (strictly one at a time: one program may hold the chip)."""
    cmd = [sys.executable, "-m", "autograder.chip.hardware", "one", kind, str(path), lesson, "--root", str(root)]
    proc = subprocess.run(cmd + ([] if mutants else ["--no-mutants"]), capture_output=True, text=True, cwd=ROOT)
    try:
        found = json.loads(proc.stdout.strip().splitlines()[-1])
        return found["result"], found["mutants"]
    except (IndexError, ValueError, KeyError):
        crash = f"the notebook's process ended with status {proc.returncode}: {proc.stderr.strip()[-600:]}"
        return {"ok": False, "errors": [{"cell": None, "grade_id": "", "error": crash, "line": ""}], "seconds": 0}, []


def run(
    out: Path,
    root: Path = ROOT,
    mutants: bool = True,
    parts: tuple[str, ...] = ("student", "solution"),
    isolate: bool = False,
) -> int:
    """Probe, then every student notebook, then every solution (with its device-only mutants); the
    record in OUT. Exit status 1 if anything failed."""
    from .golden import environment

    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    report = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "python": sys.version.split()[0],
        "isolated": isolate,
        "xla_flags": os.environ.get("XLA_FLAGS", ""),
        "probe": probe(in_process=not isolate),
        "environment": environment(),
        "student": {},
        "lessons": {},
        "mutants": {},
    }
    backend = report["probe"]["backend"]
    print(json.dumps(report["probe"], indent=1), flush=True)
    _write(out, report)
    jobs = [("student", "notebooks", "student")] * ("student" in parts) + [("solution", "solutions", "lessons")] * (
        "solution" in parts
    )
    for kind, folder, key in jobs:
        for name in lessons(root):
            path = root / folder / name / f"{name}.ipynb"
            if not path.is_file():
                continue
            with_mutants = mutants and kind == "solution"
            if isolate:
                res, found = run_isolated(kind, path, name, root, with_mutants)
            else:
                res, found = run_one(kind, path, name, backend, root, with_mutants)
            report[key][name] = res
            if found:
                report["mutants"][name] = found
            print(f"{kind} {name}: {_status(res)} in {res['seconds']} s", flush=True)
            _write(out, report)
    report["seconds"] = round(time.perf_counter() - start, 1)
    _write(out, report)
    print(markdown(report))
    failed = [n for key in ("student", "lessons") for n, r in report[key].items() if not r["ok"]]
    missed = [
        m["why"]
        for ms in report["mutants"].values()
        for m in ms
        if (m["must_be_caught"] and not m["caught"]) or (m.get("must_pass") and m["caught"])
    ]
    return 1 if failed or missed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m autograder.chip.hardware",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run", help="probe, run every student and solution notebook, write OUT/hardware.{json,md}")
    p.add_argument("--out", type=Path, default=ROOT / "build" / "hardware")
    p.add_argument("--no-mutants", action="store_true", help="skip the device-only wrong answers")
    p.add_argument("--only", choices=("student", "solution"), help="run only the student or the solution notebooks")
    p.add_argument("--isolate", action="store_true", help="each notebook in a fresh subprocess, one at a time")
    g = sub.add_parser("golden", help="write OUT/tpu_golden.npz and .json: the device's outputs on seeded inputs")
    g.add_argument("--out", type=Path, default=ROOT / "build" / "hardware")
    c = sub.add_parser("casts", help="write OUT/tpu_casts.{npz,json}: what the device computes from casts inside jit")
    c.add_argument("--out", type=Path, default=ROOT / "build" / "hardware")
    v = sub.add_parser("outcomes", help="write OUT/outcomes.json: every known answer's per-check outcomes")
    v.add_argument("--out", type=Path, default=ROOT / "build" / "hardware")
    v.add_argument("--lessons", default="", help="comma-separated lesson names or numbers (default: all)")
    v.add_argument("--record", action="store_true", help="on a TPU: each lesson's record into its chip/outcomes.json")
    v.add_argument("--changed", action="store_true", help="on a TPU: re-record only what changed (rerecord.py)")
    v.add_argument("--sets", default="library", help="library, heldout, independent, choices (answer_sets.py)")
    m = sub.add_parser("compare", help="the emulation's outcomes on this CPU beside a chip's record")
    m.add_argument("record", type=Path, nargs="?", help="a chip's outcomes.json (default: the lessons' own)")
    m.add_argument("--out", type=Path, default=ROOT / "build" / "hardware-compare")
    m.add_argument("--lessons", default="", help="comma-separated lesson names or numbers (default: all)")
    m.add_argument("--setup", choices=("grader", "student"), default="grader", help="whose start of the emulation")
    m.add_argument("--visible-only", action="store_true", help="only the visible checks (what a student sees)")
    m.add_argument("--sets", default="library", help="library, or heldout,independent,choices (chip/answers.json)")
    m.add_argument("--accepted", action="store_true", help="hidden checks only of the answers the chip accepted")
    surprises.add_command(sub)
    fuzz.add_commands(sub)
    t = sub.add_parser("trace", help="write OUT/<backend>_trace.xplane.pb: a small warmed trace (lesson 04's example)")
    t.add_argument("--out", type=Path, default=ROOT / "build" / "hardware")
    o = sub.add_parser("one", help=argparse.SUPPRESS)  # run --isolate's worker: one notebook, JSON on stdout
    o.add_argument("kind", choices=("student", "solution"))
    o.add_argument("path", type=Path)
    o.add_argument("lesson")
    o.add_argument("--root", type=Path, default=ROOT)
    o.add_argument("--no-mutants", action="store_true")
    args = parser.parse_args(argv)
    if args.command in ("golden", "casts"):
        from .cast_record import write as write_casts
        from .golden import write

        meta = (write if args.command == "golden" else write_casts)(args.out)
        print(json.dumps({k: meta[k] for k in ("backend", "device_kind", "versions", "failed", "npz_bytes")}, indent=1))
        return 0
    if args.command in ("outcomes", "compare"):
        from .rerecord import command as outcomes_command

        return outcomes_command(args)
    if args.command == "surprises":
        return surprises.command(args)
    if args.command in ("fuzz", "fuzz-compare"):
        return fuzz.command(args)
    if args.command == "trace":
        from .outcomes import record_trace

        print(json.dumps(record_trace(args.out), indent=1))
        return 0
    if args.command == "one":
        import jax

        res, found = run_one(args.kind, args.path, args.lesson, jax.default_backend(), args.root, not args.no_mutants)
        print(json.dumps({"result": res, "mutants": found}))
        return 0
    parts = (args.only,) if args.only else ("student", "solution")
    return run(args.out, mutants=not args.no_mutants, parts=parts, isolate=args.isolate)


if __name__ == "__main__":
    sys.exit(main())
