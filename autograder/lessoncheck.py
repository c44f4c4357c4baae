"""Check one lesson the way the test suite does, in a few seconds per mutant.

    python -m autograder.lessoncheck solutions/NN_name/NN_name.ipynb

1. the solution notebook runs clean (hidden tests included) and how long it takes;
2. its stubbed student version errors only with NotImplementedError or in test cells;
3. graded under TPU matmul precision (the grader's default): every plausible wrong answer in
   ``tests/mutants/<NN_name>.py`` fails its own exercise's hidden test and no test of any other
   exercise, and every correct alternative in ``tests/alternatives/<NN_name>.py`` passes its own.

    python -m autograder.lessoncheck --try CANDIDATES.py solutions/NN_name/NN_name.ipynb [tpu|gpu]

swaps each answer listed in CANDIDATES.py (lists MUTANTS, CORRECT or WRONG of dicts
``function, why, source``) into the solution and prints which test cells fail (not their code),
optionally under emulated TPU or GPU matmul precision.
"""
from __future__ import annotations

import ast
import copy
import importlib.util
import os
import re
import shutil
import tempfile
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from .notebooks import ROOT, cell_grade_id, student_version

TIMEOUT = 300


def _client(nb, cwd: Path | None = None) -> NotebookClient:
    return NotebookClient(nb, timeout=TIMEOUT, kernel_name="python3", allow_errors=True,
                          resources={"metadata": {"path": str(cwd or ROOT)}})


def cell_errors(nb) -> list[tuple[int, str, str]]:
    """(index, grade_id, ename) of every code cell whose output holds an error."""
    found = []
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                found.append((i, cell_grade_id(cell), out.get("ename", "")))
    return found


def execute(nb, cwd: Path | None = None, env: dict | None = None):
    """Run a copy of ``nb`` in a fresh kernel (extra environment variables in ``env``)."""
    nb = copy.deepcopy(nb)
    if env:
        _client(nb, cwd).execute(env={**os.environ, **env})
    else:
        _client(nb, cwd).execute()
    return nb


def disallowed_student_errors(executed) -> list[tuple[int, str, str]]:
    """Errors a student version may not show: anything but NotImplementedError outside test cells."""
    return [(i, gid, ename) for i, gid, ename in cell_errors(executed)
            if ename != "NotImplementedError" and not gid.startswith("test_")]


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

    @property
    def own_hidden_failed(self) -> bool:
        return f"test_{self.function}_hidden" in self.failed_tests

    @property
    def others_failed(self) -> list[str]:
        own = (f"test_{self.function}_visible", f"test_{self.function}_hidden")
        return [t for t in self.failed_tests if t not in own]

    @property
    def ok(self) -> bool:
        return self.own_hidden_failed and not self.others_failed


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
        return any(isinstance(sub, ast.Name) and sub.id in names and id(sub) not in called
                   for sub in ast.walk(node))

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
    return {cell_grade_id(c) for c in code if cell_grade_id(c).startswith("test_")
            and any(re.search(rf"\b{re.escape(n)}\b", c.source) for n in names)}


