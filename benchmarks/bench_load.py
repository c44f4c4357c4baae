"""Grades on a busy machine: the sweep of one lesson (its solution, every plausible wrong answer
and every correct alternative, graded as the grader grades; autograder.course.lessoncheck.sweep_problems)
for N seeds while H busy processes compete for the CPUs, against the same seeds on a quiet machine.

    PYTHONPATH=. python benchmarks/bench_load.py [--lesson 04_xprof_profiling] [--seeds 20]
        [--hogs 2*cores] [--quiet-too]

Issue 28: an outcome must not depend on how busy the machine is. With load about twice the cores
(the default hogs), every seed must still say "ok": the solution gets every test, every mutant is
caught (lesson 04's "AOT compile outside the timer" included: its warm-up is checked against the
compile events of the call itself, not against a time the checker clocked) and no alternative is
rejected. Prints per seed the outcome, the wall time and the load average; the summary the number
of seeds with problems and the slowdown the hogs caused. Exit status 1 if any seed had a problem.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time


def _hog(stop) -> None:
    while not stop.is_set():
        for _ in range(100_000):
            pass


def sweep(lesson: str, seeds: list[int], label: str) -> tuple[list[int], float]:
    """lessoncheck.sweep (each seed's outcome, time and load printed): the failed seeds, the time."""
    from autograder.course.lessoncheck import sweep as lesson_sweep

    t0 = time.perf_counter()
    return lesson_sweep(lesson, seeds, f"[{label}] "), time.perf_counter() - t0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lesson", default="04_xprof_profiling")
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--hogs", type=int, default=2 * (os.cpu_count() or 1))
    parser.add_argument("--quiet-too", action="store_true", help="also sweep the same seeds with no hogs")
    args = parser.parse_args()
    from autograder.grader.notebook.grade import notebook_seed

    seeds = [notebook_seed(i, "sweep", args.lesson) for i in range(args.seeds)]
    print(f"{os.cpu_count()} CPUs; {args.hogs} busy processes; {len(seeds)} seeds of {args.lesson}", flush=True)
    quiet_failed, quiet_s = sweep(args.lesson, seeds, "quiet") if args.quiet_too else ([], None)
    stop = multiprocessing.Event()
    hogs = [multiprocessing.Process(target=_hog, args=(stop,), daemon=True) for _ in range(args.hogs)]
    for h in hogs:
        h.start()
    try:
        busy_failed, busy_s = sweep(args.lesson, seeds, "busy")
    finally:
        stop.set()
        for h in hogs:
            h.join(5)
    print(f"busy: {len(seeds)} seeds in {busy_s:.0f} s, {len(busy_failed)} with problems {busy_failed or ''}")
    if quiet_s is not None:
        print(f"quiet: {len(seeds)} seeds in {quiet_s:.0f} s, {len(quiet_failed)} with problems {quiet_failed or ''}")
        print(f"slowdown under load: {busy_s / quiet_s:.2f}x; outcomes the same: {busy_failed == quiet_failed}")
    return 1 if busy_failed or quiet_failed else 0


if __name__ == "__main__":
    sys.exit(main())
