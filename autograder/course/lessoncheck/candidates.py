"""The course's known answers to each lesson's exercises, for authors: plausible wrong answers
(the course's library, solutions/<NN_name>/mistakes.py), other people's correct ones
(solutions/<NN_name>/alternatives.py) and the held-out wrong ones (solutions/<NN_name>/heldout.py),
what a graded one must show (MutantResult), and which test cells can reach a function."""

from __future__ import annotations

import ast
import importlib.util
import re
from dataclasses import dataclass, field
from pathlib import Path

from ...common.mistakes import NOT_DIAGNOSED
from ...common.mistakes import load as load_mistakes
from ...common import lessonfolder
from ...common.notebooks import ROOT, cell_grade_id


def cpu_mutants(mutants: list[dict]) -> list[dict]:
    """Wrong answers that plain CPU execution catches."""
    return [m for m in mutants if not m.get("only_under")]


def tpu_mutants(mutants: list[dict]) -> list[dict]:
    """Wrong answers that a TPU, real or emulated (the grader's default), must catch: all but those
    only a plain CPU shows ("only_under": "cpu")."""
    return [m for m in mutants if m.get("only_under") != "cpu"]


def emulated_mutants(mutants: list[dict], mode: str) -> list[dict]:
    """Wrong answers that only show under emulated device precision ("only_under": "tpu"): the
    classic being a DEFAULT-precision "exact" reference, exact on CPU, one bf16 pass on a TPU."""
    return [m for m in mutants if m.get("only_under") == mode]


def load_mutants(lesson: str) -> list[dict]:
    """The lesson's known wrong answers (solutions/<NN_name>/mistakes.py) as candidates to grade."""
    return [{**m.as_candidate(), "key": m.key} for m in load_mistakes(lesson)]


@dataclass
class MutantResult:
    function: str
    why: str
    failed_tests: list[str] = field(default_factory=list)
    visible_fails: bool = False  # the mutant's "visible_fails": its visible test must catch it too
    key: str = ""  # a library mistake's key (autograder.common.mistakes.Mistake.key); "" for other answers
    diagnosed: dict[str, list[str]] = field(default_factory=dict)  # failed test -> mistakes named there
    rules: dict[str, str] = field(default_factory=dict)  # failed hidden test -> the rule it broke ("": none)

    @property
    def diagnosis_problems(self) -> list[str]:
        """How the grader's diagnosis of this answer's failed checks is wrong: a library mistake
        must be named (alone, or in an "or" set) by at least one failed check and every check that
        names something must name it; any other answer, and a mistake of a function that is never
        diagnosed (autograder.common.mistakes.NOT_DIAGNOSED), must be named by none."""
        named = {g: keys for g, keys in self.diagnosed.items() if keys}
        if not self.key or self.key.rsplit(":", 1)[0] in NOT_DIAGNOSED:
            return [f"{g} names {keys}" for g, keys in named.items()]
        wrong = [f"{g} names {keys}, not {self.key}" for g, keys in named.items() if self.key not in keys]
        return wrong + ([] if named else [f"no failed check names {self.key}"])

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


def load_alternatives(lesson: str, root: Path = ROOT) -> list[dict]:
    """Correct answers other than the reference (solutions/<lesson>/alternatives.py): each must pass."""
    path = lessonfolder.companion(lesson, lessonfolder.ALTERNATIVES_FILE, root)
    return load_candidates(path, "ALTERNATIVES") if path.exists() else []


def load_heldout(lesson: str, root: Path = ROOT) -> list[dict]:
    """Wrong answers written apart from the library, each naming the library's mistake it makes
    (``key``; solutions/<lesson>/heldout.py): the diagnosis's measure."""
    path = lessonfolder.companion(lesson, lessonfolder.HELDOUT_FILE, root)
    return load_candidates(path, "HELDOUT") if path.exists() else []


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


def load_candidates(path: Path, name: str = "MUTANTS") -> list[dict]:
    spec = importlib.util.spec_from_file_location(f"candidates_{Path(path).stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(getattr(module, name))