def run_mutants(nb, mutants: list[dict], cwd: Path | None = None, env: dict | None = None,
                alternatives: list[dict] = (), executed: list | None = None) -> list[MutantResult]:
    """Run the solution once, then swap each mutant in, run every test cell that can reach it
    (``reachable_tests``; the others cannot change), swap it back.

    ``alternatives`` (correct answers) follow in the same kernel, each checked by its own
    exercise's test cells only; their results come after the mutants'. If ``executed`` is a list,
    the solution notebook as first executed (outputs and errors) is appended to it."""
    nb = copy.deepcopy(nb)
    client = _client(nb, cwd)
    answers = {cell_grade_id(c): c for c in nb.cells}
    tests = [(i, c) for i, c in enumerate(nb.cells) if cell_grade_id(c).startswith("test_")]
    results = []
    with client.setup_kernel(**({"env": {**os.environ, **env}} if env else {})):
        for index, cell in enumerate(nb.cells):
            if cell.cell_type == "code":
                client.execute_cell(cell, index)
        if executed is not None:
            executed.append(copy.deepcopy(nb))
        for mutant in [*mutants, *[{**a, "_own_tests_only": True} for a in alternatives]]:
            original = answers[f"answer_{mutant['function']}"]
            own = (f"test_{mutant['function']}_visible", f"test_{mutant['function']}_hidden")
            reach = reachable_tests(nb, mutant["function"]) | set(own)
            swapped = nbformat.v4.new_code_cell(mutant["source"])
            client.execute_cell(swapped, 0)
            result = MutantResult(mutant["function"], mutant["why"])
            if any(o.get("output_type") == "error" for o in swapped.outputs):
                result.failed_tests.append("<the wrong answer's own code raised: it never ran>")
            for index, cell in tests:
                if cell_grade_id(cell) not in (own if mutant.get("_own_tests_only") else reach):
                    continue
                probe = copy.deepcopy(cell)
                client.execute_cell(probe, index)
                if any(o.get("output_type") == "error" for o in probe.outputs):
                    result.failed_tests.append(cell_grade_id(cell))
            client.execute_cell(copy.deepcopy(original), 0)
            results.append(result)
    return results


def load_candidates(path: Path, name: str = "MUTANTS") -> list[dict]:
    spec = importlib.util.spec_from_file_location(f"candidates_{Path(path).stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(getattr(module, name))


def try_answers(path: Path, candidates_file: Path, mode: str | None) -> int:
    """Swap each answer of ``candidates_file`` (a MUTANTS-style list, or CORRECT and WRONG lists)
    into the solution and print which tests fail, never the tests' code."""
    nb = nbformat.read(str(path), as_version=4)
    groups = {}
    for name in ("MUTANTS", "CORRECT", "WRONG"):
        try:
            groups[name] = load_candidates(candidates_file, name)
        except AttributeError:
            pass
    with tempfile.TemporaryDirectory() as tmp:
        env = emulation_env(Path(tmp), mode) if mode else None
        for name, candidates in groups.items():
            for r in run_mutants(nb, candidates, env=env):
                print(f"[{name}] {r.function}: {r.why}\n    failed: {r.failed_tests or 'nothing'}")
    return 0


def main(argv: list[str]) -> int:
    if argv and argv[0] == "--try":  # --try CANDIDATES.py solutions/NN/NN.ipynb [tpu|gpu]
        return try_answers(Path(argv[2]).resolve(), Path(argv[1]).resolve(),
                           argv[3] if len(argv) > 3 else None)
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
    print(f"student version ran in {time.perf_counter() - t0:.1f} s; "
          f"errors: {cell_errors(stub)}; disallowed: {bad or 'none'}")
    ok &= not bad

    mutants, alternatives = load_mutants(lesson), load_alternatives(lesson)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:  # graded as the grader does: TPU precision
        results = run_mutants(nb, mutants, env=emulation_env(Path(tmp), "tpu"), alternatives=alternatives)
    for r in results[:len(mutants)]:
        print(f"  {'ok  ' if r.ok else 'FAIL'} mutant {r.function}: {r.why} -> failed {r.failed_tests}")
        ok &= r.ok
    for r in results[len(mutants):]:
        print(f"  {'FAIL' if r.failed_tests else 'ok  '} alternative {r.function}: {r.why} -> failed {r.failed_tests}")
        ok &= not r.failed_tests
    tpu_only = emulated_mutants(mutants, "tpu")
    for r in run_mutants(nb, tpu_only) if tpu_only else []:
        caught = r.own_hidden_failed
        print(f"  {'FAIL' if caught else 'ok  '} TPU-only mutant passes on plain CPU: {r.why}")
        ok &= not caught
    print(f"{len(mutants)} mutants, {len(alternatives)} alternatives in {time.perf_counter() - t0:.1f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
