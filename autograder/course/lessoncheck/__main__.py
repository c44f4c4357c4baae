"""The command line of autograder.course.lessoncheck (``python -m autograder.course.lessoncheck --help``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import nbformat

from ...common.notebooks import ROOT, cell_grade_id
from ...grader.core.rules import notebook_problems
from .candidates import load_candidates
from .steps import STEPS, check
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
    sub = p.add_subparsers(dest="command", required=True, metavar="{new,check,rules,try,sweep}")
    n = sub.add_parser("new", help="a new lesson's folder from the skeleton: solutions/NN_name/")
    n.add_argument("lesson", help="NN_name: two digits, an underscore, lowercase words (07_fp16_loss_scaling)")
    n.add_argument("title", help='the title after "NN ·" ("fp16 loss scaling")')
    c = sub.add_parser("check", help="a lesson: every per-lesson check of make test and make compat, in order")
    c.add_argument("lesson", help="NN_name (or its notebook's path)")
    c.add_argument("--step", action="append", choices=[s.name for s in STEPS], help="only this step (repeatable)")
    c.add_argument("--keep-going", action="store_true", help="run every step, whatever fails")
    c.add_argument("--verbose", action="store_true", help="what passing tests print too (each mistake's rules)")
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
    if args.command == "new":
        from ..skeleton import new_lesson

        try:
            made = new_lesson(args.lesson, args.title)
        except ValueError as exc:
            print(f"new: {exc}")
            return 1
        print(f"Wrote {made.relative_to(ROOT)}/ from the skeleton: {', '.join(sorted(p.name for p in made.iterdir()))}")
        print(
            f"Next (docs/AUTHORING.md, 'A new lesson, step by step'): write the lesson in its folder, then "
            f"python -m autograder.course.lessoncheck check {args.lesson} (it says when to run the release)"
        )
        return 0
    if args.command == "check":
        return check(Path(args.lesson).stem, keep_going=args.keep_going, only=args.step, verbose=args.verbose)
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
