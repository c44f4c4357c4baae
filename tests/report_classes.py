"""Classes for the report's tests, made without grading: a large class written as the grader's
model classes (``Result``, ``TestResult``) with real lesson names and real keys of the course's
library of known mistakes (autograder.common.mistakes), read by the report's own loader
(``load.from_results``); and a tiny class built by hand for the misconceptions table."""

from __future__ import annotations

import json
import random
from pathlib import Path

from autograder.common import mistakes
from autograder.grader.core.model import Outcome, Result, Status, TestResult
from autograder.common.notebooks import lessons

WEIGHTS = {"ok": 62.0, "missing": 30.0, "timeout": 3.0, "error": 3.0, "tampered": 2.0}
MESSAGES = [
    "AssertionError: max abs error {} too large",
    "AssertionError: expected shape (64, 64), got ({}, 64)",
    "AssertionError: values differ at {} positions",
    "AssertionError: dtype float32 expected",
]


def library() -> dict[str, dict[str, list[str]]]:
    """{lesson: {function: [mistake keys]}} for every lesson of the course."""
    found = {}
    for lesson in lessons():
        by_function: dict[str, list[str]] = {}
        for m in mistakes.load(lesson):
            by_function.setdefault(m.function, []).append(m.key)
        found[lesson] = by_function
    return found


def large_class(n: int = 2000, seed: int = 0) -> list[Result]:
    """n students x every lesson: about 30% missing rows, every status, wrong answers diagnosed as
    one known mistake (a few popular ones per exercise, a long tail), as "one of" two, or as none."""
    rng = random.Random(seed)
    lib = library()
    results = []
    for i in range(n):
        student = f"student{i:04d}"
        skill = rng.random()
        for lesson, functions in lib.items():
            status = rng.choices(list(WEIGHTS), list(WEIGHTS.values()))[0]
            r = Result(
                student, lesson, status=Status(status), seconds=0.0 if status == "missing" else rng.uniform(2, 40)
            )
            r.max_score = 4.0 * len(functions)
            if status != "missing":
                r.detail = {"ok": "", "timeout": "timed out in a cell", "error": "the kernel died",
                            "tampered": "deleted a hidden test"}[status]  # fmt: skip
                for function, keys in functions.items():
                    r.tests += _exercise(rng, status, skill, function, keys)
            r.score = sum(t.score for t in r.tests)
            results.append(r)
    return results


def _exercise(rng: random.Random, status: str, skill: float, function: str, keys: list[str]) -> list[TestResult]:
    wrong = status == "ok" and rng.random() < 0.6 * (1 - skill)
    ranked = (
        sorted(keys) if f"{keys[0].split(':')[0]}:{function}" not in mistakes.NOT_DIAGNOSED else []
    )  # the popular mistakes: the first few of the sorted keys, a long tail after
    diagnosis: list[str] = []
    if wrong and ranked and rng.random() < 0.75:
        first = ranked[min(int(rng.expovariate(0.7)), len(ranked) - 1)]
        diagnosis = [first]
        if len(ranked) > 1 and rng.random() < 0.2:  # "one of" two that behave alike
            diagnosis.append(rng.choice([k for k in ranked if k != first]))
    tests = []
    for kind, points in (("visible", 1.0), ("hidden", 3.0)):
        t = TestResult(
            f"test_{function}_{kind}", points, points, hidden=kind == "hidden", doc=f"Checks {function} ({kind})."
        )
        if status == "tampered":
            t.score, t.error, t.outcome = 0.0, "no points: code aimed at the grader", Outcome.VOIDED
        elif status in ("timeout", "error") and rng.random() < 0.4:
            t.score, t.error, t.outcome = 0.0, "did not finish", Outcome.TIMED_OUT
        elif wrong and (kind == "hidden" or rng.random() < 0.5):
            t.score, t.outcome, t.mistakes = 0.0, Outcome.WRONG, list(diagnosis)
            t.message = rng.choice(MESSAGES).format(round(rng.uniform(0, 9), 3))
            t.error = t.message if kind == "visible" else "AssertionError (the hidden test's details are not shown)"
        elif status == "ok" and rng.random() < 0.03:
            t.score, t.error, t.outcome = 0.0, "NotImplementedError", Outcome.UNANSWERED
        tests.append(t)
    return tests


def write_results(out: Path, results: list[Result]) -> None:
    """OUT/results.json as the grader writes it (the report's loader reads the rest from memory)."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps([r.to_dict() for r in results]))
