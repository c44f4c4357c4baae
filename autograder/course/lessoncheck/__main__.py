"""The command line of autograder.course.lessoncheck (``python -m autograder.course.lessoncheck --help``)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import nbformat

from ...common.notebooks import cell_grade_id, student_version
from ...grader.core.rules import notebook_problems
from .candidates import emulated_mutants, load_alternatives, load_candidates, load_mutants, tpu_mutants
from .kernels import cell_errors, disallowed_student_errors, execute
from .sweep import sweep
from .variants import grade_variants


def rule_problems(nb) -> list[str]:
    """Every hidden assertion of ``nb`` without its rule, and every malformed rule (core/rules.py)."""
    return notebook_problems((cell_grade_id(c), c.source) for c in nb.cells if c.cell_type == "code")


def rules(path: Path) -> int:
    """Every assertion of every hidden test has a rule, and each hidden test a default rule."""
    problems = rule_problems(nbformat.read(str(path), as_version=4))
    for problem in problems:
        print(f"  FAIL   rule: {problem}")
    print(f"rules: {len(problems)} problems" if problems else "rules: every hidden assertion has its rule")
    return 1 if problems else 0


def check(path: Path) -> int:
    """Every hidden assertion has its rule, the solution runs clean, its student version only with
    the stubs' errors, and graded by the grader every known wrong answer is caught and every correct
    alternative passes."""
    lesson = path.stem
    nb = nbformat.read(str(path), as_version=4)
    ok = rules(path) == 0

    t0 = time.perf_counter()
    executed = execute(nb)
    errors = cell_errors(executed)
    print(f"solution ran in {time.perf_counter() - t0:.1f} s; errors: {errors or 'none'}")
    ok &= not errors

    t0 = time.perf_counter()
    stub = execute(student_version(nb))
    bad = disallowed_student_errors(stub)
    print(
        f"student version ran in {time.perf_counter() - t0:.1f} s; "
        f"errors: {cell_errors(stub)}; disallowed: {bad or 'none'}"
    )
    ok &= not bad

    mutants = tpu_mutants(load_mutants(lesson))  # those a TPU catches (the grader grades as one)
    alternatives = load_alternatives(lesson)
    t0 = time.perf_counter()
    records, results = grade_variants(lesson, mutants, "tpu", alternatives)  # as the grader grades
    failed = [r.grade_id for r in records if r.state != "ok"]
    print(f"  graded by the grader, the solution fails: {failed or 'nothing'}")
    ok &= not failed
    for r in results[: len(mutants)]:
        print(f"  {'ok  ' if r.ok else 'FAIL'} mutant {r.function}: {r.why} -> failed {r.failed_tests}")
        ok &= r.ok
        for gid, rule in r.rules.items():  # what the student is shown under the failed hidden check
            print(f"         {gid}: {'rule: ' + rule if rule else 'NO RULE'}")
        for problem in r.diagnosis_problems:  # the grader's diagnosis must name it (issue 32)
            print(f"  FAIL   diagnosis: {problem}")
        ok &= not r.diagnosis_problems
    for r in results[len(mutants) :]:
        print(f"  {'FAIL' if r.failed_tests else 'ok  '} alternative {r.function}: {r.why} -> failed {r.failed_tests}")
        ok &= not r.failed_tests
    tpu_only = emulated_mutants(load_mutants(lesson), "tpu")
    for r in grade_variants(lesson, tpu_only, "none", solution_tests=False)[1] if tpu_only else []:
        caught = r.own_hidden_failed
        print(f"  {'FAIL' if caught else 'ok  '} TPU-only mutant passes on plain CPU: {r.why}")
        ok &= not caught
    cpu_only = emulated_mutants(load_mutants(lesson), "cpu")
    for r in grade_variants(lesson, cpu_only, "none", solution_tests=False)[1] if cpu_only else []:
        caught = r.own_hidden_failed
        print(f"  {'ok  ' if caught else 'FAIL'} CPU-only mutant caught on plain CPU: {r.why}")
        ok &= caught
    for r in grade_variants(lesson, cpu_only, "tpu", solution_tests=False)[1] if cpu_only else []:
        caught = r.own_hidden_failed
        print(f"  {'FAIL' if caught else 'ok  '} CPU-only mutant passes as on a TPU: {r.why}")
        ok &= not caught
    print(f"{len(mutants)} mutants, {len(alternatives)} alternatives in {time.perf_counter() - t0:.1f} s")
    return 0 if ok else 1


def try_answers(path: Path, candidates_file: Path, mode: str | None) -> int:
    """Swap each answer of ``candidates_file`` (a MUTANTS-style list, or CORRECT and WRONG lists)
    into the solution, graded as the grader grades, and print which tests fail, never their code."""
    for name in ("MUTANTS", "CORRECT", "WRONG"):
        try:
            candidates = load_candidates(candidates_file, name)
        except AttributeError:
            continue
        for r in grade_variants(path.stem, candidates, mode or "none")[1]:
            print(f"[{name}] {r.function}: {r.why}\n    failed: {r.failed_tests or 'nothing'}")
    return 0


def parser() -> argparse.ArgumentParser:
    from . import __doc__ as usage

    p = argparse.ArgumentParser(
        prog="python -m autograder.course.lessoncheck",
        description=usage.split("\n\n")[0],
        epilog=usage.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="{check,rules,try,sweep}")
    c = sub.add_parser("check", help="a solution notebook: rules, runs, stubs, every known answer graded")
    c.add_argument("notebook", type=Path, help="solutions/NN_name/NN_name.ipynb")
    r = sub.add_parser("rules", help="a solution notebook: every hidden assertion has its rule (seconds)")
    r.add_argument("notebook", type=Path, help="solutions/NN_name/NN_name.ipynb")
    t = sub.add_parser("try", help="swap the answers of CANDIDATES.py into a solution, print which tests fail")
    t.add_argument("candidates", type=Path, help="a .py file listing MUTANTS, or CORRECT and WRONG")
    t.add_argument("notebook", type=Path, help="solutions/NN_name/NN_name.ipynb")
    t.add_argument("emulation", nargs="?", choices=("tpu", "gpu"), help="emulated matmul precision (default: none)")
    s = sub.add_parser("sweep", help="grade every known answer once per grading seed")
    s.add_argument("lesson", help="NN_name (or its notebook's path)")
    s.add_argument("--seeds", type=int, default=20, help="how many seeds, drawn as the grader draws them (20)")
    s.add_argument("--first", type=int, default=0, help="the first of those seeds' indices (0)")
    s.add_argument("--seed", type=int, action="append", default=[], help="a seed to use (repeatable)")
    return p


def main(argv: list[str]) -> int:
    if argv and argv[0] == "--try":  # the older spelling: --try CANDIDATES.py NOTEBOOK [tpu|gpu]
        argv = ["try", *argv[1:]]
    elif argv and argv[0].endswith(".ipynb"):  # the older spelling: a notebook alone is `check`
        argv = ["check", *argv]
    args = parser().parse_args(argv)
    if args.command == "check":
        return check(args.notebook.resolve())
    if args.command == "rules":
        return rules(args.notebook.resolve())
    if args.command == "try":
        return try_answers(args.notebook.resolve(), args.candidates.resolve(), args.emulation)
    from ...grader.notebook.grade import notebook_seed

    lesson = Path(args.lesson).stem
    seeds = args.seed or [notebook_seed(i, "sweep", lesson) for i in range(args.first, args.first + args.seeds)]
    return 1 if sweep(lesson, seeds) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
