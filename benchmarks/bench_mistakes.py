"""How many wrong answers the library of known mistakes names, on answers its authors never saw.

    PYTHONPATH=. python benchmarks/bench_mistakes.py [--set heldout] [--lesson 02_matmul_accumulation]
    PYTHONPATH=. python benchmarks/bench_mistakes.py --blind      # for answer writers: no names shown

The answers (tests/independent/<set>/<NN_name>.py, each a list ANSWERS of dicts with "function",
"intent" ("wrong" or "correct"), "why" in the writer's words, and "source") were written from the
student release and the lesson text alone, by people who had not read the library
(solutions/<NN_name>/mistakes.py); see tests/independent/README.md. Each is graded exactly as the
grader grades (autograder.course.lessoncheck.variants.grade_variants: sandboxed student process, trusted
checker, emulated TPU precision, diagnosis on). The grader, not the writer, decides what is wrong:

- wrong: the answer fails at least one check; named: at least one failed check names a mistake;
- correct: it fails none; a correct answer must name nothing;
- an answer its writer meant as wrong that passes every check is listed (a gap in the hidden tests,
  or a writer's slip), and one meant as correct that fails is listed (a test too strict, or a slip).

Prints a row per lesson and the total share named (issue 45's target: at least 75%, and no
correct answer diagnosed); exits 1 below the target. ``--blind`` prints failed checks without
the names the diagnosis gave, so that a writer checking an answer learns nothing of the library.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = 0.75


def load(path: Path) -> list[dict]:
    from autograder.course.lessoncheck.candidates import load_candidates

    answers = load_candidates(path, "ANSWERS")
    for a in answers:
        assert a.get("intent") in ("wrong", "correct"), f"{path}: intent of {a.get('why')!r}"
        assert {"function", "why", "source"} <= set(a), f"{path}: {a.get('why')!r} lacks a field"
    return answers


def grade(lesson: str, answers: list[dict]) -> list[dict]:
    """Each answer graded as the grader grades it: its failed checks and what each names."""
    from autograder.course.lessoncheck.variants import grade_variants

    _, results = grade_variants(lesson, [{**a, "key": ""} for a in answers], "tpu", solution_tests=False)
    rows = []
    for a, r in zip(answers, results):
        named = sorted({k for keys in r.diagnosed.values() for k in keys})
        rows.append(
            {
                "function": a["function"],
                "intent": a["intent"],
                "why": a["why"],
                "failed": r.failed_tests,
                "named": named,
            }
        )
    return rows


def summary(rows: list[dict]) -> dict:
    wrong = [r for r in rows if r["failed"]]
    correct = [r for r in rows if not r["failed"]]
    return {
        "answers": len(rows),
        "wrong": len(wrong),
        "named": sum(bool(r["named"]) for r in wrong),
        "correct": len(correct),
        "correct_diagnosed": sum(bool(r["named"]) for r in correct),
        "meant_wrong_but_passed": [r["why"] for r in correct if r["intent"] == "wrong"],
        "meant_correct_but_failed": [(r["why"], r["failed"]) for r in wrong if r["intent"] == "correct"],
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--set", default="heldout", help="tests/independent/<set> (heldout or train)")
    p.add_argument("--lesson", action="append", help="only these lessons (repeatable)")
    p.add_argument("--blind", action="store_true", help="do not print which mistakes were named")
    p.add_argument("--json", type=Path, help="write every graded answer here")
    args = p.parse_args(argv)
    folder = ROOT / "tests" / "independent" / args.set
    paths = sorted(folder.glob("[0-9][0-9]_*.py"))
    if args.lesson:
        paths = [q for q in paths if q.stem in args.lesson]
    if not paths:
        print(f"no answers under {folder}")
        return 2
    total, everything = [], {}
    print(f"{'lesson':<26} {'answers':>7} {'wrong':>5} {'named':>5} {'share':>6} {'correct':>7} {'diag.':>5} {'s':>5}")
    for path in paths:
        t0 = time.perf_counter()
        rows = grade(path.stem, load(path))
        s = summary(rows)
        total += rows
        everything[path.stem] = rows
        share = s["named"] / s["wrong"] if s["wrong"] else 1.0
        print(
            f"{path.stem:<26} {s['answers']:>7} {s['wrong']:>5} {s['named']:>5} {share:>6.0%} "
            f"{s['correct']:>7} {s['correct_diagnosed']:>5} {time.perf_counter() - t0:>5.0f}"
        )
        for r in rows:
            shown = "" if args.blind else f" -> {', '.join(r['named']) or 'NOT NAMED'}"
            state = "wrong" if r["failed"] else "correct"
            print(
                f"    [{r['intent']:>7} graded {state:>7}] {r['function']}: {r['why']}"
                f"{' failed ' + ', '.join(r['failed']) if r['failed'] else ''}{shown}"
            )
    s = summary(total)
    share = s["named"] / s["wrong"] if s["wrong"] else 1.0
    print(
        f"\nnamed {s['named']} of {s['wrong']} wrong answers ({share:.1%}; target {TARGET:.0%}); "
        f"correct answers diagnosed: {s['correct_diagnosed']} of {s['correct']}"
    )
    from autograder.common.mistakes import NOT_DIAGNOSED

    diagnosable = summary(
        [r for lesson, rows in everything.items() for r in rows if f"{lesson}:{r['function']}" not in NOT_DIAGNOSED]
    )
    print(
        f"of the wrong answers to functions the grader diagnoses (not {sorted(NOT_DIAGNOSED)}: timings, by "
        f"design): named {diagnosable['named']} of {diagnosable['wrong']} "
        f"({diagnosable['named'] / max(diagnosable['wrong'], 1):.1%})"
    )
    for why in s["meant_wrong_but_passed"]:
        print(f"  meant as wrong, passes every check: {why}")
    for why, failed in s["meant_correct_but_failed"]:
        print(f"  meant as correct, fails {failed}: {why}")
    if args.json:
        args.json.write_text(json.dumps(everything, indent=1))
    return 0 if args.blind or (share >= TARGET and not s["correct_diagnosed"]) else 1


if __name__ == "__main__":
    sys.exit(main())
