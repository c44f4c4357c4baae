"""Check one lesson the way the test suite does, in a few seconds per mutant.

    python -m autograder.lessoncheck solutions/NN_name/NN_name.ipynb

1. the solution notebook runs clean (hidden tests included) and how long it takes;
2. its stubbed student version errors only with NotImplementedError or in test cells;
3. graded by the grader itself under TPU matmul precision (its default): every plausible wrong answer in
   ``tests/mutants/<NN_name>.py`` fails its own exercise's hidden test and no test of any other
   exercise, and every correct alternative in ``tests/alternatives/<NN_name>.py`` passes its own.

    python -m autograder.lessoncheck --try CANDIDATES.py solutions/NN_name/NN_name.ipynb [tpu|gpu]

swaps each answer listed in CANDIDATES.py (lists MUTANTS, CORRECT or WRONG of dicts
``function, why, source``) into the solution and prints which test cells fail (not their code),
optionally under emulated TPU or GPU matmul precision.

    python -m autograder.lessoncheck sweep NN_name [--seeds N] [--first I] [--seed S ...]

grades the solution, every mutant and every alternative once per grading seed (the
``GRADING_SEED`` hidden tests draw their inputs from; N seeds drawn as the grader draws them, or
the seeds given) and prints, per seed, any test the solution fails, any alternative rejected and
any mutant not caught: run it before committing a hidden test that draws random data.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from .notebooks import ROOT, cell_grade_id, student_version
from .notebooks import cell_errors as notebook_errors
from .notebooks import execute as run_notebook

TIMEOUT = 300


def cell_errors(nb) -> list[tuple[int, str, str]]:
    """(index, grade_id, ename) of every code cell whose output holds an error."""
    return [(i, gid, ename) for i, gid, ename, _ in notebook_errors(nb)]


def execute(nb, cwd: Path | None = None, env: dict | None = None):
    """Run a copy of ``nb`` in a fresh kernel (extra environment variables in ``env``); a run that
    stops early (dead kernel, timeout) raises, as nbclient does."""
    executed, crash = run_notebook(nb, cwd or ROOT, TIMEOUT, env)
    if crash:
        raise RuntimeError(crash)
    return executed


def disallowed_student_errors(executed) -> list[tuple[int, str, str]]:
    """Errors a student version may not show: anything but NotImplementedError outside test cells."""
    return [
        (i, gid, ename)
        for i, gid, ename in cell_errors(executed)
        if ename != "NotImplementedError" and not gid.startswith("test_")
    ]


def emulation_env(folder: Path, mode: str) -> dict:
    """Environment for a kernel that emulates TPU or GPU matmul precision (emulate_precision.py
    as an IPython start-up file in ``folder``)."""
    startup = Path(folder) / "ipython" / "profile_default" / "startup"
    startup.mkdir(parents=True, exist_ok=True)
    shutil.copy(Path(__file__).resolve().parent / "emulate_precision.py", startup / "00-emulate-precision.py")
    return {"IPYTHONDIR": str(Path(folder) / "ipython"), "COURSE_EMULATE": mode}


def cpu_mutants(mutants: list[dict]) -> list[dict]:
    """Wrong answers that plain CPU execution catches."""
    return [m for m in mutants if not m.get("only_under")]


def emulated_mutants(mutants: list[dict], mode: str) -> list[dict]:
    """Wrong answers that only show under emulated device precision ("only_under": "tpu"): the
    classic being a DEFAULT-precision "exact" reference, exact on CPU, one bf16 pass on a TPU."""
    return [m for m in mutants if m.get("only_under") == mode]


def load_mutants(lesson: str) -> list[dict]:
    path = ROOT / "tests" / "mutants" / f"{lesson}.py"
    if not path.exists():
        return []
    spec = importlib.util.spec_from_file_location(f"mutants_{lesson}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.MUTANTS)


@dataclass
class MutantResult:
    function: str
    why: str
    failed_tests: list[str] = field(default_factory=list)
    visible_fails: bool = False  # the mutant's "visible_fails": its visible test must catch it too

    @property
    def own_hidden_failed(self) -> bool:
        return f"test_{self.function}_hidden" in self.failed_tests

    @property
    def others_failed(self) -> list[str]:
        own = (f"test_{self.function}_visible", f"test_{self.function}_hidden")
        return [t for t in self.failed_tests if t not in own]

    @property
    def ok(self) -> bool:
        visible = f"test_{self.function}_visible" in self.failed_tests or not self.visible_fails
        return self.own_hidden_failed and visible and not self.others_failed


def load_alternatives(lesson: str) -> list[dict]:
    """Correct answers other than the reference (tests/alternatives/<lesson>.py): each must pass."""
    path = ROOT / "tests" / "alternatives" / f"{lesson}.py"
    return load_candidates(path, "ALTERNATIVES") if path.exists() else []


def _names_reaching(source: str, names: set[str]) -> set[str]:
    """Names that a non-test cell defines and that can call one of ``names`` later: functions and
    classes whose code mentions one, and variables bound to an expression that mentions one
    without calling it (``step = jax.jit(f)``, ``g = f``); a variable holding a result cannot call."""

    def mentions(node):
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and sub.id in names:
                return True
            if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and sub.value in names:
                return True
        return False

    def uncalled(node):
        called = {id(c.func) for c in ast.walk(node) if isinstance(c, ast.Call)}
        return any(isinstance(sub, ast.Name) and sub.id in names and id(sub) not in called for sub in ast.walk(node))

    try:
        tree = ast.parse(source)
    except SyntaxError:  # IPython syntax: assume the worst, every name defined at the top level
        return {a or b for a, b in re.findall(r"^(?:def\s+(\w+)|(\w+)\s*=)", source, re.M)}
    found = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and mentions(node):
            found.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None and uncalled(node.value):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return found


def reachable_tests(nb, function: str) -> set[str]:
    """grade_ids of the test cells that can call ``function``: those that name it (in code or as a
    string, as the isolation helpers do), or name something defined elsewhere that can call it
    (``_names_reaching``), transitively. A test cell outside this set cannot run the function, so
    swapping in a wrong one cannot change its result."""
    names, changed = {function}, True
    code = [c for c in nb.cells if c.cell_type == "code"]
    while changed:
        changed = False
        for cell in code:
            if not cell_grade_id(cell).startswith("test_"):
                new = _names_reaching(cell.source, names) - names
                if new:
                    names |= new
                    changed = True
    return {
        cell_grade_id(c)
        for c in code
        if cell_grade_id(c).startswith("test_") and any(re.search(rf"\b{re.escape(n)}\b", c.source) for n in names)
    }


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
    from .grader.plan import build_plan
    from .grader.run import run_checker
    from .grader.settings import Settings
    from .grader.studentcode import Protected, definitions_only

    source = nbformat.read(str(root / "solutions" / lesson / f"{lesson}.ipynb"), as_version=4)
    release = nbformat.read(str(root / "notebooks" / lesson / f"{lesson}.ipynb"), as_version=4)
    from .notebooks import fill_answers

    plan = build_plan(source, release, fill_answers(release, source))
    protected = Protected(
        [
            c.source
            for c in source.cells
            if c.cell_type == "code" and not cell_grade_id(c).startswith(("answer_", "test_"))
        ]
    )
    index = {t.grade_id: i for i, t in enumerate(plan.tests)}
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
    records, _ = run_checker(
        plan, settings, root, variants, seed=seed, start_at=0 if solution_tests else len(plan.tests)
    )
    results = []
    for m, v in zip([*candidates, *alternatives], variants):
        r = v.get("result", {"failed": ["<not run>"], "errors": []})
        failed = list(r["failed"])
        if r["errors"]:
            failed.insert(0, "<the answer's own code raised: it never ran>")
        results.append(MutantResult(m["function"], m["why"], failed, bool(m.get("visible_fails"))))
    return records, results


def load_candidates(path: Path, name: str = "MUTANTS") -> list[dict]:
    spec = importlib.util.spec_from_file_location(f"candidates_{Path(path).stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(getattr(module, name))


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


def sweep_main(argv: list[str]) -> int:
    """sweep NN_name [--seeds N] [--first I] [--seed S ...]: N seeds drawn as the grader draws them
    (``notebook_seed(i, "sweep", lesson)`` for i = I .. I+N-1), or the seeds given."""
    from .grader.run import notebook_seed

    lesson, n, first, given = Path(argv[0]).stem, 20, 0, []
    rest = argv[1:]
    while rest:
        flag, value, rest = rest[0], int(rest[1]), rest[2:]
        if flag == "--seeds":
            n = value
        elif flag == "--first":
            first = value
        elif flag == "--seed":
            given.append(value)
        else:
            raise SystemExit(f"unknown option {flag}")
    return 1 if sweep(lesson, given or [notebook_seed(i, "sweep", lesson) for i in range(first, first + n)]) else 0


def main(argv: list[str]) -> int:
    if argv and argv[0] == "sweep":
        return sweep_main(argv[1:])
    if argv and argv[0] == "--try":  # --try CANDIDATES.py solutions/NN/NN.ipynb [tpu|gpu]
        return try_answers(Path(argv[2]).resolve(), Path(argv[1]).resolve(), argv[3] if len(argv) > 3 else None)
    path = Path(argv[0]).resolve()
    lesson = path.stem
    nb = nbformat.read(str(path), as_version=4)
    ok = True

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

    mutants, alternatives = load_mutants(lesson), load_alternatives(lesson)
    t0 = time.perf_counter()
    records, results = grade_variants(lesson, mutants, "tpu", alternatives)  # as the grader grades
    failed = [r.grade_id for r in records if r.state != "ok"]
    print(f"  graded by the grader, the solution fails: {failed or 'nothing'}")
    ok &= not failed
    for r in results[: len(mutants)]:
        print(f"  {'ok  ' if r.ok else 'FAIL'} mutant {r.function}: {r.why} -> failed {r.failed_tests}")
        ok &= r.ok
    for r in results[len(mutants) :]:
        print(f"  {'FAIL' if r.failed_tests else 'ok  '} alternative {r.function}: {r.why} -> failed {r.failed_tests}")
        ok &= not r.failed_tests
    tpu_only = emulated_mutants(mutants, "tpu")
    for r in grade_variants(lesson, tpu_only, "none", solution_tests=False)[1] if tpu_only else []:
        caught = r.own_hidden_failed
        print(f"  {'FAIL' if caught else 'ok  '} TPU-only mutant passes on plain CPU: {r.why}")
        ok &= not caught
    print(f"{len(mutants)} mutants, {len(alternatives)} alternatives in {time.perf_counter() - t0:.1f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
