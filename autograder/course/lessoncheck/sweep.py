"""Sweeping a lesson over grading seeds: the solution, every known wrong answer and every correct
alternative graded once per ``GRADING_SEED``, to prove a hidden test that draws random data."""

from __future__ import annotations

import os
import sys
import time

from .candidates import load_alternatives, load_mutants
from .variants import grade_variants


def sweep_problems(lesson: str, seed: int, emulation: str = "tpu") -> list[str]:
    """Grade the solution, every mutant and every alternative of ``lesson`` with ``GRADING_SEED =
    seed``: what went wrong (a test the solution fails, an alternative rejected, a mutant not caught
    or costing another exercise), empty when nothing did."""
    mutants, alternatives = load_mutants(lesson), load_alternatives(lesson)
    records, results = grade_variants(lesson, mutants, emulation, alternatives, seed=seed)
    problems = [f"the solution fails {r.grade_id} ({r.state} {r.ename})" for r in records if r.state != "ok"]
    problems += [
        f"mutant not caught: {r.function}: {r.why} -> failed {r.failed_tests}"
        for r in results[: len(mutants)]
        if not r.ok
    ]
    problems += [
        f"alternative rejected: {r.function}: {r.why} -> failed {r.failed_tests}"
        for r in results[len(mutants) :]
        if r.failed_tests
    ]
    return problems


def sweep(lesson: str, seeds: list[int], label: str = "") -> list[int]:
    """``sweep_problems`` for each seed, printed as it goes (with the load average); the seeds
    that had a problem."""
    failed = []
    for seed in seeds:
        t0 = time.perf_counter()
        problems = sweep_problems(lesson, seed)
        print(
            f"{label}{lesson} GRADING_SEED={seed}: {'ok' if not problems else 'FAIL'} "
            f"({time.perf_counter() - t0:.0f} s, load {os.getloadavg()[0]:.1f})"
        )
        for p in problems:
            print(f"    {p}")
        sys.stdout.flush()
        failed += [seed] if problems else []
    print(f"{label}{lesson}: {len(seeds)} seeds, {len(failed)} with problems{': ' + str(failed) if failed else ''}")
    return failed
