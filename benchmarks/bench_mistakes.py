"""How often a wrong answer's every failed check tells the student what is wrong (a named mistake
from the library, or the rule of the contract it broke), on answers the library's authors never saw;
and that no correct answer is told anything.

    PYTHONPATH=. python benchmarks/bench_mistakes.py                      # every set below, then correct answers
    PYTHONPATH=. python benchmarks/bench_mistakes.py --set heldout [--lesson 02_matmul_accumulation]
    PYTHONPATH=. python benchmarks/bench_mistakes.py --set heldout --blind   # for answer writers: nothing named shown

The sets (``--set``, repeatable):

- ``developers``: solutions/<NN_name>/heldout.py (``HELDOUT``), wrong answers the developers wrote
  apart from the library, each making one of its mistakes (issue 32);
- ``heldout``: solutions/<NN_name>/independent/heldout.py (``ANSWERS``, each with an ``intent``,
  "wrong" or "correct"), written from the student release and the lesson text alone by people who
  had not read the library, the solutions or the hidden tests (docs/AUTHORING.md, "Answers written
  outside the course"); ``train``: their other half (independent/train.py), which the library's
  authors may read;
- ``correct``: the correct answers of the repository, the solutions themselves and each lesson's
  alternatives.py.

Each answer is graded exactly as the grader grades (autograder.course.lessoncheck.variants.grade_variants:
sandboxed student process, trusted checker, emulated TPU precision, diagnosis on). The grader, not
the writer, decides what is wrong: an answer that fails at least one check is wrong, one that fails
none is correct. Per wrong answer:

- named: at least one failed check names a known mistake (issue 45's measure, target 75%);
- explained: EVERY failed check says what is wrong: it names a known mistake, or it is a hidden
  check showing the rule it broke (grader/core/rules.py, the rule ``verdict.rule_of`` gives it), or
  it is a visible check (its own message and code are the student's to read). A hidden check that
  timed out, died or hit a limit shows no rule and is not explained; nor is an answer whose own
  code raised before it could run. Issue 54's target: at least 95% on the held-out sets.

A correct answer must be told nothing: no mistake named and no rule shown (then none of its checks
failed). The solutions graded as the grader grades must pass everything, every alternative too;
one that fails is listed with what it was told. The independent sets' answers meant as wrong that
pass every check (a gap in the hidden tests, or a writer's slip) and meant as correct that fail (a
test too strict, or a slip) are listed. Exits 1 below a target or where a correct answer is told
anything.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_NAMED = 0.75  # issue 45: at least one failed check names a known mistake
TARGET_EXPLAINED = 0.95  # issue 54: every failed check says what is wrong
SETS = {  # the set's file in each lesson's folder, and its variable
    "developers": ("heldout.py", "HELDOUT"),
    "heldout": ("independent/heldout.py", "ANSWERS"),
    "train": ("independent/train.py", "ANSWERS"),
}
NEVER_RAN = "<the answer's own code raised: it never ran>"


def load(path: Path, variable: str) -> list[dict]:
    from autograder.course.lessoncheck.candidates import load_candidates

    answers = load_candidates(path, variable)
    for a in answers:
        a.setdefault("intent", "wrong")  # heldout.py: every answer makes one of the library's mistakes
        assert a.get("intent") in ("wrong", "correct"), f"{path}: intent of {a.get('why')!r}"
        assert {"function", "why", "source"} <= set(a), f"{path}: {a.get('why')!r} lacks a field"
    return answers


def told(result) -> dict[str, str]:
    """What each failed check of a graded answer tells its student ("" where nothing specific):
    the known mistakes it names and a hidden check's rule, else a visible check's own message."""
    said = {}
    for gid in result.failed_tests:
        keys, rule = result.diagnosed.get(gid) or [], result.rules.get(gid, "")
        if keys or rule:
            said[gid] = "; ".join(
                ([f"mistake: {' or '.join(keys)}"] if keys else []) + ([f"rule: {rule}"] if rule else [])
            )
        elif gid.endswith("_visible"):
            said[gid] = "its own message (a visible check)"
        else:
            said[gid] = ""
    return said


def row_of(answer: dict, result) -> dict:
    said = told(result)
    return {
        "function": answer["function"],
        "intent": answer["intent"],
        "why": answer["why"],
        "failed": result.failed_tests,
        "named": sorted({k for keys in result.diagnosed.values() for k in keys}),
        "told": said,
        "explained": bool(said) and all(said.values()) and NEVER_RAN not in said,
    }


def grade(lesson: str, answers: list[dict]) -> list[dict]:
    """Each answer graded as the grader grades it: its failed checks and what each tells."""
    from autograder.course.lessoncheck.variants import grade_variants

    _, results = grade_variants(lesson, [{**a, "key": ""} for a in answers], "tpu", solution_tests=False)
    return [row_of(a, r) for a, r in zip(answers, results)]


def summary(rows: list[dict]) -> dict:
    wrong = [r for r in rows if r["failed"]]
    correct = [r for r in rows if not r["failed"]]
    return {
        "answers": len(rows),
        "wrong": len(wrong),
        "named": sum(bool(r["named"]) for r in wrong),
        "explained": sum(r["explained"] for r in wrong),
        "correct": len(correct),
        "correct_diagnosed": sum(bool(r["named"]) for r in correct),
        "meant_wrong_but_passed": [r["why"] for r in correct if r["intent"] == "wrong"],
        "meant_correct_but_failed": [(r["why"], r["failed"]) for r in wrong if r["intent"] == "correct"],
    }


def share(a: int, b: int) -> float:
    return a / b if b else 1.0


def measure(name: str, lessons: list[str] | None, blind: bool) -> tuple[bool, dict]:
    """One set graded and printed, lesson by lesson: whether it meets both targets, and its rows."""
    from autograder.common.notebooks import lessons as course_lessons

    file, variable = SETS[name]
    found = {n: ROOT / "solutions" / n / file for n in course_lessons(ROOT) if not lessons or n in lessons}
    paths = {n: q for n, q in found.items() if q.is_file()}
    if not paths:
        print(f"\n[{name}] no answers in solutions/<NN_name>/{file}")
        return True, {}
    print(f"\n[{name}] solutions/<NN_name>/{file}")
    print(
        f"{'lesson':<26} {'answers':>7} {'wrong':>5} {'named':>5} {'share':>6} "
        f"{'explained':>9} {'share':>6} {'correct':>7} {'diag.':>5} {'s':>5}"
    )
    total, everything = [], {}
    for lesson, path in paths.items():
        t0 = time.perf_counter()
        rows = grade(lesson, load(path, variable))
        s = summary(rows)
        total += rows
        everything[lesson] = rows
        print(
            f"{lesson:<26} {s['answers']:>7} {s['wrong']:>5} {s['named']:>5} {share(s['named'], s['wrong']):>6.0%} "
            f"{s['explained']:>9} {share(s['explained'], s['wrong']):>6.0%} {s['correct']:>7} "
            f"{s['correct_diagnosed']:>5} {time.perf_counter() - t0:>5.0f}"
        )
        for r in rows:
            state = "wrong" if r["failed"] else "correct"
            print(f"    [{r['intent']:>7} graded {state:>7}] {r['function']}: {r['why']}")
            for gid, said in r["told"].items():
                shown = ("(something specific)" if said else "NOTHING SPECIFIC") if blind else (said or "NOTHING")
                print(f"        failed {gid}: {shown}")
    s = summary(total)
    named, explained = share(s["named"], s["wrong"]), share(s["explained"], s["wrong"])
    print(
        f"[{name}] every failed check says what is wrong for {s['explained']} of {s['wrong']} wrong answers "
        f"({explained:.1%}; target {TARGET_EXPLAINED:.0%}); a known mistake named for {s['named']} "
        f"({named:.1%}; target {TARGET_NAMED:.0%}); "
        f"correct answers diagnosed: {s['correct_diagnosed']} of {s['correct']}"
    )
    from autograder.common.mistakes import NOT_DIAGNOSED

    diagnosable = summary(
        [r for lesson, rows in everything.items() for r in rows if f"{lesson}:{r['function']}" not in NOT_DIAGNOSED]
    )
    print(
        f"[{name}] of the wrong answers to functions the grader diagnoses (not {sorted(NOT_DIAGNOSED)}: timings, "
        f"by design): named {diagnosable['named']} of {diagnosable['wrong']} "
        f"({share(diagnosable['named'], diagnosable['wrong']):.1%})"
    )
    for why in s["meant_wrong_but_passed"]:
        print(f"  meant as wrong, passes every check: {why}")
    for why, failed in s["meant_correct_but_failed"]:
        print(f"  meant as correct, fails {failed}: {why}")
    return explained >= TARGET_EXPLAINED and named >= TARGET_NAMED and not s["correct_diagnosed"], everything


def correct_answers(lessons: list[str] | None) -> tuple[bool, dict]:
    """The solutions and their alternatives.py, graded as the grader grades: nothing fails, so nothing
    is named and no rule is shown."""
    from autograder.common.notebooks import lessons as all_lessons
    from autograder.course.lessoncheck.candidates import load_alternatives
    from autograder.course.lessoncheck.variants import grade_variants

    print("\n[correct] the solutions and each lesson's alternatives.py")
    print(f"{'lesson':<26} {'answers':>7} {'told':>5} {'s':>5}")
    ok, everything = True, {}
    for lesson in lessons or all_lessons():
        t0 = time.perf_counter()
        alternatives = load_alternatives(lesson)
        records, results = grade_variants(lesson, [], "tpu", alternatives)
        flagged = [f"the solution fails {r.grade_id}" for r in records if r.state != "ok"]
        for a, r in zip(alternatives, results):
            said = {g: s for g, s in told(r).items()}
            if r.failed_tests or any(r.diagnosed.values()) or any(r.rules.values()):
                flagged.append(f"alternative {a['function']} ({a['why']}) is told {said or r.failed_tests}")
        everything[lesson] = flagged
        print(f"{lesson:<26} {1 + len(alternatives):>7} {len(flagged):>5} {time.perf_counter() - t0:>5.0f}")
        for line in flagged:
            print(f"    {line}")
        ok &= not flagged
    print(f"[correct] correct answers told a mistake or a rule: {sum(map(len, everything.values()))}")
    return ok, everything


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument(
        "--set",
        action="append",
        choices=[*SETS, "correct"],
        help="developers, heldout, train or correct (repeatable; default: developers, heldout, correct)",
    )
    p.add_argument("--lesson", action="append", help="only these lessons (repeatable)")
    p.add_argument("--blind", action="store_true", help="do not print which mistakes or rules were shown")
    p.add_argument("--json", type=Path, help="write every graded answer here")
    args = p.parse_args(argv)
    ok, everything, verdicts = True, {}, []
    for name in args.set or ["developers", "heldout", "correct"]:
        met, rows = correct_answers(args.lesson) if name == "correct" else measure(name, args.lesson, args.blind)
        ok &= met
        everything[name] = rows
        verdicts.append(f"{name}: {'met' if met else 'NOT met'}")
    print("\ntargets (explained >= 95%, named >= 75%, no correct answer told anything): " + "; ".join(verdicts))
    if args.json:
        args.json.write_text(json.dumps(everything, indent=1))
    return 0 if args.blind or ok else 1


if __name__ == "__main__":
    sys.exit(main())
