"""What the TPU emulation costs a student on a CPU runtime (issue 60: within 1.5x), lesson by lesson.

    PYTHONPATH=. python benchmarks/bench_emulation_cost.py [--repeat 2] [--lessons 01,02] [--student]

Each lesson's solution notebook (``--student``: the student release, stubs and all) runs top to
bottom in a fresh Jupyter kernel, as a student runs it, from an empty working folder: with the
default setup (CHIP = "v5e": the setup cell fetches notebooks/tpu_emulation.py, here from a file
URL, and the lesson computes as a TPU v5e does) and with the runtime's own arithmetic
(COURSE_EMULATE=none: the setup cell starts nothing). Runs alternate, so that a busy machine weighs
on both; the quickest of ``--repeat`` runs of each is compared. Printed per lesson: both times and
their ratio; the machine's load average before and after.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

MODES = {
    "emulated (CHIP = v5e)": {"COURSE_EMULATION_URL": (ROOT / "notebooks" / "tpu_emulation.py").as_uri()},
    "native": {"COURSE_EMULATE": "none"},
}


def run_once(nb, env: dict) -> tuple[float, list]:
    from autograder.course.lessoncheck import cell_errors, execute

    with tempfile.TemporaryDirectory(prefix="bench-emulation-") as work:
        t0 = time.perf_counter()
        executed = execute(nb, cwd=Path(work), env=env)
        return time.perf_counter() - t0, cell_errors(executed)


def main() -> int:
    import nbformat

    from autograder.common.notebooks import lessons

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--lessons", default="")
    ap.add_argument("--student", action="store_true", help="the student release instead of the solutions")
    args = ap.parse_args()
    wanted = [w for w in args.lessons.split(",") if w]
    names = [n for n in lessons(ROOT) if not wanted or any(w in (n, n[:2]) for w in wanted)]
    folder = "notebooks" if args.student else "solutions"
    print(f"load average before: {os.getloadavg()[0]:.1f}; {folder}, quickest of {args.repeat} runs each")
    print(f"{'lesson':28s} {'emulated s':>11s} {'native s':>9s} {'ratio':>6s}  errors (emulated / native)")
    worst = 0.0
    for name in names:
        nb = nbformat.read(str(ROOT / folder / name / f"{name}.ipynb"), as_version=4)
        times = {m: [] for m in MODES}
        errors = {}
        for _ in range(args.repeat):
            for mode, env in MODES.items():
                seconds, errs = run_once(nb, env)
                times[mode].append(seconds)
                errors[mode] = len(errs)
        emulated, native = min(times["emulated (CHIP = v5e)"]), min(times["native"])
        worst = max(worst, emulated / native)
        print(
            f"{name:28s} {emulated:11.1f} {native:9.1f} {emulated / native:6.2f}"
            f"  {errors['emulated (CHIP = v5e)']} / {errors['native']}",
            flush=True,
        )
    print(f"largest ratio {worst:.2f} (target 1.5); load average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
