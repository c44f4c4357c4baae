"""Grading authors' candidate answers exactly as the grader grades students (grader.run.run_variants)."""

from __future__ import annotations

from pathlib import Path

import nbformat

from ...common.notebooks import ROOT, cell_grade_id
from .candidates import MutantResult, reachable_tests
from .kernels import TIMEOUT


def _grade_again_the_other_way(plan, settings, root: Path, variants: list[dict], seed: int, diagnosis: dict) -> None:
    """As grading does (grader/core/readings.py): the candidates whose checks failed on code that met one
    of the chip's choices are run again under the other reading, and where that run's failed checks
    are worth fewer points, its result counts, whole (failed, diagnosed, rules' sites)."""
    from ...grader.core import readings
    from ...grader.notebook.watch import run_variants

    again = [v for v in variants if v.get("result", {}).get("failed") and v["result"].get("choices")]
    if not again:
        return
    second = [{k: v[k] for k in ("cells", "restore", "tests", "names")} for v in again]
    start = len(plan.tests)  # the solution's own checks passed: the candidates only
    run_variants(plan, settings, root, second, seed=seed, start_at=start, diagnosis=diagnosis, reading=readings.OTHER)
    points = {t.grade_id: t.points for t in plan.tests}
    lost = lambda failed: sum(points.get(g, float("inf")) for g in failed)  # noqa: E731  a stop costs all
    for v, w in zip(again, second):
        result = w.get("result")
        if not result or result.get("errors"):  # not run there: the first reading's verdict stands
            continue
        if lost(result["failed"]) < lost(v["result"]["failed"]):
            v["result"] = {**v["result"], **{k: result.get(k, []) for k in ("failed", "diagnosed", "sites")}}


def grade_variants(
    lesson: str,
    candidates: list[dict],
    emulation: str = "tpu",
    alternatives: list[dict] = (),
    root: Path = ROOT,
    solution_tests: bool = True,
    seed: int = 0,
):
    """Grade each candidate answer exactly as the grader does (autograder/grader): the solution
    submitted through the definitions-only plan, the sandboxed student process and the trusted
    checker; then each candidate swapped into the student's process in turn, the test cells that
    can reach it run in the checker, the original swapped back. Alternatives (correct answers) run
    only their own exercise's tests. Returns (records of the solution's tests, MutantResults for
    ``candidates`` then ``alternatives``); ``solution_tests=False`` skips grading the solution itself
    (its records then stay "skipped"). ``seed`` is the ``GRADING_SEED`` the hidden tests see, as
    ``grade`` gives each notebook its own."""
    from ...grader.notebook.plan import build_plan
    from ...grader.diagnosis.plugin import payload_of
    from ...grader.notebook.watch import run_variants
    from ...grader.core.settings import Settings
    from ...grader.core.rules import rule_for
    from ...grader.core.studentcode import Protected, definitions_only

    source = nbformat.read(str(root / "solutions" / lesson / f"{lesson}.ipynb"), as_version=4)
    release = nbformat.read(str(root / "notebooks" / lesson / f"{lesson}.ipynb"), as_version=4)
    from ...common.mistakes import for_diagnosis
    from ...common.mistakes import load as load_mistakes
    from ...common.notebooks import fill_answers

    plan = build_plan(source, release, fill_answers(release, source))
    diagnosis = payload_of(source, for_diagnosis(load_mistakes(lesson, root)))  # failed checks diagnosed as in grading
    protected = Protected(
        [
            c.source
            for c in source.cells
            if c.cell_type == "code" and not cell_grade_id(c).startswith(("answer_", "test_"))
        ]
    )
    index = {t.grade_id: i for i, t in enumerate(plan.tests)}
    steps = {t.grade_id: t for t in plan.tests}
    original = dict(plan.student_cells)
    variants = []
    for m in [*candidates, *[{**a, "_own_tests_only": True} for a in alternatives]]:
        own = {f"test_{m['function']}_visible", f"test_{m['function']}_hidden"}
        reach = own if m.get("_own_tests_only") else reachable_tests(source, m["function"]) | own
        label = f"answer_{m['function']}"
        code, _, _ = definitions_only(m["source"], protected)
        variants.append(
            {
                "cells": [[label, code]],
                "restore": [[label, original.get(label, "")]],
                "tests": sorted(index[g] for g in reach if g in index),
                "names": [m["function"]],
            }
        )
    settings = Settings(emulation=emulation, notebook_timeout=60.0 * (10 + len(variants)), cell_timeout=TIMEOUT)
    records, _ = run_variants(
        plan,
        settings,
        root,
        variants,
        seed=seed,
        start_at=0 if solution_tests else len(plan.tests),
        diagnosis=diagnosis,
    )
    _grade_again_the_other_way(plan, settings, root, variants, seed, diagnosis)
    results = []
    for m, v in zip([*candidates, *alternatives], variants):
        r = v.get("result", {"failed": ["<not run>"], "errors": []})
        failed = list(r["failed"])
        if r["errors"]:
            failed.insert(0, "<the answer's own code raised: it never ran>")
        diagnosed = {d[0]: list(d[1:]) for d in r.get("diagnosed", []) if d}
        rules = {  # the rule each failed hidden check broke, decided as verdict.rule_of decides it
            gid: rule_for(steps[gid].source, line, raised_by)
            for gid, line, raised_by in r.get("sites", [])
            if gid in steps and steps[gid].hidden
        }
        results.append(
            MutantResult(
                m["function"], m["why"], failed, bool(m.get("visible_fails")), m.get("key", ""), diagnosed, rules
            )
        )
    return records, results
