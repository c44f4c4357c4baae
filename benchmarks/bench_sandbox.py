"""What the sandbox's layers cost a notebook: one solved lesson graded again and again, in this
process as a worker (its zygote warm after the first), under bubblewrap and under the fallback.

    PYTHONPATH=. python benchmarks/bench_sandbox.py [--lesson 01_number_formats] [--rounds 6]

Prints, for each mode, the median and the spread of the wall time per notebook and of the CPU its
processes took (the zygote's, the checker's, the student's, the sandbox's: this process's
children; the zygote is stopped after each notebook so that its CPU is counted), the first
notebook apart (it runs the probes too), and the machine's load average around the
runs (it is shared). Under the fallback as root this includes the switch to uid 65534 and the
hand-over of the checker's folders; with a file system of its own for the work folder, a mount
namespace per checker and a tmpfs per notebook (sandbox/workfs.py).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(mode: str, lesson: str, rounds: int) -> None:
    import nbformat

    from autograder.grader import Settings
    from autograder.grader.checker.spawn import stop_zygotes
    from autograder.grader.notebook.grade import Lesson, grade_notebook
    from autograder.grader.sandbox import launch as sandbox
    from autograder.common.notebooks import fill_answers
    from conftest import source_nb, student_nb
    from gradescope_harness import fake_bwrap

    saved = os.environ["PATH"]
    if mode == "fallback":
        os.environ["PATH"] = f"{fake_bwrap(Path(tempfile.mkdtemp()), probe_passes=False)}:{saved}"
    sandbox.bwrap_works.cache_clear()
    try:  # the work folder's probe, in a grader that has one (to compare with one that has not)
        from autograder.grader.sandbox import workfs

        workfs.available.cache_clear()
    except ImportError:
        pass
    committed = (ROOT / "notebooks" / lesson / f"{lesson}.ipynb").read_text()
    data = Lesson(lesson, nbformat.writes(source_nb(lesson)), committed, committed, "")
    submission = nbformat.writes(fill_answers(student_nb(lesson), source_nb(lesson))).encode()
    walls, cpus, load = [], [], os.getloadavg()[0]
    try:
        for _ in range(rounds):
            t0, c0 = time.monotonic(), children_cpu()
            r = grade_notebook("bench", data, submission, Settings(jobs=1, seed=1), ROOT)
            assert (r.status, r.score) == ("ok", r.max_score), (r.status, r.detail)
            stop_zygotes()  # its CPU counts once it is reaped: one zygote a notebook, the same for every mode
            walls.append(time.monotonic() - t0)
            cpus.append(children_cpu() - c0)
    finally:
        os.environ["PATH"] = saved
        sandbox.bwrap_works.cache_clear()
    wall, cpu = walls[1:], cpus[1:]
    print(
        f"{mode:10s} first {walls[0]:5.1f} s wall {cpus[0]:5.1f} s CPU | then median {statistics.median(wall):5.2f} s"
        f" wall (min {min(wall):.2f}, max {max(wall):.2f}), {statistics.median(cpu):5.2f} s CPU"
        f" (min {min(cpu):.2f}, max {max(cpu):.2f}) | load {load:.1f} -> {os.getloadavg()[0]:.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lesson", default="01_number_formats")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--modes", default="bubblewrap,fallback")
    args = parser.parse_args()
    import autograder

    print("grader:", Path(autograder.__file__).parent.parent, "| uid", os.geteuid())
    for mode in args.modes.split(","):
        run(mode, args.lesson, args.rounds)


if __name__ == "__main__":
    main()
