"""Check one lesson the way the test suite does, in a few seconds per mutant.

    python -m autograder.lessoncheck solutions/NN_name/NN_name.ipynb

1. the solution notebook runs clean (hidden tests included) and how long it takes;
2. its stubbed student version errors only with NotImplementedError or in test cells;
3. every plausible wrong answer in ``tests/mutants/<NN_name>.py`` fails its own exercise's hidden
   test and no test of any other exercise.

    python -m autograder.lessoncheck --try CANDIDATES.py solutions/NN_name/NN_name.ipynb [tpu|gpu]

swaps each answer listed in CANDIDATES.py (lists MUTANTS, CORRECT or WRONG of dicts
``function, why, source``) into the solution and prints which test cells fail (not their code),
optionally under emulated TPU or GPU matmul precision.
"""
from __future__ import annotations

import copy
import importlib.util
import os
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


def run_mutants(nb, mutants: list[dict], cwd: Path | None = None,
                env: dict | None = None) -> list[MutantResult]:
    """Run the solution once, then swap each mutant in, run every test cell, swap it back."""
    nb = copy.deepcopy(nb)
    client = _client(nb, cwd)
    answers = {cell_grade_id(c): c for c in nb.cells}
    tests = [(i, c) for i, c in enumerate(nb.cells) if cell_grade_id(c).startswith("test_")]
    results = []
    with client.setup_kernel(**({"env": {**os.environ, **env}} if env else {})):
        for index, cell in enumerate(nb.cells):
            if cell.cell_type == "code":
                client.execute_cell(cell, index)
        for mutant in mutants:
            original = answers[f"answer_{mutant['function']}"]
            swapped = nbformat.v4.new_code_cell(mutant["source"])
            client.execute_cell(swapped, 0)
            result = MutantResult(mutant["function"], mutant["why"])
            if any(o.get("output_type") == "error" for o in swapped.outputs):
                result.failed_tests.append("<the wrong answer's own code raised: it never ran>")
            for index, cell in tests:
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

    mutants = load_mutants(lesson)
    t0 = time.perf_counter()
    for r in run_mutants(nb, cpu_mutants(mutants)):
        flag = "ok  " if r.ok else "FAIL"
        print(f"  {flag} mutant {r.function}: {r.why} -> failed {r.failed_tests}")
        ok &= r.ok
    tpu_only = emulated_mutants(mutants, "tpu")
    if tpu_only:
        with tempfile.TemporaryDirectory() as tmp:
            for r in run_mutants(nb, tpu_only, env=emulation_env(Path(tmp), "tpu")):
                flag = "ok  " if r.ok else "FAIL"
                print(f"  {flag} mutant (TPU precision) {r.function}: {r.why} -> failed {r.failed_tests}")
                ok &= r.ok
    print(f"{len(mutants)} mutants in {time.perf_counter() - t0:.1f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
